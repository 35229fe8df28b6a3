/* roboflow_util.h: reading the two Roboflow photo sets of ../shared/data/photos (header
 * only, for bench_vision and the vision tests).
 *
 * A set is SPLIT/images/NAME.jpg with SPLIT/labels/NAME.txt, SPLIT one of train, valid,
 * test (Roboflow's own split, which says nothing of ours). A label line is YOLO's
 * "class cx cy w h", fractions of the stored image: roboflow-stones class 0 black, 1
 * white, one line per stone; roboflow-corners class 0, four boxes around the grid's corner
 * intersections. NAME is SOURCE_jpg.rf.HASH: the augmented copies of one source photo
 * share SOURCE, and our folds (train/folds.tsv, rf_fold) split by SOURCE so that copies of
 * one photo never sit on both sides of a held-out split.
 */
#ifndef KIFUCAM_ROBOFLOW_UTIL_H
#define KIFUCAM_ROBOFLOW_UTIL_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vis.h"

#define RF_MAX_BOXES 512

typedef struct {
    char name[160];    /* file name without the extension */
    char source[96];   /* the source photo's id (the part before "_jpg.rf.") */
    char image[1400];  /* path of the image */
    char label[1400];  /* path of the label file */
} rf_entry_t;

typedef struct {
    int cls;
    double cx, cy, w, h; /* fractions of the image */
} rf_box_t;

static int rf_cmp_entry(const void *a, const void *b)
{
    return strcmp(((const rf_entry_t *)a)->name, ((const rf_entry_t *)b)->name);
}

/* List DIR/{train,valid,test}/images/\*.jpg (sorted by name) into e (at most max). Returns
 * the count, or -1 when DIR holds no split at all. */
static inline int rf_list(const char *dir, rf_entry_t *e, int max)
{
    static const char *splits[3] = { "train", "valid", "test" };
    int n = 0, any = 0;
    for (int s = 0; s < 3; s++) {
        char path[1100];
        if (snprintf(path, sizeof path, "%s/%s/images", dir, splits[s]) >= (int)sizeof path)
            continue;
        DIR *d = opendir(path);
        if (!d)
            continue;
        any = 1;
        struct dirent *de;
        while ((de = readdir(d)) && n < max) {
            size_t len = strlen(de->d_name);
            if (len < 5 || len - 4 >= sizeof e[n].name || strcmp(de->d_name + len - 4, ".jpg"))
                continue;
            rf_entry_t *x = &e[n];
            memcpy(x->name, de->d_name, len - 4);
            x->name[len - 4] = 0;
            const char *cut = strstr(x->name, "_jpg.rf.");
            size_t sl = cut ? (size_t)(cut - x->name) : strlen(x->name);
            if (sl >= sizeof x->source)
                sl = sizeof x->source - 1;
            memcpy(x->source, x->name, sl);
            x->source[sl] = 0;
            if (snprintf(x->image, sizeof x->image, "%s/%s/images/%s", dir, splits[s],
                         de->d_name) >= (int)sizeof x->image ||
                snprintf(x->label, sizeof x->label, "%s/%s/labels/%s.txt", dir, splits[s],
                         x->name) >= (int)sizeof x->label)
                continue;
            n++;
        }
        closedir(d);
    }
    if (!any)
        return -1;
    qsort(e, (size_t)n, sizeof *e, rf_cmp_entry);
    return n;
}

/* Read a label file into b (at most max boxes). Returns the count, -1 when unreadable. */
static inline int rf_read_boxes(const char *path, rf_box_t *b, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0;
    char line[256];
    while (fgets(line, sizeof line, f) && n < max) {
        rf_box_t x = { 0 };
        /* "class cx cy w h", the class a whole number (YOLO labels) */
        char *p = line, *end;
        long cls = strtol(p, &end, 10);
        if (end == p)
            continue;
        x.cls = (int)cls;
        double *v[4] = { &x.cx, &x.cy, &x.w, &x.h };
        int got = 0;
        for (; got < 4; got++) {
            p = end;
            *v[got] = strtod(p, &end);
            if (end == p)
                break;
        }
        if (got == 4)
            b[n++] = x;
    }
    fclose(f);
    return n;
}

/* The fold (0..) of a source photo of a set in FOLDS (train/folds.tsv: lines
 * "set<TAB>source<TAB>fold"); -1 when it is not listed or the file is unreadable. */
static inline int rf_fold(const char *folds, const char *set, const char *source)
{
    FILE *f = fopen(folds, "r");
    if (!f)
        return -1;
    char line[512], s[128], src[128];
    int fold = -1, k;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%127s %127s", s, src) == 2 && !strcmp(s, set) && !strcmp(src, source)) {
            /* the third field, the fold */
            const char *t = strrchr(line, '\t');
            char *end;
            k = t ? (int)strtol(t + 1, &end, 10) : -1;
            fold = t && end != t + 1 ? k : -1;
            break;
        }
    fclose(f);
    return fold;
}

/* roboflow-corners: the four boxes b (pixels of a w x h image) as corners c, in order
 * around their centroid. */
static inline void rf_corners_of(const rf_box_t *b, int w, int h, double c[4][2])
{
    double mx = 0, my = 0, ang[4];
    for (int k = 0; k < 4; k++) {
        c[k][0] = b[k].cx * w;
        c[k][1] = b[k].cy * h;
        mx += c[k][0] / 4;
        my += c[k][1] / 4;
    }
    for (int k = 0; k < 4; k++)
        ang[k] = atan2(c[k][1] - my, c[k][0] - mx);
    for (int k = 1; k < 4; k++)
        for (int j = k; j > 0 && ang[j] < ang[j - 1]; j--) {
            double t = ang[j], tx = c[j][0], ty = c[j][1];
            ang[j] = ang[j - 1];
            c[j][0] = c[j - 1][0];
            c[j][1] = c[j - 1][1];
            ang[j - 1] = t;
            c[j - 1][0] = tx;
            c[j - 1][1] = ty;
        }
}

/* The largest distance of a corner of the 19x19 grid g from the labelled corners c (in
 * order, rf_corners_of), each in the spacing the labels give beside it (the two sides at
 * that corner over 18), best of the 8 orders. */
static inline double rf_corners_err(const vis_geom_t *g, double c[4][2])
{
    double sp[4], err = 1e9;
    for (int k = 0; k < 4; k++) {
        const double *p = c[k], *a = c[(k + 1) % 4], *q = c[(k + 3) % 4];
        sp[k] = 0.5 * (hypot(a[0] - p[0], a[1] - p[1]) + hypot(q[0] - p[0], q[1] - p[1])) / 18;
    }
    for (int rot = 0; rot < 4; rot++)
        for (int flip = 0; flip < 2; flip++) {
            double m = 0;
            for (int k = 0; k < 4; k++) {
                int q = flip ? (4 - k + rot) % 4 : (k + rot) % 4;
                double d = hypot(g->corners[k][0] - c[q][0], g->corners[k][1] - c[q][1]) / sp[q];
                m = d > m ? d : m;
            }
            err = m < err ? m : err;
        }
    return err;
}

#endif
