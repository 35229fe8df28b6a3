/* stn_track.h: the tracker and referee — diffs each accepted view against the game and
 * turns the differences into moves, takebacks and the referee's findings (competition
 * rules of the Chinese texts: void moves count as a pass, two moves in a row lose, stones
 * wrongly removed or moved are put back with a warning, two warnings lose, cycles are a
 * possible draw or replay).
 *
 * The tracker plays into a go_game_t it borrows (the caller owns it and keeps it alive).
 * It keeps what it expects to SEE, which may differ from the game:
 *  - captured stones still on the board (players remove them late): expected to go,
 *    their removal is nothing;
 *  - stones of the wrong colour recorded as the turn's colour (trust_colour 0);
 *  - acknowledged disagreements (a void stone not yet taken off, a moved stone, a stone
 *    removed without capture): reported once with the points to restore; the game goes
 *    on, and STN_EV_AGREES is reported when the board matches the record again.
 * Per recorded move it keeps the frame, the time, the time the hand left the board and
 * a comment (referee events, ambiguity) for the SGF.
 *
 * How a view is read (each step restarts after a takeback):
 *  1. points that differ: stones added (A) and stones missing (R);
 *  2. a missing stone with a stone of its colour appearing on a neighbouring point
 *     (8-neighbourhood) is a nudge (STN_EV_MOVED), unless a capture explains it, or the
 *     new stone is the one move the turn says is due: then it is that move, and the
 *     missing stone was knocked off its point by the hand that played (to restore; if
 *     it comes home and the move's stone goes, the move is taken back: the stone slid
 *     there and back). A stone already reported off its point (read empty) seen on a
 *     neighbouring point is the same accident (no new warning), unless a move fits;
 *  3. the last move's stone missing and not captured: a takeback (undo), repeatedly (the
 *     stones it captured are asked back where the board shows them gone, but for one
 *     played in the same view as it: never seen on the board, its move goes too);
 *     and when stones that appeared together, more of one colour than alternation
 *     allows (4.), are among the record's last moves (at most two moves after them), one
 *     of them gone since, not captured: they and the moves after them are taken back and
 *     the view read again (a stone knocked half a line was read on two points and put
 *     back, maybe as the other side played; the moves read again get this view's time);
 *  4. the added stones are the moves: one of the turn's colour is a move; one of the other
 *     colour is a wrong colour (or, trust_colour 1, a second move in a row); several are
 *     ordered by alternation and the rules: every order is tried (up to max_moves stones)
 *     and the one with fewest void moves, then fewest unexplained removals, then the
 *     shortest path between consecutive moves (players answer locally) is recorded; an
 *     STN_EV_AMBIGUOUS event and a comment say when several orders fit equally;
 *  5. a reading that does not explain everything (a void move, a missing stone, a move out
 *     of turn) is retried with one move the camera could not see: played where a dead
 *     stone of its colour still lay (the last one of its capture), or captured at once
 *     before the board settled (next to the opponent's new stone or to the stones taken);
 *     and the last dead stone of a capture left when the others went is read as its side's
 *     move there. When no single one explains all (and not against a lone wrong colour),
 *     two such moves are tried (at most 3 stones seen). And a reading that explains all
 *     but puts the stones against the order the camera first saw them (the first stone
 *     seen is the side's not to move) is retried with a ko taken and taken back unseen
 *     (a ko fight played fast under the hands; at most 4 stones seen), kept only when
 *     every stone then follows the order seen. A comment says so (a pair: a guess); a
 *     wrong guess reads later as a takeback;
 *  6. stones still missing are a removal without capture (warning), and every point still
 *     disagreeing is listed for restoration (STN_EV_RESTORE). The restore is asked at
 *     once; the warning (nudge or removal) waits for warn_grace_s and is dropped (a note)
 *     if the board agrees there again first. The side warned: for a nudge, the side that
 *     moved last; for a stone knocked next to a move (2.), the mover (its hand was over
 *     the board); for a removal, the owner's opponent. Stones read gone where no hand
 *     reached since the last view (stn_view_t.unreached) are a misread: the restore
 *     only, no warning. The grace starts again at every view where the side warned is
 *     still taking off the stones it captured (its turn is not over).
 * A bulk change (bulk_moves stones or more at once that no reading explains fully, or more
 * than max_moves) is refused: reported once (STN_EV_UNEXPLAINED), nothing recorded.
 *
 * Limits: what no camera can tell apart is guessed (the order of moves that all fit, a
 * throw-in captured at once when several points fit: STN_EV_AMBIGUOUS and a comment).
 * A void move right after a pass: see end_by_signals (under the Chinese rules it never
 * ends the game; otherwise it records a second pass, which ends the game as go_game
 * counts it: the station then starts the count; stn_undo takes the pass back).
 */
#ifndef KIFUCAM_STN_TRACK_H
#define KIFUCAM_STN_TRACK_H

#include <stdint.h>

#include "rules/go_game.h"
#include "station/stn_event.h"
#include "station/stn_stab.h"

typedef struct stn_track_config {
    int trust_colour;  /* 0 (default): a lone stone of the other colour is the turn's move
                          (wrong bowl, misread), noted; 1: it is that side's second move in
                          a row (STN_EV_TWO_IN_A_ROW, recorded out of turn) */
    int max_moves;     /* most stones ordered at once between two views (default 8; the
                          search tries (n/2)!^2 orders) */
    int bulk_moves;    /* from this many stones at once (default 4), the reading must
                          explain them all (no void move, no stone of the wrong colour or
                          out of turn, no missing stone unexplained); otherwise the view is
                          refused and reported (STN_EV_UNEXPLAINED), nothing recorded: a
                          bulk change is a misread board, not moves. 0: never refused */
    int warn_moved;    /* 1 (default): moved stones and stones removed without capture
                          earn a warning (competition rules 8, 9); 0: only a restore */
    double warn_grace_s; /* the restore is asked at once, but the warning waits this long
                          (default 2.5 s): a stone nudged and put back within it, before
                          the opponent moves, is an accident (noted in the SGF, no
                          warning). The warning comes at the first view (or settled
                          frame, stn_track_tick) after the grace that still disagrees
                          at its points, or at a view where the other side has moved
                          meanwhile. 0: warn at once */
    int end_by_signals;/* -1 (default): 1 under the chinese preset, else 0. 1: the end is
                          the players' confirmation (signals, console), never two passes
                          made of a void move: a void move right after a pass (a forfeit,
                          弃权一次) leaves both out of the move list (they change
                          neither the board nor the turn; noted on the move before, and
                          an STN_EV_VOID event). 0: a void move is a recorded pass, and
                          one right after a pass ends the game */
} stn_track_config_t;

typedef struct stn_move_info {
    uint64_t frame;    /* frame of the view that showed the move (0: console or resumed) */
    double t;          /* its time, seconds */
    double t_hand;     /* when the hand left the board before it */
    char *comment;     /* referee notes for the SGF C[], or NULL; owned by the tracker */
    int has_time;      /* 1 when the clock's reading below is set (a time control runs) */
    double time_left;  /* the mover's time left after the move, seconds (SGF BL/WL) */
    int periods_left;  /* byo-yomi periods or Canadian moves left (OB/OW), -1: none */
} stn_move_info_t;

typedef struct stn_track stn_track_t;

/* Fill *c with the defaults above. */
void stn_track_defaults(stn_track_config_t *c);
/* A tracker playing into g (borrowed; g's existing moves get empty infos). cfg NULL:
 * defaults. NULL when out of memory. Caller destroys. */
stn_track_t *stn_track_create(go_game_t *g, const stn_track_config_t *cfg);
/* Free it (not the game). Does nothing if NULL. */
void stn_track_destroy(stn_track_t *k);

/* Read one accepted view (its size must be the game's): record what it shows, append
 * the events to *out. Returns the number of moves recorded (>= 0), GO_EINVAL for a view
 * of the wrong size, GO_ENOMEM. A failed call changes nothing (game, infos, expectations,
 * *out as before): the same view may be fed again. */
int stn_track_feed(stn_track_t *k, const stn_view_t *v, stn_events_t *out);

/* Time passes with the board settled at the last view fed (nothing over it, unchanged
 * since): warnings whose grace (warn_grace_s) ended by t are given (the board still
 * disagrees there). Returns the number of warnings given (>= 0) or GO_ENOMEM (nothing
 * changed). Cheap when none is due: call it on every such frame. */
int stn_track_tick(stn_track_t *k, uint64_t frame, double t, stn_events_t *out);
/* Warnings held back for their grace (stn_track_tick). */
int stn_track_held(const stn_track_t *k);

/* Console actions, at time t; on failure nothing changed. Pass by c (GO_EMPTY: the side
 * to move). */
int stn_track_pass(stn_track_t *k, go_color_t c, double t, stn_events_t *out);
/* Undo the last move (its stone, still on the board, must be taken off: reported). */
int stn_track_undo(stn_track_t *k, double t, stn_events_t *out);
/* Resignation by c (GO_EMPTY: the side to move). */
int stn_track_resign(stn_track_t *k, go_color_t c, double t, stn_events_t *out);

/* Info of move i (0-based, as go_game_move), or NULL when out of range. */
const stn_move_info_t *stn_track_info(const stn_track_t *k, int i);
/* Append text (a line) to the comment of move i. Returns 0, GO_EINVAL, GO_ENOMEM. */
int stn_track_note(stn_track_t *k, int i, const char *text);
/* Set the frame and times of move i (a resumed record). Returns 0 or GO_EINVAL. */
int stn_track_set_info(stn_track_t *k, int i, uint64_t frame, double t, double t_hand);
/* Set the clock's reading after move i (SGF BL/WL, OB/OW; periods -1: none). Returns 0
 * or GO_EINVAL. */
int stn_track_set_time(stn_track_t *k, int i, double left_s, int periods);
/* Re-read the game after the caller changed it (resume, console edits): infos follow
 * its move count, expectations are cleared. Returns 0 or GO_ENOMEM. */
int stn_track_sync(stn_track_t *k);

/* Points (go_board.h) where the board must be restored to agree with the record; writes
 * at most max into pts and returns how many there are in all. */
int stn_track_disagreements(const stn_track_t *k, go_point_t *pts, int max);
/* Captured stones still expected to be taken off the board (same contract). */
int stn_track_pending(const stn_track_t *k, go_point_t *pts, int max);
/* Warnings given to c so far. */
int stn_track_warnings(const stn_track_t *k, go_color_t c);

#endif
