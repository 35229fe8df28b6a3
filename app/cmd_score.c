/* cmd_score.c: `kifucam score GAME.sgf [--rules NAME] [--komi K] [--dead auto|none|LIST]
 * [--format text|json]` (INTERFACE.md).
 *
 * Scores the position at the end of the main line of the first game of the file: replay
 * (sgf_replay, tolerant), the dead stones (auto: the station's proposal, go_life; none;
 * a comma-separated list of points, each marking its whole chain; or calls on the
 * proposal, "+K10,-C3": go_point.h, both the Q16 form and SGF letters), then
 * go_score_count under the rules (--rules, else RU[], else chinese) with the komi
 * (--komi, else KM[], else the rules'), the handicap (HA[] or the handicap stones), the
 * captures of the game and, for AGA, the passes. With --dead auto, an unfinished border (an empty region
 * reaching both colours with a point 3 or more from every stone) is closed by estimate
 * (go_score_params_t.open_borders), as an arbiter would: the text says so in a line
 * "estimated: ..." and the JSON in "estimated" ({"black":N,"white":M,"points":[...]});
 * a finished position counts exactly as before. The proposal is told the side to move when
 * the record says it (a move played, or PL[]: go_session_set_turn).
 * text: first line the RE[] result, then a breakdown (Chinese rules: also in stones).
 * Exit: 0 scored; 1 the record has an illegal move (as `check` judges it: nothing is
 * scored, the first one is named on stderr); 2 bad usage, unreadable or malformed file,
 * bad point in the list, a call that does not fit (no stone there, "+" on stones already
 * proposed dead, "-" on stones not proposed dead). The file is read under the one SGF size policy (sgf_read_file)
 * and only its first game tree is parsed (sgf_parse_each).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/cli.h"
#include "rules/go_game.h"
#include "rules/go_life.h"
#include "rules/go_point.h"
#include "rules/go_score.h"
#include "rules/go_session.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam score GAME.sgf [--rules NAME] [--komi K] [--dead auto|none|LIST]\n"
            "                     [--format text|json]\n"
            "Count the position at the end of the main line (moves or setup stones).\n"
            "  --rules NAME   default: the SGF's RU[], else chinese. One of:");
    for (int i = 0; go_rules_names[i]; i++)
        fprintf(f, " %s", go_rules_names[i]);
    fprintf(f, "\n"
               "  --komi K       default: the SGF's KM[], else the rules' standard komi\n"
               "  --dead auto    the station's proposal (default); none: no dead stones;\n"
               "                 LIST: comma-separated points (Q16 or SGF letters pd), each\n"
               "                 marking its chain; +K10,-C3: the proposal with the chain at\n"
               "                 K10 called dead and the one at C3 alive\n"
               "  --format text  first line the RE[] result, then a breakdown (default)\n"
               "  --format json  {\"result\":...,\"rules\":...,\"komi\":...,\"black\":{...},...}\n"
               "Exit: 0 scored, 1 the record has an illegal move (not scored),\n"
               "      2 bad usage or unreadable/malformed file.\n");
}

/* Say in one line what is wrong with the --dead item spec[off .. off+len) that
 * go_dead_spec_parse refused. */
static void dead_parse_error(const char *file, int size, const char *spec, int off, int len)
{
    const char *it = spec + off;
    int skip = len > 0 && (it[0] == '+' || it[0] == '-');
    int p;
    if (len <= 0)
        cli_error("score", "%s: --dead: no point given (auto, none, a list: dd,Q16, or calls "
                  "on the proposal: +K10,-C3)", file);
    else if (go_point_parse(size, it + skip, len - skip, &p) == GO_OK)
        cli_error("score", "%s: --dead: '%.*s': give either a list of points (dd,Q16) or "
                  "calls on the proposal (+K10,-C3), not both", file, len, it);
    else
        cli_error("score", "%s: --dead: '%.*s' is not a point of this %dx%d board "
                  "(Q16 or SGF letters pd)", file, len, it, size, size);
}

/* Say in one line why call i of spec cannot be applied (go_dead_spec_apply). */
static void dead_apply_error(const char *file, const go_board_t *b, const go_dead_spec_t *sp,
                             const char *text, int i)
{
    int p = sp->point[i];
    char h[4];
    go_point_human(b->size, p, h);
    if (b->color[p] != GO_BLACK && b->color[p] != GO_WHITE)
        cli_error("score", "%s: --dead: '%.*s': no stone at %s", file, sp->len[i],
                  text + sp->off[i], h);
    else if (sp->sign[i] > 0)
        cli_error("score", "%s: --dead: '%.*s': the stones at %s are already proposed dead",
                  file, sp->len[i], text + sp->off[i], h);
    else
        cli_error("score", "%s: --dead: '%.*s': the stones at %s are not proposed dead",
                  file, sp->len[i], text + sp->off[i], h);
}

static json_t *half_json(int v2)
{
    if (v2 % 2 == 0)
        return json_integer(v2 / 2);
    return json_real(v2 / 2.0);
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
    if (area)
        json_object_set_new(o, "area", half_json(sd->area2));
    json_object_set_new(o, "groups", json_integer(sd->groups));
    json_object_set_new(o, "komi", half_json(sd->komi2));
    json_object_set_new(o, "handicap", half_json(sd->handicap2));
    json_object_set_new(o, "tax", half_json(sd->tax2));
    json_object_set_new(o, "total", half_json(sd->total2));
    return o;
}

static void print_text(const go_rules_t *r, int komi2, int handicap, const go_board_t *b,
                       const go_score_t *sc, int ndead)
{
    char k[16], t[2][16], a[2][16];
    const char *names[3] = { "", "Black", "White" };
    bool area = r->scoring == GO_SCORING_AREA;
    go_score_half_text(komi2, k, sizeof k);
    printf("%s\n", sc->re);
    printf("rules %s, komi %s, handicap %d, %dx%d, %d dead stone%s removed\n", r->name, k,
           handicap, b->size, b->size, ndead, ndead == 1 ? "" : "s");
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        const go_score_side_t *sd = &sc->side[c];
        go_score_half_text(sd->total2, t[c - 1], sizeof t[0]);
        go_score_half_text(sd->area2, a[c - 1], sizeof a[0]);
        if (area) {
            printf("%s: %d stones + %d territory", names[c], sd->stones, sd->territory);
            if (sd->shared2)
                printf(" + %d shared points (half each)", sd->shared2);
            if (sd->tax2 || sd->komi2 || sd->handicap2)
                printf(" = %s", a[c - 1]);
        } else {
            printf("%s: %d territory + %d prisoners (%d captured, %d dead)", names[c],
                   sd->territory, sd->captures + sd->dead, sd->captures, sd->dead);
        }
        if (sd->tax2) {
            char tx[16];
            go_score_half_text(sd->tax2, tx, sizeof tx);
            printf(" - %s group tax (%d groups)", tx, sd->groups);
        }
        if (sd->komi2) {
            char km[16];
            go_score_half_text(sd->komi2, km, sizeof km);
            printf(" + %s komi", km);
        }
        if (sd->handicap2) {
            char hc[16];
            go_score_half_text(sd->handicap2, hc, sizeof hc);
            printf(" + %s handicap compensation", hc);
        }
        printf(" = %s\n", t[c - 1]);
    }
    if (sc->open_regions)
        printf("estimated: %d unfinished border%s closed by distance: Black %d, White %d "
               "points counted by estimate\n", sc->open_regions,
               sc->open_regions == 1 ? "" : "s", sc->side[GO_BLACK].estimated,
               sc->side[GO_WHITE].estimated);
    if (sc->nseki_groups)
        printf("seki: %d chain%s\n", sc->nseki_groups, sc->nseki_groups == 1 ? "" : "s");
    if (area && !strcmp(r->name, "chinese")) {
        /* as an arbiter counts: Black's stones against the par of half the board plus
         * half the komi (and half the handicap return), in stones */
        char en[64], cn[64], par[16], cnt[16];
        int pts = b->size * b->size;
        int need4 = 2 * pts + komi2 + sc->side[GO_WHITE].handicap2;   /* quarters of a stone */
        go_score_stones_text(sc, en, sizeof en, cn, sizeof cn);
        go_score_half_text(sc->side[GO_BLACK].area2, cnt, sizeof cnt);
        if (need4 % 4 == 0)
            snprintf(par, sizeof par, "%d", need4 / 4);
        else
            snprintf(par, sizeof par, "%d %d/4", need4 / 4, need4 % 4);
        printf("in stones: Black %s against %s (par %d/2 + komi and handicap return): %s (%s)\n",
               cnt, par, pts, en, cn);
    }
    if (r->black_wins_ties && sc->margin2 == 0)
        printf("tie: Black wins ties under these rules (written B+0.5)\n");
}

/* The first game tree of the file, replayed (sgf_parse_each's callback): the parse
 * stops there. */
typedef struct first {
    const sgf_replay_opts_t *ro;
    sgf_replay_t *rep;
    sgf_error_t *err;
    int rc;                        /* sgf_replay's status */
    bool done;                     /* the first tree was seen */
    bool has_pl;                   /* its root has PL[] */
} first_t;

static int first_game(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    first_t *fg = ctx;
    (void)index;
    (void)charset;
    fg->done = true;
    fg->has_pl = sgf_node_value(root, "PL") != NULL;
    fg->rc = sgf_replay(root, fg->ro, fg->rep, fg->err);
    return 1;   /* stop: score counts the first game only */
}

int cmd_score(int argc, char **argv)
{
    const char *file = NULL, *rules_name = NULL, *komi_text = NULL, *dead = "auto";
    const char *format = "text";
    char *text = NULL;
    size_t tlen = 0;
    sgf_error_t err;
    sgf_replay_opts_t ro = { NULL, false };
    sgf_replay_t rep;
    go_rules_t rules;
    go_score_params_t par;
    go_session_t *sess = NULL;
    go_score_t *sc = NULL;
    go_dead_spec_t *dspec = NULL;
    const go_board_t *b;
    int komi2, rc = 2, ndead = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--rules") || !strcmp(a, "--komi") || !strcmp(a, "--dead")
            || !strcmp(a, "--format")) {
            if (i + 1 >= argc) {
                cli_error("score", "%s needs a value (kifucam score --help)", a);
                return 2;
            }
            if (!strcmp(a, "--rules"))
                rules_name = argv[++i];
            else if (!strcmp(a, "--komi"))
                komi_text = argv[++i];
            else if (!strcmp(a, "--dead"))
                dead = argv[++i];
            else
                format = argv[++i];
            continue;
        }
        if (a[0] == '-' && a[1]) {
            cli_error("score", "unknown option '%s' (kifucam score --help)", a);
            return 2;
        }
        if (file) {
            cli_error("score", "one SGF file only (kifucam score --help)");
            return 2;
        }
        file = a;
    }
    if (!file) {
        cli_error("score", "no SGF file given (kifucam score --help)");
        return 2;
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        cli_error("score", "--format must be text or json, not '%s'", format);
        return 2;
    }
    if (rules_name) {
        if (go_rules_preset(rules_name, &rules) != GO_OK) {
            cli_error("score", "unknown rules '%s' (kifucam score --help lists them)", rules_name);
            return 2;
        }
        ro.rules = &rules;
    }
    if (komi_text && sgf_parse_komi(komi_text, &komi2) != GO_OK) {
        cli_error("score", "--komi: '%s' is not a number", komi_text);
        return 2;
    }

    /* the one SGF size policy (sgf_read_file), and only the first game tree parsed: a
     * collection costs the memory of its first game, not of all of them */
    memset(&err, 0, sizeof err);
    if (sgf_read_file(file, NULL, &text, &tlen, &err) != 0) {
        fprintf(stderr, "%s:0:0: %s\n", file, err.msg[0] ? err.msg : sgf_strerror(err.code));
        return 2;
    }
    first_t fg = { &ro, &rep, &err, 0, false, false };
    int prc = sgf_parse_each(text, tlen, NULL, first_game, &fg, &err);
    free(text);
    if (prc != 0 && !fg.done) {
        fprintf(stderr, "%s:%d:%d: %s\n", file, err.line, err.col,
                err.msg[0] ? err.msg : sgf_strerror(err.code ? err.code : prc));
        return 2;
    }
    if (fg.rc != 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", file, err.line, err.col,
                err.msg[0] ? err.msg : sgf_strerror(err.code ? err.code : fg.rc));
        return 2;
    }
    if (rep.nillegal > 0) {
        /* a result for a game that cannot have been played is no result (check exits 1
         * on it too): the first illegal move named, nothing printed on stdout */
        const sgf_illegal_t *m = &rep.illegal[0];
        char pt[3];
        go_point_to_sgf(m->point, pt);
        cli_error("score", "%s:%d:%d: move %d (%c %s): %s: the record is illegal, not scored "
                  "(%d illegal move%s; kifucam check lists them)", file, m->line, m->col,
                  m->move, m->color == GO_BLACK ? 'B' : 'W', m->point == GO_PASS ? "pass" : pt,
                  go_strerror(m->reason), rep.nillegal, rep.nillegal == 1 ? "" : "s");
        sgf_replay_fini(&rep);
        return 1;
    }
    rules = rep.rules;
    if (!komi_text)
        komi2 = rep.komi2;
    b = go_game_board(rep.game);
    dspec = malloc(sizeof *dspec);
    if (!dspec) {
        cli_error("score", "out of memory");
        goto out;
    }
    {
        int boff = 0, blen = 0;
        if (go_dead_spec_parse(b->size, dead, dspec, &boff, &blen) != GO_OK) {
            dead_parse_error(file, b->size, dead, boff, blen);
            goto out;
        }
    }

    memset(&par, 0, sizeof par);
    par.komi2 = komi2;
    par.handicap = rep.handicap;   /* HA[]: setup stones alone are no handicap */
    par.captures[GO_BLACK] = b->prisoners[GO_BLACK];
    par.captures[GO_WHITE] = b->prisoners[GO_WHITE];
    /* with the station's proposal (--dead auto, or calls on it: +K10,-C3), an unfinished
     * border is closed by estimate, and said so; a dead list given by hand counts exactly */
    par.open_borders = dspec->mode == GO_DEAD_AUTO || dspec->mode == GO_DEAD_EDIT;
    for (int i = 0; i < go_game_move_count(rep.game); i++) {
        const go_move_t *m = go_game_move(rep.game, i);
        if (m && m->kind == GO_MOVE_PASS && (m->color == GO_BLACK || m->color == GO_WHITE))
            par.pass_stones[m->color]++;
    }

    sess = go_session_create(b, &rules, &par);
    sc = malloc(sizeof *sc);
    if (!sess || !sc) {
        cli_error("score", "out of memory");
        goto out;
    }
    {
        int bad = 0, drc;
        /* the side to move, when the record says it (a move played, or PL[]) */
        if (go_game_move_count(rep.game) > 0 || fg.has_pl)
            go_session_set_turn(sess, go_game_turn(rep.game));
        drc = go_session_apply_dead(sess, dspec, &bad);
        if (drc == GO_EINVAL) {
            dead_apply_error(file, b, dspec, dead, bad);
            goto out;
        }
        if (drc != GO_OK) {
            cli_error("score", "out of memory");
            goto out;
        }
    }
    if (go_session_score(sess, sc) != GO_OK) {
        cli_error("score", "%s: cannot count this position", file);
        goto out;
    }
    for (int p = 0; p < GO_CELLS; p++)
        ndead += (sc->point[p] & GO_SP_DEAD) != 0;

    if (!strcmp(format, "json")) {
        json_t *o = json_object();
        json_t *d = json_array();
        char *txt;
        json_object_set_new(o, "result", json_string(sc->re));
        json_object_set_new(o, "rules", json_string(rules.name));
        json_object_set_new(o, "komi", half_json(komi2));
        json_object_set_new(o, "handicap", json_integer(par.handicap));
        json_object_set_new(o, "black", side_json(&sc->side[GO_BLACK],
                                                  rules.scoring == GO_SCORING_AREA));
        json_object_set_new(o, "white", side_json(&sc->side[GO_WHITE],
                                                  rules.scoring == GO_SCORING_AREA));
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                int p = GO_PT(x, y);
                char pt[3];
                if (sc->point[p] & GO_SP_DEAD) {
                    go_point_to_sgf(p, pt);
                    json_array_append_new(d, json_string(pt));
                }
            }
        json_object_set_new(o, "dead", d);
        json_object_set_new(o, "seki", points_json(b, sc, GO_SP_SEKI));
        json_object_set_new(o, "dame", points_json(b, sc, GO_SP_DAME));
        if (sc->open_regions) {
            json_t *e = json_object();
            json_object_set_new(e, "black", json_integer(sc->side[GO_BLACK].estimated));
            json_object_set_new(e, "white", json_integer(sc->side[GO_WHITE].estimated));
            json_object_set_new(e, "points", points_json(b, sc, GO_SP_EST));
            json_object_set_new(o, "estimated", e);
        }
        if (dspec->mode == GO_DEAD_AUTO && go_session_proposal(sess)) {
            const go_life_result_t *lr = go_session_proposal(sess);
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
        txt = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
        if (txt)
            printf("%s\n", txt);
        free(txt);
        json_decref(o);
    } else {
        print_text(&rules, komi2, par.handicap, b, sc, ndead);
    }
    rc = 0;
out:
    free(dspec);
    free(sc);
    go_session_destroy(sess);
    sgf_replay_fini(&rep);
    return rc;
}
