/* test_lens.c: lens correction on generated distorted views of a printed chessboard:
 * OpenCV's calibration recovers the camera, and the chessboard's lines, bent by the lens
 * before, are straight after (pixels of deviation, printed and asserted). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/cal_lens.h"
#include "synth.h"
#include "testutil.h"

#define W 640
#define H 480
#define COLS 9
#define ROWS 6
#define NV 8

/* rx, ry, rz (radians), tx, ty, tz (squares): the board held in several poses, towards
 * the corners of the picture where the lens bends most */
static const double poses[NV][6] = {
    { 0.00, 0.00, 0.00, 0.0, 0.0, 12.0 },   { 0.35, 0.10, 0.05, -2.5, -1.5, 12.5 },
    { -0.30, 0.25, -0.08, 2.5, 1.8, 13.0 }, { 0.10, -0.40, 0.10, -2.0, 2.0, 12.0 },
    { -0.25, -0.30, 0.20, 2.2, -1.8, 13.5 }, { 0.45, 0.00, -0.15, 0.0, 2.2, 12.5 },
    { 0.00, 0.45, 0.30, -1.5, -2.0, 13.0 },  { -0.20, 0.20, -0.25, 1.0, 0.5, 10.5 },
};

static syn_cam_t cam;
static double views[NV][2 * COLS * ROWS];
static int nviews;
static cvb_image_t first_view;

static int setup(void **state)
{
    (void)state;
    syn_webcam(&cam, W, H);
    syn_pattern_t pt = { SYN_CHESS, COLS, ROWS, NULL };
    cvb_image_t img;
    if (cvb_image_alloc(&img, W, H, 3))
        return -1;
    for (int v = 0; v < NV; v++) {
        syn_pose_t p;
        const double *q = poses[v];
        syn_pose(&p, q[0], q[1], q[2], q[3], q[4], q[5], (COLS + 1) / 2.0, (ROWS + 1) / 2.0);
        syn_render(&cam, &p, &pt, &img);
        int found = 0;
        if (cal_lens_find(&img, COLS, ROWS, views[nviews], &found) == CAL_OK && found) {
            if (!nviews && cvb_image_alloc(&first_view, W, H, 3) == 0)
                memcpy(first_view.data, img.data, (size_t)W * H * 3);
            nviews++;
        }
    }
    cvb_image_free(&img);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cvb_image_free(&first_view);
    return 0;
}

static void test_pattern_found(void **state)
{
    (void)state;
    print_message("chessboard found in %d of %d generated views\n", nviews, NV);
    assert_true(nviews >= 6);
    assert_non_null(first_view.data);
}

static void test_calibration_recovers_camera(void **state)
{
    (void)state;
    cal_profile_t p;
    cal_profile_defaults(&p, 19, W, H);
    assert_int_equal(cal_lens_calibrate(&views[0][0], nviews, COLS, ROWS, 25.0, W, H, &p), CAL_OK);
    print_message("lens: fx %.1f fy %.1f (true %.1f), cx %.1f cy %.1f (true %.1f %.1f), k1 %.3f "
                  "k2 %.3f (true %.3f %.3f), rms %.3f px\n",
                  p.fx, p.fy, cam.f, p.cx, p.cy, cam.cx, cam.cy, p.dist[0], p.dist[1], cam.k1,
                  cam.k2, p.lens_rms);
    assert_true(p.has_lens);
    assert_true(fabs(p.fx - cam.f) < 0.02 * cam.f && fabs(p.fy - cam.f) < 0.02 * cam.f);
    assert_true(fabs(p.cx - cam.cx) < 8 && fabs(p.cy - cam.cy) < 8);
    assert_true(p.dist[0] < -0.15); /* barrel */
    assert_true(p.lens_rms < 0.3);
    assert_int_equal(cal_profile_validate(&p, NULL, 0), CAL_OK);
}

static void test_straightness_before_after(void **state)
{
    (void)state;
    cal_profile_t p;
    cal_profile_defaults(&p, 19, W, H);
    assert_int_equal(cal_lens_calibrate(&views[0][0], nviews, COLS, ROWS, 1.0, W, H, &p), CAL_OK);
    double before = 0, after = 0, brms = 0, arms = 0;
    double u[2 * COLS * ROWS];
    for (int v = 0; v < nviews; v++) {
        double r, m;
        assert_int_equal(cal_straightness(views[v], COLS, ROWS, &r, &m), CAL_OK);
        before = m > before ? m : before;
        brms += r * r / nviews;
        assert_int_equal(cal_lens_undistort_points(&p, views[v], u, COLS * ROWS), CAL_OK);
        assert_int_equal(cal_straightness(u, COLS, ROWS, &r, &m), CAL_OK);
        after = m > after ? m : after;
        arms += r * r / nviews;
    }
    print_message("straightness of the chessboard's lines over %d views: before rms %.3f px, "
                  "max %.3f px; after rms %.3f px, max %.3f px\n",
                  nviews, sqrt(brms), before, sqrt(arms), after);
    assert_true(before > 2.0);       /* the lens bends the lines visibly */
    assert_true(after < before / 5); /* and the correction straightens them, down to */
    assert_true(after < 0.6);        /* the corner finder's own noise (~0.1 px rms) */
    assert_true(sqrt(arms) < 0.15 && sqrt(arms) < sqrt(brms) / 4);
}

/* The Go board's grid seen through the same lens: its 19x19 intersections (where the lens
 * puts them) before, and after undistortion with the calibrated lens. */
static void test_go_grid_straightness(void **state)
{
    (void)state;
    cal_profile_t p;
    cal_profile_defaults(&p, 19, W, H);
    assert_int_equal(cal_lens_calibrate(&views[0][0], nviews, COLS, ROWS, 1.0, W, H, &p), CAL_OK);
    syn_pose_t ps;
    syn_pose(&ps, -0.5, 0.05, 0.03, 0, 0.5, 25, 9, 9); /* tilted away, filling the frame */
    double g[2 * 19 * 19], u[2 * 19 * 19];
    for (int y = 0; y < 19; y++)
        for (int x = 0; x < 19; x++)
            syn_project(&cam, &ps, x, y, &g[2 * (y * 19 + x)], &g[2 * (y * 19 + x) + 1]);
    for (int k = 0; k < 19 * 19; k++)
        assert_true(g[2 * k] > 0 && g[2 * k] < W && g[2 * k + 1] > 0 && g[2 * k + 1] < H);
    double r0, m0, r1, m1;
    assert_int_equal(cal_straightness(g, 19, 19, &r0, &m0), CAL_OK);
    assert_int_equal(cal_lens_undistort_points(&p, g, u, 19 * 19), CAL_OK);
    assert_int_equal(cal_straightness(u, 19, 19, &r1, &m1), CAL_OK);
    print_message("19x19 Go board grid through the lens: deviation from straight lines before "
                  "rms %.3f px, max %.3f px; after rms %.3f px, max %.3f px\n", r0, m0, r1, m1);
    assert_true(m0 > 3.0);
    assert_true(m1 < m0 / 10 && m1 < 0.5);
}

static void test_undistorted_image_is_straight(void **state)
{
    (void)state;
    cal_profile_t p;
    cal_profile_defaults(&p, 19, W, H);
    assert_int_equal(cal_lens_calibrate(&views[0][0], nviews, COLS, ROWS, 1.0, W, H, &p), CAL_OK);
    cal_undistorter_t *u = NULL;
    assert_int_equal(cal_undistorter_create(&p, W, H, &u), CAL_OK);
    cvb_image_t out = { 0 };
    assert_int_equal(cal_undistort(u, &first_view, &out), CAL_OK);
    uint8_t *kept = out.data;
    assert_int_equal(cal_undistort(u, &first_view, &out), CAL_OK); /* reuses the pixels */
    assert_ptr_equal(out.data, kept);
    double pts[2 * COLS * ROWS], r0, m0, r1, m1;
    int found = 0;
    assert_int_equal(cal_lens_find(&out, COLS, ROWS, pts, &found), CAL_OK);
    assert_true(found);
    assert_int_equal(cal_straightness(views[0], COLS, ROWS, &r0, &m0), CAL_OK);
    assert_int_equal(cal_straightness(pts, COLS, ROWS, &r1, &m1), CAL_OK);
    print_message("straightness in the picture itself, view 1: max %.3f px before, %.3f px "
                  "after undistorting the frame\n", m0, m1);
    assert_true(m1 < m0 / 3 && m1 < 0.6);
    /* a frame of another size is refused; half the size (same aspect) is fine */
    cvb_image_t small;
    assert_int_equal(cvb_image_alloc(&small, W / 2, H / 2, 3), CVB_OK);
    assert_int_equal(cal_undistort(u, &small, &out), CAL_EINVAL);
    cal_undistorter_t *u2 = NULL;
    assert_int_equal(cal_undistorter_create(&p, W, H / 3, &u2), CAL_EINVAL);
    assert_int_equal(cal_undistorter_create(&p, W / 2, H / 2, &u2), CAL_OK);
    assert_int_equal(cal_undistort(u2, &small, &out), CAL_OK);
    cal_undistorter_destroy(u2);
    cvb_image_free(&small);
    cvb_image_free(&out);
    cal_undistorter_destroy(u);
    cal_undistorter_destroy(NULL);
    p.has_lens = 0;
    assert_int_equal(cal_undistorter_create(&p, W, H, &u2), CAL_EINVAL);
}

static void test_straightness_and_pattern_parsing(void **state)
{
    (void)state;
    /* points on straight lines (a projective grid): zero deviation; one point off by 3 */
    double g[2 * 5 * 4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++) {
            double x = c, y = r, w = 1 + 0.05 * x + 0.02 * y;
            g[2 * (r * 5 + c)] = (100 + 40 * x + 5 * y) / w;
            g[2 * (r * 5 + c) + 1] = (50 + 3 * x + 38 * y) / w;
        }
    double rms, max;
    assert_int_equal(cal_straightness(g, 5, 4, &rms, &max), CAL_OK);
    assert_true(max < 1e-9);
    g[2 * 7 + 1] += 3;
    assert_int_equal(cal_straightness(g, 5, 4, &rms, &max), CAL_OK);
    assert_true(max > 1.5 && max < 3.0 && rms > 0);
    assert_int_equal(cal_straightness(g, 2, 4, &rms, &max), CAL_EINVAL);

    int c, r;
    double sq;
    assert_int_equal(cal_lens_parse_pattern("9x6", &c, &r, &sq), CAL_OK);
    assert_true(c == 9 && r == 6 && sq == 1);
    assert_int_equal(cal_lens_parse_pattern("7X5:24.5", &c, &r, &sq), CAL_OK);
    assert_true(c == 7 && r == 5 && sq == 24.5);
    const char *bad[] = { "", "9", "9x", "x6", "9x6:", "9x6:0", "9x6:-3", "1x6", "9x99", "9x6junk", "9*6" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cal_lens_parse_pattern(bad[i], &c, &r, &sq), CAL_EINVAL);
    /* too few views */
    cal_profile_t p;
    cal_profile_defaults(&p, 19, W, H);
    assert_int_equal(cal_lens_calibrate(&views[0][0], 2, COLS, ROWS, 1, W, H, &p), CAL_EINVAL);
    assert_false(p.has_lens);
    /* no chessboard in a blank picture */
    cvb_image_t blank;
    assert_int_equal(cvb_image_alloc(&blank, 320, 240, 3), CVB_OK);
    int found = 1;
    double pts[2 * COLS * ROWS];
    assert_int_equal(cal_lens_find(&blank, COLS, ROWS, pts, &found), CAL_OK);
    assert_false(found);
    cvb_image_free(&blank);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_found),
        cmocka_unit_test(test_calibration_recovers_camera),
        cmocka_unit_test(test_straightness_before_after),
        cmocka_unit_test(test_go_grid_straightness),
        cmocka_unit_test(test_undistorted_image_is_straight),
        cmocka_unit_test(test_straightness_and_pattern_parsing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
