/* vis_stars.c: a board's printed star points (rules/go_stars.h) found in a picture, and
 * which window of a lattice's lines they say is the board (vis.h, vis_stars_params_t).
 *
 * Why: board finding counts the lines in view, and the reader judges a window of them by
 * the margin beyond the board's edge (vis_window_belief). A picture that cuts the board
 * shows no margin on that side: thirteen columns of a 19x19 in view read as a 13x13, and
 * which of a cut 19x19's columns are in view is a guess. The star points tell: their
 * pattern is the size's and lies where the board's lines are.
 *
 * A point's response (vis_star_responses), measured on the gray picture through the
 * lattice's homography, in board units around the point: the wood (the median of the
 * four corner squares 0.2-0.3 of a cell out each way), the lines (across each arm of the
 * crossing 0.15-0.3 out, the darkest of three samples 0.05 apart, averaged), the dot's
 * ground (four samples 0.05 out diagonally) and the lines' own tails there (0.05 off a line,
 * along the arms). Blur spreads each line's ink into the diagonal samples as into its
 * tails; a dot adds its own:
 *     response = ((wood - diagonal) - 2 (wood - tail)) / (wood - line)
 * about 0 on a plain crossing, about 1 or more on a star point. No response (NAN) where
 * the lines stand less than min_contrast grey levels below the wood (a stone on the point,
 * a board too dark) or a sample falls outside the picture.
 *
 * Invariants: pure functions of their arguments; a response is measured on the picture
 * alone (the reader's call that the point is empty is the caller's to add); a window's
 * count covers only the stars found inside it.
 */
#include "vision/vis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"
#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_stars_defaults(vis_stars_params_t *p)
{
    p->on = 0;
    p->min_response = 0.75f;
    p->min_contrast = 8;
    p->min_hits = 3;
    p->margin = 3;
}

/* gray at board point (x, y) under H, bilinear; 0 when outside the picture. */
static int sample(const cvb_image_t *g, const double H[9], double x, double y, float *out)
{
    double u, v;
    if (vis_homog_apply(H, x, y, &u, &v) || !(u >= 0 && v >= 0 && u <= g->w - 1.001 &&
                                               v <= g->h - 1.001))
        return 0;
    int iu = (int)u, iv = (int)v;
    double tu = u - iu, tv = v - iv;
    const uint8_t *p = g->data + (size_t)iv * g->stride + iu, *q = p + g->stride;
    *out = (float)((p[0] * (1 - tu) + p[1] * tu) * (1 - tv) + (q[0] * (1 - tu) + q[1] * tu) * tv);
    return 1;
}

/* Point (x, y)'s response (the header's), or NAN. */
static float response(const cvb_image_t *g, const double H[9], int x, int y, float min_contrast)
{
    static const double arm[8] = { -0.3, -0.25, -0.2, -0.15, 0.15, 0.2, 0.25, 0.3 };
    static const double corner[3] = { 0.2, 0.25, 0.3 };
    float woods[36], s;
    int n = 0;
    for (int sy = -1; sy <= 1; sy += 2)
        for (int sx = -1; sx <= 1; sx += 2)
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) {
                    if (!sample(g, H, x + sx * corner[i], y + sy * corner[j], &s))
                        return NAN;
                    woods[n++] = s;
                }
    double wood = median_f(woods, 36), line = 0, tail = 0, diag = 0;
    for (int a = 0; a < 8; a++)
        for (int dir = 0; dir < 2; dir++) { /* across the horizontal line, then the vertical */
            float v[3];
            for (int k = 0; k < 3; k++) {
                double along = arm[a], across = 0.05 * (k - 1);
                if (!sample(g, H, x + (dir ? across : along), y + (dir ? along : across), &v[k]))
                    return NAN;
            }
            float lo = v[0] < v[1] ? v[0] : v[1];
            line += lo < v[2] ? lo : v[2];
            tail += v[0] + v[2];
        }
    line /= 16;
    tail /= 32;
    for (int sy = -1; sy <= 1; sy += 2)
        for (int sx = -1; sx <= 1; sx += 2) {
            if (!sample(g, H, x + 0.05 * sx, y + 0.05 * sy, &s))
                return NAN;
            diag += s;
        }
    diag /= 4;
    double contrast = wood - line;
    if (contrast <= min_contrast)
        return NAN;
    return (float)(((wood - diag) - 2 * (wood - tail)) / contrast);
}

int vis_star_responses(const cvb_image_t *gray, const vis_geom_t *g, float min_contrast,
                       float *resp)
{
    if (!gray || !gray->data || gray->channels != 1 || !g || !resp || g->size < 2 ||
        g->size > VIS_MAX_LATTICE)
        return VIS_EINVAL;
    for (int y = 0; y < g->size; y++)
        for (int x = 0; x < g->size; x++)
            resp[y * g->size + x] = response(gray, g->H, x, y, min_contrast);
    return VIS_OK;
}

void vis_star_window(const uint8_t *found, int E, int S, int ox, int oy, int *hits, int *misses)
{
    *hits = *misses = 0;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int X = ox + x, Y = oy + y;
            if (X < 0 || Y < 0 || X >= E || Y >= E || !found[Y * E + X])
                continue;
            if (go_is_star(S, x, y))
                (*hits)++;
            else
                (*misses)++;
        }
}
