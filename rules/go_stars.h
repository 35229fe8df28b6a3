/* go_stars.h: the star points (hoshi) printed on a board of each size. Header only, like
 * go_color.h: rules/ places handicap and zuozi stones on them, vision/ looks for them to
 * tell which lines of a board a picture shows, the pictures draw them.
 *
 * Invariants: a board under 7x7 has none; the star line is the 4th from each edge from
 * 12x12 up, the 3rd below (9x9: 3-3, 13x13 and 19x19: 4-4); an odd board has its centre;
 * from 15x15 up an odd board also has the four on the sides' middles (19x19: nine), below
 * it corners and centre only (9x9 and 13x13: five); the set is the same under the board's
 * 8 symmetries. Points are (x, y), 0-based, (0, 0) a corner.
 */
#ifndef KIFUCAM_GO_STARS_H
#define KIFUCAM_GO_STARS_H

/* The star line's index from each edge: 3 on boards from 12x12 up, 2 below. */
static inline int go_star_line(int size)
{
    return size > 11 ? 3 : 2;
}

/* 1 when (x, y) is a star point of a size x size board, else 0 (also off the board). */
static inline int go_is_star(int size, int x, int y)
{
    if (size < 7 || x < 0 || y < 0 || x >= size || y >= size)
        return 0;
    int t = go_star_line(size), m = size / 2, odd = size % 2;
    int ox = x == t || x == size - 1 - t || (odd && x == m);
    int oy = y == t || y == size - 1 - t || (odd && y == m);
    if (!ox || !oy)
        return 0;
    if (size < 15 && (x == m) != (y == m))
        return 0; /* corners and centre only */
    return 1;
}

#endif
