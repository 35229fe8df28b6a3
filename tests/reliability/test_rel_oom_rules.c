/* test_rel_oom_rules.c: fault injection on the rules and SGF paths. Every wrapped
 * allocation (malloc, calloc, realloc, strdup; oomhook.h) of an operation is failed in
 * turn, n = 1, 2, 3, ... until the operation runs without hitting the failure. Each
 * failure must come back as GO_ENOMEM (never a crash; ASan's leak checker at exit proves
 * it was unwound), leave the state as the contract says (a game: unchanged; a record on
 * disk: the last good one intact), and the operation must then succeed when retried.
 * Paths: game creation; a long game (handicap, setup, strict and tolerant moves, undo,
 * passes: every array and the superko set grow); a collection parsed from a file, every
 * game replayed, written back safely to disk; a long game written as SGF.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oomhook.h"
#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

/* ---- a scripted long game ---- */

enum { OP_PLAY, OP_TOLERANT, OP_PASS, OP_UNDO, OP_SETUP };
typedef struct { int op; go_color_t c; int p; } step_t;
#define MAX_STEPS 400
static step_t script[MAX_STEPS];
static int nscript;

/* Deterministic, legal under chinese rules: a 19x19 game of ~260 steps. */
static void make_script(void)
{
    go_rules_t ru;
    assert_int_equal(go_rules_preset("chinese", &ru), GO_OK);
    go_game_t *g = go_game_create(19, &ru);
    assert_non_null(g);
    assert_int_equal(go_game_handicap(g, 4), GO_OK);
    uint32_t seed = 12345;
    nscript = 0;
    int tries = 0;
    while (nscript < 260 && tries < 200000) {
        tries++;
        seed = seed * 1103515245u + 12345u;
        int x = (int)((seed >> 8) % 19), y = (int)((seed >> 16) % 19);
        int p = GO_PT(x, y);
        go_color_t c = go_game_turn(g);
        step_t s = { OP_PLAY, c, p };
        if (nscript % 41 == 40) {
            s.op = OP_UNDO;
            assert_int_equal(go_game_undo(g), GO_OK);
        } else if (nscript % 53 == 52) {
            s.op = OP_PASS;
            s.p = GO_PASS;
            assert_int_equal(go_game_pass(g, c, false), GO_OK);
        } else if (nscript == 100) {
            s.op = OP_SETUP;                /* a mid-game setup: clear a point */
            int q = go_game_move(g, 90)->point;
            if (go_game_board(g)->color[q] == GO_EMPTY)
                continue;
            s.p = q;
            s.c = GO_EMPTY;
            go_point_t pt = (go_point_t)q;
            assert_int_equal(go_game_setup(g, GO_EMPTY, &pt, 1), GO_OK);
        } else {
            if (go_game_legal(g, c, p) != GO_OK)
                continue;
            if (nscript % 7 == 3)
                s.op = OP_TOLERANT;
            int why;
            assert_int_equal(s.op == OP_PLAY ? go_game_play(g, c, p)
                                             : go_game_play_tolerant(g, c, p, &why), GO_OK);
        }
        script[nscript++] = s;
    }
    assert_int_equal(nscript, 260);
    go_game_destroy(g);
}

static int run_step(go_game_t *g, const step_t *s)
{
    int why;
    go_point_t pt = (go_point_t)s->p;
    switch (s->op) {
    case OP_PLAY: return go_game_play(g, s->c, s->p);
    case OP_TOLERANT: return go_game_play_tolerant(g, s->c, s->p, &why);
    case OP_PASS: return go_game_pass(g, s->c, false);
    case OP_UNDO: return go_game_undo(g);
    default: return go_game_setup(g, s->c, &pt, 1);
    }
}

typedef struct {
    int moves, hlen, turn, passes;
    uint64_t hash, last;
    int prisoners[3];
} gstate_t;

static gstate_t game_state(const go_game_t *g)
{
    gstate_t s;
    memset(&s, 0, sizeof s);
    s.moves = go_game_move_count(g);
    s.hlen = go_game_history_len(g);
    s.turn = go_game_turn(g);
    s.passes = go_game_consecutive_passes(g);
    s.hash = go_game_board(g)->hash;
    s.last = go_game_history_hash(g, s.hlen - 1);
    memcpy(s.prisoners, go_game_board(g)->prisoners, sizeof s.prisoners);
    return s;
}

static go_game_t *new_game(void)
{
    go_rules_t ru;
    assert_int_equal(go_rules_preset("chinese", &ru), GO_OK);
    go_game_t *g = go_game_create(19, &ru);
    assert_non_null(g);
    return g;
}

/* The script's game: 4 handicap stones, then every step (the script made first if no
 * test has made it). */
static go_game_t *script_game(void)
{
    if (!nscript)
        make_script();
    go_game_t *g = new_game();
    assert_int_equal(go_game_handicap(g, 4), GO_OK);
    for (int i = 0; i < nscript; i++)
        assert_int_equal(run_step(g, &script[i]), GO_OK);
    return g;
}

static void test_game_create(void **state)
{
    (void)state;
    go_rules_t ru;
    assert_int_equal(go_rules_preset("japanese", &ru), GO_OK);
    long n;
    for (n = 1;; n++) {
        oom_arm(n);
        go_game_t *g = go_game_create(19, &ru);
        oom_disarm();
        if (!oom_hit) {
            assert_non_null(g);
            go_game_destroy(g);
            break;
        }
        assert_null(g);
    }
    print_message("go_game_create: %ld allocation points\n", n - 1);
    assert_true(n > 1);
}

/* Replay the script; the n-th allocation from the start fails. The step that meets it
 * must say GO_ENOMEM and change nothing; retried, it succeeds. */
static void test_long_game(void **state)
{
    (void)state;
    make_script();
    go_game_t *ref = script_game();
    gstate_t want = game_state(ref);
    go_game_destroy(ref);

    long n;
    int failures = 0;
    for (n = 1;; n++) {
        go_game_t *g = new_game();
        oom_arm(n);
        int rc = go_game_handicap(g, 4);
        if (rc == GO_ENOMEM) {
            assert_true(oom_hit);
            assert_int_equal(go_game_move_count(g), 0);
            assert_int_equal(go_game_handicap_count(g), 0);
            rc = go_game_handicap(g, 4);
            failures++;
        }
        assert_int_equal(rc, GO_OK);
        for (int i = 0; i < nscript; i++) {
            gstate_t before = game_state(g);
            int hit_before = oom_hit;
            rc = run_step(g, &script[i]);
            if (rc == GO_ENOMEM) {
                assert_true(oom_hit && !hit_before);
                gstate_t after = game_state(g);
                assert_memory_equal(&before, &after, sizeof before);
                assert_int_equal(go_game_check(g), GO_OK);
                failures++;
                rc = run_step(g, &script[i]);
            }
            assert_int_equal(rc, GO_OK);
        }
        oom_disarm();
        assert_int_equal(go_game_check(g), GO_OK);
        gstate_t got = game_state(g);
        assert_memory_equal(&got, &want, sizeof got);
        go_game_destroy(g);
        if (!oom_hit)
            break;
    }
    print_message("long game (%d steps): %ld allocation points, %d refused with GO_ENOMEM\n",
                  nscript, n - 1, failures);
    assert_int_equal(failures, n - 1);
}

/* ---- a collection: parse a file, replay every game, write it back safely ---- */

static const char FIXED[] =
    "(;FF[4]CA[GB2312]SZ[9]KM[6.5]RU[Japanese]PB[\xc4\xe3\xba\xc3]AB[aa:bb]AW[ii]"
    ";W[ee];B[dc];W[ec];B[cd];W[dd];B[de](;W[ed];B[fd])(;W[fe]))\n"
    "(;FF[4]SZ[13]HA[2]AB[dd][jj]PL[W];W[gg];B[gh];W[hh]AE[dd]C[setup in mid-game \\] esc]"
    ";B[dd];W[dd];B[];W[])\n"
    "(;GM[1]FF[3]SZ[5]RU[AGA];B[cc];W[bc];B[bb];W[cb];B[db];W[ca];B[cd];W[bd];B[ba];W[da];"
    "B[ac];W[bc])\n";

typedef struct {
    int games, moves, illegal;
} coll_result_t;

static char dir[64], path[96];

static int collection_op(coll_result_t *res)
{
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    int rc = sgf_parse_file(path, NULL, &c, &e);
    if (rc)
        return rc;
    coll_result_t r = { c->ngames, 0, 0 };
    for (int i = 0; i < c->ngames; i++) {
        sgf_replay_t rp;
        rc = sgf_replay(c->games[i], NULL, &rp, &e);
        if (rc) {
            assert_null(rp.game);
            sgf_collection_destroy(c);
            return rc;
        }
        assert_int_equal(go_game_check(rp.game), GO_OK);
        r.moves += rp.nmoves;
        r.illegal += rp.nillegal;
        sgf_replay_fini(&rp);
    }
    rc = sgf_write_file(c, path);
    sgf_collection_destroy(c);
    if (rc == 0)
        *res = r;
    return rc;
}

static void test_collection(void **state)
{
    (void)state;
    /* the file: the fixed games and the long game of the script, as SGF */
    go_game_t *g = script_game();
    char *long_text = NULL;
    size_t long_len;
    assert_int_equal(sgf_game_text(g, NULL, &long_text, &long_len), 0);
    go_game_destroy(g);
    snprintf(dir, sizeof dir, "/tmp/kc-rel-oom-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/games.sgf", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(FIXED, 1, sizeof FIXED - 1, f);
    fwrite(long_text, 1, long_len, f);
    fclose(f);
    free(long_text);

    /* one good pass: the reference, and the file in its written form */
    coll_result_t want;
    assert_int_equal(collection_op(&want), 0);
    assert_int_equal(want.games, 4);
    size_t good_len;
    char *good = kc_slurp(path, &good_len);
    assert_non_null(good);

    long n;
    for (n = 1;; n++) {
        coll_result_t got = { 0, 0, 0 };
        oom_arm(n);
        int rc = collection_op(&got);
        oom_disarm();
        if (!oom_hit) {
            assert_int_equal(rc, 0);
            assert_memory_equal(&got, &want, sizeof got);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
        size_t len;
        char *now = kc_slurp(path, &len);    /* the last good record is intact */
        assert_non_null(now);
        assert_int_equal(len, good_len);
        assert_memory_equal(now, good, len);
        free(now);
    }
    print_message("collection (%d games, %d moves): %ld allocation points\n", want.games,
                  want.moves, n - 1);
    assert_true(n > 10);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unlink(tmp);
    unlink(path);
    rmdir(dir);
    free(good);
}

/* A long game written as SGF (collection built node by node, then text). */
static void test_game_to_sgf(void **state)
{
    (void)state;
    go_game_t *g = script_game();
    assert_int_equal(go_game_resign(g, GO_WHITE), GO_OK);
    sgf_header_t h;
    memset(&h, 0, sizeof h);
    h.black = "Black";
    h.white = "White";
    h.date = "2026-11-30";
    char *want = NULL;
    size_t want_len;
    assert_int_equal(sgf_game_text(g, &h, &want, &want_len), 0);
    long n;
    for (n = 1;; n++) {
        char *t = NULL;
        size_t len = 0;
        oom_arm(n);
        int rc = sgf_game_text(g, &h, &t, &len);
        oom_disarm();
        if (!oom_hit) {
            assert_int_equal(rc, 0);
            assert_int_equal(len, want_len);
            assert_memory_equal(t, want, len);
            free(t);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
        assert_null(t);
    }
    print_message("game -> SGF (%d moves): %ld allocation points\n", go_game_move_count(g), n - 1);
    assert_non_null(strstr(want, "RE[B+R]"));
    free(want);
    go_game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_create),
        cmocka_unit_test(test_long_game),
        cmocka_unit_test(test_collection),
        cmocka_unit_test(test_game_to_sgf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
