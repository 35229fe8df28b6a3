/* test_record_rate.c: the frame rate `kifucam record --input FOLDER` times the frames at.
 * Without --fps, a folder's own rate comes from the truth.txt kifucam render writes beside
 * its frames (its fps line); a folder without one is taken as 30 fps and stderr says so in
 * one line naming --fps; --fps wins over the folder's rate, silently. Shown on six grey
 * frames (the stats' footage_s: the last frame's time, 5 / fps) and on rendered 15 fps
 * footage (each move's time against the footage's truth: was half of it). Drives the
 * kifucam binary ($KIFUCAM_BIN). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char tmp[64];
static char out[1 << 16], err[1 << 14];

static int setup(void **state)
{
    (void)state;
    strcpy(tmp, "/tmp/kc_rate_XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* kifucam record ARGS --format json: its exit code; out and err hold the streams. */
static int record(const char *b, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' record %s --format json >'%s/out' 2>'%s/err'", b, args, tmp,
             tmp);
    int rc = kc_run(cmd);
    snprintf(cmd, sizeof cmd, "%s/out", tmp);
    kc_read_into(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s/err", tmp);
    kc_read_into(cmd, err, sizeof err);
    return rc;
}

static double footage_s(void)
{
    const char *p = strstr(out, "\"footage_s\":");
    if (!p)
        fail_msg("no stats line in: %s", out);
    return atof(p + strlen("\"footage_s\":"));
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void write_truth(const char *dir, const char *fps_line)
{
    char p[256];
    snprintf(p, sizeof p, "%s/truth.txt", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "kifucam-render truth 1\nsource x.sgf\nseed 1\nsize 19\nimage 64 48\n%s"
               "view steep\nframes 6\n", fps_line);
    fclose(f);
}

static void test_grey_folder_rates(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    char d[128], args[512];
    snprintf(d, sizeof d, "%s/grey", tmp);
    assert_int_equal(mkdir(d, 0755), 0);
    for (int k = 0; k < 6; k++) {
        char p[256];
        snprintf(p, sizeof p, "%s/f%d.ppm", d, k);
        FILE *f = fopen(p, "wb");
        assert_non_null(f);
        fprintf(f, "P6\n64 48\n255\n");
        for (int i = 0; i < 64 * 48 * 3; i++)
            fputc(128, f);
        fclose(f);
    }
    /* every frame looked at: the last one's time is 5 / fps */
    snprintf(args, sizeof args, "--input '%s' --sgf '%s/g.sgf' --analyse-fps 0", d, tmp);

    /* no rate of its own: 30 fps, said once, with the option that sets it */
    assert_int_equal(record(b, args), 1); /* no board in grey frames */
    assert_true(fabs(footage_s() - 5.0 / 30) < 0.011);
    assert_int_equal(count(err, "taken as 30 fps"), 1);
    assert_non_null(strstr(err, "--fps N"));
    assert_non_null(strstr(err, "kifucam record: "));

    /* the renderer's truth.txt says 15 */
    write_truth(d, "fps 15\n");
    assert_int_equal(record(b, args), 1);
    assert_true(fabs(footage_s() - 5.0 / 15) < 0.011);
    assert_null(strstr(err, "taken as"));

    /* --fps wins, silently */
    char given[600];
    snprintf(given, sizeof given, "%s --fps 10", args);
    assert_int_equal(record(b, given), 1);
    assert_true(fabs(footage_s() - 5.0 / 10) < 0.011);
    assert_null(strstr(err, "taken as"));

    /* a truth file whose rate cannot be read: 30 fps, said, naming the file */
    write_truth(d, "fps fast\n");
    assert_int_equal(record(b, args), 1);
    assert_true(fabs(footage_s() - 5.0 / 30) < 0.011);
    assert_int_equal(count(err, "taken as 30 fps"), 1);
    assert_non_null(strstr(err, "truth.txt"));
}

/* Rendered footage at 15 fps recorded without --fps: each move is written after its
 * stone was placed (the truth's place event, frame / 15) and within 3 s of it; timed at
 * 30 fps it came at half that time, before the stone was down. */
static void test_rendered_15fps_footage(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s/foot' --size 640x360 --seed 2 "
             "--fps 15 --pace 0.3 --moves 3 >/dev/null 2>&1",
             b, kc_source_dir(), tmp);
    assert_int_equal(kc_run(cmd), 0);
    char args[512];
    snprintf(args, sizeof args, "--input '%s/foot' --sgf '%s/foot.sgf'", tmp, tmp);
    assert_int_equal(record(b, args), 0);
    assert_null(strstr(err, "taken as"));

    char p[256];
    snprintf(p, sizeof p, "%s/foot/truth.txt", tmp);
    char *truth = kc_slurp(p, NULL);
    assert_non_null(truth);
    assert_non_null(strstr(truth, "\nfps 15\n"));
    int moves = 0;
    for (const char *m = strstr(out, "\"event\":\"move\""); m; m = strstr(m + 1, "\"event\":\"move\"")) {
        const char *nl = strchr(m, '\n');
        const char *np = strstr(m, "\"n\":"), *tp = strstr(m, "\"t\":");
        assert_true(np && tp && (!nl || (np < nl && tp < nl)));
        int n = atoi(np + 4);
        double t = atof(tp + 4);
        char key[64];
        snprintf(key, sizeof key, " place move=%d ", n);
        const char *ev = strstr(truth, key);
        assert_non_null(ev);
        while (ev > truth && ev[-1] != '\n')
            ev--;
        long frame = -1;
        assert_int_equal(sscanf(ev, "event %ld", &frame), 1);
        double placed = frame / 15.0;
        if (!(t >= placed && t <= placed + 3))
            fail_msg("move %d written at %.2f s, placed at %.2f s (frame %ld at 15 fps)", n, t,
                     placed, frame);
        moves++;
    }
    free(truth);
    assert_int_equal(moves, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grey_folder_rates),
        cmocka_unit_test(test_rendered_15fps_footage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
