/* test_station_clock.c: the clock in the station, on simulated time (no waiting): the
 * views' t_clear (the hand leaving the board) drive the clock; TM/OT in the record's
 * header and BL/WL (OB/OW in byo-yomi) on every move; a loss on time ends the game with
 * B+T / W+T; the arbiter's pause, resume and adjust; a warning pauses the clock until the
 * board agrees again; the calls as events (zh and en); the clock JSON of the web state. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "station/station.h"
#include "stn_sim.h"
#include "stn_testutil.h"

#define E5 ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
#define M1 ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n"
#define M2 ". . . . .\n. . . . .\n. . X O .\n. . . . .\n. . . . .\n"
#define M3 ". . . . .\n. X . . .\n. . X O .\n. . . . .\n. . . . .\n"
#define M4 ". . . . .\n. X . . .\n. . X O .\n. . . O .\n. . . . .\n"

static uint64_t g_frame;

static stn_t *station(const char *tc)
{
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 5;
    c.rules = "chinese";
    c.date = "2026-11-30";
    c.time_control = tc;
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    return s;
}

/* A view seen 0.3 s after the hand left the board at t_clear. */
static int view_at(stn_t *s, const char *d, double t_clear)
{
    stn_view_t v;
    g_frame += 10;
    st_view(&v, d, g_frame, t_clear + 0.3, t_clear);
    int n = stn_feed_view(s, &v);
    assert_true(n >= 0);
    return n;
}

static int count(const stn_t *s, stn_event_kind_t kind)
{
    int n, k = 0;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        k += ev[i].kind == kind;
    return k;
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

static char *sgf(const stn_t *s)
{
    char *t = NULL;
    assert_int_equal(stn_record_text(s, &t), GO_OK);
    return t;
}

static void expect_time(const stn_t *s, int move, double left, int periods)
{
    const stn_move_info_t *in = stn_track_info(stn_tracker(s), move);
    assert_non_null(in);
    assert_true(in->has_time);
    if (in->time_left < left - 0.01 || in->time_left > left + 0.01)
        fail_msg("move %d: %.3f s left, expected %.3f", move + 1, in->time_left, left);
    assert_int_equal(in->periods_left, periods);
}

/* Main time: each side's clock runs from the opponent's hand leaving the board. */
static void test_moves_drive_the_clock(void **state)
{
    (void)state;
    stn_t *s = station("main=60s");
    view_at(s, E5, 0.0);                  /* the clock starts: Black to move */
    assert_int_equal(view_at(s, M1, 5.0), 1);
    expect_time(s, 0, 55.0, -1);
    assert_int_equal(view_at(s, M2, 12.5), 1);
    expect_time(s, 1, 52.5, -1);
    assert_int_equal(view_at(s, M3, 20.0), 2 - 1);
    expect_time(s, 2, 47.5, -1);
    char js[512];
    assert_true(stn_clock_json(s, 30.0, js, sizeof js) > 0);
    assert_non_null(strstr(js, "\"running\":\"W\""));
    assert_non_null(strstr(js, "\"W\":{\"left\":42.5"));
    assert_non_null(strstr(js, "\"text\":\"0:48\""));   /* Black: 47.5 s shown as 0:48 */
    char *t = sgf(s);
    assert_non_null(strstr(t, "TM[60]"));
    assert_non_null(strstr(t, "BL[55.0]"));
    assert_non_null(strstr(t, "WL[52.5]"));
    assert_non_null(strstr(t, "BL[47.5]"));
    assert_null(strstr(t, "OB["));
    free(t);
    stn_destroy(s);
}

/* Japanese byo-yomi: OB/OW on the moves in overtime, the calls as events. */
static void test_byoyomi_in_the_record(void **state)
{
    (void)state;
    stn_t *s = station("main=10s,byoyomi=3x30s");
    view_at(s, E5, 0.0);
    view_at(s, M1, 25.0);                 /* 10 s main, 15 s into the first period */
    expect_time(s, 0, 30.0, 3);           /* a period used in time costs nothing */
    view_at(s, M2, 26.0);
    expect_time(s, 1, 9.0, -1);           /* White still in main time */
    /* Black takes 45 s: main gone, one period used up */
    int n = view_at(s, M3, 71.0);
    assert_true(n >= 1);
    expect_time(s, 2, 30.0, 2);
    char *t = sgf(s);
    assert_non_null(strstr(t, "OT[3x30 byo-yomi]"));
    assert_non_null(strstr(t, "OB[3]"));
    assert_non_null(strstr(t, "OB[2]"));
    free(t);
    /* the calls of White's overtime came as events, with the Chinese text */
    stn_clock_tick(s, 71.0 + 9.0 + 30.0 + 0.5);   /* White: 9 s main, then 30.5 s */
    const stn_event_t *e = find(s, STN_EV_CLOCK);
    assert_non_null(e);
    assert_int_equal(e->color, GO_WHITE);
    assert_true(e->zh[0] != '\0');
    char line[512];
    stn_event_json(e, line, sizeof line);
    assert_non_null(strstr(line, "\"event\":\"clock\""));
    assert_non_null(strstr(line, "\"zh\":\""));
    stn_destroy(s);
}

/* A flag falls: the game ends on time (W+T), the record says so, views are not read. */
static void test_loss_on_time(void **state)
{
    (void)state;
    stn_t *s = station("main=30s");
    view_at(s, E5, 0.0);
    view_at(s, M1, 10.0);
    /* White thinks past 40 s: the view of White's late move */
    view_at(s, M2, 45.0);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    const stn_event_t *e = find(s, STN_EV_END);
    assert_non_null(e);
    assert_non_null(strstr(e->msg, "White loses on time"));
    assert_int_equal(go_game_move_count(stn_game(s)), 1);   /* the late stone: not a move */
    assert_string_equal(stn_meta(s)->result, "B+T");
    char *t = sgf(s);
    assert_non_null(strstr(t, "RE[B+T]"));
    free(t);
    assert_int_equal(view_at(s, M3, 50.0), 0);
    assert_int_equal(go_game_move_count(stn_game(s)), 1);
    assert_int_equal(stn_pass(s, 51.0), GO_EOVER);
    char js[512];
    stn_clock_json(s, 60.0, js, sizeof js);
    assert_non_null(strstr(js, "\"lost\":true"));
    stn_destroy(s);

    /* a tick between frames: the flag falls with no new view */
    s = station("main=20s");
    view_at(s, E5, 0.0);
    assert_true(stn_clock_tick(s, 19.0) >= 0);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);
    assert_true(stn_clock_tick(s, 20.5) > 0);
    assert_int_equal(stn_phase(s), STN_PHASE_DONE);
    assert_string_equal(stn_meta(s)->result, "W+T");
    stn_destroy(s);
}

/* The arbiter pauses (the time stops), resumes, and adjusts. */
static void test_pause_and_adjust(void **state)
{
    (void)state;
    stn_t *s = station("main=60s");
    view_at(s, E5, 0.0);
    assert_int_equal(stn_clock_pause(s, 10.0), GO_OK);
    assert_int_equal(count(s, STN_EV_CLOCK), 1);
    assert_int_equal(stn_clock_pause(s, 11.0), GO_ETURN);
    assert_true(stn_clock_tick(s, 100.0) >= 0);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);       /* no loss while paused */
    assert_int_equal(stn_clock_resume(s, 100.0), GO_OK);
    assert_int_equal(stn_clock_resume(s, 100.0), GO_ETURN);
    view_at(s, M1, 105.0);
    expect_time(s, 0, 45.0, -1);                          /* 10 + 5 s used */
    assert_int_equal(stn_clock_adjust(s, GO_WHITE, 30.0, 110.0), GO_OK);
    assert_non_null(find(s, STN_EV_CLOCK));
    view_at(s, M2, 120.0);
    expect_time(s, 1, 75.0, -1);                          /* 60 + 30 - 15 */
    assert_int_equal(stn_clock_adjust(s, GO_BLACK, -10.0, 121.0), GO_OK);
    assert_true(stn_clock_tick(s, 150.0) >= 0);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);       /* 45 - 1 - 10 = 34 s at 121 */
    assert_true(stn_clock_tick(s, 155.5) > 0);
    assert_string_equal(stn_meta(s)->result, "W+T");
    assert_int_equal(stn_clock_adjust(s, GO_EMPTY, 1.0, 130.0), GO_EOVER);
    stn_destroy(s);

    /* adjusted to nothing: the flag falls at once */
    s = station("main=60s");
    view_at(s, E5, 0.0);
    assert_int_equal(stn_clock_adjust(s, GO_BLACK, -70.0, 3.0), GO_OK);
    assert_non_null(find(s, STN_EV_END));
    assert_string_equal(stn_meta(s)->result, "W+T");
    stn_destroy(s);

    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 5;
    c.time_control = "main=lots";
    int err = 0;
    assert_null(stn_create(&c, &err));
    assert_int_equal(err, GO_EINVAL);
    s = station(NULL);
    assert_null(stn_clock(s));
    char js[64];
    assert_int_equal(stn_clock_json(s, 0.0, js, sizeof js), GO_EINVAL);
    assert_int_equal(stn_clock_pause(s, 1.0), GO_EINVAL);
    stn_destroy(s);
}

/* A warning (a stone removed without capture) stops the clock until the board agrees. */
static void test_warning_pauses(void **state)
{
    (void)state;
    stn_t *s = station("main=60s");
    view_at(s, E5, 0.0);
    view_at(s, M1, 2.0);
    view_at(s, M2, 4.0);
    view_at(s, M3, 6.0);
    view_at(s, M4, 8.0);                                   /* Black to move, 54 s left */
    /* White's stone at dc (not the last move) is taken off: the restore at once, the
     * clock runs through the warning's grace (2.5 s) */
    view_at(s, ". . . . .\n. X . . .\n. . X . .\n. . . O .\n. . . . .\n", 10.0);
    assert_int_equal(count(s, STN_EV_WARNING), 0);
    assert_false(clk_paused(stn_clock(s)));
    /* still off after it: a warning, the clock stops */
    view_at(s, ". . . . .\n. X . . .\n. . X . .\n. . . O .\n. . . . .\n", 13.0);
    assert_int_equal(count(s, STN_EV_WARNING), 1);
    assert_true(clk_paused(stn_clock(s)));
    stn_clock_tick(s, 200.0);
    assert_int_equal(stn_phase(s), STN_PHASE_PLAY);
    view_at(s, M4, 200.0);                                 /* put back */
    assert_non_null(find(s, STN_EV_AGREES));
    assert_false(clk_paused(stn_clock(s)));
    view_at(s, ". . . . .\n. X . . .\n. . X O .\n. . . O .\n. X . . .\n", 210.0);
    /* Black: 2 + 2 s before, 13.3 - 8 until the pause (the warning's view), 10 s after */
    const stn_move_info_t *in = stn_track_info(stn_tracker(s), 4);
    assert_non_null(in);
    assert_true(in->time_left > 60 - 4 - 5.3 - 10 - 0.5 && in->time_left < 60 - 4 - 5.3 - 10 + 0.5);
    stn_destroy(s);
}

/* A takeback gives the turn back: the clock runs for the side to move again. */
static void test_takeback_clock_follows(void **state)
{
    (void)state;
    stn_t *s = station("main=60s");
    view_at(s, E5, 0.0);
    view_at(s, M1, 5.0);
    assert_int_equal(clk_running(stn_clock(s)), GO_WHITE);
    assert_int_equal(stn_undo(s, 7.0), GO_OK);
    assert_int_equal(clk_running(stn_clock(s)), GO_BLACK);
    assert_int_equal(stn_pass(s, 9.0), GO_OK);               /* a pass is a move */
    assert_int_equal(clk_running(stn_clock(s)), GO_WHITE);
    expect_time(s, 0, 60.0 - 5.0 - 2.0, -1);
    stn_destroy(s);
}

/* Generated footage (the simulated camera: hands, late captures, fast play, flickers,
 * wrong colours): every move gets BL/WL, and each side's time left is the main time less
 * the sum of its thinking times measured between the hands leaving the board. */
static void test_footage_timestamps(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    go_move_t moves[80];
    int n = 0;
    uint32_t seed = 4242;
    for (int tries = 0; n < 70 && tries < 100000; tries++) {
        seed = seed * 1103515245u + 12345u;
        int p = GO_PT((int)((seed >> 8) % 9), (int)((seed >> 16) % 9));
        if (n == 40)
            p = GO_PASS;   /* a console pass is a move for the clock */
        if (p != GO_PASS && go_game_legal(g, go_game_turn(g), p) != GO_OK)
            continue;
        moves[n].kind = p == GO_PASS ? GO_MOVE_PASS : GO_MOVE_PLAY;
        moves[n].color = go_game_turn(g);
        moves[n].point = (go_point_t)p;
        moves[n].ncaptured = 0;
        if (p == GO_PASS)
            assert_int_equal(go_game_pass(g, go_game_turn(g), false), GO_OK);
        else
            assert_int_equal(go_game_play(g, go_game_turn(g), p), GO_OK);
        n++;
    }
    go_game_destroy(g);
    g = go_game_create(9, NULL);
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 9;
    c.time_control = "main=60m";
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    sim_opts_t o;
    sim_defaults(&o, 7);
    o.p_takeback = 0;   /* a takeback gives the turn back: the arithmetic below ignores it */
    o.p_bump = 0;       /* a moved stone is a warning: the clock stops */
    sim_stats_t *st = malloc(sizeof *st);
    assert_non_null(st);
    assert_int_equal(sim_run(go_game_board(g), moves, n, &o, s, st), 0);
    const go_game_t *rg = stn_game(s);
    assert_int_equal(go_game_move_count(rg), n);
    double used[3] = { 0, 0, 0 }, prev = 0.0;   /* the first frame is at 0 */
    for (int i = 0; i < n; i++) {
        const stn_move_info_t *in = stn_track_info(stn_tracker(s), i);
        const go_move_t *m = go_game_move(rg, i);
        assert_true(in->has_time);
        used[m->color] += in->t_hand - prev;
        prev = in->t_hand;
        double want = 3600.0 - used[m->color];
        if (in->time_left < want - 0.01 || in->time_left > want + 0.01)
            fail_msg("move %d: %.3f s left, expected %.3f", i + 1, in->time_left, want);
    }
    char *t = sgf(s);
    int nbl = 0, nwl = 0;
    for (const char *q = t; (q = strstr(q, "BL[")); q++)
        nbl++;
    for (const char *q = t; (q = strstr(q, "WL[")); q++)
        nwl++;
    assert_int_equal(nbl + nwl, n);
    free(t);
    if (getenv("STN_VERBOSE"))
        print_message("footage: %d moves, %d fast, %d late; Black used %.1f s, White %.1f s\n",
                      n, st->fast, st->late, used[GO_BLACK], used[GO_WHITE]);
    free(st);
    stn_destroy(s);
    go_game_destroy(g);
}

/* A resumed record continues each side's clock from its last BL/WL (and OB/OW). */
static void test_resume_keeps_the_times(void **state)
{
    (void)state;
    char path[] = "/tmp/kc_clock_resume_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 5;
    c.sgf_path = path;
    c.time_control = "main=10s,byoyomi=3x30s";
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    view_at(s, E5, 0.0);
    view_at(s, M1, 45.0);           /* Black: main gone, a period used: 2 left */
    view_at(s, M2, 47.0);           /* White: 8 s main left */
    expect_time(s, 0, 30.0, 2);
    expect_time(s, 1, 8.0, -1);
    stn_destroy(s);
    c.resume_path = path;
    s = stn_create(&c, &err);
    assert_non_null(s);
    expect_time(s, 0, 30.0, 2);
    expect_time(s, 1, 8.0, -1);
    view_at(s, M2, 100.0);          /* the clock starts again: Black to move */
    view_at(s, M3, 110.0);          /* 10 s of a 30 s period */
    expect_time(s, 2, 30.0, 2);
    view_at(s, M4, 115.0);          /* White: 8 - 5 */
    expect_time(s, 3, 3.0, -1);
    stn_destroy(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_drive_the_clock),
        cmocka_unit_test(test_byoyomi_in_the_record),
        cmocka_unit_test(test_loss_on_time),
        cmocka_unit_test(test_pause_and_adjust),
        cmocka_unit_test(test_warning_pauses),
        cmocka_unit_test(test_takeback_clock_follows),
        cmocka_unit_test(test_footage_timestamps),
        cmocka_unit_test(test_resume_keeps_the_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
