/* go_life.h: life and death at the end of a game: which stones are dead.
 *
 * Two layers:
 *  - certain life (go_life_unconditional): unconditional life in Benson's sense. A chain
 *    is unconditionally alive when the opponent cannot capture it even with any number of
 *    moves in a row (go_life_benson computes Benson's pass-alive chains directly); the
 *    points the opponent cannot live in around such chains are unconditional territory,
 *    and the opponent stones there are dead. The statuses follow GNU Go's
 *    unconditional_status (its regression unconditional.tst passes whole: 673 of 673),
 *    found by letting the opponent move without answer (see go_life.c).
 *  - the proposal (go_life_propose): the certain part first, then tactical reading
 *    (go_read.h) of the chains short of liberties: a chain captured even when its owner
 *    moves first, next to capturing stones that are safe, is dead (races lost on
 *    liberties, cutting stones in atari, ladders, nets) and left out of the playouts;
 *    so is a chain losing a capturing race between two weak groups counted by outside,
 *    shared and eye liberties whoever moves first (go_semeai.h), while a race that is
 *    seki when the weaker chain moves first and its capture when the other does keeps
 *    both chains alive (the seki the players left); with the side to move known and
 *    opt->turn_races on (off by default), a race each side wins moving first, read so on
 *    the board, is won by the side to move;
 *    then an estimate for the rest from deterministic playouts (fixed seed; the same
 *    board always gives the same answer): a chain is dead when its owner keeps its
 *    stones at the end of fewer than 55% of the playouts (the playouts favour the
 *    defender; see go_life.c). They run in batches: another batch while a stone not
 *    certainly settled is owned by neither side clearly, within a budget of playout
 *    moves (not of time). The playouts never fill their own eyes, never play a
 *    self-atari of two or
 *    more stones (so a seki, with or without eyes, survives them) except a nakade (a
 *    self-atari of two stones that puts an opponent chain in atari on the same last
 *    liberty: the opponent's capture leaves it one eye), answer the last move
 *    (capture, escape from atari, or a reply next to it) and stay out of regions that
 *    only the other colour reaches (closed territory). Each dead group carries a
 *    confidence in 0..1 (the share of playouts that agree).
 *    After the playouts, rules on eyes (go_eyes.h): a group without an eye (or with one
 *    small enough for a nakade) and without room for one, enclosed by strong opponents,
 *    is dead (confidence 1); so is a chain in a seki whose capture of the stones inside
 *    leaves a nakade; a group called dead that has three true eyes, or two held by a
 *    compact group, is alive.
 *    The Japanese ko rule (opt->ko_dead): a corner group that is not certainly alive,
 *    whose opponent can capture it by a short local reading in which a ko taken by either
 *    side is retaken only after a pass for it (the 1989 rules' confirmation), is dead; so
 *    is a bent four in the corner (that rules text's fixed ruling), read with the owner
 *    never taking a ko.
 *
 * Only the board's size and color[] are read; the board is never modified.
 */
#ifndef KIFUCAM_GO_LIFE_H
#define KIFUCAM_GO_LIFE_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/go_board.h"

/* Unconditional status of a point (GNU Go's unconditional_status vocabulary). */
typedef enum {
    GO_UC_UNDECIDED = 0,
    GO_UC_ALIVE,            /* a stone of an unconditionally alive chain */
    GO_UC_DEAD,             /* a stone inside the opponent's unconditional territory */
    GO_UC_BLACK_TERRITORY,  /* an empty point of Black's unconditional territory */
    GO_UC_WHITE_TERRITORY
} go_uc_status_t;

/* Fill status[GO_CELLS] (0 off the board) with the unconditional status of every point,
 * for both colours. Returns GO_OK or GO_EINVAL. */
int go_life_unconditional(const go_board_t *b, uint8_t *status);

/* Benson's algorithm alone, for colour c: alive[p] = 1 for each stone of c's chains that
 * are unconditionally alive (pass-alive), 0 elsewhere. Returns GO_OK or GO_EINVAL. */
int go_life_benson(const go_board_t *b, go_color_t c, uint8_t *alive);

typedef struct go_life_options {
    int playouts;          /* playouts for the estimate; default 48. More: steadier, slower
                              (about 0.05 ms of CPU each on a finished 19x19 position, Release) */
    int max_playouts;      /* more batches of `playouts` while a stone not certainly settled
                              is owned by neither side clearly (share within 35..65%), up to
                              this many in all; default 192. Below `playouts`: one batch */
    long move_budget;      /* no further batch when it would take the playout moves past
                              this (deterministic: moves, not time); default 20000, about
                              8 ms on a 19x19 position (Release, this machine) */
    uint64_t seed;         /* playout random seed; default 0x6b69667563616d (fixed) */
    int ko_dead;           /* Japanese rules (1989, art. 7 and its confirmation rule): a
                              group the opponent can capture when a ko is retaken only
                              after a pass is dead, and so is "bent four in the corner".
                              Default 0 (off); go_session_propose turns it on for the
                              japanese preset. Checked near the corners only (see go_life.c) */
    go_color_t to_move;    /* the side to move in the position (the record's last move, PL[]),
                              or GO_EMPTY: unknown (the default). Used only with turn_races */
    int turn_races;        /* 1: with to_move known, a capturing race that each side wins
                              moving first, read on the board both ways
                              (go_semeai_classify_turn), is won by the side to move: the other
                              side's chain is dead. Default 0 (off): measured on the tygem
                              counted games (4,761) it calls 5 races, none of them a gain and
                              one against the recorded result (winners 4715 -> 4715, exact
                              4370 -> 4369); the recorded results leave such races
                              unplayed (see go_semeai.c) */
} go_life_options_t;

/* The defaults above. */
go_life_options_t go_life_defaults(void);

#define GO_LIFE_MAX_GROUPS (GO_MAX_SIZE * GO_MAX_SIZE)

typedef struct go_life_group {
    go_point_t head;       /* one stone of the group (the lowest point) */
    go_color_t color;
    int nstones;
    float confidence;      /* 0..1: 1 for unconditionally dead stones */
} go_life_group_t;

typedef struct go_life_result {
    uint8_t dead[GO_CELLS];      /* 1 where a stone is proposed dead */
    uint8_t uc[GO_CELLS];        /* go_uc_status_t per point */
    float owner[GO_CELLS];       /* -1 (white) .. +1 (black): who owns the point at the end */
    int playouts;                /* playouts run (see go_life_options_t.max_playouts) */
    long playout_moves;          /* moves played in them in all (the work done) */
    int ngroups;                 /* dead groups (chains) proposed */
    go_life_group_t groups[GO_LIFE_MAX_GROUPS];
} go_life_result_t;

/* Propose the dead stones of a finished position. opt may be NULL (defaults: the side to
 * move unknown). GO_EINVAL also for a to_move other than GO_EMPTY, GO_BLACK, GO_WHITE.
 * Writes *out only on success. Returns GO_OK, GO_EINVAL or GO_ENOMEM. */
int go_life_propose(const go_board_t *b, const go_life_options_t *opt, go_life_result_t *out);

#endif
