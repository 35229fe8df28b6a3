/* go_eyes.h: groups without an eye, enclosed by strong opponents, are dead; groups with
 * enough true eyes are alive.
 *
 * After the dead-stone proposal's first calls (go_life.c), the stones still standing are
 * put in groups: chains of one colour that share a liberty, or that border the same eye.
 * An eye of a group is an empty region (dead stones taken off) that only its colour
 * reaches, and that is not a false eye (a single point two of whose diagonal points are
 * the opponent's, one on the edge). A group with no eye, and no room for one in an open border next to it (an
 * empty region reaching both colours that holds a point next to no stone: a boundary the
 * players left open; room: GO_EYES_ROOM of its points strictly nearer to the group than to
 * any opponent stone, the open-border estimate's rule in go_score.h), lives only in seki
 * or by winning a race. Neither is possible
 * when every opponent group next to it (touching it, or sharing a liberty with it) is
 * strong: certainly alive, or two eyes, or GO_EYES_AHEAD liberties more than it, or
 * (GO_EYES_BIG_BEATS_SMALL) an eye too big to be killed from inside when it has none (a
 * group without an eye must fill the shared liberties itself, so it never reaches seki
 * against such a group). Such a group is dead.
 *
 * A group whose only eye is small enough to be killed from inside (GO_EYES_NAKADE points
 * or fewer: one point, two, a straight or bent three; and with GO_EYES_NAKADE_BULKY a
 * square four or a bulky five: a 2x2 block within a 2x3 box) is judged the same way
 * (GO_EYES_ROOM points of room in an open border for a second eye, as above): with no
 * second eye to make, the eye only adds its liberties (counted among the group's), and
 * strong opponents win any race against it. Here a single-point eye is false also when
 * empty diagonal points next to opponent stones (half an opponent's each,
 * GO_EYES_HALF_DIAG) make up for the opponent's stones.
 *
 * Only groups of GO_EYES_MIN_LIBS liberties or more are judged: chains shorter of
 * liberties are the tactical reader's (go_read.h), which sees captures and escapes this
 * count cannot; this rule is for the invasions and cut-off stones with room to breathe
 * but no eye, which random playouts (favouring the defender) tend to let live.
 *
 * Reads only colour arrays (GO_PT layout, GO_OFF border); allocates nothing (about 40 KB
 * of stack).
 */
#ifndef KIFUCAM_GO_EYES_H
#define KIFUCAM_GO_EYES_H

#include <stdint.h>

#include "rules/go_board.h"

#ifndef GO_EYES_AHEAD
#define GO_EYES_AHEAD 3      /* liberties ahead that win a race between two groups without eyes */
#endif
#ifndef GO_EYES_TWO_CHAINS
#define GO_EYES_TWO_CHAINS 3  /* go_eyes_alive: two eyes suffice to a group of this many chains */
#endif
#ifndef GO_EYES_ROOM
#define GO_EYES_ROOM 14      /* open-border points nearer to a group that may make its eye
                              * (tygem: 3 or 5 -> 4707 winners, 9 -> 4709, 14 or more up
                              * to never -> 4710, none lost; 14 keeps wide open borders);
                              * the same for one-eyed groups */
#endif
#ifndef GO_EYES_NAKADE
#define GO_EYES_NAKADE 3     /* a lone eye of this many points or fewer: killable (nakade);
                              * tygem: 2 -> 4701 winners, 3 -> 4702, 4 -> 4636 */
#endif
#ifndef GO_EYES_NAKADE_BULKY
#define GO_EYES_NAKADE_BULKY 1  /* 1: a square four or bulky five eye is killable too
                                 * (tygem: 4702 -> 4703 winners; a pyramid four or
                                 * crossed five as well: no change, left out) */
#endif
#ifndef GO_EYES_INNER
#define GO_EYES_INNER 1  /* go_eyes_dead: an opponent single stone, square four or bulky five
                          * inside an eyeless group with more liberties of its own, whose
                          * capture leaves it one eye, does not keep it from dying */
#endif

#ifndef GO_EYES_HALF_DIAG
#define GO_EYES_HALF_DIAG 1  /* go_eyes_dead: an empty diagonal point next to an opponent
                              * stone counts half an opponent's in the false-eye test
                              * (tygem: winners +1, none lost) */
#endif
#ifndef GO_EYES_BIG_BEATS_SMALL
#define GO_EYES_BIG_BEATS_SMALL 1  /* 1: an opponent group with an eye too big to kill from
                                   * inside is strong against one without (tygem: winners
                                   * +1, none lost; also requiring as many liberties: +0) */
#endif
#ifndef GO_EYES_MIN_LIBS
#define GO_EYES_MIN_LIBS 4   /* groups with fewer liberties are left to the reader */
#endif

/* col: the position (GO_CELLS); dead: the stones proposed dead so far (nonzero = dead),
 * updated in place: the stones of every eyeless group found dead are set to 1. alive:
 * NULL or nonzero on stones certainly alive (their groups are never marked, and are
 * strong). Returns the number of groups marked, or GO_EINVAL. */
int go_eyes_dead(const uint8_t *col, int size, const uint8_t *alive, uint8_t *dead);

/* The other way: a group proposed dead (wholly or in part) with three true eyes, or two
 * held by a group of at most GO_EYES_TWO_CHAINS chains, is alive (the playouts sometimes
 * let the attacker break such a group). Groups: chains of one colour sharing a liberty
 * or an eye; eyes: regions only its colour reaches once the opponent's dead stones are
 * off, a single point not false (two diagonal points the opponent's, one on the edge).
 * The more chains hold two eyes, the more cutting points may leave one of them false,
 * so two eyes alone revive only a compact group (measured on the tygem counted games:
 * two eyes whatever the chains revived groups of 5 to 8 chains the records count dead).
 * Clears dead[] on those stones; returns the number of stones revived, or GO_EINVAL. */
int go_eyes_alive(const uint8_t *col, int size, uint8_t *dead);

/* A seki that is not one: chain i of one colour whose only opponent neighbour is chain
 * g, the two sharing all their liberties (two or more, next to no other chain), g with no
 * other liberty, eye or certainly alive stone (alive[]): g cannot fill a liberty, and the
 * opponent throws in until g captures i; the eye space g then gets (i's stones and the
 * liberties less one) is a nakade when it has GO_EYES_NAKADE points or fewer, so g is
 * dead. Sets dead[] on g's stones; returns the number of chains marked, or GO_EINVAL. */
int go_eyes_nakade_seki(const uint8_t *col, int size, const uint8_t *alive, uint8_t *dead);

#endif
