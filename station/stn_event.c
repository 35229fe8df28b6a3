/* stn_event.c: the station's event list (a growable array), the kinds' names and their
 * audience (viewer or arbiter: one table, here).
 * Invariant: 0 <= n <= cap; v is NULL exactly when cap is 0. */
#include "station/stn_event.h"

#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void stn_events_init(stn_events_t *l)
{
    l->v = NULL;
    l->n = l->cap = 0;
}

void stn_events_fini(stn_events_t *l)
{
    if (!l)
        return;
    free(l->v);
    stn_events_init(l);
}

void stn_events_clear(stn_events_t *l)
{
    l->n = 0;
}

int stn_events_push(stn_events_t *l, const stn_event_t *e)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        stn_event_t *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return GO_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *e;
    return GO_OK;
}

int stn_events_reserve(stn_events_t *l, int more)
{
    if (more <= l->cap - l->n)
        return GO_OK;
    int cap = l->cap ? l->cap : 16;
    while (cap - l->n < more)
        cap *= 2;
    stn_event_t *v = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v)
        return GO_ENOMEM;
    l->v = v;
    l->cap = cap;
    return GO_OK;
}

int stn_events_count(const stn_events_t *l, stn_event_kind_t kind)
{
    int k = 0;
    for (int i = 0; i < l->n; i++)
        k += l->v[i].kind == kind;
    return k;
}

const stn_event_t *stn_events_find(const stn_events_t *l, stn_event_kind_t kind)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i].kind == kind)
            return &l->v[i];
    return NULL;
}

const char *stn_event_kind_name(stn_event_kind_t kind)
{
    static const char *const names[STN_EV_KIND_COUNT] = {
        "move", "pass", "resign", "end", "takeback", "wrong_colour", "ambiguous", "void",
        "two_in_a_row", "moved", "restore", "agrees", "warning", "loss", "cycle",
        "unexplained", "board_lost", "record_error", "record_ok", "count", "result",
        "clock", "handicap", "signal", "end_awaited"
    };
    if ((int)kind < 0 || kind >= STN_EV_KIND_COUNT)
        return "unknown";
    return names[kind];
}

const char *stn_event_audience(stn_event_kind_t kind)
{
    static const bool arbiter[STN_EV_KIND_COUNT] = {
        [STN_EV_WRONG_COLOUR] = true, [STN_EV_AMBIGUOUS] = true, [STN_EV_VOID] = true,
        [STN_EV_TWO_IN_A_ROW] = true, [STN_EV_MOVED] = true, [STN_EV_RESTORE] = true,
        [STN_EV_AGREES] = true, [STN_EV_CYCLE] = true, [STN_EV_UNEXPLAINED] = true,
        [STN_EV_BOARD_LOST] = true, [STN_EV_RECORD_ERROR] = true, [STN_EV_RECORD_OK] = true,
        [STN_EV_SIGNAL] = true,
    };
    if ((int)kind < 0 || kind >= STN_EV_KIND_COUNT || arbiter[kind])
        return "arbiter";
    return "viewer";
}

/* Append to buf[0..len) at *pos, keeping count of the full length. */
static void ev_put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void ev_put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = *pos < len ? len - *pos : 0;
    int n = vsnprintf(room ? buf + *pos : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos += (size_t)n;
}

/* A JSON string's body: quotes and backslashes escaped, control characters as \\uXXXX,
 * UTF-8 bytes as they are. */
static void ev_text(char *buf, size_t len, size_t *pos, const char *text)
{
    for (const char *c = text; *c; c++) {
        unsigned char u = (unsigned char)*c;
        if (u == '"' || u == '\\')
            ev_put(buf, len, pos, "\\%c", u);
        else if (u < 0x20)
            ev_put(buf, len, pos, "\\u%04x", u);
        else
            ev_put(buf, len, pos, "%c", u);
    }
}

int stn_event_json(const stn_event_t *e, char *buf, size_t len)
{
    size_t pos = 0;
    if (len)
        buf[0] = '\0';
    ev_put(buf, len, &pos, "{\"event\":\"%s\",\"n\":%d", stn_event_kind_name(e->kind), e->move);
    if (e->color == GO_BLACK || e->color == GO_WHITE)
        ev_put(buf, len, &pos, ",\"color\":\"%c\"", e->color == GO_BLACK ? 'B' : 'W');
    if (e->npoints > 0) {
        char p[3];
        go_point_to_sgf(e->points[0], p);
        ev_put(buf, len, &pos, ",\"point\":\"%s\"", p);
    }
    ev_put(buf, len, &pos, ",\"t\":%.3f,\"frame\":%llu,\"latency\":%.3f", e->t,
           (unsigned long long)e->frame, e->t - e->t_hand);
    if (e->npoints > 1) {
        ev_put(buf, len, &pos, ",\"points\":[");
        for (int i = 0; i < e->npoints; i++) {
            char p[3];
            go_point_to_sgf(e->points[i], p);
            ev_put(buf, len, &pos, "%s\"%s\"", i ? "," : "", p);
        }
        ev_put(buf, len, &pos, "]");
    }
    ev_put(buf, len, &pos, ",\"audience\":\"%s\"", stn_event_audience(e->kind));
    ev_put(buf, len, &pos, ",\"msg\":\"");
    ev_text(buf, len, &pos, e->msg);
    ev_put(buf, len, &pos, "\"");
    if (e->zh[0]) {
        ev_put(buf, len, &pos, ",\"zh\":\"");
        ev_text(buf, len, &pos, e->zh);
        ev_put(buf, len, &pos, "\"");
    }
    ev_put(buf, len, &pos, "}");
    return (int)pos;
}
