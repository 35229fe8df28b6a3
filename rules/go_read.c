/* go_read.c: tactical reading of a chain short of liberties (see go_read.h).
 *
 * Positions are plain colour arrays, one per ply on a stack (a move copies the parent's,
 * GO_CELLS bytes); chains and liberties are found by flood fill with a stamp array, so
 * nothing is kept in step between plies. attack() is the attacker to move, defend() the
 * owner to move; each returns 1 when its side reaches its goal. When the position budget
 * runs out both give the owner the benefit (attack fails, defend holds): a capture found
 * is then still sound, a "safe" is reported unknown.
 */
#include "rules/go_read.h"

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
