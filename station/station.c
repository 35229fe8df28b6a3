/* station.c: the driver — stabiliser -> tracker/referee -> safe record (station.h).
 *
 * Invariants: the game is owned here and only changed through the tracker (or at
 * creation); the record on disk is rewritten after every call that changed the game's
 * move count or the result; write_err is 0 exactly when the last write succeeded.
 */
#include "station/station.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct stn {
    stn_config_t cfg;
    char *sgf_path;
    go_game_t *game;
    stn_stab_t *stab;
    stn_track_t *trk;
    stn_meta_t meta;
    stn_events_t ev;
    int write_err;
    int last_written;      /* move count at the last write, -1 before any */
    int board_lost;
    stn_stats_t stats;
};

static double stn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void stn_config_defaults(stn_config_t *c)
{
    memset(c, 0, sizeof *c);
    c->size = 19;
    c->rules = "chinese";
    c->komi2 = STN_KOMI_DEFAULT;
    stn_stab_defaults(&c->stab);
    stn_track_defaults(&c->track);
}

static int stn_write(stn_t *s)
{
    s->last_written = go_game_move_count(s->game);
    if (!s->sgf_path)
        return GO_OK;
    double t0 = stn_now();
    char *text;
    int rc = stn_record_sgf(s->game, &s->meta, s->trk, &text);
    if (rc != GO_OK)
        return rc;
    int sys = 0;
    rc = stn_record_write_atomic(s->sgf_path, text, strlen(text), &sys);
    free(text);
    s->stats.writes++;
    s->stats.record_s += stn_now() - t0;
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.move = go_game_move_count(s->game);
    if (rc != GO_OK && !s->write_err) {
        e.kind = STN_EV_RECORD_ERROR;
        snprintf(e.msg, sizeof e.msg, "%s: cannot write the record (%s): kept in memory",
                 s->sgf_path, strerror(sys));
        s->write_err = rc;
        return stn_events_push(&s->ev, &e);
    }
    if (rc == GO_OK && s->write_err) {
        e.kind = STN_EV_RECORD_OK;
        snprintf(e.msg, sizeof e.msg, "%s: the record is written again", s->sgf_path);
        s->write_err = 0;
        return stn_events_push(&s->ev, &e);
    }
    return GO_OK;
}

/* Rewrite the record when the game changed (moves, or events that add comments). */
static int stn_after(stn_t *s, int rc)
{
    if (rc < 0)
        return rc;
    if (go_game_move_count(s->game) != s->last_written || s->write_err || s->ev.n > 0) {
        int w = stn_write(s);
        if (w != GO_OK)
            return w;
    }
    return rc;
}

stn_t *stn_create(const stn_config_t *cfg, int *err)
{
    int rc = GO_ENOMEM;
    stn_t *s = calloc(1, sizeof *s);
    if (!s)
        goto fail;
    stn_config_defaults(&s->cfg);
    if (cfg)
        s->cfg = *cfg;
    stn_events_init(&s->ev);
    stn_meta_init(&s->meta);
    if (s->cfg.sgf_path && !(s->sgf_path = strdup(s->cfg.sgf_path)))
        goto fail;
    s->cfg.sgf_path = NULL;
    s->cfg.resume_path = NULL;
    if (cfg && cfg->resume_path) {
        stn_loaded_t l;
        if ((rc = stn_record_load(cfg->resume_path, cfg->rules, &l)) != GO_OK)
            goto fail;
        s->game = l.game;
        l.game = NULL;
        s->meta = l.meta;
        s->trk = stn_track_create(s->game, &s->cfg.track);
        if (!s->trk) {
            stn_loaded_fini(&l);
            rc = GO_ENOMEM;
            goto fail;
        }
        for (int i = 0; i < l.nmoves; i++) {
            stn_track_set_info(s->trk, i, l.frames[i], l.times[i], l.hand_times[i]);
            if (l.comments[i])
                stn_track_note(s->trk, i, l.comments[i]);
        }
        stn_loaded_fini(&l);
    } else {
        go_rules_t rules;
        rc = GO_EINVAL;
        if (go_rules_preset(s->cfg.rules ? s->cfg.rules : "chinese", &rules) != GO_OK)
            goto fail;
        if (s->cfg.komi2 != STN_KOMI_DEFAULT)
            rules.komi2 = s->cfg.komi2;
        if (s->cfg.size < GO_MIN_SIZE || s->cfg.size > GO_MAX_SIZE)
            goto fail;
        rc = GO_ENOMEM;
        if (!(s->game = go_game_create(s->cfg.size, &rules)))
            goto fail;
        if (s->cfg.handicap > 0 && (rc = go_game_handicap(s->game, s->cfg.handicap)) != GO_OK)
            goto fail;
        if (rules.zuozi && (rc = go_game_zuozi(s->game)) != GO_OK)
            goto fail;
        stn_meta_setup_from(&s->meta, s->game);
        s->meta.komi2 = rules.komi2;
        s->meta.handicap = s->cfg.handicap;
        if (s->cfg.black)
            snprintf(s->meta.black, sizeof s->meta.black, "%s", s->cfg.black);
        if (s->cfg.white)
            snprintf(s->meta.white, sizeof s->meta.white, "%s", s->cfg.white);
        if (s->cfg.date) {
            snprintf(s->meta.date, sizeof s->meta.date, "%s", s->cfg.date);
        } else {
            time_t now = time(NULL);
            struct tm tm;
            if (gmtime_r(&now, &tm))
                strftime(s->meta.date, sizeof s->meta.date, "%Y-%m-%d", &tm);
        }
        rc = GO_ENOMEM;
        if (!(s->trk = stn_track_create(s->game, &s->cfg.track)))
            goto fail;
    }
    s->cfg.black = s->cfg.white = s->cfg.date = s->cfg.rules = NULL;
    if (!(s->stab = stn_stab_create(&s->cfg.stab))) {
        rc = GO_ENOMEM;
        goto fail;
    }
    s->last_written = -1;
    if ((rc = stn_after(s, 0)) < 0)
        goto fail;
    return s;
fail:
    stn_destroy(s);
    if (err)
        *err = rc;
    return NULL;
}

void stn_destroy(stn_t *s)
{
    if (!s)
        return;
    stn_track_destroy(s->trk);
    stn_stab_destroy(s->stab);
    go_game_destroy(s->game);
    stn_events_fini(&s->ev);
    free(s->sgf_path);
    free(s);
}

int stn_feed_view(stn_t *s, const stn_view_t *v)
{
    stn_events_clear(&s->ev);
    double t0 = stn_now();
    int rc = stn_track_feed(s->trk, v, &s->ev);
    s->stats.views++;
    s->stats.track_s += stn_now() - t0;
    rc = stn_after(s, rc);
    return rc < 0 ? rc : s->ev.n;
}

int stn_feed(stn_t *s, const vis_snapshot_t *snap)
{
    stn_events_clear(&s->ev);
    if (snap->size != go_game_board(s->game)->size)
        return GO_EINVAL;
    if (snap->board_lost && !s->board_lost) {
        stn_event_t e;
        memset(&e, 0, sizeof e);
        e.kind = STN_EV_BOARD_LOST;
        e.frame = snap->frame;
        e.t = e.t_hand = snap->t;
        e.move = go_game_move_count(s->game);
        snprintf(e.msg, sizeof e.msg, "the board is lost (moved?): waiting for it");
        int rc = stn_events_push(&s->ev, &e);
        if (rc != GO_OK)
            return rc;
    }
    s->board_lost = snap->board_lost != 0;
    stn_view_t v;
    double t0 = stn_now();
    int rc = stn_stab_feed(s->stab, snap, &v);
    double t1 = stn_now();
    s->stats.frames++;
    s->stats.stab_s += t1 - t0;
    if (rc == 1) {
        rc = stn_track_feed(s->trk, &v, &s->ev);
        s->stats.views++;
        s->stats.track_s += stn_now() - t1;
        rc = stn_after(s, rc);
    }
    return rc < 0 ? rc : s->ev.n;
}

const stn_event_t *stn_events(const stn_t *s, int *n)
{
    *n = s->ev.n;
    return s->ev.v;
}

int stn_pass(stn_t *s, double t)
{
    stn_events_clear(&s->ev);
    return stn_after(s, stn_track_pass(s->trk, GO_EMPTY, t, &s->ev));
}

int stn_undo(stn_t *s, double t)
{
    stn_events_clear(&s->ev);
    return stn_after(s, stn_track_undo(s->trk, t, &s->ev));
}

int stn_resign(stn_t *s, go_color_t c, double t)
{
    stn_events_clear(&s->ev);
    return stn_after(s, stn_track_resign(s->trk, c, t, &s->ev));
}

int stn_end(stn_t *s, double t)
{
    stn_events_clear(&s->ev);
    if (go_game_over(s->game))
        return GO_EOVER;
    int rc = GO_OK;
    while (rc == GO_OK && !go_game_over(s->game))
        rc = stn_track_pass(s->trk, GO_EMPTY, t, &s->ev);
    return stn_after(s, rc);
}

int stn_set_result(stn_t *s, const char *result)
{
    stn_events_clear(&s->ev);
    snprintf(s->meta.result, sizeof s->meta.result, "%s", result ? result : "");
    s->last_written = -1;
    return stn_after(s, 0);
}

const go_game_t *stn_game(const stn_t *s)
{
    return s->game;
}

const stn_track_t *stn_tracker(const stn_t *s)
{
    return s->trk;
}

const stn_meta_t *stn_meta(const stn_t *s)
{
    return &s->meta;
}

int stn_record_text(const stn_t *s, char **text)
{
    return stn_record_sgf(s->game, &s->meta, s->trk, text);
}

int stn_record_status(const stn_t *s)
{
    return s->write_err;
}

stn_stats_t stn_stats(const stn_t *s)
{
    return s->stats;
}
