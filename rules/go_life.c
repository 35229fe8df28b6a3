/* go_life.c: unconditional life (Benson) and the dead-stone proposal (see go_life.h).
 *
 * Benson (1976): for colour c, take its chains and the regions (maximal connected sets
 * of points not holding c). A region is vital to a chain when every empty point of the
 * region is a liberty of that chain. Repeatedly drop the chains with fewer than two
 * vital regions, and the regions that touch a dropped chain; what is left is
 * unconditionally alive. A region enclosed by such chains is unconditional territory
 * when the opponent cannot make two eyes in it: when every empty point of it is a
 * liberty of the enclosing chains, or when the points of it that touch none of them
 * (where an opponent eye would have to be) are too few and too close to hold two eyes.
 *
 * The proposal runs light playouts on a private board (chains as circular lists,
 * liberties counted on demand with a stamp array, so nothing is allocated per move).
 */
#include "rules/go_life.h"
#include "rules/go_internal.h"

#include <stdlib.h>
#include "rules/go_eyes.h"
#include "rules/go_read.h"
#include "rules/go_semeai.h"
#include <string.h>

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

/* A stone's ownership share within 50% +- this many percent calls for more playouts. */
#ifndef GO_LIFE_UNSURE
#define GO_LIFE_UNSURE 15
#endif

/* Size from which a region only one colour reaches counts as its territory in playouts.
 * Smaller regions stay open to the opponent: eye spaces up to five points (bulky five,
 * bent four, the nakade shapes) are where dead groups are killed. Was 4: 6 gives tygem
 * exact margins 4285 -> 4290 of 4761 and GNU Go's score cases 47 -> 48 (both up). */
#define GO_LIFE_TERRITORY 6
static const int diags[4] = { GO_STRIDE + 1, GO_STRIDE - 1, -GO_STRIDE + 1, -GO_STRIDE - 1 };

/* ---- Benson ---- */

/* Label 4-connected components of points satisfying in(w[p]) into id[] (-1 elsewhere);
 * returns the number of components. */
static int label(const uint8_t *w, int size, int16_t *id, int want_c, go_color_t c)
{
    go_point_t stack[GO_CELLS];
    int n = 0;
    for (int i = 0; i < GO_CELLS; i++)
        id[i] = -1;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), sp = 0;
            int in = want_c ? w[p] == c : w[p] != c;
            if (!in || id[p] >= 0)
                continue;
            id[p] = (int16_t)n;
            stack[sp++] = (go_point_t)p;
            while (sp) {
                int q = stack[--sp];
                for (int d = 0; d < 4; d++) {
                    int r = q + dirs[d];
                    if (w[r] == GO_OFF || id[r] >= 0)
                        continue;
                    if (want_c ? w[r] == c : w[r] != c) {
                        id[r] = (int16_t)n;
                        stack[sp++] = (go_point_t)r;
                    }
                }
            }
            n++;
        }
    return n;
}

typedef struct benson {
    int16_t chain[GO_CELLS];    /* chain id of c's stones */
    int16_t region[GO_CELLS];   /* region id of non-c points */
    int nchains, nregions;
    uint8_t chain_alive[GO_CELLS];
    uint8_t region_alive[GO_CELLS];   /* region enclosed only by alive chains */
} benson_t;

static void benson_run(const uint8_t *w, int size, go_color_t c, benson_t *bs)
{
    /* vital[r] lists, as a bitset per (region, chain) would be large: keep for each region
     * up to 4 chains it is vital to (a region can be vital to several). */
    static const int MAXV = 8;
    int16_t (*vital)[8];
    uint8_t *nvital;
    int *nvit_chain;
    bs->nchains = label(w, size, bs->chain, 1, c);
    bs->nregions = label(w, size, bs->region, 0, c);
    vital = calloc((size_t)bs->nregions + 1, sizeof *vital);
    nvital = calloc((size_t)bs->nregions + 1, 1);
    nvit_chain = calloc((size_t)bs->nchains + 1, sizeof *nvit_chain);
    if (!vital || !nvital || !nvit_chain) {
        free(vital);
        free(nvital);
        free(nvit_chain);
        memset(bs->chain_alive, 0, sizeof bs->chain_alive);
        memset(bs->region_alive, 0, sizeof bs->region_alive);
        return;
    }
    /* For each region: the chains adjacent to all its empty points. Compute by taking
     * the chains adjacent to the first empty point, then intersecting. */
    for (int r = 0; r < bs->nregions; r++) {
        int cand[4], nc = -1;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y);
                if (bs->region[p] != r || w[p] != GO_EMPTY)
                    continue;
                int adj[4], na = 0;
                for (int d = 0; d < 4; d++) {
                    int q = p + dirs[d];
                    if (w[q] == c) {
                        int id = bs->chain[q], dup = 0;
                        for (int k = 0; k < na; k++)
                            dup |= adj[k] == id;
                        if (!dup)
                            adj[na++] = id;
                    }
                }
                if (nc < 0) {
                    nc = na;
                    memcpy(cand, adj, sizeof adj);
                } else {
                    int m = 0;
                    for (int i = 0; i < nc; i++)
                        for (int k = 0; k < na; k++)
                            if (cand[i] == adj[k]) {
                                cand[m++] = cand[i];
                                break;
                            }
                    nc = m;
                }
            }
        if (nc < 0) {
            /* no empty point: vital to every adjacent chain (cannot occur on a legal board,
             * the opponent stones would have no liberty); treat as vital to none */
            nc = 0;
        }
        for (int i = 0; i < nc && i < MAXV; i++)
            // cppcheck-suppress arrayIndexOutOfBounds ; nc <= 4 (a point's neighbours), MAXV bounds vital
            vital[r][nvital[r]++] = (int16_t)cand[i];
    }
    for (int i = 0; i < bs->nchains; i++)
        bs->chain_alive[i] = 1;
    for (int r = 0; r < bs->nregions; r++)
        bs->region_alive[r] = 1;
    for (;;) {
        int changed = 0;
        memset(nvit_chain, 0, sizeof(int) * (size_t)(bs->nchains + 1));
        for (int r = 0; r < bs->nregions; r++)
            if (bs->region_alive[r])
                for (int k = 0; k < nvital[r]; k++)
                    nvit_chain[vital[r][k]]++;
        for (int i = 0; i < bs->nchains; i++)
            if (bs->chain_alive[i] && nvit_chain[i] < 2) {
                bs->chain_alive[i] = 0;
                changed = 1;
            }
        if (!changed)
            break;
        /* drop the regions touching a dropped chain */
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y);
                if (w[p] != c || bs->chain_alive[bs->chain[p]])
                    continue;
                for (int d = 0; d < 4; d++) {
                    int q = p + dirs[d];
                    if (w[q] != GO_OFF && w[q] != c)
                        bs->region_alive[bs->region[q]] = 0;
                }
            }
    }
    /* a region is enclosed by alive chains only if it touches at least one chain and
     * all its chains are alive (already ensured); regions touching no chain (c has no
     * stones around) are not enclosed. */
    for (int r = 0; r < bs->nregions; r++)
        if (bs->region_alive[r]) {
            int touches = 0;
            for (int y = 0; y < size && !touches; y++)
                for (int x = 0; x < size && !touches; x++) {
                    int p = GO_PT(x, y);
                    if (bs->region[p] != r)
                        continue;
                    for (int d = 0; d < 4; d++)
                        if (w[p + dirs[d]] == c)
                            touches = 1;
                }
            if (!touches)
                bs->region_alive[r] = 0;
        }
    free(vital);
    free(nvital);
    free(nvit_chain);
}

int go_life_benson(const go_board_t *b, go_color_t c, uint8_t *alive)
{
    uint8_t w[GO_CELLS];
    benson_t *bs;
    if (!b || !alive || (c != GO_BLACK && c != GO_WHITE) || b->size < GO_MIN_SIZE
        || b->size > GO_MAX_SIZE)
        return GO_EINVAL;
    bs = malloc(sizeof *bs);
    if (!bs)
        return GO_ENOMEM;
    go_load_colors(b, w);
    benson_run(w, b->size, c, bs);
    memset(alive, 0, GO_CELLS);
    for (int p = 0; p < GO_CELLS; p++)
        if (w[p] == c && bs->chain_alive[bs->chain[p]])
            alive[p] = 1;
    free(bs);
    return GO_OK;
}

/* ---- playouts ---- */

typedef struct pb {
    int size;
    uint8_t col[GO_CELLS];
    int16_t head[GO_CELLS];
    int16_t nxt[GO_CELLS];
    int16_t nst[GO_CELLS];       /* stones, at the head */
    int ko;
    int16_t empt[GO_CELLS];      /* the empty points */
    int16_t epos[GO_CELLS];      /* index of an empty point in empt[] */
    int nempty;
    uint32_t stamp;
    uint32_t mark[GO_CELLS];
    uint64_t rng;
    const uint8_t *closed;       /* playouts: per point, the colour that may NOT play there
                                    (GO_BLACK/GO_WHITE bits), or NULL */
    uint32_t gen;                /* the liberty cache's mark of a valid entry (fixed) */
    uint32_t lgen[GO_CELLS];     /* at a head: gen while lcache holds its liberties; a
                                    move resets it on the chains whose liberties it changes
                                    (next to the move, next to the stones it captures) */
    uint8_t lcache[GO_CELLS];    /* at a head: liberties, capped at 3 */
} pb_t;

static uint32_t rnd(pb_t *b)
{
    /* xorshift64* */
    b->rng ^= b->rng >> 12;
    b->rng ^= b->rng << 25;
    b->rng ^= b->rng >> 27;
    return (uint32_t)((b->rng * 2685821657736338717ULL) >> 32);
}

static void pb_newstamp(pb_t *b)
{
    if (++b->stamp == 0) {
        memset(b->mark, 0, sizeof b->mark);
        b->stamp = 1;
    }
}

/* Liberties of the chain with head h, capped at 3 (cached until a move next to it). */
static int pb_libs2(pb_t *b, int h)
{
    int n = 0, s = h;
    if (b->lgen[h] == b->gen)
        return b->lcache[h];
    pb_newstamp(b);
    do {
        for (int d = 0; d < 4; d++) {
            int q = s + dirs[d];
            if (b->col[q] == GO_EMPTY && b->mark[q] != b->stamp) {
                b->mark[q] = b->stamp;
                if (++n >= 3)
                    goto done;
            }
        }
        s = b->nxt[s];
    } while (s != h);
done:
    b->lgen[h] = b->gen;
    b->lcache[h] = (uint8_t)n;
    return n;
}

/* Liberties of the chain with head h, counting up to max <= 3 (stops there). */
static int pb_libs(pb_t *b, int h, int max)
{
    int n = pb_libs2(b, h);
    return n < max ? n : max;
}

static int pb_liblist(pb_t *b, int h, int *libs, int max);
static int pb_mutual_atari(pb_t *b, go_color_t c, int p, int last);

static void pb_add_empty(pb_t *b, int p)
{
    b->epos[p] = (int16_t)b->nempty;
    b->empt[b->nempty++] = (int16_t)p;
}

static void pb_del_empty(pb_t *b, int p)
{
    int i = b->epos[p], last = b->empt[--b->nempty];
    b->empt[i] = (int16_t)last;
    b->epos[last] = (int16_t)i;
}

static void pb_init(pb_t *b, const uint8_t *w, int size)
{
    b->size = size;
    memcpy(b->col, w, GO_CELLS);
    b->ko = 0;
    b->nempty = 0;
    b->stamp = 0;
    b->closed = NULL;
    b->gen = 1;
    memset(b->lgen, 0, sizeof b->lgen);
    memset(b->mark, 0, sizeof b->mark);
    for (int p = 0; p < GO_CELLS; p++) {
        b->head[p] = 0;
        b->nxt[p] = 0;
        b->nst[p] = 0;
    }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (w[p] == GO_EMPTY)
                pb_add_empty(b, p);
        }
    /* chains */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if ((w[p] != GO_BLACK && w[p] != GO_WHITE) || b->head[p])
                continue;
            go_point_t stack[GO_CELLS];
            int sp = 0, prev = p, n = 0;
            b->head[p] = (int16_t)p;
            stack[sp++] = (go_point_t)p;
            while (sp) {
                int q = stack[--sp];
                n++;
                if (q != p) {
                    b->nxt[prev] = (int16_t)q;
                    prev = q;
                }
                for (int d = 0; d < 4; d++) {
                    int r = q + dirs[d];
                    if (w[r] == w[p] && !b->head[r]) {
                        b->head[r] = (int16_t)p;
                        stack[sp++] = (go_point_t)r;
                    }
                }
            }
            b->nxt[prev] = (int16_t)p;
            b->nst[p] = (int16_t)n;
        }
}

static void pb_remove_chain(pb_t *b, int h)
{
    int s = h;
    do {
        int nx = b->nxt[s];
        for (int d = 0; d < 4; d++) {   /* the chains around gain this liberty */
            uint8_t v = b->col[s + dirs[d]];
            if (v == GO_BLACK || v == GO_WHITE)
                b->lgen[b->head[s + dirs[d]]] = 0;
        }
        b->col[s] = GO_EMPTY;
        b->head[s] = 0;
        pb_add_empty(b, s);
        s = nx;
    } while (s != h);
}

/* Nakade: a self-atari of a chain is played in the playouts (where it is otherwise
 * never played, which keeps sekis alive) when the chain has at most this many stones and
 * it puts a neighbouring opponent chain in atari on the same last liberty: the opponent
 * must capture, and the small space it gets back is one eye (a stone on the vital point
 * of a bent three, or the two stones that leave a dead four). A seki's shared liberty
 * filled by a larger chain still gives the opponent a living space, so it stays unplayed. */
#ifndef GO_LIFE_NAKADE
#define GO_LIFE_NAKADE 2
#endif
#ifndef GO_LIFE_NAKADE_GROUP
#define GO_LIFE_NAKADE_GROUP 4
#endif

/* 1 when c at p (leaving its own chain with the single liberty last) leaves an adjacent
 * opponent chain of GO_LIFE_NAKADE_GROUP stones or more (a group that needs eyes; a
 * mutual atari between small chains is an exchange of captures, not a nakade) with last
 * as its only liberty too. */
static int pb_mutual_atari(pb_t *b, go_color_t c, int p, int last)
{
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d], l[3];
        if (b->col[q] == GO_OTHER(c) && b->nst[b->head[q]] >= GO_LIFE_NAKADE_GROUP
            && pb_liblist(b, b->head[q], l, 3) == 2
            && ((l[0] == p && l[1] == last) || (l[0] == last && l[1] == p)))
            return 1;
    }
    return 0;
}

/* Is c at p acceptable in a playout? 0 no; 1 yes. Rejects: ko, suicide, filling an own
 * eye, a self-atari that leaves a chain of two or more stones with one liberty. */
static int pb_ok(pb_t *b, go_color_t c, int p)
{
    go_color_t o = GO_OTHER(c);
    int own = 0, offn = 0, captures = 0, empties = 0;
    int heads[4], nh = 0;
    if (p == b->ko || (b->closed && (b->closed[p] & c)))
        return 0;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        uint8_t v = b->col[q];
        if (v == GO_EMPTY)
            empties++;
        else if (v == GO_OFF)
            offn++;
        else if (v == c) {
            int h = b->head[q], dup = 0;
            own++;
            for (int k = 0; k < nh; k++)
                dup |= heads[k] == h;
            if (!dup)
                heads[nh++] = h;
        }
    }
    if (own + offn == 4) {
        /* an eye-like point: true eye unless enough diagonals are the opponent's */
        int bad = 0;
        for (int d = 0; d < 4; d++) {
            uint8_t v = b->col[p + diags[d]];
            if (v == o)
                bad++;
        }
        if (bad < (offn ? 1 : 2))
            return 0;
    }
    if (empties >= 2)
        return 1;
    /* captures: an opponent chain next to p in atari (counted only now: the liberty
     * count is the costly part, and two empty neighbours already make the move fine) */
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (b->col[q] == o && pb_libs(b, b->head[q], 2) == 1)
            captures++;
    }
    if (captures)
        return 1;
    for (int k = 0; k < nh; k++)
        if (pb_libs2(b, heads[k]) >= 3)
            return 1;   /* the joined chain keeps two liberties or more */
    /* liberties after the move: empty neighbours of p and of the joined chains */
    {
        int libs = 0, stones = 1, last = 0;
        pb_newstamp(b);
        b->mark[p] = b->stamp;
        for (int d = 0; d < 4; d++) {
            int q = p + dirs[d];
            if (b->col[q] == GO_EMPTY && b->mark[q] != b->stamp) {
                b->mark[q] = b->stamp;
                libs++;
                last = q;
            }
        }
        for (int k = 0; k < nh && libs < 2; k++) {
            int s = heads[k];
            stones += b->nst[heads[k]];
            do {
                for (int d = 0; d < 4; d++) {
                    int q = s + dirs[d];
                    if (b->col[q] == GO_EMPTY && b->mark[q] != b->stamp) {
                        b->mark[q] = b->stamp;
                        libs++;
                        last = q;
                    }
                }
                s = b->nxt[s];
            } while (s != heads[k] && libs < 2);
        }
        if (libs == 0)
            return 0;                     /* suicide */
        if (libs == 1 && (stones >= 2 || nh > 0))
            /* self-atari of a chain: only as a nakade (see pb_nakade) */
            return stones <= GO_LIFE_NAKADE && pb_mutual_atari(b, c, p, last);
    }
    return 1;
}

static void pb_play(pb_t *b, go_color_t c, int p)
{
    go_color_t o = GO_OTHER(c);
    int captured = 0, cap_pt = 0;
    for (int d = 0; d < 4; d++) {   /* the chains around lose this liberty */
        uint8_t v = b->col[p + dirs[d]];
        if (v == GO_BLACK || v == GO_WHITE)
            b->lgen[b->head[p + dirs[d]]] = 0;
    }
    b->lgen[p] = 0;
    b->col[p] = (uint8_t)c;
    pb_del_empty(b, p);
    b->head[p] = (int16_t)p;
    b->nxt[p] = (int16_t)p;
    b->nst[p] = 1;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (b->col[q] == c && b->head[q] != b->head[p]) {
            int h1 = b->head[p], h2 = b->head[q], big, small;
            if (b->nst[h1] >= b->nst[h2]) {
                big = h1;
                small = h2;
            } else {
                big = h2;
                small = h1;
            }
            int s = small;
            do {
                b->head[s] = (int16_t)big;
                s = b->nxt[s];
            } while (s != small);
            /* splice the two circular lists */
            int t = b->nxt[big];
            b->nxt[big] = b->nxt[small];
            b->nxt[small] = (int16_t)t;
            b->nst[big] = (int16_t)(b->nst[big] + b->nst[small]);
        }
    }
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (b->col[q] == o && pb_libs(b, b->head[q], 1) == 0) {
            captured += b->nst[b->head[q]];
            cap_pt = q;
            pb_remove_chain(b, b->head[q]);
        }
    }
    b->lgen[b->head[p]] = 0;   /* the chain played (merged, maybe grown by captures) */
    b->ko = 0;
    if (captured == 1 && b->nst[b->head[p]] == 1 && pb_libs(b, b->head[p], 2) == 1)
        b->ko = cap_pt;
}

/* One playout to the end; adds the final owner of each point to own[] (+1 black, -1 white). */
/* The playout policy's choice near the last move (0: none): capture a chain left in atari
 * next to it, save an own chain it put in atari, or (one time in two) answer next to it. */
static int pb_local(pb_t *b, go_color_t c, int last)
{
    static const int around[8] = { 1, -1, GO_STRIDE, -GO_STRIDE, GO_STRIDE + 1,
                                   GO_STRIDE - 1, -GO_STRIDE + 1, -GO_STRIDE - 1 };
    int libs[2], cand[8], n = 0;
    if (!last || b->col[last] == GO_EMPTY)
        return 0;
    /* capture: the last move's chain, or a chain next to it, in atari */
    for (int d = -1; d < 4; d++) {
        int q = d < 0 ? last : last + dirs[d];
        if (b->col[q] == GO_OTHER(c) && pb_liblist(b, b->head[q], libs, 2) == 1
            && pb_ok(b, c, libs[0]))
            return libs[0];
    }
    /* save: an own chain next to the last move in atari */
    for (int d = 0; d < 4; d++) {
        int q = last + dirs[d];
        if (b->col[q] == c && pb_liblist(b, b->head[q], libs, 2) == 1 && pb_ok(b, c, libs[0]))
            return libs[0];
    }
    if (rnd(b) & 1)
        return 0;
    for (int d = 0; d < 8; d++) {
        int q = last + around[d];
        if (b->col[q] == GO_EMPTY && pb_ok(b, c, q))
            cand[n++] = q;
    }
    return n ? cand[rnd(b) % (uint32_t)n] : 0;
}

/* One playout to the end; adds the final owner of each point to own[] (+1 black, -1 white).
 * Returns the moves (and passes) it took. */
static int pb_playout(pb_t *b, go_color_t first, int *own)
{
    int passes = 0, moves = 0, maxmoves = 3 * b->size * b->size, last = 0;
    go_color_t c = first;
    while (passes < 2 && moves < maxmoves) {
        int played = 0, p = pb_local(b, c, last);
        if (p) {
            pb_play(b, c, p);
            played = 1;
            last = p;
        } else if (b->nempty) {
            int start = (int)(rnd(b) % (uint32_t)b->nempty);
            for (int i = 0, j = start; i < b->nempty; i++, j = j + 1 < b->nempty ? j + 1 : 0) {
                p = b->empt[j];   /* (start + i) % nempty, without a division */
                if (pb_ok(b, c, p)) {
                    pb_play(b, c, p);
                    played = 1;
                    last = p;
                    break;
                }
            }
        }
        if (!played)
            last = 0;
        passes = played ? 0 : passes + 1;
        moves++;
        c = GO_OTHER(c);
    }
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y), m = 0;
            uint8_t v = b->col[p];
            if (v == GO_BLACK)
                own[p]++;
            else if (v == GO_WHITE)
                own[p]--;
            else {
                for (int d = 0; d < 4; d++) {
                    uint8_t u = b->col[p + dirs[d]];
                    if (u == GO_BLACK || u == GO_WHITE)
                        m |= u;
                }
                if (m == GO_BLACK)
                    own[p]++;
                else if (m == GO_WHITE)
                    own[p]--;
            }
        }
    return moves;
}

/* ---- unconditional status (certain life, certain death, certain territory) ----
 *
 * Benson's test says which chains of c can never be captured. Which points c then owns
 * for certain (and which opponent stones are certainly dead) is decided by letting the
 * opponent o play without answer, as GNU Go's regression suite (unconditional.tst)
 * defines the statuses it checks:
 *  1. o plays on every liberty of each chain of c, chain after chain; a chain that is
 *     captured, or left with one liberty (o then takes it), is capturable and stays
 *     captured; repeat until nothing more falls. The chains of c that remain are
 *     unconditionally alive (none remain: nothing is settled).
 *  2. o plays every legal liberty of those chains, then extends its chains in atari
 *     while that is not suicide, repeatedly.
 *  3. each chain of o left with exactly two adjacent liberties fills one of them (the
 *     one leaving c the fewer open liberties there): two adjacent points make one eye.
 *  4. c owns: its remaining chains and their liberties, and the chains of o left in
 *     atari with their last liberty. In the original position, its stones there are
 *     alive, the empty points are its territory, the stones of o are dead.
 */

static int pb_legal(pb_t *b, go_color_t c, int p)
{
    go_color_t o = GO_OTHER(c);
    if (b->col[p] != GO_EMPTY)
        return 0;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        uint8_t v = b->col[q];
        if (v == GO_EMPTY)
            return 1;
        if (v == c && pb_libs(b, b->head[q], 2) >= 2)
            return 1;
        if (v == o && pb_libs(b, b->head[q], 2) == 1)
            return 1;
    }
    return 0;
}

/* The liberties of the chain with head h into libs[] (up to max; stops there); returns
 * the count, capped at max. With max == 2 and two or more liberties, libs[] may be left
 * unfilled (callers only read it for a single liberty). */
static int pb_liblist(pb_t *b, int h, int *libs, int max)
{
    int n = 0, s = h;
    if (max == 2 && pb_libs2(b, h) >= 2)
        return 2;
    pb_newstamp(b);
    do {
        for (int d = 0; d < 4; d++) {
            int q = s + dirs[d];
            if (b->col[q] == GO_EMPTY && b->mark[q] != b->stamp) {
                b->mark[q] = b->stamp;
                libs[n++] = q;
                if (n >= max)
                    return n;
            }
        }
        s = b->nxt[s];
    } while (s != h);
    return n;
}

/* Liberties a stone of colour c at empty p would have (joined chains, no captures). */
static int pb_approxlib(pb_t *b, go_color_t c, int p)
{
    int n = 0;
    pb_newstamp(b);
    b->mark[p] = b->stamp;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (b->col[q] == GO_EMPTY && b->mark[q] != b->stamp) {
            b->mark[q] = b->stamp;
            n++;
        }
    }
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (b->col[q] == c) {
            int h = b->head[q], s = h;
            /* mark the chain's stones via a second stamp-free walk: count its libs */
            do {
                for (int e = 0; e < 4; e++) {
                    int r = s + dirs[e];
                    if (b->col[r] == GO_EMPTY && b->mark[r] != b->stamp) {
                        b->mark[r] = b->stamp;
                        n++;
                    }
                }
                s = b->nxt[s];
            } while (s != h);
        }
    }
    return n;
}

/* Play o at p if legal; returns 1 when played. */
static int pb_try(pb_t *b, go_color_t o, int p)
{
    b->ko = 0;
    if (b->col[p] != GO_EMPTY || !pb_legal(b, o, p))
        return 0;
    pb_play(b, o, p);
    return 1;
}

/* o plays every legal liberty of the chain at p (the liberties listed first). */
static void pb_fill_libs(pb_t *b, go_color_t o, int p, int *libs)
{
    int n = pb_liblist(b, b->head[p], libs, GO_CELLS);
    for (int k = 0; k < n; k++)
        pb_try(b, o, libs[k]);
}

/* Mark in own[] (1 stones, 2 points) what colour c owns for certain on board w. */
static void uncond_color(const uint8_t *w, int size, go_color_t c, uint8_t *own, pb_t *b,
                         pb_t *save)
{
    go_color_t o = GO_OTHER(c);
    uint8_t seen[GO_CELLS], seki[GO_CELLS];
    int libs[GO_CELLS];
    int captured, found;
    /* south, west, north, east (the order the seki test turns in) */
    static const int dir4[4] = { GO_STRIDE, -1, -GO_STRIDE, 1 };
    static const int dir8[8] = { GO_STRIDE, -1, -GO_STRIDE, 1, GO_STRIDE - 1,
                                 -GO_STRIDE - 1, -GO_STRIDE + 1, GO_STRIDE + 1 };

    memset(own, 0, GO_CELLS);
    pb_init(b, w, size);

    /* 0. two-stone chains with no other stone of c and no board edge around them may
     * take part in a seki that the opponent cannot turn into a dead group: keep them
     * apart from the capture test. */
    memset(seki, 0, sizeof seki);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), h = b->head[p], q, iso = 1;
            if (b->col[p] != c || b->nst[h] != 2 || seki[p])
                continue;
            q = b->nxt[h];
            for (int k = 0; k < 2 && iso; k++) {
                int s = k ? q : h;
                for (int d = 0; d < 8 && iso; d++) {
                    int t = s + dir8[d];
                    if (b->col[t] == GO_OFF || (b->col[t] == c && b->head[t] != h))
                        iso = 0;
                }
            }
            if (iso)
                seki[h] = seki[q] = 1;
        }

    /* 1. capture what o can capture */
    do {
        captured = 0;
        found = 0;
        memset(seen, 0, sizeof seen);
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), h;
                if (b->col[p] != c || seen[b->head[p]] || seki[p])
                    continue;
                h = b->head[p];
                seen[h] = 1;
                found = 1;
                memcpy(save, b, sizeof *b);
                pb_fill_libs(b, o, p, libs);
                if (b->col[p] != c) {
                    captured = 1;
                } else if (pb_liblist(b, b->head[p], libs, 2) == 1) {
                    b->ko = 0;
                    pb_play(b, o, libs[0]);
                    captured = 1;
                } else {
                    memcpy(b, save, sizeof *b);
                }
            }
    } while (captured);
    if (!found)
        return;   /* nothing of c is invincible: nothing is settled */

    /* 2. o fills the liberties of the invincible chains, then extends its chains in atari */
    memset(seen, 0, sizeof seen);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (b->col[p] != c || seki[p] || seen[b->head[p]])
                continue;
            seen[b->head[p]] = 1;
            pb_fill_libs(b, o, p, libs);
        }
    for (int more = 1; more;) {
        more = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y);
                if (b->col[p] != o || pb_liblist(b, b->head[p], libs, 2) != 1)
                    continue;
                if (pb_try(b, o, libs[0]))
                    more = 1;
            }
    }

    /* 3. the seki test: a two-stone chain of c at p, p + up with both ends free, and the
     * points beside it such that o's stones at p - right and p + up + right would be one
     * chain: that eye space holds a seki, not a dead group; c extends to p - up so that
     * the capture below leaves o an eye space of three. */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (!seki[p] || b->col[p] != c)
                continue;
            {   /* only from the chain's first stone in reading order */
                int h = b->head[p], s = h, first = p;
                do {
                    if (s < first)
                        first = s;
                    s = b->nxt[s];
                } while (s != h);
                if (first != p)
                    continue;
            }
            for (int r = 0; r < 4; r++) {
                int up = dir4[r], right = dir4[(r + 1) % 4];
                if (b->col[p + up] != c || b->col[p + 2 * up] != GO_EMPTY
                    || b->col[p - up] != GO_EMPTY)
                    continue;
                for (int k = 0; k < 2; k++) {
                    int crit;
                    if (k == 1)
                        right = -right;
                    if (b->col[p + right] != GO_EMPTY || b->col[p + up - right] != GO_EMPTY)
                        continue;
                    memcpy(save, b, sizeof *b);
                    if (b->col[p - right] == GO_EMPTY)
                        pb_try(b, o, p - right);
                    if (b->col[p + up + right] == GO_EMPTY)
                        pb_try(b, o, p + up + right);
                    crit = b->col[p - right] == o && b->col[p + up + right] == o
                           && b->head[p - right] == b->head[p + up + right];
                    memcpy(b, save, sizeof *b);
                    if (crit) {
                        pb_try(b, c, p - up);
                        break;
                    }
                }
                if (b->col[p] == c && b->nst[b->head[p]] > 2)
                    break;
            }
        }
    /* capture the chains kept apart */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (seki[p] && b->col[p] == c)
                pb_fill_libs(b, o, p, libs);
        }

    /* 4. two adjacent liberties make one eye: fill one */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), a, bb, ao, bo, al, bl, dx;
            if (b->col[p] != o || pb_liblist(b, b->head[p], libs, 3) != 2)
                continue;
            a = libs[0];
            bb = libs[1];
            dx = abs(GO_X(a) - GO_X(bb)) + abs(GO_Y(a) - GO_Y(bb));
            if (dx != 1)
                continue;
            ao = pb_approxlib(b, c, a);
            bo = pb_approxlib(b, c, bb);
            al = pb_approxlib(b, o, a);
            bl = pb_approxlib(b, o, bb);
            if (ao > bo || (ao == bo && al >= bl))
                pb_try(b, o, a);
            else
                pb_try(b, o, bb);
        }

    /* 5. what c owns */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), n;
            if (b->col[p] == c && !seki[p]) {
                own[p] = 1;
                if (b->head[p] == p) {
                    n = pb_liblist(b, p, libs, GO_CELLS);
                    for (int k = 0; k < n; k++)
                        own[libs[k]] = 2;
                }
            } else if (b->col[p] == o && pb_liblist(b, b->head[p], libs, 2) == 1) {
                own[p] = 2;
                own[libs[0]] = 2;
            }
        }
}

int go_life_unconditional(const go_board_t *b, uint8_t *status)
{
    uint8_t w[GO_CELLS], own[GO_CELLS];
    pb_t *pb, *save;
    if (!b || !status || b->size < GO_MIN_SIZE || b->size > GO_MAX_SIZE)
        return GO_EINVAL;
    pb = malloc(sizeof *pb);
    save = malloc(sizeof *save);
    if (!pb || !save) {
        free(pb);
        free(save);
        return GO_ENOMEM;
    }
    go_load_colors(b, w);
    memset(status, GO_UC_UNDECIDED, GO_CELLS);
    for (int c = GO_WHITE; c >= GO_BLACK; c--) {
        uncond_color(w, b->size, (go_color_t)c, own, pb, save);
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                int p = GO_PT(x, y);
                if (!own[p])
                    continue;
                if (w[p] == c)
                    status[p] = GO_UC_ALIVE;
                else if (w[p] == GO_EMPTY)
                    status[p] = c == GO_BLACK ? GO_UC_BLACK_TERRITORY : GO_UC_WHITE_TERRITORY;
                else
                    status[p] = GO_UC_DEAD;
            }
    }
    free(pb);
    free(save);
    return GO_OK;
}

/* ---- Japanese rules: a ko retaken only after a pass (bent four in the corner) ----
 *
 * The Japanese rules of 1989 (article 7 and the confirmation of life and death after the
 * game) let a ko be retaken only after a pass for it, which gives the side that took it
 * the move that ends the ko. Both sides are bound: a ko taken by either is never
 * retaken in the reading below without a pass first. A group its opponent can capture
 * so is dead.
 *
 * The confirmation adds one fixed ruling: "bent four in the corner is dead". There the
 * owner is the first to take the ko (the attacker throws in; the owner captures), and the
 * ban above alone would let it connect; the rules text calls the group dead anyway,
 * because the attacker may start the ko whenever it likes and the owner can never remove
 * the threat. So a chain whose corner eye space is of that shape (bent_four_space: the
 * non-owner points joined to the corner point, 4 or 5 of them, all on the corner's two
 * first lines, each arm at least one point long) is also dead when the attacker captures
 * it in a reading where the owner never takes a ko at all.
 *
 * Checked for the chains not certainly alive and not proposed dead that lie near a
 * corner (a stone or liberty within 3 lines of it on both axes), enclosed (every
 * liberty in an empty region of at most 6 points), with at most KO_MAXLIBS liberties:
 * touching a wall of the attacker that is safe (certainly alive, or owned by it in 80% of
 * the playouts), a local reading on the points of the fight (the chain, the small empty
 * regions beside it, the short-of-liberty opponent chains next to it) in which the
 * attacker moves first and the owner answers or passes. Found captured within KO_DEPTH
 * moves and KO_NODES positions: dead. A reading that runs out of positions proves
 * nothing (stays alive). */

#define KO_DEPTH 14
#define KO_NODES 2000
#define KO_MAXLIBS 6
#define KO_MAXDOM 18

typedef struct kosearch {
    pb_t *stack;            /* KO_DEPTH + 1 boards, one per ply */
    int pts[KO_MAXDOM];     /* the points of the fight */
    int npts;
    int target;             /* a stone of the defender's chain */
    go_color_t def, att;
    int nodes;
    int owner_never_takes; /* 0: J89's ban on both sides (ban below); 1: the owner never
                              takes a ko (the bent-four reading) */
    int ban[KO_DEPTH + 2][2]; /* per ply, for the owner [0] and the attacker [1]: the point
                                 of a ko the other side took, not to be retaken before a
                                 pass (0: none) */
} kosearch_t;

/* 1 when the attacker captures the target whatever the owner does (see above). */
static int ko_search(kosearch_t *k, int depth, int att_turn)
{
    pb_t *b = &k->stack[depth], *nb;
    go_color_t c = att_turn ? k->att : k->def;
    if (b->col[k->target] != k->def)
        return 1;
    if (depth >= KO_DEPTH || ++k->nodes > KO_NODES)
        return 0;
    nb = &k->stack[depth + 1];
    if (!att_turn) {
        /* the owner passes: its ban is lifted (a pass for the ko), the attacker's kept */
        k->ban[depth + 1][0] = 0;
        k->ban[depth + 1][1] = k->ban[depth][1];
        memcpy(nb, b, sizeof *nb);
        nb->ko = 0;
        if (!ko_search(k, depth + 1, 1))
            return 0;   /* the owner passes and lives */
    }
    for (int i = 0; i < k->npts; i++) {
        int p = k->pts[i], r;
        if (b->col[p] != GO_EMPTY || p == b->ko || p == k->ban[depth][att_turn] ||
            !pb_legal(b, c, p))
            continue;
        memcpy(nb, b, sizeof *nb);
        pb_play(nb, c, p);
        if (!att_turn && nb->ko && k->owner_never_takes)
            continue;
        /* a ko taken: the other side may not take it back before a pass */
        k->ban[depth + 1][!att_turn] = nb->ko ? nb->ko : k->ban[depth][!att_turn];
        k->ban[depth + 1][att_turn] = k->ban[depth][att_turn];
        r = ko_search(k, depth + 1, !att_turn);
        if (att_turn && r)
            return 1;
        if (!att_turn && !r)
            return 0;
    }
    return !att_turn;
}

/* The reading of k's fight from base, the attacker first (owner_never_takes: see
 * kosearch_t): 1 when the target is captured. */
static int ko_read(kosearch_t *k, const pb_t *base, int owner_never_takes)
{
    k->nodes = 0;
    k->owner_never_takes = owner_never_takes;
    k->ban[0][0] = k->ban[0][1] = 0;
    memcpy(&k->stack[0], base, sizeof *base);
    k->stack[0].ko = 0;
    return ko_search(k, 0, 1);
}

/* Near a corner: within 3 lines of the same corner on both axes. */
static int near_corner(int p, int size)
{
    int x = GO_X(p), y = GO_Y(p);
    int dx = x < size - 1 - x ? x : size - 1 - x, dy = y < size - 1 - y ? y : size - 1 - y;
    return dx <= 2 && dy <= 2;
}

/* 1 when the chain at h (colour c, on w) holds a corner eye space of the bent four's
 * kind: the points not of colour c joined to a corner point (itself not c) number 4 or
 * 5, all lie on that corner's two first lines, reach along both, and touch the chain. */
static int bent_four_space(const uint8_t *w, int size, const pb_t *b, int h, go_color_t c)
{
    for (int corner = 0; corner < 4; corner++) {
        int cx = corner & 1 ? size - 1 : 0, cy = corner & 2 ? size - 1 : 0;
        int stack[8], sp = 0, n = 0, ok = 1, armx = 0, army = 0, touches = 0;
        uint8_t seen[GO_CELLS];
        if (w[GO_PT(cx, cy)] == c)
            continue;
        memset(seen, 0, sizeof seen);
        seen[GO_PT(cx, cy)] = 1;
        stack[sp++] = GO_PT(cx, cy);
        while (sp && ok) {
            int q = stack[--sp], x = GO_X(q), y = GO_Y(q);
            if (++n > 5 || (x != cx && y != cy)) {
                ok = 0;
                break;
            }
            armx |= x != cx;
            army |= y != cy;
            for (int d = 0; d < 4; d++) {
                int r = q + dirs[d];
                if (w[r] == GO_OFF || seen[r])
                    continue;
                if (w[r] == c) {
                    touches |= b->head[r] == h;
                    continue;
                }
                seen[r] = 1;
                if (sp >= (int)(sizeof stack / sizeof *stack)) { /* more than 5 points */
                    ok = 0;
                    break;
                }
                stack[sp++] = r;
            }
        }
        if (ok && n >= 4 && armx && army && touches)
            return 1;
    }
    return 0;
}

/* Add p to the fight's points (once); 0 when there is no room left. */
static int ko_add(kosearch_t *k, uint8_t *in, int p)
{
    if (in[p])
        return 1;
    if (k->npts >= KO_MAXDOM)
        return 0;
    in[p] = 1;
    k->pts[k->npts++] = p;
    return 1;
}

/* Mark dead in res the chains that die by the Japanese ko rule (see above). w: the board. */
static int ko_dead_pass(const uint8_t *w, int size, go_life_result_t *res)
{
    uint8_t w2[GO_CELLS], seen[GO_CELLS], in[GO_CELLS];
    int16_t reg[GO_CELLS], rsz[GO_CELLS];
    int libs[GO_CELLS], nreg = 0;
    kosearch_t k;
    pb_t *base = malloc(sizeof *base);
    k.stack = malloc((KO_DEPTH + 2) * sizeof *k.stack);
    if (!base || !k.stack) {
        free(base);
        free(k.stack);
        return GO_ENOMEM;
    }
    memcpy(w2, w, GO_CELLS);
    for (int p = 0; p < GO_CELLS; p++)
        if (res->dead[p])
            w2[p] = GO_EMPTY;
    /* empty regions and their sizes */
    for (int i = 0; i < GO_CELLS; i++)
        reg[i] = -1;
    for (int p = 0; p < GO_CELLS; p++) {
        go_point_t stack[GO_CELLS];
        int sp = 0, n = 0;
        if (w2[p] != GO_EMPTY || reg[p] >= 0)
            continue;
        reg[p] = (int16_t)nreg;
        stack[sp++] = (go_point_t)p;
        while (sp) {
            int q = stack[--sp];
            n++;
            for (int d = 0; d < 4; d++)
                if (w2[q + dirs[d]] == GO_EMPTY && reg[q + dirs[d]] < 0) {
                    reg[q + dirs[d]] = (int16_t)nreg;
                    stack[sp++] = (go_point_t)(q + dirs[d]);
                }
        }
        rsz[nreg++] = (int16_t)n;
    }
    pb_init(base, w2, size);
    memset(seen, 0, sizeof seen);
    for (int p = 0; p < GO_CELLS; p++) {
        int h, s, nl, corner = 0, ok = 1, wall, dies;
        go_color_t c = (go_color_t)w2[p];
        if ((c != GO_BLACK && c != GO_WHITE) || seen[base->head[p]])
            continue;
        h = base->head[p];
        seen[h] = 1;
        if (res->uc[p] == GO_UC_ALIVE)
            continue;
        nl = pb_liblist(base, h, libs, GO_CELLS);
        if (nl > KO_MAXLIBS)
            continue;
        memset(in, 0, sizeof in);
        k.npts = 0;
        /* the fight: the chain's liberties, the small regions beside it, the opponent
         * chains next to it that are short of liberties (with their liberties) */
        for (int i = 0; i < nl && ok; i++) {
            int r = reg[libs[i]];
            corner |= near_corner(libs[i], size);
            if (rsz[r] > 6) {
                ok = 0;   /* a liberty in the open: not enclosed, not this rule's case */
                break;
            }
            for (int q = 0; q < GO_CELLS && ok; q++)
                if (reg[q] == r)
                    ok = ko_add(&k, in, q);
        }
        s = h;
        wall = 0;
        do {
            corner |= near_corner(s, size);
            for (int d = 0; d < 4 && ok; d++) {
                int q = s + dirs[d], ol[4], m;
                if (base->col[q] != GO_OTHER(c))
                    continue;
                m = pb_liblist(base, base->head[q], ol, 4);
                if (m > 3) {
                    /* a surrounding wall the playouts leave to the attacker */
                    float mine = res->owner[q] * (c == GO_BLACK ? -1.0f : 1.0f);
                    wall |= res->uc[q] == GO_UC_ALIVE || mine >= 0.8f;
                    continue;
                }
                for (int j = 0; j < m && ok; j++)
                    ok = ko_add(&k, in, ol[j]);
                {
                    int t = base->head[q];
                    do {
                        ok = ok && ko_add(&k, in, t);
                        t = base->nxt[t];
                    } while (t != base->head[q] && ok);
                }
            }
            ok = ok && ko_add(&k, in, s);
            s = base->nxt[s];
        } while (s != h && ok);
        if (!ok || !corner || !wall)
            continue;
        k.target = h;
        k.def = c;
        k.att = GO_OTHER(c);
        dies = ko_read(&k, base, 0) ||
               (bent_four_space(w2, size, base, h, c) && ko_read(&k, base, 1));
        if (dies) {
            go_life_group_t *g = &res->groups[res->ngroups++];
            g->head = (go_point_t)h;
            g->color = c;
            g->nstones = 0;
            g->confidence = 1.0f;
            s = h;
            do {
                res->dead[s] = 1;
                g->nstones++;
                if (s < g->head)
                    g->head = (go_point_t)s;
                s = base->nxt[s];
            } while (s != h);
        }
    }
    free(base);
    free(k.stack);
    return GO_OK;
}

/* ---- tactical reading before the playouts ----
 *
 * Light playouts misjudge capturing races: the side that should capture plays elsewhere
 * at random as often as not. So each chain short of liberties (at most
 * GO_READ_SAFE_LIBS - 1), touching the opponent and not certainly alive is read out first
 * (go_read.c). When the opponent captures it even if its owner moves first (a race lost
 * on liberties, cutting stones in atari, a ladder, a net), and the reading can trust the
 * capturing side's stones next to it, the chain is dead and the playouts start with it
 * removed, so the stones that captured it are judged on the board as it will be.
 * The capturing stones are trusted when each chain of them next to the target is
 * certainly alive, or has at least three liberties more than the target (far ahead in
 * the race), or (the target in atari) cannot itself be captured by the target's owner
 * moving first. Otherwise (a race between weak groups, where the outside liberties of
 * both decide and the reader does not look) the chain is left to the playouts. */

#ifndef GO_LIFE_READ_BUDGET
#define GO_LIFE_READ_BUDGET 300
#endif
#ifndef GO_LIFE_AHEAD
#define GO_LIFE_AHEAD 3   /* liberties ahead in a race that make a neighbour safe */
#endif
#ifndef GO_LIFE_NOREAD
#define GO_LIFE_NOREAD 0   /* 1: no reading (for measuring what it brings) */
#endif

/* Liberties of the chain at p on w, counted up to max. */
static int chain_libs(const uint8_t *w, int p, int max)
{
    uint8_t seen[GO_CELLS];
    int stack[GO_CELLS], sp = 0, n = 0;
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[sp++] = p;
    while (sp) {
        int q = stack[--sp];
        for (int d = 0; d < 4; d++) {
            int t = q + dirs[d];
            if (seen[t])
                continue;
            if (w[t] == GO_EMPTY) {
                seen[t] = 1;
                if (++n >= max)
                    return n;
            } else if (w[t] == w[p]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
    return n;
}

static int tactical_dead(const uint8_t *w, int size, const uint8_t *uc, uint8_t *tdead)
{
    uint8_t seen[GO_CELLS];
    memset(tdead, 0, GO_CELLS);
    memset(seen, 0, GO_CELLS);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), stack[GO_CELLS], sp = 0, libs = 0, r;
            int adj[GO_CELLS], nadj = 0;
            go_color_t c = (go_color_t)w[p];
            uint8_t lib[GO_CELLS];
            if ((c != GO_BLACK && c != GO_WHITE) || seen[p])
                continue;
            /* the chain's stones and liberty count */
            memset(lib, 0, sizeof lib);
            seen[p] = 1;
            stack[sp++] = p;
            while (sp) {
                int q = stack[--sp];
                for (int d = 0; d < 4; d++) {
                    int t = q + dirs[d];
                    if (w[t] == c && !seen[t]) {
                        seen[t] = 1;
                        stack[sp++] = t;
                    } else if (w[t] == GO_EMPTY && !lib[t]) {
                        lib[t] = 1;
                        libs++;
                    } else if (w[t] == GO_OTHER(c) && !lib[t]) {
                        lib[t] = 1;   /* (marks a neighbour once) */
                        adj[nadj++] = t;
                    }
                }
            }
            if (libs >= GO_READ_SAFE_LIBS || uc[p] == GO_UC_ALIVE || uc[p] == GO_UC_DEAD || !nadj
                || GO_LIFE_NOREAD)
                continue;
            r = go_read_capture(w, size, p, 1, 0, GO_LIFE_READ_BUDGET);
            if (r < 0)
                return r;
            /* a race the reader cannot see whole: a neighbour short of liberties that the
             * chain's owner could capture by moving first (or that the reading cannot
             * settle) leaves the chain to the playouts */
            for (int i = 0; i < nadj && r == GO_READ_CAPTURED; i++) {
                int a, q = adj[i], al = chain_libs(w, q, libs + GO_LIFE_AHEAD);
                if (uc[q] == GO_UC_ALIVE || al >= libs + GO_LIFE_AHEAD)
                    continue;   /* certainly alive, or far ahead in the race */
                a = libs == 1 ? go_read_capture(w, size, q, 0, 0, GO_LIFE_READ_BUDGET)
                              : GO_READ_UNKNOWN;
                if (a < 0)
                    return a;
                if (a != GO_READ_SAFE)
                    r = GO_READ_UNKNOWN;
            }
            if (r == GO_READ_CAPTURED) {
                /* mark the chain */
                sp = 0;
                stack[sp++] = p;
                tdead[p] = 1;
                while (sp) {
                    int q = stack[--sp];
                    for (int d = 0; d < 4; d++)
                        if (w[q + dirs[d]] == c && !tdead[q + dirs[d]]) {
                            tdead[q + dirs[d]] = 1;
                            stack[sp++] = q + dirs[d];
                        }
                }
            }
        }
    return GO_OK;
}

/* Run the playouts from wp (w: the board as it is, for the unsure test): batches of
 * o->playouts, adding each point's final owner to own[]; *done and *moves count the
 * playouts and their moves (added to what they hold). pb: two boards. */
static void run_playouts(const uint8_t *wp, const uint8_t *w, int size, const go_life_options_t *o_,
                         const uint8_t *uc, pb_t *pb, int *own, int *done_, long *moves_)
{
    go_life_options_t o = *o_;
    uint8_t closed[GO_CELLS];
    int done = 0;
    long moves = *moves_;
    /* The position is finished: a region of empty points that only one colour reaches,
     * and that is not a small eye (GO_LIFE_TERRITORY points or more), is that colour's
     * territory; the playouts do not invade it (random invasions of large territories
     * would live by chance). The owner may still play there, and small regions (the eyes of
     * dead groups) stay open to both. */
    {
        int16_t reg[GO_CELLS];
        go_point_t stack[GO_CELLS], pts[GO_CELLS];
        memset(closed, 0, GO_CELLS);
        for (int i = 0; i < GO_CELLS; i++)
            reg[i] = -1;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), sp = 0, n = 0, mask = 0;
                if (wp[p] != GO_EMPTY || reg[p] >= 0)
                    continue;
                reg[p] = 1;
                stack[sp++] = (go_point_t)p;
                while (sp) {
                    int q = stack[--sp];
                    pts[n++] = (go_point_t)q;
                    for (int d = 0; d < 4; d++) {
                        int r = q + dirs[d];
                        if (wp[r] == GO_EMPTY && reg[r] < 0) {
                            reg[r] = 1;
                            stack[sp++] = (go_point_t)r;
                        } else if (wp[r] == GO_BLACK || wp[r] == GO_WHITE) {
                            mask |= wp[r];
                        }
                    }
                }
                if ((mask == GO_BLACK || mask == GO_WHITE) && n >= GO_LIFE_TERRITORY)
                    for (int k = 0; k < n; k++)
                        closed[pts[k]] = (uint8_t)GO_OTHER(mask);
            }
    }
    /* batches of o.playouts; more (up to o.max_playouts) while a stone not settled for
     * certain is owned by neither side clearly (its share within 50% +- GO_LIFE_UNSURE) */
    pb_t *tmpl = pb + 1;
    pb_init(tmpl, wp, size);   /* every playout starts from a copy of it */
    tmpl->closed = closed;
    for (;;) {
        int unsure = 0;
        for (int i = done; i < done + o.playouts; i++) {
            memcpy(pb, tmpl, sizeof *pb);
            pb->rng = o.seed + 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
            if (!pb->rng)
                pb->rng = 1;
            moves += pb_playout(pb, (i & 1) ? GO_WHITE : GO_BLACK, own);
        }
        done += o.playouts;
        if (!o.playouts || done + o.playouts > o.max_playouts
            || moves + moves / done * o.playouts > o.move_budget)
            break;
        for (int p = 0; p < GO_CELLS && !unsure; p++)
            if ((w[p] == GO_BLACK || w[p] == GO_WHITE) && uc[p] == GO_UC_UNDECIDED
                && abs(own[p]) * 100 < GO_LIFE_UNSURE * 2 * done)
                unsure = 1;
        if (!unsure)
            break;
    }
    *done_ = done;
    *moves_ = moves;
}

/* A chain is dead when its owner keeps its stones in fewer than this share (percent) of
 * the playouts. Above 50 because the playouts favour the defender: a random attacker
 * rarely finishes a capture that a real one would, so a dead chain often survives to
 * the end of a playout. Measured on the tygem counted games (4,761, --dead auto):
 * 50 -> 98.26% winners, 90.57% exact; 52 -> 98.42/90.74; 55 -> 98.53/90.80;
 * 57 -> 98.51/90.78; 60 -> 98.53/90.63; 65 -> 98.32/90.17 (a plateau from 55 to 60). */
#ifndef GO_LIFE_DEAD_SHARE
#define GO_LIFE_DEAD_SHARE 55
#endif

/* 1: capturing races between weak groups counted by liberties before the playouts
 * (go_semeai.h); 0: off, for measuring what it brings. */
#ifndef GO_LIFE_SEMEAI
#define GO_LIFE_SEMEAI 1
#endif

#ifndef GO_LIFE_MAX_PLAYOUTS
#define GO_LIFE_MAX_PLAYOUTS 192
#endif

/* 1: eyeless groups enclosed by strong opponents are dead (go_eyes.h); 0: off, for
 * measuring what it brings. */
#ifndef GO_LIFE_NAKADE_SEKI
#define GO_LIFE_NAKADE_SEKI 1   /* 1: go_eyes_nakade_seki after the eye rules; 0: off */
#endif
#ifndef GO_LIFE_EYES
#define GO_LIFE_EYES 1
#endif

/* 1: groups with two true eyes are never dead (go_eyes_alive); 0: off. */
#ifndef GO_LIFE_TWO_EYES
#define GO_LIFE_TWO_EYES 1
#endif

/* List as dead groups (confidence 1: a rule, as the reader's calls) the chains dead in
 * res->dead but not in before[]. */
static void add_new_groups(const uint8_t *w, int size, const uint8_t *before, go_life_result_t *res)
{
    uint8_t seen[GO_CELLS];
    memcpy(seen, before, sizeof seen);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), stack[GO_CELLS], sp = 0;
            go_life_group_t *g;
            if (!res->dead[p] || seen[p] || res->ngroups >= GO_LIFE_MAX_GROUPS)
                continue;
            g = &res->groups[res->ngroups++];
            g->head = (go_point_t)p;
            g->color = (go_color_t)w[p];
            g->nstones = 0;
            g->confidence = 1.0f;
            seen[p] = 1;
            stack[sp++] = p;
            while (sp) {
                int q = stack[--sp];
                g->nstones++;
                for (int d = 0; d < 4; d++) {
                    int t = q + dirs[d];
                    if (w[t] == w[p] && !seen[t]) {
                        seen[t] = 1;
                        stack[sp++] = t;
                    }
                }
            }
        }
}

go_life_options_t go_life_defaults(void)
{
    go_life_options_t o;
    o.playouts = 48;
    o.max_playouts = GO_LIFE_MAX_PLAYOUTS;
    o.move_budget = 20000;
    o.seed = 0x6b69667563616dULL;
    o.ko_dead = 0;
    o.to_move = GO_EMPTY;
    o.turn_races = 0;
    return o;
}

int go_life_propose(const go_board_t *b, const go_life_options_t *opt, go_life_result_t *out)
{
    go_life_options_t o = opt ? *opt : go_life_defaults();
    go_life_result_t *res;
    pb_t *pb;
    int *own;
    uint8_t w[GO_CELLS], wp[GO_CELLS], tdead[GO_CELLS], seki[GO_CELLS];
    int size, rc = GO_ENOMEM;

    if (!b || !out || b->size < GO_MIN_SIZE || b->size > GO_MAX_SIZE || o.playouts < 0
        || (o.to_move != GO_EMPTY && o.to_move != GO_BLACK && o.to_move != GO_WHITE))
        return GO_EINVAL;
    res = calloc(1, sizeof *res);
    pb = malloc(2 * sizeof *pb);   /* the playout board, then its starting position */
    own = calloc(GO_CELLS, sizeof *own);
    if (!res || !pb || !own)
        goto out;
    size = b->size;
    go_load_colors(b, w);
    memset(seki, 0, sizeof seki);
    go_life_unconditional(b, res->uc);
    /* the chains read dead (see tactical_dead) first: the playouts start without them */
    if (tactical_dead(w, size, res->uc, tdead) != GO_OK)
        goto out;
    for (int p = 0; p < GO_CELLS; p++)
        wp[p] = tdead[p] ? GO_EMPTY : w[p];
    /* then the races between weak groups counted by liberties (go_semeai.h) */
    if (GO_LIFE_SEMEAI) {
        uint8_t settled[GO_CELLS];
        for (int p = 0; p < GO_CELLS; p++)
            settled[p] = res->uc[p] == GO_UC_ALIVE || res->uc[p] == GO_UC_DEAD || tdead[p];
        if (go_semeai_classify_turn(wp, size, settled, tdead, seki,
                                    o.turn_races ? o.to_move : GO_EMPTY) < 0)
            goto out;
        for (int p = 0; p < GO_CELLS; p++)
            wp[p] = tdead[p] ? GO_EMPTY : w[p];
    }
    int done = 0;
    long moves = 0;
    run_playouts(wp, w, size, &o, res->uc, pb, own, &done, &moves);
    o.playouts = done;
    res->playouts = done;
    res->playout_moves = moves;
    for (int p = 0; p < GO_CELLS; p++)
        res->owner[p] = o.playouts ? (float)own[p] / (float)o.playouts : 0.0f;

    /* per chain: dead when the opponent owns its stones in most playouts */
    {
        uint8_t done[GO_CELLS];
        memset(done, 0, sizeof done);
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), sp = 0, n = 0;
                go_point_t stack[GO_CELLS], pts[GO_CELLS];
                go_color_t c = (go_color_t)w[p];
                long sum = 0;
                int ucdead = 0, ucalive = 0;
                if ((c != GO_BLACK && c != GO_WHITE) || done[p])
                    continue;
                done[p] = 1;
                stack[sp++] = (go_point_t)p;
                while (sp) {
                    int q = stack[--sp];
                    pts[n++] = (go_point_t)q;
                    sum += own[q];
                    ucdead |= res->uc[q] == GO_UC_DEAD;
                    ucalive |= res->uc[q] == GO_UC_ALIVE;
                    for (int d = 0; d < 4; d++) {
                        int r = q + dirs[d];
                        if (w[r] == c && !done[r]) {
                            done[r] = 1;
                            stack[sp++] = (go_point_t)r;
                        }
                    }
                }
                /* mine: share of playouts in which c owns these stones, 0..1 */
                double tot = (double)o.playouts * n;
                double mine = tot > 0 ? ((c == GO_BLACK ? sum : -sum) / tot + 1.0) / 2.0 : 1.0;
                int isdead;
                float conf;
                if (ucalive || seki[p]) {
                    isdead = 0;
                } else if (ucdead || tdead[p]) {
                    isdead = 1;
                    mine = 0.0;
                } else {
                    isdead = mine < GO_LIFE_DEAD_SHARE / 100.0;
                }
                conf = (float)(1.0 - mine);
                if (isdead) {
                    go_life_group_t *g = &res->groups[res->ngroups++];
                    g->head = pts[0];
                    g->color = c;
                    g->nstones = n;
                    g->confidence = conf;
                    for (int k = 0; k < n; k++) {
                        res->dead[pts[k]] = 1;
                        if (pts[k] < g->head)
                            g->head = pts[k];
                    }
                }
            }
    }
    /* groups left without an eye, enclosed by strong opponents (go_eyes.h) */
    if (GO_LIFE_EYES) {
        uint8_t alive[GO_CELLS], before[GO_CELLS];
        for (int p = 0; p < GO_CELLS; p++)
            alive[p] = res->uc[p] == GO_UC_ALIVE || seki[p];
        memcpy(before, res->dead, sizeof before);
        if (go_eyes_dead(w, size, alive, res->dead) > 0)
            add_new_groups(w, size, before, res);
    }
    /* a seki whose capture leaves a nakade (go_eyes_nakade_seki) */
    if (GO_LIFE_NAKADE_SEKI) {
        uint8_t alive[GO_CELLS], before[GO_CELLS];
        for (int p = 0; p < GO_CELLS; p++)
            alive[p] = res->uc[p] == GO_UC_ALIVE;
        memcpy(before, res->dead, sizeof before);
        if (go_eyes_nakade_seki(w, size, alive, res->dead) > 0)
            add_new_groups(w, size, before, res);
    }
    /* groups with two true eyes are alive, whatever the playouts said (go_eyes.h) */
    if (GO_LIFE_TWO_EYES && go_eyes_alive(w, size, res->dead) > 0) {
        int n = 0;
        for (int i = 0; i < res->ngroups; i++)
            if (res->dead[res->groups[i].head])
                res->groups[n++] = res->groups[i];
        res->ngroups = n;
    }
    if (o.ko_dead && ko_dead_pass(w, size, res) != GO_OK)
        goto out;
    memcpy(out, res, sizeof *res);
    rc = GO_OK;
out:
    free(res);
    free(pb);
    free(own);
    return rc;
}
