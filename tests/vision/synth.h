/* synth.h: draws a synthetic photo of a Go board in plain C for the vision tests (header
 * only): a table, a wooden board under any perspective (given by its four corner
 * intersections), grid lines, star points (on request), stones with a soft shadow, and
 * noise. */
#ifndef KIFUCAM_SYNTH_H
#define KIFUCAM_SYNTH_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"
#include "vision/cv_bridge.h"
#include "vision/vis.h"
#include "vision/vis_homog.h"

typedef struct {
    int w, h, size;
    double corners[4][2];       /* TL, TR, BR, BL corner intersections in pixels */
    const uint8_t *stones;      /* size*size go_color_t, or NULL */
    uint8_t table[3], board[3]; /* BGR */
    int noise;                  /* +- amplitude of uniform noise */
    double rim;                 /* how far the wood reaches beyond the edge lines, in
                                   lines (synth_defaults: 0.75) */
    int light_lines;            /* 1: lines lighter than the wood (white lines on dark
                                   wood); 0 (synth_defaults): darker */
    int stripes;                /* 1: the table left of the board striped along its
                                   columns at half its spacing, three columns wide (a
                                   bamboo table's grain, in line with the board); 0
                                   (synth_defaults): none */
    int stars;                  /* 1: the size's star points (rules/go_stars.h), dots of
                                   0.12 of a line's spacing in radius; 0 (synth_defaults):
                                   none */
    unsigned seed;
} synth_t;

static inline void synth_defaults(synth_t *s, int w, int h, int size)
{
    memset(s, 0, sizeof *s);
    s->w = w;
    s->h = h;
    s->size = size;
    double m = 0.15 * w, n = size - 1;
    (void)n;
    double c[4][2] = { { m + 0.1 * w, 0.12 * h }, { w - m - 0.08 * w, 0.1 * h },
                       { w - m * 0.6, 0.9 * h }, { m * 0.7, 0.88 * h } };
    memcpy(s->corners, c, sizeof c);
    uint8_t t[3] = { 70, 60, 50 }, b[3] = { 90, 170, 215 };
    memcpy(s->table, t, 3);
    memcpy(s->board, b, 3);
    s->noise = 6;
    s->rim = 0.75;
    s->seed = 1;
}

/* s's corners for a board seen square-on: its corner point (0, 0) at (x0, y0), a line
 * every dx pixels across and dy down (corners may lie beyond the picture: a board it cuts). */
static inline void synth_square_on(synth_t *s, double x0, double y0, double dx, double dy)
{
    double n = s->size - 1;
    double c[4][2] = { { x0, y0 }, { x0 + n * dx, y0 }, { x0 + n * dx, y0 + n * dy },
                       { x0, y0 + n * dy } };
    memcpy(s->corners, c, sizeof c);
}

static inline unsigned synth_rand(unsigned *st)
{
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fff;
}

/* Render into *img (allocated here; caller frees with cvb_image_free). 0 on success. */
static inline int synth_render(const synth_t *s, cvb_image_t *img)
{
    int S = s->size;
    double n = S - 1, src[8] = { 0, 0, n, 0, n, n, 0, n }, dst[8], H[9], Hi[9];
    for (int k = 0; k < 4; k++) {
        dst[2 * k] = s->corners[k][0];
        dst[2 * k + 1] = s->corners[k][1];
    }
    if (vis_homog_fit(4, src, dst, H) || vis_homog_invert(H, Hi))
        return -1;
    if (cvb_image_alloc(img, s->w, s->h, 3))
        return -1;
    unsigned st = s->seed;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            double bx, by;
            double col[3] = { s->table[0], s->table[1], s->table[2] };
            if (!vis_homog_apply(Hi, x + 0.5, y + 0.5, &bx, &by) && bx > -s->rim &&
                by > -s->rim && bx < n + s->rim && by < n + s->rim) {
                /* pixel size in board units, for line width */
                double px, py;
                vis_homog_apply(Hi, x + 1.5, y + 0.5, &px, &py);
                double pu = hypot(px - bx, py - by);
                double lw = pu * 0.8 > 0.03 ? pu * 0.8 : 0.03;
                for (int c = 0; c < 3; c++)
                    col[c] = s->board[c] * (0.92 + 0.08 * sin(bx * 3.1 + by * 0.4));
                double fx = bx - floor(bx + 0.5), fy = by - floor(by + 0.5);
                int ingrid = bx > -lw && bx < n + lw && by > -lw && by < n + lw;
                int onl = ingrid && (fabs(fx) < lw || fabs(fy) < lw);
                if (onl)
                    for (int c = 0; c < 3; c++)
                        col[c] = s->light_lines ? col[c] + 0.75 * (235 - col[c]) : col[c] * 0.25;
                int ix = (int)floor(bx + 0.5), iy = (int)floor(by + 0.5);
                if (s->stars && go_is_star(S, ix, iy) && hypot(fx, fy) < 0.12)
                    for (int c = 0; c < 3; c++)
                        col[c] = s->light_lines ? col[c] + 0.75 * (235 - col[c]) : col[c] * 0.25;
                if (s->stones && ix >= 0 && iy >= 0 && ix < S && iy < S) {
                    int v = s->stones[iy * S + ix];
                    double d = hypot(bx - ix, by - iy);
                    double ds = hypot(bx - ix - 0.06, by - iy - 0.06);
                    if (v && d < 0.47) {
                        double shade = 1.0 - 0.25 * d;
                        for (int c = 0; c < 3; c++)
                            col[c] = v == GO_BLACK ? 28 + 40 * (1 - d) * (d < 0.12)
                                                    : 238 * shade;
                    } else if (v && ds < 0.5) {
                        for (int c = 0; c < 3; c++)
                            col[c] *= 0.8;
                    }
                }
            }
            if (s->stripes && !vis_homog_apply(Hi, x + 0.5, y + 0.5, &bx, &by) &&
                !(bx > -s->rim && by > -s->rim && bx < n + s->rim && by < n + s->rim)) {
                double px, py; /* the table's grain */
                vis_homog_apply(Hi, x + 1.5, y + 0.5, &px, &py);
                double pu = hypot(px - bx, py - by), lw = pu * 0.8 > 0.03 ? pu * 0.8 : 0.03;
                if (bx < 0 && bx > -3 && fabs(2 * bx - floor(2 * bx + 0.5)) < 2 * lw)
                    for (int c = 0; c < 3; c++)
                        col[c] *= 0.55;
            }
            uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
            for (int c = 0; c < 3; c++) {
                int v = (int)col[c];
                if (s->noise)
                    v += (int)(synth_rand(&st) % (2 * s->noise + 1)) - s->noise;
                p[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    return 0;
}

/* A photo of a page that is no board (issue 22, defect 7): paper with a soft light fall-off,
 * rows of text at a steady line pitch (text 1: OpenCV's Hershey font, words of random
 * letters; text 0: words as dark bars, as a page seen from afar), margins and short last
 * lines, a little noise. The line pitch, the words and the paper come from the seed. */
static inline int synth_page(int w, int h, int text, unsigned seed, cvb_image_t *img)
{
    unsigned st = seed * 2654435761u + 7u;
    if (cvb_image_alloc(img, w, h, 3))
        return -1;
    int pv = 215 + (int)(synth_rand(&st) % 30);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = (x - 0.4 * w) / w, dy = (y - 0.45 * h) / h;
            int v = pv - (int)(40 * (dx * dx + dy * dy));
            uint8_t *q = img->data + (size_t)y * img->stride + (size_t)x * 3;
            q[0] = (uint8_t)(v - 12);
            q[1] = (uint8_t)(v - 4);
            q[2] = (uint8_t)v;
        }
    double scale = 0.6 + (synth_rand(&st) % 50) / 100.0;   /* 13 to 24 px letters */
    int pitch = (int)(22 * scale * (1.5 + (synth_rand(&st) % 60) / 100.0));
    int left = w / 12 + (int)(synth_rand(&st) % (unsigned)(w / 12));
    int right = w - w / 12;
    int ink = 20 + (int)(synth_rand(&st) % 50);
    for (int y = h / 10 + pitch; y < h - h / 12; y += pitch) {
        if (synth_rand(&st) % 12 == 0)
            continue;   /* a blank line between paragraphs */
        int end = synth_rand(&st) % 6 == 0 ? left + (right - left) / 3 : right;
        int x = left;
        while (x < end) {
            int nl = 2 + (int)(synth_rand(&st) % 8);
            int ww = (int)(nl * 12 * scale);
            if (x + ww > end)
                break;
            if (text) {
                char word[12];
                for (int i = 0; i < nl; i++)
                    word[i] = (char)('a' + synth_rand(&st) % 26);
                word[nl] = '\0';
                if (cvb_draw_text(img, word, x, y, scale, ink, ink, ink + 10, scale > 0.9 ? 2 : 1))
                    return -1;
            } else {
                for (int yy = y - (int)(14 * scale); yy < y; yy++)
                    for (int xx = x; xx < x + ww; xx++) {
                        uint8_t *q = img->data + (size_t)yy * img->stride + (size_t)xx * 3;
                        q[0] = q[1] = (uint8_t)ink;
                        q[2] = (uint8_t)(ink + 10);
                    }
            }
            x += ww + (int)(8 * scale) + (int)(synth_rand(&st) % 6);
        }
    }
    for (int y = 0; y < h; y++)
        for (int i = 0; i < w * 3; i++) {
            uint8_t *q = img->data + (size_t)y * img->stride + (size_t)i;
            int v = *q + (int)(synth_rand(&st) % 9) - 4;
            *q = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    return 0;
}

#endif
