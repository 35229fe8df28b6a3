/* count_serve.c: `kifucam count PHOTO --serve ADDR:PORT [--sgf OUT.sgf]`: the photo read
 * once as `count` reads it, then a page to settle the count on, served by web/ (the one
 * HTTP server) with its own actions; every change is a count_state_* call (count_state.h),
 * the recount included, so the page and `count` with the same options agree.
 *
 * Paths (Host, Origin and the token as web.h has them: every POST needs the token printed
 * at start, "Authorization: Bearer TOKEN" from a page, or ?token=):
 *   GET  /count?token=TOKEN        the page (web/pages/count.html, count.js)
 *   GET  /state.json, /events      the state below (after every change, as SSE)
 *   GET  /frame.jpg                the photo as read (undistorted with --calib), JPEG
 *   POST /api/fix?point=dd[&color=B|W|E]   point dd's colour: set, or without color
 *                                  cycled empty -> black -> white -> empty (a point
 *                                  still unsure: to empty first); as --fix dd=C
 *   POST /api/dead?point=dd        the group of the stone at dd dead <-> alive; as --dead
 *   POST /api/corners              body {"corners":[[x,y],[x,y],[x,y],[x,y]], "size": 13}
 *                                  (size optional: 9, 13 or 19; another size than the
 *                                  board's drops the fixes and marks): the grid's
 *                                  corners in /frame.jpg's pixels (top-left, top-right,
 *                                  bottom-right, bottom-left of the board counted): the
 *                                  photo read again with them, as --corners
 *   POST /api/prisoners            body {"prisoners":"B=12,W=7"}: the stones each side
 *                                  captured (territory rules); as --prisoners
 *   POST /api/accept               write the record (--sgf, default PHOTO.sgf), print the
 *                                  count on stdout as `count` does, exit 0
 * Answers: {"ok":true,"message":"..."} (200), or {"ok":false,"error":"..."}: 400 a
 * malformed request (a point off this board, a missing point, a bad colour, corners that
 * are not four pairs inside the photo or not convex, a prisoners body that is not
 * B=N,W=N), 401 no or a wrong token, 404 another action, 409 refused (unsure points left,
 * no stone at the point, a photo unreadable with those corners, the record not written,
 * accepted already).
 *
 * The state (web.h's schema, so that kc.js draws the board, plus the count's own parts):
 * {
 *   "size": 19, "board": ["..X?O", ...],      '?' a point still unsure (no count yet)
 *   "phase": "counting" | "over" (accepted), "rules": "korean", "komi": 6.5, "handicap": 0,
 *   "count": {"dead": ["dd", ...], "territory": ["XX..O", ...],
 *             "score": {"B": 107, "W": 106.5, "result": "B+0.5"}},   absent while pending
 *   "result": "B+0.5"                          once accepted
 *   "text": "B+0.5\nrules korean, ...",       what `count` prints; absent while pending
 *   "report": {...},                           what `count --format json` prints; absent
 *                                              while pending
 *   "photo": {"image": PHOTO, "frame": [w, h], "corners": [[x,y],...], "guessed": false,
 *             "grid_doubt": false (the grid board finding gave is in doubt, photo.h: its
 *             corners to drag; corners given clear it), "outside": 0 (the points of the
 *             grid beyond the picture's edge, photo_outside), "cut": ["bottom", "left"]
 *             (the picture's edges it cuts the board at; [] for none),
 *             "unsure": ["dd", ...], "pending": false, "fixed": [{"point":"dd","color":"B"}],
 *             "territory_rules": true, "prisoners": {"B": 52, "W": 51},
 *             "prisoners_given": true, "marking": "proposal" | "given" | "people",
 *             "sgf": OUT.sgf, "accepted": false, "message": "..."}
 * }
 *
 * Invariants: the state is changed only by the action callback (the server's thread, one
 * call at a time) under s->mu, and published before the callback answers, so a page that
 * reads /state.json after an answer sees the change; after Accept every action is
 * refused; Ctrl-C or SIGTERM before Accept writes nothing (exit 1).
 */
#include "app/count_serve.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "app/picture.h"
#include "rules/go_point.h"
#include "rules/go_reading.h"
#include "vision/cv_bridge.h"

/* The guess of the corners when no board was found: this fraction inside each edge. */
#define COUNT_GUESS_INSET 0.12
/* The JPEG quality of the photo served at /frame.jpg. */
#define COUNT_FRAME_QUALITY 90

/* The actions of the page (web.h's checks run before the callback). */
static const web_action_spec_t count_actions[] = {
    { "fix", WEB_NEEDS_POINT | WEB_COLOR_EMPTY },
    { "dead", WEB_NEEDS_POINT },
    { "corners", WEB_NEEDS_CORNERS },
    { "prisoners", 0 },
    { "accept", 0 },
    { NULL, 0 }
};

void count_serve_opts_defaults(count_serve_opts_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->web = NULL;
    o->sgf = NULL;
    o->json = false;
    o->picture = NULL;
    o->guessed = false;
    o->linger_s = 0.3;
}

int count_serve_guess(const char *cmd, const photo_opts_t *o, photo_t *out)
{
    cvb_image_t img = { 0 };
    /* the image's size: the photo decoded once more (it was readable: no board only) */
    int rc = cvb_imread(o->image, 1, &img);
    int w = img.w, h = img.h;
    cvb_image_free(&img);
    photo_free(out);
    memset(out, 0, sizeof *out);
    if (rc || w < 2 || h < 2)
        return 1;
    char corners[160];
    snprintf(corners, sizeof corners, "%.1f,%.1f;%.1f,%.1f;%.1f,%.1f;%.1f,%.1f",
             w * COUNT_GUESS_INSET, h * COUNT_GUESS_INSET, w * (1 - COUNT_GUESS_INSET),
             h * COUNT_GUESS_INSET, w * (1 - COUNT_GUESS_INSET), h * (1 - COUNT_GUESS_INSET),
             w * COUNT_GUESS_INSET, h * (1 - COUNT_GUESS_INSET));
    photo_opts_t g = *o;
    g.corners = corners;
    g.size = o->size ? o->size : 19;
    return photo_read(cmd, &g, out);
}

typedef struct serve {
    const char *cmd;
    count_state_t *st;
    const count_serve_opts_t *o;
    const char *sgf;            /* the record's path */
    web_server_t *srv;
    pthread_mutex_t mu;         /* st, accepted, message */
    pthread_cond_t cv;          /* accepted */
    int accepted;               /* 0/1 (cli_serve_wait's flag) */
    char message[256];          /* the last action's answer, shown on the page */
} serve_t;

static json_t *points_array(const go_point_t *pts, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        char pt[3];
        go_point_to_sgf(pts[i], pt);
        json_array_append_new(a, json_string(pt));
    }
    return a;
}

static json_t *half_number(int v2)
{
    return v2 % 2 ? json_real(v2 / 2.0) : json_integer(v2 / 2);
}

/* The state JSON (see the top of this file) as compact text, malloc'd; NULL on no memory.
 * Call with s->mu held. */
static char *state_text(const serve_t *s)
{
    const count_state_t *st = s->st;
    const go_board_t *b = count_state_board(st);
    const go_score_t *sc = count_state_score(st);
    const go_fixes_t *fx = count_state_fixes(st);
    const count_params_t *par = count_state_params(st);
    const photo_t *ph = count_state_photo(st);
    int S = b->size, nleft = 0;
    bool pending = count_state_pending(st);
    const go_point_t *left = count_state_unsure(st, &nleft);
    uint8_t unset[GO_CELLS];
    memset(unset, 0, sizeof unset);
    for (int i = 0; pending && i < nleft; i++)
        unset[left[i]] = 1;

    json_t *o = json_object(), *rows = json_array();
    if (!o || !rows) {
        json_decref(o);
        json_decref(rows);
        return NULL;
    }
    for (int y = 0; y < S; y++) {
        char row[GO_MAX_SIZE + 1];
        for (int x = 0; x < S; x++) {
            int p = GO_PT(x, y), c = b->color[p];
            row[x] = unset[p] ? '?' : c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
        }
        row[S] = '\0';
        json_array_append_new(rows, json_string(row));
    }
    json_object_set_new(o, "size", json_integer(S));
    json_object_set_new(o, "board", rows);
    json_object_set_new(o, "phase", json_string(s->accepted ? "over" : "counting"));
    json_object_set_new(o, "rules", json_string(par->rules.name));
    json_object_set_new(o, "komi", half_number(par->komi2));
    json_object_set_new(o, "handicap", json_integer(par->handicap));
    if (sc) {
        json_t *cnt = json_object(), *dead = json_array(), *terr = json_array();
        for (int y = 0; y < S; y++) {
            char row[GO_MAX_SIZE + 1];
            for (int x = 0; x < S; x++) {
                int p = GO_PT(x, y), v = sc->point[p];
                go_color_t own = GO_SP_OWNER(v);
                if (v & GO_SP_DEAD) {
                    char pt[3];
                    go_point_to_sgf(p, pt);
                    json_array_append_new(dead, json_string(pt));
                }
                row[x] = (v & GO_SP_STONE) || own == GO_EMPTY ? '.' : own == GO_BLACK ? 'X' : 'O';
            }
            row[S] = '\0';
            json_array_append_new(terr, json_string(row));
        }
        json_object_set_new(cnt, "dead", dead);
        json_object_set_new(cnt, "territory", terr);
        json_object_set_new(cnt, "score", json_pack("{s:o,s:o,s:s}", "B",
                                                    half_number(sc->side[GO_BLACK].total2), "W",
                                                    half_number(sc->side[GO_WHITE].total2),
                                                    "result", sc->re));
        json_object_set_new(o, "count", cnt);
        if (s->accepted)
            json_object_set_new(o, "result", json_string(sc->re));
        char *text = NULL;
        size_t tlen = 0;
        FILE *mf = open_memstream(&text, &tlen);
        if (mf) {
            count_state_print_text(st, mf, NULL);
            if (fclose(mf) == 0 && text)
                json_object_set_new(o, "text", json_string(text));
        }
        free(text);
        json_t *rep = count_state_json(st, NULL);
        if (rep)
            json_object_set_new(o, "report", rep);
    }
    json_t *p = json_object(), *corners = json_array(), *fixed = json_array();
    for (int k = 0; k < 4; k++)
        json_array_append_new(corners, json_pack("[f,f]", round(ph->geom.corners[k][0] * 10) / 10,
                                                 round(ph->geom.corners[k][1] * 10) / 10));
    for (int i = 0; i < fx->n; i++) {
        char pt[3];
        go_color_t c = fx->fix[i].color;
        go_point_to_sgf(fx->fix[i].point, pt);
        json_array_append_new(fixed, json_pack("{s:s,s:s}", "point", pt, "color",
                                               c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : "."));
    }
    json_object_set_new(p, "image", json_string(count_state_photo_path(st)));
    json_object_set_new(p, "frame", json_pack("[i,i]", ph->img.w, ph->img.h));
    json_object_set_new(p, "corners", corners);
    json_object_set_new(p, "guessed", json_boolean(s->o->guessed));
    json_object_set_new(p, "grid_doubt", json_boolean(photo_grid_doubted(ph)));
    unsigned sides = 0;
    const char *edges[4];
    json_t *cut = json_array();
    json_object_set_new(p, "outside", json_integer(photo_outside(ph, NULL, &sides)));
    for (int i = 0, n = photo_side_names(sides, edges); i < n; i++)
        json_array_append_new(cut, json_string(edges[i]));
    json_object_set_new(p, "cut", cut);
    json_object_set_new(p, "unsure", points_array(left, nleft));
    json_object_set_new(p, "pending", json_boolean(pending));
    json_object_set_new(p, "fixed", fixed);
    json_object_set_new(p, "territory_rules",
                        json_boolean(par->rules.scoring == GO_SCORING_TERRITORY));
    json_object_set_new(p, "prisoners", json_pack("{s:i,s:i}", "B", par->captures[GO_BLACK], "W",
                                                  par->captures[GO_WHITE]));
    json_object_set_new(p, "prisoners_given", json_boolean(par->prisoners_given));
    json_object_set_new(p, "marking", json_string(count_state_marking(st)));
    json_object_set_new(p, "sgf", json_string(s->sgf));
    json_object_set_new(p, "accepted", json_boolean(s->accepted));
    json_object_set_new(p, "message", json_string(s->message));
    json_object_set_new(o, "photo", p);
    char *js = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    json_decref(o);
    return js;
}

/* Publish the state; call with s->mu held. */
static void publish(serve_t *s)
{
    char *js = state_text(s);
    if (js)
        web_server_publish_state(s->srv, js);
    free(js);
}

/* The point of ?point=dd on this board, or -1 (off the board). */
static int action_point(const count_state_t *st, const char *pt)
{
    int S = count_state_board(st)->size;
    int p = pt ? go_point_from_sgf(S, pt, (int)strlen(pt)) : -1;
    return p > 0 ? p : -1;
}

/* "B=12,W=7" from the body {"prisoners":"B=12,W=7"}; 0 or -1 (malformed). */
static int body_prisoners(const char *body, int cap[3])
{
    json_error_t err;
    json_t *o = body ? json_loads(body, JSON_REJECT_DUPLICATES, &err) : NULL;
    json_t *v = o ? json_object_get(o, "prisoners") : NULL;
    int rc = json_is_string(v) && go_prisoners_parse(json_string_value(v), cap) == GO_OK ? 0 : -1;
    json_decref(o);
    return rc;
}

/* The corners action's optional "size" (9, 13 or 19) into *size (0 when not given); -1
 * when given as anything else. */
static int body_size(const char *body, int *size)
{
    json_error_t err;
    json_t *o = body ? json_loads(body, JSON_REJECT_DUPLICATES, &err) : NULL;
    json_t *v = o ? json_object_get(o, "size") : NULL;
    json_int_t n = json_is_integer(v) ? json_integer_value(v) : -1;
    int rc = !v ? 0 : n == 9 || n == 13 || n == 19 ? 0 : -1;
    *size = v && !rc ? (int)n : 0;
    json_decref(o);
    return rc;
}

static const char *colour_name(go_color_t c)
{
    return c == GO_BLACK ? "black" : c == GO_WHITE ? "white" : "empty";
}

/* The page's actions (the server's thread, one at a time). */
static int on_count_action(void *user, const web_action_t *a, char *msg, size_t msglen)
{
    serve_t *s = user;
    count_state_t *st = s->st;
    int rc, ret = 0;
    pthread_mutex_lock(&s->mu);
    int S = count_state_board(st)->size;
    char h[4] = "";
    int p = a->point ? action_point(st, a->point) : -1;
    if (p > 0)
        go_point_human(S, p, h);
    if (a->point && p < 0) {
        snprintf(msg, msglen, "%s is not a point of this %dx%d board", a->point, S, S);
        ret = WEB_ACTION_MALFORMED;
    } else if (count_state_done(st)) {
        snprintf(msg, msglen, "accepted already: %s is written", s->sgf);
        ret = -1;
    } else if (!strcmp(a->name, "fix")) {
        int c = !a->color ? COUNT_CYCLE : !strcmp(a->color, "B") ? GO_BLACK
              : !strcmp(a->color, "W") ? GO_WHITE : GO_EMPTY;
        go_color_t now = GO_EMPTY;
        rc = count_state_fix(st, p, c, &now);
        if (rc)
            snprintf(msg, msglen, "%s: %s", h, count_strerror(rc));
        else
            snprintf(msg, msglen, "%s is %s", h, colour_name(now));
        ret = rc ? -1 : 0;
    } else if (!strcmp(a->name, "dead")) {
        rc = count_state_toggle(st, p);
        if (rc > 0) {
            bool dead = count_state_session(st) && go_session_dead(count_state_session(st))[p];
            snprintf(msg, msglen, "%s: %d %s stone%s %s", h, rc,
                     colour_name((go_color_t)count_state_board(st)->color[p]),
                     rc == 1 ? "" : "s", dead ? "dead" : "alive");
        } else {
            snprintf(msg, msglen, "%s: %s", h, count_strerror(rc));
        }
        ret = rc > 0 ? 0 : -1;
    } else if (!strcmp(a->name, "corners")) {
        int size = 0;
        if (body_size(a->body, &size)) {
            snprintf(msg, msglen, "corners: \"size\" must be 9, 13 or 19 (the board's lines)");
            ret = WEB_ACTION_MALFORMED;
        } else {
            rc = count_state_corners_size(st, a->corners, size);
            if (rc)
                snprintf(msg, msglen, "%s (the reading is kept)", count_strerror(rc));
            else if (size && size != S)
                snprintf(msg, msglen, "read again as a %dx%d with these corners (the "
                         "corrections and dead marks of the %dx%d dropped)", size, size, S, S);
            else
                snprintf(msg, msglen, "read again with these corners");
            ret = rc ? -1 : 0;
        }
    } else if (!strcmp(a->name, "prisoners")) {
        int cap[3] = { 0, 0, 0 };
        if (body_prisoners(a->body, cap)) {
            snprintf(msg, msglen, "prisoners: the body must be {\"prisoners\":\"B=N,W=N\"} "
                     "(the stones each side captured)");
            ret = WEB_ACTION_MALFORMED;
        } else {
            rc = count_state_prisoners(st, cap[GO_BLACK], cap[GO_WHITE]);
            if (rc)
                snprintf(msg, msglen, "prisoners: %s", count_strerror(rc));
            else
                snprintf(msg, msglen, "prisoners: Black %d, White %d", cap[GO_BLACK],
                         cap[GO_WHITE]);
            ret = rc == COUNT_EINVAL ? WEB_ACTION_MALFORMED : rc ? -1 : 0;
        }
    } else {   /* accept */
        rc = count_state_accept(st, s->sgf);
        if (rc == COUNT_EPENDING) {
            int n = 0;
            count_state_unsure(st, &n);
            snprintf(msg, msglen, "%d point%s the reader was unsure of: say what %s (click)",
                     n, n == 1 ? "" : "s", n == 1 ? "it is" : "they are");
        } else if (rc) {
            snprintf(msg, msglen, "%s: %s", s->sgf, count_strerror(rc));
        } else {
            snprintf(msg, msglen, "%s written: %s", s->sgf, count_state_score(st)->re);
            s->accepted = true;
            pthread_cond_signal(&s->cv);
        }
        ret = rc ? -1 : 0;
    }
    snprintf(s->message, sizeof s->message, "%s", msg);
    publish(s);
    pthread_mutex_unlock(&s->mu);
    return ret;
}

/* The record's default path: the photo's with its extension replaced by .sgf. */
static char *default_sgf(const char *image)
{
    size_t n = strlen(image);
    const char *slash = strrchr(image, '/'), *dot = strrchr(image, '.');
    if (dot && (!slash || dot > slash + 1))
        n = (size_t)(dot - image);
    char *out = malloc(n + 5);
    if (out)
        snprintf(out, n + 5, "%.*s.sgf", (int)n, image);
    return out;
}

/* Print what `count` prints for the accepted count, the record's path last. */
static int print_count(const serve_t *s)
{
    if (s->o->json) {
        json_t *obj = count_state_json(s->st, s->o->picture);
        if (obj)
            json_object_set_new(obj, "sgf", json_string(s->sgf));
        char *txt = obj ? json_dumps(obj, JSON_COMPACT | JSON_REAL_PRECISION(8)) : NULL;
        json_decref(obj);
        if (!txt)
            return -1;
        printf("%s\n", txt);
        free(txt);
    } else {
        count_state_print_text(s->st, stdout, s->o->picture);
        printf("sgf: %s\n", s->sgf);
    }
    fflush(stdout);
    return 0;
}

int count_serve(const char *cmd, count_state_t *st, const count_serve_opts_t *o)
{
    serve_t s;
    memset(&s, 0, sizeof s);
    s.cmd = cmd;
    s.st = st;
    s.o = o;
    char *own_sgf = o->sgf ? NULL : default_sgf(count_state_photo_path(st));
    s.sgf = o->sgf ? o->sgf : own_sgf;
    if (!s.sgf) {
        cli_error(cmd, "out of memory");
        return 2;
    }
    pthread_mutex_init(&s.mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s.cv, &ca);
    pthread_condattr_destroy(&ca);
    web_config_t wc = *o->web;
    wc.actions = count_actions;
    int exit_code = 2;
    uint8_t *jpg = NULL;
    size_t len = 0;
    const photo_t *ph = count_state_photo(st);
    int wrc = web_server_create(&wc, on_count_action, &s, &s.srv);
    if (wrc) {
        cli_error(cmd, "--serve: %s", web_strerror(wrc));
        goto out;
    }
    pthread_mutex_lock(&s.mu);
    int n = 0;
    count_state_unsure(st, &n);
    bool doubt = photo_grid_doubted(ph);
    if (doubt)
        snprintf(s.message, sizeof s.message, "the grid found is in doubt (a part of a bigger "
                 "board, or lines off?): drag its corners onto the board's corners");
    else if (count_state_pending(st))
        snprintf(s.message, sizeof s.message, "%d point%s the reader was unsure of: click "
                 "each to say what it is", n, n == 1 ? "" : "s");
    char *js = state_text(&s);
    pthread_mutex_unlock(&s.mu);
    int prc = !js || cvb_imencode_jpeg(&ph->img, COUNT_FRAME_QUALITY, &jpg, &len) ||
              web_server_publish_frame(s.srv, jpg, len) ||
              web_server_set_frame_size(s.srv, ph->img.w, ph->img.h) ||
              web_server_publish_state(s.srv, js);
    free(js);
    if (prc) {
        cli_error(cmd, "--serve: cannot publish the photo to the page");
        goto out;
    }
    const char *addr = wc.address ? wc.address : "127.0.0.1";
    int v6 = strchr(addr, ':') != NULL;
    cli_serve_catch(); /* a signal once the address is out: stopped, not killed */
    printf("count: http://%s%s%s:%d/count?token=%s\n", v6 ? "[" : "", addr, v6 ? "]" : "",
           web_server_port(s.srv), web_server_token(s.srv));
    printf("%s; click a stone to mark its group dead, or correct a point's colour; Accept "
           "writes %s (Ctrl-C to stop)\n",
           o->guessed ? "no board found: the corners start at a guess, drag them onto the "
                        "grid's corners"
           : doubt ? "the grid found is shown, in doubt (a part of a bigger board, or lines "
                     "off?): drag its corners onto the board's corners"
                   : "the grid found is shown",
           s.sgf);
    fflush(stdout);

    bool accepted = cli_serve_wait(&s.mu, &s.cv, &s.accepted, 0) == 1;
    if (!accepted) {
        cli_error(cmd, "stopped before Accept: nothing written");
        exit_code = 1;
        goto out;
    }
    /* accepted: the callback refuses every change now; st is ours to read */
    exit_code = 0;
    if (o->picture) {
        picture_in_t pin = { count_state_board(st), count_state_score(st),
                             count_state_reading(st)->unsure, count_state_photo(st) };
        char why[256];
        if (picture_write(o->picture, &pin, why, sizeof why)) {
            cli_error(cmd, "%s: %s", o->picture, why);
            exit_code = 2;
        }
    }
    if (exit_code == 0 && print_count(&s)) {
        cli_error(cmd, "out of memory");
        exit_code = 2;
    }
    if (o->linger_s > 0) {
        struct timespec pause = { (time_t)o->linger_s,
                                  (long)((o->linger_s - (double)(time_t)o->linger_s) * 1e9) };
        nanosleep(&pause, NULL);    /* the accepting answer and the last state go out */
    }
out:
    web_server_destroy(s.srv);
    free(jpg);
    free(own_sgf);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
    return exit_code;
}
