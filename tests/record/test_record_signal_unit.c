/* test_record_signal_unit.c: the end signals read from pixels (vision/vis_outside.c) and
 * taken by the station's referee (station/stn_signal.c), as `kifucam record` joins them,
 * on drawn pictures: a plain table seen straight from above (20 pixels a line), stones
 * drawn as discs.
 *  - a signal stone put down right beside the board's corner, where stones on the
 *    corner's points hid the table until the reader took those samples again
 *    (vis_outside_refresh of the referee's quiet sides): read; before, every sample it
 *    covers was skipped;
 *  - a corner reading something is not refreshed (a signal stone is never taken for the
 *    table);
 *  - one signal alone on the other diagonal moves the seats to the side to move's, and
 *    play going on moves them back;
 *  - a stone's colour on dark wood, a pale table and brown wood (a black stone's sheen on
 *    dark wood is no white stone);
 *  - the far seat's stone shifted along the board's side by the view is still read. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "station/station.h"
#include "station/stn_signal.h"
#include "vision/vis_outside.h"

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

/* A table of one colour (BGR), the board itself not drawn: only what lies beside it counts. */
static void table_bgr(uint8_t b, uint8_t g, uint8_t r)
{
    for (int i = 0; i < IMG_W * IMG_H; i++) {
        pix[3 * i] = b;
        pix[3 * i + 1] = g;
        pix[3 * i + 2] = r;
    }
}

/* A brown wood table. */
static void table(void)
{
    table_bgr(40, 60, 95);
}

/* A disc of grey level v, centred on grid point (x, y), radius rl lines. */
static void disc_r(double x, double y, double rl, uint8_t v)
{
    double cx = OFF + CELL * x, cy = OFF + CELL * y, r = rl * CELL;
    for (int py = (int)(cy - r) - 1; py <= (int)(cy + r) + 1; py++)
        for (int px = (int)(cx - r) - 1; px <= (int)(cx + r) + 1; px++)
            if (px >= 0 && py >= 0 && px < IMG_W && py < IMG_H && hypot(px - cx, py - cy) <= r)
                for (int k = 0; k < 3; k++)
                    pix[3 * (py * IMG_W + px) + k] = v;
}

/* A stone of grey level v, centred on grid point (x, y), radius 0.47 of a line. */
static void disc(double x, double y, uint8_t v)
{
    disc_r(x, y, 0.47, v);
}

/* What the reader makes of Black's corner (the board's lower right, bottom seat) in the
 * picture as it is, its reference taken on `ref` (drawn first by the caller). */
static int read_black_corner(const vis_geom_t *g, const vis_outside_t *vo)
{
    cvb_image_t im = image();
    int rd[4];
    assert_int_equal(vis_outside_read(vo, &im, g, NULL, 1u << VIS_SIDE_BOTTOM, rd), VIS_OK);
    return rd[VIS_SIDE_BOTTOM];
}

/* The reader and the referee, with a station whose game they follow (whose turn). */
typedef struct watch {
    vis_outside_t vo;
    stn_signal_t sig;
    stn_t *stn;
} watch_t;

/* Feed the picture for `secs` seconds at 15 frames a second from t; returns the time. */
static double feed(watch_t *w, const vis_geom_t *g, const uint8_t *stones, double t, double secs)
{
    cvb_image_t im = image();
    int n = (int)(secs * 15);
    for (int i = 0; i < n; i++) {
        int rd[4];
        int ok = vis_outside_read(&w->vo, &im, g, stones, stn_signal_sides(&w->sig), rd) == VIS_OK;
        stn_signal_read(&w->sig, w->stn, ok ? rd : NULL, t + i / 15.0);
    }
    return t + n / 15.0;
}

/* A watcher on a bare table (no stones: stones cleared), its reference taken; the seats
 * known (a calibration) or a guess. */
static void watcher(watch_t *w, vis_geom_t *g, int seats_known, uint8_t *stones)
{
    geometry(g);
    stn_config_t cfg;
    stn_config_defaults(&cfg);
    cfg.size = N;
    int err = 0;
    w->stn = stn_create(&cfg, &err);
    assert_non_null(w->stn);
    assert_int_equal(vis_outside_init(&w->vo, N, NULL), VIS_OK);
    assert_int_equal(stn_signal_init(&w->sig, N, VIS_SIDE_BOTTOM, seats_known, NULL), GO_OK);
    table();
    cvb_image_t im = image();
    vis_outside_reference(&w->vo, &im, g);
    stn_signal_reference(&w->sig);
    memset(stones, 0, N * N);
}

static void unwatch(watch_t *w)
{
    stn_signal_fini(&w->sig);
    stn_destroy(w->stn);
}

/* The confirmed reading of seat's corner. */
static int confirmed(const watch_t *w, int seat)
{
    return w->sig.corner[seat].confirmed;
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
        watch_t w;
        uint8_t stones[N * N];
        watcher(&w, &g, 1, stones);
        stones[17 * N + 18] = stones[18 * N + 18] = 1;
        disc(18, 17, 30);
        disc(18, 18, 230);
        double t = feed(&w, &g, stones, 0, 1.0);
        assert_int_equal(confirmed(&w, GO_BLACK), GO_EMPTY);
        if (refresh)
            vis_outside_refresh(&w.vo, &im, &g, stones, stn_signal_quiet_sides(&w.sig));
        disc(19.2, 18.0, 225);   /* a white stone: Black's end signal */
        feed(&w, &g, stones, t, 1.5);
        if (refresh)
            assert_int_equal(confirmed(&w, GO_BLACK), GO_WHITE);
        else
            assert_int_equal(confirmed(&w, GO_BLACK), GO_EMPTY);
        unwatch(&w);
    }
}

/* A corner reading a stone keeps its reference: refreshing then would make the signal
 * stone the table's look. */
static void test_no_refresh_while_reading(void **state)
{
    (void)state;
    vis_geom_t g;
    watch_t w;
    uint8_t stones[N * N];
    watcher(&w, &g, 1, stones);
    cvb_image_t im = image();
    disc(20.5, 18.0, 25);   /* a black stone, away from the board's points */
    double t = feed(&w, &g, stones, 0, 1.5);
    assert_int_equal(confirmed(&w, GO_BLACK), GO_BLACK);
    stones[18 * N + 18] = 1;   /* a move on the corner point now */
    disc(18, 18, 30);
    vis_outside_refresh(&w.vo, &im, &g, stones, stn_signal_quiet_sides(&w.sig));
    feed(&w, &g, stones, t, 1.0);
    assert_int_equal(confirmed(&w, GO_BLACK), GO_BLACK);
    unwatch(&w);
}

/* No calibration: one stone at a corner of the other diagonal with White to move (Black
 * passed): White sits at that side (his corner), Black opposite; when play goes on (a move
 * is recorded with the stone still there), the seats are as before. */
static void test_one_signal_moves_seats(void **state)
{
    (void)state;
    vis_geom_t g;
    watch_t w;
    uint8_t stones[N * N];
    watcher(&w, &g, 0, stones);
    int side_before = stn_signal_black_side(&w.sig);
    assert_int_equal(stn_pass(w.stn, 0.0), GO_OK);   /* White to move */
    /* the corner of a seat at the right side (side 1): beyond the top edge at (18, 0) */
    disc(18.0, -2.0, 25);
    feed(&w, &g, stones, 0, 1.5);
    assert_int_equal(w.sig.guessed, 1);
    assert_int_equal(confirmed(&w, GO_WHITE), GO_BLACK);   /* White's end signal */
    assert_int_equal(stn_signal_black_side(&w.sig), VIS_SIDE_LEFT);
    /* a move recorded (White passes) with the stone still there: it was no signal */
    assert_int_equal(stn_pass(w.stn, 2.0), GO_OK);
    stn_signal_after_move(&w.sig, w.stn, 2.0);
    int n = 0;
    const stn_event_t *ev = stn_signal_events(&w.sig, &n);
    assert_int_equal(n, 2);
    assert_int_equal(ev[0].kind, STN_EV_SIGNAL);
    assert_non_null(strstr(ev[0].msg, "play goes on: what lies beside White's corner"));
    assert_non_null(strstr(ev[1].msg, "sit at the record's bottom and top sides again"));
    assert_int_equal(stn_signal_black_side(&w.sig), side_before);
    assert_int_equal(w.sig.guessed, 0);
    unwatch(&w);
}

/* Stones on tables of three brightnesses, beside Black's corner: a black stone on dark
 * wood is no darker than the wood, on the whole (its body a little darker, its sheen
 * brighter); a white stone there is far brighter; on a pale table a white stone is only a
 * little brighter (1.2 times), and still white. (Before white_ratio, the dark table's
 * black stone, brighter in sum by its sheen, was read white: a false resignation.) */
static void test_stone_colour_on_dark_and_pale_tables(void **state)
{
    (void)state;
    vis_geom_t g;
    geometry(&g);
    vis_outside_t vo;
    struct { uint8_t bgr[3], body, sheen; int want; const char *what; } k[] = {
        { { 28, 34, 44 }, 30, 100, GO_BLACK, "black, dark wood" },
        { { 28, 34, 44 }, 200, 0, GO_WHITE, "white, dark wood" },
        { { 135, 145, 150 }, 172, 0, GO_WHITE, "white, pale table" },
        { { 135, 145, 150 }, 30, 110, GO_BLACK, "black, pale table" },
        { { 40, 60, 95 }, 230, 0, GO_WHITE, "white, brown wood" },
        { { 40, 60, 95 }, 25, 90, GO_BLACK, "black, brown wood" },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        assert_int_equal(vis_outside_init(&vo, N, NULL), VIS_OK);
        table_bgr(k[i].bgr[0], k[i].bgr[1], k[i].bgr[2]);
        cvb_image_t im = image();
        vis_outside_reference(&vo, &im, &g);
        assert_int_equal(read_black_corner(&g, &vo), GO_EMPTY);
        disc(20.0, 18.3, k[i].body);
        if (k[i].sheen)
            disc_r(19.85, 18.15, 0.22, k[i].sheen);   /* a highlight, up and to the left */
        print_message("%s\n", k[i].what);
        assert_int_equal(read_black_corner(&g, &vo), k[i].want);
    }
}

/* The far seat's signal stone, seen from a camera behind the near seat, appears shifted
 * along the board's side away from the far seat (it lies on the table, below the board's
 * surface): 1.4 lines along, here at Black's corner 1.4 lines up the side, it is still
 * read (the patch reaches 1.8 lines along; it reached 0.9). */
static void test_stone_shifted_along_the_side(void **state)
{
    (void)state;
    vis_geom_t g;
    geometry(&g);
    vis_outside_t vo;
    assert_int_equal(vis_outside_init(&vo, N, NULL), VIS_OK);
    table();
    cvb_image_t im = image();
    vis_outside_reference(&vo, &im, &g);
    disc(20.0, 18.0 - 1.4, 25);
    assert_int_equal(read_black_corner(&g, &vo), GO_BLACK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refresh_reads_signal_beside_corner_stones),
        cmocka_unit_test(test_no_refresh_while_reading),
        cmocka_unit_test(test_one_signal_moves_seats),
        cmocka_unit_test(test_stone_colour_on_dark_and_pale_tables),
        cmocka_unit_test(test_stone_shifted_along_the_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
