/* test_border.c: the border watch (vision/vis_border.c) on boards drawn by synth.h.
 *
 *  - a still scene: nothing crossed, the snapshot untouched, frame after frame;
 *  - an arm across the bottom border: the edge points beside it hidden (colour empty,
 *    confidence 0), the occluder flag set, points elsewhere untouched; withdrawn: clear
 *    in the next frame;
 *  - the whole picture brighter by 30 levels (exposure), or moved by two pixels (the
 *    camera shaking; the geometry not followed): nothing crossed;
 *  - a thing left still on the border is not crossed after settle_s, its going is no
 *    change, and its coming back is a crossing again; left past learn_s it is the
 *    background, and its going a change;
 *  - a black stone on the edge line (its disc and shadow reach 0.56 of a line out) does
 *    not cross the watched part (from 0.95 out);
 *  - a frame whose reader sees a hand learns nothing; a board lost and found where it was
 *    keeps its background, found elsewhere forgets it; a ring out of the picture is never watched; bad arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "synth.h"
#include "vision/vis_border.h"

#define IMG_W 640
#define IMG_H 480
#define N 19

typedef struct {
    synth_t s;
    uint8_t stones[N * N];
    vis_geom_t g;
    vis_border_t w;
} fx_t;

static void fx_init(fx_t *f)
{
    memset(f, 0, sizeof *f);
    synth_defaults(&f->s, IMG_W, IMG_H, N);
    /* a board well inside the picture, the ring and the table around it in sight */
    double c[4][2] = { { 150, 60 }, { 490, 62 }, { 500, 400 }, { 140, 398 } };
    memcpy(f->s.corners, c, sizeof c);
    f->s.stones = f->stones;
    f->s.rim = 1.5; /* the wood's edge in the middle of the watched part: shake moves it */
    assert_int_equal(vis_geom_from_corners(f->s.corners, N, IMG_W, IMG_H, &f->g), VIS_OK);
    vis_border_init(&f->w, NULL);
}

/* A snapshot at time t with every point read surely empty. */
static vis_snapshot_t snap_at(double t)
{
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    s.size = N;
    s.t = t;
    for (int k = 0; k < N * N; k++)
        s.conf[k] = 1.0f;
    return s;
}

/* Paint a skin-coloured arm: the picture's column band [x0, x1) from row y0 down to the
 * bottom. */
static void arm(cvb_image_t *im, int x0, int x1, int y0)
{
    for (int y = y0; y < im->h; y++)
        for (int x = x0; x < x1; x++) {
            uint8_t *p = im->data + (size_t)y * im->stride + (size_t)x * 3;
            p[0] = 120;
            p[1] = 160;
            p[2] = 215;
        }
}

static void brighten(cvb_image_t *im, int by)
{
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w * 3; x++) {
            uint8_t *p = im->data + (size_t)y * im->stride + (size_t)x;
            int v = *p + by;
            *p = (uint8_t)(v > 255 ? 255 : v);
        }
}

/* Feed the drawn board (with an arm when arm_x0 >= 0, brighter by `light`) at time t. */
static int feed(fx_t *f, double t, int arm_x0, int light, vis_snapshot_t *out)
{
    cvb_image_t im = { 0 };
    f->s.seed++; /* fresh noise every frame */
    assert_int_equal(synth_render(&f->s, &im), 0);
    if (arm_x0 >= 0)
        arm(&im, arm_x0, arm_x0 + 40, 385); /* over the last line, down across the border */
    if (light)
        brighten(&im, light);
    vis_snapshot_t s = snap_at(t);
    int rc = vis_border_watch(&f->w, &im, &f->g, &s);
    cvb_image_free(&im);
    if (out)
        *out = s;
    return rc;
}

static int hidden(const vis_snapshot_t *s)
{
    int n = 0;
    for (int k = 0; k < N * N; k++)
        n += s->occluded[k];
    return n;
}

static void test_still_scene(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(feed(&f, i / 15.0, -1, 0, &s), 0);
        assert_int_equal(s.occluder, 0);
        assert_int_equal(hidden(&s), 0);
    }
    assert_int_equal(f.w.crossed, 0);
}

static void test_arm_across_border(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0); /* learns */
    assert_int_equal(feed(&f, 0.1, -1, 0, &s), 0);
    /* the arm over column 9 or so of the bottom border */
    double ax, ay;
    assert_int_equal(vis_homog_apply(f.g.H, 9, N - 1, &ax, &ay), 0);
    int n = feed(&f, 0.2, (int)ax - 20, 0, &s);
    assert_true(n >= 1);
    assert_int_equal(s.occluder, 1);
    int k = (N - 1) * N + 9;
    assert_int_equal(s.occluded[k], 1);
    assert_int_equal(s.color[k], GO_EMPTY);
    assert_true(s.conf[k] == 0.0f);
    /* far from the arm: untouched */
    assert_int_equal(s.occluded[0], 0);
    assert_int_equal(s.occluded[(N - 1) * N + 0], 0);
    assert_int_equal(s.occluded[9], 0);
    assert_true(hidden(&s) <= 3 * n);
    /* withdrawn: clear at once */
    assert_int_equal(feed(&f, 0.3, -1, 0, &s), 0);
    assert_int_equal(s.occluder, 0);
    assert_int_equal(hidden(&s), 0);
}

static void test_exposure_is_no_crossing(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0);
    assert_int_equal(feed(&f, 0.1, -1, 30, &s), 0);
    assert_int_equal(s.occluder, 0);
    assert_int_equal(feed(&f, 0.2, -1, 30, &s), 0);
}

static void test_shake_is_no_crossing(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0);
    const int d[4][2] = { { 2, 0 }, { 0, -2 }, { -1, 1 }, { 2, 2 } };
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 4; k++) {
            f.s.corners[k][0] = f.g.corners[k][0] + d[i][0];
            f.s.corners[k][1] = f.g.corners[k][1] + d[i][1];
        }
        assert_int_equal(feed(&f, 0.1 * (i + 1), -1, 0, &s), 0);
        assert_int_equal(s.occluder, 0);
    }
}

static void test_still_thing_settles(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    double ax, ay;
    assert_int_equal(vis_homog_apply(f.g.H, 4, N - 1, &ax, &ay), 0);
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0);
    double t = 0.1, dt = 1 / 15.0;
    assert_true(feed(&f, t, (int)ax - 20, 0, &s) > 0);
    /* held still: crossed until settle_s (1 s) has passed, then the background */
    while (t < 0.1 + f.w.p.settle_s - 2 * dt) {
        t += dt;
        assert_true(feed(&f, t, (int)ax - 20, 0, &s) > 0);
    }
    t += 3 * dt;
    assert_int_equal(feed(&f, t, (int)ax - 20, 0, &s), 0);
    assert_int_equal(s.occluder, 0);
    /* taken away: the border as it was, no change */
    t += dt;
    assert_int_equal(feed(&f, t, -1, 0, &s), 0);
    /* put back: a change in motion again */
    t += dt;
    assert_true(feed(&f, t, (int)ax - 20, 0, &s) > 0);
    /* left there past learn_s: the background now; taken away, a change until settled */
    double put = t;
    while (t < put + f.w.p.learn_s + 2 * dt) {
        t += dt;
        feed(&f, t, (int)ax - 20, 0, &s);
    }
    assert_int_equal(s.occluder, 0);
    t += dt;
    assert_true(feed(&f, t, -1, 0, &s) > 0);
}

static void test_edge_stone_not_crossing(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0);
    assert_int_equal(feed(&f, 0.1, -1, 0, &s), 0);
    f.stones[(N - 1) * N + 9] = GO_BLACK; /* on the bottom edge line */
    f.stones[9 * N + 0] = GO_WHITE;       /* on the left one */
    f.stones[0] = GO_BLACK;               /* the corner */
    assert_int_equal(feed(&f, 0.2, -1, 0, &s), 0);
    assert_int_equal(s.occluder, 0);
}

/* The first frame's reader sees a hand over the board: nothing is learned then; the next
 * frame, with none, learns. */
static void test_first_frame_with_hand(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    cvb_image_t im = { 0 };
    assert_int_equal(synth_render(&f.s, &im), 0);
    vis_snapshot_t s = snap_at(0.0);
    s.occluder = 1;
    s.occluded[0] = 1;
    assert_int_equal(vis_border_watch(&f.w, &im, &f.g, &s), 0);
    cvb_image_free(&im);
    for (int q = 0; q < 4 * N + 4; q++)
        assert_int_equal(f.w.watched[q], 0);
    assert_int_equal(feed(&f, 0.1, -1, 0, &s), 0);
    int watched = 0;
    for (int q = 0; q < 4 * N + 4; q++)
        watched += f.w.watched[q];
    assert_int_equal(watched, 4 * N + 4);
}

static void test_lost_and_outside(void **state)
{
    (void)state;
    fx_t f;
    fx_init(&f);
    vis_snapshot_t s;
    double ax, ay;
    assert_int_equal(vis_homog_apply(f.g.H, 9, N - 1, &ax, &ay), 0);
    assert_int_equal(feed(&f, 0.0, -1, 0, &s), 0);
    /* a lost board found again where it was (an arm hid it): the background stands, an
     * arm is still seen */
    cvb_image_t im = { 0 };
    assert_int_equal(synth_render(&f.s, &im), 0);
    s = snap_at(0.1);
    s.board_lost = 1;
    assert_int_equal(vis_border_watch(&f.w, &im, &f.g, &s), 0);
    assert_int_equal(f.w.lost, 1);
    assert_true(feed(&f, 0.2, (int)ax - 20, 0, &s) > 0);
    assert_int_equal(f.w.lost, 0);
    /* found elsewhere (a cell to the right): forgotten, the next frame only learns */
    vis_border_reset(&f.w);
    double cell = (f.g.corners[1][0] - f.g.corners[0][0]) / (N - 1);
    for (int k = 0; k < 4; k++) {
        f.s.corners[k][0] += cell;
        f.g.corners[k][0] += cell;
    }
    assert_int_equal(vis_geom_from_corners(f.g.corners, N, IMG_W, IMG_H, &f.g), VIS_OK);
    assert_int_equal(feed(&f, 0.3, (int)ax - 20 + (int)cell, 0, &s), 0);
    assert_int_equal(s.occluder, 0);
    /* bad arguments */
    s = snap_at(0.3);
    assert_int_equal(vis_border_watch(NULL, &im, &f.g, &s), VIS_EINVAL);
    assert_int_equal(vis_border_watch(&f.w, NULL, &f.g, &s), VIS_EINVAL);
    assert_int_equal(vis_border_watch(&f.w, &im, NULL, &s), VIS_EINVAL);
    assert_int_equal(vis_border_watch(&f.w, &im, &f.g, NULL), VIS_EINVAL);
    s.size = 9;
    assert_int_equal(vis_border_watch(&f.w, &im, &f.g, &s), VIS_EINVAL);
    cvb_image_free(&im);

    /* a board that fills the picture: its ring is out of it, never watched */
    fx_t g;
    fx_init(&g);
    double c[4][2] = { { 10, 8 }, { 630, 8 }, { 630, 472 }, { 10, 472 } };
    memcpy(g.s.corners, c, sizeof c);
    assert_int_equal(vis_geom_from_corners(g.s.corners, N, IMG_W, IMG_H, &g.g), VIS_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(feed(&g, i * 0.1, i == 2 ? 300 : -1, 0, &s), 0);
        assert_int_equal(s.occluder, 0);
    }
    for (int q = 0; q < 4 * N + 4; q++)
        assert_int_equal(g.w.watched[q], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_still_scene),
        cmocka_unit_test(test_arm_across_border),
        cmocka_unit_test(test_exposure_is_no_crossing),
        cmocka_unit_test(test_shake_is_no_crossing),
        cmocka_unit_test(test_still_thing_settles),
        cmocka_unit_test(test_edge_stone_not_crossing),
        cmocka_unit_test(test_first_frame_with_hand),
        cmocka_unit_test(test_lost_and_outside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
