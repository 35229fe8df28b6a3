/* test_point.c: the one point parser (go_point.h): SGF letters and the human form (Q16,
 * no I, row 1 at the bottom, any case) on 9x9, 19x19 and 25x25, the round trip of every
 * point of every size, what is refused, the human form written for each size; and the
 * --dead calls: auto, none, a list, +/- calls on a proposal (whole chains), a mix
 * refused, the call at fault named. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "rules/go_point.h"
#include "rules/rules_testutil.h"

static int parse(int size, const char *s)
{
    int p = -12345;
    int rc = go_point_parse(size, s, (int)strlen(s), &p);
    return rc == GO_OK ? p : rc;
}

static void test_human_and_sgf(void **state)
{
    (void)state;
    /* the corners of 19x19: A19 is "aa", T1 is "ss"; Q16 is "pd", D4 is "dp" */
    assert_int_equal(parse(19, "A19"), P(0, 0));
    assert_int_equal(parse(19, "T1"), P(18, 18));
    assert_int_equal(parse(19, "Q16"), P(15, 3));
    assert_int_equal(parse(19, "pd"), P(15, 3));
    assert_int_equal(parse(19, "q16"), P(15, 3));
    assert_int_equal(parse(19, "D4"), P(3, 15));
    assert_int_equal(parse(19, "dp"), P(3, 15));
    /* J follows H: no column I */
    assert_int_equal(parse(19, "H10"), P(7, 9));
    assert_int_equal(parse(19, "J10"), P(8, 9));
    assert_int_equal(parse(19, "K10"), P(9, 9));
    /* 9x9: row 1 is the bottom row */
    assert_int_equal(parse(9, "C3"), P(2, 6));
    assert_int_equal(parse(9, "J9"), P(8, 0));
    /* 25x25: the last column is Z */
    assert_int_equal(parse(25, "Z1"), P(24, 24));
    assert_int_equal(parse(25, "A25"), P(0, 0));
}

static void test_refused(void **state)
{
    (void)state;
    assert_int_equal(parse(19, "I5"), GO_EINVAL);    /* no column I */
    assert_int_equal(parse(19, "T20"), GO_EINVAL);   /* off the board */
    assert_int_equal(parse(19, "U1"), GO_EINVAL);
    assert_int_equal(parse(19, "A0"), GO_EINVAL);
    assert_int_equal(parse(9, "K5"), GO_EINVAL);
    assert_int_equal(parse(9, "jj"), GO_EINVAL);
    assert_int_equal(parse(19, "tt"), GO_EINVAL);    /* SGF's pass is no point */
    assert_int_equal(parse(19, ""), GO_EPARSE);
    assert_int_equal(parse(19, "Q"), GO_EPARSE);
    assert_int_equal(parse(19, "16"), GO_EPARSE);
    assert_int_equal(parse(19, "Q1a"), GO_EPARSE);
    assert_int_equal(parse(19, "Q100"), GO_EPARSE);
    assert_int_equal(parse(19, "PD"), GO_EPARSE);    /* SGF letters are lowercase */
    assert_int_equal(parse(19, "p d"), GO_EPARSE);
    int p = 7;
    assert_int_equal(go_point_parse(19, "Z99", 3, &p), GO_EINVAL);
    assert_int_equal(p, 7);   /* written only on success */
}

static void test_round_trip(void **state)
{
    (void)state;
    for (int size = GO_MIN_SIZE; size <= GO_MAX_SIZE; size++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                char h[4], s[3];
                go_point_human(size, P(x, y), h);
                go_point_to_sgf(P(x, y), s);
                assert_int_equal(parse(size, h), P(x, y));
                assert_int_equal(parse(size, s), P(x, y));
                assert_null(strchr(h, 'I'));
            }
    char h[4] = "xx";
    go_point_human(19, GO_PASS, h);
    assert_string_equal(h, "");
    go_point_human(9, P(9, 0), h);
    assert_string_equal(h, "");
    go_point_human(19, P(15, 3), h);
    assert_string_equal(h, "Q16");
}

/* The human form of SGF letters on a size x size board, as the messages write it. */
static const char *human(int size, const char *sgf)
{
    static char h[4];
    go_point_human(size, go_point_from_sgf(size, sgf, 2), h);
    return h;
}

/* The formatter people read (every message of record, check, score, count): the edge's
 * letters without I, row 1 at the bottom, for the board's own size. */
static void test_human_form(void **state)
{
    (void)state;
    assert_string_equal(human(19, "pd"), "Q16");
    assert_string_equal(human(19, "aa"), "A19");
    assert_string_equal(human(19, "ss"), "T1");
    assert_string_equal(human(19, "as"), "A1");
    assert_string_equal(human(19, "sa"), "T19");
    assert_string_equal(human(19, "dp"), "D4");
    assert_string_equal(human(9, "ee"), "E5");
    assert_string_equal(human(9, "aa"), "A9");
    assert_string_equal(human(9, "ii"), "J1");
    assert_string_equal(human(13, "dd"), "D10");
    /* the column after H is J: I is never written */
    assert_string_equal(human(19, "ha"), "H19");
    assert_string_equal(human(19, "ia"), "J19");
    assert_string_equal(human(19, "ja"), "K19");
    /* the same point reads differently on another size (rows count from the bottom) */
    assert_string_equal(human(13, "pd"), "");   /* off a 13x13 board */
    assert_string_equal(human(25, "yy"), "Z1");
}

static void test_dead_spec_parse(void **state)
{
    (void)state;
    go_dead_spec_t sp;
    int off = -1, len = -1;
    assert_int_equal(go_dead_spec_parse(19, "auto", &sp, &off, &len), GO_OK);
    assert_int_equal(sp.mode, GO_DEAD_AUTO);
    assert_int_equal(go_dead_spec_parse(19, "none", &sp, &off, &len), GO_OK);
    assert_int_equal(sp.mode, GO_DEAD_NONE);
    assert_int_equal(go_dead_spec_parse(19, "dd, Q16 ,pq", &sp, &off, &len), GO_OK);
    assert_int_equal(sp.mode, GO_DEAD_LIST);
    assert_int_equal(sp.n, 3);
    assert_int_equal(sp.point[1], P(15, 3));
    assert_int_equal(sp.off[1], 4);
    assert_int_equal(sp.len[1], 3);
    assert_int_equal(go_dead_spec_parse(19, "+K10,-C3", &sp, &off, &len), GO_OK);
    assert_int_equal(sp.mode, GO_DEAD_EDIT);
    assert_int_equal(sp.n, 2);
    assert_int_equal(sp.sign[0], 1);
    assert_int_equal(sp.point[0], P(9, 9));
    assert_int_equal(sp.sign[1], -1);
    assert_int_equal(sp.point[1], P(2, 16));
    /* refused, the item named */
    assert_int_equal(go_dead_spec_parse(19, "dd,D16x,pq", &sp, &off, &len), GO_EPARSE);
    assert_int_equal(off, 3);
    assert_int_equal(len, 4);
    assert_int_equal(go_dead_spec_parse(19, "dd,+K10", &sp, &off, &len), GO_EPARSE);
    assert_int_equal(off, 3);
    assert_int_equal(go_dead_spec_parse(9, "C3,K5", &sp, &off, &len), GO_EINVAL);
    assert_int_equal(off, 3);
    assert_int_equal(len, 2);
    assert_int_equal(go_dead_spec_parse(9, " , ", &sp, &off, &len), GO_EPARSE);
    assert_int_equal(len, 0);
    assert_int_equal(go_dead_spec_parse(9, "+", &sp, &off, &len), GO_EPARSE);
    /* more items than a board has points: refused, the first one too many named */
    char *many = malloc(3 * (GO_MAX_POINTS + 1) + 1);
    assert_non_null(many);
    for (int i = 0; i <= GO_MAX_POINTS; i++)
        memcpy(many + 3 * i, "dd,", 3);   /* item i at 3 i */
    many[3 * GO_MAX_POINTS + 2] = '\0';   /* GO_MAX_POINTS + 1 items */
    assert_int_equal(go_dead_spec_parse(19, many, &sp, &off, &len), GO_EINVAL);
    assert_int_equal(off, 3 * GO_MAX_POINTS);
    assert_int_equal(len, 2);
    many[3 * GO_MAX_POINTS - 1] = '\0';   /* exactly GO_MAX_POINTS items */
    assert_int_equal(go_dead_spec_parse(19, many, &sp, &off, &len), GO_OK);
    assert_int_equal(sp.n, GO_MAX_POINTS);
    free(many);
}

/* A 9x9 with two black chains (the two stones at C3-D3, one at G7) and a white one. */
static const char *pos9 =
    ".........\n"
    ".........\n"
    "......X..\n"
    ".........\n"
    "....O....\n"
    ".........\n"
    "..XX.....\n"
    ".........\n"
    ".........\n";

static void test_dead_spec_apply(void **state)
{
    (void)state;
    go_board_t b;
    go_dead_spec_t sp;
    uint8_t prop[GO_CELLS], mask[GO_CELLS];
    int bad = -1;
    rt_board(&b, pos9);
    memset(prop, 0, sizeof prop);
    prop[P(6, 2)] = 1;   /* the proposal: G7 dead */
    /* +C3 marks the whole chain C3-D3, the proposal's G7 stays */
    assert_int_equal(go_dead_spec_parse(9, "+C3", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, prop, mask, &bad), GO_OK);
    assert_true(mask[P(2, 6)] && mask[P(3, 6)] && mask[P(6, 2)]);
    assert_false(mask[P(4, 4)]);
    /* -G7 brings G7 back; +E5 kills the white stone */
    assert_int_equal(go_dead_spec_parse(9, "-gc,+E5", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, prop, mask, &bad), GO_OK);
    assert_false(mask[P(6, 2)]);
    assert_true(mask[P(4, 4)]);
    /* a list ignores the proposal */
    assert_int_equal(go_dead_spec_parse(9, "D3", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, NULL, mask, &bad), GO_OK);
    assert_true(mask[P(2, 6)] && mask[P(3, 6)]);
    assert_false(mask[P(6, 2)]);
    /* the call at fault: no stone, "+" on a dead chain, "-" on a live one */
    memset(mask, 7, sizeof mask);
    assert_int_equal(go_dead_spec_parse(9, "+C3,+A1", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, prop, mask, &bad), GO_EINVAL);
    assert_int_equal(bad, 1);
    assert_int_equal(mask[P(2, 6)], 7);   /* written only on success */
    assert_int_equal(go_dead_spec_parse(9, "+G7", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, prop, mask, &bad), GO_EINVAL);
    assert_int_equal(bad, 0);
    assert_int_equal(go_dead_spec_parse(9, "-E5", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, prop, mask, &bad), GO_EINVAL);
    assert_int_equal(go_dead_spec_parse(9, "E1", &sp, NULL, NULL), GO_OK);
    assert_int_equal(go_dead_spec_apply(&sp, &b, NULL, mask, &bad), GO_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_human_and_sgf),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_human_form),
        cmocka_unit_test(test_dead_spec_parse),
        cmocka_unit_test(test_dead_spec_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
