/* main.c: the kifucam executable: dispatches to one subcommand (cli.h); the helpers the
 * subcommands share (one-line errors, the safe image write, the wait of a served page). */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static volatile sig_atomic_t g_serve_stop;

static void on_serve_signal(int sig)
{
    (void)sig;
    g_serve_stop = 1;
}

/* the handlers cli_serve_catch replaced, put back by cli_serve_wait (main thread only) */
static struct sigaction g_old_int, g_old_term;
static int g_caught;

void cli_serve_catch(void)
{
    if (g_caught)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_serve_signal;
    sigemptyset(&sa.sa_mask);
    g_serve_stop = 0;
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
    g_caught = 1;
}

int cli_serve_wait(pthread_mutex_t *mu, pthread_cond_t *cv, const int *done, double timeout_s)
{
    cli_serve_catch();
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 0;
    pthread_mutex_lock(mu);
    while (!(rc = *done) && !g_serve_stop) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9;
        if (timeout_s > 0 && el >= timeout_s) {
            rc = -1;
            break;
        }
        struct timespec until = now; /* wake every 0.2 s to see a signal */
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(cv, mu, &until);
    }
    pthread_mutex_unlock(mu);
    sigaction(SIGINT, &g_old_int, NULL);
    sigaction(SIGTERM, &g_old_term, NULL);
    g_caught = 0;
    return rc > 0 ? 1 : rc;
}

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
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
