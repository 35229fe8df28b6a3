/* test_relay_cli.c: `kifucam record --relay` and `kifucam hub` end to end, with the binary
 * ($KIFUCAM_BIN), a real mosquitto started here on a loopback port of its own, and 8 moves
 * of samples/games/demo.sgf rendered by `kifucam render` (640x360, once, into a temporary
 * folder). Each case compares the hub's /boards.json and /board/NAME.sgf with the SGF the
 * station wrote: every move, in order, none doubled.
 *   - a plain recording relayed; the hub's pages answer; an action without token is 401;
 *   - the command-line contract: a malformed URL or board name is exit 2 with one line;
 *   - a wrong password: refused with one line, the record complete on disk, exit 1;
 *   - no broker at all: the record complete, exit 1, the events kept in SGF.relay; then
 *     `--resume` with the broker up sends them: the station restart;
 *   - the broker killed and restarted during a --realtime recording. */
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
#include "broker.h"

#define NMOVES 8

static char dir[64];
static const char *kc;
#include "cli_util.h"  /* needs dir and kc */

static int setup(void **state)
{
    (void)state;
    kc = getenv("KIFUCAM_BIN");
    snprintf(dir, sizeof dir, "/tmp/kc-relay-cli.XXXXXX");
    if (!kc || !mkdtemp(dir))
        return -1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s/foot' --size 640x360 --seed 2 "
             "--fps 15 --pace 0.3 --moves %d >/dev/null 2>&1", kc, kc_source_dir(), dir, NMOVES);
    return kc_run(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void need_mosquitto(void)
{
    if (!tb_mosquitto()) {
        print_message("SKIP: mosquitto is not installed (scripts/bootstrap.sh test)\n");
        skip();
    }
}

typedef struct hub_proc {
    pid_t pid;
    int port;
} hub_proc_t;

/* `kifucam hub --broker URL --serve 127.0.0.1:PORT` in the background, waited for. */
static void hub_start(hub_proc_t *hp, const char *url, const char *tag)
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
        execl(kc, "kifucam", "hub", "--broker", url, "--serve", serve, "--token", "tok",
              (char *)NULL);
        _exit(127);
    }
    hp->pid = pid;
    for (int i = 0; i < 250 && !tb_port_open(hp->port); i++)
        tb_sleep_ms(20);
    assert_true(tb_port_open(hp->port));
}

static void hub_stop(hub_proc_t *hp)
{
    kill(hp->pid, SIGTERM);
    int st = 0;
    waitpid(hp->pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The board's moves at the hub as "B[pd]W[dp]...", with n checked to count 1, 2, ...;
 * "" when the board is not there. */
static void hub_moves(int port, const char *board, char *out, size_t len)
{
    out[0] = 0;
    hc_resp_t r;
    if (hc_get(port, "/boards.json", &r) != 0 || r.status != 200) {
        hc_resp_free(&r);
        return;
    }
    json_t *o = json_loads(r.body, 0, NULL);
    hc_resp_free(&r);
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(o, "boards"), i, b) {
        if (strcmp(json_string_value(json_object_get(b, "board")), board))
            continue;
        size_t k, n = 0;
        json_t *m;
        json_array_foreach(json_object_get(b, "moves"), k, m) {
            if (json_integer_value(json_object_get(m, "n")) != (json_int_t)k + 1) {
                snprintf(out, len, "move %zu numbered %lld", k + 1,
                         (long long)json_integer_value(json_object_get(m, "n")));
                json_decref(o);
                return;
            }
            n += (size_t)snprintf(out + n, len - n, "%s[%s]",
                                  json_string_value(json_object_get(m, "color")),
                                  json_string_value(json_object_get(m, "point")));
            if (n >= len)
                break;
        }
    }
    json_decref(o);
}

/* Wait up to ms for the hub to hold exactly the moves of the SGF at path. */
static void expect_hub(int port, const char *board, const char *path, int ms)
{
    char *sgf = kc_slurp(path, NULL);
    assert_non_null(sgf);
    char want[4096], got[4096] = "";
    sgf_moves(sgf, want, sizeof want);
    free(sgf);
    assert_true(strlen(want) >= NMOVES * 5);
    for (int t = 0; t <= ms; t += 50) {
        hub_moves(port, board, got, sizeof got);
        if (!strcmp(got, want))
            return;
        tb_sleep_ms(50);
    }
    fail_msg("board %s at the hub: '%s', the record: '%s'", board, got, want);
}

static void test_relayed(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], args[1024], sgf[256];
    snprintf(d, sizeof d, "%s/b1", dir);
    mkdir(d, 0755);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "cli/one", url, sizeof url);
    hub_proc_t hp;
    hub_start(&hp, url, "one");
    snprintf(sgf, sizeof sgf, "%s/one.sgf", dir);
    snprintf(args, sizeof args, "--sgf '%s' --relay %s --board 12 --round 3 --black Lee --white Gu",
             sgf, url);
    assert_int_equal(record(args, "one"), 0);
    assert_non_null(strstr(text("one", "out"), "relay: everything delivered"));
    expect_hub(hp.port, "12", sgf, 3000);
    /* the live record, the pages, the token rule */
    hc_resp_t r;
    assert_int_equal(hc_get(hp.port, "/board/12.sgf", &r), 0);
    assert_int_equal(r.status, 200);
    char *disk = kc_slurp(sgf, NULL);
    assert_string_equal(r.body, disk);
    free(disk);
    hc_resp_free(&r);
    static const char *const pages[] = { "/", "/overlay", "/overlay?board=12", "/kc.js",
                                         "/kc-overlay.js", "/hub.js", "/hub.css", "/board/12.json",
                                         NULL };
    for (int i = 0; pages[i]; i++) {
        assert_int_equal(hc_get(hp.port, pages[i], &r), 0);
        if (r.status != 200)
            fail_msg("%s: %d", pages[i], r.status);
        hc_resp_free(&r);
    }
    assert_int_equal(hc_get(hp.port, "/board/13.sgf", &r), 0);
    assert_int_equal(r.status, 404);
    hc_resp_free(&r);
    assert_int_equal(hc_get(hp.port, "/../etc/passwd", &r), 0);
    assert_int_equal(r.status, 404);
    hc_resp_free(&r);
    assert_int_equal(hc_request(hp.port, "POST", "/api/forget?board=12", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    assert_int_equal(hc_request(hp.port, "POST", "/api/forget?board=12&token=nope", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    assert_int_equal(hc_get(hp.port, "/boards.json", &r), 0);
    assert_non_null(strstr(r.body, "\"name\":\"Lee\""));
    assert_non_null(strstr(r.body, "\"round\":\"3\""));
    hc_resp_free(&r);
    assert_int_equal(hc_request(hp.port, "POST", "/api/forget?board=12",
                                "Authorization: Bearer tok\r\n", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    char got[256];
    hub_moves(hp.port, "12", got, sizeof got);
    assert_string_equal(got, "");
    hub_stop(&hp);
    tb_broker_kill(&b);
}

static void test_bad_usage(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "--sgf '%s/bad.sgf' --relay mqtt://host/a/#", dir);
    assert_int_equal(record(args, "bad1"), 2);
    assert_int_equal(lines(text("bad1", "err")), 1);
    assert_non_null(strstr(text("bad1", "err"), "--relay"));
    snprintf(args, sizeof args, "--sgf '%s/bad.sgf' --relay http://host/x", dir);
    assert_int_equal(record(args, "bad2"), 2);
    assert_int_equal(lines(text("bad2", "err")), 1);
    snprintf(args, sizeof args, "--sgf '%s/bad.sgf' --relay mqtt://127.0.0.1:1/x --board 'a b'", dir);
    assert_int_equal(record(args, "bad3"), 2);
    assert_int_equal(lines(text("bad3", "err")), 1);
    snprintf(args, sizeof args, "--sgf '%s/bad.sgf' --board 5", dir);
    assert_int_equal(record(args, "bad4"), 2);   /* --board without --relay */
    assert_int_equal(lines(text("bad4", "err")), 1);
    snprintf(args, sizeof args, "--sgf '%s/bad.sgf' --relay mqtt://127.0.0.1:1/x --relay-ca /nonexistent.pem", dir);
    assert_int_equal(record(args, "bad5"), 2);
    assert_int_equal(lines(text("bad5", "err")), 1);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' hub --broker 'mqtt://h:99999/x' >/dev/null 2>'%s/hub-bad.err'", kc, dir);
    assert_int_equal(kc_run(cmd), 2);
    assert_int_equal(lines(text("hub-bad", "err")), 1);
    snprintf(cmd, sizeof cmd, "'%s' hub >/dev/null 2>'%s/hub-bad.err'", kc, dir);
    assert_int_equal(kc_run(cmd), 2);
}

static void test_wrong_password(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], args[1024], sgf[256];
    snprintf(d, sizeof d, "%s/b2", dir);
    mkdir(d, 0755);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, "station", "right"), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "cli/auth", url, sizeof url);
    snprintf(sgf, sizeof sgf, "%s/auth.sgf", dir);
    snprintf(args, sizeof args, "--sgf '%s' --relay %s --board 4 --relay-user station "
             "--relay-pass wrong --relay-flush 1 --format json", sgf, url);
    assert_int_equal(record(args, "auth"), 1);
    const char *err = text("auth", "err");
    print_message("stderr: %s", err);
    assert_non_null(strstr(err, "refused"));
    assert_non_null(strstr(err, "recording locally"));
    assert_null(strstr(err, "wrong"));   /* the password is never shown */
    char want[4096];
    char *disk = kc_slurp(sgf, NULL);
    assert_non_null(disk);
    sgf_moves(disk, want, sizeof want);
    free(disk);
    assert_int_equal(strlen(want), NMOVES * 5);   /* every move recorded locally */
    /* the hub itself refused: one line, exit 2 */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "KIFUCAM_HUB_PASS=nope timeout 20 '%s' hub --broker %s "
             "--broker-user station --serve 127.0.0.1:0 >/dev/null 2>'%s/hub-auth.err'", kc, url, dir);
    assert_int_equal(kc_run(cmd), 2);
    assert_int_equal(lines(text("hub-auth", "err")), 1);
    tb_broker_kill(&b);
}

static void test_no_broker_then_resume(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], args[1024], sgf[256], journal[300];
    snprintf(d, sizeof d, "%s/b3", dir);
    mkdir(d, 0755);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    tb_url(b.port, "cli/resume", url, sizeof url);
    snprintf(sgf, sizeof sgf, "%s/res.sgf", dir);
    snprintf(journal, sizeof journal, "%s.relay", sgf);
    snprintf(args, sizeof args, "--sgf '%s' --relay %s --board 9 --relay-flush 0.5", sgf, url);
    assert_int_equal(record(args, "res1"), 1);   /* nobody listens: recorded, not relayed */
    assert_non_null(strstr(text("res1", "out"), "broker unreachable"));
    assert_non_null(strstr(text("res1", "err"), "not delivered"));
    size_t jl = 0;
    char *j = kc_slurp(journal, &jl);
    assert_non_null(j);
    assert_true(jl > 0 && strstr(j, "\"event\":\"move\""));
    free(j);
    /* the broker and the hub come up; the station resumes on the footage's last frame */
    assert_int_equal(tb_broker_start(&b), 0);
    hub_proc_t hp;
    hub_start(&hp, url, "res");
    tb_sleep_ms(300);
    /* the last few frames only: the board is found again, no new move */
    char cmd[512], nf[32];
    snprintf(cmd, sizeof cmd, "ls '%s/foot' | grep -c '^frame_' > '%s/nf.txt'", dir, dir);
    assert_int_equal(kc_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/nf.txt", dir);
    kc_read_into(cmd, nf, sizeof nf);
    int frames = atoi(nf);
    assert_true(frames > 100);
    snprintf(args, sizeof args, "--resume '%s' --relay %s --board 9 --start-frame %d", sgf, url,
             frames - 4);
    assert_int_equal(record(args, "res2"), 0);
    expect_hub(hp.port, "9", sgf, 3000);
    hc_resp_t r;
    assert_int_equal(hc_get(hp.port, "/board/9.json", &r), 0);
    json_t *o = json_loads(r.body, 0, NULL);
    hc_resp_free(&r);
    /* the first run's events (its moves among them) came from the journal */
    assert_true(json_integer_value(json_object_get(o, "events")) >= NMOVES);
    json_decref(o);
    j = kc_slurp(journal, &jl);
    assert_int_equal(jl, 0);   /* all acknowledged */
    free(j);
    hub_stop(&hp);
    tb_broker_kill(&b);
}

static void test_broker_restart(void **state)
{
    (void)state;
    need_mosquitto();
    char d[128], url[128], sgf[256];
    snprintf(d, sizeof d, "%s/b4", dir);
    mkdir(d, 0755);
    tb_broker_t b;
    assert_int_equal(tb_broker_init(&b, d, NULL, NULL), 0);
    assert_int_equal(tb_broker_start(&b), 0);
    tb_url(b.port, "cli/restart", url, sizeof url);
    hub_proc_t hp;
    hub_start(&hp, url, "restart");
    snprintf(sgf, sizeof sgf, "%s/rst.sgf", dir);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' record --input '%s/foot' --fps 15 --realtime --sgf '%s' "
             "--relay %s --board 21 >'%s/rst.out' 2>'%s/rst.err'", kc, dir, sgf, url, dir, dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    tb_sleep_ms(4500);     /* about 3 moves in */
    tb_broker_kill(&b);
    tb_sleep_ms(3000);     /* 2 more moves with no broker */
    assert_int_equal(tb_broker_start(&b), 0);
    int st = 0;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    const char *out = text("rst", "out");
    assert_non_null(strstr(out, "broker unreachable"));
    assert_non_null(strstr(out, "connected to"));
    expect_hub(hp.port, "21", sgf, 5000);
    hub_stop(&hp);
    tb_broker_kill(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relayed),
        cmocka_unit_test(test_bad_usage),
        cmocka_unit_test(test_wrong_password),
        cmocka_unit_test(test_no_broker_then_resume),
        cmocka_unit_test(test_broker_restart),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
