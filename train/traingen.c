/* traingen.c: kifucam-traingen, the training data of the learned point reader
 * (train/README.md has the recipe). It writes the boards exactly as the reader sees
 * them: vis_board_view of the photo under a grid, with a label per point.
 *
 *   kifucam-traingen render --out FILE --count N [--seed S] [--misalign P] [--views V]
 *                           [--max-samples M] [--knocked 0..3] [--ring-hands 0|1]
 *                           [--far-shift L]
 *       N renders (render/ with --variety: any wood, plastic and printed boards, stones of
 *       other shades, any light, glare, blur, steep views, crowded and sparse positions,
 *       hands and sleeves, boards cut off by the frame, JPEG), V views of each scene (default 3); with
 *       probability P each view is also written under a wrong grid (misalign()); at most
 *       M samples in all (a stream cut short, the same first M samples); --knocked 1: the
 *       positions of stones_knocked (stones knocked halfway to a neighbour, on neither
 *       point), the v4 candidate's; 2: the same stones, the knocked one's two points
 *       labelled covered (a stone there that no point can be read as: unsure, so a photo
 *       count asks for it; the "k2" trial); 3: stones pushed off their points by up to
 *       0.49 of a cell into an empty neighbour or off the board, labelled on their own
 *       point, as the photos' labels have them (the "p3" trial); 0 (default) those of the
 *       shipped weights;
 *       --ring-hands 1: each view under its true grid also labels the ring of blocks
 *       around the board (covered where a hand or arm lies over the block's centre or it
 *       is outside the picture, else off), so that a reader learns an arm on the border;
 *       0 (default): no ring labels, the shipped weights' data;
 *       --far-shift L (1 to 6): wrong grids also moved by 1 to L whole lines (misalign());
 *       1 (default): at most one line and a fraction, the shipped weights' data
 *   kifucam-traingen photos --data DATA_DIR --folds FOLDS --out FILE [--copies K]
 *                           [--misaligned M] [--stone-size 0|1] [--far-shift L]
 *       roboflow-stones (CC BY 4.0): the grid found by vis_detect, kept only when the
 *       labelled stones agree with it (every stone within 0.45 of a point, no point
 *       with two); K jittered copies of each (default 6), M under wrong grids;
 *       --stone-size 1: kept only when the grid also explains the stones' size (their
 *       boxes' median width within a factor of sqrt(2) of one spacing: a grid at half
 *       the board's spacing fits a few stones' positions, never their size); 0 (default)
 *       as the shipped weights' data; --far-shift L: the wrong grids as render's
 *   kifucam-traingen pseudo --data DATA_DIR --folds FOLDS --model M.onnx --out FILE
 *                           [--copies K] [--sure P]
 *       roboflow-corners (CC BY 4.0; its labels are the board's four corners, no stones):
 *       each photo read as a photo by reader M, kept when its grid lies within
 *       PSEUDO_CORNER_MAX of the labelled corners, its points labelled with M's own
 *       reading where M is at least P sure (default 0.98), unknown elsewhere, covered
 *       outside the picture ("pseudo labels"); K jittered copies (default 6). The photos
 *       carry their folds (folds.tsv): a fold's model is trained on the other folds' photos
 *       labelled by a model that never saw that fold (the "pl" trial, vision/model/README.md)
 *   kifucam-traingen negatives --out FILE [--count N] [--seed S]
 *       N views of no board (pages of text, blobs, noise; default 600), every point off
 *
 * The file: "KCTS" and a version (int32 1), then samples, each a header of 8 int32
 * (size, cell_px, margin, kind 0 render / 1 photo, fold (-1 for renders), source index,
 * view side in pixels, ring: 1 when the ring's labels follow, else 0), the view
 * (side x side x 3 bytes, BGR) and size*size labels:
 * 0 empty, 1 black, 2 white, 3 covered (a hand or arm over the point's stone centre, or
 * outside the picture), 4 off (the grid is wrong: no board point there), 255 unknown (a
 * stone half off its point: left out of the loss; with --knocked, one 0.4 to 0.47 of a
 * cell off, and one knocked halfway to a neighbour is on neither point: both empty, or
 * with --knocked 2 both covered);
 * with ring 1, then 4*size+4 labels of the margin ring (3 covered, 4 off), row by row as
 * vis_reading_t holds it: size+2 blocks above the board, a left and a right block for
 * each row of points, size+2 below.
 * Deterministic for a seed. Progress on stderr.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_render.h"
#include "tests/vision/roboflow_util.h"
#include "vision/vis.h"
#include "vision/vis_homog.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define CELL_PX 16
#define MARGIN 1
#define NO_SAMPLE_CAP 2000000000L /* --max-samples unset */
#define LBL_COVERED 3
#define LBL_OFF 4 /* the grid is wrong here: no point of the board lies at this view point */
#define LBL_UNKNOWN 255

/* One sample; ring (4*size+4 labels, may be NULL: none) follows the labels. */
static int write_sample_ring(FILE *f, int size, int kind, int fold, int src,
                             const cvb_image_t *view, const uint8_t *labels, const uint8_t *ring)
{
    int32_t hdr[8] = { size, CELL_PX, MARGIN, kind, fold, src, view->w, ring != NULL };
    if (fwrite(hdr, sizeof hdr, 1, f) != 1)
        return -1;
    for (int y = 0; y < view->h; y++)
        if (fwrite(view->data + (size_t)y * view->stride, (size_t)view->w * 3, 1, f) != 1)
            return -1;
    if (fwrite(labels, (size_t)size * size, 1, f) != 1)
        return -1;
    return !ring || fwrite(ring, 4 * (size_t)size + 4, 1, f) == 1 ? 0 : -1;
}

static int write_sample(FILE *f, int size, int kind, int fold, int src, const cvb_image_t *view,
                        const uint8_t *labels)
{
    return write_sample_ring(f, size, kind, fold, src, view, labels, NULL);
}

/* 1 when board point (col, row), at height z, is hidden in the picture (w x h): outside
 * it, or under the hand mask; (col, row) may lie off the grid (the margin ring). */
static int hidden_at(const rnd_renderer_t *r, int col, int row, double z, int shake_x,
                     int shake_y, const uint8_t *mask, int w, int h)
{
    double wp[3], px, py;
    rnd_renderer_point_world(r, col, row, &wp[0], &wp[1]);
    wp[2] = z;
    if (rnd_renderer_project(r, wp, shake_x, shake_y, &px, &py))
        return 1;
    int ix = (int)lround(px), iy = (int)lround(py);
    return ix < 0 || iy < 0 || ix >= w || iy >= h || mask[(size_t)iy * w + ix];
}

/* The ring's labels of a render (--ring-hands 1): each block of the margin ring around
 * the n x n board, in vis_reading_t's order, covered where its centre on the board's
 * plane is hidden (hidden_at), else off. */
static void ring_labels(const rnd_renderer_t *r, int n, double top, int shake_x, int shake_y,
                        const uint8_t *mask, int w, int h, uint8_t *ring)
{
    int O = n + 2, k = 0;
    for (int j = 0; j < O; j++)
        for (int i = 0; i < O; i++) {
            int col = i - 1, row = j - 1;
            if (col >= 0 && row >= 0 && col < n && row < n)
                continue;
            ring[k++] = hidden_at(r, col, row, top, shake_x, shake_y, mask, w, h) ? LBL_COVERED
                                                                                  : LBL_OFF;
        }
}

/* Corners moved by a Gaussian of sigma spacings (a grid found a little off). */
static void jitter_corners(rnd_rng_t *rng, double c[4][2], int size, double sigma)
{
    double per = 0;
    for (int k = 0; k < 4; k++)
        per += hypot(c[k][0] - c[(k + 1) % 4][0], c[k][1] - c[(k + 1) % 4][1]);
    double sp = per / 4 / (size - 1);
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 2; a++)
            c[k][a] += rnd_rng_gauss(rng) * sigma * sp;
}

/* A wrong grid for the same photo (the reader learns to tell a grid that is not the
 * board's): the true board coordinates b = T(v) of each view point v, T one of a shift
 * by a fraction of a cell, another spacing (a 13 or 9 grid over a 19 board and the
 * like), a turn, or anywhere in the picture. Writes the wrong corners and, per view
 * point, its label: the true point's when T lands within 0.15 of one (a shift by whole
 * cells reads true points), LBL_OFF when 0.3 or more from any, unknown between.
 * far_lines above 1 (--far-shift): half the shifts are by whole lines alone, 1 to
 * far_lines along one axis and 0 to far_lines along the other, so that the window's
 * points beyond the board (its margin, the table) are labelled off as far out as board
 * finding moves a grid (grid_shift, the growth to the next size); 1 (default): none,
 * the shipped weights' data (the random stream unchanged). */
static void misalign(rnd_rng_t *rng, const vis_geom_t *truth, const uint8_t *tl, int W, int H,
                     int far_lines, double wc[4][2], uint8_t *labels)
{
    int S = truth->size;
    double T[6]; /* b = (T0 x + T1 y + T2, T3 x + T4 y + T5) */
    double u = rnd_rng_unit(rng), mid = (S - 1) * 0.5;
    if (u < 0.4) {
        int whole = far_lines > 1 && rnd_rng_unit(rng) < 0.5; /* no draw with far_lines 1 */
        double dx, dy;
        if (whole) {
            dx = 1 + rnd_rng_int(rng, far_lines); /* one draw a statement: their order fixed */
            dx *= rnd_rng_unit(rng) < 0.5 ? -1 : 1;
            dy = rnd_rng_int(rng, 2 * far_lines + 1) - far_lines;
        } else {
            dx = rnd_rng_range(rng, 0.25, 0.75) * (rnd_rng_unit(rng) < 0.5 ? -1 : 1);
            dy = rnd_rng_unit(rng) < 0.5 ? 0 : rnd_rng_range(rng, -0.75, 0.75);
        }
        if (rnd_rng_unit(rng) < 0.5) {
            double t = dx;
            dx = dy;
            dy = t;
        }
        if (!whole)
            dx += rnd_rng_int(rng, 3) - 1;
        double m[6] = { 1, 0, dx, 0, 1, dy };
        memcpy(T, m, sizeof T);
    } else if (u < 0.65) {
        static const double sc[8] = { 0.5, 0.667, 0.75, 1.333, 1.5, 2.0, 0.444, 0.684 };
        double k = sc[rnd_rng_int(rng, 8)] * rnd_rng_range(rng, 0.97, 1.03);
        double cx = mid + rnd_rng_range(rng, -0.3, 0.3) * S, cy = mid + rnd_rng_range(rng, -0.3, 0.3) * S;
        double m[6] = { k, 0, cx - k * mid, 0, k, cy - k * mid };
        memcpy(T, m, sizeof T);
    } else if (u < 0.8) {
        double a = rnd_rng_range(rng, 6, 45) * M_PI / 180 * (rnd_rng_unit(rng) < 0.5 ? -1 : 1);
        double ca = cos(a), sa = sin(a);
        double m[6] = { ca, -sa, mid - ca * mid + sa * mid, sa, ca, mid - sa * mid - ca * mid };
        memcpy(T, m, sizeof T);
    } else {
        T[0] = T[4] = 1;
        T[1] = T[2] = T[3] = T[5] = 0;
    }
    double bc[4][2] = { { 0, 0 }, { S - 1, 0 }, { S - 1, S - 1 }, { 0, S - 1 } };
    for (int k = 0; k < 4; k++) {
        double bx = T[0] * bc[k][0] + T[1] * bc[k][1] + T[2];
        double by = T[3] * bc[k][0] + T[4] * bc[k][1] + T[5];
        vis_homog_apply(truth->H, bx, by, &wc[k][0], &wc[k][1]);
    }
    if (u >= 0.8) { /* anywhere: a quad of random size and place in the picture */
        double cx = rnd_rng_range(rng, 0.2, 0.8) * W, cy = rnd_rng_range(rng, 0.2, 0.8) * H;
        double r = rnd_rng_range(rng, 0.1, 0.45) * (W < H ? W : H), a = rnd_rng_range(rng, 0, 6.3);
        for (int k = 0; k < 4; k++) {
            double ak = a + k * M_PI / 2 + rnd_rng_range(rng, -0.15, 0.15);
            double rk = r * rnd_rng_range(rng, 0.85, 1.15);
            wc[k][0] = cx + rk * cos(ak);
            wc[k][1] = cy + rk * sin(ak);
        }
    }
    vis_geom_t wg;
    if (vis_geom_from_corners(wc, S, W, H, &wg)) {
        memset(labels, LBL_UNKNOWN, (size_t)S * S);
        return;
    }
    for (int p = 0; p < S * S; p++) {
        double bx, by;
        if (vis_homog_apply(truth->Hinv, wg.px[p], wg.py[p], &bx, &by)) {
            labels[p] = LBL_OFF;
            continue;
        }
        int x = (int)lround(bx), y = (int)lround(by);
        double d = fmax(fabs(bx - x), fabs(by - y));
        int onb = x >= 0 && y >= 0 && x < S && y < S;
        if (wg.px[p] < 0 || wg.py[p] < 0 || wg.px[p] > W - 1 || wg.py[p] > H - 1)
            labels[p] = LBL_COVERED; /* outside the picture */
        else if (onb && d <= 0.15)
            labels[p] = tl[y * S + x];
        else if (d >= 0.3 || !onb)
            labels[p] = LBL_OFF;
        else
            labels[p] = LBL_UNKNOWN;
    }
}

/* ---------------------------------------------------------------- renders */

/* The stones of a position as the shipped weights (v2) were trained: density from sparse
 * to a finished board, colours in patches (groups), now and then a stone pushed half off
 * its point (its label unknown). */
static int stones_v2(rnd_rng_t *rng, const rnd_renderer_t *r, int n, rnd_stone_t *st,
                     uint8_t *labels)
{
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    double u = rnd_rng_unit(rng);
    double d = u < 0.2 ? rnd_rng_range(rng, 0, 0.15) : u < 0.65 ? rnd_rng_range(rng, 0.15, 0.55)
                                                         : rnd_rng_range(rng, 0.55, 0.92);
    /* a smooth field decides the colour, so stones of a colour form groups */
    double fx[4], fy[4], ph[4];
    for (int k = 0; k < 4; k++) {
        fx[k] = rnd_rng_range(rng, -0.6, 0.6);
        fy[k] = rnd_rng_range(rng, -0.6, 0.6);
        ph[k] = rnd_rng_range(rng, 0, 6.3);
    }
    double mixc = rnd_rng_range(rng, 0.2, 1.0); /* 1: colours at random, 0: by the field */
    double jit = rnd_rng_range(rng, 0.02, 0.14);
    int ns = 0;
    for (int p = 0; p < n * n; p++) {
        labels[p] = 0;
        if (rnd_rng_unit(rng) >= d)
            continue;
        int x = p % n, y = p / n;
        double f = 0;
        for (int k = 0; k < 4; k++)
            f += sin(fx[k] * x + fy[k] * y + ph[k]);
        int col = rnd_rng_unit(rng) < mixc ? 1 + rnd_rng_int(rng, 2) : (f > 0 ? 1 : 2);
        double wx, wy, ox = rnd_rng_gauss(rng) * jit, oy = rnd_rng_gauss(rng) * jit;
        int off = rnd_rng_unit(rng) < 0.02;
        if (off) { /* half off its point */
            double a = rnd_rng_range(rng, 0, 6.3);
            ox = 0.45 * cos(a);
            oy = 0.45 * sin(a);
        }
        rnd_renderer_point_world(r, x + ox, y + oy, &wx, &wy);
        st[ns].x = (float)wx;
        st[ns].y = (float)wy;
        st[ns].z = (float)g->top;
        st[ns].color = (uint8_t)col;
        st[ns].grain = (float)rnd_rng_range(rng, 0, 3.14);
        ns++;
        labels[p] = off ? LBL_UNKNOWN : (uint8_t)col;
    }
    return ns;
}

/* The stones of a position with --knocked (the v4 candidate, not shipped: vision/model/
 * README.md): the same density and colours, and a stone counts on a point when its centre lies
 * within 0.4 of a cell of it (placement jitter; the photos' labels allow 0.45); one
 * knocked about halfway to an empty neighbour (0.47 to 0.55 of a cell, as a hand bumps
 * it: the footage's RND_EV_BUMP) is on neither point, both labelled empty, so the reader
 * says "gone" and the station asks for it to be put back (mode 1), or both labelled
 * covered, so the reader says "something here I cannot read" (mode 2); one 0.4 to 0.47
 * off, towards anywhere, is left unknown. Mode 3 (the p3 trial) has none of those: a
 * share of the stones pushed 0.25-0.49 of a cell towards an empty neighbour or off the
 * board, labelled on their own point, the jitter's tail beyond 0.45 unknown. */
#define BUMP_SHARE 0.03      /* stones knocked halfway to an empty neighbour */
#define HALF_OFF_SHARE 0.015 /* stones 0.4..0.47 off their point: unknown */
static int stones_knocked(rnd_rng_t *rng, const rnd_renderer_t *r, int n, rnd_stone_t *st,
                          uint8_t *labels, int mode)
{
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    int knocked_at[2 * VIS_MAX_POINTS], nk = 0; /* mode 2: the points labelled covered */
    double u = rnd_rng_unit(rng);
    double d = u < 0.2 ? rnd_rng_range(rng, 0, 0.15) : u < 0.65 ? rnd_rng_range(rng, 0.15, 0.55)
                                                         : rnd_rng_range(rng, 0.55, 0.92);
    /* a smooth field decides the colour, so stones of a colour form groups */
    double fx[4], fy[4], ph[4];
    for (int k = 0; k < 4; k++) {
        fx[k] = rnd_rng_range(rng, -0.6, 0.6);
        fy[k] = rnd_rng_range(rng, -0.6, 0.6);
        ph[k] = rnd_rng_range(rng, 0, 6.3);
    }
    double mixc = rnd_rng_range(rng, 0.2, 1.0); /* 1: colours at random, 0: by the field */
    double jit = rnd_rng_range(rng, 0.02, 0.14);
    /* pass 1: which points hold a stone, and of which colour */
    uint8_t col[VIS_MAX_POINTS] = { 0 };
    for (int p = 0; p < n * n; p++) {
        col[p] = 0;
        if (rnd_rng_unit(rng) >= d)
            continue;
        int x = p % n, y = p / n;
        double f = 0;
        for (int k = 0; k < 4; k++)
            f += sin(fx[k] * x + fy[k] * y + ph[k]);
        col[p] = (uint8_t)(rnd_rng_unit(rng) < mixc ? 1 + rnd_rng_int(rng, 2) : (f > 0 ? 1 : 2));
    }
    /* mode 3: the share of this position's stones pushed off their points (a crowded,
     * played-out board: none on a third of the positions, up to 40% on others) */
    double push_share = mode != 3 ? 0 : rnd_rng_unit(rng) < 0.33 ? 0 : rnd_rng_range(rng, 0, 0.4);
    /* pass 2: where each stone lies; a knocked stone leans into an empty neighbour, which
     * no other stone may then use */
    uint8_t taken[VIS_MAX_POINTS];
    memcpy(taken, col, (size_t)n * n);
    int ns = 0;
    for (int p = 0; p < n * n; p++) {
        labels[p] = col[p];
        if (!col[p])
            continue;
        int x = p % n, y = p / n;
        double ox = rnd_rng_gauss(rng) * jit, oy = rnd_rng_gauss(rng) * jit;
        double v = rnd_rng_unit(rng);
        if (mode == 3) {
            /* pushed: leans 0.25 to 0.49 of a cell into an empty neighbour (or off the
             * board's edge), still nearest its own point: labelled there */
            int dir = rnd_rng_int(rng, 4), dx = dir == 0 ? 1 : dir == 1 ? -1 : 0,
                dy = dir == 2 ? 1 : dir == 3 ? -1 : 0, qx = x + dx, qy = y + dy;
            int inside = qx >= 0 && qy >= 0 && qx < n && qy < n;
            if (v < push_share && (!inside || !taken[qy * n + qx])) {
                double a = atan2(dy, dx) + rnd_rng_range(rng, -0.3, 0.3);
                double l = rnd_rng_range(rng, 0.25, 0.49);
                ox = l * cos(a);
                oy = l * sin(a);
                if (inside)
                    taken[qy * n + qx] = 1;
            } else if (hypot(ox, oy) > 0.45) {
                labels[p] = LBL_UNKNOWN; /* the jitter's tail */
            }
        } else if (v < BUMP_SHARE) {
            int dx = rnd_rng_int(rng, 3) - 1, dy = rnd_rng_int(rng, 3) - 1;
            int qx = x + dx, qy = y + dy;
            if ((dx || dy) && qx >= 0 && qy >= 0 && qx < n && qy < n && !taken[qy * n + qx]) {
                double a = atan2(dy, dx) + rnd_rng_range(rng, -0.25, 0.25);
                double l = rnd_rng_range(rng, 0.47, 0.55);
                ox = l * cos(a);
                oy = l * sin(a);
                taken[qy * n + qx] = 1;
                labels[p] = 0; /* on neither point */
                knocked_at[nk++] = p;
                knocked_at[nk++] = qy * n + qx;
            }
        } else if (v < BUMP_SHARE + HALF_OFF_SHARE) {
            double a = rnd_rng_range(rng, 0, 6.3), l = rnd_rng_range(rng, 0.4, 0.47);
            ox = l * cos(a);
            oy = l * sin(a);
            labels[p] = LBL_UNKNOWN;
        } else if (hypot(ox, oy) > 0.4) {
            labels[p] = LBL_UNKNOWN; /* the jitter's tail */
        }
        double wx, wy;
        rnd_renderer_point_world(r, x + ox, y + oy, &wx, &wy);
        st[ns].x = (float)wx;
        st[ns].y = (float)wy;
        st[ns].z = (float)g->top;
        st[ns].color = col[p];
        st[ns].grain = (float)rnd_rng_range(rng, 0, 3.14);
        ns++;
    }
    for (int k = 0; mode == 2 && k < nk; k++) /* after the pass: a neighbour comes later */
        labels[knocked_at[k]] = LBL_COVERED;
    return ns;
}

/* A position: its stones (stones_v2, or stones_knocked with --knocked), then captured
 * stones on the table beside the board. */
static int make_position(rnd_rng_t *rng, const rnd_renderer_t *r, int n, rnd_stone_t *st,
                         uint8_t *labels, int knocked)
{
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    int ns = knocked ? stones_knocked(rng, r, n, st, labels, knocked) : stones_v2(rng, r, n, st, labels);
    /* captured stones on the table beside the board */
    int nt = rnd_rng_unit(rng) < 0.3 ? 1 + rnd_rng_int(rng, 6) : 0;
    for (int k = 0; k < nt; k++) {
        double side = rnd_rng_unit(rng) < 0.5 ? -1 : 1;
        st[ns].x = (float)(rnd_rng_range(rng, -g->half_w, g->half_w));
        st[ns].y = (float)(side * (g->half_h + rnd_rng_range(rng, 15, 60)));
        st[ns].z = 0;
        st[ns].color = (uint8_t)(1 + rnd_rng_int(rng, 2));
        st[ns].grain = 0;
        ns++;
    }
    return ns;
}

/* Hands over the board: none, one, sometimes two, from either seat, hovering or resting,
 * one in three carrying a stone. */
static int make_hands(rnd_rng_t *rng, const rnd_renderer_t *r, rnd_hand_t *h)
{
    const rnd_geometry_t *g = rnd_renderer_geometry(r);
    double u = rnd_rng_unit(rng);
    int nh = u < 0.5 ? 0 : u < 0.9 ? 1 : 2;
    for (int k = 0; k < nh; k++) {
        int seat = 1 + rnd_rng_int(rng, 2);
        double sgn = seat == 1 ? 1 : -1;
        memset(&h[k], 0, sizeof h[k]);
        h[k].active = 1;
        h[k].seat = seat;
        h[k].tip[0] = (float)rnd_rng_range(rng, -g->half_w, g->half_w);
        h[k].tip[1] = (float)rnd_rng_range(rng, -g->half_h, g->half_h);
        h[k].tip[2] = (float)(g->top + g->stone_h + rnd_rng_range(rng, 2, 90));
        h[k].shoulder[0] = (float)(-sgn * rnd_rng_range(rng, 0, 300) + rnd_rng_range(rng, -150, 150));
        h[k].shoulder[1] = (float)(sgn * (g->half_h + rnd_rng_range(rng, 300, 520)));
        h[k].shoulder[2] = (float)(g->top + rnd_rng_range(rng, 250, 500));
        h[k].carry = rnd_rng_unit(rng) < 0.33 ? (uint8_t)(1 + rnd_rng_int(rng, 2)) : 0;
    }
    return nh;
}

static int cmd_render(const char *out, int count, uint64_t seed, double misalign_share, int views,
                      int max_samples, int knocked, int ring_hands, int far_lines)
{
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "kifucam-traingen: %s: cannot write\n", out);
        return 2;
    }
    fwrite("KCTS", 4, 1, f);
    int32_t ver = 1;
    fwrite(&ver, sizeof ver, 1, f);
    static const int frames[6][2] = { { 640, 360 }, { 640, 480 }, { 960, 540 },
                                      { 1280, 720 }, { 800, 800 }, { 1024, 768 } };
    rnd_rng_t rng;
    rnd_rng_seed(&rng, seed * 0x9e3779b97f4a7c15ull + 18);
    rnd_stone_t *st = calloc(VIS_MAX_POINTS + 16, sizeof *st);
    uint8_t *mask = NULL;
    int written = 0, rc = 0;
    for (int i = 0; i < count && !rc && written < max_samples; i += views) {
        rnd_scene_opts_t o;
        rnd_scene_opts_defaults(&o);
        double u = rnd_rng_unit(&rng);
        o.size = u < 0.15 ? 9 : u < 0.3 ? 13 : 19;
        int fk = rnd_rng_int(&rng, 6);
        o.width = frames[fk][0];
        o.height = frames[fk][1];
        o.view = (rnd_view_t)rnd_rng_int(&rng, 3);
        o.light = (rnd_light_t)rnd_rng_int(&rng, RND_LIGHT_COUNT);
        o.seed = seed * 1000003ull + (uint64_t)i;
        o.variety = 1;
        rnd_renderer_t *r = NULL;
        if (rnd_renderer_create(&o, &r)) {
            fprintf(stderr, "kifucam-traingen: scene %d: cannot render\n", i);
            rc = 1;
            break;
        }
        free(mask);
        mask = malloc((size_t)o.width * o.height);
        cvb_image_t img = { 0 }, view = { 0 };
        if (!mask || cvb_image_alloc(&img, o.width, o.height, 3)) {
            rnd_renderer_destroy(r);
            rc = 1;
            break;
        }
        const rnd_geometry_t *g = rnd_renderer_geometry(r);
        int n = o.size;
        for (int v = 0; v < views && i + v < count && !rc && written < max_samples; v++) {
            uint8_t labels[VIS_MAX_POINTS];
            int ns = make_position(&rng, r, n, st, labels, knocked);
            rnd_renderer_set_stones(r, st, ns);
            rnd_hand_t hands[2];
            int nh = make_hands(&rng, r, hands);
            rnd_frame_fx_t fx;
            memset(&fx, 0, sizeof fx);
            fx.shake_x = rnd_rng_int(&rng, 5) - 2;
            fx.shake_y = rnd_rng_int(&rng, 5) - 2;
            fx.gain = rnd_rng_range(&rng, 0.8, 1.2);
            for (int c = 0; c < 3; c++)
                fx.wb[c] = rnd_rng_range(&rng, 0.94, 1.06);
            fx.shadow = rnd_rng_unit(&rng) < 0.2;
            fx.shadow_xy[0] = rnd_rng_range(&rng, -g->half_w, g->half_w);
            fx.shadow_xy[1] = rnd_rng_range(&rng, -g->half_h, g->half_h);
            fx.shadow_r[0] = rnd_rng_range(&rng, 60, 250);
            fx.shadow_r[1] = rnd_rng_range(&rng, 60, 250);
            fx.shadow_depth = rnd_rng_range(&rng, 0.25, 0.75);
            fx.noise_phase = rnd_rng_next(&rng);
            if (rnd_renderer_frame(r, &fx, hands, nh, &img, mask)) {
                rc = 1;
                break;
            }
            if (!nh)
                memset(mask, 0, (size_t)o.width * o.height);
            /* a JPEG, as cameras and phones deliver */
            if (rnd_rng_unit(&rng) < 0.75) {
                uint8_t *jpg = NULL;
                size_t len = 0;
                cvb_image_t dec = { 0 };
                if (!cvb_imencode_jpeg(&img, 30 + rnd_rng_int(&rng, 66), &jpg, &len) &&
                    !cvb_imdecode(jpg, len, &dec)) {
                    cvb_image_free(&img);
                    img = dec;
                }
                free(jpg);
            }
            /* truth per point: covered where a hand hides the stone's centre (as the
             * footage's truth has it) or outside the picture */
            for (int p = 0; p < n * n; p++)
                if (hidden_at(r, p % n, p / n, g->top + g->stone_h * 0.5, fx.shake_x, fx.shake_y,
                              mask, o.width, o.height))
                    labels[p] = LBL_COVERED;
            double c[4][2];
            static const int cc[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
            int bad = 0;
            for (int k = 0; k < 4; k++) {
                double w[3];
                rnd_renderer_point_world(r, cc[k][0] * (n - 1), cc[k][1] * (n - 1), &w[0], &w[1]);
                w[2] = g->top;
                bad |= rnd_renderer_project(r, w, fx.shake_x, fx.shake_y, &c[k][0], &c[k][1]);
            }
            if (rnd_rng_unit(&rng) < 0.7)
                jitter_corners(&rng, c, n, rnd_rng_range(&rng, 0.01, 0.08));
            vis_geom_t geom;
            if (bad || vis_geom_from_corners(c, n, img.w, img.h, &geom) ||
                vis_board_view(&img, &geom, CELL_PX, MARGIN, &view))
                continue;
            uint8_t ring[4 * VIS_MAX_SIZE + 4] = { 0 };
            if (ring_hands)
                ring_labels(r, n, g->top, fx.shake_x, fx.shake_y, mask, img.w, img.h, ring);
            if (write_sample_ring(f, n, 0, -1, i + v, &view, labels, ring_hands ? ring : NULL)) {
                rc = 1;
                break;
            }
            written++;
            if (misalign_share > 0 && rnd_rng_unit(&rng) < misalign_share && written < max_samples) {
                vis_geom_t tg;
                double wc[4][2];
                uint8_t wl[VIS_MAX_POINTS];
                if (vis_geom_from_corners(c, n, img.w, img.h, &tg))
                    continue;
                misalign(&rng, &tg, labels, img.w, img.h, far_lines, wc, wl);
                vis_geom_t wg;
                if (!vis_geom_from_corners(wc, n, img.w, img.h, &wg) &&
                    !vis_board_view(&img, &wg, CELL_PX, MARGIN, &view)) {
                    if (write_sample(f, n, 0, -1, i + v, &view, wl)) {
                        rc = 1;
                        break;
                    }
                    written++;
                }
            }
        }
        cvb_image_free(&img);
        cvb_image_free(&view);
        rnd_renderer_destroy(r);
        /* progress, a line each, named by the file (several streams share one log):
         * the samples against the cap that ends the stream, or the renders asked for */
        if ((i / views) % 25 == 0) {
            if (max_samples < NO_SAMPLE_CAP)
                fprintf(stderr, "kifucam-traingen: %s: %d of %d samples\n", out, written,
                        max_samples);
            else
                fprintf(stderr, "kifucam-traingen: %s: %d of %d renders, %d samples\n", out,
                        i + views < count ? i + views : count, count, written);
        }
    }
    fprintf(stderr, "kifucam-traingen: %d samples written to %s\n", written, out);
    free(st);
    free(mask);
    if (fclose(f) || rc) {
        fprintf(stderr, "kifucam-traingen: %s: write failed\n", out);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- not a board */

/* A view of something that is no board, drawn straight in the board plane (the reader
 * sees only the view), every point labelled off: a page of text (rows of words, often
 * at the grid's own pitch, since board finding then lays a grid along the lines, with
 * letter strokes inside the words), coloured ink now and then; a printed pattern of
 * irregular blobs; noise, raw or smoothed. Never lines crossing at a steady pitch, or a
 * lattice of discs: those are what a board looks like. */
static void paint(cvb_image_t *v, int x0, int y0, int x1, int y1, const uint8_t c[3])
{
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > v->w ? v->w : x1;
    y1 = y1 > v->h ? v->h : y1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            memcpy(v->data + (size_t)y * v->stride + (size_t)x * 3, c, 3);
}

/* *v becomes the image *by (same size: a filter's output), whose pixels it takes. */
static void replace(cvb_image_t *v, cvb_image_t *by)
{
    cvb_image_free(v);
    *v = *by;
    *by = (cvb_image_t){ 0 };
}

static void negative_view(rnd_rng_t *rng, cvb_image_t *v)
{
    int side = v->w;
    double u = rnd_rng_unit(rng);
    uint8_t paper[3], ink[3];
    int pv = 195 + rnd_rng_int(rng, 56);
    for (int c = 0; c < 3; c++)
        paper[c] = (uint8_t)(pv - rnd_rng_int(rng, 20));
    int iv = 15 + rnd_rng_int(rng, 80);
    for (int c = 0; c < 3; c++)
        ink[c] = (uint8_t)(iv + (rnd_rng_unit(rng) < 0.15 ? rnd_rng_int(rng, 120) : rnd_rng_int(rng, 10)));
    if (u < 0.7) { /* a page of text */
        paint(v, 0, 0, side, side, paper);
        double pitch = rnd_rng_unit(rng) < 0.5 ? CELL_PX * (rnd_rng_unit(rng) < 0.7 ? 1.0 : 2.0)
                                               : rnd_rng_range(rng, 0.6, 2.6) * CELL_PX;
        double y0 = rnd_rng_range(rng, 0, pitch);
        int th = (int)lround(pitch * rnd_rng_range(rng, 0.25, 0.7));
        int letters = rnd_rng_unit(rng) < 0.6, lp = 3 + rnd_rng_int(rng, 4);
        int left = rnd_rng_int(rng, side / 4), right = side - rnd_rng_int(rng, side / 4);
        int nrows = (int)ceil((side - y0) / pitch);
        for (int row = 0; row < nrows; row++) {
            double y = y0 + row * pitch;
            if (rnd_rng_unit(rng) < 0.1)
                continue; /* a blank line */
            int x = left + (rnd_rng_unit(rng) < 0.2 ? 2 * lp : 0);
            int end = rnd_rng_unit(rng) < 0.15 ? left + (right - left) / 2 : right;
            while (x < end) {
                int w = 6 + rnd_rng_int(rng, 70);
                int x1 = x + w > end ? end : x + w, y0 = (int)lround(y);
                if (letters) {
                    for (int lx = x; lx < x1; lx += lp) {
                        int lh = th - rnd_rng_int(rng, th / 2 + 1);
                        paint(v, lx, y0 + th - lh, lx + lp - 1, y0 + th, ink);
                    }
                } else {
                    paint(v, x, y0, x1, y0 + th, ink);
                }
                x = x1 + 3 + rnd_rng_int(rng, 10);
            }
        }
    } else if (u < 0.9) { /* irregular blobs */
        paint(v, 0, 0, side, side, paper);
        int nb = 20 + rnd_rng_int(rng, 200);
        for (int k = 0; k < nb; k++) {
            double cx = rnd_rng_range(rng, 0, side), cy = rnd_rng_range(rng, 0, side);
            double r = rnd_rng_range(rng, 2, CELL_PX * 1.5);
            cvb_draw_circle(v, cx, cy, r, ink[0], ink[1], ink[2], -1);
        }
    } else { /* noise: raw, or smoothed into blotches */
        for (int y = 0; y < side; y++)
            for (int i = 0; i < side * 3; i++)
                v->data[(size_t)y * v->stride + (size_t)i] = (uint8_t)(rnd_rng_next(rng) >> 56);
        if (rnd_rng_unit(rng) < 0.5) {
            cvb_image_t b = { 0 };
            if (!cvb_gaussian_blur(v, 0, rnd_rng_range(rng, 1, 6), &b))
                replace(v, &b);
        }
    }
    /* the camera: blur, then a JPEG */
    if (rnd_rng_unit(rng) < 0.6) {
        cvb_image_t b = { 0 };
        if (!cvb_gaussian_blur(v, 0, rnd_rng_range(rng, 0.4, 1.5), &b))
            replace(v, &b);
    }
    if (rnd_rng_unit(rng) < 0.75) {
        uint8_t *jpg = NULL;
        size_t len = 0;
        cvb_image_t dec = { 0 };
        if (!cvb_imencode_jpeg(v, 30 + rnd_rng_int(rng, 66), &jpg, &len) && !cvb_imdecode(jpg, len, &dec))
            replace(v, &dec);
        free(jpg);
    }
}

static int cmd_negatives(const char *out, int count, uint64_t seed)
{
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "kifucam-traingen: %s: cannot write\n", out);
        return 2;
    }
    fwrite("KCTS", 4, 1, f);
    int32_t ver = 1;
    fwrite(&ver, sizeof ver, 1, f);
    rnd_rng_t rng;
    rnd_rng_seed(&rng, seed * 0x9e3779b97f4a7c15ull + 22);
    int rc = 0;
    for (int i = 0; i < count && !rc; i++) {
        double u = rnd_rng_unit(&rng);
        int n = u < 0.15 ? 9 : u < 0.3 ? 13 : 19, side = (n + 2 * MARGIN) * CELL_PX;
        cvb_image_t v = { 0 };
        uint8_t labels[VIS_MAX_POINTS];
        if (cvb_image_alloc(&v, side, side, 3)) {
            rc = 1;
            break;
        }
        negative_view(&rng, &v);
        memset(labels, LBL_OFF, (size_t)n * n);
        rc = write_sample(f, n, 0, -1, i, &v, labels);
        cvb_image_free(&v);
        if (i % 100 == 0)
            fprintf(stderr, "\rkifucam-traingen: %d of %d views of no board", i, count);
    }
    fprintf(stderr, "\rkifucam-traingen: %d views of no board written to %s\n", count, out);
    if (fclose(f) || rc) {
        fprintf(stderr, "kifucam-traingen: %s: write failed\n", out);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- real photos */

/* A photo's view under grid g and copies more under g jittered (corners moved by 0.01 to
 * 0.07 of a spacing), each written with labels as photo src of its fold; view is the
 * caller's scratch. 0, or the write's error. */
static int write_copies(FILE *f, rnd_rng_t *rng, const cvb_image_t *img, const vis_geom_t *g,
                        const uint8_t *labels, int copies, int fold, int src, cvb_image_t *view)
{
    int rc = 0;
    for (int k = 0; k <= copies && !rc; k++) {
        double c[4][2];
        memcpy(c, g->corners, sizeof c);
        if (k)
            jitter_corners(rng, c, g->size, rnd_rng_range(rng, 0.01, 0.07));
        vis_geom_t gj;
        if (vis_geom_from_corners(c, g->size, img->w, img->h, &gj) ||
            vis_board_view(img, &gj, CELL_PX, MARGIN, view))
            continue;
        rc = write_sample(f, g->size, 1, fold, src, view, labels);
    }
    return rc;
}

/* Labels of the points of geom from the stone boxes; -1 when the boxes disagree with the
 * grid. A stone within 0.45 of a point labels it; one further off (0.45..0.75), or two on
 * one point, make that point unknown; a stone well beyond the board (a captured stone on
 * the table) is no point's. More than 3% of the stones so (plus one) and the grid is
 * taken to be wrong. Points outside the picture are covered. */
static int photo_labels(const vis_geom_t *g, const rf_box_t *b, int nb, int w, int h,
                        uint8_t *labels)
{
    int S = g->size, odd = 0;
    memset(labels, 0, (size_t)S * S);
    uint8_t seen[VIS_MAX_POINTS] = { 0 };
    for (int k = 0; k < nb; k++) {
        double bx, by;
        if ((b[k].cls != 0 && b[k].cls != 1) ||
            vis_homog_apply(g->Hinv, b[k].cx * w, b[k].cy * h, &bx, &by))
            return -1;
        int x = (int)lround(bx), y = (int)lround(by);
        if (bx < -0.75 || by < -0.75 || bx > S - 0.25 || by > S - 0.25) {
            odd += bx > -1.5 && by > -1.5 && bx < S + 0.5 && by < S + 0.5; /* at the edge */
            continue;
        }
        x = x < 0 ? 0 : x >= S ? S - 1 : x;
        y = y < 0 ? 0 : y >= S ? S - 1 : y;
        int p = y * S + x;
        double d = fmax(fabs(bx - x), fabs(by - y));
        if (d > 0.45 || seen[p]) {
            labels[p] = LBL_UNKNOWN;
            odd++;
        } else {
            labels[p] = (uint8_t)(b[k].cls == 0 ? 1 : 2);
        }
        seen[p] = 1;
    }
    if (odd > 1 + nb * 3 / 100)
        return -1;
    for (int p = 0; p < S * S; p++)
        if (g->px[p] < 0 || g->py[p] < 0 || g->px[p] > w - 1 || g->py[p] > h - 1)
            labels[p] = LBL_COVERED;
    return 0;
}

/* The median width of the stone boxes in spacings of grid g (a stone is about 0.95 of a
 * spacing wide); 0 without boxes. A grid at half the board's spacing makes it about 2, one
 * at twice about 0.5. */
static double stone_width(const vis_geom_t *g, const rf_box_t *b, int nb, int w, int h)
{
    double v[RF_MAX_BOXES];
    int n = 0;
    for (int k = 0; k < nb && n < RF_MAX_BOXES; k++) {
        double x0, y0, x1, y1;
        if (vis_homog_apply(g->Hinv, (b[k].cx - b[k].w / 2) * w, b[k].cy * h, &x0, &y0) ||
            vis_homog_apply(g->Hinv, (b[k].cx + b[k].w / 2) * w, b[k].cy * h, &x1, &y1))
            continue;
        v[n++] = hypot(x1 - x0, y1 - y0);
    }
    for (int i = 1; i < n; i++) /* insertion sort, for the median */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[n / 2] : 0;
}

/* Stone widths (stone_width) a grid is kept with under --stone-size 1: within a factor of
 * sqrt(2) of one spacing, half way (in ratio) to a grid of half or twice the spacing. */
#define STONE_WIDTH_MIN 0.71
#define STONE_WIDTH_MAX 1.41

static int cmd_photos(const char *data, const char *folds, const char *out, int copies,
                      int misaligned, int stone_size, int far_lines)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/photos/roboflow-stones", data);
    rf_entry_t *e = calloc(512, sizeof *e);
    rf_box_t *b = calloc(RF_MAX_BOXES, sizeof *b);
    int n = e && b ? rf_list(dir, e, 512) : -1;
    FILE *f = n >= 0 ? fopen(out, "wb") : NULL;
    if (!f) {
        fprintf(stderr, "kifucam-traingen: %s: cannot read, or %s: cannot write\n", dir, out);
        free(e);
        free(b);
        return 2;
    }
    fwrite("KCTS", 4, 1, f);
    int32_t ver = 1;
    fwrite(&ver, sizeof ver, 1, f);
    rnd_rng_t rng;
    rnd_rng_seed(&rng, 1818);
    int used = 0, refused = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        int fold = rf_fold(folds, "roboflow-stones", e[i].source);
        int nb = rf_read_boxes(e[i].label, b, RF_MAX_BOXES);
        cvb_image_t img = { 0 }, view = { 0 };
        if (fold < 0 || nb < 0 || cvb_imread(e[i].image, 1, &img)) {
            fprintf(stderr, "kifucam-traingen: %s: no fold, labels or image\n", e[i].name);
            continue;
        }
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        uint8_t labels[VIS_MAX_POINTS];
        /* the grid as board finding's lines give it, without the reader's judgement: the
         * training data must not depend on a model */
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        cfg.grid_candidates = 0;
        cfg.grid_min_belief = 0;
        double sw = 0;
        if (vis_detect(&img, &cfg, 0, &g, &s, NULL) || photo_labels(&g, b, nb, img.w, img.h, labels) ||
            (stone_size && nb > 0 &&
             ((sw = stone_width(&g, b, nb, img.w, img.h)) < STONE_WIDTH_MIN || sw > STONE_WIDTH_MAX))) {
            if (sw > 0)
                fprintf(stderr, "kifucam-traingen: %s: stones %.2f spacings wide under the grid "
                                "found: refused\n", e[i].source, sw);
            refused++;
            cvb_image_free(&img);
            continue;
        }
        rc = write_copies(f, &rng, &img, &g, labels, copies, fold, i, &view);
        for (int k = 0; k < misaligned && !rc; k++) {
            double wc[4][2];
            uint8_t wl[VIS_MAX_POINTS];
            misalign(&rng, &g, labels, img.w, img.h, far_lines, wc, wl);
            vis_geom_t wg;
            if (!vis_geom_from_corners(wc, g.size, img.w, img.h, &wg) &&
                !vis_board_view(&img, &wg, CELL_PX, MARGIN, &view))
                rc = write_sample(f, g.size, 1, fold, i, &view, wl);
        }
        used++;
        cvb_image_free(&img);
        cvb_image_free(&view);
    }
    fprintf(stderr, "\nkifucam-traingen: %d photos written to %s (%d refused: grid and stones "
                    "disagree)\n", used, out, refused);
    free(e);
    free(b);
    if (fclose(f) || rc) {
        fprintf(stderr, "kifucam-traingen: %s: write failed\n", out);
        return 1;
    }
    return 0;
}

/* Grids of roboflow-corners kept for pseudo labels: every corner within this many
 * spacings of its labelled box's centre (the boxes lie 0.1 inside the corners: a grid a
 * quarter of a spacing off reaches 0.35). */
#define PSEUDO_CORNER_MAX 0.35

static int cmd_pseudo(const char *data, const char *folds, const char *model, const char *out,
                      int copies, double sure)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/photos/roboflow-corners", data);
    rf_entry_t *e = calloc(512, sizeof *e);
    int n = e ? rf_list(dir, e, 512) : -1;
    vis_net_t *net = NULL;
    FILE *f = NULL;
    if (n < 0 || vis_net_load(model, &net) || !(f = fopen(out, "wb"))) {
        fprintf(stderr, "kifucam-traingen: %s or %s: cannot read, or %s: cannot write\n", dir,
                model, out);
        free(e);
        vis_net_destroy(net);
        return 2;
    }
    fwrite("KCTS", 4, 1, f);
    int32_t ver = 1;
    fwrite(&ver, sizeof ver, 1, f);
    rnd_rng_t rng;
    rnd_rng_seed(&rng, 1919);
    int used = 0, refused = 0, rc = 0;
    long sure_n = 0, all_n = 0;
    for (int i = 0; i < n && !rc; i++) {
        int fold = rf_fold(folds, "roboflow-corners", e[i].source);
        rf_box_t b[8];
        int nb = rf_read_boxes(e[i].label, b, 8);
        cvb_image_t img = { 0 }, view = { 0 };
        if (fold < 0 || nb != 4 || cvb_imread(e[i].image, 1, &img)) {
            fprintf(stderr, "kifucam-traingen: %s: no fold, four corners or image\n", e[i].name);
            cvb_image_free(&img);
            continue;
        }
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        cfg.net = net;
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        double c[4][2];
        rf_corners_of(b, img.w, img.h, c);
        if (vis_detect(&img, &cfg, 0, &g, &s, NULL) || g.size != 19 ||
            !(rf_corners_err(&g, c) <= PSEUDO_CORNER_MAX)) {
            refused++;
            cvb_image_free(&img);
            continue;
        }
        uint8_t labels[VIS_MAX_POINTS];
        for (int p = 0; p < g.size * g.size; p++) {
            int out_pic = g.px[p] < 0 || g.py[p] < 0 || g.px[p] > img.w - 1 || g.py[p] > img.h - 1;
            labels[p] = out_pic ? LBL_COVERED
                        : !s.occluded[p] && s.conf[p] >= sure ? (uint8_t)s.color[p]
                                                             : LBL_UNKNOWN;
            sure_n += labels[p] != LBL_UNKNOWN && !out_pic;
            all_n += !out_pic;
        }
        rc = write_copies(f, &rng, &img, &g, labels, copies, fold, 1000 + i, &view);
        used++;
        cvb_image_free(&img);
        cvb_image_free(&view);
    }
    fprintf(stderr, "kifucam-traingen: %d photos written to %s (%d refused: no grid within %.2f "
                    "of the labelled corners); %ld of %ld points labelled (%.0f%% sure)\n",
            used, out, refused, PSEUDO_CORNER_MAX, sure_n, all_n,
            all_n ? 100.0 * sure_n / all_n : 0.0);
    free(e);
    vis_net_destroy(net);
    if (fclose(f) || rc) {
        fprintf(stderr, "kifucam-traingen: %s: write failed\n", out);
        return 1;
    }
    return 0;
}

static const char *arg(int argc, char **argv, const char *name, const char *def)
{
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            return argv[i + 1];
    return def;
}

/* A whole number option's value, or def; -1 when it is no number (strtol, all of it). */
static long arg_long(int argc, char **argv, const char *name, long def)
{
    const char *v = arg(argc, argv, name, NULL);
    if (!v)
        return def;
    char *end;
    long x = strtol(v, &end, 10);
    return *v && !*end ? x : -1;
}

int main(int argc, char **argv)
{
    cvb_quiet();
    if (argc >= 2 && !strcmp(argv[1], "render") && arg(argc, argv, "--out", NULL)) {
        long count = arg_long(argc, argv, "--count", 300), views = arg_long(argc, argv, "--views", 3);
        long max = arg_long(argc, argv, "--max-samples", NO_SAMPLE_CAP);
        const char *mis = arg(argc, argv, "--misalign", "0");
        char *end;
        double misalign = strtod(mis, &end);
        if (count < 1 || views < 1 || max < 1 || *end || !(misalign >= 0 && misalign <= 1)) {
            fprintf(stderr, "kifucam-traingen: --count, --views, --max-samples are whole numbers "
                            "above 0, --misalign 0..1\n");
            return 2;
        }
        long knocked = arg_long(argc, argv, "--knocked", 0);
        long ring_hands = arg_long(argc, argv, "--ring-hands", 0);
        long far = arg_long(argc, argv, "--far-shift", 1);
        if (knocked < 0 || knocked > 3 || (ring_hands != 0 && ring_hands != 1) || far < 1 || far > 6) {
            fprintf(stderr, "kifucam-traingen: --knocked is 0 to 3, --ring-hands 0 or 1, "
                            "--far-shift 1 to 6\n");
            return 2;
        }
        return cmd_render(arg(argc, argv, "--out", NULL), (int)count,
                          strtoull(arg(argc, argv, "--seed", "1"), NULL, 10), misalign, (int)views,
                          (int)max, (int)knocked, (int)ring_hands, (int)far);
    }
    if (argc >= 2 && !strcmp(argv[1], "photos") && arg(argc, argv, "--out", NULL) &&
        arg(argc, argv, "--data", NULL) && arg(argc, argv, "--folds", NULL)) {
        long copies = arg_long(argc, argv, "--copies", 6), mis = arg_long(argc, argv, "--misaligned", 0);
        long ss = arg_long(argc, argv, "--stone-size", 0);
        long far = arg_long(argc, argv, "--far-shift", 1);
        if (copies < 1 || mis < 0 || (ss != 0 && ss != 1) || far < 1 || far > 6) {
            fprintf(stderr, "kifucam-traingen: --copies is a whole number above 0, --misaligned "
                            "one of 0 or more, --stone-size 0 or 1, --far-shift 1 to 6\n");
            return 2;
        }
        return cmd_photos(arg(argc, argv, "--data", NULL), arg(argc, argv, "--folds", NULL),
                          arg(argc, argv, "--out", NULL), (int)copies, (int)mis, (int)ss, (int)far);
    }
    if (argc >= 2 && !strcmp(argv[1], "pseudo") && arg(argc, argv, "--out", NULL) &&
        arg(argc, argv, "--data", NULL) && arg(argc, argv, "--folds", NULL) &&
        arg(argc, argv, "--model", NULL)) {
        long copies = arg_long(argc, argv, "--copies", 6);
        char *end;
        double sure = strtod(arg(argc, argv, "--sure", "0.98"), &end);
        if (copies < 0 || *end || !(sure > 0.5 && sure <= 1)) {
            fprintf(stderr, "kifucam-traingen: --copies is a whole number, --sure over 0.5 "
                            "up to 1\n");
            return 2;
        }
        return cmd_pseudo(arg(argc, argv, "--data", NULL), arg(argc, argv, "--folds", NULL),
                          arg(argc, argv, "--model", NULL), arg(argc, argv, "--out", NULL),
                          (int)copies, sure);
    }
    if (argc >= 2 && !strcmp(argv[1], "negatives") && arg(argc, argv, "--out", NULL)) {
        long count = arg_long(argc, argv, "--count", 600);
        if (count < 1) {
            fprintf(stderr, "kifucam-traingen: --count is a whole number above 0\n");
            return 2;
        }
        return cmd_negatives(arg(argc, argv, "--out", NULL), (int)count,
                             strtoull(arg(argc, argv, "--seed", "1"), NULL, 10));
    }
    fprintf(stderr, "usage: kifucam-traingen render --out FILE --count N [--seed S] [--misalign P] [--views V]\n"
                    "                                 [--max-samples M] [--knocked 0..3] [--ring-hands 0|1] [--far-shift L]\n"
                    "       kifucam-traingen photos --data DATA_DIR --folds FOLDS --out FILE [--copies K] [--misaligned M] [--stone-size 0|1] [--far-shift L]\n"
                    "       kifucam-traingen pseudo --data DATA_DIR --folds FOLDS --model M.onnx --out FILE [--copies K] [--sure P]\n"
                    "       kifucam-traingen negatives --out FILE [--count N] [--seed S]\n");
    return 2;
}
