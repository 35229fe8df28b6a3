/* test_station_align.c: a board found again checked against the game (stn_align.h):
 * turned, mirrored and shifted snapshots are turned back to the record; a snapshot that
 * disagrees beyond noise (a misread under an arm, a hidden board) is refused; a few new
 * moves and dead stones not yet taken off are within noise. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "station/stn_align.h"
#include "stn_testutil.h"

/* a 9x9 position with no symmetry */
static const char *pos =
    ". . . . . . . . .\n"
    ". . X O . . . . .\n"
    ". . X O . . X . .\n"
    ". X O O . . . . .\n"
    ". . X . . . . O .\n"
    ". . . . . X . . .\n"
    ". . O . . . . . .\n"
    ". . . . . . X O .\n"
    ". . . . . . . . .\n";

/* The snapshot of the game's board seen through transform t (the snapshot's point
 * map(q) shows game point q). */
static void seen_through(const go_game_t *g, const stn_align_t *t, vis_snapshot_t *s)
{
    const go_board_t *b = go_game_board(g);
    int S = b->size;
    memset(s, 0, sizeof *s);
    s->size = S;
    for (int i = 0; i < S * S; i++)
        s->conf[i] = 0.95f;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int j = stn_align_map(t, S, x, y);
            if (j >= 0)
                s->color[j] = (uint8_t)b->color[GO_PT(x, y)];
        }
}

static void assert_turned_back(const go_game_t *g, const stn_align_t *a, const vis_snapshot_t *s)
{
    vis_snapshot_t *t = malloc(sizeof *t);
    assert_non_null(t);
    stn_align_snapshot(a, s, t);
    const go_board_t *b = go_game_board(g);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (!t->occluded[y * b->size + x])
                assert_int_equal(t->color[y * b->size + x], b->color[GO_PT(x, y)]);
    free(t);
}

static void test_every_symmetry_found(void **state)
{
    (void)state;
    go_game_t *g = st_game("chinese", pos, GO_BLACK);
    vis_snapshot_t *s = malloc(sizeof *s);
    assert_non_null(s);
    for (int sym = 0; sym < 8; sym++) {
        stn_align_t t = { .sym = sym };
        seen_through(g, &t, s);
        stn_align_t a;
        assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_OK);
        assert_int_equal(a.accept, 1);
        assert_int_equal(a.mismatch, 0);
        assert_int_equal(a.sym, sym);
        assert_int_equal(a.dx, 0);
        assert_int_equal(a.dy, 0);
        assert_int_equal(stn_align_is_identity(&a), sym == 0);
        assert_true(a.second > a.tolerance);   /* the others clearly worse */
        assert_turned_back(g, &a, s);
        /* the affine matrix is the map */
        double m[6];
        stn_align_affine(&a, 9, m);
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++) {
                int sx = (int)(m[0] * x + m[1] * y + m[2]), sy = (int)(m[3] * x + m[4] * y + m[5]);
                assert_int_equal(stn_align_map(&a, 9, x, y), sy * 9 + sx);
            }
    }
    free(s);
    go_game_destroy(g);
}

static void test_shift_found(void **state)
{
    (void)state;
    go_game_t *g = st_game("chinese", pos, GO_BLACK);
    vis_snapshot_t *s = malloc(sizeof *s);
    assert_non_null(s);
    stn_align_t t = { .sym = 0, .dx = 1, .dy = 0 };   /* the grid found a line to the left */
    seen_through(g, &t, s);
    stn_align_t a;
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_OK);
    assert_int_equal(a.accept, 1);
    assert_int_equal(a.dx, 1);
    assert_int_equal(a.dy, 0);
    assert_turned_back(g, &a, s);
    /* shifts not allowed: the identity disagrees, refused */
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 0, &a), GO_OK);
    assert_int_equal(a.accept, 0);
    free(s);
    go_game_destroy(g);
}

static void test_noise_and_new_moves_accepted(void **state)
{
    (void)state;
    go_game_t *g = st_game("chinese", pos, GO_BLACK);
    vis_snapshot_t *s = malloc(sizeof *s);
    assert_non_null(s);
    /* two moves played while the board was lost, one stone misread; the dead stone at
     * the (pending) point is still there */
    st_snap(s, ". . . . . . . . .\n"
               ". . X O . . . . .\n"
               ". . X O . . X . .\n"
               ". X O O . . . . .\n"
               ". . X . . . . O .\n"
               ". . . . . X . . .\n"
               ". . O . . . X . .\n"
               ". . . . . . O O .\n"
               ". . . X . . . . X\n", 0, 1, 0.1);
    go_point_t pend[1] = { (go_point_t)st_pt(9, "ii") };
    stn_align_t a;
    assert_int_equal(stn_align_find(g, pend, 1, s, 0.5f, 1, &a), GO_OK);
    assert_int_equal(a.accept, 1);
    assert_true(stn_align_is_identity(&a));
    assert_int_equal(a.mismatch, 3);   /* gg, gh (misread), di; ii is the dead stone */
    free(s);
    go_game_destroy(g);
}

static void test_misread_refused(void **state)
{
    (void)state;
    go_game_t *g = st_game("chinese", pos, GO_BLACK);
    vis_snapshot_t *s = malloc(sizeof *s);
    assert_non_null(s);
    /* an arm across the board read as a row of stones, stones under it missing */
    st_snap(s, ". . . . . . . . .\n"
               ". . X O . . . . .\n"
               ". . X O . . X . .\n"
               "X X X X X X X X X\n"
               "X X X X X X X X X\n"
               ". . . . . . . . .\n"
               ". . O . . . . . .\n"
               ". . . . . . X O .\n"
               ". . . . . . . . .\n", 0, 1, 0.1);
    stn_align_t a;
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_OK);
    assert_int_equal(a.accept, 0);
    assert_true(a.mismatch > a.tolerance);
    /* most of the board hidden: too little seen to agree */
    st_snap(s, "# # # # # # # # #\n"
               "# # # # # # # # #\n"
               "# # # # # # # # #\n"
               "# # # # # # # # #\n"
               "# # # # # # # # #\n"
               ". . . . . X . . .\n"
               ". . O . . . . . .\n"
               ". . . . . . X O .\n"
               ". . . . . . . . .\n", 1, 1, 0.1);
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_OK);
    assert_int_equal(a.accept, 0);
    free(s);
    go_game_destroy(g);
}

static void test_empty_position_identity(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    vis_snapshot_t *s = malloc(sizeof *s);
    assert_non_null(s);
    st_snap(s, ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n"
               ". . . . . . . . .\n. . . . . . . . .\n. . . . . . X . .\n. . . . . . . . .\n"
               ". . . . . . . . .\n", 0, 1, 0.1);
    stn_align_t a;
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_OK);
    assert_int_equal(a.accept, 1);
    assert_true(stn_align_is_identity(&a));
    s->size = 13;
    assert_int_equal(stn_align_find(g, NULL, 0, s, 0.5f, 1, &a), GO_EINVAL);
    free(s);
    go_game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_symmetry_found),
        cmocka_unit_test(test_shift_found),
        cmocka_unit_test(test_noise_and_new_moves_accepted),
        cmocka_unit_test(test_misread_refused),
        cmocka_unit_test(test_empty_position_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
