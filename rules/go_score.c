/* go_score.c: counting a finished position under every preset (see go_score.h).
 *
 * One pass for every system: copy the board, take the dead stones off (unless the rules
 * keep every stone, Tromp-Taylor), flood the empty regions and note which colours each
 * reaches, find the seki (a shared point where either side's move would be self-atari),
 * then add up what each system counts. Only the board's size and color[] are read.
 *
 * The systems, as implemented (half points throughout):
 *  - area (chinese, ing, aga, nz, tromp-taylor, ancient-area): live stones + points
 *    reaching only that colour. Chinese and ancient-area share the points between both
 *    sides' live stones half each (the Chinese rules, art. 9: "雙方活棋之間的空點各得一半"
 *    - the empty points between the two sides' live stones are shared half each); the
 *    others count them for nobody. Handicap compensation per rules->handicap_comp.
 *  - territory (japanese, korean, ancient-territory): points reaching only that colour
 *    + prisoners (captures during the game + dead stones removed at the end). Under the
 *    seki tax (GO_TAX_SEKI) the eyes of groups in seki and the shared points of a seki
 *    are nobody's.
 *  - ancient area counting (ancient-area, Ming and Qing, 明清 數子法): area counting as the
 *    Chinese rules (the modern Chinese rules "來源於明清時代的中國古代數子制圍棋規則"), with
 *    the group tax, 還棋頭 huan qi tou (GO_TAX_GROUP): "each separate living group costs
 *    its owner one stone" (issue 3). five-rule-systems.txt: the modern Chinese and the
 *    Japanese/Korean rules descend from the ancient ones but "取消了古代圍棋規則中'座子'
 *    與'還棋頭'等規定" (dropped the zuozi and the group tax). A stone of count is one point
 *    of the margin: 2 half points per group. A group is a connected set of a colour's
 *    live stones and the points only it reaches (stones joined through their own
 *    territory count once).
 *  - ancient territory counting (ancient-territory, Tang and Song, 唐宋 數目法):
 *    five-rule-systems.txt: "唐代之後，中國古代數目法圍棋規則流傳到了日本與朝鮮半島，逐步
 *    演變為今日的現代圍棋數目法規則" - the Japanese and Korean territory rules grew out of
 *    it. Counted as they count: the points a side surrounds plus its prisoners, the komi
 *    the preset gives (0). Whether the group tax applies is the preset's field (tax); the
 *    rules preset (go_rules.c) gives it none.
 *  - Ing: Black wins ties (komi 8): a zero margin is Black's win, written "B+0.5"
 *    (komi 8 with Black winning ties is komi 7.5 in effect; "B+0" is not a result).
 */
#include "rules/go_score.h"
#include "rules/go_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

/* Flood the chain at p on w: its stones into pts (may be NULL), returns its stone count and
 * its distinct liberty count in *libs. */
static int chain_libs(const uint8_t *w, int p, int *libs)
{
    uint8_t seen[GO_CELLS];
    go_point_t stack[GO_CELLS];
    int n = 0, sp = 0, nl = 0;
    uint8_t c = w[p];
    memset(seen, 0, sizeof seen);
    stack[sp++] = (go_point_t)p;
    seen[p] = 1;
    while (sp) {
        int q = stack[--sp];
        n++;
        for (int d = 0; d < 4; d++) {
            int r = q + dirs[d];
            if (seen[r])
                continue;
            if (w[r] == c) {
                seen[r] = 1;
                stack[sp++] = (go_point_t)r;
            } else if (w[r] == GO_EMPTY) {
                seen[r] = 1;
                nl++;
            }
        }
    }
    *libs = nl;
    return n;
}

static int self_atari_w(uint8_t *w, go_color_t c, int p)
{
    int libs, res;
    go_color_t o = GO_OTHER(c);
    w[p] = (uint8_t)c;
    for (int d = 0; d < 4; d++) {
        int r = p + dirs[d];
        if (w[r] == o) {
            chain_libs(w, r, &libs);
            if (libs == 0) {   /* captures: not a self-atari */
                w[p] = GO_EMPTY;
                return 0;
            }
        }
    }
    chain_libs(w, p, &libs);
    res = libs <= 1;
    w[p] = GO_EMPTY;
    return res;
}

int go_score_self_atari(const uint8_t *color, int size, go_color_t c, int p)
{
    uint8_t w[GO_CELLS];
    go_board_t tmp;
    if (!color || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return 0;
    tmp.size = size;
    memcpy(tmp.color, color, GO_CELLS);
    go_load_colors(&tmp, w);
    if (w[p] != GO_EMPTY)
        return 0;
    return self_atari_w(w, c, p);
}

void go_score_half_text(int v2, char *buf, size_t len)
{
    int a = v2 < 0 ? -v2 : v2;
    if (!buf || !len)
        return;
    /* The return value is checked so that GCC does not warn about truncation: a
     * too-small buffer gets a truncated (still terminated) text. */
    int n = snprintf(buf, len, a % 2 ? "%s%d.5" : "%s%d", v2 < 0 ? "-" : "", a / 2);
    if (n < 0)
        buf[0] = '\0';
}

void go_score_quarters_text(int q, char *buf, size_t len)
{
    static const char *const frac[4] = { "", "1/4", "1/2", "3/4" };
    int a = q < 0 ? -q : q, n;
    const char *sign = q < 0 ? "-" : "";
    if (!buf || !len)
        return;
    if (a % 4 == 0)
        n = snprintf(buf, len, "%s%d", sign, a / 4);
    else if (a < 4)
        n = snprintf(buf, len, "%s%s", sign, frac[a % 4]);
    else
        n = snprintf(buf, len, "%s%d %s", sign, a / 4, frac[a % 4]);
    if (n < 0)
        buf[0] = '\0';
}

#ifndef GO_SEKI_EYE_MAX
#define GO_SEKI_EYE_MAX 6 /* the largest region taken as an eye of a group in seki (3a) */
#endif
/* The unsettled borders of w (dead stones already off; see go_score_t.unsettled):
 * open[r] = 1 for each region r reaching both colours, in no seki, with a point
 * GO_SCORE_OPEN_DIST or more from every live stone; fill[p] = 1 for the points of such a
 * region whose distances to the two colours' live stones differ by at most 1 (a band
 * that separates the points nearer to Black by 2 or more from those nearer to White:
 * a step changes the difference by at most 2). Returns the number of open regions. */
static int find_unsettled(const uint8_t *w, int size, const int16_t *region,
                          const uint8_t *rmask, const uint8_t *rseki, uint8_t *open,
                          uint8_t *fill)
{
    int16_t dist[2][GO_CELLS];
    go_point_t queue[GO_CELLS];
    int nopen = 0;
    memset(fill, 0, GO_CELLS);
    for (int c = 0; c < 2; c++) {
        uint8_t col = c ? GO_WHITE : GO_BLACK;
        int qh = 0, qt = 0;
        for (int i = 0; i < GO_CELLS; i++)
            dist[c][i] = -1;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y);
                if (w[p] == col) {
                    dist[c][p] = 0;
                    queue[qt++] = (go_point_t)p;
                }
            }
        while (qh < qt) {
            int q = queue[qh++];
            for (int d = 0; d < 4; d++) {
                int r = q + dirs[d];
                if (w[r] == GO_EMPTY && dist[c][r] < 0) {
                    dist[c][r] = (int16_t)(dist[c][q] + 1);
                    queue[qt++] = (go_point_t)r;
                }
            }
        }
    }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), r = region[p];
            if (w[p] != GO_EMPTY || rmask[r] != 3 || rseki[r] || open[r])
                continue;
            if (dist[0][p] >= GO_SCORE_OPEN_DIST && dist[1][p] >= GO_SCORE_OPEN_DIST) {
                open[r] = 1;
                nopen++;
            }
        }
    if (!nopen)
        return 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), db = dist[0][p], dw = dist[1][p];
            if (w[p] != GO_EMPTY || !open[region[p]] || db < 0 || dw < 0)
                continue;
            fill[p] = db - dw <= 1 && dw - db <= 1;
        }
    return nopen;
}

/* Marks the whole chain at r in seki; 1 when it was not marked yet. */
static int mark_chain(const uint8_t *w, uint8_t *sekichain, int r, go_point_t *stack)
{
    int sp = 0;
    if (sekichain[r])
        return 0;
    stack[sp++] = (go_point_t)r;
    sekichain[r] = 1;
    while (sp) {
        int q = stack[--sp];
        for (int e = 0; e < 4; e++) {
            int t = q + dirs[e];
            if (w[t] == w[r] && !sekichain[t]) {
                sekichain[t] = 1;
                stack[sp++] = (go_point_t)t;
            }
        }
    }
    return 1;
}

int go_score_count(const go_board_t *b, const go_rules_t *rules, const go_score_params_t *par,
                   const uint8_t *dead, go_score_t *out)
{
    uint8_t w[GO_CELLS];
    int16_t region[GO_CELLS];      /* region id of an empty point, -1 otherwise */
    uint8_t rmask[GO_CELLS];       /* per region: colours reached (bit 1 black, 2 white) */
    uint8_t rseki[GO_CELLS];       /* per region: 1 shared seki liberties, 2 seki eye */
    int rsize[GO_CELLS];
    go_point_t stack[GO_CELLS];
    uint8_t sekichain[GO_CELLS];
    uint8_t ropen[GO_CELLS];       /* per region: 1 an unsettled border */
    uint8_t fill[GO_CELLS];        /* the points to fill of the unsettled borders */
    go_score_t *s;
    int nreg = 0, size;
    bool share, remove;

    if (!b || !rules || !par || !out || b->size < GO_MIN_SIZE || b->size > GO_MAX_SIZE)
        return GO_EINVAL;
    s = calloc(1, sizeof *s);
    if (!s)
        return GO_ENOMEM;
    size = b->size;
    go_load_colors(b, w);
    remove = rules->remove_dead && dead;
    share = rules->scoring == GO_SCORING_AREA && rules->name
            && (!strcmp(rules->name, "chinese") || !strcmp(rules->name, "ancient-area"));

    /* 1. dead stones off. */
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if ((w[p] == GO_BLACK || w[p] == GO_WHITE) && remove && dead[p]) {
                go_color_t o = GO_OTHER(w[p]);
                s->point[p] = (uint8_t)(o | GO_SP_DEAD);
                s->side[o].dead++;
                w[p] = GO_EMPTY;
            }
        }

    /* 2. empty regions and the colours they reach. */
    for (int i = 0; i < GO_CELLS; i++)
        region[i] = -1;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y), sp = 0, n = 0;
            uint8_t mask = 0;
            if (w[p] != GO_EMPTY || region[p] >= 0)
                continue;
            region[p] = (int16_t)nreg;
            stack[sp++] = (go_point_t)p;
            while (sp) {
                int q = stack[--sp];
                n++;
                for (int d = 0; d < 4; d++) {
                    int r = q + dirs[d];
                    if (w[r] == GO_EMPTY && region[r] < 0) {
                        region[r] = (int16_t)nreg;
                        stack[sp++] = (go_point_t)r;
                    } else if (w[r] == GO_BLACK || w[r] == GO_WHITE) {
                        mask |= w[r];
                    }
                }
            }
            rmask[nreg] = mask;
            rsize[nreg] = n;
            rseki[nreg] = 0;
            nreg++;
        }

    /* 3. seki: a point reaching both colours where either side's move is self-atari;
     * the chains touching such a point are in seki; a region reaching only chains in
     * seki is an eye of a seki group. */
    memset(sekichain, 0, sizeof sekichain);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (w[p] != GO_EMPTY || rmask[region[p]] != 3)
                continue;
            if (self_atari_w(w, GO_BLACK, p) && self_atari_w(w, GO_WHITE, p)) {
                rseki[region[p]] = 1;
                s->point[p] |= GO_SP_SEKI;
                for (int d = 0; d < 4; d++) {
                    int r = p + dirs[d];
                    if ((w[r] == GO_BLACK || w[r] == GO_WHITE) && !sekichain[r]) {
                        mark_chain(w, sekichain, r, stack);
                        s->nseki_groups++;
                    }
                }
            }
        }
    /* 3a. a seki group is more than the chains at the shared points: a small region of
     * one colour (an eye, at most GO_SEKI_EYE_MAX points) touching a chain in seki joins
     * the chains around it into the same group, in seki too (as GNU Go's dragons: the
     * points in the eyes of a group in seki are not territory). Repeated until stable. */
    for (int changed = s->nseki_groups > 0; changed;) {
        changed = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), touch = 0;
                if (w[p] != GO_EMPTY || (rmask[region[p]] != GO_BLACK && rmask[region[p]] != GO_WHITE)
                    || rsize[region[p]] > GO_SEKI_EYE_MAX)
                    continue;
                for (int d = 0; d < 4; d++)
                    touch |= sekichain[p + dirs[d]];
                if (!touch)
                    continue;
                for (int d = 0; d < 4; d++) {
                    int r = p + dirs[d];
                    if ((w[r] == GO_BLACK || w[r] == GO_WHITE) && !sekichain[r])
                        changed |= mark_chain(w, sekichain, r, stack);
                }
            }
    }
    if (s->nseki_groups)
        for (int i = 0; i < nreg; i++) {
            int all = 1, any = 0;
            if (rmask[i] != GO_BLACK && rmask[i] != GO_WHITE)
                continue;
            for (int y = 0; y < size && all; y++)
                for (int x = 0; x < size && all; x++) {
                    int p = GO_PT(x, y);
                    if (region[p] != i)
                        continue;
                    for (int d = 0; d < 4; d++) {
                        int r = p + dirs[d];
                        if (w[r] == GO_BLACK || w[r] == GO_WHITE) {
                            any = 1;
                            if (!sekichain[r])
                                all = 0;
                        }
                    }
                }
            if (all && any)
                rseki[i] = 2;
        }

    /* 3b. unsettled borders: a region reaching both colours, in no seki, with a point
     * far from every stone is a border the players left open (find_unsettled): nobody's,
     * and its points to fill listed. Tromp-Taylor counts every position as it stands. */
    memset(ropen, 0, sizeof ropen);
    if (rules->remove_dead)
        s->unsettled = find_unsettled(w, size, region, rmask, rseki, ropen, fill);
    else
        memset(fill, 0, sizeof fill);

    /* 4. the map and the counts. */
    int terr_area[3] = { 0, 0, 0 };
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = GO_PT(x, y);
            if (w[p] == GO_BLACK || w[p] == GO_WHITE) {
                s->side[w[p]].stones++;
                s->point[p] = (uint8_t)(w[p] | GO_SP_STONE | (sekichain[p] ? GO_SP_SEKI : 0));
                continue;
            }
            int r = region[p];
            uint8_t flags = s->point[p] & (GO_SP_DEAD | GO_SP_SEKI);
            if (rmask[r] == GO_BLACK || rmask[r] == GO_WHITE) {
                go_color_t c = (go_color_t)rmask[r];
                terr_area[c]++;
                if (rseki[r] == 2 && rules->tax == GO_TAX_SEKI
                    && rules->scoring == GO_SCORING_TERRITORY) {
                    s->point[p] = (uint8_t)(flags | GO_SP_SEKI);
                } else {
                    s->side[c].territory++;
                    s->point[p] = (uint8_t)(flags | c | (rseki[r] == 2 ? GO_SP_SEKI : 0));
                }
            } else if (ropen[r]) {
                s->point[p] = (uint8_t)(flags | GO_SP_OPEN | (fill[p] ? GO_SP_FILL : 0));
                s->open_points++;
                s->fill_points += fill[p] != 0;
            } else {
                s->point[p] = (uint8_t)(flags | GO_SP_DAME);
                if (rmask[r] == 3 && share) {
                    s->side[GO_BLACK].shared2++;
                    s->side[GO_WHITE].shared2++;
                }
            }
        }
    (void)rsize;

    /* 5. living groups (stones joined through the points only they reach), for the tax. */
    {
        uint8_t seen[GO_CELLS];
        memset(seen, 0, sizeof seen);
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = GO_PT(x, y), sp = 0;
                go_color_t c = (go_color_t)w[p];
                if ((c != GO_BLACK && c != GO_WHITE) || seen[p])
                    continue;
                s->side[c].groups++;
                seen[p] = 1;
                stack[sp++] = (go_point_t)p;
                while (sp) {
                    int q = stack[--sp];
                    for (int d = 0; d < 4; d++) {
                        int r = q + dirs[d];
                        if (seen[r])
                            continue;
                        if (w[r] == c || (w[r] == GO_EMPTY && rmask[region[r]] == c)) {
                            seen[r] = 1;
                            stack[sp++] = (go_point_t)r;
                        }
                    }
                }
            }
    }

    /* 6. totals. */
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        go_score_side_t *sd = &s->side[c];
        sd->captures = par->captures[c];
        sd->pass_stones = par->pass_stones[GO_OTHER(c)];
        sd->area2 = 2 * (sd->stones + terr_area[c]) + sd->shared2;
        if (rules->tax == GO_TAX_GROUP)
            sd->tax2 = 2 * sd->groups;
        if (rules->scoring == GO_SCORING_AREA)
            sd->total2 = sd->area2 - sd->tax2;
        else
            sd->total2 = 2 * (sd->territory + sd->captures + sd->dead) - sd->tax2;
    }
    {
        go_score_side_t *wt = &s->side[GO_WHITE];
        int n = par->handicap >= 2 ? par->handicap : 0;
        wt->komi2 = par->komi2;
        if (n && rules->handicap_comp == GO_HC_N)
            wt->handicap2 = 2 * n;
        else if (n && rules->handicap_comp == GO_HC_N_MINUS_1)
            wt->handicap2 = 2 * (n - 1);
        wt->total2 += wt->komi2 + wt->handicap2;
    }
    s->margin2 = s->side[GO_BLACK].total2 - s->side[GO_WHITE].total2;
    if (s->margin2 > 0 || (s->margin2 == 0 && rules->black_wins_ties))
        s->winner = GO_BLACK;
    else if (s->margin2 < 0)
        s->winner = GO_WHITE;
    else
        s->winner = GO_EMPTY;
    if (s->winner == GO_EMPTY) {
        snprintf(s->re, sizeof s->re, "0");
    } else {
        char num[12];
        int m = s->margin2 < 0 ? -s->margin2 : s->margin2;
        go_score_half_text(m ? m : 1, num, sizeof num);
        snprintf(s->re, sizeof s->re, "%c+%s", s->winner == GO_BLACK ? 'B' : 'W', num);
    }
    memcpy(out, s, sizeof *s);
    free(s);
    return GO_OK;
}

void go_score_stones_text(const go_score_t *s, char *english, size_t elen, char *chinese,
                          size_t clen)
{
    static const char *const frac[4] = { "", "1/4", "1/2", "3/4" };
    int q, whole, f;
    const char *en_who, *cn_who;
    char num[32];
    if (!s)
        return;
    q = s->margin2 < 0 ? -s->margin2 : s->margin2;   /* quarters of a stone */
    whole = q / 4;
    f = q % 4;
    if (s->winner == GO_EMPTY) {
        if (english && elen)
            snprintf(english, elen, "Draw");
        if (chinese && clen)
            snprintf(chinese, clen, "和棋");
        return;
    }
    en_who = s->winner == GO_BLACK ? "Black" : "White";
    cn_who = s->winner == GO_BLACK ? "黑胜" : "白胜";
    if (q == 0) {   /* Ing: a tie is Black's */
        if (english && elen)
            snprintf(english, elen, "%s wins the tie", en_who);
        if (chinese && clen)
            snprintf(chinese, clen, "%s(和棋黑胜)", cn_who);
        return;
    }
    go_score_quarters_text(q, num, sizeof num);
    if (english && elen)
        snprintf(english, elen, "%s wins by %s stone%s", en_who, num,
                 (q <= 4) ? "" : "s");
    if (chinese && clen) {
        if (whole && f)
            snprintf(chinese, clen, "%s%d又%s子", cn_who, whole, frac[f]);
        else if (whole)
            snprintf(chinese, clen, "%s%d子", cn_who, whole);
        else
            snprintf(chinese, clen, "%s%s子", cn_who, frac[f]);
    }
}
