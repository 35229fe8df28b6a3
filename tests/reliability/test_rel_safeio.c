/* test_rel_safeio.c: the one safe write and the one bounded read (safeio/sio.h) under
 * the attack pass's tricks: a symlink planted at PATH.tmp (the old fixed temporary name)
 * or at PATH itself, a folder that does not exist, /dev/zero, a sparse huge file, a folder
 * given as a file.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safeio/sio.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kc_sio_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return kc_run(cmd) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void assert_text(const char *path, const char *text)
{
    char *t = kc_slurp(path, NULL);
    assert_non_null(t);
    assert_string_equal(t, text);
    free(t);
}

/* The folder holds exactly n entries (no temporary file left behind). */
static void assert_entries(int n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        k += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    assert_int_equal(k, n);
}

static void test_planted_symlink_at_tmp(void **state)
{
    (void)state;
    char victim[128], path[128], tmp[140];
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    snprintf(path, sizeof path, "%s/game.sgf", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    put(victim, "precious\n");
    assert_int_equal(symlink(victim, tmp), 0);
    int e = 0;
    assert_int_equal(sio_write_atomic(path, "(;GM[1])\n", 9, &e), SIO_OK);
    assert_text(victim, "precious\n");
    assert_text(path, "(;GM[1])\n");
    struct stat st;
    assert_int_equal(lstat(tmp, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_entries(3);   /* victim, the link, the record: no temporary file left */
    unlink(tmp);
    unlink(path);
    unlink(victim);
}

static void test_symlink_at_path_replaced(void **state)
{
    (void)state;
    char victim[128], path[128];
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    snprintf(path, sizeof path, "%s/profile.json", dir);
    put(victim, "precious\n");
    assert_int_equal(symlink(victim, path), 0);
    assert_int_equal(sio_write_atomic(path, "{}\n", 3, NULL), SIO_OK);
    assert_text(victim, "precious\n");
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_text(path, "{}\n");
    unlink(path);
    unlink(victim);
}

static void test_failure_leaves_nothing(void **state)
{
    (void)state;
    char bad[160];
    snprintf(bad, sizeof bad, "%s/nope/game.sgf", dir);
    int e = 0;
    assert_int_equal(sio_write_atomic(bad, "x", 1, &e), SIO_EIO);
    assert_int_equal(e, ENOENT);
    /* the target is a folder: the rename fails, the temporary file is removed */
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(sio_write_atomic(sub, "x", 1, &e), SIO_EIO);
    assert_entries(1);
    rmdir(sub);
    assert_int_equal(sio_write_atomic(NULL, "x", 1, &e), SIO_EINVAL);
    assert_int_equal(sio_write_atomic("", "x", 1, &e), SIO_EINVAL);
}

/* A name so long that PATH.tmp-XXXXXX would pass NAME_MAX: written anyway. */
static void test_long_name(void **state)
{
    (void)state;
    char path[400];
    int n = snprintf(path, sizeof path, "%s/", dir);
    while (n < (int)strlen(dir) + 1 + 250)
        path[n++] = 'n';
    path[n] = '\0';
    assert_int_equal(sio_write_atomic(path, "ok", 2, NULL), SIO_OK);
    assert_text(path, "ok");
    assert_entries(1);
    unlink(path);
}

static void test_bounded_read(void **state)
{
    (void)state;
    char *data = NULL;
    size_t len = 0;
    int e = 0;
    /* /dev/zero never ends: refused at the limit, nothing kept */
    assert_int_equal(sio_read_file("/dev/zero", 1 << 20, &data, &len, &e), SIO_ETOOBIG);
    assert_null(data);
    /* a sparse 1 GiB file: refused from its size */
    char big[128];
    snprintf(big, sizeof big, "%s/big", dir);
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)1 << 30), 0);
    close(fd);
    assert_int_equal(sio_read_file(big, 1 << 20, &data, &len, &e), SIO_ETOOBIG);
    /* exactly at the limit: read whole */
    assert_int_equal(truncate(big, 1 << 20), 0);
    assert_int_equal(sio_read_file(big, 1 << 20, &data, &len, &e), SIO_OK);
    assert_int_equal(len, 1 << 20);
    assert_int_equal(data[len], '\0');
    free(data);
    unlink(big);
    /* a folder, a missing file */
    assert_int_equal(sio_read_file(dir, 1 << 20, &data, &len, &e), SIO_EIO);
    assert_int_equal(e, EISDIR);
    char none[128];
    snprintf(none, sizeof none, "%s/none", dir);
    assert_int_equal(sio_read_file(none, 1 << 20, &data, &len, &e), SIO_EIO);
    assert_int_equal(e, ENOENT);
    /* an empty file: "" */
    put(none, "");
    assert_int_equal(sio_read_file(none, 1 << 20, &data, &len, &e), SIO_OK);
    assert_int_equal(len, 0);
    assert_string_equal(data, "");
    free(data);
    unlink(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_symlink_at_tmp),
        cmocka_unit_test(test_symlink_at_path_replaced),
        cmocka_unit_test(test_failure_leaves_nothing),
        cmocka_unit_test(test_long_name),
        cmocka_unit_test(test_bounded_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
