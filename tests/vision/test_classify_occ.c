/* test_classify_occ.c: what is neither board nor stone on a synthetic board (synth.h) is
 * not read as a stone: skin in the wood's own colour in a hand's shade (dark: read black
 * without the check), pale skin lit brighter than the wood (read white without it), and
 * the shadow a white stone casts beside it on a board whose black stones are deep black
 * (read black without it), a pale finger over the board's edge (read white without it).
 * The stones around stay read; and a grey white stone, as bright as the wood, is read; a
 * dark fingertip alone on a black stone is not read as an empty point (a stone removed);
 * an empty point a little brighter than the wood whose cross is faint (a crowded board
 * seen steeply on a small picture) is the wood, not a hand; without its cross, the same
 * colour is still skin; a black stone in a warm, reddish light, its colour most of the way
 * to the wood's but far paler than the wood, stays a black stone (not skin or a shadow). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "synth.h"
#include "vision/vis.h"
#include "vision/vis_homog.h"

#define S 19

/* Paint every pixel whose board position (bx, by) lies in the ellipse centred (cx, cy)
 * with half axes (rx, ry) in grid units with BGR colour col, plus noise. */
static void paint_ellipse(cvb_image_t *img, const double H[9], double cx, double cy,
                          double rx, double ry, const uint8_t col[3])
{
    double Hi[9];
    assert_int_equal(vis_homog_invert(H, Hi), 0);
    unsigned st = 7;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            double bx, by;
            if (vis_homog_apply(Hi, x + 0.5, y + 0.5, &bx, &by))
                continue;
            double u = (bx - cx) / rx, v = (by - cy) / ry;
            if (u * u + v * v > 1)
                continue;
            uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
            for (int c = 0; c < 3; c++) {
                int n = (int)(synth_rand(&st) % 7) - 3, w = col[c] + n;
                p[c] = (uint8_t)(w < 0 ? 0 : w > 255 ? 255 : w);
            }
        }
}

/* A board with a few stones of each colour; the geometry from its corners. */
static void board(synth_t *sy, uint8_t *stones, cvb_image_t *img, vis_geom_t *g)
{
    memset(stones, VIS_EMPTY, S * S);
    static const int bl[][2] = { { 3, 3 }, { 15, 3 }, { 3, 15 }, { 9, 9 }, { 10, 9 }, { 15, 15 } };
    static const int wh[][2] = { { 4, 3 }, { 16, 15 }, { 9, 10 }, { 5, 15 }, { 13, 4 } };
    for (size_t k = 0; k < sizeof bl / sizeof bl[0]; k++)
        stones[bl[k][1] * S + bl[k][0]] = VIS_BLACK;
    for (size_t k = 0; k < sizeof wh / sizeof wh[0]; k++)
        stones[wh[k][1] * S + wh[k][0]] = VIS_WHITE;
    synth_defaults(sy, 960, 720, S);
    sy->stones = stones;
    assert_int_equal(synth_render(sy, img), 0);
    assert_int_equal(vis_geom_from_corners(sy->corners, S, img->w, img->h, g), 0);
}

/* Every stone of `stones` read as itself. */
static void assert_stones_read(const vis_snapshot_t *s, const uint8_t *stones)
{
    for (int k = 0; k < S * S; k++)
        if (stones[k] != VIS_EMPTY) {
            if (s->color[k] != stones[k] || s->occluded[k])
                print_error("stone at %d,%d read %d occluded %d\n", k % S, k / S,
                            s->color[k], s->occluded[k]);
            assert_int_equal(s->color[k], stones[k]);
            assert_int_equal(s->occluded[k], 0);
        }
}

/* Skin in the wood's own colour and half its brightness (a hand in its own shade, or
 * sunburnt skin over a pale board) over points 6..8 of row 12: not black stones. */
static void test_dark_skin(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    uint8_t skin[3]; /* a little less saturated than the wood */
    for (int c = 0; c < 3; c++)
        skin[c] = (uint8_t)(sy.board[c] * 0.45 + 8);
    paint_ellipse(&img, g.H, 7, 12, 1.6, 0.7, skin);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    for (int x = 6; x <= 8; x++) {
        int k = 12 * S + x;
        assert_int_equal(s.color[k], VIS_EMPTY);
        assert_int_equal(s.occluded[k], 1);
    }
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* Pale skin lit brighter than the wood, in its hue but paler (the rendered footage's
 * pale hands): over points 5..7 of row 8, not white stones. */
static void test_pale_skin(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    const uint8_t skin[3] = { 130, 212, 250 }; /* board 90,170,215 lit, a little paler */
    paint_ellipse(&img, g.H, 6, 8, 1.6, 0.7, skin);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    for (int x = 5; x <= 7; x++) {
        int k = 8 * S + x;
        assert_int_equal(s.color[k], VIS_EMPTY);
        assert_int_equal(s.occluded[k], 1);
    }
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* Black stones deep black (their median brightness near 0), lit from the left: the
 * shadow right of a white stone, grey, far lighter than any black stone, is an empty
 * point; a black stone beside a white one stays black. */
static void test_white_stone_shadow(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    const uint8_t black[3] = { 4, 4, 4 }, grey[3] = { 72, 74, 76 };
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            if (stones[y * S + x] == VIS_BLACK)
                paint_ellipse(&img, g.H, x, y, 0.46, 0.46, black);
    /* the shadows right of the white stones at 4,3 (a black stone at 3,3 on its left)
     * and 5,15 */
    paint_ellipse(&img, g.H, 5.05, 3, 0.45, 0.42, grey);
    paint_ellipse(&img, g.H, 6.05, 15, 0.45, 0.42, grey);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    assert_int_equal(s.color[3 * S + 5], VIS_EMPTY);
    assert_int_equal(s.color[15 * S + 6], VIS_EMPTY);
    assert_int_equal(s.occluded[3 * S + 5], 0);
    assert_int_equal(s.occluded[15 * S + 6], 0);
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* A pale finger reaching in over the left edge to point 0,9 (as bright as a white stone,
 * greyer than the wood): not a white stone; the white stones stay read. */
static void test_edge_finger(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    const uint8_t skin[3] = { 200, 205, 235 };
    paint_ellipse(&img, g.H, -1.0, 9, 1.45, 0.62, skin);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    assert_int_equal(s.color[9 * S], VIS_EMPTY);
    assert_int_equal(s.occluded[9 * S], 1);
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* A white stone a little darker than the wood around it (grey, in the dim part of an
 * uneven light), hiding its cross: still a white stone; the empty points around it stay
 * empty. */
static void test_grey_white_stone(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    const uint8_t grey[3] = { 148, 150, 153 }; /* a little darker than the board */
    paint_ellipse(&img, g.H, 12, 12, 0.46, 0.46, grey);
    stones[12 * S + 12] = VIS_WHITE;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    assert_stones_read(&s, stones);
    for (int k = 0; k < S * S; k++)
        if (stones[k] == VIS_EMPTY) {
            assert_int_equal(s.color[k], VIS_EMPTY);
            assert_int_equal(s.occluded[k], 0);
        }
    cvb_image_free(&img);
}

/* A dark fingertip in the wood's own colour alone on the black stone at 15,3, hiding its
 * cross (nothing else covered): the stone is not read gone — not an empty point read
 * with confidence (the recorder would take the stone as removed). */
static void test_fingertip_on_stone(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    uint8_t skin[3];
    for (int c = 0; c < 3; c++)
        skin[c] = (uint8_t)(sy.board[c] * 0.45 + 8);
    paint_ellipse(&img, g.H, 15, 3, 0.6, 0.6, skin);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    int k = 3 * S + 15;
    print_message("fingertip on 15,3: colour %d occluded %d conf %.2f\n", s.color[k],
                  s.occluded[k], (double)s.conf[k]);
    assert_false(s.color[k] == VIS_EMPTY && !s.occluded[k] && s.conf[k] >= 0.5f);
    stones[k] = VIS_EMPTY; /* the other stones stay read */
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* The wood's colour near point (x, y): the mean of the four cell centres around it. */
static void wood_near(const cvb_image_t *img, const double H[9], int x, int y, double col[3])
{
    col[0] = col[1] = col[2] = 0;
    for (int q = 0; q < 4; q++) {
        double px, py, ox = q % 2 ? 0.5 : -0.5, oy = q < 2 ? -0.5 : 0.5;
        assert_int_equal(vis_homog_apply(H, x + ox, y + oy, &px, &py), 0);
        const uint8_t *p = img->data + (size_t)lround(py) * img->stride + (size_t)lround(px) * 3;
        for (int c = 0; c < 3; c++)
            col[c] += p[c] / 4.0;
    }
}

/* Over the disc of radius r grid units at point (cx, cy): the wood's colour lit by `lit`
 * (1.05: 5% brighter), and when dip > 0, its cross drawn as faint lines `dip` darker than
 * that (half width 0.04 units), plus noise. */
static void paint_lit_point(cvb_image_t *img, const double H[9], int cx, int cy, double r,
                            double lit, double dip)
{
    double Hi[9], wood[3];
    assert_int_equal(vis_homog_invert(H, Hi), 0);
    wood_near(img, H, cx, cy, wood);
    unsigned st = 11;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            double bx, by;
            if (vis_homog_apply(Hi, x + 0.5, y + 0.5, &bx, &by) ||
                hypot(bx - cx, by - cy) > r)
                continue;
            double k = lit;
            if (dip > 0 && (fabs(bx - cx) < 0.04 || fabs(by - cy) < 0.04))
                k *= 1.0 - dip;
            uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
            for (int c = 0; c < 3; c++) {
                int n = (int)(synth_rand(&st) % 5) - 2, w = (int)lround(wood[c] * k) + n;
                p[c] = (uint8_t)(w < 0 ? 0 : w > 255 ? 255 : w);
            }
        }
}

/* An empty point (7,6) 5% brighter than the wood around it, in its colour, its cross
 * drawn 6.5% darker than it (faint: the full test wants 7% + 3 levels): the wood, read
 * empty, nothing over the board (it was read a hand: no view accepted while it shows). */
static void test_faint_cross_empty(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    paint_lit_point(&img, g.H, 7, 6, 0.6, 1.05, 0.065);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    int k = 6 * S + 7;
    print_message("faint cross at 7,6: colour %d occluded %d conf %.2f occluder %d\n",
                  s.color[k], s.occluded[k], (double)s.conf[k], s.occluder);
    assert_int_equal(s.occluded[k], 0);
    assert_int_equal(s.color[k], VIS_EMPTY);
    assert_int_equal(s.occluder, 0);
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* The same lit wood colour with no cross at all (pale skin in the wood's colour, a
 * fingertip over the point): still hidden, not an empty point. */
static void test_wood_colour_no_cross(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    paint_lit_point(&img, g.H, 7, 6, 0.6, 1.05, 0);
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    int k = 6 * S + 7;
    assert_int_equal(s.occluded[k], 1);
    assert_int_equal(s.occluder, 1);
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

/* A black stone at 12,6 in a warm, reddish light, as dark as 0.32 of the wood: its red
 * above its green and blue alike, so its chromaticity lies 0.75 of the way from grey to
 * the wood's (orange: red > green > blue), but its saturation is only about 0.6 of the
 * wood's (a black stone is greyer; a shadow on the wood keeps the wood's saturation, skin
 * has more). Alone, hiding its cross: a black stone read with confidence (it was taken for
 * skin or a shadow on the wood: an empty point, the stone read gone in a still frame). */
static void test_warm_lit_black_stone(void **state)
{
    (void)state;
    synth_t sy;
    uint8_t stones[S * S];
    cvb_image_t img = { 0 };
    vis_geom_t g;
    board(&sy, stones, &img, &g);
    double W[3] = { sy.board[0], sy.board[1], sy.board[2] }; /* BGR */
    double sum = W[0] + W[1] + W[2], dr = W[2] / sum - 1.0 / 3, dg = W[1] / sum - 1.0 / 3;
    /* chromaticity r = 1/3 + e, g = b = 1/3 - e/2, projected 0.75 of the way to the wood's */
    double e = 0.75 * (dr * dr + dg * dg) / (dr - dg / 2);
    double r = 1.0 / 3 + e, gb = 1.0 / 3 - e / 2;
    double luma_w = 0.114 * W[0] + 0.587 * W[1] + 0.299 * W[2];
    double t = 0.32 * luma_w / (0.114 * gb + 0.587 * gb + 0.299 * r);
    const uint8_t col[3] = { (uint8_t)lround(t * gb), (uint8_t)lround(t * gb), (uint8_t)lround(t * r) };
    double sat_w = (W[2] - W[0]) / W[2], sat = (double)(col[2] - col[0]) / col[2];
    print_message("warm-lit black stone BGR %d,%d,%d: saturation %.2f of the wood's\n", col[0],
                  col[1], col[2], sat / sat_w);
    assert_true(sat < 0.7 * sat_w);
    paint_ellipse(&img, g.H, 12, 6, 0.46, 0.46, col);
    stones[6 * S + 12] = VIS_BLACK;
    vis_snapshot_t s;
    memset(&s, 0, sizeof s);
    assert_int_equal(vis_classify(&img, &g, NULL, &s), 0);
    int k = 6 * S + 12;
    print_message("warm-lit black stone at 12,6: colour %d occluded %d conf %.2f\n", s.color[k],
                  s.occluded[k], (double)s.conf[k]);
    assert_true(s.conf[k] >= 0.5f);
    assert_int_equal(s.occluder, 0);
    assert_stones_read(&s, stones);
    cvb_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dark_skin),
        cmocka_unit_test(test_pale_skin),
        cmocka_unit_test(test_white_stone_shadow),
        cmocka_unit_test(test_edge_finger),
        cmocka_unit_test(test_grey_white_stone),
        cmocka_unit_test(test_fingertip_on_stone),
        cmocka_unit_test(test_faint_cross_empty),
        cmocka_unit_test(test_wood_colour_no_cross),
        cmocka_unit_test(test_warm_lit_black_stone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
