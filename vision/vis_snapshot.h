/* vis_snapshot.h: what vision hands to the station for one frame: per point, a colour,
 * a confidence and whether something (a hand, an arm, a sleeve) hides it. Vision knows
 * nothing of games: this is only what the camera saw.
 *
 * Points are row-major, index y*size + x, row 0 at the top of the board as the record is
 * drawn (SGF "aa" is index 0). Colours are go_color_t
 * (rules/go_color.h, header only: the one colour type of the project).
 */
#ifndef KIFUCAM_VIS_SNAPSHOT_H
#define KIFUCAM_VIS_SNAPSHOT_H

#include <stdint.h>

#include "rules/go_color.h"

#define VIS_MAX_SIZE 25
#define VIS_MAX_POINTS (VIS_MAX_SIZE * VIS_MAX_SIZE)

/* A side of the board as the picture shows it (bottom: the edge nearest the picture's
 * bottom, where row 1 is drawn), clockwise: the one side type of vision, calib (a
 * profile's black_side) and station (the seats). */
typedef enum { VIS_SIDE_BOTTOM = 0, VIS_SIDE_RIGHT, VIS_SIDE_TOP, VIS_SIDE_LEFT } vis_side_t;

/* The side's name as profiles and messages spell it ("bottom", "right", "top", "left"),
 * "?" for no side; never NULL. */
static inline const char *vis_side_name(vis_side_t s)
{
    static const char *const names[4] = { "bottom", "right", "top", "left" };
    return (unsigned)s < 4 ? names[s] : "?";
}

typedef struct vis_snapshot {
    int size;                          /* 9, 13, 19 (any 2..25 for scripted tests) */
    uint8_t color[VIS_MAX_POINTS];     /* go_color_t; meaningless where occluded */
    float conf[VIS_MAX_POINTS];        /* 0..1: how sure the colour is */
    uint8_t occluded[VIS_MAX_POINTS];  /* 1: hidden; the colour is unknown, not empty */
    int occluder;                      /* 1: something is over the board in this frame */
    int board_lost;                    /* 1: the grid no longer fits (board/camera moved) */
    int refined;                       /* 1: the board moved a little (under half a
                                          cell); vis_track_update moved the geometry */
    float shift_x, shift_y;            /* that offset, grid units (board x, y) */
    float grid_belief;                 /* 0..1: how much the reader believes the grid is
                                          the board's (vis_grid_belief); 0 unknown */
    float grid_context;                /* 0..1: the same belief with more of the picture
                                          around the grid in view (vis_window_belief of
                                          its window in board finding's wider read); 0
                                          unknown (given corners, tracking, a video) */
    uint64_t frame;                    /* the frame's sequence number */
    double t;                          /* the frame's time, seconds from the start */
} vis_snapshot_t;

/* A point is sure when nothing covers it and its colour's confidence is at least this.
 * What a photo's reader prints as '?' (detect), what count refuses to count silently,
 * and what bench_vision counts as a flag raised on a photo read wrong. The station does
 * not use it (its stabiliser has its own min_conf: a video has the next frames).
 * 0.9, chosen on roboflow-stones folds 0-2 read by their held-out fold models
 * (make train-folds; bench_vision stones --fold-models DIR --photo --sweep, 2026-12-04):
 * photos read wrong with no flag 13 -> 6 of 30, photos read right but flagged 2 -> 10 of
 * 42; past 0.9 each silent misread caught costs two or more right photos flagged (0.95:
 * 3 and 17). Measured where it was not chosen: folds 3-4 silent 12 -> 2 of 24 wrong,
 * right flagged 4 -> 8 of 24. It was 0.5 (another colour thought at least as likely). */
#define VIS_SURE_CONF 0.9f

/* A grid is in doubt when the reader, reading a lattice three lines wider than the grid
 * all round (board finding's vis_grid_shift), believes the grid's window of it less than
 * this (snapshot.grid_context): the lines beyond its edge are the board's, not its margin
 * (a part of a bigger board, a window lines off), which the grid's own read, with one
 * ring beyond its edge lines, can miss. Then the whole reading may be of the wrong
 * points: detect says so, count asks for the corners. 0.6, chosen on roboflow-stones
 * folds 0-2, as they are and three posed copies (bench/pose.sh, seeds 18 and 19, and 18
 * with coloured light), read by their fold models (2026-12-06, a seventh session), on the
 * window found before any move of it: every exact reading's grid 0.63 or more, wrong
 * grids down to 0.47. What it catches, and folds 3-4: vision/README.md. */
#define VIS_GRID_DOUBT 0.6f

/* 1 when s's grid is in doubt (its grid_context known and under VIS_GRID_DOUBT). */
static inline int vis_grid_doubted(const vis_snapshot_t *s)
{
    return s->grid_context > 0 && s->grid_context < VIS_GRID_DOUBT;
}

/* 1 when point k of s is unsure (covered, or confidence under VIS_SURE_CONF), else 0. */
static inline int vis_point_unsure(const vis_snapshot_t *s, int k)
{
    return s->occluded[k] || s->conf[k] < VIS_SURE_CONF;
}

#endif
