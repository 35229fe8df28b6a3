/* go_eyes.c: groups without an eye, enclosed by strong opponents (see go_eyes.h).
 *
 * One pass over the position with the dead stones taken off: label the empty regions
 * (size, which colours they reach, whether they hold a point next to no stone) and the
 * chains, join chains into groups (a shared liberty, or the same eye), count per group
 * its eyes and liberties and whether an open border touches it, then judge every eyeless
 * group against the opponent groups around it.
 */
#include "rules/go_eyes.h"

#include <stdint.h>
#include <string.h>

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

typedef struct eyes_ctx {
    uint8_t b[GO_CELLS];      /* the position without the dead stones */
    int16_t reg[GO_CELLS];    /* empty point -> region id, else -1 */
    int16_t ch[GO_CELLS];     /* stone -> chain id, else -1 */
    int16_t parent[GO_CELLS]; /* chain id -> union-find parent (the group) */
    int16_t rrep[GO_CELLS];   /* eye region -> a chain bordering it (-1: none yet) */
    uint8_t rmask[GO_CELLS];  /* colours a region reaches (GO_BLACK | GO_WHITE bits) */
    uint8_t rinner[GO_CELLS]; /* the region holds a point next to no stone */
    uint8_t ccol[GO_CELLS];   /* chain id -> colour */
    /* per group (indexed by the root chain id) */
    int eyes[GO_CELLS], libs[GO_CELLS];
    uint8_t open[GO_CELLS], alive[GO_CELLS], kill[GO_CELLS], judged[GO_CELLS];
    uint8_t big[GO_CELLS];    /* per group: an eye too big to be killed from inside */
    int nreg, nch;
} eyes_ctx_t;

static int find(eyes_ctx_t *e, int a)
{
    while (e->parent[a] != a) {
        e->parent[a] = e->parent[e->parent[a]];
        a = e->parent[a];
    }
    return a;
}

static void unite(eyes_ctx_t *e, int a, int b)
{
    a = find(e, a);
    b = find(e, b);
    if (a != b)
        e->parent[b] = (int16_t)a;
}

static int is_stone(uint8_t v)
{
    return v == GO_BLACK || v == GO_WHITE;
}

/* Flood-fill labels: regions of empty points and chains of stones. A region's inner
 * points are judged on col (dead stones still there: they drew the border). */
static void label(eyes_ctx_t *e, const uint8_t *col, int size)
{
    int stack[GO_CELLS];
    memset(e->reg, 0xff, sizeof e->reg);
    memset(e->ch, 0xff, sizeof e->ch);
    e->nreg = e->nch = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), sp = 0;
            uint8_t c = e->b[p];
            if (c == GO_EMPTY && e->reg[p] < 0) {
                int r = e->nreg++;
                e->rmask[r] = 0;
                e->rinner[r] = 0;
                e->rrep[r] = -1;
                e->reg[p] = (int16_t)r;
                stack[sp++] = p;
                while (sp) {
                    int q = stack[--sp], stones = 0;
                    for (int d = 0; d < 4; d++) {
                        int t = q + dirs[d];
                        stones += is_stone(col[t]);
                        if (e->b[t] == GO_EMPTY && e->reg[t] < 0) {
                            e->reg[t] = (int16_t)r;
                            stack[sp++] = t;
                        } else if (is_stone(e->b[t])) {
                            e->rmask[r] |= e->b[t];
                        }
                    }
                    e->rinner[r] |= stones == 0;
                }
            } else if (is_stone(c) && e->ch[p] < 0) {
                int k = e->nch++;
                e->ccol[k] = c;
                e->parent[k] = (int16_t)k;
                e->ch[p] = (int16_t)k;
                stack[sp++] = p;
                while (sp) {
                    int q = stack[--sp];
                    for (int d = 0; d < 4; d++) {
                        int t = q + dirs[d];
                        if (e->b[t] == c && e->ch[t] < 0) {
                            e->ch[t] = (int16_t)k;
                            stack[sp++] = t;
                        }
                    }
                }
            }
        }
}

/* Groups: chains of one colour sharing a liberty, or bordering the same eye (a region
 * only their colour reaches). */
static void join(eyes_ctx_t *e, int size, int by_liberty)
{
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), first[3] = { -1, -1, -1 }, r = e->reg[p];
            if (r < 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int k = e->ch[p + dirs[d]];
                if (k < 0)
                    continue;
                if (first[e->ccol[k]] < 0)
                    first[e->ccol[k]] = k;
                else if (by_liberty)
                    unite(e, first[e->ccol[k]], k);
                if (e->rmask[r] == e->ccol[k]) {   /* an eye of k's colour */
                    if (e->rrep[r] < 0)
                        e->rrep[r] = (int16_t)k;
                    else
                        unite(e, e->rrep[r], k);
                }
            }
        }
}

/* A true eye of colour c: a region only c reaches; a single point is false when the
 * opponent holds enough of its diagonal points (two in the open, one on the edge). */
static int true_eye(const eyes_ctx_t *e, int size, int r, uint8_t c, int half)
{
    static const int diags[4] = { GO_STRIDE + 1, GO_STRIDE - 1, -GO_STRIDE + 1, -GO_STRIDE - 1 };
    int pt = -1, n = 0, opp = 0, off = 0;
    for (int y = 0; y < size && n < 2; y++)
        for (int x = 0; x < size && n < 2; x++)
            if (e->reg[GO_PT(x, y)] == r) {
                pt = GO_PT(x, y);
                n++;
            }
    if (n != 1)
        return 1;
    for (int d = 0; d < 4; d++) {
        int q = pt + diags[d];
        uint8_t v = e->b[q];
        opp += 2 * (v == GO_OTHER(c));
        off += v == GO_OFF;
        if (half && v == GO_EMPTY) {
            /* an empty diagonal point next to an opponent stone: the opponent may take it */
            int nearopp = 0;
            for (int k = 0; k < 4; k++)
                nearopp |= e->b[q + dirs[k]] == GO_OTHER(c);
            opp += nearopp;
        }
    }
    return opp < (off ? 2 : 4);
}

/* Per group: eyes (true eyes: regions only its colour reaches, not false), liberties (empty points next to
 * it, eye points included), open (next to an open border), alive (holds a stone
 * certainly alive). */
static void measure(eyes_ctx_t *e, int size, const uint8_t *alive)
{
    memset(e->eyes, 0, sizeof e->eyes);
    memset(e->libs, 0, sizeof e->libs);
    memset(e->open, 0, sizeof e->open);
    memset(e->alive, 0, sizeof e->alive);
    for (int r = 0; r < e->nreg; r++)
        if (e->rrep[r] >= 0 && true_eye(e, size, r, e->ccol[e->rrep[r]], GO_EYES_HALF_DIAG))
            e->eyes[find(e, e->rrep[r])]++;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), seen[4], ns = 0, r = e->reg[p];
            if (r < 0) {
                if (alive && alive[p] && e->ch[p] >= 0)
                    e->alive[find(e, e->ch[p])] = 1;
                continue;
            }
            for (int d = 0; d < 4; d++) {
                int k = e->ch[p + dirs[d]], g, dup = 0;
                if (k < 0)
                    continue;
                g = find(e, k);
                for (int i = 0; i < ns; i++)
                    dup |= seen[i] == g;
                if (dup)
                    continue;
                seen[ns++] = g;
                e->libs[g]++;
                if (e->rmask[r] == (GO_BLACK | GO_WHITE) && e->rinner[r])
                    e->open[g] = 1;
            }
        }
}

/* Distances (in steps through the empty points of open regions, 1 next to a stone)
 * from the stones of group g (mine) or from every opponent stone (theirs) into dist. */
static void open_dist(eyes_ctx_t *e, int g, int mine, int16_t *dist)
{
    int queue[GO_CELLS], qh = 0, qt = 0;
    uint8_t c = 0;
    for (int p = 0; p < GO_CELLS; p++)
        if (e->ch[p] >= 0 && find(e, e->ch[p]) == g)
            c = e->ccol[e->ch[p]];
    for (int p = 0; p < GO_CELLS; p++) {
        int k = e->ch[p];
        dist[p] = INT16_MAX;
        if (k >= 0 && (mine ? find(e, k) == g : e->ccol[k] != c)) {
            dist[p] = 0;
            queue[qt++] = p;
        }
    }
    while (qh < qt) {
        int q = queue[qh++];
        for (int d = 0; d < 4; d++) {
            int t = q + dirs[d], r = e->reg[t];
            if (r < 0 || e->rmask[r] != (GO_BLACK | GO_WHITE) || !e->rinner[r]
                || dist[t] != INT16_MAX)
                continue;
            dist[t] = (int16_t)(dist[q] + 1);
            queue[qt++] = t;
        }
    }
}

/* Room for an eye in the open regions next to the eyeless group g: the points of those
 * regions strictly nearer to g than to any opponent stone (the open-border estimate's
 * rule, go_score.h). */
static int open_room(eyes_ctx_t *e, int g)
{
    int16_t dg[GO_CELLS], dopp[GO_CELLS];
    int n = 0;
    open_dist(e, g, 1, dg);
    open_dist(e, g, 0, dopp);
    for (int p = 0; p < GO_CELLS; p++)
        n += e->reg[p] >= 0 && dg[p] < dopp[p];
    return n;
}

/* Is opponent group h strong against the eyeless group g? */
static int strong(const eyes_ctx_t *e, int h, int g)
{
    return e->alive[h] || e->eyes[h] >= 2 || e->libs[h] >= e->libs[g] + GO_EYES_AHEAD
           || (GO_EYES_BIG_BEATS_SMALL && e->eyes[h] >= 1 && e->big[h] && !e->big[g]);
}

/* Is opponent group h (no eye) a single stone, a square four or a bulky five inside the
 * eyeless group g: every stone next to it is g's, every liberty of it next to no chain but
 * g's and h's, and g with more liberties of its own than h has (g captures h before the
 * opponent can fill g's outside liberties down to a seki)? Capturing it leaves g one eye
 * only (a point, or a square-four or bulky-five eye killed by one stone inside), so it
 * does not make g any less enclosed. (Twos and threes inside lost games, and so did a
 * bulky five without the liberty ahead: the players leave those as seki.) */
static int inner_one_eye(eyes_ctx_t *e, int h, int g)
{
    int n = 0, block = 0, bulky, hl = 0, x0 = INT16_MAX, x1 = -1, y0 = INT16_MAX, y1 = -1;
    uint8_t lib[GO_CELLS];
    memset(lib, 0, sizeof lib);
    if (e->eyes[h])
        return 0;
    for (int q = 0; q < GO_CELLS; q++) {
        if (e->ch[q] < 0 || find(e, e->ch[q]) != h)
            continue;
        n++;
        {
            int x = q % GO_STRIDE, y = q / GO_STRIDE;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        if (e->ch[q + 1] >= 0 && e->ch[q + GO_STRIDE] >= 0 && e->ch[q + GO_STRIDE + 1] >= 0
            && find(e, e->ch[q + 1]) == h
            && find(e, e->ch[q + GO_STRIDE]) == h
            && find(e, e->ch[q + GO_STRIDE + 1]) == h)
            block = 1;
        for (int d = 0; d < 4; d++) {
            int t = q + dirs[d], kt = e->ch[t];
            if (kt >= 0) {
                int gt = find(e, kt);
                if (gt != h && gt != g)
                    return 0;
            } else if (e->reg[t] >= 0) {
                hl += !lib[t];
                lib[t] = 1;
                for (int d2 = 0; d2 < 4; d2++) {
                    int u = e->ch[t + dirs[d2]];
                    int gu = u >= 0 ? find(e, u) : -1;
                    if (gu >= 0 && gu != h && gu != g)
                        return 0;
                }
            }
        }
    }
    /* a square four or bulky five: a 2x2 block within a 2x3 box */
    bulky = block && n <= 5 && (x1 - x0 + 1) * (y1 - y0 + 1) <= 6;
    return (n == 1 || bulky) && e->libs[g] - hl > hl;
}

/* Is opponent group h, next to the eyeless group g, no threat to it: strong around it, or
 * (GO_EYES_INNER) the one small group inside it (inner_one_eye; *inner: that group, -1
 * before; a second one would leave g two eyes)? */
static int no_threat(eyes_ctx_t *e, int h, int g, int *inner)
{
    if (strong(e, h, g))
        return 1;
    if (!GO_EYES_INNER || e->eyes[g] || (*inner >= 0 && *inner != h) || !inner_one_eye(e, h, g))
        return 0;
    *inner = h;
    return 1;
}

/* Judge the eyeless group g (its chain k): every opponent group touching it or sharing a
 * liberty with it is strong (or the one small group inside it), and there is at least one. */
static int enclosed(eyes_ctx_t *e, int g, int k)
{
    int around = 0, inner = -1;
    for (int q = 0; q < GO_CELLS; q++) {
        if (e->ch[q] < 0 || find(e, e->ch[q]) != g)
            continue;
        for (int d = 0; d < 4; d++) {
            int t = q + dirs[d], kt = e->ch[t];
            if (kt >= 0 && e->ccol[kt] != e->ccol[k]) {
                if (!no_threat(e, find(e, kt), g, &inner))
                    return 0;
                around++;
            } else if (e->reg[t] >= 0) {
                for (int d2 = 0; d2 < 4; d2++) {
                    int u = e->ch[t + dirs[d2]];
                    if (u >= 0 && e->ccol[u] != e->ccol[k]) {
                        if (!no_threat(e, find(e, u), g, &inner))
                            return 0;
                        around++;
                    }
                }
            }
        }
    }
    return around > 0;
}

int go_eyes_dead(const uint8_t *col, int size, const uint8_t *alive, uint8_t *dead)
{
    eyes_ctx_t ctx, *e = &ctx;
    int marked = 0;
    if (!col || !dead || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    for (int p = 0; p < GO_CELLS; p++)
        e->b[p] = dead[p] && is_stone(col[p]) ? GO_EMPTY : col[p];
    label(e, col, size);
    join(e, size, 1);
    measure(e, size, alive);
    {   /* can the group's eye be killed from inside (every region of its eyes)? */
        int16_t rsz[GO_CELLS], x0[GO_CELLS], x1[GO_CELLS], y0[GO_CELLS], y1[GO_CELLS];
        uint8_t rblock[GO_CELLS];
        memset(rsz, 0, sizeof rsz);
        memset(rblock, 0, sizeof rblock);
        memset(e->big, 0, sizeof e->big);
        for (int r = 0; r < e->nreg; r++) {
            x0[r] = y0[r] = INT16_MAX;
            x1[r] = y1[r] = -1;
        }
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), r = e->reg[p];
                if (r < 0)
                    continue;
                rsz[r]++;
                x0[r] = (int16_t)(x < x0[r] ? x : x0[r]);
                x1[r] = (int16_t)(x > x1[r] ? x : x1[r]);
                y0[r] = (int16_t)(y < y0[r] ? y : y0[r]);
                y1[r] = (int16_t)(y > y1[r] ? y : y1[r]);
                if (e->reg[p + 1] == r && e->reg[p + GO_STRIDE] == r
                    && e->reg[p + GO_STRIDE + 1] == r)
                    rblock[r] = 1;   /* a 2x2 block */
            }
        for (int r = 0; r < e->nreg; r++)
            if (e->rrep[r] >= 0) {
                int box = (x1[r] - x0[r] + 1) * (y1[r] - y0[r] + 1);
                int kill = rsz[r] <= GO_EYES_NAKADE
                           || (GO_EYES_NAKADE_BULKY && rsz[r] <= 5 && rblock[r] && box <= 6);
                if (!kill)
                    e->big[find(e, e->rrep[r])] = 1;
            }
    }
    memset(e->judged, 0, sizeof e->judged);
    memset(e->kill, 0, sizeof e->kill);
    /* each eyeless group once, on the position as it was (not on this pass's calls) */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), k = e->ch[p], g;
            if (k < 0)
                continue;
            g = find(e, k);
            if (e->judged[g])
                continue;
            e->judged[g] = 1;
            if (e->alive[g] || e->libs[g] < GO_EYES_MIN_LIBS)
                continue;
            if (e->eyes[g] && (e->eyes[g] > 1 || e->big[g]))
                continue;
            if (e->open[g] && open_room(e, g) >= GO_EYES_ROOM)
                continue;
            if (enclosed(e, g, k)) {
                e->kill[g] = 1;
                marked++;
            }
        }
    for (int p = 0; p < GO_CELLS; p++)
        if (e->ch[p] >= 0 && e->kill[find(e, e->ch[p])])
            dead[p] = 1;
    return marked;
}

int go_eyes_alive(const uint8_t *col, int size, uint8_t *dead)
{
    eyes_ctx_t ctx, *e = &ctx;
    int revived = 0;
    if (!col || !dead || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    for (int ci = 0; ci < 2; ci++) {
        uint8_t c = ci ? GO_WHITE : GO_BLACK;
        int nchains[GO_CELLS];
        /* c's stones all stand (dead ones included); the opponent's dead ones are off */
        for (int p = 0; p < GO_CELLS; p++)
            e->b[p] = dead[p] && col[p] == GO_OTHER(c) ? GO_EMPTY : col[p];
        label(e, col, size);
        join(e, size, 1);
        memset(e->eyes, 0, sizeof e->eyes);
        memset(e->kill, 0, sizeof e->kill);
        memset(nchains, 0, sizeof nchains);
        for (int r = 0; r < e->nreg; r++)
            if (e->rrep[r] >= 0 && e->ccol[e->rrep[r]] == c && true_eye(e, size, r, c, 0))
                e->eyes[find(e, e->rrep[r])]++;
        for (int k = 0; k < e->nch; k++)
            nchains[find(e, k)]++;
        for (int p = 0; p < GO_CELLS; p++)   /* groups holding a dead stone */
            if (e->ch[p] >= 0 && e->ccol[e->ch[p]] == c && dead[p])
                e->kill[find(e, e->ch[p])] = 1;
        /* three eyes, or two held by a group of few chains (the more chains, the more
         * cutting points that can leave an eye false) */
        for (int p = 0; p < GO_CELLS; p++) {
            int g = e->ch[p] >= 0 ? find(e, e->ch[p]) : -1;
            if (g >= 0 && e->kill[g] && dead[p]
                && (e->eyes[g] >= 3 || (e->eyes[g] == 2 && nchains[g] <= GO_EYES_TWO_CHAINS))) {
                dead[p] = 0;
                revived++;
            }
        }
    }
    return revived;
}

int go_eyes_nakade_seki(const uint8_t *col, int size, const uint8_t *alive, uint8_t *dead)
{
    eyes_ctx_t ctx, *e = &ctx;
    int nst[GO_CELLS], nlib[GO_CELLS], marked = 0;
    int16_t nb[GO_CELLS];     /* chain -> its one opponent neighbour chain; -1 none, -2 several */
    uint8_t strongc[GO_CELLS], kill[GO_CELLS];
    if (!col || !dead || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    for (int p = 0; p < GO_CELLS; p++)
        e->b[p] = dead[p] && is_stone(col[p]) ? GO_EMPTY : col[p];
    label(e, col, size);
    memset(nst, 0, sizeof nst);
    memset(nlib, 0, sizeof nlib);
    memset(strongc, 0, sizeof strongc);
    memset(kill, 0, sizeof kill);
    for (int k = 0; k < e->nch; k++)
        nb[k] = -1;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), k = e->ch[p], seen[4], ns = 0;
            if (k >= 0) {
                nst[k]++;
                strongc[k] |= alive && alive[p];
                for (int d = 0; d < 4; d++) {
                    int t = e->ch[p + dirs[d]];
                    if (t < 0 || e->ccol[t] == e->ccol[k] || nb[k] == t)
                        continue;
                    nb[k] = (int16_t)(nb[k] == -1 ? t : -2);
                }
                continue;
            }
            if (e->reg[p] < 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int t = e->ch[p + dirs[d]], dup = 0;
                if (t < 0)
                    continue;
                for (int i = 0; i < ns; i++)
                    dup |= seen[i] == t;
                if (!dup) {
                    seen[ns++] = t;
                    nlib[t]++;
                }
            }
        }
    /* chain i (inside) whose only opponent neighbour is g, every liberty of both shared
     * and next to no other chain: a seki only as long as g cannot afford to capture i */
    for (int i = 0; i < e->nch; i++) {
        int g = nb[i], s = 0, other = 0;
        if (g < 0 || strongc[g] || nlib[i] < 2 || nlib[i] != nlib[g]
            || nst[i] + nlib[i] - 1 > GO_EYES_NAKADE)
            continue;
        for (int p = 0; p < GO_CELLS && !other; p++) {
            int ti = 0, tg = 0, to = 0;
            if (e->reg[p] < 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int t = e->ch[p + dirs[d]];
                ti |= t == i;
                tg |= t == g;
                to |= t >= 0 && t != i && t != g;
            }
            s += ti && tg;
            other |= (ti || tg) && to;
        }
        if (other || s != nlib[i])
            continue;
        kill[g] = 1;
        marked++;
    }
    for (int p = 0; p < GO_CELLS; p++)
        if (e->ch[p] >= 0 && kill[e->ch[p]])
            dead[p] = 1;
    return marked;
}
