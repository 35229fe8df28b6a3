/* cmd_hub.c: `kifucam hub --broker URL --serve ADDR:PORT`: the tournament hub (relay/hub.h)
 * until SIGINT or SIGTERM. It says on stdout where it serves, each change of the broker's
 * link (a broker unreachable once until it is back) and each change of the number of
 * boards. A broker that is down is waited for (the stations may start first or later); one
 * that refuses our credentials, or whose TLS certificate --broker-ca does not accept, is
 * exit 2 in one line on stderr.
 */
#include "app/cli.h"
#include "relay/hub.h"
#include "web/web.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
    "usage: kifucam hub --broker mqtt://[USER[:PASS]@]HOST[:PORT]/PREFIX [OPTIONS]\n"
    "Show every board that `kifucam record --relay` publishes under PREFIX: the tournament\n"
    "page, each board's overlay, the multi-board overlay (OBS), /boards.json, each board's\n"
    "live SGF.\n\n"
    "  --broker URL       the broker (mqtts:// for TLS); the same URL as the stations'\n"
    "  --serve ADDR:PORT  where to serve the pages (default 127.0.0.1:8090)\n"
    "  --broker-user NAME, --broker-pass PASS   credentials (or in the URL; the password\n"
    "                     also from $KIFUCAM_HUB_PASS)\n"
    "  --broker-ca FILE   the CA certificate (PEM) that signs the broker's (TLS)\n"
    "  --token TOKEN      the actions' token (default: random, printed at start)\n"
    "  --max-clients N    HTTP connections at once (default 64)\n"
    "  --help             this text\n"
    "Pages: / (the tournament), /overlay?board=NAME, /overlay (every board; ?boards=A,B,\n"
    "?cols=N, ?bg=none), /boards.json, /board/NAME.sgf, /board/NAME.json, /events.\n";

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

int cmd_hub(int argc, char **argv)
{
    hub_config_t c;
    hub_config_defaults(&c);
    const char *serve = "127.0.0.1:8090";
    c.pass = getenv("KIFUCAM_HUB_PASS");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
        static const char *const names[] = { "--broker", "--serve", "--broker-user",
                                             "--broker-pass", "--broker-ca", "--token",
                                             "--max-clients", NULL };
        const char *val = NULL;
        int k;
        for (k = 0; names[k]; k++) {
            size_t n = strlen(names[k]);
            if (!strcmp(a, names[k])) {
                if (i + 1 >= argc) {
                    cli_error("hub", "%s needs a value", a);
                    return 2;
                }
                val = argv[++i];
                break;
            }
            if (!strncmp(a, names[k], n) && a[n] == '=') {
                val = a + n + 1;
                break;
            }
        }
        if (!names[k]) {
            cli_error("hub", "unknown option '%s' (kifucam hub --help lists them)", a);
            return 2;
        }
        switch (k) {
        case 0: c.url = val; break;
        case 1: serve = val; break;
        case 2: c.user = val; break;
        case 3: c.pass = val; break;
        case 4: c.ca_file = val; break;
        case 5: c.token = val; break;
        default: {
            char *end;
            long n = strtol(val, &end, 10);
            if (end == val || *end || n < 4 || n > 4096) {
                cli_error("hub", "--max-clients: '%s' is not a number 4..4096", val);
                return 2;
            }
            c.max_clients = (int)n;
        }
        }
    }
    if (!c.url) {
        cli_error("hub", "--broker URL is required (kifucam hub --help)");
        return 2;
    }
    web_config_t wc;
    char addr[64];
    web_config_defaults(&wc);
    if (web_config_parse_listen(&wc, serve, addr, sizeof addr) != WEB_OK) {
        cli_error("hub", "--serve: '%s' is not ADDR:PORT", serve);
        return 2;
    }
    c.address = addr;
    c.port = wc.port;
    if (c.token && strlen(c.token) > 128) {
        cli_error("hub", "--token: longer than 128 characters");
        return 2;
    }
    hub_t *h;
    char err[256];
    if (hub_create(&c, &h, err, sizeof err) != HUB_OK) {
        cli_error("hub", "%s", err);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int v6 = strchr(addr, ':') != NULL;
    printf("hub: http://%s%s%s:%d/ (the tournament page; actions need the token %s)\n",
           v6 ? "[" : "", addr, v6 ? "]" : "", hub_port(h), hub_token(h));
    fflush(stdout);
    uint64_t changes = 0;
    int nb = 0, code = 0, said = 0;   /* said: the link last said (0: none yet) */
    while (!g_stop) {
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        hub_status_t st;
        hub_status(h, &st);
        if (st.changes != changes) {
            changes = st.changes;
            if (st.link == 1) {
                printf("hub: connected to the broker\n");
                said = 1;
            } else if (st.link == 3) {
                cli_error("hub", "--broker: %s", st.reason);
                code = 2;
                break;
            } else if (st.link == 2 && said != 2) {
                /* once until it is up again, whatever the next attempts' reasons */
                printf("hub: broker unreachable (%s): retrying\n", st.reason);
                said = 2;
            }
        }
        if (st.boards != nb) {
            printf("hub: %d board%s\n", st.boards, st.boards == 1 ? "" : "s");
            nb = st.boards;
        }
        fflush(stdout);
    }
    hub_destroy(h);
    return code;
}
