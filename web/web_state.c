/* web_state.c: the state JSON of web.h from a go_game_t (+ a go_session_t during the
 * count). Builds a jansson tree and dumps it compactly; every value the pages read is
 * written even when empty (moves [], captures 0), so the pages need no special cases. */
#include "web/web_state.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *color_text(go_color_t c)
{
    return c == GO_WHITE ? "W" : "B";
}

static json_t *move_json(const go_move_t *m, int n)
{
    char pt[3] = "";
    if (m->kind == GO_MOVE_PLAY)
        go_point_to_sgf(m->point, pt);
    json_t *o = json_pack("{s:i,s:s,s:s}", "n", n, "color", color_text(m->color), "point", pt);
    if (o && m->kind == GO_MOVE_PASS)
        json_object_set_new(o, "pass", json_true());
    if (o && m->kind == GO_MOVE_RESIGN)
        json_object_set_new(o, "resign", json_true());
    if (o && m->ncaptured)
        json_object_set_new(o, "captured", json_integer(m->ncaptured));
    return o;
}

static json_t *player_json(const char *name, const char *rank)
{
    json_t *o = json_object();
    if (name)
        json_object_set_new(o, "name", json_string(name));
    if (rank)
        json_object_set_new(o, "rank", json_string(rank));
    return o;
}

/* count: dead stones, territory rows, accepts, score */
static json_t *count_json(const go_session_t *s)
{
    const go_board_t *b = go_session_board(s);
    const uint8_t *dead = go_session_dead(s);
    go_score_t sc;
    if (go_session_score(s, &sc) != GO_OK)
        return NULL;
    json_t *jdead = json_array(), *terr = json_array();
    for (int y = 0; y < b->size; y++) {
        char row[GO_MAX_SIZE + 1];
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            uint8_t v = sc.point[p];
            bool stone = b->color[p] == GO_BLACK || b->color[p] == GO_WHITE;
            if (stone && dead[p]) {
                char pt[3];
                go_point_to_sgf(p, pt);
                json_array_append_new(jdead, json_string(pt));
            }
            go_color_t owner = GO_SP_OWNER(v);
            row[x] = (!stone || dead[p]) && owner == GO_BLACK ? 'X'
                     : (!stone || dead[p]) && owner == GO_WHITE ? 'O' : '.';
        }
        row[b->size] = '\0';
        json_array_append_new(terr, json_string(row));
    }
    return json_pack("{s:o,s:o,s:{s:b,s:b},s:{s:f,s:f,s:s}}", "dead", jdead, "territory", terr,
                     "accepted", "B", go_session_accepted(s, GO_BLACK), "W",
                     go_session_accepted(s, GO_WHITE), "score", "B",
                     sc.side[GO_BLACK].total2 / 2.0, "W", sc.side[GO_WHITE].total2 / 2.0,
                     "result", sc.re);
}

int web_state_json(const go_game_t *g, const web_state_info_t *info, char **out)
{
    if (!g || !info || !out)
        return WEB_EINVAL;
    json_t *clock = NULL;
    if (info->clock_json) {
        clock = json_loads(info->clock_json, 0, NULL);
        if (!clock || !json_is_object(clock)) {
            json_decref(clock);
            return WEB_EINVAL;
        }
    }
    const go_board_t *b = go_game_board(g);
    json_t *st = json_object();
    json_object_set_new(st, "size", json_integer(b->size));
    json_t *rows = json_array();
    for (int y = 0; y < b->size; y++) {
        char row[GO_MAX_SIZE + 1];
        for (int x = 0; x < b->size; x++) {
            uint8_t c = b->color[GO_PT(x, y)];
            row[x] = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
        }
        row[b->size] = '\0';
        json_array_append_new(rows, json_string(row));
    }
    json_object_set_new(st, "board", rows);
    int n = go_game_move_count(g);
    json_t *moves = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(moves, move_json(go_game_move(g, i), i + 1));
    json_object_set_new(st, "moves", moves);
    json_object_set_new(st, "last", n ? move_json(go_game_move(g, n - 1), n) : json_null());
    json_object_set_new(st, "captures", json_pack("{s:i,s:i}", "B", b->prisoners[GO_BLACK], "W",
                                                  b->prisoners[GO_WHITE]));
    json_object_set_new(st, "turn", json_string(color_text(go_game_turn(g))));
    const char *phase = info->phase ? info->phase : go_game_over(g) ? "over" : "play";
    json_object_set_new(st, "phase", json_string(phase));
    if (info->result)
        json_object_set_new(st, "result", json_string(info->result));
    json_object_set_new(st, "black", player_json(info->black_name, info->black_rank));
    json_object_set_new(st, "white", player_json(info->white_name, info->white_rank));
    json_object_set_new(st, "komi", json_real(info->komi2 / 2.0));
    const go_rules_t *r = go_game_rules(g);
    json_object_set_new(st, "rules", json_string(r && r->name ? r->name : "custom"));
    json_object_set_new(st, "handicap", json_integer(info->handicap));
    json_t *msgs = json_array();
    for (int i = 0; i < info->nmessages && info->messages; i++) {
        const web_message_t *m = &info->messages[i];
        json_array_append_new(msgs, json_pack("{s:s,s:s,s:s}", "level",
                                              m->level ? m->level : "info", "audience",
                                              m->audience ? m->audience : "arbiter", "text",
                                              m->text ? m->text : ""));
    }
    json_object_set_new(st, "messages", msgs);
    if (info->session) {
        json_t *c = count_json(info->session);
        if (c)
            json_object_set_new(st, "count", c);
    }
    if (clock)
        json_object_set_new(st, "clock", clock);
    char *s = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    if (!s)
        return WEB_ENOMEM;
    *out = s;
    return WEB_OK;
}
