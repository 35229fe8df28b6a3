/* test_render.c: the footage generator. The main check renders a short game without
 * hands and reads every frame back: with the frame's own corners from the truth file,
 * each point's pixels must be a black stone, a white stone or bare board exactly as the
 * truth's `shown` position says. Also: determinism for a seed, the timeline's events
 * against the rules (captures), option parsing, unreadable input. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/rnd_game.h"
#include "render/rnd_render.h"
#include "render/rnd_run.h"
#include "render/rnd_timeline.h"
#include "render/rnd_truth.h"
#include "testutil.h"

/* A 9x9 game with a capture (White's stone at e5 is taken by Black's move at f5)
 * and a pass. */
static const char *game_sgf =
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]"
    ";B[dd];W[ee];B[de];W[gc];B[ef];W[cg];B[ed];W[gg];B[fe];W[bc];B[cc];W[tt];B[ge])";

static char tmpdir[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (unlink(p) != 0)
            rm_tree(p);
    }
    closedir(d);
    rmdir(dir);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kc_test_render_XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    char p[300];
    snprintf(p, sizeof p, "%s/game.sgf", tmpdir);
    write_file(p, game_sgf);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (!getenv("KC_KEEP_RENDER_TMP"))
        rm_tree(tmpdir);
    return 0;
}

/* Homography mapping the unit grid square (0,0),(1,0),(1,1),(0,1) to the quad q. */
static void square_to_quad(const double q[8], double H[9])
{
    double x0 = q[0], y0 = q[1], x1 = q[2], y1 = q[3], x2 = q[4], y2 = q[5], x3 = q[6], y3 = q[7];
    double dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
    double sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
    double den = dx1 * dy2 - dx2 * dy1;
    double g = (sx * dy2 - dx2 * sy) / den, h = (dx1 * sy - sx * dy1) / den;
    H[0] = x1 - x0 + g * x1;
    H[1] = x3 - x0 + h * x3;
    H[2] = x0;
    H[3] = y1 - y0 + g * y1;
    H[4] = y3 - y0 + h * y3;
    H[5] = y0;
    H[6] = g;
    H[7] = h;
    H[8] = 1;
}

static double last_v, last_rb;

static int cmp_u8(const void *a, const void *b) { return *(const uint8_t *)a - *(const uint8_t *)b; }

/* What the pixels around (px, py) show: 1 black, 2 white, 0 board. Samples: the centre
 * and a ring of 12 at 0.28 grid spacing (spacing in pixels), so that a black stone's
 * specular highlight, which may cover its centre, does not decide; black when the
 * ring's median is dark, white when it is bright and grey, else board (yellowish). */
static int classify(const cvb_image_t *img, double px, double py, double spacing)
{
    uint8_t lum[13], rb[13];
    int n = 0;
    for (int k = 0; k < 13; k++) {
        double a = k * 2 * 3.14159265358979 / 12, rr = k == 12 ? 0 : 0.28 * spacing;
        int x = (int)lround(px + rr * cos(a)), y = (int)lround(py + rr * sin(a));
        if (x < 0 || y < 0 || x >= img->w || y >= img->h)
            continue;
        const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
        lum[n] = (uint8_t)((p[0] + p[1] + p[2]) / 3);
        int d = p[2] - p[0] + 128;
        rb[n] = (uint8_t)(d < 0 ? 0 : d > 255 ? 255 : d);
        n++;
    }
    assert_true(n > 0);
    qsort(lum, (size_t)n, 1, cmp_u8);
    qsort(rb, (size_t)n, 1, cmp_u8);
    int mid = n / 2; /* the median's index */
    last_v = lum[mid];
    last_rb = rb[mid] - 128;
    if (lum[mid] < 100)
        return 1;
    if ((last_rb < 38 && lum[mid] > 140) || lum[mid] > 228)
        return 2;
    return 0;
}

static void render_dir(const char *name, const char *extra[], int nextra, char *outdir, size_t len)
{
    snprintf(outdir, len, "%s/%s", tmpdir, name);
    char sgf[300];
    snprintf(sgf, sizeof sgf, "%s/game.sgf", tmpdir);
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"kifucam-render";
    argv[argc++] = sgf;
    argv[argc++] = (char *)"--out";
    argv[argc++] = outdir;
    for (int i = 0; i < nextra; i++)
        argv[argc++] = (char *)extra[i];
    rnd_opts_t o;
    int help;
    char err[512];
    assert_int_equal(rnd_opts_parse(argc, argv, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(help, 0);
    int rc = rnd_run(&o, NULL, NULL, err, sizeof err);
    if (rc)
        print_message("rnd_run: %s\n", err);
    assert_int_equal(rc, RND_OK);
}

/* Check every frame of a rendered folder against its truth (read with rnd_truth.h;
 * frames with a hand or a bumped stone skipped when skip_hands); returns frames checked. */
static int check_truth_opt(const char *outdir, int want_size, int skip_hands)
{
    char p[400];
    snprintf(p, sizeof p, "%s/truth.txt", outdir);
    rnd_truth_t *tr;
    assert_int_equal(rnd_truth_open(p, &tr), RND_OK);
    int size = rnd_truth_size(tr), w, h;
    rnd_truth_image(tr, &w, &h);
    assert_int_equal(size, want_size);
    rnd_truth_frame_t *fr = malloc(sizeof *fr);
    assert_non_null(fr);
    int frames = 0, seen = 0, checked_stones = 0, last_moves = -1, rc, line;
    while ((rc = rnd_truth_next(tr, fr, &line)) == RND_OK) {
        seen++;
        assert_true(fr->move >= last_moves); /* moves only go forward */
        last_moves = fr->move;
        if (skip_hands && (fr->hand || fr->bumped >= 0))
            continue;
        /* stones are sampled where their centres appear: the grid raised half a stone */
        double H[9];
        square_to_quad(fr->stone_corners, H);
        snprintf(p, sizeof p, "%s/%s", outdir, fr->file);
        cvb_image_t img;
        assert_int_equal(cvb_imread(p, 0, &img), CVB_OK);
        assert_int_equal(img.w, w);
        assert_int_equal(img.h, h);
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                double u = (double)x / (size - 1), v = (double)y / (size - 1);
                double ww = H[6] * u + H[7] * v + H[8];
                double px = (H[0] * u + H[1] * v + H[2]) / ww, py = (H[3] * u + H[4] * v + H[5]) / ww;
                int want = fr->shown[y * size + x];
                /* the local grid spacing in pixels, from the neighbouring point */
                double u2 = (double)(x + (x < size - 1 ? 1 : -1)) / (size - 1);
                double w2 = H[6] * u2 + H[7] * v + H[8];
                double qx = (H[0] * u2 + H[1] * v + H[2]) / w2, qy = (H[3] * u2 + H[4] * v + H[5]) / w2;
                int got = classify(&img, px, py, hypot(qx - px, qy - py));
                if (got != want)
                    print_message("%s: point %c%c at %.1f,%.1f: truth %d, pixels say %d (v %.0f, r-b %.0f)\n",
                                  fr->file, 'a' + x, 'a' + y, px, py, want, got, last_v, last_rb);
                assert_int_equal(got, want);
                checked_stones += want != 0;
            }
        cvb_image_free(&img);
        frames++;
    }
    assert_int_equal(rc, 1);
    assert_int_equal(seen, rnd_truth_frames(tr));
    free(fr);
    rnd_truth_close(tr);
    assert_true(checked_stones > 0);
    return frames;
}

static int check_truth(const char *outdir, int want_size) { return check_truth_opt(outdir, want_size, 0); }

static void test_truth_matches_frames(void **state)
{
    (void)state;
    char out[300];
    const char *extra[] = { "--hands", "off", "--size", "320x240", "--pace", "0.08", "--format", "png",
                            "--seed", "11", "--light", "daylight", "--view", "steep" };
    render_dir("nohands", extra, 14, out, sizeof out);
    int n = check_truth(out, 9);
    assert_true(n >= 14); /* at least one frame per move */
}

static void test_truth_matches_side_view(void **state)
{
    (void)state;
    char out[300];
    const char *extra[] = { "--hands", "off", "--size", "320x240", "--pace", "0.05", "--format", "png",
                            "--seed", "5", "--light", "cool", "--view", "side", "--moves", "9" };
    render_dir("side", extra, 16, out, sizeof out);
    assert_true(check_truth(out, 9) > 5);
}

/* With hands: every frame without a hand over the board must still match (captures lifted
 * late, the stones' off-centre placement). */
static void test_truth_with_hands(void **state)
{
    (void)state;
    char out[300];
    const char *extra[] = { "--size", "320x240", "--pace", "0.05", "--format", "png", "--seed", "3",
                            "--light", "daylight", "--view", "steep", "--end", "resign", "--moves", "9" };
    render_dir("hands", extra, 16, out, sizeof out);
    assert_true(check_truth_opt(out, 9, 1) > 10);
    /* hands were there, and hid points now and then */
    char p[400];
    snprintf(p, sizeof p, "%s/truth.txt", out);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    int hand_frames = 0, occluded = 0, signals = 0;
    while (getline(&line, &cap, f) > 0) {
        hand_frames += !strncmp(line, "frame ", 6) && strstr(line, " hand=1 ") != NULL;
        occluded += !strncmp(line, "frame ", 6) && strstr(line, " occluded=-") == NULL;
        signals += !strncmp(line, "event ", 6) && strstr(line, " signal ") != NULL;
    }
    free(line);
    fclose(f);
    assert_true(hand_frames > 9 * 10);
    assert_true(occluded > 0);
    assert_int_equal(signals, 2);
}

static void test_deterministic(void **state)
{
    (void)state;
    char a[300], b[300], c[300], pa[400], pb[400], pc[400];
    const char *s1[] = { "--still", "--size", "200x150", "--seed", "42" };
    const char *s2[] = { "--still", "--size", "200x150", "--seed", "43" };
    render_dir("det_a", s1, 5, a, sizeof a);
    render_dir("det_b", s1, 5, b, sizeof b);
    render_dir("det_c", s2, 5, c, sizeof c);
    snprintf(pa, sizeof pa, "%s/still.png", a);
    snprintf(pb, sizeof pb, "%s/still.png", b);
    snprintf(pc, sizeof pc, "%s/still.png", c);
    size_t la, lb, lc;
    char *ba = kc_slurp(pa, &la), *bb = kc_slurp(pb, &lb), *bc = kc_slurp(pc, &lc);
    assert_non_null(ba);
    assert_non_null(bb);
    assert_non_null(bc);
    assert_int_equal(la, lb);
    assert_memory_equal(ba, bb, la);
    assert_true(la != lc || memcmp(ba, bc, la) != 0);
    free(ba);
    free(bb);
    free(bc);
    /* the still's truth holds the final position of the record */
    assert_int_equal(check_truth(a, 9), 1);
}

static void test_timeline_events(void **state)
{
    (void)state;
    rnd_game_t g;
    assert_int_equal(rnd_game_init(&g, 9), RND_OK);
    /* Black captures White's e5 (ee) with f5 (fe) */
    int mv[][3] = { { 1, 3, 3 }, { 2, 4, 4 }, { 1, 3, 4 }, { 2, 6, 2 }, { 1, 4, 5 }, { 2, 2, 6 },
                    { 1, 4, 3 }, { 2, 6, 6 }, { 1, 5, 4 } };
    for (size_t i = 0; i < sizeof mv / sizeof mv[0]; i++)
        assert_int_equal(rnd_game_add(&g, RND_MOVE_PLAY, (uint8_t)mv[i][0], mv[i][1], mv[i][2]), RND_OK);
    assert_int_equal(g.moves[8].ncap, 1);
    assert_int_equal(g.caps[g.moves[8].cap_first], 4 * 9 + 4);
    /* occupied point refused */
    assert_int_equal(rnd_game_add(&g, RND_MOVE_PLAY, 2, 3, 3), RND_EINVAL);

    rnd_geometry_t geo;
    memset(&geo, 0, sizeof geo);
    geo.size = 9;
    geo.dx = 22;
    geo.dy = 23.7;
    geo.half_w = 100;
    geo.half_h = 110;
    geo.top = 20;
    geo.stone_r = 11;
    geo.stone_h = 9;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rnd_timeline_opts_t o;
        rnd_timeline_opts_defaults(&o);
        o.seed = seed;
        o.end = (int)(seed % 3);
        rnd_timeline_t t;
        assert_int_equal(rnd_timeline_build(&t, &g, &geo, &o), RND_OK);
        rnd_tl_state_t s;
        rnd_timeline_state_init(&s, &g);
        int placed = 0, captured = 0, removed = 0, hands = 0;
        uint8_t pos[81];
        for (int f = 0; f < t.nframes; f++) {
            int first = s.next_event;
            uint8_t before[81];
            memcpy(before, s.shown, 81);
            int n = rnd_timeline_state_step(&s, &t, f);
            for (int k = 0; k < n; k++) {
                const rnd_event_t *e = &t.events[first + k];
                assert_int_equal(e->frame, f);
                if (e->kind == RND_EV_PLACE) {
                    assert_int_equal(before[e->point], 0); /* never onto a stone */
                    placed++;
                    assert_int_equal(e->move, placed);
                }
                captured += e->kind == RND_EV_CAPTURE;
                removed += e->kind == RND_EV_REMOVE;
            }
            hands += t.hand[f].active;
            rnd_game_position(&g, s.moves, pos);
            assert_memory_equal(pos, s.record, 81);
        }
        assert_int_equal(s.next_event, t.nevents);
        assert_int_equal(placed, 9);
        assert_int_equal(captured, 1);
        assert_int_equal(removed, 1);
        assert_true(hands > 9 * 5);
        /* at the end the stones on the board are the record's, but for the end sequence */
        if (o.end == 0)
            assert_memory_equal(s.shown, s.record, 81);
        if (o.end == 2)
            assert_int_equal(s.nsignals, 2);
        /* after end signals the final scene is held RND_END_HOLD_S at least (a recorder
         * confirms them after a hold), and the signal stones lie apart from the board */
        if (o.end != 0) {
            int last = t.events[t.nevents - 1].frame;
            assert_true(t.nframes - 1 - last >= (int)(RND_END_HOLD_S * o.fps) - 1);
            for (int k = 0; k < s.nsignals; k++)
                assert_true(fabs(s.sig_x[k]) >= geo.half_w + geo.stone_r + RND_SIGNAL_GAP_MIN - 1e-3);
        }
        rnd_timeline_fini(&t);
    }
    rnd_game_fini(&g);
}

static void test_options(void **state)
{
    (void)state;
    rnd_opts_t o;
    int help;
    char err[256];
    char *a1[] = { "r", "g.sgf", "--out", "d", "--size", "640x360", "--view", "side", "--light", "pink",
                   "--hands", "off", "--moves", "12", "--end", "resign", "--fps", "25", "--seed", "9" };
    assert_int_equal(rnd_opts_parse(20, a1, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(o.width, 640);
    assert_int_equal(o.height, 360);
    assert_int_equal(o.view, RND_VIEW_SIDE);
    assert_int_equal(o.light, RND_LIGHT_PINK);
    assert_int_equal(o.hands, 0);
    assert_int_equal(o.moves, 12);
    assert_int_equal(o.end, 2);
    assert_int_equal(o.fps, 25);
    assert_int_equal((int)o.seed, 9);
    char *a2[] = { "r", "--help" };
    assert_int_equal(rnd_opts_parse(2, a2, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(help, 1);
    assert_non_null(strstr(rnd_usage(), "--light"));
    char *bad[][4] = { { "r", "g.sgf", "--view", "under" }, { "r", "g.sgf", "--size", "10x" },
                       { "r", "g.sgf", "--fps", "0" },      { "r", "g.sgf", "--bogus", "1" },
                       { "r", "g.sgf", "--out", "x" } /* fine, but: */ };
    for (int i = 0; i < 4; i++) {
        err[0] = 0;
        assert_int_equal(rnd_opts_parse(4, bad[i], &o, &help, err, sizeof err), RND_EINVAL);
        assert_true(err[0] != 0);
    }
    char *a3[] = { "r", "g.sgf" }; /* no --out */
    assert_int_equal(rnd_opts_parse(2, a3, &o, &help, err, sizeof err), RND_EINVAL);
    char *a4[] = { "r", "g.sgf", "--out" }; /* value missing */
    assert_int_equal(rnd_opts_parse(3, a4, &o, &help, err, sizeof err), RND_EINVAL);
}

static void test_bad_input(void **state)
{
    (void)state;
    rnd_opts_t o;
    char err[512], p[300], out[300];
    rnd_opts_defaults(&o);
    snprintf(out, sizeof out, "%s/bad_out", tmpdir);
    o.out = out;
    o.sgf = "/nonexistent/game.sgf";
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_EIO);
    assert_non_null(strstr(err, "/nonexistent/game.sgf"));
    snprintf(p, sizeof p, "%s/broken.sgf", tmpdir);
    write_file(p, "(;GM[1]SZ[9];B[dd];W[");
    o.sgf = p;
    assert_true(rnd_run(&o, NULL, NULL, err, sizeof err) < 0);
    assert_non_null(strstr(err, "broken.sgf"));
    snprintf(p, sizeof p, "%s/offboard.sgf", tmpdir);
    write_file(p, "(;GM[1]SZ[9];B[zz])");
    o.sgf = p;
    assert_true(rnd_run(&o, NULL, NULL, err, sizeof err) < 0);
    /* an output folder whose parents are missing is made with them (mkdir -p); under a
     * file it cannot be, and says so */
    snprintf(p, sizeof p, "%s/ok.sgf", tmpdir);
    write_file(p, "(;GM[1]SZ[9];B[dd])");
    o.sgf = p;
    o.still = 1;
    snprintf(out, sizeof out, "%s/new/nested/out/", tmpdir);
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_OK);
    snprintf(out, sizeof out, "%s/ok.sgf/out", tmpdir);
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_EOUTPUT);
    assert_non_null(strstr(err, "cannot create the output folder"));
}

/* Count the lines of a truth file holding all the given substrings. */
static int count_lines(const char *dir, const char *a, const char *b)
{
    char p[400];
    snprintf(p, sizeof p, "%s/truth.txt", dir);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    int n = 0;
    while (getline(&line, &cap, f) > 0)
        n += strstr(line, a) && (!b || strstr(line, b));
    free(line);
    fclose(f);
    return n;
}

/* --end auto follows RE[]: B+R means White resigned; W+3.5 means both passed. Only when
 * the whole record is played. */
static void test_end_auto(void **state)
{
    (void)state;
    char p[300], out[300];
    snprintf(p, sizeof p, "%s/resign.sgf", tmpdir);
    write_file(p, "(;GM[1]SZ[9]RE[B+R];B[dd];W[ee];B[de];W[gc])");
    snprintf(out, sizeof out, "%s/auto_r", tmpdir);
    const char *v[] = { "r", p, "--out", out, "--end", "auto", "--hands", "off", "--size", "96x72", "--pace", "0.05" };
    rnd_opts_t o;
    int help;
    char err[256];
    assert_int_equal(rnd_opts_parse(12, (char **)v, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_OK);
    assert_int_equal(count_lines(out, "event ", " resign move=5 color=W"), 1);
    assert_int_equal(count_lines(out, "event ", " signal color=W"), 2);
    /* cut short: no end */
    snprintf(out, sizeof out, "%s/auto_cut", tmpdir);
    o.out = out;
    o.moves = 3;
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_OK);
    assert_int_equal(count_lines(out, "event ", " resign"), 0);
    /* a counted result: two passes and the signals */
    snprintf(p, sizeof p, "%s/counted.sgf", tmpdir);
    write_file(p, "(;GM[1]SZ[9]RE[W+3.5];B[dd];W[ee])");
    snprintf(out, sizeof out, "%s/auto_c", tmpdir);
    o.sgf = p;
    o.out = out;
    o.moves = -1;
    assert_int_equal(rnd_run(&o, NULL, NULL, err, sizeof err), RND_OK);
    assert_int_equal(count_lines(out, "event ", " pass "), 2);
    assert_int_equal(count_lines(out, "event ", " signal "), 2);
}

static void test_truth_reader_errors(void **state)
{
    (void)state;
    rnd_truth_t *t;
    char p[300];
    assert_int_equal(rnd_truth_open("/nonexistent/truth.txt", &t), RND_EIO);
    snprintf(p, sizeof p, "%s/not_truth.txt", tmpdir);
    write_file(p, "hello\n");
    assert_int_equal(rnd_truth_open(p, &t), RND_EPARSE);
    snprintf(p, sizeof p, "%s/bad_truth.txt", tmpdir);
    write_file(p, "kifucam-render truth 1\nsize 2\nimage 10 10\nframes 1\nlens f=1\n"
                  "frame 0 file=a.png t=0 move=0 hand=0 shake=0,0 corners=1,1;2,1;2,2;1,2 "
                  "stone_corners=1,1;2,1;2,2;1,2 record=X./.Z shown=../.. bumped=- occluded=-\n");
    assert_int_equal(rnd_truth_open(p, &t), RND_OK);
    rnd_truth_frame_t f;
    int line = 0;
    assert_int_equal(rnd_truth_next(t, &f, &line), RND_EPARSE); /* 'Z' is no stone */
    assert_int_equal(line, 6);
    assert_int_equal(rnd_truth_next(t, &f, &line), 1);
    rnd_truth_close(t);
    rnd_truth_close(NULL);
    /* numbers are checked (strtol/strtod), not read as 0 like atoi/atof did */
    snprintf(p, sizeof p, "%s/bad_size.txt", tmpdir);
    write_file(p, "kifucam-render truth 1\nsize 2x\nimage 10 10\nframes 1\nlens f=1\n");
    assert_int_equal(rnd_truth_open(p, &t), RND_EPARSE);
    snprintf(p, sizeof p, "%s/bad_numbers.txt", tmpdir);
    static const char *const bad[] = {
        "frame 7 file=a.png t=1.5 move=2 hand=1 shake=-1,2 corners=1,1;2,1;2,2;1,2.5",
        "frame 8 file=a.png t=abc move=2 hand=1 shake=-1,2 corners=1,1;2,1;2,2;1,2",
        "frame 9 file=a.png t=1 move=2x hand=1 shake=-1,2 corners=1,1;2,1;2,2;1,2",
        "frame 10 file=a.png t=1 move=2 hand=1 shake=-1;2 corners=1,1;2,1;2,2;1,2",
        "frame 11 file=a.png t=1 move=2 hand=1 shake=-1,2 corners=1,1;2,1;2,2;1",
        "frame x file=a.png t=1 move=2 hand=1 shake=-1,2 corners=1,1;2,1;2,2;1,2",
    };
    char text[2048];
    int len = snprintf(text, sizeof text,
                       "kifucam-render truth 1\nsize 2\nimage 10 10\nframes 6\nlens f=1\n");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "%s stone_corners=1,1;2,1;2,2;1,2 record=X./.O shown=../.. bumped=- "
                        "occluded=-\n", bad[i]);
    write_file(p, text);
    assert_int_equal(rnd_truth_open(p, &t), RND_OK);
    assert_int_equal(rnd_truth_next(t, &f, &line), RND_OK);
    assert_int_equal(f.frame, 7);
    assert_true(f.t == 1.5);
    assert_int_equal(f.move, 2);
    assert_int_equal(f.hand, 1);
    assert_int_equal(f.shake[0], -1);
    assert_int_equal(f.shake[1], 2);
    assert_true(f.corners[7] == 2.5);
    for (size_t i = 1; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(rnd_truth_next(t, &f, &line), RND_EPARSE);
    assert_int_equal(rnd_truth_next(t, &f, &line), 1);
    rnd_truth_close(t);
}

static void test_renderer_api(void **state)
{
    (void)state;
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = 160;
    so.height = 120;
    so.size = 13;
    rnd_renderer_t *r;
    assert_int_equal(rnd_renderer_create(&so, &r), RND_OK);
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    assert_int_equal(g->size, 13);
    /* the board's centre projects inside the frame, and a shake moves it by the shake */
    double w[3] = { 0, 0, g->top }, x0, y0, x1, y1;
    assert_int_equal(rnd_renderer_project(r, w, 0, 0, &x0, &y0), RND_OK);
    assert_true(x0 > 0 && x0 < 160 && y0 > 0 && y0 < 120);
    assert_int_equal(rnd_renderer_project(r, w, 2, -1, &x1, &y1), RND_OK);
    assert_true(fabs(x1 - (x0 - 2)) < 1e-9 && fabs(y1 - (y0 + 1)) < 1e-9);
    cvb_image_t img;
    assert_int_equal(cvb_image_alloc(&img, 160, 120, 3), CVB_OK);
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1;
    fx.shake_x = RND_SHAKE_MAX + 1;
    assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &img, NULL), RND_EINVAL);
    fx.shake_x = 0;
    assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &img, NULL), RND_OK);
    /* a hand over the centre covers the centre's pixel in the mask */
    uint8_t *mask = calloc(160 * 120, 1);
    assert_non_null(mask);
    rnd_hand_t h = { 1, 1, { 0, 0, (float)g->top + 10 }, { 200, (float)-g->half_h - 330, (float)g->top + 380 }, 1 };
    assert_int_equal(rnd_renderer_frame(r, &fx, &h, 1, &img, mask), RND_OK);
    assert_int_equal(mask[(int)lround(y0) * 160 + (int)lround(x0)], 1);
    free(mask);
    assert_int_equal(rnd_renderer_set_stones(r, NULL, -1), RND_EINVAL);
    cvb_image_free(&img);
    rnd_renderer_destroy(r);
    rnd_renderer_destroy(NULL);
}

/* The end signals' stones, where the timeline puts them, are in the picture and plainly
 * drawn there: neither behind the board's edge (a camera looking across the board: the
 * stone set down against the far side was hidden by the board's thickness) nor under or
 * behind a bowl, whatever the scene (seeds; views from above and steep: a webcam on the
 * table's edge, 42-52 degrees, sees little of the table behind a thick board's far side):
 * both stones of the end by agreement, the first of a resignation's two. */
static void test_signal_stones_visible(void **state)
{
    (void)state;
    rnd_game_t game;
    assert_int_equal(rnd_game_init(&game, 19), RND_OK);
    assert_int_equal(rnd_game_add(&game, RND_MOVE_PLAY, 1, 15, 3), RND_OK);
    assert_int_equal(rnd_game_add(&game, RND_MOVE_PLAY, 2, 3, 15), RND_OK);
    const int W = 320, H = 180;
    cvb_image_t a, b;
    assert_int_equal(cvb_image_alloc(&a, W, H, 3), CVB_OK);
    assert_int_equal(cvb_image_alloc(&b, W, H, 3), CVB_OK);
    int checked = 0;
    for (int view = RND_VIEW_ABOVE; view <= RND_VIEW_STEEP; view++)
        for (uint64_t seed = 1; seed <= 12; seed++) {
            rnd_scene_opts_t so;
            rnd_scene_opts_defaults(&so);
            so.width = W;
            so.height = H;
            so.size = 19;
            so.seed = seed;
            so.view = (rnd_view_t)view;
            so.noise = 0;
            so.signal_corners = 1;   /* footage with an --end frames the signal corners */
            rnd_renderer_t *r;
            assert_int_equal(rnd_renderer_create(&so, &r), RND_OK);
            const rnd_geometry_t *g = rnd_renderer_geometry(r);
            for (int end = 1; end <= 2; end++) {
                rnd_timeline_opts_t o;
                rnd_timeline_opts_defaults(&o);
                o.seed = seed;
                o.end = end;
                o.hands = 0;
                rnd_timeline_t t;
                assert_int_equal(rnd_timeline_build(&t, &game, g, &o), RND_OK);
                rnd_stone_t st[4];
                int n = 0;
                for (int i = 0; i < t.nevents && n < 4; i++)
                    if (t.events[i].kind == RND_EV_SIGNAL) {
                        rnd_stone_t z = { t.events[i].wx, t.events[i].wy, 0, t.events[i].color, 0 };
                        st[n++] = z;
                    }
                assert_int_equal(n, 2);
                rnd_frame_fx_t fx;
                memset(&fx, 0, sizeof fx);
                fx.gain = 1;
                /* the stones drawn black, then white: where a stone's top is seen, the
                 * two pictures differ plainly, whatever the table; where the board's
                 * edge or a bowl hides it, not at all */
                for (int k = 0; k < n; k++)
                    st[k].color = 1;
                assert_int_equal(rnd_renderer_set_stones(r, st, n), RND_OK);
                assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &a, NULL), RND_OK);
                for (int k = 0; k < n; k++)
                    st[k].color = 2;
                assert_int_equal(rnd_renderer_set_stones(r, st, n), RND_OK);
                assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &b, NULL), RND_OK);
                /* a resignation's second stone lies past the corner, towards the player:
                 * maybe out of a tight picture; the first one is beside the board */
                for (int k = 0; k < (end == 2 ? 1 : n); k++) {
                    /* the stone's top */
                    double w[3] = { st[k].x, st[k].y, g->stone_h * 0.9 }, px, py;
                    assert_int_equal(rnd_renderer_project(r, w, 0, 0, &px, &py), RND_OK);
                    int cx = (int)lround(px), cy = (int)lround(py);
                    if (cx < 1 || cy < 1 || cx >= W - 1 || cy >= H - 1)
                        fail_msg("seed %d view %d: signal stone %d out of the picture (%d, %d)",
                                 (int)seed, view, k, cx, cy);
                    double diff = 0;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            for (int c = 0; c < 3; c++) {
                                size_t at = (size_t)(cy + dy) * a.stride + (size_t)(cx + dx) * 3 + c;
                                diff += fabs((double)a.data[at] - b.data[at]) / 27;
                            }
                    if (diff < 40)
                        fail_msg("seed %d view %d end %d: signal stone %d at (%.0f, %.0f) mm not "
                                 "seen (black and white differ by %.1f)", (int)seed, view, end, k,
                                 st[k].x, st[k].y, diff);
                    checked++;
                }
                rnd_timeline_fini(&t);
            }
            rnd_renderer_destroy(r);
        }
    assert_int_equal(checked, 2 * 12 * 3);
    cvb_image_free(&a);
    cvb_image_free(&b);
    rnd_game_fini(&game);
}

/* The chessboard of the lens-calibration clip: poses in view, drawn where projected
 * (dark and light squares alternate around each inner corner), and leaving no trace once
 * removed (a renderer without one renders as before); its options. */
static void test_chessboard(void **state)
{
    (void)state;
    enum { CW = 320, CH = 180 };
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = CW;
    so.height = CH;
    so.size = 9;
    so.seed = 5;
    so.noise = 0;
    rnd_renderer_t *r;
    assert_int_equal(rnd_renderer_create(&so, &r), RND_OK);
    rnd_chessboard_t cb;
    assert_int_equal(rnd_renderer_chessboard_pose(r, 15, 15, 9, 6, 25, &cb), RND_EINVAL);
    assert_int_equal(rnd_renderer_chessboard_pose(r, 0, 15, 1, 6, 25, &cb), RND_EINVAL);
    assert_int_equal(rnd_renderer_chessboard_pose(r, 0, 15, 9, 6, 0, &cb), RND_EINVAL);
    assert_int_equal(rnd_renderer_chessboard_pose(NULL, 0, 15, 9, 6, 25, &cb), RND_EINVAL);
    for (int k = 0; k < 15; k++) {
        assert_int_equal(rnd_renderer_chessboard_pose(r, k, 15, 9, 6, 25, &cb), RND_OK);
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 9; i++) {
                double w[3], px, py;
                rnd_chessboard_corner(&cb, i, j, w);
                assert_int_equal(rnd_renderer_project(r, w, 0, 0, &px, &py), RND_OK);
                assert_true(px > 0 && px < CW - 1 && py > 0 && py < CH - 1);
            }
    }
    rnd_chessboard_t bad = cb;
    bad.u[0] *= 2;
    assert_int_equal(rnd_renderer_set_chessboard(r, &bad), RND_EINVAL);
    assert_int_equal(rnd_renderer_set_chessboard(NULL, &cb), RND_EINVAL);

    cvb_image_t a, b, c;
    assert_int_equal(cvb_image_alloc(&a, CW, CH, 3), CVB_OK);
    assert_int_equal(cvb_image_alloc(&b, CW, CH, 3), CVB_OK);
    assert_int_equal(cvb_image_alloc(&c, CW, CH, 3), CVB_OK);
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1;
    fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
    assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &a, NULL), RND_OK);
    assert_int_equal(rnd_renderer_chessboard_pose(r, 0, 15, 9, 6, 25, &cb), RND_OK);
    assert_int_equal(rnd_renderer_set_chessboard(r, &cb), RND_OK);
    assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &b, NULL), RND_OK);
    assert_int_equal(rnd_renderer_set_chessboard(r, NULL), RND_OK);
    assert_int_equal(rnd_renderer_frame(r, &fx, NULL, 0, &c, NULL), RND_OK);
    size_t bytes = (size_t)CW * CH * 3;
    assert_memory_equal(a.data, c.data, bytes);
    assert_memory_not_equal(a.data, b.data, bytes);
    /* around inner corner (4, 2): the four squares' centres alternate dark / light */
    double lum[4];
    for (int q = 0; q < 4; q++) {
        double w0[3], w[3], px, py;
        rnd_chessboard_corner(&cb, 4, 2, w0);
        double su = (q & 1) ? 0.5 : -0.5, sv = (q & 2) ? 0.5 : -0.5;
        for (int k = 0; k < 3; k++)
            w[k] = w0[k] + su * cb.square * cb.u[k] + sv * cb.square * cb.v[k];
        assert_int_equal(rnd_renderer_project(r, w, 0, 0, &px, &py), RND_OK);
        const uint8_t *p = b.data + (size_t)lround(py) * b.stride + (size_t)lround(px) * 3;
        lum[q] = (p[0] + p[1] + p[2]) / 3.0;
    }
    print_message("squares around an inner corner: %.0f %.0f / %.0f %.0f\n", lum[0], lum[1], lum[2], lum[3]);
    assert_true(fabs(lum[0] - lum[1]) > 80 && fabs(lum[0] - lum[2]) > 80);
    assert_true(fabs(lum[0] - lum[3]) < 40 && fabs(lum[1] - lum[2]) < 40);
    cvb_image_free(&a);
    cvb_image_free(&b);
    cvb_image_free(&c);
    rnd_renderer_destroy(r);

    rnd_opts_t o;
    int help;
    char err[256];
    char *a1[] = { "r", "g.sgf", "--out", "d", "--chessboard", "9x6:30" };
    assert_int_equal(rnd_opts_parse(6, a1, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(o.cb_cols, 9);
    assert_int_equal(o.cb_rows, 6);
    assert_true(o.cb_square == 30);
    char *a2[] = { "r", "g.sgf", "--out", "d", "--chessboard", "7x5" };
    assert_int_equal(rnd_opts_parse(6, a2, &o, &help, err, sizeof err), RND_OK);
    assert_true(o.cb_cols == 7 && o.cb_rows == 5 && o.cb_square == 25);
    assert_int_equal(rnd_opts_parse(4, a1, &o, &help, err, sizeof err), RND_OK);
    assert_int_equal(o.cb_cols, 0);   /* not given: the game, as before */
    static const char *badv[] = { "9x", "9", "1x6", "9x51", "9x6:0", "9x6:", "x6", "9x6:3mm" };
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        char *a3[] = { "r", "g.sgf", "--out", "d", "--chessboard", (char *)badv[i] };
        err[0] = 0;
        assert_int_equal(rnd_opts_parse(6, a3, &o, &help, err, sizeof err), RND_EINVAL);
        assert_non_null(strstr(err, "--chessboard"));
    }
    char *a4[] = { "r", "g.sgf", "--out", "d", "--chessboard", "9x6", "--still" };
    assert_int_equal(rnd_opts_parse(7, a4, &o, &help, err, sizeof err), RND_EINVAL);
    assert_non_null(strstr(rnd_usage(), "--chessboard"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_timeline_events),
        cmocka_unit_test(test_renderer_api),
        cmocka_unit_test(test_chessboard),
        cmocka_unit_test(test_signal_stones_visible),
        cmocka_unit_test(test_truth_reader_errors),
        cmocka_unit_test(test_end_auto),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_truth_matches_frames),
        cmocka_unit_test(test_truth_matches_side_view),
        cmocka_unit_test(test_truth_with_hands),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
