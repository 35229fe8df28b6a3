/* test_capture_files.c: the file sources on footage the test writes itself: a folder of
 * PNGs (name order, fps timing, unreadable and non-image files), a single image, an MJPG
 * .avi (frame count, colours, timing), plus the errors and the status strings; the speed
 * options: analyse_fps passing over frames of a folder and a video (which ones, their
 * index and time), min_w/min_h decoding a JPEG folder and image at a reduced scale. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/cap_source.h"
#include "testutil.h"

static char tmpdir[64];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kc_capfilesXXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmp(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Frame k's colour: distinct per k, far apart (survives JPEG). */
static void color_of(int k, uint8_t bgr[3])
{
    bgr[0] = (uint8_t)(30 * k);
    bgr[1] = (uint8_t)(250 - 30 * k);
    bgr[2] = (uint8_t)(k % 2 ? 200 : 60);
}

static void solid(cvb_image_t *img, int w, int h, int k)
{
    assert_int_equal(cvb_image_alloc(img, w, h, 3), CVB_OK);
    uint8_t c[3];
    color_of(k, c);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(img->data + (size_t)y * img->stride + (size_t)x * 3, c, 3);
}

static void write_png(const char *name, int k)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    cvb_image_t img;
    solid(&img, 48, 32, k);
    assert_int_equal(cvb_imwrite(path, &img, 0), CVB_OK);
    cvb_image_free(&img);
}

static void write_jpeg(const char *name, int w, int h, int k)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    cvb_image_t img;
    solid(&img, w, h, k);
    assert_int_equal(cvb_imwrite(path, &img, 95), CVB_OK);
    cvb_image_free(&img);
}

static void write_text(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void assert_color(const cap_frame_t *f, int k, int tol)
{
    uint8_t c[3];
    color_of(k, c);
    const uint8_t *p = f->img.data + (size_t)(f->img.h / 2) * f->img.stride +
                       (size_t)(f->img.w / 2) * 3;
    for (int i = 0; i < 3; i++)
        if (abs((int)p[i] - (int)c[i]) > tol)
            fail_msg("frame colour %d: channel %d is %d, want %d", k, i, p[i], c[i]);
}

static cap_options_t opts_fps(double fps)
{
    cap_options_t o;
    cap_options_defaults(&o);
    o.fps = fps;
    return o;
}

static void test_folder_in_name_order(void **state)
{
    (void)state;
    /* written out of order; names sort as 0..4 */
    write_png("frame_0003.png", 3);
    write_png("frame_0000.png", 0);
    write_png("frame_0004.png", 4);
    write_png("frame_0001.png", 1);
    write_png("frame_0002.png", 2);
    write_text("notes.txt", "not an image\n");
    write_text(".hidden.png", "ignored\n");
    cap_options_t o = opts_fps(10);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    cap_info_t info;
    assert_int_equal(cap_source_info(s, &info), CAP_OK);
    assert_int_equal(info.kind, CAP_KIND_FOLDER);
    for (int k = 0; k < 5; k++) {
        cap_frame_t f;
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.seq, (uint64_t)k);
        assert_int_equal(f.dropped, 0);
        assert_true(f.t > k / 10.0 - 1e-9 && f.t < k / 10.0 + 1e-9);
        assert_int_equal(f.img.w, 48);
        assert_int_equal(f.img.h, 32);
        assert_color(&f, k, 0);
    }
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);
}

static void test_folder_unreadable_frame(void **state)
{
    (void)state;
    write_png("a.png", 0);
    write_text("b.png", "this is not a PNG");
    write_png("c.png", 2);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, NULL, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_color(&f, 0, 0);
    assert_int_equal(cap_source_next(s, &f), CAP_EDECODE);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 1);
    assert_int_equal(f.dropped, 1);
    assert_true(f.t > 2 / 30.0 - 1e-9 && f.t < 2 / 30.0 + 1e-9); /* default 30 fps */
    assert_color(&f, 2, 0);
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);
}

static void test_single_image(void **state)
{
    (void)state;
    write_png("board.png", 3);
    char path[128];
    snprintf(path, sizeof path, "%s/board.png", tmpdir);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.kind, CAP_KIND_IMAGE);
    assert_int_equal(info.width, 48);
    assert_string_equal(info.name, "board.png");
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 0);
    assert_true(f.t == 0);
    assert_color(&f, 3, 0);
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);
}

static void test_video_file(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/clip.avi", tmpdir);
    cvb_writer_t *wr = NULL;
    assert_int_equal(cvb_writer_open(path, 25, 96, 64, &wr), CVB_OK);
    for (int k = 0; k < 8; k++) {
        cvb_image_t img;
        solid(&img, 96, 64, k);
        assert_int_equal(cvb_writer_write(wr, &img), CVB_OK);
        cvb_image_free(&img);
    }
    cvb_writer_close(wr);

    cap_options_t o = opts_fps(10); /* the file's own rate (25) wins */
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(path, &o, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.kind, CAP_KIND_VIDEO);
    assert_int_equal(info.width, 96);
    assert_int_equal(info.height, 64);
    assert_true(info.fps > 24.9 && info.fps < 25.1);
    int k = 0;
    cap_frame_t f;
    int rc;
    while ((rc = cap_source_next(s, &f)) == CAP_OK) {
        assert_int_equal(f.seq, (uint64_t)k);
        assert_true(f.t > k / 25.0 - 1e-9 && f.t < k / 25.0 + 1e-9);
        assert_int_equal(f.img.w, 96);
        assert_color(&f, k, 12);
        k++;
    }
    assert_int_equal(rc, CAP_EEOF);
    assert_int_equal(k, 8);
    cap_source_close(s);
}

/* 30 fps footage looked at 10 times a second: frames 0, 3, 6, 9 (the others never read:
 * an unreadable frame among them is not even noticed); index and time are the footage's. */
static void test_folder_analyse_fps(void **state)
{
    (void)state;
    char name[32];
    for (int k = 0; k < 11; k++) {
        snprintf(name, sizeof name, "f_%02d.png", k);
        if (k == 4)
            write_text(name, "garbage, passed over unread");
        else
            write_png(name, k);
    }
    cap_options_t o = opts_fps(30);
    o.analyse_fps = 10;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    cap_frame_t f;
    for (int n = 0; n < 4; n++) {
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.seq, (uint64_t)n);
        assert_int_equal(f.index, (uint64_t)(3 * n));
        assert_true(f.t > n * 0.1 - 1e-9 && f.t < n * 0.1 + 1e-9);
        assert_int_equal(f.dropped, 0);
        assert_color(&f, 3 * n, 0);
    }
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.skipped, 7);
    assert_int_equal(info.dropped, 0);
    cap_source_close(s);

    /* 50 fps at 10: every 5th frame (0, 5, 10); 15 fps at 10: every frame (k = 1) */
    o = opts_fps(50);
    o.analyse_fps = 10;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    for (int n = 0; n < 3; n++) {
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.index, (uint64_t)(5 * n));
        assert_true(f.t > n * 0.1 - 1e-9 && f.t < n * 0.1 + 1e-9);
    }
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);
    o = opts_fps(15);
    o.analyse_fps = 10;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    for (int n = 0; n < 4; n++) {
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.index, (uint64_t)n);
    }
    assert_int_equal(cap_source_next(s, &f), CAP_EDECODE); /* frame 4: not passed over */
    cap_source_close(s);

    o.analyse_fps = -1;
    s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_EINVAL);
    assert_null(s);
}

/* A JPEG folder 640x480 with a minimum of 300x200: decoded at 1/2 (1/4 would be 160x120),
 * every frame the same reduced size, colours right; no minimum: full size. */
static void test_folder_reduced_jpeg(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "f_%02d.jpg", k);
        write_jpeg(name, 640, 480, k);
    }
    cap_options_t o = opts_fps(30);
    o.min_w = 300;
    o.min_h = 200;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.reduce, 2);
    assert_int_equal(info.width, 320);
    assert_int_equal(info.height, 240);
    cap_frame_t f;
    for (int k = 0; k < 3; k++) {
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.img.w, 320);
        assert_int_equal(f.img.h, 240);
        assert_int_equal(f.index, (uint64_t)k);
        assert_color(&f, k, 12);
    }
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);

    o.min_w = 100; /* a small minimum: 1/4 (160x120), not 1/8 (80x60) */
    o.min_h = 100;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    cap_source_info(s, &info);
    assert_int_equal(info.reduce, 4);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.img.w, 160);
    cap_source_close(s);

    o = opts_fps(30); /* no minimum: full size */
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.img.w, 640);
    assert_int_equal(f.img.h, 480);
    cap_source_info(s, &info);
    assert_int_equal(info.reduce, 1);
    cap_source_close(s);

    char path[128];
    snprintf(path, sizeof path, "%s/f_01.jpg", tmpdir); /* a single image, reduced too */
    o.min_w = 300;
    o.min_h = 200;
    assert_int_equal(cap_source_open(path, &o, &s), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.img.w, 320);
    assert_color(&f, 1, 12);
    cap_source_close(s);
}

/* A 25 fps video looked at 5 times a second: frames 0 and 5 of 8, grabbed not decoded. */
static void test_video_analyse_fps(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/clip.avi", tmpdir);
    cvb_writer_t *wr = NULL;
    assert_int_equal(cvb_writer_open(path, 25, 96, 64, &wr), CVB_OK);
    for (int k = 0; k < 8; k++) {
        cvb_image_t img;
        solid(&img, 96, 64, k);
        assert_int_equal(cvb_writer_write(wr, &img), CVB_OK);
        cvb_image_free(&img);
    }
    cvb_writer_close(wr);
    cap_options_t o = opts_fps(30);
    o.analyse_fps = 5;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(path, &o, &s), CAP_OK);
    cap_frame_t f;
    for (int n = 0; n < 2; n++) {
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.index, (uint64_t)(5 * n));
        assert_true(f.t > n * 0.2 - 1e-9 && f.t < n * 0.2 + 1e-9);
        assert_color(&f, 5 * n, 12);
    }
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.skipped, 6);
    cap_source_close(s);
}

static void test_stop_folder(void **state)
{
    (void)state;
    write_png("x.png", 1);
    write_png("y.png", 2);
    cap_options_t o = opts_fps(30);
    o.realtime = 1;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    cap_source_stop(s);
    assert_int_equal(cap_source_next(s, &f), CAP_ESTOPPED);
    cap_source_close(s);
}

static void test_errors(void **state)
{
    (void)state;
    cap_source_t *s = NULL;
    char path[128];
    snprintf(path, sizeof path, "%s/missing.avi", tmpdir);
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_EOPEN);
    assert_int_equal(cap_source_open(tmpdir, NULL, &s), CAP_EOPEN); /* no images */
    write_text("garbage.avi", "not a video at all");
    snprintf(path, sizeof path, "%s/garbage.avi", tmpdir);
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_EOPEN);
    write_text("garbage.jpg", "not a JPEG");
    snprintf(path, sizeof path, "%s/garbage.jpg", tmpdir);
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_EOPEN);
    assert_null(s);
    cap_options_t o = opts_fps(0);
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_EINVAL);
    cap_options_defaults(&o);
    o.width = 0;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_EINVAL);
    assert_int_equal(cap_source_open(NULL, NULL, &s), CAP_EINVAL);
    assert_int_equal(cap_source_open("", NULL, &s), CAP_EINVAL);
    assert_null(s);
    /* the real libv4l2 (not wrapped here): no such camera; a character device that is
       not a camera */
    assert_int_equal(cap_source_open("/dev/video999", NULL, &s), CAP_EOPEN);
    assert_int_equal(cap_source_open("/dev/null", NULL, &s), CAP_EOPEN);
    assert_null(s);
    cap_frame_t f;
    assert_int_equal(cap_source_next(NULL, &f), CAP_EINVAL);
    cap_info_t info;
    assert_int_equal(cap_source_info(NULL, &info), CAP_EINVAL);
}

static void test_strerror(void **state)
{
    (void)state;
    for (int c = CAP_OK; c >= CAP_EDEVICE; c--) {
        const char *m = cap_strerror(c);
        assert_non_null(m);
        assert_string_not_equal(m, "unknown error");
        for (int d = c - 1; d >= CAP_EDEVICE; d--)
            assert_string_not_equal(m, cap_strerror(d));
    }
    assert_string_equal(cap_strerror(-999), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_folder_in_name_order, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_folder_unreadable_frame, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_single_image, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_video_file, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_folder_analyse_fps, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_folder_reduced_jpeg, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_video_analyse_fps, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_stop_folder, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_errors, make_tmp, remove_tmp),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
