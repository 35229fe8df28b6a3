/* cmd_record.c: `kifucam record --input SOURCE`: camera / video / folder -> vision ->
 * station -> the SGF record (and the web pages with --serve), then the count.
 *
 * The loop: cap_source_next -> the recording loop (loop/rl_loop.h: vision, the removal
 * gate, the station, the end signals, one frame at a time; what it did comes back through
 * the sink below and is printed here) -> the clock -> the state published to the web
 * pages. This file keeps the options, the input, the console's actions, the count's and
 * the result's lines, and the run's end.
 *
 * The count is the station's (stn_phase, stn_count_toggle/accept over go_session): it
 * proposes the dead stones, marks those seen leaving the board, and writes RE[] with the
 * session's story once both accept. The console (--serve) toggles and accepts; with no
 * players (a file or folder ends while counting, or a camera run without --serve is
 * stopped while counting) the marking is accepted automatically and the run says so.
 * The clock (--time) is the station's one clock (cfg.time_control): every frame also
 * ticks it (stn_clock_tick, the station's lag behind the frames kept), so calls and a
 * loss on time come without moves; its calls are printed (English and Chinese), spoken
 * with --speak (espeak-ng in a child process that is never waited for), and its state is
 * the "clock" object of the web state. The console's pause, resume and adjust reach
 * stn_clock_pause/resume/adjust (adjust: color=B|W and seconds=N, in the query or the body).
 * A loss on time ends the game (the station writes RE[B+T] / RE[W+T]).
 *
 * Speed (1080p footage at >= 10x real time on one core): a file or folder is looked at
 * at least --analyse-fps times a second of footage, every k-th frame (default 10: 30 fps
 * footage every 3rd frame, 15 fps all; the stabiliser's 0.3 s of stillness still spans 3
 * views), the other frames are never decoded; JPEG frames are decoded at a
 * reduced scale down to --decode-min (default 960x540, what vision needs). The geometry
 * refers to the frames as decoded; a --calib profile's corners are scaled to them.
 *
 * Signals: SIGINT/SIGTERM call cap_source_stop (async-signal-safe): the loop ends, the
 * record is already complete on disk (the station rewrites it after every move). SIGPIPE
 * is ignored: a reader of stdout that goes away stops the printing, not the recording.
 * An input folder that goes away (CAP_ELOST) or frames whose files go away end the run
 * with the record complete so far, one line on stderr, exit 2.
 */
#include "app/cli.h"
#include "app/record.h"
#include "app/record_opts.h"
#include "app/record_relay.h"   /* --relay (issue 23) */
#include "loop/rl_loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "calib/cal_profile.h"
#include "capture/cap_source.h"
#include "rules/go_point.h"
#include "rules/go_session.h"
#include "station/stn_align.h"
#include "station/stn_finish.h"
#include "station/stn_start.h"
#include "vision/vis.h"

static cap_source_t *volatile g_src;
static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
    cap_source_stop(g_src);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: the stage timings (the machine may be shared). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- the run */

typedef struct run {
    rec_t r;
    rec_opts_t o;
    rl_config_t lc;                /* the loop's settings: the station's and vision's */
    rl_t *loop;                    /* the recording loop (loop/rl_loop.h) */
    const char *sgf_path;          /* --sgf, --resume's file or sgf_default: never cut */
    char sgf_default[64];          /* game-DATE-TIME.sgf */
    cal_profile_t cal;
    int count_auto;                /* the marking was accepted with no players */
    double tm_capture, tm_web;
    uint64_t frames, transient;
    double last_frame_pub;
    int last_sgf_moves;
    uint64_t frame_off;            /* --resume of a camera: added to its frame numbers ... */
    double t_off;                  /* ... and times, so the record's KF[] continue */
} run_t;

/* One event: the station's as any other; the end signals' readings (stn_signal.h) as
 * "signal" notes; one end signal awaited as the viewers' message too. */
static void print_event(run_t *u, const stn_event_t *e)
{
    if (e->kind == STN_EV_SIGNAL) {
        rec_print_note(&u->r, "signal", e->t, "%s", e->msg);
    } else if (e->kind == STN_EV_END_AWAITED) {
        rec_add_msg(&u->r, "info", "viewer", e->msg);
    } else {
        rec_print_event(&u->r, e);
        rec_speak(&u->r, e);
    }
}

/* The events of the station's last call. */
static void print_events(run_t *u)
{
    int n;
    const stn_event_t *ev = stn_events(u->r.stn, &n);
    for (int i = 0; i < n; i++)
        print_event(u, &ev[i]);
}

/* The station could not start (rl_start_error): say why. */
static void station_failed(run_t *u)
{
    const char *why = "";
    int err = rl_start_error(u->loop, &why);
    if (u->o.resume)
        cli_error("record", "%s: cannot resume (%s%s%s): the file is left as it was", u->o.resume,
                  stn_strerror(err), why[0] ? ": " : "", why);
    else
        cli_error("record", "cannot start the station (%s)", go_strerror(err));
}

/* Mirror the station's phase (0 play, 1 counting, 2 over). */
static void sync_phase(run_t *u)
{
    if (!u->r.stn)
        return;
    stn_phase_t ph = stn_phase(u->r.stn);
    int np = ph == STN_PHASE_PLAY ? 0 : ph == STN_PHASE_COUNT ? 1 : 2;
    if (np != u->r.phase)
        u->r.dirty = 1;
    u->r.phase = np;
}

static void count_line(run_t *u, const char *what)
{
    const go_session_t *sess = stn_session(u->r.stn);
    if (!sess)
        return;
    go_score_t sc;
    const uint8_t *dead = go_session_dead(sess);
    const go_board_t *b = go_session_board(sess);
    char list[GO_MAX_SIZE * GO_MAX_SIZE * 4 + 1];
    size_t pos = 0;
    int nd = 0;
    list[0] = 0;
    for (int p = 0; p < GO_CELLS; p++)
        if (dead[p] && go_board_on(b, p)) {
            char q[4];
            go_point_human(b->size, p, q);
            pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", nd ? " " : "", q);
            nd++;
        }
    const char *re = go_session_score(sess, &sc) == GO_OK ? sc.re : "?";
    rec_print_note(&u->r, "count", -1, "count: %s: %d dead stone%s%s%s; result %s", what, nd,
                   nd == 1 ? "" : "s", nd ? ": " : "", list, re);
}

/* The game is over (two passes, the end, a resignation): say what follows. The count
 * itself is the station's (stn_phase, stn_count_*): it proposes the dead stones, marks
 * those the camera sees taken off, and writes RE[] when both accept. */
static void game_over(run_t *u)
{
    const go_game_t *g = stn_game(u->r.stn);
    sync_phase(u);
    if (go_game_resigned(g) != GO_EMPTY) {
        snprintf(u->r.result, sizeof u->r.result, "%s", stn_meta(u->r.stn)->result);
        if (!u->r.result[0])
            snprintf(u->r.result, sizeof u->r.result, "%s+R",
                     go_game_resigned(g) == GO_BLACK ? "W" : "B");
        rec_print_note(&u->r, "result", -1, "result: %s (resignation)", u->r.result);
        u->r.dirty = 1;
        return;
    }
    if (u->r.phase == 1) {
        count_line(u, "dead stones proposed");
        rec_add_msg(&u->r, "info", "arbiter",
                    "the count: dead stones proposed; take them off or toggle them");
    }
}

/* A flag fell (the station ended the game on time, RE[] B+T / W+T): say so once.
 * Returns 1 when the game is over on time. */
static int time_check(run_t *u)
{
    sync_phase(u);
    if (!u->r.has_clock || u->r.phase != 2 || u->r.result[0])
        return u->r.has_clock && u->r.phase == 2 && strstr(u->r.result, "+T") != NULL;
    const char *re = stn_meta(u->r.stn)->result;
    if (!strstr(re, "+T"))
        return 0;
    snprintf(u->r.result, sizeof u->r.result, "%s", re);
    rec_print_note(&u->r, "result", -1, "result: %s (loss on time)", u->r.result);
    u->r.dirty = 1;
    return 1;
}

/* The count was agreed (the station wrote RE[]): print the result. */
static void count_done(run_t *u)
{
    const go_session_t *sess = stn_session(u->r.stn);
    go_score_t sc;
    sync_phase(u);
    if (!sess || go_session_score(sess, &sc) != GO_OK)
        return;
    snprintf(u->r.result, sizeof u->r.result, "%s", sc.re);
    char eng[96], zh[96];
    go_score_stones_text(&sc, eng, sizeof eng, zh, sizeof zh);
    char b2[16], w2[16];
    go_score_half_text(sc.side[GO_BLACK].total2, b2, sizeof b2);
    go_score_half_text(sc.side[GO_WHITE].total2, w2, sizeof w2);
    if (u->r.json) {
        rec_print_note(&u->r, "result", -1, "%s", sc.re);
    } else {
        count_line(u, "agreed");
        rec_print_note(&u->r, "result", -1, "result: %s (Black %s, White %s; %s)", sc.re, b2, w2,
                       eng);
    }
    u->r.dirty = 1;
}

/* ---- the loop's sink (loop/rl_loop.h): what the loop did, printed here ---- */

static int sink_phase(void *ctx)
{
    return ((run_t *)ctx)->r.phase;
}

static void sink_event(void *ctx, const stn_event_t *e)
{
    print_event(ctx, e);
}

static void sink_note(void *ctx, const char *kind, double t, const char *text)
{
    rec_print_note(&((run_t *)ctx)->r, kind, t, "%s", text);
}

static void sink_station(void *ctx, stn_t *s)
{
    run_t *u = ctx;
    u->r.stn = s;
    u->r.dirty = 1;
}

/* The station read a frame: the count's board, the phase, a loss on time, the end, the
 * count agreed. */
static void sink_fed(void *ctx, int phase0, int nev)
{
    run_t *u = ctx;
    if (nev > 0 && phase0 == 1)
        count_line(u, "the board now");
    sync_phase(u);
    if (phase0 == 0 && time_check(u))
        ;
    else if (phase0 == 0 && go_game_over(stn_game(u->r.stn)))
        game_over(u);
    else if (phase0 == 1 && u->r.phase == 2)
        count_done(u);
}

static void sink_over(void *ctx)
{
    game_over((run_t *)ctx);
}

static void publish(run_t *u, const cvb_image_t *img, const vis_snapshot_t *snap, int force)
{
    rec_relay_poll(&u->r, force);   /* --relay: before the web clears r.dirty */
    if (!u->r.web || !u->r.stn)
        return;
    if (u->r.dirty || force) {
        char *js = rec_state_json(&u->r);
        if (js) {
            web_server_publish_state(u->r.web, js);
            free(js);
        }
        int nm = go_game_move_count(stn_game(u->r.stn));
        char *sgf;
        if ((nm != u->last_sgf_moves || force || u->r.phase) && stn_record_text(u->r.stn, &sgf) == GO_OK) {
            web_server_publish_sgf(u->r.web, sgf);
            free(sgf);
            u->last_sgf_moves = nm;
        }
        u->r.dirty = 0;
    }
    double w = now_s();
    if (img && img->data && (force || w - u->last_frame_pub > 0.5)) {
        u->last_frame_pub = w;
        cvb_image_t copy;
        if (cvb_image_alloc(&copy, img->w, img->h, img->channels) == CVB_OK) {
            for (int y = 0; y < img->h; y++)
                memcpy(copy.data + (size_t)y * copy.stride, img->data + (size_t)y * img->stride,
                       (size_t)img->w * (size_t)img->channels);
            if (rl_geom(u->loop))
                vis_draw(&copy, rl_geom(u->loop), snap);
            uint8_t *jpg;
            size_t len;
            if (cvb_imencode_jpeg(&copy, 80, &jpg, &len) == CVB_OK) {
                web_server_publish_frame(u->r.web, jpg, len);
                free(jpg);
            }
            cvb_image_free(&copy);
        }
    }
}

/* Web actions (server thread). */
static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    run_t *u = user;
    int rc = -1;
    pthread_mutex_lock(&u->r.mu);
    stn_t *s = u->r.stn;
    double t = u->r.t_now;
    if (!s) {
        snprintf(msg, msglen, "the board has not been found yet");
        goto out;
    }
    go_color_t col = a->color && !strcmp(a->color, "B") ? GO_BLACK
                   : a->color && !strcmp(a->color, "W") ? GO_WHITE : GO_EMPTY;
    if (!strcmp(a->name, "pass") || !strcmp(a->name, "undo") || !strcmp(a->name, "end") ||
        !strcmp(a->name, "resign")) {
        if (u->r.phase != 0) {
            snprintf(msg, msglen, "the game is over");
            goto out;
        }
        int e = !strcmp(a->name, "pass") ? stn_pass(s, t)
              : !strcmp(a->name, "undo") ? stn_undo(s, t)
              : !strcmp(a->name, "end") ? stn_end(s, t) : stn_resign(s, col, t);
        if (e != GO_OK) {
            snprintf(msg, msglen, "%s: %s", a->name, go_strerror(e));
            goto out;
        }
        print_events(u);
        sync_phase(u);
        if (go_game_over(stn_game(s)))
            game_over(u);
        snprintf(msg, msglen, "%s: done", a->name);
        rc = 0;
    } else if (!strcmp(a->name, "toggle") || !strcmp(a->name, "accept")) {
        if (u->r.phase != 1) {
            snprintf(msg, msglen, "not counting");
            goto out;
        }
        if (!strcmp(a->name, "toggle")) {
            int size = go_game_board(stn_game(s))->size;
            int p = 0;   /* toggle?point=dd or point=D16: both forms, as every option */
            if (!a->point || go_point_parse(size, a->point, (int)strlen(a->point), &p) != GO_OK ||
                stn_count_toggle(s, p, col, t) != GO_OK) {
                snprintf(msg, msglen, "toggle: no stone there");
                goto out;
            }
            print_events(u);
            count_line(u, "changed from the console");
            snprintf(msg, msglen, "toggled");
        } else {
            if (col == GO_EMPTY || stn_count_accept(s, col, t) != GO_OK) {
                snprintf(msg, msglen, "accept: color=B or color=W");
                goto out;
            }
            print_events(u);
            sync_phase(u);
            if (u->r.phase == 2)
                count_done(u);
            snprintf(msg, msglen, "accepted");
        }
        rc = 0;
    } else if (u->r.has_clock && (!strcmp(a->name, "pause") || !strcmp(a->name, "resume") ||
                                  !strcmp(a->name, "adjust"))) {
        /* the arbiter's clock: pause, resume, adjust?color=B&seconds=N */
        int e;
        if (!strcmp(a->name, "adjust")) {
            if (col == GO_EMPTY || !a->has_seconds) {
                snprintf(msg, msglen, "adjust: color=B or W and seconds=N");
                goto out;
            }
            e = stn_clock_adjust(s, col, a->seconds, t);
        } else {
            e = !strcmp(a->name, "pause") ? stn_clock_pause(s, t) : stn_clock_resume(s, t);
        }
        if (e < 0) {
            snprintf(msg, msglen, "%s: %s", a->name,
                     e == GO_ETURN ? (!strcmp(a->name, "pause") ? "the clock is already paused"
                                                               : "the clock is not paused")
                     : e == GO_EOVER ? "the game is over on time" : go_strerror(e));
            goto out;
        }
        print_events(u);
        time_check(u);
        snprintf(msg, msglen, "%s: done", a->name);
        rc = 0;
    } else {
        snprintf(msg, msglen, "%s: not available", a->name);
    }
    u->r.dirty = 1;
out:
    pthread_mutex_unlock(&u->r.mu);
    return rc;
}

/* A folder of frames without --fps: its own rate (the truth.txt kifucam render writes
 * beside its frames) when it has one; else the default, and *assumed is set to
 * cap_folder_rate's code so that open_input says so (every move's time and the clock
 * follow from the rate). */
static double folder_fps(const run_t *u, int *assumed)
{
    struct stat st;
    *assumed = 0;
    if (u->o.fps_set || stat(u->o.input, &st) != 0 || !S_ISDIR(st.st_mode))
        return u->o.fps;
    double fps = 0;
    int rc = cap_folder_rate(u->o.input, &fps);
    if (rc == CAP_OK)
        return fps;
    *assumed = rc;
    return u->o.fps;
}

static int open_input(run_t *u, cap_source_t **src)
{
    cap_options_t co;
    cap_options_defaults(&co);
    int assumed;
    co.fps = folder_fps(u, &assumed);
    co.realtime = u->o.realtime;
    co.analyse_fps = u->o.analyse_fps;
    co.min_w = u->o.min_w;
    co.min_h = u->o.min_h;
    int rc = cap_source_open(u->o.input, &co, src);
    if (rc == CAP_OK) {
        if (assumed == CAP_EFORMAT)
            cli_error("record", "%s/truth.txt gives no frame rate (no valid fps line): the "
                      "frames are taken as %g fps; give the rate with --fps N", u->o.input, co.fps);
        else if (assumed)
            cli_error("record", "%s: a folder of frames with no rate of its own (no truth.txt "
                      "fps line): taken as %g fps; give the rate with --fps N", u->o.input, co.fps);
        return 0;
    }
    struct stat st;
    char why[256] = "";
    if (rc == CAP_ETOOBIG && cap_image_size(u->o.input, NULL, NULL, why, sizeof why) != CAP_OK)
        cli_error("record", "%s: %s", u->o.input, why);   /* the image-size guard */
    else if (stat(u->o.input, &st) != 0)
        cli_error("record", "%s: no such file, folder or camera", u->o.input);
    else if (S_ISDIR(st.st_mode))
        cli_error("record", "%s: the folder is empty (no images)", u->o.input);
    else
        cli_error("record", "%s: cannot open (%s)", u->o.input, cap_strerror(rc));
    return -1;
}

/* The clock on every frame, the board seen or not: calls and a loss on time come without
 * moves (the station keeps its lag behind the frames, station.h). */
static void clock_tick(run_t *u, double t)
{
    if (!u->r.has_clock || !u->r.stn || u->r.phase != 0)
        return;
    int n = stn_clock_tick(u->r.stn, t - u->r.clock_lag);
    if (n > 0)
        print_events(u);
    time_check(u);
    u->r.dirty = 1;
}

/* on_frame's code for a resumed game whose board is not the record's (stn_resume_judge) */
#define REC_RESUME_REFUSED (-3)

/* One frame through the recording loop (rl_feed: vision, the station, the signals, said
 * through the sink), then the clock and the pages. Returns 0, -1 (the station could not
 * start) or REC_RESUME_REFUSED. */
static int on_frame(run_t *u, const cap_frame_t *f)
{
    int read = 0, rc = rl_feed(u->loop, &f->img, f->index, f->t, &read);
    if (rc == RL_EREFUSED)
        return REC_RESUME_REFUSED;
    if (rc != RL_OK) {
        station_failed(u);
        return -1;
    }
    double t3 = cpu_s();
    clock_tick(u, f->t);   /* the board seen or not: the clock runs on */
    publish(u, read ? &f->img : NULL, read ? rl_snapshot(u->loop) : NULL, 0);
    if (read)
        u->tm_web += cpu_s() - t3;
    return 0;
}

/* --resume of a camera: the new frames are numbered (and timed) after the record's last
 * move (its KF[]), so the resumed record's frames keep increasing. (A file or folder
 * instead picks up at the frame after that KF[], with the source's own numbers.) */
static void resume_offsets(run_t *u, cap_source_t **src)
{
    const stn_track_t *k = stn_tracker(u->r.stn);
    int n = go_game_move_count(stn_game(u->r.stn));
    uint64_t last = 0;
    double t = 0;
    int any = 0;
    for (int i = 0; i < n; i++) {
        const stn_move_info_t *mi = stn_track_info(k, i);
        if (mi && (mi->frame > 0 || mi->t > 0)) {
            any = 1;
            if (mi->frame > last)
                last = mi->frame;
            if (mi->t > t)
                t = mi->t;
        }
    }
    if (!any)
        return;
    cap_info_t info;
    memset(&info, 0, sizeof info);
    cap_source_info(*src, &info);
    double fps = info.fps > 0 ? info.fps : u->o.fps;
    u->frame_off = last + 1;
    u->t_off = t + 1.0 / fps;
}

/* --resume: say what was read; a file or folder without --start-frame picks up at the
 * frame after the record's last KF[] (stn_resume_frame), a camera continues its numbers. */
static void resume_start(run_t *u, cap_source_t **src)
{
    cap_info_t info;
    memset(&info, 0, sizeof info);
    cap_source_info(*src, &info);
    int n = go_game_move_count(stn_game(u->r.stn));
    uint64_t f = 0;
    if (info.kind == CAP_KIND_CAMERA) {
        rec_print_note(&u->r, "resume", -1, "resumed %s: %d moves", u->o.resume, n);
        resume_offsets(u, src);
    } else if (u->o.start_frame >= 0) {
        rec_print_note(&u->r, "resume", -1, "resumed %s: %d moves; the footage from frame %lld "
                       "(--start-frame)", u->o.resume, n, u->o.start_frame);
    } else if (stn_resume_frame(stn_tracker(u->r.stn), stn_game(u->r.stn), &f) == GO_OK) {
        u->o.start_frame = (long long)f;
        rec_print_note(&u->r, "resume", -1, "resumed %s: %d moves; the footage from frame %llu, "
                       "after the last move's (KF[])", u->o.resume, n, (unsigned long long)f);
    } else {
        rec_print_note(&u->r, "resume", -1, "resumed %s: %d moves; no move names its frame "
                       "(KF[]): the footage from its start (--start-frame N to begin later)",
                       u->o.resume, n);
    }
}

/* Ctrl-C (or SIGTERM) during a file or folder: the one command that resumes. */
static void print_resume_hint(run_t *u)
{
    rec_print_resume(&u->r, u->o.input, u->sgf_path, u->o.calib, u->o.fps_set ? u->o.fps : 0,
                     go_game_move_count(stn_game(u->r.stn)));
}

/* A file or folder with --serve, at its end: the pages stay up on the final state (the
 * result, the count) for --linger seconds or until Ctrl-C / SIGTERM; console actions
 * still reach the station and are published. */
#define REC_LINGER_POLL_S 0.1
static void linger(run_t *u)
{
    if (u->o.linger_s == 0)
        return;
    char until[64];
    if (u->o.linger_s > 0)
        snprintf(until, sizeof until, "for %g s (--linger)", u->o.linger_s);
    else
        snprintf(until, sizeof until, "until Ctrl-C (--linger S to stop by itself)");
    rec_print_note(&u->r, "serve", -1, "serve: the footage is over; the pages stay up on the "
                   "%s %s", u->r.result[0] ? "result" : "last state", until);
    double t0 = now_s();
    while (!g_stop && (u->o.linger_s < 0 || now_s() - t0 < u->o.linger_s)) {
        struct timespec ts = { 0, (long)(REC_LINGER_POLL_S * 1e9) };
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&u->r.mu);
        publish(u, NULL, NULL, 0);
        pthread_mutex_unlock(&u->r.mu);
    }
}

static void print_stats(run_t *u, double wall, double footage)
{
    if (u->r.out_lost)
        return;
    rl_stats_t ls = rl_stats(u->loop);
    double vis = ls.detect_s + ls.track_s;
    double tot = u->tm_capture + vis + ls.station_s + ls.signal_s + u->tm_web;
    if (tot <= 0)
        tot = 1e-9;
    double fps = wall > 0 ? u->frames / wall : 0, cfps = u->frames / tot;
    if (u->r.json) {
        fprintf(u->r.out,
                "{\"event\":\"stats\",\"frames\":%llu,\"seconds\":%.3f,\"fps\":%.1f,"
                "\"cpu_seconds\":%.3f,\"cpu_fps\":%.1f,\"footage_s\":%.2f,\"speed\":%.2f,"
                "\"cpu_speed\":%.2f,\"detects\":%llu,\"ms\":{\"capture\":%.1f,\"detect\":%.1f,"
                "\"track\":%.1f,\"station\":%.1f,\"signals\":%.1f,\"web\":%.1f}}\n",
                (unsigned long long)u->frames, wall, fps, tot, cfps, footage,
                wall > 0 ? footage / wall : 0, footage / tot, (unsigned long long)ls.detects,
                u->tm_capture * 1e3, ls.detect_s * 1e3, ls.track_s * 1e3,
                ls.station_s * 1e3, ls.signal_s * 1e3, u->tm_web * 1e3);
    } else {
        fprintf(u->r.out,
                "frames: %llu in %.2f s (%.1f fps, %.1fx real time; CPU %.2f s: %.1f fps, "
                "%.1fx); CPU per stage: capture %.0f%%, detect %.0f%% (%llu runs), track %.0f%%, "
                "station %.0f%%, signals %.0f%%, web %.0f%%\n",
                (unsigned long long)u->frames, wall, fps, wall > 0 ? footage / wall : 0, tot,
                cfps, footage / tot, 100 * u->tm_capture / tot, 100 * ls.detect_s / tot,
                (unsigned long long)ls.detects, 100 * ls.track_s / tot,
                100 * ls.station_s / tot, 100 * ls.signal_s / tot, 100 * u->tm_web / tot);
    }
    rec_out_flush(&u->r);
}

int cmd_record(int argc, char **argv)
{
    /* a reader that goes away (`| head -3`) must not kill the recording: the write says
     * EPIPE instead (record_out.c stops printing), the record is written on */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, NULL);
    run_t *u = calloc(1, sizeof *u);
    if (!u) {
        cli_error("record", "out of memory");
        return 2;
    }
    int code = 2, prc = rec_opts_parse(argc, argv, &u->o);
    cap_source_t *src = NULL;
    if (prc == 1) {
        rec_opts_usage(stdout);
        free(u);
        return 0;
    }
    if (prc < 0) {
        free(u);
        return 2;
    }
    u->r.out = stdout;
    u->r.json = u->o.json;
    cvb_quiet();   /* OpenCV's own log lines: its failures come back as status codes */
    pthread_mutex_init(&u->r.mu, NULL);
    rl_config_defaults(&u->lc);
    u->last_sgf_moves = -1;
    char err[256];
    if (u->o.calib) {
        if (cal_profile_load(u->o.calib, &u->cal, err, sizeof err) != CAL_OK) {
            cli_error("record", "%s: %s", u->o.calib, err);
            goto done;
        }
        u->lc.cal = &u->cal;   /* its corners, its colours, its seats (rl_loop.h) */
        if (u->o.size && u->o.size != u->cal.size) {
            cli_error("record", "--size %d disagrees with the calibration (%d)", u->o.size,
                      u->cal.size);
            goto done;
        }
        u->o.size = u->cal.size;
    }
    if (u->o.time) {
        clk_spec_t spec;
        if (clk_spec_parse(u->o.time, &spec, err, sizeof err) != CLK_OK) {
            cli_error("record", "--time: %s", err);
            goto done;
        }
        u->lc.station.time_control = u->o.time;   /* the station runs the one clock */
        u->r.has_clock = 1;
    }
    u->r.speak = u->o.speak;
    if (u->o.sgf) {
        u->sgf_path = u->o.sgf;   /* argv's string, whole: never cut to a buffer */
    } else if (u->o.resume) {
        u->sgf_path = u->o.resume;
    } else {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(u->sgf_default, sizeof u->sgf_default, "game-%Y%m%d-%H%M%S.sgf", &tm);
        u->sgf_path = u->sgf_default;
    }
    u->lc.station.rules = u->o.rules;
    u->lc.station.komi2 = u->o.komi_set ? u->o.komi2 : STN_KOMI_DEFAULT;
    u->lc.station.handicap = u->o.handicap;
    u->lc.station.handicap_seen = !u->o.handicap_set;   /* --handicap 0: none, whatever is seen */
    u->lc.station.stab.stable_s = u->o.stable_s;
    u->lc.station.track.warn_grace_s = u->o.warn_grace_s;
    u->r.clock_lag = u->lc.station.stab.stable_s + STN_CLOCK_LAG_S;
    u->lc.station.black = u->o.black;
    u->lc.station.white = u->o.white;
    u->lc.station.sgf_path = u->sgf_path;
    u->lc.station.resume_path = u->o.resume;
    if (open_input(u, &src))
        goto done;
    u->lc.size = u->o.size;
    u->lc.resume = u->o.resume != NULL;
    const rl_sink_t sink = { u, sink_phase, sink_event, sink_note, sink_station, sink_fed, sink_over };
    if (!(u->loop = rl_create(&u->lc, &sink))) {
        cli_error("record", "out of memory");
        goto done;
    }
    if (u->o.resume || u->o.size) {
        if (rl_start(u->loop, u->o.size ? u->o.size : 19) != RL_OK) {
            station_failed(u);
            goto done;
        }
        if (u->o.resume)
            resume_start(u, &src);
    }
    if (u->o.serve) {
        char addr[128];
        web_config_t wc;
        web_config_defaults(&wc);
        if (web_config_parse_listen(&wc, u->o.serve, addr, sizeof addr)) {
            cli_error("record", "--serve: '%s' is not ADDR:PORT", u->o.serve);
            goto done;
        }
        wc.hosts = u->o.serve_host;
        int wrc = web_server_create(&wc, on_action, u, &u->r.web);
        if (wrc != WEB_OK) {
            cli_error("record", "--serve %s: %s", u->o.serve, web_strerror(wrc));
            goto done;
        }
        int port = web_server_port(u->r.web);
        const char *tok = web_server_token(u->r.web);
        int v6 = strchr(addr, ':') != NULL;
        rec_print_note(&u->r, "serve", -1, "console: http://%s%s%s:%d/console?token=%s", v6 ? "[" : "",
                       addr, v6 ? "]" : "", port, tok);
        rec_print_note(&u->r, "serve", -1, "overlay: http://%s%s%s:%d/overlay", v6 ? "[" : "", addr,
                       v6 ? "]" : "", port);
    }
    if (rec_relay_start(&u->r, &u->o.relay, u->sgf_path, u->o.resume != NULL))
        goto done;   /* --relay: a malformed URL or board name, an unreadable CA file */
    g_src = src;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    cap_info_t info;
    memset(&info, 0, sizeof info);
    cap_source_info(src, &info);
    int live = info.kind == CAP_KIND_CAMERA;
    double wall0 = now_s(), footage = 0, footage0 = 0;
    if (!live && u->o.start_frame > 0) {
        /* --start-frame (or --resume's): the frames before it are not read at all */
        int src_rc = cap_source_seek(src, (uint64_t)u->o.start_frame);
        if (src_rc == CAP_EEOF) {
            cli_error("record", "%s: the footage ends before frame %lld (--start-frame%s): "
                      "nothing to record", u->o.input, u->o.start_frame,
                      u->o.resume ? ", or the frame after the record's last move" : "");
            code = 1;
            goto done;
        }
        if (src_rc != CAP_OK) {
            cli_error("record", "%s: cannot go to frame %lld: %s", u->o.input, u->o.start_frame,
                      cap_source_why(src)[0] ? cap_source_why(src) : cap_strerror(src_rc));
            code = 2;
            goto done;
        }
        footage0 = (double)u->o.start_frame / (info.fps > 0 ? info.fps : u->o.fps);
    }
    int lost_said = 0, bad_frames = 0, missing = 0;
    char lost[400] = "";   /* cap_source_why of a CAP_ELOST */
    code = 0;
    while (!g_stop) {
        cap_frame_t f;
        double t0 = cpu_s();
        int rc = cap_source_next(src, &f);
        u->tm_capture += cpu_s() - t0;
        if (rc == CAP_EEOF || rc == CAP_ESTOPPED)
            break;
        if (rc == CAP_ELOST) {
            /* the folder went away (deleted, moved): the end of the input, not of the
             * footage; said once below, exit 2 */
            snprintf(lost, sizeof lost, "%s", cap_source_why(src));
            break;
        }
        if (rc == CAP_ETOOBIG || rc == CAP_EDECODE || rc == CAP_EIO) {
            const char *why = cap_source_why(src);
            if (rc == CAP_EIO && !live)
                missing++;   /* a frame's file went away: said at the end */
            else if (why[0] && !bad_frames++)
                cli_error("record", "%s: frame skipped", why);   /* the first one only */
        }
        if (rc != CAP_OK) {
            u->transient++;
            if (rc == CAP_EGONE && !lost_said) {
                rec_print_note(&u->r, "camera", -1, "camera: lost (%s): reconnecting", cap_strerror(rc));
                lost_said = 1;
            }
            continue;
        }
        if (lost_said) {
            rec_print_note(&u->r, "camera", -1, "camera: back");
            lost_said = 0;
        }
        if (u->o.start_frame > 0 && !live && f.index < (uint64_t)u->o.start_frame) {
            footage0 = f.t;   /* (after cap_source_seek, never: kept for a short seek) */
            continue;
        }
        u->frames++;
        footage = f.t - footage0;
        f.index += u->frame_off;
        f.t += u->t_off;
        pthread_mutex_lock(&u->r.mu);
        u->r.t_now = f.t;
        int frc = on_frame(u, &f);
        pthread_mutex_unlock(&u->r.mu);
        if (frc == REC_RESUME_REFUSED) {
            const stn_align_t *a = &rl_resume_check(u->loop)->last;
            cli_error("record", "%s: cannot resume: the board at frame %llu (%.2f s) is not the "
                      "record's position (%d points differ, %d stones recorded): the file is "
                      "left as it was; give the frame that shows it with --start-frame N",
                      u->o.resume, (unsigned long long)f.index, f.t, a->mismatch, a->stones);
            code = 2;
            break;
        }
        if (frc < 0) {
            code = 2;
            break;
        }
    }
    if (g_stop && code == 0 && !live && u->r.stn)
        print_resume_hint(u);
    double wall = now_s() - wall0;
    pthread_mutex_lock(&u->r.mu);
    /* the end signals there stand; one seen and not the other: the signaller's pass */
    stn_unfinished_t unfinished;
    memset(&unfinished, 0, sizeof unfinished);
    if (code == 0) {
        rl_finish(u->loop, u->r.t_now, !live, &unfinished);
        if (unfinished.unfinished)
            u->r.dirty = 1;
    }
    if (code == 0 && u->r.phase == 1 && (!live || !u->r.web)) {
        /* a file run, or no console to accept with: nobody can confirm the count */
        rec_print_note(&u->r, "count", -1, "count: %s: the marking is accepted automatically",
                       live ? "no console to accept the count with (--serve)"
                            : "no players present in a file run");
        u->count_auto = 1;
        for (int c = GO_BLACK; c <= GO_WHITE; c++)
            if (stn_count_accept(u->r.stn, (go_color_t)c, u->r.t_now) == GO_OK)
                print_events(u);
        count_done(u);
    }
    if (code == 0 && u->r.stn) {
        publish(u, NULL, NULL, 1);
        if (stn_record_status(u->r.stn) != GO_OK) {
            cli_error("record", "%s: the record could not be written", u->sgf_path);
            code = 1;
        }
    }
    pthread_mutex_unlock(&u->r.mu);
    if (code == 0 && (lost[0] || missing)) {
        /* the input went away under the run: the record on disk is complete up to there,
         * but the footage was not read to its end (unreadable input: exit 2) */
        int nm = u->r.stn ? go_game_move_count(stn_game(u->r.stn)) : 0;
        if (lost[0])
            cli_error("record", "%s after %llu frames: the record %s holds the %d moves seen",
                      lost, (unsigned long long)u->frames, u->sgf_path, nm);
        else
            cli_error("record", "%s: %d frames went missing during the run: the record %s "
                      "holds the %d moves seen", u->o.input, missing, u->sgf_path, nm);
        print_stats(u, wall, footage);
        code = 2;
    } else if (code == 0) {
        if (!rl_ever_found(u->loop)) {
            cli_error("record", "%s: no board found in %llu frames", u->o.input,
                      (unsigned long long)u->frames);
            code = 1;
        } else {
            int nm = go_game_move_count(stn_game(u->r.stn));
            rec_print_note(&u->r, "done", -1, "record: %s: %d moves%s%s", u->sgf_path, nm,
                           u->r.result[0] ? ", result " : "", u->r.result);
        }
        print_stats(u, wall, footage);
        if (unfinished.unfinished) {
            const char *s1 = unfinished.signalled == GO_BLACK ? "Black" : "White";
            const char *s2 = unfinished.missing == GO_BLACK ? "Black" : "White";
            cli_error("record", "%s: the game's end was not recorded: %s's end signal was seen "
                      "(%s), %s's was not; finish it with `kifucam score %s` or in the console "
                      "(--serve: pass, end)", u->sgf_path, s1,
                      unfinished.pass ? "his pass is in the record" : "out of turn: no pass",
                      s2, u->sgf_path);
            code = 1;
        }
    }
    if (u->r.web && !live && !g_stop && code != 2)
        linger(u);
    if (rec_relay_finish(&u->r) < 0 && code == 0)
        code = 1;   /* --relay: the record is whole on disk, the broadcast is not */
done:
    g_src = NULL;
    web_server_destroy(u->r.web);
    rec_relay_destroy(&u->r);
    cap_source_close(src);
    rl_destroy(u->loop);   /* the station with it */
    u->r.stn = NULL;
    rec_speak_fini(&u->r);
    pthread_mutex_destroy(&u->r.mu);
    free(u);
    return code;
}
