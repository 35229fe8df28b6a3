/* rl_loop.h: the recording loop as a library: one frame at a time through vision, the
 * station and the end signals, as `kifucam record` runs it (and tests and benchmarks can).
 *
 * Per frame: no board yet (or lost): the calibration's corners on the first frames, else
 * cold detection (vis_detect); a grid that tracking would reject is no board
 * (vis_board_accept); a board found again, or a resumed game's first board, is turned to
 * the record's orientation before its snapshot is believed (stn_align, vis_geom_transform),
 * and a resumed game's board that is not the record's position is refused
 * (stn_resume_judge). Board known: tracking (vis_track_k). Then, while the game is in play
 * or counted: hands near the signal corners (stn_signal_hands), the removal gate in play
 * (stn_gate), the station (stn_feed), the end signals after a move (stn_signal_after_move);
 * a position the station accepted teaches the reader the board's own colours
 * (learn_colours).
 * Then the table beside the corners (vis_outside) and what it means (stn_signal_read,
 * stn_signal_judge).
 *
 * Nothing here prints. What happens goes to the caller's sink, in order: the station's
 * events and the signals' (sink.event), the loop's own notes (sink.note: kind "board"),
 * the station created (sink.station), each frame the station read (sink.fed: the caller's
 * phase, clock and count bookkeeping), and the game ended by the end signals (sink.over).
 * The caller owns the phase it shows (sink.phase: 0 play, 1 counting, 2 over, mirroring
 * stn_phase) and decides what to print.
 *
 * Invariants: the station is NULL until rl_start (or the first board found); the geometry
 * is valid exactly while rl_geom says so; the signal reader and referee exist from the
 * first board found on, for that board's size.
 *
 *   rl_config_t c;  rl_config_defaults(&c);  c.station.sgf_path = "g.sgf";
 *   rl_t *l = rl_create(&c, &sink);
 *   per frame:  int read, rc = rl_feed(l, &img, index, t, &read);   // RL_OK, RL_E...
 *   at the end: stn_unfinished_t u;  rl_finish(l, t, 1, &u);
 *   rl_destroy(l);
 */
#ifndef KIFUCAM_RL_LOOP_H
#define KIFUCAM_RL_LOOP_H

#include <stdint.h>

#include "calib/cal_profile.h"
#include "station/station.h"
#include "station/stn_align.h"
#include "station/stn_finish.h"
#include "station/stn_start.h"
#include "vision/vis.h"

#define RL_OK 0
#define RL_ESTATION (-1)   /* the station could not be created (rl_start_error says why) */
#define RL_EREFUSED (-3)   /* a resumed game's board is not the record's (rl_resume_check) */

/* After RL_GIVE_UP_S of a board found that disagrees with the record, its best fit is
 * taken anyway (the station then reports what must be restored; a bulk change is refused
 * there); never for a resumed game, which stn_resume_judge decides. */
#define RL_GIVE_UP_S 30.0

typedef struct rl_sink {
    void *ctx;
    /* the caller's phase: 0 play, 1 counting, 2 over (it mirrors stn_phase) */
    int (*phase)(void *ctx);
    /* an event: the station's (stn_events) or the end signals' (STN_EV_SIGNAL,
     * STN_EV_END_AWAITED and the station's events they caused) */
    void (*event)(void *ctx, const stn_event_t *e);
    /* a note of the loop's own: kind ("board"), footage time, one line */
    void (*note)(void *ctx, const char *kind, double t, const char *text);
    /* the station was created (rl_start, or the first board found) */
    void (*station)(void *ctx, stn_t *s);
    /* the station read a frame: phase0 the caller's phase before it, nev the events it
     * gave (already passed to event) */
    void (*fed)(void *ctx, int phase0, int nev);
    /* the game is over by the end signals (a resignation, or the end by agreement) */
    void (*over)(void *ctx);
} rl_sink_t;

typedef struct rl_config {
    stn_config_t station;       /* the station's settings (size: rl_start's or the board's) */
    vis_config_t vision;        /* vision's (the loop adds its read cache and the profile's
                                   colour model); default vis_config_for_video */
    const cal_profile_t *cal;   /* a calibration (copied), or NULL: its corners are tried on
                                   the first frames, its black_side tells the seats */
    int size;                   /* the board's size expected, 0 any (a calibration's when
                                   given) */
    int resume;                 /* the station resumes a record: its first board is judged
                                   against it (rl_resume_check) */
    int learn_colours;          /* default 1: the board's own colours (vis_board_model_t)
                                   fitted on the first position the station accepted and
                                   refined by each later one (a calibration's model, when
                                   there is one, is the start); 0: the calibration's only */
} rl_config_t;

typedef struct rl_stats {
    double detect_s, track_s, station_s, signal_s; /* CPU time of this thread per stage */
    uint64_t detects;                              /* cold detections run */
    uint64_t reads, reads_cached, net_runs;        /* tracking's readings of the points:
                                                      made, taken from the read cache, and
                                                      the network's runs over the whole
                                                      view for those made */
    uint64_t net_part_runs, net_part_blocks;       /* ... and its runs over parts of the
                                                      view (the other run around unsure
                                                      points, vis_read_cache_t), the
                                                      blocks those parts held */
    uint64_t colour_fits;                          /* positions the board's colours were
                                                      learned from (learn_colours) */
} rl_stats_t;

typedef struct rl rl_t;

/* Fill *c with the defaults: the station's and vision's for video, no calibration. */
void rl_config_defaults(rl_config_t *c);
/* A loop (cfg and the sink copied). NULL when out of memory. */
rl_t *rl_create(const rl_config_t *cfg, const rl_sink_t *sink);
/* Free it (the station with it). Does nothing if NULL. */
void rl_destroy(rl_t *l);
/* Create the station now, for a board of this size (a --size or a resumed record, before
 * any frame). RL_OK, or RL_ESTATION (rl_start_error: the station's code and the refused
 * record's reason). */
int rl_start(rl_t *l, int size);
/* The station's error code of the last failed start, and the reason a resumed record was
 * refused ("" when none). */
int rl_start_error(const rl_t *l, const char **why);
/* One frame at time t (seconds). *read (may be NULL): 1 when a board was read in it
 * (rl_snapshot is this frame's), 0 when none was seen. RL_OK, RL_EREFUSED (--resume: this
 * board is not the record's position), RL_ESTATION. */
int rl_feed(rl_t *l, const cvb_image_t *img, uint64_t frame, double t, int *read);
/* The input ended (file: a file or folder, not a camera): the end signals there stand (a
 * resignation waiting too); with one end signal seen and not the other, the signaller's
 * pass goes in when it is his turn (*out says what to tell; file only, in play). */
void rl_finish(rl_t *l, double t, int file, stn_unfinished_t *out);

/* The station, or NULL before it exists. */
stn_t *rl_station(const rl_t *l);
/* The board's geometry while known (NULL otherwise). */
const vis_geom_t *rl_geom(const rl_t *l);
/* The last frame's snapshot as read (valid after an rl_feed that read a board). */
const vis_snapshot_t *rl_snapshot(const rl_t *l);
/* Whether a board was ever found. */
int rl_ever_found(const rl_t *l);
/* The resumed game's check of its first boards (stn_start.h). */
const stn_resume_check_t *rl_resume_check(const rl_t *l);
/* Work done so far. */
rl_stats_t rl_stats(const rl_t *l);

#endif
