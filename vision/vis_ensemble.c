/* vis_ensemble.c: the networks behind the point reader (vis_net_t, vis_net.c) and the
 * stone finder (vis_finder_t, vis_stones.c): one or a few ONNX models run through OpenCV's
 * dnn (cv_bridge.h) over a board view and its symmetries (vis_internal.h,
 * vis_ensemble_t). What each output means is its owner's; here only how a model is
 * loaded and how the runs are made: each member over the view under each symmetry asked
 * for, the view's symmetric copy made once for all members, the output's shape checked.
 * Invariants: members are loaded once and never changed but for their dnn state, which
 * the ensemble's one mutex guards, so an ensemble may serve several threads, one run at
 * a time; a shared ensemble (a built-in model the whole process reads with) is never
 * grown nor freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_internal.h"

void vis_sym_src(int s, int n, int x, int y, int *sx, int *sy)
{
    int a = x, b = y;
    if (s & 4) {
        int t = a;
        a = b;
        b = t;
    }
    if (s & 1)
        a = n - 1 - a;
    if (s & 2)
        b = n - 1 - b;
    *sx = a;
    *sy = b;
}

/* d = the n BGR pixels of row, in their order or mirrored. */
static void copy_row(uint8_t *d, const uint8_t *row, int n, int mirrored)
{
    if (!mirrored) {
        memcpy(d, row, (size_t)n * 3);
        return;
    }
    for (int x = 0; x < n; x++) {
        const uint8_t *p = row + (size_t)(n - 1 - x) * 3;
        d[3 * x] = p[0];
        d[3 * x + 1] = p[1];
        d[3 * x + 2] = p[2];
    }
}

void vis_view_sym(const cvb_image_t *v, int s, cvb_image_t *out)
{
    int n = v->w;
    for (int y = 0; y < n; y++) {
        uint8_t *d = out->data + (size_t)y * out->stride;
        if (!(s & 4)) { /* no transpose: output row y is one source row, as is or reversed */
            copy_row(d, v->data + (size_t)((s & 2) ? n - 1 - y : y) * v->stride, n, s & 1);
            continue;
        }
        for (int x = 0; x < n; x++) {
            int sx, sy;
            vis_sym_src(s, n, x, y, &sx, &sy);
            const uint8_t *p = v->data + (size_t)sy * v->stride + (size_t)sx * 3;
            d[3 * x] = p[0];
            d[3 * x + 1] = p[1];
            d[3 * x + 2] = p[2];
        }
    }
}

int vis_read_model_file(const char *path, uint8_t **buf, size_t *len)
{
    if (!path || !buf || !len)
        return VIS_EINVAL;
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return VIS_EMODEL;
    uint8_t *b = NULL;
    long n = -1;
    if (!fseek(f, 0, SEEK_END))
        n = ftell(f);
    /* a model is well under 5 MB; anything past 64 MB is no model of ours */
    if (n <= 0 || n > (64l << 20) || fseek(f, 0, SEEK_SET) ||
        !(b = malloc((size_t)n)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return n > 0 && !b ? VIS_ENOMEM : VIS_EMODEL;
    }
    fclose(f);
    *buf = b;
    *len = (size_t)n;
    return VIS_OK;
}

int vis_ensemble_init(vis_ensemble_t *e, const uint8_t *buf, size_t len)
{
    if (!e || !buf || !len)
        return VIS_EINVAL;
    e->n = 0;
    e->shared = 0;
    int rc = cvb_net_load_onnx(buf, len, &e->net[0]);
    if (rc)
        return rc == CVB_ENOMEM ? VIS_ENOMEM : VIS_EMODEL;
    if (pthread_mutex_init(&e->lock, NULL)) {
        cvb_net_free(e->net[0]);
        return VIS_ENOMEM;
    }
    e->n = 1;
    return VIS_OK;
}

int vis_ensemble_add(vis_ensemble_t *e, vis_ensemble_t *member, int max)
{
    if (!e || !member || e == member || member->n != 1 || e->shared || member->shared ||
        e->n >= max || max > VIS_ENSEMBLE_MAX)
        return VIS_EINVAL;
    e->net[e->n++] = member->net[0];
    member->n = 0;
    return VIS_OK;
}

void vis_ensemble_fini(vis_ensemble_t *e)
{
    if (!e || e->shared)
        return;
    for (int i = 0; i < e->n; i++)
        cvb_net_free(e->net[i]);
    e->n = 0;
    pthread_mutex_destroy(&e->lock);
}

/* Every member of e over img (the view under symmetry sym, or a part of it), each output
 * checked to be c x h x w and handed to each; logit holds cap floats. */
static int run_members(vis_ensemble_t *e, const cvb_image_t *img, int sym, int c, int h, int w,
                       float *logit, size_t cap, vis_ensemble_each_fn each, void *ctx)
{
    for (int mb = 0; mb < e->n; mb++) {
        int oc = 0, oh = 0, ow = 0;
        pthread_mutex_lock(&e->lock);
        int frc = cvb_net_forward(e->net[mb], img, logit, cap, &oc, &oh, &ow);
        pthread_mutex_unlock(&e->lock);
        if (frc || oc != c || oh != h || ow != w)
            return frc == CVB_ENOMEM ? VIS_ENOMEM : VIS_EMODEL;
        each(ctx, sym, logit);
    }
    return VIS_OK;
}

int vis_ensemble_runs(vis_ensemble_t *e, const cvb_image_t *view, int first, int nsym, int c,
                      int h, int w, vis_ensemble_each_fn each, void *ctx)
{
    if (!e || e->n < 1 || !view || !view->data || view->channels != 3 || view->w != view->h ||
        nsym < 1 || first < 0 || first + nsym > 8 || c < 1 || h < 1 || w < 1 || !each)
        return VIS_EINVAL;
    size_t cap = (size_t)c * h * w;
    float *logit = malloc(cap * sizeof *logit);
    cvb_image_t tv = { 0 };
    int rc = logit ? VIS_OK : VIS_ENOMEM;
    if (!rc && (nsym > 1 || first) && cvb_image_alloc(&tv, view->w, view->h, 3))
        rc = VIS_ENOMEM;
    for (int sy = first; sy < first + nsym && !rc; sy++) { /* each member under each */
        if (sy)
            vis_view_sym(view, sy, &tv);
        rc = run_members(e, sy ? &tv : view, sy, c, h, w, logit, cap, each, ctx);
    }
    free(logit);
    cvb_image_free(&tv);
    return rc;
}

int vis_ensemble_run_part(vis_ensemble_t *e, const cvb_image_t *view, int cell, vis_blocks_t p,
                          int sym, int c, vis_ensemble_each_fn each, void *ctx)
{
    int bw = p.x1 - p.x0, bh = p.y1 - p.y0;
    if (!e || e->n < 1 || !view || !view->data || view->channels != 3 || cell < 1 ||
        p.x0 < 0 || p.y0 < 0 || bw < 1 || bh < 1 || p.x1 * cell > view->w ||
        p.y1 * cell > view->h || sym < 0 || sym > 3 || c < 1 || !each)
        return VIS_EINVAL;
    size_t cap = (size_t)c * bh * bw;
    float *logit = malloc(cap * sizeof *logit);
    cvb_image_t part = { 0 };
    int rc = logit ? VIS_OK : VIS_ENOMEM;
    if (!rc && cvb_image_alloc(&part, bw * cell, bh * cell, 3))
        rc = VIS_ENOMEM;
    if (!rc) { /* the part's pixels, mirrored within the part as sym says */
        int W = bw * cell, H = bh * cell;
        for (int y = 0; y < H; y++) {
            const uint8_t *row = view->data +
                                 (size_t)(p.y0 * cell + ((sym & 2) ? H - 1 - y : y)) * view->stride +
                                 (size_t)p.x0 * cell * 3;
            copy_row(part.data + (size_t)y * part.stride, row, W, sym & 1);
        }
        rc = run_members(e, &part, sym, c, bh, bw, logit, cap, each, ctx);
    }
    free(logit);
    cvb_image_free(&part);
    return rc;
}
