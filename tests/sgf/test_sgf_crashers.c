/* test_sgf_crashers.c: regression inputs for the SGF reader, writer and replay. Each
 * input (embedded below, or a file in tests/sgf/crashers/) goes through what the fuzzer
 * does: parse; on success write, re-parse (the same trees), and replay every game
 * tolerantly. Passing means: no crash, no leak, no sanitizer report, consistent results. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_board.h"
#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"
#include "testutil.h"

/* Same steps as fuzz/fuzz_sgf.c. Returns the parse status. */
static int exercise(const char *data, size_t len)
{
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    int rc = sgf_parse(data, len, NULL, &c, &e);
    if (rc) {
        assert_null(c);
        assert_true(e.code == rc);
        return rc;
    }
    char *w;
    size_t wn;
    assert_int_equal(sgf_write(c, &w, &wn), 0);
    sgf_collection_t *d = NULL;
    assert_int_equal(sgf_parse(w, wn, NULL, &d, NULL), 0);
    assert_int_equal(d->ngames, c->ngames);
    for (int g = 0; g < c->ngames; g++) {
        sgf_replay_t r;
        /* (no go_game_check here: tolerant setup may leave chains without liberties,
         * which go_board_check counts as broken) */
        if (sgf_replay(c->games[g], NULL, &r, NULL) == 0) {
            assert_true(go_game_move_count(r.game) <= r.nmoves);
            sgf_replay_fini(&r);
        }
    }
    sgf_collection_destroy(d);
    sgf_collection_destroy(c);
    free(w);
    return 0;
}

#define EX(s) exercise((s), sizeof(s) - 1)

static void test_embedded(void **state)
{
    (void)state;
    /* a second CA in the root must not switch the lexer to double-byte mode */
    assert_int_equal(EX("(;CA[utf-8]CA[Big5]C[\xe4\xbd\xa0]C[x])"), 0);
    /* a backslash as the very last byte */
    assert_int_not_equal(EX("(;C[\\"), 0);
    /* a double-byte lead byte right before the closing bracket */
    assert_int_equal(EX("(;CA[Big5]C[\xa5])"), GO_EPARSE);
    assert_int_equal(EX("(;CA[Big5]C[\xa5]]B[aa])"), 0);
    /* setup and moves off the board, out of range sizes */
    assert_int_not_equal(EX("(;SZ[0];B[aa])") + EX("(;SZ[-5])") + EX("(;SZ[99999999999])"), 1);
    EX("(;SZ[2]AB[aa:bb];W[aa];B[tt];W[])");
    EX("(;SZ[25]AW[aa:yy]AE[bb:xx];B[bb];W[cc])");
    EX("(;HA[9]SZ[19];W[dd];B[];W[])");
    EX("(;HA[-3]KM[-99999];B[aa])");
    EX("(;RU[ancient-area];B[aa])");
}

static void test_files(void **state)
{
    (void)state;
    DIR *d = opendir(KC_SGF_CRASHERS);
    if (!d) {
        print_message("no crashers folder %s\n", KC_SGF_CRASHERS);
        return;
    }
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.' || !strstr(ent->d_name, ".sgf"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", KC_SGF_CRASHERS, ent->d_name);
        size_t len;
        char *buf = kc_slurp(path, &len);
        assert_non_null(buf);
        exercise(buf, len);
        free(buf);
        n++;
    }
    closedir(d);
    print_message("%d crasher files replayed\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
