/* test_record_signal.c: the end signals of the Chinese rules read by `kifucam record` on
 * footage rendered by `kifucam render` (the first moves of samples/games/demo.sgf), in
 * scenes where they were missed:
 *  - seed 1, steep: a camera from one side (the players sit at the picture's left and
 *    right, no calibration: the seats' corners are the other diagonal), a white cloth
 *    table (a white signal stone on white cloth); --end pass: both pass, the result;
 *  - seed 3, steep: a dark wood table (black stones hardly darker than the wood, but
 *    grey); --end resign: Black resigns (move 6 is White's), W+R.
 * Drives the kifucam binary ($KIFUCAM_BIN).
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

static char tmp[64];
static const char *bin;

static int setup(void **state)
{
    (void)state;
    bin = getenv("KIFUCAM_BIN");
    snprintf(tmp, sizeof tmp, "/tmp/kc_recsig_XXXXXX");
    if (!bin || !mkdtemp(tmp))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return kc_run(cmd) == 0 ? 0 : -1;
}

/* Render `moves` moves of demo.sgf (seed, steep view, 640x360 at 15 fps, hands on) with
 * the end `end` into tmp/NAME, record it, and return the record's text (malloc'd). */
static char *render_and_record(const char *name, int seed, int moves, const char *end)
{
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd,
                     "'%s' render '%s/samples/games/demo.sgf' --out '%s/%s' --size 640x360 "
                     "--seed %d --view steep --fps 15 --pace 0.3 --moves %d --end %s "
                     ">/dev/null 2>'%s/%s.rerr'",
                     bin, kc_source_dir(), tmp, name, seed, moves, end, tmp, name);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    if (kc_run(cmd) != 0)
        fail_msg("kifucam render failed: %s", name);
    n = snprintf(cmd, sizeof cmd,
                 "'%s' record --input '%s/%s' --fps 15 --sgf '%s/%s.sgf' --format json "
                 ">'%s/%s.out' 2>'%s/%s.err'",
                 bin, tmp, name, tmp, name, tmp, name, tmp, name);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    if (kc_run(cmd) != 0)
        fail_msg("kifucam record failed: %s", name);
    char p[256];
    n = snprintf(p, sizeof p, "%s/%s.sgf", tmp, name);
    assert_true(n > 0 && (size_t)n < sizeof p);
    char *sgf = kc_slurp(p, NULL);
    assert_non_null(sgf);
    return sgf;
}

/* A camera from one side, a white cloth table: both end signals on the other diagonal
 * (Black's white stone beyond the board's far side, once hidden by the board's edge);
 * both pass and the count's result is written. */
static void test_signal_pass_side_camera(void **state)
{
    (void)state;
    char *sgf = render_and_record("side_pass", 1, 12, "pass");
    int passes = 0;
    for (const char *p = sgf; (p = strstr(p, ";")) != NULL; p++)
        passes += (!strncmp(p + 1, "B[]", 3) || !strncmp(p + 1, "W[]", 3));
    const char *re = strstr(sgf, "RE[");
    int ok = passes == 2 && re && (re[3] == 'B' || re[3] == 'W' || re[3] == '0');
    if (!ok)
        print_message("the end signals were not read: %d passes, %s\n%s\n", passes,
                      re ? "a result" : "no result", sgf);
    free(sgf);
    assert_true(ok);
}

/* A dark wood table: Black's two black stones beside his corner, a resignation. */
static void test_signal_resign_dark_wood(void **state)
{
    (void)state;
    char *sgf = render_and_record("wood_resign", 3, 6, "resign");
    int ok = strstr(sgf, "RE[W+R") != NULL;
    if (!ok)
        print_message("%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_pass_side_camera),
        cmocka_unit_test(test_signal_resign_dark_wood),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
