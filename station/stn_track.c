/* stn_track.c: the tracker and referee (see stn_track.h for how a view is read).
 *
 * The tracker's state and its invariants: stn_track_internal.h.
 */
#include "station/stn_track_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

void stn_track_defaults(stn_track_config_t *c)
{
    c->trust_colour = 0;
    c->max_moves = 8;
    c->bulk_moves = 4;
    c->warn_moved = 1;
    c->warn_grace_s = 2.5;
    c->end_by_signals = -1;
}

/* Append " Q16" for each point of e from index `from` to msg (bounded), space separated. */
void trk_ev_list(const stn_track_t *k, stn_event_t *e, int from)
{
    size_t len = strlen(e->msg);
    for (int i = from; i < e->npoints && len + 5 < sizeof e->msg; i++) {
        char s[4];
        trk_pname(k, e->points[i], s);
        len += (size_t)snprintf(e->msg + len, sizeof e->msg - len, "%s%s", i > from ? " " : "", s);
    }
}

/* ---- create / destroy ---- */

stn_track_t *stn_track_create(go_game_t *g, const stn_track_config_t *cfg)
{
    if (!g)
        return NULL;
    stn_track_t *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->g = g;
    if (cfg)
        k->cfg = *cfg;
    else
        stn_track_defaults(&k->cfg);
    if (k->cfg.max_moves < 1)
        k->cfg.max_moves = 1;
    if (k->cfg.end_by_signals < 0) {
        const char *rn = go_game_rules(g)->name;
        k->cfg.end_by_signals = rn && strcmp(rn, "chinese") == 0;
    }
    k->size = go_game_board(g)->size;
    if (trk_info_follow(k) != GO_OK) {
        stn_track_destroy(k);
        return NULL;
    }
    return k;
}

void stn_track_destroy(stn_track_t *k)
{
    if (!k)
        return;
    trk_info_truncate(k, 0);
    free(k->info);
    free(k);
}

int stn_track_sync(stn_track_t *k)
{
    memset(k->pending, 0, sizeof k->pending);
    memset(k->unseen_cap, 0, sizeof k->unseen_cap);
    memset(k->alias, 0, sizeof k->alias);
    memset(k->ack, 0, sizeof k->ack);
    memset(k->ack_pair, 0, sizeof k->ack_pair);
    k->nheld = 0;
    k->knock_n = 0;
    k->together_n = 0;
    k->size = go_game_board(k->g)->size;
    return trk_info_follow(k);
}

/* ---- what the board should show ---- */

/* Keep pending/alias consistent with the game's board (after undo, captures). */
void trk_clean(stn_track_t *k)
{
    const go_board_t *b = go_game_board(k->g);
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (b->color[p] == GO_EMPTY)
            k->alias[p] = 0;
        else
            k->pending[p] = 0;
    }
}

/* The colour the record says the board should show at p. */
go_color_t trk_ideal(const stn_track_t *k, int p)
{
    go_color_t c = (go_color_t)go_game_board(k->g)->color[p];
    if (c == GO_BLACK || c == GO_WHITE)
        return k->alias[p] ? (go_color_t)k->alias[p] : c;
    return GO_EMPTY;
}

/* Is seeing s at p expected (or already reported)? */
int trk_ok(const stn_track_t *k, int p, int s)
{
    if (s == STN_UNKNOWN)
        return 1;
    go_color_t id = trk_ideal(k, p);
    if (s == (int)id)
        return 1;
    if (id == GO_EMPTY && k->pending[p] && s == k->pending[p])
        return 1;
    return k->ack[p] && s == k->ack[p] - 1;
}

/* Forget expectations the view settles: captured stones gone, disagreements restored,
 * reported disagreements that changed into something else (they are new differences). */
static void trk_refresh(stn_track_t *k, const stn_view_t *v, int cleared[3])
{
    cleared[0] = cleared[1] = cleared[2] = 0;
    memset(k->gone_dead, 0, sizeof k->gone_dead);
    memset(k->gone_move, 0, sizeof k->gone_move);
    for (int i = 0; i < k->size * k->size; i++) {
        int s = v->color[i], p = trk_pt(k->size, i);
        if (s == STN_UNKNOWN)
            continue;
        go_color_t id = trk_ideal(k, p);
        if (k->pending[p] && s != k->pending[p]) {
            cleared[k->pending[p]]++;
            k->gone_dead[p] = k->pending[p];
            k->gone_move[p] = k->pend_move[p];
            k->pending[p] = 0;
        }
        if (k->ack[p] && (s == (int)id || s != k->ack[p] - 1)) {
            k->ack[p] = 0;
            /* a nudged stone back home: what still lies where it went is new */
            int q = k->ack_pair[p];
            if (q && s == (int)id && k->ack_pair[q] == p && k->ack[q] > 1 + GO_EMPTY) {
                k->ack[q] = 0;
                k->ack_pair[q] = 0;
            }
            k->ack_pair[p] = 0;
        }
    }
}

static void trk_diff(const stn_track_t *k, const stn_view_t *v, trk_diff_t *d)
{
    d->na = d->nr = 0;
    for (int i = 0; i < k->size * k->size; i++) {
        int s = v->color[i], p = trk_pt(k->size, i);
        if (trk_ok(k, p, s))
            continue;
        go_color_t id = trk_ideal(k, p);
        if (s != GO_EMPTY) {
            d->a[d->na].p = (go_point_t)p;
            d->a[d->na].c = (go_color_t)s;
            d->a[d->na].hidden = 0;
            d->na++;
        }
        if (id != GO_EMPTY)
            d->r[d->nr++] = (go_point_t)p;
    }
}

/* ---- reading a view ---- */

static uint64_t trk_sig(const trk_diff_t *d)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < d->na; i++)
        h = (h ^ (uint64_t)(d->a[i].p * 4 + d->a[i].c)) * 1099511628211ull;
    for (int i = 0; i < d->nr; i++)
        h = (h ^ (uint64_t)(d->r[i] + 100000)) * 1099511628211ull;
    return h ? h : 1;
}

/* Dead stones of the side to move taken off in this view, all but one: that side most
 * likely took them off to play where the last one lies (its own colour there: unseen).
 * Recorded as its move; if the stone was only left behind, its removal later reads as a
 * takeback. */
static int trk_hidden_on_dead(stn_track_t *k, const stn_view_t *v, const int *cleared,
                              trk_plan_t *plan, trk_run_t *run, stn_events_t *out, int *moves)
{
    (void)cleared;
    go_color_t t = go_game_turn(k->g);
    if (go_game_over(k->g))
        return GO_OK;
    int h = 0, nh = 0, n = k->size * k->size;
    for (int i = 0; i < n; i++) {
        int p = trk_pt(k->size, i);
        if (!k->pending[p] || k->pend_gcol[p] != t || v->color[i] != k->pending[p])
            continue;
        /* the only one of its capture still there, the others taken off in this view */
        int m = k->pend_move[p], left = 0, gone = 0;
        for (int j = 0; j < n; j++) {
            int q = trk_pt(k->size, j);
            left += k->pending[q] && k->pend_move[q] == m;
            gone += k->gone_move[q] == m;
        }
        if (left == 1 && gone > 0) {
            h = p;
            nh++;
        }
    }
    if (nh != 1 || go_game_legal(k->g, t, h) != GO_OK)
        return GO_OK;
    plan->n = 1;
    plan->steps[0].p = (go_point_t)h;
    plan->steps[0].c = plan->steps[0].seen = t;
    plan->steps[0].tolerant = 0;
    plan->steps[0].hidden = 0;
    int first = go_game_move_count(k->g);
    int rc = trk_apply(k, plan, v, out, run);
    if (rc != GO_OK)
        return rc;
    *moves += go_game_move_count(k->g) - first;
    char hp[4], note[160];
    trk_pname(k, h, hp);
    snprintf(note, sizeof note,
             "%s %s was not seen: the dead stones around were taken off but the one at %s, "
             "where %s played", trk_cname(t), hp, hp, trk_cword(t));
    return stn_track_note(k, first, note);
}

/* A stone the last move captured, read gone in that view and back now where its side
 * could not play (a ko retake, a suicide) while the capturing stone is still there (a
 * retake would have taken it off): the dead stone was misread, not a move: it is expected
 * off again (pending). Forgotten once another move is recorded. */
static void trk_unseen_dead(stn_track_t *k, const stn_view_t *v)
{
    int nm = go_game_move_count(k->g);
    const go_move_t *m = nm > 0 ? go_game_move(k->g, nm - 1) : NULL;
    /* a real retake takes the capturing stone off: it must still be there */
    int capturer = m && m->kind == GO_MOVE_PLAY &&
                   trk_view_at(k, v, m->point) == (int)trk_ideal(k, m->point);
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (!k->unseen_cap[p])
            continue;
        go_color_t c = (go_color_t)k->unseen_cap[p];
        if (k->unseen_move[p] != nm || go_game_board(k->g)->color[p] != GO_EMPTY) {
            k->unseen_cap[p] = 0;
            continue;
        }
        if (capturer && v->color[i] == c && !k->pending[p] && go_game_legal(k->g, c, p) != GO_OK) {
            k->pending[p] = c;
            k->pend_gcol[p] = c;
            k->pend_move[p] = nm;
            k->unseen_cap[p] = 0;
        }
    }
}

int stn_track_feed(stn_track_t *k, const stn_view_t *v, stn_events_t *out)
{
    if (!v || v->size != k->size)
        return GO_EINVAL;
    int rc = trk_info_follow(k);
    if (rc != GO_OK)
        return rc;
    if (go_game_over(k->g))
        return 0;   /* the count after the end belongs to the scoring session */
    trk_backup_t *bk = trk_backup(k, out);
    if (!bk)
        return GO_ENOMEM;
    trk_clean(k);
    uint8_t ack0[GO_CELLS];
    memcpy(ack0, k->ack, sizeof ack0);
    int cleared[3];
    trk_refresh(k, v, cleared);
    trk_unseen_dead(k, v);
    trk_held_busy(k, v, cleared);
    trk_diff_t *d = malloc(sizeof *d);
    trk_plan_t *plan = malloc(sizeof *plan), *plan2 = malloc(sizeof *plan2);
    trk_run_t *run = malloc(sizeof *run);
    trk_add_t *adds = malloc(sizeof *adds * TRK_NPTS);
    if (!d || !plan || !plan2 || !run || !adds) {
        rc = GO_ENOMEM;
        goto done;
    }
    int moves = 0;
    for (int iter = 0; iter <= TRK_MAX_UNDO; iter++) {
        trk_diff(k, v, d);
        if (d->na == 0 && d->nr == 0) {
            break;
        }
        /* The last move was read next to a stone of its colour knocked off its point;
         * that stone is back home and the move's stone gone: it was the stone itself,
         * slid there and back (a nudge, not a move): taken back. */
        if (trk_knock_undone(k, v)) {
            k->knock_n = 0;
            if ((rc = trk_takeback(k, v, out)) != GO_OK)
                goto done;
            continue;
        }
        plan->n = 0;
        memset(run->captured, 0, sizeof run->captured);
        /* Nudges first; a capture may still explain the missing stone (checked below). */
        trk_nudge_t nu[TRK_NPTS];
        uint8_t used[TRK_NPTS];
        int nn = trk_nudges(k, d, v, nu, used);
        int na = 0;
        for (int j = 0; j < d->na; j++)
            if (!used[j])
                adds[na++] = d->a[j];
        go_point_t rest[TRK_NPTS];
        int nrest = 0;
        for (int j = 0; j < d->nr; j++) {
            int is_from = 0;
            for (int q = 0; q < nn; q++)
                is_from |= nu[q].from == d->r[j];
            if (!is_from)
                rest[nrest++] = d->r[j];
        }
        if (na > k->cfg.max_moves) {
            uint64_t sig = trk_sig(d);
            if (sig != k->unexplained_sig) {
                k->unexplained_sig = sig;
                stn_event_t e;
                trk_ev(&e, STN_EV_UNEXPLAINED, GO_EMPTY, go_game_move_count(k->g), v->frame,
                       v->t, v->t_clear);
                snprintf(e.msg, sizeof e.msg,
                         "%d new stones at once (more than %d): not read as moves; waiting",
                         na, k->cfg.max_moves);
                rc = stn_events_push(out, &e);
            }
            goto done;
        }
        if (nn > 0 && d->na <= k->cfg.max_moves) {
            /* Nudges or moves? Compare reading the stones as nudges with reading them
             * all as moves (a capture may explain the missing stone). */
            /* a nudge is rarer than a wrong colour (5); a stone already reported off its
             * point seen next to it is the same accident (1: a move that fits perfectly
             * is still likelier) */
            int cost_n = 0, cost_m;
            for (int q = 0; q < nn; q++)
                cost_n += nu[q].cont ? 1 : 6;
            if (na > 0 && (rc = trk_search(k, d, adds, na, v, plan)) != GO_OK)
                goto done;
            int cn = trk_cost(k, d, na > 0 ? plan : NULL, nu, nn, run);
            if (cn < 0) {
                rc = cn;
                goto done;
            }
            if ((rc = trk_search(k, d, d->a, d->na, v, plan2)) != GO_OK)
                goto done;
            cost_n += cn;
            cost_m = trk_cost(k, d, plan2, NULL, 0, run);
            if (cost_m < 0) {
                rc = cost_m;
                goto done;
            }
            if (cost_m < cost_n) {
                nn = 0;
                na = d->na;
                memcpy(adds, d->a, (size_t)na * sizeof *adds);
                nrest = d->nr;
                memcpy(rest, d->r, (size_t)nrest * sizeof *rest);
                *plan = *plan2;
            }
        } else if (na > 0 || nrest > 0) {
            if ((rc = trk_search(k, d, adds, na, v, plan)) != GO_OK)
                goto done;
        }
        if (k->cfg.bulk_moves > 0 && plan->n >= k->cfg.bulk_moves && !trk_perfect(plan)) {
            /* a bulk change no order explains (a board found again and misread, an arm
             * read as stones): refused, not recorded; the next views decide */
            uint64_t sig = trk_sig(d);
            if (sig != k->unexplained_sig) {
                k->unexplained_sig = sig;
                stn_event_t e;
                trk_ev(&e, STN_EV_UNEXPLAINED, GO_EMPTY, go_game_move_count(k->g), v->frame,
                       v->t, v->t_clear);
                for (int q = 0; q < plan->n; q++)
                    trk_ev_point(&e, plan->steps[q].p);
                snprintf(e.msg, sizeof e.msg,
                         "%d new stones at once and no order of play explains them: not "
                         "read as moves; waiting: ", plan->n);
                trk_ev_list(k, &e, 0);
                rc = stn_events_push(out, &e);
            }
            goto done;
        }
        if (plan->n > 0) {
            trk_score_t sc;
            trk_play(k, plan->steps, plan->n, run, &sc);
            trk_unplay(k, run);
            if (run->oom) {
                rc = GO_ENOMEM;
                goto done;
            }
        } else {
            memset(run->captured, 0, sizeof run->captured);
        }
        /* Stones that appeared together, more of one colour than alternation allows,
         * were recorded in the colours seen; one of them is gone since and nothing
         * captured it: it was no move (a stone knocked half a line read on two points,
         * put back; the renders' played-out game 02). They and the moves recorded after
         * them (at most TRK_TOGETHER_LATER) are taken back and the view read again: the
         * stones still there are recorded anew. What those takebacks would ask back
         * (stones their moves captured, off the board) is left to the new reading. */
        if (trk_together_undone(k, v)) {
            int n = go_game_move_count(k->g) - k->together_first;
            uint8_t ack_before[GO_CELLS];
            memcpy(ack_before, k->ack, sizeof ack_before);
            k->together_n = 0;
            for (int i = 0; i < n; i++)
                if ((rc = trk_takeback(k, v, out)) != GO_OK)
                    goto done;
            memcpy(k->ack, ack_before, sizeof ack_before);
            continue;
        }
        /* Takeback: the last move's stone is gone and nothing captured it; with new
         * stones, only when one of them is the same side's (it was replayed elsewhere). */
        int nm = go_game_move_count(k->g);
        const go_move_t *last = nm > 0 ? go_game_move(k->g, nm - 1) : NULL;
        int same = 0, returned = na > 0;
        uint8_t lastcap[GO_CELLS];
        if (last && last->kind == GO_MOVE_PLAY && na > 0 && trk_in(rest, nrest, last->point)) {
            if ((rc = trk_last_captures(k, lastcap)) != GO_OK)
                goto done;
            last = go_game_move(k->g, nm - 1);
        } else
            memset(lastcap, 0, sizeof lastcap);
        for (int j = 0; last && j < na; j++) {
            same |= adds[j].c == last->color;
            returned &= lastcap[adds[j].p] == adds[j].c;
        }
        same |= returned;   /* the stones it captured are back: all of it undone */
        if (last && last->kind == GO_MOVE_PLAY && trk_in(rest, nrest, last->point) &&
            !run->captured[last->point] && (na == 0 || same)) {
            if ((rc = trk_takeback(k, v, out)) != GO_OK)
                goto done;
            continue;
        }
        /* Record the moves. */
        go_color_t mover = GO_OTHER(go_game_turn(k->g));
        if (plan->n > 0) {
            int first = go_game_move_count(k->g);
            if ((rc = trk_apply(k, plan, v, out, run)) != GO_OK)
                goto done;
            /* a stone a hidden move took and another put back (a ko retaken): not expected
             * off (pending only where the game's board is empty) */
            trk_clean(k);
            if (go_game_move_count(k->g) > first)
                moves += go_game_move_count(k->g) - first;
            if (plan->hidden && go_game_move_count(k->g) > first) {
                char hp[4], hp2[4];
                trk_pname(k, plan->hidden, hp);
                char note[200];
                int at = first;
                if (plan->hidden2) {
                    /* noted on the first of them (the plan is perfect: one move a step) */
                    trk_pname(k, plan->hidden2, hp2);
                    for (int q = plan->n - 1; q >= 0; q--)
                        if (plan->steps[q].hidden && first + q < go_game_move_count(k->g))
                            at = first + q;
                    snprintf(note, sizeof note,
                             "the moves at %s and %s were not seen (a ko taken and taken back, "
                             "or stones played onto dead ones or captured at once): a guess "
                             "from the moves around them%s", hp, hp2,
                             plan->nhidden > 1 ? "; other pairs fitted too" : "");
                } else {
                    snprintf(note, sizeof note,
                             "the move at %s was not seen (played onto a dead stone not yet "
                             "taken off, or captured at once): read from the moves around it%s",
                             hp, plan->nhidden > 1 ? "; other points fitted too" : "");
                }
                if ((rc = stn_track_note(k, at, note)) != GO_OK)
                    goto done;
                if (plan->nhidden > 1) {
                    stn_event_t e;
                    trk_ev(&e, STN_EV_AMBIGUOUS, GO_EMPTY, at + 1, v->frame, v->t,
                           v->t_clear);
                    trk_ev_point(&e, plan->hidden);
                    if (plan->hidden2)
                        trk_ev_point(&e, plan->hidden2);
                    snprintf(e.msg, sizeof e.msg, "%s", note);
                    if ((rc = stn_events_push(out, &e)) != GO_OK)
                        goto done;
                }
            }
            if (plan->nfit > 1 && go_game_move_count(k->g) > first) {
                stn_event_t e;
                trk_ev(&e, STN_EV_AMBIGUOUS, GO_EMPTY, first + 1, v->frame, v->t, v->t_clear);
                for (int q = 0; q < plan->n; q++)
                    trk_ev_point(&e, plan->steps[q].p);
                snprintf(e.msg, sizeof e.msg,
                         "%d stones at once: %d of %d orders fit the rules; recorded the one "
                         "with the closest replies: ", plan->n, plan->nfit, plan->norders);
                trk_ev_list(k, &e, 0);
                if ((rc = stn_track_note(k, first, e.msg)) != GO_OK ||
                    (rc = stn_events_push(out, &e)) != GO_OK)
                    goto done;
            }
            mover = plan->steps[plan->n - 1].c;
        }
        /* Nudged stones: put back, a warning. */
        if ((rc = trk_report_nudges(k, nu, nn, mover, v, out)) != GO_OK)
            goto done;
        /* Missing stones nothing explains: removed without capture. */
        if ((rc = trk_report_gone(k, rest, nrest, plan, run, v, out)) != GO_OK)
            goto done;
        break;
    }
    if ((rc = trk_hidden_on_dead(k, v, cleared, plan, run, out, &moves)) != GO_OK)
        goto done;
    rc = trk_reconcile(k, v, ack0, out);
    if (rc == GO_OK && (rc = trk_held_settle(k, v, v->frame, v->t, out)) >= 0)
        rc = moves;
done:
    if (rc < 0) {
        trk_restore(k, bk, out);
        if (rc != GO_EINVAL)
            rc = GO_ENOMEM;
    } else {
        trk_backup_free(bk);
    }
    free(d);
    free(plan);
    free(plan2);
    free(run);
    free(adds);
    return rc;
}

/* ---- queries ---- */

/* The points of the board where mark is set, in board order: at most max into pts; how
 * many in all. */
static int marked_points(const stn_track_t *k, const uint8_t *mark, go_point_t *pts, int max)
{
    int n = 0;
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (mark[p]) {
            if (n < max)
                pts[n] = (go_point_t)p;
            n++;
        }
    }
    return n;
}

int stn_track_disagreements(const stn_track_t *k, go_point_t *pts, int max)
{
    return marked_points(k, k->ack, pts, max);
}

int stn_track_pending(const stn_track_t *k, go_point_t *pts, int max)
{
    return marked_points(k, k->pending, pts, max);
}

int stn_track_warnings(const stn_track_t *k, go_color_t c)
{
    return c == GO_BLACK || c == GO_WHITE ? k->warnings[c] : 0;
}
