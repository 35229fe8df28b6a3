/* rly_journal.h: the relay's disk queue (internal to relay/): the events not yet
 * acknowledged by the broker, so that a station killed mid-game and resumed sends them.
 *
 * The file is text, one record a line, appended to:
 *   E RUN SEQ PAYLOAD     an event queued (PAYLOAD: compact JSON, one line)
 *   A RUN SEQ             that event acknowledged by the broker
 * A line cut short by a crash (no newline, or not of this form) is skipped when read.
 * Opening compacts the file (the pending events alone, written to FILE.tmp and renamed
 * over it); rly_journal_clear empties it once nothing is pending.
 */
#ifndef KIFUCAM_RLY_JOURNAL_H
#define KIFUCAM_RLY_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct rly_jentry {
    uint64_t run, seq;
    char *payload;              /* malloc'd, NUL-terminated */
} rly_jentry_t;

typedef struct rly_journal rly_journal_t;

/* Open (create) the journal at path. With resume, the events it holds that were never
 * acknowledged are handed back in *pending (oldest first, *npending of them; the caller
 * frees each payload and the array) and kept in the file; without, the file starts
 * empty. *skipped counts the unreadable lines. RLY_EIO, RLY_ENOMEM. */
int rly_journal_open(const char *path, int resume, rly_jentry_t **pending, int *npending,
                     int *skipped, rly_journal_t **out);
/* Append an event (flushed and synced to the disk before returning). RLY_EIO. */
int rly_journal_append(rly_journal_t *j, uint64_t run, uint64_t seq, const char *payload);
/* Mark an event acknowledged (flushed, not synced: a lost mark sends it twice, which the
 * subscribers' (run, seq) check absorbs). RLY_EIO. */
int rly_journal_ack(rly_journal_t *j, uint64_t run, uint64_t seq);
/* Nothing is pending: empty the file. RLY_EIO. */
int rly_journal_clear(rly_journal_t *j);
/* Close. Does nothing if NULL. */
void rly_journal_close(rly_journal_t *j);

#endif
