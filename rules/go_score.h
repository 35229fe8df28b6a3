/* go_score.h: counting a finished position under every rule preset of go_rules.h.
 *
 * Input: a board (only its size and color[] are read, GO_PT(x, y) indexing), the rules,
 * komi, handicap, the prisoners of the game, AGA pass stones and a dead-stone mask.
 * Output: per side the stones, territory, prisoners, taxes and total, the margin, the
 * winner, the SGF RE[] text, and a per-point map (whose point, dead, seki, dame).
 *
 * Invariants:
 *  - every score is an integer in HALF POINTS (15 = 7.5); nothing compares floats;
 *  - margin2 = side[GO_BLACK].total2 - side[GO_WHITE].total2 (komi, handicap
 *    compensation and taxes included); winner follows its sign, except for the Ing tie
 *    rule (black_wins_ties: a zero margin is a win for Black, written "B+0.5", since
 *    komi 8 with Black winning ties is komi 7.5 in effect);
 *  - the board is never modified; the dead mask is ignored when rules->remove_dead is
 *    false (Tromp-Taylor: every stone on the board is alive);
 *  - nothing is estimated: a border the players left open is unsettled (go_score_t.
 *    unsettled), its points nobody's, and the points to fill are listed (GO_SP_FILL).
 */
#ifndef KIFUCAM_GO_SCORE_H
#define KIFUCAM_GO_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "rules/go_board.h"
#include "rules/go_rules.h"

/* Per-point map: the owner in the low two bits (GO_EMPTY = nobody or shared), flags above. */
#define GO_SP_OWNER(v) ((go_color_t)((v) & 3))
#define GO_SP_STONE 0x04  /* a stone counted alive for its colour */
#define GO_SP_DEAD 0x08   /* a stone marked dead (removed; its point goes to the owner) */
#define GO_SP_SEKI 0x10   /* a stone in seki, a shared liberty of a seki, or an eye of one */
#define GO_SP_DAME 0x20   /* an empty point reaching both colours (owner GO_EMPTY) */
#define GO_SP_OPEN 0x40   /* an empty point of an unsettled border (see go_score_t.unsettled):
                             nobody's under every rule, never territory, never shared */
#define GO_SP_FILL 0x80   /* of the GO_SP_OPEN points, one to fill to settle the border */

/* An open border holds a point at least this far (through empty points) from every live
 * stone: dame between finished borders are 1 or 2 away. */
#define GO_SCORE_OPEN_DIST 3

/* What the count needs besides the board and the rules. */
typedef struct go_score_params {
    int komi2;          /* komi in half points (15 = 7.5); may be negative */
    int handicap;       /* handicap stones given (0 or 1: none); compensation per rules */
    int captures[3];    /* stones captured during the game BY colour c (GO_BLACK/GO_WHITE) */
    int pass_stones[3]; /* AGA: passes made by colour c (each a prisoner for the other) */
} go_score_params_t;

typedef struct go_score_side {
    int stones;         /* its live stones on the board */
    int territory;      /* points it alone surrounds (dead stones' points included; under
                           the seki tax, eyes of seki groups are not counted) */
    int shared2;        /* area rules sharing dame (chinese, ancient-area): half points
                           from points between both sides' live stones */
    int captures;       /* prisoners taken during the game */
    int dead;           /* opponent stones removed as dead at the end */
    int pass_stones;    /* AGA: prisoners received for the opponent's passes */
    int groups;         /* separate living groups (stones joined through own territory) */
    int tax2;           /* group tax paid (ancient: one point per living group), half points */
    int komi2;          /* komi received, half points */
    int handicap2;      /* handicap compensation received, half points */
    int area2;          /* area: 2*(stones + territory) + shared2 (reported for all rules) */
    int total2;         /* the score as the rules count it, half points, komi included */
} go_score_side_t;

typedef struct go_score {
    go_score_side_t side[3];   /* index GO_BLACK, GO_WHITE (0 unused) */
    int margin2;               /* black total2 - white total2 */
    go_color_t winner;         /* GO_BLACK, GO_WHITE, or GO_EMPTY for a draw */
    char re[16];               /* RE[] text: "B+3.5", "W+0.5", "0" */
    uint8_t point[GO_CELLS];   /* per-point map (GO_SP_* flags), 0 off the board */
    int nseki_groups;          /* chains found in seki */
    int unsettled;             /* unsettled borders: empty regions reaching both colours,
                                  in no seki, holding a point GO_SCORE_OPEN_DIST or more
                                  (through empty points) from every live stone. Nothing is
                                  guessed there: their points carry GO_SP_OPEN and count for
                                  nobody (area rules too: not shared as dame); the border
                                  between the two sides' nearer parts (points whose
                                  distances to the two colours' live stones differ by at
                                  most 1) carries GO_SP_FILL: the points to fill. 0: every
                                  border is closed and the count exact. Always 0 when the
                                  rules keep every stone (Tromp-Taylor counts any position
                                  as it stands) */
    int open_points;           /* points marked GO_SP_OPEN */
    int fill_points;           /* points marked GO_SP_FILL */
} go_score_t;

/* Count the board. dead: GO_CELLS bytes, nonzero where a stone is dead, or NULL for none.
 * Writes *out only on success. Returns GO_OK or GO_EINVAL (NULL argument, bad size). */
int go_score_count(const go_board_t *b, const go_rules_t *rules, const go_score_params_t *par,
                   const uint8_t *dead, go_score_t *out);

/* The result as a Chinese arbiter says it, in stones: one point of margin is half a
 * stone, so each half point of margin2 is a quarter stone. english: "Black wins by 3 1/2
 * stones", "White wins by 1/4 stone", "Draw"; chinese (UTF-8): "黑胜3又1/2子",
 * "白胜1/4子", "和棋". Either buffer may be NULL. Never fails for len >= 48. */
void go_score_stones_text(const go_score_t *s, char *english, size_t elen, char *chinese,
                          size_t clen);

/* Format a count of quarters (of a stone) as people write it, the fraction reduced and
 * after a space: 722 -> "180 1/2", 737 -> "184 1/4", 15 -> "3 3/4", 2 -> "1/2", 8 -> "2",
 * 0 -> "0", -3 -> "-3/4" (never "2/4"). buf >= 16. */
void go_score_quarters_text(int q, char *buf, size_t len);

/* Format a half-point value as text: 15 -> "7.5", -4 -> "-2", 0 -> "0" (buf >= 16). */
void go_score_half_text(int v2, char *buf, size_t len);

/* True when the empty point p would leave c's own chain with at most one liberty if c
 * played there and captured nothing (self-atari). p must be empty on b. */
int go_score_self_atari(const uint8_t *color, int size, go_color_t c, int p);

#endif
