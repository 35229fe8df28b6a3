/* vis_stones.c: the stone finder (vis.h, vis_finder_t and vis_stones_params_t): a second
 * small network over the same board view as the point reader finds the stones themselves,
 * each a peak of a heat map at its centre, wherever it lies; the stones found are placed on
 * points, each on one, and give the points' colours.
 *
 * Why beside the reader: the reader reads each point from its own block of the view, so a
 * stone lying between two points (a crowded real board, a stone nudged) is read on both,
 * on neither or on the wrong one, and a point the picture's edge cuts is unknown. The
 * finder learns the Roboflow boxes' centres (train/stone_centres.py): one peak a stone,
 * wherever it lies, counted once.
 *
 * The model's contract: the input is vis_net_view's view (VIS_NET_CELL_PX pixels a point,
 * VIS_NET_MARGIN points of margin) as a 1 x 3 x side x side blob of B, G, R / 255; the
 * output is 1 x 2 x side/VIS_FINDER_HEAT_PX x side/VIS_FINDER_HEAT_PX logits, black then
 * white, of "a stone's centre lies in this pixel". Inference runs in OpenCV's dnn module
 * (cv_bridge.h), never here; the runs over the view's symmetries are vis_ensemble.c's,
 * shared with the point reader.
 * Invariants: a vis_finder_t is immutable but for its dnn state, which one mutex guards;
 * the built-in finder is made once (pthread_once) and lives as long as the process; a
 * stone found lies within half a line of the board's edge lines and is placed on at most
 * one point, a point holds at most one stone; vis_stones_answer changes only the points
 * its answers names (VIS_STONES_ALL: every point not covered by a hand, and those whose
 * stone the picture's edge cuts; with cut_by_reader, a stone the reader reads surely where
 * the picture's edge cuts it and the finder finds none only in its confidence), and every
 * point it changes is read at conf_given, under VIS_SURE_CONF: where the finder and the
 * reader disagree, the photo asks.
 */
#include "vision/vis.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis_internal.h"
#include "vision/vis_model.h"

_Static_assert(VIS_FINDER_MAX_NETS <= VIS_ENSEMBLE_MAX, "an ensemble holds at most VIS_ENSEMBLE_MAX");

struct vis_finder {
    vis_ensemble_t e; /* an ensemble: heat maps averaged */
};

void vis_stones_defaults(vis_stones_params_t *p)
{
    p->on = 0;
    p->min_score = 0.4f;
    p->reach = 0.75;
    p->apart = 0.5;
    p->symmetries = 1;
    p->sure_empty_min = 0;
    p->crowd_black = 0.85;
    p->black_by_reader = 1;
    p->make_room = 1;
    p->conf_given = 0.5f;
    p->answers = VIS_STONES_ALL;
    p->cut_by_reader = 1;
    p->finder = NULL;
}

int vis_finder_from_memory(const uint8_t *buf, size_t len, vis_finder_t **out)
{
    if (!buf || !len || !out)
        return VIS_EINVAL;
    vis_finder_t *f = calloc(1, sizeof *f);
    if (!f)
        return VIS_ENOMEM;
    int rc = vis_ensemble_init(&f->e, buf, len);
    if (rc) {
        free(f);
        return rc;
    }
    *out = f;
    return VIS_OK;
}

int vis_finder_load(const char *path, vis_finder_t **out)
{
    if (!path || !out)
        return VIS_EINVAL;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = vis_read_model_file(path, &buf, &len);
    if (!rc)
        rc = vis_finder_from_memory(buf, len, out);
    free(buf);
    return rc;
}

int vis_finder_add(vis_finder_t *f, vis_finder_t *member)
{
    if (!f || !member)
        return VIS_EINVAL;
    int rc = vis_ensemble_add(&f->e, &member->e, VIS_FINDER_MAX_NETS);
    if (!rc)
        vis_finder_destroy(member);
    return rc;
}

void vis_finder_destroy(vis_finder_t *f)
{
    if (!f || f->e.shared)
        return;
    vis_ensemble_fini(&f->e);
    free(f);
}

static vis_finder_t *builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
    if (vis_finder_from_memory(vis_model_centres, vis_model_centres_len, &builtin))
        builtin = NULL;
    else
        builtin->e.shared = 1;
}

vis_finder_t *vis_finder_builtin(void)
{
    pthread_once(&builtin_once, builtin_init);
    return builtin;
}

/* Where the parabola through (-1, a), (0, b), (1, c) peaks, b the largest: -0.5..0.5. */
static double parabola_peak(double a, double b, double c)
{
    double d = a - 2 * b + c;
    if (d >= 0)
        return 0;
    double t = 0.5 * (a - c) / d;
    return t < -0.5 ? -0.5 : t > 0.5 ? 0.5 : t;
}

/* The runs' probabilities summed per heat pixel (vis_finder_find's each). */
typedef struct {
    int H;       /* the heat map's side */
    float share; /* one run's part of the mean */
    float *prob; /* black then white, H x H each */
} heat_acc_t;

static void heat_each(void *ctx, int sy, const float *logit)
{
    heat_acc_t *a = ctx;
    int H = a->H;
    size_t plane = (size_t)H * H;
    /* the output's pixel (i, j) is the view's heat pixel vis_sym_src(i, j): the view's
     * side is H heat pixels of VIS_FINDER_HEAT_PX exactly */
    for (int col = 0; col < 2; col++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < H; i++) {
                int si, sj;
                vis_sym_src(sy, H, i, j, &si, &sj);
                float v = logit[(size_t)col * plane + (size_t)j * H + i];
                a->prob[(size_t)col * plane + (size_t)sj * H + si] += a->share / (1.0f + expf(-v));
            }
}

int vis_finder_find(vis_finder_t *f, const cvb_image_t *view, int size, int nsym, float min_score,
                    vis_stone_t *out, int cap, int *n)
{
    int O = size + 2 * VIS_NET_MARGIN, side = O * VIS_NET_CELL_PX, H = side / VIS_FINDER_HEAT_PX;
    if (!f || !view || !view->data || view->channels != 3 || view->w != side || view->h != side ||
        size < 2 || size > VIS_MAX_SIZE || nsym < 1 || nsym > 8 || !out || cap < 0 || !n)
        return VIS_EINVAL;
    size_t plane = (size_t)H * H;
    heat_acc_t a = { H, 1.0f / (float)(nsym * f->e.n), calloc(2 * plane, sizeof(float)) };
    float *prob = a.prob; /* the mean over the runs */
    int rc = prob ? vis_ensemble_runs(&f->e, view, 0, nsym, 2, H, H, heat_each, &a) : VIS_ENOMEM;
    if (rc) {
        free(prob);
        return rc;
    }
    /* heat pixel (i, j) covers view pixels [R i, R i + R); its centre is view pixel
     * R i + (R - 1) / 2, board coordinate (i + 0.5) R / cell - margin - 0.5 */
    const double k = (double)VIS_FINDER_HEAT_PX / VIS_NET_CELL_PX;
    int m = 0;
    for (int col = 0; col < 2; col++) {
        const float *h = prob + (size_t)col * plane;
        for (int j = 1; j < H - 1; j++)
            for (int i = 1; i < H - 1; i++) {
                float v = h[(size_t)j * H + i];
                if (v <= min_score)
                    continue;
                int peak = 1; /* a local maximum of its 3 x 3 (the first of equals) */
                for (int dj = -1; dj <= 1 && peak; dj++)
                    for (int di = -1; di <= 1; di++) {
                        float w = h[(size_t)(j + dj) * H + i + di];
                        if (w > v || (w == v && (dj < 0 || (dj == 0 && di < 0)))) {
                            peak = 0;
                            break;
                        }
                    }
                double bx = (i + 0.5) * k - VIS_NET_MARGIN - 0.5;
                double by = (j + 0.5) * k - VIS_NET_MARGIN - 0.5;
                if (!peak || bx < -0.5 || by < -0.5 || bx > size - 0.5 || by > size - 0.5)
                    continue;
                if (m < cap) { /* the peak's centre within its pixel: a parabola each way */
                    out[m].x = (float)(bx + k * parabola_peak(h[(size_t)j * H + i - 1], v,
                                                              h[(size_t)j * H + i + 1]));
                    out[m].y = (float)(by + k * parabola_peak(h[(size_t)(j - 1) * H + i], v,
                                                              h[(size_t)(j + 1) * H + i]));
                    out[m].score = v;
                    out[m].color = (uint8_t)(col ? GO_WHITE : GO_BLACK);
                }
                m++;
            }
    }
    free(prob);
    *n = m < cap ? m : cap;
    return m <= cap ? VIS_OK : VIS_EINVAL;
}

static int by_score(const void *a, const void *b)
{
    float x = ((const vis_stone_t *)a)->score, y = ((const vis_stone_t *)b)->score;
    return (x < y) - (x > y);
}

/* The points within reach of one stone, nearest first, and their squared distances. */
typedef struct {
    int n;
    int q[16];
    float d2[16];
} reach_t;

static void reach_of(const vis_stone_t *st, int S, double reach, reach_t *r)
{
    int bx = (int)floor(st->x), by = (int)floor(st->y);
    r->n = 0;
    for (int y = by - 1; y <= by + 2; y++)
        for (int x = bx - 1; x <= bx + 2; x++) {
            float dd = (float)((x - st->x) * (x - st->x) + (y - st->y) * (y - st->y));
            if (x < 0 || y < 0 || x >= S || y >= S || dd >= reach * reach)
                continue;
            int j = r->n++; /* insertion by distance */
            for (; j > 0 && r->d2[j - 1] > dd; j--) {
                r->d2[j] = r->d2[j - 1];
                r->q[j] = r->q[j - 1];
            }
            r->d2[j] = dd;
            r->q[j] = y * S + x;
        }
}

/* What moving a placed stone costs beside its squared distances (cells squared): a tie
 * between a free point and a chain of moves goes to the free point. */
#define MOVE_COST 1e-3f

/* Stone i placed by the cheapest augmenting path (min-cost matching, successive shortest
 * paths; the cost a squared distance): onto a free point within its reach, or onto one
 * whose stone moves to another point of its own reach, and so on to a free point, when
 * that costs less in all. owner[k]: point k's stone, -1 none; rs[]: each stone's reach.
 * The stones placed before stay placed. Returns 1 when placed. */
static int place_stone(const reach_t *rs, int S, int *owner, int i)
{
    float dist[VIS_MAX_POINTS];
    int prev[VIS_MAX_POINTS], queue[VIS_MAX_POINTS];
    uint8_t inq[VIS_MAX_POINTS];
    int N = S * S, head = 0, len = 0;
    for (int k = 0; k < N; k++) {
        dist[k] = INFINITY;
        prev[k] = -1; /* -1: from stone i itself */
        inq[k] = 0;
    }
    for (int j = 0; j < rs[i].n; j++) {
        int q = rs[i].q[j];
        dist[q] = rs[i].d2[j];
        queue[(head + len++) % N] = q;
        inq[q] = 1;
    }
    /* Bellman-Ford by queue: moving stone o from q to q' costs d2(o, q') - d2(o, q) and
     * MOVE_COST; the matching so far is the cheapest of its size, so no cycle costs less
     * than nothing */
    for (int steps = 0; len > 0 && steps < 64 * N; steps++) {
        int q = queue[head];
        head = (head + 1) % N;
        len--;
        inq[q] = 0;
        int o = owner[q];
        if (o < 0)
            continue;
        float here = 0;
        for (int j = 0; j < rs[o].n; j++)
            if (rs[o].q[j] == q)
                here = rs[o].d2[j];
        for (int j = 0; j < rs[o].n; j++) {
            int q2 = rs[o].q[j];
            float nd = dist[q] + rs[o].d2[j] - here + MOVE_COST;
            if (q2 == q || nd >= dist[q2] - 1e-6f)
                continue;
            dist[q2] = nd;
            prev[q2] = q;
            if (!inq[q2]) {
                queue[(head + len++) % N] = q2;
                inq[q2] = 1;
            }
        }
    }
    int best = -1;
    for (int k = 0; k < N; k++)
        if (owner[k] < 0 && dist[k] < INFINITY && (best < 0 || dist[k] < dist[best]))
            best = k;
    if (best < 0)
        return 0;
    int n = 0; /* the path back from the free point, queue[] reused: checked whole first */
    for (int q = best; q >= 0 && n < N; q = prev[q])
        queue[n++] = q;
    if (prev[queue[n - 1]] >= 0)
        return 0; /* not reached (the path is a tree's): nothing moved */
    for (int j = 0; j + 1 < n; j++) /* each stone on the path one point on */
        owner[queue[j]] = owner[queue[j + 1]];
    owner[queue[n - 1]] = i;
    return 1;
}

int vis_stones_place(const vis_stones_params_t *p, const vis_stone_t *stones, int n, int size,
                     uint8_t *color, float *score, float (*at)[2])
{
    if (!p || (!stones && n) || n < 0 || size < 2 || size > VIS_MAX_SIZE || !color || !score)
        return VIS_EINVAL;
    vis_stone_t *s = malloc(((size_t)n + 1) * sizeof *s);
    reach_t *rs = malloc(((size_t)n + 1) * sizeof *rs);
    if (!s || !rs) {
        free(s);
        free(rs);
        return VIS_ENOMEM;
    }
    if (n)
        memcpy(s, stones, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, by_score);
    int owner[VIS_MAX_POINTS];
    for (int k = 0; k < size * size; k++)
        owner[k] = -1;
    for (int i = 0; i < n; i++) { /* the surest first */
        /* no two stones' centres lie nearer than a stone's width: a peak within apart
         * of a surer stone kept is that stone's (its peak of the other colour) */
        int same = 0;
        for (int j = 0; j < i && !same; j++)
            same = s[j].score >= 0 && hypot(s[j].x - s[i].x, s[j].y - s[i].y) < p->apart;
        if (same) {
            s[i].score = -1; /* suppresses nothing itself */
            rs[i].n = 0;
            continue;
        }
        reach_of(&s[i], size, p->reach, &rs[i]);
        if (p->make_room) {
            place_stone(rs, size, owner, i); /* none within reach: a peak not placed */
            continue;
        }
        for (int j = 0; j < rs[i].n; j++) /* the nearest free point */
            if (owner[rs[i].q[j]] < 0) {
                owner[rs[i].q[j]] = i;
                break;
            }
    }
    memset(color, GO_EMPTY, (size_t)size * size);
    int placed = 0;
    for (int k = 0; k < size * size; k++) {
        score[k] = 0;
        if (owner[k] < 0)
            continue;
        color[k] = s[owner[k]].color;
        score[k] = s[owner[k]].score;
        if (at) {
            at[k][0] = s[owner[k]].x;
            at[k][1] = s[owner[k]].y;
        }
        placed++;
    }
    free(rs);
    free(s);
    return placed;
}

/* 1 when a stone placed on another point than k within two lines of it (col, at:
 * vis_stones_place's), of colour c (GO_EMPTY: either), has its centre nearer than d cells
 * to (cx, cy) in board units: to k's own stone, a stone crowding it (crowd_black); to
 * point k, a stone the reader may have seen there (black_by_reader). */
static int stone_near(const uint8_t *col, float (*at)[2], int S, int k, uint8_t c, double cx,
                      double cy, double d)
{
    int x0 = k % S, y0 = k / S;
    for (int y = y0 - 2; y <= y0 + 2; y++)
        for (int x = x0 - 2; x <= x0 + 2; x++) {
            int j = y * S + x;
            if (x < 0 || y < 0 || x >= S || y >= S || j == k || col[j] == GO_EMPTY ||
                (c != GO_EMPTY && col[j] != c))
                continue;
            if (hypot(at[j][0] - cx, at[j][1] - cy) < d)
                return 1;
        }
    return 0;
}

int vis_stones_answer(const vis_stones_params_t *p, const cvb_image_t *img, const vis_geom_t *geom,
                      const uint8_t *cut, vis_snapshot_t *snap)
{
    if (p && !p->on)
        return 0;
    if (!p || !img || !geom || !snap || snap->size != geom->size)
        return VIS_EINVAL;
    vis_finder_t *f = p->finder ? p->finder : vis_finder_builtin();
    if (!f)
        return VIS_EMODEL;
    int S = geom->size;
    cvb_image_t view = { 0 };
    int rc = vis_net_view(img, geom, &view);
    enum { CAP = 4 * VIS_MAX_POINTS };
    vis_stone_t *st = rc ? NULL : malloc(CAP * sizeof *st);
    if (!rc && !st)
        rc = VIS_ENOMEM;
    int n = 0;
    if (!rc)
        rc = vis_finder_find(f, &view, S, p->symmetries, p->min_score, st, CAP, &n);
    cvb_image_free(&view);
    for (int i = 0; !rc && i < n; i++)
        VTRACE("finder: %s %.2f at (%.2f, %.2f)\n", st[i].color == GO_BLACK ? "black" : "white",
               st[i].score, st[i].x, st[i].y);
    uint8_t col[VIS_MAX_POINTS];
    float sc[VIS_MAX_POINTS], at[VIS_MAX_POINTS][2] = { { 0 } };
    memset(col, GO_EMPTY, sizeof col);
    if (!rc)
        rc = vis_stones_place(p, st, n, S, col, sc, at);
    free(st);
    if (rc < 0)
        return rc;
    int changed = 0;
    for (int k = 0; k < S * S; k++) {
        int unsure = vis_point_unsure(snap, k), kx = k % S, ky = k / S;
        int asked = snap->occluded[k] ? cut && cut[k] && p->answers >= VIS_STONES_CUT
                  : p->answers == VIS_STONES_ALL || unsure;
        if (!asked)
            continue; /* the reader's sure calls stand; covered points stay covered */
        /* a sure stone of the reader's where the finder places none stays, asked about: on
         * a point the picture's edge cuts (cut_by_reader), or black with no black stone of
         * the finder's within reach of the point (black_by_reader) */
        if (!unsure && !snap->occluded[k] && snap->color[k] != GO_EMPTY && col[k] == GO_EMPTY &&
            ((p->cut_by_reader &&
              !vis_in_picture(img, geom->px[k], geom->py[k], geom->radius[k])) ||
             (p->black_by_reader && snap->color[k] == GO_BLACK &&
              !stone_near(col, at, S, k, GO_BLACK, kx, ky, p->reach)))) {
            snap->conf[k] = p->conf_given;
            changed++;
            continue;
        }
        if (!unsure && snap->color[k] == GO_EMPTY && col[k] != GO_EMPTY &&
            sc[k] < p->sure_empty_min)
            continue; /* a point the reader is sure is empty takes only a sure stone */
        if (!unsure && snap->color[k] == GO_EMPTY && col[k] == GO_BLACK && p->crowd_black > 0 &&
            stone_near(col, at, S, k, GO_EMPTY, at[k][0], at[k][1], p->crowd_black))
            continue; /* ... nor a black stone crowding another: a shadow beside it */
        if (snap->occluded[k] || snap->color[k] != col[k]) {
            snap->color[k] = col[k];
            snap->conf[k] = p->conf_given;
            snap->occluded[k] = 0;
            changed++;
        }
    }
    return changed;
}
