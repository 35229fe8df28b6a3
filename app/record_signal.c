/* record_signal.c: the end-signal watcher (record_signal.h); the pixels are read by
 * vision/vis_outside.c.
 *
 * Invariants: a corner's `confirmed` reading changes only after the same reading held for
 * hold_s seconds and 3 frames; frames where the patch is hidden (a hand: coloured change,
 * or most of it changed) or the reading is unsure neither start nor end a run; a corner's
 * `side` names the reader's corner whose readings it takes.
 */
#include "app/record_signal.h"

#include <stdlib.h>
#include <string.h>

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
static void corner_init(rec_corner_t *c, int size, int side, int seat)
{
    memset(c, 0, sizeof *c);
    c->seat = seat;
    c->side = side & 3;
    corner_point(size, side, &c->cx, &c->cy);
}

void rec_signal_init(rec_signal_t *s, int size, int black_side)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->hold_s = 0.5;
    vis_outside_init(&s->vo, size, NULL);
    corner_init(&s->corner[1], size, black_side, 1);
    corner_init(&s->corner[2], size, black_side + 2, 2);
    /* the other diagonal: the seats' corners were the players sitting at the other two
     * sides (a camera beside a player, no calibration) */
    corner_init(&s->other[0], size, black_side + 1, 0);
    corner_init(&s->other[1], size, black_side + 3, 0);
}

/* A new reference look: every corner's run starts afresh. */
static void corner_reference(rec_corner_t *c)
{
    c->reading = c->confirmed = GO_EMPTY;
    c->frames = 0;
    c->spent = 0;
    c->since = 0;
}

void rec_signal_reference(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g)
{
    vis_outside_reference(&s->vo, img, g);
    for (int seat = 1; seat <= 2; seat++)
        corner_reference(&s->corner[seat]);
    for (int k = 0; k < 2; k++)
        corner_reference(&s->other[k]);
}

/* One frame's reading into corner c's run; 1 when its confirmed reading changed. */
static int corner_feed(rec_corner_t *c, double hold_s, const int *rd, double t)
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
    if (c->reading != c->confirmed && c->frames >= 3 && t - c->since >= hold_s) {
        c->confirmed = c->reading;
        c->confirmed_since = c->since;
        return 1;
    }
    return 0;
}

/* The other diagonal's corners become the seats': other[kb] Black's, the other White's;
 * the seats' corners become the other diagonal (Black's first). */
/* b and w become Black's and White's corners (the seats moved). */
static void seat_corners(rec_signal_t *s, rec_corner_t b, rec_corner_t w)
{
    s->corner[1] = b;
    s->corner[2] = w;
    s->corner[1].seat = 1;
    s->corner[2].seat = 2;
    s->seats_moved = 1;
    s->swaps++;
}

static void swap_seats(rec_signal_t *s, int kb)
{
    rec_corner_t b = s->other[kb], w = s->other[1 - kb];
    s->other[0] = s->corner[1];
    s->other[1] = s->corner[2];
    s->other[0].seat = s->other[1].seat = 0;
    seat_corners(s, b, w);
}

int rec_signal_feed(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                    const uint8_t *stones, int occluder, double t)
{
    int rd[4];
    unsigned sides = 1u << s->corner[1].side | 1u << s->corner[2].side;
    if (!s->seats_known)
        sides |= 1u << s->other[0].side | 1u << s->other[1].side;
    if (occluder || vis_outside_read(&s->vo, img, g, stones, sides, rd) != VIS_OK)
        return 0;
    int changed = 0;
    for (int seat = 1; seat <= 2; seat++)
        if (corner_feed(&s->corner[seat], s->hold_s, rd, t))
            changed |= 1 << (seat - 1);
    if (s->seats_known)
        return changed;
    if (s->corner[1].confirmed == GO_BLACK && s->corner[2].confirmed == GO_WHITE) {
        /* each his own colour: no double resignation, but the two end signals with the
         * seats the other way round on this diagonal (Black at the white stone) */
        seat_corners(s, s->corner[2], s->corner[1]);
        s->seats_known = 1;
        s->guessed = 0;
        s->swaps++;
        return changed | 3;
    }
    for (int k = 0; k < 2; k++)
        corner_feed(&s->other[k], s->hold_s, rd, t);
    int o[2];
    for (int k = 0; k < 2; k++) {
        rec_corner_t *c = &s->other[k];
        if (c->spent && c->confirmed != c->spent)
            c->spent = 0;
        o[k] = c->spent ? GO_EMPTY : c->confirmed;
    }
    int o0 = o[0], o1 = o[1];
    if (s->corner[1].confirmed != GO_EMPTY || s->corner[2].confirmed != GO_EMPTY)
        return changed;
    if (o0 != GO_EMPTY && o1 != GO_EMPTY && o0 != o1) {
        /* both end signals on the other diagonal: the players sit at the other two sides;
         * the white stone lies at Black's corner (the one colour pair that is no double
         * resignation). From now on those are the seats' corners. */
        swap_seats(s, o0 == GO_WHITE ? 0 : 1);
        s->seats_known = 1;
        s->guessed = 0;
        changed |= 3;
    } else if ((o0 != GO_EMPTY) != (o1 != GO_EMPTY) && s->to_move) {
        /* one signal there: the side to move's (his end signal comes first, and he
         * resigns on his turn), so he sits at that side */
        int k = o0 != GO_EMPTY ? 0 : 1;
        swap_seats(s, s->to_move == 1 ? k : 1 - k);
        s->guessed = 1;
        changed |= 3;
    }
    return changed;
}

void rec_signal_set_turn(rec_signal_t *s, int seat)
{
    s->to_move = seat == 1 || seat == 2 ? seat : 0;
}

int rec_signal_revert(rec_signal_t *s)
{
    if (!s->guessed)
        return 0;
    /* the corners before the swap are the other diagonal's now: other[0] was Black's */
    swap_seats(s, 0);
    for (int k = 0; k < 2; k++)
        s->other[k].spent = s->other[k].confirmed;
    s->guessed = 0;
    s->seats_moved = 0;
    return 1;
}

/* The reader's sides of the corners reading nothing (their references may be refreshed). */
static unsigned quiet_side(const rec_corner_t *c)
{
    return c->reading == GO_EMPTY && c->confirmed == GO_EMPTY ? 1u << c->side : 0;
}

void rec_signal_refresh(rec_signal_t *s, const cvb_image_t *img, const vis_geom_t *g,
                        const uint8_t *stones)
{
    unsigned sides = quiet_side(&s->corner[1]) | quiet_side(&s->corner[2]) |
                     quiet_side(&s->other[0]) | quiet_side(&s->other[1]);
    vis_outside_refresh(&s->vo, img, g, stones, sides);
}

int rec_signal_get(const rec_signal_t *s, int seat)
{
    return seat == 1 || seat == 2 ? s->corner[seat].confirmed : GO_EMPTY;
}

int rec_signal_near(const rec_signal_t *s, int seat, int x, int y, int d)
{
    if (seat != 1 && seat != 2)
        return 0;
    const rec_corner_t *c = &s->corner[seat];
    return abs(x - c->cx) <= d && abs(y - c->cy) <= d;
}

int rec_signal_black_side(const rec_signal_t *s)
{
    return s->corner[1].side;
}
