/* hub_int.h: the hub's insides, shared by hub.c (the board table, MQTT) and hub_http.c
 * (the HTTP server). Internal to relay/.
 *
 * Invariants (under h->mu): boards[] is sorted by name (strcmp), nb of them; every change
 * of a board sets its upd to ++gen and broadcasts cv (the /events clients wait on it); a
 * board's entry is a compact JSON object beginning with '{"board":' (never "{}"). The
 * MQTT client and the mq_ and tls fields belong to the MQTT thread while it runs. */
#ifndef KIFUCAM_HUB_INT_H
#define KIFUCAM_HUB_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "relay/hub.h"
#include "relay/rly.h"
#include "relay/rly_tls.h"

#define HUB_RUNS 4              /* the runs whose last event seq a board remembers */

typedef struct hub_board {
    char name[RLY_NAME_MAX + 1];
    char *entry;                /* the entry without online/received, or NULL (no state) */
    char *sgf;                  /* the live record, or NULL */
    size_t sgf_len;
    uint64_t run, seq;          /* the state kept */
    uint64_t received;          /* Unix ms of its arrival */
    int online;                 /* -1 unknown, 0 offline, 1 online (the status topic) */
    uint64_t upd;               /* gen at its last change */
    uint64_t events, dups;      /* events counted once; duplicates dropped */
    uint64_t ev_run[HUB_RUNS], ev_seq[HUB_RUNS];   /* per run the greatest event seq */
} hub_board_t;

struct hub {
    hub_config_t cfg;           /* strings not kept: see below */
    rly_url_t url;
    int have_url;
    char user[128], pass[128];
    char *ca_file;              /* the CA file (TLS), or NULL */
    char address[64];
    char token[129];

    pthread_mutex_t mu;
    pthread_cond_t cv;
    hub_board_t **boards;
    int nb, cap;
    uint64_t gen;
    hub_status_t st;
    int stopping;
    int clients;                /* /events clients now */

    struct mosquitto *mosq;
    pthread_t mq_thread;        /* the MQTT thread (hub.c) */
    int loop_started;           /* 1 once mq_thread runs */
    int mq_up, mq_refused;      /* the thread's: this connection came up / was refused */
    rly_tls_diag_t tls;         /* the thread's: what this connection's TLS logged */
    struct MHD_Daemon *daemon;
    int port;
};

/* The entry of b with "online" and "received" spliced in, malloc'd; NULL when b has no
 * state yet or memory runs out. Call with h->mu held. */
char *hub_entry_locked(const hub_board_t *b, size_t *len);
/* The board named name, or NULL. Call with h->mu held. */
hub_board_t *hub_find_locked(hub_t *h, const char *name);
/* Drop the board named name: 1 if it was there. Takes h->mu. */
int hub_forget(hub_t *h, const char *name);

/* Start / stop the HTTP server (hub_http.c). */
int hub_http_start(hub_t *h, char *err, size_t errlen);
void hub_http_stop(hub_t *h);

#endif
