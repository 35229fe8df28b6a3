/* vis_track.c: the grid-fit measure (and what it tells of a board given by four corners:
 * its size, vis_guess_size, and its reading, vis_classify_corners) and tracking. Given the
 * geometry of the last frame,
 * check that the board has not moved (the grid lines still lie where the geometry says,
 * over the segments no hand hides), follow a small shift, then classify. Plain C over
 * sparse samples of the BGR pixels, no OpenCV.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"
#include "vision/vis_track.h"

/* The tracker's evidence of a grid segment: board finding's (vis_seg_params_t, the same
 * sides, the same search across the line: VIS_SEG_COMMON), but a line must be darker
 * (dip_rel and dip_abs: the default margin, which vis_line_contrast scales by a board's own
 * contrast) and the sides are compared in brightness alone (integer luma; chroma_* and
 * ref_* unused here). */
static const vis_seg_params_t track_seg = { VIS_SEG_COMMON, .dip_rel = 0.08, .dip_abs = 4 };

/* The darkness of the segment (i, j)-(i, j+1) of line `dir`/`i`: *dip = how much darker
 * the darkest sample across the line (track_seg.across of the sides' offset each way) is
 * than the board track_seg.side_off cell to either side; *margin = the default line
 * test's (dip_rel of the sides plus dip_abs: a line is darker by more). 0: outside the
 * image or too small to tell; 1: in the image but not visible (the sides differ: a stone,
 * a hand's edge, the rim); 2: visible. */
static int segment_dip(const cvb_image_t *img, const double H[9], int dir, double i, int j,
                       double *dip, double *margin)
{
    const vis_seg_params_t *sp = &track_seg;
    /* the midpoint of the segment (i, j)-(i, j+1) of a line */
    double bx = dir ? i : j + 0.5, by = dir ? j + 0.5 : i;
    double ox = dir ? sp->side_off : 0, oy = dir ? 0 : sp->side_off;
    double cx, cy, ax, ay, qx, qy;
    if (vis_homog_apply(H, bx, by, &cx, &cy) ||
        vis_homog_apply(H, bx + ox, by + oy, &ax, &ay) ||
        vis_homog_apply(H, bx - ox, by - oy, &qx, &qy))
        return 0;
    int la = luma3(img, ax, ay), lq = luma3(img, qx, qy);
    if (la < 0 || lq < 0)
        return 0;
    double ux = ax - cx, uy = ay - cy, ul = hypot(ux, uy);
    if (ul < sp->min_px)
        return 1;
    ux /= ul;
    uy /= ul;
    /* the darkest pixel within +-0.1 spacing across the line */
    /* each sample averages 3 pixels along the line (noise, wood grain) */
    int lmin = 255;
    double reach = sp->across * ul, step = reach / 3 > 0.5 ? reach / 3 : 0.5;
    double vx = -uy * sp->along_px, vy = ux * sp->along_px;
    int nstep = (int)floor((2 * reach + 1e-9) / step);   /* samples -reach..reach */
    for (int k = 0; k <= nstep; k++) {
        double o = -reach + k * step, px = cx + o * ux, py = cy + o * uy;
        int v0 = luma1(img, px, py), v1 = luma1(img, px + vx, py + vy),
            v2 = luma1(img, px - vx, py - vy);
        if (v0 < 0 || v1 < 0 || v2 < 0)
            continue;
        int val = (v0 + v1 + v2) / 3;
        if (val < lmin)
            lmin = val;
    }
    double side = 0.5 * (la + lq);
    /* a visible segment: board on both sides (similar, not dark) */
    if (abs(la - lq) > sp->side_rel * side + sp->side_abs || side < sp->min_level)
        return 1;
    *dip = side - lmin;
    *margin = sp->dip_rel * side + sp->dip_abs;
    return 2;
}

/* vis_line_support with the line test's margin scaled by k (1: the default). */
static void line_support_k(const cvb_image_t *img, const double H[9], int dir, double i,
                           int j0, int j1, double k, int *good, int *visible, int *total)
{
    int g = 0, v = 0, t = 0;
    for (int j = j0; j < j1; j++) {
        double dip = 0, m = 0;
        int r = segment_dip(img, H, dir, i, j, &dip, &m);
        t += r > 0;
        v += r == 2;
        g += r == 2 && dip > k * m;
    }
    *good = g;
    *visible = v;
    *total = t;
}

void vis_line_support(const cvb_image_t *img, const double H[9], int dir, double i, int j0,
                      int j1, int *good, int *visible, int *total)
{
    line_support_k(img, H, dir, i, j0, j1, 1.0, good, visible, total);
}

int vis_grid_fit(const cvb_image_t *img, const vis_geom_t *geom, double *out)
{
    return vis_grid_fit_k(img, geom, 1.0, out);
}

int vis_guess_size(const cvb_image_t *img, double corners[4][2], int *size)
{
    if (!img || !corners || !size)
        return VIS_EINVAL;
    static const int sizes[3] = { 19, 13, 9 };
    double best = -1;
    int bs = 0;
    for (int k = 0; k < 3; k++) {
        vis_geom_t g;
        double f;
        if (vis_geom_from_corners(corners, sizes[k], img->w, img->h, &g) ||
            vis_grid_fit(img, &g, &f))
            continue;
        /* a finer grid that fits is the answer; a coarse one also "fits" a fine board
         * only by chance, so prefer larger sizes unless clearly worse */
        if (f > best + 0.08) {
            best = f;
            bs = sizes[k];
        }
    }
    if (!bs)
        return VIS_EINVAL;
    *size = bs;
    return VIS_OK;
}

int vis_size_for_corners(const cvb_image_t *img, double corners[4][2], int size_hint)
{
    int size = size_hint;
    if (!size && vis_guess_size(img, corners, &size))
        size = 19;
    return size;
}

int vis_classify_corners(const cvb_image_t *img, double corners[4][2], const vis_config_t *cfg,
                         int size_hint, vis_geom_t *geom, vis_snapshot_t *snap,
                         vis_timing_t *tm)
{
    if (!img || !img->data || !corners || !geom || !snap)
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    int size = vis_size_for_corners(img, corners, size_hint);
    if (vis_geom_from_corners(corners, size, img->w, img->h, geom))
        return VIS_EINVAL;
    double t0 = vis_now_ms();
    vis_refine(img, geom); /* VIS_ENOBOARD (too few lines to refine): the grid as given */
    double t1 = vis_now_ms();
    int rc = vis_classify(img, geom, cfg, snap);
    double t2 = vis_now_ms();
    if (tm) {
        memset(tm, 0, sizeof *tm);
        tm->ms[VIS_STAGE_REFINE] = t1 - t0;
        tm->ms[VIS_STAGE_CLASSIFY] = t2 - t1;
        tm->total_ms = t2 - t0;
    }
    return rc;
}

int vis_grid_fit_k(const cvb_image_t *img, const vis_geom_t *geom, double k, double *out)
{
    if (!img || !img->data || !geom || !out || geom->size < 2 || !(k > 0))
        return VIS_EINVAL;
    int S = geom->size, good = 0, visible = 0, total = 0;
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < S; i++) {
            int g, v, t;
            line_support_k(img, geom->H, dir, i, 0, S - 1, k, &g, &v, &t);
            good += g;
            visible += v;
            total += t;
        }
    if (total == 0)
        return VIS_EINVAL;
    *out = visible < total / 10 + 1 ? 0.0 : (double)good / visible;
    return VIS_OK;
}

/* ---- tracking ---- */

/* The grid fit of geom over the segments whose two points are neither occluded (a hand
 * hides its lines: that is not a moved board) nor, when ee is set, anything but empty.
 * *fit = good / visible, *nvis = visible, *ntot = segments inside the image. */
static void masked_fit(const cvb_image_t *img, const vis_geom_t *geom,
                       const vis_snapshot_t *s, int ee, double lk, double *fit, int *nvis,
                       int *ntot)
{
    int S = geom->size, good = 0, vis = 0, tot = 0;
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < S; i++)
            for (int j = 0; j + 1 < S; j++) {
                int a = dir ? j * S + i : i * S + j, b = dir ? a + S : a + 1;
                if (s->occluded[a] || s->occluded[b])
                    continue;
                if (ee && (s->color[a] != GO_EMPTY || s->color[b] != GO_EMPTY))
                    continue;
                int g, v, t;
                line_support_k(img, geom->H, dir, i, j, j + 1, lk, &g, &v, &t);
                good += g;
                vis += v;
                tot += t;
            }
    *fit = vis ? (double)good / vis : 0;
    *nvis = vis;
    *ntot = tot;
}

/* Where the lines between empty points really are against geom (grid_offset): across
 * each segment between two empty, unoccluded points (its middle is plain board and line,
 * stones stay clear of it), the thinnest darkest valley of a brightness profile. */
#define OFF_N 25          /* samples across a line ... */
#define OFF_STEP 0.05     /* ... this many cells apart (OFF_N - 1 steps: +-OFF_SPAN) */
#define OFF_SPAN 0.6      /* cells each side of the line the profile spans */
#define OFF_ALONG 0.08    /* cells: each sample the mean of three this far apart along the
                             line (a pixel's noise, the wood's grain) */
#define OFF_MAX 40        /* profiles per direction, spread over the board */
#define OFF_DIP_REL 0.08f /* a valley is darker than the darker of its sides two samples
                             (0.1 cell) away by this share of the profile's mean ... */
#define OFF_DIP_ABS 3.0f  /* ... plus this many levels, both scaled by the line test's k */
#define OFF_AGREE 0.1     /* cells: a profile agrees with the median this near it */
#define OFF_MAJORITY 3    /* of every OFF_OF profiles must agree, or none is told (half */
#define OFF_OF 5          /* a cell off, or not lines at all) */
#define OFF_FIT_MIN 8     /* agreeing profiles for the offset's slope across the board */
#define OFF_SLOPE_MAX 0.02 /* cells a cell: a steeper fitted slope is taken for noise and
                             the median stands */

/* The valley of line i of direction dir (0: the line of points (j, i), 1: (i, j)) at the
 * middle of its segment from point j to j + 1: its offset from where geom puts the line
 * (cells, sub-sample by a parabola), or 0 with nothing in *off when the profile leaves the
 * picture or shows no valley deep enough (OFF_DIP_*, scaled by lk). */
static int line_valley(const cvb_image_t *img, const vis_geom_t *geom, int dir, int i, int j,
                       double lk, float *off)
{
    /* the profile across line i at the segment's middle, from -OFF_SPAN to +OFF_SPAN
     * (locally affine: two ends and a step along the line) */
    double along = j + 0.5, e[3][2];
    if (vis_homog_apply(geom->H, dir ? i - OFF_SPAN : along, dir ? along : i - OFF_SPAN,
                        &e[0][0], &e[0][1]) ||
        vis_homog_apply(geom->H, dir ? i + OFF_SPAN : along, dir ? along : i + OFF_SPAN,
                        &e[1][0], &e[1][1]) ||
        vis_homog_apply(geom->H, dir ? i - OFF_SPAN : along + OFF_ALONG,
                        dir ? along + OFF_ALONG : i - OFF_SPAN, &e[2][0], &e[2][1]))
        return 0;
    double sx = (e[1][0] - e[0][0]) / (OFF_N - 1), sy = (e[1][1] - e[0][1]) / (OFF_N - 1),
           ax = e[2][0] - e[0][0], ay = e[2][1] - e[0][1];
    float v[OFF_N];
    for (int k = 0; k < OFF_N; k++) {
        double px = e[0][0] + k * sx, py = e[0][1] + k * sy;
        int l0 = luma1(img, px - ax, py - ay), l1 = luma1(img, px, py),
            l2 = luma1(img, px + ax, py + ay);
        if (l0 < 0 || l1 < 0 || l2 < 0)
            return 0;
        v[k] = (float)(l0 + l1 + l2) / 3;
    }
    /* a valley: darker than both sides two samples away */
    float best = 0, mean = 0;
    int kb = -1;
    for (int k = 0; k < OFF_N; k++)
        mean += v[k];
    mean /= OFF_N;
    for (int k = 2; k < OFF_N - 2; k++) {
        float side = v[k - 2] < v[k + 2] ? v[k - 2] : v[k + 2];
        float r = side - v[k];
        if (r > best) {
            best = r;
            kb = k;
        }
    }
    if (kb < 2 || best < (float)lk * (OFF_DIP_REL * mean + OFF_DIP_ABS)) /* kb: -1 or 2..OFF_N-3 */
        return 0;
    /* sub-sample: the parabola through the valley's three samples */
    double den = v[kb - 1] - 2.0 * v[kb] + v[kb + 1], sub = 0;
    if (den > 1e-3)
        sub = 0.5 * (v[kb - 1] - v[kb + 1]) / den;
    if (sub > 0.5 || sub < -0.5)
        sub = 0;
    *off = (float)(-OFF_SPAN + OFF_STEP * (kb + sub));
    return 1;
}

/* The offsets off[n] found at board positions pos[n] of one direction, as one: their
 * median into *med and how many agree with it (OFF_AGREE) into *agree, 0 without a
 * majority (OFF_MAJORITY); cf the offset as an affine function of the position, c0 + c1 x
 * + c2 y, fitted over the agreeing ones (a camera nudged under perspective moves the near
 * lines further than the far ones) when OFF_FIT_MIN agree and the slope stays gentle,
 * else the median alone. */
static void offsets_fit(const float *off, const float (*pos)[2], int n, double *med,
                        int *agree, double cf[3])
{
    float tmp[OFF_MAX];
    memcpy(tmp, off, sizeof(float) * (size_t)n);
    *med = median_f(tmp, n);
    int ag = 0;
    for (int k = 0; k < n; k++)
        ag += fabs(off[k] - *med) < OFF_AGREE;
    if (ag * OFF_OF < n * OFF_MAJORITY)
        ag = 0; /* no clear majority: half a cell off, or not lines at all */
    *agree = ag;
    double A[3][4] = { { 0 } };
    cf[0] = *med;
    for (int k = 0; k < n; k++) {
        if (fabs(off[k] - *med) >= OFF_AGREE)
            continue;
        double r[3] = { 1, pos[k][0], pos[k][1] };
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++)
                A[a][b] += r[a] * r[b];
            A[a][3] += r[a] * off[k];
        }
    }
    if (ag < OFF_FIT_MIN)
        return;
    /* the 3x3 normal equations, a pivot under a millionth of column 0's largest (plus one)
     * taken as singular (the agreeing segments on one line) */
    double M[9], rhs[3], big = 0;
    for (int r2 = 0; r2 < 3; r2++) {
        for (int b2 = 0; b2 < 3; b2++)
            M[3 * r2 + b2] = A[r2][b2];
        rhs[r2] = A[r2][3];
        big = fmax(big, fabs(A[r2][0]));
    }
    if (!vis_solve_tol(3, M, rhs, 1e-6 * (big + 1)) && fabs(rhs[1]) <= OFF_SLOPE_MAX &&
        fabs(rhs[2]) <= OFF_SLOPE_MAX) {
        cf[0] = rhs[0];
        cf[1] = rhs[1];
        cf[2] = rhs[2];
    }
}

/* The valleys of up to OFF_MAX segments a direction (line_valley), as one (offsets_fit):
 * *dx from the vertical lines, *dy from the horizontal ones (grid units, medians); *nx,
 * *ny: how many segments agree with them; cx, cy: each as an affine function of the
 * position. */
static void grid_offset(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *s,
                        double lk, double *dx, double *dy, int *nx, int *ny, double cx[3],
                        double cy[3])
{
    int S = geom->size;
    *dx = *dy = 0;
    *nx = *ny = 0;
    for (int k = 0; k < 3; k++)
        cx[k] = cy[k] = 0;
    for (int dir = 0; dir < 2; dir++) {
        float off[OFF_MAX], pos[OFF_MAX][2];
        int n = 0, cand = 0;
        for (int i = 0; i < S; i++)
            for (int j = 0; j + 1 < S; j++) {
                int a = dir ? j * S + i : i * S + j, b = dir ? a + S : a + 1;
                cand += !s->occluded[a] && !s->occluded[b] && s->color[a] == GO_EMPTY &&
                        s->color[b] == GO_EMPTY;
            }
        /* at most OFF_MAX of them, spread over the board */
        int every = cand / OFF_MAX + 1, c = 0;
        for (int i = 0; i < S; i++)
            for (int j = 0; j + 1 < S; j++) {
                int a = dir ? j * S + i : i * S + j, b = dir ? a + S : a + 1;
                if (s->occluded[a] || s->occluded[b] || s->color[a] != GO_EMPTY ||
                    s->color[b] != GO_EMPTY)
                    continue;
                if (c++ % every || n >= OFF_MAX)
                    continue;
                if (!line_valley(img, geom, dir, i, j, lk, &off[n]))
                    continue;
                pos[n][0] = (float)(dir ? i : j + 0.5);
                pos[n][1] = (float)(dir ? j + 0.5 : i);
                n++;
            }
        if (!n)
            continue;
        double med;
        int agree;
        offsets_fit(off, (const float (*)[2])pos, n, &med, &agree, dir ? cx : cy);
        if (dir) {
            *dx = med;
            *nx = agree;
        } else {
            *dy = med;
            *ny = agree;
        }
    }
}

/* grid units: a shift found under this is the camera shaking, followed by a translation
 * of the picture (see vis_track_update_k) */
#define TRACK_SHAKE 0.15
/* lines: a shift is followed when this many lines tell it, TRACK_LINES_SHAKE for one under
 * TRACK_SHAKE (a pixel of shake must be told by more lines than a bump) */
#define TRACK_LINES 4
#define TRACK_LINES_SHAKE 8
/* grid units: after the first step, a further step is taken when the lines are still
 * this far off (the first step's limit is cfg->track_shift) */
#define TRACK_STEP_MIN 0.04
/* how much better the grid must fit at the first step to be moved there: a bump (a shift
 * of TRACK_SHAKE or more) clearly, a camera's shake only better (a pixel of shake at
 * 640x360, 0.06 of a cell, gains 0.02..0.04: left alone, the edge points read a line's
 * width off look covered; a threshold in between lets the odd frame of a shake go
 * unfollowed, a hand over the board for the station) */
#define TRACK_GAIN_BUMP 0.05
#define TRACK_GAIN_SHAKE 0.005
/* grid units: a followed grid whose lines are still this far off (TRACK_LINES telling it)
 * is lost (the cap on the shift reached) */
#define TRACK_OFF_LOST 0.2
/* a crowded board's grid that fits under cfg->track_min_fit is kept when the lines
 * between empty points show (TRACK_EMPTY_LINES segments fitting TRACK_EMPTY_FIT), or are
 * found in place by TRACK_PLACE_LINES lines each way within TRACK_PLACE_OFF */
#define TRACK_EMPTY_LINES 8
#define TRACK_EMPTY_FIT 0.6
#define TRACK_PLACE_LINES 5
#define TRACK_PLACE_OFF 0.15

/* The grid of moved shifted by the lines' offsets found (tx, ty: their medians, grid
 * units; cx, cy: their fitted planes, used for a direction mx, my that moves): a slight
 * shift (both under TRACK_SHAKE) as one translation of the picture, a bump as the plane
 * of offsets. 0 with it in *next; -1 when it makes no geometry. */
static int shifted_grid(const vis_geom_t *moved, double tx, double ty, int mx, int my,
                        const double cx[3], const double cy[3], vis_geom_t *next)
{
    double A[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, H2[9];
    int slight = fabs(tx) < TRACK_SHAKE && fabs(ty) < TRACK_SHAKE;
    double mid = (moved->size - 1) * 0.5, pu0, pv0, pu1, pv1;
    if (slight && !vis_homog_apply(moved->H, mid, mid, &pu0, &pv0) &&
        !vis_homog_apply(moved->H, mid + tx, mid + ty, &pu1, &pv1)) {
        /* a small shift is the camera shaking: the picture moved, not the board, by one
         * translation in pixels (the lines' offset at the board's middle); the offsets'
         * slopes, fitted over a few lines, would tilt the grid at the edges (an edge
         * stone then read from beside it) */
        memcpy(H2, moved->H, sizeof H2);
        for (int c = 0; c < 3; c++) {
            H2[c] += (pu1 - pu0) * moved->H[6 + c];
            H2[3 + c] += (pv1 - pv0) * moved->H[6 + c];
        }
    } else {
        /* H' = H * A, A: board (x, y) -> (x + ox(x, y), y + oy(x, y)), the offsets found:
         * board (x, y) is seen where geom put (x + ox, y + oy) */
        if (mx) {
            A[0] += cx[1];
            A[1] = cx[2];
            A[2] = cx[0];
        }
        if (my) {
            A[3] = cy[1];
            A[4] += cy[2];
            A[5] = cy[0];
        }
        vis_homog_mul(moved->H, A, H2);
    }
    double w = H2[8];
    if (fabs(w) < 1e-12)
        return -1;
    for (int k = 0; k < 9; k++)
        H2[k] /= w;
    return vis_geom_from_h(H2, moved->size, moved->img_w, moved->img_h, next) ? -1 : 0;
}

/* A snapshot for the tracker's search (off left out), its reading kept in *r for the
 * final snapshot. */
static int track_read(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                      vis_reading_t *r, vis_snapshot_t *s)
{
    int rc = vis_read(img, geom, cfg, r);
    return rc ? rc : vis_snapshot_from_reading(img, geom, cfg, r, s, 0);
}

static void lost_snapshot(const vis_geom_t *geom, vis_snapshot_t *snap)
{
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    s.size = geom->size;
    s.frame = snap->frame;
    s.t = snap->t;
    s.board_lost = 1;
    s.occluder = 1;
    for (int k = 0; k < geom->size * geom->size; k++)
        s.occluded[k] = 1;
    *snap = s;
}

int vis_track_update(const cvb_image_t *img, vis_geom_t *geom, const vis_config_t *cfg,
                     vis_snapshot_t *snap)
{
    return vis_track_update_k(img, geom, cfg, 1.0, snap);
}

int vis_track_update_k(const cvb_image_t *img, vis_geom_t *geom, const vis_config_t *cfg,
                       double lk, vis_snapshot_t *snap)
{
    if (!img || !img->data || !geom || !snap || geom->size < 2 || geom->size > VIS_MAX_SIZE ||
        !(lk > 0))
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    vis_snapshot_t s = *snap;
    vis_reading_t *prob = malloc(2 * sizeof *prob), *prob2;
    if (!prob)
        return VIS_ENOMEM;
    prob2 = prob + 1;
    int rc = track_read(img, geom, cfg, prob, &s);
    if (rc) {
        free(prob);
        return rc;
    }
    /* a small shift: the lines between empty points are found off where geom has them;
     * followed twice more from the moved place (under perspective a bump is not exactly
     * a shift in board units) */
    vis_geom_t moved = *geom;
    int refined = 0;
    /* which of two places fits better is told at the board's typical line darkness (lk
     * is 0.6 of it): at lk a grid a tenth of a cell off still fits nearly every segment */
    double lk_pos = lk / 0.6 < 1.0 ? lk / 0.6 : 1.0;
    double sumx = 0, sumy = 0, odx = 0, ody = 0; /* the lines' offset at moved */
    int onx = 0, ony = 0;
    for (int it = 0; it < 3; it++) {
        double cx[3], cy[3];
        grid_offset(img, &moved, &s, lk, &odx, &ody, &onx, &ony, cx, cy);
        /* a slight shift (under TRACK_SHAKE: a pixel of camera shake on a small image)
         * must be told by more lines than a bump */
        double lim = it ? TRACK_STEP_MIN : cfg->track_shift;
        int mx = onx >= (fabs(odx) < TRACK_SHAKE ? TRACK_LINES_SHAKE : TRACK_LINES) &&
                 fabs(odx) > lim && fabs(sumx + odx) <= cfg->track_shift_max;
        int my = ony >= (fabs(ody) < TRACK_SHAKE ? TRACK_LINES_SHAKE : TRACK_LINES) &&
                 fabs(ody) > lim && fabs(sumy + ody) <= cfg->track_shift_max;
        if (!mx && !my)
            break;
        double tx = mx ? odx : 0, ty = my ? ody : 0;
        vis_geom_t next;
        if (shifted_grid(&moved, tx, ty, mx, my, cx, cy, &next))
            break;
        vis_snapshot_t s2 = *snap;
        double f0, f1;
        int v0, t0, v1, t1;
        /* kept only when the grid fits better there (the same points left out) */
        if (track_read(img, &next, cfg, prob2, &s2))
            break;
        masked_fit(img, &moved, &s2, 0, lk_pos, &f0, &v0, &t0);
        masked_fit(img, &next, &s2, 0, lk_pos, &f1, &v1, &t1);
        /* the first step must fit clearly better for a bump, a shake's only better */
        double gain = (mx && fabs(odx) >= TRACK_SHAKE) || (my && fabs(ody) >= TRACK_SHAKE)
            ? TRACK_GAIN_BUMP : TRACK_GAIN_SHAKE;
        if (!(f1 > f0 + (it ? 0.0 : gain)))
            break;
        s = s2;
        memcpy(prob, prob2, sizeof *prob);
        moved = next;
        refined = 1;
        sumx += tx;
        sumy += ty;
        s.shift_x = (float)sumx;
        s.shift_y = (float)sumy;
    }
    if (refined) {
        /* still off where it stopped (the cap reached: half a cell or more): lost */
        double cx[3], cy[3];
        grid_offset(img, &moved, &s, lk, &odx, &ody, &onx, &ony, cx, cy);
        if ((onx >= TRACK_LINES && fabs(odx) > TRACK_OFF_LOST) ||
            (ony >= TRACK_LINES && fabs(ody) > TRACK_OFF_LOST)) {
            lost_snapshot(geom, snap);
            free(prob);
            return VIS_OK;
        }
    }
    const vis_geom_t *g = refined ? &moved : geom;
    /* the grid where it is visible: occluded points left out */
    double fit;
    int nvis, ntot;
    masked_fit(img, g, &s, 0, lk, &fit, &nvis, &ntot);
    if (ntot == 0) { /* every point hidden or off the image: nothing to hold on to */
        lost_snapshot(geom, snap);
        free(prob);
        return VIS_OK;
    }
    /* lost: the reader sees no board's points where the grid puts them, or one side is
     * off the board (the board moved by whole cells), or next to nothing of the grid is
     * in sight (cannot tell it has not moved) */
    int lost = s.grid_belief < cfg->grid_min_belief ||
               vis_grid_side_belief(prob) < cfg->grid_min_belief || nvis < ntot / 10 + 1;
    if (!lost && fit < cfg->track_min_fit) {
        /* a crowded board hides most lines, an arm's shadow and rim more: the lines
         * between empty points must show, or be found in place in both directions by
         * most of the profiles across them (a moved board puts them elsewhere) */
        double efit;
        int evis, etot;
        masked_fit(img, g, &s, 1, lk, &efit, &evis, &etot);
        int in_place = onx >= TRACK_PLACE_LINES && ony >= TRACK_PLACE_LINES &&
                       fabs(odx) <= TRACK_PLACE_OFF && fabs(ody) <= TRACK_PLACE_OFF;
        lost = !(evis >= TRACK_EMPTY_LINES && efit >= TRACK_EMPTY_FIT) && !in_place;
    }
    if (lost) {
        lost_snapshot(geom, snap);
        free(prob);
        return VIS_OK;
    }
    /* the snapshot handed out hides the points the reader finds off the grid */
    vis_snapshot_t fin = s;
    rc = vis_snapshot_from_reading(img, g, cfg, prob, &fin, 1);
    free(prob);
    if (rc)
        return rc;
    fin.shift_x = s.shift_x;
    fin.shift_y = s.shift_y;
    s = fin;
    s.refined = refined;
    if (refined)
        *geom = moved;
    *snap = s;
    return VIS_OK;
}

int vis_track(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
              vis_snapshot_t *snap)
{
    return vis_track_k(img, geom, cfg, 1.0, snap);
}

int vis_track_k(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                double lk, vis_snapshot_t *snap)
{
    if (!img || !img->data || !geom || !snap)
        return VIS_EINVAL;
    vis_geom_t g = *geom;
    return vis_track_update_k(img, &g, cfg, lk, snap);
}

/* ---- the board's own line contrast ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int vis_line_contrast(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap,
                      double *k)
{
    if (!img || !img->data || !geom || !k || geom->size < 3 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    int S = geom->size;
    /* the inner lines only (the edge lines are drawn thicker); a segment between two
     * empty points the snapshot saw unhidden; between lines: the same test half a cell
     * over, where only the board's grain and the noise make a dip. Each direction on
     * its own: a grid a third of a cell off across one family still lies on the other */
    size_t cap = (size_t)S * (size_t)S;
    double *on = malloc(sizeof(double) * cap), *off = malloc(sizeof(double) * cap);
    if (!on || !off) {
        free(on);
        free(off);
        return VIS_ENOMEM;
    }
    double kmin = 1.0;
    int rc = VIS_OK;
    for (int dir = 0; dir < 2 && rc == VIS_OK; dir++) {
        int non = 0, noff = 0;
        for (int i = 1; i + 1 < S; i++)
            for (int j = 0; j + 1 < S; j++) {
                int a = dir ? j * S + i : i * S + j, b = dir ? a + S : a + 1;
                if (snap && (snap->occluded[a] || snap->occluded[b] ||
                             snap->color[a] != GO_EMPTY || snap->color[b] != GO_EMPTY))
                    continue;
                double d, m;
                if (segment_dip(img, geom->H, dir, i, j, &d, &m) == 2)
                    on[non++] = d / m;
                /* half a cell over, still between empty points */
                int c = dir ? a + 1 : a + S, e = dir ? b + 1 : b + S;
                if (i + 2 < S && !(snap && (snap->occluded[c] || snap->occluded[e] ||
                                            snap->color[c] != GO_EMPTY ||
                                            snap->color[e] != GO_EMPTY)) &&
                    segment_dip(img, geom->H, dir, i + 0.5, j, &d, &m) == 2)
                    off[noff++] = d / m;
            }
        rc = VIS_ENOBOARD;
        if (non >= 10 && noff >= 10) {
            qsort(on, (size_t)non, sizeof(double), cmp_double);
            qsort(off, (size_t)noff, sizeof(double), cmp_double);
            double med = on[non / 2], noise = off[noff * 9 / 10];
            /* half way down the typical line's dip, but clear of the board's own dips */
            double lo = noise + 0.15 > 0.35 ? noise + 0.15 : 0.35, want = 0.6 * med;
            if (want >= lo) {
                kmin = want < kmin ? want : kmin;
                rc = VIS_OK;
            }
        }
    }
    free(on);
    free(off);
    if (rc == VIS_OK)
        *k = kmin; /* never stricter than the default test */
    return rc;
}

int vis_board_accept(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap,
                     const vis_config_t *cfg, double *k, double *fit)
{
    if (!img || !geom || !cfg || !k || !fit)
        return VIS_EINVAL;
    double lk = 1.0, f = 0;
    if (vis_line_contrast(img, geom, snap, &lk) != VIS_OK || vis_grid_fit_k(img, geom, lk, &f) != VIS_OK ||
        f < cfg->track_min_fit)
        return VIS_ENOBOARD;
    *k = lk;
    *fit = f;
    return VIS_OK;
}
