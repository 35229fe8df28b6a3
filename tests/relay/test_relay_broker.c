/* test_relay_broker.c: the relay through a real mosquitto (Debian's), started by the test on
 * a loopback port of its own: a station's relay (rly.h) publishing a game of N moves to a
 * hub (hub.h) in the same process, with the broker killed and started again mid-game, the
 * link cut and restored (a TCP proxy on loopback), a wrong password, a station killed
 * and resumed from its journal, and the hub stopped and started again while two stations
 * play on. Each ends with every move at the hub, in order, and every
 * event counted once (the hub drops an event whose (run, seq) it has seen and would count
 * one lost or out of order as missing). Skips (77) when mosquitto is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relay/hub.h"
#include "relay/rly.h"
#include "web/http_client.h"
#include "broker.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kc-relay-broker.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void sub(const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", dir, name);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", out);
    assert_int_equal(system(cmd), 0);
}

static hub_t *start_hub(const char *url, const char *user, const char *pass)
{
    hub_config_t c;
    hub_config_defaults(&c);
    c.url = url;
    c.user = user;
    c.pass = pass;
    c.port = -1;
    c.backoff_max_s = 1;
    hub_t *h = NULL;
    char err[256];
    assert_int_equal(hub_create(&c, &h, err, sizeof err), HUB_OK);
    return h;
}

static rly_t *start_rly(const char *url, const char *board, const char *journal, int resume,
                        const char *pass)
{
    rly_config_t c;
    rly_config_defaults(&c);
    c.url = url;
    c.board = board;
    c.journal = journal;
    c.resume = resume;
    c.backoff_min_s = 0.05;
    c.backoff_max_s = 0.5;
    c.keepalive_s = 5;
    if (pass) {
        c.user = "station";
        c.pass = pass;
    }
    rly_t *r = NULL;
    char err[256];
    assert_int_equal(rly_create(&c, &r, err, sizeof err), RLY_OK);
    return r;
}

/* Move n of the game: its event and the state with moves 1..n (the point from n). */
static void play(rly_t *r, int n)
{
    json_t *mv = json_array();
    for (int i = 1; i <= n; i++) {
        char pt[3] = { (char)('a' + i % 19), (char)('a' + (i / 19) % 19), 0 };
        json_array_append_new(mv, json_pack("{s:i,s:s,s:s}", "n", i, "color", i % 2 ? "B" : "W",
                                            "point", pt));
    }
    json_t *st = json_pack("{s:i,s:[],s:o,s:s}", "size", 19, "board", "moves", mv, "phase", "play");
    char *s = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    char ev[96];
    snprintf(ev, sizeof ev, "{\"event\":\"move\",\"n\":%d}", n);
    assert_int_equal(rly_publish_event(r, ev), RLY_OK);
    assert_int_equal(rly_publish_state(r, s), RLY_OK);
    free(s);
}

/* Wait up to ms for the hub to hold board's state with n moves, 1..n in order, and nev
 * events; fail with what it holds. */
static void expect(hub_t *h, const char *board, int n, uint64_t nev, int ms)
{
    int moves = -1, in_order = 0;
    hub_status_t st;
    for (int t = 0; t <= ms; t += 20) {
        char *bj = hub_boards_json(h);
        json_t *o = json_loads(bj, 0, NULL);
        free(bj);
        size_t i;
        json_t *b;
        moves = -1;
        json_array_foreach(json_object_get(o, "boards"), i, b) {
            if (strcmp(json_string_value(json_object_get(b, "board")), board))
                continue;
            json_t *mv = json_object_get(b, "moves");
            moves = (int)json_array_size(mv);
            in_order = 1;
            for (size_t k = 0; k < json_array_size(mv); k++)
                in_order &= json_integer_value(json_object_get(json_array_get(mv, k), "n")) ==
                            (json_int_t)k + 1;
        }
        json_decref(o);
        hub_status(h, &st);
        if (moves == n && in_order && st.events == nev)
            return;
        tb_sleep_ms(20);
    }
    fail_msg("board %s at the hub: %d moves (want %d, in order %d), %llu events (want %llu), "
             "%llu duplicates dropped", board, moves, n, in_order, (unsigned long long)st.events,
             (unsigned long long)nev, (unsigned long long)st.dups);
}

static void need_mosquitto(void)
{
    if (!tb_mosquitto()) {
        print_message("SKIP: mosquitto is not installed (scripts/bootstrap.sh test)\n");
        skip();
    }
}

static void wait_link(rly_t *r, rly_link_t link, int ms)
{
    rly_status_t st;
    for (int t = 0; t <= ms; t += 10) {
        rly_status(r, &st);
        if (st.link == link)
            return;
        tb_sleep_ms(10);
    }
    fail_msg("relay link %d, want %d (%s)", st.link, link, st.reason);
}

/* The plain case: 30 moves, everything delivered, nothing twice. */
static void test_delivery(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128];
    sub("plain", d, sizeof d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "t/plain", url, sizeof url);
    hub_t *h = start_hub(url, NULL, NULL);
    rly_t *r = start_rly(url, "1", NULL, 0, NULL);
    wait_link(r, RLY_LINK_UP, 3000);
    tb_sleep_ms(200);   /* the hub subscribed */
    for (int n = 1; n <= 30; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    expect(h, "1", 30, 30, 3000);
    hub_status_t st;
    hub_status(h, &st);
    assert_int_equal(st.dups, 0);
    rly_destroy(r);
    hub_destroy(h);
    tb_broker_kill(&b);
}

/* The broker killed (SIGKILL, no persistence: its retained messages die with it) in the
 * middle of the game and started again on its port 1.5 s later; the station plays on. */
static void test_broker_restart(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128];
    sub("restart", d, sizeof d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "t/restart", url, sizeof url);
    hub_t *h = start_hub(url, NULL, NULL);
    rly_t *r = start_rly(url, "2", NULL, 0, NULL);
    wait_link(r, RLY_LINK_UP, 3000);
    tb_sleep_ms(200);
    for (int n = 1; n <= 10; n++)
        play(r, n);
    expect(h, "2", 10, 10, 3000);
    tb_broker_kill(&b);
    for (int n = 11; n <= 20; n++) {   /* played while there is no broker */
        play(r, n);
        tb_sleep_ms(100);
    }
    rly_status_t rs;
    rly_status(r, &rs);
    assert_true(rs.link == RLY_LINK_DOWN || rs.link == RLY_LINK_CONNECTING);
    assert_true(rs.pending >= 10);
    assert_int_equal(tb_broker_start(&b), 0);
    /* the hub must be back before the station resends, or the events (not retained) pass
     * it by: moves come from the state anyway. Play on once both are back. */
    wait_link(r, RLY_LINK_UP, 5000);
    hub_status_t hs;
    for (int t = 0; t < 5000; t += 20) {
        hub_status(h, &hs);
        if (hs.link == 1)
            break;
        tb_sleep_ms(20);
    }
    assert_int_equal(hs.link, 1);
    tb_sleep_ms(100);   /* subscribed */
    for (int n = 21; n <= 25; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    /* every move (from the states), in order; events 1..10 and 21..25 surely, 11..20 when
     * the hub was back first: at least 15, none twice */
    int ok = 0;
    hub_status_t st;
    for (int t = 0; t < 5000 && !ok; t += 20) {
        char *bj = hub_boards_json(h);
        json_t *o = json_loads(bj, 0, NULL);
        free(bj);
        json_t *bd = json_array_get(json_object_get(o, "boards"), 0);
        ok = bd && json_array_size(json_object_get(bd, "moves")) == 25;
        json_decref(o);
        if (!ok)
            tb_sleep_ms(20);
    }
    hub_status(h, &st);
    print_message("after the restart: %llu events at the hub, %llu duplicates dropped\n",
                  (unsigned long long)st.events, (unsigned long long)st.dups);
    assert_true(ok);
    assert_true(st.events >= 15 && st.events <= 25);
    rly_destroy(r);
    hub_destroy(h);
    tb_broker_kill(&b);
}

/* A network cut between the station and the broker (the hub stays connected): every
 * event arrives once, in order; the moves all there. */
static void test_network_cut(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], purl[128];
    sub("cut", d, sizeof d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_proxy_t p;
    assert_int_equal(tb_proxy_start(&p, b.port), 0);
    tb_url(b.port, "t/cut", url, sizeof url);
    tb_url(p.port, "t/cut", purl, sizeof purl);
    hub_t *h = start_hub(url, NULL, NULL);
    rly_t *r = start_rly(purl, "3", NULL, 0, NULL);
    wait_link(r, RLY_LINK_UP, 3000);
    tb_sleep_ms(200);
    for (int n = 1; n <= 8; n++)
        play(r, n);
    expect(h, "3", 8, 8, 3000);
    tb_proxy_cut(&p, 1);
    for (int n = 9; n <= 16; n++) {
        play(r, n);
        tb_sleep_ms(120);
    }
    rly_status_t rs;
    rly_status(r, &rs);
    assert_int_not_equal(rs.link, RLY_LINK_UP);
    tb_proxy_cut(&p, 0);
    for (int n = 17; n <= 20; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 8), RLY_OK);
    expect(h, "3", 20, 20, 3000);
    rly_destroy(r);
    hub_destroy(h);
    tb_proxy_stop(&p);
    tb_broker_kill(&b);
}

/* A broker with a password file: the wrong password is refused (the reason says so), the
 * relay keeps its queue; the right one delivers. */
static void test_wrong_password(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128];
    sub("auth", d, sizeof d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, "station", "s3cret"), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "t/auth", url, sizeof url);
    rly_t *r = start_rly(url, "4", NULL, 0, "wrong");
    wait_link(r, RLY_LINK_REFUSED, 3000);
    rly_status_t rs;
    rly_status(r, &rs);
    print_message("refused: %s\n", rs.reason);
    assert_non_null(strstr(rs.reason, "refused"));
    assert_true(strstr(rs.reason, "authori") || strstr(rs.reason, "password"));
    play(r, 1);
    assert_int_equal(rly_flush(r, 0.5), RLY_ETIMEOUT);
    rly_status(r, &rs);
    assert_int_equal(rs.pending, 1);
    rly_destroy(r);
    hub_t *h = start_hub(url, "station", "s3cret");
    r = start_rly(url, "4", NULL, 0, "s3cret");
    wait_link(r, RLY_LINK_UP, 3000);
    tb_sleep_ms(200);
    play(r, 1);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    expect(h, "4", 1, 1, 3000);
    rly_destroy(r);
    hub_destroy(h);
    tb_broker_kill(&b);
}

/* A station that never reached the broker is stopped (as if killed: its queue is only in
 * the journal) and resumed: the journal's events go first, then the new game. */
static void test_resume_journal(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], journal[200];
    sub("resume", d, sizeof d);
    snprintf(journal, sizeof journal, "%s/game.sgf.relay", d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    tb_url(b.port, "t/resume", url, sizeof url);   /* nothing listens there yet */
    rly_t *r = start_rly(url, "5", journal, 0, NULL);
    for (int n = 1; n <= 6; n++)
        play(r, n);
    tb_sleep_ms(100);
    rly_status_t rs;
    rly_status(r, &rs);
    assert_int_equal(rs.pending, 6);
    rly_destroy(r);   /* the events are in the journal only now */
    assert_int_equal(tb_broker_start(&b), 0);
    hub_t *h = start_hub(url, NULL, NULL);
    tb_sleep_ms(300);
    r = start_rly(url, "5", journal, 1, NULL);
    for (int n = 7; n <= 9; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    expect(h, "5", 9, 9, 3000);
    rly_destroy(r);
    /* all acknowledged: the journal is empty again */
    FILE *f = fopen(journal, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    assert_int_equal(ftell(f), 0);
    fclose(f);
    hub_destroy(h);
    tb_broker_kill(&b);
}

/* A game's record after n moves, as the station would publish it. */
static void game_sgf(int n, char *out, size_t len)
{
    size_t k = (size_t)snprintf(out, len, "(;GM[1]FF[4]SZ[19]");
    for (int i = 1; i <= n && k + 8 < len; i++)
        k += (size_t)snprintf(out + k, len - k, ";%c[%c%c]", i % 2 ? 'B' : 'W',
                              (char)('a' + i % 19), (char)('a' + (i / 19) % 19));
    snprintf(out + k, len - k, ")");
}

/* Move n on both boards: the event, the state and the record. */
static void play_both(rly_t *r1, rly_t *r2, int n)
{
    char sgf[512];
    game_sgf(n, sgf, sizeof sgf);
    play(r1, n);
    play(r2, n);
    assert_int_equal(rly_publish_sgf(r1, sgf), RLY_OK);
    assert_int_equal(rly_publish_sgf(r2, sgf), RLY_OK);
}

/* The hub's live record of board, as /board/NAME.sgf serves it, equal to game_sgf(n). */
static void expect_sgf(int port, const char *board, int n)
{
    char want[512], path[64];
    game_sgf(n, want, sizeof want);
    snprintf(path, sizeof path, "/board/%s.sgf", board);
    int status = 0;
    for (int t = 0; t <= 3000; t += 20) {
        hc_resp_t r;
        assert_int_equal(hc_get(port, path, &r), 0);
        int ok = r.status == 200 && r.body && !strcmp(r.body, want);
        status = r.status;
        hc_resp_free(&r);
        if (ok)
            return;
        tb_sleep_ms(20);
    }
    fail_msg("%s at the hub: %d, not %s", path, status, want);
}

/* The hub stopped in the middle of a game (two boards) and started again 6 moves later,
 * the stations playing on: the new hub gets each board's retained state and record, so it
 * holds every move of both; only the events sent while no hub listened are not counted
 * (events are not retained: relay/README.md). */
static void test_hub_restart(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128];
    sub("hubrestart", d, sizeof d);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "t/hubrestart", url, sizeof url);
    hub_config_t c;
    hub_config_defaults(&c);
    c.url = url;
    c.port = 0;   /* HTTP on a free port: the live records are read there */
    c.backoff_max_s = 1;
    hub_t *h = NULL;
    char err[256];
    assert_int_equal(hub_create(&c, &h, err, sizeof err), HUB_OK);
    rly_t *r1 = start_rly(url, "31", NULL, 0, NULL), *r2 = start_rly(url, "32", NULL, 0, NULL);
    wait_link(r1, RLY_LINK_UP, 3000);
    wait_link(r2, RLY_LINK_UP, 3000);
    tb_sleep_ms(200);
    for (int n = 1; n <= 6; n++)
        play_both(r1, r2, n);
    expect(h, "31", 6, 12, 3000);
    expect(h, "32", 6, 12, 3000);
    hub_destroy(h);
    for (int n = 7; n <= 12; n++) {   /* no hub */
        play_both(r1, r2, n);
        tb_sleep_ms(50);
    }
    assert_int_equal(rly_flush(r1, 5), RLY_OK);
    assert_int_equal(rly_flush(r2, 5), RLY_OK);
    assert_int_equal(hub_create(&c, &h, err, sizeof err), HUB_OK);
    int port = hub_port(h);
    /* before any new move: every move of both boards, from the retained states */
    expect(h, "31", 12, 0, 3000);
    expect(h, "32", 12, 0, 3000);
    expect_sgf(port, "31", 12);
    expect_sgf(port, "32", 12);
    for (int n = 13; n <= 15; n++)
        play_both(r1, r2, n);
    assert_int_equal(rly_flush(r1, 5), RLY_OK);
    assert_int_equal(rly_flush(r2, 5), RLY_OK);
    expect(h, "31", 15, 6, 3000);   /* the new hub counts the 3 new events of each board */
    expect(h, "32", 15, 6, 3000);
    expect_sgf(port, "31", 15);
    expect_sgf(port, "32", 15);
    hub_status_t st;
    hub_status(h, &st);
    assert_int_equal(st.boards, 2);
    assert_int_equal(st.dups, 0);
    rly_destroy(r1);
    rly_destroy(r2);
    hub_destroy(h);
    tb_broker_kill(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_delivery),
        cmocka_unit_test(test_broker_restart),
        cmocka_unit_test(test_network_cut),
        cmocka_unit_test(test_wrong_password),
        cmocka_unit_test(test_resume_journal),
        cmocka_unit_test(test_hub_restart),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
