/* test_station_replay.c: real games recorded end to end through the station (stabiliser,
 * tracker, referee, record) from a simulated camera (stn_sim.h: hands, late captures, fast
 * play, flickers, bumps; different seeds): every record equals the source game move for
 * move, every move knows its frame and time, and the latency from the hand leaving the
 * board to the move being recorded stays within 0.5 s of footage time. Games that were
 * counted are then ended, counted by the station (proposal, both accept) and the result
 * compared with the recorded one. The five sample
 * games always run; 20 more from ../shared/data/games/tygem when it is present. */
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
#include "stn_sim.h"
#include "testutil.h"

static int g_counted, g_agreed;

/* Record the game of root through the station; assert the record equals it. */
static void record_game(const sgf_node_t *root, uint32_t seed, const char *sgf_path,
                        const char *label)
{
    sgf_replay_t r;
    assert_int_equal(sgf_replay(root, NULL, &r, NULL), GO_OK);
    int n = go_game_move_count(r.game);
    go_move_t *moves = malloc(sizeof *moves * (size_t)(n + 1));
    assert_non_null(moves);
    for (int i = 0; i < n; i++)
        moves[i] = *go_game_move(r.game, i);
    go_game_t *g0 = go_game_create(r.size, &r.rules);
    if (r.handicap > 0)
        assert_int_equal(go_game_handicap(g0, r.handicap), GO_OK);

    stn_config_t c;
    stn_config_defaults(&c);
    c.size = r.size;
    c.rules = r.rules.name;
    c.komi2 = r.komi2;
    c.handicap = r.handicap;
    c.sgf_path = sgf_path;
    c.date = "2026-11-30";
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    sim_opts_t o;
    if (getenv("STN_SEED"))
        seed += (uint32_t)atoi(getenv("STN_SEED"));
    sim_defaults(&o, seed);
    sim_stats_t *st = calloc(1, sizeof *st);
    assert_int_equal(sim_run(go_game_board(g0), moves, n, &o, s, st), 0);

    const go_game_t *g = stn_game(s);
    int nrec = go_game_move_count(g), want = 0;
    for (int i = 0; i < n; i++)
        want += moves[i].kind != GO_MOVE_RESIGN;
    if (nrec != want || getenv("STN_VERBOSE"))
        print_message("%s seed %u: %d moves recorded of %d; %d frames, %d fast, %d late, "
                      "%d flickers, %d bumps, %d takebacks, %d wrong colours, latency max %.3f s; "
                      "events: void %d, takeback %d, restore %d, unexplained %d, ambiguous %d\n",
                      label, seed, nrec, want, st->frames, st->fast, st->late, st->flickers,
                      st->bumps, st->takebacks, st->wrongcols, st->lat_max, st->events[STN_EV_VOID], st->events[STN_EV_TAKEBACK],
                      st->events[STN_EV_RESTORE], st->events[STN_EV_UNEXPLAINED],
                      st->events[STN_EV_AMBIGUOUS]);
    for (int i = 0; i < nrec && i < want; i++) {
        const go_move_t *a = go_game_move(g, i), *b = &moves[i];
        if (a->kind != b->kind || a->color != b->color || a->point != b->point) {
            char pa[3], pb[3];
            go_point_to_sgf(a->point, pa);
            go_point_to_sgf(b->point, pb);
            print_message("%s seed %u: move %d is %c %s, the source says %c %s\n", label, seed,
                          i + 1, a->color == GO_BLACK ? 'B' : 'W', pa,
                          b->color == GO_BLACK ? 'B' : 'W', pb);
            fail();
        }
        if (a->kind == GO_MOVE_PLAY)
            assert_true(stn_track_info(stn_tracker(s), i)->frame > 0);
    }
    assert_int_equal(nrec, want);
    assert_int_equal(st->events[STN_EV_VOID], 0);
    /* every takeback and wrong colour seen (a rare extra takeback is the tracker undoing
     * its own guess of an unseen move: the record stays exact) */
    assert_true(st->events[STN_EV_TAKEBACK] >= st->takebacks);
    assert_true(st->events[STN_EV_WRONG_COLOUR] >= st->wrongcols);
    assert_int_equal(st->events[STN_EV_UNEXPLAINED], 0);
    assert_int_equal(st->events[STN_EV_TWO_IN_A_ROW], 0);
    assert_true(st->lat_max <= 0.5);
    assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 0);
    if (sgf_path) {
        /* the file on disk holds the same game */
        stn_loaded_t l;
        assert_int_equal(stn_record_load(sgf_path, NULL, &l, NULL, 0), GO_OK);
        assert_int_equal(l.nmoves, want);
        for (int i = 0; i < want; i++)
            assert_int_equal(go_game_move(l.game, i)->point, moves[i].point);
        stn_loaded_fini(&l);
    }
    /* the end: both pass, the station proposes the dead stones, both accept; for a
     * counted record, compare the result with the recorded one */
    const char *re = sgf_node_value(root, "RE");
    if (re && !strchr(re, 'R') && go_game_resigned(g) == GO_EMPTY) {
        assert_int_equal(stn_end(s, 1e4), GO_OK);
        assert_int_equal(stn_phase(s), STN_PHASE_COUNT);
        assert_int_equal(stn_count_accept(s, GO_BLACK, 1e4), GO_OK);
        assert_int_equal(stn_count_accept(s, GO_WHITE, 1e4), GO_OK);
        assert_int_equal(stn_phase(s), STN_PHASE_DONE);
        g_counted++;
        g_agreed += strcmp(stn_meta(s)->result, re) == 0;
        if (getenv("STN_VERBOSE") || strcmp(stn_meta(s)->result, re) != 0)
            print_message("%s: counted %s, recorded %s\n", label, stn_meta(s)->result, re);
    }
    free(st);
    stn_destroy(s);
    go_game_destroy(g0);
    free(moves);
    sgf_replay_fini(&r);
}

static void test_sample_games(void **state)
{
    (void)state;
    g_counted = g_agreed = 0;
    static const char *const files[] = { "demo.sgf", "counted-w2.5.sgf", "counted-w0.5.sgf",
                                         "resign.sgf", "triple-ko.sgf" };
    for (int i = 0; i < 5; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/samples/games/%s", kc_source_dir(), files[i]);
        sgf_collection_t *c = NULL;
        assert_int_equal(sgf_parse_file(path, NULL, &c, NULL), GO_OK);
        char out[64] = "";
        const char *rec = NULL;
        if (i == 0) {
            /* one game also goes to disk, rewritten after every move */
            snprintf(out, sizeof out, "/tmp/kc-station-replay-%d.sgf", (int)getpid());
            rec = out;
        }
        record_game(c->games[0], 1000u + (uint32_t)i, rec, files[i]);
        if (rec)
            unlink(rec);
        sgf_collection_destroy(c);
    }
    /* the four counted samples: the count (rules/go_session.h, go_life.h: another
     * module's proposal, still being tuned) agrees with the recorded result */
    print_message("samples: %d/%d counted results agree with the record\n", g_agreed, g_counted);
    assert_int_equal(g_counted, 4);
    assert_true(g_agreed >= 3);
}

typedef struct pick {
    int want, got, every;
    uint32_t seed;
} pick_t;

static int pick_games(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    (void)charset;
    pick_t *p = ctx;
    if (index % p->every != 7 % p->every)
        return 0;
    if (getenv("STN_ONLY") && atoi(getenv("STN_ONLY")) != index) {
        p->got++;
        return p->got >= p->want ? 1 : 0;
    }
    char label[64];
    snprintf(label, sizeof label, "tygem game %d", index);
    record_game(root, p->seed + (uint32_t)index, NULL, label);
    return ++p->got >= p->want ? 1 : 0;
}

static void test_shared_games(void **state)
{
    (void)state;
    g_counted = g_agreed = 0;
    KC_REQUIRE_SHARED_DATA(data);
    char path[4200];
    snprintf(path, sizeof path, "%s/games/tygem/Kifu2005-11.sgf", data);
    size_t len;
    char *buf = kc_slurp(path, &len);
    assert_non_null(buf);
    pick_t p = { 20, 0, 181, 77 };
    if (getenv("STN_COUNT")) {   /* longer runs by hand: STN_COUNT=100 STN_SEED=5 */
        p.want = atoi(getenv("STN_COUNT"));
        p.every = 3700 / (p.want + 1);
    }
    sgf_parse_each(buf, len, NULL, pick_games, &p, NULL);
    free(buf);
    assert_int_equal(p.got, p.want);
    /* the count is the scoring module's (rules/go_session.h): reported, not asserted */
    print_message("shared games: %d/%d counted results agree with the record\n", g_agreed,
                  g_counted);
    assert_true(g_counted > 0);
}

/* The real frame sequence of ../shared/data/photos/gomrade (a game filmed by a fixed
 * camera), its true positions read as the views: every stone recorded with its colour
 * and point, captures taken, the game's board equal to the truth after every frame. The
 * sequence is not strictly alternating (White adds three stones between two frames): the
 * station records them in order and flags the moves out of turn. */
static void test_gomrade_sequence(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 19;
    c.date = "2026-11-30";
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    int moves = 0;
    for (int i = 0; i < 12; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/photos/gomrade/truth/gomrade_testing_sequence_%d.txt",
                 data, i);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        stn_view_t v;
        stn_view_init(&v, 19);
        int n = 0, ch;
        while ((ch = fgetc(f)) != EOF && n < 361)
            if (ch == '.' || ch == 'B' || ch == 'W')
                v.color[n++] = ch == 'B' ? GO_BLACK : ch == 'W' ? GO_WHITE : GO_EMPTY;
        fclose(f);
        assert_int_equal(n, 361);
        v.frame = (uint64_t)i + 1;
        v.t = v.t_clear = i + 1.0;
        int before = go_game_move_count(stn_game(s));
        assert_true(stn_feed_view(s, &v) >= 0);
        const go_game_t *g = stn_game(s);
        /* every new stone is recorded with its colour and point */
        for (int m = before; m < go_game_move_count(g); m++) {
            const go_move_t *mv = go_game_move(g, m);
            assert_int_equal(mv->kind, GO_MOVE_PLAY);
            assert_int_equal(v.color[GO_Y(mv->point) * 19 + GO_X(mv->point)], mv->color);
            moves++;
        }
        const go_board_t *b = go_game_board(g);
        for (int y = 0; y < 19; y++)
            for (int x = 0; x < 19; x++)
                assert_int_equal(b->color[GO_PT(x, y)], v.color[y * 19 + x]);
        assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 0);
    }
    print_message("gomrade sequence: %d moves recorded, board right after each of 12 frames\n",
                  moves);
    assert_int_equal(moves, 13);
    stn_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_games),
        cmocka_unit_test(test_shared_games),
        cmocka_unit_test(test_gomrade_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
