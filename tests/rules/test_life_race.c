/* test_life_race.c: a capturing race that ends in seki when the weaker chain moves first
 * and in its capture when the other does (go_semeai_classify): the game ended without
 * the capture, so the dead-stone proposal keeps both chains alive (the seki the players
 * left on the board, as GNU Go and the recorded results count it). And a race the count
 * decides but a weak third chain next to it makes untrusted: it is read on the board
 * (go_read_race) instead of dropped. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_life.h"
#include "rules/go_read.h"
#include "rules/go_semeai.h"
#include "rules/go_session.h"
#include "score/boards.h"

/* The black corner chain (two liberties, both shared) against the white chain around it
 * (the same two shared liberties and one outside liberty, at f7), inside Black's wall:
 * Black moving first fills f7 and it is seki; White moving first fills d9 or d8 and the
 * corner is captured. */
static const char *corner = "\
XXX.OOOX.\n\
OXX.OXXXX\n\
OOOOO.XX.\n\
XXXXXXXX.\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";

static void test_race_counts(void **state)
{
    (void)state;
    /* A = the corner: no outside liberty, B = the white chain: one, two shared */
    assert_int_equal(go_semeai_race(0, 1, 2, 0, 0, 1), 0);    /* A first: seki */
    assert_int_equal(go_semeai_race(0, 1, 2, 0, 0, 0), -1);   /* B first: A captured */
    /* with two outside liberties B captures A whoever moves first */
    assert_int_equal(go_semeai_race(0, 2, 2, 0, 0, 1), -1);
    assert_int_equal(go_semeai_race(0, 2, 2, 0, 0, 0), -1);
}

static void test_race_seki_mask(void **state)
{
    (void)state;
    go_board_t b;
    uint8_t col[GO_CELLS], dead[GO_CELLS], seki[GO_CELLS];
    assert_int_equal(tb_load(&b, NULL, corner), 0);
    memcpy(col, b.color, sizeof col);
    memset(dead, 0, sizeof dead);
    memset(seki, 0, sizeof seki);
    assert_true(go_semeai_classify(col, b.size, NULL, dead, seki) >= 0);
    assert_int_equal(seki[GO_PT(0, 0)], 1);   /* the black corner */
    assert_int_equal(seki[GO_PT(4, 0)], 1);   /* the white chain */
    assert_int_equal(seki[GO_PT(0, 2)], 1);
    assert_int_equal(seki[GO_PT(7, 0)], 0);   /* Black's wall is no part of it */
    assert_int_equal(dead[GO_PT(0, 0)], 0);
    assert_int_equal(dead[GO_PT(4, 0)], 0);
    /* no mask asked: the same call, nothing written there */
    memset(dead, 0, sizeof dead);
    assert_true(go_semeai_classify(col, b.size, NULL, dead, NULL) >= 0);
    assert_int_equal(go_semeai_classify(NULL, b.size, NULL, dead, seki), GO_EINVAL);

    /* one more outside liberty for White (Black's f8 taken off): the corner is lost
     * whoever moves first, no seki is marked */
    col[GO_PT(5, 1)] = GO_EMPTY;
    memset(dead, 0, sizeof dead);
    memset(seki, 0, sizeof seki);
    assert_true(go_semeai_classify(col, b.size, NULL, dead, seki) >= 0);
    assert_int_equal(seki[GO_PT(0, 0)], 0);
}

static void test_race_proposal(void **state)
{
    (void)state;
    go_board_t b;
    go_life_result_t *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_int_equal(tb_load(&b, NULL, corner), 0);
    assert_int_equal(go_life_propose(&b, NULL, r), GO_OK);
    assert_int_equal(r->dead[GO_PT(0, 0)], 0);   /* the corner lives in seki */
    assert_int_equal(r->dead[GO_PT(1, 1)], 0);
    assert_int_equal(r->dead[GO_PT(4, 0)], 0);   /* and so does the white chain */
    assert_int_equal(r->dead[GO_PT(0, 2)], 0);
    assert_int_equal(r->dead[GO_PT(7, 0)], 0);   /* Black's wall */
    free(r);
}

/* The black corner (a two-point eye, two liberties in the race) against the white chain
 * around it (four outside liberties: e9, e8, e7, c6): the corner loses whoever moves
 * first. The black a6-b6 pair next to the white chain has three liberties, fewer than
 * White's four: the count alone is not trusted (White might be short of liberties
 * against it). Read on the board, the corner is captured even moving first, and White,
 * moving first, is not: the corner is dead. The old rule dropped the race instead. */
static const char *weak_third = "\
..XO.X...\n\
XXXO.X...\n\
OOOO.X...\n\
XX.XXX...\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";

static void test_race_weak_third(void **state)
{
    (void)state;
    go_board_t b;
    uint8_t col[GO_CELLS], dead[GO_CELLS], seki[GO_CELLS];
    assert_int_equal(tb_load(&b, NULL, weak_third), 0);
    memcpy(col, b.color, sizeof col);
    /* the reading: the corner is captured moving first; the white chain and the weak
     * pair are not */
    assert_int_equal(go_read_race(col, b.size, GO_PT(2, 0), GO_PT(3, 0), 600, NULL), GO_READ_CAPTURED);
    assert_int_equal(go_read_race(col, b.size, GO_PT(3, 0), GO_PT(2, 0), 600, NULL), GO_READ_SAFE);
    assert_int_equal(go_read_race(col, b.size, GO_PT(0, 3), GO_PT(0, 2), 600, NULL), GO_READ_SAFE);
    memset(dead, 0, sizeof dead);
    memset(seki, 0, sizeof seki);
    assert_int_equal(go_semeai_classify(col, b.size, NULL, dead, seki), 1);
    assert_int_equal(dead[GO_PT(2, 0)], 1);   /* the corner */
    assert_int_equal(dead[GO_PT(0, 1)], 1);
    assert_int_equal(dead[GO_PT(3, 0)], 0);   /* the white chain */
    assert_int_equal(dead[GO_PT(0, 2)], 0);
    assert_int_equal(dead[GO_PT(0, 3)], 0);   /* the weak pair */
    assert_int_equal(dead[GO_PT(5, 0)], 0);   /* Black's wall */
    assert_int_equal(seki[GO_PT(2, 0)], 0);
}

/* The seki corner above read on the board: neither chain is captured when its owner moves
 * first (seki for the corner, the white chain fills the outside liberty and it is seki
 * again); bad arguments are refused. */
static void test_read_race_seki(void **state)
{
    (void)state;
    go_board_t b;
    uint8_t col[GO_CELLS];
    int nodes = -1;
    assert_int_equal(tb_load(&b, NULL, corner), 0);
    memcpy(col, b.color, sizeof col);
    assert_int_equal(go_read_race(col, b.size, GO_PT(0, 0), GO_PT(4, 0), 600, &nodes), GO_READ_SAFE);
    assert_true(nodes > 0 && nodes <= 600);
    assert_int_equal(go_read_race(col, b.size, GO_PT(4, 0), GO_PT(0, 0), 600, NULL), GO_READ_SAFE);
    /* no budget: nothing read, the answer is unknown, never a capture */
    assert_int_equal(go_read_race(col, b.size, GO_PT(0, 0), GO_PT(4, 0), 0, NULL), GO_READ_UNKNOWN);
    assert_int_equal(go_read_race(NULL, b.size, GO_PT(0, 0), GO_PT(4, 0), 600, NULL), GO_EINVAL);
    assert_int_equal(go_read_race(col, b.size, GO_PT(3, 0), GO_PT(4, 0), 600, NULL), GO_EINVAL);   /* empty */
    assert_int_equal(go_read_race(col, b.size, GO_PT(0, 0), GO_PT(1, 0), 600, NULL), GO_EINVAL);   /* same colour */
    assert_int_equal(go_read_race(col, b.size, GO_PT(0, 0), GO_PT(4, 0), -1, NULL), GO_EINVAL);
    assert_int_equal(go_read_race(col, 1, GO_PT(0, 0), GO_PT(4, 0), 600, NULL), GO_EINVAL);
}

/* A race each side wins moving first: the black chain c4-f4 (two outside liberties, b4
 * and g4) under White's wall against the white chain c5-f5 (two, b5 and g5) over Black's
 * wall, no shared liberty. Black moving first fills b5 and g5 before White fills b4 and
 * g4, and the other way round: whoever moves first captures. */
static const char *turn_race = "\
...................\n\
...................\n\
OOOOOOOO...........\n\
O.XXXX.O...........\n\
X.OOOO.X...........\n\
XXXXXXXX...........\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n\
...................\n";

/* Two chains in atari on the same liberty (f9): Black's e8-f8 and White's e9. Black
 * capturing at f9 is a snapback (White retakes three stones at e9), so the turn must
 * decide nothing here: a chain in atari, or one with a liberty next to a friendly chain
 * (e9's f9 touches g9), is left out of the turn's races (a tygem game, 2005-11 #1390,
 * had this shape). */
static const char *snapback = "\
.XXXO.O..\n\
.XOOXXO..\n\
.XOOOOO..\n\
.XXXXXX..\n\
.........\n\
.........\n\
.........\n\
.........\n\
.........\n";

static void test_race_turn(void **state)
{
    (void)state;
    go_board_t b;
    uint8_t col[GO_CELLS], dead[GO_CELLS], dead0[GO_CELLS], seki[GO_CELLS];
    const int a = GO_PT(2, 3), w = GO_PT(2, 4);   /* the black chain, the white chain */
    int nodes = -1;
    assert_int_equal(tb_load(&b, NULL, turn_race), 0);
    memcpy(col, b.color, sizeof col);
    /* the reading, both ways: the attacker moving first captures, the owner moving first
     * is not captured (go_read_race_first; owner_first 1 is go_read_race's question) */
    assert_int_equal(go_read_race_first(col, b.size, a, w, 0, 600, &nodes), GO_READ_CAPTURED);
    assert_true(nodes > 0 && nodes <= 600);
    assert_int_equal(go_read_race_first(col, b.size, w, a, 0, 600, NULL), GO_READ_CAPTURED);
    assert_int_equal(go_read_race_first(col, b.size, a, w, 1, 600, NULL), GO_READ_SAFE);
    assert_int_equal(go_read_race_first(col, b.size, w, a, 1, 600, NULL), GO_READ_SAFE);
    assert_int_equal(go_read_race_first(col, b.size, a, w, 0, 0, NULL), GO_READ_UNKNOWN);
    assert_int_equal(go_read_race_first(col, b.size, a, GO_PT(3, 3), 0, 600, NULL), GO_EINVAL);
    assert_int_equal(go_read_race_first(NULL, b.size, a, w, 0, 600, NULL), GO_EINVAL);

    /* the turn unknown: nothing called (as go_semeai_classify) */
    memset(dead, 0, sizeof dead);
    memset(seki, 0, sizeof seki);
    assert_int_equal(go_semeai_classify_turn(col, b.size, NULL, dead, seki, GO_EMPTY), 0);
    assert_int_equal(go_semeai_classify(col, b.size, NULL, dead, seki), 0);
    assert_int_equal(dead[a], 0);
    assert_int_equal(dead[w], 0);
    /* Black to move: the white chain is dead, and only it */
    assert_int_equal(go_semeai_classify_turn(col, b.size, NULL, dead, seki, GO_BLACK), 1);
    assert_int_equal(dead[w], 1);
    assert_int_equal(dead[GO_PT(5, 4)], 1);
    assert_int_equal(dead[a], 0);
    assert_int_equal(dead[GO_PT(0, 2)], 0);   /* the walls */
    assert_int_equal(dead[GO_PT(0, 5)], 0);
    /* White to move: the black chain */
    memset(dead, 0, sizeof dead);
    assert_int_equal(go_semeai_classify_turn(col, b.size, NULL, dead, seki, GO_WHITE), 1);
    assert_int_equal(dead[a], 1);
    assert_int_equal(dead[GO_PT(5, 3)], 1);
    assert_int_equal(dead[w], 0);

    /* two stones in atari on one liberty (a snapback): the turn marks nothing */
    assert_int_equal(tb_load(&b, NULL, snapback), 0);
    memcpy(col, b.color, sizeof col);
    memset(dead0, 0, sizeof dead0);
    memset(dead, 0, sizeof dead);
    memset(seki, 0, sizeof seki);
    assert_true(go_semeai_classify_turn(col, b.size, NULL, dead0, seki, GO_EMPTY) >= 0);
    memset(seki, 0, sizeof seki);
    assert_true(go_semeai_classify_turn(col, b.size, NULL, dead, seki, GO_BLACK) >= 0);
    assert_memory_equal(dead, dead0, sizeof dead);
    assert_int_equal(dead[GO_PT(4, 0)], 0);
}

/* The proposal with the side to move: with turn_races on, the race above goes to the side
 * to move; off (the default), or the turn unknown, to_move changes nothing. */
static void test_race_turn_proposal(void **state)
{
    (void)state;
    go_board_t b;
    go_life_result_t *r = malloc(sizeof *r), *r0 = malloc(sizeof *r0);
    go_life_options_t o = go_life_defaults();
    const int a = GO_PT(2, 3), w = GO_PT(2, 4);
    assert_non_null(r);
    assert_non_null(r0);
    assert_int_equal(tb_load(&b, NULL, turn_race), 0);
    assert_int_equal(o.to_move, GO_EMPTY);
    assert_int_equal(o.turn_races, 0);
    assert_int_equal(go_life_propose(&b, NULL, r0), GO_OK);
    assert_int_equal(r0->dead[a], 0);   /* the turn unknown: neither chain called */
    assert_int_equal(r0->dead[w], 0);
    /* the side to move given, the rule off: the same proposal */
    o.to_move = GO_BLACK;
    assert_int_equal(go_life_propose(&b, &o, r), GO_OK);
    assert_memory_equal(r->dead, r0->dead, sizeof r->dead);
    /* on, the turn unknown: the same proposal */
    o.turn_races = 1;
    o.to_move = GO_EMPTY;
    assert_int_equal(go_life_propose(&b, &o, r), GO_OK);
    assert_memory_equal(r->dead, r0->dead, sizeof r->dead);
    /* on, Black to move: White's chain is dead, Black's lives */
    o.to_move = GO_BLACK;
    assert_int_equal(go_life_propose(&b, &o, r), GO_OK);
    assert_int_equal(r->dead[w], 1);
    assert_int_equal(r->dead[GO_PT(5, 4)], 1);
    assert_int_equal(r->dead[a], 0);
    /* White to move: the other way round */
    o.to_move = GO_WHITE;
    assert_int_equal(go_life_propose(&b, &o, r), GO_OK);
    assert_int_equal(r->dead[a], 1);
    assert_int_equal(r->dead[w], 0);
    o.to_move = GO_OFF;
    assert_int_equal(go_life_propose(&b, &o, r), GO_EINVAL);
    free(r);
    free(r0);
}

/* The session keeps the side to move for its proposal; a bad colour is refused. */
static void test_session_turn(void **state)
{
    (void)state;
    go_board_t b;
    go_rules_t rules;
    go_score_params_t par;
    go_session_t *s;
    assert_int_equal(tb_load(&b, NULL, turn_race), 0);
    assert_int_equal(go_rules_preset("korean", &rules), GO_OK);
    memset(&par, 0, sizeof par);
    s = go_session_create(&b, &rules, &par);
    assert_non_null(s);
    assert_int_equal(go_session_set_turn(s, GO_OFF), GO_EINVAL);
    assert_int_equal(go_session_set_turn(NULL, GO_BLACK), GO_EINVAL);
    assert_int_equal(go_session_set_turn(s, GO_BLACK), GO_OK);
    assert_int_equal(go_session_propose(s, NULL), GO_OK);
    /* the rule is off by default: the turn alone calls neither chain */
    assert_int_equal(go_session_dead(s)[GO_PT(2, 3)] && go_session_dead(s)[GO_PT(2, 4)], 0);
    go_session_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_counts),
        cmocka_unit_test(test_race_seki_mask),
        cmocka_unit_test(test_race_proposal),
        cmocka_unit_test(test_race_weak_third),
        cmocka_unit_test(test_read_race_seki),
        cmocka_unit_test(test_race_turn),
        cmocka_unit_test(test_race_turn_proposal),
        cmocka_unit_test(test_session_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
