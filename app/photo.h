/* photo.h: one photo read into a position, the one way `detect`, `count` and `score
 * PHOTO` read it: the image-size guard, decoding (EXIF orientation applied), the profile's
 * lens and grid (--calib), given corners refined on the grid lines (--corners), or board
 * finding; then every point read (vis_classify / vis_detect) under the photo settings.
 *
 * Invariants: a point is unsure when vision calls it so (vis_point_unsure: covered, or
 * read with less confidence than VIS_SURE_CONF): detect prints it as '?', count refuses
 * to count it silently; only app/ prints, through cli_error under the command's name;
 * the caller frees what photo_read filled (photo_free), on every return.
 */
#ifndef KIFUCAM_PHOTO_H
#define KIFUCAM_PHOTO_H

#include "vision/vis.h"

/* `--debug DIR` (a photo's, and `calibrate`'s): vision's stage pictures
 * (vis_config_t.debug = cli_debug_write, debug_ctx a cli_debug_t) written as
 * DIR/N_name.png, N the stage + 1; a picture over a megapixel as JPEG (quality 90: a 1080p
 * frame's PNG is several MB). A picture that cannot be written (or whose path would be
 * cut) sets failed, for the caller to say once. */
typedef struct {
    const char *dir;
    int failed;
} cli_debug_t;
void cli_debug_write(void *ctx, int stage, const char *name, const cvb_image_t *img);

typedef struct photo_opts {
    const char *image;     /* the photo's path (never NULL) */
    int size;              /* 9, 13 or 19; 0: detected (default) */
    const char *corners;   /* "x1,y1;x2,y2;x3,y3;x4,y4" or NULL (default: board finding) */
    const char *calib;     /* a profile from `kifucam calibrate`, or NULL */
    const char *model;     /* an ONNX point reader instead of the built-in one, or NULL */
    const char *finder;    /* an ONNX stone finder instead of the built-in one, "off" for
                              none (the reader alone), or NULL */
    const char *debug;     /* a folder for each stage's picture, or NULL */
} photo_opts_t;

typedef struct photo {
    cvb_image_t img;       /* the photo as read (undistorted with a profile's lens) */
    vis_geom_t geom;       /* the grid found or given */
    vis_snapshot_t snap;   /* every point: colour, confidence, covered */
    vis_timing_t tm;       /* ms per stage */
    int debug_failed;      /* 1: some --debug pictures could not be written */
} photo_t;

/* Take argv[*i] when it is one of the reading's options (--size N, --corners C, --calib
 * FILE, --model FILE, --finder FILE|off, --debug DIR) with its value, advancing *i past the value. Returns 1
 * taken, 0 not one of them, -1 a bad or missing value (the error printed under cmd). */
int photo_option(const char *cmd, int argc, char **argv, int *i, photo_opts_t *o);

/* Read o->image into *out (zeroed first). Errors are printed as one line under cmd's
 * name. Returns the exit code of INTERFACE.md: 0 read, 1 no board found, 2 bad usage or
 * an unreadable image, profile or model. Call photo_free(out) whatever it returns. */
int photo_read(const char *cmd, const photo_opts_t *o, photo_t *out);

/* Free what photo_read filled. Does nothing if p is NULL. */
void photo_free(photo_t *p);

/* 1 when point k (y * size + x) of the reading is unsure (vis_point_unsure), else 0. */
int photo_unsure(const photo_t *p, int k);

/* 1 when the grid board finding gave is in doubt (vis_grid_doubted: the reader, shown
 * more of the picture around it, takes the lines beyond its edge for the board's), else
 * 0; always 0 under given corners or a profile's grid. */
int photo_grid_doubted(const photo_t *p);

/* The one line that says p's grid is in doubt and what to do, under cmd's name;
 * consequence says what the command did about it ("read as found", "not counted"). */
void photo_say_grid_doubt(const char *cmd, const photo_opts_t *o, const photo_t *p,
                          const char *consequence);

/* Where the photo cuts the board (vis_geom_outside): how many of its points lie outside
 * the picture (read covered, '?'), each marked in outside (size*size, may be NULL), and in
 * *sides (may be NULL) the picture's edges it cuts the board at (1 << VIS_SIDE_*). */
int photo_outside(const photo_t *p, uint8_t *outside, unsigned *sides);

/* The names of sides (1 << VIS_SIDE_*) into names, clockwise from the top ("top",
 * "right", "bottom", "left"); how many. */
int photo_side_names(unsigned sides, const char *names[4]);
/* sides named into text as edges: "top edge", "top and left edges", "top, right and
 * left edges" ("" for none). */
void photo_sides_text(unsigned sides, char *text, size_t len);

/* The one line that says the picture cuts p's board, under cmd's name; nothing when every
 * point is in the picture. */
void photo_say_cut(const char *cmd, const photo_opts_t *o, const photo_t *p);

/* 1 when path is an image whose header tells its size (a photo, not an SGF record). */
int photo_is_image(const char *path);

#endif
