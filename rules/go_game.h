/* go_game.h: a game — initial position, moves, passes, resignation, the full history
 * of positions (for superko), prisoners and undo.
 *
 * The game owns every position hash (after KataGo): positional superko compares board
 * hashes, situational superko mixes the side to move in. A hash set makes the superko
 * check O(1) per move, so replaying thousands of games stays fast.
 *
 * Two ways in:
 *  - strict (go_game_play): rejects an illegal move with its reason and changes nothing;
 *  - tolerant (go_game_play_tolerant): for outside data (SGF records, a camera's view):
 *    plays any move onto an empty point, even out of turn or repeating a position, and
 *    reports what a strict game would have said in *why.
 */
#ifndef KIFUCAM_GO_GAME_H
#define KIFUCAM_GO_GAME_H

#include "rules/go_board.h"
#include "rules/go_rules.h"

typedef enum {
    GO_MOVE_PLAY = 0,
    GO_MOVE_PASS,
    GO_MOVE_RESIGN
} go_move_kind_t;

typedef struct go_move {
    go_move_kind_t kind;
    go_color_t color;
    go_point_t point;        /* GO_PASS for pass and resign */
    int ncaptured;           /* stones this move captured */
} go_move_t;

typedef struct go_game go_game_t;

/* A new game on an empty board of size 2..25 with these rules (copied; NULL: chinese).
 * Black to move, or White when rules->white_first. NULL on a bad size or no memory.
 * Caller destroys. */
go_game_t *go_game_create(int size, const go_rules_t *rules);
/* Free the game. Does nothing if NULL. */
void go_game_destroy(go_game_t *g);
/* Start again as go_game_create would (rules NULL: chinese), keeping the allocated
 * buffers: replaying many records with one game object mallocs nothing per game.
 * GO_EINVAL for a bad size. */
int go_game_reset(go_game_t *g, int size, const go_rules_t *rules);

/* Place n handicap stones (2..9) on the standard star points for 9x9, 13x13 and 19x19
 * (GO_EINVAL elsewhere, or after a move), White to move next. */
int go_game_handicap(go_game_t *g, int n);
/* Free placement: put stones of colour c at the n points given (before the first move or
 * as SGF setup in mid-game); c = GO_EMPTY clears. Counted as handicap stones when
 * c = GO_BLACK and no move was played yet (go_game_handicap_count). */
int go_game_setup(go_game_t *g, go_color_t c, const go_point_t *pts, int n);
/* The ancient zuozi opening: two stones of each colour on the diagonal corner star
 * points (Black at the top-right and bottom-left, White at the top-left and bottom-right
 * as the record is drawn), White to move. Needs size >= 7. */
int go_game_zuozi(go_game_t *g);
/* The stones each colour captured before the game's first move (b by Black, w by
 * White): a position counted off a board, whose record holds no moves (SGF KP[]).
 * Moves then add to them. GO_EINVAL after a move or out of 0..GO_MAX_PRISONERS. */
int go_game_set_prisoners(go_game_t *g, int b, int w);
/* Set whose turn it is (SGF PL[], setup). */
int go_game_set_turn(go_game_t *g, go_color_t c);

/* Strict play. Returns GO_OK or the reason it is illegal (GO_EOCCUPIED, GO_ESUICIDE,
 * GO_EKO, GO_ESUPERKO, GO_ETURN, GO_EOVER, GO_EINVAL); on error nothing changes.
 * Under superko rules an immediate single-stone ko recapture still reports GO_EKO,
 * longer cycles GO_ESUPERKO. p = GO_PASS is a strict pass. */
int go_game_play(go_game_t *g, go_color_t c, int p);
/* Would go_game_play(g, c, p) succeed? Same return values, changes nothing. */
int go_game_legal(const go_game_t *g, go_color_t c, int p);
/* Tolerant play: refuses only an occupied point or off-board (GO_EOCCUPIED, GO_EINVAL);
 * otherwise plays, and *why (may be NULL) gets what go_game_play would have returned. */
int go_game_play_tolerant(go_game_t *g, go_color_t c, int p, int *why);
/* Pass by colour c (strict about the turn unless tolerant is true). */
int go_game_pass(go_game_t *g, go_color_t c, bool tolerant);
/* Resignation by colour c: ends the game. */
int go_game_resign(go_game_t *g, go_color_t c);
/* Take back the last move, pass or resignation (GO_EEMPTY when none; setup stays). */
int go_game_undo(go_game_t *g);

/* Accessors: never NULL / always valid for a live game. */
const go_board_t *go_game_board(const go_game_t *g);
const go_rules_t *go_game_rules(const go_game_t *g);
go_color_t go_game_turn(const go_game_t *g);
int go_game_move_count(const go_game_t *g);                 /* moves, passes, resigns */
const go_move_t *go_game_move(const go_game_t *g, int i);   /* 0-based, NULL if out of range */
int go_game_handicap_count(const go_game_t *g);
int go_game_consecutive_passes(const go_game_t *g);
bool go_game_over(const go_game_t *g);      /* two passes in a row, or a resignation */
go_color_t go_game_resigned(const go_game_t *g);  /* who resigned, or GO_EMPTY */
/* Number of positions in the history (initial one included: move_count + 1) and the key
 * of each as the ko rule compares them: the board hash, with a side-to-move key mixed in
 * when White is to move under situational superko. Entry i is the position after move i
 * (passes and resignations included); setup replaces the current entry. */
int go_game_history_len(const go_game_t *g);
uint64_t go_game_history_hash(const go_game_t *g, int i);

/* Check the board's invariants and that the history agrees with it. */
int go_game_check(const go_game_t *g);

#endif
