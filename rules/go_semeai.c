/* go_semeai.c: capturing races counted by liberties (see go_semeai.h).
 *
 * The race is played out exactly on the counts (a memoised minimax over outside, shared
 * and eye liberties, with passes; two passes in a row end it in seki), so the classic
 * rules of the capturing race (Davies, "Tesuji"; Sensei's Library "Capturing race") come
 * out of the counting rather than being written as cases. The board side finds the races
 * it can trust: both chains short of life and cut off, the rest of their neighbours out of
 * their reach. A race with a weak third chain next to it is read on the board instead
 * (read_loser, go_read_race).
 */
#include "rules/go_semeai.h"

#include "rules/go_read.h"

#include <stdlib.h>
#include <string.h>

#define SM_L 13   /* outside and eye liberties 0..12 */
#define SM_S 7    /* shared liberties 0..6 */
#define SM_IDX(a, b, s, ea, eb) (((((a) * SM_L + (b)) * SM_S + (s)) * SM_L + (ea)) * SM_L + (eb))
#define SM_N (SM_L * SM_L * SM_S * SM_L * SM_L * 4)

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

/* Value for A (+1 A captures, 0 seki, -1 B captures) with `turn` (0: A, 1: B) to move;
 * passed: the last move was a pass. memo holds value + 2, 0 when unknown. */
static int race(int8_t *memo, int a, int b, int s, int ea, int eb, int turn, int passed)
{
    int8_t *m = &memo[SM_IDX(a, b, s, ea, eb) * 4 + turn * 2 + passed];
    int best, v;
    if (*m)
        return *m - 2;
    if (turn == 0) {
        best = passed ? 0 : race(memo, a, b, s, ea, eb, 1, 1);
        if (b > 0) {   /* fill B's outside liberty */
            v = (b - 1 + s + eb == 0) ? 1 : race(memo, a, b - 1, s, ea, eb, 1, 0);
            best = v > best ? v : best;
        }
        if (s > 0) {   /* fill a shared liberty: both lose one; suicide is illegal */
            if (b + s - 1 + eb == 0)
                v = 1;
            else if (a + s - 1 + ea == 0)
                v = -2;
            else
                v = race(memo, a, b, s - 1, ea, eb, 1, 0);
            best = v > best ? v : best;
        }
        if (eb > 0 && b == 0 && s == 0) {   /* into B's eye, last */
            v = eb == 1 ? 1 : race(memo, a, b, s, ea, eb - 1, 1, 0);
            best = v > best ? v : best;
        }
    } else {
        best = passed ? 0 : race(memo, a, b, s, ea, eb, 0, 1);
        if (a > 0) {
            v = (a - 1 + s + ea == 0) ? -1 : race(memo, a - 1, b, s, ea, eb, 0, 0);
            best = v < best ? v : best;
        }
        if (s > 0) {
            if (a + s - 1 + ea == 0)
                v = -1;
            else if (b + s - 1 + eb == 0)
                v = 2;
            else
                v = race(memo, a, b, s - 1, ea, eb, 0, 0);
            best = v < best ? v : best;
        }
        if (ea > 0 && a == 0 && s == 0) {
            v = ea == 1 ? -1 : race(memo, a, b, s, ea - 1, eb, 0, 0);
            best = v < best ? v : best;
        }
    }
    *m = (int8_t)(best + 2);
    return best;
}

static int in_range(int a, int b, int s, int ea, int eb)
{
    return a >= 0 && a < SM_L && b >= 0 && b < SM_L && s >= 0 && s < SM_S && ea >= 0
           && ea < SM_L && eb >= 0 && eb < SM_L;
}

int go_semeai_race(int a, int b, int s, int ea, int eb, int a_first)
{
    int8_t *memo;
    int v;
    if (!in_range(a, b, s, ea, eb))
        return GO_EINVAL;
    memo = calloc(SM_N, 1);
    if (!memo)
        return GO_ENOMEM;
    v = race(memo, a, b, s, ea, eb, a_first ? 0 : 1, 0);
    free(memo);
    return v;
}

/* Liberties an eye of n points gives in a race. */
static int eye_libs(int n)
{
    static const int t[7] = { 0, 1, 2, 3, 5, 8, 12 };
    return n >= 0 && n <= 6 ? t[n] : 99;
}

typedef struct sm_chain {
    go_color_t color;
    int nstones;
    int head;        /* a stone of the chain */
    int eyes;        /* regions only this chain touches (an eye of 7+ points counts 2) */
    int eyelibs;     /* liberties of its eye (one eye) */
    int nlibs;       /* liberties outside its eyes */
    int joined;      /* a liberty touches another chain of its colour */
    int settled;
    int read;        /* read on the board already (go_read_race) */
    int dead;        /* marked as a race's loser */
    int npart;       /* partners already raced against (up to 8 kept) */
    int16_t part[8];
} sm_chain_t;

typedef struct sm_work {
    int16_t cid[GO_CELLS];     /* chain id of a stone, -1 elsewhere */
    int16_t rid[GO_CELLS];     /* region id of an empty point, -1 elsewhere */
    int16_t rsize[GO_CELLS];
    int16_t rowner[GO_CELLS];  /* the one chain a region touches; -1 none, -2 several */
    sm_chain_t ch[GO_CELLS];
    uint16_t stamp[GO_CELLS];
    go_point_t stack[GO_CELLS];
} sm_work_t;

/* Fill the component of p (points with w == c) into id[] as n; returns its size. */
static int flood(const uint8_t *w, int p, int c, int16_t *id, int n, go_point_t *stack)
{
    int sp = 0, k = 0;
    id[p] = (int16_t)n;
    stack[sp++] = (go_point_t)p;
    while (sp) {
        int q = stack[--sp];
        k++;
        for (int d = 0; d < 4; d++) {
            int r = q + dirs[d];
            if (w[r] == c && id[r] < 0) {
                id[r] = (int16_t)n;
                stack[sp++] = (go_point_t)r;
            }
        }
    }
    return k;
}

/* Does the chain i (colour c) reach, through its stones' neighbours, an opponent chain
 * other than j that it might capture (not settled, short of life, with no more liberties
 * than i's `libs`: a race i wins moving first)? Measured on the tygem counted games
 * (4,761): threshold libs + 3 -> 4691 winners, 4323 exact; libs + 1: 4692, 4324;
 * libs: 4693, 4326; libs - 1: 4695, 4323; libs - 2: 4695, 4324 (kept: libs, the rule). */
static int other_weak(const sm_work_t *wk, const uint8_t *w, int size, int i, int j, int libs)
{
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (wk->cid[p] != i)
                continue;
            for (int d = 0; d < 4; d++) {
                int q = p + dirs[d], k;
                if (w[q] != GO_BLACK && w[q] != GO_WHITE)
                    continue;
                k = wk->cid[q];
                if (k == i || k == j)
                    continue;
                if (wk->ch[k].settled || wk->ch[k].eyes >= 2)
                    continue;
                if (wk->ch[k].nlibs + wk->ch[k].eyelibs <= libs)
                    return 1;
            }
        }
    return 0;
}

/* Shared liberties of chains i and j (outside their eyes). */
static int shared_libs(const sm_work_t *wk, const uint8_t *w, int size, int i, int j)
{
    int n = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), ti = 0, tj = 0;
            if (w[p] != GO_EMPTY || wk->rowner[wk->rid[p]] >= 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int k = wk->cid[p + dirs[d]];
                ti |= k == i;
                tj |= k == j;
            }
            n += ti && tj;
        }
    return n;
}

/* The reading of a vetoed race (below): a loser with more liberties than this is not
 * read; the positions one reading and all the readings of one board may take. Measured on
 * the tygem counted games (4,761): budget 600 per board: 4715 winners, 4370 exact, max
 * 7.9 ms per position; 1000: the same counts, max 10.8 ms; 2000 a reading: 4371 exact
 * (one game more), max 42 ms. */
#ifndef GO_SEMEAI_READ_LIBS
#define GO_SEMEAI_READ_LIBS 4
#endif
#ifndef GO_SEMEAI_READ_BUDGET
#define GO_SEMEAI_READ_BUDGET 600
#endif
#ifndef GO_SEMEAI_READ_TOTAL
#define GO_SEMEAI_READ_TOTAL 600
#endif

/* A race the counting decides (the loser loses whoever moves first, even with a liberty
 * more) but cannot trust alone, because a weak third chain sits next to one of the two
 * (other_weak): the loser might capture it for liberties, or the winner's side might be
 * short of liberties itself. The race is then read on the board with that chain in it
 * (go_read_race: capturing, saving or joining the weak chains next to the race are moves
 * of the reading): the loser is dead when it is captured even moving first, as the count
 * said. A weak chain that only the winner could capture (the common case: a cutting stone
 * next to a wall that wins the race anyway) no longer drops the race. *left: positions
 * still to spend on this board. Returns 1 when the loser is marked, 0 when not, or a
 * negative error. */
static int read_loser(sm_work_t *wk, const uint8_t *col, int size, int loser, int winner,
                      uint8_t *dead, int *left)
{
    sm_chain_t *c = &wk->ch[loser];
    int r, nodes = 0;
    if (c->nlibs + c->eyelibs > GO_SEMEAI_READ_LIBS || c->read || *left <= 0)
        return 0;
    c->read = 1;   /* once: the reading does not depend much on the partner */
    r = go_read_race(col, size, c->head, wk->ch[winner].head,
                     *left < GO_SEMEAI_READ_BUDGET ? *left : GO_SEMEAI_READ_BUDGET, &nodes);
    *left -= nodes;
    if (r != GO_READ_CAPTURED)
        return r < 0 ? r : 0;
    c->dead = 1;
    for (int q = 0; q < GO_CELLS; q++)
        if (wk->cid[q] == loser && col[q] != GO_OFF)
            dead[q] = 1;
    return 1;
}

/* The side to move decides a race that each side wins moving first: with to_move known,
 * each pair of adjacent chains of opposite colours, both short of life (not settled, not
 * marked dead or seki, at most one eye, at most GO_SEMEAI_READ_LIBS liberties with the
 * eye's), is read on the board both ways with the attacker moving first
 * (go_read_race_first): when the side to move captures the other chain moving first and
 * the other side, moving first, captures its chain, the other chain is dead. Only a
 * capture found counts (sound whatever the budget); a reading left unknown marks nothing.
 * GO_SEMEAI_TURN_BUDGET: positions one reading may take; GO_SEMEAI_TURN_TOTAL: all the
 * readings of one board. Off unless the proposal asks (go_life_options_t.turn_races).
 * Measured on the tygem counted games (4,761; turn unknown: 4715 winners, 4370 exact):
 * with chains in atari and chains joined to a friend through a liberty: 4699, 4342 (a
 * snapback is read as a capture: a chain in atari on the liberty of a chain in atari);
 * chains in atari left out: 4713, 4367; joined chains also left out (kept): 4715, 4369,
 * 5 races called, none a gain. The recorded results leave such races unplayed more often
 * than they give them to the side to move, and the one chain removed before the playouts
 * can turn a large group (2005-12 #1658: W+8.5 counted W+139.5). Nor does the reading
 * settle the race of 2005-12 #1190 (GNU Go's call, with Black to move): after Black's
 * q9 White's q8 starts a fight over three weak chains that 20,000 positions do not read
 * out. Time with the rule on: mean 2.45 -> 2.61 ms, max 9.9 ms. */
#ifndef GO_SEMEAI_TURN_BUDGET
#define GO_SEMEAI_TURN_BUDGET 600
#endif
#ifndef GO_SEMEAI_TURN_TOTAL
#define GO_SEMEAI_TURN_TOTAL 1200
#endif
#define SM_TURN_PAIRS 64

static int race_chain(const sm_chain_t *c, const uint8_t *seki)
{
    int libs = c->nlibs + (c->eyes ? c->eyelibs : 0);
    return !c->settled && !c->dead && !c->joined && c->eyes <= 1 && !(seki && seki[c->head]) && libs >= 2
           && libs <= GO_SEMEAI_READ_LIBS;
}

static int turn_races(sm_work_t *wk, const uint8_t *col, int size, const uint8_t *seki,
                      uint8_t *dead, go_color_t to_move)
{
    int pairs[SM_TURN_PAIRS][2], npairs = 0, left = GO_SEMEAI_TURN_TOTAL, marked = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), i = wk->cid[p];
            if (i < 0 || wk->ch[i].color != to_move)
                continue;
            for (int d = 0; d < 4; d++) {
                int j = wk->cid[p + dirs[d]], seen = 0;
                if (j < 0 || wk->ch[j].color == to_move)
                    continue;
                for (int e = 0; e < npairs; e++)
                    seen |= pairs[e][0] == i && pairs[e][1] == j;
                if (seen || npairs >= SM_TURN_PAIRS)
                    continue;
                pairs[npairs][0] = i;
                pairs[npairs][1] = j;
                npairs++;
            }
        }
    for (int e = 0; e < npairs && left > 0; e++) {
        sm_chain_t *cx = &wk->ch[pairs[e][0]], *cy = &wk->ch[pairs[e][1]];
        int r, nodes = 0;
        if (!race_chain(cx, seki) || !race_chain(cy, seki))
            continue;
        /* the side to move captures the other chain moving first */
        r = go_read_race_first(col, size, cy->head, cx->head, 0,
                               left < GO_SEMEAI_TURN_BUDGET ? left : GO_SEMEAI_TURN_BUDGET, &nodes);
        left -= nodes;
        if (r < 0)
            return r;
        if (r != GO_READ_CAPTURED || left <= 0)
            continue;
        /* and the other side, moving first, captures the mover's chain */
        r = go_read_race_first(col, size, cx->head, cy->head, 0,
                               left < GO_SEMEAI_TURN_BUDGET ? left : GO_SEMEAI_TURN_BUDGET, &nodes);
        left -= nodes;
        if (r < 0)
            return r;
        if (r != GO_READ_CAPTURED)
            continue;
        cy->dead = 1;
        for (int q = 0; q < GO_CELLS; q++)
            if (wk->cid[q] == pairs[e][1] && col[q] != GO_OFF)
                dead[q] = 1;
        marked++;
    }
    return marked;
}

int go_semeai_dead(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead)
{
    return go_semeai_classify(col, size, settled, dead, NULL);
}

int go_semeai_classify(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead,
                       uint8_t *seki)
{
    return go_semeai_classify_turn(col, size, settled, dead, seki, GO_EMPTY);
}

int go_semeai_classify_turn(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead,
                            uint8_t *seki, go_color_t to_move)
{
    sm_work_t *wk;
    int8_t *memo = NULL;
    int nch = 0, nreg = 0, marked = 0, read_left = GO_SEMEAI_READ_TOTAL;
    if (!col || !dead || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    wk = malloc(sizeof *wk);
    if (!wk)
        return GO_ENOMEM;
    for (int i = 0; i < GO_CELLS; i++)
        wk->cid[i] = wk->rid[i] = -1;
    /* chains and empty regions */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if ((col[p] == GO_BLACK || col[p] == GO_WHITE) && wk->cid[p] < 0) {
                sm_chain_t *c = &wk->ch[nch];
                memset(c, 0, sizeof *c);
                c->color = (go_color_t)col[p];
                c->head = p;
                c->nstones = flood(col, p, col[p], wk->cid, nch, wk->stack);
                nch++;
            } else if (col[p] == GO_EMPTY && wk->rid[p] < 0) {
                wk->rsize[nreg] = (int16_t)flood(col, p, GO_EMPTY, wk->rid, nreg, wk->stack);
                wk->rowner[nreg] = -1;
                nreg++;
            }
        }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (wk->cid[p] >= 0 && settled && settled[p])
                wk->ch[wk->cid[p]].settled = 1;
            if (col[p] != GO_EMPTY)
                continue;
            if (settled && settled[p])
                wk->rsize[wk->rid[p]] = -1;   /* a dead stone was taken off here */
            for (int d = 0; d < 4; d++) {
                int k = wk->cid[p + dirs[d]], r = wk->rid[p];
                if (k < 0)
                    continue;
                if (wk->rowner[r] == -1)
                    wk->rowner[r] = (int16_t)k;
                else if (wk->rowner[r] != k)
                    wk->rowner[r] = -2;
            }
        }
    /* a chain next to a region where dead stones were taken off: its eyes are not
     * counted simply (the stones are captured first), so it is left out */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (col[p] == GO_EMPTY && wk->rsize[wk->rid[p]] < 0)
                for (int d = 0; d < 4; d++)
                    if (wk->cid[p + dirs[d]] >= 0)
                        wk->ch[wk->cid[p + dirs[d]]].settled = 1;
        }
    for (int r = 0; r < nreg; r++)
        if (wk->rowner[r] >= 0 && wk->rsize[r] > 0) {
            sm_chain_t *c = &wk->ch[wk->rowner[r]];
            c->eyes += wk->rsize[r] > 6 ? 2 : 1;
            c->eyelibs = eye_libs(wk->rsize[r]);
        }
    /* liberties outside eyes, and whether a liberty joins a friendly chain */
    memset(wk->stamp, 0, sizeof wk->stamp);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), ks[4], nk = 0;
            if (col[p] != GO_EMPTY || wk->rowner[wk->rid[p]] >= 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int k = wk->cid[p + dirs[d]], seen = 0;
                if (k < 0)
                    continue;
                for (int e = 0; e < nk; e++)
                    seen |= ks[e] == k;
                if (!seen)
                    ks[nk++] = k;
            }
            for (int e = 0; e < nk; e++) {
                wk->ch[ks[e]].nlibs++;
                for (int f = 0; f < nk; f++)
                    if (f != e && wk->ch[ks[f]].color == wk->ch[ks[e]].color)
                        wk->ch[ks[e]].joined = 1;
            }
        }
    /* the races: each pair of adjacent chains of opposite colours, both short of life */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), i = wk->cid[p];
            if (i < 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int j = wk->cid[p + dirs[d]], s, a, b, ea, eb, v1, v2, loser = -1;
                sm_chain_t *ci = &wk->ch[i], *cj;
                if (j < 0 || j <= i || wk->ch[j].color == ci->color)
                    continue;
                cj = &wk->ch[j];
                {   /* each pair once (the first few partners of a chain remembered) */
                    int seen = 0;
                    for (int e = 0; e < ci->npart; e++)
                        seen |= ci->part[e] == j;
                    if (seen)
                        continue;
                    if (ci->npart < 8)
                        ci->part[ci->npart++] = (int16_t)j;
                }
                if (ci->dead || cj->dead || ci->settled || cj->settled || ci->eyes > 1 || cj->eyes > 1 || ci->joined
                    || cj->joined)
                    continue;
                s = shared_libs(wk, col, size, i, j);
                a = ci->nlibs - s;
                b = cj->nlibs - s;
                ea = ci->eyes ? ci->eyelibs : 0;
                eb = cj->eyes ? cj->eyelibs : 0;
                if (!in_range(a + GO_SEMEAI_MARGIN, b + GO_SEMEAI_MARGIN, s, ea, eb))
                    continue;
                if (!memo && !(memo = calloc(SM_N, 1))) {
                    free(wk);
                    return GO_ENOMEM;
                }
                /* j loses even with more liberties, whoever moves first */
                v1 = race(memo, a, b + GO_SEMEAI_MARGIN, s, ea, eb, 0, 0);
                v2 = race(memo, a, b + GO_SEMEAI_MARGIN, s, ea, eb, 1, 0);
                if (v1 == 1 && v2 == 1)
                    loser = j;
                v1 = race(memo, a + GO_SEMEAI_MARGIN, b, s, ea, eb, 0, 0);
                v2 = race(memo, a + GO_SEMEAI_MARGIN, b, s, ea, eb, 1, 0);
                if (v1 == -1 && v2 == -1)
                    loser = i;
                if (loser < 0 && seki) {
                    /* seki when the weaker chain moves first, captured when the other
                     * does: the game ended without the capture, so the seki stands */
                    int si = race(memo, a, b, s, ea, eb, 0, 0), sj = race(memo, a, b, s, ea, eb, 1, 0);
                    if (((si == 1 && sj == 0) || (si == 0 && sj == -1))
                        && !other_weak(wk, col, size, i, j, a + s + ea)
                        && !other_weak(wk, col, size, j, i, b + s + eb))
                        for (int q = 0; q < GO_CELLS; q++)
                            if ((wk->cid[q] == i || wk->cid[q] == j) && col[q] != GO_OFF)
                                seki[q] = 1;
                }
                if (loser < 0)
                    continue;
                /* the race stands alone: neither chain can capture another neighbour;
                 * otherwise it is read on the board (read_loser) */
                if (other_weak(wk, col, size, i, j, a + s + ea)
                    || other_weak(wk, col, size, j, i, b + s + eb)) {
                    int r = read_loser(wk, col, size, loser, loser == i ? j : i, dead, &read_left);
                    if (r < 0) {
                        free(memo);
                        free(wk);
                        return r;
                    }
                    marked += r;
                    continue;
                }
                wk->ch[loser].dead = 1;
                for (int q = 0; q < GO_CELLS; q++)
                    if (wk->cid[q] == loser && col[q] != GO_OFF)
                        dead[q] = 1;
                marked++;
            }
        }
    free(memo);
    if (to_move == GO_BLACK || to_move == GO_WHITE) {
        int r = turn_races(wk, col, size, seki, dead, to_move);
        if (r < 0) {
            free(wk);
            return r;
        }
        marked += r;
    }
    free(wk);
    return marked;
}
