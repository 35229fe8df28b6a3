/* test_board.c: the board alone, from ASCII diagrams — captures (single, several chains
 * at once, edge, corner), exact liberty counts on merges and captures, suicide (single
 * never, multi-stone per flag), simple ko, hash, text and SGF points. go_board_check runs
 * after every move (rt_bplay). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/rules_testutil.h"

static void test_capture_single(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, ".....\n"
                 "..X..\n"
                 ".XO..\n"
                 "..X..\n"
                 ".....\n");
    assert_int_equal(go_board_libs(&b, P(2, 2)), 1);
    go_place_info_t info;
    assert_int_equal(go_board_play(&b, GO_BLACK, P(3, 2), &info), GO_OK);
    assert_int_equal(go_board_check(&b), GO_OK);
    assert_int_equal(info.ncaptured, 1);
    assert_int_equal(info.captured[0], P(2, 2));
    assert_false(info.suicide);
    rt_assert_board(&b, ".....\n"
                        "..X..\n"
                        ".X.X.\n"
                        "..X..\n"
                        ".....\n");
    assert_int_equal(b.prisoners[GO_BLACK], 1);
    assert_int_equal(b.prisoners[GO_WHITE], 0);
    assert_int_equal(b.ko, 0); /* the capturing stone has three liberties: no ko */
    assert_int_equal(go_board_libs(&b, P(3, 2)), 4);
    rt_assert_libs(&b);
}

static void test_capture_several_chains(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, ".XOX.\n"
                 "XO.OX\n"
                 ".XOX.\n"
                 "..O..\n"
                 ".....\n");
    /* three white chains in atari on (2,1); the fourth, (2,2)-(2,3), has two liberties */
    assert_int_equal(go_board_libs(&b, P(2, 2)), 4);
    go_place_info_t info;
    assert_int_equal(go_board_play(&b, GO_BLACK, P(2, 1), &info), GO_OK);
    assert_int_equal(go_board_check(&b), GO_OK);
    assert_int_equal(info.ncaptured, 3);
    rt_assert_board(&b, ".X.X.\n"
                        "X.X.X\n"
                        ".XOX.\n"
                        "..O..\n"
                        ".....\n");
    assert_int_equal(b.prisoners[GO_BLACK], 3);
    assert_int_equal(go_board_libs(&b, P(2, 1)), 3);
    assert_int_equal(go_board_libs(&b, P(2, 2)), 3);
    assert_int_equal(b.ko, 0);
    rt_assert_libs(&b);
}

static void test_capture_edge_and_corner(void **state)
{
    (void)state;
    go_board_t b;
    /* edge: one stone on the top edge; corner: two stones in the corner */
    rt_board(&b, ".XOX.\n"
                 ".....\n"
                 ".....\n"
                 "X....\n"
                 "OOX..\n");
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(2, 1)), GO_OK);
    assert_int_equal(b.prisoners[GO_BLACK], 1);
    assert_int_equal(go_board_libs(&b, P(0, 4)), 1);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(1, 3)), GO_OK);
    assert_int_equal(b.prisoners[GO_BLACK], 3);
    rt_assert_board(&b, ".X.X.\n"
                        "..X..\n"
                        ".....\n"
                        "XX...\n"
                        "..X..\n");
    /* a lone corner stone */
    rt_board(&b, "OX...\n"
                 ".....\n"
                 ".....\n"
                 ".....\n"
                 ".....\n");
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(0, 1)), GO_OK);
    assert_int_equal(b.color[P(0, 0)], GO_EMPTY);
    assert_int_equal(go_board_libs(&b, P(1, 0)), 3);
    assert_int_equal(go_board_libs(&b, P(0, 1)), 3);
    rt_assert_libs(&b);
}

static void test_liberties_on_merge(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, ".....\n"
                 ".X.X.\n"
                 ".....\n"
                 ".X...\n"
                 ".....\n");
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(2, 1)), GO_OK);
    assert_int_equal(go_board_libs(&b, P(1, 1)), 8);
    assert_int_equal(b.stones[b.chain[P(3, 1)]], 3);
    /* (1,2) joins the chain and (1,3): shared liberties count once */
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(1, 2)), GO_OK);
    assert_int_equal(go_board_libs(&b, P(1, 3)), 11);
    assert_int_equal(b.stones[b.chain[P(1, 3)]], 5);
    /* an enemy stone next to two stones of the chain takes one liberty */
    assert_int_equal(rt_bplay(&b, GO_WHITE, P(2, 2)), GO_OK);
    assert_int_equal(go_board_libs(&b, P(1, 3)), 10);
    assert_int_equal(go_board_libs(&b, P(2, 2)), 2);
    rt_assert_libs(&b);
}

static void test_liberties_after_capture(void **state)
{
    (void)state;
    go_board_t b;
    /* the captured stone touches two stones of one black chain: one liberty, not two */
    rt_board(&b, "XX...\n"
                 "XO...\n"
                 ".X...\n"
                 ".....\n"
                 ".....\n");
    assert_int_equal(go_board_libs(&b, P(0, 0)), 2);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(2, 1)), GO_OK);
    assert_int_equal(b.color[P(1, 1)], GO_EMPTY);
    assert_int_equal(go_board_libs(&b, P(0, 0)), 3);
    assert_int_equal(go_board_libs(&b, P(1, 2)), 4);
    assert_int_equal(go_board_libs(&b, P(2, 1)), 4);
    rt_assert_libs(&b);
}

static void test_suicide_single(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, ".O...\n"
                 "O....\n"
                 ".....\n"
                 ".....\n"
                 ".....\n");
    go_board_t before = b;
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(0, 0), false), GO_ESUICIDE);
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(0, 0), true), GO_ESUICIDE);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(0, 0)), GO_ESUICIDE);
    assert_memory_equal(&b, &before, sizeof b);
    /* not suicide when it captures (the corner stone only: (0,1) keeps a liberty) */
    rt_board(&b, ".OX..\n"
                 "OX...\n"
                 ".....\n"
                 ".....\n"
                 ".....\n");
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(0, 0), false), GO_OK);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(0, 0)), GO_OK);
    assert_int_equal(b.prisoners[GO_BLACK], 1);
    /* that was a ko capture: White may not take back at once */
    assert_int_equal(b.ko, P(1, 0));
    assert_int_equal(go_board_legal(&b, GO_WHITE, P(1, 0), false), GO_EKO);
}

static void test_suicide_multi(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, "XO...\n"
                 ".O...\n"
                 "O....\n"
                 ".....\n"
                 ".....\n");
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(0, 1), false), GO_ESUICIDE);
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(0, 1), true), GO_OK);
    go_place_info_t info;
    assert_int_equal(go_board_play(&b, GO_BLACK, P(0, 1), &info), GO_OK);
    assert_int_equal(go_board_check(&b), GO_OK);
    assert_true(info.suicide);
    assert_int_equal(info.ncaptured, 2);
    rt_assert_board(&b, ".O...\n"
                        ".O...\n"
                        "O....\n"
                        ".....\n"
                        ".....\n");
    assert_int_equal(b.prisoners[GO_WHITE], 2);
    assert_int_equal(b.prisoners[GO_BLACK], 0);
    assert_int_equal(go_board_libs(&b, P(1, 0)), 5);
    assert_int_equal(go_board_libs(&b, P(0, 2)), 3);
    rt_assert_libs(&b);
}

static void test_simple_ko(void **state)
{
    (void)state;
    go_board_t b;
    rt_board(&b, ".XO..\n"
                 "XO.O.\n"
                 ".XO..\n"
                 ".....\n"
                 ".....\n");
    uint64_t h0 = b.hash;
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(2, 1)), GO_OK);
    assert_int_equal(b.ko, P(1, 1));
    assert_int_equal(go_board_legal(&b, GO_WHITE, P(1, 1), false), GO_EKO);
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(1, 1), false), GO_OK); /* filling it */
    assert_int_equal(go_board_libs(&b, P(2, 1)), 1);
    /* a move elsewhere clears the ko; the recapture is then legal and sets its own ko */
    assert_int_equal(rt_bplay(&b, GO_WHITE, P(4, 4)), GO_OK);
    assert_int_equal(b.ko, 0);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(3, 4)), GO_OK);
    assert_int_equal(go_board_legal(&b, GO_WHITE, P(1, 1), false), GO_OK);
    assert_int_equal(rt_bplay(&b, GO_WHITE, P(1, 1)), GO_OK);
    assert_int_equal(b.ko, P(2, 1));
    assert_int_equal(go_board_legal(&b, GO_BLACK, P(2, 1), false), GO_EKO);
    /* the hash agrees with the stones: back to the start plus the two outside stones */
    assert_true(b.hash == (h0 ^ go_zobrist(GO_WHITE, P(4, 4)) ^ go_zobrist(GO_BLACK, P(3, 4))));
}

static void test_hash(void **state)
{
    (void)state;
    go_board_t a, b;
    assert_int_equal(go_board_init(&a, 9), GO_OK);
    assert_true(a.hash == 0);
    assert_true(go_zobrist(GO_BLACK, P(3, 3)) != go_zobrist(GO_WHITE, P(3, 3)));
    assert_true(go_zobrist(GO_BLACK, P(3, 3)) != 0);
    assert_true(go_zobrist(GO_EMPTY, P(3, 3)) == 0);
    assert_int_equal(rt_bplay(&a, GO_BLACK, P(3, 3)), GO_OK);
    assert_int_equal(rt_bplay(&a, GO_WHITE, P(4, 4)), GO_OK);
    rt_board(&b, ".........\n.........\n.........\n...X.....\n....O....\n"
                 ".........\n.........\n.........\n.........\n");
    assert_true(a.hash == b.hash);
    /* set and remove a stone: the hash comes back */
    assert_int_equal(go_board_set(&b, P(0, 0), GO_WHITE), GO_OK);
    assert_true(a.hash != b.hash);
    assert_int_equal(go_board_set(&b, P(0, 0), GO_EMPTY), GO_OK);
    assert_true(a.hash == b.hash);
    assert_int_equal(go_board_check(&b), GO_OK);
}

static void test_set_and_check(void **state)
{
    (void)state;
    go_board_t b;
    assert_int_equal(go_board_init(&b, 5), GO_OK);
    assert_int_equal(go_board_set(&b, P(1, 1), GO_BLACK), GO_OK);
    assert_int_equal(go_board_set(&b, P(2, 1), GO_BLACK), GO_OK);
    assert_int_equal(go_board_libs(&b, P(1, 1)), 6);
    assert_int_equal(go_board_set(&b, P(5, 1), GO_BLACK), GO_EINVAL);
    assert_int_equal(go_board_set(&b, P(1, 1), GO_OFF), GO_EINVAL);
    assert_int_equal(go_board_check(&b), GO_OK);
    /* corrupt copies are caught */
    go_board_t c = b;
    c.libs[c.chain[P(1, 1)]]++;
    assert_int_equal(go_board_check(&c), GO_EINVAL);
    c = b;
    c.hash ^= 1;
    assert_int_equal(go_board_check(&c), GO_EINVAL);
    c = b;
    c.color[P(3, 3)] = GO_WHITE; /* a stone without a chain */
    assert_int_equal(go_board_check(&c), GO_EINVAL);
    c = b;
    c.stones[c.chain[P(1, 1)]] = 1;
    assert_int_equal(go_board_check(&c), GO_EINVAL);
    c = b;
    c.color[P(5, 0)] = GO_EMPTY; /* the border is off-board */
    assert_int_equal(go_board_check(&c), GO_EINVAL);
    assert_int_equal(go_board_init(&b, 1), GO_EINVAL);
    assert_int_equal(go_board_init(&b, 26), GO_EINVAL);
    assert_int_equal(go_board_init(&b, 25), GO_OK);
    assert_int_equal(go_board_check(&b), GO_OK);
    assert_int_equal(go_board_init(&b, 2), GO_OK);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(0, 0)), GO_OK);
    assert_int_equal(rt_bplay(&b, GO_WHITE, P(1, 1)), GO_OK);
    assert_int_equal(rt_bplay(&b, GO_BLACK, P(1, 0)), GO_OK);
    assert_int_equal(b.prisoners[GO_BLACK], 0);
    assert_int_equal(rt_bplay(&b, GO_WHITE, P(0, 1)), GO_OK); /* captures both */
    assert_int_equal(b.prisoners[GO_WHITE], 2);
}

static void test_ascii(void **state)
{
    (void)state;
    go_board_t b;
    assert_int_equal(go_board_from_ascii(&b, " . X + \n O . . \n . . X \n"), GO_OK);
    assert_int_equal(b.size, 3);
    char buf[13];
    assert_int_equal(go_board_to_ascii(&b, buf, sizeof buf), GO_OK);
    assert_string_equal(buf, ".X.\nO..\n..X\n");
    assert_int_equal(go_board_to_ascii(&b, buf, 12), GO_EINVAL);
    assert_int_equal(go_board_from_ascii(&b, "..\n...\n"), GO_EPARSE);
    assert_int_equal(go_board_from_ascii(&b, "...\n...\n"), GO_EPARSE);
    assert_int_equal(go_board_from_ascii(&b, "..\n.Z\n"), GO_EPARSE);
    assert_int_equal(go_board_from_ascii(&b, "."), GO_EPARSE);
    assert_int_equal(go_board_from_ascii(&b, ""), GO_EPARSE);
    assert_int_equal(b.size, 3); /* untouched on error */
}

static void test_sgf_points(void **state)
{
    (void)state;
    assert_int_equal(go_point_from_sgf(19, "aa", 2), P(0, 0));
    assert_int_equal(go_point_from_sgf(19, "pd", 2), P(15, 3));
    assert_int_equal(go_point_from_sgf(19, "ss", 2), P(18, 18));
    assert_int_equal(go_point_from_sgf(19, "tt", 2), GO_PASS);
    assert_int_equal(go_point_from_sgf(9, "tt", 2), GO_PASS);
    assert_int_equal(go_point_from_sgf(21, "tt", 2), P(19, 19));
    assert_int_equal(go_point_from_sgf(19, "", 0), GO_PASS);
    assert_int_equal(go_point_from_sgf(19, "ta", 2), GO_EINVAL);
    assert_int_equal(go_point_from_sgf(9, "ja", 2), GO_EINVAL);
    assert_int_equal(go_point_from_sgf(19, "a", 1), GO_EINVAL);
    assert_int_equal(go_point_from_sgf(19, "aaa", 3), GO_EINVAL);
    assert_int_equal(go_point_from_sgf(19, "A1", 2), GO_EINVAL);
    assert_int_equal(go_point_from_sgf(25, "yy", 2), P(24, 24));
    char out[3];
    go_point_to_sgf(P(15, 3), out);
    assert_string_equal(out, "pd");
    go_point_to_sgf(GO_PASS, out);
    assert_string_equal(out, "");
    go_point_to_sgf(P(24, 0), out);
    assert_string_equal(out, "ya");
}

static void test_strerror(void **state)
{
    (void)state;
    for (int c = 0; c >= -11; c--)
        assert_non_null(go_strerror(c));
    assert_string_equal(go_strerror(GO_ESUPERKO), "repeats an earlier position (superko)");
    assert_string_equal(go_strerror(-999), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_single),
        cmocka_unit_test(test_capture_several_chains),
        cmocka_unit_test(test_capture_edge_and_corner),
        cmocka_unit_test(test_liberties_on_merge),
        cmocka_unit_test(test_liberties_after_capture),
        cmocka_unit_test(test_suicide_single),
        cmocka_unit_test(test_suicide_multi),
        cmocka_unit_test(test_simple_ko),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_set_and_check),
        cmocka_unit_test(test_ascii),
        cmocka_unit_test(test_sgf_points),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
