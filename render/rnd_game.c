/* rnd_game.c: the game the footage shows (rnd_game.h), from rules/ and an SGF record.
 * Invariant: cur is the position after all of moves[]; caps[] lists, move by move, the
 * points each move removed from the board.
 */
#include "render/rnd_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rnd_render.h"
#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/go_life.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

int rnd_game_init(rnd_game_t *g, int size)
{
    if (!g || size < 2 || size > 25)
        return RND_EINVAL;
    memset(g, 0, sizeof *g);
    g->size = size;
    g->cur = malloc(sizeof *g->cur);
    if (!g->cur)
        return RND_ENOMEM;
    go_board_init(g->cur, size);
    return RND_OK;
}

void rnd_game_fini(rnd_game_t *g)
{
    if (!g)
        return;
    free(g->moves);
    free(g->caps);
    free(g->cur);
    g->moves = NULL;
    g->caps = NULL;
    g->cur = NULL;
    g->nmoves = g->ncaps = 0;
}

static int set_stone(rnd_game_t *g, int x, int y, uint8_t c)
{
    if (x < 0 || y < 0 || x >= g->size || y >= g->size || c > 2)
        return RND_EINVAL;
    g->setup[y * g->size + x] = c;
    go_board_set(g->cur, GO_PT(x, y), (go_color_t)c);
    return RND_OK;
}

int rnd_game_add(rnd_game_t *g, rnd_move_kind_t kind, uint8_t color, int x, int y)
{
    if (!g || !g->cur || (color != 1 && color != 2) || (unsigned)kind > RND_MOVE_RESIGN)
        return RND_EINVAL;
    rnd_move_t m = { kind, color, -1, 0, g->ncaps };
    go_place_info_t info;
    info.ncaptured = 0;
    if (kind == RND_MOVE_PLAY) {
        if (x < 0 || y < 0 || x >= g->size || y >= g->size)
            return RND_EINVAL;
        if (go_board_play(g->cur, (go_color_t)color, GO_PT(x, y), &info) != GO_OK)
            return RND_EINVAL;
        m.point = (int16_t)(y * g->size + x);
        if (info.suicide) /* the placed chain itself went: record it as captured */
            m.point = (int16_t)(y * g->size + x);
    }
    rnd_move_t *nm = realloc(g->moves, (size_t)(g->nmoves + 1) * sizeof *nm);
    if (!nm)
        return RND_ENOMEM;
    g->moves = nm;
    if (info.ncaptured > 0) {
        int16_t *nc = realloc(g->caps, (size_t)(g->ncaps + info.ncaptured) * sizeof *nc);
        if (!nc)
            return RND_ENOMEM;
        g->caps = nc;
        for (int i = 0; i < info.ncaptured; i++)
            g->caps[g->ncaps + i] = (int16_t)(GO_Y(info.captured[i]) * g->size + GO_X(info.captured[i]));
        g->ncaps += info.ncaptured;
        m.ncap = info.ncaptured;
    }
    g->moves[g->nmoves++] = m;
    return RND_OK;
}

void rnd_game_position(const rnd_game_t *g, int n, uint8_t *pos)
{
    int np = g->size * g->size;
    memcpy(pos, g->setup, (size_t)np);
    for (int i = 0; i < n && i < g->nmoves; i++) {
        const rnd_move_t *m = &g->moves[i];
        if (m->kind != RND_MOVE_PLAY)
            continue;
        pos[m->point] = m->color;
        for (int k = 0; k < m->ncap; k++)
            pos[g->caps[m->cap_first + k]] = 0;
    }
}

int rnd_game_propose_dead(rnd_game_t *g)
{
    if (!g || !g->cur)
        return RND_EINVAL;
    go_life_result_t *res = malloc(sizeof *res);
    if (!res)
        return RND_ENOMEM;
    int rc = go_life_propose(g->cur, NULL, res);
    if (rc == GO_OK) {
        for (int y = 0; y < g->size; y++)
            for (int x = 0; x < g->size; x++)
                g->dead[y * g->size + x] = res->dead[GO_PT(x, y)] ? 1 : 0;
    }
    free(res);
    return rc == GO_OK ? RND_OK : rc == GO_ENOMEM ? RND_ENOMEM : RND_EINVAL;
}

int rnd_game_from_sgf(rnd_game_t *g, const char *path, int max_moves, char *err, size_t errlen)
{
    if (!g || !path)
        return RND_EINVAL;
    if (err && errlen)
        err[0] = 0;
    sgf_collection_t *col = NULL;
    sgf_error_t e;
    memset(&e, 0, sizeof e);
    int rc = sgf_parse_file(path, NULL, &col, &e);
    if (rc) {
        if (err && e.line > 0)
            snprintf(err, errlen, "%s:%d:%d: %s", path, e.line, e.col, e.msg[0] ? e.msg : sgf_strerror(rc));
        else if (err)
            snprintf(err, errlen, "%s: %s", path, e.msg[0] ? e.msg : sgf_strerror(rc));
        return rc == GO_EIO ? RND_EIO : rc == GO_ENOMEM ? RND_ENOMEM : RND_EPARSE;
    }
    if (col->ngames < 1) {
        sgf_collection_destroy(col);
        if (err)
            snprintf(err, errlen, "%s: no game in the file", path);
        return RND_EGAME;
    }
    const char *re = sgf_node_value(col->games[0], "RE");
    sgf_replay_t rep;
    sgf_replay_opts_t ro = { NULL, false };
    rc = sgf_replay(col->games[0], &ro, &rep, &e);
    if (rc) {
        if (err && e.line > 0)
            snprintf(err, errlen, "%s:%d:%d: %s", path, e.line, e.col, e.msg[0] ? e.msg : sgf_strerror(rc));
        else if (err)
            snprintf(err, errlen, "%s: %s", path, e.msg[0] ? e.msg : sgf_strerror(rc));
        sgf_collection_destroy(col);
        return rc == GO_ENOMEM ? RND_ENOMEM : RND_EPARSE;
    }
    go_game_t *gg = rep.game;
    int n = go_game_move_count(gg);
    go_move_t *mv = malloc((size_t)(n > 0 ? n : 1) * sizeof *mv);
    rc = mv ? rnd_game_init(g, rep.size) : RND_ENOMEM;
    if (rc == RND_OK) {
        g->record_moves = n;
        for (int i = 0; i < n; i++)
            mv[i] = *go_game_move(gg, i);
        while (go_game_undo(gg) == GO_OK) {
        }
        const go_board_t *b = go_game_board(gg);
        for (int y = 0; y < rep.size && rc == RND_OK; y++)
            for (int x = 0; x < rep.size && rc == RND_OK; x++)
                if (b->color[GO_PT(x, y)] == GO_BLACK || b->color[GO_PT(x, y)] == GO_WHITE)
                    rc = set_stone(g, x, y, b->color[GO_PT(x, y)]);
        for (int i = 0; i < n && rc == RND_OK && (max_moves < 0 || g->nmoves < max_moves); i++) {
            if (mv[i].kind == GO_MOVE_PLAY)
                rc = rnd_game_add(g, RND_MOVE_PLAY, (uint8_t)mv[i].color, GO_X(mv[i].point), GO_Y(mv[i].point));
            else
                rc = rnd_game_add(g, mv[i].kind == GO_MOVE_PASS ? RND_MOVE_PASS : RND_MOVE_RESIGN,
                                  (uint8_t)mv[i].color, 0, 0);
            if (rc == RND_EINVAL)
                rc = RND_OK; /* a move the board refuses (occupied): skipped */
        }
        if (rc)
            rnd_game_fini(g);
        else if (re && (re[0] == 'B' || re[0] == 'W') && re[1] == '+') {
            int resign = re[2] == 'R' || re[2] == 'r';
            g->result_end = resign ? 2 : re[2] >= '0' && re[2] <= '9' ? 1 : 0;
            g->result_loser = re[0] == 'B' ? 2 : 1;
        } else if (re && (!strcmp(re, "0") || !strncmp(re, "Draw", 4) || !strncmp(re, "Jigo", 4))) {
            g->result_end = 1;
        }
    }
    free(mv);
    sgf_replay_fini(&rep);
    sgf_collection_destroy(col);
    if (rc && err && !err[0])
        snprintf(err, errlen, "%s: %s", path, rnd_strerror(rc));
    return rc;
}
