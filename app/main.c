/* main.c: the kifucam executable: dispatches to one subcommand (cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/cli.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    { "check", cmd_check, "replay SGF records and report illegal moves" },
    { "score", cmd_score, "count the final position of an SGF record" },
    { "detect", cmd_detect, "read the position from one photo or frame" },
    { "record", cmd_record, "record a game from a camera, a video or a folder of frames" },
    { "calibrate", cmd_calibrate, "calibrate a station and write its profile" },
    { "devices", cmd_devices, "list the V4L2 cameras" },
    { "render", cmd_render, "generate footage of a game with known truth" },
    { "hub", cmd_hub, "show every board relayed through an MQTT broker (the tournament hub)" },
};

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "kifucam %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: kifucam COMMAND [OPTIONS]   (kifucam COMMAND --help for each)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("kifucam 0.1.0\n");
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "kifucam: unknown command '%s' (kifucam --help lists them)\n", argv[1]);
    return 2;
}
