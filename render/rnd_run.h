/* rnd_run.h: the footage command shared by `kifucam-render` and `kifucam render`: its
 * options, its usage text, and the run that writes the frames, the truth file and the
 * optional video. Never prints: progress goes through a callback, errors into a buffer.
 */
#ifndef KIFUCAM_RND_RUN_H
#define KIFUCAM_RND_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "render/rnd_render.h"

typedef struct rnd_opts {
    const char *sgf;       /* the game record (required) */
    const char *out;       /* output folder (required; created if missing) */
    const char *video;     /* also write a video file (.avi MJPG, .mp4 mp4v), or NULL */
    uint64_t seed;         /* default 1 */
    int width, height;     /* default 1280 x 720 */
    int fps;               /* default 30 */
    rnd_view_t view;       /* default steep */
    rnd_light_t light;     /* default: drawn from the seed among warm, cool, daylight */
    int light_set;         /* 1 when --light was given */
    int table;             /* --table: RND_TABLE_* + 1; 0 (default) the seed's table */
    int hands;             /* default 1 */
    int moves;             /* moves of the record to play; -1 (default) all */
    int end;               /* 0 none (default), 1 pass, 2 resign, 3 auto (from RE[]) */
    int still;             /* 1: only the final position, one image (still.png) */
    int png;               /* 1: frames as PNG (lossless); default JPEG */
    int quality;           /* JPEG quality, default 88 */
    int clean;             /* 1: no noise, shake, blur or lens distortion */
    double pace;           /* pauses' time scale, default 1 */
    int cb_cols, cb_rows;  /* --chessboard COLSxROWS: a lens-calibration clip instead of the
                              game (0: none, the default) */
    double cb_square;      /* its square side, mm (default 25) */
} rnd_opts_t;

/* The lens-calibration clip (--chessboard): RND_CB_POSES poses of the chessboard held in
 * view, each for RND_CB_HOLD frames, then RND_CB_PLAIN frames of the board alone. */
#define RND_CB_POSES 15
#define RND_CB_HOLD 2
#define RND_CB_PLAIN 6

/* Fill *o with the defaults above. */
void rnd_opts_defaults(rnd_opts_t *o);
/* The usage text (all options), for --help; never NULL. prog names the command. */
const char *rnd_usage(void);
/* Parse argv[1..argc) into *o (argv[0] is the command's name). *help is set to 1 when
 * --help was given (nothing else is checked then). On bad usage returns RND_EINVAL and
 * writes one line into err. Pointers in *o point into argv. */
int rnd_opts_parse(int argc, char **argv, rnd_opts_t *o, int *help, char *err, size_t errlen);

/* Progress: called every few frames with the frames written and the total. */
typedef void (*rnd_progress_fn)(void *ctx, int done, int total);

/* Render the footage. Returns RND_OK; RND_EIO (unreadable), RND_EPARSE, RND_EGAME for
 * bad input and RND_EOUTPUT when the output cannot be written (err gets one line naming
 * the file); RND_ENOMEM. fn may be NULL. */
int rnd_run(const rnd_opts_t *o, rnd_progress_fn fn, void *ctx, char *err, size_t errlen);
/* The process exit code (INTERFACE.md) for a status of rnd_run: 0 done; 2 bad or
 * unreadable input; 1 the output could not be written or memory ran out. */
int rnd_exit_code(int rc);

#endif
