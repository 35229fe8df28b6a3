/* record_relay.c: `kifucam record --relay` (record_relay.h): the options, and the bridge
 * from the recording loop to relay/rly.h. The recording never waits for the broker: every
 * call here only queues; what the link does is read back once a frame and said once per
 * change ("relay: connected", "relay: broker unreachable ...: recording locally").
 */
#include "app/record_relay.h"
#include "app/cli.h"
#include "relay/rly.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RR_IDLE_S 1.0           /* an unchanged game's state (the clock) at most this often */

struct rec_relay {
    rly_t *rly;
    char url[512];
    char journal[600];
    char *last_state;           /* the latest state handed over */
    char *last_sgf;
    int last_moves, last_phase;
    char last_result[32];
    double last_t;
    uint64_t changes;           /* rly_status changes already said */
    int said_down;              /* the link's loss said since it was last up */
    double flush_s;
};

const char rec_relay_usage[] =
    "  --relay mqtt://[USER[:PASS]@]HOST[:PORT]/PREFIX\n"
    "                     publish the game to an MQTT broker (mqtts:// for TLS) under\n"
    "                     PREFIX/BOARD/: state (retained), sgf (retained), event, status;\n"
    "                     a broker that is down or refuses is retried, the game is\n"
    "                     recorded all the same and what it missed is sent when it is back\n"
    "  --board NAME       the board's name or table number (A-Z a-z 0-9 . _ -; default:\n"
    "                     the host name)\n"
    "  --round R          the round (shown by the hub)\n"
    "  --relay-user NAME, --relay-pass PASS   the broker's credentials (or in the URL;\n"
    "                     the password also from $KIFUCAM_RELAY_PASS)\n"
    "  --relay-ca FILE    the CA certificate (PEM) that signs the broker's (TLS)\n"
    "  --relay-flush S    at the end, wait up to S seconds for the broker (default 5);\n"
    "                     exit 1 when some of the game could not be delivered (it stays\n"
    "                     in SGF.relay and goes with the next --resume)\n";

int rec_relay_parse(rec_relay_opts_t *o, int argc, char **argv, int *i)
{
    static const char *const names[] = { "--relay", "--board", "--round", "--relay-user",
                                         "--relay-pass", "--relay-ca", "--relay-flush", NULL };
    const char *a = argv[*i], *val = NULL;
    int k;
    for (k = 0; names[k]; k++) {
        size_t n = strlen(names[k]);
        if (!strcmp(a, names[k])) {
            if (*i + 1 >= argc) {
                cli_error("record", "%s needs a value", a);
                return -1;
            }
            val = argv[++*i];
            break;
        }
        if (!strncmp(a, names[k], n) && a[n] == '=') {
            val = a + n + 1;
            break;
        }
    }
    if (!names[k])
        return 0;
    switch (k) {
    case 0: {
        rly_url_t u;
        char why[160];
        if (rly_url_parse(val, &u, why, sizeof why) != RLY_OK) {
            cli_error("record", "--relay: '%s': %s", val, why);
            return -1;
        }
        o->url = val;
        break;
    }
    case 1:
        if (!rly_name_ok(val)) {
            cli_error("record", "--board: '%s' is not a board name (1 to %d of A-Z a-z 0-9 . _ -)",
                      val, RLY_NAME_MAX);
            return -1;
        }
        o->board = val;
        break;
    case 2:
        if (strlen(val) > 64) {
            cli_error("record", "--round: longer than 64 characters");
            return -1;
        }
        o->round = val;
        break;
    case 3: o->user = val; break;
    case 4: o->pass = val; break;
    case 5: o->ca = val; break;
    default: {
        char *end;
        double s = strtod(val, &end);
        if (end == val || *end || !(s >= 0 && s <= 3600)) {
            cli_error("record", "--relay-flush: '%s' is not a time in seconds (0..3600)", val);
            return -1;
        }
        o->flush_s = s;
        o->flush_s = o->flush_s > 0 ? o->flush_s : 1e-3;
        break;
    }
    }
    return 1;
}

int rec_relay_start(rec_t *r, const rec_relay_opts_t *o, const char *sgf_path, int resume)
{
    if (!o->url) {
        if (o->board || o->round || o->user || o->pass || o->ca || o->flush_s > 0) {
            cli_error("record", "--board, --round and --relay-* need --relay URL");
            return -1;
        }
        return 0;
    }
    struct rec_relay *rr = calloc(1, sizeof *rr);
    if (!rr) {
        cli_error("record", "out of memory");
        return -1;
    }
    char host[RLY_NAME_MAX + 1] = "";
    const char *board = o->board;
    if (!board) {
        /* the host's name, cut to a board name */
        char hn[256] = "";
        gethostname(hn, sizeof hn - 1);
        size_t n = 0;
        for (size_t k = 0; hn[k] && hn[k] != '.' && n < RLY_NAME_MAX; k++)
            host[n++] = hn[k];
        host[n] = '\0';
        board = rly_name_ok(host) ? host : "station";
    }
    snprintf(rr->journal, sizeof rr->journal, "%s.relay", sgf_path);
    rly_config_t c;
    rly_config_defaults(&c);
    c.url = o->url;
    c.board = board;
    c.round = o->round;
    c.user = o->user;
    c.pass = o->pass ? o->pass : getenv("KIFUCAM_RELAY_PASS");
    c.ca_file = o->ca;
    c.journal = rr->journal;
    c.resume = resume;
    char err[256];
    int rc = rly_create(&c, &rr->rly, err, sizeof err);
    if (rc != RLY_OK) {
        cli_error("record", "--relay: %s", err);
        free(rr);
        return -1;
    }
    /* the URL as said on stdout: without its password */
    rly_url_t u;
    rly_url_parse(o->url, &u, err, sizeof err);
    snprintf(rr->url, sizeof rr->url, "%s://%s%s%.200s:%d/%s", u.tls ? "mqtts" : "mqtt",
             u.user[0] ? u.user : "", u.user[0] ? "@" : "", u.host, u.port, u.prefix);
    rr->last_moves = rr->last_phase = -1;
    rr->flush_s = o->flush_s > 0 ? o->flush_s : 5.0;
    r->relay = rr;
    rec_print_note(r, "relay", -1, "relay: %s as board %s%s%s (journal %s)", rr->url, board,
                   o->round ? ", round " : "", o->round ? o->round : "", rr->journal);
    return 0;
}

/* What the link did since the last look, said once per change. */
static void say_link(rec_t *r, struct rec_relay *rr)
{
    rly_status_t st;
    rly_status(rr->rly, &st);
    if (st.changes == rr->changes)
        return;
    rr->changes = st.changes;
    char msg[1024];
    if (st.link == RLY_LINK_UP) {
        snprintf(msg, sizeof msg, "relay: connected to %s%s", rr->url,
                 st.connects > 1 ? " again: sending what the broker missed" : "");
        rec_print_note(r, "relay", r->t_now, "%s", msg);
        if (rr->said_down)
            rec_add_msg(r, "info", "arbiter", "relay: the broker is back: the game is sent again");
        rr->said_down = 0;
    } else if (st.link == RLY_LINK_REFUSED) {
        snprintf(msg, sizeof msg, "relay: %s: %s: recording locally", rr->url, st.reason);
        cli_error("record", "%s", msg);
        rec_add_msg(r, "error", "arbiter", msg);
        rr->said_down = 1;
    } else if (st.link == RLY_LINK_DOWN && !rr->said_down) {
        snprintf(msg, sizeof msg, "relay: broker unreachable (%s): recording locally, "
                 "retrying", st.reason);
        rec_print_note(r, "relay", r->t_now, "%s", msg);
        rec_add_msg(r, "warn", "arbiter", msg);
        rr->said_down = 1;
    }
}

void rec_relay_poll(rec_t *r, int force)
{
    struct rec_relay *rr = r->relay;
    if (!rr)
        return;
    say_link(r, rr);
    if (!r->stn)
        return;
    int moves = go_game_move_count(stn_game(r->stn));
    double now = cli_now_s();
    int news = moves != rr->last_moves || r->phase != rr->last_phase ||
               strcmp(r->result, rr->last_result) != 0;
    if (!force && !news && (!r->dirty || now - rr->last_t < RR_IDLE_S))
        return;
    char *js = rec_state_json(r);
    if (js && (!rr->last_state || strcmp(js, rr->last_state))) {
        rly_publish_state(rr->rly, js);
        free(rr->last_state);
        rr->last_state = js;
        js = NULL;
    }
    free(js);
    rr->last_t = now;
    if (news || force) {
        char *sgf;
        if (stn_record_text(r->stn, &sgf) == GO_OK) {
            if (!rr->last_sgf || strcmp(sgf, rr->last_sgf)) {
                rly_publish_sgf(rr->rly, sgf);
                free(rr->last_sgf);
                rr->last_sgf = sgf;
            } else {
                free(sgf);
            }
        }
    }
    rr->last_moves = moves;
    rr->last_phase = r->phase;
    snprintf(rr->last_result, sizeof rr->last_result, "%s", r->result);
}

void rec_relay_event(rec_t *r, json_t *o)
{
    struct rec_relay *rr = r->relay;
    if (!rr || !o)
        return;
    const char *kind = json_string_value(json_object_get(o, "event"));
    if (kind && !strcmp(kind, "relay"))
        return;   /* the relay's own news stays local */
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    if (s && rly_publish_event(rr->rly, s) == RLY_EIO)
        rec_print_note(r, "relay", -1, "relay: %s cannot be written (%s): the event is kept in "
                       "memory only", rr->journal, strerror(errno));
    free(s);
}

int rec_relay_finish(rec_t *r)
{
    struct rec_relay *rr = r->relay;
    if (!rr)
        return 0;
    int rc = rly_flush(rr->rly, rr->flush_s);
    say_link(r, rr);
    rly_status_t st;
    rly_status(rr->rly, &st);
    if (rc == RLY_OK) {
        rec_print_note(r, "relay", -1, "relay: everything delivered to %s", rr->url);
        return 0;
    }
    if (st.pending > 0)
        cli_error("record", "relay: %s: %s; %d event%s not delivered, kept in %s (sent with the "
                  "next --resume)", rr->url, st.reason[0] ? st.reason : "the broker did not answer",
                  st.pending, st.pending == 1 ? "" : "s", rr->journal);
    else
        cli_error("record", "relay: %s: %s; the latest state was not delivered (sent with the "
                  "next --resume)", rr->url, st.reason[0] ? st.reason : "the broker did not answer");
    return -1;
}

void rec_relay_destroy(rec_t *r)
{
    struct rec_relay *rr = r->relay;
    if (!rr)
        return;
    rly_destroy(rr->rly);
    free(rr->last_state);
    free(rr->last_sgf);
    free(rr);
    r->relay = NULL;
}
