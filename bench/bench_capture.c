/* bench_capture.c: the share of one core the capture path takes at 1920x1080 and 30 fps
 * (poll, DQBUF, conversion to BGR, requeue), on the fake camera of the capture tests
 * (libv4l2 and poll wrapped; its frames arrive in real time at 30 fps) in YUYV and MJPEG,
 * and on video files generated here (MJPG .avi, mp4v .mp4) read at 30 fps in real time.
 * The share is process CPU time over wall time while frames flow at their rate; the CPU
 * time per frame is printed too. The fake driver's frame filling is not counted: each
 * buffer is filled once (a real driver fills them by DMA).
 * usage: bench_capture [FRAMES] (default 90 per case) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "capture/cap_source.h"
#include "fake_v4l2.h"

#define W 1920
#define H 1080
#define FPS 30.0

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A board-like scene: wood gradient, a grid, some stones, mild noise (for JPEG size). */
static void scene(cvb_image_t *img, int k)
{
    unsigned r = 12345u + (unsigned)k;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
            r = r * 1103515245u + 12345u;
            int n = (int)((r >> 16) & 7) - 3;
            int gx = (x - 420) % 57, gy = (y - 60) % 53;
            int line = x >= 420 && x < 1500 && y >= 60 && y < 1020 && (gx < 2 || gy < 2);
            int cx = (x - 420 + 28) / 57, cy = (y - 60 + 26) / 53;
            int dx = (x - 420) - cx * 57, dy = (y - 60) - cy * 53;
            int stone = x >= 420 && x < 1500 && y >= 60 && y < 1020 &&
                        ((cx * 7 + cy * 3 + k) % 5 == 0) && dx * dx + dy * dy < 24 * 24;
            int b = 60 + y / 20 + n, g = 140 + x / 40 + n, rr = 200 + n;
            if (line)
                b = g = rr = 30;
            if (stone) {
                int white = (cx + cy) % 2;
                b = g = rr = white ? 235 + n : 20 + n;
            }
            p[0] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
            p[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
            p[2] = (uint8_t)(rr < 0 ? 0 : rr > 255 ? 255 : rr);
        }
}

static uint8_t *jpeg;
static size_t jpeg_len;
static cvb_image_t frame_bgr;
static const uint8_t *filled[FAKE_MAX_BUFS];

/* Fill each buffer once: YUYV from the scene, or the JPEG of the scene. */
static void fill_once(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h, uint32_t seq,
                      uint32_t *bytesused)
{
    (void)seq;
    int slot = -1;
    for (int i = 0; i < FAKE_MAX_BUFS; i++)
        if (filled[i] == buf)
            slot = i;
    if (fourcc == V4L2_PIX_FMT_MJPEG)
        *bytesused = (uint32_t)jpeg_len;
    if (slot >= 0)
        return;
    for (int i = 0; i < FAKE_MAX_BUFS; i++)
        if (!filled[i]) {
            filled[i] = buf;
            break;
        }
    if (fourcc == V4L2_PIX_FMT_MJPEG) {
        if (jpeg_len <= len)
            memcpy(buf, jpeg, jpeg_len);
        return;
    }
    if ((size_t)w * (size_t)h * 2 > len)
        return;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x += 2) {
            const uint8_t *p = frame_bgr.data + (size_t)y * frame_bgr.stride + (size_t)x * 3;
            uint8_t *q = buf + (size_t)y * (size_t)w * 2 + (size_t)x * 2;
            int b = p[0], g = p[1], r = p[2];
            int yy = 16 + (66 * r + 129 * g + 25 * b + 128) / 256;
            int u = 128 + (-38 * r - 74 * g + 112 * b + 128) / 256;
            int v = 128 + (112 * r - 94 * g - 18 * b + 128) / 256;
            q[0] = (uint8_t)yy, q[1] = (uint8_t)u, q[2] = (uint8_t)yy, q[3] = (uint8_t)v;
        }
}

typedef struct {
    int frames, dropped, errors;
    double cpu, wall;
} result_t;

static void run(cap_source_t *s, int n, result_t *r)
{
    cap_frame_t f;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 3; i++) /* warm up: first allocations, decoder set-up */
        cap_source_next(s, &f);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
    while (r->frames < n) {
        int rc = cap_source_next(s, &f);
        if (rc == CAP_OK) {
            r->frames++;
            r->dropped += (int)f.dropped;
        } else if (rc == CAP_EEOF || rc == CAP_ESTOPPED || ++r->errors > 10) {
            break;
        }
    }
    r->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    r->wall = clock_s(CLOCK_MONOTONIC) - w0;
}

static void report(const char *name, const result_t *r)
{
    if (r->frames == 0) {
        printf("%-28s FAILED (no frames)\n", name);
        return;
    }
    double per = r->cpu / r->frames;
    printf("%-28s %4d frames in %5.2f s: %6.2f ms CPU/frame, %5.1f%% of one core "
           "(CPU/wall), %5.1f%% at 30 fps (per-frame x 30), %d dropped\n",
           name, r->frames, r->wall, per * 1e3, 100.0 * r->cpu / r->wall, per * 30 * 100,
           r->dropped);
}

static int bench_camera(uint32_t fourcc, const char *name, int n)
{
    fake_reset();
    memset(filled, 0, sizeof filled);
    fake.modes[0] = (fake_mode_t){ fourcc, W, H, FPS };
    fake.nmodes = 1;
    fake.fill = fill_once;
    fake.realtime_fps = FPS;
    cap_options_t o;
    cap_options_defaults(&o);
    o.width = W;
    o.height = H;
    o.fps = FPS;
    o.settle_frames = 0;
    cap_source_t *s = NULL;
    int rc = cap_source_open("/dev/video0", &o, &s);
    if (rc) {
        fprintf(stderr, "bench_capture: %s: %s\n", name, cap_strerror(rc));
        return 1;
    }
    result_t r;
    run(s, n, &r);
    cap_source_close(s);
    report(name, &r);
    fake_reset();
    return r.frames == n ? 0 : 1;
}

static int bench_video(const char *path, const char *name, int n)
{
    cvb_writer_t *wr = NULL;
    if (cvb_writer_open(path, FPS, W, H, &wr) != CVB_OK) {
        fprintf(stderr, "bench_capture: cannot write %s\n", path);
        return 1;
    }
    for (int k = 0; k < n + 3; k++) {
        if (k % 10 == 0)
            scene(&frame_bgr, k / 10);
        cvb_writer_write(wr, &frame_bgr);
    }
    cvb_writer_close(wr);
    cap_options_t o;
    cap_options_defaults(&o);
    o.realtime = 1;
    cap_source_t *s = NULL;
    int rc = cap_source_open(path, &o, &s);
    if (rc) {
        fprintf(stderr, "bench_capture: %s: %s\n", path, cap_strerror(rc));
        return 1;
    }
    result_t r;
    run(s, n, &r);
    cap_source_close(s);
    report(name, &r);
    unlink(path);
    return r.frames == n ? 0 : 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 90;
    if (n < 1 || n > 100000) {
        fprintf(stderr, "usage: bench_capture [FRAMES]\n");
        return 2;
    }
    if (cvb_image_alloc(&frame_bgr, W, H, 3) != CVB_OK)
        return 1;
    scene(&frame_bgr, 0);
    if (cvb_imencode_jpeg(&frame_bgr, 80, &jpeg, &jpeg_len) != CVB_OK)
        return 1;
    printf("capture path at %dx%d, %.0f fps, %d frames per case (MJPEG frame: %zu KB)\n", W,
           H, FPS, n, jpeg_len / 1024);
    int bad = 0;
    bad |= bench_camera(V4L2_PIX_FMT_YUYV, "fake camera YUYV", n);
    bad |= bench_camera(V4L2_PIX_FMT_MJPEG, "fake camera MJPEG", n);
    char path[64];
    snprintf(path, sizeof path, "/tmp/kc_bench_capture_%d.avi", (int)getpid());
    bad |= bench_video(path, "video file MJPG .avi", n);
    snprintf(path, sizeof path, "/tmp/kc_bench_capture_%d.mp4", (int)getpid());
    bad |= bench_video(path, "video file mp4v .mp4", n);
    free(jpeg);
    cvb_image_free(&frame_bgr);
    return bad;
}
