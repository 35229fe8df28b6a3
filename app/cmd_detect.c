/* cmd_detect.c: `kifucam detect IMAGE`: read the position from one photo or frame
 * (INTERFACE.md). Exit 0 read, 1 no board found, 2 bad usage or unreadable image. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cli.h"
#include "capture/cap_source.h"
#include "calib/cal_calibrate.h"
#include "calib/cal_lens.h"
#include "calib/cal_profile.h"
#include "vision/vis.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam detect IMAGE [--size N] [--corners \"x1,y1;x2,y2;x3,y3;x4,y4\"]\n"
            "                      [--calib FILE] [--format text|json|sgf] [--debug DIR]\n"
            "                      [--model FILE]\n"
            "  Read the position (empty, black, white per point) from one photo or frame.\n"
            "  --corners: the four corner intersections, top-left, top-right, bottom-right,\n"
            "             bottom-left of the output (skips board finding)\n"
            "  --calib:   a profile from `kifucam calibrate`: its grid, lens and learned\n"
            "             thresholds (skips board finding; --corners wins over its grid)\n"
            "  --debug:   each stage's picture in DIR, and the reading's confidence per point\n"
            "  --model:   a point reader of one's own (ONNX, from train/train_points.py)\n"
            "             instead of the built-in one\n"
            "  exit 0 read, 1 no board found, 2 bad usage or unreadable image\n");
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int parse_corners(const char *s, double c[4][2])
{
    const char *p = s;
    for (int k = 0; k < 4; k++) {
        char *end;
        errno = 0;
        c[k][0] = strtod(p, &end);
        if (end == p || *end != ',' || errno)
            return -1;
        p = end + 1;
        c[k][1] = strtod(p, &end);
        if (end == p || errno)
            return -1;
        p = end;
        if (k < 3) {
            if (*p != ';')
                return -1;
            p++;
        }
    }
    while (*p == ' ')
        p++;
    return *p ? -1 : 0;
}

typedef struct {
    const char *dir;
    int failed;
} debug_ctx_t;

static void write_debug(void *ctx, int stage, const char *name, const cvb_image_t *img)
{
    debug_ctx_t *d = ctx;
    char path[4096], why[160];
    int big = (long)img->w * img->h > 1000000;
    int n = snprintf(path, sizeof path, "%s/%d_%s.%s", d->dir, stage + 1, name, big ? "jpg" : "png");
    if (n < 0 || (size_t)n >= sizeof path || cli_write_image(path, img, big ? 90 : 0, why, sizeof why))
        d->failed = 1;   /* never a cut path: another file */
}

int cmd_detect(int argc, char **argv)
{
    const char *image = NULL, *corners_s = NULL, *calib = NULL, *format = "text",
               *debug = NULL, *model = NULL;
    int size = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        int has = i + 1 < argc;
        if (!strcmp(a, "--size") && has) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || (v != 9 && v != 13 && v != 19)) {
                cli_error("detect", "--size must be 9, 13 or 19, not '%s'", argv[i]);
                return 2;
            }
            size = (int)v;
        } else if (!strcmp(a, "--corners") && has) {
            corners_s = argv[++i];
        } else if (!strcmp(a, "--calib") && has) {
            calib = argv[++i];
        } else if (!strcmp(a, "--format") && has) {
            format = argv[++i];
            if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "sgf")) {
                cli_error("detect", "--format must be text, json or sgf, not '%s'", format);
                return 2;
            }
        } else if (!strcmp(a, "--debug") && has) {
            debug = argv[++i];
        } else if (!strcmp(a, "--model") && has) {
            model = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("detect", "unknown option or missing value: '%s' (see --help)", a);
            return 2;
        } else if (!image) {
            image = a;
        } else {
            cli_error("detect", "one image only ('%s' is extra)", a);
            return 2;
        }
    }
    if (!image) {
        usage(stderr);
        return 2;
    }
    cal_profile_t prof;
    if (calib) {
        char err[256] = "";
        int crc = cal_profile_load(calib, &prof, err, sizeof err);
        if (crc) {
            cli_error("detect", "%s: %s", calib, err[0] ? err : cal_strerror(crc));
            return 2;
        }
        if (size && size != prof.size) {
            cli_error("detect", "--size %d differs from the profile's board size %d", size,
                      prof.size);
            return 2;
        }
    }
    double corners[4][2];
    if (corners_s && parse_corners(corners_s, corners)) {
        cli_error("detect", "--corners must be \"x1,y1;x2,y2;x3,y3;x4,y4\", not '%s'",
                  corners_s);
        return 2;
    }
    debug_ctx_t dctx = { debug, 0 };
    if (debug && mkdir(debug, 0777) && errno != EEXIST) {
        cli_error("detect", "%s: cannot create the debug folder: %s", debug, strerror(errno));
        return 2;
    }
    struct stat st;
    if (stat(image, &st) != 0) {
        cli_error("detect", "%s: cannot open: %s", image, strerror(errno));
        return 2;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        cli_error("detect", "%s: not an image (%s)", image,
                  S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
        return 2;
    }
    /* the image-size guard (capture/cap_source.h): the header's size, before decoding */
    char why[256];
    int grc = cap_image_size(image, NULL, NULL, why, sizeof why);
    if (grc != CAP_OK) {
        cli_error("detect", "%s: %s", image, why);
        return 2;
    }
    cvb_quiet();
    /* the image libraries (libpng, libjpeg) print their own complaints on stderr: keep
     * the contract's one line by muting fd 2 while decoding */
    fflush(stderr);
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0)
        dup2(devnull, 2);
    cvb_image_t img = { 0 };
    int rc = cvb_imread(image, 1, &img);
    if (saved >= 0 && devnull >= 0)
        dup2(saved, 2);
    if (saved >= 0)
        close(saved);
    if (devnull >= 0)
        close(devnull);
    if (rc) {
        cli_error("detect", "%s: cannot read the image (%s)", image, cvb_strerror(rc));
        return 2;
    }
    vis_config_t cfg;
    vis_board_model_t board;
    vis_config_defaults(&cfg);
    vis_config_for_photo(&cfg); /* one photo: read under its 8 symmetries, its own colours */
    if (calib) {
        /* the profile's grid lives in the undistorted frame: undistort first */
        if (prof.has_lens) {
            cal_undistorter_t *u = NULL;
            cvb_image_t fixed = { 0 };
            rc = cal_undistorter_create(&prof, img.w, img.h, &u);
            if (!rc)
                rc = cal_undistort(u, &img, &fixed);
            cal_undistorter_destroy(u);
            if (rc) {
                cvb_image_free(&fixed);
                cli_error("detect", "%s: the profile's lens does not fit the %dx%d image (%s)",
                          calib, img.w, img.h, cal_strerror(rc));
                cvb_image_free(&img);
                return 2;
            }
            cvb_image_free(&img);
            img = fixed;
        }
        if (cal_profile_board_model(&prof, &board))
            cfg.board = &board; /* this board's own colours, learned at calibration */
    }
    if (debug) {
        cfg.debug = write_debug;
        cfg.debug_ctx = &dctx;
    }
    vis_net_t *net = NULL;
    if (model) {
        int mrc = vis_net_load(model, &net);
        if (mrc) {
            cli_error("detect", "%s: %s", model, vis_strerror(mrc));
            cvb_image_free(&img);
            return 2;
        }
        cfg.net = net;
    }
    vis_geom_t geom;
    vis_snapshot_t snap;
    memset(&snap, 0, sizeof snap);
    vis_timing_t tm;
    memset(&tm, 0, sizeof tm);
    if (calib && !corners_s) {
        rc = cal_profile_to_geom(&prof, img.w, img.h, &geom);
        if (rc) {
            cli_error("detect", "%s: the profile's grid does not fit the %dx%d image (%s)",
                      calib, img.w, img.h, cal_strerror(rc));
            cvb_image_free(&img);
            vis_net_destroy(net);
            return 2;
        }
        double t0 = now_ms();
        rc = vis_classify(&img, &geom, &cfg, &snap);
        tm.ms[VIS_STAGE_CLASSIFY] = tm.total_ms = now_ms() - t0;
        if (!rc && debug) {
            cvb_image_t r = { 0 };
            if (!vis_draw_reading(&img, &geom, &snap, &r))
                write_debug(&dctx, VIS_STAGE_CLASSIFY, "confidence", &r);
            cvb_image_free(&r);
            vis_draw(&img, &geom, &snap);
            write_debug(&dctx, VIS_STAGE_CLASSIFY, "classify", &img);
        }
    } else if (corners_s) {
        if (calib)
            size = prof.size;
        for (int k = 0; k < 4; k++)
            if (corners[k][0] < -img.w || corners[k][0] > 2.0 * img.w ||
                corners[k][1] < -img.h || corners[k][1] > 2.0 * img.h) {
                cli_error("detect", "%s: corner %d (%g,%g) is far outside the %dx%d image",
                          image, k + 1, corners[k][0], corners[k][1], img.w, img.h);
                cvb_image_free(&img);
                vis_net_destroy(net);
                return 2;
            }
        if (!size && vis_guess_size(&img, corners, &size))
            size = 19;
        rc = vis_geom_from_corners(corners, size, img.w, img.h, &geom);
        if (rc) {
            cli_error("detect", "--corners: the four corners do not make a quadrilateral");
            cvb_image_free(&img);
            vis_net_destroy(net);
            return 2;
        }
        /* the corners seed the grid; its lines refine it (lens distortion, clicks) */
        double t0 = now_ms();
        vis_refine(&img, &geom);
        double t1 = now_ms();
        rc = vis_classify(&img, &geom, &cfg, &snap);
        double t2 = now_ms();
        tm.ms[VIS_STAGE_REFINE] = t1 - t0;
        tm.ms[VIS_STAGE_CLASSIFY] = t2 - t1;
        tm.total_ms = t2 - t0;
        if (!rc && debug) {
            cvb_image_t r = { 0 };
            if (!vis_draw_reading(&img, &geom, &snap, &r))
                write_debug(&dctx, VIS_STAGE_CLASSIFY, "confidence", &r);
            cvb_image_free(&r);
            vis_draw(&img, &geom, &snap);
            write_debug(&dctx, VIS_STAGE_CLASSIFY, "classify", &img);
        }
    } else {
        rc = vis_detect(&img, &cfg, size, &geom, &snap, &tm);
    }
    if (rc) {
        cli_error("detect", "%s: %s", image, vis_strerror(rc));
        cvb_image_free(&img);
        vis_net_destroy(net);
        return rc == VIS_ENOBOARD ? 1 : 2;
    }
    if (dctx.failed)
        cli_error("detect", "%s: some debug images could not be written", debug);
    int S = geom.size;
    /* the board text: a point covered, or read without confidence, is '?' (never shown
     * as empty: INTERFACE.md) */
    char txt[VIS_MAX_POINTS] = { 0 };
    for (int k = 0; k < S * S; k++)
        txt[k] = snap.occluded[k] || snap.conf[k] < 0.5f ? '?' : ".XO"[snap.color[k] % 3];
    if (!strcmp(format, "text")) {
        for (int y = 0; y < S; y++) {
            for (int x = 0; x < S; x++)
                putchar(txt[y * S + x]);
            putchar('\n');
        }
    } else if (!strcmp(format, "sgf")) {
        printf("(;GM[1]FF[4]SZ[%d]", S);
        for (int c = VIS_BLACK; c <= VIS_WHITE; c++) {
            int first = 1;
            for (int k = 0; k < S * S; k++)
                if (snap.color[k] == c && txt[k] != '?') {
                    if (first)
                        printf(c == VIS_BLACK ? "AB" : "AW");
                    first = 0;
                    printf("[%c%c]", 'a' + k % S, 'a' + k / S);
                }
        }
        printf(")\n");
    } else {
        printf("{\"size\":%d,\"corners\":[", S);
        for (int k = 0; k < 4; k++)
            printf("%s[%.2f,%.2f]", k ? "," : "", geom.corners[k][0], geom.corners[k][1]);
        printf("],\"board\":[");
        for (int y = 0; y < S; y++) {
            printf("%s\"", y ? "," : "");
            for (int x = 0; x < S; x++)
                putchar(txt[y * S + x]);
            putchar('"');
        }
        printf("],\"confidence\":[");
        for (int y = 0; y < S; y++) {
            printf("%s[", y ? "," : "");
            for (int x = 0; x < S; x++)
                printf("%s%.3f", x ? "," : "", snap.conf[y * S + x]);
            putchar(']');
        }
        printf("],\"occluded\":[");
        int first = 1;
        for (int k = 0; k < S * S; k++)
            if (snap.occluded[k]) {
                printf("%s\"%c%c\"", first ? "" : ",", 'a' + k % S, 'a' + k / S);
                first = 0;
            }
        printf("],\"ms\":{\"total\":%.3f", tm.total_ms);
        for (int s = 0; s < VIS_NSTAGES; s++)
            printf(",\"%s\":%.3f", vis_stage_name(s), tm.ms[s]);
        printf("}}\n");
    }
    cvb_image_free(&img);
    vis_net_destroy(net);
    return 0;
}
