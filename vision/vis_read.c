/* vis_read.c: reading every point of a board whose geometry is known (vis_classify).
 *
 * Three steps, each its own function:
 *   1 features: the learned reader's reading of the board (vis_net_read: the board seen
 *     from above, so perspective is undone): class probabilities per point, and of the
 *     ring just outside the board; for video, through a cache (vis_read_cache_t): a
 *     board that looks as it did is not read again, and with read_in_turn a frame under
 *     the last frame's geometry costs one run, the view and its mirror in turn, each
 *     block the mean of this run and the last where it looks the same; under a new
 *     geometry, one run; in both, the other run over the parts of the view around the
 *     points the one leaves unsure (vis_plan_parts, vis_net_read_part), the mean of the
 *     two kept there;
 *   2 decision (vis_decide, pure): probabilities -> colour, confidence, covered;
 *   3 occlusion (vis_occlusion_pass, pure): the covered mask grown around each hand.
 * Invariants: an occluded point (something covers it: a hand, a sleeve, the picture's
 * edge) has colour GO_EMPTY and confidence 0 (its colour is unknown, never "empty");
 * the confidence of a colour is its probability given that nothing covers the point, so
 * under 0.5 means the reader could not tell, or finds no point there (off): stn_stab
 * takes it as unknown, and it is no hand over the board.
 */
#include "vision/vis.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_decide(const vis_reading_t *r, const vis_config_t *cfg, vis_snapshot_t *snap)
{
    for (int k = 0; k < r->size * r->size; k++) {
        const float *p = r->prob[k];
        float seen = 1.0f - p[VIS_CLASS_COVERED];
        if (p[VIS_CLASS_COVERED] >= cfg->covered_min || seen <= 0) {
            snap->color[k] = GO_EMPTY;
            snap->conf[k] = 0;
            snap->occluded[k] = 1;
            continue;
        }
        int best = VIS_CLASS_EMPTY;
        for (int c = VIS_CLASS_BLACK; c <= VIS_CLASS_WHITE; c++)
            if (p[c] > p[best])
                best = c;
        snap->color[k] = (uint8_t)(best == VIS_CLASS_BLACK ? GO_BLACK
                                   : best == VIS_CLASS_WHITE ? GO_WHITE : GO_EMPTY);
        /* the colour's probability given that nothing covers the point: where the reader
         * finds no point there (off), every colour is unlikely and the point unsure; with
         * off_inner_colours, inside the edge lines, given the point is a point at all */
        snap->conf[k] = p[best] / seen;
        int S = r->size, x = k % S, y = k / S;
        if (cfg->off_inner_colours && x > 0 && y > 0 && x < S - 1 && y < S - 1) {
            float cols = p[VIS_CLASS_EMPTY] + p[VIS_CLASS_BLACK] + p[VIS_CLASS_WHITE];
            if (cols > 0)
                snap->conf[k] = p[best] / cols;
        }
        snap->occluded[k] = 0;
    }
}

int vis_reading_tells(const vis_snapshot_t *snap, double told_min)
{
    int n = snap->size * snap->size, told = 0, stones = 0;
    for (int k = 0; k < n; k++)
        if (!vis_point_unsure(snap, k)) {
            told++;
            stones += snap->color[k] != GO_EMPTY;
        }
    return stones > 0 || told >= told_min * n;
}

/* One side's belief: the mean over its inner edge line of 1 - P(off) and the mean over
 * its ring blocks of P(off), the lower of the two (a grid a cell too far out puts its
 * edge line off the board; a cell too far in puts its ring on points). Blocks in no
 * picture (covered > 0.5) say nothing; -1 when nothing on the side is in view. */
static double side_belief(const vis_reading_t *r, int side)
{
    int S = r->size, O = S + 2;
    double in = 0, out = 0;
    int nin = 0, nout = 0;
    for (int i = 0; i < S; i++) {
        int k = side == 0 ? i : side == 1 ? (S - 1) * S + i : side == 2 ? i * S : i * S + S - 1;
        if (r->prob[k][VIS_CLASS_COVERED] > 0.5f)
            continue;
        in += 1.0 - r->prob[k][VIS_CLASS_OFF];
        nin++;
    }
    if (r->nring == 4 * S + 4)
        for (int i = 0; i < S; i++) {
            /* the ring row by row: O blocks on top, then a left and a right block per
             * row of points, then O at the bottom; the corners are left out */
            int j = side == 0 ? 1 + i : side == 1 ? O + 2 * S + 1 + i
                  : side == 2 ? O + 2 * i : O + 2 * i + 1;
            if (r->ring_cov[j] > 0.5f)
                continue;
            out += r->ring_off[j];
            nout++;
        }
    if (!nin && !nout)
        return -1;
    double a = nin ? in / nin : 1.0, b = nout ? out / nout : 1.0;
    return a < b ? a : b;
}

double vis_grid_belief(const vis_reading_t *r)
{
    double sum = 0;
    int n = 0;
    /* a point or a ring block off the picture says nothing of the grid */
    for (int k = 0; k < r->size * r->size; k++) {
        const float *p = r->prob[k];
        if (p[VIS_CLASS_COVERED] > 0.5f)
            continue;
        sum += 1.0 - p[VIS_CLASS_OFF];
        n++;
    }
    for (int k = 0; k < r->nring; k++) {
        if (r->ring_cov[k] > 0.5f)
            continue;
        sum += r->ring_off[k];
        n++;
    }
    return n ? sum / n : 0;
}

/* vis_internal.h */
int vis_read_grid_belief(const cvb_image_t *img, const vis_config_t *cfg, const double Hf[9], int S,
                         vis_reading_t *r, double *belief)
{
    vis_geom_t g;
    if (vis_geom_from_h(Hf, S, img->w, img->h, &g))
        return -1;
    int rc = vis_read(img, &g, cfg, r);
    if (rc)
        return rc;
    *belief = vis_grid_belief(r);
    return 0;
}

double vis_window_belief(const vis_reading_t *r, int S, int ox, int oy)
{
    int E = r->size, n = 0;
    double sum = 0;
    for (int y = 0; y < E; y++)
        for (int x = 0; x < E; x++) {
            const float *p = r->prob[y * E + x];
            if (p[VIS_CLASS_COVERED] > 0.5f)
                continue;
            int in = x >= ox && y >= oy && x < ox + S && y < oy + S;
            sum += in ? 1.0 - p[VIS_CLASS_OFF] : p[VIS_CLASS_OFF];
            n++;
        }
    return n ? sum / n : -1;
}

double vis_grid_side_belief(const vis_reading_t *r)
{
    double b = 1;
    int any = 0;
    for (int side = 0; side < 4; side++) {
        double sb = side_belief(r, side);
        if (sb >= 0) {
            any = 1;
            if (sb < b)
                b = sb;
        }
    }
    return any ? b : 0;
}

void vis_occlusion_pass(vis_snapshot_t *s, const vis_config_t *cfg, const uint8_t *outside,
                        const uint8_t *ring)
{
    /* on the board with its margin ring, O x O blocks, board point (x, y) at block
     * (x + 1, y + 1): the 8-connected pieces of the mask. A lone point or a pair is a
     * misread or a fingertip, and does not grow; a point outside the picture is in no
     * piece (the picture's edge is no hand: a photo cropped along a row of stones keeps
     * the row); a ring block in the mask (ring, NULL: none) is part of its piece, so an
     * arm across the border grows into the edge line */
    int S = s->size, O = S + 2, N = O * O;
    enum { MAXB = (VIS_MAX_SIZE + 2) * (VIS_MAX_SIZE + 2) };
    uint8_t mask[MAXB];
    int comp[MAXB], csize[MAXB], stack[MAXB], nc = 0;
    memset(mask, 0, (size_t)N);
    for (int k = 0; k < S * S; k++)
        mask[(k / S + 1) * O + k % S + 1] = s->occluded[k] && !(outside && outside[k]);
    for (int q = 0; ring && q < 4 * S + 4; q++) {
        int x, y;
        vis_ring_block(S, q, &x, &y);
        mask[(y + 1) * O + x + 1] = ring[q];
    }
    for (int b = 0; b < N; b++)
        comp[b] = -1;
    for (int b0 = 0; b0 < N; b0++) {
        if (!mask[b0] || comp[b0] >= 0)
            continue;
        int sp = 0, n = 0;
        stack[sp++] = b0;
        comp[b0] = nc;
        while (sp) {
            int b = stack[--sp], i = b % O, j = b / O;
            n++;
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) {
                    int ni = i + di, nj = j + dj, q = nj * O + ni;
                    if (ni >= 0 && nj >= 0 && ni < O && nj < O && mask[q] && comp[q] < 0) {
                        comp[q] = nc;
                        stack[sp++] = q;
                    }
                }
        }
        csize[nc++] = n;
    }
    for (int pass = 0; pass < cfg->occ_margin && pass < S; pass++) {
        uint8_t grow[VIS_MAX_POINTS];
        memcpy(grow, s->occluded, (size_t)S * S);
        for (int b = 0; b < N; b++) {
            if (!mask[b] || comp[b] < 0 || csize[comp[b]] < cfg->occ_min_piece)
                continue;
            int x = b % O - 1, y = b / O - 1;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if (nx >= 0 && ny >= 0 && nx < S && ny < S)
                        grow[ny * S + nx] = 1;
                }
        }
        for (int k = 0; k < S * S; k++)
            if (grow[k] && !s->occluded[k]) {
                s->occluded[k] = 1;
                s->color[k] = GO_EMPTY;
                s->conf[k] = 0;
            }
    }
    s->occluder = 0;
    for (int k = 0; k < S * S; k++)
        s->occluder |= s->occluded[k];
}

void vis_read_cache_free(vis_read_cache_t *c)
{
    if (c)
        vis_view_maps_free(&c->maps);
}

void vis_read_cache_init(vis_read_cache_t *c)
{
    if (!c)
        return;
    memset(c, 0, offsetof(vis_read_cache_t, reading));
    memset(&c->maps, 0, sizeof c->maps);
    c->max_change = 4;
    c->turn_shift = 0.1;
    c->turn_sure = 0;
    c->new_sure = 0.97;
    c->parts_max = 0.5;
    c->run_sym = -1;
}

/* 1 when no corner of the board under geom lies more than shift cells (the board's mean
 * spacing) from where the homography H put it. */
static int corners_near(const double H[9], const vis_geom_t *geom, double shift)
{
    int n = geom->size - 1;
    double tol = shift * vis_geom_spacing(geom);
    for (int k = 0; k < 4; k++) {
        double a[2], b[2];
        int x = k == 1 || k == 2 ? n : 0, y = k >= 2 ? n : 0;
        if (vis_homog_apply(H, x, y, &a[0], &a[1]) ||
            vis_homog_apply(geom->H, x, y, &b[0], &b[1]) ||
            !(hypot(a[0] - b[0], a[1] - b[1]) <= tol))
            return 0;
    }
    return 1;
}

/* 1 when block b (of O x O) of signature sig looks as in the cache's (every channel's mean
 * within max_change). */
static int block_same(const vis_read_cache_t *c, const float *sig, int b)
{
    for (int ch = 0; ch < 3; ch++)
        if (!(fabsf(sig[b * 3 + ch] - c->sig[b * 3 + ch]) <= c->max_change))
            return 0;
    return 1;
}

/* Blocks: a run over a part of the view costs about as much as one over this many more
 * blocks (the blob, the layers' set-up); measured 2026-12-07 (OpenCV's dnn, one core, a
 * 19x19 board's 21 x 21-block view, each part's run beside a whole one's): parts of 5 x 5,
 * 9 x 9, 13 x 13 blocks 0.28, 0.44, 0.88 ms, the whole view 2.1 ms (0.0048 ms a block). */
#define PART_FIXED_BLOCKS 20

static int part_area(vis_blocks_t p)
{
    return (p.x1 - p.x0) * (p.y1 - p.y0);
}

static vis_blocks_t part_union(vis_blocks_t a, vis_blocks_t b)
{
    vis_blocks_t u = { a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                       a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1 };
    return u;
}

int vis_plan_parts(const uint8_t *want, int O, int reach, vis_blocks_t *parts, int max,
                   int *cost)
{
    if (!want || O < 1 || reach < 0 || !parts || max < 1)
        return -1;
    int n = 0, c = 0;
    for (int b = 0; b < O * O; b++) {
        if (!want[b])
            continue;
        int i = b % O, j = b / O, in = 0;
        for (int k = 0; k < n && !in; k++) { /* read well by a part already planned */
            vis_blocks_t pi = vis_part_inner(parts[k], O, reach);
            in = i >= pi.x0 && j >= pi.y0 && i < pi.x1 && j < pi.y1;
        }
        if (in)
            continue;
        vis_blocks_t p = { i - reach > 0 ? i - reach : 0, j - reach > 0 ? j - reach : 0,
                           i + reach + 1 < O ? i + reach + 1 : O,
                           j + reach + 1 < O ? j + reach + 1 : O };
        /* joined to a planned part while one run over both costs no more than two (a
         * part grown may meet another: then those two) */
        for (int k = 0; k < n;) {
            vis_blocks_t u = part_union(p, parts[k]);
            if (part_area(u) <= part_area(p) + part_area(parts[k]) + PART_FIXED_BLOCKS ||
                n == max) {
                p = u;
                parts[k] = parts[--n];
                k = 0;
            } else {
                k++;
            }
        }
        parts[n++] = p;
    }
    for (int k = 0; k < n; k++)
        c += part_area(parts[k]) + PART_FIXED_BLOCKS;
    if (n && c >= O * O) { /* the whole view costs less */
        vis_blocks_t all = { 0, 0, O, O };
        parts[0] = all;
        n = 1;
        c = O * O;
    }
    if (cost)
        *cost = c;
    return n;
}

/* The view block of board point k (x, y): (x + margin, y + margin) of O x O. */
static int point_block(int S, int k)
{
    return (k / S + VIS_NET_MARGIN) * (S + 2 * VIS_NET_MARGIN) + k % S + VIS_NET_MARGIN;
}

/* The view block of ring block q (vis_ring_block). */
static int ring_block(int S, int q)
{
    int x, y;
    vis_ring_block(S, q, &x, &y);
    return (y + VIS_NET_MARGIN) * (S + 2 * VIS_NET_MARGIN) + x + VIS_NET_MARGIN;
}

/* 1 when a point's probabilities p leave its colour unsure by sure (the cache's turn_sure
 * or new_sure): not covered (P < 0.5) and no colour (empty, black, white) this likely
 * given that the point is one (not off: a point read as one but for a few hundredths of
 * off is read). */
static int point_unsure(double sure, const float *p)
{
    if (p[VIS_CLASS_COVERED] >= 0.5f)
        return 0;
    float best = 0, cols = 0;
    for (int j = VIS_CLASS_EMPTY; j <= VIS_CLASS_WHITE; j++) {
        best = fmaxf(best, p[j]);
        cols += p[j];
    }
    return !(best >= sure * cols) || cols <= 0;
}

/* read_in_turn: r (this frame's run) averaged, block by block, with the cache's last run
 * where the block looks as it did then. want[b] = 1 (O x O) for the point blocks that
 * changed and that this run leaves unsure by turn_sure (point_unsure); returns how many. */
static int mean_with_last_run(const vis_read_cache_t *c, const float *sig, vis_reading_t *r,
                              uint8_t *want)
{
    int S = r->size, unsure = 0;
    const vis_reading_t *l = &c->run;
    for (int k = 0; k < S * S; k++) {
        int b = point_block(S, k);
        if (block_same(c, sig, b)) {
            for (int j = 0; j < VIS_NCLASS; j++)
                r->prob[k][j] = 0.5f * (r->prob[k][j] + l->prob[k][j]);
        } else if (point_unsure(c->turn_sure, r->prob[k])) {
            want[b] = 1;
            unsure++;
        }
    }
    for (int q = 0; q < r->nring && q < l->nring; q++) {
        int b = ring_block(S, q);
        if (block_same(c, sig, b)) {
            r->ring_off[q] = 0.5f * (r->ring_off[q] + l->ring_off[q]);
            r->ring_cov[q] = 0.5f * (r->ring_cov[q] + l->ring_cov[q]);
        }
    }
    return unsure;
}

/* A new geometry's one run r: want[b] = 1 for every point and ring block it leaves
 * unsure by new_sure (point_unsure; a ring block, of which only off and covered are kept,
 * unsure when it is not covered and its off is neither this likely nor this unlikely);
 * returns how many. */
static int unsure_blocks(const vis_read_cache_t *c, const vis_reading_t *r, uint8_t *want)
{
    int S = r->size, n = 0;
    for (int k = 0; k < S * S; k++)
        if (point_unsure(c->new_sure, r->prob[k])) {
            want[point_block(S, k)] = 1;
            n++;
        }
    for (int q = 0; q < r->nring; q++) {
        float off = r->ring_off[q];
        if (r->ring_cov[q] < 0.5f && off < c->new_sure && off > 1.0f - c->new_sure) {
            want[ring_block(S, q)] = 1;
            n++;
        }
    }
    return n;
}

/* The other run, symmetry sym, over the parts of the view that read the blocks in want
 * (vis_plan_parts), unless they would cost more than c->parts_max of a run over the whole
 * view: every block it reads as over the whole view made in r the mean of one's (this
 * frame's first run) and its. The whole view's run is counted in c->runs, a part's in
 * c->part_runs and c->part_blocks, a run not made in c->parts_skipped. */
static int other_run_over(vis_net_t *net, const cvb_image_t *view, int sym, const uint8_t *want,
                          const vis_reading_t *one, vis_reading_t *r, vis_read_cache_t *c)
{
    int S = r->size, O = S + 2 * VIS_NET_MARGIN;
    vis_blocks_t parts[VIS_READ_PARTS_MAX];
    int cost = 0, n = vis_plan_parts(want, O, VIS_NET_REACH, parts, VIS_READ_PARTS_MAX, &cost);
    if (n <= 0)
        return n ? VIS_EINVAL : VIS_OK;
    if (cost > c->parts_max * O * O) { /* unsure over too much of the view: one run */
        c->parts_skipped++;
        return VIS_OK;
    }
    vis_reading_t *other = malloc(sizeof *other);
    uint8_t *exact = calloc((size_t)O * O, 1);
    int rc = other && exact ? VIS_OK : VIS_ENOMEM;
    if (!rc) {
        other->size = S;
        other->nring = r->nring;
    }
    for (int i = 0; i < n && !rc; i++) {
        rc = vis_net_read_part(net, view, S, sym, parts[i], other, exact);
        int whole = part_area(parts[i]) == O * O;
        c->runs += !rc && whole;
        c->part_runs += !rc && !whole;
        c->part_blocks += !rc && !whole ? part_area(parts[i]) : 0;
    }
    for (int k = 0; !rc && k < S * S; k++)
        if (exact[point_block(S, k)])
            for (int j = 0; j < VIS_NCLASS; j++)
                r->prob[k][j] = 0.5f * (one->prob[k][j] + other->prob[k][j]);
    for (int q = 0; !rc && q < r->nring; q++)
        if (exact[ring_block(S, q)]) {
            r->ring_off[q] = 0.5f * (one->ring_off[q] + other->ring_off[q]);
            r->ring_cov[q] = 0.5f * (one->ring_cov[q] + other->ring_cov[q]);
        }
    free(other);
    free(exact);
    return rc;
}

/* The cache's signature of the board: the mean colour of every point's block (margin ring
 * included) of the view the net reads (vis_net_view), over every other pixel of the block
 * each way (64 bilinear samples of the photo). Made from the view the read needs anyway,
 * so a frame that is read pays for no second warp. */
static void view_signature(const cvb_image_t *v, int size, float *sig)
{
    enum { P = VIS_NET_CELL_PX, STEP = 2, N = (P / STEP) * (P / STEP) };
    int O = size + 2 * VIS_NET_MARGIN;
    for (int j = 0; j < O; j++)
        for (int i = 0; i < O; i++) {
            int acc[3] = { 0, 0, 0 };
            for (int y = 0; y < P; y += STEP) {
                const uint8_t *p = v->data + (size_t)(j * P + y) * v->stride + (size_t)i * P * 3;
                for (int x = 0; x < P; x += STEP)
                    for (int c = 0; c < 3; c++)
                        acc[c] += p[3 * x + c];
            }
            for (int c = 0; c < 3; c++)
                sig[(j * O + i) * 3 + c] = (float)acc[c] / N;
        }
}

int vis_read(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
             vis_reading_t *r)
{
    vis_net_t *net = cfg->net ? cfg->net : vis_net_builtin();
    if (!net)
        return VIS_EMODEL;
    int nsym = cfg->read_symmetries > 1 ? cfg->read_symmetries : 1;
    vis_read_cache_t *c = cfg->cache;
    /* the view, made once: for the cache's signature and for every run over this frame */
    cvb_image_t view = { 0 };
    int rc = vis_net_view_kept(img, geom, &view, c ? &c->maps : NULL);
    if (rc)
        return rc;
    float sig[(VIS_MAX_LATTICE + 2) * (VIS_MAX_LATTICE + 2) * 3] = { 0 };
    if (c)
        view_signature(&view, geom->size, sig);
    int n = (geom->size + 2 * VIS_NET_MARGIN) * (geom->size + 2 * VIS_NET_MARGIN) * 3;
    int same = c && c->valid && c->size == geom->size && c->nsym == nsym;
    int hit = same;
    for (int k = 0; hit && k < 9; k++)
        hit = c->H[k] == geom->H[k]; /* the same geometry, bit for bit */
    for (int k = 0; hit && k < n; k++)
        hit = fabsf(sig[k] - c->sig[k]) <= c->max_change;
    /* read in turn: one run, the other symmetry than the last's, the board where it was */
    int sym = c && same && cfg->read_in_turn && nsym == 2 && c->run_sym >= 0 &&
                      c->run_frame != c->frame && corners_near(c->H, geom, c->turn_shift)
                  ? 1 - c->run_sym
                  : -1;
    int turn = sym >= 0;
    /* video's reading in turn under a new geometry: one run, the mirror over what it
     * leaves unsure */
    int first_of_two = !turn && c && cfg->read_in_turn && nsym == 2;
    if (hit) {
        memcpy(r, &c->reading, sizeof *r);
        c->hits++;
    } else {
        rc = vis_net_read_view(net, &view, geom->size, turn ? sym : 0,
                               turn || first_of_two ? 1 : nsym, r);
        if (c) {
            c->misses++;
            c->runs += rc ? 0 : turn || first_of_two ? 1 : nsym;
        }
        if (!rc && (turn || first_of_two)) {
            /* this run kept for the next frame's; r the mean with the last run where a
             * block looks as it did (in turn), and with the other run where this one
             * leaves a block unsure (of those that changed, in turn) */
            int O = geom->size + 2 * VIS_NET_MARGIN;
            vis_reading_t *fresh = malloc(sizeof *fresh);
            uint8_t *want = calloc((size_t)O * O, 1);
            if (!fresh || !want) {
                free(fresh);
                free(want);
                cvb_image_free(&view);
                return VIS_ENOMEM;
            }
            memcpy(fresh, r, sizeof *r);
            int unsure = turn ? mean_with_last_run(c, sig, r, want) : unsure_blocks(c, r, want);
            if (unsure)
                rc = other_run_over(net, &view, turn ? 1 - sym : 1, want, fresh, r, c);
            if (!rc) {
                memcpy(&c->run, fresh, sizeof *r);
                c->run_sym = turn ? sym : 0;
                c->run_frame = c->frame;
            }
            free(fresh);
            free(want);
        }
        if (!rc && c) {
            c->valid = 1;
            c->size = geom->size;
            c->nsym = nsym;
            memcpy(c->H, geom->H, sizeof c->H);
            memcpy(c->sig, sig, sizeof(float) * (size_t)n);
            memcpy(&c->reading, r, sizeof *r);
        }
    }
    cvb_image_free(&view);
    if (!rc && cfg->board)
        vis_board_model_apply(cfg->board, r);
    return rc;
}

int vis_snapshot_from_reading(const cvb_image_t *img, const vis_geom_t *geom,
                              const vis_config_t *cfg, const vis_reading_t *r,
                              vis_snapshot_t *snap, int off_hides)
{
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    s.size = geom->size;
    s.frame = snap->frame;
    s.t = snap->t;
    if (off_hides && cfg->self_fit && !cfg->board) {
        /* one photo by itself: a colour model of this board fitted on the points read
         * surely, and the reading decided again with it */
        vis_reading_t *q = malloc(sizeof *q);
        if (!q)
            return VIS_ENOMEM;
        memcpy(q, r, sizeof *q);
        vis_decide(q, cfg, &s);
        vis_board_model_t m;
        vis_board_model_init(&m);
        vis_board_model_update(&m, q, &s);
        vis_board_model_apply(&m, q);
        vis_decide(q, cfg, &s);
        free(q);
        int rc = vis_photo_colours(img, geom, cfg, &s);
        if (rc < 0)
            return rc;
    } else if (off_hides) {
        vis_decide(r, cfg, &s);
    } else { /* the off class left out: every point read as if the grid were right */
        vis_reading_t *q = malloc(sizeof *q);
        if (!q)
            return VIS_ENOMEM;
        memcpy(q, r, sizeof *q);
        for (int k = 0; k < q->size * q->size; k++)
            q->prob[k][VIS_CLASS_OFF] = 0;
        vis_decide(q, cfg, &s);
        free(q);
    }
    uint8_t outside[VIS_MAX_POINTS] = { 0 };
    if (img)
        vis_geom_outside(geom, img->w, img->h, outside, NULL);
    for (int k = 0; k < s.size * s.size; k++) {
        if (outside[k] && cfg->outside_hides) { /* not shown: its colour is unknown */
            s.color[k] = GO_EMPTY;
            s.conf[k] = 0;
            s.occluded[k] = 1;
        }
    }
    uint8_t ring[VIS_RING_MAX] = { 0 };
    int with_ring = cfg->occ_ring && img && r->nring == 4 * s.size + 4;
    for (int q = 0; with_ring && q < r->nring; q++) {
        int x, y;
        double px, py; /* a block seen covered, in the picture: an arm on the border */
        vis_ring_block(s.size, q, &x, &y);
        ring[q] = !vis_homog_apply(geom->H, x, y, &px, &py) && vis_in_picture(img, px, py, 0) &&
                  r->ring_cov[q] >= cfg->covered_min;
    }
    if (off_hides && cfg->self_fit) { /* a photo (vis_config_for_photo): the stone finder */
        /* it answers the covered points whose stone the picture's edge cuts (a centre
         * outside the picture among them): the reader reads a stone beside the view's
         * black beyond the picture as covered */
        uint8_t cut[VIS_MAX_POINTS];
        for (int k = 0; k < s.size * s.size; k++)
            cut[k] = img && !vis_in_picture(img, geom->px[k], geom->py[k], geom->radius[k]);
        int rc = vis_stones_answer(&cfg->stones, img, geom, cut, &s);
        if (rc < 0)
            return rc;
    }
    vis_occlusion_pass(&s, cfg, outside, with_ring ? ring : NULL);
    s.grid_belief = (float)vis_grid_belief(r);
    *snap = s;
    return VIS_OK;
}

int vis_classify_reading(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                         vis_snapshot_t *snap, vis_reading_t *out)
{
    if (!img || !img->data || !geom || !snap || geom->size < 2 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    vis_reading_t *r = out ? out : malloc(sizeof *r);
    if (!r)
        return VIS_ENOMEM;
    int rc = vis_read(img, geom, cfg, r);
    if (!rc)
        rc = vis_snapshot_from_reading(img, geom, cfg, r, snap, 1);
    if (r != out)
        free(r);
    return rc;
}

int vis_classify(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                 vis_snapshot_t *snap)
{
    return vis_classify_reading(img, geom, cfg, snap, NULL);
}

int vis_draw_reading(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap,
                     cvb_image_t *out)
{
    if (!img || !img->data || img->channels != 3 || !geom || !snap || !out ||
        snap->size != geom->size)
        return VIS_EINVAL;
    enum { CELL = 40 };
    cvb_image_t v = { 0 };
    int rc = vis_board_view(img, geom, CELL, 1, &v);
    if (rc)
        return rc;
    int S = geom->size;
    for (int k = 0; k < S * S; k++) {
        int col = k % S, row = k / S;
        double x = (col + 1.5) * CELL - 0.5, y = (row + 1.5) * CELL - 0.5;
        if (snap->occluded[k]) { /* a magenta cross: hidden, colour unknown */
            cvb_draw_line(&v, x - 8, y - 8, x + 8, y + 8, 255, 0, 255, 3);
            cvb_draw_line(&v, x - 8, y + 8, x + 8, y - 8, 255, 0, 255, 3);
            continue;
        }
        /* the ring's colour is the confidence: red (0.5 or less: unknown) to green (1) */
        double c = (snap->conf[k] - 0.5) * 2;
        c = c < 0 ? 0 : c > 1 ? 1 : c;
        int g = (int)(255 * c), r = (int)(255 * (1 - c));
        cvb_draw_circle(&v, x, y, CELL * 0.42, 0, g, r, snap->conf[k] < 0.9 ? 3 : 1);
        if (snap->color[k] == GO_BLACK)
            cvb_draw_circle(&v, x, y, CELL * 0.16, 255, 64, 0, -1);
        else if (snap->color[k] == GO_WHITE)
            cvb_draw_circle(&v, x, y, CELL * 0.16, 0, 255, 255, -1);
    }
    cvb_image_free(out);
    *out = v;
    return VIS_OK;
}
