/* vis_homog.c: homography fitting (normalised DLT with h33 = 1, least squares via the
 * 8x8 normal equations), application and inversion. Pure C, no allocation. */
#include "vision/vis_homog.h"

#include <math.h>
#include <string.h>

int vis_solve(int n, double *A, double *b)
{
    return vis_solve_tol(n, A, b, 1e-12);
}

int vis_solve_tol(int n, double *A, double *b, double min_pivot)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[p * n + c]))
                p = r;
        if (fabs(A[p * n + c]) < min_pivot)
            return -1;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double t = A[c * n + k];
                A[c * n + k] = A[p * n + k];
                A[p * n + k] = t;
            }
            double t = b[c];
            b[c] = b[p];
            b[p] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            if (f == 0)
                continue;
            for (int k = c; k < n; k++)
                A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < n; k++)
            s -= A[r * n + k] * b[k];
        b[r] = s / A[r * n + r];
    }
    return 0;
}

void vis_homog_mul(const double A[9], const double B[9], double C[9])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            C[r * 3 + c] = A[r * 3] * B[c] + A[r * 3 + 1] * B[3 + c] + A[r * 3 + 2] * B[6 + c];
}

void vis_homog_shift(const double H[9], double dx, double dy, double out[9])
{
    const double T[9] = { 1, 0, dx, 0, 1, dy, 0, 0, 1 };
    vis_homog_mul(H, T, out);
    double w = out[8];
    for (int k = 0; k < 9; k++)
        out[k] /= w;
}

/* Similarity T moving the points' centroid to 0 and their mean distance to sqrt(2). */
static int normaliser(int n, const double *p, double T[9])
{
    double cx = 0, cy = 0, d = 0;
    for (int i = 0; i < n; i++) {
        cx += p[2 * i];
        cy += p[2 * i + 1];
    }
    cx /= n;
    cy /= n;
    for (int i = 0; i < n; i++)
        d += hypot(p[2 * i] - cx, p[2 * i + 1] - cy);
    d /= n;
    if (d < 1e-12)
        return -1;
    double s = sqrt(2.0) / d;
    double t[9] = { s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1 };
    memcpy(T, t, sizeof t);
    return 0;
}

int vis_homog_fit(int n, const double *src, const double *dst, double H[9])
{
    if (n < 4 || !src || !dst || !H)
        return -1;
    double Ts[9], Td[9];
    if (normaliser(n, src, Ts) || normaliser(n, dst, Td))
        return -1;
    double AtA[64] = { 0 }, Atb[8] = { 0 };
    for (int i = 0; i < n; i++) {
        double x = Ts[0] * src[2 * i] + Ts[2], y = Ts[4] * src[2 * i + 1] + Ts[5];
        double u = Td[0] * dst[2 * i] + Td[2], v = Td[4] * dst[2 * i + 1] + Td[5];
        double r1[8] = { x, y, 1, 0, 0, 0, -u * x, -u * y };
        double r2[8] = { 0, 0, 0, x, y, 1, -v * x, -v * y };
        for (int a = 0; a < 8; a++) {
            for (int b = 0; b < 8; b++)
                AtA[a * 8 + b] += r1[a] * r1[b] + r2[a] * r2[b];
            Atb[a] += r1[a] * u + r2[a] * v;
        }
    }
    if (vis_solve(8, AtA, Atb))
        return -1;
    double Hn[9] = { Atb[0], Atb[1], Atb[2], Atb[3], Atb[4], Atb[5], Atb[6], Atb[7], 1 };
    double Tdi[9], tmp[9], out[9];
    if (vis_homog_invert(Td, Tdi))
        return -1;
    vis_homog_mul(Hn, Ts, tmp);
    vis_homog_mul(Tdi, tmp, out);
    if (fabs(out[8]) < 1e-15)
        return -1;
    for (int i = 0; i < 9; i++)
        H[i] = out[i] / out[8];
    return 0;
}

int vis_homog_apply(const double H[9], double x, double y, double *ox, double *oy)
{
    double w = H[6] * x + H[7] * y + H[8];
    if (fabs(w) < 1e-12)
        return -1;
    *ox = (H[0] * x + H[1] * y + H[2]) / w;
    *oy = (H[3] * x + H[4] * y + H[5]) / w;
    return 0;
}

int vis_homog_apply_front(const double H[9], double x, double y, double *ox, double *oy)
{
    if (H[6] * x + H[7] * y + H[8] <= 1e-9)
        return -1;
    return vis_homog_apply(H, x, y, ox, oy);
}

int vis_homog_invert(const double M[9], double out[9])
{
    double a = M[0], b = M[1], c = M[2], d = M[3], e = M[4], f = M[5], g = M[6], h = M[7],
           i = M[8];
    double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    if (fabs(det) < 1e-18)
        return -1;
    double r[9] = { A, -(b * i - c * h), b * f - c * e,
                    B, a * i - c * g,    -(a * f - c * d),
                    C, -(a * h - b * g), a * e - b * d };
    for (int k = 0; k < 9; k++)
        out[k] = r[k] / det;
    return 0;
}

/* Compose H with a board-space symmetry so that board x runs right and y down. */
void vis_homog_orient(double H[9], int S)
{
    double c = (S - 1) / 2.0, x0, y0, x1, y1, x2, y2;
    if (vis_homog_apply(H, c, c, &x0, &y0) || vis_homog_apply(H, c + 1, c, &x1, &y1) ||
        vis_homog_apply(H, c, c + 1, &x2, &y2))
        return;
    double vx[2] = { x1 - x0, y1 - y0 }, vy[2] = { x2 - x0, y2 - y0 };
    double M[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    int swap = fabs(vx[0]) + fabs(vy[1]) < fabs(vx[1]) + fabs(vy[0]);
    if (swap) {
        double T[9] = { 0, 1, 0, 1, 0, 0, 0, 0, 1 };
        memcpy(M, T, sizeof T);
        double t0 = vx[0], t1 = vx[1];
        vx[0] = vy[0];
        vx[1] = vy[1];
        vy[0] = t0;
        vy[1] = t1;
    }
    /* now image-x grows with board u = M-row... apply flips */
    double F[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    if (vx[0] < 0) {
        F[0] = -1;
        F[2] = S - 1;
    }
    if (vy[1] < 0) {
        F[4] = -1;
        F[5] = S - 1;
    }
    double MF[9], out[9];
    vis_homog_mul(M, F, MF);
    vis_homog_mul(H, MF, out);
    for (int k = 0; k < 9; k++)
        H[k] = out[k] / out[8];
}

void vis_homog_unscale(const double Hw[9], double scale, double H[9])
{
    for (int k = 0; k < 9; k++)
        H[k] = Hw[k] / (k < 6 ? scale : 1);
}
