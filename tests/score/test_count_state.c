/* test_count_state.c: the changes of `count --serve`'s page as C calls (app/count_state.h),
 * without HTTP. On a 9x9 reading made from an ASCII board (a photo's snapshot filled by
 * hand: no pixels): a point cycled empty -> black -> white -> empty (the fix dropped at the
 * end), an unsure point that keeps the count pending until it is said empty, a group
 * toggled dead and alive (the result each time), the marking carried over a fix (a stone
 * added to a dead chain is dead with it), the prisoners of a territory count, Accept's
 * SGF read back with the project's reader and counted again as `kifucam score` counts it.
 * On the bundled photo (samples/frames/end-signals.png): the photo read again with the
 * corners found (the same count), with corners one line off (another reading), with
 * corners it cannot use (refused, nothing changed). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/count_state.h"
#include "rules/go_point.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

/* cli.h's helpers, as main.c has them (photo.c and score_out.c print through them): the
 * last error is kept for the tests to read. */
static char last_error[512];

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(last_error, sizeof last_error, "kifucam %s: ", cmd);
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
}

int cli_write_image(const char *path, const struct cvb_image *img, int quality, char *why,
                    size_t whylen)
{
    (void)path;
    (void)img;
    (void)quality;
    snprintf(why, whylen, "no pictures in this test");
    return -1;
}

/* Black owns the two columns on the left (and its wall), White the five on the right; a
 * white stone in Black's side (A5), a black one in White's (G5): both proposed dead.
 * Chinese, komi 7.5: Black 27, White 54 + 7.5: W+34.5. */
static const char *const BOARD_A[9] = {
    "..XO.....", "..XO.....", "..XO.....", "..XO.....", "O.XO..X..",
    "..XO.....", "..XO.....", "..XO.....", "..XO.....",
};

/* A photo whose reading is rows (9 of them; '?' a covered point), sure of every other. */
static void fake_photo(const char *const *rows, photo_t *ph)
{
    memset(ph, 0, sizeof *ph);
    assert_int_equal(cvb_image_alloc(&ph->img, 90, 90, 3), 0);
    ph->geom.size = 9;
    ph->snap.size = 9;
    double c[4][2] = { { 5, 5 }, { 85, 5 }, { 85, 85 }, { 5, 85 } };
    memcpy(ph->geom.corners, c, sizeof c);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            char ch = rows[y][x];
            int k = y * 9 + x;
            ph->snap.color[k] = ch == 'X' ? GO_BLACK : ch == 'O' ? GO_WHITE : GO_EMPTY;
            ph->snap.conf[k] = 1.0f;
            ph->snap.occluded[k] = ch == '?';
        }
}

static count_state_t *make_state(const char *const *rows, const char *rules,
                                 photo_opts_t *po)
{
    photo_t ph;
    count_params_t par;
    count_state_t *st = NULL;
    fake_photo(rows, &ph);
    count_params_defaults(&par);
    if (rules) {
        assert_int_equal(go_rules_preset(rules, &par.rules), GO_OK);
        par.komi2 = go_rules_komi2(&par.rules, 0);
    }
    memset(po, 0, sizeof *po);
    po->image = "board-a.png";
    assert_int_equal(count_state_create("count", &ph, po, &par, NULL, NULL, &st), COUNT_OK);
    assert_null(ph.img.data);      /* taken over */
    return st;
}

/* The point named in the human form (Q16) on 9x9. */
static int pt(const char *human)
{
    int p = 0;
    assert_int_equal(go_point_parse(9, human, (int)strlen(human), &p), GO_OK);
    return p;
}

static const char *result(const count_state_t *st)
{
    const go_score_t *sc = count_state_score(st);
    assert_non_null(sc);
    return sc->re;
}

static void test_params_and_errors(void **state)
{
    (void)state;
    count_params_t par;
    count_params_defaults(&par);
    assert_string_equal(par.rules.name, "chinese");
    assert_int_equal(par.komi2, 15);
    assert_int_equal(par.unsure, GO_UNSURE_REFUSE);
    assert_false(par.prisoners_given);
    assert_string_equal(count_strerror(COUNT_EPENDING),
                        "points the reader was unsure of are left: fix them first");
    assert_string_equal(count_strerror(12345), "unknown error");
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, NULL, &po);
    assert_int_equal(count_state_fix(st, 0, GO_BLACK, NULL), COUNT_EINVAL);
    assert_int_equal(count_state_fix(st, GO_PT(9, 0), GO_BLACK, NULL), COUNT_EINVAL);
    assert_int_equal(count_state_fix(st, pt("E5"), 7, NULL), COUNT_EINVAL);
    assert_int_equal(count_state_toggle(st, pt("E5")), COUNT_ENOSTONE);
    assert_int_equal(count_state_prisoners(st, -1, 0), COUNT_EINVAL);
    assert_int_equal(count_state_fixes(st)->n, 0);
    count_state_destroy(st);
    count_state_destroy(NULL);
}

/* A click in fix mode: empty -> black -> white -> empty, each counted; the last one is
 * what the reading says, so no fix is left. */
static void test_cycle_point(void **state)
{
    (void)state;
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, NULL, &po);
    assert_string_equal(result(st), "W+34.5");
    assert_string_equal(count_state_marking(st), "proposal");
    int p = pt("F9");   /* fa: empty, in White's side */
    go_color_t now = GO_OFF;
    assert_int_equal(count_state_fix(st, p, COUNT_CYCLE, &now), COUNT_OK);
    assert_int_equal(now, GO_BLACK);
    assert_int_equal(count_state_board(st)->color[p], GO_BLACK);
    assert_int_equal(count_state_fixes(st)->n, 1);
    assert_int_equal(count_state_fixes(st)->fix[0].color, GO_BLACK);
    /* not toggled by anyone: a new proposal, which finds the new stone dead */
    assert_true(go_session_dead(count_state_session(st))[p]);
    assert_string_equal(result(st), "W+34.5");
    assert_int_equal(count_state_fix(st, p, COUNT_CYCLE, &now), COUNT_OK);
    assert_int_equal(now, GO_WHITE);
    assert_int_equal(count_state_board(st)->color[p], GO_WHITE);
    assert_int_equal(count_state_fixes(st)->n, 1);
    assert_string_equal(result(st), "W+34.5");
    assert_int_equal(count_state_fix(st, p, COUNT_CYCLE, &now), COUNT_OK);
    assert_int_equal(now, GO_EMPTY);
    assert_int_equal(count_state_board(st)->color[p], GO_EMPTY);
    assert_int_equal(count_state_fixes(st)->n, 0);
    /* set outright: a white stone taken off Black's wall */
    assert_int_equal(count_state_fix(st, pt("C5"), GO_EMPTY, &now), COUNT_OK);
    assert_int_equal(count_state_board(st)->color[pt("C5")], GO_EMPTY);
    assert_int_equal(count_state_fixes(st)->n, 1);
    /* what `count` prints for it names the fix */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(count_state_print_text(st, f, NULL), COUNT_OK);
    fclose(f);
    assert_non_null(strstr(text, "fixed: C5 empty\n"));
    assert_non_null(strstr(text, "photo: board-a.png, 9x9, 9 black and 10 white stones"));
    free(text);
    json_t *js = count_state_json(st, NULL);
    assert_non_null(js);
    char *s = json_dumps(js, JSON_COMPACT);
    assert_non_null(strstr(s, "\"fixed\":[{\"point\":\"ce\",\"color\":\".\"}]"));
    free(s);
    json_decref(js);
    count_state_destroy(st);
}

/* A covered point: no count until it is said (cycled from '?' to empty first). */
static void test_unsure_pending(void **state)
{
    (void)state;
    const char *rows[9];
    memcpy(rows, BOARD_A, sizeof rows);
    rows[8] = "..XO....?";
    photo_opts_t po;
    count_state_t *st = make_state(rows, NULL, &po);
    assert_int_equal(count_state_pending(st), 1);
    assert_null(count_state_score(st));
    assert_null(count_state_session(st));
    int n = 0;
    const go_point_t *left = count_state_unsure(st, &n);
    assert_int_equal(n, 1);
    assert_int_equal(left[0], pt("J1"));
    assert_int_equal(count_state_toggle(st, pt("C5")), COUNT_EPENDING);
    assert_int_equal(count_state_accept(st, "/nonexistent/never.sgf"), COUNT_EPENDING);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(count_state_sgf(st, &text, &len), COUNT_EPENDING);
    assert_null(count_state_json(st, NULL));
    go_color_t now = GO_OFF;
    assert_int_equal(count_state_fix(st, pt("J1"), COUNT_CYCLE, &now), COUNT_OK);
    assert_int_equal(now, GO_EMPTY);
    assert_int_equal(count_state_pending(st), 0);
    assert_string_equal(result(st), "W+34.5");
    /* an unsure point keeps its fix even when it says what the guess said */
    assert_int_equal(count_state_fixes(st)->n, 1);
    count_state_unsure(st, &n);
    assert_int_equal(n, 0);
    count_state_destroy(st);
}

/* A click on a stone in dead mode: its group dead or alive, the count each time. */
static void test_toggle_group(void **state)
{
    (void)state;
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, NULL, &po);
    const uint8_t *dead = go_session_dead(count_state_session(st));
    assert_true(dead[pt("A5")] && dead[pt("G5")]);
    assert_int_equal(count_state_toggle(st, pt("A5")), 1);   /* the white stone: alive */
    assert_true(count_state_marked(st));
    assert_string_equal(count_state_marking(st), "people");
    assert_false(go_session_dead(count_state_session(st))[pt("A5")]);
    assert_string_equal(result(st), "W+53.5");   /* White 55 + 7.5, Black's wall 9 */
    assert_int_equal(count_state_toggle(st, pt("A5")), 1);   /* dead again */
    assert_string_equal(result(st), "W+34.5");
    /* Black's wall: 9 stones at once, dead, then alive */
    assert_int_equal(count_state_toggle(st, pt("C1")), 9);
    assert_true(go_session_dead(count_state_session(st))[pt("C9")]);
    assert_int_equal(count_state_toggle(st, pt("C9")), 9);
    assert_string_equal(result(st), "W+34.5");
    score_report_t rr;
    assert_int_equal(count_state_report(st, &rr), COUNT_OK);
    assert_false(rr.proposal);
    count_state_destroy(st);
}

/* After a toggle the marking is people's: a fix elsewhere keeps it; a stone added to a
 * dead chain is dead with it. */
static void test_marking_carried(void **state)
{
    (void)state;
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, NULL, &po);
    assert_int_equal(count_state_toggle(st, pt("A5")), 1);   /* alive: people's marking */
    assert_int_equal(count_state_fix(st, pt("H8"), GO_WHITE, NULL), COUNT_OK);
    const uint8_t *dead = go_session_dead(count_state_session(st));
    assert_false(dead[pt("A5")]);           /* kept alive, not proposed again */
    assert_true(dead[pt("G5")]);
    assert_false(dead[pt("H8")]);
    assert_int_equal(count_state_fix(st, pt("G4"), GO_BLACK, NULL), COUNT_OK);
    dead = go_session_dead(count_state_session(st));
    assert_true(dead[pt("G5")] && dead[pt("G4")]);   /* one chain, dead whole */
    assert_true(count_state_marked(st));
    count_state_destroy(st);
}

/* Japanese rules: the prisoners count; the marking is kept exactly. */
static void test_prisoners(void **state)
{
    (void)state;
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, "japanese", &po);
    /* Black 18 territory + 1 dead = 19; White 45 + 1 + 6.5 = 52.5 */
    assert_string_equal(result(st), "W+33.5");
    int margin = count_state_score(st)->margin2;
    assert_int_equal(count_state_toggle(st, pt("G5")), 1);   /* alive: the marking changes */
    uint8_t mask[GO_CELLS];
    memcpy(mask, go_session_dead(count_state_session(st)), GO_CELLS);
    int m2 = count_state_score(st)->margin2;
    assert_int_not_equal(m2, margin);
    assert_int_equal(count_state_prisoners(st, 10, 3), COUNT_OK);
    assert_true(count_state_params(st)->prisoners_given);
    assert_int_equal(count_state_params(st)->captures[GO_BLACK], 10);
    assert_int_equal(count_state_score(st)->margin2, m2 + 2 * 7);
    assert_memory_equal(go_session_dead(count_state_session(st)), mask, GO_CELLS);
    assert_int_equal(count_state_prisoners(st, 10, 100001), COUNT_EINVAL);
    assert_int_equal(count_state_params(st)->captures[GO_WHITE], 3);
    count_state_destroy(st);
}

/* Accept: the record read back has the position, the dead stones, the territory, the
 * result, the rules and komi; counted as `score` counts a record (its KD[] as the
 * marking), it gives the same result. Nothing changes after. */
static void test_accept_sgf(void **state)
{
    (void)state;
    photo_opts_t po;
    count_state_t *st = make_state(BOARD_A, NULL, &po);
    assert_int_equal(count_state_toggle(st, pt("G5")), 1);   /* alive, then dead again: */
    assert_int_equal(count_state_toggle(st, pt("G5")), 1);   /* people's marking */
    assert_string_equal(result(st), "W+34.5");
    char dir[] = "/tmp/kc_count_state.XXXXXX", path[512], bad[600];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.sgf", dir);
    snprintf(bad, sizeof bad, "%s/no/such/dir/a.sgf", dir);
    assert_int_equal(count_state_accept(st, bad), COUNT_EIO);
    assert_false(count_state_done(st));
    assert_int_equal(count_state_accept(st, path), COUNT_OK);
    assert_true(count_state_done(st));
    assert_int_equal(count_state_fix(st, pt("E5"), GO_BLACK, NULL), COUNT_EDONE);
    assert_int_equal(count_state_toggle(st, pt("C5")), COUNT_EDONE);
    assert_int_equal(count_state_prisoners(st, 1, 1), COUNT_EDONE);
    assert_int_equal(count_state_accept(st, path), COUNT_EDONE);

    sgf_collection_t *c = NULL;
    sgf_error_t err;
    assert_int_equal(sgf_parse_file(path, NULL, &c, &err), 0);
    const sgf_node_t *root = c->games[0];
    assert_null(root->child);                           /* a position, no moves */
    assert_string_equal(sgf_node_value(root, "SZ"), "9");
    assert_string_equal(sgf_node_value(root, "RU"), "Chinese");
    assert_string_equal(sgf_node_value(root, "KM"), "7.5");
    assert_string_equal(sgf_node_value(root, "RE"), "W+34.5");
    assert_int_equal(sgf_node_find(root, "AB")->nvalues, 10);
    assert_int_equal(sgf_node_find(root, "AW")->nvalues, 10);
    const sgf_prop_t *kd = sgf_node_find(root, "KD");
    assert_non_null(kd);
    assert_int_equal(kd->nvalues, 2);
    assert_string_equal(kd->values[0], "ae");           /* A5, the white stone */
    assert_string_equal(kd->values[1], "ge");           /* G5, the black one */
    /* territory: the empty points and the dead stones' points, each side's */
    const sgf_prop_t *tb = sgf_node_find(root, "TB"), *tw = sgf_node_find(root, "TW");
    assert_int_equal(tb->nvalues, 18);                  /* columns A and B */
    assert_int_equal(tw->nvalues, 45);                  /* columns E to J */
    for (int i = 0; i < tb->nvalues; i++)
        assert_true(tb->values[i][0] <= 'b');
    bool ge_white = false;
    for (int i = 0; i < tw->nvalues; i++) {
        assert_true(tw->values[i][0] >= 'e');
        ge_white |= !strcmp(tw->values[i], "ge");
    }
    assert_true(ge_white);
    assert_null(sgf_node_find(root, "HA"));
    assert_non_null(strstr(sgf_node_value(root, "C"), "W+34.5\nrules chinese, komi 7.5"));

    /* as `kifucam score` counts the record: the replay, its KD[] as the dead stones */
    sgf_replay_t rep;
    assert_int_equal(sgf_replay(root, NULL, &rep, &err), 0);
    go_session_t *sess = go_session_for_game(rep.game, &rep.rules, rep.komi2, rep.handicap,
                                             false);
    assert_non_null(sess);
    uint8_t mask[GO_CELLS];
    memset(mask, 0, sizeof mask);
    for (int i = 0; i < kd->nvalues; i++)
        mask[go_point_from_sgf(9, kd->values[i], 2)] = 1;
    assert_int_equal(go_session_set_dead(sess, mask), GO_OK);
    go_score_t sc;
    assert_int_equal(go_session_score(sess, &sc), GO_OK);
    assert_string_equal(sc.re, "W+34.5");
    go_session_destroy(sess);
    sgf_replay_fini(&rep);
    sgf_collection_destroy(c);
    count_state_destroy(st);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(kc_run(cmd), 0);
}

/* The bundled photo read again with corners: those found (the same count), one line off
 * to the right (another reading, the fixes kept), unusable ones (refused). */
static void test_corners(void **state)
{
    (void)state;
    char png[1024];
    snprintf(png, sizeof png, "%s/samples/frames/end-signals.png", kc_source_dir());
    photo_opts_t po;
    memset(&po, 0, sizeof po);
    po.image = png;
    photo_t ph;
    if (photo_read("count", &po, &ph) != 0) {
        photo_free(&ph);
        fail_msg("%s: %s", png, last_error);
    }
    count_params_t par;
    count_params_defaults(&par);
    count_state_t *st = NULL;
    assert_int_equal(count_state_create("count", &ph, &po, &par, NULL, NULL, &st), COUNT_OK);
    photo_free(&ph);
    assert_string_equal(result(st), "B+0.5");   /* test_count_cli's count of the photo */
    assert_null(count_state_corners_text(st));
    assert_int_equal(count_state_fix(st, GO_PT(9, 9), GO_BLACK, NULL), COUNT_OK);   /* K10 */
    go_board_t before = *count_state_board(st);
    double c[4][2];
    memcpy(c, count_state_photo(st)->geom.corners, sizeof c);

    assert_int_equal(count_state_corners(st, (const double(*)[2])c), COUNT_OK);
    assert_non_null(count_state_corners_text(st));
    const go_board_t *b = count_state_board(st);
    int differ = 0;
    for (int k = 0; k < 19 * 19; k++)
        differ += b->color[GO_PT(k % 19, k / 19)] != before.color[GO_PT(k % 19, k / 19)];
    assert_int_equal(differ, 0);
    assert_int_equal(b->color[GO_PT(9, 9)], GO_BLACK);

    /* a grid one line to the right: most points read differently, the fix still holds */
    double s[4][2];   /* each corner one spacing along its edge: top for 1-2, bottom 4-3 */
    for (int k = 0; k < 4; k++) {
        const double *from = k < 2 ? c[0] : c[3], *to = k < 2 ? c[1] : c[2];
        s[k][0] = c[k][0] + (to[0] - from[0]) / 18;
        s[k][1] = c[k][1] + (to[1] - from[1]) / 18;
    }
    assert_int_equal(count_state_corners(st, (const double(*)[2])s), COUNT_OK);
    b = count_state_board(st);
    differ = 0;
    for (int k = 0; k < 19 * 19; k++)
        differ += b->color[GO_PT(k % 19, k / 19)] != before.color[GO_PT(k % 19, k / 19)];
    print_message("one line off: %d of 361 points read differently\n", differ);
    assert_true(differ > 50);
    assert_int_equal(b->color[GO_PT(9, 9)], GO_BLACK);
    assert_int_equal(count_state_fixes(st)->n, 1);
    go_board_t shifted = *b;

    /* corners no image has: photo_read refuses (said under the command), nothing changes */
    double far[4][2] = { { -1e5, 0 }, { 100, 0 }, { 100, 100 }, { 0, 100 } };
    last_error[0] = '\0';
    assert_int_equal(count_state_corners(st, (const double(*)[2])far), COUNT_EREAD);
    assert_non_null(strstr(last_error, "kifucam count: "));
    assert_non_null(strstr(last_error, "far outside"));
    assert_memory_equal(count_state_board(st)->color, shifted.color, sizeof shifted.color);

    /* another board size (a window of a bigger board read, a grid in doubt): the photo read
     * again whole at that size; the fixes and the marking, which name the old board's
     * points, dropped; no such size, or corners no image has: nothing changes */
    assert_int_equal(count_state_corners(st, (const double(*)[2])c), COUNT_OK); /* counted */
    int black = -1;
    for (int k = 0; k < 19 * 19 && black < 0; k++)
        if (count_state_board(st)->color[GO_PT(k % 19, k / 19)] == GO_BLACK)
            black = GO_PT(k % 19, k / 19);
    assert_true(black >= 0);
    assert_true(count_state_toggle(st, black) > 0);
    assert_string_equal(count_state_marking(st), "people");
    assert_int_equal(count_state_corners_size(st, (const double(*)[2])s, 12), COUNT_EINVAL);
    assert_int_equal(count_state_corners_size(st, (const double(*)[2])far, 13), COUNT_EREAD);
    assert_int_equal(count_state_board(st)->size, 19);
    assert_int_equal(count_state_fixes(st)->n, 1);
    assert_string_equal(count_state_marking(st), "people");
    assert_int_equal(count_state_corners_size(st, (const double(*)[2])c, 19), COUNT_OK); /* the same size */
    assert_int_equal(count_state_fixes(st)->n, 1);
    assert_string_equal(count_state_marking(st), "people");
    assert_int_equal(count_state_corners_size(st, (const double(*)[2])c, 13), COUNT_OK);
    assert_int_equal(count_state_board(st)->size, 13);
    assert_int_equal(count_state_photo(st)->geom.size, 13);
    assert_int_equal(count_state_fixes(st)->n, 0);
    assert_string_equal(count_state_marking(st), "proposal");
    assert_int_equal(count_state_corners_size(st, (const double(*)[2])c, 19), COUNT_OK);
    assert_int_equal(count_state_board(st)->size, 19);
    assert_string_equal(result(st), "B+0.5");   /* the first count again: nothing kept */
    count_state_destroy(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_and_errors),
        cmocka_unit_test(test_cycle_point),
        cmocka_unit_test(test_unsure_pending),
        cmocka_unit_test(test_toggle_group),
        cmocka_unit_test(test_marking_carried),
        cmocka_unit_test(test_prisoners),
        cmocka_unit_test(test_accept_sgf),
        cmocka_unit_test(test_corners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
