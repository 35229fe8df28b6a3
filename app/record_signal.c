/* record_signal.c: the end-signal watcher (record_signal.h).
 *
 * Invariants: a corner's `confirmed` reading changes only after the same reading held for
 * hold_s seconds and 3 frames; frames where the patch is hidden (a hand: coloured change,
 * or most of it changed) or the reading is unsure neither start nor end a run.
 */
#include "app/record_signal.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

/* Patch beside a seat's lower right corner, for a seat at the record's bottom, in grid
 * units: beyond the right edge, from a little above the last line to well below it (a
 * stone lies on the table, below the board's surface: seen from above the board it
 * appears shifted toward the camera). */
#define PATCH_X0 0.75
#define PATCH_X1 2.2
#define PATCH_Y0 (-0.9)
#define PATCH_Y1 1.3

static void seat_to_grid(int size, int side, double u, double v, double *x, double *y)
{
    double m = size - 1;
    switch (side & 3) {
    case 0: *x = u; *y = v; break;              /* bottom */
    case 1: *x = v; *y = m - u; break;          /* right */
    case 2: *x = m - u; *y = m - v; break;      /* top */
    default: *x = m - v; *y = u; break;         /* left */
    }
}

void rec_signal_init(rec_signal_t *s, int size, int black_side)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->hold_s = 0.5;
    for (int seat = 1; seat <= 2; seat++) {
        rec_corner_t *c = &s->corner[seat];
        int side = seat == 1 ? black_side : black_side + 2;
        c->seat = seat;
        double cx, cy;
        seat_to_grid(size, side, size - 1, size - 1, &cx, &cy);
        c->cx = (int)(cx + 0.5);
        c->cy = (int)(cy + 0.5);
        for (int j = 0; j < REC_SIG_N; j++)
            for (int i = 0; i < REC_SIG_N; i++) {
                double u = size - 1 + PATCH_X0 + (PATCH_X1 - PATCH_X0) * (i + 0.5) / REC_SIG_N;
                double v = size - 1 + PATCH_Y0 + (PATCH_Y1 - PATCH_Y0) * (j + 0.5) / REC_SIG_N;
                int k = j * REC_SIG_N + i;
                seat_to_grid(size, side, u, v, &c->gx[k], &c->gy[k]);
                int px = (int)lround(c->gx[k]), py = (int)lround(c->gy[k]);
                px = px < 0 ? 0 : px >= size ? size - 1 : px;
                py = py < 0 ? 0 : py >= size ? size - 1 : py;
                double dd = hypot(c->gx[k] - px, c->gy[k] - py);
                c->near_pt[k] = (int16_t)(dd < 1.6 ? py * size + px : -1);
            }
    }
}

/* The image point of grid (x, y), rounded to a pixel; -1 behind the camera. */
static int grid_px(const vis_geom_t *g, double x, double y, int *cx, int *cy)
{
    const double *H = g->H;
    double w = H[6] * x + H[7] * y + H[8];
    if (w <= 1e-9)
        return -1;
    double px = (H[0] * x + H[1] * y + H[2]) / w, py = (H[3] * x + H[4] * y + H[5]) / w;
    if (!(fabs(px) < 1e7 && fabs(py) < 1e7))
        return -1;
    *cx = (int)floor(px + 0.5);
    *cy = (int)floor(py + 0.5);
    return 0;
}

/* Mean luma of a 3x3 pixel block around pixel (cx, cy); -1 off the image. *sat (may be
 * NULL) gets the block's saturation, (max - min) / max of the mean BGR. */
static float luma_px(const cvb_image_t *img, int cx, int cy, float *sat)
{
    if (cx < 1 || cy < 1 || cx >= img->w - 1 || cy >= img->h - 1)
        return -1;
    float sum = 0, bgr[3] = { 0, 0, 0 };
    for (int dy = -1; dy <= 1; dy++) {
        const uint8_t *row = img->data + (size_t)(cy + dy) * img->stride;
        for (int dx = -1; dx <= 1; dx++) {
            const uint8_t *p = row + (size_t)(cx + dx) * (size_t)img->channels;
            sum += img->channels >= 3 ? 0.114f * p[0] + 0.587f * p[1] + 0.299f * p[2] : p[0];
            for (int k = 0; k < 3; k++)
                bgr[k] += p[img->channels >= 3 ? k : 0];
        }
    }
    if (sat) {
        float mx = bgr[0], mn = bgr[0];
        for (int k = 1; k < 3; k++) {
            mx = bgr[k] > mx ? bgr[k] : mx;
            mn = bgr[k] < mn ? bgr[k] : mn;
        }
        *sat = mx > 0 ? (mx - mn) / mx : 0;
    }
    return sum / 9;
}

static float luma_at(const cvb_image_t *img, const vis_geom_t *g, double x, double y)
{
    int cx, cy;
    return grid_px(g, x, y, &cx, &cy) ? -1 : luma_px(img, cx, cy, NULL);
}

void rec_signal_reference(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g)
{
    for (int seat = 1; seat <= 2; seat++) {
        rec_corner_t *c = &s->corner[seat];
        for (int k = 0; k < REC_SIG_N * REC_SIG_N; k++)
            c->ref_y[k] = luma_at(img, g, c->gx[k], c->gy[k]);
        c->reading = c->confirmed = REC_SIG_NONE;
        c->frames = 0;
        c->since = 0;
    }
    s->have_ref = 1;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The corner's reading in this frame: rec_sig_t, or -1 when the patch is hidden or the
 * reading unsure. Differences from the reference are taken relative to their median
 * (the table's own change: exposure, light), so only a stone-sized change counts. */
static int read_corner(const rec_corner_t *c, const cvb_image_t *img, const vis_geom_t *g,
                       const uint8_t *stones)
{
    enum { NS = REC_SIG_N * REC_SIG_N };
    float d[NS], sat[NS], y[NS], ds[NS];
    int n = 0, dark = 0, bright = 0, hand = 0;
    /* the camera shaken by a pixel or two (or the board's grid read a pixel off) moves
     * the table's edges (the board's rim, a bowl's shadow) under the samples: a sample
     * counts as changed only when it differs from the reference at every place within a
     * tenth of a cell around it (the same way); what it changed to is read where it is,
     * so a stone is told black or white as before */
    int ax, ay, bx, by, rad = 1;
    if (!grid_px(g, c->gx[0], c->gy[0], &ax, &ay) &&
        !grid_px(g, c->gx[0] + 1, c->gy[0], &bx, &by)) {
        double cell = hypot(bx - ax, by - ay);
        rad = (int)lround(0.1 * cell);
        rad = rad < 1 ? 1 : rad > 4 ? 4 : rad;
    }
    for (int k = 0; k < NS; k++) {
        d[k] = 0;
        y[k] = -1;
        if (c->ref_y[k] < 0)
            continue;
        int q = c->near_pt[k];
        if (q >= 0 && stones && stones[q])
            continue;
        int px, py;
        if (grid_px(g, c->gx[k], c->gy[k], &px, &py))
            continue;
        y[k] = luma_px(img, px, py, &sat[k]);
        if (y[k] < 0)
            continue;
        d[k] = y[k] - c->ref_y[k];
        ds[n++] = d[k];
    }
    if (n < NS / 4)
        return -1;
    qsort(ds, (size_t)n, sizeof ds[0], cmp_float);
    float med = ds[n / 2];
    for (int k = 0; k < NS; k++) {
        if (c->ref_y[k] < 0 || y[k] < 0)
            continue;
        float r = c->ref_y[k] + med, dd = d[k] - med;
        float dth = 0.4f * r > 35 ? 0.4f * r : 35;
        if (fabsf(dd) <= 12)
            continue;
        /* as before a pixel or two away: moved, not changed */
        int px, py, moved = 0;
        if (!grid_px(g, c->gx[k], c->gy[k], &px, &py))
            for (int oy = -rad; oy <= rad && !moved; oy += rad)
                for (int ox = -rad; ox <= rad && !moved; ox += rad) {
                    float yk = luma_px(img, px + ox, py + oy, NULL);
                    moved = yk >= 0 && fabsf(yk - r) <= 12;
                }
        if (moved)
            continue;
        if (sat[k] > 0.3f && y[k] > 40)
            hand++; /* a changed, coloured sample: skin or a sleeve, not a stone */
        else if (dd < -dth)
            dark++;
        else
            bright++; /* changed, not strongly darker: a white stone, or a rim or highlight */
    }
    double fd = (double)dark / n, fb = (double)bright / n;
    if (fd + fb > 0.45 || hand > n / 50)
        return -1;
    if (fd + fb < 0.03)
        return REC_SIG_NONE;
    if (fd + fb < 0.05)
        return -1; /* unsure: neither starts nor ends a run */
    /* a black stone: a solid share of strongly darker samples (its shaded rim and its
     * highlight change the rest); a white one: hardly any (a shadow is not that dark) */
    return dark >= 3 && fd >= 0.35 * (fd + fb) ? REC_SIG_BLACK : REC_SIG_WHITE;
}

int rec_signal_feed(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                    const uint8_t *stones, int occluder, double t)
{
    if (!s->have_ref || !img || !img->data || !g || occluder)
        return 0;
    int changed = 0;
    for (int seat = 1; seat <= 2; seat++) {
        rec_corner_t *c = &s->corner[seat];
        int r = read_corner(c, img, g, stones);
        if (r < 0)
            continue;
        if (r != c->reading) {
            c->reading = r;
            c->since = t;
            c->frames = 0;
        }
        c->frames++;
        if (c->reading != c->confirmed && c->frames >= 3 && t - c->since >= s->hold_s) {
            c->confirmed = c->reading;
            c->confirmed_since = c->since;
            changed |= 1 << (seat - 1);
        }
    }
    return changed;
}

int rec_signal_get(const rec_signal_t *s, int seat)
{
    return seat == 1 || seat == 2 ? s->corner[seat].confirmed : REC_SIG_NONE;
}

int rec_signal_near(const rec_signal_t *s, int seat, int x, int y, int d)
{
    if (seat != 1 && seat != 2)
        return 0;
    const rec_corner_t *c = &s->corner[seat];
    return abs(x - c->cx) <= d && abs(y - c->cy) <= d;
}
