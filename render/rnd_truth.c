/* rnd_truth.c: reader of kifucam-render's truth files (rnd_truth.h).
 * Invariant: after rnd_truth_open the header is read and the stream stands at the first
 * event or frame line; lines are read whole with getline.
 */
#include "render/rnd_truth.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_render.h"

struct rnd_truth {
    FILE *f;
    char *line;
    size_t cap;
    int lineno;
    int size, frames, w, h;
};

/* A decimal int at s (strtol: leading blanks, a sign), *end after it. 0 on success, -1
 * when there are no digits or the value is out of int range. */
static int int_at(const char *s, const char **end, int *out)
{
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (e == s || errno || v < INT_MIN || v > INT_MAX)
        return -1;
    *end = e;
    *out = (int)v;
    return 0;
}

/* A double at s (strtod), *end after it. 0 on success, -1 when there is no number or it
 * overflows. */
static int double_at(const char *s, const char **end, double *out)
{
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno == ERANGE)
        return -1;
    *end = e;
    *out = v;
    return 0;
}

/* 1 when only blanks and the line break are left at s. */
static int at_end(const char *s)
{
    return s[strspn(s, " \t\r\n")] == 0;
}

/* A whole-string int (trailing blanks allowed). 0 on success, -1 otherwise. */
static int int_of(const char *s, int *out)
{
    const char *e;
    int v;
    if (int_at(s, &e, &v) || !at_end(e))
        return -1;
    *out = v;
    return 0;
}

int rnd_truth_open(const char *path, rnd_truth_t **out)
{
    if (!path || !out)
        return RND_EINVAL;
    rnd_truth_t *t = calloc(1, sizeof *t);
    if (!t)
        return RND_ENOMEM;
    t->f = fopen(path, "r");
    if (!t->f) {
        free(t);
        return RND_EIO;
    }
    int rc = RND_EPARSE;
    if (getline(&t->line, &t->cap, t->f) > 0 && !strcmp(t->line, "kifucam-render truth 1\n")) {
        t->lineno = 1;
        /* header lines until "lens" (the last one) */
        while (getline(&t->line, &t->cap, t->f) > 0) {
            t->lineno++;
            const char *e;
            if (!strncmp(t->line, "size ", 5)) {
                if (int_of(t->line + 5, &t->size))
                    break;
            } else if (!strncmp(t->line, "frames ", 7)) {
                if (int_of(t->line + 7, &t->frames))
                    break;
            } else if (!strncmp(t->line, "image ", 6)) {
                if (int_at(t->line + 6, &e, &t->w) || int_of(e, &t->h))
                    break;
            } else if (!strncmp(t->line, "lens ", 5)) {
                rc = t->size >= 2 && t->size <= 25 && t->w > 0 && t->h > 0 ? RND_OK : RND_EPARSE;
                break;
            }
        }
    }
    if (rc) {
        rnd_truth_close(t);
        return rc;
    }
    *out = t;
    return RND_OK;
}

int rnd_truth_size(const rnd_truth_t *t) { return t->size; }
int rnd_truth_frames(const rnd_truth_t *t) { return t->frames; }
void rnd_truth_image(const rnd_truth_t *t, int *w, int *h)
{
    *w = t->w;
    *h = t->h;
}

/* The value of key=VALUE in line (NUL-terminated copy into out), or NULL. */
static const char *field(const char *line, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p++) {
        if ((p == line || p[-1] == ' ') && p[kl] == '=') {
            const char *v = p + kl + 1;
            size_t n = strcspn(v, " \n");
            if (n >= len)
                return NULL;
            memcpy(out, v, n);
            out[n] = 0;
            return out;
        }
    }
    return NULL;
}

static int board(const char *s, int n, uint8_t *out)
{
    if ((int)strlen(s) != n * (n + 1) - 1)
        return -1;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            char c = s[y * (n + 1) + x];
            if (c != '.' && c != 'X' && c != 'O')
                return -1;
            out[y * n + x] = c == 'X' ? 1 : c == 'O' ? 2 : 0;
        }
    return 0;
}

/* "x1,y1;x2,y2;x3,y3;x4,y4" into q. 0 on success, -1 otherwise. */
static int quad(const char *s, double q[8])
{
    for (int i = 0; i < 8; i++) {
        if (double_at(s, &s, &q[i]))
            return -1;
        char sep = i == 7 ? '\0' : i % 2 ? ';' : ',';
        if (*s != sep)
            return -1;
        s++;
    }
    return 0;
}

static int points(const char *s, int n, uint8_t *out)
{
    memset(out, 0, (size_t)n * n);
    if (!strcmp(s, "-"))
        return 0;
    for (const char *p = s; *p;) {
        if (p[0] < 'a' || p[0] >= 'a' + n || p[1] < 'a' || p[1] >= 'a' + n)
            return -1;
        out[(p[1] - 'a') * n + (p[0] - 'a')] = 1;
        p += 2;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return 0;
}

int rnd_truth_next(rnd_truth_t *t, rnd_truth_frame_t *f, int *line)
{
    if (!t || !f)
        return RND_EINVAL;
    while (getline(&t->line, &t->cap, t->f) > 0) {
        t->lineno++;
        if (strncmp(t->line, "frame ", 6))
            continue;
        if (line)
            *line = t->lineno;
        const char *L = t->line;
        int n = t->size;
        char v[25 * 26 + 8];
        const char *e;
        memset(f, 0, sizeof *f);
        if (int_at(L + 6, &e, &f->frame) || (*e != ' ' && !at_end(e)))
            return RND_EPARSE;
        if (!field(L, "file", f->file, sizeof f->file) || !field(L, "t", v, sizeof v))
            return RND_EPARSE;
        if (double_at(v, &e, &f->t) || *e)
            return RND_EPARSE;
        if (!field(L, "move", v, sizeof v) || int_of(v, &f->move))
            return RND_EPARSE;
        if (!field(L, "hand", v, sizeof v) || int_of(v, &f->hand))
            return RND_EPARSE;
        if (!field(L, "shake", v, sizeof v) || int_at(v, &e, &f->shake[0]) || *e != ',' ||
            int_of(e + 1, &f->shake[1]))
            return RND_EPARSE;
        if (!field(L, "corners", v, sizeof v) || quad(v, f->corners) ||
            !field(L, "stone_corners", v, sizeof v) || quad(v, f->stone_corners))
            return RND_EPARSE;
        if (!field(L, "record", v, sizeof v) || board(v, n, f->record) || !field(L, "shown", v, sizeof v) ||
            board(v, n, f->shown))
            return RND_EPARSE;
        if (!field(L, "occluded", v, sizeof v) || points(v, n, f->occluded))
            return RND_EPARSE;
        f->bumped = -1;
        if (!field(L, "bumped", v, sizeof v))
            return RND_EPARSE;
        if (strcmp(v, "-")) {
            if (v[0] < 'a' || v[0] >= 'a' + n || v[1] < 'a' || v[1] >= 'a' + n)
                return RND_EPARSE;
            f->bumped = (v[1] - 'a') * n + (v[0] - 'a');
        }
        return RND_OK;
    }
    return 1;
}

void rnd_truth_close(rnd_truth_t *t)
{
    if (!t)
        return;
    if (t->f)
        fclose(t->f);
    free(t->line);
    free(t);
}
