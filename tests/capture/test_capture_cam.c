/* test_capture_cam.c: the V4L2 camera source played by the scripted fake camera
 * (fake_v4l2.c): sessions in YUYV and MJPEG with pixel checks (MJPEG also decoded at a
 * reduced scale), format and size choice,
 * the driver's refusals, EINTR / EAGAIN / timeout / EIO, the camera vanishing and coming
 * back, mmap failing half way, the newest-frame policy, control locking, and the device
 * list. Every test ends by checking that nothing is left mapped or open. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/cap_devices.h"
#include "capture/cap_source.h"
#include "fake_v4l2.h"
#include "testutil.h"

static cap_options_t opts(int w, int h)
{
    cap_options_t o;
    cap_options_defaults(&o);
    o.width = w;
    o.height = h;
    o.settle_frames = 0;
    o.timeout_ms = 200;
    o.reopen_min_ms = 1;
    o.reopen_max_ms = 4;
    return o;
}

static int setup(void **state)
{
    (void)state;
    fake_reset();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_reset();
    return 0;
}

/* Nothing open, nothing mapped, no protocol violation. */
static void assert_released(void)
{
    assert_int_equal(fake.fd, -1);
    assert_int_equal(fake.live_maps, 0);
    assert_int_equal(fake.mmaps, fake.munmaps);
    assert_int_equal(fake.opens, fake.closes);
    assert_int_equal(fake.bad, 0);
}

static const uint8_t *px(const cvb_image_t *img, int x, int y)
{
    return img->data + (size_t)y * img->stride + (size_t)x * 3;
}

static void assert_near(int got, int want, int tol)
{
    if (abs(got - want) > tol)
        fail_msg("got %d, want %d +- %d", got, want, tol);
}

/* BT.601 limited range, as the YUYV -> BGR conversion does it. */
static int gray_of(int y)
{
    int v = (int)((y - 16) * 255.0 / 219.0 + 0.5);
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* The default fill: left half gray of frame seq, right half red. */
static void assert_default_frame(const cap_frame_t *f, uint32_t seq)
{
    int g = gray_of(fake_level(seq));
    const uint8_t *l = px(&f->img, 2, f->img.h / 2);
    assert_near(l[0], g, 2);
    assert_near(l[1], g, 2);
    assert_near(l[2], g, 2);
    const uint8_t *r = px(&f->img, f->img.w - 3, 1);
    assert_true(r[0] < 12 && r[1] < 12 && r[2] > 240);
}

static void test_yuyv_session(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_info_t info;
    assert_int_equal(cap_source_info(s, &info), CAP_OK);
    assert_int_equal(info.kind, CAP_KIND_CAMERA);
    assert_int_equal(info.width, 1280);
    assert_int_equal(info.height, 720);
    assert_int_equal(info.pixfmt, V4L2_PIX_FMT_YUYV);
    assert_int_equal(info.nbuffers, 4);
    assert_string_equal(info.name, "Fake Camera 1080p");
    assert_int_equal(fake.parm_den, 30000); /* S_PARM asked 30 fps */
    assert_int_equal(fake.live_maps, 4);
    assert_int_equal(fake.streamons, 1);
    double last_t = -1;
    for (uint32_t i = 0; i < 3; i++) {
        cap_frame_t f;
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.seq, i);
        assert_int_equal(f.dropped, 0);
        assert_int_equal(f.img.w, 1280);
        assert_int_equal(f.img.h, 720);
        assert_int_equal(f.img.channels, 3);
        assert_true(f.t >= last_t && f.t >= 0);
        last_t = f.t;
        assert_default_frame(&f, i);
    }
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_ETIMEOUT); /* script exhausted */
    cap_source_close(s);
    assert_int_equal(fake.streamoffs, 1);
    assert_int_equal(fake.mmaps, 4);
    assert_released();
}

/* MJPEG frames: the fill writes a JPEG of a colour that depends on the frame. */
static uint8_t *jpegs[8];
static size_t jpeg_len[8];

static void bgr_of(uint32_t seq, uint8_t bgr[3])
{
    bgr[0] = (uint8_t)(40 + 25 * (seq % 8));
    bgr[1] = 200;
    bgr[2] = (uint8_t)(220 - 25 * (seq % 8));
}

static void fill_mjpeg(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h,
                       uint32_t seq, uint32_t *bytesused)
{
    (void)fourcc;
    (void)w;
    (void)h;
    uint32_t k = seq % 8;
    if (jpeg_len[k] > len)
        return;
    memcpy(buf, jpegs[k], jpeg_len[k]);
    *bytesused = (uint32_t)jpeg_len[k];
}

static void make_jpegs(int w, int h)
{
    for (uint32_t k = 0; k < 8; k++) {
        cvb_image_t img;
        assert_int_equal(cvb_image_alloc(&img, w, h, 3), CVB_OK);
        uint8_t c[3];
        bgr_of(k, c);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                memcpy(img.data + (size_t)y * img.stride + (size_t)x * 3, c, 3);
        assert_int_equal(cvb_imencode_jpeg(&img, 90, &jpegs[k], &jpeg_len[k]), CVB_OK);
        cvb_image_free(&img);
    }
}

static void free_jpegs(void)
{
    for (int k = 0; k < 8; k++) {
        free(jpegs[k]);
        jpegs[k] = NULL;
    }
}

static void test_mjpeg_session(void **state)
{
    (void)state;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 640, 480, 30 };
    fake.nmodes = 1;
    fake.fill = fill_mjpeg;
    make_jpegs(640, 480);
    for (int i = 0; i < 4; i++)
        fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(640, 480);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.pixfmt, V4L2_PIX_FMT_MJPEG);
    for (uint32_t i = 0; i < 4; i++) {
        cap_frame_t f;
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.seq, i);
        assert_int_equal(f.img.w, 640);
        assert_int_equal(f.img.h, 480);
        uint8_t c[3];
        bgr_of(i, c);
        for (int k = 0; k < 3; k++)
            assert_near(px(&f.img, 320, 240)[k], c[k], 6);
    }
    cap_source_close(s);
    free_jpegs();
    assert_released();
}

/* An MJPEG camera with a minimum decoding size (min_w x min_h 300x200): 640x480 frames
 * decoded at half size (320x240), colours right, the driver's size still in the info. */
static void test_mjpeg_reduced(void **state)
{
    (void)state;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 640, 480, 30 };
    fake.nmodes = 1;
    fake.fill = fill_mjpeg;
    make_jpegs(640, 480);
    for (int i = 0; i < 3; i++)
        fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(640, 480);
    o.min_w = 300;
    o.min_h = 200;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.reduce, 2);
    assert_int_equal(info.width, 640);
    for (uint32_t i = 0; i < 3; i++) {
        cap_frame_t f;
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        assert_int_equal(f.seq, i);
        assert_int_equal(f.index, i);
        assert_int_equal(f.img.w, 320);
        assert_int_equal(f.img.h, 240);
        uint8_t c[3];
        bgr_of(i, c);
        for (int k = 0; k < 3; k++)
            assert_near(px(&f.img, 160, 120)[k], c[k], 6);
    }
    cap_source_close(s);
    free_jpegs();
    assert_released();
}

/* Drop the DHT segments of a JPEG, as many UVC cameras send MJPEG (the decoder must use
 * the standard tables). Returns the new length; the buffer is edited in place. */
static size_t strip_dht(uint8_t *j, size_t n)
{
    size_t i = 2, m = 2;
    while (i + 4 <= n && j[i] == 0xFF) {
        uint8_t marker = j[i + 1];
        size_t len = ((size_t)j[i + 2] << 8) | j[i + 3];
        if (marker == 0xDA) { /* start of scan: the rest is entropy-coded data */
            memmove(j + m, j + i, n - i);
            return m + (n - i);
        }
        if (marker != 0xC4) {
            memmove(j + m, j + i, 2 + len);
            m += 2 + len;
        }
        i += 2 + len;
    }
    return n;
}

static void test_mjpeg_without_huffman_tables(void **state)
{
    (void)state;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 320, 240, 30 };
    fake.nmodes = 1;
    fake.fill = fill_mjpeg;
    make_jpegs(320, 240);
    for (int k = 0; k < 8; k++) {
        size_t before = jpeg_len[k];
        jpeg_len[k] = strip_dht(jpegs[k], jpeg_len[k]);
        assert_true(jpeg_len[k] < before);
    }
    fake_script(FK_FRAMES, 1);
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(320, 240);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    for (uint32_t i = 0; i < 2; i++) {
        cap_frame_t f;
        assert_int_equal(cap_source_next(s, &f), CAP_OK);
        uint8_t c[3];
        bgr_of(i, c);
        for (int k = 0; k < 3; k++)
            assert_near(px(&f.img, 100, 100)[k], c[k], 6);
    }
    cap_source_close(s);
    free_jpegs();
    assert_released();
}

/* A corrupt MJPEG frame is reported, then counted as dropped before the next. */
static void fill_bad_then_good(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h,
                               uint32_t seq, uint32_t *bytesused)
{
    if (seq == 0) {
        memset(buf, 0x5a, 64);
        *bytesused = 64;
        return;
    }
    if (seq == 2) { /* truncated: the second half never arrived */
        fill_mjpeg(buf, len, fourcc, w, h, seq, bytesused);
        *bytesused /= 2;
        return;
    }
    fill_mjpeg(buf, len, fourcc, w, h, seq, bytesused);
}

static void test_mjpeg_corrupt(void **state)
{
    (void)state;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 320, 240, 30 };
    fake.nmodes = 1;
    fake.fill = fill_bad_then_good;
    make_jpegs(320, 240);
    for (int i = 0; i < 4; i++)
        fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(320, 240);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_EDECODE); /* garbage */
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 0);
    assert_int_equal(f.dropped, 1);
    assert_int_equal(cap_source_next(s, &f), CAP_EDECODE); /* truncated */
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 1);
    assert_int_equal(f.dropped, 1);
    uint8_t c[3];
    bgr_of(3, c);
    for (int k = 0; k < 3; k++)
        assert_near(px(&f.img, 160, 230)[k], c[k], 6);
    cap_source_close(s);
    free_jpegs();
    assert_released();
}

/* YUYV reaching the rate at the size is preferred; else the native format that does. */
static void test_format_choice(void **state)
{
    (void)state;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_YUYV, 1920, 1080, 5 };
    fake.modes[1] = (fake_mode_t){ V4L2_PIX_FMT_YUYV, 1280, 720, 30 };
    fake.modes[2] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 1920, 1080, 30 };
    fake.modes[3] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 1280, 720, 30 };
    fake.nmodes = 4;
    fake.emulated = V4L2_PIX_FMT_BGR24;
    cap_options_t o = opts(1920, 1080);
    cap_source_t *s = NULL;
    cap_info_t info;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_source_info(s, &info);
    assert_int_equal(info.pixfmt, V4L2_PIX_FMT_MJPEG); /* YUYV is 5 fps at 1080p */
    assert_int_equal(info.width, 1920);
    cap_source_close(s);

    o = opts(1280, 720);
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_source_info(s, &info);
    assert_int_equal(info.pixfmt, V4L2_PIX_FMT_YUYV);
    assert_int_equal(info.width, 1280);
    cap_source_close(s);

    /* forced: BGR24 converted by libv4l2, copied as is */
    o.pixfmt = V4L2_PIX_FMT_BGR24;
    fake_script(FK_FRAMES, 1);
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_source_info(s, &info);
    assert_int_equal(info.pixfmt, V4L2_PIX_FMT_BGR24);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(px(&f.img, 0, 0)[0], fake_level(0));
    assert_int_equal(px(&f.img, 1279, 0)[2], 255);
    cap_source_close(s);
    assert_released();
}

static void test_driver_changes_size(void **state)
{
    (void)state;
    fake.force_w = 1280;
    fake.force_h = 720;
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1920, 1080);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.width, 1280);
    assert_int_equal(info.height, 720);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.img.w, 1280);
    assert_int_equal(f.img.h, 720);
    assert_default_frame(&f, 0);
    cap_source_close(s);
    assert_released();
}

static void test_one_buffer(void **state)
{
    (void)state;
    fake.grant = 1;
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = (cap_source_t *)&o; /* must stay untouched */
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_EBUFFERS);
    assert_ptr_equal(s, (cap_source_t *)&o);
    assert_int_equal(fake.opens, 1);
    assert_int_equal(fake.mmaps, 0);
    assert_released();
}

static void test_not_a_capture_device(void **state)
{
    (void)state;
    fake.caps = V4L2_CAP_VIDEO_CAPTURE; /* no streaming I/O */
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_ENOTCAP);
    assert_null(s);
    fake.present = 0;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_EOPEN);
    assert_released();
}

static void test_mmap_fails_half_way(void **state)
{
    (void)state;
    fake.mmap_fail_at = 2;
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_EMMAP);
    assert_null(s);
    assert_int_equal(fake.mmaps, 2);
    assert_int_equal(fake.munmaps, 2);
    assert_int_equal(fake.streamons, 0);
    assert_released();
}

static void test_eintr_eagain_timeout_eio(void **state)
{
    (void)state;
    fake_script(FK_EINTR, 0);
    fake_script(FK_FRAMES, 1); /* call 1: EINTR then a frame */
    fake_script(FK_EAGAIN, 0);
    fake_script(FK_FRAMES, 1); /* call 2: a spurious wake-up then a frame */
    fake_script(FK_TIMEOUT, 0); /* call 3: timeout */
    fake_script(FK_FRAMES, 1); /* call 4 */
    fake_script(FK_EIO, 0);     /* call 5: EIO */
    fake_script(FK_FRAMES, 1); /* call 6 */
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 0);
    assert_int_equal(fake.polls, 2);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 1);
    assert_int_equal(fake.polls, 4);
    assert_true(fake.dqbuf_eagain >= 1);
    assert_int_equal(cap_source_next(s, &f), CAP_ETIMEOUT);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 2);
    assert_int_equal(cap_source_next(s, &f), CAP_EIO);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 3);
    assert_int_equal(f.dropped, 0);
    assert_default_frame(&f, 3);
    assert_int_equal(fake.opens, 1); /* none of these reopened the camera */
    cap_source_close(s);
    assert_released();
}

/* EIO again and again: the camera is taken for gone and reopened. */
static void test_eio_repeated_is_gone(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        fake_script(FK_EIO, 0);
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    o.eio_gone = 3;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_EIO);
    assert_int_equal(cap_source_next(s, &f), CAP_EIO);
    assert_int_equal(cap_source_next(s, &f), CAP_EGONE);
    assert_int_equal(fake.live_maps, 0);
    int rc, calls = 0;
    while ((rc = cap_source_next(s, &f)) == CAP_EGONE && calls < 50)
        calls++;
    assert_int_equal(rc, CAP_OK);
    assert_int_equal(fake.opens, 2);
    cap_source_close(s);
    assert_released();
}

/* A camera that stalls (timeouts in a row) is restarted; a frame resets the count. */
static void test_stalled_camera_restarted(void **state)
{
    (void)state;
    fake_script(FK_TIMEOUT, 0);
    fake_script(FK_FRAMES, 1);
    fake_script(FK_TIMEOUT, 0);
    fake_script(FK_TIMEOUT, 0);
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    o.timeout_gone = 2;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_ETIMEOUT);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_ETIMEOUT);
    assert_int_equal(cap_source_next(s, &f), CAP_EGONE);
    assert_int_equal(fake.fd, -1);
    int rc, calls = 0;
    while ((rc = cap_source_next(s, &f)) == CAP_EGONE && calls < 50)
        calls++;
    assert_int_equal(rc, CAP_OK);
    assert_int_equal(f.seq, 1);
    assert_int_equal(fake.opens, 2);
    cap_source_close(s);
    assert_released();
}

static void gone_and_back(fk_kind_t how)
{
    fake_script(FK_FRAMES, 1);
    fake_script(how, 2); /* unplugged; the next two opens fail */
    fake_script(FK_FRAMES, 1);
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 0);
    assert_int_equal(cap_source_next(s, &f), CAP_EGONE);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.gone, 1);
    /* gone: released at once, nothing mapped */
    assert_int_equal(fake.fd, -1);
    assert_int_equal(fake.live_maps, 0);
    int rc, gone_calls = 0;
    while ((rc = cap_source_next(s, &f)) == CAP_EGONE && gone_calls < 100)
        gone_calls++;
    assert_int_equal(rc, CAP_OK);
    assert_true(gone_calls >= 1);          /* the failed reopens were reported */
    assert_int_equal(fake.open_calls, 4);  /* first open, 2 failures, the reopen */
    assert_int_equal(fake.opens, 2);
    assert_int_equal(f.seq, 1);            /* the sequence goes on across the reopen */
    assert_default_frame(&f, 1);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 2);
    cap_source_info(s, &info);
    assert_int_equal(info.reopens, 1);
    assert_int_equal(info.gone, 0);
    cap_source_close(s);
    assert_released();
}

static void test_unplugged_enodev_and_back(void **state)
{
    (void)state;
    gone_and_back(FK_UNPLUG);
}

static void test_unplugged_pollerr_and_back(void **state)
{
    (void)state;
    gone_and_back(FK_POLLERR);
}

/* Behind: the newest ready frame is handed on, the older ones requeued and counted; the
 * frames the driver itself dropped (no free buffer) are counted from the sequence gap. */
static void test_newest_frame(void **state)
{
    (void)state;
    fake_script(FK_FRAMES, 3);
    fake_script(FK_FRAMES, 6); /* 4 buffers: frames 7 and 8 are dropped by the driver */
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 0);
    assert_int_equal(f.dropped, 2);
    assert_default_frame(&f, 2); /* driver frame 2, the newest */
    assert_int_equal(fake.nready, 0);
    assert_int_equal(fake.nqueued, 4); /* everything requeued */
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 1);
    assert_int_equal(f.dropped, 3);
    assert_default_frame(&f, 6);
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(f.seq, 2);
    assert_int_equal(f.dropped, 2);
    assert_default_frame(&f, 9);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.dropped, 7);
    cap_source_close(s);
    assert_released();
}

static int set_value(uint32_t id, int32_t *value)
{
    for (int i = 0; i < fake.nsets; i++)
        if (fake.sets[i].id == id) {
            *value = fake.sets[i].value;
            return 1;
        }
    return 0;
}

static void test_controls_locked_after_settling(void **state)
{
    (void)state;
    fake.controls = 1;
    for (int i = 0; i < 3; i++)
        fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    o.settle_frames = 2;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    cap_info_t info;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(fake.nsets, 0); /* still settling */
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    cap_source_info(s, &info);
    assert_int_equal(info.locked, CAP_LOCK_EXPOSURE | CAP_LOCK_WHITE_BALANCE | CAP_LOCK_FOCUS);
    int32_t v;
    assert_true(set_value(V4L2_CID_EXPOSURE_AUTO, &v));
    assert_int_equal(v, V4L2_EXPOSURE_MANUAL);
    assert_true(set_value(V4L2_CID_EXPOSURE_ABSOLUTE, &v));
    assert_int_equal(v, 156);
    assert_true(set_value(V4L2_CID_AUTO_WHITE_BALANCE, &v));
    assert_int_equal(v, 0);
    assert_true(set_value(V4L2_CID_WHITE_BALANCE_TEMPERATURE, &v));
    assert_int_equal(v, 4600);
    assert_true(set_value(V4L2_CID_FOCUS_AUTO, &v));
    assert_int_equal(v, 0);
    assert_true(set_value(V4L2_CID_FOCUS_ABSOLUTE, &v));
    assert_int_equal(v, 30);
    int n = fake.nsets;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(fake.nsets, n); /* locked once */
    cap_source_close(s);
    assert_released();
}

static void test_no_controls_nothing_locked(void **state)
{
    (void)state;
    fake_script(FK_FRAMES, 1);
    cap_options_t o = opts(1280, 720);
    o.settle_frames = 1;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    cap_info_t info;
    cap_source_info(s, &info);
    assert_int_equal(info.locked, 0);
    cap_source_close(s);
    assert_released();
}

static void test_stop_and_close(void **state)
{
    (void)state;
    fake_script(FK_FRAMES, 1);
    fake_script(FK_STOP, 0);
    cap_options_t o = opts(1280, 720);
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    fake.stop_target = s;
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_OK);
    assert_int_equal(cap_source_next(s, &f), CAP_ESTOPPED); /* stopped during the poll */
    assert_int_equal(cap_source_next(s, &f), CAP_ESTOPPED);
    cap_source_close(s);
    assert_int_equal(fake.streamoffs, 1);
    assert_released();
    cap_source_close(NULL);
    cap_source_stop(NULL);
}

/* Closing while gone (nothing open) is as clean as closing while streaming. */
static void test_close_while_gone(void **state)
{
    (void)state;
    fake_script(FK_UNPLUG, 1000);
    cap_options_t o = opts(1280, 720);
    o.reopen_min_ms = 50;
    o.reopen_max_ms = 100;
    cap_source_t *s = NULL;
    assert_int_equal(cap_source_open("/dev/video0", &o, &s), CAP_OK);
    cap_frame_t f;
    assert_int_equal(cap_source_next(s, &f), CAP_EGONE);
    cap_source_close(s);
    assert_released();
}

static void test_devices(void **state)
{
    (void)state;
    fake.modes[2] = (fake_mode_t){ V4L2_PIX_FMT_MJPEG, 1920, 1080, 60 };
    fake.nmodes = 3;
    cap_device_t d;
    assert_int_equal(cap_device_query("/dev/video0", &d), CAP_OK);
    assert_string_equal(d.card, "Fake Camera 1080p");
    assert_string_equal(d.driver, "fakecam");
    assert_int_equal(d.nformats, 2);
    assert_int_equal(d.formats[0].fourcc, V4L2_PIX_FMT_YUYV);
    assert_int_equal(d.formats[0].nsizes, 2);
    assert_int_equal(d.formats[0].sizes[1].w, 1920);
    assert_int_equal(d.formats[0].sizes[1].nrates, 1);
    assert_true(d.formats[0].sizes[1].fps[0] > 29.9 && d.formats[0].sizes[1].fps[0] < 30.1);
    assert_int_equal(d.formats[1].fourcc, V4L2_PIX_FMT_MJPEG);
    assert_string_equal(d.formats[1].desc, "Motion-JPEG");
    assert_true(d.formats[1].sizes[0].fps[0] > 59.9);
    char cc[5];
    assert_string_equal(cap_fourcc_str(V4L2_PIX_FMT_MJPEG, cc), "MJPG");

    /* a folder holding video nodes: listed in number order; an empty one: none */
    char dir[] = "/tmp/kc_capdevXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/video0", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fclose(fp);
    cap_device_t *list = NULL;
    int n = -1;
    assert_int_equal(cap_devices_list(dir, &list, &n), CAP_OK);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].path, path);
    assert_int_equal(list[0].status, CAP_OK);
    free(list);
    fake.present = 0; /* a node that cannot be opened is listed as such */
    assert_int_equal(cap_devices_list(dir, &list, &n), CAP_OK);
    assert_int_equal(n, 1);
    assert_int_equal(list[0].status, CAP_EOPEN);
    assert_int_equal(list[0].sys_errno, ENOENT);
    free(list);
    fake.present = 1;
    fake.caps = V4L2_CAP_META_CAPTURE; /* a UVC metadata node: left out */
    assert_int_equal(cap_devices_list(dir, &list, &n), CAP_OK);
    assert_int_equal(n, 0);
    fake.caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
    unlink(path);
    assert_int_equal(cap_devices_list(dir, &list, &n), CAP_OK);
    assert_int_equal(n, 0);
    assert_null(list);
    rmdir(dir);
    assert_released();
}

static void test_parse_options(void **state)
{
    (void)state;
    int w = 0, h = 0;
    assert_int_equal(cap_parse_size("1280x720", &w, &h), CAP_OK);
    assert_int_equal(w, 1280);
    assert_int_equal(h, 720);
    const char *bad[] = { "", "1280", "1280x", "x720", "0x720", "1280x720p", "-4x3",
                          "99999x2", " 1280x720" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cap_parse_size(bad[i], &w, &h), CAP_EINVAL);
    assert_int_equal(w, 1280); /* untouched on failure */
    uint32_t cc = 1;
    assert_int_equal(cap_parse_pixfmt("auto", &cc), CAP_OK);
    assert_int_equal(cc, 0);
    assert_int_equal(cap_parse_pixfmt("MJPEG", &cc), CAP_OK);
    assert_int_equal(cc, V4L2_PIX_FMT_MJPEG);
    assert_int_equal(cap_parse_pixfmt("yuyv", &cc), CAP_OK);
    assert_int_equal(cc, V4L2_PIX_FMT_YUYV);
    assert_int_equal(cap_parse_pixfmt("bgr24", &cc), CAP_OK);
    assert_int_equal(cc, V4L2_PIX_FMT_BGR24);
    assert_int_equal(cap_parse_pixfmt("NV12", &cc), CAP_OK);
    assert_int_equal(cc, V4L2_PIX_FMT_NV12);
    assert_int_equal(cap_parse_pixfmt("rgb", &cc), CAP_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_yuyv_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mjpeg_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mjpeg_reduced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mjpeg_without_huffman_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mjpeg_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_choice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_driver_changes_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_a_capture_device, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmap_fails_half_way, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eintr_eagain_timeout_eio, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eio_repeated_is_gone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stalled_camera_restarted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unplugged_enodev_and_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unplugged_pollerr_and_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newest_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_controls_locked_after_settling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_controls_nothing_locked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_and_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_while_gone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_devices, setup, teardown),
        cmocka_unit_test(test_parse_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
