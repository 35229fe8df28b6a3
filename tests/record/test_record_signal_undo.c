/* test_record_signal_undo.c: a hand near a signal corner is no end signal, and a move
 * played beside that corner is not taken back as a misread signal stone.
 *
 * Eight moves (the last two at the far side), three of them around the corner aa, which
 * is White's signal corner (White sits at the record's top): Black plays bb, then White's
 * hand reaches to bd over the corner and stays in the picture a while after leaving the
 * board. Rendered by `kifucam render` (seed 13, steep view, 640x360 at 15 fps; the scene
 * where a played-out game lost its record this way), the hand first touched the patch
 * beside the corner, then covered the corner (frames where the watcher neither starts nor
 * ends a reading), and the reading was confirmed on its first clear frame: Black's bb was
 * taken back as "the end signal", White's bd recorded as a wrong colour for Black, and
 * every move after it too. The record must equal the source move for move, with no
 * move taken back and no warning. Drives the kifucam binary ($KIFUCAM_BIN).
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

static const char *const game_moves[] = { "B[pd]", "W[dp]", "B[cc]", "W[dc]",
                                          "B[bb]", "W[bd]", "B[pp]", "W[qq]" };
#define NMOVES ((int)(sizeof game_moves / sizeof game_moves[0]))

static int setup(void **state)
{
    (void)state;
    bin = getenv("KIFUCAM_BIN");
    snprintf(tmp, sizeof tmp, "/tmp/kc_recundo_XXXXXX");
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

/* The record's moves, in order, as "B[xy]" strings into out (at most max); the count. */
static int record_moves(const char *sgf, char out[][8], int max)
{
    int n = 0;
    for (const char *p = sgf; (p = strchr(p, ';')) != NULL && n < max; p++) {
        if ((p[1] != 'B' && p[1] != 'W') || p[2] != '[')
            continue;
        const char *e = strchr(p + 3, ']');
        if (!e || e - p >= 8)
            continue;
        memcpy(out[n], p + 1, (size_t)(e - p));
        out[n][e - p] = 0;
        n++;
    }
    return n;
}

static void test_hand_near_corner_no_signal(void **state)
{
    (void)state;
    char path[256], cmd[2048];
    int n = snprintf(path, sizeof path, "%s/game.sgf", tmp);
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]", f);
    for (int i = 0; i < NMOVES; i++)
        fprintf(f, ";%s", game_moves[i]);
    fputs(")\n", f);
    assert_int_equal(fclose(f), 0);

    n = snprintf(cmd, sizeof cmd,
                 "'%s' render '%s' --out '%s/foot' --size 640x360 --seed 13 --view steep "
                 "--fps 15 --pace 0.3 >/dev/null 2>'%s/render.err'",
                 bin, path, tmp, tmp);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    if (kc_run(cmd) != 0)
        fail_msg("kifucam render failed");
    n = snprintf(cmd, sizeof cmd,
                 "'%s' record --input '%s/foot' --fps 15 --rules korean --sgf '%s/rec.sgf' "
                 "--format json >'%s/rec.out' 2>'%s/rec.err'",
                 bin, tmp, tmp, tmp, tmp);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    if (kc_run(cmd) != 0)
        fail_msg("kifucam record failed");

    n = snprintf(path, sizeof path, "%s/rec.sgf", tmp);
    assert_true(n > 0 && (size_t)n < sizeof path);
    char *sgf = kc_slurp(path, NULL);
    assert_non_null(sgf);
    n = snprintf(path, sizeof path, "%s/rec.out", tmp);
    assert_true(n > 0 && (size_t)n < sizeof path);
    char *out = kc_slurp(path, NULL);
    assert_non_null(out);

    char got[NMOVES + 8][8];
    int ng = record_moves(sgf, got, NMOVES + 8);
    int same = ng == NMOVES;
    for (int i = 0; same && i < NMOVES; i++)
        same = strcmp(got[i], game_moves[i]) == 0;
    int undone = strstr(out, "taken back") != NULL;
    int warned = strstr(out, "\"event\":\"warning\"") != NULL ||
                 strstr(out, "\"event\":\"wrong_colour\"") != NULL;
    if (!same || undone || warned)
        print_message("record (%d moves): %s\nevents:\n%s\n", ng, sgf, out);
    free(sgf);
    free(out);
    assert_false(undone);
    assert_false(warned);
    assert_true(same);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_near_corner_no_signal),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
