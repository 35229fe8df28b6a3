/* go_board.h: the Go board — stones, chains, exact liberty counts, captures, Zobrist hash.
 *
 * Layout (after Pachi): a padded array of GO_STRIDE x GO_STRIDE cells with an off-board
 * border, whatever the board size (2..25). The point of column x, row y (0-based, row 0 at
 * the top, as SGF's "aa") is GO_PT(x, y). Index 0 is off-board and doubles as GO_PASS.
 * Cells outside the size x size square are GO_OFF, so neighbours never need bounds checks.
 *
 * Invariants (go_board_check verifies them all):
 *  - every stone belongs to exactly one chain; chain[p] is the chain's head point;
 *    next[] links the stones of a chain in a circular list;
 *  - libs[head] is the exact number of distinct empty points adjacent to the chain;
 *    no chain on the board has zero liberties (go_board_play never leaves one; a position
 *    built with go_board_set may, and go_board_check then reports it);
 *  - hash is the XOR of go_zobrist(color, p) over all stones (side to move NOT mixed in);
 *  - ko is the point the side to move may not play at because of a simple ko, or 0.
 *
 * The board knows nothing of whose turn it is or of history: see go_game.h.
 */
#ifndef KIFUCAM_GO_BOARD_H
#define KIFUCAM_GO_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/go_color.h"

#define GO_MIN_SIZE 2
#define GO_MAX_SIZE 25
#define GO_STRIDE (GO_MAX_SIZE + 2)
#define GO_CELLS (GO_STRIDE * GO_STRIDE)
#define GO_PASS 0
#define GO_PT(x, y) ((int)(((y) + 1) * GO_STRIDE + (x) + 1))
#define GO_X(p) ((p) % GO_STRIDE - 1)
#define GO_Y(p) ((p) / GO_STRIDE - 1)

typedef int16_t go_point_t;

/* Status codes shared by rules/ (0 is success, errors negative). */
enum {
    GO_OK = 0,
    GO_EINVAL = -1,     /* bad argument: point off the board, bad size, bad colour */
    GO_ENOMEM = -2,     /* allocation failed; nothing changed */
    GO_EOCCUPIED = -3,  /* the point holds a stone */
    GO_ESUICIDE = -4,   /* the move would leave its own chain without liberties */
    GO_EKO = -5,        /* immediate recapture of a simple ko */
    GO_ESUPERKO = -6,   /* the move recreates an earlier position (per the ko rule) */
    GO_ETURN = -7,      /* not this colour's turn */
    GO_EOVER = -8,      /* the game has ended (two passes or a resignation) */
    GO_EEMPTY = -9,     /* nothing to undo */
    GO_EPARSE = -10,    /* malformed input text (SGF, rules name) */
    GO_EIO = -11,       /* reading or writing a file failed */
    GO_EUNSURE = -12    /* a camera's reading has points nobody settled (go_reading.h) */
};
/* A short English description of a status code; never NULL. */
const char *go_strerror(int code);

typedef struct go_board {
    int size;                      /* 2..25 */
    uint8_t color[GO_CELLS];       /* go_color_t per cell */
    go_point_t chain[GO_CELLS];    /* head point of the stone's chain, 0 for empty */
    go_point_t next[GO_CELLS];     /* next stone of the same chain (circular) */
    uint16_t libs[GO_CELLS];       /* at a chain head: exact liberty count */
    uint16_t stones[GO_CELLS];     /* at a chain head: number of stones */
    uint64_t hash;                 /* Zobrist hash of the stones */
    go_point_t ko;                 /* simple-ko forbidden point for the next move, or 0 */
    int prisoners[3];              /* stones captured BY colour c (index GO_BLACK/GO_WHITE) */
} go_board_t;

/* More prisoners than any game can take (every point captured over and over): the bound
 * on a count of prisoners people or a record give (go_prisoners_parse, SGF KP[]), which
 * keeps a total of half points far from int overflow. */
#define GO_MAX_PRISONERS 100000

/* Result of one placement: what it captured (the points, for undo and for the tracker). */
typedef struct go_place_info {
    int ncaptured;                 /* stones removed */
    go_point_t captured[GO_MAX_SIZE * GO_MAX_SIZE];
    bool suicide;                  /* the placed chain itself was removed (multi-stone suicide) */
} go_place_info_t;

/* Empty board of the given size (2..25). Returns GO_EINVAL for a bad size. */
int go_board_init(go_board_t *b, int size);
/* True when p is a point of this board (not off-board, not pass). */
bool go_board_on(const go_board_t *b, int p);
/* The Zobrist key of a stone of colour c at point p. */
uint64_t go_zobrist(go_color_t c, int p);

/* Would colour c at p be legal on this board alone (occupied, suicide, simple ko)?
 * Returns GO_OK, GO_EOCCUPIED, GO_ESUICIDE or GO_EKO. allow_multi_suicide lets a
 * suicide of two or more stones through (a single-stone suicide never is). */
int go_board_legal(const go_board_t *b, go_color_t c, int p, bool allow_multi_suicide);

/* Play c at p: place, capture, update ko and hash. Checks nothing but occupancy and
 * single-stone suicide (callers check the rest with go_board_legal or go_game). A
 * multi-stone suicide removes the suicided chain (its stones go to the opponent's
 * prisoners). info may be NULL. Returns GO_OK, GO_EINVAL, GO_EOCCUPIED or GO_ESUICIDE;
 * on error the board is unchanged. */
int go_board_play(go_board_t *b, go_color_t c, int p, go_place_info_t *info);

/* Put or remove a stone with no capture logic (setup: AB/AW/AE, the camera's view).
 * Chains and liberties are rebuilt; chains left without liberties stay (tolerant).
 * c = GO_EMPTY removes. Clears ko. */
int go_board_set(go_board_t *b, int p, go_color_t c);

/* Recompute chains, stone counts, liberties and hash from color[] alone (after editing
 * color[] directly, e.g. to restore a position). Keeps ko and prisoners. Chains without
 * liberties stay, as with go_board_set. Returns GO_OK or GO_EINVAL for a bad size. */
int go_board_rebuild(go_board_t *b);

/* Liberty count of the chain at p (0 for an empty point). */
int go_board_libs(const go_board_t *b, int p);

/* Check every invariant above; returns GO_OK or GO_EINVAL (tests run it after every move). */
int go_board_check(const go_board_t *b);

/* Parse an ASCII diagram: rows top first, '.' or '+' empty, 'X' black, 'O' white;
 * spaces ignored; rows separated by newlines; the size is the number of rows, and each row
 * must have that many points. Stones are placed with go_board_set. */
int go_board_from_ascii(go_board_t *b, const char *text);
/* Write the board text of INTERFACE.md (size lines of '.', 'X', 'O', each ending in '\n')
 * into buf of len bytes (needs size*(size+1)+1). Returns GO_OK or GO_EINVAL if too small. */
int go_board_to_ascii(const go_board_t *b, char *buf, int len);

/* SGF point text ("dd") <-> point. go_point_from_sgf returns GO_PASS for "" or "tt" on
 * boards up to 19 (SGF's pass), GO_EINVAL for anything off the board. */
int go_point_from_sgf(int size, const char *s, int n);
/* Writes two letters and a NUL into out[3]; a pass writes "" (empty string). */
void go_point_to_sgf(int p, char out[3]);

#endif
