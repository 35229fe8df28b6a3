/* score_out.h: a counted position as `score` and `count` print it (text and JSON), and
 * their shared one-line errors for --dead.
 *
 * Invariants: the text and the JSON say the same things (the result, the breakdown, the
 * dead stones, seki, the borders left open (unsettled), the result in stones under the Chinese rules, the tie
 * rule); people-facing text names points in the human form (Q16, go_point_human), the
 * JSON in SGF letters; fractions are reduced and written "180 1/2"
 * (go_score_quarters_text), counts take their singular at 1. Nothing here decides: the
 * count is go_session's.
 */
#ifndef KIFUCAM_SCORE_OUT_H
#define KIFUCAM_SCORE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "rules/go_point.h"
#include "rules/go_score.h"
#include "rules/go_session.h"

typedef struct score_report {
    const go_rules_t *rules;
    int komi2;                     /* the komi counted (half points) */
    int handicap;                  /* handicap stones counted */
    const go_board_t *board;       /* the position counted (never NULL) */
    const go_score_t *score;       /* its count (never NULL) */
    const go_session_t *sess;      /* for the proposal's groups (JSON dead_groups), or NULL */
    bool proposal;                 /* the marking is the station's proposal (--dead auto) */
    bool agreed;                   /* the marking is the count agreed at the station, as the
                                      record keeps it (KD[], stn_record.h) */
    const char *server;            /* the server whose counting of the rules the record
                                      follows (sgf_replay_t.rules_server), or NULL */
} score_report_t;

/* Print the text of INTERFACE.md to f: the RE[] result on the first line, then the
 * breakdown. */
void score_print_text(FILE *f, const score_report_t *r);

/* The JSON object of INTERFACE.md (caller decrefs), or NULL when memory runs out. */
json_t *score_json(const score_report_t *r);

/* One line on stderr ("kifucam CMD: WHAT: --dead: ...") for the --dead item
 * spec[off .. off+len) that go_dead_spec_parse refused with rc. */
void score_dead_parse_error(const char *cmd, const char *what, int size, const char *spec,
                            int rc, int off, int len);

/* One line on stderr for call i of sp that go_session_apply_dead refused on board b. */
void score_dead_apply_error(const char *cmd, const char *what, const go_board_t *b,
                            const go_dead_spec_t *sp, const char *spec, int i);

#endif
