/* stn_track_internal.h: the tracker's state, the types its reading passes between the
 * steps, and the helpers shared by its sources (not public API: stn_track.h is).
 *
 * The tracker's sources, one seam each (each opens with what it holds):
 *  - stn_track.c: create/destroy, what the board should show (the expectations), the
 *    feed (reading a view) and the queries;
 *  - stn_track_ledger.c: the move ledger (info[], recording a chosen plan, takebacks,
 *    console pass/undo/resign) and the feed as a transaction;
 *  - stn_track_search.c: the diff-to-plan search (trial sequences, the orders, the moves
 *    the camera could not see);
 *  - stn_track_held.c: the warnings, given at once or held back for their grace;
 *  - stn_track_accident.c: accidents (nudged and knocked stones, stones removed) and the
 *    restore list.
 *
 * Invariants of stn_track_t (after every public call):
 *  - info[0..ninfo) parallels the game's moves (ninfo == go_game_move_count(g));
 *  - pending[p] != 0 only where the game's board is empty (a captured stone still seen);
 *  - alias[p] != 0 only where the game has a stone (its physical colour differs);
 *  - ack[p] = 1 + the colour seen at p when that disagreement was reported; cleared as
 *    soon as the board shows what the record says there.
 */
#ifndef KIFUCAM_STN_TRACK_INTERNAL_H
#define KIFUCAM_STN_TRACK_INTERNAL_H

#include "station/stn_track.h"

#include "rules/go_point.h"

#include <string.h>

#define TRK_NPTS (GO_MAX_SIZE * GO_MAX_SIZE)
#define TRK_MAX_UNDO 8
#define TRK_MAX_HELD 8   /* warnings held back for their grace at once */
#define TRK_TOGETHER_LATER 2 /* moves recorded after stones that appeared together beyond
                                alternation, still taken back with them when one goes */
#define TRK_HELD_PTS 8   /* points a held warning watches */

/* A warning held back for its grace: given when the board still disagrees at pts after
 * t0 + warn_grace_s, or once `c`'s opponent has moved since move0; dropped when the
 * board agrees there again first. t0 moves on while `c` is still taking off the stones
 * it captured (trk_held_busy). */
typedef struct trk_held {
    go_color_t c;        /* the side to warn */
    int moved;           /* 1: a stone moved; 0: stones removed without capture */
    double t0;           /* when the disagreement was seen */
    int move0;           /* moves recorded then */
    int np;
    go_point_t pts[TRK_HELD_PTS];
} trk_held_t;

struct stn_track {
    go_game_t *g;
    stn_track_config_t cfg;
    int size;
    uint8_t pending[GO_CELLS];
    uint8_t alias[GO_CELLS];
    uint8_t ack[GO_CELLS];
    go_point_t ack_pair[GO_CELLS]; /* a nudge's two points, each naming the other */
    uint8_t gone_dead[GO_CELLS];   /* this view: dead stones (pending) no longer seen */
    uint8_t pend_gcol[GO_CELLS];   /* the recorded colour of a pending dead stone */
    int pend_move[GO_CELLS];       /* the move that captured a pending dead stone */
    uint8_t unseen_cap[GO_CELLS];  /* a stone the last move captured that its view read
                                      gone (colour), and that move's number */
    int unseen_move[GO_CELLS];
    int gone_move[GO_CELLS];       /* this view: the move that captured a stone now gone
                                      (0: none) */
    int warnings[3];
    int lost[3];
    trk_held_t held[TRK_MAX_HELD];
    int nheld;
    stn_move_info_t *info;
    int ninfo, capinfo;
    uint64_t unexplained_sig;
    int knock_n;                   /* the move (count) recorded with a stone of its colour
                                      knocked off next to it, or 0 */
    go_point_t knock_pt, knock_from; /* that move's point, the knocked stone's point */
    int together_first, together_n; /* the moves recorded from stones that appeared
                                      together, more of one colour than alternation
                                      allows: together_n of them after move
                                      together_first (0: none; forgotten once more than
                                      TRK_TOGETHER_LATER moves follow them); made non-zero
                                      only by trk_apply */
};

typedef struct trk_add {
    go_point_t p;
    go_color_t c;
    int hidden;          /* a move the camera could not see, tried by the two-move search
                            (its point's first_t and late capture say nothing: see
                            trk_view_fit); 0 for every stone seen */
} trk_add_t;

typedef struct trk_diff {
    int na, nr;
    trk_add_t a[TRK_NPTS];
    go_point_t r[TRK_NPTS];
} trk_diff_t;

typedef struct trk_step {
    go_point_t p;
    go_color_t c;        /* the colour recorded */
    go_color_t seen;     /* the colour seen (differs for a wrong colour) */
    int tolerant;        /* out of turn: a second move in a row */
    int hidden;          /* trk_add_t.hidden */
} trk_step_t;

typedef struct trk_score {
    int over;            /* steps that could not be recorded at all */
    int voids;           /* illegal moves (void, a pass) */
    int unexplained;     /* missing stones no capture explains */
    int late;            /* stones the order captures that the view still shows (an order
                            that needs no late removal fits the view better) */
    int inversions;      /* pairs of moves in the reverse of the order the camera first
                            saw their stones (stn_view_t.first_t, between hands) */
    int dist;            /* sum of distances between consecutive moves */
} trk_score_t;

typedef struct trk_run {
    int applied;                 /* game moves added */
    uint8_t captured[GO_CELLS];  /* colour of each stone captured by the sequence, or
                                    that a void ko retake would have captured (the
                                    player took them off with it: part of the void move) */
    int result[TRK_NPTS];        /* per step: GO_OK or the reason it is void */
    int oom;                     /* an allocation failed: the trial means nothing */
    go_color_t dropped;          /* a pass before the run dropped with a void move after
                                    it (end_by_signals), replayed by trk_unplay */
} trk_run_t;

typedef struct trk_plan {
    int n;
    trk_step_t steps[TRK_NPTS];
    trk_score_t score;
    int nfit;            /* orders that fit as well as the chosen one */
    int norders;         /* orders tried */
    int hidden;          /* a move the camera could not see (see trk_search), or 0 */
    int hidden2;         /* a second one (two hidden moves: trk_search_pairs), or 0 */
    int nhidden;         /* how many such moves (or pairs) would have fitted */
} trk_plan_t;

typedef struct trk_nudge {
    go_point_t from, to;
    go_color_t c;
    int cont;            /* a stone already reported off its point (acknowledged, read
                            empty) seen again on a neighbouring point: the same accident */
} trk_nudge_t;

/* ---- small helpers ---- */

static inline const char *trk_cname(go_color_t c)
{
    return c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : "-";
}

static inline const char *trk_cword(go_color_t c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "nobody";
}

/* A point as people read it (Q16: the board's edge letters, no I, row 1 at the bottom);
 * the events' points[] and the record keep the point itself (SGF letters in files and
 * JSON). */
static inline void trk_pname(const stn_track_t *k, int p, char out[4])
{
    go_point_human(k->size, p, out);
}

static inline go_point_t trk_pt(int size, int i)
{
    return (go_point_t)GO_PT(i % size, i / size);
}

static inline void trk_ev(stn_event_t *e, stn_event_kind_t kind, go_color_t c, int move,
                          uint64_t frame, double t, double t_hand)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->color = c;
    e->move = move;
    e->frame = frame;
    e->t = t;
    e->t_hand = t_hand;
}

static inline void trk_ev_point(stn_event_t *e, int p)
{
    if (e->npoints < STN_EV_MAX_POINTS)
        e->points[e->npoints++] = (go_point_t)p;
}

static inline int trk_view_at(const stn_track_t *k, const stn_view_t *v, int p)
{
    return v->color[GO_Y(p) * k->size + GO_X(p)];
}

/* No hand reached p since the last view (stn_view_t.unreached). */
static inline int trk_view_unreached(const stn_track_t *k, const stn_view_t *v, int p)
{
    return v->unreached[GO_Y(p) * k->size + GO_X(p)] != 0;
}

static inline int trk_in(const go_point_t *v, int n, int p)
{
    for (int i = 0; i < n; i++)
        if (v[i] == p)
            return 1;
    return 0;
}

/* ---- what the board should show (stn_track.c) ---- */

/* Append " Q16" for each point of e from index `from` to msg (bounded), space separated. */
void trk_ev_list(const stn_track_t *k, stn_event_t *e, int from);
/* Keep pending/alias consistent with the game's board (after undo, captures). */
void trk_clean(stn_track_t *k);
/* The colour the record says the board should show at p. */
go_color_t trk_ideal(const stn_track_t *k, int p);
/* Is seeing s at p expected (or already reported)? */
int trk_ok(const stn_track_t *k, int p, int s);

/* ---- the move ledger (stn_track_ledger.c) ---- */

typedef struct trk_backup trk_backup_t;

/* Append an empty info (this frame and times) for a new move. 0 or GO_ENOMEM. */
int trk_info_push(stn_track_t *k, uint64_t frame, double t, double t_hand);
/* Drop the infos of moves n and later (their comments freed). */
void trk_info_truncate(stn_track_t *k, int n);
/* Bring infos in line with the game's move count. 0 or GO_ENOMEM. */
int trk_info_follow(stn_track_t *k);
/* The state before a feed (or a tick), or NULL when out of memory (nothing changed). */
trk_backup_t *trk_backup(const stn_track_t *k, const stn_events_t *out);
/* Free a backup no longer needed. Does nothing if NULL. */
void trk_backup_free(trk_backup_t *bk);
/* Put the state kept in bk back, *out's events too (consumes bk). 0 or GO_ENOMEM. */
int trk_restore(stn_track_t *k, trk_backup_t *bk, stn_events_t *out);
/* Record the plan's moves with their events and notes (run gets their captures). 0 or an
 * error (the caller rolls the feed back). */
int trk_apply(stn_track_t *k, const trk_plan_t *plan, const stn_view_t *v,
              stn_events_t *out, trk_run_t *run);
/* Mark in cap[] the stones the last move captured. 0 or GO_ENOMEM (move lost: roll back). */
int trk_last_captures(stn_track_t *k, uint8_t *cap);
/* Undo the last move as a takeback seen on the board (v), reported in *out. */
int trk_takeback(stn_track_t *k, const stn_view_t *v, stn_events_t *out);

/* ---- warnings, held back for their grace (stn_track_held.c) ---- */

/* A warning to c (moved: a stone moved, else stones removed) for the disagreement at
 * pts[0..np) seen in v: held back for the grace, or given at once. 0 or an error. */
int trk_warn(stn_track_t *k, go_color_t c, int moved, const go_point_t *pts, int np,
             const stn_view_t *v, stn_events_t *out);
/* A stone held warnings watch at `from` lies at `to` now: they watch `to` too. */
void trk_held_extend(stn_track_t *k, int from, int to);
/* The grace starts again for the sides still taking off the stones they captured. */
void trk_held_busy(stn_track_t *k, const stn_view_t *v, const int cleared[3]);
/* Settle the held warnings after a view (v; NULL: a settled frame at frame/t). Returns
 * the warnings given (>= 0) or an error. */
int trk_held_settle(stn_track_t *k, const stn_view_t *v, uint64_t frame, double t,
                    stn_events_t *out);

/* ---- accidents: nudged and knocked stones, the restore list (stn_track_accident.c) ---- */

/* Pair missing stones with stones of their colour on a neighbouring point (nu[], used_a[]
 * marks the added stones taken); returns how many. */
int trk_nudges(const stn_track_t *k, const trk_diff_t *d, const stn_view_t *v,
               trk_nudge_t *nu, uint8_t *used_a);
/* How unlikely a reading is (plan NULL: no moves; the nudges' own cost is the caller's),
 * or GO_ENOMEM. The game as it was; run gets the plan's captures. */
int trk_cost(stn_track_t *k, const trk_diff_t *d, const trk_plan_t *plan,
             const trk_nudge_t *nu, int nn, trk_run_t *run);
/* Report the nudges: put back, a warning to mover (or the same accident). 0 or an error. */
int trk_report_nudges(stn_track_t *k, const trk_nudge_t *nu, int nn, go_color_t mover,
                      const stn_view_t *v, stn_events_t *out);
/* Report the stones of rest[0..nrest) the recorded plan does not explain (removed,
 * knocked, misread): put back, a warning but for a misread. 0 or an error. */
int trk_report_gone(stn_track_t *k, const go_point_t *rest, int nrest,
                    const trk_plan_t *plan, const trk_run_t *run, const stn_view_t *v,
                    stn_events_t *out);
/* Are stones that appeared together, more of one colour than alternation allows
 * (together_n), among the record's last moves (at most TRK_TOGETHER_LATER after them),
 * one of them gone since and not captured? */
int trk_together_undone(const stn_track_t *k, const stn_view_t *v);
/* Is the last move the stone read next to a knocked one, slid back (knock_n)? */
int trk_knock_undone(const stn_track_t *k, const stn_view_t *v);
/* Acknowledge every point still disagreeing; report the list when it grew (ack0: the
 * acks before the view), or that the board agrees again. */
int trk_reconcile(stn_track_t *k, const stn_view_t *v, const uint8_t *ack0,
                  stn_events_t *out);

/* ---- the diff-to-plan search (stn_track_search.c) ---- */

/* Play one step (of a trial, or for real): GO_OK, a void reason (recorded as a pass), GO_EOVER / GO_EINVAL
 * (nothing recordable) or GO_ENOMEM; run->applied counts game moves. */
int trk_step(stn_track_t *k, const trk_step_t *st, trk_run_t *run);
/* Mark in captured[] what the void step st would have captured on the board `before` it.
 * 0 or GO_ENOMEM. */
int trk_would_capture(const stn_track_t *k, const trk_step_t *st, const uint8_t *before,
                      uint8_t *captured);
/* Play steps[0..n) as a trial, filling *run and *sc (run->oom: an allocation failed). */
void trk_play(stn_track_t *k, const trk_step_t *steps, int n, trk_run_t *run,
              trk_score_t *sc);
/* Undo the trial trk_play made (run->oom set when a dropped pass could not be replayed). */
void trk_unplay(stn_track_t *k, trk_run_t *run);
/* Does the plan explain the view fully (nothing void, over, unexplained, recoloured or
 * out of turn)? */
int trk_perfect(const trk_plan_t *p);
/* Choose the moves explaining adds[0..na) and their order into *best (hidden moves
 * included). 0 or GO_ENOMEM (game unchanged, *best meaningless). */
int trk_search(stn_track_t *k, const trk_diff_t *d, const trk_add_t *adds, int na,
               const stn_view_t *v, trk_plan_t *best);

#endif
