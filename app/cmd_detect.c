/* cmd_detect.c: `kifucam detect` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_detect(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("detect", "not implemented yet");
    return 2;
}
