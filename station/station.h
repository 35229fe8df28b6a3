/* station.h: the recording station as one object — the driver `kifucam record` uses.
 *
 *   stn_config_t cfg;  stn_config_defaults(&cfg);  cfg.size = 19;  cfg.sgf_path = "g.sgf";
 *   int err;  stn_t *s = stn_create(&cfg, &err);          // or cfg.resume_path
 *   for each frame:  int n = stn_feed(s, &snapshot);      // vision's vis_snapshot_t
 *                    const stn_event_t *ev = stn_events(s, &n);   // what happened
 *                    stn_event_json(&ev[i], line, sizeof line);   // --format json
 *   console:         stn_pass(s, t) / stn_undo(s, t) / stn_resign(s, color, t) / stn_end(s, t)
 *   signals:         stn_signal.h (the end signals beside the board, read by vision's
 *                    vis_outside: the referee acts on the station through this API)
 *   the count:       stn_phase(s), stn_count_toggle(s, p, by, t), stn_count_accept(s, c, t)
 *   the clock:       cfg.time_control = "main=60m,byoyomi=5x60s"; stn_clock_json(s, now, ...)
 *                    stn_clock_pause / stn_clock_resume / stn_clock_adjust (arbiter)
 *   stn_game(s), stn_session(s), stn_record_text(s), stn_stats(s), stn_destroy(s);
 *
 * Each frame goes through the stabiliser (stn_stab.h); an accepted view goes to the
 * tracker and referee (stn_track.h); after every change of the game the SGF is rewritten
 * safely (stn_record.h). A failed write keeps the last good file, is reported once
 * (STN_EV_RECORD_ERROR) and retried at the next change; the game goes on in memory.
 * Events are valid until the next call on the station. Scripted tests and replays may
 * skip the stabiliser with stn_feed_view. The module's parts, each usable alone:
 *   stn_event.h   events as data (kind, colour, points, move, frame, time, message)
 *   stn_stab.h    stabiliser: snapshots -> accepted views (hands, flicker, unknown points)
 *   stn_track.h   tracker and referee: views -> moves, takebacks, warnings, void moves
 *   stn_record.h  SGF text, atomic rewrite (fsync, rename, fsync of the folder), resume
 *
 * Prefix: stn_ for the whole station/ module.
 */
#ifndef KIFUCAM_STATION_H
#define KIFUCAM_STATION_H

#include "rules/go_game.h"
#include "rules/go_session.h"
#include "station/stn_event.h"
#include "station/stn_record.h"
#include "station/stn_stab.h"
#include "station/stn_track.h"
#include "clock/clk.h"
#include "vision/vis_snapshot.h"

#define STN_KOMI_DEFAULT (-100000)   /* komi2 value meaning "the rules' standard komi" */

typedef struct stn_config {
    int size;                  /* board size 2..25; default 19 (ignored when resuming) */
    const char *rules;         /* preset name (go_rules.h); default "chinese" */
    int komi2;                 /* half points; STN_KOMI_DEFAULT: the rules' komi for
                                  this handicap (go_rules_komi2) */
    int handicap;              /* 0 or 2..9 stones on the star points; default 0 */
    int handicap_seen;         /* with no handicap given: black stones seen before move 1
                                  exactly on a standard placement (stn_handicap_find,
                                  under any of the 8 symmetries) are taken as the handicap
                                  (HA[n], AB[] where they are, White to move:
                                  STN_EV_HANDICAP); other stones there (and, with 0, a
                                  standard placement not taken) are named in the
                                  STN_EV_UNEXPLAINED message; default 1 (0: never take) */
    const char *black, *white; /* players' names, or NULL */
    const char *date;          /* DT (YYYY-MM-DD), or NULL: today (UTC) */
    const char *sgf_path;      /* the record, rewritten after every move; NULL: none */
    const char *resume_path;   /* an SGF to continue (its settings win), or NULL: a file
                                  the resume would not keep whole is refused
                                  (stn_record_parse) and left as it was; resuming into
                                  the same file writes nothing until the game changes */
    char *resume_why;          /* NULL, or a buffer of resume_why_len bytes that gets the
                                  one-line reason when resume_path is refused */
    size_t resume_why_len;
    stn_stab_config_t stab;    /* stabiliser settings (stn_stab_defaults) */
    stn_track_config_t track;  /* tracker and referee settings (stn_track_defaults) */
    const char *time_control;  /* the clock: a spec of clock/clk.h ("main=60m,byoyomi=5x60s",
                                  "main=115m,chinese=5", ...), or NULL (default): none */
} stn_config_t;

typedef struct stn stn_t;

/* Fill *c with the defaults above. */
void stn_config_defaults(stn_config_t *c);
/* A short English description of a station status code (STN_EKEEP, STN_EILLEGAL and the
 * GO_E* codes); never NULL. */
const char *stn_strerror(int code);
/* A new station. NULL on failure with the reason in *err (may be NULL): GO_EINVAL (bad
 * size, rules or handicap), GO_ENOMEM, or the load error of resume_path (GO_EIO,
 * GO_EPARSE, GO_EINVAL, STN_EKEEP, STN_EILLEGAL). The first record is written at once when sgf_path is set (a
 * failure there is an event, not an error). Caller destroys. */
stn_t *stn_create(const stn_config_t *cfg, int *err);
/* Free it. Does nothing if NULL. */
void stn_destroy(stn_t *s);

/* Feed one frame's snapshot. Returns the number of events it produced (read them with
 * stn_events), or GO_EINVAL (a snapshot of another size), GO_ENOMEM. */
int stn_feed(stn_t *s, const vis_snapshot_t *snap);
/* The removal gate, for a snapshot about to be fed in play: stones that vanish from the
 * board without a capture and without any new stone (the players lifting dead stones
 * after two unseen passes, before their end signals) are marked hidden (occluded,
 * confidence 0), not empty, while nothing else changes: a new stone (sure, where the
 * record has none and no captured stone waits to be taken off) means the game goes on,
 * the gate opens, and the station sees the removal (and warns) as usual; the end signals
 * instead start the count, where those stones are marked dead. The last move's stone
 * lifted alone is a takeback and passes; lifted with others, it is gated too. Unsure
 * points (under stab.min_conf) and hidden ones count for nothing. A snapshot of another
 * size, or of a lost board, is left as it is. */
void stn_gate(const stn_t *s, vis_snapshot_t *snap);
/* Feed an already stable view (scripted tests, replays): skips the stabiliser. */
int stn_feed_view(stn_t *s, const stn_view_t *v);
/* The events of the last call (feed or console action); *n gets their count. */
const stn_event_t *stn_events(const stn_t *s, int *n);

/* Console actions at time t (seconds). Each returns 0 or a GO_E* code (GO_ETURN,
 * GO_EOVER, GO_EEMPTY), with its events in stn_events. */
int stn_pass(stn_t *s, double t);                      /* the side to move passes */
int stn_undo(stn_t *s, double t);                      /* take back the last move */
/* The side to move had passed (his end signal) before the last move was seen: that stone
 * is the opponent's (it was read as the side to move's, a wrong colour). Takes the move
 * back, records the pass and reads the last view again. GO_EINVAL when the last move is
 * no stone or no view was read (outside play). */
int stn_pass_before_last(stn_t *s, double t);
int stn_resign(stn_t *s, go_color_t c, double t);      /* c resigns (GO_EMPTY: to move) */
int stn_end(stn_t *s, double t);                       /* the players agree the game ended:
                                                          two passes from the side to move */
/* Set the result (RE[], e.g. "B+3.5" from the count) and rewrite the record. */
int stn_set_result(stn_t *s, const char *result);

/* The count (after two passes or stn_end; not after a resignation): the station proposes
 * the dead stones (rules/go_session.h) and reports them (STN_EV_COUNT). Stones the players
 * take off the board are marked dead (a stone put back is alive again); the console
 * toggles groups and accepts. When both accepted, the result goes to RE[] with the
 * session's story as a comment on the last move (STN_EV_RESULT), and the record is
 * rewritten. Undo (stn_undo) leaves the count and takes back the last pass. */
typedef enum { STN_PHASE_PLAY = 0, STN_PHASE_COUNT, STN_PHASE_DONE } stn_phase_t;
stn_phase_t stn_phase(const stn_t *s);
/* Toggle the group at point p (go_board.h point) for player by (GO_EMPTY: arbiter).
 * GO_EINVAL outside the count or on an empty point. */
int stn_count_toggle(stn_t *s, int p, go_color_t by, double t);
/* Player c accepts the current marking. GO_EINVAL outside the count. */
int stn_count_accept(stn_t *s, go_color_t c, double t);
/* The scoring session during and after the count, or NULL. */
const go_session_t *stn_session(const stn_t *s);

/* The game (never NULL; owned by the station). */
const go_game_t *stn_game(const stn_t *s);
/* The tracker (infos, disagreements, warnings). */
const stn_track_t *stn_tracker(const stn_t *s);
/* The metadata written to the record. */
const stn_meta_t *stn_meta(const stn_t *s);
/* The current SGF text (malloc'd, caller frees). Returns 0 or GO_ENOMEM. */
int stn_record_text(const stn_t *s, char **text);
/* 0 when the file on disk is up to date, else the last write's error (GO_EIO). */
int stn_record_status(const stn_t *s);

/* ---- the clock (cfg.time_control) ----
 *
 * Time is the station's time base (the views' and snapshots' t, the actions' t). The
 * clock starts, with the side to move, at the first time the station sees (the first
 * frame, view or action). The mover's clock stops at the time the hand left the board
 * (the view's t_clear), not when the move was seen; the opponent's runs from then. A pass
 * (console, end signal) and a void move (counted as a pass) are moves for the clock. A
 * takeback gives the turn back: the clock follows the side to move.
 * Live frames (stn_feed) advance the clock to the frame's time less a lag (stab.stable_s
 * + STN_CLOCK_LAG_S): a move whose hand left the board in time but is seen later is never
 * a loss; the calls come that much late. Scripted views (stn_feed_view) advance it to
 * their t_clear; actions to their t.
 * Referee stops: a warning (stones moved or removed without capture) pauses the clock
 * until the board agrees with the record again (STN_EV_AGREES); a mere disagreement (a
 * void stone or dead stones not yet taken off) does not: the side to move is thinking.
 * The arbiter's pause holds until his resume. The clock also stops while the count runs
 * and after the end (an undo back into play resumes it).
 * The calls (clk.h: 30, 40, 50 s..., the periods left, 1 to 9, the loss) and pauses are
 * STN_EV_CLOCK events (msg English, zh Chinese). A loss on time ends the game: RE[] B+T or
 * W+T, phase DONE (STN_EV_END), the record rewritten; views are no longer read.
 * The record gets TM and OT in the header, BL/WL (with OB/OW in overtime) on every move. */
#define STN_CLOCK_LAG_S 0.3

/* The clock, or NULL when no time control runs. Read-only (use the calls below). */
const clk_t *stn_clock(const stn_t *s);
/* The arbiter pauses / resumes the clock at t. 0, GO_EINVAL (no clock), GO_ETURN (already
 * paused / not paused by the arbiter), GO_EOVER (the game is over on time). */
int stn_clock_pause(stn_t *s, double t);
int stn_clock_resume(stn_t *s, double t);
/* The arbiter adds delta_s seconds (negative: takes away) to c's time at t (main time, or
 * the current period in overtime). 0, GO_EINVAL, GO_EOVER. */
int stn_clock_adjust(stn_t *s, go_color_t c, double delta_s, double t);
/* Advance the clock to t (a timer between frames: calls and a loss on time come without a
 * new frame). Returns the number of events (stn_events) or a GO_E* code. */
int stn_clock_tick(stn_t *s, double t);
/* The "clock" object of the web state (web/web.h, web_state_info_t.clock_json) as of
 * `now`: {"B":{"left":1234.5,"periods":3,"text":"20:34"},"W":{...},"running":"B",
 * "paused":false,"announce":"10","announce_zh":"..."}; "periods" in byo-yomi, "moves" in
 * Canadian overtime, "lost":true for a fallen flag. Writes at most len bytes with a NUL and
 * returns the full length (as snprintf), or GO_EINVAL when no clock runs. */
int stn_clock_json(const stn_t *s, double now, char *buf, size_t len);

/* Work done so far, per stage (monotonic clock, seconds): for benchmarks and the CLI. */
typedef struct stn_stats {
    uint64_t frames;       /* snapshots fed */
    uint64_t views;        /* views accepted and read by the tracker */
    uint64_t writes;       /* records written (or attempted) */
    double stab_s;         /* in the stabiliser */
    double track_s;        /* in the tracker and referee */
    double record_s;       /* building and writing the SGF (fsyncs included) */
} stn_stats_t;
/* The station's counters. */
stn_stats_t stn_stats(const stn_t *s);

#endif
