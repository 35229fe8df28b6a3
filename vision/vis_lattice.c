/* vis_lattice.c: board finding from the stones themselves, for boards so full that the
 * grid lines are hidden. Black stones are found as dark discs (chamfer distance inside a
 * dark mask, local maxima of about one stone radius), their neighbour vectors give the
 * two lattice directions, a breadth-first walk gives every stone integer coordinates
 * (stepping over up to two missing stones with the local lattice vectors), and a
 * homography is fitted from coordinates to centres. Plain C on the work-scale gray image.
 * Glossy stones' highlights are holes in the dark mask: the lattice is found with them as
 * they are and with them filled, and the one that fits the more stones is kept; stones
 * apart from its main block (beyond two or more empty lines) are left out of it.
 * Measured and not taken (2026-12-06): the white stones added to the lattice (the
 * inverted picture's dark discs lying on it): a66249ec's span reaches its whole board, but
 * two 13x13 photos of roboflow-stones folds 0-2 (40213424, 8f20266b) are lost.
 * vis_lattice_grid then makes a board of it: the smallest size that holds the stones, the
 * window of the lattice the lines left visible choose (vis_seg.c's window score), the
 * grid slid to those lines, and a line moved where the board's outline says the window
 * reaches beyond the board (vis_lattice_params_t).
 * Invariants: vis_lattice_find's homography maps lattice (i, j) to work-image pixels;
 * vis_lattice_grid's maps board (0..size-1)^2 there, x rightwards and y downwards.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct {
    float x, y, r;
    int i, j, set;
    float ux, uy, vx, vy; /* local lattice vectors */
    float ridge;          /* ridge_share(): near 1 on a dark band, well under on a disc */
} blob_t;

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Chamfer (3-4) distance of every nonzero cell of d (W x H) to the nearest zero cell, in
 * place; with border_light the image border counts as zero. */
static void chamfer(int *d, int W, int H, int border_light)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int *p = &d[y * W + x];
            if (!*p)
                continue;
            if (x > 0 && d[y * W + x - 1] + 3 < *p)
                *p = d[y * W + x - 1] + 3;
            if (y > 0) {
                if (d[(y - 1) * W + x] + 3 < *p)
                    *p = d[(y - 1) * W + x] + 3;
                if (x > 0 && d[(y - 1) * W + x - 1] + 4 < *p)
                    *p = d[(y - 1) * W + x - 1] + 4;
                if (x < W - 1 && d[(y - 1) * W + x + 1] + 4 < *p)
                    *p = d[(y - 1) * W + x + 1] + 4;
            }
            if (border_light && (x == 0 || y == 0 || x == W - 1 || y == H - 1))
                *p = 3;
        }
    for (int y = H - 1; y >= 0; y--)
        for (int x = W - 1; x >= 0; x--) {
            int *p = &d[y * W + x];
            if (!*p)
                continue;
            if (x < W - 1 && d[y * W + x + 1] + 3 < *p)
                *p = d[y * W + x + 1] + 3;
            if (y < H - 1) {
                if (d[(y + 1) * W + x] + 3 < *p)
                    *p = d[(y + 1) * W + x] + 3;
                if (x < W - 1 && d[(y + 1) * W + x + 1] + 4 < *p)
                    *p = d[(y + 1) * W + x + 1] + 4;
                if (x > 0 && d[(y + 1) * W + x - 1] + 4 < *p)
                    *p = d[(y + 1) * W + x - 1] + 4;
            }
        }
}

#ifndef VIS_RIDGE_MAX /* ridge_share above this: a band, no stone (measured: stones under
                       * 0.4, the front face of a board seen from the side 0.7..0.9) */
#define VIS_RIDGE_MAX 0.6
#endif

/* How far the dark region at (x, y) (distance map d, value v there) runs on at its full
 * width: over 8 directions, the least distance value met along both ways out to 3 radii,
 * the largest such share of v. A disc (or a row of touching discs, pinched where they
 * touch) falls well short of 1; a dark band (the shadowed front face of a board seen from
 * the side, a crack) keeps its width along its length and comes near 1. */
static float ridge_share(const int *d, int W, int H, int x, int y, int v)
{
    double r = v / 3.0, best = 0;
    for (int a = 0; a < 8; a++) {
        double ux = cos(a * M_PI / 8), uy = sin(a * M_PI / 8);
        int lo = v;
        for (int s = 1; s <= 6 && lo > 0; s++)
            for (int sg = -1; sg <= 1; sg += 2) {
                int px = (int)lround(x + sg * s * 0.5 * r * ux);
                int py = (int)lround(y + sg * s * 0.5 * r * uy);
                int w = px < 0 || py < 0 || px >= W || py >= H ? 0 : d[py * W + px];
                if (w < lo)
                    lo = w;
            }
        if (lo > best)
            best = lo;
    }
    return (float)(best / v);
}

/* The lattice's values (lengths in the work image's pixels or the spacing sp's shares),
 * the ones it was developed with, named here without change: */
#define MIN_STONES 12     /* discs, labels and fitted stones a lattice needs at least */
#define DISC_LO 0.65      /* a stone's disc within DISC_LO..DISC_HI of the common radius */
#define DISC_HI 1.5
#define PLANE_MIN_DISCS 24 /* discs to fit the common radius's plane */
#define NB_LO 0.8f        /* a neighbour at NB_LO..NB_HI of the spacing ... */
#define NB_HI 1.6f
#define DIR_APART 60      /* degrees: the lattice's two directions at least this apart */
#define VEC_LO 0.6f       /* a lattice vector's length VEC_LO..VEC_HI of the spacing ... */
#define VEC_HI 1.7f
#define ALONG_SIN 0.2     /* ... within this sine of its direction (a direction's spacing) */
#define SEED_SIN 0.3      /* ... or of this (a seed's neighbours and vectors) */
#define SEED_MIN_NB 2     /* a seed has at least this many neighbours along the directions */
#define DARK_BH_MIN 20    /* levels: a pixel of the dark mask has a black-hat response over this */
#define DARK_SHARE 0.55   /* ... and is darker than this share of its closing (the local
                           * background with the stones removed) */
#define CLOSE_R 2         /* px: the dark mask closed by this (a black stone's band of
                           * highlight seen from the side would split it in two) */
#define DISC_MIN_R 3      /* px: a disc's least radius (chamfer units are a third of a px) */
#define WALK_TOL 0.28f    /* of the shorter local vector: a walk's step lands this near a
                           * disc, ... */
#define WALK_FAR 0.8f     /* ... times this for a step of more than two vectors */
#define FIT_TOL 0.3       /* of the spacing: a fitted disc this far from its lattice point
                           * is dropped (fit_labels, grow_fit) */
#define PATCH_MIN 6       /* discs a patch of grow_fit needs to be fitted */

/* The stones' common radius at (x, y): rmed scaled by the plane pl (r ~ pl0 + pl1 x +
 * pl2 y) relative to its value r0 at the discs' centroid, within 0.5..1.6. */
static double local_r(const double pl[3], double r0, double rmed, double x, double y)
{
    double f = (pl[0] + pl[1] * x + pl[2] * y) / r0;
    return rmed * (f < 0.5 ? 0.5 : f > 1.6 ? 1.6 : f);
}

/* Fill the holes of the dark mask d (0 dark, else light; W x H) of at most max_area
 * pixels that fill at least HOLE_FILL of their bounding box: light regions that do not
 * reach the picture's border. A glossy black stone's highlight is such a hole, round, and
 * leaves a ring whose distance map peaks on the ring, not at the stone's centre; the
 * board seen between four black stones is a hole too, but a four-pointed star that fills
 * about a fifth of its box, and an empty point ringed by black stones is larger: both stay.
 * 0, or -1 out of memory. */
#define HOLE_FILL 0.5
static int fill_holes(int *d, int W, int H, int max_area)
{
    int *q = malloc(sizeof(int) * (size_t)W * H);
    uint8_t *seen = calloc((size_t)W * H, 1);
    if (!q || !seen) {
        free(q);
        free(seen);
        return -1;
    }
    for (int s = 0; s < W * H; s++) {
        if (d[s] == 0 || seen[s])
            continue;
        /* the light region of s, breadth first (4-connected) */
        int head = 0, tail = 0, border = 0, x0 = W, x1 = -1, y0 = H, y1 = -1;
        q[tail++] = s;
        seen[s] = 1;
        while (head < tail) {
            int p = q[head++], x = p % W, y = p / W;
            border |= x == 0 || y == 0 || x == W - 1 || y == H - 1;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
            const int nb[4] = { x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1,
                                y > 0 ? p - W : -1, y < H - 1 ? p + W : -1 };
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && d[nb[k]] != 0 && !seen[nb[k]]) {
                    seen[nb[k]] = 1;
                    q[tail++] = nb[k];
                }
        }
        if (!border && tail <= max_area && tail >= HOLE_FILL * (x1 - x0 + 1) * (y1 - y0 + 1))
            for (int k = 0; k < tail; k++)
                d[q[k]] = 0;
    }
    free(q);
    free(seen);
    return 0;
}

/* Dark-disc centres: chamfer (3-4) distance to the nearest light pixel inside the mask of
 * pixels darker than thr (its small holes filled: fill_holes, up to max_hole pixels), local
 * maxima. Returns the count (at most max), -1 out of memory. */
static int find_blobs(const cvb_image_t *g, const cvb_image_t *bh, blob_t *b, int max,
                      int max_hole)
{
    int W = g->w, H = g->h, n = 0;
    /* every cell is set by the first pass below; calloc so that the static analyser,
     * which follows only a few loop iterations, does not take later reads as undefined */
    int *d = calloc((size_t)W * H, sizeof(int));
    if (!d)
        return -1;
    const int INF = 1 << 20;
    /* the dark mask, closed by CLOSE_R px: the band of specular highlight across a black
     * stone (broad seen from the side) would split it into two discs */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
        {
            /* dark against its surroundings: the closing (gray + black-hat) is the local
             * background with the stones removed */
            int v = g->data[(size_t)y * g->stride + x], h = bh->data[(size_t)y * bh->stride + x];
            d[y * W + x] = (h > DARK_BH_MIN && v < DARK_SHARE * (v + h)) ? 0 : INF;
        }
    if (max_hole > 0 && fill_holes(d, W, H, max_hole)) {
        free(d);
        return -1;
    }
    chamfer(d, W, H, 0); /* distance to the dark mask */
    for (int k = 0; k < W * H; k++)
        d[k] = d[k] <= 3 * CLOSE_R ? INF : 0; /* dilated mask */
    chamfer(d, W, H, 0); /* distance to outside the dilated mask */
    for (int k = 0; k < W * H; k++)
        d[k] = d[k] > 3 * CLOSE_R ? INF : 0; /* closed mask */
    chamfer(d, W, H, 1);
    for (int y = 2; y < H - 2 && n < max; y++)
        for (int x = 2; x < W - 2 && n < max; x++) {
            int v = d[y * W + x];
            if (v < 3 * DISC_MIN_R) /* chamfer 3 a pixel */
                continue;
            int top = 1;
            for (int dy = -2; dy <= 2 && top; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    int w = d[(y + dy) * W + x + dx];
                    /* strict maximum, ties broken towards the top-left */
                    if (w > v || (w == v && (dy < 0 || (dy == 0 && dx < 0)))) {
                        top = 0;
                        break;
                    }
                }
            if (!top)
                continue;
            b[n].x = (float)x;
            b[n].y = (float)y;
            b[n].r = v / 3.0f;
            b[n].ridge = ridge_share(d, W, H, x, y, v);
            b[n].set = 0;
            n++;
        }
    free(d);
    /* one centre per disc: touching stones merge into one dark region whose distance map
     * has ridges with maxima between the stones; keep the strongest maximum within 1.5
     * radii (stones touch at 2 radii, also foreshortened under a side view) */
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            if (c == a || b[c].r < b[a].r || (c > a && b[c].r == b[a].r) ||
                b[c].ridge > VIS_RIDGE_MAX)
                continue;
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, rr = 1.5f * b[c].r;
            if (dx * dx + dy * dy < rr * rr) {
                b[a].set = -1; /* dropped */
                break;
            }
        }
    int m = 0;
    for (int a = 0; a < n; a++)
        if (b[a].set == 0 && b[a].ridge <= VIS_RIDGE_MAX)
            b[m++] = b[a];
    return m;
}

/* The lattice vectors of b[seed]: towards its nearest neighbour along each of the
 * directions a1, a2 (radians), else the spacings sp1, sp2 along them. */
static void seed_vectors(blob_t *b, int n, int seed, double a1, double a2, float sp1,
                         float sp2, float sp)
{
    blob_t *sd = &b[seed];
    float bu = 1e9f, bv = 1e9f;
    sd->ux = (float)(sp1 * cos(a1));
    sd->uy = (float)(sp1 * sin(a1));
    sd->vx = (float)(sp2 * cos(a2));
    sd->vy = (float)(sp2 * sin(a2));
    for (int c = 0; c < n; c++) {
        float dx = b[c].x - sd->x, dy = b[c].y - sd->y, dd = hypotf(dx, dy);
        if (dd < VEC_LO * sp || dd > VEC_HI * sp)
            continue;
        double an = atan2(dy, dx);
        float s1 = dx * cos(a1) + dy * sin(a1) < 0 ? -1.0f : 1.0f;
        float s2 = dx * cos(a2) + dy * sin(a2) < 0 ? -1.0f : 1.0f;
        if (fabs(sin(an - a1)) < SEED_SIN && dd < bu) {
            bu = dd;
            sd->ux = s1 * dx;
            sd->uy = s1 * dy;
        } else if (fabs(sin(an - a2)) < SEED_SIN && dd < bv) {
            bv = dd;
            sd->vx = s2 * dx;
            sd->vy = s2 * dy;
        }
    }
}

/* Breadth-first walk from b[seed] (its ux..vy set): every disc found where a step of up
 * to two lattice vectors predicts gets (i, j) and local vectors. Returns the count set. */
static int walk_lattice(blob_t *b, int n, int seed, int *queue)
{
    for (int k = 0; k < n; k++)
        b[k].set = 0;
    int qh = 0, qt = 0;
    b[seed].set = 1;
    b[seed].i = 0;
    b[seed].j = 0;
    queue[qt++] = seed;
    while (qh < qt) {
        blob_t *s = &b[queue[qh++]];
        for (int di = -2; di <= 2; di++)
            for (int dj = -2; dj <= 2; dj++) {
                if (!di && !dj)
                    continue;
                float px = s->x + di * s->ux + dj * s->vx, py = s->y + di * s->uy + dj * s->vy;
                float lu = hypotf(s->ux, s->uy), lv = hypotf(s->vx, s->vy);
                float tol = WALK_TOL * (lu < lv ? lu : lv) * (abs(di) + abs(dj) > 2 ? WALK_FAR : 1);
                int best = -1;
                float bd = tol;
                for (int c = 0; c < n; c++) {
                    float dd = hypotf(b[c].x - px, b[c].y - py);
                    if (dd < bd) {
                        bd = dd;
                        best = c;
                    }
                }
                if (best < 0 || b[best].set)
                    continue;
                blob_t *t = &b[best];
                t->set = 1;
                t->i = s->i + di;
                t->j = s->j + dj;
                /* local vectors: the parent's, corrected by what this step measured */
                float ex = (t->x - s->x) - (di * s->ux + dj * s->vx);
                float ey = (t->y - s->y) - (di * s->uy + dj * s->vy);
                int steps = abs(di) + abs(dj);
                t->ux = s->ux + (di ? ex / steps / di : 0);
                t->uy = s->uy + (di ? ey / steps / di : 0);
                t->vx = s->vx + (dj ? ex / steps / dj : 0);
                t->vy = s->vy + (dj ? ey / steps / dj : 0);
                if (qt < n)
                    queue[qt++] = best;
            }
    }
    return qt;
}

/* Fit H (labels -> centres) three times, dropping discs more than FIT_TOL sp off. 0 and
 * *used on success, -1 when fewer than MIN_STONES stay. */
static int fit_labels(blob_t *b, int n, float sp, double *src, double *dst, double Hc[9],
                      int *used)
{
    int ok = 0;
    for (int it = 0; it < 3; it++) {
        int q = 0;
        for (int k = 0; k < n; k++) {
            if (!b[k].set)
                continue;
            if (ok) {
                double x, y;
                if (vis_homog_apply(Hc, b[k].i, b[k].j, &x, &y) ||
                    hypot(x - b[k].x, y - b[k].y) > FIT_TOL * sp) {
                    b[k].set = 0;
                    continue;
                }
            }
            src[2 * q] = b[k].i;
            src[2 * q + 1] = b[k].j;
            dst[2 * q] = b[k].x;
            dst[2 * q + 1] = b[k].y;
            q++;
        }
        if (q < MIN_STONES || vis_homog_fit(q, src, dst, Hc))
            return -1;
        ok = 1;
        *used = q;
    }
    return 0;
}

/* Least-squares affine map src -> dst (n pairs) as a homography. -1 when degenerate. */
static int affine_fit(int n, const double *src, const double *dst, double Hc[9])
{
    double A[9] = { 0 }, bx[3] = { 0 }, by[3] = { 0 };
    for (int k = 0; k < n; k++) {
        double v[3] = { src[2 * k], src[2 * k + 1], 1 };
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                A[3 * r + c] += v[r] * v[c];
            bx[r] += v[r] * dst[2 * k];
            by[r] += v[r] * dst[2 * k + 1];
        }
    }
    double A2[9];
    memcpy(A2, A, sizeof A);
    if (vis_solve(3, A, bx) || vis_solve(3, A2, by))
        return -1;
    double H[9] = { bx[0], bx[1], bx[2], by[0], by[1], by[2], 0, 0, 1 };
    memcpy(Hc, H, sizeof H);
    return 0;
}

/* Grow the fit from the walk's labels near b[seed] outwards: fit H on the discs labelled
 * within R of the seed, then label every disc by H itself (the nearest lattice point,
 * within FIT_TOL of the local spacing, |i|, |j| <= R), refit, and widen R. The walk's
 * labels far from the seed can be wrong (a step of two foreshortened spacings taken for a
 * diagonal) and a fit over all of them is spoilt; near the seed they hold. Leaves the
 * labels set; returns the count used, or -1. */
static int grow_fit(blob_t *b, int n, int seed, double *src, double *dst, double Hc[9])
{
    static const int radii[] = { 2, 3, 4, 5, 6, 8, 10, 12, 15, 19 };
    int used = -1, si = b[seed].i, sj = b[seed].j, r0 = 0;
    /* the first patch: the walk's labels within 2 of the seed, or 3, or 4 where the black
     * stones are sparse (at least PATCH_MIN to fit) */
    for (; r0 < 2; r0++) {
        int q = 0;
        for (int k = 0; k < n; k++)
            q += b[k].set && abs(b[k].i - si) <= radii[r0] && abs(b[k].j - sj) <= radii[r0];
        if (q >= PATCH_MIN)
            break;
    }
    for (int k = 0; k < n; k++)
        if (b[k].set && (abs(b[k].i - si) > radii[r0] || abs(b[k].j - sj) > radii[r0]))
            b[k].set = 0;
    for (int r = r0; r < (int)(sizeof radii / sizeof radii[0]); r++) {
        for (int rep = 0; rep < 2; rep++) {
            int q = 0;
            for (int k = 0; k < n; k++)
                if (b[k].set) {
                    src[2 * q] = b[k].i;
                    src[2 * q + 1] = b[k].j;
                    dst[2 * q] = b[k].x;
                    dst[2 * q + 1] = b[k].y;
                    q++;
                }
            /* affine while the patch is small: a homography over a few rows is unsteady */
            if (q < PATCH_MIN || (radii[r] <= 5 ? affine_fit(q, src, dst, Hc)
                                                : vis_homog_fit(q, src, dst, Hc)))
                return used >= MIN_STONES ? used : -1;
            used = q;
            double Hi[9];
            if (vis_homog_invert(Hc, Hi))
                return -1;
            int R = radii[r];
            for (int k = 0; k < n; k++) {
                double u, v, px, py, ax, ay, cx, cy;
                b[k].set = 0;
                if (vis_homog_apply(Hi, b[k].x, b[k].y, &u, &v))
                    continue;
                double i = floor(u + 0.5), j = floor(v + 0.5);
                if (fabs(i - si) > R || fabs(j - sj) > R ||
                    vis_homog_apply(Hc, i, j, &px, &py) ||
                    vis_homog_apply(Hc, i + 1, j, &ax, &ay) ||
                    vis_homog_apply(Hc, i, j + 1, &cx, &cy))
                    continue;
                double l1 = hypot(ax - px, ay - py), l2 = hypot(cx - px, cy - py);
                if (hypot(px - b[k].x, py - b[k].y) > FIT_TOL * (l1 < l2 ? l1 : l2))
                    continue;
                b[k].set = 1;
                b[k].i = (int)i;
                b[k].j = (int)j;
            }
        }
    }
    int q = 0;
    for (int k = 0; k < n; k++)
        q += b[k].set;
    return q >= MIN_STONES ? q : -1;
}

/* The discs of the stones' common size, b[0..n) kept in place: the larger blobs are the
 * stones (specks are smaller), rmed the upper quarter's radius; under perspective the far
 * stones are smaller than the near ones (a side view: 0.6 of them), so the common size is
 * a plane over the image, r ~ a + bx + cy fitted to the discs kept, relative to its value
 * at their centroid; refitted twice on the discs the plane keeps (the first fit, on discs
 * near rmed alone, is flattened). Returns how many are kept (*rmed set); -1 out of memory. */
static int common_discs(blob_t *b, int n, float *rmed_out)
{
    float *rs = malloc(sizeof(float) * (size_t)n);
    if (!rs)
        return -1;
    for (int k = 0; k < n; k++)
        rs[k] = b[k].r;
    qsort(rs, (size_t)n, sizeof *rs, cmp_f);
    float rmed = rs[n * 3 / 4];
    free(rs);
    double pl[3] = { 0, 0, 0 }, r0 = 0;
    int plane = 0;
    for (int it = 0; it < 3; it++) {
        double P[9] = { 0 }, pr[3] = { 0 }, cxm = 0, cym = 0;
        int np = 0;
        for (int k = 0; k < n; k++) {
            double rl = plane ? local_r(pl, r0, rmed, b[k].x, b[k].y) : rmed;
            if (b[k].r <= DISC_LO * rl || b[k].r >= DISC_HI * rl)
                continue;
            double row[3] = { 1, b[k].x, b[k].y };
            for (int p = 0; p < 3; p++) {
                for (int q = 0; q < 3; q++)
                    P[3 * p + q] += row[p] * row[q];
                pr[p] += row[p] * b[k].r;
            }
            cxm += b[k].x;
            cym += b[k].y;
            np++;
        }
        if (np < PLANE_MIN_DISCS || vis_solve(3, P, pr))
            break;
        double c0 = pr[0] + pr[1] * cxm / np + pr[2] * cym / np;
        if (c0 <= 0)
            break;
        memcpy(pl, pr, sizeof pl);
        r0 = c0;
        plane = 1;
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        double rl = plane ? local_r(pl, r0, rmed, b[k].x, b[k].y) : rmed;
        if (b[k].r > DISC_LO * rl && b[k].r < DISC_HI * rl)
            b[m++] = b[k];
    }
    VTRACE("lattice: size plane %d: %.3f %.4f %.4f / %.2f\n", plane, pl[0], pl[1], pl[2], r0);
    *rmed_out = rmed;
    return m;
}

/* The spacing: the usual distance to the nearest disc (in a full board most black stones
 * touch another; highlights make the discs' radii unreliable), the lower third of the
 * discs' nearest distances beyond 1.2 radii: adjacent stones, not diagonal or farther
 * ones. -1 out of memory. */
static float lattice_spacing(const blob_t *b, int n, float rmed)
{
    float *nd = malloc(sizeof(float) * (size_t)n);
    if (!nd)
        return -1;
    for (int a = 0; a < n; a++) {
        float bd = 1e9f;
        for (int c = 0; c < n; c++) {
            float dd = hypotf(b[c].x - b[a].x, b[c].y - b[a].y);
            if (c != a && dd > 1.2f * rmed && dd < bd)
                bd = dd;
        }
        nd[a] = bd;
    }
    qsort(nd, (size_t)n, sizeof *nd, cmp_f);
    float sp = nd[n / 3];
    free(nd);
    return sp;
}

/* The lattice's two directions (degrees, 0..179, *p2 -1 when none): the angles of the
 * neighbour vectors of about one spacing (NB_LO..NB_HI of it: under a side view one
 * direction is foreshortened, so shorter vectors count too), rows and columns weighed
 * over diagonals, smoothed; the second at least DIR_APART from the first. */
static void lattice_directions(const blob_t *b, int n, float sp, int *p1_out, int *p2_out)
{
    double hist2[180] = { 0 };
    float lo = NB_LO * sp, hi = NB_HI * sp;
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            if (a == c)
                continue;
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, dd = hypotf(dx, dy);
            if (dd < lo || dd > hi)
                continue;
            int ang = (int)(atan2f(dy, dx) * 180 / (float)M_PI + 360) % 180;
            hist2[ang] += (sp * sp) / (dd * dd); /* rows and columns over diagonals */
        }
    double sm[180];
    for (int q = 0; q < 180; q++) {
        sm[q] = 0;
        for (int dq = -4; dq <= 4; dq++)
            sm[q] += hist2[(q + dq + 180) % 180] * (5 - abs(dq));
    }
    int p1 = 0, p2 = -1;
    for (int q = 1; q < 180; q++)
        if (sm[q] > sm[p1])
            p1 = q;
    for (int q = 0; q < 180; q++) {
        int dq = abs(q - p1) % 180;
        if (dq > 90)
            dq = 180 - dq;
        if (dq >= DIR_APART && (p2 < 0 || sm[q] > sm[p2]))
            p2 = q;
    }
    VTRACE("lattice: directions %d %d\n", p1, p2);
    *p1_out = p1;
    *p2_out = p2 >= 0 && sm[p2] > 0 ? p2 : -1;
}

/* Each direction's own spacing (a1, a2 radians): the lower third of the neighbour
 * vectors' lengths along it (VEC_LO..VEC_HI of sp, within ALONG_SIN of its angle); sp
 * where fewer than three. -1 out of memory. */
static int direction_spacings(const blob_t *b, int n, float sp, double a1, double a2,
                              float *sp1, float *sp2)
{
    *sp1 = *sp2 = sp;
    float *l1 = malloc(sizeof(float) * (size_t)n * 4), *l2;
    if (!l1)
        return -1;
    l2 = l1 + 2 * n;
    int n1 = 0, n2 = 0;
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, dd = hypotf(dx, dy);
            if (c == a || dd < VEC_LO * sp || dd > VEC_HI * sp)
                continue;
            double an = atan2(dy, dx);
            if (fabs(sin(an - a1)) < ALONG_SIN && n1 < 2 * n)
                l1[n1++] = dd;
            else if (fabs(sin(an - a2)) < ALONG_SIN && n2 < 2 * n)
                l2[n2++] = dd;
        }
    if (n1 >= 3) {
        qsort(l1, (size_t)n1, sizeof *l1, cmp_f);
        *sp1 = l1[n1 / 3];
    }
    if (n2 >= 3) {
        qsort(l2, (size_t)n2, sizeof *l2, cmp_f);
        *sp2 = l2[n2 / 3];
    }
    free(l1);
    return 0;
}

/* The walks' seeds, best first into seeds (up to NSEED; *seedc their neighbour counts):
 * the stones with the most neighbours along the two directions (at least SEED_MIN_NB
 * within NB_LO..NB_HI of sp and SEED_SIN of a direction), the more central first among
 * equals (their walks reach the whole board; which of many ties came first in the scan
 * must not decide). Returns how many. */
#define NSEED 8
static int pick_seeds(const blob_t *b, int n, float sp, double a1, double a2, int *seeds,
                      int *seedc)
{
    int ns = 0;
    double seedk[NSEED], gx = 0, gy = 0;
    float lo = NB_LO * sp, hi = NB_HI * sp;
    for (int a = 0; a < n; a++) {
        gx += b[a].x / n;
        gy += b[a].y / n;
    }
    for (int a = 0; a < n; a++) {
        int cnt = 0;
        for (int c = 0; c < n; c++) {
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, dd = hypotf(dx, dy);
            if (dd < lo || dd > hi)
                continue;
            double an = atan2(dy, dx);
            if (fabs(sin(an - a1)) < SEED_SIN || fabs(sin(an - a2)) < SEED_SIN)
                cnt++;
        }
        if (cnt < SEED_MIN_NB)
            continue;
        double key = cnt * 1e7 - ((b[a].x - gx) * (b[a].x - gx) + (b[a].y - gy) * (b[a].y - gy));
        if (ns == NSEED && seedk[NSEED - 1] >= key)
            continue;
        int q = ns < NSEED ? ns++ : NSEED - 1;
        seeds[q] = a;
        seedc[q] = cnt;
        seedk[q] = key;
        for (; q > 0 && seedk[q] > seedk[q - 1]; q--) {
            int t = seeds[q];
            seeds[q] = seeds[q - 1];
            seeds[q - 1] = t;
            t = seedc[q];
            seedc[q] = seedc[q - 1];
            seedc[q - 1] = t;
            double k = seedk[q];
            seedk[q] = seedk[q - 1];
            seedk[q - 1] = k;
        }
    }
    return ns;
}

/* vis_lattice_find on gray and its black-hat bh, with the dark mask's holes of up to
 * max_hole pixels filled (0: none): the discs (find_blobs) of the common size
 * (common_discs), the spacing and the two directions, each direction's own spacing, then
 * from each seed a walk that labels the discs with lattice coordinates, its fit grown
 * outwards: the seed whose fit holds the most stones wins, its homography fitted again
 * dropping the poor fits. */
static int lattice_at(const cvb_image_t *gray, const cvb_image_t *bh, int max_hole,
                      double Hout[9], int *imin, int *imax, int *jmin, int *jmax, int *count,
                      int *ij, int maxij)
{
    int maxb = 4000;
    blob_t *b = malloc(sizeof(blob_t) * (size_t)maxb);
    if (!b)
        return -1;
    int n = find_blobs(gray, bh, b, maxb, max_hole), rc = -1;
    VTRACE("lattice: %d dark maxima\n", n);
    if (n < MIN_STONES)
        goto done;
    float rmed = 0;
    n = common_discs(b, n, &rmed);
    VTRACE("lattice: %d discs of radius ~%.1f\n", n, rmed);
    if (n < MIN_STONES)
        goto done;
    float sp = lattice_spacing(b, n, rmed);
    if (sp < 0)
        goto done;
    VTRACE("lattice: spacing %.1f\n", sp);
    int p1, p2;
    lattice_directions(b, n, sp, &p1, &p2);
    if (p2 < 0)
        goto done;
    double a1 = p1 * M_PI / 180, a2 = p2 * M_PI / 180;
    float sp1, sp2;
    if (direction_spacings(b, n, sp, a1, a2, &sp1, &sp2))
        goto done;
    VTRACE("lattice: spacings %.1f %.1f\n", sp1, sp2);
    float sp_near = sp; /* the seeds' neighbours are counted at the nearest-disc spacing */
    if (sp1 > sp2)
        sp = sp1;
    /* each seed with its own lattice vectors (the nearest neighbour along each direction:
     * under a side view the columns fan out and the spacing shrinks with distance); the
     * walk that labels the most stones wins */
    int seeds[NSEED], seedc[NSEED];
    int ns = pick_seeds(b, n, sp_near, a1, a2, seeds, seedc);
    if (!ns)
        goto done;
    int *queue = malloc(sizeof(int) * (size_t)n), best = 0;
    if (!queue)
        goto done;
    int bestcnt = 0;
    double *src = malloc(sizeof(double) * 4 * (size_t)n);
    if (!src) {
        free(queue);
        goto done;
    }
    double Hc[9];
    /* each seed's walk, its fit grown from the seed outwards: the most stones fitted win */
    for (int q = 0; q < ns; q++) {
        seed_vectors(b, n, seeds[q], a1, a2, sp1, sp2, sp);
        int got = walk_lattice(b, n, seeds[q], queue);
        (void)got; /* read by VTRACE only */
        int fitted = grow_fit(b, n, seeds[q], src, src + 2 * n, Hc);
        VTRACE("lattice: seed %d (%.0f,%.0f) %d neighbours: %d stones, %d fitted\n", q,
               b[seeds[q]].x, b[seeds[q]].y, seedc[q], got, fitted);
        if (fitted > bestcnt) {
            bestcnt = fitted;
            best = q;
        }
    }
    /* redo the best (the labels are per seed) */
    seed_vectors(b, n, seeds[best], a1, a2, sp1, sp2, sp);
    walk_lattice(b, n, seeds[best], queue);
    free(queue);
    int ok = bestcnt > 0 && grow_fit(b, n, seeds[best], src, src + 2 * n, Hc) > 0;
    /* homography from coordinates to centres, three times, dropping poor fits */
    int used = 0;
    ok = ok && !fit_labels(b, n, sp, src, src + 2 * n, Hc, &used);
    free(src);
    VTRACE("lattice: fit %d, %d stones\n", ok, used);
#ifdef VIS_TRACE
    for (int k = 0; k < n; k++)
        if (b[k].set)
            VTRACE("  blob %d,%d at %.0f,%.0f r %.1f ridge %.2f\n", b[k].i, b[k].j, b[k].x,
                   b[k].y, b[k].r, b[k].ridge);
#endif
    if (!ok)
        goto done;
    int i0 = 1000, i1 = -1000, j0 = 1000, j1 = -1000;
    for (int k = 0; k < n; k++)
        if (b[k].set) {
            if (b[k].i < i0)
                i0 = b[k].i;
            if (b[k].i > i1)
                i1 = b[k].i;
            if (b[k].j < j0)
                j0 = b[k].j;
            if (b[k].j > j1)
                j1 = b[k].j;
        }
    if (ij) {
        int q = 0;
        for (int k = 0; k < n && q < maxij; k++)
            if (b[k].set) {
                ij[2 * q] = b[k].i;
                ij[2 * q + 1] = b[k].j;
                q++;
            }
    }
    memcpy(Hout, Hc, sizeof Hc);
    *imin = i0;
    *imax = i1;
    *jmin = j0;
    *jmax = j1;
    *count = used;
    rc = 0;
done:
    free(b);
    return rc;
}

/* The stones apart from the lattice's main block: a black bowl, a stone on the table or a
 * dark speck the walk reached over missing stones lies beyond a run of at least
 * TRIM_GAP lines that hold no stone, and would widen the span the board's size is chosen
 * from (a 9x9 read as 13x13). Along each axis the stones are cut into blocks at such runs;
 * when the blocks beside the one of most stones hold at most TRIM_SHARE of the stones (and
 * at least 2 may always go), they are dropped from ij and the span. A crowded board's black
 * stones leave no such run inside it; a board whose black stones were found in one part
 * only keeps its span along the other axis, which the size is chosen from too. */
#define TRIM_GAP 2
#define TRIM_SHARE 0.1
static void trim_outliers(int *ij, int *count, int *imin, int *imax, int *jmin, int *jmax)
{
    int *lo[2] = { imin, jmin }, *hi[2] = { imax, jmax };
    for (int pass = 0; pass < 2; pass++) /* dropping along one axis narrows the other's */
        for (int ax = 0; ax < 2; ax++) {
            int n = *hi[ax] - *lo[ax] + 1, cnt = *count;
            if (n <= 0 || n > 256 || cnt <= 0)
                continue;
            int h[256] = { 0 };
            for (int k = 0; k < cnt; k++)
                h[ij[2 * k + ax] - *lo[ax]]++;
            /* blocks: maximal runs of lines split by TRIM_GAP or more empty lines */
            int best_lo = 0, best_hi = -1, best_c = -1;
            for (int a = 0; a < n;) {
                if (!h[a]) {
                    a++;
                    continue;
                }
                int b = a, c = 0, last = a;
                while (b < n && b - last <= TRIM_GAP) {
                    if (h[b]) {
                        last = b;
                        c += h[b];
                    }
                    b++;
                }
                if (c > best_c) {
                    best_c = c;
                    best_lo = a;
                    best_hi = last;
                }
                a = last + 1;
            }
            int drop = cnt - best_c, may = (int)(TRIM_SHARE * cnt);
            if (drop <= 0 || drop > (may > 2 ? may : 2))
                continue;
            int m = 0;
            for (int k = 0; k < cnt; k++) {
                int o = ij[2 * k + ax] - *lo[ax];
                if (o >= best_lo && o <= best_hi) {
                    ij[2 * m] = ij[2 * k];
                    ij[2 * m + 1] = ij[2 * k + 1];
                    m++;
                }
            }
            *count = m;
            *hi[ax] = *lo[ax] + best_hi;
            *lo[ax] += best_lo;
            int olo = ax ? *imin : *jmin, ohi = ax ? *imax : *jmax; /* the other axis anew */
            int nlo = ohi, nhi = olo;
            for (int k = 0; k < m; k++) {
                int v = ij[2 * k + !ax];
                nlo = v < nlo ? v : nlo;
                nhi = v > nhi ? v : nhi;
            }
            *lo[!ax] = nlo;
            *hi[!ax] = nhi;
            VTRACE("lattice: %d stones apart along %s dropped\n", drop, ax ? "j" : "i");
        }
}

int vis_lattice_find(const cvb_image_t *gray, double Hout[9], int *imin, int *imax,
                     int *jmin, int *jmax, int *count, int *ij, int maxij)
{
    if (!gray || !gray->data || gray->channels != 1 || maxij < 0)
        return -1;
    /* the dark mask as it is, and with its highlights filled (holes up to a quarter of the
     * black-hat kernel's square: a stone of a 19x19 board that fills the picture is about
     * the kernel wide): glossy stones seen from above leave a round highlight, which makes
     * a ring of the stone; seen from the side a band across it, which filling can join to
     * its neighbours' (a full board from the side then fits fewer stones). The lattice
     * that fits the more stones is kept. */
    int side = gray->w > gray->h ? gray->w : gray->h, k = side / 18 | 1, best = -1;
    cvb_image_t bh = { 0 }; /* the same for both: made once */
    if (cvb_blackhat(gray, k, &bh))
        return -1;
    int *tij = maxij ? malloc(sizeof(int) * 2 * (size_t)maxij) : NULL;
    if (maxij && !tij) {
        cvb_image_free(&bh);
        return -1;
    }
    for (int q = 0; q < 2; q++) {
        double H[9];
        int i0, i1, j0, j1, cnt = 0;
        if (lattice_at(gray, &bh, q ? k * k / 4 : 0, H, &i0, &i1, &j0, &j1, &cnt, tij, maxij))
            continue;
        VTRACE("lattice: %s highlights: %d stones fitted\n", q ? "with" : "without", cnt);
        if (cnt <= best)
            continue;
        best = cnt;
        memcpy(Hout, H, sizeof H);
        *imin = i0;
        *imax = i1;
        *jmin = j0;
        *jmax = j1;
        *count = cnt;
        if (ij && tij)
            memcpy(ij, tij, sizeof(int) * 2 * (size_t)(cnt < maxij ? cnt : maxij));
    }
    free(tij);
    cvb_image_free(&bh);
    if (best >= 0 && ij && *count <= maxij)
        trim_outliers(ij, count, imin, imax, jmin, jmax);
    return best < 0 ? -1 : 0;
}

void vis_lattice_defaults(vis_lattice_params_t *p)
{
    p->stones_per_line = 2;
    p->beyond_keep = 2;
    p->slide = 0.3;
    p->centre_tie = 0.001;
    p->shift_coarse = 0.2;
    p->shift_mid = 0.1;
    p->shift_fine = 0.05;
    p->scale_step = 0.004;
    p->scale_steps = 4;
    p->outline_rel = 0.85;
    p->outline_min = 30;
    p->outline_persp = 1.1;
    p->outline_in_lo = 0.2;
    p->outline_in_hi = 0.8;
    p->bare_inner = 1.0 / 3;
    p->bare_ratio = 0.25;
    p->bare_seen = 0.5;
}

/* Segments of the grid's lines seen as dark lines between board (full-size gray; Hw at
 * work scale); vis_seg_support's test, so that board finding does not move with the
 * tracker's own line test (vis_line_support). */
static int good_count(const cvb_image_t *full, const vis_seg_params_t *sp, const double Hw[9],
                      int S, double scale)
{
    double H[9];
    vis_homog_unscale(Hw, scale, H);
    int g = 0;
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < S; i++) {
            int a, b, c;
            vis_seg_support(full, full, H, sp, dir, i, 0, S - 1, NULL, NULL, &a, &b, &c);
            g += a;
        }
    return g;
}

/* The board's outline beyond side `side` of the grid (0: y = 0, 1: y = S-1, 2: x = 0,
 * 3: x = S-1; H and gray full size): the median brightness along lines
 * parallel to that side at offsets u (grid units, outward positive) from -1 to +1.8, and
 * where it steps most sharply (*u_at, the step's size in gray levels *step). */
static void outline_step(const cvb_image_t *full, const double H[9], int S, int side,
                         double *u_at, double *step)
{
    enum { NU = 57 };
    float med[NU], v[4 * VIS_MAX_SIZE];
    for (int q = 0; q < NU; q++) {
        double u = -1.0 + 0.05 * q;
        int n = 0;
        for (int h = 1; h <= 2 * S - 3; h++) {
            double t = 0.5 * h, bx, by, x, y;
            double c = side == 0 || side == 2 ? -u : S - 1 + u;
            bx = side < 2 ? t : c;
            by = side < 2 ? c : t;
            if (vis_homog_apply(H, bx, by, &x, &y))
                continue;
            int g = vis_gray1(full, x, y);
            if (g >= 0)
                v[n++] = (float)g;
        }
        med[q] = n >= S ? median_f(v, n) : -1;
    }
    double best = 0, bu = 0;
    for (int q = 2; q < NU - 2; q++) {
        if (med[q - 2] < 0 || med[q + 2] < 0)
            continue;
        double d = fabs(med[q - 2] - med[q + 2]);
        if (d > best) {
            best = d;
            bu = -1.0 + 0.05 * q;
        }
    }
    *u_at = bu;
    *step = best;
}

/* 1 when an outline step at u (units, outward positive) lies inside the window's side
 * by outline_in_lo..outline_in_hi (the side's line beyond the board) ... */
static int step_inside(const vis_lattice_params_t *lp, double u)
{
    return u >= -lp->outline_in_hi && u <= -lp->outline_in_lo;
}

/* ... and 1 when it lies a unit further out than that beyond the side (the board's edge
 * a line beyond the window's last line). */
static int step_outside(const vis_lattice_params_t *lp, double u)
{
    return u >= 1 + lp->outline_in_lo && u <= 1 + lp->outline_in_hi;
}

/* The window a line too far towards the camera, told by the board's outline: a board's
 * edge runs half a spacing or more beyond its last line (the margin), so a clear edge
 * 0.2..0.8 units inside the window's near side says the window reaches a line beyond the
 * board there. Seen from the side of the table the near edge (top face against the front
 * face or the table) is the board's clearest and never hidden by stones (their bodies
 * lean away from the camera), while a full board's stone centres (and the dark front face
 * beside the last row) can put the lattice a row off towards the camera. Only the near
 * side of an axis under a clear perspective speaks (far sides: the stones' bodies over
 * the far margin make steps of their own; beyond the near edge, the front face's foot).
 * The same when the window's near line shows no printed line on the empty stretches
 * where the line inside it does (its last line on the board's edge itself: a narrow
 * margin). Hw (work scale) is moved by a whole unit away from the camera. Along an axis
 * without perspective both its edges must speak, clear and agreeing (one 0.2..0.8 inside
 * the window, the other 1.2..1.8 outside: a column off). */
static void outline_shift(const cvb_image_t *full, const vis_seg_params_t *sp,
                          const vis_lattice_params_t *lp, double Hw[9], int S, double scale)
{
    double u[4], st[4], len[4], smax = 0, Hf[9];
    vis_homog_unscale(Hw, scale, Hf);
    for (int side = 0; side < 4; side++) {
        double x0, y0, x1, y1, c = side == 0 || side == 2 ? 0 : S - 1;
        len[side] = 0;
        if (!vis_homog_apply(Hw, side < 2 ? 0 : c, side < 2 ? c : 0, &x0, &y0) &&
            !vis_homog_apply(Hw, side < 2 ? S - 1 : c, side < 2 ? c : S - 1, &x1, &y1))
            len[side] = hypot(x1 - x0, y1 - y0);
        outline_step(full, Hf, S, side, &u[side], &st[side]);
        VTRACE("outline side %d: length %.0f step %.1f at %.2f\n", side, len[side], st[side],
               u[side]);
        smax = st[side] > smax ? st[side] : smax;
    }
    for (int ax = 0; ax < 2; ax++) {
        int lo = 2 * ax, hi = lo + 1;
        int near = len[hi] > len[lo] ? hi : lo, far = near == hi ? lo : hi;
        if (len[near] < lp->outline_persp * len[far]) {
            /* no near side: both edges, clear, must agree on the same whole unit */
            int clear = st[lo] >= lp->outline_min && st[hi] >= lp->outline_min &&
                        st[lo] >= lp->outline_rel * smax && st[hi] >= lp->outline_rel * smax;
            int d = 0;
            if (clear && step_inside(lp, u[lo]) && step_outside(lp, u[hi]))
                d = 1;
            else if (clear && step_inside(lp, u[hi]) && step_outside(lp, u[lo]))
                d = -1;
            if (d) {
                double T[9] = { 1, 0, ax ? d : 0, 0, 1, ax ? 0 : d, 0, 0, 1 }, Hn[9];
                vis_homog_mul(Hw, T, Hn);
                memcpy(Hw, Hn, sizeof Hn);
                VTRACE("outline: window moved %d along %s (both edges)\n", d, ax ? "x" : "y");
            }
            continue;
        }
        int edge = st[near] >= lp->outline_min && st[near] >= lp->outline_rel * smax &&
                   step_inside(lp, u[near]);
        int g0, g1, v, t0, t1, nl = near == hi ? S - 1 : 0, in = near == hi ? S - 2 : 1;
        vis_seg_support(full, full, Hf, sp, ax ? 1 : 0, nl, 0, S - 1, NULL, NULL, &g0, &v, &t0);
        vis_seg_support(full, full, Hf, sp, ax ? 1 : 0, in, 0, S - 1, NULL, NULL, &g1, &v, &t1);
        VTRACE("outline: near side %d, its line %d good of %d in the picture, the next %d of "
               "%d\n", near, g0, t0, g1, t1);
        /* bare only where the picture shows it: a near line beyond the picture's edge (a
         * board the picture cuts off) shows nothing, which says nothing */
        int bare = g1 >= lp->bare_inner * S && g0 < lp->bare_ratio * g1 &&
                   t0 >= lp->bare_seen * t1;
        if (!edge && !bare)
            continue;
        int d = near == hi ? -1 : 1;
        /* board (x, y) -> H(x + dx, y + dy) */
        double T[9] = { 1, 0, ax ? d : 0, 0, 1, ax ? 0 : d, 0, 0, 1 }, Hn[9];
        vis_homog_mul(Hw, T, Hn);
        memcpy(Hw, Hn, sizeof Hn);
        VTRACE("outline: window moved %d along %s\n", d, ax ? "x" : "y");
    }
}

/* The board size the lattice's stones (ij, cnt of them, lines i0..i1 and j0..j1) lie on
 * (size_hint, or the smallest of 9, 13, 19 that spans them; none: the largest, or the
 * hint) into *S, and the windows of S lines tried along each axis, olo[ax]..ohi[ax]:
 * every one that holds all the stones, or, when they span more than a board (a bowl, a
 * dark speck on the table or the board's side), those that hold all but beyond_keep of
 * the stones the best one holds. */
static void lattice_windows(const int *ij, int cnt, int i0, int i1, int j0, int j1,
                            const vis_lattice_params_t *lp, int size_hint, int *Sout,
                            int olo[2], int ohi[2])
{
    int span = (i1 - i0 > j1 - j0 ? i1 - i0 : j1 - j0) + 1, S = 0;
    static const int sizes[3] = { 9, 13, 19 };
    for (int k = 0; k < 3 && !S; k++)
        if (sizes[k] >= span && (!size_hint || sizes[k] == size_hint))
            S = sizes[k];
    if (!S) {
        S = size_hint ? size_hint : 19;
        for (int ax = 0; ax < 2; ax++) {
            int lo = ax ? j0 : i0, hi = ax ? j1 : i1, bestc = -1, cs[64];
            olo[ax] = hi - S + 1;
            ohi[ax] = lo;
            if (hi - lo + 1 <= S || hi - lo + 1 - S >= 64)
                continue;
            for (int o = lo; o + S - 1 <= hi; o++) {
                int c = 0;
                for (int k = 0; k < cnt; k++)
                    c += ij[2 * k + ax] >= o && ij[2 * k + ax] < o + S;
                cs[o - lo] = c;
                if (c > bestc)
                    bestc = c;
            }
            olo[ax] = hi;
            ohi[ax] = lo;
            for (int o = lo; o + S - 1 <= hi; o++)
                if (cs[o - lo] >= bestc - lp->beyond_keep) {
                    olo[ax] = o < olo[ax] ? o : olo[ax];
                    ohi[ax] = o > ohi[ax] ? o : ohi[ax];
                }
        }
    } else {
        olo[0] = i1 - S + 1;
        ohi[0] = i0;
        olo[1] = j1 - S + 1;
        ohi[1] = j0;
    }
    *Sout = S;
}

/* The window of S lines of the lattice Hc (windows olo..ohi along each axis) the lines
 * left visible choose (vis_window_score at its best of 9 slides lp->slide apart: the
 * stones' centres stand above their points; too few lines to judge: 0 inside the
 * picture, -2 beyond it; ties to the window centred on the stones, i0..i1, j0..j1) into
 * Hout; returns its score (-1e9: none tried). */
static double best_window(const cvb_image_t *gray, const cvb_image_t *full, const cvb_image_t *col,
                          const vis_seg_params_t *sp, const vis_lattice_params_t *lp,
                          double scale, const double Hc[9], int S, const int olo[2],
                          const int ohi[2], int i0, int i1, int j0, int j1, double Hout[9])
{
    double best = -1e9;
    for (int oa = olo[0]; oa <= ohi[0]; oa++)
        for (int ob = olo[1]; ob <= ohi[1]; ob++) {
            double T[9] = { 1, 0, oa, 0, 1, ob, 0, 0, 1 }, Hw[9];
            vis_homog_mul(Hc, T, Hw);
            double sc = -1e9;
            for (int q = 0; q < 9; q++) {
                int qx = q % 3 - 1, qy = q / 3 - 1;
                double Ts[9] = { 1, 0, lp->slide * qx, 0, 1, lp->slide * qy, 0, 0, 1 }, Hs[9];
                vis_homog_mul(Hw, Ts, Hs);
                double v = vis_window_score(full, col, sp, Hs, S, scale);
                if (v > sc)
                    sc = v;
            }
            if (sc <= -1) { /* too few lines visible to judge: inside the picture? */
                int inside = 1;
                for (int k = 0; k < 4 && inside; k++) {
                    double x, y;
                    if (vis_homog_apply(Hw, (k == 1 || k == 2) ? S - 1 : 0, k >= 2 ? S - 1 : 0,
                                        &x, &y) ||
                        x < 0 || y < 0 || x >= gray->w || y >= gray->h)
                        inside = 0;
                }
                sc = inside ? 0 : -2;
            }
            double ci = (i0 + i1) / 2.0 - (oa + (S - 1) / 2.0);
            double cj = (j0 + j1) / 2.0 - (ob + (S - 1) / 2.0);
            sc -= lp->centre_tie * (ci * ci + cj * cj); /* ties: the centred window */
            VTRACE("lattice window %d %d: %.3f\n", oa, ob, sc);
            if (sc > best) {
                best = sc;
                memcpy(Hout, Hw, sizeof Hw);
            }
        }
    return best;
}

/* The stones' centres lie on a plane above the board (half a stone's height): grid H (S
 * lines) slid and scaled in board space to where the lines left visible between the
 * stones are darkest (good_count). Coarse to fine (the defaults): shifts of 0.2 units
 * over +-0.2, then 0.1 and 0.05 around the best (at most 0.35 in all), then a scale about
 * the centre (0.4% a step, 4 each way). A stone's centre stands off its point by less
 * than that even from the side; further out, on a full board, the dark gaps between
 * touching stones, half a unit from their centres, pass for lines (before, +-0.4 and 0.55
 * in all: crowded renders found half a unit off and refused by the reader, 12 of 60 with
 * no board, now 6). */
static void settle_on_lines(const cvb_image_t *full, const vis_seg_params_t *sp,
                            const vis_lattice_params_t *lp, double scale, int S, double H[9])
{
    double Hb[9];
    memcpy(Hb, H, sizeof Hb);
    int bestg = good_count(full, sp, Hb, S, scale);
    double bu = 0, bv = 0, bs = 1;
    for (int pass = 0; pass < 4; pass++) {
        double cu = bu, cv = bv;
        int na = pass == 3 ? lp->scale_steps : 1, nc = pass == 3 ? 0 : na;
        for (int a = -na; a <= na; a++)
            for (int c = -nc; c <= nc; c++) {
                double u = cu, v = cv, sc = bs;
                if (pass == 0) {
                    u = a * lp->shift_coarse;
                    v = c * lp->shift_coarse;
                } else if (pass < 3) {
                    if (!a && !c)
                        continue; /* measured in the pass before */
                    u = cu + a * (pass == 1 ? lp->shift_mid : lp->shift_fine);
                    v = cv + c * (pass == 1 ? lp->shift_mid : lp->shift_fine);
                } else {
                    if (!a)
                        continue;
                    sc = 1 + a * lp->scale_step;
                }
                double m = (S - 1) / 2.0 * (1 - sc);
                double T[9] = { sc, 0, m + u, 0, sc, m + v, 0, 0, 1 }, Hn[9];
                vis_homog_mul(H, T, Hn);
                int g = good_count(full, sp, Hn, S, scale);
                if (g > bestg) {
                    bestg = g;
                    bu = u;
                    bv = v;
                    bs = sc;
                    memcpy(Hb, Hn, sizeof Hb);
                }
            }
    }
    memcpy(H, Hb, sizeof Hb);
}

/* The grid from the lattice of black stones (vis_lattice_find): the smallest size that
 * holds every stone, the window chosen by the grid lines that remain visible. */
int vis_lattice_grid(const cvb_image_t *gray, const cvb_image_t *full, const cvb_image_t *col,
                     const vis_seg_params_t *sp, const vis_lattice_params_t *lp, double scale,
                     int size_hint, double Hout[9], int *Sout, int *stones)
{
    double Hc[9];
    int i0, i1, j0, j1, cnt, ij[2 * 400];
    if (vis_lattice_find(gray, Hc, &i0, &i1, &j0, &j1, &cnt, ij, 400))
        return VIS_ENOBOARD;
    VTRACE("lattice: i %d..%d j %d..%d, %d stones\n", i0, i1, j0, j1, cnt);
    if (cnt > 400)
        cnt = 400;
#ifdef VIS_TRACE
    for (int ax = 0; ax < 2; ax++) {
        VTRACE("lattice: per %s:", ax ? "j" : "i");
        for (int o = ax ? j0 : i0; o <= (ax ? j1 : i1); o++) {
            int c = 0;
            for (int k = 0; k < cnt; k++)
                c += ij[2 * k + ax] == o;
            VTRACE(" %d", c);
        }
        VTRACE("\n");
    }
#endif
    int S, olo[2], ohi[2];
    lattice_windows(ij, cnt, i0, i1, j0, j1, lp, size_hint, &S, olo, ohi);
    if (cnt < lp->stones_per_line * S)
        return VIS_ENOBOARD;
    if (best_window(gray, full, col, sp, lp, scale, Hc, S, olo, ohi, i0, i1, j0, j1, Hout) <= -1)
        return VIS_ENOBOARD;
    settle_on_lines(full, sp, lp, scale, S, Hout);
    outline_shift(full, sp, lp, Hout, S, scale);
    vis_homog_orient(Hout, S);
#ifdef VIS_TRACE
    for (int k = 0; k < 4; k++) {
        double x, y;
        if (!vis_homog_apply(Hout, (k == 1 || k == 2) ? S - 1 : 0, k >= 2 ? S - 1 : 0, &x, &y))
            VTRACE("lattice grid: S %d corner %d at %.1f %.1f (work pixels)\n", S, k, x, y);
    }
#endif
    *Sout = S;
    *stones = cnt;
    return VIS_OK;
}
