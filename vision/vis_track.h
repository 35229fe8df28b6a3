/* vis_track.h: tracking against the board's own line contrast. vis_grid_fit and
 * vis_track (vis.h) call a segment of a grid line a line when it is darker than the board
 * beside it by 8% + 4 levels; thin lines on a small or far board in soft light are
 * fainter than that (the measured dips of a whole board's lines: 0.6..1.5 times that
 * margin), so the fit of a grid that lies right on them can be 0.1. The calls below take
 * that margin scaled by k (1: vis.h's), measured per board with vis_line_contrast from a
 * frame where the grid is known to fit.
 */
#ifndef KIFUCAM_VIS_TRACK_H
#define KIFUCAM_VIS_TRACK_H

#include "vision/vis.h"

/* The line margin's scale for this board: 0.6 of the median dip of the inner lines
 * between empty, unhidden points of snap (NULL: every point), the lesser of the two
 * directions', at most 1, and clear of the dips half a cell off the lines (the grain,
 * the noise). VIS_ENOBOARD when in either direction the lines are not clearly darker
 * than the board between them (not this grid's lines: off by a third of a cell across
 * one family, say), or too few segments are visible to tell. *k written on VIS_OK only. */
int vis_line_contrast(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap,
                      double *k);

/* vis_grid_fit with the line margin scaled by k (> 0). */
int vis_grid_fit_k(const cvb_image_t *img, const vis_geom_t *geom, double k, double *out);

/* Whether a grid just found by cold detection (geom, its snapshot snap) is a board that
 * tracking would keep, so that a grid it would reject at once is no board (no lost/found
 * flapping): its lines clearly darker than the board between them (vis_line_contrast),
 * and the grid on them, by that board's own line contrast, at least cfg->track_min_fit
 * (vis_grid_fit_k; faint thin lines on a far board). VIS_OK with *k (the line contrast,
 * for vis_track_k) and *fit written; VIS_ENOBOARD when it is no such board; VIS_EINVAL. */
int vis_board_accept(const cvb_image_t *img, const vis_geom_t *geom, const vis_snapshot_t *snap,
                     const vis_config_t *cfg, double *k, double *fit);

/* vis_track / vis_track_update with the line margin (both the fit's and the shift
 * search's valleys) scaled by k (> 0). */
int vis_track_k(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
                double k, vis_snapshot_t *snap);
int vis_track_update_k(const cvb_image_t *img, vis_geom_t *geom, const vis_config_t *cfg,
                       double k, vis_snapshot_t *snap);

#endif
