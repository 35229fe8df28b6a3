/* vis_border.c: the border watch (vis_border.h).
 *
 * Invariants: a block's background is learned when the block is first seen (after a reset
 * that found the board elsewhere, or back in the picture) in a frame where the reader sees
 * no hand, and when it has
 * differed from it, still, for learn_s; a block is crossed only while it differs from it
 * and has moved within settle_s. A block out of the picture is neither watched nor learned.
 * Pixels go through vis_grid_px and vis_mean3x3.
 */
#include "vision/vis_border.h"

#include <math.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_border_params_defaults(vis_border_params_t *p)
{
    p->change_min = 16.0f;
    p->steady_max = 6.0f;
    p->settle_s = 1.0;
    p->learn_s = 10.0;
    p->inner = 1.25;
    p->outer = 1.75;
}

void vis_border_init(vis_border_t *w, const vis_border_params_t *p)
{
    memset(w, 0, sizeof *w);
    if (p)
        w->p = *p;
    else
        vis_border_params_defaults(&w->p);
}

void vis_border_reset(vis_border_t *w)
{
    w->lost = 1;
}

/* 1 when geometry g puts the board where the watch last saw it: every corner within
 * VIS_BORDER_SAME_PLACE of a cell (the board found again after an arm hid it). */
static int same_place(const vis_border_t *w, const vis_geom_t *g)
{
    if (w->size != g->size)
        return 0;
    double cell = hypot(g->corners[1][0] - g->corners[0][0], g->corners[1][1] - g->corners[0][1]) /
                  (g->size - 1);
    for (int k = 0; k < 4; k++)
        if (hypot(g->corners[k][0] - w->corners[k][0], g->corners[k][1] - w->corners[k][1]) >
            VIS_BORDER_SAME_PLACE * cell)
            return 0;
    return 1;
}

/* The watched part of ring block (bx, by) of a size S board along one axis: the block's
 * own extent where b is a row or column of points, else the outer part beyond the edge. */
static void block_range(const vis_border_params_t *p, int S, int b, double *lo, double *hi)
{
    if (b < 0) {
        *lo = -p->outer;
        *hi = -p->inner;
    } else if (b >= S) {
        *lo = S - 1 + p->inner;
        *hi = S - 1 + p->outer;
    } else {
        *lo = b - 0.5;
        *hi = b + 0.5;
    }
}

/* The pixel of ring block q's sample i; -1 when it maps nowhere. */
static int sample_px(const vis_border_params_t *p, const vis_geom_t *g, int q, int i, int *cx,
                     int *cy)
{
    int S = g->size, bx, by;
    vis_ring_block(S, q, &bx, &by);
    double x0, x1, y0, y1;
    block_range(p, S, bx, &x0, &x1);
    block_range(p, S, by, &y0, &y1);
    /* 4 samples along the edge, 2 across it (a corner block: 4 by 2 of its square) */
    int nx = (bx < 0 || bx >= S) ? 2 : 4, ny = VIS_BORDER_SAMPLES / nx;
    int col = i % nx, row = i / nx; /* the sample's place on the nx x ny lattice */
    double x = x0 + (x1 - x0) * (col + 0.5) / nx, y = y0 + (y1 - y0) * (row + 0.5) / ny;
    return vis_grid_px(g, x, y, cx, cy);
}

/* How far the camera's shake moves the picture under ring block q's samples, in pixels:
 * 0.15 of a cell beside it, 2..5 (the renders' shake of a pixel each way is 2 pixels from
 * one extreme to the other, 0.15 of a cell at 640x360; 1 left the board's rim under a
 * sample at a shake's turn, 13 levels changed along a whole side). */
static int shift_rad(const vis_geom_t *g, int q)
{
    int bx, by;
    vis_ring_block(g->size, q, &bx, &by);
    double ax, ay, cx, cy;
    int rad = 2;
    if (!vis_homog_apply_front(g->H, bx, by, &ax, &ay) &&
        !vis_homog_apply_front(g->H, bx + 1, by, &cx, &cy)) {
        rad = (int)ceil(0.15 * hypot(cx - ax, cy - ay));
        rad = rad < 2 ? 2 : rad > 5 ? 5 : rad;
    }
    return rad;
}

/* Learn block q's background from this frame: each sample's range over every place within
 * the shift radius (a thin line or a letter beside a sample is in its range). -1 (nothing
 * learned) when a sample is off the picture. */
static int learn(vis_border_t *w, const cvb_image_t *img, const vis_geom_t *g, int q)
{
    int rad = shift_rad(g, q);
    float ref[VIS_BORDER_SAMPLES][3], lo[VIS_BORDER_SAMPLES][3], hi[VIS_BORDER_SAMPLES][3];
    for (int i = 0; i < VIS_BORDER_SAMPLES; i++) {
        int cx, cy;
        float v[3];
        if (sample_px(&w->p, g, q, i, &cx, &cy) || vis_mean3x3(img, cx, cy, v))
            return -1;
        for (int c = 0; c < 3; c++)
            ref[i][c] = lo[i][c] = hi[i][c] = v[c];
        for (int oy = -rad; oy <= rad; oy++)
            for (int ox = -rad; ox <= rad; ox++)
                if (!vis_mean3x3(img, cx + ox, cy + oy, v))
                    for (int c = 0; c < 3; c++) {
                        lo[i][c] = fminf(lo[i][c], v[c]);
                        hi[i][c] = fmaxf(hi[i][c], v[c]);
                    }
    }
    memcpy(w->ref[q], ref, sizeof ref);
    memcpy(w->lo[q], lo, sizeof lo);
    memcpy(w->hi[q], hi, sizeof hi);
    return 0;
}

/* Occlude the board points next to ring block q (8-neighbours). */
static void hide_beside(vis_snapshot_t *s, int q)
{
    int S = s->size, bx, by;
    vis_ring_block(S, q, &bx, &by);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int x = bx + dx, y = by + dy;
            if (x < 0 || y < 0 || x >= S || y >= S)
                continue;
            int k = y * S + x;
            s->occluded[k] = 1;
            s->color[k] = GO_EMPTY; /* meaningless where occluded */
            s->conf[k] = 0;
        }
}

/* How far v lies outside [lo, hi]: negative below, positive above, 0 inside. */
static float outside_by(float v, float lo, float hi)
{
    return v < lo ? v - lo : v > hi ? v - hi : 0.0f;
}

int vis_border_watch(vis_border_t *w, const cvb_image_t *img, const vis_geom_t *geom,
                     vis_snapshot_t *snap)
{
    if (!w || !img || !img->data || !geom || !snap || geom->size < 2 ||
        geom->size > VIS_MAX_SIZE || snap->size != geom->size)
        return VIS_EINVAL;
    if (snap->board_lost) {
        vis_border_reset(w);
        return 0;
    }
    int S = geom->size, nq = 4 * S + 4, hand = snap->occluder; /* the reader saw a hand */
    /* found again where it was: the background stands (learned anew then, it took the arm
     * that hid the board for the table) */
    if (w->size != S || (w->lost && !same_place(w, geom)))
        memset(w->watched, 0, sizeof w->watched);
    w->lost = 0;
    enum { NS = VIS_BORDER_SAMPLES };
    float now[VIS_RING_MAX][NS][3], dv[3][VIS_RING_MAX * NS]; /* nq <= VIS_RING_MAX */
    uint8_t in[VIS_RING_MAX];
    int nd = 0;
    for (int q = 0; q < nq; q++) {
        in[q] = 1;
        for (int i = 0; i < NS && in[q]; i++) {
            int cx, cy;
            in[q] = !sample_px(&w->p, geom, q, i, &cx, &cy) &&
                    !vis_mean3x3(img, cx, cy, now[q][i]);
        }
        for (int i = 0; in[q] && w->watched[q] && i < NS; i++, nd++)
            for (int c = 0; c < 3; c++)
                dv[c][nd] = now[q][i][c] - w->ref[q][i][c];
    }
    /* the ring's median change: the light, the camera's exposure */
    float med[3] = { 0, 0, 0 };
    for (int c = 0; c < 3 && nd; c++)
        med[c] = median_f(dv[c], nd);
    double t = snap->t;
    int crossed = 0;
    for (int q = 0; q < nq; q++) {
        if (!in[q]) {
            w->watched[q] = 0;
            continue;
        }
        float mean[3] = { 0, 0, 0 };
        for (int i = 0; i < NS; i++)
            for (int c = 0; c < 3; c++)
                mean[c] += now[q][i][c] / NS;
        if (!w->watched[q]) { /* first seen: learn it as it is, with no hand in sight */
            w->watched[q] = !hand && !learn(w, img, geom, q);
            memcpy(w->last[q], mean, sizeof mean);
            w->still_since[q] = t;
            continue;
        }
        float change = 0, step = 0;
        for (int i = 0; i < NS; i++) {
            float m = 0;
            for (int c = 0; c < 3; c++)
                m = fmaxf(m, fabsf(outside_by(now[q][i][c] - med[c], w->lo[q][i][c],
                                              w->hi[q][i][c])));
            change += m / NS;
        }
        for (int c = 0; c < 3; c++)
            step = fmaxf(step, fabsf(mean[c] - w->last[q][c]));
        if (step > w->p.steady_max)
            w->still_since[q] = t;
        memcpy(w->last[q], mean, sizeof mean);
        /* unchanged, or changed and still for settle_s (a thing left there, not an arm in
         * motion): not crossed, the background kept (a hand resting there that leaves is
         * no change); still for learn_s: the background now (a bowl put down, or a
         * background learned with something since gone) */
        if (change <= w->p.change_min)
            continue;
        double still = t - w->still_since[q];
        if (still >= w->p.learn_s)
            learn(w, img, geom, q);
        if (still >= w->p.settle_s)
            continue;
        hide_beside(snap, q);
        crossed++;
    }
    w->size = S;
    memcpy(w->corners, geom->corners, sizeof w->corners);
    w->frames++;
    if (crossed) {
        w->crossed++;
        snap->occluder = 1;
    }
    return crossed;
}
