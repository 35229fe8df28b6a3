/* test_sgf_tygem.c: the 15,473 tygem records of ../shared/data (skipped, visibly, when
 * absent): 0 illegal moves under the Korean rules; under the Chinese rules only
 * positional-superko repetitions; a read -> write -> read round trip of one whole file. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_board.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

static const char *const FILES[] = { "Kifu2005-11.sgf", "Kifu2005-12.sgf", "Kifu2006-01.sgf" };

/* The tygem file `name` of the shared data in dir, whole (malloc'd). */
static char *tygem_file(const char *dir, const char *name, size_t *len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/games/tygem/%s", dir, name);
    char *buf = kc_slurp(path, len);
    assert_non_null(buf);
    return buf;
}

typedef struct tally {
    const go_rules_t *rules;
    long games, moves, illegal, not_superko;
} tally_t;

static int on_game(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    tally_t *t = ctx;
    (void)index;
    (void)charset;
    sgf_replay_opts_t o = { t->rules, false };
    sgf_replay_t r;
    assert_int_equal(sgf_replay(root, &o, &r, NULL), 0);
    assert_int_equal(r.size, 19);
    assert_int_equal(r.komi2, 13);
    t->games++;
    t->moves += r.nmoves;
    t->illegal += r.nillegal;
    for (int i = 0; i < r.nillegal; i++)
        t->not_superko += r.illegal[i].reason != GO_ESUPERKO;
    sgf_replay_fini(&r);
    return 0;
}

static void run_all(const char *dir, const char *rules, tally_t *t)
{
    go_rules_t ru;
    assert_int_equal(go_rules_preset(rules, &ru), GO_OK);
    memset(t, 0, sizeof *t);
    t->rules = &ru;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        size_t len;
        char *buf = tygem_file(dir, FILES[i], &len);
        assert_int_equal(sgf_parse_each(buf, len, NULL, on_game, t, NULL), 0);
        free(buf);
    }
    t->rules = NULL;
}

static void test_korean_all_legal(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(dir);
    tally_t t;
    run_all(dir, "korean", &t);
    assert_int_equal(t.games, 15473);
    assert_true(t.moves > 3000000);
    assert_int_equal(t.illegal, 0);
}

static void test_chinese_only_superko(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(dir);
    tally_t t;
    run_all(dir, "chinese", &t);
    assert_int_equal(t.games, 15473);
    assert_true(t.illegal > 0);   /* the triple kos of README.md */
    assert_int_equal(t.not_superko, 0);
    print_message("chinese: %ld moves repeat an earlier position\n", t.illegal);
}

static void test_round_trip_file(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(dir);
    size_t len;
    char *buf = tygem_file(dir, FILES[0], &len);
    sgf_collection_t *a = NULL, *b = NULL;
    assert_int_equal(sgf_parse(buf, len, NULL, &a, NULL), 0);
    assert_int_equal(a->ngames, 3710);
    char *w;
    size_t wn;
    assert_int_equal(sgf_write(a, &w, &wn), 0);
    assert_int_equal(sgf_parse(w, wn, NULL, &b, NULL), 0);
    assert_int_equal(b->ngames, a->ngames);
    long nodes = 0;
    for (int g = 0; g < a->ngames; g++) {
        const sgf_node_t *x = a->games[g], *y = b->games[g];
        for (; x; x = x->child, y = y->child) {
            assert_non_null(y);
            assert_int_equal(x->nprops, y->nprops);
            for (int i = 0; i < x->nprops; i++) {
                assert_string_equal(x->props[i].key, y->props[i].key);
                assert_int_equal(x->props[i].nvalues, y->props[i].nvalues);
                for (int v = 0; v < x->props[i].nvalues; v++)
                    assert_string_equal(x->props[i].values[v], y->props[i].values[v]);
            }
            nodes++;
        }
        assert_null(y);
    }
    assert_true(nodes > 800000);
    free(w);
    free(buf);
    sgf_collection_destroy(a);
    sgf_collection_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_korean_all_legal),
        cmocka_unit_test(test_chinese_only_superko),
        cmocka_unit_test(test_round_trip_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
