/* golden_util.h: reading the shared photo sets (index.tsv, truth files) and scoring a
 * snapshot against a truth, for the vision golden tests and bench_vision (header only).
 * Truth files: N lines of N tokens, '.' empty, 'B' black, 'W' white. */
#ifndef KIFUCAM_GOLDEN_UTIL_H
#define KIFUCAM_GOLDEN_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis.h"
#include "vision/vis_internal.h"
#include "vision/vis_snapshot.h"

/* Read a truth file into t (VIS_MAX_POINTS entries, row-major, go_color_t; every entry is
 * written, those past the board GO_EMPTY). 0 on success. */
static inline int vg_read_truth(const char *path, uint8_t *t, int *size)
{
    memset(t, GO_EMPTY, VIS_MAX_POINTS);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c, rows = 0, cols = 0, maxcols = 0;
    while ((c = fgetc(f)) != EOF && n < VIS_MAX_POINTS) {
        if (c == '.' || c == 'B' || c == 'W') {
            t[n++] = c == '.' ? GO_EMPTY : c == 'B' ? GO_BLACK : GO_WHITE;
            cols++;
        } else if (c == '\n') {
            if (cols) {
                rows++;
                if (cols > maxcols)
                    maxcols = cols;
            }
            cols = 0;
        }
    }
    if (cols)
        rows++;
    fclose(f);
    if (rows < 2 || rows * rows != n)
        return -1;
    *size = rows;
    return 0;
}

/* The largest distance of a corner of g from the true corners c (TL, TR, BR, BL, pixels),
 * in the truth's mean grid spacing (a board of size points), best of the 8 orders of the
 * corners (a board found in a picture has no up). */
static inline double vg_grid_err(const vis_geom_t *g, double c[4][2], int size)
{
    double per = 0;
    for (int k = 0; k < 4; k++)
        per += hypot(c[k][0] - c[(k + 1) % 4][0], c[k][1] - c[(k + 1) % 4][1]);
    double sp = per / 4 / (size - 1), best = 1e9;
    for (int rot = 0; rot < 4; rot++)
        for (int flip = 0; flip < 2; flip++) {
            double e = 0;
            for (int k = 0; k < 4; k++) {
                int q = flip ? (4 - k + rot) % 4 : (k + rot) % 4;
                double d = hypot(g->corners[k][0] - c[q][0], g->corners[k][1] - c[q][1]);
                e = d > e ? d : e;
            }
            best = e < best ? e : best;
        }
    return best / sp;
}

/* Points read wrongly (occluded counts as wrong), the minimum over the 8 symmetries when
 * any_symmetry, else direct. A size mismatch counts every point. */
static inline int vg_mistakes(const vis_snapshot_t *s, const uint8_t *truth, int n,
                              int any_symmetry)
{
    if (s->size != n)
        return n * n;
    int best = n * n;
    for (int sym = 0; sym < (any_symmetry ? 8 : 1); sym++) {
        int m = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int a, b;
                vis_sym_src(sym, n, x, y, &a, &b); /* the board under symmetry sym */
                int k = b * n + a;
                /* truth[0..n*n) is written by every caller (bench_vision's footage loop
                 * checks its count == size * size, which the analyzer loses track of) */
                // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
                if (s->occluded[k] || s->color[k] != truth[y * n + x])
                    m++;
            }
        if (m < best)
            best = m;
    }
    return best;
}

/* One row of a set's index.tsv. */
typedef struct {
    char id[128], image[256], truth[256], corners[256];
    int has_corners, corners_ok, skip;
} vg_entry_t;

/* Read DIR/index.tsv (columns found by the header's names). Returns the count (at most
 * max) or -1 when the file cannot be read. */
static inline int vg_read_index(const char *dir, vg_entry_t *e, int max)
{
    char path[1024], line[2048];
    if (snprintf(path, sizeof path, "%s/index.tsv", dir) >= (int)sizeof path)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int col_id = -1, col_img = -1, col_tr = -1, col_co = -1, col_ok = -1, col_skip = -1;
    int n = 0, header = 1;
    while (fgets(line, sizeof line, f) && n < max) {
        line[strcspn(line, "\r\n")] = 0;
        char *save = NULL, *tok;
        int c = 0;
        vg_entry_t x;
        memset(&x, 0, sizeof x);
        for (tok = strtok_r(line, "\t", &save); tok; tok = strtok_r(NULL, "\t", &save), c++) {
            if (header) {
                if (!strcmp(tok, "id")) col_id = c;
                if (!strcmp(tok, "image")) col_img = c;
                if (!strcmp(tok, "truth")) col_tr = c;
                if (!strcmp(tok, "corners")) col_co = c;
                if (!strcmp(tok, "corners_ok")) col_ok = c;
                if (!strcmp(tok, "skip")) col_skip = c;
                continue;
            }
            if (c == col_id) snprintf(x.id, sizeof x.id, "%s", tok);
            if (c == col_img && snprintf(x.image, sizeof x.image, "%s/%s", dir, tok) >= (int)sizeof x.image)
                x.image[0] = 0;
            if (c == col_tr && snprintf(x.truth, sizeof x.truth, "%s/%s", dir, tok) >= (int)sizeof x.truth)
                x.truth[0] = 0;
            if (c == col_co) {
                snprintf(x.corners, sizeof x.corners, "%s", tok);
                x.has_corners = 1;
            }
            if (c == col_ok) x.corners_ok = atoi(tok);
            if (c == col_skip) x.skip = atoi(tok);
        }
        if (header) {
            header = 0;
            continue;
        }
        if (x.id[0] && x.image[0] && x.truth[0])
            e[n++] = x;
    }
    fclose(f);
    return n;
}

/* Parse "x1,y1;x2,y2;x3,y3;x4,y4". 0 on success. */
static inline int vg_parse_corners(const char *s, double c[4][2])
{
    return sscanf(s, "%lf,%lf;%lf,%lf;%lf,%lf;%lf,%lf", &c[0][0], &c[0][1], &c[1][0],
                  &c[1][1], &c[2][0], &c[2][1], &c[3][0], &c[3][1]) == 8 ? 0 : -1;
}

/* Held out of tuning: every 4th imago t3 frame and two gomrade stills. */
static inline int vg_held_out(const char *id)
{
    static const char *ids[] = { "t3_t3_000", "t3_t3_004", "t3_t3_008", "t3_t3_050",
                                 "gomrade_4_28", "gomrade_testing_sequence_6" };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (!strcmp(id, ids[i]))
            return 1;
    return 0;
}

#endif
