/* vis_net.c: the learned point reader's network (vis.h): loading, the built-in model, and
 * the class probabilities of every point of a board.
 *
 * The model is a small fully convolutional network trained by train/train_points.py
 * (train/README.md; how the shipped weights were made: vision/model/README.md). Its
 * contract: the input is vis_board_view at VIS_NET_CELL_PX pixels a point with
 * VIS_NET_MARGIN points of margin, as a 1 x 3 x side x side blob of the B, G, R pixels /
 * 255; the output is 1 x VIS_NCLASS x (size + 2 margin) x (size + 2 margin) logits
 * (empty, black, white, covered, off), the board's point (x, y) at (x + margin,
 * y + margin), the ring's blocks around it. Inference runs in OpenCV's dnn module
 * (cv_bridge.h), never here; the runs over the view's symmetries are vis_ensemble.c's,
 * shared with the stone finder.
 * Invariants: a vis_net_t is immutable but for its dnn state, which one mutex guards, so
 * one net may serve several threads (one at a time); the built-in net is made once
 * (pthread_once) and lives as long as the process: vis_net_destroy leaves it.
 */
#include "vision/vis.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_internal.h"
#include "vision/vis_model.h"

_Static_assert(VIS_NET_MAX_MEMBERS <= VIS_ENSEMBLE_MAX, "an ensemble holds at most VIS_ENSEMBLE_MAX");

struct vis_net {
    vis_ensemble_t e; /* the members; a reading is their mean */
};

int vis_net_from_memory(const uint8_t *buf, size_t len, vis_net_t **out)
{
    if (!buf || !len || !out)
        return VIS_EINVAL;
    vis_net_t *n = calloc(1, sizeof *n);
    if (!n)
        return VIS_ENOMEM;
    int rc = vis_ensemble_init(&n->e, buf, len);
    if (rc) {
        free(n);
        return rc;
    }
    *out = n;
    return VIS_OK;
}

int vis_net_add(vis_net_t *net, vis_net_t *member)
{
    if (!net || !member)
        return VIS_EINVAL;
    int rc = vis_ensemble_add(&net->e, &member->e, VIS_NET_MAX_MEMBERS);
    if (!rc)
        vis_net_destroy(member);
    return rc;
}

int vis_net_members(const vis_net_t *net)
{
    return net ? net->e.n : 0;
}

int vis_net_load(const char *path, vis_net_t **out)
{
    if (!path || !out)
        return VIS_EINVAL;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = vis_read_model_file(path, &buf, &len);
    if (!rc)
        rc = vis_net_from_memory(buf, len, out);
    free(buf);
    return rc;
}

void vis_net_destroy(vis_net_t *net)
{
    if (!net || net->e.shared)
        return;
    vis_ensemble_fini(&net->e);
    free(net);
}

static vis_net_t *builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
    if (vis_net_from_memory(vis_model_points, vis_model_points_len, &builtin))
        builtin = NULL;
    else
        builtin->e.shared = 1;
}

vis_net_t *vis_net_builtin(void)
{
    pthread_once(&builtin_once, builtin_init);
    return builtin;
}

/* A 3-channel copy of a gray view (the net reads B, G, R). */
static int gray_to_bgr(const cvb_image_t *g, cvb_image_t *out)
{
    if (cvb_image_alloc(out, g->w, g->h, 3))
        return VIS_ENOMEM;
    for (int y = 0; y < g->h; y++) {
        const uint8_t *s = g->data + (size_t)y * g->stride;
        uint8_t *d = out->data + (size_t)y * out->stride;
        for (int x = 0; x < g->w; x++)
            d[3 * x] = d[3 * x + 1] = d[3 * x + 2] = s[x];
    }
    return VIS_OK;
}

int vis_net_view(const cvb_image_t *img, const vis_geom_t *geom, cvb_image_t *view)
{
    return vis_net_view_kept(img, geom, view, NULL);
}

int vis_net_view_kept(const cvb_image_t *img, const vis_geom_t *geom, cvb_image_t *view,
                      vis_view_maps_t *vm)
{
    if (!img || !img->data || !geom || !view || geom->size < 2 || geom->size > VIS_MAX_LATTICE)
        return VIS_EINVAL;
    cvb_image_t bgr = { 0 };
    const cvb_image_t *src = img;
    int rc = VIS_OK;
    if (img->channels == 1) {
        rc = gray_to_bgr(img, &bgr);
        src = &bgr;
    }
    if (!rc)
        rc = vis_board_view_kept(src, geom, VIS_NET_CELL_PX, VIS_NET_MARGIN, view, vm);
    cvb_image_free(&bgr);
    return rc;
}

/* acc's entry to of each class plane += the class's softmax probability over logit's
 * entry at of the planes, / runs (one run's part of a mean). */
static void add_softmax(const float *logit, size_t plane, size_t at, float runs, float *acc,
                        size_t to)
{
    float mx = -1e30f, e[VIS_NCLASS], sum = 0;
    for (int k = 0; k < VIS_NCLASS; k++)
        mx = fmaxf(mx, logit[k * plane + at]);
    for (int k = 0; k < VIS_NCLASS; k++) {
        e[k] = expf(logit[k * plane + at] - mx);
        sum += e[k];
    }
    for (int k = 0; k < VIS_NCLASS; k++)
        acc[k * plane + to] += e[k] / sum / runs;
}

/* The runs' softmax probabilities summed per view block (net_read_view's each). */
typedef struct {
    int O;       /* the view's side in blocks */
    float runs;  /* the runs: each one's part of the mean is 1 / runs */
    float *acc;  /* VIS_NCLASS planes of O x O */
} read_acc_t;

static void read_each(void *ctx, int sy, const float *logit)
{
    read_acc_t *a = ctx;
    int O = a->O;
    size_t plane = (size_t)O * O;
    /* the output's block (i, j) is the view's block sym_src(i, j) */
    for (int j = 0; j < O; j++)
        for (int i = 0; i < O; i++) {
            int bi, bj;
            vis_sym_src(sy, O, i, j, &bi, &bj);
            size_t at = (size_t)j * O + i, to = (size_t)bj * O + bi;
            add_softmax(logit, plane, at, a->runs, a->acc, to);
        }
}

/* The reading of a board of size S from its view (vis_net_view), averaged over the runs
 * under symmetries first .. first + nsym - 1. */
static int net_read_view(vis_net_t *net, const cvb_image_t *view, int S, int first, int nsym,
                         vis_reading_t *out)
{
    int O = S + 2 * VIS_NET_MARGIN;
    if (!net || !view || !view->data || !out || S < 2 || S > VIS_MAX_LATTICE || nsym < 1 ||
        first < 0 || first + nsym > 8 || view->channels != 3 || view->w != O * VIS_NET_CELL_PX ||
        view->h != view->w)
        return VIS_EINVAL;
    size_t plane = (size_t)O * O;
    read_acc_t a = { O, (float)(nsym * net->e.n), calloc(VIS_NCLASS * plane, sizeof(float)) };
    float *acc = a.acc; /* probabilities per view block */
    int rc = acc ? vis_ensemble_runs(&net->e, view, first, nsym, VIS_NCLASS, O, O, read_each, &a)
                 : VIS_ENOMEM;
    if (!rc) {
        out->size = S;
        out->nring = 0;
        for (int j = 0; j < O; j++)
            for (int i = 0; i < O; i++) {
                size_t at = (size_t)j * O + i;
                int x = i - VIS_NET_MARGIN, y = j - VIS_NET_MARGIN;
                if (x >= 0 && y >= 0 && x < S && y < S) {
                    for (int k = 0; k < VIS_NCLASS; k++)
                        out->prob[y * S + x][k] = acc[k * plane + at];
                } else if (out->nring < VIS_RING_MAX) {
                    out->ring_off[out->nring] = acc[VIS_CLASS_OFF * plane + at];
                    out->ring_cov[out->nring] = acc[VIS_CLASS_COVERED * plane + at];
                    out->nring++;
                }
            }
        vis_board_view_features(view, S, &out->feat[0][0]);
    }
    free(acc);
    return rc;
}

/* A part's runs' softmax probabilities summed per part block (vis_net_read_part's each). */
typedef struct {
    int w, h;   /* the part's size in blocks */
    float runs; /* the members: each one's part of the mean is 1 / runs */
    float *acc; /* VIS_NCLASS planes of h x w, the part's blocks as in the view */
} part_acc_t;

static void part_each(void *ctx, int sy, const float *logit)
{
    part_acc_t *a = ctx;
    size_t plane = (size_t)a->w * a->h;
    for (int j = 0; j < a->h; j++)
        for (int i = 0; i < a->w; i++) {
            size_t at = (size_t)j * a->w + i;
            size_t to = (size_t)((sy & 2) ? a->h - 1 - j : j) * a->w +
                        (size_t)((sy & 1) ? a->w - 1 - i : i);
            add_softmax(logit, plane, at, a->runs, a->acc, to);
        }
}

int vis_net_read_part(vis_net_t *net, const cvb_image_t *view, int S, int sym, vis_blocks_t p,
                      vis_reading_t *out, uint8_t *exact)
{
    int O = S + 2 * VIS_NET_MARGIN;
    if (!net || !view || !view->data || !out || !exact || S < 2 || S > VIS_MAX_LATTICE ||
        view->channels != 3 || view->w != O * VIS_NET_CELL_PX || view->h != view->w ||
        out->size != S || p.x0 < 0 || p.y0 < 0 || p.x1 > O || p.y1 > O || p.x0 >= p.x1 ||
        p.y0 >= p.y1)
        return VIS_EINVAL;
    part_acc_t a = { p.x1 - p.x0, p.y1 - p.y0, (float)net->e.n, NULL };
    size_t plane = (size_t)a.w * a.h;
    a.acc = calloc(VIS_NCLASS * plane, sizeof(float));
    int rc = a.acc ? vis_ensemble_run_part(&net->e, view, VIS_NET_CELL_PX, p, sym, VIS_NCLASS,
                                           part_each, &a)
                   : VIS_ENOMEM;
    /* a block reads as over the whole view when the part reaches VIS_NET_REACH blocks
     * beyond it on every side the view itself does not end */
    vis_blocks_t in = vis_part_inner(p, O, VIS_NET_REACH);
    for (int j = in.y0; !rc && j < in.y1; j++)
        for (int i = in.x0; i < in.x1; i++) {
            size_t at = (size_t)(j - p.y0) * a.w + (size_t)(i - p.x0);
            int x = i - VIS_NET_MARGIN, y = j - VIS_NET_MARGIN;
            if (x >= 0 && y >= 0 && x < S && y < S) {
                for (int k = 0; k < VIS_NCLASS; k++)
                    out->prob[y * S + x][k] = a.acc[k * plane + at];
            } else {
                int q = vis_ring_index(S, x, y);
                out->ring_off[q] = a.acc[VIS_CLASS_OFF * plane + at];
                out->ring_cov[q] = a.acc[VIS_CLASS_COVERED * plane + at];
            }
            exact[j * O + i] = 1;
        }
    free(a.acc);
    return rc;
}

/* The reading averaged over the runs under symmetries first .. first + nsym - 1. */
static int net_read(vis_net_t *net, const cvb_image_t *img, const vis_geom_t *geom, int first,
                    int nsym, vis_reading_t *out)
{
    if (!net || !img || !img->data || !geom || !out || geom->size < 2 ||
        geom->size > VIS_MAX_LATTICE || nsym < 1 || first < 0 || first + nsym > 8)
        return VIS_EINVAL;
    cvb_image_t view = { 0 };
    int rc = vis_net_view(img, geom, &view);
    if (!rc)
        rc = net_read_view(net, &view, geom->size, first, nsym, out);
    cvb_image_free(&view);
    return rc;
}

int vis_net_read(vis_net_t *net, const cvb_image_t *img, const vis_geom_t *geom, int nsym,
                 vis_reading_t *out)
{
    return net_read(net, img, geom, 0, nsym, out);
}

int vis_net_read_one(vis_net_t *net, const cvb_image_t *img, const vis_geom_t *geom, int sym,
                     vis_reading_t *out)
{
    return net_read(net, img, geom, sym, 1, out);
}

int vis_net_read_view(vis_net_t *net, const cvb_image_t *view, int size, int first, int nsym,
                      vis_reading_t *out)
{
    return net_read_view(net, view, size, first, nsym, out);
}
