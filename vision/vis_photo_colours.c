/* vis_photo_colours.c: what one photo's own colours tell beside the reader (vis.h,
 * vis_offpoint_params_t and vis_reach_params_t; run by vis_snapshot_from_reading for a
 * photo read with self_fit).
 *
 * Each pixel of the board view is labelled wood, black or white by Gaussians of this
 * photo's own pixels: the wood between the lines of the points read surely empty, the
 * middle of the stones read surely; a pixel is a stone's only when it is plainly not wood
 * (wood_far). These rules read the labels:
 *
 * Stones off their points. The reader reads a point from the block of the view around
 * it; a stone pushed a third to half a cell off its point (crowded real boards, a stone
 * nudged by a sleeve) leaves that block mostly wood, and the point is read empty, often
 * surely.
 * 1. A point read empty whose own cell (nearer it than any other point) holds a disc of
 *    one stone colour (fill), clear of the stones read around it (where each lies: the
 *    centre of the places a disc of its colour fits in its cell), is a candidate; the
 *    disc's centre is the mean of the places it fits.
 * 2. The reader is asked again: the board read under the grid moved by the candidate's
 *    offset, where the stone lies on its point; the stone's colour must be verify of the
 *    colours there.
 * 3. One stone found from two points goes to the one with more room for it.
 * Before them, the other way round: one stone lying between two points, both read as its
 * colour (the reader reads each point from its own block, and half a stone in each).
 * Where a disc of the colour fits in each point's cell tells where its stone lies; two
 * stones' centres lie a stone's width apart (about 0.95 of a cell), so two neighbours
 * whose stones lie within merge of each other are one stone, and the point farther from
 * it is read empty.
 *
 * Something reaching in over the edge. A stone on an edge point ends half a line beyond
 * the edge line; a hand, a sleeve, a cloth of a stone's colour lying on the board comes
 * from further out. An edge point read as a stone whose strip from reach.from to reach.to
 * of a line beyond the edge line (reach.half each way along it) is reach.fill of that
 * colour is asked about: a fingertip holding a white stone, a white cloth, read as
 * stones.
 *
 * A stone unlike the photo's own. A stone read surely whose middle (a disc of
 * unlike.disc) is mostly (unlike.share) far from the Gaussian of the photo's other sure
 * stones of its colour is asked about: a lamp's glare on the wood read as a white stone,
 * a screen's last-move mark. It runs first, on the reader's own calls.
 *
 * Invariants: only points read empty, not covered, get a colour; only a point read as
 * the same stone as its neighbour loses it; only edge stones and stones unlike the
 * photo's own lose confidence otherwise; a point changed gets conf_given (< VIS_SURE_CONF, so
 * vis_point_unsure: the photo asks about it); nothing is read outside the picture (a
 * disc touching the view's padding is no stone; padding counts for no colour); with too
 * few sure pixels of wood, or of both stone colours, nothing is done.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

#define PIXEL_COV_FLOOR 0.0004 /* (0.02 in log units)^2 */
#define MIN_PIXELS 200        /* a colour fitted on fewer sample pixels is not looked for */
#define REACH_MIN_SEEN 20     /* pixels of an edge strip in the picture, to judge it */

void vis_reach_defaults(vis_reach_params_t *p)
{
    p->on = 0;
    p->from = 0.6;
    p->to = 0.95;
    p->half = 0.25;
    p->fill = 0.8;
    p->conf_given = 0.5f;
}

void vis_unlike_defaults(vis_unlike_params_t *p)
{
    p->on = 0;
    p->disc = 0.3;
    p->far = 16;
    p->share = 0.85;
    p->conf_given = 0.5f;
}

void vis_offpoint_defaults(vis_offpoint_params_t *p)
{
    p->on = 0;
    p->disc = 0.36;
    p->fill = 0.95;
    p->clear = 0.75;
    p->wood_far = 16;
    p->verify = 0.5;
    p->conf_given = 0.5f;
    p->merge = 0.35;
}

/* A pixel's colour feature (vis_colour_feature) of the 3x3 mean around view pixel (x, y)
 * (JPEG, wood grain); (x, y) at least a pixel inside the view. */
static void pixel_feature(const cvb_image_t *v, int x, int y, double f[3])
{
    float m[3] = { 0, 0, 0 };
    vis_mean3x3(v, x, y, m);
    vis_colour_feature(m[0], m[1], m[2], f);
}

/* Each view pixel's colour: GO_EMPTY, GO_BLACK, GO_WHITE by Gaussians of this photo's own
 * pixels (the wood between the lines of the points read surely empty, the middle of the
 * stones read surely), or 255 where the view shows no picture. -1 when the photo has too
 * few sure points of wood, or of both stone colours, to fit. */
static int label_pixels(const cvb_image_t *img, const vis_geom_t *geom, const cvb_image_t *v,
                        const vis_snapshot_t *s, double wood_far, uint8_t *lab)
{
    int W = v->w, Hh = v->h, P = VIS_NET_CELL_PX, M = VIS_NET_MARGIN, S = s->size;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            double bx, by, px, py;
            vis_view_to_board(P, M, x, y, &bx, &by);
            lab[(size_t)y * W + x] =
                vis_homog_apply(geom->H, bx, by, &px, &py) || !vis_in_picture(img, px, py, 1) ||
                        x < 1 || y < 1 || x > W - 2 || y > Hh - 2
                    ? 255
                    : 0;
        }
    /* fit: per colour the mean and covariance of the sample pixels */
    double mean[3][3] = { { 0 } }, cov[3][6] = { { 0 } };
    long n[3] = { 0, 0, 0 };
    int r = (int)(0.3 * P), lo = (int)(0.15 * P), hi = (int)(0.35 * P);
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < S * S; k++) {
            if (s->occluded[k] || s->conf[k] < VIS_SURE_CONF)
                continue;
            int c = s->color[k], cx = (k % S + M) * P + P / 2, cy = (k / S + M) * P + P / 2;
            for (int dy = -hi; dy <= hi; dy++)
                for (int dx = -hi; dx <= hi; dx++) {
                    int take = c == GO_EMPTY ? abs(dx) >= lo && abs(dy) >= lo /* off the lines */
                                             : dx * dx + dy * dy <= r * r;
                    if (!take || lab[(size_t)(cy + dy) * W + cx + dx] == 255)
                        continue;
                    double f[3];
                    pixel_feature(v, cx + dx, cy + dy, f);
                    if (pass == 0) {
                        for (int a = 0; a < 3; a++)
                            mean[c][a] += f[a];
                        n[c]++;
                    } else {
                        double d[3] = { f[0] - mean[c][0], f[1] - mean[c][1], f[2] - mean[c][2] };
                        vis_sym3_add_outer(cov[c], d);
                    }
                }
        }
        for (int c = 0; pass == 0 && c < 3; c++)
            for (int a = 0; a < 3; a++)
                mean[c][a] /= n[c] ? (double)n[c] : 1;
    }
    double inv[3][6], logdet[3];
    int ok[3];
    for (int c = 0; c < 3; c++) {
        for (int a = 0; a < 6; a++)
            cov[c][a] /= n[c] ? (double)n[c] : 1;
        cov[c][0] += PIXEL_COV_FLOOR;
        cov[c][3] += PIXEL_COV_FLOOR;
        cov[c][5] += PIXEL_COV_FLOOR;
        ok[c] = n[c] >= MIN_PIXELS && !vis_sym3_inv(cov[c], inv[c], &logdet[c]);
    }
    if (!ok[GO_EMPTY] || (!ok[GO_BLACK] && !ok[GO_WHITE]))
        return -1;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *o = lab + (size_t)y * W + x;
            if (*o == 255)
                continue;
            double f[3], d[3], best = -1e300;
            pixel_feature(v, x, y, f);
            for (int a = 0; a < 3; a++)
                d[a] = f[a] - mean[GO_EMPTY][a];
            *o = GO_EMPTY;
            if (vis_sym3_quad(inv[GO_EMPTY], d) < wood_far)
                continue; /* plainly wood */
            for (int c = 0; c < 3; c++) {
                if (!ok[c])
                    continue;
                for (int a = 0; a < 3; a++)
                    d[a] = f[a] - mean[c][a];
                double ll = -0.5 * (vis_sym3_quad(inv[c], d) + logdet[c]);
                if (ll > best) {
                    best = ll;
                    *o = (uint8_t)c;
                }
            }
        }
    return 0;
}

/* The places in point k's cell (nearer it than any other point, on the board), a pixel
 * apart, where a disc of rad pixels of the labelled view lab (vw wide) is at least fill of
 * one stone colour; with at (clear > 0), only places at least clear cells from every
 * neighbouring stone read of s, as at places them. Per colour: how many (n) and the sums
 * of their board coordinates (sx, sy). */
static void disc_fits(const uint8_t *lab, int vw, const vis_snapshot_t *s, int k, int rad,
                      double fill, double clear, float (*at)[2], int n[3], double sx[3],
                      double sy[3])
{
    int S = s->size, P = VIS_NET_CELL_PX, M = VIS_NET_MARGIN, reach = (P - 1) / 2;
    int kx = k % S, ky = k / S, cx = (kx + M) * P + P / 2, cy = (ky + M) * P + P / 2;
    for (int c = 0; c < 3; c++) {
        n[c] = 0;
        sx[c] = sy[c] = 0;
    }
    for (int oy = -reach; oy <= reach; oy++)
        for (int ox = -reach; ox <= reach; ox++) {
            double bx = kx + (double)ox / P, by = ky + (double)oy / P;
            if (bx < 0 || by < 0 || bx > S - 1 || by > S - 1)
                continue;
            /* two stones' centres lie a stone apart */
            int ok = 1;
            for (int ny = ky - 1; at && ok && ny <= ky + 1; ny++)
                for (int nx = kx - 1; ok && nx <= kx + 1; nx++) {
                    if (nx < 0 || ny < 0 || nx >= S || ny >= S || (nx == kx && ny == ky))
                        continue;
                    int q = ny * S + nx;
                    if (!s->occluded[q] && s->color[q] != GO_EMPTY)
                        ok = hypot(bx - at[q][0], by - at[q][1]) >= clear;
                }
            if (!ok)
                continue;
            int cnt[3] = { 0, 0, 0 }, tot = 0;
            for (int dy = -rad; dy <= rad && ok; dy++)
                for (int dx = -rad; dx <= rad; dx++) {
                    if (dx * dx + dy * dy > rad * rad)
                        continue;
                    uint8_t l = lab[(size_t)(cy + oy + dy) * vw + (cx + ox + dx)];
                    if (l == 255) { /* the picture's edge: no stone seen whole */
                        ok = 0;
                        break;
                    }
                    cnt[l]++;
                    tot++;
                }
            if (!ok || !tot)
                continue;
            for (int c = GO_BLACK; c <= GO_WHITE; c++)
                if (cnt[c] >= fill * tot) {
                    n[c]++;
                    sx[c] += bx;
                    sy[c] += by;
                }
        }
}

/* Point k's stone's offset from it in eighths of a cell (how the verify reads group). */
static void offset_key(const float *ax, const float *ay, int S, int k, int *qx, int *qy)
{
    int x = k % S, y = k / S;
    *qx = (int)lround((ax[k] - (float)x) * 8);
    *qy = (int)lround((ay[k] - (float)y) * 8);
}

/* The reader's word on the candidates: the board read again under the grid moved by each
 * candidate's offset (rounded to an eighth of a cell; one run a distinct offset), so
 * that the stone lies on its point there; *share per candidate point: its colour's
 * share of the three colours there (the moved grid's lines do not cross the block's
 * centres, which the reader calls off; among the colours it still tells a stone). */
static int verify(vis_net_t *net, const cvb_image_t *img, const vis_geom_t *geom, int S,
                  const uint8_t *col, const float *ax, const float *ay, float *share)
{
    vis_reading_t *r = malloc(sizeof *r);
    if (!r)
        return VIS_ENOMEM;
    uint8_t done[VIS_MAX_POINTS];
    memset(done, 0, sizeof done);
    for (int k = 0; k < S * S; k++) {
        if (!col[k] || done[k])
            continue;
        int qx, qy;
        offset_key(ax, ay, S, k, &qx, &qy);
        double m[6] = { 1, 0, qx / 8.0, 0, 1, qy / 8.0 };
        vis_geom_t g;
        int rc = vis_geom_transform(geom, m, NULL, &g);
        if (!rc)
            rc = vis_net_read_one(net, img, &g, 0, r);
        if (rc) {
            free(r);
            return rc;
        }
        for (int q = k; q < S * S; q++) {
            int kx, ky;
            offset_key(ax, ay, S, q, &kx, &ky);
            if (col[q] && !done[q] && kx == qx && ky == qy) {
                const float *pr = r->prob[q];
                double colours = pr[VIS_CLASS_EMPTY] + pr[VIS_CLASS_BLACK] + pr[VIS_CLASS_WHITE];
                int cls = col[q] == GO_BLACK ? VIS_CLASS_BLACK : VIS_CLASS_WHITE;
                share[q] = colours > 0 ? (float)(pr[cls] / colours) : 0;
                done[q] = 1;
            }
        }
    }
    free(r);
    return 0;
}

/* One stone read on two neighbouring points (p->merge): each pair of neighbours (the
 * eight around) read as one colour whose stones, as at places them from atn places each,
 * lie nearer than p->merge, nearest pairs first; the point farther from the stone (the
 * places' mean over both cells) is read empty. How many. */
static int merge_twice_read(const vis_offpoint_params_t *p, float (*at)[2], const int *atn,
                            vis_snapshot_t *s)
{
    int S = s->size, merged = 0;
    for (;;) {
        int bk = -1, bq = -1;
        double best = p->merge;
        for (int k = 0; k < S * S; k++) {
            if (!atn[k] || s->occluded[k] || s->color[k] == GO_EMPTY)
                continue;
            for (int dy = 0; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = k % S + dx, y = k / S + dy, q = y * S + x;
                    if ((dy == 0 && dx <= 0) || x < 0 || x >= S || y >= S || !atn[q] ||
                        s->occluded[q] || s->color[q] != s->color[k])
                        continue;
                    double d = hypot(at[k][0] - at[q][0], at[k][1] - at[q][1]);
                    if (d < best) {
                        best = d;
                        bk = k;
                        bq = q;
                    }
                }
        }
        if (bk < 0)
            return merged;
        double w = (double)atn[bk] + atn[bq];
        double mx = (at[bk][0] * atn[bk] + at[bq][0] * atn[bq]) / w;
        double my = (at[bk][1] * atn[bk] + at[bq][1] * atn[bq]) / w;
        int kx = bk % S, ky = bk / S, qx = bq % S, qy = bq / S;
        int lose = hypot(mx - kx, my - ky) <= hypot(mx - qx, my - qy) ? bq : bk;
        s->color[lose] = GO_EMPTY;
        s->conf[lose] = p->conf_given;
        merged++;
    }
}

/* Stones off their points (the header's three steps, and one stone read twice before
 * them) in s, from the labelled view lab (vw wide). The number of points changed, or a
 * negative VIS_E* code. */
static int offpoint_search(const cvb_image_t *img, const vis_geom_t *geom, vis_net_t *net,
                           const vis_offpoint_params_t *p, const uint8_t *lab, int vw,
                           vis_snapshot_t *s)
{
    int found = 0, S = s->size, P = VIS_NET_CELL_PX;
    int rad = (int)floor(p->disc * P);
    /* per point read empty: the colour of the stone found in its cell, the centre of the
     * places a disc of that colour fits (board units) and how many there are */
    uint8_t col[VIS_MAX_POINTS];
    float ax[VIS_MAX_POINTS], ay[VIS_MAX_POINTS];
    int fits[VIS_MAX_POINTS];
    memset(col, 0, sizeof col);
    memset(fits, 0, sizeof fits);
    memset(ax, 0, sizeof ax);
    memset(ay, 0, sizeof ay);
    /* where each stone read lies: the centre of the places a disc of its colour fits in
     * its cell (its point when none: a stone the colours do not tell) */
    float at[VIS_MAX_POINTS][2];
    int atn[VIS_MAX_POINTS] = { 0 };
    for (int k = 0; k < S * S; k++) {
        int kx = k % S, ky = k / S;
        at[k][0] = (float)kx;
        at[k][1] = (float)ky;
        int c = s->color[k];
        if (s->occluded[k] || c == GO_EMPTY)
            continue;
        int n[3];
        double sx[3], sy[3];
        disc_fits(lab, vw, s, k, rad, p->fill, -1, NULL, n, sx, sy);
        if (n[c] > 0) {
            at[k][0] = (float)(sx[c] / n[c]);
            at[k][1] = (float)(sy[c] / n[c]);
            atn[k] = n[c];
        }
    }
    int merged = merge_twice_read(p, at, atn, s);
    /* per point read empty: the colour of a disc found in its cell clear of those stones,
     * the centre of the places it fits and how many there are */
    for (int k = 0; k < S * S; k++) {
        if (s->occluded[k] || s->color[k] != GO_EMPTY)
            continue;
        int n[3];
        double sx[3], sy[3];
        disc_fits(lab, vw, s, k, rad, p->fill, p->clear, at, n, sx, sy);
        int c = n[GO_WHITE] > n[GO_BLACK] ? GO_WHITE : GO_BLACK;
        if (n[c] > 0) {
            col[k] = (uint8_t)c;
            fits[k] = n[c];
            ax[k] = (float)(sx[c] / n[c]);
            ay[k] = (float)(sy[c] / n[c]);
        }
    }
    float share[VIS_MAX_POINTS] = { 0 };
    int vrc = verify(net, img, geom, S, col, ax, ay, share);
    if (vrc)
        return vrc;
    for (int k = 0; k < S * S; k++)
        if (col[k] && share[k] < p->verify)
            col[k] = 0;
    /* one stone between two empty points is found from both: the point with more room
     * for it keeps it */
    for (int k = 0; k < S * S; k++) {
        if (!col[k])
            continue;
        int keep = 1;
        for (int q = 0; keep && q < S * S; q++)
            if (q != k && col[q] && hypot(ax[k] - ax[q], ay[k] - ay[q]) < p->clear)
                keep = fits[k] > fits[q] || (k < q && fits[k] == fits[q]);
        if (keep) {
            s->color[k] = col[k];
            s->conf[k] = p->conf_given;
            found++;
        }
    }
    return found + merged;
}

/* Something of a stone's colour reaching in over the edge (the header): the edge stones
 * of s it reaches lose their confidence to p->conf_given. How many. */
static int reach_check(const vis_reach_params_t *p, const uint8_t *lab, int vw, int vh,
                       vis_snapshot_t *s)
{
    int S = s->size, P = VIS_NET_CELL_PX, M = VIS_NET_MARGIN, asked = 0;
    static const int out[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
    for (int k = 0; k < S * S; k++) {
        int c = s->color[k], x = k % S, y = k / S;
        if (s->occluded[k] || c == GO_EMPTY || s->conf[k] <= p->conf_given)
            continue;
        for (int e = 0; e < 4; e++) {
            int dx = out[e][0], dy = out[e][1];
            if ((dx < 0 && x) || (dx > 0 && x != S - 1) || (dy < 0 && y) || (dy > 0 && y != S - 1))
                continue; /* not on that edge */
            int same = 0, seen = 0;
            for (int i = (int)lround(p->from * P); i <= (int)lround(p->to * P); i++)
                for (int j = -(int)lround(p->half * P); j <= (int)lround(p->half * P); j++) {
                    double bx = x + (double)(dx * i + (dy ? j : 0)) / P;
                    double by = y + (double)(dy * i + (dx ? j : 0)) / P;
                    int u = (int)lround((bx + M + 0.5) * P - 0.5), w = (int)lround((by + M + 0.5) * P - 0.5);
                    if (u < 0 || w < 0 || u >= vw || w >= vh || lab[(size_t)w * vw + u] == 255)
                        continue;
                    seen++;
                    same += lab[(size_t)w * vw + u] == c;
                }
            if (seen >= REACH_MIN_SEEN && same >= p->fill * seen) {
                s->conf[k] = p->conf_given;
                asked++;
                break;
            }
        }
    }
    return asked;
}

/* Stones read surely whose disc is unlike the photo's other sure stones of their colour
 * (the header): they lose their confidence to p->conf_given. How many, or VIS_ENOMEM.
 * Each stone is compared with the Gaussian of the others' discs (the sums without its
 * own), so that one odd stone does not widen the colour it is judged by. */
static int unlike_check(const vis_unlike_params_t *p, const cvb_image_t *v, const uint8_t *lab,
                        vis_snapshot_t *s)
{
    int S = s->size, P = VIS_NET_CELL_PX, M = VIS_NET_MARGIN, asked = 0;
    int rad = (int)floor(p->disc * P), per = (2 * rad + 1) * (2 * rad + 1);
    double *feat = malloc((size_t)S * S * per * 3 * sizeof *feat);
    if (!feat)
        return VIS_ENOMEM;
    /* per stone: its disc's features, their count, sum and sum of outer products; per
     * colour the same summed */
    int npix[VIS_MAX_POINTS] = { 0 };
    double ksum[VIS_MAX_POINTS][3], kout[VIS_MAX_POINTS][6];
    double csum[3][3] = { { 0 } }, cout[3][6] = { { 0 } };
    long cn[3] = { 0, 0, 0 };
    for (int k = 0; k < S * S; k++) {
        int c = s->color[k];
        memset(ksum[k], 0, sizeof ksum[k]);
        memset(kout[k], 0, sizeof kout[k]);
        if (s->occluded[k] || c == GO_EMPTY || s->conf[k] < VIS_SURE_CONF)
            continue;
        int cx = (k % S + M) * P + P / 2, cy = (k / S + M) * P + P / 2;
        double *f = feat + (size_t)k * per * 3;
        for (int dy = -rad; dy <= rad; dy++)
            for (int dx = -rad; dx <= rad; dx++) {
                if (dx * dx + dy * dy > rad * rad || lab[(size_t)(cy + dy) * v->w + cx + dx] == 255)
                    continue;
                double *o = f + (size_t)npix[k]++ * 3;
                pixel_feature(v, cx + dx, cy + dy, o);
                for (int a = 0; a < 3; a++)
                    ksum[k][a] += o[a];
                vis_sym3_add_outer(kout[k], o);
            }
        cn[c] += npix[k];
        for (int a = 0; a < 3; a++)
            csum[c][a] += ksum[k][a];
        for (int a = 0; a < 6; a++)
            cout[c][a] += kout[k][a];
    }
    for (int k = 0; k < S * S; k++) {
        int c = s->color[k];
        long n = c == GO_EMPTY ? 0 : cn[c] - npix[k];
        if (!npix[k] || n < MIN_PIXELS)
            continue;
        double mean[3], cov[6], inv[6], logdet;
        for (int a = 0; a < 3; a++)
            mean[a] = (csum[c][a] - ksum[k][a]) / (double)n;
        for (int a = 0; a < 6; a++)
            cov[a] = (cout[c][a] - kout[k][a]) / (double)n;
        double neg[3] = { mean[0], mean[1], mean[2] }, mm[6] = { 0 };
        vis_sym3_add_outer(mm, neg);
        for (int a = 0; a < 6; a++)
            cov[a] -= mm[a];
        cov[0] += PIXEL_COV_FLOOR;
        cov[3] += PIXEL_COV_FLOOR;
        cov[5] += PIXEL_COV_FLOOR;
        if (vis_sym3_inv(cov, inv, &logdet))
            continue;
        int far = 0;
        const double *f = feat + (size_t)k * per * 3;
        for (int i = 0; i < npix[k]; i++) {
            double d[3] = { f[3 * i] - mean[0], f[3 * i + 1] - mean[1], f[3 * i + 2] - mean[2] };
            far += vis_sym3_quad(inv, d) >= p->far;
        }
        if (far >= p->share * npix[k]) {
            s->conf[k] = p->conf_given;
            asked++;
        }
    }
    free(feat);
    return asked;
}

int vis_photo_colours(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                      vis_snapshot_t *s)
{
    if (!img || !geom || !cfg || !s || s->size != geom->size)
        return VIS_EINVAL;
    if (!cfg->offpoint.on && !cfg->reach.on && !cfg->unlike.on)
        return 0;
    vis_net_t *net = cfg->net ? cfg->net : vis_net_builtin();
    if (!net)
        return VIS_EMODEL;
    cvb_image_t v = { 0 };
    if (vis_board_view(img, geom, VIS_NET_CELL_PX, VIS_NET_MARGIN, &v))
        return VIS_ECV;
    uint8_t *lab = malloc((size_t)v.w * v.h);
    if (!lab) {
        cvb_image_free(&v);
        return VIS_ENOMEM;
    }
    int rc = 0;
    if (!label_pixels(img, geom, &v, s, cfg->offpoint.wood_far, lab)) {
        if (cfg->unlike.on) /* first: it judges the reader's own sure calls */
            rc = unlike_check(&cfg->unlike, &v, lab, s);
        if (rc > 0)
            rc = 0;
        if (rc >= 0 && cfg->offpoint.on)
            rc = offpoint_search(img, geom, net, &cfg->offpoint, lab, v.w, s);
        if (rc >= 0 && cfg->reach.on)
            reach_check(&cfg->reach, lab, v.w, v.h, s);
    }
    free(lab);
    cvb_image_free(&v);
    return rc;
}
