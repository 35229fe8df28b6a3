/* cli.h: the kifucam subcommands. Each takes main's argc/argv shifted so that argv[0]
 * is the subcommand's name, and returns the process exit code of INTERFACE.md:
 * 0 success, 1 the work ran but found a problem, 2 bad usage or unreadable input.
 * Only app/ prints. */
#ifndef KIFUCAM_CLI_H
#define KIFUCAM_CLI_H

#include <pthread.h>
#include <stddef.h>

int cmd_check(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_hub(int argc, char **argv);
int cmd_count(int argc, char **argv);

/* `kifucam count`'s work under the name cmd ("count", or "score" for `score PHOTO`):
 * argv as cmd_count's. Returns the exit code (cmd_count.c). */
int count_main(const char *cmd, int argc, char **argv);

/* Write an image file (format from path's extension, JPEG at quality when > 0) the one
 * safe way (safeio/sio.h: a new temporary file renamed over path, no symlink followed).
 * Returns 0, or -1 with the reason in why (whylen bytes). */
struct cvb_image;
int cli_write_image(const char *path, const struct cvb_image *img, int quality, char *why,
                    size_t whylen);

/* A page served until it is done (`calibrate --serve`, `count --serve`): waits on cv (a
 * CLOCK_MONOTONIC condition, signalled under mu) until *done is set, SIGINT or SIGTERM
 * arrives (caught from cli_serve_catch or the wait's start, the old handlers put back
 * after), or timeout_s (> 0; 0 never) passes. The caller holds mu neither before nor
 * after. Returns 1 done, 0 a signal, -1 the time ran out. */
int cli_serve_wait(pthread_mutex_t *mu, pthread_cond_t *cv, const int *done, double timeout_s);
/* SIGINT and SIGTERM caught for the cli_serve_wait to come, before the page's address is
 * printed: one who stops the server as soon as it says where it is gets the wait's "nothing
 * written" and its exit code, not death by the signal (main thread only). */
void cli_serve_catch(void);

/* Seconds on the monotonic clock (CLOCK_MONOTONIC): wall time between two calls, for
 * speeds and waits; never goes back. */
double cli_now_s(void);

/* Print "kifucam CMD: MESSAGE" to stderr as one line (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
