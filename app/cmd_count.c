/* cmd_count.c: `kifucam count PHOTO` (INTERFACE.md): count a finished game from one photo,
 * as an arbiter does: read the position (photo.c, as `detect` reads it), settle the
 * points the reader was unsure of (go_reading.h), propose the dead stones and apply
 * people's calls (go_session_apply_dead), count under the rules, print the result
 * (score_out.c, as `score` prints it). `kifucam score PHOTO` runs the same (count_main).
 *
 *   kifucam count PHOTO [--size N] [--corners C] [--calib FILE] [--model FILE] [--debug DIR]
 *                       [--rules NAME] [--komi K] [--handicap N] [--dead auto|none|LIST|+P,-P]
 *                       [--fix POINT=COLOUR,...] [--unsure refuse|empty]
 *                       [--prisoners B=N,W=N] [--format text|json] [--picture FILE.png]
 *
 * Invariants: a point the reader was unsure of (covered, or under PHOTO_SURE_CONF) is
 * never counted as empty silently: unless --fix settles it or --unsure empty says so, the
 * count is refused, the points named in the Q16 form; the decisions (settling, dead
 * stones, the count) are rules/', this file parses options and prints.
 * Exit: 0 counted; 1 no board in the photo, or unsure points left (named on stderr,
 * nothing on stdout); 2 bad usage, an unreadable image, profile or model, a bad --fix,
 * --dead, --prisoners, --komi or --rules.
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
#include "rules/go_reading.h"
#include "rules/go_session.h"
#include "rules/sgf_game.h"

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
            "                     [--debug DIR] [--picture FILE.png]\n"
            "Count a finished game from one photo: read the position (as detect does), propose\n"
            "the dead stones, count under the rules, print the result as score does.\n"
            "  --size, --corners, --calib, --model, --debug   as kifucam detect\n"
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
               "Exit: 0 counted; 1 no board found, or unsure points left (named);\n"
               "      2 bad usage, an unreadable image, a bad --fix, --dead or --prisoners.\n");
}

/* The reading of the photo as rules/ wants it. */
static void reading_from(const photo_t *ph, go_reading_t *r)
{
    int S = ph->geom.size;
    memset(r, 0, sizeof *r);
    r->size = S;
    for (int k = 0; k < S * S; k++) {
        int c = ph->snap.color[k];
        r->color[k] = (uint8_t)(c == VIS_BLACK ? GO_BLACK : c == VIS_WHITE ? GO_WHITE : GO_EMPTY);
        r->unsure[k] = (uint8_t)photo_unsure(ph, k);
    }
}

static const char *colour_word(go_color_t c)
{
    return c == GO_BLACK ? "black" : c == GO_WHITE ? "white" : "empty";
}

typedef struct count_opts {
    photo_opts_t photo;
    const char *rules, *komi, *dead, *format, *fix, *unsure, *prisoners, *picture;
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
                            : !strcmp(a, "--picture") ? &o->picture : NULL;
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
    return -1;
}

/* Refuse the count in one line: the unsure points, in the Q16 form. */
static void refuse_unsure(const char *cmd, const char *image, int size, const go_point_t *left,
                          int n)
{
    char list[COUNT_UNSURE_NAMED * 5 + 64], first[4] = "Q16";
    size_t pos = 0;
    list[0] = '\0';
    if (n > 0)
        go_point_human(size, left[0], first);
    for (int i = 0; i < n && i < COUNT_UNSURE_NAMED; i++) {
        char h[4];
        go_point_human(size, left[i], h);
        pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", i ? " " : "", h);
    }
    if (n > COUNT_UNSURE_NAMED)
        snprintf(list + pos, sizeof list - pos, " and %d more", n - COUNT_UNSURE_NAMED);
    cli_error(cmd, "%s: %d point%s the reader was unsure of (covered or unclear): %s; not "
              "counted: say what they are with --fix (e.g. --fix %s=B) or count them as "
              "empty with --unsure empty", image, n, n == 1 ? "" : "s", list, first);
}

int count_main(const char *cmd, int argc, char **argv)
{
    count_opts_t o;
    photo_t ph;
    go_reading_t *rd = NULL;
    go_fixes_t *fx = NULL;
    go_dead_spec_t *dspec = NULL;
    go_board_t *b = NULL;
    go_session_t *sess = NULL;
    go_score_t *sc = NULL;
    go_point_t left[GO_MAX_POINTS];
    go_rules_t rules;
    go_score_params_t par;
    int nleft = 0, komi2 = 0, rc, prisoners_given = 0;

    rc = parse_args(cmd, argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (go_rules_preset(o.rules ? o.rules : "chinese", &rules) != GO_OK) {
        cli_error(cmd, "unknown rules '%s' (kifucam %s --help lists them)", o.rules, cmd);
        return 2;
    }
    if (o.komi && sgf_parse_komi(o.komi, &komi2) != GO_OK) {
        cli_error(cmd, "--komi: '%s' is not a number", o.komi);
        return 2;
    }
    if (!o.komi)
        komi2 = go_rules_komi2(&rules, o.handicap);
    memset(&par, 0, sizeof par);
    if (o.prisoners) {
        if (go_prisoners_parse(o.prisoners, par.captures) != GO_OK) {
            cli_error(cmd, "--prisoners must be B=N,W=N (the stones each side captured), "
                      "not '%s'", o.prisoners);
            return 2;
        }
        prisoners_given = 1;
    }

    rc = photo_read(cmd, &o.photo, &ph);
    if (rc) {
        photo_free(&ph);
        return rc;
    }
    rc = 2;
    int S = ph.geom.size;
    rd = malloc(sizeof *rd);
    fx = calloc(1, sizeof *fx);
    dspec = malloc(sizeof *dspec);
    b = malloc(sizeof *b);
    sc = malloc(sizeof *sc);
    if (!rd || !fx || !dspec || !b || !sc) {
        cli_error(cmd, "out of memory");
        goto out;
    }
    reading_from(&ph, rd);
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
    int src = go_reading_settle(rd, fx, strcmp(o.unsure, "empty") ? GO_UNSURE_REFUSE
                                                                  : GO_UNSURE_EMPTY,
                                b, left, &nleft);
    if (src == GO_EUNSURE) {
        /* the board as read, the unsure points ringed, for the arbiter to settle them */
        go_point_t left2[GO_MAX_POINTS];
        int n2 = 0;
        if (o.picture && go_reading_settle(rd, fx, GO_UNSURE_EMPTY, b, left2, &n2) == GO_OK) {
            picture_in_t pin = { b, NULL, rd->unsure, &ph };
            char why[256];
            if (picture_write(o.picture, &pin, why, sizeof why))
                cli_error(cmd, "%s: %s", o.picture, why);
        }
        refuse_unsure(cmd, o.photo.image, S, left, nleft);
        rc = 1;
        goto out;
    }
    if (src != GO_OK) {
        cli_error(cmd, "%s: %s", o.photo.image, go_strerror(src));
        goto out;
    }

    par.komi2 = komi2;
    par.handicap = o.handicap;
    sess = go_session_create(b, &rules, &par);
    if (!sess) {
        cli_error(cmd, "out of memory");
        goto out;
    }
    {
        int bad = 0, drc = go_session_apply_dead(sess, dspec, &bad);
        if (drc == GO_EINVAL) {
            score_dead_apply_error(cmd, o.photo.image, b, dspec, o.dead, bad);
            goto out;
        }
        if (drc != GO_OK) {
            cli_error(cmd, "out of memory");
            goto out;
        }
    }
    if (go_session_score(sess, sc) != GO_OK) {
        cli_error(cmd, "%s: cannot count this position", o.photo.image);
        goto out;
    }

    if (o.picture) {
        picture_in_t pin = { b, sc, rd->unsure, &ph };
        char why[256];
        if (picture_write(o.picture, &pin, why, sizeof why)) {
            cli_error(cmd, "%s: %s", o.picture, why);
            goto out;
        }
    }
    score_report_t rr = { &rules, komi2, o.handicap, b, sc, sess, dspec->mode == GO_DEAD_AUTO,
                          false };
    int nb = 0, nw = 0;
    for (int k = 0; k < S * S; k++) {
        nb += b->color[GO_PT(k % S, k / S)] == GO_BLACK;
        nw += b->color[GO_PT(k % S, k / S)] == GO_WHITE;
    }
    bool territory = rules.scoring == GO_SCORING_TERRITORY;
    if (!strcmp(o.format, "json")) {
        json_t *obj = score_json(&rr), *p = json_object(), *a;
        if (!obj || !p) {
            json_decref(obj);
            json_decref(p);
            cli_error(cmd, "out of memory");
            goto out;
        }
        json_object_set_new(p, "image", json_string(o.photo.image));
        a = json_array();
        for (int k = 0; k < 4; k++) {
            json_t *c = json_array();
            json_array_append_new(c, json_real((int)(ph.geom.corners[k][0] * 100) / 100.0));
            json_array_append_new(c, json_real((int)(ph.geom.corners[k][1] * 100) / 100.0));
            json_array_append_new(a, c);
        }
        json_object_set_new(p, "corners", a);
        json_object_set_new(p, "black", json_integer(nb));
        json_object_set_new(p, "white", json_integer(nw));
        a = json_array();
        for (int i = 0; i < fx->n; i++) {
            json_t *e = json_object();
            char pt[3];
            go_point_to_sgf(fx->fix[i].point, pt);
            json_object_set_new(e, "point", json_string(pt));
            json_object_set_new(e, "color", json_string(fx->fix[i].color == GO_BLACK ? "B"
                                                        : fx->fix[i].color == GO_WHITE ? "W"
                                                                                       : "."));
            json_array_append_new(a, e);
        }
        json_object_set_new(p, "fixed", a);
        a = json_array();
        for (int i = 0; i < nleft; i++) {
            char pt[3];
            go_point_to_sgf(left[i], pt);
            json_array_append_new(a, json_string(pt));
        }
        json_object_set_new(p, "unsure_empty", a);
        json_object_set_new(p, "prisoners_given", json_boolean(prisoners_given));
        if (o.picture)
            json_object_set_new(p, "picture", json_string(o.picture));
        json_object_set_new(obj, "photo", p);
        char *txt = json_dumps(obj, JSON_COMPACT | JSON_REAL_PRECISION(8));
        json_decref(obj);
        if (!txt) {
            cli_error(cmd, "out of memory");
            goto out;
        }
        printf("%s\n", txt);
        free(txt);
    } else {
        score_print_text(stdout, &rr);
        printf("photo: %s, %dx%d, %d black and %d white stone%s as counted\n", o.photo.image,
               S, S, nb, nw, nw == 1 ? "" : "s");
        if (fx->n) {
            printf("fixed:");
            for (int i = 0; i < fx->n; i++) {
                char h[4];
                go_point_human(S, fx->fix[i].point, h);
                printf("%s %s %s", i ? "," : "", h, colour_word(fx->fix[i].color));
            }
            printf("\n");
        }
        if (nleft) {
            printf("unsure: %d point%s counted as empty (--unsure empty):", nleft,
                   nleft == 1 ? "" : "s");
            for (int i = 0; i < nleft; i++) {
                char h[4];
                go_point_human(S, left[i], h);
                printf(" %s", h);
            }
            printf("\n");
        }
        if (territory && !prisoners_given)
            printf("prisoners: none given (a photo shows none; --prisoners B=N,W=N)\n");
        if (o.picture)
            printf("picture: %s\n", o.picture);
    }
    rc = 0;
out:
    go_session_destroy(sess);
    free(sc);
    free(b);
    free(dspec);
    free(fx);
    free(rd);
    photo_free(&ph);
    return rc;
}

int cmd_count(int argc, char **argv)
{
    return count_main("count", argc, argv);
}
