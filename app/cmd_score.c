/* cmd_score.c: `kifucam score` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_score(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("score", "not implemented yet");
    return 2;
}
