/* test_life_race.c: a capturing race that ends in seki when the weaker chain moves first
 * and in its capture when the other does (go_semeai_classify): the game ended without
 * the capture, so the dead-stone proposal keeps both chains alive (the seki the players
 * left on the board, as GNU Go and the recorded results count it). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_life.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_counts),
        cmocka_unit_test(test_race_seki_mask),
        cmocka_unit_test(test_race_proposal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
