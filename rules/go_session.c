/* go_session.c: the scoring session (see go_session.h).
 *
 * State: the final board (a copy), rules, score parameters, the dead mask, the two accepts,
 * the last proposal and a growing log of events. Only stones are ever marked dead.
 */
#include "rules/go_session.h"
#include "rules/go_point.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct go_session {
    go_board_t board;
    go_rules_t rules;
    go_score_params_t par;
    uint8_t dead[GO_CELLS];
    bool accepted[3];
    go_life_result_t *proposal;
    go_color_t to_move;      /* go_session_set_turn; GO_EMPTY: unknown */
    go_session_event_t *log;
    int nlog, caplog;
};

static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };

static bool is_stone(const go_session_t *s, int p)
{
    if (p <= 0 || p >= GO_CELLS)
        return false;
    if (GO_X(p) < 0 || GO_X(p) >= s->board.size || GO_Y(p) < 0 || GO_Y(p) >= s->board.size)
        return false;
    return s->board.color[p] == GO_BLACK || s->board.color[p] == GO_WHITE;
}

static int log_add(go_session_t *s, go_session_event_t ev)
{
    if (s->nlog == s->caplog) {
        int cap = s->caplog ? 2 * s->caplog : 16;
        go_session_event_t *n = realloc(s->log, (size_t)cap * sizeof *n);
        if (!n)
            return GO_ENOMEM;
        s->log = n;
        s->caplog = cap;
    }
    s->log[s->nlog++] = ev;
    return GO_OK;
}

static go_session_event_t event(go_session_event_kind_t kind, go_color_t by)
{
    go_session_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.by = by;
    return ev;
}

/* A change: clear the accepts, logging it when there were any. */
static int changed(go_session_t *s, go_color_t by)
{
    if (s->accepted[GO_BLACK] || s->accepted[GO_WHITE]) {
        s->accepted[GO_BLACK] = s->accepted[GO_WHITE] = false;
        return log_add(s, event(GO_SEV_CLEAR, by));
    }
    return GO_OK;
}

/* Chains (count) and stones marked dead. */
static void count_marked(const go_session_t *s, int *ngroups, int *nstones)
{
    uint8_t seen[GO_CELLS];
    go_point_t stack[GO_CELLS];
    *ngroups = *nstones = 0;
    memset(seen, 0, sizeof seen);
    for (int p = 0; p < GO_CELLS; p++) {
        int sp = 0;
        if (!s->dead[p] || seen[p])
            continue;
        (*ngroups)++;
        seen[p] = 1;
        stack[sp++] = (go_point_t)p;
        while (sp) {
            int q = stack[--sp];
            (*nstones)++;
            for (int d = 0; d < 4; d++) {
                int r = q + dirs[d];
                if (s->dead[r] && !seen[r] && s->board.color[r] == s->board.color[p]) {
                    seen[r] = 1;
                    stack[sp++] = (go_point_t)r;
                }
            }
        }
    }
}

go_session_t *go_session_create(const go_board_t *final, const go_rules_t *rules,
                                const go_score_params_t *par)
{
    go_session_t *s;
    if (!final || !rules || !par || final->size < GO_MIN_SIZE || final->size > GO_MAX_SIZE)
        return NULL;
    s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->board = *final;
    s->rules = *rules;
    s->par = *par;
    return s;
}

go_session_t *go_session_for_game(const go_game_t *g, const go_rules_t *rules, int komi2,
                                  int handicap, bool pl_given)
{
    go_score_params_t par;
    go_session_t *s;
    const go_board_t *b;
    if (!g || !rules)
        return NULL;
    b = go_game_board(g);
    memset(&par, 0, sizeof par);
    par.komi2 = komi2;
    par.handicap = handicap;
    par.captures[GO_BLACK] = b->prisoners[GO_BLACK];
    par.captures[GO_WHITE] = b->prisoners[GO_WHITE];
    for (int i = 0; i < go_game_move_count(g); i++) {
        const go_move_t *m = go_game_move(g, i);
        if (m && m->kind == GO_MOVE_PASS && (m->color == GO_BLACK || m->color == GO_WHITE))
            par.pass_stones[m->color]++;
    }
    s = go_session_create(b, rules, &par);
    if (s && (go_game_move_count(g) > 0 || pl_given))
        s->to_move = go_game_turn(g);
    return s;
}

void go_session_destroy(go_session_t *s)
{
    if (!s)
        return;
    free(s->proposal);
    free(s->log);
    free(s);
}

int go_session_set_turn(go_session_t *s, go_color_t to_move)
{
    if (!s || (to_move != GO_EMPTY && to_move != GO_BLACK && to_move != GO_WHITE))
        return GO_EINVAL;
    s->to_move = to_move;
    return GO_OK;
}

/* No dead-stone call on an unsettled border: a stone proposed dead whose point, once the
 * dead stones are off, lies on an unsettled border (GO_SP_OPEN: the players left it
 * open) is left alive, in the proposal too (its group dropped from the list). A chain
 * lies in one region once off, so it is kept alive whole. */
static int keep_unsettled_alive(go_session_t *s)
{
    go_score_t *sc = malloc(sizeof *sc);
    int rc, n = 0;
    if (!sc)
        return GO_ENOMEM;
    rc = go_score_count(&s->board, &s->rules, &s->par, s->dead, sc);
    if (rc == GO_OK && sc->unsettled) {
        go_life_result_t *lr = s->proposal;
        for (int p = 0; p < GO_CELLS; p++)
            if (s->dead[p] && (sc->point[p] & GO_SP_OPEN))
                s->dead[p] = lr->dead[p] = 0;
        for (int i = 0; i < lr->ngroups; i++)
            if (lr->dead[lr->groups[i].head])
                lr->groups[n++] = lr->groups[i];
        lr->ngroups = n;
    }
    free(sc);
    return rc;
}

int go_session_propose(go_session_t *s, const go_life_options_t *opt)
{
    go_session_event_t ev;
    int rc;
    if (!s)
        return GO_EINVAL;
    if (!s->proposal) {
        s->proposal = malloc(sizeof *s->proposal);
        if (!s->proposal)
            return GO_ENOMEM;
    }
    if (!opt) {
        /* the rules decide: Japanese: a ko the owner may not take back kills (bent four) */
        go_life_options_t o = go_life_defaults();
        o.ko_dead = s->rules.name && !strcmp(s->rules.name, "japanese");
        o.to_move = s->to_move;
        rc = go_life_propose(&s->board, &o, s->proposal);
    } else {
        rc = go_life_propose(&s->board, opt, s->proposal);
    }
    if (rc)
        return rc;
    memset(s->dead, 0, sizeof s->dead);
    if (s->rules.remove_dead)
        for (int p = 0; p < GO_CELLS; p++)
            s->dead[p] = s->proposal->dead[p] && is_stone(s, p);
    if ((rc = keep_unsettled_alive(s)) != GO_OK)
        return rc;
    if ((rc = changed(s, GO_EMPTY)))
        return rc;
    ev = event(GO_SEV_PROPOSE, GO_EMPTY);
    count_marked(s, &ev.ngroups, &ev.nstones);
    return log_add(s, ev);
}

int go_session_set_dead(go_session_t *s, const uint8_t *dead)
{
    go_session_event_t ev;
    int rc;
    if (!s || !dead)
        return GO_EINVAL;
    for (int p = 0; p < GO_CELLS; p++)
        s->dead[p] = dead[p] && is_stone(s, p);
    if ((rc = changed(s, GO_EMPTY)))
        return rc;
    ev = event(GO_SEV_SET, GO_EMPTY);
    count_marked(s, &ev.ngroups, &ev.nstones);
    return log_add(s, ev);
}

int go_session_apply_dead(go_session_t *s, const go_dead_spec_t *spec, int *bad)
{
    uint8_t mask[GO_CELLS];
    int rc;
    if (!s || !spec)
        return GO_EINVAL;
    if (spec->mode == GO_DEAD_AUTO || spec->mode == GO_DEAD_EDIT) {
        if ((rc = go_session_propose(s, NULL)) != GO_OK)
            return rc;
        if (spec->mode == GO_DEAD_AUTO)
            return GO_OK;
    }
    if ((rc = go_dead_spec_apply(spec, &s->board, s->dead, mask, bad)) != GO_OK)
        return rc;
    return go_session_set_dead(s, mask);
}

int go_session_toggle(go_session_t *s, int p, go_color_t by)
{
    uint8_t seen[GO_CELLS];
    go_point_t stack[GO_CELLS];
    go_session_event_t ev;
    go_color_t c;
    bool now;
    int sp = 0, n = 0, rc;
    if (!s || !is_stone(s, p))
        return GO_EINVAL;
    c = (go_color_t)s->board.color[p];
    now = !s->dead[p];
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[sp++] = (go_point_t)p;
    while (sp) {
        int q = stack[--sp];
        if (s->board.color[q] == c) {
            if (s->dead[q] != now)
                n++;
            s->dead[q] = now;
        }
        for (int d = 0; d < 4; d++) {
            int r = q + dirs[d];
            go_color_t v;
            if (r <= 0 || r >= GO_CELLS || seen[r])
                continue;
            if (GO_X(r) < 0 || GO_X(r) >= s->board.size || GO_Y(r) < 0
                || GO_Y(r) >= s->board.size)
                continue;
            v = (go_color_t)s->board.color[r];
            /* the chain itself always; beyond it, empty points, own stones, and opponent
             * stones already marked dead (they will be removed) */
            if (v == c || v == GO_EMPTY || (v == GO_OTHER(c) && s->dead[r])) {
                seen[r] = 1;
                stack[sp++] = (go_point_t)r;
            }
        }
    }
    if ((rc = changed(s, by)))
        return rc;
    ev = event(GO_SEV_TOGGLE, by);
    ev.point = (go_point_t)p;
    ev.dead = now;
    ev.color = c;
    ev.nstones = n;
    if ((rc = log_add(s, ev)))
        return rc;
    return n;
}

int go_session_accept(go_session_t *s, go_color_t c)
{
    int rc;
    if (!s || (c != GO_BLACK && c != GO_WHITE))
        return GO_EINVAL;
    if (s->accepted[c])
        return GO_OK;
    s->accepted[c] = true;
    if ((rc = log_add(s, event(GO_SEV_ACCEPT, c))))
        return rc;
    if (go_session_agreed(s))
        return log_add(s, event(GO_SEV_AGREED, GO_EMPTY));
    return GO_OK;
}

bool go_session_accepted(const go_session_t *s, go_color_t c)
{
    return s && (c == GO_BLACK || c == GO_WHITE) && s->accepted[c];
}

bool go_session_agreed(const go_session_t *s)
{
    return s && s->accepted[GO_BLACK] && s->accepted[GO_WHITE];
}

const uint8_t *go_session_dead(const go_session_t *s)
{
    return s->dead;
}

const go_life_result_t *go_session_proposal(const go_session_t *s)
{
    return s ? s->proposal : NULL;
}

const go_score_params_t *go_session_params(const go_session_t *s)
{
    return &s->par;
}

const go_board_t *go_session_board(const go_session_t *s)
{
    return &s->board;
}

int go_session_score(const go_session_t *s, go_score_t *out)
{
    if (!s || !out)
        return GO_EINVAL;
    return go_score_count(&s->board, &s->rules, &s->par, s->dead, out);
}

int go_session_log_count(const go_session_t *s)
{
    return s ? s->nlog : 0;
}

const go_session_event_t *go_session_log(const go_session_t *s, int i)
{
    if (!s || i < 0 || i >= s->nlog)
        return NULL;
    return &s->log[i];
}

/* snprintf into a growing position; keeps counting past the end like snprintf. */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(*pos < len ? buf + *pos : NULL, *pos < len ? len - *pos : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos += (size_t)n;
}

static const char *who(go_color_t c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "The arbiter";
}

int go_session_comment(const go_session_t *s, char *buf, size_t len)
{
    size_t pos = 0;
    go_score_t *sc;
    if (!s)
        return GO_EINVAL;
    if (buf && len)
        buf[0] = 0;
    else
        len = 0;
    for (int i = 0; i < s->nlog; i++) {
        const go_session_event_t *e = &s->log[i];
        char pt[4];
        switch (e->kind) {
        case GO_SEV_PROPOSE:
            put(buf, len, &pos, "Dead stones proposed by the station: %d group%s, %d stone%s.\n",
                e->ngroups, e->ngroups == 1 ? "" : "s", e->nstones, e->nstones == 1 ? "" : "s");
            break;
        case GO_SEV_SET:
            put(buf, len, &pos, "Dead stones set: %d group%s, %d stone%s.\n", e->ngroups,
                e->ngroups == 1 ? "" : "s", e->nstones, e->nstones == 1 ? "" : "s");
            break;
        case GO_SEV_TOGGLE:
            go_point_human(s->board.size, e->point, pt);
            put(buf, len, &pos, "%s marked the %s group at %s %s (%d stone%s).\n", who(e->by),
                e->color == GO_BLACK ? "black" : "white", pt, e->dead ? "dead" : "alive",
                e->nstones, e->nstones == 1 ? "" : "s");
            break;
        case GO_SEV_ACCEPT:
            put(buf, len, &pos, "%s accepted.\n", who(e->by));
            break;
        case GO_SEV_CLEAR:
            put(buf, len, &pos, "The change cleared the acceptances.\n");
            break;
        case GO_SEV_AGREED:
            put(buf, len, &pos, "Both players agreed.\n");
            break;
        }
    }
    sc = malloc(sizeof *sc);
    if (sc && go_session_score(s, sc) == GO_OK) {
        char en[64], dead[1024];
        size_t dp = 0;
        dead[0] = 0;
        for (int y = 0; y < s->board.size; y++)
            for (int x = 0; x < s->board.size; x++) {
                int p = GO_PT(x, y);
                char pt[4];
                if (!s->dead[p])
                    continue;
                go_point_human(s->board.size, p, pt);
                if (dp + 5 < sizeof dead)
                    dp += (size_t)snprintf(dead + dp, sizeof dead - dp, "%s%s", dp ? " " : "", pt);
            }
        put(buf, len, &pos, "Dead: %s\n", dp ? dead : "none");
        put(buf, len, &pos, "Result (%s): %s%s", s->rules.name ? s->rules.name : "custom",
            sc->re, go_session_agreed(s) ? ", agreed" : ", not yet agreed");
        if (s->rules.scoring == GO_SCORING_AREA && s->rules.name
            && !strcmp(s->rules.name, "chinese")) {
            go_score_stones_text(sc, en, sizeof en, NULL, 0);
            put(buf, len, &pos, " (%s)", en);
        }
        put(buf, len, &pos, "\n");
    }
    free(sc);
    return (int)pos;
}
