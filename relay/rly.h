/* rly.h: a station's relay: its events and its whole state published to an MQTT broker
 * (libmosquitto, MQTT 5, QoS 1), so that a hub (hub.h) shows every board of a tournament.
 *
 *   rly_t *r;
 *   if (rly_create(&cfg, &r, err, sizeof err) == RLY_OK) {
 *       rly_publish_state(r, state_json);      the web pages' state (web.h), retained
 *       rly_publish_event(r, event_json);      one --format json event, journaled on disk
 *       rly_flush(r, 5.0);                     at the end: wait for the broker's acks
 *       rly_destroy(r);
 *   }
 *
 * Topics (relay/README.md has the payloads): PREFIX/BOARD/state (retained), PREFIX/BOARD/sgf
 * (retained), PREFIX/BOARD/event, PREFIX/BOARD/status (retained; the will says offline).
 *
 * No move lost: the publishing calls never wait for the network. They queue in memory and
 * one thread of the relay's own owns the MQTT client: it connects (with backoff, again and
 * again while the broker is down or refuses), hands what is queued to the broker and drops
 * an event only once the broker acknowledged it (PUBACK). Every event is also appended to
 * the journal (cfg.journal, beside the SGF) before the call returns, and marked done when
 * acknowledged: a station that is killed and resumed sends again what the broker never
 * confirmed. States and the record are not journaled: only the latest matters, the SGF is
 * the source of truth, and each (re)connection sends the latest of both again (a restarted
 * broker that lost its retained messages gets them back).
 *
 * Order: every message carries "relay":{"run":R,"seq":S}: R is the run's start (Unix ms,
 * so a resumed station's messages sort after its earlier ones), S counts the run's
 * messages from 1. A subscriber keeps a board's state with the greatest (R, S) and drops
 * an event whose (R, S) it has seen (QoS 1 may deliver twice).
 *
 * Threads: every function may be called from any one thread (the recording loop); the
 * relay's thread never calls back into the caller. Status changes are polled (rly_status).
 */
#ifndef KIFUCAM_RLY_H
#define KIFUCAM_RLY_H

#include <stddef.h>
#include <stdint.h>

enum {
    RLY_OK = 0,
    RLY_EINVAL = -1,    /* bad argument: a malformed URL, board name, JSON text */
    RLY_ENOMEM = -2,    /* allocation failed */
    RLY_EIO = -3,       /* the journal cannot be opened or written */
    RLY_ETLS = -4,      /* the TLS set-up failed (the CA file cannot be read or holds no
                           PEM certificate) */
    RLY_ETIMEOUT = -5,  /* rly_flush: messages still unacknowledged at the timeout */
    RLY_EMQTT = -6      /* libmosquitto refused to start */
};
/* A short English description of a status code; never NULL. */
const char *rly_strerror(int code);

#define RLY_NAME_MAX 64     /* a board name: 1..64 of [A-Za-z0-9._-] */

/* A broker URL: mqtt://[USER[:PASS]@]HOST[:PORT][/PREFIX] or mqtts://... (TLS). HOST is a
 * name, an IPv4 literal or [IPv6]; PORT defaults to 1883 (mqtts 8883); PREFIX (default
 * "kifucam") is one or more topic levels of [A-Za-z0-9._-], no wildcard, no empty level. */
typedef struct rly_url {
    int tls;                    /* 1 for mqtts:// */
    char host[256];
    int port;
    char prefix[128];
    char user[128], pass[128];  /* "" when the URL has none */
} rly_url_t;

/* Parse a broker URL. RLY_EINVAL with the reason in err (errlen bytes) for a malformed
 * one; *out is written only on success. */
int rly_url_parse(const char *text, rly_url_t *out, char *err, size_t errlen);
/* 1 when name is a valid board name (RLY_NAME_MAX, the characters above), else 0. */
int rly_name_ok(const char *name);

typedef struct rly_config {
    const char *url;            /* the broker URL (rly_url_parse); required */
    const char *board;          /* the board's name or table number (rly_name_ok); required */
    const char *round;          /* the round, free text (or NULL) */
    const char *user, *pass;    /* override the URL's (NULL: the URL's) */
    const char *ca_file;        /* TLS: the CA certificate(s) (PEM) that sign the broker's
                                   (checked by rly_create: RLY_ETLS when it cannot be read or
                                   holds no certificate); a CA file turns TLS on even for
                                   mqtt://; NULL: no TLS unless mqtts://, then the system's
                                   CAs. The broker's certificate must name the URL's host. */
    const char *journal;        /* the journal file (NULL: events kept in memory only) */
    int resume;                 /* 1: send again the journal's unacknowledged events;
                                   0: start the journal afresh */
    double backoff_min_s;       /* first reconnection delay; default 0.25 s */
    double backoff_max_s;       /* it doubles up to this; default 5 s */
    int keepalive_s;            /* MQTT keepalive: a dead link is found within 1.5x; 10 s */
} rly_config_t;

/* Fill *cfg with the defaults above. */
void rly_config_defaults(rly_config_t *cfg);

typedef struct rly rly_t;

/* Start the relay (its thread connects at once, in the background). Fails only on bad
 * configuration (URL, board name, CA file) or when the journal cannot be opened, with a
 * one-line reason in err; an unreachable broker is no error (see rly_status), nor is a TLS
 * broker whose certificate the CA file does not accept (RLY_LINK_REFUSED, retried).
 * *out is written only on success; caller destroys. */
int rly_create(const rly_config_t *cfg, rly_t **out, char *err, size_t errlen);
/* Stop the thread, disconnect cleanly (the status says offline), free. Unacknowledged
 * events stay in the journal. Does nothing if NULL. */
void rly_destroy(rly_t *r);

/* Queue the board's whole state (a JSON object: web.h's state); a newer one replaces one
 * not yet handed to the broker. "relay" is added to it. RLY_EINVAL if not a JSON object. */
int rly_publish_state(rly_t *r, const char *state_json);
/* Queue the live record (SGF text), retained; a newer one replaces one not yet sent. */
int rly_publish_sgf(rly_t *r, const char *sgf);
/* Queue one event (a JSON object, the --format json line); "relay" is added; written to
 * the journal before returning. RLY_EIO when the journal cannot be written (the event is
 * still queued in memory). */
int rly_publish_event(rly_t *r, const char *event_json);

/* Wait until every queued message is acknowledged, at most timeout_s seconds:
 * RLY_OK, or RLY_ETIMEOUT. */
int rly_flush(rly_t *r, double timeout_s);

typedef enum rly_link {
    RLY_LINK_CONNECTING = 0,    /* not yet connected (or reconnecting after a loss) */
    RLY_LINK_UP = 1,            /* connected: messages flow */
    RLY_LINK_DOWN = 2,          /* the broker is unreachable or the link was lost */
    RLY_LINK_REFUSED = 3        /* the broker refused us (credentials, not authorised), or
                                   TLS: we refused the broker's certificate */
} rly_link_t;

typedef struct rly_status {
    rly_link_t link;
    uint64_t changes;           /* incremented on every change of link: poll and compare */
    char reason[256];           /* why down or refused ("connection refused", "bad user name
                                   or password", "TLS: the broker's certificate is not
                                   signed by the CA in FILE (...)"), "" when up */
    int pending;                /* events not yet acknowledged */
    uint64_t published;         /* messages acknowledged by the broker */
    uint64_t connects;          /* successful connections */
    uint64_t run;               /* this run's number (Unix ms at rly_create) */
} rly_status_t;

/* The current status (copied). */
void rly_status(rly_t *r, rly_status_t *out);

/* Unix time in milliseconds (the "sent" stamps). */
uint64_t rly_now_ms(void);

#endif
