/* go_internal.h: helpers shared by the rules/ sources (not a public header: nothing
 * outside rules/ includes it).
 *
 * go_load_colors: the working colour array the scoring, life-and-death and reading code
 * run on (GO_PT indexing, GO_OFF outside the size x size square, so neighbours never need
 * bounds checks; anything but a stone reads as GO_EMPTY on the board).
 */
#ifndef KIFUCAM_GO_INTERNAL_H
#define KIFUCAM_GO_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "rules/go_board.h"

/* Copy the stones of b into w (GO_CELLS bytes), GO_OFF everywhere off the board. */
static inline void go_load_colors(const go_board_t *b, uint8_t *w)
{
    memset(w, GO_OFF, GO_CELLS);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            uint8_t c = b->color[p];
            w[p] = (c == GO_BLACK || c == GO_WHITE) ? c : GO_EMPTY;
        }
}

#endif
