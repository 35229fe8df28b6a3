/* bench_loop.c: the recording loop as a library (loop/rl_loop.h) over rendered footage,
 * with no command line in between: each folder `kifucam render` wrote is read by capture/
 * as `kifucam record` reads it (every k-th frame at REC's analyse rate, JPEG decoded at a
 * reduced scale), fed to rl_feed frame by frame, ended by rl_finish. Per clip and in all:
 * the moves right (the station's game against the source's first N moves, colour and
 * point under the best of the board's 8 symmetries, a pass for a pass), whether the game's
 * end came (the end signals or two passes: the count began), and the CPU per analysed
 * frame of each of the loop's stages (rl_stats) beside capture's; the points read on the
 * analysed frames with no hand in them (the footage's truth.txt): wrong though read
 * surely, and unsure (under the best of the 8 symmetries, frame by frame). What `kifucam
 * record` adds on top (printing, the pages, the clock) is the difference from
 * bench/record.sh. BL_LEARN_COLOURS=0: the loop without the board's own colours learned
 * (rl_config_t learn_colours), for comparison.
 *
 * Prints only; never fails on a figure. Exit 0, 1 when a clip's moves differ from its
 * source, 2 on unreadable input.
 *
 *   bench_loop DIR...            (folders of `kifucam render`, each with its truth.txt)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/cap_source.h"
#include "loop/rl_loop.h"
#include "render/rnd_truth.h"
#include "rules/go_point.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "station/stn_align.h"

#define BL_ANALYSE_FPS 10   /* as `kifucam record --analyse-fps` by default */
#define BL_MIN_W 960        /* ... and --decode-min 960x540 */
#define BL_MIN_H 540

typedef struct clip_seen {
    int phase; /* the caller's phase, as kifucam record mirrors it */
    stn_t *stn;
    int overs;
} clip_seen_t;

static void mirror(clip_seen_t *c)
{
    stn_phase_t ph = stn_phase(c->stn);
    c->phase = ph == STN_PHASE_PLAY ? 0 : ph == STN_PHASE_COUNT ? 1 : 2;
}
static int k_phase(void *ctx) { return ((clip_seen_t *)ctx)->phase; }
static void k_event(void *ctx, const stn_event_t *e) { (void)ctx; (void)e; }
static void k_note(void *ctx, const char *kind, double t, const char *text)
{
    (void)ctx, (void)kind, (void)t, (void)text;
}
static void k_station(void *ctx, stn_t *s) { ((clip_seen_t *)ctx)->stn = s; }
static void k_fed(void *ctx, int phase0, int nev)
{
    (void)phase0, (void)nev;
    mirror(ctx);
}
static void k_over(void *ctx)
{
    ((clip_seen_t *)ctx)->overs++;
    mirror(ctx);
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The truth's header: the source record, the moves played, the frame rate. */
static int truth_header(const char *dir, char *source, size_t len, int *moves, double *fps)
{
    char path[1200], line[2048];
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    source[0] = 0;
    *moves = -1;
    *fps = 0;
    while (fgets(line, sizeof line, f) && strncmp(line, "frame ", 6)) {
        line[strcspn(line, "\n")] = 0;
        size_t n = strlen(line + 7);
        if (!strncmp(line, "source ", 7) && n < len)
            memcpy(source, line + 7, n + 1);
        else if (!strncmp(line, "moves ", 6))
            *moves = atoi(line + 6);
        else if (!strncmp(line, "fps ", 4))
            *fps = atof(line + 4);
    }
    fclose(f);
    return source[0] && *moves >= 0 && *fps > 0 ? 0 : -1;
}

/* Moves of got equal to want's first n, in order, under the best symmetry. */
static int moves_right(const go_game_t *got, const go_game_t *want, int n, int size)
{
    int ng = go_game_move_count(got), best = 0;
    for (int k = 0; k < 8; k++) {
        stn_align_t sym = { 0 };   /* one of the board's 8 symmetries, no shift */
        sym.sym = k;
        int ok = 0;
        for (int i = 0; i < n && i < ng; i++) {
            const go_move_t *a = go_game_move(got, i), *b = go_game_move(want, i);
            if (a->kind != b->kind || a->color != b->color)
                break;
            if (a->kind == GO_MOVE_PLAY &&
                stn_align_map(&sym, size, GO_X(a->point), GO_Y(a->point)) !=
                    GO_Y(b->point) * size + GO_X(b->point))
                break;
            ok++;
        }
        best = ok > best ? ok : best;
    }
    return best;
}

typedef struct totals {
    int clips, exact, moves, right, ends;
    uint64_t frames, read;
    uint64_t pts, pts_wrong, pts_unsure; /* hand-free analysed frames' points */
    double capture_s;
    rl_stats_t st;
} totals_t;

/* Every frame of the footage's truth, by frame number (*n of them); NULL when unreadable. */
static rnd_truth_frame_t *truth_frames(const char *dir, int *n)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    rnd_truth_t *t = NULL;
    *n = 0;
    if (rnd_truth_open(path, &t))
        return NULL;
    int cap = rnd_truth_frames(t);
    rnd_truth_frame_t *v = cap > 0 ? calloc((size_t)cap, sizeof *v) : NULL, f;
    while (v && rnd_truth_next(t, &f, NULL) == 0)
        if (f.frame >= 0 && f.frame < cap) {
            v[f.frame] = f;
            *n = f.frame + 1 > *n ? f.frame + 1 : *n;
        }
    rnd_truth_close(t);
    return v;
}

/* A hand-free frame's points against the truth: the fewest read surely and wrong under
 * the 8 symmetries (*wrong), and those unsure (*unsure). */
static void frame_points(const vis_snapshot_t *snap, const rnd_truth_frame_t *tf, int size,
                         int *wrong, int *unsure)
{
    *wrong = size * size;
    *unsure = 0;
    for (int k = 0; k < size * size; k++)
        *unsure += vis_point_unsure(snap, k);
    for (int sy = 0; sy < 8; sy++) {
        stn_align_t a = { 0 };
        a.sym = sy;
        int w = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int m = stn_align_map(&a, size, x, y);
                w += m >= 0 && !vis_point_unsure(snap, m) && snap->color[m] != tf->shown[y * size + x];
            }
        *wrong = w < *wrong ? w : *wrong;
    }
}

static int run_clip(const char *dir, totals_t *tot)
{
    char source[1024];
    int nmoves;
    double fps;
    if (truth_header(dir, source, sizeof source, &nmoves, &fps)) {
        fprintf(stderr, "bench_loop: %s/truth.txt: no source, moves or fps line\n", dir);
        return 2;
    }
    sgf_collection_t *col = NULL;
    sgf_replay_t want;
    if (sgf_parse_file(source, NULL, &col, NULL) != GO_OK || col->ngames < 1 ||
        sgf_replay(col->games[0], NULL, &want, NULL) != GO_OK) {
        fprintf(stderr, "bench_loop: %s: cannot read the source record\n", source);
        sgf_collection_destroy(col);
        return 2;
    }
    if (nmoves > go_game_move_count(want.game))
        nmoves = go_game_move_count(want.game);
    cap_options_t o;
    cap_options_defaults(&o);
    o.fps = fps;
    o.analyse_fps = BL_ANALYSE_FPS;
    o.min_w = BL_MIN_W;
    o.min_h = BL_MIN_H;
    cap_source_t *cs = NULL;
    clip_seen_t seen = { 0 };
    const rl_sink_t sink = { &seen, k_phase, k_event, k_note, k_station, k_fed, k_over };
    rl_config_t c;
    rl_config_defaults(&c);
    const char *learn = getenv("BL_LEARN_COLOURS");
    if (learn && !strcmp(learn, "0"))
        c.learn_colours = 0;
    rl_t *l = rl_create(&c, &sink);
    if (!l || cap_source_open(dir, &o, &cs) != CAP_OK) {
        fprintf(stderr, "bench_loop: %s: cannot open\n", dir);
        rl_destroy(l);
        sgf_replay_fini(&want);
        sgf_collection_destroy(col);
        return 2;
    }
    int ntruth = 0;
    rnd_truth_frame_t *truth = truth_frames(dir, &ntruth);
    cap_frame_t f;
    uint64_t frames = 0, read_frames = 0, pts = 0, pwrong = 0, punsure = 0;
    double t = 0, cap = 0;
    for (;;) {
        double t0 = cpu_s();
        int rc = cap_source_next(cs, &f);
        cap += cpu_s() - t0;
        if (rc != CAP_OK)
            break;
        int read = 0;
        if (rl_feed(l, &f.img, f.index, f.t, &read) != RL_OK)
            break;
        frames++;
        read_frames += read;
        t = f.t;
        const vis_snapshot_t *sn = rl_snapshot(l);
        if (read && truth && f.index < (uint64_t)ntruth && !truth[f.index].hand &&
            sn->size == want.size && !sn->occluder && !sn->board_lost) {
            int w, u;
            frame_points(sn, &truth[f.index], want.size, &w, &u);
            pts += (uint64_t)(want.size * want.size);
            pwrong += (uint64_t)w;
            punsure += (uint64_t)u;
        }
    }
    free(truth);
    cap_source_close(cs);
    stn_unfinished_t un;
    rl_finish(l, t, 1, &un);
    const stn_t *s = rl_station(l);
    int size = want.size, right = 0, end = 0;
    if (s) {
        right = moves_right(stn_game(s), want.game, nmoves, size);
        end = stn_phase(s) != STN_PHASE_PLAY;
    }
    rl_stats_t st = rl_stats(l);
    printf("  %-40s moves %3d/%3d%s, end %s, frames %llu (%llu read), detections %llu, "
           "hand-free points wrong %llu unsure %llu of %llu, colours learned %llu\n", dir,
           right, nmoves, right == nmoves ? "" : "  DIFFERS", end ? "yes" : "no",
           (unsigned long long)frames, (unsigned long long)read_frames,
           (unsigned long long)st.detects, (unsigned long long)pwrong,
           (unsigned long long)punsure, (unsigned long long)pts,
           (unsigned long long)st.colour_fits);
    tot->pts += pts;
    tot->pts_wrong += pwrong;
    tot->pts_unsure += punsure;
    tot->clips++;
    tot->exact += right == nmoves;
    tot->moves += nmoves;
    tot->right += right;
    tot->ends += end;
    tot->frames += frames;
    tot->read += read_frames;
    tot->capture_s += cap;
    tot->st.detect_s += st.detect_s;
    tot->st.track_s += st.track_s;
    tot->st.station_s += st.station_s;
    tot->st.signal_s += st.signal_s;
    tot->st.detects += st.detects;
    rl_destroy(l);
    sgf_replay_fini(&want);
    sgf_collection_destroy(col);
    return right == nmoves ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout, "usage: bench_loop DIR...  (folders of kifucam render)\n");
        return argc < 2 ? 2 : 0;
    }
    totals_t tot;
    memset(&tot, 0, sizeof tot);
    int code = 0;
    printf("the recording loop (loop/rl_loop.h) over %d clip%s, every frame through rl_feed:\n",
           argc - 1, argc == 2 ? "" : "s");
    for (int i = 1; i < argc; i++) {
        int rc = run_clip(argv[i], &tot);
        code = rc > code ? rc : code;
    }
    double n = tot.read ? (double)tot.read : 1;
    double loop_s = tot.st.detect_s + tot.st.track_s + tot.st.station_s + tot.st.signal_s;
    printf("moves right %d of %d, clips exact %d of %d, the count began on %d\n", tot.right,
           tot.moves, tot.exact, tot.clips, tot.ends);
    const char *learn = getenv("BL_LEARN_COLOURS");
    printf("points on the analysed frames with no hand: %llu, read surely and wrong %llu "
           "(%.4f%%), unsure %llu (%.3f%%)%s\n",
           (unsigned long long)tot.pts, (unsigned long long)tot.pts_wrong,
           tot.pts ? 100.0 * tot.pts_wrong / tot.pts : 0.0, (unsigned long long)tot.pts_unsure,
           tot.pts ? 100.0 * tot.pts_unsure / tot.pts : 0.0,
           learn && !strcmp(learn, "0") ? " (the board's colours not learned)" : "");
    printf("CPU per analysed frame (%llu of %llu frames handed on): capture %.2f ms, detect "
           "%.2f ms (%llu runs), track %.2f ms, station %.3f ms, signals %.3f ms; the loop "
           "%.0f frames a second of CPU\n",
           (unsigned long long)tot.read, (unsigned long long)tot.frames, 1e3 * tot.capture_s / n,
           1e3 * tot.st.detect_s / n, (unsigned long long)tot.st.detects, 1e3 * tot.st.track_s / n,
           1e3 * tot.st.station_s / n, 1e3 * tot.st.signal_s / n,
           loop_s > 0 ? (double)tot.read / loop_s : 0);
    return code;
}
