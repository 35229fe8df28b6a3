/* clk.c: the game clock (see clk.h for the spec syntax and the calls).
 *
 * Model: each side has a committed state (main time, time left in the current period,
 * periods or moves left). The running side's clock is that state plus the time elapsed
 * since seg_start; consuming time is a pure function (clk_consume) with
 * consume(consume(s, a), b) == consume(s, a + b), so pausing or adjusting mid-turn just
 * commits the time used so far and starts a new segment. The side's flag falls after
 * clk_avail(s) of running time. The calls of a segment are a fixed timeline computed
 * from its committed state; clk_update emits those due in (last_run, now - seg_start].
 *
 * Invariants: at most one side runs; a side's committed state always has time available
 * (avail > 0) unless it lost; events are queued in time order.
 */
#include "clock/clk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLK_QCAP 256

typedef struct clk_state {
    int64_t main;      /* main time left */
    int64_t period;    /* time left in the current period (byoyomi/chinese/canadian) */
    int periods;       /* byoyomi/chinese: periods left, current included */
    int moves;         /* canadian: moves left in the period */
} clk_state_t;

struct clk {
    clk_spec_t spec;
    clk_state_t s[3];
    go_color_t turn;       /* whose clock runs (or would, when paused) */
    bool started, paused, over;
    int64_t seg_start;     /* wall time the running segment began */
    int64_t last_run;      /* running time of the segment already scanned for calls */
    go_color_t loser;
    int64_t loss_t;
    clk_event_t q[CLK_QCAP];
    int qhead, qlen, dropped;
};

const char *clk_strerror(int code)
{
    switch (code) {
    case CLK_OK: return "success";
    case CLK_EINVAL: return "invalid argument";
    case CLK_EPARSE: return "malformed time control";
    case CLK_ETURN: return "that side's clock is not running";
    case CLK_EOVER: return "the clock has stopped (loss on time or game over)";
    case CLK_ESTATE: return "the clock is not in the right state for that";
    case CLK_ENOMEM: return "out of memory";
    default: return "unknown error";
    }
}

/* ---- spec ---- */

static void clk_err(char *err, size_t errlen, const char *msg, const char *at)
{
    if (err && errlen)
        snprintf(err, errlen, "%s%s%s", msg, at ? ": " : "", at ? at : "");
}

/* Parse a duration from s[0..n): chained "<digits><unit>" groups; bare digits = seconds. */
static int clk_parse_dur(const char *s, size_t n, int64_t *out)
{
    int64_t total = 0;
    size_t i = 0;
    if (n == 0)
        return CLK_EPARSE;
    while (i < n) {
        if (s[i] < '0' || s[i] > '9')
            return CLK_EPARSE;
        int64_t v = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            v = v * 10 + (s[i] - '0');
            if (v > 100000000)
                return CLK_EPARSE; /* far beyond any game */
            i++;
        }
        int64_t unit;
        if (i == n) {
            unit = 1000;
        } else if (i + 1 < n && s[i] == 'm' && s[i + 1] == 's') {
            unit = 1;
            i += 2;
        } else if (s[i] == 'h') {
            unit = 3600000;
            i++;
        } else if (s[i] == 'm') {
            unit = 60000;
            i++;
        } else if (s[i] == 's') {
            unit = 1000;
            i++;
        } else {
            return CLK_EPARSE;
        }
        total += v * unit;
        if (total > (int64_t)1000 * 3600000)
            return CLK_EPARSE; /* over 1000 hours */
    }
    *out = total;
    return CLK_OK;
}

static int clk_parse_int(const char *s, size_t n, int *out)
{
    if (n == 0 || n > 6)
        return CLK_EPARSE;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return CLK_EPARSE;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return CLK_OK;
}

int clk_spec_parse(const char *text, clk_spec_t *out, char *err, size_t errlen)
{
    if (!text || !out) {
        clk_err(err, errlen, "no time control given", NULL);
        return CLK_EINVAL;
    }
    clk_spec_t sp = { CLK_ABSOLUTE, 0, 0, 0, 0 };
    bool have_main = false, have_ot = false;
    const char *s = text;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        char item[64];
        if (n == 0 || n >= sizeof item) {
            clk_err(err, errlen, n ? "item too long" : "empty item", NULL);
            return CLK_EPARSE;
        }
        memcpy(item, s, n);
        item[n] = '\0';
        char *eq = strchr(item, '=');
        if (!eq) {
            clk_err(err, errlen, "expected key=value", item);
            return CLK_EPARSE;
        }
        *eq = '\0';
        const char *key = item, *val = eq + 1;
        size_t vn = strlen(val);
        if (!strcmp(key, "main")) {
            if (have_main || clk_parse_dur(val, vn, &sp.main_ms)) {
                clk_err(err, errlen, have_main ? "main given twice" : "bad duration", val);
                return CLK_EPARSE;
            }
            have_main = true;
        } else if (!strcmp(key, "byoyomi") || !strcmp(key, "chinese") ||
                   !strcmp(key, "canadian") || !strcmp(key, "fischer")) {
            if (have_ot) {
                clk_err(err, errlen, "more than one overtime system", key);
                return CLK_EPARSE;
            }
            have_ot = true;
            if (!strcmp(key, "fischer")) {
                sp.system = CLK_FISCHER;
                if (clk_parse_dur(val, vn, &sp.increment_ms) || sp.increment_ms <= 0) {
                    clk_err(err, errlen, "fischer wants an increment like 10s", val);
                    return CLK_EPARSE;
                }
            } else if (!strcmp(key, "canadian")) {
                sp.system = CLK_CANADIAN;
                const char *sl = strchr(val, '/');
                if (!sl || clk_parse_int(val, (size_t)(sl - val), &sp.periods) ||
                    clk_parse_dur(sl + 1, strlen(sl + 1), &sp.period_ms) || sp.periods <= 0 ||
                    sp.period_ms <= 0) {
                    clk_err(err, errlen, "canadian wants MOVES/DURATION like 25/10m", val);
                    return CLK_EPARSE;
                }
            } else {
                bool chinese = !strcmp(key, "chinese");
                sp.system = chinese ? CLK_CHINESE : CLK_BYOYOMI;
                const char *x = strchr(val, 'x');
                int rc;
                if (x) {
                    rc = clk_parse_int(val, (size_t)(x - val), &sp.periods);
                    if (!rc)
                        rc = clk_parse_dur(x + 1, strlen(x + 1), &sp.period_ms);
                } else if (chinese) {
                    rc = clk_parse_int(val, vn, &sp.periods);
                    sp.period_ms = 60000;
                } else {
                    rc = CLK_EPARSE;
                }
                if (rc || sp.periods <= 0 || sp.period_ms < 1000) {
                    clk_err(err, errlen,
                            chinese ? "chinese wants N (one-minute periods) or NxDURATION"
                                    : "byoyomi wants NxDURATION like 5x60s",
                            val);
                    return CLK_EPARSE;
                }
            }
        } else {
            clk_err(err, errlen, "unknown key", key);
            return CLK_EPARSE;
        }
        s += n;
        if (*s == ',' && !*++s) {
            clk_err(err, errlen, "empty item", NULL);
            return CLK_EPARSE;
        }
    }
    if (!have_main && !have_ot) {
        clk_err(err, errlen, "empty time control", NULL);
        return CLK_EPARSE;
    }
    if (sp.main_ms <= 0 && (sp.system == CLK_ABSOLUTE || sp.system == CLK_FISCHER)) {
        clk_err(err, errlen, "no time at all: main must be more than 0", NULL);
        return CLK_EPARSE;
    }
    *out = sp;
    return CLK_OK;
}

/* Append a duration in the largest exact unit. */
static int clk_fmt_dur(char *buf, size_t len, int64_t ms)
{
    if (ms % 3600000 == 0 && ms)
        return snprintf(buf, len, "%lldh", (long long)(ms / 3600000));
    if (ms % 60000 == 0 && ms)
        return snprintf(buf, len, "%lldm", (long long)(ms / 60000));
    if (ms % 1000 == 0)
        return snprintf(buf, len, "%llds", (long long)(ms / 1000));
    return snprintf(buf, len, "%lldms", (long long)ms);
}

int clk_spec_format(const clk_spec_t *sp, char *buf, size_t len)
{
    if (!sp || !buf || len == 0)
        return CLK_EINVAL;
    char m[32], p[32];
    clk_fmt_dur(m, sizeof m, sp->main_ms);
    clk_fmt_dur(p, sizeof p, sp->system == CLK_FISCHER ? sp->increment_ms : sp->period_ms);
    int n;
    switch (sp->system) {
    case CLK_BYOYOMI: n = snprintf(buf, len, "main=%s,byoyomi=%dx%s", m, sp->periods, p); break;
    case CLK_CHINESE:
        if (sp->period_ms == 60000)
            n = snprintf(buf, len, "main=%s,chinese=%d", m, sp->periods);
        else
            n = snprintf(buf, len, "main=%s,chinese=%dx%s", m, sp->periods, p);
        break;
    case CLK_CANADIAN: n = snprintf(buf, len, "main=%s,canadian=%d/%s", m, sp->periods, p); break;
    case CLK_FISCHER: n = snprintf(buf, len, "main=%s,fischer=%s", m, p); break;
    default: n = snprintf(buf, len, "main=%s", m); break;
    }
    return n < 0 || (size_t)n >= len ? CLK_EINVAL : CLK_OK;
}

/* ---- time arithmetic ---- */

static bool clk_has_periods(const clk_spec_t *sp)
{
    return sp->system == CLK_BYOYOMI || sp->system == CLK_CHINESE;
}

/* Running time until the flag falls. */
static int64_t clk_avail(const clk_spec_t *sp, const clk_state_t *st)
{
    switch (sp->system) {
    case CLK_BYOYOMI:
    case CLK_CHINESE:
        if (st->periods <= 0)
            return st->main;
        return st->main + st->period + (int64_t)(st->periods - 1) * sp->period_ms;
    case CLK_CANADIAN: return st->main + st->period;
    default: return st->main;
    }
}

/* Use e ms of running time (e < clk_avail). */
static void clk_consume(const clk_spec_t *sp, clk_state_t *st, int64_t e)
{
    if (e <= 0)
        return;
    if (e < st->main) {
        st->main -= e;
        return;
    }
    e -= st->main;
    st->main = 0;
    if (sp->system == CLK_CANADIAN) {
        st->period -= e;
    } else if (clk_has_periods(sp)) {
        if (e < st->period) {
            st->period -= e;
            return;
        }
        e -= st->period;
        st->periods--;
        st->periods -= (int)(e / sp->period_ms);
        st->period = sp->period_ms - e % sp->period_ms;
    }
}

/* The rules that apply when a move ends the turn. */
static void clk_end_move(const clk_spec_t *sp, clk_state_t *st)
{
    switch (sp->system) {
    case CLK_BYOYOMI:
    case CLK_CHINESE:
        if (st->main == 0)
            st->period = sp->period_ms;
        break;
    case CLK_CANADIAN:
        if (st->main == 0 && --st->moves <= 0) {
            st->moves = sp->periods;
            st->period = sp->period_ms;
        }
        break;
    case CLK_FISCHER: st->main += sp->increment_ms; break;
    default: break;
    }
}

static clk_state_t clk_full(const clk_spec_t *sp)
{
    clk_state_t st = { sp->main_ms, 0, 0, 0 };
    if (clk_has_periods(sp)) {
        st.periods = sp->periods;
        st.period = sp->period_ms;
    } else if (sp->system == CLK_CANADIAN) {
        st.moves = sp->periods;
        st.period = sp->period_ms;
    }
    return st;
}

/* ---- create ---- */

clk_t *clk_create(const clk_spec_t *spec)
{
    if (!spec || spec->main_ms < 0 ||
        (spec->system != CLK_ABSOLUTE && spec->system != CLK_FISCHER &&
         (spec->periods <= 0 || spec->period_ms <= 0)) ||
        (spec->system == CLK_FISCHER && spec->increment_ms < 0) ||
        (int)spec->system < 0 || spec->system > CLK_FISCHER)
        return NULL;
    clk_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->spec = *spec;
    c->s[GO_BLACK] = clk_full(spec);
    c->s[GO_WHITE] = clk_full(spec);
    c->turn = GO_EMPTY;
    c->loser = GO_EMPTY;
    return c;
}

void clk_destroy(clk_t *c)
{
    free(c);
}

const clk_spec_t *clk_get_spec(const clk_t *c)
{
    return &c->spec;
}

/* ---- events ---- */

static void clk_push(clk_t *c, int64_t t, go_color_t side, clk_event_kind_t kind, int value,
                     const char *zh, const char *en)
{
    if (c->qlen == CLK_QCAP) {
        c->qhead = (c->qhead + 1) % CLK_QCAP;
        c->qlen--;
        c->dropped++;
    }
    clk_event_t *ev = &c->q[(c->qhead + c->qlen++) % CLK_QCAP];
    ev->t_ms = t;
    ev->side = side;
    ev->kind = kind;
    ev->value = value;
    snprintf(ev->zh, sizeof ev->zh, "%s", zh);
    snprintf(ev->en, sizeof ev->en, "%s", en);
}

static const char *const clk_zh_digit[11] = { "零", "一", "二", "三", "四", "五",
                                             "六", "七", "八", "九", "十" };

/* Emission window of a segment: calls at running time r with a < r <= b. */
typedef struct clk_win {
    clk_t *c;
    go_color_t side;
    int64_t a, b, origin;
    bool lost;
} clk_win_t;

static bool clk_in(const clk_win_t *w, int64_t r)
{
    return r > w->a && r <= w->b;
}

static void clk_emit(clk_win_t *w, int64_t r, clk_event_kind_t kind, int value, const char *zh,
                     const char *en)
{
    if (w->lost || !clk_in(w, r))
        return;
    clk_push(w->c, w->origin + r, w->side, kind, value, zh, en);
    if (kind == CLK_EV_LOSS) {
        w->lost = true;
        w->c->loser = w->side;
        w->c->loss_t = w->origin + r;
        w->c->over = true;
    }
}

/* The calls of one byo-yomi period whose elapsed time 0 is at running time ps; only those
 * after `used` ms of the period (already spent before this segment) are due. */
static void clk_period_calls(clk_win_t *w, int64_t ps, int64_t used, bool last, int left_after)
{
    const clk_spec_t *sp = &w->c->spec;
    int64_t S = sp->period_ms;
    char zh[48], en[48];
    bool chinese = sp->system == CLK_CHINESE;
    /* seconds calls: S-30, S-20, S-10 (Chinese non-last periods also S-5, S-2) */
    static const int before_ch[5] = { 30, 20, 10, 5, 2 };
    int ncalls = chinese && !last ? 5 : 3;
    for (int i = 0; i < ncalls; i++) {
        int64_t e = S - before_ch[i] * 1000;
        if (e <= 0 || e <= used)
            continue;
        int secs = (int)(e / 1000);
        snprintf(zh, sizeof zh, "%d秒", secs);
        snprintf(en, sizeof en, "%d seconds", secs);
        clk_emit(w, ps + e, CLK_EV_SECONDS, secs, zh, en);
    }
    /* counted aloud: the last period (Chinese), every period (Japanese) */
    if (last || !chinese) {
        for (int k = 1; k <= 9; k++) {
            int64_t e = S - (10 - k) * 1000;
            if (e <= 0 || e <= used)
                continue;
            snprintf(en, sizeof en, "%d", k);
            clk_emit(w, ps + e, CLK_EV_COUNT, k, clk_zh_digit[k], en);
        }
    }
    if (S <= used)
        return;
    if (last) {
        clk_emit(w, ps + S, CLK_EV_LOSS, 10, "十，超时判负", "10: loss on time");
        return;
    }
    if (chinese) {
        if (S == 60000) {
            clk_emit(w, ps + S, CLK_EV_SECONDS, 60, "1分钟", "one minute");
            snprintf(zh, sizeof zh, "还剩%d分钟", left_after);
            snprintf(en, sizeof en, "%d minute%s left", left_after, left_after == 1 ? "" : "s");
        } else {
            int secs = (int)(S / 1000);
            snprintf(zh, sizeof zh, "%d秒", secs);
            snprintf(en, sizeof en, "%d seconds", secs);
            clk_emit(w, ps + S, CLK_EV_SECONDS, secs, zh, en);
            snprintf(zh, sizeof zh, "还剩%d次读秒", left_after);
            snprintf(en, sizeof en, "%d period%s left", left_after, left_after == 1 ? "" : "s");
        }
    } else if (left_after == 1) {
        snprintf(zh, sizeof zh, "最后一次读秒");
        snprintf(en, sizeof en, "last period");
    } else {
        snprintf(zh, sizeof zh, "还剩%d次读秒", left_after);
        snprintf(en, sizeof en, "%d periods left", left_after);
    }
    clk_emit(w, ps + S, CLK_EV_PERIOD_USED, left_after, zh, en);
}

/* Emit the calls of the running segment due in (a, b]. */
static void clk_scan(clk_t *c, int64_t a, int64_t b)
{
    const clk_spec_t *sp = &c->spec;
    const clk_state_t *st = &c->s[c->turn];
    clk_win_t w = { c, c->turn, a, b, c->seg_start, false };
    char zh[48], en[48];
    int64_t avail = clk_avail(sp, st);
    if (b < a)
        return;
    if (sp->system == CLK_ABSOLUTE || sp->system == CLK_FISCHER) {
        clk_emit(&w, avail, CLK_EV_LOSS, 0, "超时判负", "loss on time");
        return;
    }
    if (clk_has_periods(sp) && st->periods <= 0) {
        /* the arbiter left no periods: the main time is all there is */
        clk_emit(&w, avail, CLK_EV_LOSS, 0, "超时判负", "loss on time");
        return;
    }
    if (st->main > 0) {
        if (clk_has_periods(sp)) {
            snprintf(zh, sizeof zh, "读秒开始，%d次", st->periods);
            snprintf(en, sizeof en, "byo-yomi begins: %d period%s", st->periods,
                     st->periods == 1 ? "" : "s");
        } else {
            snprintf(zh, sizeof zh, "读秒开始，%d步", st->moves);
            snprintf(en, sizeof en, "overtime: %d moves", st->moves);
        }
        clk_emit(&w, st->main, CLK_EV_OVERTIME, clk_has_periods(sp) ? st->periods : st->moves,
                 zh, en);
    }
    if (sp->system == CLK_CANADIAN) {
        clk_emit(&w, avail, CLK_EV_LOSS, 0, "超时判负", "loss on time");
        return;
    }
    int64_t S = sp->period_ms;
    int64_t used = S - st->period;
    int64_t ps = st->main - used;
    for (int k = 0; k < st->periods && !w.lost; k++) {
        if (ps + used > b)
            break;
        clk_period_calls(&w, ps, used, k == st->periods - 1, st->periods - k - 1);
        ps += S;
        used = 0;
    }
}

int clk_update(clk_t *c, int64_t now)
{
    if (!c)
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (!c->started || c->paused)
        return CLK_OK;
    int64_t run = now - c->seg_start;
    if (run > c->last_run) {
        clk_scan(c, c->last_run, run);
        c->last_run = run;
    }
    return c->over ? CLK_EOVER : CLK_OK;
}

bool clk_next_event(clk_t *c, clk_event_t *ev)
{
    if (!c || !c->qlen)
        return false;
    if (ev)
        *ev = c->q[c->qhead];
    c->qhead = (c->qhead + 1) % CLK_QCAP;
    c->qlen--;
    return true;
}

int clk_dropped(const clk_t *c)
{
    return c ? c->dropped : 0;
}

/* ---- driving ---- */

static bool clk_side_ok(go_color_t s)
{
    return s == GO_BLACK || s == GO_WHITE;
}

int clk_start(clk_t *c, go_color_t side, int64_t t)
{
    if (!c || !clk_side_ok(side))
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (c->started)
        return CLK_ESTATE;
    c->started = true;
    c->turn = side;
    c->seg_start = t;
    c->last_run = 0;
    return CLK_OK;
}

/* Commit the running side's time used up to t and start a new segment at t. */
static void clk_commit(clk_t *c, int64_t t)
{
    if (!c->started || c->paused || c->over)
        return;
    int64_t e = t - c->seg_start;
    if (e > 0)
        clk_consume(&c->spec, &c->s[c->turn], e);
    c->seg_start = t > c->seg_start ? t : c->seg_start;
    c->last_run = 0;
}

/* Drop queued calls of side due after t (a move made before them makes them void). */
static void clk_unqueue_after(clk_t *c, go_color_t side, int64_t t)
{
    int n = 0;
    for (int i = 0; i < c->qlen; i++) {
        clk_event_t ev = c->q[(c->qhead + i) % CLK_QCAP];
        if (ev.side == side && ev.t_ms > t)
            continue;
        c->q[(c->qhead + n++) % CLK_QCAP] = ev;
    }
    c->qlen = n;
}

int clk_move(clk_t *c, go_color_t side, int64_t t)
{
    if (!c || !clk_side_ok(side))
        return CLK_EINVAL;
    if (!c->started)
        return CLK_ESTATE;
    /* a move corrected back to before a flag that was seen to fall: the move counts */
    if (c->over && c->loser == side && c->turn == side && t < c->loss_t) {
        c->over = false;
        c->loser = GO_EMPTY;
    }
    if (c->over)
        return CLK_EOVER;
    if (side != c->turn)
        return CLK_ETURN;
    if (!c->paused) {
        if (t < c->seg_start)
            t = c->seg_start;
        if (clk_update(c, t) == CLK_EOVER)
            return CLK_EOVER;
        clk_unqueue_after(c, side, t);
        clk_consume(&c->spec, &c->s[side], t - c->seg_start);
    }
    clk_end_move(&c->spec, &c->s[side]);
    c->turn = side == GO_BLACK ? GO_WHITE : GO_BLACK;
    if (!c->paused)
        c->seg_start = t;
    c->last_run = 0;
    return CLK_OK;
}

int clk_pass(clk_t *c, go_color_t side, int64_t t)
{
    return clk_move(c, side, t);
}

int clk_pause(clk_t *c, int64_t t)
{
    if (!c)
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (!c->started || c->paused)
        return CLK_ESTATE;
    if (t < c->seg_start)
        t = c->seg_start;
    if (clk_update(c, t) == CLK_EOVER)
        return CLK_EOVER;
    clk_commit(c, t);
    c->paused = true;
    return CLK_OK;
}

int clk_resume(clk_t *c, int64_t t)
{
    if (!c)
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (!c->started || !c->paused)
        return CLK_ESTATE;
    c->paused = false;
    c->seg_start = t;
    c->last_run = 0;
    return CLK_OK;
}

/* After an arbiter's change: a spent current period passes to the next; no time: loss. */
static void clk_normalize(clk_t *c, go_color_t side, int64_t t)
{
    clk_state_t *st = &c->s[side];
    if (st->main < 0)
        st->main = 0;
    if (clk_has_periods(&c->spec) && st->main == 0 && st->period <= 0 && st->periods > 0) {
        st->periods--;
        st->period = c->spec.period_ms;
    }
    if (clk_avail(&c->spec, st) <= 0 && !c->over) {
        clk_push(c, t, side, CLK_EV_LOSS, 0, "超时判负", "loss on time");
        c->loser = side;
        c->loss_t = t;
        c->over = true;
    }
}

static int clk_arbiter_begin(clk_t *c, go_color_t side, int64_t t)
{
    if (!c || !clk_side_ok(side))
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (c->started && !c->paused && side == c->turn) {
        if (t < c->seg_start)
            t = c->seg_start;
        if (clk_update(c, t) == CLK_EOVER)
            return CLK_EOVER;
        clk_commit(c, t);
    }
    return CLK_OK;
}

int clk_adjust(clk_t *c, go_color_t side, int64_t delta_ms, int64_t t)
{
    int rc = clk_arbiter_begin(c, side, t);
    if (rc)
        return rc;
    clk_state_t *st = &c->s[side];
    bool overtime = c->spec.system != CLK_ABSOLUTE && c->spec.system != CLK_FISCHER &&
                    st->main == 0;
    if (overtime) {
        st->period += delta_ms;
        if (st->period < 0)
            st->period = 0;
    } else {
        st->main += delta_ms;
    }
    clk_normalize(c, side, t);
    return CLK_OK;
}

int clk_set(clk_t *c, go_color_t side, int64_t main_ms, int periods_or_moves,
            int64_t period_ms, int64_t t)
{
    if (!c || main_ms < 0 || periods_or_moves < 0 || period_ms < 0)
        return CLK_EINVAL;
    int rc = clk_arbiter_begin(c, side, t);
    if (rc)
        return rc;
    clk_state_t *st = &c->s[side];
    st->main = main_ms;
    if (clk_has_periods(&c->spec)) {
        st->periods = periods_or_moves;
        st->period = period_ms ? period_ms : c->spec.period_ms;
    } else if (c->spec.system == CLK_CANADIAN) {
        st->moves = periods_or_moves > 0 ? periods_or_moves : c->spec.periods;
        st->period = period_ms ? period_ms : c->spec.period_ms;
    }
    clk_normalize(c, side, t);
    return CLK_OK;
}

int clk_stop(clk_t *c, int64_t t)
{
    if (!c)
        return CLK_EINVAL;
    if (c->over)
        return CLK_EOVER;
    if (c->started && !c->paused) {
        if (t < c->seg_start)
            t = c->seg_start;
        if (clk_update(c, t) == CLK_EOVER)
            return CLK_OK; /* the flag fell first: that result stands */
        clk_commit(c, t);
    }
    c->over = true;
    return CLK_OK;
}

/* ---- views ---- */

go_color_t clk_running(const clk_t *c)
{
    return c && c->started && !c->over ? c->turn : GO_EMPTY;
}

bool clk_paused(const clk_t *c)
{
    return c && c->paused;
}

go_color_t clk_loser(const clk_t *c, int64_t *t_ms)
{
    if (!c)
        return GO_EMPTY;
    if (t_ms && c->loser != GO_EMPTY)
        *t_ms = c->loss_t;
    return c->loser;
}

int clk_view(const clk_t *c, go_color_t side, int64_t now, clk_view_t *out)
{
    if (!c || !clk_side_ok(side) || !out)
        return CLK_EINVAL;
    clk_state_t st = c->s[side];
    bool running = c->started && !c->paused && !c->over && side == c->turn;
    bool lost = c->loser == side;
    if (running && now > c->seg_start) {
        int64_t e = now - c->seg_start;
        if (e >= clk_avail(&c->spec, &st)) {
            lost = true;
            st.main = 0;
            st.period = 0;
            st.periods = 0;
        } else {
            clk_consume(&c->spec, &st, e);
        }
    }
    if (lost && c->loser == side) {
        st.main = 0;
        st.period = 0;
        st.periods = 0;
    }
    out->main_ms = st.main;
    out->period_ms = c->spec.system == CLK_ABSOLUTE || c->spec.system == CLK_FISCHER ? 0 : st.period;
    out->periods = st.periods;
    out->moves_left = st.moves;
    out->in_overtime = c->spec.system != CLK_ABSOLUTE && c->spec.system != CLK_FISCHER &&
                       st.main == 0;
    out->running = running && !lost;
    out->lost = lost;
    return CLK_OK;
}

/* ---- SGF ---- */

static void clk_fmt_secs(char *buf, size_t len, int64_t ms)
{
    if (ms % 1000 == 0)
        snprintf(buf, len, "%lld", (long long)(ms / 1000));
    else
        snprintf(buf, len, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
}

int clk_sgf_header(const clk_t *c, char *tm, size_t tmlen, char *ot, size_t otlen)
{
    if (!c || !tm || !ot || tmlen < 24 || otlen < 48)
        return CLK_EINVAL;
    const clk_spec_t *sp = &c->spec;
    char p[32];
    clk_fmt_secs(tm, tmlen, sp->main_ms);
    clk_fmt_secs(p, sizeof p, sp->system == CLK_FISCHER ? sp->increment_ms : sp->period_ms);
    switch (sp->system) {
    case CLK_BYOYOMI: snprintf(ot, otlen, "%dx%s byo-yomi", sp->periods, p); break;
    case CLK_CHINESE: snprintf(ot, otlen, "%dx%s byo-yomi (Chinese)", sp->periods, p); break;
    case CLK_CANADIAN: snprintf(ot, otlen, "%d/%s Canadian", sp->periods, p); break;
    case CLK_FISCHER: snprintf(ot, otlen, "Fischer %s", p); break;
    default: ot[0] = '\0'; break;
    }
    return CLK_OK;
}

int clk_sgf_move(const clk_t *c, go_color_t side, double *left_s, int *ob)
{
    if (!c || !clk_side_ok(side) || !left_s || !ob)
        return CLK_EINVAL;
    const clk_state_t *st = &c->s[side];
    const clk_spec_t *sp = &c->spec;
    bool overtime = sp->system != CLK_ABSOLUTE && sp->system != CLK_FISCHER && st->main == 0;
    *left_s = (double)(overtime ? st->period : st->main) / 1000.0;
    if (!overtime)
        *ob = -1;
    else
        *ob = sp->system == CLK_CANADIAN ? st->moves : st->periods;
    return CLK_OK;
}

const char *clk_sgf_result(const clk_t *c)
{
    if (!c || c->loser == GO_EMPTY)
        return NULL;
    return c->loser == GO_BLACK ? "W+T" : "B+T";
}
