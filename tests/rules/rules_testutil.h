/* rules_testutil.h: helpers shared by the rules tests (header only): ASCII boards, a
 * from-scratch liberty recount, and play-and-check wrappers that run the consistency
 * checkers after every move. Include after <cmocka.h>. */
#ifndef KIFUCAM_RULES_TESTUTIL_H
#define KIFUCAM_RULES_TESTUTIL_H

#include <string.h>

#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/go_rules.h"

/* Point from a diagram coordinate: column x, row y, 0-based from the top-left. */
#define P(x, y) GO_PT(x, y)

/* Liberties of the chain at p counted from scratch by a flood fill. */
static inline int rt_recount_libs(const go_board_t *b, int p)
{
    static const int dir[4] = { -GO_STRIDE, -1, 1, GO_STRIDE };
    int c = b->color[p];
    if (c != GO_BLACK && c != GO_WHITE)
        return 0;
    unsigned char seen[GO_CELLS], lib[GO_CELLS];
    int stack[GO_CELLS], sp = 0, libs = 0;
    memset(seen, 0, sizeof seen);
    memset(lib, 0, sizeof lib);
    stack[sp++] = p;
    seen[p] = 1;
    while (sp) {
        int s = stack[--sp];
        for (int d = 0; d < 4; d++) {
            int q = s + dir[d];
            if (b->color[q] == c && !seen[q]) {
                seen[q] = 1;
                stack[sp++] = q;
            } else if (b->color[q] == GO_EMPTY && !lib[q]) {
                lib[q] = 1;
                libs++;
            }
        }
    }
    return libs;
}

/* Every stone's incremental liberty count against the recount. */
static inline void rt_assert_libs(const go_board_t *b)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (b->color[P(x, y)] != GO_EMPTY)
                assert_int_equal(go_board_libs(b, P(x, y)), rt_recount_libs(b, P(x, y)));
}

/* Board from a diagram; fails the test on a parse error. */
static inline void rt_board(go_board_t *b, const char *text)
{
    assert_int_equal(go_board_from_ascii(b, text), GO_OK);
    assert_int_equal(go_board_check(b), GO_OK);
}

/* The board as text compared with the expected diagram (same syntax as input). */
static inline void rt_assert_board(const go_board_t *b, const char *expected)
{
    go_board_t e;
    char got[GO_MAX_SIZE * (GO_MAX_SIZE + 1) + 1], want[GO_MAX_SIZE * (GO_MAX_SIZE + 1) + 1];
    assert_int_equal(go_board_from_ascii(&e, expected), GO_OK);
    assert_int_equal(go_board_to_ascii(b, got, sizeof got), GO_OK);
    assert_int_equal(go_board_to_ascii(&e, want, sizeof want), GO_OK);
    assert_string_equal(got, want);
}

/* Board play followed by the consistency check. */
static inline int rt_bplay(go_board_t *b, go_color_t c, int p)
{
    int rc = go_board_play(b, c, p, NULL);
    assert_int_equal(go_board_check(b), GO_OK);
    return rc;
}

/* Game play followed by the consistency check. */
static inline int rt_play(go_game_t *g, go_color_t c, int p)
{
    int rc = go_game_play(g, c, p);
    assert_int_equal(go_game_check(g), GO_OK);
    return rc;
}

static inline int rt_pass(go_game_t *g, go_color_t c)
{
    int rc = go_game_pass(g, c, false);
    assert_int_equal(go_game_check(g), GO_OK);
    return rc;
}

static inline int rt_undo(go_game_t *g)
{
    int rc = go_game_undo(g);
    assert_int_equal(go_game_check(g), GO_OK);
    return rc;
}

/* A game of these rules whose board is the diagram (setup stones), c to move. */
static inline go_game_t *rt_game(const char *rules, const char *text, go_color_t c)
{
    go_rules_t r;
    go_board_t b;
    assert_int_equal(go_rules_preset(rules, &r), GO_OK);
    assert_int_equal(go_board_from_ascii(&b, text), GO_OK);
    go_game_t *g = go_game_create(b.size, &r);
    assert_non_null(g);
    go_point_t bl[GO_MAX_SIZE * GO_MAX_SIZE], wh[GO_MAX_SIZE * GO_MAX_SIZE];
    int nb = 0, nw = 0;
    for (int y = 0; y < b.size; y++)
        for (int x = 0; x < b.size; x++) {
            if (b.color[P(x, y)] == GO_BLACK)
                bl[nb++] = (go_point_t)P(x, y);
            else if (b.color[P(x, y)] == GO_WHITE)
                wh[nw++] = (go_point_t)P(x, y);
        }
    assert_int_equal(go_game_setup(g, GO_BLACK, bl, nb), GO_OK);
    assert_int_equal(go_game_setup(g, GO_WHITE, wh, nw), GO_OK);
    assert_int_equal(go_game_set_turn(g, c), GO_OK);
    assert_int_equal(go_game_check(g), GO_OK);
    return g;
}

#endif
