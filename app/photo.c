/* photo.c: one photo read into a position (see photo.h), moved here from cmd_detect.c so
 * that detect, count and score read a photo the same way.
 *
 * Invariants: no image reaches a decoder before the image-size guard passed; fd 2 is
 * muted only while decoding (the image libraries' own complaints) and always restored;
 * every error is one line under the command's name, with the exit code of INTERFACE.md.
 */
#include "app/photo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cli.h"
#include "calib/cal_calibrate.h"
#include "calib/cal_lens.h"
#include "calib/cal_profile.h"
#include "capture/cap_source.h"

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

void cli_debug_write(void *ctx, int stage, const char *name, const cvb_image_t *img)
{
    cli_debug_t *d = ctx;
    char path[4096], why[160];
    int big = (long)img->w * img->h > 1000000;
    int n = snprintf(path, sizeof path, "%s/%d_%s.%s", d->dir, stage + 1, name, big ? "jpg" : "png");
    if (n < 0 || (size_t)n >= sizeof path || cli_write_image(path, img, big ? 90 : 0, why, sizeof why))
        d->failed = 1;   /* never a cut path: another file */
}

int photo_option(const char *cmd, int argc, char **argv, int *i, photo_opts_t *o)
{
    const char *a = argv[*i];
    if (strcmp(a, "--size") && strcmp(a, "--corners") && strcmp(a, "--calib") &&
        strcmp(a, "--model") && strcmp(a, "--finder") && strcmp(a, "--debug"))
        return 0;
    if (*i + 1 >= argc) {
        cli_error(cmd, "%s needs a value (kifucam %s --help)", a, cmd);
        return -1;
    }
    const char *v = argv[++*i];
    if (!strcmp(a, "--size")) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || (n != 9 && n != 13 && n != 19)) {
            cli_error(cmd, "--size must be 9, 13 or 19, not '%s'", v);
            return -1;
        }
        o->size = (int)n;
    } else if (!strcmp(a, "--corners")) {
        o->corners = v;
    } else if (!strcmp(a, "--calib")) {
        o->calib = v;
    } else if (!strcmp(a, "--model")) {
        o->model = v;
    } else if (!strcmp(a, "--finder")) {
        o->finder = v;
    } else {
        o->debug = v;
    }
    return 1;
}

int photo_is_image(const char *path)
{
    int rc = cap_image_size(path, NULL, NULL, NULL, 0);
    return rc == CAP_OK || rc == CAP_ETOOBIG;
}

int photo_unsure(const photo_t *p, int k)
{
    return vis_point_unsure(&p->snap, k);
}

int photo_grid_doubted(const photo_t *p)
{
    return vis_grid_doubted(&p->snap);
}

void photo_say_grid_doubt(const char *cmd, const photo_opts_t *o, const photo_t *p,
                          const char *consequence)
{
    const double(*c)[2] = p->geom.corners;
    cli_error(cmd, "%s: the %dx%d grid found is in doubt (shown more of the photo around it, "
              "the reader takes the lines beyond its edge for the board's: a part of a bigger "
              "board, or lines off); %s: check it (--debug DIR, or count's --picture) and give "
              "the corners, e.g. as found: --corners \"%.0f,%.0f;%.0f,%.0f;%.0f,%.0f;%.0f,%.0f\"",
              o->image, p->geom.size, p->geom.size, consequence, c[0][0], c[0][1], c[1][0],
              c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]);
}

int photo_outside(const photo_t *p, uint8_t *outside, unsigned *sides)
{
    int n = vis_geom_outside(&p->geom, p->img.w, p->img.h, outside, sides);
    return n < 0 ? 0 : n;
}

int photo_side_names(unsigned sides, const char *names[4])
{
    static const vis_side_t order[4] = { VIS_SIDE_TOP, VIS_SIDE_RIGHT, VIS_SIDE_BOTTOM,
                                         VIS_SIDE_LEFT };
    int n = 0;
    for (int i = 0; i < 4; i++)
        if ((sides >> order[i]) & 1)
            names[n++] = vis_side_name(order[i]);
    return n;
}

void photo_sides_text(unsigned sides, char *text, size_t len)
{
    const char *e[4] = { "", "", "", "" };
    switch (photo_side_names(sides, e)) {
    case 0: snprintf(text, len, "%s", ""); break;
    case 1: snprintf(text, len, "%s edge", e[0]); break;
    case 2: snprintf(text, len, "%s and %s edges", e[0], e[1]); break;
    case 3: snprintf(text, len, "%s, %s and %s edges", e[0], e[1], e[2]); break;
    default: snprintf(text, len, "%s, %s, %s and %s edges", e[0], e[1], e[2], e[3]);
    }
}

void photo_say_cut(const char *cmd, const photo_opts_t *o, const photo_t *p)
{
    unsigned sides = 0;
    int n = photo_outside(p, NULL, &sides);
    char text[48];
    photo_sides_text(sides, text, sizeof text);
    if (n > 0)
        cli_error(cmd, "%s: the picture cuts the board at its %s: %d of its points lie "
                  "outside it, unknown ('?'); a photo with the whole board in view reads them",
                  o->image, text, n);
}

void photo_free(photo_t *p)
{
    if (!p)
        return;
    cvb_image_free(&p->img);
}

int photo_read(const char *cmd, const photo_opts_t *o, photo_t *out)
{
    const char *image = o->image;
    int size = o->size, rc;
    memset(out, 0, sizeof *out);
    cal_profile_t prof;
    if (o->calib) {
        char err[256] = "";
        int crc = cal_profile_load(o->calib, &prof, err, sizeof err);
        if (crc) {
            cli_error(cmd, "%s: %s", o->calib, err[0] ? err : cal_strerror(crc));
            return 2;
        }
        if (size && size != prof.size) {
            cli_error(cmd, "--size %d differs from the profile's board size %d", size,
                      prof.size);
            return 2;
        }
    }
    double corners[4][2];
    if (o->corners && parse_corners(o->corners, corners)) {
        cli_error(cmd, "--corners must be \"x1,y1;x2,y2;x3,y3;x4,y4\", not '%s'", o->corners);
        return 2;
    }
    cli_debug_t dctx = { o->debug, 0 };
    if (o->debug && mkdir(o->debug, 0777) && errno != EEXIST) {
        cli_error(cmd, "%s: cannot create the debug folder: %s", o->debug, strerror(errno));
        return 2;
    }
    struct stat st;
    if (stat(image, &st) != 0) {
        cli_error(cmd, "%s: cannot open: %s", image, strerror(errno));
        return 2;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        cli_error(cmd, "%s: not an image (%s)", image,
                  S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
        return 2;
    }
    /* the image-size guard (capture/cap_source.h): the header's size, before decoding */
    char why[256];
    int grc = cap_image_size(image, NULL, NULL, why, sizeof why);
    if (grc != CAP_OK) {
        cli_error(cmd, "%s: %s", image, why);
        return 2;
    }
    cvb_quiet();
    /* the image libraries (libpng, libjpeg) print their own complaints on stderr: keep
     * the contract's one line by muting fd 2 while decoding */
    fflush(stderr);
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0)
        dup2(devnull, 2);
    rc = cvb_imread(image, 1, &out->img);
    if (saved >= 0 && devnull >= 0)
        dup2(saved, 2);
    if (saved >= 0)
        close(saved);
    if (devnull >= 0)
        close(devnull);
    if (rc) {
        cli_error(cmd, "%s: cannot read the image (%s)", image, cvb_strerror(rc));
        return 2;
    }
    cvb_image_t *img = &out->img;
    vis_config_t cfg;
    vis_board_model_t board;
    vis_config_defaults(&cfg);
    vis_config_for_photo(&cfg); /* one photo: read under its 8 symmetries, its own colours */
    if (o->calib) {
        /* the profile's grid lives in the undistorted frame: undistort first */
        if (prof.has_lens) {
            cal_undistorter_t *u = NULL;
            cvb_image_t fixed = { 0 };
            rc = cal_undistorter_create(&prof, img->w, img->h, &u);
            if (!rc)
                rc = cal_undistort(u, img, &fixed);
            cal_undistorter_destroy(u);
            if (rc) {
                cvb_image_free(&fixed);
                cli_error(cmd, "%s: the profile's lens does not fit the %dx%d image (%s)",
                          o->calib, img->w, img->h, cal_strerror(rc));
                return 2;
            }
            cvb_image_free(img);
            *img = fixed;
        }
        if (cal_profile_board_model(&prof, &board))
            cfg.board = &board; /* this board's own colours, learned at calibration */
    }
    if (o->debug) {
        cfg.debug = cli_debug_write;
        cfg.debug_ctx = &dctx;
    }
    vis_net_t *net = NULL;
    if (o->model) {
        int mrc = vis_net_load(o->model, &net);
        if (mrc) {
            cli_error(cmd, "%s: %s", o->model, vis_strerror(mrc));
            return 2;
        }
        cfg.net = net;
    }
    vis_finder_t *finder = NULL; /* --finder FILE: a stone finder of one's own; off: none */
    if (o->finder && !strcmp(o->finder, "off")) {
        cfg.stones.on = 0;
    } else if (o->finder) {
        int frc = vis_finder_load(o->finder, &finder);
        if (frc) {
            cli_error(cmd, "%s: %s", o->finder, vis_strerror(frc));
            vis_net_destroy(net);
            return 2;
        }
        cfg.stones.finder = finder;
    }
    vis_geom_t *geom = &out->geom;
    vis_snapshot_t *snap = &out->snap;
    vis_timing_t *tm = &out->tm;
    if (o->calib && !o->corners) {
        rc = cal_profile_to_geom(&prof, img->w, img->h, geom);
        if (rc) {
            cli_error(cmd, "%s: the profile's grid does not fit the %dx%d image (%s)",
                      o->calib, img->w, img->h, cal_strerror(rc));
            vis_net_destroy(net);
            vis_finder_destroy(finder);
            return 2;
        }
        double t0 = now_ms();
        rc = vis_classify(img, geom, &cfg, snap);
        tm->ms[VIS_STAGE_CLASSIFY] = tm->total_ms = now_ms() - t0;
    } else if (o->corners) {
        if (o->calib)
            size = prof.size;
        for (int k = 0; k < 4; k++)
            if (corners[k][0] < -img->w || corners[k][0] > 2.0 * img->w ||
                corners[k][1] < -img->h || corners[k][1] > 2.0 * img->h) {
                cli_error(cmd, "%s: corner %d (%g,%g) is far outside the %dx%d image",
                          image, k + 1, corners[k][0], corners[k][1], img->w, img->h);
                vis_net_destroy(net);
                vis_finder_destroy(finder);
                return 2;
            }
        rc = vis_classify_corners(img, corners, &cfg, size, geom, snap, tm);
        if (rc == VIS_EINVAL) {
            cli_error(cmd, "--corners: the four corners do not make a quadrilateral");
            vis_net_destroy(net);
            vis_finder_destroy(finder);
            return 2;
        }
    } else {
        rc = vis_detect(img, &cfg, size, geom, snap, tm);
    }
    if (!rc && o->debug && (o->calib || o->corners)) {
        /* board finding writes its own stages; a given grid: the reading's pictures */
        cvb_image_t r = { 0 }, drawn = { 0 };
        if (!vis_draw_reading(img, geom, snap, &r))
            cli_debug_write(&dctx, VIS_STAGE_CLASSIFY, "confidence", &r);
        cvb_image_free(&r);
        if (!cvb_image_copy(img, &drawn)) {
            vis_draw(&drawn, geom, snap);
            cli_debug_write(&dctx, VIS_STAGE_CLASSIFY, "classify", &drawn);
        }
        cvb_image_free(&drawn);
    }
    vis_net_destroy(net);
    vis_finder_destroy(finder);
    out->debug_failed = dctx.failed;
    if (rc) {
        cli_error(cmd, "%s: %s", image, vis_strerror(rc));
        return rc == VIS_ENOBOARD ? 1 : 2;
    }
    if (dctx.failed)
        cli_error(cmd, "%s: some debug images could not be written", o->debug);
    return 0;
}
