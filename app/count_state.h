/* count_state.h: one photo's count as people settle it: the reading (photo.c), their fixes
 * of it, the dead stones, the prisoners, counted under the rules (go_session). `kifucam
 * count PHOTO` makes one and prints it; `count PHOTO --serve` (count_serve.c) changes it
 * from the correction page, one function per change, each callable without HTTP
 * (tests/score/test_count_state.c):
 *
 *   count_state_fix        a point's colour set, or cycled empty -> black -> white ->
 *                          empty (a point still unsure: to empty first), as --fix P=C
 *   count_state_toggle     a stone's group dead <-> alive (go_session_toggle), as --dead
 *   count_state_corners    the photo read again with four corners, as --corners (photo_read,
 *                          the same code path), the board size kept, the fixes kept
 *                          (count_state_corners_size: at another size, a new board)
 *   count_state_prisoners  the stones each side captured (territory rules), as --prisoners
 *   count_state_accept     the SGF written (count_state_sgf), the state closed
 *
 * and every change counts again at once.
 *
 * Invariants:
 *  - the state is what `kifucam count PHOTO` gives with the same options: the corners
 *    given, the fixes (a fix equal to a sure reading is dropped, as it changes nothing),
 *    the marking, the prisoners; the count is go_session's, the text and JSON
 *    score_out.c's (count_state_print_text, count_state_json);
 *  - a point the reader was unsure of is never counted as empty unasked (go_reading.h):
 *    while some are left under GO_UNSURE_REFUSE the count is pending (no score, no
 *    session), and toggles and accept are refused (COUNT_EPENDING);
 *  - the marking after a change of the position: until someone toggled a group, the
 *    --dead given is applied again to the new position when it is auto (a new proposal);
 *    otherwise each stone that kept its colour keeps its mark, and a chain holding a dead
 *    stone is dead whole. A change that leaves the position as it was (the prisoners)
 *    keeps the marking exactly;
 *  - a refused change changes nothing; after accept nothing changes (COUNT_EDONE).
 */
#ifndef KIFUCAM_COUNT_STATE_H
#define KIFUCAM_COUNT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "app/photo.h"
#include "app/score_out.h"
#include "rules/go_reading.h"
#include "rules/go_rules.h"
#include "rules/go_score.h"
#include "rules/go_session.h"

/* Status codes (0 success, negative errors). */
enum {
    COUNT_OK = 0,
    COUNT_EINVAL = -1,    /* bad argument: a point off the board, a bad colour, a negative
                             number of prisoners */
    COUNT_ENOMEM = -2,    /* allocation failed; nothing changed */
    COUNT_EPENDING = -3,  /* points the reader was unsure of are left: nothing to mark or
                             accept until they are fixed */
    COUNT_ENOSTONE = -4,  /* a toggle on a point without a stone */
    COUNT_EREAD = -5,     /* the photo could not be read with those corners (said on
                             stderr under the command's name); nothing changed */
    COUNT_EIO = -6,       /* the SGF could not be written */
    COUNT_EDONE = -7      /* accepted already: the count no longer changes */
};
/* A short English description of a status code; never NULL. */
const char *count_strerror(int code);

/* count_state_fix's colour that cycles the point (see above). */
#define COUNT_CYCLE (-1)

/* What the count needs besides the photo, the fixes and the marking. */
typedef struct count_params {
    go_rules_t rules;           /* default: the chinese preset */
    int komi2;                  /* komi in half points; default the rules' for the
                                   handicap (go_rules_komi2): chinese 15 */
    int handicap;               /* handicap stones given: 0 (default) or 2..9 */
    int captures[3];            /* the stones each colour captured during the game
                                   (index GO_BLACK, GO_WHITE); default 0 */
    bool prisoners_given;       /* captures were said (--prisoners); default false */
    go_unsure_policy_t unsure;  /* unsure points no fix settles; default GO_UNSURE_REFUSE */
} count_params_t;

/* Fill *p with the defaults above. */
void count_params_defaults(count_params_t *p);

typedef struct count_state count_state_t;

/* A state on the photo *ph, read with popts (both taken over: *ph is zeroed and freed
 * with the state; popts is copied, its strings must outlive the state, and photo_read
 * runs again with it for count_state_corners), the fixes fx (NULL: none; copied) and the
 * marking dead (NULL: auto; copied; both for ph's board size). Counts at once: a pending
 * count (unsure points left) and a --dead that does not fit (count_state_dead_error) are
 * states too. cmd: the command's name for photo_read's messages (kept). Returns COUNT_OK
 * with *out (caller destroys), COUNT_EINVAL (a NULL argument, a fix off the board) or
 * COUNT_ENOMEM; on error *ph is still the caller's. */
int count_state_create(const char *cmd, photo_t *ph, const photo_opts_t *popts,
                       const count_params_t *par, const go_fixes_t *fx,
                       const go_dead_spec_t *dead, count_state_t **out);
/* Free the state and its photo. Does nothing if NULL. */
void count_state_destroy(count_state_t *st);

/* Set point p (GO_PT) to colour c (GO_EMPTY, GO_BLACK, GO_WHITE) or cycle it (COUNT_CYCLE),
 * and count again. The new colour in *now (may be NULL). COUNT_EINVAL, COUNT_EDONE. */
int count_state_fix(count_state_t *st, int p, int c, go_color_t *now);
/* Toggle the group of the stone at p dead or alive (go_session_toggle, by an arbiter) and
 * count again. Returns the stones changed (> 0), or COUNT_ENOSTONE, COUNT_EPENDING,
 * COUNT_EINVAL, COUNT_EDONE. */
int count_state_toggle(count_state_t *st, int p);
/* Read the photo again with these corners (image pixels; top-left, top-right,
 * bottom-right, bottom-left of the board as counted) at the current board size, keep the
 * fixes, count again. COUNT_EREAD (said on stderr; nothing changed), COUNT_EDONE,
 * COUNT_ENOMEM. */
int count_state_corners(count_state_t *st, const double corners[4][2]);
/* count_state_corners at another board size (9, 13 or 19; 0: the current one): a board
 * read at the wrong size (a window of a bigger board, a grid in doubt) read again whole.
 * A new size drops the fixes and the marking (they name the old board's points): the
 * proposal of --dead auto is made on the new board. COUNT_EINVAL for another size, and
 * count_state_corners' codes; on any error nothing changes. */
int count_state_corners_size(count_state_t *st, const double corners[4][2], int size);
/* The stones Black (b) and White (w) captured during the game; count again.
 * COUNT_EINVAL for a negative or huge number, COUNT_EDONE. */
int count_state_prisoners(count_state_t *st, int b, int w);
/* Write the SGF (count_state_sgf) to path, the one safe way (sgf_write_file), and close
 * the state. COUNT_EPENDING, COUNT_EDONE, COUNT_EIO (the state stays open), COUNT_ENOMEM. */
int count_state_accept(count_state_t *st, const char *path);

/* The count as an SGF record (*text malloc'd, caller frees): the root only, with SZ, RU,
 * KM (HA with a handicap), the position as AB/AW, the dead stones in KD[] (as the
 * station writes an agreed count: `kifucam score` on the file counts them), each side's
 * territory (empty points and the dead stones' points) in TB/TW, RE, and the count's text
 * in C. COUNT_EPENDING, COUNT_ENOMEM. */
int count_state_sgf(const count_state_t *st, char **text, size_t *len);

/* ---- reading the state (pointers valid until the next change) ---- */

/* 1 when unsure points are left (no count), else 0. */
int count_state_pending(const count_state_t *st);
/* The unsure points left: refused ones when pending, those counted as empty under
 * GO_UNSURE_EMPTY otherwise (GO_PT points, top row first). Never NULL. */
const go_point_t *count_state_unsure(const count_state_t *st, int *n);
/* The position counted (settled); when pending, the reading with the unsure points left
 * empty (for a picture). Never NULL. */
const go_board_t *count_state_board(const count_state_t *st);
/* The count, or NULL when pending. */
const go_score_t *count_state_score(const count_state_t *st);
/* The session (the marking, the proposal), or NULL when pending. */
const go_session_t *count_state_session(const count_state_t *st);
/* The fixes in force. Never NULL. */
const go_fixes_t *count_state_fixes(const count_state_t *st);
/* The reading of the photo (before fixes). Never NULL. */
const go_reading_t *count_state_reading(const count_state_t *st);
/* The photo as read (the image, the grid). Never NULL. */
const photo_t *count_state_photo(const count_state_t *st);
/* The photo's path (photo_opts_t.image). Never NULL. */
const char *count_state_photo_path(const count_state_t *st);
/* The parameters counted with (the prisoners as last set). Never NULL. */
const count_params_t *count_state_params(const count_state_t *st);
/* Someone toggled a group (the marking is people's, not the --dead given). */
bool count_state_marked(const count_state_t *st);
/* Where the marking comes from: "people" (a group toggled), "proposal" (--dead auto) or
 * "given" (--dead none, a list, calls on the proposal). Never NULL. */
const char *count_state_marking(const count_state_t *st);
/* Accepted: the SGF was written. */
bool count_state_done(const count_state_t *st);
/* The index of the --dead call that did not fit the position when the marking was last
 * applied (go_session_apply_dead; the marking is then the proposal), or -1. */
int count_state_dead_error(const count_state_t *st);
/* The corners last given to count_state_corners as --corners text ("x1,y1;...;x4,y4"),
 * or the --corners of popts, or NULL (board finding). */
const char *count_state_corners_text(const count_state_t *st);

/* The score report for score_out.c (what `count` prints). COUNT_EPENDING when pending. */
int count_state_report(const count_state_t *st, score_report_t *out);
/* Print what `kifucam count` prints for this count (text): the result line, the
 * breakdown, the photo, the fixes, the unsure points emptied, the prisoners; picture:
 * the --picture path to name, or NULL. COUNT_EPENDING when pending (nothing printed). */
int count_state_print_text(const count_state_t *st, FILE *f, const char *picture);
/* The JSON `kifucam count --format json` prints (caller decrefs), or NULL when pending or
 * out of memory. picture as above. */
json_t *count_state_json(const count_state_t *st, const char *picture);

#endif
