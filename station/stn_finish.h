/* stn_finish.h: how a recording ends when its footage ends first: the end signals seen
 * then, and what of the game's end they tell. A decision only (the CLI acts and says it).
 *
 * Invariants: pure over its arguments; never changes the game.
 *
 *   stn_unfinished_t u;  stn_finish_signals(stn_game(s), black_end, white_end, &u);
 *   if (u.pass) stn_pass(s, t);   if (u.unfinished) say so, exit 1
 */
#ifndef KIFUCAM_STN_FINISH_H
#define KIFUCAM_STN_FINISH_H

#include "rules/go_game.h"

typedef struct stn_unfinished {
    int unfinished;        /* 1: one end signal was seen and not the other: the game's end
                              is not in the record */
    go_color_t signalled;  /* whose end signal was seen (GO_EMPTY when not unfinished) */
    go_color_t missing;    /* whose was not */
    int pass;              /* 1: the signaller is to move: his signal is his pass, to be
                              recorded (the opponent's, the game's end, was not seen) */
} stn_unfinished_t;

/* At the end of the footage, game g in play: black_end / white_end say whether Black's /
 * White's end signal (the opponent's colour beside his corner) stands there. Neither or
 * both (the caller ended the game), or a game already over: nothing unfinished. Returns
 * GO_OK (*out written) or GO_EINVAL (NULL). */
int stn_finish_signals(const go_game_t *g, int black_end, int white_end, stn_unfinished_t *out);

#endif
