/* test_capture_files.c: the file sources on footage the test writes itself: a folder of
 * PNGs (name order, fps timing, unreadable and non-image files), a single image, an MJPG
 * .avi (frame count, colours, timing), plus the errors and the status strings; the speed
 * options: analyse_fps passing over frames of a folder and a video (which ones, their
 * index and time), min_w/min_h decoding a JPEG folder and image at a reduced scale; a
 * folder's own frame rate from kifucam render's truth.txt (cap_folder_rate). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* cap_source_seek: a folder jumps its index (the frames before are never opened: garbage
 * there is not noticed), analyse_fps counts from the frame sought, a video seeks by its
 * container's index (MJPG AVI, and an inter-coded mp4, where the frame sought is decoded
 * from its key frame) and lands on the very frame; past the end is CAP_EEOF, backwards
 * CAP_EINVAL. */
static void test_seek(void **state)
{
    (void)state;
    write_png("f0.png", 0);
    write_text("f1.png", "not a PNG");
    write_text("f2.png", "not a PNG either");
    for (int k = 3; k < 9; k++) {
        char n[16];
        snprintf(n, sizeof n, "f%d.png", k);
        write_png(n, k);
    }
    cap_options_t o = opts_fps(30);
    o.analyse_fps = 10;   /* every 3rd frame */
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, &o, &s), CAP_OK);
    assert_int_equal(cap_source_seek(s, 4), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 4);
    assert_int_equal(f.seq, 0);
    assert_int_equal(f.dropped, 0);
    assert_true(f.t > 4 / 30.0 - 1e-9 && f.t < 4 / 30.0 + 1e-9);
    assert_color(&f, 4, 0);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 7);   /* 4 + 3 */
    assert_int_equal(cap_source_seek(s, 2), CAP_EINVAL);   /* backwards */
    assert_int_equal(cap_source_seek(s, 50), CAP_EEOF);
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);

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
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_OK);
    assert_int_equal(cap_source_seek(s, 5), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 5);
    assert_true(f.t > 5 / 25.0 - 1e-9 && f.t < 5 / 25.0 + 1e-9);
    assert_color(&f, 5, 12);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.skipped, 5);
    assert_int_equal(cap_source_seek(s, 9), CAP_EEOF);
    cap_source_close(s);

    /* mp4v: 40 frames, seeks forward twice, then past the end */
    snprintf(path, sizeof path, "%s/clip.mp4", tmpdir);
    assert_int_equal(cvb_writer_open(path, 25, 96, 64, &wr), CVB_OK);
    for (int k = 0; k < 40; k++) {
        cvb_image_t img;
        solid(&img, 96, 64, k % 8);
        assert_int_equal(cvb_writer_write(wr, &img), CVB_OK);
        cvb_image_free(&img);
    }
    cvb_writer_close(wr);
    assert_int_equal(cap_source_open(path, NULL, &s), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 0);
    assert_int_equal(cap_source_seek(s, 19), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 19);
    assert_color(&f, 19 % 8, 16);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 20);
    assert_color(&f, 20 % 8, 16);
    assert_int_equal(cap_source_seek(s, 37), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 37);
    assert_color(&f, 37 % 8, 16);
    assert_int_equal(cap_source_seek(s, 41), CAP_EEOF);
    assert_int_equal(cap_source_next(s, &f), CAP_EEOF);
    cap_source_close(s);
    assert_int_equal(cap_source_seek(NULL, 0), CAP_EINVAL);
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

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void write_bytes(const char *name, const void *b, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* The image-size guard reads the size OpenCV's own encoders write, format by format
 * (a format this OpenCV cannot write is skipped, said so). */
static void test_image_size_formats(void **state)
{
    (void)state;
    /* (.hdr and .exr: OpenCV 4.6's writers want floating-point images; their headers are
     * checked by hand in test_image_size_headers) */
    static const char *const exts[] = { "png", "jpg", "bmp", "tif", "webp", "ppm", "pgm",
                                        "pbm", "pam", "pfm", "jp2", "ras" };
    cvb_image_t img, gray;   /* 38 wide: the Sun raster writer reads rows padded to even */
    solid(&img, 38, 23, 1);
    assert_int_equal(cvb_image_alloc(&gray, 38, 23, 1), CVB_OK);
    int checked = 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        char path[128], why[256];
        snprintf(path, sizeof path, "%s/img.%s", tmpdir, exts[i]);
        int one = !strcmp(exts[i], "pgm") || !strcmp(exts[i], "pbm");
        if (cvb_imwrite(path, one ? &gray : &img, 0) != CVB_OK) {
            print_message("(%s: this OpenCV cannot write it)\n", exts[i]);
            continue;
        }
        int w = 0, h = 0;
        int rc = cap_image_size(path, &w, &h, why, sizeof why);
        if (rc != CAP_OK || w != 38 || h != 23)
            fail_msg("%s: rc %d, %dx%d (%s)", exts[i], rc, w, h, why);
        checked++;
        unlink(path);
    }
    cvb_image_free(&img);
    cvb_image_free(&gray);
    assert_true(checked >= 8);
}

/* The formats checked by their headers written here: Radiance HDR, a J2K codestream, a
 * JP2 box, OpenEXR, Sun raster, a PAM and a PFM, each 37x23. */
static void test_image_size_headers(void **state)
{
    (void)state;
    static const char hdr[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1\n\n-Y 23 +X 37\n";
    static const unsigned char j2k[24] = { 0xff, 0x4f, 0xff, 0x51, 0, 41, 0, 0, 0, 0, 0, 40,
                                           0, 0, 0, 26, 0, 0, 0, 3, 0, 0, 0, 3 };
    static const unsigned char jp2[12 + 20 + 8 + 22] = {
        0, 0, 0, 12, 'j', 'P', ' ', ' ', '\r', '\n', 0x87, '\n',
        0, 0, 0, 20, 'f', 't', 'y', 'p', 'j', 'p', '2', ' ', 0, 0, 0, 0, 'j', 'p', '2', ' ',
        0, 0, 0, 30, 'j', 'p', '2', 'h',
        0, 0, 0, 22, 'i', 'h', 'd', 'r', 0, 0, 0, 23, 0, 0, 0, 37, 0, 3, 7, 7, 0, 0 };
    unsigned char exr[8 + 9 + 6 + 4 + 16 + 11 + 6 + 4 + 16 + 1] = { 0x76, 0x2f, 0x31, 0x01, 2 };
    size_t k = 8;
    /* an attribute before: stepped over (the copies take the literal's own NUL too: the
     * size field written next covers it) */
    memcpy(exr + k, "channels\0chlist\0", sizeof "channels\0chlist\0");
    k += 16;
    exr[k] = 16, k += 4;
    k += 16;
    memcpy(exr + k, "dataWindow\0box2i\0", sizeof "dataWindow\0box2i\0");
    k += 17;
    exr[k] = 16, k += 4;
    exr[k] = 0xfe, exr[k + 1] = 0xff, exr[k + 2] = 0xff, exr[k + 3] = 0xff;   /* xMin -2 */
    exr[k + 8] = 34;                                                        /* xMax 34 */
    exr[k + 12] = 22;                                                       /* yMax 22 */
    unsigned char ras[32] = { 0x59, 0xa6, 0x6a, 0x95, 0, 0, 0, 37, 0, 0, 0, 23, 0, 0, 0, 24 };
    static const char pam[] = "P7\nWIDTH 37\nHEIGHT 23\nDEPTH 3\nMAXVAL 255\nENDHDR\n";
    static const char pfm[] = "PF\n37 23\n-1.0\n";
    struct {
        const char *name;
        const void *b;
        size_t n;
    } cases[] = {
        { "a.hdr", hdr, sizeof hdr - 1 }, { "a.j2k", j2k, sizeof j2k }, { "a.jp2", jp2, sizeof jp2 },
        { "a.exr", exr, sizeof exr },     { "a.ras", ras, sizeof ras }, { "a.pam", pam, sizeof pam - 1 },
        { "a.pfm", pfm, sizeof pfm - 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_bytes(cases[i].name, cases[i].b, cases[i].n);
        char path[128], why[256];
        snprintf(path, sizeof path, "%s/%s", tmpdir, cases[i].name);
        int w = 0, h = 0, rc = cap_image_size(path, &w, &h, why, sizeof why);
        if (rc != CAP_OK || w != 37 || h != 23)
            fail_msg("%s: rc %d, %dx%d (%s)", cases[i].name, rc, w, h, why);
    }
}

/* Headers claiming 30000x30000 (a bomb, whatever the data after): refused from the
 * header, in every format; a header with no size (GIF: not one of OpenCV's) is not an
 * image kifucam decodes. */
static void test_image_size_bombs(void **state)
{
    (void)state;
    unsigned char png[33] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                              'I', 'H', 'D', 'R' };
    put_be32(png + 16, 30000);
    put_be32(png + 20, 30000);
    write_bytes("bomb.png", png, sizeof png);
    /* JPEG: an APP1 of 1000 bytes before the SOF0 */
    unsigned char jpg[1024 + 16];
    memset(jpg, 0, sizeof jpg);
    jpg[0] = 0xff, jpg[1] = 0xd8, jpg[2] = 0xff, jpg[3] = 0xe1, jpg[4] = 0x03, jpg[5] = 0xe8;
    unsigned char *sof = jpg + 4 + 1000;
    sof[0] = 0xff, sof[1] = 0xc0, sof[2] = 0, sof[3] = 17, sof[4] = 8;
    sof[5] = 30000 >> 8, sof[6] = 30000 & 0xff, sof[7] = 30000 >> 8, sof[8] = 30000 & 0xff;
    write_bytes("bomb.jpg", jpg, sizeof jpg);
    unsigned char bmp[54] = { 'B', 'M' };
    bmp[14] = 40;
    bmp[18] = 0x30, bmp[19] = 0x75;              /* 30000 */
    bmp[22] = 0xd0, bmp[23] = 0x8a, bmp[24] = 0xff, bmp[25] = 0xff;   /* -30000: top-down */
    write_bytes("bomb.bmp", bmp, sizeof bmp);
    static const char ppm[] = "P6\n# a comment\n30000 30000\n255\n";
    write_bytes("bomb.ppm", ppm, sizeof ppm - 1);
    unsigned char tif[8 + 2 + 2 * 12 + 4] = { 'I', 'I', 42, 0, 8, 0, 0, 0, 2, 0 };
    unsigned char *e = tif + 10;
    e[0] = 0, e[1] = 1, e[2] = 4, e[4] = 1, e[8] = 0x30, e[9] = 0x75;        /* 256 LONG */
    e[12] = 1, e[13] = 1, e[14] = 4, e[16] = 1, e[20] = 0x30, e[21] = 0x75;  /* 257 LONG */
    write_bytes("bomb.tif", tif, sizeof tif);
    unsigned char webp[30] = { 'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P',
                               'V', 'P', '8', 'X', 10, 0, 0, 0 };
    webp[24] = (29999) & 0xff, webp[25] = 29999 >> 8;
    webp[27] = (29999) & 0xff, webp[28] = 29999 >> 8;
    write_bytes("bomb.webp", webp, sizeof webp);
    static const char *const names[] = { "bomb.png", "bomb.jpg", "bomb.bmp", "bomb.ppm",
                                         "bomb.tif", "bomb.webp" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[128], why[256];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        int rc = cap_image_size(path, NULL, NULL, why, sizeof why);
        if (rc != CAP_ETOOBIG || !strstr(why, "30000x30000"))
            fail_msg("%s: rc %d (%s)", names[i], rc, why);
        cap_source_t *s = NULL;
        assert_int_equal(cap_source_open(path, NULL, &s), CAP_ETOOBIG);
    }
    static const char gif[] = "GIF89a\x10\x00\x10\x00";
    write_bytes("x.gif", gif, sizeof gif - 1);
    char path[128];
    snprintf(path, sizeof path, "%s/x.gif", tmpdir);
    assert_int_equal(cap_image_size(path, NULL, NULL, NULL, 0), CAP_EDECODE);
    assert_int_equal(cap_image_size(tmpdir, NULL, NULL, NULL, 0), CAP_EOPEN);
    assert_int_equal(cap_image_size_mem(png, sizeof png, NULL, NULL, NULL, 0), CAP_ETOOBIG);
    /* in a folder: that frame is refused (named), the next one read */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir f && mv bomb.png f/0.png", tmpdir);
    assert_int_equal(system(cmd), 0);
    cvb_image_t img;
    solid(&img, 48, 32, 1);
    snprintf(cmd, sizeof cmd, "%s/f/1.png", tmpdir);
    assert_int_equal(cvb_imwrite(cmd, &img, 0), CVB_OK);
    cvb_image_free(&img);
    snprintf(cmd, sizeof cmd, "%s/f", tmpdir);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(cmd, NULL, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_ETOOBIG);
    assert_non_null(strstr(cap_source_why(s), "0.png: 30000x30000"));
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.index, 1);
    cap_source_close(s);
}

/* A frame's file gone: CAP_EIO, the run goes on; the folder gone: CAP_ELOST, the end. */
static void test_folder_gone(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        char name[16];
        snprintf(name, sizeof name, "%d.png", k);
        write_png(name, k);
    }
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open(tmpdir, NULL, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    char p[128];
    snprintf(p, sizeof p, "%s/1.png", tmpdir);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(cap_source_next(s, &f), CAP_EIO);
    assert_non_null(strstr(cap_source_why(s), "1.png"));
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(cap_source_next(s, &f), CAP_ELOST);
    assert_non_null(strstr(cap_source_why(s), "gone"));
    cap_source_close(s);
    assert_int_equal(mkdir(tmpdir, 0755), 0);   /* for remove_tmp */
}

/* A folder's own rate: the fps line of the header of the truth.txt kifucam render writes;
 * nothing from another program's truth.txt, a malformed line, a line past the header, a
 * FIFO (never waited on) or a folder named truth.txt. */
static void test_folder_rate(void **state)
{
    (void)state;
    double fps = -1;
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_EOPEN); /* no truth.txt */
    assert_true(fps == -1);
    static const char head[] = "kifucam-render truth 1\nsource g.sgf\nseed 7\nsize 19\n"
                               "image 1280 720\n";
    char text[1024];
    snprintf(text, sizeof text, "%sfps 15\nview steep\nframes 40\nframe 0 file=f.jpg t=0\n", head);
    write_text("truth.txt", text);
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_OK);
    assert_true(fps == 15);
    snprintf(text, sizeof text, "%sfps 29.97\r\n", head);
    write_text("truth.txt", text);
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_OK);
    assert_true(fps > 29.969 && fps < 29.971);
    static const char *const bad[] = { "fps 0\n", "fps -5\n", "fps 2000\n", "fps abc\n",
                                       "fps 15 fast\n", "fps nan\n", "fps \n", "view steep\n",
                                       "frame 0 file=f.jpg\nfps 15\n",
                                       "event 3 hand_in color=B\nfps 15\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i]);
        write_text("truth.txt", text);
        fps = -1;
        if (cap_folder_rate(tmpdir, &fps) != CAP_EFORMAT)
            fail_msg("case %zu (%s): not CAP_EFORMAT", i, bad[i]);
        assert_true(fps == -1);
    }
    write_text("truth.txt", "ground truth of another tool\nfps 15\n");
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_EOPEN);
    /* a header line longer than the reader's buffer, then the rate */
    char longl[2000];
    memset(longl, 'x', sizeof longl - 1);
    longl[sizeof longl - 1] = '\0';
    char *big = malloc(4096);
    assert_non_null(big);
    snprintf(big, 4096, "kifucam-render truth 1\ngeometry %s fps 9\nfps 12\n", longl);
    write_text("truth.txt", big);
    free(big);
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_OK);
    assert_true(fps == 12);

    char path[128];
    snprintf(path, sizeof path, "%s/truth.txt", tmpdir);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_EOPEN); /* returns: never blocks */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(cap_folder_rate(tmpdir, &fps), CAP_EOPEN);
    assert_int_equal(cap_folder_rate(NULL, &fps), CAP_EINVAL);
    assert_int_equal(cap_folder_rate(tmpdir, NULL), CAP_EINVAL);
}

static void test_strerror(void **state)
{
    (void)state;
    for (int c = CAP_OK; c >= CAP_ELOST; c--) {
        const char *m = cap_strerror(c);
        assert_non_null(m);
        assert_string_not_equal(m, "unknown error");
        for (int d = c - 1; d >= CAP_ELOST; d--)
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
        cmocka_unit_test_setup_teardown(test_seek, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_stop_folder, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_errors, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_image_size_formats, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_image_size_headers, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_image_size_bombs, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_folder_gone, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(test_folder_rate, make_tmp, remove_tmp),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
