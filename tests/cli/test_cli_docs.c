/* test_cli_docs.c: the man page (and, below, the bash completion) say what the program's
 * own help says. The built kifucam ($KIFUCAM_BIN) lists its commands (`kifucam --help`);
 * for every one of them, every line of `kifucam CMD --help` must be in the man page as
 * groff renders it (KC_MAN_PAGE, made at build time by app/gen_man.cmake), in order,
 * inside that command's section. Skipped, visibly, without the binary or groff. */
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

static const char *bin(void)
{
    const char *b = getenv("KIFUCAM_BIN");
    return b && *b && access(b, X_OK) == 0 ? b : NULL;
}

#define REQUIRE_BIN(var)                                                            \
    const char *var = bin();                                                        \
    if (!var) {                                                                     \
        print_message("SKIP: $KIFUCAM_BIN is not an executable kifucam\n");         \
        skip();                                                                     \
    }

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
    REQUIRE_BIN(b);
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
        snprintf(heading, sizeof heading, "\n   kifucam %s\n", cmds[i]);
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
        snprintf(cmd, sizeof cmd, "'%s' %s --help", b, cmds[i]);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_man_page_has_every_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
