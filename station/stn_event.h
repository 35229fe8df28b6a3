/* stn_event.h: what the station reports — moves, takebacks, the referee's findings, the
 * record's health — as data (never printed here: only the CLI prints).
 *
 * One prefix for the whole station: stn_. An event list is a growable array owned by its
 * user; each event is self-contained (no pointers into the station).
 */
#ifndef KIFUCAM_STN_EVENT_H
#define KIFUCAM_STN_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "rules/go_board.h"

typedef enum {
    STN_EV_MOVE = 0,       /* a stone played and recorded (points[0]; captured stones follow) */
    STN_EV_PASS,           /* a pass recorded (console) */
    STN_EV_RESIGN,         /* a resignation recorded (console) */
    STN_EV_END,            /* the game ended (two passes, resignation, console end) */
    STN_EV_TAKEBACK,       /* the last move undone (its stone was taken off, or console) */
    STN_EV_WRONG_COLOUR,   /* a stone of the other colour was played: recorded as the turn's */
    STN_EV_AMBIGUOUS,      /* several moves at once, more than one order fits the rules */
    STN_EV_VOID,           /* illegal move (occupied, suicide, ko, superko): void, a pass */
    STN_EV_TWO_IN_A_ROW,   /* the same side moved twice without a pass: a loss (arbiter) */
    STN_EV_MOVED,          /* stones moved or removed without capture: restore points[] */
    STN_EV_RESTORE,        /* the board disagrees with the record at points[]: restore them */
    STN_EV_AGREES,         /* the board agrees with the record again */
    STN_EV_WARNING,        /* a referee's warning to `color` (competition rules, 9 and 8) */
    STN_EV_LOSS,           /* `color` loses under the competition rules (two warnings, ...) */
    STN_EV_CYCLE,          /* a whole-board position repeats: triple ko, quadruple ko,
                              eternal life: a possible draw or replay (arbiter decides) */
    STN_EV_UNEXPLAINED,    /* the snapshot differs from the record in a way no move explains */
    STN_EV_BOARD_LOST,     /* the camera lost the grid (board or camera moved) */
    STN_EV_RECORD_ERROR,   /* writing the SGF failed: the last good file stays, game in memory */
    STN_EV_RECORD_OK,      /* the SGF was written again after an error */
    STN_EV_COUNT,          /* the count: dead stones proposed, marked (taken off the board or
                              toggled), accepted; points[] = dead stones (capped), msg = the
                              result of the current marking */
    STN_EV_RESULT,         /* both players accepted the count: msg = RE[] ("B+3.5") */
    STN_EV_CLOCK,          /* the clock (time control): an arbiter's call (msg in English,
                              zh in Chinese), byo-yomi begun, a period used, the loss on
                              time, a pause or resume; color = the side concerned */
    STN_EV_HANDICAP,       /* black stones on a standard handicap placement before move 1
                              taken as the handicap (points[]: the stones; stn_start.h) */
    STN_EV_SIGNAL,         /* what the end signals beside the board were taken to mean
                              (stn_signal.h): msg "signal: ..."; the referee's reading,
                              which play often undoes: the arbiter's */
    STN_EV_END_AWAITED,    /* `color` signalled the end; the opponent's end signal is
                              awaited (msg says whose, and how): told to viewers too */
    STN_EV_KIND_COUNT
} stn_event_kind_t;

#define STN_EV_MAX_POINTS 32
#define STN_EV_MSG 200

typedef struct stn_event {
    stn_event_kind_t kind;
    go_color_t color;          /* the side concerned, GO_EMPTY when none */
    int npoints;               /* points[] used (capped at STN_EV_MAX_POINTS) */
    go_point_t points[STN_EV_MAX_POINTS]; /* go_board.h points (GO_PT) */
    int move;                  /* 1-based number of the move concerned, 0 if none */
    int ncaptured;             /* for STN_EV_MOVE: stones captured */
    uint64_t frame;            /* frame of the snapshot that showed it */
    double t;                  /* time of that frame, seconds */
    double t_hand;             /* time the hand left the board before it (latency), or t */
    char msg[STN_EV_MSG];      /* one line of English, no trailing newline */
    char zh[64];               /* STN_EV_CLOCK: the call as a Chinese arbiter says it (UTF-8),
                                  else "" */
} stn_event_t;

typedef struct stn_events {
    stn_event_t *v;            /* n events, oldest first */
    int n, cap;
} stn_events_t;

/* Empty list in caller storage. */
void stn_events_init(stn_events_t *l);
/* Free the list's storage; the list is empty and reusable after. Does nothing if NULL. */
void stn_events_fini(stn_events_t *l);
/* Forget all events (keeps the storage). */
void stn_events_clear(stn_events_t *l);
/* Append a copy of *e. Returns 0 or GO_ENOMEM (list unchanged). */
int stn_events_push(stn_events_t *l, const stn_event_t *e);
/* Make room for `more` events, so that as many pushes cannot fail. Returns 0 or
 * GO_ENOMEM (list unchanged). */
int stn_events_reserve(stn_events_t *l, int more);
/* Number of events of this kind in the list. */
int stn_events_count(const stn_events_t *l, stn_event_kind_t kind);
/* The first event of this kind, or NULL. Valid until the list changes. */
const stn_event_t *stn_events_find(const stn_events_t *l, stn_event_kind_t kind);

/* Lower-case name of a kind ("move", "void", ...) as the JSON events use it; never NULL. */
const char *stn_event_kind_name(stn_event_kind_t kind);

/* Who the kind is for, the one classification the pages and the JSON use: "viewer" (what
 * a broadcast shows: moves, passes, takebacks, the end, the count and its result, the
 * clock, warnings and losses) or "arbiter" (housekeeping for the players and the
 * arbiter: stones to restore or put back, the board agreeing again, a void or
 * wrong-colour move, two moves in a row, a repeated position, a lost board, the
 * record's health). Never NULL. */
const char *stn_event_audience(stn_event_kind_t kind);

/* The event as one line of JSON (INTERFACE.md, record --format json), no newline:
 * {"event":"move","n":12,"color":"B","point":"qd","t":12.4,"frame":372,"latency":0.23,
 *  "points":["qd","qc"],"audience":"viewer","msg":"...","zh":"..."}; "color"/"point"/
 * "points"/"zh" only when set; points are SGF letters, msg names them as people do (Q16). Writes at
 * most len bytes with a NUL; returns the full length (as snprintf). */
int stn_event_json(const stn_event_t *e, char *buf, size_t len);

#endif
