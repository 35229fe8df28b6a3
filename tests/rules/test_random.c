/* test_random.c: thousands of random legal moves on 9x9 and 19x19 under several rule
 * sets; after every move the incremental liberties are compared with a from-scratch
 * recount, both consistency checkers run, and undo is checked to restore the position,
 * hash, prisoners and ko exactly. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>

#include "rules/rules_testutil.h"

static uint64_t rt_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Play random legal moves; returns the number of stones placed. */
static int rt_random_game(int size, const char *rules, uint64_t seed, int max_moves)
{
    go_rules_t r;
    assert_int_equal(go_rules_preset(rules, &r), GO_OK);
    go_game_t *g = go_game_create(size, &r);
    assert_non_null(g);
    uint64_t s = seed;
    int placed = 0;
    for (int m = 0; m < max_moves && !go_game_over(g); m++) {
        go_color_t c = go_game_turn(g);
        int p = GO_PASS;
        for (int t = 0; t < 40; t++) {
            int q = GO_PT((int)(rt_rng(&s) % (uint64_t)size), (int)(rt_rng(&s) % (uint64_t)size));
            if (go_game_legal(g, c, q) == GO_OK) {
                p = q;
                break;
            }
        }
        go_board_t before = *go_game_board(g);
        if (p == GO_PASS) {
            assert_int_equal(rt_pass(g, c), GO_OK);
        } else {
            assert_int_equal(rt_play(g, c, p), GO_OK);
            placed++;
        }
        rt_assert_libs(go_game_board(g));
        /* now and then: undo must restore the position exactly, then replay */
        if (rt_rng(&s) % 8 == 0) {
            assert_int_equal(rt_undo(g), GO_OK);
            const go_board_t *b = go_game_board(g);
            assert_memory_equal(b->color, before.color, sizeof before.color);
            assert_true(b->hash == before.hash);
            assert_int_equal(b->ko, before.ko);
            assert_int_equal(b->prisoners[GO_BLACK], before.prisoners[GO_BLACK]);
            assert_int_equal(b->prisoners[GO_WHITE], before.prisoners[GO_WHITE]);
            assert_int_equal(go_game_turn(g), c);
            assert_int_equal(p == GO_PASS ? rt_pass(g, c) : rt_play(g, c, p), GO_OK);
        }
    }
    go_game_destroy(g);
    return placed;
}

static void test_random_9x9(void **state)
{
    (void)state;
    static const char *const rules[] = { "chinese", "japanese", "aga", "tromp-taylor", "nz" };
    int total = 0;
    for (int i = 0; i < 25; i++)
        total += rt_random_game(9, rules[i % 5], 1000 + (uint64_t)i, 300);
    assert_true(total > 2000);
}

static void test_random_19x19(void **state)
{
    (void)state;
    static const char *const rules[] = { "chinese", "korean", "ing", "tromp-taylor" };
    int total = 0;
    for (int i = 0; i < 4; i++)
        total += rt_random_game(19, rules[i], 77 + (uint64_t)i, 700);
    assert_true(total > 2000);
}

/* The smallest and largest boards, and the sizes in between that nobody plays. */
static void test_random_other_sizes(void **state)
{
    (void)state;
    static const int sizes[] = { 2, 3, 4, 5, 7, 13, 25 };
    int total = 0;
    for (int i = 0; i < 7; i++)
        total += rt_random_game(sizes[i], i % 2 ? "tromp-taylor" : "chinese", 31 + (uint64_t)i,
                                sizes[i] < 7 ? 60 : 400);
    assert_true(total > 500);
}

/* Board level only: random placements including multi-stone suicides. */
static void test_random_board_suicide(void **state)
{
    (void)state;
    uint64_t s = 4242;
    for (int game = 0; game < 20; game++) {
        go_board_t b;
        assert_int_equal(go_board_init(&b, 7), GO_OK);
        for (int m = 0; m < 200; m++) {
            go_color_t c = (m & 1) ? GO_WHITE : GO_BLACK;
            int p = GO_PT((int)(rt_rng(&s) % 7), (int)(rt_rng(&s) % 7));
            int legal = go_board_legal(&b, c, p, true);
            int rc = rt_bplay(&b, c, p);
            if (legal == GO_OK)
                assert_int_equal(rc, GO_OK);
            rt_assert_libs(&b);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_9x9),
        cmocka_unit_test(test_random_19x19),
        cmocka_unit_test(test_random_other_sizes),
        cmocka_unit_test(test_random_board_suicide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
