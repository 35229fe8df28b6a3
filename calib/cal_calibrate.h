/* cal_calibrate.h: the calibrate logic: from one frame (already undistorted when the
 * profile has a lens, see cal_lens.h) to a profile, and from a profile back to what
 * vision needs (geometry in the record's orientation, a classifier configuration), plus
 * the check that a profile still fits a frame and the re-location of a moved board.
 *
 * Orientation: vis_detect gives the grid's corners as the camera sees them (top-left of
 * the picture first). `rotate` turns the record that many quarter turns clockwise against
 * that view (or against the order of given corners): record corner k is view corner
 * (k - rotate) mod 4, so rotate 1 makes the camera's left edge the record's top.
 * The profile stores corners already in the record's order, so a geometry built from
 * them (cal_profile_to_geom) reads snapshots in the record's orientation directly.
 * Never prints.
 */
#ifndef KIFUCAM_CAL_CALIBRATE_H
#define KIFUCAM_CAL_CALIBRATE_H

#include "calib/cal_profile.h"
#include "vision/vis.h"

typedef struct cal_calib_opts {
    int size;               /* 0: detected (9, 13, 19), else the board size */
    int have_corners;       /* 1: use corners below instead of finding the board */
    double corners[4][2];   /* image pixels, in the order the record should start from
                               (top-left, top-right, bottom-right, bottom-left) */
    int rotate;             /* 0..3 quarter turns clockwise (see above); default 0 */
    vis_side_t black_side;  /* default VIS_SIDE_BOTTOM */
    double min_conf;        /* 0..1, default 0.6: a point's colour is learned only when
                               the classifier is at least this sure */
    const vis_config_t *vis; /* NULL: vision defaults */
} cal_calib_opts_t;

/* Fill *o with the defaults above. */
void cal_calib_opts_defaults(cal_calib_opts_t *o);

/* What a calibration found, for the operator. */
typedef struct cal_calib_report {
    int detected;           /* 1: the board was found by vis_detect, 0: corners given */
    double fit;             /* vis_grid_fit of the final grid, 0..1 */
    int n[3];               /* points learned: empty, black, white */
    vis_geom_t geom;        /* the grid in the record's orientation */
    vis_snapshot_t snap;    /* what the classifier read with it */
} cal_calib_report_t;

/* Calibrate from one frame: find the board (or take o->corners), turn it by o->rotate,
 * read it, learn the classifier's thresholds from the stones present (where empty points
 * and stones are clearly apart) and read it again with them, learn the mean colours of
 * empty points and stones, and fill *p (version, image size, size, corners, rotate,
 * black_side, colours, thresholds, fit; the lens fields
 * are kept from *p as it was, so set them first). rep may be NULL. CAL_ENOBOARD when no
 * board grid is found, CAL_EFIELD when the result is not a valid profile (e.g. corners
 * outside the image). *p written only on success. */
int cal_calibrate_frame(const cvb_image_t *img, const cal_calib_opts_t *o, cal_profile_t *p,
                        cal_calib_report_t *rep);

/* The profile's grid as a vision geometry for frames of img_w x img_h (the profile's
 * image size, or the same aspect at another resolution: corners are scaled). */
int cal_profile_to_geom(const cal_profile_t *p, int img_w, int img_h, vis_geom_t *geom);

/* The calibration's colour model of this board, these stones and this light into *m
 * (vis_board_model_init's defaults, the profile's fit): 1 when the profile has one, else
 * 0 (m holds nothing fitted). Point a vis_config_t's board at it. */
int cal_profile_board_model(const cal_profile_t *p, vis_board_model_t *m);

/* Does the profile still fit this frame? *fit gets vis_grid_fit of the profile's grid,
 * *fits 1 when it is at least cal_fit_threshold(p, cfg). cfg may be NULL. */
int cal_check(const cvb_image_t *img, const cal_profile_t *p, const vis_config_t *cfg,
              double *fit, int *fits);
/* The grid fit below which a frame no longer fits the profile: the larger of the
 * configuration's track_min_fit (default 0.35) and 60% of the fit at calibration. */
double cal_fit_threshold(const cal_profile_t *p, const vis_config_t *cfg);

/* Find the board again after the camera or the board moved: vis_detect with the
 * profile's size, then the corner order closest to the profile's corners (keeps the
 * record's orientation for moves well under 45 degrees). *geom gets the new grid in the
 * record's orientation; CAL_ENOBOARD when no board is found. The caller may store
 * geom->corners back into its profile (cal_profile_set_corners). */
int cal_relocate(const cvb_image_t *img, const cal_profile_t *p, const vis_config_t *cfg,
                 vis_geom_t *geom);

/* Replace the profile's corners (not modified; e.g. after cal_relocate), for frames of
 * img_w x img_h; validated: *p unchanged on error. */
int cal_profile_set_corners(cal_profile_t *p, double corners[4][2], int img_w, int img_h,
                            char *err, size_t errlen);

/* Slow adaptation to the light: read img (geom: the current grid in the record's
 * orientation; cfg may be NULL: defaults, with the profile's colour model applied),
 * measure colours and the colour model on it as calibration does, and move the
 * profile's towards them by alpha (0..1, e.g. 0.05 on each stable frame; a colour not
 * learned before is taken whole). Corners, lens and fit are untouched; *p stays valid
 * (unchanged on error). Call it on frames without hands over the board. */
int cal_adapt(const cvb_image_t *img, const vis_geom_t *geom, const vis_config_t *cfg,
              double alpha, cal_profile_t *p);

/* Parse "x1,y1;x2,y2;x3,y3;x4,y4" (as `--corners`). Outputs written only on success. */
int cal_parse_corners(const char *s, double corners[4][2]);

#endif
