/* test_rel_fuzz_vision.c: regression inputs the vision fuzzer (fuzz/fuzz_vision.c) found,
 * embedded, each replayed exactly as the fuzzer reads it (raw mode: width, height,
 * channels and hint, size and corners from the first bytes, the pixels from the rest,
 * repeated), with the fuzzer's checks. Leaks are caught by ASan's leak checker at exit
 * (the suite's sanitizer build). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "vision/cv_bridge.h"
#include "vision/vis.h"

static void check_snap(const vis_snapshot_t *s, int hint)
{
    assert_true(s->size >= 2 && s->size <= VIS_MAX_SIZE);
    if (hint)
        assert_int_equal(s->size, hint);
    for (int i = 0; i < s->size * s->size; i++) {
        assert_true(s->color[i] <= 2);
        assert_true(s->conf[i] >= 0.0f && s->conf[i] <= 1.0f);
    }
}

/* The fuzzer's raw mode (data[0] odd); returns vis_detect's status. */
static int replay_raw(const uint8_t *data, size_t size)
{
    assert_true(size >= 17 && (data[0] & 1));
    data++;
    size--;
    static const int hints[4] = { 0, 9, 13, 19 };
    int w = 8 + data[0] % 128, h = 8 + data[1] % 128;
    int ch = (data[2] & 1) ? 3 : 1;
    int hint = hints[(data[2] >> 1) & 3];
    int csize = 2 + data[3] % 24;
    double corners[4][2];
    for (int i = 0; i < 4; i++) {
        corners[i][0] = (data[4 + 2 * i] - 32) * (w / 192.0);
        corners[i][1] = (data[5 + 2 * i] - 32) * (h / 192.0);
    }
    data += 12;
    size -= 12;
    cvb_image_t img;
    assert_int_equal(cvb_image_alloc(&img, w, h, ch), CVB_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w * ch; x++)
            img.data[(size_t)y * img.stride + (size_t)x] =
                data[((size_t)y * (size_t)(w * ch) + (size_t)x) % size];
    vis_geom_t g;
    vis_snapshot_t s;
    int rc = vis_detect(&img, NULL, hint, &g, &s, NULL);
    assert_true(rc == VIS_OK || rc == VIS_ENOBOARD);
    if (rc == VIS_OK) {
        for (int i = 0; i < 4; i++)
            assert_true(isfinite(g.corners[i][0]) && isfinite(g.corners[i][1]));
        check_snap(&s, hint);
    }
    if (vis_geom_from_corners(corners, csize, w, h, &g) == VIS_OK) {
        vis_snapshot_t t;
        if (vis_classify(&img, &g, NULL, &t) == VIS_OK)
            check_snap(&t, csize);
    }
    cvb_image_free(&img);
    return rc;
}

/* fuzz_vision leak 38faf722 (minimised to 23 bytes): a 72x56 gray image of a repeated
 * 10-byte pattern. vis_detect's find_grid found fewer than three orientation peaks and
 * wrote a union family into fam[npk], a slot whose line buffer it had already allocated:
 * that buffer (5120 bytes) leaked (vision/vis_detect.c, the union loop's U->l = malloc). */
static void test_union_family_leak(void **state)
{
    (void)state;
    static const uint8_t in[] = { 0xff, 0x40, 0xb0, 0x60, 0x62, 0x00, 0x00, 0xaa,
                                  0xdc, 0x64, 0xaa, 0x64, 0xaa, 0x3a, 0x2f, 0x2f,
                                  0xdc, 0x00, 0x64, 0xaa, 0xdc, 0xdc, 0x64 };
    int rc = replay_raw(in, sizeof in);
    assert_true(rc == VIS_OK || rc == VIS_ENOBOARD);
}

int main(void)
{
    cvb_quiet();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_family_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
