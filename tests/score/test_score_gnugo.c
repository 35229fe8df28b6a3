/* test_score_gnugo.c: GNU Go's regressions, read from ../shared/data/games/gnugo-regression
 * (skipped visibly when absent). The .tst files are GTP scripts: `loadsgf FILE [N]`
 * (replay the main line, stopping before move N), `boardsize N`, `clear_board`,
 * `play COLOR VERTEX`, `undo`, then a
 * command and its expected answer on a `#? [answer]` line (a trailing `*` marks a case GNU
 * Go itself fails). Here:
 *  - unconditional.tst: `unconditional_status V` against go_life_unconditional
 *    (alive / dead / black_territory / white_territory / undecided);
 *  - score.tst, score2.tst: `final_score` against go_life_propose + go_score_count under
 *    the Japanese rules (GNU Go's default; with their ko rule, ko_dead), the game's komi
 *    and captures.
 * Each asserts a minimum pass count (the figure reached) and prints the counts. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_game.h"
#include "rules/go_life.h"
#include "rules/go_score.h"
#include "rules/go_session.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

/* The pass counts reached (the test fails below them). Score cases: 48 (47 for a while
 * when the proposal began to play more playouts where a stone is unsure; back to 48 with
 * small eye spaces, up to five points, left open to the opponent in the playouts; 51 with
 * the reading and the 55% dead share; 52 with the eyes of a seki group joining its chains). */
#ifndef KC_MIN_UNCOND
#define KC_MIN_UNCOND 673
#endif
#ifndef KC_MIN_SCORE
#define KC_MIN_SCORE 52
#endif

typedef struct gtp_state {
    go_game_t *g;
    int komi2;
    char dir[1024];
} gtp_state_t;

/* Replay the main line of an SGF file, stopping before move `until` (0: play all). */
static go_game_t *load_sgf(const char *path, int until, int *komi2)
{
    sgf_collection_t *c = NULL;
    sgf_error_t err;
    go_rules_t rules;
    go_game_t *g;
    const sgf_node_t *root, *n;
    const char *v;
    int size = 19, moves = 0;
    if (sgf_parse_file(path, NULL, &c, &err) != 0)
        return NULL;
    root = c->games[0];
    if ((v = sgf_node_value(root, "SZ")))
        size = atoi(v);
    *komi2 = 0;
    if ((v = sgf_node_value(root, "KM")))
        sgf_parse_komi(v, komi2);
    go_rules_preset("japanese", &rules);
    g = go_game_create(size, &rules);
    if (!g) {
        sgf_collection_destroy(c);
        return NULL;
    }
    for (n = root; n; n = n->child) {
        for (int i = 0; i < n->nprops; i++) {
            const sgf_prop_t *p = &n->props[i];
            go_color_t col;
            if (!strcmp(p->key, "AB") || !strcmp(p->key, "AW") || !strcmp(p->key, "AE")) {
                col = p->key[1] == 'B' ? GO_BLACK : p->key[1] == 'W' ? GO_WHITE : GO_EMPTY;
                for (int k = 0; k < p->nvalues; k++) {
                    go_point_t pt;
                    int q = go_point_from_sgf(size, p->values[k], (int)p->lens[k]);
                    if (q <= 0)
                        continue;
                    pt = (go_point_t)q;
                    go_game_setup(g, col, &pt, 1);
                }
            } else if (!strcmp(p->key, "B") || !strcmp(p->key, "W")) {
                int q;
                col = p->key[0] == 'B' ? GO_BLACK : GO_WHITE;
                moves++;
                if (until && moves >= until)
                    goto done;
                q = go_point_from_sgf(size, p->values[0], (int)p->lens[0]);
                if (q == GO_PASS)
                    go_game_pass(g, col, true);
                else if (q > 0)
                    go_game_play_tolerant(g, col, q, NULL);
            }
        }
    }
done:
    sgf_collection_destroy(c);
    return g;
}

/* GTP vertex ("D4", "T19") to a point; 0 when unreadable. */
static int vertex(int size, const char *s)
{
    int x, y;
    char ch = (char)toupper((unsigned char)s[0]);
    if (ch < 'A' || ch > 'Z' || ch == 'I')
        return 0;
    x = ch - 'A' - (ch > 'I');
    y = size - atoi(s + 1);
    if (x < 0 || x >= size || y < 0 || y >= size)
        return 0;
    return GO_PT(x, y);
}

static const char *uc_name(int s)
{
    switch (s) {
    case GO_UC_ALIVE: return "alive";
    case GO_UC_DEAD: return "dead";
    case GO_UC_BLACK_TERRITORY: return "black_territory";
    case GO_UC_WHITE_TERRITORY: return "white_territory";
    default: return "undecided";
    }
}

/* Run one .tst file: counts cases and passes of the command `cmd`. verbose: print
 * the failures. */
static void run_tst(const char *data, const char *tst, const char *cmd, int *cases,
                    int *passes, int verbose)
{
    char path[2048], line[1024], answer[256] = "", lastcmd[256] = "";
    gtp_state_t st;
    FILE *f;
    int pending = 0;
    memset(&st, 0, sizeof st);
    snprintf(path, sizeof path, "%s/games/gnugo-regression/%s", data, tst);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        char *s = line, w1[256], w2[512], w3[256];
        int nw;
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(s, "#?", 2)) {
            char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;
            if (a && !b)   /* a few answers lack the closing bracket */
                b = a + strlen(a);
            if (pending && a && b) {
                char want[256];
                int k = 0;
                for (char *t = a + 1; t < b && k < 255; t++)
                    if (*t != '\\')
                        want[k++] = *t;
                want[k] = 0;
                (*cases)++;
                if (!strcmp(want, answer) || (!strcmp(want, "undecided") && !strcmp(answer, "undecided")))
                    (*passes)++;
                else if (verbose)
                    print_message("  %s %s: got %s want %s\n", tst, lastcmd, answer, want);
            }
            pending = 0;
            continue;
        }
        if (s[0] == '#' || !s[0])
            continue;
        nw = sscanf(s, "%255s %511s %255s", w1, w2, w3);
        if (nw >= 2 && !strcmp(w1, "loadsgf")) {
            char sgf[2048];
            go_game_destroy(st.g);
            snprintf(sgf, sizeof sgf, "%s/games/gnugo-regression/%s", data, w2);
            st.g = load_sgf(sgf, nw >= 3 ? atoi(w3) : 0, &st.komi2);
            continue;
        }
        if (nw >= 2 && !strcmp(w1, "boardsize")) {
            go_rules_t r;
            go_rules_preset("japanese", &r);
            go_game_destroy(st.g);
            st.g = go_game_create(atoi(w2), &r);
            st.komi2 = 0;
            continue;
        }
        if (nw >= 1 && !strcmp(w1, "clear_board") && st.g) {
            go_rules_t r;
            int size = go_game_board(st.g)->size;
            go_rules_preset("japanese", &r);
            go_game_destroy(st.g);
            st.g = go_game_create(size, &r);
            continue;
        }
        if (!st.g) {
            /* the game did not load (two score cases name games absent from the data):
             * the case counts, and fails */
            if (nw >= 2 && isdigit((unsigned char)w1[0]) && !strcmp(w2, cmd)) {
                snprintf(lastcmd, sizeof lastcmd, "%.200s", s);
                snprintf(answer, sizeof answer, "(no game)");
                pending = 1;
            }
            continue;
        }
        if (nw >= 3 && !strcmp(w1, "play")) {
            go_color_t c = tolower((unsigned char)w2[0]) == 'b' ? GO_BLACK : GO_WHITE;
            int p = vertex(go_game_board(st.g)->size, w3);
            if (p)
                go_game_play_tolerant(st.g, c, p, NULL);
            else
                go_game_pass(st.g, c, true);
            continue;
        }
        if (nw >= 1 && !strcmp(w1, "undo")) {
            go_game_undo(st.g);
            continue;
        }
        /* numbered command: "N cmd args" */
        if (nw >= 2 && isdigit((unsigned char)w1[0]) && !strcmp(w2, cmd)) {
            const go_board_t *b = go_game_board(st.g);
            snprintf(lastcmd, sizeof lastcmd, "%.200s", s);
            pending = 1;
            if (!strcmp(cmd, "unconditional_status")) {
                uint8_t status[GO_CELLS];
                int p = vertex(b->size, w3);
                go_life_unconditional(b, status);
                snprintf(answer, sizeof answer, "%s", uc_name(p ? status[p] : 0));
            } else {
                go_rules_t r;
                go_score_t sc;
                go_rules_preset("japanese", &r);
                go_life_options_t lo = go_life_defaults();
                lo.ko_dead = 1;   /* the Japanese rules, as the session proposes under them */
                lo.to_move = go_game_turn(st.g);   /* the side to move, as kifucam score */
                /* the session, as `kifucam score` and the station count (no dead-stone
                 * call on a border left open) */
                go_session_t *sess = go_session_for_game(st.g, &r, st.komi2, 0, false);
                assert_non_null(sess);
                assert_int_equal(go_session_propose(sess, &lo), GO_OK);
                assert_int_equal(go_session_score(sess, &sc), GO_OK);
                go_session_destroy(sess);
                snprintf(answer, sizeof answer, "%s", sc.re);
            }
        }
    }
    go_game_destroy(st.g);
    fclose(f);
}

static int verbose(void)
{
    return getenv("KC_VERBOSE") != NULL;
}

static void test_unconditional(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    int cases = 0, passes = 0;
    run_tst(data, "unconditional.tst", "unconditional_status", &cases, &passes, verbose());
    print_message("unconditional.tst: %d of %d pass (GNU Go 3.8: 673 of 673)\n", passes, cases);
    assert_int_equal(cases, 673);
    assert_true(passes >= KC_MIN_UNCOND);
}

static void test_final_score(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    int cases = 0, passes = 0;
    run_tst(data, "score.tst", "final_score", &cases, &passes, verbose());
    run_tst(data, "score2.tst", "final_score", &cases, &passes, verbose());
    print_message("score.tst + score2.tst: %d of %d pass (GNU Go 3.8: 52 of 57)\n", passes,
                  cases);
    assert_int_equal(cases, 57);
    assert_true(passes >= KC_MIN_SCORE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unconditional),
        cmocka_unit_test(test_final_score),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
