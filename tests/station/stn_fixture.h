/* stn_fixture.h: the tracker fixture shared by the station's tests (header only):
 * a game from a diagram, a tracker on it, and views fed one at a time with the game's
 * consistency checked after each. Include after <cmocka.h> and stn_testutil.h. */
#ifndef KIFUCAM_STN_FIXTURE_H
#define KIFUCAM_STN_FIXTURE_H

#include <stdlib.h>

#include "station/stn_track.h"

typedef struct fx {
    go_game_t *g;
    stn_track_t *k;
    stn_events_t ev;
    uint64_t frame;
} fx_t;

static inline void fx_open(fx_t *f, const char *rules, const char *d, go_color_t turn,
                           const stn_track_config_t *cfg)
{
    f->g = st_game(rules, d, turn);
    f->k = stn_track_create(f->g, cfg);
    assert_non_null(f->k);
    stn_events_init(&f->ev);
    f->frame = 0;
}

static inline void fx_close(fx_t *f)
{
    stn_track_destroy(f->k);
    go_game_destroy(f->g);
    stn_events_fini(&f->ev);
}

/* Print the events of the last view (STN_VERBOSE=1 does it after every view). */
static inline void fx_dump(const fx_t *f)
{
    for (int i = 0; i < f->ev.n; i++)
        print_message("  event %s: %s\n", stn_event_kind_name(f->ev.v[i].kind), f->ev.v[i].msg);
}

/* Feed one accepted view; the game must stay consistent. Returns the tracker's result. */
static inline int fx_view(fx_t *f, const stn_view_t *v)
{
    stn_events_clear(&f->ev);
    int rc = stn_track_feed(f->k, v, &f->ev);
    assert_true(rc >= 0);
    assert_int_equal(go_game_check(f->g), GO_OK);
    if (getenv("STN_VERBOSE"))
        fx_dump(f);
    return rc;
}

/* Feed a diagram as the next accepted view (10 frames after the last, at 30 fps, the
 * hand gone 0.2 s before). */
static inline int fx_feed(fx_t *f, const char *d)
{
    stn_view_t v;
    f->frame += 10;
    st_view(&v, d, f->frame, f->frame / 30.0, f->frame / 30.0 - 0.2);
    return fx_view(f, &v);
}

/* The game's moves must be want[0..n) ("B cc"). */
static inline void fx_expect_moves(fx_t *f, const char *const *want, int n)
{
    char buf[8];
    assert_int_equal(go_game_move_count(f->g), n);
    for (int i = 0; i < n; i++)
        assert_string_equal(st_move(f->g, i, buf), want[i]);
}

/* Let seconds of footage pass before the next view (a board left as it was). */
static inline void fx_wait(fx_t *f, double seconds)
{
    f->frame += (uint64_t)(seconds * 30.0 + 0.5);
}

#endif
