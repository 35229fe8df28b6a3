/* rnd_game.h: the game the footage shows: initial stones, moves with the stones each
 * captured, and the dead stones of the final position; read from an SGF record (main
 * line) or built by hand (tests).
 *
 * Points are row-major, index y*size + x, row 0 at the top of the record (SGF "aa" = 0).
 * Colours are 1 black, 2 white (go_color_t values).
 */
#ifndef KIFUCAM_RND_GAME_H
#define KIFUCAM_RND_GAME_H

#include <stddef.h>
#include <stdint.h>

typedef enum { RND_MOVE_PLAY = 0, RND_MOVE_PASS, RND_MOVE_RESIGN } rnd_move_kind_t;

typedef struct rnd_move {
    rnd_move_kind_t kind;
    uint8_t color;        /* 1 black, 2 white */
    int16_t point;        /* y*size + x; -1 for a pass or resignation */
    int ncap;             /* stones this move captured ... */
    int cap_first;        /* ... at caps[cap_first .. cap_first+ncap) */
} rnd_move_t;

typedef struct rnd_game {
    int size;             /* 2..25 */
    uint8_t setup[25 * 25];   /* initial stones per point (0 empty) */
    int nmoves;
    rnd_move_t *moves;
    int ncaps;
    int16_t *caps;
    uint8_t dead[25 * 25];    /* 1: proposed dead in the final position (for --end pass) */
    struct go_board *cur;     /* the position after the moves so far (owned) */
    int result_end;           /* from RE[]: 0 unknown, 1 counted (B+3.5, 0, Draw),
                                 2 resignation (B+R, W+Resign) */
    uint8_t result_loser;     /* with 2: the colour that resigned */
    int record_moves;         /* moves in the record's main line (before --moves cut it) */
} rnd_game_t;

/* An empty game of the given size (no moves); rnd_game_fini frees it. RND_EINVAL for a
 * bad size. */
int rnd_game_init(rnd_game_t *g, int size);
/* Append a move: plays it on the current position (captures computed with the rules of
 * rules/go_board.h). A play onto an occupied point or off the board is RND_EINVAL. */
int rnd_game_add(rnd_game_t *g, rnd_move_kind_t kind, uint8_t color, int x, int y);
/* The position after the first n moves (captures applied) into pos[size*size]. */
void rnd_game_position(const rnd_game_t *g, int n, uint8_t *pos);
/* Fill g->dead from the position after all moves (go_life_propose). */
int rnd_game_propose_dead(rnd_game_t *g);
/* Read the main line of the first game of an SGF file, at most max_moves moves
 * (negative: all). Illegal moves are played tolerantly (as sgf_replay does). On error
 * err (may be NULL) gets one line, "FILE:LINE:COL: what" when the SGF is at fault.
 * Returns RND_OK, RND_EIO, RND_EPARSE, RND_EGAME or RND_ENOMEM. */
int rnd_game_from_sgf(rnd_game_t *g, const char *path, int max_moves, char *err, size_t errlen);
/* Free the moves. Does nothing if NULL. */
void rnd_game_fini(rnd_game_t *g);

#endif
