/* record_signal.h: the physical end signals of the Chinese competition rules, watched
 * beside the board by `kifucam record`.
 *
 * At the end, each player puts one stone of the OTHER colour just outside the board at
 * the lower right corner as seen from his own seat (the end of the game by agreement,
 * like two passes); a player resigns by putting his OWN colour there (two stones). So
 * the colour seen in a seat's corner tells what that player said.
 *
 * The pixels are vision's (vision/vis_outside.h: the patch of table beside each corner,
 * its reference look, one reading per frame); the watcher calls a seat's corner "black"
 * or "white" when the same reading stayed so for hold_s seconds. Never prints.
 */
#ifndef KIFUCAM_RECORD_SIGNAL_H
#define KIFUCAM_RECORD_SIGNAL_H

#include <stdint.h>

#include "vision/vis.h"
#include "vision/vis_outside.h"

typedef struct rec_corner {
    int seat;                        /* 1 Black, 2 White */
    int reading;                     /* go_color_t of the current run */
    double since;                    /* time the run began */
    int frames;                      /* frames in the run */
    int confirmed;                   /* go_color_t held long enough */
    double confirmed_since;          /* when the confirmed reading's run began */
    int cx, cy;                      /* the board's corner point nearest the patch */
    int side;                        /* the seat's side (vis_side_t) whose corner this is:
                                        the reader's corner (vis_outside_t.corner[side]) */
    int spent;                       /* a reading play went on past (rec_signal_revert): it
                                        moves no seats until the corner reads otherwise */
} rec_corner_t;

typedef struct rec_signal {
    int size;
    vis_outside_t vo;                /* the table beside the corners, as pixels */
    double hold_s;                   /* seconds a reading must hold; default 0.5 */
    rec_corner_t corner[3];          /* index 1 Black's, 2 White's */
    rec_corner_t other[2];           /* the other diagonal's corners (seats at the other two
                                        sides: a camera beside a player, no calibration) */
    int seats_known;                 /* the seats' corners are settled (seats_moved or not) */
    int seats_moved;                 /* end signals were seen on the other diagonal:
                                        corner[] are those now */
    int guessed;                     /* seats_moved on one signal (the side to move's): undone
                                        by rec_signal_revert when play goes on */
    int swaps;                       /* how often corner[] changed places (the caller's
                                        per-seat state about the corners is then stale) */
    int to_move;                     /* 1 Black, 2 White, 0 unknown (rec_signal_set_turn) */
} rec_signal_t;

/* Set up the watcher for a board of this size; black_side: 0 bottom, 1 right, 2 top,
 * 3 left (vis_side_t: the record's side facing Black's seat; White sits opposite).
 * Without a calibration the seats are a guess (the record's bottom: a camera behind
 * Black): the corners of the other diagonal are watched too, and when the two end
 * signals (a white stone at one, a black stone at the other) lie there, the players sit
 * at those sides: Black at the white stone's corner; they become the seats' corners
 * (seats_moved; the feed reports both changed). One signal alone there: see
 * rec_signal_set_turn. */
void rec_signal_init(rec_signal_t *s, int size, int black_side);
/* The side to move now (1 Black, 2 White, 0 unknown). While the seats are a guess, one
 * signal alone on the other diagonal is the side to move's (the end signal comes first
 * from him, and a player resigns when it is his turn): he sits at that side, the opponent
 * opposite; those corners become the seats' (seats_moved, guessed; the feed reports both
 * changed). */
void rec_signal_set_turn(rec_signal_t *s, int seat);
/* Play went on past a reading: when the seats were moved on one signal (guessed), that was
 * no signal: the seats go back to where they were. Returns 1 when they did. */
int rec_signal_revert(rec_signal_t *s);
/* Take the reference look of both corners from this frame (empty corners). */
void rec_signal_reference(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g);
/* After a frame read with nothing over the board: samples beside a board point whose
 * stone came or went since their reference (stones: as for the feed) take their
 * reference again, from this frame, so that they are read again (a stone on the board's
 * corner point no longer hides the table beside it) — only at corners reading nothing,
 * so a signal stone is never taken for the table. */
void rec_signal_refresh(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                        const uint8_t *stones);
/* Read one frame at time t. stones (size*size, row-major, may be NULL): nonzero where the
 * record has a stone; samples beside a point that is not as it was at their reference
 * are skipped (a stone's side seen under perspective; rec_signal_refresh). occluder: something is over the board in this frame, which then neither
 * starts nor ends a run. Returns a bit mask of the corners whose confirmed reading
 * changed (bit 1 Black's, bit 2 White's); 0 when nothing changed or no reference yet. */
int rec_signal_feed(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                    const uint8_t *stones, int occluder, double t);
/* The confirmed reading of seat's corner (1 Black, 2 White): go_color_t. */
int rec_signal_get(const rec_signal_t *s, int seat);
/* Whether point (x, y) lies within `d` lines of seat's signal corner (a signal stone put
 * half on the board can be read there as a stone). */
int rec_signal_near(const rec_signal_t *s, int seat, int x, int y, int d);

/* The side (vis_side_t) of Black's seat as the watcher now takes it. */
int rec_signal_black_side(const rec_signal_t *s);

#endif
