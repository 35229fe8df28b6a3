/* vis_detect.c: cold detection of the board grid, in numbered stages (vis.h), each timed
 * and with an optional debug image:
 *   1 prepare  downscale to work_max, gray
 *   2 edges    black-hat: thin dark structures (grid lines) light up; percentile threshold
 *   3 lines    Hough lines, de-duplicated, split into two angle families
 *   4 grid     per family, a 1D projective fit of line positions along a transversal
 *              (lines x = k of the board cut any image line at t(k) = (ak+b)/(ck+1)),
 *              inlier lines -> homography from their intersections; the size and the
 *              window of lines chosen by how well the grid fits and how badly the lines
 *              just outside it do (a sub-grid of a larger board fails that test)
 *              When no grid of lines is found, or only a weak one, the board is looked
 *              for in the lattice of its black stones (vis_lattice.c): a finished game
 *              hides most of the lines.
 *   5 refine   each grid line re-fitted at full resolution from dark-line samples along
 *              it (sub-pixel), homography re-fitted from the lines' intersections
 *              (vis_refit.c); the learned reader judges the grid (grid_verify), then
 *              the same lattice moved by whole lines and grown to the next size
 *              (vis_window.c: a window one to three lines off is the commonest near
 *              miss on a crowded or cut board)
 *   6 classify vis_classify
 * With light_lines (a photo), a search that finds no board or a grid the reader doubts
 * is made again on the gray picture inverted (white lines on dark wood; the stones'
 * lattice is then of the white stones), and the grid the reader believes more wins.
 * Invariants: the geometry handed out maps board (0..size-1)^2 into the image with the
 * board x axis running rightwards and y downwards (as the photo is seen).
 */
#include "vision/vis.h"

#include <math.h>
#include <stdio.h> /* snprintf */
#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"
#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

#define DEG (M_PI / 180.0)
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *vis_stage_name(int stage)
{
    static const char *names[VIS_NSTAGES] = { "prepare", "edges", "lines",
                                              "grid",    "refine", "classify" };
    return stage >= 0 && stage < VIS_NSTAGES ? names[stage] : "?";
}

/* ---- 1D projective maps ---- */

int vis_proj1_fit(int n, const double *k, const double *t, vis_proj1_t *out)
{
    if (n < 3 || !k || !t || !out)
        return -1;
    /* a k + b - c k t = t, least squares in (a, b, c) */
    double A[9] = { 0 }, r[3] = { 0 };
    for (int i = 0; i < n; i++) {
        double row[3] = { k[i], 1, -k[i] * t[i] };
        for (int p = 0; p < 3; p++) {
            for (int q = 0; q < 3; q++)
                A[p * 3 + q] += row[p] * row[q];
            r[p] += row[p] * t[i];
        }
    }
    if (vis_solve(3, A, r))
        return -1;
    out->a = r[0];
    out->b = r[1];
    out->c = r[2];
    return 0;
}

int vis_proj1_eval(const vis_proj1_t *f, double k, double *t)
{
    double d = f->c * k + 1;
    if (d < 0.05)
        return -1;
    *t = (f->a * k + f->b) / d;
    return 0;
}

/* ---- lines ---- */

typedef struct {
    double rho, theta; /* x cos(theta) + y sin(theta) = rho */
    int votes;
    double t;          /* position along the family's transversal */
} line_t;

static double circ_deg(double a, double b) /* distance of two angles mod 180, degrees */
{
    double d = fmod(fabs(a - b), 180.0);
    return d > 90 ? 180 - d : d;
}

/* Intersection of two lines; -1 when near parallel. */
static int intersect(const line_t *p, const line_t *q, double *x, double *y)
{
    double a1 = cos(p->theta), b1 = sin(p->theta), a2 = cos(q->theta), b2 = sin(q->theta);
    double det = a1 * b2 - a2 * b1;
    if (fabs(det) < 1e-6)
        return -1;
    *x = (p->rho * b2 - q->rho * b1) / det;
    *y = (a1 * q->rho - a2 * p->rho) / det;
    return 0;
}

/* A line's index when it is no inlier of its family's pencil. */
#define K_NONE (-1000)

/* A family's lines with their fitted index. */
typedef struct {
    int n;          /* lines */
    line_t *l;
    int *k;         /* fitted index per line, K_NONE when not an inlier */
    int kmin, kmax; /* range of inlier indices */
    int inliers;
    vis_proj1_t f;
    double phi;     /* the family's mean normal angle, degrees */
    int mask;       /* which orientation peaks its lines come from */
} family_t;

static int cmp_line_t(const void *a, const void *b)
{
    double x = ((const line_t *)a)->t, y = ((const line_t *)b)->t;
    return (x > y) - (x < y);
}

/* The most lines a pencil holds (its walk's buffers), indices -PENCIL_MAX/2 .. */
#define PENCIL_MAX 80

/* Index of the line nearest position t (lines sorted by t), or -1. */
static int nearest(const family_t *F, double t)
{
    int lo = 0, hi = F->n - 1;
    if (F->n == 0)
        return -1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (F->l[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    int best = lo;
    if (lo > 0 && fabs(F->l[lo - 1].t - t) < fabs(F->l[lo].t - t))
        best = lo - 1;
    return best;
}

/* Grow a pencil from three lines taken as k = 0, 1, 2: walk outwards both ways,
 * predicting the next line with the 1D projective map refitted on every line accepted so
 * far (so extrapolation never runs far from its data), tolerating up to p->pencil_misses
 * missing lines in a row. Marks inliers in kk (index per line, K_NONE for none); returns
 * the score. */
static double walk(const family_t *F, const vis_lines_params_t *p, int i0, int i1, int i2,
                   int *kk, vis_proj1_t *fout, int *kmin, int *kmax, int *count)
{
    for (int i = 0; i < F->n; i++)
        kk[i] = K_NONE;
    double ks[PENCIL_MAX], ts[PENCIL_MAX];
    int m = 0, lo = 0, hi = 2;
    int seed[3] = { i0, i1, i2 };
    double score = 0;
    for (int q = 0; q < 3; q++) {
        kk[seed[q]] = q;
        ks[m] = q;
        ts[m] = F->l[seed[q]].t;
        m++;
        score += 1.0 + p->pencil_votes * F->l[seed[q]].votes;
    }
    vis_proj1_t f;
    if (vis_proj1_fit(m, ks, ts, &f))
        return -1;
    for (int dir = 1; dir >= -1; dir -= 2) {
        int miss = 0;
        for (int k = dir > 0 ? 3 : -1; k > -PENCIL_MAX / 2 && k < PENCIL_MAX / 2 && m < PENCIL_MAX;
             k += dir) {
            double t, ta, tb;
            if (vis_proj1_eval(&f, k, &t) || vis_proj1_eval(&f, k - 0.5, &ta) ||
                vis_proj1_eval(&f, k + 0.5, &tb))
                break;
            double sp = fabs(tb - ta);
            if (sp < p->pencil_px)
                break;
            int j = nearest(F, t);
            if (j >= 0 && fabs(F->l[j].t - t) < p->pencil_tol * sp && kk[j] == K_NONE) {
                kk[j] = k;
                ks[m] = k;
                ts[m] = F->l[j].t;
                m++;
                score += 1.0 + p->pencil_votes * F->l[j].votes;
                if (k < lo)
                    lo = k;
                if (k > hi)
                    hi = k;
                miss = 0;
                vis_proj1_t g;
                if (!vis_proj1_fit(m, ks, ts, &g))
                    f = g;
            } else if (++miss > p->pencil_misses) {
                break;
            }
        }
    }
    *fout = f;
    *kmin = lo;
    *kmax = hi;
    *count = m;
    return score;
}

/* Find the regular pencil of lines in a family (p: the pencil_* values). 0 on success. */
static int fit_family(family_t *F, const vis_lines_params_t *p)
{
    if (F->n < 4)
        return -1;
    int *kk = malloc(sizeof(int) * (size_t)F->n);
    if (!kk)
        return -1;
    double best = -1;
    int bi = 0, bj = 0, bl = 0;
    for (int i = 0; i < F->n; i++)
        for (int j = i + 1; j < F->n && j <= i + 3; j++)
            for (int l = j + 1; l < F->n && l <= j + 3; l++) {
                double d1 = F->l[j].t - F->l[i].t, d2 = F->l[l].t - F->l[j].t;
                if (d1 < p->pencil_px || d2 < p->pencil_px ||
                    d2 / d1 < 1.0 / p->pencil_seed_ratio || d2 / d1 > p->pencil_seed_ratio)
                    continue;
                vis_proj1_t f;
                int lo, hi, cnt;
                double sc = walk(F, p, i, j, l, kk, &f, &lo, &hi, &cnt);
                if (sc > best) {
                    best = sc;
                    bi = i;
                    bj = j;
                    bl = l;
                }
            }
    if (best < 0) {
        free(kk);
        return -1;
    }
    int lo, hi, cnt;
    walk(F, p, bi, bj, bl, kk, &F->f, &lo, &hi, &cnt);
    /* drop inliers off their predicted place by more than pencil_refit_tol of the spacing
     * (a board's frame line beside the first line), refit on the rest */
    double ks[PENCIL_MAX], ts[PENCIL_MAX];
    int m = 0;
    lo = 1000;
    hi = -1000;
    for (int i = 0; i < F->n; i++) {
        if (kk[i] == K_NONE)
            continue;
        double t, ta, tb;
        if (vis_proj1_eval(&F->f, kk[i], &t) || vis_proj1_eval(&F->f, kk[i] - 0.5, &ta) ||
            vis_proj1_eval(&F->f, kk[i] + 0.5, &tb) ||
            fabs(F->l[i].t - t) > p->pencil_refit_tol * fabs(tb - ta) || m >= PENCIL_MAX) {
            kk[i] = K_NONE;
            continue;
        }
        ks[m] = kk[i];
        ts[m] = F->l[i].t;
        m++;
        if (kk[i] < lo)
            lo = kk[i];
        if (kk[i] > hi)
            hi = kk[i];
    }
    vis_proj1_t g;
    if (m >= 4 && !vis_proj1_fit(m, ks, ts, &g))
        F->f = g;
    cnt = m;
    F->k = kk;
    F->kmin = lo;
    F->kmax = hi;
    F->inliers = cnt;
    return cnt >= 4 ? 0 : -1;
}

/* ---- helpers ---- */

#define NPK 3 /* orientation peaks tried */
#define NFAM (NPK + 3) /* families: one per peak, and unions of two close peaks */

static void emit(const vis_config_t *cfg, int stage, const cvb_image_t *img)
{
    if (cfg->debug && img && img->data)
        cfg->debug(cfg->debug_ctx, stage, vis_stage_name(stage), img);
}


/* Whether the window's corners lie in the picture (work scale w x h), give or take
 * `outside[side]` of the window's own extent beyond each side (left, right, top, bottom),
 * and at least `least` of the picture's own: a photo may cut the board off (a corner or a
 * few rows beyond its edge), but a window of lines running far out of the picture is a
 * pencil pair's chance agreement (a table's grain, stones in rows), not the board. */
static int corners_inside(const double Hw[9], int S, double w, double h, const double outside[4],
                          double least)
{
    double c[4][2], x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (int k = 0; k < 4; k++) {
        if (vis_homog_apply(Hw, (k == 1 || k == 2) ? S - 1 : 0, k >= 2 ? S - 1 : 0, &c[k][0],
                            &c[k][1]))
            return 0;
        x0 = fmin(x0, c[k][0]);
        y0 = fmin(y0, c[k][1]);
        x1 = fmax(x1, c[k][0]);
        y1 = fmax(y1, c[k][1]);
    }
    double m[4];
    for (int e = 0; e < 4; e++)
        m[e] = fmax(least * (e < 2 ? w : h), outside[e] * (e < 2 ? x1 - x0 : y1 - y0));
    for (int k = 0; k < 4; k++)
        if (c[k][0] < -m[0] || c[k][0] > w + m[1] || c[k][1] < -m[2] || c[k][1] > h + m[3])
            return 0;
    return 1;
}

/* The sides of the picture (work scale w x h: left, right, top, bottom) that cut the
 * lattice H0 of nA x nB found lines: those beyond which at least half the points of the
 * line next after its last found one (or before its first) lie. There a window may reach
 * `cut` beyond the picture (a photo that cuts its board: the found lines run to its
 * edge), elsewhere `outside` (the found lines end in view: the board's edge, or lines too
 * faint). */
static void cut_sides(const double H0[9], int nA, int nB, double w, double h, double outside,
                      double cut, double out[4])
{
    for (int e = 0; e < 4; e++)
        out[e] = outside;
    if (cut <= outside)
        return;
    for (int b = 0; b < 4; b++) { /* the line before A's first, after A's last, B's ... */
        int n = b < 2 ? nB : nA, beyond[4] = { 0, 0, 0, 0 };
        double fixed = b == 0 || b == 2 ? -1 : b == 1 ? nA : nB;
        for (int i = 0; i < n; i++) {
            double x, y;
            if (vis_homog_apply(H0, b < 2 ? fixed : i, b < 2 ? i : fixed, &x, &y))
                return;
            beyond[0] += x < 0;
            beyond[1] += x > w;
            beyond[2] += y < 0;
            beyond[3] += y > h;
        }
        for (int e = 0; e < 4; e++)
            if (2 * beyond[e] >= n)
                out[e] = cut;
    }
}

/* Lines a window of pair_grid may reach beyond a pencil's found ones either side (a first
 * line hidden, a board's edge taken for one); a pencil shorter than the window by more
 * than twice this lies anywhere in it, give or take this. A constant: the segment cache
 * (vis_seg_cache_t) is sized by it. */
#define WINDOW_SLACK 3

/* Grids that board finding found and the learned reader judges (grid_verify): at work
 * scale, with the window score that ranked them. */
#define MAX_CANDS 48
typedef struct {
    double H[9];
    int S;
    double score;
} cand_t;
typedef struct {
    cand_t c[MAX_CANDS];
    int n;
} cand_list_t;

/* The stones' lattice (vis_lattice_grid) is a witness apart from the lines, with no window
 * score of theirs: its candidate is read first of them all (before: added at score 0, it
 * came last and was left unread on boards whose lines gave six candidates, a 9x9 render
 * found right by it refused for a 13x13 of lines). */
#define CAND_LATTICE 2.0
static void cand_add(cand_list_t *cl, const double H[9], int S, double score)
{
    if (!cl || cl->n >= MAX_CANDS)
        return;
    memcpy(cl->c[cl->n].H, H, sizeof cl->c[cl->n].H);
    cl->c[cl->n].S = S;
    cl->c[cl->n].score = score;
    cl->n++;
}

/* The best grid window made of the pencils A and B: homography from the intersections
 * of their inlier lines, then every size and offset scored by vis_window_score (larger sizes
 * preferred unless clearly worse). 0 and *score, H, *S on success. */
static int pair_grid(const cvb_image_t *gray, const cvb_image_t *col, const vis_seg_params_t *sp,
                     const vis_lines_params_t *lp, double scale, const family_t *A,
                     const family_t *B, int size_hint, double outside, double cut,
                     double *score, double Hout[9], int *Sout, cand_list_t *cl)
{
    int np = 0, rc = -1;
    double *src = malloc(sizeof(double) * 2 * (size_t)(A->n * B->n + 1));
    double *dst = malloc(sizeof(double) * 2 * (size_t)(A->n * B->n + 1));
    if (!src || !dst)
        goto done;
    for (int i = 0; i < A->n; i++) {
        if (A->k[i] == K_NONE)
            continue;
        for (int j = 0; j < B->n; j++) {
            if (B->k[j] == K_NONE)
                continue;
            double x, y;
            if (intersect(&A->l[i], &B->l[j], &x, &y))
                continue;
            src[2 * np] = A->k[i] - A->kmin;
            src[2 * np + 1] = B->k[j] - B->kmin;
            dst[2 * np] = x;
            dst[2 * np + 1] = y;
            np++;
        }
    }
    double H0[9];
    if (np < 8 || vis_homog_fit(np, src, dst, H0))
        goto done;
    int nA = A->kmax - A->kmin + 1, nB = B->kmax - B->kmin + 1;
    /* the windows in view first (`outside` each way); then, when some size has one, the
     * sizes that have none, their windows reaching `cut` beyond the sides of the picture
     * that cut the found lines (cut_sides): a board larger than the lines in view */
    double inside[4] = { outside, outside, outside, outside }, reach[4];
    static const int sizes[3] = { 19, 13, 9 };
    double best = -1e9, size_best[3] = { -1e9, -1e9, -1e9 }, size_H[3][9] = { { 0 } };
    double size_next[3] = { -1e9, -1e9, -1e9 }, next_H[3][9]; /* the runner-up window */
    int bestS = 0;
    /* every window below is H0 shifted by whole units: its segments are measured once */
    /* lines from -(19 + WINDOW_SLACK + 1): a short pencil's window (19 lines at most,
     * sizes[0]) may start 19 + WINDOW_SLACK lines before its first, its outer line one
     * more */
    enum { LO = 19 + WINDOW_SLACK + 1, RIM = 2 * (WINDOW_SLACK + 1) };
    vis_seg_cache_t cache = { gray, col, sp, { 0 }, -LO, (nA > nB ? nA : nB) + RIM + LO + RIM, NULL };
    cache.s = calloc((size_t)2 * cache.n * cache.n, sizeof(vis_seg_t));
    if (!cache.s)
        goto done;
    vis_homog_unscale(H0, scale, cache.H);
    for (int pass = 0; pass < 2; pass++) {
        if (pass && (cut <= outside || fmax(size_best[0], fmax(size_best[1], size_best[2])) <= 0))
            break;
        if (pass)
            cut_sides(H0, nA, nB, gray->w * scale, gray->h * scale, outside, cut, reach);
        for (int si = 0; si < 3; si++) {
            int S = sizes[si];
            if ((size_hint && S != size_hint) || (pass && size_best[si] > 0))
                continue;
            const double *allow = pass ? reach : inside;
            int nmax = nA > nB ? nA : nB;
            /* sizes near the pencil's length; a pencil longer than any board ran on over a
             * table's regular grain: the largest size */
            if (!size_hint && (S > nmax + lp->size_above || S < nmax - lp->size_below) &&
                !(S == 19 && nmax > 19))
                continue;
            /* a pencil of fewer lines than the window (its far lines too faint to be found:
             * light along them, a board filling the picture) lies anywhere in it, give or
             * take WINDOW_SLACK */
            enum { SL = WINDOW_SLACK };
            int loA = nA - S + SL < -SL ? nA - S - SL : -SL;
            int hiA = nA - S + SL < -SL ? SL : nA - S + SL;
            int loB = nB - S + SL < -SL ? nB - S - SL : -SL;
            int hiB = nB - S + SL < -SL ? SL : nB - S + SL;
            for (int oa = loA; oa <= hiA; oa++)
                for (int ob = loB; ob <= hiB; ob++) {
                    /* up to WINDOW_SLACK lines beyond the fitted ones on either side */
                    double T[9] = { 1, 0, oa, 0, 1, ob, 0, 0, 1 }, Hw[9];
                    vis_homog_mul(H0, T, Hw);
                    vis_win_src_t w = { gray, col, sp, { 0 }, &cache, oa, ob };
                    double sc = corners_inside(Hw, S, gray->w * scale, gray->h * scale, allow,
                                               lp->outside_min)
                                    ? vis_window_score_src(&w, S)
                                    : -1;
                    VTRACE("  S %d oa %d ob %d score %.3f\n", S, oa, ob, sc);
                    if (sc > size_best[si]) {
                        size_next[si] = size_best[si];
                        memcpy(next_H[si], size_H[si], sizeof Hw);
                        size_best[si] = sc;
                        memcpy(size_H[si], Hw, sizeof Hw);
                    } else if (sc > size_next[si]) {
                        size_next[si] = sc;
                        memcpy(next_H[si], Hw, sizeof Hw);
                    }
                }
        }
    }
    for (int si = 0; si < 3; si++) {
        if (size_best[si] > 0)
            cand_add(cl, size_H[si], sizes[si], size_best[si]);
        if (size_next[si] > 0)
            cand_add(cl, next_H[si], sizes[si], size_next[si]);
    }
    for (int si = 0; si < 3; si++)
        if (size_best[si] > best + lp->size_prefer) {
            best = size_best[si];
            bestS = sizes[si];
            memcpy(Hout, size_H[si], sizeof size_H[si]);
        }
    if (bestS) {
        *score = best;
        *Sout = bestS;
        rc = 0;
    }
    free(cache.s);
done:
    free(src);
    free(dst);
    return rc;
}

/* Hough lines with angles in [lo, hi] degrees (may wrap around 0/180), strongest
 * first. */
typedef struct {
    float rho, theta;
    int votes;
} hl_t;
static int cmp_hl(const void *a, const void *b)
{
    return ((const hl_t *)b)->votes - ((const hl_t *)a)->votes;
}
static int hough_range(const cvb_image_t *bin, int thr, double lo, double hi, int max,
                       float *rho, float *theta, int *votes, int *n)
{
    double r[2][2];
    int nr = 0;
    if (lo < 0) {
        r[nr][0] = lo + 180;
        r[nr++][1] = 180;
        lo = 0;
    }
    if (hi > 180) {
        r[nr][0] = 0;
        r[nr++][1] = hi - 180;
        hi = 180;
    }
    r[nr][0] = lo;
    r[nr++][1] = hi;
    int total = 0;
    for (int i = 0; i < nr && total < max; i++) {
        int got = 0;
        if (cvb_hough_lines(bin, 1, 0.5 * DEG, thr, r[i][0] * DEG, r[i][1] * DEG, max - total,
                            rho + total, theta + total, votes + total, &got))
            return -1;
        total += got;
    }
    if (nr > 1) {
        hl_t *t = malloc(sizeof(hl_t) * (size_t)(total ? total : 1));
        if (!t)
            return -1;
        for (int i = 0; i < total; i++) {
            t[i].rho = rho[i];
            t[i].theta = theta[i];
            t[i].votes = votes[i];
        }
        qsort(t, (size_t)total, sizeof *t, cmp_hl);
        for (int i = 0; i < total; i++) {
            rho[i] = t[i].rho;
            theta[i] = t[i].theta;
            votes[i] = t[i].votes;
        }
        free(t);
    }
    *n = total;
    return 0;
}

/* ---- the detector ---- */

void vis_lines_defaults(vis_lines_params_t *p)
{
    p->blackhat_min = 5;
    p->edge_min_level = 8;
    p->coh_hist = 0.4;
    p->hist_smooth = 4;
    p->peak_apart = 20;
    p->peak_min = 0.1;
    p->coh_line = 0.3;
    p->hough_votes = 0.08;
    p->hough_votes_min = 16;
    p->hough_max = 3000;
    p->votes_rel = 0.3;
    p->dup_deg = 2;
    p->dup_px = 2.5;
    p->cross_deg = 1;
    p->cross_margin = 0.05;
    p->union_deg = 50;
    p->merge_px = 1.5;
    p->family_min_lines = 4;
    p->pair_deg = 40;
    p->score_min = 0.25;
    p->halve_share = 0.25;
    p->pencil_px = 4;
    p->pencil_seed_ratio = 1.25;
    p->pencil_tol = 0.2;
    p->pencil_misses = 3;
    p->pencil_votes = 0.002;
    p->pencil_refit_tol = 0.1;
    p->size_below = 4;
    p->size_above = 3;
    p->size_prefer = 0.05;
    p->outside_min = 0.05;
}

/* 2 edges: the black-hat response of gray (*resp, thin dark structures lit) and its
 * line pixels (*bh: 255 where the response passes its line_pct percentile, at least
 * lines.edge_min_level). */
static int edge_map(const cvb_image_t *gray, const vis_config_t *cfg, cvb_image_t *resp,
                    cvb_image_t *bh)
{
    const vis_lines_params_t *lp = &cfg->lines;
    int W = gray->w, Hh = gray->h;
    int k = cfg->blackhat_k > 0 ? cfg->blackhat_k : (cfg->work_max / 90) | 1;
    if (k < lp->blackhat_min)
        k = lp->blackhat_min;
    if (cvb_blackhat(gray, k, resp))
        return VIS_ECV;
    if (cvb_resize(resp, W, Hh, bh)) /* a copy, thresholded below */
        return VIS_ECV;
    long hist[256] = { 0 };
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++)
            hist[bh->data[(size_t)y * bh->stride + x]]++;
    long want = (long)(cfg->line_pct * W * Hh), acc = 0;
    int T = 0;
    for (T = 0; T < 255 && acc + hist[T] < want; T++)
        acc += hist[T];
    if (T < lp->edge_min_level)
        T = lp->edge_min_level;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = &bh->data[(size_t)y * bh->stride + x];
            *p = *p > T ? 255 : 0;
        }
    return VIS_OK;
}

/* 3a: the orientation of every line pixel of bh (the structure tensor of resp) splits the
 * pixels into families before the Hough transform, so that a grid's diagonals, which
 * cross many lines, collect no votes: up to NPK orientation peaks (peaks[], *npk, degrees)
 * and per peak its map of line pixels (maps[e], W x H, 255 within family_deg of it).
 * VIS_ENOBOARD when fewer than two peaks stand out. */
static int orientation_maps(const cvb_image_t *resp, const cvb_image_t *bh, const vis_config_t *cfg,
                            int peaks[NPK], int *npk, uint8_t *maps[NPK])
{
    const vis_lines_params_t *lp = &cfg->lines;
    int W = bh->w, Hh = bh->h;
    float *ori = malloc(sizeof(float) * 2 * (size_t)W * Hh);
    float *tens = malloc(sizeof(float) * 3 * (size_t)W * Hh);
    *npk = 0;
    if (!ori || !tens) {
        free(ori);
        free(tens);
        return VIS_ENOMEM;
    }
    float *jxx = tens, *jxy = tens + (size_t)W * Hh, *jyy = tens + 2 * (size_t)W * Hh;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            float gx = 0, gy = 0;
            if (x > 0 && x < W - 1)
                gx = (float)resp->data[(size_t)y * resp->stride + x + 1] -
                     resp->data[(size_t)y * resp->stride + x - 1];
            if (y > 0 && y < Hh - 1)
                gy = (float)resp->data[(size_t)(y + 1) * resp->stride + x] -
                     resp->data[(size_t)(y - 1) * resp->stride + x];
            jxx[i] = gx * gx;
            jxy[i] = gx * gy;
            jyy[i] = gy * gy;
        }
    /* 5x5 box sums, separable, in place via a row buffer */
    float *row = ori; /* scratch, W*Hh*2 floats */
    for (int c = 0; c < 3; c++) {
        float *J = tens + c * (size_t)W * Hh;
        for (int y = 0; y < Hh; y++) {
            float *r = J + (size_t)y * W;
            for (int x = 0; x < W; x++) {
                float acc = 0;
                for (int d = -2; d <= 2; d++) {
                    int xx = x + d;
                    if (xx >= 0 && xx < W)
                        acc += r[xx];
                }
                row[(size_t)y * W + x] = acc;
            }
        }
        for (int y = 0; y < Hh; y++)
            for (int x = 0; x < W; x++) {
                float acc = 0;
                for (int d = -2; d <= 2; d++) {
                    int yy = y + d;
                    if (yy >= 0 && yy < Hh)
                        acc += row[(size_t)yy * W + x];
                }
                J[(size_t)y * W + x] = acc;
            }
    }
    /* per line pixel: normal angle (degrees, 0..180) and coherence */
    float *ang = ori, *coh = ori + (size_t)W * Hh;
    double hist[180] = { 0 }, sm[180];
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            coh[i] = 0;
            if (!bh->data[(size_t)y * bh->stride + x])
                continue;
            double a = jxx[i] - jyy[i], bb = 2 * jxy[i], tr = jxx[i] + jyy[i];
            if (tr <= 0)
                continue;
            double th = 0.5 * atan2(bb, a) / DEG; /* gradient direction = normal */
            if (th < 0)
                th += 180;
            ang[i] = (float)th;
            coh[i] = (float)(sqrt(a * a + bb * bb) / tr);
            if (coh[i] > (float)lp->coh_hist)
                hist[(int)th % 180] += 1;
        }
    for (int q = 0; q < 180; q++) {
        sm[q] = 0;
        for (int d = -lp->hist_smooth; d <= lp->hist_smooth; d++)
            sm[q] += hist[(q + d + 180) % 180] * (lp->hist_smooth + 1 - abs(d));
    }
    /* up to NPK peaks, strongest first, peak_apart apart; the pair that makes the
     * best grid is chosen later (texture of a table can outvote one family) */
    double top = 0;
    for (int q = 0; q < 180; q++)
        if (sm[q] > top)
            top = sm[q];
    while (*npk < NPK) {
        int p = -1;
        for (int q = 0; q < 180; q++) {
            int far = 1;
            for (int e = 0; e < *npk; e++)
                if (circ_deg(q, peaks[e]) < lp->peak_apart)
                    far = 0;
            if (far && (p < 0 || sm[q] > sm[p]))
                p = q;
        }
        if (p < 0 || sm[p] < lp->peak_min * top || sm[p] <= 0)
            break;
        peaks[(*npk)++] = p;
    }
    if (*npk < 2) {
        free(ori);
        free(tens);
        return VIS_ENOBOARD;
    }
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            if (coh[i] < (float)lp->coh_line)
                continue;
            for (int e = 0; e < *npk; e++)
                if (circ_deg(ang[i], peaks[e]) <= cfg->family_deg)
                    maps[e][i] = 255;
        }
    free(ori);
    free(tens);
    return VIS_OK;
}

/* 3b: each peak's lines, by the Hough transform of its map: the strongest first, a line
 * as one already kept dropped (duplicates, and lines of one family crossing in the
 * picture), each with its position t along the family's transversal (fam[f], f < npk;
 * fam[f].l holds cfg->max_lines). */
static int family_lines(uint8_t *const maps[NPK], int W, int Hh, const int peaks[NPK], int npk,
                        const vis_config_t *cfg, family_t *fam)
{
    const vis_lines_params_t *lp = &cfg->lines;
    int maxraw = lp->hough_max > 0 ? lp->hough_max : 1, nraw = 0, rc = VIS_OK;
    int cap = cfg->max_lines > 0 ? cfg->max_lines : 1;
    float *rho = malloc(sizeof(float) * maxraw), *theta = malloc(sizeof(float) * maxraw);
    int *votes = malloc(sizeof(int) * maxraw);
    if (!rho || !theta || !votes) {
        rc = VIS_ENOMEM;
        goto done;
    }
    int minwh = W < Hh ? W : Hh;
    int hthr = (int)(lp->hough_votes * minwh);
    if (hthr < lp->hough_votes_min)
        hthr = lp->hough_votes_min;
    double cx0 = W / 2.0, cy0 = Hh / 2.0;
    for (int f = 0; f < npk; f++) {
        cvb_image_t mi = { W, Hh, 1, (size_t)W, maps[f] };
        if (hough_range(&mi, hthr, peaks[f] - cfg->family_deg, peaks[f] + cfg->family_deg,
                        maxraw, rho, theta, votes, &nraw)) {
            rc = VIS_ECV;
            break;
        }
        for (int i = 0; i < nraw; i += (i < 30 ? 1 : 50))
            VTRACE("fam %d raw %d rho %.1f th %.1f votes %d\n", f, i, rho[i], theta[i] / DEG,
                   votes[i]);
        int nl = 0, ref = -1;
        line_t *L = fam[f].l;
        for (int i = 0; i < nraw && nl < cap; i++) {
            if (circ_deg(theta[i] / DEG, peaks[f]) > cfg->family_deg)
                continue;
            if (ref < 0 && nl == 4)
                ref = votes[i];
            if (ref > 0 && votes[i] < lp->votes_rel * ref)
                break;
            int dup = 0;
            double di = cx0 * cos(theta[i]) + cy0 * sin(theta[i]) - rho[i];
            for (int j = 0; j < nl && !dup; j++) {
                double dth = fabs(theta[i] - L[j].theta);
                double dj = cx0 * cos(L[j].theta) + cy0 * sin(L[j].theta) - L[j].rho;
                if ((dth < lp->dup_deg * DEG && fabs(di - dj) < lp->dup_px) ||
                    (M_PI - dth < lp->dup_deg * DEG && fabs(di + dj) < lp->dup_px))
                    dup = 1;
                else if (circ_deg(theta[i] / DEG, L[j].theta / DEG) >= lp->cross_deg) {
                    /* lines of one family do not cross inside the picture (a nearly
                     * parallel pair may: a board's frame line beside its first line) */
                    line_t a = { rho[i], theta[i], 0, 0 };
                    double x, y;
                    double m = lp->cross_margin;
                    if (!intersect(&a, &L[j], &x, &y) && x > -m * W && x < (1 + m) * W &&
                        y > -m * Hh && y < (1 + m) * Hh)
                        dup = 1;
                }
            }
            if (dup)
                continue;
            line_t ln = { rho[i], theta[i], votes[i], 0 };
            double phi = peaks[f] * DEG;
            if (cos(ln.theta - phi) < 0) {
                ln.theta += ln.theta < phi ? M_PI : -M_PI;
                ln.rho = -ln.rho;
            }
            double nx = cos(phi), ny = sin(phi), mx = cos(ln.theta), my = sin(ln.theta);
            ln.t = (ln.rho - (cx0 * mx + cy0 * my)) / (nx * mx + ny * my);
            L[nl++] = ln;
        }
        fam[f].n = nl;
    }
done:
    free(rho);
    free(theta);
    free(votes);
    return rc;
}

/* 3c: the families fam[0 .. npk-1] named by their peaks, then unions of two close peaks
 * (lines.union_deg) after them; every family's lines sorted along its transversal and
 * near-identical positions merged. *nfam: how many. */
static int family_unions(family_t fam[NFAM], const int peaks[NPK], int npk, int W, int Hh,
                         const vis_lines_params_t *lp, int *nfam_out)
{
    double cx0 = W / 2.0, cy0 = Hh / 2.0;
    for (int f = 0; f < npk; f++) {
        fam[f].phi = peaks[f];
        fam[f].mask = 1 << f;
    }
    int nfam = npk;
    /* under a strong perspective one pencil fans over more than a peak's width: unions of
     * two close peaks, their lines re-measured along the mean direction */
    for (int a = 0; a < npk; a++)
        for (int b = a + 1; b < npk; b++) {
            if (circ_deg(peaks[a], peaks[b]) >= lp->union_deg || nfam >= NFAM)
                continue;
            family_t *U = &fam[nfam];
            /* with fewer than NPK peaks this slot's line buffer was allocated above */
            free(U->l);
            U->l = malloc(sizeof(line_t) * (size_t)(fam[a].n + fam[b].n + 1));
            if (!U->l)
                return VIS_ENOMEM;
            double d = peaks[b] - peaks[a];
            if (d > 90)
                d -= 180;
            if (d < -90)
                d += 180;
            double ph = fmod(peaks[a] + d / 2 + 180, 180);
            U->phi = ph;
            U->mask = (1 << a) | (1 << b);
            U->n = 0;
            double phi = ph * DEG, nx = cos(phi), ny = sin(phi);
            for (int q = 0; q < 2; q++) {
                const family_t *F = &fam[q ? b : a];
                for (int i = 0; i < F->n; i++) {
                    line_t ln = F->l[i];
                    if (cos(ln.theta - phi) < 0) {
                        ln.theta += ln.theta < phi ? M_PI : -M_PI;
                        ln.rho = -ln.rho;
                    }
                    double mx = cos(ln.theta), my = sin(ln.theta);
                    ln.t = (ln.rho - (cx0 * mx + cy0 * my)) / (nx * mx + ny * my);
                    U->l[U->n++] = ln;
                }
            }
            nfam++;
        }
    for (int f = 0; f < nfam; f++) {
        qsort(fam[f].l, (size_t)fam[f].n, sizeof(line_t), cmp_line_t);
        /* merge near-identical positions, keeping the stronger */
        int m = 0;
        for (int i = 0; i < fam[f].n; i++) {
            if (m && fabs(fam[f].l[i].t - fam[f].l[m - 1].t) < lp->merge_px) {
                if (fam[f].l[i].votes > fam[f].l[m - 1].votes)
                    fam[f].l[m - 1] = fam[f].l[i];
                continue;
            }
            fam[f].l[m++] = fam[f].l[i];
        }
        fam[f].n = m;
    }
    *nfam_out = nfam;
    return VIS_OK;
}

/* A fitted family that ran at half the spacing (a stripe of the wood between every two
 * lines: its inliers of one parity of index at most lp->halve_share of the other's): *out
 * the same lines at twice the unit, the other parity's dropped (out->k allocated, the
 * lines shared with F). 0 when so, -1 otherwise (nothing allocated). */
static int family_halved(const family_t *F, const vis_lines_params_t *lp, family_t *out)
{
    if (lp->halve_share <= 0 || !F->k)
        return -1;
    int n[2] = { 0, 0 };
    for (int i = 0; i < F->n; i++)
        if (F->k[i] != K_NONE)
            n[F->k[i] & 1]++;
    int r = n[1] > n[0]; /* the parity kept */
    if (n[r] < lp->family_min_lines || n[!r] > lp->halve_share * n[r])
        return -1;
    *out = *F;
    out->k = malloc(sizeof(int) * (size_t)F->n);
    if (!out->k)
        return -1;
    out->kmin = 1000;
    out->kmax = -1000;
    out->inliers = 0;
    for (int i = 0; i < F->n; i++) {
        int k = F->k[i];
        out->k[i] = k != K_NONE && (k & 1) == r ? (k - r) / 2 : K_NONE;
        if (out->k[i] == K_NONE)
            continue;
        out->kmin = out->k[i] < out->kmin ? out->k[i] : out->kmin;
        out->kmax = out->k[i] > out->kmax ? out->k[i] : out->kmax;
        out->inliers++;
    }
    return 0;
}

/* 4 grid: every pair of fitted families at least lines.pair_deg apart judged by pair_grid;
 * the best: *best (its score, -1e9 when none), bestH, *bestS (0 when none); the grids of
 * the halved families (family_halved) only as candidates. */
static void best_pair(family_t fam[NFAM], int nfam, const cvb_image_t *full, const cvb_image_t *col,
                      double scale, const vis_config_t *cfg, int size_hint, cand_list_t *cl,
                      double *best_out, double bestH[9], int *bestS_out)
{
    const vis_lines_params_t *lp = &cfg->lines;
    int fitted[NFAM];
    for (int f = 0; f < nfam; f++) {
        fitted[f] = fam[f].n >= lp->family_min_lines && !fit_family(&fam[f], lp);
        VTRACE("family %.0f: %d lines, fit %d, inliers %d, range %d..%d\n", fam[f].phi, fam[f].n,
               fitted[f], fam[f].inliers, fam[f].kmin, fam[f].kmax);
        for (int i = 0; fitted[f] && i < fam[f].n; i++)
            VTRACE("   t %.1f k %d votes %d\n", fam[f].l[i].t, fam[f].k[i], fam[f].l[i].votes);
    }
    /* each family at twice its unit where it ran at half the spacing (halve_share) */
    family_t half[NFAM];
    int halved[NFAM];
    for (int f = 0; f < nfam; f++)
        halved[f] = fitted[f] && !family_halved(&fam[f], lp, &half[f]);
    double best = -1e9;
    int bestS = 0;
    for (int a = 0; a < nfam; a++)
        for (int b = a + 1; b < nfam; b++) {
            if (!fitted[a] || !fitted[b] || (fam[a].mask & fam[b].mask) ||
                circ_deg(fam[a].phi, fam[b].phi) < lp->pair_deg)
                continue;
            double sc, Hp[9];
            int Sp;
            /* the halved families' grids: candidates only */
            for (int h = 1; h < 4; h++) {
                if (((h & 1) && !halved[a]) || ((h & 2) && !halved[b]))
                    continue;
                if (!pair_grid(full, col, &cfg->seg, lp, scale, (h & 1) ? &half[a] : &fam[a],
                               (h & 2) ? &half[b] : &fam[b], size_hint, cfg->window_outside,
                               cfg->window_outside_retry, &sc, Hp, &Sp, cl))
                    VTRACE("pair %.0f %.0f halved %d: size %d score %.3f\n", fam[a].phi,
                           fam[b].phi, h, Sp, sc);
            }
            if (pair_grid(full, col, &cfg->seg, lp, scale, &fam[a], &fam[b], size_hint,
                          cfg->window_outside, cfg->window_outside_retry, &sc, Hp, &Sp, cl))
                continue;
            VTRACE("pair %.0f %.0f: size %d score %.3f\n", fam[a].phi, fam[b].phi, Sp, sc);
            if (sc > best) {
                best = sc;
                bestS = Sp;
                memcpy(bestH, Hp, sizeof Hp);
            }
        }
    for (int f = 0; f < nfam; f++)
        if (halved[f])
            free(half[f].k);
    *best_out = best;
    *bestS_out = bestS;
}

static int find_grid(const cvb_image_t *gray, const cvb_image_t *small, const cvb_image_t *full,
                     const cvb_image_t *col, double scale, double *score_out, const vis_config_t *cfg,
                     int size_hint, double Hout[9], int *Sout, vis_timing_t *tm, cand_list_t *cl)
{
    int W = gray->w, Hh = gray->h, rc, peaks[NPK] = { 0, 0, 0 }, npk = 0, nfam = 0;
    double t0 = vis_now_ms(), t1, t2 = t0;
    cvb_image_t bh = { 0 }, resp = { 0 }, dbg = { 0 };
    uint8_t *maps[NPK] = { NULL, NULL, NULL };
    family_t fam[NFAM];
    memset(fam, 0, sizeof fam);
    /* 2 edges */
    rc = edge_map(gray, cfg, &resp, &bh);
    if (rc) {
        cvb_image_free(&bh);
        cvb_image_free(&resp);
        return rc;
    }
    emit(cfg, VIS_STAGE_EDGES, &bh);
    t1 = vis_now_ms();
    if (tm)
        tm->ms[VIS_STAGE_EDGES] = t1 - t0;
    /* 3 lines: the families of lines */
    int cap = cfg->max_lines > 0 ? cfg->max_lines : 1;
    for (int f = 0; f < NPK; f++) {
        maps[f] = calloc((size_t)W * Hh, 1);
        fam[f].l = malloc(sizeof(line_t) * (size_t)cap);
        if (!maps[f] || !fam[f].l)
            rc = VIS_ENOMEM;
    }
    if (!rc)
        rc = orientation_maps(&resp, &bh, cfg, peaks, &npk, maps);
    if (!rc)
        rc = family_lines(maps, W, Hh, peaks, npk, cfg, fam);
    if (!rc)
        rc = family_unions(fam, peaks, npk, W, Hh, &cfg->lines, &nfam);
    if (rc)
        goto out;
    if (cfg->debug && small->data && small->channels == 3 && !cvb_image_alloc(&dbg, W, Hh, 3)) {
        memcpy(dbg.data, small->data, (size_t)small->stride * Hh);
        for (int f = 0; f < npk; f++)
            for (int i = 0; i < fam[f].n; i++) {
                double c = cos(fam[f].l[i].theta), s = sin(fam[f].l[i].theta);
                double x0 = c * fam[f].l[i].rho, y0 = s * fam[f].l[i].rho;
                cvb_draw_line(&dbg, x0 - 2000 * s, y0 + 2000 * c, x0 + 2000 * s, y0 - 2000 * c,
                              f ? 0 : 255, f ? 255 : 0, 0, 1);
            }
        emit(cfg, VIS_STAGE_LINES, &dbg);
    }
    t2 = vis_now_ms();
    if (tm)
        tm->ms[VIS_STAGE_LINES] = t2 - t1;
    /* 4 grid */
    double best, bestH[9];
    int bestS;
    best_pair(fam, nfam, full, col, scale, cfg, size_hint, cl, &best, bestH, &bestS);
    rc = VIS_ENOBOARD;
    if (!bestS || best < cfg->lines.score_min)
        goto out;
    vis_homog_orient(bestH, bestS);
    memcpy(Hout, bestH, sizeof bestH);
    *Sout = bestS;
    *score_out = best;
    rc = VIS_OK;
    if (cfg->debug && dbg.data) {
        memcpy(dbg.data, small->data, (size_t)small->stride * Hh);
        vis_geom_t g;
        if (!vis_geom_from_h(bestH, bestS, W, Hh, &g))
            vis_draw(&dbg, &g, NULL);
        emit(cfg, VIS_STAGE_GRID, &dbg);
    }
out:
    if (tm)
        tm->ms[VIS_STAGE_GRID] = vis_now_ms() - t2;
    for (int f = 0; f < NFAM; f++) {
        free(fam[f].l);
        free(fam[f].k);
    }
    for (int f = 0; f < NPK; f++)
        free(maps[f]);
    cvb_image_free(&bh);
    cvb_image_free(&resp);
    cvb_image_free(&dbg);
    return rc;
}

/* Two grids of one size are the same when every corner is within 0.3 of a spacing. */
static int same_grid(const double A[9], const double B[9], int S)
{
    double sp = 0, d = 0;
    for (int k = 0; k < 4; k++) {
        double bx = (k == 1 || k == 2) ? S - 1 : 0, by = k >= 2 ? S - 1 : 0, ax, ay, cx, cy, nx, ny;
        if (vis_homog_apply(A, bx, by, &ax, &ay) || vis_homog_apply(B, bx, by, &cx, &cy) ||
            vis_homog_apply(A, bx + (bx ? -1 : 1), by, &nx, &ny))
            return 0;
        sp = fmax(sp, hypot(nx - ax, ny - ay));
        d = fmax(d, hypot(cx - ax, cy - ay));
    }
    return d < 0.3 * sp;
}

/* Full-size homography of a work-scale one. */
static void to_full(const double Hw[9], double scale, double Hf[9])
{
    double Sc[9] = { 1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1 };
    vis_homog_mul(Sc, Hw, Hf);
    for (int k = 0; k < 9; k++)
        Hf[k] /= Hf[8];
}

/* Stage 5 with the grid's verification: the first grid (primary, work scale; NULL when
 * the lines gave none) is refined at full size and read; when the reader's belief in it
 * is under cfg->grid_accept, the other candidates (and the lattice of stones, when not
 * yet tried) are read too, the best belief wins and is refined in turn. A winner under
 * cfg->grid_min_belief is no board. Hf, *Sout, *r (the winner's reading) and *context (its
 * belief in a wider read, vis_grid_shift; -1 when none was made) on success. */
static int grid_verify(const cvb_image_t *img, const cvb_image_t *gray,
                       const cvb_image_t *fullgray, const vis_config_t *cfg, double scale,
                       int size_hint, const double *primary, int S, int lattice_tried,
                       cand_list_t *cl, double Hf[9], int *Sout, vis_reading_t *prob,
                       double *belief, double *context)
{
    *context = -1;
    double bestH[9], best = -1;
    int bestS = 0, rc;
    vis_reading_t *p2 = malloc(sizeof *p2);
    if (!p2)
        return VIS_ENOMEM;
    if (primary) {
        to_full(primary, scale, bestH);
        if (cfg->refine)
            vis_refine_passes(fullgray, S, bestH, &cfg->refit);
        rc = vis_read_grid_belief(img, cfg, bestH, S, prob, &best);
        if (rc > 0 || rc == VIS_EMODEL || rc == VIS_ENOMEM) {
            free(p2);
            return rc;
        }
        bestS = rc ? 0 : S;
        if (rc)
            best = -1;
        VTRACE("verify: primary (S %d): belief %.3f\n", S, best);
    }
    if (best < cfg->grid_accept && cfg->grid_candidates > 0) {
        if (!lattice_tried) {
            double Hl[9];
            int Sl = 0, stones = 0;
            if (!vis_lattice_grid(gray, fullgray, img, &cfg->seg, &cfg->lattice, scale,
                                  size_hint, Hl, &Sl, &stones))
                cand_add(cl, Hl, Sl, CAND_LATTICE);
        }
        /* the candidates by their window score, best first */
        for (int i = 1; i < cl->n; i++)
            for (int j = i; j > 0 && cl->c[j].score > cl->c[j - 1].score; j--) {
                cand_t t = cl->c[j];
                cl->c[j] = cl->c[j - 1];
                cl->c[j - 1] = t;
            }
        int tried = 0;
        double seen[MAX_CANDS][9];
        int seenS[MAX_CANDS], nseen = 0;
        for (int i = 0; i < cl->n && tried < cfg->grid_candidates; i++) {
            cand_t *c = &cl->c[i];
            vis_homog_orient(c->H, c->S);
            int dup = primary && c->S == S && same_grid(c->H, primary, S);
            for (int k = 0; k < nseen && !dup; k++)
                dup = seenS[k] == c->S && same_grid(c->H, seen[k], c->S);
            if (dup)
                continue;
            memcpy(seen[nseen], c->H, sizeof seen[0]);
            seenS[nseen++] = c->S;
            tried++;
            double H[9], b = -1;
            to_full(c->H, scale, H);
            if (vis_read_grid_belief(img, cfg, H, c->S, p2, &b) || b <= best + 0.02) {
                VTRACE("verify: candidate %d (S %d, score %.3f): belief %.3f, best %.3f\n", i,
                       c->S, c->score, b, best);
                continue;
            }
            /* better: refined, read again */
            if (cfg->refine)
                vis_refine_passes(fullgray, c->S, H, &cfg->refit);
            double b2 = -1;
            if (vis_read_grid_belief(img, cfg, H, c->S, p2, &b2))
                continue;
            if (b2 < b) { /* the refinement made it worse: the unrefined one */
                to_full(c->H, scale, H);
                if (vis_read_grid_belief(img, cfg, H, c->S, p2, &b2))
                    continue;
            }
            VTRACE("verify: candidate %d (S %d, score %.3f): belief %.3f, refined %.3f\n", i,
                   c->S, c->score, b, b2);
            best = b2;
            bestS = c->S;
            memcpy(bestH, H, sizeof H);
            memcpy(prob, p2, sizeof *p2);
        }
    }
    free(p2);
    if (bestS && (rc = vis_grid_shift(img, fullgray, cfg, bestS, bestH, prob, &best, context)) != VIS_OK)
        return rc;
    /* a size the caller gives (--size) is the board's: never grown past it */
    if (bestS && !size_hint &&
        (rc = vis_grid_grow(img, fullgray, cfg, &bestS, bestH, prob, &best, context)) != VIS_OK)
        return rc;
    if (!bestS || best < cfg->grid_min_belief)
        return VIS_ENOBOARD;
    memcpy(Hf, bestH, sizeof bestH);
    *Sout = bestS;
    *belief = best;
    return VIS_OK;
}

static int detect_at(const cvb_image_t *img, const vis_config_t *cfg, int size_hint, int light,
                     vis_geom_t *geom, vis_snapshot_t *snap, vis_timing_t *tm);

/* Stage 6's debug pictures: the reading drawn on the photo, and its confidence. */
static void emit_reading(const vis_config_t *cfg, const cvb_image_t *img, const vis_geom_t *g,
                         const vis_snapshot_t *s)
{
    if (!cfg->debug)
        return;
    cvb_image_t d = { 0 }, r = { 0 };
    if (!cvb_resize(img, img->w, img->h, &d) && d.channels == 3) {
        vis_draw(&d, g, s);
        emit(cfg, VIS_STAGE_CLASSIFY, &d);
    }
    if (img->channels == 3 && !vis_draw_reading(img, g, s, &r))
        cfg->debug(cfg->debug_ctx, VIS_STAGE_CLASSIFY, "confidence", &r);
    cvb_image_free(&d);
    cvb_image_free(&r);
}

/* The look for light lines hands its debug pictures on under their stage's name with
 * "_light" after it, so that they do not take the first look's place. */
typedef struct {
    vis_debug_fn fn;
    void *ctx;
} light_debug_t;

static void light_debug(void *ctx, int stage, const char *name, const cvb_image_t *img)
{
    const light_debug_t *d = ctx;
    char n[64];
    snprintf(n, sizeof n, "%s_light", name);
    d->fn(d->ctx, stage, n, img);
}

/* A second look under another config: *tm is the timing of the look that found the
 * board (left as the first look's when this one finds none). */
static int detect_again(const cvb_image_t *img, const vis_config_t *cfg, int size_hint, int light,
                        vis_geom_t *geom, vis_snapshot_t *snap, vis_timing_t *tm)
{
    vis_timing_t t2;
    int rc = detect_at(img, cfg, size_hint, light, geom, snap, tm ? &t2 : NULL);
    if (tm && !rc)
        *tm = t2;
    return rc;
}

/* One look for the board, its lines darker than the wood (light 0) or lighter (1), with
 * the second looks cfg asks for when the first finds none. */
static int detect_look(const cvb_image_t *img, const vis_config_t *cfg, int size_hint, int light,
                       vis_geom_t *geom, vis_snapshot_t *snap, vis_timing_t *tm)
{
    int rc = detect_at(img, cfg, size_hint, light, geom, snap, tm);
    int longest = img->w > img->h ? img->w : img->h;
    if (rc == VIS_ENOBOARD && longest > cfg->work_max) {
        /* a small board far from the camera: look again at twice the resolution */
        vis_config_t c2 = *cfg;
        c2.work_max = longest < 2 * cfg->work_max ? longest : 2 * cfg->work_max;
        c2.blackhat_k = 0;
        rc = detect_again(img, &c2, size_hint, light, geom, snap, tm);
    }
    if (rc == VIS_ENOBOARD && cfg->window_outside_retry > cfg->window_outside) {
        /* a board filling the picture and cut off by it (its far lines beyond the edge):
         * windows further out of the picture, judged by the reader on the points in it */
        vis_config_t c2 = *cfg;
        c2.window_outside = cfg->window_outside_retry;
        rc = detect_again(img, &c2, size_hint, light, geom, snap, tm);
    }
    if (rc == VIS_ENOBOARD && cfg->line_pct_retry > 0 && cfg->line_pct_retry < cfg->line_pct) {
        /* one family of lines much fainter than the other (a photo blurred along one
         * axis): the top share of the black-hat response went to the strong family; take
         * more of it as line, with and without the windows further out */
        vis_config_t c2 = *cfg;
        c2.line_pct = cfg->line_pct_retry;
        rc = detect_again(img, &c2, size_hint, light, geom, snap, tm);
        if (rc == VIS_ENOBOARD && cfg->window_outside_retry > cfg->window_outside) {
            c2.window_outside = cfg->window_outside_retry;
            rc = detect_again(img, &c2, size_hint, light, geom, snap, tm);
        }
    }
    return rc;
}

int vis_detect(const cvb_image_t *img, const vis_config_t *cfg, int size_hint,
               vis_geom_t *geom, vis_snapshot_t *snap, vis_timing_t *tm)
{
    if (!img || !img->data || img->w <= 0 || img->h <= 0 || !geom || !snap ||
        (size_hint && (size_hint < 2 || size_hint > VIS_MAX_SIZE)))
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    int rc = detect_look(img, cfg, size_hint, 0, geom, snap, tm);
    if (!cfg->light_lines || (rc && rc != VIS_ENOBOARD) ||
        (!rc && snap->grid_belief >= cfg->grid_accept))
        return rc;
    /* no board, or a grid the reader doubts: lines lighter than the wood? The same search
     * on the gray picture inverted; the grid the reader believes more wins */
    struct {
        vis_geom_t g;
        vis_snapshot_t s;
    } *alt = malloc(sizeof *alt);
    if (!alt)
        return VIS_ENOMEM;
    alt->s = *snap; /* its frame and time: a look replaces the rest when it finds a board */
    vis_timing_t t2;
    vis_config_t c2 = *cfg;
    light_debug_t ld = { cfg->debug, cfg->debug_ctx };
    if (cfg->debug) {
        c2.debug = light_debug;
        c2.debug_ctx = &ld;
    }
    int rc2 = detect_look(img, &c2, size_hint, 1, &alt->g, &alt->s, tm ? &t2 : NULL);
    if (!rc2 && (rc || alt->s.grid_belief > snap->grid_belief)) {
        *geom = alt->g;
        *snap = alt->s;
        if (tm)
            *tm = t2;
        rc = VIS_OK;
        emit_reading(cfg, img, geom, snap); /* the reading that won, under its own name */
    } else if (rc2 && rc2 != VIS_ENOBOARD) {
        rc = rc2;
    }
    free(alt);
    return rc;
}

/* A grid of lines scored under LINES_WEAK (find_grid's score) asks the stones' lattice
 * too (vis_lattice_grid: a board too full to show its lines), and the lattice is taken
 * instead when it holds LATTICE_STONES stones a line or the lines score under LINES_POOR;
 * a grid of lines smaller than 19 (the empty middle of a larger board full of stones
 * round it) gives way to a larger lattice holding LATTICE_STONES a line. */
#define LINES_WEAK 0.6
#define LINES_POOR 0.4
#define LATTICE_STONES 3

/* Stage 1, prepare: the full-size gray picture (inverted when light: lines lighter than
 * the wood, so every later stage looks for dark lines) into *fullgray, and it shrunk to
 * the work size (cfg->work_max on the longest side, scale *scale) into *gray; for the
 * debug picture, img shrunk into *small. VIS_ECV, with nothing to free. */
static int prepare(const cvb_image_t *img, const vis_config_t *cfg, int light, double *scale,
                   cvb_image_t *gray, cvb_image_t *fullgray, cvb_image_t *small)
{
    int longest = img->w > img->h ? img->w : img->h;
    *scale = longest > cfg->work_max ? (double)cfg->work_max / longest : 1.0;
    int W = (int)lround(img->w * *scale), Hh = (int)lround(img->h * *scale);
    /* gray first: the full-size gray serves the window scoring and the refinement */
    if (cvb_to_gray(img, fullgray)) {
        cvb_image_free(fullgray);
        return VIS_ECV;
    }
    if (light)
        for (int y = 0; y < fullgray->h; y++)
            for (int x = 0; x < fullgray->w; x++)
                fullgray->data[(size_t)y * fullgray->stride + x] ^= 0xff;
    if (cvb_resize(fullgray, W, Hh, gray)) {
        cvb_image_free(fullgray);
        return VIS_ECV;
    }
    if (cfg->debug && !cvb_resize(img, W, Hh, small) && small->channels == 3)
        emit(cfg, VIS_STAGE_PREPARE, small);
    return VIS_OK;
}

static int detect_at(const cvb_image_t *img, const vis_config_t *cfg, int size_hint, int light,
                     vis_geom_t *geom, vis_snapshot_t *snap, vis_timing_t *tm)
{
    vis_timing_t t;
    memset(&t, 0, sizeof t);
    double t0 = vis_now_ms();
    if (img->w < 32 || img->h < 32)
        return VIS_ENOBOARD;
    /* 1 prepare */
    double scale = 1;
    cvb_image_t small = { 0 }, gray = { 0 }, fullgray = { 0 };
    int rc = prepare(img, cfg, light, &scale, &gray, &fullgray, &small);
    if (rc)
        return rc;
    double t1 = vis_now_ms();
    t.ms[VIS_STAGE_PREPARE] = t1 - t0;
    double Hw[9];
    int S = 0;
    double score = 0;
    cand_list_t *cl = calloc(1, sizeof *cl);
    if (!cl) {
        cvb_image_free(&small);
        cvb_image_free(&gray);
        cvb_image_free(&fullgray);
        return VIS_ENOMEM;
    }
    rc = find_grid(&gray, &small, &fullgray, img, scale, &score, cfg, size_hint, Hw, &S, &t, cl);
    /* a grid of lines smaller than 19 may be the empty middle of a larger board full of
     * stones round it: the stones' lattice is asked too */
    int small_grid = !rc && !size_hint && S < 19, lattice_tried = 0;
    if (rc == VIS_ENOBOARD || (!rc && score < LINES_WEAK) || small_grid) {
        /* a board too full to show its lines: find it from the stones, and prefer that to
         * a weak grid of lines when many stones agree */
        double t3 = vis_now_ms(), Hl[9];
        int Sl = 0, stones = 0;
        int rl = vis_lattice_grid(&gray, &fullgray, img, &cfg->seg, &cfg->lattice, scale,
                                  size_hint, Hl, &Sl, &stones);
        lattice_tried = 1;
        if (!rl)
            cand_add(cl, Hl, Sl, CAND_LATTICE);
        if (!rl && (small_grid ? Sl > S && stones >= LATTICE_STONES * Sl
                               : rc || stones >= LATTICE_STONES * Sl || score < LINES_POOR)) {
            memcpy(Hw, Hl, sizeof Hl);
            S = Sl;
            rc = VIS_OK;
        }
        t.ms[VIS_STAGE_GRID] += vis_now_ms() - t3;
    }
    cvb_image_free(&small);
    double t4 = vis_now_ms();
    /* 5 refine, and the learned reader's judgement of the grid (grid_verify) */
    double Hf[9], belief = 0, context = -1;
    vis_reading_t *prob = malloc(sizeof *prob);
    if (!prob)
        rc = VIS_ENOMEM;
    if (rc != VIS_ENOBOARD && rc != VIS_OK) {
        free(cl);
        free(prob);
        cvb_image_free(&gray);
        cvb_image_free(&fullgray);
        return rc;
    }
    int vr = grid_verify(img, &gray, &fullgray, cfg, scale, size_hint, rc ? NULL : Hw, S,
                         lattice_tried, cl, Hf, &S, prob, &belief, &context);
    free(cl);
    cvb_image_free(&gray);
    cvb_image_free(&fullgray);
    if (vr) {
        free(prob);
        return vr;
    }
    vis_geom_t g;
    rc = vis_geom_from_h(Hf, S, img->w, img->h, &g);
    if (rc) {
        free(prob);
        return VIS_ENOBOARD;
    }
    if (cfg->debug) {
        int cell = 32, side = (S + 1) * cell;
        /* board (x, y) -> warped pixel ((x+1) cell, (y+1) cell); warp maps dst -> src */
        double B[9] = { 1.0 / cell, 0, -1, 0, 1.0 / cell, -1, 0, 0, 1 }, M[9];
        vis_homog_mul(Hf, B, M);
        cvb_image_t warped = { 0 };
        if (!cvb_warp_perspective(img, M, 1, side, side, &warped))
            emit(cfg, VIS_STAGE_REFINE, &warped);
        cvb_image_free(&warped);
    }
    double t5 = vis_now_ms();
    t.ms[VIS_STAGE_REFINE] = t5 - t4;
    (void)belief;
    /* 6 classify: the reader's reading of the grid that won */
    vis_snapshot_t s = *snap;
    rc = vis_snapshot_from_reading(img, &g, cfg, prob, &s, 1);
    free(prob);
    if (rc)
        return rc;
    s.grid_context = context > 0 ? (float)context : 0;
    if (!vis_reading_tells(&s, cfg->told_min))
        return VIS_ENOBOARD;
    emit_reading(cfg, img, &g, &s);
    double t6 = vis_now_ms();
    t.ms[VIS_STAGE_CLASSIFY] = t6 - t5;
    t.total_ms = t6 - t0;
    *geom = g;
    *snap = s;
    if (tm)
        *tm = t;
    return VIS_OK;
}
