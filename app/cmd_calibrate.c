/* cmd_calibrate.c: `kifucam calibrate` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_calibrate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("calibrate", "not implemented yet");
    return 2;
}
