/* fake_v4l2.h: a scripted fake camera behind the wrapped libv4l2 calls and poll
 * (link with -Wl,--wrap=v4l2_open,--wrap=v4l2_ioctl,--wrap=v4l2_mmap,--wrap=v4l2_munmap,
 * --wrap=v4l2_close,--wrap=poll). Used by the capture tests and the capture benchmark;
 * plain C (no cmocka): protocol violations are counted in fake.bad, never aborted on.
 *
 * Each poll() consumes one script event; an exhausted script answers "timeout" (or, with
 * realtime_fps set, sleeps to the next frame time and captures one frame, forever).
 * Buffers move idle -> queued (QBUF) -> ready (a frame captured) -> dequeued (DQBUF);
 * a frame captured while no buffer is queued is dropped by the "driver" (its sequence
 * number is used up, as real drivers do). */
#ifndef KIFUCAM_FAKE_V4L2_H
#define KIFUCAM_FAKE_V4L2_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_MAX_BUFS 32
#define FAKE_MAX_MODES 8

typedef enum {
    FK_FRAMES,  /* n frames are captured, poll says POLLIN */
    FK_TIMEOUT, /* poll returns 0 */
    FK_EINTR,   /* poll fails with EINTR */
    FK_EAGAIN,  /* poll says POLLIN but nothing is ready (DQBUF: EAGAIN) */
    FK_EIO,     /* poll says POLLIN, the next DQBUF fails with EIO */
    FK_UNPLUG,  /* unplugged: poll says POLLIN, ioctls fail ENODEV; n failed opens */
    FK_POLLERR, /* unplugged: poll says POLLERR; n failed opens before it is back */
    FK_STOP     /* cap_source_stop(fake.stop_target), then EINTR */
} fk_kind_t;

typedef struct fk_event {
    fk_kind_t kind;
    int n;
} fk_event_t;

typedef struct fake_mode {
    uint32_t fourcc;
    int w, h;
    double fps;
} fake_mode_t;

/* Fill a captured frame: buf (len bytes) gets frame number seq of the current format
 * w x h; *bytesused is preset to the whole image size. */
typedef void (*fake_fill_fn)(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h,
                             uint32_t seq, uint32_t *bytesused);

typedef struct fake_cam {
    /* configuration (fake_reset gives: present, capture+streaming, YUYV 1280x720 and
       1920x1080 at 30 fps, 4 buffers, S_PARM, no controls, no mmap failure) */
    int present;
    uint32_t caps;
    fake_mode_t modes[FAKE_MAX_MODES];
    int nmodes;
    uint32_t emulated;          /* a fourcc libv4l2 would list as emulated (0: none) */
    int force_w, force_h;       /* S_FMT answers this size whatever is asked */
    uint32_t grant;             /* buffers REQBUFS grants (at most what is asked) */
    int mmap_fail_at;           /* the mmap call (0-based, per open) that fails; -1 none */
    int has_parm;
    int controls;               /* exposure/white balance/focus auto controls exist */
    fake_fill_fn fill;
    double realtime_fps;        /* >0: endless real-time frames once the script is done */
    void *stop_target;          /* the cap_source_t that FK_STOP stops */
    fk_event_t script[64];
    int nscript, pos;

    /* counters and state */
    int fd;                     /* the open fd, -1 when closed */
    int open_calls, opens, closes, mmaps, munmaps, live_maps, streamons, streamoffs;
    int polls, dqbuf_eagain, qbufs, bad;
    int unplugged, absent_opens, eio_next;
    uint32_t fourcc;
    int w, h;
    size_t bytesperline, sizeimage;
    uint32_t nbufs;
    uint8_t *mem[FAKE_MAX_BUFS];
    int state[FAKE_MAX_BUFS];   /* 0 idle, 1 queued, 2 ready, 3 dequeued */
    uint32_t bseq[FAKE_MAX_BUFS], bused[FAKE_MAX_BUFS];
    int queued[FAKE_MAX_BUFS], nqueued;  /* FIFO of buffer indices */
    int ready[FAKE_MAX_BUFS], nready;
    int streaming;
    uint32_t seq;               /* next frame's sequence number */
    int driver_drops;
    int mmap_in_open;
    struct {
        uint32_t id;
        int32_t value;
    } sets[32];
    int nsets;                  /* S_CTRL calls made */
    uint32_t parm_den, parm_num;
    double rt_start;            /* realtime_fps: monotonic seconds of the first tick */
    uint64_t rt_ticks;          /* realtime_fps: frames captured in real time */
} fake_cam_t;

extern fake_cam_t fake;

/* Reset the fake to its default camera, freeing any buffer still mapped. */
void fake_reset(void);
/* Append a script event. */
void fake_script(fk_kind_t kind, int n);
/* The default fill: YUYV with Y = fake_level(seq) on the left half, pure red (Y 81,
 * U 90, V 240) on the right; BGR24 the same colours; MJPEG left to the test's fill. */
void fake_fill_default(uint8_t *buf, size_t len, uint32_t fourcc, int w, int h,
                       uint32_t seq, uint32_t *bytesused);
/* The luma the default fill gives frame seq: 16 + (seq * 23) % 220. */
int fake_level(uint32_t seq);

#endif
