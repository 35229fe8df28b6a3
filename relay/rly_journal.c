/* rly_journal.c: the relay's disk queue (rly_journal.h). Appends go through stdio, then
 * fflush and fdatasync for events (a move must survive a power cut once the station has
 * moved on), fflush alone for the marks. Reading tolerates a torn last line. */
#include "relay/rly_journal.h"
#include "relay/rly.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rly_journal {
    FILE *f;
    char *path;
};

typedef struct jvec {
    rly_jentry_t *v;
    int n, cap;
} jvec_t;

static int jvec_push(jvec_t *a, uint64_t run, uint64_t seq, const char *payload, size_t len)
{
    if (a->n == a->cap) {
        int cap = a->cap ? a->cap * 2 : 16;
        rly_jentry_t *nv = realloc(a->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return RLY_ENOMEM;
        a->v = nv;
        a->cap = cap;
    }
    char *p = malloc(len + 1);
    if (!p)
        return RLY_ENOMEM;
    memcpy(p, payload, len);
    p[len] = '\0';
    a->v[a->n].run = run;
    a->v[a->n].seq = seq;
    a->v[a->n].payload = p;
    a->n++;
    return RLY_OK;
}

static void jvec_free(jvec_t *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i].payload);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

/* A decimal number at *p followed by one space (moved past both); 0 or -1. */
static int read_u64(char **p, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(*p, &end, 10);
    if (errno || end == *p || **p == '-' || (*end != ' ' && *end != '\0'))
        return -1;
    *v = x;
    *p = *end ? end + 1 : end;
    return 0;
}

/* Read the records; E lines whose A line follows are dropped. */
static int load(FILE *f, jvec_t *out, int *skipped)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = RLY_OK;
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (len == 0 || line[len - 1] != '\n') {
            (*skipped)++;   /* cut short by a crash */
            continue;
        }
        line[--len] = '\0';
        uint64_t run, seq;
        char *q = line + 2;
        int kind = len > 2 && line[1] == ' ' ? line[0] : 0;
        if ((kind == 'E' || kind == 'A') && read_u64(&q, &run) == 0 && read_u64(&q, &seq) == 0 &&
            (kind == 'A' ? *q == '\0' : *q == '{')) {
            if (kind == 'E') {
                if ((rc = jvec_push(out, run, seq, q, strlen(q))) != RLY_OK)
                    break;
                continue;
            }
            for (int i = 0; i < out->n; i++)
                if (out->v[i].run == run && out->v[i].seq == seq) {
                    free(out->v[i].payload);
                    memmove(out->v + i, out->v + i + 1, (size_t)(out->n - i - 1) * sizeof out->v[0]);
                    out->n--;
                    break;
                }
        } else {
            (*skipped)++;
        }
    }
    free(line);
    return rc;
}

static int write_entry(FILE *f, const rly_jentry_t *e)
{
    return fprintf(f, "E %" PRIu64 " %" PRIu64 " %s\n", e->run, e->seq, e->payload) < 0 ? RLY_EIO
                                                                                        : RLY_OK;
}

int rly_journal_open(const char *path, int resume, rly_jentry_t **pending, int *npending,
                     int *skipped, rly_journal_t **out)
{
    if (!path || !pending || !npending || !skipped || !out)
        return RLY_EINVAL;
    jvec_t v = { NULL, 0, 0 };
    int bad = 0, rc = RLY_OK;
    if (resume) {
        FILE *in = fopen(path, "r");
        if (in) {
            rc = load(in, &v, &bad);
            fclose(in);
        } else if (errno != ENOENT) {
            return RLY_EIO;
        }
    }
    if (rc != RLY_OK) {
        jvec_free(&v);
        return rc;
    }
    /* compact: the pending events alone, renamed over the old file */
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 5);
    rly_journal_t *j = calloc(1, sizeof *j);
    char *keep = malloc(plen + 1);
    if (!tmp || !j || !keep) {
        free(tmp);
        free(j);
        free(keep);
        jvec_free(&v);
        return RLY_ENOMEM;
    }
    memcpy(keep, path, plen + 1);
    snprintf(tmp, plen + 5, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    for (int i = 0; f && rc == RLY_OK && i < v.n; i++)
        rc = write_entry(f, &v.v[i]);
    if (!f || rc != RLY_OK || fflush(f) != 0 || fdatasync(fileno(f)) != 0 || rename(tmp, path) != 0) {
        if (f)
            fclose(f);
        remove(tmp);
        free(tmp);
        free(j);
        free(keep);
        jvec_free(&v);
        return RLY_EIO;
    }
    free(tmp);
    j->f = f;   /* the renamed file, still open for appending at its end */
    j->path = keep;
    *pending = v.v;
    *npending = v.n;
    *skipped = bad;
    *out = j;
    return RLY_OK;
}

int rly_journal_append(rly_journal_t *j, uint64_t run, uint64_t seq, const char *payload)
{
    if (!j || !payload || strchr(payload, '\n'))
        return RLY_EINVAL;
    rly_jentry_t e = { run, seq, (char *)payload };
    if (write_entry(j->f, &e) != RLY_OK || fflush(j->f) != 0 || fdatasync(fileno(j->f)) != 0)
        return RLY_EIO;
    return RLY_OK;
}

int rly_journal_ack(rly_journal_t *j, uint64_t run, uint64_t seq)
{
    if (!j)
        return RLY_EINVAL;
    if (fprintf(j->f, "A %" PRIu64 " %" PRIu64 "\n", run, seq) < 0 || fflush(j->f) != 0)
        return RLY_EIO;
    return RLY_OK;
}

int rly_journal_clear(rly_journal_t *j)
{
    if (!j)
        return RLY_EINVAL;
    if (fflush(j->f) != 0 || ftruncate(fileno(j->f), 0) != 0 || fseek(j->f, 0, SEEK_SET) != 0)
        return RLY_EIO;
    return RLY_OK;
}

void rly_journal_close(rly_journal_t *j)
{
    if (!j)
        return;
    fclose(j->f);
    free(j->path);
    free(j);
}
