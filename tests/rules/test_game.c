/* test_game.c: games under the presets — turn, passes, game over, resignation, ko under
 * each ko rule, positional and situational superko (sending two returning one, triple
 * ko), multi-stone suicide per rules, handicap placement for every size and count, zuozi,
 * undo (position, hash, prisoners, ko), tolerant play, setup, rule presets and RU[]
 * names. go_game_check runs after every move (rt_play, rt_pass, rt_undo). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/go_stars.h"
#include "rules/rules_testutil.h"

static int S(int size, const char *s)
{
    return go_point_from_sgf(size, s, 2);
}

/* ---- turn, pass, resign, game over ---- */

static void test_turn_and_over(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    assert_string_equal(go_game_rules(g)->name, "chinese");
    assert_int_equal(go_game_turn(g), GO_BLACK);
    assert_int_equal(rt_play(g, GO_WHITE, S(9, "ee")), GO_ETURN);
    assert_int_equal(go_game_move_count(g), 0);
    assert_int_equal(rt_play(g, GO_BLACK, S(9, "ee")), GO_OK);
    assert_int_equal(rt_play(g, GO_WHITE, S(9, "ee")), GO_EOCCUPIED);
    assert_int_equal(rt_play(g, GO_WHITE, GO_PT(9, 0)), GO_EINVAL);
    assert_int_equal(rt_play(g, GO_EMPTY, S(9, "aa")), GO_EINVAL);
    assert_int_equal(rt_pass(g, GO_BLACK), GO_ETURN);
    assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
    assert_int_equal(go_game_consecutive_passes(g), 1);
    assert_false(go_game_over(g));
    assert_int_equal(rt_play(g, GO_BLACK, GO_PASS), GO_OK); /* play at GO_PASS is a pass */
    assert_true(go_game_over(g));
    assert_int_equal(rt_play(g, GO_WHITE, S(9, "aa")), GO_EOVER);
    assert_int_equal(rt_pass(g, GO_WHITE), GO_EOVER);
    assert_int_equal(go_game_resign(g, GO_WHITE), GO_EOVER);
    assert_int_equal(go_game_move_count(g), 3);
    assert_int_equal(go_game_move(g, 1)->kind, GO_MOVE_PASS);
    assert_int_equal(go_game_move(g, 0)->point, S(9, "ee"));
    assert_null(go_game_move(g, 3));
    assert_null(go_game_move(g, -1));
    /* undo the last pass: the game goes on */
    assert_int_equal(rt_undo(g), GO_OK);
    assert_false(go_game_over(g));
    assert_int_equal(go_game_turn(g), GO_BLACK);
    assert_int_equal(rt_play(g, GO_BLACK, S(9, "cc")), GO_OK);
    assert_int_equal(go_game_consecutive_passes(g), 0);
    assert_int_equal(go_game_resign(g, GO_WHITE), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    assert_true(go_game_over(g));
    assert_int_equal(go_game_resigned(g), GO_WHITE);
    assert_int_equal(rt_play(g, GO_WHITE, S(9, "aa")), GO_EOVER);
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(go_game_resigned(g), GO_EMPTY);
    assert_int_equal(rt_play(g, GO_WHITE, S(9, "aa")), GO_OK);
    assert_int_equal(go_game_history_len(g), go_game_move_count(g) + 1);
    go_game_destroy(g);
    go_game_destroy(NULL);
    assert_null(go_game_create(1, NULL));
    assert_null(go_game_create(26, NULL));
}

/* ---- ko ---- */

static const char *const KO = ".XO..\n"
                              "XO.O.\n"
                              ".XO..\n"
                              ".....\n"
                              ".....\n";

static void test_simple_ko_all_rules(void **state)
{
    (void)state;
    for (int i = 0; go_rules_names[i]; i++) {
        go_game_t *g = rt_game(go_rules_names[i], KO, GO_BLACK);
        assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_OK);
        assert_int_equal(go_game_move(g, 0)->ncaptured, 1);
        /* the immediate recapture is GO_EKO under every ko rule */
        assert_int_equal(go_game_legal(g, GO_WHITE, P(1, 1)), GO_EKO);
        assert_int_equal(rt_play(g, GO_WHITE, P(1, 1)), GO_EKO);
        /* ko threat and answer, then the recapture is legal everywhere */
        assert_int_equal(rt_play(g, GO_WHITE, P(4, 4)), GO_OK);
        assert_int_equal(rt_play(g, GO_BLACK, P(4, 3)), GO_OK);
        assert_int_equal(rt_play(g, GO_WHITE, P(1, 1)), GO_OK);
        assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_EKO);
        go_game_destroy(g);
    }
}

static void test_ko_pass_clears(void **state)
{
    (void)state;
    /* a pass clears the board's ko; undoing the pass brings it back */
    static const char *const rules[3] = { "japanese", "chinese", "aga" };
    for (int i = 0; i < 3; i++) {
        go_game_t *g = rt_game(rules[i], KO, GO_WHITE);
        assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
        assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_OK);
        assert_int_equal(go_game_board(g)->ko, P(1, 1));
        assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
        assert_int_equal(go_game_board(g)->ko, 0);
        assert_int_equal(rt_pass(g, GO_BLACK), GO_OK);
        assert_true(go_game_over(g));
        assert_int_equal(rt_undo(g), GO_OK);
        assert_int_equal(rt_undo(g), GO_OK);
        assert_int_equal(go_game_board(g)->ko, P(1, 1));
        assert_int_equal(go_game_turn(g), GO_WHITE);
        assert_int_equal(rt_play(g, GO_WHITE, P(1, 1)), GO_EKO);
        go_game_destroy(g);
    }
}

/* Sending two, returning one: Black throws in at the corner, White takes two, Black
 * takes one back and the first position returns (now with White to move). */
static const char *const SEND2 = ".X.X.\n"
                                 "OOX..\n"
                                 ".....\n"
                                 ".....\n"
                                 ".....\n";

static void test_sending_two_returning_one(void **state)
{
    (void)state;
    struct {
        const char *rules;
        int want;
    } cases[] = { { "chinese", GO_ESUPERKO }, { "tromp-taylor", GO_ESUPERKO },
                  { "aga", GO_OK }, { "nz", GO_OK }, { "ing", GO_OK },
                  { "japanese", GO_OK }, { "korean", GO_OK } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go_game_t *g = rt_game(cases[i].rules, SEND2, GO_BLACK);
        uint64_t h0 = go_game_board(g)->hash;
        assert_int_equal(rt_play(g, GO_BLACK, P(0, 0)), GO_OK);
        assert_int_equal(rt_play(g, GO_WHITE, P(2, 0)), GO_OK);
        assert_int_equal(go_game_move(g, 1)->ncaptured, 2);
        assert_int_equal(go_game_legal(g, GO_BLACK, P(1, 0)), cases[i].want);
        assert_int_equal(rt_play(g, GO_BLACK, P(1, 0)), cases[i].want);
        if (cases[i].want == GO_OK) {
            assert_true(go_game_board(g)->hash == h0);
            rt_assert_board(go_game_board(g), SEND2);
        } else {
            assert_int_equal(go_game_move_count(g), 2);
        }
        go_game_destroy(g);
    }
}

/* Three kos: K1 white holds, K2 black holds, K3 white holds; Black to move. */
static const char *const TRIPLE = ".XO......\n"
                                  "XO.O.....\n"
                                  ".XO......\n"
                                  ".XO......\n"
                                  "X.XO.....\n"
                                  ".XO......\n"
                                  ".XO......\n"
                                  "XO.O.....\n"
                                  ".XO......\n";

static void test_triple_ko(void **state)
{
    (void)state;
    static const int cycle[6][3] = {
        { GO_BLACK, 2, 1 }, { GO_WHITE, 1, 4 }, { GO_BLACK, 2, 7 },
        { GO_WHITE, 1, 1 }, { GO_BLACK, 2, 4 }, { GO_WHITE, 1, 7 },
    };
    struct {
        const char *rules;
        int want;
    } cases[] = { { "japanese", GO_OK }, { "korean", GO_OK }, { "ancient-territory", GO_OK },
                  { "chinese", GO_ESUPERKO }, { "aga", GO_ESUPERKO }, { "ing", GO_ESUPERKO },
                  { "ancient-area", GO_ESUPERKO } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go_game_t *g = rt_game(cases[i].rules, TRIPLE, GO_BLACK);
        uint64_t h0 = go_game_board(g)->hash;
        for (int m = 0; m < 5; m++) {
            assert_int_equal(rt_play(g, (go_color_t)cycle[m][0], P(cycle[m][1], cycle[m][2])), GO_OK);
            assert_int_equal(go_game_move(g, m)->ncaptured, 1);
        }
        assert_int_equal(rt_play(g, GO_WHITE, P(1, 7)), cases[i].want);
        if (cases[i].want == GO_OK) {
            assert_true(go_game_board(g)->hash == h0);
            /* and round again: the cycle never ends under simple ko */
            for (int m = 0; m < 6; m++)
                assert_int_equal(rt_play(g, (go_color_t)cycle[m][0], P(cycle[m][1], cycle[m][2])), GO_OK);
            assert_true(go_game_board(g)->hash == h0);
            assert_int_equal(go_game_history_hash(g, 0), go_game_history_hash(g, 12));
        }
        go_game_destroy(g);
    }
}

/* ---- suicide ---- */

static void test_multi_suicide_rules(void **state)
{
    (void)state;
    static const char *const pos = "XO...\n"
                                   ".O...\n"
                                   "O....\n"
                                   ".....\n"
                                   ".....\n";
    struct {
        const char *rules;
        int want;
    } cases[] = { { "chinese", GO_ESUICIDE }, { "japanese", GO_ESUICIDE },
                  { "aga", GO_ESUICIDE }, { "tromp-taylor", GO_OK }, { "nz", GO_OK },
                  { "ing", GO_OK } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go_game_t *g = rt_game(cases[i].rules, pos, GO_BLACK);
        assert_int_equal(rt_play(g, GO_BLACK, P(0, 1)), cases[i].want);
        if (cases[i].want == GO_OK) {
            rt_assert_board(go_game_board(g), ".O...\n.O...\nO....\n.....\n.....\n");
            assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 2);
            assert_int_equal(go_game_move(g, 0)->ncaptured, 0);
            /* undo brings both stones back */
            assert_int_equal(rt_undo(g), GO_OK);
            rt_assert_board(go_game_board(g), pos);
            assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 0);
        }
        /* a single-stone suicide is never legal */
        assert_int_equal(go_game_set_turn(g, GO_BLACK), GO_OK);
        go_game_destroy(g);
        g = rt_game(cases[i].rules, ".O...\nO....\n.....\n.....\n.....\n", GO_BLACK);
        assert_int_equal(rt_play(g, GO_BLACK, P(0, 0)), GO_ESUICIDE);
        go_game_destroy(g);
    }
}

/* ---- handicap, zuozi, setup ---- */

/* The star points printed on a board (go_stars.h): how many on each size, where, the same
 * under the board's symmetries, and the handicap stones of 5 (and 9 on 19x19) on them. */
static void test_star_points(void **state)
{
    (void)state;
    static const int want[26] = { [7] = 5, [8] = 4, [9] = 5, [10] = 4, [11] = 5, [12] = 4,
                                  [13] = 5, [14] = 4, [15] = 9, [17] = 9, [19] = 9, [21] = 9,
                                  [16] = 4, [18] = 4, [20] = 4, [22] = 4, [23] = 9, [24] = 4,
                                  [25] = 9 };
    for (int S = 2; S <= GO_MAX_SIZE; S++) {
        int n = 0;
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) {
                int st = go_is_star(S, x, y);
                n += st;
                assert_int_equal(st, go_is_star(S, S - 1 - x, y));
                assert_int_equal(st, go_is_star(S, y, x));
            }
        assert_int_equal(n, want[S]);
    }
    assert_true(go_is_star(9, 2, 2) && go_is_star(9, 4, 4) && !go_is_star(9, 3, 3));
    assert_true(go_is_star(13, 3, 3) && go_is_star(13, 6, 6) && !go_is_star(13, 2, 2));
    assert_false(go_is_star(13, 3, 6)); /* no side stars on 13x13 */
    assert_true(go_is_star(19, 3, 9) && go_is_star(19, 15, 15) && go_is_star(19, 9, 9));
    assert_false(go_is_star(19, -1, 3) || go_is_star(19, 3, 19));
    static const int sizes[3] = { 9, 13, 19 };
    for (int s = 0; s < 3; s++) {
        go_game_t *g = go_game_create(sizes[s], NULL);
        assert_int_equal(go_game_handicap(g, sizes[s] == 19 ? 9 : 5), GO_OK);
        const go_board_t *b = go_game_board(g);
        for (int p = 0; p < GO_CELLS; p++)
            if (b->color[p] == GO_BLACK)
                assert_true(go_is_star(sizes[s], GO_X(p), GO_Y(p)));
        go_game_destroy(g);
    }
}

static void test_handicap(void **state)
{
    (void)state;
    /* GNU Go / KataGo placement; as SGF points, for n = 2..9 */
    static const char *const want[3][8] = {
        { "gc cg", "gc cg gg", "gc cg gg cc", "ee gc cg gg cc", "gc cg gg cc ce ge",
          "ee gc cg gg cc ce ge", "gc cg gg cc ce ge ec eg", "gc cg gg cc ce ge ec eg ee" },
        { "jd dj", "jd dj jj", "jd dj jj dd", "gg jd dj jj dd", "jd dj jj dd dg jg",
          "gg jd dj jj dd dg jg", "jd dj jj dd dg jg gd gj", "jd dj jj dd dg jg gd gj gg" },
        { "pd dp", "pd dp pp", "pd dp pp dd", "jj pd dp pp dd", "pd dp pp dd dj pj",
          "jj pd dp pp dd dj pj", "pd dp pp dd dj pj jd jp", "pd dp pp dd dj pj jd jp jj" },
    };
    static const int sizes[3] = { 9, 13, 19 };
    for (int s = 0; s < 3; s++) {
        for (int n = 2; n <= 9; n++) {
            go_game_t *g = go_game_create(sizes[s], NULL);
            assert_int_equal(go_game_handicap(g, n), GO_OK);
            assert_int_equal(go_game_check(g), GO_OK);
            assert_int_equal(go_game_handicap_count(g), n);
            assert_int_equal(go_game_turn(g), GO_WHITE);
            const go_board_t *b = go_game_board(g);
            int stones = 0;
            for (int p = 0; p < GO_CELLS; p++)
                stones += b->color[p] == GO_BLACK || b->color[p] == GO_WHITE;
            assert_int_equal(stones, n);
            const char *w = want[s][n - 2];
            for (int k = 0; k == 0 || w[k - 1]; k += 3) {
                int p = go_point_from_sgf(sizes[s], w + k, 2);
                assert_true(p > 0);
                assert_int_equal(b->color[p], GO_BLACK);
            }
            assert_int_equal(rt_play(g, GO_BLACK, S(sizes[s], "bb")), GO_ETURN);
            assert_int_equal(rt_play(g, GO_WHITE, S(sizes[s], "bb")), GO_OK);
            assert_int_equal(go_game_handicap(g, 2), GO_EINVAL); /* after a move */
            go_game_destroy(g);
        }
        go_game_t *g = go_game_create(sizes[s], NULL);
        assert_int_equal(go_game_handicap(g, 1), GO_EINVAL);
        assert_int_equal(go_game_handicap(g, 10), GO_EINVAL);
        go_game_destroy(g);
    }
    go_game_t *g = go_game_create(7, NULL);
    assert_int_equal(go_game_handicap(g, 2), GO_EINVAL);
    go_game_destroy(g);
}

static void test_zuozi(void **state)
{
    (void)state;
    go_rules_t r;
    assert_int_equal(go_rules_preset("ancient-area", &r), GO_OK);
    assert_true(r.zuozi && r.white_first);
    go_game_t *g = go_game_create(19, &r);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_int_equal(go_game_zuozi(g), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    const go_board_t *b = go_game_board(g);
    assert_int_equal(b->color[S(19, "pd")], GO_BLACK);
    assert_int_equal(b->color[S(19, "dp")], GO_BLACK);
    assert_int_equal(b->color[S(19, "dd")], GO_WHITE);
    assert_int_equal(b->color[S(19, "pp")], GO_WHITE);
    assert_int_equal(go_game_handicap_count(g), 0);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_int_equal(rt_play(g, GO_BLACK, S(19, "qq")), GO_ETURN);
    assert_int_equal(rt_play(g, GO_WHITE, S(19, "qq")), GO_OK);
    assert_int_equal(go_game_zuozi(g), GO_EINVAL); /* after a move */
    go_game_destroy(g);
    g = go_game_create(9, &r);
    assert_int_equal(go_game_zuozi(g), GO_OK);
    assert_int_equal(go_game_board(g)->color[S(9, "gc")], GO_BLACK);
    assert_int_equal(go_game_board(g)->color[S(9, "cc")], GO_WHITE);
    go_game_destroy(g);
    g = go_game_create(6, &r);
    assert_int_equal(go_game_zuozi(g), GO_EINVAL);
    go_game_destroy(g);
}

static void test_setup(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    go_point_t ab[3] = { (go_point_t)S(9, "cc"), (go_point_t)S(9, "gg"), (go_point_t)S(9, "cg") };
    assert_int_equal(go_game_setup(g, GO_BLACK, ab, 3), GO_OK);
    assert_int_equal(go_game_handicap_count(g), 3);
    assert_int_equal(go_game_history_len(g), 1);
    assert_true(go_game_history_hash(g, 0) == go_game_board(g)->hash);
    go_point_t bad[2] = { (go_point_t)S(9, "aa"), (go_point_t)GO_PT(9, 9) };
    assert_int_equal(go_game_setup(g, GO_WHITE, bad, 2), GO_EINVAL);
    assert_int_equal(go_game_board(g)->color[S(9, "aa")], GO_EMPTY); /* nothing changed */
    assert_int_equal(go_game_check(g), GO_OK);
    assert_int_equal(rt_play(g, GO_BLACK, S(9, "ee")), GO_OK);
    /* mid-game setup: counted as no handicap, history stays consistent, undo keeps it */
    go_point_t aw[1] = { (go_point_t)S(9, "ce") };
    assert_int_equal(go_game_setup(g, GO_WHITE, aw, 1), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    go_point_t ae[1] = { (go_point_t)S(9, "cc") };
    assert_int_equal(go_game_setup(g, GO_EMPTY, ae, 1), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    assert_int_equal(go_game_handicap_count(g), 3);
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(go_game_board(g)->color[S(9, "ee")], GO_EMPTY);
    assert_int_equal(go_game_board(g)->color[S(9, "ce")], GO_WHITE);
    assert_int_equal(go_game_board(g)->color[S(9, "cc")], GO_EMPTY);
    assert_int_equal(rt_undo(g), GO_EEMPTY);
    go_game_destroy(g);
}

/* ---- undo ---- */

static void test_undo_exact(void **state)
{
    (void)state;
    go_game_t *g = rt_game("chinese", KO, GO_BLACK);
    go_board_t b0 = *go_game_board(g);
    assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_OK); /* ko capture */
    go_board_t b1 = *go_game_board(g);
    assert_int_equal(rt_play(g, GO_WHITE, P(4, 4)), GO_OK);
    /* undoing White's move restores the ko: the recapture is barred again */
    assert_int_equal(rt_undo(g), GO_OK);
    assert_memory_equal(go_game_board(g), &b1, sizeof b1);
    assert_int_equal(go_game_board(g)->ko, P(1, 1));
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_int_equal(rt_play(g, GO_WHITE, P(1, 1)), GO_EKO);
    /* undoing the capture restores the stone, the prisoners and the hash */
    assert_int_equal(rt_undo(g), GO_OK);
    const go_board_t *b = go_game_board(g);
    assert_memory_equal(b->color, b0.color, sizeof b0.color);
    assert_true(b->hash == b0.hash);
    assert_int_equal(b->ko, b0.ko);
    assert_int_equal(b->prisoners[GO_BLACK], 0);
    assert_int_equal(go_game_turn(g), GO_BLACK);
    assert_int_equal(go_game_history_len(g), 1);
    assert_int_equal(rt_undo(g), GO_EEMPTY);
    /* the history no longer holds the undone positions: replaying is legal */
    assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_OK);
    go_game_destroy(g);

    /* a capture of a larger chain merging on undo */
    g = rt_game("chinese", ".XOX.\nXO.OX\n.XOX.\n..O..\n.....\n", GO_BLACK);
    b0 = *go_game_board(g);
    assert_int_equal(rt_play(g, GO_BLACK, P(2, 1)), GO_OK);
    assert_int_equal(go_game_board(g)->prisoners[GO_BLACK], 3);
    assert_int_equal(rt_undo(g), GO_OK);
    b = go_game_board(g);
    assert_memory_equal(b->color, b0.color, sizeof b0.color);
    assert_memory_equal(b->libs, b0.libs, sizeof b0.libs);
    assert_int_equal(b->prisoners[GO_BLACK], 0);
    go_game_destroy(g);
}

static void test_pass_stones(void **state)
{
    (void)state;
    go_rules_t r;
    assert_int_equal(go_rules_preset("aga", &r), GO_OK);
    go_game_t *g = go_game_create(9, &r);
    assert_int_equal(rt_pass(g, GO_BLACK), GO_OK);
    assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 1);
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 0);
    go_game_destroy(g);
}

/* ---- tolerant play ---- */

static void test_tolerant(void **state)
{
    (void)state;
    go_game_t *g = rt_game("chinese", SEND2, GO_BLACK);
    int why = 1;
    assert_int_equal(go_game_play_tolerant(g, GO_BLACK, P(0, 0), &why), GO_OK);
    assert_int_equal(why, GO_OK);
    assert_int_equal(go_game_play_tolerant(g, GO_WHITE, P(2, 0), &why), GO_OK);
    assert_int_equal(go_game_play_tolerant(g, GO_BLACK, P(1, 0), &why), GO_OK);
    assert_int_equal(why, GO_ESUPERKO);
    assert_int_equal(go_game_check(g), GO_OK);
    assert_int_equal(go_game_history_hash(g, 0), go_game_history_hash(g, 3));
    /* out of turn */
    assert_int_equal(go_game_play_tolerant(g, GO_BLACK, P(4, 4), &why), GO_OK);
    assert_int_equal(why, GO_ETURN);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_int_equal(go_game_check(g), GO_OK);
    /* refused: occupied, off-board */
    assert_int_equal(go_game_play_tolerant(g, GO_WHITE, P(4, 4), &why), GO_EOCCUPIED);
    assert_int_equal(go_game_play_tolerant(g, GO_WHITE, GO_PT(5, 0), &why), GO_EINVAL);
    /* undo the repetition: the set forgets it once, the start position stays */
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(rt_play(g, GO_BLACK, P(1, 0)), GO_ESUPERKO);
    go_game_destroy(g);

    /* a single-stone suicide in outside data: the stone goes to the prisoners */
    g = rt_game("japanese", ".O...\nO....\n.....\n.....\n.....\n", GO_BLACK);
    assert_int_equal(go_game_play_tolerant(g, GO_BLACK, P(0, 0), NULL), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    assert_int_equal(go_game_board(g)->color[P(0, 0)], GO_EMPTY);
    assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 1);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_int_equal(rt_undo(g), GO_OK);
    assert_int_equal(go_game_board(g)->prisoners[GO_WHITE], 0);
    /* after the game is over */
    assert_int_equal(rt_pass(g, GO_BLACK), GO_OK);
    assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
    assert_int_equal(go_game_play_tolerant(g, GO_BLACK, P(3, 3), &why), GO_OK);
    assert_int_equal(why, GO_EOVER);
    assert_false(go_game_over(g));
    assert_int_equal(go_game_pass(g, GO_BLACK, true), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    go_game_destroy(g);
}

/* ---- history ---- */

static void test_history(void **state)
{
    (void)state;
    go_rules_t r;
    assert_int_equal(go_rules_preset("aga", &r), GO_OK);
    go_game_t *g = go_game_create(9, &r);
    assert_int_equal(rt_play(g, GO_BLACK, S(9, "ee")), GO_OK);
    assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
    assert_int_equal(go_game_history_len(g), 3);
    /* situational: same stones, different side to move, different keys */
    assert_true(go_game_history_hash(g, 1) != go_game_history_hash(g, 2));
    assert_true(go_game_history_hash(g, 2) == go_game_board(g)->hash);
    assert_true(go_game_history_hash(g, 5) == 0);
    go_game_destroy(g);
    g = go_game_create(9, NULL);
    assert_int_equal(rt_play(g, GO_BLACK, S(9, "ee")), GO_OK);
    assert_int_equal(rt_pass(g, GO_WHITE), GO_OK);
    assert_true(go_game_history_hash(g, 1) == go_game_history_hash(g, 2));
    go_game_destroy(g);
}

/* A long game: many moves push the arrays and the key set through several growths. */
static void test_long_game_growth(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(19, NULL);
    int n = 0;
    for (int y = 0; y < 19; y++)
        for (int x = 0; x < 19; x++) {
            if ((x + y) % 3 == 0)
                continue;
            go_color_t c = go_game_turn(g);
            if (go_game_legal(g, c, P(x, y)) == GO_OK) {
                assert_int_equal(go_game_play(g, c, P(x, y)), GO_OK);
                n++;
            } else {
                assert_int_equal(go_game_pass(g, c, false), GO_OK);
                assert_int_equal(go_game_play(g, GO_OTHER(c), GO_PASS), GO_OK);
                assert_int_equal(rt_undo(g), GO_OK);
            }
        }
    assert_int_equal(go_game_check(g), GO_OK);
    assert_true(n > 200);
    assert_int_equal(go_game_reset(g, 9, NULL), GO_OK);
    assert_int_equal(go_game_move_count(g), 0);
    assert_int_equal(go_game_history_len(g), 1);
    assert_int_equal(go_game_check(g), GO_OK);
    assert_int_equal(go_game_reset(g, 30, NULL), GO_EINVAL);
    go_game_destroy(g);
}

/* ---- rule presets ---- */

static void test_presets(void **state)
{
    (void)state;
    go_rules_t r;
    int n = 0;
    for (; go_rules_names[n]; n++) {
        assert_int_equal(go_rules_preset(go_rules_names[n], &r), GO_OK);
        assert_string_equal(r.name, go_rules_names[n]);
    }
    assert_int_equal(n, 9);
    assert_int_equal(go_rules_preset("chinese", &r), GO_OK);
    assert_int_equal(r.ko, GO_KO_POSITIONAL);
    assert_false(r.multi_suicide);
    assert_int_equal(r.scoring, GO_SCORING_AREA);
    assert_int_equal(r.handicap_comp, GO_HC_N);
    assert_int_equal(r.komi2, 15);
    assert_int_equal(go_rules_preset("JAPANESE", &r), GO_OK);
    assert_int_equal(r.ko, GO_KO_SIMPLE);
    assert_int_equal(r.scoring, GO_SCORING_TERRITORY);
    assert_int_equal(r.tax, GO_TAX_SEKI);
    assert_int_equal(r.komi2, 13);
    assert_int_equal(go_rules_preset("kr", &r), GO_OK);
    assert_string_equal(r.name, "korean");
    assert_int_equal(go_rules_preset("ing", &r), GO_OK);
    assert_int_equal(r.ko, GO_KO_SITUATIONAL);
    assert_true(r.multi_suicide && r.black_wins_ties);
    assert_int_equal(r.komi2, 16);
    assert_int_equal(go_rules_preset("aga", &r), GO_OK);
    assert_true(r.pass_stones);
    assert_int_equal(r.handicap_comp, GO_HC_N_MINUS_1);
    assert_int_equal(go_rules_preset("nz", &r), GO_OK);
    assert_int_equal(r.komi2, 14);
    assert_true(r.multi_suicide);
    assert_int_equal(go_rules_preset("tt", &r), GO_OK);
    assert_string_equal(r.name, "tromp-taylor");
    assert_false(r.remove_dead);
    assert_int_equal(go_rules_preset("ancient-area", &r), GO_OK);
    assert_int_equal(r.tax, GO_TAX_GROUP);
    assert_int_equal(r.komi2, 0);
    assert_int_equal(go_rules_preset("ancient-territory", &r), GO_OK);
    assert_int_equal(r.ko, GO_KO_SIMPLE);
    assert_int_equal(r.scoring, GO_SCORING_TERRITORY);
    assert_true(r.white_first && r.zuozi);
    r.komi2 = 99;
    assert_int_equal(go_rules_preset("klingon", &r), GO_EINVAL);
    assert_int_equal(r.komi2, 99); /* untouched */
    assert_int_equal(go_rules_preset(NULL, &r), GO_EINVAL);
}

static void test_rules_from_sgf(void **state)
{
    (void)state;
    static const struct {
        const char *ru, *name;
    } cases[] = {
        { "Chinese", "chinese" }, { "Japanese", "japanese" }, { "Korean", "korean" },
        { "AGA", "aga" }, { "NZ", "nz" }, { "GOE", "ing" }, { "Ing", "ing" },
        { "Tromp-Taylor", "tromp-taylor" }, { "cn", "chinese" }, { "jp", "japanese" },
        { "kr", "korean" }, { " korean ", "korean" }, { "CHINESE", "chinese" },
        { "New Zealand", "nz" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go_rules_t r;
        assert_int_equal(go_rules_from_sgf(cases[i].ru, &r), GO_OK);
        assert_string_equal(r.name, cases[i].name);
    }
    go_rules_t r;
    assert_int_equal(go_rules_from_sgf("", &r), GO_EINVAL);
    assert_int_equal(go_rules_from_sgf("Chinese-ish", &r), GO_EINVAL);
    /* OGS's counting: Japanese and Korean lose the seki rule, the others are untouched */
    go_rules_from_sgf("japanese", &r);
    assert_string_equal(go_rules_server(&r, "online-go.com", NULL), "OGS");
    assert_int_equal(r.tax, GO_TAX_NONE);
    go_rules_from_sgf("korean", &r);
    assert_string_equal(go_rules_server(&r, NULL, "OGS: http://online-go.com/game/7"), "OGS");
    assert_int_equal(r.tax, GO_TAX_NONE);
    go_rules_from_sgf("japanese", &r);
    assert_null(go_rules_server(&r, "Tygem", "Seoul"));
    assert_null(go_rules_server(&r, NULL, NULL));
    assert_int_equal(r.tax, GO_TAX_SEKI);
    go_rules_from_sgf("ancient-area", &r);
    assert_null(go_rules_server(&r, "online-go.com", NULL));
    assert_int_equal(r.tax, GO_TAX_GROUP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn_and_over),
        cmocka_unit_test(test_star_points),
        cmocka_unit_test(test_simple_ko_all_rules),
        cmocka_unit_test(test_ko_pass_clears),
        cmocka_unit_test(test_sending_two_returning_one),
        cmocka_unit_test(test_triple_ko),
        cmocka_unit_test(test_multi_suicide_rules),
        cmocka_unit_test(test_handicap),
        cmocka_unit_test(test_zuozi),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_undo_exact),
        cmocka_unit_test(test_pass_stones),
        cmocka_unit_test(test_tolerant),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_long_game_growth),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_rules_from_sgf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
