/* cap_v4l2.c: the V4L2 camera source, through libv4l2 (modelled on v4l-utils'
 * capture-example.c): open non-blocking, QUERYCAP, choose format and size, S_FMT then
 * G_FMT (the driver's choice rules), S_PARM, REQBUFS (>= 2), QUERYBUF + mmap, QBUF all,
 * STREAMON; then poll, DQBUF the newest ready buffer (older ones are requeued and counted
 * as dropped), convert to BGR into the source's own image, requeue at once.
 *
 * Invariants: cam->fd >= 0 exactly while the device is open; buf[0..nbuf) are the mapped
 * buffers, all unmapped by cam_release(), which is safe from any state and the only way
 * out of a half-done setup; cam->gone means the fd is released and a reopen is due at
 * cam->next_try. No function here prints or exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "capture/cap_internal.h"
#include "capture/cap_jpeg.h"

#define CAP_MAX_BUFFERS 32

struct cap_cam {
    char *path;
    int fd;
    struct {
        void *start;
        size_t len;
    } buf[CAP_MAX_BUFFERS];
    int nbuf;                 /* buffers mapped */
    int streaming;
    uint32_t pixfmt;
    int w, h;
    size_t stride;            /* bytes per row of the raw format */
    int gone;                 /* lost: reopen when cap_now() >= next_try */
    int backoff_ms;
    double next_try;
    int eio_run;              /* EIO in a row */
    int timeout_run;          /* timeouts in a row */
    int lost_pending;         /* a frame was delivered but the device failed after it */
    uint64_t frames;          /* frames delivered since the last (re)open */
    int have_last_seq;
    uint32_t last_seq;        /* driver sequence of the last delivered frame */
    uint32_t pending_drop;    /* frames lost (corrupt, undecodable) not yet reported */
    double last_t;
};

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = v4l2_ioctl(fd, req, arg);
    while (r == -1 && errno == EINTR);
    return r;
}

/* STREAMOFF, munmap all, close: safe from any state. */
static void cam_release(cap_cam_t *c)
{
    if (c->fd >= 0 && c->streaming) {
        enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl(c->fd, VIDIOC_STREAMOFF, &type);
    }
    c->streaming = 0;
    for (int i = 0; i < c->nbuf; i++)
        v4l2_munmap(c->buf[i].start, c->buf[i].len);
    c->nbuf = 0;
    if (c->fd >= 0)
        v4l2_close(c->fd);
    c->fd = -1;
}

static int convertible(uint32_t f)
{
    return f == V4L2_PIX_FMT_YUYV || f == V4L2_PIX_FMT_MJPEG || f == V4L2_PIX_FMT_JPEG ||
           f == V4L2_PIX_FMT_BGR24;
}

/* Does `fmt` offer w x h natively? 1 yes, 0 no, -1 the driver does not say. */
static int size_offered(int fd, uint32_t fmt, int w, int h)
{
    struct v4l2_frmsizeenum fs;
    for (uint32_t i = 0; i < 256; i++) {
        memset(&fs, 0, sizeof fs);
        fs.index = i;
        fs.pixel_format = fmt;
        if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
            return i == 0 ? -1 : 0;
        if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
            if ((int)fs.discrete.width == w && (int)fs.discrete.height == h)
                return 1;
        } else {
            struct v4l2_frmsize_stepwise *sw = &fs.stepwise;
            return (uint32_t)w >= sw->min_width && (uint32_t)w <= sw->max_width &&
                   (uint32_t)h >= sw->min_height && (uint32_t)h <= sw->max_height;
        }
    }
    return 0;
}

/* The highest frame rate `fmt` gives at w x h; 0 when the driver does not say. */
static double max_fps(int fd, uint32_t fmt, int w, int h)
{
    struct v4l2_frmivalenum fi;
    double best = 0;
    for (uint32_t i = 0; i < 256; i++) {
        memset(&fi, 0, sizeof fi);
        fi.index = i;
        fi.pixel_format = fmt;
        fi.width = (uint32_t)w;
        fi.height = (uint32_t)h;
        if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) < 0)
            break;
        struct v4l2_fract f = fi.type == V4L2_FRMIVAL_TYPE_DISCRETE ? fi.discrete
                                                                      : fi.stepwise.min;
        if (f.numerator > 0 && (double)f.denominator / f.numerator > best)
            best = (double)f.denominator / f.numerator;
        if (fi.type != V4L2_FRMIVAL_TYPE_DISCRETE)
            break;
    }
    return best;
}

/* Choose the pixel format: what the camera gives natively at the requested size, YUYV
 * when it reaches the frame rate there (cheapest to convert, no compression), else the
 * native format with the higher rate at that size, else any native MJPEG/YUYV (the driver
 * will adjust the size), else BGR24 converted by libv4l2. */
static uint32_t choose_format(int fd, const cap_options_t *o)
{
    if (o->pixfmt)
        return o->pixfmt;
    int native_mjpg = 0, native_yuyv = 0;
    struct v4l2_fmtdesc d;
    for (uint32_t i = 0; i < 64; i++) {
        memset(&d, 0, sizeof d);
        d.index = i;
        d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(fd, VIDIOC_ENUM_FMT, &d) < 0)
            break;
        if (d.flags & V4L2_FMT_FLAG_EMULATED)
            continue;
        if (d.pixelformat == V4L2_PIX_FMT_MJPEG)
            native_mjpg = 1;
        if (d.pixelformat == V4L2_PIX_FMT_YUYV)
            native_yuyv = 1;
    }
    const uint32_t cand[2] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_MJPEG };
    const int have[2] = { native_yuyv, native_mjpg };
    int best = -1;
    double best_key[3] = { 0, 0, 0 };
    for (int k = 0; k < 2; k++) {
        if (!have[k])
            continue;
        int sz = size_offered(fd, cand[k], o->width, o->height);
        double fps = sz != 0 ? max_fps(fd, cand[k], o->width, o->height) : 0;
        int fps_ok = sz != 0 && (fps == 0 || fps >= o->fps - 0.5);
        /* key: size offered, rate reached, then YUYV if both reach it, else the rate */
        double key[3] = { sz != 0, fps_ok, fps_ok ? (k == 0) : fps };
        if (best < 0 || key[0] > best_key[0] ||
            (key[0] == best_key[0] && (key[1] > best_key[1] ||
                                       (key[1] == best_key[1] && key[2] > best_key[2])))) {
            best = k;
            memcpy(best_key, key, sizeof key);
        }
    }
    return best >= 0 ? cand[best] : V4L2_PIX_FMT_BGR24;
}

/* Open and start streaming; on failure everything is released and a CAP_E* returned. */
static int cam_setup(cap_source_t *s)
{
    cap_cam_t *c = s->cam;
    const cap_options_t *o = &s->opt;
    int rc;

    c->fd = v4l2_open(c->path, O_RDWR | O_NONBLOCK, 0);
    if (c->fd < 0) {
        c->fd = -1;
        return CAP_EOPEN;
    }
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(c->fd, VIDIOC_QUERYCAP, &cap) < 0) {
        rc = CAP_ENOTCAP;
        goto fail;
    }
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
                                                               : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) {
        rc = CAP_ENOTCAP;
        goto fail;
    }
    size_t n = strnlen((const char *)cap.card, sizeof cap.card);
    if (n >= sizeof s->info.name)
        n = sizeof s->info.name - 1;
    memcpy(s->info.name, cap.card, n);
    s->info.name[n] = '\0';

    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    fmt.fmt.pix.width = (uint32_t)o->width;
    fmt.fmt.pix.height = (uint32_t)o->height;
    fmt.fmt.pix.pixelformat = choose_format(c->fd, o);
    fmt.fmt.pix.field = V4L2_FIELD_ANY;
    if (xioctl(c->fd, VIDIOC_S_FMT, &fmt) < 0) {
        rc = CAP_EFORMAT;
        goto fail;
    }
    /* The driver may have changed the size (or even the format): what it says rules. */
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(c->fd, VIDIOC_G_FMT, &fmt) < 0) {
        rc = CAP_EFORMAT;
        goto fail;
    }
    c->pixfmt = fmt.fmt.pix.pixelformat;
    c->w = (int)fmt.fmt.pix.width;
    c->h = (int)fmt.fmt.pix.height;
    c->stride = fmt.fmt.pix.bytesperline;
    if (!convertible(c->pixfmt) || c->w <= 0 || c->h <= 0 || c->w > 1 << 14 ||
        c->h > 1 << 14 || (c->pixfmt == V4L2_PIX_FMT_YUYV && (c->w & 1))) {
        rc = CAP_EFORMAT;
        goto fail;
    }
    size_t bpp = c->pixfmt == V4L2_PIX_FMT_YUYV ? 2 : 3;
    if (c->stride < (size_t)c->w * bpp)
        c->stride = (size_t)c->w * bpp;

    /* Frame rate: best effort (many drivers have no S_PARM). */
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    s->info.fps = 0;
    if (xioctl(c->fd, VIDIOC_G_PARM, &parm) == 0 &&
        (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) {
        parm.parm.capture.timeperframe.numerator = 1000;
        parm.parm.capture.timeperframe.denominator = (uint32_t)(o->fps * 1000 + 0.5);
        if (xioctl(c->fd, VIDIOC_S_PARM, &parm) == 0 &&
            parm.parm.capture.timeperframe.numerator > 0)
            s->info.fps = (double)parm.parm.capture.timeperframe.denominator /
                          parm.parm.capture.timeperframe.numerator;
    }

    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = (uint32_t)o->nbuffers;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(c->fd, VIDIOC_REQBUFS, &req) < 0) {
        rc = errno == EINVAL ? CAP_ENOTCAP : CAP_EDEVICE; /* EINVAL: no mmap I/O */
        goto fail;
    }
    if (req.count < 2) {
        rc = CAP_EBUFFERS;
        goto fail;
    }
    int nb = req.count > CAP_MAX_BUFFERS ? CAP_MAX_BUFFERS : (int)req.count;
    for (int i = 0; i < nb; i++) {
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = (uint32_t)i;
        if (xioctl(c->fd, VIDIOC_QUERYBUF, &b) < 0) {
            rc = CAP_EDEVICE;
            goto fail;
        }
        void *p = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
                            b.m.offset);
        if (p == MAP_FAILED) {
            rc = CAP_EMMAP;
            goto fail;
        }
        c->buf[i].start = p;
        c->buf[i].len = b.length;
        c->nbuf = i + 1;
    }
    for (int i = 0; i < c->nbuf; i++) {
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = (uint32_t)i;
        if (xioctl(c->fd, VIDIOC_QBUF, &b) < 0) {
            rc = CAP_EDEVICE;
            goto fail;
        }
    }
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(c->fd, VIDIOC_STREAMON, &type) < 0) {
        rc = CAP_EDEVICE;
        goto fail;
    }
    c->streaming = 1;
    c->frames = 0;
    c->have_last_seq = 0;
    c->eio_run = 0;
    c->timeout_run = 0;
    c->lost_pending = 0;
    s->info.width = c->w;
    s->info.height = c->h;
    s->info.reduce = c->pixfmt == V4L2_PIX_FMT_MJPEG || c->pixfmt == V4L2_PIX_FMT_JPEG
                         ? cap_pick_reduce(c->w, c->h, s->opt.min_w, s->opt.min_h) : 1;
    s->info.pixfmt = c->pixfmt;
    s->info.nbuffers = c->nbuf;
    s->info.locked = 0;
    return CAP_OK;
fail:
    cam_release(c);
    return rc;
}

/* The camera is gone: release it and plan the first reopen. */
static int cam_lost(cap_source_t *s)
{
    cap_cam_t *c = s->cam;
    cam_release(c);
    c->gone = 1;
    s->info.gone = 1;
    c->backoff_ms = s->opt.reopen_min_ms;
    c->next_try = cap_now() + c->backoff_ms / 1000.0;
    return CAP_EGONE;
}

/* No frame within the timeout; too many in a row: the camera has stalled, reopen it. */
static int cam_timeout(cap_source_t *s)
{
    if (s->opt.timeout_gone > 0 && ++s->cam->timeout_run >= s->opt.timeout_gone)
        return cam_lost(s);
    return CAP_ETIMEOUT;
}

/* Fix exposure, white balance and focus at their current (settled) values where the
 * camera has the automatic control; returns the CAP_LOCK_* bits that took. */
static int lock_controls(int fd)
{
    static const struct {
        uint32_t autoid, valueid;
        int32_t manual;
        int bit;
    } ctl[3] = {
        { V4L2_CID_EXPOSURE_AUTO, V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_EXPOSURE_MANUAL,
          CAP_LOCK_EXPOSURE },
        { V4L2_CID_AUTO_WHITE_BALANCE, V4L2_CID_WHITE_BALANCE_TEMPERATURE, 0,
          CAP_LOCK_WHITE_BALANCE },
        { V4L2_CID_FOCUS_AUTO, V4L2_CID_FOCUS_ABSOLUTE, 0, CAP_LOCK_FOCUS },
    };
    int bits = 0;
    for (int i = 0; i < 3; i++) {
        struct v4l2_queryctrl q;
        memset(&q, 0, sizeof q);
        q.id = ctl[i].autoid;
        if (xioctl(fd, VIDIOC_QUERYCTRL, &q) < 0 || (q.flags & V4L2_CTRL_FLAG_DISABLED))
            continue;
        struct v4l2_control value = { .id = ctl[i].valueid, .value = 0 };
        int have_value = xioctl(fd, VIDIOC_G_CTRL, &value) == 0;
        struct v4l2_control manual = { .id = ctl[i].autoid, .value = ctl[i].manual };
        if (xioctl(fd, VIDIOC_S_CTRL, &manual) < 0)
            continue;
        if (have_value)
            xioctl(fd, VIDIOC_S_CTRL, &value); /* keep what auto had settled on */
        bits |= ctl[i].bit;
    }
    return bits;
}

static int requeue(cap_cam_t *c, struct v4l2_buffer *b)
{
    return xioctl(c->fd, VIDIOC_QBUF, b);
}

/* A whole JPEG: starts with SOI and has an EOI near its end (cameras may pad after it).
 * Truncated MJPEG frames happen (USB bandwidth) and would decode as a grey lower part. */
static int jpeg_complete(const uint8_t *p, size_t n)
{
    if (n < 4 || p[0] != 0xFF || p[1] != 0xD8)
        return 0;
    size_t stop = n > 4096 ? n - 4096 : 2;
    for (size_t i = n - 1; i > stop; i--)
        if (p[i - 1] == 0xFF && p[i] == 0xD9)
            return 1;
    return 0;
}

static int convert(cap_source_t *s, const struct v4l2_buffer *b)
{
    cap_cam_t *c = s->cam;
    const uint8_t *p = c->buf[b->index].start;
    size_t len = c->buf[b->index].len;
    size_t used = b->bytesused && b->bytesused <= len ? b->bytesused : len;
    int rc;
    switch (c->pixfmt) {
    case V4L2_PIX_FMT_YUYV:
        if (c->stride * (size_t)c->h > len)
            return CAP_EDECODE;
        rc = cvb_yuyv_to_bgr(p, c->stride, c->w, c->h, &s->img);
        break;
    case V4L2_PIX_FMT_MJPEG:
    case V4L2_PIX_FMT_JPEG:
        if (!jpeg_complete(p, used))
            return CAP_EDECODE;
        /* the image-size guard: a frame whose header claims more than CAP_MAX_PIXELS is
         * never decoded */
        if (cap_image_size_mem(p, used, NULL, NULL, NULL, 0) == CAP_ETOOBIG)
            return CAP_EDECODE;
        /* libjpeg-turbo straight to BGR (cap_jpeg.c); OpenCV where it declines */
        rc = cap_jpeg_decode(p, used, s->info.reduce, &s->img);
        if (rc == CAP_EFORMAT)
            rc = s->info.reduce > 1 ? cvb_imdecode_reduced_into(p, used, s->info.reduce, &s->img)
                                    : cvb_imdecode_into(p, used, &s->img);
        else
            rc = rc == CAP_OK ? CVB_OK : rc == CAP_ENOMEM ? CVB_ENOMEM : CVB_EREAD;
        break;
    default: /* BGR24 */
        if (c->stride * (size_t)c->h > len)
            return CAP_EDECODE;
        if (!s->img.data || s->img.w != c->w || s->img.h != c->h || s->img.channels != 3) {
            cvb_image_free(&s->img);
            rc = cvb_image_alloc(&s->img, c->w, c->h, 3);
            if (rc)
                return rc == CVB_ENOMEM ? CAP_ENOMEM : CAP_EDECODE;
        }
        for (int y = 0; y < c->h; y++)
            memcpy(s->img.data + (size_t)y * s->img.stride, p + (size_t)y * c->stride,
                   (size_t)c->w * 3);
        rc = CVB_OK;
    }
    if (rc == CVB_ENOMEM)
        return CAP_ENOMEM;
    return rc ? CAP_EDECODE : CAP_OK;
}

/* Reopen a lost camera when its back-off has run out: CAP_OK once it streams again. */
static int cam_reopen(cap_source_t *s)
{
    cap_cam_t *c = s->cam;
    double wait = c->next_try - cap_now();
    if (wait > 0) {
        double cap = s->opt.timeout_ms / 1000.0;
        if (cap_sleep(s, wait < cap ? wait : cap))
            return CAP_ESTOPPED;
        if (cap_now() < c->next_try)
            return CAP_EGONE;
    }
    if (cam_setup(s) != CAP_OK) {
        c->backoff_ms = c->backoff_ms * 2 > s->opt.reopen_max_ms ? s->opt.reopen_max_ms
                                                                 : c->backoff_ms * 2;
        if (c->backoff_ms < 1)
            c->backoff_ms = 1;
        c->next_try = cap_now() + c->backoff_ms / 1000.0;
        return CAP_EGONE;
    }
    c->gone = 0;
    s->info.gone = 0;
    s->info.reopens++;
    return CAP_OK;
}

int cap_cam_next(cap_source_t *s, cap_frame_t *f)
{
    cap_cam_t *c = s->cam;
    if (s->stop)
        return CAP_ESTOPPED;
    if (c->lost_pending)
        return cam_lost(s);
    if (c->gone) {
        int rc = cam_reopen(s);
        if (rc)
            return rc;
    }
    double deadline = cap_now() + s->opt.timeout_ms / 1000.0;
    for (;;) {
        if (s->stop)
            return CAP_ESTOPPED;
        double left = deadline - cap_now();
        int ms = left > 0 ? (int)(left * 1000 + 0.999) : 0;
        struct pollfd pfd = { .fd = c->fd, .events = POLLIN, .revents = 0 };
        int r = poll(&pfd, 1, ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return cam_lost(s);
        }
        if (r == 0)
            return cam_timeout(s);
        if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
            return cam_lost(s);

        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        if (xioctl(c->fd, VIDIOC_DQBUF, &b) < 0) {
            if (errno == EAGAIN) {
                if (ms == 0)
                    return cam_timeout(s);
                continue;
            }
            if (errno == EIO) {
                if (++c->eio_run >= s->opt.eio_gone)
                    return cam_lost(s);
                return CAP_EIO;
            }
            return cam_lost(s); /* ENODEV and anything else: the device is gone */
        }
        if (b.index >= (uint32_t)c->nbuf)
            return cam_lost(s); /* a driver we cannot trust any more: start afresh */

        /* Newest frame only: drain what else is ready, requeueing the older buffers. */
        uint32_t discarded = 0;
        for (;;) {
            struct v4l2_buffer nb;
            memset(&nb, 0, sizeof nb);
            nb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            nb.memory = V4L2_MEMORY_MMAP;
            if (xioctl(c->fd, VIDIOC_DQBUF, &nb) < 0 || nb.index >= (uint32_t)c->nbuf)
                break;
            requeue(c, &b);
            b = nb;
            discarded++;
        }
        c->eio_run = 0;
        c->timeout_run = 0;
        if (b.flags & V4L2_BUF_FLAG_ERROR) {
            c->pending_drop += discarded + 1;
            if (requeue(c, &b) < 0)
                return cam_lost(s);
            continue;
        }
        int rc = convert(s, &b);
        if (requeue(c, &b) < 0)
            c->lost_pending = 1;
        if (rc) {
            c->pending_drop += discarded + 1;
            if (c->lost_pending)
                return cam_lost(s);
            return rc;
        }

        uint32_t dropped = discarded + c->pending_drop;
        if (c->have_last_seq && b.sequence > c->last_seq &&
            b.sequence - c->last_seq - 1 > dropped && b.sequence - c->last_seq < 1000000u)
            dropped = b.sequence - c->last_seq - 1;
        c->have_last_seq = 1;
        c->last_seq = b.sequence;
        c->pending_drop = 0;

        double t;
        if ((b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC &&
            (b.timestamp.tv_sec || b.timestamp.tv_usec))
            t = (double)b.timestamp.tv_sec + b.timestamp.tv_usec / 1e6 - s->t0;
        else
            t = cap_now() - s->t0;
        if (t < c->last_t)
            t = c->last_t;
        c->last_t = t;

        c->frames++;
        if (s->opt.settle_frames > 0 && c->frames == (uint64_t)s->opt.settle_frames)
            s->info.locked = lock_controls(c->fd);

        s->info.dropped += dropped;
        f->img = s->img;
        f->seq = s->seq++;
        f->index = f->seq;
        f->t = t;
        f->dropped = dropped;
        return CAP_OK;
    }
}

int cap_cam_open(cap_source_t *s, const char *path)
{
    cap_cam_t *c = calloc(1, sizeof *c);
    if (!c)
        return CAP_ENOMEM;
    c->path = strdup(path);
    if (!c->path) {
        free(c);
        return CAP_ENOMEM;
    }
    c->fd = -1;
    s->cam = c;
    int rc = cam_setup(s);
    if (rc) {
        free(c->path);
        free(c);
        s->cam = NULL;
    }
    return rc;
}

void cap_cam_close(cap_source_t *s)
{
    if (!s || !s->cam)
        return;
    cam_release(s->cam);
    free(s->cam->path);
    free(s->cam);
    s->cam = NULL;
}
