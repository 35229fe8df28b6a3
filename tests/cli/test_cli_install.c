/* test_cli_install.c: `make install`'s rules (cmake --install, what the Makefile's install
 * target runs) put the program, its man page, its bash completion and the documentation
 * where a user looks for them, under a DESTDIR and a PREFIX of this test's own, and the
 * installed program runs from anywhere on its own: `kifucam --help`, and `kifucam detect`
 * on the installed copy of a bundled sample frame, from another folder, reads the same
 * board as the build's binary (the point reader's weights are compiled in). The build
 * tree installed is this test's own (KC_BUILD_DIR, with KC_CMAKE). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define PREFIX "/opt/kifucam-test"
#define SAMPLE "share/doc/kifucam/samples/frames/above-uneven.png"

static char dir[64];    /* the test's folder: stage/ (DESTDIR), elsewhere/ (a cwd) */
static char root[256];  /* DESTDIR + PREFIX */

/* Run the shell command; its stdout into dir/NAME (text returned, the caller frees it)
 * and its exit code in *rc. */
static char *run(const char *cmd, const char *name, int *rc)
{
    char line[4096], path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(line, sizeof line, "%s >'%s' 2>'%s.err'", cmd, path, path);
    *rc = kc_run(line);
    char *text = kc_slurp(path, NULL);
    assert_non_null(text);
    if (*rc != 0) {
        snprintf(line, sizeof line, "%s.err", path);
        char *err = kc_slurp(line, NULL);
        print_error("'%s' exited %d: %s\n", cmd, *rc, err ? err : "");
        free(err);
    }
    return text;
}

/* Install once for every test: DESTDIR=dir/stage cmake --install KC_BUILD_DIR --prefix PREFIX. */
static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/kc_install_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(root, sizeof root, "%s/stage%s", dir, PREFIX);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/elsewhere' && DESTDIR='%s/stage' '%s' --install '%s' --prefix '%s' "
             ">'%s/install.log' 2>&1",
             dir, dir, KC_CMAKE, KC_BUILD_DIR, PREFIX, dir);
    if (kc_run(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "cat '%s/install.log' >&2", dir);
        (void)kc_run(cmd);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void assert_installed(const char *rel, int exec)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", root, rel);
    if (stat(p, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
        print_error("not installed: PREFIX/%s\n", rel);
    assert_int_equal(stat(p, &st), 0);
    assert_true(S_ISREG(st.st_mode) && st.st_size > 0);
    if (exec)
        assert_int_equal(access(p, X_OK), 0);
}

/* The installed file is byte for byte the one the build made. */
static void assert_same(const char *rel, const char *built)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmp -s '%s/%s' '%s'", root, rel, built);
    if (kc_run(cmd) != 0)
        print_error("PREFIX/%s differs from %s\n", rel, built);
    assert_int_equal(kc_run(cmd), 0);
}

static void test_files_in_place(void **state)
{
    (void)state;
    assert_installed("bin/kifucam", 1);
    assert_installed("bin/kifucam-render", 1);
    assert_installed("share/man/man1/kifucam.1", 0);
    assert_installed("share/bash-completion/completions/kifucam", 0);
    assert_installed("share/doc/kifucam/README.md", 0);
    assert_installed("share/doc/kifucam/docs/web.md", 0);
    assert_installed("share/doc/kifucam/samples/README.md", 0);
    assert_installed("share/doc/kifucam/samples/games/demo.sgf", 0);
    assert_installed(SAMPLE, 0);
    assert_installed("share/doc/kifucam/calib/README.md", 0);
    assert_installed("share/doc/kifucam/relay/README.md", 0);
    assert_same("share/man/man1/kifucam.1", KC_BUILD_DIR "/app/kifucam.1");
    assert_same("share/bash-completion/completions/kifucam", KC_BUILD_DIR "/app/kifucam.bash");
    /* nothing of the build's own: no library, header or test */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.a' -o -name '*.h' -o -name 'test_*' | grep -q .",
             root);
    assert_int_not_equal(kc_run(cmd), 0);
}

static void test_installed_program_runs(void **state)
{
    (void)state;
    char cmd[2048];
    int rc;
    snprintf(cmd, sizeof cmd, "cd '%s/elsewhere' && '%s/bin/kifucam' --help", dir, root);
    char *out = run(cmd, "help.txt", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "usage: kifucam COMMAND"));
    free(out);
    snprintf(cmd, sizeof cmd, "cd '%s/elsewhere' && '%s/bin/kifucam' record --help", dir, root);
    out = run(cmd, "record-help.txt", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "--resume FILE"));
    free(out);

    /* detect, from another folder, on the installed sample: a 19x19 board read */
    snprintf(cmd, sizeof cmd, "cd '%s/elsewhere' && '%s/bin/kifucam' detect '%s/%s'", dir, root,
             root, SAMPLE);
    char *installed = run(cmd, "detect.txt", &rc);
    assert_int_equal(rc, 0);
    int rows = 0, stones = 0;
    for (const char *l = installed; *l; rows++) {
        const char *e = strchr(l, '\n');
        assert_non_null(e);
        assert_int_equal(e - l, 19);
        for (const char *c = l; c < e; c++) {
            assert_non_null(strchr(".XO?", *c));
            stones += *c == 'X' || *c == 'O';
        }
        l = e + 1;
    }
    assert_int_equal(rows, 19);
    assert_true(stones > 100); /* the sample is move 150 of demo.sgf */
    /* the same reading as the build's binary on the repository's copy */
    const char *b = kc_bin();
    if (b) {
        snprintf(cmd, sizeof cmd, "'%s' detect '%s/samples/frames/above-uneven.png'", b,
                 kc_source_dir());
        char *built = run(cmd, "detect-build.txt", &rc);
        assert_int_equal(rc, 0);
        assert_string_equal(installed, built);
        free(built);
    }
    free(installed);
}

/* `man kifucam` finds the installed page through PREFIX/share/man, and the installed
 * completion, sourced by bash, completes `kifucam rec`. */
static void test_man_and_completion_found(void **state)
{
    (void)state;
    char cmd[2048];
    int rc;
    if (kc_run("command -v man >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "MANPATH='%s/share/man' man -w kifucam", root);
        char *out = run(cmd, "man-w.txt", &rc);
        assert_int_equal(rc, 0);
        char want[512];
        snprintf(want, sizeof want, "%s/share/man/man1/kifucam.1\n", root);
        assert_string_equal(out, want);
        free(out);
    } else {
        print_message("man is not installed: `man -w kifucam` not tried\n");
    }
    snprintf(cmd, sizeof cmd,
             "bash -c 'source \"$0\" && COMP_WORDS=(kifucam rec) COMP_CWORD=1 && _kifucam && "
             "echo \"${COMPREPLY[*]}\"' '%s/share/bash-completion/completions/kifucam'",
             root);
    char *out = run(cmd, "complete.txt", &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(out, "record\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_in_place),
        cmocka_unit_test(test_installed_program_runs),
        cmocka_unit_test(test_man_and_completion_found),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
