/* vis_board.c: the per-board model (vis.h): colour statistics of one board's wood, black
 * and white stones, fitted on a good view and refined from later ones, combined with the
 * learned reader's probabilities so that an odd board (blue light, red wood, glass
 * stones) is read by its own colours as well as by what the network learned.
 *
 * Feature of a point: the mean colour of a disc of 0.3 of a cell at the point's centre in
 * the board view (perspective undone), as (log luma, log R/G, log B/G). Per class, a
 * Gaussian (mean, covariance) over the points read with confidence and not covered.
 * Combination: P(c) ~ P_net(c) * N(f; c)^weight over the three colours, the covered and
 * off probabilities kept as they are; a class with too few points is left to the net.
 * Invariants: the model only ever holds fitted classes (n >= VIS_BOARD_MIN_POINTS) with a
 * positive-definite covariance (a floor is added to its diagonal).
 */
#include "vision/vis.h"
#include "vision/vis_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VIS_BOARD_MIN_POINTS 4
#define COV_FLOOR 0.0025 /* (0.05 in log units)^2: the JPEG noise of one disc's mean */

void vis_board_model_init(vis_board_model_t *m)
{
    if (!m)
        return;
    memset(m, 0, sizeof *m);
    m->weight = 0.5;
    m->min_conf = 0.9;
    m->rate = 0.2;
}

void vis_board_view_features(const cvb_image_t *v, int S, float *f)
{
    int P = VIS_NET_CELL_PX, M = VIS_NET_MARGIN, r = (int)(0.3 * P);
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int cx = (x + M) * P + P / 2, cy = (y + M) * P + P / 2;
            double b = 0, g = 0, rr = 0;
            int n = 0;
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) {
                    if (dx * dx + dy * dy > r * r)
                        continue;
                    const uint8_t *p = v->data + (size_t)(cy + dy) * v->stride + (size_t)(cx + dx) * 3;
                    b += p[0];
                    g += p[1];
                    rr += p[2];
                    n++;
                }
            b /= n;
            g /= n;
            rr /= n;
            double fd[3];
            vis_colour_feature(b, g, rr, fd);
            float *o = f + 3 * (y * S + x);
            for (int a = 0; a < 3; a++)
                o[a] = (float)fd[a];
        }
}

int vis_sym3_inv(const double c[6], double inv[6], double *logdet)
{
    double a = c[0], b = c[1], d = c[2], e = c[3], f = c[4], g = c[5];
    double A = e * g - f * f, B = -(b * g - f * d), C = b * f - e * d;
    double det = a * A + b * B + d * C;
    if (!(det > 1e-18))
        return -1;
    inv[0] = A / det;
    inv[1] = B / det;
    inv[2] = C / det;
    inv[3] = (a * g - d * d) / det;
    inv[4] = -(a * f - b * d) / det;
    inv[5] = (a * e - b * b) / det;
    *logdet = log(det);
    return 0;
}

double vis_sym3_quad(const double q[6], const double d[3])
{
    return q[0] * d[0] * d[0] + q[3] * d[1] * d[1] + q[5] * d[2] * d[2] +
           2 * (q[1] * d[0] * d[1] + q[2] * d[0] * d[2] + q[4] * d[1] * d[2]);
}

int vis_board_model_update(vis_board_model_t *m, const vis_reading_t *r, const vis_snapshot_t *snap)
{
    if (!m || !r || !snap || snap->size < 2 || snap->size > VIS_MAX_SIZE || r->size != snap->size)
        return VIS_EINVAL;
    const float *feat = &r->feat[0][0];
    int S = snap->size;
    for (int c = 0; c < 3; c++) {
        double mean[3] = { 0, 0, 0 }, cov[6] = { 0 };
        int n = 0;
        for (int k = 0; k < S * S; k++)
            if (!snap->occluded[k] && snap->color[k] == c && snap->conf[k] >= m->min_conf) {
                for (int a = 0; a < 3; a++)
                    mean[a] += feat[3 * k + a];
                n++;
            }
        if (n < VIS_BOARD_MIN_POINTS)
            continue;
        for (int a = 0; a < 3; a++)
            mean[a] /= n;
        for (int k = 0; k < S * S; k++)
            if (!snap->occluded[k] && snap->color[k] == c && snap->conf[k] >= m->min_conf) {
                double d[3] = { feat[3 * k] - mean[0], feat[3 * k + 1] - mean[1], feat[3 * k + 2] - mean[2] };
                vis_sym3_add_outer(cov, d);
            }
        for (int a = 0; a < 6; a++)
            cov[a] /= n;
        cov[0] += COV_FLOOR;
        cov[3] += COV_FLOOR;
        cov[5] += COV_FLOOR;
        /* the first fit is taken whole; later views move it by rate */
        double w = m->n[c] ? m->rate : 1.0;
        for (int a = 0; a < 3; a++)
            m->mean[c][a] = (1 - w) * m->mean[c][a] + w * mean[a];
        for (int a = 0; a < 6; a++)
            m->cov[c][a] = (1 - w) * m->cov[c][a] + w * cov[a];
        m->n[c] += n;
    }
    return VIS_OK;
}

void vis_board_model_apply(const vis_board_model_t *m, vis_reading_t *r)
{
    if (!m || !r || m->weight <= 0)
        return;
    const float *feat = &r->feat[0][0];
    int size = r->size;
    double inv[3][6], logdet[3];
    int ok[3];
    for (int c = 0; c < 3; c++)
        ok[c] = m->n[c] >= VIS_BOARD_MIN_POINTS && !vis_sym3_inv(m->cov[c], inv[c], &logdet[c]);
    if (!ok[0] && !ok[1] && !ok[2])
        return;
    for (int k = 0; k < size * size; k++) {
        float *p = r->prob[k];
        double ll[3], mx = -1e300, colours = p[0] + p[1] + p[2];
        if (colours <= 0)
            continue;
        for (int c = 0; c < 3; c++) {
            if (!ok[c]) {
                ll[c] = 0;
                continue;
            }
            double d[3] = { feat[3 * k] - m->mean[c][0], feat[3 * k + 1] - m->mean[c][1],
                            feat[3 * k + 2] - m->mean[c][2] };
            ll[c] = -0.5 * (vis_sym3_quad(inv[c], d) + logdet[c]);
            mx = fmax(mx, ll[c]);
        }
        /* a class the model does not know keeps the net's word: its likelihood is the
         * best known one's, so it neither gains nor loses */
        double post[3], sum = 0;
        for (int c = 0; c < 3; c++) {
            double l = ok[c] ? ll[c] : mx;
            post[c] = p[c] * exp(m->weight * (l - mx));
            sum += post[c];
        }
        if (!(sum > 0))
            continue;
        for (int c = 0; c < 3; c++)
            p[c] = (float)(post[c] / sum * colours);
    }
}
