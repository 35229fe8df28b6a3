/* go_semeai.h: capturing races between two weak groups, counted by liberties.
 *
 * For two adjacent chains of opposite colours, both short of life (at most one eye each,
 * neither connected to a friendly chain through a liberty), whose other opponent
 * neighbours they cannot capture, the race is decided by counting: outside liberties,
 * shared liberties and eye liberties (an eye of n points gives 1, 2, 3, 5, 8, 12
 * liberties for n = 1..6). The counts are played out as an abstract race (go_semeai_race)
 * in which a shared liberty takes one from both sides, an eye is filled last and suicide
 * is illegal; this gives the classic rules (no eyes: the outside liberties decide and
 * shared ones lead to seki; one eye against none: the shared liberties count for the
 * eye; one eye each: as no eyes).
 *
 * Used by the dead-stone proposal (go_life.c) before the playouts: a chain that loses its
 * race whoever moves first, even with GO_SEMEAI_MARGIN outside liberties more, is dead.
 * When a weak third chain (few liberties) sits next to one of the two, the count alone is
 * not trusted: the race is read on the board with that chain in it (go_read_race), and
 * the loser is dead only when the reading captures it even moving first.
 * Reads only the colour array; allocates a table of about 0.8 MB per call.
 */
#ifndef KIFUCAM_GO_SEMEAI_H
#define KIFUCAM_GO_SEMEAI_H

#include <stdint.h>

#include "rules/go_board.h"

#ifndef GO_SEMEAI_MARGIN
#define GO_SEMEAI_MARGIN 1   /* outside liberties the loser may have more and still lose */
#endif

/* The abstract race: a, b outside liberties of A and B, s shared, ea, eb eye liberties;
 * a_first: 1 when A moves first. Returns +1 when A captures B, -1 when B captures A,
 * 0 for seki; GO_EINVAL when a count is out of range (a, b 0..12, s 0..6, ea, eb 0..12)
 * or GO_ENOMEM. */
int go_semeai_race(int a, int b, int s, int ea, int eb, int a_first);

/* Mark in dead[GO_CELLS] (set to 1, other entries untouched) the stones of every chain
 * of col[] (GO_PT layout, GO_OFF border) that loses a clear race as above. settled may
 * be NULL; settled[p] nonzero on a stone: it is certainly alive or dead (left out); on an
 * empty point: a dead stone was taken off there (the chains next to its region are left
 * out: their eyes hold stones to capture first). Returns the number of
 * chains marked, GO_EINVAL or GO_ENOMEM. */
int go_semeai_dead(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead);

/* As go_semeai_dead, and also, when seki is not NULL, set seki[p] = 1 on the stones of
 * both chains of a race that ends in seki when the weaker chain moves first and in its
 * capture when the other does (other entries untouched): the game ended without the
 * capture, so the dead-stone proposal keeps both alive (the seki the players left). */
int go_semeai_classify(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead,
                       uint8_t *seki);

/* As go_semeai_classify, with the side to move: to_move GO_BLACK or GO_WHITE also marks
 * dead the chain of the other colour in a race that each side wins moving first (read on
 * the board both ways, go_read_race_first: the side to move captures it moving first, and
 * the other side, moving first, captures the mover's chain). GO_EMPTY (turn unknown):
 * exactly go_semeai_classify. */
int go_semeai_classify_turn(const uint8_t *col, int size, const uint8_t *settled, uint8_t *dead,
                            uint8_t *seki, go_color_t to_move);

#endif
