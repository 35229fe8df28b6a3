/* stn_signal.h: the physical end signals of the Chinese competition rules, as the
 * station's referee reads them: runs, holds, seats, the pass before the last move, the
 * resignation, a signal stone misread as a move.
 *
 * At the end, each player puts one stone of the OTHER colour just outside the board at
 * the lower right corner as seen from his own seat (the end of the game by agreement,
 * like two passes); a player resigns by putting his OWN colour there (two stones). So the
 * colour seen in a seat's corner tells what that player said.
 *
 * The pixels are vision's (vision/vis_outside.h reads the table beside each corner, one
 * reading per side per frame); this module never sees an image. It is fed those readings,
 * the frame's snapshot (hands near a corner) and the station (the game, its moves and
 * their times), and it acts on the station (stn_undo, stn_pass_before_last, stn_resign,
 * stn_end) as the referee would. What it did is events: the station's own (takebacks,
 * passes, the end) in the order they came, STN_EV_SIGNAL for what the signals were taken
 * to mean (msg: one line, "signal: ..."), and STN_EV_END_AWAITED when one player's end
 * signal stands and the other's is awaited. Never prints.
 *
 * Invariants:
 *  - a corner's confirmed reading changes only after the same reading held hold_s seconds
 *    and min_frames frames; frames with something over the board, or an unsure reading,
 *    neither start nor end a run;
 *  - a confirmed reading counts (stn_signal_get) only once it also held quiet_s and
 *    min_frames read frames after the last hand near that corner left, and only until play
 *    goes on past it (a stone, a bowl or a shadow left beside the board is no signal);
 *  - seats are indexed by go_color_t (1 Black, 2 White); sides are vis_side_t; a corner's
 *    `side` names the reader's corner (vis_outside_t.corner[side]) whose readings it takes;
 *  - the seats are known from a calibration, from the players' hands (each move's hand
 *    counted for its player's side: seat_moves of each from opposite sides), or from two
 *    end signals; until then they are a guess, and a lone signal can move them only on
 *    the other diagonal (the side to move's). Once known they never move.
 *
 *   stn_signal_t g;  stn_signal_init(&g, 19, VIS_SIDE_BOTTOM, have_calibration, NULL);
 *   once, nothing beside the corners:      stn_signal_reference(&g);
 *   per frame (after stn_feed):            stn_signal_hands(&g, &snap);   // before the gate
 *       stn_signal_stones(&g, stn, t, stones)  -> the mask for vis_outside_read
 *       int rd[4]; vis_outside_read(..., stn_signal_sides(&g), rd)
 *       stn_signal_read(&g, stn, ok ? rd : NULL, t);  stn_signal_judge(&g, stn, t, 0);
 *   after a move was recorded:             stn_signal_after_move(&g, stn, t);
 *   at the end of a file:                  stn_signal_judge(&g, stn, t, 1); stn_signal_finish
 *   then:  const stn_event_t *ev = stn_signal_events(&g, &n);
 */
#ifndef KIFUCAM_STN_SIGNAL_H
#define KIFUCAM_STN_SIGNAL_H

#include <stdint.h>

#include "station/station.h"
#include "station/stn_finish.h"
#include "vision/vis_snapshot.h"

typedef struct stn_signal_params {
    double hold_s;         /* s, default 0.5: a corner's reading must hold this long (and
                              min_frames) to be confirmed; longer: slower, fewer shadows */
    int min_frames;        /* default 3: ... and over this many read frames */
    double quiet_s;        /* s, default 0.5: a confirmed reading counts once it also held
                              this long after the last hand near the corner left (a hand
                              that touched the patch, then reached over the corner) */
    int hand_d;            /* lines, default 3: a hidden board point this near a seat's
                              corner point is a hand at that corner */
    double visit_gap_s;    /* s, default 0.3: a hand at a corner after this long with none
                              there begins a new visit */
    double visit_slack_s;  /* s, default 0.1: a move seen this much before a visit began is
                              still the visit's (a signal stone misread as a move) */
    double undo_window_s;  /* s, default 1.5: a move at the corner seen at most this long
                              before the reading began can be the signal stone misread */
    double recent_s;       /* s, default 3: a move this recent at a signal point does not
                              mask the samples beside it (it may be a signal stone) */
    double resign_hold_s;  /* s, default 2: a player's own colour beside his corner is a
                              resignation once it stayed this long with no hand over the
                              board (a highlight, a bowl pushed past, a captured stone
                              carried off do not stay) */
    double resign_guess_s; /* s, default 4: ... while the seats are a guess (the opponent's
                              stone at the other corner would make it the two end signals
                              with the seats the other way round) */
    int seat_moves;        /* default 3: with no calibration, the seats are taken from the
                              players' hands once this many of each player's moves came
                              with a hand from one side of the board, Black's and White's
                              from opposite sides (0: never; the seats stay a guess until
                              the signals tell them); more: later, surer */
    double seat_share;     /* 0..1, default 0.75: ... and at least this share of each
                              player's moves that told a side came from that side (a hand
                              reaching across to mend a stone, a kibitzer's) */
    int seat_hand_min;     /* points, default 3: a move tells its player's side only when
                              its hand hid at least this many points (summed over the
                              frames since the move before): a hand that set a stone on
                              its own edge hardly covers the board */
    double seat_reach;     /* lines, default 1.5: ... and when the hidden points' centre
                              lies this far or more from the stone, twice as far along one
                              axis as along the other (the arm runs from the stone to the
                              player's side; a reach across a corner tells no side) */
} stn_signal_params_t;

typedef struct stn_signal_corner {
    int seat;                        /* go_color_t of the seat, GO_EMPTY on the other diagonal */
    int reading;                     /* go_color_t of the current run */
    double since;                    /* time the run began */
    int frames;                      /* frames in the run */
    int confirmed;                   /* go_color_t held long enough */
    double confirmed_since;          /* when the confirmed reading's run began */
    int cx, cy;                      /* the board's corner point nearest the patch */
    int side;                        /* the seat's side (vis_side_t) whose corner this is */
    int spent;                       /* a reading play went on past (stn_signal_revert): it
                                        moves no seats until the corner reads otherwise */
} stn_signal_corner_t;

typedef struct stn_signal {
    int size;
    stn_signal_params_t p;
    stn_signal_corner_t corner[3];   /* index GO_BLACK Black's, GO_WHITE White's */
    stn_signal_corner_t other[2];    /* the other diagonal's corners (seats at the other two
                                        sides: a camera beside a player, no calibration) */
    int seats_known;                 /* the seats' corners are settled */
    int seats_moved;                 /* end signals were seen on the other diagonal:
                                        corner[] are those now */
    int guessed;                     /* seats_moved on one signal (the side to move's): undone
                                        when play goes on */
    int swaps;                       /* how often corner[] changed places */
    int to_move;                     /* go_color_t, GO_EMPTY unknown */
    /* the referee's state per seat */
    int stale[3];                    /* a reading play went on past (stn_signal_after_move);
                                        cleared once the corner confirms another */
    int quiet[3];                    /* the confirmed reading that held with no hand near the
                                        corner (stn_signal_settle), else GO_EMPTY */
    double occ_last[3];              /* the last frame with a board point near the corner
                                        hidden (a hand there) */
    double occ_visit[3];             /* ... and when that hand's visit began */
    int quiet_frames[3];             /* frames read since, with no hand near the corner */
    int swaps_seen;                  /* the swaps the above follow */
    int end_seat;                    /* the side to move's end signal was confirmed (on his
                                        turn, at move end_n): go_color_t, GO_EMPTY none */
    int end_n;                       /* the moves in the record then */
    double hand_last;                /* the last frame with something over the board */
    int resign_wait;                 /* a resignation signal waits for resign_hold_s */
    double hand_sum[3];              /* the hidden points since the last move: the sums of
                                        their x, their y, and their count */
    int seat_votes[3][4];            /* per player (go_color_t), the moves whose hand came
                                        from each side (vis_side_t) */
    stn_events_t ev;                 /* what the last call did */
} stn_signal_t;

/* Fill *p with the defaults above. */
void stn_signal_params_defaults(stn_signal_params_t *p);
/* Set up the referee for a board of this size (2..VIS_MAX_SIZE). black_side: the side
 * facing Black's seat (White sits opposite); seats_known: that side is known (a
 * calibration). Otherwise the seats are a guess (the record's bottom: a camera behind
 * Black): the corners of the other diagonal are watched too; the two end signals there
 * (a white stone at one, a black stone at the other) tell the seats (Black at the white
 * stone's corner), and one signal alone there is taken as the side to move's (the end
 * signal comes first from him, and a player resigns on his turn) until play goes on.
 * p NULL: the defaults. Returns GO_OK or GO_EINVAL. Free with stn_signal_fini. */
int stn_signal_init(stn_signal_t *g, int size, vis_side_t black_side, int seats_known,
                    const stn_signal_params_t *p);
/* Free the event list. Does nothing if NULL. */
void stn_signal_fini(stn_signal_t *g);

/* The reader's sides (bit 1 << vis_side_t) to read this frame: the seats' corners, and
 * the other diagonal's while the seats are a guess. */
unsigned stn_signal_sides(const stn_signal_t *g);
/* The reader's sides whose corners read nothing (their reference may be taken again:
 * vis_outside_refresh); a corner reading something never is. */
unsigned stn_signal_quiet_sides(const stn_signal_t *g);
/* A new reference look of the table (vis_outside_reference): every corner's run starts
 * afresh. */
void stn_signal_reference(stn_signal_t *g);
/* Hands near the seats' corners in this frame's snapshot (before the removal gate hides
 * stones lifted): something over the board hiding board points within hand_d lines. */
void stn_signal_hands(stn_signal_t *g, const vis_snapshot_t *snap);
/* The stones beside which the reader's samples are skipped (size*size, row-major): the
 * record's stones and captured stones not yet taken off, except a move of the last
 * recent_s seconds right at a signal corner (maybe a signal stone misread). Returns
 * GO_OK, or GO_EINVAL (the station's board is of another size). */
int stn_signal_stones(const stn_signal_t *g, const stn_t *s, double t, uint8_t *stones);
/* One frame's readings (out[side] of vis_outside_read: VIS_OUTSIDE_UNSURE (-1) or a
 * go_color_t), or NULL when there is none this frame (something over the board, no
 * reference). Runs, confirmations and the seats; events: STN_EV_SIGNAL when the seats
 * moved. Returns the mask of seats whose confirmed reading changed (bit 1 Black's, bit
 * 2 White's). */
int stn_signal_read(stn_signal_t *g, const stn_t *s, const int *rd, double t);
/* The confirmed readings that count, then what they mean, when they changed (changed:
 * stn_signal_read's mask) or a resignation waits: a resignation (own colour, held),
 * the end by agreement (both end signals), one end signal (STN_EV_END_AWAITED), signal
 * stones misread as moves taken back. end_of_file: the footage ended: any reading the
 * patch still shows stands, and a resignation waiting stands. Acts only while the game
 * is in play (playing: the caller's say). Returns 1 when the game is over by it (a
 * resignation or the end), else 0. Events as above. */
int stn_signal_judge(stn_signal_t *g, stn_t *s, int changed, int playing, int end_of_file,
                     double t);
/* A move was recorded (stn_feed): a corner reading something then (and the move not at
 * that corner) was no signal: play goes on; the side to move's end signal followed by a
 * stone of the opponent's colour was his pass (stn_pass_before_last). Events. */
void stn_signal_after_move(stn_signal_t *g, stn_t *s, double t);
/* A file ended with one end signal seen and not the other (stn_finish_signals): the
 * signaller's pass goes in when it is his turn (*out says so); events. */
void stn_signal_finish(stn_signal_t *g, stn_t *s, double t, stn_unfinished_t *out);
/* The reading of seat's corner (go_color_t) that counts: confirmed, settled, and not
 * gone stale by play going on past it. A query: a stale reading stays stale until the
 * corner confirms something else (stn_signal_read, the one place it clears) or the seats
 * move. */
int stn_signal_get(const stn_signal_t *g, int seat);
/* The side (vis_side_t) of Black's seat as the referee now takes it. */
int stn_signal_black_side(const stn_signal_t *g);
/* The events of the last call that makes them. */
const stn_event_t *stn_signal_events(const stn_signal_t *g, int *n);

#endif
