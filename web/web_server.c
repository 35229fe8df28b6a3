/* web_server.c: the embedded HTTP server behind web.h (libmicrohttpd's epoll event loop in
 * one internal thread, plus a "waker" thread that resumes the /events clients).
 *
 * Why an event loop and not a thread per connection: a published state must reach every
 * /events client at once; with a thread each, every publish woke hundreds of threads and
 * took the cores from the recording loop. Here an idle /events connection is suspended
 * (MHD_suspend_connection from its content reader); a publish only swaps the state in and
 * signals the waker thread, which resumes them all (so the publisher, the station's
 * recording loop, never waits for the network or for MHD's locks); the one server thread
 * then writes the event to each socket without blocking on any of them. The waker also
 * resumes, once a second, the clients due for a keepalive.
 *
 * Invariants:
 *  - everything published (state, record, frame, the event ring) lives under srv->mu;
 *    request handlers copy what they serve while holding it, never the network write;
 *  - an /events client is suspended only by its own reader, under srv->mu, after finding
 *    nothing to send (cl->suspended set); only the waker and destroy resume it, clearing
 *    cl->suspended under srv->mu first (so exactly one of them resumes it; MHD never frees
 *    a suspended connection, so the waker may call MHD_resume_connection after unlocking).
 *    No wakeup is lost: a reader checks srv->seq under the same lock. After `stopping` no
 *    reader suspends again, and destroy joins the waker, then resumes everyone before
 *    MHD_stop_daemon, which must never meet a suspended connection;
 *  - events[] holds the last WEB_RING published events; events[seq % WEB_RING] is the
 *    event numbered seq; an event is shared by reference count (under srv->mu) by the
 *    /events clients still sending it;
 *  - an /events client sends every event in order; one that falls WEB_RING events behind
 *    jumps to the latest (each state is whole, so nothing of the game is lost);
 *  - only exact paths are served (the compiled-in assets and the fixed routes): a path is
 *    never mapped onto the file system, so "..", "%2e%2e" and the like are simply 404;
 *  - the action callback runs under srv->action_mu: never two at once; it sees only the
 *    actions of cfg.actions (web_station_actions by default), each with what its spec
 *    needs (a point, a colour, seconds, checked corners) already there and well formed.
 */
#include "web/web.h"
#include "web/web_assets.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WEB_RING 64
#define WEB_SSE_BLOCK 16384

typedef struct web_event {
    int refs;                   /* under srv->mu */
    size_t len;
    char text[];                /* "id: N\ndata: {...}\n\n" */
} web_event_t;

struct web_server {
    struct MHD_Daemon *daemon;
    web_config_t cfg;
    char token[129];
    int port;
    web_action_fn on_action;
    void *user;

    pthread_mutex_t mu;
    pthread_cond_t cv;          /* wakes the waker: a publish, or stop */
    pthread_t waker;
    bool waker_started;
    bool wake_pending;          /* a publish the waker has not handled yet */
    struct web_sse **wake_list; /* the waker's scratch: max_sse_clients entries */
    struct web_sse *sse_head;   /* every /events client (a doubly linked list) */
    pthread_mutex_t action_mu;
    bool stopping;
    char *state;                /* latest compact state JSON, or NULL */
    size_t state_len;
    web_event_t *events[WEB_RING];
    uint64_t seq;               /* number of the latest event, 0 before the first */
    char *sgf;
    size_t sgf_len;
    char *frame;                /* JPEG bytes */
    size_t frame_len;
    int frame_w, frame_h;       /* web_server_set_frame_size; 0: not known */
    int sse_clients;
    uint64_t requests, refused;
    char *hosts;                /* cfg.hosts, copied (",name,name,": each name between
                                   commas, lower case), or NULL */
    unsigned char bind_addr[16];/* the address served (4 or 16 bytes) */
    bool bind_v6, bind_any, bind_loopback;
    pthread_mutex_t conn_mu;    /* guards conns (never held while taking mu or calling MHD) */
    struct web_conn *conns;     /* every open connection */
};

/* One open connection (MHD's socket context): the deadline its request must meet. */
typedef struct web_conn {
    struct web_conn *prev, *next;   /* srv->conns, under srv->conn_mu */
    int fd;
    time_t deadline;            /* CLOCK_MONOTONIC seconds; 0: being answered, no deadline */
} web_conn_t;

/* Per-request state kept across the access handler's calls (the body being read). */
typedef struct web_req {
    char *body;
    size_t len;
    bool too_large;
} web_req_t;

/* One /events client. */
typedef struct web_sse {
    web_server_t *srv;
    struct MHD_Connection *conn;
    struct web_sse *prev, *next_cl; /* srv->sse_head list, under srv->mu */
    bool suspended;             /* under srv->mu */
    time_t last_send;           /* CLOCK_MONOTONIC seconds of the last bytes handed over */
    uint64_t next;              /* the next event number to send */
    web_event_t *cur;           /* the event being sent, or NULL */
    size_t off;                 /* bytes of cur already sent */
    bool hello;                 /* the retry: line has been sent */
} web_sse_t;

const char *web_strerror(int code)
{
    switch (code) {
    case WEB_OK: return "success";
    case WEB_EINVAL: return "invalid argument";
    case WEB_ENOMEM: return "out of memory";
    case WEB_ESTART: return "the HTTP server could not start";
    case WEB_ERANDOM: return "no random bytes for the token";
    default: return "unknown error";
    }
}

void web_config_defaults(web_config_t *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->address = NULL;
    cfg->port = 0;
    cfg->token = NULL;
    cfg->max_connections = 512;
    cfg->max_sse_clients = 400;
    cfg->connection_timeout_s = 15;
    cfg->max_body = 4096;
    cfg->keepalive_s = 10;
    cfg->low_priority = 1;
    cfg->request_timeout_s = 10;
    cfg->hosts = NULL;
    cfg->actions = NULL;
}

int web_config_parse_listen(web_config_t *cfg, const char *spec, char *buf, size_t len)
{
    if (!cfg || !spec || !buf || len == 0)
        return WEB_EINVAL;
    const char *addr = "127.0.0.1", *port;
    size_t alen = strlen(addr);
    const char *colon = strrchr(spec, ':');
    if (spec[0] == '[') {                       /* [v6]:port */
        const char *close_br = strchr(spec, ']');
        if (!close_br || close_br[1] != ':')
            return WEB_EINVAL;
        addr = spec + 1;
        alen = (size_t)(close_br - spec - 1);
        port = close_br + 2;
    } else if (colon) {
        if (colon != strchr(spec, ':'))         /* a bare IPv6 address needs brackets */
            return WEB_EINVAL;
        if (colon > spec) {
            addr = spec;
            alen = (size_t)(colon - spec);
        }
        port = colon + 1;
    } else {
        port = spec;
    }
    if (!*port || alen == 0 || alen + 1 > len)
        return WEB_EINVAL;
    long p = 0;
    for (const char *c = port; *c; c++) {
        if (*c < '0' || *c > '9' || p > 65535)
            return WEB_EINVAL;
        p = p * 10 + (*c - '0');
    }
    if (p > 65535)
        return WEB_EINVAL;
    char tmp[64];
    if (alen >= sizeof tmp)
        return WEB_EINVAL;
    memcpy(tmp, addr, alen);
    tmp[alen] = '\0';
    unsigned char probe[16];
    if (inet_pton(AF_INET, tmp, probe) != 1 && inet_pton(AF_INET6, tmp, probe) != 1)
        return WEB_EINVAL;
    memcpy(buf, tmp, alen + 1);
    cfg->address = buf;
    cfg->port = (int)p;
    return WEB_OK;
}

static void event_release_locked(web_event_t *ev)
{
    if (ev && --ev->refs == 0)
        free(ev);
}

/* ---- responses ---- */

static enum MHD_Result reply(web_server_t *srv, struct MHD_Connection *c, unsigned status,
                             const char *type, const void *data, size_t len,
                             enum MHD_ResponseMemoryMode mode, bool no_store, bool framable)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, no_store ? "no-store" : "no-cache");
    if (strncmp(type, "text/html", 9) == 0) {
        /* the overlay may be framed by a broadcast page (it has no actions); the console
         * may not (a framing page could trick clicks onto its buttons) */
        MHD_add_response_header(r, "Content-Security-Policy",
                                framable ? "default-src 'self'; img-src 'self' data:; "
                                           "style-src 'self' 'unsafe-inline'; frame-ancestors *"
                                         : "default-src 'self'; img-src 'self' data:; "
                                           "style-src 'self' 'unsafe-inline'; "
                                           "frame-ancestors 'none'");
        if (!framable)
            MHD_add_response_header(r, "X-Frame-Options", "DENY");
        /* the console's address holds its token: never sent on as a Referer */
        MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    }
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    pthread_mutex_lock(&srv->mu);
    srv->requests++;
    if (status >= 400)
        srv->refused++;
    pthread_mutex_unlock(&srv->mu);
    return ret;
}

static enum MHD_Result reply_text(web_server_t *srv, struct MHD_Connection *c, unsigned status,
                                  const char *text)
{
    return reply(srv, c, status, "text/plain; charset=utf-8", text, strlen(text),
                 MHD_RESPMEM_MUST_COPY, true, false);
}

/* {"ok":false,"error":"..."} or {"ok":true,"message":"..."} */
static enum MHD_Result reply_json_result(web_server_t *srv, struct MHD_Connection *c,
                                         unsigned status, bool ok, const char *text)
{
    json_t *o = json_pack("{s:b,s:s}", "ok", ok, ok ? "message" : "error", text ? text : "");
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!s)
        return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    pthread_mutex_lock(&srv->mu);
    srv->requests++;
    if (status >= 400)
        srv->refused++;
    pthread_mutex_unlock(&srv->mu);
    return ret;
}

/* Copy a published blob under the lock and serve it, or 404 when none yet. */
static enum MHD_Result reply_published(web_server_t *srv, struct MHD_Connection *c,
                                       char *const *data, const size_t *len, const char *type,
                                       const char *what)
{
    pthread_mutex_lock(&srv->mu);
    char *copy = NULL;
    size_t n = 0;
    if (*data) {
        n = *len;
        copy = malloc(n ? n : 1);
        if (copy)
            memcpy(copy, *data, n);
    }
    bool had = *data != NULL;
    pthread_mutex_unlock(&srv->mu);
    if (!had) {
        char msg[96];
        snprintf(msg, sizeof msg, "no %s published yet\n", what);
        return reply_text(srv, c, MHD_HTTP_NOT_FOUND, msg);
    }
    if (!copy)
        return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(n, copy, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(copy);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    pthread_mutex_lock(&srv->mu);
    srv->requests++;
    pthread_mutex_unlock(&srv->mu);
    return ret;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* ---- Server-Sent Events ---- */

static time_t mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec;
}

/* Resume a suspended client; call with srv->mu held. */
static void sse_wake_locked(web_sse_t *cl)
{
    if (cl->suspended) {
        cl->suspended = false;
        MHD_resume_connection(cl->conn);
    }
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    web_sse_t *cl = cls;
    web_server_t *srv = cl->srv;
    if (!cl->hello) {
        static const char hello[] = "retry: 1000\n\n";
        cl->hello = true;
        cl->last_send = mono_s();
        memcpy(buf, hello, sizeof hello - 1);
        return (ssize_t)(sizeof hello - 1);
    }
    pthread_mutex_lock(&srv->mu);
    if (!cl->cur) {
        if (srv->stopping) {
            pthread_mutex_unlock(&srv->mu);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (cl->next > srv->seq) {
            time_t now = mono_s();
            if (now - cl->last_send >= srv->cfg.keepalive_s) {
                /* idle: a comment keeps proxies open and finds the clients that left */
                cl->last_send = now;
                pthread_mutex_unlock(&srv->mu);
                static const char ka[] = ": keepalive\n\n";
                memcpy(buf, ka, sizeof ka - 1);
                return (ssize_t)(sizeof ka - 1);
            }
            cl->suspended = true;           /* until a publish, a keepalive or destroy */
            MHD_suspend_connection(cl->conn);
            pthread_mutex_unlock(&srv->mu);
            return 0;
        }
        if (srv->seq - cl->next >= WEB_RING)
            cl->next = srv->seq;
        cl->cur = srv->events[cl->next % WEB_RING];
        cl->cur->refs++;
        cl->off = 0;
        cl->next++;
    }
    pthread_mutex_unlock(&srv->mu);
    size_t n = cl->cur->len - cl->off;
    if (n > max)
        n = max;
    memcpy(buf, cl->cur->text + cl->off, n);
    cl->off += n;
    cl->last_send = mono_s();
    if (cl->off == cl->cur->len) {
        pthread_mutex_lock(&srv->mu);
        event_release_locked(cl->cur);
        pthread_mutex_unlock(&srv->mu);
        cl->cur = NULL;
    }
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    web_sse_t *cl = cls;
    web_server_t *srv = cl->srv;
    pthread_mutex_lock(&srv->mu);
    event_release_locked(cl->cur);
    if (cl->prev)
        cl->prev->next_cl = cl->next_cl;
    else
        srv->sse_head = cl->next_cl;
    if (cl->next_cl)
        cl->next_cl->prev = cl->prev;
    srv->sse_clients--;
    pthread_mutex_unlock(&srv->mu);
    free(cl);
}

static void reap_slow(web_server_t *srv);

/* The waker: after each publish resume every suspended /events client, and once a second
 * those due for a keepalive. The resumes happen outside srv->mu (see the invariants). */
static void *waker_main(void *arg)
{
    web_server_t *srv = arg;
    struct timespec tick;
    clock_gettime(CLOCK_MONOTONIC, &tick);
    pthread_mutex_lock(&srv->mu);
    while (!srv->stopping) {
        struct timespec now_ts;
        clock_gettime(CLOCK_MONOTONIC, &now_ts);
        bool keepalive_due = now_ts.tv_sec > tick.tv_sec ||
                             (now_ts.tv_sec == tick.tv_sec && now_ts.tv_nsec >= tick.tv_nsec);
        if (!srv->wake_pending && !keepalive_due) {
            pthread_cond_timedwait(&srv->cv, &srv->mu, &tick);
            continue;
        }
        if (keepalive_due)
            tick.tv_sec = now_ts.tv_sec + 1;
        bool all = srv->wake_pending;
        srv->wake_pending = false;
        time_t now = now_ts.tv_sec;
        int n = 0;
        for (web_sse_t *cl = srv->sse_head; cl; cl = cl->next_cl)
            if (cl->suspended && (all || now - cl->last_send >= srv->cfg.keepalive_s) &&
                n < srv->cfg.max_sse_clients) {
                cl->suspended = false;
                srv->wake_list[n++] = cl;
            }
        pthread_mutex_unlock(&srv->mu);
        for (int i = 0; i < n; i++)
            MHD_resume_connection(srv->wake_list[i]->conn);
        if (keepalive_due)
            reap_slow(srv);   /* once a second, outside srv->mu */
        pthread_mutex_lock(&srv->mu);
    }
    pthread_mutex_unlock(&srv->mu);
    return NULL;
}

static enum MHD_Result serve_events(web_server_t *srv, struct MHD_Connection *c)
{
    web_sse_t *cl = calloc(1, sizeof *cl);
    if (!cl)
        return MHD_NO;
    pthread_mutex_lock(&srv->mu);
    bool full = srv->sse_clients >= srv->cfg.max_sse_clients;
    if (!full)
        srv->sse_clients++;
    cl->next = srv->seq ? srv->seq : 1;     /* the latest state first, then each new one */
    pthread_mutex_unlock(&srv->mu);
    if (full) {
        free(cl);
        return reply_text(srv, c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many /events clients\n");
    }
    cl->srv = srv;
    cl->conn = c;
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, WEB_SSE_BLOCK,
                                                               sse_read, cl, sse_free);
    if (!r) {
        free(cl);
        pthread_mutex_lock(&srv->mu);
        srv->sse_clients--;
        pthread_mutex_unlock(&srv->mu);
        return MHD_NO;
    }
    pthread_mutex_lock(&srv->mu);           /* from now on sse_free unlinks it */
    cl->next_cl = srv->sse_head;
    if (srv->sse_head)
        srv->sse_head->prev = cl;
    srv->sse_head = cl;
    srv->requests++;
    pthread_mutex_unlock(&srv->mu);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---- who may ask: Host and Origin ---- */

/* The host part of a Host header value ("name:port", "[v6]:port", "1.2.3.4") into out
 * (len bytes), lower case, without the port or a trailing dot; *v6 when bracketed. 0 or
 * -1 when malformed. */
static int host_name(const char *h, char *out, size_t len, bool *v6)
{
    size_t n;
    *v6 = h[0] == '[';
    if (*v6) {
        const char *e = strchr(h, ']');
        if (!e || (e[1] && e[1] != ':'))
            return -1;
        h++;
        n = (size_t)(e - h);
    } else {
        const char *colon = strchr(h, ':');
        if (colon && strchr(colon + 1, ':'))
            return -1;   /* a bare IPv6 address needs brackets */
        n = colon ? (size_t)(colon - h) : strlen(h);
    }
    if (n > 0 && h[n - 1] == '.')
        n--;
    if (n == 0 || n >= len)
        return -1;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)(h[i] >= 'A' && h[i] <= 'Z' ? h[i] - 'A' + 'a' : h[i]);
    out[n] = '\0';
    return 0;
}

/* The Host header names this station (web.h, "Who may ask"). No Host (HTTP/1.0): yes. */
static bool host_ok(const web_server_t *srv, struct MHD_Connection *c)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!h)
        return true;
    char name[256];
    bool v6;
    if (host_name(h, name, sizeof name, &v6))
        return false;
    unsigned char a[16];
    if (v6 ? inet_pton(AF_INET6, name, a) == 1 : inet_pton(AF_INET, name, a) == 1) {
        /* an address cannot be rebound: the served one, or any when serving all */
        if (srv->bind_any)
            return true;
        return v6 == srv->bind_v6 && !memcmp(a, srv->bind_addr, v6 ? 16 : 4);
    }
    if (v6)
        return false;
    if (!strcmp(name, "localhost"))
        return srv->bind_any || srv->bind_loopback;
    if (srv->hosts) {
        char key[260];
        snprintf(key, sizeof key, ",%s,", name);
        return strstr(srv->hosts, key) != NULL;
    }
    return false;
}

/* An Origin header ("http://host:port") is this station's own: the scheme http and the
 * rest the request's Host, as a browser writes them. */
static bool origin_ok(struct MHD_Connection *c, const char *origin)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    return h && strncasecmp(origin, "http://", 7) == 0 && strcasecmp(origin + 7, h) == 0;
}

/* ---- slow requests (slowloris) ---- */

static web_conn_t *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? (web_conn_t *)ci->socket_context : NULL;
}

/* The request on c is being answered (no deadline), or is done (the next one's deadline
 * starts). */
static void conn_deadline(web_server_t *srv, struct MHD_Connection *c, bool answering)
{
    web_conn_t *wc = conn_of(c);
    if (!wc)
        return;
    pthread_mutex_lock(&srv->conn_mu);
    wc->deadline = answering ? 0 : mono_s() + srv->cfg.request_timeout_s;
    pthread_mutex_unlock(&srv->conn_mu);
}

/* MHD's connection notices: a new connection gets its deadline; a closed one leaves the
 * list (before MHD closes its socket, so the reaper never touches a reused fd). */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    web_server_t *srv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        web_conn_t *wc = ci ? calloc(1, sizeof *wc) : NULL;
        *socket_context = wc;
        if (!wc)
            return;   /* no deadline for this one: the idle timeout still holds */
        wc->fd = ci->connect_fd;
        pthread_mutex_lock(&srv->conn_mu);
        wc->deadline = mono_s() + srv->cfg.request_timeout_s;
        wc->next = srv->conns;
        if (srv->conns)
            srv->conns->prev = wc;
        srv->conns = wc;
        pthread_mutex_unlock(&srv->conn_mu);
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        web_conn_t *wc = *socket_context;
        if (!wc)
            return;
        pthread_mutex_lock(&srv->conn_mu);
        if (wc->prev)
            wc->prev->next = wc->next;
        else
            srv->conns = wc->next;
        if (wc->next)
            wc->next->prev = wc->prev;
        pthread_mutex_unlock(&srv->conn_mu);
        free(wc);
        *socket_context = NULL;
    }
}

/* Close every connection past its deadline: shut its socket down, and MHD's loop sees the
 * end and frees the connection. Called by the waker once a second. */
static void reap_slow(web_server_t *srv)
{
    time_t now = mono_s();
    pthread_mutex_lock(&srv->conn_mu);
    for (web_conn_t *wc = srv->conns; wc; wc = wc->next)
        if (wc->deadline && now >= wc->deadline) {
            shutdown(wc->fd, SHUT_RDWR);
            wc->deadline = 0;
        }
    pthread_mutex_unlock(&srv->conn_mu);
}

/* ---- actions ---- */

/* The token of the request: Authorization: Bearer, or (only without an Origin header: a
 * script, not a page) ?token=. */
static bool token_ok(const web_server_t *srv, struct MHD_Connection *c, bool from_page)
{
    const char *given = NULL;
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        given = auth + 7;
        while (*given == ' ')
            given++;
    }
    if (!given && !from_page)
        given = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    if (!given)
        return false;
    size_t a = strlen(given), b = strlen(srv->token);
    unsigned diff = a != b;
    for (size_t i = 0; i < b; i++)      /* constant time in the token's length */
        diff |= (unsigned)(unsigned char)srv->token[i] ^ (unsigned char)(i < a ? given[i] : 0);
    return diff == 0;
}

static bool point_valid(const char *p)
{
    return p && strlen(p) == 2 && p[0] >= 'a' && p[0] <= 'y' && p[1] >= 'a' && p[1] <= 'y';
}

static bool color_valid(const char *c, bool empty_too)
{
    return c && (strcmp(c, "B") == 0 || strcmp(c, "W") == 0 || (empty_too && strcmp(c, "E") == 0));
}

const web_action_spec_t web_station_actions[] = {
    { "pass", 0 }, { "resign", 0 }, { "undo", 0 }, { "end", 0 },
    { "toggle", WEB_NEEDS_POINT }, { "accept", WEB_NEEDS_COLOR }, { "reject", WEB_NEEDS_COLOR },
    { "resume", 0 }, { "pause", 0 }, { "adjust", WEB_NEEDS_COLOR | WEB_NEEDS_SECONDS },
    { "corners", WEB_NEEDS_CORNERS }, { NULL, 0 }
};

/* The spec of action name on this server, or NULL when it takes no such action. */
static const web_action_spec_t *action_spec(const web_server_t *srv, const char *name)
{
    const web_action_spec_t *t = srv->cfg.actions ? srv->cfg.actions : web_station_actions;
    for (; t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* The corners action's body: "corners" must be four [x, y] pairs of finite numbers inside
 * the w x h frame, turning one way. On success fills out and returns NULL; else the
 * reason (written into buf when it names a corner). */
static const char *corners_check(json_t *body, int w, int h, double out[4][2], char *buf,
                                 size_t len)
{
    static const char shape[] = "corners must be [[x,y],[x,y],[x,y],[x,y]]: the grid's "
                                "top-left, top-right, bottom-right, bottom-left in pixels";
    if (w <= 0 || h <= 0)
        return "no frame to place corners on (the station is not calibrating)";
    json_t *a = body ? json_object_get(body, "corners") : NULL;
    if (!json_is_array(a) || json_array_size(a) != 4)
        return shape;
    for (int i = 0; i < 4; i++) {
        json_t *pt = json_array_get(a, (size_t)i);
        if (!json_is_array(pt) || json_array_size(pt) != 2 || !json_is_number(json_array_get(pt, 0)) ||
            !json_is_number(json_array_get(pt, 1)))
            return shape;
        double x = json_number_value(json_array_get(pt, 0)), y = json_number_value(json_array_get(pt, 1));
        if (!(x >= 0 && x <= w - 1 && y >= 0 && y <= h - 1)) {   /* NaN fails too */
            snprintf(buf, len, "corner %d (%.1f, %.1f) is outside the %dx%d frame", i + 1, x, y, w, h);
            return buf;
        }
        out[i][0] = x;
        out[i][1] = y;
    }
    int sign = 0;
    for (int i = 0; i < 4; i++) {
        const double *p = out[i], *q = out[(i + 1) % 4], *r = out[(i + 2) % 4];
        double cross = (q[0] - p[0]) * (r[1] - q[1]) - (q[1] - p[1]) * (r[0] - q[0]);
        int s = cross > 1e-9 ? 1 : cross < -1e-9 ? -1 : 0;
        if (s == 0 || (sign && s != sign))
            return "the four corners do not make a convex quadrilateral (give them in order: "
                   "top-left, top-right, bottom-right, bottom-left)";
        sign = s;
    }
    return NULL;
}

static enum MHD_Result serve_action(web_server_t *srv, struct MHD_Connection *c,
                                    const char *name, web_req_t *req)
{
    const web_action_spec_t *spec = action_spec(srv, name);
    if (!spec)
        return reply_json_result(srv, c, MHD_HTTP_NOT_FOUND, false, "unknown action");
    unsigned needs = spec->needs;
    /* from a page (an Origin header): only this station's own pages, and the token in the
     * Authorization header (a cross-site form can put ?token= in its URL, not a header) */
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (origin && !origin_ok(c, origin))
        return reply_json_result(srv, c, MHD_HTTP_FORBIDDEN, false,
                                 "the action comes from another site's page (Origin)");
    if (origin && !MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION) &&
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token"))
        return reply_json_result(srv, c, MHD_HTTP_FORBIDDEN, false,
                                 "from a page the token goes in the Authorization header, "
                                 "not the address");
    if (!token_ok(srv, c, origin != NULL))
        return reply_json_result(srv, c, MHD_HTTP_UNAUTHORIZED, false, "missing or wrong token");

    const char *point = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "point");
    const char *color = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "color");
    json_t *body = NULL;
    if (req->len > 0) {
        json_error_t err;
        body = json_loadb(req->body, req->len, JSON_REJECT_DUPLICATES, &err);
        if (!body || !json_is_object(body)) {
            json_decref(body);
            return reply_json_result(srv, c, MHD_HTTP_BAD_REQUEST, false,
                                     "the body is not a JSON object");
        }
        json_t *v;
        if (!point && (v = json_object_get(body, "point")))
            point = json_is_string(v) ? json_string_value(v) : "?";
        if (!color && (v = json_object_get(body, "color")))
            color = json_is_string(v) ? json_string_value(v) : "?";
    }
    /* seconds (adjust): from ?seconds=N or the body's "seconds"; at most ten hours */
    const char *secs = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "seconds");
    double seconds = 0;
    bool has_seconds = false, bad_seconds = false;
    if (secs) {
        char *end = NULL;
        seconds = strtod(secs, &end);
        has_seconds = true;
        bad_seconds = end == secs || *end != '\0';
    } else if (body && json_object_get(body, "seconds")) {
        json_t *v = json_object_get(body, "seconds");
        has_seconds = true;
        bad_seconds = !json_is_number(v);
        seconds = bad_seconds ? 0 : json_number_value(v);
    }
    if (has_seconds && !(seconds >= -36000 && seconds <= 36000))
        bad_seconds = true;
    const char *bad = NULL;
    char nbuf[96];
    bool empty_too = (needs & WEB_COLOR_EMPTY) != 0;
    if (bad_seconds) {
        bad = "seconds must be a number of seconds (-36000..36000)";
    } else if (point && !point_valid(point)) {
        bad = "point must be two letters a..y (SGF)";
    } else if (color && !color_valid(color, empty_too)) {
        bad = empty_too ? "color must be B, W or E (empty)" : "color must be B or W";
    } else if (((needs & WEB_NEEDS_POINT) && !point) || ((needs & WEB_NEEDS_COLOR) && !color) ||
               ((needs & WEB_NEEDS_SECONDS) && !has_seconds)) {
        /* what the action needs, said whole: "adjust needs color=B or color=W and seconds=N" */
        bool p = needs & WEB_NEEDS_POINT, col = needs & WEB_NEEDS_COLOR,
             sec = needs & WEB_NEEDS_SECONDS;
        snprintf(nbuf, sizeof nbuf, "%s needs %s%s%s%s%s", name, p ? "point=dd" : "",
                 p && (col || sec) ? " and " : "", col ? "color=B or color=W" : "",
                 col && sec ? " and " : "", sec ? "seconds=N" : "");
        bad = nbuf;
    }
    double corners[4][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    char cbuf[160];
    bool is_corners = (needs & WEB_NEEDS_CORNERS) != 0;
    if (!bad && is_corners) {
        pthread_mutex_lock(&srv->mu);
        int fw = srv->frame_w, fh = srv->frame_h;
        pthread_mutex_unlock(&srv->mu);
        bad = corners_check(body, fw, fh, corners, cbuf, sizeof cbuf);
    }
    if (bad) {
        json_decref(body);
        return reply_json_result(srv, c, MHD_HTTP_BAD_REQUEST, false, bad);
    }

    web_action_t act;
    memset(&act, 0, sizeof act);
    act.name = name;
    act.point = point;
    act.color = color;
    act.body = req->len ? req->body : NULL;
    act.has_seconds = has_seconds;
    act.seconds = seconds;
    act.has_corners = is_corners;
    memcpy(act.corners, corners, sizeof corners);
    char msg[256] = "";
    int rc = -1;
    pthread_mutex_lock(&srv->action_mu);
    if (srv->on_action)
        rc = srv->on_action(srv->user, &act, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "this station takes no actions");
    pthread_mutex_unlock(&srv->action_mu);
    msg[sizeof msg - 1] = '\0';
    json_decref(body);
    return reply_json_result(srv, c, rc == 0 ? MHD_HTTP_OK
                                     : rc == WEB_ACTION_MALFORMED ? MHD_HTTP_BAD_REQUEST
                                                                  : MHD_HTTP_CONFLICT,
                             rc == 0, msg);
}

/* ---- routing ---- */

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    web_server_t *srv = cls;
    web_req_t *req = *con_cls;
    bool is_get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    bool is_post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    bool is_api = strncmp(url, "/api/", 5) == 0;

    if (!req) {                         /* first call: headers only */
        req = calloc(1, sizeof *req);
        if (!req)
            return MHD_NO;
        *con_cls = req;
        if (!host_ok(srv, c)) {
            conn_deadline(srv, c, true);
            return reply_text(srv, c, MHD_HTTP_MISDIRECTED_REQUEST,
                              "this Host is not this station's address (a page of another "
                              "site?): use its address, or start it with --serve-host NAME\n");
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(cl, &end, 10);
            if (errno || end == cl || n > srv->cfg.max_body) {
                conn_deadline(srv, c, true);
                return reply_text(srv, c, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large\n");
            }
        }
        if (!is_post || !is_api)
            return MHD_YES;             /* the body (if any) is read and dropped below */
        return MHD_YES;
    }
    if (*upload_data_size) {            /* a piece of the body */
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (req->too_large || req->len + n > srv->cfg.max_body) {
            req->too_large = true;
            return MHD_NO;              /* chunked past the limit: cut the connection */
        }
        if (!is_post || !is_api)
            return MHD_YES;
        char *nb = realloc(req->body, req->len + n + 1);
        if (!nb)
            return MHD_NO;
        memcpy(nb + req->len, upload_data, n);
        req->body = nb;
        req->len += n;
        req->body[req->len] = '\0';
        return MHD_YES;
    }

    conn_deadline(srv, c, true);       /* all of the request is in: the answer has no deadline */
    if (is_api) {
        if (!is_post)
            return reply_text(srv, c, MHD_HTTP_METHOD_NOT_ALLOWED, "actions are POST\n");
        return serve_action(srv, c, url + 5, req);
    }
    const web_asset_t *a = web_asset_find(url);
    bool route = a || strcmp(url, "/") == 0 || strcmp(url, "/events") == 0 ||
                 strcmp(url, "/state.json") == 0 || strcmp(url, "/game.sgf") == 0 ||
                 strcmp(url, "/frame.jpg") == 0;
    if (!route)
        return reply_text(srv, c, MHD_HTTP_NOT_FOUND, "not found\n");
    if (!is_get)
        return reply_text(srv, c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n");
    if (a)
        return reply(srv, c, MHD_HTTP_OK, a->type, a->data, a->len, MHD_RESPMEM_PERSISTENT, false,
                     strcmp(url, "/overlay") == 0);
    if (strcmp(url, "/") == 0) {
        static const char index[] =
            "<!doctype html><meta charset=utf-8><title>kifucam</title>"
            "<p><a href=\"/overlay\">overlay</a> &middot; <a href=\"/console\">console</a> "
            "(add ?token=TOKEN) &middot; <a href=\"/game.sgf\">game.sgf</a> &middot; "
            "<a href=\"/state.json\">state.json</a> &middot; <a href=\"/frame.jpg\">frame.jpg</a>";
        return reply(srv, c, MHD_HTTP_OK, "text/html; charset=utf-8", index, sizeof index - 1,
                     MHD_RESPMEM_PERSISTENT, false, false);
    }
    if (strcmp(url, "/events") == 0)
        return serve_events(srv, c);
    if (strcmp(url, "/state.json") == 0)
        return reply_published(srv, c, &srv->state, &srv->state_len, "application/json", "state");
    if (strcmp(url, "/game.sgf") == 0)
        return reply_published(srv, c, &srv->sgf, &srv->sgf_len,
                               "application/x-go-sgf; charset=utf-8", "record");
    return reply_published(srv, c, &srv->frame, &srv->frame_len, "image/jpeg",
                           "frame");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    conn_deadline(cls, c, false);      /* the next request on this connection: a deadline */
    web_req_t *req = *con_cls;
    if (req) {
        free(req->body);
        free(req);
        *con_cls = NULL;
    }
}

/* Percent-decoding of the path and the query (in place), except that "%00" is left as
 * it is: a NUL must never cut a path or a value short ("/%00" is 404, not "/"). */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    char *w = s;
    for (const char *r = s; *r; r++) {
        int hi, lo;
        if (r[0] == '%' && r[1] && r[2] && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0 &&
            (hi | lo) != 0) {
            *w++ = (char)(hi * 16 + lo);
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}

/* ---- life cycle ---- */

int web_random_token(char out[33])
{
    unsigned char raw[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return WEB_ERANDOM;
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = read(fd, raw + got, sizeof raw - got);
        if (n <= 0 && errno != EINTR)
            break;
        if (n > 0)
            got += (size_t)n;
    }
    close(fd);
    if (got < sizeof raw)
        return WEB_ERANDOM;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return WEB_OK;
}

#ifndef SCHED_BATCH
#define SCHED_BATCH 3   /* Linux; <sched.h> shows it only with _GNU_SOURCE */
#endif

/* What the starter thread needs and gives back. */
typedef struct web_start {
    web_server_t *srv;
    unsigned flags;
    const struct sockaddr *sa;
    int rc;
} web_start_t;

/* Runs in a short-lived thread: lowers its own priority (SCHED_BATCH: no wakeup
 * preemption of the recording loop; nice +5), then starts MHD's thread and the waker,
 * which inherit both. Best effort: a refusal leaves the normal priority. */
static void *starter_main(void *arg)
{
    web_start_t *st = arg;
    web_server_t *srv = st->srv;
    if (srv->cfg.low_priority) {
        struct sched_param sp;
        memset(&sp, 0, sizeof sp);
        pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
        setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + 5);  /* this thread (Linux) */
    }
    const web_config_t *c = &srv->cfg;
    srv->daemon = MHD_start_daemon(
        st->flags, 0, NULL, NULL, on_request, srv,
        MHD_OPTION_SOCK_ADDR, st->sa,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)c->max_connections,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)c->connection_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, srv,
        MHD_OPTION_END);
    if (!srv->daemon) {
        st->rc = WEB_ESTART;
        return NULL;
    }
    if (pthread_create(&srv->waker, NULL, waker_main, srv) != 0) {
        st->rc = WEB_ENOMEM;
        return NULL;
    }
    srv->waker_started = true;
    st->rc = WEB_OK;
    return NULL;
}

int web_server_create(const web_config_t *cfg, web_action_fn on_action, void *user,
                      web_server_t **out)
{
    if (!out)
        return WEB_EINVAL;
    web_config_t c;
    web_config_defaults(&c);
    if (cfg)
        c = *cfg;
    if (c.port < 0 || c.port > 65535 || c.max_connections <= 0 || c.max_sse_clients <= 0 ||
        c.connection_timeout_s <= 0 || c.keepalive_s <= 0 || c.request_timeout_s <= 0)
        return WEB_EINVAL;
    if (c.token && strlen(c.token) > 128)
        return WEB_EINVAL;

    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    struct sockaddr *sa;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC;
    const char *addr = c.address && *c.address ? c.address : "127.0.0.1";
    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    if (inet_pton(AF_INET, addr, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)c.port);
        sa = (struct sockaddr *)&a4;
    } else if (inet_pton(AF_INET6, addr, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)c.port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    } else {
        return WEB_EINVAL;
    }

    web_server_t *srv = calloc(1, sizeof *srv);
    if (!srv)
        return WEB_ENOMEM;
    srv->cfg = c;
    srv->cfg.address = NULL;
    srv->cfg.token = NULL;
    srv->cfg.hosts = NULL;
    if (sa == (struct sockaddr *)&a4) {
        memcpy(srv->bind_addr, &a4.sin_addr, 4);
        srv->bind_any = a4.sin_addr.s_addr == htonl(INADDR_ANY);
        srv->bind_loopback = (ntohl(a4.sin_addr.s_addr) >> 24) == 127;
    } else {
        memcpy(srv->bind_addr, &a6.sin6_addr, 16);
        srv->bind_v6 = true;
        srv->bind_any = IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr);
        srv->bind_loopback = IN6_IS_ADDR_LOOPBACK(&a6.sin6_addr);
    }
    if (c.hosts && *c.hosts) {
        size_t hl = strlen(c.hosts);
        srv->hosts = malloc(hl + 3);
        if (!srv->hosts) {
            free(srv);
            return WEB_ENOMEM;
        }
        /* ",name,name,": lower case, no spaces, so that host_ok looks ",name," up */
        size_t k = 0;
        srv->hosts[k++] = ',';
        for (size_t i = 0; i < hl; i++) {
            char ch = c.hosts[i];
            if (ch == ' ' || ch == '\t')
                continue;
            srv->hosts[k++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        }
        srv->hosts[k++] = ',';
        srv->hosts[k] = '\0';
    }
    if (c.token && *c.token) {
        memcpy(srv->token, c.token, strlen(c.token) + 1);
    } else {
        int rc = web_random_token(srv->token);
        if (rc) {
            free(srv->hosts);
            free(srv);
            return rc;
        }
    }
    srv->on_action = on_action;
    srv->user = user;
    // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
    srv->wake_list = calloc((size_t)c.max_sse_clients, sizeof *srv->wake_list);
    if (!srv->wake_list) {
        free(srv->hosts);
        free(srv);
        return WEB_ENOMEM;
    }
    pthread_mutex_init(&srv->mu, NULL);
    pthread_mutex_init(&srv->conn_mu, NULL);
    pthread_mutex_init(&srv->action_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&srv->cv, &ca);
    pthread_condattr_destroy(&ca);

    web_start_t st = { srv, flags, sa, WEB_ENOMEM };
    pthread_t starter;
    if (pthread_create(&starter, NULL, starter_main, &st) != 0) {
        web_server_destroy(srv);
        return WEB_ENOMEM;
    }
    pthread_join(starter, NULL);
    if (st.rc != WEB_OK) {
        web_server_destroy(srv);
        return st.rc;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
    srv->port = info ? info->port : c.port;
    *out = srv;
    return WEB_OK;
}

void web_server_destroy(web_server_t *srv)
{
    if (!srv)
        return;
    if (srv->daemon) {
        MHD_socket ls = MHD_quiesce_daemon(srv->daemon);
        if (ls != MHD_INVALID_SOCKET)
            close(ls);
    }
    pthread_mutex_lock(&srv->mu);
    srv->stopping = true;
    pthread_cond_broadcast(&srv->cv);
    pthread_mutex_unlock(&srv->mu);
    if (srv->waker_started)
        pthread_join(srv->waker, NULL);
    pthread_mutex_lock(&srv->mu);
    for (web_sse_t *cl = srv->sse_head; cl; cl = cl->next_cl)
        sse_wake_locked(cl);
    pthread_mutex_unlock(&srv->mu);
    if (srv->daemon)
        MHD_stop_daemon(srv->daemon);
    for (int i = 0; i < WEB_RING; i++)
        event_release_locked(srv->events[i]);
    free(srv->state);
    free(srv->sgf);
    free(srv->frame);
    free(srv->wake_list);
    free(srv->hosts);
    pthread_cond_destroy(&srv->cv);
    pthread_mutex_destroy(&srv->action_mu);
    pthread_mutex_destroy(&srv->conn_mu);
    pthread_mutex_destroy(&srv->mu);
    free(srv);
}

int web_server_port(const web_server_t *srv)
{
    return srv ? srv->port : 0;
}

const char *web_server_token(const web_server_t *srv)
{
    return srv ? srv->token : "";
}

int web_server_publish_state(web_server_t *srv, const char *state_json)
{
    if (!srv || !state_json)
        return WEB_EINVAL;
    json_error_t err;
    json_t *o = json_loads(state_json, 0, &err);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        return WEB_EINVAL;
    }
    char *compact = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!compact)
        return WEB_ENOMEM;
    size_t len = strlen(compact);
    web_event_t *ev = malloc(sizeof *ev + len + 48);
    if (!ev) {
        free(compact);
        return WEB_ENOMEM;
    }
    pthread_mutex_lock(&srv->mu);
    uint64_t seq = srv->seq + 1;
    /* "id: " + at most 20 digits + "\ndata: " + len + "\n\n" + NUL fits in len + 48 */
    int n = snprintf(ev->text, len + 48, "id: %llu\ndata: %s\n\n", (unsigned long long)seq,
                     compact);
    ev->len = (size_t)n;
    ev->refs = 1;
    event_release_locked(srv->events[seq % WEB_RING]);
    srv->events[seq % WEB_RING] = ev;
    srv->seq = seq;
    free(srv->state);
    srv->state = compact;
    srv->state_len = len;
    srv->wake_pending = true;
    pthread_cond_signal(&srv->cv);
    pthread_mutex_unlock(&srv->mu);
    return WEB_OK;
}

static int publish_blob(web_server_t *srv, char **slot, size_t *slot_len, const void *data,
                        size_t len)
{
    if (!srv || !data)
        return WEB_EINVAL;
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return WEB_ENOMEM;
    memcpy(copy, data, len);
    pthread_mutex_lock(&srv->mu);
    free(*slot);
    *slot = copy;
    *slot_len = len;
    pthread_mutex_unlock(&srv->mu);
    return WEB_OK;
}

int web_server_publish_sgf(web_server_t *srv, const char *sgf)
{
    if (!srv || !sgf)
        return WEB_EINVAL;
    return publish_blob(srv, &srv->sgf, &srv->sgf_len, sgf, strlen(sgf));
}

int web_server_publish_frame(web_server_t *srv, const uint8_t *jpeg, size_t len)
{
    if (!srv || !jpeg || len == 0)
        return WEB_EINVAL;
    return publish_blob(srv, &srv->frame, &srv->frame_len, jpeg, len);
}

int web_server_set_frame_size(web_server_t *srv, int w, int h)
{
    if (!srv || w < 1 || h < 1 || w > 65535 || h > 65535)
        return WEB_EINVAL;
    pthread_mutex_lock(&srv->mu);
    srv->frame_w = w;
    srv->frame_h = h;
    pthread_mutex_unlock(&srv->mu);
    return WEB_OK;
}

void web_server_stats(web_server_t *srv, web_stats_t *out)
{
    if (!srv || !out)
        return;
    pthread_mutex_lock(&srv->mu);
    out->sse_clients = srv->sse_clients;
    out->events = srv->seq;
    out->requests = srv->requests;
    out->refused = srv->refused;
    pthread_mutex_unlock(&srv->mu);
}
