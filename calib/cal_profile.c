/* cal_profile.c: load, validate and save the calibration profile (JSON via jansson).
 * Invariant: a cal_profile_t that this file hands out has passed cal_profile_validate. */
#include "calib/cal_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "safeio/sio.h"

#define CAL_MAX_FILE (1 << 20) /* a profile is a few hundred bytes; refuse anything huge */

const char *cal_strerror(int code)
{
    switch (code) {
    case CAL_OK: return "success";
    case CAL_EINVAL: return "invalid argument";
    case CAL_EIO: return "cannot read or write the profile";
    case CAL_EPARSE: return "the profile is not valid JSON";
    case CAL_EVERSION: return "unsupported profile version";
    case CAL_EFIELD: return "a profile field is missing or out of range";
    case CAL_ENOMEM: return "out of memory";
    case CAL_ENOBOARD: return "no board found";
    default: return "unknown error";
    }
}

const char *cal_side_name(vis_side_t s)
{
    return vis_side_name(s);
}

int cal_side_from_name(const char *name)
{
    for (int i = 0; name && i < 4; i++)
        if (!strcmp(name, vis_side_name((vis_side_t)i)))
            return i;
    return -1;
}

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        /* one line, whatever the input held: jansson quotes the bytes near a JSON error,
         * which may be line breaks or other control characters */
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = ' ';
    }
    return code;
}

void cal_profile_defaults(cal_profile_t *p, int size, int w, int h)
{
    memset(p, 0, sizeof *p);
    p->version = CAL_PROFILE_VERSION;
    p->image_w = w;
    p->image_h = h;
    p->size = size;
    p->corners[0][0] = p->corners[3][0] = 0.1 * w;
    p->corners[1][0] = p->corners[2][0] = 0.9 * w;
    p->corners[0][1] = p->corners[1][1] = 0.1 * h;
    p->corners[2][1] = p->corners[3][1] = 0.9 * h;
    p->black_side = VIS_SIDE_BOTTOM;
}

static int colour_ok(const double c[3])
{
    for (int i = 0; i < 3; i++)
        if (!isfinite(c[i]) || c[i] < 0 || c[i] > 255)
            return 0;
    return 1;
}

/* The board model's numbers are a colour model's: means of log ratios, a covariance with
 * a positive diagonal, a colour fitted only where its count says so. */
static int model_ok(const cal_profile_t *p)
{
    for (int c = 0; c < 3; c++) {
        if (p->model_n[c] < 0)
            return 0;
        if (!p->model_n[c])
            continue;
        for (int a = 0; a < 3; a++)
            if (!isfinite(p->model_mean[c][a]) || fabs(p->model_mean[c][a]) > 20)
                return 0;
        for (int a = 0; a < 6; a++)
            if (!isfinite(p->model_cov[c][a]) || fabs(p->model_cov[c][a]) > 100)
                return 0;
        if (!(p->model_cov[c][0] > 0 && p->model_cov[c][3] > 0 && p->model_cov[c][5] > 0))
            return 0;
    }
    return 1;
}

int cal_profile_validate(const cal_profile_t *p, char *err, size_t errlen)
{
    if (!p)
        return fail(err, errlen, CAL_EINVAL, "no profile");
    if (p->version != CAL_PROFILE_VERSION)
        return fail(err, errlen, CAL_EVERSION, "version %d is not supported (expected %d)",
                    p->version, CAL_PROFILE_VERSION);
    if (p->image_w < 16 || p->image_h < 16 || p->image_w > 16384 || p->image_h > 16384)
        return fail(err, errlen, CAL_EFIELD, "image size %dx%d is out of range", p->image_w,
                    p->image_h);
    if (p->size < 2 || p->size > 25)
        return fail(err, errlen, CAL_EFIELD, "board size %d is out of range (2..25)", p->size);
    for (int i = 0; i < 4; i++) {
        double x = p->corners[i][0], y = p->corners[i][1];
        if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0 || x > p->image_w - 1 ||
            y > p->image_h - 1)
            return fail(err, errlen, CAL_EFIELD, "corner %d (%.1f,%.1f) is outside the %dx%d image",
                        i + 1, x, y, p->image_w, p->image_h);
    }
    /* The four corners must turn the same way (a convex quadrilateral) and enclose a
     * board of some size: at least 2 pixels per grid interval on each side. */
    int sign = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = p->corners[i], *b = p->corners[(i + 1) % 4], *c = p->corners[(i + 2) % 4];
        double cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
        int s = cross > 0 ? 1 : cross < 0 ? -1 : 0;
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        if (len < 2.0 * (p->size - 1))
            return fail(err, errlen, CAL_EFIELD, "corners %d and %d are too close (%.1f px)", i + 1,
                        (i + 1) % 4 + 1, len);
        if (s == 0 || (sign && s != sign))
            return fail(err, errlen, CAL_EFIELD, "the corners do not form a convex quadrilateral");
        sign = s;
    }
    if (p->rotate < 0 || p->rotate > 3)
        return fail(err, errlen, CAL_EFIELD, "rotate %d is out of range (0..3)", p->rotate);
    if ((unsigned)p->black_side > 3)
        return fail(err, errlen, CAL_EFIELD, "black_side is not one of bottom/right/top/left");
    if (p->has_lens) {
        if (!(p->fx > 0) || !(p->fy > 0) || !isfinite(p->fx) || !isfinite(p->fy) ||
            !isfinite(p->cx) || !isfinite(p->cy))
            return fail(err, errlen, CAL_EFIELD, "lens camera matrix is not valid");
        for (int i = 0; i < 5; i++)
            if (!isfinite(p->dist[i]) || fabs(p->dist[i]) > 100)
                return fail(err, errlen, CAL_EFIELD, "lens distortion coefficient %d is out of range", i + 1);
    }
    if (p->has_colors && (!colour_ok(p->empty_bgr) || (p->color_n[1] && !colour_ok(p->black_bgr)) ||
                          (p->color_n[2] && !colour_ok(p->white_bgr))))
        return fail(err, errlen, CAL_EFIELD, "a learned colour is outside 0..255");
    if (p->has_colors && (p->color_n[0] <= 0 || p->color_n[1] < 0 || p->color_n[2] < 0))
        return fail(err, errlen, CAL_EFIELD, "colour sample counts are not valid");
    if (!model_ok(p))
        return fail(err, errlen, CAL_EFIELD, "the board's colour model is not valid (colors.model)");
    if (p->has_lens && (!isfinite(p->lens_rms) || p->lens_rms < 0 || p->lens_rms > 1000))
        return fail(err, errlen, CAL_EFIELD, "lens rms %.3g is out of range", p->lens_rms);
    if (p->has_lens) {
        /* a camera that can exist: the principal point inside the image, a focal length
         * between a fish-eye's (170 degrees across: 0.044 of the image's longer side) and
         * a long telephoto's (0.6 degrees: 100 times it), square-ish pixels. fx 1e-300 or
         * cx 1e9 map every point of the board off the picture: an all-empty reading. */
        double side = p->image_w > p->image_h ? p->image_w : p->image_h;
        if (p->cx < 0 || p->cx > p->image_w || p->cy < 0 || p->cy > p->image_h)
            return fail(err, errlen, CAL_EFIELD, "lens principal point (%.4g,%.4g) is outside "
                        "the %dx%d image", p->cx, p->cy, p->image_w, p->image_h);
        if (p->fx < 0.04 * side || p->fx > 100 * side || p->fy < 0.04 * side ||
            p->fy > 100 * side || p->fx > 2 * p->fy || p->fy > 2 * p->fx)
            return fail(err, errlen, CAL_EFIELD, "lens focal lengths fx %.4g, fy %.4g are "
                        "impossible for a %dx%d image", p->fx, p->fy, p->image_w, p->image_h);
    }
    if (!isfinite(p->fit) || p->fit < 0 || p->fit > 1)
        return fail(err, errlen, CAL_EFIELD, "fit %.3g is out of range (0..1)", p->fit);
    return CAL_OK;
}

/* Read a number field (integer or real) from obj. */
static int get_num(json_t *obj, const char *key, double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || !json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

static int get_int(json_t *obj, const char *key, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || !json_is_integer(v))
        return -1;
    json_int_t i = json_integer_value(v);
    if (i < -1000000 || i > 1000000)
        return -1;
    *out = (int)i;
    return 0;
}

/* Read an array of n numbers. */
static int get_vec(json_t *arr, double *out, size_t n)
{
    if (!json_is_array(arr) || json_array_size(arr) != n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(arr, i);
        if (!json_is_number(v))
            return -1;
        out[i] = json_number_value(v);
    }
    return 0;
}

static int parse_root(json_t *root, cal_profile_t *p, char *err, size_t errlen)
{
    if (!json_is_object(root))
        return fail(err, errlen, CAL_EPARSE, "the profile is not a JSON object");
    if (get_int(root, "kifucam_profile", &p->version))
        return fail(err, errlen, CAL_EVERSION, "missing field 'kifucam_profile' (the version)");
    if (p->version != CAL_PROFILE_VERSION)
        return fail(err, errlen, CAL_EVERSION, "version %d is not supported (expected %d)",
                    p->version, CAL_PROFILE_VERSION);
    double wh[2];
    if (get_vec(json_object_get(root, "image"), wh, 2) || wh[0] != floor(wh[0]) ||
        wh[1] != floor(wh[1]) || fabs(wh[0]) > 1e6 || fabs(wh[1]) > 1e6)
        return fail(err, errlen, CAL_EFIELD, "missing or bad field 'image' ([width, height])");
    p->image_w = (int)wh[0];
    p->image_h = (int)wh[1];
    if (get_int(root, "size", &p->size))
        return fail(err, errlen, CAL_EFIELD, "missing or bad field 'size'");
    json_t *c = json_object_get(root, "corners");
    if (!json_is_array(c) || json_array_size(c) != 4)
        return fail(err, errlen, CAL_EFIELD, "missing or bad field 'corners' (four [x, y])");
    for (size_t i = 0; i < 4; i++)
        if (get_vec(json_array_get(c, i), p->corners[i], 2))
            return fail(err, errlen, CAL_EFIELD, "corner %zu is not [x, y]", i + 1);
    json_t *v;
    if (json_object_get(root, "rotate") && get_int(root, "rotate", &p->rotate))
        return fail(err, errlen, CAL_EFIELD, "bad field 'rotate'");
    if ((v = json_object_get(root, "black_side"))) {
        int s = json_is_string(v) ? cal_side_from_name(json_string_value(v)) : -1;
        if (s < 0)
            return fail(err, errlen, CAL_EFIELD, "bad field 'black_side' (bottom/right/top/left)");
        p->black_side = (vis_side_t)s;
    }
    if ((v = json_object_get(root, "lens")) && !json_is_null(v)) {
        if (!json_is_object(v) || get_num(v, "fx", &p->fx) || get_num(v, "fy", &p->fy) ||
            get_num(v, "cx", &p->cx) || get_num(v, "cy", &p->cy) ||
            get_vec(json_object_get(v, "dist"), p->dist, 5) ||
            (json_object_get(v, "rms") && get_num(v, "rms", &p->lens_rms)))
            return fail(err, errlen, CAL_EFIELD, "bad field 'lens' (fx, fy, cx, cy, dist[5], rms)");
        p->has_lens = 1;
    }
    if ((v = json_object_get(root, "colors")) && !json_is_null(v)) {
        /* empty is required; black and white may be null (not seen at calibration);
         * counts (optional, version 1 files may lack it) is [empty, black, white] */
        json_t *b = json_is_object(v) ? json_object_get(v, "black") : NULL;
        json_t *w = json_is_object(v) ? json_object_get(v, "white") : NULL;
        json_t *n = json_is_object(v) ? json_object_get(v, "counts") : NULL;
        double cnt[3] = { 1, 1, 1 };
        if (!json_is_object(v) || get_vec(json_object_get(v, "empty"), p->empty_bgr, 3) ||
            !b || (!json_is_null(b) && get_vec(b, p->black_bgr, 3)) ||
            !w || (!json_is_null(w) && get_vec(w, p->white_bgr, 3)) ||
            (n && get_vec(n, cnt, 3)))
            return fail(err, errlen, CAL_EFIELD, "bad field 'colors' (empty, black, white: [b, g, r] or null; counts)");
        for (int i = 0; i < 3; i++) {
            if (cnt[i] != floor(cnt[i]) || cnt[i] < 0 || cnt[i] > 1e6)
                return fail(err, errlen, CAL_EFIELD, "bad field 'colors.counts'");
            p->color_n[i] = (int)cnt[i];
        }
        if (json_is_null(b))
            p->color_n[1] = 0;
        if (json_is_null(w))
            p->color_n[2] = 0;
        if ((!json_is_null(b) && !p->color_n[1]) || (!json_is_null(w) && !p->color_n[2]))
            return fail(err, errlen, CAL_EFIELD, "bad field 'colors.counts' (0 for a colour given)");
        /* the thresholds of the hand-tuned classifier (profiles written before the
         * learned reader): still read, so that such a file loads, and not used */
        double old;
        if ((json_object_get(v, "black_rel") && get_num(v, "black_rel", &old)) ||
            (json_object_get(v, "white_rel") && get_num(v, "white_rel", &old)))
            return fail(err, errlen, CAL_EFIELD, "bad field 'colors.black_rel' or 'colors.white_rel'");
        json_t *m = json_object_get(v, "model");
        if (m && !json_is_null(m)) {
            json_t *mn = json_is_object(m) ? json_object_get(m, "n") : NULL;
            json_t *mm = json_is_object(m) ? json_object_get(m, "mean") : NULL;
            json_t *mc = json_is_object(m) ? json_object_get(m, "cov") : NULL;
            double n3[3];
            int bad = !mn || get_vec(mn, n3, 3) || !json_is_array(mm) || json_array_size(mm) != 3 ||
                      !json_is_array(mc) || json_array_size(mc) != 3;
            for (int i = 0; i < 3 && !bad; i++) {
                bad = n3[i] != floor(n3[i]) || n3[i] < 0 || n3[i] > 1e6 ||
                      get_vec(json_array_get(mm, (size_t)i), p->model_mean[i], 3) ||
                      get_vec(json_array_get(mc, (size_t)i), p->model_cov[i], 6);
                p->model_n[i] = bad ? 0 : (int)n3[i];
            }
            if (bad)
                return fail(err, errlen, CAL_EFIELD, "bad field 'colors.model' (n[3], mean[3][3], cov[3][6])");
        }
        p->has_colors = 1;
    }
    if (json_object_get(root, "fit") && get_num(root, "fit", &p->fit))
        return fail(err, errlen, CAL_EFIELD, "bad field 'fit'");
    return cal_profile_validate(p, err, errlen);
}

int cal_profile_parse(const char *text, size_t len, cal_profile_t *out, char *err, size_t errlen)
{
    if (!text || !out)
        return fail(err, errlen, CAL_EINVAL, "no profile text");
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return fail(err, errlen, CAL_EPARSE, "line %d column %d: %s", je.line, je.column, je.text);
    cal_profile_t p;
    memset(&p, 0, sizeof p);
    p.black_side = VIS_SIDE_BOTTOM;
    int rc = parse_root(root, &p, err, errlen);
    json_decref(root);
    if (rc == CAL_OK)
        *out = p;
    return rc;
}

int cal_profile_load(const char *path, cal_profile_t *out, char *err, size_t errlen)
{
    if (!path || !out)
        return fail(err, errlen, CAL_EINVAL, "no profile path");
    char *buf = NULL;
    size_t n = 0;
    int sys = 0, rc = sio_read_file(path, CAL_MAX_FILE, &buf, &n, &sys);
    if (rc == SIO_ETOOBIG)
        return fail(err, errlen, CAL_EPARSE, "the file is too large to be a profile");
    if (rc == SIO_ENOMEM)
        return fail(err, errlen, CAL_ENOMEM, "out of memory");
    if (rc != SIO_OK)
        return fail(err, errlen, CAL_EIO, "cannot open: %s", strerror(sys));
    if (n == 0)
        rc = fail(err, errlen, CAL_EPARSE, "the file is empty");
    else
        rc = cal_profile_parse(buf, n, out, err, errlen);
    free(buf);
    return rc;
}

static json_t *vec_json(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

int cal_profile_save(const char *path, const cal_profile_t *p, char *err, size_t errlen)
{
    if (!path)
        return fail(err, errlen, CAL_EINVAL, "no profile path");
    int rc = cal_profile_validate(p, err, errlen);
    if (rc)
        return rc;
    json_t *root = json_object();
    json_t *corners = json_array();
    if (!root || !corners) {
        json_decref(root);
        json_decref(corners);
        return fail(err, errlen, CAL_ENOMEM, "out of memory");
    }
    json_object_set_new(root, "kifucam_profile", json_integer(p->version));
    json_object_set_new(root, "image", json_pack("[ii]", p->image_w, p->image_h));
    json_object_set_new(root, "size", json_integer(p->size));
    for (int i = 0; i < 4; i++)
        json_array_append_new(corners, vec_json(p->corners[i], 2));
    json_object_set_new(root, "corners", corners);
    json_object_set_new(root, "rotate", json_integer(p->rotate));
    json_object_set_new(root, "black_side", json_string(cal_side_name(p->black_side)));
    if (p->has_lens) {
        json_t *lens = json_pack("{s:f,s:f,s:f,s:f}", "fx", p->fx, "fy", p->fy, "cx", p->cx, "cy", p->cy);
        if (lens) {
            json_object_set_new(lens, "dist", vec_json(p->dist, 5));
            json_object_set_new(lens, "rms", json_real(p->lens_rms));
        }
        json_object_set_new(root, "lens", lens);
    }
    if (p->has_colors) {
        json_t *col = json_object();
        if (col) {
            json_object_set_new(col, "empty", vec_json(p->empty_bgr, 3));
            json_object_set_new(col, "black", p->color_n[1] ? vec_json(p->black_bgr, 3) : json_null());
            json_object_set_new(col, "white", p->color_n[2] ? vec_json(p->white_bgr, 3) : json_null());
            json_object_set_new(col, "counts", json_pack("[iii]", p->color_n[0], p->color_n[1], p->color_n[2]));
            if (p->model_n[0] || p->model_n[1] || p->model_n[2]) {
                json_t *m = json_object(), *mm = json_array(), *mc = json_array();
                for (int i = 0; i < 3; i++) {
                    json_array_append_new(mm, vec_json(p->model_mean[i], 3));
                    json_array_append_new(mc, vec_json(p->model_cov[i], 6));
                }
                json_object_set_new(m, "n", json_pack("[iii]", p->model_n[0], p->model_n[1], p->model_n[2]));
                json_object_set_new(m, "mean", mm);
                json_object_set_new(m, "cov", mc);
                json_object_set_new(col, "model", m);
            }
        }
        json_object_set_new(root, "colors", col);
    }
    json_object_set_new(root, "fit", json_real(p->fit));
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!text)
        return fail(err, errlen, CAL_ENOMEM, "out of memory");

    /* the one safe write (safeio/sio.h): a new file beside the old one (never a file or
     * symlink already there), fsynced, renamed over it */
    size_t len = strlen(text);
    text[len] = '\n';   /* json_dumps's NUL becomes the last line's end */
    int sys = 0;
    rc = sio_write_atomic(path, text, len + 1, &sys);
    if (rc == SIO_ENOMEM)
        rc = fail(err, errlen, CAL_ENOMEM, "out of memory");
    else if (rc != SIO_OK)
        rc = fail(err, errlen, CAL_EIO, "cannot write %s: %s", path, strerror(sys));
    free(text);
    return rc;
}
