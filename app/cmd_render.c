/* cmd_render.c: `kifucam render`: the footage generator of render/rnd_run.h (the same
 * options and output as kifucam-render). Progress on stderr. */
#include <stdio.h>

#include "app/cli.h"
#include "render/rnd_run.h"

static void progress(void *ctx, int done, int total)
{
    (void)ctx;
    fprintf(stderr, "\rkifucam render: frame %d/%d", done, total);
    if (done == total)
        fputc('\n', stderr);
}

int cmd_render(int argc, char **argv)
{
    rnd_opts_t o;
    int help;
    char err[512];
    if (rnd_opts_parse(argc, argv, &o, &help, err, sizeof err)) {
        cli_error("render", "%s", err);
        return 2;
    }
    if (help) {
        fputs(rnd_usage(), stdout);
        return 0;
    }
    int rc = rnd_run(&o, progress, NULL, err, sizeof err);
    if (rc) {
        cli_error("render", "%s", err);
        return rnd_exit_code(rc);
    }
    return 0;
}
