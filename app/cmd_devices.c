/* cmd_devices.c: `kifucam devices` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_devices(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("devices", "not implemented yet");
    return 2;
}
