/* test_sgf_game.c: SGF main line -> go_game (setup, komi, sizes, passes, the list of
 * illegal moves, stop or tolerant continuation) and go_game -> SGF -> go_game. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

/* Parse text and replay its first game; returns the replay status. */
static int replay(const char *text, const sgf_replay_opts_t *o, sgf_replay_t *r, sgf_error_t *e)
{
    sgf_collection_t *c = NULL;
    assert_int_equal(sgf_parse(text, strlen(text), NULL, &c, NULL), 0);
    int rc = sgf_replay(c->games[0], o, r, e);
    if (rc == 0)
        assert_int_equal(go_game_check(r->game), GO_OK);
    sgf_collection_destroy(c);
    return rc;
}

static void assert_board(const go_game_t *g, const char *want)
{
    char buf[GO_MAX_SIZE * (GO_MAX_SIZE + 1) + 1];
    assert_int_equal(go_board_to_ascii(go_game_board(g), buf, sizeof buf), GO_OK);
    assert_string_equal(buf, want);
}

static void test_small_game(void **state)
{
    (void)state;
    sgf_replay_t r;
    assert_int_equal(replay("(;GM[1]SZ[5]KM[0.5]RU[Japanese];B[cc];W[bc];B[cb];W[tt];B[])", NULL,
                            &r, NULL), 0);
    assert_int_equal(r.size, 5);
    assert_int_equal(r.komi2, 1);
    assert_true(r.komi_given);
    assert_true(r.rules_from_sgf);
    assert_string_equal(r.rules.name, "japanese");
    assert_int_equal(r.nmoves, 5);
    assert_int_equal(r.nillegal, 0);
    assert_int_equal(go_game_move_count(r.game), 5);
    assert_int_equal(go_game_move(r.game, 3)->kind, GO_MOVE_PASS);
    assert_true(go_game_over(r.game));
    assert_board(r.game, ".....\n"
                         "..X..\n"
                         ".OX..\n"
                         ".....\n"
                         ".....\n");
    sgf_replay_fini(&r);
    sgf_replay_fini(NULL);
}

static void test_defaults_and_sizes(void **state)
{
    (void)state;
    sgf_replay_t r;
    sgf_error_t e;
    assert_int_equal(replay("(;GM[1];B[pd])", NULL, &r, NULL), 0);
    assert_int_equal(r.size, 19);
    assert_string_equal(r.rules.name, "chinese");
    assert_false(r.rules_from_sgf);
    assert_false(r.komi_given);
    assert_int_equal(r.komi2, r.rules.komi2);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[19:19];B[ss])", NULL, &r, NULL), 0);
    assert_int_equal(r.size, 19);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[25];B[yy])", NULL, &r, NULL), 0);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[19:13];B[aa])", NULL, &r, &e), GO_EPARSE);
    assert_non_null(strstr(e.msg, "square"));
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, 2);
    assert_int_equal(replay("(;SZ[1])", NULL, &r, &e), GO_EPARSE);
    assert_int_equal(replay("(;SZ[26])", NULL, &r, &e), GO_EPARSE);
    assert_int_equal(replay("(;SZ[nine])", NULL, &r, &e), GO_EPARSE);
    assert_null(r.game);
}

static void test_bad_points(void **state)
{
    (void)state;
    sgf_replay_t r;
    sgf_error_t e;
    assert_int_equal(replay("(;SZ[9];B[ee]\n;W[zz])", NULL, &r, &e), GO_EPARSE);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.col, 1);
    assert_non_null(strstr(e.msg, "zz"));
    assert_int_equal(replay("(;SZ[9];B[abc])", NULL, &r, &e), GO_EPARSE);
    assert_int_equal(replay("(;SZ[9]AB[aa:zz])", NULL, &r, &e), GO_EPARSE);
    assert_int_equal(replay("(;SZ[9]AB[a])", NULL, &r, &e), GO_EPARSE);
    /* "tt" is a pass up to 19x19, a point above */
    assert_int_equal(replay("(;SZ[21];B[tt])", NULL, &r, NULL), 0);
    assert_int_equal(go_game_move(r.game, 0)->kind, GO_MOVE_PLAY);
    sgf_replay_fini(&r);
}

static void test_komi(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int k2;
    } ok[] = { { "6.5", 13 }, { "6.50", 13 }, { " 7 ", 14 }, { "0", 0 }, { "-3.5", -7 },
               { "5.5", 11 }, { "375", 15 }, { "3.75", 15 }, { "2.75", 11 }, { "0.5", 1 },
               { "6,5", 13 }, { "7.4", 15 }, { "8", 16 } };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int k = 99;
        assert_int_equal(sgf_parse_komi(ok[i].s, &k), GO_OK);
        assert_int_equal(k, ok[i].k2);
    }
    int k = 99;
    assert_int_equal(sgf_parse_komi("abc", &k), GO_EPARSE);
    assert_int_equal(sgf_parse_komi("", &k), GO_EPARSE);
    assert_int_equal(sgf_parse_komi("6.5pts", &k), GO_EPARSE);
    assert_int_equal(sgf_parse_komi("99999999999", &k), GO_EPARSE);
    assert_int_equal(k, 99);
    char out[16];
    sgf_format_komi(13, out);
    assert_string_equal(out, "6.5");
    sgf_format_komi(14, out);
    assert_string_equal(out, "7");
    sgf_format_komi(-1, out);
    assert_string_equal(out, "-0.5");
    assert_string_equal(sgf_rules_name("ing"), "GOE");
    assert_string_equal(sgf_rules_name("chinese"), "Chinese");
    /* an unreadable KM falls back to the rules' komi */
    sgf_replay_t r;
    assert_int_equal(replay("(;KM[lots]RU[Korean])", NULL, &r, NULL), 0);
    assert_false(r.komi_given);
    assert_int_equal(r.komi2, r.rules.komi2);
    sgf_replay_fini(&r);
}

/* The komi of a handicap game without KM[] (go_rules_komi2): Chinese 0 (the rules text:
 * no komi, Black returns half the handicap stones), Japanese and Korean 0.5; an even game
 * and a KM[] given as before; the writer puts the same in KM[] when told no komi. */
static void test_handicap_komi(void **state)
{
    (void)state;
    sgf_replay_t r;
    assert_int_equal(replay("(;SZ[9]HA[2]RU[Chinese])", NULL, &r, NULL), 0);
    assert_int_equal(r.komi2, 0);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[9]HA[3]RU[Japanese])", NULL, &r, NULL), 0);
    assert_int_equal(r.komi2, 1);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[9]HA[4]RU[Korean])", NULL, &r, NULL), 0);
    assert_int_equal(r.komi2, 1);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[9]RU[Chinese])", NULL, &r, NULL), 0);
    assert_int_equal(r.komi2, 15);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[9]HA[2]KM[7.5]RU[Chinese])", NULL, &r, NULL), 0);
    assert_int_equal(r.komi2, 15);
    sgf_replay_fini(&r);

    go_rules_t ru;
    assert_int_equal(go_rules_preset("chinese", &ru), GO_OK);
    assert_int_equal(go_rules_komi2(&ru, 0), 15);
    assert_int_equal(go_rules_komi2(&ru, 1), 15);
    assert_int_equal(go_rules_komi2(&ru, 9), 0);
    assert_int_equal(go_rules_preset("japanese", &ru), GO_OK);
    assert_int_equal(go_rules_komi2(&ru, 2), 1);
    go_game_t *g = go_game_create(9, &ru);
    assert_non_null(g);
    assert_int_equal(go_game_handicap(g, 2), GO_OK);
    sgf_collection_t *col = NULL;
    assert_int_equal(sgf_from_game(g, NULL, &col), 0);
    assert_string_equal(sgf_node_value(col->games[0], "KM"), "0.5");
    sgf_collection_destroy(col);
    go_game_destroy(g);
}

/* A ko: B captures at ed, W retakes at dd at once (move 10), illegal. */
static const char *KO = "(;SZ[9]RU[Japanese];B[dc];W[ec];B[cd];W[dd];B[de];W[ee];B[aa];W[fd]"
                        ";B[ed];W[dd];B[ab];W[ba])";

static void test_illegal_listed_and_tolerant(void **state)
{
    (void)state;
    sgf_replay_t r;
    assert_int_equal(replay(KO, NULL, &r, NULL), 0);
    assert_int_equal(r.nmoves, 12);
    assert_int_equal(r.nillegal, 1);
    assert_int_equal(r.illegal[0].move, 10);
    assert_int_equal(r.illegal[0].color, GO_WHITE);
    assert_int_equal(r.illegal[0].point, GO_PT(3, 3));
    assert_int_equal(r.illegal[0].reason, GO_EKO);
    assert_int_equal(r.illegal[0].line, 1);
    assert_false(r.stopped);
    /* played on: W's retake captured ed, and the moves after it are there */
    assert_int_equal(go_game_move_count(r.game), 12);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(4, 3)], GO_EMPTY);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(3, 3)], GO_WHITE);
    sgf_replay_fini(&r);

    sgf_replay_opts_t stop = { NULL, true };
    sgf_collection_t *c = NULL;
    assert_int_equal(sgf_parse(KO, strlen(KO), NULL, &c, NULL), 0);
    assert_int_equal(sgf_replay(c->games[0], &stop, &r, NULL), 0);
    assert_true(r.stopped);
    assert_int_equal(r.nillegal, 1);
    assert_int_equal(go_game_move_count(r.game), 9);
    assert_ptr_not_equal(r.last, NULL);
    assert_string_equal(sgf_node_value(r.last, "W"), "dd");
    sgf_replay_fini(&r);
    sgf_collection_destroy(c);
}

static void test_illegal_kinds(void **state)
{
    (void)state;
    sgf_replay_t r;
    /* occupied (listed and skipped), wrong turn (listed, played), suicide (listed) */
    assert_int_equal(replay("(;SZ[5];B[aa];W[aa];W[bb];W[cc];B[dd])", NULL, &r, NULL), 0);
    assert_int_equal(r.nillegal, 2);
    assert_int_equal(r.illegal[0].move, 2);
    assert_int_equal(r.illegal[0].reason, GO_EOCCUPIED);
    assert_int_equal(r.illegal[1].move, 4);
    assert_int_equal(r.illegal[1].reason, GO_ETURN);
    sgf_replay_fini(&r);
    assert_int_equal(replay("(;SZ[5];B[ab];W[cc];B[ba];W[aa])", NULL, &r, NULL), 0);
    assert_int_equal(r.nillegal, 1);
    assert_int_equal(r.illegal[0].reason, GO_ESUICIDE);
    assert_int_equal(r.illegal[0].move, 4);
    sgf_replay_fini(&r);
    /* the caller's rules beat RU[] */
    go_rules_t cn;
    assert_int_equal(go_rules_preset("chinese", &cn), GO_OK);
    sgf_replay_opts_t o = { &cn, false };
    assert_int_equal(replay(KO, &o, &r, NULL), 0);
    assert_string_equal(r.rules.name, "chinese");
    assert_false(r.rules_from_sgf);
    assert_int_equal(r.nillegal, 1);
    assert_true(r.illegal[0].reason == GO_EKO || r.illegal[0].reason == GO_ESUPERKO);
    sgf_replay_fini(&r);
}

static void test_setup(void **state)
{
    (void)state;
    sgf_replay_t r;
    /* handicap stones by AB, White moves first without PL; a rectangle; mid-game AE/AW */
    assert_int_equal(replay("(;SZ[5]HA[2]AB[aa][ee]AW[cc:dd]\n;W[bb];B[ab];AE[aa]AW[ea];B[ba])",
                            NULL, &r, NULL), 0);
    assert_int_equal(r.handicap, 2);
    assert_int_equal(r.nillegal, 0);
    assert_int_equal(r.nmoves, 3);
    assert_board(r.game, ".X..O\n"
                         "XO...\n"
                         "..OO.\n"
                         "..OO.\n"
                         "....X\n");
    sgf_replay_fini(&r);
    /* PL decides the first move */
    assert_int_equal(replay("(;SZ[5]AB[aa]PL[B];B[bb])", NULL, &r, NULL), 0);
    assert_int_equal(r.nillegal, 0);
    sgf_replay_fini(&r);
    /* HA without AB: the standard stones */
    assert_int_equal(replay("(;SZ[9]HA[2];W[ee])", NULL, &r, NULL), 0);
    assert_int_equal(r.nillegal, 0);
    assert_int_equal(go_game_handicap_count(r.game), 2);
    sgf_replay_fini(&r);
    /* lower-case FF[3] identifiers are recognised */
    assert_int_equal(replay("(;SZ[5]AddBlack[aa];White[bb])", NULL, &r, NULL), 0);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(0, 0)], GO_BLACK);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(1, 1)], GO_WHITE);
    sgf_replay_fini(&r);
    /* only the main line is replayed */
    assert_int_equal(replay("(;SZ[5];B[aa](;W[bb])(;W[cc]))", NULL, &r, NULL), 0);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(1, 1)], GO_WHITE);
    assert_int_equal(go_game_board(r.game)->color[GO_PT(2, 2)], GO_EMPTY);
    sgf_replay_fini(&r);
}

static void test_game_to_sgf_and_back(void **state)
{
    (void)state;
    go_rules_t ko;
    assert_int_equal(go_rules_preset("korean", &ko), GO_OK);
    go_game_t *g = go_game_create(9, &ko);
    assert_non_null(g);
    assert_int_equal(go_game_handicap(g, 3), GO_OK);
    static const char *mv[] = { "ee", "dc", "cd", "", "hb", "", "" };
    go_color_t c = GO_WHITE;
    for (size_t i = 0; i < sizeof mv / sizeof mv[0]; i++, c = GO_OTHER(c)) {
        if (*mv[i])
            assert_int_equal(go_game_play(g, c, go_point_from_sgf(9, mv[i], 2)), GO_OK);
        else
            assert_int_equal(go_game_pass(g, c, false), GO_OK);
    }
    sgf_header_t h = { 0 };
    h.black = "Black]\\";
    h.white = "White";
    h.date = "2026-11-30";
    h.result = "W+12.5";
    h.komi2 = 1;
    h.has_komi = true;
    char *text;
    size_t len;
    assert_int_equal(sgf_game_text(g, &h, &text, &len), 0);
    sgf_collection_t *col = NULL;
    assert_int_equal(sgf_parse(text, len, NULL, &col, NULL), 0);
    const sgf_node_t *root = col->games[0];
    assert_string_equal(sgf_node_value(root, "PB"), "Black]\\");
    assert_string_equal(sgf_node_value(root, "RE"), "W+12.5");
    assert_string_equal(sgf_node_value(root, "KM"), "0.5");
    assert_string_equal(sgf_node_value(root, "RU"), "Korean");
    assert_string_equal(sgf_node_value(root, "HA"), "3");
    assert_int_equal(sgf_node_find(root, "AB")->nvalues, 3);
    sgf_replay_t r;
    assert_int_equal(sgf_replay(root, NULL, &r, NULL), 0);
    assert_int_equal(r.nillegal, 0);
    assert_int_equal(r.komi2, 1);
    assert_int_equal(go_game_move_count(r.game), go_game_move_count(g));
    assert_memory_equal(go_game_board(r.game)->color, go_game_board(g)->color,
                        sizeof go_game_board(g)->color);
    assert_true(go_game_over(r.game));
    sgf_replay_fini(&r);
    sgf_collection_destroy(col);
    free(text);

    /* a resignation goes to RE when the header has none */
    go_game_t *g2 = go_game_create(9, &ko);
    assert_int_equal(go_game_play(g2, GO_BLACK, GO_PT(4, 4)), GO_OK);
    assert_int_equal(go_game_resign(g2, GO_WHITE), GO_OK);
    assert_int_equal(sgf_from_game(g2, NULL, &col), 0);
    assert_string_equal(sgf_node_value(col->games[0], "RE"), "B+R");
    assert_int_equal(sgf_node_nchildren(col->games[0]), 1);
    assert_null(col->games[0]->child->child);
    sgf_collection_destroy(col);
    go_game_destroy(g2);
    go_game_destroy(g);
}

/* KP[b:w]: the prisoners before the first move, written from the header and read back
 * into the game's board, moves adding to them; a KP that is not two counts is refused. */
static void test_prisoners_before_moves(void **state)
{
    (void)state;
    go_rules_t ja;
    assert_int_equal(go_rules_preset("japanese", &ja), GO_OK);
    go_game_t *g = go_game_create(9, &ja);
    assert_non_null(g);
    sgf_header_t h = { 0 };
    h.has_prisoners = true;
    h.prisoners[GO_BLACK] = 12;
    h.prisoners[GO_WHITE] = 7;
    char *text;
    size_t len;
    assert_int_equal(sgf_game_text(g, &h, &text, &len), 0);
    assert_non_null(strstr(text, "KP[12:7]"));
    sgf_collection_t *col = NULL;
    assert_int_equal(sgf_parse(text, len, NULL, &col, NULL), 0);
    sgf_replay_t r;
    assert_int_equal(sgf_replay(col->games[0], NULL, &r, NULL), 0);
    assert_int_equal(go_game_board(r.game)->prisoners[GO_BLACK], 12);
    assert_int_equal(go_game_board(r.game)->prisoners[GO_WHITE], 7);
    assert_int_equal(go_game_check(r.game), GO_OK);
    sgf_replay_fini(&r);
    sgf_collection_destroy(col);
    free(text);
    /* without has_prisoners: no KP */
    h.has_prisoners = false;
    assert_int_equal(sgf_game_text(g, &h, &text, &len), 0);
    assert_null(strstr(text, "KP["));
    free(text);
    go_game_destroy(g);

    /* moves add to them; a capture by Black makes 13 */
    assert_int_equal(replay("(;SZ[5]KP[12:7]AW[aa]AB[ba];W[ee];B[ab])", NULL, &r, NULL), 0);
    assert_int_equal(go_game_board(r.game)->prisoners[GO_BLACK], 13);
    assert_int_equal(go_game_board(r.game)->prisoners[GO_WHITE], 7);
    assert_int_equal(go_game_undo(r.game), GO_OK);
    assert_int_equal(go_game_board(r.game)->prisoners[GO_BLACK], 12);
    assert_int_equal(go_game_set_prisoners(r.game, 1, 1), GO_EINVAL);   /* after a move */
    sgf_replay_fini(&r);
    static const char *bad[] = { "(;SZ[5]KP[12])", "(;SZ[5]KP[-1:3])", "(;SZ[5]KP[3:4x])",
                                 "(;SZ[5]KP[100001:0])", "(;SZ[5]KP[])" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sgf_error_t err;
        memset(&err, 0, sizeof err);
        assert_int_equal(replay(bad[i], NULL, &r, &err), GO_EPARSE);
        assert_non_null(strstr(err.msg, "not the prisoners as b:w"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_game),
        cmocka_unit_test(test_defaults_and_sizes),
        cmocka_unit_test(test_bad_points),
        cmocka_unit_test(test_komi),
        cmocka_unit_test(test_handicap_komi),
        cmocka_unit_test(test_illegal_listed_and_tolerant),
        cmocka_unit_test(test_illegal_kinds),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_game_to_sgf_and_back),
        cmocka_unit_test(test_prisoners_before_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
