/* cal_lens.c: lens calibration from chessboard views, point and frame undistortion, and
 * the straightness measure. OpenCV is reached only through cv_bridge.h.
 * Invariant: a cal_undistorter_t holds maps of exactly its w x h. */
#include "calib/cal_lens.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cal_lens_parse_pattern(const char *s, int *cols, int *rows, double *square)
{
    if (!s || !cols || !rows || !square)
        return CAL_EINVAL;
    char *end;
    errno = 0;
    long c = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno)
        return CAL_EINVAL;
    const char *q = end + 1;
    long r = strtol(q, &end, 10);
    if (end == q || errno)
        return CAL_EINVAL;
    double sq = 1;
    if (*end == ':') {
        q = end + 1;
        sq = strtod(q, &end);
        if (end == q || errno || !isfinite(sq) || !(sq > 0) || sq > 1e6)
            return CAL_EINVAL;
    }
    if (*end || c < 2 || c > 50 || r < 2 || r > 50)
        return CAL_EINVAL;
    *cols = (int)c;
    *rows = (int)r;
    *square = sq;
    return CAL_OK;
}

int cal_lens_find(const cvb_image_t *img, int cols, int rows, double *pts, int *found)
{
    if (!img || !pts || !found || cols < 2 || rows < 2 || cols > 50 || rows > 50)
        return CAL_EINVAL;
    int n = cols * rows, f = 0;
    float *fp = malloc(sizeof(float) * 2 * (size_t)n);
    if (!fp)
        return CAL_ENOMEM;
    int rc = cvb_find_chessboard(img, cols, rows, fp, &f);
    if (rc == CVB_OK && f)
        for (int i = 0; i < 2 * n; i++)
            pts[i] = fp[i];
    free(fp);
    if (rc)
        return rc == CVB_ENOMEM ? CAL_ENOMEM : rc == CVB_EINVAL ? CAL_EINVAL : CAL_EIO;
    *found = f;
    return CAL_OK;
}

int cal_lens_calibrate(const double *pts, int nviews, int cols, int rows, double square,
                       int w, int h, cal_profile_t *p)
{
    if (!pts || !p || nviews < CAL_LENS_MIN_VIEWS || cols < 2 || rows < 2 || cols > 50 ||
        rows > 50 || !(square > 0) || w < 16 || h < 16)
        return CAL_EINVAL;
    int n = cols * rows;
    float *obj = malloc(sizeof(float) * 2 * (size_t)n);
    float *ip = malloc(sizeof(float) * 2 * (size_t)n * (size_t)nviews);
    if (!obj || !ip) {
        free(obj);
        free(ip);
        return CAL_ENOMEM;
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            obj[2 * (r * cols + c)] = (float)(c * square);
            obj[2 * (r * cols + c) + 1] = (float)(r * square);
        }
    for (size_t i = 0; i < 2 * (size_t)n * (size_t)nviews; i++)
        ip[i] = (float)pts[i];
    double K[9], d[5], rms;
    int rc = cvb_calibrate_camera(obj, ip, n, nviews, w, h, K, d, &rms);
    free(obj);
    free(ip);
    if (rc)
        return rc == CVB_ENOMEM ? CAL_ENOMEM : CAL_EIO;
    if (!(K[0] > 0) || !(K[4] > 0) || !isfinite(K[2]) || !isfinite(K[5]))
        return CAL_EIO;
    for (int i = 0; i < 5; i++)
        if (!isfinite(d[i]) || fabs(d[i]) > 100)
            return CAL_EIO;
    p->has_lens = 1;
    p->fx = K[0];
    p->fy = K[4];
    p->cx = K[2];
    p->cy = K[5];
    memcpy(p->dist, d, sizeof d);
    p->lens_rms = rms;
    return CAL_OK;
}

static void lens_K(const cal_profile_t *p, double sx, double sy, double K[9])
{
    double k[9] = { p->fx * sx, 0, p->cx * sx, 0, p->fy * sy, p->cy * sy, 0, 0, 1 };
    memcpy(K, k, sizeof k);
}

int cal_lens_undistort_points(const cal_profile_t *p, const double *in, double *out, int n)
{
    if (!p || !in || !out || n < 0)
        return CAL_EINVAL;
    if (!p->has_lens) {
        memmove(out, in, sizeof(double) * 2 * (size_t)n);
        return CAL_OK;
    }
    double K[9];
    lens_K(p, 1, 1, K);
    return cvb_undistort_points(in, out, n, K, p->dist) ? CAL_EIO : CAL_OK;
}

/* Distances of m points from their total-least-squares line: adds squares to *ss, the
 * count to *cnt and raises *mx. */
static void line_dev(const double *pts, const int *idx, int m, double *ss, int *cnt, double *mx)
{
    double mxv = 0, myv = 0;
    for (int i = 0; i < m; i++) {
        mxv += pts[2 * idx[i]];
        myv += pts[2 * idx[i] + 1];
    }
    mxv /= m;
    myv /= m;
    double sxx = 0, sxy = 0, syy = 0;
    for (int i = 0; i < m; i++) {
        double dx = pts[2 * idx[i]] - mxv, dy = pts[2 * idx[i] + 1] - myv;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    /* direction: the principal axis of the scatter; the normal is perpendicular */
    double th = 0.5 * atan2(2 * sxy, sxx - syy);
    double nx = -sin(th), ny = cos(th);
    for (int i = 0; i < m; i++) {
        double d = fabs((pts[2 * idx[i]] - mxv) * nx + (pts[2 * idx[i] + 1] - myv) * ny);
        *ss += d * d;
        (*cnt)++;
        if (d > *mx)
            *mx = d;
    }
}

int cal_straightness(const double *pts, int cols, int rows, double *rms, double *max)
{
    if (!pts || cols < 3 || rows < 3 || cols > 1000 || rows > 1000)
        return CAL_EINVAL;
    int *idx = malloc(sizeof(int) * (size_t)(cols > rows ? cols : rows));
    if (!idx)
        return CAL_ENOMEM;
    double ss = 0, mx = 0;
    int cnt = 0;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            idx[c] = r * cols + c;
        line_dev(pts, idx, cols, &ss, &cnt, &mx);
    }
    for (int c = 0; c < cols; c++) {
        for (int r = 0; r < rows; r++)
            idx[r] = r * cols + c;
        line_dev(pts, idx, rows, &ss, &cnt, &mx);
    }
    free(idx);
    if (rms)
        *rms = sqrt(ss / cnt);
    if (max)
        *max = mx;
    return CAL_OK;
}

struct cal_undistorter {
    int w, h;
    float *mapx, *mapy;
};

int cal_undistorter_create(const cal_profile_t *p, int w, int h, cal_undistorter_t **out)
{
    if (!p || !out || !p->has_lens || w < 16 || h < 16 || w > 16384 || h > 16384 ||
        p->image_w <= 0 || p->image_h <= 0)
        return CAL_EINVAL;
    double sx = (double)w / p->image_w, sy = (double)h / p->image_h;
    if (fabs(sx - sy) > 0.01 * sx)
        return CAL_EINVAL;
    cal_undistorter_t *u = calloc(1, sizeof *u);
    if (!u)
        return CAL_ENOMEM;
    u->w = w;
    u->h = h;
    u->mapx = malloc(sizeof(float) * (size_t)w * (size_t)h);
    u->mapy = malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (!u->mapx || !u->mapy) {
        cal_undistorter_destroy(u);
        return CAL_ENOMEM;
    }
    double K[9];
    lens_K(p, sx, sy, K);
    int rc = cvb_undistort_map(w, h, K, p->dist, u->mapx, u->mapy);
    if (rc) {
        cal_undistorter_destroy(u);
        return rc == CVB_ENOMEM ? CAL_ENOMEM : CAL_EIO;
    }
    *out = u;
    return CAL_OK;
}

int cal_undistort(cal_undistorter_t *u, const cvb_image_t *img, cvb_image_t *out)
{
    if (!u || !img || !out || img == out || img->w != u->w || img->h != u->h)
        return CAL_EINVAL;
    int rc = cvb_remap(img, u->mapx, u->mapy, out);
    if (rc)
        return rc == CVB_ENOMEM ? CAL_ENOMEM : rc == CVB_EINVAL ? CAL_EINVAL : CAL_EIO;
    return CAL_OK;
}

void cal_undistorter_destroy(cal_undistorter_t *u)
{
    if (!u)
        return;
    free(u->mapx);
    free(u->mapy);
    free(u);
}
