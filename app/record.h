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

#endif
