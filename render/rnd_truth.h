/* rnd_truth.h: read the truth file kifucam-render writes beside its frames (format:
 * samples/README.md), frame by frame, for tests and benchmarks of vision, tracking and
 * recording. Events lines are skipped (read the file for them).
 *
 * Boards are row-major, index y*size + x, row 0 at the top (SGF "aa" = 0), values
 * 0 empty, 1 black, 2 white (as vis_snapshot.h and go_board.h).
 */
#ifndef KIFUCAM_RND_TRUTH_H
#define KIFUCAM_RND_TRUTH_H

#include <stdint.h>

typedef struct rnd_truth_frame {
    int frame;                 /* frame number */
    char file[128];            /* image file name, relative to the truth file's folder */
    double t;                  /* seconds */
    int move;                  /* moves of the record played */
    int hand;                  /* 1: a hand is in the frame */
    int shake[2];              /* camera shake, pixels */
    double corners[8];         /* x,y of the corner intersections: TL, TR, BR, BL */
    double stone_corners[8];   /* the same raised by half a stone */
    uint8_t record[25 * 25];   /* the record's position */
    uint8_t shown[25 * 25];    /* the stones on the board */
    uint8_t occluded[25 * 25]; /* 1: the point is under a hand */
    int bumped;                /* point of a stone knocked off its place, or -1 */
} rnd_truth_frame_t;

typedef struct rnd_truth rnd_truth_t;

/* Open a truth file and read its header. RND_EIO when it cannot be read, RND_EPARSE when
 * it is not a version-1 truth file. Caller closes. */
int rnd_truth_open(const char *path, rnd_truth_t **out);
/* Board size, frame count and image size from the header. */
int rnd_truth_size(const rnd_truth_t *t);
int rnd_truth_frames(const rnd_truth_t *t);
void rnd_truth_image(const rnd_truth_t *t, int *w, int *h);
/* Read the next frame line into *f. Returns RND_OK, 1 at the end of the file, or
 * RND_EPARSE for a malformed line (with its number in *line when not NULL). */
int rnd_truth_next(rnd_truth_t *t, rnd_truth_frame_t *f, int *line);
/* Close. Does nothing if NULL. */
void rnd_truth_close(rnd_truth_t *t);

#endif
