/* test_score_count.c: go_score_count under every preset, on hand-made ASCII positions:
 * the Chinese rules' worked example, seki with and without eyes, dame, handicap,
 * prisoners, dead stones, Tromp-Taylor, Ing's tie rule and the ancient group tax. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rules/go_score.h"
#include "boards.h"

static go_rules_t preset(const char *name)
{
    go_rules_t r;
    assert_int_equal(go_rules_preset(name, &r), GO_OK);
    return r;
}

static go_score_t count(const char *rules, const char *text, int komi2, int handicap,
                        int capb, int capw)
{
    go_board_t b;
    uint8_t dead[GO_CELLS];
    go_rules_t r = preset(rules);
    go_score_params_t par;
    go_score_t s;
    memset(&par, 0, sizeof par);
    par.komi2 = komi2;
    par.handicap = handicap;
    par.captures[GO_BLACK] = capb;
    par.captures[GO_WHITE] = capw;
    assert_int_equal(tb_load(&b, dead, text), 0);
    assert_int_equal(go_score_count(&b, &r, &par, dead, &s), GO_OK);
    return s;
}

/* The Chinese rules' example: 140 black stones + 44 black points = 184 against
 * 140 white stones + 37 white points = 177, on 19x19 (rows filled in reading order). */
static void worked_board(go_board_t *b)
{
    go_board_init(b, 19);
    for (int i = 0; i < 361; i++) {
        int p = GO_PT(i % 19, i / 19);
        if (i >= 44 && i < 184)
            go_board_set(b, p, GO_BLACK);
        else if (i >= 184 && i < 324)
            go_board_set(b, p, GO_WHITE);
    }
}

static void test_worked_example(void **state)
{
    (void)state;
    go_board_t b;
    go_rules_t r = preset("chinese");
    go_score_params_t par;
    go_score_t s;
    char en[64], cn[64];
    worked_board(&b);
    memset(&par, 0, sizeof par);

    /* komi 3 1/4 stones = 6.5 points: Black wins by 1/4 stone (0.5 point) */
    par.komi2 = 13;
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_OK);
    assert_int_equal(s.side[GO_BLACK].stones, 140);
    assert_int_equal(s.side[GO_BLACK].territory, 44);
    assert_int_equal(s.side[GO_BLACK].area2, 2 * 184);
    assert_int_equal(s.side[GO_WHITE].area2, 2 * 177);
    assert_int_equal(s.margin2, 1);
    assert_string_equal(s.re, "B+0.5");
    go_score_stones_text(&s, en, sizeof en, cn, sizeof cn);
    assert_string_equal(en, "Black wins by 1/4 stone");
    assert_string_equal(cn, "黑胜1/4子");

    /* komi 3 3/4 stones = 7.5 points: White wins by 1/4 stone */
    par.komi2 = 15;
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_OK);
    assert_string_equal(s.re, "W+0.5");
    go_score_stones_text(&s, en, sizeof en, cn, sizeof cn);
    assert_string_equal(en, "White wins by 1/4 stone");
    assert_string_equal(cn, "白胜1/4子");

    /* no komi: Black wins by 3 1/2 stones (7 points) */
    par.komi2 = 0;
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_OK);
    assert_string_equal(s.re, "B+7");
    go_score_stones_text(&s, en, sizeof en, cn, sizeof cn);
    assert_string_equal(en, "Black wins by 3 1/2 stones");
    assert_string_equal(cn, "黑胜3又1/2子");

    /* counted by territory the same board gives the same result (44 - 6.5 vs 37) */
    r = preset("japanese");
    par.komi2 = 13;
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_OK);
    assert_string_equal(s.re, "B+0.5");
}

/* A seki without eyes in the top-left corner: the inner black chain (0,1)-(2,2) and the
 * inner white chain (1,0),(2,0),(2,1) share the liberties a1 (0,0) and (1,1). */
static const char *seki_no_eyes = "\
.OOX.....\n\
X.OX.....\n\
XXXOXXXXX\n\
OOOOOOOOO\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";

static void test_seki_without_eyes(void **state)
{
    (void)state;
    go_score_t s = count("japanese", seki_no_eyes, 13, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].territory, 10);
    assert_int_equal(s.side[GO_WHITE].territory, 45);
    assert_true(s.point[GO_PT(0, 0)] & GO_SP_SEKI);
    assert_true(s.point[GO_PT(1, 1)] & GO_SP_SEKI);
    assert_int_equal(GO_SP_OWNER(s.point[GO_PT(0, 0)]), GO_EMPTY);
    assert_true(s.point[GO_PT(0, 1)] & GO_SP_SEKI);   /* inner black chain */
    assert_true(s.point[GO_PT(2, 0)] & GO_SP_SEKI);   /* inner white chain */
    assert_false(s.point[GO_PT(4, 2)] & GO_SP_SEKI);  /* outer wall */
    assert_string_equal(s.re, "W+41.5");

    /* chinese: the two shared points are half each: 11 + 10 + 1 = 22, 13 + 45 + 1 = 59 */
    s = count("chinese", seki_no_eyes, 15, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].area2, 44);
    assert_int_equal(s.side[GO_WHITE].area2, 118);
    assert_int_equal(s.margin2, 44 - 118 - 15);
    assert_string_equal(s.re, "W+44.5");

    /* tromp-taylor: shared points are nobody's: 21 against 58 */
    s = count("tromp-taylor", seki_no_eyes, 15, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].total2, 42);
    assert_string_equal(s.re, "W+44.5");
}

/* A seki with one eye each: black (0,1),(1,0),(1,1) with its eye at (0,0); white
 * (3,0),(5,0),(2,1)-(5,1) with its eye at (4,0); they share (2,0). */
static const char *seki_eyes = "\
.X.O.OX..\n\
XXOOOOX..\n\
OOXXXXXXX\n\
OOOOOOOOO\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";

static void test_seki_with_eyes(void **state)
{
    (void)state;
    /* japanese: the eyes of the seki groups are not territory */
    go_score_t s = count("japanese", seki_eyes, 0, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].territory, 4);
    assert_int_equal(s.side[GO_WHITE].territory, 45);
    assert_true(s.point[GO_PT(0, 0)] & GO_SP_SEKI);
    assert_int_equal(GO_SP_OWNER(s.point[GO_PT(0, 0)]), GO_EMPTY);
    assert_int_equal(GO_SP_OWNER(s.point[GO_PT(4, 0)]), GO_EMPTY);
    assert_string_equal(s.re, "W+41");

    /* chinese: the eyes count as area; the shared point is half each:
     * black 12 stones + 4 + 1 eye + 1/2 = 17.5, white 17 + 45 + 1 + 1/2 = 63.5 */
    s = count("chinese", seki_eyes, 15, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].area2, 35);
    assert_int_equal(s.side[GO_WHITE].area2, 127);
    assert_string_equal(s.re, "W+53.5");
}

/* One dame point at (3,0) between the walls. */
static const char *dame5 = "\
..X.O\n\
..XO.\n\
..XO.\n\
..XO.\n\
..XO.\n";

static void test_dame_every_preset(void **state)
{
    (void)state;
    /* black 5 stones + 10, white 5 stones + 4, one dame point */
    go_score_t s = count("japanese", dame5, 13, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].territory, 10);
    assert_int_equal(s.side[GO_WHITE].territory, 4);
    assert_true(s.point[GO_PT(3, 0)] & GO_SP_DAME);
    assert_string_equal(s.re, "W+0.5");  /* 10 vs 4 + 6.5 */
    s = count("korean", dame5, 13, 0, 0, 0);
    assert_string_equal(s.re, "W+0.5");
    s = count("chinese", dame5, 15, 0, 0, 0);      /* 15.5 vs 9.5 + 7.5 */
    assert_int_equal(s.side[GO_BLACK].shared2, 1);
    assert_string_equal(s.re, "W+1.5");
    s = count("tromp-taylor", dame5, 15, 0, 0, 0); /* 15 vs 9 + 7.5 */
    assert_string_equal(s.re, "W+1.5");
    s = count("aga", dame5, 15, 0, 0, 0);
    assert_string_equal(s.re, "W+1.5");
    s = count("nz", dame5, 14, 0, 0, 0);           /* 15 vs 9 + 7 */
    assert_string_equal(s.re, "W+1");
    s = count("ing", dame5, 16, 0, 0, 0);          /* 15 vs 9 + 8 */
    assert_string_equal(s.re, "W+2");
    /* a whole-number komi exactly at par is a draw */
    s = count("nz", dame5, 12, 0, 0, 0);
    assert_int_equal(s.winner, GO_EMPTY);
    assert_string_equal(s.re, "0");
    /* Ing: Black wins ties (komi 8 with Black winning ties is komi 7.5): "B+0.5" */
    s = count("ing", dame5, 12, 0, 0, 0);
    assert_int_equal(s.margin2, 0);
    assert_int_equal(s.winner, GO_BLACK);
    assert_string_equal(s.re, "B+0.5");
}

/* Handicap: White gets N points under the Chinese rules, N-1 under AGA, none under the
 * Japanese rules. */
static void test_handicap(void **state)
{
    (void)state;
    go_score_t s = count("chinese", dame5, 0, 4, 0, 0);   /* 15.5 vs 9.5 + 4 */
    assert_int_equal(s.side[GO_WHITE].handicap2, 8);
    assert_string_equal(s.re, "B+2");
    s = count("aga", dame5, 0, 4, 0, 0);                  /* 15 vs 9 + 3 */
    assert_int_equal(s.side[GO_WHITE].handicap2, 6);
    assert_string_equal(s.re, "B+3");
    s = count("japanese", dame5, 0, 4, 0, 0);             /* 10 vs 4 */
    assert_int_equal(s.side[GO_WHITE].handicap2, 0);
    assert_string_equal(s.re, "B+6");
    s = count("nz", dame5, 0, 1, 0, 0);                   /* one stone is no handicap */
    assert_string_equal(s.re, "B+6");
}

/* Prisoners and dead stones: territory rules count them, area rules do not need to. */
static const char *dead9 = "\
....X.O..\n\
..o.X.O..\n\
....X.O..\n\
....XO...\n\
....XO.x.\n\
....XO...\n\
....XO...\n\
....XO...\n\
....XO...\n";

static void test_prisoners_and_dead(void **state)
{
    (void)state;
    /* black: 9 stones, territory 4 x 9 = 36 (the dead white stone's point included);
     * (5,0),(5,1),(5,2) dame; white: 9 stones, territory 2 x 3 + 3 x 6 = 24 (the dead
     * black stone's point included). */
    go_score_t s = count("japanese", dead9, 13, 0, 3, 5);
    assert_int_equal(s.side[GO_BLACK].dead, 1);   /* the white stone at (2,1) */
    assert_int_equal(s.side[GO_WHITE].dead, 1);   /* the black stone at (7,4) */
    assert_int_equal(s.side[GO_BLACK].territory, 36);
    assert_int_equal(s.side[GO_WHITE].territory, 24);
    assert_int_equal(s.side[GO_BLACK].captures, 3);
    assert_int_equal(s.side[GO_WHITE].captures, 5);
    /* black 36 + 3 + 1 = 40; white 24 + 5 + 1 + 6.5 = 36.5 */
    assert_string_equal(s.re, "B+3.5");
    assert_true(s.point[GO_PT(2, 1)] & GO_SP_DEAD);
    assert_int_equal(GO_SP_OWNER(s.point[GO_PT(2, 1)]), GO_BLACK);

    /* area: black 9 + 36 + 1.5 = 46.5, white 9 + 24 + 1.5 = 34.5: prisoners do not count */
    s = count("chinese", dead9, 15, 0, 3, 5);
    assert_int_equal(s.side[GO_BLACK].area2, 93);
    assert_int_equal(s.side[GO_WHITE].area2, 69);
    assert_string_equal(s.re, "B+4.5");

    /* tromp-taylor ignores the marks: every stone on the board is alive */
    s = count("tromp-taylor", dead9, 15, 0, 3, 5);
    assert_int_equal(s.side[GO_BLACK].dead, 0);
    assert_int_equal(s.side[GO_WHITE].stones, 10);
}

/* Ancient area counting: Black is one point ahead on the board (41 against 40) but has
 * three separate groups against White's one; the group tax (还棋头) turns the game. */
static const char *ancient9 = "\
..OX.....\n\
..OXXXXXX\n\
..OOOOOOO\n\
..OXXXXXX\n\
..OOX.X.X\n\
..OXXXXXX\n\
..OOOOOOO\n\
..OXXXXXX\n\
..OX.....\n";

static void test_ancient_group_tax(void **state)
{
    (void)state;
    go_score_t s = count("chinese", ancient9, 0, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].area2, 82);
    assert_int_equal(s.side[GO_WHITE].area2, 80);
    assert_string_equal(s.re, "B+1");

    s = count("ancient-area", ancient9, 0, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].groups, 3);
    assert_int_equal(s.side[GO_WHITE].groups, 1);
    assert_int_equal(s.side[GO_BLACK].tax2, 6);
    assert_int_equal(s.side[GO_WHITE].tax2, 2);
    assert_string_equal(s.re, "W+1");

    /* ancient territory counting (Tang/Song): territory + prisoners, no tax */
    s = count("ancient-territory", ancient9, 0, 0, 0, 0);
    assert_int_equal(s.side[GO_BLACK].territory, 12);
    assert_int_equal(s.side[GO_WHITE].territory, 18);
    assert_string_equal(s.re, "W+6");
}

static void test_half_text_and_errors(void **state)
{
    (void)state;
    char buf[16];
    go_board_t b;
    go_rules_t r = preset("chinese");
    go_score_params_t par;
    go_score_t s;
    go_score_half_text(15, buf, sizeof buf);
    assert_string_equal(buf, "7.5");
    go_score_half_text(-3, buf, sizeof buf);
    assert_string_equal(buf, "-1.5");
    go_score_half_text(0, buf, sizeof buf);
    assert_string_equal(buf, "0");
    /* stones in quarters, reduced, as people write them: never "2/4" */
    static const struct {
        int q;
        const char *want;
    } qs[] = { { 722, "180 1/2" }, { 737, "184 1/4" }, { 162, "40 1/2" }, { 15, "3 3/4" },
               { 2, "1/2" }, { 1, "1/4" }, { 8, "2" }, { 0, "0" }, { -3, "-3/4" },
               { -6, "-1 1/2" } };
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        go_score_quarters_text(qs[i].q, buf, sizeof buf);
        assert_string_equal(buf, qs[i].want);
    }
    memset(&par, 0, sizeof par);
    go_board_init(&b, 9);
    assert_int_equal(go_score_count(NULL, &r, &par, NULL, &s), GO_EINVAL);
    assert_int_equal(go_score_count(&b, NULL, &par, NULL, &s), GO_EINVAL);
    b.size = 40;
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_EINVAL);
    /* an empty board reaches nobody: a draw at komi 0 */
    go_board_init(&b, 9);
    assert_int_equal(go_score_count(&b, &r, &par, NULL, &s), GO_OK);
    assert_string_equal(s.re, "0");
}

/* Count text under rules. */
static go_score_t count_borders(const char *rules, const char *text)
{
    go_board_t b;
    uint8_t dead[GO_CELLS];
    go_rules_t r = preset(rules);
    go_score_params_t par;
    go_score_t s;
    memset(&par, 0, sizeof par);
    assert_int_equal(tb_load(&b, dead, text), 0);
    assert_int_equal(go_score_count(&b, &r, &par, dead, &s), GO_OK);
    return s;
}

/* An unfinished border: Black's wall on column 1, White's on column 7, five open columns
 * between (the middle one 3 points from both walls). Nothing is guessed: the 45 points
 * are nobody's, unsettled, and column 4 (as far from both walls) is the border to fill. */
static const char *open9 =
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n"
    ". X . . . . . O .\n";

/* A finished border: two columns of dame between the walls (every dame point next to a
 * stone): nothing unsettled, the count exact. */
static const char *closed9 =
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n"
    ". . X . . O . . .\n";

static void test_open_border_unsettled(void **state)
{
    (void)state;
    go_score_t s = count_borders("korean", open9);
    assert_int_equal(s.unsettled, 1);
    assert_int_equal(s.open_points, 45);
    assert_int_equal(s.fill_points, 9);
    assert_int_equal(s.side[GO_BLACK].territory, 9);
    assert_int_equal(s.side[GO_WHITE].territory, 9);
    assert_int_equal(s.point[GO_PT(2, 0)], GO_SP_OPEN);
    assert_int_equal(s.point[GO_PT(6, 8)], GO_SP_OPEN);
    for (int y = 0; y < 9; y++)
        assert_int_equal(s.point[GO_PT(4, y)], GO_SP_OPEN | GO_SP_FILL);
    assert_int_equal(GO_SP_OWNER(s.point[GO_PT(0, 0)]), GO_BLACK);   /* closed: exact */
    assert_false(s.point[GO_PT(0, 0)] & GO_SP_OPEN);
    assert_string_equal(s.re, "0");

    /* area rules: the open points are neutral (the chinese rules share dame between
     * live stones half each; an open border is no dame) */
    s = count_borders("chinese", open9);
    assert_int_equal(s.unsettled, 1);
    assert_int_equal(s.side[GO_BLACK].area2, 2 * (9 + 9));
    assert_int_equal(s.side[GO_WHITE].area2, 2 * (9 + 9));
    assert_int_equal(s.side[GO_BLACK].shared2, 0);
    /* Tromp-Taylor counts any position as it stands: nothing unsettled */
    s = count_borders("tromp-taylor", open9);
    assert_int_equal(s.unsettled, 0);
    assert_int_equal(s.open_points, 0);
}

static void test_closed_border_exact(void **state)
{
    (void)state;
    go_score_t b = count_borders("korean", closed9);
    assert_int_equal(b.unsettled, 0);
    assert_int_equal(b.open_points + b.fill_points, 0);
    assert_int_equal(b.side[GO_BLACK].territory, 18);
    assert_int_equal(b.side[GO_WHITE].territory, 27);
    assert_true(b.point[GO_PT(3, 4)] & GO_SP_DAME);
    /* every finished board of this file has no unsettled border */
    const char *boards[] = { dame5, ancient9, dead9, seki_no_eyes, seki_eyes };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        b = count_borders("japanese", boards[i]);
        assert_int_equal(b.unsettled, 0);
        for (int p = 0; p < GO_CELLS; p++)
            assert_false(b.point[p] & (GO_SP_OPEN | GO_SP_FILL));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_seki_without_eyes),
        cmocka_unit_test(test_seki_with_eyes),
        cmocka_unit_test(test_dame_every_preset),
        cmocka_unit_test(test_handicap),
        cmocka_unit_test(test_prisoners_and_dead),
        cmocka_unit_test(test_ancient_group_tax),
        cmocka_unit_test(test_half_text_and_errors),
        cmocka_unit_test(test_open_border_unsettled),
        cmocka_unit_test(test_closed_border_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
