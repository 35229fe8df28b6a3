/* cap_devices.c: enumerate V4L2 capture devices and what they offer (cap_devices.h).
 * Invariant: every device opened here is closed before returning; nothing is streamed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "capture/cap_devices.h"
#include "capture/cap_source.h"

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = v4l2_ioctl(fd, req, arg);
    while (r == -1 && errno == EINTR);
    return r;
}

static void copy_str(char *dst, size_t cap, const uint8_t *src, size_t srclen)
{
    size_t n = strnlen((const char *)src, srclen);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int cmp_fps_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static void query_rates(int fd, uint32_t fmt, cap_dev_size_t *sz)
{
    for (uint32_t i = 0; sz->nrates < CAP_DEV_MAX_RATES && i < 64; i++) {
        struct v4l2_frmivalenum fi;
        memset(&fi, 0, sizeof fi);
        fi.index = i;
        fi.pixel_format = fmt;
        fi.width = sz->w;
        fi.height = sz->h;
        if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) < 0)
            break;
        if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
            if (fi.discrete.numerator)
                sz->fps[sz->nrates++] = (double)fi.discrete.denominator /
                                        fi.discrete.numerator;
            continue;
        }
        if (fi.stepwise.min.numerator)
            sz->fps[sz->nrates++] = (double)fi.stepwise.min.denominator /
                                    fi.stepwise.min.numerator;
        if (fi.stepwise.max.numerator && sz->nrates < CAP_DEV_MAX_RATES)
            sz->fps[sz->nrates++] = (double)fi.stepwise.max.denominator /
                                    fi.stepwise.max.numerator;
        break;
    }
    qsort(sz->fps, (size_t)sz->nrates, sizeof sz->fps[0], cmp_fps_desc);
}

static void query_sizes(int fd, cap_dev_format_t *f)
{
    for (uint32_t i = 0; f->nsizes < CAP_DEV_MAX_SIZES && i < 256; i++) {
        struct v4l2_frmsizeenum fs;
        memset(&fs, 0, sizeof fs);
        fs.index = i;
        fs.pixel_format = f->fourcc;
        if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
            break;
        cap_dev_size_t *sz = &f->sizes[f->nsizes++];
        memset(sz, 0, sizeof *sz);
        if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
            sz->w = fs.discrete.width;
            sz->h = fs.discrete.height;
        } else {
            sz->stepwise = 1;
            sz->w = fs.stepwise.max_width;
            sz->h = fs.stepwise.max_height;
            sz->min_w = fs.stepwise.min_width;
            sz->min_h = fs.stepwise.min_height;
        }
        query_rates(fd, f->fourcc, sz);
        if (sz->stepwise)
            break;
    }
}

int cap_device_query(const char *path, cap_device_t *dev)
{
    if (!path || !dev)
        return CAP_EINVAL;
    int fd = v4l2_open(path, O_RDWR | O_NONBLOCK, 0);
    if (fd < 0) {
        int e = errno;
        if (e == ENOTTY || e == EINVAL)
            return CAP_ENOTCAP; /* opened, but libv4l2 found no V4L2 device there */
        memset(dev, 0, sizeof *dev);
        snprintf(dev->path, sizeof dev->path, "%s", path);
        dev->status = CAP_EOPEN;
        dev->sys_errno = e;
        return CAP_EOPEN;
    }
    cap_device_t *d = calloc(1, sizeof *d);
    if (!d) {
        v4l2_close(fd);
        return CAP_ENOMEM;
    }
    int rc = CAP_OK;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
        rc = CAP_ENOTCAP;
        goto out;
    }
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
                                                               : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
        rc = CAP_ENOTCAP;
        goto out;
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    copy_str(d->card, sizeof d->card, cap.card, sizeof cap.card);
    copy_str(d->driver, sizeof d->driver, cap.driver, sizeof cap.driver);
    copy_str(d->bus, sizeof d->bus, cap.bus_info, sizeof cap.bus_info);
    for (uint32_t i = 0; d->nformats < CAP_DEV_MAX_FORMATS && i < 64; i++) {
        struct v4l2_fmtdesc fd_;
        memset(&fd_, 0, sizeof fd_);
        fd_.index = i;
        fd_.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(fd, VIDIOC_ENUM_FMT, &fd_) < 0)
            break;
        cap_dev_format_t *f = &d->formats[d->nformats++];
        f->fourcc = fd_.pixelformat;
        f->emulated = (fd_.flags & V4L2_FMT_FLAG_EMULATED) != 0;
        copy_str(f->desc, sizeof f->desc, fd_.description, sizeof fd_.description);
        query_sizes(fd, f);
    }
    *dev = *d;
out:
    free(d);
    v4l2_close(fd);
    return rc;
}

static int video_number(const char *name)
{
    if (strncmp(name, "video", 5) != 0 || !name[5])
        return -1;
    int n = 0;
    for (const char *p = name + 5; *p; p++) {
        if (*p < '0' || *p > '9' || n > 100000)
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int cap_devices_list(const char *dir, cap_device_t **out, int *count)
{
    if (!out || !count)
        return CAP_EINVAL;
    if (!dir)
        dir = "/dev";
    int nums[256] = { 0 };
    int n = 0;
    DIR *dd = opendir(dir);
    if (dd) {
        struct dirent *e;
        while ((e = readdir(dd)) != NULL && n < 256) {
            int k = video_number(e->d_name);
            if (k >= 0)
                nums[n++] = k;
        }
        closedir(dd);
    }
    qsort(nums, (size_t)n, sizeof nums[0], cmp_int);
    cap_device_t *list = NULL;
    int found = 0;
    for (int i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "%.40s/video%d", dir, nums[i]);
        cap_device_t *bigger = realloc(list, (size_t)(found + 1) * sizeof *list);
        if (!bigger) {
            free(list);
            return CAP_ENOMEM;
        }
        list = bigger;
        int rc = cap_device_query(path, &list[found]);
        if (rc == CAP_OK || rc == CAP_EOPEN)
            found++;
    }
    if (!found) {
        free(list);
        list = NULL;
    }
    *out = list;
    *count = found;
    return CAP_OK;
}
