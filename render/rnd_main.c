/* rnd_main.c: the kifucam-render executable: the footage command of rnd_run.h on its
 * own (the same as `kifucam render`). Exit codes as INTERFACE.md (rnd_exit_code): 0 done,
 * 2 bad usage or unreadable input, 1 when the output could not be written.
 */
#include <stdio.h>

#include "render/rnd_run.h"

static void progress(void *ctx, int done, int total)
{
    (void)ctx;
    fprintf(stderr, "\rkifucam-render: frame %d/%d", done, total);
    if (done == total)
        fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    rnd_opts_t o;
    int help;
    char err[512];
    if (rnd_opts_parse(argc, argv, &o, &help, err, sizeof err)) {
        fprintf(stderr, "kifucam-render: %s\n", err);
        return 2;
    }
    if (help) {
        fputs(rnd_usage(), stdout);
        return 0;
    }
    int rc = rnd_run(&o, progress, NULL, err, sizeof err);
    if (rc) {
        fprintf(stderr, "kifucam-render: %s\n", err);
        return rnd_exit_code(rc);
    }
    return 0;
}
