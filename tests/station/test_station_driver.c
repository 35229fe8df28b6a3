/* test_station_driver.c: the station as `kifucam record` drives it: views and console
 * actions through station.h, the end of the game (console passes, resignation), the count
 * (proposal, dead stones taken off the board, toggles, accepts, the result in the
 * record), undo out of the count, and the events' names. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "station/station.h"
#include "stn_testutil.h"

static uint64_t g_frame;

static int feed(stn_t *s, const char *d)
{
    stn_view_t v;
    g_frame += 10;
    st_view(&v, d, g_frame, g_frame / 30.0, g_frame / 30.0 - 0.2);
    int n = stn_feed_view(s, &v);
    assert_true(n >= 0);
    return n;
}

static const stn_event_t *find(const stn_t *s, stn_event_kind_t kind)
{
    int n;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == kind)
            return &ev[i];
    return NULL;
}

static stn_t *station5(const char *path)
{
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 5;
    c.rules = "chinese";
    c.sgf_path = path;
    c.date = "2026-11-30";
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    return s;
}

/* KM[] of a handicap game recorded without --komi: the rules' komi for it (Chinese 0,
 * Japanese 0.5); an even game keeps 7.5; a komi given wins. */
static void test_handicap_komi(void **state)
{
    (void)state;
    static const struct {
        const char *rules;
        int handicap, komi2, want;
    } cases[] = { { "chinese", 2, STN_KOMI_DEFAULT, 0 }, { "japanese", 3, STN_KOMI_DEFAULT, 1 },
                  { "chinese", 0, STN_KOMI_DEFAULT, 15 }, { "chinese", 2, 11, 11 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stn_config_t c;
        stn_config_defaults(&c);
        c.size = 9;
        c.rules = cases[i].rules;
        c.handicap = cases[i].handicap;
        c.komi2 = cases[i].komi2;
        c.date = "2026-11-30";
        int err = 0;
        stn_t *s = stn_create(&c, &err);
        assert_non_null(s);
        assert_int_equal(stn_meta(s)->komi2, cases[i].want);
        stn_destroy(s);
    }
}

/* Black walls column b, White column c, then White invades at ac: dead. */
static void play_walls(stn_t *s)
{
    static const char *const seq[] = {
        ". X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. X . . .\n. . . . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. . . . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. X . . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. X O . .\n. . . . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. X O . .\n. X . . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. X O . .\n. X O . .\n. . . . .\n",
        ". X O . .\n. X O . .\n. X O . .\n. X O . .\n. X . . .\n",
        ". X O . .\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n",
    };
    for (int i = 0; i < 10; i++)
        assert_int_equal(feed(s, seq[i]) > 0, 1);
    assert_int_equal(stn_pass(s, 10.0), GO_OK);
    assert_non_null(find(s, STN_EV_PASS));
    feed(s, ". X O . .\n. X O . .\nO X O . .\n. X O . .\n. X O . .\n");
    assert_int_equal(go_game_move_count(stn_game(s)), 12);
}

static void test_count_by_taking_stones_off(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/kc-station-driver-%d.sgf", (int)getpid());
    stn_t *s = station5(path);
    play_walls(s);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);
    assert_int_equal(stn_end(s, 20.0), GO_OK);
    assert_true(go_game_over(stn_game(s)));
    assert_int_equal(stn_phase(s), STN_PHASE_COUNT);
    const stn_event_t *e = find(s, STN_EV_COUNT);
    assert_non_null(e);
    assert_non_null(stn_session(s));
    /* the players take the dead stone off: marked dead whatever was proposed */
    feed(s, ". X O . .\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n");
    assert_true(go_session_dead(stn_session(s))[GO_PT(0, 2)] != 0);
    /* no new moves are read during the count */
    assert_int_equal(go_game_move_count(stn_game(s)), 14);
    assert_int_equal(stn_count_accept(s, GO_BLACK, 21.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_COUNT);
    assert_int_equal(stn_count_accept(s, GO_WHITE, 22.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    e = find(s, STN_EV_RESULT);
    assert_non_null(e);
    /* Chinese area: Black 10, White 15, komi 7.5 */
    assert_string_equal(e->msg, "W+12.5");
    assert_string_equal(stn_meta(s)->result, "W+12.5");
    stn_loaded_t l;
    assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
    assert_string_equal(l.meta.result, "W+12.5");
    assert_int_equal(l.nmoves, 14);
    assert_non_null(l.comments[13]);   /* the count's story on the last move */
    stn_loaded_fini(&l);
    /* resuming a finished record: nothing to count */
    stn_destroy(s);
    stn_config_t c;
    stn_config_defaults(&c);
    c.resume_path = path;
    int err = 0;
    s = stn_create(&c, &err);
    assert_non_null(s);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    stn_destroy(s);
    unlink(path);
}

static void test_count_by_console_and_undo(void **state)
{
    (void)state;
    stn_t *s = station5(NULL);
    play_walls(s);
    assert_int_equal(stn_pass(s, 20.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);
    assert_int_equal(stn_pass(s, 21.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_COUNT);
    assert_non_null(find(s, STN_EV_END));
    const uint8_t *dead = go_session_dead(stn_session(s));
    int was = dead[GO_PT(0, 2)] != 0;
    assert_int_equal(stn_count_toggle(s, GO_PT(0, 2), GO_BLACK, 22.0), GO_OK);
    assert_int_equal(go_session_dead(stn_session(s))[GO_PT(0, 2)] != 0, !was);
    assert_int_equal(stn_count_toggle(s, GO_PT(3, 3), GO_BLACK, 22.0), GO_EINVAL);
    /* a player wants to go on: undo the last pass, back to play */
    assert_int_equal(stn_undo(s, 23.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);
    assert_null(stn_session(s));
    assert_int_equal(stn_count_accept(s, GO_BLACK, 24.0), GO_EINVAL);
    /* and resign instead: no count */
    assert_int_equal(stn_resign(s, GO_EMPTY, 25.0), GO_OK);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    assert_null(stn_session(s));
    char *text;
    assert_int_equal(stn_record_text(s, &text), GO_OK);
    assert_non_null(strstr(text, "RE[B+R]"));   /* White (to move) resigned */
    free(text);
    stn_destroy(s);
}

static void test_events_and_errors(void **state)
{
    (void)state;
    assert_string_equal(stn_event_kind_name(STN_EV_MOVE), "move");
    assert_string_equal(stn_event_kind_name(STN_EV_RESULT), "result");
    assert_string_equal(stn_event_kind_name(STN_EV_KIND_COUNT), "unknown");
    for (int k = 0; k < STN_EV_KIND_COUNT; k++)
        assert_string_not_equal(stn_event_kind_name((stn_event_kind_t)k), "unknown");
    stn_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = STN_EV_MOVE;
    ev.color = GO_BLACK;
    ev.move = 12;
    ev.npoints = 2;
    ev.points[0] = (go_point_t)GO_PT(16, 3);
    ev.points[1] = (go_point_t)GO_PT(16, 2);
    ev.t = 12.4;
    ev.t_hand = 12.15;
    ev.frame = 372;
    snprintf(ev.msg, sizeof ev.msg, "say \"hi\"\\");
    char js[512];
    int n = stn_event_json(&ev, js, sizeof js);
    assert_int_equal(n, (int)strlen(js));
    assert_string_equal(js, "{\"event\":\"move\",\"n\":12,\"color\":\"B\",\"point\":\"qd\","
                            "\"t\":12.400,\"frame\":372,\"latency\":0.250,"
                            "\"points\":[\"qd\",\"qc\"],\"audience\":\"viewer\","
                            "\"msg\":\"say \\\"hi\\\"\\\\\"}");
    char small[10];
    assert_int_equal(stn_event_json(&ev, small, sizeof small), n);
    assert_int_equal(strlen(small), 9);
    /* who each kind is for: housekeeping for the arbiter, the game for the viewers */
    static const stn_event_kind_t arbiter[] = {
        STN_EV_RESTORE, STN_EV_MOVED, STN_EV_AGREES, STN_EV_VOID, STN_EV_WRONG_COLOUR,
        STN_EV_UNEXPLAINED, STN_EV_BOARD_LOST, STN_EV_RECORD_ERROR, STN_EV_RECORD_OK
    };
    static const stn_event_kind_t viewer[] = {
        STN_EV_MOVE, STN_EV_PASS, STN_EV_RESIGN, STN_EV_END, STN_EV_TAKEBACK, STN_EV_COUNT,
        STN_EV_RESULT, STN_EV_CLOCK, STN_EV_LOSS
    };
    for (size_t i = 0; i < sizeof arbiter / sizeof arbiter[0]; i++)
        assert_string_equal(stn_event_audience(arbiter[i]), "arbiter");
    for (size_t i = 0; i < sizeof viewer / sizeof viewer[0]; i++)
        assert_string_equal(stn_event_audience(viewer[i]), "viewer");
    assert_string_equal(stn_event_audience(STN_EV_KIND_COUNT), "arbiter");
    ev.kind = STN_EV_RESTORE;
    stn_event_json(&ev, js, sizeof js);
    assert_non_null(strstr(js, "\"audience\":\"arbiter\""));
    stn_config_t c;
    stn_config_defaults(&c);
    int err = 0;
    c.size = 1;
    assert_null(stn_create(&c, &err));
    assert_int_equal(err, GO_EINVAL);
    c.size = 9;
    c.rules = "no-such-rules";
    assert_null(stn_create(&c, &err));
    assert_int_equal(err, GO_EINVAL);
    stn_destroy(NULL);
    /* a snapshot of the wrong size */
    c.rules = "japanese";
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    vis_snapshot_t *snap = calloc(1, sizeof *snap);
    snap->size = 13;
    assert_int_equal(stn_feed(s, snap), GO_EINVAL);
    snap->size = 9;
    snap->board_lost = 1;
    assert_int_equal(stn_feed(s, snap), 1);
    assert_non_null(find(s, STN_EV_BOARD_LOST));
    assert_int_equal(stn_feed(s, snap), 0);   /* reported once */
    free(snap);
    assert_int_equal(stn_stats(s).frames, 2);
    stn_destroy(s);
}

/* The removal gate: stones lifted with nothing new are hidden, not empty; a new stone
 * opens it; the last move's stone lifted alone is a takeback and passes. */
static void test_removal_gate(void **state)
{
    (void)state;
    stn_t *s = station5(NULL);
    feed(s, ". X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");
    feed(s, ". X O . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");
    feed(s, ". X O . .\n. . . . .\n. . . . .\n. . . . .\n. . . X .\n");
    assert_int_equal(go_game_move_count(stn_game(s)), 3);
    vis_snapshot_t *v = calloc(1, sizeof *v);
    assert_non_null(v);
    int ba = 1, ca = 2, de = 4 * 5 + 3;
    /* ba and ca lifted, nothing new: both hidden */
    st_snap(v, ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . X .\n", 0, 100, 5.0);
    stn_gate(s, v);
    assert_int_equal(v->occluded[ba], 1);
    assert_int_equal(v->occluded[ca], 1);
    assert_true(v->conf[ba] == 0 && v->conf[ca] == 0);
    assert_int_equal(v->occluded[de], 0);
    /* ... with the last move's stone too: all three */
    st_snap(v, ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", 0, 101, 5.1);
    stn_gate(s, v);
    assert_int_equal(v->occluded[ba] + v->occluded[ca] + v->occluded[de], 3);
    /* the last move's stone alone: a takeback, seen */
    st_snap(v, ". X O . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", 0, 102, 5.2);
    stn_gate(s, v);
    assert_int_equal(v->occluded[de], 0);
    /* a new stone besides: the game goes on, nothing hidden */
    st_snap(v, ". . O . .\n. . . . .\n. . X . .\n. . . . .\n. . . X .\n", 0, 103, 5.3);
    stn_gate(s, v);
    assert_int_equal(v->occluded[ba], 0);
    /* an unsure new stone is no new stone */
    st_snap(v, ". . O . .\n. . . . .\n. . ? . .\n. . . . .\n. . . X .\n", 0, 104, 5.4);
    v->color[2 * 5 + 2] = GO_BLACK;
    stn_gate(s, v);
    assert_int_equal(v->occluded[ba], 1);
    /* another size: untouched */
    memset(v, 0, sizeof *v);
    v->size = 9;
    stn_gate(s, v);
    assert_int_equal(v->occluded[0], 0);
    free(v);
    stn_destroy(s);
}

/* Frames through the stabiliser: a flicker is no move, a hand hides a move until it
 * leaves, a nudged stone pushed back is only a warning. */
static void test_frames_through_the_station(void **state)
{
    (void)state;
    stn_t *s = station5(NULL);
    vis_snapshot_t snap;
    uint64_t f = 0;
    const char *empty = ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    const char *one = ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n";
    const char *nudged = ". . . . .\n. . . . .\n. . . X .\n. . . . .\n. . . . .\n";
    int moves = 0;
    for (int i = 0; i < 10; i++, f++) {
        st_snap(&snap, empty, 0, f, f / 30.0);
        assert_true(stn_feed(s, &snap) >= 0);
    }
    /* a stone read for one frame */
    st_snap(&snap, one, 0, f, f / 30.0);
    f++;
    stn_feed(s, &snap);
    for (int i = 0; i < 10; i++, f++) {
        st_snap(&snap, empty, 0, f, f / 30.0);
        stn_feed(s, &snap);
    }
    assert_int_equal(go_game_move_count(stn_game(s)), 0);
    /* a hand comes in from the bottom and puts Black's stone at cc */
    static const char *const hand[] = {
        ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. # # . .\n",
        ". . . . .\n. . . . .\n. . . . .\n. # # # .\n. # # # .\n",
        ". . . . .\n. . . . .\n. # # # .\n. # # # .\n. # # # .\n",
        ". . . . .\n. . . . .\n. . X . .\n. # # # .\n. # # # .\n",
    };
    for (int h = 0; h < 4; h++)
        for (int r = 0; r < 3; r++, f++) {
            st_snap(&snap, hand[h], 1, f, f / 30.0);
            assert_int_equal(stn_feed(s, &snap), 0);
        }
    double left = f / 30.0;
    for (int i = 0; i < 10; i++, f++) {
        st_snap(&snap, one, 0, f, f / 30.0);
        assert_true(stn_feed(s, &snap) >= 0);
        const stn_event_t *e = find(s, STN_EV_MOVE);
        if (e) {
            moves++;
            assert_true(e->t_hand > left - 1e-9 && e->t_hand < left + 1e-9);
            assert_true(e->t - e->t_hand <= 0.5);
        }
    }
    assert_int_equal(moves, 1);
    /* bumped to the next point, then pushed back */
    for (int i = 0; i < 10; i++, f++) {
        st_snap(&snap, nudged, 0, f, f / 30.0);
        stn_feed(s, &snap);
    }
    assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 2);
    for (int i = 0; i < 10; i++, f++) {
        st_snap(&snap, one, 0, f, f / 30.0);
        stn_feed(s, &snap);
    }
    assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 0);
    assert_int_equal(go_game_move_count(stn_game(s)), 1);
    assert_int_equal(stn_stats(s).frames, f);
    stn_destroy(s);
}

/* Frames of one diagram from frame *f on, for seconds (30 fps); counts the warnings. */
static int frames_for(stn_t *s, const char *d, uint64_t *f, double seconds)
{
    vis_snapshot_t snap;
    int warnings = 0;
    for (int i = 0; i < (int)(seconds * 30.0 + 0.5); i++, (*f)++) {
        st_snap(&snap, d, 0, *f, *f / 30.0);
        assert_true(stn_feed(s, &snap) >= 0);
        warnings += find(s, STN_EV_WARNING) != NULL;
    }
    return warnings;
}

/* Through the stabiliser: a stone knocked off and pushed back within the grace is no
 * warning; one taken off and left off is warned once the grace is over, with the board
 * left as it is (no new view: the station's settled frames). */
static void test_held_warning_through_frames(void **state)
{
    (void)state;
    stn_t *s = station5(NULL);
    uint64_t f = 0;
    const char *empty = ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    const char *b1 = ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n";
    const char *w1 = ". . . . .\n. . . . .\n. . X . .\n. . . O .\n. . . . .\n";
    const char *b2 = ". . . . .\n. X . . .\n. . X . .\n. . . O .\n. . . . .\n";
    const char *b2_bumped = ". . . . .\n. X . . .\n. . . . .\n. . . O .\n. . . . .\n";
    assert_int_equal(frames_for(s, empty, &f, 0.5), 0);
    assert_int_equal(frames_for(s, b1, &f, 1.0), 0);
    assert_int_equal(frames_for(s, w1, &f, 1.0), 0);
    assert_int_equal(frames_for(s, b2, &f, 1.0), 0);
    assert_int_equal(go_game_move_count(stn_game(s)), 3);
    /* cc knocked off its point (read empty) for 1.5 s, then pushed back */
    assert_int_equal(frames_for(s, b2_bumped, &f, 1.5), 0);
    assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 1);
    assert_int_equal(frames_for(s, b2, &f, 5.0), 0);
    assert_int_equal(stn_track_disagreements(stn_tracker(s), NULL, 0), 0);
    assert_int_equal(stn_track_warnings(stn_tracker(s), GO_BLACK), 0);
    /* taken off and left off: one warning, after the grace, none before */
    assert_int_equal(frames_for(s, b2_bumped, &f, 2.0), 0);
    assert_int_equal(frames_for(s, b2_bumped, &f, 3.0), 1);
    assert_int_equal(stn_track_warnings(stn_tracker(s), GO_BLACK) +
                     stn_track_warnings(stn_tracker(s), GO_WHITE), 1);
    assert_int_equal(go_game_move_count(stn_game(s)), 3);
    stn_destroy(s);
}

/* White passed (his end signal) and Black played on: the black stone, read on White's
 * turn as White's move of the wrong colour, becomes White's pass and Black's move. */
static void test_pass_before_last(void **state)
{
    (void)state;
    char path[] = "/tmp/kc_passlast_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    stn_t *s = station5(path);
    assert_int_equal(stn_pass_before_last(s, 1.0), GO_EINVAL);   /* nothing seen yet */
    feed(s, ". . . . .\n. X . . .\n. . . . .\n. . . . .\n. . . . .\n");
    feed(s, ". . . . .\n. X . . .\n. . . . .\n. . . X .\n. . . . .\n");
    const go_game_t *g = stn_game(s);
    assert_int_equal(go_game_move_count(g), 2);
    assert_int_equal(go_game_move(g, 1)->color, GO_WHITE);   /* the turn's colour */
    assert_non_null(find(s, STN_EV_WRONG_COLOUR));
    assert_int_equal(stn_pass_before_last(s, 2.0), GO_OK);
    assert_int_equal(go_game_move_count(g), 3);
    assert_int_equal(go_game_move(g, 1)->kind, GO_MOVE_PASS);
    assert_int_equal(go_game_move(g, 1)->color, GO_WHITE);
    assert_int_equal(go_game_move(g, 2)->kind, GO_MOVE_PLAY);
    assert_int_equal(go_game_move(g, 2)->color, GO_BLACK);
    assert_int_equal(go_game_move(g, 2)->point, st_pt(5, "dd"));
    assert_null(find(s, STN_EV_WRONG_COLOUR));
    stn_destroy(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_by_taking_stones_off),
        cmocka_unit_test(test_removal_gate),
        cmocka_unit_test(test_pass_before_last),
        cmocka_unit_test(test_count_by_console_and_undo),
        cmocka_unit_test(test_events_and_errors),
        cmocka_unit_test(test_handicap_komi),
        cmocka_unit_test(test_frames_through_the_station),
        cmocka_unit_test(test_held_warning_through_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
