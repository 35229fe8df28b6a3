/* cal_lens.h: lens correction from a printed chessboard held in view.
 *
 * The model is OpenCV's pinhole camera with radial and tangential distortion (k1, k2,
 * p1, p2, k3), kept in the profile's lens fields. Correction keeps the camera matrix:
 * an undistorted frame has the same size and focal length as the camera's, so a
 * profile's corners, when it has a lens, refer to the undistorted frame.
 *
 * Straightness is the measure of a correction: the distance, in pixels, of a grid's
 * points from the straight lines fitted through each of its rows and columns (a perfect
 * pinhole camera sees the lines of a flat chessboard or Go board as straight).
 */
#ifndef KIFUCAM_CAL_LENS_H
#define KIFUCAM_CAL_LENS_H

#include "calib/cal_profile.h"
#include "vision/cv_bridge.h"

/* The fewest views with the whole chessboard that cal_lens_calibrate accepts. */
#define CAL_LENS_MIN_VIEWS 3

/* Parse a --lens pattern "COLSxROWS" or "COLSxROWS:SQUARE" (inner corners, 2..50 each;
 * square side in any unit, default 1, > 0). Outputs written only on success. */
int cal_lens_parse_pattern(const char *s, int *cols, int *rows, double *square);

/* Find the chessboard's cols x rows inner corners in img: pts (caller's, 2*cols*rows
 * doubles) gets (x, y) row by row. *found = 1 when the whole pattern is seen (pts
 * written only then). CAL_EIO when the OpenCV bridge fails. */
int cal_lens_find(const cvb_image_t *img, int cols, int rows, double *pts, int *found);

/* Calibrate from nviews views (pts: nviews * cols*rows (x, y), as cal_lens_find gives
 * them) of a w x h camera: fills p's lens fields (has_lens, fx, fy, cx, cy, dist,
 * lens_rms) and nothing else. CAL_EINVAL for fewer than CAL_LENS_MIN_VIEWS views,
 * CAL_EIO when OpenCV cannot solve it. */
int cal_lens_calibrate(const double *pts, int nviews, int cols, int rows, double square,
                       int w, int h, cal_profile_t *p);

/* Undistort n pixel points (x, y pairs; out may equal in) with p's lens (a copy when p
 * has none). */
int cal_lens_undistort_points(const cal_profile_t *p, const double *in, double *out, int n);

/* Straightness of a cols x rows grid of points (x, y row by row): *rms and *max (either
 * may be NULL) get the RMS and the largest distance, in pixels, of the points from the
 * least-squares line through their row or column (all rows and columns together). */
int cal_straightness(const double *pts, int cols, int rows, double *rms, double *max);

/* Undistortion of whole frames with the maps computed once. */
typedef struct cal_undistorter cal_undistorter_t;
/* Make an undistorter for p's lens and frames of w x h pixels (the profile's image size,
 * or the same aspect at another resolution: the lens is scaled). CAL_EINVAL when p has no
 * lens or the aspect differs. *out written on success; caller destroys. */
int cal_undistorter_create(const cal_profile_t *p, int w, int h, cal_undistorter_t **out);
/* Undistort img (BGR or gray, of the undistorter's size) into *out, whose pixels are
 * reused when it already has that size and channels (else (re)allocated; the caller
 * frees them with cvb_image_free). *out may not be img. */
int cal_undistort(cal_undistorter_t *u, const cvb_image_t *img, cvb_image_t *out);
/* Free the undistorter. Does nothing if NULL. */
void cal_undistorter_destroy(cal_undistorter_t *u);

#endif
