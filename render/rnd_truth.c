/* rnd_truth.c: reader of kifucam-render's truth files (rnd_truth.h).
 * Invariant: after rnd_truth_open the header is read and the stream stands at the first
 * event or frame line; lines are read whole with getline.
 */
#include "render/rnd_truth.h"

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
            if (!strncmp(t->line, "size ", 5))
                t->size = atoi(t->line + 5);
            else if (!strncmp(t->line, "frames ", 7))
                t->frames = atoi(t->line + 7);
            else if (!strncmp(t->line, "image ", 6) && sscanf(t->line + 6, "%d %d", &t->w, &t->h) != 2)
                break;
            else if (!strncmp(t->line, "lens ", 5)) {
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

static int quad(const char *s, double q[8])
{
    return sscanf(s, "%lf,%lf;%lf,%lf;%lf,%lf;%lf,%lf", &q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]) == 8
               ? 0
               : -1;
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
        memset(f, 0, sizeof *f);
        f->frame = atoi(L + 6);
        if (!field(L, "file", f->file, sizeof f->file) || !field(L, "t", v, sizeof v))
            return RND_EPARSE;
        f->t = atof(v);
        if (!field(L, "move", v, sizeof v))
            return RND_EPARSE;
        f->move = atoi(v);
        if (!field(L, "hand", v, sizeof v))
            return RND_EPARSE;
        f->hand = atoi(v);
        if (!field(L, "shake", v, sizeof v) || sscanf(v, "%d,%d", &f->shake[0], &f->shake[1]) != 2)
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
