/* test_station_signal.c: the end signals as the station's referee reads them
 * (station/stn_signal.c), scripted: readings of the four corners' patches (what vision's
 * vis_outside gives, one per side per frame), snapshots for the hands, views for the moves;
 * no pixels. A 5x5 board, Black's seat at the bottom (his corner point (4,4), lower right
 * as he sees it), White's at the top ((0,0)), 15 frames a second.
 *  - a reading must hold hold_s and 3 frames; unsure readings and frames under a hand
 *    neither start nor end a run; a flicker does;
 *  - a hand near the corner: the reading counts only quiet_s after it left;
 *  - the end by agreement: one end signal (awaited, told), then the other: the count;
 *  - a resignation waits resign_hold_s with no hand over the board, longer while the seats
 *    are a guess;
 *  - play going on makes a reading stale; the side to move's end signal followed by the
 *    opponent's stone is his pass (the move goes back, the pass goes in);
 *  - a signal stone put half on the board and read as a move is taken back;
 *  - the seats told by the two end signals on the other diagonal, and by the players' hands;
 *  - the end of a file with one end signal: the signaller's pass, unfinished;
 *  - the stones that mask the reader's samples. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "station/station.h"
#include "station/stn_signal.h"
#include "stn_testutil.h"

#define N 5
#define DT (1.0 / 15)
#define LOG_MAX 64

typedef struct ref {
    stn_t *s;
    stn_signal_t g;
    double t;
    uint64_t frame;
    int nlog;                  /* the referee's events so far */
    stn_event_t log[LOG_MAX];
} ref_t;

static void setup_ref(ref_t *r, int seats_known)
{
    memset(r, 0, sizeof *r);
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = N;
    c.date = "2026-12-03";
    int err = 0;
    r->s = stn_create(&c, &err);
    assert_non_null(r->s);
    assert_int_equal(stn_signal_init(&r->g, N, VIS_SIDE_BOTTOM, seats_known, NULL), GO_OK);
    stn_signal_reference(&r->g);
    r->t = 1.0;
}

static void teardown_ref(ref_t *r)
{
    stn_signal_fini(&r->g);
    stn_destroy(r->s);
}

static void keep(ref_t *r)
{
    int n = 0;
    const stn_event_t *ev = stn_signal_events(&r->g, &n);
    for (int i = 0; i < n && r->nlog < LOG_MAX; i++)
        r->log[r->nlog++] = ev[i];
}

/* Events of this kind logged so far whose message holds `part` (NULL: any). */
static int logged(const ref_t *r, stn_event_kind_t kind, const char *part)
{
    int k = 0;
    for (int i = 0; i < r->nlog; i++)
        k += r->log[i].kind == kind && (!part || strstr(r->log[i].msg, part));
    return k;
}

/* Readings by side: bottom (Black's corner), right, top (White's), left. */
static const int *rd4(int b, int rt, int tp, int lf)
{
    static int rd[4];
    rd[VIS_SIDE_BOTTOM] = b;
    rd[VIS_SIDE_RIGHT] = rt;
    rd[VIS_SIDE_TOP] = tp;
    rd[VIS_SIDE_LEFT] = lf;
    return rd;
}

/* One frame: a hand hiding board point `hand` (y*N+x, -1: nothing over the board), the
 * readings (ignored under a hand, as the reader gives none then), then what they mean.
 * Returns 1 when the game ended by the signals. */
static int frame(ref_t *r, const int *rd, int hand)
{
    vis_snapshot_t snap;
    memset(&snap, 0, sizeof snap);
    snap.size = N;
    snap.t = r->t;
    snap.frame = ++r->frame;
    if (hand >= 0) {
        snap.occluder = 1;
        snap.occluded[hand] = 1;
    }
    stn_signal_hands(&r->g, &snap);
    int ch = stn_signal_read(&r->g, r->s, snap.occluder ? NULL : rd, r->t);
    keep(r);
    int over = stn_signal_judge(&r->g, r->s, ch, stn_phase(r->s) == STN_PHASE_PLAY, 0, r->t);
    keep(r);
    r->t += DT;
    return over;
}

/* Frames for `secs` seconds with the same readings and no hand; 1 when the game ended. */
static int run(ref_t *r, const int *rd, double secs)
{
    int over = 0;
    int rdc[4];
    memcpy(rdc, rd, sizeof rdc);
    for (int i = 0; i < (int)(secs * 15 + 0.5); i++)
        over |= frame(r, rdc, -1);
    return over;
}

/* 12 frames of a white reading at Black's corner, a hand near the corner point (4,3) on
 * every other one (no reading then). */
static void white_under_hand(ref_t *r)
{
    for (int i = 0; i < 12; i++)
        frame(r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), i % 2 ? 3 * N + 4 : -1);
}

/* A move seen by the station (a stable view of the diagram), then the referee told. */
static void view(ref_t *r, const char *d)
{
    stn_view_t v;
    st_view(&v, d, ++r->frame, r->t, r->t - 0.2);
    assert_true(stn_feed_view(r->s, &v) >= 0);
    stn_signal_after_move(&r->g, r->s, r->t);
    keep(r);
}

/* A reading confirms after hold_s and 3 frames; unsure and hidden frames do not break the
 * run; a change of reading does. */
static void test_runs(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.4);
    double t0 = r.t;
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.4);
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_EMPTY);   /* 0.33 s held */
    run(&r, rd4(-1, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.2);         /* unsure: no break */
    frame(&r, rd4(GO_WHITE, 0, 0, 0), 3 * N + 3);                 /* a hand: no reading */
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.2);
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_WHITE);
    assert_true(r.g.corner[GO_BLACK].confirmed_since >= t0 - 1e-9 &&
                r.g.corner[GO_BLACK].confirmed_since < t0 + DT);
    /* a flicker (one frame of nothing) starts the run again: no un-confirming before
     * hold_s of nothing */
    frame(&r, rd4(GO_EMPTY, 0, 0, 0), -1);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.2);
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_WHITE);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.6);
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_EMPTY);
    assert_int_equal(go_game_move_count(stn_game(r.s)), 0);
    teardown_ref(&r);
}

/* Black (to move) signals the end: told, and White's signal awaited; White answers: the
 * game ends and the count begins. Nothing is recorded for the first alone. */
static void test_end_by_agreement(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    assert_int_equal(run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2), 0);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "signal: Black signals the end"), 1);
    assert_int_equal(logged(&r, STN_EV_END_AWAITED, "waiting for White's end signal (a black "
                                                    "stone beside White's corner)"), 1);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_WHITE);
    assert_int_equal(r.g.end_seat, GO_BLACK);   /* Black was to move: a pass if White plays */
    assert_int_equal(go_game_move_count(stn_game(r.s)), 0);
    assert_int_equal(run(&r, rd4(GO_WHITE, GO_EMPTY, GO_BLACK, GO_EMPTY), 1.2), 1);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "both end signals beside the board: the game "
                                               "ends"), 1);
    assert_int_equal(logged(&r, STN_EV_END, NULL), 1);
    assert_int_equal(stn_phase(r.s), STN_PHASE_COUNT);
    assert_true(go_game_over(stn_game(r.s)));
    teardown_ref(&r);
}

/* A hand at the corner: a reading under it, or just after it, counts only quiet_s after
 * the hand left (and 3 frames read with no hand there). */
static void test_hand_near_corner(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    /* the reading begins while a hand is near Black's corner (4,3) on alternate frames */
    white_under_hand(&r);
    double left = r.t - DT;
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_WHITE);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_EMPTY);   /* not yet: the hand */
    while (r.t - left < 0.45)
        frame(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), -1);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_EMPTY);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.2);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_WHITE);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 1);
    teardown_ref(&r);
}

/* White's own colour beside his corner: a resignation once it stayed resign_hold_s with
 * no hand over the board; a hand over the board starts the wait again. */
static void test_resignation_holds(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    assert_int_equal(run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_WHITE, GO_EMPTY), 1.2), 0);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "White's own colour beside his corner: a "
                                               "resignation if it stays"), 1);
    assert_int_equal(r.g.resign_wait, 1);
    /* a hand over the board (at the centre, far from the corners) */
    double hand = r.t;
    frame(&r, rd4(GO_EMPTY, GO_EMPTY, GO_WHITE, GO_EMPTY), 2 * N + 2);
    int over = 0;
    while (!over && r.t < hand + 3)
        over = frame(&r, rd4(GO_EMPTY, GO_EMPTY, GO_WHITE, GO_EMPTY), -1);
    assert_int_equal(over, 1);
    assert_true(r.t - DT >= hand + 2.0 - 1e-9 && r.t - DT < hand + 2.0 + 2 * DT);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "White put his own stone beside the board: "
                                               "resignation"), 1);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "a resignation if it stays"), 1); /* said once */
    assert_int_equal(logged(&r, STN_EV_RESIGN, NULL), 1);
    assert_int_equal(go_game_resigned(stn_game(r.s)), GO_WHITE);
    teardown_ref(&r);

    /* seats a guess: the wait is resign_guess_s */
    setup_ref(&r, 0);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    double t0 = r.t;
    over = 0;
    while (!over && r.t < t0 + 6)
        over = frame(&r, rd4(GO_BLACK, GO_EMPTY, GO_EMPTY, GO_EMPTY), -1);
    assert_int_equal(over, 1);
    assert_true(r.t - t0 >= 4.0 && r.t - t0 < 4.0 + 3 * DT);
    assert_int_equal(go_game_resigned(stn_game(r.s)), GO_BLACK);
    teardown_ref(&r);
}

/* Play goes on past a reading: a stone beside the corner while the players keep playing is
 * no signal (stale until the corner reads otherwise). */
static void test_play_goes_on(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n");   /* B cc */
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2);   /* out of turn: White's */
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 1);
    assert_int_equal(r.g.end_seat, GO_EMPTY);                    /* Black was not to move */
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . O . .\n. . . . .\n");   /* W cd */
    assert_int_equal(go_game_move_count(stn_game(r.s)), 2);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "play goes on: what lies beside Black's corner "
                                               "is no signal"), 1);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_EMPTY);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.0);   /* still there: stale */
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_EMPTY);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 1);
    /* taken away and put back: read again */
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.0);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_WHITE);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 2);
    teardown_ref(&r);
}

/* A reading confirmed but not yet settled when a move came (a hand's highlight beside
 * the corner) goes stale; the board is bumped and found again (the reference taken
 * afresh: the corner reads nothing); the player's real end signal later, confirmed and
 * settled on one frame, is read (it was masked as the stale one: a game's end was lost so,
 * `render demo.sgf --view above --seed 16 --moves 10 --end pass`). */
static void test_stale_reading_gone_then_signal(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    /* a white glint beside Black's corner while a hand is near it (every other frame) */
    white_under_hand(&r);
    assert_int_equal(r.g.corner[GO_BLACK].confirmed, GO_WHITE);   /* confirmed, not settled */
    assert_int_equal(r.g.quiet[GO_BLACK], GO_EMPTY);
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n");   /* B cc */
    assert_int_equal(r.g.stale[GO_BLACK], GO_WHITE);
    /* the board bumped and found again: the table's look taken again (the glint gone) */
    stn_signal_reference(&r.g);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.0);
    assert_int_equal(r.g.stale[GO_BLACK], GO_EMPTY);
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . O . .\n. . . . .\n");   /* W cd */
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2);     /* Black's end signal */
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_WHITE);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 1);
    assert_int_equal(run(&r, rd4(GO_WHITE, GO_EMPTY, GO_BLACK, GO_EMPTY), 1.2), 1);
    assert_int_equal(stn_phase(r.s), STN_PHASE_COUNT);
    teardown_ref(&r);
}

/* Black (to move) signals the end, and the next stone is White's (read as Black's, a
 * wrong colour): Black passed and White played on. */
static void test_pass_before_last(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2);
    assert_int_equal(r.g.end_seat, GO_BLACK);
    view(&r, ". . . . .\n. . . . .\n. . O . .\n. . . . .\n. . . . .\n");
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black's end signal was his pass: White played "
                                               "on"), 1);
    const go_game_t *g = stn_game(r.s);
    assert_int_equal(go_game_move_count(g), 2);
    assert_int_equal(go_game_move(g, 0)->kind, GO_MOVE_PASS);
    assert_int_equal(go_game_move(g, 0)->color, GO_BLACK);
    assert_int_equal(go_game_move(g, 1)->kind, GO_MOVE_PLAY);
    assert_int_equal(go_game_move(g, 1)->color, GO_WHITE);
    assert_int_equal(go_game_move(g, 1)->point, st_pt(N, "cc"));
    assert_int_equal(r.g.end_seat, GO_EMPTY);
    assert_int_equal(stn_signal_get(&r.g, GO_BLACK), GO_EMPTY);   /* spent */
    teardown_ref(&r);
}

/* White's end signal (a black stone) put half on the board at his corner and read as
 * Black's move there: when the reading comes, the move goes back. A move elsewhere is
 * never taken back. */
static void test_signal_stone_misread(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    view(&r, "X . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");   /* B aa */
    assert_int_equal(go_game_move_count(stn_game(r.s)), 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_BLACK, GO_EMPTY), 1.2);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "the stone read at A5 was the end signal beside "
                                               "the corner: move 1 taken back"), 1);
    assert_int_equal(logged(&r, STN_EV_TAKEBACK, NULL), 1);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "White signals the end"), 1);
    assert_int_equal(go_game_move_count(stn_game(r.s)), 0);
    teardown_ref(&r);

    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    view(&r, ". X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");   /* B ba: a line in */
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_BLACK, GO_EMPTY), 1.2);
    assert_int_equal(logged(&r, STN_EV_TAKEBACK, NULL), 0);
    assert_int_equal(go_game_move_count(stn_game(r.s)), 1);
    teardown_ref(&r);
}

/* No calibration: the two end signals on the other diagonal (a white stone beyond the
 * right side's corner, a black one beyond the left's) tell the seats: Black at the right. */
static void test_seats_from_other_diagonal(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 0);
    assert_int_equal(stn_signal_sides(&r.g), 0xfu);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    int over = run(&r, rd4(GO_EMPTY, GO_WHITE, GO_EMPTY, GO_BLACK), 2.0);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "the two end signals tell the seats: Black at the "
                                               "record's right side"), 1);
    assert_int_equal(stn_signal_black_side(&r.g), VIS_SIDE_RIGHT);
    assert_int_equal(r.g.seats_known, 1);
    assert_int_equal(stn_signal_sides(&r.g), 1u << VIS_SIDE_RIGHT | 1u << VIS_SIDE_LEFT);
    assert_int_equal(over, 1);
    assert_int_equal(stn_phase(r.s), STN_PHASE_COUNT);
    teardown_ref(&r);
}

/* An arm over row `row` of the board from x0 to x1 (inclusive) for `frames` frames (no
 * reading: the reader gives none under a hand). */
static void arm_row(ref_t *r, int row, int x0, int x1, int frames)
{
    for (int i = 0; i < frames; i++) {
        vis_snapshot_t snap;
        memset(&snap, 0, sizeof snap);
        snap.size = N;
        snap.t = r->t;
        snap.frame = ++r->frame;
        snap.occluder = 1;
        for (int x = x0; x <= x1; x++)
            snap.occluded[row * N + x] = 1;
        stn_signal_hands(&r->g, &snap);
        stn_signal_read(&r->g, r->s, NULL, r->t);
        keep(r);
        r->t += DT;
    }
}

/* No calibration, the camera beside a player (the seats' guess, Black at the bottom, is
 * wrong): each move's arm reaches from the player's side (Black's from the left, White's
 * from the right), so after three moves the hands tell the seats; Black's end signal (a
 * white stone at the left seat's corner) is then his, not a resignation of White's. An arm
 * that reaches no further than a line and a half tells nothing. */
static void test_seats_from_hands(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 0);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    arm_row(&r, 2, 0, 4, 6);   /* Black's arm from the left to (4,2) */
    view(&r, ". . . . .\n. . . . .\n. . . . X\n. . . . .\n. . . . .\n");
    assert_int_equal(r.g.seat_votes[GO_BLACK][VIS_SIDE_LEFT], 1);
    arm_row(&r, 2, 0, 4, 6);   /* White's from the right to (0,2) */
    view(&r, ". . . . .\n. . . . .\nO . . . X\n. . . . .\n. . . . .\n");
    assert_int_equal(r.g.seat_votes[GO_WHITE][VIS_SIDE_RIGHT], 1);
    assert_int_equal(r.g.seats_known, 0);
    arm_row(&r, 3, 3, 4, 6);   /* a short reach to (3,3): its centre half a line off */
    view(&r, ". . . . .\n. . . . .\nO . . . X\n. . . X .\n. . . . .\n");
    assert_int_equal(r.g.seats_known, 0);
    arm_row(&r, 1, 0, 4, 6);   /* White's from the right to (0,1): the third that tells */
    view(&r, ". . . . .\nO . . . .\nO . . . X\n. . . X .\n. . . . .\n");
    assert_int_equal(r.g.seats_known, 1);
    assert_int_equal(stn_signal_black_side(&r.g), VIS_SIDE_LEFT);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "the players' hands tell the seats: Black at "
                                               "the record's left side, White at the right"), 1);
    assert_int_equal(stn_signal_sides(&r.g), 1u << VIS_SIDE_LEFT | 1u << VIS_SIDE_RIGHT);
    /* Black (to move) puts his end signal at his corner: the end awaited, no resignation */
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_WHITE), 5.0);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black signals the end"), 1);
    assert_int_equal(go_game_resigned(stn_game(r.s)), GO_EMPTY);
    /* White's answers at hers: the game ends */
    assert_int_equal(run(&r, rd4(GO_EMPTY, GO_BLACK, GO_EMPTY, GO_WHITE), 1.5), 1);
    assert_int_equal(stn_phase(r.s), STN_PHASE_COUNT);
    teardown_ref(&r);

    /* with a calibration the seats stay its own, whatever the hands */
    setup_ref(&r, 1);
    for (int i = 0; i < 3; i++) {
        arm_row(&r, i, 0, 4, 6);
        view(&r, i == 0 ? ". . . . X\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
               : i == 1 ? ". . . . X\nO . . . .\n. . . . .\n. . . . .\n. . . . .\n"
                        : ". . . . X\nO . . . .\n. . . . X\n. . . . .\n. . . . .\n");
    }
    assert_int_equal(stn_signal_black_side(&r.g), VIS_SIDE_BOTTOM);
    assert_int_equal(logged(&r, STN_EV_SIGNAL, "hands tell the seats"), 0);
    teardown_ref(&r);
}

/* A file ends with Black's end signal alone, Black to move: his pass is recorded, the
 * game's end is not; with White to move, nothing is recorded. */
static void test_finish_one_signal(void **state)
{
    (void)state;
    for (int white_to_move = 0; white_to_move <= 1; white_to_move++) {
        ref_t r;
        setup_ref(&r, 1);
        if (white_to_move)
            view(&r, ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n");
        run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
        run(&r, rd4(GO_WHITE, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2);
        int n0 = go_game_move_count(stn_game(r.s));
        assert_int_equal(stn_signal_judge(&r.g, r.s, 0, 1, 1, r.t), 0);
        stn_unfinished_t u;
        memset(&u, 0, sizeof u);
        stn_signal_finish(&r.g, r.s, r.t, &u);
        keep(&r);
        assert_int_equal(u.unfinished, 1);
        assert_int_equal(u.signalled, GO_BLACK);
        assert_int_equal(u.missing, GO_WHITE);
        assert_int_equal(u.pass, !white_to_move);
        assert_int_equal(go_game_move_count(stn_game(r.s)), n0 + !white_to_move);
        assert_int_equal(logged(&r, STN_EV_SIGNAL, "Black's end signal: his pass recorded; "
                                                   "White's was not seen"), !white_to_move);
        teardown_ref(&r);
    }
}

/* A resignation waiting when the file ends stands (nobody took the stones back). */
static void test_finish_resignation_waiting(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    run(&r, rd4(GO_EMPTY, GO_EMPTY, GO_EMPTY, GO_EMPTY), 0.5);
    assert_int_equal(run(&r, rd4(GO_BLACK, GO_EMPTY, GO_EMPTY, GO_EMPTY), 1.2), 0);
    assert_int_equal(r.g.resign_wait, 1);
    assert_int_equal(stn_signal_judge(&r.g, r.s, 0, 1, 1, r.t), 1);
    keep(&r);
    assert_int_equal(go_game_resigned(stn_game(r.s)), GO_BLACK);
    assert_int_equal(logged(&r, STN_EV_RESIGN, NULL), 1);
    teardown_ref(&r);
}

/* The reader's mask: the record's stones, except a recent move at a signal point. */
static void test_stones_mask(void **state)
{
    (void)state;
    ref_t r;
    setup_ref(&r, 1);
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n");
    r.t += 1;
    view(&r, ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . O\n");   /* W ee: a corner */
    uint8_t st[N * N];
    assert_int_equal(stn_signal_stones(&r.g, r.s, r.t, st), GO_OK);
    assert_int_equal(st[2 * N + 2], 1);
    assert_int_equal(st[4 * N + 4], 0);   /* maybe a signal stone: the samples are read */
    assert_int_equal(stn_signal_stones(&r.g, r.s, r.t + 3.5, st), GO_OK);
    assert_int_equal(st[4 * N + 4], 1);
    stn_signal_t other;
    assert_int_equal(stn_signal_init(&other, 9, VIS_SIDE_BOTTOM, 1, NULL), GO_OK);
    assert_int_equal(stn_signal_stones(&other, r.s, r.t, st), GO_EINVAL);
    stn_signal_fini(&other);
    assert_int_equal(stn_signal_init(&other, 1, VIS_SIDE_BOTTOM, 1, NULL), GO_EINVAL);
    teardown_ref(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_end_by_agreement),
        cmocka_unit_test(test_hand_near_corner),
        cmocka_unit_test(test_resignation_holds),
        cmocka_unit_test(test_play_goes_on),
        cmocka_unit_test(test_stale_reading_gone_then_signal),
        cmocka_unit_test(test_pass_before_last),
        cmocka_unit_test(test_signal_stone_misread),
        cmocka_unit_test(test_seats_from_other_diagonal),
        cmocka_unit_test(test_seats_from_hands),
        cmocka_unit_test(test_finish_one_signal),
        cmocka_unit_test(test_finish_resignation_waiting),
        cmocka_unit_test(test_stones_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
