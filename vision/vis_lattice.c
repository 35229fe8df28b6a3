/* vis_lattice.c: board finding from the stones themselves, for boards so full that the
 * grid lines are hidden. Black stones are found as dark discs (chamfer distance inside a
 * dark mask, local maxima of about one stone radius), their neighbour vectors give the
 * two lattice directions, a breadth-first walk gives every stone integer coordinates
 * (stepping over up to two missing stones with the local lattice vectors), and a
 * homography is fitted from coordinates to centres. Plain C on the work-scale gray image.
 * Invariant: the returned homography maps lattice (i, j) to work-image pixels; the caller
 * chooses the size and the window.
 */
#include <math.h>
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
} blob_t;

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Dark-disc centres: chamfer (3-4) distance to the nearest light pixel inside the mask of
 * pixels darker than thr, local maxima. Returns the count (at most max). */
static int find_blobs(const cvb_image_t *g, int thr, blob_t *b, int max)
{
    int W = g->w, H = g->h, n = 0;
    int *d = malloc(sizeof(int) * (size_t)W * H);
    if (!d)
        return -1;
    const int INF = 1 << 20;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            d[y * W + x] = g->data[(size_t)y * g->stride + x] < thr ? INF : 0;
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
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                *p = 3; /* the border counts as light */
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
    for (int y = 2; y < H - 2 && n < max; y++)
        for (int x = 2; x < W - 2 && n < max; x++) {
            int v = d[y * W + x];
            if (v < 9) /* radius under 3 px */
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
            b[n].set = 0;
            n++;
        }
    free(d);
    return n;
}

int vis_lattice_find(const cvb_image_t *gray, double Hout[9], int *imin, int *imax,
                     int *jmin, int *jmax, int *count)
{
    if (!gray || !gray->data || gray->channels != 1)
        return -1;
    /* dark threshold: well under the typical (board or table) brightness */
    long hist[256] = { 0 };
    int W = gray->w, Hh = gray->h;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++)
            hist[gray->data[(size_t)y * gray->stride + x]]++;
    long acc = 0, half = (long)W * Hh * 3 / 4;
    int p75 = 0;
    for (p75 = 0; p75 < 255 && acc + hist[p75] < half; p75++)
        acc += hist[p75];
    int thr = (int)(0.45 * p75);
    int maxb = 4000;
    blob_t *b = malloc(sizeof(blob_t) * (size_t)maxb);
    if (!b)
        return -1;
    int n = find_blobs(gray, thr, b, maxb), rc = -1;
    if (n < 12)
        goto done;
    /* keep the discs of the common size */
    float *rs = malloc(sizeof(float) * (size_t)n);
    if (!rs)
        goto done;
    for (int k = 0; k < n; k++)
        rs[k] = b[k].r;
    qsort(rs, (size_t)n, sizeof *rs, cmp_f);
    float rmed = rs[n * 3 / 4]; /* the larger blobs are the stones; specks are smaller */
    free(rs);
    int m = 0;
    for (int k = 0; k < n; k++)
        if (b[k].r > 0.65f * rmed && b[k].r < 1.5f * rmed)
            b[m++] = b[k];
    n = m;
    if (n < 12)
        goto done;
    /* lattice directions: angles of neighbour vectors at about one stone spacing */
    double hist2[180] = { 0 };
    float lo = 1.5f * rmed, hi = 2.8f * rmed;
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            if (a == c)
                continue;
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, dd = hypotf(dx, dy);
            if (dd < lo || dd > hi)
                continue;
            int ang = (int)(atan2f(dy, dx) * 180 / (float)M_PI + 360) % 180;
            hist2[ang] += 1;
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
        if (dq >= 50 && (p2 < 0 || sm[q] > sm[p2]))
            p2 = q;
    }
    if (p2 < 0 || sm[p2] <= 0)
        goto done;
    /* seed: the stone with the most neighbours along the two directions */
    double a1 = p1 * M_PI / 180, a2 = p2 * M_PI / 180;
    int seed = -1, seedn = 0;
    for (int a = 0; a < n; a++) {
        int cnt = 0;
        for (int c = 0; c < n; c++) {
            float dx = b[c].x - b[a].x, dy = b[c].y - b[a].y, dd = hypotf(dx, dy);
            if (dd < lo || dd > hi)
                continue;
            double an = atan2(dy, dx);
            if (fabs(sin(an - a1)) < 0.3 || fabs(sin(an - a2)) < 0.3)
                cnt++;
        }
        if (cnt > seedn) {
            seedn = cnt;
            seed = a;
        }
    }
    if (seed < 0 || seedn < 2)
        goto done;
    float sp = 2.08f * rmed; /* stone spacing ~ 2.08 radii */
    b[seed].set = 1;
    b[seed].i = 0;
    b[seed].j = 0;
    b[seed].ux = (float)(sp * cos(a1));
    b[seed].uy = (float)(sp * sin(a1));
    b[seed].vx = (float)(sp * cos(a2));
    b[seed].vy = (float)(sp * sin(a2));
    int *queue = malloc(sizeof(int) * (size_t)n), qh = 0, qt = 0;
    if (!queue)
        goto done;
    queue[qt++] = seed;
    while (qh < qt) {
        blob_t *s = &b[queue[qh++]];
        for (int di = -2; di <= 2; di++)
            for (int dj = -2; dj <= 2; dj++) {
                if (!di && !dj)
                    continue;
                float px = s->x + di * s->ux + dj * s->vx, py = s->y + di * s->uy + dj * s->vy;
                float tol = 0.28f * hypotf(s->ux, s->uy) * (abs(di) + abs(dj) > 2 ? 0.8f : 1);
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
    free(queue);
    /* homography from coordinates to centres, twice, dropping poor fits */
    double *src = malloc(sizeof(double) * 4 * (size_t)n), *dst;
    if (!src)
        goto done;
    dst = src + 2 * n;
    double Hc[9];
    int ok = 0, used = 0;
    for (int it = 0; it < 3; it++) {
        int q = 0;
        for (int k = 0; k < n; k++) {
            if (!b[k].set)
                continue;
            if (ok) {
                double x, y;
                if (vis_homog_apply(Hc, b[k].i, b[k].j, &x, &y) ||
                    hypot(x - b[k].x, y - b[k].y) > 0.3 * sp) {
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
        if (q < 12 || vis_homog_fit(q, src, dst, Hc)) {
            ok = 0;
            break;
        }
        ok = 1;
        used = q;
    }
    free(src);
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
