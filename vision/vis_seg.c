/* vis_seg.c: a grid segment's evidence in board finding, and a window of lines scored by
 * it (vis_seg_params_t in vis.h says what is measured). The segment between two points
 * of one grid line is seen when the board shows on both of its sides, of like brightness
 * and chromaticity, and is a line when the darkest of the samples across it lies below
 * the sides. pair_grid (vis_detect.c) scores every window of a pencil pair's lattice
 * through one cache of its segments; the stones' lattice (vis_lattice.c) scores its
 * windows and slides its grid by the same evidence. Tracking measures lines with values
 * of its own (vis_track.c).
 * Invariants: grids are handed in at full size (a work-scale one through
 * vis_window_score); a segment out of the picture counts in no total; nothing here keeps
 * state but the caller's cache, whose entries, once filled, never change.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

/* lround for a pixel coordinate, without the libm call (the samplers below are board
 * finding's inner loop): the same for f > -0.5; -1 (outside) for anything less, NaN or
 * huge. */
static inline int round_px(double f)
{
    return f > -0.5 && f < 1e9 ? (int)(f + 0.5) : -1;
}

/* Mean of the 3x3 block at (x, y) of a gray or BGR image into v[3] (gray: all equal);
 * -1 outside. */
static int mean3(const cvb_image_t *img, double fx, double fy, double v[3])
{
    int x = round_px(fx), y = round_px(fy), c = img->channels;
    if (x < 1 || y < 1 || x >= img->w - 1 || y >= img->h - 1)
        return -1;
    double a[3] = { 0, 0, 0 };
    for (int dy = -1; dy <= 1; dy++) {
        const uint8_t *p = img->data + (size_t)(y + dy) * img->stride + (size_t)(x - 1) * c;
        for (int dx = 0; dx < 3; dx++, p += c)
            for (int k = 0; k < 3; k++)
                a[k] += p[c == 3 ? k : 0];
    }
    for (int k = 0; k < 3; k++)
        v[k] = a[k] / 9;
    return 0;
}

int vis_gray1(const cvb_image_t *g, double fx, double fy)
{
    int x = round_px(fx), y = round_px(fy);
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return -1;
    return g->data[(size_t)y * g->stride + x];
}

/* Whether a segment's sides (measured without a reference colour, or about to be kept)
 * are of the reference colour ref (NULL: any): chromaticity within sp->chroma_max,
 * brightness within sp->ref_lo..ref_hi times ref's. */
static int seg_ref_ok(const vis_seg_t *o, const double *ref, const vis_seg_params_t *sp)
{
    return !ref || (fabs(o->cb - ref[0]) <= sp->chroma_max && fabs(o->cr - ref[1]) <= sp->chroma_max &&
                    o->side >= sp->ref_lo * ref[2] && o->side <= sp->ref_hi * ref[2]);
}

void vis_seg_defaults(vis_seg_params_t *p)
{
    *p = (vis_seg_params_t){ VIS_SEG_COMMON, .dip_rel = 0.05, .dip_abs = 3, .edge_off = 0.25,
                             .edge_off_cost = 0.15 };
}

/* vis_seg_support's test for one segment (vis_seg_params_t sp; ref as there: when given and
 * not met, *o->good is left 0 and visible cleared). */
static void seg_one(const cvb_image_t *g, const cvb_image_t *col, const double H[9],
                    const vis_seg_params_t *sp, int dir, double i, int j, const double *ref,
                    vis_seg_t *o)
{
    memset(o, 0, sizeof *o);
    o->done = 1;
    double bx = dir ? i : j + 0.5, by = dir ? j + 0.5 : i;
    double ox = dir ? sp->side_off : 0, oy = dir ? 0 : sp->side_off;
    double cx, cy, ax, ay, qx, qy, ca[3], cq[3];
    if (vis_homog_apply(H, bx, by, &cx, &cy) || vis_homog_apply(H, bx + ox, by + oy, &ax, &ay) ||
        vis_homog_apply(H, bx - ox, by - oy, &qx, &qy) || mean3(col, ax, ay, ca) ||
        mean3(col, qx, qy, cq))
        return;
    o->total = 1;
    double ux = ax - cx, uy = ay - cy, ul = hypot(ux, uy);
    if (ul < sp->min_px)
        return;
    ux /= ul;
    uy /= ul;
    double la = vis_luma(ca[0], ca[1], ca[2]);
    double lq = vis_luma(cq[0], cq[1], cq[2]);
    double side = 0.5 * (la + lq);
    if (fabs(la - lq) > sp->side_rel * side + sp->side_abs || side < sp->min_level)
        return;
    double sa = ca[0] + ca[1] + ca[2] + sp->chroma_damp, sq = cq[0] + cq[1] + cq[2] + sp->chroma_damp;
    if (col->channels == 3) {
        double d0 = fabs(ca[0] / sa - cq[0] / sq), d2 = fabs(ca[2] / sa - cq[2] / sq);
        if ((d0 > d2 ? d0 : d2) > sp->chroma_max)
            return;
    }
    double cb = 0.5 * (ca[0] / sa + cq[0] / sq), cr = 0.5 * (ca[2] / sa + cq[2] / sq);
    o->cb = cb;
    o->cr = cr;
    o->side = side;
    if (!seg_ref_ok(o, ref, sp))
        return; /* not the board's colour: no evidence of a larger grid */
    o->visible = 1;
    int lmin = 255;
    double reach = sp->across * ul, step = reach / 3 > 0.5 ? reach / 3 : 0.5;
    double vx = -uy * sp->along_px, vy = ux * sp->along_px;
    int nstep = (int)floor((2 * reach + 1e-9) / step);
    for (int k = 0; k <= nstep; k++) {
        double o2 = -reach + k * step, px = cx + o2 * ux, py = cy + o2 * uy;
        int v0 = vis_gray1(g, px, py), v1 = vis_gray1(g, px + vx, py + vy), v2 = vis_gray1(g, px - vx, py - vy);
        if (v0 < 0 || v1 < 0 || v2 < 0)
            continue;
        int val = (v0 + v1 + v2) / 3;
        if (val < lmin)
            lmin = val;
    }
    o->good = lmin < side - (sp->dip_rel * side + sp->dip_abs);
}

/* vis_line_support for board finding: the segments of the line `dir`/`i` (board space of
 * H, full-size images) seen as a dark line (*good) between two sides of the same colour
 * and brightness (*visible: board on both sides; col BGR, or gray for brightness only).
 * Against vis_line_support the sides must also agree in chromaticity, so a board's
 * edge (board on one side, table on the other, often of like brightness) is no grid
 * line; and the line may be fainter (8 px boards at 640x360: 8% contrast). */
void vis_seg_support(const cvb_image_t *g, const cvb_image_t *col, const double H[9],
                     const vis_seg_params_t *sp, int dir, double i, int j0, int j1,
                     const double *ref, double *acc, int *good, int *visible, int *total)
{
    int gd = 0, v = 0, t = 0;
    for (int j = j0; j < j1; j++) {
        vis_seg_t o;
        seg_one(g, col, H, sp, dir, i, j, ref, &o);
        t += o.total;
        if (!o.visible)
            continue;
        if (acc) {
            acc[0] += o.cb;
            acc[1] += o.cr;
            acc[2] += o.side;
            acc[3] += 1;
        }
        v++;
        gd += o.good;
    }
    *good = gd;
    *visible = v;
    *total = t;
}

static const vis_seg_t *seg_cached(vis_seg_cache_t *c, int dir, int line, int start)
{
    int a = line - c->lo, b = start - c->lo;
    vis_seg_t *o = &c->s[((size_t)dir * c->n + a) * c->n + b];
    if (!o->done)
        seg_one(c->g, c->col, c->H, c->sp, dir, line, start, NULL, o);
    return o;
}

/* Line `dir`/`i` of the window: as vis_seg_support (ref, acc), from the cache when there is
 * one. */
static void win_line(const vis_win_src_t *w, int dir, int i, int S, const double *ref,
                     double *acc, int *good, int *visible, int *total)
{
    if (!w->c) {
        vis_seg_support(w->gray, w->col, w->H, w->sp, dir, i, 0, S - 1, ref, acc, good, visible,
                    total);
        return;
    }
    int gd = 0, v = 0, t = 0;
    for (int j = 0; j < S - 1; j++) {
        const vis_seg_t *o = dir ? seg_cached(w->c, 1, i + w->oa, j + w->ob)
                             : seg_cached(w->c, 0, i + w->ob, j + w->oa);
        t += o->total;
        if (!o->visible || !seg_ref_ok(o, ref, w->sp))
            continue;
        if (acc) {
            acc[0] += o->cb;
            acc[1] += o->cr;
            acc[2] += o->side;
            acc[3] += 1;
        }
        v++;
        gd += o->good;
    }
    *good = gd;
    *visible = v;
    *total = t;
}

/* Score of a window: share of the grid's segments that are lines, minus the share of the
 * segments of the four lines just outside it that are. */
double vis_window_score_src(const vis_win_src_t *w, int S)
{
    int g = 0, v = 0, t = 0, og = 0, ot = 0, ev[4], et[4];
    double acc[4] = { 0, 0, 0, 0 }, ref[3];
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < S; i++) {
            int a, b, c;
            win_line(w, dir, i, S, NULL, acc, &a, &b, &c);
            g += a;
            v += b;
            t += c;
            if (i == 0 || i == S - 1) {
                ev[2 * dir + (i > 0)] = b;
                et[2 * dir + (i > 0)] = c;
            }
        }
    /* the lines just outside count against the window only where they lie on wood of the
     * window's own colour (a larger board's lines), not on the table beyond the edge */
    for (int k = 0; k < 3; k++)
        ref[k] = acc[3] > 0 ? acc[k] / acc[3] : 0;
    for (int dir = 0; dir < 2; dir++)
        for (int e = 0; e < 2; e++) {
            int a, b, c;
            win_line(w, dir, e ? S : -1, S, acc[3] > 0 ? ref : NULL, NULL, &a, &b, &c);
            og += a;
            ot += c;
        }
    if (t < (S - 1) * S || v < t / 10 + 1)
        return -1;
    double in = (double)g / v;
    double out = ot ? (double)og / (2 * 2 * (S - 1)) : 0;
    /* an edge line off the board: the first and last lines run on the board's margin and
     * show board on both sides between the stones even on a full board; a window one row
     * too far out puts its edge line on the board's edge (the side face under a side
     * view, of the board's wood too), where the two sides never agree */
    double off = 0, share = (double)v / t;
    for (int e = 0; e < 4; e++)
        if (et[e] > 0 && (double)ev[e] / et[e] < w->sp->edge_off * share)
            off += w->sp->edge_off_cost;
    VTRACE("    window: good %d visible %d total %d out %d/%d off %.2f\n", g, v, t, og, ot, off);
    return in - out - off;
}

/* vis_window_score_src on Hw (work scale; gray and col full size). */
double vis_window_score(const cvb_image_t *gray, const cvb_image_t *col,
                        const vis_seg_params_t *sp, const double Hw[9], int S, double scale)
{
    vis_win_src_t w = { gray, col, sp, { 0 }, NULL, 0, 0 };
    vis_homog_unscale(Hw, scale, w.H);
    return vis_window_score_src(&w, S);
}
