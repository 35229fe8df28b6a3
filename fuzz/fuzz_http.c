/* fuzz_http.c: libFuzzer target for the web server's request handling (web/web.h).
 *
 * The web module has no socket-free request entry (libmicrohttpd parses the requests), so
 * one server is started per process on 127.0.0.1 (a free port) and every input is sent to
 * it over a loopback TCP connection; the write side is then shut and the answer read (up
 * to a short deadline, since /events never ends and keep-alive answers stay open). The first byte chooses the mode:
 *   0..3  raw: the rest is the request bytes, as sent;
 *   4..7  structured: a request line, headers (with the right token or a wrong one) and a
 *         body built from the input, so that the /api/ACTION paths are reached;
 *   8     web_config_parse_listen on the rest (a --serve spec);
 *   9     web_server_publish_state / publish_sgf on the rest.
 * Checks (a violation traps): an answer, when there is one, starts with "HTTP/1."; the
 * action callback only ever sees a known action name, a point of two letters a..y or
 * none, a colour B or W or none; parse_listen gives a port in 0..65535 and a
 * NUL-terminated address inside the buffer; publish_state accepts exactly JSON objects.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "web/web.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static web_server_t *g_srv;
static int g_port;
static const char *g_token;

static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    (void)user;
    static const char *const names[] = { "pass", "resign", "undo", "end", "toggle",
                                         "accept", "reject", "resume", "pause", "adjust" };
    int known = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        known |= strcmp(a->name, names[i]) == 0;
    if (!known)
        __builtin_trap();
    if (a->point && (strlen(a->point) != 2 || a->point[0] < 'a' || a->point[0] > 'y' ||
                     a->point[1] < 'a' || a->point[1] > 'y'))
        __builtin_trap();
    if (a->color && strcmp(a->color, "B") != 0 && strcmp(a->color, "W") != 0)
        __builtin_trap();
    if (a->has_seconds && !(a->seconds >= -36000 && a->seconds <= 36000))
        __builtin_trap();
    if (strcmp(a->name, "adjust") == 0 && (!a->color || !a->has_seconds))
        __builtin_trap();
    if (strcmp(a->name, "undo") == 0)
        return -1;                          /* a refusal: 409 */
    snprintf(msg, msglen, "ok %s", a->name);
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    signal(SIGPIPE, SIG_IGN);
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.port = 0;
    cfg.token = "fuzztoken0123456789abcdef";
    cfg.connection_timeout_s = 2;
    cfg.keepalive_s = 1;
    cfg.max_sse_clients = 4;
    cfg.low_priority = 0;
    if (web_server_create(&cfg, on_action, NULL, &g_srv) != WEB_OK)
        abort();
    g_port = web_server_port(g_srv);
    g_token = web_server_token(g_srv);
    web_server_publish_state(g_srv, "{\"size\":9,\"board\":[\".........\"]}");
    web_server_publish_sgf(g_srv, "(;FF[4]SZ[9];B[ee])");
    static const uint8_t jpeg[] = { 0xff, 0xd8, 0xff, 0xd9 };
    web_server_publish_frame(g_srv, jpeg, sizeof jpeg);
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Send req over a new connection, shut the write side, read the answer. */
static void exchange(const char *req, size_t len)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)g_port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(fd, req + off, len - off, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    char buf[4096];
    size_t got = 0;
    char head[8] = { 0 };
    /* a closed answer ends at EOF; a kept-alive one or an event stream after the data
     * goes quiet (30 ms); no answer at all after 150 ms */
    double end = now_ms() + 150;
    for (;;) {
        double left = end - now_ms();
        if (left <= 0)
            break;
        struct pollfd p = { fd, POLLIN, 0 };
        int r = poll(&p, 1, got ? 30 : (int)left + 1);
        if (r <= 0)
            break;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n && got + (size_t)i < 7; i++)
            head[got + (size_t)i] = buf[i];
        got += (size_t)n;
    }
    close(fd);
    if (got >= 7 && memcmp(head, "HTTP/1.", 7) != 0)
        __builtin_trap();
}

static const char *const methods[] = { "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS" };
static const char *const paths[] = {
    "/", "/overlay", "/console", "/events", "/state.json", "/game.sgf", "/frame.jpg",
    "/kc.js", "/kc.css", "/api/pass", "/api/resign", "/api/undo", "/api/end", "/api/toggle",
    "/api/accept", "/api/reject", "/api/resume", "/api/pause", "/api/adjust", "/api/", "/api/x"
};

static void structured(const uint8_t *d, size_t n)
{
    if (n < 3)
        return;
    const char *m = methods[d[0] % 6];
    const char *p = paths[d[1] % (sizeof paths / sizeof paths[0])];
    int tok = d[2] & 3;                  /* 0 none, 1 header, 2 query, 3 wrong header */
    d += 3;
    n -= 3;
    /* the rest: query text up to the first 0x00, then the body */
    const uint8_t *z = memchr(d, 0, n);
    size_t qlen = z ? (size_t)(z - d) : n;
    const uint8_t *body = z ? z + 1 : d + n;
    size_t blen = z ? n - qlen - 1 : 0;
    size_t cap = 512 + qlen + blen + strlen(g_token) * 2;
    char *req = malloc(cap);
    if (!req)
        return;
    int k = snprintf(req, cap, "%s %s?%s%s", m, p, tok == 2 ? "token=" : "", tok == 2 ? g_token : "");
    size_t len = (size_t)k;
    if (qlen)
        req[len++] = '&';
    for (size_t i = 0; i < qlen; i++)    /* spaces and line ends would end the request line */
        req[len++] = (d[i] == ' ' || d[i] == '\r' || d[i] == '\n') ? '+' : (char)d[i];
    k = snprintf(req + len, cap - len,
                 " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s%sContent-Length: %zu\r\n\r\n",
                 tok == 1 || tok == 3 ? "Authorization: Bearer " : "",
                 tok == 1 ? g_token : tok == 3 ? "nope" : "", tok == 1 || tok == 3 ? "\r\n" : "",
                 blen);
    len += (size_t)k;
    memcpy(req + len, body, blen);
    len += blen;
    exchange(req, len);
    free(req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    int mode = data[0] % 10;
    data++;
    size--;
    if (mode < 4) {
        exchange((const char *)data, size);
    } else if (mode < 8) {
        structured(data, size);
    } else {
        char *s = malloc(size + 1);
        if (!s)
            return 0;
        memcpy(s, data, size);
        s[size] = 0;
        if (mode == 8) {
            web_config_t cfg;
            web_config_defaults(&cfg);
            char buf[80];
            memset(buf, 'x', sizeof buf);
            if (web_config_parse_listen(&cfg, s, buf, sizeof buf) == WEB_OK) {
                if (cfg.port < 0 || cfg.port > 65535 || cfg.address != buf ||
                    !memchr(buf, 0, sizeof buf))
                    __builtin_trap();
            }
        } else {
            json_error_t je;
            json_t *j = json_loads(s, 0, &je);
            int is_obj = j && json_is_object(j);
            json_decref(j);
            int rc = web_server_publish_state(g_srv, s);
            if ((rc == WEB_OK) != is_obj && rc != WEB_ENOMEM)
                __builtin_trap();
            web_server_publish_sgf(g_srv, s);
            if (rc == WEB_OK) { /* a GET of the state now answers with it */
                static const char get[] =
                    "GET /state.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
                exchange(get, sizeof get - 1);
            }
        }
        free(s);
    }
    return 0;
}
