/* bench_relay.c: N stations publishing real games at once through a broker to a running
 * `kifucam hub`, watched on the hub's /events as a page watches it (bench/relay.sh starts
 * mosquitto and the hub and measures the hub's CPU and memory).
 *
 * Each station is a real relay (relay/rly.h: its own thread and MQTT connection); its
 * game is a real record's main line (a tygem collection, or samples/games/), a move every
 * --interval-ms, the boards staggered over the interval. Each move's state is the web
 * pages' state (web_state_json) and its event the --format json move line.
 *
 * Measured: per move, publish (rly_publish_state) -> the hub's /events message holding
 * it (several moves in one message each count from their own publish); every move of
 * every board seen at the hub, in order (each message's moves equal to the record's
 * first moves), none doubled, none missing at the end.
 * Usage: bench_relay --url URL --hub-port P --boards N --moves M --interval-ms I SGF...
 */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "relay/rly.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "web/http_client.h"
#include "web/web_state.h"

#define MAXB 512
#define MAXM 400

typedef struct game {
    go_move_t mv[MAXM];
    int n, size, komi2;
    go_rules_t rules;
    char pb[64], pw[64];
} game_t;

typedef struct board {
    char name[16];
    const game_t *src;
    go_game_t *g;
    rly_t *rly;
    int played;
    uint64_t pub_ms[MAXM + 1];   /* when move k's state was published */
    int seen;                    /* moves seen at the hub */
    int bad;                     /* a message whose moves differ from the record's */
    int back;                    /* a message with fewer moves than before */
} board_t;

static board_t boards[MAXB];
static int nboards, nmoves;
static game_t *games;
static int ngames;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static double *lat;              /* per move latencies, ms */
static size_t nlat;
static volatile int stop_reader;

static int load_games(const char *path, int want_moves)
{
    sgf_collection_t *coll = NULL;
    sgf_error_t err;
    if (sgf_parse_file(path, NULL, &coll, &err) != 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.col, err.msg);
        return -1;
    }
    for (int i = 0; i < coll->ngames && ngames < MAXB; i++) {
        sgf_replay_t rep;
        if (sgf_replay(coll->games[i], NULL, &rep, &err) != 0)
            continue;
        int n = go_game_move_count(rep.game);
        if (rep.size == 19 && rep.handicap == 0 && n >= want_moves) {
            game_t *g = &games[ngames++];
            memset(g, 0, sizeof *g);
            g->size = rep.size;
            g->komi2 = rep.komi2;
            g->rules = rep.rules;
            for (int k = 0; k < n && k < MAXM; k++)
                g->mv[g->n++] = *go_game_move(rep.game, k);
            snprintf(g->pb, sizeof g->pb, "%s", sgf_node_value(coll->games[i], "PB") ? sgf_node_value(coll->games[i], "PB") : "Black");
            snprintf(g->pw, sizeof g->pw, "%s", sgf_node_value(coll->games[i], "PW") ? sgf_node_value(coll->games[i], "PW") : "White");
        }
        sgf_replay_fini(&rep);
    }
    sgf_collection_destroy(coll);
    return 0;
}

static void play(board_t *b)
{
    const go_move_t *m = &b->src->mv[b->played];
    int why;
    if (m->kind == GO_MOVE_PASS)
        go_game_pass(b->g, m->color, true);
    else if (m->kind == GO_MOVE_PLAY)
        go_game_play_tolerant(b->g, m->color, m->point, &why);
    b->played++;
    int k = b->played;
    char clock[256];
    snprintf(clock, sizeof clock, "{\"B\":{\"left\":%d,\"text\":\"%d:%02d\"},\"W\":{\"left\":%d,"
             "\"text\":\"%d:%02d\"},\"running\":\"%s\"}", 3600 - 5 * k, (3600 - 5 * k) / 60,
             (3600 - 5 * k) % 60, 3600 - 6 * k, (3600 - 6 * k) / 60, (3600 - 6 * k) % 60,
             m->color == GO_BLACK ? "W" : "B");
    web_state_info_t info;
    memset(&info, 0, sizeof info);
    info.black_name = b->src->pb;
    info.white_name = b->src->pw;
    info.komi2 = b->src->komi2;
    info.clock_json = clock;
    char *js = NULL;
    if (web_state_json(b->g, &info, &js) != WEB_OK)
        return;
    char pt[3] = "", ev[160];
    if (m->kind == GO_MOVE_PLAY)
        go_point_to_sgf(m->point, pt);
    snprintf(ev, sizeof ev, "{\"event\":\"move\",\"n\":%d,\"color\":\"%s\",\"point\":\"%s\"}", k,
             m->color == GO_WHITE ? "W" : "B", pt);
    rly_publish_event(b->rly, ev);
    pthread_mutex_lock(&mu);
    b->pub_ms[k] = rly_now_ms();
    pthread_mutex_unlock(&mu);
    rly_publish_state(b->rly, js);
    free(js);
}

/* One /events message: the board's entry. */
static void on_message(const char *data)
{
    uint64_t now = rly_now_ms();
    json_t *o = json_loads(data, 0, NULL);
    if (!o)
        return;
    const char *name = json_string_value(json_object_get(o, "board"));
    json_t *mv = json_object_get(o, "moves");
    board_t *b = NULL;
    for (int i = 0; name && i < nboards && !b; i++)
        if (!strcmp(boards[i].name, name))
            b = &boards[i];
    if (!b || !json_is_array(mv)) {
        json_decref(o);
        return;
    }
    int n = (int)json_array_size(mv), ok = n <= b->src->n;
    for (int k = 0; k < n && ok; k++) {
        json_t *m = json_array_get(mv, (size_t)k);
        const go_move_t *s = &b->src->mv[k];
        char pt[3] = "";
        if (s->kind == GO_MOVE_PLAY)
            go_point_to_sgf(s->point, pt);
        const char *c = json_string_value(json_object_get(m, "color"));
        const char *p = json_string_value(json_object_get(m, "point"));
        ok = json_integer_value(json_object_get(m, "n")) == k + 1 && c && p &&
             !strcmp(c, s->color == GO_WHITE ? "W" : "B") && !strcmp(p, pt);
    }
    pthread_mutex_lock(&mu);
    if (!ok)
        b->bad++;
    if (n < b->seen)
        b->back++;
    for (int k = b->seen + 1; ok && k <= n; k++)
        if (b->pub_ms[k])
            lat[nlat++] = (double)(now - b->pub_ms[k]);
    if (ok && n > b->seen)
        b->seen = n;
    pthread_mutex_unlock(&mu);
    json_decref(o);
}

static void *reader(void *arg)
{
    int port = *(int *)arg;
    int fd = hc_events_open(port);
    if (fd < 0) {
        fprintf(stderr, "bench_relay: cannot open the hub's /events on port %d\n", port);
        return NULL;
    }
    size_t len = 0, cap = 0, off = 0;
    char *buf = NULL;
    while (!stop_reader) {
        ssize_t r = hc_read_some(fd, &buf, &len, &cap, 200);
        if (r < 0)
            break;
        if (!buf)
            continue;
        /* complete lines "data: ...\n" */
        for (;;) {
            char *nl = memchr(buf + off, '\n', len - off);
            if (!nl)
                break;
            *nl = '\0';
            if (!strncmp(buf + off, "data: ", 6))
                on_message(buf + off + 6);
            off = (size_t)(nl - buf) + 1;
        }
        if (off > 0 && off == len) {
            len = off = 0;
        } else if (off > (1u << 20)) {
            memmove(buf, buf + off, len - off);
            len -= off;
            off = 0;
        }
    }
    free(buf);
    close(fd);
    return NULL;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *url = NULL;
    int port = 0, interval = 500, nsgf = 0;
    const char *sgfs[64];
    nboards = 50;
    nmoves = 60;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--url") && i + 1 < argc)
            url = argv[++i];
        else if (!strcmp(argv[i], "--hub-port") && i + 1 < argc)
            port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--boards") && i + 1 < argc)
            nboards = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--moves") && i + 1 < argc)
            nmoves = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--interval-ms") && i + 1 < argc)
            interval = atoi(argv[++i]);
        else if (nsgf < 64)
            sgfs[nsgf++] = argv[i];
    }
    if (!url || port <= 0 || nboards < 1 || nboards > MAXB || nmoves < 1 || nmoves > MAXM ||
        interval < 1 || nsgf == 0) {
        fprintf(stderr, "usage: bench_relay --url URL --hub-port P [--boards N] [--moves M] "
                        "[--interval-ms I] SGF...\n");
        return 2;
    }
    games = calloc(MAXB, sizeof *games);
    lat = calloc((size_t)nboards * (size_t)nmoves + 16, sizeof *lat);
    for (int i = 0; i < nsgf && ngames < nboards; i++)
        load_games(sgfs[i], nmoves);
    if (ngames == 0) {
        fprintf(stderr, "bench_relay: no 19x19 game of %d moves in the records given\n", nmoves);
        return 2;
    }
    for (int i = 0; i < nboards; i++) {
        board_t *b = &boards[i];
        snprintf(b->name, sizeof b->name, "%d", i + 1);
        b->src = &games[i % ngames];
        b->g = go_game_create(19, &b->src->rules);
        rly_config_t c;
        rly_config_defaults(&c);
        c.url = url;
        c.board = b->name;
        c.round = "bench";
        char err[256];
        if (rly_create(&c, &b->rly, err, sizeof err) != RLY_OK) {
            fprintf(stderr, "bench_relay: board %d: %s\n", i + 1, err);
            return 1;
        }
    }
    sleep(1);   /* every station connected */
    pthread_t th;
    pthread_create(&th, NULL, reader, &port);
    sleep_ms(300);
    double t0 = now_s();
    for (;;) {
        int left = 0;
        double t = (now_s() - t0) * 1000;
        for (int i = 0; i < nboards; i++) {
            board_t *b = &boards[i];
            /* move k of board i at (k - 1) * interval + i * interval / N */
            double due = (double)b->played * interval + (double)i * interval / nboards;
            if (b->played < nmoves && t >= due)
                play(b);
            left += b->played < nmoves;
        }
        if (!left)
            break;
        sleep_ms(2);
    }
    double pub_s = now_s() - t0;
    /* wait for the hub to show everything (at most 10 s more) */
    for (int w = 0; w < 1000; w++) {
        int done = 1;
        pthread_mutex_lock(&mu);
        for (int i = 0; i < nboards; i++)
            done &= boards[i].seen == nmoves;
        pthread_mutex_unlock(&mu);
        if (done)
            break;
        sleep_ms(10);
    }
    stop_reader = 1;
    pthread_join(th, NULL);
    int missing = 0, bad = 0, back = 0;
    for (int i = 0; i < nboards; i++) {
        missing += nmoves - boards[i].seen;
        bad += boards[i].bad;
        back += boards[i].back;
    }
    qsort(lat, nlat, sizeof *lat, cmpd);
    double p50 = nlat ? lat[nlat / 2] : 0, p90 = nlat ? lat[(size_t)(nlat * 0.9)] : 0;
    double p99 = nlat ? lat[(size_t)(nlat * 0.99)] : 0, mx = nlat ? lat[nlat - 1] : 0;
    printf("boards %d, moves %d each (%d in all, %.1f moves/s for %.1f s): at the hub %zu of %d "
           "moves, missing %d, out of order or wrong %d, gone back %d; publish -> hub page "
           "latency ms: p50 %.0f, p90 %.0f, p99 %.0f, max %.0f\n",
           nboards, nmoves, nboards * nmoves, nboards * nmoves / pub_s, pub_s, nlat,
           nboards * nmoves, missing, bad, back, p50, p90, p99, mx);
    for (int i = 0; i < nboards; i++) {
        rly_destroy(boards[i].rly);
        go_game_destroy(boards[i].g);
    }
    free(games);
    free(lat);
    return missing || bad || back || p99 > 200 ? 1 : 0;
}
