/* test_count_cli.c: `kifucam count PHOTO` and `kifucam score PHOTO` on the bundled frames
 * (samples/frames, rendered from samples/games/demo.sgf): the final position of the demo
 * game (end-signals.png, the dead stones already lifted) counts as the record's result
 * under its rules once the prisoners are given (B+0.5, as `score demo.sgf`), and under
 * the Chinese rules with no prisoners; a frame with points the reader was unsure of
 * (above-uneven.png) is refused, exit 1, in one line naming exactly the points `detect`
 * prints as '?', and counted once they are fixed (--fix) or said empty (--unsure empty);
 * bad options exit 2 with one line. Runs the binary ctest names in KIFUCAM_BIN. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rules/go_point.h"
#include "testutil.h"
#include "vision/cv_bridge.h"

static char dir[256];
static char final_png[1024], unsure_png[1024];

/* Run kifucam with args (a shell-quoted string); stdout into out, stderr into err. */
static int run(const char *args, char *out, size_t olen, char *err, size_t elen)
{
    char cmd[8192], path[512];
    const char *bin = getenv("KIFUCAM_BIN");
    int st;
    assert_non_null(bin);
    snprintf(cmd, sizeof cmd, "cd %s && '%s' %s >out.txt 2>err.txt", dir, bin, args);
    st = system(cmd);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    kc_read_into(path, out, olen);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    kc_read_into(path, err, elen);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kc_count_cli.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(final_png, sizeof final_png, "%s/samples/frames/end-signals.png", kc_source_dir());
    snprintf(unsure_png, sizeof unsure_png, "%s/samples/frames/above-uneven.png",
             kc_source_dir());
    FILE *f = fopen(final_png, "rb");
    if (!f)
        return -1;
    fclose(f);
    char path[512];
    snprintf(path, sizeof path, "%s/g.sgf", dir);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("(;GM[1]FF[4]SZ[9]AB[ee])", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_final_position(void **state)
{
    (void)state;
    char out[16384], err[4096], a[2048];
    /* the record's rules and komi, the record's prisoners (47 + 5 lifted dead, 41 + 10) */
    snprintf(a, sizeof a, "count '%s' --rules korean --komi 6.5 --prisoners B=52,W=51",
             final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+0.5\n", 6);
    assert_non_null(strstr(out, "Black: 55 territory + 52 prisoners"));
    assert_non_null(strstr(out, "19x19, 128 black and 126 white stones as counted"));
    assert_null(strstr(out, "prisoners: none given"));
    assert_string_equal(err, "");
    /* --sgf: the record of that count, its prisoners in KP[], which `score` counts: the
     * same result, B+0.5 (without them White would win by 0.5) */
    char sgf[512], sout[16384];
    snprintf(sgf, sizeof sgf, "%s/final.sgf", dir);
    snprintf(a, sizeof a, "count '%s' --rules korean --komi 6.5 --prisoners B=52,W=51 --sgf '%s'",
             final_png, sgf);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+0.5\n", 6);
    char want[600];
    snprintf(want, sizeof want, "\nsgf: %s\n", sgf);
    assert_non_null(strstr(out, want));
    snprintf(a, sizeof a, "score '%s'", sgf);
    assert_int_equal(run(a, sout, sizeof sout, err, sizeof err), 0);
    assert_memory_equal(sout, "B+0.5\n", 6);
    assert_non_null(strstr(sout, "Black: 55 territory + 52 prisoners"));
    /* a record it cannot write: exit 2, one line, nothing on stdout */
    snprintf(a, sizeof a, "count '%s' --sgf '%s/no/such/dir/f.sgf'", final_png, dir);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 2);
    assert_int_equal(lines(err), 1);
    assert_string_equal(out, "");
    /* territory rules without prisoners: counted, and said */
    snprintf(a, sizeof a, "count '%s' --rules japanese", final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "prisoners: none given"));
    /* area rules need none: Chinese, 184 1/2 against 184 1/4 */
    snprintf(a, sizeof a, "count '%s'", final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+0.5\n", 6);
    assert_non_null(strstr(out, "in stones: Black 184 1/2 against 184 1/4"));
    /* score PHOTO is count PHOTO */
    char out2[16384];
    snprintf(a, sizeof a, "score '%s'", final_png);
    assert_int_equal(run(a, out2, sizeof out2, err, sizeof err), 0);
    assert_string_equal(out, out2);
    /* count's options before the photo, values that start with '-' among them: the
     * photo is still found, and count judges the options */
    snprintf(a, sizeof a, "score --handicap 0 --dead -B1 '%s'", final_png);
    assert_int_equal(run(a, out2, sizeof out2, err, sizeof err), 2);
    assert_non_null(strstr(err, "kifucam score: "));
    assert_non_null(strstr(err, "'-B1': the stones at B1 are not proposed dead"));
    snprintf(a, sizeof a, "score --unsure -x '%s'", final_png);
    assert_int_equal(run(a, out2, sizeof out2, err, sizeof err), 2);
    assert_non_null(strstr(err, "kifucam score: --unsure must be refuse or empty, not '-x'"));
    /* the JSON carries the photo's part */
    snprintf(a, sizeof a, "count '%s' --format json", final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"result\":\"B+0.5\""));
    assert_non_null(strstr(out, "\"in_stones\":{\"black\":184.5,\"par\":184.25"));
    assert_non_null(strstr(out, "\"black\":128,\"white\":126,\"fixed\":[],\"unsure_empty\":[],"
                                "\"prisoners_given\":false}"));
}

/* The points `detect` prints as '?' in the photo, in the Q16 form, space-separated. */
static void detect_unsure(const char *png, char *list, size_t len)
{
    char out[8192], err[2048], a[2048];
    size_t pos = 0;
    snprintf(a, sizeof a, "detect '%s'", png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    list[0] = '\0';
    int S = 0;
    while (out[S] && out[S] != '\n')
        S++;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            if (out[y * (S + 1) + x] == '?') {
                char h[4];
                go_point_human(S, GO_PT(x, y), h);
                pos += (size_t)snprintf(list + pos, len - pos, "%s%s", pos ? " " : "", h);
            }
}

static void test_unsure_refused(void **state)
{
    (void)state;
    char out[16384], err[4096], a[4096], list[1024], fix[1024];
    detect_unsure(unsure_png, list, sizeof list);
    if (!list[0]) {
        print_message("SKIP: the reader is sure of every point of %s\n", unsure_png);
        skip();
    }
    /* refused: exit 1, nothing on stdout, one line naming exactly detect's '?' points */
    snprintf(a, sizeof a, "count '%s'", unsure_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 1);
    assert_string_equal(out, "");
    assert_int_equal(lines(err), 1);
    assert_non_null(strstr(err, "kifucam count: "));
    char want[1200];
    snprintf(want, sizeof want, "unsure of (covered or unclear): %s; not counted", list);
    if (!strstr(err, want))
        print_message("stderr: %s\nwanted: %s\n", err, want);
    assert_non_null(strstr(err, want));
    /* score PHOTO refuses the same, under its own name */
    snprintf(a, sizeof a, "score '%s'", unsure_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 1);
    assert_non_null(strstr(err, "kifucam score: "));
    /* told they are empty: counted, and said so */
    snprintf(a, sizeof a, "count '%s' --unsure empty", unsure_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "counted as empty (--unsure empty): %s\n", list);
    assert_non_null(strstr(out, want));
    /* every one fixed (white): counted, and said so */
    size_t pos = 0;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ' ');
        int n = e ? (int)(e - p) : (int)strlen(p);
        pos += (size_t)snprintf(fix + pos, sizeof fix - pos, "%s%.*s=W", pos ? "," : "", n, p);
        p += n + (e ? 1 : 0);
    }
    snprintf(a, sizeof a, "count '%s' --fix '%s' --format json", unsure_png, fix);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"unsure_empty\":[]"));
    assert_non_null(strstr(out, "\"fixed\":[{\"point\":"));
    /* all but one fixed: refused again, naming the one left */
    char *last = strrchr(fix, ',');
    if (last) {
        *last = '\0';
        snprintf(a, sizeof a, "count '%s' --fix '%s'", unsure_png, fix);
        assert_int_equal(run(a, out, sizeof out, err, sizeof err), 1);
        assert_non_null(strstr(err, ": 1 point the reader was unsure of"));
    }
}

/* The picture's diagram: a point's centre on the canvas (picture.c's layout: 32 px a
 * line, a margin of 48 px, a header of 32 px). */
#define PIC_X(x) (48 + 32 * (x))
#define PIC_Y(y) (32 + 48 + 32 * (y))

/* 1 when some pixel within r of (cx, cy) is within 40 of the BGR colour c. */
static int near_colour(const cvb_image_t *img, int cx, int cy, int r, int b, int g, int rd)
{
    for (int y = cy - r; y <= cy + r; y++)
        for (int x = cx - r; x <= cx + r; x++) {
            if (x < 0 || y < 0 || x >= img->w || y >= img->h)
                continue;
            const uint8_t *p = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            if (abs(p[0] - b) < 40 && abs(p[1] - g) < 40 && abs(p[2] - rd) < 40)
                return 1;
        }
    return 0;
}

/* --picture: the diagram beside the photo at the diagram's height; a dead stone crossed
 * in red, the unsure points ringed in orange, also when the count is refused. */
static void test_picture(void **state)
{
    (void)state;
    char out[16384], err[4096], a[2048], path[512];
    cvb_image_t img = { 0 };
    snprintf(path, sizeof path, "%s/p.png", dir);
    snprintf(a, sizeof a, "count '%s' --picture p.png", final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "picture: p.png\n"));
    assert_int_equal(cvb_imread(path, 0, &img), 0);
    /* 19x19: 672 px of diagram, the 427x240 photo beside it at 672 px high */
    assert_int_equal(img.h, 32 + 672);
    assert_int_equal(img.w, 672 + 16 + 1196);
    cvb_image_free(&img);

    /* refused: the board as read is still drawn, the unsure points ringed */
    char list[1024];
    detect_unsure(unsure_png, list, sizeof list);
    if (!list[0])
        return;
    unlink(path);
    snprintf(a, sizeof a, "count '%s' --picture p.png", unsure_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 1);
    assert_int_equal(cvb_imread(path, 0, &img), 0);
    int p = 0;
    char first[4] = { 0 };
    sscanf(list, "%3s", first);
    assert_int_equal(go_point_parse(19, first, (int)strlen(first), &p), GO_OK);
    /* the ring: 0.62 of a line from the centre, orange (BGR 0,140,255), seen on one side
     * at least (a neighbouring stone is drawn over it on its side) */
    int ring = 0;
    for (int side = 0; side < 4; side++)
        ring |= near_colour(&img, PIC_X(GO_X(p)) + (side == 0 ? 20 : side == 1 ? -20 : 0),
                            PIC_Y(GO_Y(p)) + (side == 2 ? 20 : side == 3 ? -20 : 0), 2, 0, 140, 255);
    assert_true(ring);
    cvb_image_free(&img);

    /* counted with a dead stone: crossed in red at its centre */
    snprintf(a, sizeof a, "count '%s' --unsure empty --format json --picture p.png",
             unsure_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    const char *d = strstr(out, "\"dead\":[\"");
    if (!d) {
        print_message("no dead stone proposed on %s: the cross is not checked\n", unsure_png);
        return;
    }
    p = go_point_from_sgf(19, d + 9, 2);
    assert_true(p > 0);
    assert_int_equal(cvb_imread(path, 0, &img), 0);
    assert_true(near_colour(&img, PIC_X(GO_X(p)), PIC_Y(GO_Y(p)), 1, 30, 30, 220));
    /* a live stone's centre is not red */
    assert_false(near_colour(&img, PIC_X(0), PIC_Y(0), 1, 30, 30, 220));
    cvb_image_free(&img);
    snprintf(a, sizeof a, "count '%s' --picture /nonexistent/dir/p.png", final_png);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "/nonexistent/dir/p.png: cannot write"));
}

static void test_errors(void **state)
{
    (void)state;
    char out[8192], err[4096], a[2048];
    static const struct {
        const char *args;
        int code;
        const char *needle;
    } cases[] = {
        { "count", 2, "no photo given" },
        { "count missing.png", 2, "missing.png: cannot open" },
        { "count g.sgf", 2, "g.sgf" },
        { "count '%s' --fix Q16", 2, "--fix: 'Q16' is not POINT=COLOUR" },
        { "count '%s' --fix Z99=B", 2, "--fix: 'Z99=B'" },
        { "count '%s' --fix ,", 2, "--fix: no point given" },
        { "count '%s' --unsure guess", 2, "--unsure must be refuse or empty" },
        { "count '%s' --prisoners B12", 2, "--prisoners must be B=N,W=N" },
        { "count '%s' --dead Z99", 2, "--dead: 'Z99' is not a point of this 19x19 board" },
        { "count '%s' --dead +A1", 2, "no stone at A1" },
        { "count '%s' --rules nonsense", 2, "unknown rules" },
        { "count '%s' --komi x", 2, "--komi" },
        { "count '%s' --handicap 1", 2, "--handicap" },
        { "count '%s' --format xml", 2, "--format" },
        { "count '%s' --bogus", 2, "--bogus" },
        { "count '%s' extra.png", 2, "one photo only" },
        { "score g.sgf --fix Q16=B", 2, "unknown option '--fix'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(a, sizeof a, cases[i].args, final_png);
        int rc = run(a, out, sizeof out, err, sizeof err);
        if (rc != cases[i].code || lines(err) != 1 || !strstr(err, cases[i].needle))
            print_message("%s: exit %d, stderr: %s\n", a, rc, err);
        assert_int_equal(rc, cases[i].code);
        assert_int_equal(lines(err), 1);
        assert_non_null(strstr(err, cases[i].needle));
        assert_string_equal(out, "");
    }
    assert_int_equal(run("count --help", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "--unsure"));
    assert_int_equal(run("--help", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "count "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_position),
        cmocka_unit_test(test_unsure_refused),
        cmocka_unit_test(test_picture),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
