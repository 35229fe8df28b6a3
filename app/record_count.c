/* record_count.c: what `kifucam record` says of the game's course once the station has
 * acted: its events, the phase it is in, the game's end (a resignation, two passes, the
 * end signals), the count's lines, a loss on time, the clock's calls. Nothing here
 * decides: the station does (stn_phase, stn_count_*, the clock); this file mirrors its
 * phase into rec_t for the pages and prints.
 *
 * Invariants: callers hold r->mu when the web server runs; r->phase is the station's
 * phase as last mirrored (rec_sync_phase: 0 play, 1 counting, 2 over) and r->result the
 * result last said; each is said once (r->dirty set when it changes).
 */
#include "app/record.h"

#include <stdio.h>
#include <string.h>

#include "rules/go_point.h"

void rec_print_station_event(rec_t *r, const stn_event_t *e)
{
    if (e->kind == STN_EV_SIGNAL) {
        rec_print_note(r, "signal", e->t, "%s", e->msg);
    } else if (e->kind == STN_EV_END_AWAITED) {
        rec_add_msg(r, "info", "viewer", e->msg);
    } else {
        rec_print_event(r, e);
        rec_speak(r, e);
    }
}

void rec_print_events(rec_t *r)
{
    int n;
    const stn_event_t *ev = stn_events(r->stn, &n);
    for (int i = 0; i < n; i++)
        rec_print_station_event(r, &ev[i]);
}

void rec_sync_phase(rec_t *r)
{
    if (!r->stn)
        return;
    stn_phase_t ph = stn_phase(r->stn);
    int np = ph == STN_PHASE_PLAY ? 0 : ph == STN_PHASE_COUNT ? 1 : 2;
    if (np != r->phase)
        r->dirty = 1;
    r->phase = np;
}

void rec_count_line(rec_t *r, const char *what)
{
    const go_session_t *sess = stn_session(r->stn);
    if (!sess)
        return;
    go_score_t sc;
    const uint8_t *dead = go_session_dead(sess);
    const go_board_t *b = go_session_board(sess);
    char list[GO_MAX_SIZE * GO_MAX_SIZE * 4 + 1];
    size_t pos = 0;
    int nd = 0;
    list[0] = 0;
    for (int p = 0; p < GO_CELLS; p++)
        if (dead[p] && go_board_on(b, p)) {
            char q[4];
            go_point_human(b->size, p, q);
            pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", nd ? " " : "", q);
            nd++;
        }
    const char *re = go_session_score(sess, &sc) == GO_OK ? sc.re : "?";
    rec_print_note(r, "count", -1, "count: %s: %d dead stone%s%s%s; result %s", what, nd,
                   nd == 1 ? "" : "s", nd ? ": " : "", list, re);
}

void rec_game_over(rec_t *r)
{
    const go_game_t *g = stn_game(r->stn);
    rec_sync_phase(r);
    if (go_game_resigned(g) != GO_EMPTY) {
        snprintf(r->result, sizeof r->result, "%s", stn_meta(r->stn)->result);
        if (!r->result[0])
            snprintf(r->result, sizeof r->result, "%s+R",
                     go_game_resigned(g) == GO_BLACK ? "W" : "B");
        rec_print_note(r, "result", -1, "result: %s (resignation)", r->result);
        r->dirty = 1;
        return;
    }
    if (r->phase == 1) {
        rec_count_line(r, "dead stones proposed");
        rec_add_msg(r, "info", "arbiter",
                    "the count: dead stones proposed; take them off or toggle them");
    }
}

int rec_time_check(rec_t *r)
{
    rec_sync_phase(r);
    if (!r->has_clock || r->phase != 2 || r->result[0])
        return r->has_clock && r->phase == 2 && strstr(r->result, "+T") != NULL;
    const char *re = stn_meta(r->stn)->result;
    if (!strstr(re, "+T"))
        return 0;
    snprintf(r->result, sizeof r->result, "%s", re);
    rec_print_note(r, "result", -1, "result: %s (loss on time)", r->result);
    r->dirty = 1;
    return 1;
}

void rec_count_done(rec_t *r)
{
    const go_session_t *sess = stn_session(r->stn);
    go_score_t sc;
    rec_sync_phase(r);
    if (!sess || go_session_score(sess, &sc) != GO_OK)
        return;
    snprintf(r->result, sizeof r->result, "%s", sc.re);
    char eng[96], zh[96];
    go_score_stones_text(&sc, eng, sizeof eng, zh, sizeof zh);
    char b2[16], w2[16];
    go_score_half_text(sc.side[GO_BLACK].total2, b2, sizeof b2);
    go_score_half_text(sc.side[GO_WHITE].total2, w2, sizeof w2);
    if (r->json) {
        rec_print_note(r, "result", -1, "%s", sc.re);
    } else {
        rec_count_line(r, "agreed");
        rec_print_note(r, "result", -1, "result: %s (Black %s, White %s; %s)", sc.re, b2, w2,
                       eng);
    }
    r->dirty = 1;
}

void rec_after_feed(rec_t *r, int phase0, int nev)
{
    if (nev > 0 && phase0 == 1)
        rec_count_line(r, "the board now");
    rec_sync_phase(r);
    if (phase0 == 0 && rec_time_check(r))
        ;
    else if (phase0 == 0 && go_game_over(stn_game(r->stn)))
        rec_game_over(r);
    else if (phase0 == 1 && r->phase == 2)
        rec_count_done(r);
}

void rec_clock_tick(rec_t *r, double t)
{
    if (!r->has_clock || !r->stn || r->phase != 0)
        return;
    int n = stn_clock_tick(r->stn, t - r->clock_lag);
    if (n > 0)
        rec_print_events(r);
    rec_time_check(r);
    r->dirty = 1;
}

int rec_count_auto(rec_t *r, int live)
{
    if (r->phase != 1 || (live && r->web))
        return 0;
    rec_print_note(r, "count", -1, "count: %s: the marking is accepted automatically",
                   live ? "no console to accept the count with (--serve)"
                        : "no players present in a file run");
    for (int c = GO_BLACK; c <= GO_WHITE; c++)
        if (stn_count_accept(r->stn, (go_color_t)c, r->t_now) == GO_OK)
            rec_print_events(r);
    rec_count_done(r);
    return 1;
}
