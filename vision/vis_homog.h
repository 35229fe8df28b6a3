/* vis_homog.h: plane homographies in plain C (3x3, row-major, double): the board plane
 * (x = column, y = row, in grid units, 0..size-1) <-> image pixels. No OpenCV.
 * Invariant: every function writes its outputs only on success (return 0).
 */
#ifndef KIFUCAM_VIS_HOMOG_H
#define KIFUCAM_VIS_HOMOG_H

/* Fit H with H*src ~ dst from n >= 4 point pairs (src/dst: n x,y pairs), least squares
 * on normalised coordinates (exact for n == 4). -1 when degenerate. */
int vis_homog_fit(int n, const double *src, const double *dst, double H[9]);
/* Apply H to (x, y). Returns -1 (outputs untouched) when the point maps to infinity. */
int vis_homog_apply(const double H[9], double x, double y, double *ox, double *oy);
/* As vis_homog_apply, and -1 also for a point behind the camera (w <= 1e-9): for a
 * board-to-image H whose board has w > 0 (vis_geom_t.H), the table around the board, far
 * enough out, can fall behind a steep camera. */
int vis_homog_apply_front(const double H[9], double x, double y, double *ox, double *oy);
/* C = A B (3x3, row-major); C may not be A or B. */
void vis_homog_mul(const double A[9], const double B[9], double C[9]);
/* H composed with a translation of its source plane by (dx, dy): the map whose point
 * (x, y) is H's (x + dx, y + dy) (a board's grid moved by whole or part lines), normalised
 * (out[8] = 1); out may not be H. */
void vis_homog_shift(const double H[9], double dx, double dy, double out[9]);
/* Invert a 3x3 matrix. -1 when singular. */
int vis_homog_invert(const double M[9], double out[9]);
/* Solve the n x n (n <= 9) system A x = b in place by Gaussian elimination with partial
 * pivoting (A row-major, destroyed; the solution replaces b). -1 when singular. */
int vis_solve(int n, double *A, double *b);
/* vis_solve with a pivot under min_pivot (absolute) taken as singular (vis_solve: 1e-12). */
int vis_solve_tol(int n, double *A, double *b, double min_pivot);
/* A board -> work-image homography Hw (the work image `scale` times the full one) as the
 * board -> full-image one H: Hw's first two rows over scale. */
void vis_homog_unscale(const double Hw[9], double scale, double H[9]);
/* Compose H (board -> image) with a symmetry of the S x S board so that board x runs
 * rightwards in the image and y downwards; H normalised (H[8] = 1). */
void vis_homog_orient(double H[9], int S);

#endif
