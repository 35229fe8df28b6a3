/* stn_finish.c: the end signals seen when the footage ends (stn_finish.h).
 *
 * Invariants: pure; a pass is proposed only for the side to move (an end signal is that
 * side's pass; out of turn it says nothing the record can take).
 */
#include "station/stn_finish.h"

#include <string.h>

int stn_finish_signals(const go_game_t *g, int black_end, int white_end, stn_unfinished_t *out)
{
    if (!g || !out)
        return GO_EINVAL;
    memset(out, 0, sizeof *out);
    out->signalled = out->missing = GO_EMPTY;
    if (go_game_over(g) || !black_end == !white_end)
        return GO_OK;
    out->unfinished = 1;
    out->signalled = black_end ? GO_BLACK : GO_WHITE;
    out->missing = black_end ? GO_WHITE : GO_BLACK;
    out->pass = go_game_turn(g) == out->signalled;
    return GO_OK;
}
