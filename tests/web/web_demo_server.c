/* web_demo_server.c: a stand-in station for the web tests, the browser test, the
 * screenshots and the load benchmark. It replays an SGF's main line into the web server
 * (one move every --interval ms), goes to the count after the last move, and answers the
 * console's actions with its own small game logic (captures, undo, dead-stone toggling of
 * whole chains, area scoring). It is test code: the real station is station/.
 *
 * Usage: web_demo_server [--sgf FILE] [--port N] [--token T] [--interval MS] [--moves N]
 *                        [--start N] [--no-count] [--address A]
 * Prints "READY port=N token=T" on stdout once serving, then "MOVE n" after each move,
 * "COUNT" when the count starts; runs until SIGINT/SIGTERM or stdin closes (--stdin). */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "web/web.h"

#define MAXN 25
#define MAXMOVES 1000

typedef struct mv {
    char color;                 /* 'B' or 'W' */
    int x, y;                   /* -1 for a pass */
} mv_t;

typedef struct demo {
    pthread_mutex_t mu;
    web_server_t *srv;
    int size;
    char pb[64], pw[64], br[16], bw[16], ru[32];
    double komi;
    mv_t rec[MAXMOVES];         /* the SGF's main line */
    int nrec;
    mv_t played[MAXMOVES];      /* what has been played (moves, passes) */
    int nplayed;
    int board[MAXN][MAXN];      /* 0 empty, 1 black, 2 white */
    int caps[3];                /* stones captured by colour */
    bool dead[MAXN][MAXN];
    bool accepted[3];
    char phase[16];             /* play, counting, over */
    char result[32];
    char message[160];
    char msglevel[8];
} demo_t;

static volatile sig_atomic_t g_stop;
static void on_signal(int s) { (void)s; g_stop = 1; }

/* ---- a tiny Go board ---- */

static int chain(demo_t *d, int x, int y, int pts[][2], bool seen[MAXN][MAXN], int *libs)
{
    int c = d->board[y][x], n = 0, top = 0;
    int stack[MAXN * MAXN][2];
    bool libseen[MAXN][MAXN];
    memset(libseen, 0, sizeof libseen);
    *libs = 0;
    stack[top][0] = x;
    stack[top][1] = y;
    top++;
    seen[y][x] = true;
    while (top) {
        top--;
        int cx = stack[top][0], cy = stack[top][1];
        pts[n][0] = cx;
        pts[n][1] = cy;
        n++;
        static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
        for (int k = 0; k < 4; k++) {
            int nx = cx + dx[k], ny = cy + dy[k];
            if (nx < 0 || ny < 0 || nx >= d->size || ny >= d->size)
                continue;
            if (d->board[ny][nx] == 0 && !libseen[ny][nx]) {
                libseen[ny][nx] = true;
                (*libs)++;
            } else if (d->board[ny][nx] == c && !seen[ny][nx]) {
                seen[ny][nx] = true;
                stack[top][0] = nx;
                stack[top][1] = ny;
                top++;
            }
        }
    }
    return n;
}

static void place(demo_t *d, const mv_t *m)
{
    if (m->x < 0 || d->board[m->y][m->x])
        return;
    int c = m->color == 'B' ? 1 : 2, o = 3 - c;
    d->board[m->y][m->x] = c;
    static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
    for (int k = 0; k < 4; k++) {
        int nx = m->x + dx[k], ny = m->y + dy[k];
        if (nx < 0 || ny < 0 || nx >= d->size || ny >= d->size || d->board[ny][nx] != o)
            continue;
        bool seen[MAXN][MAXN];
        memset(seen, 0, sizeof seen);
        int pts[MAXN * MAXN][2], libs;
        int n = chain(d, nx, ny, pts, seen, &libs);
        if (libs == 0) {
            for (int i = 0; i < n; i++)
                d->board[pts[i][1]][pts[i][0]] = 0;
            d->caps[c] += n;
        }
    }
}

static void rebuild(demo_t *d)
{
    memset(d->board, 0, sizeof d->board);
    d->caps[1] = d->caps[2] = 0;
    for (int i = 0; i < d->nplayed; i++)
        place(d, &d->played[i]);
}

/* Area score with the dead stones removed: stones + empty regions touching one colour. */
static void score(demo_t *d, double *sb, double *sw, char terr[MAXN][MAXN + 1])
{
    int b[MAXN][MAXN];
    for (int y = 0; y < d->size; y++)
        for (int x = 0; x < d->size; x++)
            b[y][x] = d->dead[y][x] ? 0 : d->board[y][x];
    int area[3] = { 0, 0, 0 };
    bool seen[MAXN][MAXN];
    memset(seen, 0, sizeof seen);
    for (int y = 0; y < d->size; y++) {
        for (int x = 0; x < d->size; x++) {
            terr[y][x] = '.';
            if (b[y][x])
                area[b[y][x]]++;
        }
        terr[y][d->size] = '\0';
    }
    for (int y = 0; y < d->size; y++)
        for (int x = 0; x < d->size; x++) {
            if (b[y][x] || seen[y][x])
                continue;
            int stack[MAXN * MAXN][2], top = 0, n = 0, touch = 0;
            int pts[MAXN * MAXN][2];
            stack[top][0] = x;
            stack[top][1] = y;
            top++;
            seen[y][x] = true;
            while (top) {
                top--;
                int cx = stack[top][0], cy = stack[top][1];
                pts[n][0] = cx;
                pts[n][1] = cy;
                n++;
                static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
                for (int k = 0; k < 4; k++) {
                    int nx = cx + dx[k], ny = cy + dy[k];
                    if (nx < 0 || ny < 0 || nx >= d->size || ny >= d->size)
                        continue;
                    if (b[ny][nx])
                        touch |= b[ny][nx];
                    else if (!seen[ny][nx]) {
                        seen[ny][nx] = true;
                        stack[top][0] = nx;
                        stack[top][1] = ny;
                        top++;
                    }
                }
            }
            if (touch == 1 || touch == 2) {
                area[touch] += n;
                for (int i = 0; i < n; i++)
                    terr[pts[i][1]][pts[i][0]] = touch == 1 ? 'X' : 'O';
            }
        }
    *sb = area[1];
    *sw = area[2] + d->komi;
}

static void result_text(double sb, double sw, char *out, size_t len)
{
    if (sb > sw)
        snprintf(out, len, "B+%g", sb - sw);
    else if (sw > sb)
        snprintf(out, len, "W+%g", sw - sb);
    else
        snprintf(out, len, "0");
}

/* ---- state and record ---- */

static void pt_text(int x, int y, char out[3])
{
    if (x < 0) {
        out[0] = '\0';
        return;
    }
    out[0] = (char)('a' + x);
    out[1] = (char)('a' + y);
    out[2] = '\0';
}

static char *state_json(demo_t *d)
{
    json_t *st = json_object();
    json_object_set_new(st, "size", json_integer(d->size));
    json_t *rows = json_array();
    for (int y = 0; y < d->size; y++) {
        char row[MAXN + 1];
        for (int x = 0; x < d->size; x++)
            row[x] = ".XO"[d->board[y][x]];
        row[d->size] = '\0';
        json_array_append_new(rows, json_string(row));
    }
    json_object_set_new(st, "board", rows);
    json_t *moves = json_array();
    for (int i = 0; i < d->nplayed; i++) {
        char p[3];
        pt_text(d->played[i].x, d->played[i].y, p);
        json_array_append_new(moves, json_pack("{s:i,s:s#,s:s}", "n", i + 1, "color",
                                               &d->played[i].color, (size_t)1, "point", p));
    }
    json_object_set_new(st, "moves", moves);
    if (d->nplayed) {
        const mv_t *m = &d->played[d->nplayed - 1];
        char p[3];
        pt_text(m->x, m->y, p);
        json_object_set_new(st, "last", json_pack("{s:i,s:s#,s:s}", "n", d->nplayed, "color",
                                                  &m->color, (size_t)1, "point", p));
    } else {
        json_object_set_new(st, "last", json_null());
    }
    json_object_set_new(st, "captures", json_pack("{s:i,s:i}", "B", d->caps[1], "W", d->caps[2]));
    char turn = d->nplayed && d->played[d->nplayed - 1].color == 'B' ? 'W' : 'B';
    json_object_set_new(st, "turn", json_stringn(&turn, 1));
    json_object_set_new(st, "phase", json_string(d->phase));
    json_object_set_new(st, "black", json_pack("{s:s,s:s}", "name", d->pb, "rank", d->br));
    json_object_set_new(st, "white", json_pack("{s:s,s:s}", "name", d->pw, "rank", d->bw));
    json_object_set_new(st, "komi", json_real(d->komi));
    json_object_set_new(st, "rules", json_string(d->ru));
    json_t *msgs = json_array();
    if (d->message[0])
        json_array_append_new(msgs, json_pack("{s:s,s:s}", "level", d->msglevel, "text", d->message));
    json_object_set_new(st, "messages", msgs);
    if (strcmp(d->phase, "play") != 0) {
        double sb, sw;
        char terr[MAXN][MAXN + 1], res[32];
        score(d, &sb, &sw, terr);
        result_text(sb, sw, res, sizeof res);
        json_t *dead = json_array(), *tr = json_array();
        for (int y = 0; y < d->size; y++) {
            for (int x = 0; x < d->size; x++)
                if (d->dead[y][x] && d->board[y][x]) {
                    char p[3];
                    pt_text(x, y, p);
                    json_array_append_new(dead, json_string(p));
                }
            json_array_append_new(tr, json_string(terr[y]));
        }
        json_object_set_new(st, "count", json_pack("{s:o,s:o,s:{s:b,s:b},s:{s:f,s:f,s:s}}",
                                                    "dead", dead, "territory", tr, "accepted",
                                                    "B", d->accepted[1], "W", d->accepted[2],
                                                    "score", "B", sb, "W", sw, "result", res));
    }
    if (d->result[0])
        json_object_set_new(st, "result", json_string(d->result));
    /* a made-up clock: 60 minutes each, every move takes 5..45 s, then 5 x 30 s byo-yomi */
    double used[2] = { 0, 0 };
    for (int i = 0; i < d->nplayed; i++)
        used[d->played[i].color == 'W'] += 5 + (i * 37) % 41;
    json_t *clk = json_object();
    for (int c = 0; c < 2; c++) {
        double left = 3600 - used[c];
        int periods = 0;
        if (left <= 0) {
            periods = 5 - (int)(-left / 30);
            left = periods > 0 ? 30 : 0;
            periods = periods > 0 ? periods : 0;
        }
        json_object_set_new(clk, c ? "W" : "B", json_pack("{s:f,s:i}", "left", left, "periods", periods));
    }
    json_object_set_new(clk, "running", json_stringn(&turn, 1));
    json_object_set_new(st, "clock", clk);
    char *s = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    return s;
}

static char *sgf_text(demo_t *d)
{
    size_t cap = 512 + (size_t)d->nplayed * 8;
    char *s = malloc(cap);
    int n = snprintf(s, cap, "(;GM[1]FF[4]CA[UTF-8]AP[kifucam-demo]SZ[%d]KM[%g]RU[%s]PB[%s]PW[%s]%s%s%s",
                     d->size, d->komi, d->ru, d->pb, d->pw, d->result[0] ? "RE[" : "",
                     d->result, d->result[0] ? "]" : "");
    for (int i = 0; i < d->nplayed; i++) {
        char p[3];
        pt_text(d->played[i].x, d->played[i].y, p);
        n += snprintf(s + n, cap - (size_t)n, ";%c[%s]", d->played[i].color, p);
    }
    snprintf(s + n, cap - (size_t)n, ")\n");
    return s;
}

/* Publish the state and the record; call with d->mu held. */
static void publish(demo_t *d)
{
    char *s = state_json(d), *g = sgf_text(d);
    if (s)
        web_server_publish_state(d->srv, s);
    web_server_publish_sgf(d->srv, g);
    free(s);
    free(g);
}

static void say(demo_t *d, const char *level, const char *text)
{
    snprintf(d->msglevel, sizeof d->msglevel, "%s", level);
    snprintf(d->message, sizeof d->message, "%s", text);
}

/* ---- actions (from the server thread) ---- */

static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    demo_t *d = user;
    int rc = 0;
    pthread_mutex_lock(&d->mu);
    bool play = strcmp(d->phase, "play") == 0, counting = strcmp(d->phase, "counting") == 0;
    if (strcmp(a->name, "toggle") == 0) {
        int x = a->point[0] - 'a', y = a->point[1] - 'a';
        if (!counting) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else if (x >= d->size || y >= d->size || !d->board[y][x]) {
            snprintf(msg, msglen, "no stone at %s", a->point);
            rc = -1;
        } else {
            bool seen[MAXN][MAXN];
            memset(seen, 0, sizeof seen);
            int pts[MAXN * MAXN][2], libs;
            int n = chain(d, x, y, pts, seen, &libs);
            bool to = !d->dead[y][x];
            for (int i = 0; i < n; i++)
                d->dead[pts[i][1]][pts[i][0]] = to;
            d->accepted[1] = d->accepted[2] = false;
            snprintf(msg, msglen, "%d stone%s at %s marked %s", n, n > 1 ? "s" : "", a->point,
                     to ? "dead" : "alive");
        }
    } else if (strcmp(a->name, "accept") == 0) {
        if (!counting) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else {
            d->accepted[a->color[0] == 'B' ? 1 : 2] = true;
            snprintf(msg, msglen, "%s accepts", a->color[0] == 'B' ? "Black" : "White");
            if (d->accepted[1] && d->accepted[2]) {
                double sb, sw;
                char terr[MAXN][MAXN + 1];
                score(d, &sb, &sw, terr);
                result_text(sb, sw, d->result, sizeof d->result);
                snprintf(d->phase, sizeof d->phase, "over");
                char t[96];
                snprintf(t, sizeof t, "Both players accepted: %s", d->result);
                say(d, "info", t);
            }
        }
    } else if (strcmp(a->name, "resume") == 0 || strcmp(a->name, "reject") == 0) {
        if (!counting) {
            snprintf(msg, msglen, "not counting");
            rc = -1;
        } else {
            snprintf(d->phase, sizeof d->phase, "play");
            memset(d->dead, 0, sizeof d->dead);
            d->accepted[1] = d->accepted[2] = false;
            snprintf(msg, msglen, "play resumes");
        }
    } else if (!play) {
        snprintf(msg, msglen, "the game is not in play");
        rc = -1;
    } else if (strcmp(a->name, "pass") == 0) {
        mv_t m = { d->nplayed && d->played[d->nplayed - 1].color == 'B' ? 'W' : 'B', -1, -1 };
        if (d->nplayed < MAXMOVES)
            d->played[d->nplayed++] = m;
        snprintf(msg, msglen, "%s passes", m.color == 'B' ? "Black" : "White");
    } else if (strcmp(a->name, "undo") == 0) {
        if (!d->nplayed) {
            snprintf(msg, msglen, "nothing to undo");
            rc = -1;
        } else {
            d->nplayed--;
            rebuild(d);
            snprintf(msg, msglen, "move %d taken back", d->nplayed + 1);
        }
    } else if (strcmp(a->name, "end") == 0) {
        snprintf(d->phase, sizeof d->phase, "counting");
        snprintf(msg, msglen, "counting starts");
    } else if (strcmp(a->name, "resign") == 0) {
        char c = a->color ? a->color[0] : 'B';
        snprintf(d->result, sizeof d->result, "%c+R", c == 'B' ? 'W' : 'B');
        snprintf(d->phase, sizeof d->phase, "over");
        snprintf(msg, msglen, "%s resigns", c == 'B' ? "Black" : "White");
    } else {
        snprintf(msg, msglen, "not supported by the demo");
        rc = -1;
    }
    if (rc == 0) {
        if (strcmp(a->name, "toggle") != 0 && strcmp(a->name, "accept") != 0)
            say(d, "info", msg);
        publish(d);
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

static void copy_str(char *dst, size_t n, const char *src)
{
    size_t l = strlen(src);
    if (l >= n)
        l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

/* ---- SGF main line (enough for the demo: root properties, then ;B[] / ;W[]) ---- */

static int load_sgf(demo_t *d, const char *text)
{
    const char *p = strchr(text, '(');
    if (!p)
        return -1;
    p++;
    char ident[8] = "";
    int il = 0;
    bool after_value = false;
    while (*p && *p != ')') {       /* the first ')' ends the main line */
        char ch = *p;
        if (ch >= 'A' && ch <= 'Z') {
            if (after_value)
                il = 0;
            after_value = false;
            if (il < 7) {
                ident[il++] = ch;
                ident[il] = '\0';
            }
            p++;
            continue;
        }
        if (ch == '(' || ch == ';') {   /* follow the first variation */
            il = 0;
            ident[0] = '\0';
            after_value = false;
            p++;
            continue;
        }
        if (ch != '[') {
            p++;
            continue;
        }
        char val[256];
        int vl = 0;
        p++;
        while (*p && *p != ']') {
            if (*p == '\\' && p[1])
                p++;
            if (vl < 255)
                val[vl++] = *p;
            p++;
        }
        val[vl] = '\0';
        if (*p)
            p++;
        after_value = true;
        if (!strcmp(ident, "SZ"))
            d->size = atoi(val);
        else if (!strcmp(ident, "KM"))
            d->komi = atof(val);
        else if (!strcmp(ident, "PB"))
            copy_str(d->pb, sizeof d->pb, val);
        else if (!strcmp(ident, "PW"))
            copy_str(d->pw, sizeof d->pw, val);
        else if (!strcmp(ident, "BR"))
            copy_str(d->br, sizeof d->br, val);
        else if (!strcmp(ident, "WR"))
            copy_str(d->bw, sizeof d->bw, val);
        else if (!strcmp(ident, "RU"))
            copy_str(d->ru, sizeof d->ru, val);
        else if ((!strcmp(ident, "B") || !strcmp(ident, "W")) && d->nrec < MAXMOVES) {
            mv_t m = { ident[0], -1, -1 };
            if (d->size < 2 || d->size > MAXN)
                return -1;
            if (vl == 2 && !(d->size <= 19 && !strcmp(val, "tt"))) {
                m.x = val[0] - 'a';
                m.y = val[1] - 'a';
                if (m.x < 0 || m.y < 0 || m.x >= d->size || m.y >= d->size)
                    return -1;
            }
            d->rec[d->nrec++] = m;
        }
    }
    return d->size >= 2 && d->size <= MAXN ? 0 : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t r;
    while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    s[n] = '\0';
    return s;
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
    int port = 0, interval = 150, maxmoves = -1, start = 0;
    bool count = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sgf") && v) sgf = v, i++;
        else if (!strcmp(a, "--port") && v) port = atoi(v), i++;
        else if (!strcmp(a, "--token") && v) token = v, i++;
        else if (!strcmp(a, "--address") && v) address = v, i++;
        else if (!strcmp(a, "--interval") && v) interval = atoi(v), i++;
        else if (!strcmp(a, "--moves") && v) maxmoves = atoi(v), i++;
        else if (!strcmp(a, "--start") && v) start = atoi(v), i++;
        else if (!strcmp(a, "--no-count")) count = false;
        else {
            fprintf(stderr, "usage: %s [--sgf FILE] [--port N] [--token T] [--interval MS] "
                            "[--moves N] [--start N] [--no-count] [--address A]\n", argv[0]);
            return 2;
        }
    }
    pthread_mutex_init(&d.mu, NULL);
    d.size = 9;
    d.komi = 7.5;
    snprintf(d.pb, sizeof d.pb, "Black");
    snprintf(d.pw, sizeof d.pw, "White");
    snprintf(d.ru, sizeof d.ru, "chinese");
    snprintf(d.phase, sizeof d.phase, "play");
    if (sgf) {
        char *text = read_file(sgf);
        if (!text || load_sgf(&d, text) != 0) {
            fprintf(stderr, "%s: cannot read the game\n", sgf);
            free(text);
            return 2;
        }
        free(text);
    }
    for (char *c = d.ru; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    if (maxmoves >= 0 && maxmoves < d.nrec)
        d.nrec = maxmoves;

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
    for (; d.nplayed < start && d.nplayed < d.nrec; d.nplayed++)
        d.played[d.nplayed] = d.rec[d.nplayed];
    rebuild(&d);
    publish(&d);
    pthread_mutex_unlock(&d.mu);
    printf("READY port=%d token=%s\n", web_server_port(d.srv), web_server_token(d.srv));
    fflush(stdout);

    int next = start;
    bool counted = false;
    while (!g_stop) {
        sleep_ms(interval > 0 ? interval : 1);
        pthread_mutex_lock(&d.mu);
        if (next < d.nrec && strcmp(d.phase, "play") == 0) {
            d.played[d.nplayed++] = d.rec[next++];
            place(&d, &d.played[d.nplayed - 1]);
            d.message[0] = '\0';
            publish(&d);
            printf("MOVE %d\n", d.nplayed);
            fflush(stdout);
        } else if (next >= d.nrec && count && !counted) {
            counted = true;
            snprintf(d.phase, sizeof d.phase, "counting");
            say(&d, "info", "Both players passed: mark the dead stones, then accept");
            publish(&d);
            printf("COUNT\n");
            fflush(stdout);
        }
        pthread_mutex_unlock(&d.mu);
    }
    web_server_destroy(d.srv);
    pthread_mutex_destroy(&d.mu);
    return 0;
}
