/* record_out.c: what `kifucam record` says: the station's events on stdout (text, or one
 * JSON object per line) and the state JSON published to the web pages (built by
 * web_state_json, the one schema the pages read: web.h documents its fields). Callers hold r->mu when the web server runs. A failed write to stdout (a
 * reader that closed the pipe: SIGPIPE is ignored, the write says EPIPE) is said once on
 * stderr; from then on nothing is printed and the recording goes on.
 */
#include "app/record.h"
#include "app/cli.h"
#include "app/record_relay.h"
#include "loop/rl_loop.h"
#include "rules/go_point.h"
#include "web/web_state.h"

#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *col_name(go_color_t c)
{
    return c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : "";
}

void rec_add_msg(rec_t *r, const char *level, const char *audience, const char *text)
{
    if (r->nmsgs == REC_MSGS) {
        memmove(r->msgs, r->msgs + 1, (REC_MSGS - 1) * sizeof r->msgs[0]);
        r->nmsgs--;
    }
    rec_msg_t *m = &r->msgs[r->nmsgs++];
    snprintf(m->level, sizeof m->level, "%s", level);
    snprintf(m->audience, sizeof m->audience, "%s", audience);
    snprintf(m->text, sizeof m->text, "%s", text);
    r->dirty = 1;
}

static const char *ev_level(stn_event_kind_t k)
{
    switch (k) {
    case STN_EV_VOID:
    case STN_EV_TWO_IN_A_ROW:
    case STN_EV_MOVED:
    case STN_EV_RESTORE:
    case STN_EV_WARNING:
    case STN_EV_CYCLE:
    case STN_EV_UNEXPLAINED:
    case STN_EV_BOARD_LOST:
        return "warn";
    case STN_EV_LOSS:
    case STN_EV_RECORD_ERROR:
        return "error";
    case STN_EV_MOVE:
    case STN_EV_PASS:
        return NULL;
    default:
        return "info";
    }
}

void rec_out_flush(rec_t *r)
{
    if (r->out_lost)
        return;
    if (fflush(r->out) != 0 || ferror(r->out)) {
        /* the reader went away (a closed pipe: EPIPE, SIGPIPE being ignored) or the
         * disk is full: the events are no longer printed, the recording goes on */
        int e = errno;
        r->out_lost = 1;
        cli_error("record", "stdout: %s: events are no longer printed; the recording goes "
                  "on (the record is written as before)", strerror(e ? e : EIO));
    }
}

static void put_json(rec_t *r, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    if (s) {
        fprintf(r->out, "%s\n", s);
        free(s);
    }
    json_decref(o);
    rec_out_flush(r);
}

void rec_print_event(rec_t *r, const stn_event_t *e)
{
    char pt[3] = "";
    if (e->npoints > 0)
        go_point_to_sgf(e->points[0], pt);
    const char *lvl = ev_level(e->kind);
    if (lvl && e->msg[0])
        rec_add_msg(r, lvl, stn_event_audience(e->kind), e->msg);
    r->dirty = 1;
    if (r->json || r->relay) {   /* the JSON line, also the relay's event */
        json_t *o = json_object();
        json_object_set_new(o, "event", json_string(stn_event_kind_name(e->kind)));
        if (e->move)
            json_object_set_new(o, "n", json_integer(e->move));
        if (e->color == GO_BLACK || e->color == GO_WHITE)
            json_object_set_new(o, "color", json_string(col_name(e->color)));
        if (e->kind == STN_EV_MOVE) {
            json_object_set_new(o, "point", json_string(pt));
            if (e->npoints > 1) {
                json_t *a = json_array();
                for (int i = 1; i < e->npoints; i++) {
                    char q[3];
                    go_point_to_sgf(e->points[i], q);
                    json_array_append_new(a, json_string(q));
                }
                json_object_set_new(o, "captured", a);
            }
        } else if (e->npoints > 0) {
            json_t *a = json_array();
            for (int i = 0; i < e->npoints; i++) {
                char q[3];
                go_point_to_sgf(e->points[i], q);
                json_array_append_new(a, json_string(q));
            }
            json_object_set_new(o, "points", a);
        }
        json_object_set_new(o, "t", json_real((double)(long long)(e->t * 1000 + 0.5) / 1000));
        if (e->kind == STN_EV_MOVE)
            json_object_set_new(o, "t_hand",
                                json_real((double)(long long)(e->t_hand * 1000 + 0.5) / 1000));
        json_object_set_new(o, "frame", json_integer((json_int_t)e->frame));
        json_object_set_new(o, "audience", json_string(stn_event_audience(e->kind)));
        if (e->msg[0])
            json_object_set_new(o, "message", json_string(e->msg));
        if (e->zh[0])
            json_object_set_new(o, "zh", json_string(e->zh));
        rec_relay_event(r, o);
        if (r->json && !r->out_lost) {
            put_json(r, o);
            return;
        }
        json_decref(o);
    }
    /* a reader that closed stdout: nothing more is printed (the relay still gets all) */
    if (r->out_lost || r->json)
        return;
    if (e->kind == STN_EV_MOVE) {
        char h[4] = "";   /* people read this line: the human form (Q16) */
        if (e->npoints > 0)
            go_point_human(go_game_board(stn_game(r->stn))->size, e->points[0], h);
        fprintf(r->out, "%8.2fs  move %d: %s %s", e->t, e->move, col_name(e->color), h);
        if (e->ncaptured > 0)
            fprintf(r->out, " (captures %d)", e->ncaptured);
        fputc('\n', r->out);
    } else if (e->zh[0]) {
        fprintf(r->out, "%8.2fs  %s: %s / %s\n", e->t, stn_event_kind_name(e->kind), e->msg,
                e->zh);
    } else {
        fprintf(r->out, "%8.2fs  %s: %s\n", e->t, stn_event_kind_name(e->kind),
                e->msg[0] ? e->msg : "");
    }
    rec_out_flush(r);
}

const char *rec_note_audience(const char *kind)
{
    /* what a viewer follows: the count and the result; the rest (the signal reader's
     * readings, which play often undoes, the board found or lost, the camera, resuming,
     * serving, the relay, the voice) is the arbiter's, as stn_event_audience has it for
     * the station's events. The station's passes and end are viewers' events, and one end
     * signal seen is told to viewers in /state.json's messages (signals()). */
    static const char *const viewer[] = { "count", "result", NULL };
    for (int i = 0; kind && viewer[i]; i++)
        if (!strcmp(kind, viewer[i]))
            return "viewer";
    return "arbiter";
}

void rec_print_note(rec_t *r, const char *kind, double t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_t *o = NULL;   /* the note as the relay and --format json carry it, built once */
    if (r->relay || (r->json && !r->out_lost)) {
        o = json_object();
        json_object_set_new(o, "event", json_string(kind));
        if (t >= 0)
            json_object_set_new(o, "t", json_real((double)(long long)(t * 1000 + 0.5) / 1000));
        json_object_set_new(o, "audience", json_string(rec_note_audience(kind)));
        json_object_set_new(o, "message", json_string(buf));
    }
    rec_relay_event(r, o);   /* notes (the count, the result, signals) are the relay's too */
    if (r->out_lost) {
        json_decref(o);
        return;
    }
    if (r->json) {
        put_json(r, o);
    } else {
        json_decref(o);   /* the relay's, when there is one */
        if (t >= 0)
            fprintf(r->out, "%8.2fs  %s\n", t, buf);
        else
            fprintf(r->out, "%s\n", buf);
        rec_out_flush(r);
    }
}

char *rec_state_json(rec_t *r)
{
    if (!r->stn)
        return NULL;
    /* the one schema the pages read (web_state.h), from the station's game and count */
    const stn_meta_t *m = stn_meta(r->stn);
    web_message_t msgs[REC_MSGS];
    for (int i = 0; i < r->nmsgs && i < REC_MSGS; i++) {
        msgs[i].level = r->msgs[i].level;
        msgs[i].text = r->msgs[i].text;
        msgs[i].audience = r->msgs[i].audience;
    }
    web_state_info_t info;
    memset(&info, 0, sizeof info);
    info.black_name = m->black[0] ? m->black : "Black";
    info.white_name = m->white[0] ? m->white : "White";
    info.komi2 = m->komi2;
    info.handicap = m->handicap;
    info.phase = r->phase == 0 ? "play" : r->phase == 1 ? "counting" : "over";
    const char *res = r->result[0] ? r->result : m->result;
    info.result = res[0] ? res : NULL;
    info.session = stn_session(r->stn);
    info.messages = msgs;
    info.nmessages = r->nmsgs < REC_MSGS ? r->nmsgs : REC_MSGS;
    char cj[1024];
    if (r->has_clock) {
        double now = r->t_now - r->clock_lag;
        int n = stn_clock_json(r->stn, now > 0 ? now : 0, cj, sizeof cj);
        if (n > 0 && (size_t)n < sizeof cj)
            info.clock_json = cj;
    }
    char *js = NULL;
    return web_state_json(stn_game(r->stn), &info, &js) == WEB_OK ? js : NULL;
}

/* ---------------------------------------------------------------- --speak */

extern char **environ;

/* Is espeak-ng an executable somewhere on PATH? */
static int rec_have_espeak(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *c = strchr(path, ':');
        size_t n = c ? (size_t)(c - path) : strlen(path);
        char f[1024];
        if (n > 0 && n < sizeof f - 16) {
            snprintf(f, sizeof f, "%.*s/espeak-ng", (int)n, path);
            struct stat st;
            if (stat(f, &st) == 0 && S_ISREG(st.st_mode) && access(f, X_OK) == 0)
                return 1;
        }
        path += n;
        if (*path == ':')
            path++;
    }
    return 0;
}

void rec_speak_fini(rec_t *r)
{
    int k = 0;
    for (int i = 0; i < r->nkids; i++)
        if (waitpid(r->kids[i], NULL, WNOHANG) == 0)
            r->kids[k++] = r->kids[i];   /* still speaking */
    r->nkids = k;
}

void rec_speak(rec_t *r, const stn_event_t *e)
{
    if (!r->speak || e->kind != STN_EV_CLOCK || !e->msg[0])
        return;
    if (r->speak_ok == 0) {
        r->speak_ok = rec_have_espeak() ? 1 : -1;
        if (r->speak_ok < 0)
            rec_print_note(r, "speak", -1, "speak: espeak-ng is not installed (apt-get install "
                           "espeak-ng): the calls are shown, not spoken");
    }
    if (r->speak_ok < 0)
        return;
    rec_speak_fini(r);
    if (r->nkids == (int)(sizeof r->kids / sizeof r->kids[0]))
        return;   /* too many calls still being spoken: skip this one rather than wait */
    /* Chinese: the arbiter's words; the other voices read the English call */
    char text[STN_EV_MSG];
    snprintf(text, sizeof text, "%s", !strcmp(r->speak, "zh") && e->zh[0] ? e->zh : e->msg);
    char voice[8];
    snprintf(voice, sizeof voice, "%s", r->speak);
    char prog[] = "espeak-ng", opt[] = "-v";
    char *argv[] = { prog, opt, voice, text, NULL };
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return;
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    if (posix_spawnp(&pid, prog, &fa, NULL, argv, environ) == 0)
        r->kids[r->nkids++] = pid;
    posix_spawn_file_actions_destroy(&fa);
}

/* A word of a shell command as typed: as it is when it needs no quotes, else in single
 * quotes (a quote inside as '\''). */
static void shell_word(char *out, size_t len, const char *w)
{
    size_t pos = 0;
    int plain = *w != '\0';
    for (const char *c = w; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:=,@%",
                       *c) != NULL;
    if (plain) {
        snprintf(out, len, "%s", w);
        return;
    }
    if (pos + 1 < len)
        out[pos++] = '\'';
    for (const char *c = w; *c && pos + 5 < len; c++) {
        if (*c == '\'') {
            memcpy(out + pos, "'\\''", 4);
            pos += 4;
        } else {
            out[pos++] = *c;
        }
    }
    if (pos + 1 < len)
        out[pos++] = '\'';
    out[pos < len ? pos : len - 1] = '\0';
}

void rec_print_resume(rec_t *r, const char *input, const char *sgf, const char *calib,
                      double fps, int nmoves)
{
    char in[1024], rec[1024], cal[1100] = "", fp[48] = "";
    shell_word(in, sizeof in, input);
    shell_word(rec, sizeof rec, sgf);
    if (calib) {
        char c[1024];
        shell_word(c, sizeof c, calib);
        snprintf(cal, sizeof cal, " --calib %s", c);
    }
    if (fps > 0)
        snprintf(fp, sizeof fp, " --fps %g", fps);
    rec_print_note(r, "interrupted", -1, "interrupted after %d moves: resume with: kifucam "
                   "record --input %s --resume %s%s%s", nmoves, in, rec, cal, fp);
}

void rec_print_stats(rec_t *r, const rl_stats_t *lsp, uint64_t frames, double wall,
                     double footage, double capture_s, double web_s)
{
    if (r->out_lost)
        return;
    const rl_stats_t ls = *lsp;
    double vis = ls.detect_s + ls.track_s;
    double tot = capture_s + vis + ls.station_s + ls.signal_s + web_s;
    if (tot <= 0)
        tot = 1e-9;
    double fps = wall > 0 ? frames / wall : 0, cfps = frames / tot;
    if (r->json) {
        fprintf(r->out,
                "{\"event\":\"stats\",\"frames\":%llu,\"seconds\":%.3f,\"fps\":%.1f,"
                "\"cpu_seconds\":%.3f,\"cpu_fps\":%.1f,\"footage_s\":%.2f,\"speed\":%.2f,"
                "\"cpu_speed\":%.2f,\"detects\":%llu,\"reads\":{\"made\":%llu,\"cached\":%llu,"
                "\"net_runs\":%llu,\"net_part_runs\":%llu,\"net_part_blocks\":%llu},"
                "\"ms\":{\"capture\":%.1f,\"detect\":%.1f,"
                "\"track\":%.1f,\"station\":%.1f,\"signals\":%.1f,\"web\":%.1f}}\n",
                (unsigned long long)frames, wall, fps, tot, cfps, footage,
                wall > 0 ? footage / wall : 0, footage / tot, (unsigned long long)ls.detects,
                (unsigned long long)ls.reads, (unsigned long long)ls.reads_cached,
                (unsigned long long)ls.net_runs, (unsigned long long)ls.net_part_runs,
                (unsigned long long)ls.net_part_blocks, capture_s * 1e3, ls.detect_s * 1e3,
                ls.track_s * 1e3, ls.station_s * 1e3, ls.signal_s * 1e3, web_s * 1e3);
    } else {
        fprintf(r->out,
                "frames: %llu in %.2f s (%.1f fps, %.1fx real time; CPU %.2f s: %.1f fps, "
                "%.1fx); CPU per stage: capture %.0f%%, detect %.0f%% (%llu runs), track %.0f%%, "
                "station %.0f%%, signals %.0f%%, web %.0f%%\n",
                (unsigned long long)frames, wall, fps, wall > 0 ? footage / wall : 0, tot,
                cfps, footage / tot, 100 * capture_s / tot, 100 * ls.detect_s / tot,
                (unsigned long long)ls.detects, 100 * ls.track_s / tot,
                100 * ls.station_s / tot, 100 * ls.signal_s / tot, 100 * web_s / tot);
    }
    rec_out_flush(r);
}
