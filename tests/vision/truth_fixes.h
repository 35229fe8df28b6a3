/* truth_fixes.h: the shared sets' truths corrected where a photo plainly shows otherwise
 * (header only; for bench_vision and the golden tests, never for training).
 *
 * Every fix was found as a point where the shipped reader disagreed with the truth and is
 * kept only where the photo leaves no doubt. The roboflow-stones points (117 disagreements,
 * 2026-12-03) were first judged blind, a crop with the point marked and the reading and the
 * labels hidden, then checked with the labels' boxes drawn; gomrade_2_67's were looked at
 * with the reading shown; `python3 bench/truth_fixes.py` draws each
 * one from ../shared/data (the picture stays out of the repo: it would copy the sets). A
 * disagreement that could go either way stays as the set has it. Fixes go both ways for a
 * reader: a stone the labels missed can turn a photo read "exact" by luck into a wrong one
 * (4accab79 below). The sets themselves (../shared/data) are never edited.
 *
 * Invariants: a fix names its photo by the set's own id (imago/gomrade: the index's id;
 * roboflow-stones: the source photo's id, the part of the file name before "_jpg.rf."),
 * and says what the truth had there, so a fix that no longer meets the truth it corrects
 * (the set changed) is not applied and is counted apart.
 */
#ifndef KIFUCAM_TRUTH_FIXES_H
#define KIFUCAM_TRUTH_FIXES_H

#include <math.h>
#include <string.h>

#include "tests/vision/roboflow_util.h"
#include "vision/vis_internal.h"
#include "vision/vis_snapshot.h"

/* imago / gomrade: a point of the truth file (x from the left, y from the top, as the
 * file is written). */
typedef struct {
    const char *id;
    int x, y;
    go_color_t was, is;
    const char *why;
} vg_fix_t;

static const vg_fix_t VG_FIXES[] = {
    { "gomrade_2_67", 1, 6, GO_EMPTY, GO_WHITE,
      "a white stone on the 7th line from the top, 2nd from the left" },
    { "gomrade_2_67", 2, 6, GO_EMPTY, GO_WHITE,
      "a white stone beside it, 3rd from the left" },
    /* t2_t2_053 and t2_t2_054 (imago's skip=1 webcam frames, the same view of column 17):
     * found 2026-12-05 where the reader disagreed, then checked on the photo enlarged with
     * the grid's points drawn: the black stones of the 17th column stand level with the
     * white stones on rows 10 and 11 beside them and on row 12, with wood level with the
     * white on row 9 (a stone's near edge lies the same way below its point as the black
     * on row 8's does): rows 8, 10, 11, 12 from the top, where the truths have 8, 9, 12
     * (053, one black short: the frame after, 054, has 26 blacks) and 8, 9, 10, 12 */
    { "t2_t2_053", 16, 8, GO_BLACK, GO_EMPTY, "wood level with the white on row 9" },
    { "t2_t2_053", 16, 9, GO_EMPTY, GO_BLACK, "a black stone level with the white on row 10" },
    { "t2_t2_053", 16, 10, GO_EMPTY, GO_BLACK, "a black stone level with the white on row 11" },
    { "t2_t2_054", 16, 8, GO_BLACK, GO_EMPTY, "wood level with the white on row 9" },
    { "t2_t2_054", 16, 10, GO_EMPTY, GO_BLACK, "a black stone level with the white on row 11" },
};

/* roboflow-stones: a stone the labels miss, at (px, py) pixels of the 640x640 image; or,
 * cls RF_FIX_DUPLICATE, a box centred at (px, py) that labels a stone another box holds
 * already, dropped. */
enum { RF_FIX_DUPLICATE = -1 };
typedef struct {
    const char *source;
    double px, py;
    int cls; /* 0 black, 1 white, as the labels; RF_FIX_DUPLICATE */
    const char *why;
} rf_fix_t;

static const rf_fix_t RF_FIXES[] = {
    { "219eafa8165c45d3b0d0cfbeede669dc", 58.3, 192.9, 0, "a black stone with no box" },
    { "4accab79e0874663bc1a7c9c2da75039", 322.5, 591.8, 1, "a white stone with no box" },
    { "520286b90b7049a7af57c77d772a3405", 474.4, 382.8, 0, "a black stone with no box" },
    { "72d1d29427814fcfa144622d0a2cecca", 449.5, 260.8, 0, "a black stone with no box" },
    /* found 2026-12-05 in bench/stones_wrong.py's picture (the reading shown, not blind),
     * then checked with the boxes drawn: a black stone between two boxed ones, no box */
    { "a178df70fd5a40e984478d3f5c06b9c6", 574.4, 254.3, 0, "a black stone with no box" },
    /* found 2026-12-05 among the fold models' confident disagreements (a point labelled
     * empty read as a stone at 0.9 or more, 26 of them; the reading shown, not blind),
     * then checked with the boxes drawn and the photo enlarged: only these four show a
     * whole stone on the point with no box (the others are glare, a cloth, the picture's
     * edge, or a boxed stone pushed between two points) */
    { "9ed3d440c2f647ca884b745302afac93", 408.0, 45.0, 0, "a black stone with no box" },
    { "9ed3d440c2f647ca884b745302afac93", 208.0, 337.0, 0, "a black stone with no box" },
    { "9ed3d440c2f647ca884b745302afac93", 105.0, 397.0, 0, "a black stone with no box" },
    { "892d8567b275421ebc3b0e8b8cb8debd", 373.0, 555.0, 1, "a pale white stone with no box" },
    /* found 2026-12-06 among the held-out photos read wrong (fold 3; the reading shown,
     * not blind), where the fold's reader and finder both read a black stone surely; then
     * checked with the boxes drawn: the boxes either side of it are centred at x 478.5 and
     * 543.0 on its row, two spacings apart, and the whole black stone between them has
     * none */
    { "a791ff007b334b409c9a7b2c3653f13e", 510.5, 322.0, 0, "a black stone with no box" },
    /* found 2026-12-06 among the photos with two labels on one point (fold 2; the boxes
     * drawn, the reading shown), then checked on the photo enlarged without the boxes: a
     * white stone centred at about (242, 396) has a box there and a second, smaller one
     * centred 15 px down and left, over its lower left and the wood beside it; no other
     * stone lies under the second box */
    { "c06405a8320742cc8dad9fe98020f8ae", 231.0, 405.5, RF_FIX_DUPLICATE,
      "a second box on one white stone" },
};

/* Apply the fixes of photo id to truth t (size n, row-major). Returns how many were
 * applied; *stale (may be NULL) counts the fixes of id whose point no longer holds what
 * they say the truth had. */
static inline int vg_apply_fixes(const char *id, uint8_t *t, int n, int *stale)
{
    int done = 0;
    for (size_t i = 0; i < sizeof VG_FIXES / sizeof VG_FIXES[0]; i++) {
        const vg_fix_t *f = &VG_FIXES[i];
        if (strcmp(f->id, id) || f->x >= n || f->y >= n)
            continue;
        if (t[f->y * n + f->x] != f->was) {
            if (stale)
                (*stale)++;
            continue;
        }
        t[f->y * n + f->x] = (uint8_t)f->is;
        done++;
    }
    return done;
}

/* Add to b (nb boxes, room for max) the stones the labels of source miss, as boxes of the
 * photo's median size, and drop its duplicate boxes; a fix is stale (counted in *stale,
 * may be NULL) when a labelled box's centre lies within a third of a box of it (the labels
 * have it now), a duplicate's when none does (the box is gone); *applied (may be NULL)
 * counts those applied. img_w, img_h: the image's size. Returns the new count. */
static inline int rf_apply_fixes(const char *source, rf_box_t *b, int nb, int max, int img_w,
                                 int img_h, int *stale, int *applied)
{
    if (nb < 0 || img_w <= 0 || img_h <= 0)
        return nb;
    int any = 0; /* most photos have no fix: nothing to measure then */
    for (size_t i = 0; i < sizeof RF_FIXES / sizeof RF_FIXES[0]; i++)
        any |= !strcmp(RF_FIXES[i].source, source);
    if (!any)
        return nb;
    double w = 0.05, h = 0.05; /* the median box, or a 19x19's stone when there is none */
    if (nb > 0) {
        float ws[RF_MAX_BOXES], hs[RF_MAX_BOXES];
        int m = nb < RF_MAX_BOXES ? nb : RF_MAX_BOXES;
        for (int i = 0; i < m; i++) {
            ws[i] = (float)b[i].w;
            hs[i] = (float)b[i].h;
        }
        w = median_f(ws, m);
        h = median_f(hs, m);
    }
    for (size_t i = 0; i < sizeof RF_FIXES / sizeof RF_FIXES[0]; i++) {
        const rf_fix_t *f = &RF_FIXES[i];
        if (strcmp(f->source, source))
            continue;
        double cx = f->px / img_w, cy = f->py / img_h;
        int held = -1;
        for (int k = 0; k < nb && held < 0; k++)
            if (fabs(cx - b[k].cx) < w / 3 && fabs(cy - b[k].cy) < h / 3)
                held = k;
        if (f->cls == RF_FIX_DUPLICATE) {
            if (held < 0) {
                if (stale)
                    (*stale)++;
                continue;
            }
            memmove(&b[held], &b[held + 1], (size_t)(nb - held - 1) * sizeof *b);
            nb--;
            if (applied)
                (*applied)++;
            continue;
        }
        if (nb >= max)
            continue;
        if (held >= 0) {
            if (stale)
                (*stale)++;
            continue;
        }
        b[nb++] = (rf_box_t){ .cls = f->cls, .cx = cx, .cy = cy, .w = w, .h = h };
        if (applied)
            (*applied)++;
    }
    return nb;
}

#endif
