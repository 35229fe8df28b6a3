/* cal_profile.h: the calibration profile of a station (one table, one camera): where the
 * board's grid is in the picture, which side is the record's top, which side faces
 * Black, the lens, and what this board, these stones and this light look like.
 *
 * On disk it is a small JSON document (format documented in README.md, "Calibration
 * profile"), versioned by the "kifucam_profile" field. A profile that loads is valid:
 * every field is checked (version, size, corners inside the image and forming a convex
 * quadrilateral, colours in range), so a bad file gives an error, never a wrong reading.
 */
#ifndef KIFUCAM_CAL_PROFILE_H
#define KIFUCAM_CAL_PROFILE_H

#include <stddef.h>

#include "vision/vis_snapshot.h"

#define CAL_PROFILE_VERSION 1

enum {
    CAL_OK = 0,
    CAL_EINVAL = -1,    /* bad argument */
    CAL_EIO = -2,       /* the file cannot be read or written */
    CAL_EPARSE = -3,    /* not JSON, or truncated */
    CAL_EVERSION = -4,  /* missing or unsupported version */
    CAL_EFIELD = -5,    /* a field is missing, of the wrong type, or out of range */
    CAL_ENOMEM = -6,
    CAL_ENOBOARD = -7   /* calibrate: no board grid found in the frame */
};
/* A short description of a status code; never NULL. */
const char *cal_strerror(int code);


typedef struct cal_profile {
    int version;              /* CAL_PROFILE_VERSION */
    int image_w, image_h;     /* the frame size the corners refer to, pixels */
    int size;                 /* board size, 2..25 (9, 13, 19 in practice) */
    double corners[4][2];     /* grid corner intersections (x, y) in image pixels:
                                 top-left, top-right, bottom-right, bottom-left of the
                                 record as drawn (after rotation) */
    int rotate;               /* quarter turns applied to the camera's view, 0..3 */
    vis_side_t black_side;    /* the side of the record facing Black's seat (default
                                 bottom); White sits opposite */
    int has_lens;             /* 1: camera matrix and distortion below are valid */
    double fx, fy, cx, cy;    /* camera matrix, pixels */
    double dist[5];           /* k1, k2, p1, p2, k3 */
    double lens_rms;          /* reprojection error of the lens calibration, pixels
                                 (0: unknown) */
    int has_colors;           /* 1: the learned colours below are valid (at least empty) */
    double empty_bgr[3];      /* mean colour of empty points, 0..255 */
    double black_bgr[3];      /* of black stones (meaningful when color_n[1] > 0) */
    double white_bgr[3];      /* of white stones (meaningful when color_n[2] > 0) */
    int color_n[3];           /* points sampled per colour: empty, black, white; 0 for a
                                 colour not seen at calibration (written as null) */
    int model_n[3];           /* this board's own colour model (vision's vis_board_model_t,
                                 fitted at calibration): points fitted per colour (empty,
                                 black, white); 0 for a colour not fitted (all 0: no model) */
    double model_mean[3][3];  /* per colour, the mean feature (log luma, log R/G, log B/G) */
    double model_cov[3][6];   /* per colour, its covariance (xx, xy, xz, yy, yz, zz) */
    double fit;               /* vis_grid_fit of the grid at calibration, 0..1 (0: unknown);
                                 the reference `calibrate --check` compares against */
} cal_profile_t;

/* A profile with defaults for a board of this size and an image of w x h pixels: corners
 * at 10% margins, no lens, no colours, Black at the bottom. */
void cal_profile_defaults(cal_profile_t *p, int size, int w, int h);

/* Check every field; on error writes a one-line reason into err (may be NULL). */
int cal_profile_validate(const cal_profile_t *p, char *err, size_t errlen);

/* Read and validate a profile. On error *out is untouched and err (may be NULL) gets a
 * one-line reason naming the field. */
int cal_profile_load(const char *path, cal_profile_t *out, char *err, size_t errlen);

/* Parse a profile from JSON text of len bytes (same checks as cal_profile_load). */
int cal_profile_parse(const char *text, size_t len, cal_profile_t *out, char *err,
                      size_t errlen);

/* Validate, then write the profile as JSON to path (a new file renamed over the old, so a
 * crash never leaves half a profile). */
int cal_profile_save(const char *path, const cal_profile_t *p, char *err, size_t errlen);

/* Side names "bottom", "right", "top", "left" <-> vis_side_t; -1 for an unknown name. */
const char *cal_side_name(vis_side_t s);
int cal_side_from_name(const char *name);

#endif
