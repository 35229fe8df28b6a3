/* relay_demo.c: stand-in stations for the hub's browser test and its screenshots: one relay
 * (relay/rly.h) per SGF given, board names 1, 2, ..., each game's main line published up
 * to --moves N (the last board's game ended: its result and "over"), then one more move a
 * board every --interval ms until killed (SIGTERM: the stations say offline).
 * Usage: relay_demo --url URL [--moves N] [--interval MS] SGF... */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "relay/rly.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "web/web_state.h"

#define NB 16

static volatile sig_atomic_t g_stop;
static void on_signal(int s)
{
    (void)s;
    g_stop = 1;
}

typedef struct st {
    sgf_collection_t *coll;
    sgf_replay_t rep;
    go_game_t *g;
    rly_t *rly;
    int played, over;
    char pb[64], pw[64], name[16];
} st_t;

static void publish(st_t *s, int k)
{
    const go_move_t *m = go_game_move(s->rep.game, k);
    int why;
    if (m->kind == GO_MOVE_PASS)
        go_game_pass(s->g, m->color, true);
    else if (m->kind == GO_MOVE_PLAY)
        go_game_play_tolerant(s->g, m->color, m->point, &why);
    s->played = k + 1;
    web_state_info_t info;
    memset(&info, 0, sizeof info);
    info.black_name = s->pb;
    info.white_name = s->pw;
    info.komi2 = s->rep.komi2;
    char clock[200];
    int lb = 2700 - 11 * s->played, lw = 2650 - 12 * s->played;
    snprintf(clock, sizeof clock, "{\"B\":{\"left\":%d,\"text\":\"%d:%02d\"},\"W\":{\"left\":%d,"
             "\"text\":\"%d:%02d\"},\"running\":\"%s\"}", lb, lb / 60, lb % 60, lw, lw / 60, lw % 60,
             m->color == GO_BLACK ? "W" : "B");
    info.clock_json = s->over ? NULL : clock;
    if (s->over) {
        info.phase = "over";
        info.result = "W+R";
    }
    char *js;
    if (web_state_json(s->g, &info, &js) == WEB_OK) {
        rly_publish_state(s->rly, js);
        free(js);
    }
}

int main(int argc, char **argv)
{
    const char *url = NULL;
    int moves = 40, interval = 1500, n = 0;
    st_t *s = calloc(NB, sizeof *s);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--url") && i + 1 < argc) {
            url = argv[++i];
        } else if (!strcmp(argv[i], "--moves") && i + 1 < argc) {
            moves = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--interval") && i + 1 < argc) {
            interval = atoi(argv[++i]);
        } else if (n < NB) {
            sgf_error_t err;
            if (sgf_parse_file(argv[i], NULL, &s[n].coll, &err) != 0 ||
                sgf_replay(s[n].coll->games[0], NULL, &s[n].rep, &err) != 0) {
                fprintf(stderr, "%s:%d:%d: %s\n", argv[i], err.line, err.col, err.msg);
                sgf_collection_destroy(s[n].coll);
                free(s);
                return 2;
            }
            const char *pb = sgf_node_value(s[n].coll->games[0], "PB");
            const char *pw = sgf_node_value(s[n].coll->games[0], "PW");
            snprintf(s[n].pb, sizeof s[n].pb, "%s", pb && *pb ? pb : "Black");
            snprintf(s[n].pw, sizeof s[n].pw, "%s", pw && *pw ? pw : "White");
            n++;
        }
    }
    if (!url || n == 0) {
        fprintf(stderr, "usage: relay_demo --url URL [--moves N] [--interval MS] SGF...\n");
        free(s);
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    for (int i = 0; i < n; i++) {
        snprintf(s[i].name, sizeof s[i].name, "%d", i + 1);
        s[i].g = go_game_create(s[i].rep.size, &s[i].rep.rules);
        s[i].over = i == n - 1 && n > 1;
        rly_config_t c;
        rly_config_defaults(&c);
        c.url = url;
        c.board = s[i].name;
        c.round = "3";
        char err[256];
        if (!s[i].g || rly_create(&c, &s[i].rly, err, sizeof err) != RLY_OK) {
            fprintf(stderr, "relay_demo: %s\n", err);
            return 1;   /* exits: the OS takes the rest */
        }
        int total = go_game_move_count(s[i].rep.game);
        int upto = moves - 3 * i < total ? moves - 3 * i : total;
        for (int k = 0; k < upto; k++)
            publish(&s[i], k);
    }
    printf("relay_demo: %d boards published\n", n);
    fflush(stdout);
    while (!g_stop) {
        struct timespec ts = { interval / 1000, (long)(interval % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        for (int i = 0; i < n && !g_stop; i++)
            if (!s[i].over && s[i].played < go_game_move_count(s[i].rep.game))
                publish(&s[i], s[i].played);
    }
    for (int i = 0; i < n; i++) {
        rly_flush(s[i].rly, 2);
        rly_destroy(s[i].rly);
        go_game_destroy(s[i].g);
        sgf_replay_fini(&s[i].rep);
        sgf_collection_destroy(s[i].coll);
    }
    free(s);
    return 0;
}
