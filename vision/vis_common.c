/* vis_common.c: the small parts every stage of vision/ shares: error strings, the
 * geometry from four corners or a homography (and moved by a board-plane map), the points
 * outside the picture, and the drawing of a reading over a frame. The config's defaults
 * are vis_config.c's; reading the points is vis_read.c; board finding vis_detect.c;
 * tracking, and the size four corners' grid fits best, vis_track.c.
 * Invariants: a vis_geom_t made here has its homography, its inverse and every point's
 * pixel position in agreement (vis_geom_from_h computes all three from H).
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

#ifndef VIS_CLOCK
#define VIS_CLOCK CLOCK_MONOTONIC /* stage stamps: wall time */
#endif
double vis_now_ms(void)
{
    struct timespec ts;
    clock_gettime(VIS_CLOCK, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

const char *vis_strerror(int code)
{
    switch (code) {
    case VIS_OK: return "success";
    case VIS_EINVAL: return "invalid argument";
    case VIS_ENOMEM: return "out of memory";
    case VIS_ENOBOARD: return "no board found";
    case VIS_ECV: return "image processing failed";
    case VIS_EMODEL: return "a model (the point reader's or the stone finder's) cannot be read or run";
    default: return "unknown error";
    }
}

int vis_geom_outside(const vis_geom_t *geom, int w, int h, uint8_t *outside, unsigned *sides)
{
    if (sides)
        *sides = 0;
    if (!geom)
        return -1;
    int n = 0;
    for (int k = 0; k < geom->size * geom->size; k++) {
        /* as vis_in_picture (margin 0) reads a point's centre (a NaN lies outside, beyond
         * no edge) */
        double x = geom->px[k], y = geom->py[k];
        int out = !(x >= 0 && y >= 0 && x <= w - 1 && y <= h - 1);
        if (outside)
            outside[k] = (uint8_t)out;
        if (sides && out)
            *sides |= (y > h - 1 ? 1u << VIS_SIDE_BOTTOM : 0) |
                      (x > w - 1 ? 1u << VIS_SIDE_RIGHT : 0) | (y < 0 ? 1u << VIS_SIDE_TOP : 0) |
                      (x < 0 ? 1u << VIS_SIDE_LEFT : 0);
        n += out;
    }
    return n;
}

int vis_geom_from_h(const double H[9], int size, int img_w, int img_h, vis_geom_t *geom)
{
    if (!H || !geom || size < 2 || size > VIS_MAX_LATTICE)
        return VIS_EINVAL;
    vis_geom_t g;
    memset(&g, 0, sizeof g);
    g.size = size;
    g.img_w = img_w;
    g.img_h = img_h;
    memcpy(g.H, H, sizeof g.H);
    if (vis_homog_invert(H, g.Hinv))
        return VIS_EINVAL;
    int n = size - 1;
    const double cb[4][2] = { { 0, 0 }, { n, 0 }, { n, n }, { 0, n } };
    for (int k = 0; k < 4; k++)
        if (vis_homog_apply(H, cb[k][0], cb[k][1], &g.corners[k][0], &g.corners[k][1]))
            return VIS_EINVAL;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double px, py, ax, ay, bx, by;
            if (vis_homog_apply(H, x, y, &px, &py) ||
                vis_homog_apply(H, x + 0.5, y, &ax, &ay) ||
                vis_homog_apply(H, x, y + 0.5, &bx, &by))
                return VIS_EINVAL;
            g.px[y * size + x] = (float)px;
            g.py[y * size + x] = (float)py;
            /* a stone is ~0.96 of the spacing wide: radius ~ half spacing */
            g.radius[y * size + x] =
                (float)(0.48 * (hypot(ax - px, ay - py) + hypot(bx - px, by - py)));
        }
    *geom = g;
    return VIS_OK;
}

int vis_geom_transform(const vis_geom_t *geom, const double m[6], const int *map, vis_geom_t *out)
{
    const double M[9] = { m[0], m[1], m[2], m[3], m[4], m[5], 0, 0, 1 };
    double H2[9];
    vis_homog_mul(geom->H, M, H2);
    if (H2[8] != 0)
        for (int k = 0; k < 9; k++)
            H2[k] /= H2[8];
    vis_geom_t ng;
    int S = geom->size;
    if (vis_geom_from_h(H2, S, geom->img_w, geom->img_h, &ng) != VIS_OK)
        return VIS_EINVAL;
    for (int i = 0; map && i < S * S; i++) /* the refined points where the old grid had them */
        if (map[i] >= 0) {
            ng.px[i] = geom->px[map[i]];
            ng.py[i] = geom->py[map[i]];
            ng.radius[i] = geom->radius[map[i]];
        }
    static const int cx[4] = { 0, 1, 1, 0 }, cy[4] = { 0, 0, 1, 1 };
    for (int k = 0; k < 4; k++) {
        int i = cy[k] * (S - 1) * S + cx[k] * (S - 1);
        ng.corners[k][0] = ng.px[i];
        ng.corners[k][1] = ng.py[i];
    }
    *out = ng;
    return VIS_OK;
}

int vis_geom_from_corners(double corners[4][2], int size, int img_w, int img_h,
                          vis_geom_t *geom)
{
    if (!corners || !geom || size < 2 || size > VIS_MAX_LATTICE)
        return VIS_EINVAL;
    int n = size - 1;
    double src[8] = { 0, 0, n, 0, n, n, 0, n }, dst[8], H[9];
    for (int k = 0; k < 4; k++) {
        dst[2 * k] = corners[k][0];
        dst[2 * k + 1] = corners[k][1];
    }
    /* reject a degenerate or self-crossing quad: consistent turn signs */
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        const double *a = corners[k], *b = corners[(k + 1) % 4], *c = corners[(k + 2) % 4];
        double cr = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
        if (cr > 1e-6)
            pos++;
        else if (cr < -1e-6)
            neg++;
    }
    if (!(pos == 4 || neg == 4))
        return VIS_EINVAL;
    if (vis_homog_fit(4, src, dst, H))
        return VIS_EINVAL;
    return vis_geom_from_h(H, size, img_w, img_h, geom);
}

int vis_draw(cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap)
{
    if (!img || !img->data || !geom)
        return VIS_EINVAL;
    int S = geom->size;
    int th = img->w > 1200 ? 2 : 1;
    for (int i = 0; i < S; i++) {
        int a = i, b = S - 1;
        cvb_draw_line(img, geom->px[a], geom->py[a], geom->px[b * S + a], geom->py[b * S + a],
                      0, 0, 255, th);
        cvb_draw_line(img, geom->px[a * S], geom->py[a * S], geom->px[a * S + b],
                      geom->py[a * S + b], 0, 0, 255, th);
    }
    if (snap && snap->size == S)
        for (int k = 0; k < S * S; k++) {
            double r = geom->radius[k] * 0.6;
            if (snap->occluded[k])
                cvb_draw_circle(img, geom->px[k], geom->py[k], r * 0.5, 255, 0, 255, -1);
            else if (snap->color[k] == GO_BLACK)
                cvb_draw_circle(img, geom->px[k], geom->py[k], r, 255, 64, 0, 2 * th);
            else if (snap->color[k] == GO_WHITE)
                cvb_draw_circle(img, geom->px[k], geom->py[k], r, 0, 255, 255, 2 * th);
        }
    return VIS_OK;
}
