/* go_session.h: the scoring session at the end of a game, shared by the recording loop,
 * the CLI and the web console.
 *
 *   create (final board, rules, komi, handicap, prisoners)
 *   -> propose (go_life: certain life first, then the estimate; no call on a border the
 *      players left open, go_score_t.unsettled; or set a mask)
 *   -> toggle a stone: its chain, and every stone of its colour reachable from it through
 *      empty points, its own stones and stones marked dead (the group and the dead stones
 *      sharing its region), switch together between dead and alive
 *   -> each player accepts -> agreed: the final result.
 *
 * Invariants: a toggle after an accept clears both accepts (and logs it); agreed is true
 * only when both players accepted the current marking; the dead mask only ever marks
 * stones; every change is logged in order, so the recorder can write in the SGF what was
 * proposed, changed (rejected) and agreed (go_session_comment).
 */
#ifndef KIFUCAM_GO_SESSION_H
#define KIFUCAM_GO_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/go_life.h"
#include "rules/go_point.h"
#include "rules/go_rules.h"
#include "rules/go_score.h"

typedef struct go_session go_session_t;

typedef enum {
    GO_SEV_PROPOSE = 0,  /* the station proposed dead stones (ngroups, nstones) */
    GO_SEV_SET,          /* the whole marking was set from outside (e.g. --dead LIST) */
    GO_SEV_TOGGLE,       /* `by` toggled the group at `point`: nstones now `dead` or not */
    GO_SEV_ACCEPT,       /* `by` accepted the current marking */
    GO_SEV_CLEAR,        /* a change after an accept cleared the accepts */
    GO_SEV_AGREED        /* both accepted: the result is final */
} go_session_event_kind_t;

typedef struct go_session_event {
    go_session_event_kind_t kind;
    go_color_t by;        /* the player (GO_EMPTY: the station or an arbiter) */
    go_point_t point;     /* TOGGLE: the point clicked */
    bool dead;            /* TOGGLE: the new state of the stones */
    go_color_t color;     /* TOGGLE: the colour of the stones toggled */
    int nstones;          /* TOGGLE / PROPOSE / SET: stones marked */
    int ngroups;          /* PROPOSE / SET: chains marked */
} go_session_event_t;

/* A session on a copy of the final position. par: komi, handicap, captures, pass stones
 * (copied). NULL on a bad argument or no memory. Caller destroys. */
go_session_t *go_session_create(const go_board_t *final, const go_rules_t *rules,
                                const go_score_params_t *par);
/* The session at the end of game g: the one count that the station, `kifucam score` and
 * the benchmarks share, so that a recording's count and `score` on its record agree
 * (issue 20). The parameters come from the game: the final position, the captures of the
 * game (its board's prisoners), each colour's passes (AGA pass stones); komi2 and
 * handicap as the caller holds them (KM[] / HA[] or the options, the station's
 * settings); the side to move (go_session_set_turn) when the game has a move or
 * pl_given (the record's PL[]). NULL on a bad argument or no memory. Caller destroys. */
go_session_t *go_session_for_game(const go_game_t *g, const go_rules_t *rules, int komi2,
                                  int handicap, bool pl_given);
/* Free the session. Does nothing if NULL. */
void go_session_destroy(go_session_t *s);

/* The side to move in the final position (the record's last move, PL[]; GO_EMPTY:
 * unknown, the default), for the proposal (go_life_options_t.to_move). GO_EINVAL for
 * another colour. */
int go_session_set_turn(go_session_t *s, go_color_t to_move);
/* Run the dead-stone proposal (opt may be NULL: the defaults, with ko_dead on for the
 * japanese preset, bent four in the corner is dead, and to_move as set by
 * go_session_set_turn) and mark its dead stones, except those that would lie on an
 * unsettled border once off (go_score_t.unsettled: a border left open is not closed by
 * guess; the call is kept alive, and dropped from the proposal's groups); under
 * Tromp-Taylor (rules->remove_dead false) nothing is marked. Clears accepts. */
int go_session_propose(go_session_t *s, const go_life_options_t *opt);
/* Replace the marking with dead[GO_CELLS] (nonzero: dead; only stones are kept). Clears
 * accepts. */
int go_session_set_dead(go_session_t *s, const uint8_t *dead);
/* The marking people asked for (--dead of score and count, go_point.h): AUTO runs the
 * proposal (as go_session_propose with opt NULL), NONE and LIST set the mask, EDIT runs
 * the proposal and then applies each call to it. Returns GO_OK, GO_ENOMEM, or GO_EINVAL
 * with *bad (may be NULL) the index of a call that does not fit the board
 * (go_dead_spec_apply); on GO_EINVAL the marking is the proposal, or unchanged. */
int go_session_apply_dead(go_session_t *s, const go_dead_spec_t *spec, int *bad);
/* Toggle the group at stone p (see above), by player `by` (GO_EMPTY: arbiter). Returns the
 * number of stones changed (> 0), or GO_EINVAL when p holds no stone. Clears accepts. */
int go_session_toggle(go_session_t *s, int p, go_color_t by);
/* Player c accepts the current marking. GO_EINVAL for a bad colour. */
int go_session_accept(go_session_t *s, go_color_t c);

bool go_session_accepted(const go_session_t *s, go_color_t c);
/* Both players accepted the current marking. */
bool go_session_agreed(const go_session_t *s);
/* The dead mask (GO_CELLS bytes, 1 = dead); valid until the next change. Never NULL. */
const uint8_t *go_session_dead(const go_session_t *s);
/* The last proposal (confidences, unconditional status), or NULL before any. */
const go_life_result_t *go_session_proposal(const go_session_t *s);
/* The count's parameters (komi, handicap, captures, pass stones). Never NULL. */
const go_score_params_t *go_session_params(const go_session_t *s);
/* The board being scored. Never NULL. */
const go_board_t *go_session_board(const go_session_t *s);

/* Count the current marking (go_score_count). */
int go_session_score(const go_session_t *s, go_score_t *out);

/* The log, oldest first. go_session_log returns NULL out of range. */
int go_session_log_count(const go_session_t *s);
const go_session_event_t *go_session_log(const go_session_t *s, int i);

/* A comment for the SGF record (UTF-8, one line per event, then the result of the current
 * marking): what was proposed, what each player changed, who accepted, what was agreed.
 * Writes at most len bytes with a NUL; returns the full length (as snprintf). */
int go_session_comment(const go_session_t *s, char *buf, size_t len);

#endif
