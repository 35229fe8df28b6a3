/* vis_read.c: reading every point of a board whose geometry is known (vis_classify).
 *
 * Three steps, each its own function:
 *   1 features: the learned reader's class probabilities per point (vis_net_probs: the
 *     board seen from above, so perspective is undone);
 *   2 decision (vis_decide, pure): probabilities -> colour, confidence, covered;
 *   3 occlusion (vis_occlusion_pass, pure): the covered mask grown around each hand.
 * Invariants: an occluded point's colour is VIS_EMPTY and its confidence 0 (its colour is
 * unknown, never "empty"); the confidence of a colour is its probability among the three
 * colours, so under 0.5 means the reader could not tell (stn_stab treats it as unknown).
 */
#include "vision/vis.h"

#include <stdlib.h>
#include <string.h>

#include "vision/vis_internal.h"

void vis_decide(const float *prob, int size, const vis_config_t *cfg, vis_snapshot_t *snap)
{
    for (int k = 0; k < size * size; k++) {
        const float *p = prob + (size_t)k * VIS_NCLASS;
        float colours = p[VIS_CLASS_EMPTY] + p[VIS_CLASS_BLACK] + p[VIS_CLASS_WHITE];
        if (p[VIS_CLASS_COVERED] + p[VIS_CLASS_OFF] >= cfg->covered_min || colours <= 0) {
            snap->color[k] = VIS_EMPTY;
            snap->conf[k] = 0;
            snap->occluded[k] = 1;
            continue;
        }
        int best = VIS_CLASS_EMPTY;
        for (int c = VIS_CLASS_BLACK; c <= VIS_CLASS_WHITE; c++)
            if (p[c] > p[best])
                best = c;
        snap->color[k] = (uint8_t)(best == VIS_CLASS_BLACK ? VIS_BLACK
                                   : best == VIS_CLASS_WHITE ? VIS_WHITE : VIS_EMPTY);
        snap->conf[k] = p[best] / colours;
        snap->occluded[k] = 0;
    }
}

double vis_grid_belief(const float *prob, int size)
{
    double sum = 0;
    int n = 0;
    for (int k = 0; k < size * size; k++) {
        const float *p = prob + (size_t)k * VIS_NCLASS;
        /* a point off the picture says nothing of the grid */
        if (p[VIS_CLASS_COVERED] > 0.5f)
            continue;
        sum += 1.0 - p[VIS_CLASS_OFF];
        n++;
    }
    return n ? sum / n : 0;
}

void vis_occlusion_pass(vis_snapshot_t *s, const vis_config_t *cfg)
{
    int S = s->size;
    /* the 8-connected pieces of the mask: a lone point or a pair is a misread or a
     * fingertip, and does not grow */
    int comp[VIS_MAX_POINTS], csize[VIS_MAX_POINTS], stack[VIS_MAX_POINTS], nc = 0;
    for (int k = 0; k < S * S; k++)
        comp[k] = -1;
    for (int k0 = 0; k0 < S * S; k0++) {
        if (!s->occluded[k0] || comp[k0] >= 0)
            continue;
        int sp = 0, n = 0;
        stack[sp++] = k0;
        comp[k0] = nc;
        while (sp) {
            int k = stack[--sp], x = k % S, y = k / S;
            n++;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy, q = ny * S + nx;
                    if (nx >= 0 && ny >= 0 && nx < S && ny < S && s->occluded[q] && comp[q] < 0) {
                        comp[q] = nc;
                        stack[sp++] = q;
                    }
                }
        }
        csize[nc++] = n;
    }
    for (int ring = 0; ring < cfg->occ_margin && ring < S; ring++) {
        uint8_t grow[VIS_MAX_POINTS];
        memcpy(grow, s->occluded, (size_t)S * S);
        for (int k = 0; k < S * S; k++) {
            if (!s->occluded[k] || (comp[k] >= 0 && csize[comp[k]] < cfg->occ_min_piece))
                continue;
            int x = k % S, y = k / S;
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
                s->color[k] = VIS_EMPTY;
                s->conf[k] = 0;
            }
    }
    s->occluder = 0;
    for (int k = 0; k < S * S; k++)
        s->occluder |= s->occluded[k];
}

int vis_read_probs(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                   float *prob, float *feat)
{
    if (getenv("KIFUCAM_LEGACY_READER")) { /* comparison only, while both exist */
        for (int k = 0; k < geom->size * geom->size; k++) {
            float *p = prob + (size_t)k * VIS_NCLASS;
            memset(p, 0, sizeof(float) * VIS_NCLASS);
            p[VIS_CLASS_EMPTY] = 1;
        }
        return VIS_OK;
    }
    vis_net_t *net = cfg->net ? cfg->net : vis_net_builtin();
    if (!net)
        return VIS_EMODEL;
    float *f = feat;
    if (!f && cfg->board) {
        f = malloc(sizeof(float) * 3 * (size_t)geom->size * geom->size);
        if (!f)
            return VIS_ENOMEM;
    }
    int rc = vis_net_probs(net, img, geom, prob, f);
    if (!rc && cfg->board)
        vis_board_model_apply(cfg->board, f, geom->size, prob);
    if (f != feat)
        free(f);
    return rc;
}

int vis_snapshot_from_probs(const cvb_image_t *img, const vis_geom_t *geom,
                            const vis_config_t *cfg, const float *prob, vis_snapshot_t *snap)
{
    if (getenv("KIFUCAM_LEGACY_READER"))
        return vis_classify_legacy(img, geom, cfg, snap);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    s.size = geom->size;
    s.frame = snap->frame;
    s.t = snap->t;
    vis_decide(prob, geom->size, cfg, &s);
    vis_occlusion_pass(&s, cfg);
    *snap = s;
    return VIS_OK;
}

int vis_classify_ex2(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                     vis_snapshot_t *snap, float *feat)
{
    if (!img || !img->data || !geom || !snap || geom->size < 2 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    int S = geom->size;
    float *prob = malloc((size_t)S * S * VIS_NCLASS * sizeof *prob);
    if (!prob)
        return VIS_ENOMEM;
    int rc = vis_read_probs(img, geom, cfg, prob, feat);
    if (!rc)
        rc = vis_snapshot_from_probs(img, geom, cfg, prob, snap);
    free(prob);
    return rc;
}

int vis_classify(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                 vis_snapshot_t *snap)
{
    return vis_classify_ex2(img, geom, cfg, snap, NULL);
}

int vis_classify_self(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                      vis_snapshot_t *snap)
{
    if (!img || !geom || !snap || geom->size < 2 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    vis_config_t c;
    if (cfg)
        c = *cfg;
    else
        vis_config_defaults(&c);
    float *feat = malloc(sizeof(float) * 3 * (size_t)geom->size * geom->size);
    if (!feat)
        return VIS_ENOMEM;
    vis_snapshot_t s = *snap;
    c.board = NULL;
    int rc = vis_classify_ex2(img, geom, &c, &s, feat);
    if (!rc) {
        vis_board_model_t m;
        vis_board_model_init(&m);
        vis_board_model_update(&m, feat, &s);
        c.board = &m;
        rc = vis_classify_ex2(img, geom, &c, &s, NULL);
    }
    free(feat);
    if (!rc)
        *snap = s;
    return rc;
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
        double x = (k % S + 1.5) * CELL - 0.5, y = (k / S + 1.5) * CELL - 0.5;
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
        if (snap->color[k] == VIS_BLACK)
            cvb_draw_circle(&v, x, y, CELL * 0.16, 255, 64, 0, -1);
        else if (snap->color[k] == VIS_WHITE)
            cvb_draw_circle(&v, x, y, CELL * 0.16, 0, 255, 255, -1);
    }
    cvb_image_free(out);
    *out = v;
    return VIS_OK;
}
