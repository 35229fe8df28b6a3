/* go_board.c: the Go board — stones, chains, exact liberty counts, captures, Zobrist hash.
 *
 * Invariants kept (see go_board.h; go_board_check verifies them):
 *  - chain[p] is the head of p's chain, next[] a circular list of its stones,
 *    stones[head] their number and libs[head] the EXACT number of distinct empty
 *    neighbours of the chain (never capped);
 *  - hash is the XOR of go_zobrist() over every stone;
 *  - ko is the simple-ko point, or 0.
 *
 * Liberties are kept incrementally: a new stone takes one liberty from each distinct
 * adjacent chain; merging recounts the merged chain's liberties by a walk that marks the
 * empty points it finds (in color[] itself, restored right after, so no extra memory);
 * each captured stone gives one liberty to each distinct chain next to it.
 *
 * Zobrist keys come from splitmix64 with a fixed seed, generated once (pthread_once),
 * so every run and every thread sees the same keys.
 */
#include "rules/go_board.h"

#include <pthread.h>
#include <string.h>

#define GO_MARK 4 /* transient colour: an empty point already counted as a liberty */

static const int go_dir[4] = { -GO_STRIDE, -1, 1, GO_STRIDE };

/* ---- Zobrist keys ---- */

static uint64_t go_zob[3][GO_CELLS];
static pthread_once_t go_zob_once = PTHREAD_ONCE_INIT;

static uint64_t go_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void go_zob_fill(void)
{
    uint64_t s = 0x6B69667563616D31ULL; /* "kifucam1": fixed, keys never change */
    for (int c = 1; c <= 2; c++)
        for (int p = 0; p < GO_CELLS; p++)
            go_zob[c][p] = go_splitmix64(&s);
}

static void go_zob_init(void)
{
    pthread_once(&go_zob_once, go_zob_fill);
}

uint64_t go_zobrist(go_color_t c, int p)
{
    go_zob_init();
    if ((c != GO_BLACK && c != GO_WHITE) || p < 0 || p >= GO_CELLS)
        return 0;
    return go_zob[c][p];
}

/* ---- status codes ---- */

const char *go_strerror(int code)
{
    switch (code) {
    case GO_OK: return "success";
    case GO_EINVAL: return "invalid argument";
    case GO_ENOMEM: return "out of memory";
    case GO_EOCCUPIED: return "point is occupied";
    case GO_ESUICIDE: return "suicide";
    case GO_EKO: return "ko recaptured at once";
    case GO_ESUPERKO: return "repeats an earlier position (superko)";
    case GO_ETURN: return "not this colour's turn";
    case GO_EOVER: return "the game is over";
    case GO_EEMPTY: return "nothing to undo";
    case GO_EPARSE: return "malformed input";
    case GO_EIO: return "input/output error";
    case GO_EUNSURE: return "points the reader was unsure of are not settled";
    default: return "unknown error";
    }
}

/* ---- basics ---- */

int go_board_init(go_board_t *b, int size)
{
    if (!b || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    go_zob_init();
    memset(b, 0, sizeof *b);
    b->size = size;
    for (int p = 0; p < GO_CELLS; p++)
        b->color[p] = GO_OFF;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            b->color[GO_PT(x, y)] = GO_EMPTY;
    return GO_OK;
}

bool go_board_on(const go_board_t *b, int p)
{
    return b && p > 0 && p < GO_CELLS && b->color[p] != GO_OFF;
}

int go_board_libs(const go_board_t *b, int p)
{
    if (!go_board_on(b, p) || b->color[p] == GO_EMPTY)
        return 0;
    return b->libs[b->chain[p]];
}

/* Count the distinct empty neighbours of the chain with head h (exact). */
static int go_count_libs(go_board_t *b, int h)
{
    go_point_t found[GO_MAX_SIZE * GO_MAX_SIZE];
    int n = 0;
    int s = h;
    do {
        for (int d = 0; d < 4; d++) {
            int q = s + go_dir[d];
            if (b->color[q] == GO_EMPTY) {
                b->color[q] = GO_MARK;
                found[n++] = (go_point_t)q;
            }
        }
        s = b->next[s];
    } while (s != h);
    for (int i = 0; i < n; i++)
        // cppcheck-suppress uninitvar ; found[0..n) was written above (cppcheck 2.10 misses it)
        b->color[found[i]] = GO_EMPTY;
    return n;
}

/* Rebuild chains, stone counts, liberties and hash from color[] alone. */
int go_board_rebuild(go_board_t *b)
{
    if (!b || b->size < GO_MIN_SIZE || b->size > GO_MAX_SIZE)
        return GO_EINVAL;
    go_zob_init();
    go_point_t stack[GO_MAX_SIZE * GO_MAX_SIZE];
    b->hash = 0;
    for (int p = 0; p < GO_CELLS; p++) {
        b->chain[p] = 0;
        b->next[p] = 0;
        b->libs[p] = 0;
        b->stones[p] = 0;
    }
    for (int y = 0; y < b->size; y++) {
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            int c = b->color[p];
            if (c != GO_BLACK && c != GO_WHITE)
                continue;
            b->hash ^= go_zob[c][p];
            if (b->chain[p])
                continue;
            /* flood fill the chain, linking stones as they are found */
            int sp = 0, count = 1, last = p;
            b->chain[p] = (go_point_t)p;
            stack[sp++] = (go_point_t)p;
            while (sp) {
                int s = stack[--sp];
                for (int d = 0; d < 4; d++) {
                    int q = s + go_dir[d];
                    if (b->color[q] == c && !b->chain[q]) {
                        b->chain[q] = (go_point_t)p;
                        b->next[last] = (go_point_t)q;
                        last = q;
                        count++;
                        stack[sp++] = (go_point_t)q;
                    }
                }
            }
            b->next[last] = (go_point_t)p;
            b->stones[p] = (uint16_t)count;
            b->libs[p] = (uint16_t)go_count_libs(b, p);
        }
    }
    return GO_OK;
}

int go_board_set(go_board_t *b, int p, go_color_t c)
{
    if (!go_board_on(b, p) || (c != GO_EMPTY && c != GO_BLACK && c != GO_WHITE))
        return GO_EINVAL;
    b->ko = 0;
    if (b->color[p] == c)
        return GO_OK;
    b->color[p] = (uint8_t)c;
    return go_board_rebuild(b);
}

/* ---- legality and play ---- */

/* The colour barred from the ko point: the opponent of the stones around it. */
static bool go_ko_bars(const go_board_t *b, go_color_t c, int p)
{
    if (!b->ko || p != b->ko)
        return false;
    for (int d = 0; d < 4; d++) {
        int q = p + go_dir[d];
        if (b->color[q] == GO_BLACK || b->color[q] == GO_WHITE)
            return b->color[q] != c;
    }
    return false;
}

/* Classify c at empty p: 0 legal, 1 single-stone suicide, 2 multi-stone suicide. */
static int go_suicide_kind(const go_board_t *b, go_color_t c, int p)
{
    bool own = false;
    for (int d = 0; d < 4; d++) {
        int q = p + go_dir[d];
        int qc = b->color[q];
        if (qc == GO_EMPTY)
            return 0;
        if (qc == GO_OFF)
            continue;
        int l = b->libs[b->chain[q]];
        if (qc == (int)c) {
            own = true;
            if (l >= 2)
                return 0;
        } else if (l == 1) {
            return 0; /* captures */
        }
    }
    return own ? 2 : 1;
}

int go_board_legal(const go_board_t *b, go_color_t c, int p, bool allow_multi_suicide)
{
    if (!go_board_on(b, p) || (c != GO_BLACK && c != GO_WHITE))
        return GO_EINVAL;
    if (b->color[p] != GO_EMPTY)
        return GO_EOCCUPIED;
    if (go_ko_bars(b, c, p))
        return GO_EKO;
    int k = go_suicide_kind(b, c, p);
    if (k == 1 || (k == 2 && !allow_multi_suicide))
        return GO_ESUICIDE;
    return GO_OK;
}

/* Remove the chain with head h; each removed stone gives a liberty to each distinct
 * neighbouring chain. Appends the points to cap (if not NULL) from index *n. */
static int go_remove_chain(go_board_t *b, int h, go_point_t *cap, int *n)
{
    int removed = 0;
    int c = b->color[h];
    int s = h;
    do {
        int nx = b->next[s];
        b->color[s] = GO_EMPTY;
        b->hash ^= go_zob[c][s];
        b->chain[s] = 0;
        b->next[s] = 0;
        if (cap)
            cap[(*n)++] = (go_point_t)s;
        removed++;
        s = nx;
    } while (s != h);
    b->libs[h] = 0;
    b->stones[h] = 0;
    /* second pass over the removed points: they are empty now, add liberties */
    for (int i = *n - removed; cap && i < *n; i++) {
        int r = cap[i];
        int seen[4], ns = 0;
        for (int d = 0; d < 4; d++) {
            int q = r + go_dir[d];
            if (b->color[q] != GO_BLACK && b->color[q] != GO_WHITE)
                continue;
            int hq = b->chain[q];
            bool dup = false;
            for (int j = 0; j < ns; j++)
                // cppcheck-suppress uninitvar ; seen[0..ns) was written below in earlier rounds
                dup |= seen[j] == hq;
            if (!dup) {
                seen[ns++] = hq;
                b->libs[hq]++;
            }
        }
    }
    return removed;
}

int go_board_play(go_board_t *b, go_color_t c, int p, go_place_info_t *info)
{
    if (!go_board_on(b, p) || (c != GO_BLACK && c != GO_WHITE))
        return GO_EINVAL;
    if (b->color[p] != GO_EMPTY)
        return GO_EOCCUPIED;
    if (go_suicide_kind(b, c, p) == 1)
        return GO_ESUICIDE;

    go_place_info_t local;
    // cppcheck-suppress uninitvar ; only its ncaptured/suicide are read, after being set
    go_place_info_t *pi = info ? info : &local;
    pi->ncaptured = 0;
    pi->suicide = false;
    go_color_t o = GO_OTHER(c);

    /* place as a one-stone chain */
    b->color[p] = (uint8_t)c;
    b->hash ^= go_zob[c][p];
    b->chain[p] = (go_point_t)p;
    b->next[p] = (go_point_t)p;
    b->stones[p] = 1;
    int h = p;
    int opp[4], nopp = 0;
    bool merged = false;
    int elibs = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + go_dir[d];
        int qc = b->color[q];
        if (qc == GO_EMPTY) {
            elibs++;
        } else if (qc == (int)c) {
            int hq = b->chain[q];
            if (hq == h)
                continue;
            /* merge the smaller chain into the larger */
            int big = hq, small = h;
            if (b->stones[h] > b->stones[hq]) {
                big = h;
                small = hq;
            }
            int s = small;
            do {
                b->chain[s] = (go_point_t)big;
                s = b->next[s];
            } while (s != small);
            int t = b->next[big];
            b->next[big] = b->next[small];
            b->next[small] = (go_point_t)t;
            b->stones[big] = (uint16_t)(b->stones[big] + b->stones[small]);
            b->stones[small] = 0;
            b->libs[small] = 0;
            h = big;
            merged = true;
        } else if (qc == (int)o) {
            int hq = b->chain[q];
            bool dup = false;
            for (int j = 0; j < nopp; j++)
                dup |= opp[j] == hq;
            if (!dup)
                opp[nopp++] = hq;
        }
    }
    b->libs[h] = (uint16_t)(merged ? go_count_libs(b, h) : elibs);

    /* each distinct adjacent enemy chain loses the liberty at p */
    for (int j = 0; j < nopp; j++) {
        // cppcheck-suppress uninitvar ; opp[0..nopp) was written above
        int hq = opp[j];
        if (--b->libs[hq] == 0)
            go_remove_chain(b, hq, pi->captured, &pi->ncaptured);
    }
    b->prisoners[c] += pi->ncaptured;

    b->ko = 0;
    if (pi->ncaptured == 0 && b->libs[h] == 0) {
        /* multi-stone suicide: the placed chain goes to the opponent */
        int n = 0;
        int removed = go_remove_chain(b, h, pi->captured, &n);
        pi->ncaptured = n;
        pi->suicide = true;
        b->prisoners[o] += removed;
    } else if (pi->ncaptured == 1 && b->stones[h] == 1 && b->libs[h] == 1) {
        b->ko = pi->captured[0];
    }
    return GO_OK;
}

/* ---- consistency ---- */

int go_board_check(const go_board_t *b)
{
    if (!b || b->size < GO_MIN_SIZE || b->size > GO_MAX_SIZE)
        return GO_EINVAL;
    uint8_t seen[GO_CELLS];
    memset(seen, 0, sizeof seen);
    uint64_t hash = 0;
    for (int p = 0; p < GO_CELLS; p++) {
        int x = GO_X(p), y = GO_Y(p);
        bool inside = x >= 0 && y >= 0 && x < b->size && y < b->size && p >= GO_STRIDE;
        int c = b->color[p];
        if (!inside) {
            if (c != GO_OFF)
                return GO_EINVAL;
            continue;
        }
        if (c == GO_EMPTY) {
            if (b->chain[p] != 0)
                return GO_EINVAL;
            continue;
        }
        if (c != GO_BLACK && c != GO_WHITE)
            return GO_EINVAL;
        hash ^= go_zob[c][p];
        int h = b->chain[p];
        if (h <= 0 || h >= GO_CELLS || b->color[h] != c || b->chain[h] != h)
            return GO_EINVAL;
        for (int d = 0; d < 4; d++) {
            int q = p + go_dir[d];
            if (b->color[q] == c && b->chain[q] != h)
                return GO_EINVAL; /* adjacent same colour in another chain */
        }
        if (h != p || seen[p])
            continue;
        /* walk the chain from its head: every stone ours, count and liberties exact */
        int n = 0, libs = 0;
        uint8_t lib[GO_CELLS];
        memset(lib, 0, sizeof lib);
        int s = h;
        do {
            if (b->color[s] != c || b->chain[s] != h || seen[s] || n > GO_CELLS)
                return GO_EINVAL;
            seen[s] = 1;
            n++;
            for (int d = 0; d < 4; d++) {
                int q = s + go_dir[d];
                if (b->color[q] == GO_EMPTY && !lib[q]) {
                    lib[q] = 1;
                    libs++;
                }
            }
            s = b->next[s];
        } while (s != h);
        if (n != b->stones[h] || libs != b->libs[h] || libs == 0)
            return GO_EINVAL;
    }
    /* every stone was reached from its head */
    for (int p = 0; p < GO_CELLS; p++)
        if ((b->color[p] == GO_BLACK || b->color[p] == GO_WHITE) && !seen[p])
            return GO_EINVAL;
    if (hash != b->hash)
        return GO_EINVAL;
    if (b->ko && (!go_board_on(b, b->ko) || b->color[b->ko] != GO_EMPTY))
        return GO_EINVAL;
    if (b->prisoners[GO_BLACK] < 0 || b->prisoners[GO_WHITE] < 0)
        return GO_EINVAL;
    return GO_OK;
}

/* ---- text ---- */

int go_board_from_ascii(go_board_t *b, const char *text)
{
    if (!b || !text)
        return GO_EINVAL;
    /* first pass: count non-empty rows and check their widths */
    int rows = 0, width = -1;
    const char *s = text;
    while (*s) {
        int w = 0;
        for (; *s && *s != '\n'; s++) {
            char ch = *s;
            if (ch == ' ' || ch == '\t' || ch == '\r')
                continue;
            if (ch != '.' && ch != '+' && ch != 'X' && ch != 'O')
                return GO_EPARSE;
            w++;
        }
        if (*s == '\n')
            s++;
        if (w == 0)
            continue;
        if (width >= 0 && w != width)
            return GO_EPARSE;
        width = w;
        rows++;
    }
    if (rows < GO_MIN_SIZE || rows > GO_MAX_SIZE || width != rows)
        return GO_EPARSE;
    go_board_t nb;
    go_board_init(&nb, rows);
    int y = 0;
    s = text;
    while (*s) {
        int x = 0;
        for (; *s && *s != '\n'; s++) {
            char ch = *s;
            if (ch == ' ' || ch == '\t' || ch == '\r')
                continue;
            if (ch == 'X')
                nb.color[GO_PT(x, y)] = GO_BLACK;
            else if (ch == 'O')
                nb.color[GO_PT(x, y)] = GO_WHITE;
            x++;
        }
        if (*s == '\n')
            s++;
        if (x)
            y++;
    }
    go_board_rebuild(&nb);
    *b = nb;
    return GO_OK;
}

int go_board_to_ascii(const go_board_t *b, char *buf, int len)
{
    if (!b || !buf || len < b->size * (b->size + 1) + 1)
        return GO_EINVAL;
    static const char sym[4] = { '.', 'X', 'O', '?' };
    int k = 0;
    for (int y = 0; y < b->size; y++) {
        for (int x = 0; x < b->size; x++)
            buf[k++] = sym[b->color[GO_PT(x, y)] & 3];
        buf[k++] = '\n';
    }
    buf[k] = '\0';
    return GO_OK;
}

int go_point_from_sgf(int size, const char *s, int n)
{
    if (size < GO_MIN_SIZE || size > GO_MAX_SIZE || n < 0 || (n > 0 && !s))
        return GO_EINVAL;
    if (n == 0)
        return GO_PASS;
    if (n != 2 || s[0] < 'a' || s[0] > 'z' || s[1] < 'a' || s[1] > 'z')
        return GO_EINVAL;
    if (size <= 19 && s[0] == 't' && s[1] == 't')
        return GO_PASS;
    int x = s[0] - 'a', y = s[1] - 'a';
    if (x >= size || y >= size)
        return GO_EINVAL;
    return GO_PT(x, y);
}

void go_point_to_sgf(int p, char out[3])
{
    int x = GO_X(p), y = GO_Y(p);
    if (p <= 0 || p >= GO_CELLS || x < 0 || y < 0 || x >= GO_MAX_SIZE || y >= GO_MAX_SIZE) {
        out[0] = '\0';
        return;
    }
    out[0] = (char)('a' + x);
    out[1] = (char)('a' + y);
    out[2] = '\0';
}
