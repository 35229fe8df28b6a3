/* synth.h: distorted views of a flat pattern (a printed chessboard or a Go board) drawn in
 * C for the calib tests: a plane posed in front of a pinhole camera with OpenCV's
 * distortion model (k1, k2, p1, p2, k3), rendered by casting each pixel's ray (2x2
 * supersampling). The truth (where each pattern point lands in the picture) comes from the
 * same model in the forward direction. Header only; include after <cmocka.h>. */
#ifndef KIFUCAM_TESTS_CALIB_SYNTH_H
#define KIFUCAM_TESTS_CALIB_SYNTH_H

#include <math.h>
#include <string.h>

#include "vision/cv_bridge.h"

typedef struct {
    double f, cx, cy;        /* pixels */
    double k1, k2, p1, p2, k3;
} syn_cam_t;

/* A plane's pose: pattern point (a, b) (units: squares or grid intervals) is at
 * R (a - a0, b - b0, 0) + t in camera space (z forward, y down). */
typedef struct {
    double R[9], t[3], a0, b0;
} syn_pose_t;

typedef enum { SYN_CHESS = 0, SYN_GOBOARD } syn_kind_t;

typedef struct {
    syn_kind_t kind;
    int cols, rows;            /* chessboard: inner corners; Go board: size in cols */
    const unsigned char *stones; /* Go board: size*size colours (0, 1 black, 2 white) or NULL */
} syn_pattern_t;

static inline void syn_pose(syn_pose_t *p, double rx, double ry, double rz, double tx, double ty,
                            double tz, double a0, double b0)
{
    double cx = cos(rx), sx = sin(rx), cy = cos(ry), sy = sin(ry), cz = cos(rz), sz = sin(rz);
    /* R = Rz * Ry * Rx */
    double R[9] = { cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
                    sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
                    -sy,     cy * sx,                cy * cx };
    memcpy(p->R, R, sizeof R);
    p->t[0] = tx;
    p->t[1] = ty;
    p->t[2] = tz;
    p->a0 = a0;
    p->b0 = b0;
}

/* Forward: pattern point -> distorted pixel. */
static inline void syn_project(const syn_cam_t *c, const syn_pose_t *p, double a, double b,
                               double *u, double *v)
{
    double A = a - p->a0, B = b - p->b0;
    double X = p->R[0] * A + p->R[1] * B + p->t[0];
    double Y = p->R[3] * A + p->R[4] * B + p->t[1];
    double Z = p->R[6] * A + p->R[7] * B + p->t[2];
    double x = X / Z, y = Y / Z, r2 = x * x + y * y;
    double rad = 1 + c->k1 * r2 + c->k2 * r2 * r2 + c->k3 * r2 * r2 * r2;
    double xd = x * rad + 2 * c->p1 * x * y + c->p2 * (r2 + 2 * x * x);
    double yd = y * rad + c->p1 * (r2 + 2 * y * y) + 2 * c->p2 * x * y;
    *u = c->cx + c->f * xd;
    *v = c->cy + c->f * yd;
}

static inline void syn_inv3(const double m[9], double o[9])
{
    double d = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
               m[2] * (m[3] * m[7] - m[4] * m[6]);
    o[0] = (m[4] * m[8] - m[5] * m[7]) / d;
    o[1] = (m[2] * m[7] - m[1] * m[8]) / d;
    o[2] = (m[1] * m[5] - m[2] * m[4]) / d;
    o[3] = (m[5] * m[6] - m[3] * m[8]) / d;
    o[4] = (m[0] * m[8] - m[2] * m[6]) / d;
    o[5] = (m[2] * m[3] - m[0] * m[5]) / d;
    o[6] = (m[3] * m[7] - m[4] * m[6]) / d;
    o[7] = (m[1] * m[6] - m[0] * m[7]) / d;
    o[8] = (m[0] * m[4] - m[1] * m[3]) / d;
}

/* Gray level (0..255) of the pattern at (a, b). */
static inline void syn_texel(const syn_pattern_t *pt, double a, double b, double bgr[3])
{
    if (pt->kind == SYN_CHESS) {
        /* squares (cols+1) x (rows+1) from 0 to cols+1, a white margin of one square */
        double g = 120;
        if (a >= -1 && b >= -1 && a < pt->cols + 2 && b < pt->rows + 2) {
            g = 235;
            if (a >= 0 && b >= 0 && a < pt->cols + 1 && b < pt->rows + 1 &&
                (((int)floor(a) + (int)floor(b)) & 1) == 0)
                g = 25;
        }
        bgr[0] = bgr[1] = bgr[2] = g;
        return;
    }
    int S = pt->cols;
    bgr[0] = 60;
    bgr[1] = 70;
    bgr[2] = 85; /* table */
    if (a < -0.8 || b < -0.8 || a > S - 0.2 || b > S - 0.2)
        return;
    bgr[0] = 95;
    bgr[1] = 165;
    bgr[2] = 215; /* wood */
    int x = (int)lround(a), y = (int)lround(b);
    if (pt->stones && x >= 0 && y >= 0 && x < S && y < S && pt->stones[y * S + x]) {
        double d = hypot(a - x, b - y);
        if (d < 0.46) {
            double v = pt->stones[y * S + x] == 1 ? 30 : 228;
            bgr[0] = bgr[1] = bgr[2] = v;
            return;
        }
    }
    double da = fabs(a - x), db = fabs(b - y);
    if ((da < 0.04 && b > -0.04 && b < S - 0.96) || (db < 0.04 && a > -0.04 && a < S - 0.96)) {
        bgr[0] = 30;
        bgr[1] = 40;
        bgr[2] = 50; /* grid line */
    }
}

/* Render a w x h BGR view (img allocated by the caller with cvb_image_alloc). */
static inline void syn_render(const syn_cam_t *c, const syn_pose_t *p, const syn_pattern_t *pt,
                              cvb_image_t *img)
{
    /* normalized undistorted (x, y, 1) -> (A, B, 1) through the inverse of [r1 r2 t] */
    double M[9] = { p->R[0], p->R[1], p->t[0], p->R[3], p->R[4], p->t[1], p->R[6], p->R[7], p->t[2] };
    double Mi[9];
    syn_inv3(M, Mi);
    for (int v = 0; v < img->h; v++)
        for (int u = 0; u < img->w; u++) {
            double acc[3] = { 0, 0, 0 };
            for (int s = 0; s < 4; s++) {
                double xd = (u + 0.25 + 0.5 * (s & 1) - 0.5 - c->cx) / c->f;
                double yd = (v + 0.25 + 0.5 * (s >> 1) - 0.5 - c->cy) / c->f;
                double x = xd, y = yd;
                for (int it = 0; it < 20; it++) {
                    double r2 = x * x + y * y;
                    double icd = 1 / (1 + c->k1 * r2 + c->k2 * r2 * r2 + c->k3 * r2 * r2 * r2);
                    double dx = 2 * c->p1 * x * y + c->p2 * (r2 + 2 * x * x);
                    double dy = c->p1 * (r2 + 2 * y * y) + 2 * c->p2 * x * y;
                    x = (xd - dx) * icd;
                    y = (yd - dy) * icd;
                }
                double A = Mi[0] * x + Mi[1] * y + Mi[2], B = Mi[3] * x + Mi[4] * y + Mi[5],
                       W = Mi[6] * x + Mi[7] * y + Mi[8];
                double col[3] = { 120, 120, 120 };
                if (W > 1e-9)
                    syn_texel(pt, A / W + p->a0, B / W + p->b0, col);
                for (int k = 0; k < 3; k++)
                    acc[k] += col[k];
            }
            uint8_t *px = img->data + (size_t)v * img->stride + (size_t)u * 3;
            for (int k = 0; k < 3; k++)
                px[k] = (uint8_t)lround(acc[k] / 4);
        }
}

/* A webcam-like lens with strong barrel distortion for a w x h frame. */
static inline void syn_webcam(syn_cam_t *c, int w, int h)
{
    c->f = 0.82 * w;
    c->cx = w / 2.0 + 3.5;
    c->cy = h / 2.0 - 2.5;
    c->k1 = -0.30;
    c->k2 = 0.11;
    c->p1 = 0.0008;
    c->p2 = -0.0006;
    c->k3 = 0;
}

#endif
