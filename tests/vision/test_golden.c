/* test_golden.c: golden tests over the shared photos (../shared/data/photos).
 *   vision_golden_data                      the truth fixes (no data needed); the sets are
 *                                           readable, which skips visibly without
 *   vision_golden_data ID auto IMG TRUTH     one photo, automatic mode, 8 symmetries
 *   vision_golden_data ID corners IMG TRUTH C1|C2|C3|C4   one photo with given corners
 * A photo passes when it has at most the mistakes recorded for it in
 * tests/vision/golden_expected.txt (ID MODE MAX; absent: 0, a perfect board), so that a
 * regression fails. Points read as occluded count as mistakes. The truths are the sets'
 * with the fixes of tests/vision/truth_fixes.h (a fix that no longer meets its set fails). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "vision/golden_util.h"
#include "vision/roboflow_util.h"
#include "vision/truth_fixes.h"
#include "vision/vis.h"

static int g_argc;
static char **g_argv;

/* The recorded maximum of mistakes for (id, mode); 0 when not listed. */
static int expected_max(const char *id, const char *mode)
{
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/tests/vision/golden_expected.txt", kc_source_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int max = 0;
    while (fgets(line, sizeof line, f)) {
        char a[200], b[32];
        int m;
        if (line[0] == '#' || sscanf(line, "%199s %31s %d", a, b, &m) != 3)
            continue;
        if (!strcmp(a, id) && !strcmp(b, mode))
            max = m;
    }
    fclose(f);
    return max;
}

static void test_sets(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    static const char *sets[2] = { "imago", "gomrade" };
    int total = 0;
    for (int s = 0; s < 2; s++) {
        char dir[4096];
        if (snprintf(dir, sizeof dir, "%s/photos/%s", data, sets[s]) >= (int)sizeof dir)
            fail();
        vg_entry_t *e = calloc(128, sizeof *e);
        assert_non_null(e);
        int n = vg_read_index(dir, e, 128);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            uint8_t t[VIS_MAX_POINTS];
            int size = 0;
            assert_int_equal(vg_read_truth(e[i].truth, t, &size), 0);
            assert_true(size == 9 || size == 13 || size == 19);
        }
        total += n;
        free(e);
    }
    assert_int_equal(total, 71);
}

static void test_one(void **state)
{
    (void)state;
    const char *id = g_argv[1], *mode = g_argv[2], *image = g_argv[3], *truthp = g_argv[4];
    uint8_t truth[VIS_MAX_POINTS];
    int size = 0;
    if (vg_read_truth(truthp, truth, &size)) {
        print_message("SKIP: %s is absent (set KIFUCAM_SHARED)\n", truthp);
        skip();
    }
    int stale = 0; /* the truth as the photo shows it (truth_fixes.h) */
    vg_apply_fixes(id, truth, size, &stale);
    assert_int_equal(stale, 0);
    int corners = !strcmp(mode, "corners");
    cvb_image_t img = { 0 };
    /* the imago truth is given on the raw pixel array; corners are raw pixels too */
    assert_int_equal(cvb_imread(image, corners ? 0 : 1, &img), 0);
    vis_geom_t g;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    int wrong;
    if (corners) {
        assert_true(g_argc > 5);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", g_argv[5]);
        for (char *p = buf; *p; p++)
            if (*p == '|')
                *p = ';';
        double c[4][2];
        assert_int_equal(vg_parse_corners(buf, c), 0);
        assert_int_equal(vis_geom_from_corners(c, size, img.w, img.h, &g), 0);
        vis_refine(&img, &g); /* as kifucam detect --corners does */
        vis_config_t cfg; /* a photo read once, as kifucam detect reads it */
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        assert_int_equal(vis_classify(&img, &g, &cfg, &s), 0);
        wrong = vg_mistakes(&s, truth, size, 0);
    } else {
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        int rc = vis_detect(&img, &cfg, 0, &g, &s, NULL);
        wrong = rc ? size * size : vg_mistakes(&s, truth, size, 1);
        if (rc)
            print_message("%s: %s\n", id, vis_strerror(rc));
    }
    int max = expected_max(id, mode);
    print_message("%s %s: %d points wrong (recorded maximum %d)\n", id, mode, wrong, max);
    cvb_image_free(&img);
    assert_true(wrong <= max);
}

/* The roboflow-stones photo of this source (its first augmented copy) read into *img. */
static void roboflow_photo(const char *data, const char *source, cvb_image_t *img)
{
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s/photos/roboflow-stones", data) >= (int)sizeof dir)
        fail();
    rf_entry_t *e = calloc(512, sizeof *e);
    assert_non_null(e);
    int n = rf_list(dir, e, 512), at = -1;
    for (int i = 0; i < n && at < 0; i++)
        if (!strcmp(e[i].source, source))
            at = i;
    assert_true(at >= 0);
    assert_int_equal(cvb_imread(e[at].image, 1, img), 0);
    free(e);
}

/* img read as a photo under cfg (vis_detect into *g and a snapshot): its status, and the
 * black and white stones and the points asked about (*nb, *nw, *unsure; 0 with no board). */
static int detect_counts(const cvb_image_t *img, const vis_config_t *cfg, vis_geom_t *g, int *nb,
                         int *nw, int *unsure)
{
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    int rc = vis_detect(img, cfg, 0, g, &s, NULL);
    *nb = *nw = *unsure = 0;
    for (int k = 0; !rc && k < g->size * g->size; k++) {
        *nb += !s.occluded[k] && s.color[k] == GO_BLACK;
        *nw += !s.occluded[k] && s.color[k] == GO_WHITE;
        *unsure += vis_point_unsure(&s, k);
    }
    return rc;
}

/* A photo whose columns' lines are far fainter than its rows' (roboflow-stones
 * 4b4672756d69, fold 0: board finding's dev fold): the top tenth of the black-hat
 * response holds the rows alone, and board finding's first looks find no board; the
 * photo's look with more of the response taken as line (line_pct_retry) finds its 19x19
 * board. */
static void test_faint_columns(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    cvb_image_t img = { 0 };
    roboflow_photo(data, "4b4672756d6948daa07c0c19d590e12b", &img);
    for (int retry = 0; retry <= 1; retry++) {
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        if (!retry)
            cfg.line_pct_retry = 0;
        vis_geom_t g;
        vis_snapshot_t s;
        memset(&s, 0, sizeof s);
        int rc = vis_detect(&img, &cfg, 0, &g, &s, NULL);
        print_message("line_pct_retry %.2f: %s\n", cfg.line_pct_retry,
                      rc ? vis_strerror(rc) : "a board");
        if (retry) {
            assert_int_equal(rc, VIS_OK);
            assert_int_equal(g.size, 19);
        }
    }
    cvb_image_free(&img);
}

/* A 13x13 on a bamboo table (roboflow-stones a8bb2af6, fold 2: board finding's dev fold):
 * the table's stripes and the board's columns make one family of lines at half the
 * spacing, every board line at an even index, and no family at the board's own; its grid
 * at twice the unit (lines.halve_share) is a candidate the reader believes, and the 13x13
 * is found and read (one black stone, one white); without it a 19x19 at half the spacing
 * across the columns is read, most points unsure. */
static void test_half_spacing(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    cvb_image_t img = { 0 };
    roboflow_photo(data, "a8bb2af6ebf64eb28c3c64b524336b1a", &img);
    for (int on = 0; on <= 1; on++) {
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        if (!on)
            cfg.lines.halve_share = 0;
        vis_geom_t g;
        int nb, nw, unsure;
        int rc = detect_counts(&img, &cfg, &g, &nb, &nw, &unsure);
        print_message("halve_share %.2f: %s, size %d, black %d white %d, unsure %d\n",
                      cfg.lines.halve_share, rc ? vis_strerror(rc) : "a board", rc ? 0 : g.size,
                      nb, nw, unsure);
        assert_true(rc == VIS_OK || rc == VIS_ENOBOARD);
        if (on) {
            assert_int_equal(rc, VIS_OK);
            assert_int_equal(g.size, 13);
            assert_int_equal(nb, 1);
            assert_int_equal(nw, 1);
        } else {
            assert_true(rc != VIS_OK || g.size != 13);
        }
    }
    cvb_image_free(&img);
}

/* A 19x19 the picture cuts after its 13th column (roboflow-stones 96f1724a, fold 3): its
 * 19 rows and 13 of its columns in view, found as a 13x13 on rows 2-14. Its star points
 * (cfg.stars, vis_stars.c: four in view, on rows 3 and 15, columns 3 and 9) grow it to the
 * 19x19, column 0 at the picture's left, and its 47 black and 46 white stones are read;
 * without them, a 13x13 (three white stones of the bottom row left out). */
static void test_cut_board_stars(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    cvb_image_t img = { 0 };
    roboflow_photo(data, "96f1724a970442b09e528c9a0867d188", &img);
    for (int on = 0; on <= 1; on++) {
        vis_config_t cfg;
        vis_config_defaults(&cfg);
        vis_config_for_photo(&cfg);
        cfg.stars.on = on;
        vis_geom_t g;
        int nb, nw, unsure;
        int rc = detect_counts(&img, &cfg, &g, &nb, &nw, &unsure);
        print_message("stars %s: %s, size %d, black %d white %d, top left corner at %.0f, %.0f\n",
                      on ? "on" : "off", rc ? vis_strerror(rc) : "a board", rc ? 0 : g.size, nb,
                      nw, rc ? 0 : g.corners[0][0], rc ? 0 : g.corners[0][1]);
        assert_int_equal(rc, VIS_OK);
        if (on) {
            assert_int_equal(g.size, 19);
            assert_true(g.corners[0][0] < 20 && g.corners[0][1] < 30); /* column 0, row 0 */
            assert_int_equal(nb, 47);
            assert_int_equal(nw, 46);
        } else {
            assert_int_equal(g.size, 13);
        }
    }
    cvb_image_free(&img);
}

/* The truth fixes, on truths made here (no shared data needed): a fix applies where the
 * truth holds what it says the truth had, is stale elsewhere; a missing stone is added as
 * a box of the photo's median size, and is stale where a box already holds it. */
static void test_fixes(void **state)
{
    (void)state;
    uint8_t t[VIS_MAX_POINTS];
    memset(t, GO_EMPTY, sizeof t);
    int stale = 0;
    assert_int_equal(vg_apply_fixes("gomrade_2_67", t, 19, &stale), 2);
    assert_int_equal(t[6 * 19 + 1], GO_WHITE);
    assert_int_equal(t[6 * 19 + 2], GO_WHITE);
    assert_int_equal(stale, 0);
    assert_int_equal(vg_apply_fixes("gomrade_2_67", t, 19, &stale), 0); /* applied already */
    assert_int_equal(stale, 2);
    assert_int_equal(vg_apply_fixes("no_such_photo", t, 19, NULL), 0);

    rf_box_t b[RF_MAX_BOXES];
    const char *src = "72d1d29427814fcfa144622d0a2cecca"; /* a black stone at 449.5, 260.8 */
    for (int k = 0; k < 3; k++)
        b[k] = (rf_box_t){ .cls = 1, .cx = 0.1 * (k + 1), .cy = 0.1, .w = 0.04 + 0.01 * k, .h = 0.05 };
    stale = 0;
    int applied = 0;
    int n = rf_apply_fixes(src, b, 3, RF_MAX_BOXES, 640, 640, &stale, &applied);
    assert_int_equal(n, 4);
    assert_int_equal(applied, 1);
    assert_int_equal(stale, 0);
    assert_int_equal(b[3].cls, 0);
    assert_true(fabs(b[3].cx - 449.5 / 640) < 1e-9 && fabs(b[3].cy - 260.8 / 640) < 1e-9);
    assert_true(fabs(b[3].w - 0.05) < 1e-9); /* the median of 0.04, 0.05, 0.06 */
    assert_int_equal(rf_apply_fixes(src, b, 4, RF_MAX_BOXES, 640, 640, &stale, NULL), 4);
    assert_int_equal(stale, 1); /* the labels hold it now */
    assert_int_equal(rf_apply_fixes("not_a_source", b, 4, RF_MAX_BOXES, 640, 640, NULL, NULL), 4);
    assert_int_equal(rf_apply_fixes(src, b, 4, 4, 640, 640, NULL, NULL), 4); /* no room */
    /* a duplicate box is dropped, the boxes after it kept in order; gone, it is stale */
    src = "c06405a8320742cc8dad9fe98020f8ae"; /* a second box at 231.0, 405.5 */
    b[1] = (rf_box_t){ .cls = 1, .cx = 231.0 / 640, .cy = 405.5 / 640, .w = 0.04, .h = 0.04 };
    stale = applied = 0;
    assert_int_equal(rf_apply_fixes(src, b, 4, RF_MAX_BOXES, 640, 640, &stale, &applied), 3);
    assert_int_equal(stale, 0);
    assert_int_equal(applied, 1);
    assert_true(fabs(b[1].cx - 0.3) < 1e-9 && fabs(b[2].cx - 449.5 / 640) < 1e-9);
    assert_int_equal(rf_apply_fixes(src, b, 3, RF_MAX_BOXES, 640, 640, &stale, NULL), 3);
    assert_int_equal(stale, 1);
}

int main(int argc, char **argv)
{
    g_argc = argc;
    g_argv = argv;
    if (argc >= 5) {
        const struct CMUnitTest tests[] = { cmocka_unit_test(test_one) };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_fixes), cmocka_unit_test(test_sets),
                                        cmocka_unit_test(test_faint_columns),
                                        cmocka_unit_test(test_half_spacing),
                                        cmocka_unit_test(test_cut_board_stars) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
