/* stn_record.c: the SGF text of a game, its atomic rewrite, and reading it back.
 *
 * Text in and out goes through rules/sgf.h and rules/sgf_game.h (one SGF writer and
 * reader in the project); this file adds the station's per-move C[] and KF[]. The
 * crash-safe rewrite is safeio/sio.h's, the one every written file goes through.
 */
#include "station/stn_record.h"

#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "safeio/sio.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a growable string ---- */

typedef struct rec_buf {
    char *s;
    size_t n, cap;
    int err;
} rec_buf_t;

static void rec_put(rec_buf_t *b, const char *s, size_t n)
{
    if (b->err)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->err = 1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

/* ---- metadata ---- */

void stn_meta_init(stn_meta_t *m)
{
    memset(m, 0, sizeof *m);
    m->first = GO_BLACK;
}

void stn_meta_setup_from(stn_meta_t *m, const go_game_t *g)
{
    const go_board_t *b = go_game_board(g);
    m->nab = m->naw = 0;
    for (int y = 0; y < b->size; y++) {
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            if (b->color[p] == GO_BLACK)
                m->ab[m->nab++] = (go_point_t)p;
            else if (b->color[p] == GO_WHITE)
                m->aw[m->naw++] = (go_point_t)p;
        }
    }
    m->first = go_game_turn(g);
}

/* The initial position of the record (setup stones), on a board. */
static void rec_initial(const stn_meta_t *m, int size, go_board_t *b)
{
    go_board_init(b, size);
    for (int i = 0; i < m->nab; i++)
        go_board_set(b, m->ab[i], GO_BLACK);
    for (int i = 0; i < m->naw; i++)
        go_board_set(b, m->aw[i], GO_WHITE);
}

/* The SGF text, through rules/sgf_game.h's writer, with the station's per-move C[] and
 * KF[] added to the move nodes. */
static int rec_sgf_text(const go_game_t *g, const stn_meta_t *m, const stn_track_t *k,
                        char **text)
{
    go_board_t *init = malloc(sizeof *init);
    if (!init)
        return GO_ENOMEM;
    rec_initial(m, go_game_board(g)->size, init);
    sgf_header_t h;
    memset(&h, 0, sizeof h);
    h.black = m->black[0] ? m->black : NULL;
    h.white = m->white[0] ? m->white : NULL;
    h.date = m->date[0] ? m->date : NULL;
    h.result = m->result[0] && go_game_resigned(g) == GO_EMPTY ? m->result : NULL;
    h.komi2 = m->komi2;
    h.has_komi = true;
    h.initial = m->nab || m->naw ? init : NULL;
    sgf_collection_t *c = NULL;
    int rc = sgf_from_game(g, &h, &c);
    free(init);
    if (rc != GO_OK)
        return rc;
    if (m->tm[0]) {
        const char *v[1] = { m->tm };
        rc = sgf_node_add(c, c->games[0], "TM", v, 1);
        if (rc == GO_OK && m->ot[0]) {
            v[0] = m->ot;
            rc = sgf_node_add(c, c->games[0], "OT", v, 1);
        }
    }
    sgf_node_t *node = c->games[0]->child;
    int n = go_game_move_count(g);
    for (int i = 0; i < n && node && rc == GO_OK; i++) {
        if (go_game_move(g, i)->kind == GO_MOVE_RESIGN)
            break;
        const stn_move_info_t *in = k ? stn_track_info(k, i) : NULL;
        if (in && in->frame) {
            char kf[96];
            snprintf(kf, sizeof kf, "%llu:%.3f:%.3f", (unsigned long long)in->frame, in->t,
                     in->t_hand);
            const char *v[1] = { kf };
            rc = sgf_node_add(c, node, "KF", v, 1);
        }
        if (rc == GO_OK && in && in->has_time) {
            const go_move_t *mv = go_game_move(g, i);
            char lv[32], ov[16];
            snprintf(lv, sizeof lv, "%.1f", in->time_left);
            const char *v[1] = { lv };
            rc = sgf_node_add(c, node, mv->color == GO_BLACK ? "BL" : "WL", v, 1);
            if (rc == GO_OK && in->periods_left >= 0) {
                snprintf(ov, sizeof ov, "%d", in->periods_left);
                v[0] = ov;
                rc = sgf_node_add(c, node, mv->color == GO_BLACK ? "OB" : "OW", v, 1);
            }
        }
        if (rc == GO_OK && in && in->comment) {
            const char *v[1] = { in->comment };
            rc = sgf_node_add(c, node, "C", v, 1);
        }
        node = node->child;
    }
    size_t len;
    if (rc == GO_OK)
        rc = sgf_write(c, text, &len);
    sgf_collection_destroy(c);
    return rc;
}

int stn_record_sgf(const go_game_t *g, const stn_meta_t *m, const stn_track_t *k,
                   char **text)
{
    return rec_sgf_text(g, m, k, text);
}

/* ---- the atomic rewrite ---- */

int stn_record_write_atomic(const char *path, const char *text, size_t len, int *sys_errno)
{
    int sys = 0;
    int rc = sio_write_atomic(path, text, len, &sys);
    if (rc == SIO_OK)
        return GO_OK;
    if (sys_errno)
        *sys_errno = sys ? sys : EIO;
    return GO_EIO;
}

/* ---- reading back ---- */

void stn_loaded_fini(stn_loaded_t *l)
{
    if (!l)
        return;
    go_game_destroy(l->game);
    for (int i = 0; l->comments && i < l->nmoves; i++)
        free(l->comments[i]);
    free(l->comments);
    free(l->frames);
    free(l->times);
    free(l->hand_times);
    free(l->time_left);
    free(l->periods_left);
    memset(l, 0, sizeof *l);
}

/* A number at *s up to the character stop (a field separator or the end): 1 and *s past
 * it when it is there whole, finite and in range, else 0. */
static int rec_num(const char **s, char stop, double *out)
{
    char *end = NULL;
    errno = 0;
    double d = strtod(*s, &end);
    if (end == *s || *end != stop || errno == ERANGE || d != d || d > 1e300 || d < -1e300)
        return 0;
    *out = d;
    *s = stop ? end + 1 : end;
    return 1;
}

/* An unsigned integer at *s up to the character stop, as rec_num. */
static int rec_unum(const char **s, char stop, unsigned long long *out)
{
    char *end = NULL;
    if (**s < '0' || **s > '9')   /* strtoull would take a sign or spaces */
        return 0;
    errno = 0;
    unsigned long long u = strtoull(*s, &end, 10);
    if (end == *s || *end != stop || errno == ERANGE)
        return 0;
    *out = u;
    *s = stop ? end + 1 : end;
    return 1;
}

/* KF[frame:t:t_hand] of a move node: 1 and the three values when it is well formed. */
static int rec_kf(const char *v, unsigned long long *f, double *t, double *th)
{
    return rec_unum(&v, ':', f) && rec_num(&v, ':', t) && rec_num(&v, '\0', th);
}

/* A non-negative integer value (OB/OW periods left): 1 and the value, else 0. */
static int rec_count(const char *v, int *out)
{
    char *end = NULL;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || n < 0 || n > 1000000)
        return 0;
    *out = (int)n;
    return 1;
}

/* The setup of the replayed game: undo every move, note the stones, replay the moves. */
static int rec_setup(go_game_t *g, stn_meta_t *m)
{
    int n = go_game_move_count(g), rc = GO_OK;
    go_move_t *mv = malloc((size_t)(n ? n : 1) * sizeof *mv);
    if (!mv)
        return GO_ENOMEM;
    for (int i = 0; i < n; i++)
        mv[i] = *go_game_move(g, i);
    while (go_game_move_count(g) > 0 && go_game_undo(g) == GO_OK)
        ;
    stn_meta_setup_from(m, g);
    for (int i = 0; i < n && rc == GO_OK; i++) {
        if (mv[i].kind == GO_MOVE_PASS)
            rc = go_game_pass(g, mv[i].color, true);
        else if (mv[i].kind == GO_MOVE_RESIGN)
            rc = go_game_resign(g, mv[i].color);
        else
            rc = go_game_play_tolerant(g, mv[i].color, mv[i].point, NULL);
    }
    free(mv);
    return rc;
}

int stn_record_parse(const char *text, size_t len, const char *rules_fallback,
                     stn_loaded_t *out)
{
    sgf_collection_t *c = NULL;
    sgf_replay_t r;
    memset(&r, 0, sizeof r);
    stn_loaded_t l;
    memset(&l, 0, sizeof l);
    stn_meta_init(&l.meta);
    int rc = sgf_parse(text, len, NULL, &c, NULL);
    if (rc != GO_OK)
        return rc == GO_ENOMEM ? rc : GO_EPARSE;
    const sgf_node_t *root = c->games[0];
    go_rules_t fb;
    sgf_replay_opts_t opts = { NULL, false };
    if (!sgf_node_value(root, "RU") && rules_fallback &&
        go_rules_preset(rules_fallback, &fb) == GO_OK)
        opts.rules = &fb;
    if ((rc = sgf_replay(root, &opts, &r, NULL)) != GO_OK)
        goto fail;
    l.game = r.game;
    r.game = NULL;
    l.meta.komi2 = r.komi2;
    l.meta.handicap = r.handicap;
    const char *v;
    if ((v = sgf_node_value(root, "PB")))
        snprintf(l.meta.black, sizeof l.meta.black, "%s", v);
    if ((v = sgf_node_value(root, "PW")))
        snprintf(l.meta.white, sizeof l.meta.white, "%s", v);
    if ((v = sgf_node_value(root, "DT")))
        snprintf(l.meta.date, sizeof l.meta.date, "%s", v);
    if ((v = sgf_node_value(root, "RE")))
        snprintf(l.meta.result, sizeof l.meta.result, "%s", v);
    if ((rc = rec_setup(l.game, &l.meta)) != GO_OK)
        goto fail;
    int n = go_game_move_count(l.game);
    l.nmoves = n;
    int cap = n ? n : 1;
    l.comments = calloc((size_t)cap, sizeof *l.comments);
    l.frames = calloc((size_t)cap, sizeof *l.frames);
    l.times = calloc((size_t)cap, sizeof *l.times);
    l.hand_times = calloc((size_t)cap, sizeof *l.hand_times);
    l.time_left = calloc((size_t)cap, sizeof *l.time_left);
    l.periods_left = calloc((size_t)cap, sizeof *l.periods_left);
    if (!l.comments || !l.frames || !l.times || !l.hand_times || !l.time_left ||
        !l.periods_left) {
        rc = GO_ENOMEM;
        goto fail;
    }
    /* Per move node (B or W): its comment and when it was seen. */
    int i = 0;
    for (const sgf_node_t *nd = root; nd && i < n; nd = nd->child) {
        if (!sgf_node_find(nd, "B") && !sgf_node_find(nd, "W"))
            continue;
        if ((v = sgf_node_value(nd, "C")) && !(l.comments[i] = strdup(v))) {
            rc = GO_ENOMEM;
            goto fail;
        }
        unsigned long long f = 0;
        double t = 0, th = 0;
        if ((v = sgf_node_value(nd, "KF")) && rec_kf(v, &f, &t, &th)) {
            l.frames[i] = f;
            l.times[i] = t;
            l.hand_times[i] = th;
        }
        int black = sgf_node_find(nd, "B") != NULL, ob = 0;
        double left = 0;
        l.periods_left[i] = -2;
        if ((v = sgf_node_value(nd, black ? "BL" : "WL")) && rec_num(&v, '\0', &left) &&
            left >= 0) {
            l.time_left[i] = left;
            l.periods_left[i] = -1;
            if ((v = sgf_node_value(nd, black ? "OB" : "OW")) && rec_count(v, &ob) &&
                ob >= 0)
                l.periods_left[i] = ob;
        }
        i++;
    }
    sgf_replay_fini(&r);
    sgf_collection_destroy(c);
    *out = l;
    return GO_OK;
fail:
    sgf_replay_fini(&r);
    sgf_collection_destroy(c);
    stn_loaded_fini(&l);
    return rc;
}

int stn_record_load(const char *path, const char *rules_fallback, stn_loaded_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return GO_EIO;
    rec_buf_t b = { 0 };
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
        rec_put(&b, chunk, r);
    int bad = ferror(f);
    fclose(f);
    if (b.err || bad) {
        free(b.s);
        return b.err ? GO_ENOMEM : GO_EIO;
    }
    int rc = stn_record_parse(b.s ? b.s : "", b.n, rules_fallback, out);
    free(b.s);
    return rc;
}
