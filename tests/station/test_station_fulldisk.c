/* test_station_fulldisk.c: a full disk while the station rewrites its record. write() and
 * fsync() are wrapped (-Wl,--wrap=write,--wrap=fsync, this binary only): once the disk is
 * "full" they pass at most g_room more bytes, then fail with ENOSPC. The last good record
 * stays on disk byte for byte and reads back, no temporary file is left, the error is one
 * STN_EV_RECORD_ERROR event, the game goes on in memory, and once writes succeed again
 * the record catches up with every move (STN_EV_RECORD_OK). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "station/station.h"
#include "stn_testutil.h"
#include "testutil.h"

/* ---- the full disk ---- */

static int g_full;          /* 1: the disk has only g_room more bytes */
static size_t g_room;       /* bytes still accepted by write() when full */
static int g_fsync_full;    /* 1: fsync() fails with ENOSPC (delayed allocation) */
static int g_enospc;        /* failures handed out */

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
int __real_fsync(int fd);
int __wrap_fsync(int fd);

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
    if (g_full && fd > 2) {
        if (g_room == 0) {
            g_enospc++;
            errno = ENOSPC;
            return -1;
        }
        if (n > g_room)
            n = g_room;   /* a short write, as on a filling disk */
        ssize_t w = __real_write(fd, buf, n);
        if (w > 0)
            g_room -= (size_t)w;
        return w;
    }
    return __real_write(fd, buf, n);
}

int __wrap_fsync(int fd)
{
    if (g_fsync_full) {
        g_enospc++;
        errno = ENOSPC;
        return -1;
    }
    return __real_fsync(fd);
}

static void disk_full(size_t room)
{
    g_full = 1;
    g_room = room;
}

static void disk_ok(void)
{
    g_full = 0;
    g_fsync_full = 0;
}

/* ---- helpers ---- */

static char g_dir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/kc-fulldisk-XXXXXX");
    disk_ok();
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    disk_ok();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static stn_t *station_at(const char *path)
{
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 9;
    c.black = "B. Lack";
    c.white = "W. Hite";
    c.date = "2026-11-30";
    c.sgf_path = path;
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    return s;
}

/* Feed one stable view; returns how many events of kind it raised. */
static int play_view(stn_t *s, const char *stones, uint64_t frame, stn_event_kind_t kind)
{
    stn_view_t v;
    st_view(&v, stones, frame, frame / 30.0, frame / 30.0 - 0.25);
    assert_true(stn_feed_view(s, &v) >= 0);
    int n, k = 0;
    const stn_event_t *ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        k += ev[i].kind == kind;
    return k;
}

/* The view after move m (1-based) of a fixed 9x9 sequence: B C7, W G3, B G7, W C3, ... */
static void view_after(int m, char out[9 * 18 + 1])
{
    static const int px[] = { 2, 6, 6, 2, 4, 4, 1, 7 };
    static const int py[] = { 2, 6, 2, 6, 1, 7, 4, 4 };
    char b[9][9];
    memset(b, '.', sizeof b);
    for (int i = 0; i < m; i++)
        b[py[i]][px[i]] = i % 2 ? 'O' : 'X';
    char *p = out;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            *p++ = b[y][x];
            *p++ = x == 8 ? '\n' : ' ';
        }
    *p = '\0';
}

static void assert_record_moves(const char *path, int nmoves)
{
    stn_loaded_t l;
    assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
    assert_int_equal(l.nmoves, nmoves);
    stn_loaded_fini(&l);
}

/* ---- tests ---- */

/* The atomic rewrite on a disk that fills at every byte count of the new text (and at
 * fsync): GO_EIO with ENOSPC, the old file unchanged byte for byte, no temporary. */
static void test_atomic_write_full_disk(void **state)
{
    (void)state;
    char path[512], tmp[600];
    snprintf(path, sizeof path, "%s/atomic.sgf", g_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    const char *old = "(;GM[1]FF[4]SZ[9];B[cc];W[gg])\n";
    assert_int_equal(stn_record_write_atomic(path, old, strlen(old), NULL), GO_OK);
    const char *text = "(;GM[1]FF[4]SZ[9];B[cc];W[gg];B[gc];W[cg];B[ee];W[ec])\n";
    size_t len = strlen(text);
    for (size_t room = 0; room <= len; room++) {
        int e = 0;
        if (room < len) {
            disk_full(room);
        } else {
            g_fsync_full = 1;   /* every byte written, the flush fails */
        }
        assert_int_equal(stn_record_write_atomic(path, text, len, &e), GO_EIO);
        assert_int_equal(e, ENOSPC);
        disk_ok();
        char *now = kc_slurp(path, NULL);
        assert_non_null(now);
        assert_string_equal(now, old);
        free(now);
        assert_false(exists(tmp));
    }
    assert_true(g_enospc > 0);
    assert_int_equal(stn_record_write_atomic(path, text, len, NULL), GO_OK);
    char *now = kc_slurp(path, NULL);
    assert_non_null(now);
    assert_string_equal(now, text);
    free(now);
}

/* The station with the disk full after eighths/8 of the record's size (0: at once; or at
 * fsync): the error once as an event, the last good record intact, moves kept in memory;
 * then the record catches up with every move. */
static void station_full_disk(int eighths, int by_fsync)
{
    char path[512], tmp[600], view[9 * 18 + 1];
    snprintf(path, sizeof path, "%s/game-%d-%d.sgf", g_dir, eighths, by_fsync);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    stn_t *s = station_at(path);
    uint64_t frame = 10;
    for (int m = 1; m <= 2; m++, frame += 10) {
        view_after(m, view);
        assert_int_equal(play_view(s, view, frame, STN_EV_RECORD_ERROR), 0);
    }
    assert_int_equal(stn_record_status(s), 0);
    char *good = kc_slurp(path, NULL);
    assert_non_null(good);
    assert_record_moves(path, 2);
    size_t room = strlen(good) * (size_t)eighths / 8;   /* less than any later record */

    /* the disk fills: moves 3..5 are seen, only the first failure is reported */
    if (by_fsync)
        g_fsync_full = 1;
    else
        disk_full(room);
    int errors = 0, before = g_enospc;
    for (int m = 3; m <= 5; m++, frame += 10) {
        view_after(m, view);
        int k = play_view(s, view, frame, STN_EV_RECORD_ERROR);
        errors += k;
        if (k) {
            int n;
            const stn_event_t *ev = stn_events(s, &n);
            int found = 0;
            for (int i = 0; i < n; i++)
                found |= ev[i].kind == STN_EV_RECORD_ERROR &&
                         strstr(ev[i].msg, strerror(ENOSPC)) != NULL;
            assert_true(found);   /* the message says why */
        }
        assert_int_equal(stn_record_status(s), GO_EIO);
        assert_int_equal(go_game_move_count(stn_game(s)), m);   /* kept in memory */
        char *now = kc_slurp(path, NULL);   /* the last good record, byte for byte */
        assert_non_null(now);
        assert_string_equal(now, good);
        free(now);
        assert_false(exists(tmp));
        if (!by_fsync)
            disk_full(room);   /* the room left is taken by others */
    }
    assert_int_equal(errors, 1);
    assert_true(g_enospc > before);   /* the writes did meet the full disk */
    assert_record_moves(path, 2);

    /* room again: the next move writes everything, reported once */
    disk_ok();
    view_after(6, view);
    assert_int_equal(play_view(s, view, frame, STN_EV_RECORD_OK), 1);
    assert_int_equal(stn_record_status(s), 0);
    assert_record_moves(path, 6);
    char *text = NULL, *now = kc_slurp(path, NULL);
    assert_int_equal(stn_record_text(s, &text), GO_OK);
    assert_non_null(now);
    assert_string_equal(now, text);   /* the file is the game's record, every move */
    free(text);
    free(now);
    free(good);
    stn_destroy(s);
}

static void test_station_full_disk_at_once(void **state)
{
    (void)state;
    station_full_disk(0, 0);
}

static void test_station_full_disk_midway(void **state)
{
    (void)state;
    for (int eighths = 1; eighths < 8; eighths++)   /* short writes, then ENOSPC */
        station_full_disk(eighths, 0);
}

static void test_station_full_disk_at_fsync(void **state)
{
    (void)state;
    station_full_disk(0, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_atomic_write_full_disk, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_station_full_disk_at_once, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_station_full_disk_midway, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_station_full_disk_at_fsync, setup_dir,
                                        teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
