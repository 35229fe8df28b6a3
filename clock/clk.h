/* clk.h: the game clock — time-control specs, both sides' clocks, the arbiter's calls.
 *
 * Pure C, no I/O and no clock reading: every function takes the time `now` (or the time
 * of a move) in milliseconds on one monotonic time base chosen by the caller, so tests
 * simulate time and never wait.
 *
 * Time-control spec (kifucam record --time SPEC): comma-separated key=value items.
 *   main=DUR          main time per side (default 0)
 *   byoyomi=NxDUR     Japanese byo-yomi: N periods of DUR; a move within a period costs
 *                     nothing; a period that runs out is used up; the last one: loss
 *   chinese=N         Chinese byo-yomi: N one-minute periods kept in reserve; a move within
 *                     the minute costs nothing, each full minute used takes one period, the
 *                     last minute is counted aloud (chinese=NxDUR for other period lengths)
 *   canadian=N/DUR    Canadian: after main time, N moves to play in DUR, again and again
 *   fischer=DUR       Fischer: DUR added to the main time after each move
 *   (main alone)      absolute time
 * DUR is a whole number with units h, m, s or ms, which may be chained: 90m, 1h30m, 45s,
 * 1m30s; a bare number is seconds. At most one of byoyomi/chinese/canadian/fischer.
 * Examples: "main=60m,byoyomi=5x60s", "main=115m,chinese=5" (a Chinese two-hour limit
 * with five minutes kept for byo-yomi), "main=30m,canadian=25/10m", "main=10m,fischer=10s",
 * "main=90m".
 *
 * Timing: the clock of the side to move runs from the time the opponent's move was made
 * (the caller passes the time the hand left the board, not when the move was seen).
 * Loss on time: the flag falls when the time available reaches zero (elapsed >= limit).
 *
 * Calls (events) follow the Chinese arbiter (../shared/rules-texts): in each Chinese
 * byo-yomi minute at 30, 40, 50, 55 and 58 s and at the minute, then the minutes left;
 * in the last minute 30, 40, 50 s, then 1 to 9 each second, and at 10 the loss on time.
 * Japanese byo-yomi: every period 30, 40, 50 s (for 60 s periods; in general 30, 20 and
 * 10 s before its end), then 1 to 9, then the periods left (or the loss).
 */
#ifndef KIFUCAM_CLK_H
#define KIFUCAM_CLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/go_color.h"

enum {
    CLK_OK = 0,
    CLK_EINVAL = -1,   /* bad argument */
    CLK_EPARSE = -2,   /* malformed time-control spec */
    CLK_ETURN = -3,    /* that side's clock is not running */
    CLK_EOVER = -4,    /* a flag has fallen or the clock was stopped for good */
    CLK_ESTATE = -5,   /* not started, already started, already paused, not paused */
    CLK_ENOMEM = -6    /* allocation failed */
};
/* A short English description of a status code; never NULL. */
const char *clk_strerror(int code);

typedef enum {
    CLK_ABSOLUTE = 0,
    CLK_BYOYOMI,       /* Japanese: N periods of S */
    CLK_CHINESE,       /* Chinese: N one-minute periods in reserve */
    CLK_CANADIAN,      /* N moves in T */
    CLK_FISCHER        /* increment per move */
} clk_system_t;

typedef struct clk_spec {
    clk_system_t system;
    int64_t main_ms;       /* main time per side */
    int periods;           /* byoyomi/chinese: number of periods; canadian: moves per period */
    int64_t period_ms;     /* byoyomi/chinese: period length; canadian: period time */
    int64_t increment_ms;  /* fischer */
} clk_spec_t;

/* Parse a spec (syntax above). Returns CLK_OK, or CLK_EPARSE with a one-line reason in
 * err (may be NULL; errlen bytes, NUL-terminated); *out written only on success. */
int clk_spec_parse(const char *text, clk_spec_t *out, char *err, size_t errlen);
/* Write the spec back in the syntax above (canonical form). CLK_EINVAL if len too small. */
int clk_spec_format(const clk_spec_t *spec, char *buf, size_t len);

/* One side's clock, as shown on the overlay. */
typedef struct clk_view {
    int64_t main_ms;       /* main time left */
    int64_t period_ms;     /* time left in the current byo-yomi/Canadian period */
    int periods;           /* byoyomi/chinese: periods left (the current one included) */
    int moves_left;        /* canadian: moves still to play in the period */
    bool in_overtime;      /* main time is spent */
    bool running;          /* this side's clock is running (not paused) */
    bool lost;             /* flag fell */
} clk_view_t;

typedef enum {
    CLK_EV_OVERTIME = 0,   /* main time over, byo-yomi begins (value: periods or moves) */
    CLK_EV_SECONDS,        /* a call of the seconds used in the period (value: seconds) */
    CLK_EV_COUNT,          /* the last seconds counted aloud (value: 1..9) */
    CLK_EV_PERIOD_USED,    /* a period used up; value: periods left (Canadian: new period) */
    CLK_EV_LOSS            /* loss on time (value: 10 in counted byo-yomi, else 0) */
} clk_event_kind_t;

typedef struct clk_event {
    int64_t t_ms;          /* when it is due (on the caller's time base) */
    go_color_t side;
    clk_event_kind_t kind;
    int value;
    char zh[48];           /* as a Chinese arbiter says it, UTF-8 */
    char en[48];
} clk_event_t;

typedef struct clk clk_t;

/* A clock for this spec, stopped, both sides full. NULL on a bad spec or no memory. */
clk_t *clk_create(const clk_spec_t *spec);
/* Free the clock. Does nothing if NULL. */
void clk_destroy(clk_t *c);
const clk_spec_t *clk_get_spec(const clk_t *c);

/* Start side's clock at time t (the game begins). CLK_ESTATE if already started. */
int clk_start(clk_t *c, go_color_t side, int64_t t);
/* side made a move (or passed) at time t (when the hand left the board): its clock stops,
 * its period/increment rules apply, the opponent's starts at t. t earlier than the
 * start of the turn counts as the start. CLK_ETURN if side's clock was not the running one,
 * CLK_EOVER if its flag fell at or before t (the move is then not counted). */
int clk_move(clk_t *c, go_color_t side, int64_t t);
/* A pass: for the clock, the same as a move. */
int clk_pass(clk_t *c, go_color_t side, int64_t t);
/* The arbiter stops the clock (a warning being resolved, a break) / starts it again. */
int clk_pause(clk_t *c, int64_t t);
int clk_resume(clk_t *c, int64_t t);
/* The arbiter adds delta_ms (may be negative) to side's time at t: to the main time, or,
 * in overtime, to the current period. Never below zero; a clock adjusted to zero falls
 * at the next update. */
int clk_adjust(clk_t *c, go_color_t side, int64_t delta_ms, int64_t t);
/* The arbiter sets side's time at t: main time, periods (byoyomi/chinese) or moves left
 * (canadian), and the time left in the current period (0: a full period). */
int clk_set(clk_t *c, go_color_t side, int64_t main_ms, int periods_or_moves,
            int64_t period_ms, int64_t t);
/* Stop for good (the game ended otherwise); later calls return CLK_EOVER. */
int clk_stop(clk_t *c, int64_t t);

/* Advance to now: queue the calls due up to now; a flag falling ends the game. Returns
 * CLK_OK, or CLK_EOVER once a flag has fallen (including by this call). */
int clk_update(clk_t *c, int64_t now);
/* Pop the oldest queued call into *ev. Returns true if there was one. The queue holds the
 * last 256 calls; older ones are dropped if nobody reads them (clk_dropped counts them). */
bool clk_next_event(clk_t *c, clk_event_t *ev);
int clk_dropped(const clk_t *c);

/* A side's clock as of now (nothing changes). */
int clk_view(const clk_t *c, go_color_t side, int64_t now, clk_view_t *out);
/* Whose clock runs (GO_EMPTY, nobody: before the start, after a loss or stop); paused or not. */
go_color_t clk_running(const clk_t *c);
bool clk_paused(const clk_t *c);
/* Who lost on time, or GO_EMPTY (nobody); and when (the flag-fall time). */
go_color_t clk_loser(const clk_t *c, int64_t *t_ms);

/* The SGF RE[] value after a loss on time ("W+T" when Black lost, "B+T" when White
 * lost), or NULL while no flag has fallen. Static storage. */
const char *clk_sgf_result(const clk_t *c);
/* SGF: TM[] (main time in seconds) and OT[] (overtime text) for the game header;
 * buffers of len bytes, NUL-terminated. */
int clk_sgf_header(const clk_t *c, char *tm, size_t tmlen, char *ot, size_t otlen);
/* SGF values for the move side just made (call right after clk_move): BL/WL = time left
 * in seconds (main time, or in overtime the period's time), OB/OW = periods left
 * (byoyomi/chinese) or moves left (canadian), -1 when there is no OB/OW to write. */
int clk_sgf_move(const clk_t *c, go_color_t side, double *left_s, int *ob);

#endif
