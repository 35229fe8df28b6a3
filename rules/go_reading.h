/* go_reading.h: a position as a camera read it, settled by people before it is counted
 * (`kifucam count PHOTO`, `kifucam score PHOTO`), and what a photo cannot show: the
 * prisoners of a territory count.
 *
 * Invariants:
 *  - a point the reader was unsure of (covered by a hand, or read with low confidence)
 *    is never counted as empty without someone saying so: a fix names its colour, or the
 *    policy GO_UNSURE_EMPTY says every unsure point left is empty; otherwise
 *    go_reading_settle refuses (GO_EUNSURE) and lists them;
 *  - a fix wins over the reading, sure or not, and a later fix of the same point over an
 *    earlier one;
 *  - nothing here reads pixels: the caller fills go_reading_t from its snapshot.
 */
#ifndef KIFUCAM_GO_READING_H
#define KIFUCAM_GO_READING_H

#include <stdint.h>

#include "rules/go_board.h"
#include "rules/go_point.h"

typedef struct go_reading {
    int size;                        /* 2..25 */
    uint8_t color[GO_MAX_POINTS];    /* go_color_t per point, index y * size + x (row 0 at
                                        the top, as SGF's "aa"); a guess where unsure */
    uint8_t unsure[GO_MAX_POINTS];   /* 1: covered or unsure */
} go_reading_t;

/* People's corrections of a reading ("Q16=B,D4=.,C3=W"). */
typedef struct go_fix {
    go_point_t point;
    go_color_t color;                /* GO_EMPTY, GO_BLACK or GO_WHITE */
    int off, len;                    /* the item's bytes in the text */
} go_fix_t;

typedef struct go_fixes {
    int n;
    go_fix_t fix[GO_MAX_POINTS];
} go_fixes_t;

/* What to do with the unsure points no fix settles. */
typedef enum {
    GO_UNSURE_REFUSE = 0,            /* refuse to count (the default) */
    GO_UNSURE_EMPTY                  /* count them as empty, as told */
} go_unsure_policy_t;

/* Parse "POINT=COLOUR,..." for a size x size board: POINT either form of go_point_parse,
 * COLOUR B or X (black), W or O (white), '.', E or '-' (empty), any case; items separated
 * by commas, spaces around them ignored. Writes *out only on success. Returns GO_OK,
 * GO_EPARSE (an item without '=', a bad colour, no item at all) or GO_EINVAL (a point
 * off this board, too many items), with the item's bytes at text[*bad_off .. +*bad_len)
 * (*bad_len 0 when there is no item; both may be NULL). */
int go_fixes_parse(int size, const char *text, go_fixes_t *out, int *bad_off, int *bad_len);

/* The board to count from the reading r, its fixes (may be NULL) and the policy for the
 * unsure points left. On GO_OK *out holds the stones (go_board_set: chains rebuilt, no
 * capture) and *nleft the unsure points the policy emptied, listed in left[]; on
 * GO_EUNSURE (GO_UNSURE_REFUSE and some are left) *out is untouched and left[] (room for
 * GO_MAX_POINTS) lists them, top row first. left and nleft may not be NULL. GO_EINVAL for
 * a bad argument (a fix off the board, a bad size). */
int go_reading_settle(const go_reading_t *r, const go_fixes_t *fixes, go_unsure_policy_t how,
                      go_board_t *out, go_point_t *left, int *nleft);

/* Parse "B=12,W=7" (either order, either may be missing: 0) into captures[GO_BLACK] and
 * captures[GO_WHITE]: the stones each colour captured during the game (go_score_params_t
 * captures). Writes captures only on success. GO_EPARSE for anything else (a negative or
 * huge number, another colour, a repeat). */
int go_prisoners_parse(const char *text, int captures[3]);

#endif
