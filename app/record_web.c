/* record_web.c: `kifucam record --serve`: the web server started, the state, the SGF and
 * the frame published to its pages, the console's actions passed to the station, and the
 * pages kept up after a file's end (--linger).
 *
 * Invariants: the action callback runs on the server's thread and takes r->mu for its
 * whole call; every other function here is called with r->mu held (rec_linger takes it
 * itself). The state is published when it changed (r->dirty) or when forced; the SGF when
 * the move count changed, when forced, or while the game is not in play; the frame at most
 * every REC_FRAME_PUB_S seconds of wall time.
 */
#include "app/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "app/record_relay.h"
#include "vision/vis.h"
#include "rules/go_point.h"

#define REC_FRAME_PUB_S 0.5    /* the overlay's picture at most twice a second */
#define REC_LINGER_POLL_S 0.1  /* --linger: the pages' state looked at ten times a second */

void rec_publish(rec_t *r, const vis_geom_t *geom, const cvb_image_t *img,
                 const vis_snapshot_t *snap, int force)
{
    rec_relay_poll(r, force);   /* --relay: before the web clears r->dirty */
    if (!r->web || !r->stn)
        return;
    if (r->dirty || force) {
        char *js = rec_state_json(r);
        if (js) {
            web_server_publish_state(r->web, js);
            free(js);
        }
        int nm = go_game_move_count(stn_game(r->stn));
        char *sgf;
        if ((nm != r->last_sgf_moves || force || r->phase) && stn_record_text(r->stn, &sgf) == GO_OK) {
            web_server_publish_sgf(r->web, sgf);
            free(sgf);
            r->last_sgf_moves = nm;
        }
        r->dirty = 0;
    }
    double w = cli_now_s();
    if (img && img->data && (force || w - r->last_frame_pub > REC_FRAME_PUB_S)) {
        r->last_frame_pub = w;
        cvb_image_t copy;
        if (cvb_image_alloc(&copy, img->w, img->h, img->channels) == CVB_OK) {
            for (int y = 0; y < img->h; y++)
                memcpy(copy.data + (size_t)y * copy.stride, img->data + (size_t)y * img->stride,
                       (size_t)img->w * (size_t)img->channels);
            if (geom)
                vis_draw(&copy, geom, snap);
            uint8_t *jpg;
            size_t len;
            if (cvb_imencode_jpeg(&copy, 80, &jpg, &len) == CVB_OK) {
                web_server_publish_frame(r->web, jpg, len);
                free(jpg);
            }
            cvb_image_free(&copy);
        }
    }
}

/* pass, undo, end, resign?color=B|W: in play only */
static int act_play(rec_t *r, stn_t *s, const web_action_t *a, go_color_t col, double t,
                    char *msg, size_t msglen)
{
    if (r->phase != 0) {
        snprintf(msg, msglen, "the game is over");
        return -1;
    }
    int e = !strcmp(a->name, "pass") ? stn_pass(s, t)
          : !strcmp(a->name, "undo") ? stn_undo(s, t)
          : !strcmp(a->name, "end") ? stn_end(s, t) : stn_resign(s, col, t);
    if (e != GO_OK) {
        snprintf(msg, msglen, "%s: %s", a->name, go_strerror(e));
        return -1;
    }
    rec_print_events(r);
    rec_sync_phase(r);
    if (go_game_over(stn_game(s)))
        rec_game_over(r);
    snprintf(msg, msglen, "%s: done", a->name);
    return 0;
}

/* toggle?point=dd|D16, accept?color=B|W: while counting */
static int act_count(rec_t *r, stn_t *s, const web_action_t *a, go_color_t col, double t,
                     char *msg, size_t msglen)
{
    if (r->phase != 1) {
        snprintf(msg, msglen, "not counting");
        return -1;
    }
    if (!strcmp(a->name, "toggle")) {
        int size = go_game_board(stn_game(s))->size;
        int p = 0;   /* toggle?point=dd or point=D16: both forms, as every option */
        if (!a->point || go_point_parse(size, a->point, (int)strlen(a->point), &p) != GO_OK ||
            stn_count_toggle(s, p, col, t) != GO_OK) {
            snprintf(msg, msglen, "toggle: no stone there");
            return -1;
        }
        rec_print_events(r);
        rec_count_line(r, "changed from the console");
        snprintf(msg, msglen, "toggled");
        return 0;
    }
    if (col == GO_EMPTY || stn_count_accept(s, col, t) != GO_OK) {
        snprintf(msg, msglen, "accept: color=B or color=W");
        return -1;
    }
    rec_print_events(r);
    rec_sync_phase(r);
    if (r->phase == 2)
        rec_count_done(r);
    snprintf(msg, msglen, "accepted");
    return 0;
}

/* the arbiter's clock: pause, resume, adjust?color=B&seconds=N */
static int act_clock(rec_t *r, stn_t *s, const web_action_t *a, go_color_t col, double t,
                     char *msg, size_t msglen)
{
    int e;
    if (!strcmp(a->name, "adjust")) {
        if (col == GO_EMPTY || !a->has_seconds) {
            snprintf(msg, msglen, "adjust: color=B or W and seconds=N");
            return -1;
        }
        e = stn_clock_adjust(s, col, a->seconds, t);
    } else {
        e = !strcmp(a->name, "pause") ? stn_clock_pause(s, t) : stn_clock_resume(s, t);
    }
    if (e < 0) {
        snprintf(msg, msglen, "%s: %s", a->name,
                 e == GO_ETURN ? (!strcmp(a->name, "pause") ? "the clock is already paused"
                                                           : "the clock is not paused")
                 : e == GO_EOVER ? "the game is over on time" : go_strerror(e));
        return -1;
    }
    rec_print_events(r);
    rec_time_check(r);
    snprintf(msg, msglen, "%s: done", a->name);
    return 0;
}

/* The console's actions (web.h's web_action_fn; the server's thread). */
static int on_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    rec_t *r = user;
    int rc = -1;
    pthread_mutex_lock(&r->mu);
    stn_t *s = r->stn;
    double t = r->t_now;
    go_color_t col = a->color && !strcmp(a->color, "B") ? GO_BLACK
                   : a->color && !strcmp(a->color, "W") ? GO_WHITE : GO_EMPTY;
    if (!s) {
        snprintf(msg, msglen, "the board has not been found yet");
    } else if (!strcmp(a->name, "pass") || !strcmp(a->name, "undo") || !strcmp(a->name, "end") ||
               !strcmp(a->name, "resign")) {
        rc = act_play(r, s, a, col, t, msg, msglen);
    } else if (!strcmp(a->name, "toggle") || !strcmp(a->name, "accept")) {
        rc = act_count(r, s, a, col, t, msg, msglen);
    } else if (r->has_clock && (!strcmp(a->name, "pause") || !strcmp(a->name, "resume") ||
                                !strcmp(a->name, "adjust"))) {
        rc = act_clock(r, s, a, col, t, msg, msglen);
    } else {
        snprintf(msg, msglen, "%s: not available", a->name);
        r->dirty = 1;
    }
    if (rc == 0)
        r->dirty = 1;
    pthread_mutex_unlock(&r->mu);
    return rc;
}

int rec_serve_start(rec_t *r, const char *serve, const char *hosts)
{
    char addr[128];
    web_config_t wc;
    web_config_defaults(&wc);
    if (web_config_parse_listen(&wc, serve, addr, sizeof addr)) {
        cli_error("record", "--serve: '%s' is not ADDR:PORT", serve);
        return -1;
    }
    wc.hosts = hosts;
    int wrc = web_server_create(&wc, on_action, r, &r->web);
    if (wrc != WEB_OK) {
        cli_error("record", "--serve %s: %s", serve, web_strerror(wrc));
        return -1;
    }
    int port = web_server_port(r->web);
    const char *tok = web_server_token(r->web);
    const char *lb = strchr(addr, ':') ? "[" : "", *rb = lb[0] ? "]" : "";
    rec_print_note(r, "serve", -1, "console: http://%s%s%s:%d/console?token=%s", lb, addr, rb,
                   port, tok);
    rec_print_note(r, "serve", -1, "overlay: http://%s%s%s:%d/overlay", lb, addr, rb, port);
    return 0;
}

void rec_linger(rec_t *r, double linger_s, volatile sig_atomic_t *stop)
{
    if (linger_s == 0)
        return;
    char until[64];
    if (linger_s > 0)
        snprintf(until, sizeof until, "for %g s (--linger)", linger_s);
    else
        snprintf(until, sizeof until, "until Ctrl-C (--linger S to stop by itself)");
    rec_print_note(r, "serve", -1, "serve: the footage is over; the pages stay up on the "
                   "%s %s", r->result[0] ? "result" : "last state", until);
    double t0 = cli_now_s();
    while (!*stop && (linger_s < 0 || cli_now_s() - t0 < linger_s)) {
        struct timespec ts = { 0, (long)(REC_LINGER_POLL_S * 1e9) };
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&r->mu);
        rec_publish(r, NULL, NULL, NULL, 0);
        pthread_mutex_unlock(&r->mu);
    }
}
