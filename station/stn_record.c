/* stn_record.c: the SGF text of a game, its atomic rewrite, and reading it back.
 *
 * Text in and out goes through rules/sgf.h and rules/sgf_game.h (one SGF writer and
 * reader in the project); this file adds the station's per-move C[] and KF[]. The
 * crash-safe rewrite is safeio/sio.h's, the one every written file goes through.
 */
#include "station/stn_record.h"

#include "rules/go_point.h"
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

/* Root properties the writer makes again from the game and the metadata (a resumed
 * record rewrites them; their meaning is kept). Every other root property is kept as
 * read (stn_meta_t.keep_root) unless the writer writes that property itself. */
static const char *const rec_owned[] = { "GM", "FF", "CA", "AP", "SZ", "KM", "RU", "PB",
                                         "PW", "DT", "RE", "AB", "AW", "AE", "KD", NULL };

static int rec_in(const char *const *set, const char *key)
{
    for (int i = 0; set[i]; i++)
        if (!strcmp(set[i], key))
            return 1;
    return 0;
}

static int rec_owned_key(const char *key)
{
    return rec_in(rec_owned, key);
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
    /* a resumed record's other root properties (PC, EV, WR, GN, ...), as read, after
     * those written above (which win: the station's own HA, PL, TM, OT) */
    const sgf_node_t *kr = m->keep_root;
    int nown = c->games[0]->nprops;
    for (int i = 0; kr && i < kr->nprops && rc == GO_OK; i++) {
        const sgf_prop_t *pr = &kr->props[i];
        int written = 0;
        for (int j = 0; j < nown && !written; j++)
            written = !strcmp(c->games[0]->props[j].key, pr->key);
        if (!written && !rec_owned_key(pr->key))
            rc = sgf_node_add(c, c->games[0], pr->key, (const char *const *)pr->values,
                              pr->nvalues);
    }
    /* the agreed count's dead stones beside its RE[] (KD, see stn_meta_t.dead) */
    if (rc == GO_OK && h.result && m->ndead > 0) {
        const char **v = malloc((size_t)m->ndead * sizeof *v);
        char (*pts)[3] = malloc((size_t)m->ndead * sizeof *pts);
        if (v && pts) {
            for (int i = 0; i < m->ndead; i++) {
                go_point_to_sgf(m->dead[i], pts[i]);
                v[i] = pts[i];
            }
            rc = sgf_node_add(c, c->games[0], "KD", v, m->ndead);
        } else {
            rc = GO_ENOMEM;
        }
        free(v);
        free(pts);
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
    sgf_collection_destroy(l->keep);
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

/* ---- what a resume keeps ---- */

/* The properties of a move node the station reads back and writes again; the root's
 * are rec_owned (rewritten) and the rest (kept as read). */
static const char *const rec_move_keys[] = { "B", "W", "C", "KF", "BL", "WL", "OB", "OW",
                                             NULL };

static int rec_why(char *why, size_t n, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int rec_why(char *why, size_t n, int code, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* KM as read is the komi the writer writes again (a multiple of 0.5, or the old Chinese
 * hundredths, sgf_parse_komi): 1, else 0 (it would be rounded). */
static int rec_komi_exact(const char *v, int komi2)
{
    char *end = NULL;
    errno = 0;
    double k = strtod(v, &end);
    while (end && (*end == ' ' || *end == '\t'))
        end++;
    if (end == v || !end || *end || errno == ERANGE || k != k)
        return 0;
    if (k >= 100)
        return 1;   /* "375": hundredths of a stone (sgf_parse_komi) */
    return k * 2 == (double)komi2;
}

/* Everything of the collection a resumed record would rewrite must be something it
 * keeps: one game, its main line only, move nodes holding only what the station writes
 * back, root values that fit. Returns 0, or STN_EKEEP with the reason in why. */
static int rec_check_keep(const sgf_collection_t *c, char *why, size_t whylen)
{
    if (c->ngames != 1)
        return rec_why(why, whylen, STN_EKEEP, "the file holds %d games: only a file with one "
                       "game can be resumed", c->ngames);
    const sgf_node_t *root = c->games[0];
    for (const sgf_node_t *nd = root; nd; nd = nd->child) {
        if (nd->child && nd->child->sibling)
            return rec_why(why, whylen, STN_EKEEP, "line %d: a variation: only a record "
                           "without variations can be resumed", nd->child->sibling->line);
        int moves = 0;
        for (int i = 0; i < nd->nprops; i++) {
            const sgf_prop_t *pr = &nd->props[i];
            int is_move = !strcmp(pr->key, "B") || !strcmp(pr->key, "W");
            moves += is_move;
            if (nd == root) {
                if (is_move)
                    return rec_why(why, whylen, STN_EKEEP, "line %d: a move in the root node",
                                   nd->line);
                for (int k = 0; k < pr->nvalues; k++)
                    if (strlen(pr->values[k]) != pr->lens[k])
                        return rec_why(why, whylen, STN_EKEEP, "line %d: %s[] holds a NUL byte",
                                       nd->line, pr->key);
                continue;
            }
            if (!rec_in(rec_move_keys, pr->key))
                return rec_why(why, whylen, STN_EKEEP, "line %d: %s[] in a move node: a "
                               "resumed record would not keep it", nd->line, pr->key);
            if (pr->nvalues != 1 || strlen(pr->values[0]) != pr->lens[0])
                return rec_why(why, whylen, STN_EKEEP, "line %d: %s[] with %d values",
                               nd->line, pr->key, pr->nvalues);
        }
        if (nd != root && nd->nprops > 0 && moves != 1)
            return rec_why(why, whylen, STN_EKEEP, "line %d: a node %s: a resumed record "
                           "keeps one move per node", nd->line,
                           moves ? "with two moves" : "without a move");
    }
    static const struct {
        const char *key;
        size_t max;
    } fits[] = { { "PB", STN_NAME_MAX }, { "PW", STN_NAME_MAX }, { "DT", 32 }, { "RE", 32 } };
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
        const char *v = sgf_node_value(root, fits[i].key);
        if (v && strlen(v) >= fits[i].max)
            return rec_why(why, whylen, STN_EKEEP, "%s[] is longer than %zu bytes",
                           fits[i].key, fits[i].max - 1);
    }
    return GO_OK;
}

int stn_record_parse(const char *text, size_t len, const char *rules_fallback,
                     stn_loaded_t *out, char *why, size_t whylen)
{
    sgf_collection_t *c = NULL;
    sgf_replay_t r;
    memset(&r, 0, sizeof r);
    stn_loaded_t l;
    memset(&l, 0, sizeof l);
    stn_meta_init(&l.meta);
    if (why && whylen)
        why[0] = '\0';
    sgf_error_t se;
    int rc = sgf_parse(text, len, NULL, &c, &se);
    if (rc != GO_OK) {
        if (rc == GO_ENOMEM)
            return rec_why(why, whylen, rc, "out of memory");
        return rec_why(why, whylen, GO_EPARSE, "%d:%d: %s", se.line, se.col,
                       se.msg[0] ? se.msg : sgf_strerror(rc));
    }
    if ((rc = rec_check_keep(c, why, whylen)) != GO_OK)
        goto fail;
    const sgf_node_t *root = c->games[0];
    go_rules_t fb;
    sgf_replay_opts_t opts = { NULL, false };
    const char *ru = sgf_node_value(root, "RU");
    if (!ru && rules_fallback && go_rules_preset(rules_fallback, &fb) == GO_OK)
        opts.rules = &fb;
    if ((rc = sgf_replay(root, &opts, &r, &se)) != GO_OK) {
        rec_why(why, whylen, rc, "%d:%d: %s", se.line, se.col,
                se.msg[0] ? se.msg : sgf_strerror(rc));
        rc = rc == GO_ENOMEM ? rc : GO_EINVAL;
        goto fail;
    }
    if (ru && !r.rules_from_sgf) {
        rc = rec_why(why, whylen, STN_EKEEP, "RU[%s]: rules not known", ru);
        goto fail;
    }
    const char *km = sgf_node_value(root, "KM");
    if (km && (!r.komi_given || !rec_komi_exact(km, r.komi2))) {
        rc = rec_why(why, whylen, STN_EKEEP, "KM[%s]: not a komi the record can keep", km);
        goto fail;
    }
    /* a move a strict game refuses (a suicide, onto a stone, a ko) is no game to go on
     * with; a move out of turn the station records itself (two moves in a row) */
    for (int i = 0; i < r.nillegal; i++) {
        const sgf_illegal_t *m = &r.illegal[i];
        if (m->reason == GO_ETURN)
            continue;
        char pt[4];
        go_point_human(r.size, m->point, pt);
        rc = rec_why(why, whylen, STN_EILLEGAL, "line %d: move %d (%c %s): %s", m->line,
                     m->move, m->color == GO_BLACK ? 'B' : 'W',
                     m->point == GO_PASS ? "pass" : pt, go_strerror(m->reason));
        goto fail;
    }
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
    {   /* KD: the agreed count's dead stones, written back as read (stones only) */
        const sgf_prop_t *kd = sgf_node_find(root, "KD");
        const go_board_t *fb = go_game_board(l.game);
        for (int k = 0; kd && k < kd->nvalues; k++) {
            int p = go_point_from_sgf(fb->size, kd->values[k], kd->lens[k]);
            if (p <= 0 || (fb->color[p] != GO_BLACK && fb->color[p] != GO_WHITE)
                || l.meta.ndead >= (int)(sizeof l.meta.dead / sizeof l.meta.dead[0])) {
                rc = rec_why(why, whylen, STN_EKEEP, "KD[%.8s]: not a stone of the final "
                             "position", kd->values[k]);
                goto fail;
            }
            l.meta.dead[l.meta.ndead++] = (go_point_t)p;
        }
    }
    if ((rc = rec_setup(l.game, &l.meta)) != GO_OK) {
        rec_why(why, whylen, rc, "%s", go_strerror(rc));
        goto fail;
    }
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
        rc = rec_why(why, whylen, GO_ENOMEM, "out of memory");
        goto fail;
    }
    /* Per move node (B or W): its comment and when it was seen; a value the station
     * would not write again as read (a KF[] or BL[] it cannot parse) refuses the file. */
    int i = 0;
    for (const sgf_node_t *nd = root; nd && i < n; nd = nd->child) {
        if (!sgf_node_find(nd, "B") && !sgf_node_find(nd, "W"))
            continue;
        if ((v = sgf_node_value(nd, "C")) && !(l.comments[i] = strdup(v))) {
            rc = rec_why(why, whylen, GO_ENOMEM, "out of memory");
            goto fail;
        }
        unsigned long long f = 0;
        double t = 0, th = 0;
        if ((v = sgf_node_value(nd, "KF"))) {
            if (!rec_kf(v, &f, &t, &th)) {
                rc = rec_why(why, whylen, STN_EKEEP, "line %d: KF[%.40s]: not frame:time:time",
                             nd->line, v);
                goto fail;
            }
            l.frames[i] = f;
            l.times[i] = t;
            l.hand_times[i] = th;
        }
        int black = sgf_node_find(nd, "B") != NULL, ob = 0;
        double left = 0;
        l.periods_left[i] = -2;
        const char *lk = black ? "BL" : "WL", *ok = black ? "OB" : "OW";
        if (sgf_node_find(nd, black ? "WL" : "BL") || sgf_node_find(nd, black ? "OW" : "OB")) {
            rc = rec_why(why, whylen, STN_EKEEP, "line %d: the other side's time on a move",
                         nd->line);
            goto fail;
        }
        if ((v = sgf_node_value(nd, lk))) {
            if (!rec_num(&v, '\0', &left) || left < 0) {
                rc = rec_why(why, whylen, STN_EKEEP, "line %d: %s[%.40s]: not a time left",
                             nd->line, lk, v);
                goto fail;
            }
            l.time_left[i] = left;
            l.periods_left[i] = -1;
        }
        if ((v = sgf_node_value(nd, ok))) {
            if (l.periods_left[i] == -2 || !rec_count(v, &ob)) {
                rc = rec_why(why, whylen, STN_EKEEP, "line %d: %s[%.40s]: not periods left "
                             "beside a time left", nd->line, ok, v);
                goto fail;
            }
            l.periods_left[i] = ob;
        }
        i++;
    }
    sgf_replay_fini(&r);
    l.keep = c;                  /* the root's other properties, written back as read */
    l.meta.keep_root = c->games[0];
    *out = l;
    return GO_OK;
fail:
    sgf_replay_fini(&r);
    sgf_collection_destroy(c);
    stn_loaded_fini(&l);
    return rc;
}

int stn_record_load(const char *path, const char *rules_fallback, stn_loaded_t *out,
                    char *why, size_t whylen)
{
    char *text = NULL;
    size_t len = 0;
    sgf_error_t se;
    int rc = sgf_read_file(path, NULL, &text, &len, &se);
    if (rc != GO_OK)
        return rec_why(why, whylen, rc == GO_ENOMEM ? GO_ENOMEM : GO_EIO, "%s",
                       se.msg[0] ? se.msg : sgf_strerror(rc));
    rc = stn_record_parse(text, len, rules_fallback, out, why, whylen);
    free(text);
    return rc;
}
