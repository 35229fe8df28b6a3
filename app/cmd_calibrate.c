/* cmd_calibrate.c: `kifucam calibrate`: calibrate a station (board, orientation, lens,
 * colours) from a camera, a video, a folder or a photo and write its profile; and
 * `calibrate --check --calib FILE`: does a saved profile still fit the picture?
 * Exit codes (INTERFACE.md): 0 done / fits, 1 no board (or chessboard) found / moved,
 * 2 bad usage, unreadable input or profile. The logic is in calib/; this file reads
 * frames, prints, and writes the overlay image the operator checks.
 *
 * With --serve ADDR:PORT the grid found is shown in the web console's corner editor
 * (web/pages/calibrate.js) over the frame (/frame.jpg, the corrected frame with --lens);
 * the operator drags the four corners and accepts (POST /api/corners, with the token).
 * The action callback (the server's thread) re-runs the calibration with those corners,
 * so the learned colours are re-sampled with them, and hands the profile to the main
 * thread, which waits for it (or --timeout, or Ctrl-C: nothing written, exit 1). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app/cli.h"
#include "app/photo.h"
#include "calib/cal_calibrate.h"
#include "calib/cal_lens.h"
#include "capture/cap_source.h"
#include "vision/vis_homog.h"
#include "web/web.h"

#define MAX_VIEWS 40      /* chessboard views kept for the lens */
#define MAX_CANDS 6       /* frames kept to look for the board in (with --lens) */
#define CAND_STRIDE 10    /* frames between two kept candidates */
#define DETECT_STRIDE 10  /* without --lens, try the board on every this many frames */
#define CAMERA_SKIP 30    /* camera frames skipped while exposure settles */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam calibrate --input SOURCE [--out PROFILE] [--size N]\n"
            "                 [--corners \"x1,y1;x2,y2;x3,y3;x4,y4\"] [--rotate 0..3]\n"
            "                 [--black-side bottom|top|left|right] [--lens COLSxROWS[:SQUARE]]\n"
            "                 [--frames N] [--debug DIR] [--serve ADDR:PORT [--timeout S]]\n"
            "       kifucam calibrate --check --calib PROFILE --input SOURCE\n"
            "  Find the board (or take --corners: the record's top-left, top-right,\n"
            "  bottom-right, bottom-left corner intersections, in pixels of the corrected\n"
            "  frame), learn the colours of the board and stones, and write the profile\n"
            "  (default kifucam-profile.json) and PROFILE.png (in DIR with --debug): the grid\n"
            "  drawn over the frame; corner 1 red, 2 green, 3 blue, 4 yellow, the record's\n"
            "  top edge red, Black's side black. Correct it with --corners if it is wrong.\n"
            "  --rotate N     turn the record N quarter turns clockwise against the view\n"
            "  --black-side   the record's side facing Black's seat (default bottom)\n"
            "  --lens 9x6     correct the lens from a printed chessboard with 9x6 inner\n"
            "                 corners held in view (several poses, over --frames frames)\n"
            "  --frames N     frames read at most (default 300; 1 for a photo)\n"
            "  --serve A:P    show the grid in the web console (http://A:P/console?token=..):\n"
            "                 drag the four corners, accept; the profile is written then\n"
            "                 (with no board found, start from a guess to drag)\n"
            "  --serve-host NAMES  with --serve: the names (comma-separated) the console may\n"
            "                 be reached by besides the address (e.g. studio.local)\n"
            "  --timeout S    with --serve: give up after S seconds (default 600; 0 never);\n"
            "                 nothing is written then (exit 1), nor after Ctrl-C\n"
            "  --check        verify that PROFILE still fits the picture (the best of the\n"
            "                 first --frames frames, default 10)\n"
            "  exit 0 written / fits, 1 no board found / moved, 2 bad usage or input\n");
}

/* Next frame, skipping transient errors; CAP_EEOF at the end (or after too many errors). */
static int next_frame(cap_source_t *src, cap_frame_t *f)
{
    for (int tries = 0; tries < 20; tries++) {
        int rc = cap_source_next(src, f);
        if (rc == CAP_OK || rc == CAP_EEOF || rc == CAP_ESTOPPED)
            return rc;
    }
    return CAP_EEOF;
}

/* The grid, the read stones, numbered corners, the record's top edge and Black's side. */
static int write_overlay(const char *path, const cvb_image_t *frame, const cal_profile_t *p,
                         const vis_geom_t *g, const vis_snapshot_t *s)
{
    cvb_image_t img;
    if (cvb_image_copy(frame, &img))
        return -1;
    vis_draw(&img, g, s);
    double r = g->radius[0] > 3 ? g->radius[0] * 0.8 : 4;
    static const int col[4][3] = { { 0, 0, 255 }, { 0, 200, 0 }, { 255, 80, 0 }, { 0, 220, 255 } };
    int th = img.w > 1000 ? 3 : 2;
    cvb_draw_line(&img, g->corners[0][0], g->corners[0][1], g->corners[1][0], g->corners[1][1],
                  0, 0, 255, th + 2);
    /* Black's side: a line just outside the grid along that edge */
    static const double edge[4][4] = { { 0, 1, 1, 1 }, { 1, 0, 1, 1 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
    const double *e = edge[p->black_side];
    double S1 = g->size - 1, m = 0.6, b[2][2];
    for (int k = 0; k < 2; k++) {
        double bx = e[2 * k] * S1, by = e[2 * k + 1] * S1;
        bx += (p->black_side == VIS_SIDE_RIGHT) ? m : (p->black_side == VIS_SIDE_LEFT) ? -m : 0;
        by += (p->black_side == VIS_SIDE_BOTTOM) ? m : (p->black_side == VIS_SIDE_TOP) ? -m : 0;
        if (vis_homog_apply(g->H, bx, by, &b[k][0], &b[k][1]))
            b[k][0] = b[k][1] = NAN; /* at infinity: no line */
    }
    if (isfinite(b[0][0]) && isfinite(b[1][0]))
        cvb_draw_line(&img, b[0][0], b[0][1], b[1][0], b[1][1], 0, 0, 0, th + 3);
    for (int k = 0; k < 4; k++) {
        cvb_draw_circle(&img, g->corners[k][0], g->corners[k][1], r, col[k][0], col[k][1], col[k][2], -1);
        cvb_draw_circle(&img, g->corners[k][0], g->corners[k][1], r, 255, 255, 255, 1);
    }
    char why[160];
    int rc = cli_write_image(path, &img, 90, why, sizeof why);
    cvb_image_free(&img);
    return rc;
}

static int load_profile(const char *path, cal_profile_t *p)
{
    char err[256];
    int rc = cal_profile_load(path, p, err, sizeof err);
    if (rc) {
        cli_error("calibrate", "%s: %s", path, err);
        return -1;
    }
    return 0;
}

typedef struct {
    const char *input, *out, *calib, *debug, *corners_s, *lens_s, *serve, *serve_host;
    int size, rotate, black_side, frames, check;
    double timeout;
} args_t;

/* The check: the best fit over the first frames (a hand over the board in one frame does
 * not make the camera "moved"); stops at the first frame that fits. */
static int run_check(const args_t *a, const cal_profile_t *p, cap_source_t *src, int is_camera,
                     int nframes)
{
    cap_frame_t f;
    int rc = CAP_OK, seen = 0, fits = 0, exit_code = 0;
    double best = 0;
    cvb_image_t fixed = { 0 };
    cal_undistorter_t *u = NULL;
    for (int i = 0; rc == CAP_OK && !fits && seen < nframes; i++) {
        rc = next_frame(src, &f);
        if (rc != CAP_OK || (is_camera && i < CAMERA_SKIP))
            continue;
        seen++;
        const cvb_image_t *img = &f.img;
        if (p->has_lens) {
            if ((!u && cal_undistorter_create(p, f.img.w, f.img.h, &u)) ||
                cal_undistort(u, &f.img, &fixed)) {
                cli_error("calibrate", "%s: the profile's lens (%dx%d) does not fit %dx%d frames",
                          a->calib, p->image_w, p->image_h, f.img.w, f.img.h);
                exit_code = 2;
                break;
            }
            img = &fixed;
        }
        double fit = 0;
        if (cal_check(img, p, NULL, &fit, &fits)) {
            cli_error("calibrate", "%s: the profile (%dx%d) does not fit %dx%d frames", a->calib,
                      p->image_w, p->image_h, f.img.w, f.img.h);
            exit_code = 2;
            break;
        }
        best = fit > best ? fit : best;
    }
    cal_undistorter_destroy(u);
    cvb_image_free(&fixed);
    if (exit_code)
        return exit_code;
    if (!seen) {
        cli_error("calibrate", "%s: no frame to check (%s)", a->input, cap_strerror(rc));
        return 2;
    }
    printf("%s: grid fit %.3f (threshold %.3f, %.3f at calibration; %d frame%s)\n",
           fits ? "fits" : "moved", best, cal_fit_threshold(p, NULL), p->fit, seen,
           seen == 1 ? "" : "s");
    return fits ? 0 : 1;
}

/* Is this chessboard view new (its corners moved from every kept view by > 2% of w)? */
static int new_view(const double *views, int nviews, const double *pts, int n, int w)
{
    for (int v = 0; v < nviews; v++) {
        double d = 0;
        for (int i = 0; i < n; i++)
            d += hypot(views[(size_t)v * 2 * n + 2 * i] - pts[2 * i],
                       views[(size_t)v * 2 * n + 2 * i + 1] - pts[2 * i + 1]);
        if (d / n < 0.02 * w)
            return 0;
    }
    return 1;
}

static void print_profile(const cal_profile_t *p, const cal_calib_report_t *rep, int console)
{
    printf("board: %dx%d, %s (grid fit %.3f)\n", p->size, p->size,
           console ? "corners accepted in the console"
                   : rep->detected ? "found by the detector" : "from --corners", rep->fit);
    printf("corners: \"%.1f,%.1f;%.1f,%.1f;%.1f,%.1f;%.1f,%.1f\" (the record's top-left, "
           "top-right, bottom-right, bottom-left)\n",
           p->corners[0][0], p->corners[0][1], p->corners[1][0], p->corners[1][1],
           p->corners[2][0], p->corners[2][1], p->corners[3][0], p->corners[3][1]);
    printf("rotate: %d, black side: %s\n", p->rotate, cal_side_name(p->black_side));
    if (p->has_colors) {
        printf("colours (B,G,R): empty %.0f,%.0f,%.0f (%d points)", p->empty_bgr[0],
               p->empty_bgr[1], p->empty_bgr[2], p->color_n[0]);
        if (p->color_n[1])
            printf(", black %.0f,%.0f,%.0f (%d)", p->black_bgr[0], p->black_bgr[1],
                   p->black_bgr[2], p->color_n[1]);
        else
            printf(", no black stones");
        if (p->color_n[2])
            printf(", white %.0f,%.0f,%.0f (%d)", p->white_bgr[0], p->white_bgr[1],
                   p->white_bgr[2], p->color_n[2]);
        else
            printf(", no white stones");
        printf("\n");
        if (p->model_n[0] || p->model_n[1] || p->model_n[2])
            printf("colour model of this board fitted on %d empty points, %d black and %d white "
                   "stones (the reader combines it with what it learned)\n",
                   p->model_n[0], p->model_n[1], p->model_n[2]);
    } else {
        printf("colours: none learned (no sure empty point)\n");
    }
}

/* Calibrate the lens from the kept views; prints the figures. 0, or an exit code. */
static int do_lens(const double *views, int nviews, int cols, int rows, double square, int w,
                   int h, cal_profile_t *p)
{
    if (nviews < CAL_LENS_MIN_VIEWS) {
        cli_error("calibrate", "the %dx%d chessboard was seen in %d distinct frames (need %d)",
                  cols, rows, nviews, CAL_LENS_MIN_VIEWS);
        return 1;
    }
    int rc = cal_lens_calibrate(views, nviews, cols, rows, square, w, h, p);
    if (rc) {
        cli_error("calibrate", "the lens calibration failed (%s)", cal_strerror(rc));
        return 1;
    }
    int n = cols * rows;
    double *u = malloc(sizeof(double) * 2 * (size_t)n);
    if (!u)
        return 2;
    double b_rms = 0, b_max = 0, a_rms = 0, a_max = 0;
    for (int v = 0; v < nviews; v++) {
        double r1 = 0, m1 = 0, r2 = 0, m2 = 0;
        const double *pts = views + (size_t)v * 2 * n;
        if (cal_straightness(pts, cols, rows, &r1, &m1) ||
            cal_lens_undistort_points(p, pts, u, n) || cal_straightness(u, cols, rows, &r2, &m2))
            continue;
        b_rms += r1 * r1 / nviews;
        a_rms += r2 * r2 / nviews;
        b_max = m1 > b_max ? m1 : b_max;
        a_max = m2 > a_max ? m2 : a_max;
    }
    free(u);
    printf("lens: %d views of the %dx%d chessboard, fx %.1f fy %.1f cx %.1f cy %.1f, "
           "k1 %.4f k2 %.4f p1 %.5f p2 %.5f k3 %.4f, reprojection rms %.3f px\n",
           nviews, cols, rows, p->fx, p->fy, p->cx, p->cy, p->dist[0], p->dist[1], p->dist[2],
           p->dist[3], p->dist[4], p->lens_rms);
    printf("straightness (deviation of the chessboard's lines from straight lines): "
           "before rms %.3f px, max %.3f px; after rms %.3f px, max %.3f px\n",
           sqrt(b_rms), b_max, sqrt(a_rms), a_max);
    return 0;
}

static int parse_args(int argc, char **argv, args_t *a)
{
    memset(a, 0, sizeof *a);
    a->black_side = VIS_SIDE_BOTTOM;
    a->frames = -1;
    a->timeout = 600;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            usage(stdout);
            return 0;
        }
        int has = i + 1 < argc;
        char *end;
        if (!strcmp(s, "--check")) {
            a->check = 1;
        } else if (!strcmp(s, "--input") && has) {
            a->input = argv[++i];
        } else if (!strcmp(s, "--out") && has) {
            a->out = argv[++i];
        } else if (!strcmp(s, "--calib") && has) {
            a->calib = argv[++i];
        } else if (!strcmp(s, "--debug") && has) {
            a->debug = argv[++i];
        } else if (!strcmp(s, "--corners") && has) {
            a->corners_s = argv[++i];
        } else if (!strcmp(s, "--lens") && has) {
            a->lens_s = argv[++i];
        } else if (!strcmp(s, "--serve") && has) {
            a->serve = argv[++i];
        } else if (!strcmp(s, "--serve-host") && has) {
            a->serve_host = argv[++i];
        } else if (!strcmp(s, "--timeout") && has) {
            double v = strtod(argv[++i], &end);
            if (*end || !*argv[i] || !(v >= 0 && v <= 864000)) {
                cli_error("calibrate", "--timeout must be 0..864000 seconds, not '%s'", argv[i]);
                return 2;
            }
            a->timeout = v;
        } else if (!strcmp(s, "--size") && has) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 2 || v > VIS_MAX_SIZE) {
                cli_error("calibrate", "--size must be 2..%d (9, 13, 19), not '%s'", VIS_MAX_SIZE, argv[i]);
                return 2;
            }
            a->size = (int)v;
        } else if (!strcmp(s, "--rotate") && has) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || !*argv[i] || v < 0 || v > 3) {
                cli_error("calibrate", "--rotate must be 0, 1, 2 or 3, not '%s'", argv[i]);
                return 2;
            }
            a->rotate = (int)v;
        } else if (!strcmp(s, "--black-side") && has) {
            a->black_side = cal_side_from_name(argv[++i]);
            if (a->black_side < 0) {
                cli_error("calibrate", "--black-side must be bottom, top, left or right, not '%s'", argv[i]);
                return 2;
            }
        } else if (!strcmp(s, "--frames") && has) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 100000) {
                cli_error("calibrate", "--frames must be 1..100000, not '%s'", argv[i]);
                return 2;
            }
            a->frames = (int)v;
        } else {
            cli_error("calibrate", "unknown option or missing value: '%s' (see --help)", s);
            return 2;
        }
    }
    if (!a->input) {
        cli_error("calibrate", "--input SOURCE is required (see --help)");
        return 2;
    }
    if (a->check && !a->calib) {
        cli_error("calibrate", "--check needs --calib PROFILE");
        return 2;
    }
    if (a->check && a->serve) {
        cli_error("calibrate", "--serve shows the corners to calibrate: not with --check");
        return 2;
    }
    if (!a->out)
        a->out = "kifucam-profile.json";
    return -1;
}

/* ---- --serve: the console's corner editor ---- */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const cvb_image_t *img;     /* the frame calibrated on (read-only while serving) */
    const cal_calib_opts_t *o;
    cal_profile_t p;            /* the profile shown; replaced by an accepted one */
    cal_calib_report_t *rep;
    int accepted;
    int detected;               /* 1: the size was found by the detector (kept) */
    const char *out;
} serve_t;

/* The state the console reads: a "calibrate" object (web.h) and the board as read. */
static char *calib_state(const serve_t *s, int found, const char *saved)
{
    const cal_profile_t *p = &s->p;
    json_t *rows = json_array(), *corners = json_array();
    int n = p->size;
    for (int y = 0; y < n; y++) {
        char row[VIS_MAX_SIZE + 1];
        for (int x = 0; x < n; x++) {
            int c = s->rep->snap.size == n ? s->rep->snap.color[y * n + x] : GO_EMPTY;
            row[x] = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
        }
        row[n] = '\0';
        json_array_append_new(rows, json_string(row));
    }
    for (int k = 0; k < 4; k++)
        json_array_append_new(corners, json_pack("[f,f]", round(p->corners[k][0] * 10) / 10,
                                                 round(p->corners[k][1] * 10) / 10));
    json_t *cal = json_pack("{s:[i,i],s:i,s:o,s:b,s:s,s:f,s:i,s:s}", "image", p->image_w,
                            p->image_h, "size", n, "corners", corners, "found", found,
                            "from", !found ? "guess" : s->rep->detected ? "detector" : "corners",
                            "fit", round(s->rep->fit * 1000) / 1000, "rotate", p->rotate,
                            "profile", s->out);
    if (cal && saved)
        json_object_set_new(cal, "saved", json_string(saved));
    json_t *st = json_pack("{s:i,s:o,s:s,s:o}", "size", n, "board", rows, "phase", "calibrate",
                           "calibrate", cal);
    char *js = st ? json_dumps(st, JSON_COMPACT | JSON_REAL_PRECISION(8)) : NULL;
    json_decref(st);
    return js;
}

/* The console's actions while calibrating: only "corners" (checked by the server: four
 * pairs inside the frame, convex), in the record's order. */
static int on_calib_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    serve_t *s = user;
    if (strcmp(a->name, "corners") || !a->has_corners) {
        snprintf(msg, msglen, "calibrating: only the board's corners can be set now");
        return -1;
    }
    pthread_mutex_lock(&s->mu);
    int done = s->accepted;
    cal_profile_t p = s->p;
    pthread_mutex_unlock(&s->mu);
    if (done) {
        snprintf(msg, msglen, "already accepted: %s is being written", s->out);
        return -1;
    }
    /* the record's corners back to the view's order, so that rotate stays as it was */
    cal_calib_opts_t o = *s->o;
    o.have_corners = 1;
    o.size = s->o->size ? s->o->size : s->detected ? p.size : 0;   /* 0: guessed again */
    o.rotate = p.rotate;
    for (int j = 0; j < 4; j++) {
        o.corners[j][0] = a->corners[(j + p.rotate) % 4][0];
        o.corners[j][1] = a->corners[(j + p.rotate) % 4][1];
    }
    cal_calib_report_t *rep = calloc(1, sizeof *rep);
    if (!rep) {
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    int rc = cal_calibrate_frame(s->img, &o, &p, rep);
    if (rc) {
        char why[160] = "";
        cal_profile_t q = p;
        memcpy(q.corners, a->corners, sizeof q.corners);
        if (rc != CAL_EFIELD || cal_profile_validate(&q, why, sizeof why) == CAL_OK)
            snprintf(why, sizeof why, "%s", cal_strerror(rc));
        snprintf(msg, msglen, "these corners do not make a profile: %s", why);
        free(rep);
        return -1;
    }
    pthread_mutex_lock(&s->mu);
    s->p = p;
    *s->rep = *rep;
    s->accepted = 1;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    snprintf(msg, msglen, "accepted: grid fit %.3f, %d empty points sampled; writing %s", rep->fit,
             rep->n[0], s->out);
    free(rep);
    return 0;
}

/* Serve the frame and the grid, wait for the operator's corners. 0: *p and *rep hold the
 * accepted profile; else the exit code (1 timeout or Ctrl-C, 2 the server cannot start). */
static int serve_corners(const args_t *a, const cal_calib_opts_t *o, const cvb_image_t *img,
                         int found, cal_profile_t *p, cal_calib_report_t *rep)
{
    char addr[128];
    web_config_t wc;
    web_config_defaults(&wc);
    wc.hosts = a->serve_host;   /* names the pages may be reached by besides the address */
    if (web_config_parse_listen(&wc, a->serve, addr, sizeof addr)) {
        cli_error("calibrate", "--serve: '%s' is not ADDR:PORT", a->serve);
        return 2;
    }
    serve_t s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s.cv, &ca);
    pthread_condattr_destroy(&ca);
    s.img = img;
    s.o = o;
    s.p = *p;
    s.rep = rep;
    s.out = a->out;
    s.detected = found && rep->detected;
    int exit_code = 0;
    web_server_t *srv = NULL;
    uint8_t *jpg = NULL;
    size_t len = 0;
    char *js = calib_state(&s, found, NULL);
    int wrc = web_server_create(&wc, on_calib_action, &s, &srv);
    if (wrc) {
        cli_error("calibrate", "--serve %s: %s", a->serve, web_strerror(wrc));
        exit_code = 2;
        goto out;
    }
    if (!js || cvb_imencode_jpeg(img, 92, &jpg, &len) || web_server_publish_frame(srv, jpg, len) ||
        web_server_set_frame_size(srv, img->w, img->h) || web_server_publish_state(srv, js)) {
        cli_error("calibrate", "cannot publish the frame to the console");
        exit_code = 2;
        goto out;
    }
    int v6 = strchr(addr, ':') != NULL;
    cli_serve_catch(); /* a signal once the address is out: stopped, not killed */
    printf("console: http://%s%s%s:%d/console?token=%s\n", v6 ? "[" : "", addr, v6 ? "]" : "",
           web_server_port(srv), web_server_token(srv));
    printf("%s; drag the four corners onto the grid's corner intersections and accept "
           "(%s%.0f s, Ctrl-C to stop)\n",
           !found ? "no board found: the corners start at a guess"
                  : rep->detected ? "the grid found is shown" : "the grid of --corners is shown",
           a->timeout > 0 ? "waiting up to " : "no timeout", a->timeout > 0 ? a->timeout : 0);
    fflush(stdout);
    int w = cli_serve_wait(&s.mu, &s.cv, &s.accepted, a->timeout > 0 ? a->timeout : 0);
    if (w != 1) {
        cli_error("calibrate", "%s: nothing written", w == 0 ? "stopped" : "no corners accepted in time");
        exit_code = 1;
        goto out;
    }
    /* the callback no longer writes s.p once accepted */
    *p = s.p;
    free(js);
    js = calib_state(&s, 1, a->out);
    if (js)
        web_server_publish_state(srv, js);
    struct timespec pause = { 0, 300000000L };
    nanosleep(&pause, NULL);    /* the accepting request's answer and the last state go out */
out:
    web_server_destroy(srv);
    free(js);
    free(jpg);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
    return exit_code;
}

int cmd_calibrate(int argc, char **argv)
{
    args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    cal_calib_opts_t o;
    cal_calib_opts_defaults(&o);
    o.size = a.size;
    o.rotate = a.rotate;
    o.black_side = (vis_side_t)a.black_side;
    if (a.corners_s) {
        if (cal_parse_corners(a.corners_s, o.corners)) {
            cli_error("calibrate", "--corners must be \"x1,y1;x2,y2;x3,y3;x4,y4\", not '%s'", a.corners_s);
            return 2;
        }
        o.have_corners = 1;
    }
    int cols = 0, rows = 0;
    double square = 1;
    if (a.lens_s && cal_lens_parse_pattern(a.lens_s, &cols, &rows, &square)) {
        cli_error("calibrate", "--lens must be COLSxROWS[:SQUARE] (inner corners, 2..50), not '%s'", a.lens_s);
        return 2;
    }
    cli_debug_t dctx = { a.debug, 0 };
    if (a.debug && mkdir(a.debug, 0777) && errno != EEXIST) {
        cli_error("calibrate", "%s: cannot create the debug folder: %s", a.debug, strerror(errno));
        return 2;
    }
    cal_profile_t prev;
    if (a.check) {
        /* read the profile before the source: a bad profile is the error to report */
        if (load_profile(a.calib, &prev))
            return 2;
    }
    cap_source_t *src = NULL;
    rc = cap_source_open(a.input, NULL, &src);
    if (rc) {
        char why[256] = "";
        if (rc == CAP_ETOOBIG)   /* the image-size guard's reason: the size it read */
            cap_image_size(a.input, NULL, NULL, why, sizeof why);
        cli_error("calibrate", "%s: cannot open the input (%s)", a.input,
                  why[0] ? why : cap_strerror(rc));
        return 2;
    }
    cap_info_t info;
    memset(&info, 0, sizeof info);
    cap_source_info(src, &info);
    int is_camera = info.kind == CAP_KIND_CAMERA;
    if (a.check) {
        rc = run_check(&a, &prev, src, is_camera,
                       a.frames > 0 ? a.frames : info.kind == CAP_KIND_IMAGE ? 1 : 10);
        cap_source_close(src);
        return rc;
    }
    int max_frames = a.frames > 0 ? a.frames : info.kind == CAP_KIND_IMAGE ? 1 : 300;

    vis_config_t cfg;
    vis_config_defaults(&cfg);
    if (a.debug) {
        cfg.debug = cli_debug_write;
        cfg.debug_ctx = &dctx;
    }
    o.vis = &cfg;
    cal_profile_t p;
    memset(&p, 0, sizeof p);
    cal_calib_report_t *rep = calloc(1, sizeof *rep);
    int n = cols * rows, nviews = 0, ncands = 0, last_cand = -CAND_STRIDE, nread = 0, found = 0;
    double *views = a.lens_s ? malloc(sizeof(double) * 2 * (size_t)n * MAX_VIEWS) : NULL;
    double *pts = a.lens_s ? malloc(sizeof(double) * 2 * (size_t)n) : NULL;
    cvb_image_t cands[MAX_CANDS], board = { 0 }, first = { 0 };
    int fw = 0, fh = 0, exit_code = 0, last_err = CAL_ENOBOARD;
    memset(cands, 0, sizeof cands);
    if (!rep || (a.lens_s && (!views || !pts))) {
        cli_error("calibrate", "out of memory");
        exit_code = 2;
        goto out;
    }
    for (int i = 0; i < max_frames + (is_camera ? CAMERA_SKIP : 0); i++) {
        cap_frame_t f;
        rc = next_frame(src, &f);
        if (rc != CAP_OK)
            break;
        if (is_camera && i < CAMERA_SKIP)
            continue;
        if (nread && (f.img.w != fw || f.img.h != fh))
            continue; /* a folder with frames of another size */
        fw = f.img.w;
        fh = f.img.h;
        int idx = nread++;
        if (a.serve && !a.lens_s && !first.data && cvb_image_copy(&f.img, &first)) {
            cli_error("calibrate", "out of memory");
            exit_code = 2;
            goto out;
        }
        if (a.lens_s) {
            int seen = 0;
            if (cal_lens_find(&f.img, cols, rows, pts, &seen) == CAL_OK && seen) {
                if (nviews < MAX_VIEWS && new_view(views, nviews, pts, n, fw))
                    memcpy(views + (size_t)nviews++ * 2 * n, pts, sizeof(double) * 2 * n);
            } else if (ncands < MAX_CANDS && idx - last_cand >= CAND_STRIDE) {
                if (cvb_image_copy(&f.img, &cands[ncands]) == 0) {
                    ncands++;
                    last_cand = idx;
                }
            }
            continue;
        }
        if (idx % DETECT_STRIDE && !o.have_corners)
            continue;
        rc = cal_calibrate_frame(&f.img, &o, &p, rep);
        if (rc == CAL_OK) {
            found = 1;
            cvb_image_copy(&f.img, &board);
            break;
        }
        last_err = rc;
        if (rc != CAL_ENOBOARD)
            break;
    }
    if (!nread) {
        cli_error("calibrate", "%s: no frame could be read", a.input);
        exit_code = 2;
        goto out;
    }
    if (a.lens_s) {
        exit_code = do_lens(views, nviews, cols, rows, square, fw, fh, &p);
        if (exit_code)
            goto out;
        p.image_w = fw;
        p.image_h = fh;
        cal_undistorter_t *u = NULL;
        if (cal_undistorter_create(&p, fw, fh, &u)) {
            cli_error("calibrate", "cannot correct %dx%d frames with this lens", fw, fh);
            exit_code = 2;
            goto out;
        }
        for (int k = 0; k < ncands && !found; k++) {
            if (cal_undistort(u, &cands[k], &board))
                continue;
            rc = cal_calibrate_frame(&board, &o, &p, rep);
            if (rc == CAL_OK)
                found = 1;
            else
                last_err = rc;
        }
        cal_undistorter_destroy(u);
        if (!ncands)
            cli_error("calibrate", "every frame shows the chessboard: show the board alone too");
    }
    if (!found && a.serve && last_err == CAL_ENOBOARD && (board.data || first.data)) {
        /* nothing found: the operator drags the corners from a guess (10% margins) */
        const cvb_image_t *img = board.data ? &board : &first;
        cal_profile_t keep = p;
        cal_profile_defaults(&p, a.size ? a.size : 19, img->w, img->h);
        if (keep.has_lens) {
            p.has_lens = 1;
            p.fx = keep.fx;
            p.fy = keep.fy;
            p.cx = keep.cx;
            p.cy = keep.cy;
            memcpy(p.dist, keep.dist, sizeof p.dist);
            p.lens_rms = keep.lens_rms;
        }
        p.rotate = o.rotate;
        p.black_side = o.black_side;
        memset(rep, 0, sizeof *rep);
        if (!board.data) {
            board = first;
            memset(&first, 0, sizeof first);
        }
        exit_code = serve_corners(&a, &o, &board, 0, &p, rep);
        if (exit_code)
            goto out;
        found = 2;      /* from the console */
    } else if (found && a.serve) {
        exit_code = serve_corners(&a, &o, &board, 1, &p, rep);
        if (exit_code)
            goto out;
        found = 2;
    }
    if (!found) {
        if (last_err == CAL_ENOBOARD) {
            cli_error("calibrate", "%s: no board found in %d frame%s", a.input, nread, nread == 1 ? "" : "s");
            exit_code = 1;
        } else if (o.have_corners && last_err == CAL_EFIELD) {
            /* say which corner and why, as the profile reader would */
            cal_profile_t q;
            char why[200] = "";
            cal_profile_defaults(&q, o.size ? o.size : 2, fw, fh);
            memcpy(q.corners, o.corners, sizeof q.corners);
            if (cal_profile_validate(&q, why, sizeof why) == CAL_OK)
                snprintf(why, sizeof why, "they do not make a board grid in the %dx%d frame", fw, fh);
            cli_error("calibrate", "--corners: %s (give the grid's corner intersections in pixels of the %dx%d frame)",
                      why, fw, fh);
            exit_code = 2;
        } else {
            cli_error("calibrate", "%s: calibration failed (%s)", a.input, cal_strerror(last_err));
            exit_code = 2;
        }
        goto out;
    }
    char err[256];
    rc = cal_profile_save(a.out, &p, err, sizeof err);
    if (rc) {
        cli_error("calibrate", "%s: %s", a.out, err);
        exit_code = 2;
        goto out;
    }
    print_profile(&p, rep, found == 2);
    char png[4096];
    if (a.debug)
        snprintf(png, sizeof png, "%s/calibrate.png", a.debug);
    else
        snprintf(png, sizeof png, "%s.png", a.out);
    if (write_overlay(png, &board, &p, &rep->geom, &rep->snap))
        cli_error("calibrate", "%s: cannot write the overlay image", png);
    if (dctx.failed)
        cli_error("calibrate", "%s: some debug images could not be written", a.debug);
    if (found == 2)
        printf("wrote %s with the corners accepted in the console; the grid drawn in %s\n", a.out, png);
    else
        printf("wrote %s; check the grid in %s (correct it with --corners or --serve)\n", a.out, png);
out:
    for (int k = 0; k < MAX_CANDS; k++)
        cvb_image_free(&cands[k]);
    cvb_image_free(&board);
    cvb_image_free(&first);
    free(views);
    free(pts);
    free(rep);
    cap_source_close(src);
    return exit_code;
}
