/* test_life_eyes.c: a group without an eye, enclosed by strong opponents, is dead
 * (go_eyes_dead); not when it has an eye, nor when an open border (a point next to no
 * stone) leaves it room to make one, nor when it is short of liberties (the reader's),
 * nor in a race against a group as weak as itself. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/go_eyes.h"
#include "rules/go_life.h"
#include "score/boards.h"

/* Three white stones with eight liberties and no eye inside Black's walls; Black has
 * eyes everywhere (a1..j9 row 1 and row 7). */
static const char *eyeless = "\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.......X\n\
X..OOO..X\n\
X.......X\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n";

static int eyes_on(const char *text, int p)
{
    go_board_t b;
    uint8_t dead[GO_CELLS];
    memset(dead, 0, sizeof dead);
    assert_int_equal(tb_load(&b, NULL, text), 0);
    assert_true(go_eyes_dead(b.color, b.size, NULL, dead) >= 0);
    return dead[p];
}

static void test_eyeless_dead(void **state)
{
    (void)state;
    assert_int_equal(eyes_on(eyeless, GO_PT(3, 3)), 1);
    assert_int_equal(eyes_on(eyeless, GO_PT(5, 3)), 1);
    assert_int_equal(eyes_on(eyeless, GO_PT(0, 1)), 0);   /* Black's wall */
    /* the proposal has them dead too, and nothing else */
    {
        go_board_t b;
        go_life_result_t *r = malloc(sizeof *r);
        assert_non_null(r);
        assert_int_equal(tb_load(&b, NULL, eyeless), 0);
        assert_int_equal(go_life_propose(&b, NULL, r), GO_OK);
        assert_int_equal(r->dead[GO_PT(4, 3)], 1);
        assert_int_equal(r->dead[GO_PT(4, 1)], 0);
        free(r);
    }
    {
        go_board_t b;
        uint8_t dead[GO_CELLS];
        assert_int_equal(tb_load(&b, NULL, eyeless), 0);
        assert_int_equal(go_eyes_dead(NULL, b.size, NULL, dead), GO_EINVAL);
        assert_int_equal(go_eyes_dead(b.color, 1, NULL, dead), GO_EINVAL);
    }
}

static void test_eyeless_not(void **state)
{
    (void)state;
    /* one eye (e6): the group is not judged here */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X...O...X\n\
X..O.O..X\n\
X...O...X\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(4, 2)), 0);
    /* an open border: the space is wide enough for a point next to no stone (c5), and
     * some of it (f5, g6, g4...) is nearer to the white stones than to Black's: room to
     * make an eye */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.......X\n\
X.......X\n\
X.....OOX\n\
X.......X\n\
X.......X\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(7, 4)), 0);
    /* two liberties only: left to the reader */
    assert_int_equal(eyes_on("\
.X.X.X.X.\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
XX.OOO.XX\n\
XXXXXXXXX\n\
XXXXXXXXX\n\
.X.X.X.X.\n\
XXXXXXXXX\n\
X.X.X.X.X\n", GO_PT(3, 3)), 0);
    /* a race: Black's ring has no eye either and no more liberties than the white
     * stones inside (ten each): neither side is judged */
    {
        const char *race = "\
OOOOOOOOO\n\
OXXXXXXXO\n\
OX.....XO\n\
OXOOOOOXO\n\
OX.....XO\n\
OXXXXXXXO\n\
OOOOOOOOO\n\
.........\n\
.........\n";
        assert_int_equal(eyes_on(race, GO_PT(3, 3)), 0);
        assert_int_equal(eyes_on(race, GO_PT(1, 1)), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eyeless_dead),
        cmocka_unit_test(test_eyeless_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
