/* stn_track_accident.c: accidents, what the hands do to the stones already there (steps 2
 * and 6 of how a view is read, stn_track.h): a stone nudged onto a neighbouring point, one
 * knocked off its point by the hand that played next to it (or the move's stone slid
 * there and back: read as a takeback by the feed), stones removed without capture or
 * read gone where no hand reached; the cost that weighs such readings against reading the
 * stones as moves; and the restore list that acknowledges every point still disagreeing.
 *
 * Invariants: nothing here plays for real (trk_cost tries the plan and undoes it: the
 * game as it was); a nudge pairs a missing stone with a new stone of its colour on one of
 * its 8 neighbours, each added stone used at most once, and its two points name each
 * other in ack_pair[]; knock_n is made non-zero only here (the move a knocked stone was
 * read next to); after trk_reconcile every point the view disagrees at is acknowledged
 * (ack[p] = 1 + the colour seen), so each disagreement is reported once.
 */
#include "station/stn_track_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- nudged and knocked stones ---- */

/* An added stone of colour pc on a point next to r (8-neighbourhood), empty in the record
 * and not yet paired: taken (used_a) as r's stone nudged there, into *nu. 1 when found. */
static int trk_nudge_pair(const stn_track_t *k, const trk_diff_t *d, uint8_t *used_a, int r,
                          go_color_t pc, int cont, trk_nudge_t *nu)
{
    for (int j = 0; j < d->na; j++) {
        int a = d->a[j].p;
        if (used_a[j] || d->a[j].c != pc || trk_ideal(k, a) != GO_EMPTY)
            continue;
        if (abs(GO_X(a) - GO_X(r)) <= 1 && abs(GO_Y(a) - GO_Y(r)) <= 1) {
            used_a[j] = 1;
            nu->from = (go_point_t)r;
            nu->to = (go_point_t)a;
            nu->c = pc;
            nu->cont = cont;
            return 1;
        }
    }
    return 0;
}

/* Pair missing stones with stones of their colour on a neighbouring point; then stones
 * already reported missing (acknowledged, still read empty) with such stones (cont). */
int trk_nudges(const stn_track_t *k, const trk_diff_t *d, const stn_view_t *v,
               trk_nudge_t *nu, uint8_t *used_a)
{
    int n = 0;
    memset(used_a, 0, (size_t)d->na);
    for (int i = 0; i < d->nr; i++) {
        int r = d->r[i];
        if (trk_view_at(k, v, r) == GO_EMPTY)
            n += trk_nudge_pair(k, d, used_a, r, trk_ideal(k, r), 0, &nu[n]);
    }
    for (int i = 0; i < k->size * k->size; i++) {
        int r = trk_pt(k->size, i);
        go_color_t pc = trk_ideal(k, r);
        if (k->ack[r] == 1 + GO_EMPTY && pc != GO_EMPTY && v->color[i] == GO_EMPTY)
            n += trk_nudge_pair(k, d, used_a, r, pc, 1, &nu[n]);
    }
    return n;
}

/* The plan's one move (in turn, its colour seen) when it was played next to p
 * (8-neighbourhood) and has the colour the record has at p, or -1: a stone of the
 * mover's colour missing next to its move was most likely knocked off its point by the
 * hand that played (the move is due; a stone moved a whole point onto it is rarer).
 * With several moves, a stone next to a missing one of its colour is a nudge as before. */
static int trk_displaced_by(const stn_track_t *k, const trk_plan_t *plan, int p)
{
    go_color_t pc = trk_ideal(k, p);
    for (int j = 0; plan && plan->n == 1 && j < plan->n; j++) {
        const trk_step_t *st = &plan->steps[j];
        if (st->c != pc || st->seen != st->c || st->tolerant || st->hidden)
            continue;
        if (abs(GO_X(st->p) - GO_X(p)) <= 1 && abs(GO_Y(st->p) - GO_Y(p)) <= 1)
            return j;
    }
    return -1;
}

/* How unlikely a reading is: steps that cannot be recorded, void moves, missing stones
 * nothing explains, stones of the wrong colour or out of turn (nudges cost 6 each, added
 * by the caller), a stone of the mover's colour knocked off its point next to its move
 * (trk_displaced_by: 3, likelier than a nudge onto the move's point). plan may be NULL
 * (no moves). Leaves the game as it was; run gets the plan's captures. GO_ENOMEM (< 0)
 * when a trial could not be played. */
int trk_cost(stn_track_t *k, const trk_diff_t *d, const trk_plan_t *plan,
             const trk_nudge_t *nu, int nn, trk_run_t *run)
{
    trk_score_t sc;
    memset(&sc, 0, sizeof sc);
    memset(run->captured, 0, sizeof run->captured);
    int odd = 0;
    if (plan && plan->n > 0) {
        trk_play(k, plan->steps, plan->n, run, &sc);
        trk_unplay(k, run);
        if (run->oom)
            return GO_ENOMEM;
        for (int i = 0; i < plan->n; i++)
            odd += plan->steps[i].seen != plan->steps[i].c || plan->steps[i].tolerant;
    }
    int unexpl = 0, displaced = 0;
    for (int i = 0; i < d->nr; i++) {
        int p = d->r[i], hit = run->captured[p] != 0;
        for (int j = 0; plan && j < plan->n && !hit; j++)
            hit = plan->steps[j].p == p;
        for (int j = 0; j < nn && !hit; j++)
            hit = nu[j].from == p;
        if (!hit && trk_displaced_by(k, plan, p) >= 0)
            displaced++;   /* knocked by the hand that played next to it */
        else
            unexpl += !hit;
    }
    return sc.over * 1000 + sc.voids * 100 + unexpl * 10 + odd * 5 + displaced * 3;
}

/* Is the last move the one read next to a knocked stone (k->knock_n), its stone now gone
 * (not captured: it took nothing) and the knocked stone back home? */
int trk_knock_undone(const stn_track_t *k, const stn_view_t *v)
{
    int nm = go_game_move_count(k->g);
    if (!k->knock_n || k->knock_n != nm)
        return 0;
    const go_move_t *m = go_game_move(k->g, nm - 1);
    if (m->kind != GO_MOVE_PLAY || m->point != k->knock_pt || m->ncaptured > 0)
        return 0;
    go_color_t home = trk_ideal(k, k->knock_from);
    return home != GO_EMPTY && trk_view_at(k, v, k->knock_pt) == GO_EMPTY &&
           trk_view_at(k, v, k->knock_from) == (int)home;
}

/* ---- reporting them ---- */

/* Nudged stones (nu[0..nn), seen in v): put back, a warning to the mover (held for its
 * grace), or, for a stone already reported off its point, the same accident. 0 or an
 * error. */
int trk_report_nudges(stn_track_t *k, const trk_nudge_t *nu, int nn, go_color_t mover,
                      const stn_view_t *v, stn_events_t *out)
{
    int rc;
    for (int q = 0; q < nn; q++) {
        stn_event_t e;
        char a[4], b[4];
        trk_pname(k, nu[q].from, a);
        trk_pname(k, nu[q].to, b);
        trk_ev(&e, STN_EV_MOVED, nu[q].c, go_game_move_count(k->g), v->frame, v->t,
               v->t_clear);
        trk_ev_point(&e, nu[q].from);
        trk_ev_point(&e, nu[q].to);
        snprintf(e.msg, sizeof e.msg, "the %s stone at %s %s %s: put it back",
                 nu[q].c == GO_BLACK ? "black" : "white", a,
                 nu[q].cont ? "(off its point) lies at" : "was moved to", b);
        k->ack_pair[nu[q].from] = nu[q].to;
        k->ack_pair[nu[q].to] = nu[q].from;
        go_point_t pair[2] = { nu[q].from, nu[q].to };
        if ((rc = stn_events_push(out, &e)) != GO_OK)
            return rc;
        /* the same accident as before: its held warning watches the new point too
         * (given already or never held: nothing new) */
        if (nu[q].cont)
            trk_held_extend(k, nu[q].from, nu[q].to);
        else if ((rc = trk_warn(k, mover, 1, pair, 2, v, out)) != GO_OK)
            return rc;
    }
    return GO_OK;
}

/* Missing stones nothing explains (of rest[0..nrest), once the plan is recorded, run
 * holding its captures): removed without capture, knocked off their points by the hand
 * that played next to them (knock_n), or misread where no hand reached: put back, and a
 * warning but for a misread. 0 or an error. */
int trk_report_gone(stn_track_t *k, const go_point_t *rest, int nrest,
                    const trk_plan_t *plan, const trk_run_t *run, const stn_view_t *v,
                    stn_events_t *out)
{
    int rc;
    go_point_t gone[TRK_NPTS];
    int ng = 0;
    for (int j = 0; j < nrest; j++) {
        int p = rest[j], hit = run->captured[p] != 0;
        for (int q = 0; q < plan->n && !hit; q++)
            hit = plan->steps[q].p == p;
        if (!hit && !trk_ok(k, p, trk_view_at(k, v, p)))
            gone[ng++] = (go_point_t)p;
    }
    if (ng > 0) {
        stn_event_t e;
        go_color_t owner = trk_ideal(k, gone[0]), by = GO_OTHER(owner);
        /* a stone next to a move of its colour: knocked by the hand that played */
        int knock = -1;
        for (int j = 0; j < ng && knock < 0; j++)
            knock = trk_displaced_by(k, plan, gone[j]);
        if (knock >= 0)
            by = plan->steps[knock].c;
        /* read gone where no hand reached since the last view: a misread, no warning */
        int unreached = knock < 0;
        for (int j = 0; j < ng && unreached; j++)
            unreached = trk_view_unreached(k, v, gone[j]);
        trk_ev(&e, STN_EV_MOVED, owner, go_game_move_count(k->g), v->frame, v->t,
               v->t_clear);
        for (int j = 0; j < ng; j++)
            trk_ev_point(&e, gone[j]);
        if (knock >= 0) {
            k->knock_n = go_game_move_count(k->g);
            k->knock_pt = plan->steps[knock].p;
            for (int j = 0; j < ng; j++)
                if (trk_displaced_by(k, plan, gone[j]) == knock)
                    k->knock_from = gone[j];
            char kp[4];
            trk_pname(k, plan->steps[knock].p, kp);
            snprintf(e.msg, sizeof e.msg,
                     "stones off their points (knocked by the hand that played %s), put "
                     "them back: ", kp);
        } else if (unreached) {
            snprintf(e.msg, sizeof e.msg,
                     "stones read gone where no hand reached (misread?), put them back "
                     "if they are off: ");
        } else {
            snprintf(e.msg, sizeof e.msg, "stones removed without capture, put them back: ");
        }
        trk_ev_list(k, &e, 0);
        if ((rc = stn_events_push(out, &e)) != GO_OK ||
            (!unreached && (rc = trk_warn(k, by, knock >= 0, gone, ng, v, out)) != GO_OK))
            return rc;
    }
    return GO_OK;
}

/* ---- the restore list ---- */

static int trk_nack(const stn_track_t *k)
{
    int n = 0;
    for (int i = 0; i < k->size * k->size; i++)
        n += k->ack[trk_pt(k->size, i)] != 0;
    return n;
}

/* Acknowledge every point still disagreeing; report the list when it grew. */
int trk_reconcile(stn_track_t *k, const stn_view_t *v, const uint8_t *ack0,
                  stn_events_t *out)
{
    int grew = 0, had = 0;
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i);
        if (!trk_ok(k, p, v->color[i]))
            k->ack[p] = (uint8_t)(1 + v->color[i]);
        grew |= k->ack[p] && k->ack[p] != ack0[p];
        had |= ack0[p] != 0;
    }
    int now = trk_nack(k);
    stn_event_t e;
    if (grew) {
        trk_ev(&e, STN_EV_RESTORE, GO_EMPTY, go_game_move_count(k->g), v->frame, v->t,
               v->t_clear);
        for (int i = 0; i < k->size * k->size; i++) {
            int p = trk_pt(k->size, i);
            if (k->ack[p])
                trk_ev_point(&e, p);
        }
        snprintf(e.msg, sizeof e.msg, "the board disagrees with the record: restore ");
        trk_ev_list(k, &e, 0);
        return stn_events_push(out, &e);
    }
    if (had && !now) {
        trk_ev(&e, STN_EV_AGREES, GO_EMPTY, go_game_move_count(k->g), v->frame, v->t,
               v->t_clear);
        snprintf(e.msg, sizeof e.msg, "the board agrees with the record again");
        return stn_events_push(out, &e);
    }
    return GO_OK;
}
