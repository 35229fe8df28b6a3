/* stn_record.h: the safe game record — the SGF text of a game (size, rules, komi,
 * handicap, players, date, result, a comment per move for referee events and ambiguity,
 * the frame and time each move was seen) written so that a crash or power loss never
 * leaves a broken file: a new file beside the old one, fsync, rename over the old,
 * fsync of the folder. A failure leaves the last good file in place.
 *
 * With a time control: TM and OT in the root, BL/WL (time left, seconds) and OB/OW
 * (byo-yomi periods or Canadian moves left, in overtime) on every move the clock saw.
 * Per move, the private property KF[frame:t:t_hand] keeps when the camera saw it (SGF
 * readers ignore unknown properties); stn_record_load reads it back for a resumed game.
 * In the root, beside RE[] of a counted game, the private KD[pt][pt]... lists the dead
 * stones the players agreed (stn_meta_t.dead), read back the same way.
 */
#ifndef KIFUCAM_STN_RECORD_H
#define KIFUCAM_STN_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "rules/go_game.h"
#include "station/stn_track.h"

#define STN_NAME_MAX 128

/* Status codes of a resume beside the GO_E* ones (stn_strerror names them all). */
#define STN_EKEEP (-30)      /* the record holds what a resumed record would not keep */
#define STN_EILLEGAL (-31)   /* the record has a move a strict game refuses */

struct sgf_node;
struct sgf_collection;

typedef struct stn_meta {
    char black[STN_NAME_MAX];      /* PB, "" when unknown */
    char white[STN_NAME_MAX];      /* PW */
    char date[32];                 /* DT, YYYY-MM-DD */
    char result[32];               /* RE when set by the count ("B+3.5", "0"); a
                                      resignation in the game writes "W+R"/"B+R" itself */
    int ndead;                     /* KD: the dead stones of the agreed count, written with
                                      RE[] in the root (kifucam's own property: SGF has
                                      none for dead stones; readers ignore it) so that
                                      `kifucam score` counts the record as the station
                                      counted it; 0 for none */
    go_point_t dead[GO_MAX_SIZE * GO_MAX_SIZE];
    int komi2;                     /* KM in half points (15 = 7.5) */
    int handicap;                  /* HA, 0 for none */
    int nab, naw;                  /* setup stones (handicap included) */
    go_point_t ab[GO_MAX_SIZE * GO_MAX_SIZE];
    go_point_t aw[GO_MAX_SIZE * GO_MAX_SIZE];
    go_color_t first;              /* side to move after setup (PL when White) */
    char tm[32];                   /* TM (main time, seconds) when a clock runs, else "" */
    char ot[64];                   /* OT (overtime, e.g. "5x60 byo-yomi"), or "" */
    const struct sgf_node *keep_root;  /* a resumed record's root as read, or NULL: its
                                      properties other than those the writer makes (SZ,
                                      KM, PB, ...: stn_record.c's list) are written back
                                      as read; borrowed (the station keeps its owner) */
} stn_meta_t;

/* Empty metadata: no names, no result, komi 0, Black first. */
void stn_meta_init(stn_meta_t *m);
/* Record the game's current stones as setup (call right after handicap/setup). */
void stn_meta_setup_from(stn_meta_t *m, const go_game_t *g);

/* The SGF text of the game (main line). k may be NULL (no comments, no frames).
 * *text is malloc'd, NUL-terminated, caller frees. Returns 0 or GO_ENOMEM. */
int stn_record_sgf(const go_game_t *g, const stn_meta_t *m, const stn_track_t *k,
                   char **text);

/* Write len bytes to path atomically (sio_write_atomic: a new temporary file created
 * with O_EXCL, never one already there or a symlink, fsync, rename, fsync of the folder).
 * Returns 0, or GO_EIO with the errno value in *sys_errno (may be NULL); on failure the
 * old file is untouched and no temporary file is left. */
int stn_record_write_atomic(const char *path, const char *text, size_t len, int *sys_errno);

/* A record read back for resuming. */
typedef struct stn_loaded {
    go_game_t *game;               /* caller destroys (stn_loaded_fini does) */
    stn_meta_t meta;
    int nmoves;                    /* moves (with passes) in the game */
    char **comments;               /* per move, NULL or a malloc'd string */
    uint64_t *frames;              /* per move, 0 when not recorded */
    double *times, *hand_times;    /* per move */
    double *time_left;             /* per move: BL/WL (seconds), when the record has them */
    int *periods_left;             /* per move: OB/OW, -1 without OB/OW, -2 without BL/WL */
    struct sgf_collection *keep;   /* the parsed file, owner of meta.keep_root (freed by
                                      stn_loaded_fini unless the caller took it and set it
                                      NULL) */
} stn_loaded_t;

/* Read a record back for resuming, or refuse it: a resumed record is rewritten, and it
 * must never lose anything of the file. Read: SZ, RU (else `rules_fallback`, else
 * chinese), KM, HA, PB, PW, DT, RE, AB, AW, PL, then B/W moves (played tolerantly: a
 * move out of turn, as the station records two moves in a row), C, KF, BL/WL and OB/OW;
 * every other root property is kept as read (meta.keep_root). Refused: more than one
 * game, a variation, a move node holding anything else (or a node with no move), a move
 * in the root, a KF/BL/WL/OB/OW/KM value that would not be written back as read, unknown
 * RU, names longer than the metadata holds (STN_EKEEP); a move a strict game refuses
 * (suicide, onto a stone, ko: STN_EILLEGAL); malformed text (GO_EPARSE), a move off the
 * board (GO_EINVAL), GO_ENOMEM. why (whylen bytes, may be NULL) gets a one-line reason
 * naming the line. out is written on success only. */
int stn_record_parse(const char *text, size_t len, const char *rules_fallback,
                     stn_loaded_t *out, char *why, size_t whylen);
/* stn_record_parse on a file read under the SGF size policy (sgf_read_file); GO_EIO when
 * it cannot be read or is larger than the limit. */
int stn_record_load(const char *path, const char *rules_fallback, stn_loaded_t *out,
                    char *why, size_t whylen);
/* Free what a load produced (the game too, unless the caller took it and set it NULL). */
void stn_loaded_fini(stn_loaded_t *l);

#endif
