/* record_signal.c: the end-signal watcher (record_signal.h).
 *
 * Invariants: a corner's `confirmed` reading changes only after the same reading held for
 * hold_s seconds and 3 frames; frames where the patch is hidden (a hand: coloured change,
 * or most of it changed) or the reading is unsure neither start nor end a run.
 */
#include "app/record_signal.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "vision/vis_homog.h"

/* Patch beside a seat's lower right corner, for a seat at the record's bottom, in grid
 * units: beyond the right edge (from the board's rim to about 1.5 stones from its side),
 * from a little above the last line to well below it (a
 * stone lies on the table, below the board's surface: seen from above the board it
 * appears shifted toward the camera). */
#define PATCH_X0 0.75
#define PATCH_X1 3.5   /* a stone set down a stone or so apart from the board's side */
#define PATCH_Y0 (-0.9)
#define PATCH_Y1 1.3

static void seat_to_grid(int size, int side, double u, double v, double *x, double *y)
{
    double m = size - 1;
    switch (side & 3) {
    case 0: *x = u; *y = v; break;              /* bottom */
    case 1: *x = v; *y = m - u; break;          /* right */
    case 2: *x = m - u; *y = m - v; break;      /* top */
    default: *x = m - v; *y = u; break;         /* left */
    }
}

/* Set up corner c: the signal corner of a seat on `side` (vis_side_t). */
static void corner_init(rec_corner_t *c, int size, int side, int seat)
{
    memset(c, 0, sizeof *c);
    c->seat = seat;
    c->side = side & 3;
    double cx, cy;
    seat_to_grid(size, side, size - 1, size - 1, &cx, &cy);
    c->cx = (int)(cx + 0.5);
    c->cy = (int)(cy + 0.5);
    for (int j = 0; j < REC_SIG_N; j++)
        for (int i = 0; i < REC_SIG_N; i++) {
            double u = size - 1 + PATCH_X0 + (PATCH_X1 - PATCH_X0) * (i + 0.5) / REC_SIG_N;
            double v = size - 1 + PATCH_Y0 + (PATCH_Y1 - PATCH_Y0) * (j + 0.5) / REC_SIG_N;
            int k = j * REC_SIG_N + i;
            seat_to_grid(size, side, u, v, &c->gx[k], &c->gy[k]);
            int px = (int)lround(c->gx[k]), py = (int)lround(c->gy[k]);
            px = px < 0 ? 0 : px >= size ? size - 1 : px;
            py = py < 0 ? 0 : py >= size ? size - 1 : py;
            double dd = hypot(c->gx[k] - px, c->gy[k] - py);
            c->near_pt[k] = (int16_t)(dd < 1.6 ? py * size + px : -1);
        }
}

void rec_signal_init(rec_signal_t *s, int size, int black_side)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->hold_s = 0.5;
    corner_init(&s->corner[1], size, black_side, 1);
    corner_init(&s->corner[2], size, black_side + 2, 2);
    /* the other diagonal: the seats' corners were the players sitting at the other two
     * sides (a camera beside a player, no calibration) */
    corner_init(&s->other[0], size, black_side + 1, 0);
    corner_init(&s->other[1], size, black_side + 3, 0);
}

/* The image point of grid (x, y), rounded to a pixel; -1 behind the camera. */
static int grid_px(const vis_geom_t *g, double x, double y, int *cx, int *cy)
{
    double px, py;
    if (vis_homog_apply_front(g->H, x, y, &px, &py) || !(fabs(px) < 1e7 && fabs(py) < 1e7))
        return -1;
    *cx = (int)floor(px + 0.5);
    *cy = (int)floor(py + 0.5);
    return 0;
}

/* One sample: the mean of a 3x3 pixel block. */
typedef struct {
    float y;      /* luma; -1 off the image */
    float cb, cr; /* blue - luma, red - luma */
    float sat;    /* (max - min) / max of the mean BGR */
    float span;   /* max - min of the mean BGR */
} px_t;

/* The sample around pixel (cx, cy); y = -1 off the image. */
static px_t sample_px(const cvb_image_t *img, int cx, int cy)
{
    px_t o = { -1, 0, 0, 0, 0 };
    if (cx < 1 || cy < 1 || cx >= img->w - 1 || cy >= img->h - 1)
        return o;
    float bgr[3] = { 0, 0, 0 };
    for (int dy = -1; dy <= 1; dy++) {
        const uint8_t *row = img->data + (size_t)(cy + dy) * img->stride;
        for (int dx = -1; dx <= 1; dx++) {
            const uint8_t *p = row + (size_t)(cx + dx) * (size_t)img->channels;
            for (int k = 0; k < 3; k++)
                bgr[k] += p[img->channels >= 3 ? k : 0];
        }
    }
    for (int k = 0; k < 3; k++)
        bgr[k] /= 9;
    o.y = 0.114f * bgr[0] + 0.587f * bgr[1] + 0.299f * bgr[2];
    o.cb = bgr[0] - o.y;
    o.cr = bgr[2] - o.y;
    float mx = bgr[0], mn = bgr[0];
    for (int k = 1; k < 3; k++) {
        mx = bgr[k] > mx ? bgr[k] : mx;
        mn = bgr[k] < mn ? bgr[k] : mn;
    }
    o.span = mx - mn;
    o.sat = mx > 0 ? (mx - mn) / mx : 0;
    return o;
}

static px_t sample_at(const cvb_image_t *img, const vis_geom_t *g, double x, double y)
{
    int cx, cy;
    px_t none = { -1, 0, 0, 0, 0 };
    return grid_px(g, x, y, &cx, &cy) ? none : sample_px(img, cx, cy);
}

/* A tenth of a cell around a sample, in pixels (1..4): how far the camera's shake (or the
 * grid read a pixel off) moves the table under it. */
static int shift_rad(const rec_corner_t *c, const vis_geom_t *g)
{
    int ax, ay, bx, by, rad = 1;
    if (!grid_px(g, c->gx[0], c->gy[0], &ax, &ay) &&
        !grid_px(g, c->gx[0] + 1, c->gy[0], &bx, &by)) {
        double cell = hypot(bx - ax, by - ay);
        rad = (int)lround(0.1 * cell);
        rad = rad < 1 ? 1 : rad > 4 ? 4 : rad;
    }
    return rad;
}

/* Take sample k's reference look from img (and its range within rad pixels around). */
static void sample_reference(rec_corner_t *c, const cvb_image_t *img, const vis_geom_t *g,
                             int k, int rad)
{
    int px, py;
    px_t p = sample_at(img, g, c->gx[k], c->gy[k]);
    c->ref_y[k] = p.y;
    c->ref_cb[k] = p.cb;
    c->ref_cr[k] = p.cr;
    float lo[3] = { p.y, p.cb, p.cr }, hi[3] = { p.y, p.cb, p.cr };
    if (p.y >= 0 && !grid_px(g, c->gx[k], c->gy[k], &px, &py))
        for (int oy = -rad; oy <= rad; oy += rad)
            for (int ox = -rad; ox <= rad; ox += rad) {
                px_t o = sample_px(img, px + ox, py + oy);
                if (o.y < 0)
                    continue;
                float v[3] = { o.y, o.cb, o.cr };
                for (int i = 0; i < 3; i++) {
                    lo[i] = v[i] < lo[i] ? v[i] : lo[i];
                    hi[i] = v[i] > hi[i] ? v[i] : hi[i];
                }
            }
    for (int i = 0; i < 3; i++) {
        c->ref_lo[i][k] = lo[i];
        c->ref_hi[i][k] = hi[i];
    }
}

static void corner_reference(rec_corner_t *c, const cvb_image_t *img, const vis_geom_t *g)
{
    int rad = shift_rad(c, g);
    for (int k = 0; k < REC_SIG_N * REC_SIG_N; k++) {
        sample_reference(c, img, g, k, rad);
        c->ref_stone[k] = 0;
    }
    c->reading = c->confirmed = REC_SIG_NONE;
    c->frames = 0;
    c->spent = 0;
    c->since = 0;
}

void rec_signal_reference(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g)
{
    for (int seat = 1; seat <= 2; seat++)
        corner_reference(&s->corner[seat], img, g);
    for (int k = 0; k < 2; k++)
        corner_reference(&s->other[k], img, g);
    s->have_ref = 1;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A change of colour (chroma, either way) beyond this counts like one in brightness */
#define CHROMA_TH 16.0f
/* A table at least this bright (median luma): a white stone on it looks darker */
#define BRIGHT_TABLE 150.0f
/* How much more coloured than the table a sample must be to be skin or a sleeve */
#define HAND_CHROMA 6.0f

/* The corner's reading in this frame: rec_sig_t, or -1 when the patch is hidden or the
 * reading unsure. Differences from the reference are taken relative to their median
 * (the table's own change: exposure, light), so only a stone-sized change counts. A
 * sample changed when its brightness or its colour did: a black stone on dark wood is
 * hardly darker than the wood (its sheen), but grey where the wood was brown. */
static int read_corner(const rec_corner_t *c, const cvb_image_t *img, const vis_geom_t *g,
                       const uint8_t *stones)
{
    enum { NS = REC_SIG_N * REC_SIG_N };
    float d[NS], ds[NS], dcb[NS], dcr[NS], ry[NS];
    px_t sp[NS];
    int n = 0, dark = 0, bright = 0, dim = 0, hand = 0;
    float net = 0;   /* the changed samples' change in brightness, summed */
    for (int k = 0; k < NS; k++) {
        d[k] = 0;
        sp[k].y = -1;
        if (c->ref_y[k] < 0)
            continue;
        int q = c->near_pt[k];
        if (q >= 0 && stones && (stones[q] != 0) != c->ref_stone[k])
            continue;
        int px, py;
        if (grid_px(g, c->gx[k], c->gy[k], &px, &py))
            continue;
        sp[k] = sample_px(img, px, py);
        if (sp[k].y < 0)
            continue;
        d[k] = sp[k].y - c->ref_y[k];
        dcb[n] = sp[k].cb - c->ref_cb[k];
        dcr[n] = sp[k].cr - c->ref_cr[k];
        ry[n] = c->ref_y[k];
        ds[n++] = d[k];
    }
    if (n < NS / 4)
        return -1;
    qsort(ds, (size_t)n, sizeof ds[0], cmp_float);
    qsort(dcb, (size_t)n, sizeof dcb[0], cmp_float);
    qsort(dcr, (size_t)n, sizeof dcr[0], cmp_float);
    float med = ds[n / 2], mcb = dcb[n / 2], mcr = dcr[n / 2];
    qsort(ry, (size_t)n, sizeof ry[0], cmp_float);
    float refmed = ry[n / 2];   /* the table's brightness at reference time */
    /* the least change that counts: 12 levels, down to 6 on a plain table (cloth, paper:
     * a white stone on white cloth is only a little darker, in its shading) where the
     * samples hardly change (3.5 times their median deviation) */
    for (int i = 0; i < n; i++)
        ds[i] = fabsf(ds[i] - med);
    qsort(ds, (size_t)n, sizeof ds[0], cmp_float);
    float lth = 3.5f * ds[n / 2];
    lth = lth < 6 ? 6 : lth > 12 ? 12 : lth;
    for (int k = 0; k < NS; k++) {
        if (c->ref_y[k] < 0 || sp[k].y < 0)
            continue;
        float r = c->ref_y[k] + med, dd = d[k] - med;
        float rcb = c->ref_cb[k] + mcb, rcr = c->ref_cr[k] + mcr;
        float dth = 0.4f * r > 35 ? 0.4f * r : 35;
        int chroma = fabsf(sp[k].cb - rcb) > CHROMA_TH || fabsf(sp[k].cr - rcr) > CHROMA_TH;
        if (fabsf(dd) <= lth && !chroma)
            continue;
        /* the camera shaken by a pixel or two (or the board's grid read a pixel off)
         * moves the table's edges (the board's rim, a bowl's shadow) under the samples: a
         * sample whose new look is one its place had within a tenth of a cell around it
         * (the reference's range there) was moved, not changed; a stone on a plain table
         * is not (its look was nowhere around) */
        int moved = sp[k].y >= c->ref_lo[0][k] + med - lth && sp[k].y <= c->ref_hi[0][k] + med + lth &&
                    sp[k].cb >= c->ref_lo[1][k] + mcb - CHROMA_TH &&
                    sp[k].cb <= c->ref_hi[1][k] + mcb + CHROMA_TH &&
                    sp[k].cr >= c->ref_lo[2][k] + mcr - CHROMA_TH &&
                    sp[k].cr <= c->ref_hi[2][k] + mcr + CHROMA_TH;
        if (moved)
            continue;
        /* a changed sample more coloured than the table was: skin or a sleeve, not a
         * stone (a stone's edge blends the table with white or black: as coloured as the
         * table at most, so a white stone on brown wood is not a hand) */
        float more = hypotf(sp[k].cb, sp[k].cr) - hypotf(rcb, rcr);
        if (sp[k].sat > 0.3f && sp[k].span > 30 && sp[k].y > 40 && more > HAND_CHROMA)
            hand++;
        else if (dd < -dth || (chroma && dd < -6))
            dark++; /* much darker, or darker and of another colour: a black stone */
        else if (dd < 0)
            dim++; /* a little darker: a stone's shadow, or a white stone on white cloth */
        else
            bright++; /* brighter: a white stone, or a rim or highlight */
        net += dd;
    }
    double fd = (double)dark / n, fb = (double)(bright + dim) / n;
    if (fd + fb > 0.45 || hand > n / 50)
        return -1;
    if (fd + fb < 0.03)
        return REC_SIG_NONE;
    if (fd + fb < 0.05)
        return -1; /* unsure: neither starts nor ends a run */
    /* a black stone: a solid share of strongly darker samples against the brighter ones
     * (its highlight; its shadow, a little darker, counts for neither: on a plain table
     * a stone's soft shadow changes more samples than the stone); a white one: hardly
     * any (a shadow is not that dark) */
    if (dark >= 3 && dark >= 0.35 * (dark + bright))
        return REC_SIG_BLACK;
    /* a black stone on a dark table (wood): only a little darker than the wood and a
     * little greyer, but darker all over (its highlight is small), while a white stone
     * there is brighter all over; on a bright table (white cloth) a white stone's shading
     * is darker too, so there only strongly darker samples tell a black stone */
    float table = refmed + med;
    return table < BRIGHT_TABLE && net < 0 ? REC_SIG_BLACK : REC_SIG_WHITE;
}

/* One frame's reading into corner c's run; 1 when its confirmed reading changed. */
static int corner_feed(rec_corner_t *c, double hold_s, const cvb_image_t *img, const vis_geom_t *g,
                       const uint8_t *stones, double t)
{
    int r = read_corner(c, img, g, stones);
    if (r < 0)
        return 0;
    if (r != c->reading) {
        c->reading = r;
        c->since = t;
        c->frames = 0;
    }
    c->frames++;
    if (c->reading != c->confirmed && c->frames >= 3 && t - c->since >= hold_s) {
        c->confirmed = c->reading;
        c->confirmed_since = c->since;
        return 1;
    }
    return 0;
}

/* The other diagonal's corners become the seats': other[kb] Black's, the other White's;
 * the seats' corners become the other diagonal (Black's first). */
/* b and w become Black's and White's corners (the seats moved). */
static void seat_corners(rec_signal_t *s, rec_corner_t b, rec_corner_t w)
{
    s->corner[1] = b;
    s->corner[2] = w;
    s->corner[1].seat = 1;
    s->corner[2].seat = 2;
    s->seats_moved = 1;
    s->swaps++;
}

static void swap_seats(rec_signal_t *s, int kb)
{
    rec_corner_t b = s->other[kb], w = s->other[1 - kb];
    s->other[0] = s->corner[1];
    s->other[1] = s->corner[2];
    s->other[0].seat = s->other[1].seat = 0;
    seat_corners(s, b, w);
}

int rec_signal_feed(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                    const uint8_t *stones, int occluder, double t)
{
    if (!s->have_ref || !img || !img->data || !g || occluder)
        return 0;
    int changed = 0;
    for (int seat = 1; seat <= 2; seat++)
        if (corner_feed(&s->corner[seat], s->hold_s, img, g, stones, t))
            changed |= 1 << (seat - 1);
    if (s->seats_known)
        return changed;
    if (s->corner[1].confirmed == REC_SIG_BLACK && s->corner[2].confirmed == REC_SIG_WHITE) {
        /* each his own colour: no double resignation, but the two end signals with the
         * seats the other way round on this diagonal (Black at the white stone) */
        seat_corners(s, s->corner[2], s->corner[1]);
        s->seats_known = 1;
        s->guessed = 0;
        s->swaps++;
        return changed | 3;
    }
    for (int k = 0; k < 2; k++)
        corner_feed(&s->other[k], s->hold_s, img, g, stones, t);
    int o[2];
    for (int k = 0; k < 2; k++) {
        rec_corner_t *c = &s->other[k];
        if (c->spent && c->confirmed != c->spent)
            c->spent = 0;
        o[k] = c->spent ? REC_SIG_NONE : c->confirmed;
    }
    int o0 = o[0], o1 = o[1];
    if (s->corner[1].confirmed != REC_SIG_NONE || s->corner[2].confirmed != REC_SIG_NONE)
        return changed;
    if (o0 != REC_SIG_NONE && o1 != REC_SIG_NONE && o0 != o1) {
        /* both end signals on the other diagonal: the players sit at the other two sides;
         * the white stone lies at Black's corner (the one colour pair that is no double
         * resignation). From now on those are the seats' corners. */
        swap_seats(s, o0 == REC_SIG_WHITE ? 0 : 1);
        s->seats_known = 1;
        s->guessed = 0;
        changed |= 3;
    } else if ((o0 != REC_SIG_NONE) != (o1 != REC_SIG_NONE) && s->to_move) {
        /* one signal there: the side to move's (his end signal comes first, and he
         * resigns on his turn), so he sits at that side */
        int k = o0 != REC_SIG_NONE ? 0 : 1;
        swap_seats(s, s->to_move == 1 ? k : 1 - k);
        s->guessed = 1;
        changed |= 3;
    }
    return changed;
}

void rec_signal_set_turn(rec_signal_t *s, int seat)
{
    s->to_move = seat == 1 || seat == 2 ? seat : 0;
}

int rec_signal_revert(rec_signal_t *s)
{
    if (!s->guessed)
        return 0;
    /* the corners before the swap are the other diagonal's now: other[0] was Black's */
    swap_seats(s, 0);
    for (int k = 0; k < 2; k++)
        s->other[k].spent = s->other[k].confirmed;
    s->guessed = 0;
    s->seats_moved = 0;
    return 1;
}

static void corner_refresh(rec_corner_t *c, const cvb_image_t *img, const vis_geom_t *g,
                           const uint8_t *stones)
{
    if (c->reading != REC_SIG_NONE || c->confirmed != REC_SIG_NONE)
        return;
    int rad = -1;
    for (int k = 0; k < REC_SIG_N * REC_SIG_N; k++) {
        int q = c->near_pt[k];
        if (q < 0 || (stones[q] != 0) == c->ref_stone[k])
            continue;
        if (rad < 0)
            rad = shift_rad(c, g);
        sample_reference(c, img, g, k, rad);
        c->ref_stone[k] = stones[q] != 0;
    }
}

void rec_signal_refresh(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                        const uint8_t *stones)
{
    if (!s->have_ref || !img || !img->data || !g || !stones)
        return;
    for (int seat = 1; seat <= 2; seat++)
        corner_refresh(&s->corner[seat], img, g, stones);
    for (int k = 0; k < 2; k++)
        corner_refresh(&s->other[k], img, g, stones);
}

int rec_signal_get(const rec_signal_t *s, int seat)
{
    return seat == 1 || seat == 2 ? s->corner[seat].confirmed : REC_SIG_NONE;
}

int rec_signal_near(const rec_signal_t *s, int seat, int x, int y, int d)
{
    if (seat != 1 && seat != 2)
        return 0;
    const rec_corner_t *c = &s->corner[seat];
    return abs(x - c->cx) <= d && abs(y - c->cy) <= d;
}

int rec_signal_black_side(const rec_signal_t *s)
{
    return s->corner[1].side;
}
