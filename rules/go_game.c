/* go_game.c: a game — the board, the move list, the history of position keys with a
 * hash multiset over it (superko in O(1)), handicap, setup, zuozi, strict and tolerant
 * play, passes, resignation and undo.
 *
 * Invariants (go_game_check verifies them):
 *  - hist has one key per position: hist[0] the initial position (after setup),
 *    hist[i] the position after move i; the last key is the current position's;
 *  - a key is the board hash, with go_game's side-to-move key mixed in when White is to
 *    move under situational superko (positional superko and simple ko: board hash only);
 *  - under superko rules the multiset holds exactly the keys of hist, with counts (a
 *    position may recur through passes, resignation or tolerant play);
 *  - each move record keeps what undo needs: the ko point, turn, passes and resignation
 *    before it, and its captured points in one shared growable log. Undo restores the
 *    stones from the log and rebuilds the chains: exact, with no board copy per move.
 *
 * No malloc per move: all arrays grow geometrically.
 */
#include "rules/go_game.h"

#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"

/* Side-to-move key for situational superko (a fixed splitmix64 output). */
#define GO_TURN_KEY 0xD1B54A32D192ED03ULL

typedef struct go_rec {
    go_move_t m;
    int cap_off;             /* first entry of this move in the capture log */
    int ncap;                /* entries in the log: captured stones, or suicided ones */
    int passes_before;
    go_point_t ko_before;
    uint8_t turn_before;
    uint8_t resigned_before;
    uint8_t suicide;         /* 0 none, 1 multi-stone (board removed it), 2 single stone */
    uint8_t pass_stone;      /* a pass handed a prisoner (AGA) */
} go_rec_t;

typedef struct go_slot {
    uint64_t key;
    uint32_t count;          /* 0 with used=1: a tombstone */
    uint32_t used;
} go_slot_t;

struct go_game {
    go_board_t b;
    go_rules_t rules;
    go_color_t turn;
    go_color_t resigned;
    int passes;
    int handicap;
    bool use_set;
    go_rec_t *rec;
    int nrec, caprec;
    go_point_t *caplog;
    int ncap, capcap;
    uint64_t *hist;
    int nhist, caphist;
    go_slot_t *set;
    int setcap, setused;
};

/* ---- growable arrays ---- */

static int go_grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return GO_OK;
    int nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *na = realloc(*arr, (size_t)nc * elem);
    if (!na)
        return GO_ENOMEM;
    *arr = na;
    *cap = nc;
    return GO_OK;
}

/* ---- position-key multiset (open addressing, linear probing) ---- */

static size_t go_slot_of(uint64_t key, int cap)
{
    return (size_t)((key ^ (key >> 29)) & (uint64_t)(cap - 1));
}

static go_slot_t *go_set_find(const go_game_t *g, uint64_t key)
{
    size_t mask = (size_t)g->setcap - 1;
    for (size_t i = go_slot_of(key, g->setcap);; i = (i + 1) & mask) {
        go_slot_t *s = &g->set[i];
        if (!s->used)
            return NULL;
        if (s->key == key)
            return s;
    }
}

static bool go_set_has(const go_game_t *g, uint64_t key)
{
    const go_slot_t *s = go_set_find(g, key);
    return s && s->count > 0;
}

/* Make room for one more key (may rehash, dropping tombstones). */
static int go_set_reserve(go_game_t *g)
{
    if ((g->setused + 1) * 2 <= g->setcap)
        return GO_OK;
    int live = 0;
    for (int i = 0; i < g->setcap; i++)
        live += g->set[i].used && g->set[i].count > 0;
    int nc = g->setcap ? g->setcap : 256;
    while ((live + 1) * 4 > nc) /* load at most 1/4 after a rehash, 1/2 before the next */
        nc *= 2;
    go_slot_t *ns = calloc((size_t)nc, sizeof *ns);
    if (!ns)
        return GO_ENOMEM;
    for (int i = 0; i < g->setcap; i++) {
        go_slot_t *s = &g->set[i];
        if (!s->used || !s->count)
            continue;
        size_t j = go_slot_of(s->key, nc);
        while (ns[j].used)
            j = (j + 1) & (size_t)(nc - 1);
        ns[j] = *s;
    }
    free(g->set);
    g->set = ns;
    g->setcap = nc;
    g->setused = live;
    return GO_OK;
}

/* Add key (room reserved beforehand). */
static void go_set_add(go_game_t *g, uint64_t key)
{
    size_t mask = (size_t)g->setcap - 1;
    for (size_t i = go_slot_of(key, g->setcap);; i = (i + 1) & mask) {
        go_slot_t *s = &g->set[i];
        if (!s->used) {
            s->used = 1;
            s->key = key;
            s->count = 1;
            g->setused++;
            return;
        }
        if (s->key == key) {
            s->count++;
            return;
        }
    }
}

static void go_set_del(go_game_t *g, uint64_t key)
{
    go_slot_t *s = go_set_find(g, key);
    if (s && s->count)
        s->count--;
}

/* ---- keys and history ---- */

static uint64_t go_key(const go_game_t *g, uint64_t board_hash, go_color_t to_move)
{
    if (g->rules.ko == GO_KO_SITUATIONAL && to_move == GO_WHITE)
        return board_hash ^ GO_TURN_KEY;
    return board_hash;
}

/* Replace the last history key by the current position's (after setup, set_turn).
 * Callers reserve set room first (go_set_reserve). */
static void go_hist_refresh(go_game_t *g)
{
    uint64_t k = go_key(g, g->b.hash, g->turn);
    uint64_t *last = &g->hist[g->nhist - 1];
    if (*last == k)
        return;
    if (g->use_set) {
        go_set_del(g, *last);
        go_set_add(g, k);
    }
    *last = k;
}

/* Reserve room for one more move record, history entry, key and n log entries. */
static int go_reserve(go_game_t *g, int nlog)
{
    if (go_grow((void **)&g->rec, &g->caprec, g->nrec + 1, sizeof *g->rec) ||
        go_grow((void **)&g->hist, &g->caphist, g->nhist + 1, sizeof *g->hist) ||
        go_grow((void **)&g->caplog, &g->capcap, g->ncap + nlog, sizeof *g->caplog))
        return GO_ENOMEM;
    if (g->use_set && go_set_reserve(g))
        return GO_ENOMEM;
    return GO_OK;
}

static void go_hist_push(go_game_t *g)
{
    uint64_t k = go_key(g, g->b.hash, g->turn);
    g->hist[g->nhist++] = k;
    if (g->use_set)
        go_set_add(g, k);
}

/* ---- create / destroy ---- */

static int go_game_init(go_game_t *g, int size, const go_rules_t *rules)
{
    if (go_board_init(&g->b, size))
        return GO_EINVAL;
    if (rules)
        g->rules = *rules;
    else
        go_rules_preset("chinese", &g->rules);
    g->turn = g->rules.white_first ? GO_WHITE : GO_BLACK;
    g->resigned = GO_EMPTY;
    g->passes = 0;
    g->handicap = 0;
    g->use_set = g->rules.ko != GO_KO_SIMPLE;
    g->nrec = 0;
    g->ncap = 0;
    g->nhist = 0;
    if (g->set)
        memset(g->set, 0, (size_t)g->setcap * sizeof *g->set);
    g->setused = 0;
    if (go_grow((void **)&g->hist, &g->caphist, 1, sizeof *g->hist))
        return GO_ENOMEM;
    if (g->use_set && go_set_reserve(g))
        return GO_ENOMEM;
    go_hist_push(g);
    return GO_OK;
}

go_game_t *go_game_create(int size, const go_rules_t *rules)
{
    if (size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return NULL;
    go_game_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (go_game_init(g, size, rules)) {
        go_game_destroy(g);
        return NULL;
    }
    return g;
}

int go_game_reset(go_game_t *g, int size, const go_rules_t *rules)
{
    if (!g || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    return go_game_init(g, size, rules);
}

void go_game_destroy(go_game_t *g)
{
    if (!g)
        return;
    free(g->rec);
    free(g->caplog);
    free(g->hist);
    free(g->set);
    free(g);
}

/* ---- setup ---- */

static bool go_is_stone(go_color_t c)
{
    return c == GO_BLACK || c == GO_WHITE;
}

int go_game_setup(go_game_t *g, go_color_t c, const go_point_t *pts, int n)
{
    if (!g || n < 0 || (n > 0 && !pts) || (c != GO_EMPTY && !go_is_stone(c)))
        return GO_EINVAL;
    for (int i = 0; i < n; i++)
        if (!go_board_on(&g->b, pts[i]))
            return GO_EINVAL;
    if (g->use_set && go_set_reserve(g))
        return GO_ENOMEM;
    int added = 0;
    for (int i = 0; i < n; i++) {
        if (g->b.color[pts[i]] != (uint8_t)c) {
            added += c == GO_BLACK;
            g->b.color[pts[i]] = (uint8_t)c;
        }
    }
    go_board_rebuild(&g->b);
    g->b.ko = 0;
    if (g->nrec == 0 && c == GO_BLACK)
        g->handicap += added;
    go_hist_refresh(g);
    return GO_OK;
}

int go_game_handicap(go_game_t *g, int n)
{
    if (!g || g->nrec > 0 || n < 2 || n > 9)
        return GO_EINVAL;
    int size = g->b.size;
    if (size != 9 && size != 13 && size != 19)
        return GO_EINVAL;
    /* GNU Go's / KataGo's fixed placement; x is the column, y the row (0 at the top). */
    int t = go_star_line(size), f = size - 1 - t, m = size / 2;
    go_point_t pts[9];
    int k = 0;
    int left = n;
    if (n == 5 || n == 7) {
        pts[k++] = (go_point_t)GO_PT(m, m);
        left--;
    }
    pts[k++] = (go_point_t)GO_PT(f, t); /* top-right */
    pts[k++] = (go_point_t)GO_PT(t, f); /* bottom-left */
    if (left >= 3)
        pts[k++] = (go_point_t)GO_PT(f, f); /* bottom-right */
    if (left >= 4)
        pts[k++] = (go_point_t)GO_PT(t, t); /* top-left */
    if (left >= 6) {
        pts[k++] = (go_point_t)GO_PT(t, m); /* left side */
        pts[k++] = (go_point_t)GO_PT(f, m); /* right side */
    }
    if (left >= 8) {
        pts[k++] = (go_point_t)GO_PT(m, t); /* top side */
        pts[k++] = (go_point_t)GO_PT(m, f); /* bottom side */
    }
    if (left == 9)
        pts[k++] = (go_point_t)GO_PT(m, m);
    int before = g->handicap;
    int rc = go_game_setup(g, GO_BLACK, pts, k);
    if (rc)
        return rc;
    g->handicap = before + n;
    return go_game_set_turn(g, GO_WHITE);
    return GO_OK;
}

int go_game_zuozi(go_game_t *g)
{
    if (!g || g->nrec > 0 || g->b.size < 7)
        return GO_EINVAL;
    int size = g->b.size;
    int t = go_star_line(size), f = size - 1 - t;
    go_point_t black[2] = { (go_point_t)GO_PT(f, t), (go_point_t)GO_PT(t, f) };
    go_point_t white[2] = { (go_point_t)GO_PT(t, t), (go_point_t)GO_PT(f, f) };
    int hc = g->handicap;
    int rc = go_game_setup(g, GO_BLACK, black, 2);
    if (!rc)
        rc = go_game_setup(g, GO_WHITE, white, 2);
    g->handicap = hc; /* zuozi stones are not a handicap */
    if (rc)
        return rc;
    return go_game_set_turn(g, GO_WHITE);
}

int go_game_set_prisoners(go_game_t *g, int b, int w)
{
    if (!g || g->nrec > 0 || b < 0 || w < 0 || b > GO_MAX_PRISONERS || w > GO_MAX_PRISONERS)
        return GO_EINVAL;
    g->b.prisoners[GO_BLACK] = b;
    g->b.prisoners[GO_WHITE] = w;
    return GO_OK;
}

int go_game_set_turn(go_game_t *g, go_color_t c)
{
    if (!g || !go_is_stone(c))
        return GO_EINVAL;
    if (g->use_set && go_set_reserve(g))
        return GO_ENOMEM;
    g->turn = c;
    go_hist_refresh(g);
    return GO_OK;
}

/* ---- legality ---- */

/* The key of the position after c plays at empty p (captures, multi-stone suicide). */
static uint64_t go_key_after(const go_game_t *g, go_color_t c, int p)
{
    static const int dir[4] = { -GO_STRIDE, -1, 1, GO_STRIDE };
    const go_board_t *b = &g->b;
    uint64_t h = b->hash ^ go_zobrist(c, p);
    int seen[4], ns = 0;
    bool any_cap = false, empty = false, safe = false;
    for (int d = 0; d < 4; d++) {
        int q = p + dir[d];
        int qc = b->color[q];
        if (qc == GO_EMPTY)
            empty = true;
        if (qc != GO_BLACK && qc != GO_WHITE)
            continue;
        int hq = b->chain[q];
        if (qc == (int)c) {
            safe |= b->libs[hq] >= 2;
            continue;
        }
        if (b->libs[hq] != 1)
            continue;
        bool dup = false;
        for (int j = 0; j < ns; j++)
            dup |= seen[j] == hq;
        if (dup)
            continue;
        seen[ns++] = hq;
        any_cap = true;
        int s = hq;
        do {
            h ^= go_zobrist((go_color_t)qc, s);
            s = b->next[s];
        } while (s != hq);
    }
    if (!any_cap && !empty && !safe) {
        /* suicide: the new stone and every adjacent own chain leave the board */
        h ^= go_zobrist(c, p);
        ns = 0;
        for (int d = 0; d < 4; d++) {
            int q = p + dir[d];
            if (b->color[q] != (uint8_t)c)
                continue;
            int hq = b->chain[q];
            bool dup = false;
            for (int j = 0; j < ns; j++)
                dup |= seen[j] == hq;
            if (dup)
                continue;
            seen[ns++] = hq;
            int s = hq;
            do {
                h ^= go_zobrist(c, s);
                s = b->next[s];
            } while (s != hq);
        }
    }
    return go_key(g, h, GO_OTHER(c));
}

/* What the rules say of c at p, ignoring turn and game over. */
static int go_rules_check(const go_game_t *g, go_color_t c, int p)
{
    int rc = go_board_legal(&g->b, c, p, g->rules.multi_suicide);
    if (rc)
        return rc; /* GO_EOCCUPIED, GO_EKO (also under superko), GO_ESUICIDE */
    if (g->use_set && go_set_has(g, go_key_after(g, c, p)))
        return GO_ESUPERKO;
    return GO_OK;
}

bool go_game_over(const go_game_t *g)
{
    return g->resigned != GO_EMPTY || g->passes >= 2;
}

int go_game_legal(const go_game_t *g, go_color_t c, int p)
{
    if (!g || !go_is_stone(c))
        return GO_EINVAL;
    if (p != GO_PASS && !go_board_on(&g->b, p))
        return GO_EINVAL;
    if (go_game_over(g))
        return GO_EOVER;
    if (c != g->turn)
        return GO_ETURN;
    if (p == GO_PASS)
        return GO_OK;
    return go_rules_check(g, c, p);
}

/* ---- playing ---- */

static go_rec_t *go_rec_open(go_game_t *g, go_move_kind_t kind, go_color_t c, int p)
{
    go_rec_t *r = &g->rec[g->nrec++];
    r->m.kind = kind;
    r->m.color = c;
    r->m.point = (go_point_t)p;
    r->m.ncaptured = 0;
    r->cap_off = g->ncap;
    r->ncap = 0;
    r->passes_before = g->passes;
    r->ko_before = g->b.ko;
    r->turn_before = (uint8_t)g->turn;
    r->resigned_before = (uint8_t)g->resigned;
    r->suicide = 0;
    r->pass_stone = 0;
    return r;
}

/* Play c at empty p whatever the rules say (but never onto a stone). */
static int go_do_play(go_game_t *g, go_color_t c, int p)
{
    if (go_reserve(g, g->b.size * g->b.size))
        return GO_ENOMEM;
    go_rec_t *r = go_rec_open(g, GO_MOVE_PLAY, c, p);
    go_place_info_t info;
    int rc = go_board_play(&g->b, c, p, &info);
    if (rc == GO_ESUICIDE) {
        /* single-stone suicide (tolerant only): the stone goes straight to prisoners */
        r->suicide = 2;
        g->b.prisoners[GO_OTHER(c)]++;
        g->b.ko = 0;
    } else if (rc) {
        g->nrec--;
        return rc;
    } else {
        memcpy(&g->caplog[g->ncap], info.captured, (size_t)info.ncaptured * sizeof info.captured[0]);
        g->ncap += info.ncaptured;
        r->ncap = info.ncaptured;
        r->suicide = info.suicide ? 1 : 0;
        r->m.ncaptured = info.suicide ? 0 : info.ncaptured;
    }
    g->passes = 0;
    g->turn = GO_OTHER(c);
    go_hist_push(g);
    return GO_OK;
}

int go_game_play(go_game_t *g, go_color_t c, int p)
{
    if (g && p == GO_PASS)
        return go_game_pass(g, c, false);
    int rc = go_game_legal(g, c, p);
    if (rc)
        return rc;
    return go_do_play(g, c, p);
}

int go_game_play_tolerant(go_game_t *g, go_color_t c, int p, int *why)
{
    if (!g || !go_is_stone(c) || !go_board_on(&g->b, p))
        return GO_EINVAL;
    if (g->b.color[p] != GO_EMPTY)
        return GO_EOCCUPIED;
    int w = go_game_legal(g, c, p);
    int rc = go_do_play(g, c, p);
    if (rc)
        return rc;
    if (why)
        *why = w;
    return GO_OK;
}

int go_game_pass(go_game_t *g, go_color_t c, bool tolerant)
{
    if (!g || !go_is_stone(c))
        return GO_EINVAL;
    if (!tolerant) {
        if (go_game_over(g))
            return GO_EOVER;
        if (c != g->turn)
            return GO_ETURN;
    }
    if (go_reserve(g, 0))
        return GO_ENOMEM;
    go_rec_t *r = go_rec_open(g, GO_MOVE_PASS, c, GO_PASS);
    if (g->rules.pass_stones) {
        r->pass_stone = 1;
        g->b.prisoners[GO_OTHER(c)]++;
    }
    g->b.ko = 0;
    g->passes++;
    g->turn = GO_OTHER(c);
    go_hist_push(g);
    return GO_OK;
}

int go_game_resign(go_game_t *g, go_color_t c)
{
    if (!g || !go_is_stone(c))
        return GO_EINVAL;
    if (go_game_over(g))
        return GO_EOVER;
    if (go_reserve(g, 0))
        return GO_ENOMEM;
    go_rec_open(g, GO_MOVE_RESIGN, c, GO_PASS);
    g->resigned = c;
    go_hist_push(g);
    return GO_OK;
}

int go_game_undo(go_game_t *g)
{
    if (!g)
        return GO_EINVAL;
    if (g->nrec == 0)
        return GO_EEMPTY;
    go_rec_t *r = &g->rec[g->nrec - 1];
    go_board_t *b = &g->b;
    go_color_t c = r->m.color, o = GO_OTHER(c);
    if (r->m.kind == GO_MOVE_PLAY) {
        const go_point_t *cap = &g->caplog[r->cap_off];
        int p = r->m.point;
        if (r->suicide == 2) {
            b->prisoners[o]--;
        } else if (r->suicide == 1) {
            for (int i = 0; i < r->ncap; i++)
                if (cap[i] != p && b->color[cap[i]] == GO_EMPTY)
                    b->color[cap[i]] = (uint8_t)c;
            b->prisoners[o] -= r->ncap;
            go_board_rebuild(b);
        } else {
            if (b->color[p] == (uint8_t)c)
                b->color[p] = GO_EMPTY;
            for (int i = 0; i < r->ncap; i++)
                if (b->color[cap[i]] == GO_EMPTY)
                    b->color[cap[i]] = (uint8_t)o;
            b->prisoners[c] -= r->ncap;
            go_board_rebuild(b);
        }
    } else if (r->m.kind == GO_MOVE_PASS && r->pass_stone) {
        b->prisoners[o]--;
    }
    b->ko = r->ko_before;
    g->turn = (go_color_t)r->turn_before;
    g->passes = r->passes_before;
    g->resigned = (go_color_t)r->resigned_before;
    g->ncap = r->cap_off;
    g->nrec--;
    if (g->use_set)
        go_set_del(g, g->hist[g->nhist - 1]);
    g->nhist--;
    if (!g->use_set || go_set_reserve(g) == GO_OK)
        go_hist_refresh(g); /* differs only when setup happened after the move */
    return GO_OK;
}

/* ---- accessors ---- */

const go_board_t *go_game_board(const go_game_t *g) { return &g->b; }
const go_rules_t *go_game_rules(const go_game_t *g) { return &g->rules; }
go_color_t go_game_turn(const go_game_t *g) { return g->turn; }
int go_game_move_count(const go_game_t *g) { return g->nrec; }
int go_game_handicap_count(const go_game_t *g) { return g->handicap; }
int go_game_consecutive_passes(const go_game_t *g) { return g->passes; }
go_color_t go_game_resigned(const go_game_t *g) { return g->resigned; }
int go_game_history_len(const go_game_t *g) { return g->nhist; }

const go_move_t *go_game_move(const go_game_t *g, int i)
{
    if (!g || i < 0 || i >= g->nrec)
        return NULL;
    return &g->rec[i].m;
}

uint64_t go_game_history_hash(const go_game_t *g, int i)
{
    if (!g || i < 0 || i >= g->nhist)
        return 0;
    return g->hist[i];
}

int go_game_check(const go_game_t *g)
{
    if (!g || go_board_check(&g->b))
        return GO_EINVAL;
    if (!go_is_stone(g->turn) || g->nhist != g->nrec + 1)
        return GO_EINVAL;
    if (g->hist[g->nhist - 1] != go_key(g, g->b.hash, g->turn))
        return GO_EINVAL;
    int passes = 0;
    go_color_t resigned = GO_EMPTY;
    int off = 0;
    for (int i = 0; i < g->nrec; i++) {
        const go_rec_t *r = &g->rec[i];
        if (r->cap_off != off || r->ncap < 0)
            return GO_EINVAL;
        off += r->ncap;
        if (r->m.kind == GO_MOVE_PASS)
            passes++;
        else if (r->m.kind == GO_MOVE_PLAY)
            passes = 0;
        else
            resigned = r->m.color;
    }
    if (off != g->ncap || passes != g->passes || resigned != g->resigned)
        return GO_EINVAL;
    if (g->use_set) {
        /* the multiset holds exactly the history's keys */
        long total = 0;
        for (int i = 0; i < g->setcap; i++)
            if (g->set[i].used)
                total += g->set[i].count;
        if (total != g->nhist)
            return GO_EINVAL;
        for (int i = 0; i < g->nhist; i++)
            if (!go_set_has(g, g->hist[i]))
                return GO_EINVAL;
    }
    return GO_OK;
}
