/* rnd_run.c: options, truth file and run loop of the footage command (rnd_run.h).
 *
 * The truth file (DIR/truth.txt, format in samples/README.md) is written as the frames
 * are: header lines, then per frame its events and one `frame` line with the camera
 * geometry (the four corner intersections in pixels), the record's position, the stones
 * physically on the board and the points a hand hides.
 */
#include "render/rnd_run.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "render/rnd_game.h"
#include "render/rnd_timeline.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void rnd_opts_defaults(rnd_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->width = 1280;
    o->height = 720;
    o->fps = 30;
    o->view = RND_VIEW_STEEP;
    o->light = RND_LIGHT_WARM;
    o->hands = 1;
    o->moves = -1;
    o->quality = 88;
    o->pace = 1.0;
    o->cb_square = 25;
}

const char *rnd_usage(void)
{
    return "usage: kifucam-render GAME.sgf --out DIR [options]   (also: kifucam render ...)\n"
           "Render footage of a game on a physical board filmed by a webcam, with its truth.\n"
           "\n"
           "  --out DIR          output folder: frame_NNNNNN.jpg and truth.txt (created)\n"
           "  --video FILE       also write a video (.avi: MJPG, .mp4: mp4v)\n"
           "  --seed N           scene, camera, light colour, pace... (default 1)\n"
           "  --size WxH         frame size (default 1280x720)\n"
           "  --fps N            frame rate, 1..240 (default 30)\n"
           "  --view V           above | steep | side (camera elevation ~83, ~66, ~47 deg;\n"
           "                     default steep)\n"
           "  --light L          warm | cool | daylight | blue | green | pink | yellow |\n"
           "                     uneven | shadow (default: warm, cool or daylight by seed)\n"
           "  --table T          wood | cloth | pale | grey | dark: force the table (the rest\n"
           "                     of the scene stays the seed's; default: from the seed)\n"
           "  --hands on|off     hands bring the stones (default on)\n"
           "  --moves N          play only the first N moves of the record\n"
           "  --end E            none | pass (both pass, dead stones lifted, end signals)\n"
           "                     | resign (two own stones at the corner) | auto (as the\n"
           "                     record's RE[] says, when all its moves are played)\n"
           "                     (default none)\n"
           "  --still            only the final position (after the --end sequence), one\n"
           "                     image without hands: DIR/still.png\n"
           "  --format F         jpg | png for the frames (default jpg)\n"
           "  --quality N        JPEG quality 1..100 (default 88)\n"
           "  --clean            no noise, shake, blur, exposure drift or lens distortion\n"
           "  --pace X           scale the pauses between moves (default 1: human pace)\n"
           "  --chessboard CxR[:MM]  instead of the game, a lens-calibration clip of the\n"
           "                     same scene (same seed: same camera and lens): a printed\n"
           "                     chessboard with CxR inner corners (squares of MM mm,\n"
           "                     default 25) held in 15 poses over the picture, 2 frames\n"
           "                     each, then 6 frames of the board alone (the position\n"
           "                     after --moves N moves, as --still shows it)\n"
           "  --help             this text\n";
}

static void seterr(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* "WxH", each 64..8192, into *w and *h. 0 on success, -1 (nothing written) otherwise. */
static int parse_size(const char *s, int *w, int *h)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (end == s || *end != 'x' || errno)
        return -1;
    const char *t = end + 1;
    long b = strtol(t, &end, 10);
    if (end == t || *end || errno || a < 64 || b < 64 || a > 8192 || b > 8192)
        return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

int rnd_opts_parse(int argc, char **argv, rnd_opts_t *o, int *help, char *err, size_t errlen)
{
    rnd_opts_defaults(o);
    *help = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = 1;
            return RND_OK;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (a[0] != '-' || !a[1]) {
            if (o->sgf) {
                seterr(err, errlen, "unexpected argument '%s' (one GAME.sgf only)", a);
                return RND_EINVAL;
            }
            o->sgf = a;
            continue;
        }
        /* the two flags; every other option takes a value */
        if (!strcmp(a, "--still")) {
            o->still = 1;
            continue;
        }
        if (!strcmp(a, "--clean")) {
            o->clean = 1;
            continue;
        }
        if (!v) {
            seterr(err, errlen, "option %s needs a value", a);
            return RND_EINVAL;
        }
        if (!strcmp(a, "--out")) {
            o->out = v;
        } else if (!strcmp(a, "--video")) {
            o->video = v;
        } else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(v, &end, 10);
            if (errno || *end || !*v || v[0] == '-') {
                seterr(err, errlen, "bad --seed '%s' (a number >= 0)", v);
                return RND_EINVAL;
            }
            o->seed = s;
        } else if (!strcmp(a, "--size")) {
            int w, h;
            if (parse_size(v, &w, &h)) {
                seterr(err, errlen, "bad --size '%s' (WxH, 64..8192 each)", v);
                return RND_EINVAL;
            }
            o->width = w;
            o->height = h;
        } else if (!strcmp(a, "--fps")) {
            if (parse_int(v, 1, 240, &n)) {
                seterr(err, errlen, "bad --fps '%s' (1..240)", v);
                return RND_EINVAL;
            }
            o->fps = (int)n;
        } else if (!strcmp(a, "--view")) {
            if (rnd_view_parse(v, &o->view)) {
                seterr(err, errlen, "bad --view '%s' (above, steep or side)", v);
                return RND_EINVAL;
            }
        } else if (!strcmp(a, "--light")) {
            if (rnd_light_parse(v, &o->light)) {
                seterr(err, errlen,
                       "bad --light '%s' (warm, cool, daylight, blue, green, pink, yellow, uneven, shadow)", v);
                return RND_EINVAL;
            }
            o->light_set = 1;
        } else if (!strcmp(a, "--table")) {
            int t;
            if (rnd_table_parse(v, &t)) {
                seterr(err, errlen, "bad --table '%s' (wood, cloth, pale, grey or dark)", v);
                return RND_EINVAL;
            }
            o->table = t + 1;
        } else if (!strcmp(a, "--hands")) {
            if (strcmp(v, "on") && strcmp(v, "off")) {
                seterr(err, errlen, "bad --hands '%s' (on or off)", v);
                return RND_EINVAL;
            }
            o->hands = !strcmp(v, "on");
        } else if (!strcmp(a, "--moves")) {
            if (parse_int(v, 0, 100000, &n)) {
                seterr(err, errlen, "bad --moves '%s' (0..100000)", v);
                return RND_EINVAL;
            }
            o->moves = (int)n;
        } else if (!strcmp(a, "--end")) {
            if (!strcmp(v, "none"))
                o->end = 0;
            else if (!strcmp(v, "pass"))
                o->end = 1;
            else if (!strcmp(v, "resign"))
                o->end = 2;
            else if (!strcmp(v, "auto"))
                o->end = 3;
            else {
                seterr(err, errlen, "bad --end '%s' (none, pass, resign or auto)", v);
                return RND_EINVAL;
            }
        } else if (!strcmp(a, "--format")) {
            if (strcmp(v, "jpg") && strcmp(v, "png")) {
                seterr(err, errlen, "bad --format '%s' (jpg or png)", v);
                return RND_EINVAL;
            }
            o->png = !strcmp(v, "png");
        } else if (!strcmp(a, "--quality")) {
            if (parse_int(v, 1, 100, &n)) {
                seterr(err, errlen, "bad --quality '%s' (1..100)", v);
                return RND_EINVAL;
            }
            o->quality = (int)n;
        } else if (!strcmp(a, "--chessboard")) {
            char *end;
            errno = 0;
            long c = strtol(v, &end, 10), r = 0;
            double sq = 25;
            int ok = end != v && *end == 'x' && !errno;
            if (ok) {
                const char *t = end + 1;
                r = strtol(t, &end, 10);
                ok = end != t && (*end == 0 || *end == ':');
                if (ok && *end == ':') {
                    const char *q = end + 1;
                    sq = strtod(q, &end);
                    ok = end != q && !*end;
                }
            }
            if (!ok || c < 2 || c > 50 || r < 2 || r > 50 || !(sq >= 1 && sq <= 500)) {
                seterr(err, errlen, "bad --chessboard '%s' (COLSxROWS[:MM]: inner corners 2..50, square 1..500 mm)", v);
                return RND_EINVAL;
            }
            o->cb_cols = (int)c;
            o->cb_rows = (int)r;
            o->cb_square = sq;
        } else if (!strcmp(a, "--pace")) {
            char *end;
            double p = strtod(v, &end);
            if (*end || !*v || !(p >= 0.01 && p <= 100)) {
                seterr(err, errlen, "bad --pace '%s' (0.01..100)", v);
                return RND_EINVAL;
            }
            o->pace = p;
        } else {
            seterr(err, errlen, "unknown option '%s' (--help lists them)", a);
            return RND_EINVAL;
        }
        i++;
    }
    if (!o->sgf) {
        seterr(err, errlen, "no GAME.sgf given (--help for usage)");
        return RND_EINVAL;
    }
    if (!o->out) {
        seterr(err, errlen, "no --out DIR given");
        return RND_EINVAL;
    }
    if (o->cb_cols && o->still) {
        seterr(err, errlen, "--chessboard renders its own clip: not with --still");
        return RND_EINVAL;
    }
    return RND_OK;
}

/* ---------------------------------------------------------------- the run */
static void board_text(const uint8_t *pos, int n, char *out)
{
    char *p = out;
    for (int y = 0; y < n; y++) {
        if (y)
            *p++ = '/';
        for (int x = 0; x < n; x++) {
            uint8_t c = pos[y * n + x];
            *p++ = c == 1 ? 'X' : c == 2 ? 'O' : '.';
        }
    }
    *p = 0;
}

static void sgf_pt(int p, int n, char out[3])
{
    out[0] = (char)('a' + p % n);
    out[1] = (char)('a' + p / n);
    out[2] = 0;
}

/* The folder path, with its missing parents (as mkdir -p); 0 when it is a folder. */
static int make_dir(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return S_ISDIR(st.st_mode) ? 0 : -1;
    if (mkdir(path, 0777) == 0)
        return 0;
    if (errno != ENOENT)
        return -1;
    char parent[4096];
    size_t n = strlen(path);
    if (n >= sizeof parent)
        return -1;
    memcpy(parent, path, n + 1);
    while (n > 1 && parent[n - 1] == '/') /* trailing slashes */
        parent[--n] = 0;
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent)
        return -1;
    *slash = 0;
    if (make_dir(parent))
        return -1;
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

typedef struct {
    const rnd_opts_t *o;
    rnd_renderer_t *r;
    const rnd_geometry_t *geo;
    FILE *truth;
    cvb_writer_t *vw;
    cvb_image_t img;
    uint8_t *mask;
    char *path;
    size_t pathlen;
    char *line;
    int cb_pose;          /* the chessboard's pose in this frame, -1 none */
} run_t;

/* One frame: render, write the image, the video frame and the truth line. */
static int emit_frame(run_t *R, int f, const rnd_tl_state_t *s, const rnd_hand_t *hand,
                      const rnd_frame_fx_t *fx, char *err, size_t errlen)
{
    const rnd_opts_t *o = R->o;
    int nh = hand && hand->active ? 1 : 0;
    int rc = rnd_renderer_frame(R->r, fx, hand, nh, &R->img, nh ? R->mask : NULL);
    if (rc)
        return rc;
    const char *ext = o->png || o->still ? "png" : "jpg";
    if (o->still)
        snprintf(R->path, R->pathlen, "%s/still.png", o->out);
    else
        snprintf(R->path, R->pathlen, "%s/frame_%06d.%s", o->out, f, ext);
    if (cvb_imwrite(R->path, &R->img, o->png || o->still ? 0 : o->quality) != CVB_OK) {
        seterr(err, errlen, "%s: cannot write the frame", R->path);
        return RND_EOUTPUT;
    }
    if (R->vw && cvb_writer_write(R->vw, &R->img) != CVB_OK) {
        seterr(err, errlen, "%s: cannot write a video frame", o->video);
        return RND_EOUTPUT;
    }
    int n = R->geo->size;
    double cx[4], cy[4];
    static const int cc[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    for (int k = 0; k < 4; k++) {
        double w[3];
        rnd_renderer_point_world(R->r, cc[k][0] * (n - 1), cc[k][1] * (n - 1), &w[0], &w[1]);
        w[2] = R->geo->top;
        if (rnd_renderer_project(R->r, w, fx->shake_x, fx->shake_y, &cx[k], &cy[k]))
            cx[k] = cy[k] = -1;
    }
    /* the same corners raised by half a stone: where stones' centres appear */
    double sx[4], sy[4];
    for (int k = 0; k < 4; k++) {
        double w[3];
        rnd_renderer_point_world(R->r, cc[k][0] * (n - 1), cc[k][1] * (n - 1), &w[0], &w[1]);
        w[2] = R->geo->top + R->geo->stone_h * 0.5;
        if (rnd_renderer_project(R->r, w, fx->shake_x, fx->shake_y, &sx[k], &sy[k]))
            sx[k] = sy[k] = -1;
    }
    char rec[25 * 26 + 1], shown[25 * 26 + 1];
    board_text(s->record, n, rec);
    board_text(s->shown, n, shown);
    const char *base = strrchr(R->path, '/');
    base = base ? base + 1 : R->path;
    fprintf(R->truth,
            "frame %d file=%s t=%.3f move=%d hand=%d shake=%d,%d corners=%.2f,%.2f;%.2f,%.2f;%.2f,%.2f;%.2f,%.2f "
            "stone_corners=%.2f,%.2f;%.2f,%.2f;%.2f,%.2f;%.2f,%.2f record=%s shown=%s",
            f, base, (double)f / o->fps, s->moves, nh, fx->shake_x, fx->shake_y, cx[0], cy[0], cx[1], cy[1], cx[2],
            cy[2], cx[3], cy[3], sx[0], sy[0], sx[1], sy[1], sx[2], sy[2], sx[3], sy[3], rec, shown);
    if (s->bumped >= 0) {
        char p[3];
        sgf_pt(s->bumped, n, p);
        fprintf(R->truth, " bumped=%s:%+.2f,%+.2f", p, s->bump_dx, s->bump_dy);
    } else {
        fputs(" bumped=-", R->truth);
    }
    /* points hidden by a hand: the centre of the point's stone is under hand pixels */
    fputs(" occluded=", R->truth);
    int nocc = 0;
    if (nh) {
        for (int p = 0; p < n * n; p++) {
            double w[3], px, py;
            int col = p % n, row = p / n;
            rnd_renderer_point_world(R->r, col, row, &w[0], &w[1]);
            w[2] = R->geo->top + R->geo->stone_h * 0.5;
            if (rnd_renderer_project(R->r, w, fx->shake_x, fx->shake_y, &px, &py))
                continue;
            int ix = (int)lround(px), iy = (int)lround(py);
            if (ix < 0 || iy < 0 || ix >= o->width || iy >= o->height)
                continue;
            if (R->mask[(size_t)iy * o->width + ix]) {
                char q[3];
                sgf_pt(p, n, q);
                fprintf(R->truth, "%s%s", nocc++ ? "," : "", q);
            }
        }
    }
    if (!nocc)
        fputc('-', R->truth);
    if (o->cb_cols) {
        if (R->cb_pose >= 0)
            fprintf(R->truth, " chessboard=%d", R->cb_pose);
        else
            fputs(" chessboard=-", R->truth);
    }
    fputc('\n', R->truth);
    return ferror(R->truth) ? RND_EOUTPUT : RND_OK;
}

static void write_event(FILE *t, const rnd_event_t *e, int n)
{
    fprintf(t, "event %d %s", e->frame, rnd_event_name(e->kind));
    if (e->move)
        fprintf(t, " move=%d", e->move);
    if (e->color)
        fprintf(t, " color=%c", e->color == 1 ? 'B' : 'W');
    if (e->point >= 0 && e->kind != RND_EV_HAND_IN && e->kind != RND_EV_HAND_OUT) {
        char p[3];
        sgf_pt(e->point, n, p);
        fprintf(t, " point=%s", p);
    }
    if (e->kind == RND_EV_BUMP)
        fprintf(t, " dx=%+.2f dy=%+.2f", e->dx, e->dy);
    if (e->kind == RND_EV_SIGNAL || e->kind == RND_EV_UNSIGNAL)
        fprintf(t, " x=%.1f y=%.1f", e->wx, e->wy);
    fputc('\n', t);
}

int rnd_exit_code(int rc)
{
    return rc == RND_OK ? 0 : rc == RND_EOUTPUT || rc == RND_ENOMEM ? 1 : 2;
}

/* The lens-calibration clip: the final position of the moves played (as --still), with
 * the chessboard held in RND_CB_POSES poses, then the board alone; the exposure drift and
 * sensor noise of the footage, no shake (a camera on a stand). Truth lines as for the
 * game, with "chessboard=K" (the pose) or "chessboard=-". */
static int run_chessboard(run_t *R, const rnd_timeline_t *tl, const rnd_game_t *g, rnd_stone_t *stones,
                          char *err, size_t errlen)
{
    const rnd_opts_t *o = R->o;
    rnd_tl_state_t st;
    rnd_timeline_state_init(&st, g);
    for (int f = 0; f < tl->nframes; f++)
        rnd_timeline_state_step(&st, tl, f);
    st.bumped = -1;
    int ns = rnd_timeline_stones(&st, R->geo, stones);
    int rc = rnd_renderer_set_stones(R->r, stones, ns);
    int n = RND_CB_POSES * RND_CB_HOLD + RND_CB_PLAIN;
    for (int f = 0; f < n && !rc; f++) {
        int pose = f < RND_CB_POSES * RND_CB_HOLD ? f / RND_CB_HOLD : -1;
        if (pose >= 0 && f % RND_CB_HOLD == 0) {
            rnd_chessboard_t cb;
            rc = rnd_renderer_chessboard_pose(R->r, pose, RND_CB_POSES, o->cb_cols, o->cb_rows,
                                              o->cb_square, &cb);
            if (rc) {
                seterr(err, errlen, "the %dx%d chessboard of %.0f mm does not fit in view", o->cb_cols,
                       o->cb_rows, o->cb_square);
                break;
            }
            rc = rnd_renderer_set_chessboard(R->r, &cb);
        } else if (pose < 0) {
            rc = rnd_renderer_set_chessboard(R->r, NULL);
        }
        if (rc)
            break;
        R->cb_pose = pose;
        rnd_frame_fx_t fx;
        memset(&fx, 0, sizeof fx);
        double t = (double)f / o->fps;
        fx.gain = o->clean ? 1 : 1 + 0.03 * sin(2 * M_PI * t / 7.0 + (double)(o->seed % 7));
        fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
        fx.noise_phase = o->clean ? 0 : (uint64_t)f * 7919u + o->seed;
        rc = emit_frame(R, f, &st, NULL, &fx, err, errlen);
    }
    return rc;
}

int rnd_run(const rnd_opts_t *o, rnd_progress_fn fn, void *ctx, char *err, size_t errlen)
{
    if (!o || !o->sgf || !o->out)
        return RND_EINVAL;
    if (err && errlen)
        err[0] = 0;
    rnd_game_t g;
    int rc = rnd_game_from_sgf(&g, o->sgf, o->moves, err, errlen);
    if (rc)
        return rc;
    run_t R;
    memset(&R, 0, sizeof R);
    R.o = o;
    rnd_timeline_t tl;
    memset(&tl, 0, sizeof tl);
    rnd_stone_t *stones = NULL;
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = o->width;
    so.height = o->height;
    so.size = g.size;
    so.view = o->view;
    so.seed = o->seed;
    so.noise = !o->clean;
    so.distortion = !o->clean;
    so.table = o->table;
    so.signal_corners = o->end != 0;   /* an --end puts signal stones beside the corners */
    if (o->light_set) {
        so.light = o->light;
    } else {
        static const rnd_light_t pick[3] = { RND_LIGHT_WARM, RND_LIGHT_COOL, RND_LIGHT_DAYLIGHT };
        so.light = pick[(o->seed * 2654435761u >> 7) % 3];
    }
    if (make_dir(o->out)) {
        seterr(err, errlen, "%s: cannot create the output folder", o->out);
        rc = RND_EOUTPUT;
        goto done;
    }
    R.pathlen = strlen(o->out) + 64;
    R.path = malloc(R.pathlen);
    stones = malloc((size_t)(25 * 25 + 8) * sizeof *stones);
    R.mask = malloc((size_t)o->width * o->height);
    if (!R.path || !stones || !R.mask) {
        rc = RND_ENOMEM;
        goto done;
    }
    rc = rnd_renderer_create(&so, &R.r);
    if (rc)
        goto done;
    R.geo = rnd_renderer_geometry(R.r);
    if (cvb_image_alloc(&R.img, o->width, o->height, 3) != CVB_OK) {
        rc = RND_ENOMEM;
        goto done;
    }
    int end = o->end, loser = 0;
    if (end == 3) { /* auto: the record's result, when the whole record is played */
        int all = o->moves < 0 || o->moves >= g.record_moves;
        end = 0;
        if (all && g.result_end == 1)
            end = 1;
        else if (all && g.result_end == 2) {
            end = 2;
            loser = g.result_loser;
        }
    }
    if (end == 1)
        rnd_game_propose_dead(&g);
    rnd_timeline_opts_t to;
    rnd_timeline_opts_defaults(&to);
    to.fps = o->fps;
    to.hands = o->hands && !o->still;
    to.end = end;
    to.loser = loser;
    to.pace = o->pace;
    to.seed = o->seed;
    rc = rnd_timeline_build(&tl, &g, R.geo, &to);
    if (rc)
        goto done;
    snprintf(R.path, R.pathlen, "%s/truth.txt", o->out);
    R.truth = fopen(R.path, "w");
    if (!R.truth) {
        seterr(err, errlen, "%s: cannot write", R.path);
        rc = RND_EOUTPUT;
        goto done;
    }
    if (o->video && !o->still &&
        cvb_writer_open(o->video, o->fps, o->width, o->height, &R.vw) != CVB_OK) {
        seterr(err, errlen, "%s: cannot open the video for writing", o->video);
        rc = RND_EOUTPUT;
        goto done;
    }
    int nframes = o->still ? 1 : o->cb_cols ? RND_CB_POSES * RND_CB_HOLD + RND_CB_PLAIN : tl.nframes;
    fprintf(R.truth, "kifucam-render truth 1\n");
    fprintf(R.truth, "source %s\n", o->sgf);
    fprintf(R.truth, "seed %llu\n", (unsigned long long)o->seed);
    fprintf(R.truth, "size %d\n", g.size);
    fprintf(R.truth, "image %d %d\n", o->width, o->height);
    fprintf(R.truth, "fps %d\n", o->fps);
    fprintf(R.truth, "view %s\n", rnd_view_name(o->view));
    fprintf(R.truth, "light %s\n", rnd_light_name(so.light));
    if (o->table) /* only when forced: the truth of every other run stays as it was */
        fprintf(R.truth, "table %s\n", rnd_table_name(rnd_renderer_table(R.r)));
    fprintf(R.truth, "hands %s\n", to.hands ? "on" : "off");
    fprintf(R.truth, "end %s\n", to.end == 1 ? "pass" : to.end == 2 ? "resign" : "none");
    fprintf(R.truth, "moves %d\n", g.nmoves);
    fprintf(R.truth, "frames %d\n", nframes);
    if (o->cb_cols)
        fprintf(R.truth, "chessboard %dx%d square=%.1f poses=%d hold=%d plain=%d\n", o->cb_cols, o->cb_rows,
                o->cb_square, RND_CB_POSES, RND_CB_HOLD, RND_CB_PLAIN);
    fprintf(R.truth, "geometry elevation=%.1f top=%.1f dx=%.2f dy=%.2f half_w=%.1f half_h=%.1f stone_r=%.2f stone_h=%.2f camera=%.0f,%.0f,%.0f\n",
            R.geo->elevation_deg, R.geo->top, R.geo->dx, R.geo->dy, R.geo->half_w, R.geo->half_h,
            R.geo->stone_r, R.geo->stone_h, R.geo->cam[0], R.geo->cam[1], R.geo->cam[2]);
    fprintf(R.truth, "lens f=%.2f cx=%.2f cy=%.2f k1=%.5f k2=%.5f\n", R.geo->focal, R.geo->cx, R.geo->cy,
            R.geo->k1, R.geo->k2);
    R.cb_pose = -1;
    if (o->cb_cols) {
        rc = run_chessboard(&R, &tl, &g, stones, err, errlen);
        if (fn)
            fn(ctx, nframes, nframes);
        goto done;
    }

    rnd_tl_state_t st;
    rnd_timeline_state_init(&st, &g);
    rnd_rng_t rng;
    rnd_rng_seed(&rng, o->seed ^ 0xf8a3e5ull);
    double ph1 = rnd_rng_range(&rng, 0, 6.28), ph2 = rnd_rng_range(&rng, 0, 6.28);
    double per1 = rnd_rng_range(&rng, 5, 11), per2 = rnd_rng_range(&rng, 13, 29);
    double wbph[3] = { rnd_rng_range(&rng, 0, 6.28), rnd_rng_range(&rng, 0, 6.28), rnd_rng_range(&rng, 0, 6.28) };
    double ae = 0;
    int shx = 0, shy = 0, burst = 0;
    if (o->still) {
        /* the final position: apply every event at once */
        for (int f = 0; f < tl.nframes; f++)
            rnd_timeline_state_step(&st, &tl, f);
        st.bumped = -1;
        int ns = rnd_timeline_stones(&st, R.geo, stones);
        rc = rnd_renderer_set_stones(R.r, stones, ns);
        rnd_frame_fx_t fx;
        memset(&fx, 0, sizeof fx);
        fx.gain = 1;
        fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
        fx.noise_phase = o->seed;
        if (!rc)
            rc = emit_frame(&R, 0, &st, NULL, &fx, err, errlen);
        if (fn)
            fn(ctx, 1, 1);
        goto done;
    }
    for (int f = 0; f < nframes && !rc; f++) {
        int first = st.next_event;
        int nev = rnd_timeline_state_step(&st, &tl, f);
        for (int k = 0; k < nev; k++) {
            write_event(R.truth, &tl.events[first + k], g.size);
            if (tl.events[first + k].kind == RND_EV_PLACE && rnd_rng_unit(&rng) < 0.35)
                burst = 2 + rnd_rng_int(&rng, 3); /* the table shakes a little */
        }
        if (st.changed) {
            int ns = rnd_timeline_stones(&st, R.geo, stones);
            rc = rnd_renderer_set_stones(R.r, stones, ns);
            if (rc)
                break;
        }
        rnd_frame_fx_t fx;
        memset(&fx, 0, sizeof fx);
        double t = (double)f / o->fps;
        const rnd_hand_t *hand = &tl.hand[f];
        if (!o->clean) {
            if (burst > 0) {
                shx = rnd_rng_int(&rng, 3) - 1;
                shy = rnd_rng_int(&rng, 3) - 1;
                burst--;
            } else if (rnd_rng_unit(&rng) < 0.02) {
                shx = rnd_rng_unit(&rng) < 0.8 ? 0 : rnd_rng_int(&rng, 3) - 1;
                shy = rnd_rng_unit(&rng) < 0.8 ? 0 : rnd_rng_int(&rng, 3) - 1;
            }
            fx.shake_x = shx;
            fx.shake_y = shy;
            ae = ae * 0.92 + 0.08 * (hand->active ? 1.0 : 0.0);
            fx.gain = 1 + 0.03 * sin(2 * M_PI * t / per1 + ph1) + 0.02 * sin(2 * M_PI * t / per2 + ph2) + 0.05 * ae;
            for (int c = 0; c < 3; c++)
                fx.wb[c] = 1 + 0.012 * sin(2 * M_PI * t / (per2 * 1.3) + wbph[c]);
            fx.noise_phase = (uint64_t)f * 7919u + o->seed;
        } else {
            fx.gain = 1;
            fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
        }
        if (so.light == RND_LIGHT_SHADOW) {
            /* someone walks past the lamp: a soft shadow crosses the board every ~20 s */
            double period = 20.0, u = fmod(t + 3.0, period) / period;
            fx.shadow = 1;
            fx.shadow_xy[0] = -1400 + 2800 * u;
            fx.shadow_xy[1] = 120 * sin(u * 6.28);
            fx.shadow_r[0] = 260;
            fx.shadow_r[1] = 520;
            fx.shadow_depth = 0.85;
        }
        rc = emit_frame(&R, f, &st, hand->active ? hand : NULL, &fx, err, errlen);
        if (fn && (f % 100 == 99 || f == nframes - 1))
            fn(ctx, f + 1, nframes);
    }
done:
    if (R.truth && fclose(R.truth) && !rc) {
        seterr(err, errlen, "%s/truth.txt: cannot write", o->out);
        rc = RND_EOUTPUT;
    }
    cvb_writer_close(R.vw);
    cvb_image_free(&R.img);
    rnd_renderer_destroy(R.r);
    rnd_timeline_fini(&tl);
    rnd_game_fini(&g);
    free(stones);
    free(R.mask);
    free(R.path);
    if (rc && err && errlen && !err[0])
        seterr(err, errlen, "%s", rnd_strerror(rc));
    return rc;
}
