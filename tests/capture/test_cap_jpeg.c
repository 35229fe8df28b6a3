/* test_cap_jpeg.c: cap_jpeg_decode (libjpeg-turbo straight to BGR) against OpenCV's
 * decoder on the same bytes: the same pixels at every scale (1, 2, 4, 8), in place when
 * the size matches; what it declines (EXIF, not a JPEG) and what it refuses (truncated
 * and garbage streams, bad arguments) with its codes, never a crash. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture/cap_jpeg.h"

/* A picture with detail in all three channels (a colour in the wrong order shows). */
static void make_picture(cvb_image_t *img, int w, int h)
{
    assert_int_equal(cvb_image_alloc(img, w, h, 3), CVB_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
            p[0] = (uint8_t)(x * 255 / w);              /* blue: a ramp across */
            p[1] = (uint8_t)((x / 7 + y / 5) % 2 ? 200 : 30); /* green: a check */
            p[2] = (uint8_t)(y * 255 / h);              /* red: a ramp down */
        }
}

static void encode(const cvb_image_t *img, uint8_t **jpg, size_t *len)
{
    assert_int_equal(cvb_imencode_jpeg(img, 88, jpg, len), CVB_OK);
}

static void test_same_pixels_as_opencv(void **state)
{
    (void)state;
    cvb_image_t src = { 0 };
    make_picture(&src, 641, 363); /* odd sizes: the scaled sizes round up */
    uint8_t *jpg = NULL;
    size_t len = 0;
    encode(&src, &jpg, &len);
    static const int scales[4] = { 1, 2, 4, 8 };
    for (int k = 0; k < 4; k++) {
        cvb_image_t a = { 0 }, b = { 0 };
        assert_int_equal(cap_jpeg_decode(jpg, len, scales[k], &a), CAP_OK);
        assert_int_equal(cvb_imdecode_reduced_into(jpg, len, scales[k], &b), CVB_OK);
        assert_int_equal(a.w, b.w);
        assert_int_equal(a.h, b.h);
        assert_int_equal(a.channels, 3);
        long differ = 0;
        for (int y = 0; y < a.h; y++)
            differ += memcmp(a.data + (size_t)y * a.stride, b.data + (size_t)y * b.stride,
                             (size_t)a.w * 3) != 0;
        assert_int_equal(differ, 0);
        /* blue ramps across, red down: the channel order is BGR */
        const uint8_t *right = a.data + (size_t)(a.h / 2) * a.stride + (size_t)(a.w - 2) * 3;
        assert_true(right[0] > 200 && right[2] < 180);
        /* in place: a second decode at the same size keeps the pixels' address */
        uint8_t *px = a.data;
        assert_int_equal(cap_jpeg_decode(jpg, len, scales[k], &a), CAP_OK);
        assert_ptr_equal(a.data, px);
        cvb_image_free(&a);
        cvb_image_free(&b);
    }
    free(jpg);
    cvb_image_free(&src);
}

static void test_declines_and_refuses(void **state)
{
    (void)state;
    cvb_image_t src = { 0 }, out = { 0 };
    make_picture(&src, 160, 120);
    uint8_t *jpg = NULL;
    size_t len = 0;
    encode(&src, &jpg, &len);
    /* bad arguments */
    assert_int_equal(cap_jpeg_decode(NULL, len, 1, &out), CAP_EINVAL);
    assert_int_equal(cap_jpeg_decode(jpg, len, 3, &out), CAP_EINVAL);
    assert_int_equal(cap_jpeg_decode(jpg, len, 1, NULL), CAP_EINVAL);
    /* not a JPEG: OpenCV's to read */
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a };
    assert_int_equal(cap_jpeg_decode(png, sizeof png, 1, &out), CAP_EFORMAT);
    assert_null(out.data);
    /* an EXIF block (it may turn the picture): declined, OpenCV applies it */
    static const uint8_t app1[] = { 0xff, 0xe1, 0x00, 0x10, 'E', 'x', 'i', 'f', 0, 0,
                                    'M', 'M', 0, 42, 0, 0, 0, 8 };
    uint8_t *ex = malloc(len + sizeof app1);
    assert_non_null(ex);
    memcpy(ex, jpg, 2);
    memcpy(ex + 2, app1, sizeof app1);
    memcpy(ex + 2 + sizeof app1, jpg + 2, len - 2);
    assert_int_equal(cap_jpeg_decode(ex, len + sizeof app1, 1, &out), CAP_EFORMAT);
    free(ex);
    /* a header cut short, and garbage after the start marker: errors, not crashes */
    assert_int_equal(cap_jpeg_decode(jpg, 40, 1, &out), CAP_EDECODE);
    uint8_t junk[600];
    junk[0] = 0xff;
    junk[1] = 0xd8;
    for (size_t i = 2; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 37 + 11);
    assert_int_equal(cap_jpeg_decode(junk, sizeof junk, 2, &out), CAP_EDECODE);
    /* the data cut short after a whole header: libjpeg pads the rest (a warning, not
     * printed); a frame of the right size */
    assert_int_equal(cap_jpeg_decode(jpg, len / 2, 1, &out), CAP_OK);
    assert_int_equal(out.w, 160);
    assert_int_equal(out.h, 120);
    cvb_image_free(&out);
    free(jpg);
    cvb_image_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_pixels_as_opencv),
        cmocka_unit_test(test_declines_and_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
