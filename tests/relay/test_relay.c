/* test_relay.c: the relay's parts that need no broker: the broker URL and board names,
 * the journal (pending events back after a restart, a torn line skipped, acknowledged
 * ones gone) and the hub's board table fed message by message (an older state dropped, a
 * duplicate event dropped, the entry's shape, malformed messages counted, not crashing). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relay/hub.h"
#include "relay/rly.h"
#include "relay/rly_journal.h"

static void test_url_good(void **state)
{
    (void)state;
    rly_url_t u;
    char err[160];
    assert_int_equal(rly_url_parse("mqtt://broker.local:1884/congress/r3", &u, err, sizeof err), RLY_OK);
    assert_string_equal(u.host, "broker.local");
    assert_int_equal(u.port, 1884);
    assert_string_equal(u.prefix, "congress/r3");
    assert_int_equal(u.tls, 0);
    assert_string_equal(u.user, "");
    assert_int_equal(rly_url_parse("mqtts://td:p%40ss%3Aword@10.0.0.2", &u, err, sizeof err), RLY_OK);
    assert_int_equal(u.tls, 1);
    assert_int_equal(u.port, 8883);
    assert_string_equal(u.user, "td");
    assert_string_equal(u.pass, "p@ss:word");
    assert_string_equal(u.prefix, "kifucam");
    assert_int_equal(rly_url_parse("mqtt://[::1]:1883/k/", &u, err, sizeof err), RLY_OK);
    assert_string_equal(u.host, "::1");
    assert_string_equal(u.prefix, "k");
}

static void test_url_bad(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "http://host/x", "mqtt://", "mqtt://:1883/x", "mqtt://host:0/x", "mqtt://host:65536/x",
        "mqtt://host:12a/x", "mqtt://host:/x", "mqtt://host/a/+/b", "mqtt://host/a/#",
        "mqtt://host/a//b", "mqtt://ho st/x", "mqtt://host/a b", "mqtt://[::1/x",
        "mqtt://@host/x", "mqtt://u:%zz@host/x", "mqtt://u:%00@host/x", "", NULL
    };
    for (int i = 0; bad[i]; i++) {
        rly_url_t u;
        memset(&u, 0x5a, sizeof u);
        char err[160] = "";
        assert_int_equal(rly_url_parse(bad[i], &u, err, sizeof err), RLY_EINVAL);
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
        assert_int_equal(u.port, 0x5a5a5a5a);   /* untouched */
    }
    assert_int_equal(rly_url_parse(NULL, NULL, NULL, 0), RLY_EINVAL);
}

static void test_names(void **state)
{
    (void)state;
    assert_true(rly_name_ok("12"));
    assert_true(rly_name_ok("table-3.b_2"));
    assert_false(rly_name_ok(""));
    assert_false(rly_name_ok(".."));
    assert_false(rly_name_ok("a/b"));
    assert_false(rly_name_ok("a+"));
    assert_false(rly_name_ok("#"));
    assert_false(rly_name_ok("board 1"));
    assert_false(rly_name_ok(NULL));
    char longname[80];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    assert_false(rly_name_ok(longname));
}

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kc-relay-unit.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void free_pending(rly_jentry_t *p, int n)
{
    for (int i = 0; i < n; i++)
        free(p[i].payload);
    free(p);
}

static void test_journal(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/j.relay", tmpdir);
    rly_journal_t *j;
    rly_jentry_t *p;
    int n, skipped;
    assert_int_equal(rly_journal_open(path, 0, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(n, 0);
    free(p);
    for (int s = 1; s <= 5; s++) {
        char pl[64];
        snprintf(pl, sizeof pl, "{\"event\":\"move\",\"n\":%d}", s);
        assert_int_equal(rly_journal_append(j, 100, (uint64_t)s, pl), RLY_OK);
    }
    assert_int_equal(rly_journal_append(j, 100, 6, "{\"a\":1}\n"), RLY_EINVAL);   /* one line */
    assert_int_equal(rly_journal_ack(j, 100, 1), RLY_OK);
    assert_int_equal(rly_journal_ack(j, 100, 3), RLY_OK);
    rly_journal_close(j);
    /* a crash in the middle of a line */
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("E 100 6 {\"event\":\"mo", f);
    fclose(f);
    assert_int_equal(rly_journal_open(path, 1, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(n, 3);
    assert_int_equal(skipped, 1);
    assert_int_equal(p[0].seq, 2);
    assert_int_equal(p[1].seq, 4);
    assert_int_equal(p[2].seq, 5);
    assert_int_equal(p[2].run, 100);
    assert_string_equal(p[2].payload, "{\"event\":\"move\",\"n\":5}");
    free_pending(p, n);
    /* compacted: reopened once more, the same three */
    rly_journal_close(j);
    assert_int_equal(rly_journal_open(path, 1, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(n, 3);
    assert_int_equal(skipped, 0);
    free_pending(p, n);
    assert_int_equal(rly_journal_clear(j), RLY_OK);
    rly_journal_close(j);
    assert_int_equal(rly_journal_open(path, 1, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(n, 0);
    free(p);
    rly_journal_close(j);
    /* without resume the old events are dropped */
    assert_int_equal(rly_journal_open(path, 0, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(rly_journal_append(j, 7, 1, "{}"), RLY_OK);
    rly_journal_close(j);
    free(p);
    assert_int_equal(rly_journal_open(path, 0, &p, &n, &skipped, &j), RLY_OK);
    assert_int_equal(n, 0);
    free(p);
    rly_journal_close(j);
    /* a folder that does not exist */
    assert_int_equal(rly_journal_open("/nonexistent-dir/j.relay", 0, &p, &n, &skipped, &j), RLY_EIO);
}

static hub_t *table(void)
{
    hub_config_t c;
    hub_config_defaults(&c);
    c.port = -1;   /* no HTTP, no broker: the table alone */
    hub_t *h = NULL;
    char err[160];
    assert_int_equal(hub_create(&c, &h, err, sizeof err), HUB_OK);
    return h;
}

static int feed(hub_t *h, const char *topic, const char *json)
{
    return hub_feed(h, topic, json, strlen(json), 1000);
}

/* A state with n moves and relay (run, seq). */
static char *state(int n, uint64_t run, uint64_t seq)
{
    json_t *mv = json_array();
    for (int i = 1; i <= n; i++)
        json_array_append_new(mv, json_pack("{s:i,s:s,s:s}", "n", i, "color", i % 2 ? "B" : "W",
                                            "point", "dd"));
    json_t *o = json_pack("{s:i,s:[s,s],s:o,s:s,s:{s:I,s:I}}", "size", 2, "board", "X.", "..",
                          "moves", mv, "phase", "play", "relay", "run", (json_int_t)run, "seq",
                          (json_int_t)seq);
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

static void test_hub_table(void **state_)
{
    (void)state_;
    hub_t *h = table();
    char *s1 = state(1, 10, 1), *s3 = state(3, 10, 3), *s2 = state(2, 10, 2), *r2 = state(2, 11, 1);
    assert_int_equal(feed(h, "kifucam/7/state", s1), 1);
    assert_int_equal(feed(h, "kifucam/7/state", s3), 1);
    assert_int_equal(feed(h, "kifucam/7/state", s2), 0);   /* older: a resend, stale */
    assert_int_equal(feed(h, "kifucam/12/state", s1), 1);
    hub_status_t st;
    hub_status(h, &st);
    assert_int_equal(st.boards, 2);
    assert_int_equal(st.states, 3);
    assert_int_equal(st.stale, 1);
    char *bj = hub_boards_json(h);
    json_error_t e;
    json_t *o = json_loads(bj, 0, &e);
    assert_non_null(o);
    json_t *boards = json_object_get(o, "boards");
    assert_int_equal(json_array_size(boards), 2);
    json_t *b7 = json_array_get(boards, 1);   /* sorted by name: "12" < "7" */
    assert_string_equal(json_string_value(json_object_get(b7, "board")), "7");
    assert_int_equal(json_array_size(json_object_get(b7, "moves")), 3);
    assert_int_equal(json_array_size(json_object_get(b7, "position")), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(b7, "position"), 0)), "X.");
    assert_true(json_is_null(json_object_get(b7, "online")));
    json_decref(o);
    free(bj);
    /* a resumed station (a later run) replaces it even with a lower seq */
    assert_int_equal(feed(h, "kifucam/7/state", r2), 1);
    /* status, events: a duplicate dropped, an older run's still counted once */
    assert_int_equal(feed(h, "kifucam/7/status", "{\"online\":true}"), 1);
    assert_int_equal(feed(h, "kifucam/7/event", "{\"event\":\"move\",\"relay\":{\"run\":11,\"seq\":2}}"), 1);
    assert_int_equal(feed(h, "kifucam/7/event", "{\"event\":\"move\",\"relay\":{\"run\":11,\"seq\":2}}"), 0);
    assert_int_equal(feed(h, "kifucam/7/event", "{\"event\":\"move\",\"relay\":{\"run\":10,\"seq\":9}}"), 1);
    assert_int_equal(feed(h, "kifucam/7/sgf", "(;SZ[2])"), 1);
    /* malformed: counted, never a crash */
    assert_int_equal(feed(h, "kifucam/7/state", "{not json"), 0);
    assert_int_equal(feed(h, "kifucam/7/state", "[1,2]"), 0);
    assert_int_equal(feed(h, "kifucam/7/state", "{\"size\":19}"), 0);   /* no relay stamp */
    assert_int_equal(feed(h, "kifucam/a+b/state", s1), 0);
    assert_int_equal(feed(h, "kifucam/7/other", s1), 0);
    assert_int_equal(feed(h, "elsewhere/7/state", s1), 0);
    assert_int_equal(feed(h, "kifucam/7/status", "{\"online\":3}"), 0);
    assert_int_equal(hub_feed(h, "kifucam/7/state", "", 0, 1), 0);
    assert_int_equal(hub_feed(h, "kifucam/7/state", "\0\0\0", 3, 1), 0);
    hub_status(h, &st);
    assert_int_equal(st.events, 2);
    assert_int_equal(st.dups, 1);
    assert_true(st.bad >= 6);
    bj = hub_boards_json(h);
    o = json_loads(bj, 0, &e);
    b7 = json_array_get(json_object_get(o, "boards"), 1);
    assert_true(json_is_true(json_object_get(b7, "online")));
    assert_int_equal(json_array_size(json_object_get(b7, "moves")), 2);
    assert_int_equal(json_integer_value(json_object_get(b7, "events")), 2);
    json_decref(o);
    free(bj);
    free(s1);
    free(s2);
    free(s3);
    free(r2);
    hub_destroy(h);
}

static void test_create_errors(void **state)
{
    (void)state;
    rly_config_t c;
    rly_config_defaults(&c);
    rly_t *r = NULL;
    char err[256];
    c.url = "mqtt://127.0.0.1:1/x";
    c.board = "bad name";
    assert_int_equal(rly_create(&c, &r, err, sizeof err), RLY_EINVAL);
    assert_non_null(strstr(err, "board name"));
    c.board = "1";
    c.url = "mqtt://host/#";
    assert_int_equal(rly_create(&c, &r, err, sizeof err), RLY_EINVAL);
    c.url = "mqtt://127.0.0.1:1/x";
    c.ca_file = "/nonexistent/ca.pem";
    assert_int_equal(rly_create(&c, &r, err, sizeof err), RLY_ETLS);
    assert_non_null(strstr(err, "/nonexistent/ca.pem"));
    assert_null(r);
    rly_destroy(NULL);
    hub_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_url_good),
        cmocka_unit_test(test_url_bad),
        cmocka_unit_test(test_names),
        cmocka_unit_test_setup_teardown(test_journal, setup_dir, teardown_dir),
        cmocka_unit_test(test_hub_table),
        cmocka_unit_test(test_create_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
