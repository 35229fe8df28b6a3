/* sgf.c: the SGF reader and writer of sgf.h.
 *
 * Reader: one pass over the bytes, iterative (a stack of open '(' on the heap, bounded
 * by max_depth), building nodes in an arena. A node's properties and a property's values
 * are gathered in scratch arrays and copied into the arena when complete, so every array
 * in the tree is exact-size and the whole tree dies with the arena. A value is scanned
 * once to find its ']' (and the limit), then unescaped straight into the arena.
 * After a game tree is closed its text values are converted to UTF-8 (see sgf.h).
 *
 * Writer: iterative too (a stack of open variations), into a growing malloc'd buffer.
 */
#include "rules/sgf.h"

#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rules/go_board.h"
#include "safeio/sio.h"

#define MAX_IDENT 64

/* ---- arena ---------------------------------------------------------------------- */

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];
} chunk_t;

struct sgf_arena {
    chunk_t *head;
};

enum { CHUNK_SIZE = 256 * 1024 };

static void *arena_alloc(sgf_arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    chunk_t *h = a->head;
    if (h && h->cap - h->used >= n) {
        void *r = (char *)h->data + h->used;
        h->used += n;
        return r;
    }
    if (n > CHUNK_SIZE / 4) {
        /* big block: its own chunk, behind the head so the head keeps serving */
        if (n > SIZE_MAX - sizeof(chunk_t))
            return NULL;
        chunk_t *c = malloc(sizeof(chunk_t) + n);
        if (!c)
            return NULL;
        c->used = c->cap = n;
        if (h) {
            c->next = h->next;
            h->next = c;
        } else {
            c->next = NULL;
            a->head = c;
        }
        return c->data;
    }
    chunk_t *c = malloc(sizeof(chunk_t) + CHUNK_SIZE);
    if (!c)
        return NULL;
    c->cap = CHUNK_SIZE;
    c->used = n;
    c->next = h;
    a->head = c;
    return c->data;
}

static void arena_free_all(sgf_arena_t *a)
{
    chunk_t *c = a->head;
    while (c) {
        chunk_t *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
}

/* Free every chunk but a standard-size head, which is emptied for reuse. */
static void arena_reset(sgf_arena_t *a)
{
    chunk_t *h = a->head;
    if (!h || h->cap != CHUNK_SIZE) {
        arena_free_all(a);
        return;
    }
    chunk_t *c = h->next;
    while (c) {
        chunk_t *n = c->next;
        free(c);
        c = n;
    }
    h->next = NULL;
    h->used = 0;
}

static char *arena_strndup(sgf_arena_t *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* ---- errors --------------------------------------------------------------------- */

const char *sgf_strerror(int code)
{
    if (code == SGF_ELIMIT)
        return "input exceeds a limit";
    return go_strerror(code);
}

static void set_err(sgf_error_t *e, int code, int line, int col, int game, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void set_err(sgf_error_t *e, int code, int line, int col, int game, const char *fmt, ...)
{
    if (!e)
        return;
    e->code = code;
    e->line = line;
    e->col = col;
    e->game = game;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

void sgf_opts_defaults(sgf_opts_t *o)
{
    o->max_input = (size_t)256 << 20;
    o->max_depth = 10000;
    o->max_value = (size_t)16 << 20;
    o->charset = NULL;
}

/* ---- known identifiers (shared static strings save memory) --------------------- */

static const char *const known_ids[] = {
    "B", "W", "C", "N", "AB", "AW", "AE", "PL", "LB", "TR", "SQ", "CR", "MA", "SL", "DD",
    "TW", "TB", "BL", "WL", "OB", "OW", "BM", "DO", "IT", "TE", "DM", "GB", "GW", "HO", "UC",
    "V", "MN", "KO", "AR", "LN", "VW", "FG", "PM", "AP", "CA", "FF", "GM", "ST", "SZ", "AN",
    "BR", "BT", "CP", "DT", "EV", "GN", "GC", "ON", "OT", "PB", "PC", "PW", "RE", "RO", "RU",
    "SO", "TM", "US", "WR", "WT", "HA", "KM", NULL
};

static const char *intern_id(const char *s, size_t n)
{
    for (int i = 0; known_ids[i]; i++)
        if (strlen(known_ids[i]) == n && !memcmp(known_ids[i], s, n))
            return known_ids[i];
    return NULL;
}

/* ---- charsets ------------------------------------------------------------------- */

static bool is_utf8_name(const char *n)
{
    return !strcasecmp(n, "UTF-8") || !strcasecmp(n, "UTF8");
}

/* iconv name (and an alternative) for a CA[] value; dbcs tells whether the lexer must
 * step over two-byte characters. */
static void charset_map(const char *ca, const char **name, const char **alt, bool *dbcs)
{
    static const struct {
        const char *ca, *name, *alt;
        bool dbcs;
    } map[] = {
        { "GB2312", "GB18030", NULL, true }, { "GBK", "GB18030", NULL, true },
        { "GB18030", "GB18030", NULL, true }, { "CP936", "GB18030", NULL, true },
        { "EUC-CN", "GB18030", NULL, true }, { "BIG5", "BIG5-HKSCS", "BIG5", true },
        { "BIG-5", "BIG5-HKSCS", "BIG5", true }, { "CP950", "BIG5-HKSCS", "BIG5", true },
        { "BIG5-HKSCS", "BIG5-HKSCS", "BIG5", true }, { "EUC-KR", "CP949", "EUC-KR", true },
        { "CP949", "CP949", "EUC-KR", true }, { "UHC", "CP949", "EUC-KR", true },
        { "KS_C_5601-1987", "CP949", "EUC-KR", true }, { "KSC5601", "CP949", "EUC-KR", true },
        { "SHIFT_JIS", "CP932", "SHIFT_JIS", true }, { "SJIS", "CP932", "SHIFT_JIS", true },
        { "SHIFT-JIS", "CP932", "SHIFT_JIS", true }, { "CP932", "CP932", "SHIFT_JIS", true },
        { "LATIN1", "ISO-8859-1", NULL, false }, { "LATIN-1", "ISO-8859-1", NULL, false },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcasecmp(ca, map[i].ca)) {
            *name = map[i].name;
            *alt = map[i].alt;
            *dbcs = map[i].dbcs;
            return;
        }
    *name = ca;
    *alt = NULL;
    *dbcs = false;
}

static bool utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int k;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + (size_t)k >= n)
            return false;
        for (int j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + j] & 0x3F);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += (size_t)k + 1;
    }
    return true;
}

static bool has_high(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return true;
    return false;
}

/* Convert in[0..n) with cd into a malloc'd buffer. strict: fail (return -1) on any bad
 * sequence; otherwise each bad byte becomes U+FFFD. */
static int iconv_value(iconv_t cd, const char *in, size_t n, bool strict, char **out, size_t *outn)
{
    size_t cap = n * 4 + 16;
    char *buf = malloc(cap);
    if (!buf)
        return GO_ENOMEM;
    iconv(cd, NULL, NULL, NULL, NULL);
    char *ip = (char *)in, *op = buf;
    size_t il = n, ol = cap - 1;
    while (il > 0) {
        size_t r = iconv(cd, &ip, &il, &op, &ol);
        if (r != (size_t)-1)
            break;
        if (errno == E2BIG) { /* cannot happen with 4x, but be safe */
            free(buf);
            return GO_EINVAL;
        }
        if (strict) {
            free(buf);
            return GO_EINVAL;
        }
        /* EILSEQ / EINVAL: replace one byte */
        if (ol < 3) {
            free(buf);
            return GO_EINVAL;
        }
        memcpy(op, "\xEF\xBF\xBD", 3);
        op += 3;
        ol -= 3;
        ip++;
        il--;
        iconv(cd, NULL, NULL, NULL, NULL);
    }
    if (strict) {
        size_t r = iconv(cd, NULL, NULL, &op, &ol);
        if (r == (size_t)-1) {
            free(buf);
            return GO_EINVAL;
        }
    }
    *op = 0;
    *outn = (size_t)(op - buf);
    *out = buf;
    return 0;
}

/* Next node of a depth-first walk of root's subtree, or NULL at the end. */
static const sgf_node_t *walk_next(const sgf_node_t *root, const sgf_node_t *n)
{
    if (n->child)
        return n->child;
    while (n != root && !n->sibling)
        n = n->parent;
    return n == root ? NULL : n->sibling;
}

enum { CONV_CHECK, CONV_ICONV, CONV_LATIN1 };

/* Visit every value with high bytes: CONV_CHECK returns nonzero when one fails strict
 * conversion with cd; CONV_ICONV converts tolerantly; CONV_LATIN1 maps bytes to U+00xx. */
static int convert_tree(sgf_arena_t *a, sgf_node_t *root, iconv_t cd, int mode)
{
    for (const sgf_node_t *cn = root; cn; cn = walk_next(root, cn)) {
        sgf_node_t *n = (sgf_node_t *)cn;
        for (int i = 0; i < n->nprops; i++) {
            sgf_prop_t *pr = &n->props[i];
            for (int v = 0; v < pr->nvalues; v++) {
                if (!has_high(pr->values[v], pr->lens[v]))
                    continue;
                if (mode == CONV_LATIN1) {
                    size_t m = 0;
                    const unsigned char *s = (const unsigned char *)pr->values[v];
                    for (size_t k = 0; k < pr->lens[v]; k++)
                        m += s[k] >= 0x80 ? 2 : 1;
                    char *d = arena_alloc(a, m + 1);
                    if (!d)
                        return GO_ENOMEM;
                    size_t o = 0;
                    for (size_t k = 0; k < pr->lens[v]; k++) {
                        if (s[k] >= 0x80) {
                            d[o++] = (char)(0xC0 | (s[k] >> 6));
                            d[o++] = (char)(0x80 | (s[k] & 0x3F));
                        } else {
                            d[o++] = (char)s[k];
                        }
                    }
                    d[o] = 0;
                    pr->values[v] = d;
                    pr->lens[v] = o;
                    continue;
                }
                char *out;
                size_t outn;
                int rc = iconv_value(cd, pr->values[v], pr->lens[v], mode == CONV_CHECK, &out, &outn);
                if (mode == CONV_CHECK) {
                    if (rc)
                        return rc == GO_ENOMEM ? rc : 1;
                    free(out);
                    continue;
                }
                if (rc)
                    return rc;
                char *d = arena_strndup(a, out, outn);
                free(out);
                if (!d)
                    return GO_ENOMEM;
                pr->values[v] = d;
                pr->lens[v] = outn;
            }
        }
    }
    return 0;
}

static bool tree_utf8(const sgf_node_t *root)
{
    for (const sgf_node_t *n = root; n; n = walk_next(root, n))
        for (int i = 0; i < n->nprops; i++)
            for (int v = 0; v < n->props[i].nvalues; v++)
                if (!utf8_valid((const unsigned char *)n->props[i].values[v], n->props[i].lens[v]))
                    return false;
    return true;
}

static bool tree_has_high(const sgf_node_t *root)
{
    for (const sgf_node_t *n = root; n; n = walk_next(root, n))
        for (int i = 0; i < n->nprops; i++)
            for (int v = 0; v < n->props[i].nvalues; v++)
                if (has_high(n->props[i].values[v], n->props[i].lens[v]))
                    return true;
    return false;
}

/* Convert a finished tree to UTF-8; *used gets the charset read (static string). */
static int tree_to_utf8(sgf_arena_t *a, sgf_node_t *root, const char *fallback, const char **used)
{
    sgf_prop_t *ca = NULL;
    for (int i = 0; i < root->nprops; i++)
        if (!strcmp(root->props[i].key, "CA")) {
            ca = &root->props[i];
            break;
        }
    const char *declared = ca ? ca->values[0] : fallback;
    *used = "UTF-8";
    int rc = 0;
    bool done = false;
    if (declared && *declared && !is_utf8_name(declared)) {
        const char *name, *alt;
        bool dbcs;
        charset_map(declared, &name, &alt, &dbcs);
        iconv_t cd = iconv_open("UTF-8", name);
        if (cd == (iconv_t)-1 && alt) {
            name = alt;
            cd = iconv_open("UTF-8", name);
        }
        if (cd != (iconv_t)-1) {
            if (!strcasecmp(name, "ISO-8859-1"))
                rc = convert_tree(a, root, cd, CONV_LATIN1);
            else
                rc = convert_tree(a, root, cd, CONV_ICONV);
            iconv_close(cd);
            *used = name;
            done = true;
        }
    }
    if (!done && tree_has_high(root) && !tree_utf8(root)) {
        iconv_t cd = iconv_open("UTF-8", "GB18030");
        int bad = 1;
        if (cd != (iconv_t)-1) {
            bad = convert_tree(a, root, cd, CONV_CHECK);
            if (bad == 0) {
                rc = convert_tree(a, root, cd, CONV_ICONV);
                *used = "GB18030";
            }
            iconv_close(cd);
        }
        if (bad == GO_ENOMEM)
            return bad;
        if (bad) {
            rc = convert_tree(a, root, NULL, CONV_LATIN1);
            *used = "ISO-8859-1";
        }
    }
    if (rc)
        return rc;
    if (ca && strcmp(*used, "UTF-8")) {
        char *u = arena_strndup(a, "UTF-8", 5);
        if (!u)
            return GO_ENOMEM;
        ca->values[0] = u;
        ca->lens[0] = 5;
    }
    return 0;
}

/* ---- parser --------------------------------------------------------------------- */

typedef struct frame {
    sgf_node_t *node;   /* the current node when '(' was read */
    int line, col;      /* where the '(' is */
} frame_t;

typedef struct parser {
    const unsigned char *p, *end;
    int line;
    const unsigned char *line_start;
    sgf_opts_t o;
    sgf_arena_t *arena;
    sgf_error_t *err;
    int game;
    bool dbcs, ca_seen;
    sgf_prop_t *props;
    int nprops, capprops;
    char **vals;
    size_t *lens;
    int nvals, capvals;
    frame_t *stack;
    int depth, capstack;
} parser_t;

static int col_of(const parser_t *P, const unsigned char *at)
{
    return (int)(at - P->line_start) + 1;
}

static int perr(parser_t *P, int code, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int perr(parser_t *P, int code, int line, int col, const char *fmt, ...)
{
    if (P->err) {
        P->err->code = code;
        P->err->line = line;
        P->err->col = col;
        P->err->game = P->game;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(P->err->msg, sizeof P->err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int nomem(parser_t *P)
{
    return perr(P, GO_ENOMEM, P->line, col_of(P, P->p), "out of memory");
}

static void skip_ws(parser_t *P)
{
    const unsigned char *p = P->p;
    while (p < P->end) {
        unsigned char c = *p;
        if (c == '\n') {
            P->line++;
            P->line_start = p + 1;
        } else if (!(c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f')) {
            break;
        }
        p++;
    }
    P->p = p;
}

static bool dbcs_pair(const unsigned char *q, const unsigned char *end)
{
    return q[0] >= 0x81 && q[0] <= 0xFE && q + 1 < end && q[1] >= 0x40 && q[1] != 0x7F &&
           q[1] <= 0xFE;
}

/* Read one [value] at P->p (which is '['), append it to the scratch values. */
static int parse_value(parser_t *P)
{
    const unsigned char *open = P->p;
    int oline = P->line, ocol = col_of(P, open);
    const unsigned char *q = open + 1, *end = P->end;
    bool dbcs = P->dbcs;
    while (q < end && *q != ']') {
        if (*q == '\\') {
            if (end - q < 2)
                break;
            q += 2;
        }
        else if (dbcs && *q >= 0x81 && dbcs_pair(q, end))
            q += 2;
        else
            q++;
    }
    if (q >= end || *q != ']')
        return perr(P, GO_EPARSE, oline, ocol, "value never closed: missing ']' for this '['");
    size_t raw = (size_t)(q - open - 1);
    if (raw > P->o.max_value)
        return perr(P, SGF_ELIMIT, oline, ocol, "value of %zu bytes exceeds the limit of %zu", raw,
                    P->o.max_value);
    char *d = arena_alloc(P->arena, raw + 1);
    if (!d)
        return nomem(P);
    size_t n = 0;
    const unsigned char *s = open + 1;
    while (s < q) {
        unsigned char c = *s;
        if (c == '\\') {
            unsigned char e = s[1];
            s += 2;
            if (e == '\n' || e == '\r') {
                /* soft line break: drop it, with the other half of a CRLF / LFCR pair */
                bool lf = e == '\n';
                if (s < q && (*s == '\n' || *s == '\r') && *s != e) {
                    lf = lf || *s == '\n';
                    s++;
                }
                if (lf) {
                    P->line++;
                    P->line_start = s;
                }
                continue;
            }
            d[n++] = (char)e;
            continue;
        }
        if (dbcs && c >= 0x81 && dbcs_pair(s, q)) {
            d[n++] = (char)c;
            d[n++] = (char)s[1];
            s += 2;
            continue;
        }
        if (c == '\n') {
            P->line++;
            P->line_start = s + 1;
        }
        d[n++] = (char)c;
        s++;
    }
    d[n] = 0;
    if (P->nvals == P->capvals) {
        int nc = P->capvals ? P->capvals * 2 : 16;
        char **nv = realloc(P->vals, (size_t)nc * sizeof *nv);
        if (!nv)
            return nomem(P);
        P->vals = nv;
        size_t *nl = realloc(P->lens, (size_t)nc * sizeof *nl);
        if (!nl)
            return nomem(P);
        P->lens = nl;
        P->capvals = nc;
    }
    P->vals[P->nvals] = d;
    P->lens[P->nvals] = n;
    P->nvals++;
    P->p = q + 1;
    return 0;
}

/* Read a property (identifier and values) at P->p into the scratch properties. */
static int parse_property(parser_t *P, bool in_root)
{
    const unsigned char *start = P->p;
    int sline = P->line, scol = col_of(P, start);
    char ident[MAX_IDENT + 1], key[MAX_IDENT + 1];
    size_t ni = 0, nk = 0;
    while (P->p < P->end && ((*P->p >= 'A' && *P->p <= 'Z') || (*P->p >= 'a' && *P->p <= 'z'))) {
        if (ni == MAX_IDENT)
            return perr(P, GO_EPARSE, sline, scol, "property identifier longer than %d letters",
                        MAX_IDENT);
        ident[ni++] = (char)*P->p;
        if (*P->p <= 'Z')
            key[nk++] = (char)*P->p;
        P->p++;
    }
    ident[ni] = key[nk] = 0;
    if (nk == 0)
        return perr(P, GO_EPARSE, sline, scol, "property identifier '%s' has no upper-case letter",
                    ident);
    skip_ws(P);
    if (P->p >= P->end || *P->p != '[')
        return perr(P, GO_EPARSE, sline, scol, "property %s has no value: expected '['", ident);
    P->nvals = 0;
    while (P->p < P->end && *P->p == '[') {
        int rc = parse_value(P);
        if (rc)
            return rc;
        skip_ws(P);
    }
    sgf_prop_t pr;
    const char *kk = intern_id(key, nk);
    pr.key = kk ? kk : arena_strndup(P->arena, key, nk);
    pr.id = ni == nk ? pr.key : arena_strndup(P->arena, ident, ni);
    pr.nvalues = P->nvals;
    pr.values = arena_alloc(P->arena, (size_t)P->nvals * sizeof(char *));
    pr.lens = arena_alloc(P->arena, (size_t)P->nvals * sizeof(size_t));
    if (!pr.key || !pr.id || !pr.values || !pr.lens)
        return nomem(P);
    memcpy(pr.values, P->vals, (size_t)P->nvals * sizeof(char *));
    memcpy(pr.lens, P->lens, (size_t)P->nvals * sizeof(size_t));
    if (P->nprops == P->capprops) {
        int nc = P->capprops ? P->capprops * 2 : 16;
        sgf_prop_t *np = realloc(P->props, (size_t)nc * sizeof *np);
        if (!np)
            return nomem(P);
        P->props = np;
        P->capprops = nc;
    }
    P->props[P->nprops++] = pr;
    if (in_root && !P->ca_seen && !strcmp(pr.key, "CA")) {
        P->ca_seen = true;
        const char *name, *alt;
        bool dbcs;
        charset_map(pr.values[0], &name, &alt, &dbcs);
        P->dbcs = dbcs;
    }
    return 0;
}

/* Copy the scratch properties into node. */
static int finish_node(parser_t *P, sgf_node_t *node)
{
    if (!node)
        return 0;
    node->nprops = P->nprops;
    if (P->nprops) {
        node->props = arena_alloc(P->arena, (size_t)P->nprops * sizeof(sgf_prop_t));
        if (!node->props)
            return nomem(P);
        memcpy(node->props, P->props, (size_t)P->nprops * sizeof(sgf_prop_t));
    }
    P->nprops = 0;
    return 0;
}

static void link_child(sgf_node_t *parent, sgf_node_t *n)
{
    n->parent = parent;
    if (!parent)
        return;
    if (parent->last)
        parent->last->sibling = n;
    else
        parent->child = n;
    parent->last = n;
}

/* Parse one game tree; P->p is at its '('. */
static int parse_tree(parser_t *P, sgf_node_t **rootp)
{
    sgf_node_t *cur = NULL, *root = NULL, *open = NULL;
    bool need_node = false;
    P->depth = 0;
    P->nprops = 0;
    {
        const char *name = NULL, *alt;
        bool dbcs = false;
        if (P->o.charset)
            charset_map(P->o.charset, &name, &alt, &dbcs);
        P->dbcs = dbcs;
        P->ca_seen = false;
    }
    for (;;) {
        skip_ws(P);
        if (P->p >= P->end) {
            if (P->depth == 0)      /* cannot happen: find_tree stops at a '(' */
                return perr(P, GO_EPARSE, P->line, 1, "no game tree");
            frame_t *f = &P->stack[P->depth - 1];
            return perr(P, GO_EPARSE, f->line, f->col,
                        "game tree never closed: missing ')' for this '(' (end of input at line %d)",
                        P->line);
        }
        unsigned char c = *P->p;
        int line = P->line, col = col_of(P, P->p);
        if (c == ';') {
            int rc = finish_node(P, open);
            if (rc)
                return rc;
            sgf_node_t *n = arena_alloc(P->arena, sizeof *n);
            if (!n)
                return nomem(P);
            memset(n, 0, sizeof *n);
            n->line = line;
            n->col = col;
            link_child(cur, n);
            if (!root)
                root = n;
            cur = open = n;
            need_node = false;
            P->p++;
        } else if (c == '(') {
            if (need_node)
                return perr(P, GO_EPARSE, line, col, "expected ';' (a node) after '('");
            int rc = finish_node(P, open);
            if (rc)
                return rc;
            open = NULL;
            if (P->depth >= P->o.max_depth)
                return perr(P, SGF_ELIMIT, line, col, "variations nested deeper than %d",
                            P->o.max_depth);
            if (P->depth == P->capstack) {
                int nc = P->capstack ? P->capstack * 2 : 64;
                frame_t *ns = realloc(P->stack, (size_t)nc * sizeof *ns);
                if (!ns)
                    return nomem(P);
                P->stack = ns;
                P->capstack = nc;
            }
            P->stack[P->depth++] = (frame_t){ cur, line, col };
            need_node = true;
            P->p++;
        } else if (c == ')') {
            if (need_node)
                return perr(P, GO_EPARSE, line, col, "empty game tree: expected ';' before ')'");
            if (P->depth == 0)      /* cannot happen: find_tree stops at a '(' */
                return perr(P, GO_EPARSE, line, col, "')' without its '('");
            int rc = finish_node(P, open);
            if (rc)
                return rc;
            open = NULL;
            cur = P->stack[--P->depth].node;
            P->p++;
            if (P->depth == 0) {
                *rootp = root;
                return 0;
            }
        } else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
            if (need_node)
                return perr(P, GO_EPARSE, line, col, "expected ';' (a node) after '('");
            if (!open)
                return perr(P, GO_EPARSE, line, col, "property outside a node: expected ';', '(' or ')'");
            int rc = parse_property(P, open == root);
            if (rc)
                return rc;
        } else if (c == ']' || c == '[') {
            return perr(P, GO_EPARSE, line, col, "unexpected '%c' (no property identifier before it)", c);
        } else if (c >= 0x21 && c < 0x7F) {
            return perr(P, GO_EPARSE, line, col, "unexpected character '%c'", c);
        } else {
            return perr(P, GO_EPARSE, line, col, "unexpected byte 0x%02x", c);
        }
    }
}

/* Skip to the next '(' followed by ';' (whitespace between); true when found. */
static bool find_tree(parser_t *P)
{
    while (P->p < P->end) {
        const unsigned char *q = memchr(P->p, '(', (size_t)(P->end - P->p));
        const unsigned char *stop = q ? q : P->end;
        for (const unsigned char *s = P->p; s < stop; s++)
            if (*s == '\n') {
                P->line++;
                P->line_start = s + 1;
            }
        P->p = stop;
        if (!q)
            return false;
        const unsigned char *save = P->p;
        int sline = P->line;
        const unsigned char *sls = P->line_start;
        P->p++;
        skip_ws(P);
        bool ok = P->p < P->end && *P->p == ';';
        if (ok) {
            P->p = save;
            P->line = sline;
            P->line_start = sls;
            return true;
        }
    }
    return false;
}

static int add_game(sgf_collection_t *c, sgf_node_t *root, const char *charset)
{
    if (c->ngames == c->cap) {
        int nc = c->cap ? c->cap * 2 : 8;
        // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
        sgf_node_t **ng = arena_alloc(c->arena, (size_t)nc * sizeof *ng);
        const char **ncs = arena_alloc(c->arena, (size_t)nc * sizeof *ncs);
        if (!ng || !ncs)
            return GO_ENOMEM;
        if (c->ngames) {
            // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
            memcpy(ng, c->games, (size_t)c->ngames * sizeof *ng);
            memcpy(ncs, c->charsets, (size_t)c->ngames * sizeof *ncs);
        }
        c->games = ng;
        c->charsets = ncs;
        c->cap = nc;
    }
    c->games[c->ngames] = root;
    c->charsets[c->ngames] = charset;
    c->ngames++;
    return 0;
}

static int parse_core(const char *data, size_t len, const sgf_opts_t *opts, sgf_collection_t *coll,
                      sgf_arena_t *arena, sgf_game_fn fn, void *ctx, sgf_error_t *err)
{
    parser_t P;
    memset(&P, 0, sizeof P);
    if (opts)
        P.o = *opts;
    else
        sgf_opts_defaults(&P.o);
    if (P.o.max_depth <= 0)
        P.o.max_depth = 1;
    P.err = err;
    P.arena = arena;
    P.game = -1;
    P.line = 1;
    if (err)
        memset(err, 0, sizeof *err);
    if (!data && len)
        return perr(&P, GO_EINVAL, 0, 0, "no input");
    if (len > P.o.max_input) {
        set_err(err, SGF_ELIMIT, 0, 0, -1, "input of %zu bytes exceeds the limit of %zu", len,
                P.o.max_input);
        return SGF_ELIMIT;
    }
    P.p = P.line_start = (const unsigned char *)(data ? data : "");
    P.end = P.p + len;
    int rc = 0, index = 0;
    while (find_tree(&P)) {
        P.game = index;
        sgf_node_t *root = NULL;
        rc = parse_tree(&P, &root);
        if (rc || !root) {      /* parse_tree gives a root whenever it returns 0 */
            rc = rc ? rc : perr(&P, GO_EPARSE, P.line, 1, "empty game tree");
            break;
        }
        const char *used = "UTF-8";
        rc = tree_to_utf8(arena, root, P.o.charset, &used);
        if (rc) {
            perr(&P, rc, root->line, root->col, "out of memory converting the text to UTF-8");
            break;
        }
        if (coll) {
            rc = add_game(coll, root, used);
            if (rc) {
                nomem(&P);
                break;
            }
        } else {
            rc = fn(ctx, root, index, used);
            arena_reset(arena);
            if (rc)
                break;
        }
        index++;
    }
    if (!rc && index == 0)
        rc = perr(&P, GO_EPARSE, 1, 1, "no game tree found (no '(' followed by ';')");
    free(P.props);
    free(P.vals);
    free(P.lens);
    free(P.stack);
    return rc;
}

sgf_collection_t *sgf_collection_create(void)
{
    sgf_collection_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->arena = calloc(1, sizeof *c->arena);
    if (!c->arena) {
        free(c);
        return NULL;
    }
    return c;
}

void sgf_collection_destroy(sgf_collection_t *c)
{
    if (!c)
        return;
    if (c->arena) {
        arena_free_all(c->arena);
        free(c->arena);
    }
    free(c);
}

int sgf_parse(const char *data, size_t len, const sgf_opts_t *opts, sgf_collection_t **out,
              sgf_error_t *err)
{
    sgf_collection_t *c = sgf_collection_create();
    if (!c) {
        set_err(err, GO_ENOMEM, 0, 0, -1, "out of memory");
        return GO_ENOMEM;
    }
    int rc = parse_core(data, len, opts, c, c->arena, NULL, NULL, err);
    if (rc) {
        sgf_collection_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

int sgf_parse_each(const char *data, size_t len, const sgf_opts_t *opts, sgf_game_fn fn,
                   void *ctx, sgf_error_t *err)
{
    sgf_arena_t a = { NULL };
    if (!fn) {
        set_err(err, GO_EINVAL, 0, 0, -1, "no callback");
        return GO_EINVAL;
    }
    int rc = parse_core(data, len, opts, NULL, &a, fn, ctx, err);
    arena_free_all(&a);
    return rc;
}

int sgf_read_file(const char *path, const sgf_opts_t *opts, char **data, size_t *len,
                  sgf_error_t *err)
{
    sgf_opts_t o;
    if (opts)
        o = *opts;
    else
        sgf_opts_defaults(&o);
    if (err)
        memset(err, 0, sizeof *err);
    if (!path || !data || !len) {
        set_err(err, GO_EINVAL, 0, 0, -1, "no file");
        return GO_EINVAL;
    }
    int sys = 0, rc = sio_read_file(path, o.max_input, data, len, &sys);
    switch (rc) {
    case SIO_OK:
        return 0;
    case SIO_ETOOBIG:
        set_err(err, SGF_ELIMIT, 0, 0, -1, "file larger than the limit of %zu bytes",
                o.max_input);
        return SGF_ELIMIT;
    case SIO_ENOMEM:
        set_err(err, GO_ENOMEM, 0, 0, -1, "out of memory");
        return GO_ENOMEM;
    default:
        if (sys == EISDIR)
            set_err(err, GO_EIO, 0, 0, -1, "is a directory");
        else
            set_err(err, GO_EIO, 0, 0, -1, "cannot open: %s", strerror(sys));
        return GO_EIO;
    }
}

int sgf_parse_file(const char *path, const sgf_opts_t *opts, sgf_collection_t **out,
                   sgf_error_t *err)
{
    sgf_opts_t o;
    if (opts)
        o = *opts;
    else
        sgf_opts_defaults(&o);
    char *data;
    size_t len;
    int rc = sgf_read_file(path, &o, &data, &len, err);
    if (rc)
        return rc;
    rc = sgf_parse(data, len, &o, out, err);
    free(data);
    return rc;
}

/* ---- building ------------------------------------------------------------------- */

sgf_node_t *sgf_node_new(sgf_collection_t *c, sgf_node_t *parent)
{
    sgf_node_t *n = arena_alloc(c->arena, sizeof *n);
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    link_child(parent, n);
    if (!parent && add_game(c, n, "UTF-8"))
        return NULL;
    return n;
}

int sgf_node_add(sgf_collection_t *c, sgf_node_t *node, const char *key, const char *const *values,
                 int n)
{
    if (!c || !node || !key || !*key || n < 1 || !values)
        return GO_EINVAL;
    for (const char *k = key; *k; k++)
        if (*k < 'A' || *k > 'Z')
            return GO_EINVAL;
    sgf_prop_t *np = arena_alloc(c->arena, (size_t)(node->nprops + 1) * sizeof *np);
    if (!np)
        return GO_ENOMEM;
    if (node->nprops)
        memcpy(np, node->props, (size_t)node->nprops * sizeof *np);
    sgf_prop_t *pr = &np[node->nprops];
    const char *kk = intern_id(key, strlen(key));
    pr->key = pr->id = kk ? kk : arena_strndup(c->arena, key, strlen(key));
    pr->nvalues = n;
    pr->values = arena_alloc(c->arena, (size_t)n * sizeof(char *));
    pr->lens = arena_alloc(c->arena, (size_t)n * sizeof(size_t));
    if (!pr->key || !pr->values || !pr->lens)
        return GO_ENOMEM;
    for (int i = 0; i < n; i++) {
        const char *v = values[i] ? values[i] : "";
        pr->lens[i] = strlen(v);
        pr->values[i] = arena_strndup(c->arena, v, pr->lens[i]);
        if (!pr->values[i])
            return GO_ENOMEM;
    }
    node->props = np;
    node->nprops++;
    return 0;
}

const sgf_prop_t *sgf_node_find(const sgf_node_t *node, const char *key)
{
    if (!node)
        return NULL;
    for (int i = 0; i < node->nprops; i++)
        if (!strcmp(node->props[i].key, key))
            return &node->props[i];
    return NULL;
}

const char *sgf_node_value(const sgf_node_t *node, const char *key)
{
    const sgf_prop_t *p = sgf_node_find(node, key);
    return p ? p->values[0] : NULL;
}

int sgf_node_nchildren(const sgf_node_t *node)
{
    int n = 0;
    for (const sgf_node_t *c = node ? node->child : NULL; c; c = c->sibling)
        n++;
    return n;
}

/* ---- writer --------------------------------------------------------------------- */

typedef struct wbuf {
    char *s;
    size_t n, cap;
    size_t col;   /* bytes since the last '\n' */
    bool oom;
} wbuf_t;

static void wput(wbuf_t *w, const char *s, size_t n)
{
    if (w->oom)
        return;
    if (w->cap - w->n < n + 1) {
        size_t nc = w->cap ? w->cap : 4096;
        while (nc - w->n < n + 1)
            nc *= 2;
        char *ns = realloc(w->s, nc);
        if (!ns) {
            w->oom = true;
            return;
        }
        w->s = ns;
        w->cap = nc;
    }
    memcpy(w->s + w->n, s, n);
    w->n += n;
    size_t k = n;
    while (k > 0 && s[k - 1] != '\n')
        k--;
    w->col = k ? n - k : w->col + n;
}

static void wnl(wbuf_t *w)
{
    if (w->col)
        wput(w, "\n", 1);
}

enum { WIDTH = 78 };

static void write_node(wbuf_t *w, const sgf_node_t *n)
{
    if (w->col + 8 > WIDTH)
        wnl(w);
    wput(w, ";", 1);
    for (int i = 0; i < n->nprops; i++) {
        const sgf_prop_t *p = &n->props[i];
        size_t est = strlen(p->key);
        for (int v = 0; v < p->nvalues; v++)
            est += p->lens[v] + 2;
        if (w->col > 1 && w->col + est > WIDTH)
            wnl(w);
        wput(w, p->key, strlen(p->key));
        for (int v = 0; v < p->nvalues; v++) {
            if (v && w->col + p->lens[v] + 2 > WIDTH)
                wnl(w);
            wput(w, "[", 1);
            const char *s = p->values[v];
            size_t len = p->lens[v], from = 0;
            for (size_t k = 0; k < len; k++)
                if (s[k] == ']' || s[k] == '\\') {
                    wput(w, s + from, k - from);
                    wput(w, "\\", 1);
                    from = k;
                }
            wput(w, s + from, len - from);
            wput(w, "]", 1);
        }
    }
}

/* Write root's tree: "(" sequence variations ")", without recursion. The stack holds the
 * first node of each open variation, to move on to its siblings. */
static int write_tree(wbuf_t *w, const sgf_node_t *root)
{
    size_t cap = 64, depth = 0;
    // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
    const sgf_node_t **stack = malloc(cap * sizeof *stack);
    if (!stack)
        return GO_ENOMEM;
    wnl(w);
    wput(w, "(", 1);
    const sgf_node_t *n = root;
    for (;;) {
        /* write the sequence from n down to a leaf or a fork */
        for (;;) {
            write_node(w, n);
            if (n->child && !n->child->sibling) {
                n = n->child;
                continue;
            }
            break;
        }
        if (n->child) { /* fork: open the first variation */
            if (depth == cap) {
                // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
                const sgf_node_t **ns = realloc(stack, cap * 2 * sizeof *ns);
                if (!ns) {
                    free(stack);
                    return GO_ENOMEM;
                }
                stack = ns;
                cap *= 2;
            }
            stack[depth++] = n->child;
            wnl(w);
            wput(w, "(", 1);
            n = n->child;
            continue;
        }
        /* leaf: close variations until one has a next sibling */
        for (;;) {
            wput(w, ")", 1);
            if (depth == 0) {
                free(stack);
                wput(w, "\n", 1);
                return w->oom ? GO_ENOMEM : 0;
            }
            const sgf_node_t *v = stack[depth - 1];
            if (v->sibling) {
                stack[depth - 1] = v->sibling;
                wnl(w);
                wput(w, "(", 1);
                n = v->sibling;
                break;
            }
            depth--;
        }
    }
}

int sgf_write_tree(const sgf_node_t *root, char **text, size_t *len)
{
    wbuf_t w = { 0 };
    int rc = root ? write_tree(&w, root) : GO_EINVAL;
    if (!rc && !w.s)
        wput(&w, "", 0);
    if (rc || w.oom) {
        free(w.s);
        return rc ? rc : GO_ENOMEM;
    }
    w.s[w.n] = 0;
    *text = w.s;
    *len = w.n;
    return 0;
}

int sgf_write(const sgf_collection_t *c, char **text, size_t *len)
{
    wbuf_t w = { 0 };
    int rc = 0;
    for (int i = 0; c && i < c->ngames && !rc; i++)
        rc = write_tree(&w, c->games[i]);
    if (!rc && !w.s)
        wput(&w, "", 0);
    if (rc || w.oom) {
        free(w.s);
        return rc ? rc : GO_ENOMEM;
    }
    w.s[w.n] = 0;
    *text = w.s;
    *len = w.n;
    return 0;
}

int sgf_write_file(const sgf_collection_t *c, const char *path)
{
    char *text;
    size_t len;
    int rc = sgf_write(c, &text, &len);
    if (rc)
        return rc;
    rc = sio_write_atomic(path, text, len, NULL);
    free(text);
    return rc == SIO_OK ? 0 : rc == SIO_ENOMEM ? GO_ENOMEM : GO_EIO;
}
