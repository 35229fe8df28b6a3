/* go_read.c: tactical reading of a chain short of liberties (see go_read.h).
 *
 * Positions are plain colour arrays, one per ply on a stack (a move copies the parent's,
 * GO_CELLS bytes); chains and liberties are found by flood fill with a stamp array, so
 * nothing is kept in step between plies. attack() is the attacker to move, defend() the
 * owner to move; each returns 1 when its side reaches its goal. When the position budget
 * runs out both give the owner the benefit (attack fails, defend holds): a capture found
 * is then still sound, a "safe" is reported unknown.
 *
 * go_read_race (at the end) reads a capturing race the same way, with a wider set of
 * moves (the partner's liberties and those of weak chains next to the race) and a
 * transposition table.
 */
#include "rules/go_read.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

/* A chain with three liberties is attacked only this close to the start (races, shallow
 * nets); deeper, only two liberties or fewer (ladders). */
#define GO_READ_DEPTH3 4
/* Nets (the attacker playing next to a liberty) are tried only this close to the start. */
#define GO_READ_DEPTH_NETS 6

typedef struct rd_pos {
    uint8_t col[GO_CELLS];
    int ko;                 /* simple-ko point the side to move may not play, or 0 */
} rd_pos_t;

typedef struct reader {
    rd_pos_t stack[GO_READ_MAX_DEPTH + 2];
    uint32_t mark[GO_CELLS];
    uint32_t stamp;
    int target;             /* a stone of the chain read */
    go_color_t def, att;
    int nodes, budget, aborted;
} reader_t;

static void rd_stamp(reader_t *r)
{
    if (++r->stamp == 0) {
        memset(r->mark, 0, sizeof r->mark);
        r->stamp = 1;
    }
}

/* Liberties of the chain at p into libs[] (up to max, stops there); returns the count. */
static int rd_libs(reader_t *r, const uint8_t *col, int p, int *libs, int max)
{
    int stack[GO_CELLS], sp = 0, n = 0;
    uint8_t c = col[p];
    rd_stamp(r);
    r->mark[p] = r->stamp;
    stack[sp++] = p;
    while (sp) {
        int q = stack[--sp];
        for (int d = 0; d < 4; d++) {
            int s = q + dirs[d];
            if (r->mark[s] == r->stamp)
                continue;
            if (col[s] == GO_EMPTY) {
                r->mark[s] = r->stamp;
                if (libs)
                    libs[n] = s;
                if (++n >= max)
                    return n;
            } else if (col[s] == c) {
                r->mark[s] = r->stamp;
                stack[sp++] = s;
            }
        }
    }
    return n;
}

/* Remove the chain at p; returns the stones removed. */
static int rd_remove(uint8_t *col, int p)
{
    int stack[GO_CELLS], sp = 0, n = 0;
    uint8_t c = col[p];
    col[p] = GO_EMPTY;
    stack[sp++] = p;
    while (sp) {
        int q = stack[--sp];
        n++;
        for (int d = 0; d < 4; d++)
            if (col[q + dirs[d]] == c) {
                col[q + dirs[d]] = GO_EMPTY;
                stack[sp++] = q + dirs[d];
            }
    }
    return n;
}

/* Play c at p on pos (in place): 0 when illegal (occupied, ko, suicide; pos is then
 * undefined), 1 when played. */
static int rd_play(reader_t *r, rd_pos_t *pos, go_color_t c, int p)
{
    go_color_t o = GO_OTHER(c);
    int captured = 0, cap_pt = 0, alone = 1;
    if (pos->col[p] != GO_EMPTY || p == pos->ko)
        return 0;
    pos->col[p] = (uint8_t)c;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (pos->col[q] == o && rd_libs(r, pos->col, q, NULL, 1) == 0) {
            captured += rd_remove(pos->col, q);
            cap_pt = q;
        }
        alone &= pos->col[q] != c;
    }
    pos->ko = 0;
    if (captured == 0)
        return rd_libs(r, pos->col, p, NULL, 1) > 0;
    if (captured == 1 && alone && rd_libs(r, pos->col, p, NULL, 2) == 1)
        pos->ko = cap_pt;
    return 1;
}

static int defend(reader_t *r, int depth);

/* Add p to the move list once. */
static void add_move(int *mv, int *n, int p)
{
    for (int i = 0; i < *n; i++)
        if (mv[i] == p)
            return;
    mv[(*n)++] = p;
}

/* The attacker to move at stack[depth]: 1 when it captures the target. */
static int attack(reader_t *r, int depth)
{
    rd_pos_t *pos = &r->stack[depth];
    int libs[GO_READ_SAFE_LIBS], mv[16], nmv = 0, n;
    if (pos->col[r->target] != r->def)
        return 1;
    n = rd_libs(r, pos->col, r->target, libs, GO_READ_SAFE_LIBS);
    if (n >= GO_READ_SAFE_LIBS)
        return 0;
    if (n == 3 && depth >= GO_READ_DEPTH3)
        return 0;   /* three liberties deep in a reading: safe, as four are anywhere */
    if (depth >= GO_READ_MAX_DEPTH || ++r->nodes > r->budget) {
        r->aborted = 1;
        return 0;
    }
    if (n == 1) {
        rd_pos_t *nx = &r->stack[depth + 1];
        memcpy(nx, pos, sizeof *nx);
        if (rd_play(r, nx, r->att, libs[0]))
            return 1;
    }
    for (int i = 0; i < n; i++)
        add_move(mv, &nmv, libs[i]);
    /* save an own chain in atari next to the target (the race) */
    {
        int adj[4], nadj = 0;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 4; d++) {
                int q = libs[i] + dirs[d], al[2];
                if (pos->col[q] == r->att && nadj < 4 && rd_libs(r, pos->col, q, al, 2) == 1)
                    adj[nadj++] = al[0];
            }
        for (int i = 0; i < nadj; i++)
            add_move(mv, &nmv, adj[i]);
    }
    if (n == 2 && depth < GO_READ_DEPTH_NETS)   /* nets: the empty points next to the liberties */
        for (int i = 0; i < 2; i++)
            for (int d = 0; d < 4; d++) {
                int q = libs[i] + dirs[d];
                if (pos->col[q] == GO_EMPTY && nmv < 10)
                    add_move(mv, &nmv, q);
            }
    for (int i = 0; i < nmv; i++) {
        rd_pos_t *nx = &r->stack[depth + 1];
        memcpy(nx, pos, sizeof *nx);
        if (!rd_play(r, nx, r->att, mv[i]))
            continue;
        if (nx->col[r->target] != r->def)
            return 1;
        /* a move leaving the target three liberties or more is no attack */
        if (rd_libs(r, nx->col, r->target, NULL, 3) >= 3 && n <= 2)
            continue;
        if (!defend(r, depth + 1))
            return 1;
    }
    return 0;
}

/* The owner to move at stack[depth]: 1 when the target survives. */
static int defend(reader_t *r, int depth)
{
    rd_pos_t *pos = &r->stack[depth];
    int libs[GO_READ_SAFE_LIBS], mv[24], nmv = 0, n;
    if (pos->col[r->target] != r->def)
        return 0;
    n = rd_libs(r, pos->col, r->target, libs, GO_READ_SAFE_LIBS);
    if (n >= GO_READ_SAFE_LIBS)
        return 1;
    if (depth >= GO_READ_MAX_DEPTH || ++r->nodes > r->budget) {
        r->aborted = 1;
        return 1;
    }
    /* captures of attacking chains in atari next to the target come first, then the
     * liberties, then counter-ataris */
    {
        int stack[GO_CELLS], sp = 0, adj[64], nadj = 0;
        /* the target's stones (flood fill), collecting neighbouring attacker stones */
        rd_stamp(r);
        r->mark[r->target] = r->stamp;
        stack[sp++] = r->target;
        while (sp) {
            int q = stack[--sp];
            for (int d = 0; d < 4; d++) {
                int s = q + dirs[d];
                if (r->mark[s] == r->stamp)
                    continue;
                if (pos->col[s] == r->def) {
                    r->mark[s] = r->stamp;
                    stack[sp++] = s;
                } else if (pos->col[s] == r->att && nadj < 64) {
                    r->mark[s] = r->stamp;
                    adj[nadj++] = s;
                }
            }
        }
        for (int i = 0; i < nadj && nmv < 16; i++) {
            int al[3], m = rd_libs(r, pos->col, adj[i], al, 3);
            if (m == 1)
                add_move(mv, &nmv, al[0]);
        }
        for (int i = 0; i < n; i++)
            add_move(mv, &nmv, libs[i]);
        /* the race: the liberties of neighbours with no more liberties than the target
         * (outside liberties too) */
        for (int i = 0; i < nadj && nmv < 20; i++) {
            int al[4], m = rd_libs(r, pos->col, adj[i], al, 4);
            if (m >= 2 && m <= n + 1 && m <= 3)
                for (int j = 0; j < m; j++)
                    add_move(mv, &nmv, al[j]);
        }
    }
    for (int i = 0; i < nmv; i++) {
        rd_pos_t *nx = &r->stack[depth + 1];
        memcpy(nx, pos, sizeof *nx);
        if (!rd_play(r, nx, r->def, mv[i]))
            continue;
        if (rd_libs(r, nx->col, r->target, NULL, 2) < 2)
            continue;   /* still in atari: no defence */
        if (!attack(r, depth + 1))
            return 1;
    }
    /* pass: the attacker moves here */
    if (n >= 2) {
        int ko = pos->ko, res;
        pos->ko = 0;
        res = attack(r, depth);
        pos->ko = ko;
        if (!res)
            return 1;
    }
    return 0;
}

int go_read_capture(const uint8_t *col, int size, int p, int owner_first, int ko, int budget)
{
    reader_t *r;
    int res;
    if (!col || size < GO_MIN_SIZE || size > GO_MAX_SIZE || p <= 0 || p >= GO_CELLS
        || (col[p] != GO_BLACK && col[p] != GO_WHITE) || budget < 0 || ko < 0 || ko >= GO_CELLS)
        return GO_EINVAL;
    r = malloc(sizeof *r);
    if (!r)
        return GO_ENOMEM;
    memset(r->mark, 0, sizeof r->mark);
    r->stamp = 0;
    memcpy(r->stack[0].col, col, GO_CELLS);
    r->stack[0].ko = ko;
    r->target = p;
    r->def = (go_color_t)col[p];
    r->att = GO_OTHER(r->def);
    r->nodes = 0;
    r->budget = budget;
    r->aborted = 0;
    /* a budget running out only ever favours the owner, so a capture found is sound */
    res = owner_first ? !defend(r, 0) : attack(r, 0);
    res = res ? GO_READ_CAPTURED : r->aborted ? GO_READ_UNKNOWN : GO_READ_SAFE;
    free(r);
    return res;
}

/* ---- the race reader (go_read_race) ----
 *
 * A capturing race the counting of go_semeai.c cannot trust because a weak third chain
 * sits next to it (one the attacker can capture for liberties, one the defender can join
 * or save): the race between the target and its partner (an attacker chain next to it) is
 * read on the board. Both sides play on the liberties of the target and of the partner,
 * capture or save any chain in atari next to either, and play on the liberties of the weak
 * defender chains (up to RR_WEAK liberties) next to the partner or to the target's
 * liberties; the defender may also pass. The target is out of the race when it reaches
 * RR_SAFE liberties or captures the partner. Every shortcut favours the defender (fewer
 * attacking moves, an early "safe"), and so does a budget running out, so a capture found
 * is sound. A transposition table (position, ko point, side to move) keeps positions
 * reached by both orders of the same moves from being read twice. */
#define RR_SAFE 5        /* liberties that take the target out of the race */
#define RR_WEAK 3        /* a third chain with up to this many liberties can be captured or saved */
#define RR_DEPTH 40      /* plies (within GO_READ_MAX_DEPTH) */
#define RR_MOVES 32       /* moves a position (the defender's beyond this: it holds) */
#define RR_TT 4096       /* transposition entries (a power of two) */

typedef struct rr_ent {
    uint64_t key;
    int8_t val;          /* 1: the attacker captures, 2: the defender holds, 0: empty */
} rr_ent_t;

typedef struct race_reader {
    reader_t r;
    int partner;         /* a stone of the attacker's chain in the race */
    int maxdepth;        /* plies read (RR_DEPTH; less in go_read_race_first's iterations) */
    rr_ent_t tt[RR_TT];
} race_reader_t;

static uint64_t rr_key(const rd_pos_t *pos, int att_to_move)
{
    /* eight cells at a time (a multiply-xorshift mix per word) */
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned)pos->ko ^ ((uint64_t)att_to_move << 40);
    int p = 0;
    for (; p + 8 <= GO_CELLS; p += 8) {
        uint64_t w;
        memcpy(&w, &pos->col[p], sizeof w);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    for (; p < GO_CELLS; p++)
        h = (h ^ pos->col[p]) * 1099511628211ULL;
    return h;
}

static int rr_get(const race_reader_t *rr, uint64_t key)
{
    const rr_ent_t *e = &rr->tt[key & (RR_TT - 1)];
    return e->key == key ? e->val : 0;
}

/* Store a result: captures always (a budget running out never makes one), holds only
 * when no reading was cut short so far. */
static void rr_put(race_reader_t *rr, uint64_t key, int val)
{
    rr_ent_t *e = &rr->tt[key & (RR_TT - 1)];
    if (val == 2 && rr->r.aborted)
        return;
    e->key = key;
    e->val = (int8_t)val;
}

/* Add p to mv[] once, up to RR_MOVES moves; *full set when one is left out. */
static void rr_add(int *mv, int *n, int p, int *full)
{
    for (int i = 0; i < *n; i++)
        if (mv[i] == p)
            return;
    if (*n < RR_MOVES)
        mv[(*n)++] = p;
    else
        *full = 1;
}

/* Collect into nb[] stones of the chains of colour c (the other colour) next to the chain
 * at p, one a chain where they touch it in one place (a stone next to one already seen is
 * left out). Returns the count, or -1 when there are more than max. */
static int rr_neighbours(reader_t *r, const uint8_t *col, int p, go_color_t c, int *nb, int max)
{
    int stack[GO_CELLS], sp = 0, n = 0;
    uint8_t own = col[p];
    rd_stamp(r);
    r->mark[p] = r->stamp;
    stack[sp++] = p;
    while (sp) {
        int q = stack[--sp];
        for (int d = 0; d < 4; d++) {
            int s = q + dirs[d], seen = 0;
            if (r->mark[s] == r->stamp)
                continue;
            if (col[s] == own) {
                r->mark[s] = r->stamp;
                stack[sp++] = s;
            } else if (col[s] == c) {
                for (int e = 0; e < 4; e++)
                    seen |= col[s + dirs[e]] == c && r->mark[s + dirs[e]] == r->stamp;
                r->mark[s] = r->stamp;
                if (seen)
                    continue;
                if (n >= max)
                    return -1;
                nb[n++] = s;
            } else {
                r->mark[s] = r->stamp;
            }
        }
    }
    return n;
}

/* The moves of the race (the same for both sides) into mv[]: captures and saves of chains
 * in atari first, then the target's liberties, the partner's, and those of the weak
 * defender chains. Returns the target's liberty count (up to RR_SAFE); RR_SAFE also when
 * the partner is captured. */
static int rr_moves(race_reader_t *rr, const uint8_t *col, int *mv, int *nmv, int for_def)
{
    reader_t *r = &rr->r;
    int nx, ny, libs[RR_SAFE], plibs[RR_SAFE + 1], nb[32], nnb, weak[40], nweak = 0, full = 0;
    *nmv = 0;
    if (col[rr->partner] != r->att)
        return RR_SAFE;
    nx = rd_libs(r, col, r->target, libs, RR_SAFE);
    if (nx >= RR_SAFE)
        return nx;
    ny = rd_libs(r, col, rr->partner, plibs, RR_SAFE + 1);
    /* chains in atari next to the target or the partner */
    nnb = rr_neighbours(r, col, r->target, r->att, nb, 32);
    if (nnb < 0)
        return RR_SAFE;   /* too many neighbours to read: the defender holds */
    for (int i = 0; i < nnb; i++) {
        int al[RR_SAFE], m = rd_libs(r, col, nb[i], al, for_def ? RR_SAFE : 2);
        if (m == 1)
            rr_add(mv, nmv, al[0], &full);
        /* the defender also shortens any attacker chain next to the target that is as
         * short of liberties as it is (the race may be against another neighbour than
         * the partner) */
        if (for_def && m <= nx + 1 && m < RR_SAFE)
            for (int k = 0; k < m; k++)
                rr_add(mv, nmv, al[k], &full);
    }
    nnb = rr_neighbours(r, col, rr->partner, r->def, nb, 32);
    if (nnb < 0)
        return RR_SAFE;
    for (int i = 0; i < nnb; i++)
        weak[nweak++] = nb[i];
    for (int i = 0; i < nnb; i++) {
        int al[2];
        if (rd_libs(r, col, nb[i], al, 2) == 1)
            rr_add(mv, nmv, al[0], &full);
    }
    if (nx == 1)
        rr_add(mv, nmv, libs[0], &full);
    if (ny == 1)
        rr_add(mv, nmv, plibs[0], &full);
    for (int i = 0; i < nx; i++)
        rr_add(mv, nmv, libs[i], &full);
    for (int i = 0; i < ny && i < RR_SAFE; i++)
        rr_add(mv, nmv, plibs[i], &full);
    /* defender chains next to the target's liberties (friends it may join) */
    for (int i = 0; i < nx; i++)
        for (int d = 0; d < 4; d++) {
            int s = libs[i] + dirs[d];
            if (col[s] == r->def && nweak < 40)
                weak[nweak++] = s;
            else if (col[s] == r->def)
                full = 1;
        }
    for (int i = 0; i < nweak; i++) {
        /* (the target itself may be among them: its liberties are in already) */
        int wl[RR_WEAK + 1], m = rd_libs(r, col, weak[i], wl, RR_WEAK + 1);
        if (m > RR_WEAK)
            continue;
        for (int k = 0; k < m; k++)
            rr_add(mv, nmv, wl[k], &full);
    }
    /* a defender's move left out could be the one that saves the target: it holds */
    return for_def && full ? RR_SAFE : nx;
}

static int rr_defend(race_reader_t *rr, int depth);

/* The attacker to move at stack[depth]: 1 when it captures the target. */
static int rr_attack(race_reader_t *rr, int depth)
{
    reader_t *r = &rr->r;
    rd_pos_t *pos = &r->stack[depth];
    int mv[RR_MOVES], nmv, v;
    uint64_t key;
    if (pos->col[r->target] != r->def)
        return 1;
    key = rr_key(pos, 1);
    if ((v = rr_get(rr, key)) != 0)
        return v == 1;
    if (rr_moves(rr, pos->col, mv, &nmv, 0) >= RR_SAFE)
        return 0;
    if (depth >= rr->maxdepth || ++r->nodes > r->budget) {
        r->aborted = 1;
        return 0;
    }
    for (int i = 0; i < nmv; i++) {
        rd_pos_t *nx = &r->stack[depth + 1];
        memcpy(nx, pos, sizeof *nx);
        if (!rd_play(r, nx, r->att, mv[i]))
            continue;
        if (nx->col[r->target] != r->def || !rr_defend(rr, depth + 1)) {
            rr_put(rr, key, 1);
            return 1;
        }
    }
    rr_put(rr, key, 2);
    return 0;
}

/* The defender to move at stack[depth]: 1 when the target survives. */
static int rr_defend(race_reader_t *rr, int depth)
{
    reader_t *r = &rr->r;
    rd_pos_t *pos = &r->stack[depth];
    int mv[RR_MOVES], nmv, v, ko, res;
    uint64_t key;
    if (pos->col[r->target] != r->def)
        return 0;
    key = rr_key(pos, 0);
    if ((v = rr_get(rr, key)) != 0)
        return v == 2;
    if (rr_moves(rr, pos->col, mv, &nmv, 1) >= RR_SAFE)
        return 1;
    if (depth >= rr->maxdepth || ++r->nodes > r->budget) {
        r->aborted = 1;
        return 1;
    }
    for (int i = 0; i < nmv; i++) {
        rd_pos_t *nx = &r->stack[depth + 1];
        memcpy(nx, pos, sizeof *nx);
        if (!rd_play(r, nx, r->def, mv[i]))
            continue;
        if (!rr_attack(rr, depth + 1)) {
            rr_put(rr, key, 2);
            return 1;
        }
    }
    /* pass: the attacker moves in this position (the ko may then be retaken) */
    ko = pos->ko;
    pos->ko = 0;
    res = rr_attack(rr, depth);
    pos->ko = ko;
    rr_put(rr, key, res ? 1 : 2);
    return !res;
}

/* A race reader on col for the chain at p against q's; NULL on a bad argument or no
 * memory (*err says which). */
static race_reader_t *rr_new(const uint8_t *col, int size, int p, int q, int budget, int *err)
{
    race_reader_t *rr;
    *err = GO_EINVAL;
    if (!col || size < GO_MIN_SIZE || size > GO_MAX_SIZE || p <= 0 || p >= GO_CELLS
        || (col[p] != GO_BLACK && col[p] != GO_WHITE) || q <= 0 || q >= GO_CELLS
        || col[q] != GO_OTHER(col[p]) || budget < 0)
        return NULL;
    *err = GO_ENOMEM;
    rr = calloc(1, sizeof *rr);
    if (!rr)
        return NULL;
    memcpy(rr->r.stack[0].col, col, GO_CELLS);
    rr->r.target = p;
    rr->r.def = (go_color_t)col[p];
    rr->r.att = GO_OTHER(rr->r.def);
    rr->r.budget = budget;
    rr->partner = q;
    rr->maxdepth = RR_DEPTH;
    return rr;
}

int go_read_race(const uint8_t *col, int size, int p, int q, int budget, int *nodes)
{
    race_reader_t *rr;
    int res, err;
    if (!(rr = rr_new(col, size, p, q, budget, &err)))
        return err;
    res = !rr_defend(rr, 0) ? GO_READ_CAPTURED : rr->r.aborted ? GO_READ_UNKNOWN : GO_READ_SAFE;
    if (nodes)
        *nodes = rr->r.nodes;
    free(rr);
    return res;
}

/* Iterative deepening of the reading in rr from its root position (the defender to move
 * when def_first, else the attacker), within the budget: a short capture is found before
 * the budget runs out in the long lines a race between weak chains has (both sides may
 * pass). Each iteration reads RR_ID_STEP plies more; a cut at the depth limit favours the
 * defender as the budget does, so a capture found is sound, and the transposition table
 * keeps only sound entries (captures, and holds read without any cut) from one iteration
 * to the next. Returns a go_read_result_t. */
#define RR_ID_FIRST 3
#define RR_ID_STEP 2

static int rr_deepen(race_reader_t *rr, int def_first)
{
    for (int d = RR_ID_FIRST;; d += RR_ID_STEP) {
        int cap;
        rr->maxdepth = d < RR_DEPTH ? d : RR_DEPTH;
        rr->r.aborted = 0;
        cap = def_first ? !rr_defend(rr, 0) : rr_attack(rr, 0);
        if (cap)
            return GO_READ_CAPTURED;
        if (!rr->r.aborted)
            return GO_READ_SAFE;   /* read out without a cut */
        if (rr->r.nodes >= rr->r.budget || rr->maxdepth >= RR_DEPTH)
            return GO_READ_UNKNOWN;
    }
}

/* The attacker's first moves, the point the defender wants most first, each read by
 * rr_deepen with half the budget left (at least RR_SLICE): one good first move among
 * several that lead to long fights is found without reading all of those out first. */
#define RR_SLICE 100

static int rr_attack_first(race_reader_t *rr, int budget, int *nodes)
{
    int mv[RR_MOVES], nmv, used = 0, open[RR_MOVES], key[RR_MOVES];
    race_reader_t *sub = malloc(sizeof *sub);
    if (!sub)
        return GO_ENOMEM;
    *nodes = 0;
    if (rr_moves(rr, rr->r.stack[0].col, mv, &nmv, 0) >= RR_SAFE) {
        free(sub);
        return GO_READ_SAFE;
    }
    for (int i = 0; i < nmv; i++) {
        rd_pos_t *nx = &rr->r.stack[1];
        memcpy(nx, &rr->r.stack[0], sizeof *nx);
        open[i] = rd_play(&rr->r, nx, rr->r.att, mv[i]);
        if (open[i] && nx->col[rr->r.target] != rr->r.def) {
            free(sub);
            return GO_READ_CAPTURED;
        }
        /* the point the defender wants most first: the liberties the target would have
         * with a defender stone there */
        memcpy(nx, &rr->r.stack[0], sizeof *nx);
        key[i] = open[i] && rd_play(&rr->r, nx, rr->r.def, mv[i]) && nx->col[rr->r.target] == rr->r.def
                     ? rd_libs(&rr->r, nx->col, rr->r.target, NULL, 16)
                     : 0;
    }
    for (int i = 1; i < nmv; i++)   /* insertion sort, stable, most liberties first */
        for (int k = i; k > 0 && key[k] > key[k - 1]; k--) {
            int t = key[k];
            key[k] = key[k - 1];
            key[k - 1] = t;
            t = mv[k];
            mv[k] = mv[k - 1];
            mv[k - 1] = t;
            t = open[k];
            open[k] = open[k - 1];
            open[k - 1] = t;
        }
    {
        int unknown = 0;
        for (int i = 0; i < nmv && used < budget; i++) {
            int res, left = budget - used;
            if (!open[i])
                continue;
            memcpy(sub, rr, offsetof(race_reader_t, tt));
            memset(sub->tt, 0, sizeof sub->tt);
            memcpy(&sub->r.stack[0], &rr->r.stack[0], sizeof sub->r.stack[0]);
            rd_play(&sub->r, &sub->r.stack[0], rr->r.att, mv[i]);
            sub->r.nodes = 0;
            sub->r.aborted = 0;
            sub->r.budget = left / 2 > RR_SLICE ? left / 2 : left;
            res = rr_deepen(sub, 1);
            used += sub->r.nodes;
            *nodes = used;
            if (res == GO_READ_CAPTURED) {
                free(sub);
                return GO_READ_CAPTURED;
            }
            unknown |= res != GO_READ_SAFE;
        }
        if (!unknown && used < budget) {
            free(sub);
            return GO_READ_SAFE;   /* every first move fails */
        }
    }
    free(sub);
    return GO_READ_UNKNOWN;
}

int go_read_race_first(const uint8_t *col, int size, int p, int q, int owner_first, int budget,
                       int *nodes)
{
    race_reader_t *rr;
    int res, err, n = 0;
    if (!(rr = rr_new(col, size, p, q, budget, &err)))
        return err;
    if (owner_first) {
        res = rr_deepen(rr, 1);
        n = rr->r.nodes;
    } else {
        res = rr_attack_first(rr, budget, &n);
    }
    if (nodes)
        *nodes = n;
    free(rr);
    return res;
}
