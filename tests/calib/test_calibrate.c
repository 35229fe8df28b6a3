/* test_calibrate.c: the calibrate logic on generated footage (render/): a calibration from
 * one frame (board, orientation, learned colours, fit), then the same table after the
 * camera is moved by a few degrees (the check says so, the board is re-located and read
 * correctly) and under light of another colour (the profile still fits and reads, and
 * adapts its colours). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/cal_calibrate.h"
#include "render/rnd_render.h"
#include "testutil.h"

#define W 960
#define H 540
#define S 19

typedef struct {
    rnd_renderer_t *r;
    cvb_image_t img;          /* the frame, unshaken */
    double corners[4][2];     /* truth: the corner intersections in the frame */
} scene_t;

static unsigned char truth[S * S]; /* 0 empty, 1 black, 2 white */
static scene_t warm, blue;
static cal_profile_t prof;
static cal_calib_report_t rep;

static void make_position(void)
{
    memset(truth, 0, sizeof truth);
    /* a few groups and scattered stones of both colours, away from nothing in particular */
    static const char *rows[S] = {
        "...................", "..XXO..............", "..XO.O...X.....X.O.", ".XXO.........X.....",
        ".XOXO...........O..", ".OO.O..........O...", "..O.X..............", "...............X...",
        ".OXXX..........O...", "...O.........X.....", ".O.......O.........", ".XX................",
        "..........X........", ".......O...........", "...O............X..", "..O..O.............",
        "....X...O......X...", ".........X.....O...", "...................",
    };
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            truth[y * S + x] = rows[y][x] == 'X' ? 1 : rows[y][x] == 'O' ? 2 : 0;
}

static int render_scene(scene_t *sc, rnd_light_t light)
{
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = W;
    so.height = H;
    so.size = S;
    so.seed = 5;
    so.view = RND_VIEW_STEEP;
    so.light = light;
    if (rnd_renderer_create(&so, &sc->r))
        return -1;
    const rnd_geometry_t *g = rnd_renderer_geometry(sc->r);
    rnd_stone_t st[S * S];
    int n = 0;
    for (int k = 0; k < S * S; k++)
        if (truth[k]) {
            double wx, wy;
            int col = k % S, row = k / S;
            rnd_renderer_point_world(sc->r, col, row, &wx, &wy);
            st[n] = (rnd_stone_t){ (float)wx, (float)wy, (float)g->top, truth[k], 0.3f * n };
            n++;
        }
    if (rnd_renderer_set_stones(sc->r, st, n) || cvb_image_alloc(&sc->img, W, H, 3))
        return -1;
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1;
    fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
    if (rnd_renderer_frame(sc->r, &fx, NULL, 0, &sc->img, NULL))
        return -1;
    for (int k = 0; k < 4; k++) {
        double bx = (k == 1 || k == 2) ? S - 1 : 0, by = k >= 2 ? S - 1 : 0, w[3];
        rnd_renderer_point_world(sc->r, bx, by, &w[0], &w[1]);
        w[2] = g->top;
        if (rnd_renderer_project(sc->r, w, 0, 0, &sc->corners[k][0], &sc->corners[k][1]))
            return -1;
    }
    return 0;
}

static int setup(void **state)
{
    (void)state;
    make_position();
    if (render_scene(&warm, RND_LIGHT_WARM) || render_scene(&blue, RND_LIGHT_BLUE))
        return -1;
    cal_calib_opts_t o;
    cal_calib_opts_defaults(&o);
    memset(&prof, 0, sizeof prof);
    return cal_calibrate_frame(&warm.img, &o, &prof, &rep);
}

static int teardown(void **state)
{
    (void)state;
    cvb_image_free(&warm.img);
    cvb_image_free(&blue.img);
    rnd_renderer_destroy(warm.r);
    rnd_renderer_destroy(blue.r);
    return 0;
}

static double corner_err(double a[4][2], double b[4][2])
{
    double m = 0;
    for (int k = 0; k < 4; k++) {
        double d = hypot(a[k][0] - b[k][0], a[k][1] - b[k][1]);
        m = d > m ? d : m;
    }
    return m;
}

/* Points read differently from the truth (with the truth turned by rot quarter turns
 * clockwise: record (x, y) is view (y, S-1-x) for one turn). */
static int mistakes(const vis_snapshot_t *s, int rot)
{
    int bad = 0;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int vx = x, vy = y;
            for (int r = 0; r < rot; r++) {
                int t = vx;
                vx = vy;
                vy = S - 1 - t;
            }
            if (s->occluded[y * S + x] || s->color[y * S + x] != truth[vy * S + vx]) {
                bad++;
                print_message("  mistake at record (%d,%d): read %d%s conf %.2f, truth %d\n", x, y,
                              s->color[y * S + x], s->occluded[y * S + x] ? " (occluded)" : "",
                              s->conf[y * S + x], truth[vy * S + vx]);
            }
        }
    return bad;
}

static double luma(const double c[3]) { return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]; }

static void test_calibrate_one_frame(void **state)
{
    (void)state;
    int nb = 0, nw = 0;
    for (int k = 0; k < S * S; k++)
        nb += truth[k] == 1, nw += truth[k] == 2;
    double e = corner_err(prof.corners, warm.corners);
    print_message("calibrated from one %dx%d frame: corners within %.2f px of the truth, grid "
                  "fit %.3f, learned %d empty, %d of %d black, %d of %d white\n",
                  W, H, e, prof.fit, prof.color_n[0], prof.color_n[1], nb, prof.color_n[2], nw);
    assert_true(rep.detected);
    assert_int_equal(prof.size, S);
    assert_true(e < 3.0);
    assert_true(prof.fit > 0.6);
    assert_int_equal(prof.rotate, 0);
    assert_int_equal(prof.black_side, VIS_SIDE_BOTTOM);
    assert_true(prof.has_colors);
    assert_true(prof.color_n[0] > (S * S - nb - nw) / 2);
    assert_true(prof.color_n[1] >= nb * 3 / 4 && prof.color_n[1] <= nb);
    assert_true(prof.color_n[2] >= nw * 3 / 4 && prof.color_n[2] <= nw);
    assert_true(luma(prof.black_bgr) < 0.6 * luma(prof.empty_bgr));
    assert_true(luma(prof.white_bgr) > luma(prof.empty_bgr));
    assert_int_equal(mistakes(&rep.snap, 0), 0);
    assert_int_equal(cal_profile_validate(&prof, NULL, 0), CAL_OK);
    /* the profile reads the same frame as the calibration did, and fits it */
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    vis_board_model_t bm;
    assert_int_equal(cal_profile_board_model(&prof, &bm), 1);
    cfg.board = &bm;
    print_message("the board's colour model: %d empty, %d black, %d white points; log luma "
                  "empty %.2f, black %.2f, white %.2f\n", bm.n[0], bm.n[1], bm.n[2],
                  bm.mean[0][0], bm.mean[1][0], bm.mean[2][0]);
    assert_true(bm.n[0] > 0 && bm.n[1] > 0 && bm.n[2] > 0);
    /* black stones are darker than the wood, white ones lighter */
    assert_true(bm.mean[1][0] < bm.mean[0][0] - 0.3 && bm.mean[2][0] > bm.mean[1][0] + 0.3);
    assert_int_equal(cal_profile_to_geom(&prof, W, H, &g), CAL_OK);
    assert_int_equal(vis_classify(&warm.img, &g, &cfg, &s), VIS_OK);
    assert_int_equal(mistakes(&s, 0), 0);
    double fit;
    int fits;
    assert_int_equal(cal_check(&warm.img, &prof, NULL, &fit, &fits), CAL_OK);
    assert_true(fits);
    /* through a file and back */
    char path[] = "/tmp/kc_calib_XXXXXX", err[200];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(cal_profile_save(path, &prof, err, sizeof err), CAL_OK);
    cal_profile_t q;
    assert_int_equal(cal_profile_load(path, &q, err, sizeof err), CAL_OK);
    unlink(path);
    assert_true(corner_err(q.corners, prof.corners) < 1e-6);
    assert_int_equal(q.color_n[1], prof.color_n[1]);
    assert_true(fabs(q.fit - prof.fit) < 1e-6);
}

static void test_rotate_and_corners(void **state)
{
    (void)state;
    cal_calib_opts_t o;
    cal_calib_opts_defaults(&o);
    o.have_corners = 1;
    memcpy(o.corners, warm.corners, sizeof o.corners);
    o.rotate = 1;
    o.black_side = VIS_SIDE_LEFT;
    cal_profile_t p;
    memset(&p, 0, sizeof p);
    cal_calib_report_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(cal_calibrate_frame(&warm.img, &o, &p, r), CAL_OK);
    assert_false(r->detected);
    assert_int_equal(p.size, S); /* guessed from the corners */
    assert_int_equal(p.rotate, 1);
    assert_int_equal(p.black_side, VIS_SIDE_LEFT);
    /* one turn clockwise: the view's bottom-left corner is the record's top-left */
    for (int k = 0; k < 4; k++) {
        assert_true(fabs(p.corners[k][0] - warm.corners[(k + 3) % 4][0]) < 1e-9);
        assert_true(fabs(p.corners[k][1] - warm.corners[(k + 3) % 4][1]) < 1e-9);
    }
    assert_int_equal(mistakes(&r->snap, 1), 0);
    /* two turns, from the detector */
    cal_calib_opts_defaults(&o);
    o.rotate = 2;
    o.size = S;
    assert_int_equal(cal_calibrate_frame(&warm.img, &o, &p, r), CAL_OK);
    assert_int_equal(mistakes(&r->snap, 2), 0);
    /* corners outside the frame make no profile; a blank frame has no board */
    cal_calib_opts_defaults(&o);
    o.have_corners = 1;
    memcpy(o.corners, warm.corners, sizeof o.corners);
    o.corners[2][0] = W + 50;
    o.size = S;
    cal_profile_t before = p;
    assert_int_equal(cal_calibrate_frame(&warm.img, &o, &p, r), CAL_EFIELD);
    assert_memory_equal(&p, &before, sizeof p);
    cvb_image_t blank;
    assert_int_equal(cvb_image_alloc(&blank, 320, 240, 3), CVB_OK);
    memset(blank.data, 128, 320 * 240 * 3);
    cal_calib_opts_defaults(&o);
    assert_int_equal(cal_calibrate_frame(&blank, &o, &p, r), CAL_ENOBOARD);
    o.rotate = 4;
    assert_int_equal(cal_calibrate_frame(&blank, &o, &p, r), CAL_EINVAL);
    cvb_image_free(&blank);
    free(r);
}

/* The camera turned by deg degrees about a point near the frame's centre and shifted. */
static void moved_homography(double deg, double H9[9])
{
    double a = deg * 3.14159265358979323846 / 180, c = cos(a), s = sin(a), px = W * 0.45, py = H * 0.55;
    double tx = 14, ty = -9;
    double M[9] = { c, -s, px - c * px + s * py + tx, s, c, py - s * px - c * py + ty, 0, 0, 1 };
    memcpy(H9, M, sizeof M);
}

static void test_camera_moved(void **state)
{
    (void)state;
    double Hm[9];
    moved_homography(4.0, Hm);
    cvb_image_t moved;
    assert_int_equal(cvb_warp_perspective(&warm.img, Hm, 0, W, H, &moved), CVB_OK);
    double want[4][2];
    for (int k = 0; k < 4; k++) {
        double x = warm.corners[k][0], y = warm.corners[k][1];
        want[k][0] = Hm[0] * x + Hm[1] * y + Hm[2];
        want[k][1] = Hm[3] * x + Hm[4] * y + Hm[5];
    }
    double fit;
    int fits = 1;
    assert_int_equal(cal_check(&moved, &prof, NULL, &fit, &fits), CAL_OK);
    print_message("camera turned 4 degrees and shifted: grid fit %.3f (threshold %.3f)\n", fit,
                  cal_fit_threshold(&prof, NULL));
    assert_false(fits);
    vis_geom_t *g = malloc(sizeof *g);
    assert_non_null(g);
    assert_int_equal(cal_relocate(&moved, &prof, NULL, g), CAL_OK);
    double e = corner_err(g->corners, want);
    print_message("re-located: corners within %.2f px of the truth\n", e);
    assert_true(e < 3.0);
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    vis_board_model_t bm;
    if (cal_profile_board_model(&prof, &bm))
        cfg.board = &bm;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&moved, g, &cfg, &s), VIS_OK);
    assert_int_equal(mistakes(&s, 0), 0);
    /* a profile turned by one quarter keeps its orientation through the re-location */
    cal_profile_t turned = prof;
    for (int k = 0; k < 4; k++) {
        turned.corners[k][0] = prof.corners[(k + 3) % 4][0];
        turned.corners[k][1] = prof.corners[(k + 3) % 4][1];
    }
    turned.rotate = 1;
    vis_geom_t *g2 = malloc(sizeof *g2);
    assert_non_null(g2);
    assert_int_equal(cal_relocate(&moved, &turned, NULL, g2), CAL_OK);
    for (int k = 0; k < 4; k++)
        assert_true(hypot(g2->corners[k][0] - want[(k + 3) % 4][0],
                          g2->corners[k][1] - want[(k + 3) % 4][1]) < 3.0);
    free(g2);
    /* the new corners go back into the profile, which then fits the moved camera */
    cal_profile_t p = prof;
    char err[200];
    assert_int_equal(cal_profile_set_corners(&p, g->corners, W, H, err, sizeof err), CAL_OK);
    assert_int_equal(cal_check(&moved, &p, NULL, &fit, &fits), CAL_OK);
    assert_true(fits);
    double bad[4][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 1, 2 } };
    assert_int_equal(cal_profile_set_corners(&p, bad, W, H, err, sizeof err), CAL_EFIELD);
    /* a small shake of the camera (2 px) still fits */
    cvb_image_t shaken;
    assert_int_equal(cvb_image_alloc(&shaken, W, H, 3), CVB_OK);
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1.05;
    fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
    fx.shake_x = 2;
    fx.shake_y = -2;
    fx.noise_phase = 7;
    assert_int_equal(rnd_renderer_frame(warm.r, &fx, NULL, 0, &shaken, NULL), RND_OK);
    assert_int_equal(cal_check(&shaken, &prof, NULL, &fit, &fits), CAL_OK);
    print_message("camera shaken by 2 px: grid fit %.3f\n", fit);
    assert_true(fits);
    /* and other frames (noise, exposure drift, 1 px shake) read correctly with the profile */
    vis_geom_t pg;
    assert_int_equal(cal_profile_to_geom(&prof, W, H, &pg), CAL_OK);
    for (int i = 0; i < 4; i++) {
        fx.shake_x = i % 2;
        fx.shake_y = -(i / 2);
        fx.gain = 0.9 + 0.07 * i;
        fx.wb[0] = 1 + 0.03 * i;
        fx.noise_phase = 11 + (uint64_t)i;
        assert_int_equal(rnd_renderer_frame(warm.r, &fx, NULL, 0, &shaken, NULL), RND_OK);
        assert_int_equal(vis_classify(&shaken, &pg, &cfg, &s), VIS_OK);
        assert_int_equal(mistakes(&s, 0), 0);
    }
    cvb_image_free(&shaken);
    cvb_image_free(&moved);
    free(g);
}

static void test_light_changes_colour(void **state)
{
    (void)state;
    /* same table and camera under blue light */
    assert_true(corner_err(blue.corners, warm.corners) < 1e-6);
    double fit;
    int fits;
    assert_int_equal(cal_check(&blue.img, &prof, NULL, &fit, &fits), CAL_OK);
    print_message("blue light: grid fit %.3f, %s\n", fit, fits ? "fits" : "moved");
    assert_true(fits);
    vis_geom_t g;
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    vis_board_model_t bm;
    if (cal_profile_board_model(&prof, &bm))
        cfg.board = &bm;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(cal_profile_to_geom(&prof, W, H, &g), CAL_OK);
    assert_int_equal(vis_classify(&blue.img, &g, &cfg, &s), VIS_OK);
    int bad = mistakes(&s, 0);
    print_message("blue light, read with the warm-light profile: %d mistakes of %d points\n", bad, S * S);
    assert_int_equal(bad, 0);
    /* slow adaptation: the learned colours move towards the blue light's */
    cal_profile_t full = prof, half = prof;
    assert_int_equal(cal_adapt(&blue.img, &g, NULL, 1.0, &full), CAL_OK);
    assert_int_equal(cal_adapt(&blue.img, &g, NULL, 0.5, &half), CAL_OK);
    print_message("empty board colour (B,G,R): warm %.0f,%.0f,%.0f; adapted to blue %.0f,%.0f,%.0f\n",
                  prof.empty_bgr[0], prof.empty_bgr[1], prof.empty_bgr[2], full.empty_bgr[0],
                  full.empty_bgr[1], full.empty_bgr[2]);
    assert_true(full.empty_bgr[0] / full.empty_bgr[2] > prof.empty_bgr[0] / prof.empty_bgr[2] + 0.05);
    for (int k = 0; k < 3; k++) {
        assert_true(fabs(half.empty_bgr[k] - 0.5 * (prof.empty_bgr[k] + full.empty_bgr[k])) < 1e-6);
        assert_true(fabs(half.white_bgr[k] - 0.5 * (prof.white_bgr[k] + full.white_bgr[k])) < 1e-6);
    }
    assert_true(full.corners[0][0] == prof.corners[0][0] && full.fit == prof.fit);
    assert_int_equal(cal_profile_validate(&full, NULL, 0), CAL_OK);
    vis_config_defaults(&cfg);
    assert_int_equal(cal_profile_board_model(&full, &bm), 1);
    cfg.board = &bm;
    /* the model moved towards the blue light too: its white stones bluer (log B/G) */
    vis_board_model_t warm_m;
    assert_int_equal(cal_profile_board_model(&prof, &warm_m), 1);
    assert_true(bm.mean[2][2] > warm_m.mean[2][2] + 0.02);
    assert_int_equal(vis_classify(&blue.img, &g, &cfg, &s), VIS_OK);
    assert_int_equal(mistakes(&s, 0), 0);
    assert_int_equal(cal_adapt(&blue.img, &g, NULL, 1.5, &full), CAL_EINVAL);
}

static void test_profile_to_geom_scales(void **state)
{
    (void)state;
    vis_geom_t g;
    assert_int_equal(cal_profile_to_geom(&prof, W / 2, H / 2, &g), CAL_OK);
    assert_true(fabs(g.corners[2][0] - prof.corners[2][0] / 2) < 1e-6);
    assert_int_equal(cal_profile_to_geom(&prof, W, W, &g), CAL_EINVAL);
    double c[4][2];
    assert_int_equal(cal_parse_corners("1,2;3.5,4; 5,6;7,8e1", c), CAL_OK);
    assert_true(c[1][0] == 3.5 && c[3][1] == 80);
    const char *bad[] = { "", "1,2;3,4;5,6", "1,2;3,4;5,6;7", "1,2;3,4;5,6;7,8;", "a,b;c,d;e,f;g,h",
                          "1,2;3,4;5,6;7,nan" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cal_parse_corners(bad[i], c), CAL_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrate_one_frame),
        cmocka_unit_test(test_rotate_and_corners),
        cmocka_unit_test(test_camera_moved),
        cmocka_unit_test(test_light_changes_colour),
        cmocka_unit_test(test_profile_to_geom_scales),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
