/* cmd_record.c: `kifucam record` (placeholder until its issue lands). */
#include "app/cli.h"

int cmd_record(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("record", "not implemented yet");
    return 2;
}
