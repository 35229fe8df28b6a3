/* hub.c: the hub's board table and its MQTT subscription (hub.h).
 *
 * One thread of the hub's own owns the libmosquitto client, a fresh one for each
 * connection: it connects, polls the socket (mosquitto_loop_read / _write / _misc), and
 * after any failure (the broker down, the link lost, no CONNACK in 10 s, a TLS error) drops
 * the client, waits and connects again, 0.5 s doubling to backoff_max_s, reset by a
 * connection that came up; a refusal waits backoff_max_s. (libmosquitto's own loop thread
 * gives up for good after a TLS error or EPROTO, which is how a TLS link that a killed
 * broker dropped ends: the hub would never come back.) Each
 * connection subscribes again to PREFIX/+/state, /sgf, /status and /event (QoS 1), so the
 * broker sends the retained states and records again. Messages go to hub_feed, which is
 * also the tests' door to the table.
 *
 * Invariants: only the MQTT thread calls libmosquitto between hub_create's start of it and
 * hub_destroy's join (its callbacks run in it, and take h->mu for the table and the status);
 * h->mq_* and h->tls are that thread's own.
 */
#include "relay/hub_int.h"
#include "relay/rly_tls.h"
#include "web/web.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <mosquitto.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HUB_BACKOFF_MIN_S 0.5
#define HUB_CONNECT_TIMEOUT_S 10.0

#ifndef MQTT_PROTOCOL_V5
#define MQTT_PROTOCOL_V5 5
#endif

const char *hub_strerror(int code)
{
    switch (code) {
    case HUB_OK: return "success";
    case HUB_EINVAL: return "invalid argument";
    case HUB_ENOMEM: return "out of memory";
    case HUB_ESTART: return "the hub could not start";
    case HUB_ERANDOM: return "no random bytes for the token";
    default: return "unknown error";
    }
}

void hub_config_defaults(hub_config_t *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->max_clients = 64;
    cfg->keepalive_s = 10;
    cfg->backoff_max_s = 5;
}

/* ---- the table ---- */

hub_board_t *hub_find_locked(hub_t *h, const char *name)
{
    int lo = 0, hi = h->nb - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(h->boards[mid]->name, name);
        if (c == 0)
            return h->boards[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

static hub_board_t *board_get_locked(hub_t *h, const char *name)
{
    hub_board_t *b = hub_find_locked(h, name);
    if (b)
        return b;
    if (h->nb == h->cap) {
        int cap = h->cap ? h->cap * 2 : 32;
        // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
        hub_board_t **nv = realloc(h->boards, (size_t)cap * sizeof *nv);
        if (!nv)
            return NULL;
        h->boards = nv;
        h->cap = cap;
    }
    b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    snprintf(b->name, sizeof b->name, "%s", name);
    b->online = -1;
    int at = 0;
    while (at < h->nb && strcmp(h->boards[at]->name, name) < 0)
        at++;
    // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
    memmove(h->boards + at + 1, h->boards + at, (size_t)(h->nb - at) * sizeof h->boards[0]);
    h->boards[at] = b;
    h->nb++;
    h->st.boards = h->nb;
    h->st.new_boards++;
    return b;
}

static void board_free(hub_board_t *b)
{
    if (!b)
        return;
    free(b->entry);
    free(b->sgf);
    free(b);
}

int hub_forget(hub_t *h, const char *name)
{
    pthread_mutex_lock(&h->mu);
    int found = 0;
    for (int i = 0; i < h->nb; i++)
        if (!strcmp(h->boards[i]->name, name)) {
            board_free(h->boards[i]);
            // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
            memmove(h->boards + i, h->boards + i + 1, (size_t)(h->nb - i - 1) * sizeof h->boards[0]);
            h->nb--;
            h->st.boards = h->nb;
            h->gen++;
            found = 1;
            break;
        }
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return found;
}

char *hub_entry_locked(const hub_board_t *b, size_t *len)
{
    if (!b->entry)
        return NULL;
    size_t n = strlen(b->entry);
    char head[160];
    int hn = snprintf(head, sizeof head, "{\"online\":%s,\"received\":%" PRIu64 ",\"events\":%" PRIu64 ",",
                      b->online == 1 ? "true" : b->online == 0 ? "false" : "null", b->received,
                      b->events);
    char *s = malloc((size_t)hn + n);
    if (!s)
        return NULL;
    memcpy(s, head, (size_t)hn);
    memcpy(s + hn, b->entry + 1, n);   /* past its '{', with its NUL */
    if (len)
        *len = (size_t)hn + n - 1;
    return s;
}

/* The (run, seq) of a message's "relay" object; 0 when missing. */
static int relay_stamp(json_t *o, uint64_t *run, uint64_t *seq)
{
    json_t *m = json_object_get(o, "relay");
    json_t *jr = json_object_get(m, "run"), *js = json_object_get(m, "seq");
    if (!json_is_integer(jr) || !json_is_integer(js) || json_integer_value(jr) < 0 ||
        json_integer_value(js) < 0)
        return 0;
    *run = (uint64_t)json_integer_value(jr);
    *seq = (uint64_t)json_integer_value(js);
    return 1;
}

/* The entry: the state with "board" the name and its rows under "position". */
static char *make_entry(json_t *state, const char *name)
{
    json_t *rows = json_object_get(state, "board");
    if (rows) {
        json_incref(rows);
        json_object_del(state, "board");
        json_object_set_new(state, "position", rows);
    }
    json_t *e = json_object();
    if (!e)
        return NULL;
    json_object_set_new(e, "board", json_string(name));
    json_object_update(e, state);
    json_object_set_new(e, "board", json_string(name));
    char *s = json_dumps(e, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(e);
    return s;
}

int hub_feed(hub_t *h, const char *topic, const void *payload, size_t len, uint64_t recv_ms)
{
    if (!h || !topic || (!payload && len))
        return 0;
    size_t pl = strlen(h->url.prefix);
    if (strncmp(topic, h->url.prefix, pl) || topic[pl] != '/')
        return 0;
    const char *name0 = topic + pl + 1, *slash = strchr(name0, '/');
    if (!slash || (size_t)(slash - name0) > RLY_NAME_MAX)
        goto bad;
    char name[RLY_NAME_MAX + 1];
    memcpy(name, name0, (size_t)(slash - name0));
    name[slash - name0] = '\0';
    const char *kind = slash + 1;
    if (!rly_name_ok(name))
        goto bad;
    int is_state = !strcmp(kind, "state"), is_event = !strcmp(kind, "event"),
        is_status = !strcmp(kind, "status"), is_sgf = !strcmp(kind, "sgf");
    if (!is_state && !is_event && !is_status && !is_sgf)
        return 0;
    if (is_sgf) {
        if (len == 0)
            return 0;   /* a retained message cleared */
        char *copy = malloc(len + 1);
        if (!copy)
            return 0;
        memcpy(copy, payload, len);
        copy[len] = '\0';
        pthread_mutex_lock(&h->mu);
        hub_board_t *b = board_get_locked(h, name);
        if (!b) {
            pthread_mutex_unlock(&h->mu);
            free(copy);
            return 0;
        }
        free(b->sgf);
        b->sgf = copy;
        b->sgf_len = len;
        pthread_mutex_unlock(&h->mu);
        return 1;   /* the pages do not show the record: no event */
    }
    if (len == 0)
        return 0;
    json_error_t jerr;
    json_t *o = json_loadb(payload, len, 0, &jerr);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        goto bad;
    }
    uint64_t run = 0, seq = 0;
    int changed = 0;
    if (is_status) {
        json_t *on = json_object_get(o, "online");
        if (!json_is_boolean(on)) {
            json_decref(o);
            goto bad;
        }
        pthread_mutex_lock(&h->mu);
        hub_board_t *b = board_get_locked(h, name);
        if (b && b->online != json_is_true(on)) {
            b->online = json_is_true(on);
            b->upd = ++h->gen;
            changed = 1;
            pthread_cond_broadcast(&h->cv);
        }
        pthread_mutex_unlock(&h->mu);
        json_decref(o);
        return changed;
    }
    if (!relay_stamp(o, &run, &seq)) {
        json_decref(o);
        goto bad;
    }
    if (is_event) {
        json_decref(o);
        pthread_mutex_lock(&h->mu);
        hub_board_t *b = board_get_locked(h, name);
        if (b) {
            int k = 0, oldest = 0;
            for (k = 0; k < HUB_RUNS && b->ev_run[k] != run; k++)
                if (b->ev_run[k] < b->ev_run[oldest])
                    oldest = k;
            if (k == HUB_RUNS) {   /* a new run replaces the oldest remembered */
                k = oldest;
                b->ev_run[k] = run;
                b->ev_seq[k] = 0;
            }
            if (seq > b->ev_seq[k]) {
                b->ev_seq[k] = seq;
                b->events++;
                h->st.events++;
                changed = 1;
            } else {
                b->dups++;
                h->st.dups++;
            }
        }
        pthread_mutex_unlock(&h->mu);
        return changed;
    }
    /* a state */
    pthread_mutex_lock(&h->mu);
    hub_board_t *b = board_get_locked(h, name);
    int newer = b && (run > b->run || (run == b->run && seq > b->seq));
    if (b && !newer)
        h->st.stale++;
    pthread_mutex_unlock(&h->mu);
    if (!newer) {
        json_decref(o);
        return 0;
    }
    char *entry = make_entry(o, name);
    json_decref(o);
    if (!entry)
        return 0;
    pthread_mutex_lock(&h->mu);
    b = board_get_locked(h, name);   /* forgotten meanwhile: back again */
    if (b && (run > b->run || (run == b->run && seq > b->seq))) {
        free(b->entry);
        b->entry = entry;
        entry = NULL;
        b->run = run;
        b->seq = seq;
        b->received = recv_ms;
        b->upd = ++h->gen;
        h->st.states++;
        changed = 1;
        pthread_cond_broadcast(&h->cv);
    } else if (b) {
        h->st.stale++;
    }
    pthread_mutex_unlock(&h->mu);
    free(entry);
    return changed;
bad:
    pthread_mutex_lock(&h->mu);
    h->st.bad++;
    pthread_mutex_unlock(&h->mu);
    return 0;
}

char *hub_boards_json(hub_t *h)
{
    if (!h)
        return NULL;
    pthread_mutex_lock(&h->mu);
    size_t cap = 64, n = 0;
    for (int i = 0; i < h->nb; i++)
        cap += (h->boards[i]->entry ? strlen(h->boards[i]->entry) : 0) + 160;
    char *s = malloc(cap);
    if (!s) {
        pthread_mutex_unlock(&h->mu);
        return NULL;
    }
    n = (size_t)snprintf(s, cap, "{\"broker\":\"%s\",\"boards\":[",
                         h->st.link == 1 ? "up" : h->st.link == 3 ? "refused"
                         : h->st.link == 2 ? "down" : "connecting");
    int first = 1;
    for (int i = 0; i < h->nb; i++) {
        size_t el;
        char *e = hub_entry_locked(h->boards[i], &el);
        if (!e)
            continue;
        if (!first)
            s[n++] = ',';
        first = 0;
        memcpy(s + n, e, el);
        n += el;
        free(e);
    }
    memcpy(s + n, "]}", 3);
    pthread_mutex_unlock(&h->mu);
    return s;
}

void hub_status(hub_t *h, hub_status_t *out)
{
    if (!h || !out)
        return;
    pthread_mutex_lock(&h->mu);
    *out = h->st;
    pthread_mutex_unlock(&h->mu);
}

int hub_port(const hub_t *h)
{
    return h ? h->port : 0;
}

const char *hub_token(const hub_t *h)
{
    return h ? h->token : "";
}

/* ---- MQTT ---- */

static void set_link(hub_t *h, int link, const char *reason)
{
    pthread_mutex_lock(&h->mu);
    if (h->st.link != link || strcmp(h->st.reason, reason)) {
        h->st.link = link;
        snprintf(h->st.reason, sizeof h->st.reason, "%s", reason);
        h->st.changes++;
        h->gen++;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
}

static void on_connect(struct mosquitto *m, void *obj, int rc, int flags,
                       const mosquitto_property *props)
{
    (void)flags;
    (void)props;
    hub_t *h = obj;
    if (rc != 0) {
        char why[160];
        snprintf(why, sizeof why, "the broker refused the connection: %s", mosquitto_reason_string(rc));
        h->mq_refused = 1;
        set_link(h, 3, why);
        return;
    }
    static const char *const kinds[] = { "state", "sgf", "status", "event" };
    for (int i = 0; i < 4; i++) {
        char sub[200];
        snprintf(sub, sizeof sub, "%s/+/%s", h->url.prefix, kinds[i]);
        mosquitto_subscribe(m, NULL, sub, 1);
    }
    h->mq_up = 1;
    set_link(h, 1, "");
}

/* libmosquitto's log: only what says why a TLS handshake failed is kept */
static void on_log(struct mosquitto *m, void *obj, int level, const char *line)
{
    hub_t *h = obj;
    rly_tls_log(&h->tls, m, level, line);
}

static void on_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg,
                       const mosquitto_property *props)
{
    (void)m;
    (void)props;
    hub_feed(obj, msg->topic, msg->payload, msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0,
             rly_now_ms());
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The client failed (rly_fail_reason): say why. A refusal (the broker's CONNACK, or TLS:
 * its certificate not accepted) is link 3; the rest link 2. */
static void mqtt_failed(hub_t *h, int rc, int e)
{
    if (h->mq_refused)
        return;   /* on_connect said why */
    char why[sizeof h->st.reason];
    if (rly_fail_reason(&h->tls, rc, e, h->mq_up, 0, h->url.host, h->url.port, h->ca_file,
                        why, sizeof why)) {
        h->mq_refused = 1;
        set_link(h, 3, why);
        return;
    }
    set_link(h, 2, why);
}

/* A fresh client for one connection (each connection has its own: nothing of an old one
 * lingers); NULL when libmosquitto cannot make one or refuses the TLS settings. */
static struct mosquitto *mqtt_client(hub_t *h)
{
    struct mosquitto *m = mosquitto_new(NULL, true, h);
    if (!m)
        return NULL;
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_connect_v5_callback_set(m, on_connect);
    mosquitto_message_v5_callback_set(m, on_message);
    if (h->user[0])
        mosquitto_username_pw_set(m, h->user, h->pass[0] ? h->pass : NULL);
    if (h->url.tls || h->ca_file) {
        mosquitto_log_callback_set(m, on_log);
        if (rly_tls_setup(m, h->ca_file) != RLY_OK) {
            mosquitto_destroy(m);
            return NULL;
        }
    }
    return m;
}

/* One turn with a connection under way or up: poll its socket up to 100 ms, read, write,
 * keep alive. MOSQ_ERR_SUCCESS while it lives. */
static int mqtt_turn(hub_t *h, double since)
{
    int sock = mosquitto_socket(h->mosq);
    if (sock < 0)
        return MOSQ_ERR_NO_CONN;
    struct pollfd pf = { sock, (short)(POLLIN | (mosquitto_want_write(h->mosq) ? POLLOUT : 0)), 0 };
    int n = poll(&pf, 1, 100), rc = MOSQ_ERR_SUCCESS;
    if (n > 0 && (pf.revents & (POLLIN | POLLERR | POLLHUP)))
        rc = mosquitto_loop_read(h->mosq, 1);
    if (rc == MOSQ_ERR_SUCCESS && n > 0 && (pf.revents & POLLOUT))
        rc = mosquitto_loop_write(h->mosq, 1);
    if (rc == MOSQ_ERR_SUCCESS)
        rc = mosquitto_loop_misc(h->mosq);
    if (rc != MOSQ_ERR_SUCCESS || h->mq_up || h->mq_refused)
        return rc;
    /* no CONNACK yet: a socket that hung up was refused or reset (rly_tls.h: libmosquitto's
     * TLS connect misses it); a broker that says nothing for 10 s is given up */
    if (n > 0 && (pf.revents & POLLHUP))
        return MOSQ_ERR_CONN_REFUSED;
    return mono_s() - since > HUB_CONNECT_TIMEOUT_S ? MOSQ_ERR_TIMEOUT : MOSQ_ERR_SUCCESS;
}

static void *mqtt_main(void *arg)
{
    hub_t *h = arg;
    double delay = HUB_BACKOFF_MIN_S, next_try = 0, since = 0;
    double maxd = h->cfg.backoff_max_s >= HUB_BACKOFF_MIN_S ? h->cfg.backoff_max_s
                                                            : HUB_BACKOFF_MIN_S;
    int live = 0;   /* h->mosq has a connection under way or up */
    for (;;) {
        pthread_mutex_lock(&h->mu);
        int stop = h->stopping;
        pthread_mutex_unlock(&h->mu);
        if (stop)
            break;
        int rc, e;
        if (!live) {
            double now = mono_s();
            if (now < next_try) {
                double w = next_try - now > 0.1 ? 0.1 : next_try - now;
                struct timespec ts = { 0, (long)(w * 1e9) };
                nanosleep(&ts, NULL);
                continue;
            }
            if (!h->mosq && !(h->mosq = mqtt_client(h))) {
                set_link(h, 2, "the MQTT client could not start");
                next_try = now + maxd;
                continue;
            }
            rly_tls_diag_reset(&h->tls);
            h->mq_up = h->mq_refused = 0;
            since = now;
            rc = mosquitto_connect_async(h->mosq, h->url.host, h->url.port, 10);
            e = errno;
            live = rc == MOSQ_ERR_SUCCESS;
        } else {
            rc = mqtt_turn(h, since);
            e = errno;
        }
        if (rc == MOSQ_ERR_SUCCESS && !h->mq_refused)
            continue;
        int was_up = h->mq_up;
        mqtt_failed(h, rc, e);
        mosquitto_destroy(h->mosq);
        h->mosq = NULL;
        live = 0;
        if (was_up)
            delay = HUB_BACKOFF_MIN_S;
        next_try = mono_s() + (h->mq_refused ? maxd : delay);
        if (!h->mq_refused)
            delay = delay * 2 > maxd ? maxd : delay * 2;
    }
    if (h->mosq && h->mq_up) {
        mosquitto_disconnect(h->mosq);
        mosquitto_loop_write(h->mosq, 1);
    }
    return NULL;
}

static char *dupstr(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
    mosquitto_lib_init();
}

int hub_create(const hub_config_t *cfg, hub_t **out, char *err, size_t errlen)
{
    if (!out)
        return HUB_EINVAL;
    hub_config_t c;
    hub_config_defaults(&c);
    if (cfg)
        c = *cfg;
    if (c.max_clients <= 0 || c.keepalive_s <= 0 || c.port < -1 || c.port > 65535 ||
        (c.token && strlen(c.token) > 128)) {
        snprintf(err, errlen, "invalid hub configuration");
        return HUB_EINVAL;
    }
    hub_t *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return HUB_ENOMEM;
    }
    pthread_mutex_init(&h->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&h->cv, &ca);
    pthread_condattr_destroy(&ca);
    h->cfg = c;
    h->cfg.url = h->cfg.user = h->cfg.pass = h->cfg.ca_file = h->cfg.address = h->cfg.token = NULL;
    snprintf(h->address, sizeof h->address, "%s", c.address && *c.address ? c.address : "127.0.0.1");
    snprintf(h->url.prefix, sizeof h->url.prefix, "kifucam");
    int rc = HUB_OK;
    char why[160];
    if (c.url) {
        if (rly_url_parse(c.url, &h->url, why, sizeof why) != RLY_OK) {
            snprintf(err, errlen, "%s: %s", c.url, why);
            rc = HUB_EINVAL;
            goto fail;
        }
        h->have_url = 1;
        snprintf(h->user, sizeof h->user, "%s", c.user ? c.user : h->url.user);
        snprintf(h->pass, sizeof h->pass, "%s", c.pass ? c.pass : h->url.pass);
        if (c.ca_file) {
            if (rly_tls_check_ca(c.ca_file, err, errlen) != RLY_OK) {
                rc = HUB_EINVAL;
                goto fail;
            }
            if (!(h->ca_file = dupstr(c.ca_file))) {
                snprintf(err, errlen, "out of memory");
                rc = HUB_ENOMEM;
                goto fail;
            }
        }
    }
    if (c.token && *c.token) {
        snprintf(h->token, sizeof h->token, "%s", c.token);
    } else if (web_random_token(h->token) != WEB_OK) {
        rc = HUB_ERANDOM;
        snprintf(err, errlen, "%s", hub_strerror(rc));
        goto fail;
    }
    if (c.port >= 0 && (rc = hub_http_start(h, err, errlen)) != HUB_OK)
        goto fail;
    if (h->have_url) {
        pthread_once(&lib_once, lib_init);
        h->mosq = mqtt_client(h);   /* the first connection's; its settings checked here */
        if (!h->mosq) {
            snprintf(err, errlen, "the MQTT client could not start (or refused the TLS set-up)");
            rc = HUB_ESTART;
            goto fail;
        }
        if (pthread_create(&h->mq_thread, NULL, mqtt_main, h) != 0) {
            snprintf(err, errlen, "the MQTT client's thread could not start");
            rc = HUB_ESTART;
            goto fail;
        }
        h->loop_started = 1;
    }
    *out = h;
    return HUB_OK;
fail:
    hub_destroy(h);
    return rc;
}

void hub_destroy(hub_t *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->stopping = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    if (h->loop_started)
        pthread_join(h->mq_thread, NULL);   /* it disconnects */
    if (h->mosq)
        mosquitto_destroy(h->mosq);
    hub_http_stop(h);
    for (int i = 0; i < h->nb; i++)
        board_free(h->boards[i]);
    free(h->boards);
    free(h->ca_file);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}
