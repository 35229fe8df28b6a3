/* bench_station.c: the station's speed and latency on real games played through the
 * simulated camera of the station tests (tests/station/stn_sim.h): frames per second and
 * the share of time per stage (stabiliser, tracker and referee, SGF rewrite with fsync),
 * the real-time factor for 30 fps footage, and the distribution of the latency from the
 * hand leaving the board to the move being recorded (footage time; the target is
 * 0.5 s). Vision's own cost per 1080p frame is bench_vision's. Prints only; never fails on
 * a figure (timing belongs here, not in tests), but exits 1 when a record differs.
 *
 * bench_station [--sgf-dir DIR] [--collection FILE --games N] GAME.sgf...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "station/station.h"
#include "stn_sim.h"

typedef struct bench {
    const char *sgf_dir;
    int games, exact, moves;
    stn_stats_t sum;
    double *lat;
    int nlat, caplat;
    uint64_t frames;
} bench_t;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run_game(bench_t *b, const sgf_node_t *root, uint32_t seed)
{
    sgf_replay_t r;
    if (sgf_replay(root, NULL, &r, NULL) != GO_OK)
        return -1;
    int n = go_game_move_count(r.game);
    go_move_t *moves = malloc(sizeof *moves * (size_t)(n + 1));
    go_game_t *g0 = go_game_create(r.size, &r.rules);
    sim_stats_t *st = calloc(1, sizeof *st);
    if (!moves || !g0 || !st) {
        free(moves);
        go_game_destroy(g0);
        free(st);
        sgf_replay_fini(&r);
        return -1;
    }
    for (int i = 0; i < n; i++)
        moves[i] = *go_game_move(r.game, i);
    if (r.handicap > 0)
        go_game_handicap(g0, r.handicap);
    char path[1100];
    snprintf(path, sizeof path, "%s/bench-station-%d.sgf", b->sgf_dir, (int)getpid());
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = r.size;
    c.rules = r.rules.name;
    c.komi2 = r.komi2;
    c.handicap = r.handicap;
    c.sgf_path = b->sgf_dir ? path : NULL;
    int err = 0, rc = -1;
    stn_t *s = stn_create(&c, &err);
    sim_opts_t o;
    sim_defaults(&o, seed);
    if (s && sim_run(go_game_board(g0), moves, n, &o, s, st) == 0) {
        const go_game_t *g = stn_game(s);
        int want = 0, same = 1;
        for (int i = 0; i < n; i++)
            want += moves[i].kind != GO_MOVE_RESIGN;
        same = go_game_move_count(g) == want;
        for (int i = 0; same && i < want; i++)
            same = go_game_move(g, i)->point == moves[i].point &&
                   go_game_move(g, i)->color == moves[i].color;
        b->games++;
        b->exact += same;
        if (!same)
            fprintf(stderr, "bench_station: game seed %u: the record differs from the source\n",
                    seed);
        b->moves += want;
        stn_stats_t x = stn_stats(s);
        b->sum.frames += x.frames;
        b->sum.views += x.views;
        b->sum.writes += x.writes;
        b->sum.stab_s += x.stab_s;
        b->sum.track_s += x.track_s;
        b->sum.record_s += x.record_s;
        for (int i = 0; i < st->lat_n; i++) {
            if (b->nlat == b->caplat) {
                b->caplat = b->caplat ? 2 * b->caplat : 4096;
                b->lat = realloc(b->lat, sizeof *b->lat * (size_t)b->caplat);
                if (!b->lat)
                    break;
            }
            b->lat[b->nlat++] = st->lat[i];
        }
        rc = same ? 0 : 1;
    }
    stn_destroy(s);
    unlink(path);
    free(st);
    go_game_destroy(g0);
    free(moves);
    sgf_replay_fini(&r);
    return rc;
}

typedef struct pick {
    bench_t *b;
    int want, got, every;
} pick_t;

static int pick(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    (void)charset;
    pick_t *p = ctx;
    if (index % p->every != 3)
        return 0;
    run_game(p->b, root, 500u + (uint32_t)index);
    return ++p->got >= p->want;
}

int main(int argc, char **argv)
{
    bench_t b;
    memset(&b, 0, sizeof b);
    const char *coll = NULL;
    int ncoll = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sgf-dir") && i + 1 < argc) {
            b.sgf_dir = argv[++i];
        } else if (!strcmp(argv[i], "--collection") && i + 1 < argc) {
            coll = argv[++i];
        } else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
            ncoll = atoi(argv[++i]);
        } else {
            sgf_collection_t *c = NULL;
            if (sgf_parse_file(argv[i], NULL, &c, NULL) != GO_OK) {
                fprintf(stderr, "bench_station: %s: cannot read\n", argv[i]);
                free(b.lat);
                return 2;
            }
            run_game(&b, c->games[0], 100u + (uint32_t)i);
            sgf_collection_destroy(c);
        }
    }
    if (coll && ncoll > 0) {
        FILE *f = fopen(coll, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            long len = ftell(f);
            fseek(f, 0, SEEK_SET);
            char *buf = malloc((size_t)len);
            if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) {
                pick_t p = { &b, ncoll, 0, 3000 / (ncoll + 1) };
                sgf_parse_each(buf, (size_t)len, NULL, pick, &p, NULL);
            }
            free(buf);
            fclose(f);
        }
    }
    if (b.games == 0) {
        fprintf(stderr, "bench_station: no game\n");
        free(b.lat);
        return 2;
    }
    double total = b.sum.stab_s + b.sum.track_s + b.sum.record_s;
    double footage = b.sum.frames / 30.0;
    printf("station: %d games, %d moves, %llu frames (%.0f s of 30 fps footage), %d/%d records "
           "exact\n", b.games, b.moves, (unsigned long long)b.sum.frames, footage, b.exact,
           b.games);
    printf("  speed: %.2f s in the station -> %.0f frames/s, %.0fx real time at 30 fps (one "
           "core; vision not included)\n", total, b.sum.frames / total, footage / total);
    printf("  stages: stabiliser %.1f%% (%.1f us/frame), tracker+referee %.1f%% (%.2f ms/view, "
           "%llu views), record %.1f%% (%.2f ms/write incl. fsync, %llu writes%s)\n",
           100 * b.sum.stab_s / total, 1e6 * b.sum.stab_s / (double)b.sum.frames,
           100 * b.sum.track_s / total, 1e3 * b.sum.track_s / (double)b.sum.views,
           (unsigned long long)b.sum.views, 100 * b.sum.record_s / total,
           b.sum.writes ? 1e3 * b.sum.record_s / (double)b.sum.writes : 0.0,
           (unsigned long long)b.sum.writes, b.sgf_dir ? "" : ", no file");
    if (b.nlat > 0) {
        qsort(b.lat, (size_t)b.nlat, sizeof *b.lat, cmp_double);
        int within = 0;
        for (int i = 0; i < b.nlat; i++)
            within += b.lat[i] <= 0.5 + 1e-9;
        printf("  latency hand left -> move recorded (footage s): p50 %.3f  p90 %.3f  p99 %.3f  "
               "max %.3f  (%d moves; %.1f%% within 0.5 s)\n",
               b.lat[b.nlat / 2], b.lat[b.nlat * 9 / 10], b.lat[b.nlat * 99 / 100],
               b.lat[b.nlat - 1], b.nlat, 100.0 * within / b.nlat);
    }
    free(b.lat);
    return b.exact == b.games ? 0 : 1;
}
