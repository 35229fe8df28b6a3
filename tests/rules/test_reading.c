/* test_reading.c: settling a camera's reading before the count (go_reading.h): --fix
 * parsing (both point forms, the colour letters, what is refused and where), unsure
 * points refused and listed unless fixed or emptied by the policy, a fix winning over a
 * sure reading, and --prisoners parsing. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "rules/go_reading.h"
#include "rules/rules_testutil.h"

static go_fixes_t fx;

static void test_fixes_parse(void **state)
{
    (void)state;
    int off = -1, len = -1;
    assert_int_equal(go_fixes_parse(19, "Q16=B, D4=., C3=w,pd=x,aa=O,ss=e", &fx, &off, &len),
                     GO_OK);
    assert_int_equal(fx.n, 6);
    assert_int_equal(fx.fix[0].point, P(15, 3));
    assert_int_equal(fx.fix[0].color, GO_BLACK);
    assert_int_equal(fx.fix[1].point, P(3, 15));
    assert_int_equal(fx.fix[1].color, GO_EMPTY);
    assert_int_equal(fx.fix[2].color, GO_WHITE);
    assert_int_equal(fx.fix[3].color, GO_BLACK);
    assert_int_equal(fx.fix[4].color, GO_WHITE);
    assert_int_equal(fx.fix[5].color, GO_EMPTY);
    assert_int_equal(fx.fix[1].off, 7);
    assert_int_equal(fx.fix[1].len, 4);
    /* refused, the item named */
    assert_int_equal(go_fixes_parse(19, "Q16=B,D4", &fx, &off, &len), GO_EPARSE);
    assert_int_equal(off, 6);
    assert_int_equal(len, 2);
    assert_int_equal(go_fixes_parse(19, "Q16=G", &fx, &off, &len), GO_EPARSE);
    assert_int_equal(go_fixes_parse(19, "Q16=", &fx, &off, &len), GO_EPARSE);
    assert_int_equal(go_fixes_parse(19, "I16=B", &fx, &off, &len), GO_EINVAL);
    assert_int_equal(go_fixes_parse(9, "Q16=B", &fx, &off, &len), GO_EINVAL);
    assert_int_equal(go_fixes_parse(9, ",", &fx, &off, &len), GO_EPARSE);
    assert_int_equal(len, 0);
}

/* A 5x5 reading: two stones, one unsure point read black (a hand over it) and one unsure
 * point read empty. */
static void reading5(go_reading_t *r)
{
    memset(r, 0, sizeof *r);
    r->size = 5;
    r->color[0 * 5 + 0] = GO_BLACK;        /* A5 */
    r->color[2 * 5 + 2] = GO_WHITE;        /* C3 */
    r->color[4 * 5 + 4] = GO_BLACK;        /* E1, unsure */
    r->unsure[4 * 5 + 4] = 1;
    r->unsure[1 * 5 + 3] = 1;              /* D4, unsure, read empty */
}

static void test_settle(void **state)
{
    (void)state;
    go_reading_t r;
    go_board_t b;
    go_point_t left[GO_MAX_POINTS];
    int n = -1;
    reading5(&r);
    /* refused, the two named top row first; the board untouched */
    memset(&b, 0x5a, sizeof b);
    assert_int_equal(go_reading_settle(&r, NULL, GO_UNSURE_REFUSE, &b, left, &n), GO_EUNSURE);
    assert_int_equal(n, 2);
    assert_int_equal(left[0], P(3, 1));
    assert_int_equal(left[1], P(4, 4));
    assert_int_equal(b.size, 0x5a5a5a5a);
    /* told to count them as empty: the guess at E1 is not kept */
    assert_int_equal(go_reading_settle(&r, NULL, GO_UNSURE_EMPTY, &b, left, &n), GO_OK);
    assert_int_equal(n, 2);
    rt_assert_board(&b, "X....\n"
                        ".....\n"
                        "..O..\n"
                        ".....\n"
                        ".....\n");
    /* fixed: E1 black, D4 white; a fix also corrects a sure point (A5 empty) */
    assert_int_equal(go_fixes_parse(5, "E1=B,db=W,A5=.", &fx, NULL, NULL), GO_OK);
    assert_int_equal(go_reading_settle(&r, &fx, GO_UNSURE_REFUSE, &b, left, &n), GO_OK);
    assert_int_equal(n, 0);
    rt_assert_board(&b, ".....\n"
                        "...O.\n"
                        "..O..\n"
                        ".....\n"
                        "....X\n");
    assert_int_equal(go_board_check(&b), GO_OK);
    /* one fixed, one left: refused with the one left */
    assert_int_equal(go_fixes_parse(5, "E1=B", &fx, NULL, NULL), GO_OK);
    assert_int_equal(go_reading_settle(&r, &fx, GO_UNSURE_REFUSE, &b, left, &n), GO_EUNSURE);
    assert_int_equal(n, 1);
    assert_int_equal(left[0], P(3, 1));
    assert_string_equal(go_strerror(GO_EUNSURE),
                        "points the reader was unsure of are not settled");
}

static void test_prisoners(void **state)
{
    (void)state;
    int cap[3] = { 0, 99, 99 };
    assert_int_equal(go_prisoners_parse("B=12,W=7", cap), GO_OK);
    assert_int_equal(cap[GO_BLACK], 12);
    assert_int_equal(cap[GO_WHITE], 7);
    assert_int_equal(go_prisoners_parse(" w=3 ", cap), GO_OK);
    assert_int_equal(cap[GO_BLACK], 0);
    assert_int_equal(cap[GO_WHITE], 3);
    cap[GO_BLACK] = cap[GO_WHITE] = 99;
    assert_int_equal(go_prisoners_parse("B=-1", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("B=1,B=2", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("X=1", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("B=1;W=2", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("B=99999999999", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("", cap), GO_EPARSE);
    assert_int_equal(go_prisoners_parse("B=", cap), GO_EPARSE);
    assert_int_equal(cap[GO_BLACK], 99);   /* written only on success */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixes_parse),
        cmocka_unit_test(test_settle),
        cmocka_unit_test(test_prisoners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
