/* cap_devices.h: what V4L2 cameras are attached: their names, pixel formats, frame sizes
 * and frame rates (QUERYCAP, ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS through
 * libv4l2). Lists are bounded (CAP_DEV_MAX_*): what lies beyond is left out, never an
 * error. Only /dev/videoN nodes that can capture video are listed (metadata nodes are
 * skipped). */
#ifndef KIFUCAM_CAP_DEVICES_H
#define KIFUCAM_CAP_DEVICES_H

#include <stdint.h>

#define CAP_DEV_MAX_FORMATS 16
#define CAP_DEV_MAX_SIZES 32
#define CAP_DEV_MAX_RATES 16

typedef struct cap_dev_size {
    int stepwise;                 /* 0: discrete w x h; 1: any size in [min, max] */
    uint32_t w, h;                /* discrete size, or the largest of a range */
    uint32_t min_w, min_h;        /* ranges only */
    int nrates;
    double fps[CAP_DEV_MAX_RATES]; /* discrete rates, highest first; a range gives 2:
                                      max and min */
} cap_dev_size_t;

typedef struct cap_dev_format {
    uint32_t fourcc;
    char desc[32];
    int emulated;                 /* 1: converted by libv4l2, not given by the camera */
    int nsizes;
    cap_dev_size_t sizes[CAP_DEV_MAX_SIZES];
} cap_dev_format_t;

typedef struct cap_device {
    char path[64];                /* /dev/videoN */
    int status;                   /* CAP_OK, or CAP_EOPEN: the node exists but cannot be
                                     opened (permissions, busy); only path and sys_errno
                                     are then meaningful */
    int sys_errno;                /* errno of the failed open */
    char card[32];                /* QUERYCAP card: the camera's name */
    char driver[16];
    char bus[32];
    int nformats;
    cap_dev_format_t formats[CAP_DEV_MAX_FORMATS];
} cap_device_t;

/* Describe the capture device at `path` into *dev (written on success, and on CAP_EOPEN
 * with only path, status and sys_errno). CAP_EOPEN when it cannot be opened, CAP_ENOTCAP
 * when it cannot capture video (*dev untouched). */
int cap_device_query(const char *path, cap_device_t *dev);

/* List the capture devices among `dir`/video* (dir NULL: "/dev"), sorted by number,
 * including the nodes that cannot be opened (status CAP_EOPEN) and leaving out those that
 * cannot capture video. *out (caller frees with free(); NULL when none) and *count are
 * written on success; none attached is a success with *count == 0. */
int cap_devices_list(const char *dir, cap_device_t **out, int *count);

#endif
