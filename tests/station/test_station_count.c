/* test_station_count.c: the same count everywhere (issue 20). The station's count at the
 * end of a recording and `kifucam score` on the record the station wrote must give the
 * same result: the station is driven through station.h with the views of a real game
 * (samples/games/demo.sgf, the first moves as `make demo` plays them, then two passes
 * and both players accepting the proposal, or a marking they changed), and the binary ctest names in KIFUCAM_BIN
 * scores the written SGF; its first line must be the station's RE[], which must also be
 * the record's RE[].
 *
 * Invariants: nothing here decides the count; the test only compares the two paths, on
 * an opening (most of the board an open border) and on a finished small game. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "station/station.h"
#include "station/stn_record.h"
#include "stn_testutil.h"

/* The view of board b, seen at frame f (t = f / 30 s, the hand gone 0.2 s before). */
static void board_view(stn_view_t *v, const go_board_t *b, uint64_t f)
{
    stn_view_init(v, b->size);
    v->frame = f;
    v->t = f / 30.0;
    v->t_clear = v->t - 0.2;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            v->color[y * b->size + x] = b->color[GO_PT(x, y)];
}

/* The first line `kifucam score PATH ARGS` prints (the result), into out. */
static void score_line(const char *path, const char *args, char *out, size_t len)
{
    const char *bin = getenv("KIFUCAM_BIN");
    char cmd[1024];
    assert_non_null(bin);
    snprintf(cmd, sizeof cmd, "'%s' score '%s' %s 2>&1", bin, path, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    out[0] = '\0';
    if (!fgets(out, (int)len, p))
        out[0] = '\0';
    char rest[512];
    while (fgets(rest, sizeof rest, p))
        ;
    assert_int_equal(pclose(p), 0);
    out[strcspn(out, "\n")] = '\0';
}

/* Record the first nmoves moves of the SGF text through the station (rules, komi2), pass
 * twice, accept the proposal; check the station's result against `score` on its record. */
static void same_count(const char *sgf, size_t sgflen, int nmoves, const char *rules,
                       int komi2, const char *toggle, const char *lift, const char *want)
{
    sgf_collection_t *col = NULL;
    sgf_error_t err;
    sgf_replay_t rep;
    assert_int_equal(sgf_parse(sgf, sgflen, NULL, &col, &err), 0);
    assert_int_equal(sgf_replay(col->games[0], NULL, &rep, &err), 0);
    int size = go_game_board(rep.game)->size;
    if (nmoves > go_game_move_count(rep.game))
        nmoves = go_game_move_count(rep.game);

    char path[128];
    snprintf(path, sizeof path, "/tmp/kc-station-count-%d.sgf", (int)getpid());
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = size;
    c.rules = rules;
    c.komi2 = komi2;
    c.sgf_path = path;
    c.date = "2026-12-01";
    int e = 0;
    stn_t *s = stn_create(&c, &e);
    assert_non_null(s);

    go_rules_t gr;
    assert_int_equal(go_rules_preset(rules, &gr), GO_OK);
    go_game_t *g = go_game_create(size, &gr);
    assert_non_null(g);
    uint64_t f = 30;
    stn_view_t v;
    for (int i = 0; i < nmoves; i++) {
        const go_move_t *m = go_game_move(rep.game, i);
        if (m->kind == GO_MOVE_PASS) {
            assert_int_equal(go_game_pass(g, m->color, true), GO_OK);
            assert_int_equal(stn_pass(s, f / 30.0), GO_OK);
        } else {
            assert_int_equal(go_game_play(g, m->color, m->point), GO_OK);
            board_view(&v, go_game_board(g), f);
            assert_true(stn_feed_view(s, &v) >= 0);
        }
        f += 30;
    }
    assert_int_equal(go_game_move_count(stn_game(s)), nmoves);
    if (stn_phase(s) == STN_PHASE_PLAY)
        assert_int_equal(stn_pass(s, f / 30.0), GO_OK);
    if (stn_phase(s) == STN_PHASE_PLAY)
        assert_int_equal(stn_pass(s, f / 30.0 + 1), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_COUNT);
    if (lift) {   /* the players take the chain at that point off the board: dead */
        go_board_t off = *go_game_board(g);
        int p0 = go_point_from_sgf(size, lift, 2);
        assert_true(off.color[p0] == GO_BLACK || off.color[p0] == GO_WHITE);
        for (int q = p0;;) {
            int nx = off.next[q];
            off.color[q] = GO_EMPTY;
            if (nx == p0)
                break;
            q = nx;
        }
        board_view(&v, &off, f + 30);
        assert_true(stn_feed_view(s, &v) >= 0);
        assert_true(go_session_dead(stn_session(s))[p0] != 0);
    }
    if (toggle)   /* the players change the proposal: the group at that point */
        assert_true(stn_count_toggle(s, go_point_from_sgf(size, toggle, 2), GO_BLACK,
                                     f / 30.0 + 1.5) >= 0);
    assert_int_equal(stn_count_accept(s, GO_BLACK, f / 30.0 + 2), GO_OK);
    assert_int_equal(stn_count_accept(s, GO_WHITE, f / 30.0 + 3), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    char station_re[32];
    snprintf(station_re, sizeof station_re, "%s", stn_meta(s)->result);
    int ndead = stn_meta(s)->ndead;
    if (lift)
        assert_true(ndead > 0);
    stn_destroy(s);

    stn_loaded_t l;
    assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
    char record_re[32];
    snprintf(record_re, sizeof record_re, "%s", l.meta.result);
    assert_int_equal(l.meta.ndead, ndead);   /* KD[] read back: a resume keeps it */
    stn_loaded_fini(&l);

    char scored[256];
    score_line(path, "", scored, sizeof scored);
    print_message("station %s, record RE[%s], kifucam score %s\n", station_re, record_re,
                  scored);
    assert_string_equal(record_re, station_re);
    assert_string_equal(scored, station_re);
    if (want)
        assert_string_equal(station_re, want);

    go_game_destroy(g);
    sgf_replay_fini(&rep);
    sgf_collection_destroy(col);
    unlink(path);
}

/* make demo: the demo game's first 60 moves, Korean rules, komi 6.5. The station counted
 * W+2.5 and `score` W+6.5 on the same record before the two shared one count. */
static void test_demo_opening(void **state)
{
    (void)state;
    const char *src = getenv("KIFUCAM_SOURCE");
    assert_non_null(src);
    char path[512];
    snprintf(path, sizeof path, "%s/samples/games/demo.sgf", src);
    char *text = NULL;
    size_t len = 0;
    sgf_error_t err;
    assert_int_equal(sgf_read_file(path, NULL, &text, &len, &err), 0);
    same_count(text, len, 60, "korean", 13, NULL, NULL, "W+6.5");
    /* the players take the white chain at N18 (mb) off, as `make demo`'s footage takes
     * stones off: `score` on the record counts what was agreed (KD[]), not a new proposal */
    same_count(text, len, 60, "korean", 13, NULL, "mb", NULL);
    free(text);
}

/* A finished 9x9 game (walls closed, a dead stone inside each area): the same count. */
static void test_finished_small_game(void **state)
{
    (void)state;
    static const char game[] =
        "(;GM[1]FF[4]SZ[9]"
        ";B[ea];W[fa];B[eb];W[fb];B[ec];W[fc];B[ed];W[fd];B[ee];W[fe];B[ef];W[ff]"
        ";B[eg];W[fg];B[eh];W[fh];B[ei];W[fi];B[hc];W[cc])";
    same_count(game, sizeof game - 1, 100, "chinese", 15, NULL, NULL, NULL);
    same_count(game, sizeof game - 1, 100, "chinese", 15, "hc", NULL, NULL);   /* hc alive */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_opening),
        cmocka_unit_test(test_finished_small_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
