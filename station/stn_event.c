/* stn_event.c: the station's event list (a growable array) and the kinds' names.
 * Invariant: 0 <= n <= cap; v is NULL exactly when cap is 0. */
#include "station/stn_event.h"

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
        "unexplained", "board_lost", "record_error", "record_ok", "count", "result"
    };
    if ((int)kind < 0 || kind >= STN_EV_KIND_COUNT)
        return "unknown";
    return names[kind];
}
