/* cmd_render.c: `kifucam render` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("render", "not implemented yet");
    return 2;
}
