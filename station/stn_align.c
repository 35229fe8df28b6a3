/* stn_align.c: a board found again checked against the game (see stn_align.h).
 *
 * Invariant: a transform is a symmetry of the square (sym) followed by a shift; its map
 * and its affine matrix agree (stn_align_affine is derived from stn_align_map's formula).
 */
#include "station/stn_align.h"

#include <string.h>

/* (x, y) under symmetry sym on a size-S board, before the shift. */
static void aln_sym(int sym, int S, int x, int y, int *ox, int *oy)
{
    int n = S - 1;
    for (int r = 0; r < (sym & 3); r++) {
        int t = x;
        x = n - y;
        y = t;
    }
    if (sym & 4)
        x = n - x;
    *ox = x;
    *oy = y;
}

int stn_align_map(const stn_align_t *a, int size, int x, int y)
{
    int sx, sy;
    aln_sym(a->sym, size, x, y, &sx, &sy);
    sx += a->dx;
    sy += a->dy;
    if (sx < 0 || sy < 0 || sx >= size || sy >= size)
        return -1;
    return sy * size + sx;
}

void stn_align_affine(const stn_align_t *a, int size, double m[6])
{
    int x0, y0, x1, y1, x2, y2;
    aln_sym(a->sym, size, 0, 0, &x0, &y0);
    aln_sym(a->sym, size, 1, 0, &x1, &y1);
    aln_sym(a->sym, size, 0, 1, &x2, &y2);
    m[0] = x1 - x0;
    m[1] = x2 - x0;
    m[2] = x0 + a->dx;
    m[3] = y1 - y0;
    m[4] = y2 - y0;
    m[5] = y0 + a->dy;
}

int stn_align_is_identity(const stn_align_t *a)
{
    return a->sym == 0 && a->dx == 0 && a->dy == 0;
}

void stn_align_snapshot(const stn_align_t *a, const vis_snapshot_t *in, vis_snapshot_t *out)
{
    int S = in->size;
    *out = *in;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int i = y * S + x, j = stn_align_map(a, S, x, y);
            if (j < 0) {
                out->color[i] = GO_EMPTY;
                out->conf[i] = 0.0f;
                out->occluded[i] = 1;
            } else {
                out->color[i] = in->color[j];
                out->conf[i] = in->conf[j];
                out->occluded[i] = in->occluded[j];
            }
        }
}

/* Mismatches of snap against the expected colours exp[] (game coordinates; pend[] marks
 * dead stones not yet taken off, where anything agrees) under a; fills the counts of *a. */
static void aln_score(stn_align_t *a, const uint8_t *exp, const uint8_t *pend,
                      const vis_snapshot_t *snap, float min_conf)
{
    int S = snap->size;
    uint8_t hit[VIS_MAX_POINTS];
    memset(hit, 0, sizeof hit);
    a->seen = a->agree = a->mismatch = a->missing = a->extra = 0;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int i = y * S + x, j = stn_align_map(a, S, x, y);
            if (j < 0) {
                /* a stone of the position off the snapshot's grid: not seen */
                continue;
            }
            hit[j] = 1;
            if (snap->occluded[j] || snap->conf[j] < min_conf)
                continue;
            int s = snap->color[j], e = exp[i];
            if (e != GO_EMPTY)
                a->seen++;
            if (s == e) {
                a->agree += e != GO_EMPTY;
            } else if (!pend[i]) {   /* a dead stone, there or already gone */
                a->mismatch++;
                if (e != GO_EMPTY)
                    a->missing++;   /* gone, or of the other colour */
                else
                    a->extra++;     /* a new stone: a move made while the board was lost */
            }
        }
    /* stones read on points no game point maps to (a shifted grid's extra line) */
    for (int j = 0; j < S * S; j++)
        if (!hit[j] && !snap->occluded[j] && snap->conf[j] >= min_conf &&
            snap->color[j] != GO_EMPTY) {
            a->mismatch++;
            a->extra++;
        }
}

/* Stones of the position gone (or turned) weigh double: new stones may be moves. */
static int aln_cost(const stn_align_t *a)
{
    return 2 * a->missing + a->extra;
}

int stn_align_find(const go_game_t *g, const go_point_t *pending, int npending,
                   const vis_snapshot_t *snap, float min_conf, int max_shift, stn_align_t *out)
{
    if (!g || !snap || !out || (npending > 0 && !pending))
        return GO_EINVAL;
    const go_board_t *b = go_game_board(g);
    int S = b->size;
    if (snap->size != S)
        return GO_EINVAL;
    if (max_shift < 0)
        max_shift = 0;
    if (max_shift > STN_ALIGN_MAX_SHIFT)
        max_shift = STN_ALIGN_MAX_SHIFT;
    uint8_t exp[VIS_MAX_POINTS], pend[VIS_MAX_POINTS];
    memset(pend, 0, sizeof pend);
    int stones = 0;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            exp[y * S + x] = (uint8_t)b->color[GO_PT(x, y)];
            stones += exp[y * S + x] != GO_EMPTY;
        }
    for (int k = 0; k < npending; k++) {
        int p = pending[k];
        int x = GO_X(p), y = GO_Y(p);
        if (x >= 0 && y >= 0 && x < S && y < S)
            pend[y * S + x] = 1;
    }
    stn_align_t best, cur;
    memset(&best, 0, sizeof best);
    memset(&cur, 0, sizeof cur);
    best.mismatch = -1;
    int second = -1;
    /* the identity first, then the other symmetries, then the shifts: the first of equals
     * wins */
    for (int shift = 0; shift <= max_shift; shift++)
        for (int sym = 0; sym < 8; sym++)
            for (int dy = -shift; dy <= shift; dy++)
                for (int dx = -shift; dx <= shift; dx++) {
                    if ((dx < 0 ? -dx : dx) != shift && (dy < 0 ? -dy : dy) != shift)
                        continue;   /* each shift ring once */
                    cur.sym = sym;
                    cur.dx = dx;
                    cur.dy = dy;
                    aln_score(&cur, exp, pend, snap, min_conf);
                    int cost = aln_cost(&cur);
                    if (best.mismatch < 0 || cost < aln_cost(&best)) {
                        if (best.mismatch >= 0)
                            second = best.mismatch;
                        best = cur;
                    } else if (second < 0 || cur.mismatch < second) {
                        second = cur.mismatch;
                    }
                }
    best.stones = stones;
    best.second = second;
    best.tolerance = 3 + stones / 20;
    if (stones == 0) {
        memset(&best, 0, sizeof best);
        best.accept = 1;
        best.second = -1;
        best.tolerance = 3;
    } else {
        /* enough of the position in sight (a hand over the board hides it) */
        best.accept = 2 * best.seen >= stones && best.missing <= best.tolerance &&
                      best.extra <= STN_ALIGN_MAX_EXTRA;
    }
    *out = best;
    return GO_OK;
}
