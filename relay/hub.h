/* hub.h: the tournament hub: subscribes to every board under a broker's prefix (rly.h's
 * topics) and serves them over HTTP (libmicrohttpd): the tournament page, one board's
 * overlay, the multi-board overlay for OBS, /boards.json, each board's live SGF, and
 * Server-Sent Events of every change.
 *
 *   hub_t *h;
 *   if (hub_create(&cfg, &h, err, sizeof err) == HUB_OK) { ...; hub_destroy(h); }
 *
 * The board table: one entry per board name seen under PREFIX/+/{state,sgf,status,event}.
 * A state replaces the board's only when its "relay" (run, seq) is greater than the one
 * kept (an older one, resent or retained, is counted as stale and dropped); an event is
 * counted once per (run, seq) (QoS 1 may deliver twice; duplicates are counted and
 * dropped). A board's entry is its state as /state.json has it, with "board" the board's
 * NAME and the position's rows moved to "position" (relay/README.md).
 *
 * Paths:
 *   GET  /                       the tournament page (every board, live)
 *   GET  /overlay?board=NAME     one board's overlay (web/'s overlay, fed by the hub)
 *   GET  /overlay[?boards=A,B]   every board (or those), a grid for OBS; ?bg=none, ?cols=N
 *   GET  /boards.json            {"broker":"up"|"down","boards":[ENTRY,...]} (by name)
 *   GET  /board/NAME.json        one entry; GET /board/NAME.sgf its live record (404 until
 *                                one was published)
 *   GET  /events[?board=NAME]    SSE: one message per changed board, data = its ENTRY
 *   POST /api/forget?board=NAME  drop a board from the table (it returns if it publishes);
 *                                needs the token (Authorization: Bearer TOKEN or ?token=);
 *                                401 without; 404 for another action or an unknown board
 * Answers: unknown path 404, wrong method 405, too many /events clients 503.
 *
 * Threads: one MQTT thread of the hub's own runs the client (it reconnects after every
 * failure, TLS ones included) and delivers the messages; libmicrohttpd runs a thread per
 * connection (the hub's clients are a few pages and overlays, max_clients of them), each
 * /events client waiting on the table's condition variable. The table is under one mutex.
 */
#ifndef KIFUCAM_HUB_H
#define KIFUCAM_HUB_H

#include <stddef.h>
#include <stdint.h>

enum {
    HUB_OK = 0,
    HUB_EINVAL = -1,    /* bad argument: URL, address */
    HUB_ENOMEM = -2,
    HUB_ESTART = -3,    /* the HTTP server or the MQTT client could not start */
    HUB_ERANDOM = -4    /* no random bytes for the token */
};
const char *hub_strerror(int code);

typedef struct hub_config {
    const char *url;            /* the broker URL (rly_url_parse); NULL: no broker (tests
                                   feed the table with hub_feed) */
    const char *user, *pass;    /* override the URL's */
    const char *ca_file;        /* TLS CA file (PEM; checked by hub_create, as rly.h's), or
                                   NULL: the system's CAs for mqtts:// */
    const char *address;        /* HTTP address to bind; default 127.0.0.1 */
    int port;                   /* HTTP port; 0 picks a free one; -1: no HTTP server */
    const char *token;          /* the actions' secret; NULL or "": 32 random hex digits */
    int max_clients;            /* HTTP connections at once; default 64 */
    int keepalive_s;            /* SSE comment to idle /events clients; default 10 s */
    double backoff_max_s;       /* the broker's reconnection delay (0.5 s doubling) grows to
                                   this; 5 s; a refusal waits this long */
} hub_config_t;

void hub_config_defaults(hub_config_t *cfg);

typedef struct hub hub_t;

/* Start the hub: the MQTT client (connecting in the background, again and again) and the
 * HTTP server. The reason of a failure in err (HUB_EINVAL for a malformed URL or a CA file
 * that cannot be read or holds no certificate). *out written only on success. */
int hub_create(const hub_config_t *cfg, hub_t **out, char *err, size_t errlen);
/* Stop both, free everything. Does nothing if NULL. */
void hub_destroy(hub_t *h);

int hub_port(const hub_t *h);
const char *hub_token(const hub_t *h);

/* One MQTT message, as the subscription delivers it (topic PREFIX/BOARD/KIND), received
 * at recv_ms (Unix ms). Returns 1 when the table changed, 0 when the message was dropped
 * (stale, duplicate, another topic, malformed). */
int hub_feed(hub_t *h, const char *topic, const void *payload, size_t len, uint64_t recv_ms);

/* {"broker":...,"boards":[...]} as /boards.json serves it, malloc'd (caller frees), or
 * NULL when out of memory. */
char *hub_boards_json(hub_t *h);

typedef struct hub_status {
    int link;                   /* 0 connecting, 1 up, 2 down, 3 refused (the credentials, or
                                   TLS: the broker's certificate not accepted) */
    uint64_t changes;           /* incremented on every change of link */
    char reason[256];
    int boards;
    uint64_t states, events;    /* accepted */
    uint64_t stale, dups, bad;  /* dropped: an older state, an event seen, malformed */
    uint64_t new_boards;        /* incremented when a board is first seen */
} hub_status_t;
void hub_status(hub_t *h, hub_status_t *out);

#endif
