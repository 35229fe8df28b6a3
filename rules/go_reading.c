/* go_reading.c: settling a camera's reading before the count (see go_reading.h).
 *
 * Invariants: an unsure point becomes a stone or empty only through a fix or the
 * GO_UNSURE_EMPTY policy; the board is written only when every point is settled; the
 * prisoner counts are bounded (GO_MAX_PRISONERS), so totals never overflow.
 */
#include "rules/go_reading.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int parse_colour(const char *s, int n, go_color_t *c)
{
    if (n == 5 && !strncmp(s, "black", 5)) {
        *c = GO_BLACK;
        return GO_OK;
    }
    if (n == 5 && !strncmp(s, "white", 5)) {
        *c = GO_WHITE;
        return GO_OK;
    }
    if (n == 5 && !strncmp(s, "empty", 5)) {
        *c = GO_EMPTY;
        return GO_OK;
    }
    if (n != 1)
        return GO_EPARSE;
    switch (toupper((unsigned char)s[0])) {
    case 'B': case 'X': *c = GO_BLACK; return GO_OK;
    case 'W': case 'O': *c = GO_WHITE; return GO_OK;
    case '.': case 'E': case '-': *c = GO_EMPTY; return GO_OK;
    default: return GO_EPARSE;
    }
}

int go_fixes_parse(int size, const char *text, go_fixes_t *out, int *bad_off, int *bad_len)
{
    go_fixes_t *fx;
    const char *s;
    int n, off;
    if (!text || !out || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    fx = calloc(1, sizeof *fx);
    if (!fx)
        return GO_ENOMEM;
    for (int pos = 0; go_list_next(text, &pos, &s, &n, &off);) {
        if (n > 0) {
            const char *eq = memchr(s, '=', (size_t)n);
            int p = 0, rc, plen;
            go_color_t c = GO_EMPTY;
            if (bad_off)
                *bad_off = off;
            if (bad_len)
                *bad_len = n;
            if (fx->n >= GO_MAX_POINTS) {
                free(fx);
                return GO_EINVAL;
            }
            if (!eq) {
                free(fx);
                return GO_EPARSE;
            }
            plen = (int)(eq - s);
            while (plen > 0 && isspace((unsigned char)s[plen - 1]))
                plen--;
            const char *cs = eq + 1;
            int clen = n - (int)(cs - s);
            while (clen > 0 && isspace((unsigned char)cs[0])) {
                cs++;
                clen--;
            }
            if ((rc = go_point_parse(size, s, plen, &p)) != GO_OK ||
                (rc = parse_colour(cs, clen, &c)) != GO_OK) {
                free(fx);
                return rc;
            }
            fx->fix[fx->n].point = (go_point_t)p;
            fx->fix[fx->n].color = c;
            fx->fix[fx->n].off = off;
            fx->fix[fx->n].len = n;
            fx->n++;
        }
    }
    if (fx->n == 0) {
        free(fx);
        if (bad_off)
            *bad_off = 0;
        if (bad_len)
            *bad_len = 0;
        return GO_EPARSE;
    }
    memcpy(out, fx, sizeof *fx);
    free(fx);
    return GO_OK;
}

int go_reading_settle(const go_reading_t *r, const go_fixes_t *fixes, go_unsure_policy_t how,
                      go_board_t *out, go_point_t *left, int *nleft)
{
    uint8_t col[GO_MAX_POINTS], sure[GO_MAX_POINTS];
    go_board_t *b;
    int S, n = 0;
    if (!r || !out || !left || !nleft || r->size < GO_MIN_SIZE || r->size > GO_MAX_SIZE)
        return GO_EINVAL;
    S = r->size;
    for (int k = 0; k < S * S; k++) {
        col[k] = r->color[k] <= GO_WHITE ? r->color[k] : GO_EMPTY;
        sure[k] = !r->unsure[k];
    }
    for (int i = 0; fixes && i < fixes->n; i++) {
        int p = fixes->fix[i].point, x = GO_X(p), y = GO_Y(p);
        if (p <= 0 || p >= GO_CELLS || x < 0 || y < 0 || x >= S || y >= S ||
            fixes->fix[i].color > GO_WHITE)
            return GO_EINVAL;
        col[y * S + x] = (uint8_t)fixes->fix[i].color;
        sure[y * S + x] = 1;
    }
    for (int k = 0; k < S * S; k++)
        if (!sure[k]) {
            left[n++] = (go_point_t)GO_PT(k % S, k / S);
            col[k] = GO_EMPTY;
        }
    *nleft = n;
    if (n && how == GO_UNSURE_REFUSE)
        return GO_EUNSURE;
    b = malloc(sizeof *b);
    if (!b)
        return GO_ENOMEM;
    go_board_init(b, S);
    for (int k = 0; k < S * S; k++)
        if (col[k] != GO_EMPTY)
            b->color[GO_PT(k % S, k / S)] = col[k];
    if (go_board_rebuild(b) != GO_OK) {
        free(b);
        return GO_EINVAL;
    }
    memcpy(out, b, sizeof *b);
    free(b);
    return GO_OK;
}

int go_prisoners_parse(const char *text, int captures[3])
{
    int got[3] = { 0, 0, 0 }, seen[3] = { 0, 0, 0 }, any = 0;
    const char *s = text;
    if (!text || !captures)
        return GO_EINVAL;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        int c = toupper((unsigned char)*s) == 'B' ? GO_BLACK
                : toupper((unsigned char)*s) == 'W' ? GO_WHITE : 0;
        if (!c || s[1] != '=' || seen[c] || !isdigit((unsigned char)s[2]))
            return GO_EPARSE;
        char *end;
        long v = strtol(s + 2, &end, 10);
        if (v < 0 || v > GO_MAX_PRISONERS)
            return GO_EPARSE;
        got[c] = (int)v;
        seen[c] = 1;
        any = 1;
        s = end;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        if (*s != ',')
            return GO_EPARSE;
        s++;
    }
    if (!any)
        return GO_EPARSE;
    captures[GO_BLACK] = got[GO_BLACK];
    captures[GO_WHITE] = got[GO_WHITE];
    return GO_OK;
}
