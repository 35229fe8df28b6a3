/* cap_internal.h: what the capture sources share inside capture/ (not a public header).
 * Invariant: s->img is owned by the source and is the pixels of the last frame handed out
 * (or empty); each kind's functions touch only their own part of the struct. */
#ifndef KIFUCAM_CAP_INTERNAL_H
#define KIFUCAM_CAP_INTERNAL_H

#include <signal.h>
#include <time.h>

#include "capture/cap_source.h"

typedef struct cap_cam cap_cam_t;
typedef struct cap_files cap_files_t;

struct cap_source {
    cap_kind_t kind;
    cap_options_t opt;
    volatile sig_atomic_t stop; /* set by cap_source_stop */
    cap_info_t info;
    uint64_t seq;               /* next sequence number */
    double t0;                  /* monotonic seconds at open */
    cvb_image_t img;            /* BGR pixels of the last frame (owned) */
    cap_cam_t *cam;             /* CAP_KIND_CAMERA */
    cap_files_t *files;         /* the other kinds */
    char why[384];              /* cap_source_why: the last file frame's failure, or "" */
};

/* Monotonic clock in seconds. */
double cap_now(void);
/* Sleep up to `sec` seconds; returns early (nonzero) when the source is asked to stop. */
int cap_sleep(cap_source_t *s, double sec);

/* The largest divisor (1, 2, 4, 8) keeping a w x h frame at least min_w x min_h (longer x
 * shorter side); 1 when no minimum is set. */
int cap_pick_reduce(int w, int h, int min_w, int min_h);

/* Camera part (cap_v4l2.c): open the device and start streaming; next frame; release. */
int cap_cam_open(cap_source_t *s, const char *path);
int cap_cam_next(cap_source_t *s, cap_frame_t *f);
void cap_cam_close(cap_source_t *s);

#endif
