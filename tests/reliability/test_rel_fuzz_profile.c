/* test_rel_fuzz_profile.c: regression inputs the profile fuzzer (fuzz/fuzz_profile.c)
 * found, embedded, each with the property it broke. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "calib/cal_profile.h"

/* Each rejected input: an error code, *out untouched, a non-empty one-line reason. */
static void expect_rejected(const char *text, size_t len, int code)
{
    cal_profile_t p, before;
    memset(&p, 0x5A, sizeof p);
    before = p;
    char err[256] = "";
    assert_int_equal(cal_profile_parse(text, len, &p, err, sizeof err), code);
    assert_memory_equal(&p, &before, sizeof p);
    assert_true(err[0] != 0);
    for (const char *c = err; *c; c++)
        assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
}

/* fuzz_profile crash f43980d5: jansson's error text quotes the bytes near the error, here
 * a backslash and a line break inside a key, so the reason was two lines (INTERFACE.md:
 * every error is one line). */
static void test_error_with_line_break(void **state)
{
    (void)state;
    static const char in[] = { 0x7b, 0x22, 0x6f, 0x5c, 0x0a, 0x69, 0x6c, 0x65, 0x22, 0x3a, 0x75, 0x7d };
    expect_rejected(in, sizeof in, CAL_EPARSE);
}

/* The same with other control characters near the error (tab, CR, DEL, ESC). */
static void test_error_with_control_chars(void **state)
{
    (void)state;
    static const char in1[] = "{\"a\r\n\t\x1b\x7f";
    expect_rejected(in1, sizeof in1 - 1, CAL_EPARSE);
    static const char in2[] = "\x01\x02\n\n";
    expect_rejected(in2, sizeof in2 - 1, CAL_EPARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_with_line_break),
        cmocka_unit_test(test_error_with_control_chars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
