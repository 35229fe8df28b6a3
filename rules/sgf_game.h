/* sgf_game.h: between SGF trees (sgf.h) and games (go_game.h).
 *
 * Replay: the main line of a game tree (first child at every node) becomes a go_game_t.
 * Root properties read: SZ ("19" or "19:19"; non-square is rejected; 2..25; default 19),
 * KM (see sgf_parse_komi), HA, RU (go_rules_from_sgf, unless the caller gives rules;
 * unknown or absent: chinese; with CP and PC, the server's own counting of those rules,
 * go_rules_server), AB/AW/AE (point lists, "aa:cc" rectangles included) and PL
 * in the root or any later node (setup in mid-game is played tolerantly), KP (kifucam's
 * own, see sgf_header_t.has_prisoners), B/W moves with
 * the pass as "" or "tt" (boards up to 19). The first move after a setup node without PL
 * sets the turn to its own colour (SGF needs no PL there).
 *
 * Every move is judged as a strict game would (go_game_legal); an illegal one is listed
 * (move number, colour, point, reason) and then either stops the replay or is played
 * tolerantly (go_game_play_tolerant; a move onto an occupied point is listed and skipped),
 * so that all illegal moves of a record are listed. Move numbers count the B/W nodes of
 * the main line from 1, passes included.
 *
 * Errors (GO_EPARSE with line:col of the node): a bad SZ, a move or setup point that is
 * not a point of the board. GO_ENOMEM when an allocation fails.
 */
#ifndef KIFUCAM_SGF_GAME_H
#define KIFUCAM_SGF_GAME_H

#include <stdbool.h>

#include "rules/go_game.h"
#include "rules/go_rules.h"
#include "rules/sgf.h"

typedef struct sgf_illegal {
    int move;          /* 1-based move number in the main line */
    go_color_t color;
    go_point_t point;  /* GO_PASS for a pass */
    int reason;        /* the GO_E* code a strict game gives (go_strerror) */
    int line, col;     /* position of the move's node in the input */
} sgf_illegal_t;

typedef struct sgf_replay_opts {
    const go_rules_t *rules;  /* NULL: the game's RU[], else chinese */
    bool stop_at_illegal;     /* true: stop at the first illegal move (it is not played) */
} sgf_replay_opts_t;

typedef struct sgf_replay {
    go_game_t *game;          /* the game at the end of the replay; owned (sgf_replay_fini) */
    go_rules_t rules;         /* the rules played */
    bool rules_from_sgf;      /* rules came from RU[] */
    const char *rules_server; /* the server whose counting the RU[] rules follow, as
                                 go_rules_server changed them ("OGS"), or NULL */
    int size;
    int komi2;                /* komi in half points: KM[] when given, else the rules'
                                 for this handicap (go_rules_komi2) */
    bool komi_given;          /* KM[] was present and readable */
    int handicap;             /* HA[] (0 when absent) */
    int nmoves;               /* B/W nodes of the main line read (passes included) */
    int nillegal;
    sgf_illegal_t *illegal;   /* nillegal entries (malloc'd; sgf_replay_fini frees) */
    bool stopped;             /* the replay stopped at an illegal move */
    const sgf_node_t *last;   /* the last node replayed */
} sgf_replay_t;

/* Replay root's main line into *out (zeroed first). opts may be NULL (RU[] rules,
 * tolerant). On error *out holds nothing to free and *err (may be NULL) says where. */
int sgf_replay(const sgf_node_t *root, const sgf_replay_opts_t *opts, sgf_replay_t *out,
               sgf_error_t *err);
/* Free what a replay holds (the game, the list). Does nothing if r is NULL. */
void sgf_replay_fini(sgf_replay_t *r);

/* KM[] text to half points: "6.5" -> 13, "6.50" -> 13, "7" -> 14, "-3.5" -> -7; values in
 * stones of the old Chinese style, "3.75" / "2.75" / "375" (an integer >= 100 ending in 25
 * or 75, read as hundredths of a stone), count two points per stone: 375 -> 7.5 points
 * -> 15. Other values are rounded to the nearest half point. GO_EPARSE when not a number. */
int sgf_parse_komi(const char *s, int *komi2);
/* Write komi2 as SGF writes it ("6.5", "7", "-0.5") into out[16]. */
void sgf_format_komi(int komi2, char out[16]);
/* The RU[] text for a preset name ("chinese" -> "Chinese", "ing" -> "GOE", ...). */
const char *sgf_rules_name(const char *preset);

/* Header of a record written from a game. NULL strings are left out. */
typedef struct sgf_header {
    const char *black, *white;            /* PB, PW */
    const char *black_rank, *white_rank;  /* BR, WR */
    const char *date;                     /* DT, e.g. "2026-11-30" */
    const char *event, *place;            /* EV, PC */
    const char *result;                   /* RE; NULL: "B+R"/"W+R" after a resignation */
    const char *rules;                    /* RU; NULL: from the game's rules preset */
    int komi2;                            /* KM in half points ... */
    bool has_komi;                        /* ... written when true, else the rules' komi
                                             for the game's handicap (go_rules_komi2) */
    const go_board_t *initial;            /* the initial position (AB/AW); NULL: the
                                             standard handicap / zuozi stones the game's
                                             handicap count and rules imply */
    bool has_prisoners;                   /* KP[b:w], kifucam's own property (readers
                                             ignore it): the stones each colour captured
                                             before the record's first move, as counted off
                                             the board (a position from a photo, counted
                                             under territory rules); the replay starts the
                                             game with them (go_game_set_prisoners) */
    int prisoners[3];                     /* by GO_BLACK / GO_WHITE, 0..GO_MAX_PRISONERS */
} sgf_header_t;

/* A new collection holding one game tree for game g: a root with GM, FF, CA, AP, SZ, KM,
 * RU, HA, the header and setup stones, then one node per move (pass as B[]/W[];
 * resignations end the record and go to RE). h may be NULL. */
int sgf_from_game(const go_game_t *g, const sgf_header_t *h, sgf_collection_t **out);
/* The same written as SGF text (*text malloc'd, caller frees). */
int sgf_game_text(const go_game_t *g, const sgf_header_t *h, char **text, size_t *len);

#endif
