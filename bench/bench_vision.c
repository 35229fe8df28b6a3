/* bench_vision.c: accuracy and speed of vision/ (timing lives here, never in tests).
 *   bench_vision accuracy DATA_DIR [--verbose]   per set and overall, automatic mode and
 *                                                with given corners (gomrade corners_ok)
 *   bench_vision speed [IMAGE [WxH]]             IMAGE at WxH (default 1920x1080), one
 *                                                core (thread CPU time): read/decode, cold
 *                                                detection, tracking, reading (960x540: a
 *                                                1080p frame as record decodes it, at half
 *                                                size, --decode-min 960x540)
 *   bench_vision footage DIR...                  rendered footage (kifucam-render output)
 *   bench_vision occlusion DIR...                hands over rendered footage: covered points
 *                                                read as stones, hand-free frames flagged
 *   bench_vision detect IMAGE [DEBUG_DIR]        one image, the board and the stages' ms
 *   bench_vision stones|corners DATA_DIR, pages  the Roboflow sets; pages that are no board
 *   bench_vision scale IN OUT WxH                IN resized (bench/count.sh's phone photos)
 *   bench_vision crowded [N [FIRST]]             board finding on N crowded renders of each
 *                                                size (9, 13, 19; any view: the renderer's
 *                                                variety draws the camera),
 *                                                tests/vision/crowded.h; right, wrong, none;
 *                                                renders: a test tool, no evidence about
 *                                                real boards
 * Every photo figure also counts the flags: a photo read wrong with no point unsure
 * (vis_point_unsure) is one the user is told nothing about. The truths are the sets'
 * with tests/vision/truth_fixes.h applied; --raw-truth scores the sets as they are;
 * --sweep (accuracy, stones) gives the flags under other confidences than VIS_SURE_CONF.
 * --occ-ring: the margin ring's covered blocks join the occlusion pass (vis_config_t
 * occ_ring; for a reader trained with the ring's hand labels). --fold-models DIR given
 * up to 4 times: each photo read by the ensemble of its fold's models of every DIR
 * (vis_net_add; vision/model/README.md, trial "e2"). With --photo the stone finder
 * (vis_stones.c) reads as vis_config_for_photo says; --fold-models DIR's centresK.onnx
 * is fold K's finder (none in DIR: no finder); --finder on|off, --finder-answers 0|1|2,
 * --finder-min SCORE, --finder-runs 1..8, --finder-empty SCORE, --finder-crowd CELLS,
 * --finder-reach CELLS, --finder-cut reader|finder, --finder-black reader|finder,
 * --finder-room on|off change its settings (vis_stones_params_t); --fold-finders DIR (up
 * to 3 times): DIR's centresK.onnx joins fold K's finder (vis_finder_add, an ensemble).
 * --stars on|off: the star points in board finding (vis_stars_params_t; on with --photo);
 * --grow-stones LINES: the grid grown on the stones beyond it (vis_config_t; 1 with --photo,
 * 0 never).
 * Developer switches: --verbosev / --verbosevv (accuracy: the reader's probabilities of
 * wrong / all points), VIS_VERBOSE=1 (footage: per frame), VIS_NOREFINE=1, VIS_WORK=N (detect),
 * VIS_FINDER_DUMP=FILE (stones: the points the finder changed, bench/finder_vs_reader.py).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "render/rnd_truth.h"
#include "tests/vision/crowded.h"
#include "tests/vision/golden_util.h"
#include "tests/vision/roboflow_util.h"
#include "tests/vision/synth.h"
#include "tests/vision/truth_fixes.h"
#include "vision/vis.h"
#include "vision/vis_border.h"
#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

/* CPU time of this thread: the one-core cost, whatever else the machine runs (OpenCV is
 * held to one thread, which is this one). */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A photo's flags: how many of its points the reader calls unsure (vis_point_unsure:
 * what detect prints as '?' and count will not count silently), every point when the
 * grid is in doubt (vis_grid_doubted: detect warns, count asks for the corners); -1 when
 * no board was found (detect and count exit 1: a flag too). */
static int unsure_points(const vis_snapshot_t *s, int rc)
{
    if (rc)
        return -1;
    if (vis_grid_doubted(s))
        return s->size * s->size;
    int n = 0;
    for (int k = 0; k < s->size * s->size; k++)
        n += vis_point_unsure(s, k);
    return n;
}

typedef struct {
    long points, wrong;
    int boards, perfect, found;
    int silent;  /* read wrong with no point unsure: the user is told nothing */
    int flagged; /* read right with some point unsure: the user is asked for nothing wrong */
} acc_t;

static void acc_print(const char *name, const acc_t *a)
{
    if (!a->boards)
        return;
    printf("  %-28s boards %3d  found %3d  perfect %3d (%5.1f%%)  points %6.3f%% (%ld wrong of %ld)"
           "  wrong unflagged %d, right flagged %d\n",
           name, a->boards, a->found, a->perfect, 100.0 * a->perfect / a->boards,
           a->points ? 100.0 * (a->points - a->wrong) / a->points : 0.0, a->wrong, a->points,
           a->silent, a->flagged);
}

/* One photo of n x n points, wrong of them read wrong, unsure as unsure_points gives. */
static void acc_add(acc_t *a, int n, int wrong, int found, int unsure)
{
    a->boards++;
    a->points += (long)n * n;
    a->wrong += wrong;
    a->perfect += wrong == 0;
    a->found += found;
    a->silent += wrong > 0 && unsure == 0;
    a->flagged += wrong == 0 && unsure != 0;
}

/* --sweep: the flags a photo would raise under other rules than vis_point_unsure's: a
 * point unsure under another confidence than VIS_SURE_CONF, or the whole reading unsure
 * when the reader's belief in the grid (vis_grid_belief) is under a floor (covered
 * points and no board flag under every rule). Per rule: photos read wrong with no flag,
 * photos read right with one, and the unsure points a photo asks about (the cost to the
 * user). A rule is chosen on the tuning photos only, and measured on the others. */
static int opt_sweep;
static const float sweep_conf[] = { 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 0.95f };
static const float sweep_belief[] = { 0.0f, 0.8f, 0.85f, 0.9f, 0.95f };
#define NSWEEP ((int)(sizeof sweep_conf / sizeof sweep_conf[0]))
#define NBELIEF ((int)(sizeof sweep_belief / sizeof sweep_belief[0]))
typedef struct {
    int photos, wrong;
    int silent[NBELIEF][NSWEEP], flagged[NBELIEF][NSWEEP];
    long points[NSWEEP];
} sweep_acc_t;

static void sweep_add(sweep_acc_t *a, const vis_snapshot_t *s, int rc, int right)
{
    a->photos++;
    a->wrong += !right;
    for (int t = 0; t < NSWEEP; t++) {
        int n = rc ? 1 : 0;
        for (int k = 0; !rc && k < s->size * s->size; k++)
            n += s->occluded[k] || s->conf[k] < sweep_conf[t];
        a->points[t] += n;
        for (int b = 0; b < NBELIEF; b++) {
            int flag = n > 0 || (!rc && s->grid_belief < sweep_belief[b]);
            a->silent[b][t] += !right && !flag;
            a->flagged[b][t] += right && flag;
        }
    }
}

static void sweep_print(const char *name, const sweep_acc_t *a)
{
    if (!opt_sweep || !a->photos)
        return;
    printf("  sweep %s (%d photos, %d read wrong): wrong unflagged / right flagged\n", name,
           a->photos, a->wrong);
    printf("    %-22s", "point conf under:");
    for (int t = 0; t < NSWEEP; t++)
        printf(" %8.2f", sweep_conf[t]);
    printf("\n    %-22s", "unsure points a photo:");
    for (int t = 0; t < NSWEEP; t++)
        printf(" %8.1f", (double)a->points[t] / a->photos);
    printf("\n");
    for (int b = 0; b < NBELIEF; b++) {
        printf("    grid belief under %.2f", sweep_belief[b]);
        for (int t = 0; t < NSWEEP; t++)
            printf(" %4d/%-3d", a->silent[b][t], a->flagged[b][t]);
        printf("\n");
    }
}

/* Board finding is developed on the Roboflow photos of folds 0..DEV_FOLDS-1 only (their
 * failures may be looked at); folds DEV_FOLDS.. are scored, never looked into. */
#define DEV_FOLDS 3

/* The reader's model for a photo: --model FILE for all, or --fold-models DIR: the model
 * DIR/foldK.onnx that was trained with the photo's fold K (train/folds.tsv) held out, so
 * that every photo is read by a model that never saw it. NULL: the built-in model. */
static const char *opt_model, *opt_fold_dir, *opt_folds = "train/folds.tsv";
/* --fold-models given again: each further DIR's foldK.onnx joins fold K's model as a member
 * of an ensemble (vis_net_add) */
static const char *opt_fold_more[VIS_NET_MAX_MEMBERS - 1];
static int opt_nfold_more;
static int opt_photo; /* --photo: read as a photo read once (vis_config_for_photo) */
static int opt_occ_ring; /* --occ-ring: the ring's covered blocks join the occlusion pass */
/* --raw-truth: score against the sets' truths as they are, without truth_fixes.h */
static int opt_raw_truth;
static int fixes_applied, fixes_stale;

/* The 95% Wilson score interval of k successes in n trials (a set of 48 photos tells a
 * share only to within about ten points either way): [*lo, *hi], 0..1; [0, 1] for n 0. */
static void wilson95(int k, int n, double *lo, double *hi)
{
    *lo = 0;
    *hi = 1;
    if (n <= 0)
        return;
    const double z = 1.959964, p = (double)k / n, z2n = z * z / n;
    double mid = (p + z2n / 2) / (1 + z2n);
    double half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    *lo = fmax(0, mid - half);
    *hi = fmin(1, mid + half);
}

/* What the truths were scored against, one line. */
static void print_truth_note(void)
{
    if (opt_raw_truth)
        printf("  truths: the sets' own (--raw-truth)\n");
    else
        printf("  truths: the sets' own with %d fix%s of tests/vision/truth_fixes.h "
               "(bench/truth_fixes.py draws them)%s; --raw-truth for none\n",
               fixes_applied, fixes_applied == 1 ? "" : "es",
               fixes_stale ? ", some STALE: the set changed" : "");
}
static vis_net_t *fold_nets[16];
static vis_net_t *one_net;
/* --skip-missing-folds: a photo whose fold model is not in DIR is left out (the summary
 * says how many), for a recipe trained on some folds only; by default a missing model
 * stops the bench */
static int opt_skip_missing;

/* DIR/foldK.onnx of --fold-models, loaded once (0 <= k < 16); a model that does not load
 * stops the bench. */
static vis_net_t *fold_net(int k)
{
    if (!fold_nets[k]) {
        char p[1200];
        snprintf(p, sizeof p, "%s/fold%d.onnx", opt_fold_dir, k);
        if (vis_net_load(p, &fold_nets[k])) {
            fprintf(stderr, "bench_vision: %s: cannot load the model\n", p);
            exit(2);
        }
        for (int i = 0; i < opt_nfold_more; i++) {
            vis_net_t *m = NULL;
            snprintf(p, sizeof p, "%s/fold%d.onnx", opt_fold_more[i], k);
            if (vis_net_load(p, &m) || vis_net_add(fold_nets[k], m)) {
                fprintf(stderr, "bench_vision: %s: cannot load the model\n", p);
                exit(2);
            }
        }
    }
    return fold_nets[k];
}

static vis_net_t *net_for(const char *set, const char *source)
{
    if (opt_model) {
        if (!one_net && vis_net_load(opt_model, &one_net)) {
            fprintf(stderr, "bench_vision: %s: cannot load the model\n", opt_model);
            exit(2);
        }
        return one_net;
    }
    if (!opt_fold_dir)
        return NULL;
    int k = rf_fold(opt_folds, set, source);
    if (k < 0 || k >= 16) {
        fprintf(stderr, "bench_vision: %s of %s is in no fold of %s\n", source, set, opt_folds);
        exit(2);
    }
    return fold_net(k);
}

/* Whether --skip-missing-folds leaves the photo out: its fold's model is not in DIR. */
static int fold_model_missing(const char *set, const char *source)
{
    if (!opt_skip_missing || !opt_fold_dir || opt_model)
        return 0;
    int k = rf_fold(opt_folds, set, source);
    if (k < 0)
        return 0; /* net_for says so, and stops */
    char p[1200];
    snprintf(p, sizeof p, "%s/fold%d.onnx", opt_fold_dir, k);
    int missing = access(p, R_OK) != 0;
    for (int i = 0; i < opt_nfold_more && !missing; i++) {
        snprintf(p, sizeof p, "%s/fold%d.onnx", opt_fold_more[i], k);
        missing = access(p, R_OK) != 0;
    }
    return missing;
}

/* The stone finder's settings (vis_stones_params_t) for a trial: --finder on|off,
 * --finder-answers 0|1|2 (VIS_STONES_*), --finder-min SCORE, --finder-runs 1..8,
 * --finder-empty SCORE (sure_empty_min), --finder-crowd CELLS (crowd_black), --finder-reach
 * CELLS (reach), --finder-cut reader|finder (cut_by_reader), --finder-black reader|finder
 * (black_by_reader), --finder-room on|off (make_room); and --stars on|off, the star points
 * in board finding (vis_stars_params_t), --grow-stones LINES (vis_config_t grow_stones) */
static const char *opt_finder, *opt_finder_answers, *opt_finder_min, *opt_finder_runs,
    *opt_finder_empty, *opt_finder_cut, *opt_finder_crowd, *opt_finder_reach,
    *opt_finder_black, *opt_finder_room, *opt_stars, *opt_grow_stones;

/* The stone finder for fold k's photos: DIR/centresK.onnx of --fold-models (trained with
 * fold k held out, train/stone_centres.py --export), loaded once; NULL when DIR has none
 * (then the photo is read without the finder: the built-in one saw every photo). */
static vis_finder_t *fold_finders[16];
static const char *opt_finder_also[VIS_FINDER_MAX_NETS - 1]; /* --fold-finders DIR ... */
static int opt_finder_also_n;
static int fold_finder_tried[16], fold_finders_missing, fold_finders_used;

static vis_finder_t *fold_finder(int k)
{
    if (!fold_finder_tried[k]) {
        char p[1200];
        snprintf(p, sizeof p, "%s/centres%d.onnx", opt_fold_dir, k);
        fold_finder_tried[k] = 1;
        if (access(p, R_OK) == 0 && vis_finder_load(p, &fold_finders[k])) {
            fprintf(stderr, "bench_vision: %s: cannot load the model\n", p);
            exit(2);
        }
        for (int d = 0; d < opt_finder_also_n && fold_finders[k]; d++) { /* an ensemble */
            vis_finder_t *more = NULL;
            snprintf(p, sizeof p, "%s/centres%d.onnx", opt_finder_also[d], k);
            if (vis_finder_load(p, &more) || vis_finder_add(fold_finders[k], more)) {
                fprintf(stderr, "bench_vision: %s: cannot load the model\n", p);
                exit(2);
            }
        }
    }
    fold_finders_missing += !fold_finders[k];
    fold_finders_used += !!fold_finders[k];
    return fold_finders[k];
}

/* A bench read's config: the defaults with reader `net` (NULL: the built-in one), as a
 * photo when photo is set (read_cfg_fold: with --photo); with --fold-models, fold k's
 * finder (k < 0: the built-in one); the --finder options over it. */
static void read_cfg_as(vis_config_t *c, vis_net_t *net, int k, int photo)
{
    vis_config_defaults(c);
    c->net = net;
    if (photo)
        vis_config_for_photo(c);
    c->occ_ring = opt_occ_ring;
    if (opt_finder)
        c->stones.on = !strcmp(opt_finder, "on");
    if (opt_finder_answers)
        c->stones.answers = atoi(opt_finder_answers);
    if (opt_finder_min)
        c->stones.min_score = (float)atof(opt_finder_min);
    if (opt_finder_runs)
        c->stones.symmetries = atoi(opt_finder_runs);
    if (opt_finder_empty)
        c->stones.sure_empty_min = (float)atof(opt_finder_empty);
    if (opt_finder_crowd)
        c->stones.crowd_black = atof(opt_finder_crowd);
    if (opt_finder_reach)
        c->stones.reach = atof(opt_finder_reach);
    if (opt_stars)
        c->stars.on = !strcmp(opt_stars, "on");
    if (opt_grow_stones)
        c->grow_stones = atof(opt_grow_stones);
    if (opt_finder_room)
        c->stones.make_room = !strcmp(opt_finder_room, "on");
    if (opt_finder_black)
        c->stones.black_by_reader = !strcmp(opt_finder_black, "reader");
    if (opt_finder_cut)
        c->stones.cut_by_reader = !strcmp(opt_finder_cut, "reader");
    if (opt_fold_dir && !opt_model && k >= 0 && c->stones.on) {
        c->stones.finder = fold_finder(k);
        c->stones.on = c->stones.finder != NULL;
    }
}

static void read_cfg_fold(vis_config_t *c, vis_net_t *net, int k)
{
    read_cfg_as(c, net, k, opt_photo);
}

static void read_cfg(vis_config_t *c, vis_net_t *net)
{
    read_cfg_fold(c, net, -1);
}

/* The config every bench read uses: the model of --model when given. */
static const vis_config_t *bench_cfg(void)
{
    static vis_config_t c;
    read_cfg(&c, opt_model ? net_for("", "") : NULL);
    return &c;
}

static int accuracy(const char *data, int verbose)
{
    static const char *sets[2] = { "imago", "gomrade" };
    acc_t aut[2] = { { 0 } }, all = { 0 }, held = { 0 }, tuned = { 0 }, cor = { 0 };
    sweep_acc_t sw[2] = { { 0 } }; /* tuned on, held out */
    for (int si = 0; si < 2; si++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/photos/%s", data, sets[si]);
        vg_entry_t *e = calloc(128, sizeof *e);
        int n = e ? vg_read_index(dir, e, 128) : -1;
        if (n < 0) {
            fprintf(stderr, "bench_vision: %s/index.tsv: cannot read\n", dir);
            free(e);
            return 2;
        }
        for (int i = 0; i < n; i++) {
            uint8_t truth[VIS_MAX_POINTS];
            int size = 0;
            cvb_image_t img = { 0 };
            if (vg_read_truth(e[i].truth, truth, &size) || cvb_imread(e[i].image, 1, &img)) {
                fprintf(stderr, "bench_vision: %s: cannot read\n", e[i].id);
                continue;
            }
            if (!opt_raw_truth)
                fixes_applied += vg_apply_fixes(e[i].id, truth, size, &fixes_stale);
            vis_geom_t g;
            vis_snapshot_t s;
            memset(&s, 0, sizeof s);
            int rc = vis_detect(&img, bench_cfg(), 0, &g, &s, NULL);
            int wrong = rc ? size * size : vg_mistakes(&s, truth, size, 1);
            if (verbose > 1 && !rc && wrong < size * size / 4) {
                vis_reading_t *rd = malloc(sizeof *rd);
                if (!rd || vis_classify_reading(&img, &g, bench_cfg(), &s, rd)) {
                    free(rd);
                    continue;
                }
                int bsym = 0, bm = size * size;
                for (int sym = 0; sym < 8; sym++) {
                    int m = 0;
                    for (int k = 0; k < size * size; k++) {
                        int a, b;
                        vis_sym_src(sym, size, k % size, k / size, &a, &b);
                        m += s.color[b * size + a] != truth[k];
                    }
                    if (m < bm) {
                        bm = m;
                        bsym = sym;
                    }
                }
                for (int k = 0; k < size * size; k++) {
                    int a, b;
                    vis_sym_src(bsym, size, k % size, k / size, &a, &b);
                    int q = b * size + a;
                    if (s.color[q] != truth[k] || s.occluded[q] || verbose > 2)
                        printf("   %s pt %2d,%2d truth %d got %d%s P(empty %.3f black %.3f "
                               "white %.3f covered %.3f off %.3f)\n",
                               e[i].id, a, b, truth[k], s.color[q],
                               s.occluded[q] ? " (occluded)" : "", rd->prob[q][0],
                               rd->prob[q][1], rd->prob[q][2], rd->prob[q][3], rd->prob[q][4]);
                }
                free(rd);
            }
            int unsure = unsure_points(&s, rc);
            acc_add(&aut[si], size, wrong, !rc, unsure);
            acc_add(&all, size, wrong, !rc, unsure);
            acc_add(vg_held_out(e[i].id) ? &held : &tuned, size, wrong, !rc, unsure);
            sweep_add(&sw[vg_held_out(e[i].id)], &s, rc, wrong == 0);
            if (verbose)
                printf("auto    %-30s %s size %2d wrong %3d unsure %3d%s%s\n", e[i].id,
                       rc ? "NOBOARD" : "found  ", rc ? 0 : s.size, wrong, unsure < 0 ? 0 : unsure,
                       wrong > 0 && !unsure ? "  UNFLAGGED" : "",
                       vg_held_out(e[i].id) ? "  (held out)" : "");
            if (e[i].has_corners && e[i].corners_ok) {
                double c[4][2];
                cvb_image_t raw = { 0 };
                if (!vg_parse_corners(e[i].corners, c) && !cvb_imread(e[i].image, 0, &raw)) {
                    int ok = getenv("VIS_NOREFINE")
                                 ? !vis_geom_from_corners(c, size, raw.w, raw.h, &g) &&
                                       !vis_classify(&raw, &g, bench_cfg(), &s)
                                 : !vis_classify_corners(&raw, c, bench_cfg(), size, &g, &s, NULL);
                    int w2 = ok ? vg_mistakes(&s, truth, size, 0) : size * size;
                    acc_add(&cor, size, w2, 1, unsure_points(&s, !ok));
                    if (verbose)
                        printf("corners %-30s wrong %3d\n", e[i].id, w2);
                }
                cvb_image_free(&raw);
            }
            cvb_image_free(&img);
        }
        free(e);
    }
    printf("automatic mode (8 symmetries):\n");
    acc_print("imago", &aut[0]);
    acc_print("gomrade", &aut[1]);
    acc_print("overall", &all);
    acc_print("tuned on", &tuned);
    acc_print("held out (not tuned on)", &held);
    sweep_print("tuned on", &sw[0]);
    sweep_print("held out (not tuned on)", &sw[1]);
    printf("given corners (gomrade corners_ok=1, direct):\n");
    acc_print("overall", &cor);
    print_truth_note();
    return 0;
}

/* Rendered footage (render/, kifucam-render --still or frames): truth.txt gives per frame
 * the file, whether a hand is in view, the corners and the position shown. Scores frames
 * without hands, automatic mode (8 symmetries) and with the given corners (direct). */
static int footage(int ndirs, char **dirs, int verbose)
{
    acc_t aut = { 0 }, cor = { 0 };
    int grid_right = 0;
    for (int d = 0; d < ndirs; d++) {
        char path[1200], *line = NULL;
        size_t cap = 0;
        snprintf(path, sizeof path, "%s/truth.txt", dirs[d]);
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "bench_vision: %s: cannot read\n", path);
            continue;
        }
        int size = 19, count = 0;
        while (getline(&line, &cap, f) > 0) {
            if (!strncmp(line, "size ", 5))
                size = atoi(line + 5);
            if (strncmp(line, "frame ", 6))
                continue;
            char *fp = strstr(line, " file="), *hp = strstr(line, " hand="),
                 *cp = strstr(line, " corners="), *sp = strstr(line, " shown=");
            if (!fp || !hp || !cp || !sp || atoi(hp + 6) != 0 || size < 2 || size > VIS_MAX_SIZE)
                continue;
            if (count++ % 25) /* every 25th frame of a video is plenty */
                continue;
            char file[256], corners[256];
            sscanf(fp + 6, "%255s", file);
            sscanf(cp + 9, "%255s", corners);
            uint8_t truth[VIS_MAX_POINTS];
            const char *q = sp + 7;
            int n = 0;
            for (; *q && n < size * size; q++)
                if (*q == '.' || *q == 'X' || *q == 'O')
                    truth[n++] = *q == '.' ? GO_EMPTY : *q == 'X' ? GO_BLACK : GO_WHITE;
            if (n != size * size)
                continue;
            snprintf(path, sizeof path, "%s/%s", dirs[d], file);
            cvb_image_t img = { 0 };
            if (cvb_imread(path, 1, &img))
                continue;
            vis_geom_t g;
            vis_snapshot_t s;
            memset(&s, 0, sizeof s);
            int rc = vis_detect(&img, bench_cfg(), 0, &g, &s, NULL);
            int wrong = rc ? size * size : vg_mistakes(&s, truth, size, 1);
            acc_add(&aut, size, wrong, !rc, unsure_points(&s, rc));
            double c[4][2];
            double gerr = -1;
            if (!rc && g.size == size && !vg_parse_corners(corners, c))
                gerr = vg_grid_err(&g, c, g.size);
            grid_right += gerr >= 0 && gerr < 0.5;
            int ok = !vg_parse_corners(corners, c) &&
                     (getenv("VIS_NOREFINE")
                          ? !vis_geom_from_corners(c, size, img.w, img.h, &g) &&
                                !vis_classify(&img, &g, bench_cfg(), &s)
                          : !vis_classify_corners(&img, c, bench_cfg(), size, &g, &s, NULL));
            int w2 = ok ? vg_mistakes(&s, truth, size, 0) : size * size;
            acc_add(&cor, size, w2, 1, unsure_points(&s, !ok));
            if (verbose)
                printf("  %s/%s: auto %s %d wrong (grid off by %.2f spacings), corners %d "
                       "wrong\n", dirs[d], file, rc ? "NOBOARD" : "found", wrong, gerr, w2);
            cvb_image_free(&img);
        }
        free(line);
        fclose(f);
    }
    printf("rendered footage (render/, frames without hands):\n");
    acc_print("automatic (8 symmetries)", &aut);
    printf("  %-28s %d of %d (every corner within half a spacing of the truth's)\n",
           "automatic: grid right", grid_right, aut.boards);
    acc_print("given corners", &cor);
    return 0;
}

/* Hands over rendered footage (truth.txt through render/rnd_truth.h), the geometry from
 * the truth's corners (as tracking has it): per frame with a hand, whether any point the
 * truth marks covered is read as a stone that is not there (not flagged occluded), and
 * whether the hand is noticed at all; per frame without a hand, whether any point is
 * flagged occluded (a false alarm) or read wrong. Every STEP-th frame (default 3). */
static int occlusion(int ndirs, char **dirs, int verbose)
{
    long hf = 0, hf_bad = 0, hf_seen = 0, cov = 0, cov_stone = 0, cov_flag = 0;
    long nf = 0, nf_flag = 0, nf_wrong = 0, unc_wrong = 0, unc = 0;
    const char *st = getenv("VIS_STEP");
    int step = st ? atoi(st) : 3;
    if (step < 1)
        step = 1;
    for (int d = 0; d < ndirs; d++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/truth.txt", dirs[d]);
        rnd_truth_t *t = NULL;
        if (rnd_truth_open(path, &t)) {
            fprintf(stderr, "bench_vision: %s: cannot read\n", path);
            continue;
        }
        int size = rnd_truth_size(t), count = 0;
        rnd_truth_frame_t *f = malloc(sizeof *f);
        while (f && rnd_truth_next(t, f, NULL) == 0) {
            if (count++ % step)
                continue;
            snprintf(path, sizeof path, "%s/%s", dirs[d], f->file);
            cvb_image_t img = { 0 };
            if (cvb_imread(path, 1, &img))
                continue;
            double c[4][2];
            for (int k = 0; k < 4; k++) {
                c[k][0] = f->corners[2 * k];
                c[k][1] = f->corners[2 * k + 1];
            }
            vis_geom_t g;
            vis_snapshot_t s;
            memset(&s, 0, sizeof s);
            vis_reading_t *rd = malloc(sizeof *rd);
            if (!rd || vis_geom_from_corners(c, size, img.w, img.h, &g) ||
                vis_classify_reading(&img, &g, bench_cfg(), &s, rd)) {
                free(rd);
                cvb_image_free(&img);
                continue;
            }
            int bad = 0, flagged = 0, wrong = 0, uw = 0;
            for (int k = 0; k < size * size && verbose > 1; k++)
                if ((f->occluded[k] && s.color[k] != GO_EMPTY && s.color[k] != f->shown[k]) ||
                    (!f->occluded[k] && f->shown[k] != GO_EMPTY && (k + count) % 7 == 0) ||
                    (!f->occluded[k] && s.occluded[k]))
                    printf("    %s %d got %d P(empty %.3f black %.3f white %.3f covered %.3f off %.3f)\n",
                           f->occluded[k] ? "HAND " : s.occluded[k] ? "FALSE" : "STONE",
                           f->shown[k], s.occluded[k] ? 3 : s.color[k], rd->prob[k][0],
                           rd->prob[k][1], rd->prob[k][2], rd->prob[k][3], rd->prob[k][4]);
            free(rd);
            for (int k = 0; k < size * size; k++) {
                flagged += s.occluded[k];
                if (f->occluded[k]) {
                    cov++;
                    cov_flag += s.occluded[k];
                    if (!s.occluded[k] && s.color[k] != GO_EMPTY && s.color[k] != f->shown[k]) {
                        cov_stone++;
                        bad++;
                    }
                } else if (!s.occluded[k] && s.color[k] != f->shown[k]) {
                    wrong++;
                }
            }
            if (f->hand) {
                /* points not under the hand but read wrong (its shadow, its edge) */
                unc += size * size;
                unc_wrong += wrong;
                uw = wrong;
                hf++;
                hf_bad += bad > 0;
                hf_seen += s.occluder;
            } else {
                nf++;
                nf_flag += flagged > 0;
                nf_wrong += wrong > 0;
            }
            if (verbose && (bad || uw || (!f->hand && (flagged || wrong))))
                printf("  %s/%s: hand %d, covered read as stones %d, flagged %d, other wrong %d\n",
                       dirs[d], f->file, f->hand, bad, flagged, wrong);
            cvb_image_free(&img);
        }
        free(f);
        rnd_truth_close(t);
    }
    printf("hands over rendered footage (given corners, every %d frames):\n", step);
    printf("  frames with a hand    %5ld: a covered point read as a stone in %ld (%.1f%%); hand noticed in %ld (%.1f%%)\n",
           hf, hf_bad, hf ? 100.0 * hf_bad / hf : 0.0, hf_seen, hf ? 100.0 * hf_seen / hf : 0.0);
    printf("  covered points        %5ld: flagged occluded %ld (%.1f%%), read as a stone not there %ld\n",
           cov, cov_flag, cov ? 100.0 * cov_flag / cov : 0.0, cov_stone);
    printf("  uncovered points in hand frames read wrong: %ld of %ld\n", unc_wrong, unc);
    printf("  frames without a hand %5ld: flagged occluded %ld (%.1f%%), some point wrong %ld\n",
           nf, nf_flag, nf ? 100.0 * nf_flag / nf : 0.0, nf_wrong);
    return 0;
}

/* The point a stone's box lies on under g: its index, or -1 when the box maps beyond the
 * board (or nowhere); *near: within 0.45 of that point along both lines. */
static int box_point(const vis_geom_t *g, const cvb_image_t *img, const rf_box_t *b, int *near)
{
    double bx, by;
    *near = 0;
    if (vis_homog_apply(g->Hinv, b->cx * img->w, b->cy * img->h, &bx, &by))
        return -1;
    int x = (int)lround(bx), y = (int)lround(by);
    if (x < 0 || y < 0 || x >= g->size || y >= g->size)
        return -1;
    *near = fabs(bx - x) <= 0.45 && fabs(by - y) <= 0.45;
    return y * g->size + x;
}

/* What is wrong in a photo whose counts are wrong: a mask of these, each counted in the
 * bench's summary (a photo may show several), so that work goes where the photos fail. */
enum {
    WRONG_NOBOARD = 1 << 0, /* no board found */
    WRONG_GRID = 1 << 1,    /* a grid the labelled stones do not agree with */
    WRONG_BEYOND = 1 << 2,  /* under an agreeing grid: a labelled stone beyond the board */
    WRONG_TWO = 1 << 3,     /* two labelled stones nearest one point (one lies off it) */
    WRONG_EDGE = 1 << 4,    /* a point read wrong whose stone's disc the picture cuts */
    WRONG_MISSED = 1 << 5,  /* a stone read empty (covered included), inside the picture */
    WRONG_EXTRA = 1 << 6,   /* a stone read where the labels have none, inside it */
    WRONG_SWAPPED = 1 << 7, /* a stone read as the other colour, inside it */
    WRONG_KINDS = 8
};
static const char *const wrong_kind[WRONG_KINDS] = {
    "no board", "grid disagrees", "labelled beyond the grid", "two labels on a point",
    "point cut by the picture's edge", "stone missed", "stone read where none is",
    "colour swapped"
};

/* The labelled stones on the points of grid g (label[k]: GO_EMPTY, GO_BLACK, GO_WHITE).
 * A point two labels land on keeps the first; with source, the other, and a label beyond
 * the board, get a "label" line. WRONG_BEYOND and WRONG_TWO when there are such labels. */
static int point_labels(const char *source, const cvb_image_t *img, const vis_geom_t *g,
                        int size, const rf_box_t *b, int nb, int *label)
{
    static const char *name[] = { "empty", "black", "white" };
    int odd = 0;
    for (int k = 0; k < size * size; k++)
        label[k] = GO_EMPTY;
    for (int k = 0; k < nb; k++) {
        int near, p = b[k].cls > 1 ? -1 : box_point(g, img, &b[k], &near);
        if (p >= 0 && label[p] == GO_EMPTY)
            label[p] = b[k].cls == 0 ? GO_BLACK : GO_WHITE;
        else if (b[k].cls <= 1) { /* a stone off the board, or a second on one point */
            odd |= p < 0 ? WRONG_BEYOND : WRONG_TWO;
            if (source)
                printf("    label %s %s px %6.1f %6.1f %s\n", source, name[b[k].cls == 0 ? GO_BLACK : GO_WHITE],
                       b[k].cx * img->w, b[k].cy * img->h, p < 0 ? "beyond the board" : "on a point labelled already");
        }
    }
    return odd;
}

/* The counts once the user has answered the points the photo asks about (`?`: what `count`
 * asks before it counts): every unsure point given its labelled colour, the others as
 * read. */
static void answered_counts(const vis_snapshot_t *s, const int *label, int *nb, int *nw)
{
    *nb = *nw = 0;
    for (int k = 0; k < s->size * s->size; k++) {
        int c = vis_point_unsure(s, k) ? label[k] : s->color[k];
        *nb += c == GO_BLACK;
        *nw += c == GO_WHITE;
    }
}

/* VIS_VERBOSE: under a grid that agrees with the labels, each point read otherwise than
 * labelled, a line each (where it lies in the picture, what was read and how surely), so
 * that a mistake can be looked at rather than guessed from a count. */
static void stones_wrong_points(const char *source, const cvb_image_t *img, const vis_geom_t *g,
                                const vis_snapshot_t *s, const rf_box_t *b, int nb)
{
    static const char *name[] = { "empty", "black", "white" };
    int label[VIS_MAX_POINTS];
    point_labels(source, img, g, s->size, b, nb, label);
    for (int k = 0; k < s->size * s->size; k++) {
        int got = s->occluded[k] ? GO_EMPTY : s->color[k];
        if (got != label[k])
            printf("    wrong %s %2d %2d px %6.1f %6.1f radius %5.1f label %s read %s%s conf %.2f\n",
                   source, k % s->size, k / s->size, g->px[k], g->py[k], g->radius[k],
                   name[label[k]], name[got], s->occluded[k] ? " (covered)" : "", s->conf[k]);
    }
}

/* The WRONG_* kinds of a photo read under a grid g that agrees with the labels: the
 * labels' own (odd, point_labels') and those of the points read otherwise than label. */
static int wrong_kinds(const cvb_image_t *img, const vis_geom_t *g, const vis_snapshot_t *s,
                       const int *label, int odd)
{
    int kinds = odd;
    for (int k = 0; k < s->size * s->size; k++) {
        int got = s->occluded[k] ? GO_EMPTY : s->color[k];
        if (got == label[k])
            continue;
        double r = g->radius[k];
        if (g->px[k] - r < 0 || g->py[k] - r < 0 || g->px[k] + r > img->w - 1 ||
            g->py[k] + r > img->h - 1)
            kinds |= WRONG_EDGE;
        else
            kinds |= got == GO_EMPTY ? WRONG_MISSED : label[k] == GO_EMPTY ? WRONG_EXTRA : WRONG_SWAPPED;
    }
    return kinds;
}

/* Whether the picture shows the board of geom whole: every point a quarter of a spacing
 * beyond its outer lines (the board's margin, narrow on many boards) lies in the picture.
 * bench/pose.sh counts a posed copy's cost only where the photo itself showed its board
 * so (a board the picture cuts, laid on a table, gets an edge no real board has). */
static int board_whole(const cvb_image_t *img, const vis_geom_t *g)
{
    int S = g->size;
    for (int i = 0; i < S; i++)
        for (int side = 0; side < 4; side++) {
            double x = side == 0 ? -0.25 : side == 1 ? S - 0.75 : i;
            double y = side == 2 ? -0.25 : side == 3 ? S - 0.75 : i;
            double u, v;
            if (vis_homog_apply(g->H, x, y, &u, &v) || !vis_in_picture(img, u, v, 0))
                return 0;
        }
    return 1;
}

/* roboflow-stones: real photos of many boards, cropped to the board, with a box per stone
 * and no grid: a photo is right when both colours' stone counts are exact. */
/* VIS_FINDER_DUMP=FILE (stones): one line appended to FILE for every point of photo e
 * (read into s under grid g) whose call the stone finder changed: the reader's own call on
 * the same grid (vis_classify with the finder off) against the final one and the label.
 * Fields: source fold point reader_colour reader_covered reader_conf final_colour
 * final_conf label size (colours go_color_t). bench/finder_vs_reader.py tallies who was
 * right. */
static void finder_dump(const char *path, const rf_entry_t *e, const cvb_image_t *img,
                        const vis_geom_t *g, const vis_config_t *cfg, const vis_snapshot_t *s,
                        const rf_box_t *b, int nb)
{
    vis_config_t c2 = *cfg;
    c2.stones.on = 0;
    vis_snapshot_t s2;
    memset(&s2, 0, sizeof s2);
    int label[VIS_MAX_POINTS];
    point_labels(NULL, img, g, s->size, b, nb, label);
    if (vis_classify(img, g, &c2, &s2))
        return;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "bench_vision: %s: cannot write\n", path);
        return;
    }
    for (int k = 0; k < s->size * s->size; k++)
        if (!s->occluded[k] && (s2.color[k] != s->color[k] || s2.occluded[k]))
            fprintf(f, "%s %d %d %d %d %.3f %d %.3f %d %d\n", e->source,
                    rf_fold(opt_folds, "roboflow-stones", e->source), k, s2.color[k],
                    s2.occluded[k], s2.conf[k], s->color[k], s->conf[k], label[k], s->size);
    fclose(f);
}

static int stones(const char *data, int verbose)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/photos/roboflow-stones", data);
    rf_entry_t *e = calloc(512, sizeof *e);
    rf_box_t *b = calloc(RF_MAX_BOXES, sizeof *b);
    int n = e && b ? rf_list(dir, e, 512) : -1;
    if (n < 0) {
        fprintf(stderr, "bench_vision: %s: cannot read\n", dir);
        free(e);
        free(b);
        return 2;
    }
    int gagree = 0, gagree_exact = 0, skipped = 0, silent = 0, flagged = 0, answered[2] = { 0, 0 };
    int kind_n[2][WRONG_KINDS] = { { 0 } }, kind_alone[2][WRONG_KINDS] = { { 0 } }, kinds = 0;
    int found = 0, exact = 0, dev[512] = { 0 }, gn[2] = { 0, 0 }, gfound[2] = { 0, 0 }, gexact[2] = { 0, 0 };
    long truth_stones = 0, read_stones = 0;
    sweep_acc_t sw[2] = { { 0 } }; /* folds 0-2, folds 3-4 */
    for (int i = 0; i < n; i++) {
        int nb = rf_read_boxes(e[i].label, b, RF_MAX_BOXES), tb = 0, tw = 0;
        cvb_image_t img = { 0 };
        if (fold_model_missing("roboflow-stones", e[i].source)) {
            dev[i] = -1; /* sorted first, and left out of the median */
            skipped++;
            continue;
        }
        if (nb < 0 || cvb_imread(e[i].image, 1, &img)) {
            fprintf(stderr, "bench_vision: %s: cannot read\n", e[i].name);
            continue;
        }
        if (!opt_raw_truth)
            nb = rf_apply_fixes(e[i].source, b, nb, RF_MAX_BOXES, img.w, img.h, &fixes_stale,
                                &fixes_applied);
        for (int k = 0; k < nb; k++) {
            tb += b[k].cls == 0;
            tw += b[k].cls == 1;
        }
        dev[i] = tb + tw;
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        vis_config_t cfg;
        read_cfg_fold(&cfg, net_for("roboflow-stones", e[i].source),
                      opt_fold_dir ? rf_fold(opt_folds, "roboflow-stones", e[i].source) : -1);
        int rc = vis_detect(&img, &cfg, 0, &g, &s, NULL), rb = 0, rw = 0;

        for (int k = 0; !rc && k < s.size * s.size; k++) {
            rb += !s.occluded[k] && s.color[k] == GO_BLACK;
            rw += !s.occluded[k] && s.color[k] == GO_WHITE;
        }
        /* whether the grid found agrees with the labelled stones (each within 0.45 of a
         * point, none beyond the board; 3% slack as train/traingen.c's photo_labels): a
         * photo read wrong under such a grid is the reader's mistake, not board finding's */
        int odd = 0;
        for (int k = 0; !rc && k < nb; k++) {
            int near;
            odd += box_point(&g, &img, &b[k], &near) < 0 || !near;
        }
        int agrees = !rc && odd <= 1 + nb * 3 / 100;
        int right = !rc && rb == tb && rw == tw, unsure = unsure_points(&s, rc);
        silent += !right && unsure == 0;
        flagged += right && unsure != 0;
        if (verbose && agrees) /* which points are wrong, and how: the labels on the grid */
            stones_wrong_points(e[i].source, &img, &g, &s, b, nb);
        if (agrees && getenv("VIS_FINDER_DUMP"))
            finder_dump(getenv("VIS_FINDER_DUMP"), &e[i], &img, &g, &cfg, &s, b, nb);
        gagree += agrees;
        gagree_exact += agrees && rb == tb && rw == tw;
        /* the counts once the points asked about are answered (under a grid that agrees
         * with the labels: elsewhere the labels give no point its colour) */
        /* and what is wrong in the photo */
        int after = right;
        kinds = right ? 0 : rc ? WRONG_NOBOARD : WRONG_GRID;
        if (!right && agrees) {
            int label[VIS_MAX_POINTS], ab, aw;
            int odd = point_labels(NULL, &img, &g, s.size, b, nb, label);
            answered_counts(&s, label, &ab, &aw);
            after = ab == tb && aw == tw;
            kinds = wrong_kinds(&img, &g, &s, label, odd);
        }
        int grp = rf_fold(opt_folds, "roboflow-stones", e[i].source) >= DEV_FOLDS;
        answered[grp] += after;
        for (int w = 0; w < WRONG_KINDS; w++) {
            kind_n[grp][w] += (kinds >> w) & 1;
            kind_alone[grp][w] += kinds == 1 << w;
        }
        found += !rc;
        exact += !rc && rb == tb && rw == tw;
        gn[grp]++;
        gfound[grp] += !rc;
        gexact[grp] += !rc && rb == tb && rw == tw;
        sweep_add(&sw[grp], &s, rc, right);
        dev[i] = abs(rb - tb) + abs(rw - tw);
        truth_stones += tb + tw;
        read_stones += rb + rw;
        if (verbose)
            printf("  %-16s %s size %2d black %3d/%3d white %3d/%3d unsure %3d%s%s%s%s\n", e[i].source,
                   rc ? "NOBOARD" : "found  ", rc ? 0 : s.size, rb, tb, rw, tw,
                   unsure < 0 ? 0 : unsure, !right && !unsure ? "  UNFLAGGED" : "",
                   rc ? "" : vis_grid_doubted(&s) ? "  (grid in doubt)" : "",
                   rc ? "" : agrees ? "" : "  (grid disagrees with the labels)",
                   !rc && board_whole(&img, &g) ? "  (board whole)" : "");
        for (int w = 0; verbose && kinds && w < WRONG_KINDS; w++)
            if ((kinds >> w) & 1)
                printf("    kind %s %s\n", e[i].source, wrong_kind[w]);
        cvb_image_free(&img);
    }
    for (int i = 1; i < n; i++) /* insertion sort of the deviations, for the median */
        for (int j = i; j > 0 && dev[j] < dev[j - 1]; j--) {
            int t = dev[j];
            dev[j] = dev[j - 1];
            dev[j - 1] = t;
        }
    printf("roboflow-stones (%d photos; stone counts, both colours; reader: %s):\n", n - skipped,
           opt_model ? opt_model : opt_fold_dir ? "the fold's model (held out)" : "built in");
    if (opt_fold_dir && !opt_model && fold_finders_used + fold_finders_missing)
        printf("  stone finder: the fold's (centresK.onnx, held out; an ensemble of %d) on %d photos, "
               "none on %d (no centresK.onnx in %s)\n", 1 + opt_finder_also_n, fold_finders_used,
               fold_finders_missing, opt_fold_dir);
    else if (opt_fold_dir && !opt_model)
        printf("  stone finder: off\n");
    if (skipped)
        printf("  %d photos left out: their fold's model is not in %s\n", skipped, opt_fold_dir);
    int nr = n - skipped;
    printf("  board found %d, both counts exact %d (%.1f%%), median photo %d stones off, "
           "stones read %ld of %ld\n",
           found, exact, nr ? 100.0 * exact / nr : 0.0, nr ? dev[skipped + nr / 2] : 0,
           read_stones, truth_stones);
    printf("  under a grid that agrees with the labelled stones: %d photos, both counts exact %d (%.1f%%)\n",
           gagree, gagree_exact, gagree ? 100.0 * gagree_exact / gagree : 0.0);
    printf("  flags (a point unsure, or no board): counts wrong with nothing unsure %d, "
           "counts exact with some point unsure %d\n", silent, flagged);
    printf("  both counts exact once the points asked about (unsure, `?`) are answered as "
           "labelled: %d (%.1f%%; folds 3-4 %d of %d)\n",
           answered[0] + answered[1], nr ? 100.0 * (answered[0] + answered[1]) / nr : 0.0,
           answered[1], gn[1]);
    print_truth_note();
    for (int g = 0; g < 2; g++) {
        double lo, hi;
        wilson95(gexact[g], gn[g], &lo, &hi);
        printf("  %-34s %3d photos: board found %3d, both counts exact %3d (%.1f%%; 95%% "
               "interval %.1f-%.1f%%)\n",
               g ? "folds 3-4 (board finding not tuned)" : "folds 0-2 (board finding dev)", gn[g],
               gfound[g], gexact[g], gn[g] ? 100.0 * gexact[g] / gn[g] : 0.0, 100 * lo, 100 * hi);
    }
    printf("  the photos read wrong, by what is wrong in them (a photo may show several; alone: "
           "that and nothing else), folds 0-2 + folds 3-4:\n");
    for (int w = 0; w < WRONG_KINDS; w++)
        printf("    %-32s %2d + %2d photos, alone %2d + %2d\n", wrong_kind[w], kind_n[0][w],
               kind_n[1][w], kind_alone[0][w], kind_alone[1][w]);
    sweep_print("folds 0-2 (tuning)", &sw[0]);
    sweep_print("folds 3-4 (held out)", &sw[1]);
    free(e);
    free(b);
    return 0;
}

/* roboflow-corners: real photos of 19x19 boards in play, four hand-drawn boxes around the
 * grid's corner intersections: the largest distance of a found corner from its box's
 * centre, in the local spacing (the labelled quad's two sides at that corner / 18), best
 * of the 8 orders.
 * The boxes are not centred on the intersections: drawn around the corner, they take in
 * more of the board than of its edge, so their centres lie inside the corner point (about
 * a tenth of a spacing along each line; docs/corner-labels.png shows it). The bench measures that
 * offset on folds 0-2 (board finding's dev folds): the mean, over the grids found within
 * half a spacing, of each box centre in the found grid's board coordinates less its
 * corner, taken inwards; and gives folds 3-4 also with the boxes moved back by it. */
#define CORNER_GOOD 0.5 /* spacings: a grid this close gives the offset its say */
static int corners(const char *data, int verbose)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/photos/roboflow-corners", data);
    rf_entry_t *e = calloc(512, sizeof *e);
    int n = e ? rf_list(dir, e, 512) : -1;
    if (n < 0) {
        fprintf(stderr, "bench_vision: %s: cannot read\n", dir);
        free(e);
        return 2;
    }
    int found = 0, half = 0, quarter = 0, labelled = 0, gn[2] = { 0, 0 }, ghalf[2] = { 0, 0 },
        gquarter[2] = { 0, 0 };
    /* per photo of folds 3-4: the boxes' inward offsets in board units (-1e9: no grid) */
    double (*in3)[4][2] = calloc((size_t)n, sizeof *in3), bias[2] = { 0, 0 };
    int nbias = 0, n3 = 0;
    if (!in3) {
        free(e);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        rf_box_t b[8];
        int nb = rf_read_boxes(e[i].label, b, 8);
        cvb_image_t img = { 0 };
        if (nb != 4 || cvb_imread(e[i].image, 1, &img)) {
            fprintf(stderr, "bench_vision: %s: cannot read\n", e[i].name);
            continue;
        }
        labelled++;
        double c[4][2]; /* the labelled corners in order around their centroid */
        rf_corners_of(b, img.w, img.h, c);
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        int rc = vis_detect(&img, bench_cfg(), 0, &g, &s, NULL);
        double err = !rc && g.size == 19 ? rf_corners_err(&g, c) : -1;
        int grp = rf_fold(opt_folds, "roboflow-corners", e[i].source) >= DEV_FOLDS;
        double in[4][2]; /* each box centre less its grid corner, board units, inwards */
        for (int k = 0; k < 4; k++)
            in[k][0] = in[k][1] = -1e9;
        for (int k = 0; k < 4 && err >= 0; k++) {
            double bx, by;
            if (vis_homog_apply(g.Hinv, c[k][0], c[k][1], &bx, &by))
                continue;
            double gx = bx < 9 ? 0 : 18, gy = by < 9 ? 0 : 18;
            in[k][0] = gx == 0 ? bx - gx : gx - bx;
            in[k][1] = gy == 0 ? by - gy : gy - by;
        }
        if (!grp && err >= 0 && err <= CORNER_GOOD)
            for (int k = 0; k < 4; k++)
                if (in[k][0] > -1e8) {
                    bias[0] += in[k][0];
                    bias[1] += in[k][1];
                    nbias++;
                }
        if (grp)
            memcpy(in3[n3++], in, sizeof in);
        found += !rc;
        half += err >= 0 && err <= 0.5;
        quarter += err >= 0 && err <= 0.25;
        gn[grp]++;
        ghalf[grp] += err >= 0 && err <= 0.5;
        gquarter[grp] += err >= 0 && err <= 0.25;
        if (verbose)
            printf("  %-40s %s size %2d corner error %.2f spacings\n", e[i].name,
                   rc ? "NOBOARD" : "found  ", rc ? 0 : g.size, err);
        cvb_image_free(&img);
    }
    printf("roboflow-corners (%d photos of 19x19 boards; the grid's corners against the labels):\n",
           labelled);
    printf("  board found %d, within half a spacing %d (%.1f%%), within a quarter %d (%.1f%%)\n",
           found, half, labelled ? 100.0 * half / labelled : 0.0, quarter,
           labelled ? 100.0 * quarter / labelled : 0.0);
    for (int g = 0; g < 2; g++)
        printf("  %-34s %3d photos: within half %3d (%.1f%%), within a quarter %3d (%.1f%%)\n",
               g ? "folds 3-4 (board finding not tuned)" : "folds 0-2 (board finding dev)", gn[g],
               ghalf[g], gn[g] ? 100.0 * ghalf[g] / gn[g] : 0.0, gquarter[g],
               gn[g] ? 100.0 * gquarter[g] / gn[g] : 0.0);
    if (nbias) {
        bias[0] /= nbias;
        bias[1] /= nbias;
        int ch = 0, cq = 0;
        for (int i = 0; i < n3; i++) {
            double m = 0;
            for (int k = 0; k < 4; k++) {
                double d = in3[i][k][0] < -1e8 ? 1e9
                                               : hypot(in3[i][k][0] - bias[0], in3[i][k][1] - bias[1]);
                m = d > m ? d : m;
            }
            ch += m <= 0.5;
            cq += m <= 0.25;
        }
        printf("  the boxes' centres lie inside the corners by %.3f, %.3f of a spacing (folds 0-2, "
               "%d corners);\n  folds 3-4 with the boxes moved back by that: within half %d "
               "(%.1f%%), within a quarter %d (%.1f%%)\n",
               bias[0], bias[1], nbias, ch, n3 ? 100.0 * ch / n3 : 0.0, cq,
               n3 ? 100.0 * cq / n3 : 0.0);
    }
    free(in3);
    free(e);
    return 0;
}

static int speed(const char *path, const char *size)
{
    int W = 1920, H = 1080;
    if (size && (sscanf(size, "%dx%d", &W, &H) != 2 || W < 64 || H < 64 || W > 8192 || H > 8192)) {
        fprintf(stderr, "bench_vision: speed: %s: not a size WxH\n", size);
        return 2;
    }
    cvb_set_num_threads(1);
    cvb_image_t src = { 0 }, img = { 0 };
    if (cvb_imread(path, 1, &src) || cvb_resize(&src, W, H, &img)) {
        fprintf(stderr, "bench_vision: %s: cannot read\n", path);
        cvb_image_free(&src);
        return 2;
    }
    uint8_t *jpg = NULL;
    size_t len = 0;
    if (cvb_imencode_jpeg(&img, 90, &jpg, &len)) {
        cvb_image_free(&src);
        cvb_image_free(&img);
        return 2;
    }
    int reps = 20;
    double t0 = now_ms();
    for (int r = 0; r < reps; r++) {
        cvb_image_t d = { 0 };
        if (!cvb_imdecode(jpg, len, &d))
            cvb_image_free(&d);
    }
    double decode = (now_ms() - t0) / reps;
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    double best = 1e9, sum = 0;
    int ok = 0;
    for (int r = 0; r < reps; r++) {
        double a = now_ms();
        ok = !vis_detect(&img, bench_cfg(), 0, &g, &s, NULL);
        double d = now_ms() - a;
        sum += d;
        if (d < best)
            best = d;
    }
    double cold = sum / reps;
    double tr = 0, cl = 0, clv = 0, cln = 0, fit = 0, border = 0, finder = 0;
    double clp = 0, nparts = 0, nwhole = 0, pblocks = 0, ublocks[2] = { 0, 0 }, clu[2] = { 0, 0 };
    double cla = 0;
    long uskipped[2] = { 0, 0 }, askipped = 0;
    long vreads = 0, vruns = 0;
    int treps = 200;
    if (ok) {
        t0 = now_ms();
        for (int r = 0; r < treps; r++)
            vis_track(&img, &g, bench_cfg(), &s);
        tr = (now_ms() - t0) / treps;
        t0 = now_ms();
        for (int r = 0; r < treps; r++)
            vis_classify(&img, &g, bench_cfg(), &s);
        cl = (now_ms() - t0) / treps;
        vis_config_t vc = *bench_cfg(); /* as kifucam record reads */
        vis_config_for_video(&vc);
        vis_read_cache_t miss; /* a cache that never answers a read whole (max_change < 0)
                                * nor asks for the other run (turn_sure 0): one run */
        vis_read_cache_init(&miss);
        miss.max_change = -1;
        miss.turn_sure = 0;
        vc.cache = &miss;
        t0 = now_ms();
        for (int r = 0; r < treps; r++) {
            miss.frame = (uint64_t)r + 1; /* each read a frame of its own */
            vis_classify(&img, &g, &vc, &s);
        }
        clv = (now_ms() - t0) / treps;
        vreads = miss.misses;
        vruns = miss.runs;
        /* a point changed (a stone put down at the board's middle: a dark disc of a
         * third of a cell), then a region (a disc of three cells' radius: about the most
         * the other run reads, parts_max), left unsure by one run (turn_sure above 1: an
         * option, off by default): the frames before and after in turn, the other run
         * over the part around it */
        static const double rads[2] = { 1.0 / 3, 3 }; /* cells */
        for (int ri = 0; ri < 2; ri++) {
            cvb_image_t img2 = { 0 };
            vis_read_cache_t unsure;
            vis_read_cache_init(&unsure);
            unsure.turn_sure = 2;
            double mx, my, mid = (g.size - 1) / 2.0, rad = vis_geom_spacing(&g) * rads[ri];
            if (!cvb_image_alloc(&img2, img.w, img.h, 3) &&
                !vis_homog_apply(g.H, mid, mid, &mx, &my)) {
                for (int y = 0; y < img.h; y++) {
                    memcpy(img2.data + (size_t)y * img2.stride,
                           img.data + (size_t)y * img.stride, (size_t)img.w * 3);
                    for (int x = 0; x < img.w; x++)
                        if ((x - mx) * (x - mx) + (y - my) * (y - my) <= rad * rad)
                            memset(img2.data + (size_t)y * img2.stride + (size_t)x * 3, 30, 3);
                }
                vc.cache = &unsure;
                unsure.frame = 1;
                vis_classify(&img, &g, &vc, &s); /* the first read: a new geometry */
                t0 = now_ms();
                for (int r = 0; r < treps; r++) {
                    unsure.frame = (uint64_t)r + 2;
                    vis_classify(r % 2 ? &img : &img2, &g, &vc, &s);
                }
                clu[ri] = (now_ms() - t0) / treps;
                ublocks[ri] = unsure.part_runs ? (double)unsure.part_blocks / unsure.part_runs : 0;
                uskipped[ri] = unsure.parts_skipped;
            }
            cvb_image_free(&img2);
            vis_read_cache_free(&unsure);
        }
        vis_read_cache_free(&miss);
        /* a new geometry each read: the board moved (the picture shifted by a fifth of
         * a cell and back, the grid with it, so no warp is kept), one run, the mirror
         * over the parts around the blocks it leaves unsure (the cache's defaults);
         * then with every block unsure (turn_sure above 1), both runs over the whole
         * view */
        cvb_image_t img3 = { 0 };
        vis_geom_t g2 = g;
        int sh = (int)lround(0.2 * vis_geom_spacing(&g)); /* pixels */
        double T[9] = { 1, 0, sh, 0, 1, sh, 0, 0, 1 }, H2[9];
        vis_homog_mul(T, g.H, H2);
        if (sh < 1 || cvb_image_alloc(&img3, img.w, img.h, 3) ||
            vis_geom_from_h(H2, g.size, g.img_w, g.img_h, &g2)) {
            fprintf(stderr, "bench_vision: speed: cannot move the board\n");
            return 2;
        }
        for (int y = 0; y < img.h; y++)
            for (int x = 0; x < img.w; x++) {
                int sx = x - sh < 0 ? 0 : x - sh, sy = y - sh < 0 ? 0 : y - sh;
                memcpy(img3.data + (size_t)y * img3.stride + (size_t)x * 3,
                       img.data + (size_t)sy * img.stride + (size_t)sx * 3, 3);
            }
        for (int all = 0; all <= 2; all++) {
            /* 0: the defaults; 1: every block unsure (new_sure above 1), the parts held
             * to half a run (the other run not made); 2: every block unsure, parts_max 1
             * (both runs) */
            vis_read_cache_t nc;
            vis_read_cache_init(&nc);
            nc.new_sure = all ? 2 : nc.new_sure;
            nc.parts_max = all == 2 ? 1 : nc.parts_max;
            vc.cache = &nc;
            t0 = now_ms();
            for (int r = 0; r < treps; r++) {
                nc.frame = (uint64_t)r + 1;
                vis_classify(r % 2 ? &img3 : &img, r % 2 ? &g2 : &g, &vc, &s);
            }
            *(all == 2 ? &cln : all ? &cla : &clp) = (now_ms() - t0) / treps;
            if (!all) {
                nparts = (double)nc.part_runs / treps;
                nwhole = (double)nc.runs / treps;
                pblocks = nc.part_runs ? (double)nc.part_blocks / nc.part_runs : 0;
            }
            if (all == 1)
                askipped = nc.parts_skipped;
            vis_read_cache_free(&nc);
        }
        cvb_image_free(&img3);
        vc.cache = NULL;
        t0 = now_ms();
        double f;
        for (int r = 0; r < treps; r++)
            vis_grid_fit(&img, &g, &f);
        fit = (now_ms() - t0) / treps;
        vis_border_t bw; /* the border watch of every recorded frame (vis_border.h) */
        vis_border_init(&bw, NULL);
        vis_snapshot_t bs = s;
        vis_border_watch(&bw, &img, &g, &bs); /* the first frame learns */
        t0 = now_ms();
        for (int r = 0; r < treps; r++) {
            bs = s;
            bs.t = 0.1 * (r + 1);
            vis_border_watch(&bw, &img, &g, &bs);
        }
        border = (now_ms() - t0) / treps;
        cvb_image_t view = { 0 }; /* a photo's stone finder: one run over the view */
        vis_stone_t *st = malloc(4 * VIS_MAX_POINTS * sizeof *st);
        vis_finder_t *fd = vis_finder_builtin();
        vis_stones_params_t sp;
        vis_stones_defaults(&sp);
        if (st && fd && !vis_net_view(&img, &g, &view)) {
            int n = 0;
            t0 = now_ms();
            for (int r = 0; r < reps; r++)
                vis_finder_find(fd, &view, g.size, 1, sp.min_score, st, 4 * VIS_MAX_POINTS, &n);
            finder = (now_ms() - t0) / reps;
        }
        free(st);
        cvb_image_free(&view);
    }
    printf("%dx%d frame, one core, CPU time per call (%s):\n", W, H,
           ok ? "board found" : "NO BOARD FOUND");
    printf("  read (JPEG decode, the floor) %7.2f ms\n", decode);
    printf("  cold detection               %7.2f ms  (best %.2f; target <= 50)  = %.1fx decode\n",
           cold, best, cold / decode);
    printf("  tracking: the grid's fit     %7.3f ms  (target <= 2)  = %.2fx decode\n", fit,
           fit / decode);
    printf("  reading the %d points         %7.3f ms  (one read)\n", ok ? g.size * g.size : 0, cl);
    printf("  ... as a video reads them     %7.3f ms  (target <= 5; %.2f runs a read: the view and its\n"
           "                                            mirror in turn, frame by frame; a still board\n"
           "                                            is not read again)\n",
           clv, vreads ? (double)vruns / vreads : 0.0);
    printf("  ... a board found or moved    %7.3f ms  (target <= 5; one run, the mirror over the parts\n"
           "                                            around the blocks it leaves under 0.97: %.2f\n"
           "                                            whole runs and %.2f parts of %.0f blocks a read)\n",
           clp, nwhole, nparts, pblocks);
    printf("  ... ... every block unsure    %7.3f ms  (the parts would cost over half a run\n"
           "                                            (parts_max): the mirror not made, %ld of %d)\n",
           cla, askipped, treps);
    printf("  ... ... ... parts_max 1       %7.3f ms  (both runs over the whole view)\n", cln);
    printf("  ... a changed point unsure    %7.3f ms  (turn_sure, an option: read in turn, then the\n"
           "                                            other run over the %.0f blocks around it)\n",
           clu[0], ublocks[0]);
    printf("  ... a changed region unsure   %7.3f ms  (a disc of 3 cells' radius: the other run over\n"
           "                                            %.0f blocks, about the most it reads; %ld not made)\n",
           clu[1], ublocks[1], uskipped[1]);
    printf("  vis_track (fit + read)       %7.3f ms\n", tr);
    printf("  the border watch (video)     %7.3f ms  (vis_border_watch: the ring beyond the edge lines)\n",
           border);
    printf("  the stone finder (photos)    %7.2f ms  (one run over the view; a photo read once only)\n",
           finder);
    free(jpg);
    cvb_image_free(&src);
    cvb_image_free(&img);
    return ok ? 0 : 1;
}

static const char *dbg_dir;
static void dbg(void *ctx, int stage, const char *name, const cvb_image_t *img)
{
    (void)ctx;
    char p[1024];
    snprintf(p, sizeof p, "%s/%d_%s.png", dbg_dir, stage + 1, name);
    cvb_imwrite(p, img, 0);
}

static int detect_one(const char *path, const char *dir)
{
    const vis_config_t *bc = bench_cfg();
    cvb_image_t img = { 0 };
    if (cvb_imread(path, 1, &img))
        return 2;
    vis_config_t cfg = *bc;
    if (getenv("VIS_NOREFINE"))
        cfg.refine = 0;
    const char *work = getenv("VIS_WORK");
    if (work)
        cfg.work_max = atoi(work);
    if (dir) {
        mkdir(dir, 0777);
        dbg_dir = dir;
        cfg.debug = dbg;
    }
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    vis_timing_t tm;
    int rc = vis_detect(&img, &cfg, 0, &g, &s, &tm);
    if (rc) {
        printf("%s: %s\n", path, vis_strerror(rc));
        cvb_image_free(&img);
        return 1;
    }
    for (int y = 0; y < g.size; y++) {
        for (int x = 0; x < g.size; x++)
            putchar(".XO"[s.color[y * g.size + x] % 3]);
        putchar('\n');
    }
    printf("corners");
    for (int k = 0; k < 4; k++)
        printf(" %.1f,%.1f", g.corners[k][0], g.corners[k][1]);
    printf("\nms");
    for (int k = 0; k < VIS_NSTAGES; k++)
        printf(" %s %.2f", vis_stage_name(k), tm.ms[k]);
    printf(" total %.2f\n", tm.total_ms);
    double fit = -1;
    vis_grid_fit(&img, &g, &fit);
    printf("grid fit %.3f, the reader's belief in it %.3f\n", fit, s.grid_belief);
    if (getenv("VIS_TRACE")) {
        cvb_image_t gr = { 0 };
        if (!cvb_to_gray(&img, &gr)) {
            for (int dir = 0; dir < 2; dir++)
                for (int i = -1; i <= g.size; i++) {
                    int a, b, c;
                    vis_line_support(&gr, g.H, dir, i, 0, g.size - 1, &a, &b, &c);
                    printf("line dir %d i %2d good %2d visible %2d total %2d\n", dir, i, a, b, c);
                }
            cvb_image_free(&gr);
        }
    }
    cvb_image_free(&img);
    return 0;
}

/* bench_vision pages [--model F] [--fold-models DIR]: 16 photos of pages that are no board
 * (tests/vision/synth.h synth_page: text in OpenCV's font and text as word bars, 1280x720
 * and 1000x1400; issue 22, defect 7), each read as `detect` reads a photo: how many are
 * taken for a board. With --fold-models, every foldK.onnx in DIR in turn. */
static int pages_one(const vis_config_t *cfg, const char *name)
{
    int boards = 0;
    for (unsigned seed = 1; seed <= 16; seed++) {
        int text = seed % 2, tall = (seed / 2) % 2;
        cvb_image_t img = { 0 };
        if (synth_page(tall ? 1000 : 1280, tall ? 1400 : 720, text, seed, &img)) {
            fprintf(stderr, "bench_vision: out of memory\n");
            return -1;
        }
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        if (vis_detect(&img, cfg, 0, &g, &s, NULL) == VIS_OK) {
            printf("  page %2u (%s, %dx%d): a %dx%d board, the reader's belief %.2f\n", seed,
                   text ? "text" : "word bars", img.w, img.h, g.size, g.size, s.grid_belief);
            boards++;
        }
        cvb_image_free(&img);
    }
    printf("pages read as a board (%s): %d of 16\n", name, boards);
    return boards;
}

static int pages(void)
{
    if (!opt_fold_dir)
        return pages_one(bench_cfg(), opt_model ? opt_model : "built-in model") < 0;
    for (int k = 0; k < 16; k++) {
        char p[1200];
        snprintf(p, sizeof p, "%s/fold%d.onnx", opt_fold_dir, k);
        if (access(p, R_OK) != 0)
            continue;
        vis_config_t c;
        read_cfg_fold(&c, fold_net(k), k);
        if (pages_one(&c, p) < 0)
            return 1;
    }
    return 0;
}

/* scale IN OUT WxH: IN resized to W x H and written to OUT (JPEG at quality 92 when OUT
 * ends in .jpg): a phone-sized photo made from a smaller one, for bench/count.sh. */
static int scale_one(const char *in, const char *out, const char *wh)
{
    int w = 0, h = 0;
    cvb_image_t img = { 0 }, big = { 0 };
    if (sscanf(wh, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384) {
        fprintf(stderr, "bench_vision: scale: %s: not WxH\n", wh);
        return 2;
    }
    int rc = cvb_imread(in, 1, &img) || cvb_resize(&img, w, h, &big) || cvb_imwrite(out, &big, 92);
    if (rc)
        fprintf(stderr, "bench_vision: scale: %s -> %s failed\n", in, out);
    cvb_image_free(&img);
    cvb_image_free(&big);
    return rc ? 2 : 0;
}

/* Board finding on crowded renders (tests/vision/crowded.h), read as a photo: per size,
 * the renders read exactly, read wrong (and of those, read wrong with no point unsure: the
 * user told nothing), and with no board found; the grid's corners against the truth's
 * (within half a spacing) beside. fill 0.9, 960x720, seeds first..first + n - 1 (1..20
 * are the renders board finding was developed on; 101..120 were kept apart). VIS_VERBOSE=1 a line a
 * render (2: and the truth's corners, pixels), VIS_CROWDED_DUMP=DIR the renders not read
 * exactly (PNG: `kifucam detect` on the file reads what the bench read). */
static int crowded(int n, int first)
{
    static const int sizes[3] = { 9, 13, 19 };
    int exact = 0, wrong = 0, silent = 0, none = 0, near = 0, all = 0;
    const char *verbose = getenv("VIS_VERBOSE"), *dump = getenv("VIS_CROWDED_DUMP");
    for (int si = 0; si < 3; si++) {
        int x0 = exact, w0 = wrong, s0 = silent, n0 = none, c0 = near;
        for (int seed = first; seed < first + n; seed++) {
            cvb_image_t img = { 0 };
            double c[4][2];
            uint8_t truth[VIS_MAX_POINTS];
            if (crowded_render(sizes[si], (uint64_t)seed, RND_VIEW_STEEP, 0.9, 960, 720, &img,
                               c, truth)) {
                fprintf(stderr, "bench_vision: crowded: the renderer refused seed %d\n", seed);
                cvb_image_free(&img);
                return 2;
            }
            vis_config_t cfg;
            read_cfg_as(&cfg, NULL, -1, 1);
            vis_geom_t g;
            vis_snapshot_t s;
            memset(&s, 0, sizeof s);
            int rc = vis_detect(&img, &cfg, 0, &g, &s, NULL);
            double e = rc ? -1 : vg_grid_err(&g, c, sizes[si]);
            int unsure = unsure_points(&s, rc);
            int bad = rc ? -1 : vg_mistakes(&s, truth, sizes[si], 1);
            all++;
            none += rc != 0;
            exact += bad == 0;
            wrong += bad > 0;
            silent += bad > 0 && unsure == 0;
            near += !rc && g.size == sizes[si] && e < 0.5;
            if (verbose)
                printf("    %2dx%-2d seed %3d: %s, size %2d, corners off %.2f, points wrong %d, "
                       "unsure %d\n",
                       sizes[si], sizes[si], seed, rc ? "no board" : "found", rc ? 0 : g.size, e,
                       bad, unsure);
            if (verbose && !strcmp(verbose, "2"))
                printf("      truth corners %.1f %.1f  %.1f %.1f  %.1f %.1f  %.1f %.1f\n",
                       c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]);
            if (dump && bad != 0) {
                char path[1024];
                snprintf(path, sizeof path, "%s/crowded%d_%d.png", dump, sizes[si], seed);
                cvb_imwrite(path, &img, 90);
            }
            cvb_image_free(&img);
        }
        printf("  %2dx%-2d %3d renders: read exactly %3d, wrong %3d (%d with no point unsure), "
               "no board %3d; grid within half a spacing %3d\n",
               sizes[si], sizes[si], n, exact - x0, wrong - w0, silent - s0, none - n0,
               near - c0);
    }
    printf("crowded renders, seeds %d..%d (fill 0.9; our renderer: a test tool, not evidence "
           "about real boards): %d: read exactly %d (%.1f%%), wrong %d (%d with no point "
           "unsure), no board %d; grid within half a spacing %d\n",
           first, first + n - 1, all, exact, all ? 100.0 * exact / all : 0.0, wrong, silent, none,
           near);
    return 0;
}

int main(int argc, char **argv)
{
    const char *verbose = getenv("VIS_VERBOSE");
    for (int i = 1; i < argc; i++) /* --photo, --raw-truth, --skip-missing-folds, --sweep, --occ-ring anywhere */
        if (!strcmp(argv[i], "--photo") || !strcmp(argv[i], "--skip-missing-folds") ||
            !strcmp(argv[i], "--raw-truth") || !strcmp(argv[i], "--sweep") ||
            !strcmp(argv[i], "--occ-ring")) {
            if (!strcmp(argv[i], "--occ-ring"))
                opt_occ_ring = 1;
            else if (!strcmp(argv[i], "--raw-truth"))
                opt_raw_truth = 1;
            else if (!strcmp(argv[i], "--sweep"))
                opt_sweep = 1;
            else if (!strcmp(argv[i], "--photo"))
                opt_photo = 1;
            else
                opt_skip_missing = 1;
            memmove(argv + i, argv + i + 1, (size_t)(argc - i - 1) * sizeof *argv);
            argc--;
            i--;
        }
    for (int i = 1; i + 1 < argc; i++) { /* --model, --fold-models, --folds anywhere */
        const char **o = !strcmp(argv[i], "--model") ? &opt_model
                         : !strcmp(argv[i], "--fold-models") ? &opt_fold_dir
                         : !strcmp(argv[i], "--folds") ? &opt_folds
                         : !strcmp(argv[i], "--finder") ? &opt_finder
                         : !strcmp(argv[i], "--finder-answers") ? &opt_finder_answers
                         : !strcmp(argv[i], "--finder-min") ? &opt_finder_min
                         : !strcmp(argv[i], "--finder-runs") ? &opt_finder_runs
                         : !strcmp(argv[i], "--finder-empty") ? &opt_finder_empty
                         : !strcmp(argv[i], "--finder-crowd") ? &opt_finder_crowd
                         : !strcmp(argv[i], "--finder-reach") ? &opt_finder_reach
                         : !strcmp(argv[i], "--finder-black") ? &opt_finder_black
                         : !strcmp(argv[i], "--finder-room") ? &opt_finder_room
                         : !strcmp(argv[i], "--stars") ? &opt_stars
                         : !strcmp(argv[i], "--grow-stones") ? &opt_grow_stones
                         : !strcmp(argv[i], "--finder-cut") ? &opt_finder_cut : NULL;
        if (!strcmp(argv[i], "--fold-finders")) {
            if (opt_finder_also_n >= VIS_FINDER_MAX_NETS - 1) {
                fprintf(stderr, "bench_vision: at most %d --fold-finders\n", VIS_FINDER_MAX_NETS - 1);
                return 2;
            }
            o = &opt_finder_also[opt_finder_also_n++];
        }
        if (!o)
            continue;
        if (o == &opt_fold_dir && opt_fold_dir) { /* a further member's models */
            if (opt_nfold_more >= VIS_NET_MAX_MEMBERS - 1) {
                fprintf(stderr, "bench_vision: at most %d --fold-models\n", VIS_NET_MAX_MEMBERS);
                return 2;
            }
            o = &opt_fold_more[opt_nfold_more++];
        }
        *o = argv[i + 1];
        memmove(argv + i, argv + i + 2, (size_t)(argc - i - 2) * sizeof *argv);
        argc -= 2;
        i--;
    }
    if (argc >= 3 && !strcmp(argv[1], "accuracy"))
        return accuracy(argv[2], argc > 3 ? (int)strlen(argv[3]) - 8 : 0);
    if (argc >= 3 && !strcmp(argv[1], "stones"))
        return stones(argv[2], verbose != NULL);
    if (argc >= 3 && !strcmp(argv[1], "corners"))
        return corners(argv[2], verbose != NULL);
    if (argc >= 3 && !strcmp(argv[1], "footage"))
        return footage(argc - 2, argv + 2, verbose != NULL);
    if (argc >= 3 && !strcmp(argv[1], "occlusion"))
        return occlusion(argc - 2, argv + 2, verbose ? 1 + (verbose[0] == '2') : 0);
    if (argc >= 2 && !strcmp(argv[1], "pages"))
        return pages();
    if (argc >= 2 && !strcmp(argv[1], "speed"))
        return speed(argc > 2 ? argv[2] : "/work/shared/data/photos/gomrade/images/gomrade_testing_sequence_11.jpg",
                     argc > 3 ? argv[3] : NULL);
    if (argc >= 5 && !strcmp(argv[1], "scale"))
        return scale_one(argv[2], argv[3], argv[4]);
    if (argc >= 2 && !strcmp(argv[1], "crowded")) {
        int n = argc > 2 ? atoi(argv[2]) : 10;
        if (n < 1 || n > 1000) {
            fprintf(stderr, "bench_vision: crowded: N is 1..1000\n");
            return 2;
        }
        int first = argc > 3 ? atoi(argv[3]) : 1;
        if (first < 1 || first > 1000000) {
            fprintf(stderr, "bench_vision: crowded: FIRST is 1..1000000\n");
            return 2;
        }
        return crowded(n, first);
    }
    if (argc >= 3 && !strcmp(argv[1], "detect"))
        return detect_one(argv[2], argc > 3 ? argv[3] : NULL);
    fprintf(stderr, "usage: bench_vision accuracy DATA_DIR [--verbose] | speed [IMAGE [WxH]] | detect IMAGE [DEBUG_DIR] | pages | crowded [N [FIRST]]\n");
    return 2;
}
