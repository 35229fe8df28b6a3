/* record_relay.h: `kifucam record --relay URL`: the station's state, record and events
 * published through relay/rly.h, and what the relay's link does said on stdout and on the
 * overlay / console (rec_add_msg). Kept apart from cmd_record.c, which only calls these.
 *
 * The state published is exactly the one /state.json serves (rec_state_json): at once when
 * the moves, the phase or the result change, else at most every RR_IDLE_S (the clock).
 * The record goes with every change of the moves and during the count. The events are
 * the objects --format json prints (rec_print_event, rec_print_note), journaled beside the
 * SGF (FILE.relay) until the broker has them.
 */
#ifndef KIFUCAM_RECORD_RELAY_H
#define KIFUCAM_RECORD_RELAY_H

#include <jansson.h>

#include "app/record.h"

typedef struct rec_relay_opts {
    const char *url;            /* --relay URL (NULL: no relay) */
    const char *board;          /* --board NAME (default: the host's name) */
    const char *round;          /* --round R */
    const char *user, *pass;    /* --relay-user, --relay-pass (or $KIFUCAM_RELAY_PASS) */
    const char *ca;             /* --relay-ca FILE */
    double flush_s;             /* --relay-flush S: how long the end waits for the broker */
} rec_relay_opts_t;

/* The usage lines of the relay's options. */
extern const char rec_relay_usage[];

/* argv[*i] is a relay option: consume it (and its value, advancing *i) into o and return
 * 1; not one: 0; a bad value: -1 after printing a one-line error. */
int rec_relay_parse(rec_relay_opts_t *o, int argc, char **argv, int *i);
/* Start the relay when o->url is set (journal: sgf_path + ".relay"; resume: send what
 * it holds again). 0, or -1 after printing a one-line error (a malformed URL, board name,
 * CA file; the journal cannot be opened). */
int rec_relay_start(rec_t *r, const rec_relay_opts_t *o, const char *sgf_path, int resume);
/* Once a frame (r->mu held): the link's news to stdout and the console, the state and
 * the record when they changed (force: now). Does nothing without a relay. */
void rec_relay_poll(rec_t *r, int force);
/* One event object (not taken): to the relay. Does nothing without a relay. */
void rec_relay_event(rec_t *r, json_t *o);
/* The end of the run: wait up to --relay-flush seconds for the broker's acks. 0 when all
 * was delivered (or no relay); -1 after saying what was not (kept in the journal). */
int rec_relay_finish(rec_t *r);
/* Stop the relay and free it. Does nothing without one. */
void rec_relay_destroy(rec_t *r);

#endif
