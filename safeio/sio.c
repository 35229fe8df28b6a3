/* sio.c: the atomic write and the bounded read of sio.h.
 *
 * Invariants: the temporary file is only ever one this call created (O_EXCL): on any
 * failure it is unlinked, and PATH is only touched by the final rename(2). The read
 * buffer never grows past max + 1 bytes.
 */
#include "safeio/sio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *sio_strerror(int code)
{
    switch (code) {
    case SIO_OK: return "success";
    case SIO_EINVAL: return "invalid argument";
    case SIO_ENOMEM: return "out of memory";
    case SIO_EIO: return "input/output error";
    case SIO_ETOOBIG: return "the file is larger than the limit";
    default: return "unknown error";
    }
}

static _Atomic unsigned sio_counter;

/* Six characters that differ from one call to the next and from one process to the
 * next (pid, a counter, the clock): a name for the temporary file. O_EXCL makes a clash
 * harmless (another name is tried), so this needs no quality beyond that. */
static void sio_suffix(char out[7])
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)getpid() * 2654435761u ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)atomic_fetch_add(&sio_counter, 1) << 32);
    for (int i = 0; i < 6; i++) {
        out[i] = digits[v % 36];
        v /= 36;
    }
    out[6] = '\0';
}

/* Create a new temporary file beside path (same folder, so rename is atomic): first
 * PATH.tmp-XXXXXX, or DIR/.kc-XXXXXX.tmp when that name is too long. Returns the fd and
 * the name in tmp (tlen bytes), or -1 with errno. */
static int sio_create_tmp(const char *path, const char *dir, char *tmp, size_t tlen)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        char sfx[7];
        sio_suffix(sfx);
        for (int shortname = 0; shortname < 2; shortname++) {
            if (!shortname)
                snprintf(tmp, tlen, "%s.tmp-%s", path, sfx);
            else
                snprintf(tmp, tlen, "%s/.kc-%s.tmp", dir, sfx);
            int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
            if (fd >= 0)
                return fd;
            if (errno != ENAMETOOLONG)
                break;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

int sio_write_atomic(const char *path, const void *data, size_t len, int *sys_errno)
{
    if (!path || !*path || (!data && len)) {
        if (sys_errno)
            *sys_errno = EINVAL;
        return SIO_EINVAL;
    }
    size_t pl = strlen(path);
    size_t tlen = pl + 32;
    char *tmp = malloc(tlen), *dir = malloc(pl + 2);
    if (!tmp || !dir) {
        free(tmp);
        free(dir);
        if (sys_errno)
            *sys_errno = ENOMEM;
        return SIO_ENOMEM;
    }
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    int err = 0, fd = sio_create_tmp(path, dir, tmp, tlen);
    if (fd < 0) {
        err = errno;
    } else {
        const char *p = data;
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(fd, p + off, len - off);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                err = errno;
                break;
            }
            if (w == 0) {
                err = EIO;
                break;
            }
            off += (size_t)w;
        }
        if (!err && fsync(fd) != 0)
            err = errno;
        if (close(fd) != 0 && !err)
            err = errno;
        if (!err && rename(tmp, path) != 0)
            err = errno;
        if (err)
            unlink(tmp);
    }
    if (!err) {
        int dfd = open(dir, O_RDONLY | O_CLOEXEC);
        if (dfd >= 0) {
            if (fsync(dfd) != 0 && errno != EINVAL)
                err = errno;
            close(dfd);
        }
    }
    free(tmp);
    free(dir);
    if (err) {
        if (sys_errno)
            *sys_errno = err;
        return SIO_EIO;
    }
    return SIO_OK;
}

int sio_read_file(const char *path, size_t max, char **data, size_t *len, int *sys_errno)
{
    if (!path || !data || !len || max >= SIZE_MAX - 1) {
        if (sys_errno)
            *sys_errno = EINVAL;
        return SIO_EINVAL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (sys_errno)
            *sys_errno = errno;
        return SIO_EIO;
    }
    struct stat st;
    int err = 0;
    size_t cap = 1 << 16;
    if (fstat(fd, &st) != 0) {
        err = errno;
    } else if (S_ISDIR(st.st_mode)) {
        err = EISDIR;
    } else if (S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > (unsigned long long)max) {
            close(fd);
            return SIO_ETOOBIG;
        }
        cap = (size_t)st.st_size + 2;   /* the whole file, one spare byte, the NUL */
    }
    if (err) {
        close(fd);
        if (sys_errno)
            *sys_errno = err;
        return SIO_EIO;
    }
    if (cap > max + 2)
        cap = max + 2;
    char *buf = malloc(cap);
    size_t n = 0;
    int rc = buf ? SIO_OK : SIO_ENOMEM;
    while (rc == SIO_OK) {
        if (n + 1 >= cap) {   /* full: grow, but never past max + 1 bytes and the NUL */
            if (n > max) {
                rc = SIO_ETOOBIG;
                break;
            }
            size_t nc = cap * 2 > max + 2 ? max + 2 : cap * 2;
            char *nb = realloc(buf, nc);
            if (!nb) {
                rc = SIO_ENOMEM;
                break;
            }
            buf = nb;
            cap = nc;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            rc = SIO_EIO;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > max)
            rc = SIO_ETOOBIG;
    }
    close(fd);
    if (rc != SIO_OK) {
        free(buf);
        if (rc == SIO_EIO && sys_errno)
            *sys_errno = err;
        return rc;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return SIO_OK;
}
