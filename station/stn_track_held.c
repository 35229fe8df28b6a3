/* stn_track_held.c: the referee's warnings (competition rules 8, 9: a stone moved, stones
 * removed without capture; two warnings lose), given at once or held back for their grace
 * (stn_track_config_t.warn_grace_s), and the settled frames that end a grace
 * (stn_track_tick).
 *
 * Invariants: held[0..nheld) (at most TRK_MAX_HELD) are the warnings neither given nor
 * dropped; one is given when its grace is over and the board still disagrees at its
 * points (a view or a settled frame), or at a view once the opponent has moved; it is
 * dropped (a note, no warning) only by a view that agrees with the record at its points
 * (or by stn_track_sync); warnings[c] counts the warnings given, and lost[c] is set
 * (STN_EV_LOSS, once) at the second.
 */
#include "station/stn_track_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- warnings ---- */

static int trk_warn_at(stn_track_t *k, go_color_t c, const char *why, uint64_t frame,
                       double t, double t_clear, stn_events_t *out)
{
    if (!k->cfg.warn_moved || (c != GO_BLACK && c != GO_WHITE))
        return GO_OK;
    stn_event_t e;
    int move = go_game_move_count(k->g);
    k->warnings[c]++;
    trk_ev(&e, STN_EV_WARNING, c, move, frame, t, t_clear);
    snprintf(e.msg, sizeof e.msg, "warning %d to %s: %s", k->warnings[c], trk_cword(c), why);
    int rc = move > 0 ? stn_track_note(k, move - 1, e.msg) : GO_OK;
    if (rc == GO_OK)
        rc = stn_events_push(out, &e);
    if (rc == GO_OK && k->warnings[c] >= 2 && !k->lost[c]) {
        k->lost[c] = 1;
        trk_ev(&e, STN_EV_LOSS, c, move, frame, t, t_clear);
        snprintf(e.msg, sizeof e.msg,
                 "%s has two warnings: a loss under the competition rules (arbiter decides)",
                 trk_cword(c));
        if (move > 0)
            rc = stn_track_note(k, move - 1, e.msg);
        if (rc == GO_OK)
            rc = stn_events_push(out, &e);
    }
    return rc;
}

static const char *trk_held_why(const trk_held_t *h)
{
    return h->moved ? "a stone was moved" : "stones removed that were not captured";
}

/* A warning to c for the disagreement at pts seen in v: held back for the grace (given at
 * once when there is none, or no room to hold it). */
int trk_warn(stn_track_t *k, go_color_t c, int moved, const go_point_t *pts, int np,
             const stn_view_t *v, stn_events_t *out)
{
    if (!k->cfg.warn_moved || (c != GO_BLACK && c != GO_WHITE))
        return GO_OK;
    if (k->cfg.warn_grace_s > 0.0 && k->nheld < TRK_MAX_HELD && np > 0) {
        trk_held_t *h = &k->held[k->nheld++];
        h->c = c;
        h->moved = moved;
        h->t0 = v->t;
        h->move0 = go_game_move_count(k->g);
        h->np = np < TRK_HELD_PTS ? np : TRK_HELD_PTS;
        memcpy(h->pts, pts, sizeof *pts * (size_t)h->np);
        return GO_OK;
    }
    trk_held_t h = { .moved = moved };
    return trk_warn_at(k, c, trk_held_why(&h), v->frame, v->t, v->t_clear, out);
}

/* A stone held warnings watch at `from` lies at `to` now: they watch `to` too. */
void trk_held_extend(stn_track_t *k, int from, int to)
{
    for (int i = 0; i < k->nheld; i++) {
        trk_held_t *h = &k->held[i];
        if (trk_in(h->pts, h->np, from) && !trk_in(h->pts, h->np, to) && h->np < TRK_HELD_PTS)
            h->pts[h->np++] = (go_point_t)to;
    }
}

/* Does the board still disagree with the record at one of h's points? */
static int trk_held_open(const stn_track_t *k, const trk_held_t *h)
{
    for (int j = 0; j < h->np; j++)
        if (k->ack[h->pts[j]])
            return 1;
    return 0;
}

/* Has c's opponent moved since h was seen? */
static int trk_held_answered(const stn_track_t *k, const trk_held_t *h)
{
    int n = go_game_move_count(k->g);
    for (int i = h->move0; i < n; i++) {
        const go_move_t *m = go_game_move(k->g, i);
        if (m->kind == GO_MOVE_PLAY && m->color == GO_OTHER(h->c))
            return 1;
    }
    return 0;
}

/* The side a held warning waits on is still taking off the stones it captured (cleared:
 * dead stones read gone in this view, by colour), its opponent not having moved: its
 * turn is not over, and what it knocked may still be put back "at once": the grace
 * starts again from this view. */
void trk_held_busy(stn_track_t *k, const stn_view_t *v, const int cleared[3])
{
    for (int i = 0; i < k->nheld; i++) {
        trk_held_t *h = &k->held[i];
        if (cleared[GO_OTHER(h->c)] > 0 && !trk_held_answered(k, h) && v->t > h->t0)
            h->t0 = v->t;
    }
}

/* Settle the held warnings after a view (v; NULL: a settled frame at frame/t): dropped
 * with a note where the board agrees again, given where the grace is over or the
 * opponent has moved. Returns the warnings given or an error. */
int trk_held_settle(stn_track_t *k, const stn_view_t *v, uint64_t frame, double t,
                    stn_events_t *out)
{
    int given = 0, keep = 0, rc = GO_OK;
    double t_clear = v ? v->t_clear : t;
    for (int i = 0; i < k->nheld; i++) {
        trk_held_t h = k->held[i];
        if (go_game_move_count(k->g) < h.move0)
            h.move0 = go_game_move_count(k->g);   /* taken back since */
        int done = 0;   /* 0: still held (after an error, too) */
        if (rc == GO_OK && !trk_held_open(k, &h)) {
            if (v) {   /* a tick never sees the board agree: only a view settles it */
                int n = go_game_move_count(k->g);
                char note[96];
                snprintf(note, sizeof note, "%s and put back at once: no warning",
                         h.moved ? "a stone moved" : "stones taken off");
                if (n > 0)
                    rc = stn_track_note(k, n - 1, note);
                done = 1;
            }
        } else if (rc == GO_OK &&
                   (t + 1e-9 >= h.t0 + k->cfg.warn_grace_s || (v && trk_held_answered(k, &h)))) {
            rc = trk_warn_at(k, h.c, trk_held_why(&h), frame, t, t_clear, out);
            given++;
            done = 1;
        }
        if (!done)
            k->held[keep++] = h;
    }
    k->nheld = keep;
    return rc == GO_OK ? given : rc;
}

/* ---- settled frames ---- */

int stn_track_tick(stn_track_t *k, uint64_t frame, double t, stn_events_t *out)
{
    int due = 0;
    for (int i = 0; i < k->nheld; i++)
        due |= t + 1e-9 >= k->held[i].t0 + k->cfg.warn_grace_s;
    if (!due)
        return 0;
    int rc = trk_info_follow(k);
    if (rc != GO_OK)
        return rc;
    trk_backup_t *bk = trk_backup(k, out);
    if (!bk)
        return GO_ENOMEM;
    rc = trk_held_settle(k, NULL, frame, t, out);
    if (rc < 0) {
        trk_restore(k, bk, out);
        return GO_ENOMEM;
    }
    trk_backup_free(bk);
    return rc;
}

int stn_track_held(const stn_track_t *k)
{
    return k->nheld;
}
