/* cmd_score.c: `kifucam score GAME.sgf [--rules NAME] [--komi K] [--dead auto|none|LIST]
 * [--format text|json]` (INTERFACE.md). `score -` reads the record from standard input
 * (shown as "stdin" in errors); `score PHOTO` (an image whose header tells its size,
 * photo_is_image) is counted by count_main, as `kifucam count PHOTO` with the same
 * options, errors under "kifucam score". --picture FILE.png draws the position counted
 * (picture.c; a picture file that cannot be written is exit 2).
 *
 * Scores the position at the end of the main line of the first game of the file: replay
 * (sgf_replay, tolerant), the dead stones (auto: the station's proposal, go_life, or on a
 * record the station counted the dead stones agreed there, its root's KD[] (stn_record.h),
 * so that `score` on a recording says what the station said; none;
 * a comma-separated list of points, each marking its whole chain; or calls on the
 * proposal, "+K10,-C3": go_point.h, both the Q16 form and SGF letters), then
 * go_score_count under the rules (--rules, else RU[] as the record's server counts it,
 * go_rules_server, else chinese) with the komi
 * (--komi, else KM[], else the rules'), the handicap (HA[] or the handicap stones), the
 * captures of the game and, for AGA, the passes: the one count of the station
 * (go_session_for_game). A border left open (an empty region reaching both colours with
 * a point 3 or more from every stone, go_score_t.unsettled) is not closed by guess: its
 * points count for nobody, the proposal calls no stone dead there, and the text says so
 * in a line "unsettled: ... fill D4 E4 ... to settle it", the JSON in "unsettled"
 * ({"borders":N,"points":[...],"fill":[...]}) with "exact": false;
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
#include "app/photo.h"
#include "app/picture.h"
#include "app/score_out.h"
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
            "usage: kifucam score GAME.sgf|-|PHOTO [--rules NAME] [--komi K]\n"
            "                     [--dead auto|none|LIST] [--format text|json]\n"
            "                     [--picture FILE.png]\n"
            "Count the position at the end of the main line (moves or setup stones).\n"
            "  -              the SGF record on standard input\n"
            "  PHOTO          a JPEG or PNG photo: counted as `kifucam count PHOTO` counts it\n"
            "                 (and with its options: --fix, --unsure, --prisoners, ...)\n"
            "  --rules NAME   default: the SGF's RU[], else chinese. One of:");
    for (int i = 0; go_rules_names[i]; i++)
        fprintf(f, " %s", go_rules_names[i]);
    fprintf(f, "\n"
               "                 A record from OGS (CP[online-go.com]) is counted as OGS\n"
               "                 counts its rules: under japanese and korean the eyes of\n"
               "                 groups in seki are territory there; --rules counts by the\n"
               "                 preset itself\n"
               "  --komi K       default: the SGF's KM[], else the rules' standard komi (a\n"
               "                 handicap game: chinese 0, japanese and korean 0.5)\n"
               "  --dead auto    the station's proposal (default; a record the station\n"
               "                 counted: the dead stones agreed there, its KD[]); none: no\n"
               "                 dead stones;\n"
               "                 LIST: comma-separated points (Q16 or SGF letters pd), each\n"
               "                 marking its chain; +K10,-C3: the proposal with the chain at\n"
               "                 K10 called dead and the one at C3 alive\n"
               "  --picture F.png  the position counted: coordinates, dead stones crossed,\n"
               "                 territory marked, points to fill ringed\n"
               "  --format text  first line the RE[] result, then a breakdown (default)\n"
               "  --format json  {\"result\":...,\"rules\":...,\"komi\":...,\"black\":{...},...}\n"
               "Exit: 0 scored, 1 the record has an illegal move (not scored),\n"
               "      2 bad usage or unreadable/malformed file.\n");
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
    uint8_t kd[GO_CELLS];          /* KD[]: the dead stones of the count agreed at the
                                      station (stn_record.h), 1 per point */
    int nkd;                       /* points in kd */
} first_t;

static int first_game(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    first_t *fg = ctx;
    (void)index;
    (void)charset;
    fg->done = true;
    fg->has_pl = sgf_node_value(root, "PL") != NULL;
    fg->rc = sgf_replay(root, fg->ro, fg->rep, fg->err);
    const sgf_prop_t *kd = fg->rc == 0 ? sgf_node_find(root, "KD") : NULL;
    for (int i = 0; kd && i < kd->nvalues; i++) {
        int p = go_point_from_sgf(go_game_board(fg->rep->game)->size, kd->values[i],
                                  kd->lens[i]);
        if (p > 0 && !fg->kd[p]) {
            fg->kd[p] = 1;
            fg->nkd++;
        }
    }
    return 1;   /* stop: score counts the first game only */
}

int cmd_score(int argc, char **argv)
{
    const char *file = NULL, *rules_name = NULL, *komi_text = NULL, *dead = "auto";
    const char *format = "text", *unknown = NULL, *picture = NULL;
    char *text = NULL;
    size_t tlen = 0;
    sgf_error_t err;
    sgf_replay_opts_t ro = { NULL, false };
    sgf_replay_t rep;
    go_rules_t rules;
    go_session_t *sess = NULL;
    go_score_t *sc = NULL;
    go_dead_spec_t *dspec = NULL;
    const go_board_t *b;
    int komi2, rc = 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--rules") || !strcmp(a, "--komi") || !strcmp(a, "--dead")
            || !strcmp(a, "--format") || !strcmp(a, "--picture")) {
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
            else if (!strcmp(a, "--picture"))
                picture = argv[++i];
            else
                format = argv[++i];
            continue;
        }
        if (a[0] == '-' && a[1]) {
            /* an option of count's (--fix, --size, ...) is good for a photo: note it,
             * skip its value (which may start with '-': a corner at x < 0) */
            static const char *const photo_only[] = { "--size", "--corners", "--calib",
                                                      "--model", "--finder", "--debug", "--fix",
                                                      "--unsure", "--prisoners",
                                                      "--handicap", "--serve", "--sgf",
                                                      "--serve-host", NULL };
            if (!unknown)
                unknown = a;
            for (int k = 0; photo_only[k]; k++)
                if (!strcmp(a, photo_only[k]) && i + 1 < argc) {
                    i++;
                    break;
                }
            continue;
        }
        if (file) {
            cli_error("score", "one SGF file only (kifucam score --help)");
            return 2;
        }
        file = a;
    }
    if (!file && unknown) {
        cli_error("score", "unknown option '%s' (kifucam score --help)", unknown);
        return 2;
    }
    if (!file) {
        cli_error("score", "no SGF file given (kifucam score --help)");
        return 2;
    }
    /* a photo (an image whose header says its size) is counted as `count` counts it */
    if (strcmp(file, "-") && photo_is_image(file))
        return count_main("score", argc, argv);
    if (unknown) {
        cli_error("score", "unknown option '%s' (kifucam score --help)", unknown);
        return 2;
    }
    /* "-": the record on standard input, under the same size policy */
    const char *path = strcmp(file, "-") ? file : "/dev/stdin";
    if (!strcmp(file, "-"))
        file = "stdin";
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
    if (sgf_read_file(path, NULL, &text, &tlen, &err) != 0) {
        fprintf(stderr, "%s:0:0: %s\n", file, err.msg[0] ? err.msg : sgf_strerror(err.code));
        return 2;
    }
    first_t fg;
    memset(&fg, 0, sizeof fg);
    fg.ro = &ro;
    fg.rep = &rep;
    fg.err = &err;
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
        int boff = 0, blen = 0, prc = go_dead_spec_parse(b->size, dead, dspec, &boff, &blen);
        if (prc != GO_OK) {
            score_dead_parse_error("score", file, b->size, dead, prc, boff, blen);
            goto out;
        }
    }

    /* the one count the station makes at the end of a recording (go_session_for_game).
     * HA[]: setup stones alone are no handicap; the side to move when the record says it
     * (a move played, or PL[]) */
    sess = go_session_for_game(rep.game, &rules, komi2, rep.handicap, fg.has_pl);
    sc = malloc(sizeof *sc);
    if (!sess || !sc) {
        cli_error("score", "out of memory");
        goto out;
    }
    {
        int bad = 0, drc;
        if (fg.nkd > 0 && (dspec->mode == GO_DEAD_AUTO || dspec->mode == GO_DEAD_EDIT)) {
            /* a count agreed at the station (KD[]): its dead stones, the calls on them */
            uint8_t mask[GO_CELLS];
            drc = go_session_set_dead(sess, fg.kd);
            if (drc == GO_OK && dspec->mode == GO_DEAD_EDIT) {
                drc = go_dead_spec_apply(dspec, b, go_session_dead(sess), mask, &bad);
                if (drc == GO_OK)
                    drc = go_session_set_dead(sess, mask);
            }
        } else {
            drc = go_session_apply_dead(sess, dspec, &bad);
        }
        if (drc == GO_EINVAL) {
            score_dead_apply_error("score", file, b, dspec, dead, bad);
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

    if (picture) {
        picture_in_t pin = { b, sc, NULL, NULL };
        char why[256];
        if (picture_write(picture, &pin, why, sizeof why)) {
            cli_error("score", "%s: %s", picture, why);
            goto out;
        }
    }
    {
        bool agreed = fg.nkd > 0 && (dspec->mode == GO_DEAD_AUTO || dspec->mode == GO_DEAD_EDIT);
        score_report_t rr = { &rules, komi2, rep.handicap, b, sc, sess,
                              dspec->mode == GO_DEAD_AUTO && !agreed, agreed,
                              rep.rules_server /* NULL under --rules */ };
        if (!strcmp(format, "json")) {
            json_t *o = score_json(&rr);
            char *txt = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
            json_decref(o);
            if (!txt) {
                cli_error("score", "out of memory");
                goto out;
            }
            printf("%s\n", txt);
            free(txt);
        } else {
            score_print_text(stdout, &rr);
        }
    }
    rc = 0;
out:
    free(dspec);
    free(sc);
    go_session_destroy(sess);
    sgf_replay_fini(&rep);
    return rc;
}
