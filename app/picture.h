/* picture.h: the board as read and counted, as a picture for people (`count --picture`,
 * `score PHOTO --picture`): a clean diagram with the coordinates people use (A-T without
 * I, row 1 at the bottom), the stones, the dead stones crossed, each side's territory
 * marked (a filled square), the points to fill of a border left open (unsettled, nobody's)
 * ringed in blue, the points the reader was unsure of ringed in orange, the result above; beside it the photo with the grid as
 * found (vis_draw). Drawn with the bridge's own helpers (cvb_draw_line, cvb_draw_circle,
 * cvb_resize): no font library, the coordinates are stroked (picture.c's glyphs).
 *
 * Invariants: the diagram's geometry depends on the board size only (PIC_CELL per
 * line), so pictures of two counts compare point for point; the file is written the one
 * safe way (cli_write_image); nothing is decided here.
 */
#ifndef KIFUCAM_PICTURE_H
#define KIFUCAM_PICTURE_H

#include <stddef.h>
#include <stdint.h>

#include "app/photo.h"
#include "rules/go_board.h"
#include "rules/go_point.h"
#include "rules/go_score.h"

typedef struct picture_in {
    const go_board_t *board;         /* the position drawn (never NULL) */
    const go_score_t *score;         /* its count (dead, territory, result), or NULL: the
                                        reading only (a count refused) */
    const uint8_t *unsure;           /* GO_MAX_POINTS flags, y * size + x: ringed; or NULL */
    const photo_t *photo;            /* the photo and its grid, drawn beside; or NULL */
} picture_in_t;

/* Draw the picture and write it to path (PNG or JPEG from the extension). Returns 0, or
 * -1 with the reason in why (whylen bytes). */
int picture_write(const char *path, const picture_in_t *in, char *why, size_t whylen);

#endif
