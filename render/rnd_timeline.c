/* rnd_timeline.c: the game at a human pace (rnd_timeline.h).
 *
 * Invariants: the builder's clock only moves forward; events are sorted by frame (stable)
 * once built; one hand at a time; a stone is never placed onto a point that still
 * holds a stone on the board (pending captures are lifted first); every hand trip ends
 * before the next begins.
 */
#include "render/rnd_timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *const ev_names[] = { "place", "capture", "remove", "bump", "unbump", "pass",
                                        "resign", "dead", "signal", "hand_in", "hand_out",
                                        "unsignal" };

const char *rnd_event_name(rnd_event_kind_t k)
{
    return (unsigned)k < sizeof ev_names / sizeof ev_names[0] ? ev_names[k] : "?";
}

void rnd_timeline_opts_defaults(rnd_timeline_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->fps = 30;
    o->hands = 1;
    o->end = 0;
    o->pace = 1.0;
    o->seed = 1;
}

typedef struct {
    rnd_timeline_t *t;
    const rnd_game_t *g;
    const rnd_geometry_t *geo;
    const rnd_timeline_opts_t *o;
    rnd_rng_t rng;
    int cap_ev, cap_fr;
    int f;          /* the builder's clock: next free frame */
    int err;
    uint8_t shown[25 * 25];
    int pass_sig;   /* the seat whose end signal (a pass in mid-game) lies out, or 0 */
    double pass_wx, pass_wy; /* where it lies (world mm) */
} bld_t;

static int ensure_frames(bld_t *b, int n)
{
    if (b->err)
        return -1;
    if (n > b->cap_fr) {
        int cap = b->cap_fr ? b->cap_fr : 1024;
        while (cap < n)
            cap *= 2;
        rnd_hand_t *h = realloc(b->t->hand, (size_t)cap * sizeof *h);
        if (!h) {
            b->err = RND_ENOMEM;
            return -1;
        }
        memset(h + b->cap_fr, 0, (size_t)(cap - b->cap_fr) * sizeof *h);
        b->t->hand = h;
        b->cap_fr = cap;
    }
    if (n > b->t->nframes)
        b->t->nframes = n;
    return 0;
}

static void add_ev(bld_t *b, int frame, rnd_event_kind_t kind, int move, int color, int point)
{
    if (b->err)
        return;
    if (b->t->nevents == b->cap_ev) {
        int cap = b->cap_ev ? b->cap_ev * 2 : 256;
        rnd_event_t *e = realloc(b->t->events, (size_t)cap * sizeof *e);
        if (!e) {
            b->err = RND_ENOMEM;
            return;
        }
        b->t->events = e;
        b->cap_ev = cap;
    }
    rnd_event_t *e = &b->t->events[b->t->nevents++];
    memset(e, 0, sizeof *e);
    e->frame = frame;
    e->kind = kind;
    e->move = move;
    e->color = (uint8_t)color;
    e->point = (int16_t)point;
    ensure_frames(b, frame + 1);
}

static int secs(bld_t *b, double s)
{
    int n = (int)lround(s * b->o->fps);
    return n < 1 ? 1 : n;
}
static int pause_frames(bld_t *b, double s)
{
    int n = (int)lround(s * b->o->pace * b->o->fps);
    return n < 1 ? 1 : n;
}

static void point_world(const bld_t *b, int p, double *x, double *y)
{
    int n = b->g->size;
    double ext = (n - 1) * 0.5;
    int col = p % n, row = p / n;
    *x = (col - ext) * b->geo->dx;
    *y = (ext - row) * b->geo->dy;
}

/* Can the stone at q be knocked half a point along (dx, dy) (the bump's direction, away
 * from the move) without touching another stone there? */
static int bump_has_room(const bld_t *b, const rnd_geometry_t *geo, int q, int dx, int dy)
{
    int n = b->g->size, qx = q % n, qy = q / n;
    double l = sqrt((double)(dx * dx + dy * dy));
    double cx = qx + 0.5 * dx / l, cy = qy + 0.5 * dy / l; /* where it would lie */
    for (int ry = qy - 2; ry <= qy + 2; ry++)
        for (int rx = qx - 2; rx <= qx + 2; rx++) {
            if ((rx == qx && ry == qy) || rx < 0 || ry < 0 || rx >= n || ry >= n ||
                !b->shown[ry * n + rx])
                continue;
            if (hypot((rx - cx) * geo->dx, (ry - cy) * geo->dy) < 2 * geo->stone_r)
                return 0;
        }
    return 1;
}

static void seat_pos(const bld_t *b, int seat, double tx, double sh[3], double st[3])
{
    double sgn = seat == 1 ? -1 : 1;
    sh[0] = -sgn * 210;
    sh[1] = sgn * (b->geo->half_h + 430);
    sh[2] = b->geo->top + 420;
    st[0] = tx * 0.4 - sgn * 160;
    st[1] = sgn * (b->geo->half_h + 330);
    st[2] = b->geo->top + 230;
}

/* A hand trip from the seat to (x, y, z) and back, starting at the builder's clock.
 * Returns the arrival frame; the clock moves past the trip's end. */
static int hand_trip(bld_t *b, int seat, double x, double y, double z, int carry_in, int carry_out,
                     int n_hold)
{
    int n_in = secs(b, rnd_rng_range(&b->rng, 0.45, 0.75));
    int n_out = secs(b, rnd_rng_range(&b->rng, 0.35, 0.6));
    int f0 = b->f;
    int total = n_in + n_hold + n_out;
    if (ensure_frames(b, f0 + total + 1))
        return f0;
    double sh[3], st[3];
    seat_pos(b, seat, x, sh, st);
    double arc = rnd_rng_range(&b->rng, 40, 90);
    add_ev(b, f0, RND_EV_HAND_IN, 0, seat, -1);
    for (int k = 0; k < total; k++) {
        rnd_hand_t *h = &b->t->hand[f0 + k];
        double u, e;
        int carry;
        if (k < n_in) {
            u = (k + 1.0) / n_in;
            e = u * u * (3 - 2 * u);
            carry = carry_in;
        } else if (k < n_in + n_hold) {
            e = 1;
            carry = 0;
        } else {
            u = (double)(k - n_in - n_hold + 1) / n_out;
            e = 1 - u * u * (3 - 2 * u) * 1.0;
            carry = carry_out;
        }
        h->active = 1;
        h->seat = seat;
        h->carry = (uint8_t)carry;
        h->tip[0] = (float)(st[0] + (x - st[0]) * e);
        h->tip[1] = (float)(st[1] + (y - st[1]) * e);
        h->tip[2] = (float)(st[2] + (z - st[2]) * e + arc * sin(M_PI * e) * (k < n_in ? 1 : 0.5));
        for (int c = 0; c < 3; c++)
            h->shoulder[c] = (float)sh[c];
    }
    add_ev(b, f0 + total, RND_EV_HAND_OUT, 0, seat, -1);
    b->f = f0 + total;
    return f0 + n_in;
}

typedef struct {
    int first, n;   /* captured points: g->caps[first..first+n) */
    int seat;       /* who lifts them */
    int due;        /* lift them before move index due */
} pending_t;

static void lift(bld_t *b, const int16_t *pts, int n, int seat, rnd_event_kind_t kind, int color)
{
    /* batches of up to 6 stones per trip, the hand hovering over their centre */
    for (int i = 0; i < n; i += 6) {
        int m = n - i < 6 ? n - i : 6;
        if (b->o->hands) {
            double cx = 0, cy = 0;
            for (int k = 0; k < m; k++) {
                double x, y;
                point_world(b, pts[i + k], &x, &y);
                cx += x / m;
                cy += y / m;
            }
            int per = secs(b, 0.22);
            int arrive = hand_trip(b, seat, cx, cy, b->geo->top + 12, 0, color, per * m + secs(b, 0.1));
            for (int k = 0; k < m; k++) {
                add_ev(b, arrive + per * k, kind, 0, color, pts[i + k]);
                b->shown[pts[i + k]] = 0;
            }
        } else {
            b->f += secs(b, 0.3);
            for (int k = 0; k < m; k++) {
                add_ev(b, b->f, kind, 0, color, pts[i + k]);
                b->shown[pts[i + k]] = 0;
                b->f += 2;
            }
        }
        b->f += pause_frames(b, rnd_rng_range(&b->rng, 0.1, 0.4));
    }
}

static void flush_pending(bld_t *b, pending_t *pend, int *npend, int move_index, int target)
{
    for (int i = 0; i < *npend;) {
        int hit = pend[i].due <= move_index;
        for (int k = 0; k < pend[i].n && !hit; k++)
            hit = b->g->caps[pend[i].first + k] == target;
        if (hit || move_index < 0) {
            lift(b, b->g->caps + pend[i].first, pend[i].n, pend[i].seat, RND_EV_REMOVE,
                 3 - pend[i].seat);
            pend[i] = pend[--*npend];
        } else {
            i++;
        }
    }
}

static void signal_stone(bld_t *b, int seat, int color, int two)
{
    /* just outside the board, at the lower right corner as the player sees it */
    double r = b->geo->stone_r;
    double sgn = seat == 1 ? 1 : -1;
    /* set down on the table a little apart from the board (RND_SIGNAL_GAP_MIN..MAX mm):
     * not against its side, where a camera looking across the board cannot see it
     * behind the board's edge (a board 3 cm thick hides 2-3 cm of table behind it) */
    double x = sgn * (b->geo->half_w + r + rnd_rng_range(&b->rng, RND_SIGNAL_GAP_MIN, RND_SIGNAL_GAP_MAX));
    double y = -sgn * (b->geo->half_h - r - rnd_rng_range(&b->rng, 0, 8));
    int arrive = b->f;
    if (b->o->hands)
        arrive = hand_trip(b, seat, x, y, r * 0.5 + 6, color, 0, secs(b, 0.3));
    else
        b->f += secs(b, 0.5);
    for (int k = 0; k <= two; k++) {
        add_ev(b, arrive + k * secs(b, 0.15), RND_EV_SIGNAL, 0, color, -1);
        rnd_event_t *e = &b->t->events[b->err ? 0 : b->t->nevents - 1];
        if (b->err)
            return;
        /* a resignation's second stone goes beside the first, further from the board
         * (past the corner, towards the player), so that both stay off the board */
        e->wx = (float)x;
        e->wy = (float)(y - sgn * k * (2 * r + 1));
        e->grain = (float)rnd_rng_range(&b->rng, 0, M_PI);
    }
    b->pass_wx = x;
    b->pass_wy = y;
}

/* A pass in mid-game, with the physical signals: the passer puts his end signal out (a
 * stone of the other colour at his corner: "I pass"); the opponent plays on instead of
 * answering it, and the passer takes it back before his next move (unsignal). */
static void pass_signal(bld_t *b, int seat)
{
    signal_stone(b, seat, 3 - seat, 0);
    b->pass_sig = seat;
    /* the opponent sees it and thinks before playing on: RND_PASS_SEEN_S at least,
     * whatever the pace (a recorder confirms a signal after a hold) */
    b->f += secs(b, RND_PASS_SEEN_S);
}

static void unsignal(bld_t *b)
{
    int seat = b->pass_sig;
    if (!seat)
        return;
    b->f += pause_frames(b, rnd_rng_range(&b->rng, 0.3, 0.8));
    double r = b->geo->stone_r;
    int at = b->f;
    if (b->o->hands)
        at = hand_trip(b, seat, b->pass_wx, b->pass_wy, r * 0.5 + 6, 0, 3 - seat, secs(b, 0.2));
    else
        b->f += secs(b, 0.5);
    add_ev(b, at, RND_EV_UNSIGNAL, 0, 3 - seat, -1);
    if (!b->err) {
        rnd_event_t *e = &b->t->events[b->t->nevents - 1];
        e->wx = (float)b->pass_wx;
        e->wy = (float)b->pass_wy;
    }
    b->pass_sig = 0;
}

int rnd_timeline_build(rnd_timeline_t *t, const rnd_game_t *g, const rnd_geometry_t *geo,
                       const rnd_timeline_opts_t *o)
{
    if (!t || !g || !geo || !o || o->fps < 1 || o->fps > 240 || g->size != geo->size || o->pace <= 0)
        return RND_EINVAL;
    memset(t, 0, sizeof *t);
    t->size = g->size;
    bld_t b;
    memset(&b, 0, sizeof b);
    b.t = t;
    b.g = g;
    b.geo = geo;
    b.o = o;
    rnd_rng_seed(&b.rng, o->seed ^ 0x7131e11eull);
    memcpy(b.shown, g->setup, (size_t)g->size * g->size);
    pending_t *pend = calloc((size_t)g->nmoves + 1, sizeof *pend);
    if (!pend)
        return RND_ENOMEM;
    int npend = 0;
    b.f = pause_frames(&b, rnd_rng_range(&b.rng, 0.8, 1.6));
    ensure_frames(&b, b.f);
    int last_color = 2, passes = 0, resigned = 0, signalled = 0;
    int pass_first = 0;   /* the colour of the first of the passes at the end */
    for (int i = 0; i < g->nmoves && !b.err; i++) {
        const rnd_move_t *m = &g->moves[i];
        double think = rnd_rng_range(&b.rng, 0.4, 2.2);
        if (rnd_rng_unit(&b.rng) < 0.06)
            think += rnd_rng_range(&b.rng, 2, 5); /* a long pause, nothing moving */
        b.f += pause_frames(&b, think);
        flush_pending(&b, pend, &npend, i, m->kind == RND_MOVE_PLAY ? m->point : -2);
        last_color = m->color;
        if (b.pass_sig && b.pass_sig == m->color) {
            unsignal(&b);   /* the opponent played on: the passer's signal comes back */
            b.f += pause_frames(&b, rnd_rng_range(&b.rng, 0.3, 0.8));
        }
        if (m->kind == RND_MOVE_PASS) {
            add_ev(&b, b.f, RND_EV_PASS, i + 1, m->color, -1);
            if (!passes++)
                pass_first = m->color;
            /* with the physical end signals, a pass is one (the opponent's move, or his
             * pass, answers it; two passes at the end are the end signals below) */
            if (o->end && i + 1 < g->nmoves && g->moves[i + 1].kind == RND_MOVE_PLAY)
                pass_signal(&b, m->color);
            continue;
        }
        if (m->kind == RND_MOVE_RESIGN) {
            add_ev(&b, b.f, RND_EV_RESIGN, i + 1, m->color, -1);
            resigned = 1;
            break;
        }
        passes = pass_first = 0;
        int seat = m->color;
        double x, y;
        point_world(&b, m->point, &x, &y);
        float jx = (float)fmax(-2.2, fmin(2.2, rnd_rng_gauss(&b.rng) * 0.9));
        float jy = (float)fmax(-2.2, fmin(2.2, rnd_rng_gauss(&b.rng) * 0.9));
        float grain = (float)rnd_rng_range(&b.rng, 0, M_PI);
        int at;
        if (o->hands)
            at = hand_trip(&b, seat, x + jx, y + jy, geo->top + geo->stone_h * 0.5 + 0.5, m->color, 0,
                           secs(&b, rnd_rng_range(&b.rng, 0.1, 0.25)));
        else
            at = b.f;
        add_ev(&b, at, RND_EV_PLACE, i + 1, m->color, m->point);
        if (b.err)
            break;
        rnd_event_t *pe = &t->events[t->nevents - 1];
        pe->dx = jx;
        pe->dy = jy;
        pe->grain = grain;
        b.shown[m->point] = m->color;
        for (int k = 0; k < m->ncap; k++)
            add_ev(&b, at, RND_EV_CAPTURE, i + 1, 3 - m->color, g->caps[m->cap_first + k]);
        if (!o->hands)
            b.f = at + 1;
        if (m->ncap > 0) {
            pend[npend].first = m->cap_first;
            pend[npend].n = m->ncap;
            pend[npend].seat = m->color;
            pend[npend].due = i + 1;
            if (o->hands && rnd_rng_unit(&b.rng) < 0.3)
                pend[npend].due = i + 1 + 1 + rnd_rng_int(&b.rng, 3); /* a few moves late */
            npend++;
            flush_pending(&b, pend, &npend, i + 1, -2);
        }
        /* now and then the hand knocks a neighbour half a point off, away from the move:
         * only where it has room, as on a real board (a stone pushed against another
         * stops there; two stones never overlap on one point) */
        if (o->hands && rnd_rng_unit(&b.rng) < 0.04) {
            int n = g->size, px = m->point % n, py = m->point / n, cand[8], nc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int qx = px + dx, qy = py + dy;
                    if ((dx || dy) && qx >= 0 && qy >= 0 && qx < n && qy < n &&
                        b.shown[qy * n + qx] && bump_has_room(&b, geo, qy * n + qx, dx, dy))
                        cand[nc++] = qy * n + qx;
                }
            if (nc) {
                int q = cand[rnd_rng_int(&b.rng, nc)];
                int bx = q % n, by = q / n; /* the bumped stone's column and row */
                double ux = bx - px, uy = by - py, l = sqrt(ux * ux + uy * uy);
                add_ev(&b, at + 2, RND_EV_BUMP, 0, b.shown[q], q);
                if (!b.err) {
                    rnd_event_t *e = &t->events[t->nevents - 1];
                    e->dx = (float)(0.5 * ux / l);
                    e->dy = (float)(0.5 * uy / l);
                    b.f += pause_frames(&b, rnd_rng_range(&b.rng, 0.6, 1.8));
                    double qx, qy;
                    point_world(&b, q, &qx, &qy);
                    qx += e->dx * geo->dx;
                    qy -= e->dy * geo->dy;
                    int back = hand_trip(&b, seat, qx, qy, geo->top + geo->stone_h + 4, 0, 0, secs(&b, 0.2));
                    add_ev(&b, back, RND_EV_UNBUMP, 0, b.shown[q], q);
                }
            }
        }
    }
    if (!b.err)
        flush_pending(&b, pend, &npend, -1, -2);
    if (!b.err && b.pass_sig)
        unsignal(&b);   /* a pass answered by a move, then the end: taken back first */
    if (!b.err && o->end == 1 && !resigned) {
        int n = g->nmoves;
        for (int k = passes; k < 2; k++) {
            b.f += pause_frames(&b, rnd_rng_range(&b.rng, 1.0, 2.5));
            last_color = 3 - last_color;
            add_ev(&b, b.f, RND_EV_PASS, ++n, last_color, -1);
            if (!pass_first)
                pass_first = last_color;
        }
        /* dead stones: each player lifts the opponent's dead stones */
        int np = g->size * g->size;
        int16_t *dead = malloc((size_t)np * sizeof *dead);
        if (!dead)
            b.err = RND_ENOMEM;
        for (int c = 1; c <= 2 && !b.err; c++) {
            int nd = 0;
            for (int p = 0; p < np; p++)
                if (g->dead[p] && b.shown[p] == c)
                    dead[nd++] = (int16_t)p;
            if (nd) {
                b.f += pause_frames(&b, rnd_rng_range(&b.rng, 0.8, 2.0));
                lift(&b, dead, nd, 3 - c, RND_EV_DEAD, c);
            }
        }
        free(dead);
        /* the end signals: a stone of the other colour at one's lower right, first the
         * side to move (who passed first), then the opponent */
        b.f += pause_frames(&b, rnd_rng_range(&b.rng, 0.8, 2.0));
        signal_stone(&b, pass_first, 3 - pass_first, 0);
        b.f += pause_frames(&b, rnd_rng_range(&b.rng, 0.3, 1.0));
        signal_stone(&b, 3 - pass_first, pass_first, 0);
        signalled = 1;
    } else if (!b.err && o->end == 2 && !resigned) {
        int loser = o->loser == 1 || o->loser == 2 ? o->loser : 3 - last_color;
        b.f += pause_frames(&b, rnd_rng_range(&b.rng, 1.5, 4.0));
        add_ev(&b, b.f, RND_EV_RESIGN, g->nmoves + 1, loser, -1);
        signal_stone(&b, loser, loser, 1);
        signalled = 1;
    }
    /* the final scene: after end signals it is held RND_END_HOLD_S at least, whatever the
     * pace (the players still sit there; a recorder confirms a signal after a hold) */
    int tail = pause_frames(&b, rnd_rng_range(&b.rng, 1.0, 2.0));
    if (signalled && tail < secs(&b, RND_END_HOLD_S))
        tail = secs(&b, RND_END_HOLD_S);
    b.f += tail;
    ensure_frames(&b, b.f);
    free(pend);
    /* stable sort by frame (insertion: the list is nearly sorted already) */
    for (int i = 1; i < t->nevents && !b.err; i++) {
        rnd_event_t e = t->events[i];
        int j = i - 1;
        while (j >= 0 && t->events[j].frame > e.frame) {
            t->events[j + 1] = t->events[j];
            j--;
        }
        t->events[j + 1] = e;
    }
    if (b.err) {
        rnd_timeline_fini(t);
        return b.err;
    }
    return RND_OK;
}

void rnd_timeline_fini(rnd_timeline_t *t)
{
    if (!t)
        return;
    free(t->hand);
    free(t->events);
    t->hand = NULL;
    t->events = NULL;
    t->nframes = t->nevents = 0;
}

void rnd_timeline_state_init(rnd_tl_state_t *s, const rnd_game_t *g)
{
    memset(s, 0, sizeof *s);
    s->size = g->size;
    int np = g->size * g->size;
    memcpy(s->record, g->setup, (size_t)np);
    memcpy(s->shown, g->setup, (size_t)np);
    for (int p = 0; p < np; p++)
        s->grain[p] = (float)(p * 0.618);
    s->bumped = -1;
    s->changed = 1;
}

int rnd_timeline_state_step(rnd_tl_state_t *s, const rnd_timeline_t *t, int frame)
{
    int n = 0;
    s->changed = frame == 0;
    while (s->next_event < t->nevents && t->events[s->next_event].frame <= frame) {
        const rnd_event_t *e = &t->events[s->next_event++];
        n++;
        switch (e->kind) {
        case RND_EV_PLACE:
            s->record[e->point] = e->color;
            s->shown[e->point] = e->color;
            s->jx[e->point] = e->dx;
            s->jy[e->point] = e->dy;
            s->grain[e->point] = e->grain;
            s->moves = e->move;
            s->changed = 1;
            break;
        case RND_EV_CAPTURE:
            s->record[e->point] = 0;
            break;
        case RND_EV_REMOVE:
        case RND_EV_DEAD:
            s->shown[e->point] = 0;
            s->changed = 1;
            break;
        case RND_EV_BUMP:
            s->bumped = e->point;
            s->bump_dx = e->dx;
            s->bump_dy = e->dy;
            s->changed = 1;
            break;
        case RND_EV_UNBUMP:
            s->bumped = -1;
            s->changed = 1;
            break;
        case RND_EV_PASS:
        case RND_EV_RESIGN:
            s->moves = e->move;
            break;
        case RND_EV_UNSIGNAL: {
            int best = -1;
            double bd = 1e30;
            for (int k = 0; k < s->nsignals; k++) {
                double d = hypot(s->sig_x[k] - e->wx, s->sig_y[k] - e->wy);
                if (s->sig_c[k] == e->color && d < bd) {
                    bd = d;
                    best = k;
                }
            }
            if (best >= 0) {
                for (int k = best + 1; k < s->nsignals; k++) {
                    s->sig_x[k - 1] = s->sig_x[k];
                    s->sig_y[k - 1] = s->sig_y[k];
                    s->sig_c[k - 1] = s->sig_c[k];
                }
                s->nsignals--;
                s->changed = 1;
            }
            break;
        }
        case RND_EV_SIGNAL:
            if (s->nsignals < 4) {
                s->sig_x[s->nsignals] = e->wx;
                s->sig_y[s->nsignals] = e->wy;
                s->sig_c[s->nsignals] = e->color;
                s->nsignals++;
                s->changed = 1;
            }
            break;
        default:
            break;
        }
    }
    return n;
}

int rnd_timeline_stones(const rnd_tl_state_t *s, const rnd_geometry_t *geo, rnd_stone_t *out)
{
    int n = 0, sz = s->size;
    double ext = (sz - 1) * 0.5;
    for (int p = 0; p < sz * sz; p++) {
        if (!s->shown[p])
            continue;
        int col = p % sz, row = p / sz;
        double x = (col - ext) * geo->dx + s->jx[p], y = (ext - row) * geo->dy + s->jy[p];
        if (p == s->bumped) {
            x += s->bump_dx * geo->dx;
            y -= s->bump_dy * geo->dy;
        }
        out[n].x = (float)x;
        out[n].y = (float)y;
        out[n].z = (float)geo->top;
        out[n].color = s->shown[p];
        out[n].grain = s->grain[p];
        n++;
    }
    for (int k = 0; k < s->nsignals; k++) {
        out[n].x = s->sig_x[k];
        out[n].y = s->sig_y[k];
        out[n].z = 0;
        out[n].color = s->sig_c[k];
        out[n].grain = (float)k;
        n++;
    }
    return n;
}
