/* bench_replay.c: moves per second replaying SGF records, on one core.
 *
 *   bench_replay [--rules NAME] [--runs N] FILE.sgf...
 *       1. parse + replay: sgf_parse_each over the files (read into memory first) and
 *          sgf_replay of every game, as `kifucam check` does;
 *       2. replay alone: the same games from pre-parsed move lists (colour, point),
 *          go_game_create + go_game_play per move (strict, every move checked, with the
 *          superko history of the rules);
 *       prints moves/s for each, best of N runs (default 5), by the process's CPU time
 *       (the machine is shared: wall time is printed beside it).
 *   bench_replay --split N OUTDIR FILE.sgf...
 *       writes the first N games, one per file, as OUTDIR/game-K.sgf (for GNU Go's
 *       loadsgf, which reads one game per file) and prints "games G moves M".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/go_game.h"
#include "rules/go_rules.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

typedef struct moves {
    int ngames, capgames;
    int *start;          /* ngames + 1 offsets into col/pt */
    int n, cap;
    unsigned char *col;
    go_point_t *pt;
} moves_t;

typedef struct split {
    int want, done;
    long moves;
    const char *dir;
} split_t;

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap : 1024;
    while (nc < need)
        nc *= 2;
    void *np = realloc(*p, (size_t)nc * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

/* Collect the main line's moves of one game. */
static int collect(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    moves_t *m = ctx;
    (void)index;
    (void)charset;
    const char *sz = sgf_node_value(root, "SZ");
    if (sz && atoi(sz) != 19)
        return 0; /* the bench replays 19x19 games */
    if (grow((void **)&m->start, &m->capgames, m->ngames + 2, sizeof(int)))
        return -1;
    m->start[m->ngames] = m->n;
    for (const sgf_node_t *n = root; n; n = n->child)
        for (int i = 0; i < n->nprops; i++) {
            const sgf_prop_t *p = &n->props[i];
            if ((p->key[0] != 'B' && p->key[0] != 'W') || p->key[1])
                continue;
            int pt = go_point_from_sgf(19, p->values[0], (int)p->lens[0]);
            if (pt < 0)
                continue;
            int cap = m->cap;
            if (grow((void **)&m->col, &cap, m->n + 1, 1) ||
                grow((void **)&m->pt, &m->cap, m->n + 1, sizeof(go_point_t)))
                return -1;
            m->col[m->n] = p->key[0] == 'B' ? GO_BLACK : GO_WHITE;
            m->pt[m->n] = (go_point_t)pt;
            m->n++;
        }
    m->ngames++;
    m->start[m->ngames] = m->n;
    return 0;
}

typedef struct check {
    const go_rules_t *rules;
    long games, moves, illegal;
} check_t;

static int replay_game(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    check_t *c = ctx;
    (void)index;
    (void)charset;
    sgf_replay_opts_t o = { c->rules, false };
    sgf_replay_t r;
    if (sgf_replay(root, &o, &r, NULL))
        return 0;
    c->games++;
    c->moves += r.nmoves;
    c->illegal += r.nillegal;
    sgf_replay_fini(&r);
    return 0;
}

static int write_one(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    split_t *s = ctx;
    (void)charset;
    if (s->done >= s->want)
        return 1;
    char *text;
    size_t len;
    if (sgf_write_tree(root, &text, &len))
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/game-%05d.sgf", s->dir, index + 1);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(text);
        return -1;
    }
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
    for (const sgf_node_t *n = root; n; n = n->child)
        for (int i = 0; i < n->nprops; i++)
            if ((n->props[i].key[0] == 'B' || n->props[i].key[0] == 'W') && !n->props[i].key[1])
                s->moves++;
    s->done++;
    return 0;
}

int main(int argc, char **argv)
{
    const char *rules_name = "korean";
    int runs = 5, first = 1;
    split_t sp = { 0, 0, 0, NULL };
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--rules") && first + 1 < argc) {
            rules_name = argv[first + 1];
            first += 2;
        } else if (!strcmp(argv[first], "--runs") && first + 1 < argc) {
            runs = atoi(argv[first + 1]);
            first += 2;
        } else if (!strcmp(argv[first], "--split") && first + 2 < argc) {
            sp.want = atoi(argv[first + 1]);
            sp.dir = argv[first + 2];
            first += 3;
        } else {
            break;
        }
    }
    if (first >= argc || runs < 1) {
        fprintf(stderr, "usage: bench_replay [--rules NAME] [--runs N] FILE.sgf...\n"
                        "       bench_replay --split N OUTDIR FILE.sgf...\n");
        return 2;
    }
    int nfiles = argc - first;
    char **data = calloc((size_t)nfiles, sizeof *data);
    size_t *lens = calloc((size_t)nfiles, sizeof *lens);
    if (!data || !lens) {
        fprintf(stderr, "bench_replay: out of memory\n");
        free(data);
        free(lens);
        return 2;
    }
    size_t bytes = 0;
    int status = 0;
    moves_t m = { 0 };
    go_rules_t rules;
    for (int i = 0; i < nfiles; i++) {
        data[i] = slurp(argv[first + i], &lens[i]);
        if (!data[i]) {
            fprintf(stderr, "bench_replay: cannot read %s\n", argv[first + i]);
            status = 2;
            goto done;
        }
        bytes += lens[i];
    }
    if (sp.dir) {
        for (int i = 0; i < nfiles && sp.done < sp.want; i++)
            sgf_parse_each(data[i], lens[i], NULL, write_one, &sp, NULL);
        printf("games %d moves %ld\n", sp.done, sp.moves);
        status = sp.done ? 0 : 1;
        goto done;
    }
    if (go_rules_preset(rules_name, &rules)) {
        fprintf(stderr, "bench_replay: unknown rules %s\n", rules_name);
        status = 2;
        goto done;
    }

    /* 1. parse + replay */
    double best_cpu = 1e30, best_wall = 1e30;
    check_t c = { &rules, 0, 0, 0 };
    for (int r = 0; r < runs; r++) {
        c.games = c.moves = c.illegal = 0;
        double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        for (int i = 0; i < nfiles; i++)
            if (sgf_parse_each(data[i], lens[i], NULL, replay_game, &c, NULL)) {
                fprintf(stderr, "bench_replay: %s does not parse\n", argv[first + i]);
                status = 2;
                goto done;
            }
        double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = now(CLOCK_MONOTONIC) - w0;
        if (cpu < best_cpu)
            best_cpu = cpu;
        if (wall < best_wall)
            best_wall = wall;
    }
    printf("files %d (%.1f MB), games %ld, moves %ld, illegal under %s: %ld\n", nfiles,
           (double)bytes / 1e6, c.games, c.moves, rules.name, c.illegal);
    printf("parse+replay: %.2f M moves/s (cpu %.3f s, wall %.3f s, best of %d)\n",
           (double)c.moves / best_cpu / 1e6, best_cpu, best_wall, runs);

    /* 2. replay alone, from pre-parsed move lists */
    for (int i = 0; i < nfiles; i++)
        if (sgf_parse_each(data[i], lens[i], NULL, collect, &m, NULL)) {
            fprintf(stderr, "bench_replay: out of memory\n");
            status = 2;
            goto done;
        }
    best_cpu = best_wall = 1e30;
    long played = 0, refused = 0;
    for (int r = 0; r < runs; r++) {
        played = refused = 0;
        double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        for (int g = 0; g < m.ngames; g++) {
            go_game_t *gm = go_game_create(19, &rules);
            if (!gm) {
                status = 2;
                goto done;
            }
            for (int k = m.start[g]; k < m.start[g + 1]; k++) {
                int rc = m.pt[k] == GO_PASS ? go_game_pass(gm, m.col[k], true)
                                            : go_game_play(gm, m.col[k], m.pt[k]);
                if (rc)
                    rc = m.pt[k] == GO_PASS ? rc : go_game_play_tolerant(gm, m.col[k], m.pt[k], NULL);
                refused += rc != 0;
                played++;
            }
            go_game_destroy(gm);
        }
        double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = now(CLOCK_MONOTONIC) - w0;
        if (cpu < best_cpu)
            best_cpu = cpu;
        if (wall < best_wall)
            best_wall = wall;
    }
    printf("replay alone: %.2f M moves/s (cpu %.3f s, wall %.3f s, best of %d; %ld moves, "
           "%ld games, %ld refused)\n",
           (double)played / best_cpu / 1e6, best_cpu, best_wall, runs, played, (long)m.ngames,
           refused);
done:
    free(m.start);
    free(m.col);
    free(m.pt);
    for (int i = 0; i < nfiles; i++)
        free(data[i]);
    free(data);
    free(lens);
    return status;
}
