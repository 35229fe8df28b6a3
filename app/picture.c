/* picture.c: the count's picture (see picture.h).
 *
 * Layout, in pixels of PIC_CELL per line: a header row with the result, then the
 * diagram (board lines, coordinates on all four sides), and to its right, at the
 * diagram's height, the photo with the grid as found. Glyphs are polylines on a 4 x 6
 * grid ("06 20 46|13 33" is A: digit pairs x y, strokes separated by '|'), drawn with
 * cvb_draw_line at PIC_CELL / 16 pixels a unit.
 *
 * Invariants: every coordinate is computed from the board size and PIC_CELL alone; all
 * drawing stays inside the canvas (cv::line clips); the canvas and every temporary image
 * are freed on every path.
 */
#include "app/picture.h"

#include <stdio.h>
#include <string.h>

#include "app/cli.h"
#include "rules/go_stars.h"
#include "vision/cv_bridge.h"
#include "vision/vis.h"

/* Pixels between two lines of the diagram: a 19x19 board is 576 px of lines. */
#define PIC_CELL 32
/* The margin around the lines, in cells: room for the edge stones and the coordinates. */
#define PIC_MARGIN_CELLS 1.5
/* The space between the diagram and the photo, and above the diagram for the result. */
#define PIC_GAP 16
#define PIC_HEADER PIC_CELL
/* Sizes relative to PIC_CELL: stone radius, the unsure ring, the territory square's half
 * side, the cross's half size. */
#define PIC_STONE_R 0.47
#define PIC_RING_R 0.62
#define PIC_TERR_H 0.16
#define PIC_CROSS_H 0.30
#define PIC_FILL_R 0.18   /* the ring on a point to fill of an unsettled border, in cells */

/* Colours, BGR. */
static const int col_wood[3] = { 110, 180, 225 };
static const int col_line[3] = { 40, 40, 40 };
static const int col_black[3] = { 25, 25, 25 };
static const int col_white[3] = { 240, 240, 240 };
static const int col_outline[3] = { 0, 0, 0 };
static const int col_dead[3] = { 30, 30, 220 };     /* red: crossed */
static const int col_unsure[3] = { 0, 140, 255 };   /* orange: ringed */
static const int col_fill[3] = { 200, 90, 30 };     /* blue: a point to fill (unsettled) */
static const int col_page[3] = { 250, 250, 250 };
static const int col_text[3] = { 30, 30, 30 };

/* The glyphs the picture writes: columns, rows, results. */
static const struct {
    char c;
    const char *strokes;
} glyphs[] = {
    { 'A', "06 20 46|13 33" }, { 'B', "06 00 30 41 42 33 03|33 44 45 36 06" },
    { 'C', "41 30 10 01 05 16 36 45" }, { 'D', "06 00 30 41 45 36 06" },
    { 'E', "40 00 06 46|03 33" }, { 'F', "40 00 06|03 33" },
    { 'G', "41 30 10 01 05 16 36 45 43 23" }, { 'H', "00 06|40 46|03 43" },
    { 'J', "40 45 36 16 05" }, { 'K', "00 06|40 03 46" }, { 'L', "00 06 46" },
    { 'M', "06 00 23 40 46" }, { 'N', "06 00 46 40" }, { 'O', "10 30 41 45 36 16 05 01 10" },
    { 'P', "06 00 30 41 42 33 03" }, { 'Q', "10 30 41 45 36 16 05 01 10|24 46" },
    { 'R', "06 00 30 41 42 33 03|23 46" }, { 'S', "41 30 10 01 02 13 33 44 45 36 16 05" },
    { 'T', "00 40|20 26" }, { 'U', "00 05 16 36 45 40" }, { 'V', "00 26 40" },
    { 'W', "00 16 23 36 40" }, { 'X', "00 46|40 06" }, { 'Y', "00 23 40|23 26" },
    { 'Z', "00 40 06 46" }, { '0', "10 30 41 45 36 16 05 01 10" }, { '1', "11 20 26|06 46" },
    { '2', "01 10 30 41 42 06 46" }, { '3', "01 10 30 41 42 33 13|33 44 45 36 16 05" },
    { '4', "36 30 04 44" }, { '5', "40 00 02 32 43 45 36 06" },
    { '6', "41 30 10 01 05 16 36 45 43 32 12 03" }, { '7', "00 40 16" },
    { '8', "10 30 41 42 33 13 02 01 10|13 04 05 16 36 45 44 33" },
    { '9', "43 13 02 01 10 30 41 45 36 16 05" }, { '+', "03 43|21 25" }, { '-', "03 43" },
    { '.', "25 26" },
};

static const char pic_cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* Stroke glyph c with its top-left at (x, y), u pixels a unit. */
static void draw_glyph(cvb_image_t *img, double x, double y, double u, char c)
{
    const char *s = NULL;
    for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++)
        if (glyphs[i].c == c)
            s = glyphs[i].strokes;
    if (!s)
        return;
    double px = 0, py = 0;
    int have = 0;
    while (*s) {
        if (*s == '|' || *s == ' ') {
            have = *s == '|' ? 0 : have;
            s++;
            continue;
        }
        if (!s[1])
            break;
        double nx = x + (s[0] - '0') * u, ny = y + (s[1] - '0') * u;
        if (have)
            cvb_draw_line(img, px, py, nx, ny, col_text[0], col_text[1], col_text[2], 1);
        px = nx;
        py = ny;
        have = 1;
        s += 2;
    }
}

/* Text centred on (cx, cy). */
static void draw_text(cvb_image_t *img, double cx, double cy, double u, const char *t)
{
    int n = (int)strlen(t);
    double w = n * 6 * u - 2 * u;   /* 4 units a glyph, 2 between */
    double x = cx - w / 2, y = cy - 3 * u;
    for (int i = 0; i < n; i++)
        draw_glyph(img, x + i * 6 * u, y, u, t[i]);
}

static void fill_rect(cvb_image_t *img, int x0, int y0, int x1, int y1, const int c[3])
{
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 > img->w)
        x1 = img->w;
    if (y1 > img->h)
        y1 = img->h;
    for (int y = y0; y < y1; y++) {
        uint8_t *row = img->data + (size_t)y * img->stride;
        for (int x = x0; x < x1; x++) {
            row[3 * x] = (uint8_t)c[0];
            row[3 * x + 1] = (uint8_t)c[1];
            row[3 * x + 2] = (uint8_t)c[2];
        }
    }
}

static void square(cvb_image_t *img, double x, double y, double h, const int c[3], int filled)
{
    if (filled) {
        fill_rect(img, (int)(x - h + 0.5), (int)(y - h + 0.5), (int)(x + h + 0.5),
                  (int)(y + h + 0.5), c);
        return;
    }
    cvb_draw_line(img, x - h, y - h, x + h, y - h, c[0], c[1], c[2], 2);
    cvb_draw_line(img, x + h, y - h, x + h, y + h, c[0], c[1], c[2], 2);
    cvb_draw_line(img, x + h, y + h, x - h, y + h, c[0], c[1], c[2], 2);
    cvb_draw_line(img, x - h, y + h, x - h, y - h, c[0], c[1], c[2], 2);
}

/* The diagram on img at (ox, oy). */
static void draw_diagram(cvb_image_t *img, int ox, int oy, const picture_in_t *in)
{
    const go_board_t *b = in->board;
    const go_score_t *sc = in->score;
    int S = b->size;
    double m = PIC_MARGIN_CELLS * PIC_CELL, c = PIC_CELL, u = PIC_CELL / 16.0;
    int D = (int)(2 * m + (S - 1) * c);
    fill_rect(img, ox, oy, ox + D, oy + D, col_wood);
    for (int i = 0; i < S; i++) {
        double a = m + i * c;
        cvb_draw_line(img, ox + m, oy + a, ox + m + (S - 1) * c, oy + a, col_line[0],
                      col_line[1], col_line[2], 1);
        cvb_draw_line(img, ox + a, oy + m, ox + a, oy + m + (S - 1) * c, col_line[0],
                      col_line[1], col_line[2], 1);
        char t[12] = { pic_cols[i], 0 };
        draw_text(img, ox + a, oy + m / 3, u, t);
        draw_text(img, ox + a, oy + D - m / 3, u, t);
        snprintf(t, sizeof t, "%d", S - i);
        draw_text(img, ox + m / 3, oy + a, u, t);
        draw_text(img, ox + D - m / 3, oy + a, u, t);
    }
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int p = GO_PT(x, y), v = sc ? sc->point[p] : 0;
            double px = ox + m + x * c, py = oy + m + y * c;
            int col = b->color[p];
            if (col == GO_EMPTY && go_is_star(S, x, y))
                cvb_draw_circle(img, px, py, c * 0.09, col_line[0], col_line[1], col_line[2], -1);
            if (col == GO_BLACK || col == GO_WHITE) {
                const int *f = col == GO_BLACK ? col_black : col_white;
                cvb_draw_circle(img, px, py, c * PIC_STONE_R, f[0], f[1], f[2], -1);
                cvb_draw_circle(img, px, py, c * PIC_STONE_R, col_outline[0], col_outline[1],
                                col_outline[2], 1);
            }
            go_color_t own = sc ? GO_SP_OWNER(v) : GO_EMPTY;
            if (sc && (own == GO_BLACK || own == GO_WHITE) && !(v & GO_SP_STONE)) {
                const int *f = own == GO_BLACK ? col_black : col_white;
                /* a white square on a black dead stone needs no outline; on wood it does */
                if (own == GO_WHITE)
                    square(img, px, py, c * PIC_TERR_H + 1, col_outline, 1);
                square(img, px, py, c * PIC_TERR_H, f, 1);
            }
            if (sc && (v & GO_SP_FILL))   /* an unsettled border: a point to fill */
                cvb_draw_circle(img, px, py, c * PIC_FILL_R, col_fill[0], col_fill[1],
                                col_fill[2], 2);
            if (sc && (v & GO_SP_DEAD)) {
                double h = c * PIC_CROSS_H;
                cvb_draw_line(img, px - h, py - h, px + h, py + h, col_dead[0], col_dead[1],
                              col_dead[2], 2);
                cvb_draw_line(img, px - h, py + h, px + h, py - h, col_dead[0], col_dead[1],
                              col_dead[2], 2);
            }
            if (in->unsure && in->unsure[y * S + x])
                cvb_draw_circle(img, px, py, c * PIC_RING_R, col_unsure[0], col_unsure[1],
                                col_unsure[2], 2);
        }
}

/* Copy src into dst at (ox, oy), clipped. */
static void blit(cvb_image_t *dst, const cvb_image_t *src, int ox, int oy)
{
    for (int y = 0; y < src->h && oy + y < dst->h; y++) {
        int w = src->w;
        if (ox + w > dst->w)
            w = dst->w - ox;
        if (w <= 0 || oy + y < 0)
            continue;
        memcpy(dst->data + (size_t)(oy + y) * dst->stride + 3 * (size_t)ox,
               src->data + (size_t)y * src->stride, 3 * (size_t)w);
    }
}

int picture_write(const char *path, const picture_in_t *in, char *why, size_t whylen)
{
    int S = in->board->size;
    int D = (int)(2 * PIC_MARGIN_CELLS * PIC_CELL + (S - 1) * PIC_CELL);
    cvb_image_t canvas = { 0 }, drawn = { 0 }, small = { 0 };
    int pw = 0, rc = -1;
    const photo_t *ph = in->photo;
    if (ph && ph->img.data && ph->img.channels == 3 && ph->img.h > 0) {
        /* the photo with the grid as found, at the diagram's height */
        if (cvb_image_alloc(&drawn, ph->img.w, ph->img.h, 3) == 0) {
            for (int y = 0; y < ph->img.h; y++)
                memcpy(drawn.data + (size_t)y * drawn.stride,
                       ph->img.data + (size_t)y * ph->img.stride, 3 * (size_t)ph->img.w);
            vis_draw(&drawn, &ph->geom, NULL);   /* the grid alone: the photo shows the stones */
            pw = (int)((double)ph->img.w * D / ph->img.h + 0.5);
            if (pw < 1 || cvb_resize(&drawn, pw, D, &small) != 0)
                pw = 0;
        }
    }
    int W = D + (pw ? PIC_GAP + pw : 0), H = PIC_HEADER + D;
    if (cvb_image_alloc(&canvas, W, H, 3) != 0) {
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    fill_rect(&canvas, 0, 0, W, H, col_page);
    if (in->score)
        draw_text(&canvas, D / 2.0, PIC_HEADER / 2.0, PIC_CELL / 12.0, in->score->re);
    draw_diagram(&canvas, 0, PIC_HEADER, in);
    if (pw)
        blit(&canvas, &small, D + PIC_GAP, PIC_HEADER);
    rc = cli_write_image(path, &canvas, 0, why, whylen);
out:
    cvb_image_free(&canvas);
    cvb_image_free(&drawn);
    cvb_image_free(&small);
    return rc;
}
