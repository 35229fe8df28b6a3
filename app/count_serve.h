/* count_serve.h: `kifucam count PHOTO --serve ADDR:PORT`: the correction page over a
 * count_state (count_serve.c documents the paths and the state JSON).
 *
 * Invariants: every change the page asks for is one count_state_* call (the HTTP side
 * only parses and answers); nothing is written before Accept; Accept writes the record,
 * prints on stdout what `count` prints without --serve, and ends the command with 0.
 */
#ifndef KIFUCAM_COUNT_SERVE_H
#define KIFUCAM_COUNT_SERVE_H

#include <stdbool.h>

#include "app/count_state.h"
#include "app/photo.h"
#include "web/web.h"

typedef struct count_serve_opts {
    const web_config_t *web;    /* address, port, hosts (web_config_parse_listen); never
                                   NULL. Its actions are count_serve's own */
    const char *sgf;            /* the record Accept writes; NULL (default): the photo's
                                   path with its extension replaced by .sgf */
    bool json;                  /* on Accept print the count as --format json; default
                                   false (text) */
    const char *picture;        /* --picture: written on Accept too; default NULL */
    bool guessed;               /* the corners are a guess (no board was found); default
                                   false */
    double linger_s;            /* after Accept, time for its answer and the last state
                                   to reach the page before the server stops; default 0.3 */
} count_serve_opts_t;

/* Fill *o with the defaults above (web NULL: the caller sets it). */
void count_serve_opts_defaults(count_serve_opts_t *o);

/* Serve st until Accept (exit code 0: the record written, the count printed), Ctrl-C or
 * SIGTERM (1: nothing written), or a server that cannot start or publish (2). Errors are
 * one line on stderr under cmd. st stays the caller's. */
int count_serve(const char *cmd, count_state_t *st, const count_serve_opts_t *o);

/* No board was found in the photo: read it with corners at a guess (12% inside each
 * edge; o->size, or 19) for the page's handles to be dragged onto the grid. Returns
 * photo_read's exit code (the caller frees *out whatever it returns). */
int count_serve_guess(const char *cmd, const photo_opts_t *o, photo_t *out);

#endif
