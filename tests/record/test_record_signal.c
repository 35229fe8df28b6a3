/* test_record_signal.c: the end signals of the Chinese rules read by `kifucam record` on
 * footage rendered by `kifucam render` (the first moves of samples/games/demo.sgf), in
 * scenes where they were missed:
 *  - seed 1, steep: a camera from one side (the players sit at the picture's left and
 *    right, no calibration: the seats' corners are the other diagonal), a white cloth
 *    table (a white signal stone on white cloth); --end pass: both pass, the result;
 *  - seed 3, steep: a dark wood table (black stones hardly darker than the wood, but
 *    grey); --end resign: Black resigns (move 6 is White's), W+R;
 *  - seed 10, above: White's white stones on dark wood (their edges are no hand);
 *  - seed 30, above: White resigns at a corner of the other diagonal (no calibration);
 *  - a pass in mid-game: the passer's end signal, answered by the opponent's move;
 *  - an end signal withdrawn: the passer takes it back and plays himself;
 *  - the JSON lines say whom each event and note is for (the side camera's clip);
 *  - seed 24, above, a dark table: White's black end signal (its sheen brighter than the
 *    table) is no resignation; both pass, W+7.5;
 *  - seed 31, steep: the far seat's end signal shifted along the board's side by the
 *    view is read; both pass, W+7.5.
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

/* Render `moves` moves of the game `game` (seed, view, 640x360 at 15 fps, hands on, the
 * render options `extra`) with the end `end` into tmp/NAME, record it, and return the
 * record's text (malloc'd). */
static char *render_game_ex(const char *game, const char *name, int seed, const char *view,
                            int moves, const char *end, const char *extra)
{
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd,
                     "'%s' render '%s' --out '%s/%s' --size 640x360 "
                     "--seed %d --view %s --fps 15 --pace 0.3 --moves %d --end %s %s "
                     ">/dev/null 2>'%s/%s.rerr'",
                     bin, game, tmp, name, seed, view, moves, end, extra, tmp, name);
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

static char *render_game(const char *game, const char *name, int seed, const char *view,
                         int moves, const char *end)
{
    return render_game_ex(game, name, seed, view, moves, end, "");
}

/* The same on demo.sgf (render options extra). */
static char *render_demo(const char *name, int seed, const char *view, int moves,
                         const char *end, const char *extra)
{
    char demo[1024];
    int n = snprintf(demo, sizeof demo, "%s/samples/games/demo.sgf", kc_source_dir());
    assert_true(n > 0 && (size_t)n < sizeof demo);
    return render_game_ex(demo, name, seed, view, moves, end, extra);
}

/* The same on demo.sgf, seen from a steep view. */
static char *render_and_record(const char *name, int seed, int moves, const char *end)
{
    return render_demo(name, seed, "steep", moves, end, "");
}

/* The same on demo.sgf seen from above. */
static char *render_above(const char *name, int seed, int moves, const char *end)
{
    return render_demo(name, seed, "above", moves, end, "");
}

/* A camera from one side, a white cloth table: both end signals on the other diagonal
 * (Black's white stone beyond the board's far side, once hidden by the board's edge);
 * both pass and the count's result is written. */
/* The JSON lines of clip `name` say whom each event and note is for. */
static void assert_audiences(const char *name)
{
    /* the JSON lines say whom each event and note is for: the result and the station's
     * passes viewers', the signal reader's readings and the board found the arbiter's (the
     * last line, the run's stats, no one's) */
    char p[256];
    snprintf(p, sizeof p, "%s/%s.out", tmp, name);
    char *out = kc_slurp(p, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "\"event\":\"signal\",\"t\":"));
    for (const char *l = out; (l = strstr(l, "{\"event\":")) != NULL; l++) {
        const char *end = strchr(l, '\n');
        int len = end ? (int)(end - l) : (int)strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", len < 1023 ? len : 1023, l);
        if (!strncmp(line, "{\"event\":\"result\"", 17) || !strncmp(line, "{\"event\":\"pass\"", 15))
            assert_non_null(strstr(line, "\"audience\":\"viewer\""));
        if (!strncmp(line, "{\"event\":\"board\"", 16) || !strncmp(line, "{\"event\":\"signal\"", 17))
            assert_non_null(strstr(line, "\"audience\":\"arbiter\""));
        if (strncmp(line, "{\"event\":\"stats\"", 16))   /* the run's figures: no one's */
            assert_non_null(strstr(line, "\"audience\":"));
    }
    free(out);
}

/* The footage: the first 12 moves of demo.sgf, both players' end signals, and the one
 * stone the renderer lifts as dead. No calibration: the record is the board as the camera
 * sees it (demo's pd is its dd), and the stone lifted is Black's R16 (qd) there. The
 * record must be those 12 moves,
 * the two passes, that stone dead, and the area count of what is left: Black 5 stones,
 * White 6 + 7.5 komi (nothing is enclosed yet): W+8.5. */
static void test_signal_pass_side_camera(void **state)
{
    (void)state;
    char *sgf = render_and_record("side_pass", 1, 12, "pass");
    static const char *const moves[] = { "B[dd]", "W[pp]", "B[qd]", "W[dp]", "B[qn]", "W[od]",
                                         "B[ld]", "W[pg]", "B[of]", "W[pe]", "B[pf]", "W[qe]",
                                         "B[]", "W[]" };
    int ok = 1;
    const char *p = sgf;
    for (size_t i = 0; i < sizeof moves / sizeof moves[0] && ok; i++) {
        p = strstr(p, moves[i]);
        ok = p != NULL;
    }
    ok = ok && strstr(sgf, "RE[W+8.5]") && strstr(sgf, "Dead: R16\n") &&
         strstr(sgf, "Dead stones set: 1 group, 1 stone.");
    if (!ok)
        print_message("the record is not the game with its end signals:\n%s\n", sgf);
    free(sgf);
    assert_true(ok);
    assert_audiences("side_pass");
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

/* White's two white stones on dark wood, the board turned a little: the stones' edges
 * (white blended with the brown wood) are no hand; White resigns (move 7 was Black's). */
static void test_signal_resign_white_on_wood(void **state)
{
    (void)state;
    char *sgf = render_above("white_wood", 10, 7, "resign");
    int ok = strstr(sgf, "RE[B+R") != NULL;
    if (!ok)
        print_message("%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

/* No calibration, the players at the picture's top and bottom, the record's bottom at the
 * picture's side: White resigns at a corner of the other diagonal; one signal there is the
 * side to move's, so White sits there and resigns. */
static void test_signal_resign_other_diagonal(void **state)
{
    (void)state;
    char *sgf = render_above("other_diag", 30, 7, "resign");
    int ok = strstr(sgf, "RE[B+R") != NULL;
    if (!ok)
        print_message("%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

/* A pass in mid-game: White puts out his end signal (a black stone at his corner), Black
 * plays on instead (a black stone on White's turn after White's signal: White passed),
 * White takes his signal back and plays; at the end both pass with the signals. The
 * record has White's pass where it was, and every move in its colour. */
static void test_signal_pass_mid_game(void **state)
{
    (void)state;
    char path[256];
    int n = snprintf(path, sizeof path, "%s/midpass.sgf", tmp);
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp];B[pp];W[dd];B[fq];W[];B[cn];W[jp])\n", f);
    assert_int_equal(fclose(f), 0);
    char *sgf = render_game(path, "midpass", 2, "steep", 8, "pass");
    const char *a = strstr(sgf, ";B[fq]"), *p = a ? strstr(a, ";W[]") : NULL;
    const char *b = p ? strstr(p, ";B[cn]") : NULL, *w = b ? strstr(b, ";W[jp]") : NULL;
    int ok = a && p && b && w && p - a < 64 && b - p < 64 && w - b < 64 &&
             strstr(sgf, "RE[") != NULL;
    if (!ok)
        print_message("White's pass in mid-game not recorded in place:\n%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

/* White puts out his end signal, then takes it back and plays himself: no pass (a signal
 * alone records nothing; only the opponent's stone after it makes it a pass). */
static void test_signal_pass_withdrawn(void **state)
{
    (void)state;
    char path[256];
    int n = snprintf(path, sizeof path, "%s/withdrawn.sgf", tmp);
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp];B[pp];W[dd];B[fq];W[];W[jp];B[cn])\n", f);
    assert_int_equal(fclose(f), 0);
    char *sgf = render_game(path, "withdrawn", 2, "steep", 8, "pass");
    const char *a = strstr(sgf, ";B[fq]"), *w = a ? strstr(a, ";W[jp]") : NULL;
    const char *b = w ? strstr(w, ";B[cn]") : NULL, *p = a ? strstr(a, "W[]") : NULL;
    int ok = a && w && b && w - a < 64 && b - w < 64 && (!p || p > b);
    if (!ok)
        print_message("the withdrawn signal:\n%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

/* The record of 6 moves of demo.sgf and both end signals: the moves, two passes, the
 * area count W+7.5 (nothing enclosed yet: Black 3 stones, White 3 + 7.5), no
 * resignation. */
static int ended_by_agreement(const char *sgf)
{
    return strstr(sgf, "B[]") && strstr(sgf, "W[]") && strstr(sgf, "RE[W+7.5]") &&
           !strstr(sgf, "+R");
}

/* Seed 24 from above on a dark table: White's end signal, a black stone hardly darker
 * than the table and brighter by its sheen, was read as a white one, White's own colour:
 * a false resignation (RE[B+R]). Now the two end signals and the count. */
static void test_signal_pass_dark_table(void **state)
{
    (void)state;
    char *sgf = render_demo("dark_pass", 24, "above", 6, "pass", "--table dark");
    int ok = ended_by_agreement(sgf);
    if (!ok)
        print_message("%s\n", sgf);
    free(sgf);
    assert_true(ok);
}

/* Seed 31, steep, its own table: the far seat's end signal, on the table below the
 * board's surface, appears shifted along the board's side towards the camera, out of the
 * patch the reader looked at: the end was lost ("White's was not seen", exit 1). Now the
 * two end signals and the count. */
static void test_signal_pass_far_corner(void **state)
{
    (void)state;
    char *sgf = render_and_record("far_pass", 31, 6, "pass");
    int ok = ended_by_agreement(sgf);
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
        cmocka_unit_test(test_signal_resign_white_on_wood),
        cmocka_unit_test(test_signal_resign_other_diagonal),
        cmocka_unit_test(test_signal_pass_mid_game),
        cmocka_unit_test(test_signal_pass_withdrawn),
        cmocka_unit_test(test_signal_pass_dark_table),
        cmocka_unit_test(test_signal_pass_far_corner),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
