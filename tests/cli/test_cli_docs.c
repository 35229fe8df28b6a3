/* test_cli_docs.c: the man page and the bash completion say what the program's own help
 * says. The built kifucam ($KIFUCAM_BIN) lists its commands (`kifucam --help`); for every
 * one of them, every line of `kifucam CMD --help` must be in the man page as groff
 * renders it (KC_MAN_PAGE, made at build time by app/gen_man.cmake), in order, inside
 * that command's section; and the completion (KC_COMPLETION, app/gen_completion.cmake),
 * sourced in bash, completes the commands, every option a help line starts with, and
 * the words of an option written "--opt a|b|c". Skipped, visibly, without the binary,
 * groff (the man page) or bash (the completion). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define MAX_CMDS 32

static char dir[64];

/* Run the shell command `cmd` with its stdout into dir/NAME; that file's text (the
 * caller frees it), or fail the test when the command does not exit 0. */
static char *run_out(const char *cmd, const char *name)
{
    char line[4096], path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(line, sizeof line, "%s >'%s' 2>/dev/null", cmd, path);
    int rc = kc_run(line);
    if (rc != 0)
        print_error("'%s' exited %d\n", cmd, rc);
    assert_int_equal(rc, 0);
    char *text = kc_slurp(path, NULL);
    assert_non_null(text);
    return text;
}

/* The commands `kifucam --help` lists (lines "  NAME  summary"), into cmds[]; their count. */
static int list_commands(const char *b, char cmds[][32])
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --help", b);
    char *help = run_out(cmd, "help.txt");
    int n = 0;
    for (char *l = strtok(help, "\n"); l && n < MAX_CMDS; l = strtok(NULL, "\n")) {
        int len = 0;
        if (!strncmp(l, "  ", 2) && sscanf(l + 2, "%31[a-z0-9-]%n", cmds[n], &len) == 1 &&
            l[2 + len] == ' ')
            n++;
    }
    free(help);
    assert_true(n >= 8); /* check score detect record calibrate devices render hub */
    return n;
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/kc_docs_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Every line of every command's --help in the rendered man page, in order, within the
 * command's own section (from its heading "kifucam CMD" to the next heading). */
static void test_man_page_has_every_usage(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    if (kc_run("command -v groff >/dev/null 2>&1") != 0) {
        print_message("SKIP: groff is not installed (apt-get install groff-base)\n");
        skip();
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "groff -man -Tascii -P-cbou '%s'", KC_MAN_PAGE);
    char *man = run_out(cmd, "man.txt");
    char cmds[MAX_CMDS][32];
    int n = list_commands(b, cmds);
    int missing = 0;
    for (int i = 0; i < n; i++) {
        char heading[64];
        snprintf(heading, sizeof heading, "\n   kifucam %.31s\n", cmds[i]);
        const char *pos = strstr(man, heading);
        if (!pos) {
            print_error("the man page has no section for '%s'\n", cmds[i]);
            missing++;
            continue;
        }
        pos += strlen(heading);
        const char *end = strstr(pos, "\n   kifucam ");
        if (!end)
            end = strstr(pos, "\nEXIT STATUS");
        if (!end)
            end = pos + strlen(pos);
        snprintf(cmd, sizeof cmd, "'%s' %.31s --help", b, cmds[i]);
        char *help = run_out(cmd, "cmdhelp.txt");
        int lines = 0;
        for (char *l = strtok(help, "\n"); l; l = strtok(NULL, "\n")) {
            while (*l == ' ')
                l++;
            size_t len = strlen(l);
            while (len && l[len - 1] == ' ')
                l[--len] = '\0';
            if (!len)
                continue;
            lines++;
            const char *at = strstr(pos, l);
            if (!at || at >= end) {
                print_error("kifucam %s --help: not in its man page section: '%s'\n", cmds[i], l);
                missing++;
                continue;
            }
            pos = at + len;
        }
        if (lines < 2) {
            print_error("kifucam %s --help printed %d line(s)\n", cmds[i], lines);
            missing++;
        }
        free(help);
    }
    free(man);
    assert_int_equal(missing, 0);
}

#define REQUIRE_BASH()                                                              \
    if (kc_run("command -v bash >/dev/null 2>&1") != 0) {                           \
        print_message("SKIP: bash is not installed\n");                             \
        skip();                                                                     \
    }

/* What the completion offers for the words WORDS (shell-quoted, the last one the word
 * being completed): bash sources KC_COMPLETION and calls the function `complete -p
 * kifucam` names, as readline would. The candidates one a line, sorted (caller frees). */
static char *complete_words(const char *words)
{
    static const char driver[] =
        "source \"$1\" || exit 3; shift\n"
        "spec=$(complete -p kifucam) || exit 4\n"
        "fn=${spec##*-F }; fn=${fn%% *}\n"
        "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}\n"
        "COMPREPLY=(); \"$fn\" kifucam \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        "printf '%s\\n' \"${COMPREPLY[@]}\" | sort\n";
    char path[256], cmd[4096];
    snprintf(path, sizeof path, "%s/complete.sh", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(driver, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "bash '%s' '%s' %s", path, KC_COMPLETION, words);
    return run_out(cmd, "complete.txt");
}

static void test_completion_of_the_brief(void **state)
{
    (void)state;
    REQUIRE_BASH();
    char *c = complete_words("kifucam rec");
    assert_string_equal(c, "record\n");
    free(c);
    c = complete_words("kifucam record --res");
    assert_string_equal(c, "--resume\n");
    free(c);
    c = complete_words("kifucam detect --format ''");
    assert_string_equal(c, "json\nsgf\ntext\n");
    free(c);
    c = complete_words("kifucam record --format j");
    assert_string_equal(c, "json\n");
    free(c);
    c = complete_words("kifucam ''");
    assert_non_null(strstr(c, "calibrate\n"));
    assert_non_null(strstr(c, "hub\n"));
    free(c);
    /* a file argument: nothing offered, bash's default (file names) completes it */
    c = complete_words("kifucam detect sam");
    assert_string_equal(c, "\n");
    free(c);
}

/* For every command, each option that starts a line of its --help ("  --opt ..." and the
 * second of "--a X, --b Y"), and --help, among what `kifucam CMD -` completes. */
static void test_completion_has_every_option(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    REQUIRE_BASH();
    char cmds[MAX_CMDS][32];
    int n = list_commands(b, cmds), missing = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "kifucam %.31s -", cmds[i]);
        char *offered = complete_words(cmd);
        snprintf(cmd, sizeof cmd, "'%s' %.31s --help", b, cmds[i]);
        char *help = run_out(cmd, "cmdhelp.txt");
        char opt[64];
        for (char *l = strtok(help, "\n"); l; l = strtok(NULL, "\n")) {
            for (int k = 0; k < 2 && l; k++) {
                while (*l == ' ')
                    l++;
                if (sscanf(l, "%62[a-z0-9-]", opt) != 1 || strncmp(opt, "--", 2) || !opt[2])
                    break;
                char want[80];
                snprintf(want, sizeof want, "\n%s\n", opt);
                char *o = malloc(strlen(offered) + 2);
                assert_non_null(o);
                sprintf(o, "\n%s", offered);
                checked++;
                if (!strstr(o, want)) {
                    print_error("kifucam %s -<TAB> does not offer %s\n", cmds[i], opt);
                    missing++;
                }
                free(o);
                l = strstr(l, ", --"); /* "--black NAME, --white NAME" */
                if (l)
                    l += 2;
            }
        }
        if (!strstr(offered, "--help\n")) {
            print_error("kifucam %s -<TAB> does not offer --help\n", cmds[i]);
            missing++;
        }
        free(help);
        free(offered);
    }
    assert_true(checked >= 60);
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_man_page_has_every_usage),
        cmocka_unit_test(test_completion_of_the_brief),
        cmocka_unit_test(test_completion_has_every_option),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
