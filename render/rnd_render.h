/* rnd_render.h: the footage renderer: a physical Go board on a table filmed by a webcam.
 *
 * A scene (board, table, camera, lens, light) is drawn from a seed and a few options.
 * The static part (table, board, grid, lighting, vignetting) is ray-cast once per scene
 * into a canvas a few pixels larger than the frame; stones (ellipsoids with shading,
 * highlights and cast shadows) are drawn into it only where they changed; each frame is
 * then a shifted crop of the canvas (camera shake) with the hands ray-cast on top, an
 * optional moving shadow, auto-exposure gain and sensor noise.
 *
 * World coordinates, in millimetres: origin at the board's centre on the table (z = 0),
 * x to the right of the record (columns), y downwards in the record (rows, towards
 * Black's seat), z up. The board's playing surface is at z = rnd_renderer_geometry()->top.
 * Deterministic: everything random comes from rnd_rng_t seeded by the caller, never rand().
 */
#ifndef KIFUCAM_RND_RENDER_H
#define KIFUCAM_RND_RENDER_H

#include <stdint.h>

#include "vision/cv_bridge.h"

/* Status codes of render/ (0 success, negative errors). */
enum {
    RND_OK = 0,
    RND_EINVAL = -1,   /* bad argument or option */
    RND_ENOMEM = -2,   /* allocation failed */
    RND_EIO = -3,      /* a file could not be read or written */
    RND_EPARSE = -4,   /* the game record could not be parsed */
    RND_EGAME = -5,    /* the game record holds no usable game */
    RND_EOUTPUT = -6   /* the output (frames, truth, video) could not be written */
};
/* A short description of a status code; never NULL. */
const char *rnd_strerror(int code);

/* ---- the PRNG (splitmix64): deterministic across platforms ---- */
typedef struct rnd_rng {
    uint64_t s;
} rnd_rng_t;
void rnd_rng_seed(rnd_rng_t *r, uint64_t seed);
uint64_t rnd_rng_next(rnd_rng_t *r);
/* Uniform in [0, 1). */
double rnd_rng_unit(rnd_rng_t *r);
/* Uniform in [lo, hi). */
double rnd_rng_range(rnd_rng_t *r, double lo, double hi);
/* Uniform integer in [0, n) (0 when n <= 0). */
int rnd_rng_int(rnd_rng_t *r, int n);
/* Standard normal (Box-Muller). */
double rnd_rng_gauss(rnd_rng_t *r);

/* ---- scene options ---- */
typedef enum {
    RND_VIEW_ABOVE = 0,  /* camera almost straight above (78-88 degrees elevation) */
    RND_VIEW_STEEP,      /* 60-72 degrees */
    RND_VIEW_SIDE        /* 42-52 degrees: a webcam on the table's edge */
} rnd_view_t;

typedef enum {
    RND_LIGHT_WARM = 0,  /* tungsten room light */
    RND_LIGHT_COOL,      /* fluorescent office light */
    RND_LIGHT_DAYLIGHT,  /* window light, neutral */
    RND_LIGHT_BLUE,      /* coloured light casts: blue, green, pink, yellow */
    RND_LIGHT_GREEN,
    RND_LIGHT_PINK,
    RND_LIGHT_YELLOW,
    RND_LIGHT_UNEVEN,    /* a low lamp to one side: strong falloff across the board */
    RND_LIGHT_SHADOW,    /* neutral light with a soft shadow moving across the board */
    RND_LIGHT_COUNT
} rnd_light_t;

/* Tables (--table): the kinds the seed draws from, lightest to darkest by name:
 * wood (light wood, sRGB around 195/160/120), cloth (white cloth, ~235), pale (pale
 * grey-beige wood, ~180/175/150), grey (grey laminate, ~150), dark (dark wood,
 * ~88/62/45). */
enum { RND_TABLE_WOOD, RND_TABLE_CLOTH, RND_TABLE_DARK, RND_TABLE_GREY, RND_TABLE_PALE,
       RND_TABLE_COUNT };
/* Parse a table name into RND_TABLE_*; RND_EINVAL when unknown. */
int rnd_table_parse(const char *s, int *out);
/* The name of a table kind; never NULL. */
const char *rnd_table_name(int kind);

/* Parse a view or light name (as listed above, lower case). RND_EINVAL when unknown. */
int rnd_view_parse(const char *s, rnd_view_t *out);
int rnd_light_parse(const char *s, rnd_light_t *out);
/* The name of a view or light; never NULL. */
const char *rnd_view_name(rnd_view_t v);
const char *rnd_light_name(rnd_light_t l);

typedef struct rnd_scene_opts {
    int width, height;   /* frame size in pixels; default 1280 x 720; 16..8192 */
    int size;            /* board size 2..25; default 19 */
    rnd_view_t view;     /* default RND_VIEW_STEEP */
    rnd_light_t light;   /* default RND_LIGHT_WARM */
    uint64_t seed;       /* everything else (board, table, camera, lens) follows from it */
    int distortion;      /* 1 (default): barrel distortion of a webcam lens; 0: pinhole */
    int noise;           /* 1 (default): sensor noise, exposure drift, shake, blur; 0: clean */
    int signal_corners;  /* 1: the camera also frames the table beside the board's four
                            corners, where the end signals go (footage with an --end);
                            0 (default): the board alone decides the framing */
    int variety;         /* 1: wide randomisation for training a reader (any wood shade,
                            plastic and printed boards, stones of other shades, any light
                            colour, glare, blur, camera elevation 30..90 degrees, framing
                            that may cut the board off); 0 (default): the scenes as
                            before, exactly (drawn from a separate stream) */
    int table;           /* 0 (default): the table as the seed draws it; otherwise the
                            table kind + 1 (rnd_table_parse): only the table changes, every
                            other draw from the seed stays as it was */
} rnd_scene_opts_t;
/* Fill *o with the defaults above (seed 1). */
void rnd_scene_opts_defaults(rnd_scene_opts_t *o);

/* What the scene drew from the seed (read-only; valid while the renderer lives). */
/* The end signals (rnd_timeline.h): a signal stone lies on the table, its edge
 * RND_SIGNAL_GAP_MIN..MAX mm from the board's side; the stone bowls stand further out
 * (their near side at least RND_BOWL_GAP mm from the board), so that neither the board
 * nor a bowl stands over a signal corner. */
#define RND_SIGNAL_GAP_MIN 18.0
#define RND_SIGNAL_GAP_MAX 34.0
#define RND_BOWL_GAP 70.0

typedef struct rnd_geometry {
    int size;                 /* board size */
    double dx, dy;            /* grid spacing along x and y, mm */
    double half_w, half_h;    /* half the board's outer width and height, mm */
    double top;               /* height of the playing surface above the table, mm */
    double stone_r;           /* stone radius, mm */
    double stone_h;           /* stone thickness, mm */
    double cam[3];            /* camera position, mm */
    double elevation_deg;     /* camera elevation above the table plane */
    /* lens: pixel = c + f * d(n), n the pinhole projection, d the barrel distortion
     * whose inverse is n = d * (1 + k1 |d|^2 + k2 |d|^4); c in unshaken frame pixels */
    double focal, cx, cy, k1, k2;
} rnd_geometry_t;

/* One stone: where it lies (its centre's x, y and the height of the surface it lies on:
 * the board's top, or 0 on the table), its colour (1 black, 2 white) and the direction
 * of a white stone's grain (radians). */
typedef struct rnd_stone {
    float x, y, z;
    uint8_t color;
    float grain;
} rnd_stone_t;

/* A hand over the board. tip is the pinch point of index and middle finger (where a
 * carried stone's centre is); the arm runs from there towards the shoulder. */
typedef struct rnd_hand {
    int active;          /* 0: not drawn */
    int seat;            /* 1: Black's seat (bottom of the record), 2: White's (top) */
    float tip[3];        /* mm */
    float shoulder[3];   /* mm */
    uint8_t carry;       /* colour of the stone between the fingers, or 0 */
} rnd_hand_t;

/* Per-frame effects, chosen by the caller (the timeline). */
typedef struct rnd_frame_fx {
    int shake_x, shake_y;   /* camera shake in whole pixels, |v| <= RND_SHAKE_MAX */
    double gain;            /* auto-exposure gain (1 = nominal) */
    double wb[3];           /* white-balance drift per B, G, R channel (1 = none) */
    int shadow;             /* 1: draw the moving shadow */
    double shadow_xy[2];    /* its centre on the table plane, mm */
    double shadow_r[2];     /* its half-axes, mm */
    double shadow_depth;    /* 0..1: how much direct light it takes away */
    uint64_t noise_phase;   /* selects this frame's noise pattern */
} rnd_frame_fx_t;
#define RND_SHAKE_MAX 4

typedef struct rnd_renderer rnd_renderer_t;

/* Make a renderer for a scene: draws the board, table, camera and lighting from the
 * options and ray-casts the static canvas. *out is written on success; caller destroys. */
int rnd_renderer_create(const rnd_scene_opts_t *opts, rnd_renderer_t **out);
/* Free the renderer. Does nothing if NULL. */
void rnd_renderer_destroy(rnd_renderer_t *r);

/* The table kind of this renderer's scene (RND_TABLE_*), forced or from the seed. */
int rnd_renderer_table(const rnd_renderer_t *r);
/* The scene's geometry; never NULL. */
const rnd_geometry_t *rnd_renderer_geometry(const rnd_renderer_t *r);
/* World position (mm) of the intersection at column x, row y (0-based, SGF order). */
void rnd_renderer_point_world(const rnd_renderer_t *r, double x, double y, double *wx,
                              double *wy);
/* Project a world point into frame pixels for a frame shaken by (shake_x, shake_y),
 * lens distortion included (pixel centres at integer coordinates). RND_EINVAL when the
 * point is behind the camera. */
int rnd_renderer_project(const rnd_renderer_t *r, const double w[3], int shake_x, int shake_y,
                         double *px, double *py);

/* Set the stones lying on the board or table (copied). Only the image regions whose
 * stones changed since the last call are redrawn. */
int rnd_renderer_set_stones(rnd_renderer_t *r, const rnd_stone_t *stones, int n);

/* A printed chessboard held in view (the target of a lens calibration): a flat card of
 * (cols + 1) x (rows + 1) squares of side `square` mm, with a white margin of one square,
 * posed anywhere in the world; drawn over everything else (it is held in front of the
 * camera), shaded by the scene's light, seen through the scene's lens. */
typedef struct rnd_chessboard {
    int cols, rows;          /* inner corners, 2..50 each */
    double square;           /* mm, > 0 */
    double centre[3];        /* world mm: the pattern's centre */
    double u[3], v[3];       /* unit, orthogonal: the directions of the pattern's columns
                                (inner corner i grows along u) and rows (j along v) */
} rnd_chessboard_t;

/* World position (mm) of inner corner (i, j) (0 <= i < cols, 0 <= j < rows). */
void rnd_chessboard_corner(const rnd_chessboard_t *cb, int i, int j, double w[3]);

/* The k-th of n poses (0 <= k < n) in which someone calibrating the camera holds the
 * chessboard: spread over the picture (the middle, then towards each corner and edge),
 * tilted by 15-35 degrees about varying axes, filling about 40% of the picture's width,
 * the whole card in view. Deterministic in the scene's seed and k. RND_EINVAL for bad
 * arguments. */
int rnd_renderer_chessboard_pose(const rnd_renderer_t *r, int k, int n, int cols, int rows,
                                 double square, rnd_chessboard_t *out);

/* Draw this chessboard (copied) into the following frames; NULL: none (the default). A
 * renderer without one renders exactly as before. RND_EINVAL for a bad chessboard. */
int rnd_renderer_set_chessboard(rnd_renderer_t *r, const rnd_chessboard_t *cb);

/* Render one frame into out (a caller's or bridge image of the frame size, 3 channels).
 * hands may be NULL when nhands is 0. hand_mask, when not NULL, gets w*h bytes: 1 where a
 * hand or arm covers the pixel, else 0. Returns RND_OK or RND_EINVAL. */
int rnd_renderer_frame(rnd_renderer_t *r, const rnd_frame_fx_t *fx, const rnd_hand_t *hands,
                       int nhands, cvb_image_t *out, uint8_t *hand_mask);

#endif
