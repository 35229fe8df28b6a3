/* test_hands.c: hands and arms over the board are marked occluded, never read as stones.
 * Renders short footage with hands (`kifucam render`, the binary from $KIFUCAM_BIN) from
 * the three camera heights, reads its truth (render/rnd_truth.h) and classifies every
 * frame with the truth's corners, as tracking does. Counts the points the truth says a
 * hand covers that are read as a stone which is not there (before this check existed:
 * about a third of them), and frames without a hand where anything is flagged occluded.
 * Seeds not used for tuning the classifier, nor by the reader's training data (its
 * renders come from kifucam-traingen's own scenes). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_truth.h"
#include "testutil.h"
#include "vision/vis.h"

static char tmpdir[256];

typedef struct {
    long hand_frames, covered, covered_stone, noticed;
    long covered_flag, covered_flag0; /* covered points marked occluded (without margin) */
    long free_frames, free_flagged, free_wrong;
} hand_count_t;

/* Render VIEW with SEED into tmpdir/VIEW_SEED and score it into *c. */
static void score_view(const char *view, int seed, hand_count_t *c)
{
    const char *bin = getenv("KIFUCAM_BIN"), *src = getenv("KIFUCAM_SOURCE");
    if (!bin || !*bin)
        bin = "kifucam";
    if (!src || !*src)
        src = ".";
    char dir[512], cmd[2048], path[1024];
    snprintf(dir, sizeof dir, "%s/%s_%d", tmpdir, view, seed);
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s' --seed %d --view %s "
             "--moves 12 --pace 0.1 --fps 4 --size 640x360 >/dev/null 2>&1",
             bin, src, dir, seed, view);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    rnd_truth_t *t = NULL;
    assert_int_equal(rnd_truth_open(path, &t), 0);
    int size = rnd_truth_size(t);
    rnd_truth_frame_t *f = malloc(sizeof *f);
    assert_non_null(f);
    int frames = 0;
    while (rnd_truth_next(t, f, NULL) == 0) {
        snprintf(path, sizeof path, "%s/%s", dir, f->file);
        cvb_image_t img = { 0 };
        assert_int_equal(cvb_imread(path, 1, &img), 0);
        double cr[4][2];
        for (int k = 0; k < 4; k++) {
            cr[k][0] = f->corners[2 * k];
            cr[k][1] = f->corners[2 * k + 1];
        }
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        assert_int_equal(vis_geom_from_corners(cr, size, img.w, img.h, &g), 0);
        assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
        /* the same without the margin around the hand (occ_margin 0) */
        vis_config_t nm;
        vis_config_defaults(&nm);
        nm.occ_margin = 0;
        vis_snapshot_t s0;
        memset(&s0, 0, sizeof s0);
        assert_int_equal(vis_classify(&img, &g, &nm, &s0), 0);
        int flagged = 0, wrong = 0;
        for (int k = 0; k < size * size; k++) {
            flagged += s.occluded[k];
            if (f->occluded[k]) {
                c->covered++;
                c->covered_flag += s.occluded[k];
                c->covered_flag0 += s0.occluded[k];
                int bad = !s.occluded[k] && s.color[k] != GO_EMPTY && s.color[k] != f->shown[k];
                if (bad)
                    print_message("%s %s: point %d,%d read %d (shown %d, conf %.2f)\n", view,
                                  f->file, k % size, k / size, s.color[k], f->shown[k], s.conf[k]);
                c->covered_stone += bad;
            } else if (!s.occluded[k] && s.color[k] != f->shown[k]) {
                wrong++;
            }
        }
        if (f->hand) {
            c->hand_frames++;
            c->noticed += s.occluder;
        } else {
            c->free_frames++;
            c->free_flagged += flagged > 0;
            c->free_wrong += wrong > 0;
        }
        cvb_image_free(&img);
        frames++;
    }
    free(f);
    rnd_truth_close(t);
    assert_true(frames > 20);
}

static void test_hands_occluded(void **state)
{
    (void)state;
    static const char *views[3] = { "side", "steep", "above" };
    static const int seeds[3] = { 31, 37, 41 };
    hand_count_t c;
    memset(&c, 0, sizeof c);
    for (int v = 0; v < 3; v++)
        score_view(views[v], seeds[v], &c);
    print_message("hands: %ld frames, %ld covered points, %ld read as stones, noticed in "
                  "%ld; without: %ld frames, %ld flagged, %ld with a point wrong; covered "
                  "points marked occluded %ld (without the margin %ld)\n",
                  c.hand_frames, c.covered, c.covered_stone, c.noticed, c.free_frames,
                  c.free_flagged, c.free_wrong, c.covered_flag, c.covered_flag0);
    /* the margin around a hand marks more of the covered points (a fingertip over a
     * point's centre, the rim of an arm), never fewer; most are marked */
    assert_true(c.covered_flag >= c.covered_flag0);
    assert_true(c.covered_flag * 2 >= c.covered);
    assert_true(c.hand_frames > 50 && c.covered > 300 && c.free_frames > 10);
    /* the learned reader: 5 of 2211 (0.23%), each one a white stone carried between the
     * fingertips over a point (looked at: side frames 9, 47 and 60, steep 34), which the
     * truth counts as the hand's; the threshold classifier it replaced: 1 of 2211 (before
     * its skin, pale-skin and sleeve checks 1.3%, without occluder checks 33%). Held to
     * 0.3%: a hand read as stones anywhere else (a sleeve, the back of a hand) costs
     * several points a frame */
    assert_true(c.covered_stone * 1000 <= 3 * c.covered);
    /* a hand over the board is noticed */
    assert_true(c.noticed * 4 >= c.hand_frames);
    /* no false alarm and no mistake without a hand */
    assert_int_equal(c.free_flagged, 0);
    assert_int_equal(c.free_wrong, 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kc_vision_hands_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hands_occluded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
