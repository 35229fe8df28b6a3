/* rl_loop.c: the recording loop (rl_loop.h).
 *
 * Invariants: have_geom is 1 exactly while geom is the board's (tracking follows it; a lost
 * board clears it); sig_ready is 1 once the signal reader and referee are set up for the
 * board's size; every event, note and callback goes through the sink in the order it
 * happened; the loop never prints.
 */
#include "loop/rl_loop.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib/cal_calibrate.h"
#include "station/stn_signal.h"
#include "vision/vis_border.h"
#include "vision/vis_outside.h"
#include "vision/vis_track.h"

struct rl {
    rl_config_t cfg;
    rl_sink_t sink;
    cal_profile_t cal;             /* cfg.cal's copy */
    int have_cal;
    vis_config_t vcfg;
    vis_board_model_t board;       /* the board's colour model: the calibration's, then
                                      learned (vcfg.board points here once it holds a fit) */
    int colours_moves;             /* the record's move count when the colours were last
                                      learned, -1 never */
    vis_read_cache_t read_cache;   /* the last reading, kept while the board looks the same */
    vis_border_t border;           /* the board's border as it looks with nothing across */
    stn_t *stn;
    int start_err;                 /* the last failed start's code */
    char resume_why[256];          /* why a resumed record was refused */
    vis_geom_t geom;
    int have_geom;
    double line_k;                 /* the board's line contrast (vis_line_contrast) */
    int ever_found;
    vis_snapshot_t snap;           /* the last frame's, as read */
    vis_outside_t sig_vo;          /* the table beside the corners, as pixels (vision) */
    stn_signal_t sig;              /* the end signals as the referee reads them */
    int sig_ready;
    int align_refused;             /* boards found in a row that disagree with the record */
    double align_since;            /* the first of them */
    stn_resume_check_t resume_chk; /* a resumed game's first boards judged against it */
    stn_align_t align;             /* realign's last comparison */
    int align_valid;               /* ... made (0: nothing to compare) */
    rl_stats_t stats;
};

/* CPU time of this thread: the stage timings (the machine may be shared). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void note(rl_t *l, const char *kind, double t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void note(rl_t *l, const char *kind, double t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (l->sink.note)
        l->sink.note(l->sink.ctx, kind, t, buf);
}

static void events(rl_t *l, const stn_event_t *ev, int n)
{
    for (int i = 0; i < n && l->sink.event; i++)
        l->sink.event(l->sink.ctx, &ev[i]);
}

static void station_events(rl_t *l)
{
    int n = 0;
    const stn_event_t *ev = stn_events(l->stn, &n);
    events(l, ev, n);
}

static void signal_events(rl_t *l)
{
    int n = 0;
    const stn_event_t *ev = stn_signal_events(&l->sig, &n);
    events(l, ev, n);
}

static int phase(const rl_t *l)
{
    return l->sink.phase ? l->sink.phase(l->sink.ctx) : 0;
}

void rl_config_defaults(rl_config_t *c)
{
    memset(c, 0, sizeof *c);
    c->learn_colours = 1;
    stn_config_defaults(&c->station);
    vis_config_defaults(&c->vision);
    vis_config_for_video(&c->vision);
}

rl_t *rl_create(const rl_config_t *cfg, const rl_sink_t *sink)
{
    rl_t *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->cfg = *cfg;
    if (sink)
        l->sink = *sink;
    l->vcfg = cfg->vision;
    vis_board_model_init(&l->board);
    l->colours_moves = -1;
    vis_read_cache_init(&l->read_cache);
    l->vcfg.cache = &l->read_cache;
    vis_border_init(&l->border, NULL);
    if (cfg->cal) {
        l->cal = *cfg->cal;
        l->have_cal = 1;
        l->cfg.cal = &l->cal;
        /* this board's own colours, learned at calibration, when there are some */
        if (cal_profile_board_model(&l->cal, &l->board))
            l->vcfg.board = &l->board;
    }
    if (cfg->resume)
        stn_resume_check_init(&l->resume_chk, NULL);
    return l;
}

void rl_destroy(rl_t *l)
{
    if (!l)
        return;
    if (l->sig_ready)
        stn_signal_fini(&l->sig);
    stn_destroy(l->stn);
    vis_read_cache_free(&l->read_cache);
    free(l);
}

int rl_start(rl_t *l, int size)
{
    l->cfg.station.size = size;
    l->cfg.station.resume_why = l->resume_why;
    l->cfg.station.resume_why_len = sizeof l->resume_why;
    l->resume_why[0] = '\0';
    l->start_err = 0;
    l->stn = stn_create(&l->cfg.station, &l->start_err);
    if (!l->stn)
        return RL_ESTATION;
    if (l->sink.station)
        l->sink.station(l->sink.ctx, l->stn);
    station_events(l);
    return RL_OK;
}

int rl_start_error(const rl_t *l, const char **why)
{
    if (why)
        *why = l->resume_why;
    return l->start_err;
}

stn_t *rl_station(const rl_t *l)
{
    return l->stn;
}

const vis_geom_t *rl_geom(const rl_t *l)
{
    return l->have_geom ? &l->geom : NULL;
}

const vis_snapshot_t *rl_snapshot(const rl_t *l)
{
    return &l->snap;
}

int rl_ever_found(const rl_t *l)
{
    return l->ever_found;
}

const stn_resume_check_t *rl_resume_check(const rl_t *l)
{
    return &l->resume_chk;
}

rl_stats_t rl_stats(const rl_t *l)
{
    rl_stats_t s = l->stats;
    s.reads = (uint64_t)l->read_cache.misses;
    s.reads_cached = (uint64_t)l->read_cache.hits;
    s.net_runs = (uint64_t)l->read_cache.runs;
    s.net_part_runs = (uint64_t)l->read_cache.part_runs;
    s.net_part_blocks = (uint64_t)l->read_cache.part_blocks;
    return s;
}

/* A board found (again, or on a resumed game) is turned to the game's position before
 * its snapshot is believed (station/stn_align.h): the grid under the symmetry (or shift)
 * that agrees with the record, the snapshot too. 1: go on with l->geom and *snap;
 * 0: it disagrees with the record (a misread under an arm, another board): keep looking,
 * until RL_GIVE_UP_S. */
static int realign(rl_t *l, const cvb_image_t *img, vis_snapshot_t *snap, double t)
{
    if (!l->stn)
        return 1;
    const go_game_t *g = stn_game(l->stn);
    if (go_game_board(g)->size != snap->size || snap->board_lost)
        return 1;
    go_point_t pend[GO_MAX_SIZE * GO_MAX_SIZE];
    int np = stn_track_pending(stn_tracker(l->stn), pend, GO_MAX_SIZE * GO_MAX_SIZE);
    if (np > GO_MAX_SIZE * GO_MAX_SIZE)
        np = GO_MAX_SIZE * GO_MAX_SIZE;
    stn_align_t a;
    if (stn_align_find(g, pend, np, snap, l->cfg.station.stab.min_conf, STN_ALIGN_MAX_SHIFT,
                       &a) != GO_OK)
        return 1;
    l->align = a;
    l->align_valid = 1;
    if (!a.accept && l->cfg.resume && l->resume_chk.verdict != STN_RESUME_GO)
        return 0;   /* a resumed game: stn_resume_judge decides, never "taken as it is" */
    if (!a.accept) {
        if (l->align_refused == 0)
            l->align_since = t;
        l->align_refused++;
        if (t - l->align_since < RL_GIVE_UP_S || a.seen * 2 < a.stones) {
            if (l->align_refused == 1)
                note(l, "board", t, "board: found, but it disagrees with the record (%d points "
                     "of %d stones, %d seen): still looking", a.mismatch, a.stones, a.seen);
            return 0;
        }
        note(l, "board", t, "board: disagrees with the record for %.0f s: taken as it is (%d "
             "points differ)", t - l->align_since, a.mismatch);
    }
    l->align_refused = 0;
    if (stn_align_is_identity(&a))
        return 1;
    /* the grid turned to the record (game coordinates -> the detected grid's), its
     * refined points kept where the old grid had them */
    double m[6];
    int S = snap->size, map[VIS_MAX_POINTS];
    stn_align_affine(&a, S, m);
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            map[y * S + x] = stn_align_map(&a, S, x, y);
    vis_geom_t ng;
    if (vis_geom_transform(&l->geom, m, map, &ng) != VIS_OK)
        return 0;
    vis_snapshot_t turned;
    if (a.dx || a.dy) {
        /* a line the detection did not take is now the edge: fit the lines again (the
         * homography alone misses the lens's bend there) and read the board again */
        vis_geom_t rg = ng;
        if (vis_refine(img, &rg) == VIS_OK)
            ng = rg;
        l->geom = ng;
        if (vis_classify(img, &l->geom, &l->vcfg, &turned) == VIS_OK) {
            turned.frame = snap->frame;
            turned.t = snap->t;
        } else {
            stn_align_snapshot(&a, snap, &turned);
        }
    } else {
        l->geom = ng;
        stn_align_snapshot(&a, snap, &turned);
    }
    *snap = turned;
    static const char *const names[8] = { "as found", "turned a quarter", "turned half",
                                          "turned three quarters", "mirrored",
                                          "turned a quarter and mirrored",
                                          "turned half and mirrored",
                                          "turned three quarters and mirrored" };
    char shift[48] = "";
    if (a.dx || a.dy)
        snprintf(shift, sizeof shift, ", shifted %+d,%+d lines", a.dx, a.dy);
    note(l, "board", t, "board: %s%s: aligned with the record (%d of %d stones agree, %d points "
         "differ)", names[a.sym], shift, a.agree, a.stones, a.mismatch);
    return 1;
}

/* The end signals on one frame: the table beside the corners read (vision), the record's
 * stones masking the samples beside them (stn_signal_stones), the readings to the
 * referee. Returns the mask of seats whose confirmed reading changed. */
static int signal_feed(rl_t *l, const cvb_image_t *img, const vis_snapshot_t *snap, double t)
{
    uint8_t stones[VIS_MAX_POINTS];
    if (stn_signal_stones(&l->sig, l->stn, t, stones) != GO_OK)
        return 0;
    int rd[4];
    int ok = !snap->occluder && vis_outside_read(&l->sig_vo, img, &l->geom, stones,
                                                 stn_signal_sides(&l->sig), rd) == VIS_OK;
    int ch = stn_signal_read(&l->sig, l->stn, ok ? rd : NULL, t);
    if (!snap->occluder)
        vis_outside_refresh(&l->sig_vo, img, &l->geom, stones, stn_signal_quiet_sides(&l->sig));
    signal_events(l);
    return ch;
}

/* What the end signals mean now (stn_signal_judge), told; the game over by them. */
static void judge_signals(rl_t *l, int changed, int end_of_file, double t)
{
    int over = stn_signal_judge(&l->sig, l->stn, changed, phase(l) == 0, end_of_file, t);
    signal_events(l);
    if (over && l->sink.over)
        l->sink.over(l->sink.ctx);
}

/* The board's own colours learned from a position the station accepted: the frame
 * hand-free, every point it reads surely (the model's min_conf) the record's colour there,
 * read under the board's geometry (the read cache's reading is this frame's: the network's,
 * before any model). Once per position of the record (its move count): the first fit is
 * taken whole, later ones move it by the model's rate (vis_board_model_update); from then on
 * the reader combines it with the network's word (vcfg.board). A view that disagrees with
 * the record (a stone not yet recorded, a misread) teaches nothing. */
static void learn_colours(rl_t *l, const vis_snapshot_t *snap, double t)
{
    if (!l->cfg.learn_colours || !l->stn || snap->occluder || snap->board_lost)
        return;
    const go_game_t *g = stn_game(l->stn);
    const go_board_t *b = go_game_board(g);
    int moves = go_game_move_count(g), S = snap->size;
    const vis_read_cache_t *c = &l->read_cache;
    if (moves == l->colours_moves || b->size != S || !c->valid || c->size != S)
        return;
    for (int k = 0; k < 9; k++)
        if (c->H[k] != l->geom.H[k]) /* read under another geometry: not this frame's */
            return;
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int k = y * S + x;
            if (!snap->occluded[k] && snap->conf[k] >= l->board.min_conf &&
                snap->color[k] != b->color[GO_PT(x, y)])
                return;
        }
    int first = !l->vcfg.board;
    if (vis_board_model_update(&l->board, &c->reading, snap) != VIS_OK)
        return;
    l->colours_moves = moves;
    l->stats.colour_fits++;
    if (first && (l->board.n[0] || l->board.n[1] || l->board.n[2])) {
        l->vcfg.board = &l->board;
        note(l, "board", t, "board: its own colours learned (%d empty points, %d black, %d "
             "white)", l->board.n[GO_EMPTY], l->board.n[GO_BLACK], l->board.n[GO_WHITE]);
    }
}

int rl_feed(rl_t *l, const cvb_image_t *img, uint64_t frame, double t, int *read)
{
    vis_snapshot_t *snap = &l->snap;
    memset(snap, 0, sizeof *snap);
    snap->frame = frame;
    snap->t = t;
    l->read_cache.frame = frame; /* this frame's readings are read in turn with the last's */
    if (read)
        *read = 0;
    double t0 = cpu_s();
    int fresh = 0;
    if (!l->have_geom) {
        int hint = l->stn ? go_game_board(stn_game(l->stn))->size : l->cfg.size;
        int rc = VIS_ENOBOARD;
        /* the profile's corners, scaled to this frame (a reduced decode, another size of
         * the same aspect); a frame of another aspect falls back to detection */
        if (l->have_cal && !l->ever_found && (!hint || hint == l->cal.size) &&
            cal_profile_to_geom(&l->cal, img->w, img->h, &l->geom) == CAL_OK) {
            rc = vis_classify(img, &l->geom, &l->vcfg, snap);
        } else {
            rc = vis_detect(img, &l->vcfg, hint, &l->geom, snap, NULL);
        }
        l->stats.detects++;
        l->stats.detect_s += cpu_s() - t0;
        /* a grid that tracking would reject at once is no board (vis_board_accept) */
        double fit = 0, lk = 1.0;
        if (rc != VIS_OK || (hint && l->geom.size != hint) ||
            vis_board_accept(img, &l->geom, snap, &l->vcfg, &lk, &fit) != VIS_OK)
            return RL_OK;   /* no board in sight */
        snap->frame = frame;
        snap->t = t;
        l->align_valid = 0;
        int aligned = realign(l, img, snap, t);
        if (l->cfg.resume && l->align_valid &&
            stn_resume_judge(&l->resume_chk, &l->align, t) == STN_RESUME_REFUSE)
            return RL_EREFUSED;
        if (!aligned)
            return RL_OK;   /* not the game's board yet: keep looking */
        l->have_geom = 1;
        l->line_k = lk;
        fresh = 1;
        if (!l->ever_found)
            note(l, "board", t, "board: %dx%d found", l->geom.size, l->geom.size);
        else
            note(l, "board", t, "board: found again");
        if (l->ever_found && l->sig_ready)
            vis_outside_forget(&l->sig_vo); /* the board may have moved: look again */
        l->ever_found = 1;
        if (!l->stn && rl_start(l, l->geom.size) != RL_OK)
            return RL_ESTATION;
    } else {
        vis_track_k(img, &l->geom, &l->vcfg, l->line_k, snap);
        snap->frame = frame;
        snap->t = t;
        l->stats.track_s += cpu_s() - t0;
    }
    /* an arm still across the border hides the edge points beside it (a fingertip on an
     * edge point can read as a stone): vis_border.h; its time is the tracking's */
    double tb = cpu_s();
    if (fresh)
        vis_border_reset(&l->border);
    vis_border_watch(&l->border, img, &l->geom, snap);
    l->stats.track_s += cpu_s() - tb;
    if (read)
        *read = 1;
    double t1 = cpu_s();
    int phase0 = phase(l);
    if (phase0 <= 1) {
        if (l->sig_ready)
            stn_signal_hands(&l->sig, snap);   /* before the gate hides stones lifted */
        if (phase0 == 0)
            stn_gate(l->stn, snap);   /* the removal gate (station.h) */
        int nm0 = go_game_move_count(stn_game(l->stn));
        int n = stn_feed(l->stn, snap);
        if (n > 0) {
            station_events(l);
            if (phase0 == 0 && go_game_move_count(stn_game(l->stn)) > nm0 && l->sig_ready) {
                stn_signal_after_move(&l->sig, l->stn, t);
                signal_events(l);
            }
        }
        if (l->sink.fed)
            l->sink.fed(l->sink.ctx, phase0, n);
        if (phase0 == 0)
            learn_colours(l, snap, t);
    }
    double t2 = cpu_s();
    l->stats.station_s += t2 - t1;
    if (snap->board_lost) {
        l->have_geom = 0;
    } else {
        if (!l->sig_ready && fresh) {
            /* the calibration tells the seats; else a guess (the record's bottom) */
            vis_side_t bs = l->have_cal ? l->cal.black_side : VIS_SIDE_BOTTOM;
            l->sig_ready = vis_outside_init(&l->sig_vo, l->geom.size, NULL) == VIS_OK &&
                           stn_signal_init(&l->sig, l->geom.size, bs, l->have_cal, NULL) == GO_OK;
        }
        if (l->sig_ready && !l->sig_vo.have_ref && !snap->occluder) {
            vis_outside_reference(&l->sig_vo, img, &l->geom);
            stn_signal_reference(&l->sig);
        } else if (l->sig_ready) {
            int ch = signal_feed(l, img, snap, t);
            judge_signals(l, ch, 0, t);
        }
    }
    l->stats.signal_s += cpu_s() - t2;
    return RL_OK;
}

void rl_finish(rl_t *l, double t, int file, stn_unfinished_t *out)
{
    memset(out, 0, sizeof *out);
    if (!l->sig_ready)
        return;
    judge_signals(l, 0, 1, t);   /* a file ended with the signals there: they stand */
    if (file && l->stn && phase(l) == 0) {
        stn_signal_finish(&l->sig, l->stn, t, out);
        signal_events(l);
    }
}
