/* bench_track.c: tracking (vis_track / vis_track_update) over rendered footage and its
 * speed; timing lives here, never in tests.
 *   bench_track lost STEP DIR...       every STEP-th frame of kifucam-render footage,
 *                                      tracked with the truth's corners: board_lost
 *                                      (false: the board did not move), in hand frames
 *                                      apart; then the same frames with the geometry
 *                                      off by a third of a cell (four directions):
 *                                      followed back (refined within 0.1 cell), lost,
 *                                      missed (neither), or refined wrong
 *   bench_track occlusion STEP DIR...  hand frames (vis_classify with the truth's
 *                                      corners): a covered point read as a stone that
 *                                      is not there, and (stricter) a covered point not
 *                                      marked occluded at all; hand-free frames flagged
 *   bench_track speed [IMAGE]          1920x1080, one core (thread CPU time):
 *                                      vis_track and its parts
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/rnd_truth.h"
#include "vision/vis.h"
#include "vision/vis_homog.h"
#include "vision/vis_track.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* geom moved by (dx, dy) grid units */
static int shifted(const vis_geom_t *g, double dx, double dy, vis_geom_t *out)
{
    double H[9];
    vis_homog_shift(g->H, dx, dy, H);
    return vis_geom_from_h(H, g->size, g->img_w, g->img_h, out);
}

typedef struct {
    long frames, hand, lost, lost_hand, refined;
    long sh, sh_ok, sh_lost, sh_miss, sh_wrong;
    long hf, hf_stone, hf_unflag, cov, cov_flag, nf, nf_flag;
} tally_t;

/* Call fn on every STEP-th frame of DIR with the image and the truth geometry. */
static int each_frame(const char *dir, int step, int mode, tally_t *c)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    rnd_truth_t *t = NULL;
    if (rnd_truth_open(path, &t)) {
        fprintf(stderr, "bench_track: %s: cannot read\n", path);
        return -1;
    }
    int S = rnd_truth_size(t), n = 0;
    rnd_truth_frame_t *f = malloc(sizeof *f);
    while (f && rnd_truth_next(t, f, NULL) == 0) {
        if (n++ % step)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, f->file);
        cvb_image_t img = { 0 };
        if (cvb_imread(path, 1, &img))
            continue;
        double cr[4][2];
        for (int k = 0; k < 4; k++) {
            cr[k][0] = f->corners[2 * k];
            cr[k][1] = f->corners[2 * k + 1];
        }
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        if (vis_geom_from_corners(cr, S, img.w, img.h, &g)) {
            cvb_image_free(&img);
            continue;
        }
        if (mode == 0) {
            vis_track(&img, &g, NULL, &s);
            c->frames++;
            c->hand += f->hand;
            c->lost += s.board_lost;
            c->lost_hand += f->hand && s.board_lost;
            c->refined += s.refined;
            static const double offs[4][2] = {
                { 1.0 / 3, 0 }, { 0, -1.0 / 3 }, { -1.0 / 3, 1.0 / 3 }, { 1.0 / 3, 1.0 / 3 }
            };
            for (int a = 0; a < 4; a++) {
                vis_geom_t g2;
                if (shifted(&g, offs[a][0], offs[a][1], &g2))
                    continue;
                memset(&s, 0, sizeof s);
                vis_track_update(&img, &g2, NULL, &s);
                c->sh++;
                if (s.board_lost)
                    c->sh_lost++;
                else if (!s.refined)
                    c->sh_miss++;
                else if (fabs(s.shift_x + offs[a][0]) < 0.1 && fabs(s.shift_y + offs[a][1]) < 0.1)
                    c->sh_ok++;
                else
                    c->sh_wrong++;
            }
        } else {
            vis_classify(&img, &g, NULL, &s);
            int stone = 0, unflag = 0, flagged = 0;
            for (int k = 0; k < S * S; k++) {
                flagged += s.occluded[k];
                if (!f->occluded[k])
                    continue;
                c->cov++;
                c->cov_flag += s.occluded[k];
                unflag += !s.occluded[k];
                stone += !s.occluded[k] && s.color[k] != GO_EMPTY && s.color[k] != f->shown[k];
            }
            if (f->hand) {
                c->hf++;
                c->hf_stone += stone > 0;
                c->hf_unflag += unflag > 0;
            } else {
                c->nf++;
                c->nf_flag += flagged > 0;
            }
        }
        cvb_image_free(&img);
    }
    free(f);
    rnd_truth_close(t);
    return 0;
}

/* Shake: as `kifucam record` tracks (the grid of one still frame, vis_track_k at the
 * board's line contrast, the reader as video reads: vis_config_for_video, a read cache
 * stamped with each frame; the board's learned colours left out), every STEP-th frame without a hand or a bumped stone: points
 * read wrong (not hidden, read with the confidence the station takes, 0.5, another
 * colour than the truth's) and points marked hidden, in
 * frames the camera shakes (truth shake != 0) and frames it does not. The grid: the
 * truth's corners of the first hand-free frame without shake, refined as detection does. */
typedef struct {
    long f[2], fwrong[2], fhid[2], wrong[2], hid[2], refined[2];
} shake_t;

static int shake_dir(const char *dir, int step, shake_t *c)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    rnd_truth_t *t = NULL;
    if (rnd_truth_open(path, &t)) {
        fprintf(stderr, "bench_track: %s: cannot read\n", path);
        return -1;
    }
    int S = rnd_truth_size(t), n = 0, have = 0;
    double lk = 1.0;
    vis_geom_t g;
    vis_config_t vc;
    vis_config_defaults(&vc);
    vis_config_for_video(&vc);
    vis_read_cache_t *cache = malloc(sizeof *cache);
    rnd_truth_frame_t *f = malloc(sizeof *f);
    if (cache)
        vis_read_cache_init(cache);
    vc.cache = cache;
    while (f && cache && rnd_truth_next(t, f, NULL) == 0) {
        cache->frame = (uint64_t)f->frame + 1;
        int still = !f->hand && (f->bumped < 0 || getenv("BENCH_TRACK_BUMPED"));
        if (!still || (have && n++ % step))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, f->file);
        cvb_image_t img = { 0 };
        if (cvb_imread(path, 1, &img))
            continue;
        if (!have) {
            double cr[4][2];
            for (int k = 0; k < 4; k++) {
                cr[k][0] = f->corners[2 * k];
                cr[k][1] = f->corners[2 * k + 1];
            }
            vis_snapshot_t s0;
            memset(&s0, 0, sizeof s0);
            if (f->shake[0] || f->shake[1] || vis_geom_from_corners(cr, S, img.w, img.h, &g) ||
                vis_refine(&img, &g) || vis_classify(&img, &g, &vc, &s0) ||
                vis_line_contrast(&img, &g, &s0, &lk)) {
                cvb_image_free(&img);
                continue;
            }
            have = 1;
        }
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        vis_track_k(&img, &g, &vc, lk, &s);
        int sh = f->shake[0] || f->shake[1], wrong = 0, hid = 0;
        for (int k = 0; k < S * S; k++) {
            hid += s.occluded[k] != 0;
            wrong += !s.occluded[k] && s.conf[k] >= 0.5f && s.color[k] != f->shown[k];
        }
        if (getenv("BENCH_TRACK_VERBOSE") && (wrong || hid)) {
            printf("    frame %d shake %+d,%+d: refined %d shift %+.3f,%+.3f; wrong", f->frame,
                   f->shake[0], f->shake[1], s.refined, s.shift_x, s.shift_y);
            for (int k = 0; k < S * S; k++)
                if (!s.occluded[k] && s.conf[k] >= 0.5f && s.color[k] != f->shown[k])
                    printf(" %d,%d:%d->%d", k % S, k / S, f->shown[k], s.color[k]);
            printf("; hidden %d\n", hid);
        }
        c->f[sh]++;
        c->fwrong[sh] += wrong > 0;
        c->fhid[sh] += hid > 0;
        c->wrong[sh] += wrong;
        c->hid[sh] += hid;
        c->refined[sh] += s.refined;
        cvb_image_free(&img);
    }
    free(f);
    vis_read_cache_free(cache);
    free(cache);
    rnd_truth_close(t);
    return 0;
}

static double pct(long a, long b) { return b ? 100.0 * a / b : 0.0; }

static int speed(const char *path)
{
    cvb_set_num_threads(1);
    cvb_image_t src = { 0 }, img = { 0 };
    if (cvb_imread(path, 1, &src) || cvb_resize(&src, 1920, 1080, &img)) {
        fprintf(stderr, "bench_track: %s: cannot read\n", path);
        cvb_image_free(&src);
        return 2;
    }
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    int rc = vis_detect(&img, NULL, 0, &g, &s, NULL);
    if (rc) {
        fprintf(stderr, "bench_track: %s: no board\n", path);
        cvb_image_free(&src);
        cvb_image_free(&img);
        return 1;
    }
    int reps = 300;
    double fit, t0 = now_ms();
    for (int r = 0; r < reps; r++)
        vis_classify(&img, &g, NULL, &s);
    double cl = (now_ms() - t0) / reps;
    t0 = now_ms();
    for (int r = 0; r < reps; r++)
        vis_grid_fit(&img, &g, &fit);
    double gf = (now_ms() - t0) / reps;
    t0 = now_ms();
    for (int r = 0; r < reps; r++)
        vis_track(&img, &g, NULL, &s);
    double tr = (now_ms() - t0) / reps;
    vis_geom_t g3;
    double tb = 0;
    if (!shifted(&g, 1.0 / 3, 0, &g3)) {
        t0 = now_ms();
        int nb = reps / 10;
        for (int r = 0; r < nb; r++)
            vis_track(&img, &g3, NULL, &s);
        tb = (now_ms() - t0) / nb;
    }
    printf("1920x1080 frame, one core, CPU time per call:\n");
    printf("  vis_track                    %7.3f ms  (target <= 2)\n", tr);
    printf("    of which classification    %7.3f ms, whole-grid fit %.3f ms\n", cl, gf);
    printf("  vis_track, board bumped 1/3  %7.3f ms  (the search and a second reading)\n", tb);
    cvb_image_free(&src);
    cvb_image_free(&img);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "speed"))
        return speed(argc > 2 ? argv[2]
                              : "/work/shared/data/photos/gomrade/images/gomrade_testing_sequence_11.jpg");
    if (argc >= 4 && (!strcmp(argv[1], "lost") || !strcmp(argv[1], "occlusion"))) {
        int mode = !strcmp(argv[1], "occlusion"), step = atoi(argv[2]);
        if (step < 1)
            step = 1;
        tally_t c;
        memset(&c, 0, sizeof c);
        for (int d = 3; d < argc; d++)
            each_frame(argv[d], step, mode, &c);
        if (!mode) {
            printf("tracking with the truth's geometry, every %d frames:\n", step);
            printf("  frames %6ld: board_lost %ld (%.1f%%); frames with a hand %ld: lost %ld (%.1f%%); refined %ld\n",
                   c.frames, c.lost, pct(c.lost, c.frames), c.hand, c.lost_hand,
                   pct(c.lost_hand, c.hand), c.refined);
            printf("  off by a third of a cell %6ld: followed back %ld (%.1f%%), lost %ld, missed %ld, refined wrong %ld\n",
                   c.sh, c.sh_ok, pct(c.sh_ok, c.sh), c.sh_lost, c.sh_miss, c.sh_wrong);
        } else {
            printf("hands (vis_classify, the truth's corners, every %d frames):\n", step);
            printf("  frames with a hand %6ld: a covered point read as a stone not there %ld (%.1f%%); a covered point not marked occluded %ld (%.1f%%)\n",
                   c.hf, c.hf_stone, pct(c.hf_stone, c.hf), c.hf_unflag, pct(c.hf_unflag, c.hf));
            printf("  covered points     %6ld: marked occluded %ld (%.1f%%)\n", c.cov, c.cov_flag,
                   pct(c.cov_flag, c.cov));
            printf("  frames without     %6ld: any point flagged %ld (%.1f%%)\n", c.nf, c.nf_flag,
                   pct(c.nf_flag, c.nf));
        }
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "shake")) {
        int step = atoi(argv[2]);
        shake_t c;
        memset(&c, 0, sizeof c);
        for (int d = 3; d < argc; d++)
            shake_dir(argv[d], step < 1 ? 1 : step, &c);
        printf("tracking as record does (one frame's grid, the reader as video reads), every %d "
               "hand-free frames:\n", step);
        for (int k = 0; k < 2; k++)
            printf("  %-13s %6ld frames: with a point read wrong %ld (%.2f%%), with a point hidden %ld "
                   "(%.2f%%); points wrong %ld, hidden %ld; refined %ld\n",
                   k ? "camera shaken" : "camera still", c.f[k], c.fwrong[k], pct(c.fwrong[k], c.f[k]),
                   c.fhid[k], pct(c.fhid[k], c.f[k]), c.wrong[k], c.hid[k], c.refined[k]);
        return 0;
    }
    fprintf(stderr, "usage: bench_track lost STEP DIR... | occlusion STEP DIR... | shake STEP DIR... | "
                    "speed [IMAGE]\n");
    return 2;
}
