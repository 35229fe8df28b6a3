/* go_point.h: points as people and files write them, and the calls people make on them
 * at the count (which stones are dead).
 *
 * Two forms, one parser (INTERFACE.md: every option that takes a point takes both):
 *  - SGF letters: two lowercase letters, column then row, "aa" the top-left corner;
 *  - the human form, as the board's edge is lettered: a column letter A..Z skipping I
 *    (A-T on 19x19), then the row number, row 1 at the BOTTOM; case-insensitive. "Q16"
 *    is SGF "pd" on 19x19, "D4" is "dp".
 * A text is one form or the other, never a mix: letters only is SGF, a letter and digits
 * is human. SGF's pass ("tt" on boards up to 19, "") is no point here.
 *
 * Invariants: go_point_parse(size, go_point_human(size, p)) == p and likewise for the SGF
 * letters, for every point p of a size x size board; nothing here reads or writes a board.
 */
#ifndef KIFUCAM_GO_POINT_H
#define KIFUCAM_GO_POINT_H

#include <stddef.h>
#include <stdint.h>

#include "rules/go_board.h"

/* The most points a board holds (25x25). */
#define GO_MAX_POINTS (GO_MAX_SIZE * GO_MAX_SIZE)

/* Parse the n bytes at s (no spaces) as a point of a size x size board, either form.
 * Writes *p only on success. Returns GO_OK, GO_EPARSE when the text is neither form,
 * GO_EINVAL when it names no point of this board ("T20" or "I5" on 19x19, "tt") or an
 * argument is bad. */
int go_point_parse(int size, const char *s, int n, int *p);

/* The items of a comma-separated list, one per call, from *pos (0 at first): the next
 * item, white space trimmed off both ends, at *item for *len bytes (0: an empty item,
 * "dd,,pq") and *off bytes into text; *pos moves past it. Returns 1 for an item, 0 when
 * the list is done. */
int go_list_next(const char *text, int *pos, const char **item, int *len, int *off);

/* Write point p of a size x size board in the human form ("Q16") into out[4]; a pass or
 * a point off the board writes "" (empty string). */
void go_point_human(int size, int p, char out[4]);

/* --dead as people give it (score, count): auto (the station's proposal), none, a list
 * of points (each marks its whole chain dead), or calls relative to the proposal:
 * "+K10" marks the chain at K10 dead, "-C3" brings the chain at C3 back to life. */
typedef enum {
    GO_DEAD_AUTO = 0,   /* the proposal as it is */
    GO_DEAD_NONE,       /* no stone dead */
    GO_DEAD_LIST,       /* exactly the chains at point[] */
    GO_DEAD_EDIT        /* the proposal, then each call in order (sign[]) */
} go_dead_mode_t;

typedef struct go_dead_spec {
    go_dead_mode_t mode;
    int n;                               /* calls in point[] / sign[] */
    go_point_t point[GO_MAX_POINTS];
    int8_t sign[GO_MAX_POINTS];          /* +1 dead, -1 alive (LIST: all +1) */
    int off[GO_MAX_POINTS], len[GO_MAX_POINTS];   /* each call's bytes in the text */
} go_dead_spec_t;

/* Parse text ("auto", "none", "dd,Q16", "+K10,-C3"; items separated by commas, spaces
 * around them ignored; an empty item is skipped) for a size x size board. A list and
 * signed calls may not be mixed. Writes *out only on success; on GO_EPARSE / GO_EINVAL
 * the offending item's bytes are text[*bad_off .. *bad_off + *bad_len) (bad_off and
 * bad_len may be NULL; *bad_len is 0 when the text holds no item at all). Returns GO_OK, GO_EPARSE (an item that is not a point, a mix of
 * list and calls, an empty list), GO_EINVAL (a point off this board, too many items). */
int go_dead_spec_parse(int size, const char *text, go_dead_spec_t *out, int *bad_off,
                       int *bad_len);

/* The dead mask (GO_CELLS bytes, 1 = dead) the spec gives on board b, starting from
 * proposal (GO_CELLS bytes; read for AUTO and EDIT, may be NULL for NONE and LIST).
 * Writes mask only on success. Returns GO_OK, or GO_EINVAL with *bad (may be NULL) the
 * index of the call at fault: no stone at its point, "+" on stones already dead, "-" on
 * stones not dead. */
int go_dead_spec_apply(const go_dead_spec_t *spec, const go_board_t *b,
                       const uint8_t *proposal, uint8_t *mask, int *bad);

#endif
