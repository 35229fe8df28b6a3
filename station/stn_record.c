/* stn_record.c: the SGF text of a game, its atomic rewrite, and reading it back.
 *
 * The writer is a small internal one (rec_sgf_text) until rules/sgf_game.h offers a
 * game writer to switch to; the reader follows the main line only (every node before
 * the first ')' of the text is on it) and understands what the writer writes plus the
 * usual properties of simple records.
 */
#include "station/stn_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a growable string ---- */

typedef struct rec_buf {
    char *s;
    size_t n, cap;
    int err;
} rec_buf_t;

static void rec_put(rec_buf_t *b, const char *s, size_t n)
{
    if (b->err)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->err = 1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void rec_puts(rec_buf_t *b, const char *s)
{
    rec_put(b, s, strlen(s));
}

static void rec_printf(rec_buf_t *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        rec_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A property value with ']' and '\' escaped. */
static void rec_value(rec_buf_t *b, const char *s)
{
    rec_puts(b, "[");
    for (; *s; s++) {
        if (*s == ']' || *s == '\\')
            rec_put(b, "\\", 1);
        rec_put(b, s, 1);
    }
    rec_puts(b, "]");
}

/* ---- metadata ---- */

void stn_meta_init(stn_meta_t *m)
{
    memset(m, 0, sizeof *m);
    m->first = GO_BLACK;
}

void stn_meta_setup_from(stn_meta_t *m, const go_game_t *g)
{
    const go_board_t *b = go_game_board(g);
    m->nab = m->naw = 0;
    for (int y = 0; y < b->size; y++) {
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            if (b->color[p] == GO_BLACK)
                m->ab[m->nab++] = (go_point_t)p;
            else if (b->color[p] == GO_WHITE)
                m->aw[m->naw++] = (go_point_t)p;
        }
    }
    m->first = go_game_turn(g);
}

/* SGF RU[] for a rules preset name. */
static const char *rec_ru(const char *name)
{
    static const char *const map[][2] = {
        { "chinese", "Chinese" }, { "japanese", "Japanese" }, { "korean", "Korean" },
        { "ing", "Ing" }, { "aga", "AGA" }, { "nz", "NZ" }, { "tromp-taylor", "Tromp-Taylor" },
    };
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i][0]) == 0)
            return map[i][1];
    return name;
}

static void rec_komi(char *out, size_t n, int komi2)
{
    if (komi2 % 2 == 0)
        snprintf(out, n, "%d", komi2 / 2);
    else
        snprintf(out, n, "%s%d.5", komi2 < 0 ? "-" : "", abs(komi2) / 2);
}

static void rec_point(rec_buf_t *b, int p)
{
    char s[3];
    go_point_to_sgf(p, s);
    rec_printf(b, "[%s]", s);
}

/* The internal SGF writer (to switch to rules/sgf_game.h when it offers one). */
static int rec_sgf_text(const go_game_t *g, const stn_meta_t *m, const stn_track_t *k,
                        char **text)
{
    rec_buf_t b = { 0 };
    const go_board_t *bd = go_game_board(g);
    char km[32];
    rec_komi(km, sizeof km, m->komi2);
    rec_printf(&b, "(;GM[1]FF[4]CA[UTF-8]AP[kifucam:0.1]SZ[%d]", bd->size);
    const char *ru = rec_ru(go_game_rules(g)->name);
    if (ru) {
        rec_puts(&b, "RU");
        rec_value(&b, ru);
    }
    rec_printf(&b, "KM[%s]", km);
    if (m->handicap > 0)
        rec_printf(&b, "HA[%d]", m->handicap);
    if (m->black[0]) {
        rec_puts(&b, "PB");
        rec_value(&b, m->black);
    }
    if (m->white[0]) {
        rec_puts(&b, "PW");
        rec_value(&b, m->white);
    }
    if (m->date[0]) {
        rec_puts(&b, "DT");
        rec_value(&b, m->date);
    }
    go_color_t res = go_game_resigned(g);
    if (res == GO_BLACK || res == GO_WHITE) {
        rec_printf(&b, "RE[%s+R]", res == GO_BLACK ? "W" : "B");
    } else if (m->result[0]) {
        rec_puts(&b, "RE");
        rec_value(&b, m->result);
    }
    if (m->nab) {
        rec_puts(&b, "AB");
        for (int i = 0; i < m->nab; i++)
            rec_point(&b, m->ab[i]);
    }
    if (m->naw) {
        rec_puts(&b, "AW");
        for (int i = 0; i < m->naw; i++)
            rec_point(&b, m->aw[i]);
    }
    if ((m->nab || m->naw) && m->first == GO_WHITE)
        rec_puts(&b, "PL[W]");
    int n = go_game_move_count(g);
    for (int i = 0; i < n; i++) {
        const go_move_t *mv = go_game_move(g, i);
        if (mv->kind == GO_MOVE_RESIGN)
            continue;
        rec_printf(&b, "\n;%s", mv->color == GO_WHITE ? "W" : "B");
        if (mv->kind == GO_MOVE_PASS)
            rec_puts(&b, "[]");
        else
            rec_point(&b, mv->point);
        const stn_move_info_t *in = k ? stn_track_info(k, i) : NULL;
        if (in && in->frame)
            rec_printf(&b, "KF[%llu:%.3f:%.3f]", (unsigned long long)in->frame, in->t,
                       in->t_hand);
        if (in && in->comment) {
            rec_puts(&b, "C");
            rec_value(&b, in->comment);
        }
    }
    rec_puts(&b, ")\n");
    if (b.err) {
        free(b.s);
        return GO_ENOMEM;
    }
    *text = b.s;
    return GO_OK;
}

int stn_record_sgf(const go_game_t *g, const stn_meta_t *m, const stn_track_t *k,
                   char **text)
{
    return rec_sgf_text(g, m, k, text);
}

/* ---- the atomic rewrite ---- */

int stn_record_write_atomic(const char *path, const char *text, size_t len, int *sys_errno)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16), *dir = malloc(pl + 2);
    if (!tmp || !dir) {
        free(tmp);
        free(dir);
        if (sys_errno)
            *sys_errno = ENOMEM;
        return GO_EIO;
    }
    snprintf(tmp, pl + 16, "%s.tmp", path);
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    int err = 0, fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        err = errno;
    } else {
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(fd, text + off, len - off);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                err = errno;
                break;
            }
            off += (size_t)w;
        }
        if (!err && fsync(fd) != 0)
            err = errno;
        if (close(fd) != 0 && !err)
            err = errno;
        if (!err && rename(tmp, path) != 0)
            err = errno;
        if (err)
            unlink(tmp);
    }
    if (!err) {
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            if (fsync(dfd) != 0 && errno != EINVAL)
                err = errno;
            close(dfd);
        }
    }
    free(tmp);
    free(dir);
    if (err) {
        if (sys_errno)
            *sys_errno = err;
        return GO_EIO;
    }
    return GO_OK;
}

/* ---- reading back ---- */

typedef struct rec_prop {
    int node;            /* 0 = root */
    char key[8];
    char *val;
} rec_prop_t;

typedef struct rec_props {
    rec_prop_t *v;
    int n, cap;
} rec_props_t;

static void rec_props_free(rec_props_t *ps)
{
    for (int i = 0; i < ps->n; i++)
        free(ps->v[i].val);
    free(ps->v);
}

static int rec_props_add(rec_props_t *ps, int node, const char *key, const char *val, size_t n)
{
    if (ps->n == ps->cap) {
        int cap = ps->cap ? ps->cap * 2 : 64;
        rec_prop_t *v = realloc(ps->v, (size_t)cap * sizeof *v);
        if (!v)
            return GO_ENOMEM;
        ps->v = v;
        ps->cap = cap;
    }
    char *s = malloc(n + 1);
    if (!s)
        return GO_ENOMEM;
    memcpy(s, val, n);
    s[n] = '\0';
    rec_prop_t *p = &ps->v[ps->n++];
    p->node = node;
    snprintf(p->key, sizeof p->key, "%s", key);
    p->val = s;
    return GO_OK;
}

/* Every property of the main line, in order. */
static int rec_lex(const char *s, size_t n, rec_props_t *ps)
{
    size_t i = 0;
    int node = -1, started = 0;
    char key[8] = "";
    size_t klen = 0;
    char *val = malloc(n + 1);
    if (!val)
        return GO_ENOMEM;
    int rc = GO_EPARSE;
    while (i < n) {
        char c = s[i];
        if (c == '(') {
            started = 1;
            i++;
        } else if (c == ')') {
            rc = node >= 0 ? GO_OK : GO_EPARSE;
            break;
        } else if (c == ';' && started) {
            node++;
            klen = 0;
            i++;
        } else if (c >= 'A' && c <= 'Z' && node >= 0) {
            if (klen == 0 || s[i - 1] == ']' || s[i - 1] == ' ' || s[i - 1] == '\n' ||
                s[i - 1] == '\r' || s[i - 1] == '\t' || s[i - 1] == ';')
                klen = 0;
            if (klen + 1 < sizeof key)
                key[klen++] = c;
            key[klen] = '\0';
            i++;
        } else if (c >= 'a' && c <= 'z' && node >= 0) {
            i++;   /* FF[3] long identifiers: lower-case letters are dropped */
        } else if (c == '[' && node >= 0) {
            if (klen == 0) {
                rc = GO_EPARSE;
                break;
            }
            size_t m = 0;
            i++;
            while (i < n && s[i] != ']') {
                if (s[i] == '\\' && i + 1 < n) {
                    i++;
                    if (s[i] == '\n' || s[i] == '\r') {
                        i++;
                        continue;
                    }
                }
                val[m++] = s[i++];
            }
            if (i >= n)
                break;   /* unterminated value */
            i++;
            if (rec_props_add(ps, node, key, val, m) != GO_OK) {
                rc = GO_ENOMEM;
                break;
            }
            /* several values: the key stays until another identifier starts */
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            i++;
        } else if (!started) {
            i++;   /* text before the game tree */
        } else {
            break;
        }
    }
    free(val);
    return rc;
}

void stn_loaded_fini(stn_loaded_t *l)
{
    if (!l)
        return;
    go_game_destroy(l->game);
    for (int i = 0; l->comments && i < l->nmoves; i++)
        free(l->comments[i]);
    free(l->comments);
    free(l->frames);
    free(l->times);
    free(l->hand_times);
    memset(l, 0, sizeof *l);
}

static int rec_grow(stn_loaded_t *l, int n)
{
    char **c = realloc(l->comments, (size_t)n * sizeof *c);
    if (c)
        l->comments = c;
    uint64_t *f = realloc(l->frames, (size_t)n * sizeof *f);
    if (f)
        l->frames = f;
    double *t = realloc(l->times, (size_t)n * sizeof *t);
    if (t)
        l->times = t;
    double *h = realloc(l->hand_times, (size_t)n * sizeof *h);
    if (h)
        l->hand_times = h;
    return c && f && t && h ? GO_OK : GO_ENOMEM;
}

int stn_record_parse(const char *text, size_t len, const char *rules_fallback,
                     stn_loaded_t *out)
{
    rec_props_t ps = { 0 };
    stn_loaded_t l;
    memset(&l, 0, sizeof l);
    stn_meta_init(&l.meta);
    int rc = rec_lex(text, len, &ps);
    if (rc != GO_OK)
        goto fail;
    int size = 19, have_km = 0;
    go_rules_t rules;
    if (!rules_fallback || go_rules_preset(rules_fallback, &rules) != GO_OK)
        go_rules_preset("chinese", &rules);
    for (int i = 0; i < ps.n && ps.v[i].node == 0; i++) {
        const rec_prop_t *p = &ps.v[i];
        if (!strcmp(p->key, "SZ")) {
            size = atoi(p->val);
            if (size < GO_MIN_SIZE || size > GO_MAX_SIZE) {
                rc = GO_EPARSE;
                goto fail;
            }
        } else if (!strcmp(p->key, "RU")) {
            go_rules_t r;
            if (go_rules_from_sgf(p->val, &r) == GO_OK)
                rules = r;
        } else if (!strcmp(p->key, "KM")) {
            char *end;
            double km = strtod(p->val, &end);
            if (end != p->val) {
                l.meta.komi2 = (int)(km * 2.0 + (km < 0 ? -0.5 : 0.5));
                have_km = 1;
            }
        } else if (!strcmp(p->key, "HA")) {
            l.meta.handicap = atoi(p->val);
        } else if (!strcmp(p->key, "PB")) {
            snprintf(l.meta.black, sizeof l.meta.black, "%s", p->val);
        } else if (!strcmp(p->key, "PW")) {
            snprintf(l.meta.white, sizeof l.meta.white, "%s", p->val);
        } else if (!strcmp(p->key, "DT")) {
            snprintf(l.meta.date, sizeof l.meta.date, "%s", p->val);
        } else if (!strcmp(p->key, "RE")) {
            snprintf(l.meta.result, sizeof l.meta.result, "%s", p->val);
        }
    }
    if (!have_km)
        l.meta.komi2 = rules.komi2;
    rules.komi2 = l.meta.komi2;
    l.game = go_game_create(size, &rules);
    if (!l.game) {
        rc = GO_ENOMEM;
        goto fail;
    }
    int in_moves = 0;
    for (int i = 0; i < ps.n; i++) {
        const rec_prop_t *p = &ps.v[i];
        int isb = !strcmp(p->key, "B"), isw = !strcmp(p->key, "W");
        if (!in_moves && (!strcmp(p->key, "AB") || !strcmp(p->key, "AW") ||
                          !strcmp(p->key, "AE"))) {
            int pt = go_point_from_sgf(size, p->val, (int)strlen(p->val));
            if (pt <= 0) {
                rc = GO_EINVAL;
                goto fail;
            }
            go_point_t q = (go_point_t)pt;
            go_color_t c = p->key[1] == 'B' ? GO_BLACK : p->key[1] == 'W' ? GO_WHITE : GO_EMPTY;
            if ((rc = go_game_setup(l.game, c, &q, 1)) != GO_OK)
                goto fail;
        } else if (!in_moves && !strcmp(p->key, "PL")) {
            go_game_set_turn(l.game, p->val[0] == 'W' || p->val[0] == 'w' ? GO_WHITE : GO_BLACK);
        } else if (isb || isw) {
            if (!in_moves) {
                stn_meta_setup_from(&l.meta, l.game);
                in_moves = 1;
            }
            go_color_t c = isb ? GO_BLACK : GO_WHITE;
            int pt = go_point_from_sgf(size, p->val, (int)strlen(p->val));
            if (pt < 0) {
                rc = GO_EINVAL;
                goto fail;
            }
            if (pt == GO_PASS)
                rc = go_game_pass(l.game, c, true);
            else
                rc = go_game_play_tolerant(l.game, c, pt, NULL);
            if (rc != GO_OK)
                goto fail;
            int n = go_game_move_count(l.game);
            if ((rc = rec_grow(&l, n)) != GO_OK)
                goto fail;
            l.comments[n - 1] = NULL;
            l.frames[n - 1] = 0;
            l.times[n - 1] = l.hand_times[n - 1] = 0.0;
            l.nmoves = n;
        } else if (in_moves && !strcmp(p->key, "C") && l.nmoves > 0 &&
                   !l.comments[l.nmoves - 1]) {
            if (!(l.comments[l.nmoves - 1] = strdup(p->val))) {
                rc = GO_ENOMEM;
                goto fail;
            }
        } else if (in_moves && !strcmp(p->key, "KF") && l.nmoves > 0) {
            unsigned long long f = 0;
            double t = 0, th = 0;
            if (sscanf(p->val, "%llu:%lf:%lf", &f, &t, &th) == 3) {
                l.frames[l.nmoves - 1] = f;
                l.times[l.nmoves - 1] = t;
                l.hand_times[l.nmoves - 1] = th;
            }
        }
    }
    if (!in_moves)
        stn_meta_setup_from(&l.meta, l.game);
    rec_props_free(&ps);
    *out = l;
    return GO_OK;
fail:
    rec_props_free(&ps);
    stn_loaded_fini(&l);
    return rc;
}

int stn_record_load(const char *path, const char *rules_fallback, stn_loaded_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return GO_EIO;
    rec_buf_t b = { 0 };
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
        rec_put(&b, chunk, r);
    int bad = ferror(f);
    fclose(f);
    if (b.err || bad) {
        free(b.s);
        return b.err ? GO_ENOMEM : GO_EIO;
    }
    int rc = stn_record_parse(b.s ? b.s : "", b.n, rules_fallback, out);
    free(b.s);
    return rc;
}
