/* fuzz_sgf.c: libFuzzer target for the SGF reader, writer and replay.
 *
 * For each input: parse (limits lowered so that one input stays fast); on success write
 * the collection, re-parse the text (it must parse, with the same number of games, and
 * writing it again must give the same text), and replay the main line of every game
 * tolerantly; the streaming parser must agree with the collection parser. Any mismatch
 * traps, so the fuzzer reports it like a crash. Crashing inputs become regression tests
 * in tests/sgf/crashers/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/go_game.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_games(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    (void)root;
    (void)charset;
    int *n = ctx;
    if (index != *n)
        __builtin_trap();
    (*n)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sgf_opts_t o;
    sgf_opts_defaults(&o);
    o.max_input = 1 << 20;
    o.max_depth = 2000;
    o.max_value = 1 << 16;
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    int rc = sgf_parse((const char *)data, size, &o, &c, &e);
    int streamed = 0;
    int rc2 = sgf_parse_each((const char *)data, size, &o, count_games, &streamed, NULL);
    if ((rc == 0) != (rc2 == 0))
        __builtin_trap();
    if (rc) {
        if (c || e.code != rc || e.msg[0] == 0)
            __builtin_trap();
        return 0;
    }
    if (streamed != c->ngames)
        __builtin_trap();
    char *w1 = NULL, *w2 = NULL;
    size_t n1, n2;
    if (sgf_write(c, &w1, &n1))
        __builtin_trap();
    sgf_opts_t big;
    sgf_opts_defaults(&big);
    sgf_collection_t *d = NULL;
    if (sgf_parse(w1, n1, &big, &d, &e))
        __builtin_trap();
    if (d->ngames != c->ngames)
        __builtin_trap();
    if (sgf_write(d, &w2, &n2) || n1 != n2 || memcmp(w1, w2, n1))
        __builtin_trap();
    for (int g = 0; g < c->ngames; g++) {
        sgf_replay_t r;
        if (sgf_replay(c->games[g], NULL, &r, NULL) == 0) {
            if (go_game_move_count(r.game) > r.nmoves || r.nillegal > r.nmoves)
                __builtin_trap();
            sgf_replay_fini(&r);
        }
    }
    free(w1);
    free(w2);
    sgf_collection_destroy(d);
    sgf_collection_destroy(c);
    return 0;
}
