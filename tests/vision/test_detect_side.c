/* test_detect_side.c: cold board finding (vis_detect) where it used to fail, on frames
 * rendered at test time (`kifucam render`, the binary from $KIFUCAM_BIN; nothing from
 * ../shared/data, nothing committed):
 *  - nearly full boards seen from the side (~47 degrees): samples/games/demo.sgf after 250
 *    moves, --view side, 1280x720 (before: none of the first 3 found with the right grid;
 *    the 4th, seed 503, needs the lattice fitted grown out from its seed; 507, 513 and
 *    517 were found a row off towards the camera);
 *  - empty boards at 640x360, steep and above, as `kifucam record` first sees them: the
 *    board's edge taken for the first grid line, or a table's grain for more lines (before:
 *    neither right).
 * A grid is right when every corner is within half a grid spacing of the truth's (best of
 * the 8 symmetries); a full board must also read no more than 2 points worse than with
 * the truth's corners (the classifier's own mistakes are not this test's business).
 * Seeds not used for tuning.
 * Also, as `kifucam record` tracks it, a pixel of camera shake on a 640x360 still; and two
 * crowded boards of tests/vision/crowded.h whose glossy black stones show a highlight. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_truth.h"
#include "tests/vision/crowded.h"
#include "tests/vision/golden_util.h"
#include "testutil.h"
#include "vision/vis.h"
#include "vision/vis_track.h"

static char tmpdir[256];

/* Render one still into tmpdir/NAME; read it and its truth. */
static void render_still(const char *name, const char *opts, cvb_image_t *img,
                         rnd_truth_frame_t *f, int *size)
{
    const char *bin = getenv("KIFUCAM_BIN"), *src = getenv("KIFUCAM_SOURCE");
    if (!bin || !*bin)
        bin = "kifucam";
    if (!src || !*src)
        src = ".";
    char dir[512], cmd[2048], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s' --still %s >/dev/null 2>&1",
             bin, src, dir, opts);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/truth.txt", dir);
    rnd_truth_t *t = NULL;
    assert_int_equal(rnd_truth_open(path, &t), 0);
    *size = rnd_truth_size(t);
    assert_int_equal(rnd_truth_next(t, f, NULL), 0);
    rnd_truth_close(t);
    snprintf(path, sizeof path, "%s/%s", dir, f->file);
    assert_int_equal(cvb_imread(path, 1, img), 0);
}

/* Largest distance of a corner of g from the truth's, in grid spacings (vg_grid_err). */
static double corner_err(const vis_geom_t *g, const rnd_truth_frame_t *f, int size)
{
    double c[4][2];
    for (int k = 0; k < 4; k++) {
        c[k][0] = f->corners[2 * k];
        c[k][1] = f->corners[2 * k + 1];
    }
    return vg_grid_err(g, c, size);
}

/* Find the board in the still made with opts; assert the grid is right and, when
 * check_read, that the reading is as good as with the truth's corners (+2). */
static void check_still(const char *name, const char *opts, int check_read)
{
    cvb_image_t img = { 0 };
    rnd_truth_frame_t *f = malloc(sizeof *f);
    assert_non_null(f);
    int size = 0;
    render_still(name, opts, &img, f, &size);
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    int rc = vis_detect(&img, NULL, 0, &g, &s, NULL);
    double e = rc ? -1 : corner_err(&g, f, size);
    int wrong = rc ? size * size : vg_mistakes(&s, f->shown, size, 1);
    double c[4][2];
    for (int k = 0; k < 4; k++) {
        c[k][0] = f->corners[2 * k];
        c[k][1] = f->corners[2 * k + 1];
    }
    vis_geom_t gt;
    vis_snapshot_t st;
    memset(&st, 0, sizeof st);
    assert_int_equal(vis_geom_from_corners(c, size, img.w, img.h, &gt), 0);
    vis_refine(&img, &gt);
    assert_int_equal(vis_classify(&img, &gt, NULL, &st), 0);
    int wrong_c = vg_mistakes(&st, f->shown, size, 0);
    print_message("%s: %s, size %d, corners off by %.2f spacings, %d points wrong (%d with "
                  "the truth's corners)\n",
                  name, rc ? vis_strerror(rc) : "found", rc ? 0 : g.size, e, wrong, wrong_c);
    assert_int_equal(rc, VIS_OK);
    assert_int_equal(g.size, size);
    assert_true(e < 0.5);
    if (check_read)
        assert_true(wrong <= wrong_c + 2);
    cvb_image_free(&img);
    free(f);
}

static void test_full_board_side(void **state)
{
    (void)state;
    check_still("side501", "--view side --moves 250 --seed 501 --light warm", 1);
    check_still("side502", "--view side --moves 250 --seed 502 --light cool", 1);
    check_still("side505", "--view side --moves 250 --seed 505 --light shadow", 1);
    /* the lattice's fit spoilt by the walk's labels far from its seed (before: size 13) */
    check_still("side503", "--view side --moves 250 --seed 503 --light yellow", 1);
    /* before: found a row off towards the camera (507, 517: 1.3 spacings) or worse (513):
     * the board's dark front face taken for a row of stones, the far row's smaller stones
     * left out, the near row not checked against the board's outline */
    check_still("side507", "--view side --moves 250 --seed 507 --light uneven", 1);
    check_still("side513", "--view side --moves 250 --seed 513 --light warm", 1);
    check_still("side517", "--view side --moves 250 --seed 517 --light shadow", 1);
    /* black stones too sparse around every seed for the lattice's first patch (before:
     * not fitted, the grid found elsewhere) */
    check_still("side508", "--view side --moves 250 --seed 508 --light shadow", 1);
    /* the stones' lattice alone puts this one a column off (1.3 spacings); both side edges
     * of the board a unit off the window's lines say so */
    check_still("side529", "--view side --moves 250 --seed 529 --light pink", 1);
}

/* A crowded render (crowded.h, fill 0.9) read as a photo: found, its size, every point
 * right: board finding's test, so the points are the reader's alone, without the stone
 * finder (trained on real photos only, it misreads the renders' small grey stones: seed
 * 15's 19x19 36 points, each asked about; bench_vision crowded counts it). */
static void check_crowded(int size, int seed)
{
    cvb_image_t img = { 0 };
    double c[4][2];
    uint8_t truth[VIS_MAX_POINTS];
    assert_int_equal(crowded_render(size, (uint64_t)seed, RND_VIEW_STEEP, 0.9, 960, 720, &img,
                                    c, truth),
                     0);
    vis_config_t cfg;
    vis_config_defaults(&cfg);
    vis_config_for_photo(&cfg);
    cfg.stones.on = 0;
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    int rc = vis_detect(&img, &cfg, 0, &g, &s, NULL);
    int wrong = rc ? size * size : vg_mistakes(&s, truth, size, 1);
    print_message("crowded %dx%d seed %d: %s, size %d, corners off %.2f spacings, %d points "
                  "wrong\n",
                  size, size, seed, rc ? vis_strerror(rc) : "found", rc ? 0 : g.size,
                  rc ? -1.0 : vg_grid_err(&g, c, size), wrong);
    assert_int_equal(rc, VIS_OK);
    assert_int_equal(g.size, size);
    assert_int_equal(wrong, 0);
    cvb_image_free(&img);
}

/* Crowded boards whose lines the stones hide: found from the stones' lattice, whose black
 * stones' highlights are holes in the dark mask (before fill_holes, vis_lattice.c: the
 * 13x13 of seed 18 was found 6 spacings off, 104 points wrong, and the 19x19 of seed 15
 * not at all). */
static void test_crowded_highlights(void **state)
{
    (void)state;
    check_crowded(13, 18);
    check_crowded(19, 15);
}

/* A black bowl or a stone on the table that the lattice's walk reaches over empty lines
 * widened the span the size is chosen from (trim_outliers, vis_lattice.c; before: the 9x9
 * of seed 6 read as a 13x13 with 81 points wrong, the 13x13 of seed 6 as a 19x19). */
static void test_crowded_outliers(void **state)
{
    (void)state;
    check_crowded(9, 6);
    check_crowded(13, 6);
}

/* The grid slid from the stones' centres to the lines between them by at most 0.35 of a
 * unit (lattice_grid, vis_detect.c): further, the dark gaps between touching stones pass
 * for lines (before: both found half a unit off, refused by the reader: no board). */
static void test_crowded_slide(void **state)
{
    (void)state;
    check_crowded(13, 10);
    check_crowded(19, 20);
}

/* The stones' lattice read before the lines' candidates (CAND_LATTICE, vis_detect.c):
 * before, this 9x9, found right by the lattice, was left unread behind six candidates of
 * lines and refused for a 13x13 of lines (no board). */
static void test_crowded_lattice_first(void **state)
{
    (void)state;
    check_crowded(9, 15);
}

static void test_empty_board_640(void **state)
{
    (void)state;
    check_still("empty604", "--view steep --size 640x360 --moves 1 --seed 604", 0);
    check_still("empty607", "--view above --size 640x360 --moves 1 --seed 607", 0);
}

/* A pixel of camera shake at 640x360 (0.06 of a cell), as `kifucam record` tracks it: the
 * grid found on the still, the still moved by one pixel each way, tracked with that grid
 * and the board's own line contrast. Before cf95239 the shift was under the bump threshold
 * and left alone: moved down, the two points beside the near corner read covered (no view
 * for as long as the shake lasts). Now: followed, nothing covered, read as without it. */
static void test_shake_pixel_640(void **state)
{
    (void)state;
    cvb_image_t img = { 0 }, mv = { 0 };
    rnd_truth_frame_t *f = malloc(sizeof *f);
    assert_non_null(f);
    int size = 0;
    render_still("shake15", "--view steep --size 640x360 --moves 18 --seed 15", &img, f, &size);
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_detect(&img, NULL, 0, &g, &s, NULL), VIS_OK);
    double lk = 1.0;
    assert_int_equal(vis_line_contrast(&img, &g, &s, &lk), VIS_OK);
    int wrong0 = vg_mistakes(&s, f->shown, size, 1);
    assert_int_equal(cvb_image_alloc(&mv, img.w, img.h, img.channels), CVB_OK);
    static const int sh[4][2] = { { 0, 1 }, { 0, -1 }, { 1, 0 }, { -1, 0 } };
    for (int k = 0; k < 4; k++) {
        /* the picture moved by (dx, dy) pixels, the edge row or column repeated */
        for (int y = 0; y < img.h; y++) {
            int sy = y - sh[k][1] < 0 ? 0 : y - sh[k][1] >= img.h ? img.h - 1 : y - sh[k][1];
            for (int x = 0; x < img.w; x++) {
                int sx = x - sh[k][0] < 0 ? 0 : x - sh[k][0] >= img.w ? img.w - 1 : x - sh[k][0];
                memcpy(mv.data + (size_t)y * mv.stride + (size_t)x * mv.channels,
                       img.data + (size_t)sy * img.stride + (size_t)sx * img.channels,
                       (size_t)img.channels);
            }
        }
        vis_snapshot_t t;
        memset(&t, 0, sizeof t);
        assert_int_equal(vis_track_k(&mv, &g, NULL, lk, &t), VIS_OK);
        int covered = 0;
        for (int i = 0; i < size * size; i++)
            covered += t.occluded[i];
        int wrong = vg_mistakes(&t, f->shown, size, 1);
        print_message("shaken (%+d, %+d) px: lost %d, refined %d shift (%+.3f, %+.3f), %d covered, "
                      "%d wrong (%d unshaken)\n", sh[k][0], sh[k][1], t.board_lost, t.refined,
                      t.shift_x, t.shift_y, covered, wrong, wrong0);
        assert_int_equal(t.board_lost, 0);
        assert_int_equal(t.occluder, 0);
        assert_int_equal(covered, 0);
        assert_true(wrong <= wrong0);
    }
    cvb_image_free(&mv);
    cvb_image_free(&img);
    free(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kc_vision_side_XXXXXX");
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
        cmocka_unit_test(test_full_board_side),
        cmocka_unit_test(test_empty_board_640),
        cmocka_unit_test(test_crowded_highlights),
        cmocka_unit_test(test_crowded_outliers),
        cmocka_unit_test(test_crowded_slide),
        cmocka_unit_test(test_crowded_lattice_first),
        cmocka_unit_test(test_shake_pixel_640),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
