/* cmd_record.c: `kifucam record --input SOURCE`: camera / video / folder -> vision ->
 * station -> the SGF record (and the web pages with --serve), then the count.
 *
 * The loop: cap_source_next -> the recording loop (loop/rl_loop.h: vision, the removal
 * gate, the station, the end signals, one frame at a time; what it did comes back through
 * the sink below) -> the clock -> the pages. This file keeps the options' use, the input,
 * the resume's start, and the run's end; what is said of the game's course is
 * record_count.c's, the pages and the console's actions record_web.c's, the lines
 * themselves record_out.c's (record.h holds the run's shared state).
 *
 * The count is the station's (stn_phase, stn_count_toggle/accept over go_session): it
 * proposes the dead stones, marks those seen leaving the board, and writes RE[] with the
 * session's story once both accept. The console (--serve) toggles and accepts; with no
 * players (a file or folder ends while counting, or a camera run without --serve is
 * stopped while counting) the marking is accepted automatically and the run says so
 * (rec_count_auto). The clock (--time) is the station's one clock (cfg.time_control):
 * every frame also ticks it (rec_clock_tick), so calls and a loss on time come without
 * moves; its calls are printed (English and Chinese), spoken with --speak, and its state
 * is the "clock" object of the web state.
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

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "calib/cal_profile.h"
#include "capture/cap_source.h"
#include "station/stn_align.h"
#include "station/stn_finish.h"
#include "station/stn_start.h"

static cap_source_t *volatile g_src;
static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
    cap_source_stop(g_src);
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
    double tm_capture, tm_web;
    uint64_t frames, transient;
    uint64_t frame_off;            /* --resume of a camera: added to its frame numbers ... */
    double t_off;                  /* ... and times, so the record's KF[] continue */
} run_t;

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

/* ---- the loop's sink (loop/rl_loop.h): what the loop did, printed here ---- */

static int sink_phase(void *ctx)
{
    return ((run_t *)ctx)->r.phase;
}

static void sink_event(void *ctx, const stn_event_t *e)
{
    rec_print_station_event(&((run_t *)ctx)->r, e);
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
 * count agreed (record_count.c). */
static void sink_fed(void *ctx, int phase0, int nev)
{
    rec_after_feed(&((run_t *)ctx)->r, phase0, nev);
}

static void sink_over(void *ctx)
{
    rec_game_over(&((run_t *)ctx)->r);
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
    rec_clock_tick(&u->r, f->t);   /* the board seen or not: the clock runs on */
    rec_publish(&u->r, rl_geom(u->loop), read ? &f->img : NULL, read ? rl_snapshot(u->loop) : NULL, 0);
    if (read)
        u->tm_web += cpu_s() - t3;
    return 0;
}

/* --resume: say what was read; a file or folder without --start-frame picks up at the
 * frame after the record's last KF[] (stn_resume_frame), a camera continues its numbers
 * after the record's (stn_resume_last). */
static void resume_start(run_t *u, cap_source_t *src)
{
    cap_info_t info;
    memset(&info, 0, sizeof info);
    cap_source_info(src, &info);
    int n = go_game_move_count(stn_game(u->r.stn));
    uint64_t f = 0;
    double t = 0;
    if (info.kind == CAP_KIND_CAMERA) {
        /* the new frames numbered (and timed) after the record's, so its KF[] keep rising */
        rec_print_note(&u->r, "resume", -1, "resumed %s: %d moves", u->o.resume, n);
        if (stn_resume_last(stn_tracker(u->r.stn), stn_game(u->r.stn), &f, &t) == GO_OK) {
            u->frame_off = f + 1;
            u->t_off = t + 1.0 / (info.fps > 0 ? info.fps : u->o.fps);
        }
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
    u->r.last_sgf_moves = -1;
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
            resume_start(u, src);
    }
    if (u->o.serve && rec_serve_start(&u->r, u->o.serve, u->o.serve_host))
        goto done;
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
    double wall0 = cli_now_s(), footage = 0, footage0 = 0;
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
    double wall = cli_now_s() - wall0;
    rl_stats_t ls = rl_stats(u->loop);
    pthread_mutex_lock(&u->r.mu);
    /* the end signals there stand; one seen and not the other: the signaller's pass */
    stn_unfinished_t unfinished;
    memset(&unfinished, 0, sizeof unfinished);
    if (code == 0) {
        rl_finish(u->loop, u->r.t_now, !live, &unfinished);
        if (unfinished.unfinished)
            u->r.dirty = 1;
    }
    if (code == 0)
        rec_count_auto(&u->r, live);   /* nobody to accept the count with */
    if (code == 0 && u->r.stn) {
        rec_publish(&u->r, NULL, NULL, NULL, 1);
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
        rec_print_stats(&u->r, &ls, u->frames, wall, footage, u->tm_capture, u->tm_web);
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
        rec_print_stats(&u->r, &ls, u->frames, wall, footage, u->tm_capture, u->tm_web);
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
        rec_linger(&u->r, u->o.linger_s, &g_stop);
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
