/* stn_align.h: a board found again (after a loss, or on a resumed game) checked against
 * the game's position before its snapshots are believed.
 *
 * A cold detection does not know which corner is which, and its grid may be off by a
 * line: the same physical board may come back turned, mirrored or shifted. The snapshot
 * is compared with the position (the game's stones, and the captured stones still
 * expected to be taken off) under the board's 8 symmetries, each with shifts of up to
 * `max_shift` lines; the transform that disagrees least is chosen (a stone of the
 * position missing counts twice a new stone, which may be a move; the identity first
 * among equals). It is accepted only when enough of the position is visible, at most
 * `tolerance` of its stones are missing (misreads) and at most STN_ALIGN_MAX_EXTRA new
 * stones are read (moves made while the board was lost); otherwise the caller keeps
 * looking.
 *
 *   stn_align_t a;  stn_align_find(game, pending, &snap, min_conf, 1, &a);
 *   if (a.accept) stn_align_snapshot(&a, &snap, &aligned);   // game coordinates
 *
 * A transform maps a game point (x, y) to the snapshot's point (sx, sy) (stn_align_map);
 * the caller turns its board geometry the same way (stn_align_affine: the 2x3 matrix of
 * the map, game coordinates -> the detected grid's coordinates).
 */
#ifndef KIFUCAM_STN_ALIGN_H
#define KIFUCAM_STN_ALIGN_H

#include <stdint.h>

#include "rules/go_game.h"
#include "vision/vis_snapshot.h"

#define STN_ALIGN_MAX_SHIFT 1
#define STN_ALIGN_MAX_EXTRA 8   /* new stones accepted (the tracker's max_moves) */

typedef struct stn_align {
    int sym;          /* 0..7: (sym & 3) quarter turns, then (sym & 4) a mirror */
    int dx, dy;       /* then this shift, in lines */
    int stones;       /* stones of the position */
    int seen;         /* of them, on a point the snapshot reads (not hidden, sure) */
    int agree;        /* of them, read in their colour */
    int mismatch;     /* points that disagree: missing + extra */
    int missing;      /* stones of the position read empty or of the other colour */
    int extra;        /* stones read where the position has none (moves made while the
                         board was lost, or misreads), or off the position's grid */
    int tolerance;    /* the most missing stones accepted: 3 + stones / 20 */
    int second;       /* the mismatches of the best other transform (how clear it is) */
    int accept;       /* 1: the snapshot agrees with the position under this transform */
} stn_align_t;

/* Compare snap with the game's position under every transform (shifts up to max_shift,
 * at most STN_ALIGN_MAX_SHIFT). pending: captured stones still expected on the board, as
 * go_board.h points (stn_track_pending), may be NULL with npending 0; whatever is read
 * there agrees (the dead stone, or the point it left). Points below min_conf or hidden are not read.
 * A position with no stone accepts the identity at once. Returns 0 (result in *out), or
 * GO_EINVAL (sizes differ, NULL arguments). */
int stn_align_find(const go_game_t *g, const go_point_t *pending, int npending,
                   const vis_snapshot_t *snap, float min_conf, int max_shift, stn_align_t *out);
/* The snapshot's point index for game point (x, y), or -1 off the snapshot's grid. */
int stn_align_map(const stn_align_t *a, int size, int x, int y);
/* The affine map of a: (sx, sy) = (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]). */
void stn_align_affine(const stn_align_t *a, int size, double m[6]);
/* The snapshot in game coordinates (out[i] = in[map(i)]; points off the grid: hidden).
 * in and out may not overlap. */
void stn_align_snapshot(const stn_align_t *a, const vis_snapshot_t *in, vis_snapshot_t *out);
/* 1 when a is the identity (nothing to turn). */
int stn_align_is_identity(const stn_align_t *a);

#endif
