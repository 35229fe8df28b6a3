/* main.c: the kifucam executable: dispatches to one subcommand (cli.h); the helpers the
 * subcommands share (one-line errors, the safe image write). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "safeio/sio.h"
#include "vision/cv_bridge.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    { "check", cmd_check, "replay SGF records and report illegal moves" },
    { "score", cmd_score, "count the final position of an SGF record (or of a photo)" },
    { "count", cmd_count, "count a finished game from one photo" },
    { "detect", cmd_detect, "read the position from one photo or frame" },
    { "record", cmd_record, "record a game from a camera, a video or a folder of frames" },
    { "calibrate", cmd_calibrate, "calibrate a station and write its profile" },
    { "devices", cmd_devices, "list the V4L2 cameras" },
    { "render", cmd_render, "generate footage of a game with known truth" },
    { "hub", cmd_hub, "show every board relayed through an MQTT broker (the tournament hub)" },
};

int cli_write_image(const char *path, const cvb_image_t *img, int quality, char *why,
                    size_t whylen)
{
    const char *dot = strrchr(path, '/');
    dot = strrchr(dot ? dot : path, '.');
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = cvb_imencode(dot ? dot : ".png", img, quality, &buf, &len);
    if (rc != CVB_OK) {
        snprintf(why, whylen, "cannot encode the image (%s)", cvb_strerror(rc));
        return -1;
    }
    int sys = 0;
    rc = sio_write_atomic(path, buf, len, &sys);
    free(buf);
    if (rc != SIO_OK) {
        snprintf(why, whylen, "cannot write: %s", strerror(sys));
        return -1;
    }
    return 0;
}

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
