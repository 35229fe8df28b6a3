/* crowded.h: a crowded board rendered for board finding (header only; the vision tests
 * and bench_vision's "crowded" mode): the renderer's wide variety of scenes (any wood,
 * plastic and printed boards, any light, elevation 30-90 degrees, framing that may cut the
 * board off; render/rnd_render.h), every point holding a stone with probability fill, the
 * colours in short runs along the rows. These are test scenes from our own renderer: what
 * board finding does on them says nothing about a real board.
 * Invariants: the same (size, seed, view, fill) give the same picture and corners; the
 * truth's corners are the board's corner points projected (the board plane, not the
 * stones' tops); tests/vision/golden_util.h's vg_grid_err measures a grid against them. */
#ifndef KIFUCAM_CROWDED_H
#define KIFUCAM_CROWDED_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_render.h"
#include "vision/vis.h"

/* Render the scene into *img (3 channels, w x h; the caller frees it), its corner points
 * (top-left, top-right, bottom-right, bottom-left, pixels) into corners and, when truth is
 * not NULL, its position (size * size go_color_t, row by row) into truth. 0, or -1 when
 * the renderer refuses. */
static inline int crowded_render(int size, uint64_t seed, rnd_view_t view, double fill, int w,
                                 int h, cvb_image_t *img, double corners[4][2], uint8_t *truth)
{
    rnd_scene_opts_t o;
    rnd_scene_opts_defaults(&o);
    o.size = size;
    o.seed = seed;
    o.variety = 1;
    o.width = w;
    o.height = h;
    o.view = view;
    rnd_renderer_t *r = NULL;
    if (rnd_renderer_create(&o, &r))
        return -1;
    rnd_rng_t rng;
    rnd_rng_seed(&rng, seed * 7 + 1);
    rnd_stone_t *st = malloc(sizeof *st * (size_t)size * (size_t)size);
    if (!st) {
        rnd_renderer_destroy(r);
        return -1;
    }
    int n = 0;
    const rnd_geometry_t *G = rnd_renderer_geometry(r);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            if (truth)
                truth[y * size + x] = GO_EMPTY;
            if (rnd_rng_int(&rng, 1000) >= fill * 1000)
                continue;
            double wx, wy;
            rnd_renderer_point_world(r, x, y, &wx, &wy);
            st[n].x = (float)wx;
            st[n].y = (float)wy;
            st[n].z = (float)G->top;
            st[n].color = (x + y / 3 + rnd_rng_int(&rng, 3)) % 2 ? 1 : 2;
            st[n].grain = 0;
            if (truth)
                truth[y * size + x] = st[n].color == 1 ? GO_BLACK : GO_WHITE;
            n++;
        }
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.gain = 1;
    fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
    int rc = rnd_renderer_set_stones(r, st, n) || cvb_image_alloc(img, w, h, 3) ||
             rnd_renderer_frame(r, &fx, NULL, 0, img, NULL);
    for (int k = 0; k < 4 && !rc; k++) {
        double p[3];
        rnd_renderer_point_world(r, (k == 1 || k == 2) ? size - 1 : 0, k >= 2 ? size - 1 : 0,
                                 &p[0], &p[1]);
        p[2] = G->top;
        rc = rnd_renderer_project(r, p, 0, 0, &corners[k][0], &corners[k][1]);
    }
    rnd_renderer_destroy(r);
    free(st);
    return rc ? -1 : 0;
}

#endif
