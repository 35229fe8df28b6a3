/* test_relay_tls.c: the relay over TLS (mqtts://, --relay-ca, --broker-ca) with a real
 * mosquitto whose listener has TLS only, and certificates made here by openssl (a
 * throwaway CA, another one, a server certificate for 127.0.0.1/localhost and one for
 * another host name, all in a temporary folder), the kifucam binary ($KIFUCAM_BIN) and 8
 * moves of samples/games/demo.sgf rendered once:
 *   - the right CA: `kifucam record --relay mqtts://... --relay-ca` delivers every event and
 *     `kifucam hub --broker-ca` holds every move in order, the live record equal to the
 *     disk's; the same station without TLS delivers nothing to that listener;
 *   - another CA: refused in one line that says so, the record complete on disk, exit 1
 *     (the station), exit 2 in one line (the hub); a certificate of the right CA for
 *     another host is refused too;
 *   - a CA file that is missing, not a certificate, a key, a folder: exit 2 in one line,
 *     before anything is recorded (both commands);
 *   - the broker SIGKILLed mid-game and started again: the station's relay and the hub
 *     (rly.h, hub.h in this process) both come back over TLS, every move at the hub.
 * Skips (77, "SKIP:" printed) when mosquitto or openssl is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "web/http_client.h"
#include "relay/hub.h"
#include "relay/rly.h"
#include "broker.h"

#define NMOVES 8

static char dir[64];
static const char *kc;
#include "cli_util.h"  /* needs dir and kc */
static int have_tools;          /* mosquitto and openssl, and the certificates made */

typedef struct hub_proc {
    pid_t pid;
    int port;
} hub_proc_t;

/* The brokers and the hub of the tests, here and not on their stacks, so that
 * end_children ends them after a failed assertion too (cmocka leaves the test by
 * longjmp). */
static tb_broker_t brokers[2];
static hub_proc_t hub_child;

static int setup(void **state)
{
    (void)state;
    kc = getenv("KIFUCAM_BIN");
    snprintf(dir, sizeof dir, "/tmp/kc-relay-tls.XXXXXX");
    if (!kc || !mkdtemp(dir))
        return -1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s/foot' --size 640x360 --seed 2 "
             "--fps 15 --pace 0.3 --moves %d >/dev/null 2>&1", kc, kc_source_dir(), dir, NMOVES);
    if (kc_run(cmd) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "%s/notcert.pem", dir);
    FILE *f = fopen(cmd, "w");
    if (!f)
        return -1;
    fputs("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n", f);
    fclose(f);
    have_tools = tb_mosquitto() && tb_openssl();
    if (have_tools && (tb_make_ca(dir, "ca") || tb_make_ca(dir, "other") ||
                       tb_make_cert(dir, "srv", "ca", "IP:127.0.0.1,DNS:localhost") ||
                       tb_make_cert(dir, "srvname", "ca", "DNS:other.invalid")))
        return -1;
    return 0;
}

/* After each test, passed or failed: its brokers and hub are ended. */
static int end_children(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++)
        tb_broker_kill(&brokers[i]);
    if (hub_child.pid > 0) {
        kill(hub_child.pid, SIGKILL);
        waitpid(hub_child.pid, NULL, 0);
        hub_child.pid = 0;
    }
    return 0;
}

static int teardown(void **state)
{
    end_children(state);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void need_tools(void)
{
    if (!have_tools) {
        print_message("SKIP: %s is not installed (scripts/bootstrap.sh test)\n",
                      tb_mosquitto() ? "openssl" : "mosquitto");
        skip();
    }
}

/* dir/NAME into buf */
static const char *at(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

/* A broker in dir/SUB whose listener has TLS with the server certificate CERT (of the CA
 * "ca"), started; its mqtts:// URL with prefix tls/SUB into url. */
static void tls_broker(tb_broker_t *b, const char *sub, const char *cert, char *url, size_t len)
{
    char d[128], ca[128], crt[128], key[128], name[64];
    tb_broker_kill(b);   /* the slot's earlier broker, if any: init forgets its pid */
    at(sub, d, sizeof d);
    mkdir(d, 0755);
    assert_int_equal(tb_broker_init(b, d, NULL, NULL), 0);
    snprintf(name, sizeof name, "%s.pem", cert);
    at(name, crt, sizeof crt);
    snprintf(name, sizeof name, "%s.key", cert);
    at(name, key, sizeof key);
    assert_int_equal(tb_broker_tls(b, at("ca.pem", ca, sizeof ca), crt, key), 0);
    assert_int_equal(tb_broker_start(b), 0);
    snprintf(url, len, "mqtts://127.0.0.1:%d/tls/%s", b->port, sub);
}

/* `kifucam hub --broker URL --broker-ca CA --serve 127.0.0.1:PORT` in the background,
 * waited for until its broker is up (5 s at most). */
static void hub_start(hub_proc_t *hp, const char *url, const char *ca, const char *tag)
{
    hp->port = tb_free_port();
    char serve[64], log[256];
    snprintf(serve, sizeof serve, "127.0.0.1:%d", hp->port);
    snprintf(log, sizeof log, "%s/hub-%s.log", dir, tag);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(kc, "kifucam", "hub", "--broker", url, "--broker-ca", ca, "--serve", serve,
              "--token", "tok", (char *)NULL);
        _exit(127);
    }
    hp->pid = pid;
    for (int i = 0; i < 250 && !tb_port_open(hp->port); i++)
        tb_sleep_ms(20);
    assert_true(tb_port_open(hp->port));
    int up = 0;
    for (int t = 0; t < 5000 && !up; t += 50) {
        hc_resp_t r;
        up = hc_get(hp->port, "/boards.json", &r) == 0 && r.status == 200 &&
             strstr(r.body, "\"broker\":\"up\"");
        hc_resp_free(&r);
        if (!up)
            tb_sleep_ms(50);
    }
    if (!up) {
        static char said[4096];
        kc_read_into(log, said, sizeof said);
        fail_msg("the hub did not connect over TLS: %s", said);
    }
    tb_sleep_ms(200);   /* subscribed */
}

static void hub_stop(hub_proc_t *hp)
{
    kill(hp->pid, SIGTERM);
    int st = 0;
    waitpid(hp->pid, &st, 0);
    hp->pid = 0;
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The board at the hub: its moves as "B[pd]W[dp]..." (each numbered n = 1, 2, ... or a
 * note saying which is not) and its events counted; "" and -1 when it is not there. */
static void hub_board(int port, const char *board, char *out, size_t len, long long *events)
{
    out[0] = 0;
    *events = -1;
    hc_resp_t r;
    char path[128];
    snprintf(path, sizeof path, "/board/%s.json", board);
    if (hc_get(port, path, &r) != 0 || r.status != 200) {
        hc_resp_free(&r);
        return;
    }
    json_t *o = json_loads(r.body, 0, NULL);
    hc_resp_free(&r);
    *events = json_integer_value(json_object_get(o, "events"));
    size_t k, n = 0;
    json_t *m;
    json_array_foreach(json_object_get(o, "moves"), k, m) {
        if (json_integer_value(json_object_get(m, "n")) != (json_int_t)k + 1) {
            snprintf(out, len, "move %zu numbered %lld", k + 1,
                     (long long)json_integer_value(json_object_get(m, "n")));
            break;
        }
        n += (size_t)snprintf(out + n, len - n, "%s[%s]",
                              json_string_value(json_object_get(m, "color")),
                              json_string_value(json_object_get(m, "point")));
        if (n >= len)
            break;
    }
    json_decref(o);
}

/* Occurrences of needle in s. */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The moves of the SGF at path, checked to be all NMOVES of the footage. */
static void disk_moves(const char *path, char *want, size_t len)
{
    char *sgf = kc_slurp(path, NULL);
    assert_non_null(sgf);
    sgf_moves(sgf, want, len);
    free(sgf);
    assert_int_equal(strlen(want), NMOVES * 5);
}

/* (a) The right CA, for the station and the hub: every event delivered, every move at
 * the hub in order, the live record equal to the disk's. */
static void test_tls_relayed(void **state)
{
    (void)state;
    need_tools();
    tb_broker_t *b = &brokers[0];
    char url[128], ca[128], sgf[128], args[1024], want[512], got[512] = "";
    tls_broker(b, "a", "srv", url, sizeof url);
    at("ca.pem", ca, sizeof ca);
    hub_proc_t *hp = &hub_child;
    hub_start(hp, url, ca, "a");
    at("a.sgf", sgf, sizeof sgf);
    snprintf(args, sizeof args, "--sgf '%s' --relay %s --relay-ca '%s' --board 7 --round 2 "
             "--format json", sgf, url, ca);
    assert_int_equal(record(args, "a"), 0);
    const char *out = text("a", "out");
    assert_non_null(strstr(out, "relay: everything delivered to mqtts://"));
    /* the events it published: every line but its own relay notes and the stats */
    long long sent = lines(out) - count(out, "{\"event\":\"relay\"") - count(out, "{\"event\":\"stats\"");
    assert_true(sent >= NMOVES + 1);
    assert_int_equal(count(out, "{\"event\":\"move\""), NMOVES);
    disk_moves(sgf, want, sizeof want);
    long long events = -1;
    for (int t = 0; t <= 3000; t += 50) {
        hub_board(hp->port, "7", got, sizeof got, &events);
        if (!strcmp(got, want) && events == sent)
            break;
        tb_sleep_ms(50);
    }
    print_message("the hub over TLS: moves '%s', %lld events (the station sent %lld)\n", got,
                  events, sent);
    assert_string_equal(got, want);
    assert_int_equal(events, sent);
    hc_resp_t r;
    assert_int_equal(hc_get(hp->port, "/board/7.sgf", &r), 0);
    assert_int_equal(r.status, 200);
    char *disk = kc_slurp(sgf, NULL);
    assert_string_equal(r.body, disk);
    free(disk);
    hc_resp_free(&r);
    hub_stop(hp);
    /* the listener speaks TLS only: the same station in plain MQTT delivers nothing */
    snprintf(args, sizeof args, "--sgf '%s/a2.sgf' --relay mqtt://127.0.0.1:%d/tls/a --board 8 "
             "--relay-flush 0.3 --start-frame 200", dir, b->port);   /* the last frames: quick */
    assert_int_equal(record(args, "a2"), 1);
    assert_non_null(strstr(text("a2", "err"), "not delivered"));
    tb_broker_kill(b);
}

/* (b) Another CA: the broker's certificate refused in one line; the record complete on
 * disk and its events journaled; exit 1. The hub: exit 2, one line. The right CA's
 * certificate for another host: refused too. */
static void test_tls_wrong_ca(void **state)
{
    (void)state;
    need_tools();
    tb_broker_t *b = &brokers[0], *b2 = &brokers[1];
    char url[128], other[128], ca[128], sgf[128], args[1024], want[512], head[512], cmd[1024];
    tls_broker(b, "b", "srv", url, sizeof url);
    at("other.pem", other, sizeof other);
    at("b.sgf", sgf, sizeof sgf);
    snprintf(args, sizeof args, "--sgf '%s' --relay %s --relay-ca '%s' --board 9 --relay-flush 0.5",
             sgf, url, other);
    assert_int_equal(record(args, "b"), 1);
    const char *err = text("b", "err");
    print_message("stderr: %s", err);
    /* the refusal when it happened, and the end's account: each one line saying why */
    snprintf(head, sizeof head, "kifucam record: relay: %s: TLS: the broker's certificate is "
             "refused: it is not signed by the CA in %s (", url, other);
    assert_int_equal(lines(err), 2);
    assert_int_equal(count(err, head), 2);
    assert_true(!strncmp(err, head, strlen(head)));
    const char *nl = strchr(err, '\n');
    assert_non_null(nl);
    assert_true(nl - err > 20 && !strncmp(nl - 19, ": recording locally", 19));
    assert_non_null(strstr(nl, "not delivered, kept in"));
    disk_moves(sgf, want, sizeof want);   /* every move recorded locally */
    char journal[160];
    snprintf(journal, sizeof journal, "%s.relay", sgf);
    char *j = kc_slurp(journal, NULL);
    assert_non_null(j);
    assert_int_equal(count(j, "\"event\":\"move\""), NMOVES);   /* kept for --resume */
    free(j);
    /* the hub with that CA: refused, exit 2 in one line */
    snprintf(cmd, sizeof cmd, "timeout 20 '%s' hub --broker %s --broker-ca '%s' --serve 127.0.0.1:0 "
             ">/dev/null 2>'%s/hub-b.err'", kc, url, other, dir);
    assert_int_equal(kc_run(cmd), 2);
    err = text("hub-b", "err");
    print_message("hub: %s", err);
    assert_int_equal(lines(err), 1);
    snprintf(head, sizeof head, "kifucam hub: --broker: TLS: the broker's certificate is refused: "
             "it is not signed by the CA in %s (", other);
    assert_true(!strncmp(err, head, strlen(head)));
    tb_broker_kill(b);
    /* the right CA, a certificate for another host: the host is checked */
    tls_broker(b2, "b2", "srvname", url, sizeof url);
    snprintf(args, sizeof args, "--sgf '%s/b2.sgf' --relay %s --relay-ca '%s' --board 9 "
             "--relay-flush 0.3 --start-frame 200", dir, url, at("ca.pem", ca, sizeof ca));
    assert_int_equal(record(args, "b2"), 1);
    err = text("b2", "err");
    print_message("stderr: %s", err);
    assert_int_equal(lines(err), 2);
    assert_non_null(strstr(err, "TLS: the broker's certificate is refused: it is not for "
                                "127.0.0.1 (its names do not match the URL's host): recording "
                                "locally\n"));
    tb_broker_kill(b2);
}

/* (c) A CA file that cannot be used: exit 2 in one line before anything is recorded. */
static void test_tls_bad_ca_file(void **state)
{
    (void)state;
    need_tools();
    char files[4][128], args[1024], cmd[1024], sgf[128];
    at("missing.pem", files[0], sizeof files[0]);
    at("notcert.pem", files[1], sizeof files[1]);
    at("srv.key", files[2], sizeof files[2]);   /* PEM, but a key */
    at("foot", files[3], sizeof files[3]);      /* a folder */
    static const char *const why[4] = { "cannot read the CA file (No such file or directory)",
                                        "not a CA file: no readable PEM certificate in it",
                                        "not a CA file: no readable PEM certificate in it",
                                        "not a CA file: not a regular file" };
    at("c.sgf", sgf, sizeof sgf);
    for (int i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "--sgf '%s' --relay mqtts://127.0.0.1:1/x --relay-ca '%s'",
                 sgf, files[i]);
        assert_int_equal(record(args, "c"), 2);
        const char *err = text("c", "err");
        print_message("%s", err);
        assert_int_equal(lines(err), 1);
        assert_non_null(strstr(err, files[i]));
        assert_non_null(strstr(err, why[i]));
        assert_int_not_equal(access(sgf, F_OK), 0);   /* nothing recorded */
        snprintf(cmd, sizeof cmd, "timeout 20 '%s' hub --broker mqtts://127.0.0.1:1/x --broker-ca "
                 "'%s' --serve 127.0.0.1:0 >/dev/null 2>'%s/hub-c.err'", kc, files[i], dir);
        assert_int_equal(kc_run(cmd), 2);
        err = text("hub-c", "err");
        assert_int_equal(lines(err), 1);
        assert_non_null(strstr(err, why[i]));
    }
}

/* Move n of a game: its event and the state with moves 1..n. */
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

/* The number of moves of board at the hub when they are 1..n in order, else -1. */
static int hub_lib_moves(hub_t *h, const char *board)
{
    char *bj = hub_boards_json(h);
    json_t *o = json_loads(bj, 0, NULL);
    free(bj);
    size_t i;
    json_t *b;
    int moves = -1;
    json_array_foreach(json_object_get(o, "boards"), i, b) {
        if (strcmp(json_string_value(json_object_get(b, "board")), board))
            continue;
        json_t *mv = json_object_get(b, "moves");
        moves = (int)json_array_size(mv);
        for (size_t k = 0; k < json_array_size(mv); k++)
            if (json_integer_value(json_object_get(json_array_get(mv, k), "n")) != (json_int_t)k + 1)
                moves = -1;
    }
    json_decref(o);
    return moves;
}

static int wait_up(rly_t *r, hub_t *h, int ms)
{
    for (int t = 0; t <= ms; t += 20) {
        rly_status_t rs;
        hub_status_t hs;
        rly_status(r, &rs);
        hub_status(h, &hs);
        if (rs.link == RLY_LINK_UP && hs.link == 1)
            return 1;
        tb_sleep_ms(20);
    }
    return 0;
}

/* (d) The broker SIGKILLed mid-game (a TLS link dropped without a goodbye) and started
 * again: the station's relay and the hub both connect again over TLS. */
static void test_tls_broker_restart(void **state)
{
    (void)state;
    need_tools();
    tb_broker_t *b = &brokers[0];
    char url[128], ca[128];
    tls_broker(b, "d", "srv", url, sizeof url);
    at("ca.pem", ca, sizeof ca);
    hub_config_t hc;
    hub_config_defaults(&hc);
    hc.url = url;
    hc.ca_file = ca;
    hc.port = -1;
    hc.backoff_max_s = 1;
    hub_t *h = NULL;
    char err[256];
    assert_int_equal(hub_create(&hc, &h, err, sizeof err), HUB_OK);
    rly_config_t c;
    rly_config_defaults(&c);
    c.url = url;
    c.board = "11";
    c.ca_file = ca;
    c.backoff_min_s = 0.05;
    c.backoff_max_s = 0.5;
    c.keepalive_s = 5;
    rly_t *r = NULL;
    assert_int_equal(rly_create(&c, &r, err, sizeof err), RLY_OK);
    assert_true(wait_up(r, h, 5000));
    tb_sleep_ms(200);
    for (int n = 1; n <= 8; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    int moves = -1;
    for (int t = 0; t <= 3000 && moves != 8; t += 20) {
        moves = hub_lib_moves(h, "11");
        tb_sleep_ms(20);
    }
    assert_int_equal(moves, 8);
    tb_broker_kill(b);
    for (int n = 9; n <= 14; n++) {   /* played while there is no broker */
        play(r, n);
        tb_sleep_ms(100);
    }
    assert_int_equal(tb_broker_start(b), 0);
    int up = wait_up(r, h, 8000);
    rly_status_t rs;
    hub_status_t hs;
    rly_status(r, &rs);
    hub_status(h, &hs);
    print_message("after the restart: station link %d (%s), hub link %d (%s)\n", rs.link,
                  rs.reason, hs.link, hs.reason);
    assert_true(up);
    tb_sleep_ms(200);   /* the hub subscribed again */
    for (int n = 15; n <= 18; n++)
        play(r, n);
    assert_int_equal(rly_flush(r, 5), RLY_OK);
    for (int t = 0; t <= 3000 && moves != 18; t += 20) {
        moves = hub_lib_moves(h, "11");
        tb_sleep_ms(20);
    }
    assert_int_equal(moves, 18);
    rly_destroy(r);
    hub_destroy(h);
    tb_broker_kill(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_tls_relayed, end_children),
        cmocka_unit_test_teardown(test_tls_wrong_ca, end_children),
        cmocka_unit_test_teardown(test_tls_bad_ca_file, end_children),
        cmocka_unit_test_teardown(test_tls_broker_restart, end_children),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
