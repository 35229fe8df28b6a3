/* web.h: the station's embedded HTTP server (libmicrohttpd): the broadcast overlay, the
 * players' console, the live record, the state, the camera frame and the actions.
 *
 * The station owns the game; the server only shows what the station publishes and hands
 * the players' actions back. The station publishes its whole state as one JSON object after
 * each change (web_server_publish_state); the server keeps the latest copy under a mutex
 * and pushes it as a Server-Sent Event to every /events client. Publishing never blocks on
 * the network: it copies the text and wakes the connection threads.
 *
 * Threads: libmicrohttpd runs its epoll event loop in one internal thread (connections
 * bounded by max_connections; a stalled one is cut off after connection_timeout_s, one
 * whose request has not all arrived after request_timeout_s, however slowly it trickles,
 * is closed: neither holds up the others); a second small thread sends the /events
 * keepalives and closes those late requests.
 * web_server_create returns at once. The action callback is called from the server's
 * thread, never two calls at once, never after web_server_destroy has returned; it should
 * return quickly (every other client waits meanwhile).
 *
 * Paths (all pages are compiled into the binary; no file system path is ever mapped):
 *   GET  /overlay[?bg=none][&size=PX][&coords=0]  the broadcast overlay (OBS browser source)
 *   GET  /console?token=TOKEN                      the players' and arbiter's console
 *   GET  /events                                   SSE: event "state", data = the state JSON
 *   GET  /state.json  /game.sgf  /frame.jpg        the latest published copies (404 if none)
 *   GET  /count?token=TOKEN                        `kifucam count --serve`'s correction page
 *                                                  (app/count_serve.c: its state and actions)
 *   GET  /kc.js  /kc.css                           the pages' script and style
 *   POST /api/ACTION[?point=dd][&color=B][&seconds=N]  ACTION: pass resign undo end toggle
 *                                                  accept reject resume pause adjust (the
 *                                                  clock: adjust?color=B&seconds=N); needs
 *                                                  the token
 *                                                  (Authorization: Bearer TOKEN or ?token=)
 *   POST /api/corners  body {"corners":[[x,y],[x,y],[x,y],[x,y]]}: the board's four grid
 *                      corners chosen in the console's corner editor (calibration), in
 *                      pixels of /frame.jpg, in the order top-left, top-right,
 *                      bottom-right, bottom-left of the record. 400 unless they are four
 *                      pairs of finite numbers inside the frame (web_server_set_frame_size)
 *                      turning one way (a convex quadrilateral); needs the token.
 * Who may ask: every request's Host header must name this station: an IP literal (the
 * bound address; any address when bound to all of them), "localhost" (bound to loopback or
 * to all), or one of web_config_t.hosts; else 421 (a DNS-rebinding page names its own
 * domain). An action with an Origin header must come from that same http://HOST, and
 * from a page the token goes in the Authorization header only (?token= with an Origin:
 * 403); scripts without Origin may still use ?token=. The console and the index may not
 * be framed (frame-ancestors 'none'); the overlay may (it has no actions).
 * Which actions a server takes is its web_config_t.actions (default: the station's,
 * web_station_actions below); `kifucam count --serve` takes another set (app/count_serve.c:
 * fix, dead, corners, prisoners, accept) with the same checks, token and answers.
 * Answers: unknown path 404, wrong method 405, no or wrong token 401, body too large 413,
 * malformed parameters or JSON body 400 (the callback's WEB_ACTION_MALFORMED too), too
 * many /events clients 503, the callback's refusal 409; an action's answer is JSON {"ok":true,"message":"..."} or
 * {"ok":false,"error":"..."}.
 *
 * The state JSON (what the station publishes; every field optional except size and board;
 * the server checks only that it is a JSON object; unknown fields are passed through):
 * {
 *   "size": 19,
 *   "board": ["...X...", ...],           board text rows, top row first ('.', 'X', 'O')
 *   "moves": [{"n":1,"color":"B","point":"pd"}, ...],   point "" for a pass;
 *                                         "pass":true / "resign":true may mark those
 *   "last": {"n":12,"color":"W","point":"qd"},          or null before the first move
 *   "captures": {"B": 2, "W": 0},         stones captured BY each colour
 *   "turn": "B",                          side to move
 *   "phase": "play" | "counting" | "over",
 *   "result": "B+3.5",                    when over (SGF RE[] text), else absent
 *   "black": {"name":"Lee","rank":"9p"}, "white": {"name":"Gu","rank":"9p"},
 *   "komi": 7.5, "rules": "chinese", "handicap": 0,
 *   "messages": [{"level":"warn"|"info"|"error","text":"White Q16 is illegal (ko)",
 *                 "audience":"viewer"|"arbiter"}],   text names points as people do;
 *                                     "arbiter": housekeeping (restore, put back, agrees,
 *                                     void...), which /overlay hides unless ?housekeeping=1
 *   "count": {                            during the count (phase "counting" or "over")
 *     "dead": ["dd", ...],                the proposed dead stones (every stone listed)
 *     "territory": ["XX..O", ...],        optional: owner per point ('X','O','.')
 *     "accepted": {"B": false, "W": true},
 *     "score": {"B": 45, "W": 43.5, "result": "B+1.5"}
 *   },
 *   "calibrate": {                        while `kifucam calibrate --serve` waits for the
 *                                         operator (the console shows its corner editor)
 *     "image": [640, 480],                /frame.jpg's size in pixels
 *     "size": 19,                         board size (grid lines drawn)
 *     "corners": [[x,y],[x,y],[x,y],[x,y]],  the grid found (record's order)
 *     "found": true,                      false: the detector found nothing; the corners
 *                                         are a first guess to drag onto the board
 *     "from": "detector",                 or "corners" (given) or "guess" (not found)
 *     "fit": 0.83, "rotate": 0,
 *     "saved": "profile.json"             after an accepted corners action, else absent
 *   },
 *   "clock": {                            when a time control runs
 *     "B": {"left": 1234.5, "periods": 3, "text": "20:34"},
 *     "W": {"left": 61.0, "periods": 5, "text": "byo-yomi 5x30s"},
 *     "running": "B", "announce": "10 seconds"
 *   }
 * }
 */
#ifndef KIFUCAM_WEB_H
#define KIFUCAM_WEB_H

#include <stddef.h>
#include <stdint.h>

/* What an action needs besides the token, checked by the server before the callback
 * (a request without it is 400 with a message saying what is missing). */
enum {
    WEB_NEEDS_POINT = 1,        /* point=dd */
    WEB_NEEDS_COLOR = 2,        /* color=B or color=W */
    WEB_NEEDS_SECONDS = 4,      /* seconds=N */
    WEB_NEEDS_CORNERS = 8,      /* the body's four corners (POST /api/corners above) */
    WEB_COLOR_EMPTY = 16        /* color may also be E (empty): a point's colour */
};

/* One action a server takes: POST /api/NAME. */
typedef struct web_action_spec {
    const char *name;           /* the ACTION of the path; NULL ends a table */
    unsigned needs;             /* WEB_NEEDS_* and WEB_COLOR_EMPTY flags */
} web_action_spec_t;

/* The station's actions (pass resign undo end toggle accept reject resume pause adjust
 * corners, as listed above), ending with a NULL name: web_config_t.actions' default. */
extern const web_action_spec_t web_station_actions[];

/* Status codes (0 success, negative errors). */
enum {
    WEB_OK = 0,
    WEB_EINVAL = -1,    /* bad argument: NULL, bad address, bad JSON text */
    WEB_ENOMEM = -2,    /* allocation failed */
    WEB_ESTART = -3,    /* the HTTP daemon could not start (port in use, no permission) */
    WEB_ERANDOM = -4    /* no random bytes for the token */
};
/* A short English description of a status code; never NULL. */
const char *web_strerror(int code);

/* A fresh secret: 16 bytes of /dev/urandom as 32 lower-case hex digits and a NUL (the
 * token a server generates; the hub's too). Returns WEB_OK or WEB_ERANDOM. */
int web_random_token(char out[33]);

typedef struct web_config {
    const char *address;        /* IPv4 or IPv6 literal to bind; default (NULL) "127.0.0.1".
                                   Other interfaces only when the operator asks. */
    int port;                   /* TCP port; 0 picks a free one (see web_server_port) */
    const char *token;          /* the actions' secret; NULL or "" generates 32 hex digits
                                   (see web_server_token). Copied. */
    int max_connections;        /* open connections at once; default 512. Past it the server
                                   stops accepting: new ones wait in the backlog */
    int max_sse_clients;        /* /events clients at once (503 past it); default 400 */
    int connection_timeout_s;   /* a connection idle this long is closed; default 15 s */
    size_t max_body;            /* largest accepted request body in bytes; default 4096 */
    int keepalive_s;            /* SSE comment sent to idle /events clients; default 10 s */
    int low_priority;           /* 1 (default): the server's threads run at SCHED_BATCH and
                                   nice +5, so that they never preempt the recording loop;
                                   0: the caller's priority */
    int request_timeout_s;      /* a request's head and body must have arrived this long
                                   after the connection opened (or its last answer), however
                                   slowly they trickle in (slowloris), or the connection is
                                   closed; default 10 s. An answer being sent (/events) is
                                   not bound by it */
    const char *hosts;          /* names the Host header may carry besides the served
                                   address (comma-separated, e.g. "studio.local"); NULL:
                                   none. Copied */
    const web_action_spec_t *actions;   /* the actions taken, ending with a NULL name; any
                                   other POST /api/NAME is 404. NULL (default):
                                   web_station_actions. Not copied: must outlive the
                                   server */
} web_config_t;

/* Fill *cfg with the defaults above. */
void web_config_defaults(web_config_t *cfg);

/* Read the --serve argument into cfg->address / cfg->port: "ADDR:PORT", "[IPV6]:PORT",
 * ":PORT" or "PORT" (address 127.0.0.1). The address text is copied into buf (len bytes)
 * and cfg->address points there. WEB_EINVAL for a malformed spec or a port outside
 * 0..65535 (cfg untouched). */
int web_config_parse_listen(web_config_t *cfg, const char *spec, char *buf, size_t len);

/* An action from the console. Strings are valid only during the callback. */
typedef struct web_action {
    const char *name;           /* one of web_config_t.actions: "pass", "resign", "undo",
                                   "end", "toggle", "accept", "reject", "resume", "pause",
                                   "adjust", "corners" for the station */
    const char *point;          /* "dd" (two letters a..y) or NULL when not given */
    const char *color;          /* "B" or "W" ("E" too for an action with
                                   WEB_COLOR_EMPTY), or NULL when not given */
    const char *body;           /* the request body (a JSON object) or NULL when empty */
    int has_seconds;            /* 1: seconds below was given (?seconds=N or the body's
                                   "seconds"); adjust always has it */
    double seconds;             /* adjust: seconds to add to the clock (negative: take off),
                                   -36000..36000 */
    int has_corners;            /* 1 for an action with WEB_NEEDS_CORNERS ("corners"): the
                                   corners below were given and checked */
    double corners[4][2];       /* corners: (x, y) pixels of the frame, inside it, convex;
                                   top-left, top-right, bottom-right, bottom-left */
} web_action_t;

/* An action callback's answer for a request whose parameters it cannot use (a body it
 * cannot read, a point off this board): HTTP 400 instead of 409. */
#define WEB_ACTION_MALFORMED (-400)

/* Handle an action; called from a server thread, one call at a time. Write a short
 * message (ok or the reason of a refusal) into msg (msglen bytes, NUL-terminated; may be
 * left empty). Return 0 to accept (HTTP 200), WEB_ACTION_MALFORMED for a malformed
 * request (HTTP 400), another negative value to refuse (HTTP 409). */
typedef int (*web_action_fn)(void *user, const web_action_t *action, char *msg, size_t msglen);

typedef struct web_server web_server_t;

/* Start the server in its own threads (returns at once). cfg may be NULL (defaults);
 * on_action may be NULL (every action is then refused with 409). user is passed to the
 * callback. *out is written only on success; caller destroys. */
int web_server_create(const web_config_t *cfg, web_action_fn on_action, void *user,
                      web_server_t **out);
/* Stop the server: closes every connection, joins its threads. Does nothing if NULL. */
void web_server_destroy(web_server_t *srv);

/* The port actually bound (useful with port 0). */
int web_server_port(const web_server_t *srv);
/* The token actions need (never NULL; valid until destroy). */
const char *web_server_token(const web_server_t *srv);

/* Publish the whole state (a JSON object, see above; copied and re-serialised compactly).
 * Every /events client gets it as one event. WEB_EINVAL if not a JSON object. */
int web_server_publish_state(web_server_t *srv, const char *state_json);
/* Publish the live record (SGF text, copied) served at /game.sgf. */
int web_server_publish_sgf(web_server_t *srv, const char *sgf);
/* Publish the latest camera frame (JPEG bytes, copied) served at /frame.jpg. */
int web_server_publish_frame(web_server_t *srv, const uint8_t *jpeg, size_t len);
/* The size in pixels of the frames published (w, h >= 1), against which the corners
 * action's corners are checked (inside 0..w-1, 0..h-1). Until it is set, every corners
 * action is refused (400: no frame to place corners on). WEB_EINVAL for a bad size. */
int web_server_set_frame_size(web_server_t *srv, int w, int h);

/* Counters, for tests and the station's status line. */
typedef struct web_stats {
    int sse_clients;            /* /events clients connected now */
    uint64_t events;            /* states published */
    uint64_t requests;          /* requests answered */
    uint64_t refused;           /* requests answered 4xx/5xx */
} web_stats_t;
void web_server_stats(web_server_t *srv, web_stats_t *out);

#endif
