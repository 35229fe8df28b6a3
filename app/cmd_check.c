/* cmd_check.c: `kifucam check GAME.sgf... [--rules NAME] [--charset CS]` (INTERFACE.md).
 *
 * Streams every game tree of every file (sgf_parse_each: one tree in memory at a time),
 * replays its main line tolerantly (sgf_replay) and prints one line per illegal move:
 *   FILE:GAME: move N (B Q16): reason
 * GAME is the 1-based index of the game tree in its file; the point is in the human form
 * for the game's size (go_point_human: people read this line, the file keeps B[pd]). The last line on stdout is
 *   checked G games, M moves, I illegal
 * Errors go to stderr as FILE:line:col: message. Exit 2 when any file could not be read or
 * parsed (the other files are still checked), else 1 when any move is illegal, else 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "rules/go_point.h"
#include "rules/go_rules.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

typedef struct check_ctx {
    const char *file;
    const sgf_opts_t *opts;
    const go_rules_t *rules;   /* NULL: each game's RU[] */
    long games, moves, illegal;
    int errors;
} check_ctx_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam check GAME.sgf... [--rules NAME] [--charset CS]\n"
            "Replay every game of every file (collections too) and list the illegal moves.\n"
            "  --rules NAME  judge under these rules instead of each game's RU[] (default\n"
            "                chinese when RU[] is absent):");
    for (int i = 0; go_rules_names[i]; i++)
        fprintf(f, " %s", go_rules_names[i]);
    fprintf(f, "\n"
               "  --charset CS  charset of files without CA[] (e.g. CP949 for Korean server\n"
               "                records; default: UTF-8 when valid, else GB18030, else Latin-1)\n"
               "Output: one line per illegal move, FILE:GAME: move N (B Q16): reason\n"
               "        then: checked G games, M moves, I illegal\n"
               "Exit: 0 all legal, 1 some illegal, 2 bad usage or unreadable/malformed file.\n");
}

static int on_game(void *vctx, const sgf_node_t *root, int index, const char *charset)
{
    check_ctx_t *cx = vctx;
    (void)charset;
    sgf_replay_opts_t ro = { cx->rules, false };
    sgf_replay_t r;
    sgf_error_t e;
    int rc = sgf_replay(root, &ro, &r, &e);
    cx->games++;
    if (rc) {
        fprintf(stderr, "%s:%d:%d: game %d: %s\n", cx->file, e.line, e.col, index + 1,
                e.msg[0] ? e.msg : sgf_strerror(rc));
        cx->errors++;
        return 0;
    }
    cx->moves += r.nmoves;
    cx->illegal += r.nillegal;
    for (int i = 0; i < r.nillegal; i++) {
        const sgf_illegal_t *m = &r.illegal[i];
        char pt[4];
        go_point_human(r.size, m->point, pt);
        printf("%s:%d: move %d (%c %s): %s\n", cx->file, index + 1, m->move,
               m->color == GO_BLACK ? 'B' : 'W', m->point == GO_PASS ? "pass" : pt,
               go_strerror(m->reason));
    }
    sgf_replay_fini(&r);
    return 0;
}

static int check_file(check_ctx_t *cx, const char *path)
{
    char *buf = NULL;
    size_t n = 0;
    sgf_error_t e;
    if (sgf_read_file(path, cx->opts, &buf, &n, &e) != 0) {
        fprintf(stderr, "%s:0:0: %s\n", path, e.msg[0] ? e.msg : sgf_strerror(e.code));
        return -1;
    }
    cx->file = path;
    int rc = sgf_parse_each(buf, n, cx->opts, on_game, cx, &e);
    free(buf);
    if (rc) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, e.line, e.col, e.msg[0] ? e.msg : sgf_strerror(rc));
        return -1;
    }
    return 0;
}

int cmd_check(int argc, char **argv)
{
    go_rules_t rules;
    const go_rules_t *rp = NULL;
    sgf_opts_t opts;
    sgf_opts_defaults(&opts);
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--rules") || !strncmp(argv[i], "--rules=", 8)) {
            const char *name = argv[i][7] == '=' ? argv[i] + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!name) {
                cli_error("check", "--rules needs a name (kifucam check --help)");
                return 2;
            }
            if (go_rules_preset(name, &rules) != GO_OK) {
                cli_error("check", "unknown rules '%s' (kifucam check --help lists them)", name);
                return 2;
            }
            rp = &rules;
        } else if (!strcmp(argv[i], "--charset") || !strncmp(argv[i], "--charset=", 10)) {
            const char *cs = argv[i][9] == '=' ? argv[i] + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!cs || !*cs) {
                cli_error("check", "--charset needs a name (kifucam check --help)");
                return 2;
            }
            opts.charset = cs;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("check", "unknown option '%s' (kifucam check --help)", argv[i]);
            return 2;
        } else {
            nfiles++;
        }
    }
    if (!nfiles) {
        cli_error("check", "no SGF file given (kifucam check --help)");
        return 2;
    }
    check_ctx_t cx = { NULL, &opts, rp, 0, 0, 0, 0 };
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rules") || !strcmp(argv[i], "--charset")) {
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        if (check_file(&cx, argv[i]))
            failed++;
    }
    printf("checked %ld games, %ld moves, %ld illegal\n", cx.games, cx.moves, cx.illegal);
    fflush(stdout);
    if (failed || cx.errors)
        return 2;
    return cx.illegal ? 1 : 0;
}
