/* go_read.h: tactical reading: can a chain short of liberties be captured?
 *
 * A small depth-first reader on a colour array (GO_PT indexing, GO_OFF border, as
 * go_board_t.color): the attacker plays on the chain's liberties (and the points next to
 * them, which catches nets), the defender extends, captures an attacking chain in atari,
 * counter-ataris a neighbour with two liberties, or passes. Simple ko is respected (no
 * immediate retake), with no ko threats. A chain reaching GO_READ_SAFE_LIBS liberties is
 * safe; ladders are read out to the edge (depth GO_READ_MAX_DEPTH).
 *
 * Used by the dead-stone proposal (go_life.c): a chain the attacker captures even when its
 * owner moves first is dead whatever the playouts say (capturing races lost by liberty
 * count, cutting stones in atari, ladders, nets).
 *
 * The reader allocates nothing per node and never modifies the caller's array.
 */
#ifndef KIFUCAM_GO_READ_H
#define KIFUCAM_GO_READ_H

#include <stdint.h>

#include "rules/go_board.h"

#define GO_READ_SAFE_LIBS 4   /* a chain with this many liberties is never read as capturable */
#define GO_READ_MAX_DEPTH 48  /* plies (a ladder across the board takes about 40) */

/* The outcome of a reading. */
typedef enum {
    GO_READ_SAFE = 0,      /* the chain cannot be captured */
    GO_READ_CAPTURED = 1,  /* the attacker captures it */
    GO_READ_UNKNOWN = 2    /* the reading ran out of positions (budget) */
} go_read_result_t;

/* Read whether the chain at p (a stone on col[]) is captured by the opponent. owner_first:
 * 1 when the chain's owner moves first (may also pass), 0 when the attacker does. ko: the
 * point the side to move may not play at (simple ko), or 0. budget: positions to read at
 * most (e.g. 400). size: 2..25. Returns a go_read_result_t, or GO_EINVAL for a bad
 * argument (negative). Allocates about 40 KB for the reading; GO_ENOMEM if that fails. */
int go_read_capture(const uint8_t *col, int size, int p, int owner_first, int ko, int budget);

/* Read a capturing race on the board: is the chain at p captured by the opponent chain at
 * q (next to it) even when p's owner moves first? Unlike go_read_capture, the reading
 * also plays on the liberties of the partner q and of the weak chains of p's colour (up to
 * three liberties) next to q or to p's liberties: capturing such a chain for liberties, or
 * joining and saving it, is part of the race. The chain is out of the race with five
 * liberties or once q is captured. budget: positions to read at most; nodes (may be NULL):
 * set to the positions read. Returns
 * GO_READ_CAPTURED (sound whatever the budget), GO_READ_SAFE, GO_READ_UNKNOWN (budget or
 * depth ran out), or GO_EINVAL / GO_ENOMEM. */
int go_read_race(const uint8_t *col, int size, int p, int q, int budget, int *nodes);

/* As go_read_race, with the side to move given: owner_first 1 (p's owner moves first, may
 * also pass: go_read_race) or 0 (the opponent, q's owner, moves first). GO_READ_CAPTURED
 * with owner_first 0 means q's side, moving first, captures p before p captures q. */
int go_read_race_first(const uint8_t *col, int size, int p, int q, int owner_first, int budget,
                       int *nodes);

#endif
