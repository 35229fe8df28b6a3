/* cap_source.c: the source interface (open by kind, next, stop, info, close) and the
 * file sources: a video file (cvb_video_*), a folder of images in name order (strcmp of
 * the names, so zero-padded numbering sorts in time order), a single image.
 * Invariants: file frames are timed index / fps, whatever the decoding speed (paced in
 * real time only with opt.realtime); s->img always holds the last frame handed out.
 * Speed (opt.analyse_fps, opt.min_w/min_h): frames passed over are never decoded (a
 * folder's file is not opened, a video's frame is grabbed but not converted); a JPEG
 * folder is decoded at one reduced scale chosen from its first image, so all frames have
 * one size. A folder's own frame rate comes from the truth file kifucam render writes
 * beside its frames (cap_folder_rate); the caller decides whether to use it. */
#include <ctype.h>
#include <math.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/cap_internal.h"
#include "capture/cap_jpeg.h"

struct cap_files {
    char *dir;           /* folder */
    char **names;        /* folder: image names, sorted */
    size_t n, idx;       /* folder: count and next index; video/image: frames read */
    size_t base;         /* the index analyse_fps counts its steps from (a seek's) */
    cvb_video_t *video;  /* video */
    uint32_t skipped;    /* unreadable frames since the last one handed out */
    int jpeg;            /* folder / image: JPEG files (reduced decoding possible) */
    uint8_t *buf;        /* folder: the last JPEG file read (reused) */
    size_t buf_cap;
    double wall0;        /* realtime pacing: monotonic time of the first frame */
};

double cap_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cap_sleep(cap_source_t *s, double sec)
{
    double end = cap_now() + sec;
    while (!s->stop) {
        double left = end - cap_now();
        if (left <= 0)
            return 0;
        if (left > 0.05)
            left = 0.05; /* wake now and then to see a stop request */
        struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
        nanosleep(&ts, NULL);
    }
    return 1;
}

const char *cap_strerror(int code)
{
    switch (code) {
    case CAP_OK: return "success";
    case CAP_EINVAL: return "invalid argument";
    case CAP_ENOMEM: return "out of memory";
    case CAP_EOPEN: return "cannot open the source";
    case CAP_ENOTCAP: return "not a V4L2 video capture device with streaming I/O";
    case CAP_EFORMAT: return "no usable pixel format or size";
    case CAP_EBUFFERS: return "the driver granted fewer than 2 capture buffers";
    case CAP_EMMAP: return "cannot map a capture buffer";
    case CAP_EIO: return "I/O error on a frame";
    case CAP_ETIMEOUT: return "no frame within the timeout";
    case CAP_EGONE: return "the camera is gone (reopening)";
    case CAP_EEOF: return "end of the source";
    case CAP_EDECODE: return "a frame could not be decoded";
    case CAP_ESTOPPED: return "stopped";
    case CAP_EDEVICE: return "the device refused a setup request";
    case CAP_ETOOBIG: return "the image is larger than kifucam decodes (refused before decoding)";
    case CAP_ELOST: return "the input went away during the run";
    default: return "unknown error";
    }
}

void cap_options_defaults(cap_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1920;
    o->height = 1080;
    o->fps = 30;
    o->pixfmt = 0;
    o->nbuffers = 4;
    o->timeout_ms = 2000;
    o->settle_frames = 60;
    o->reopen_min_ms = 250;
    o->reopen_max_ms = 4000;
    o->eio_gone = 5;
    o->timeout_gone = 5;
    o->realtime = 0;
}

char *cap_fourcc_str(uint32_t f, char *buf)
{
    for (int i = 0; i < 4; i++) {
        char ch = (char)((f >> (8 * i)) & 0xff);
        buf[i] = isprint((unsigned char)ch) ? ch : '?';
    }
    buf[4] = '\0';
    return buf;
}

int cap_parse_size(const char *str, int *w, int *h)
{
    if (!str || !w || !h)
        return CAP_EINVAL;
    char *end;
    errno = 0;
    long a = strtol(str, &end, 10);
    if (end == str || (*end != 'x' && *end != 'X') || errno)
        return CAP_EINVAL;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end || errno || a < 1 || b < 1 || a > 16384 || b > 16384 ||
        !isdigit((unsigned char)*str) || !isdigit((unsigned char)*p))
        return CAP_EINVAL;
    *w = (int)a;
    *h = (int)b;
    return CAP_OK;
}

int cap_parse_pixfmt(const char *str, uint32_t *fourcc)
{
    static const struct {
        const char *name;
        uint32_t cc;
    } names[] = {
        { "auto", 0 },
        { "mjpg", 0x47504a4du },  /* 'M','J','P','G' */
        { "mjpeg", 0x47504a4du },
        { "yuyv", 0x56595559u },  /* 'Y','U','Y','V' */
        { "bgr24", 0x33524742u }, /* 'B','G','R','3' */
    };
    if (!str || !fourcc)
        return CAP_EINVAL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(str, names[i].name)) {
            *fourcc = names[i].cc;
            return CAP_OK;
        }
    if (strlen(str) != 4)
        return CAP_EINVAL;
    uint32_t cc = 0;
    for (int i = 0; i < 4; i++) {
        if (!isprint((unsigned char)str[i]))
            return CAP_EINVAL;
        cc |= (uint32_t)(unsigned char)str[i] << (8 * i);
    }
    *fourcc = cc;
    return CAP_OK;
}

static int has_image_ext(const char *name)
{
    static const char *ext[] = { ".png", ".jpg", ".jpeg", ".bmp", ".tif",
                                 ".tiff", ".ppm", ".pgm", ".webp" };
    const char *dot = strrchr(name, '.');
    if (!dot)
        return 0;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (!strcasecmp(dot, ext[i]))
            return 1;
    return 0;
}

static const char *base_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *b = path;
    for (size_t i = 0; i + 1 < n; i++)
        if (path[i] == '/')
            b = path + i + 1;
    return b;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A JPEG file of a folder into dst at 1/reduce: read whole into fs->buf, decoded by
 * libjpeg-turbo straight to BGR (cap_jpeg.c), or by OpenCV where that one declines (EXIF,
 * CMYK). Returns a cvb_ code. */
static int folder_read_jpeg(cap_files_t *fs, const char *path, int reduce, cvb_image_t *dst)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return CVB_EREAD;
    size_t n = 0;
    for (;;) {
        if (n == fs->buf_cap) {
            size_t cap = fs->buf_cap ? fs->buf_cap * 2 : (size_t)1 << 20;
            uint8_t *b = realloc(fs->buf, cap);
            if (!b) {
                fclose(f);
                return CVB_ENOMEM;
            }
            fs->buf = b;
            fs->buf_cap = cap;
        }
        size_t got = fread(fs->buf + n, 1, fs->buf_cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n == 0)
        return CVB_EREAD;
    int rc = cap_jpeg_decode(fs->buf, n, reduce, dst);
    if (rc == CAP_EFORMAT)
        return cvb_imdecode_reduced_into(fs->buf, n, reduce, dst);
    return rc == CAP_OK ? CVB_OK : rc == CAP_ENOMEM ? CVB_ENOMEM : CVB_EREAD;
}

static void files_free(cap_files_t *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->n; i++)
        free(fs->names[i]);
    free(fs->names);
    free(fs->dir);
    free(fs->buf);
    cvb_video_close(fs->video);
    free(fs);
}

static int folder_open(cap_source_t *s, const char *path)
{
    cap_files_t *fs = s->files;
    fs->dir = strdup(path);
    if (!fs->dir)
        return CAP_ENOMEM;
    DIR *d = opendir(path);
    if (!d)
        return CAP_EOPEN;
    size_t cap = 0;
    int rc = CAP_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !has_image_ext(e->d_name))
            continue;
        if (fs->n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nn = realloc(fs->names, nc * sizeof *nn);
            if (!nn) {
                rc = CAP_ENOMEM;
                break;
            }
            fs->names = nn;
            cap = nc;
        }
        fs->names[fs->n] = strdup(e->d_name);
        if (!fs->names[fs->n]) {
            rc = CAP_ENOMEM;
            break;
        }
        fs->n++;
    }
    closedir(d);
    if (rc)
        return rc;
    if (fs->n == 0)
        return CAP_EOPEN; /* a folder without images */
    qsort(fs->names, fs->n, sizeof *fs->names, cmp_names);
    s->info.fps = s->opt.fps;
    return CAP_OK;
}

int cap_folder_rate(const char *dir, double *fps)
{
    if (!dir || !*dir || !fps)
        return CAP_EINVAL;
    char path[4200];
    if (snprintf(path, sizeof path, "%s/truth.txt", dir) >= (int)sizeof path)
        return CAP_EOPEN;
    /* never blocks on a FIFO, never reads a device: a regular file or nothing */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return CAP_EOPEN;
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
    if (!f) {
        close(fd);
        return CAP_EOPEN;
    }
    char line[512];
    int rc = CAP_EOPEN, whole = 1;   /* whole: line starts a line of the file */
    for (int n = 0; fgets(line, sizeof line, f) && n < 1000; n++) {
        int starts = whole;
        whole = strchr(line, '\n') != NULL;
        if (!starts)
            continue;   /* the rest of a long line */
        if (n == 0) {
            if (strncmp(line, "kifucam-render truth ", 21))
                break;   /* another program's truth.txt: no rate of ours */
            rc = CAP_EFORMAT;   /* a render truth file: its header must give the rate */
            continue;
        }
        if (!strncmp(line, "event ", 6) || !strncmp(line, "frame ", 6))
            break;   /* the header is over */
        if (strncmp(line, "fps ", 4))
            continue;
        char *end;
        errno = 0;
        double v = strtod(line + 4, &end);
        while (*end == ' ' || *end == '\r' || *end == '\n')
            end++;
        if (!errno && !*end && end != line + 4 && v > 0 && v <= 1000) {
            *fps = v;
            rc = CAP_OK;
        }
        break;
    }
    fclose(f);
    return rc;
}

static int is_jpeg_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"));
}

int cap_pick_reduce(int w, int h, int min_w, int min_h)
{
    if (min_w <= 0 && min_h <= 0)
        return 1;
    int lo = w < h ? w : h, hi = w < h ? h : w;
    int r = 8;
    while (r > 1 && (hi / r < min_w || lo / r < min_h))
        r /= 2;
    return r;
}

/* Choose the decoding scale of a JPEG folder from its first readable image (one full
 * decode at open); other folders decode at full size. */
static void folder_pick_reduce(cap_source_t *s)
{
    cap_files_t *fs = s->files;
    s->info.reduce = 1;
    if (s->opt.min_w <= 0 && s->opt.min_h <= 0)
        return;
    for (size_t i = 0; i < fs->n && i < 8; i++) {
        if (!is_jpeg_name(fs->names[i]))
            return;
        size_t len = strlen(fs->dir) + strlen(fs->names[i]) + 2;
        char *path = malloc(len);
        if (!path)
            return;
        snprintf(path, len, "%s/%s", fs->dir, fs->names[i]);
        cvb_image_t img = { 0 };
        int rc = cap_image_size(path, NULL, NULL, NULL, 0) == CAP_OK ? cvb_imread(path, 1, &img)
                                                                     : CVB_EREAD;
        free(path);
        if (rc == CVB_OK) {
            s->info.reduce = cap_pick_reduce(img.w, img.h, s->opt.min_w, s->opt.min_h);
            s->info.width = img.w / s->info.reduce;
            s->info.height = img.h / s->info.reduce;
            cvb_image_free(&img);
            fs->jpeg = 1;
            return;
        }
    }
}

/* Files: is frame idx passed over by opt.analyse_fps? Every k-th frame is taken, k =
 * floor(fps / analyse_fps) (at least the asked rate, evenly spaced), counted from the
 * first frame (or the frame sought, cap_source_seek). */
static int pass_over(const cap_source_t *s, size_t idx, double fps)
{
    double a = s->opt.analyse_fps;
    if (!(a > 0) || a >= fps)
        return 0;
    size_t k = (size_t)floor(fps / a + 1e-9);
    size_t base = s->files ? s->files->base : 0;
    return k > 1 && idx >= base && (idx - base) % k != 0;
}

static int open_kind(cap_source_t *s, const char *spec)
{
    if (!strncmp(spec, "/dev/video", 10)) {
        s->kind = CAP_KIND_CAMERA;
        return cap_cam_open(s, spec);
    }
    struct stat st;
    if (stat(spec, &st) != 0)
        return CAP_EOPEN;
    if (S_ISCHR(st.st_mode)) {
        s->kind = CAP_KIND_CAMERA;
        return cap_cam_open(s, spec);
    }
    s->files = calloc(1, sizeof *s->files);
    if (!s->files)
        return CAP_ENOMEM;
    size_t n = strlen(base_name(spec));
    if (n >= sizeof s->info.name)
        n = sizeof s->info.name - 1;
    memcpy(s->info.name, base_name(spec), n);
    if (S_ISDIR(st.st_mode)) {
        s->kind = CAP_KIND_FOLDER;
        int rc = folder_open(s, spec);
        if (rc == CAP_OK)
            folder_pick_reduce(s);
        return rc;
    }
    if (!S_ISREG(st.st_mode))
        return CAP_EOPEN;
    if (has_image_ext(spec)) {
        s->kind = CAP_KIND_IMAGE;
        int grc = cap_image_size(spec, NULL, NULL, s->why, sizeof s->why);
        if (grc == CAP_ETOOBIG)
            return grc;   /* the guard: never decoded */
        if (grc != CAP_OK || cvb_imread(spec, 1, &s->img) != CVB_OK)
            return CAP_EOPEN;
        s->info.reduce = is_jpeg_name(spec) ? cap_pick_reduce(s->img.w, s->img.h, s->opt.min_w,
                                                          s->opt.min_h) : 1;
        if (s->info.reduce > 1) {
            cvb_image_t img = { 0 };
            if (cvb_imread_into(spec, s->info.reduce, &img) != CVB_OK)
                return CAP_EOPEN;
            cvb_image_free(&s->img);
            s->img = img;
        }
        s->info.width = s->img.w;
        s->info.height = s->img.h;
        return CAP_OK;
    }
    s->kind = CAP_KIND_VIDEO;
    s->info.reduce = 1;
    double fps = 0;
    int w = 0, h = 0;
    if (cvb_video_open(spec, &s->files->video, &fps, &w, &h) != CVB_OK)
        return CAP_EOPEN;
    s->info.fps = fps > 0 && fps < 1000 ? fps : s->opt.fps;
    s->info.width = w;
    s->info.height = h;
    return CAP_OK;
}

int cap_source_open(const char *spec, const cap_options_t *opt, cap_source_t **out)
{
    if (!spec || !*spec || !out)
        return CAP_EINVAL;
    cap_source_t *s = calloc(1, sizeof *s);
    if (!s)
        return CAP_ENOMEM;
    if (opt)
        s->opt = *opt;
    else
        cap_options_defaults(&s->opt);
    const cap_options_t *o = &s->opt;
    if (o->width <= 0 || o->height <= 0 || !(o->fps > 0 && o->fps <= 1000) ||
        o->nbuffers < 1 || o->timeout_ms < 0 || o->settle_frames < 0 ||
        o->reopen_min_ms < 0 || o->reopen_max_ms < o->reopen_min_ms || o->eio_gone < 1 ||
        o->timeout_gone < 0 || !(o->analyse_fps >= 0 && o->analyse_fps <= 1000) ||
        o->min_w < 0 || o->min_h < 0) {
        free(s);
        return CAP_EINVAL;
    }
    s->t0 = cap_now();
    int rc = open_kind(s, spec);
    s->info.kind = s->kind;
    if (rc) {
        cap_source_close(s);
        return rc;
    }
    *out = s;
    return CAP_OK;
}

/* Hold a file frame back until its time when pacing in real time. */
static int pace(cap_source_t *s, double t)
{
    cap_files_t *fs = s->files;
    if (!s->opt.realtime)
        return 0;
    if (fs->wall0 == 0)
        fs->wall0 = cap_now() - t;
    double wait = fs->wall0 + t - cap_now();
    return wait > 0 ? cap_sleep(s, wait) : 0;
}

static int files_next(cap_source_t *s, cap_frame_t *f)
{
    cap_files_t *fs = s->files;
    double fps = s->info.fps > 0 ? s->info.fps : s->opt.fps;
    size_t idx;
    switch (s->kind) {
    case CAP_KIND_IMAGE:
        if (fs->idx > 0)
            return CAP_EEOF;
        idx = fs->idx++;
        break;
    case CAP_KIND_VIDEO: {
        if (!fs->video)
            return CAP_EEOF;   /* lost by a seek (cap_source_seek) */
        while (pass_over(s, fs->idx, fps)) {
            if (s->stop)
                return CAP_ESTOPPED;
            if (cvb_video_skip(fs->video) != CVB_OK)
                return CAP_EEOF;
            fs->idx++;
            s->info.skipped++;
        }
        int rc = cvb_video_read(fs->video, &s->img);
        if (rc == CVB_EEOF)
            return CAP_EEOF;
        idx = fs->idx++;
        if (rc) {
            if (fs->skipped >= 1000)
                return CAP_EEOF; /* a reader that only fails: give up */
            fs->skipped++;
            return rc == CVB_ENOMEM ? CAP_ENOMEM : CAP_EDECODE;
        }
        s->info.width = s->img.w;
        s->info.height = s->img.h;
        break;
    }
    default: { /* folder */
        while (fs->idx < fs->n && pass_over(s, fs->idx, fps)) {
            fs->idx++;
            s->info.skipped++;
        }
        if (fs->idx >= fs->n)
            return CAP_EEOF;
        idx = fs->idx++;
        size_t len = strlen(fs->dir) + strlen(fs->names[idx]) + 2;
        char *path = malloc(len);
        if (!path)
            return CAP_ENOMEM;
        snprintf(path, len, "%s/%s", fs->dir, fs->names[idx]);
        /* the guard first: from the header, before any decoder; a file that went away
         * is told from a folder that went away (deleted or moved: the end, CAP_ELOST) */
        char why[256];
        int grc = cap_image_size(path, NULL, NULL, why, sizeof why);
        if (grc != CAP_OK) {
            int e = errno;
            struct stat dst;
            if (grc == CAP_EOPEN && (e == ENOENT || e == ENOTDIR) &&
                (stat(fs->dir, &dst) != 0 || !S_ISDIR(dst.st_mode))) {
                snprintf(s->why, sizeof s->why, "%s: the folder is gone (deleted or moved "
                         "during the run)", fs->dir);
                free(path);
                return CAP_ELOST;
            }
            snprintf(s->why, sizeof s->why, "%s: %s", path, why);
            free(path);
            fs->skipped++;
            return grc == CAP_ETOOBIG ? CAP_ETOOBIG : grc == CAP_EOPEN ? CAP_EIO : CAP_EDECODE;
        }
        int rc;
        if (fs->jpeg && is_jpeg_name(fs->names[idx])) {
            rc = folder_read_jpeg(fs, path, s->info.reduce, &s->img); /* pixels reused */
        } else {
            cvb_image_t img = { 0 };
            rc = cvb_imread(path, 1, &img);
            if (rc == CVB_OK) {
                cvb_image_free(&s->img);
                s->img = img;
            }
        }
        if (rc)
            snprintf(s->why, sizeof s->why, "%s: cannot decode (%s)", path, cvb_strerror(rc));
        free(path);
        if (rc) {
            fs->skipped++;
            return rc == CVB_ENOMEM ? CAP_ENOMEM : CAP_EDECODE;
        }
        s->info.width = s->img.w;
        s->info.height = s->img.h;
    }
    }
    double t = (double)idx / fps;
    if (pace(s, t))
        return CAP_ESTOPPED;
    f->img = s->img;
    f->seq = s->seq++;
    f->index = idx;
    f->t = t;
    f->dropped = fs->skipped;
    s->info.dropped += fs->skipped;
    fs->skipped = 0;
    return CAP_OK;
}

int cap_source_seek(cap_source_t *s, uint64_t index)
{
    if (!s || s->kind == CAP_KIND_CAMERA || !s->files || index < s->files->idx)
        return CAP_EINVAL;
    cap_files_t *fs = s->files;
    size_t from = fs->idx;
    int rc = CAP_OK;
    switch (s->kind) {
    case CAP_KIND_IMAGE:
        if (index > 0) {
            fs->idx = 1;   /* its one frame is before it */
            rc = CAP_EEOF;
        }
        break;
    case CAP_KIND_VIDEO: {
        /* by the container's index when it lands exactly on the frame, else each frame
         * grabbed, never converted, paced or read */
        int vrc = cvb_video_seek(fs->video, fs->idx, index);
        if (vrc == CVB_OK) {
            fs->idx = (size_t)index;
            break;
        }
        if (vrc != CVB_EEOF) {
            /* the video's position is lost: nothing more is read from it */
            snprintf(s->why, sizeof s->why, "the video cannot be put back at frame %zu after "
                     "a seek to frame %llu", fs->idx, (unsigned long long)index);
            cvb_video_close(fs->video);
            fs->video = NULL;
            rc = CAP_EIO;
            break;
        }
        while (fs->idx < index) {
            if (s->stop) {
                rc = CAP_ESTOPPED;
                break;
            }
            if (cvb_video_skip(fs->video) != CVB_OK) {
                rc = CAP_EEOF;
                break;
            }
            fs->idx++;
        }
        break;
    }
    default: /* folder: the index, no file opened */
        if (index >= fs->n) {
            fs->idx = fs->n;
            rc = CAP_EEOF;
        } else {
            fs->idx = (size_t)index;
        }
    }
    s->info.skipped += fs->idx - from;
    fs->base = fs->idx;
    return rc;
}

int cap_source_next(cap_source_t *s, cap_frame_t *f)
{
    if (!s || !f)
        return CAP_EINVAL;
    if (s->stop)
        return CAP_ESTOPPED;
    if (s->kind == CAP_KIND_CAMERA)
        return cap_cam_next(s, f);
    s->why[0] = '\0';
    return files_next(s, f);
}

void cap_source_stop(cap_source_t *s)
{
    if (s)
        s->stop = 1;
}

const char *cap_source_why(const cap_source_t *s)
{
    return s ? s->why : "";
}

int cap_source_info(const cap_source_t *s, cap_info_t *info)
{
    if (!s || !info)
        return CAP_EINVAL;
    *info = s->info;
    return CAP_OK;
}

void cap_source_close(cap_source_t *s)
{
    if (!s)
        return;
    cap_cam_close(s);
    files_free(s->files);
    cvb_image_free(&s->img);
    free(s);
}
