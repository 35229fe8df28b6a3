/* rly.c: the station's relay (rly.h): a queue filled by the recording loop and one thread
 * that owns the libmosquitto client.
 *
 * The thread runs its own poll() over the client's socket and a wake pipe (so a queued
 * move goes out at once, not at the next tick), with mosquitto_loop_read / _write / _misc.
 * Each connection uses a fresh client: nothing of an old connection is resent behind our
 * back; what the broker has not acknowledged is handed again by us, in order, after the
 * (re)connection. Backoff: backoff_min_s doubling to backoff_max_s, reset by a connection
 * that came up; a refusal (credentials, or a TLS broker whose certificate the CA file does
 * not accept: rly_tls.h) waits backoff_max_s.
 *
 * Invariants (under r->mu): events[] holds the unacknowledged events oldest first, each
 * with mid 0 (to hand) or the mid it was handed with on the current connection; a state or
 * record waits in *_next until handed, then in *_cur (the latest handed, kept to send again
 * after a reconnection) with *_mid set until acknowledged. Only the thread calls libmosquitto,
 * and never while holding r->mu (its callbacks take it).
 */
#include "relay/rly.h"
#include "relay/rly_journal.h"
#include "relay/rly_tls.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <mosquitto.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef MQTT_PROTOCOL_V5
#define MQTT_PROTOCOL_V5 5
#endif

#define RLY_HAND_BATCH 64
#define RLY_CONNECT_TIMEOUT_S 10.0

typedef struct rly_ev {
    uint64_t run, seq;
    char *payload;
    size_t len;
    int mid;                    /* 0: to hand; else handed on this connection */
} rly_ev_t;

typedef struct rly_blob {
    char *next;                 /* waiting to be handed (newest only) */
    char *cur;                  /* the latest handed (sent again after a reconnection) */
    int mid;                    /* cur's mid while unacknowledged, else 0 */
} rly_blob_t;

struct rly {
    rly_url_t url;
    char board[RLY_NAME_MAX + 1];
    char *round;
    char user[128], pass[128];
    char *ca_file;
    double backoff_min, backoff_max;
    int keepalive;
    char topic_state[256], topic_sgf[256], topic_event[256], topic_status[256];

    pthread_mutex_t mu;
    pthread_cond_t cv;          /* rly_flush waits on it */
    pthread_t thread;
    int thread_started;
    int wake[2];                /* the wake pipe */
    int stop;

    rly_journal_t *journal;
    rly_ev_t *events;
    int nev, cap;
    rly_blob_t state, sgf;
    uint64_t run, seq;
    rly_status_t st;

    /* the thread's own */
    struct mosquitto *mosq;
    int connected;              /* CONNACK success on this client */
    int refused;                /* CONNACK refusal, or the broker's certificate refused */
    rly_tls_diag_t tls;         /* what this client's TLS handshake logged */
    double since;               /* this client's connect began (monotonic s) */
    double delay;               /* the next backoff */
    double next_try;
};

const char *rly_strerror(int code)
{
    switch (code) {
    case RLY_OK: return "success";
    case RLY_EINVAL: return "invalid argument";
    case RLY_ENOMEM: return "out of memory";
    case RLY_EIO: return "the relay journal cannot be written";
    case RLY_ETLS: return "the TLS set-up failed";
    case RLY_ETIMEOUT: return "messages not yet acknowledged by the broker";
    case RLY_EMQTT: return "the MQTT client could not start";
    default: return "unknown error";
    }
}

void rly_config_defaults(rly_config_t *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->backoff_min_s = 0.25;
    cfg->backoff_max_s = 5.0;
    cfg->keepalive_s = 10;
}

uint64_t rly_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)(ts.tv_nsec / 1000000);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void wake(rly_t *r)
{
    char c = 1;
    ssize_t n = write(r->wake[1], &c, 1);   /* full pipe: a wake is pending anyway */
    (void)n;
}

static void set_link(rly_t *r, rly_link_t link, const char *reason)
{
    if (r->st.link != link || strcmp(r->st.reason, reason ? reason : "")) {
        r->st.link = link;
        snprintf(r->st.reason, sizeof r->st.reason, "%s", reason ? reason : "");
        r->st.changes++;
    }
}

/* payload + "relay":{board, round, run, seq, sent}; NULL when not a JSON object */
static char *stamp(rly_t *r, const char *json, uint64_t seq)
{
    json_t *o = json_loads(json, 0, NULL);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    json_t *m = json_pack("{s:s,s:I,s:I,s:I}", "board", r->board, "run", (json_int_t)r->run,
                          "seq", (json_int_t)seq, "sent", (json_int_t)rly_now_ms());
    if (m && r->round)
        json_object_set_new(m, "round", json_string(r->round));
    if (!m || json_object_set_new(o, "relay", m) != 0) {
        json_decref(o);
        return NULL;
    }
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

static int ev_push(rly_t *r, uint64_t run, uint64_t seq, char *payload)
{
    if (r->nev == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        rly_ev_t *nv = realloc(r->events, (size_t)cap * sizeof *nv);
        if (!nv)
            return RLY_ENOMEM;
        r->events = nv;
        r->cap = cap;
    }
    rly_ev_t *e = &r->events[r->nev++];
    e->run = run;
    e->seq = seq;
    e->payload = payload;
    e->len = strlen(payload);
    e->mid = 0;
    r->st.pending = r->nev;
    return RLY_OK;
}

/* ---- libmosquitto callbacks (the thread, inside loop_read; r->mu not held) ---- */

static void on_connect(struct mosquitto *m, void *obj, int rc, int flags,
                       const mosquitto_property *props)
{
    (void)m;
    (void)flags;
    (void)props;
    rly_t *r = obj;
    pthread_mutex_lock(&r->mu);
    if (rc == 0) {
        r->connected = 1;
        r->st.connects++;
        set_link(r, RLY_LINK_UP, "");
    } else {
        r->refused = 1;
        char why[160];
        snprintf(why, sizeof why, "the broker refused the connection: %s",
                 mosquitto_reason_string(rc));
        set_link(r, RLY_LINK_REFUSED, why);
    }
    pthread_mutex_unlock(&r->mu);
}

static void on_publish(struct mosquitto *m, void *obj, int mid, int reason,
                       const mosquitto_property *props)
{
    (void)m;
    (void)props;
    rly_t *r = obj;
    pthread_mutex_lock(&r->mu);
    if (reason >= 128) {
        /* refused (not authorised to publish there): hand it again after a reconnection */
        char why[160];
        snprintf(why, sizeof why, "the broker refused a message: %s", mosquitto_reason_string(reason));
        set_link(r, RLY_LINK_REFUSED, why);
        pthread_mutex_unlock(&r->mu);
        return;
    }
    for (int i = 0; i < r->nev; i++) {
        if (r->events[i].mid != mid)
            continue;
        rly_ev_t e = r->events[i];
        memmove(r->events + i, r->events + i + 1, (size_t)(r->nev - i - 1) * sizeof e);
        r->nev--;
        r->st.pending = r->nev;
        r->st.published++;
        if (r->journal) {
            rly_journal_ack(r->journal, e.run, e.seq);
            if (r->nev == 0)
                rly_journal_clear(r->journal);
        }
        free(e.payload);
        goto done;
    }
    if (r->state.mid == mid) {
        r->state.mid = 0;
        r->st.published++;
    } else if (r->sgf.mid == mid) {
        r->sgf.mid = 0;
        r->st.published++;
    }
done:
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

/* libmosquitto's log: only what says why a TLS handshake failed is kept */
static void on_log(struct mosquitto *m, void *obj, int level, const char *line)
{
    rly_t *r = obj;
    rly_tls_log(&r->tls, m, level, line);
}

/* ---- the thread ---- */

static char *status_payload(rly_t *r, int online)
{
    json_t *o = json_pack("{s:b,s:s,s:I,s:I}", "online", online, "board", r->board, "run",
                          (json_int_t)r->run, "sent", (json_int_t)rly_now_ms());
    if (o && r->round)
        json_object_set_new(o, "round", json_string(r->round));
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return s;
}

static void drop_client(rly_t *r, const char *why)
{
    if (r->mosq) {
        mosquitto_destroy(r->mosq);
        r->mosq = NULL;
    }
    pthread_mutex_lock(&r->mu);
    int was_up = r->connected;
    for (int i = 0; i < r->nev; i++)
        r->events[i].mid = 0;      /* hand them again on the next connection */
    if (r->state.mid || (r->state.cur && !r->state.next)) {
        if (!r->state.next) {
            r->state.next = r->state.cur;
            r->state.cur = NULL;
        }
        r->state.mid = 0;
    }
    if (r->sgf.mid || (r->sgf.cur && !r->sgf.next)) {
        if (!r->sgf.next) {
            r->sgf.next = r->sgf.cur;
            r->sgf.cur = NULL;
        }
        r->sgf.mid = 0;
    }
    if (!r->refused)
        set_link(r, RLY_LINK_DOWN, why);
    pthread_mutex_unlock(&r->mu);
    if (was_up)
        r->delay = r->backoff_min;
    double wait = r->refused ? r->backoff_max : r->delay;
    r->next_try = mono_s() + wait;
    if (!r->refused) {
        r->delay *= 2;
        if (r->delay > r->backoff_max)
            r->delay = r->backoff_max;
    }
    r->connected = 0;
    r->refused = 0;
}

/* The client failed (rly_fail_reason): say why and drop it. A TLS handshake whose broker
 * certificate was not accepted is a refusal. */
static void fail_client(rly_t *r, int rc, int e)
{
    char why[sizeof r->st.reason];
    if (rly_fail_reason(&r->tls, rc, e, r->connected, r->refused, r->url.host, r->url.port,
                        r->ca_file, why, sizeof why)) {
        pthread_mutex_lock(&r->mu);
        r->refused = 1;
        set_link(r, RLY_LINK_REFUSED, why);
        pthread_mutex_unlock(&r->mu);
    }
    drop_client(r, why);
}

static int start_client(rly_t *r)
{
    struct mosquitto *m = mosquitto_new(NULL, true, r);
    if (!m)
        return -1;
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_connect_v5_callback_set(m, on_connect);
    mosquitto_publish_v5_callback_set(m, on_publish);
    if (r->user[0])
        mosquitto_username_pw_set(m, r->user, r->pass[0] ? r->pass : NULL);
    rly_tls_diag_reset(&r->tls);
    if (r->url.tls || r->ca_file) {
        mosquitto_log_callback_set(m, on_log);
        if (rly_tls_setup(m, r->ca_file) != RLY_OK) {
            mosquitto_destroy(m);
            return -2;
        }
    }
    char *will = status_payload(r, 0);
    if (will)
        mosquitto_will_set(m, r->topic_status, (int)strlen(will), will, 1, true);
    free(will);
    r->mosq = m;
    r->connected = r->refused = 0;
    r->since = mono_s();
    int rc = mosquitto_connect_async(m, r->url.host, r->url.port, r->keepalive);
    if (rc != MOSQ_ERR_SUCCESS) {
        fail_client(r, rc, errno);
        return -1;
    }
    return 0;
}

/* Hand what waits (events in order, then the state, the record): on a new connection the
 * status first. */
static void hand(rly_t *r, int fresh)
{
    if (fresh) {
        char *st = status_payload(r, 1);
        if (st)
            mosquitto_publish(r->mosq, NULL, r->topic_status, (int)strlen(st), st, 1, true);
        free(st);
    }
    for (;;) {
        int idx[RLY_HAND_BATCH], n = 0;
        pthread_mutex_lock(&r->mu);
        for (int i = 0; i < r->nev && n < RLY_HAND_BATCH; i++)
            if (r->events[i].mid == 0)
                idx[n++] = i;
        rly_ev_t batch[RLY_HAND_BATCH];
        for (int k = 0; k < n; k++)
            batch[k] = r->events[idx[k]];
        pthread_mutex_unlock(&r->mu);
        if (n == 0)
            break;
        int mids[RLY_HAND_BATCH], ok = 0;
        for (int k = 0; k < n; k++) {
            mids[k] = 0;
            if (mosquitto_publish(r->mosq, &mids[k], r->topic_event, (int)batch[k].len,
                                  batch[k].payload, 1, false) != MOSQ_ERR_SUCCESS)
                break;
            ok++;
        }
        /* the events only grow at the end and only this thread removes them (on_publish
         * runs here too, not during this loop): the indexes still hold */
        pthread_mutex_lock(&r->mu);
        for (int k = 0; k < ok; k++)
            r->events[idx[k]].mid = mids[k];
        pthread_mutex_unlock(&r->mu);
        if (ok < n)
            return;   /* the connection failed: loop_read tells */
    }
    rly_blob_t *bl[2] = { &r->state, &r->sgf };
    const char *topic[2] = { r->topic_state, r->topic_sgf };
    for (int k = 0; k < 2; k++) {
        pthread_mutex_lock(&r->mu);
        char *p = bl[k]->next;
        if (p) {
            bl[k]->next = NULL;
            free(bl[k]->cur);
            bl[k]->cur = p;
        }
        pthread_mutex_unlock(&r->mu);
        if (!p)
            continue;
        int mid = 0;
        int rc = mosquitto_publish(r->mosq, &mid, topic[k], (int)strlen(p), p, 1, true);
        pthread_mutex_lock(&r->mu);
        if (rc == MOSQ_ERR_SUCCESS) {
            bl[k]->mid = mid;
        } else if (!bl[k]->next) {
            bl[k]->next = bl[k]->cur;   /* hand it again */
            bl[k]->cur = NULL;
        }
        pthread_mutex_unlock(&r->mu);
    }
}

static void *thread_main(void *arg)
{
    rly_t *r = arg;
    int was_connected = 0;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        int stop = r->stop;
        pthread_mutex_unlock(&r->mu);
        if (stop)
            break;
        double now = mono_s();
        if (!r->mosq && now >= r->next_try) {
            pthread_mutex_lock(&r->mu);
            if (r->st.link == RLY_LINK_UP)
                set_link(r, RLY_LINK_CONNECTING, "");
            pthread_mutex_unlock(&r->mu);
            if (start_client(r) == -2) {
                pthread_mutex_lock(&r->mu);
                set_link(r, RLY_LINK_REFUSED, "the TLS set-up failed");
                pthread_mutex_unlock(&r->mu);
                r->next_try = now + r->backoff_max;
            }
            was_connected = 0;
        }
        struct pollfd pf[2];
        pf[0].fd = r->wake[0];
        pf[0].events = POLLIN;
        int nfd = 1, sock = r->mosq ? mosquitto_socket(r->mosq) : -1;
        if (sock >= 0) {
            pf[1].fd = sock;
            pf[1].events = POLLIN | (mosquitto_want_write(r->mosq) ? POLLOUT : 0);
            nfd = 2;
        }
        int timeout = 100;
        if (!r->mosq) {
            double w = (r->next_try - now) * 1000;
            timeout = w < 1 ? 1 : w > 100 ? 100 : (int)w;
        }
        int n = poll(pf, (nfds_t)nfd, timeout);
        if (n > 0 && (pf[0].revents & POLLIN)) {
            char buf[64];
            while (read(r->wake[0], buf, sizeof buf) > 0)
                ;
        }
        if (!r->mosq)
            continue;
        int rc = MOSQ_ERR_SUCCESS;
        if (nfd == 2 && (pf[1].revents & (POLLIN | POLLERR | POLLHUP)))
            rc = mosquitto_loop_read(r->mosq, 1);
        if (rc == MOSQ_ERR_SUCCESS && nfd == 2 && (pf[1].revents & POLLOUT))
            rc = mosquitto_loop_write(r->mosq, 1);
        if (rc == MOSQ_ERR_SUCCESS)
            rc = mosquitto_loop_misc(r->mosq);
        int e = errno;
        /* a socket hung up before the CONNACK: the TCP connect was refused or reset (with TLS,
         * libmosquitto 2.0 does not notice and would spin until the keepalive: rly_tls.h) */
        if (rc == MOSQ_ERR_SUCCESS && !r->connected && !r->refused && nfd == 2 &&
            (pf[1].revents & POLLHUP))
            rc = MOSQ_ERR_CONN_REFUSED;
        if (rc == MOSQ_ERR_SUCCESS && !r->connected && !r->refused &&
            mono_s() - r->since > RLY_CONNECT_TIMEOUT_S)
            rc = MOSQ_ERR_TIMEOUT;
        if (rc != MOSQ_ERR_SUCCESS || r->refused) {
            fail_client(r, rc, e);
            continue;
        }
        if (r->connected) {
            hand(r, !was_connected);
            was_connected = 1;
        }
    }
    /* stopping: say offline (retained; a clean disconnect sends no will), then disconnect */
    if (r->mosq && r->connected) {
        char *st = status_payload(r, 0);
        int mid = 0, got = 0;
        if (st && mosquitto_publish(r->mosq, &mid, r->topic_status, (int)strlen(st), st, 1, true) ==
                      MOSQ_ERR_SUCCESS) {
            double end = mono_s() + 1.0;
            while (!got && mono_s() < end) {
                if (mosquitto_loop(r->mosq, 50, 1) != MOSQ_ERR_SUCCESS)
                    break;
                got = mosquitto_want_write(r->mosq) == 0;
            }
            mosquitto_loop(r->mosq, 20, 1);
        }
        free(st);
        mosquitto_disconnect(r->mosq);
        mosquitto_loop(r->mosq, 20, 1);
    }
    if (r->mosq)
        mosquitto_destroy(r->mosq);
    r->mosq = NULL;
    return NULL;
}

/* ---- the public calls ---- */

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
    mosquitto_lib_init();
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

int rly_create(const rly_config_t *cfg, rly_t **out, char *err, size_t errlen)
{
    char why[160];
    if (!cfg || !out)
        return RLY_EINVAL;
    rly_url_t url;
    if (rly_url_parse(cfg->url, &url, why, sizeof why) != RLY_OK) {
        snprintf(err, errlen, "%s: %s", cfg->url ? cfg->url : "(none)", why);
        return RLY_EINVAL;
    }
    if (!rly_name_ok(cfg->board)) {
        snprintf(err, errlen, "board name '%s': 1 to %d of A-Z a-z 0-9 . _ -",
                 cfg->board ? cfg->board : "", RLY_NAME_MAX);
        return RLY_EINVAL;
    }
    if (cfg->round && strlen(cfg->round) > 64) {
        snprintf(err, errlen, "the round is longer than 64 characters");
        return RLY_EINVAL;
    }
    if (cfg->ca_file) {
        int rc = rly_tls_check_ca(cfg->ca_file, err, errlen);
        if (rc != RLY_OK)
            return rc;
    }
    pthread_once(&lib_once, lib_init);
    rly_t *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return RLY_ENOMEM;
    }
    r->url = url;
    snprintf(r->board, sizeof r->board, "%s", cfg->board);
    r->round = dupstr(cfg->round);
    r->ca_file = dupstr(cfg->ca_file);
    snprintf(r->user, sizeof r->user, "%s", cfg->user ? cfg->user : url.user);
    snprintf(r->pass, sizeof r->pass, "%s", cfg->pass ? cfg->pass : url.pass);
    r->backoff_min = cfg->backoff_min_s > 0 ? cfg->backoff_min_s : 0.25;
    r->backoff_max = cfg->backoff_max_s >= r->backoff_min ? cfg->backoff_max_s : r->backoff_min;
    r->keepalive = cfg->keepalive_s >= 5 ? cfg->keepalive_s : 5;
    r->delay = r->backoff_min;
    snprintf(r->topic_state, sizeof r->topic_state, "%s/%s/state", url.prefix, r->board);
    snprintf(r->topic_sgf, sizeof r->topic_sgf, "%s/%s/sgf", url.prefix, r->board);
    snprintf(r->topic_event, sizeof r->topic_event, "%s/%s/event", url.prefix, r->board);
    snprintf(r->topic_status, sizeof r->topic_status, "%s/%s/status", url.prefix, r->board);
    r->wake[0] = r->wake[1] = -1;
    pthread_mutex_init(&r->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&r->cv, &ca);
    pthread_condattr_destroy(&ca);
    /* the run: after every earlier run of this station (the journal's events keep theirs) */
    r->run = rly_now_ms();
    r->st.run = r->run;
    r->st.link = RLY_LINK_CONNECTING;
    if ((r->round && !r->round[0]) || (cfg->round && !r->round) || (cfg->ca_file && !r->ca_file)) {
        rly_destroy(r);
        snprintf(err, errlen, "out of memory");
        return RLY_ENOMEM;
    }
    if (cfg->journal) {
        rly_jentry_t *pend = NULL;
        int np = 0, skipped = 0;
        int rc = rly_journal_open(cfg->journal, cfg->resume, &pend, &np, &skipped, &r->journal);
        if (rc != RLY_OK) {
            snprintf(err, errlen, "%s: %s (%s)", cfg->journal, rly_strerror(rc), strerror(errno));
            rly_destroy(r);
            return rc;
        }
        for (int i = 0; i < np; i++) {
            if (r->run <= pend[i].run)
                r->run = pend[i].run + 1;   /* the clock went back: still after them */
            if (ev_push(r, pend[i].run, pend[i].seq, pend[i].payload) != RLY_OK)
                free(pend[i].payload);
        }
        free(pend);
        r->st.run = r->run;
    }
    if (pipe(r->wake) != 0 || fcntl(r->wake[0], F_SETFL, O_NONBLOCK) != 0 ||
        fcntl(r->wake[1], F_SETFL, O_NONBLOCK) != 0 ||
        pthread_create(&r->thread, NULL, thread_main, r) != 0) {
        snprintf(err, errlen, "%s", rly_strerror(RLY_EMQTT));
        rly_destroy(r);
        return RLY_EMQTT;
    }
    r->thread_started = 1;
    *out = r;
    return RLY_OK;
}

void rly_destroy(rly_t *r)
{
    if (!r)
        return;
    if (r->thread_started) {
        pthread_mutex_lock(&r->mu);
        r->stop = 1;
        pthread_mutex_unlock(&r->mu);
        wake(r);
        pthread_join(r->thread, NULL);
    }
    for (int i = 0; i < r->nev; i++)
        free(r->events[i].payload);
    free(r->events);
    free(r->state.next);
    free(r->state.cur);
    free(r->sgf.next);
    free(r->sgf.cur);
    rly_journal_close(r->journal);
    if (r->wake[0] >= 0)
        close(r->wake[0]);
    if (r->wake[1] >= 0)
        close(r->wake[1]);
    free(r->round);
    free(r->ca_file);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

int rly_publish_state(rly_t *r, const char *state_json)
{
    if (!r || !state_json)
        return RLY_EINVAL;
    pthread_mutex_lock(&r->mu);
    char *p = stamp(r, state_json, r->seq + 1);
    if (!p) {
        pthread_mutex_unlock(&r->mu);
        return RLY_EINVAL;
    }
    r->seq++;
    free(r->state.next);
    r->state.next = p;
    pthread_mutex_unlock(&r->mu);
    wake(r);
    return RLY_OK;
}

int rly_publish_sgf(rly_t *r, const char *sgf)
{
    if (!r || !sgf)
        return RLY_EINVAL;
    char *p = dupstr(sgf);
    if (!p)
        return RLY_ENOMEM;
    pthread_mutex_lock(&r->mu);
    free(r->sgf.next);
    r->sgf.next = p;
    pthread_mutex_unlock(&r->mu);
    wake(r);
    return RLY_OK;
}

int rly_publish_event(rly_t *r, const char *event_json)
{
    if (!r || !event_json)
        return RLY_EINVAL;
    pthread_mutex_lock(&r->mu);
    uint64_t seq = r->seq + 1;
    char *p = stamp(r, event_json, seq);
    if (!p) {
        pthread_mutex_unlock(&r->mu);
        return RLY_EINVAL;
    }
    int rc = RLY_OK;
    if (r->journal && rly_journal_append(r->journal, r->run, seq, p) != RLY_OK)
        rc = RLY_EIO;
    if (ev_push(r, r->run, seq, p) != RLY_OK) {
        free(p);
        rc = RLY_ENOMEM;
    }
    r->seq = seq;
    pthread_mutex_unlock(&r->mu);
    wake(r);
    return rc;
}

static int drained(const rly_t *r)
{
    return r->nev == 0 && !r->state.next && !r->state.mid && !r->sgf.next && !r->sgf.mid;
}

int rly_flush(rly_t *r, double timeout_s)
{
    if (!r)
        return RLY_EINVAL;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double t = end.tv_sec + end.tv_nsec * 1e-9 + (timeout_s > 0 ? timeout_s : 0);
    end.tv_sec = (time_t)t;
    end.tv_nsec = (long)((t - (double)end.tv_sec) * 1e9);
    pthread_mutex_lock(&r->mu);
    int rc = 0;
    while (!drained(r) && rc == 0)
        rc = pthread_cond_timedwait(&r->cv, &r->mu, &end);
    int ok = drained(r);
    pthread_mutex_unlock(&r->mu);
    return ok ? RLY_OK : RLY_ETIMEOUT;
}

void rly_status(rly_t *r, rly_status_t *out)
{
    if (!r || !out)
        return;
    pthread_mutex_lock(&r->mu);
    *out = r->st;
    pthread_mutex_unlock(&r->mu);
}
