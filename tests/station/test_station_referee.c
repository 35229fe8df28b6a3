/* test_station_referee.c: the referee of the competition rules on scripted views: void
 * moves (occupied, suicide, ko, superko) counted as passes, two moves in a row, stones
 * removed without capture (warnings; two are a loss), cycles (triple ko) reported as a
 * possible draw or replay. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "station/stn_track.h"
#include "stn_testutil.h"
#include "stn_fixture.h"

static void test_void_occupied(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". . . . .\n"
                      ". . X . .\n"
                      ". . . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_WHITE, NULL);
    /* White puts a stone onto Black's cc */
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". . . . .\n"
                                 ". . O . .\n"
                                 ". . . . .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_VOID);
    assert_non_null(e);
    assert_int_equal(e->color, GO_WHITE);
    assert_non_null(strstr(e->msg, "occupied"));
    assert_int_equal(go_game_move_count(f.g), 1);
    assert_int_equal(go_game_move(f.g, 0)->kind, GO_MOVE_PASS);
    assert_non_null(stn_track_info(f.k, 0)->comment);
    e = stn_events_find(&f.ev, STN_EV_RESTORE);
    assert_non_null(e);
    assert_int_equal(e->points[0], st_pt(5, "cc"));
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), 0);
    /* taken back */
    assert_int_equal(fx_feed(&f, pos), 0);
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    assert_int_equal(go_game_turn(f.g), GO_BLACK);
    fx_close(&f);
}

static void test_void_suicide(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". X . . .\n"
                      "X . X . .\n"
                      ". X . . .\n"
                      ". . . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, ". X . . .\n"
                                 "X O X . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_VOID);
    assert_non_null(e);
    assert_non_null(strstr(e->msg, "suicide"));
    assert_int_equal(go_game_move(f.g, 0)->kind, GO_MOVE_PASS);
    assert_int_equal(go_game_move(f.g, 0)->color, GO_WHITE);
    assert_int_equal(stn_track_disagreements(f.k, NULL, 0), 1);
    fx_close(&f);
}

static void test_void_ko(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "chinese", ". X O . .\n"
                           "X . X O .\n"
                           ". X O . .\n"
                           ". . . . .\n"
                           ". . . . .\n",
            GO_WHITE, NULL);
    const char *taken = ". X O . .\n"
                        "X O . O .\n"
                        ". X O . .\n"
                        ". . . . .\n"
                        ". . . . .\n";
    assert_int_equal(fx_feed(&f, taken), 1);
    assert_int_equal(stn_events_find(&f.ev, STN_EV_MOVE)->ncaptured, 1);
    /* Black retakes at once: void, a pass; removing bb was part of it (no warning) */
    assert_int_equal(fx_feed(&f, ". X O . .\n"
                                 "X . X O .\n"
                                 ". X O . .\n"
                                 ". . . . .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_VOID);
    assert_non_null(e);
    assert_non_null(strstr(e->msg, "ko"));
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_MOVED), 0);
    assert_int_equal(stn_track_disagreements(f.k, NULL, 0), 2);
    assert_int_equal(go_game_move(f.g, 1)->kind, GO_MOVE_PASS);
    /* put right */
    assert_int_equal(fx_feed(&f, taken), 0);
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    assert_int_equal(go_game_turn(f.g), GO_WHITE);
    fx_close(&f);
}

/* A void move right after a pass (Chinese rules: the end is the players' confirmation,
 * rule 4 of the end; a void move is a forfeit, not a signal): the game goes on, the pass
 * and the forfeit are left out of the move list (they change neither board nor turn).
 * Under the Japanese rules (or end_by_signals 0) it is a second pass: the game ends. */
static void void_after_pass(const char *rules, int end_by_signals, int expect_over)
{
    fx_t f;
    const char *pos = ". X . . .\n"
                      "X . X . .\n"
                      ". X . . .\n"
                      ". . . . .\n"
                      ". . . . .\n";
    stn_track_config_t cfg;
    stn_track_defaults(&cfg);
    cfg.end_by_signals = end_by_signals;
    fx_open(&f, rules, pos, GO_BLACK, &cfg);
    assert_int_equal(stn_track_pass(f.k, GO_EMPTY, 1.0, &f.ev), GO_OK);
    assert_int_equal(go_game_move_count(f.g), 1);
    /* White plays into Black's eye: suicide, void */
    const char *bad = ". X . . .\n"
                      "X O X . .\n"
                      ". X . . .\n"
                      ". . . . .\n"
                      ". . . . .\n";
    fx_feed(&f, bad);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_VOID);
    assert_non_null(e);
    assert_int_equal(e->color, GO_WHITE);
    assert_int_equal(go_game_check(f.g), GO_OK);
    assert_int_equal(go_game_over(f.g), expect_over);
    if (expect_over) {
        assert_int_equal(go_game_move_count(f.g), 2);
        fx_close(&f);
        return;
    }
    assert_non_null(strstr(e->msg, "does not end the game"));
    assert_int_equal(go_game_move_count(f.g), 0);
    assert_null(stn_track_info(f.k, 0));
    assert_int_equal(go_game_turn(f.g), GO_BLACK);
    assert_int_equal(stn_track_disagreements(f.k, NULL, 0), 1);
    /* the stone taken back, Black plays on: recorded */
    assert_int_equal(fx_feed(&f, pos), 0);
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    assert_int_equal(fx_feed(&f, ". X . . .\n"
                                 "X . X . .\n"
                                 ". X . . .\n"
                                 ". . . X .\n"
                                 ". . . . .\n"), 1);
    assert_int_equal(go_game_move_count(f.g), 1);
    assert_int_equal(go_game_move(f.g, 0)->color, GO_BLACK);
    assert_int_equal(go_game_move(f.g, 0)->point, st_pt(5, "dd"));
    assert_false(go_game_over(f.g));
    fx_close(&f);
}

static void test_void_after_pass_chinese(void **state)
{
    (void)state;
    void_after_pass("chinese", -1, 0);
    void_after_pass("japanese", 1, 0);
}

static void test_void_after_pass_ends_otherwise(void **state)
{
    (void)state;
    void_after_pass("japanese", -1, 1);
    void_after_pass("chinese", 0, 1);
}

static void test_two_in_a_row(void **state)
{
    (void)state;
    stn_track_config_t cfg;
    stn_track_defaults(&cfg);
    cfg.trust_colour = 1;
    fx_t f;
    const char *empty = ". . . . .\n"
                        ". . . . .\n"
                        ". . . . .\n"
                        ". . . . .\n"
                        ". . . . .\n";
    fx_open(&f, "chinese", empty, GO_BLACK, &cfg);
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". . . . .\n"
                                 ". . . . .\n"), 1);
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". . . X .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_TWO_IN_A_ROW);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    assert_int_equal(e->move, 2);
    assert_int_equal(go_game_move(f.g, 1)->color, GO_BLACK);
    assert_int_equal(go_game_turn(f.g), GO_WHITE);
    assert_non_null(strstr(stn_track_info(f.k, 1)->comment, "twice"));
    fx_close(&f);

    /* colours not trusted: a lone stone is a wrong colour, but two of one colour at
     * once cannot alternate: recorded in their colours; nobody saw them played one
     * after the other, so no two-in-a-row call (a note and an ambiguity instead) */
    fx_open(&f, "chinese", empty, GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". . . X .\n"
                                 ". . . . .\n"), 2);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_TWO_IN_A_ROW), 0);
    assert_true(stn_events_count(&f.ev, STN_EV_AMBIGUOUS) >= 1);
    assert_int_equal(go_game_move(f.g, 0)->color, GO_BLACK);
    assert_int_equal(go_game_move(f.g, 1)->color, GO_BLACK);
    assert_non_null(strstr(stn_track_info(f.k, 0)->comment, "appeared together"));
    fx_close(&f);
}

/* The real sequence of the gomrade photos: after Black's move, three white stones
 * appear between two photos. All three are White's (as seen), none is a loss; the next
 * black stone is Black's ordinary move. */
static void test_together_not_two_in_a_row(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "chinese", ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . X . . .\n"
            ". . . . . . .\n"
            ". . . . . . .\n"
            ". . . . . . .\n", GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". O . . . O .\n"
                                 ". . . . . . .\n"
                                 ". . . X . . .\n"
                                 ". . . . . . .\n"
                                 ". O . . . . .\n"
                                 ". . . . . . .\n"), 3);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_TWO_IN_A_ROW), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WRONG_COLOUR), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(go_game_move(f.g, i)->color, GO_WHITE);
    assert_int_equal(go_game_turn(f.g), GO_BLACK);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". O . . . O .\n"
                                 ". . . . . . .\n"
                                 ". . . X . . .\n"
                                 ". . . . . . .\n"
                                 ". O . . . X .\n"
                                 ". . . . . . .\n"), 1);
    assert_int_equal(go_game_move(f.g, 3)->color, GO_BLACK);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_TWO_IN_A_ROW), 0);
    fx_close(&f);
}

/* The renders' played-out game 02: White plays, and the hand knocks a white stone half a
 * line towards an empty point, read on both: two white stones appear together, recorded
 * in the colours seen. The knocked stone is put back as Black plays: the stone that went
 * was no move. The pair is taken back and the view read again: White's move, then
 * Black's; nothing called removed without capture, no warning. */
static void test_together_one_gone(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "chinese", ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . O . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . X .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n", GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . O . . . .\n"
                                 ". . O . . . .\n"
                                 ". . . . . X .\n"
                                 ". . . . O . .\n"
                                 ". . . . . . .\n"), 2);
    assert_true(stn_events_count(&f.ev, STN_EV_AMBIGUOUS) >= 1);
    assert_int_equal(go_game_move_count(f.g), 2);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . O . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . . . X .\n"
                                 ". . . . O . .\n"
                                 ". X . . . . .\n"), 2);
    const char *want[] = { "W ef", "B bg" };
    fx_expect_moves(&f, want, 2);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_TAKEBACK), 2);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_RESTORE), 0);
    assert_int_equal(go_game_turn(f.g), GO_WHITE);
    fx_close(&f);
}

/* The whole demo game's move 282: a white stone read in the corner together with White's
 * move, recorded as two White moves; Black plays; the stray stone goes only as White
 * plays again. The pair and Black's move are taken back and the view read again: White,
 * Black, White, and nothing called removed without capture. */
static void test_together_gone_later(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "chinese", ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . X . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n", GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, "O . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . X . . .\n"
                                 ". . . . . O .\n"
                                 ". . . . . . .\n"
                                 ". . . . . . .\n"), 2);
    assert_int_equal(fx_feed(&f, "O . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . X . . .\n"
                                 ". . . . . O .\n"
                                 ". . . . . X .\n"
                                 ". . . . . . .\n"), 1);
    fx_feed(&f, ". . . . . . .\n"
                ". . . . . . .\n"
                ". . . . . . .\n"
                ". . . X . . .\n"
                ". . . . . O .\n"
                ". . . . . X .\n"
                ". O . . . . .\n");
    assert_int_equal(go_game_move_count(f.g), 3);
    assert_int_equal(go_game_move(f.g, 0)->color, GO_WHITE);
    assert_int_equal(go_game_move(f.g, 0)->point, st_pt(7, "fe"));
    assert_int_equal(go_game_move(f.g, 1)->point, st_pt(7, "ff"));
    assert_int_equal(go_game_move(f.g, 2)->point, st_pt(7, "bg"));
    assert_int_equal(stn_events_count(&f.ev, STN_EV_MOVED), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_RESTORE), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), 0);
    assert_int_equal(go_game_turn(f.g), GO_BLACK);
    fx_close(&f);
}

/* The renders' played-out game 09: under a hand, two black stones are read at once, one
 * of them where a white stone would have been captured at once: recorded as Black's
 * move, a White move not seen, and Black's capture. The stone read by mistake goes: its
 * move is taken back, and the white stone it captured, played in that same view and
 * never seen on the board, is not asked back: its move is taken back too. */
static void test_unseen_in_one_view_gone(void **state)
{
    (void)state;
    fx_t f;
    fx_open(&f, "chinese", ". X . . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . O . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n"
                           ". . . . . . .\n", GO_BLACK, NULL);
    fx_feed(&f, ". X . . . . .\n"
                "X . . . . . .\n"
                ". . . . . . .\n"
                ". . . O . . .\n"
                ". . . . . X .\n"
                ". . . . . . .\n"
                ". . . . . . .\n");
    int n1 = go_game_move_count(f.g);
    assert_true(n1 >= 1);
    fx_feed(&f, ". X . . . . .\n"
                ". . . . . . .\n"
                ". . . . . . .\n"
                ". . . O . . .\n"
                ". . . . . X .\n"
                ". . . . . . .\n"
                ". . . . . . .\n");
    print_message("unseen: %d moves after the first view\n", n1);
    const char *want[] = { "B fe" };
    fx_expect_moves(&f, want, 1);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_RESTORE), 0);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), 0);
    assert_int_equal(go_game_turn(f.g), GO_WHITE);
    fx_close(&f);
}

/* Three stones at once, two of the side to move and one of the other: alternation
 * gives B, W, B (never W twice or B twice), whatever the order they were read in. */
static void test_together_alternates(void **state)
{
    (void)state;
    fx_t f;
    const char *empty = ". . . . . . .\n"
                        ". . . . . . .\n"
                        ". . . . . . .\n"
                        ". . . . . . .\n"
                        ". . . . . . .\n"
                        ". . . . . . .\n"
                        ". . . . . . .\n";
    fx_open(&f, "chinese", empty, GO_BLACK, NULL);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". O . . . X .\n"
                                 ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". X . . . . .\n"
                                 ". . . . . . .\n"), 3);
    assert_int_equal(go_game_move(f.g, 0)->color, GO_BLACK);
    assert_int_equal(go_game_move(f.g, 1)->color, GO_WHITE);
    assert_int_equal(go_game_move(f.g, 2)->color, GO_BLACK);
    assert_int_equal(stn_events_count(&f.ev, STN_EV_TWO_IN_A_ROW), 0);
    assert_int_equal(go_game_turn(f.g), GO_WHITE);
    fx_close(&f);
}

static void test_removed_twice_is_a_loss(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". X . O .\n"
                      ". . . . .\n"
                      ". O . . .\n"
                      ". . . . .\n";
    const char *gone = ". . . . .\n"
                       ". X . . .\n"
                       ". . . . .\n"
                       ". O . . .\n"
                       ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_BLACK, NULL);
    assert_int_equal(fx_feed(&f, gone), 0);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_MOVED);
    assert_non_null(e);
    assert_int_equal(e->points[0], st_pt(5, "db"));
    assert_non_null(stn_events_find(&f.ev, STN_EV_RESTORE));   /* the restore at once */
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));       /* the warning waits */
    assert_int_equal(stn_track_held(f.k), 1);
    /* still missing after the grace: the warning */
    fx_wait(&f, 3.0);
    assert_int_equal(fx_feed(&f, gone), 0);
    e = stn_events_find(&f.ev, STN_EV_WARNING);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK), 1);
    assert_int_equal(stn_track_held(f.k), 0);
    assert_null(stn_events_find(&f.ev, STN_EV_LOSS));
    /* still missing: no second warning for the same stone */
    fx_wait(&f, 3.0);
    assert_int_equal(fx_feed(&f, gone), 0);
    assert_int_equal(f.ev.n, 0);
    /* restored */
    assert_int_equal(fx_feed(&f, pos), 0);
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    /* a second time, not put back: a loss */
    const char *gone2 = ". . . . .\n"
                        ". X . O .\n"
                        ". . . . .\n"
                        ". . . . .\n"
                        ". . . . .\n";
    assert_int_equal(fx_feed(&f, gone2), 0);
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    fx_wait(&f, 3.0);
    assert_int_equal(fx_feed(&f, gone2), 0);
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK), 2);
    e = stn_events_find(&f.ev, STN_EV_LOSS);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    assert_int_equal(go_game_move_count(f.g), 0);
    fx_close(&f);
}

/* A stone knocked off its point (read empty, or on the next point) and put back within
 * the grace is an accident: the restore is asked at once, then a note, no warning; twice
 * in a game is no loss. With no grace (warn_grace_s 0) the same is two warnings. */
static void test_bump_put_back_is_no_warning(void **state)
{
    (void)state;
    const char *pos = ". . . . . .\n"
                      ". X . O . .\n"
                      ". . . . . .\n"
                      ". O . . . .\n"
                      ". . . . . .\n"
                      ". . . . . .\n";
    for (int grace = 1; grace >= 0; grace--) {
        stn_track_config_t cfg;
        stn_track_defaults(&cfg);
        if (!grace)
            cfg.warn_grace_s = 0.0;
        fx_t f;
        fx_open(&f, "chinese", pos, GO_BLACK, &cfg);
        /* Black plays ee and knocks White's db off its point (read empty) */
        const char *m1 = ". . . . . .\n"
                         ". X . . . .\n"
                         ". . . . . .\n"
                         ". O . . . .\n"
                         ". . . . X .\n"
                         ". . . . . .\n";
        assert_int_equal(fx_feed(&f, m1), 1);
        assert_non_null(stn_events_find(&f.ev, STN_EV_RESTORE));
        assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), grace ? 0 : 1);
        /* pushed back 1.5 s later */
        fx_wait(&f, 1.2);
        const char *back = ". . . . . .\n"
                           ". X . O . .\n"
                           ". . . . . .\n"
                           ". O . . . .\n"
                           ". . . . X .\n"
                           ". . . . . .\n";
        assert_int_equal(fx_feed(&f, back), 0);
        assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
        assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
        assert_int_equal(stn_track_held(f.k), 0);
        if (grace) {
            const stn_move_info_t *in = stn_track_info(f.k, 0);
            assert_non_null(in);
            assert_non_null(in->comment);
            assert_non_null(strstr(in->comment, "no warning"));
        }
        /* White plays cc, Black answers at ce and slides White's cc to dc on the way
         * (a nudge): put back in time, again no warning */
        const char *m2 = ". . . . . .\n"
                         ". X . O . .\n"
                         ". . O . . .\n"
                         ". O . . . .\n"
                         ". . . . X .\n"
                         ". . . . . .\n";
        assert_int_equal(fx_feed(&f, m2), 1);
        const char *m3 = ". . . . . .\n"
                         ". X . O . .\n"
                         ". . . O . .\n"
                         ". O . . . .\n"
                         ". . X . X .\n"
                         ". . . . . .\n";
        assert_int_equal(fx_feed(&f, m3), 1);
        assert_non_null(stn_events_find(&f.ev, STN_EV_MOVED));
        assert_int_equal(stn_events_count(&f.ev, STN_EV_WARNING), grace ? 0 : 1);
        const char *m3b = ". . . . . .\n"
                          ". X . O . .\n"
                          ". . O . . .\n"
                          ". O . . . .\n"
                          ". . X . X .\n"
                          ". . . . . .\n";
        fx_wait(&f, 1.0);
        assert_int_equal(fx_feed(&f, m3b), 0);
        assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
        assert_int_equal(stn_track_warnings(f.k, GO_BLACK), grace ? 0 : 2);
        assert_int_equal(stn_events_count(&f.ev, STN_EV_LOSS), 0);
        if (!grace)
            assert_non_null(stn_track_info(f.k, 2)->comment);
        const char *want[] = { "B ee", "W cc", "B ce" };
        fx_expect_moves(&f, want, 3);
        fx_close(&f);
    }
}

/* A stone off its point when the opponent moves: the warning at once, grace or not. */
static void test_removed_then_opponent_moves_warns(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". X . O .\n"
                      ". . . . .\n"
                      ". O . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_BLACK, NULL);
    /* Black plays dd and takes White's db off */
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". O . X .\n"
                                 ". . . . .\n"), 1);
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    /* White plays cc 0.7 s later, db still missing: Black is warned */
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . O . .\n"
                                 ". O . X .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_WARNING);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    assert_int_equal(stn_track_held(f.k), 0);
    fx_close(&f);
}

/* White plays dd, capturing four stones, and its hand knocks its own ec off its point
 * (read empty); White then takes the dead stones off, two by two, 2 s apart, and puts
 * ec back 6 s after the knock: its turn was not over (it was still taking off what it
 * captured, Black had not moved), so ec went back "at once": no warning, to anyone (the
 * regression: ec "moved to dd", the dead stones "removed without capture", a warning to
 * each side). Ticks between the views as the station gives them on a settled board. */
static void test_knock_put_back_after_taking_dead(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . . . .\n"
                      ". . . . . . .\n"
                      ". O O . O . .\n"
                      "O X X . . . .\n"
                      "O X X O . . .\n"
                      ". O O . . . .\n"
                      ". . . . . . .\n";
    fx_open(&f, "chinese", pos, GO_WHITE, NULL);
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". O O . . . .\n"
                                 "O X X O . . .\n"
                                 "O X X O . . .\n"
                                 ". O O . . . .\n"
                                 ". . . . . . .\n"), 1);
    const char *want[] = { "W dd" };
    fx_expect_moves(&f, want, 1);
    assert_int_equal(stn_track_pending(f.k, NULL, 0), 4);
    assert_int_equal(stn_track_held(f.k), 1);
    const char *steps[] = {
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". O O . . . .\n"
        "O . . O . . .\n"
        "O X X O . . .\n"
        ". O O . . . .\n"
        ". . . . . . .\n",
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". O O . . . .\n"
        "O . . O . . .\n"
        "O . . O . . .\n"
        ". O O . . . .\n"
        ". . . . . . .\n",
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". O O . O . .\n"
        "O . . O . . .\n"
        "O . . O . . .\n"
        ". O O . . . .\n"
        ". . . . . . .\n",
    };
    for (int i = 0; i < 3; i++) {
        double t = f.frame / 30.0;
        stn_events_clear(&f.ev);
        assert_true(stn_track_tick(f.k, f.frame + 30, t + 1.0, &f.ev) >= 0);
        assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
        fx_wait(&f, 2.0);
        assert_int_equal(fx_feed(&f, steps[i]), 0);
        assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    }
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    assert_int_equal(stn_track_held(f.k), 0);
    assert_int_equal(stn_track_pending(f.k, NULL, 0), 0);
    fx_expect_moves(&f, want, 1);
    /* Black plays on: still no warning */
    assert_int_equal(fx_feed(&f, ". . . . . . .\n"
                                 ". . . . . . .\n"
                                 ". O O . O . .\n"
                                 "O . . O . . .\n"
                                 "O . . O . . .\n"
                                 ". O O . . X .\n"
                                 ". . . . . . .\n"), 1);
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK), 0);
    assert_int_equal(stn_track_warnings(f.k, GO_WHITE), 0);
    fx_close(&f);
}

/* A stone of the mover's colour knocked off next to its move and left off: the warning
 * goes to the hand that played (the mover), when the opponent moves. */
static void test_knocked_left_off_warns_mover(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". X . O .\n"
                      ". . . . .\n"
                      ". O . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_WHITE, NULL);
    /* White plays dc and knocks its own db off */
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . O .\n"
                                 ". O . . .\n"
                                 ". . . . .\n"), 1);
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    /* Black plays cc, db still off: White is warned */
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . X O .\n"
                                 ". O . . .\n"
                                 ". . . . .\n"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_WARNING);
    assert_non_null(e);
    assert_int_equal(e->color, GO_WHITE);
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK), 0);
    const char *want[] = { "W dc", "B cc" };
    fx_expect_moves(&f, want, 2);
    fx_close(&f);
}

/* A view (as fx_feed) where every point but those of `reached` (SGF points, space
 * separated) is marked unreached: a hand was over the board only there. */
static int feed_reached(fx_t *f, const char *d, const char *reached)
{
    stn_view_t v;
    f->frame += 10;
    st_view(&v, d, f->frame, f->frame / 30.0, f->frame / 30.0 - 0.2);
    for (int i = 0; i < v.size * v.size; i++)
        v.unreached[i] = 1;
    for (const char *r = reached; r[0] && r[1]; r += r[2] ? 3 : 2) {
        char pt[3] = { r[0], r[1], 0 };
        int p = st_pt(v.size, pt);
        v.unreached[GO_Y(p) * v.size + GO_X(p)] = 0;
    }
    return fx_view(f, &v);
}

/* A stone read gone where no hand reached since the last view (the hand played far from
 * it): a misread, the restore asked, no warning even when the opponent moves on; read
 * back, the board agrees. A stone gone where the hand was: the warning as before. */
static void test_gone_unreached_is_no_warning(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". X . O .\n"
                      ". . . . .\n"
                      ". O . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_BLACK, NULL);
    /* Black plays ee; db (far from the hand) read empty */
    assert_int_equal(feed_reached(&f, ". . . . .\n"
                                      ". X . . .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n",
                                  "ee ed de dd"), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_MOVED);
    assert_non_null(e);
    assert_int_equal(e->points[0], st_pt(5, "db"));
    assert_non_null(strstr(e->msg, "no hand"));
    assert_non_null(stn_events_find(&f.ev, STN_EV_RESTORE));
    assert_int_equal(stn_track_held(f.k), 0);
    /* White plays aa, db still read empty: no warning */
    assert_int_equal(feed_reached(&f, "O . . . .\n"
                                      ". X . . .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n",
                                  "aa ab ba bb"), 1);
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    fx_wait(&f, 3.0);
    assert_int_equal(feed_reached(&f, "O . . . X\n"
                                      ". X . . .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n",
                                  "ea eb"), 1);
    assert_null(stn_events_find(&f.ev, STN_EV_WARNING));
    const char *want[] = { "B ee", "W aa", "B ea" };
    fx_expect_moves(&f, want, 3);
    /* read back */
    assert_int_equal(feed_reached(&f, "O . . . X\n"
                                      ". X . O .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n", ""), 0);
    assert_non_null(stn_events_find(&f.ev, STN_EV_AGREES));
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK) + stn_track_warnings(f.k, GO_WHITE), 0);
    fx_close(&f);
    /* the hand was over db: a removal, warned when the opponent moves */
    fx_open(&f, "chinese", pos, GO_BLACK, NULL);
    assert_int_equal(feed_reached(&f, ". . . . .\n"
                                      ". X . . .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n",
                                  "ee ed de dd db"), 1);
    assert_int_equal(stn_track_held(f.k), 1);
    assert_int_equal(feed_reached(&f, "O . . . .\n"
                                      ". X . . .\n"
                                      ". . . . .\n"
                                      ". O . . .\n"
                                      ". . . . X\n",
                                  "aa ab ba bb"), 1);
    e = stn_events_find(&f.ev, STN_EV_WARNING);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    fx_close(&f);
}

/* Time passes with the board settled (no new view): stn_track_tick gives the warning once
 * the grace is over, not before. */
static void test_held_warning_by_tick(void **state)
{
    (void)state;
    fx_t f;
    const char *pos = ". . . . .\n"
                      ". X . O .\n"
                      ". . . . .\n"
                      ". O . . .\n"
                      ". . . . .\n";
    fx_open(&f, "chinese", pos, GO_BLACK, NULL);
    assert_int_equal(fx_feed(&f, ". . . . .\n"
                                 ". X . . .\n"
                                 ". . . . .\n"
                                 ". O . . .\n"
                                 ". . . . .\n"), 0);
    double t = f.frame / 30.0;
    stn_events_clear(&f.ev);
    assert_int_equal(stn_track_tick(f.k, f.frame + 30, t + 1.0, &f.ev), 0);
    assert_int_equal(f.ev.n, 0);
    assert_int_equal(stn_track_tick(f.k, f.frame + 80, t + 2.6, &f.ev), 1);
    const stn_event_t *e = stn_events_find(&f.ev, STN_EV_WARNING);
    assert_non_null(e);
    assert_int_equal(e->color, GO_BLACK);
    assert_int_equal(e->frame, f.frame + 80);
    assert_int_equal(stn_track_tick(f.k, f.frame + 90, t + 3.0, &f.ev), 0);
    assert_int_equal(stn_track_warnings(f.k, GO_BLACK), 1);
    fx_close(&f);
}

/* A triple ko (three kos on the left edge). */
static const char *const TRIPLE = ". X O . . . . . .\n"
                                  "X O . O . . . . .\n"
                                  ". X O . . . . . .\n"
                                  ". X O . . . . . .\n"
                                  "X . X O . . . . .\n"
                                  ". X O . . . . . .\n"
                                  ". X O . . . . . .\n"
                                  "X O . O . . . . .\n"
                                  ". X O . . . . . .\n";

static void test_triple_ko_cycle(void **state)
{
    (void)state;
    static const int cycle[6][3] = {
        { GO_BLACK, 2, 1 }, { GO_WHITE, 1, 4 }, { GO_BLACK, 2, 7 },
        { GO_WHITE, 1, 1 }, { GO_BLACK, 2, 4 }, { GO_WHITE, 1, 7 },
    };
    const char *rules[2] = { "japanese", "chinese" };
    for (int r = 0; r < 2; r++) {
        fx_t f;
        fx_open(&f, rules[r], TRIPLE, GO_BLACK, NULL);
        go_board_t ref;
        assert_int_equal(go_board_from_ascii(&ref, TRIPLE), GO_OK);
        for (int m = 0; m < 6; m++) {
            int p = GO_PT(cycle[m][1], cycle[m][2]);
            assert_int_equal(go_board_play(&ref, (go_color_t)cycle[m][0], p, NULL), GO_OK);
            stn_view_t v;
            st_view_board(&v, &ref, (uint64_t)(m + 1) * 10, m + 1.0);
            assert_int_equal(fx_view(&f, &v), 1);
            if (m < 5) {
                assert_int_equal(stn_events_count(&f.ev, STN_EV_MOVE), 1);
                assert_int_equal(stn_events_count(&f.ev, STN_EV_CYCLE), 0);
            }
        }
        const stn_event_t *e = stn_events_find(&f.ev, STN_EV_CYCLE);
        assert_non_null(e);
        assert_int_equal(e->move, 6);
        assert_non_null(strstr(e->msg, "draw or replay"));
        if (r == 0) {
            /* simple ko: the repetition is legal, recorded, and reported */
            assert_int_equal(go_game_move(f.g, 5)->kind, GO_MOVE_PLAY);
            assert_null(stn_events_find(&f.ev, STN_EV_VOID));
        } else {
            /* positional superko: void, a pass */
            assert_int_equal(go_game_move(f.g, 5)->kind, GO_MOVE_PASS);
            assert_non_null(stn_events_find(&f.ev, STN_EV_VOID));
        }
        fx_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_void_occupied),
        cmocka_unit_test(test_void_suicide),
        cmocka_unit_test(test_void_after_pass_chinese),
        cmocka_unit_test(test_void_after_pass_ends_otherwise),
        cmocka_unit_test(test_void_ko),
        cmocka_unit_test(test_two_in_a_row),
        cmocka_unit_test(test_together_not_two_in_a_row),
        cmocka_unit_test(test_together_alternates),
        cmocka_unit_test(test_together_one_gone),
        cmocka_unit_test(test_unseen_in_one_view_gone),
        cmocka_unit_test(test_together_gone_later),
        cmocka_unit_test(test_removed_twice_is_a_loss),
        cmocka_unit_test(test_bump_put_back_is_no_warning),
        cmocka_unit_test(test_removed_then_opponent_moves_warns),
        cmocka_unit_test(test_held_warning_by_tick),
        cmocka_unit_test(test_knock_put_back_after_taking_dead),
        cmocka_unit_test(test_knocked_left_off_warns_mover),
        cmocka_unit_test(test_gone_unreached_is_no_warning),
        cmocka_unit_test(test_triple_ko_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
