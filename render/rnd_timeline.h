/* rnd_timeline.h: a game played at a human pace, frame by frame.
 *
 * From a game (rnd_game.h), the scene's geometry and a seed, the timeline lays out every
 * frame: thinking pauses, a hand bringing each stone and leaving, captures removed by
 * hand (sometimes a few moves late), now and then a stone bumped half a point (only where
 * it has room: a real stone stops against its neighbour, it never lies over it) and pushed
 * back, and the optional end sequence (two passes, dead stones removed, the Chinese end
 * signals; or a resignation). It is a list of events, each at a frame, and one hand per
 * frame; rnd_timeline_state() replays them into what lies on the board at any frame.
 * Deterministic for a given seed.
 */
#ifndef KIFUCAM_RND_TIMELINE_H
#define KIFUCAM_RND_TIMELINE_H

#include <stdint.h>

#include "render/rnd_game.h"
#include "render/rnd_render.h"

typedef enum {
    RND_EV_PLACE = 0,  /* move n's stone lands (record and board) */
    RND_EV_CAPTURE,    /* the record removes a captured stone (at the capturing move) */
    RND_EV_REMOVE,     /* a hand lifts a captured stone off the board */
    RND_EV_BUMP,       /* a stone is knocked half a point off (dx, dy in grid units) */
    RND_EV_UNBUMP,     /* it is pushed back */
    RND_EV_PASS,       /* a pass (move n) */
    RND_EV_RESIGN,     /* a resignation (color resigns) */
    RND_EV_DEAD,       /* a dead stone lifted off at the end */
    RND_EV_SIGNAL,     /* an end-signal stone put outside the board (x, y: world mm) */
    RND_EV_HAND_IN,    /* a hand enters (color: whose) */
    RND_EV_HAND_OUT,   /* the hand has left */
    RND_EV_UNSIGNAL    /* the end-signal stone of this colour nearest (x, y) is taken back */
} rnd_event_kind_t;

typedef struct rnd_event {
    int frame;
    rnd_event_kind_t kind;
    int move;          /* 1-based move number (PLACE, CAPTURE, PASS, RESIGN), else 0 */
    uint8_t color;     /* stone or player colour */
    int16_t point;     /* y*size + x, or -1 */
    float dx, dy;      /* BUMP: offset in grid units; PLACE: off-centre jitter in mm */
    float wx, wy;      /* SIGNAL: world position, mm */
    float grain;       /* PLACE/SIGNAL: white grain direction */
} rnd_event_t;

/* After end signals the final scene is held this long at least (seconds of footage,
 * whatever the pace): a recorder confirms a signal once it stayed a while. */
#define RND_END_HOLD_S 3.0
/* A pass in mid-game with the physical signals (the passer's end signal): the opponent
 * plays on this long after it at least (seconds of footage, whatever the pace). */
#define RND_PASS_SEEN_S 2.0

typedef struct rnd_timeline_opts {
    int fps;           /* frames per second, 1..240; default 30 */
    int hands;         /* 1 (default): hands bring the stones; 0: stones just appear */
    int end;           /* 0 none (default), 1 both pass and signal, 2 resignation */
    int loser;         /* with end 2: who resigns (1, 2); 0: the player who did not move last */
    double pace;       /* time scale of pauses; default 1 (human pace); tests use less */
    uint64_t seed;
} rnd_timeline_opts_t;
/* Fill *o with the defaults above (seed 1). */
void rnd_timeline_opts_defaults(rnd_timeline_opts_t *o);

typedef struct rnd_timeline {
    int nframes;
    rnd_hand_t *hand;      /* nframes entries (active = 0 when no hand) */
    int nevents;
    rnd_event_t *events;   /* sorted by frame */
    int size;
} rnd_timeline_t;

/* Lay out the game. geo gives the board's world geometry (rnd_renderer_geometry). Caller
 * frees with rnd_timeline_fini. Returns RND_OK, RND_EINVAL or RND_ENOMEM. */
int rnd_timeline_build(rnd_timeline_t *t, const rnd_game_t *g, const rnd_geometry_t *geo,
                       const rnd_timeline_opts_t *o);
void rnd_timeline_fini(rnd_timeline_t *t);

/* What lies on the board, replayed event by event. Initialise with
 * rnd_timeline_state_init, then call rnd_timeline_state_step for frames 0, 1, 2, ... in
 * order; it applies that frame's events and returns how many there were. */
typedef struct rnd_tl_state {
    int size;
    int next_event;        /* index of the first event not yet applied */
    int moves;             /* moves played in the record so far (passes included) */
    uint8_t record[25 * 25];   /* the position as the record says it is now */
    uint8_t shown[25 * 25];    /* the stones physically on the grid points */
    float jx[25 * 25], jy[25 * 25], grain[25 * 25];  /* per stone: off-centre mm, grain */
    int bumped;            /* point displaced, or -1 */
    float bump_dx, bump_dy;
    int nsignals;          /* end-signal stones beside the board */
    float sig_x[4], sig_y[4];
    uint8_t sig_c[4];
    int changed;           /* 1: the stones on the board changed at the last step */
} rnd_tl_state_t;
void rnd_timeline_state_init(rnd_tl_state_t *s, const rnd_game_t *g);
int rnd_timeline_state_step(rnd_tl_state_t *s, const rnd_timeline_t *t, int frame);

/* The stones of a state as the renderer takes them (out holds size*size + 4). */
int rnd_timeline_stones(const rnd_tl_state_t *s, const rnd_geometry_t *geo, rnd_stone_t *out);

/* Name of an event kind ("place", "capture", ...); never NULL. */
const char *rnd_event_name(rnd_event_kind_t k);

#endif
