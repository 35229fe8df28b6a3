/* rnd_render.c: the footage renderer (see rnd_render.h).
 *
 * Invariants: the static background (bg) is ray-cast once per renderer; canvas = bg with
 * the current stones drawn in; soft = canvas blurred by the lens (what frames crop), kept
 * in step with canvas region by region. A canvas pixel (i, j) is the frame pixel
 * (i - margin - shake_x, j - margin - shake_y). All shading is done in linear light and
 * encoded with a gamma LUT. Nothing here prints or allocates per frame.
 */
#include "render/rnd_render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---------------------------------------------------------------- small helpers */
typedef struct {
    double x, y, z;
} v3;
static inline v3 V(double x, double y, double z)
{
    v3 r = { x, y, z };
    return r;
}
static inline v3 vadd(v3 a, v3 b) { return V(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline v3 vsub(v3 a, v3 b) { return V(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline v3 vmul(v3 a, double s) { return V(a.x * s, a.y * s, a.z * s); }
static inline double vdot(v3 a, v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline v3 vcross(v3 a, v3 b)
{
    return V(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double vlen(v3 a) { return sqrt(vdot(a, a)); }
static inline v3 vnorm(v3 a)
{
    double l = vlen(a);
    return l > 0 ? vmul(a, 1.0 / l) : a;
}
static inline double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline double smoothstep(double e0, double e1, double x)
{
    double t = clampd((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}
static inline double mixd(double a, double b, double t) { return a + (b - a) * t; }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

const char *rnd_strerror(int code)
{
    switch (code) {
    case RND_OK: return "success";
    case RND_EINVAL: return "invalid argument";
    case RND_ENOMEM: return "out of memory";
    case RND_EIO: return "cannot read or write a file";
    case RND_EPARSE: return "malformed game record";
    case RND_EGAME: return "no usable game in the record";
    case RND_EOUTPUT: return "cannot write the output";
    default: return "unknown error";
    }
}

/* ---------------------------------------------------------------- PRNG */
void rnd_rng_seed(rnd_rng_t *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }

uint64_t rnd_rng_next(rnd_rng_t *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double rnd_rng_unit(rnd_rng_t *r) { return (double)(rnd_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
double rnd_rng_range(rnd_rng_t *r, double lo, double hi) { return lo + (hi - lo) * rnd_rng_unit(r); }
int rnd_rng_int(rnd_rng_t *r, int n) { return n <= 0 ? 0 : (int)(rnd_rng_unit(r) * n); }

double rnd_rng_gauss(rnd_rng_t *r)
{
    double u = rnd_rng_unit(r), v = rnd_rng_unit(r);
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Hash-based value noise (deterministic, seedable). */
static inline uint32_t hash3(int x, int y, uint32_t s)
{
    uint32_t h = (uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^ s * 0xcb1ab31fu;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h;
}
static double vnoise(double x, double y, uint32_t s)
{
    double fx = floor(x), fy = floor(y);
    int ix = (int)fx, iy = (int)fy;
    double tx = x - fx, ty = y - fy;
    tx = tx * tx * (3 - 2 * tx);
    ty = ty * ty * (3 - 2 * ty);
    double a = (hash3(ix, iy, s) & 0xffff) / 65535.0, b = (hash3(ix + 1, iy, s) & 0xffff) / 65535.0;
    double c = (hash3(ix, iy + 1, s) & 0xffff) / 65535.0, d = (hash3(ix + 1, iy + 1, s) & 0xffff) / 65535.0;
    return mixd(mixd(a, b, tx), mixd(c, d, tx), ty);
}
static double fbm(double x, double y, uint32_t s, int oct)
{
    double v = 0, amp = 0.5, tot = 0;
    for (int i = 0; i < oct; i++) {
        v += amp * vnoise(x, y, s + (uint32_t)i * 101u);
        tot += amp;
        x *= 2.03;
        y *= 2.03;
        amp *= 0.5;
    }
    return v / tot;
}

/* ---------------------------------------------------------------- names and options */
static const char *const view_names[] = { "above", "steep", "side" };
static const char *const light_names[] = { "warm", "cool", "daylight", "blue", "green",
                                           "pink", "yellow", "uneven", "shadow" };

int rnd_view_parse(const char *s, rnd_view_t *out)
{
    for (int i = 0; s && i < 3; i++)
        if (!strcmp(s, view_names[i])) {
            *out = (rnd_view_t)i;
            return RND_OK;
        }
    return RND_EINVAL;
}
int rnd_light_parse(const char *s, rnd_light_t *out)
{
    for (int i = 0; s && i < RND_LIGHT_COUNT; i++)
        if (!strcmp(s, light_names[i])) {
            *out = (rnd_light_t)i;
            return RND_OK;
        }
    return RND_EINVAL;
}
const char *rnd_view_name(rnd_view_t v) { return (unsigned)v < 3 ? view_names[v] : "?"; }
static const char *const table_names[RND_TABLE_COUNT] = { "wood", "cloth", "dark", "grey", "pale" };

int rnd_table_parse(const char *s, int *out)
{
    for (int i = 0; i < RND_TABLE_COUNT; i++)
        if (s && !strcmp(s, table_names[i])) {
            *out = i;
            return RND_OK;
        }
    return RND_EINVAL;
}

const char *rnd_table_name(int kind) { return kind >= 0 && kind < RND_TABLE_COUNT ? table_names[kind] : "?"; }

const char *rnd_light_name(rnd_light_t l) { return (unsigned)l < RND_LIGHT_COUNT ? light_names[l] : "?"; }

void rnd_scene_opts_defaults(rnd_scene_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1280;
    o->height = 720;
    o->size = 19;
    o->view = RND_VIEW_STEEP;
    o->light = RND_LIGHT_WARM;
    o->seed = 1;
    o->distortion = 1;
    o->noise = 1;
}

/* ---------------------------------------------------------------- the renderer */
#define NOISE_PAD 65536
#define TEX_PPMM 2.0 /* board texture: texels per mm */

typedef struct {
    int x0, y0, x1, y1; /* half-open box in canvas pixels; empty when x0 >= x1 */
} box_t;

struct rnd_renderer {
    rnd_scene_opts_t o;
    rnd_geometry_t g;
    int W, H, M, cw, ch;
    /* camera */
    v3 C, right, down, fwd;
    double f, cx, cy, k1, k2;
    /* light: a point light, a second dim one, and a sky ambient; all in linear BGR */
    v3 lp, lp2;
    double lcol[3], lcol2[3], amb[3], d0, d02;
    double vignette, blur;
    /* materials (linear BGR) */
    double ink[3], wood_side[3];
    double lw, lwo;            /* grid line widths, mm: inner lines, the edge lines */
    double board_spec, board_spec_exp; /* the board top's gloss: strength, exponent */
    int plain;                 /* 1: the board top has no wood grain (plastic, paper) */
    int table_kind, paper;
    int table_name;  /* RND_TABLE_*: table_kind before the pale wood is drawn as wood */
    double table_a[3], table_b[3];
    double table_c[2], table_hw[2], floor_alb[3]; /* the table's extent; the floor's colour */
    double paper_c[2], paper_hw[2], paper_ang;
    double black_alb[3], white_alb[3], black_spec, white_spec, grain_amp;
    int nbowls;
    double bowl_xy[2][2], bowl_r, bowl_h, bowl_alb[2][3];
    double skin[3][3], sleeve[3][3];
    uint32_t nseed;
    float *tex; /* board top albedo, 3 floats per texel */
    int tex_w, tex_h;
    /* canvases: 3 bytes per pixel, cw x ch */
    uint8_t *bg, *canvas, *soft;
    float *hx, *hy;  /* world x, y seen at each canvas pixel (board top, side or table) */
    uint8_t *face;   /* 0 table, 1 board top, 2 board side, 3 background wall, 4 bowl */
    float *direct;   /* share of the light at that pixel that is direct (for shadows) */
    float *ray;      /* unit ray direction of each canvas pixel's centre (3 floats) */
    rnd_stone_t *st;
    box_t *stbox;    /* per stone: stone + its shadow */
    int nst, stcap;
    int8_t *noise;
    size_t noise_len;
    /* per-frame hand buffers (frame size), valid where the stamp is current */
    float *hdep, *hsh;
    int16_t *hid;
    uint32_t *hstamp, *sstamp, stamp;
    uint8_t gam[4096];
    int has_cb;      /* 1: cb is drawn into each frame (rnd_renderer_set_chessboard) */
    rnd_chessboard_t cb;
};

static inline uint8_t enc(const rnd_renderer_t *r, double lin)
{
    int i = (int)(lin * 4095.0 + 0.5);
    return r->gam[i < 0 ? 0 : i > 4095 ? 4095 : i];
}

static void srgb_to_lin3(double b, double g, double rr, double out[3])
{
    out[0] = pow(b / 255.0, 2.2);
    out[1] = pow(g / 255.0, 2.2);
    out[2] = pow(rr / 255.0, 2.2);
}

/* Canvas pixel -> normalised ray direction (lens distortion applied). */
static inline v3 pixel_ray(const rnd_renderer_t *r, double px, double py)
{
    double xd = (px - r->cx) / r->f, yd = (py - r->cy) / r->f;
    double r2 = xd * xd + yd * yd;
    double s = 1.0 + r->k1 * r2 + r->k2 * r2 * r2;
    v3 d = vadd(vadd(vmul(r->right, xd * s), vmul(r->down, yd * s)), r->fwd);
    return vnorm(d);
}

/* World -> canvas pixel; 0 on success, -1 behind the camera. */
static int project(const rnd_renderer_t *r, v3 P, double *px, double *py)
{
    v3 v = vsub(P, r->C);
    double zc = vdot(v, r->fwd);
    if (zc <= 1e-6)
        return -1;
    double xu = vdot(v, r->right) / zc, yu = vdot(v, r->down) / zc;
    double ru = sqrt(xu * xu + yu * yu), rd = ru;
    if (ru > 1e-12) {
        for (int i = 0; i < 20; i++) {
            double r2 = rd * rd;
            double fval = rd * (1 + r->k1 * r2 + r->k2 * r2 * r2) - ru;
            double d = 1 + 3 * r->k1 * r2 + 5 * r->k2 * r2 * r2;
            rd -= fval / d;
        }
        xu *= rd / ru;
        yu *= rd / ru;
    }
    *px = r->cx + r->f * xu;
    *py = r->cy + r->f * yu;
    return 0;
}

/* Irradiance at P with normal N: ambient and direct parts (linear BGR), and the direct
 * light's direction (unit, from P). Shadows are not considered here. */
static void irradiance(const rnd_renderer_t *r, v3 P, v3 N, double amb[3], double dir[3], v3 *L)
{
    v3 l = vsub(r->lp, P);
    double d2 = vdot(l, l);
    l = vmul(l, 1.0 / sqrt(d2));
    double ndl = vdot(N, l);
    double fall = r->d0 * r->d0 / d2;
    double k = ndl > 0 ? ndl * fall : 0;
    v3 l2 = vsub(r->lp2, P);
    double d22 = vdot(l2, l2);
    l2 = vmul(l2, 1.0 / sqrt(d22));
    double ndl2 = vdot(N, l2);
    double k2 = ndl2 > 0 ? ndl2 * r->d02 * r->d02 / d22 : 0;
    double sky = 0.55 + 0.45 * N.z;
    for (int c = 0; c < 3; c++) {
        amb[c] = r->amb[c] * sky + r->lcol2[c] * k2;
        dir[c] = r->lcol[c] * k;
    }
    if (L)
        *L = l;
}

static inline double vig(const rnd_renderer_t *r, double px, double py)
{
    double x = (px - r->cx) / (r->W * 0.5), y = (py - r->cy) / (r->W * 0.5);
    double v = 1.0 - r->vignette * (x * x + y * y);
    return v < 0.3 ? 0.3 : v;
}

/* Slab test of a ray against the board's box. Returns t of entry (or -1) and the face:
 * 1 top, 2 side; *n gets the outward normal. */
static double ray_box(const rnd_renderer_t *r, v3 o, v3 d, v3 *n)
{
    double lo[3] = { -r->g.half_w, -r->g.half_h, 0 }, hi[3] = { r->g.half_w, r->g.half_h, r->g.top };
    double oo[3] = { o.x, o.y, o.z }, dd[3] = { d.x, d.y, d.z };
    double tn = -1e30, tf = 1e30;
    int axis = -1;
    double sign = 0;
    for (int a = 0; a < 3; a++) {
        if (fabs(dd[a]) < 1e-12) {
            if (oo[a] < lo[a] || oo[a] > hi[a])
                return -1;
            continue;
        }
        double t1 = (lo[a] - oo[a]) / dd[a], t2 = (hi[a] - oo[a]) / dd[a];
        double s = -1;
        if (t1 > t2) {
            double t = t1;
            t1 = t2;
            t2 = t;
            s = 1;
        }
        if (t1 > tn) {
            tn = t1;
            axis = a;
            sign = s;
        }
        if (t2 < tf)
            tf = t2;
    }
    if (tn > tf || tf < 0 || axis < 0)
        return -1;
    if (n)
        *n = V(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0);
    return tn;
}

/* Ray against a vertical cylinder on the table (centre cx, cy; radius R; height H):
 * t of the nearest hit (side or top) or -1; *n its normal. */
static double ray_cyl(v3 o, v3 d, double cx, double cy, double R, double H, v3 *n)
{
    double ox = o.x - cx, oy = o.y - cy;
    double a = d.x * d.x + d.y * d.y, b = ox * d.x + oy * d.y, c = ox * ox + oy * oy - R * R;
    double best = -1;
    if (a > 1e-12) {
        double h = b * b - a * c;
        if (h >= 0) {
            double t = (-b - sqrt(h)) / a, z = o.z + t * d.z;
            if (t > 1e-6 && z >= 0 && z <= H) {
                best = t;
                if (n)
                    *n = vnorm(V(ox + t * d.x, oy + t * d.y, 0));
            }
        }
    }
    if (fabs(d.z) > 1e-12) {
        double t = (H - o.z) / d.z;
        if (t > 1e-6 && (best < 0 || t < best)) {
            double x = ox + t * d.x, y = oy + t * d.y;
            if (x * x + y * y <= R * R) {
                best = t;
                if (n)
                    *n = V(0, 0, 1);
            }
        }
    }
    return best;
}

/* Does anything (board, bowls) stand between P and the light point L? */
static int occluded_from(const rnd_renderer_t *r, v3 P, v3 L, int test_box)
{
    v3 ld = vsub(L, P);
    double len = vlen(ld);
    v3 d = vmul(ld, 1.0 / len);
    if (test_box) {
        double t = ray_box(r, P, d, NULL);
        if (t > 1e-6 && t < len)
            return 1;
    }
    for (int k = 0; k < r->nbowls; k++) {
        double t = ray_cyl(P, d, r->bowl_xy[k][0], r->bowl_xy[k][1], r->bowl_r, r->bowl_h, NULL);
        if (t > 0 && t < len)
            return 1;
    }
    return 0;
}

/* Board top albedo at board-plane (x, y) mm, from the texture (bilinear). */
static void wood_at(const rnd_renderer_t *r, double x, double y, double out[3])
{
    double u = (x + r->g.half_w) * TEX_PPMM, v = (r->g.half_h - y) * TEX_PPMM;
    u = clampd(u, 0, r->tex_w - 1.001);
    v = clampd(v, 0, r->tex_h - 1.001);
    int iu = (int)u, iv = (int)v;
    double tu = u - iu, tv = v - iv;
    const float *p = r->tex + ((size_t)iv * r->tex_w + iu) * 3;
    const float *q = p + (size_t)r->tex_w * 3;
    for (int c = 0; c < 3; c++)
        out[c] = mixd(mixd(p[c], p[c + 3], tu), mixd(q[c], q[c + 3], tu), tv);
}

/* Ink coverage of grid lines and star points at (x, y), for a sample footprint s mm. */
static double ink_at(const rnd_renderer_t *r, double x, double y, double s)
{
    int n = r->g.size;
    double gx = x / r->g.dx + (n - 1) * 0.5, gy = (n - 1) * 0.5 - y / r->g.dy;
    double lw = r->lw, lwo = r->lwo;
    double ext = (n - 1) * 0.5;
    double cov = 0;
    /* vertical lines (constant column) span the grid's rows */
    if (fabs(y) <= ext * r->g.dy + lwo) {
        int k = (int)floor(gx + 0.5);
        k = imax(0, imin(n - 1, k));
        double d = fabs(x - (k - ext) * r->g.dx);
        double w = (k == 0 || k == n - 1) ? lwo : lw;
        double c = clampd((w * 0.5 + s * 0.5 - d) / s, 0, 1);
        cov = c;
    }
    if (fabs(x) <= ext * r->g.dx + lwo) {
        int k = (int)floor(gy + 0.5);
        k = imax(0, imin(n - 1, k));
        double d = fabs(y - (ext - k) * r->g.dy);
        double w = (k == 0 || k == n - 1) ? lwo : lw;
        double c = clampd((w * 0.5 + s * 0.5 - d) / s, 0, 1);
        cov = 1 - (1 - cov) * (1 - c);
    }
    /* star points (rules/go_stars.h): the one nearest (x, y), if any */
    int sx = imax(0, imin(n - 1, (int)floor(gx + 0.5)));
    int sy = imax(0, imin(n - 1, (int)floor(gy + 0.5)));
    if (go_is_star(n, sx, sy)) {
        double px = (sx - ext) * r->g.dx, py = (ext - sy) * r->g.dy;
        double d = sqrt((x - px) * (x - px) + (y - py) * (y - py));
        double c = clampd((1.9 + s * 0.5 - d) / s, 0, 1);
        cov = 1 - (1 - cov) * (1 - c);
    }
    return cov;
}

int rnd_renderer_table(const rnd_renderer_t *r) { return r->table_name; }

/* Albedo of the table at (x, y). */
static void table_at(const rnd_renderer_t *r, double x, double y, double out[3])
{
    double t;
    switch (r->table_kind) {
    case 1: /* cloth: soft folds */
        t = 0.6 * fbm(x * 0.004, y * 0.004, r->nseed + 7, 3) + 0.4 * vnoise(x * 0.5, y * 0.5, r->nseed + 9);
        break;
    case 3: /* laminate: fine speckle */
        t = 0.5 * vnoise(x * 0.3, y * 0.3, r->nseed + 11) + 0.5 * fbm(x * 0.01, y * 0.01, r->nseed + 12, 2);
        break;
    default: { /* wood planks along x */
        double w = y + 60.0 * fbm(x * 0.0015, y * 0.004, r->nseed + 13, 3);
        t = 0.5 + 0.5 * sin(w * 0.21 + 6.0 * fbm(x * 0.002, y * 0.02, r->nseed + 14, 2));
        t = 0.35 * t * t * t + 0.65 * fbm(x * 0.006, y * 0.08, r->nseed + 15, 3);
        break;
    }
    }
    for (int c = 0; c < 3; c++)
        out[c] = mixd(r->table_a[c], r->table_b[c], t);
    if (r->paper) {
        double ca = cos(r->paper_ang), sa = sin(r->paper_ang);
        double u = (x - r->paper_c[0]) * ca + (y - r->paper_c[1]) * sa;
        double v = -(x - r->paper_c[0]) * sa + (y - r->paper_c[1]) * ca;
        if (fabs(u) < r->paper_hw[0] && fabs(v) < r->paper_hw[1]) {
            double p = 0.78;
            /* printed rows of small marks */
            double row = fmod(v + r->paper_hw[1], 9.0);
            if (row < 2.2 && fabs(u) < r->paper_hw[0] - 20 && fabs(v) < r->paper_hw[1] - 25 &&
                vnoise(u * 0.35, v * 0.1, r->nseed + 17) > 0.45)
                p = 0.35;
            for (int c = 0; c < 3; c++)
                out[c] = p;
        }
    }
}

/* Trace one background ray from canvas pixel (px, py): linear colour and what it hit. */
static void trace_bg(const rnd_renderer_t *r, double px, double py, double s_scale, double col[3],
                     double *hitx, double *hity, int *face, double *direct)
{
    v3 d = pixel_ray(r, px, py);
    /* ray_box writes n whenever it returns t > 0, the only case that reads it; set anyway
     * (the analyzer cannot follow the floating-point test, clang-tidy core.UndefinedBinaryOperatorResult) */
    v3 n = V(0, 0, 1);
    double t = ray_box(r, r->C, d, &n);
    double alb[3], amb[3], dir[3];
    v3 P, L;
    double spec = 0;
    int bowl = -1;
    v3 bn = V(0, 0, 1);
    for (int k = 0; k < r->nbowls; k++) {
        v3 nn = V(0, 0, 1);
        double tc = ray_cyl(r->C, d, r->bowl_xy[k][0], r->bowl_xy[k][1], r->bowl_r, r->bowl_h, &nn);
        if (tc > 0 && (t <= 0 || tc < t)) {
            t = tc;
            bowl = k;
            bn = nn;
        }
    }
    if (bowl >= 0) {
        P = vadd(r->C, vmul(d, t));
        n = bn;
        *face = 4;
        double rr = hypot(P.x - r->bowl_xy[bowl][0], P.y - r->bowl_xy[bowl][1]) / r->bowl_r;
        double g = n.z > 0.5 ? 0.8 + 0.2 * (1 - pow(rr, 6)) : 0.85 + 0.15 * vnoise(P.z * 0.3, atan2(n.y, n.x) * 3, r->nseed + 41);
        for (int c = 0; c < 3; c++)
            alb[c] = r->bowl_alb[bowl][c] * g;
        spec = 0.12;
    } else if (t > 0) {
        P = vadd(r->C, vmul(d, t));
        if (n.z > 0.5) {
            *face = 1;
            wood_at(r, P.x, P.y, alb);
            double cosi = fabs(d.z);
            double s = t / r->f * s_scale / sqrt(cosi > 0.05 ? cosi : 0.05);
            double ink = ink_at(r, P.x, P.y, s);
            for (int c = 0; c < 3; c++)
                alb[c] = mixd(alb[c], r->ink[c], ink);
            spec = r->board_spec;
        } else {
            *face = 2;
            double g = 0.8 + 0.2 * vnoise(P.z * 0.8, (P.x + P.y) * 0.02, r->nseed + 21);
            for (int c = 0; c < 3; c++)
                alb[c] = r->wood_side[c] * g;
        }
    } else if (d.z < -1e-6) {
        t = -r->C.z / d.z;
        P = vadd(r->C, vmul(d, t));
        n = V(0, 0, 1);
        *face = 0;
        table_at(r, P.x, P.y, alb);
        if (fabs(P.x - r->table_c[0]) > r->table_hw[0] || fabs(P.y - r->table_c[1]) > r->table_hw[1]) {
            /* past the table's edge: the floor, 75 cm below, in the table's shade */
            t = (-750 - r->C.z) / d.z;
            P = vadd(r->C, vmul(d, t));
            *face = 3;
            double g = 0.7 + 0.3 * fbm(P.x * 0.01, P.y * 0.01, r->nseed + 51, 2);
            for (int c = 0; c < 3; c++)
                alb[c] = r->floor_alb[c] * g * 0.45;
        }
    } else {
        *face = 3;
        P = vadd(r->C, vmul(d, 5000));
        n = vmul(d, -1);
        for (int c = 0; c < 3; c++)
            alb[c] = 0.25;
    }
    irradiance(r, P, n, amb, dir, &L);
    double shadow = 1.0;
    if (*face == 0 || (*face == 1 && r->nbowls)) {
        /* soft shadows of the board and the bowls: four points of an area light */
        int lit = 0;
        for (int k = 0; k < 4; k++) {
            v3 lpk = vadd(r->lp, V((k & 1) ? 60 : -60, (k & 2) ? 60 : -60, 0));
            lit += !occluded_from(r, P, lpk, *face == 0);
        }
        shadow = lit / 4.0;
    }
    if (*face == 0) {
        /* ambient occlusion near the board's base */
        double ox = fabs(P.x) - r->g.half_w, oy = fabs(P.y) - r->g.half_h;
        double dist = sqrt(fmax(ox, 0) * fmax(ox, 0) + fmax(oy, 0) * fmax(oy, 0));
        double ao = 1.0 - 0.5 * exp(-dist / (0.8 * r->g.top + 4));
        for (int c = 0; c < 3; c++)
            amb[c] *= ao;
    }
    double dsum = 0, asum = 0;
    for (int c = 0; c < 3; c++) {
        double e = amb[c] + dir[c] * shadow;
        col[c] = alb[c] * e;
        dsum += dir[c];
        asum += amb[c];
    }
    if (spec > 0) {
        v3 h = vnorm(vsub(L, d));
        double sp = pow(fmax(vdot(n, h), 0), *face == 1 ? r->board_spec_exp : 30) * spec;
        for (int c = 0; c < 3; c++)
            col[c] += sp * r->lcol[c];
    }
    *hitx = P.x;
    *hity = P.y;
    *direct = dsum / (dsum + asum + 1e-9);
}

/* ---------------------------------------------------------------- scene set-up */
/* sRGB (B, G, R) of a colour between anchors a and b (t in 0..1), with jitter j. */
static void mix_anchor(rnd_rng_t *vr, const double a[3], const double b[3], double j, double out[3])
{
    double t = rnd_rng_unit(vr);
    for (int c = 0; c < 3; c++)
        out[c] = clampd(mixd(a[c], b[c], t) + rnd_rng_range(vr, -j, j), 4, 250);
}

/* --variety: the board's top (wood of any shade, plastic, printed paper or vinyl), its
 * lines and gloss. wa/wbk: the top's two albedos (linear), blended by the grain. */
static void vary_board(rnd_renderer_t *r, rnd_rng_t *vr, int kind, double wa[3], double wbk[3])
{
    static const double woods[6][3] = { /* sRGB B, G, R */
        { 150, 200, 228 }, /* pale */
        { 120, 180, 222 }, /* yellow kaya */
        { 95, 150, 205 },  /* amber */
        { 70, 110, 170 },  /* red-brown */
        { 52, 78, 120 },   /* dark brown */
        { 175, 205, 220 }, /* nearly white, unstained */
    };
    static const double plains[7][3] = {
        { 235, 238, 240 }, /* white */
        { 190, 225, 240 }, /* cream */
        { 90, 200, 235 },  /* yellow */
        { 120, 190, 130 }, /* green */
        { 180, 180, 175 }, /* grey */
        { 200, 160, 120 }, /* blue-grey */
        { 150, 170, 235 }, /* pink-beige */
    };
    double top[3];
    if (kind == 0) {
        int a = rnd_rng_int(vr, 6), b = rnd_rng_int(vr, 6);
        mix_anchor(vr, woods[a], woods[b], 10, top);
    } else {
        int a = rnd_rng_int(vr, 7);
        mix_anchor(vr, plains[a], plains[a], 14, top);
    }
    double dark = kind == 0 ? rnd_rng_range(vr, 0.72, 0.92) : rnd_rng_range(vr, 0.93, 0.99);
    srgb_to_lin3(top[0], top[1], top[2], wa);
    srgb_to_lin3(top[0] * dark, top[1] * (dark + 0.03), top[2] * (dark + 0.06), wbk);
    r->plain = kind != 0;
    /* ink: black, grey or brown lines, thin to bold */
    double ik = rnd_rng_range(vr, 10, 70);
    double warm = rnd_rng_unit(vr) < 0.2 ? rnd_rng_range(vr, 0, 25) : 0;
    srgb_to_lin3(ik, ik + warm * 0.4, ik + warm, r->ink);
    r->lw = rnd_rng_range(vr, 0.45, 1.4);
    r->lwo = r->lw * rnd_rng_range(vr, 1.0, 2.2);
    /* gloss: matte wood to a lacquered or plastic top with broad glare */
    double gl = rnd_rng_unit(vr);
    r->board_spec = gl < 0.6 ? rnd_rng_range(vr, 0.01, 0.06) : rnd_rng_range(vr, 0.06, 0.5);
    r->board_spec_exp = rnd_rng_range(vr, 6, 60);
}

/* --variety: stones of other shades and finishes (slate and glass black, shell, glass,
 * yellowed or bluish white, plastic), a broader blur range. */
static void vary_stones(rnd_renderer_t *r, rnd_rng_t *vr)
{
    double k = rnd_rng_range(vr, 8, 62);
    srgb_to_lin3(k + rnd_rng_range(vr, -6, 10), k + rnd_rng_range(vr, -6, 6), k + rnd_rng_range(vr, -6, 6),
                 r->black_alb);
    double w = rnd_rng_range(vr, 165, 245);
    double cast = rnd_rng_unit(vr);
    double tb = cast < 0.3 ? rnd_rng_range(vr, -30, -8) : cast < 0.5 ? rnd_rng_range(vr, 4, 25) : rnd_rng_range(vr, -8, 4);
    srgb_to_lin3(clampd(w + tb, 100, 250), clampd(w + rnd_rng_range(vr, -6, 4), 100, 250), w, r->white_alb);
    r->black_spec = rnd_rng_range(vr, 0.05, 1.8);
    r->white_spec = rnd_rng_range(vr, 0.03, 0.7);
    r->grain_amp = rnd_rng_unit(vr) < 0.4 ? rnd_rng_range(vr, 0.02, 0.14) : 0.0;
    if (r->o.noise)
        r->blur = rnd_rng_unit(vr) < 0.25 ? rnd_rng_range(vr, 1.0, 2.4) : rnd_rng_range(vr, 0.3, 1.0);
}

static void choose_scene(rnd_renderer_t *r)
{
    rnd_rng_t rng;
    rnd_rng_seed(&rng, r->o.seed ^ 0x5ce4e5ull);
    rnd_geometry_t *g = &r->g;
    int n = r->o.size;
    g->size = n;
    double sc = n <= 9 ? rnd_rng_range(&rng, 1.0, 1.15) : 1.0;
    g->dx = 22.0 * sc;
    g->dy = rnd_rng_range(&rng, 23.2, 24.0) * sc;
    g->half_w = (n - 1) * g->dx * 0.5 + rnd_rng_range(&rng, 12, 19);
    g->half_h = (n - 1) * g->dy * 0.5 + rnd_rng_range(&rng, 13, 21);
    g->top = rnd_rng_unit(&rng) < 0.7 ? rnd_rng_range(&rng, 12, 26) : rnd_rng_range(&rng, 26, 55);
    g->stone_r = rnd_rng_range(&rng, 10.9, 11.2);
    g->stone_h = rnd_rng_range(&rng, 7.5, 9.5);
    r->nseed = (uint32_t)rnd_rng_next(&rng);
    r->lw = 0.8;
    r->lwo = 1.4;
    r->board_spec = 0.035;
    r->board_spec_exp = 30;
    /* --variety draws what follows from a stream of its own: the default scenes of every
     * seed stay exactly as they were */
    rnd_rng_t vr;
    rnd_rng_seed(&vr, r->o.seed ^ 0x7a41e7b0a5ull);
    int kind = 0; /* board kind under variety: 0 wood, 1 plastic, 2 printed paper or vinyl */
    if (r->o.variety) {
        double u = rnd_rng_unit(&vr);
        kind = u < 0.62 ? 0 : u < 0.8 ? 1 : 2;
        if (kind == 2)
            g->top = rnd_rng_range(&vr, 0.4, 3.0);
        else if (kind == 1)
            g->top = rnd_rng_range(&vr, 4, 14);
        g->stone_h = rnd_rng_range(&vr, 5.0, 11.5);
        g->stone_r = rnd_rng_range(&vr, 10.2, 11.4) * g->dx / 22.0;
    }

    /* camera */
    double el;
    switch (r->o.view) {
    case RND_VIEW_ABOVE: el = rnd_rng_range(&rng, 78, 88); break;
    case RND_VIEW_SIDE: el = rnd_rng_range(&rng, 42, 52); break;
    default: el = rnd_rng_range(&rng, 60, 72); break;
    }
    if (r->o.variety)
        el = rnd_rng_unit(&vr) < 0.15 ? rnd_rng_range(&vr, 30, 42) : rnd_rng_range(&vr, 42, 89.5);
    g->elevation_deg = el;
    double az = rnd_rng_range(&rng, -10, 10) * M_PI / 180;
    if (rnd_rng_unit(&rng) < 0.25)
        az += (rnd_rng_unit(&rng) < 0.5 ? 90 : -90) * M_PI / 180; /* from one side */
    v3 azv = V(sin(az), -cos(az), 0); /* from the board towards the camera (Black's side) */
    double hfov = rnd_rng_range(&rng, 56, 72) * M_PI / 180;
    r->f = (r->W * 0.5) / tan(hfov * 0.5);
    if (r->o.distortion) {
        r->k1 = rnd_rng_range(&rng, 0.03, 0.14);
        r->k2 = rnd_rng_range(&rng, 0.0, 0.04);
    }
    r->cx = r->M + (r->W - 1) * 0.5 + rnd_rng_range(&rng, -0.01, 0.01) * r->W;
    r->cy = r->M + (r->H - 1) * 0.5 + rnd_rng_range(&rng, -0.01, 0.01) * r->H;
    double fill = rnd_rng_range(&rng, 0.66, 0.86);
    if (r->o.variety) /* from far away to closer than the frame (the board cut off) */
        fill = rnd_rng_unit(&vr) < 0.2 ? rnd_rng_range(&vr, 0.95, 1.35) : rnd_rng_range(&vr, 0.45, 0.95);
    double roll = rnd_rng_range(&rng, -2.5, 2.5) * M_PI / 180;
    v3 target = V(rnd_rng_range(&rng, -25, 25), rnd_rng_range(&rng, -25, 25), g->top);
    double dist = 1000;
    double elr = el * M_PI / 180;
    for (int it = 0; it < 12; it++) {
        v3 back = V(azv.x * cos(elr), azv.y * cos(elr), sin(elr));
        r->C = vadd(target, vmul(back, dist));
        r->fwd = vmul(back, -1);
        v3 hdir = vnorm(V(-azv.x, -azv.y, 0));
        v3 rt = vnorm(vcross(hdir, V(0, 0, 1)));
        v3 dn = vnorm(vcross(r->fwd, rt));
        r->right = vadd(vmul(rt, cos(roll)), vmul(dn, sin(roll)));
        r->down = vadd(vmul(dn, cos(roll)), vmul(rt, -sin(roll)));
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (int k = 0; k < 8; k++) {
            v3 P = V((k & 1) ? g->half_w : -g->half_w, (k & 2) ? g->half_h : -g->half_h,
                     (k & 4) ? g->top : 0);
            double px, py;
            if (project(r, P, &px, &py))
                continue;
            x0 = fmin(x0, px);
            x1 = fmax(x1, px);
            y0 = fmin(y0, py);
            y1 = fmax(y1, py);
        }
        double ratio = fmax((y1 - y0) / (fill * r->H), (x1 - x0) / (0.94 * r->W));
        /* the table beside the four corners, where the end signals go, in the picture
         * too when the footage ends with signals (a camera from one side: the board's
         * width along the picture's height); stills and footage without an end keep
         * the board's own framing */
        for (int k = 0; k < 4 && r->o.signal_corners; k++) {
            double ex = g->half_w + 2 * g->stone_r + RND_SIGNAL_GAP_MAX + 2;
            v3 P = V((k & 1) ? ex : -ex, (k & 2) ? g->half_h : -g->half_h, 0);
            double px, py;
            if (project(r, P, &px, &py))
                continue;
            ratio = fmax(ratio, fmax(fabs(px - r->cx) / (0.47 * r->W), fabs(py - r->cy) / (0.47 * r->H)));
        }
        dist *= ratio;
    }
    for (int c = 0; c < 3; c++)
        g->cam[c] = c == 0 ? r->C.x : c == 1 ? r->C.y : r->C.z;
    g->focal = r->f;
    g->cx = r->cx - r->M;
    g->cy = r->cy - r->M;
    g->k1 = r->k1;
    g->k2 = r->k2;

    /* light */
    static const double tints[RND_LIGHT_COUNT][3] = {
        /* B, G, R multipliers of the main light */
        { 0.62, 0.84, 1.00 }, /* warm */
        { 1.00, 0.97, 0.90 }, /* cool */
        { 0.96, 0.98, 1.00 }, /* daylight */
        { 1.00, 0.78, 0.62 }, /* blue */
        { 0.70, 1.00, 0.72 }, /* green */
        { 0.92, 0.72, 1.00 }, /* pink */
        { 0.45, 0.92, 1.00 }, /* yellow */
        { 0.75, 0.90, 1.00 }, /* uneven */
        { 0.92, 0.97, 1.00 }, /* shadow */
    };
    const double *tint = tints[r->o.light];
    double vtint[3];
    if (r->o.variety && rnd_rng_unit(&vr) < 0.5) {
        /* any colour of light, mostly near white, sometimes strongly cast */
        double strength = rnd_rng_unit(&vr) < 0.3 ? rnd_rng_range(&vr, 0.3, 0.6) : rnd_rng_range(&vr, 0.0, 0.3);
        double mx = 0;
        for (int c = 0; c < 3; c++) {
            vtint[c] = 1.0 - strength * rnd_rng_unit(&vr);
            mx = fmax(mx, vtint[c]);
        }
        for (int c = 0; c < 3; c++)
            vtint[c] /= mx;
        tint = vtint;
    }
    double la = rnd_rng_range(&rng, 0, 2 * M_PI);
    double lrad = rnd_rng_range(&rng, 200, 900), lh = rnd_rng_range(&rng, 1300, 2200);
    double ambk = rnd_rng_range(&rng, 0.45, 0.75);
    if (r->o.light == RND_LIGHT_UNEVEN) {
        lrad = rnd_rng_range(&rng, 380, 520);
        lh = rnd_rng_range(&rng, 300, 450);
        ambk = rnd_rng_range(&rng, 0.18, 0.3);
    }
    r->lp = V(lrad * cos(la), lrad * sin(la), lh);
    r->d0 = vlen(vsub(r->lp, V(0, 0, g->top)));
    double la2 = la + M_PI + rnd_rng_range(&rng, -0.8, 0.8);
    r->lp2 = V(1500 * cos(la2), 1500 * sin(la2), 1800);
    r->d02 = vlen(vsub(r->lp2, V(0, 0, g->top)));
    /* the camera's white balance undoes part of a coloured cast */
    double wb[3], m = 0;
    for (int c = 0; c < 3; c++)
        m += tint[c] / 3;
    for (int c = 0; c < 3; c++)
        wb[c] = mixd(tint[c], m, 0.35);
    for (int c = 0; c < 3; c++) {
        r->lcol[c] = wb[c];
        r->amb[c] = ambk * mixd(wb[c], m, 0.3) * (c == 0 ? 1.05 : 1.0);
        r->lcol2[c] = 0.12 * m;
    }

    /* materials */
    static const double woods[4][3] = {
        { 128, 182, 220 }, /* kaya-like yellow */
        { 152, 196, 226 }, /* pale shin-kaya */
        { 112, 162, 206 }, /* deeper amber */
        { 142, 180, 208 }, /* beech laminate */
    };
    int wk = rnd_rng_int(&rng, 4);
    double wa[3], wbk[3];
    srgb_to_lin3(woods[wk][0] + rnd_rng_range(&rng, -8, 8), woods[wk][1] + rnd_rng_range(&rng, -8, 8),
                 woods[wk][2] + rnd_rng_range(&rng, -6, 6), wa);
    srgb_to_lin3(woods[wk][0] * 0.84, woods[wk][1] * 0.87, woods[wk][2] * 0.92, wbk);
    srgb_to_lin3(22, 22, 26, r->ink);
    if (r->o.variety)
        vary_board(r, &vr, kind, wa, wbk);
    for (int c = 0; c < 3; c++)
        r->wood_side[c] = wa[c] * 0.62;
    /* board texture: straight grain along y with slow colour drift */
    r->tex_w = (int)(2 * g->half_w * TEX_PPMM) + 2;
    r->tex_h = (int)(2 * g->half_h * TEX_PPMM) + 2;
    r->tex = malloc((size_t)r->tex_w * r->tex_h * 3 * sizeof(float));
    if (r->tex) {
        double freq = rnd_rng_range(&rng, 0.25, 0.6);
        double amp = rnd_rng_range(&rng, 0.2, 0.5);
        /* straight grain (quarter-sawn, masame) or, one board in three, the nested arches
         * of flat-sawn wood (itame) */
        int arches = rnd_rng_unit(&rng) < 0.35;
        double ax0 = rnd_rng_range(&rng, 0.3, 0.7) * 2 * g->half_w, ay0 = rnd_rng_range(&rng, -0.2, 0.3) * 2 * g->half_h;
        double acurv = rnd_rng_range(&rng, 0.004, 0.012);
        if (arches)
            freq *= 0.6;
        for (int v = 0; v < r->tex_h; v++)
            for (int u = 0; u < r->tex_w; u++) {
                double x = u / TEX_PPMM, y = v / TEX_PPMM;
                double w = arches ? (y - ay0) * 0.5 + acurv * (x - ax0) * (x - ax0)
                                  : x;
                w += 14.0 * fbm(x * 0.004, y * 0.0015, r->nseed + 1, 3);
                double gr = 0.5 + 0.5 * sin(w * freq + 2.5 * fbm(x * 0.01, y * 0.003, r->nseed + 2, 2));
                gr = gr * gr * gr;
                double t = amp * gr + 0.35 * fbm(x * 0.006, y * 0.006, r->nseed + 3, 3) +
                           0.12 * vnoise(x * 0.6, y * 0.05, r->nseed + 4);
                if (r->plain) /* plastic or paper: no grain, a faint mottle */
                    t = 0.5 * fbm(x * 0.02, y * 0.02, r->nseed + 3, 2);
                t = clampd(t, 0, 1);
                float *p = r->tex + ((size_t)v * r->tex_w + u) * 3;
                for (int c = 0; c < 3; c++)
                    p[c] = (float)mixd(wa[c], wbk[c], t);
            }
    }
    /* table */
    static const double tables[5][2][3] = {
        { { 150, 190, 215 }, { 120, 160, 195 } }, /* light wood */
        { { 236, 236, 234 }, { 214, 216, 218 } }, /* white cloth */
        { { 45, 62, 88 }, { 30, 42, 62 } },       /* dark wood */
        { { 150, 152, 150 }, { 128, 130, 130 } }, /* grey laminate */
        { { 170, 178, 182 }, { 140, 150, 160 } }, /* pale grey-beige wood */
    };
    r->table_kind = rnd_rng_int(&rng, 5);
    if (r->o.table > 0 && r->o.table <= RND_TABLE_COUNT)
        r->table_kind = r->o.table - 1; /* forced: the draw above still made, so the rest of
                                           the scene is the seed's */
    r->table_name = r->table_kind;
    srgb_to_lin3(tables[r->table_kind][0][0], tables[r->table_kind][0][1], tables[r->table_kind][0][2], r->table_a);
    srgb_to_lin3(tables[r->table_kind][1][0], tables[r->table_kind][1][1], tables[r->table_kind][1][2], r->table_b);
    if (r->table_kind == 4)
        r->table_kind = 0;
    r->paper = rnd_rng_unit(&rng) < 0.5;
    r->paper_c[0] = (rnd_rng_unit(&rng) < 0.5 ? -1 : 1) * (g->half_w + rnd_rng_range(&rng, 140, 230));
    r->paper_c[1] = rnd_rng_range(&rng, -g->half_h * 0.6, g->half_h * 0.6);
    r->paper_hw[0] = 105;
    r->paper_hw[1] = 148;
    r->paper_ang = rnd_rng_range(&rng, -0.3, 0.3);
    /* the table: 60-120 cm deep, 90-180 cm wide, the board not quite centred */
    r->table_hw[0] = rnd_rng_range(&rng, 450, 900);
    r->table_hw[1] = rnd_rng_range(&rng, 300, 600);
    r->table_c[0] = rnd_rng_range(&rng, -0.4, 0.4) * (r->table_hw[0] - g->half_w - 150);
    r->table_c[1] = rnd_rng_range(&rng, -0.4, 0.4) * (r->table_hw[1] - g->half_h - 100);
    static const double floors[3][3] = { { 90, 100, 110 }, { 60, 90, 130 }, { 150, 150, 145 } };
    int fk = rnd_rng_int(&rng, 3);
    srgb_to_lin3(floors[fk][0], floors[fk][1], floors[fk][2], r->floor_alb);
    /* the stone bowls, at each player's right hand */
    r->nbowls = rnd_rng_unit(&rng) < 0.8 ? 2 : 0;
    r->bowl_r = rnd_rng_range(&rng, 55, 70);
    r->bowl_h = rnd_rng_range(&rng, 60, 85);
    static const double bowls[3][3] = { { 40, 55, 82 }, { 26, 26, 30 }, { 95, 140, 185 } };
    int bk = rnd_rng_int(&rng, 3);
    for (int k = 0; k < 2; k++) {
        double sg = k == 0 ? 1 : -1; /* Black's bowl at +x near -y; White's mirrored */
        /* beyond the signal corner (RND_BOWL_GAP): a bowl at the board's side would
         * stand over the end-signal stones, or hide them from a camera looking past it */
        r->bowl_xy[k][0] = sg * (g->half_w + r->bowl_r + rnd_rng_range(&rng, RND_BOWL_GAP, RND_BOWL_GAP + 55));
        r->bowl_xy[k][1] = -sg * (g->half_h - r->bowl_r - rnd_rng_range(&rng, 0, 120));
        srgb_to_lin3(bowls[bk][0], bowls[bk][1], bowls[bk][2], r->bowl_alb[k]);
    }
    if (r->paper && r->nbowls && fabs(r->paper_c[0] - r->bowl_xy[r->paper_c[0] > 0 ? 0 : 1][0]) < 200)
        r->paper_c[1] += r->paper_c[0] > 0 ? 170 : -170; /* keep the paper off the bowl */
    if (fabs(r->paper_c[0] - r->table_c[0]) + 160 > r->table_hw[0] ||
        fabs(r->paper_c[1] - r->table_c[1]) + 160 > r->table_hw[1])
        r->paper = 0; /* it would hang over the table's edge */

    /* stones */
    srgb_to_lin3(rnd_rng_range(&rng, 24, 38), rnd_rng_range(&rng, 24, 36), rnd_rng_range(&rng, 24, 34), r->black_alb);
    double wbase = rnd_rng_range(&rng, 200, 222);
    srgb_to_lin3(wbase - rnd_rng_range(&rng, 6, 16), wbase - rnd_rng_range(&rng, 0, 5), wbase, r->white_alb);
    r->black_spec = rnd_rng_range(&rng, 0.5, 1.2);
    r->white_spec = rnd_rng_range(&rng, 0.15, 0.35);
    r->grain_amp = rnd_rng_unit(&rng) < 0.6 ? rnd_rng_range(&rng, 0.04, 0.1) : 0.0;

    /* the players: skin and sleeve (index 1 Black's seat, 2 White's) */
    static const double skins[6][3] = {
        { 150, 178, 226 }, { 120, 155, 210 }, { 100, 135, 190 },
        { 75, 105, 160 },  { 55, 80, 120 },   { 160, 185, 235 },
    };
    static const double sleeves[6][3] = {
        { 60, 40, 30 }, { 200, 200, 200 }, { 40, 40, 40 }, { 120, 70, 40 }, { 50, 90, 140 }, { 150, 140, 130 },
    };
    for (int p = 1; p <= 2; p++) {
        int s = rnd_rng_int(&rng, 6), sl = rnd_rng_int(&rng, 6);
        srgb_to_lin3(skins[s][0], skins[s][1], skins[s][2], r->skin[p]);
        srgb_to_lin3(sleeves[sl][0], sleeves[sl][1], sleeves[sl][2], r->sleeve[p]);
    }

    r->vignette = r->o.noise ? rnd_rng_range(&rng, 0.12, 0.35) : 0.05;
    r->blur = r->o.noise ? rnd_rng_range(&rng, 0.55, 0.95) : 0.0;
    if (r->o.variety)
        vary_stones(r, &vr);

    /* exposure: the board's centre at a pleasant grey level */
    double amb[3], dir[3], cen[3];
    irradiance(r, V(0, 0, g->top), V(0, 0, 1), amb, dir, NULL);
    wood_at(r, 0, 0, cen);
    double y = 0;
    for (int c = 0; c < 3; c++)
        y += cen[c] * (amb[c] + dir[c]) / 3;
    double want = pow(rnd_rng_range(&rng, 170, 200) / 255.0, 2.2);
    double expo = want / (y > 1e-6 ? y : 1e-6);
    if (r->o.light == RND_LIGHT_UNEVEN)
        expo *= 0.8;
    for (int c = 0; c < 3; c++) {
        r->lcol[c] *= expo;
        r->amb[c] *= expo;
        r->lcol2[c] *= expo;
    }
}

static void render_background(rnd_renderer_t *r)
{
    int ss = 2;
    for (int j = 0; j < r->ch; j++)
        for (int i = 0; i < r->cw; i++) {
            double acc[3] = { 0, 0, 0 }, col[3], hx, hy, dir;
            int face;
            size_t k = (size_t)j * r->cw + i;
            trace_bg(r, i, j, 1.0, col, &hx, &hy, &face, &dir);
            r->hx[k] = (float)hx;
            r->hy[k] = (float)hy;
            r->face[k] = (uint8_t)face;
            r->direct[k] = (float)dir;
            if (face == 1) { /* supersample the grid */
                for (int s = 0; s < ss * ss; s++) {
                    int sx = s % ss, sy = s / ss; /* the sub-pixel's column and row */
                    double ox = (sx + 0.5) / ss - 0.5, oy = (sy + 0.5) / ss - 0.5;
                    double c2[3], a, b, d2;
                    int f2;
                    trace_bg(r, i + ox, j + oy, 1.0 / ss, c2, &a, &b, &f2, &d2);
                    for (int c = 0; c < 3; c++)
                        acc[c] += c2[c];
                }
                for (int c = 0; c < 3; c++)
                    col[c] = acc[c] / (ss * ss);
            }
            double v = vig(r, i, j);
            uint8_t *p = r->bg + k * 3;
            for (int c = 0; c < 3; c++)
                p[c] = enc(r, col[c] * v);
        }
}

int rnd_renderer_create(const rnd_scene_opts_t *opts, rnd_renderer_t **out)
{
    if (!opts || !out || opts->width < 16 || opts->height < 16 || opts->width > 8192 ||
        opts->height > 8192 || opts->size < 2 || opts->size > 25 || (unsigned)opts->view > 2 ||
        (unsigned)opts->light >= RND_LIGHT_COUNT)
        return RND_EINVAL;
    rnd_renderer_t *r = calloc(1, sizeof *r);
    if (!r)
        return RND_ENOMEM;
    r->o = *opts;
    r->W = opts->width;
    r->H = opts->height;
    r->M = RND_SHAKE_MAX + 1;
    r->cw = r->W + 2 * r->M;
    r->ch = r->H + 2 * r->M;
    for (int i = 0; i < 4096; i++)
        r->gam[i] = (uint8_t)(255.0 * pow(i / 4095.0, 1 / 2.2) + 0.5);
    size_t np = (size_t)r->cw * r->ch;
    r->bg = malloc(np * 3);
    r->canvas = malloc(np * 3);
    r->soft = malloc(np * 3);
    r->hx = malloc(np * sizeof(float));
    r->hy = malloc(np * sizeof(float));
    r->direct = malloc(np * sizeof(float));
    r->face = malloc(np);
    r->ray = malloc(np * 3 * sizeof(float));
    r->noise_len = (size_t)r->W * r->H * 3 + NOISE_PAD;
    r->noise = malloc(r->noise_len);
    choose_scene(r);
    if (!r->bg || !r->canvas || !r->soft || !r->hx || !r->hy || !r->direct || !r->face ||
        !r->noise || !r->tex || !r->ray) {
        rnd_renderer_destroy(r);
        return RND_ENOMEM;
    }
    rnd_rng_t nr;
    rnd_rng_seed(&nr, opts->seed ^ 0xa11ce5ull);
    double sigma = opts->noise ? rnd_rng_range(&nr, 1.5, 3.2) : 0;
    for (size_t i = 0; i < r->noise_len; i++) {
        double v = opts->noise ? rnd_rng_gauss(&nr) * sigma : 0;
        r->noise[i] = (int8_t)clampd(v, -40, 40);
    }
    for (int j = 0; j < r->ch; j++)
        for (int i = 0; i < r->cw; i++) {
            v3 d = pixel_ray(r, i, j);
            float *q = r->ray + ((size_t)j * r->cw + i) * 3;
            q[0] = (float)d.x;
            q[1] = (float)d.y;
            q[2] = (float)d.z;
        }
    render_background(r);
    memcpy(r->canvas, r->bg, np * 3);
    if (r->blur > 0) {
        cvb_image_t s = { r->cw, r->ch, 3, (size_t)r->cw * 3, r->canvas };
        cvb_image_t d = { r->cw, r->ch, 3, (size_t)r->cw * 3, r->soft };
        if (cvb_render_blur(&s, &d, 0, 0, r->cw, r->ch, r->blur) != CVB_OK)
            memcpy(r->soft, r->canvas, np * 3);
    } else {
        memcpy(r->soft, r->canvas, np * 3);
    }
    *out = r;
    return RND_OK;
}

void rnd_renderer_destroy(rnd_renderer_t *r)
{
    if (!r)
        return;
    free(r->tex);
    free(r->bg);
    free(r->canvas);
    free(r->soft);
    free(r->hx);
    free(r->hy);
    free(r->direct);
    free(r->face);
    free(r->ray);
    free(r->noise);
    free(r->st);
    free(r->stbox);
    free(r->hdep);
    free(r->hid);
    free(r->hstamp);
    free(r->hsh);
    free(r->sstamp);
    free(r);
}

const rnd_geometry_t *rnd_renderer_geometry(const rnd_renderer_t *r) { return &r->g; }

void rnd_renderer_point_world(const rnd_renderer_t *r, double x, double y, double *wx, double *wy)
{
    double ext = (r->g.size - 1) * 0.5;
    *wx = (x - ext) * r->g.dx;
    *wy = (ext - y) * r->g.dy;
}

int rnd_renderer_project(const rnd_renderer_t *r, const double w[3], int shake_x, int shake_y,
                         double *px, double *py)
{
    double x, y;
    if (!r || !w || !px || !py || project(r, V(w[0], w[1], w[2]), &x, &y))
        return RND_EINVAL;
    *px = x - r->M - shake_x;
    *py = y - r->M - shake_y;
    return RND_OK;
}

/* ---------------------------------------------------------------- stones */
static inline void box_add_pt(box_t *b, double x, double y)
{
    int xi = (int)floor(x), yi = (int)floor(y);
    if (b->x0 >= b->x1) {
        b->x0 = xi;
        b->y0 = yi;
        b->x1 = xi + 1;
        b->y1 = yi + 1;
        return;
    }
    b->x0 = imin(b->x0, xi);
    b->y0 = imin(b->y0, yi);
    b->x1 = imax(b->x1, xi + 1);
    b->y1 = imax(b->y1, yi + 1);
}
static inline void box_union(box_t *a, const box_t *b)
{
    if (b->x0 >= b->x1)
        return;
    if (a->x0 >= a->x1) {
        *a = *b;
        return;
    }
    a->x0 = imin(a->x0, b->x0);
    a->y0 = imin(a->y0, b->y0);
    a->x1 = imax(a->x1, b->x1);
    a->y1 = imax(a->y1, b->y1);
}
static inline box_t box_clip(box_t b, int x0, int y0, int x1, int y1)
{
    b.x0 = imax(b.x0, x0);
    b.y0 = imax(b.y0, y0);
    b.x1 = imin(b.x1, x1);
    b.y1 = imin(b.y1, y1);
    return b;
}

/* Where the stone's shadow centre falls on its own surface. */
static v3 shadow_centre(const rnd_renderer_t *r, const rnd_stone_t *s)
{
    v3 c = V(s->x, s->y, s->z + r->g.stone_h * 0.5);
    double k = (r->lp.z - s->z) / (r->lp.z - c.z);
    return vadd(r->lp, vmul(vsub(c, r->lp), k));
}

static box_t stone_box(const rnd_renderer_t *r, const rnd_stone_t *s)
{
    box_t b = { 0, 0, 0, 0 };
    double a = r->g.stone_r + 4, h = r->g.stone_h;
    v3 sc = shadow_centre(r, s);
    for (int k = 0; k < 12; k++) {
        v3 P = k < 8 ? V(s->x + ((k & 1) ? a : -a), s->y + ((k & 2) ? a : -a), s->z + ((k & 4) ? h : 0))
                     : V(sc.x + ((k & 1) ? a : -a), sc.y + ((k & 2) ? a : -a), s->z);
        double px, py;
        if (!project(r, P, &px, &py))
            box_add_pt(&b, px, py);
    }
    b.x0 -= 2;
    b.y0 -= 2;
    b.x1 += 2;
    b.y1 += 2;
    return b;
}

static void draw_shadow(rnd_renderer_t *r, const rnd_stone_t *s, box_t b)
{
    v3 sc = shadow_centre(r, s);
    double rad = r->g.stone_r;
    for (int j = b.y0; j < b.y1; j++)
        for (int i = b.x0; i < b.x1; i++) {
            size_t k = (size_t)j * r->cw + i;
            int face = r->face[k];
            if (face >= 2)
                continue;
            if ((face == 1) != (s->z > 0.5))
                continue;
            double x = r->hx[k], y = r->hy[k];
            double ds = sqrt((x - sc.x) * (x - sc.x) + (y - sc.y) * (y - sc.y));
            double dc = sqrt((x - s->x) * (x - s->x) + (y - s->y) * (y - s->y));
            double sh = 1.0 - smoothstep(rad * 0.55, rad + 2.5, ds);
            double ao = 1.0 - smoothstep(rad * 0.6, rad + 2.0, dc);
            double f = (1.0 - 0.85 * r->direct[k] * sh) * (1.0 - 0.45 * ao);
            if (f >= 0.999)
                continue;
            double g = pow(f, 1 / 2.2);
            uint8_t *p = r->canvas + k * 3;
            for (int c = 0; c < 3; c++)
                p[c] = (uint8_t)(p[c] * g + 0.5);
        }
}

/* Ray against an axis-aligned ellipsoid (centre c, radii a, a, b); t or -1; *n normal. */
static double ray_ellipsoid(v3 o, v3 d, v3 c, double a, double b, v3 *n)
{
    v3 oc = vsub(o, c);
    v3 os = V(oc.x / a, oc.y / a, oc.z / b), ds = V(d.x / a, d.y / a, d.z / b);
    double A = vdot(ds, ds), B = vdot(os, ds), C = vdot(os, os) - 1;
    double h = B * B - A * C;
    if (h < 0)
        return -1;
    double t = (-B - sqrt(h)) / A;
    if (t < 0)
        return -1;
    if (n) {
        v3 p = vadd(oc, vmul(d, t));
        *n = vnorm(V(p.x / (a * a), p.y / (a * a), p.z / (b * b)));
    }
    return t;
}

static void shade_stone(const rnd_renderer_t *r, const rnd_stone_t *s, v3 P, v3 N, v3 d, double col[3])
{
    double amb[3], dir[3];
    v3 L;
    irradiance(r, P, N, amb, dir, &L);
    double alb[3], spec, shin;
    if (s->color == 1) {
        for (int c = 0; c < 3; c++)
            alb[c] = r->black_alb[c];
        spec = r->black_spec;
        shin = 140;
    } else {
        double u = (P.x - s->x) * cos(s->grain) + (P.y - s->y) * sin(s->grain);
        double g = 1.0 - r->grain_amp * (0.5 + 0.5 * sin(u * 4.2 + 1.7 * sin(u * 0.9)));
        for (int c = 0; c < 3; c++)
            alb[c] = r->white_alb[c] * g;
        spec = r->white_spec;
        shin = 22;
    }
    double hz = (P.z - s->z) / r->g.stone_h;
    double ao = 0.45 + 0.55 * smoothstep(0.0, 0.6, hz);
    v3 h = vnorm(vsub(L, d));
    double nh = fmax(vdot(N, h), 0);
    double sp = pow(nh, shin) * spec + pow(nh, 6) * spec * 0.06;
    /* a broad reflection of the room (fresnel-ish) */
    double fr = pow(1.0 - fabs(vdot(N, d)), 3) * 0.2;
    for (int c = 0; c < 3; c++)
        col[c] = alb[c] * (amb[c] * ao + dir[c]) + sp * r->lcol[c] + fr * r->amb[c] * (s->color == 1 ? 0.6 : 0.2);
}

/* A stone on the table seen along d at distance t is hidden at canvas pixel k when the
 * board (its top or side) or a bowl drawn there lies nearer along the ray: a stone put
 * down beyond the board's far side is hidden by the board's thickness. */
static int behind_prop(const rnd_renderer_t *r, size_t k, v3 d, double t)
{
    int face = r->face[k];
    double tb;
    if (face == 1 && d.z < -1e-9) {
        tb = (r->g.top - r->C.z) / d.z;
    } else if (face == 2 || face == 4) {
        double hd = hypot(d.x, d.y);
        if (hd < 1e-9)
            return 0;
        tb = hypot(r->hx[k] - r->C.x, r->hy[k] - r->C.y) / hd;
    } else {
        return 0;
    }
    return tb < t;
}

static void draw_stone(rnd_renderer_t *r, const rnd_stone_t *s, box_t b)
{
    v3 c = V(s->x, s->y, s->z + r->g.stone_h * 0.5);
    double a = r->g.stone_r, hh = r->g.stone_h * 0.5;
    for (int j = b.y0; j < b.y1; j++)
        for (int i = b.x0; i < b.x1; i++) {
            double acc[3] = { 0, 0, 0 };
            int hits = 0;
            for (int q = 0; q < 4; q++) {
                double px = i + ((q & 1) ? 0.25 : -0.25), py = j + ((q & 2) ? 0.25 : -0.25);
                v3 d = pixel_ray(r, px, py), N;
                double t = ray_ellipsoid(r->C, d, c, a, hh, &N);
                if (t < 0 || (s->z < 0.5 && behind_prop(r, (size_t)j * r->cw + i, d, t)))
                    continue;
                double col[3];
                shade_stone(r, s, vadd(r->C, vmul(d, t)), N, d, col);
                double v = vig(r, px, py);
                for (int k = 0; k < 3; k++)
                    acc[k] += enc(r, col[k] * v);
                hits++;
            }
            if (!hits)
                continue;
            uint8_t *p = r->canvas + ((size_t)j * r->cw + i) * 3;
            double cov = hits / 4.0;
            for (int k = 0; k < 3; k++)
                p[k] = (uint8_t)(p[k] * (1 - cov) + acc[k] / 4.0 + 0.5);
        }
}

/* Sort stones far to near (insertion sort: a few hundred stones, stable). */
static void sort_by_depth(const rnd_renderer_t *r, rnd_stone_t *st, int n)
{
    for (int i = 1; i < n; i++) {
        rnd_stone_t s = st[i];
        double d = vlen(vsub(V(s.x, s.y, s.z), r->C));
        int j = i - 1;
        while (j >= 0 && vlen(vsub(V(st[j].x, st[j].y, st[j].z), r->C)) < d) {
            st[j + 1] = st[j];
            j--;
        }
        st[j + 1] = s;
    }
}

static void redraw(rnd_renderer_t *r, box_t dirty)
{
    dirty = box_clip(dirty, 0, 0, r->cw, r->ch);
    if (dirty.x0 >= dirty.x1 || dirty.y0 >= dirty.y1)
        return;
    for (int j = dirty.y0; j < dirty.y1; j++) {
        size_t o = ((size_t)j * r->cw + dirty.x0) * 3;
        memcpy(r->canvas + o, r->bg + o, (size_t)(dirty.x1 - dirty.x0) * 3);
    }
    for (int i = 0; i < r->nst; i++) {
        box_t b = box_clip(r->stbox[i], dirty.x0, dirty.y0, dirty.x1, dirty.y1);
        if (b.x0 < b.x1 && b.y0 < b.y1)
            draw_shadow(r, &r->st[i], b);
    }
    for (int i = 0; i < r->nst; i++) {
        box_t b = box_clip(r->stbox[i], dirty.x0, dirty.y0, dirty.x1, dirty.y1);
        if (b.x0 < b.x1 && b.y0 < b.y1)
            draw_stone(r, &r->st[i], b);
    }
    int m = (int)ceil(r->blur * 4) + 1;
    box_t sb = box_clip((box_t){ dirty.x0 - m, dirty.y0 - m, dirty.x1 + m, dirty.y1 + m }, 0, 0, r->cw, r->ch);
    cvb_image_t s = { r->cw, r->ch, 3, (size_t)r->cw * 3, r->canvas };
    cvb_image_t d = { r->cw, r->ch, 3, (size_t)r->cw * 3, r->soft };
    if (r->blur <= 0 ||
        cvb_render_blur(&s, &d, sb.x0, sb.y0, sb.x1 - sb.x0, sb.y1 - sb.y0, r->blur) != CVB_OK)
        for (int j = sb.y0; j < sb.y1; j++) {
            size_t o = ((size_t)j * r->cw + sb.x0) * 3;
            memcpy(r->soft + o, r->canvas + o, (size_t)(sb.x1 - sb.x0) * 3);
        }
}

static int same_stone(const rnd_stone_t *a, const rnd_stone_t *b)
{
    return a->x == b->x && a->y == b->y && a->z == b->z && a->color == b->color && a->grain == b->grain;
}

int rnd_renderer_set_stones(rnd_renderer_t *r, const rnd_stone_t *stones, int n)
{
    if (!r || n < 0 || (n > 0 && !stones))
        return RND_EINVAL;
    if (n > r->stcap) {
        int cap = n + 16;
        rnd_stone_t *ns = realloc(r->st, (size_t)cap * sizeof *ns);
        if (!ns)
            return RND_ENOMEM;
        r->st = ns;
        box_t *nb = realloc(r->stbox, (size_t)cap * sizeof *nb);
        if (!nb)
            return RND_ENOMEM;
        r->stbox = nb;
        r->stcap = cap;
    }
    box_t dirty = { 0, 0, 0, 0 };
    /* stones that left */
    for (int i = 0; i < r->nst; i++) {
        int found = 0;
        for (int j = 0; j < n && !found; j++)
            found = same_stone(&r->st[i], &stones[j]);
        if (!found)
            box_union(&dirty, &r->stbox[i]);
    }
    /* stones that came */
    for (int j = 0; j < n; j++) {
        int found = 0;
        for (int i = 0; i < r->nst && !found; i++)
            found = same_stone(&r->st[i], &stones[j]);
        if (!found) {
            box_t b = stone_box(r, &stones[j]);
            box_union(&dirty, &b);
        }
    }
    if (dirty.x0 >= dirty.x1)
        return RND_OK;
    memcpy(r->st, stones, (size_t)n * sizeof *stones);
    r->nst = n;
    sort_by_depth(r, r->st, n);
    for (int i = 0; i < n; i++)
        r->stbox[i] = stone_box(r, &r->st[i]);
    redraw(r, dirty);
    return RND_OK;
}

/* ---------------------------------------------------------------- hands */
typedef struct {
    v3 a, b;
    double rad;
    int mat; /* 0 skin, 1 sleeve, 2 fingertip */
    int seat;
    double pa[2], pb[2], prad; /* projection: frame pixels */
    v3 sa, sb;                 /* shadow endpoints on the board plane */
    double srad, soft;
} capsule_t;

#define MAX_CAPS 40

static double ray_capsule(v3 ro, v3 rd, v3 pa, v3 pb, double ra)
{
    v3 ba = vsub(pb, pa), oa = vsub(ro, pa);
    double baba = vdot(ba, ba), bard = vdot(ba, rd), baoa = vdot(ba, oa);
    double rdoa = vdot(rd, oa), oaoa = vdot(oa, oa);
    double a = baba - bard * bard, b = baba * rdoa - baoa * bard;
    double c = baba * oaoa - baoa * baoa - ra * ra * baba;
    double h = b * b - a * c;
    if (h >= 0 && a > 1e-12) {
        double t = (-b - sqrt(h)) / a;
        double y = baoa + t * bard;
        if (y > 0 && y < baba)
            return t;
        v3 oc = y <= 0 ? oa : vsub(ro, pb);
        b = vdot(rd, oc);
        c = vdot(oc, oc) - ra * ra;
        h = b * b - c;
        if (h > 0)
            return -b - sqrt(h);
    }
    return -1;
}

static double seg_dist2d(double px, double py, const double a[2], const double b[2])
{
    double bx = b[0] - a[0], by = b[1] - a[1];
    double l2 = bx * bx + by * by;
    double t = l2 > 0 ? ((px - a[0]) * bx + (py - a[1]) * by) / l2 : 0;
    t = clampd(t, 0, 1);
    double dx = px - (a[0] + t * bx), dy = py - (a[1] + t * by);
    return sqrt(dx * dx + dy * dy);
}

/* A right hand pinching a stone between index and middle finger, palm down, the ring
 * and little fingers curled, the thumb tucked; then forearm, sleeve and upper arm
 * towards the shoulder. mat: 0 skin, 1 sleeve, 2 fingertip skin (a little redder). */
static int hand_capsules(const rnd_renderer_t *r, const rnd_hand_t *h, capsule_t *cp, int n)
{
    v3 tip = V(h->tip[0], h->tip[1], h->tip[2]);
    v3 sh = V(h->shoulder[0], h->shoulder[1], h->shoulder[2]);
    v3 back = vnorm(V(sh.x - tip.x, sh.y - tip.y, 0));
    v3 fwd = vmul(back, -1);
    v3 side = vnorm(vcross(back, V(0, 0, 1))); /* towards the thumb */
    v3 up = V(0, 0, 1);
#define P3(b0, s0, u0) vadd(vadd(b0, vmul(side, s0)), vmul(up, u0))
    v3 K = vadd(vadd(tip, vmul(back, 70)), vmul(up, 24));
    v3 Wr = vadd(vadd(K, vmul(back, 82)), vmul(up, 18));
    v3 E = vadd(Wr, vmul(vnorm(vsub(sh, Wr)), 250));
    v3 Es = vadd(E, vmul(vnorm(vsub(sh, E)), 300));
    v3 Ki = P3(K, 12, 0), Km = P3(K, -6, 1), Kr = P3(K, -22, -2), Kl = P3(K, -35, -6);
    v3 Ti = P3(tip, 4, 5), Tm = P3(tip, -3, -2);
    v3 Ji = vadd(vadd(Ki, vmul(vsub(Ti, Ki), 0.55)), vmul(up, 9));
    v3 Jm = vadd(vadd(Km, vmul(vsub(Tm, Km), 0.55)), vmul(up, 9));
    v3 Jr = vadd(vadd(Kr, vmul(fwd, 24)), vmul(up, -14)), Cr = vadd(vadd(Jr, vmul(back, 14)), vmul(up, -10));
    v3 Jl = vadd(vadd(Kl, vmul(fwd, 18)), vmul(up, -13)), Cl = vadd(vadd(Jl, vmul(back, 11)), vmul(up, -8));
    v3 Tb = P3(Wr, 22, -6), Tj = vadd(P3(K, 30, -12), vmul(back, 18)), Tt = vadd(P3(K, 20, -15), vmul(fwd, 16));
    v3 F1 = vadd(Wr, vmul(vsub(E, Wr), 0.5));
    struct {
        v3 a, b;
        double r;
        int m;
    } parts[] = {
        /* index and middle fingers: two phalanx capsules each, pinching the stone */
        { Ki, Ji, 8.5, 0 }, { Ji, Ti, 7.5, 2 },
        { Km, Jm, 9, 0 },   { Jm, Tm, 8, 2 },
        /* ring and little fingers curled under the palm */
        { Kr, Jr, 8.5, 0 }, { Jr, Cr, 8, 2 },
        { Kl, Jl, 7.5, 0 }, { Jl, Cl, 7, 2 },
        /* thumb, tucked against the index finger */
        { Tb, Tj, 11, 0 },  { Tj, Tt, 9, 2 },
        /* palm: three overlapping capsules make a broad, flat hand */
        { P3(Wr, 12, 0), P3(K, 12, 0), 15, 0 },
        { P3(Wr, -2, 2), P3(K, -6, 2), 16, 0 },
        { P3(Wr, -16, 0), P3(K, -24, -2), 14, 0 },
        /* wrist and forearm widening towards the elbow, sleeve, upper arm */
        { Wr, F1, 25, 0 },
        { vadd(Wr, vmul(vsub(E, Wr), 0.35)), E, 31, 0 },
        { vadd(Wr, vmul(vsub(E, Wr), 0.6)), E, 41, 1 },
        { E, Es, 50, 1 },
    };
#undef P3
    int k = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && k < n; i++, k++) {
        cp[k].a = parts[i].a;
        cp[k].b = parts[i].b;
        cp[k].rad = parts[i].r;
        cp[k].mat = parts[i].m;
        cp[k].seat = h->seat;
    }
    (void)r;
    return k;
}

/* Project a capsule into frame pixels and onto the board plane from the light. */
static int prep_capsule(const rnd_renderer_t *r, capsule_t *c, int sx, int sy)
{
    double ax, ay, bx, by;
    /* clip the far end towards the camera plane when behind */
    if (project(r, c->a, &ax, &ay) || project(r, c->b, &bx, &by))
        return -1;
    c->pa[0] = ax - r->M - sx;
    c->pa[1] = ay - r->M - sy;
    c->pb[0] = bx - r->M - sx;
    c->pb[1] = by - r->M - sy;
    double da = vdot(vsub(c->a, r->C), r->fwd), db = vdot(vsub(c->b, r->C), r->fwd);
    double dmin = fmin(da, db);
    c->prad = c->rad * r->f / (dmin > 1 ? dmin : 1) * 1.15 + 2;
    double pz = r->g.top;
    double ka = (r->lp.z - pz) / (r->lp.z - c->a.z), kb = (r->lp.z - pz) / (r->lp.z - c->b.z);
    if (c->a.z >= r->lp.z - 1 || c->b.z >= r->lp.z - 1) {
        c->srad = 0;
        return 0;
    }
    c->sa = vadd(r->lp, vmul(vsub(c->a, r->lp), ka));
    c->sb = vadd(r->lp, vmul(vsub(c->b, r->lp), kb));
    c->srad = c->rad * fmax(ka, kb);
    c->soft = 3 + 0.06 * (fmin(c->a.z, c->b.z) - pz);
    return 0;
}

/* The x-interval of row y within distance R of segment ab (conservative); 0 if none. */
static int stadium_span(const double a[2], const double b[2], double R, double y, int W, int *x0, int *x1)
{
    double dy = b[1] - a[1], t0, t1;
    if (fabs(dy) < 1e-9) {
        if (fabs(y - a[1]) > R)
            return 0;
        t0 = 0;
        t1 = 1;
    } else {
        t0 = (y - R - a[1]) / dy;
        t1 = (y + R - a[1]) / dy;
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        if (t1 < 0 || t0 > 1)
            return 0;
        t0 = clampd(t0, 0, 1);
        t1 = clampd(t1, 0, 1);
    }
    double xa = a[0] + t0 * (b[0] - a[0]), xb = a[0] + t1 * (b[0] - a[0]);
    int l = (int)floor(fmin(xa, xb) - R), h = (int)ceil(fmax(xa, xb) + R) + 1;
    *x0 = imax(l, 0);
    *x1 = imin(h, W);
    return *x0 < *x1;
}

static int hand_buffers(rnd_renderer_t *r)
{
    if (r->hdep)
        return 0;
    size_t n = (size_t)r->W * r->H;
    r->hdep = malloc(n * sizeof(float));
    r->hid = malloc(n * sizeof(int16_t));
    r->hstamp = calloc(n, sizeof(uint32_t));
    r->hsh = malloc(n * sizeof(float));
    r->sstamp = calloc(n, sizeof(uint32_t));
    if (!r->hdep || !r->hid || !r->hstamp || !r->hsh || !r->sstamp) {
        free(r->hdep);
        free(r->hid);
        free(r->hstamp);
        free(r->hsh);
        free(r->sstamp);
        r->hdep = NULL;
        r->hid = NULL;
        r->hstamp = r->sstamp = NULL;
        r->hsh = NULL;
        return -1;
    }
    return 0;
}

static void draw_hands(rnd_renderer_t *r, const rnd_frame_fx_t *fx, const rnd_hand_t *hands, int nh,
                       cvb_image_t *out, uint8_t *mask)
{
    capsule_t cp[MAX_CAPS];
    int nc = 0;
    struct {
        v3 c;
        int color;
        double pc[2], prad;
    } held[4];
    int nheld = 0;
    int sx = fx->shake_x, sy = fx->shake_y;
    if (hand_buffers(r))
        return;
    for (int i = 0; i < nh; i++) {
        if (!hands[i].active || hands[i].seat < 1 || hands[i].seat > 2)
            continue;
        int k = hand_capsules(r, &hands[i], cp + nc, MAX_CAPS - nc);
        int kept = 0;
        for (int j = 0; j < k; j++)
            if (prep_capsule(r, &cp[nc + j], sx, sy) == 0) {
                if (kept != j)
                    cp[nc + kept] = cp[nc + j];
                kept++;
            }
        nc += kept;
        double px, py;
        v3 c = V(hands[i].tip[0], hands[i].tip[1], hands[i].tip[2]);
        if (hands[i].carry && nheld < 4 && !project(r, c, &px, &py)) {
            held[nheld].c = c;
            held[nheld].color = hands[i].carry;
            held[nheld].pc[0] = px - r->M - sx;
            held[nheld].pc[1] = py - r->M - sy;
            double dz = vdot(vsub(c, r->C), r->fwd);
            held[nheld].prad = r->g.stone_r * r->f / (dz > 1 ? dz : 1) * 1.2 + 2;
            nheld++;
        }
    }
    if (!nc)
        return;
    uint32_t st = ++r->stamp;
    if (st == 0) { /* wrapped: clear the stamps */
        memset(r->hstamp, 0, (size_t)r->W * r->H * sizeof(uint32_t));
        memset(r->sstamp, 0, (size_t)r->W * r->H * sizeof(uint32_t));
        st = ++r->stamp;
    }
    /* shadows: per capsule, the stadium of its shadow in the image */
    box_t sbx = { 0, 0, 0, 0 };
    for (int q = 0; q < nc; q++) {
        capsule_t *c = &cp[q];
        if (c->srad <= 0)
            continue;
        double pa[2], pb[2], ax, ay, bx, by;
        if (project(r, V(c->sa.x, c->sa.y, r->g.top), &ax, &ay) || project(r, V(c->sb.x, c->sb.y, r->g.top), &bx, &by))
            continue;
        pa[0] = ax - r->M - sx;
        pa[1] = ay - r->M - sy;
        pb[0] = bx - r->M - sx;
        pb[1] = by - r->M - sy;
        double da = vdot(vsub(c->sa, r->C), r->fwd), db = vdot(vsub(c->sb, r->C), r->fwd);
        double R = (c->srad + c->soft) * r->f / fmax(fmin(da, db), 1) * 1.4 + 2;
        int y0 = imax(0, (int)floor(fmin(pa[1], pb[1]) - R)), y1 = imin(r->H, (int)ceil(fmax(pa[1], pb[1]) + R) + 1);
        double a2[2] = { c->sa.x, c->sa.y }, b2[2] = { c->sb.x, c->sb.y };
        for (int j = y0; j < y1; j++) {
            int x0, x1;
            if (!stadium_span(pa, pb, R, j, r->W, &x0, &x1))
                continue;
            box_add_pt(&sbx, x0, j);
            box_add_pt(&sbx, x1 - 1, j);
            for (int i = x0; i < x1; i++) {
                size_t k = (size_t)(j + r->M + sy) * r->cw + (size_t)(i + r->M + sx);
                if (r->face[k] > 1)
                    continue;
                double d = seg_dist2d(r->hx[k], r->hy[k], a2, b2);
                double s = 1 - smoothstep(c->srad - c->soft, c->srad + c->soft, d);
                size_t o = (size_t)j * r->W + i;
                if (r->sstamp[o] != st) {
                    r->sstamp[o] = st;
                    r->hsh[o] = (float)s;
                } else if (s > r->hsh[o]) {
                    r->hsh[o] = (float)s;
                }
            }
        }
    }
    for (int j = sbx.y0; j < sbx.y1; j++)
        for (int i = sbx.x0; i < sbx.x1; i++) {
            size_t o = (size_t)j * r->W + i;
            if (r->sstamp[o] != st || r->hsh[o] <= 0.001f)
                continue;
            size_t k = (size_t)(j + r->M + sy) * r->cw + (size_t)(i + r->M + sx);
            double f = 1 - 0.8 * r->direct[k] * r->hsh[o];
            f = sqrt(f) * (0.75 + 0.25 * f); /* ~ f^(1/2.2) */
            uint8_t *p = out->data + (size_t)j * out->stride + (size_t)i * 3;
            for (int c = 0; c < 3; c++)
                p[c] = (uint8_t)(p[c] * f + 0.5);
        }
    /* the hands: depth-tested capsule by capsule over its image stadium */
    box_t hb = { 0, 0, 0, 0 };
    for (int q = 0; q < nc + nheld; q++) {
        const double *pa = q < nc ? cp[q].pa : held[q - nc].pc, *pb = q < nc ? cp[q].pb : held[q - nc].pc;
        double R = q < nc ? cp[q].prad : held[q - nc].prad;
        int y0 = imax(0, (int)floor(fmin(pa[1], pb[1]) - R)), y1 = imin(r->H, (int)ceil(fmax(pa[1], pb[1]) + R) + 1);
        for (int j = y0; j < y1; j++) {
            int x0, x1;
            if (!stadium_span(pa, pb, R, j, r->W, &x0, &x1))
                continue;
            box_add_pt(&hb, x0, j);
            box_add_pt(&hb, x1 - 1, j);
            const float *rays = r->ray + ((size_t)(j + r->M + sy) * r->cw + (size_t)(r->M + sx)) * 3;
            for (int i = x0; i < x1; i++) {
                v3 d = V(rays[i * 3], rays[i * 3 + 1], rays[i * 3 + 2]);
                double t = q < nc ? ray_capsule(r->C, d, cp[q].a, cp[q].b, cp[q].rad)
                                  : ray_ellipsoid(r->C, d, held[q - nc].c, r->g.stone_r, r->g.stone_h * 0.5, NULL);
                if (t <= 0)
                    continue;
                size_t o = (size_t)j * r->W + i;
                if (r->hstamp[o] != st || t < r->hdep[o]) {
                    r->hstamp[o] = st;
                    r->hdep[o] = (float)t;
                    r->hid[o] = (int16_t)q;
                }
            }
        }
    }
    for (int j = hb.y0; j < hb.y1; j++)
        for (int i = hb.x0; i < hb.x1; i++) {
            size_t o = (size_t)j * r->W + i;
            if (r->hstamp[o] != st)
                continue;
            double px = i + r->M + sx, py = j + r->M + sy;
            const float *ry = r->ray + ((size_t)(j + r->M + sy) * r->cw + (size_t)(i + r->M + sx)) * 3;
            v3 d = V(ry[0], ry[1], ry[2]);
            double bt = r->hdep[o];
            int q = r->hid[o];
            v3 P = vadd(r->C, vmul(d, bt));
            double col[3];
            if (q >= nc) {
                v3 n;
                v3 c = held[q - nc].c;
                if (ray_ellipsoid(r->C, d, c, r->g.stone_r, r->g.stone_h * 0.5, &n) < 0)
                    n = V(0, 0, 1);
                rnd_stone_t s = { (float)c.x, (float)c.y, (float)(c.z - r->g.stone_h * 0.5),
                                  (uint8_t)held[q - nc].color, 0 };
                shade_stone(r, &s, P, n, d, col);
            } else {
                const capsule_t *c = &cp[q];
                v3 ba = vsub(c->b, c->a);
                double t = clampd(vdot(vsub(P, c->a), ba) / vdot(ba, ba), 0, 1);
                v3 N = vnorm(vsub(P, vadd(c->a, vmul(ba, t))));
                double amb[3], dir[3];
                v3 L;
                irradiance(r, P, N, amb, dir, &L);
                int sleeve = c->mat == 1;
                const double *alb = sleeve ? r->sleeve[c->seat] : r->skin[c->seat];
                double fold = sleeve ? 0.8 + 0.2 * vnoise(P.x * 0.05, P.y * 0.05 + P.z * 0.07, r->nseed + 31)
                                     : 0.93 + 0.07 * vnoise(P.x * 0.12, P.y * 0.12 + P.z * 0.12, r->nseed + 33);
                double tint[3] = { 1, 1, 1 };
                if (c->mat == 2) {
                    tint[0] = 0.93;
                    tint[1] = 0.95;
                    tint[2] = 1.06;
                }
                double sp = 0, rim = 0;
                if (!sleeve) {
                    v3 h = vnorm(vsub(L, d));
                    double x = fmax(vdot(N, h), 0), x2 = x * x, x4 = x2 * x2;
                    sp = x4 * x4 * x4 * 0.08;
                    double e = 1 - fabs(vdot(N, d));
                    rim = e * e * 0.15;
                }
                for (int k = 0; k < 3; k++)
                    col[k] = alb[k] * tint[k] * fold * (amb[k] + dir[k]) + sp * r->lcol[k] +
                             rim * alb[k] * (k == 2 ? 1.0 : 0.6) * r->amb[k];
            }
            double v = vig(r, px, py);
            uint8_t *p = out->data + (size_t)j * out->stride + (size_t)i * 3;
            for (int k = 0; k < 3; k++)
                p[k] = enc(r, col[k] * v);
            if (mask)
                mask[o] = 1;
        }
}

/* ---------------------------------------------------------------- the chessboard */
void rnd_chessboard_corner(const rnd_chessboard_t *cb, int i, int j, double w[3])
{
    double a = (i - (cb->cols - 1) * 0.5) * cb->square, b = (j - (cb->rows - 1) * 0.5) * cb->square;
    for (int c = 0; c < 3; c++)
        w[c] = cb->centre[c] + a * cb->u[c] + b * cb->v[c];
}

static int cb_valid(const rnd_chessboard_t *cb)
{
    if (cb->cols < 2 || cb->cols > 50 || cb->rows < 2 || cb->rows > 50 || !(cb->square > 0) ||
        !(cb->square < 1e4))
        return 0;
    v3 u = V(cb->u[0], cb->u[1], cb->u[2]), v = V(cb->v[0], cb->v[1], cb->v[2]);
    return fabs(vlen(u) - 1) < 1e-6 && fabs(vlen(v) - 1) < 1e-6 && fabs(vdot(u, v)) < 1e-6 &&
           isfinite(cb->centre[0]) && isfinite(cb->centre[1]) && isfinite(cb->centre[2]);
}

int rnd_renderer_set_chessboard(rnd_renderer_t *r, const rnd_chessboard_t *cb)
{
    if (!r)
        return RND_EINVAL;
    if (!cb) {
        r->has_cb = 0;
        return RND_OK;
    }
    if (!cb_valid(cb))
        return RND_EINVAL;
    r->cb = *cb;
    r->has_cb = 1;
    return RND_OK;
}

/* Rotate a about the unit axis k by angle t (Rodrigues). */
static v3 vrot(v3 a, v3 k, double t)
{
    double c = cos(t), s = sin(t);
    return vadd(vadd(vmul(a, c), vmul(vcross(k, a), s)), vmul(k, vdot(k, a) * (1 - c)));
}

int rnd_renderer_chessboard_pose(const rnd_renderer_t *r, int k, int n, int cols, int rows,
                                 double square, rnd_chessboard_t *out)
{
    if (!r || !out || n < 1 || k < 0 || k >= n || cols < 2 || cols > 50 || rows < 2 || rows > 50 ||
        !(square > 0) || !(square < 1e4))
        return RND_EINVAL;
    /* where the pattern's centre appears: the middle, the corners, the edges, between */
    static const double spots[13][2] = {
        { 0, 0 },        { -0.55, -0.5 }, { 0.55, -0.5 }, { 0.55, 0.5 },   { -0.55, 0.5 },
        { 0, -0.55 },    { 0.6, 0 },      { 0, 0.55 },    { -0.6, 0 },     { -0.3, -0.25 },
        { 0.3, 0.25 },   { 0.3, -0.25 },  { -0.3, 0.25 },
    };
    rnd_rng_t rng;
    rnd_rng_seed(&rng, r->o.seed * 7919u + 0xc4e55b0a4dull + (uint64_t)k * 104729u);
    const double *sp = spots[k % 13];
    double tx = sp[0] + rnd_rng_range(&rng, -0.06, 0.06), ty = sp[1] + rnd_rng_range(&rng, -0.06, 0.06);
    /* tilt: about a direction that turns with k, 15-35 degrees; a little roll */
    double tilt = rnd_rng_range(&rng, 15, 35) * M_PI / 180;
    double axis_a = (k * 2.39996) + rnd_rng_range(&rng, -0.3, 0.3);   /* golden angle */
    double roll = rnd_rng_range(&rng, -15, 15) * M_PI / 180;
    double card_w = (cols + 3) * square, card_h = (rows + 3) * square;
    double fill = 0.42;
    for (int it = 0; it < 40; it++) {
        double px = r->M + (r->W - 1) * 0.5 + tx * (r->W - 1) * 0.5;
        double py = r->M + (r->H - 1) * 0.5 + ty * (r->H - 1) * 0.5;
        v3 d = pixel_ray(r, px, py);
        double D = r->f * card_w / (fill * r->W);
        v3 Pc = vadd(r->C, vmul(d, D));
        /* facing the camera, upright as the camera sees it, then tilted and rolled */
        v3 nrm = vmul(d, -1);
        v3 u = vnorm(vsub(r->right, vmul(nrm, vdot(r->right, nrm))));
        v3 v = vcross(nrm, u);
        v3 ax = vnorm(vadd(vmul(u, cos(axis_a)), vmul(v, sin(axis_a))));
        u = vrot(vrot(u, nrm, roll), ax, tilt);
        v = vrot(vrot(v, nrm, roll), ax, tilt);
        out->cols = cols;
        out->rows = rows;
        out->square = square;
        out->centre[0] = Pc.x;
        out->centre[1] = Pc.y;
        out->centre[2] = Pc.z;
        out->u[0] = u.x, out->u[1] = u.y, out->u[2] = u.z;
        out->v[0] = v.x, out->v[1] = v.y, out->v[2] = v.z;
        /* the whole card (margin included) in view, 2% from the edges */
        int inside = 1;
        for (int c = 0; c < 4 && inside; c++) {
            v3 P = vadd(Pc, vadd(vmul(u, ((c & 1) ? 0.5 : -0.5) * card_w),
                                 vmul(v, ((c & 2) ? 0.5 : -0.5) * card_h)));
            double qx, qy;
            inside = !project(r, P, &qx, &qy) && qx - r->M > 0.02 * r->W &&
                     qx - r->M < 0.98 * r->W && qy - r->M > 0.02 * r->H && qy - r->M < 0.98 * r->H;
        }
        if (inside)
            return RND_OK;
        fill *= 0.93;   /* smaller and nearer the middle until it fits */
        tx *= 0.96;
        ty *= 0.96;
    }
    return RND_EINVAL;
}

/* Draw the chessboard over the frame (before exposure and noise): 3x3 samples a pixel.
 * A sample's ray is undone from the lens (pixel -> ideal normalised (x, y), as pixel_ray)
 * and taken to the card's plane by one homography: with d = x right + y down + fwd,
 * the plane point's coordinates along u and v (in squares) are linear in (x, y, 1) over
 * d . nrm, which must be > 0 on the camera's side (t > 0). */
static void draw_chessboard(const rnd_renderer_t *r, int sx, int sy, cvb_image_t *out)
{
    const rnd_chessboard_t *cb = &r->cb;
    v3 c0 = V(cb->centre[0], cb->centre[1], cb->centre[2]);
    v3 u = V(cb->u[0], cb->u[1], cb->u[2]), v = V(cb->v[0], cb->v[1], cb->v[2]);
    v3 nrm = vcross(u, v);
    if (vdot(nrm, vsub(r->C, c0)) < 0)
        nrm = vmul(nrm, -1);
    double hw = (cb->cols + 3) * 0.5, hh = (cb->rows + 3) * 0.5;   /* card, in squares */
    double pw = (cb->cols + 1) * 0.5, ph = (cb->rows + 1) * 0.5;   /* pattern */
    box_t b = { 0, 0, 0, 0 };
    for (int k = 0; k < 4; k++) {
        v3 P = vadd(c0, vadd(vmul(u, ((k & 1) ? hw : -hw) * cb->square), vmul(v, ((k & 2) ? hh : -hh) * cb->square)));
        double px, py;
        if (project(r, P, &px, &py))
            return;     /* behind the camera: not drawn */
        box_add_pt(&b, px - r->M - sx, py - r->M - sy);
    }
    b.x0 -= 2;
    b.y0 -= 2;
    b.x1 += 2;
    b.y1 += 2;
    b = box_clip(b, 0, 0, r->W, r->H);
    /* the homography (x, y, 1) -> (a * den, b * den, den) */
    double kk = vdot(vsub(c0, r->C), nrm);      /* < 0: the camera is on nrm's side */
    double cu = vdot(vsub(r->C, c0), u), cv = vdot(vsub(r->C, c0), v);
    v3 axes[3] = { r->right, r->down, r->fwd };
    double hd[3], ha[3], hb[3];
    for (int i = 0; i < 3; i++) {
        hd[i] = vdot(axes[i], nrm);
        ha[i] = (cu * hd[i] + kk * vdot(axes[i], u)) / cb->square;
        hb[i] = (cv * hd[i] + kk * vdot(axes[i], v)) / cb->square;
    }
    double amb[3], dir[3];
    irradiance(r, c0, nrm, amb, dir, NULL);
    static const double paper[3] = { 0.80, 0.80, 0.78 }, ink = 0.035;
    double lit[3];
    for (int c = 0; c < 3; c++)
        lit[c] = paper[c] * (amb[c] + dir[c]);
    for (int j = b.y0; j < b.y1; j++)
        for (int i = b.x0; i < b.x1; i++) {
            double acc = 0;
            int hits = 0;
            for (int q = 0; q < 9; q++) {
                int qx = q % 3 - 1, qy = q / 3 - 1;    /* the sample's offset, thirds */
                double px = i + r->M + sx + qx / 3.0, py = j + r->M + sy + qy / 3.0;
                double xd = (px - r->cx) / r->f, yd = (py - r->cy) / r->f, r2 = xd * xd + yd * yd;
                double s = 1.0 + r->k1 * r2 + r->k2 * r2 * r2, x = xd * s, y = yd * s;
                double den = hd[0] * x + hd[1] * y + hd[2];
                if (!(den * kk > 0) || fabs(den) < 1e-12)
                    continue;   /* t = kk / den would not be > 0: the plane is behind */
                double a = (ha[0] * x + ha[1] * y + ha[2]) / den, bb = (hb[0] * x + hb[1] * y + hb[2]) / den;
                if (fabs(a) > hw || fabs(bb) > hh)
                    continue;
                hits++;
                int dark = fabs(a) < pw && fabs(bb) < ph &&
                           ((int)floor(a + pw) + (int)floor(bb + ph)) % 2 == 0;
                acc += dark ? ink : 1.0;
            }
            if (!hits)
                continue;
            double cover = hits / 9.0, ref = acc / hits;
            double vg = vig(r, i + r->M + sx, j + r->M + sy);
            uint8_t *p = out->data + (size_t)j * out->stride + (size_t)i * 3;
            for (int c = 0; c < 3; c++) {
                double old = cover < 1 ? pow(p[c] / 255.0, 2.2) : 0;
                p[c] = enc(r, lit[c] * ref * vg * cover + old * (1 - cover));
            }
        }
}

/* ---------------------------------------------------------------- frames */
int rnd_renderer_frame(rnd_renderer_t *r, const rnd_frame_fx_t *fx, const rnd_hand_t *hands,
                       int nhands, cvb_image_t *out, uint8_t *hand_mask)
{
    if (!r || !fx || !out || !out->data || out->w != r->W || out->h != r->H || out->channels != 3 ||
        out->stride < (size_t)r->W * 3 || nhands < 0 || (nhands > 0 && !hands))
        return RND_EINVAL;
    int sx = fx->shake_x, sy = fx->shake_y;
    if (sx < -RND_SHAKE_MAX || sx > RND_SHAKE_MAX || sy < -RND_SHAKE_MAX || sy > RND_SHAKE_MAX)
        return RND_EINVAL;
    for (int j = 0; j < r->H; j++)
        memcpy(out->data + (size_t)j * out->stride,
               r->soft + ((size_t)(j + r->M + sy) * r->cw + (size_t)(r->M + sx)) * 3, (size_t)r->W * 3);
    if (hand_mask)
        memset(hand_mask, 0, (size_t)r->W * r->H);
    if (fx->shadow && fx->shadow_r[0] > 0 && fx->shadow_r[1] > 0) {
        /* a soft shadow (someone passing) over the table plane */
        box_t b = { 0, 0, 0, 0 };
        for (int k = 0; k < 4; k++) {
            double px, py;
            v3 P = V(fx->shadow_xy[0] + ((k & 1) ? 1.3 : -1.3) * fx->shadow_r[0],
                     fx->shadow_xy[1] + ((k & 2) ? 1.3 : -1.3) * fx->shadow_r[1], r->g.top);
            if (!project(r, P, &px, &py))
                box_add_pt(&b, px - r->M - sx, py - r->M - sy);
        }
        b = box_clip(b, 0, 0, r->W, r->H);
        for (int j = b.y0; j < b.y1; j++)
            for (int i = b.x0; i < b.x1; i++) {
                size_t k = (size_t)(j + r->M + sy) * r->cw + (size_t)(i + r->M + sx);
                double ex = (r->hx[k] - fx->shadow_xy[0]) / fx->shadow_r[0];
                double ey = (r->hy[k] - fx->shadow_xy[1]) / fx->shadow_r[1];
                double e = sqrt(ex * ex + ey * ey);
                double s = 1 - smoothstep(0.55, 1.25, e);
                if (s <= 0.001)
                    continue;
                double f = pow(1 - fx->shadow_depth * r->direct[k] * s, 1 / 2.2);
                uint8_t *p = out->data + (size_t)j * out->stride + (size_t)i * 3;
                for (int c = 0; c < 3; c++)
                    p[c] = (uint8_t)(p[c] * f + 0.5);
            }
    }
    if (r->has_cb)
        draw_chessboard(r, sx, sy, out);
    if (nhands > 0)
        draw_hands(r, fx, hands, nhands, out, hand_mask);
    /* auto exposure, white balance drift and sensor noise */
    uint8_t lut[3][256];
    for (int c = 0; c < 3; c++) {
        double g = pow(fx->gain * (fx->wb[c] > 0 ? fx->wb[c] : 1.0), 1 / 2.2);
        for (int v = 0; v < 256; v++) {
            double x = v * g;
            lut[c][v] = (uint8_t)(x > 255 ? 255 : x + 0.5 > 255 ? 255 : x + 0.5);
        }
    }
    const int8_t *nz = r->noise + (size_t)(fx->noise_phase % (NOISE_PAD / 3)) * 3;
    for (int j = 0; j < r->H; j++) {
        uint8_t *p = out->data + (size_t)j * out->stride;
        const int8_t *q = nz + (size_t)j * r->W * 3;
        for (int i = 0; i < r->W * 3; i += 3) {
            int b = lut[0][p[i]] + q[i], g = lut[1][p[i + 1]] + q[i + 1], rr = lut[2][p[i + 2]] + q[i + 2];
            p[i] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
            p[i + 1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
            p[i + 2] = (uint8_t)(rr < 0 ? 0 : rr > 255 ? 255 : rr);
        }
    }
    return RND_OK;
}
