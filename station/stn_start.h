/* stn_start.h: how a recording begins: where a resumed game picks up in its footage,
 * whether the board seen there is the record's, and which handicap the stones on the
 * board before move 1 show. Decisions only: no I/O, no printing (the CLI says them).
 *
 * Invariants: every function here is pure over its arguments (stn_resume_judge keeps its
 * state in the caller's stn_resume_check_t); nothing here changes a game or a record.
 *
 *   uint64_t f;  if (stn_resume_frame(stn_tracker(s), stn_game(s), &f) == GO_OK) seek(f);
 *   stn_resume_check_t rc;  stn_resume_check_init(&rc, NULL);
 *   each board found:  switch (stn_resume_judge(&rc, &align, t)) { ... }
 *   stn_handicap_seen_t h;  stn_handicap_find(size, view.color, &h);
 */
#ifndef KIFUCAM_STN_START_H
#define KIFUCAM_STN_START_H

#include <stddef.h>
#include <stdint.h>

#include "rules/go_game.h"
#include "station/stn_align.h"
#include "station/stn_track.h"

/* ---- resuming ---- */

/* The frame a resumed game's footage picks up at: the one after the frame of the last
 * move that has one (the record's KF[], loaded into the tracker's infos). Returns GO_OK
 * (*frame written) or GO_EEMPTY (no move of the record names its frame: a record not
 * written by kifucam, or no move yet). */
int stn_resume_frame(const stn_track_t *k, const go_game_t *g, uint64_t *frame);

/* Where a resumed camera's numbers continue: the largest frame number and footage time
 * any move of the record names (KF[]), so that the new frames are numbered and timed
 * after them (a camera has no frame of its own to pick up at). GO_OK (*frame, *t written)
 * or GO_EEMPTY (no move names its frame). */
int stn_resume_last(const stn_track_t *k, const go_game_t *g, uint64_t *frame, double *t);

typedef struct stn_resume_params {
    double refuse_s;   /* a board that disagrees with the record this long (footage
                          seconds, from the first disagreeing view) refuses the resume;
                          default 1.0 (a hand or a misread clears within it; longer waits
                          only delay the refusal) */
    int refuse_views;  /* ... and in at least this many views; default 3 */
} stn_resume_params_t;

/* Fill *p with the defaults above. */
void stn_resume_params_defaults(stn_resume_params_t *p);

typedef enum {
    STN_RESUME_WAIT = 0,   /* nothing decided yet: keep looking */
    STN_RESUME_GO,         /* the board is the record's: go on */
    STN_RESUME_REFUSE      /* the board is not the record's position: refuse the resume */
} stn_resume_verdict_t;

typedef struct stn_resume_check {
    stn_resume_params_t par;
    stn_resume_verdict_t verdict;   /* the decision so far (GO and REFUSE are final) */
    double since;                   /* the first disagreeing view's time, or -1 */
    int views;                      /* disagreeing views since then */
    stn_align_t last;               /* the last disagreeing comparison (for the message) */
} stn_resume_check_t;

/* Start a check (par NULL: defaults). */
void stn_resume_check_init(stn_resume_check_t *c, const stn_resume_params_t *par);
/* One board found at time t, compared with the record (stn_align_find): GO when it
 * agrees (a.accept), REFUSE once it has disagreed refuse_s and refuse_views running with
 * enough of the position in sight (half its stones read), else WAIT (too little seen: a
 * hand over the board does not count for or against). An agreeing view resets nothing
 * once decided: the first GO or REFUSE stands. */
stn_resume_verdict_t stn_resume_judge(stn_resume_check_t *c, const stn_align_t *a, double t);

/* ---- handicap stones before move 1 ---- */

typedef enum {
    STN_HC_EMPTY = 0,   /* no stone on the board */
    STN_HC_UNSURE,      /* a star point is unknown (hidden, unsure; on a size with no
                           standard placement: any point): it may hide a handicap stone,
                           nothing to say yet. Unknown points elsewhere are counted in
                           nunknown and read as empty (a handicap stands on star points) */
    STN_HC_STANDARD,    /* black stones exactly on go_game_handicap(n)'s points, under one
                           of the board's 8 symmetries (a camera does not know which side
                           is Black's) */
    STN_HC_STARS,       /* 2..9 black stones, all on star points, not a standard placement */
    STN_HC_OTHER        /* anything else: white stones, stones off the star points, one
                           stone, or a board size with no standard placement */
} stn_hc_kind_t;

#define STN_HC_MAX_PTS 32   /* stones listed in stn_handicap_seen_t.pts */

typedef struct stn_handicap_seen {
    stn_hc_kind_t kind;
    int n;              /* STANDARD: the handicap, 2..9; else 0 */
    int nblack, nwhite; /* stones seen */
    int nunknown;       /* points not read */
    int npts;           /* pts[] used (black stones first; capped at STN_HC_MAX_PTS) */
    go_point_t pts[STN_HC_MAX_PTS];   /* go_board.h points */
} stn_handicap_seen_t;

/* Which standard handicap, if any, the position color[] shows: size x size points, row
 * by row from the top (y * size + x), each GO_EMPTY, GO_BLACK, GO_WHITE or STN_UNKNOWN
 * (stn_view_t.color). Returns GO_OK (*out written), GO_EINVAL (bad size, NULL) or
 * GO_ENOMEM. */
int stn_handicap_find(int size, const uint8_t *color, stn_handicap_seen_t *out);

/* The human form of point p on a size-board ("Q16": columns A-T without I, row 1 at the
 * bottom) into out (at least 4 bytes). */
void stn_point_human(int size, go_point_t p, char out[4]);

#endif
