/* cmd_devices.c: `kifucam devices`: list the V4L2 cameras (/dev/video*) with their names,
 * pixel formats, frame sizes and frame rates. None attached is not an error (exit 0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "capture/cap_devices.h"
#include "capture/cap_source.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: kifucam devices [--dir DIR]\n\n"
               "List the V4L2 cameras with their formats, sizes and frame rates.\n"
               "  --dir DIR   look for video* nodes in DIR instead of /dev\n"
               "Use a camera with: kifucam record --input /dev/videoN\n");
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

int cmd_devices(int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
            dir = argv[++i];
        } else {
            cli_error("devices", "unknown option '%s' (kifucam devices --help)", argv[i]);
            return 2;
        }
    }
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
