/* test_record_signal_unit.c: the end-signal watcher (app/record_signal.c) on drawn
 * pictures: a plain table seen straight from above (20 pixels a line), stones drawn as
 * discs.
 *  - a signal stone put down right beside the board's corner, where stones on the
 *    corner's points hid the table until the watcher took those samples again
 *    (rec_signal_refresh): read; before, every sample it covers was skipped;
 *  - a corner reading something is not refreshed (a signal stone is never taken for the
 *    table);
 *  - one signal alone on the other diagonal moves the seats to the side to move's, and
 *    rec_signal_revert moves them back. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/record_signal.h"

#define IMG_W 640
#define IMG_H 640
#define CELL 20.0
#define OFF 60.0
#define N 19

static uint8_t pix[IMG_W * IMG_H * 3];

static cvb_image_t image(void)
{
    cvb_image_t im;
    memset(&im, 0, sizeof im);
    im.w = IMG_W;
    im.h = IMG_H;
    im.channels = 3;
    im.stride = IMG_W * 3;
    im.data = pix;
    return im;
}

static void geometry(vis_geom_t *g)
{
    memset(g, 0, sizeof *g);
    g->size = N;
    g->H[0] = CELL;
    g->H[2] = OFF;
    g->H[4] = CELL;
    g->H[5] = OFF;
    g->H[8] = 1;
}

/* A brown wood table (BGR), the board itself not drawn: only what lies beside it counts. */
static void table(void)
{
    for (int i = 0; i < IMG_W * IMG_H; i++) {
        pix[3 * i] = 40;
        pix[3 * i + 1] = 60;
        pix[3 * i + 2] = 95;
    }
}

/* A stone of grey level v, centred on grid point (x, y), radius 0.47 of a line. */
static void disc(double x, double y, uint8_t v)
{
    double cx = OFF + CELL * x, cy = OFF + CELL * y, r = 0.47 * CELL;
    for (int py = (int)(cy - r) - 1; py <= (int)(cy + r) + 1; py++)
        for (int px = (int)(cx - r) - 1; px <= (int)(cx + r) + 1; px++)
            if (px >= 0 && py >= 0 && px < IMG_W && py < IMG_H && hypot(px - cx, py - cy) <= r)
                for (int k = 0; k < 3; k++)
                    pix[3 * (py * IMG_W + px) + k] = v;
}

/* Feed the picture for `secs` seconds at 15 frames a second from t; returns the time. */
static double feed(rec_signal_t *s, const vis_geom_t *g, const uint8_t *stones, double t,
                   double secs)
{
    cvb_image_t im = image();
    int n = (int)(secs * 15);
    for (int i = 0; i < n; i++)
        rec_signal_feed(s, &im, g, stones, 0, t + i / 15.0);
    return t + n / 15.0;
}

/* A watcher on a bare table (no stones: stones cleared), its reference taken; the seats
 * known (a calibration) or a guess. */
static void watcher(rec_signal_t *s, vis_geom_t *g, int seats_known, uint8_t *stones)
{
    geometry(g);
    rec_signal_init(s, N, 0);
    s->seats_known = seats_known;
    table();
    cvb_image_t im = image();
    rec_signal_reference(s, &im, g);
    memset(stones, 0, N * N);
}

/* Black's corner is the board's lower right (18, 18), his patch beyond the right edge.
 * Stones on (18, 17) and (18, 18) hide the samples within 1.6 lines of them; the signal
 * stone at (19.2, 18) lies among those samples. */
static void test_refresh_reads_signal_beside_corner_stones(void **state)
{
    (void)state;
    vis_geom_t g;
    cvb_image_t im = image();
    for (int refresh = 0; refresh <= 1; refresh++) {
        rec_signal_t s;
        uint8_t stones[N * N];
        watcher(&s, &g, 1, stones);
        stones[17 * N + 18] = stones[18 * N + 18] = 1;
        disc(18, 17, 30);
        disc(18, 18, 230);
        double t = feed(&s, &g, stones, 0, 1.0);
        assert_int_equal(rec_signal_get(&s, 1), GO_EMPTY);
        if (refresh)
            rec_signal_refresh(&s, &im, &g, stones);
        disc(19.2, 18.0, 225);   /* a white stone: Black's end signal */
        feed(&s, &g, stones, t, 1.5);
        if (refresh)
            assert_int_equal(rec_signal_get(&s, 1), GO_WHITE);
        else
            assert_int_equal(rec_signal_get(&s, 1), GO_EMPTY);
    }
}

/* A corner reading a stone keeps its reference: refreshing then would make the signal
 * stone the table's look. */
static void test_no_refresh_while_reading(void **state)
{
    (void)state;
    vis_geom_t g;
    rec_signal_t s;
    uint8_t stones[N * N];
    watcher(&s, &g, 1, stones);
    cvb_image_t im = image();
    disc(20.5, 18.0, 25);   /* a black stone, away from the board's points */
    double t = feed(&s, &g, stones, 0, 1.5);
    assert_int_equal(rec_signal_get(&s, 1), GO_BLACK);
    stones[18 * N + 18] = 1;   /* a move on the corner point now */
    disc(18, 18, 30);
    rec_signal_refresh(&s, &im, &g, stones);
    feed(&s, &g, stones, t, 1.0);
    assert_int_equal(rec_signal_get(&s, 1), GO_BLACK);
}

/* No calibration: one stone at a corner of the other diagonal with White to move: White
 * sits at that side (his corner), Black opposite; reverted, the seats are as before. */
static void test_one_signal_moves_seats(void **state)
{
    (void)state;
    vis_geom_t g;
    rec_signal_t s;
    uint8_t stones[N * N];
    watcher(&s, &g, 0, stones);
    int side_before = rec_signal_black_side(&s);
    rec_signal_set_turn(&s, 2);
    /* the corner of a seat at the right side (side 1): beyond the top edge at (18, 0) */
    disc(18.0, -2.0, 25);
    feed(&s, &g, stones, 0, 1.5);
    assert_int_equal(s.guessed, 1);
    assert_int_equal(rec_signal_get(&s, 2), GO_BLACK);   /* White's end signal */
    assert_int_equal(rec_signal_black_side(&s), 3);
    assert_int_equal(rec_signal_revert(&s), 1);
    assert_int_equal(rec_signal_black_side(&s), side_before);
    assert_int_equal(s.guessed, 0);
    assert_int_equal(rec_signal_revert(&s), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refresh_reads_signal_beside_corner_stones),
        cmocka_unit_test(test_no_refresh_while_reading),
        cmocka_unit_test(test_one_signal_moves_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
