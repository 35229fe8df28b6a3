/* sio.h: the one way kifucam writes a file and reads an outside file whole.
 *
 * Writing (sio_write_atomic): every file the program writes (the game record, the
 * calibration profile, SGF files, pictures) goes to a NEW temporary file in the same
 * folder, created with O_CREAT | O_EXCL | O_NOFOLLOW under a name nobody else holds (so
 * nothing already there, a symlink planted at PATH.tmp included, is ever opened or
 * followed), written whole, fsynced, renamed over PATH (a symlink at PATH itself is
 * replaced, never written through), then the folder is fsynced. A failure at any step
 * leaves PATH as it was and removes the temporary file.
 *
 * Reading (sio_read_file): a whole file into memory, but never more than `max` bytes: the
 * read stops at max + 1 bytes (SIO_ETOOBIG), so a huge file, /dev/zero or an endless pipe
 * costs at most max bytes of memory. A folder is SIO_EIO.
 *
 * Status codes: 0, or a negative SIO_E* with the errno value beside it when a system
 * call failed. Nothing here prints or exits.
 */
#ifndef KIFUCAM_SIO_H
#define KIFUCAM_SIO_H

#include <stddef.h>

enum {
    SIO_OK = 0,
    SIO_EINVAL = -1,    /* bad argument (NULL, empty path) */
    SIO_ENOMEM = -2,    /* allocation failed */
    SIO_EIO = -3,       /* a system call failed (the errno value tells which) */
    SIO_ETOOBIG = -4    /* sio_read_file: the file is larger than the limit */
};
/* A short English description of a status code; never NULL. */
const char *sio_strerror(int code);

/* Write len bytes of data to path atomically (file comment). Returns 0, SIO_EINVAL,
 * SIO_ENOMEM or SIO_EIO with the errno value in *sys_errno (may be NULL). On failure
 * path is untouched and no temporary file is left. */
int sio_write_atomic(const char *path, const void *data, size_t len, int *sys_errno);

/* Read the whole file at path, at most max bytes: *data (malloc'd, NUL-terminated, caller
 * frees) and *len on success. Returns 0, SIO_EINVAL, SIO_ENOMEM, SIO_EIO (errno value in
 * *sys_errno, may be NULL) or SIO_ETOOBIG (nothing kept). */
int sio_read_file(const char *path, size_t max, char **data, size_t *len, int *sys_errno);

#endif
