/* stn_sim.h: a simulated camera for the station (header only, tests and bench): plays a
 * real game record in front of the station as vision would report it — per move a hand
 * coming in from the player's side (occluder flag, a moving hidden rectangle, garbage
 * under it), the stone placed, the hand leaving, then still frames — with the troubles of
 * real play drawn from a seeded generator: captured stones removed late (one to three moves
 * later), fast play (the next hand arrives before the board settles, so two moves land in
 * one view), one-frame flickers, bumps (a stone nudged to a neighbouring point and pushed
 * back with the next move), takebacks (a stone put on a wrong point, left, taken back, then
 * the real move), stones of the wrong colour. Passes go through the console. Vision itself is perfect here:
 * this tests the station, not the recogniser. Fast play is not drawn where no camera could
 * tell the moves apart (see sim_run).
 *
 * Needs no cmocka: the tests and the bench both use it.
 */
#ifndef KIFUCAM_STN_SIM_H
#define KIFUCAM_STN_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_game.h"
#include "station/station.h"

typedef struct sim_opts {
    uint32_t seed;
    double fps;          /* default 30 */
    double p_late;       /* a capture's stones stay on the board for a while */
    double p_fast;       /* the next move comes before the board settles */
    double p_flicker;    /* a point misread for one frame */
    double p_bump;       /* a stone nudged after a move, pushed back with the next */
    double p_takeback;   /* a stone put on a wrong point first, left, then taken back */
    double p_wrongcol;   /* a stone of the other colour played (the turn says whose) */
    int trace;           /* print every event to stderr (debugging) */
} sim_opts_t;

typedef struct sim_stats {
    int frames, moves, passes, fast, late, flickers, bumps, takebacks, wrongcols;
    int lat_n;
    double lat[2048];    /* per recorded move: seen time - hand-left time (footage s) */
    double lat_max;
    int events[STN_EV_KIND_COUNT];
} sim_stats_t;

static inline void sim_defaults(sim_opts_t *o, uint32_t seed)
{
    o->seed = seed ? seed : 1;
    o->fps = 30.0;
    o->p_late = 0.25;
    o->p_fast = 0.08;
    o->p_flicker = 0.05;
    o->p_bump = 0.01;
    o->p_takeback = 0.01;
    o->p_wrongcol = 0.005;
    o->trace = getenv("STN_SIM_TRACE") != NULL;
}

typedef struct sim {
    const sim_opts_t *o;
    stn_t *stn;
    sim_stats_t *st;
    uint32_t rng;
    int size;
    uint64_t frame;
    uint8_t phys[VIS_MAX_POINTS];   /* what lies on the board */
    go_board_t *truth;              /* the game's position (rules) */
    int npend;                      /* captured stones still lying there */
    int pend[VIS_MAX_POINTS];
    int pend_due;                   /* moves left before they are taken off */
    int bump_from, bump_to;         /* a nudged stone to push back, or -1 */
    int took_dead;                  /* dead stones were taken off during this move */
    vis_snapshot_t snap;
} sim_t;

static inline uint32_t sim_rand(sim_t *s)
{
    uint32_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return s->rng = x;
}

static inline double sim_unit(sim_t *s)
{
    return (sim_rand(s) >> 8) / 16777216.0;
}

static inline int sim_idx(int size, int p)
{
    return GO_Y(p) * size + GO_X(p);
}

/* One frame: the board as it lies, hidden inside [x0,x1]x[y0,y1] when hand is set. */
static inline int sim_frame(sim_t *s, int hand, int x0, int y0, int x1, int y1, int flick)
{
    vis_snapshot_t *f = &s->snap;
    int n = s->size * s->size;
    f->size = s->size;
    f->occluder = hand;
    f->board_lost = 0;
    f->frame = s->frame;
    f->t = s->frame / s->o->fps;
    for (int i = 0; i < n; i++) {
        int x = i % s->size, y = i / s->size;
        int hid = hand && x >= x0 && x <= x1 && y >= y0 && y <= y1;
        f->occluded[i] = (uint8_t)hid;
        f->color[i] = hid ? GO_BLACK : s->phys[i];
        f->conf[i] = hid ? 0.3f : 0.95f;
    }
    if (flick >= 0)
        f->color[flick] = f->color[flick] == GO_EMPTY ? GO_WHITE : GO_EMPTY;
    s->frame++;
    s->st->frames++;
    uint64_t views = stn_stats(s->stn).views;
    int rc = stn_feed(s->stn, f);
    if (s->o->trace && stn_stats(s->stn).views != views)
        fprintf(stderr, "  [frame %llu] view read\n", (unsigned long long)f->frame);
    if (rc < 0)
        return rc;
    int ne;
    const stn_event_t *ev = stn_events(s->stn, &ne);
    for (int i = 0; i < ne; i++) {
        s->st->events[ev[i].kind]++;
        if (s->o->trace)
            fprintf(stderr, "  [frame %llu] %s: %s\n", (unsigned long long)ev[i].frame,
                    stn_event_kind_name(ev[i].kind), ev[i].msg);
        if (ev[i].kind == STN_EV_MOVE && s->st->lat_n < 2048) {
            double l = ev[i].t - ev[i].t_hand;
            s->st->lat[s->st->lat_n++] = l;
            if (l > s->st->lat_max)
                s->st->lat_max = l;
        }
    }
    return 0;
}

/* A hand from the player's edge (Black at the bottom, White at the top) to point p:
 * in over `k` frames, `act` done at the middle, out again. */
static inline int sim_hand(sim_t *s, go_color_t who, int p, void (*act)(sim_t *, void *),
                           void *ctx)
{
    int x = GO_X(p), y = GO_Y(p), k = 3 + (int)(sim_rand(s) % 3), rc = 0;
    for (int i = 1; i <= 2 * k + 1 && rc == 0; i++) {
        int reach = i <= k + 1 ? i : 2 * k + 2 - i;   /* 1..k+1..1 */
        int span = (who == GO_BLACK ? s->size - 1 - y : y) + 1;
        int len = span * reach / (k + 1);
        int y0 = who == GO_BLACK ? s->size - len : 0;
        int y1 = who == GO_BLACK ? s->size - 1 : len - 1;
        if (who == GO_BLACK && i == k + 1)
            y0 = y > 0 ? y - 1 : 0;
        if (who != GO_BLACK && i == k + 1)
            y1 = y < s->size - 1 ? y + 1 : y;
        if (i == k + 1 && act)
            act(s, ctx);
        rc = sim_frame(s, len > 0 || i == k + 1, x - 1 - (int)(sim_rand(s) % 2), y0,
                       x + 1 + (int)(sim_rand(s) % 2), y1, -1);
    }
    return rc;
}

/* Still frames; a flicker at the first one sometimes. */
static inline int sim_still(sim_t *s, int n)
{
    int rc = 0, flick = -1;
    if (sim_unit(s) < s->o->p_flicker) {
        flick = (int)(sim_rand(s) % (uint32_t)(s->size * s->size));
        s->st->flickers++;
    }
    for (int i = 0; i < n && rc == 0; i++)
        rc = sim_frame(s, 0, 0, 0, -1, -1, i == 0 ? flick : -1);
    return rc;
}

static inline void sim_take_pending(sim_t *s)
{
    for (int i = 0; i < s->npend; i++)
        s->phys[s->pend[i]] = GO_EMPTY;
    s->took_dead += s->npend > 0;
    s->npend = 0;
}

static inline void sim_act_take(sim_t *s, void *ctx)
{
    (void)ctx;
    sim_take_pending(s);
}

static inline void sim_push_back(sim_t *s)
{
    if (s->bump_from >= 0) {
        s->phys[s->bump_from] = s->phys[s->bump_to];
        s->phys[s->bump_to] = GO_EMPTY;
        s->bump_from = s->bump_to = -1;
    }
}

typedef struct sim_place {
    go_color_t c;
    int p;
    int ncap;
    int cap[VIS_MAX_POINTS];
    int late;
    int onto_dead;      /* the stone went where a dead stone still lay */
    int wrongcol;       /* the stone put down is of the other colour */
} sim_place_t;

static inline void sim_act_place(sim_t *s, void *ctx)
{
    sim_place_t *pl = ctx;
    int i = sim_idx(s->size, pl->p);
    sim_push_back(s);
    pl->onto_dead = s->phys[i] != GO_EMPTY;
    if (s->phys[i] != GO_EMPTY || (s->npend && s->pend_due <= 0))
        sim_take_pending(s);   /* playing where dead stones still lie: clear them first */
    s->phys[i] = (uint8_t)(pl->wrongcol ? GO_OTHER(pl->c) : pl->c);
    if (pl->late) {
        for (int j = 0; j < pl->ncap; j++)
            s->pend[s->npend++] = pl->cap[j];
    } else {
        for (int j = 0; j < pl->ncap; j++)
            s->phys[pl->cap[j]] = GO_EMPTY;
    }
}

/* The player's hand puts a stone on a wrong point (ctx: the point index), or takes it
 * back (negative: -1 - index). */
static inline void sim_act_wrong(sim_t *s, void *ctx)
{
    int i = *(int *)ctx;
    if (i >= 0)
        s->phys[i] = (uint8_t)s->bump_to;   /* the colour, stashed by the caller */
    else
        s->phys[-1 - i] = GO_EMPTY;
}

static inline void sim_act_bump(sim_t *s, void *ctx)
{
    (void)ctx;
    uint8_t c = s->phys[s->bump_from];
    s->phys[s->bump_from] = GO_EMPTY;
    s->phys[s->bump_to] = c;
}

/* Choose a stone to nudge and an empty neighbouring point (not the next move's). */
static inline int sim_pick_bump(sim_t *s, int next_p)
{
    int n = s->size * s->size;
    for (int tries = 0; tries < 50; tries++) {
        int i = (int)(sim_rand(s) % (uint32_t)n);
        int p = GO_PT(i % s->size, i / s->size);
        if (s->phys[i] == GO_EMPTY || s->truth->color[p] != s->phys[i])
            continue;
        int dx = (int)(sim_rand(s) % 3) - 1, dy = (int)(sim_rand(s) % 3) - 1;
        int x = i % s->size + dx, y = i / s->size + dy;
        if ((!dx && !dy) || x < 0 || y < 0 || x >= s->size || y >= s->size)
            continue;
        int j = y * s->size + x;
        if (s->phys[j] != GO_EMPTY || GO_PT(x, y) == next_p)
            continue;
        /* not onto the last liberty of its own chain: there the bumped stone looks like
         * an opponent's stone of the wrong colour capturing it (no camera can tell) */
        if (go_board_libs(s->truth, p) == 1) {
            go_board_t *nb = malloc(sizeof *nb);
            int capt = 0;
            if (nb) {
                *nb = *s->truth;
                go_color_t oc = GO_OTHER((go_color_t)s->phys[i]);
                capt = go_board_play(nb, oc, GO_PT(x, y), NULL) == GO_OK &&
                       nb->color[p] == GO_EMPTY;
                free(nb);
            }
            if (capt)
                continue;
        }
        s->bump_from = i;
        s->bump_to = j;
        return 1;
    }
    return 0;
}

/* Play moves[0..n) (from the initial position `init`) in front of the station. */
static inline int sim_run(const go_board_t *init, const go_move_t *moves, int n,
                          const sim_opts_t *o, stn_t *stn, sim_stats_t *st)
{
    sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return GO_ENOMEM;
    memset(st, 0, sizeof *st);
    s->o = o;
    s->stn = stn;
    s->st = st;
    s->rng = o->seed ? o->seed : 1;
    s->size = init->size;
    s->bump_from = s->bump_to = -1;
    s->truth = malloc(sizeof *s->truth);
    if (!s->truth) {
        free(s);
        return GO_ENOMEM;
    }
    *s->truth = *init;
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++)
            s->phys[y * s->size + x] = init->color[GO_PT(x, y)];
    int rc = sim_still(s, 10);
    int fast_prev = 0;
    sim_place_t pl;
    pl.onto_dead = 0;
    go_place_info_t info;
    for (int m = 0; m < n && rc == 0; m++) {
        const go_move_t *mv = &moves[m];
        if (mv->kind == GO_MOVE_RESIGN)
            break;
        if (mv->kind == GO_MOVE_PASS) {
            rc = stn_pass(stn, s->frame / o->fps);
            if (rc == 0)
                st->events[STN_EV_PASS]++;
            st->passes++;
            if (rc == 0)
                rc = sim_still(s, 10);
            continue;
        }
        /* a takeback first: the stone on a wrong point (empty, legal, capturing nothing,
         * away from the real one), the hand leaves, comes back and takes it off */
        if (s->bump_from < 0 && s->npend == 0 && !fast_prev && sim_unit(s) < o->p_takeback) {
            int w = (int)(sim_rand(s) % (uint32_t)(s->size * s->size));
            int wp = GO_PT(w % s->size, w / s->size);
            int dx = abs(GO_X(wp) - GO_X(mv->point)), dy = abs(GO_Y(wp) - GO_Y(mv->point));
            go_board_t *tb = malloc(sizeof *tb);
            if (tb && s->phys[w] == GO_EMPTY && dx + dy > 2) {
                *tb = *s->truth;
                if (go_board_play(tb, mv->color, wp, &info) == GO_OK && info.ncaptured == 0) {
                    st->takebacks++;
                    s->bump_to = mv->color;
                    rc = sim_hand(s, mv->color, wp, sim_act_wrong, &w);
                    s->bump_to = -1;
                    if (rc == 0)
                        rc = sim_still(s, 12);
                    int back = -1 - w;
                    if (rc == 0)
                        rc = sim_hand(s, mv->color, wp, sim_act_wrong, &back);
                    if (rc == 0)
                        rc = sim_still(s, 12);
                }
            }
            free(tb);
            if (rc)
                break;
        }
        if (go_board_play(s->truth, mv->color, mv->point, &info) != GO_OK) {
            rc = GO_EINVAL;
            break;
        }
        pl.c = mv->color;
        pl.p = mv->point;
        pl.ncap = info.ncaptured;
        for (int j = 0; j < info.ncaptured; j++)
            pl.cap[j] = sim_idx(s->size, info.captured[j]);
        pl.late = info.ncaptured > 0 && s->npend == 0 && sim_unit(s) < o->p_late;
        if (pl.late) {
            st->late++;
            s->pend_due = 1 + (int)(sim_rand(s) % 3);
        } else if (s->npend) {
            s->pend_due--;
        }
        if (o->trace) {
            char pn[3];
            go_point_to_sgf(mv->point, pn);
            fprintf(stderr, "sim: frame %llu move %d %c %s%s (pending %d)\n",
                    (unsigned long long)s->frame, m + 1, mv->color == GO_BLACK ? 'B' : 'W', pn,
                    pl.late ? " late" : "", s->npend);
        }
        s->took_dead = 0;
        pl.wrongcol = !fast_prev && s->phys[sim_idx(s->size, mv->point)] == GO_EMPTY &&
                      sim_unit(s) < o->p_wrongcol;
        st->wrongcols += pl.wrongcol;
        rc = rc ? rc : sim_hand(s, mv->color, mv->point, sim_act_place, &pl);
        /* the dead stones go when their time comes (a hand of the capturer) */
        if (rc == 0 && s->npend && !pl.late && s->pend_due <= 0) {
            int q = GO_PT(s->pend[0] % s->size, s->pend[0] / s->size);
            rc = sim_hand(s, mv->color, q, sim_act_take, NULL);
        }
        st->moves++;
        /* No fast play where no camera could tell the moves apart: after or before a move
         * onto a dead stone not yet taken off, or after dead stones were taken off (the
         * same colour lies there before and after: unseen, and its order unknown), or when
         * the next move captures this stone at once (several throw-ins may fit). */
        int fast = !fast_prev && m + 1 < n && moves[m + 1].kind == GO_MOVE_PLAY &&
                   !pl.onto_dead && !pl.wrongcol && !s->took_dead &&
                   s->phys[sim_idx(s->size, moves[m + 1].point)] == GO_EMPTY &&
                   sim_unit(s) < o->p_fast;
        if (fast) {
            go_board_t *nb = malloc(sizeof *nb);
            if (nb) {
                *nb = *s->truth;
                if (go_board_play(nb, moves[m + 1].color, moves[m + 1].point, NULL) == GO_OK &&
                    nb->color[mv->point] == GO_EMPTY)
                    fast = 0;
                free(nb);
            }
        }
        fast_prev = fast;
        if (fast) {
            st->fast++;
            if (rc == 0)
                rc = sim_still(s, 2 + (int)(sim_rand(s) % 3));
            continue;
        }
        if (rc == 0)
            rc = sim_still(s, 8 + (int)(sim_rand(s) % 10));
        if (rc == 0 && s->bump_from < 0 && m + 1 < n && sim_unit(s) < o->p_bump &&
            sim_pick_bump(s, moves[m + 1].point)) {
            st->bumps++;
            int q = GO_PT(s->bump_from % s->size, s->bump_from / s->size);
            rc = sim_hand(s, GO_OTHER(mv->color), q, sim_act_bump, NULL);
            if (rc == 0)
                rc = sim_still(s, 10);
        }
    }
    if (rc == 0) {
        sim_push_back(s);
        sim_take_pending(s);
        rc = sim_still(s, 15);
    }
    free(s->truth);
    free(s);
    return rc;
}

#endif
