/* score_out.c: the text and JSON of a count (see score_out.h), shared by `score` and
 * `count`.
 *
 * Invariants: every line of the text has its field in the JSON ("dead" and
 * "dead_chains" for the dead line, "unsettled" and "exact" for a border left open,
 * "in_stones" for the Chinese arbiter's line, "tie" for Ing's tie rule); points are human
 * (Q16) in the text and SGF letters in the JSON; numbers of stones are quarters written
 * by go_score_quarters_text, never "2/4".
 */
#include "app/score_out.h"

#include <string.h>

#include "app/cli.h"

/* The text names at most this many points to fill of an unsettled border (an opening
 * can have a hundred); the JSON lists them all. */
#define SCORE_FILL_SHOWN 24

/* "1 stone", "2 stones": the noun as the count wants it. */
static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static json_t *half_json(int v2)
{
    if (v2 % 2 == 0)
        return json_integer(v2 / 2);
    return json_real(v2 / 2.0);
}

static json_t *quarters_json(int q)
{
    if (q % 4 == 0)
        return json_integer(q / 4);
    return json_real(q / 4.0);
}

static json_t *points_json(const go_board_t *b, const go_score_t *sc, int flag)
{
    json_t *a = json_array();
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y);
            char pt[3];
            if (!(sc->point[p] & flag))
                continue;
            if (flag == GO_SP_SEKI && (sc->point[p] & GO_SP_STONE))
                continue;   /* seki: the shared points and eyes, not the stones */
            go_point_to_sgf(p, pt);
            json_array_append_new(a, json_string(pt));
        }
    return a;
}

static json_t *side_json(const go_score_side_t *sd, bool area)
{
    json_t *o = json_object();
    json_object_set_new(o, "stones", json_integer(sd->stones));
    json_object_set_new(o, "territory", json_integer(sd->territory));
    json_object_set_new(o, "prisoners", json_integer(sd->captures + sd->dead));
    json_object_set_new(o, "captured", json_integer(sd->captures));
    json_object_set_new(o, "dead", json_integer(sd->dead));
    if (area)
        json_object_set_new(o, "area", half_json(sd->area2));
    if (sd->shared2)
        json_object_set_new(o, "shared_points", json_integer(sd->shared2));
    json_object_set_new(o, "groups", json_integer(sd->groups));
    json_object_set_new(o, "komi", half_json(sd->komi2));
    json_object_set_new(o, "handicap", half_json(sd->handicap2));
    json_object_set_new(o, "tax", half_json(sd->tax2));
    json_object_set_new(o, "total", half_json(sd->total2));
    return o;
}

/* The dead chains in scan order: each one's first point (top row first) and stones. */
typedef struct dead_chain {
    go_point_t first;
    go_color_t color;
    int nstones;
} dead_chain_t;

static int dead_chains(const go_board_t *b, const go_score_t *sc, dead_chain_t *out)
{
    go_point_t slot[GO_CELLS];   /* chain head -> index + 1 in out */
    int n = 0;
    memset(slot, 0, sizeof slot);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y), h = b->chain[p];
            if (!(sc->point[p] & GO_SP_DEAD) || h <= 0 || h >= GO_CELLS)
                continue;
            if (!slot[h]) {
                out[n].first = (go_point_t)p;
                out[n].color = (go_color_t)b->color[p];
                out[n].nstones = 0;
                slot[h] = (go_point_t)++n;
            }
            out[slot[h] - 1].nstones++;
        }
    return n;
}

/* Quarters of a stone an arbiter compares under the Chinese rules: Black's area and the
 * par (half the board plus half the komi and half the handicap return). */
static void chinese_stones(const score_report_t *r, int *black4, int *par4)
{
    int pts = r->board->size * r->board->size;
    *black4 = 2 * r->score->side[GO_BLACK].area2;
    *par4 = 2 * pts + r->komi2 + r->score->side[GO_WHITE].handicap2;
}

static bool in_stones(const score_report_t *r)
{
    return r->rules->scoring == GO_SCORING_AREA && !strcmp(r->rules->name, "chinese");
}

void score_print_text(FILE *f, const score_report_t *r)
{
    const go_score_t *sc = r->score;
    const go_board_t *b = r->board;
    const char *names[3] = { "", "Black", "White" };
    bool area = r->rules->scoring == GO_SCORING_AREA;
    char k[16];
    dead_chain_t ch[GO_MAX_POINTS];
    int nch = dead_chains(b, sc, ch), ndead = 0;
    for (int i = 0; i < nch; i++)
        ndead += ch[i].nstones;
    go_score_half_text(r->komi2, k, sizeof k);
    fprintf(f, "%s\n", sc->re);
    fprintf(f, "rules %s, komi %s, handicap %d, %dx%d, %d dead stone%s removed\n",
            r->rules->name, k, r->handicap, b->size, b->size, ndead, plural(ndead));
    if (r->server)
        fprintf(f, "counted as %s counts %s: the eyes of groups in seki are their owner's "
                "territory (%s's default; --rules %s: nobody's)\n",
                r->server, r->rules->name, r->server, r->rules->name);
    if (r->agreed)
        fprintf(f, "dead stones as agreed at the station (the record's KD[])\n");
    if (nch) {
        fprintf(f, "dead:");
        for (int i = 0; i < nch; i++) {
            char h[4];
            go_point_human(b->size, ch[i].first, h);
            fprintf(f, "%s %s (%d %s stone%s)", i ? "," : "", h, ch[i].nstones,
                    ch[i].color == GO_BLACK ? "black" : "white", plural(ch[i].nstones));
        }
        fputc('\n', f);
    }
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        const go_score_side_t *sd = &sc->side[c];
        char t[16], a[16];
        go_score_half_text(sd->total2, t, sizeof t);
        go_score_half_text(sd->area2, a, sizeof a);
        if (area) {
            fprintf(f, "%s: %d stone%s + %d territory", names[c], sd->stones,
                    plural(sd->stones), sd->territory);
            if (sd->shared2)
                fprintf(f, " + %d shared point%s (half each)", sd->shared2,
                        plural(sd->shared2));
            if (sd->tax2 || sd->komi2 || sd->handicap2)
                fprintf(f, " = %s", a);
        } else {
            int pr = sd->captures + sd->dead;
            fprintf(f, "%s: %d territory + %d prisoner%s (%d captured, %d dead)", names[c],
                    sd->territory, pr, plural(pr), sd->captures, sd->dead);
        }
        if (sd->tax2) {
            char tx[16];
            go_score_half_text(sd->tax2, tx, sizeof tx);
            fprintf(f, " - %s group tax (%d group%s)", tx, sd->groups, plural(sd->groups));
        }
        if (sd->komi2) {
            char km[16];
            go_score_half_text(sd->komi2, km, sizeof km);
            fprintf(f, " + %s komi", km);
        }
        if (sd->handicap2) {
            char hc[16];
            go_score_half_text(sd->handicap2, hc, sizeof hc);
            fprintf(f, " + %s handicap compensation", hc);
        }
        fprintf(f, " = %s\n", t);
    }
    if (sc->unsettled) {
        /* a border left open: nothing guessed, its points nobody's, the points to fill */
        int shown = 0;
        fprintf(f, "unsettled: %d border%s left open, %d point%s counted for nobody; fill",
                sc->unsettled, plural(sc->unsettled), sc->open_points, plural(sc->open_points));
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                char h[4];
                if (!(sc->point[GO_PT(x, y)] & GO_SP_FILL) || shown >= SCORE_FILL_SHOWN)
                    continue;
                go_point_human(b->size, GO_PT(x, y), h);
                fprintf(f, " %s", h);
                shown++;
            }
        if (sc->fill_points > shown)
            fprintf(f, " and %d more (the JSON lists them)", sc->fill_points - shown);
        fprintf(f, " to settle %s\n", sc->unsettled == 1 ? "it" : "them");
    }
    if (sc->nseki_groups)
        fprintf(f, "seki: %d chain%s\n", sc->nseki_groups, plural(sc->nseki_groups));
    if (in_stones(r)) {
        /* as an arbiter counts: Black's stones against the par, in stones */
        char en[64], cn[64], par[16], cnt[16], half[16];
        int black4, par4;
        chinese_stones(r, &black4, &par4);
        go_score_stones_text(sc, en, sizeof en, cn, sizeof cn);
        go_score_quarters_text(black4, cnt, sizeof cnt);
        go_score_quarters_text(par4, par, sizeof par);
        go_score_quarters_text(2 * b->size * b->size, half, sizeof half);
        fprintf(f, "in stones: Black %s against %s (par %s + komi and handicap return): %s "
                "(%s)\n", cnt, par, half, en, cn);
    }
    if (r->rules->black_wins_ties && sc->margin2 == 0)
        fprintf(f, "tie: Black wins ties under these rules (written B+0.5)\n");
}

json_t *score_json(const score_report_t *r)
{
    const go_score_t *sc = r->score;
    const go_board_t *b = r->board;
    bool area = r->rules->scoring == GO_SCORING_AREA;
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "result", json_string(sc->re));
    json_object_set_new(o, "rules", json_string(r->rules->name));
    json_object_set_new(o, "rules_server", r->server ? json_string(r->server) : json_null());
    json_object_set_new(o, "komi", half_json(r->komi2));
    json_object_set_new(o, "handicap", json_integer(r->handicap));
    json_object_set_new(o, "size", json_integer(b->size));
    json_object_set_new(o, "black", side_json(&sc->side[GO_BLACK], area));
    json_object_set_new(o, "white", side_json(&sc->side[GO_WHITE], area));
    json_object_set_new(o, "dead", points_json(b, sc, GO_SP_DEAD));
    /* where the dead stones come from: the record's agreed count, the proposal, or given */
    json_object_set_new(o, "marking", json_string(r->agreed ? "agreed" : r->proposal ? "proposal"
                                                                                 : "given"));
    {
        dead_chain_t ch[GO_MAX_POINTS];
        int nch = dead_chains(b, sc, ch);
        json_t *a = json_array();
        for (int i = 0; i < nch; i++) {
            json_t *e = json_object();
            char pt[3], h[4];
            go_point_to_sgf(ch[i].first, pt);
            go_point_human(b->size, ch[i].first, h);
            json_object_set_new(e, "point", json_string(pt));
            json_object_set_new(e, "name", json_string(h));
            json_object_set_new(e, "color", json_string(ch[i].color == GO_BLACK ? "B" : "W"));
            json_object_set_new(e, "stones", json_integer(ch[i].nstones));
            json_array_append_new(a, e);
        }
        json_object_set_new(o, "dead_chains", a);
    }
    json_object_set_new(o, "seki", points_json(b, sc, GO_SP_SEKI));
    json_object_set_new(o, "seki_chains", json_integer(sc->nseki_groups));
    json_object_set_new(o, "dame", points_json(b, sc, GO_SP_DAME));
    /* exact: every border closed (the text's "unsettled:" line otherwise) */
    json_object_set_new(o, "exact", json_boolean(sc->unsettled == 0));
    if (sc->unsettled) {
        json_t *e = json_object();
        json_object_set_new(e, "borders", json_integer(sc->unsettled));
        json_object_set_new(e, "points", points_json(b, sc, GO_SP_OPEN));
        json_object_set_new(e, "fill", points_json(b, sc, GO_SP_FILL));
        json_object_set_new(o, "unsettled", e);
    }
    if (in_stones(r)) {
        char en[64], cn[64];
        int black4, par4;
        json_t *e = json_object();
        chinese_stones(r, &black4, &par4);
        go_score_stones_text(sc, en, sizeof en, cn, sizeof cn);
        json_object_set_new(e, "black", quarters_json(black4));
        json_object_set_new(e, "par", quarters_json(par4));
        json_object_set_new(e, "margin", quarters_json(sc->margin2));
        json_object_set_new(e, "text", json_string(en));
        json_object_set_new(e, "zh", json_string(cn));
        json_object_set_new(o, "in_stones", e);
    }
    if (r->rules->black_wins_ties && sc->margin2 == 0)
        json_object_set_new(o, "tie", json_string("black_wins_ties"));
    if (r->proposal && r->sess && go_session_proposal(r->sess)) {
        const go_life_result_t *lr = go_session_proposal(r->sess);
        json_t *g = json_array();
        for (int i = 0; i < lr->ngroups; i++) {
            json_t *e = json_object();
            char pt[3];
            go_point_to_sgf(lr->groups[i].head, pt);
            json_object_set_new(e, "point", json_string(pt));
            json_object_set_new(e, "color", json_string(lr->groups[i].color == GO_BLACK ? "B" : "W"));
            json_object_set_new(e, "stones", json_integer(lr->groups[i].nstones));
            json_object_set_new(e, "confidence",
                                json_real((double)(int)(lr->groups[i].confidence * 100 + 0.5) / 100));
            json_array_append_new(g, e);
        }
        json_object_set_new(o, "dead_groups", g);
    }
    return o;
}

void score_dead_parse_error(const char *cmd, const char *what, int size, const char *spec,
                            int rc, int off, int len)
{
    const char *it = spec + off;
    int skip = len > 0 && (it[0] == '+' || it[0] == '-');
    int p;
    if (rc == GO_EINVAL && len > 0 && go_point_parse(size, it + skip, len - skip, &p) == GO_OK)
        cli_error(cmd, "%s: --dead: more than %d items", what, GO_MAX_POINTS);
    else if (len <= 0)
        cli_error(cmd, "%s: --dead: no point given (auto, none, a list: dd,Q16, or calls "
                  "on the proposal: +K10,-C3)", what);
    else if (go_point_parse(size, it + skip, len - skip, &p) == GO_OK)
        cli_error(cmd, "%s: --dead: '%.*s': give either a list of points (dd,Q16) or "
                  "calls on the proposal (+K10,-C3), not both", what, len, it);
    else
        cli_error(cmd, "%s: --dead: '%.*s' is not a point of this %dx%d board "
                  "(Q16 or SGF letters pd)", what, len, it, size, size);
}

void score_dead_apply_error(const char *cmd, const char *what, const go_board_t *b,
                            const go_dead_spec_t *sp, const char *spec, int i)
{
    int p = sp->point[i];
    char h[4];
    go_point_human(b->size, p, h);
    if (b->color[p] != GO_BLACK && b->color[p] != GO_WHITE)
        cli_error(cmd, "%s: --dead: '%.*s': no stone at %s", what, sp->len[i],
                  spec + sp->off[i], h);
    else if (sp->sign[i] > 0)
        cli_error(cmd, "%s: --dead: '%.*s': the stones at %s are already proposed dead",
                  what, sp->len[i], spec + sp->off[i], h);
    else
        cli_error(cmd, "%s: --dead: '%.*s': the stones at %s are not proposed dead", what,
                  sp->len[i], spec + sp->off[i], h);
}
