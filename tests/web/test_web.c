/* test_web.c: the web server over real loopback HTTP: pages, published state, record and
 * frame, Server-Sent Events, the token, the actions' parameters (the station's and a
 * server's own table of actions), and bad requests
 * (oversized bodies, malformed JSON, unknown paths, traversal, half-open connections). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "web/web.h"
#include "http_client.h"
#include "testutil.h"

#define TOKEN "s3cret-token"

typedef struct seen {
    pthread_mutex_t mu;
    int calls;
    char name[32], point[8], color[8], body[256];
    int has_corners;
    double corners[4][2];
    int refuse;                 /* the callback refuses when set (2: as malformed) */
} seen_t;

static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    seen_t *s = user;
    pthread_mutex_lock(&s->mu);
    s->calls++;
    snprintf(s->name, sizeof s->name, "%s", a->name);
    snprintf(s->point, sizeof s->point, "%s", a->point ? a->point : "");
    snprintf(s->color, sizeof s->color, "%s", a->color ? a->color : "");
    snprintf(s->body, sizeof s->body, "%s", a->body ? a->body : "");
    s->has_corners = a->has_corners;
    memcpy(s->corners, a->corners, sizeof s->corners);
    int refuse = s->refuse;
    pthread_mutex_unlock(&s->mu);
    snprintf(msg, msglen, refuse ? "not now: %s" : "done: %s", a->name);
    return refuse == 2 ? WEB_ACTION_MALFORMED : refuse ? -1 : 0;
}

typedef struct fx {
    web_server_t *srv;
    int port;
    seen_t seen;
} fx_t;

static int setup_cfg(void **state, int timeout_s, int max_sse, int max_conn)
{
    fx_t *f = calloc(1, sizeof *f);
    pthread_mutex_init(&f->seen.mu, NULL);
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.token = TOKEN;
    cfg.connection_timeout_s = timeout_s;
    cfg.max_sse_clients = max_sse;
    cfg.max_body = 1024;
    cfg.keepalive_s = 1;
    if (max_conn)
        cfg.max_connections = max_conn;
    if (web_server_create(&cfg, on_action, &f->seen, &f->srv) != WEB_OK) {
        free(f);
        return -1;
    }
    f->port = web_server_port(f->srv);
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_cfg(state, 5, 8, 0); }
static int setup_short(void **state) { return setup_cfg(state, 1, 2, 0); }
static int setup_few(void **state) { return setup_cfg(state, 1, 2, 4); }

static int teardown(void **state)
{
    fx_t *f = *state;
    web_server_destroy(f->srv);
    pthread_mutex_destroy(&f->seen.mu);
    free(f);
    return 0;
}

static const char *STATE1 =
    "{\"size\":3,\"board\":[\"X..\",\"...\",\"..O\"],\n"
    " \"moves\":[{\"n\":1,\"color\":\"B\",\"point\":\"aa\"},{\"n\":2,\"color\":\"W\",\"point\":\"cc\"}],"
    " \"turn\":\"B\",\"phase\":\"play\",\"black\":{\"name\":\"Kuro \\\"K\\\"\",\"rank\":\"3d\"}}";

static void test_defaults_and_errors(void **state)
{
    (void)state;
    web_config_t cfg;
    web_config_defaults(&cfg);
    assert_int_equal(cfg.port, 0);
    assert_null(cfg.address);
    assert_true(cfg.max_connections > 0 && cfg.max_sse_clients > 0 && cfg.max_body > 0);
    cfg.address = "not-an-address";
    web_server_t *srv = (web_server_t *)0x1;
    assert_int_equal(web_server_create(&cfg, NULL, NULL, &srv), WEB_EINVAL);
    assert_ptr_equal(srv, (web_server_t *)0x1);   /* untouched on failure */
    assert_int_equal(web_server_create(NULL, NULL, NULL, NULL), WEB_EINVAL);
    assert_non_null(web_strerror(WEB_ESTART));
    assert_non_null(web_strerror(12345));
    web_server_destroy(NULL);
}

static void test_parse_listen(void **state)
{
    (void)state;
    web_config_t cfg;
    char buf[64];
    web_config_defaults(&cfg);
    assert_int_equal(web_config_parse_listen(&cfg, "0.0.0.0:8080", buf, sizeof buf), WEB_OK);
    assert_string_equal(cfg.address, "0.0.0.0");
    assert_int_equal(cfg.port, 8080);
    assert_int_equal(web_config_parse_listen(&cfg, "[::1]:9", buf, sizeof buf), WEB_OK);
    assert_string_equal(cfg.address, "::1");
    assert_int_equal(cfg.port, 9);
    assert_int_equal(web_config_parse_listen(&cfg, ":7000", buf, sizeof buf), WEB_OK);
    assert_string_equal(cfg.address, "127.0.0.1");
    assert_int_equal(cfg.port, 7000);
    assert_int_equal(web_config_parse_listen(&cfg, "8081", buf, sizeof buf), WEB_OK);
    assert_string_equal(cfg.address, "127.0.0.1");
    assert_int_equal(cfg.port, 8081);
    const char *bad[] = { "", ":", "host:", "localhost:80", "1.2.3.4:65536", "1.2.3.4:-1",
                          "::1:80", "[::1]80", "[::1", "1.2.3.4:8x", "999.1.1.1:80",
                          "1.2.3.4:99999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cfg.port = 1234;
        if (web_config_parse_listen(&cfg, bad[i], buf, sizeof buf) != WEB_EINVAL)
            print_message("accepted: %s\n", bad[i]);
        assert_int_equal(web_config_parse_listen(&cfg, bad[i], buf, sizeof buf), WEB_EINVAL);
        assert_int_equal(cfg.port, 1234);
    }
    assert_int_equal(web_config_parse_listen(&cfg, "127.0.0.1:80", buf, 4), WEB_EINVAL);
}

static void test_generated_token_and_port(void **state)
{
    (void)state;
    web_server_t *srv = NULL;
    assert_int_equal(web_server_create(NULL, NULL, NULL, &srv), WEB_OK);
    assert_true(web_server_port(srv) > 0);
    assert_int_equal(strlen(web_server_token(srv)), 32);
    /* no callback: an authorised action is refused with 409 */
    char hdr[128];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", web_server_token(srv));
    hc_resp_t r = { 0 };
    assert_int_equal(hc_request(web_server_port(srv), "POST", "/api/pass", hdr, NULL, &r), 0);
    assert_int_equal(r.status, 409);
    hc_resp_free(&r);
    web_server_destroy(srv);
}

static void test_ipv6_loopback(void **state)
{
    (void)state;
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.address = "::1";
    web_server_t *srv = NULL;
    int rc = web_server_create(&cfg, NULL, NULL, &srv);
    if (rc == WEB_ESTART) {                 /* no IPv6 on this machine */
        print_message("SKIP: no IPv6 loopback\n");
        skip();
    }
    assert_int_equal(rc, WEB_OK);
    assert_true(web_server_port(srv) > 0);
    web_server_destroy(srv);
}

static void test_pages(void **state)
{
    fx_t *f = *state;
    const char *pages[] = { "/overlay", "/overlay?bg=none&size=600", "/console?token=x",
                            "/kc.js", "/kc.css", "/" };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        hc_resp_t r = { 0 };
        assert_int_equal(hc_get(f->port, pages[i], &r), 0);
        assert_int_equal(r.status, 200);
        assert_true(r.body_len > 0);
        hc_resp_free(&r);
    }
    hc_resp_t r = { 0 };
    hc_get(f->port, "/overlay", &r);
    assert_non_null(strstr(r.head, "text/html"));
    assert_non_null(strstr(r.body, "kc.js"));
    hc_resp_free(&r);
    hc_get(f->port, "/kc.js", &r);
    assert_non_null(strstr(r.head, "javascript"));
    assert_non_null(strstr(r.body, "EventSource"));
    hc_resp_free(&r);
}

static void test_state_sgf_frame(void **state)
{
    fx_t *f = *state;
    hc_resp_t r = { 0 };
    /* nothing published yet */
    hc_get(f->port, "/state.json", &r);
    assert_int_equal(r.status, 404);
    hc_resp_free(&r);
    hc_get(f->port, "/frame.jpg", &r);
    assert_int_equal(r.status, 404);
    hc_resp_free(&r);

    assert_int_equal(web_server_publish_state(f->srv, STATE1), WEB_OK);
    assert_int_equal(web_server_publish_state(f->srv, "{not json"), WEB_EINVAL);
    assert_int_equal(web_server_publish_state(f->srv, "[1,2]"), WEB_EINVAL);
    assert_int_equal(web_server_publish_state(f->srv, NULL), WEB_EINVAL);
    hc_get(f->port, "/state.json", &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "application/json"));
    assert_null(strchr(r.body, '\n'));                 /* compact: one SSE data line */
    assert_non_null(strstr(r.body, "\"board\":[\"X..\",\"...\",\"..O\"]"));
    assert_non_null(strstr(r.body, "Kuro \\\"K\\\""));
    hc_resp_free(&r);

    const char *sgf = "(;GM[1]SZ[9];B[ee];W[cc])";
    assert_int_equal(web_server_publish_sgf(f->srv, sgf), WEB_OK);
    hc_get(f->port, "/game.sgf", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, sgf);
    hc_resp_free(&r);

    uint8_t jpeg[300];
    for (size_t i = 0; i < sizeof jpeg; i++)
        jpeg[i] = (uint8_t)(i * 7 + 1);
    jpeg[0] = 0xff;
    jpeg[1] = 0xd8;
    assert_int_equal(web_server_publish_frame(f->srv, jpeg, sizeof jpeg), WEB_OK);
    assert_int_equal(web_server_publish_frame(f->srv, jpeg, 0), WEB_EINVAL);
    hc_get(f->port, "/frame.jpg", &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "image/jpeg"));
    assert_int_equal(r.body_len, sizeof jpeg);
    assert_memory_equal(r.body, jpeg, sizeof jpeg);
    hc_resp_free(&r);

    web_stats_t st;
    web_server_stats(f->srv, &st);
    assert_int_equal(st.events, 1);
    assert_true(st.requests >= 5);
    assert_true(st.refused >= 2);
}

static void test_events(void **state)
{
    fx_t *f = *state;
    assert_int_equal(web_server_publish_state(f->srv, "{\"size\":9,\"n\":1}"), WEB_OK);
    int fd = hc_events_open(f->port);
    assert_true(fd >= 0);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    /* the latest state first */
    assert_true(hc_wait_for(fd, &buf, &len, &cap, "data: {\"size\":9,\"n\":1}\n\n", 5000));
    assert_non_null(strstr(buf, "text/event-stream"));
    /* then each new one, in order */
    for (int i = 2; i <= 5; i++) {
        char js[64];
        snprintf(js, sizeof js, "{\"size\":9,\"n\":%d}", i);
        assert_int_equal(web_server_publish_state(f->srv, js), WEB_OK);
    }
    assert_true(hc_wait_for(fd, &buf, &len, &cap, "\"n\":5}", 5000));
    char *p2 = strstr(buf, "\"n\":2}"), *p3 = strstr(buf, "\"n\":3}"), *p4 = strstr(buf, "\"n\":4}");
    assert_true(p2 && p3 && p4 && p2 < p3 && p3 < p4);
    web_stats_t st;
    web_server_stats(f->srv, &st);
    assert_int_equal(st.sse_clients, 1);
    /* a keepalive comment arrives while idle (keepalive_s = 1) */
    assert_true(hc_wait_for(fd, &buf, &len, &cap, ": keepalive", 5000));
    close(fd);
    free(buf);
}

static void test_events_many_and_big(void **state)
{
    fx_t *f = *state;
    int fds[4];
    char *bufs[4] = { 0 };
    size_t lens[4] = { 0 }, caps[4] = { 0 };
    for (int i = 0; i < 4; i++) {
        fds[i] = hc_events_open(f->port);
        assert_true(fds[i] >= 0);
        assert_true(hc_wait_for(fds[i], &bufs[i], &lens[i], &caps[i], "retry:", 5000));
    }
    /* a state larger than one send block (16 KB) arrives whole */
    size_t n = 60000;
    char *big = malloc(n + 64);
    strcpy(big, "{\"size\":19,\"pad\":\"");
    size_t l = strlen(big);
    memset(big + l, 'x', n);
    strcpy(big + l + n, "\",\"end\":true}");
    assert_int_equal(web_server_publish_state(f->srv, big), WEB_OK);
    for (int i = 0; i < 4; i++) {
        assert_true(hc_wait_for(fds[i], &bufs[i], &lens[i], &caps[i], "\"end\":true}\n\n", 5000));
        close(fds[i]);
        free(bufs[i]);
    }
    free(big);
}

static void test_sse_limit(void **state)
{
    fx_t *f = *state;   /* max_sse_clients = 2 */
    int a = hc_events_open(f->port), b = hc_events_open(f->port);
    char *ba = NULL, *bb = NULL;
    size_t la = 0, ca = 0, lb = 0, cb = 0;
    assert_true(hc_wait_for(a, &ba, &la, &ca, "retry:", 5000));
    assert_true(hc_wait_for(b, &bb, &lb, &cb, "retry:", 5000));
    hc_resp_t r = { 0 };
    hc_get(f->port, "/events", &r);
    assert_int_equal(r.status, 503);
    hc_resp_free(&r);
    close(a);
    close(b);
    free(ba);
    free(bb);
}

static void test_token(void **state)
{
    fx_t *f = *state;
    hc_resp_t r = { 0 };
    hc_request(f->port, "POST", "/api/pass", NULL, NULL, &r);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    hc_request(f->port, "POST", "/api/pass", "Authorization: Bearer wrong\r\n", NULL, &r);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    hc_request(f->port, "POST", "/api/pass?token=" TOKEN "x", NULL, NULL, &r);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    hc_request(f->port, "POST", "/api/pass?token=s3cret", NULL, NULL, &r);   /* a prefix */
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 0);

    hc_request(f->port, "POST", "/api/pass", "Authorization: Bearer " TOKEN "\r\n", NULL, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"ok\":true"));
    assert_non_null(strstr(r.body, "done: pass"));
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 1);
    assert_string_equal(f->seen.name, "pass");

    hc_request(f->port, "POST", "/api/toggle?point=dd&token=" TOKEN, NULL, NULL, &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 2);
    assert_string_equal(f->seen.name, "toggle");
    assert_string_equal(f->seen.point, "dd");

    hc_request(f->port, "POST", "/api/accept?token=" TOKEN, "Content-Type: application/json\r\n",
               "{\"color\":\"W\"}", &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_string_equal(f->seen.name, "accept");
    assert_string_equal(f->seen.color, "W");
    assert_string_equal(f->seen.body, "{\"color\":\"W\"}");

    f->seen.refuse = 1;
    hc_request(f->port, "POST", "/api/undo?token=" TOKEN, NULL, NULL, &r);
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(r.body, "\"ok\":false"));
    assert_non_null(strstr(r.body, "not now: undo"));
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 4);
}

static void test_bad_parameters(void **state)
{
    fx_t *f = *state;
    struct { const char *path; const char *body; int status; } cases[] = {
        { "/api/toggle?point=zz9&token=" TOKEN, NULL, 400 },
        { "/api/toggle?point=d&token=" TOKEN, NULL, 400 },
        { "/api/toggle?point=DD&token=" TOKEN, NULL, 400 },
        { "/api/toggle?token=" TOKEN, NULL, 400 },              /* point missing */
        { "/api/accept?color=Q&token=" TOKEN, NULL, 400 },
        { "/api/accept?token=" TOKEN, NULL, 400 },               /* color missing */
        { "/api/pass?token=" TOKEN, "{bad json", 400 },
        { "/api/pass?token=" TOKEN, "[1,2,3]", 400 },
        { "/api/toggle?token=" TOKEN, "{\"point\":12}", 400 },
        { "/api/explode?token=" TOKEN, NULL, 404 },
        { "/api/../overlay?token=" TOKEN, NULL, 404 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hc_resp_t r = { 0 };
        assert_int_equal(hc_request(f->port, "POST", cases[i].path, NULL, cases[i].body, &r), 0);
        if (r.status != cases[i].status)
            print_message("case %zu: %s -> %d\n", i, cases[i].path, r.status);
        assert_int_equal(r.status, cases[i].status);
        hc_resp_free(&r);
    }
    assert_int_equal(f->seen.calls, 0);
    /* GET on an action, POST on a page */
    hc_resp_t r = { 0 };
    hc_get(f->port, "/api/pass?token=" TOKEN, &r);
    assert_int_equal(r.status, 405);
    hc_resp_free(&r);
    hc_request(f->port, "POST", "/overlay", NULL, NULL, &r);
    assert_int_equal(r.status, 405);
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 0);
}

/* A server with its own actions (web_config_t.actions, as `count --serve` has): only
 * those are taken, the station's are 404; each one's needs are checked (a point, a colour
 * with E allowed, the corners) and said in the 400's message. */
static void test_own_actions(void **state)
{
    (void)state;
    static const web_action_spec_t acts[] = {
        { "fix", WEB_NEEDS_POINT | WEB_COLOR_EMPTY }, { "accept", 0 },
        { "corners", WEB_NEEDS_CORNERS }, { NULL, 0 }
    };
    seen_t seen;
    memset(&seen, 0, sizeof seen);
    pthread_mutex_init(&seen.mu, NULL);
    web_config_t cfg;
    web_config_defaults(&cfg);
    assert_null(cfg.actions);
    cfg.token = TOKEN;
    cfg.actions = acts;
    web_server_t *srv = NULL;
    assert_int_equal(web_server_create(&cfg, on_action, &seen, &srv), WEB_OK);
    int port = web_server_port(srv);
    assert_int_equal(web_server_set_frame_size(srv, 100, 80), WEB_OK);
    struct { const char *path; const char *body; int status; const char *msg; } cases[] = {
        { "/api/pass?token=" TOKEN, NULL, 404, "unknown action" },
        { "/api/toggle?point=dd&token=" TOKEN, NULL, 404, "unknown action" },
        { "/api/fix?token=" TOKEN, NULL, 400, "fix needs point=dd" },
        { "/api/fix?point=dd&color=Q&token=" TOKEN, NULL, 400, "color must be B, W or E (empty)" },
        { "/api/corners?token=" TOKEN, "{\"corners\":[[1,1]]}", 400, "corners must be" },
        { "/api/fix?point=dd&color=E", NULL, 401, "token" },
    };
    hc_resp_t r = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_int_equal(hc_request(port, "POST", cases[i].path, NULL, cases[i].body, &r), 0);
        if (r.status != cases[i].status || !r.body || !strstr(r.body, cases[i].msg))
            fail_msg("case %zu: %s -> %d %s", i, cases[i].path, r.status, r.body ? r.body : "");
        hc_resp_free(&r);
    }
    assert_int_equal(seen.calls, 0);
    assert_int_equal(hc_request(port, "POST", "/api/fix?point=dd&color=E&token=" TOKEN, NULL,
                                NULL, &r), 0);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_string_equal(seen.name, "fix");
    assert_string_equal(seen.point, "dd");
    assert_string_equal(seen.color, "E");
    /* an action that needs nothing: no colour asked (the station's accept needs one) */
    assert_int_equal(hc_request(port, "POST", "/api/accept?token=" TOKEN, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_string_equal(seen.name, "accept");
    assert_string_equal(seen.color, "");
    assert_int_equal(hc_request(port, "POST", "/api/corners?token=" TOKEN, NULL,
                                "{\"corners\":[[1,1],[90,2],[91,70],[3,71]]}", &r), 0);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_int_equal(seen.has_corners, 1);
    assert_true(seen.corners[2][0] == 91 && seen.corners[2][1] == 70);
    assert_int_equal(seen.calls, 3);
    /* the callback's own "malformed" is 400, its refusal 409 */
    seen.refuse = 2;
    assert_int_equal(hc_request(port, "POST", "/api/accept?token=" TOKEN, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "\"ok\":false"));
    hc_resp_free(&r);
    seen.refuse = 1;
    assert_int_equal(hc_request(port, "POST", "/api/accept?token=" TOKEN, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 409);
    hc_resp_free(&r);
    web_server_destroy(srv);
    pthread_mutex_destroy(&seen.mu);
}

/* POST /api/corners: four pairs inside the frame, convex; everything else 400 with a
 * message that says what is wrong; the callback sees only checked corners. */
static void test_corners_action(void **state)
{
    fx_t *f = *state;
    static const char *good = "{\"corners\":[[10,20],[600.5,22],[610,470],[5,460]]}";
    hc_resp_t r = { 0 };
    /* no frame size yet: refused, the station is not calibrating */
    hc_request(f->port, "POST", "/api/corners?token=" TOKEN, NULL, good, &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "not calibrating"));
    hc_resp_free(&r);
    assert_int_equal(web_server_set_frame_size(f->srv, 0, 480), WEB_EINVAL);
    assert_int_equal(web_server_set_frame_size(NULL, 640, 480), WEB_EINVAL);
    assert_int_equal(web_server_set_frame_size(f->srv, 640, 480), WEB_OK);
    static const struct { const char *body; const char *msg; } bad[] = {
        { "{\"corners\":[[10,20],[600,22],[610,470]", "not a JSON object" },   /* broken JSON */
        { "not json at all", "not a JSON object" },
        { "[[10,20],[600,22],[610,470],[5,460]]", "not a JSON object" },
        { NULL, "corners must be" },                                        /* no body */
        { "{}", "corners must be" },
        { "{\"corners\":[[10,20],[600,22],[610,470]]}", "corners must be" },   /* three */
        { "{\"corners\":[[10,20],[600,22],[610,470],[5,460],[1,1]]}", "corners must be" },
        { "{\"corners\":[[10,20],[600,\"22\"],[610,470],[5,460]]}", "corners must be" },
        { "{\"corners\":[[10,20],[600],[610,470],[5,460]]}", "corners must be" },
        { "{\"corners\":\"10,20;600,22;610,470;5,460\"}", "corners must be" },
        { "{\"corners\":[[10,20],[640,22],[610,470],[5,460]]}", "corner 2 (640.0, 22.0) is outside the 640x480 frame" },
        { "{\"corners\":[[-1,20],[600,22],[610,470],[5,460]]}", "corner 1 (-1.0, 20.0) is outside the 640x480 frame" },
        { "{\"corners\":[[10,20],[600,22],[610,480],[5,460]]}", "corner 3 (610.0, 480.0) is outside" },
        { "{\"corners\":[[10,20],[600,22],[610,470],[5,1e300]]}", "corner 4" },
        { "{\"corners\":[[10,20],[610,470],[600,22],[5,460]]}", "convex" },     /* crossed */
        { "{\"corners\":[[10,20],[10,20],[610,470],[5,460]]}", "convex" },      /* repeated */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(hc_request(f->port, "POST", "/api/corners?token=" TOKEN, NULL, bad[i].body, &r), 0);
        if (r.status != 400 || !r.body || !strstr(r.body, bad[i].msg))
            print_message("case %zu: %d %s\n", i, r.status, r.body ? r.body : "");
        assert_int_equal(r.status, 400);
        assert_non_null(strstr(r.body, "\"ok\":false"));
        assert_non_null(strstr(r.body, bad[i].msg));
        hc_resp_free(&r);
    }
    assert_int_equal(f->seen.calls, 0);
    /* without the token: 401 before anything else */
    hc_request(f->port, "POST", "/api/corners", NULL, good, &r);
    assert_int_equal(r.status, 401);
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 0);
    /* good corners reach the callback, checked and parsed */
    hc_request(f->port, "POST", "/api/corners", "Authorization: Bearer " TOKEN "\r\n", good, &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_int_equal(f->seen.calls, 1);
    assert_string_equal(f->seen.name, "corners");
    assert_int_equal(f->seen.has_corners, 1);
    assert_true(f->seen.corners[1][0] == 600.5 && f->seen.corners[1][1] == 22);
    assert_true(f->seen.corners[3][0] == 5 && f->seen.corners[3][1] == 460);
    /* the same corners, the other way round (counter-clockwise), are convex too */
    hc_request(f->port, "POST", "/api/corners?token=" TOKEN, NULL,
               "{\"corners\":[[5,460],[610,470],[600,22],[10,20]]}", &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    /* the station's refusal is 409 with its message */
    f->seen.refuse = 1;
    hc_request(f->port, "POST", "/api/corners?token=" TOKEN, NULL, good, &r);
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(r.body, "not now: corners"));
    hc_resp_free(&r);
    /* other actions carry no corners */
    f->seen.refuse = 0;
    hc_request(f->port, "POST", "/api/pass?token=" TOKEN, NULL, NULL, &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
    assert_int_equal(f->seen.has_corners, 0);
}

static void test_oversized_body(void **state)
{
    fx_t *f = *state;   /* max_body = 1024 */
    size_t n = 200000;
    char *body = malloc(n + 1);
    memset(body, ' ', n);
    body[0] = '{';
    body[n - 1] = '}';
    body[n] = '\0';
    hc_resp_t r = { 0 };
    hc_request(f->port, "POST", "/api/pass?token=" TOKEN, NULL, body, &r);
    assert_int_equal(r.status, 413);
    hc_resp_free(&r);
    free(body);
    /* a chunked body past the limit is cut off */
    int fd = hc_connect(f->port);
    assert_true(fd >= 0);
    const char *head = "POST /api/pass?token=" TOKEN " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    hc_send_all(fd, head, strlen(head));
    char chunk[600];
    snprintf(chunk, sizeof chunk, "200\r\n");
    size_t cl = strlen(chunk);
    memset(chunk + cl, ' ', 0x200);
    memcpy(chunk + cl + 0x200, "\r\n", 2);
    for (int i = 0; i < 8; i++)
        if (hc_send_all(fd, chunk, cl + 0x200 + 2) != 0)
            break;
    hc_send_all(fd, "0\r\n\r\n", 5);
    size_t len;
    char *raw = hc_read_all(fd, &len);
    close(fd);
    assert_null(strstr(raw, "HTTP/1.1 200"));
    free(raw);
    assert_int_equal(f->seen.calls, 0);
    /* the server still answers */
    hc_get(f->port, "/overlay", &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
}

static void test_unknown_and_traversal(void **state)
{
    fx_t *f = *state;
    const char *paths[] = { "/nope", "/overlay/", "/overlay/../../etc/passwd",
                            "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                            "/..%2f..%2fetc%2fpasswd", "//etc/passwd", "/pages/overlay.html",
                            "/web/web.h", "/kc.js/../kc.css", "/state.json/..", "/%00" };
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        hc_resp_t r = { 0 };
        assert_int_equal(hc_get(f->port, paths[i], &r), 0);
        if (r.status != 404 && r.status != 400)
            print_message("%s -> %d\n", paths[i], r.status);
        int st = r.status;
        bool leak = strstr(r.body, "root:") != NULL;
        hc_resp_free(&r);
        assert_true(st == 404 || st == 400);
        assert_false(leak);
    }
    /* garbage instead of HTTP: refused, and the server lives on */
    hc_resp_t r = { 0 };
    const char junk[] = "\x01\x02\x03 nonsense\r\n\r\n";
    hc_raw(f->port, junk, sizeof junk - 1, &r);
    assert_true(r.status == 0 || r.status == 400);
    hc_resp_free(&r);
    hc_get(f->port, "/overlay", &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
}

static void test_half_open(void **state)
{
    fx_t *f = *state;   /* connection timeout 1 s */
    int idle[5];
    for (int i = 0; i < 5; i++) {
        idle[i] = hc_connect(f->port);
        assert_true(idle[i] >= 0);
    }
    /* a half-sent request too */
    hc_send_all(idle[4], "GET /overl", 10);
    /* others are served meanwhile */
    assert_int_equal(web_server_publish_state(f->srv, STATE1), WEB_OK);
    for (int i = 0; i < 3; i++) {
        hc_resp_t r = { 0 };
        hc_get(f->port, "/state.json", &r);
        assert_int_equal(r.status, 200);
        hc_resp_free(&r);
    }
    /* and the stalled ones are cut off (read returns end of stream, not the timeout) */
    for (int i = 0; i < 5; i++) {
        struct pollfd p = { idle[i], POLLIN, 0 };
        assert_int_equal(poll(&p, 1, 8000), 1);
        char c;
        assert_true(recv(idle[i], &c, 1, 0) <= 0);
        close(idle[i]);
    }
}

static void test_stalled_reader_cut_off(void **state)
{
    fx_t *f = *state;   /* connection timeout 1 s, at most 2 /events clients */
    int stalled = hc_connect(f->port);
    assert_true(stalled >= 0);
    int small = 4096;
    setsockopt(stalled, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    static const char req[] = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    hc_send_all(stalled, req, sizeof req - 1);
    int good = hc_events_open(f->port);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    assert_true(hc_wait_for(good, &buf, &len, &cap, "retry:", 5000));
    /* big states until the stalled client's socket is full; the reader keeps up */
    size_t n = 200000;
    char *big = malloc(n + 64);
    for (int i = 0; i < 40; i++) {
        int l = snprintf(big, 64, "{\"i\":%d,\"pad\":\"", i);
        memset(big + l, 'x', n);
        strcpy(big + l + n, "\"}");
        assert_int_equal(web_server_publish_state(f->srv, big), WEB_OK);
        char want[32];
        snprintf(want, sizeof want, "{\"i\":%d,", i);
        assert_true(hc_wait_for(good, &buf, &len, &cap, want, 5000));
        len = 0;                    /* forget what was read */
        buf[0] = '\0';
    }
    free(big);
    /* the stalled one is cut off: the server closes it and frees its place */
    web_stats_t st;
    int waited = 0;
    do {
        poll(NULL, 0, 100);
        waited += 100;
        web_server_stats(f->srv, &st);
    } while (st.sse_clients > 1 && waited < 10000);
    assert_int_equal(st.sse_clients, 1);
    close(stalled);
    /* and the server is still serving */
    assert_int_equal(web_server_publish_state(f->srv, "{\"after\":1}"), WEB_OK);
    assert_true(hc_wait_for(good, &buf, &len, &cap, "{\"after\":1}", 5000));
    close(good);
    free(buf);
}

static void test_port_in_use_and_destroy_with_clients(void **state)
{
    fx_t *f = *state;
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.port = f->port;
    web_server_t *other = (web_server_t *)0x1;
    /* SO_REUSEADDR does not let two listeners share a port */
    assert_int_equal(web_server_create(&cfg, NULL, NULL, &other), WEB_ESTART);
    assert_ptr_equal(other, (web_server_t *)0x1);
    /* destroying a server with idle (suspended) /events clients is clean */
    web_server_t *srv = NULL;
    assert_int_equal(web_server_create(NULL, NULL, NULL, &srv), WEB_OK);
    int port = web_server_port(srv);
    int fds[3];
    for (int i = 0; i < 3; i++) {
        char *buf = NULL;
        size_t len = 0, cap = 0;
        fds[i] = hc_events_open(port);
        assert_true(hc_wait_for(fds[i], &buf, &len, &cap, "retry:", 5000));
        free(buf);
    }
    web_server_destroy(srv);
    for (int i = 0; i < 3; i++) {
        char c;
        struct pollfd p = { fds[i], POLLIN, 0 };
        assert_int_equal(poll(&p, 1, 5000), 1);
        ssize_t r;
        while ((r = recv(fds[i], &c, 1, 0)) > 0) {
        }
        assert_true(r <= 0);
        close(fds[i]);
    }
}

static void test_connection_limit(void **state)
{
    fx_t *f = *state;   /* at most 4 connections, idle ones cut after 1 s */
    int idle[4];
    for (int i = 0; i < 4; i++) {
        idle[i] = hc_connect(f->port);
        assert_true(idle[i] >= 0);
    }
    poll(NULL, 0, 200);
    /* at the limit the server stops accepting: a fifth waits in the backlog, unanswered */
    int fd = hc_connect(f->port);
    assert_true(fd >= 0);
    static const char req[] = "GET /overlay HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    assert_int_equal(hc_send_all(fd, req, sizeof req - 1), 0);
    struct pollfd p = { fd, POLLIN, 0 };
    assert_int_equal(poll(&p, 1, 300), 0);
    /* once the idle ones are cut off it is served */
    assert_int_equal(poll(&p, 1, 10000), 1);
    size_t len;
    char *raw = hc_read_all(fd, &len);
    assert_true(strncmp(raw, "HTTP/1.1 200", 12) == 0);
    free(raw);
    close(fd);
    for (int i = 0; i < 4; i++)
        close(idle[i]);
}

/* Slowloris (issue 22, defect 6): connections that fill every slot and send one header
 * line a second (never idle for the 5 s idle timeout) are closed at the 2 s request
 * deadline, and a normal request is answered meanwhile. */
static int setup_slow(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    pthread_mutex_init(&f->seen.mu, NULL);
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.token = TOKEN;
    cfg.connection_timeout_s = 5;
    cfg.request_timeout_s = 2;
    cfg.max_connections = 6;
    cfg.max_sse_clients = 2;
    if (web_server_create(&cfg, on_action, &f->seen, &f->srv) != WEB_OK) {
        free(f);
        return -1;
    }
    f->port = web_server_port(f->srv);
    *state = f;
    return 0;
}

static void test_slowloris(void **state)
{
    fx_t *f = *state;
    enum { SLOW = 6 };
    int slow[SLOW];
    for (int i = 0; i < SLOW; i++) {
        slow[i] = hc_connect(f->port);
        assert_true(slow[i] >= 0);
        static const char start[] = "GET /state.json HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        assert_int_equal(hc_send_all(slow[i], start, sizeof start - 1), 0);
    }
    assert_int_equal(web_server_publish_state(f->srv, STATE1), WEB_OK);
    poll(NULL, 0, 300);
    int good = hc_connect(f->port);
    assert_true(good >= 0);
    static const char req[] = "GET /state.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    assert_int_equal(hc_send_all(good, req, sizeof req - 1), 0);
    /* a header line a second on every slow one, until the good one is answered */
    int answered = 0, waited = 0;
    while (!answered && waited < 8000) {
        struct pollfd p = { good, POLLIN, 0 };
        answered = poll(&p, 1, 250) == 1;
        waited += 250;
        if (waited % 1000 == 0)
            for (int i = 0; i < SLOW; i++)
                send(slow[i], "X-Slow: 1\r\n", 11, MSG_NOSIGNAL);
    }
    print_message("answered after %d ms\n", waited);
    assert_true(answered);
    size_t len;
    char *raw = hc_read_all(good, &len);
    assert_non_null(raw);
    assert_true(strncmp(raw, "HTTP/1.1 200", 12) == 0);
    free(raw);
    close(good);
    /* and the slow ones were closed by the server */
    for (int i = 0; i < SLOW; i++) {
        struct pollfd p = { slow[i], POLLIN, 0 };
        assert_int_equal(poll(&p, 1, 3000), 1);
        char c[256];
        ssize_t r;
        while ((r = recv(slow[i], c, sizeof c, MSG_DONTWAIT)) > 0) {
        }
        assert_true(r == 0 || (r < 0 && errno != EAGAIN));
        close(slow[i]);
    }
    /* an /events stream being answered is not bound by the request deadline */
    int ev = hc_events_open(f->port);
    char *buf = NULL;
    size_t blen = 0, cap = 0;
    assert_true(hc_wait_for(ev, &buf, &blen, &cap, "retry:", 5000));
    poll(NULL, 0, 3500);
    assert_int_equal(web_server_publish_state(f->srv, "{\"later\":1}"), WEB_OK);
    assert_true(hc_wait_for(ev, &buf, &blen, &cap, "{\"later\":1}", 5000));
    close(ev);
    free(buf);
}

/* A request for HOST: its status. */
static int status_for_host(int port, const char *host, const char *path)
{
    char req[512];
    int n = host ? snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
                            path, host)
                 : snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    hc_resp_t r = { 0 };
    assert_int_equal(hc_raw(port, req, (size_t)n, &r), 0);
    int st = r.status;
    hc_resp_free(&r);
    return st;
}

/* DNS rebinding (issue 22): a page of evil.example rebound to 127.0.0.1 sends Host:
 * evil.example: refused (421); the served address, localhost, a configured name and a
 * request without Host are served. */
static void test_host_check(void **state)
{
    fx_t *f = *state;
    assert_int_equal(web_server_publish_state(f->srv, STATE1), WEB_OK);
    char h[64];
    snprintf(h, sizeof h, "127.0.0.1:%d", f->port);
    assert_int_equal(status_for_host(f->port, h, "/state.json"), 200);
    snprintf(h, sizeof h, "LocalHost:%d", f->port);
    assert_int_equal(status_for_host(f->port, h, "/state.json"), 200);
    assert_int_equal(status_for_host(f->port, NULL, "/state.json"), 200);
    static const char *const bad[] = { "evil.example", "evil.example:8080", "127.0.0.2",
                                       "[::1]:80", "studio.local", "127.0.0.1.evil.example",
                                       "", "a:b:c" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = status_for_host(f->port, bad[i], "/state.json");
        if (st != 421)
            fail_msg("Host '%s': %d, not 421", bad[i], st);
        assert_int_equal(status_for_host(f->port, bad[i], "/console"), 421);
    }
    /* names configured, and a server bound to every address takes any address */
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.hosts = "Studio.Local, board1";
    web_server_t *srv = NULL;
    assert_int_equal(web_server_create(&cfg, NULL, NULL, &srv), WEB_OK);
    int port = web_server_port(srv);
    assert_int_equal(status_for_host(port, "studio.local", "/overlay"), 200);
    assert_int_equal(status_for_host(port, "BOARD1:99", "/overlay"), 200);
    assert_int_equal(status_for_host(port, "board2", "/overlay"), 421);
    web_server_destroy(srv);
    cfg.hosts = NULL;
    cfg.address = "0.0.0.0";
    assert_int_equal(web_server_create(&cfg, NULL, NULL, &srv), WEB_OK);
    port = web_server_port(srv);
    assert_int_equal(status_for_host(port, "192.168.1.20:8080", "/overlay"), 200);
    assert_int_equal(status_for_host(port, "localhost", "/overlay"), 200);
    assert_int_equal(status_for_host(port, "evil.example", "/overlay"), 421);
    web_server_destroy(srv);
}

/* A POST with headers: its status. */
static int post_status(int port, const char *path, const char *headers)
{
    char req[1024];
    int n = snprintf(req, sizeof req, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s"
                     "Connection: close\r\nContent-Length: 0\r\n\r\n", path, port, headers);
    hc_resp_t r = { 0 };
    assert_int_equal(hc_raw(port, req, (size_t)n, &r), 0);
    int st = r.status;
    hc_resp_free(&r);
    return st;
}

/* A cross-site form POST (issue 22): another site's Origin is refused whatever the token;
 * from a page the token must come in the Authorization header, not ?token=; the
 * station's own page (same Origin) and a script (no Origin) are served. */
static void test_origin_and_token(void **state)
{
    fx_t *f = *state;
    char same[128];
    snprintf(same, sizeof same, "Origin: http://127.0.0.1:%d\r\n", f->port);
    static const char auth[] = "Authorization: Bearer " TOKEN "\r\n";
    char hdr[512];
    assert_int_equal(post_status(f->port, "/api/pass?token=" TOKEN, "Origin: http://evil.example\r\n"), 403);
    snprintf(hdr, sizeof hdr, "Origin: http://evil.example\r\n%s", auth);
    assert_int_equal(post_status(f->port, "/api/pass", hdr), 403);
    assert_int_equal(post_status(f->port, "/api/pass?token=" TOKEN, "Origin: null\r\n"), 403);
    assert_int_equal(post_status(f->port, "/api/pass?token=" TOKEN, same), 403);
    assert_int_equal(f->seen.calls, 0);
    snprintf(hdr, sizeof hdr, "%s%s", same, auth);
    assert_int_equal(post_status(f->port, "/api/pass", hdr), 200);
    assert_int_equal(post_status(f->port, "/api/pass?token=" TOKEN, ""), 200);   /* a script */
    assert_int_equal(f->seen.calls, 2);
}

/* The console may not be framed (clickjacking); the overlay may. */
static void test_frame_ancestors(void **state)
{
    fx_t *f = *state;
    hc_resp_t r = { 0 };
    hc_get(f->port, "/console", &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "frame-ancestors 'none'"));
    assert_non_null(strstr(r.head, "X-Frame-Options: DENY"));
    assert_non_null(strstr(r.head, "Referrer-Policy: no-referrer"));
    hc_resp_free(&r);
    hc_get(f->port, "/", &r);
    assert_non_null(strstr(r.head, "frame-ancestors 'none'"));
    hc_resp_free(&r);
    hc_get(f->port, "/overlay", &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "frame-ancestors *"));
    hc_resp_free(&r);
}

static void test_garbage(void **state)
{
    fx_t *f = *state;
    /* random bytes, random request lines, absurd headers: each refused, none fatal */
    uint32_t x = 12345;
    for (int i = 0; i < 120; i++) {
        char req[1200];
        size_t n = 0;
        int kind = i % 4;
        if (kind == 0) {                        /* pure noise */
            n = 1 + (x % 1000);
            for (size_t k = 0; k < n; k++) {
                x = x * 1103515245u + 12345u;
                req[k] = (char)(x >> 16);
            }
        } else if (kind == 1) {                 /* a request line with noise in the path */
            n = (size_t)snprintf(req, sizeof req, "GET /");
            for (int k = 0; k < 40; k++) {
                x = x * 1103515245u + 12345u;
                char c = (char)(33 + (x >> 16) % 94);
                req[n++] = c;
            }
            n += (size_t)snprintf(req + n, sizeof req - n, " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        } else if (kind == 2) {                 /* a bogus method and version */
            n = (size_t)snprintf(req, sizeof req, "BREW /api/pass?token=%s HTCPCP/1.0\r\n\r\n", TOKEN);
        } else {                                /* a negative / huge Content-Length */
            n = (size_t)snprintf(req, sizeof req, "POST /api/pass?token=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 "Content-Length: %s\r\nConnection: close\r\n\r\n{}", TOKEN,
                                 i % 8 == 3 ? "-5" : "99999999999999999999999");
        }
        /* send, then close our side (a request MHD still waits on is cut after the 1 s
         * timeout of this fixture) */
        int fd = hc_connect(f->port);
        assert_true(fd >= 0);
        hc_send_all(fd, req, n);
        shutdown(fd, SHUT_WR);
        size_t len;
        char *raw = hc_read_all(fd, &len);
        close(fd);
        hc_resp_t r = { 0 };
        hc_parse(raw, len, &r);
        free(raw);
        assert_true(r.status != 200);
        hc_resp_free(&r);
    }
    assert_int_equal(f->seen.calls, 0);
    hc_resp_t r = { 0 };
    hc_get(f->port, "/overlay", &r);
    assert_int_equal(r.status, 200);
    hc_resp_free(&r);
}

static void test_concurrent_actions(void **state)
{
    fx_t *f = *state;
    /* the action callback is serialised; every call lands */
    for (int i = 0; i < 20; i++) {
        hc_resp_t r = { 0 };
        hc_request(f->port, "POST", "/api/resign?color=B", "Authorization: bearer " TOKEN "\r\n",
                   NULL, &r);
        assert_int_equal(r.status, 200);
        hc_resp_free(&r);
    }
    assert_int_equal(f->seen.calls, 20);
    assert_string_equal(f->seen.color, "B");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_errors),
        cmocka_unit_test(test_parse_listen),
        cmocka_unit_test(test_generated_token_and_port),
        cmocka_unit_test(test_ipv6_loopback),
        cmocka_unit_test_setup_teardown(test_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state_sgf_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events_many_and_big, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sse_limit, setup_short, teardown),
        cmocka_unit_test_setup_teardown(test_token, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_parameters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corners_action, setup, teardown),
        cmocka_unit_test(test_own_actions),
        cmocka_unit_test_setup_teardown(test_oversized_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_and_traversal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_half_open, setup_short, teardown),
        cmocka_unit_test_setup_teardown(test_stalled_reader_cut_off, setup_short, teardown),
        cmocka_unit_test_setup_teardown(test_port_in_use_and_destroy_with_clients, setup, teardown),
        cmocka_unit_test_setup_teardown(test_connection_limit, setup_few, teardown),
        cmocka_unit_test_setup_teardown(test_slowloris, setup_slow, teardown),
        cmocka_unit_test_setup_teardown(test_host_check, setup, teardown),
        cmocka_unit_test_setup_teardown(test_origin_and_token, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frame_ancestors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage, setup_short, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_actions, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
