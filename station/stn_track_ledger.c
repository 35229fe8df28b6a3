/* stn_track_ledger.c: the move ledger: the infos parallel to the game's moves (frame,
 * times, comment, clock), the moves a chosen plan records with their events, takebacks
 * seen on the board and the console's pass, undo and resign, and the feed as a
 * transaction (what a failed feed or tick puts back).
 *
 * Invariants: info[] is grown, cut and written only here (stn_track_destroy frees it);
 * every function that adds or takes back a game move keeps ninfo == the game's move count
 * on success (a failed console action changes nothing); the comments are owned by their
 * info, and by the backup while one holds them.
 */
#include "station/stn_track_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- move infos ---- */

int trk_info_push(stn_track_t *k, uint64_t frame, double t, double t_hand)
{
    if (k->ninfo == k->capinfo) {
        int cap = k->capinfo ? k->capinfo * 2 : 64;
        stn_move_info_t *v = realloc(k->info, (size_t)cap * sizeof *v);
        if (!v)
            return GO_ENOMEM;
        k->info = v;
        k->capinfo = cap;
    }
    stn_move_info_t *m = &k->info[k->ninfo++];
    m->frame = frame;
    m->t = t;
    m->t_hand = t_hand;
    m->comment = NULL;
    m->has_time = 0;
    m->time_left = 0.0;
    m->periods_left = -1;
    return GO_OK;
}

void trk_info_truncate(stn_track_t *k, int n)
{
    while (k->ninfo > n) {
        k->ninfo--;
        free(k->info[k->ninfo].comment);
        k->info[k->ninfo].comment = NULL;
    }
}

/* Bring infos in line with the game's move count (moves made outside the tracker). */
int trk_info_follow(stn_track_t *k)
{
    int n = go_game_move_count(k->g);
    trk_info_truncate(k, n);
    while (k->ninfo < n)
        if (trk_info_push(k, 0, 0.0, 0.0) != GO_OK)
            return GO_ENOMEM;
    return GO_OK;
}

int stn_track_note(stn_track_t *k, int i, const char *text)
{
    if (i < 0 || i >= k->ninfo || !text)
        return GO_EINVAL;
    stn_move_info_t *m = &k->info[i];
    size_t old = m->comment ? strlen(m->comment) : 0, add = strlen(text);
    char *c = realloc(m->comment, old + add + 2);
    if (!c)
        return GO_ENOMEM;
    if (old)
        c[old++] = '\n';
    memcpy(c + old, text, add + 1);
    m->comment = c;
    return GO_OK;
}

const stn_move_info_t *stn_track_info(const stn_track_t *k, int i)
{
    return i >= 0 && i < k->ninfo ? &k->info[i] : NULL;
}

int stn_track_set_info(stn_track_t *k, int i, uint64_t frame, double t, double t_hand)
{
    if (i < 0 || i >= k->ninfo)
        return GO_EINVAL;
    k->info[i].frame = frame;
    k->info[i].t = t;
    k->info[i].t_hand = t_hand;
    return GO_OK;
}

int stn_track_set_time(stn_track_t *k, int i, double left_s, int periods)
{
    if (i < 0 || i >= k->ninfo)
        return GO_EINVAL;
    k->info[i].has_time = 1;
    k->info[i].time_left = left_s;
    k->info[i].periods_left = periods;
    return GO_OK;
}

/* ---- the feed as a transaction ----
 *
 * A view is read by trying, playing and undoing moves, taking moves back and noting
 * comments; any allocation may fail on the way. The state before the feed is kept (the
 * tracker's arrays, the last TRK_KEEP moves and their infos, the event count) and put back
 * on any error, so a failed feed leaves the record, the position and the expectations as
 * they were: the caller may feed the same view again. Takebacks are bounded
 * (TRK_MAX_UNDO per view, plus one pass a void move drops), so no move older than
 * TRK_KEEP is ever touched. */
#define TRK_KEEP (TRK_MAX_UNDO + 4)   /* takebacks, the pass a void move drops, notes on
                                       the move before: a margin */

struct trk_backup {
    stn_track_t st;                    /* the fixed state (info fields not used) */
    int n0, base;                      /* game moves before; first move kept */
    go_move_t moves[TRK_KEEP];         /* moves base..n0 */
    stn_move_info_t infos[TRK_KEEP];   /* their infos, comments owned here */
    int nevents;
};

void trk_backup_free(trk_backup_t *bk)
{
    if (!bk)
        return;
    for (int i = 0; i < bk->n0 - bk->base; i++)
        free(bk->infos[i].comment);
    free(bk);
}

/* The state before a feed, or NULL when out of memory (nothing changed). */
trk_backup_t *trk_backup(const stn_track_t *k, const stn_events_t *out)
{
    trk_backup_t *bk = malloc(sizeof *bk);
    if (!bk)
        return NULL;
    bk->st = *k;
    bk->n0 = go_game_move_count(k->g);
    bk->base = bk->n0 > TRK_KEEP ? bk->n0 - TRK_KEEP : 0;
    bk->nevents = out->n;
    for (int i = bk->base; i < bk->n0; i++) {
        stn_move_info_t *m = &bk->infos[i - bk->base];
        bk->moves[i - bk->base] = *go_game_move(k->g, i);
        *m = k->info[i];
        if (m->comment && !(m->comment = strdup(m->comment))) {
            bk->n0 = i;   /* free only what was copied */
            trk_backup_free(bk);
            return NULL;
        }
    }
    return bk;
}

/* Put the state kept in bk back (consumes bk). Undoes to the longest prefix the game
 * shares with the kept moves and replays the rest (moves taken back in the feed); the
 * game's arrays held them already, so the replay needs no new room in practice.
 * Returns 0, or GO_ENOMEM when a replay failed (then the game lacks moves: reported). */
int trk_restore(stn_track_t *k, trk_backup_t *bk, stn_events_t *out)
{
    int rc = GO_OK, n = go_game_move_count(k->g), lim = n < bk->n0 ? n : bk->n0, c = bk->base;
    while (c < lim) {
        const go_move_t *a = go_game_move(k->g, c), *b = &bk->moves[c - bk->base];
        if (a->kind != b->kind || a->color != b->color || a->point != b->point)
            break;
        c++;
    }
    while (go_game_move_count(k->g) > c)
        go_game_undo(k->g);
    for (int i = c; i < bk->n0 && rc == GO_OK; i++) {
        const go_move_t *m = &bk->moves[i - bk->base];
        if (m->kind == GO_MOVE_PLAY)
            rc = go_game_play_tolerant(k->g, m->color, m->point, NULL);
        else if (m->kind == GO_MOVE_PASS)
            rc = go_game_pass(k->g, m->color, true);
        else
            rc = go_game_resign(k->g, m->color);
    }
    stn_move_info_t *info = k->info;
    int capinfo = k->capinfo, ninfo = k->ninfo;
    *k = bk->st;
    k->info = info;
    k->capinfo = capinfo;
    k->ninfo = ninfo;
    trk_info_truncate(k, bk->base);
    for (int i = bk->base; i < bk->n0; i++) {   /* capinfo >= n0: no allocation */
        k->info[k->ninfo++] = bk->infos[i - bk->base];
        bk->infos[i - bk->base].comment = NULL;
    }
    trk_info_truncate(k, go_game_move_count(k->g));
    out->n = bk->nevents;
    trk_backup_free(bk);
    return rc == GO_OK ? GO_OK : GO_ENOMEM;
}

/* ---- recording a chosen plan ---- */

/* Would c at p repeat an earlier whole-board position? Returns the number of moves in
 * the cycle (> 0) and the move after which the position stood in *at, 0, or GO_ENOMEM. */
static int trk_cycle(const stn_track_t *k, go_color_t c, int p, int *at)
{
    const go_rules_t *r = go_game_rules(k->g);
    if (r->ko == GO_KO_SITUATIONAL)
        return 0;   /* its history mixes the side to move in: cannot compare boards */
    go_board_t *b = malloc(sizeof *b);
    if (!b)
        return GO_ENOMEM;
    *b = *go_game_board(k->g);
    int cyc = 0;
    if (go_board_play(b, c, p, NULL) == GO_OK) {
        int n = go_game_history_len(k->g);
        for (int i = n - 1; i >= 0; i--) {
            if (go_game_history_hash(k->g, i) == b->hash) {
                *at = i;
                cyc = n - i;
                break;
            }
        }
    }
    free(b);
    return cyc;
}

/* stn_track_note, nothing when there is no move i (i < 0). */
static int trk_note_at(stn_track_t *k, int i, const char *text)
{
    return i < 0 ? GO_OK : stn_track_note(k, i, text);
}

static const char *trk_void_reason(int rc)
{
    switch (rc) {
    case GO_EOCCUPIED: return "onto an occupied point";
    case GO_ESUICIDE: return "suicide";
    case GO_EKO: return "retakes a ko at once";
    case GO_ESUPERKO: return "repeats a whole-board position (superko)";
    default: return go_strerror(rc);
    }
}

int trk_apply(stn_track_t *k, const trk_plan_t *plan, const stn_view_t *v,
              stn_events_t *out, trk_run_t *run)
{
    int rc = GO_OK;
    run->applied = 0;
    run->oom = 0;
    run->dropped = GO_EMPTY;
    memset(run->captured, 0, sizeof run->captured);
    int together = 0, first = go_game_move_count(k->g);
    for (int i = 0; i < plan->n && rc == GO_OK; i++) {
        const trk_step_t *st = &plan->steps[i];
        char pn[4];
        trk_pname(k, st->p, pn);
        int at = 0, cyc = 0;
        if (go_game_board(k->g)->color[st->p] == GO_EMPTY)
            cyc = trk_cycle(k, st->c, st->p, &at);
        if (cyc < 0) {
            rc = cyc;
            break;
        }
        uint8_t before[GO_CELLS];
        memcpy(before, go_game_board(k->g)->color, sizeof before);
        int nbefore = go_game_move_count(k->g);
        int r = trk_step(k, st, run);
        run->result[i] = r;
        if (r == GO_ENOMEM) {
            rc = r;
            break;
        }
        if (r == GO_EOVER || r == GO_EINVAL) {
            stn_event_t e;
            trk_ev(&e, STN_EV_UNEXPLAINED, st->seen, go_game_move_count(k->g), v->frame, v->t,
                   v->t_clear);
            trk_ev_point(&e, st->p);
            snprintf(e.msg, sizeof e.msg, "%s stone at %s cannot be recorded: %s",
                     trk_cword(st->seen), pn, go_strerror(r));
            rc = stn_events_push(out, &e);
            break;
        }
        int move = go_game_move_count(k->g), dropped = move < nbefore;
        if (dropped)
            trk_info_truncate(k, move);
        else if ((rc = trk_info_push(k, v->frame, v->t, v->t_clear)) != GO_OK)
            break;
        stn_event_t e;
        if (r == GO_OK) {
            const uint8_t *now = go_game_board(k->g)->color;
            trk_ev(&e, STN_EV_MOVE, st->c, move, v->frame, v->t, v->t_clear);
            trk_ev_point(&e, st->p);
            int still = 0;
            for (int j = 0; j < k->size * k->size; j++) {
                int p = trk_pt(k->size, j);
                if (before[p] != GO_EMPTY && now[p] == GO_EMPTY) {
                    go_color_t phys = k->alias[p] ? (go_color_t)k->alias[p] : (go_color_t)before[p];
                    run->captured[p] = before[p];
                    e.ncaptured++;
                    trk_ev_point(&e, p);
                    k->alias[p] = 0;
                    int seen = trk_view_at(k, v, p);
                    /* still there, or not read (unsure, hidden): expected off; a view
                     * showing the point empty clears it (trk_refresh) */
                    if (seen == (int)phys || seen == STN_UNKNOWN) {
                        k->pending[p] = phys;
                        k->pend_gcol[p] = before[p];
                        k->pend_move[p] = move;
                        still++;
                    } else {
                        k->gone_move[p] = move;
                        k->unseen_cap[p] = phys;
                        k->unseen_move[p] = move;
                    }
                }
            }
            int len = snprintf(e.msg, sizeof e.msg, "%d %s %s", move, trk_cname(st->c), pn);
            if (e.ncaptured)
                len += snprintf(e.msg + len, sizeof e.msg - (size_t)len, ", captures %d",
                                e.ncaptured);
            if (still)
                snprintf(e.msg + len, sizeof e.msg - (size_t)len,
                         " (%d still on the board: expected off)", still);
            if (st->seen != st->c)
                k->alias[st->p] = st->seen;
            if ((rc = stn_events_push(out, &e)) != GO_OK)
                break;
        } else {
            if ((r == GO_EKO || r == GO_ESUPERKO) &&
                (rc = trk_would_capture(k, st, before, run->captured)) != GO_OK)
                break;
            trk_ev(&e, STN_EV_VOID, st->c, dropped ? move + 2 : move, v->frame, v->t,
                   v->t_clear);
            trk_ev_point(&e, st->p);
            if (dropped)
                snprintf(e.msg, sizeof e.msg,
                         "%s %s is illegal (%s): void, counted as a pass; after %s's pass "
                         "it does not end the game (the players confirm the end): both "
                         "left out of the record, %s to move; take it back",
                         trk_cword(st->c), pn, trk_void_reason(r), trk_cword(GO_OTHER(st->c)),
                         trk_cword(GO_OTHER(st->c)));
            else
                snprintf(e.msg, sizeof e.msg,
                         "%s %s is illegal (%s): void, counted as a pass; take it back",
                         trk_cword(st->c), pn, trk_void_reason(r));
            if ((rc = trk_note_at(k, move - 1, e.msg)) != GO_OK ||
                (rc = stn_events_push(out, &e)) != GO_OK)
                break;
        }
        if (st->seen != st->c) {
            trk_ev(&e, STN_EV_WRONG_COLOUR, st->c, move, v->frame, v->t, v->t_clear);
            trk_ev_point(&e, st->p);
            snprintf(e.msg, sizeof e.msg,
                     "a %s stone was played at %s on %s's turn: recorded as %s's move",
                     st->seen == GO_BLACK ? "black" : "white", pn, trk_cword(st->c),
                     trk_cword(st->c));
            if ((rc = trk_note_at(k, move - 1, e.msg)) != GO_OK ||
                (rc = stn_events_push(out, &e)) != GO_OK)
                break;
        }
        if (st->tolerant && plan->n > 1) {
            /* stones that appeared together between two views: nobody saw the order,
             * so no loss is called; the record keeps the colours seen, with a note */
            if (!together++) {
                int nc = 0;
                for (int j = 0; j < plan->n; j++)
                    nc += plan->steps[j].c == st->c;
                trk_ev(&e, STN_EV_AMBIGUOUS, st->c, move, v->frame, v->t, v->t_clear);
                for (int j = 0; j < plan->n; j++)
                    trk_ev_point(&e, plan->steps[j].p);
                snprintf(e.msg, sizeof e.msg,
                         "%d stones appeared together, %d of them %s's: more than "
                         "alternation allows; recorded in the colours seen (the order was "
                         "not seen: no two-moves-in-a-row call)", plan->n, nc,
                         trk_cword(st->c));
                if ((rc = trk_note_at(k, move - 1, e.msg)) != GO_OK ||
                    (rc = stn_events_push(out, &e)) != GO_OK)
                    break;
            }
        } else if (st->tolerant) {
            trk_ev(&e, STN_EV_TWO_IN_A_ROW, st->c, move, v->frame, v->t, v->t_clear);
            trk_ev_point(&e, st->p);
            snprintf(e.msg, sizeof e.msg,
                     "%s moved twice in a row (%s) without a pass: a loss under the "
                     "competition rules (arbiter decides)", trk_cword(st->c), pn);
            if ((rc = trk_note_at(k, move - 1, e.msg)) != GO_OK ||
                (rc = stn_events_push(out, &e)) != GO_OK)
                break;
        }
        if (cyc > 0 && r != GO_EKO) {
            trk_ev(&e, STN_EV_CYCLE, st->c, move, v->frame, v->t, v->t_clear);
            trk_ev_point(&e, st->p);
            snprintf(e.msg, sizeof e.msg,
                     "%s %s repeats the position after move %d (a cycle of %d moves): "
                     "triple ko, quadruple ko or eternal life? a possible draw or replay",
                     trk_cword(st->c), pn, at, cyc);
            if ((rc = trk_note_at(k, move - 1, e.msg)) != GO_OK ||
                (rc = stn_events_push(out, &e)) != GO_OK)
                break;
        }
    }
    /* the moves of stones that appeared together beyond alternation, kept in mind until
     * more are recorded: one of them gone since, not captured, was no move */
    if (rc == GO_OK && together) {
        k->together_first = first;
        k->together_n = go_game_move_count(k->g) - first;
    } else if (rc == GO_OK && k->together_n &&
               go_game_move_count(k->g) > k->together_first + k->together_n + TRK_TOGETHER_LATER) {
        k->together_n = 0;
    }
    return rc;
}

int trk_together_undone(const stn_track_t *k, const stn_view_t *v)
{
    int n = go_game_move_count(k->g), end = k->together_first + k->together_n;
    if (!k->together_n || n < end || n > end + TRK_TOGETHER_LATER)
        return 0;
    for (int i = k->together_first; i < end; i++) {
        const go_move_t *m = go_game_move(k->g, i);
        if (m->kind == GO_MOVE_PLAY && go_game_board(k->g)->color[m->point] == m->color &&
            trk_view_at(k, v, m->point) == GO_EMPTY)
            return 1;
    }
    return 0;
}

/* ---- takebacks ---- */

/* Mark in cap[] the stones the last move captured (undone and replayed to see).
 * Returns 0, or GO_ENOMEM when the replay failed (the move is then missing from the
 * game: the caller rolls the whole feed back). */
int trk_last_captures(stn_track_t *k, uint8_t *cap)
{
    memset(cap, 0, GO_CELLS);
    int n = go_game_move_count(k->g);
    if (n == 0)
        return GO_OK;
    go_move_t m = *go_game_move(k->g, n - 1);
    if (m.kind != GO_MOVE_PLAY || m.ncaptured == 0)
        return GO_OK;
    uint8_t now[GO_CELLS];
    memcpy(now, go_game_board(k->g)->color, sizeof now);
    if (go_game_undo(k->g) != GO_OK)
        return GO_OK;
    const uint8_t *before = go_game_board(k->g)->color;
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (before[p] != GO_EMPTY && now[p] == GO_EMPTY)
            cap[p] = before[p];
    }
    return go_game_play_tolerant(k->g, m.color, m.point, NULL) == GO_OK ? GO_OK : GO_ENOMEM;
}

/* 1 when the stone now at p was played by a move recorded from the view of frame. */
static int trk_played_in(const stn_track_t *k, int p, uint64_t frame)
{
    for (int i = go_game_move_count(k->g) - 1; i >= 0; i--) {
        const go_move_t *m = go_game_move(k->g, i);
        if (m->kind == GO_MOVE_PLAY && m->point == p)
            return k->info[i].frame == frame;
    }
    return 0;
}

/* Undo the last move as a takeback seen on the board. */
int trk_takeback(stn_track_t *k, const stn_view_t *v, stn_events_t *out)
{
    int n = go_game_move_count(k->g);
    const go_move_t *m = go_game_move(k->g, n - 1);
    stn_event_t e;
    char pn[4];
    trk_pname(k, m->point, pn);
    trk_ev(&e, STN_EV_TAKEBACK, m->color, n, v->frame, v->t, v->t_clear);
    trk_ev_point(&e, m->point);
    snprintf(e.msg, sizeof e.msg, "move %d (%s %s) taken back", n, trk_cname(m->color), pn);
    uint64_t frame = k->info[n - 1].frame;
    if (go_game_undo(k->g) != GO_OK)
        return GO_EINVAL;
    trk_info_truncate(k, n - 1);
    trk_clean(k);
    /* Stones it had captured are back in the record: those already off must return, but
     * for a stone played in the same view as the move taken back (both read at once: it
     * was never seen on the board, so nobody took it off; the next reading takes its move
     * back too when the board does not show it) */
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (!trk_ok(k, p, v->color[i]) && v->color[i] == GO_EMPTY && trk_ideal(k, p) != GO_EMPTY &&
            !(frame && trk_played_in(k, p, frame)))
            k->ack[p] = 1 + GO_EMPTY;
    }
    return stn_events_push(out, &e);
}

/* ---- console actions ---- */

int stn_track_pass(stn_track_t *k, go_color_t c, double t, stn_events_t *out)
{
    if (c == GO_EMPTY)
        c = go_game_turn(k->g);
    /* room for the info and the events first: once passed, nothing can fail */
    int rc = trk_info_follow(k);
    if (rc == GO_OK)
        rc = stn_events_reserve(out, 2);
    if (rc == GO_OK && (rc = trk_info_push(k, 0, t, t)) == GO_OK) {
        rc = go_game_pass(k->g, c, false);
        if (rc != GO_OK)
            trk_info_truncate(k, k->ninfo - 1);
    }
    if (rc != GO_OK)
        return rc;
    stn_event_t e;
    int n = go_game_move_count(k->g);
    trk_ev(&e, STN_EV_PASS, c, n, 0, t, t);
    snprintf(e.msg, sizeof e.msg, "%d %s passes", n, trk_cword(c));
    rc = stn_events_push(out, &e);
    if (rc == GO_OK && go_game_over(k->g)) {
        trk_ev(&e, STN_EV_END, GO_EMPTY, n, 0, t, t);
        snprintf(e.msg, sizeof e.msg, "both players passed: the game ends");
        rc = stn_events_push(out, &e);
    }
    return rc;
}

int stn_track_undo(stn_track_t *k, double t, stn_events_t *out)
{
    int rc = trk_info_follow(k);
    if (rc == GO_OK)
        rc = stn_events_reserve(out, 1);
    if (rc != GO_OK)
        return rc;
    int n = go_game_move_count(k->g);
    if (n == 0)
        return GO_EEMPTY;
    go_move_t m = *go_game_move(k->g, n - 1);
    if ((rc = go_game_undo(k->g)) != GO_OK)
        return rc;
    trk_info_truncate(k, n - 1);
    trk_clean(k);
    stn_event_t e;
    trk_ev(&e, STN_EV_TAKEBACK, m.color, n, 0, t, t);
    if (m.kind == GO_MOVE_PLAY) {
        char pn[4];
        trk_pname(k, m.point, pn);
        trk_ev_point(&e, m.point);
        /* The stone is still on the board: it must be taken off. */
        k->ack[m.point] = (uint8_t)(1 + (k->alias[m.point] ? k->alias[m.point] : m.color));
        snprintf(e.msg, sizeof e.msg, "move %d (%s %s) undone: take the stone off", n,
                 trk_cname(m.color), pn);
    } else {
        snprintf(e.msg, sizeof e.msg, "move %d (%s %s) undone", n, trk_cname(m.color),
                 m.kind == GO_MOVE_PASS ? "pass" : "resign");
    }
    return stn_events_push(out, &e);
}

int stn_track_resign(stn_track_t *k, go_color_t c, double t, stn_events_t *out)
{
    if (c == GO_EMPTY)
        c = go_game_turn(k->g);
    int rc = trk_info_follow(k);
    if (rc == GO_OK)
        rc = stn_events_reserve(out, 2);
    if (rc == GO_OK && (rc = trk_info_push(k, 0, t, t)) == GO_OK) {
        rc = go_game_resign(k->g, c);
        if (rc != GO_OK)
            trk_info_truncate(k, k->ninfo - 1);
    }
    if (rc != GO_OK)
        return rc;
    stn_event_t e;
    int n = go_game_move_count(k->g);
    trk_ev(&e, STN_EV_RESIGN, c, n, 0, t, t);
    snprintf(e.msg, sizeof e.msg, "%s resigns", trk_cword(c));
    rc = stn_events_push(out, &e);
    if (rc == GO_OK) {
        trk_ev(&e, STN_EV_END, GO_EMPTY, n, 0, t, t);
        snprintf(e.msg, sizeof e.msg, "%s wins by resignation", trk_cword(GO_OTHER(c)));
        rc = stn_events_push(out, &e);
    }
    return rc;
}
