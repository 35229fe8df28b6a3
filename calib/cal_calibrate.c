/* cal_calibrate.c: one frame -> profile (board, orientation, learned colours, fit), and
 * profile -> vision (geometry, classifier thresholds), the fit check and re-location.
 * Invariant: every profile this file writes has passed cal_profile_validate. */
#include "calib/cal_calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"

void cal_calib_opts_defaults(cal_calib_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->black_side = VIS_SIDE_BOTTOM;
    o->min_conf = 0.6;
}

int cal_parse_corners(const char *s, double corners[4][2])
{
    if (!s || !corners)
        return CAL_EINVAL;
    double c[4][2];
    const char *p = s;
    for (int k = 0; k < 4; k++) {
        char *end;
        errno = 0;
        c[k][0] = strtod(p, &end);
        if (end == p || *end != ',' || errno || !isfinite(c[k][0]))
            return CAL_EINVAL;
        p = end + 1;
        c[k][1] = strtod(p, &end);
        if (end == p || errno || !isfinite(c[k][1]))
            return CAL_EINVAL;
        p = end;
        while (*p == ' ')
            p++;
        if (k < 3) {
            if (*p != ';')
                return CAL_EINVAL;
            p++;
        }
    }
    if (*p)
        return CAL_EINVAL;
    memcpy(corners, c, sizeof c);
    return CAL_OK;
}

/* Mean BGR of the pixels at board offsets (bx + ox[k], by + oy[k]); 0 when none fall in. */
static int mean_bgr(const cvb_image_t *img, const double H[9], double bx, double by,
                    const double (*off)[2], int n, double out[3])
{
    double s[3] = { 0, 0, 0 };
    int m = 0;
    for (int k = 0; k < n; k++) {
        double u, v;
        if (vis_homog_apply(H, bx + off[k][0], by + off[k][1], &u, &v))
            continue;
        long x = lround(u), y = lround(v);
        if (x < 0 || y < 0 || x >= img->w || y >= img->h)
            continue;
        const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * img->channels;
        for (int c = 0; c < 3; c++)
            s[c] += p[img->channels == 3 ? c : 0];
        m++;
    }
    if (m < n / 2 + 1)
        return 0;
    for (int c = 0; c < 3; c++)
        out[c] = s[c] / m;
    return 1;
}

/* Learn the mean colours of empty points (off the grid lines) and of the stones (a disc
 * of 0.3 grid units) the classifier is sure of. */
static void learn_colors(const cvb_image_t *img, const vis_geom_t *g, const vis_snapshot_t *s,
                         double min_conf, double mean[3][3], int n[3])
{
    static const double board_off[8][2] = { { -0.3, -0.3 }, { 0.3, -0.3 }, { 0.3, 0.3 },
                                            { -0.3, 0.3 },  { -0.2, -0.2 }, { 0.2, -0.2 },
                                            { 0.2, 0.2 },   { -0.2, 0.2 } };
    double disc[32][2];
    int dn = 0;
    for (int a = -2; a <= 2; a++)
        for (int b = -2; b <= 2; b++)
            if (a * a + b * b <= 5) {
                disc[dn][0] = a * 0.13;
                disc[dn][1] = b * 0.13;
                dn++;
            }
    double sum[3][3];
    memset(sum, 0, sizeof sum);
    memset(n, 0, 3 * sizeof(int));
    int S = g->size;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int k = y * S + x, c = s->color[k];
            if (s->occluded[k] || s->conf[k] < min_conf || c > 2)
                continue;
            double m[3];
            int ok = c == GO_EMPTY ? mean_bgr(img, g->H, x, y, board_off, 8, m)
                                    : mean_bgr(img, g->H, x, y, (const double (*)[2])disc, dn, m);
            if (!ok)
                continue;
            for (int j = 0; j < 3; j++)
                sum[c][j] += m[j];
            n[c]++;
        }
    for (int c = 0; c < 3; c++)
        for (int j = 0; j < 3; j++)
            mean[c][j] = n[c] ? sum[c][j] / n[c] : 0;
}

/* The profile's model <-> vision's vis_board_model_t. */
static void model_to_profile(const vis_board_model_t *m, cal_profile_t *q)
{
    for (int c = 0; c < 3; c++) {
        q->model_n[c] = m->n[c];
        memcpy(q->model_mean[c], m->mean[c], sizeof q->model_mean[c]);
        memcpy(q->model_cov[c], m->cov[c], sizeof q->model_cov[c]);
    }
}

int cal_profile_board_model(const cal_profile_t *p, vis_board_model_t *m)
{
    if (!m)
        return 0;
    vis_board_model_init(m);
    if (!p || !(p->model_n[0] || p->model_n[1] || p->model_n[2]))
        return 0;
    for (int c = 0; c < 3; c++) {
        m->n[c] = p->model_n[c];
        memcpy(m->mean[c], p->model_mean[c], sizeof m->mean[c]);
        memcpy(m->cov[c], p->model_cov[c], sizeof m->cov[c]);
    }
    return 1;
}

/* Read img with geometry g (with the model *bm when it holds a fit), refine *bm from that
 * reading (vis_board_model_update: the first fit taken whole, later ones by its rate),
 * and learn the mean colours from it (see cal_calibrate_frame). */
static int read_and_learn(const cvb_image_t *img, const vis_geom_t *g, const vis_config_t *cfg,
                          double min_conf, vis_snapshot_t *snap, vis_board_model_t *bm,
                          double mean[3][3], int n[3])
{
    vis_reading_t *r = malloc(sizeof *r);
    if (!r)
        return CAL_ENOMEM;
    vis_config_t c = *cfg;
    c.debug = NULL;
    c.board = bm->n[0] || bm->n[1] || bm->n[2] ? bm : NULL;
    if (vis_classify_reading(img, g, &c, snap, r)) {
        free(r);
        return CAL_EFIELD;
    }
    vis_board_model_update(bm, r, snap);
    free(r);
    learn_colors(img, g, snap, min_conf, mean, n);
    return CAL_OK;
}

int cal_calibrate_frame(const cvb_image_t *img, const cal_calib_opts_t *o, cal_profile_t *p,
                        cal_calib_report_t *rep)
{
    if (!img || !img->data || !o || !p || o->rotate < 0 || o->rotate > 3 ||
        (o->size && (o->size < 2 || o->size > VIS_MAX_SIZE)))
        return CAL_EINVAL;
    vis_config_t defcfg;
    const vis_config_t *cfg = o->vis;
    if (!cfg) {
        vis_config_defaults(&defcfg);
        cfg = &defcfg;
    }
    cal_calib_report_t *r = calloc(1, sizeof *r);
    if (!r)
        return CAL_ENOMEM;
    double view[4][2];
    int size = o->size, rc = CAL_OK;
    if (o->have_corners) {
        memcpy(view, o->corners, sizeof view);
        size = vis_size_for_corners(img, view, size);
    } else {
        vis_timing_t tm;
        rc = vis_detect(img, cfg, size, &r->geom, &r->snap, &tm);
        if (rc) {
            free(r);
            return rc == VIS_ENOBOARD ? CAL_ENOBOARD : rc == VIS_ENOMEM ? CAL_ENOMEM : CAL_EIO;
        }
        memcpy(view, r->geom.corners, sizeof view);
        size = r->geom.size;
        r->detected = 1;
    }
    double rec[4][2];
    for (int k = 0; k < 4; k++) {
        rec[k][0] = view[(k - o->rotate + 4) % 4][0];
        rec[k][1] = view[(k - o->rotate + 4) % 4][1];
    }
    double mean[3][3];
    vis_board_model_t bm;
    vis_board_model_init(&bm);
    if (vis_geom_from_corners(rec, size, img->w, img->h, &r->geom) ||
        vis_grid_fit(img, &r->geom, &r->fit)) {
        free(r);
        return CAL_EFIELD;
    }
    rc = read_and_learn(img, &r->geom, cfg, o->min_conf, &r->snap, &bm, mean, r->n);
    if (rc) {
        free(r);
        return rc;
    }

    cal_profile_t q = *p; /* keeps the lens */
    q.version = CAL_PROFILE_VERSION;
    q.image_w = img->w;
    q.image_h = img->h;
    q.size = size;
    memcpy(q.corners, rec, sizeof rec);
    q.rotate = o->rotate;
    q.black_side = o->black_side;
    q.has_colors = r->n[0] > 0;
    memcpy(q.color_n, r->n, sizeof q.color_n);
    memcpy(q.empty_bgr, mean[0], sizeof q.empty_bgr);
    memcpy(q.black_bgr, mean[1], sizeof q.black_bgr);
    memcpy(q.white_bgr, mean[2], sizeof q.white_bgr);
    if (!q.has_colors)
        memset(q.color_n, 0, sizeof q.color_n);
    model_to_profile(&bm, &q);
    q.fit = r->fit < 0 ? 0 : r->fit > 1 ? 1 : r->fit;
    rc = cal_profile_validate(&q, NULL, 0);
    if (rc == CAL_OK) {
        *p = q;
        if (rep)
            *rep = *r;
    }
    free(r);
    return rc;
}

int cal_profile_to_geom(const cal_profile_t *p, int img_w, int img_h, vis_geom_t *geom)
{
    if (!p || !geom || img_w < 1 || img_h < 1 || p->image_w < 1 || p->image_h < 1)
        return CAL_EINVAL;
    double sx = (double)img_w / p->image_w, sy = (double)img_h / p->image_h;
    if (fabs(sx - sy) > 0.01 * sx)
        return CAL_EINVAL;
    double c[4][2];
    for (int k = 0; k < 4; k++) {
        c[k][0] = p->corners[k][0] * sx;
        c[k][1] = p->corners[k][1] * sy;
    }
    return vis_geom_from_corners(c, p->size, img_w, img_h, geom) ? CAL_EFIELD : CAL_OK;
}


double cal_fit_threshold(const cal_profile_t *p, const vis_config_t *cfg)
{
    vis_config_t d;
    if (!cfg) {
        vis_config_defaults(&d);
        cfg = &d;
    }
    double t = cfg->track_min_fit;
    if (p && p->fit > 0 && 0.6 * p->fit > t)
        t = 0.6 * p->fit;
    return t;
}

int cal_check(const cvb_image_t *img, const cal_profile_t *p, const vis_config_t *cfg,
              double *fit, int *fits)
{
    if (!img || !img->data || !p || !fit || !fits)
        return CAL_EINVAL;
    vis_geom_t *g = malloc(sizeof *g);
    if (!g)
        return CAL_ENOMEM;
    int rc = cal_profile_to_geom(p, img->w, img->h, g);
    double f = 0;
    if (rc == CAL_OK && vis_grid_fit(img, g, &f))
        rc = CAL_EIO;
    free(g);
    if (rc)
        return rc;
    *fit = f;
    *fits = f >= cal_fit_threshold(p, cfg);
    return CAL_OK;
}

int cal_relocate(const cvb_image_t *img, const cal_profile_t *p, const vis_config_t *cfg,
                 vis_geom_t *geom)
{
    if (!img || !img->data || !p || !geom)
        return CAL_EINVAL;
    vis_geom_t *g = malloc(sizeof *g);
    vis_snapshot_t *s = malloc(sizeof *s);
    if (!g || !s) {
        free(g);
        free(s);
        return CAL_ENOMEM;
    }
    memset(s, 0, sizeof *s);
    int rc = vis_detect(img, cfg, p->size, g, s, NULL);
    if (rc) {
        free(g);
        free(s);
        return rc == VIS_ENOBOARD ? CAL_ENOBOARD : rc == VIS_ENOMEM ? CAL_ENOMEM : CAL_EIO;
    }
    double sx = (double)img->w / p->image_w, sy = (double)img->h / p->image_h;
    int best = 0;
    double bestd = INFINITY;
    for (int r = 0; r < 4; r++) {
        double d = 0;
        for (int k = 0; k < 4; k++) {
            const double *a = g->corners[(k - r + 4) % 4];
            d += hypot(a[0] - p->corners[k][0] * sx, a[1] - p->corners[k][1] * sy);
        }
        if (d < bestd) {
            bestd = d;
            best = r;
        }
    }
    double rec[4][2];
    for (int k = 0; k < 4; k++) {
        rec[k][0] = g->corners[(k - best + 4) % 4][0];
        rec[k][1] = g->corners[(k - best + 4) % 4][1];
    }
    rc = vis_geom_from_corners(rec, g->size, img->w, img->h, g) ? CAL_EIO : CAL_OK;
    if (rc == CAL_OK)
        *geom = *g;
    free(g);
    free(s);
    return rc;
}

int cal_profile_set_corners(cal_profile_t *p, double corners[4][2], int img_w, int img_h,
                            char *err, size_t errlen)
{
    if (!p || !corners || img_w < 1 || img_h < 1)
        return CAL_EINVAL;
    cal_profile_t q = *p;
    memcpy(q.corners, corners, sizeof q.corners);
    if (img_w != q.image_w || img_h != q.image_h) {
        /* a lens calibrated at another resolution scales with the frame */
        double sx = (double)img_w / q.image_w, sy = (double)img_h / q.image_h;
        q.fx *= sx;
        q.cx *= sx;
        q.fy *= sy;
        q.cy *= sy;
        q.image_w = img_w;
        q.image_h = img_h;
    }
    int rc = cal_profile_validate(&q, err, errlen);
    if (rc == CAL_OK)
        *p = q;
    return rc;
}

int cal_adapt(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
              double alpha, cal_profile_t *p)
{
    if (!img || !img->data || !geom || !p || !(alpha >= 0 && alpha <= 1))
        return CAL_EINVAL;
    vis_config_t c;
    if (cfg)
        c = *cfg;
    else
        vis_config_defaults(&c);
    vis_board_model_t bm;
    cal_profile_board_model(p, &bm);
    bm.rate = alpha;
    vis_snapshot_t *s = calloc(1, sizeof *s);
    if (!s)
        return CAL_ENOMEM;
    double mean[3][3];
    int n[3];
    int rc = read_and_learn(img, geom, &c, 0.6, s, &bm, mean, n);
    free(s);
    if (rc)
        return rc;
    cal_profile_t q = *p;
    double *dst[3] = { q.empty_bgr, q.black_bgr, q.white_bgr };
    for (int k = 0; k < 3; k++) {
        if (!n[k])
            continue;
        double a = (q.has_colors && q.color_n[k]) ? alpha : 1; /* a first sample is taken whole */
        for (int j = 0; j < 3; j++)
            dst[k][j] = (1 - a) * dst[k][j] + a * mean[k][j];
        if (!q.has_colors || !q.color_n[k])
            q.color_n[k] = n[k];
    }
    if (n[0] && !q.has_colors) {
        q.has_colors = 1;
        q.color_n[1] = n[1];
        q.color_n[2] = n[2];
    }
    if (q.has_colors)
        model_to_profile(&bm, &q);
    rc = cal_profile_validate(&q, NULL, 0);
    if (rc == CAL_OK)
        *p = q;
    return rc;
}
