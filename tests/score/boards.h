/* boards.h: helpers for the scoring tests: an ASCII board with '.' empty, 'X' black,
 * 'O' white, and 'x' / 'o' for a black / white stone marked dead (header only). */
#ifndef KIFUCAM_TEST_SCORE_BOARDS_H
#define KIFUCAM_TEST_SCORE_BOARDS_H

#include <string.h>

#include "rules/go_board.h"
#include "rules/go_rules.h"

/* Parse text into b, marking lowercase stones in dead[] (GO_CELLS bytes). 0 on success. */
static inline int tb_load(go_board_t *b, uint8_t *dead, const char *text)
{
    char buf[2048];
    size_t n = strlen(text);
    if (n >= sizeof buf)
        return -1;
    for (size_t i = 0; i <= n; i++)
        buf[i] = text[i] == 'x' ? 'X' : text[i] == 'o' ? 'O' : text[i];
    if (go_board_from_ascii(b, buf) != GO_OK)
        return -1;
    if (dead) {
        int x = 0, y = 0;
        memset(dead, 0, GO_CELLS);
        for (size_t i = 0; i < n; i++) {
            char ch = text[i];
            if (ch == '\n') {
                if (x) {
                    y++;
                    x = 0;
                }
                continue;
            }
            if (ch == ' ' || ch == '\t' || ch == '\r')
                continue;
            if (ch == 'x' || ch == 'o')
                dead[GO_PT(x, y)] = 1;
            x++;
        }
    }
    return 0;
}

#endif
