/* vis_border.h: the border watch (video): something crossing the board's border, seen as a
 * change of the pixels just beyond the edge lines.
 *
 * A hand that has just set a stone down often rests its fingertips on the edge lines for a
 * few frames while the arm still lies across the border. The reader can take a fingertip
 * on an edge point for a white stone, sure of it and not covered, and the stabiliser then
 * accepts a view with a stone that is not there (the played-out games of bench/record.sh:
 * 4 of the 6 games lost were lost so). The arm on the border is plain in the pixels: a
 * band beyond each edge line (1.25 to 1.75 lines out, clear of a stone on the edge line
 * and of its top, which a camera seeing the board at an angle shows leaning away from it)
 * changes by tens of levels against a few of noise. So each frame's ring is compared with how it looked
 * with nothing there; a changed block hides the edge points beside it (occluded) and sets
 * the snapshot's occluder flag, and the stabiliser waits until the border is clear.
 *
 * What "nothing there" looked like is each sample's range of colour within 0.15 of a
 * cell around it (the camera shaking by a pixel or two moves the board's edge under a
 * sample: still nothing there), learned when the block is first seen in a frame where the
 * reader sees no hand over the board (snap->occluder clear). A changed block
 * that has not moved for settle_s seconds is left alone (a bowl put down beside the board,
 * a hand resting on the border, a light turned on), so a still thing holds no view back
 * for longer than that; the background is kept until the change has stood still for
 * learn_s, so that a hand that rested there and leaves is no change (learned anew at
 * settle_s, it held the next view back by settle_s on the renders), and a background
 * learned with something since gone is put right (kept for good, every shake of the camera
 * moved the block and held views back again). Changes are taken relative to the median
 * change of the ring's samples (the camera's exposure, a cloud).
 *
 * Vision knows nothing of games; this needs frames of one camera in order (the loop keeps
 * one per stream; a photo has no "before").
 *
 *   vis_border_t w;  vis_border_init(&w, NULL);
 *   per frame, after the snapshot is made:  vis_border_watch(&w, &img, &geom, &snap);
 *   the board lost or found again:  vis_border_reset(&w);  (kept if it is where it was)
 *
 * Invariants: the state changes only in vis_border_watch and vis_border_reset; a snapshot
 * is only ever given more occluded points (never fewer) and the occluder flag set, never
 * cleared; blocks outside the picture are never watched.
 */
#ifndef KIFUCAM_VIS_BORDER_H
#define KIFUCAM_VIS_BORDER_H

#include "vision/vis.h"

#define VIS_BORDER_SAMPLES 8 /* samples per ring block: 4 along the edge, 2 across */

typedef struct vis_border_params {
    float change_min;  /* levels (0..255), default 16: a block whose samples lie, on the mean,
                          this far outside their background's range (the most of B, G, R,
                          beyond the ring's median change) is crossed. On the renders an
                          arm is 40-120, noise and shake under 14; smaller sees a dark
                          sleeve on a dark table sooner, and shadows more */
    float steady_max;  /* levels, default 6: a block that moves less than this from one
                          frame to the next is still (the clock of settle_s runs) */
    double settle_s;   /* seconds, default 1.0: a changed block still this long is not
                          crossed; the longest a still thing on the border (a bowl, a
                          resting hand) holds the board's views back */
    double learn_s;    /* seconds, default 10 (>= settle_s): ... and still this long, it is
                          the background (a hand resting longer, then leaving, holds the
                          next view back until it settles, settle_s; 3 s took the renders'
                          resting hands for the table, and held 5 of 600 views back by 1.9
                          to 5.5 s) */
    double inner;      /* lines beyond the edge line, default 1.25: where the watched band
                          starts (nearer: a stone on the edge line, or its top seen at an
                          angle, in the band, its move held back until it settles; 0.95
                          was tried first, and left for 1.25 before the views it held back
                          on the renders were traced to another cause: not measured
                          alone since) */
    double outer;      /* lines beyond the edge line, default 1.75: where it ends (further
                          out: more of the table, bowls and hands that are not over the
                          board; a board that nearly fills the picture has less band in it) */
} vis_border_params_t;

/* A board found again with every corner within this share of a cell of where the watch last
 * saw it is the same board in the same place (an arm hid it): its background stands. Cold
 * detection at 640x360 finds a small board's corners 2-3 pixels from where they were, a
 * third of its cell (0.25 forgot the background, and learned the arm with it). */
#define VIS_BORDER_SAME_PLACE 0.5

typedef struct vis_border {
    vis_border_params_t p;
    int size;                              /* 0: no state (the next frame is the first) */
    int lost;                              /* 1: reset since the last frame */
    double corners[4][2];                  /* the geometry's corners at the last frame */
    float ref[VIS_RING_MAX][VIS_BORDER_SAMPLES][3]; /* each sample with nothing there: */
    float lo[VIS_RING_MAX][VIS_BORDER_SAMPLES][3];  /* its B, G, R, and their range */
    float hi[VIS_RING_MAX][VIS_BORDER_SAMPLES][3];  /* around it */
    float last[VIS_RING_MAX][3];           /* the block's mean colour in the last frame */
    double still_since[VIS_RING_MAX];      /* when the block last moved */
    uint8_t watched[VIS_RING_MAX];         /* 1: the block has a background, in the picture */
    long frames, crossed;                  /* frames watched, frames with a crossing */
} vis_border_t;

/* Fill *p with the defaults above. */
void vis_border_params_defaults(vis_border_params_t *p);
/* A watch with no state yet; p NULL: the defaults (copied). */
void vis_border_init(vis_border_t *w, const vis_border_params_t *p);
/* The board was lost, or found again: the next frame's geometry is compared with the last
 * one's, and what the border looked like is forgotten unless the board is where it was
 * (VIS_BORDER_SAME_PLACE; an arm over the board loses it for a frame or two, and a
 * background learned anew then took the arm for the table, which held views back on the
 * renders). */
void vis_border_reset(vis_border_t *w);
/* Watch one frame (img BGR or gray, geom the snapshot's geometry, snap the frame's
 * snapshot at time snap->t): the edge points beside each crossed block are occluded
 * (colour empty, confidence 0) and snap->occluder set. The first frame, and the first after
 * a reset that finds the board elsewhere, only learns (where the reader sees no hand).
 * Returns the number of crossed blocks (0 when none), or VIS_EINVAL (nothing changed). A
 * lost board (snap->board_lost) resets the watch and returns 0. */
int vis_border_watch(vis_border_t *w, const cvb_image_t *img, const vis_geom_t *geom,
                     vis_snapshot_t *snap);

#endif
