/* stn_stab.h: the stabiliser — from the camera's snapshots, one per frame, to the few
 * "accepted" views of the board that the tracker diffs against the game.
 *
 * A view is accepted when nothing moves over the board: no frame of the run had the
 * occluder flag (a hand, an arm, a sleeve, a head), the occlusion mask did not change,
 * every point read with confidence (voted over the last three frames: a one-frame misread
 * or dropout is not a change) agreed with the run, for at least `stable_s` seconds
 * and `min_frames` frames. Each run of agreeing frames is accepted once. Points hidden or
 * read without confidence are STN_UNKNOWN, never empty. A lost board (board_lost) ends
 * the run. The view tells when the hand left the board (t_clear), for the clock and the
 * latency figure.
 */
#ifndef KIFUCAM_STN_STAB_H
#define KIFUCAM_STN_STAB_H

#include <stdint.h>

#include "vision/vis_snapshot.h"

#define STN_UNKNOWN 3   /* a view's colour for a point that is hidden or unsure */

typedef struct stn_stab_config {
    double stable_s;   /* seconds the board must stay still before a view is accepted;
                          default 0.2 (latency vs. a half-placed stone accepted) */
    int min_frames;    /* frames that must agree, at least; default 3 (guards low fps) */
    float min_conf;    /* a point's colour below this confidence is unknown; default 0.8
                          (the reader's confidence is a probability, vis_decide: a bare
                          pale corner read white at 0.73 was a move; 0.5 let it vote) */
} stn_stab_config_t;

/* An accepted view: row-major like vis_snapshot_t (index y*size + x). */
typedef struct stn_view {
    int size;
    uint8_t color[VIS_MAX_POINTS];  /* GO_EMPTY, GO_BLACK, GO_WHITE or STN_UNKNOWN */
    uint64_t frame;                 /* the frame that completed the run (acceptance) */
    double t;                       /* its time, seconds */
    double t_clear;                 /* when the hand left the board (first frame of
                                       the run after the last occluded one) */
    float first_t[VIS_MAX_POINTS];  /* since when the point has shown its colour (read
                                       in two frames running, hands or not: the order
                                       stones were placed between two views; a blip
                                       of another reading under 1 s, a shadow or a
                                       hand's edge, keeps the stone's time), or -1:
                                       not known (scripted views: stn_view_init) */
    uint8_t unreached[VIS_MAX_POINTS]; /* 1: a hand was over the board since the last
                                       view, and no frame since hid this point (no hand
                                       reached it: a stone gone there is a misread);
                                       0: hidden since, no hand seen, the board lost, or
                                       not known (scripted views: stn_view_init) */
} stn_view_t;

typedef struct stn_stab stn_stab_t;

/* Fill *c with the defaults above. */
void stn_stab_defaults(stn_stab_config_t *c);
/* A new stabiliser (cfg NULL: defaults). NULL when out of memory. Caller destroys. */
stn_stab_t *stn_stab_create(const stn_stab_config_t *cfg);
/* Free it. Does nothing if NULL. */
void stn_stab_destroy(stn_stab_t *s);
/* Forget the current run (after a board loss or a resume). */
void stn_stab_reset(stn_stab_t *s);
/* Feed one frame. Returns 1 and writes *out when this frame completes a stable run,
 * 0 when not (out untouched), GO_EINVAL for a bad snapshot (size outside 2..25). */
int stn_stab_feed(stn_stab_t *s, const vis_snapshot_t *snap, stn_view_t *out);
/* 1 when the board still shows the last accepted view: the current run is the one handed
 * out, nothing over the board since (a tracker's held warning may then fall due). */
int stn_stab_settled(const stn_stab_t *s);
/* An all-unknown view of this size, to fill by hand (scripted tests). */
void stn_view_init(stn_view_t *v, int size);

#endif
