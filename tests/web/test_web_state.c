/* test_web_state.c: the state JSON built from the rules' types (web_state.h): board rows,
 * moves with passes and captures, turn, phase, players, and the count from a go_session. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_game.h"
#include "rules/go_session.h"
#include "web/web_state.h"

static json_t *parse(const char *s)
{
    json_error_t err;
    json_t *o = json_loads(s, 0, &err);
    assert_non_null(o);
    assert_true(json_is_object(o));
    return o;
}

static void play(go_game_t *g, go_color_t c, const char *pt)
{
    assert_int_equal(go_game_play(g, c, go_point_from_sgf(go_game_board(g)->size, pt, 2)), GO_OK);
}

static void test_game_state(void **state)
{
    (void)state;
    go_rules_t rules;
    assert_int_equal(go_rules_preset("chinese", &rules), GO_OK);
    go_game_t *g = go_game_create(5, &rules);
    assert_non_null(g);
    web_state_info_t info;
    memset(&info, 0, sizeof info);
    char *js = NULL;
    /* empty game */
    assert_int_equal(web_state_json(g, &info, &js), WEB_OK);
    json_t *o = parse(js);
    assert_int_equal(json_integer_value(json_object_get(o, "size")), 5);
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "board"), 0)), ".....");
    assert_int_equal(json_array_size(json_object_get(o, "moves")), 0);
    assert_true(json_is_null(json_object_get(o, "last")));
    assert_string_equal(json_string_value(json_object_get(o, "phase")), "play");
    assert_string_equal(json_string_value(json_object_get(o, "turn")), "B");
    json_decref(o);
    free(js);

    /* a capture: W at ba is taken by B ca after B aa? build: B ab, W ba, B ca... */
    play(g, GO_BLACK, "bb");
    play(g, GO_WHITE, "ba");
    play(g, GO_BLACK, "aa");   /* self-atari corner; fine for a test */
    play(g, GO_WHITE, "ee");
    play(g, GO_BLACK, "ca");   /* captures ba */
    assert_int_equal(go_game_pass(g, GO_WHITE, false), GO_OK);
    web_message_t msgs[2] = { { "warn", "White C7 is illegal (ko)", "viewer" },
                              { NULL, "hello \"quoted\"", NULL } };
    info.black_name = "Kuro";
    info.black_rank = "3d";
    info.white_name = "Shiro";
    info.komi2 = 15;
    info.messages = msgs;
    info.nmessages = 2;
    info.clock_json = "{\"B\":{\"left\":61.5,\"periods\":3},\"running\":\"B\"}";
    assert_int_equal(web_state_json(g, &info, &js), WEB_OK);
    o = parse(js);
    json_t *board = json_object_get(o, "board");
    assert_string_equal(json_string_value(json_array_get(board, 0)), "X.X..");
    assert_string_equal(json_string_value(json_array_get(board, 1)), ".X...");
    assert_string_equal(json_string_value(json_array_get(board, 4)), "....O");
    json_t *moves = json_object_get(o, "moves");
    assert_int_equal(json_array_size(moves), 6);
    json_t *m5 = json_array_get(moves, 4), *m6 = json_array_get(moves, 5);
    assert_string_equal(json_string_value(json_object_get(m5, "point")), "ca");
    assert_int_equal(json_integer_value(json_object_get(m5, "captured")), 1);
    assert_int_equal(json_integer_value(json_object_get(m5, "n")), 5);
    assert_string_equal(json_string_value(json_object_get(m6, "point")), "");
    assert_true(json_is_true(json_object_get(m6, "pass")));
    assert_string_equal(json_string_value(json_object_get(m6, "color")), "W");
    json_t *last = json_object_get(o, "last");
    assert_int_equal(json_integer_value(json_object_get(last, "n")), 6);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "captures"), "B")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "captures"), "W")), 0);
    assert_string_equal(json_string_value(json_object_get(o, "turn")), "B");
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "black"), "name")), "Kuro");
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "black"), "rank")), "3d");
    assert_null(json_object_get(json_object_get(o, "white"), "rank"));
    assert_true(json_real_value(json_object_get(o, "komi")) == 7.5);
    assert_string_equal(json_string_value(json_object_get(o, "rules")), "chinese");
    json_t *jm = json_object_get(o, "messages");
    assert_int_equal(json_array_size(jm), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(jm, 1), "text")), "hello \"quoted\"");
    assert_string_equal(json_string_value(json_object_get(json_array_get(jm, 1), "level")), "info");
    /* who each message is for; none given: the arbiter (the overlay hides it) */
    assert_string_equal(json_string_value(json_object_get(json_array_get(jm, 0), "audience")), "viewer");
    assert_string_equal(json_string_value(json_object_get(json_array_get(jm, 1), "audience")), "arbiter");
    assert_true(json_real_value(json_object_get(json_object_get(json_object_get(o, "clock"), "B"), "left")) == 61.5);
    assert_null(json_object_get(o, "count"));
    json_decref(o);
    free(js);

    /* a clock that is not an object */
    info.clock_json = "[1]";
    js = (char *)0x1;
    assert_int_equal(web_state_json(g, &info, &js), WEB_EINVAL);
    assert_ptr_equal(js, (char *)0x1);
    info.clock_json = NULL;
    assert_int_equal(web_state_json(NULL, &info, &js), WEB_EINVAL);

    /* two passes: over by default */
    assert_int_equal(go_game_pass(g, GO_BLACK, false), GO_OK);
    assert_int_equal(web_state_json(g, &info, &js), WEB_OK);
    o = parse(js);
    assert_string_equal(json_string_value(json_object_get(o, "phase")), "over");
    json_decref(o);
    free(js);
    go_game_destroy(g);
}

static void test_count_state(void **state)
{
    (void)state;
    go_rules_t rules;
    assert_int_equal(go_rules_preset("chinese", &rules), GO_OK);
    go_game_t *g = go_game_create(5, &rules);
    /* Black owns the left, White the right; a white stone inside Black's area */
    const char *bpts[] = { "ca", "cb", "cc", "cd", "ce" };
    const char *wpts[] = { "da", "db", "dc", "dd", "de" };
    for (int i = 0; i < 5; i++) {
        play(g, GO_BLACK, bpts[i]);
        play(g, GO_WHITE, wpts[i]);
    }
    play(g, GO_BLACK, "ea");   /* a black stone in White's area */
    play(g, GO_WHITE, "ab");   /* a white stone in Black's area */
    go_score_params_t par;
    memset(&par, 0, sizeof par);
    par.komi2 = 15;
    go_session_t *s = go_session_create(go_game_board(g), &rules, &par);
    assert_non_null(s);
    web_state_info_t info;
    memset(&info, 0, sizeof info);
    info.phase = "counting";
    info.session = s;
    info.komi2 = 15;
    char *js;
    assert_int_equal(web_state_json(g, &info, &js), WEB_OK);
    json_t *o = parse(js);
    json_t *count = json_object_get(o, "count");
    assert_non_null(count);
    assert_int_equal(json_array_size(json_object_get(count, "dead")), 0);
    const char *before = json_string_value(json_object_get(json_object_get(count, "score"), "result"));
    char before_s[16];
    snprintf(before_s, sizeof before_s, "%s", before);
    json_decref(o);
    free(js);

    assert_true(go_session_toggle(s, go_point_from_sgf(5, "ab", 2), GO_BLACK) > 0);
    assert_int_equal(go_session_accept(s, GO_WHITE), GO_OK);
    assert_int_equal(web_state_json(g, &info, &js), WEB_OK);
    o = parse(js);
    count = json_object_get(o, "count");
    json_t *dead = json_object_get(count, "dead");
    assert_int_equal(json_array_size(dead), 1);
    assert_string_equal(json_string_value(json_array_get(dead, 0)), "ab");
    assert_false(json_is_true(json_object_get(json_object_get(count, "accepted"), "B")));
    assert_true(json_is_true(json_object_get(json_object_get(count, "accepted"), "W")));
    go_score_t sc;
    assert_int_equal(go_session_score(s, &sc), GO_OK);
    json_t *score = json_object_get(count, "score");
    assert_string_equal(json_string_value(json_object_get(score, "result")), sc.re);
    assert_string_not_equal(sc.re, before_s);
    assert_true(json_real_value(json_object_get(score, "B")) * 2 == sc.side[GO_BLACK].total2);
    assert_true(json_real_value(json_object_get(score, "W")) * 2 == sc.side[GO_WHITE].total2);
    /* the dead stone's point is Black's territory; the row shows it */
    json_t *terr = json_object_get(count, "territory");
    assert_int_equal(json_array_size(terr), 5);
    assert_int_equal(json_string_value(json_array_get(terr, 1))[0], 'X');
    assert_int_equal(json_string_value(json_array_get(terr, 1))[2], '.');   /* a live stone */
    json_decref(o);
    free(js);
    go_session_destroy(s);
    go_game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_state),
        cmocka_unit_test(test_count_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
