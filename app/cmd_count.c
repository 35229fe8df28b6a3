/* cmd_count.c: `kifucam count PHOTO` (INTERFACE.md): count a finished game from one photo,
 * as an arbiter does: read the position (photo.c, as `detect` reads it), settle the
 * points the reader was unsure of (go_reading.h), propose the dead stones and apply
 * people's calls (go_session_apply_dead), count under the rules, print the result
 * (score_out.c, as `score` prints it). `kifucam score PHOTO` runs the same (count_main).
 * The count itself is a count_state (count_state.h); with --serve the correction page
 * changes it (count_serve.c) and Accept prints it here as without --serve.
 *
 *   kifucam count PHOTO [--size N] [--corners C] [--calib FILE] [--model FILE] [--finder FILE|off]
 *                 [--debug DIR]
 *                       [--rules NAME] [--komi K] [--handicap N] [--dead auto|none|LIST|+P,-P]
 *                       [--fix POINT=COLOUR,...] [--unsure refuse|empty]
 *                       [--prisoners B=N,W=N] [--format text|json] [--picture FILE.png]
 *                       [--sgf OUT.sgf] [--serve ADDR:PORT [--serve-host NAMES]]
 *
 * Invariants: a point the reader was unsure of (vis_point_unsure: covered, or under
 * VIS_SURE_CONF) is never counted as empty silently: unless --fix settles it or --unsure
 * empty says so, the count is refused, the points named in the Q16 form (with --serve: the page asks for
 * them); the decisions (settling, dead stones, the count) are rules/', this file parses
 * options and prints.
 * A grid board finding gave in doubt (photo_grid_doubted) is not counted either (the
 * corners are asked for, the ones found given); the correction page shows it to correct.
 * Exit: 0 counted (with --serve: accepted, the record written); 1 no board in the photo,
 * a grid in doubt, or unsure points left (named on stderr, nothing on stdout), or --serve stopped (Ctrl-C,
 * SIGTERM) before Accept, nothing written; 2 bad usage, an unreadable image, profile or
 * model, a bad --fix, --dead, --prisoners, --komi, --rules or --serve.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/cli.h"
#include "app/count_serve.h"
#include "app/count_state.h"
#include "app/photo.h"
#include "app/picture.h"
#include "app/score_out.h"
#include "rules/go_reading.h"
#include "rules/go_session.h"
#include "rules/sgf_game.h"
#include "web/web.h"

/* The unsure points a refusal names before "and N more": the line stays readable when a
 * hand covered half the board. */
#define COUNT_UNSURE_NAMED 40

static void usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: kifucam %s PHOTO [--size N] [--corners \"x1,y1;...\"] [--calib FILE]\n"
            "                     [--rules NAME] [--komi K] [--handicap N] [--dead auto|none|LIST]\n"
            "                     [--fix POINT=COLOUR,...] [--unsure refuse|empty]\n"
            "                     [--prisoners B=N,W=N] [--format text|json] [--model FILE]\n"
            "                     [--finder FILE|off]\n"
            "                     [--debug DIR] [--picture FILE.png]\n"
            "                     [--sgf OUT.sgf] [--serve ADDR:PORT [--serve-host NAMES]]\n"
            "Count a finished game from one photo: read the position (as detect does), propose\n"
            "the dead stones, count under the rules, print the result as score does.\n"
            "  --size, --corners, --calib, --model, --finder, --debug   as kifucam detect\n"
            "  --rules NAME   default chinese. One of:", cmd);
    for (int i = 0; go_rules_names[i]; i++)
        fprintf(f, " %s", go_rules_names[i]);
    fprintf(f, "\n"
               "  --komi K       default: the rules' komi (a handicap game: chinese 0,\n"
               "                 japanese and korean 0.5)\n"
               "  --handicap N   handicap stones given (0, or 2..9; default 0)\n"
               "  --dead auto    the station's proposal (default); none; LIST: points (Q16 or\n"
               "                 SGF letters pd), each marking its chain; +K10,-C3: calls on\n"
               "                 the proposal (K10's chain dead, C3's alive)\n"
               "  --fix P=C,...  correct the reading: Q16=B (black), D4=. (empty), C3=W (white)\n"
               "  --unsure refuse  a point the reader was unsure of (covered, or read without\n"
               "                 confidence; detect's '?') stops the count: exit 1, the points\n"
               "                 named (default); empty: count them as empty\n"
               "  --prisoners B=N,W=N  the stones each side captured during the game (a photo\n"
               "                 shows none; territory rules count them): B= Black's prisoners\n"
               "  --picture F.png  the board as read: coordinates, dead stones crossed, territory\n"
               "                 marked, points to fill and unsure points ringed; beside it the\n"
               "                 photo with the grid as found (also written when unsure points\n"
               "                 stop the count)\n"
               "  --format text  first line the RE[] result, then the breakdown (default);\n"
               "           json  as score's, with \"photo\": the reading, fixes, unsure points\n"
               "  --serve A:P    the correction page (http://A:P/count?token=..., printed): the\n"
               "                 photo with the grid (drag its corners: the photo is read again\n"
               "                 with them), the board beside it; a click on a stone marks its\n"
               "                 group dead or alive, or (fix mode) cycles a point empty, black,\n"
               "                 white; the prisoners (territory rules); the count after each\n"
               "                 change. Accept writes the record, prints the count as without\n"
               "                 --serve (then \"sgf: FILE\") and exits 0; Ctrl-C: exit 1,\n"
               "                 nothing written. Unsure points are asked for on the page\n"
               "  --sgf FILE     the record of the count (then \"sgf: FILE\"; with --serve the\n"
               "                 one Accept writes, default the photo's name with .sgf): the\n"
               "                 position (AB/AW), the dead stones (KD), territory (TB/TW),\n"
               "                 the prisoners given (KP, which `score` counts), RE, RU, KM,\n"
               "                 the count in C\n"
               "  --serve-host NAMES  with --serve: names (comma-separated) the page may be\n"
               "                 reached by besides its address\n"
               "Exit: 0 counted (--serve: accepted); 1 no board found, a grid found in doubt\n"
               "      (the corners asked for), or unsure points left (named), or --serve\n"
               "      stopped before Accept;\n"
               "      2 bad usage, an unreadable image, a bad --fix, --dead or --prisoners.\n");
}

typedef struct count_opts {
    photo_opts_t photo;
    const char *rules, *komi, *dead, *format, *fix, *unsure, *prisoners, *picture;
    const char *serve, *sgf, *serve_host;   /* --serve and its options, or NULL */
    int handicap;
} count_opts_t;

/* Parse argv into *o. Returns -1 to go on, else the exit code (help: 0; error: 2). */
static int parse_args(const char *cmd, int argc, char **argv, count_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->dead = "auto";
    o->format = "text";
    o->unsure = "refuse";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, cmd);
            return 0;
        }
        int taken = photo_option(cmd, argc, argv, &i, &o->photo);
        if (taken < 0)
            return 2;
        if (taken)
            continue;
        const char **slot = !strcmp(a, "--rules") ? &o->rules
                            : !strcmp(a, "--komi") ? &o->komi
                            : !strcmp(a, "--dead") ? &o->dead
                            : !strcmp(a, "--format") ? &o->format
                            : !strcmp(a, "--fix") ? &o->fix
                            : !strcmp(a, "--unsure") ? &o->unsure
                            : !strcmp(a, "--prisoners") ? &o->prisoners
                            : !strcmp(a, "--picture") ? &o->picture
                            : !strcmp(a, "--serve") ? &o->serve
                            : !strcmp(a, "--sgf") ? &o->sgf
                            : !strcmp(a, "--serve-host") ? &o->serve_host : NULL;
        if (slot || !strcmp(a, "--handicap")) {
            if (i + 1 >= argc) {
                cli_error(cmd, "%s needs a value (kifucam %s --help)", a, cmd);
                return 2;
            }
            if (slot) {
                *slot = argv[++i];
                continue;
            }
            char *end;
            long h = strtol(argv[++i], &end, 10);
            if (*end || !*argv[i] || h < 0 || h == 1 || h > 9) {
                cli_error(cmd, "--handicap must be 0 or 2..9, not '%s'", argv[i]);
                return 2;
            }
            o->handicap = (int)h;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            cli_error(cmd, "unknown option '%s' (kifucam %s --help)", a, cmd);
            return 2;
        }
        if (o->photo.image) {
            cli_error(cmd, "one photo only ('%s' is extra)", a);
            return 2;
        }
        o->photo.image = a;
    }
    if (!o->photo.image) {
        cli_error(cmd, "no photo given (kifucam %s --help)", cmd);
        return 2;
    }
    if (strcmp(o->format, "text") && strcmp(o->format, "json")) {
        cli_error(cmd, "--format must be text or json, not '%s'", o->format);
        return 2;
    }
    if (strcmp(o->unsure, "refuse") && strcmp(o->unsure, "empty")) {
        cli_error(cmd, "--unsure must be refuse or empty, not '%s'", o->unsure);
        return 2;
    }
    if (!o->serve && o->serve_host) {
        cli_error(cmd, "--serve-host goes with --serve (the names the page may be reached by)");
        return 2;
    }
    return -1;
}

/* Refuse the count in one line: the unsure points, in the Q16 form; where the picture
 * cuts the board (photo_outside), those outside it apart, named after the ones in it
 * (what looking at the board answers first), with the edges it cuts the board at. */
static void refuse_unsure(const char *cmd, const char *image, int size, const go_point_t *left,
                          int n, const photo_t *ph)
{
    char list[COUNT_UNSURE_NAMED * 5 + 64], first[4] = "Q16", cut[256] = "";
    uint8_t outside[VIS_MAX_POINTS] = { 0 };
    unsigned sides = 0;
    go_point_t ord[VIS_MAX_POINTS];
    int nin = 0, nout = 0;
    if (!ph || ph->geom.size != size || photo_outside(ph, outside, &sides) <= 0)
        memset(outside, 0, sizeof outside);
    for (int pass = 0; pass < 2; pass++) /* in the picture first, then outside it */
        for (int i = 0; i < n && nin < VIS_MAX_POINTS; i++)
            if (outside[GO_Y(left[i]) * size + GO_X(left[i])] == pass) {
                ord[nin++] = left[i];
                nout += pass;
            }
    size_t pos = 0;
    list[0] = '\0';
    if (nin > 0)
        go_point_human(size, ord[0], first);
    for (int i = 0; i < nin && i < COUNT_UNSURE_NAMED; i++) {
        char h[4];
        go_point_human(size, ord[i], h);
        pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", i ? " " : "", h);
    }
    if (nin > COUNT_UNSURE_NAMED)
        snprintf(list + pos, sizeof list - pos, " and %d more", nin - COUNT_UNSURE_NAMED);
    if (nout) {
        char edges[48];
        photo_sides_text(sides, edges, sizeof edges);
        char in[48] = "all";
        if (nout < n)
            snprintf(in, sizeof in, "%d covered or unclear; %d", n - nout, nout);
        snprintf(cut, sizeof cut, "%s outside the picture, which cuts the board at its %s: a "
                 "photo with the whole board in view reads them", in, edges);
    }
    cli_error(cmd, "%s: %d point%s the reader was unsure of (%s): %s; not counted: say what "
              "they are with --fix (e.g. --fix %s=B) or count them as empty with --unsure "
              "empty", image, n, n == 1 ? "" : "s", nout ? cut : "covered or unclear", list,
              first);
}

/* --picture of a count refused (a grid in doubt, unsure points left): the board as read,
 * no count, the unsure points ringed, beside the photo with its grid; said when it
 * cannot be written. Nothing when path is NULL. */
static void picture_uncounted(const char *cmd, const char *path, const count_state_t *st)
{
    if (!path)
        return;
    picture_in_t pin = { count_state_board(st), NULL, count_state_reading(st)->unsure,
                         count_state_photo(st) };
    char why[256];
    if (picture_write(path, &pin, why, sizeof why))
        cli_error(cmd, "%s: %s", path, why);
}

int count_main(const char *cmd, int argc, char **argv)
{
    count_opts_t o;
    photo_t ph;
    go_fixes_t *fx = NULL;
    go_dead_spec_t *dspec = NULL;
    count_state_t *st = NULL;
    count_params_t par;
    int rc;

    rc = parse_args(cmd, argc, argv, &o);
    if (rc >= 0)
        return rc;
    count_params_defaults(&par);
    if (go_rules_preset(o.rules ? o.rules : "chinese", &par.rules) != GO_OK) {
        cli_error(cmd, "unknown rules '%s' (kifucam %s --help lists them)", o.rules, cmd);
        return 2;
    }
    if (o.komi && sgf_parse_komi(o.komi, &par.komi2) != GO_OK) {
        cli_error(cmd, "--komi: '%s' is not a number", o.komi);
        return 2;
    }
    if (!o.komi)
        par.komi2 = go_rules_komi2(&par.rules, o.handicap);
    par.handicap = o.handicap;
    par.unsure = strcmp(o.unsure, "empty") ? GO_UNSURE_REFUSE : GO_UNSURE_EMPTY;
    if (o.prisoners) {
        if (go_prisoners_parse(o.prisoners, par.captures) != GO_OK) {
            cli_error(cmd, "--prisoners must be B=N,W=N (the stones each side captured), "
                      "not '%s'", o.prisoners);
            return 2;
        }
        par.prisoners_given = true;
    }
    char addr[128];
    web_config_t wc;
    web_config_defaults(&wc);
    if (o.serve && web_config_parse_listen(&wc, o.serve, addr, sizeof addr)) {
        cli_error(cmd, "--serve: '%s' is not ADDR:PORT", o.serve);
        return 2;
    }

    rc = photo_read(cmd, &o.photo, &ph);
    bool guessed = false;
    if (rc == 1 && o.serve && !o.photo.corners && !o.photo.calib) {
        rc = count_serve_guess(cmd, &o.photo, &ph);   /* no board: corners to drag */
        guessed = rc == 0;
    }
    if (rc) {
        photo_free(&ph);
        return rc;
    }
    rc = 2;
    int S = ph.geom.size;
    fx = calloc(1, sizeof *fx);
    dspec = malloc(sizeof *dspec);
    if (!fx || !dspec) {
        cli_error(cmd, "out of memory");
        goto out;
    }
    if (o.fix) {
        int off = 0, len = 0, frc = go_fixes_parse(S, o.fix, fx, &off, &len);
        int pp = 0;
        if (frc == GO_EINVAL && len > 0 && strchr(o.fix + off, '=') &&
            go_point_parse(S, o.fix + off, (int)(strchr(o.fix + off, '=') - (o.fix + off)),
                           &pp) == GO_OK) {
            cli_error(cmd, "%s: --fix: more than %d items", o.photo.image, GO_MAX_POINTS);
            goto out;
        }
        if (frc != GO_OK) {
            if (len == 0)
                cli_error(cmd, "%s: --fix: no point given (e.g. --fix \"Q16=B,D4=.,C3=W\")",
                          o.photo.image);
            else
                cli_error(cmd, "%s: --fix: '%.*s' is not POINT=COLOUR on this %dx%d board "
                          "(Q16 or pd; B, W or . for empty)", o.photo.image, len,
                          o.fix + off, S, S);
            goto out;
        }
    }
    {
        int off = 0, len = 0, prc = go_dead_spec_parse(S, o.dead, dspec, &off, &len);
        if (prc != GO_OK) {
            score_dead_parse_error(cmd, o.photo.image, S, o.dead, prc, off, len);
            goto out;
        }
    }
    int crc = count_state_create(cmd, &ph, &o.photo, &par, fx, dspec, &st);
    if (crc) {
        cli_error(cmd, "%s: %s", o.photo.image, count_strerror(crc));
        goto out;
    }
    if (count_state_dead_error(st) >= 0) {
        score_dead_apply_error(cmd, o.photo.image, count_state_board(st), dspec, o.dead,
                               count_state_dead_error(st));
        goto out;
    }
    if (o.serve) {
        count_serve_opts_t so;
        count_serve_opts_defaults(&so);
        wc.hosts = o.serve_host;   /* names the page may be reached by */
        so.web = &wc;
        so.sgf = o.sgf;
        so.json = !strcmp(o.format, "json");
        so.picture = o.picture;
        so.guessed = guessed;
        rc = count_serve(cmd, st, &so);
        goto out;
    }
    if (photo_grid_doubted(count_state_photo(st))) {
        /* a grid that may not be the board's: its count may be of the wrong points. The
         * board as read, for the arbiter to check the grid against the photo */
        picture_uncounted(cmd, o.picture, st);
        photo_say_grid_doubt(cmd, &o.photo, count_state_photo(st), "not counted");
        rc = 1;
        goto out;
    }
    if (count_state_pending(st)) {
        /* the board as read, the unsure points ringed, for the arbiter to settle them */
        int nleft = 0;
        const go_point_t *left = count_state_unsure(st, &nleft);
        picture_uncounted(cmd, o.picture, st);
        refuse_unsure(cmd, o.photo.image, S, left, nleft, count_state_photo(st));
        rc = 1;
        goto out;
    }
    if (o.picture) {
        picture_in_t pin = { count_state_board(st), count_state_score(st),
                             count_state_reading(st)->unsure, count_state_photo(st) };
        char why[256];
        if (picture_write(o.picture, &pin, why, sizeof why)) {
            cli_error(cmd, "%s: %s", o.picture, why);
            goto out;
        }
    }
    if (o.sgf) {   /* the record of the count, as Accept writes it */
        int arc = count_state_accept(st, o.sgf);
        if (arc) {
            cli_error(cmd, "%s: %s", o.sgf, count_strerror(arc));
            goto out;
        }
    }
    if (!strcmp(o.format, "json")) {
        json_t *obj = count_state_json(st, o.picture);
        if (obj && o.sgf)
            json_object_set_new(obj, "sgf", json_string(o.sgf));
        char *txt = obj ? json_dumps(obj, JSON_COMPACT | JSON_REAL_PRECISION(8)) : NULL;
        json_decref(obj);
        if (!txt) {
            cli_error(cmd, "out of memory");
            goto out;
        }
        printf("%s\n", txt);
        free(txt);
    } else {
        count_state_print_text(st, stdout, o.picture);
        if (o.sgf)
            printf("sgf: %s\n", o.sgf);
    }
    rc = 0;
out:
    count_state_destroy(st);
    free(dspec);
    free(fx);
    photo_free(&ph);
    return rc;
}

int cmd_count(int argc, char **argv)
{
    return count_main("count", argc, argv);
}
