/* test_sgf_cli.c: the `kifucam check` contract of INTERFACE.md, through the binary named
 * by $KIFUCAM_BIN (skipped, visibly, when it is not there): exit codes 0/1/2, one line
 * per illegal move `FILE:GAME: move N (B Q16): reason` (the point in the human form:
 * people read it), the last line `checked G games, M moves, I illegal`, errors on
 * stderr as FILE:line:col. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char dir[64];
static char out_path[128], err_path[128];
static char out[65536], err[65536];

static void write_file(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Run `kifucam ARGS` in dir; returns the exit code, out/err hold the streams. */
static int run(const char *b, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && '%s' %s >%s 2>%s", dir, b, args, out_path, err_path);
    int st = system(cmd);
    kc_read_into(out_path, out, sizeof out);
    kc_read_into(err_path, err, sizeof err);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static const char *last_line(const char *s)
{
    static char line[512];
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        n--;
    size_t b = n;
    while (b && s[b - 1] != '\n')
        b--;
    snprintf(line, sizeof line, "%.*s", (int)(n - b), s + b);
    return line;
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/kc_check_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(out_path, sizeof out_path, "%s/out.txt", dir);
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    write_file("good.sgf", "(;SZ[9]RU[Japanese];B[ee];W[cc];B[gg];W[];B[])");
    write_file("ko.sgf", "(;SZ[9]RU[Japanese];B[aa])\n"
                         "(;SZ[9]RU[Japanese];B[dc];W[ec];B[cd];W[dd];B[de];W[ee];B[aa];W[fd]"
                         ";B[ed];W[dd];B[ab];W[ab])");
    write_file("broken.sgf", "(;SZ[9]\n;B[ee];W[cc]C[never closed");
    write_file("badpoint.sgf", "(;SZ[9];B[ee]\n;W[zz])");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_help_and_usage(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(run(b, "check --help"), 0);
    assert_non_null(strstr(out, "usage: kifucam check"));
    assert_int_equal(run(b, "check"), 2);
    assert_non_null(strstr(err, "no SGF file"));
    assert_int_equal(run(b, "check good.sgf --rules nosuchrules"), 2);
    assert_non_null(strstr(err, "nosuchrules"));
    assert_int_equal(run(b, "check good.sgf --frobnicate"), 2);
    assert_int_equal(run(b, "check good.sgf --rules"), 2);
    assert_int_equal(run(b, "check good.sgf --charset"), 2);
    assert_int_equal(run(b, "check good.sgf --charset CP949"), 0);
}

static void test_all_legal(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(run(b, "check good.sgf"), 0);
    assert_string_equal(out, "checked 1 games, 5 moves, 0 illegal\n");
    assert_string_equal(err, "");
    assert_int_equal(run(b, "check good.sgf good.sgf --rules chinese"), 0);
    assert_string_equal(last_line(out), "checked 2 games, 10 moves, 0 illegal");
}

static void test_illegal_lines(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(run(b, "check ko.sgf"), 1);
    assert_string_equal(out, "ko.sgf:2: move 10 (W D6): ko recaptured at once\n"
                             "ko.sgf:2: move 12 (W A8): point is occupied\n"
                             "checked 2 games, 13 moves, 2 illegal\n");
    assert_int_equal(run(b, "check good.sgf ko.sgf --rules=korean"), 1);
    assert_string_equal(last_line(out), "checked 3 games, 18 moves, 2 illegal");
}

static void test_errors(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(run(b, "check broken.sgf"), 2);
    assert_non_null(strstr(err, "broken.sgf:2:14: "));
    assert_string_equal(last_line(out), "checked 0 games, 0 moves, 0 illegal");
    /* the other files are still checked; a missing file is exit 2 too */
    assert_int_equal(run(b, "check missing.sgf ko.sgf"), 2);
    assert_non_null(strstr(err, "missing.sgf"));
    assert_non_null(strstr(out, "ko.sgf:2: move 10 (W D6)"));
    assert_int_equal(run(b, "check badpoint.sgf"), 2);
    assert_non_null(strstr(err, "badpoint.sgf:2:1: game 1:"));
    /* exactly one line per error */
    assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err));
    /* binary junk: exit 2, no crash */
    FILE *f = fopen("/dev/urandom", "rb");
    char junk[4096];
    assert_int_equal(fread(junk, 1, sizeof junk, f), sizeof junk);
    fclose(f);
    junk[0] = '(', junk[1] = ';';
    char p[256];
    snprintf(p, sizeof p, "%s/junk.sgf", dir);
    f = fopen(p, "wb");
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    int rc = run(b, "check junk.sgf");
    assert_true(rc == 2 || rc == 1 || rc == 0);
    assert_non_null(strstr(out, "checked "));
}

static void test_samples(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    char args[1024];
    snprintf(args, sizeof args, "check %s/samples/games/*.sgf", kc_source_dir());
    assert_int_equal(run(b, args), 0);
    assert_non_null(strstr(out, " 0 illegal"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_all_legal),
        cmocka_unit_test(test_illegal_lines),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_samples),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
