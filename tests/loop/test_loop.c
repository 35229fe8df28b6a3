/* test_loop.c: the recording loop as a library (loop/rl_loop.h), driven frame by frame
 * with no command line: footage rendered by `kifucam render` (the first 6 moves of
 * samples/games/demo.sgf, both players' end signals, seed 2, steep), its frames read by
 * capture/ and fed to rl_feed; the sink collects what happened.
 *  - the board is found once, the station is created by the loop, the 6 moves come as
 *    STN_EV_MOVE in order and equal the source's under the board's symmetry, the end
 *    signals end the game (the sink's over), the count starts;
 *  - the sink's order: the station created before any event, a note before the moves;
 *  - the board's own colours learned from the positions the station accepted, once each;
 *  - rl_finish at the end; the geometry and snapshot are there while the board is;
 *  - a loop fed frames with no board: no station, no event, rl_ever_found 0.
 * Drives the kifucam binary ($KIFUCAM_BIN) only to render.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/cap_source.h"
#include "loop/rl_loop.h"
#include "rules/go_point.h"
#include "testutil.h"

typedef struct seen {
    int phase;           /* the caller's phase, kept as kifucam record keeps it */
    stn_t *stn;
    int stations, notes, found, colours, moves, signals, overs, feds, ends;
    int first_event_before_station;
    go_point_t move_pt[64];
    go_color_t move_col[64];
} seen_t;

static void sync_phase(seen_t *s)
{
    stn_phase_t ph = stn_phase(s->stn);
    s->phase = ph == STN_PHASE_PLAY ? 0 : ph == STN_PHASE_COUNT ? 1 : 2;
}

static int k_phase(void *ctx)
{
    return ((seen_t *)ctx)->phase;
}

static void k_event(void *ctx, const stn_event_t *e)
{
    seen_t *s = ctx;
    if (!s->stations)
        s->first_event_before_station = 1;
    if (e->kind == STN_EV_MOVE && s->moves < 64) {
        s->move_pt[s->moves] = e->points[0];
        s->move_col[s->moves++] = e->color;
    }
    s->signals += e->kind == STN_EV_SIGNAL;
    s->ends += e->kind == STN_EV_END;
}

static void k_note(void *ctx, const char *kind, double t, const char *text)
{
    seen_t *s = ctx;
    (void)t;
    s->notes++;
    s->found += !strcmp(kind, "board") && strstr(text, "19x19 found") != NULL;
    s->colours += !strcmp(kind, "board") && strstr(text, "own colours learned") != NULL;
}

static void k_station(void *ctx, stn_t *stn)
{
    seen_t *s = ctx;
    s->stn = stn;
    s->stations++;
}

static void k_fed(void *ctx, int phase0, int nev)
{
    seen_t *s = ctx;
    (void)phase0;
    (void)nev;
    s->feds++;
    sync_phase(s);
}

static void k_over(void *ctx)
{
    seen_t *s = ctx;
    s->overs++;
    sync_phase(s);
}

/* The point p of a 19x19 board under symmetry k (the 8 of the square). */
static go_point_t sym(go_point_t p, int k)
{
    int x = GO_X(p), y = GO_Y(p);
    for (int i = 0; i < (k & 3); i++) {
        int t = x;
        x = 18 - y;
        y = t;
    }
    if (k & 4)
        x = 18 - x;
    return (go_point_t)GO_PT(x, y);
}

/* A loop with the defaults whose sink fills *s. */
static rl_t *new_loop(seen_t *s)
{
    rl_config_t c;
    rl_config_defaults(&c);
    memset(s, 0, sizeof *s);
    const rl_sink_t sink = { s, k_phase, k_event, k_note, k_station, k_fed, k_over };
    rl_t *l = rl_create(&c, &sink);
    assert_non_null(l);
    return l;
}

static void test_loop_records_a_clip(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(bin);
    char tmp[] = "/tmp/kc_loop_XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[4096], src[1024], dir[64];
    int n = snprintf(src, sizeof src, "%s/samples/games/demo.sgf", kc_source_dir());
    assert_true(n > 0 && (size_t)n < sizeof src);
    snprintf(dir, sizeof dir, "%s/clip", tmp);
    n = snprintf(cmd, sizeof cmd, "'%s' render '%s' --out '%s' --size 640x360 --seed 2 --view "
                 "steep --fps 15 --pace 0.3 --moves 6 --end pass >/dev/null 2>&1", bin, src, dir);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    assert_int_equal(kc_run(cmd), 0);

    seen_t s;
    rl_t *l = new_loop(&s);
    assert_null(rl_station(l));
    cap_options_t o;
    cap_options_defaults(&o);
    o.fps = 15;
    cap_source_t *cs = NULL;
    assert_int_equal(cap_source_open(dir, &o, &cs), CAP_OK);
    cap_frame_t f;
    int frames = 0, read_frames = 0;
    double t = 0;
    while (cap_source_next(cs, &f) == CAP_OK) {
        int read = 0;
        assert_int_equal(rl_feed(l, &f.img, f.index, f.t, &read), RL_OK);
        read_frames += read;
        if (read && !rl_snapshot(l)->board_lost)
            assert_non_null(rl_geom(l));
        frames++;
        t = f.t;
    }
    cap_source_close(cs);
    stn_unfinished_t u;
    rl_finish(l, t, 1, &u);
    print_message("loop: %d frames, %d read, %d moves, %d signal notes, over %d, phase %d\n",
                  frames, read_frames, s.moves, s.signals, s.overs, s.phase);
    assert_true(frames > 100 && read_frames > frames / 2);
    assert_int_equal(s.stations, 1);
    assert_ptr_equal(s.stn, rl_station(l));
    assert_int_equal(s.first_event_before_station, 0);
    assert_int_equal(s.found, 1);
    assert_int_equal(rl_ever_found(l), 1);
    assert_true(rl_stats(l).detects >= 1);
    /* the readings: some made, some from the read cache (a still board); the view and
     * its mirror read in turn (vis_config_for_video): one run a reading, and the other
     * over the whole view only where one leaves the view's every block unsure, so fewer
     * runs than two a reading; a part of the view read by the other run holds fewer
     * blocks than the 21 x 21 of the 19x19's whole view */
    rl_stats_t st = rl_stats(l);
    assert_true(st.reads >= 1 && st.reads_cached >= 1);
    assert_true(st.net_runs >= st.reads && st.net_runs < 2 * st.reads);
    assert_true(st.net_part_runs == 0 || st.net_part_blocks < st.net_part_runs * 21 * 21);
    /* the board's own colours: learned once the station accepted the empty board (told
     * once), then from each later position at most once (7: the empty board, 6 moves) */
    print_message("loop: the board's colours learned from %llu positions\n",
                  (unsigned long long)st.colour_fits);
    assert_int_equal(s.colours, 1);
    assert_true(st.colour_fits >= 2 && st.colour_fits <= 7);
    /* the 6 moves, in order, as the source has them under one symmetry of the board */
    assert_int_equal(s.moves, 6);
    char *text = kc_slurp(src, NULL);
    assert_non_null(text);
    go_point_t want[6] = { 0 };
    int nw = 0;
    for (const char *q = text; nw < 6 && (q = strchr(q, ';')) != NULL; q++)   /* ;B[pd];W[dp]... */
        if ((q[1] == 'B' || q[1] == 'W') && q[2] == '[' && q[3] && q[4] && q[5] == ']')
            want[nw++] = (go_point_t)go_point_from_sgf(19, q + 3, 2);
    free(text);
    assert_int_equal(nw, 6);
    int best = 0;
    for (int k = 0; k < 8; k++) {
        int ok = 0;
        for (int i = 0; i < 6; i++)
            ok += sym(s.move_pt[i], k) == want[i] && s.move_col[i] == (i % 2 ? GO_WHITE : GO_BLACK);
        best = ok > best ? ok : best;
    }
    assert_int_equal(best, 6);
    /* the end signals ended the game: the count */
    assert_true(s.signals >= 2);
    assert_int_equal(s.overs, 1);
    assert_int_equal(s.ends, 1);
    assert_int_equal(stn_phase(rl_station(l)), STN_PHASE_COUNT);
    assert_int_equal(u.unfinished, 0);
    rl_destroy(l);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    kc_run(cmd);
}

/* Frames of a bare grey picture: nothing found, nothing created, nothing said. */
static void test_loop_no_board(void **state)
{
    (void)state;
    seen_t s;
    rl_t *l = new_loop(&s);
    cvb_image_t img;
    assert_int_equal(cvb_image_alloc(&img, 320, 240, 3), CVB_OK);
    memset(img.data, 128, (size_t)img.stride * (size_t)img.h);
    for (int i = 0; i < 5; i++) {
        int read = 1;
        assert_int_equal(rl_feed(l, &img, (uint64_t)i, i / 15.0, &read), RL_OK);
        assert_int_equal(read, 0);
    }
    cvb_image_free(&img);
    assert_null(rl_station(l));
    assert_null(rl_geom(l));
    assert_int_equal(rl_ever_found(l), 0);
    assert_int_equal(s.stations + s.notes + s.moves + s.feds, 0);
    stn_unfinished_t u;
    rl_finish(l, 1.0, 1, &u);
    assert_int_equal(u.unfinished, 0);
    /* a station asked for up front (a --size): created, its start said to the sink */
    assert_int_equal(rl_start(l, 9), RL_OK);
    assert_int_equal(s.stations, 1);
    assert_int_equal(go_game_board(stn_game(rl_station(l)))->size, 9);
    rl_destroy(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_no_board),
        cmocka_unit_test(test_loop_records_a_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
