/* cmd_devices.c: `kifucam devices`: list the V4L2 cameras (/dev/video*) with their names,
 * pixel formats, frame sizes and frame rates. None attached is not an error (exit 0).
 * `--probe SOURCE` opens one source (a camera, a video, a folder, an image) as `record`
 * would, reads a few frames and says what it got: format, size, rate, drops; `--save`
 * keeps the last frame as an image. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "capture/cap_devices.h"
#include "capture/cap_source.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam devices [--dir DIR]\n"
            "       kifucam devices --probe SOURCE [--frames N] [--camera-size WxH]\n"
            "                       [--camera-fps N] [--camera-format auto|mjpg|yuyv|bgr24]\n"
            "                       [--save FILE]\n\n"
            "List the V4L2 cameras with their formats, sizes and frame rates.\n"
            "  --dir DIR          look for video* nodes in DIR instead of /dev\n"
            "  --probe SOURCE     open /dev/videoN, a video, a folder or an image and read\n"
            "                     frames from it (default 60), reporting what it gives\n"
            "  --camera-size WxH  size asked of a camera (default 1920x1080)\n"
            "  --camera-fps N     frame rate asked of a camera (default 30)\n"
            "  --camera-format F  pixel format asked of a camera (default auto)\n"
            "  --save FILE        write the last frame read (.png or .jpg)\n");
}

static void print_size(const cap_dev_size_t *sz)
{
    if (sz->stepwise)
        printf("      %ux%u .. %ux%u", sz->min_w, sz->min_h, sz->w, sz->h);
    else
        printf("      %ux%u", sz->w, sz->h);
    if (sz->nrates) {
        printf(" @");
        for (int k = 0; k < sz->nrates; k++)
            printf("%s%.4g", k ? (sz->stepwise ? ".." : ", ") : " ", sz->fps[k]);
        printf(" fps");
    }
    printf("\n");
}

static int list_devices(const char *dir)
{
    cap_device_t *devs = NULL;
    int n = 0;
    int rc = cap_devices_list(dir, &devs, &n);
    if (rc) {
        cli_error("devices", "%s", cap_strerror(rc));
        return 2;
    }
    if (n == 0) {
        printf("no V4L2 camera found (no capture device among %s/video*)\n",
               dir ? dir : "/dev");
        return 0;
    }
    for (int i = 0; i < n; i++) {
        const cap_device_t *d = &devs[i];
        if (d->status != CAP_OK) {
            printf("%s: cannot open: %s%s\n", d->path, strerror(d->sys_errno),
                   d->sys_errno == EACCES ? " (is this user in the video group?)" : "");
            continue;
        }
        printf("%s: %s (driver %s, %s)\n", d->path, d->card, d->driver, d->bus);
        for (int j = 0; j < d->nformats; j++) {
            const cap_dev_format_t *f = &d->formats[j];
            char cc[5];
            printf("    %s %s%s\n", cap_fourcc_str(f->fourcc, cc), f->desc,
                   f->emulated ? " (converted by libv4l2)" : "");
            for (int k = 0; k < f->nsizes; k++)
                print_size(&f->sizes[k]);
        }
    }
    free(devs);
    return 0;
}

static int probe(const char *spec, const cap_options_t *o, int frames, const char *save)
{
    cap_source_t *s = NULL;
    int rc = cap_source_open(spec, o, &s);
    if (rc) {
        char why[256] = "";
        if (rc == CAP_ETOOBIG)   /* the image-size guard's reason: the size it read */
            cap_image_size(spec, NULL, NULL, why, sizeof why);
        cli_error("devices", "%s: %s", spec, why[0] ? why : cap_strerror(rc));
        return 2;
    }
    int got = 0, errors = 0;
    uint64_t dropped = 0;
    double t_first = 0, t_last = 0, w0 = cli_now_s();
    cap_frame_t f;
    memset(&f, 0, sizeof f);
    while (got < frames && errors < 10) {
        rc = cap_source_next(s, &f);
        if (rc == CAP_OK) {
            if (got == 0)
                t_first = f.t;
            t_last = f.t;
            dropped += f.dropped;
            got++;
        } else if (rc == CAP_EEOF || rc == CAP_ESTOPPED) {
            break;
        } else {
            errors++;
            fprintf(stderr, "kifucam devices: %s: %s\n", spec, cap_strerror(rc));
        }
    }
    double wall = cli_now_s() - w0;
    cap_info_t info;
    cap_source_info(s, &info);
    static const char *kinds[] = { "?", "camera", "video", "folder", "image" };
    printf("%s: %s", spec, kinds[info.kind >= 1 && info.kind <= 4 ? info.kind : 0]);
    if (info.kind == CAP_KIND_CAMERA) {
        char cc[5];
        printf(" \"%s\", %s, %d buffers", info.name, cap_fourcc_str(info.pixfmt, cc),
               info.nbuffers);
    }
    printf(", %dx%d", info.width, info.height);
    if (info.fps > 0)
        printf(", nominal %.4g fps", info.fps);
    printf("\n%d frames read in %.2f s", got, wall);
    if (got > 1 && t_last > t_first)
        printf(" (frame times: %.2f fps)", (got - 1) / (t_last - t_first));
    printf(", %llu dropped, %d errors\n", (unsigned long long)dropped, errors);
    int status = got > 0 ? 0 : 1;
    if (got > 0 && save) {
        char why[160];
        if (cli_write_image(save, &f.img, 90, why, sizeof why)) {
            cli_error("devices", "%s: %s", save, why);
            status = 2;
        } else {
            printf("last frame written to %s\n", save);
        }
    }
    cap_source_close(s);
    return status;
}

int cmd_devices(int argc, char **argv)
{
    const char *dir = NULL, *spec = NULL, *save = NULL;
    int frames = 60;
    cap_options_t o;
    cap_options_defaults(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            cli_error("devices", "unknown option or missing value '%s' (kifucam devices "
                                 "--help)", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--dir")) {
            dir = v;
        } else if (!strcmp(a, "--probe")) {
            spec = v;
        } else if (!strcmp(a, "--save")) {
            save = v;
        } else if (!strcmp(a, "--frames")) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 100000) {
                cli_error("devices", "--frames: '%s' is not a count in 1..100000", v);
                return 2;
            }
            frames = (int)n;
        } else if (!strcmp(a, "--camera-size")) {
            if (cap_parse_size(v, &o.width, &o.height)) {
                cli_error("devices", "--camera-size: '%s' is not WxH", v);
                return 2;
            }
        } else if (!strcmp(a, "--camera-fps")) {
            char *end;
            double fps = strtod(v, &end);
            if (*end || end == v || !(fps > 0 && fps <= 1000)) {
                cli_error("devices", "--camera-fps: '%s' is not a rate in (0, 1000]", v);
                return 2;
            }
            o.fps = fps;
        } else if (!strcmp(a, "--camera-format")) {
            if (cap_parse_pixfmt(v, &o.pixfmt)) {
                cli_error("devices", "--camera-format: unknown format '%s'", v);
                return 2;
            }
        } else {
            cli_error("devices", "unknown option '%s' (kifucam devices --help)", a);
            return 2;
        }
    }
    if (spec)
        return probe(spec, &o, frames, save);
    return list_devices(dir);
}
