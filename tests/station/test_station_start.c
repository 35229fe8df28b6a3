/* test_station_start.c: how a recording begins (station/stn_start.h): the frame a resumed
 * game picks up at (after the last move's KF[] frame), the resumed board judged against
 * the record (agrees: go on; disagrees a while with enough in sight: refuse; a hidden
 * board: wait), and the handicap the stones before move 1 show (the standard placements
 * under the board's 8 symmetries; star points that are not one; anything else), and the
 * station taking a standard one as the handicap (HA[], AB[], White first) and naming
 * anything else in one plain message; and the end signals seen when the footage ends
 * (station/stn_finish.h): one of the two is an unfinished end, a pass for the side to
 * move. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "station/station.h"
#include "station/stn_finish.h"
#include "station/stn_start.h"
#include "stn_testutil.h"

/* ---- the resumed frame ---- */

static void test_resume_frame_after_last_kf(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    stn_track_t *k = stn_track_create(g, NULL);
    assert_non_null(k);
    uint64_t f = 77;
    assert_int_equal(stn_resume_frame(k, g, &f), GO_EEMPTY);   /* no move */
    assert_int_equal(f, 77);
    assert_int_equal(go_game_play(g, GO_BLACK, st_pt(9, "cc")), GO_OK);
    assert_int_equal(go_game_play(g, GO_WHITE, st_pt(9, "gg")), GO_OK);
    assert_int_equal(go_game_pass(g, GO_BLACK, false), GO_OK);
    assert_int_equal(stn_track_sync(k), GO_OK);
    assert_int_equal(stn_resume_frame(k, g, &f), GO_EEMPTY);   /* no KF[] in the record */
    assert_int_equal(stn_track_set_info(k, 0, 39, 1.3, 1.0), GO_OK);
    assert_int_equal(stn_track_set_info(k, 1, 81, 2.7, 2.4), GO_OK);
    assert_int_equal(stn_resume_frame(k, g, &f), GO_OK);
    assert_int_equal(f, 82);   /* the pass has no frame: the last move that has one */
    assert_int_equal(stn_track_set_info(k, 2, 120, 4.0, 4.0), GO_OK);
    assert_int_equal(stn_resume_frame(k, g, &f), GO_OK);
    assert_int_equal(f, 121);
    stn_track_destroy(k);
    go_game_destroy(g);
}

/* A camera's numbers continue after the largest frame and time any move names, not the
 * last move's (a takeback can leave an earlier move with a later frame). */
static void test_resume_last_is_the_largest(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    stn_track_t *k = stn_track_create(g, NULL);
    assert_non_null(k);
    uint64_t f = 5;
    double t = 9;
    assert_int_equal(stn_resume_last(k, g, &f, &t), GO_EEMPTY);   /* no move */
    assert_int_equal(go_game_play(g, GO_BLACK, st_pt(9, "cc")), GO_OK);
    assert_int_equal(go_game_play(g, GO_WHITE, st_pt(9, "gg")), GO_OK);
    assert_int_equal(stn_track_sync(k), GO_OK);
    assert_int_equal(stn_resume_last(k, g, &f, &t), GO_EEMPTY);   /* no KF[] */
    assert_int_equal(stn_track_set_info(k, 0, 300, 10.0, 9.5), GO_OK);
    assert_int_equal(stn_track_set_info(k, 1, 120, 12.5, 12.0), GO_OK);
    assert_int_equal(stn_resume_last(k, g, &f, &t), GO_OK);
    assert_int_equal(f, 300);             /* the largest frame ... */
    assert_true(fabs(t - 12.5) < 1e-9);   /* ... and the largest time, each its own */
    assert_int_equal(stn_resume_last(NULL, g, &f, &t), GO_EINVAL);
    stn_track_destroy(k);
    go_game_destroy(g);
}

/* ---- the resumed board judged ---- */

static stn_align_t al(int stones, int seen, int mismatch, int accept)
{
    stn_align_t a;
    memset(&a, 0, sizeof a);
    a.stones = stones;
    a.seen = seen;
    a.mismatch = a.missing = mismatch;
    a.accept = accept;
    return a;
}

static void test_resume_judge(void **state)
{
    (void)state;
    stn_resume_check_t c;
    stn_resume_check_init(&c, NULL);
    assert_true(c.par.refuse_s > 0 && c.par.refuse_views >= 2);
    stn_align_t bad = al(20, 20, 12, 0), hidden = al(20, 6, 2, 0), good = al(20, 20, 0, 1);
    /* a board mostly hidden says nothing */
    assert_int_equal(stn_resume_judge(&c, &hidden, 0.0), STN_RESUME_WAIT);
    assert_true(c.since < 0);
    /* disagreeing: wait refuse_s and refuse_views, then refuse, for good */
    assert_int_equal(stn_resume_judge(&c, &bad, 1.0), STN_RESUME_WAIT);
    assert_int_equal(stn_resume_judge(&c, &bad, 1.1), STN_RESUME_WAIT);
    assert_int_equal(stn_resume_judge(&c, &bad, 1.2), STN_RESUME_WAIT);   /* 3 views, 0.2 s */
    assert_int_equal(stn_resume_judge(&c, &bad, 2.0), STN_RESUME_REFUSE);
    assert_int_equal(c.last.mismatch, 12);
    assert_int_equal(stn_resume_judge(&c, &good, 2.1), STN_RESUME_REFUSE);

    /* a misread that clears: the agreeing view goes on, for good */
    stn_resume_check_init(&c, NULL);
    assert_int_equal(stn_resume_judge(&c, &bad, 0.0), STN_RESUME_WAIT);
    assert_int_equal(stn_resume_judge(&c, &good, 0.1), STN_RESUME_GO);
    assert_int_equal(stn_resume_judge(&c, &bad, 5.0), STN_RESUME_GO);

    /* the parameters are the caller's */
    stn_resume_params_t p = { 0.0, 1 };
    stn_resume_check_init(&c, &p);
    assert_int_equal(stn_resume_judge(&c, &bad, 0.0), STN_RESUME_REFUSE);
}

/* ---- the handicap before move 1 ---- */

static stn_handicap_seen_t seen(const char *d)
{
    stn_view_t v;
    st_view(&v, d, 0, 0, 0);
    stn_handicap_seen_t h;
    memset(&h, 0x55, sizeof h);
    assert_int_equal(stn_handicap_find(v.size, v.color, &h), GO_OK);
    return h;
}

static void test_handicap_standard(void **state)
{
    (void)state;
    /* go_game_handicap(2) on 9x9: top-right and bottom-left (star line 3) */
    stn_handicap_seen_t h = seen(". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . X . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . X . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 2);
    assert_int_equal(h.nblack, 2);
    assert_int_equal(h.npts, 2);
    /* the same seen from the side (a camera does not know Black's side): still 2 */
    h = seen(". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 2);
    /* an unsure point off the star points does not hide a handicap stone; one on a
     * star point may */
    h = seen(". . . . . . . . ?\n"
             ". . . . . . . . .\n"
             ". . . . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 2);
    assert_int_equal(h.nunknown, 1);
    h = seen(". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . ? . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_UNSURE);
    /* 5: four corners and the centre */
    h = seen(". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . X . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 5);
    /* 19x19, 4: D4 D16 Q4 Q16 */
    char b19[19 * 20 + 1];
    for (int y = 0; y < 19; y++) {
        for (int x = 0; x < 19; x++)
            b19[y * 20 + x] = (x == 3 || x == 15) && (y == 3 || y == 15) ? 'X' : '.';
        b19[y * 20 + 19] = '\n';
    }
    b19[19 * 20] = '\0';
    h = seen(b19);
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 4);
    /* 6 on 19x19 turned a quarter: top and bottom sides instead of left and right */
    for (int y = 0; y < 19; y++)
        for (int x = 0; x < 19; x++)
            b19[y * 20 + x] = ((x == 3 || x == 15) && (y == 3 || y == 15)) ||
                                      (x == 9 && (y == 3 || y == 15))
                                  ? 'X' : '.';
    h = seen(b19);
    assert_int_equal(h.kind, STN_HC_STANDARD);
    assert_int_equal(h.n, 6);
}

static void test_handicap_not_standard(void **state)
{
    (void)state;
    /* two stones on star points of one side: star points, not the placement of 2 */
    stn_handicap_seen_t h = seen(". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . X . . . X . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n"
                                 ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_STARS);
    assert_int_equal(h.n, 0);
    assert_int_equal(h.nblack, 2);
    /* a stone off the star points */
    h = seen(". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . . X .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_OTHER);
    /* white stones */
    h = seen(". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . X . . . O . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n"
             ". . O . . . X . .\n"
             ". . . . . . . . .\n"
             ". . . . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_OTHER);
    assert_int_equal(h.nblack, 2);
    assert_int_equal(h.nwhite, 2);
    assert_int_equal(h.npts, 4);
    assert_int_equal(h.pts[0], st_pt(9, "cc") < st_pt(9, "gg") ? st_pt(9, "cc") : st_pt(9, "gg"));
    /* one black stone is move 1, not a handicap */
    h = seen(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .\n");
    assert_int_equal(h.kind, STN_HC_OTHER);
    /* an unknown point: nothing said yet; an empty board */
    h = seen(". . . . .\n. ? . . .\n. . X . .\n. . . . .\n. . . . .\n");
    assert_int_equal(h.kind, STN_HC_UNSURE);
    h = seen(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");
    assert_int_equal(h.kind, STN_HC_EMPTY);
    /* a size with no standard placement (7x7): other */
    h = seen(". . . . . . .\n. . . . . . .\n. . X . . . .\n. . . . . . .\n"
             ". . . . X . .\n. . . . . . .\n. . . . . . .\n");
    assert_int_equal(h.kind, STN_HC_OTHER);
    stn_handicap_seen_t o;
    uint8_t c[4] = { 0 };
    assert_int_equal(stn_handicap_find(1, c, &o), GO_EINVAL);
    assert_int_equal(stn_handicap_find(9, NULL, &o), GO_EINVAL);
}

static void test_point_human(void **state)
{
    (void)state;
    char s[4];
    stn_point_human(19, (go_point_t)st_pt(19, "pd"), s);
    assert_string_equal(s, "Q16");
    stn_point_human(19, (go_point_t)st_pt(19, "ia"), s);
    assert_string_equal(s, "J19");   /* no I */
    stn_point_human(9, (go_point_t)st_pt(9, "ai"), s);
    assert_string_equal(s, "A1");
}

static const stn_event_t *find_ev(const stn_t *s, stn_event_kind_t kind)
{
    int n;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == kind)
            return &ev[i];
    return NULL;
}

static void dump_events(const stn_t *s)
{
    int n;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        print_message("event %s: %s\n", stn_event_kind_name(ev[i].kind), ev[i].msg);
}

static stn_t *station9(int handicap_seen)
{
    stn_config_t c;
    stn_config_defaults(&c);
    assert_int_equal(c.handicap_seen, 1);
    c.size = 9;
    c.date = "2026-12-01";
    c.handicap_seen = handicap_seen;
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    return s;
}

static int feed(stn_t *s, const char *d, uint64_t frame)
{
    stn_view_t v;
    st_view(&v, d, frame, frame / 30.0, frame / 30.0 - 0.2);
    int n = stn_feed_view(s, &v);
    assert_true(n >= 0);
    return n;
}

/* the 2-stone handicap seen from the side (top-left and bottom-right) */
static const char *hc2 = ". . . . . . . . .\n"
                         ". . . . . . . . .\n"
                         ". . X . . . . . .\n"
                         ". . . . . . . . .\n"
                         ". . . . . . . . .\n"
                         ". . . . . . . . .\n"
                         ". . . . . . X . .\n"
                         ". . . . . . . . .\n"
                         ". . . . . . . . .\n";

static void test_station_takes_standard_handicap(void **state)
{
    (void)state;
    stn_t *s = station9(1);
    assert_true(feed(s, hc2, 10) > 0);
    const stn_event_t *e = find_ev(s, STN_EV_HANDICAP);
    assert_non_null(e);
    if (!e) /* (for the compiler: cmocka has failed already) */
        return;
    print_message("%s\n", e->msg);
    assert_non_null(strstr(e->msg, "2-stone handicap"));
    assert_non_null(strstr(e->msg, "C7 G3"));
    assert_int_equal(e->npoints, 2);
    assert_null(find_ev(s, STN_EV_UNEXPLAINED));
    const go_game_t *g = stn_game(s);
    assert_int_equal(go_game_move_count(g), 0);
    assert_int_equal(go_game_handicap_count(g), 2);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    char *sgf = NULL;
    assert_int_equal(stn_record_text(s, &sgf), GO_OK);
    assert_non_null(strstr(sgf, "HA[2]"));
    assert_non_null(strstr(sgf, "AB[cc][gg]"));
    free(sgf);
    /* White's first stone is move 1, then Black's */
    feed(s, ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . X . . . O . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . X . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n", 20);
    feed(s, ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . X . . . O . .\n"
            ". . . . . . . . .\n"
            ". . . . X . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . X . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n", 30);
    assert_int_equal(go_game_move_count(g), 2);
    assert_int_equal(go_game_move(g, 0)->color, GO_WHITE);
    assert_int_equal(go_game_move(g, 0)->point, st_pt(9, "gc"));
    assert_int_equal(go_game_move(g, 1)->color, GO_BLACK);
    stn_destroy(s);

    /* handicap_seen 0: never taken, said plainly (the 4 stones: the tracker's unexplained
     * line, named; 2 it reads as moves in the colours seen) */
    s = station9(0);
    feed(s, ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . X . . . X . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . X . . . X . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n", 10);
    assert_null(find_ev(s, STN_EV_HANDICAP));
    assert_int_equal(go_game_handicap_count(stn_game(s)), 0);
    e = find_ev(s, STN_EV_UNEXPLAINED);
    if (!e)
        dump_events(s);
    assert_non_null(e);
    if (!e) /* (for the compiler: cmocka has failed already) */
        return;
    print_message("%s\n", e->msg);
    assert_non_null(strstr(e->msg, "a 4-stone handicap, not taken"));
    assert_non_null(strstr(e->msg, "--handicap 4"));
    stn_destroy(s);
}

static void test_station_names_other_stones(void **state)
{
    (void)state;
    /* four black stones on star points, not the corners: said plainly, nothing taken
     * (three at once the tracker reads as moves in the colours seen) */
    stn_t *s = station9(1);
    feed(s, ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . X . X . X . .\n"
            ". . . . . . . . .\n"
            ". . . . X . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n", 10);
    const stn_event_t *e = find_ev(s, STN_EV_UNEXPLAINED);
    if (!e)
        dump_events(s);
    assert_non_null(e);
    if (!e) /* (for the compiler: cmocka has failed already) */
        return;
    print_message("%s\n", e->msg);
    assert_non_null(strstr(e->msg, "before move 1: 4 black stones on star points (C7 E7 G7 E5)"));
    assert_non_null(strstr(e->msg, "--handicap 4"));
    assert_null(strchr(e->msg, '\n'));
    assert_null(find_ev(s, STN_EV_HANDICAP));
    assert_int_equal(go_game_handicap_count(stn_game(s)), 0);
    stn_destroy(s);

    /* a set-up position of both colours */
    s = station9(1);
    feed(s, ". . . . . . . . .\n"
            ". X X O . . . . .\n"
            ". . X O . . X . .\n"
            ". X O O . . . . .\n"
            ". . X . . . . O .\n"
            ". . . . . X . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n"
            ". . . . . . . . .\n", 10);
    e = find_ev(s, STN_EV_UNEXPLAINED);
    if (!e)
        dump_events(s);
    assert_non_null(e);
    if (!e) /* (for the compiler: cmocka has failed already) */
        return;
    print_message("%s\n", e->msg);
    assert_non_null(strstr(e->msg, "before move 1: 7 black and 5 white stones on the board"));
    assert_non_null(strstr(e->msg, "--resume FILE"));
    stn_destroy(s);
}

static void test_finish_signals(void **state)
{
    (void)state;
    go_game_t *g = go_game_create(9, NULL);
    assert_non_null(g);
    stn_unfinished_t u;
    assert_int_equal(go_game_play(g, GO_BLACK, st_pt(9, "cc")), GO_OK);
    /* White to move: White's end signal alone is his pass, Black's end missing */
    assert_int_equal(stn_finish_signals(g, 0, 1, &u), GO_OK);
    assert_int_equal(u.unfinished, 1);
    assert_int_equal(u.signalled, GO_WHITE);
    assert_int_equal(u.missing, GO_BLACK);
    assert_int_equal(u.pass, 1);
    /* Black's alone, out of turn: unfinished, no pass to write */
    assert_int_equal(stn_finish_signals(g, 1, 0, &u), GO_OK);
    assert_int_equal(u.unfinished, 1);
    assert_int_equal(u.signalled, GO_BLACK);
    assert_int_equal(u.pass, 0);
    /* neither, both: nothing unfinished */
    assert_int_equal(stn_finish_signals(g, 0, 0, &u), GO_OK);
    assert_int_equal(u.unfinished, 0);
    assert_int_equal(u.signalled, GO_EMPTY);
    assert_int_equal(stn_finish_signals(g, 1, 1, &u), GO_OK);
    assert_int_equal(u.unfinished, 0);
    /* a game over: nothing */
    assert_int_equal(go_game_pass(g, GO_WHITE, false), GO_OK);
    assert_int_equal(go_game_pass(g, GO_BLACK, false), GO_OK);
    assert_int_equal(stn_finish_signals(g, 1, 0, &u), GO_OK);
    assert_int_equal(u.unfinished, 0);
    assert_int_equal(stn_finish_signals(NULL, 1, 0, &u), GO_EINVAL);
    go_game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_frame_after_last_kf),
        cmocka_unit_test(test_resume_last_is_the_largest),
        cmocka_unit_test(test_resume_judge),
        cmocka_unit_test(test_handicap_standard),
        cmocka_unit_test(test_handicap_not_standard),
        cmocka_unit_test(test_point_human),
        cmocka_unit_test(test_station_takes_standard_handicap),
        cmocka_unit_test(test_station_names_other_stones),
        cmocka_unit_test(test_finish_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
