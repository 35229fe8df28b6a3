/* test_calibrate_cli.c: `kifucam calibrate` end to end (the binary from $KIFUCAM_BIN) on
 * generated pictures: a rendered frame (calibrate, check fits, check after the camera
 * moved, no board), a folder of distorted chessboard views and a Go board seen through
 * the same lens (--lens), given corners with rotation, bad usage / broken profiles
 * (exit 2 with one line), and --serve: the corners action over HTTP (bad ones refused
 * with 400/409, good ones saved), the timeout with nothing written. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calib/cal_profile.h"
#include "render/rnd_render.h"
#include "synth.h"
#include "testutil.h"
#include "web/http_client.h"

#define RW 800
#define RH 450
#define S 19

static char tmpdir[] = "/tmp/kc_calcli_XXXXXX";
static double truth_corners[4][2];   /* of the rendered board */
static double go_corners[4][2];      /* of the synthetic 9x9 board, pinhole (undistorted) */

static char out[16384], err[4096];

/* Run `kifucam calibrate ARGS`; stdout in out, stderr in err; the exit code. */
static int run(const char *args)
{
    const char *bin = getenv("KIFUCAM_BIN");
    if (!bin || !*bin)
        bin = "kifucam";
    char cmd[8192], ep[300];
    snprintf(ep, sizeof ep, "%s/stderr.txt", tmpdir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' calibrate %s 2>'%s'", tmpdir, bin, args, ep);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    FILE *e = fopen(ep, "r");
    err[0] = 0;
    if (e) {
        size_t m = fread(err, 1, sizeof err - 1, e);
        err[m] = 0;
        fclose(e);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return *s && (!nl || !nl[1]);
}

static int exists(const char *name)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return stat(p, &st) == 0 && st.st_size > 0;
}

static int write_file(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int save(const char *name, const cvb_image_t *img)
{
    char p[512];
    if (snprintf(p, sizeof p, "%s/%s", tmpdir, name) >= (int)sizeof p)
        return CVB_EINVAL;
    return cvb_imwrite(p, img, 0);
}

static int load(const char *name, cal_profile_t *p)
{
    char path[512], e[200];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return cal_profile_load(path, p, e, sizeof e);
}

static int make_rendered(void)
{
    static const char *rows[S] = {
        "...................", "..XXO..............", "..XO.O...X.....X.O.", ".XXO.........X.....",
        ".XOXO...........O..", ".OO.O..........O...", "..O.X..............", "...............X...",
        ".OXXX..........O...", "...O.........X.....", ".O.......O.........", ".XX................",
        "..........X........", ".......O...........", "...O............X..", "..O..O.............",
        "....X...O......X...", ".........X.....O...", "...................",
    };
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = RW;
    so.height = RH;
    so.size = S;
    so.seed = 8;
    so.light = RND_LIGHT_DAYLIGHT;
    rnd_renderer_t *r;
    if (rnd_renderer_create(&so, &r))
        return -1;
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    rnd_stone_t st[S * S];
    int n = 0;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            if (rows[y][x] != '.') {
                double wx, wy;
                rnd_renderer_point_world(r, x, y, &wx, &wy);
                st[n] = (rnd_stone_t){ (float)wx, (float)wy, (float)g->top, rows[y][x] == 'X' ? 1 : 2, 0.5f * n };
                n++;
            }
    cvb_image_t img = { 0 }, moved = { 0 };
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1;
    fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
    int rc = rnd_renderer_set_stones(r, st, n) || cvb_image_alloc(&img, RW, RH, 3) ||
             rnd_renderer_frame(r, &fx, NULL, 0, &img, NULL) || save("board.png", &img);
    for (int k = 0; k < 4 && !rc; k++) {
        double bx = (k == 1 || k == 2) ? S - 1 : 0, by = k >= 2 ? S - 1 : 0, w[3];
        rnd_renderer_point_world(r, bx, by, &w[0], &w[1]);
        w[2] = g->top;
        rc = rnd_renderer_project(r, w, 0, 0, &truth_corners[k][0], &truth_corners[k][1]);
    }
    /* the camera turned by 4 degrees */
    double a = 4 * 3.14159265358979 / 180, c = cos(a), s = sin(a), px = RW / 2.0, py = RH / 2.0;
    double Hm[9] = { c, -s, px - c * px + s * py + 10, s, c, py - s * px - c * py - 6, 0, 0, 1 };
    if (!rc)
        rc = cvb_warp_perspective(&img, Hm, 0, RW, RH, &moved) || save("moved.png", &moved);
    memset(img.data, 128, (size_t)RW * RH * 3);
    if (!rc)
        rc = save("blank.png", &img);
    cvb_image_free(&img);
    cvb_image_free(&moved);
    rnd_renderer_destroy(r);
    return rc ? -1 : 0;
}

/* A folder: 6 views of a 9x6 chessboard and a 9x9 Go board, all through one webcam lens. */
static int make_lens_folder(void)
{
    char p[512];
    snprintf(p, sizeof p, "%s/lens", tmpdir);
    if (mkdir(p, 0777))
        return -1;
    syn_cam_t cam;
    syn_webcam(&cam, 640, 480);
    cvb_image_t img;
    if (cvb_image_alloc(&img, 640, 480, 3))
        return -1;
    static const double poses[6][6] = {
        { 0.00, 0.00, 0.00, 0.0, 0.0, 12.0 },   { 0.35, 0.10, 0.05, -2.5, -1.5, 12.5 },
        { -0.30, 0.25, -0.08, 2.5, 1.8, 13.0 }, { 0.10, -0.40, 0.10, -2.0, 2.0, 12.0 },
        { -0.25, -0.30, 0.20, 2.2, -1.8, 13.5 }, { 0.45, 0.00, -0.15, 0.0, 2.2, 12.5 },
    };
    syn_pattern_t chess = { SYN_CHESS, 9, 6, NULL };
    int rc = 0;
    for (int v = 0; v < 6 && !rc; v++) {
        syn_pose_t ps;
        const double *q = poses[v];
        syn_pose(&ps, q[0], q[1], q[2], q[3], q[4], q[5], 5, 3.5);
        syn_render(&cam, &ps, &chess, &img);
        snprintf(p, sizeof p, "lens/view_%02d.png", v);
        rc = save(p, &img);
    }
    /* the Go board: tilted away like a camera on the table's edge, filling the picture */
    static unsigned char stones[81];
    stones[2 * 9 + 2] = 1;
    stones[2 * 9 + 6] = 2;
    stones[6 * 9 + 4] = 1;
    stones[4 * 9 + 4] = 2;
    stones[6 * 9 + 6] = 2;
    syn_pattern_t go = { SYN_GOBOARD, 9, 9, stones };
    syn_pose_t ps;
    syn_pose(&ps, -0.45, 0.0, 0.02, 0, 0.3, 11.5, 4, 4);
    syn_render(&cam, &ps, &go, &img);
    if (!rc)
        rc = save("lens/view_06.png", &img);
    syn_cam_t pin = cam;
    pin.k1 = pin.k2 = pin.k3 = pin.p1 = pin.p2 = 0;
    for (int k = 0; k < 4; k++)
        syn_project(&pin, &ps, (k == 1 || k == 2) ? 8 : 0, k >= 2 ? 8 : 0, &go_corners[k][0],
                    &go_corners[k][1]);
    cvb_image_free(&img);
    return rc ? -1 : 0;
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(tmpdir))
        return -1;
    return make_rendered() || make_lens_folder() ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
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

static void test_calibrate_and_check(void **state)
{
    (void)state;
    assert_int_equal(run("--input board.png --out p.json"), 0);
    print_message("%s", out);
    assert_non_null(strstr(out, "board: 19x19"));
    assert_non_null(strstr(out, "wrote p.json"));
    assert_true(exists("p.json.png"));
    cal_profile_t p;
    assert_int_equal(load("p.json", &p), CAL_OK);
    assert_int_equal(p.size, S);
    assert_true(corner_err(p.corners, truth_corners) < 3);
    assert_true(p.has_colors && p.color_n[1] > 0 && p.color_n[2] > 0);
    assert_true(p.fit > 0.5);

    assert_int_equal(run("--check --calib p.json --input board.png"), 0);
    assert_non_null(strstr(out, "fits"));
    assert_int_equal(run("--check --calib p.json --input moved.png"), 1);
    print_message("after the camera turned 4 degrees: %s", out);
    assert_non_null(strstr(out, "moved"));
    /* calibrating again on the moved picture fits it */
    assert_int_equal(run("--input moved.png --out p2.json"), 0);
    assert_int_equal(run("--check --calib p2.json --input moved.png"), 0);
}

static void test_no_board_and_bad_input(void **state)
{
    (void)state;
    assert_int_equal(run("--input blank.png --out none.json"), 1);
    assert_true(one_line(err));
    assert_non_null(strstr(err, "no board"));
    assert_false(exists("none.json"));
    static const char *usage2[] = {
        "", "--out x.json", "--input board.png --rotate 5", "--input board.png --rotate x",
        "--input board.png --lens 9", "--input board.png --black-side north",
        "--input board.png --corners '1,2;3'", "--input board.png --size 1",
        "--input board.png --frames 0", "--input board.png --bogus",
        "--input /nonexistent/frame.png", "--check --input board.png",
        "--input board.png --out /nonexistent/dir/p.json",
    };
    for (size_t i = 0; i < sizeof usage2 / sizeof usage2[0]; i++) {
        int rc = run(usage2[i]);
        if (rc != 2 || !one_line(err))
            fail_msg("'%s': exit %d, stderr '%s'", usage2[i], rc, err);
    }
    assert_int_equal(run("--help"), 0);
    assert_non_null(strstr(out, "--lens"));
}

static void test_broken_profiles(void **state)
{
    (void)state;
    static const char *docs[] = {
        "",
        "{\"kifucam_profile\":1,\"image\":[800,450],\"size\":19,\"corn",
        "{\"kifucam_profile\":99,\"image\":[800,450],\"size\":19}",
        "{\"kifucam_profile\":1,\"image\":[800,450],\"size\":19,\"corners\":[[1,1],[900,1],[900,400],[1,400]]}",
        "{\"kifucam_profile\":1,\"image\":[800,450],\"corners\":[[1,1],[700,1],[700,400],[1,400]]}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        assert_int_equal(write_file("bad.json", docs[i]), 0);
        int rc = run("--check --calib bad.json --input board.png");
        if (rc != 2 || !one_line(err) || !strstr(err, "bad.json"))
            fail_msg("document %zu: exit %d, stderr '%s'", i, rc, err);
    }
    assert_int_equal(run("--check --calib missing.json --input board.png"), 2);
    assert_true(one_line(err));
    /* a profile for frames of another shape cannot be checked against this picture */
    assert_int_equal(write_file("shape.json", "{\"kifucam_profile\":1,\"image\":[640,640],\"size\":19,"
                                              "\"corners\":[[10,10],[600,10],[600,600],[10,600]]}"), 0);
    assert_int_equal(run("--check --calib shape.json --input board.png"), 2);
    assert_true(one_line(err));
}

static void test_corners_rotate_debug(void **state)
{
    (void)state;
    char args[1024];
    double *c = &truth_corners[0][0];
    snprintf(args, sizeof args,
             "--input board.png --out r.json --rotate 1 --black-side left --debug dbg "
             "--corners \"%.2f,%.2f;%.2f,%.2f;%.2f,%.2f;%.2f,%.2f\"",
             c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    assert_int_equal(run(args), 0);
    assert_non_null(strstr(out, "from --corners"));
    assert_true(exists("dbg/calibrate.png"));
    cal_profile_t p;
    assert_int_equal(load("r.json", &p), CAL_OK);
    assert_int_equal(p.rotate, 1);
    assert_int_equal(p.black_side, VIS_SIDE_LEFT);
    for (int k = 0; k < 4; k++)
        assert_true(hypot(p.corners[k][0] - truth_corners[(k + 3) % 4][0],
                          p.corners[k][1] - truth_corners[(k + 3) % 4][1]) < 0.01);
    assert_int_equal(run("--check --calib r.json --input board.png"), 0);
    /* corners outside the picture */
    assert_int_equal(run("--input board.png --out o.json --corners \"10,10;900,10;790,440;10,440\""), 2);
    assert_true(one_line(err));
    assert_non_null(strstr(err, "--corners: corner 2 (900.0,10.0) is outside the 800x450 image"));
    assert_false(exists("o.json"));
    /* crossed corners: not a convex quadrilateral */
    assert_int_equal(run("--input board.png --out o.json --corners \"10,10;790,440;790,10;10,440\""), 2);
    assert_true(one_line(err));
    assert_non_null(strstr(err, "convex"));
    assert_false(exists("o.json"));
}

static void test_lens_from_folder(void **state)
{
    (void)state;
    assert_int_equal(run("--input lens --lens 9x6:25 --out l.json --size 9"), 0);
    print_message("%s", out);
    assert_non_null(strstr(out, "straightness"));
    assert_non_null(strstr(out, "board: 9x9"));
    cal_profile_t p;
    assert_int_equal(load("l.json", &p), CAL_OK);
    assert_true(p.has_lens);
    assert_true(fabs(p.fx - 0.82 * 640) < 0.03 * 0.82 * 640);
    assert_true(p.dist[0] < -0.15);
    double e = corner_err(p.corners, go_corners);
    print_message("the 9x9 board's corners in the corrected frame: within %.2f px of the "
                  "pinhole truth\n", e);
    assert_true(e < 3);
    assert_int_equal(p.image_w, 640);
    /* the profile with its lens still fits the board's picture */
    assert_int_equal(run("--check --calib l.json --input lens/view_06.png"), 0);
    /* too few chessboard views */
    assert_int_equal(run("--input lens/view_06.png --lens 9x6 --out l2.json"), 1);
    assert_true(one_line(err));
    assert_non_null(strstr(err, "chessboard"));
}

/* --serve: wrong corners given, the right ones posted to /api/corners (as the console's
 * editor does); bad bodies refused with a clear message and nothing saved meanwhile. */
static void test_serve_corners(void **state)
{
    (void)state;
    /* bad usage */
    assert_int_equal(run("--input board.png --serve nonsense"), 2);
    assert_true(one_line(err));
    assert_int_equal(run("--input board.png --serve :0 --timeout -1"), 2);
    assert_true(one_line(err));
    assert_int_equal(run("--check --calib p.json --input board.png --serve :0"), 2);
    assert_true(one_line(err));
    /* no board, nobody accepts: the guess is served, then the timeout, nothing written */
    assert_int_equal(run("--input blank.png --out t.json --serve 127.0.0.1:0 --timeout 1"), 1);
    assert_non_null(strstr(out, "no board found: the corners start at a guess"));
    assert_non_null(strstr(err, "nothing written"));
    assert_true(one_line(err));
    assert_false(exists("t.json"));

    const char *bin = getenv("KIFUCAM_BIN");
    char cmd[4096], line[1024];
    /* Ctrl-C while waiting: nothing written, exit 1 (the signal once the console's address
     * is printed, however long the frame took to read: a fixed delay raced the read on a
     * loaded machine) */
    snprintf(cmd, sizeof cmd,
             "'%s' calibrate --input board.png --out c.json --serve 127.0.0.1:0 --timeout 60 "
             "2>int_err.txt", bin && *bin ? bin : "kifucam");
    assert_int_equal(kc_stop_when_served(tmpdir, cmd, "console: http://", SIGINT), 1);
    assert_false(exists("c.json"));
    assert_true(exists("int_err.txt"));
    double *t = &truth_corners[0][0];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' calibrate --input board.png --out s.json --size 19 --serve 127.0.0.1:0 "
             "--timeout 60 --corners \"%.1f,%.1f;%.1f,%.1f;%.1f,%.1f;%.1f,%.1f\" 2>serve_err.txt",
             tmpdir, bin && *bin ? bin : "kifucam", t[0] + 25, t[1] + 20, t[2] - 30, t[3] + 18,
             t[4] - 22, t[5] - 25, t[6] + 28, t[7] - 15);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int port = 0;
    char token[129] = "";
    while (!port && fgets(line, sizeof line, p))
        if (sscanf(line, "console: http://127.0.0.1:%d/console?token=%128s", &port, token) != 2)
            port = 0;
    assert_true(port > 0 && strlen(token) == 32);
    char hdr[256], body[512];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", token);
    hc_resp_t r = { 0 };
    assert_int_equal(hc_get(port, "/state.json", &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"calibrate\":{\"image\":[800,450]"));
    assert_non_null(strstr(r.body, "\"from\":\"corners\""));
    hc_resp_free(&r);
    assert_int_equal(hc_get(port, "/frame.jpg", &r), 0);
    assert_int_equal(r.status, 200);
    assert_true(r.body_len > 1000 && (unsigned char)r.body[0] == 0xff);
    hc_resp_free(&r);
    static const struct { const char *body; int status; const char *msg; } bad[] = {
        { "{\"corners\":[[1,2],[3,4]", 400, "not a JSON object" },
        { "{\"corners\":[[100,100],[700,100],[700,400]]}", 400, "corners must be" },
        { "{\"corners\":[[100,100],[801,100],[700,400],[100,400]]}", 400, "corner 2 (801.0, 100.0) is outside the 800x450 frame" },
        { "{\"corners\":[[100,100],[700,400],[700,100],[100,400]]}", 400, "convex" },
        { "{\"corners\":[[100,100],[110,100],[110,110],[100,110]]}", 409, "too close" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(hc_request(port, "POST", "/api/corners", hdr, bad[i].body, &r), 0);
        if (r.status != bad[i].status || !strstr(r.body, bad[i].msg))
            fail_msg("case %zu: %d %s", i, r.status, r.body);
        hc_resp_free(&r);
    }
    assert_int_equal(hc_request(port, "POST", "/api/pass", hdr, NULL, &r), 0);
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(r.body, "calibrating"));
    hc_resp_free(&r);
    assert_int_equal(hc_request(port, "POST", "/api/corners", NULL, "{\"corners\":[[100,100],[700,100],[700,400],[100,400]]}", &r), 0);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    assert_false(exists("s.json"));
    snprintf(body, sizeof body, "{\"corners\":[[%.2f,%.2f],[%.2f,%.2f],[%.2f,%.2f],[%.2f,%.2f]]}",
             t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
    assert_int_equal(hc_request(port, "POST", "/api/corners", hdr, body, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "accepted"));
    hc_resp_free(&r);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    print_message("%s", out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_non_null(strstr(out, "corners accepted in the console"));
    cal_profile_t prof;
    assert_int_equal(load("s.json", &prof), CAL_OK);
    assert_true(corner_err(prof.corners, truth_corners) < 0.01);
    assert_int_equal(prof.size, 19);
    /* colours learned on the right grid: the stones of the rendered position were seen */
    assert_true(prof.has_colors && prof.color_n[1] > 20 && prof.color_n[2] > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrate_and_check),
        cmocka_unit_test(test_no_board_and_bad_input),
        cmocka_unit_test(test_broken_profiles),
        cmocka_unit_test(test_corners_rotate_debug),
        cmocka_unit_test(test_lens_from_folder),
        cmocka_unit_test(test_serve_corners),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
