/* stn_testutil.h: scripted snapshots and views for the station tests (header only).
 * Diagrams: one row per line, top row first, spaces ignored: '.' empty, 'X' black,
 * 'O' white, '?' unknown (a view) or unsure (a snapshot: confidence 0.2), '#' hidden
 * (occluded; the colour under it is read as white, garbage the station must ignore).
 * Include after <cmocka.h>. */
#ifndef KIFUCAM_STN_TESTUTIL_H
#define KIFUCAM_STN_TESTUTIL_H

#include <string.h>

#include "rules/go_game.h"
#include "station/stn_stab.h"
#include "vision/vis_snapshot.h"

/* Point of an SGF coordinate ("cc"). */
static inline int st_pt(int size, const char *s)
{
    return go_point_from_sgf(size, s, 2);
}

/* Walk a diagram: calls put(ctx, index, char) for each point; returns the size. */
static inline int st_walk(const char *d, void (*put)(void *, int, int, char), void *ctx)
{
    int x = 0, y = 0, size = 0;
    for (const char *c = d; *c; c++) {
        if (*c == ' ')
            continue;
        if (*c == '\n') {
            if (x > 0) {
                size = x;
                y++;
            }
            x = 0;
            continue;
        }
        put(ctx, x, y, *c);
        x++;
    }
    if (x > 0) {
        size = x;
        y++;
    }
    assert_int_equal(size, y);
    return size;
}

static inline void st_view_put(void *ctx, int x, int y, char c)
{
    stn_view_t *v = ctx;
    int i = y * 25 + x;   /* fixed up by st_view once the size is known */
    v->color[i] = c == 'X' ? GO_BLACK : c == 'O' ? GO_WHITE : c == '.' ? GO_EMPTY : STN_UNKNOWN;
}

/* A view from a diagram, seen at frame/t, the hand having left at t_clear. */
static inline void st_view(stn_view_t *v, const char *d, uint64_t frame, double t, double t_clear)
{
    stn_view_t tmp;
    memset(&tmp, STN_UNKNOWN, sizeof tmp);
    int size = st_walk(d, st_view_put, &tmp);
    stn_view_init(v, size);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            v->color[y * size + x] = tmp.color[y * 25 + x];
    v->frame = frame;
    v->t = t;
    v->t_clear = t_clear;
}

/* A view of a board (what a perfect camera sees). */
static inline void st_view_board(stn_view_t *v, const go_board_t *b, uint64_t frame, double t)
{
    stn_view_init(v, b->size);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            v->color[y * b->size + x] = b->color[GO_PT(x, y)];
    v->frame = frame;
    v->t = v->t_clear = t;
}

static inline void st_snap_put(void *ctx, int x, int y, char c)
{
    vis_snapshot_t *s = ctx;
    int i = y * 25 + x;
    s->color[i] = c == 'X' ? GO_BLACK : c == 'O' || c == '#' ? GO_WHITE : GO_EMPTY;
    s->conf[i] = c == '?' ? 0.2f : 0.95f;
    s->occluded[i] = c == '#';
}

/* A snapshot from a diagram; occluder is the frame's flag. */
static inline void st_snap(vis_snapshot_t *s, const char *d, int occluder, uint64_t frame, double t)
{
    vis_snapshot_t *tmp = calloc(1, sizeof *tmp);
    assert_non_null(tmp);
    int size = st_walk(d, st_snap_put, tmp);
    memset(s, 0, sizeof *s);
    s->size = size;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            s->color[y * size + x] = tmp->color[y * 25 + x];
            s->conf[y * size + x] = tmp->conf[y * 25 + x];
            s->occluded[y * size + x] = tmp->occluded[y * 25 + x];
        }
    free(tmp);
    s->occluder = occluder;
    s->frame = frame;
    s->t = t;
}

/* A game with the diagram's stones as setup and `turn` to move. */
static inline go_game_t *st_game(const char *rules, const char *d, go_color_t turn)
{
    go_rules_t r;
    go_board_t b;
    assert_int_equal(go_rules_preset(rules, &r), GO_OK);
    assert_int_equal(go_board_from_ascii(&b, d), GO_OK);
    go_game_t *g = go_game_create(b.size, &r);
    assert_non_null(g);
    go_point_t bl[GO_MAX_SIZE * GO_MAX_SIZE], wh[GO_MAX_SIZE * GO_MAX_SIZE];
    int nb = 0, nw = 0;
    for (int y = 0; y < b.size; y++)
        for (int x = 0; x < b.size; x++) {
            if (b.color[GO_PT(x, y)] == GO_BLACK)
                bl[nb++] = (go_point_t)GO_PT(x, y);
            else if (b.color[GO_PT(x, y)] == GO_WHITE)
                wh[nw++] = (go_point_t)GO_PT(x, y);
        }
    if (nb)
        assert_int_equal(go_game_setup(g, GO_BLACK, bl, nb), GO_OK);
    if (nw)
        assert_int_equal(go_game_setup(g, GO_WHITE, wh, nw), GO_OK);
    assert_int_equal(go_game_set_turn(g, turn), GO_OK);
    return g;
}

/* The move i (0-based) of g as "B cc" / "W " (pass) in out[8]. */
static inline const char *st_move(const go_game_t *g, int i, char out[8])
{
    const go_move_t *m = go_game_move(g, i);
    char p[3] = "";
    if (!m)
        return "none";
    if (m->kind == GO_MOVE_PLAY)
        go_point_to_sgf(m->point, p);
    snprintf(out, 8, "%s %s", m->color == GO_BLACK ? "B" : "W",
             m->kind == GO_MOVE_RESIGN ? "R" : p);
    return out;
}

#endif
