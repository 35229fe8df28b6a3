/* web_demo_server.c: a stand-in station for the web tests, the browser test, the
 * screenshots and the load benchmark. It replays an SGF's main line (rules/sgf_game.h)
 * into a go_game_t, one move every --interval ms, publishing the state (web_state.h) and
 * the record after each; after the last move it starts the count (go_session.h: the
 * station's dead-stone proposal, toggles, accepts, score) and answers the console's
 * actions. Illegal moves of the record are played tolerantly and shown as referee
 * messages. It is test code: the real station is station/.
 *
 * Usage: web_demo_server [--sgf FILE] [--port N] [--token T] [--interval MS] [--moves N]
 *                        [--start N] [--wait MS] [--wait-client] [--no-count] [--address A]
 *                        [--clock-main S] [--housekeeping TEXT]
 * (--wait: a pause before the first move; --wait-client: no move before an /events client
 * has connected, so that a test sees the game from its first move; --clock-main: the
 * made-up clock's main time per side in seconds, default 3600, then 5 x 30 s byo-yomi;
 * --housekeeping: an arbiter's message, shown once the --start moves are played, as the
 * station's housekeeping is: the overlay hides it unless ?housekeeping=1)
 * Prints "READY port=N token=T" on stdout once serving, then "MOVE n" after each move,
 * "COUNT" when the count starts; runs until SIGINT/SIGTERM. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rules/go_game.h"
#include "rules/go_point.h"
#include "rules/go_session.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "web/web.h"
#include "web/web_state.h"

#define MAXMOVES 2000

typedef struct demo {
    pthread_mutex_t mu;
    web_server_t *srv;
    go_rules_t rules;
    int size, komi2;
    char pb[128], pw[128], br[32], wr[32];
    go_move_t rec[MAXMOVES];    /* the record's main line */
    int nrec;
    go_game_t *game;
    go_session_t *session;      /* during the count and after */
    char phase[16];             /* play, counting, over */
    char result[32];
    char message[200];
    char level[8];
    char audience[8];           /* "viewer" or "arbiter" (stn_event_audience) */
    double clock_main;          /* main time per side, seconds (--clock-main) */
} demo_t;

static volatile sig_atomic_t g_stop;
static void on_signal(int s) { (void)s; g_stop = 1; }

static void copy_str(char *dst, size_t n, const char *src)
{
    size_t l = src ? strlen(src) : 0;
    if (l >= n)
        l = n - 1;
    if (l)
        memcpy(dst, src, l);
    dst[l] = '\0';
}

static void say(demo_t *d, const char *level, const char *audience, const char *text)
{
    copy_str(d->level, sizeof d->level, level);
    copy_str(d->audience, sizeof d->audience, audience);
    copy_str(d->message, sizeof d->message, text);
}

/* A made-up clock in the station's shape (station.h stn_clock_json): --clock-main seconds
 * each (default 3600), then Japanese byo-yomi of 5 x 30 s; move i takes 5 + (37 i mod 41)
 * seconds. A move within the period costs nothing, each full period used takes one, the
 * last one used up is a fallen flag. "text" as the station writes it ("M:SS", "M:SS
 * (overtime)", "time"); "periods" always given (the reserve, 5 in main time). */
static void clock_text(const demo_t *d, char *out, size_t len)
{
    double main_left[2] = { d->clock_main, d->clock_main };
    int periods[2] = { 5, 5 };
    int n = go_game_move_count(d->game);
    for (int i = 0; i < n; i++) {
        int c = go_game_move(d->game, i)->color == GO_WHITE;
        double u = 5 + (i * 37) % 41;
        if (main_left[c] > u) {
            main_left[c] -= u;
            continue;
        }
        u -= main_left[c];
        main_left[c] = 0;
        periods[c] -= (int)(u / 30);
        if (periods[c] < 0)
            periods[c] = 0;
    }
    char side[2][128];
    for (int c = 0; c < 2; c++) {
        bool over = main_left[c] <= 0, lost = over && periods[c] == 0;
        double left = lost ? 0 : over ? 30 : main_left[c];
        int sec = (int)(left + 0.999);
        char txt[32];
        if (lost)
            snprintf(txt, sizeof txt, "time");
        else
            snprintf(txt, sizeof txt, "%d:%02d%s", sec / 60, sec % 60, over ? " (overtime)" : "");
        snprintf(side[c], sizeof side[c], "{\"left\":%.1f,\"periods\":%d,\"text\":\"%s\"%s}", left,
                 periods[c], txt, lost ? ",\"lost\":true" : "");
    }
    snprintf(out, len, "{\"B\":%s,\"W\":%s,\"running\":\"%s\",\"paused\":false,\"announce\":\"\","
             "\"announce_zh\":\"\"}", side[0], side[1],
             go_game_turn(d->game) == GO_WHITE ? "W" : "B");
}

static char *sgf_text(const demo_t *d)
{
    int n = go_game_move_count(d->game);
    size_t cap = 1024 + (size_t)n * 8;
    char *s = malloc(cap);
    int w = snprintf(s, cap, "(;GM[1]FF[4]CA[UTF-8]AP[kifucam-demo]SZ[%d]KM[%g]RU[%s]PB[%s]PW[%s]",
                     d->size, d->komi2 / 2.0, d->rules.name, d->pb, d->pw);
    if (d->result[0])
        w += snprintf(s + w, cap - (size_t)w, "RE[%s]", d->result);
    for (int i = 0; i < n && (size_t)w < cap; i++) {
        const go_move_t *m = go_game_move(d->game, i);
        char pt[3] = "";
        if (m->kind == GO_MOVE_PLAY)
            go_point_to_sgf(m->point, pt);
        if (m->kind != GO_MOVE_RESIGN)
            w += snprintf(s + w, cap - (size_t)w, ";%c[%s]", m->color == GO_WHITE ? 'W' : 'B', pt);
    }
    if ((size_t)w < cap)
        snprintf(s + w, cap - (size_t)w, ")\n");
    return s;
}

/* Publish the state and the record; call with d->mu held. */
static void publish(demo_t *d)
{
    char clk[512];
    clock_text(d, clk, sizeof clk);
    web_message_t msg = { d->level, d->message, d->audience };
    web_state_info_t info = {
        .black_name = d->pb, .black_rank = d->br, .white_name = d->pw, .white_rank = d->wr,
        .komi2 = d->komi2, .phase = d->phase, .result = d->result[0] ? d->result : NULL,
        .session = d->session, .messages = &msg, .nmessages = d->message[0] ? 1 : 0,
        .clock_json = clk,
    };
    char *js = NULL;
    if (web_state_json(d->game, &info, &js) == WEB_OK)
        web_server_publish_state(d->srv, js);
    free(js);
    char *g = sgf_text(d);
    web_server_publish_sgf(d->srv, g);
    free(g);
}

/* Start the count: the session on the final board, with the station's proposal. */
static void start_count(demo_t *d)
{
    go_score_params_t par;
    memset(&par, 0, sizeof par);
    par.komi2 = d->komi2;
    const go_board_t *b = go_game_board(d->game);
    par.captures[GO_BLACK] = b->prisoners[GO_BLACK];
    par.captures[GO_WHITE] = b->prisoners[GO_WHITE];
    go_session_destroy(d->session);
    d->session = go_session_create(b, &d->rules, &par);
    if (d->session)
        go_session_propose(d->session, NULL);
    copy_str(d->phase, sizeof d->phase, "counting");
}

/* Play the record's move i into the game (tolerantly), with a referee message when a
 * strict game would have refused it. */
static void play_rec(demo_t *d, int i)
{
    const go_move_t *m = &d->rec[i];
    int why = GO_OK;
    d->message[0] = '\0';
    if (m->kind == GO_MOVE_PASS)
        go_game_pass(d->game, m->color, true);
    else if (m->kind == GO_MOVE_RESIGN)
        go_game_resign(d->game, m->color);
    else if (go_game_play_tolerant(d->game, m->color, m->point, &why) != GO_OK)
        why = GO_EOCCUPIED;
    if (why != GO_OK) {
        char pt[4], t[160];
        go_point_human(d->size, m->point, pt);
        snprintf(t, sizeof t, "Move %d (%s %s): %s", i + 1, m->color == GO_WHITE ? "W" : "B", pt,
                 go_strerror(why));
        say(d, "warn", "arbiter", t);   /* a void move: housekeeping, as the station's */
    }
}

/* ---- actions (from the server thread) ---- */

static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    demo_t *d = user;
    int rc = 0;
    pthread_mutex_lock(&d->mu);
    bool play = strcmp(d->phase, "play") == 0, counting = strcmp(d->phase, "counting") == 0;
    go_color_t who = a->color && a->color[0] == 'W' ? GO_WHITE : GO_BLACK;
    if (strcmp(a->name, "toggle") == 0) {
        int p = go_point_from_sgf(d->size, a->point, 2);
        int n = counting && d->session && p > 0 ? go_session_toggle(d->session, p, GO_EMPTY) : GO_EINVAL;
        if (!counting) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else if (n <= 0) {
            snprintf(msg, msglen, "no stone at %s", a->point);
            rc = -1;
        } else {
            bool dead = go_session_dead(d->session)[p] != 0;
            snprintf(msg, msglen, "%d stone%s at %s marked %s", n, n > 1 ? "s" : "", a->point,
                     dead ? "dead" : "alive");
        }
    } else if (strcmp(a->name, "accept") == 0) {
        if (!counting || !d->session) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else {
            go_session_accept(d->session, who);
            snprintf(msg, msglen, "%s accepts", who == GO_BLACK ? "Black" : "White");
            if (go_session_agreed(d->session)) {
                go_score_t sc;
                if (go_session_score(d->session, &sc) == GO_OK)
                    copy_str(d->result, sizeof d->result, sc.re);
                copy_str(d->phase, sizeof d->phase, "over");
                char t[96];
                snprintf(t, sizeof t, "Both players accepted: %s", d->result);
                say(d, "info", "viewer", t);
            }
        }
    } else if (strcmp(a->name, "resume") == 0 || strcmp(a->name, "reject") == 0) {
        if (!counting) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else {
            go_session_destroy(d->session);
            d->session = NULL;
            copy_str(d->phase, sizeof d->phase, "play");
            snprintf(msg, msglen, "play resumes");
            say(d, "info", "viewer", msg);
        }
    } else if (!play) {
        snprintf(msg, msglen, "the game is not in play");
        rc = -1;
    } else if (strcmp(a->name, "pass") == 0) {
        go_color_t c = go_game_turn(d->game);
        rc = go_game_pass(d->game, c, false);
        if (rc)
            snprintf(msg, msglen, "%s", go_strerror(rc));
        else
            snprintf(msg, msglen, "%s passes", c == GO_BLACK ? "Black" : "White");
    } else if (strcmp(a->name, "undo") == 0) {
        rc = go_game_undo(d->game);
        if (rc)
            snprintf(msg, msglen, "%s", go_strerror(rc));
        else
            snprintf(msg, msglen, "move %d taken back", go_game_move_count(d->game) + 1);
    } else if (strcmp(a->name, "end") == 0) {
        start_count(d);
        snprintf(msg, msglen, "counting starts");
        say(d, "info", "viewer", "The end is confirmed: mark the dead stones, then accept");
    } else if (strcmp(a->name, "resign") == 0) {
        rc = go_game_resign(d->game, who);
        if (rc == GO_OK) {
            snprintf(d->result, sizeof d->result, "%c+R", who == GO_BLACK ? 'W' : 'B');
            copy_str(d->phase, sizeof d->phase, "over");
            snprintf(msg, msglen, "%s resigns", who == GO_BLACK ? "Black" : "White");
            say(d, "info", "viewer", msg);
        } else {
            snprintf(msg, msglen, "%s", go_strerror(rc));
        }
    } else {
        snprintf(msg, msglen, "not supported by the demo");
        rc = -1;
    }
    if (rc == 0)
        publish(d);
    pthread_mutex_unlock(&d->mu);
    return rc == 0 ? 0 : -1;
}

static int load(demo_t *d, const char *path)
{
    sgf_collection_t *coll = NULL;
    sgf_error_t err;
    if (sgf_parse_file(path, NULL, &coll, &err) != 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.col, err.msg);
        return -1;
    }
    const sgf_node_t *root = coll->games[0];
    sgf_replay_t rep;
    if (sgf_replay(root, NULL, &rep, &err) != 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.col, err.msg);
        sgf_collection_destroy(coll);
        return -1;
    }
    d->rules = rep.rules;
    d->size = rep.size;
    d->komi2 = rep.komi2;
    int n = go_game_move_count(rep.game);
    for (int i = 0; i < n && d->nrec < MAXMOVES; i++)
        d->rec[d->nrec++] = *go_game_move(rep.game, i);
    copy_str(d->pb, sizeof d->pb, sgf_node_value(root, "PB"));
    copy_str(d->pw, sizeof d->pw, sgf_node_value(root, "PW"));
    copy_str(d->br, sizeof d->br, sgf_node_value(root, "BR"));
    copy_str(d->wr, sizeof d->wr, sgf_node_value(root, "WR"));
    sgf_replay_fini(&rep);
    sgf_collection_destroy(coll);
    return 0;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !g_stop) {
    }
}

int main(int argc, char **argv)
{
    static demo_t d;
    const char *sgf = NULL, *token = "demo-token", *address = NULL;
    int port = 0, interval = 150, maxmoves = -1, start = 0, wait = 0;
    const char *housekeeping = NULL;
    bool count = true, wait_client = false;
    d.clock_main = 3600;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sgf") && v) sgf = v, i++;
        else if (!strcmp(a, "--port") && v) port = atoi(v), i++;
        else if (!strcmp(a, "--token") && v) token = v, i++;
        else if (!strcmp(a, "--address") && v) address = v, i++;
        else if (!strcmp(a, "--interval") && v) interval = atoi(v), i++;
        else if (!strcmp(a, "--moves") && v) maxmoves = atoi(v), i++;
        else if (!strcmp(a, "--start") && v) start = atoi(v), i++;
        else if (!strcmp(a, "--wait") && v) wait = atoi(v), i++;
        else if (!strcmp(a, "--wait-client")) wait_client = true;
        else if (!strcmp(a, "--no-count")) count = false;
        else if (!strcmp(a, "--clock-main") && v) d.clock_main = atof(v), i++;
        else if (!strcmp(a, "--housekeeping") && v) housekeeping = v, i++;
        else {
            fprintf(stderr, "usage: %s [--sgf FILE] [--port N] [--token T] [--interval MS] "
                            "[--moves N] [--start N] [--wait MS] [--wait-client] [--no-count] [--address A] "
                            "[--clock-main S] [--housekeeping TEXT]\n",
                    argv[0]);
            return 2;
        }
    }
    pthread_mutex_init(&d.mu, NULL);
    d.size = 9;
    go_rules_preset("chinese", &d.rules);
    d.komi2 = d.rules.komi2;
    copy_str(d.pb, sizeof d.pb, "Black");
    copy_str(d.pw, sizeof d.pw, "White");
    copy_str(d.phase, sizeof d.phase, "play");
    if (sgf && load(&d, sgf) != 0)
        return 2;
    if (maxmoves >= 0 && maxmoves < d.nrec)
        d.nrec = maxmoves;
    d.game = go_game_create(d.size, &d.rules);
    if (!d.game)
        return 1;

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    web_config_t cfg;
    web_config_defaults(&cfg);
    cfg.port = port;
    cfg.token = token;
    cfg.address = address;
    int rc = web_server_create(&cfg, on_action, &d, &d.srv);
    if (rc != WEB_OK) {
        fprintf(stderr, "web server: %s\n", web_strerror(rc));
        return 1;
    }
    pthread_mutex_lock(&d.mu);
    int next = 0;
    for (; next < start && next < d.nrec; next++)
        play_rec(&d, next);
    if (housekeeping)
        say(&d, "warn", "arbiter", housekeeping);
    publish(&d);
    pthread_mutex_unlock(&d.mu);
    printf("READY port=%d token=%s\n", web_server_port(d.srv), web_server_token(d.srv));
    fflush(stdout);

    bool counted = false;
    for (int waited = 0; wait_client && !g_stop && waited < 60000; waited += 50) {
        web_stats_t st;
        web_server_stats(d.srv, &st);
        if (st.sse_clients > 0)
            break;
        sleep_ms(50);
    }
    if (wait > 0)
        sleep_ms(wait);
    while (!g_stop) {
        sleep_ms(interval > 0 ? interval : 1);
        pthread_mutex_lock(&d.mu);
        if (next < d.nrec && strcmp(d.phase, "play") == 0) {
            play_rec(&d, next++);
            publish(&d);
            printf("MOVE %d\n", go_game_move_count(d.game));
            fflush(stdout);
        } else if (next >= d.nrec && count && !counted) {
            counted = true;
            start_count(&d);
            say(&d, "info", "viewer", "The game is over: mark the dead stones, then accept");
            publish(&d);
            printf("COUNT\n");
            fflush(stdout);
        }
        pthread_mutex_unlock(&d.mu);
    }
    web_server_destroy(d.srv);
    go_session_destroy(d.session);
    go_game_destroy(d.game);
    pthread_mutex_destroy(&d.mu);
    return 0;
}
