/* test_sgf_oom.c: allocation failures. malloc/calloc/realloc are wrapped at link time
 * (-Wl,--wrap=...), so that the n-th allocation of an operation fails; for every n the
 * operation must return GO_ENOMEM (never crash, never leak), and once n is past its last
 * allocation it must succeed. Covers parse (with a charset conversion), write, replay,
 * game -> SGF, and the streaming parse. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

static long fail_at, calls;
static int hit;

static int should_fail(void)
{
    if (fail_at && ++calls == fail_at) {
        hit = 1;
        return 1;
    }
    return 0;
}
void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return should_fail() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

static void arm(long n)
{
    fail_at = n;
    calls = 0;
    hit = 0;
}

static void disarm(void)
{
    fail_at = 0;
}

static const char DOC[] =
    "(;FF[4]CA[GB2312]SZ[9]KM[6.5]RU[Japanese]PB[\xc4\xe3\xba\xc3]AB[aa:bb]AW[ii]"
    ";W[ee];B[dc];W[ec];B[cd];W[dd];B[de](;W[ed];B[fd])(;W[fe]))\n(;GN[two];B[aa];W[zz])";

static void test_parse_write_replay(void **state)
{
    (void)state;
    long n;
    for (n = 1;; n++) {
        sgf_collection_t *c = NULL;
        arm(n);
        int rc = sgf_parse(DOC, sizeof DOC - 1, NULL, &c, NULL);
        disarm();
        if (!hit) {
            assert_int_equal(rc, 0);
            sgf_collection_destroy(c);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
        assert_null(c);
    }
    print_message("parse: %ld allocation points\n", n - 1);

    sgf_collection_t *c = NULL;
    assert_int_equal(sgf_parse(DOC, sizeof DOC - 1, NULL, &c, NULL), 0);
    for (n = 1;; n++) {
        char *t = NULL;
        size_t len;
        arm(n);
        int rc = sgf_write(c, &t, &len);
        disarm();
        if (!hit) {
            assert_int_equal(rc, 0);
            free(t);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
    }
    for (n = 1;; n++) {
        sgf_replay_t r;
        arm(n);
        int rc = sgf_replay(c->games[0], NULL, &r, NULL);
        disarm();
        if (!hit) {
            assert_int_equal(rc, 0);
            assert_int_equal(r.nmoves, 8);
            sgf_replay_fini(&r);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
        assert_null(r.game);
    }
    print_message("replay: %ld allocation points\n", n - 1);
    sgf_collection_destroy(c);
}

static int count_cb(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    (void)root, (void)index, (void)charset;
    (*(int *)ctx)++;
    return 0;
}

static void test_stream_and_from_game(void **state)
{
    (void)state;
    long n;
    for (n = 1;; n++) {
        int games = 0;
        arm(n);
        int rc = sgf_parse_each(DOC, sizeof DOC - 1, NULL, count_cb, &games, NULL);
        disarm();
        if (!hit) {
            assert_int_equal(rc, 0);
            assert_int_equal(games, 2);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
    }
    go_rules_t ru;
    assert_int_equal(go_rules_preset("chinese", &ru), GO_OK);
    go_game_t *g = go_game_create(9, &ru);
    assert_int_equal(go_game_handicap(g, 2), GO_OK);
    assert_int_equal(go_game_play(g, GO_WHITE, GO_PT(4, 4)), GO_OK);
    assert_int_equal(go_game_play(g, GO_BLACK, GO_PT(3, 4)), GO_OK);
    sgf_header_t h = { 0 };
    h.black = "B";
    h.result = "B+R";
    for (n = 1;; n++) {
        char *t = NULL;
        size_t len;
        arm(n);
        int rc = sgf_game_text(g, &h, &t, &len);
        disarm();
        if (!hit) {
            assert_int_equal(rc, 0);
            assert_non_null(strstr(t, ";W[ee]"));
            free(t);
            break;
        }
        assert_int_equal(rc, GO_ENOMEM);
    }
    go_game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_write_replay),
        cmocka_unit_test(test_stream_and_from_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
