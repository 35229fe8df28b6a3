/* record_opts.h: the options of `kifucam record` (its usage text, and their parsing into
 * rec_opts_t); the run itself is cmd_record.c's. Only app/ prints: parse errors go to
 * stderr as one line each (cli_error).
 */
#ifndef KIFUCAM_RECORD_OPTS_H
#define KIFUCAM_RECORD_OPTS_H

#include "app/record_relay.h"

typedef struct rec_opts {
    const char *input, *sgf, *rules, *black, *white, *calib, *serve, *resume, *time, *speak;
    const char *serve_host;   /* --serve-host NAMES */
    double fps, stable_s, analyse_fps, warn_grace_s;
    double linger_s;         /* --linger S: a file run with --serve serves this long after the
                                footage's end; < 0 (default): until Ctrl-C / SIGTERM */
    int size, komi2, komi_set, handicap, json, realtime, min_w, min_h;
    int handicap_set;        /* --handicap given (0 too: no stones taken from the board) */
    int fps_set;             /* --fps given: a folder's own rate is not looked for */
    long long start_frame;   /* --start-frame N, or -1 */
    rec_relay_opts_t relay;  /* --relay and its options (record_relay.c) */
} rec_opts_t;

/* Parse argv into *o (defaults first). Returns 0, 1 for --help, or -1 after saying what
 * is wrong (exit 2). */
int rec_opts_parse(int argc, char **argv, rec_opts_t *o);
/* The usage text, the relay's options included, on out. */
void rec_opts_usage(FILE *out);

#endif
