/* bench_web.c: the web server under load: N /events clients on loopback while a stand-in
 * recording loop replays a game and publishes the state after every move.
 *
 * Measures: that no client misses a move (every client sees every move number, in order);
 * the time from web_server_publish_state to the client's receipt (p50/p99/max); the
 * server's CPU time; and the recording loop's speed (frames/s of a fixed CPU workload)
 * with the clients against without them.
 *
 * Usage: bench_web [--clients N] [--moves M] [--interval-ms MS] [--sgf FILE]
 * Exit 0 when every client saw every move and p99 latency < 100 ms, 1 otherwise.
 *
 * Attach mode (bench/web.sh against a real `kifucam record --serve --realtime`):
 *   bench_web --attach PORT [--clients N] [--moves M] [--timeout S]
 * connects N /events clients to 127.0.0.1:PORT and reads until the station closes them
 * (the record ended) or S seconds (default 600) pass. A client has move n when one of the
 * states it received has "last":{"n":n}. Prints how many clients have every move 1..M
 * (M: --moves, else the highest move any client saw) and, per move, the spread between
 * the first and the last client's receipt. Exit 0 when every client has every move. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>

#include "web/web.h"
#include "http_client.h"

#define MAXMOVES 2000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double process_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

typedef struct client {
    int fd;
    char *buf;
    size_t len, cap;
    int last_seq;               /* last move number seen */
    int missed;                 /* gaps in the sequence */
    int seen;                   /* moves seen */
} client_t;

typedef struct bench {
    int nclients, nmoves;
    client_t *cl;
    double pub_t[MAXMOVES + 1];     /* publish time of move n */
    double *lat;                    /* nclients * nmoves latencies */
    int nlat;
    volatile int done;
    double client_cpu;
    double publish_s, publish_max;  /* time spent in web_server_publish_state */
    double publish_cpu;             /* its CPU time on the recording thread */
    pthread_mutex_t mu;
} bench_t;

/* The client side: one epoll loop over every /events socket. */
static void *clients_main(void *arg)
{
    bench_t *b = arg;
    /* the clients stand for browsers that would run on other machines: keep them from
     * preempting the recording loop on this one (SCHED_BATCH = 3 on Linux, nice +5) */
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    pthread_setschedparam(pthread_self(), 3, &sp);
    setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + 5);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < b->nclients; i++) {
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        fcntl(b->cl[i].fd, F_SETFL, fcntl(b->cl[i].fd, F_GETFL) | O_NONBLOCK);
        epoll_ctl(ep, EPOLL_CTL_ADD, b->cl[i].fd, &ev);
    }
    struct epoll_event evs[256];
    while (!b->done) {
        int n = epoll_wait(ep, evs, 256, 100);
        double t = now_s();
        for (int k = 0; k < n; k++) {
            client_t *c = &b->cl[evs[k].data.u32];
            for (;;) {
                if (c->len + 65537 > c->cap) {
                    c->cap = c->len + 65537 + c->cap;
                    c->buf = realloc(c->buf, c->cap);
                }
                ssize_t r = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
                if (r <= 0)
                    break;
                c->len += (size_t)r;
            }
            c->buf[c->len] = '\0';
            char *p = c->buf, *q;
            while ((q = strstr(p, "data: {\"seq\":")) != NULL) {
                char *end;
                long seq = strtol(q + 13, &end, 10);
                if (end == q + 13 || !*end)
                    break;          /* cut in the middle: wait for the rest */
                if (seq > 0 && seq <= b->nmoves) {
                    if (seq != c->last_seq + 1 && seq > c->last_seq)
                        c->missed += (int)(seq - c->last_seq - 1);
                    if (seq > c->last_seq) {
                        c->seen++;
                        c->last_seq = (int)seq;
                        pthread_mutex_lock(&b->mu);
                        b->lat[b->nlat++] = t - b->pub_t[seq];
                        pthread_mutex_unlock(&b->mu);
                    }
                }
                p = end;
            }
            /* keep only what may hold the start of the next event */
            size_t keep = c->len - (size_t)(p - c->buf);
            if (keep > 64 && !strstr(p, "data: {"))
                keep = 64;
            memmove(c->buf, c->buf + c->len - keep, keep);
            c->len = keep;
            c->buf[c->len] = '\0';
        }
    }
    b->client_cpu = thread_cpu_s();
    close(ep);
    return NULL;
}

/* One frame of the stand-in recording loop: a fixed CPU workload (~1-2 ms). */
static volatile double g_sink;
static void frame_work(void)
{
    double x = 0;
    for (int i = 1; i < 400000; i++)
        x += 1.0 / ((double)i * (double)i + x);
    g_sink = x;
}

/* The stand-in recording loop: frames of a fixed workload for as long as it takes to
 * publish every move. Time alternates in windows of `window` seconds: in "on" windows a move
 * is published every move_every seconds; "off" windows publish nothing. Alternating keeps
 * the machine's other load (shared cores) out of the comparison. Returns the frames/s
 * of the off and on windows in *off_fps and *on_fps. */
static void run_recording(bench_t *b, web_server_t *srv, const char (*moves)[3], int nmoves,
                          double move_every, double window, double *off_fps, double *on_fps,
                          double *rec_cpu)
{
    double t0 = now_s(), c0 = thread_cpu_s(), next = 0;
    long frames[2] = { 0, 0 };
    double spent[2] = { 0, 0 };
    int played = 0;
    char board[19][20];
    memset(board, '.', sizeof board);
    for (int y = 0; y < 19; y++)
        board[y][19] = '\0';
    size_t cap = 64 * 1024;
    char *js = malloc(cap);
    double wstart = t0;
    int on = 0;
    while (played < nmoves) {
        double f0 = now_s();
        frame_work();
        double t = now_s();
        frames[on]++;
        spent[on] += t - f0;
        if (t - wstart >= window) {          /* next window */
            on = !on;
            wstart = t;
            next = t;
        }
        if (on && t >= next) {
            next += move_every;
            int x = moves[played][0] - 'a', y = moves[played][1] - 'a';
            if (x >= 0 && x < 19 && y >= 0 && y < 19)
                board[y][x] = played % 2 ? 'O' : 'X';
            played++;
            int n = snprintf(js, cap, "{\"seq\":%d,\"size\":19,\"phase\":\"play\",\"turn\":\"%c\",\"board\":[",
                             played, played % 2 ? 'W' : 'B');
            for (int r = 0; r < 19; r++)
                n += snprintf(js + n, cap - (size_t)n, "%s\"%s\"", r ? "," : "", board[r]);
            n += snprintf(js + n, cap - (size_t)n, "],\"moves\":[");
            for (int i = 0; i < played; i++)
                n += snprintf(js + n, cap - (size_t)n, "%s{\"n\":%d,\"color\":\"%c\",\"point\":\"%s\"}",
                              i ? "," : "", i + 1, i % 2 ? 'W' : 'B', moves[i]);
            snprintf(js + n, cap - (size_t)n, "],\"captures\":{\"B\":0,\"W\":0},\"komi\":7.5,"
                     "\"black\":{\"name\":\"Black\",\"rank\":\"5d\"},\"white\":{\"name\":\"White\",\"rank\":\"5d\"}}");
            b->pub_t[played] = now_s();
            double p0 = now_s(), pc0 = thread_cpu_s();
            web_server_publish_state(srv, js);
            double dp = now_s() - p0;
            b->publish_cpu += thread_cpu_s() - pc0;
            spent[on] += dp;                  /* the publish is the recording's own cost */
            b->publish_s += dp;
            if (dp > b->publish_max)
                b->publish_max = dp;
        }
    }
    free(js);
    *rec_cpu = thread_cpu_s() - c0;
    *off_fps = spent[0] > 0 ? (double)frames[0] / spent[0] : 0;
    *on_fps = spent[1] > 0 ? (double)frames[1] / spent[1] : 0;
}

/* Attach mode: N clients on a station's /events (see the file's header). */
static int attach_main(int port, int nclients, int want_moves, double timeout_s)
{
    client_t *cl = calloc((size_t)nclients, sizeof *cl);
    unsigned char *seen = calloc((size_t)nclients * (MAXMOVES + 1), 1);
    static double first_t[MAXMOVES + 1], last_t[MAXMOVES + 1];
    if (!cl || !seen) {
        fprintf(stderr, "out of memory\n");
        free(cl);
        free(seen);
        return 1;
    }
    int connected = 0, open_n = 0;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < nclients; i++) {
        cl[i].fd = hc_events_open(port);
        if (cl[i].fd < 0)
            continue;
        connected++;
        open_n++;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        fcntl(cl[i].fd, F_SETFL, fcntl(cl[i].fd, F_GETFL) | O_NONBLOCK);
        epoll_ctl(ep, EPOLL_CTL_ADD, cl[i].fd, &ev);
    }
    fprintf(stderr, "bench_web: %d of %d clients connected to port %d\n", connected, nclients, port);
    double t0 = now_s();
    int maxn = 0;
    struct epoll_event evs[256];
    while (open_n > 0 && now_s() - t0 < timeout_s) {
        int n = epoll_wait(ep, evs, 256, 200);
        double t = now_s();
        for (int k = 0; k < n; k++) {
            int i = (int)evs[k].data.u32;
            client_t *c = &cl[i];
            bool closed = false;
            for (;;) {
                if (c->len + 65537 > c->cap) {
                    c->cap = c->len + 65537 + c->cap;
                    char *nb = realloc(c->buf, c->cap);
                    if (!nb) {
                        closed = true;
                        break;
                    }
                    c->buf = nb;
                }
                ssize_t r = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
                if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
                    closed = true;
                    break;
                }
                if (r < 0)
                    break;
                c->len += (size_t)r;
            }
            if (!c->buf)
                continue;
            c->buf[c->len] = '\0';
            static const char mark[] = "\"last\":{\"n\":";
            char *p = c->buf, *q;
            while ((q = strstr(p, mark)) != NULL) {
                char *end;
                long mv = strtol(q + sizeof mark - 1, &end, 10);
                if (end == q + sizeof mark - 1 || !*end)
                    break;          /* cut in the middle: wait for the rest */
                if (mv > 0 && mv <= MAXMOVES && !seen[(size_t)i * (MAXMOVES + 1) + (size_t)mv]) {
                    seen[(size_t)i * (MAXMOVES + 1) + (size_t)mv] = 1;
                    c->seen++;
                    if (mv > maxn)
                        maxn = (int)mv;
                    if (first_t[mv] == 0 || t < first_t[mv])
                        first_t[mv] = t;
                    if (t > last_t[mv])
                        last_t[mv] = t;
                }
                p = end;
            }
            size_t keep = c->len - (size_t)(p - c->buf);
            if (keep > 64)
                keep = 64;
            memmove(c->buf, c->buf + c->len - keep, keep);
            c->len = keep;
            if (closed) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->fd = -1;
                open_n--;
            }
        }
    }
    close(ep);
    int m = want_moves > 0 ? want_moves : maxn, complete = 0, missed = 0;
    double spread = 0;
    for (int i = 0; i < nclients; i++) {
        int have = 0;
        for (int mv = 1; mv <= m && mv <= MAXMOVES; mv++)
            have += seen[(size_t)i * (MAXMOVES + 1) + (size_t)mv];
        missed += m - have;
        complete += have == m;
        if (cl[i].fd >= 0)
            close(cl[i].fd);
        free(cl[i].buf);
    }
    for (int mv = 1; mv <= m && mv <= MAXMOVES; mv++)
        if (last_t[mv] - first_t[mv] > spread)
            spread = last_t[mv] - first_t[mv];
    printf("attach: clients %d (connected %d), moves 1..%d: %d clients received every move, "
           "%d move receipts missing; %s\n", nclients, connected, m, complete, missed,
           open_n ? "timed out before the station closed the streams" : "the station closed the streams");
    printf("attach: first -> last client receipt of the same move: max %.1f ms\n", spread * 1e3);
    free(cl);
    free(seen);
    return connected == nclients && complete == nclients && m > 0 ? 0 : 1;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int nclients = 200, nmoves = 150, interval_ms = 100, attach = 0, moves_given = 0;
    double timeout_s = 600;
    const char *sgf = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--clients") && i + 1 < argc) nclients = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--attach") && i + 1 < argc) attach = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout_s = atof(argv[++i]);
        else if (!strcmp(argv[i], "--moves") && i + 1 < argc) nmoves = moves_given = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--interval-ms") && i + 1 < argc) interval_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sgf") && i + 1 < argc) sgf = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--clients N] [--moves M] [--interval-ms MS] [--sgf FILE]\n"
                    "       %s --attach PORT [--clients N] [--moves M] [--timeout S]\n", argv[0], argv[0]);
            return 2;
        }
    }
    if (attach) {
        signal(SIGPIPE, SIG_IGN);
        if (attach < 1 || attach > 65535 || nclients < 1 || moves_given < 0 || moves_given > MAXMOVES)
            return 2;
        return attach_main(attach, nclients, moves_given, timeout_s);
    }
    if (nmoves < 1 || nmoves > MAXMOVES || nclients < 1 || interval_ms < 1)
        return 2;
    signal(SIGPIPE, SIG_IGN);
    /* the moves: from an SGF's ;B[xx]/;W[xx] or a fixed spiral */
    static char moves[MAXMOVES][3];
    int have = 0;
    if (sgf) {
        FILE *f = fopen(sgf, "rb");
        static char text[1 << 20];
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f)
            fclose(f);
        text[n] = '\0';
        for (char *p = text; (p = strchr(p, ';')) && have < MAXMOVES; p++)
            if ((p[1] == 'B' || p[1] == 'W') && p[2] == '[' && p[5] == ']') {
                moves[have][0] = p[3];
                moves[have][1] = p[4];
                have++;
            }
    }
    for (int i = have; i < nmoves; i++) {
        moves[i][0] = (char)('a' + (i * 7) % 19);
        moves[i][1] = (char)('a' + (i * 11 + i / 19) % 19);
    }

    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.max_sse_clients = nclients + 16;
    cfg.max_connections = nclients + 64;
    web_server_t *srv;
    int rc = web_server_create(&cfg, NULL, NULL, &srv);
    if (rc) {
        fprintf(stderr, "web server: %s\n", web_strerror(rc));
        return 1;
    }
    int port = web_server_port(srv);
    bench_t b;
    memset(&b, 0, sizeof b);
    b.nclients = nclients;
    b.nmoves = nmoves;
    pthread_mutex_init(&b.mu, NULL);
    b.cl = calloc((size_t)nclients, sizeof *b.cl);
    b.lat = calloc((size_t)nclients * (size_t)nmoves + 1, sizeof *b.lat);
    if (!b.cl || !b.lat) {
        fprintf(stderr, "out of memory\n");
        free(b.cl);
        free(b.lat);
        web_server_destroy(srv);
        pthread_mutex_destroy(&b.mu);
        return 1;
    }

    /* 2. the clients connect */
    for (int i = 0; i < nclients; i++) {
        b.cl[i].fd = hc_events_open(port);
        if (b.cl[i].fd < 0) {
            fprintf(stderr, "client %d cannot connect\n", i);
            for (int k = 0; k < i; k++)
                close(b.cl[k].fd);
            free(b.cl);
            free(b.lat);
            web_server_destroy(srv);
            pthread_mutex_destroy(&b.mu);
            return 1;
        }
    }
    for (int tries = 0; tries < 200; tries++) {
        web_stats_t st;
        web_server_stats(srv, &st);
        if (st.sse_clients == nclients)
            break;
        struct timespec ts = { 0, 20000000 };
        nanosleep(&ts, NULL);
    }
    pthread_t th;
    pthread_create(&th, NULL, clients_main, &b);
    struct timespec settle = { 0, 300000000 };
    nanosleep(&settle, NULL);

    /* 3. the recording with the clients, a move every interval */
    double cpu0 = process_cpu_s(), t0 = now_s(), rec_cpu;
    double base, loaded;
    run_recording(&b, srv, (const char (*)[3])moves, nmoves, interval_ms / 1000.0, 0.5, &base,
                  &loaded, &rec_cpu);
    struct timespec tail = { 0, 500000000 };   /* let the last events arrive */
    nanosleep(&tail, NULL);
    b.done = 1;
    pthread_join(th, NULL);
    double wall = now_s() - t0, cpu = process_cpu_s() - cpu0;
    double server_cpu = cpu - rec_cpu - b.client_cpu;

    int missed = 0, short_clients = 0;
    for (int i = 0; i < nclients; i++) {
        missed += b.cl[i].missed;
        if (b.cl[i].last_seq != nmoves || b.cl[i].seen != nmoves)
            short_clients++;
    }
    qsort(b.lat, (size_t)b.nlat, sizeof *b.lat, cmp_d);
    double p50 = b.nlat ? b.lat[b.nlat / 2] : 0, p99 = b.nlat ? b.lat[(size_t)(b.nlat * 0.99)] : 0;
    double mx = b.nlat ? b.lat[b.nlat - 1] : 0;
    printf("clients %d, moves %d (one every %d ms), events received %d of %d\n", nclients, nmoves,
           interval_ms, b.nlat, nclients * nmoves);
    printf("missed moves %d, clients without every move %d\n", missed, short_clients);
    printf("publish -> receipt: p50 %.2f ms, p99 %.2f ms, max %.2f ms (target < 100 ms)\n",
           p50 * 1e3, p99 * 1e3, mx * 1e3);
    printf("web_server_publish_state on the recording thread: CPU %.0f us per call; wall mean %.0f us,\n"
           "max %.0f us (wall includes being preempted by the threads it wakes on a busy machine)\n",
           1e6 * b.publish_cpu / nmoves, 1e6 * b.publish_s / nmoves, 1e6 * b.publish_max);
    printf("server CPU %.2f s over %.1f s (%.1f%% of one core); client side %.2f s\n", server_cpu,
           wall, 100 * server_cpu / wall, b.client_cpu);
    printf("recording loop (frames/s over the time spent in frames and publishing, windows of\n"
           "0.5 s alternating): %.1f without moves, %.1f while publishing to the clients (%+.1f%%)\n",
           base, loaded, 100 * (loaded - base) / base);

    for (int i = 0; i < nclients; i++) {
        close(b.cl[i].fd);
        free(b.cl[i].buf);
    }
    web_server_destroy(srv);
    free(b.cl);
    free(b.lat);
    pthread_mutex_destroy(&b.mu);
    return missed == 0 && short_clients == 0 && p99 < 0.1 ? 0 : 1;
}
