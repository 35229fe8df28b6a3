/* vis_legacy.c: the hand-tuned point classifier that the learned reader replaces (kept
 * only while the two are compared; to be removed). Relative colour rules against the
 * board colour read at the nearby cell centres.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

/* ---- classification ---- */

typedef struct {
    float y;    /* luma 0..255 */
    float s;    /* saturation 0..1 */
    float r, g; /* chromaticity */
    int ok;
} vis_sample_t;

/* Colour features (median luma and saturation, mean chromaticity) of the pixels at
 * board offsets (bx+ox[k], by+oy[k]). */
static vis_sample_t read_disc(const cvb_image_t *img, const double H[9], double bx, double by,
                              const float *ox, const float *oy, int n)
{
    float ys[64], ss[64], rsum = 0, gsum = 0;
    int m = 0;
    vis_sample_t out = { 0, 0, 0, 0, 0 };
    for (int k = 0; k < n && m < 64; k++) {
        double px, py;
        if (vis_homog_apply(H, bx + ox[k], by + oy[k], &px, &py))
            continue;
        int x = (int)lround(px), y = (int)lround(py);
        if (x < 0 || y < 0 || x >= img->w || y >= img->h)
            continue;
        const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * img->channels;
        int B = p[0], G = img->channels == 3 ? p[1] : p[0], R = img->channels == 3 ? p[2] : p[0];
        int mx = B > G ? (B > R ? B : R) : (G > R ? G : R);
        int mn = B < G ? (B < R ? B : R) : (G < R ? G : R);
        int sum = B + G + R;
        ys[m] = (114.0f * B + 587.0f * G + 299.0f * R) / 1000.0f;
        ss[m] = mx > 0 ? (float)(mx - mn) / (float)mx : 0;
        rsum += sum > 0 ? (float)R / (float)sum : 1.0f / 3;
        gsum += sum > 0 ? (float)G / (float)sum : 1.0f / 3;
        m++;
    }
    if (m < n / 3 + 1)
        return out;
    out.y = median_f(ys, m);
    out.s = median_f(ss, m);
    out.r = rsum / m; /* chromaticity: the mean is enough, and cheaper */
    out.g = gsum / m;
    out.ok = 1;
    return out;
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* How many of the four arms of the grid cross at (x, y) are visible as a dark line
 * between lighter sides, 0.3 units from the point: an empty point shows its cross, a
 * stone hides it. */
static int visible_arms(const cvb_image_t *img, const double H[9], int x, int y, int S,
                        int *possible, int *faint)
{
    static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
    int n = 0, np = 0, nf = 0;
    for (int a = 0; a < 4; a++) {
        double bx = x + 0.3 * dx[a], by = y + 0.3 * dy[a];
        if (bx < 0 || by < 0 || bx > S - 1 || by > S - 1)
            continue;
        np++;
        double ox = dy[a] ? 0.14 : 0, oy = dx[a] ? 0.14 : 0;
        double cx, cy, ax, ay, qx, qy, lx, ly;
        if (vis_homog_apply(H, bx, by, &cx, &cy) || vis_homog_apply(H, bx + ox, by + oy, &ax, &ay) ||
            vis_homog_apply(H, bx - ox, by - oy, &qx, &qy) ||
            vis_homog_apply(H, bx + 0.06 * dx[a], by + 0.06 * dy[a], &lx, &ly))
            continue;
        int la = luma3(img, ax, ay), lq = luma3(img, qx, qy);
        /* darkest of 3 positions across, each averaged with neighbours along the line */
        double ux = (ax - cx) * 0.25, uy = (ay - cy) * 0.25, vx = lx - cx, vy = ly - cy;
        int lmin = 255;
        for (int o = -1; o <= 1; o++) {
            int v0 = luma1(img, cx + o * ux, cy + o * uy),
                v1 = luma1(img, cx + o * ux + vx, cy + o * uy + vy),
                v2 = luma1(img, cx + o * ux - vx, cy + o * uy - vy);
            if (v0 < 0 || v1 < 0 || v2 < 0)
                continue;
            int v = (v0 + v1 + v2) / 3;
            if (v < lmin)
                lmin = v;
        }
        if (la < 0 || lq < 0 || lmin == 255)
            continue;
        double side = 0.5 * (la + lq);
        if (abs(la - lq) < 0.2 * side + 4 && lmin < side - (0.07 * side + 3))
            n++;
        /* a faint line: half that dip (the thin far lines of a small picture seen from
         * the side) */
        if (abs(la - lq) < 0.2 * side + 4 && lmin < side - (0.035 * side + 1.5))
            nf++;
    }
    *possible = np;
    *faint = nf;
    return n;
}

int vis_classify_legacy(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                        vis_snapshot_t *snap)
{
    return vis_classify_ex(img, geom, cfg, snap, NULL);
}

int vis_classify_ex(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                    vis_snapshot_t *snap, vis_feat_t *feat)
{
    if (!img || !img->data || !geom || !snap || geom->size < 2 || geom->size > VIS_MAX_SIZE)
        return VIS_EINVAL;
    vis_config_t def;
    if (!cfg) {
        vis_config_defaults(&def);
        cfg = &def;
    }
    int S = geom->size;
    /* disc pattern: a 6x6 lattice (avoiding the grid lines through the centre) clipped to
     * a circle of sample_r grid units */
    float dox[64], doy[64];
    int dn = 0;
    double R = cfg->sample_r;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            double u = (a - 2.5) / 2.5 * R, v = (b - 2.5) / 2.5 * R;
            if (u * u + v * v <= R * R * 1.05) {
                dox[dn] = (float)u;
                doy[dn] = (float)v;
                dn++;
            }
        }
    float cox[9], coy[9];
    int cn = 0;
    for (int a = -1; a <= 1; a++)
        for (int b = -1; b <= 1; b++) {
            cox[cn] = (float)(a * 0.1);
            coy[cn] = (float)(b * 0.1);
            cn++;
        }
    /* board colour at the cell centres (x+.5, y+.5), x, y in -1..S-1 (margins included) */
    int C = S + 1;
    vis_sample_t *cell = calloc((size_t)C * C, sizeof *cell);
    if (!cell)
        return VIS_ENOMEM;
    for (int cy = 0; cy < C; cy++)
        for (int cx = 0; cx < C; cx++)
            cell[cy * C + cx] = read_disc(img, geom->H, cx - 0.5, cy - 0.5, cox, coy, cn);
    /* global board brightness: the upper-middle of the cells (stones can fill half) */
    float all[(VIS_MAX_SIZE + 1) * (VIS_MAX_SIZE + 1)];
    int na = 0;
    for (int k = 0; k < C * C; k++)
        if (cell[k].ok)
            all[na++] = cell[k].y;
    float gboard = na ? median_f(all, na) : 128;
    /* the board's chromaticity: median over the board-bright cells */
    float gr = 1.0f / 3, gg = 1.0f / 3;
    {
        float rr[(VIS_MAX_SIZE + 1) * (VIS_MAX_SIZE + 1)], rg[(VIS_MAX_SIZE + 1) * (VIS_MAX_SIZE + 1)];
        int nr = 0;
        for (int k = 0; k < C * C; k++)
            if (cell[k].ok && cell[k].y > 0.75f * gboard && cell[k].y < 1.4f * gboard) {
                rr[nr] = cell[k].r;
                rg[nr] = cell[k].g;
                nr++;
            }
        if (nr) {
            gr = median_f(rr, nr);
            gg = median_f(rg, nr);
        }
    }
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    s.size = S;
    float rels[VIS_MAX_POINTS], pcmax[VIS_MAX_POINTS], pcrel[VIS_MAX_POINTS];
    uint8_t dark[VIS_MAX_POINTS]; /* read black before the occluder checks */
    uint8_t tinted[VIS_MAX_POINTS]; /* dark in the board's own colour: skin or shadow */
    float psat[VIS_MAX_POINTS], pproj[VIS_MAX_POINTS]; /* saturation, proj (below) */
    uint8_t paleskin[VIS_MAX_POINTS]; /* read white, near the board's colour (below) */
    memset(paleskin, 0, sizeof paleskin);
    memset(dark, 0, sizeof dark);
    memset(tinted, 0, sizeof tinted);
    for (int k = 0; k < S * S; k++) {
        rels[k] = 1;
        psat[k] = 0;
        pproj[k] = 0;
        pcmax[k] = 0;
        pcrel[k] = 1;
    }
    s.frame = snap->frame;
    s.t = snap->t;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int idx = y * S + x;
            /* a stone stands on the board: seen from the side, its body lies above the
             * point in the picture. Shift the disc up by half a stone's height. */
            double sx = x, sy = y;
            if (cfg->stone_h > 0) {
                double px = geom->px[idx], py = geom->py[idx], ax, ay, bx2, by2;
                if (!vis_homog_apply(geom->H, x + 1, y, &ax, &ay) &&
                    !vis_homog_apply(geom->H, x, y + 1, &bx2, &by2)) {
                    double ex = ax - px, ey = ay - py, fx = bx2 - px, fy = by2 - py;
                    /* the more horizontal vector gives the scale, the other the tilt */
                    double s1 = hypot(ex, ey), s2 = hypot(fx, fy);
                    double scale = fabs(ex) > fabs(fx) ? s1 : s2;
                    double vert = fabs(ex) > fabs(fx) ? fabs(fy) : fabs(ey);
                    double r = scale > 0 ? vert / scale : 1;
                    if (r > 1)
                        r = 1;
                    double dz = cfg->stone_h * 0.5 * scale * sqrt(1 - r * r);
                    double qx, qy;
                    if (!vis_homog_apply(geom->Hinv, px, py - dz, &qx, &qy)) {
                        sx = qx;
                        sy = qy;
                    }
                }
            }
            vis_sample_t p = read_disc(img, geom->H, sx, sy, dox, doy, dn);
            /* local board: median of the cells within ~1.6 units that look like board */
            float ly[16], ls[16], lr[16], lg[16];
            int ln = 0;
            for (int dy = -1; dy <= 2; dy++)
                for (int dx = -1; dx <= 2; dx++) {
                    int cx = x + dx, cy = y + dy; /* cell (cx-.5, cy-.5) */
                    if (cx < 0 || cy < 0 || cx >= C || cy >= C)
                        continue;
                    const vis_sample_t *c = &cell[cy * C + cx];
                    /* board-like: brightness and colour (not a sleeve over it) */
                    if (!c->ok || c->y < 0.5f * gboard || c->y > 2.2f * gboard ||
                        hypotf(c->r - gr, c->g - gg) > 0.12f)
                        continue;
                    ly[ln] = c->y;
                    ls[ln] = c->s;
                    lr[ln] = c->r;
                    lg[ln] = c->g;
                    ln++;
                }
            float by = ln ? median_f(ly, ln) : gboard;
            float bs = ln ? median_f(ls, ln) : 0.3f;
            float br = ln ? median_f(lr, ln) : 0.4f;
            float bg = ln ? median_f(lg, ln) : 0.33f;
            if (!p.ok || by < 1) {
                s.occluded[idx] = 1;
                s.conf[idx] = 0;
                continue;
            }
            float rel = p.y / by;
            rels[idx] = rel;
            psat[idx] = p.s;
            float chroma = hypotf(p.r - br, p.g - bg);
            /* the point's chromaticity along the board's from grey (0: grey, 1: the
             * board's own colour), and how far the board is from grey */
            float bnr = br - 1.0f / 3, bng = bg - 1.0f / 3;
            float bneut = hypotf(bnr, bng);
            float proj = bneut > 1e-4f
                ? ((p.r - 1.0f / 3) * bnr + (p.g - 1.0f / 3) * bng) / (bneut * bneut)
                : 0;
            pproj[idx] = bneut > 0.04f ? proj : 0;
            int possible, faint, arms = visible_arms(img, geom->H, x, y, S, &possible, &faint);
            /* the four cells around the point: a stone leaves them showing board, a hand
             * or an arm covers them as it covers the point */
            float cy4 = 0, cr4 = 0, cg4 = 0, cmax = 0, crel = 0, cchroma = 0, cells_rel = 1;
            int c4 = 0, nsim = 0, nsim_out = 0;
            for (int q = 0; q < 4; q++) {
                const vis_sample_t *c = &cell[(y + q / 2) * C + x + q % 2];
                if (!c->ok)
                    continue;
                cy4 += c->y;
                cr4 += c->r;
                cg4 += c->g;
                float d = hypotf(c->r - gr, c->g - gg);
                cmax = d > cmax ? d : cmax;
                c4++;
                /* a cell covered by what covers the point: not the board's colour, but
                 * the point's */
                float cr = p.y / (c->y + 1e-3f);
                if ((hypotf(c->r - br, c->g - bg) > 0.035f || c->y < 0.7f * by ||
                     c->y > 1.35f * by) &&
                    hypotf(c->r - p.r, c->g - p.g) < 0.035f && cr > 0.8f && cr < 1.25f) {
                    nsim++;
                    int cxq = x + q % 2, cyq = y + q / 2;
                    nsim_out += cxq == 0 || cyq == 0 || cxq == C - 1 || cyq == C - 1;
                }
            }
            if (c4) {
                crel = p.y / (cy4 / c4 + 1e-3f);
                cchroma = hypotf(p.r - cr4 / c4, p.g - cg4 / c4);
                cells_rel = cy4 / c4 / gboard;
            }
            pcmax[idx] = cmax;
            pcrel[idx] = cells_rel;
            int hidden = possible - arms; /* arms of the cross a stone would hide */
            if (feat) {
                feat[idx].arms = hidden;
                feat[idx].rel = rel;
                feat[idx].sat = p.s;
                feat[idx].board_sat = bs;
                feat[idx].chroma = chroma;
                feat[idx].crel = crel;
                feat[idx].cchroma = cchroma;
                feat[idx].cells_rel = cells_rel;
                feat[idx].cells_chroma = cmax;
                feat[idx].nsim = nsim + 10 * nsim_out;
                feat[idx].pr = p.r;
                feat[idx].pg = p.g;
                feat[idx].br = br;
                feat[idx].bg = bg;
            }
            if (rel < cfg->black_rel && !(hidden == 0 && rel > 0.8 * cfg->black_rel)) {
                s.color[idx] = VIS_BLACK;
                s.conf[idx] = clampf(0.5f + (float)(cfg->black_rel - rel) * 2.5f, 0.5f, 1);
                dark[idx] = 1;
                /* a black stone leaves the cells around it showing board (measured on
                 * the shared photos: cells at least 0.5 of the board's brightness, the
                 * stone under 0.7 of theirs); dark cells, the point no darker than they
                 * are: a dark sleeve or hand */
                /* ... and it is neutral: a dark point as saturated as the wood, near its
                 * colour, is skin (measured: rendered skin sat 0.42..0.58; no black stone
                 * of the shared photos above sat 0.37 within 0.07 of the board's
                 * chromaticity, none as light as 0.5 of its cells and as saturated as
                 * the board) */
                /* a dark, neutral sleeve: as dark as its four cells, which are neither
                 * board nor the board's gaps between stones (measured on held-out
                 * rendered footage: sleeves crel 0.95..1.08 at cells_rel < 0.2; black
                 * stones leave their cells lighter than they are) */
                /* skin in the light, or the wood in a hand's shadow: a dark point whose
                 * colour lies as far from grey as the board's, the same way (a black
                 * stone is greyer than the wood, or bluish; measured on held-out
                 * rendered footage and the shared photos: no black stone visible whole
                 * beyond 0.7 of the way at 0.3 of the board's brightness) */
                /* (2: it still shows two arms of its cross, as a shadow on the wood
                 * does; a fingertip on a stone hides them) */
                /* (and as saturated as the wood at least, nearly: a shadow keeps the
                 * wood's saturation, skin has more; a black stone, greyer, mixes its own
                 * grey with the wood-coloured light it reflects and is paler. Measured:
                 * the points so read in the vision bench's hand footage sat >= 0.75 of
                 * the board's (97% at 1.0 or more); a still black stone on a steep far edge
                 * (played-out game14, rel 0.29..0.33, proj 0.58..0.80) sat 0.4..0.8 of
                 * it, 98% under 0.75. Lighter than 0.45 of the wood, a stone in a hand's
                 * shade, white ones too, is as pale: still shade, as before) */
                tinted[idx] = bneut > 0.04f && rel > 0.3f && proj > 0.7f &&
                                      (p.s > 0.75f * bs || rel > 0.45f)
                                  ? (arms >= 2 ? 2 : 1)
                                  : 0;
                /* (the cells around it under 0.45 of the board's brightness and not in
                 * its colour are not board at all: no black stone of the shared photos or
                 * rendered footage has them so; a full board seen from the side darkens
                 * the cells between its stones, in the wood's colour) */
                if (tinted[idx] || (c4 >= 3 && cells_rel < 0.45f && cmax > 0.065f) ||
                    (c4 >= 2 && p.s > 0.2f && (cells_rel < 0.3f || (crel > 0.85f && cells_rel < 0.5f))) ||
                    (c4 >= 3 && crel > 0.92f && cells_rel < 0.25f && cmax > 0.045f) ||
                    (chroma < 0.07f && ((p.s > 0.42f && p.s > 1.05f * bs && rel > 0.33f) ||
                                        (c4 >= 2 && crel > 0.5f && p.s > bs)))) {
                    s.color[idx] = VIS_EMPTY;
                    s.occluded[idx] = 1;
                    s.conf[idx] = 0;
                }
            } else if ((rel > cfg->white_rel && (hidden >= 1 || rel > 2.0f)) ||
                       (rel > 1.04f && hidden >= 2 && hidden == possible &&
                        p.s < 0.95f * bs) ||
                       (rel > 1.075f && hidden >= 2 && p.s < (float)cfg->white_sat * bs) ||
                       /* a white stone only a little brighter than the wood but far
                        * greyer (a fifth to a third of its saturation), hiding the cross */
                       (rel > 1.02f && hidden >= 2 && p.s < 0.5f * bs) ||
                       (rel > 1.03f && possible >= 3 && hidden == possible)) {
                /* white: brighter than the board and hiding the grid cross */
                s.color[idx] = VIS_WHITE;
                s.conf[idx] = clampf(0.5f + (float)(rel - 1.04f) * 3.0f + 0.1f * hidden, 0.5f, 1);
                /* ... but a white stone is paler than the wood: something that hides the
                 * cross in the board's own colour and saturation is a hand or an arm
                 * (measured: rendered pale hands sat 0.37..0.5, chroma < 0.02 of the
                 * board; no white stone of the shared photos above sat 0.2 within 0.1
                 * of the board's saturation and 0.035 of its chromaticity, but one lit 2x the board) */
                /* the cells around it not board-coloured, the point the same as they: a
                 * sleeve or an arm covers the point and its cells alike */
                /* (nearer the board's saturation still when its colour is the wood's,
                 * 0.6 of the way from grey: judged below against the board's white
                 * stones, which a yellow light tints the same way) */
                paleskin[idx] = p.s > 0.2f && p.s > bs - 0.115f && chroma < 0.035f &&
                                rel < 1.6f && pproj[idx] > 0.6f;
                int woodlike = p.s > 0.2f && p.s > bs - 0.08f && chroma < 0.035f && rel < 1.5f;
                int sleeve = cmax > 0.06f && cchroma < 0.03f && crel > 0.8f && crel < 1.12f;
                if (woodlike || sleeve) {
                    /* still showing two arms of its cross: the board itself, lit (a
                     * hand hides three or four). In the wood's own colour, its cells
                     * plain board (not a sleeve), two faint arms are enough: skin shows
                     * none. Measured on the 20 played-out rendered games: the second
                     * arm's dip is under 0.022 of its sides at 95% of the pale skin read
                     * so, 0.035..0.08 at the empty points so read in hand-free frames
                     * (a crowded board seen steeply at 640x360: the thin lines between
                     * its stones dip under the full test's 0.085, and the point, lit
                     * against cells its neighbours shade, reads 3-5% brighter than the
                     * wood: a hand in every such frame, so no view accepted) */
                    int shown = woodlike && !sleeve ? faint : arms;
                    s.color[idx] = VIS_EMPTY;
                    s.occluded[idx] = shown < 2;
                    s.conf[idx] = s.occluded[idx] ? 0 : 0.5f;
                }
                /* a finger reaching in over the board's edge: the point in the colour of
                 * both margin cells beyond it, which are not the wood's (a white stone at
                 * the edge leaves its margin showing wood, or the table on one side) */
                if (nsim_out >= 2) {
                    s.color[idx] = VIS_EMPTY;
                    s.occluded[idx] = 1;
                    s.conf[idx] = 0;
                }
            } else {
                s.color[idx] = VIS_EMPTY;
                float m1 = (rel - (float)cfg->black_rel) / 0.2f;
                float m2 = ((float)cfg->white_rel - rel) / 0.05f;
                s.conf[idx] = clampf(0.5f + 0.5f * (m1 < m2 ? m1 : m2), 0.3f, 1);
                /* a white stone in the dim part of an uneven light, no brighter than
                 * the wood around it: grey (under half the board's saturation), hiding
                 * its cross, its cells all plain board (a pale sleeve covers them too) */
                if (hidden >= 3 && rel > 0.7f && bs > 0.15f && p.s < 0.5f * bs &&
                    cmax < 0.05f && nsim == 0 && cchroma > 0.03f) {
                    s.color[idx] = VIS_WHITE;
                    s.conf[idx] = 0.5f;
                }
                /* neither board nor stone: a hand, a sleeve */
                if (chroma > 0.07f && p.s > bs + 0.12f) {
                    s.occluded[idx] = 1;
                    s.conf[idx] = 0;
                }
            }
        }
    free(cell);
    /* a point in the board's own colour, dark, alone (nothing else around it covered):
     * still showing two arms of its cross, the shadow a stone or a hand casts on the
     * wood, an empty point; hiding its cross, a black stone in a warm light or a
     * fingertip resting on one (rendered demo footage: a far-edge black stone, with and
     * without a fingertip on it), unsure (confidence 0): read neither empty (a stone
     * removed) nor a hand over the board (no view accepted while it flickers) */
    for (int k = 0; k < S * S; k++) {
        if (!tinted[k] || !s.occluded[k])
            continue;
        int x = k % S, y = k / S, near = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx, ny = y + dy;
                if ((dx || dy) && nx >= 0 && ny >= 0 && nx < S && ny < S &&
                    s.occluded[ny * S + nx])
                    near = 1;
            }
        if (!near) {
            s.occluded[k] = 0;
            s.color[k] = VIS_EMPTY;
            s.conf[k] = tinted[k] == 2 ? 0.5f : 0.0f;
        }
    }
    /* the shadow a stone casts on its neighbour's point: far lighter than the stone
     * beside it (two real stones side by side differ by 2x at most, glare included) */
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int k = y * S + x;
            if (!dark[k] || rels[k] < 0.2f)
                continue;
            static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
            for (int a = 0; a < 4; a++) {
                int nx = x + dx[a], ny = y + dy[a];
                if (nx < 0 || ny < 0 || nx >= S || ny >= S)
                    continue;
                int q = ny * S + nx;
                if (s.color[q] == VIS_BLACK && rels[q] * 3.0f < rels[k] && !s.occluded[q]) {
                    s.color[k] = VIS_EMPTY;
                    s.conf[k] = 0.5f;
                    s.occluded[k] = 0;
                    break;
                }
            }
        }
    /* a point read white in the board's own colour (0.6 of the way from grey or more),
     * far more saturated than the board's white stones: pale skin lit brighter than the
     * wood (measured on rendered footage: white stones within 0.11 of their board's
     * median saturation in the shared photos, 0.24 rendered; skin 0.26 above it); nearer
     * the board's own saturation, only a little more than its white stones (under a
     * yellow light the white stones of a full board are as saturated and as tinted) */
    {
        float ws[VIS_MAX_POINTS];
        int nw = 0;
        for (int k = 0; k < S * S; k++)
            if (s.color[k] == VIS_WHITE && !s.occluded[k])
                ws[nw++] = psat[k];
        float wmed = nw >= 3 ? median_f(ws, nw) : 0; /* sorts ws */
        float wlow = nw >= 3 ? ws[0] : 0; /* the palest: a big pale hand can make most
                                            * of the white reads */
        for (int k = 0; k < S * S; k++) {
            if (s.color[k] != VIS_WHITE || s.occluded[k])
                continue;
            int far = pproj[k] > 0.6f && (nw >= 3 ? psat[k] > wmed + 0.12f : psat[k] > 0.28f);
            int near = paleskin[k] && (nw < 3 || psat[k] > wlow + 0.06f);
            if (far || near) {
                s.color[k] = VIS_EMPTY;
                s.occluded[k] = 1;
                s.conf[k] = 0;
            }
        }
    }
    /* the shadow a stone casts on its neighbour's point, far lighter than the board's
     * black stones (their median): lit from the side, a white stone's shadow beside it
     * (the black stones of the shared photos and of rendered footage are within 2.2x
     * of their board's median, these shadows 17x and more) */
    {
        float bl[VIS_MAX_POINTS];
        int nb = 0;
        for (int k = 0; k < S * S; k++)
            if (s.color[k] == VIS_BLACK && !s.occluded[k])
                bl[nb++] = rels[k];
        float bmed = nb >= 3 ? median_f(bl, nb) : 1;
        for (int k = 0; nb >= 3 && k < S * S; k++) {
            if (s.color[k] != VIS_BLACK || s.occluded[k] || rels[k] < 3.0f * (bmed + 0.02f))
                continue;
            int x = k % S, y = k / S;
            if ((x > 0 && s.color[k - 1] == VIS_WHITE) || (x < S - 1 && s.color[k + 1] == VIS_WHITE) ||
                (y > 0 && s.color[k - S] == VIS_WHITE) || (y < S - 1 && s.color[k + S] == VIS_WHITE)) {
                s.color[k] = VIS_EMPTY;
                s.conf[k] = 0.5f;
            }
        }
    }
    /* the mask: spread along the arm, grow by the margin, spread again from the grown
     * rim (the arm's stones next to it) */
    for (int pass = 0; pass < 2; pass++) {
        /* an arm is one piece: from the points found covered, a stone next to them whose
         * cells are not board (another colour, or dark) is under the same arm */
        for (int changed = 1; changed;) {
            changed = 0;
            for (int k = 0; k < S * S; k++) {
                if (s.occluded[k] || s.color[k] == VIS_EMPTY || (pcmax[k] < 0.1f && pcrel[k] > 0.45f))
                    continue;
                int x = k % S, y = k / S;
                if ((x > 0 && s.occluded[k - 1]) || (x < S - 1 && s.occluded[k + 1]) ||
                    (y > 0 && s.occluded[k - S]) || (y < S - 1 && s.occluded[k + S])) {
                    s.occluded[k] = 1;
                    s.color[k] = VIS_EMPTY;
                    s.conf[k] = 0;
                    changed = 1;
                }
            }
        }
        if (pass)
            break;
        /* a hand's outline: the points found covered are where the hand is plainly seen; a
         * fingertip or the rim of an arm over a neighbour's centre is not (the truth of the
         * rendered footage: a point is covered when its centre is), so the mask grows by
         * occ_margin rings of points (8-neighbours) */
        /* the size of each 8-connected piece of the mask: a lone point or a pair is a
         * misread (a real photo, no hand) or a fingertip, and does not grow */
        int comp[VIS_MAX_POINTS], csize[VIS_MAX_POINTS], stack[VIS_MAX_POINTS], nc = 0;
        for (int k = 0; k < S * S; k++)
            comp[k] = -1;
        for (int k0 = 0; k0 < S * S; k0++) {
            if (!s.occluded[k0] || comp[k0] >= 0)
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
                        if (nx >= 0 && ny >= 0 && nx < S && ny < S && s.occluded[q] &&
                            comp[q] < 0) {
                            comp[q] = nc;
                            stack[sp++] = q;
                        }
                    }
            }
            csize[nc++] = n;
        }
        for (int ring = 0; ring < cfg->occ_margin && ring < S; ring++) {
            uint8_t grow[VIS_MAX_POINTS];
            memcpy(grow, s.occluded, (size_t)S * S);
            for (int k = 0; k < S * S; k++) {
                if (!s.occluded[k] || (comp[k] >= 0 && csize[comp[k]] < 3))
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
                if (grow[k] && !s.occluded[k]) {
                    s.occluded[k] = 1;
                    s.color[k] = VIS_EMPTY;
                    s.conf[k] = 0;
                }
        }
    }
    for (int k = 0; k < S * S; k++)
        if (s.occluded[k])
            s.occluder = 1;
    *snap = s;
    return VIS_OK;
}


