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
#include <sys/stat.h>
#include <time.h>

#include "rules/sgf.h"
#include "station/stn_start.h"

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
    stn_phase_t phase;
    go_session_t *sess;            /* during and after the count */
    uint8_t removed[GO_CELLS];     /* count: stones seen taken off the board */
    clk_t *clk;                    /* the time control, or NULL */
    int clk_started;
    double clk_now;                /* the furthest time given to the clock */
    int clk_arb, clk_ref;          /* paused by the arbiter / for a warning */
    int time_lost;                 /* a flag fell: the game is over on time */
    char announce[48], announce_zh[48];   /* the last call */
    stn_view_t last_view;          /* the last view read in play (stn_pass_before_last) */
    int have_view;
    struct sgf_collection *keep;   /* a resumed record as read: owner of meta.keep_root */
};

static int stn_sync_phase(stn_t *s, double t);
static int stn_clock_advance(stn_t *s, double t);
static int stn_clock_follow(stn_t *s, double t);
static int stn_clock_pauses(stn_t *s, double t);
static int stn_changed(stn_t *s, int rc, double t);
static void stn_clock_resumed(stn_t *s);
static int64_t stn_ms(double t);

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
    c->handicap_seen = 1;
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
    int sys = 0;
    int rc = stn_record_sgf(s->game, &s->meta, s->trk, &text);
    if (rc != GO_OK) {
        sys = ENOMEM;   /* the text could not be built: a failed write like any other */
        rc = GO_EIO;
    } else {
        rc = stn_record_write_atomic(s->sgf_path, text, strlen(text), &sys);
        free(text);
    }
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

/* Rewrite the record when the game changed (moves, or events that add comments). The
 * change stands whatever the write does: a failed write (out of memory included) is an
 * STN_EV_RECORD_ERROR event and is retried at the next call, never the call's error
 * (a caller retrying a call that failed must find nothing done). */
static int stn_after(stn_t *s, int rc)
{
    if (rc < 0)
        return rc;
    int changed = 0;   /* clock calls alone change nothing in the record */
    for (int i = 0; i < s->ev.n && !changed; i++)
        changed = s->ev.v[i].kind != STN_EV_CLOCK;
    if (go_game_move_count(s->game) != s->last_written || s->write_err || changed) {
        if (stn_write(s) != GO_OK)
            s->write_err = GO_EIO;   /* even unreported (no room for the event): retried */
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
    s->cfg.resume_why = NULL;
    int same_file = 0;   /* resuming into the file read: nothing to write until a change */
    if (cfg && cfg->resume_path) {
        stn_loaded_t l;
        if ((rc = stn_record_load(cfg->resume_path, cfg->rules, &l, cfg->resume_why,
                                  cfg->resume_why ? cfg->resume_why_len : 0)) != GO_OK)
            goto fail;
        s->game = l.game;
        l.game = NULL;
        s->meta = l.meta;
        s->keep = l.keep;
        l.keep = NULL;
        struct stat a, b;
        same_file = !s->sgf_path ||
                    (stat(s->sgf_path, &a) == 0 && stat(cfg->resume_path, &b) == 0 &&
                     a.st_dev == b.st_dev && a.st_ino == b.st_ino);
        s->trk = stn_track_create(s->game, &s->cfg.track);
        if (!s->trk) {
            stn_loaded_fini(&l);
            rc = GO_ENOMEM;
            goto fail;
        }
        for (int i = 0; i < l.nmoves; i++) {
            stn_track_set_info(s->trk, i, l.frames[i], l.times[i], l.hand_times[i]);
            if (l.periods_left[i] >= -1)
                stn_track_set_time(s->trk, i, l.time_left[i], l.periods_left[i]);
            if (l.comments[i] && stn_track_note(s->trk, i, l.comments[i]) != GO_OK) {
                stn_loaded_fini(&l);
                rc = GO_ENOMEM;
                goto fail;
            }
        }
        stn_loaded_fini(&l);
    } else {
        go_rules_t rules;
        rc = GO_EINVAL;
        if (go_rules_preset(s->cfg.rules ? s->cfg.rules : "chinese", &rules) != GO_OK)
            goto fail;
        /* the komi given, else the rules' for this game: a handicap game has its own
         * (go_rules_komi2: Chinese 0, Japanese and Korean 0.5), which KM[] then says */
        rules.komi2 = s->cfg.komi2 != STN_KOMI_DEFAULT ? s->cfg.komi2
                                                       : go_rules_komi2(&rules, s->cfg.handicap);
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
    if (s->cfg.time_control) {
        clk_spec_t spec;
        rc = GO_EINVAL;
        if (clk_spec_parse(s->cfg.time_control, &spec, NULL, 0) != CLK_OK)
            goto fail;
        rc = GO_ENOMEM;
        if (!(s->clk = clk_create(&spec)))
            goto fail;
        if (clk_sgf_header(s->clk, s->meta.tm, sizeof s->meta.tm, s->meta.ot,
                           sizeof s->meta.ot) != CLK_OK)
            s->meta.tm[0] = s->meta.ot[0] = '\0';
        stn_clock_resumed(s);
    }
    s->cfg.time_control = NULL;
    s->cfg.black = s->cfg.white = s->cfg.date = s->cfg.rules = NULL;
    if (!(s->stab = stn_stab_create(&s->cfg.stab))) {
        rc = GO_ENOMEM;
        goto fail;
    }
    s->last_written = -1;
    if (go_game_over(s->game) && s->meta.result[0])
        s->phase = STN_PHASE_DONE;   /* a finished record: nothing left to count */
    else if ((rc = stn_sync_phase(s, 0.0)) != GO_OK)
        goto fail;
    if (same_file)
        s->last_written = go_game_move_count(s->game);   /* the file is the game as read */
    else if ((rc = stn_after(s, 0)) < 0)
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
    go_session_destroy(s->sess);
    clk_destroy(s->clk);
    stn_track_destroy(s->trk);
    stn_stab_destroy(s->stab);
    go_game_destroy(s->game);
    stn_events_fini(&s->ev);
    sgf_collection_destroy(s->keep);
    free(s->sgf_path);
    free(s);
}

const char *stn_strerror(int code)
{
    switch (code) {
    case STN_EKEEP: return "the record holds what a resumed record would not keep";
    case STN_EILLEGAL: return "the record has an illegal move";
    default: return go_strerror(code);
    }
}

/* ---- the count ---- */

/* The count's state as an event; `have`: the score already computed (no allocation),
 * or NULL. */
static int stn_count_event(stn_t *s, stn_event_kind_t kind, double t, uint64_t frame,
                           const char *what, const go_score_t *have)
{
    go_score_t *sc = have ? NULL : malloc(sizeof *sc);
    if (!sc && !have)
        return GO_ENOMEM;
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.frame = frame;
    e.t = e.t_hand = t;
    e.move = go_game_move_count(s->game);
    const uint8_t *dead = go_session_dead(s->sess);
    const go_board_t *b = go_session_board(s->sess);
    int nd = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (dead[GO_PT(x, y)]) {
                nd++;
                if (e.npoints < STN_EV_MAX_POINTS)
                    e.points[e.npoints++] = (go_point_t)GO_PT(x, y);
            }
    int rc = have ? GO_OK : go_session_score(s->sess, sc);
    const go_score_t *use = have ? have : sc;
    if (rc == GO_OK) {
        e.color = use->winner;
        if (kind == STN_EV_RESULT)
            snprintf(e.msg, sizeof e.msg, "%s", use->re);
        else
            snprintf(e.msg, sizeof e.msg, "%s: %d dead stone%s; the count now: %s", what, nd,
                     nd == 1 ? "" : "s", use->re);
        rc = stn_events_push(&s->ev, &e);
    }
    free(sc);
    return rc;
}

/* Enter or leave the count as the game's state says. */
static int stn_sync_phase(stn_t *s, double t)
{
    int over = go_game_over(s->game);
    if (s->phase == STN_PHASE_PLAY && over) {
        if (go_game_resigned(s->game) != GO_EMPTY) {
            s->phase = STN_PHASE_DONE;
            return GO_OK;
        }
        /* the one count `kifucam score` makes of the record (go_session_for_game) */
        go_session_destroy(s->sess);
        s->sess = go_session_for_game(s->game, go_game_rules(s->game), s->meta.komi2,
                                      s->meta.handicap, false);
        if (!s->sess)
            return GO_ENOMEM;
        int rc = go_session_propose(s->sess, NULL);
        if (rc != GO_OK)
            return rc;
        memset(s->removed, 0, sizeof s->removed);
        /* the phase changes only once all is done: a failure is retried by the next call */
        rc = stn_count_event(s, STN_EV_COUNT, t, 0, "the game ended; dead stones proposed",
                             NULL);
        if (rc == GO_OK)
            s->phase = STN_PHASE_COUNT;
        return rc;
    }
    if (s->phase == STN_PHASE_COUNT && !over) {
        go_session_destroy(s->sess);
        s->sess = NULL;
        s->phase = STN_PHASE_PLAY;
    }
    return GO_OK;
}

/* A view during the count: stones taken off are dead, stones put back alive again. */
static int stn_count_view(stn_t *s, const stn_view_t *v)
{
    const go_board_t *b = go_session_board(s->sess);
    uint8_t dead[GO_CELLS];
    memcpy(dead, go_session_dead(s->sess), sizeof dead);
    int off = 0, back = 0;
    for (int y = 0; y < b->size; y++) {
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y), sv = v->color[y * b->size + x];
            if (b->color[p] != GO_BLACK && b->color[p] != GO_WHITE)
                continue;
            if (sv == GO_EMPTY) {
                off += !dead[p];
                dead[p] = 1;
                s->removed[p] = 1;
            } else if (sv == b->color[p] && s->removed[p]) {
                back += dead[p] != 0;
                dead[p] = 0;
                s->removed[p] = 0;
            }
        }
    }
    if (!off && !back)
        return GO_OK;
    int rc = go_session_set_dead(s->sess, dead);
    if (rc != GO_OK)
        return rc;
    char what[96];
    snprintf(what, sizeof what, "%d stones taken off (dead), %d put back (alive)", off, back);
    return stn_count_event(s, STN_EV_COUNT, v->t, v->frame, what, NULL);
}

stn_phase_t stn_phase(const stn_t *s)
{
    return s->phase;
}

const go_session_t *stn_session(const stn_t *s)
{
    return s->sess;
}

int stn_count_toggle(stn_t *s, int p, go_color_t by, double t)
{
    stn_events_clear(&s->ev);
    if (s->phase != STN_PHASE_COUNT)
        return GO_EINVAL;
    int rc = go_session_toggle(s->sess, p, by);
    if (rc < 0)
        return rc;
    return stn_count_event(s, STN_EV_COUNT, t, 0, "a group toggled", NULL);
}

int stn_count_accept(stn_t *s, go_color_t c, double t)
{
    stn_events_clear(&s->ev);
    if (s->phase != STN_PHASE_COUNT)
        return GO_EINVAL;
    /* what the result needs first: an accept that ends the count cannot fail after */
    go_score_t *sc = malloc(sizeof *sc);
    char *comment = malloc(4096);
    int rc = sc && comment ? stn_events_reserve(&s->ev, 2) : GO_ENOMEM;
    if (rc == GO_OK)
        rc = go_session_accept(s->sess, c);
    if (rc != GO_OK || !go_session_agreed(s->sess)) {
        free(sc);
        free(comment);
        if (rc != GO_OK)
            return rc;
        return stn_count_event(s, STN_EV_COUNT, t, 0,
                               c == GO_BLACK ? "Black accepts" : "White accepts", NULL);
    }
    rc = go_session_score(s->sess, sc);
    if (rc == GO_OK) {
        go_session_comment(s->sess, comment, 4096);
        int n = go_game_move_count(s->game);
        if (n > 0)
            rc = stn_track_note(s->trk, n - 1, comment);
    }
    if (rc == GO_OK) {
        snprintf(s->meta.result, sizeof s->meta.result, "%s", sc->re);
        /* the agreed dead stones beside RE[] (KD), so that `kifucam score` on the record
         * counts what was agreed, stones taken off and toggles included */
        const uint8_t *dead = go_session_dead(s->sess);
        s->meta.ndead = 0;
        for (int p = 0; p < GO_CELLS; p++)
            if (dead[p])
                s->meta.dead[s->meta.ndead++] = (go_point_t)p;
        s->phase = STN_PHASE_DONE;
        rc = stn_count_event(s, STN_EV_RESULT, t, 0, NULL, sc);
        s->last_written = -1;
    }
    free(sc);
    free(comment);
    return stn_after(s, rc);
}

/* The points of a list in the human form, "D4 Q16 ...", at most max of them (then "..."). */
static void stn_points_text(int size, const go_point_t *pts, int n, int max, char *out,
                            size_t len)
{
    size_t pos = 0;
    out[0] = '\0';
    for (int i = 0; i < n && pos + 8 < len; i++) {
        if (i == max) {
            snprintf(out + pos, len - pos, " ...");
            return;
        }
        char h[4];
        stn_point_human(size, pts[i], h);
        pos += (size_t)snprintf(out + pos, len - pos, "%s%s", i ? " " : "", h);
    }
}

/* Before move 1 (no move, no handicap or setup stone, in play): what view v shows there
 * (stn_handicap_find, into *h). A standard placement is taken (cfg.handicap_seen) as the
 * handicap: the stones where they are seen, HA[n], White to move, the tracker re-reading
 * the game; STN_EV_HANDICAP says so. Returns 1 when taken, 0, or a GO_E* code. */
static int stn_handicap_view(stn_t *s, const stn_view_t *v, stn_handicap_seen_t *h)
{
    h->kind = STN_HC_EMPTY;
    if (s->phase != STN_PHASE_PLAY || go_game_move_count(s->game) > 0 ||
        s->meta.handicap || s->meta.nab || s->meta.naw || v->size != go_game_board(s->game)->size)
        return 0;
    int rc = stn_handicap_find(v->size, v->color, h);
    if (rc != GO_OK || h->kind != STN_HC_STANDARD || !s->cfg.handicap_seen)
        return rc;
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.kind = STN_EV_HANDICAP;
    e.color = GO_BLACK;
    e.frame = v->frame;
    e.t = v->t;
    e.t_hand = v->t_clear;
    for (int i = 0; i < h->npts && e.npoints < STN_EV_MAX_POINTS; i++)
        e.points[e.npoints++] = h->pts[i];
    char list[48], line[320];
    stn_points_text(v->size, h->pts, h->npts, 9, list, sizeof list);
    snprintf(line, sizeof line, "%d black stones on the star points before move 1 "
             "(%s): taken as a %d-stone handicap; White plays first", h->n, list, h->n);
    snprintf(e.msg, sizeof e.msg, "%.*s", (int)sizeof e.msg - 1, line);
    if ((rc = stn_events_reserve(&s->ev, s->ev.n + 1)) != GO_OK)
        return rc;   /* before the game changes: reporting it cannot fail after */
    if ((rc = go_game_setup(s->game, GO_BLACK, h->pts, h->npts)) != GO_OK ||
        (rc = go_game_set_turn(s->game, GO_WHITE)) != GO_OK ||
        (rc = stn_track_sync(s->trk)) != GO_OK)
        return rc;
    stn_meta_setup_from(&s->meta, s->game);
    s->meta.handicap = h->n;
    if ((rc = stn_events_push(&s->ev, &e)) != GO_OK)
        return rc;
    return 1;
}

/* After the tracker read the view h was found on, still before move 1: the stones it
 * could not explain are named plainly, with the option that fits, in its
 * STN_EV_UNEXPLAINED message (the tracker's own says only how many). */
static void stn_handicap_say(stn_t *s, const stn_handicap_seen_t *h, int ev0)
{
    if (h->kind == STN_HC_EMPTY || h->kind == STN_HC_UNSURE || go_game_move_count(s->game) > 0 ||
        (h->kind == STN_HC_STANDARD && s->cfg.handicap_seen))
        return;
    int size = go_game_board(s->game)->size;
    for (int i = ev0; i < s->ev.n; i++) {
        stn_event_t *e = &s->ev.v[i];
        if (e->kind != STN_EV_UNEXPLAINED)
            continue;
        char list[40], line[320];
        stn_points_text(size, h->pts, h->npts, 8, list, sizeof list);
        if (h->kind == STN_HC_STANDARD)   /* not taken: cfg.handicap_seen 0 */
            snprintf(line, sizeof line, "before move 1: %d black stones on the star points (%s), "
                     "a %d-stone handicap, not taken (no handicap asked): give --handicap %d, "
                     "or clear the board", h->nblack, list, h->n, h->n);
        else if (h->kind == STN_HC_STARS)
            snprintf(line, sizeof line, "before move 1: %d black stones on star points (%s), "
                     "not the standard placement of a %d-stone handicap: place them as "
                     "--handicap %d does, or clear the board", h->nblack, list, h->nblack,
                     h->nblack);
        else
            snprintf(line, sizeof line, "before move 1: %d black and %d white stones on the "
                     "board (%s): no handicap; clear the board, or --resume FILE to go on with "
                     "a recorded game", h->nblack, h->nwhite, list);
        snprintf(e->msg, sizeof e->msg, "%.*s", (int)sizeof e->msg - 1, line);
    }
}

int stn_feed_view(stn_t *s, const stn_view_t *v)
{
    stn_events_clear(&s->ev);
    if (s->phase == STN_PHASE_COUNT) {
        int rc = stn_after(s, stn_count_view(s, v));
        return rc < 0 ? rc : s->ev.n;
    }
    int rc = stn_clock_advance(s, v->t_clear);   /* the moves were made by then */
    if (rc < 0 || s->time_lost)
        return rc < 0 ? rc : (rc = stn_after(s, 0)) < 0 ? rc : s->ev.n;
    if ((rc = stn_events_reserve(&s->ev, s->ev.n + 32)) != GO_OK)   /* the clock's */
        return rc;
    double t0 = stn_now();
    stn_handicap_seen_t h = { 0 };
    rc = stn_handicap_view(s, v, &h);
    int ev0 = s->ev.n;
    if (rc >= 0)
        rc = stn_track_feed(s->trk, v, &s->ev);
    if (rc >= 0)
        stn_handicap_say(s, &h, ev0);
    s->last_view = *v;
    s->have_view = 1;
    s->stats.views++;
    s->stats.track_s += stn_now() - t0;
    rc = stn_changed(s, rc, v->t);   /* void passes may end the game */
    rc = stn_after(s, rc);
    return rc < 0 ? rc : s->ev.n;
}

void stn_gate(const stn_t *s, vis_snapshot_t *snap)
{
    const go_board_t *b = go_game_board(s->game);
    if (snap->size != b->size || snap->board_lost)
        return;
    uint8_t pend[GO_CELLS];
    go_point_t pts[GO_MAX_SIZE * GO_MAX_SIZE];
    memset(pend, 0, sizeof pend);
    int np = stn_track_pending(s->trk, pts, GO_MAX_SIZE * GO_MAX_SIZE);
    for (int i = 0; i < np && i < GO_MAX_SIZE * GO_MAX_SIZE; i++)
        pend[pts[i]] = 1;
    int nm = go_game_move_count(s->game), last = -1;
    if (nm > 0 && go_game_move(s->game, nm - 1)->kind == GO_MOVE_PLAY)
        last = go_game_move(s->game, nm - 1)->point;
    int S = b->size, adds = 0, nrem = 0, ilast = -1;
    int rem[VIS_MAX_POINTS];
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int i = y * S + x, p = GO_PT(x, y);
            if (snap->occluded[i] || snap->conf[i] < s->cfg.stab.min_conf)
                continue;
            if (b->color[p] == GO_EMPTY && snap->color[i] != GO_EMPTY && !pend[p])
                adds++;
            else if (b->color[p] != GO_EMPTY && snap->color[i] == GO_EMPTY && p != last)
                rem[nrem++] = i;
            else if (b->color[p] != GO_EMPTY && snap->color[i] == GO_EMPTY)
                ilast = i;
        }
    if (adds)
        return;
    /* a takeback lifts the last stone alone: gone together with other stones, it is one
     * of the dead stones being lifted */
    if (ilast >= 0 && nrem > 0) {
        snap->occluded[ilast] = 1;
        snap->conf[ilast] = 0;
    }
    for (int k = 0; k < nrem; k++) {
        snap->occluded[rem[k]] = 1;
        snap->conf[rem[k]] = 0;
    }
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
    if (rc >= 0) {
        double lag = s->clk_started ? s->cfg.stab.stable_s + STN_CLOCK_LAG_S : 0.0;
        int ck = stn_clock_advance(s, snap->t - lag);   /* starts at the first frame */
        if (ck < 0)
            return ck;
    }
    int view = rc == 1 && !s->time_lost;   /* a stable view to read (not after a loss on time) */
    if (view && s->phase == STN_PHASE_COUNT) {
        rc = stn_after(s, stn_count_view(s, &v));
    } else if (view) {
        rc = stn_events_reserve(&s->ev, s->ev.n + 32);   /* the clock's, after the moves */
        stn_handicap_seen_t h = { 0 };
        if (rc == GO_OK)
            rc = stn_handicap_view(s, &v, &h);
        int ev0 = s->ev.n;
        if (rc >= 0)
            rc = stn_track_feed(s->trk, &v, &s->ev);
        if (rc >= 0)
            stn_handicap_say(s, &h, ev0);
        s->last_view = v;
        s->have_view = 1;
        s->stats.views++;
        s->stats.track_s += stn_now() - t1;
        rc = stn_changed(s, rc, v.t);   /* void passes may end the game */
        rc = stn_after(s, rc);
    } else if (rc == 0 && !s->time_lost && s->phase == STN_PHASE_PLAY &&
               stn_track_held(s->trk) > 0 && stn_stab_settled(s->stab)) {
        /* the board unchanged since the last view: a held warning may fall due */
        rc = stn_track_tick(s->trk, snap->frame, snap->t, &s->ev);
        rc = stn_after(s, stn_changed(s, rc, snap->t));
    } else if (rc == 1 || (rc >= 0 && s->ev.n > 0)) {
        rc = stn_after(s, 0);   /* time lost already; clock calls; a loss on time */
    }
    return rc < 0 ? rc : s->ev.n;
}

const stn_event_t *stn_events(const stn_t *s, int *n)
{
    *n = s->ev.n;
    return s->ev.v;
}

/* After the tracker or an action (rc >= 0: it went through) at t: the clock takes the
 * moves first (a failure after cannot lose them for the clock), then the phase (the end
 * of the game starts the count), then the clock's pause for the phase. Returns rc or the
 * first error. */
static int stn_changed(stn_t *s, int rc, double t)
{
    if (rc < 0)
        return rc;
    int r = stn_clock_follow(s, t);
    if (r == GO_OK)
        r = stn_sync_phase(s, t);
    if (r == GO_OK && s->clk && s->clk_started && !s->time_lost)
        r = stn_clock_pauses(s, t);
    return r < 0 ? r : rc;
}

/* After a console action: the phase, then the record. */
static int stn_action_done(stn_t *s, int rc, double t)
{
    return stn_after(s, stn_changed(s, rc, t));
}

/* Before a console action at t: the clock up to t; GO_EOVER once lost on time. A game
 * ended by a call whose count could not start (out of memory) starts it now: returns 1
 * then (a retried pass or end is complete with it). */
static int stn_action_begin(stn_t *s, double t)
{
    stn_events_clear(&s->ev);
    /* room for the events of the action and the clock first: once the action is done,
     * reporting it cannot fail (a retried action must not be done twice) */
    int rc = stn_events_reserve(&s->ev, 16);
    if (rc == GO_OK)
        rc = stn_clock_advance(s, t);
    if (rc < 0)
        return rc;
    if (s->time_lost)
        return GO_EOVER;
    if (s->phase == STN_PHASE_PLAY && go_game_over(s->game)) {
        rc = stn_sync_phase(s, t);
        return rc < 0 ? rc : 1;
    }
    return GO_OK;
}

int stn_pass(stn_t *s, double t)
{
    int rc = stn_action_begin(s, t);
    if (rc == 1)
        return stn_action_done(s, GO_OK, t);
    if (rc != GO_OK)
        return stn_after(s, rc);
    return stn_action_done(s, stn_track_pass(s->trk, GO_EMPTY, t, &s->ev), t);
}

int stn_pass_before_last(stn_t *s, double t)
{
    if (!s->have_view || s->phase != STN_PHASE_PLAY)
        return GO_EINVAL;
    int n = go_game_move_count(s->game);
    if (n < 1 || go_game_move(s->game, n - 1)->kind != GO_MOVE_PLAY)
        return GO_EINVAL;
    int rc = stn_action_begin(s, t);
    if (rc != GO_OK)
        return rc == 1 ? GO_EOVER : stn_after(s, rc);
    /* the last move out, the pass in, the same view read again: its stone is now the
     * opponent's move */
    rc = stn_track_undo(s->trk, t, &s->ev);
    if (rc == GO_OK)
        rc = stn_track_pass(s->trk, GO_EMPTY, t, &s->ev);
    if (rc == GO_OK)
        rc = stn_track_feed(s->trk, &s->last_view, &s->ev);
    return stn_action_done(s, rc < 0 ? rc : GO_OK, t);
}

int stn_undo(stn_t *s, double t)
{
    int rc = stn_action_begin(s, t);
    if (rc != GO_OK && rc != 1)
        return stn_after(s, rc);
    if (s->phase == STN_PHASE_DONE && s->meta.result[0] && !go_game_resigned(s->game)) {
        s->meta.result[0] = '\0';   /* the count is undone with the last pass */
        s->meta.ndead = 0;
        s->phase = STN_PHASE_COUNT;
    }
    if (s->phase == STN_PHASE_DONE)
        s->phase = STN_PHASE_PLAY;
    return stn_action_done(s, stn_track_undo(s->trk, t, &s->ev), t);
}

int stn_resign(stn_t *s, go_color_t c, double t)
{
    int rc = stn_action_begin(s, t);
    if (rc != GO_OK && rc != 1)
        return stn_after(s, rc);
    return stn_action_done(s, stn_track_resign(s->trk, c, t, &s->ev), t);
}

int stn_end(stn_t *s, double t)
{
    int rc = stn_action_begin(s, t);
    if (rc == 1)
        return stn_action_done(s, GO_OK, t);
    if (rc != GO_OK)
        return stn_after(s, rc);
    if (go_game_over(s->game))
        return GO_EOVER;
    while (rc == GO_OK && !go_game_over(s->game))
        rc = stn_track_pass(s->trk, GO_EMPTY, t, &s->ev);
    return stn_action_done(s, rc, t);
}

int stn_set_result(stn_t *s, const char *result)
{
    stn_events_clear(&s->ev);
    snprintf(s->meta.result, sizeof s->meta.result, "%s", result ? result : "");
    s->meta.ndead = 0;   /* a result set from outside is no count of the station's */
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

/* ---- the clock ---- */

/* A resumed record: each side's clock as its last move's BL/WL (and OB/OW) left it. */
static void stn_clock_resumed(stn_t *s)
{
    const clk_spec_t *sp = clk_get_spec(s->clk);
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        for (int i = go_game_move_count(s->game) - 1; i >= 0; i--) {
            const stn_move_info_t *in = stn_track_info(s->trk, i);
            if (go_game_move(s->game, i)->color != (go_color_t)c || !in || !in->has_time)
                continue;
            int64_t left = stn_ms(in->time_left);
            if (in->periods_left >= 0)   /* in overtime */
                clk_set(s->clk, (go_color_t)c, 0, in->periods_left, left, 0);
            else
                clk_set(s->clk, (go_color_t)c, left, sp->periods, 0, 0);
            break;
        }
    }
}

static int64_t stn_ms(double t)
{
    return (int64_t)(t * 1000.0 + (t >= 0 ? 0.5 : -0.5));
}

static const char *stn_cword(go_color_t c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "nobody";
}

static int stn_clock_event(stn_t *s, go_color_t side, double t, const char *en,
                           const char *zh)
{
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.kind = STN_EV_CLOCK;
    e.color = side;
    e.t = e.t_hand = t;
    e.move = go_game_move_count(s->game);
    snprintf(e.msg, sizeof e.msg, "%s", en);
    snprintf(e.zh, sizeof e.zh, "%s", zh ? zh : "");
    return stn_events_push(&s->ev, &e);
}

/* The calls queued by the clock, as events (the last one kept for the overlay). */
static int stn_clock_drain(stn_t *s)
{
    clk_event_t ce;
    while (clk_next_event(s->clk, &ce)) {
        snprintf(s->announce, sizeof s->announce, "%s", ce.en);
        snprintf(s->announce_zh, sizeof s->announce_zh, "%s", ce.zh);
        char en[STN_EV_MSG];
        snprintf(en, sizeof en, "%s: %s", stn_cword(ce.side), ce.en);
        int rc = stn_clock_event(s, ce.side, (double)ce.t_ms / 1000.0, en, ce.zh);
        if (rc != GO_OK)
            return rc;
    }
    return GO_OK;
}

/* A flag fell: the game is over on time (RE[] B+T / W+T). */
static int stn_time_loss(stn_t *s, double t)
{
    int64_t lt = 0;
    go_color_t loser = clk_loser(s->clk, &lt);
    const char *re = clk_sgf_result(s->clk);
    s->time_lost = 1;
    s->phase = STN_PHASE_DONE;
    snprintf(s->meta.result, sizeof s->meta.result, "%s", re ? re : "");
    s->last_written = -1;
    stn_event_t e;
    memset(&e, 0, sizeof e);
    e.kind = STN_EV_END;
    e.color = GO_OTHER((go_color_t)loser);
    e.t = e.t_hand = t;
    e.move = go_game_move_count(s->game);
    snprintf(e.msg, sizeof e.msg, "%s loses on time at %.1f s: %s", stn_cword((go_color_t)loser),
             (double)lt / 1000.0, re ? re : "");
    int n = go_game_move_count(s->game);
    int rc = n > 0 ? stn_track_note(s->trk, n - 1, e.msg) : GO_OK;
    if (rc == GO_OK)
        rc = stn_events_push(&s->ev, &e);
    return rc;
}

/* Bring the clock to t (started at the first time seen), its calls to events; a loss on
 * time ends the game. */
static int stn_clock_advance(stn_t *s, double t)
{
    if (!s->clk || s->time_lost)
        return GO_OK;
    if (!s->clk_started) {
        if (s->phase != STN_PHASE_PLAY)
            return GO_OK;
        if (clk_start(s->clk, (go_color_t)go_game_turn(s->game), stn_ms(t)) != CLK_OK)
            return GO_EINVAL;
        s->clk_started = 1;
        s->clk_now = t;
    } else if (t > s->clk_now) {
        clk_update(s->clk, stn_ms(t));
        s->clk_now = t;
    }
    int rc = stn_clock_drain(s);
    if (rc == GO_OK && clk_loser(s->clk, NULL) != GO_EMPTY)
        rc = stn_time_loss(s, t);
    return rc;
}

/* Pause or resume as the arbiter, a warning and the phase want it, at t. */
static int stn_clock_pauses(stn_t *s, double t)
{
    int want = s->clk_arb || s->clk_ref || s->phase != STN_PHASE_PLAY;
    if (want && !clk_paused(s->clk)) {
        if (clk_pause(s->clk, stn_ms(t)) != CLK_OK)
            return GO_OK;
        return stn_clock_event(s, GO_EMPTY, t,
                               s->clk_arb ? "the clock is paused by the arbiter"
                               : s->clk_ref ? "the clock is paused: restore the board"
                                            : "the clock is stopped: the game ended",
                               s->clk_arb ? "\xe6\x9a\x82\xe5\x81\x9c" : "\xe5\x81\x9c\xe9\x92\x9f");
    }
    if (!want && clk_paused(s->clk)) {
        if (clk_resume(s->clk, stn_ms(t)) != CLK_OK)
            return GO_OK;
        return stn_clock_event(s, GO_EMPTY, t, "the clock runs again",
                               "\xe7\xbb\xa7\xe7\xbb\xad");
    }
    return GO_OK;
}

/* After the tracker or an action changed the game (events of this call): the movers'
 * clocks stop at the time their hands left the board, BL/WL per move, warnings pause,
 * the clock follows the side to move (takebacks), the phase. */
static int stn_clock_follow(stn_t *s, double t)
{
    if (!s->clk || s->time_lost || !s->clk_started)
        return GO_OK;
    int rc = GO_OK, nev = s->ev.n;
    for (int i = 0; i < nev && rc == GO_OK; i++) {
        const stn_event_t e = s->ev.v[i];
        if (e.kind == STN_EV_WARNING) {
            s->clk_ref = 1;
        } else if (e.kind == STN_EV_AGREES) {
            s->clk_ref = 0;
        } else if (e.kind == STN_EV_MOVE || e.kind == STN_EV_PASS || e.kind == STN_EV_VOID) {
            go_color_t c = e.color;
            int r = e.kind == STN_EV_MOVE ? clk_move(s->clk, (go_color_t)c, stn_ms(e.t_hand))
                                          : clk_pass(s->clk, (go_color_t)c, stn_ms(e.t_hand));
            if (r == CLK_EOVER) {
                rc = stn_clock_drain(s);
                return rc == GO_OK ? stn_time_loss(s, t) : rc;
            }
            const go_move_t *m = e.move > 0 ? go_game_move(s->game, e.move - 1) : NULL;
            double left;
            int ob;
            if (r == CLK_OK && m && m->color == c &&
                clk_sgf_move(s->clk, (go_color_t)c, &left, &ob) == CLK_OK)
                stn_track_set_time(s->trk, e.move - 1, left, ob);
        }
    }
    if (rc == GO_OK)
        rc = stn_clock_drain(s);
    /* the clock runs for the side to move (a takeback, a pass left out) */
    go_color_t run = clk_running(s->clk);
    go_color_t turn = go_game_turn(s->game);
    if (rc == GO_OK && run != GO_EMPTY && !go_game_over(s->game) && (go_color_t)run != turn)
        clk_pass(s->clk, run, stn_ms(t));
    if (rc == GO_OK)
        rc = stn_clock_pauses(s, t);
    return rc;
}

const clk_t *stn_clock(const stn_t *s)
{
    return s->clk;
}

int stn_clock_tick(stn_t *s, double t)
{
    stn_events_clear(&s->ev);
    int rc = stn_clock_advance(s, t);
    rc = stn_after(s, rc);
    return rc < 0 ? rc : s->ev.n;
}

int stn_clock_pause(stn_t *s, double t)
{
    int rc = stn_action_begin(s, t);
    rc = rc == 1 ? GO_OK : rc;
    if (rc == GO_OK && !s->clk)
        rc = GO_EINVAL;
    if (rc == GO_OK && s->clk_arb)
        rc = GO_ETURN;
    if (rc != GO_OK)
        return stn_after(s, rc);
    s->clk_arb = 1;
    if (!s->clk_started) {   /* paused before the first move: start, then hold */
        int r = stn_clock_advance(s, t);
        if (r < 0)
            return r;
    }
    return stn_after(s, stn_clock_pauses(s, t));
}

int stn_clock_resume(stn_t *s, double t)
{
    int rc = stn_action_begin(s, t);
    rc = rc == 1 ? GO_OK : rc;
    if (rc == GO_OK && !s->clk)
        rc = GO_EINVAL;
    if (rc == GO_OK && !s->clk_arb)
        rc = GO_ETURN;
    if (rc != GO_OK)
        return stn_after(s, rc);
    s->clk_arb = 0;
    return stn_after(s, stn_clock_pauses(s, t));
}

int stn_clock_adjust(stn_t *s, go_color_t c, double delta_s, double t)
{
    int rc = stn_action_begin(s, t);
    rc = rc == 1 ? GO_OK : rc;
    if (rc == GO_OK && (!s->clk || (c != GO_BLACK && c != GO_WHITE)))
        rc = GO_EINVAL;
    if (rc != GO_OK)
        return stn_after(s, rc);
    if (clk_adjust(s->clk, (go_color_t)c, stn_ms(delta_s), stn_ms(t)) != CLK_OK)
        return stn_after(s, GO_EINVAL);
    char en[STN_EV_MSG];
    snprintf(en, sizeof en, "the arbiter %s %.0f s %s %s's clock", delta_s >= 0 ? "adds" : "takes",
             delta_s >= 0 ? delta_s : -delta_s, delta_s >= 0 ? "to" : "from", stn_cword(c));
    rc = stn_clock_event(s, c, t, en, "");
    if (rc == GO_OK)
        rc = stn_clock_advance(s, t);   /* adjusted to zero: falls now */
    return stn_after(s, rc);
}

/* "20:34", "1:02:03" (time left, whole seconds rounded up, as clocks show it). */
static void stn_clock_text(int64_t ms, char *out, size_t len)
{
    long long sec = ms > 0 ? (ms + 999) / 1000 : 0;
    if (sec >= 3600)
        snprintf(out, len, "%lld:%02lld:%02lld", sec / 3600, sec / 60 % 60, sec % 60);
    else
        snprintf(out, len, "%lld:%02lld", sec / 60, sec % 60);
}

/* Append txt to buf[0..len) at pos, as it is (raw) or as a JSON string body (escaped;
 * the calls are plain UTF-8 text). Returns the new full length. */
static size_t stn_json_str(char *buf, size_t len, size_t pos, const char *txt, int raw)
{
    for (const char *c = txt; *c; c++) {
        unsigned char u = (unsigned char)*c;
        char tmp[8];
        int n = raw ? snprintf(tmp, sizeof tmp, "%c", u)
                : u == '"' || u == '\\' ? snprintf(tmp, sizeof tmp, "\\%c", u)
                : u < 0x20 ? snprintf(tmp, sizeof tmp, "\\u%04x", u)
                           : snprintf(tmp, sizeof tmp, "%c", u);
        for (int i = 0; i < n; i++, pos++)
            if (pos + 1 < len)
                buf[pos] = tmp[i];
    }
    return pos;
}

int stn_clock_json(const stn_t *s, double now, char *buf, size_t len)
{
    if (!s->clk)
        return GO_EINVAL;
    char part[2][160];
    const clk_spec_t *sp = clk_get_spec(s->clk);
    for (int i = 0; i < 2; i++) {
        go_color_t side = i == 0 ? GO_BLACK : GO_WHITE;
        clk_view_t v;
        memset(&v, 0, sizeof v);
        if (clk_view(s->clk, side, stn_ms(now), &v) != CLK_OK)
            v.main_ms = 0;
        int64_t left = v.in_overtime ? v.period_ms : v.main_ms;
        char txt[32], extra[32] = "";
        stn_clock_text(left, txt, sizeof txt);
        if (v.lost)
            snprintf(txt, sizeof txt, "time");
        if (v.in_overtime && sp->system == CLK_CANADIAN)
            snprintf(extra, sizeof extra, ",\"moves\":%d", v.moves_left);
        else if (sp->system == CLK_BYOYOMI || sp->system == CLK_CHINESE)
            snprintf(extra, sizeof extra, ",\"periods\":%d", v.periods);
        snprintf(part[i], sizeof part[i], "{\"left\":%.1f%s,\"text\":\"%s%s\"%s}",
                 (double)(left > 0 ? left : 0) / 1000.0, extra, txt,
                 v.in_overtime && !v.lost ? " (overtime)" : "", v.lost ? ",\"lost\":true" : "");
    }
    go_color_t run = clk_running(s->clk);
    int n = snprintf(buf, len, "{\"B\":%s,\"W\":%s,\"running\":%s,\"paused\":%s,\"announce\":\"",
                     part[0], part[1],
                     run == GO_BLACK ? "\"B\"" : run == GO_WHITE ? "\"W\"" : "null",
                     clk_paused(s->clk) ? "true" : "false");
    size_t pos = n > 0 ? (size_t)n : 0;
    pos = stn_json_str(buf, len, pos, s->announce, 0);
    pos = stn_json_str(buf, len, pos, "\",\"announce_zh\":\"", 1);
    pos = stn_json_str(buf, len, pos, s->announce_zh, 0);
    pos = stn_json_str(buf, len, pos, "\"}", 1);
    if (len)
        buf[pos < len ? pos : len - 1] = '\0';
    return (int)pos;
}
