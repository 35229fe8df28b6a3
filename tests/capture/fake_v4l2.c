/* fake_v4l2.c: the scripted fake camera (fake_v4l2.h): __wrap_ versions of libv4l2's
 * open/ioctl/mmap/munmap/close and of poll. Invariant: every buffer handed out by the
 * fake mmap is in mem[] until the matching munmap (live_maps counts them). */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/videodev2.h>

#include "capture/cap_source.h"
#include "fake_v4l2.h"

fake_cam_t fake;

int __wrap_v4l2_open(const char *file, int oflag, ...);
int __wrap_v4l2_close(int fd);
int __wrap_v4l2_ioctl(int fd, unsigned long int request, ...);
void *__wrap_v4l2_mmap(void *start, size_t length, int prot, int flags, int fd,
                       int64_t offset);
int __wrap_v4l2_munmap(void *start, size_t length);
int __wrap_poll(struct pollfd *fds, nfds_t nfds, int timeout);

int fake_level(uint32_t seq)
{
    return 16 + (int)((seq * 23u) % 220u);
}

void fake_reset(void)
{
    for (int i = 0; i < FAKE_MAX_BUFS; i++)
        free(fake.mem[i]);
    memset(&fake, 0, sizeof fake);
    fake.present = 1;
    fake.caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
    fake.modes[0] = (fake_mode_t){ V4L2_PIX_FMT_YUYV, 1280, 720, 30 };
    fake.modes[1] = (fake_mode_t){ V4L2_PIX_FMT_YUYV, 1920, 1080, 30 };
    fake.nmodes = 2;
    fake.grant = 4;
    fake.mmap_fail_at = -1;
    fake.has_parm = 1;
    fake.fill = fake_fill_default;
    fake.fd = -1;
}

void fake_script(fk_kind_t kind, int n)
{
    if (fake.nscript < (int)(sizeof fake.script / sizeof fake.script[0]))
        fake.script[fake.nscript++] = (fk_event_t){ kind, n };
    else
        fake.bad++;
}

void fake_fill_default(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h,
                       uint32_t seq, uint32_t *bytesused)
{
    int y0 = fake_level(seq);
    if (fourcc == V4L2_PIX_FMT_YUYV) {
        if ((size_t)w * (size_t)h * 2 > len)
            return;
        for (int y = 0; y < h; y++) {
            uint8_t *row = buf + (size_t)y * (size_t)w * 2;
            for (int x = 0; x < w; x += 2) {
                uint8_t *p = row + (size_t)x * 2;
                if (x < w / 2) {
                    p[0] = (uint8_t)y0, p[1] = 128, p[2] = (uint8_t)y0, p[3] = 128;
                } else {
                    p[0] = 81, p[1] = 90, p[2] = 81, p[3] = 240;
                }
            }
        }
    } else if (fourcc == V4L2_PIX_FMT_BGR24) {
        if ((size_t)w * (size_t)h * 3 > len)
            return;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint8_t *p = buf + ((size_t)y * (size_t)w + (size_t)x) * 3;
                if (x < w / 2)
                    p[0] = p[1] = p[2] = (uint8_t)y0;
                else
                    p[0] = 0, p[1] = 0, p[2] = 255;
            }
    }
    (void)bytesused;
}

static int fail(int err)
{
    errno = err;
    return -1;
}

static const fake_mode_t *find_mode(uint32_t fourcc, int w, int h)
{
    for (int i = 0; i < fake.nmodes; i++)
        if (fake.modes[i].fourcc == fourcc && fake.modes[i].w == w && fake.modes[i].h == h)
            return &fake.modes[i];
    return NULL;
}

int __wrap_v4l2_open(const char *file, int oflag, ...)
{
    (void)file;
    (void)oflag;
    fake.open_calls++;
    if (fake.fd >= 0)
        fake.bad++; /* opened twice without a close */
    if (!fake.present)
        return fail(ENOENT);
    if (fake.unplugged) {
        if (fake.absent_opens > 0) {
            fake.absent_opens--;
            return fail(ENOENT);
        }
        fake.unplugged = 0; /* plugged back in */
    }
    fake.opens++;
    fake.fd = 40 + fake.opens;
    fake.mmap_in_open = 0;
    fake.nbufs = 0;
    fake.streaming = 0;
    fake.nqueued = fake.nready = 0;
    return fake.fd;
}

int __wrap_v4l2_close(int fd)
{
    if (fd != fake.fd || fd < 0) {
        fake.bad++;
        return fail(EBADF);
    }
    fake.closes++;
    fake.fd = -1;
    fake.streaming = 0;
    return 0;
}

void *__wrap_v4l2_mmap(void *start, size_t length, int prot, int flags, int fd,
                       int64_t offset)
{
    (void)start;
    (void)prot;
    (void)flags;
    uint32_t i = (uint32_t)(offset >> 20);
    if (fd != fake.fd || i >= fake.nbufs || fake.mem[i] || length != fake.sizeimage) {
        fake.bad++;
        errno = EINVAL;
        return MAP_FAILED;
    }
    if (fake.mmap_in_open++ == fake.mmap_fail_at) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    fake.mem[i] = calloc(1, length);
    if (!fake.mem[i]) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    fake.mmaps++;
    fake.live_maps++;
    return fake.mem[i];
}

int __wrap_v4l2_munmap(void *start, size_t length)
{
    for (int i = 0; i < FAKE_MAX_BUFS; i++)
        if (fake.mem[i] && fake.mem[i] == start) {
            if (length != fake.sizeimage)
                fake.bad++;
            free(fake.mem[i]);
            fake.mem[i] = NULL;
            fake.munmaps++;
            fake.live_maps--;
            return 0;
        }
    fake.bad++;
    return fail(EINVAL);
}

/* The driver captures one frame into the oldest queued buffer (or drops it). */
static void capture_one(void)
{
    uint32_t seq = fake.seq++;
    if (!fake.streaming || fake.nqueued == 0) {
        fake.driver_drops++;
        return;
    }
    int i = fake.queued[0];
    memmove(fake.queued, fake.queued + 1, (size_t)(--fake.nqueued) * sizeof fake.queued[0]);
    fake.bused[i] = (uint32_t)fake.sizeimage;
    if (fake.fill && fake.mem[i])
        fake.fill(fake.mem[i], fake.sizeimage, fake.fourcc, fake.w, fake.h, seq,
                  &fake.bused[i]);
    fake.bseq[i] = seq;
    fake.state[i] = 2;
    fake.ready[fake.nready++] = i;
}

static void set_format(uint32_t fourcc, int w, int h)
{
    int ok = 0;
    for (int i = 0; i < fake.nmodes; i++)
        ok |= fake.modes[i].fourcc == fourcc;
    if (!ok && fourcc != fake.emulated)
        fourcc = fake.modes[0].fourcc;
    if (fake.force_w) {
        w = fake.force_w;
        h = fake.force_h;
    } else if (!find_mode(fourcc, w, h) && fourcc != fake.emulated) {
        for (int i = 0; i < fake.nmodes; i++)
            if (fake.modes[i].fourcc == fourcc) {
                w = fake.modes[i].w;
                h = fake.modes[i].h;
                break;
            }
    }
    fake.fourcc = fourcc;
    fake.w = w;
    fake.h = h;
    fake.bytesperline = fourcc == V4L2_PIX_FMT_BGR24 ? (size_t)w * 3
                        : fourcc == V4L2_PIX_FMT_YUYV ? (size_t)w * 2 : 0;
    fake.sizeimage = (size_t)w * (size_t)h * (fourcc == V4L2_PIX_FMT_BGR24 ? 3 : 2);
}

static int do_ioctl(unsigned long req, void *arg)
{
    switch (req) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *c = arg;
        memset(c, 0, sizeof *c);
        strcpy((char *)c->driver, "fakecam");
        strcpy((char *)c->card, "Fake Camera 1080p");
        strcpy((char *)c->bus_info, "usb-0000:00:14.0-1");
        c->capabilities = fake.caps | V4L2_CAP_DEVICE_CAPS;
        c->device_caps = fake.caps;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = arg;
        uint32_t seen[FAKE_MAX_MODES + 1];
        uint32_t n = 0;
        for (int i = 0; i < fake.nmodes; i++) {
            uint32_t k = 0;
            while (k < n && seen[k] != fake.modes[i].fourcc)
                k++;
            if (k == n)
                seen[n++] = fake.modes[i].fourcc;
        }
        if (fake.emulated)
            seen[n++] = fake.emulated;
        if (d->index >= n || d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
            return fail(EINVAL);
        d->pixelformat = seen[d->index];
        d->flags = seen[d->index] == fake.emulated ? V4L2_FMT_FLAG_EMULATED : 0;
        strcpy((char *)d->description, d->pixelformat == V4L2_PIX_FMT_MJPEG ? "Motion-JPEG"
                                                                             : "Fake format");
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *fs = arg;
        uint32_t k = 0;
        for (int i = 0; i < fake.nmodes; i++)
            if (fake.modes[i].fourcc == fs->pixel_format && k++ == fs->index) {
                fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
                fs->discrete.width = (uint32_t)fake.modes[i].w;
                fs->discrete.height = (uint32_t)fake.modes[i].h;
                return 0;
            }
        return fail(EINVAL);
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *fi = arg;
        const fake_mode_t *m = find_mode(fi->pixel_format, (int)fi->width, (int)fi->height);
        if (!m || fi->index != 0)
            return fail(EINVAL);
        fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        fi->discrete.numerator = 1000;
        fi->discrete.denominator = (uint32_t)(m->fps * 1000);
        return 0;
    }
    case VIDIOC_S_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || fake.nbufs)
            return fail(f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ? EINVAL : EBUSY);
        set_format(f->fmt.pix.pixelformat, (int)f->fmt.pix.width, (int)f->fmt.pix.height);
        return do_ioctl(VIDIOC_G_FMT, arg); /* S_FMT answers what was set */
    }
    case VIDIOC_G_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || !fake.fourcc)
            return fail(EINVAL);
        f->fmt.pix.pixelformat = fake.fourcc;
        f->fmt.pix.width = (uint32_t)fake.w;
        f->fmt.pix.height = (uint32_t)fake.h;
        f->fmt.pix.bytesperline = (uint32_t)fake.bytesperline;
        f->fmt.pix.sizeimage = (uint32_t)fake.sizeimage;
        f->fmt.pix.field = V4L2_FIELD_NONE;
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (!fake.has_parm)
            return fail(ENOTTY);
        if (req == VIDIOC_S_PARM) {
            fake.parm_num = p->parm.capture.timeperframe.numerator;
            fake.parm_den = p->parm.capture.timeperframe.denominator;
        }
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = 1;
        p->parm.capture.timeperframe.denominator = 30;
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *r = arg;
        if (r->memory != V4L2_MEMORY_MMAP || r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
            return fail(EINVAL);
        r->count = r->count < fake.grant ? r->count : fake.grant;
        if (r->count > FAKE_MAX_BUFS)
            r->count = FAKE_MAX_BUFS;
        fake.nbufs = r->count;
        for (int i = 0; i < FAKE_MAX_BUFS; i++)
            fake.state[i] = 0;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        if (b->index >= fake.nbufs)
            return fail(EINVAL);
        b->length = (uint32_t)fake.sizeimage;
        b->m.offset = b->index << 20;
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *b = arg;
        if (b->index >= fake.nbufs || !fake.mem[b->index] ||
            (fake.state[b->index] != 0 && fake.state[b->index] != 3)) {
            fake.bad++;
            return fail(EINVAL);
        }
        fake.qbufs++;
        fake.state[b->index] = 1;
        fake.queued[fake.nqueued++] = (int)b->index;
        return 0;
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *b = arg;
        if (fake.eio_next) {
            fake.eio_next = 0;
            return fail(EIO);
        }
        if (fake.nready == 0) {
            fake.dqbuf_eagain++;
            return fail(EAGAIN);
        }
        int i = fake.ready[0];
        memmove(fake.ready, fake.ready + 1, (size_t)(--fake.nready) * sizeof fake.ready[0]);
        fake.state[i] = 3;
        b->index = (uint32_t)i;
        b->bytesused = fake.bused[i];
        b->sequence = fake.bseq[i];
        b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_DONE;
        b->length = (uint32_t)fake.sizeimage;
        return 0;
    }
    case VIDIOC_STREAMON:
        fake.streaming = 1;
        fake.streamons++;
        return 0;
    case VIDIOC_STREAMOFF:
        fake.streaming = 0;
        fake.streamoffs++;
        fake.nqueued = fake.nready = 0;
        for (int i = 0; i < FAKE_MAX_BUFS; i++)
            fake.state[i] = 0;
        return 0;
    case VIDIOC_QUERYCTRL: {
        struct v4l2_queryctrl *q = arg;
        if (fake.controls && (q->id == V4L2_CID_EXPOSURE_AUTO ||
                              q->id == V4L2_CID_AUTO_WHITE_BALANCE ||
                              q->id == V4L2_CID_FOCUS_AUTO)) {
            q->flags = 0;
            return 0;
        }
        return fail(EINVAL);
    }
    case VIDIOC_G_CTRL: {
        struct v4l2_control *c = arg;
        if (!fake.controls)
            return fail(EINVAL);
        switch (c->id) {
        case V4L2_CID_EXPOSURE_ABSOLUTE: c->value = 156; return 0;
        case V4L2_CID_WHITE_BALANCE_TEMPERATURE: c->value = 4600; return 0;
        case V4L2_CID_FOCUS_ABSOLUTE: c->value = 30; return 0;
        default: return fail(EINVAL);
        }
    }
    case VIDIOC_S_CTRL: {
        struct v4l2_control *c = arg;
        if (!fake.controls)
            return fail(EINVAL);
        if (fake.nsets < 32) {
            fake.sets[fake.nsets].id = c->id;
            fake.sets[fake.nsets].value = c->value;
            fake.nsets++;
        }
        return 0;
    }
    default:
        return fail(ENOTTY);
    }
}

int __wrap_v4l2_ioctl(int fd, unsigned long int request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (fd != fake.fd || fd < 0) {
        fake.bad++;
        return fail(EBADF);
    }
    if (fake.unplugged)
        return fail(ENODEV);
    return do_ioctl(request, arg);
}

int __wrap_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    (void)timeout;
    fake.polls++;
    if (nfds != 1 || fds[0].fd != fake.fd || fake.fd < 0) {
        fake.bad++;
        return fail(EINVAL);
    }
    fds[0].revents = 0;
    if (fake.pos >= fake.nscript) {
        if (fake.realtime_fps <= 0)
            return 0;
        /* real time: wait for the next frame tick, then capture it */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)now.tv_sec + now.tv_nsec / 1e9;
        if (fake.rt_ticks == 0)
            fake.rt_start = el;
        el -= fake.rt_start;
        double due = (double)fake.rt_ticks / fake.realtime_fps;
        if (due > el) {
            double w = due - el;
            struct timespec ts = { (time_t)w, (long)((w - (double)(time_t)w) * 1e9) };
            nanosleep(&ts, NULL);
        }
        fake.rt_ticks++;
        capture_one();
        fds[0].revents = POLLIN;
        return 1;
    }
    fk_event_t ev = fake.script[fake.pos++];
    switch (ev.kind) {
    case FK_FRAMES:
        for (int i = 0; i < ev.n; i++)
            capture_one();
        fds[0].revents = POLLIN;
        return 1;
    case FK_TIMEOUT:
        return 0;
    case FK_EINTR:
        return fail(EINTR);
    case FK_EAGAIN:
        fds[0].revents = POLLIN;
        return 1;
    case FK_EIO:
        fake.eio_next = 1;
        fds[0].revents = POLLIN;
        return 1;
    case FK_UNPLUG:
        fake.unplugged = 1;
        fake.absent_opens = ev.n;
        fds[0].revents = POLLIN;
        return 1;
    case FK_POLLERR:
        fake.unplugged = 1;
        fake.absent_opens = ev.n;
        fds[0].revents = POLLERR;
        return 1;
    case FK_STOP:
        cap_source_stop(fake.stop_target);
        return fail(EINTR);
    }
    return 0;
}
