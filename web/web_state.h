/* web_state.h: the state JSON of web.h built from the rules' types, so that the station
 * (and the demo station of the tests) publish exactly the schema the pages read.
 *
 *   char *js;
 *   if (web_state_json(game, &info, &js) == WEB_OK) {
 *       web_server_publish_state(srv, js);
 *       free(js);
 *   }
 *
 * The game gives size, board, moves, last, captures, turn; info gives the rest (players,
 * komi, phase, messages, clock); during the count a go_session_t gives the dead stones,
 * the territory, each player's acceptance and the running score.
 */
#ifndef KIFUCAM_WEB_STATE_H
#define KIFUCAM_WEB_STATE_H

#include "rules/go_game.h"
#include "rules/go_session.h"
#include "web/web.h"

typedef struct web_message {
    const char *level;          /* "info", "warn" or "error" */
    const char *text;           /* UTF-8 */
    const char *audience;       /* "viewer" or "arbiter" (stn_event_audience); NULL:
                                   "arbiter" (the overlay hides it unless asked) */
} web_message_t;

typedef struct web_state_info {
    const char *black_name, *black_rank;    /* NULL: omitted */
    const char *white_name, *white_rank;
    int komi2;                  /* komi in half points (15 = 7.5) */
    int handicap;               /* stones given (0: none) */
    const char *phase;          /* "play", "counting" or "over"; NULL: "over" when the game
                                   is over (two passes, resignation), else "play" */
    const char *result;         /* RE[] text once decided ("B+3.5", "W+R"), or NULL */
    const go_session_t *session;/* during the count and after: the marking, accepts and
                                   score; NULL otherwise */
    const web_message_t *messages;          /* nmessages referee messages, oldest first */
    int nmessages;
    const char *clock_json;     /* the "clock" object as JSON text (see web.h), or NULL */
} web_state_info_t;

/* Build the state JSON (compact, UTF-8) for this game. *out is malloc'd (caller frees)
 * and written only on success. WEB_EINVAL for a NULL argument or a clock_json that is not
 * a JSON object; WEB_ENOMEM. */
int web_state_json(const go_game_t *g, const web_state_info_t *info, char **out);

#endif
