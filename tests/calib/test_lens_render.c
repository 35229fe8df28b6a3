/* test_lens_render.c: `kifucam calibrate --lens` on rendered footage. `kifucam render
 * --chessboard 9x6` films a printed chessboard held in 15 poses over an empty 19x19 board
 * through the footage's own lens model (the renderer's barrel distortion, whose truth is
 * in truth.txt), then `kifucam calibrate --lens 9x6:25` on that folder. Checks and prints:
 *   - the camera recovered (focal length, principal point against the truth);
 *   - the distortion recovered: over the picture, the distance between where the
 *     profile's correction puts a pixel and where the true lens model does (in pixels of
 *     the true focal length), against the same distance without any correction;
 *   - straightness (cal_straightness) of the Go board's 19x19 grid as the camera sees it
 *     (projected by the same renderer) before and after the profile's correction, and of
 *     the chessboard as the command reports it;
 *   - the board found in the corrected frame where the pinhole camera would see it.
 * The binary is $KIFUCAM_BIN; the sample game comes from $KIFUCAM_SOURCE. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "calib/cal_lens.h"
#include "calib/cal_profile.h"
#include "render/rnd_render.h"
#include "render/rnd_run.h"
#include "render/rnd_truth.h"
#include "testutil.h"

#define W 960
#define H 540
#define SEED 3

static char tmpdir[] = "/tmp/kc_lensrender_XXXXXX";
static char out[16384];

/* Run a shell command in tmpdir; stdout in out; the exit code. */
static int run(const char *args)
{
    const char *bin = getenv("KIFUCAM_BIN");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>stderr.txt", tmpdir, bin && *bin ? bin : "kifucam",
             args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The truth header's fields we need. */
typedef struct {
    int size, w, h;
    char view[16], light[16];
    double f, cx, cy, k1, k2;
    double corners[4][2];       /* of the first frame (the board, through the lens) */
} truth_t;

static int read_truth(truth_t *t)
{
    char path[512], line[8192];
    snprintf(path, sizeof path, "%s/cb/truth.txt", tmpdir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int got = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "size %d", &t->size) == 1)
            got |= 1;
        else if (sscanf(line, "image %d %d", &t->w, &t->h) == 2)
            got |= 2;
        else if (sscanf(line, "view %15s", t->view) == 1)
            got |= 4;
        else if (sscanf(line, "light %15s", t->light) == 1)
            got |= 8;
        else if (sscanf(line, "lens f=%lf cx=%lf cy=%lf k1=%lf k2=%lf", &t->f, &t->cx, &t->cy, &t->k1, &t->k2) == 5)
            got |= 16;
        else if (!(got & 32) && !strncmp(line, "frame 0 ", 8)) {
            const char *c = strstr(line, " corners=");
            if (c && sscanf(c, " corners=%lf,%lf;%lf,%lf;%lf,%lf;%lf,%lf", &t->corners[0][0], &t->corners[0][1],
                            &t->corners[1][0], &t->corners[1][1], &t->corners[2][0], &t->corners[2][1],
                            &t->corners[3][0], &t->corners[3][1]) == 8)
                got |= 32;
        }
    }
    fclose(f);
    return got == 63 ? 0 : -1;
}

/* The renderer's lens, inverted: distorted pixel -> ideal normalised coordinates. */
static void true_undistort(const truth_t *t, double px, double py, double *nx, double *ny)
{
    double dx = (px - t->cx) / t->f, dy = (py - t->cy) / t->f, r2 = dx * dx + dy * dy;
    double s = 1 + t->k1 * r2 + t->k2 * r2 * r2;
    *nx = dx * s;
    *ny = dy * s;
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_lens_on_rendered_footage(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args,
             "render '%s/samples/games/demo.sgf' --chessboard 9x6:25 --moves 0 --out cb --size %dx%d --seed %d",
             kc_source_dir(), W, H, SEED);
    assert_int_equal(run(args), 0);
    truth_t t;
    memset(&t, 0, sizeof t);
    assert_int_equal(read_truth(&t), 0);
    assert_int_equal(t.w, W);
    /* the clip's truth reads like any footage's: 15 poses x 2 frames + 6 plain frames */
    char tp[512];
    snprintf(tp, sizeof tp, "%s/cb/truth.txt", tmpdir);
    rnd_truth_t *tr;
    assert_int_equal(rnd_truth_open(tp, &tr), 0);
    assert_int_equal(rnd_truth_frames(tr), RND_CB_POSES * RND_CB_HOLD + RND_CB_PLAIN);
    rnd_truth_frame_t fr;
    int line, nfr = 0;
    int rc;
    while ((rc = rnd_truth_next(tr, &fr, &line)) == RND_OK)
        nfr++;
    assert_int_equal(rc, 1);
    rnd_truth_close(tr);
    assert_int_equal(nfr, RND_CB_POSES * RND_CB_HOLD + RND_CB_PLAIN);

    assert_int_equal(run("calibrate --input cb --lens 9x6:25 --out lens.json"), 0);
    print_message("%s", out);
    int views = 0;
    double cb_b_rms, cb_b_max, cb_a_rms, cb_a_max;
    const char *l = strstr(out, "lens: ");
    assert_non_null(l);
    assert_int_equal(sscanf(l, "lens: %d views", &views), 1);
    l = strstr(out, "straightness");
    assert_non_null(l);
    assert_int_equal(sscanf(strstr(l, "before"), "before rms %lf px, max %lf px; after rms %lf px, max %lf px",
                            &cb_b_rms, &cb_b_max, &cb_a_rms, &cb_a_max), 4);
    assert_true(views >= 10);
    assert_true(cb_a_max < cb_b_max);
    assert_non_null(strstr(out, "board: 19x19"));

    char path[512], err[256];
    snprintf(path, sizeof path, "%s/lens.json", tmpdir);
    cal_profile_t p;
    assert_int_equal(cal_profile_load(path, &p, err, sizeof err), CAL_OK);
    assert_true(p.has_lens);
    print_message("camera: fx %.1f fy %.1f cx %.1f cy %.1f (truth f %.1f cx %.1f cy %.1f); "
                  "k1 %.4f k2 %.4f k3 %.4f (the renderer's inverse model: k1 %.4f k2 %.4f)\n",
                  p.fx, p.fy, p.cx, p.cy, t.f, t.cx, t.cy, p.dist[0], p.dist[1], p.dist[4], t.k1, t.k2);
    assert_true(fabs(p.fx - t.f) < 0.01 * t.f && fabs(p.fy - t.f) < 0.01 * t.f);
    assert_true(fabs(p.cx - t.cx) < 4 && fabs(p.cy - t.cy) < 4);

    /* the distortion recovered, over the picture (5% from the edges): the correction's
     * normalised coordinates against the true ones, directly (a camera matrix a little
     * off shifts or scales them all) and after the best affine map between the two (what
     * is left is distortion not removed: bent lines), in pixels of the true focal length */
    enum { NI = 21, NJ = 13, NP = NI * NJ };
    static double tn[NP][2], en[NP][2];
    double e_max = 0, e_ss = 0, u_max = 0, u_ss = 0;
    for (int j = 0; j < NJ; j++)
        for (int i = 0; i < NI; i++) {
            int q = j * NI + i;
            double in[2] = { W * (0.05 + 0.9 * i / (NI - 1)), H * (0.05 + 0.9 * j / (NJ - 1)) }, o[2];
            assert_int_equal(cal_lens_undistort_points(&p, in, o, 1), CAL_OK);
            true_undistort(&t, in[0], in[1], &tn[q][0], &tn[q][1]);
            en[q][0] = (o[0] - p.cx) / p.fx;
            en[q][1] = (o[1] - p.cy) / p.fy;
            double e = hypot(en[q][0] - tn[q][0], en[q][1] - tn[q][1]) * t.f;
            double u = hypot((in[0] - t.cx) / t.f - tn[q][0], (in[1] - t.cy) / t.f - tn[q][1]) * t.f;
            e_max = fmax(e_max, e);
            u_max = fmax(u_max, u);
            e_ss += e * e;
            u_ss += u * u;
        }
    /* least squares en = A tn + b (normal equations, 3x3, by Cramer's rule) */
    double M[3][3] = { { 0 } }, rhs[2][3] = { { 0 } }, sol[2][3];
    for (int q = 0; q < NP; q++) {
        double v[3] = { tn[q][0], tn[q][1], 1 };
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++)
                M[a][b] += v[a] * v[b];
            rhs[0][a] += v[a] * en[q][0];
            rhs[1][a] += v[a] * en[q][1];
        }
    }
    double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                 M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
    assert_true(fabs(det) > 1e-12);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++) {
            double A[3][3];
            memcpy(A, M, sizeof A);
            for (int a = 0; a < 3; a++)
                A[a][k] = rhs[c][a];
            sol[c][k] = (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0])) / det;
        }
    double r_max = 0, r_ss = 0;
    for (int q = 0; q < NP; q++) {
        double x = sol[0][0] * tn[q][0] + sol[0][1] * tn[q][1] + sol[0][2];
        double y = sol[1][0] * tn[q][0] + sol[1][1] * tn[q][1] + sol[1][2];
        double e = hypot(x - en[q][0], y - en[q][1]) * t.f;
        r_max = fmax(r_max, e);
        r_ss += e * e;
    }
    print_message("distortion over the picture, against the true lens: uncorrected rms %.2f px, "
                  "max %.2f px; corrected rms %.2f px, max %.2f px (the camera matrix's own error "
                  "included), %.2f px rms, %.2f px max of distortion left\n",
                  sqrt(u_ss / NP), u_max, sqrt(e_ss / NP), e_max, sqrt(r_ss / NP), r_max);
    assert_true(u_max > 10);
    assert_true(e_max < 3);
    assert_true(r_max < 1);

    /* the Go board's grid through the same lens, before and after the correction */
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = t.w;
    so.height = t.h;
    so.size = t.size;
    so.seed = SEED;
    assert_int_equal(rnd_view_parse(t.view, &so.view), RND_OK);
    assert_int_equal(rnd_light_parse(t.light, &so.light), RND_OK);
    rnd_renderer_t *r;
    assert_int_equal(rnd_renderer_create(&so, &r), RND_OK);
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    assert_true(fabs(g->focal - t.f) < 0.01 && fabs(g->k1 - t.k1) < 1e-5);   /* the same scene */
    int S = t.size;
    static double pts[2 * 25 * 25], und[2 * 25 * 25];
    assert_true(S >= 2 && S <= 25);
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            double w[3];
            rnd_renderer_point_world(r, x, y, &w[0], &w[1]);
            w[2] = g->top;
            assert_int_equal(rnd_renderer_project(r, w, 0, 0, &pts[2 * (y * S + x)], &pts[2 * (y * S + x) + 1]), RND_OK);
        }
    rnd_renderer_destroy(r);
    double b_rms, b_max, a_rms, a_max;
    assert_int_equal(cal_straightness(pts, S, S, &b_rms, &b_max), CAL_OK);
    assert_int_equal(cal_lens_undistort_points(&p, pts, und, S * S), CAL_OK);
    assert_int_equal(cal_straightness(und, S, S, &a_rms, &a_max), CAL_OK);
    print_message("straightness of the 19x19 grid: before rms %.3f px, max %.3f px; after rms "
                  "%.3f px, max %.3f px (the chessboard, as calibrate reports it: before max %.3f, "
                  "after max %.3f px)\n", b_rms, b_max, a_rms, a_max, cb_b_max, cb_a_max);
    assert_true(b_max > 1);
    assert_true(a_max < 0.1);
    assert_true(a_max < b_max / 10);

    /* the board found in the corrected frame: where the pinhole camera sees the corners */
    double cmax = 0;
    for (int k = 0; k < 4; k++) {
        double nx, ny;
        true_undistort(&t, t.corners[k][0], t.corners[k][1], &nx, &ny);
        double ex = p.cx + p.fx * nx - p.corners[k][0], ey = p.cy + p.fy * ny - p.corners[k][1];
        cmax = fmax(cmax, hypot(ex, ey));
    }
    print_message("the board's corners in the corrected frame: within %.2f px of the pinhole truth\n", cmax);
    assert_true(cmax < 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lens_on_rendered_footage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
