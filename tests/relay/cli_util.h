/* cli_util.h: helpers of the relay tests that run the kifucam binary (test_relay_cli.c,
 * test_relay_tls.c). The including file defines, before it includes this one,
 *   static char dir[64];     the test's folder (its footage in dir/foot)
 *   static const char *kc;   the kifucam binary
 * record() runs `kifucam record` on dir/foot with a tag naming its dir/TAG.out and .err;
 * text() reads one of them back (the last call's buffer); lines() counts lines;
 * sgf_moves() gives an SGF's main-line moves as "B[pd]W[dp]...".
 */
#ifndef KIFUCAM_TESTS_RELAY_CLI_UTIL_H
#define KIFUCAM_TESTS_RELAY_CLI_UTIL_H

#include <stdio.h>
#include <string.h>

#include "testutil.h"

static int record(const char *args, const char *tag)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' record --input '%s/foot' --fps 15 %s >'%s/%s.out' 2>'%s/%s.err'",
             kc, dir, args, dir, tag, dir, tag);
    return kc_run(cmd);
}

static const char *text(const char *tag, const char *ext)
{
    static char buf[16384];
    char path[256];
    snprintf(path, sizeof path, "%s/%s.%s", dir, tag, ext);
    kc_read_into(path, buf, sizeof buf);
    return buf;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The SGF's main-line moves as "B[pd]" tokens joined: "B[pd]W[dp]..." */
static void sgf_moves(const char *sgf, char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
    for (const char *p = sgf; p && *p; p++)
        if ((p[0] == 'B' || p[0] == 'W') && p[1] == '[' && (p == sgf || p[-1] == ';')) {
            const char *e = strchr(p, ']');
            if (!e || n + (size_t)(e - p) + 2 >= len)
                break;
            memcpy(out + n, p, (size_t)(e - p + 1));
            n += (size_t)(e - p + 1);
            out[n] = 0;
        }
}

#endif
