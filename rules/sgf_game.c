/* sgf_game.c: SGF main line -> go_game_t (with the list of illegal moves), and
 * go_game_t -> SGF tree. See sgf_game.h for what is read and how.
 *
 * Invariant of the replay: a move is first offered to the strict go_game_play; only when
 * it refuses is the move listed and (unless stopping) replayed with the tolerant entry
 * point, so the common path costs one strict play per move.
 */
#include "rules/sgf_game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- komi ----------------------------------------------------------------------- */

int sgf_parse_komi(const char *s, int *komi2)
{
    if (!s)
        return GO_EPARSE;
    while (isspace((unsigned char)*s))
        s++;
    bool neg = false;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    long ip = 0;
    int digits = 0;
    while (isdigit((unsigned char)*s)) {
        if (ip < 100000000)
            ip = ip * 10 + (*s - '0');
        s++;
        digits++;
    }
    long frac100 = 0; /* hundredths */
    int fd = 0;
    if (*s == '.' || *s == ',') {
        s++;
        while (isdigit((unsigned char)*s)) {
            if (fd < 2)
                frac100 += (*s - '0') * (fd == 0 ? 10 : 1);
            fd++;
            s++;
            digits++;
        }
    }
    while (isspace((unsigned char)*s))
        s++;
    if (!digits || *s)
        return GO_EPARSE;
    long h; /* hundredths of a point */
    if (fd == 0 && ip >= 100 && (ip % 100 == 25 || ip % 100 == 75))
        h = ip * 2; /* 375: 3.75 stones = 7.5 points */
    else if (frac100 == 25 || frac100 == 75)
        h = (ip * 100 + frac100) * 2; /* 3.75 stones */
    else
        h = ip * 100 + frac100;
    long k2 = (h * 2 + 50) / 100; /* nearest half point */
    if (k2 > 2000)
        return GO_EPARSE;
    *komi2 = (int)(neg ? -k2 : k2);
    return GO_OK;
}

void sgf_format_komi(int komi2, char out[16])
{
    int a = komi2 < 0 ? -komi2 : komi2;
    snprintf(out, 16, "%s%d%s", komi2 < 0 ? "-" : "", a / 2, a % 2 ? ".5" : "");
}

const char *sgf_rules_name(const char *preset)
{
    static const char *const map[][2] = {
        { "chinese", "Chinese" }, { "japanese", "Japanese" }, { "korean", "Korean" },
        { "ing", "GOE" }, { "aga", "AGA" }, { "nz", "NZ" }, { "tromp-taylor", "Tromp-Taylor" },
    };
    if (!preset)
        return "Chinese";
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcasecmp(preset, map[i][0]))
            return map[i][1];
    return preset;
}

/* ---- replay --------------------------------------------------------------------- */

static int node_err(sgf_error_t *err, const sgf_node_t *n, int code, const char *fmt, const char *a,
                    const char *b)
{
    if (err) {
        err->code = code;
        err->line = n->line;
        err->col = n->col;
        err->game = -1;
        snprintf(err->msg, sizeof err->msg, fmt, a, b);
    }
    return code;
}

/* Parse the SZ value. */
static int parse_size(const char *s, int *size)
{
    char *e;
    long a = strtol(s, &e, 10);
    if (e == s)
        return GO_EPARSE;
    if (*e == ':') {
        const char *t = e + 1;
        long b = strtol(t, &e, 10);
        if (e == t || b != a)
            return GO_EINVAL;
    }
    while (isspace((unsigned char)*e))
        e++;
    if (*e || a < GO_MIN_SIZE || a > GO_MAX_SIZE)
        return GO_EPARSE;
    *size = (int)a;
    return GO_OK;
}

/* Expand a setup property's values ("aa", "aa:cc") into pts (cap GO_CELLS). */
static int setup_points(int size, const sgf_prop_t *pr, go_point_t *pts, int *n)
{
    int k = 0;
    for (int v = 0; v < pr->nvalues; v++) {
        const char *s = pr->values[v];
        size_t len = pr->lens[v];
        int x0, y0, x1, y1;
        if (len == 2 || len == 5) {
            int p = go_point_from_sgf(size, s, 2);
            if (p <= 0)
                return GO_EPARSE;
            x0 = x1 = GO_X(p);
            y0 = y1 = GO_Y(p);
            if (len == 5) {
                if (s[2] != ':')
                    return GO_EPARSE;
                int q = go_point_from_sgf(size, s + 3, 2);
                if (q <= 0)
                    return GO_EPARSE;
                x1 = GO_X(q);
                y1 = GO_Y(q);
                if (x1 < x0) {
                    int t = x0;
                    x0 = x1;
                    x1 = t;
                }
                if (y1 < y0) {
                    int t = y0;
                    y0 = y1;
                    y1 = t;
                }
            }
        } else if (len == 0) {
            continue; /* AB[] : an empty list */
        } else {
            return GO_EPARSE;
        }
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (k >= GO_CELLS)
                    return GO_EPARSE;
                pts[k++] = (go_point_t)GO_PT(x, y);
            }
    }
    *n = k;
    return GO_OK;
}

static int add_illegal(sgf_replay_t *r, int *cap, int move, go_color_t c, int p, int why,
                       const sgf_node_t *n)
{
    if (r->nillegal == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        sgf_illegal_t *ni = realloc(r->illegal, (size_t)nc * sizeof *ni);
        if (!ni)
            return GO_ENOMEM;
        r->illegal = ni;
        *cap = nc;
    }
    r->illegal[r->nillegal++] = (sgf_illegal_t){ move, c, (go_point_t)p, why, n->line, n->col };
    return GO_OK;
}

void sgf_replay_fini(sgf_replay_t *r)
{
    if (!r)
        return;
    go_game_destroy(r->game);
    free(r->illegal);
    r->game = NULL;
    r->illegal = NULL;
    r->nillegal = 0;
}

/* Apply the setup properties of node n (AE, AB, AW, PL). *setup is set when any. */
static int apply_setup(sgf_replay_t *r, const sgf_node_t *n, go_point_t *pts, bool *setup,
                       bool *pl_given, sgf_error_t *err)
{
    for (int i = 0; i < n->nprops; i++) {
        const sgf_prop_t *pr = &n->props[i];
        const char *k = pr->key;
        go_color_t c;
        if (!strcmp(k, "AB"))
            c = GO_BLACK;
        else if (!strcmp(k, "AW"))
            c = GO_WHITE;
        else if (!strcmp(k, "AE"))
            c = GO_EMPTY;
        else if (!strcmp(k, "PL")) {
            char v = (char)toupper((unsigned char)pr->values[0][0]);
            if (v == 'B' || v == 'W' || v == '1' || v == '2') {
                int rc = go_game_set_turn(r->game, (v == 'B' || v == '1') ? GO_BLACK : GO_WHITE);
                if (rc == GO_ENOMEM)
                    return rc;
                *pl_given = true;
            }
            continue;
        } else
            continue;
        int np;
        if (setup_points(r->size, pr, pts, &np))
            return node_err(err, n, GO_EPARSE, "bad point list in %s%s", pr->id, "");
        if (np) {
            int rc = go_game_setup(r->game, c, pts, np);
            if (rc == GO_ENOMEM)
                return rc;
            if (rc)
                return node_err(err, n, GO_EPARSE, "setup %s refused: %s", pr->id, go_strerror(rc));
        }
        *setup = true;
    }
    return GO_OK;
}

int sgf_replay(const sgf_node_t *root, const sgf_replay_opts_t *opts, sgf_replay_t *out,
               sgf_error_t *err)
{
    sgf_replay_t r;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    if (err)
        memset(err, 0, sizeof *err);
    if (!root)
        return GO_EINVAL;
    bool stop = opts && opts->stop_at_illegal;
    r.size = 19;
    const char *sz = sgf_node_value(root, "SZ");
    if (sz) {
        int rc = parse_size(sz, &r.size);
        if (rc == GO_EINVAL)
            return node_err(err, root, GO_EPARSE, "SZ[%s]: only square boards are supported%s", sz, "");
        if (rc)
            return node_err(err, root, GO_EPARSE, "SZ[%s]: not a board size from 2 to 25%s", sz, "");
    }
    if (opts && opts->rules) {
        r.rules = *opts->rules;
    } else {
        const char *ru = sgf_node_value(root, "RU");
        if (ru && go_rules_from_sgf(ru, &r.rules) == GO_OK) {
            r.rules_from_sgf = true;
            r.rules_server = go_rules_server(&r.rules, sgf_node_value(root, "CP"),
                                             sgf_node_value(root, "PC"));
        } else
            go_rules_preset("chinese", &r.rules);
    }
    const char *ha = sgf_node_value(root, "HA");
    if (ha) {
        char *end;
        long h = strtol(ha, &end, 10);   /* as atoi did: leading digits, else 0 */
        r.handicap = end != ha && h >= 0 && h <= 400 ? (int)h : 0;
    }
    /* no KM[]: the rules' komi for this game (a handicap game has its own) */
    r.komi2 = go_rules_komi2(&r.rules, r.handicap);
    const char *km = sgf_node_value(root, "KM");
    if (km && sgf_parse_komi(km, &r.komi2) == GO_OK)
        r.komi_given = true;
    r.game = go_game_create(r.size, &r.rules);
    if (!r.game)
        return node_err(err, root, GO_ENOMEM, "out of memory%s%s", "", "");

    go_point_t *pts = malloc(GO_CELLS * sizeof *pts);
    if (!pts) {
        sgf_replay_fini(&r);
        return node_err(err, root, GO_ENOMEM, "out of memory%s%s", "", "");
    }
    int cap = 0, rc = GO_OK;
    bool setup = false, pl_given = false;
    const char *kp = sgf_node_value(root, "KP");
    if (kp) {   /* the prisoners before the first move: "b:w", two counts */
        char *mid = NULL, *end = NULL;
        long kb = isdigit((unsigned char)kp[0]) ? strtol(kp, &mid, 10) : -1;
        long kw = kb >= 0 && *mid == ':' && isdigit((unsigned char)mid[1])
                      ? strtol(mid + 1, &end, 10) : -1;
        if (kb < 0 || kw < 0 || *end || kb > GO_MAX_PRISONERS || kw > GO_MAX_PRISONERS
            || go_game_set_prisoners(r.game, (int)kb, (int)kw) != GO_OK) {
            free(pts);
            sgf_replay_fini(&r);
            return node_err(err, root, GO_EPARSE, "KP[%.16s]: not the prisoners as b:w%s", kp, "");
        }
    }
    if (sgf_node_find(root, "AB") == NULL && sgf_node_find(root, "AW") == NULL) {
        if (r.rules.zuozi)
            setup = go_game_zuozi(r.game) == GO_OK;
        else if (r.handicap >= 2 && r.handicap <= 9)
            setup = go_game_handicap(r.game, r.handicap) == GO_OK;
    }
    for (const sgf_node_t *n = root; n; n = n->child) {
        r.last = n;
        rc = apply_setup(&r, n, pts, &setup, &pl_given, err);
        if (rc)
            break;
        for (int i = 0; i < n->nprops; i++) {
            const sgf_prop_t *pr = &n->props[i];
            go_color_t c;
            if (pr->key[0] == 'B' && pr->key[1] == 0)
                c = GO_BLACK;
            else if (pr->key[0] == 'W' && pr->key[1] == 0)
                c = GO_WHITE;
            else
                continue;
            int p = go_point_from_sgf(r.size, pr->values[0], (int)pr->lens[0]);
            if (p < 0) {
                rc = node_err(err, n, GO_EPARSE, "%s[%.8s]: not a point of the board", pr->id,
                              pr->values[0]);
                break;
            }
            r.nmoves++;
            if (setup) {
                if (!pl_given && go_game_turn(r.game) != c)
                    go_game_set_turn(r.game, c);
                setup = pl_given = false;
            }
            int why;
            if (p == GO_PASS)
                why = go_game_pass(r.game, c, false);
            else
                why = go_game_play(r.game, c, p);
            if (why == GO_OK)
                continue;
            if (why == GO_ENOMEM) {
                rc = node_err(err, n, GO_ENOMEM, "out of memory%s%s", "", "");
                break;
            }
            rc = add_illegal(&r, &cap, r.nmoves, c, p, why, n);
            if (rc) {
                node_err(err, n, GO_ENOMEM, "out of memory%s%s", "", "");
                break;
            }
            if (stop) {
                r.stopped = true;
                break;
            }
            int t = p == GO_PASS ? go_game_pass(r.game, c, true)
                                 : go_game_play_tolerant(r.game, c, p, NULL);
            if (t == GO_ENOMEM) {
                rc = node_err(err, n, GO_ENOMEM, "out of memory%s%s", "", "");
                break;
            }
        }
        if (rc || r.stopped)
            break;
    }
    free(pts);
    if (rc) {
        sgf_replay_fini(&r);
        return rc;
    }
    *out = r;
    return GO_OK;
}

/* ---- game -> SGF ---------------------------------------------------------------- */

static int add1(sgf_collection_t *c, sgf_node_t *n, const char *key, const char *v)
{
    if (!v)
        return GO_OK;
    return sgf_node_add(c, n, key, &v, 1);
}

/* Add AB or AW with the stones of colour col on board b. */
static int add_stones(sgf_collection_t *c, sgf_node_t *n, const char *key, const go_board_t *b,
                      go_color_t col)
{
    int cnt = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            cnt += b->color[GO_PT(x, y)] == col;
    if (!cnt)
        return GO_OK;
    char (*buf)[3] = malloc((size_t)cnt * sizeof *buf);
    const char **vals = malloc((size_t)cnt * sizeof *vals);
    int rc = GO_ENOMEM;
    if (buf && vals) {
        int k = 0;
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++)
                if (b->color[GO_PT(x, y)] == col) {
                    go_point_to_sgf(GO_PT(x, y), buf[k]);
                    vals[k] = buf[k];
                    k++;
                }
        rc = sgf_node_add(c, n, key, vals, cnt);
    }
    free(buf);
    free(vals);
    return rc;
}

int sgf_from_game(const go_game_t *g, const sgf_header_t *h, sgf_collection_t **out)
{
    static const sgf_header_t none;
    if (!g)
        return GO_EINVAL;
    if (!h)
        h = &none;
    const go_rules_t *ru = go_game_rules(g);
    const go_board_t *b = go_game_board(g);
    sgf_collection_t *c = sgf_collection_create();
    if (!c)
        return GO_ENOMEM;
    sgf_node_t *root = sgf_node_new(c, NULL);
    int rc = root ? GO_OK : GO_ENOMEM;
    char sz[8], km[16], ha[8];
    snprintf(sz, sizeof sz, "%d", b->size);
    int hc = go_game_handicap_count(g);
    sgf_format_komi(h->has_komi ? h->komi2 : go_rules_komi2(ru, hc), km);
    snprintf(ha, sizeof ha, "%d", hc);
    const char *result = h->result;
    if (!result && go_game_resigned(g) != GO_EMPTY)
        result = go_game_resigned(g) == GO_BLACK ? "W+R" : "B+R";
    if (!rc)
        rc = add1(c, root, "GM", "1");
    if (!rc)
        rc = add1(c, root, "FF", "4");
    if (!rc)
        rc = add1(c, root, "CA", "UTF-8");
    if (!rc)
        rc = add1(c, root, "AP", "kifucam:0.1");
    if (!rc)
        rc = add1(c, root, "SZ", sz);
    if (!rc)
        rc = add1(c, root, "RU", h->rules ? h->rules : sgf_rules_name(ru->name));
    if (!rc)
        rc = add1(c, root, "KM", km);
    if (!rc && hc > 0)
        rc = add1(c, root, "HA", ha);
    const char *kv[][2] = { { "PB", h->black }, { "BR", h->black_rank }, { "PW", h->white },
                            { "WR", h->white_rank }, { "DT", h->date }, { "EV", h->event },
                            { "PC", h->place }, { "RE", result } };
    for (size_t i = 0; !rc && i < sizeof kv / sizeof kv[0]; i++)
        rc = add1(c, root, kv[i][0], kv[i][1]);

    /* the initial position */
    go_game_t *tmp = NULL;
    const go_board_t *init = h->initial;
    if (!rc && !init && (hc > 0 || ru->zuozi)) {
        tmp = go_game_create(b->size, ru);
        if (!tmp)
            rc = GO_ENOMEM;
        else if (ru->zuozi)
            go_game_zuozi(tmp);
        else
            go_game_handicap(tmp, hc);
        if (tmp)
            init = go_game_board(tmp);
    }
    if (!rc && init)
        rc = add_stones(c, root, "AB", init, GO_BLACK);
    if (!rc && init)
        rc = add_stones(c, root, "AW", init, GO_WHITE);
    if (!rc && h->has_prisoners) {
        char kp[32];
        snprintf(kp, sizeof kp, "%d:%d", h->prisoners[GO_BLACK], h->prisoners[GO_WHITE]);
        rc = add1(c, root, "KP", kp);
    }
    if (!rc && init && go_game_move_count(g) > 0) {
        const go_move_t *m0 = go_game_move(g, 0);
        if (m0 && m0->color == GO_WHITE)
            rc = add1(c, root, "PL", "W");
    }
    go_game_destroy(tmp);

    sgf_node_t *cur = root;
    for (int i = 0; !rc && i < go_game_move_count(g); i++) {
        const go_move_t *m = go_game_move(g, i);
        if (!m || m->kind == GO_MOVE_RESIGN)
            break;
        char pt[3];
        go_point_to_sgf(m->kind == GO_MOVE_PASS ? GO_PASS : m->point, pt);
        cur = sgf_node_new(c, cur);
        if (!cur)
            rc = GO_ENOMEM;
        else
            rc = add1(c, cur, m->color == GO_BLACK ? "B" : "W", pt);
    }
    if (rc) {
        sgf_collection_destroy(c);
        return rc;
    }
    *out = c;
    return GO_OK;
}

int sgf_game_text(const go_game_t *g, const sgf_header_t *h, char **text, size_t *len)
{
    sgf_collection_t *c;
    int rc = sgf_from_game(g, h, &c);
    if (rc)
        return rc;
    rc = sgf_write(c, text, len);
    sgf_collection_destroy(c);
    return rc;
}
