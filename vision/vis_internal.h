/* vis_internal.h: helpers shared by the vision sources (not public API; tests may use
 * them). */
#ifndef KIFUCAM_VIS_INTERNAL_H
#define KIFUCAM_VIS_INTERNAL_H

#include "vision/vis.h"

/* Count, along the board line `dir` = 0: y = i (horizontal in board space), 1: x = i,
 * the segments j..j+1 for j in [j0, j1) whose midpoint is a dark line between two
 * similar, board-like sides (*good), and those with board-like sides at all (*visible).
 * *total gets the number of segments inside the image. */
void vis_line_support(const cvb_image_t *img, const double H[9], int dir, double i, int j0,
                      int j1, int *good, int *visible, int *total);

/* A 1D projective map t(k) = (a k + b) / (c k + 1). */
typedef struct {
    double a, b, c;
} vis_proj1_t;

/* Fit t(k) through three or more (k, t) pairs (least squares). -1 when degenerate. */
int vis_proj1_fit(int n, const double *k, const double *t, vis_proj1_t *out);
/* Evaluate; returns -1 where the denominator vanishes (behind the vanishing point). */
int vis_proj1_eval(const vis_proj1_t *f, double k, double *t);

/* Per-point features behind a classification. */
typedef struct {
    float rel;       /* point brightness / local board brightness */
    float sat;       /* point saturation (0..1) */
    float board_sat; /* local board saturation */
    float chroma;    /* chromaticity distance point - board */
    int arms;        /* arms of the grid cross hidden at the point (0..4) */
    float crel;      /* point brightness / the four cells around it (x+-.5, y+-.5) */
    float cchroma;   /* chromaticity distance point - those cells */
    float cells_rel; /* those cells' brightness / the global board's */
    float cells_chroma; /* their chromaticity distance to the global board's (the largest) */
} vis_feat_t;
/* vis_classify, also writing the features of every point into feat (size*size entries)
 * when feat is not NULL. */
int vis_classify_ex(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                    vis_snapshot_t *snap, vis_feat_t *feat);

/* Find the lattice of black stones in a work-scale gray image: H maps lattice (i, j) to
 * pixels; the stones found span i in [*imin, *imax], j in [*jmin, *jmax]; *count stones
 * fit, their (i, j) written to ij (up to maxij pairs; ij may be NULL). 0 on success, -1
 * when there is no such lattice. */
int vis_lattice_find(const cvb_image_t *gray, double H[9], int *imin, int *imax, int *jmin,
                     int *jmax, int *count, int *ij, int maxij);

#endif
