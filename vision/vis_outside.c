/* vis_outside.c: the table beside the board's corners read as pixels (vis_outside.h).
 *
 * Invariants: the samples' grid coordinates and near points depend only on the size and
 * the params (vis_outside_init); a reference changes only in vis_outside_reference (all
 * samples) and vis_outside_refresh (samples whose near point changed); a read changes
 * nothing. Pixels go through vis_homog_apply_front (a sample behind the camera or far
 * off is off the image) and vis_luma_f.
 */
#include "vision/vis_outside.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_outside_params_defaults(vis_outside_params_t *p)
{
    p->patch_u0 = 0.75;
    p->patch_u1 = 3.5;
    p->patch_v0 = -1.8;
    p->patch_v1 = 1.3;
    p->near_d = 1.6;
    p->chroma_th = 16.0f;
    p->change_min = 6.0f;
    p->change_max = 12.0f;
    p->bright_table = 150.0f;
    p->hand_chroma = 6.0f;
    p->hidden_share = 0.45;
    p->none_share = 0.03;
    p->sure_share = 0.05;
    p->white_ratio = 1.12f;
}

/* Grid (x, y) of (u, v) in the frame of a seat at `side` (u rightwards, v towards him). */
static void seat_to_grid(int size, int side, double u, double v, double *x, double *y)
{
    double m = size - 1;
    switch (side & 3) {
    case VIS_SIDE_BOTTOM: *x = u; *y = v; break;
    case VIS_SIDE_RIGHT: *x = v; *y = m - u; break;
    case VIS_SIDE_TOP: *x = m - u; *y = m - v; break;
    default: *x = m - v; *y = u; break;   /* left */
    }
}

/* Set up corner c: the corner of a seat on `side`. */
static void corner_init(vis_outside_corner_t *c, const vis_outside_params_t *p, int size,
                        int side)
{
    memset(c, 0, sizeof *c);
    const int N = VIS_OUTSIDE_N;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double u = size - 1 + p->patch_u0 + (p->patch_u1 - p->patch_u0) * (i + 0.5) / N;
            double v = size - 1 + p->patch_v0 + (p->patch_v1 - p->patch_v0) * (j + 0.5) / N;
            int k = j * N + i;
            seat_to_grid(size, side, u, v, &c->gx[k], &c->gy[k]);
            int px = (int)lround(c->gx[k]), py = (int)lround(c->gy[k]);
            px = px < 0 ? 0 : px >= size ? size - 1 : px;
            py = py < 0 ? 0 : py >= size ? size - 1 : py;
            double dd = hypot(c->gx[k] - px, c->gy[k] - py);
            c->near_pt[k] = (int16_t)(dd < p->near_d ? py * size + px : -1);
        }
}

int vis_outside_init(vis_outside_t *o, int size, const vis_outside_params_t *p)
{
    if (!o || size < 2 || size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    memset(o, 0, sizeof *o);
    o->size = size;
    if (p)
        o->p = *p;
    else
        vis_outside_params_defaults(&o->p);
    for (int side = 0; side < 4; side++)
        corner_init(&o->corner[side], &o->p, size, side);
    return VIS_OK;
}

/* One sample: the mean of a 3x3 pixel block. */
typedef struct {
    float y;      /* luma; -1 off the image */
    float cb, cr; /* blue - luma, red - luma */
    float sat;    /* (max - min) / max of the mean BGR */
    float span;   /* max - min of the mean BGR */
} px_t;

/* The sample around pixel (cx, cy); y = -1 off the image. */
static px_t sample_px(const cvb_image_t *img, int cx, int cy)
{
    px_t o = { -1, 0, 0, 0, 0 };
    float bgr[3];
    if (vis_mean3x3(img, cx, cy, bgr))
        return o;
    o.y = vis_luma_f(bgr[0], bgr[1], bgr[2]);
    o.cb = bgr[0] - o.y;
    o.cr = bgr[2] - o.y;
    float mx = bgr[0], mn = bgr[0];
    for (int k = 1; k < 3; k++) {
        mx = bgr[k] > mx ? bgr[k] : mx;
        mn = bgr[k] < mn ? bgr[k] : mn;
    }
    o.span = mx - mn;
    o.sat = mx > 0 ? (mx - mn) / mx : 0;
    return o;
}

static px_t sample_at(const cvb_image_t *img, const vis_geom_t *g, double x, double y)
{
    int cx, cy;
    px_t none = { -1, 0, 0, 0, 0 };
    return vis_grid_px(g, x, y, &cx, &cy) ? none : sample_px(img, cx, cy);
}

/* A tenth of a cell around a sample, in pixels (1..4): how far the camera's shake (or the
 * grid read a pixel off) moves the table under it. */
static int shift_rad(const vis_outside_corner_t *c, const vis_geom_t *g)
{
    int ax, ay, bx, by, rad = 1;
    if (!vis_grid_px(g, c->gx[0], c->gy[0], &ax, &ay) &&
        !vis_grid_px(g, c->gx[0] + 1, c->gy[0], &bx, &by)) {
        double cell = hypot(bx - ax, by - ay);
        rad = (int)lround(0.1 * cell);
        rad = rad < 1 ? 1 : rad > 4 ? 4 : rad;
    }
    return rad;
}

/* Take sample k's reference look from img (and its range within rad pixels around). */
static void sample_reference(vis_outside_corner_t *c, const cvb_image_t *img,
                             const vis_geom_t *g, int k, int rad)
{
    int px, py;
    px_t p = sample_at(img, g, c->gx[k], c->gy[k]);
    c->ref_y[k] = p.y;
    c->ref_cb[k] = p.cb;
    c->ref_cr[k] = p.cr;
    float lo[3] = { p.y, p.cb, p.cr }, hi[3] = { p.y, p.cb, p.cr };
    if (p.y >= 0 && !vis_grid_px(g, c->gx[k], c->gy[k], &px, &py))
        for (int oy = -rad; oy <= rad; oy += rad)
            for (int ox = -rad; ox <= rad; ox += rad) {
                px_t o = sample_px(img, px + ox, py + oy);
                if (o.y < 0)
                    continue;
                float v[3] = { o.y, o.cb, o.cr };
                for (int i = 0; i < 3; i++) {
                    lo[i] = v[i] < lo[i] ? v[i] : lo[i];
                    hi[i] = v[i] > hi[i] ? v[i] : hi[i];
                }
            }
    for (int i = 0; i < 3; i++) {
        c->ref_lo[i][k] = lo[i];
        c->ref_hi[i][k] = hi[i];
    }
}

void vis_outside_reference(vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g)
{
    if (!o || !img || !img->data || !g)
        return;
    for (int side = 0; side < 4; side++) {
        vis_outside_corner_t *c = &o->corner[side];
        int rad = shift_rad(c, g);
        for (int k = 0; k < VIS_OUTSIDE_NS; k++) {
            sample_reference(c, img, g, k, rad);
            c->ref_stone[k] = 0;
        }
    }
    o->have_ref = 1;
}

void vis_outside_forget(vis_outside_t *o)
{
    if (o)
        o->have_ref = 0;
}

/* The corner's reading in this frame: go_color_t, or VIS_OUTSIDE_UNSURE when the patch is
 * hidden or the reading unsure. Differences from the reference are taken relative to their
 * median (the table's own change: exposure, light), so only a stone-sized change counts. A
 * sample changed when its brightness or its colour did: a black stone on dark wood is
 * hardly darker than the wood (its sheen), but grey where the wood was brown. */
static int read_corner(const vis_outside_params_t *pa, const vis_outside_corner_t *c,
                       const cvb_image_t *img, const vis_geom_t *g, const uint8_t *stones)
{
    enum { NS = VIS_OUTSIDE_NS };
    const float chroma_th = pa->chroma_th;
    float d[NS], ds[NS], dcb[NS], dcr[NS], ry[NS], ch[NS];
    px_t sp[NS];
    int n = 0, dark = 0, bright = 0, dim = 0, hand = 0, nch = 0;
    float net = 0;   /* the changed samples' change in brightness, summed */
    for (int k = 0; k < NS; k++) {
        d[k] = 0;
        sp[k].y = -1;
        if (c->ref_y[k] < 0)
            continue;
        int q = c->near_pt[k];
        if (q >= 0 && stones && (stones[q] != 0) != c->ref_stone[k])
            continue;
        int px, py;
        if (vis_grid_px(g, c->gx[k], c->gy[k], &px, &py))
            continue;
        sp[k] = sample_px(img, px, py);
        if (sp[k].y < 0)
            continue;
        d[k] = sp[k].y - c->ref_y[k];
        dcb[n] = sp[k].cb - c->ref_cb[k];
        dcr[n] = sp[k].cr - c->ref_cr[k];
        ry[n] = c->ref_y[k];
        ds[n++] = d[k];
    }
    if (n < NS / 4)
        return VIS_OUTSIDE_UNSURE;
    qsort(ds, (size_t)n, sizeof ds[0], cmp_float);
    qsort(dcb, (size_t)n, sizeof dcb[0], cmp_float);
    qsort(dcr, (size_t)n, sizeof dcr[0], cmp_float);
    float med = ds[n / 2], mcb = dcb[n / 2], mcr = dcr[n / 2];
    qsort(ry, (size_t)n, sizeof ry[0], cmp_float);
    float refmed = ry[n / 2];   /* the table's brightness at reference time */
    /* the least change that counts: change_max, down to change_min on a plain table where
     * the samples hardly change (3.5 times their median deviation) */
    for (int i = 0; i < n; i++)
        ds[i] = fabsf(ds[i] - med);
    qsort(ds, (size_t)n, sizeof ds[0], cmp_float);
    float lth = 3.5f * ds[n / 2];
    lth = lth < pa->change_min ? pa->change_min : lth > pa->change_max ? pa->change_max : lth;
    for (int k = 0; k < NS; k++) {
        if (c->ref_y[k] < 0 || sp[k].y < 0)
            continue;
        float r = c->ref_y[k] + med, dd = d[k] - med;
        float rcb = c->ref_cb[k] + mcb, rcr = c->ref_cr[k] + mcr;
        float dth = 0.4f * r > 35 ? 0.4f * r : 35;
        int chroma = fabsf(sp[k].cb - rcb) > chroma_th || fabsf(sp[k].cr - rcr) > chroma_th;
        if (fabsf(dd) <= lth && !chroma)
            continue;
        /* the camera shaken by a pixel or two (or the board's grid read a pixel off)
         * moves the table's edges (the board's rim, a bowl's shadow) under the samples: a
         * sample whose new look is one its place had within a tenth of a cell around it
         * (the reference's range there) was moved, not changed; a stone on a plain table
         * is not (its look was nowhere around) */
        int moved = sp[k].y >= c->ref_lo[0][k] + med - lth &&
                    sp[k].y <= c->ref_hi[0][k] + med + lth &&
                    sp[k].cb >= c->ref_lo[1][k] + mcb - chroma_th &&
                    sp[k].cb <= c->ref_hi[1][k] + mcb + chroma_th &&
                    sp[k].cr >= c->ref_lo[2][k] + mcr - chroma_th &&
                    sp[k].cr <= c->ref_hi[2][k] + mcr + chroma_th;
        if (moved)
            continue;
        /* a changed sample more coloured than the table was: skin or a sleeve, not a
         * stone (a stone's edge blends the table with white or black: as coloured as the
         * table at most, so a white stone on brown wood is not a hand) */
        float more = hypotf(sp[k].cb, sp[k].cr) - hypotf(rcb, rcr);
        net += dd;
        if (sp[k].sat > 0.3f && sp[k].span > 30 && sp[k].y > 40 && more > pa->hand_chroma) {
            hand++;
            continue;
        }
        ch[nch++] = sp[k].y;   /* a stone's sample (or its shadow's): how bright it is */
        if (dd < -dth || (chroma && dd < -6))
            dark++; /* much darker, or darker and of another colour: a black stone */
        else if (dd < 0)
            dim++; /* a little darker: a stone's shadow, or a white stone on white cloth */
        else
            bright++; /* brighter: a white stone, or a rim or highlight */
    }
    /* the shares are of a patch of VIS_OUTSIDE_SHARE_AREA: a larger patch holds the same
     * stone in a smaller share of its samples */
    double fd = (double)dark / n, fb = (double)(bright + dim) / n;
    double sc = VIS_OUTSIDE_SHARE_AREA /
                ((pa->patch_u1 - pa->patch_u0) * (pa->patch_v1 - pa->patch_v0));
    if (fd + fb > pa->hidden_share * sc || hand > n / 50)
        return VIS_OUTSIDE_UNSURE;
    if (fd + fb < pa->none_share * sc)
        return GO_EMPTY;
    if (fd + fb < pa->sure_share * sc)
        return VIS_OUTSIDE_UNSURE; /* unsure: neither starts nor ends a run */
    /* a black stone: a solid share of strongly darker samples against the brighter ones
     * (its highlight; its shadow, a little darker, counts for neither: on a plain table
     * a stone's soft shadow changes more samples than the stone); a white one: hardly
     * any (a shadow is not that dark) */
    if (dark >= 3 && dark >= 0.35 * (dark + bright))
        return GO_BLACK;
    /* a black stone on a dark table (wood) is only a little darker than the wood and a
     * little greyer, darker all over (its highlight is small), or brighter by its sheen
     * but no brighter than the table, on the whole (the median of what it changed); a
     * white stone there is brighter all over, and much brighter. On a bright table (white
     * cloth) a white stone's shading is darker too, so there only strongly darker samples
     * (above) tell a black stone */
    float table = refmed + med;
    if (table >= pa->bright_table)
        return GO_WHITE;
    qsort(ch, (size_t)nch, sizeof ch[0], cmp_float);
    int brighter = nch > 0 && ch[nch / 2] >= pa->white_ratio * table;
    return net < 0 || !brighter ? GO_BLACK : GO_WHITE;
}

int vis_outside_read(const vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g,
                     const uint8_t *stones, unsigned sides, int out[4])
{
    if (!o || !o->have_ref || !img || !img->data || !g || !out)
        return VIS_EINVAL;
    for (int side = 0; side < 4; side++)
        out[side] = (sides >> side) & 1u ? read_corner(&o->p, &o->corner[side], img, g, stones)
                                         : VIS_OUTSIDE_UNSURE;
    return VIS_OK;
}

void vis_outside_refresh(vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g,
                         const uint8_t *stones, unsigned sides)
{
    if (!o || !o->have_ref || !img || !img->data || !g || !stones)
        return;
    for (int side = 0; side < 4; side++) {
        if (!((sides >> side) & 1u))
            continue;
        vis_outside_corner_t *c = &o->corner[side];
        int rad = -1;
        for (int k = 0; k < VIS_OUTSIDE_NS; k++) {
            int q = c->near_pt[k];
            if (q < 0 || (stones[q] != 0) == c->ref_stone[k])
                continue;
            if (rad < 0)
                rad = shift_rad(c, g);
            sample_reference(c, img, g, k, rad);
            c->ref_stone[k] = stones[q] != 0;
        }
    }
}
