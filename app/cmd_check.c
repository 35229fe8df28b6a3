/* cmd_check.c: `kifucam check` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("check", "not implemented yet");
    return 2;
}
