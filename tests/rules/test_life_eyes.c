/* test_life_eyes.c: a group without an eye, enclosed by strong opponents, is dead
 * (go_eyes_dead); not when it has an eye, nor when an open border (a point next to no
 * stone) leaves it room to make one, nor when it is short of liberties (the reader's),
 * nor in a race against a group as weak as itself; a group whose only eye is small
 * (nakade) is dead as well; and the other way (go_eyes_alive): a
 * group proposed dead with two true eyes in few chains, or three, is alive. A whole
 * finished game (tygem game04) is counted as the rules and GNU Go count it. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_eyes.h"
#include "rules/go_life.h"
#include "rules/go_score.h"
#include "rules/go_session.h"
#include "score/boards.h"

/* Three white stones with eight liberties and no eye inside Black's walls; Black has
 * eyes everywhere (a1..j9 row 1 and row 7). */
static const char *eyeless = "\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.......X\n\
X..OOO..X\n\
X.......X\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n";

static int eyes_on(const char *text, int p)
{
    go_board_t b;
    uint8_t dead[GO_CELLS];
    memset(dead, 0, sizeof dead);
    assert_int_equal(tb_load(&b, NULL, text), 0);
    assert_true(go_eyes_dead(b.color, b.size, NULL, dead) >= 0);
    return dead[p];
}

static void test_eyeless_dead(void **state)
{
    (void)state;
    assert_int_equal(eyes_on(eyeless, GO_PT(3, 3)), 1);
    assert_int_equal(eyes_on(eyeless, GO_PT(5, 3)), 1);
    assert_int_equal(eyes_on(eyeless, GO_PT(0, 1)), 0);   /* Black's wall */
    /* White's only eye (d5) is false (Black's c4 and e4 on its diagonals): no eye */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
XX...XXXX\n\
X.OOO.XXX\n\
X.O.O.XXX\n\
XXXOX.XXX\n\
XXX.XXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n", GO_PT(3, 3)), 1);
    /* the proposal has them dead too, and nothing else */
    {
        go_board_t b;
        go_life_result_t *r = malloc(sizeof *r);
        assert_non_null(r);
        assert_int_equal(tb_load(&b, NULL, eyeless), 0);
        assert_int_equal(go_life_propose(&b, NULL, r), GO_OK);
        assert_int_equal(r->dead[GO_PT(4, 3)], 1);
        assert_int_equal(r->dead[GO_PT(4, 1)], 0);
        free(r);
    }
    {
        go_board_t b;
        uint8_t dead[GO_CELLS];
        assert_int_equal(tb_load(&b, NULL, eyeless), 0);
        assert_int_equal(go_eyes_dead(NULL, b.size, NULL, dead), GO_EINVAL);
        assert_int_equal(go_eyes_dead(b.color, 1, NULL, dead), GO_EINVAL);
    }
}

static void test_eyeless_not(void **state)
{
    (void)state;
    /* one eye of four points (d6..g6), more than GO_EYES_NAKADE: not judged here */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.OOOOOOX\n\
X.O....OX\n\
X.OOOOOOX\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(2, 2)), 0);
    /* an open border: the space is wide enough for a point next to no stone, and the
     * right side and the bottom (21 points) are nearer to the white stones than to
     * Black's: room to make an eye */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X........\n\
X........\n\
X.....OO.\n\
X........\n\
X........\n\
X........\n\
X........\n", GO_PT(7, 4)), GO_EYES_ROOM > 21);
    /* the same stones in a closed box: four points of room only, less than GO_EYES_ROOM:
     * dead */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.......X\n\
X.......X\n\
X.....OOX\n\
X.......X\n\
X.......X\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(7, 4)), GO_EYES_ROOM > 4);
    /* two liberties only: left to the reader */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
XX.OOO.XX\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(3, 3)), 0);
    /* a race: Black's ring has no eye either and no more liberties than the white
     * stones inside (ten each): neither side is judged */
    {
        const char *race = "\
OOOOOOOOO\n\
OXXXXXXXO\n\
OX.....XO\n\
OXOOOOOXO\n\
OX.....XO\n\
OXXXXXXXO\n\
OOOOOOOOO\n\
.........\n\
.........\n";
        assert_int_equal(eyes_on(race, GO_PT(3, 3)), 0);
        assert_int_equal(eyes_on(race, GO_PT(1, 1)), 0);
    }
}

/* A group whose only eye is small enough to be killed from inside (GO_EYES_NAKADE
 * points: one point, two, a straight or bent three), enclosed by strong opponents and
 * without room to make another, is dead like an eyeless one. */
static void test_nakade_dead(void **state)
{
    (void)state;
    /* a one-point eye (e6) in a ring of four chains */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X...O...X\n\
X..O.O..X\n\
X...O...X\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(4, 2)), 1);
    /* a straight three (d6..f6) */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.OOOOO.X\n\
X.O...O.X\n\
X.OOOOO.X\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(2, 2)), 1);
    /* a square four (d6, e6, d5, e5): the same (GO_EYES_NAKADE_BULKY) */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.OOOO..X\n\
X.O..O..X\n\
X.O..O..X\n\
X.OOOO..X\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(2, 2)), GO_EYES_NAKADE_BULKY);
    /* a bent three (d6, e6, e5): the same */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.OOOO..X\n\
X.O..O..X\n\
X.OO.O..X\n\
XXXOOO..X\n\
.XXXXXXXX\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(2, 2)), 1);
}

/* Eyes of the eyeless-group rule (go_eyes_dead) counted strictly: a single-point eye with
 * an empty diagonal point next to an opponent stone counts that point half an opponent's
 * (GO_EYES_HALF_DIAG); a one-eyed group needs GO_EYES_ROOM points of room in an open
 * border, as an eyeless one. */
static void test_strict_eyes(void **state)
{
    (void)state;
    /* d5: Black's e4 and the empty c6, c4 (next to Black's b6, b4) on its diagonals: a
     * false eye; f5 the one true eye, one point: a nakade, dead */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
XX.OOOOXX\n\
XXO.O.OXX\n\
XX.OXOOXX\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n", GO_PT(3, 3)), GO_EYES_HALF_DIAG);
    /* one eye (g5) and four points of room in the open border: not enough for a second
     * eye */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.......X\n\
X.....OOX\n\
X....O.OX\n\
X.....OOX\n\
X.......X\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(6, 3)), GO_EYES_ROOM > 4);
}

/* Black's wall (no eye, five liberties shared with White's top group, which has eyes)
 * against White's bottom group with one big eye (seven points, seven liberties: not
 * GO_EYES_AHEAD more than Black's): the big eye wins the race (GO_EYES_BIG_BEATS_SMALL),
 * Black is dead. */
static void test_big_eye_strong(void **state)
{
    const char *text = "\
OOOOOOOOO\n\
O.O.O.O.O\n\
OOOOOOOOO\n\
XX.....XX\n\
XXXXXXXXX\n\
XXXOOOXXX\n\
OOOO.OOOO\n\
O......OO\n\
OOOOOOOOO\n";
    (void)state;
    assert_int_equal(eyes_on(text, GO_PT(0, 3)), GO_EYES_BIG_BEATS_SMALL);
    assert_int_equal(eyes_on(text, GO_PT(4, 5)), 0);   /* White's big-eyed group */
}

/* An opponent square four (or single stone) inside an eyeless group (GO_EYES_INNER):
 * White's 2x2 in the corner shares its two liberties (a9, d9) with Black's group and touches nothing else;
 * Black has three liberties of its own (f9, f8, e7), more than the square's two, so it
 * captures and is left a square-four eye: Black's group, enclosed by White's two-eyed
 * group, is dead. The square itself (two liberties) is left to the reader. */
static void test_inner_square(void **state)
{
    const char *text = "\
.OO.X.O.O\n\
XOOXX.OOO\n\
XXXX..O..\n\
OOOOOOO..\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";
    (void)state;
    assert_int_equal(eyes_on(text, GO_PT(4, 0)), GO_EYES_INNER);
    assert_int_equal(eyes_on(text, GO_PT(0, 2)), GO_EYES_INNER);
    assert_int_equal(eyes_on(text, GO_PT(1, 0)), 0);   /* the square */
    assert_int_equal(eyes_on(text, GO_PT(5, 3)), 0);   /* White's wall */
    /* Black with two liberties of its own (f9, e7), no more than the square's: White
     * fills them down to a seki, no call here */
    assert_int_equal(eyes_on("\
.OO.X.O.O\n\
XOOXXOOOO\n\
XXXX.O...\n\
OOOOOO...\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(4, 0)), 0);
    /* a single white stone inside (a9's and c9's): capturing it leaves Black one eye */
    assert_int_equal(eyes_on("\
.O.XX.O.O\n\
XXXXX.OOO\n\
XXXX..O..\n\
OOOOOOO..\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(0, 1)), GO_EYES_INNER);
    /* a straight three inside instead: capturing it is no square four, no call here */
    assert_int_equal(eyes_on("\
.OOO.X.O.\n\
XXXXXXOOO\n\
.....XO..\n\
OOOOOOO..\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(0, 1)), 0);
}

/* A seki whose capture leaves a nakade (go_eyes_nakade_seki): Black's corner chain and
 * White's two stones inside share their two liberties (a1, b3) and nothing else; White
 * throws in at a1, Black captures three stones and White kills the straight three. */
static void test_nakade_seki(void **state)
{
    const char *corner = "\
.XO......\n\
OXXO.....\n\
O.XO.....\n\
XXXOOO...\n\
OXOO.....\n\
.O.......\n\
.........\n\
.........\n\
.........\n";
    go_board_t b;
    uint8_t dead[GO_CELLS];
    (void)state;
    memset(dead, 0, sizeof dead);
    assert_int_equal(tb_load(&b, NULL, corner), 0);
    assert_int_equal(go_eyes_nakade_seki(b.color, b.size, NULL, dead), 1);
    assert_int_equal(dead[GO_PT(1, 0)], 1);
    assert_int_equal(dead[GO_PT(1, 4)], 1);
    assert_int_equal(dead[GO_PT(0, 1)], 0);   /* White's inside stones */
    assert_int_equal(dead[GO_PT(3, 3)], 0);
    /* three white stones inside: the capture after the throw-in leaves Black a straight
     * four, two eyes: a true seki, left alone */
    memset(dead, 0, sizeof dead);
    assert_int_equal(tb_load(&b, NULL, "\
.XO......\n\
OXXO.....\n\
OXXO.....\n\
O.XO.....\n\
XXXOOO...\n\
OXOO.....\n\
.O.......\n\
.........\n\
.........\n"), 0);
    assert_int_equal(go_eyes_nakade_seki(b.color, b.size, NULL, dead), 0);
    assert_int_equal(dead[GO_PT(1, 0)], 0);
    /* Black with a third liberty outside (the wall broken at d5): left alone */
    memset(dead, 0, sizeof dead);
    assert_int_equal(tb_load(&b, NULL, "\
.XO......\n\
OXXO.....\n\
O.XO.....\n\
XXX.OO...\n\
OXOO.....\n\
.O.......\n\
.........\n\
.........\n\
.........\n"), 0);
    assert_int_equal(go_eyes_nakade_seki(b.color, b.size, NULL, dead), 0);
    assert_int_equal(go_eyes_nakade_seki(NULL, 9, NULL, dead), GO_EINVAL);
}

/* All the black stones of text marked dead, then go_eyes_alive: is the stone at p back? */
static int revived(const char *text, int p)
{
    go_board_t b;
    uint8_t dead[GO_CELLS];
    assert_int_equal(tb_load(&b, NULL, text), 0);
    for (int q = 0; q < GO_CELLS; q++)
        dead[q] = b.color[q] == GO_BLACK;
    assert_true(go_eyes_alive(b.color, b.size, dead) >= 0);
    return !dead[p];
}

static void test_two_eyes_alive(void **state)
{
    (void)state;
    /* one chain around two true eyes (a9, c9): alive */
    assert_int_equal(revived("\
.X.X.....\n\
XXXXO....\n\
OOOOO....\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(1, 0)), 1);
    /* two eyes held by five separate stones: cutting points everywhere, not revived */
    assert_int_equal(revived("\
X.X.X....\n\
.X.X.....\n\
OOOOOO...\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(2, 0)), 0);
    /* three eyes: some slack, revived */
    assert_int_equal(revived("\
X.X.X.X..\n\
.X.X.X...\n\
OOOOOOOO.\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(2, 0)), 1);
    /* b9 and d9 are false eyes (White's c8 on a diagonal, on the edge), f9 a true one:
     * one eye, not revived (counted as three, it would be) */
    assert_int_equal(revived("\
X.X.X.X..\n\
XXOXXXX..\n\
OOOOOOOO.\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n", GO_PT(4, 0)), 0);
    {
        uint8_t dead[GO_CELLS] = { 0 };
        assert_int_equal(go_eyes_alive(NULL, 9, dead), GO_EINVAL);
    }
}

/* The end of a real game (Tygem 2005-12-05, GN[79328748], the record bench's game04:
 * Korean rules, komi 6.5, Black captured 12 stones and White 9, White to move after
 * B D1). Lower case: the dead stones, the same seven chains GNU Go 3.8 lists
 * (final_status_list dead: Q13 H12 D8 C7 E7 R7-R5 O3), with no seki. Its count, by
 * hand, by GNU Go's final_score and by its played-out aftermath, is W+9.5: Black 56
 * territory + 12 captured + 3 dead = 71, White 59 + 9 + 6 + 6.5 = 80.5. The record says
 * W+5.5: what the count gives with H12 left on the board (one liberty, at G12, in
 * White's area), four points (G11, G12, H12 and its prisoner); no other single call
 * gives it. H12 is dead all the same: White's G12 takes it at any time, and Black's
 * G11 or G12 is answered by the capture, so the stone is not a reason to move the count
 * towards the record. */
static const char *game04_end =
    "..OOOOX....XOXX....\n"   /* 19 */
    "..OXOXX....XOOX....\n"
    "..OXXX...XXXOOXXX..\n"
    ".O.OOX...XOOO.OOX..\n"
    "..O.OX..XXXO.O.OOX.\n"   /* 15 */
    "..OOXXXXOXO.....OX.\n"
    "..OXX.OOOO.OOO.xOX.\n"
    "...O.O.xOOOXXOOOXXX\n"
    "OOOO.O.OO.O.XOXOXXX\n"
    "XOXXXXOOXXOOXXXXOOX\n"   /* 10 */
    "XX..XOOXX.XOX.XOOOX\n"
    ".X.o.XOOXX.XXXXXOOX\n"
    ".Xo.oXOXXOXX..XOxOO\n"
    "..X.XXOOOOOOX.XOxO.\n"
    "..XXXOO.OXXXXXOOxO.\n"   /* 5 */
    ".XOOOOXOOXXOOO.O...\n"
    ".XOXXOXXOXOOOx.O...\n"
    "X.XXOOOXXXOXO......\n"
    ".XXXXOOOXXXXO......\n";  /* 1 */

static void test_game_end_count(void **state)
{
    (void)state;
    go_board_t b;
    go_rules_t rules;
    go_score_params_t par;
    go_score_t *sc = malloc(sizeof *sc);
    uint8_t want[GO_CELLS];
    const int h12 = GO_PT(7, 7), g12 = GO_PT(6, 7), g11 = GO_PT(6, 8);
    go_session_t *s;
    int wrong = 0;
    assert_non_null(sc);
    assert_int_equal(tb_load(&b, want, game04_end), 0);
    assert_int_equal(go_rules_preset("korean", &rules), GO_OK);
    memset(&par, 0, sizeof par);
    par.komi2 = 13;
    par.captures[GO_BLACK] = 12;
    par.captures[GO_WHITE] = 9;
    s = go_session_create(&b, &rules, &par);
    assert_non_null(s);
    assert_int_equal(go_session_set_turn(s, GO_WHITE), GO_OK);
    assert_int_equal(go_session_propose(s, NULL), GO_OK);
    for (int p = 0; p < GO_CELLS; p++)
        wrong += (go_session_dead(s)[p] != 0) != (want[p] != 0);
    assert_int_equal(wrong, 0);
    assert_int_equal(go_session_score(s, sc), GO_OK);
    assert_string_equal(sc->re, "W+9.5");
    assert_int_equal(sc->side[GO_BLACK].territory, 56);
    assert_int_equal(sc->side[GO_WHITE].territory, 59);
    assert_int_equal(sc->side[GO_BLACK].dead, 3);
    assert_int_equal(sc->side[GO_WHITE].dead, 6);
    assert_int_equal(sc->nseki_groups, 0);
    assert_int_equal(GO_SP_OWNER(sc->point[g12]), GO_WHITE);
    assert_int_equal(GO_SP_OWNER(sc->point[g11]), GO_WHITE);
    assert_true(sc->point[h12] & GO_SP_DEAD);
    /* the record's count: H12 left alive; G11 and G12 become nobody's */
    want[h12] = 0;
    assert_int_equal(go_session_set_dead(s, want), GO_OK);
    assert_int_equal(go_session_score(s, sc), GO_OK);
    assert_string_equal(sc->re, "W+5.5");
    assert_int_equal(GO_SP_OWNER(sc->point[g12]), GO_EMPTY);
    go_session_destroy(s);
    free(sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eyeless_dead),
        cmocka_unit_test(test_eyeless_not),
        cmocka_unit_test(test_two_eyes_alive),
        cmocka_unit_test(test_nakade_dead),
        cmocka_unit_test(test_nakade_seki),
        cmocka_unit_test(test_strict_eyes),
        cmocka_unit_test(test_big_eye_strong),
        cmocka_unit_test(test_inner_square),
        cmocka_unit_test(test_game_end_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
