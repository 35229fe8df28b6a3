/* record.h: the state of one `kifucam record` run, shared by its files (cmd_record.c: the
 * options and the capture loop; record_out.c: the events on stdout and the state JSON the
 * web pages read). Only app/ prints.
 *
 * Invariants: `mu` guards the station, the counting session and the messages whenever
 * the web server runs (its action callback comes from the server's thread); the station
 * is NULL until the board's size is known (first detection, --size/--calib, or --resume).
 */
#ifndef KIFUCAM_RECORD_H
#define KIFUCAM_RECORD_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "clock/clk.h"
#include "rules/go_session.h"
#include "station/station.h"
#include "web/web.h"

#define REC_MSGS 8

typedef struct rec_msg {
    char level[8];                 /* "info", "warn", "error" */
    char audience[8];              /* "viewer" or "arbiter" (stn_event_audience) */
    char text[STN_EV_MSG];
} rec_msg_t;

typedef struct rec {
    int json;                      /* --format json */
    FILE *out;                     /* stdout */
    int out_lost;                  /* a write to out failed: nothing more is printed */
    pthread_mutex_t mu;
    stn_t *stn;
    web_server_t *web;
    int has_clock;                 /* --time: the station runs the clock */
    double clock_lag;              /* the clock runs this far behind the frames (station.h) */
    const char *speak;             /* --speak voice ("zh", "en", "ja", "ko"), or NULL */
    int speak_ok;                  /* 1 espeak-ng found, 0 not looked for, -1 missing */
    int nkids;                     /* espeak-ng children not yet reaped */
    pid_t kids[16];
    double t_now;                  /* time of the latest frame, seconds */
    /* the count */
    int phase;                     /* 0 play, 1 counting, 2 over (the station's, mirrored) */
    char result[32];
    /* referee messages for the overlay, newest last */
    rec_msg_t msgs[REC_MSGS];
    int nmsgs;
    int dirty;                     /* the state changed since it was last published */
    int last_sgf_moves;            /* the move count of the SGF last published (-1: none) */
    double last_frame_pub;         /* wall time the overlay's picture was last published */
    struct rec_relay *relay;       /* --relay (record_relay.h), or NULL */
} rec_t;

/* Flush out; on the first failure say so on stderr and print nothing more (out_lost). */
void rec_out_flush(rec_t *r);
/* Print one station event (text or JSON line) and keep referee messages for the overlay. */
void rec_print_event(rec_t *r, const stn_event_t *e);
/* Print a free line at footage time t (t < 0: none): text "   12.40s  text" (or the text
 * alone); JSON {"event":kind,"t":t,"audience":rec_note_audience(kind),"message":text}. */
void rec_print_note(rec_t *r, const char *kind, double t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Who a note of this kind is for: "viewer" (count, result) or "arbiter" (the rest: the
 * signal reader's readings among them), as stn_event_audience says it of the station's
 * events. Never NULL. */
const char *rec_note_audience(const char *kind);
/* The line a file or folder run interrupted by Ctrl-C prints: the one command that
 * resumes it (`kifucam record --input INPUT --resume SGF`, with --calib and --fps when
 * given: fps 0 for none), each path quoted for a shell when it needs it. */
void rec_print_resume(rec_t *r, const char *input, const char *sgf, const char *calib,
                      double fps, int nmoves);
/* Speak a clock call with espeak-ng (--speak) in a child process, never waiting for it
 * (finished children are reaped at the next call and by rec_speak_fini); says once when
 * espeak-ng is missing. Does nothing without --speak. */
void rec_speak(rec_t *r, const stn_event_t *e);
/* Reap the speaking children that have finished (waits for none). */
void rec_speak_fini(rec_t *r);
/* Remember a message for the pages (level "info", "warn", "error"; audience "viewer" or
 * "arbiter", as stn_event_audience: the overlay hides "arbiter" unless asked). */
void rec_add_msg(rec_t *r, const char *level, const char *audience, const char *text);
/* The whole state as the web pages read it (web.h), malloc'd; NULL when out of memory. */
char *rec_state_json(rec_t *r);
/* The run's last line: frames, speed, CPU per stage (text or a JSON "stats" object);
 * nothing once out is lost. */
struct rl_stats;
void rec_print_stats(rec_t *r, const struct rl_stats *ls, uint64_t frames, double wall,
                     double footage, double capture_s, double web_s);

/* ---- the game's course as the station tells it (record_count.c) ---- */
/* One station event printed: the end signals' readings as "signal" notes, one end signal
 * awaited as the viewers' message, any other as rec_print_event (and spoken). */
void rec_print_station_event(rec_t *r, const stn_event_t *e);
/* The events of the station's last call, each as rec_print_station_event. */
void rec_print_events(rec_t *r);
/* Mirror the station's phase into r->phase (0 play, 1 counting, 2 over). */
void rec_sync_phase(rec_t *r);
/* "count: WHAT: N dead stones: Q16 ...; result R" (the counting session's marking). */
void rec_count_line(rec_t *r, const char *what);
/* The game is over (two passes, the end, a resignation): the result of a resignation, or
 * the dead stones proposed. */
void rec_game_over(rec_t *r);
/* A flag fell (the station wrote RE[B+T] / RE[W+T]): said once. 1 when the game is over
 * on time. */
int rec_time_check(rec_t *r);
/* The count was agreed (the station wrote RE[]): the result in points and in stones. */
void rec_count_done(rec_t *r);
/* After the station read a frame (phase0: r->phase before it, nev its events): the
 * count's board, a loss on time, the game's end, the count agreed. */
void rec_after_feed(rec_t *r, int phase0, int nev);
/* The clock on every frame at footage time t, the board seen or not (calls and a loss on
 * time come without moves). */
void rec_clock_tick(rec_t *r, double t);
/* At the end of the input while counting with nobody to accept (a file run, or a camera
 * without a console when live): both accept, said so. 1 when it did. */
int rec_count_auto(rec_t *r, int live);

/* ---- --serve (record_web.c) ---- */
/* Start the web server on serve (ADDR:PORT; hosts: --serve-host, or NULL) and print the
 * console's and the overlay's addresses. 0, or -1 said on stderr. */
int rec_serve_start(rec_t *r, const char *serve, const char *hosts);
/* Publish to the pages (and poll --relay): the state when dirty or forced, the SGF, and
 * img (may be NULL) with geom's grid and snap drawn on it (geom may be NULL). */
struct vis_geom;
struct vis_snapshot;
struct cvb_image;
void rec_publish(rec_t *r, const struct vis_geom *geom, const struct cvb_image *img,
                 const struct vis_snapshot *snap, int force);
/* A file run with --serve at its end: the pages stay up linger_s seconds (< 0: until
 * *stop), publishing what the console still changes. Takes r->mu itself. */
void rec_linger(rec_t *r, double linger_s, volatile sig_atomic_t *stop);

#endif
