/* testutil.h: small helpers shared by the cmocka tests (header only).
 * Include after <cmocka.h>. */
#ifndef KIFUCAM_TESTUTIL_H
#define KIFUCAM_TESTUTIL_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The folder of ../shared/data, or NULL when it is absent. The path is static storage. */
static inline const char *kc_shared_data(void)
{
    static char path[4096];
    const char *cands[2] = { getenv("KIFUCAM_SHARED"), getenv("KIFUCAM_SHARED_DEFAULT") };
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (!cands[i] || !*cands[i])
            continue;
        snprintf(path, sizeof path, "%s/data", cands[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return path;
    }
    return NULL;
}

/* Skip the current cmocka test, visibly, when ../shared/data is absent. */
#define KC_REQUIRE_SHARED_DATA(var)                                                  \
    const char *var = kc_shared_data();                                              \
    if (!var) {                                                                      \
        print_message("SKIP: ../shared/data is absent (set KIFUCAM_SHARED)\n");      \
        skip();                                                                      \
    }

/* The source tree's root (for samples/), from the environment ctest sets. */
static inline const char *kc_source_dir(void)
{
    const char *s = getenv("KIFUCAM_SOURCE");
    return s && *s ? s : ".";
}

/* The whole file at path, malloc'd and NUL-terminated (the caller frees it), its size
 * without the NUL in *len when len is not NULL; NULL (and *len 0) when the file cannot be
 * opened or read, or memory runs out. Binary-safe; reads to the end, whatever stat said. */
static inline char *kc_slurp(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    /* when stat knows the size, the file in one read: its bytes, one spare (a short read
     * is the end, without growing) and the NUL */
    size_t cap = 4096;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < (unsigned long long)SIZE_MAX - 2)
        cap = (size_t)st.st_size + 2;
    size_t n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;       /* the end of the file, or an error (ferror below) */
        char *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (buf && failed) {
        free(buf);
        buf = NULL;
    }
    if (!buf)
        return NULL;
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* As much of the file at path as fits in buf (cap >= 1 bytes), NUL-terminated; "" when it
 * cannot be opened. Returns the bytes read. For a command's captured stdout and stderr. */
static inline size_t kc_read_into(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return n;
}

/* Run a shell command: its exit status, or -1 when it could not run or was killed. */
static inline int kc_run(const char *cmd)
{
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A server stopped as a user stops it: `cd dir && exec command` run with its stdout a
 * pipe, signal sig sent to it once a line of that stdout holds `served` (its address: the
 * signal never races its start-up, however long that takes on a loaded machine), its
 * stdout read to the end (a pipe closed early would kill it by SIGPIPE). Its exit status;
 * -1 when it could not run or died of a signal, -2 when it ended without saying `served`. */
static inline int kc_stop_when_served(const char *dir, const char *command, const char *served,
                                      int sig)
{
    char cmd[8192], line[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && echo $$ && exec %s", dir, command);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int pid = 0, said = 0;
    if (fgets(line, sizeof line, p) && sscanf(line, "%d", &pid) == 1 && pid > 0)
        while (!said && fgets(line, sizeof line, p))
            said = strstr(line, served) != NULL;
    if (said && kill(pid, sig) != 0)
        said = 0;
    while (fgets(line, sizeof line, p))
        ;
    int st = pclose(p);
    if (!said)
        return -2;
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The kifucam binary ctest names in $KIFUCAM_BIN, or NULL when it is not an executable. */
static inline const char *kc_bin(void)
{
    const char *b = getenv("KIFUCAM_BIN");
    return b && *b && access(b, X_OK) == 0 ? b : NULL;
}

/* Skip the current cmocka test, visibly, without the kifucam binary. */
#define KC_REQUIRE_BIN(var)                                                            \
    const char *var = kc_bin();                                                      \
    if (!var) {                                                                     \
        print_message("SKIP: $KIFUCAM_BIN is not an executable kifucam\n");         \
        skip();                                                                     \
    }

#endif
