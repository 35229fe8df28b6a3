/* test_track_shift.c: tracking keeps the geometry through what does not move the board
 * and notices what does (vis_track_update, vis_track). Synthetic boards drawn in C
 * (synth.h): a board bumped by a third of a cell is found and the geometry moved onto it
 * (empty, half-full and crowded boards); a large arm over most of the board is an
 * occluder, not a moved board; a board moved by cells is lost; the reading after a
 * refinement is the position. A board whose thin lines are faint (a far board in soft
 * light) is told by its own line contrast (vis_track.h): its grid accepted and tracked,
 * a grid a third of a cell off refused, a bump followed. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "synth.h"
#include "vision/vis.h"
#include "vision/vis_homog.h"
#include "vision/vis_track.h"

/* A pseudo-random position: fill (0..6) sixths of the points hold a stone. */
static void position(int S, unsigned seed, int fill, uint8_t *st)
{
    for (int k = 0; k < S * S; k++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned r = (seed >> 24) % 6;
        st[k] = (int)r >= fill ? GO_EMPTY : (r & 1) ? GO_WHITE : GO_BLACK;
    }
}

static int count_wrong(const vis_snapshot_t *s, const uint8_t *st, int S)
{
    int m = 0;
    for (int k = 0; k < S * S; k++)
        m += s->occluded[k] || s->color[k] != st[k];
    return m;
}

/* geom of the board moved by (dx, dy) grid units: where the old geometry would be if
 * the board had been bumped by (-dx, -dy) */
static void shifted(const vis_geom_t *g, double dx, double dy, vis_geom_t *out)
{
    double H[9];
    vis_homog_shift(g->H, dx, dy, H);
    assert_int_equal(vis_geom_from_h(H, g->size, g->img_w, g->img_h, out), 0);
}

static double corner_err(const vis_geom_t *a, const vis_geom_t *b)
{
    double m = 0;
    for (int k = 0; k < 4; k++) {
        double d = hypot(a->corners[k][0] - b->corners[k][0], a->corners[k][1] - b->corners[k][1]);
        m = d > m ? d : m;
    }
    return m;
}

/* The board bumped by a third of a cell in x, y and both: refined, not lost, read right. */
static void check_bump(int fill, unsigned seed, int crowded_ok)
{
    synth_t sy;
    uint8_t st[361];
    position(19, seed, fill, st);
    synth_defaults(&sy, 960, 720, 19);
    sy.stones = st;
    cvb_image_t img = { 0 };
    assert_int_equal(synth_render(&sy, &img), 0);
    vis_geom_t truth;
    assert_int_equal(vis_geom_from_corners(sy.corners, 19, img.w, img.h, &truth), 0);
    double cell = (img.w * 0.6) / 18; /* roughly, for the tolerance in pixels */
    static const double offs[5][2] = {
        { 1.0 / 3, 0 }, { 0, -1.0 / 3 }, { -1.0 / 3, 1.0 / 3 }, { 0.25, -0.2 }, { 0, 0 }
    };
    for (int o = 0; o < 5; o++) {
        vis_geom_t g;
        shifted(&truth, offs[o][0], offs[o][1], &g);
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        s.frame = 7;
        assert_int_equal(vis_track_update(&img, &g, NULL, &s), 0);
        print_message("fill %d/6 offset (%+.2f, %+.2f): lost %d refined %d shift (%+.3f, %+.3f), "
                      "corners off by %.2f px, %d wrong\n",
                      fill, offs[o][0], offs[o][1], s.board_lost, s.refined, s.shift_x,
                      s.shift_y, corner_err(&g, &truth), count_wrong(&s, st, 19));
        assert_int_equal(s.frame, 7);
        if (crowded_ok && !s.refined && o != 4) {
            /* a crowded board bumped diagonally hides too many lines to follow it: the
             * move is noticed (lost, or every point it cannot read occluded), never a
             * point read wrong in the wrong place */
            int misread = 0;
            for (int k = 0; k < 361; k++)
                misread += !s.occluded[k] && s.color[k] != st[k];
            assert_true(s.board_lost || misread == 0);
            continue;
        }
        assert_int_equal(s.board_lost, 0);
        if (o == 4) {
            assert_int_equal(s.refined, 0); /* in place: nothing to do */
        } else {
            assert_int_equal(s.refined, 1);
            assert_true(fabs(s.shift_x + offs[o][0]) < 0.06);
            assert_true(fabs(s.shift_y + offs[o][1]) < 0.06);
        }
        /* the geometry is back on the board, within a tenth of a cell */
        assert_true(corner_err(&g, &truth) < 0.1 * cell);
        assert_int_equal(count_wrong(&s, st, 19), 0);
        /* vis_track reads at the moved place too, and leaves the caller's geometry */
        vis_geom_t g2, keep;
        shifted(&truth, offs[o][0], offs[o][1], &g2);
        keep = g2;
        memset(&s, 0, sizeof s);
        assert_int_equal(vis_track(&img, &g2, NULL, &s), 0);
        assert_int_equal(s.board_lost, 0);
        assert_int_equal(count_wrong(&s, st, 19), 0);
        assert_memory_equal(&g2, &keep, sizeof keep);
    }
    cvb_image_free(&img);
}

static void test_bump_empty(void **state)
{
    (void)state;
    check_bump(0, 3, 0);
}

static void test_bump_half(void **state)
{
    (void)state;
    check_bump(3, 5, 0);
}

static void test_bump_crowded(void **state)
{
    (void)state;
    check_bump(5, 11, 1);
}

/* Without the shift search (track_shift_max 0), the third of a cell is not refined. */
static void test_bump_needs_search(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t st[361];
    position(19, 5, 3, st);
    synth_defaults(&sy, 960, 720, 19);
    sy.stones = st;
    cvb_image_t img = { 0 };
    assert_int_equal(synth_render(&sy, &img), 0);
    vis_geom_t truth, g;
    assert_int_equal(vis_geom_from_corners(sy.corners, 19, img.w, img.h, &truth), 0);
    shifted(&truth, 1.0 / 3, 0, &g);
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    cfg.track_shift_max = 0;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_track_update(&img, &g, &cfg, &s), 0);
    assert_int_equal(s.refined, 0);
    assert_true(s.board_lost || count_wrong(&s, st, 19) > 0);
    cvb_image_free(&img);
}

/* An arm across most of the board: occluded, not moved; a board moved by cells: lost. */
static void test_occluded_not_moved(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t st[361];
    position(19, 9, 4, st);
    synth_defaults(&sy, 960, 720, 19);
    sy.stones = st;
    cvb_image_t img = { 0 };
    assert_int_equal(synth_render(&sy, &img), 0);
    vis_geom_t g;
    assert_int_equal(vis_geom_from_corners(sy.corners, 19, img.w, img.h, &g), 0);
    /* a dark sleeve from the bottom edge over the lower half of the board, and a
     * skin-toned hand at its end */
    for (int y = 12; y < 19; y++)
        for (int x = 0; x < 19; x++) {
            int p = y * 19 + x;
            cvb_draw_circle(&img, g.px[p], g.py[p], 2.5 * g.radius[p], 90, 60, 70, -1);
        }
    for (int x = 3; x < 12; x++)
        cvb_draw_circle(&img, g.px[10 * 19 + x], g.py[10 * 19 + x], 2 * g.radius[0], 110, 150, 205, -1);
    double fit;
    assert_int_equal(vis_grid_fit(&img, &g, &fit), 0);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    vis_geom_t keep = g;
    /* held to a fit the whole grid does not reach (the arm hides its lines); the grid
     * where it is visible does */
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    cfg.track_min_fit = 0.62;
    assert_true(fit < cfg.track_min_fit);
    assert_int_equal(vis_track_update(&img, &g, &cfg, &s), 0);
    int occ = 0;
    for (int k = 0; k < 361; k++)
        occ += s.occluded[k];
    print_message("arm: whole-grid fit %.2f (min %.2f), %d points occluded, lost %d\n", fit,
                  cfg.track_min_fit, occ, s.board_lost);
    assert_int_equal(s.board_lost, 0);
    assert_int_equal(s.occluder, 1);
    assert_true(occ > 90);
    assert_true(corner_err(&g, &keep) < 1.0);
    /* the points far from the arm are read */
    assert_int_equal(s.occluded[0], 0);
    assert_int_equal(s.color[0], st[0]);
    /* the same board moved by 2.5 cells to the right: lost */
    cvb_image_t img2 = { 0 };
    synth_t sm = sy;
    double dx = 2.5 * (g.px[1] - g.px[0]);
    for (int k = 0; k < 4; k++)
        sm.corners[k][0] += dx;
    assert_int_equal(synth_render(&sm, &img2), 0);
    vis_geom_t g0;
    assert_int_equal(vis_geom_from_corners(sy.corners, 19, img2.w, img2.h, &g0), 0);
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_track_update(&img2, &g0, NULL, &s), 0);
    assert_int_equal(s.board_lost, 1);
    cvb_image_free(&img2);
    cvb_image_free(&img);
}

/* The empty synthetic board with its lines (and grain) faded to `keep` of their
 * darkness toward the board's colour, and fresh noise of +-5. */
static void faint_board(synth_t *sy, double keep, cvb_image_t *img)
{
    synth_defaults(sy, 960, 720, 19);
    sy->noise = 0;
    assert_int_equal(synth_render(sy, img), 0);
    unsigned st = 5;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++)
            for (int c = 0; c < 3; c++) {
                uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3 + c;
                int v = (int)(sy->board[c] + (*p - sy->board[c]) * keep) +
                        (int)(synth_rand(&st) % 11) - 5;
                *p = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
}

/* A grid turned by an affine map of its board coordinates (a quarter turn, a shift by a
 * line): its points where the map sends them, refined positions kept through map[]. */
static void test_geom_transform(void **state)
{
    (void)state;
    double c[4][2] = { { 100, 80 }, { 560, 90 }, { 580, 540 }, { 90, 530 } };
    vis_geom_t g, t;
    const int S = 19;
    assert_int_equal(vis_geom_from_corners(c, S, 640, 640, &g), 0);
    /* a quarter turn: the new (x, y) is the old (S-1-y, x) */
    const double quarter[6] = { 0, -1, S - 1, 1, 0, 0 };
    assert_int_equal(vis_geom_transform(&g, quarter, NULL, &t), VIS_OK);
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int i = y * S + x, j = x * S + (S - 1 - y);
            assert_true(fabs(t.px[i] - g.px[j]) < 1e-6 && fabs(t.py[i] - g.py[j]) < 1e-6);
        }
    assert_true(fabs(t.corners[0][0] - g.px[S - 1]) < 1e-6);   /* the old top right */
    /* refined points kept through the map: the old grid's point moved by 3 pixels */
    vis_geom_t r = g;
    r.px[5 * S + 7] += 3;
    int map[19 * 19];
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            map[y * S + x] = x * S + (S - 1 - y);
    assert_int_equal(vis_geom_transform(&r, quarter, map, &t), VIS_OK);
    int i = (S - 1 - 7) * S + 5;   /* the new point whose old one is (7, 5) */
    assert_true(fabs(t.px[i] - r.px[5 * S + 7]) < 1e-9);
    /* a shift by one line */
    const double shift[6] = { 1, 0, 1, 0, 1, 0 };
    assert_int_equal(vis_geom_transform(&g, shift, NULL, &t), VIS_OK);
    assert_true(fabs(t.px[0] - g.px[1]) < 1e-6 && fabs(t.py[0] - g.py[1]) < 1e-6);
    /* degenerate: everything on one point */
    const double zero[6] = { 0, 0, 0, 0, 0, 0 };
    assert_int_equal(vis_geom_transform(&g, zero, NULL, &t), VIS_EINVAL);
}

static void test_faint_lines(void **state)
{
    (void)state;
    synth_t sy;
    cvb_image_t img = { 0 };
    faint_board(&sy, 0.12, &img);
    vis_geom_t g, off, g2;
    assert_int_equal(vis_geom_from_corners(sy.corners, 19, img.w, img.h, &g), 0);
    double fit, fitk, k = 0, k2 = 0;
    assert_int_equal(vis_grid_fit(&img, &g, &fit), 0);
    assert_int_equal(vis_line_contrast(&img, &g, NULL, &k), 0);
    assert_int_equal(vis_grid_fit_k(&img, &g, k, &fitk), 0);
    print_message("faint lines: fit %.3f by the default test; line contrast k %.2f, fit %.3f\n",
                  fit, k, fitk);
    assert_true(fit < 0.2);                  /* the absolute test sees no grid ... */
    assert_true(k > 0.3 && k < 0.8);
    assert_true(fitk > 0.9);                 /* ... the board's own contrast does */
    /* tracked at that contrast: not lost, every point read empty; by the default
     * test it would be lost */
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_track_k(&img, &g, NULL, k, &s), 0);
    assert_int_equal(s.board_lost, 0);
    int wrong = 0;
    for (int p = 0; p < 361; p++)
        wrong += s.occluded[p] || s.color[p] != GO_EMPTY;
    assert_int_equal(wrong, 0);
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_track(&img, &g, NULL, &s), 0);
    assert_int_equal(s.board_lost, 1);
    /* a grid a third of a cell off across one family, or half a cell off in both: not
     * this board's lines */
    shifted(&g, 1.0 / 3, 0, &off);
    assert_int_equal(vis_line_contrast(&img, &off, NULL, &k2), VIS_ENOBOARD);
    assert_int_equal(vis_grid_fit_k(&img, &off, k, &fitk), 0);
    assert_true(fitk < 0.6);
    shifted(&g, 0.5, 0.5, &off);
    assert_int_equal(vis_line_contrast(&img, &off, NULL, &k2), VIS_ENOBOARD);
    /* the board bumped by a third of a cell: followed at that contrast */
    shifted(&g, 1.0 / 3, -0.25, &g2);
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_track_update_k(&img, &g2, NULL, k, &s), 0);
    print_message("faint lines, bumped (+0.33, -0.25): lost %d refined %d shift (%+.3f, %+.3f)\n",
                  s.board_lost, s.refined, s.shift_x, s.shift_y);
    assert_int_equal(s.board_lost, 0);
    assert_int_equal(s.refined, 1);
    assert_true(corner_err(&g2, &g) < 0.1 * (img.w * 0.6) / 18);
    /* board acceptance (cold detection) takes that contrast: the faint grid is a board,
     * the one a third of a cell off is not */
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    double ak = 0, afit = 0;
    assert_int_equal(vis_board_accept(&img, &g, NULL, &cfg, &ak, &afit), VIS_OK);
    assert_true(fabs(ak - k) < 1e-12 && afit > 0.9);
    shifted(&g, 1.0 / 3, 0, &off);
    assert_int_equal(vis_board_accept(&img, &off, NULL, &cfg, &ak, &afit), VIS_ENOBOARD);
    cfg.track_min_fit = 0.99;   /* a fit below the config's threshold: refused */
    assert_int_equal(vis_board_accept(&img, &g, NULL, &cfg, &ak, &afit), afit >= 0.99 ? VIS_OK : VIS_ENOBOARD);
    assert_int_equal(vis_board_accept(NULL, &g, NULL, &cfg, &ak, &afit), VIS_EINVAL);
    /* bad arguments */
    assert_int_equal(vis_line_contrast(NULL, &g, NULL, &k2), VIS_EINVAL);
    assert_int_equal(vis_grid_fit_k(&img, &g, 0, &fitk), VIS_EINVAL);
    assert_int_equal(vis_track_k(&img, &g, NULL, -1, &s), VIS_EINVAL);
    cvb_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bump_empty),
        cmocka_unit_test(test_bump_half),
        cmocka_unit_test(test_bump_crowded),
        cmocka_unit_test(test_bump_needs_search),
        cmocka_unit_test(test_occluded_not_moved),
        cmocka_unit_test(test_faint_lines),
        cmocka_unit_test(test_geom_transform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
