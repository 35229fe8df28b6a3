/* stn_stab.c: the stabiliser (see stn_stab.h).
 *
 * Invariants: run[] holds, per point, the value every frame of the current run agreed on
 * (STN_UNKNOWN until some frame read it with confidence); nrun counts the run's frames
 * (0: no run); accepted is set once the run has been handed out; mask[] is the occlusion
 * mask of the run's frames (all equal); hist[] holds the last STAB_HIST frames' values
 * since the last reset or occluded frame (nhist of them, the newest at hpos).
 *
 * Each point's value is first voted over the last three frames (the value read in at
 * least two, else unknown): a stone read for one frame, or missed for one frame (a white
 * stone near the classifier's threshold), neither starts a new run nor breaks one; a real
 * change shows one frame later.
 */
#include "station/stn_stab.h"

#include <stdlib.h>
#include <string.h>

#include "rules/go_board.h"

#define STAB_BLIP_S 1.0f   /* a colour shown shorter than this between two readings of
                              the same stone is a blip: the stone's time is kept */

struct stn_stab {
    stn_stab_config_t cfg;
    int size;
    int nrun;
    int accepted;
    double run_t0;
    double t_clear;
    int seen_occluder;          /* an occluded frame came since the last acceptance */
    int lost_since;             /* the board was lost (or the run reset) since then */
    uint8_t hidden_since[VIS_MAX_POINTS]; /* the point was hidden in a frame since then */
    uint8_t run[VIS_MAX_POINTS];
    uint8_t mask[VIS_MAX_POINTS];
    uint8_t hist[3][VIS_MAX_POINTS];
    int nhist, hpos;
    double t_prev;                 /* the previous frame's time (nhist >= 2) */
    uint8_t val[VIS_MAX_POINTS];   /* this frame's voted values */
    /* per point, on every frame (hands or not): the colour shown (cur, since when) and
     * a different colour read (cand, from cand_t, cand_n frames running) */
    uint8_t cur[VIS_MAX_POINTS], cand[VIS_MAX_POINTS], cand_n[VIS_MAX_POINTS];
    float since[VIS_MAX_POINTS], cand_t[VIS_MAX_POINTS];
    /* the colour shown before cur, and since when (a blip back to it keeps its time) */
    uint8_t prev[VIS_MAX_POINTS];
    float prev_since[VIS_MAX_POINTS];
    uint8_t last[VIS_MAX_POINTS];  /* the last accepted view's colours (STN_UNKNOWN: none) */
};

void stn_stab_defaults(stn_stab_config_t *c)
{
    c->stable_s = 0.2;
    c->min_frames = 3;
    c->min_conf = 0.8f;
}

stn_stab_t *stn_stab_create(const stn_stab_config_t *cfg)
{
    stn_stab_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (cfg)
        s->cfg = *cfg;
    else
        stn_stab_defaults(&s->cfg);
    if (s->cfg.min_frames < 1)
        s->cfg.min_frames = 1;
    return s;
}

void stn_stab_destroy(stn_stab_t *s)
{
    free(s);
}

/* End the run (a hand over the board). */
static void stab_end_run(stn_stab_t *s)
{
    s->nrun = 0;
    s->accepted = 0;
    s->nhist = 0;
}

void stn_stab_reset(stn_stab_t *s)
{
    stab_end_run(s);
    s->lost_since = 1;
}

int stn_stab_settled(const stn_stab_t *s)
{
    return s->accepted && s->nrun > 0;
}

void stn_view_init(stn_view_t *v, int size)
{
    memset(v, 0, sizeof *v);
    v->size = size;
    memset(v->color, STN_UNKNOWN, sizeof v->color);
    for (int i = 0; i < VIS_MAX_POINTS; i++)
        v->first_t[i] = -1.0f;
}

static uint8_t stab_value(const stn_stab_t *s, const vis_snapshot_t *f, int i)
{
    if (f->occluded[i] || f->conf[i] < s->cfg.min_conf || f->color[i] > GO_WHITE)
        return STN_UNKNOWN;
    return f->color[i];
}

/* Follow when each point took its colour, on every frame: points read with confidence
 * and not hidden, a new colour taken after two frames running. */
static void stab_follow(stn_stab_t *s, const vis_snapshot_t *f, int n)
{
    for (int i = 0; i < n; i++) {
        uint8_t v = stab_value(s, f, i);
        if (v == STN_UNKNOWN)
            continue;
        if (v == s->cur[i]) {
            s->cand_n[i] = 0;
        } else if (s->cand_n[i] && v == s->cand[i]) {
            if (++s->cand_n[i] >= 2) {
                /* back to the colour shown before a short blip (a shadow, a hand's
                 * edge read as empty): it has shown that colour since it first did */
                float since = s->cand_t[i];
                if (v == s->prev[i] && s->prev_since[i] >= 0.0f &&
                    s->cand_t[i] - s->since[i] < STAB_BLIP_S)
                    since = s->prev_since[i];
                s->prev[i] = s->cur[i];
                s->prev_since[i] = s->since[i];
                s->cur[i] = v;
                s->since[i] = since;
                s->cand_n[i] = 0;
            }
        } else {
            s->cand[i] = v;
            s->cand_t[i] = (float)f->t;
            s->cand_n[i] = 1;
        }
    }
}

/* The value of point i in this frame: its colour, or unknown when hidden or unsure. */

/* Start a new run at frame f. */
/* Vote each point over the last three frames (this one included) into s->val. */
static void stab_vote(stn_stab_t *s, const vis_snapshot_t *f, int n)
{
    s->hpos = (s->hpos + 1) % 3;
    for (int i = 0; i < n; i++)
        s->hist[s->hpos][i] = stab_value(s, f, i);
    if (s->nhist < 3)
        s->nhist++;
    int a = s->hpos, b = (s->hpos + 2) % 3, c = (s->hpos + 1) % 3;
    for (int i = 0; i < n; i++) {
        uint8_t x = s->hist[a][i], y = s->hist[b][i], z = s->hist[c][i], v = STN_UNKNOWN;
        if (s->nhist == 1 || x == y || (s->nhist == 3 && x == z))
            v = x;
        else if (s->nhist == 3 && y == z)
            v = y;
        s->val[i] = v;
    }
}

static void stab_start(stn_stab_t *s, const vis_snapshot_t *f, int n)
{
    /* a voted change was read in the previous frame too (two frames agree): the run
     * began there */
    s->nrun = s->nhist >= 2 ? 2 : 1;
    s->accepted = 0;
    s->run_t0 = s->nhist >= 2 ? s->t_prev : f->t;
    for (int i = 0; i < n; i++) {
        s->run[i] = s->val[i];
        s->mask[i] = f->occluded[i] ? 1 : 0;
    }
}

int stn_stab_feed(stn_stab_t *s, const vis_snapshot_t *f, stn_view_t *out)
{
    if (f->size < GO_MIN_SIZE || f->size > VIS_MAX_SIZE)
        return GO_EINVAL;
    int n = f->size * f->size;
    if (f->size != s->size) {
        s->size = f->size;
        stn_stab_reset(s);
        memset(s->cur, GO_EMPTY, sizeof s->cur);
        memset(s->cand_n, 0, sizeof s->cand_n);
        memset(s->prev, STN_UNKNOWN, sizeof s->prev);
        memset(s->last, STN_UNKNOWN, sizeof s->last);
        for (int i = 0; i < VIS_MAX_POINTS; i++)
            s->since[i] = s->prev_since[i] = -1.0f;
    }
    if (!f->board_lost)
        stab_follow(s, f, n);
    /* points under a hand (a frame with something over the board; a point flagged
     * hidden in a hand-free frame is the classifier's doubt, not a hand) */
    for (int i = 0; f->occluder && i < n; i++)
        s->hidden_since[i] |= f->occluded[i] ? 1 : 0;
    if (f->board_lost || f->occluder) {
        /* Something is over the board (or the grid is gone): no run, and the hand's
         * departure is timed from the next clear frame. */
        stab_end_run(s);
        s->lost_since |= f->board_lost != 0;
        s->seen_occluder = 1;
        s->t_clear = -1.0;
        return 0;
    }
    if (s->t_clear < 0.0)
        s->t_clear = f->t;

    stab_vote(s, f, n);
    int agree = s->nrun > 0;
    for (int i = 0; agree && i < n; i++) {
        uint8_t v = s->val[i];
        if ((f->occluded[i] ? 1 : 0) != s->mask[i] ||
            (v != STN_UNKNOWN && s->run[i] != STN_UNKNOWN && v != s->run[i]))
            agree = 0;
    }
    if (!agree) {
        stab_start(s, f, n);
    } else {
        s->nrun++;
        for (int i = 0; i < n; i++)
            if (s->run[i] == STN_UNKNOWN)
                s->run[i] = s->val[i];
    }
    s->t_prev = f->t;
    if (s->accepted || s->nrun < s->cfg.min_frames || f->t - s->run_t0 + 1e-9 < s->cfg.stable_s)
        return 0;
    s->accepted = 1;
    stn_view_init(out, f->size);
    memcpy(out->color, s->run, (size_t)n);
    for (int i = 0; i < n; i++)
        out->first_t[i] = s->run[i] != STN_UNKNOWN && s->run[i] == s->cur[i] ? s->since[i] : -1.0f;
    out->frame = f->frame;
    out->t = f->t;
    out->t_clear = s->seen_occluder && s->t_clear >= 0.0 ? s->t_clear : s->run_t0;
    for (int i = 0; i < n; i++) {
        /* points no hand reached since the last view (hands were over the board elsewhere) */
        out->unreached[i] = s->seen_occluder && !s->lost_since && !s->hidden_since[i];
        s->hidden_since[i] = 0;
        /* the hand was still at work when the last point it changed took its new colour
         * (a hand placing a stone can go unseen for a frame before it): not gone before */
        if (s->run[i] == STN_UNKNOWN)
            continue;
        if (s->last[i] != STN_UNKNOWN && s->last[i] != s->run[i] && out->first_t[i] > out->t_clear)
            out->t_clear = out->first_t[i];
        s->last[i] = s->run[i];
    }
    s->lost_since = 0;
    s->seen_occluder = 0;
    return 1;
}
