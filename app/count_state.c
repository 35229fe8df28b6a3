/* count_state.c: one photo's count as people settle it (see count_state.h): the reading,
 * the fixes, the marking and the prisoners, counted again after every change; and the
 * count as `count` prints it and as an SGF record.
 *
 * Invariants: st->board, st->left and, unless pending, st->sess and st->score always come
 * from the current reading, fixes and parameters (recount() is the only place that makes
 * them); st->mask / st->mask_board are the marking of the last count made and the
 * position it was made on, which the next count carries over (count_state.h); a change
 * that fails leaves every field as it was (the new parts are built aside, then swapped).
 */
#include "app/count_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

struct count_state {
    const char *cmd;                /* the command's name, for photo_read's messages */
    photo_t ph;                     /* the photo as read (owned) */
    photo_opts_t popts;             /* how it was read (strings the caller's) */
    char corners_text[160];         /* the corners of the last count_state_corners, or "" */
    count_params_t par;
    go_reading_t rd;                /* the photo's reading */
    go_fixes_t fx;                  /* the fixes in force */
    go_dead_spec_t dead;            /* the marking asked for (--dead) */
    bool marked;                    /* someone toggled a group */
    int dead_bad;                   /* the --dead call that did not fit, or -1 */
    bool pending;                   /* unsure points left: no count */
    go_point_t left[GO_MAX_POINTS]; /* the unsure points left (refused or emptied) */
    int nleft;
    go_board_t board;               /* the position counted (pending: unsure as empty) */
    go_session_t *sess;             /* NULL when pending */
    go_score_t score;               /* valid unless pending */
    bool have_mask;                 /* a count was made: mask and mask_board hold */
    uint8_t mask[GO_CELLS];         /* its dead stones */
    go_board_t mask_board;          /* its position */
    bool done;                      /* accepted */
};

const char *count_strerror(int code)
{
    switch (code) {
    case COUNT_OK: return "success";
    case COUNT_EINVAL: return "invalid argument";
    case COUNT_ENOMEM: return "out of memory";
    case COUNT_EPENDING: return "points the reader was unsure of are left: fix them first";
    case COUNT_ENOSTONE: return "no stone there";
    case COUNT_EREAD: return "the photo cannot be read with these corners";
    case COUNT_EIO: return "the record cannot be written";
    case COUNT_EDONE: return "the count was accepted already";
    default: return "unknown error";
    }
}

void count_params_defaults(count_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    go_rules_preset("chinese", &p->rules);
    p->komi2 = go_rules_komi2(&p->rules, 0);
    p->handicap = 0;
    p->prisoners_given = false;
    p->unsure = GO_UNSURE_REFUSE;
}

/* p is a point of a size x size board. */
static bool on_board(int size, int p)
{
    return p > 0 && p < GO_CELLS && GO_X(p) >= 0 && GO_X(p) < size && GO_Y(p) >= 0 &&
           GO_Y(p) < size;
}

/* The reading of the photo as rules/ wants it. */
static void reading_from(const photo_t *ph, go_reading_t *r)
{
    int S = ph->geom.size;
    memset(r, 0, sizeof *r);
    r->size = S;
    for (int k = 0; k < S * S; k++) {
        r->color[k] = ph->snap.color[k];   /* go_color_t both: vision writes only 0..2 */
        r->unsure[k] = (uint8_t)photo_unsure(ph, k);
    }
}

/* The marking carried from the last count onto board b (count_state.h): a stone that
 * kept its colour keeps its mark; a chain holding a dead stone is dead whole. */
static void carry_mask(const count_state_t *st, const go_board_t *b, uint8_t *out)
{
    memset(out, 0, GO_CELLS);
    int S = b->size;
    if (!st->have_mask || st->mask_board.size != S)
        return;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int p = GO_PT(x, y);
            if (st->mask[p] && b->color[p] != GO_EMPTY && b->color[p] == st->mask_board.color[p])
                out[b->chain[p]] = 1;       /* the chain's head stands for the chain */
        }
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int p = GO_PT(x, y);
            if (b->color[p] != GO_EMPTY && out[b->chain[p]])
                out[p] = 2;
        }
    for (int p = 0; p < GO_CELLS; p++)
        out[p] = out[p] == 2;
}

static bool same_position(const go_board_t *a, const go_board_t *b)
{
    if (a->size != b->size)
        return false;
    for (int y = 0; y < a->size; y++)
        for (int x = 0; x < a->size; x++)
            if (a->color[GO_PT(x, y)] != b->color[GO_PT(x, y)])
                return false;
    return true;
}

/* Count the current reading, fixes and parameters into st (the only place that makes
 * board, left, sess and score). On COUNT_ENOMEM st is unchanged. */
static int recount(count_state_t *st)
{
    go_board_t *nb = malloc(sizeof *nb);
    go_point_t *left = malloc(GO_MAX_POINTS * sizeof *left);
    uint8_t *carried = malloc(GO_CELLS);
    go_score_t *sc = malloc(sizeof *sc);
    go_session_t *sess = NULL;
    int nleft = 0, rc = COUNT_ENOMEM, bad = -1;
    if (!nb || !left || !carried || !sc)
        goto out;
    int src = go_reading_settle(&st->rd, &st->fx, st->par.unsure, nb, left, &nleft);
    if (src == GO_EUNSURE) {
        /* no count: the board as read, the unsure points empty, for the pictures */
        int n2 = 0;
        go_point_t *l2 = malloc(GO_MAX_POINTS * sizeof *l2);
        if (!l2)
            goto out;
        src = go_reading_settle(&st->rd, &st->fx, GO_UNSURE_EMPTY, nb, l2, &n2);
        free(l2);
        if (src != GO_OK) {
            rc = src == GO_ENOMEM ? COUNT_ENOMEM : COUNT_EINVAL;
            goto out;
        }
        go_session_destroy(st->sess);
        st->sess = NULL;
        st->pending = true;
        st->board = *nb;
        memcpy(st->left, left, (size_t)nleft * sizeof *left);
        st->nleft = nleft;
        rc = COUNT_OK;
        goto out;
    }
    if (src != GO_OK) {
        rc = src == GO_ENOMEM ? COUNT_ENOMEM : COUNT_EINVAL;
        goto out;
    }
    go_score_params_t sp;
    memset(&sp, 0, sizeof sp);
    sp.komi2 = st->par.komi2;
    sp.handicap = st->par.handicap;
    sp.captures[GO_BLACK] = st->par.captures[GO_BLACK];
    sp.captures[GO_WHITE] = st->par.captures[GO_WHITE];
    sess = go_session_create(nb, &st->par.rules, &sp);
    if (!sess)
        goto out;
    bool moved = !st->have_mask || !same_position(&st->mask_board, nb);
    if (!st->have_mask || (moved && !st->marked && st->dead.mode == GO_DEAD_AUTO)) {
        /* the marking asked for, on this position (the first count, or a new proposal) */
        int drc = go_session_apply_dead(sess, &st->dead, &bad);
        if (drc == GO_ENOMEM)
            goto out;
        if (drc != GO_EINVAL)
            bad = -1;
    } else {
        carry_mask(st, nb, carried);
        if (go_session_set_dead(sess, carried) != GO_OK)
            goto out;
        bad = st->dead_bad;
    }
    if (go_session_score(sess, sc) != GO_OK) {
        rc = COUNT_EINVAL;
        goto out;
    }
    go_session_destroy(st->sess);
    st->sess = sess;
    sess = NULL;
    st->pending = false;
    st->board = *nb;
    st->score = *sc;
    memcpy(st->left, left, (size_t)nleft * sizeof *left);
    st->nleft = nleft;
    st->dead_bad = bad;
    st->have_mask = true;
    memcpy(st->mask, go_session_dead(st->sess), GO_CELLS);
    st->mask_board = *nb;
    rc = COUNT_OK;
out:
    go_session_destroy(sess);
    free(sc);
    free(carried);
    free(left);
    free(nb);
    return rc;
}

int count_state_create(const char *cmd, photo_t *ph, const photo_opts_t *popts,
                       const count_params_t *par, const go_fixes_t *fx,
                       const go_dead_spec_t *dead, count_state_t **out)
{
    if (!cmd || !ph || !popts || !par || !out)
        return COUNT_EINVAL;
    int S = ph->geom.size;
    if (S < GO_MIN_SIZE || S > GO_MAX_SIZE)
        return COUNT_EINVAL;
    for (int i = 0; fx && i < fx->n; i++)
        if (!on_board(S, fx->fix[i].point))
            return COUNT_EINVAL;
    count_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return COUNT_ENOMEM;
    st->cmd = cmd;
    st->ph = *ph;
    st->popts = *popts;
    st->popts.debug = NULL;     /* the pictures of the first reading only */
    st->par = *par;
    if (fx)
        st->fx = *fx;
    st->dead.mode = GO_DEAD_AUTO;
    if (dead)
        st->dead = *dead;
    st->dead_bad = -1;
    reading_from(&st->ph, &st->rd);
    int rc = recount(st);
    if (rc) {
        free(st);
        return rc;
    }
    memset(ph, 0, sizeof *ph);
    *out = st;
    return COUNT_OK;
}

void count_state_destroy(count_state_t *st)
{
    if (!st)
        return;
    go_session_destroy(st->sess);
    photo_free(&st->ph);
    free(st);
}

/* The colour point p shows now: its fix, else the reading's (GO_OFF: unsure, unsettled). */
static int shown_colour(const count_state_t *st, int p)
{
    for (int i = st->fx.n - 1; i >= 0; i--)
        if (st->fx.fix[i].point == p)
            return st->fx.fix[i].color;
    int k = GO_Y(p) * st->rd.size + GO_X(p);
    if (st->rd.unsure[k])
        return st->par.unsure == GO_UNSURE_EMPTY ? GO_EMPTY : GO_OFF;
    return st->rd.color[k];
}

int count_state_fix(count_state_t *st, int p, int c, go_color_t *now)
{
    if (!st || (c != COUNT_CYCLE && c != GO_EMPTY && c != GO_BLACK && c != GO_WHITE))
        return COUNT_EINVAL;
    if (st->done)
        return COUNT_EDONE;
    if (!on_board(st->rd.size, p))
        return COUNT_EINVAL;
    if (c == COUNT_CYCLE) {
        int cur = shown_colour(st, p);
        c = cur == GO_EMPTY ? GO_BLACK : cur == GO_BLACK ? GO_WHITE : GO_EMPTY;
    }
    go_fixes_t *keep = malloc(sizeof *keep);
    if (!keep)
        return COUNT_ENOMEM;
    *keep = st->fx;
    /* one fix per point, the latest; none where the fix says what a sure reading says */
    int n = 0, k = GO_Y(p) * st->rd.size + GO_X(p);
    for (int i = 0; i < st->fx.n; i++)
        if (st->fx.fix[i].point != p)
            st->fx.fix[n++] = st->fx.fix[i];
    if (st->rd.unsure[k] || st->rd.color[k] != c) {
        memset(&st->fx.fix[n], 0, sizeof st->fx.fix[n]);
        st->fx.fix[n].point = (go_point_t)p;
        st->fx.fix[n].color = (go_color_t)c;
        n++;
    }
    st->fx.n = n;
    int rc = recount(st);
    if (rc)
        st->fx = *keep;
    free(keep);
    if (!rc && now)
        *now = (go_color_t)c;
    return rc;
}

int count_state_toggle(count_state_t *st, int p)
{
    if (!st)
        return COUNT_EINVAL;
    if (st->done)
        return COUNT_EDONE;
    if (!on_board(st->rd.size, p))
        return COUNT_EINVAL;
    if (st->pending)
        return COUNT_EPENDING;
    if (st->board.color[p] != GO_BLACK && st->board.color[p] != GO_WHITE)
        return COUNT_ENOSTONE;
    go_score_t *sc = malloc(sizeof *sc);
    if (!sc)
        return COUNT_ENOMEM;
    int n = go_session_toggle(st->sess, p, GO_EMPTY);
    if (n <= 0 || go_session_score(st->sess, sc) != GO_OK) {
        /* cannot happen on a stone; put the marking back as it was */
        go_session_set_dead(st->sess, st->mask);
        free(sc);
        return n <= 0 ? COUNT_ENOSTONE : COUNT_EINVAL;
    }
    st->score = *sc;
    free(sc);
    st->marked = true;
    memcpy(st->mask, go_session_dead(st->sess), GO_CELLS);
    return n;
}

int count_state_corners(count_state_t *st, const double corners[4][2])
{
    return count_state_corners_size(st, corners, 0);
}

int count_state_corners_size(count_state_t *st, const double corners[4][2], int size)
{
    if (!st || !corners || (size && size != 9 && size != 13 && size != 19))
        return COUNT_EINVAL;
    if (st->done)
        return COUNT_EDONE;
    char text[sizeof st->corners_text];
    int len = snprintf(text, sizeof text, "%.2f,%.2f;%.2f,%.2f;%.2f,%.2f;%.2f,%.2f",
                       corners[0][0], corners[0][1], corners[1][0], corners[1][1],
                       corners[2][0], corners[2][1], corners[3][0], corners[3][1]);
    if (len < 0 || (size_t)len >= sizeof text)
        return COUNT_EINVAL;    /* not numbers an image has */
    photo_opts_t o = st->popts;
    o.corners = text;
    /* the board counted (the fixes name its points), or the size asked */
    o.size = size ? size : st->ph.geom.size;
    bool resized = o.size != st->ph.geom.size;
    photo_t nph;
    if (photo_read(st->cmd, &o, &nph)) {
        photo_free(&nph);
        return COUNT_EREAD;
    }
    if (nph.geom.size != o.size) {
        photo_free(&nph);
        return COUNT_EREAD;
    }
    count_state_t *keep = malloc(sizeof *keep); /* a failed change leaves st as it was */
    if (!keep) {
        photo_free(&nph);
        return COUNT_ENOMEM;
    }
    *keep = *st;
    if (resized) { /* a new board: its own proposal, nothing of the old board's */
        memset(&st->fx, 0, sizeof st->fx);
        memset(&st->dead, 0, sizeof st->dead);
        st->dead.mode = GO_DEAD_AUTO;
        st->marked = false;
        st->have_mask = false;
        st->dead_bad = -1;
    }
    reading_from(&nph, &st->rd);
    int rc = recount(st);
    if (rc) {
        *st = *keep; /* recount changed nothing it owns on failure: the same pointers */
        photo_free(&nph);
    } else {
        photo_free(&st->ph);
        st->ph = nph;
        memcpy(st->corners_text, text, sizeof text);
    }
    free(keep);
    return rc;
}

int count_state_prisoners(count_state_t *st, int b, int w)
{
    if (!st || b < 0 || w < 0 || b > GO_MAX_PRISONERS || w > GO_MAX_PRISONERS)
        return COUNT_EINVAL;
    if (st->done)
        return COUNT_EDONE;
    count_params_t keep = st->par;
    st->par.captures[GO_BLACK] = b;
    st->par.captures[GO_WHITE] = w;
    st->par.prisoners_given = true;
    int rc = recount(st);
    if (rc)
        st->par = keep;
    return rc;
}

/* ---- the record ---- */

/* Add the points of board b whose flag test holds as one property (none: nothing). */
static int add_points(sgf_collection_t *c, sgf_node_t *n, const char *key, const go_board_t *b,
                      const go_score_t *sc, int what)
{
    const char **vals = malloc(GO_MAX_POINTS * sizeof *vals);
    char (*buf)[3] = malloc(GO_MAX_POINTS * sizeof *buf);
    int k = 0, rc = GO_ENOMEM;
    if (vals && buf) {
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                int p = GO_PT(x, y), v = sc->point[p];
                bool take = what == 0 ? (v & GO_SP_DEAD) != 0
                                      : (int)GO_SP_OWNER(v) == what && !(v & GO_SP_STONE);
                if (!take)
                    continue;
                go_point_to_sgf(p, buf[k]);
                vals[k] = buf[k];
                k++;
            }
        rc = k ? sgf_node_add(c, n, key, vals, k) : GO_OK;
    }
    free(buf);
    free(vals);
    return rc;
}

/* The record of the count (count_state_sgf) as a collection (caller destroys). */
static int build_record(const count_state_t *st, sgf_collection_t **out)
{
    const go_board_t *b = &st->board;
    const go_score_t *sc = &st->score;
    go_game_t *g = go_game_create(b->size, &st->par.rules);
    sgf_collection_t *c = NULL;
    char *comment = NULL;
    size_t clen = 0;
    int rc = COUNT_ENOMEM;
    if (!g)
        return COUNT_ENOMEM;
    sgf_header_t h;
    memset(&h, 0, sizeof h);
    h.result = sc->re;
    h.komi2 = st->par.komi2;
    h.has_komi = true;
    h.initial = b;              /* the position as AB/AW; no move */
    h.has_prisoners = st->par.prisoners_given;   /* KP[]: `score` counts them too */
    h.prisoners[GO_BLACK] = st->par.captures[GO_BLACK];
    h.prisoners[GO_WHITE] = st->par.captures[GO_WHITE];
    if (sgf_from_game(g, &h, &c) != GO_OK)
        goto out;
    sgf_node_t *root = c->games[0];
    char ha[8];
    snprintf(ha, sizeof ha, "%d", st->par.handicap);
    const char *hv[1] = { ha };
    if (st->par.handicap >= 2 && sgf_node_add(c, root, "HA", hv, 1) != GO_OK)
        goto out;
    if (add_points(c, root, "KD", b, sc, 0) != GO_OK ||
        add_points(c, root, "TB", b, sc, GO_BLACK) != GO_OK ||
        add_points(c, root, "TW", b, sc, GO_WHITE) != GO_OK)
        goto out;
    /* the count as `count` prints it, in the comment */
    FILE *mf = open_memstream(&comment, &clen);
    if (!mf)
        goto out;
    count_state_print_text(st, mf, NULL);
    if (fclose(mf) != 0 || !comment)
        goto out;
    if (clen && comment[clen - 1] == '\n')
        comment[--clen] = '\0';
    const char *cv[1] = { comment };
    if (sgf_node_add(c, root, "C", cv, 1) != GO_OK)
        goto out;
    *out = c;
    c = NULL;
    rc = COUNT_OK;
out:
    free(comment);
    sgf_collection_destroy(c);
    go_game_destroy(g);
    return rc;
}

int count_state_sgf(const count_state_t *st, char **text, size_t *len)
{
    if (!st || !text || !len)
        return COUNT_EINVAL;
    if (st->pending)
        return COUNT_EPENDING;
    sgf_collection_t *c = NULL;
    int rc = build_record(st, &c);
    if (rc)
        return rc;
    rc = sgf_write(c, text, len) == GO_OK ? COUNT_OK : COUNT_ENOMEM;
    sgf_collection_destroy(c);
    return rc;
}

int count_state_accept(count_state_t *st, const char *path)
{
    if (!st || !path)
        return COUNT_EINVAL;
    if (st->done)
        return COUNT_EDONE;
    if (st->pending)
        return COUNT_EPENDING;
    sgf_collection_t *c = NULL;
    int rc = build_record(st, &c);
    if (rc)
        return rc;
    int wrc = sgf_write_file(c, path);
    sgf_collection_destroy(c);
    if (wrc)
        return wrc == GO_ENOMEM ? COUNT_ENOMEM : COUNT_EIO;
    st->done = true;
    return COUNT_OK;
}

/* ---- reading the state ---- */

int count_state_pending(const count_state_t *st)
{
    return st->pending ? 1 : 0;
}

const go_point_t *count_state_unsure(const count_state_t *st, int *n)
{
    if (n)
        *n = st->nleft;
    return st->left;
}

const go_board_t *count_state_board(const count_state_t *st)
{
    return &st->board;
}

const go_score_t *count_state_score(const count_state_t *st)
{
    return st->pending ? NULL : &st->score;
}

const go_session_t *count_state_session(const count_state_t *st)
{
    return st->sess;
}

const go_fixes_t *count_state_fixes(const count_state_t *st)
{
    return &st->fx;
}

const go_reading_t *count_state_reading(const count_state_t *st)
{
    return &st->rd;
}

const photo_t *count_state_photo(const count_state_t *st)
{
    return &st->ph;
}

const char *count_state_photo_path(const count_state_t *st)
{
    return st->popts.image;
}

const count_params_t *count_state_params(const count_state_t *st)
{
    return &st->par;
}

bool count_state_marked(const count_state_t *st)
{
    return st->marked;
}

bool count_state_done(const count_state_t *st)
{
    return st->done;
}

const char *count_state_marking(const count_state_t *st)
{
    return st->marked ? "people" : st->dead.mode == GO_DEAD_AUTO ? "proposal" : "given";
}

int count_state_dead_error(const count_state_t *st)
{
    return st->dead_bad;
}

const char *count_state_corners_text(const count_state_t *st)
{
    return st->corners_text[0] ? st->corners_text : st->popts.corners;
}

/* ---- what `count` prints ---- */

int count_state_report(const count_state_t *st, score_report_t *out)
{
    if (st->pending)
        return COUNT_EPENDING;
    score_report_t rr = { &st->par.rules, st->par.komi2, st->par.handicap, &st->board,
                          &st->score, st->sess,
                          !st->marked && st->dead.mode == GO_DEAD_AUTO, false, NULL };
    *out = rr;
    return COUNT_OK;
}

static const char *colour_word(go_color_t c)
{
    return c == GO_BLACK ? "black" : c == GO_WHITE ? "white" : "empty";
}

static void stone_counts(const go_board_t *b, int *nb, int *nw)
{
    int S = b->size;
    *nb = *nw = 0;
    for (int k = 0; k < S * S; k++) {
        *nb += b->color[GO_PT(k % S, k / S)] == GO_BLACK;
        *nw += b->color[GO_PT(k % S, k / S)] == GO_WHITE;
    }
}

int count_state_print_text(const count_state_t *st, FILE *f, const char *picture)
{
    score_report_t rr;
    if (count_state_report(st, &rr))
        return COUNT_EPENDING;
    int S = st->board.size, nb, nw;
    stone_counts(&st->board, &nb, &nw);
    score_print_text(f, &rr);
    fprintf(f, "photo: %s, %dx%d, %d black and %d white stone%s as counted\n",
            st->popts.image, S, S, nb, nw, nw == 1 ? "" : "s");
    if (st->fx.n) {
        fprintf(f, "fixed:");
        for (int i = 0; i < st->fx.n; i++) {
            char h[4];
            go_point_human(S, st->fx.fix[i].point, h);
            fprintf(f, "%s %s %s", i ? "," : "", h, colour_word(st->fx.fix[i].color));
        }
        fprintf(f, "\n");
    }
    if (st->nleft) {
        fprintf(f, "unsure: %d point%s counted as empty (--unsure empty):", st->nleft,
                st->nleft == 1 ? "" : "s");
        for (int i = 0; i < st->nleft; i++) {
            char h[4];
            go_point_human(S, st->left[i], h);
            fprintf(f, " %s", h);
        }
        fprintf(f, "\n");
    }
    if (st->par.rules.scoring == GO_SCORING_TERRITORY && !st->par.prisoners_given)
        fprintf(f, "prisoners: none given (a photo shows none; --prisoners B=N,W=N)\n");
    if (picture)
        fprintf(f, "picture: %s\n", picture);
    return COUNT_OK;
}

json_t *count_state_json(const count_state_t *st, const char *picture)
{
    score_report_t rr;
    if (count_state_report(st, &rr))
        return NULL;
    json_t *obj = score_json(&rr), *p = json_object(), *a;
    if (!obj || !p) {
        json_decref(obj);
        json_decref(p);
        return NULL;
    }
    int nb, nw;
    stone_counts(&st->board, &nb, &nw);
    json_object_set_new(p, "image", json_string(st->popts.image));
    a = json_array();
    for (int k = 0; k < 4; k++) {
        json_t *c = json_array();
        json_array_append_new(c, json_real((int)(st->ph.geom.corners[k][0] * 100) / 100.0));
        json_array_append_new(c, json_real((int)(st->ph.geom.corners[k][1] * 100) / 100.0));
        json_array_append_new(a, c);
    }
    json_object_set_new(p, "corners", a);
    json_object_set_new(p, "black", json_integer(nb));
    json_object_set_new(p, "white", json_integer(nw));
    a = json_array();
    for (int i = 0; i < st->fx.n; i++) {
        json_t *e = json_object();
        char pt[3];
        go_color_t c = st->fx.fix[i].color;
        go_point_to_sgf(st->fx.fix[i].point, pt);
        json_object_set_new(e, "point", json_string(pt));
        json_object_set_new(e, "color", json_string(c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : "."));
        json_array_append_new(a, e);
    }
    json_object_set_new(p, "fixed", a);
    a = json_array();
    for (int i = 0; i < st->nleft; i++) {
        char pt[3];
        go_point_to_sgf(st->left[i], pt);
        json_array_append_new(a, json_string(pt));
    }
    json_object_set_new(p, "unsure_empty", a);
    json_object_set_new(p, "prisoners_given", json_boolean(st->par.prisoners_given));
    if (picture)
        json_object_set_new(p, "picture", json_string(picture));
    json_object_set_new(obj, "photo", p);
    return obj;
}
