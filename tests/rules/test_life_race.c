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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_counts),
        cmocka_unit_test(test_race_seki_mask),
        cmocka_unit_test(test_race_proposal),
        cmocka_unit_test(test_race_weak_third),
        cmocka_unit_test(test_read_race_seki),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
