/* stn_signal.c: the end signals as the referee reads them (stn_signal.h).
 *
 * Invariants: a corner's `confirmed` reading changes only after the same reading held for
 * hold_s seconds and min_frames frames; frames with no reading (a hand over the board, an
 * unsure patch) neither start nor end a run; every call that makes events clears the list
 * first, and the station's events it caused follow in the order they came.
 */
#include "station/stn_signal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_point.h"

void stn_signal_params_defaults(stn_signal_params_t *p)
{
    p->hold_s = 0.5;
    p->min_frames = 3;
    p->quiet_s = 0.5;
    p->hand_d = 3;
    p->visit_gap_s = 0.3;
    p->visit_slack_s = 0.1;
    p->undo_window_s = 1.5;
    p->recent_s = 3.0;
    p->resign_hold_s = 2.0;
    p->resign_guess_s = 4.0;
    p->seat_moves = 3;
    p->seat_share = 0.75;
    p->seat_hand_min = 3;
    p->seat_reach = 1.5;
}

static const char *seat_name(int seat)
{
    return seat == GO_BLACK ? "Black" : "White";
}

/* ---- events ---- */

/* A note of what the signals were taken to mean (STN_EV_SIGNAL), or another kind. */
static void note(stn_signal_t *g, stn_event_kind_t kind, int color, double t, const char *fmt, ...)
{
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.color = (go_color_t)color;
    e.t = e.t_hand = t;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof e.msg, fmt, ap);
    va_end(ap);
    stn_events_push(&g->ev, &e);   /* out of memory: the note is lost, never the game */
}

/* The station's events of its last call, after ours. */
static void take_events(stn_signal_t *g, const stn_t *s)
{
    int n = 0;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        stn_events_push(&g->ev, &ev[i]);
}

const stn_event_t *stn_signal_events(const stn_signal_t *g, int *n)
{
    *n = g->ev.n;
    return g->ev.v;
}

/* ---- the corners: runs and seats ---- */

/* The board's corner point nearest the patch of a seat on `side` (vis_side_t): the seat's
 * lower right corner. */
static void corner_point(int size, int side, int *x, int *y)
{
    int m = size - 1;
    switch (side & 3) {
    case VIS_SIDE_BOTTOM: *x = m; *y = m; break;
    case VIS_SIDE_RIGHT: *x = m; *y = 0; break;
    case VIS_SIDE_TOP: *x = 0; *y = 0; break;
    default: *x = 0; *y = m; break;   /* left */
    }
}

/* Set up corner c: the signal corner of a seat on `side` (vis_side_t). */
static void corner_init(stn_signal_corner_t *c, int size, int side, int seat)
{
    memset(c, 0, sizeof *c);
    c->seat = seat;
    c->side = side & 3;
    corner_point(size, side, &c->cx, &c->cy);
}

int stn_signal_init(stn_signal_t *g, int size, vis_side_t black_side, int seats_known,
                    const stn_signal_params_t *p)
{
    if (!g || size < 2 || size > VIS_MAX_SIZE || (unsigned)black_side > 3)
        return GO_EINVAL;
    memset(g, 0, sizeof *g);
    g->size = size;
    if (p)
        g->p = *p;
    else
        stn_signal_params_defaults(&g->p);
    corner_init(&g->corner[GO_BLACK], size, (int)black_side, GO_BLACK);
    corner_init(&g->corner[GO_WHITE], size, (int)black_side + 2, GO_WHITE);
    /* the other diagonal: the seats' corners were the players sitting at the other two
     * sides (a camera beside a player, no calibration) */
    corner_init(&g->other[0], size, (int)black_side + 1, GO_EMPTY);
    corner_init(&g->other[1], size, (int)black_side + 3, GO_EMPTY);
    g->seats_known = seats_known != 0;
    g->hand_last = -1e9;   /* no hand seen yet */
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++)
        g->occ_last[seat] = g->occ_visit[seat] = -1e9;
    stn_events_init(&g->ev);
    return GO_OK;
}

void stn_signal_fini(stn_signal_t *g)
{
    if (g)
        stn_events_fini(&g->ev);
}

/* A new reference look: every corner's run starts afresh. */
static void corner_reference(stn_signal_corner_t *c)
{
    c->reading = c->confirmed = GO_EMPTY;
    c->frames = 0;
    c->spent = 0;
    c->since = 0;
}

void stn_signal_reference(stn_signal_t *g)
{
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++)
        corner_reference(&g->corner[seat]);
    for (int k = 0; k < 2; k++)
        corner_reference(&g->other[k]);
}

unsigned stn_signal_sides(const stn_signal_t *g)
{
    unsigned sides = 1u << g->corner[GO_BLACK].side | 1u << g->corner[GO_WHITE].side;
    if (!g->seats_known)
        sides |= 1u << g->other[0].side | 1u << g->other[1].side;
    return sides;
}

/* The reader's side of a corner reading nothing (its reference may be refreshed). */
static unsigned quiet_side(const stn_signal_corner_t *c)
{
    return c->reading == GO_EMPTY && c->confirmed == GO_EMPTY ? 1u << c->side : 0;
}

unsigned stn_signal_quiet_sides(const stn_signal_t *g)
{
    return quiet_side(&g->corner[GO_BLACK]) | quiet_side(&g->corner[GO_WHITE]) |
           quiet_side(&g->other[0]) | quiet_side(&g->other[1]);
}

/* One frame's reading into corner c's run; 1 when its confirmed reading changed. */
static int corner_feed(stn_signal_corner_t *c, const stn_signal_params_t *p, const int *rd,
                       double t)
{
    int r = rd[c->side];
    if (r < 0)
        return 0;
    if (r != c->reading) {
        c->reading = r;
        c->since = t;
        c->frames = 0;
    }
    c->frames++;
    if (c->reading != c->confirmed && c->frames >= p->min_frames && t - c->since >= p->hold_s) {
        c->confirmed = c->reading;
        c->confirmed_since = c->since;
        return 1;
    }
    return 0;
}

/* b and w become Black's and White's corners (the seats moved). */
static void seat_corners(stn_signal_t *g, stn_signal_corner_t b, stn_signal_corner_t w)
{
    g->corner[GO_BLACK] = b;
    g->corner[GO_WHITE] = w;
    g->corner[GO_BLACK].seat = GO_BLACK;
    g->corner[GO_WHITE].seat = GO_WHITE;
    g->seats_moved = 1;
    g->swaps++;
}

/* The other diagonal's corners become the seats': other[kb] Black's, the other White's;
 * the seats' corners become the other diagonal (Black's first). */
static void swap_seats(stn_signal_t *g, int kb)
{
    stn_signal_corner_t b = g->other[kb], w = g->other[1 - kb];
    g->other[0] = g->corner[GO_BLACK];
    g->other[1] = g->corner[GO_WHITE];
    g->other[0].seat = g->other[1].seat = GO_EMPTY;
    seat_corners(g, b, w);
}

/* The runs of one frame's readings and what they say of the seats. */
static int corners_feed(stn_signal_t *g, const int *rd, double t)
{
    int changed = 0;
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++)
        if (corner_feed(&g->corner[seat], &g->p, rd, t))
            changed |= 1 << (seat - 1);
    if (g->seats_known)
        return changed;
    if (g->corner[GO_BLACK].confirmed == GO_BLACK && g->corner[GO_WHITE].confirmed == GO_WHITE) {
        /* each his own colour: no double resignation, but the two end signals with the
         * seats the other way round on this diagonal (Black at the white stone) */
        seat_corners(g, g->corner[GO_WHITE], g->corner[GO_BLACK]);
        g->seats_known = 1;
        g->guessed = 0;
        g->swaps++;
        return changed | 3;
    }
    for (int k = 0; k < 2; k++)
        corner_feed(&g->other[k], &g->p, rd, t);
    int o[2];
    for (int k = 0; k < 2; k++) {
        stn_signal_corner_t *c = &g->other[k];
        if (c->spent && c->confirmed != c->spent)
            c->spent = 0;
        o[k] = c->spent ? GO_EMPTY : c->confirmed;
    }
    int o0 = o[0], o1 = o[1];
    if (g->corner[GO_BLACK].confirmed != GO_EMPTY || g->corner[GO_WHITE].confirmed != GO_EMPTY)
        return changed;
    if (o0 != GO_EMPTY && o1 != GO_EMPTY && o0 != o1) {
        /* both end signals on the other diagonal: the players sit at the other two sides;
         * the white stone lies at Black's corner (the one colour pair that is no double
         * resignation). From now on those are the seats' corners. */
        swap_seats(g, o0 == GO_WHITE ? 0 : 1);
        g->seats_known = 1;
        g->guessed = 0;
        changed |= 3;
    } else if ((o0 != GO_EMPTY) != (o1 != GO_EMPTY) && g->to_move) {
        /* one signal there: the side to move's (his end signal comes first, and he
         * resigns on his turn), so he sits at that side */
        int k = o0 != GO_EMPTY ? 0 : 1;
        swap_seats(g, g->to_move == GO_BLACK ? k : 1 - k);
        g->guessed = 1;
        changed |= 3;
    }
    return changed;
}

/* Play went on past a reading: when the seats were moved on one signal (guessed), that
 * was no signal: the seats go back to where they were. Returns 1 when they did. */
static int seats_revert(stn_signal_t *g)
{
    if (!g->guessed)
        return 0;
    /* the corners before the swap are the other diagonal's now: other[0] was Black's */
    swap_seats(g, 0);
    for (int k = 0; k < 2; k++)
        g->other[k].spent = g->other[k].confirmed;
    g->guessed = 0;
    g->seats_moved = 0;
    return 1;
}

int stn_signal_black_side(const stn_signal_t *g)
{
    return g->corner[GO_BLACK].side;
}

/* Whether point (x, y) lies within `d` lines of seat's signal corner. */
static int near_corner(const stn_signal_t *g, int seat, int x, int y, int d)
{
    const stn_signal_corner_t *c = &g->corner[seat];
    return abs(x - c->cx) <= d && abs(y - c->cy) <= d;
}

/* Whether a stone at (x, y) can be a signal stone put half on the board beside seat's
 * corner: on the board's edge line next to the watched patch (the patch lies beyond that
 * edge), at most one line from the corner. A stone a line inside the edge (bb beside aa)
 * is a move: half a stone off the board cannot be read there. */
static int signal_point(const stn_signal_t *g, int seat, int x, int y)
{
    if (!near_corner(g, seat, x, y, 1))
        return 0;
    const stn_signal_corner_t *c = &g->corner[seat];
    /* the patch lies beyond the vertical edge (x = cx) for a seat at the bottom or the
     * top, beyond the horizontal one for a seat at either side */
    return (c->side & 1) ? y == c->cy : x == c->cx;
}

/* ---- the referee: hands, settling, what the readings mean ---- */

void stn_signal_hands(stn_signal_t *g, const vis_snapshot_t *snap)
{
    int S = snap->size, d = g->p.hand_d;
    double t = snap->t;
    if (S != g->size || snap->board_lost)
        return;
    if (snap->occluder) {
        g->hand_last = t;
        for (int y = 0; y < S; y++)   /* where the hands were, for the seats */
            for (int x = 0; x < S; x++)
                if (snap->occluded[y * S + x]) {
                    g->hand_sum[0] += x;
                    g->hand_sum[1] += y;
                    g->hand_sum[2] += 1;
                }
    }
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++) {
        const stn_signal_corner_t *c = &g->corner[seat];
        int hidden = 0;
        for (int y = c->cy - d; snap->occluder && y <= c->cy + d && !hidden; y++)
            for (int x = c->cx - d; x <= c->cx + d && !hidden; x++)
                hidden = x >= 0 && y >= 0 && x < S && y < S && snap->occluded[y * S + x];
        if (hidden) {
            if (t - g->occ_last[seat] > g->p.visit_gap_s)
                g->occ_visit[seat] = t;
            g->occ_last[seat] = t;
            g->quiet_frames[seat] = 0;
        } else if (!snap->occluder) {
            g->quiet_frames[seat]++;   /* a frame the reader read with no hand there */
        }
    }
}

int stn_signal_stones(const stn_signal_t *g, const stn_t *s, double t, uint8_t *stones)
{
    const go_game_t *gm = stn_game(s);
    const go_board_t *b = go_game_board(gm);
    if (b->size != g->size)
        return GO_EINVAL;
    memset(stones, 0, (size_t)b->size * (size_t)b->size);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            stones[y * b->size + x] = b->color[GO_PT(x, y)] != GO_EMPTY;
    /* captured stones not yet taken off are still there */
    go_point_t pend[GO_MAX_SIZE * GO_MAX_SIZE];
    int np = stn_track_pending(stn_tracker(s), pend, GO_MAX_SIZE * GO_MAX_SIZE);
    for (int i = 0; i < np && i < GO_MAX_SIZE * GO_MAX_SIZE; i++)
        stones[GO_Y(pend[i]) * b->size + GO_X(pend[i])] = 1;
    int n = go_game_move_count(gm);
    for (int i = n - 1; i >= 0 && i >= n - 3; i--) {
        const go_move_t *m = go_game_move(gm, i);
        const stn_move_info_t *mi = stn_track_info(stn_tracker(s), i);
        if (m->kind != GO_MOVE_PLAY || !mi || mi->t < t - g->p.recent_s)
            continue;
        int x = GO_X(m->point), y = GO_Y(m->point);
        if (signal_point(g, GO_BLACK, x, y) || signal_point(g, GO_WHITE, x, y))
            stones[y * b->size + x] = 0;
    }
    return GO_OK;
}

/* The corners changed places: what was known of each seat's corner (hands near it,
 * readings that held or went stale) was about the old corners: start afresh, as if a hand
 * had just left (a reading must hold quiet_s there again). */
static void seats_moved(stn_signal_t *g, double t)
{
    g->swaps_seen = g->swaps;
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++) {
        g->stale[seat] = 0;
        g->quiet[seat] = GO_EMPTY;
        g->occ_last[seat] = t;
        g->occ_visit[seat] = t;
        g->quiet_frames[seat] = 0;
    }
}

int stn_signal_read(stn_signal_t *g, const stn_t *s, const int *rd, double t)
{
    stn_events_clear(&g->ev);
    g->to_move = go_game_turn(stn_game(s)) == GO_BLACK ? GO_BLACK : GO_WHITE;
    int ch = rd ? corners_feed(g, rd, t) : 0;
    /* a reading play went on past is stale until the corner reads otherwise: once it
     * confirmed something else (nothing, when the stone or the hand's highlight went), what
     * comes next is read afresh; its settled reading may never have been the stale one */
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++)
        if (g->stale[seat] && g->corner[seat].confirmed != g->stale[seat])
            g->stale[seat] = 0;
    if (g->swaps != g->swaps_seen) {
        seats_moved(g, t);
        const char *side = vis_side_name((vis_side_t)stn_signal_black_side(g));
        if (g->guessed)
            note(g, STN_EV_SIGNAL, GO_EMPTY, t, "signal: a stone beside a corner where no "
                 "seat's signal goes: the side to move sits there (Black at the record's %s "
                 "side), unless play goes on", side);
        else
            note(g, STN_EV_SIGNAL, GO_EMPTY, t, "signal: the two end signals tell the seats: "
                 "Black at the record's %s side", side);
    }
    return ch;
}

/* The confirmed readings that count (quiet): held quiet_s and min_frames read frames
 * after the last hand near the corner; force (a file ended): any reading the patch still
 * shows. Returns the mask of seats whose counted reading changed. */
static int settle(stn_signal_t *g, double t, int force)
{
    int changed = 0;
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++) {
        const stn_signal_corner_t *c = &g->corner[seat];
        int r = c->confirmed, q = GO_EMPTY;
        double from = c->since > g->occ_last[seat] ? c->since : g->occ_last[seat];
        if (r != GO_EMPTY &&
            (g->quiet[seat] == r || force ||
             (c->reading == r && t - from >= g->p.quiet_s &&
              g->quiet_frames[seat] >= g->p.min_frames)))
            q = r;
        if (q != g->quiet[seat]) {
            g->quiet[seat] = q;
            changed |= 1 << (seat - 1);
        }
    }
    return changed;
}

int stn_signal_get(const stn_signal_t *g, int seat)
{
    if (seat != GO_BLACK && seat != GO_WHITE)
        return GO_EMPTY;
    int r = g->quiet[seat];   /* EMPTY or the confirmed reading, which a stale one is */
    return r != GO_EMPTY && r == g->stale[seat] ? GO_EMPTY : r;
}

/* A signal stone put half on the board can have been read as a move at the corner just
 * before the signal was confirmed: take such moves back (and say so). Only a stone the
 * signal can be: of the reading's colour (the station read the same stone), seen at most
 * undo_window_s before the reading began, and not before the last hand came over that
 * corner (a stone seen before is a move played there; the hand came after it, and what
 * it left beside the corner is another matter). */
static void undo_signal_moves(stn_signal_t *g, stn_t *s, int seat, double t)
{
    const go_game_t *gm = stn_game(s);
    double since = g->corner[seat].confirmed_since;
    int r = g->corner[seat].confirmed;
    go_color_t col = r == GO_BLACK ? GO_BLACK : r == GO_WHITE ? GO_WHITE : GO_EMPTY;
    for (;;) {
        int n = go_game_move_count(gm);
        const go_move_t *m = n > 0 ? go_game_move(gm, n - 1) : NULL;
        const stn_move_info_t *mi = n > 0 ? stn_track_info(stn_tracker(s), n - 1) : NULL;
        if (!m || !mi || m->kind != GO_MOVE_PLAY || m->color != col ||
            mi->t < since - g->p.undo_window_s ||
            mi->t < g->occ_visit[seat] - g->p.visit_slack_s ||
            !signal_point(g, seat, GO_X(m->point), GO_Y(m->point)))
            return;
        char pt[4];
        go_point_human(go_game_board(gm)->size, m->point, pt);
        if (stn_undo(s, t) != GO_OK)
            return;
        note(g, STN_EV_SIGNAL, seat, t, "signal: the stone read at %s was the end signal "
             "beside the corner: move %d taken back", pt, n);
        take_events(g, s);
    }
}

/* The side (vis_side_t) the hand that played at (x, y) came from, or -1: the arm reaches
 * from the player's side to the stone, so the hidden points since the last move lie, on
 * the whole, from the stone towards his side: their centre seat_reach lines or more from
 * the stone, along one axis at least twice as far as along the other. */
static int hand_side(const stn_signal_t *g, int x, int y)
{
    if (g->hand_sum[2] < g->p.seat_hand_min)
        return -1;
    double dx = g->hand_sum[0] / g->hand_sum[2] - x, dy = g->hand_sum[1] / g->hand_sum[2] - y;
    double ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if (ax * ax + ay * ay < g->p.seat_reach * g->p.seat_reach)
        return -1;
    if (ay >= 2 * ax)
        return dy > 0 ? VIS_SIDE_BOTTOM : VIS_SIDE_TOP;
    if (ax >= 2 * ay)
        return dx > 0 ? VIS_SIDE_RIGHT : VIS_SIDE_LEFT;
    return -1;
}

/* The side (vis_side_t) Black's seat is at by the hands, or -1: the moves whose hand came
 * from that side (Black's) or from the opposite one (White's) are seat_moves at least and
 * seat_share at least of all the moves that told a side (either player's; the players sit
 * opposite, so one player's hands tell both seats). */
static int voted_side(const stn_signal_t *g)
{
    int all = 0, best = -1, best_n = 0;
    for (int side = 0; side < 4; side++)
        all += g->seat_votes[GO_BLACK][side] + g->seat_votes[GO_WHITE][side];
    for (int bs = 0; bs < 4; bs++) {
        int n = g->seat_votes[GO_BLACK][bs] + g->seat_votes[GO_WHITE][(bs + 2) & 3];
        if (n > best_n) {
            best_n = n;
            best = bs;
        }
    }
    return best_n >= g->p.seat_moves && best_n >= g->p.seat_share * all ? best : -1;
}

/* Black sits at side bs (vis_side_t), White opposite: the seats' corners become those
 * (from the seats' own diagonal, swapped, or from the other one). */
static void seats_at(stn_signal_t *g, int bs)
{
    if (g->corner[GO_BLACK].side == bs)
        return;
    if (g->corner[GO_WHITE].side == bs) {
        seat_corners(g, g->corner[GO_WHITE], g->corner[GO_BLACK]);
        return;
    }
    swap_seats(g, g->other[0].side == bs ? 0 : 1);
}

/* A move of `seat` was recorded: its hand's side counts for his seat; with no calibration,
 * once both players' hands agree on opposite sides, those are the seats, for good. */
static void seats_from_hands(stn_signal_t *g, int seat, int x, int y, double t)
{
    int side = hand_side(g, x, y);
    memset(g->hand_sum, 0, sizeof g->hand_sum);
    if (side >= 0 && (seat == GO_BLACK || seat == GO_WHITE))
        g->seat_votes[seat][side]++;
    if (g->seats_known || g->p.seat_moves <= 0)
        return;
    int bs = voted_side(g), ws = (bs + 2) & 3;
    if (bs < 0)
        return;
    seats_at(g, bs);
    g->seats_known = 1;
    g->guessed = 0;
    seats_moved(g, t);   /* what was known of each seat's corner was another corner's */
    note(g, STN_EV_SIGNAL, GO_EMPTY, t, "signal: the players' hands tell the seats: Black at "
         "the record's %s side, White at the %s (the hand of %d and %d of their moves came "
         "from there)", vis_side_name((vis_side_t)bs), vis_side_name((vis_side_t)ws),
         g->seat_votes[GO_BLACK][bs], g->seat_votes[GO_WHITE][ws]);
}

void stn_signal_after_move(stn_signal_t *g, stn_t *s, double t)
{
    stn_events_clear(&g->ev);
    const go_game_t *gm = stn_game(s);
    int n = go_game_move_count(gm);
    const go_move_t *m = n > 0 ? go_game_move(gm, n - 1) : NULL;
    if (m && m->kind == GO_MOVE_PLAY)
        seats_from_hands(g, m->color, GO_X(m->point), GO_Y(m->point), t);
    if (g->end_seat && g->end_n == n - 1 && m && m->kind == GO_MOVE_PLAY &&
        m->color == (go_color_t)g->end_seat) {
        /* the side to move put out his end signal, and the next stone is the opponent's
         * colour (recorded as his, a wrong colour): he passed, and the opponent played on.
         * The move goes back, the pass goes in, and the stone is read again as the
         * opponent's (stn_pass_before_last). A signal alone records nothing (a stone or
         * a shadow beside a corner can look like one); with a stone of the other colour
         * next, it is a pass. */
        int nev = 0, wrong = 0;
        const stn_event_t *ev = stn_events(s, &nev);
        for (int i = 0; i < nev; i++)
            wrong |= ev[i].kind == STN_EV_WRONG_COLOUR && ev[i].move == n;
        int seat = g->end_seat;
        if (wrong && stn_pass_before_last(s, t) == GO_OK) {
            take_events(g, s);
            note(g, STN_EV_SIGNAL, seat, t, "signal: %s's end signal was his pass: %s played "
                 "on", seat_name(seat), seat_name(GO_OTHER(seat)));
            g->stale[seat] = g->corner[seat].confirmed;
            g->end_seat = GO_EMPTY;
            return;
        }
    }
    for (int seat = GO_BLACK; seat <= GO_WHITE; seat++) {
        int r = g->corner[seat].confirmed;
        if (r == GO_EMPTY || g->stale[seat] == r)
            continue;
        if (m && m->kind == GO_MOVE_PLAY && signal_point(g, seat, GO_X(m->point), GO_Y(m->point)))
            continue;
        g->stale[seat] = r;
        g->resign_wait = 0;
        note(g, STN_EV_SIGNAL, seat, t, "signal: play goes on: what lies beside %s's corner "
             "is no signal", seat_name(seat));
        if (seats_revert(g)) {
            /* the seats were moved on that one stone: back where they were */
            seats_moved(g, t);
            int bs = stn_signal_black_side(g);
            note(g, STN_EV_SIGNAL, GO_EMPTY, t, "signal: the players sit at the record's %s "
                 "and %s sides again", vis_side_name((vis_side_t)bs),
                 vis_side_name((vis_side_t)((bs + 2) & 3)));
            break;
        }
    }
}

/* What the counted readings mean: a resignation (own colour, held resign_hold_s) or the
 * end by agreement (both). force: a resignation waiting stands (the footage ended with
 * the stones there). Returns 1 when the game is over by it. */
static int meaning(stn_signal_t *g, stn_t *s, double t, int force)
{
    const go_game_t *gm = stn_game(s);
    int sb = stn_signal_get(g, GO_BLACK), sw = stn_signal_get(g, GO_WHITE);
    int waiting = g->resign_wait;
    g->resign_wait = 0;
    for (int seat = GO_BLACK; seat <= GO_WHITE && !waiting; seat++)
        if (stn_signal_get(g, seat) != GO_EMPTY)
            undo_signal_moves(g, s, seat, t);
    if (sb == GO_BLACK || sw == GO_WHITE) {
        go_color_t c = sb == GO_BLACK ? GO_BLACK : GO_WHITE;
        /* a resignation ends the game for good: the stones must stay a while (a hand's
         * highlight, a bowl pushed past the corner, a captured stone carried off do not),
         * and the last of it with no hand over the board */
        double since = g->corner[c].confirmed_since;
        if (g->hand_last > since)
            since = g->hand_last;
        double hold = g->seats_known ? g->p.resign_hold_s : g->p.resign_guess_s;
        if (t - since < hold && !force) {
            if (!waiting)
                note(g, STN_EV_SIGNAL, c, t, "signal: %s's own colour beside his corner: a "
                     "resignation if it stays", seat_name(c));
            g->resign_wait = 1;
            return 0;
        }
        note(g, STN_EV_SIGNAL, c, t, "signal: %s put his own stone beside the board: "
             "resignation", seat_name(c));
        if (!go_game_over(gm) && stn_resign(s, c, t) == GO_OK)
            take_events(g, s);
        return 1;
    }
    if (sb == GO_WHITE && sw == GO_BLACK) {
        note(g, STN_EV_SIGNAL, GO_EMPTY, t, "signal: both end signals beside the board: the "
             "game ends");
        if (!go_game_over(gm) && stn_end(s, t) == GO_OK)
            take_events(g, s);
        return 1;
    }
    if (sb == GO_WHITE || sw == GO_BLACK) {
        int seat = sb == GO_WHITE ? GO_BLACK : GO_WHITE;
        note(g, STN_EV_SIGNAL, seat, t, "signal: %s signals the end", seat_name(seat));
        /* the overlay and the console say it too, and whose signal is awaited, until the
         * other comes (a stone of the first player's colour by the other's corner) */
        note(g, STN_EV_END_AWAITED, seat, t, "%s signals the end: waiting for %s's end "
             "signal (a %s stone beside %s's corner)", seat_name(seat),
             seat_name(GO_OTHER(seat)), seat == GO_BLACK ? "black" : "white",
             seat_name(GO_OTHER(seat)));
        if (go_game_turn(gm) == (go_color_t)seat) {
            /* the side to move first: a pass if the opponent plays on (after_move) */
            g->end_seat = seat;
            g->end_n = go_game_move_count(gm);
        }
    }
    return 0;
}

int stn_signal_judge(stn_signal_t *g, stn_t *s, int changed, int playing, int end_of_file,
                     double t)
{
    stn_events_clear(&g->ev);
    int settled = settle(g, t, end_of_file), over = 0;
    if (!end_of_file)
        return (settled || changed || g->resign_wait) && playing ? meaning(g, s, t, 0) : 0;
    /* a file ended with the signals there: they stand; a resignation waiting too (nobody
     * took the stones back) */
    if (settled && playing)
        over = meaning(g, s, t, 0);
    if (!over && g->resign_wait && playing)
        over = meaning(g, s, t, 1);
    return over;
}

void stn_signal_finish(stn_signal_t *g, stn_t *s, double t, stn_unfinished_t *out)
{
    stn_events_clear(&g->ev);
    int sb = stn_signal_get(g, GO_BLACK), sw = stn_signal_get(g, GO_WHITE);
    if (stn_finish_signals(stn_game(s), sb == GO_WHITE, sw == GO_BLACK, out) != GO_OK ||
        !out->unfinished)
        return;
    if (out->pass) {
        if (stn_pass(s, t) == GO_OK) {
            take_events(g, s);
            note(g, STN_EV_SIGNAL, out->signalled, t, "signal: %s's end signal: his pass "
                 "recorded; %s's was not seen", seat_name(out->signalled),
                 seat_name(out->missing));
        } else {
            out->pass = 0;
        }
    }
}
