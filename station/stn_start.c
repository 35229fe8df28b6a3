/* stn_start.c: how a recording begins (stn_start.h): the resumed game's frame, the
 * resumed board checked against the record, the handicap the first position shows.
 *
 * Invariants: pure functions (the check's state is the caller's); the standard handicap
 * placements are the rules' own (go_game_handicap on a scratch game), never a second
 * table; a placement matches only stone for stone (no extra stone, none missing).
 */
#include "station/stn_start.h"

#include <string.h>

#include "station/stn_stab.h"

int stn_resume_frame(const stn_track_t *k, const go_game_t *g, uint64_t *frame)
{
    if (!k || !g || !frame)
        return GO_EINVAL;
    for (int i = go_game_move_count(g) - 1; i >= 0; i--) {
        const stn_move_info_t *mi = stn_track_info(k, i);
        if (mi && (mi->frame > 0 || mi->t > 0)) {
            *frame = mi->frame + 1;
            return GO_OK;
        }
    }
    return GO_EEMPTY;
}

int stn_resume_last(const stn_track_t *k, const go_game_t *g, uint64_t *frame, double *t)
{
    if (!k || !g || !frame || !t)
        return GO_EINVAL;
    int any = 0;
    *frame = 0;
    *t = 0;
    for (int i = 0; i < go_game_move_count(g); i++) {
        const stn_move_info_t *mi = stn_track_info(k, i);
        if (mi && (mi->frame > 0 || mi->t > 0)) {
            any = 1;
            if (mi->frame > *frame)
                *frame = mi->frame;
            if (mi->t > *t)
                *t = mi->t;
        }
    }
    return any ? GO_OK : GO_EEMPTY;
}

void stn_resume_params_defaults(stn_resume_params_t *p)
{
    p->refuse_s = 1.0;
    p->refuse_views = 3;
}

void stn_resume_check_init(stn_resume_check_t *c, const stn_resume_params_t *par)
{
    memset(c, 0, sizeof *c);
    if (par)
        c->par = *par;
    else
        stn_resume_params_defaults(&c->par);
    c->since = -1;
}

stn_resume_verdict_t stn_resume_judge(stn_resume_check_t *c, const stn_align_t *a, double t)
{
    if (c->verdict != STN_RESUME_WAIT)
        return c->verdict;
    if (a->accept)
        return c->verdict = STN_RESUME_GO;
    if (a->seen * 2 < a->stones)
        return STN_RESUME_WAIT;   /* too little in sight to tell */
    if (c->since < 0)
        c->since = t;
    c->views++;
    c->last = *a;
    if (c->views >= c->par.refuse_views && t - c->since >= c->par.refuse_s)
        c->verdict = STN_RESUME_REFUSE;
    return c->verdict;
}

/* (x, y) under symmetry k (0..7: bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps them). */
static void hc_sym(int k, int S, int x, int y, int *ox, int *oy)
{
    int a = k & 1 ? S - 1 - x : x, b = k & 2 ? S - 1 - y : y;
    *ox = k & 4 ? b : a;
    *oy = k & 4 ? a : b;
}

/* in[p] = 1 on the black stones of go_game_handicap(n) on a size-board (9, 13, 19). */
static int stn_placement(int size, int n, uint8_t in[GO_CELLS])
{
    go_game_t *g = go_game_create(size, NULL);
    if (!g)
        return GO_ENOMEM;
    int rc = go_game_handicap(g, n);
    if (rc == GO_OK)
        for (int p = 0; p < GO_CELLS; p++)
            in[p] = go_board_on(go_game_board(g), p) && go_game_board(g)->color[p] == GO_BLACK;
    go_game_destroy(g);
    return rc;
}

/* The star points a handicap can stand on (the 9 of go_game_handicap(9)): 1 with star[]
 * filled, 0 for a size with none (star[] cleared), or GO_ENOMEM. */
static int stn_star_points(int size, uint8_t star[GO_CELLS])
{
    memset(star, 0, GO_CELLS);
    if (size != 9 && size != 13 && size != 19)
        return 0;
    int rc = stn_placement(size, 9, star);
    return rc == GO_OK ? 1 : rc;
}

int stn_handicap_find(int size, const uint8_t *color, stn_handicap_seen_t *out)
{
    if (!color || !out || size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_EINVAL;
    stn_handicap_seen_t h;
    memset(&h, 0, sizeof h);
    int S = size;
    for (int pass = 0; pass < 2; pass++)   /* black stones first in pts[] */
        for (int i = 0; i < S * S; i++) {
            int c = color[i];
            if (pass == 0 && c == STN_UNKNOWN)
                h.nunknown++;
            if (c != (pass == 0 ? GO_BLACK : GO_WHITE))
                continue;
            if (pass == 0)
                h.nblack++;
            else
                h.nwhite++;
            if (h.npts < STN_HC_MAX_PTS)
                h.pts[h.npts++] = (go_point_t)GO_PT(i % S, i / S);
        }
    uint8_t star[GO_CELLS];
    int stars = stn_star_points(S, star);
    if (stars < 0)
        return stars;
    int hidden_star = 0;   /* an unknown star point may hide a handicap stone */
    for (int i = 0; i < S * S; i++)
        hidden_star |= color[i] == STN_UNKNOWN && (!stars || star[GO_PT(i % S, i / S)]);
    if (hidden_star) {
        h.kind = STN_HC_UNSURE;
    } else if (!h.nblack && !h.nwhite) {
        h.kind = STN_HC_EMPTY;
    } else if (h.nwhite || h.nblack < 2 || h.nblack > 9 || (S != 9 && S != 13 && S != 19)) {
        h.kind = STN_HC_OTHER;
    } else {
        /* the rules' n-stone placement */
        uint8_t std[GO_CELLS];
        int rc = stn_placement(S, h.nblack, std);
        if (rc != GO_OK)
            return rc;
        int on_stars = 1;
        for (int i = 0; i < S * S && on_stars; i++)
            on_stars = color[i] != GO_BLACK || star[GO_PT(i % S, i / S)];
        int match = 0;
        for (int k = 0; k < 8 && on_stars && !match; k++) {
            match = 1;
            for (int i = 0; i < S * S && match; i++) {
                int x, y;
                hc_sym(k, S, i % S, i / S, &x, &y);
                match = (color[i] == GO_BLACK) == (std[GO_PT(x, y)] != 0);
            }
        }
        h.kind = match ? STN_HC_STANDARD : on_stars ? STN_HC_STARS : STN_HC_OTHER;
        h.n = match ? h.nblack : 0;
    }
    *out = h;
    return GO_OK;
}

void stn_point_human(int size, go_point_t p, char out[4])
{
    static const char cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    int x = GO_X(p), y = GO_Y(p);
    if (x < 0 || y < 0 || x >= size || y >= size) {
        strcpy(out, "?");
        return;
    }
    int row = size - y;
    out[0] = cols[x];
    out[1] = (char)(row >= 10 ? '0' + row / 10 : '0' + row);
    out[2] = (char)(row >= 10 ? '0' + row % 10 : '\0');
    out[3] = '\0';
}
