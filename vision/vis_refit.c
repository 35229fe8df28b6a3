/* vis_refit.c: a grid found refined against the picture's own lines (board finding's
 * stage 5, vis.h vis_refit_params_t): every grid line re-fitted from the darkest
 * sub-pixel position across it near each segment's midpoint, then the homography
 * re-fitted from the lines' intersections; a pass at a time (vis_refine_passes), or a
 * whole refinement of a geometry given (vis_refine).
 * Invariants: plain C on the full-size gray picture; a grid is changed only by a pass that
 * succeeded (enough lines re-fitted, a homography from their intersections), never
 * partly.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_refit_defaults(vis_refit_params_t *p)
{
    p->passes = 2;
    p->reach = 0.3;
    p->reach_min = 3;
    p->step = 0.5;
    p->width = 2;
    p->ends_rel = 0.2;
    p->ends_abs = 4;
    p->dip_rel = 0.08;
    p->dip_abs = 4;
    p->min_points = 4;
    p->inlier = 1.5;
}

/* The darkest sub-pixel position across grid line (dir, i) of H near each quarter of each
 * of its segments (a profile p->step px apart, box-averaged p->width px along the line,
 * reaching p->reach of a cell each way), where the profile's ends agree and it dips
 * enough: into pts (x, y pairs, room for 4 S). Returns how many. */
static int line_points(const cvb_image_t *gray, int S, const double H[9], int dir, int i,
                       const vis_refit_params_t *p, double *pts)
{
    int m = 0;
    for (int j = 0; j + 1 < S; j++)
        for (int q = 1; q <= 3; q += 2) {
            double bx = dir ? i : j + q * 0.25, by = dir ? j + q * 0.25 : i;
            double cx, cy, ax, ay;
            if (vis_homog_apply(H, bx, by, &cx, &cy) ||
                vis_homog_apply(H, bx + (dir ? p->reach : 0), by + (dir ? 0 : p->reach), &ax,
                                &ay))
                continue;
            double ux = ax - cx, uy = ay - cy, reach = hypot(ux, uy);
            if (reach < p->reach_min)
                continue;
            ux /= reach;
            uy /= reach;
            /* profile across the line, step px apart, box-averaged along it */
            double vx = -uy, vy = ux;
            int ns = (int)(reach / p->step) | 1;
            if (ns > 161)
                ns = 161;
            if (ns < 3) /* no sample inside the profile */
                continue;
            int half = ns / 2; /* ns is odd: sample half is at the centre */
            double prof[161];
            int bad = 0;
            for (int s = 0; s < ns; s++) {
                double o = (s - half) * p->step;
                double acc = 0;
                for (int w = -p->width; w <= p->width; w++) {
                    int x = (int)lround(cx + o * ux + w * vx);
                    int y = (int)lround(cy + o * uy + w * vy);
                    if (x < 0 || y < 0 || x >= gray->w || y >= gray->h) {
                        bad = 1;
                        break;
                    }
                    acc += gray->data[(size_t)y * gray->stride + x];
                }
                prof[s] = acc / (2 * p->width + 1);
                if (bad)
                    break;
            }
            if (bad)
                continue;
            int smin = 1;
            for (int s = 1; s < ns - 1; s++)
                if (prof[s] < prof[smin])
                    smin = s;
            if (smin <= 0 || smin >= ns - 1)
                continue;
            double edge = 0.5 * (prof[0] + prof[ns - 1]);
            if (fabs(prof[0] - prof[ns - 1]) > p->ends_rel * edge + p->ends_abs ||
                prof[smin] > edge - (p->dip_rel * edge + p->dip_abs))
                continue;
            double d = prof[smin - 1] - 2 * prof[smin] + prof[smin + 1];
            double sub = d > 1e-9 ? 0.5 * (prof[smin - 1] - prof[smin + 1]) / d : 0;
            double o = (smin - half + sub) * p->step;
            pts[2 * m] = cx + o * ux;
            pts[2 * m + 1] = cy + o * uy;
            m++;
        }
    return m;
}

/* The total least squares line a x + b y = c (|(a, b)| = 1) through the m points pts, then
 * once more through those within p->inlier px of it: 1 with it in ln, 0 when under
 * p->min_points took part in the first. */
static int fit_line(const double *pts, int m, const vis_refit_params_t *p, double ln[3])
{
    int use[4 * VIS_MAX_SIZE], ok = 0;
    for (int k = 0; k < m; k++)
        use[k] = 1;
    double a = 0, b = 0, c = 0;
    for (int it = 0; it < 2; it++) {
        double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
        int cnt = 0;
        for (int k = 0; k < m; k++)
            if (use[k]) {
                mx += pts[2 * k];
                my += pts[2 * k + 1];
                cnt++;
            }
        if (cnt < p->min_points)
            break;
        mx /= cnt;
        my /= cnt;
        for (int k = 0; k < m; k++)
            if (use[k]) {
                double dx = pts[2 * k] - mx, dy = pts[2 * k + 1] - my;
                sxx += dx * dx;
                sxy += dx * dy;
                syy += dy * dy;
            }
        double th = 0.5 * atan2(2 * sxy, sxx - syy); /* direction of the line */
        a = -sin(th);
        b = cos(th);
        c = a * mx + b * my;
        ok = 1;
        /* drop points farther than inlier */
        for (int k = 0; k < m; k++)
            use[k] = fabs(a * pts[2 * k] + b * pts[2 * k + 1] - c) < p->inlier;
    }
    ln[0] = a;
    ln[1] = b;
    ln[2] = c;
    return ok;
}

/* The homography Hn from the intersections of the lines fitted (okl[l] for line l of ln:
 * dir 0 line i is board y = i, dir 1 line i is x = i): 0, or -1 with under 2 S of them
 * or no fit. */
static int grid_from_lines(int S, double (*ln)[3], const int *okl, double Hn[9])
{
    int np = 0, rc = -1;
    double *src = malloc(sizeof(double) * 2 * (size_t)S * S);
    double *dst = malloc(sizeof(double) * 2 * (size_t)S * S);
    if (src && dst) {
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) {
                if (!okl[y] || !okl[S + x])
                    continue;
                double *p = ln[y], *q = ln[S + x];
                double det = p[0] * q[1] - q[0] * p[1];
                if (fabs(det) < 1e-6)
                    continue;
                src[2 * np] = x;
                src[2 * np + 1] = y;
                dst[2 * np] = (p[2] * q[1] - q[2] * p[1]) / det;
                dst[2 * np + 1] = (p[0] * q[2] - q[0] * p[2]) / det;
                np++;
            }
        rc = np >= S * 2 && !vis_homog_fit(np, src, dst, Hn) ? 0 : -1;
    }
    free(src);
    free(dst);
    return rc;
}

/* 1 when Hn moves no corner of the board from where H has it by half a spacing (H's
 * first cell's width) or more: a small correction. */
static int small_correction(int S, const double H[9], const double Hn[9])
{
    double c0x, c0y, c1x, c1y, maxd = 0, sx0, sy0, sx1, sy1;
    vis_homog_apply(H, 0, 0, &sx0, &sy0);
    vis_homog_apply(H, 1, 0, &sx1, &sy1);
    double sp = hypot(sx1 - sx0, sy1 - sy0);
    for (int k = 0; k < 4; k++) {
        double bx = (k == 1 || k == 2) ? S - 1 : 0, by = k >= 2 ? S - 1 : 0;
        if (vis_homog_apply(H, bx, by, &c0x, &c0y) || vis_homog_apply(Hn, bx, by, &c1x, &c1y)) {
            maxd = 1e9;
            break;
        }
        double d = hypot(c1x - c0x, c1y - c0y);
        if (d > maxd)
            maxd = d;
    }
    return maxd < 0.5 * sp;
}

/* Re-fit every grid line from the darkest sub-pixel position across it near each segment
 * midpoint (line_points, fit_line), then re-fit H from the lines' intersections
 * (grid_from_lines), taken when it is a small correction (vis_refit_params_t, one pass):
 * 0, or -1 with H unchanged. Gray full-size image. */
static int refine(const cvb_image_t *gray, int S, double H[9], const vis_refit_params_t *p)
{
    int L = 2 * S;
    double (*ln)[3] = calloc((size_t)L, sizeof *ln); /* a x + b y = c, |(a,b)| = 1 */
    int *okl = calloc((size_t)L, sizeof(int));
    double *pts = malloc(sizeof(double) * 2 * 4 * (size_t)S);
    int rc = -1;
    if (ln && okl && pts) {
        for (int dir = 0; dir < 2; dir++)
            for (int i = 0; i < S; i++) {
                int m = line_points(gray, S, H, dir, i, p, pts);
                if (m >= p->min_points)
                    okl[dir * S + i] = fit_line(pts, m, p, ln[dir * S + i]);
            }
        double Hn[9];
        if (!grid_from_lines(S, ln, okl, Hn) && small_correction(S, H, Hn)) {
            memcpy(H, Hn, sizeof Hn);
            rc = 0;
        }
    }
    free(ln);
    free(okl);
    free(pts);
    return rc;
}

/* refine's passes (p->passes; a pass that fails ends them): how many succeeded. */
int vis_refine_passes(const cvb_image_t *gray, int S, double H[9], const vis_refit_params_t *p)
{
    int ok = 0;
    while (ok < p->passes && !refine(gray, S, H, p))
        ok++;
    return ok;
}

int vis_refine(const cvb_image_t *img, vis_geom_t *geom)
{
    if (!img || !img->data || !geom || geom->size < 2 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    cvb_image_t gray = { 0 };
    if (cvb_to_gray(img, &gray))
        return VIS_ECV;
    double H[9];
    memcpy(H, geom->H, sizeof H);
    vis_refit_params_t p;
    vis_refit_defaults(&p);
    int ok = vis_refine_passes(&gray, geom->size, H, &p) > 0;
    cvb_image_free(&gray);
    if (!ok)
        return VIS_ENOBOARD;
    vis_geom_t g;
    if (vis_geom_from_h(H, geom->size, img->w, img->h, &g))
        return VIS_ENOBOARD;
    *geom = g;
    return VIS_OK;
}
