/* vis_internal.h: helpers shared by the vision sources (not public API; tests may use
 * them). */
#ifndef KIFUCAM_VIS_INTERNAL_H
#define KIFUCAM_VIS_INTERNAL_H

#include "vision/vis.h"
#include "vision/vis_homog.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* VTRACE: a developer's print, compiled in only with -DVIS_TRACE (library code never
 * prints otherwise). */
#ifdef VIS_TRACE
#include <stdio.h>
#define VTRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define VTRACE(...) ((void)0)
#endif

/* ---- the networks (vis_ensemble.c) ---- */

/* One or a few ONNX models run through OpenCV's dnn over a board view: the point reader's
 * (vis_net_t) and the stone finder's (vis_finder_t). A run is one member over the view
 * under one symmetry; an owner averages its runs' outputs as it reads them. */
#define VIS_ENSEMBLE_MAX 4
typedef struct vis_ensemble {
    cvb_net_t *net[VIS_ENSEMBLE_MAX]; /* the members, the first n */
    int n;
    int shared; /* a built-in model's: the whole process reads with it, none may change it */
    pthread_mutex_t lock; /* the members' dnn state, one run at a time */
} vis_ensemble_t;
/* e (uninitialised) with one member, from len bytes of ONNX: VIS_EMODEL when OpenCV cannot
 * run them, VIS_ENOMEM. */
int vis_ensemble_init(vis_ensemble_t *e, const uint8_t *buf, size_t len);
/* member's one model joins e, at most max members (<= VIS_ENSEMBLE_MAX); member is left
 * empty, for its owner to fini. VIS_EINVAL when e is full, member is not one model or is
 * e, or either is shared. */
int vis_ensemble_add(vis_ensemble_t *e, vis_ensemble_t *member, int max);
/* Frees e's members and lock (not e); a shared ensemble is left as it is. */
void vis_ensemble_fini(vis_ensemble_t *e);
/* One run's output: c x h x w logits, the view seen under symmetry sym (vis_sym_src). */
typedef void (*vis_ensemble_each_fn)(void *ctx, int sym, const float *logit);
/* Every member of e over the square BGR view under symmetries first .. first + nsym - 1
 * (each member under each, nsym * e->n runs, in that order), each run's output, checked
 * to be c x h x w, handed to each. VIS_EMODEL when a run fails or its shape differs (the
 * runs stop there), VIS_ENOMEM, VIS_EINVAL. */
int vis_ensemble_runs(vis_ensemble_t *e, const cvb_image_t *view, int first, int nsym, int c,
                      int h, int w, vis_ensemble_each_fn each, void *ctx);

/* A part of a board's view in its blocks (VIS_NET_CELL_PX each): columns x0 .. x1 - 1,
 * rows y0 .. y1 - 1. */
typedef struct vis_blocks {
    int x0, y0, x1, y1;
} vis_blocks_t;
/* The blocks of part p of an O x O-block view that a run over p reads as over the whole
 * view: those reach blocks inside p on every side where the view goes on. */
static inline vis_blocks_t vis_part_inner(vis_blocks_t p, int O, int reach)
{
    vis_blocks_t in = { p.x0 ? p.x0 + reach : 0, p.y0 ? p.y0 + reach : 0,
                        p.x1 < O ? p.x1 - reach : O, p.y1 < O ? p.y1 - reach : O };
    return in;
}
/* Every member of e over part p of the BGR view (blocks of cell pixels) seen under
 * symmetry sym (0..3: mirrored within the part, never transposed), each run's output
 * (c x (y1 - y0) x (x1 - x0): output block (i, j) is the part's block (i, j) under sym,
 * (x1 - x0 - 1 - i) when sym has 1, (y1 - y0 - 1 - j) when it has 2) handed to each.
 * Codes as vis_ensemble_runs. */
int vis_ensemble_run_part(vis_ensemble_t *e, const cvb_image_t *view, int cell, vis_blocks_t p,
                          int sym, int c, vis_ensemble_each_fn each, void *ctx);

/* Blocks: the point reader's receptive field reaches this far beyond a block (25 units of
 * 4 px, about 6 blocks across): a block at least this far inside a part of the view, on
 * every side where the view goes on, reads as over the whole view (test_read_part). */
#define VIS_NET_REACH 3
/* One run of the point reader over part p of a board's view (vis_net_view; S points a
 * side, O = S + 2 margin blocks) seen under symmetry sym (0..3), the mean over its
 * members: the blocks that read as over the whole view (VIS_NET_REACH) written into out's
 * points and ring blocks (out->size S, out->nring already set), and exact[b] = 1 for
 * each (b = j O + i; O x O, others untouched). VIS_EINVAL, VIS_EMODEL, VIS_ENOMEM. */
int vis_net_read_part(vis_net_t *net, const cvb_image_t *view, int S, int sym, vis_blocks_t p,
                      vis_reading_t *out, uint8_t *exact);

/* The parts of an O x O-block view one run each should read so that every block wanted
 * (want[j O + i] != 0) lies in a part's vis_part_inner (vis_net_read_part reads it as over
 * the whole view), at about the least cost: a part a wanted block's own square, parts
 * joined while one run over both costs no more than two, and the whole view when that
 * costs less than them (vis_read.c). At most max parts into parts; their cost, in blocks
 * of a run over the whole view (O x O for it), into *cost (NULL: not asked); returns how
 * many (0: none wanted), -1 on bad arguments. */
int vis_plan_parts(const uint8_t *want, int O, int reach, vis_blocks_t *parts, int max,
                   int *cost);
/* The most parts vis_read's other run reads over (more are joined). */
#define VIS_READ_PARTS_MAX 8

/* A model file's bytes into *buf (the caller frees), *len of them (vis_ensemble.c): VIS_EMODEL
 * when it cannot be read or is empty or past 64 MB, VIS_ENOMEM. */
int vis_read_model_file(const char *path, uint8_t **buf, size_t *len);

/* Symmetry s (0..7; 4: transposed, then 1: x mirrored, 2: y mirrored) of a coordinate
 * pair on an n x n square: the source of (x, y) (vis_ensemble.c). */
void vis_sym_src(int s, int n, int x, int y, int *sx, int *sy);
/* out (allocated, v's size) = the square BGR view v seen under symmetry s (vis_ensemble.c). */
void vis_view_sym(const cvb_image_t *v, int s, cvb_image_t *out);

/* ---- the one luma formula (BT.601 weights on B, G, R), in the precisions in use ---- */

/* Luma of a BGR colour, in double (colour statistics, line contrast). */
static inline double vis_luma(double b, double g, double r)
{
    return 0.114 * b + 0.587 * g + 0.299 * r;
}

/* ... in float (the table beside the board, vis_outside.c). */
static inline float vis_luma_f(float b, float g, float r)
{
    return 0.114f * b + 0.587f * g + 0.299f * r;
}

/* ... in integers, of 8-bit values: floor((114 B + 587 G + 299 R) / 1000). */
static inline int vis_luma_u8(int b, int g, int r)
{
    return (114 * b + 587 * g + 299 * r) / 1000;
}

/* ---- pixel access and medians (shared by classification and tracking) ---- */

/* 1 when pixel position (px, py) lies in img at least margin pixels from its edges (margin
 * 0: in the picture; a stone's radius: its disc whole in the picture). */
static inline int vis_in_picture(const cvb_image_t *img, double px, double py, double margin)
{
    return px >= margin && py >= margin && px <= img->w - 1 - margin &&
           py <= img->h - 1 - margin;
}

static inline int luma_at(const cvb_image_t *img, int x, int y)
{
    const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * img->channels;
    if (img->channels == 1)
        return p[0];
    return vis_luma_u8(p[0], p[1], p[2]);
}

/* Mean luma of the 3x3 block at (x, y); -1 outside the image. */
static inline int luma3(const cvb_image_t *img, double fx, double fy)
{
    int x = (int)lround(fx), y = (int)lround(fy);
    if (x < 1 || y < 1 || x >= img->w - 1 || y >= img->h - 1)
        return -1;
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += luma_at(img, x + dx, y + dy);
    return s / 9;
}

/* The board's mean spacing in pixels: the corners' quadrilateral's perimeter over its
 * 4 (size - 1) cells (a view's shrink, a tolerance in cells). */
static inline double vis_geom_spacing(const vis_geom_t *g)
{
    double per = 0;
    for (int k = 0; k < 4; k++)
        per += hypot(g->corners[k][0] - g->corners[(k + 1) % 4][0],
                     g->corners[k][1] - g->corners[(k + 1) % 4][1]);
    return per / 4 / (g->size - 1);
}

/* The image pixel of grid (x, y) under g, rounded; -1 behind the camera or far off (the
 * table around a board seen steeply can fall behind the camera). */
static inline int vis_grid_px(const vis_geom_t *g, double x, double y, int *cx, int *cy)
{
    double px, py;
    if (vis_homog_apply_front(g->H, x, y, &px, &py) || !(fabs(px) < 1e7 && fabs(py) < 1e7))
        return -1;
    *cx = (int)floor(px + 0.5);
    *cy = (int)floor(py + 0.5);
    return 0;
}

/* Mean B, G, R (a gray image: its value three times) of the 3x3 block at pixel (cx, cy)
 * into bgr; -1 (bgr untouched) when the block is not wholly in the image. */
static inline int vis_mean3x3(const cvb_image_t *img, int cx, int cy, float bgr[3])
{
    if (cx < 1 || cy < 1 || cx >= img->w - 1 || cy >= img->h - 1)
        return -1;
    float s[3] = { 0, 0, 0 };
    for (int dy = -1; dy <= 1; dy++) {
        const uint8_t *row = img->data + (size_t)(cy + dy) * img->stride;
        for (int dx = -1; dx <= 1; dx++) {
            const uint8_t *p = row + (size_t)(cx + dx) * (size_t)img->channels;
            for (int k = 0; k < 3; k++)
                s[k] += p[img->channels >= 3 ? k : 0];
        }
    }
    for (int k = 0; k < 3; k++)
        bgr[k] = s[k] / 9;
    return 0;
}

/* Luma of one pixel; -1 outside. */
static inline int luma1(const cvb_image_t *img, double fx, double fy)
{
    int x = (int)lround(fx), y = (int)lround(fy);
    if (x < 0 || y < 0 || x >= img->w || y >= img->h)
        return -1;
    return luma_at(img, x, y);
}

static inline int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static inline float median_f(float *v, int n)
{
    if (n <= 0)
        return 0;
    if (n > 64) {
        qsort(v, (size_t)n, sizeof *v, cmp_float);
    } else { /* insertion sort: small n, no calls */
        for (int i = 1; i < n; i++) {
            float x = v[i];
            int j = i - 1;
            while (j >= 0 && v[j] > x) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = x;
        }
    }
    return (n & 1) ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}


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

/* The belief of the S x S grid at (ox, oy) of a larger reading r of the same lattice
 * (vis_read.c; board finding's grid_shift judges each window of a wider read so): the
 * mean over every point of r of 1 - P(off) on the grid and P(off) beside it, points
 * covered (off the picture, a hand) left out. Every window is judged on the same points,
 * so that one moved out of the picture cannot leave its doubtful points behind (its ring
 * alone would: a photo that shows part of a board favoured the move that hid the most).
 * -1 when nothing is in view. */
double vis_window_belief(const vis_reading_t *r, int S, int ox, int oy);

/* The time in milliseconds (VIS_CLOCK, monotonic wall time) for vis_timing_t's stamps
 * (vis_common.c). */
double vis_now_ms(void);

/* ---- board finding's stage 5: vis_detect.c's grid_verify, vis_window.c ---- */

/* Up to p->passes of the line refit of grid H (size S) on the full-size gray (vis_refit.c):
 * how many passes succeeded (H refined by each). */
int vis_refine_passes(const cvb_image_t *gray, int S, double H[9], const vis_refit_params_t *p);
/* The learned reader's belief (vis_grid_belief) in the full-size grid Hf of size S, and
 * its reading into *r (vis_read.c): 0, -1 when the grid makes no geometry, or vis_read's
 * error. */
int vis_read_grid_belief(const cvb_image_t *img, const vis_config_t *cfg, const double Hf[9],
                         int S, vis_reading_t *r, double *belief);
/* The grid Hf (size S; its reading *prob, believed *belief) moved by whole lines where a
 * window of the lattice read wider beats it (vis_window.c); Hf, *prob and *belief are
 * replaced then. *context: the wider read's belief in the window that stands
 * (vis_window_belief; snapshot.grid_context), left as it was when there is no wider read.
 * VIS_OK, or VIS_EMODEL / VIS_ENOMEM. */
int vis_grid_shift(const cvb_image_t *img, const cvb_image_t *fullgray, const vis_config_t *cfg,
                   int S, double Hf[9], vis_reading_t *prob, double *belief, double *context);
/* The grid grown to the next board size where the star points say so (vis_window.c); *S
 * too is replaced then, and *context by the grown window's in its wider read. VIS_OK, or
 * VIS_EMODEL / VIS_ENOMEM. */
int vis_grid_grow(const cvb_image_t *img, const cvb_image_t *fullgray, const vis_config_t *cfg,
                  int *S, double Hf[9], vis_reading_t *prob, double *belief, double *context);

/* vis_classify in two halves (vis_read.c): the reading of geom (cfg's net, symmetries
 * and board model), and the snapshot made of it (decision, occlusion); with off_hides 0
 * the off class is left out (the points read as if the grid were right: the tracker's
 * search for where the lines went needs the empty points). */
int vis_read(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
             vis_reading_t *r);
int vis_snapshot_from_reading(const cvb_image_t *img, const vis_geom_t *geom,
                              const vis_config_t *cfg, const vis_reading_t *r,
                              vis_snapshot_t *snap, int off_hides);

/* A symmetric 3x3 (xx, xy, xz, yy, yz, zz), as vis_board_model_t's covariances: its
 * inverse and log-determinant (-1 when singular); the quadratic form d' q d of such a
 * matrix (the squared Mahalanobis distance when q is an inverse covariance). */
int vis_sym3_inv(const double c[6], double inv[6], double *logdet);
double vis_sym3_quad(const double q[6], const double d[3]);
/* c += d d' in that layout (a covariance's sum). */
static inline void vis_sym3_add_outer(double c[6], const double d[3])
{
    c[0] += d[0] * d[0];
    c[1] += d[0] * d[1];
    c[2] += d[0] * d[2];
    c[3] += d[1] * d[1];
    c[4] += d[1] * d[2];
    c[5] += d[2] * d[2];
}

/* The colour feature of the per-board model and of a photo's pixel labels, from a mean
 * B, G, R: (log luma, log R/G, log B/G), lightness apart from hue. */
static inline void vis_colour_feature(double b, double g, double r, double f[3])
{
    f[0] = log((vis_luma(b, g, r) + 1) / 256.0);
    f[1] = log((r + 4) / (g + 4));
    f[2] = log((b + 4) / (g + 4));
}

/* A photo's own colours (vis_photo_colours.c): stones off their points given their
 * colour (cfg->offpoint), edge stones something of their colour reaches over the edge
 * made unsure (cfg->reach). Returns how many stones were given a colour (0 with both
 * off), or a negative VIS_E* code. */
int vis_photo_colours(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                      vis_snapshot_t *s);

/* ---- a grid segment's evidence in board finding (vis_seg.c) ---- */

/* One segment's evidence: the segment j..j+1 of line `dir`/`i`, sampled at its middle. */
typedef struct {
    uint8_t done;    /* filled (the cache's mark) */
    uint8_t total;   /* inside the picture */
    uint8_t visible; /* board on both sides, of one colour (no reference colour asked) */
    uint8_t good;    /* visible, and a dark line between */
    double cb, cr, side; /* the sides' mean chromaticity and brightness (when visible) */
} vis_seg_t;

/* The segments of one pencil pair's lattice (H0, full size), measured once for all the
 * windows and sizes pair_grid tries: window (oa, ob) of H0 holds the same segments as
 * H0 itself, shifted by whole units. Indexed by line and segment start, lo..lo+n-1. */
typedef struct {
    const cvb_image_t *g, *col;
    const vis_seg_params_t *sp;
    double H[9];
    int lo, n;
    vis_seg_t *s; /* [2][n][n] */
} vis_seg_cache_t;

/* The window's segments: measured on H, or taken from the cache c at offset (oa, ob). */
typedef struct {
    const cvb_image_t *gray, *col;
    const vis_seg_params_t *sp;
    double H[9]; /* full size */
    vis_seg_cache_t *c;
    int oa, ob;
} vis_win_src_t;

/* The gray level at the pixel nearest (fx, fy); -1 outside the picture. */
int vis_gray1(const cvb_image_t *g, double fx, double fy);
/* vis_line_support for board finding: the segments j0..j1-1 of the line `dir`/`i` (board
 * space of H, full-size images) seen as a dark line (*good) between two sides of the same
 * colour and brightness (*visible: board on both sides; col BGR, or gray for brightness
 * only); *total in the picture. With ref (chromaticity b, r and brightness), only sides of
 * that colour are seen; with acc, the seen sides' sums (b, r, brightness, count) added. */
void vis_seg_support(const cvb_image_t *g, const cvb_image_t *col, const double H[9],
                     const vis_seg_params_t *sp, int dir, double i, int j0, int j1,
                     const double *ref, double *acc, int *good, int *visible, int *total);
/* A window's score: the share of its segments that are lines, less the share of the
 * segments of the four lines just outside it that are (on wood of its own colour), less
 * edge_off_cost for each edge line off the board (vis_seg_params_t); -1 when too little of it
 * is in view. */
double vis_window_score_src(const vis_win_src_t *w, int S);
/* vis_window_score_src of the S x S grid Hw at work scale (gray and col full size,
 * scale = work / full). */
double vis_window_score(const cvb_image_t *gray, const cvb_image_t *col,
                        const vis_seg_params_t *sp, const double Hw[9], int S, double scale);

/* ---- the board from its stones (vis_lattice.c) ---- */

/* The grid from the lattice of black stones (vis_lattice_find): the smallest size that
 * holds every stone (size_hint when given), the window chosen by the grid lines that
 * remain visible (vis_window_score), slid to them, a line moved by the board's outline,
 * oriented (vis_homog_orient). gray at work scale, full and col full size. VIS_OK with
 * Hout (work scale), *Sout and *stones; VIS_ENOBOARD. */
int vis_lattice_grid(const cvb_image_t *gray, const cvb_image_t *full, const cvb_image_t *col,
                     const vis_seg_params_t *sp, const vis_lattice_params_t *lp, double scale,
                     int size_hint, double Hout[9], int *Sout, int *stones);

/* Find the lattice of black stones in a work-scale gray image: H maps lattice (i, j) to
 * pixels; the stones found span i in [*imin, *imax], j in [*jmin, *jmax]; *count stones
 * fit, their (i, j) written to ij (up to maxij pairs; ij may be NULL). With ij given and
 * room for every stone, the stones apart from the main block (a bowl, a stone on the
 * table) are left out of all three. 0 on success, -1 when there is no such lattice. */
int vis_lattice_find(const cvb_image_t *gray, double H[9], int *imin, int *imax, int *jmin,
                     int *jmax, int *count, int *ij, int maxij);

/* vis_seg_params_t's values but how dark a line must be: one list for board finding's
 * defaults (vis_seg_defaults) and the tracker's (vis_track.c track_seg), which differ in
 * that alone. */
#define VIS_SEG_COMMON                                                                      \
    .side_off = 0.25, .min_px = 1.5, .side_rel = 0.18, .side_abs = 4, .min_level = 25,      \
    .chroma_damp = 30, .chroma_max = 0.035, .ref_lo = 0.6, .ref_hi = 1.6, .across = 0.4,    \
    .along_px = 1.5

#endif
