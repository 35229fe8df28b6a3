/* go_point.c: the one point parser (SGF letters and the human "Q16" form) and the
 * dead-stone calls of the count (see go_point.h).
 *
 * Invariants: the human columns are "ABCDEFGHJKLMNOPQRSTUVWXYZ" (no I, as on every
 * board's edge), so 25 columns at most, which is GO_MAX_SIZE; rows count from the bottom
 * edge (row 1 is SGF row size-1). A chain is marked or cleared whole, never in part.
 */
#include "rules/go_point.h"

#include <ctype.h>
#include <string.h>

static const char go_cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

/* The column index of letter ch in the human form, or -1 ('I' and non-letters). */
static int human_col(char ch)
{
    const char *q;
    ch = (char)toupper((unsigned char)ch);
    if (ch < 'A' || ch > 'Z')
        return -1;
    q = strchr(go_cols, ch);
    return q ? (int)(q - go_cols) : -1;
}

int go_point_parse(int size, const char *s, int n, int *p)
{
    if (!s || !p || n < 0 || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    if (n == 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z') {
        int q = go_point_from_sgf(size, s, n);
        if (q <= 0)
            return GO_EINVAL;   /* off this board, or SGF's pass "tt" */
        *p = q;
        return GO_OK;
    }
    if (n < 2 || n > 3 || !isalpha((unsigned char)s[0]))
        return GO_EPARSE;
    int row = 0;
    for (int i = 1; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return GO_EPARSE;
        row = row * 10 + (s[i] - '0');
    }
    int x = human_col(s[0]);
    if (x < 0 || x >= size || row < 1 || row > size)
        return GO_EINVAL;   /* "I5", "T20" on 19x19, "A0" */
    *p = GO_PT(x, size - row);
    return GO_OK;
}

void go_point_human(int size, int p, char out[4])
{
    int x = GO_X(p), y = GO_Y(p);
    out[0] = '\0';
    if (size < GO_MIN_SIZE || size > GO_MAX_SIZE || p <= 0 || p >= GO_CELLS || x < 0 ||
        y < 0 || x >= size || y >= size)
        return;
    int row = size - y;
    out[0] = go_cols[x];
    if (row >= 10) {
        out[1] = (char)('0' + row / 10);
        out[2] = (char)('0' + row % 10);
        out[3] = '\0';
    } else {
        out[1] = (char)('0' + row);
        out[2] = '\0';
    }
}

int go_list_next(const char *text, int *pos, const char **item, int *len, int *off)
{
    if (*pos < 0)
        return 0;
    const char *s = text + *pos, *e = strchr(s, ',');
    int n = e ? (int)(e - s) : (int)strlen(s), o = *pos;
    while (n > 0 && isspace((unsigned char)s[0])) {
        s++;
        o++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    *item = s;
    *len = n;
    *off = o;
    *pos = e ? (int)(e - text) + 1 : -1;
    return 1;
}

int go_dead_spec_parse(int size, const char *text, go_dead_spec_t *out, int *bad_off,
                       int *bad_len)
{
    static go_dead_spec_t zero;
    go_dead_spec_t sp = zero;
    int nsigned = 0, nplain = 0;
    if (!text || !out || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    if (!strcmp(text, "auto") || !strcmp(text, "none")) {
        sp.mode = text[0] == 'a' ? GO_DEAD_AUTO : GO_DEAD_NONE;
        *out = sp;
        return GO_OK;
    }
    const char *s;
    int n, off;
    for (int pos = 0; go_list_next(text, &pos, &s, &n, &off);) {
        if (n > 0) {
            int sign = 1, skip = 0, p = 0, rc;
            if (s[0] == '+' || s[0] == '-') {
                sign = s[0] == '+' ? 1 : -1;
                skip = 1;
            }
            if (bad_off)
                *bad_off = off;
            if (bad_len)
                *bad_len = n;
            if (sp.n >= GO_MAX_POINTS)
                return GO_EINVAL;
            rc = go_point_parse(size, s + skip, n - skip, &p);
            if (rc != GO_OK)
                return rc;
            if (skip)
                nsigned++;
            else
                nplain++;
            if (nsigned && nplain)
                return GO_EPARSE;   /* "dd,+K10": a list or calls, not both */
            sp.point[sp.n] = (go_point_t)p;
            sp.sign[sp.n] = (int8_t)sign;
            sp.off[sp.n] = off;
            sp.len[sp.n] = n;
            sp.n++;
        }
    }
    if (sp.n == 0) {
        if (bad_off)
            *bad_off = 0;
        if (bad_len)
            *bad_len = 0;   /* nothing but commas and spaces: no item to name */
        return GO_EPARSE;
    }
    sp.mode = nsigned ? GO_DEAD_EDIT : GO_DEAD_LIST;
    *out = sp;
    return GO_OK;
}

/* Set the chain at p to v in mask. */
static void set_chain(const go_board_t *b, int p, uint8_t *mask, uint8_t v)
{
    go_point_t stack[GO_CELLS];
    uint8_t seen[GO_CELLS];
    int sp = 0;
    uint8_t c = b->color[p];
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[sp++] = (go_point_t)p;
    while (sp) {
        int q = stack[--sp];
        mask[q] = v;
        for (int d = 0; d < 4; d++) {
            int r = q + dirs[d];
            if (r > 0 && r < GO_CELLS && !seen[r] && b->color[r] == c && go_board_on(b, r)) {
                seen[r] = 1;
                stack[sp++] = (go_point_t)r;
            }
        }
    }
}

int go_dead_spec_apply(const go_dead_spec_t *spec, const go_board_t *b,
                       const uint8_t *proposal, uint8_t *mask, int *bad)
{
    uint8_t m[GO_CELLS];
    if (!spec || !b || !mask)
        return GO_EINVAL;
    if ((spec->mode == GO_DEAD_AUTO || spec->mode == GO_DEAD_EDIT) && !proposal)
        return GO_EINVAL;
    memset(m, 0, sizeof m);
    if (spec->mode == GO_DEAD_AUTO || spec->mode == GO_DEAD_EDIT)
        for (int p = 0; p < GO_CELLS; p++)
            m[p] = proposal[p] && go_board_on(b, p) &&
                   (b->color[p] == GO_BLACK || b->color[p] == GO_WHITE);
    if (spec->mode != GO_DEAD_AUTO && spec->mode != GO_DEAD_NONE)
        for (int i = 0; i < spec->n; i++) {
            int p = spec->point[i];
            bool stone = go_board_on(b, p) && (b->color[p] == GO_BLACK ||
                                                b->color[p] == GO_WHITE);
            if (!stone || (spec->mode == GO_DEAD_EDIT && (spec->sign[i] > 0) == (m[p] != 0))) {
                if (bad)
                    *bad = i;
                return GO_EINVAL;
            }
            set_chain(b, p, m, spec->sign[i] > 0 ? 1 : 0);
        }
    memcpy(mask, m, sizeof m);
    return GO_OK;
}
