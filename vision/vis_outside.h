/* vis_outside.h: the table beside the board's corners, read as pixels.
 *
 * For each side of the board (vis_side_t), the patch of table just beyond the lower right
 * corner as seen from a seat at that side: sampled on a VIS_OUTSIDE_N x VIS_OUTSIDE_N
 * lattice in grid units (through the board's homography, so it follows the board),
 * remembered as it looked with nothing there (vis_outside_reference), and read in each
 * frame as one of: nothing, a black stone, a white stone, or unsure (hidden by a hand, a
 * sleeve, or too small a change to tell). A sample changed when its brightness or its
 * colour did (a black stone on dark brown wood is hardly darker than the wood, but grey);
 * changes are taken relative to the patch's median change (exposure, light), so only a
 * stone-sized share of changed samples counts.
 *
 * Vision knows nothing of games: no seats, no turns, no runs over time. What a reading
 * means (an end signal, a resignation) is the station's (station/stn_signal.h).
 *
 *   vis_outside_t o;  vis_outside_init(&o, 19, NULL);
 *   vis_outside_reference(&o, &img, &geom);             // nothing beside the corners
 *   per frame:  int r[4];  vis_outside_read(&o, &img, &geom, stones, 0xf, r);
 *
 * Plain C: reads BGR (or grey) pixels directly; never prints.
 */
#ifndef KIFUCAM_VIS_OUTSIDE_H
#define KIFUCAM_VIS_OUTSIDE_H

#include <stdint.h>

#include "vision/vis.h"

#define VIS_OUTSIDE_N 12 /* samples per side of a corner patch (VIS_OUTSIDE_N^2 in all) */
#define VIS_OUTSIDE_NS (VIS_OUTSIDE_N * VIS_OUTSIDE_N)
/* The patch area (grid units squared) the shares below are given for: 2.75 x 2.2 lines. A
 * patch of another size scales them (a stone is the same share of this area) */
#define VIS_OUTSIDE_SHARE_AREA 6.05

typedef struct vis_outside_params {
    /* The patch, for a seat at the bottom, in grid units from the corner point (size-1,
     * size-1): u along the seat's edge (rightwards), v towards the seat (downwards). The
     * patch lies beyond the right edge, from a little above the last line to well below
     * it: a stone lies on the table, below the board's surface, and seen from above the
     * board appears shifted toward the camera. */
    double patch_u0;     /* default 0.75: the board's rim (smaller: the rim is read) */
    double patch_u1;     /* default 3.5: a stone set down a stone or so apart from the
                            board's side (larger: more table, more bowls and hands) */
    double patch_v0;     /* default -1.8: the far seat's stone, on the table below the
                            board's surface, appears shifted towards a camera behind the
                            near seat (by the board's height over the tangent of the view's
                            elevation: 30 mm at 63 degrees is 0.7 of a line, and set down
                            beside the corner it lies up to 1.9 lines along; -0.9 lost such
                            an end signal) */
    double patch_v1;     /* default 1.3 */
    double near_d;       /* lines, default 1.6: a sample this near a board point is skipped
                            while that point is not as it was at the sample's reference (a
                            stone's side seen under perspective); larger skips more */
    float chroma_th;     /* levels, default 16: a change of colour (blue - luma or red -
                            luma, either way) beyond this counts like one in brightness;
                            smaller sees grey stones on brown wood sooner, and light more */
    float change_min;    /* levels, default 6: the least change in brightness that counts on
                            a plain table (cloth, paper: a white stone on white cloth is only
                            a little darker, in its shading) */
    float change_max;    /* levels, default 12: ... and on a busy one (the least change is
                            3.5 times the samples' median deviation, clamped to these) */
    float bright_table;  /* levels, default 150: a table at least this bright (median luma):
                            a white stone on it looks darker, so only strongly darker
                            samples tell a black stone there */
    float hand_chroma;   /* levels, default 6: a changed sample this much more coloured than
                            the table was is skin or a sleeve (the patch is hidden) */
    double hidden_share; /* 0..1, default 0.45 (of VIS_OUTSIDE_SHARE_AREA, as the two below):
                            more of the patch changed is a hand over it,
                            not a stone (unsure) */
    double none_share;   /* 0..1, default 0.03: less of the patch changed is nothing */
    double sure_share;   /* 0..1, default 0.05: between none_share and this, unsure (neither
                            starts nor ends a run); a stone's share lies above */
    float white_ratio;   /* default 1.12: on a table darker than bright_table, a stone not
                            plainly darker than it is white only when it made the patch
                            brighter and the samples it changed are, at the median, this
                            many times as bright as the table: a black stone's sheen makes
                            a few samples brighter, its body a few darker (0.9 to 1.07 of
                            the table on dark wood), a white stone is brighter all over
                            (2.3 to 2.6 on dark wood, 1.17 on a pale table just under
                            bright_table; measured on the signals bench's seeds 21-40) */
} vis_outside_params_t;

/* A reading of one corner in one frame: VIS_OUTSIDE_UNSURE, or go_color_t (GO_EMPTY:
 * nothing there, GO_BLACK, GO_WHITE) */
#define VIS_OUTSIDE_UNSURE (-1)

/* One corner's samples and their reference look. */
typedef struct vis_outside_corner {
    double gx[VIS_OUTSIDE_NS], gy[VIS_OUTSIDE_NS]; /* grid coordinates of the samples */
    float ref_y[VIS_OUTSIDE_NS];                   /* luma at reference time, -1 off the image */
    float ref_cb[VIS_OUTSIDE_NS], ref_cr[VIS_OUTSIDE_NS]; /* chroma: blue - luma, red - luma */
    float ref_lo[3][VIS_OUTSIDE_NS], ref_hi[3][VIS_OUTSIDE_NS]; /* the range of luma, cb, cr
                                                       within a tenth of a cell around */
    int16_t near_pt[VIS_OUTSIDE_NS];  /* board point (y*size+x) within near_d lines, or -1 */
    uint8_t ref_stone[VIS_OUTSIDE_NS]; /* 1: near_pt held a stone at the reference */
} vis_outside_corner_t;

typedef struct vis_outside {
    int size;
    int have_ref;                     /* vis_outside_reference was taken (and not forgotten) */
    vis_outside_params_t p;
    vis_outside_corner_t corner[4];   /* per vis_side_t: the lower right corner as seen from
                                         a seat at that side */
} vis_outside_t;

/* Fill *p with the defaults above. */
void vis_outside_params_defaults(vis_outside_params_t *p);
/* Set up the reader for a board of this size (2..VIS_MAX_SIZE); p NULL: the defaults
 * (copied). No reference yet. Returns VIS_OK or VIS_EINVAL (*o untouched). */
int vis_outside_init(vis_outside_t *o, int size, const vis_outside_params_t *p);
/* Take the reference look of all four corners from this frame (nothing beside the board,
 * no stones near its corners assumed). Does nothing when img or g is NULL. */
void vis_outside_reference(vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g);
/* Forget the reference (the board may have moved): reads fail until the next one. */
void vis_outside_forget(vis_outside_t *o);
/* Read the corners of the sides in mask `sides` (bit 1 << vis_side_t) from one frame into
 * out[side] (VIS_OUTSIDE_UNSURE for the others). stones (size*size, row-major, may be
 * NULL): nonzero where a stone stands; samples near a point that is not as it was at
 * their reference are skipped. Returns VIS_OK, or VIS_EINVAL (no reference, no image;
 * out untouched). */
int vis_outside_read(const vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g,
                     const uint8_t *stones, unsigned sides, int out[4]);
/* The corners in mask `sides`: samples beside a board point whose stone came or went since
 * their reference (stones: as for vis_outside_read, never NULL) take their reference again
 * from this frame, so that they are read again (a stone on the board's corner point no
 * longer hides the table beside it). Only for corners known to show nothing now (the
 * caller's say: a signal stone must never be taken for the table). */
void vis_outside_refresh(vis_outside_t *o, const cvb_image_t *img, const vis_geom_t *g,
                         const uint8_t *stones, unsigned sides);

#endif
