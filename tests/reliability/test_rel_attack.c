/* test_rel_attack.c: the defects of issue 22's attack pass, each replayed against the
 * kifucam binary (KIFUCAM_BIN) as the attack ran it, so that none comes back. One section
 * per defect, headed by its number in the issue; every test failed on the binary before
 * its fix.
 *
 * Inputs are written by the tests (a grey PPM, a PNG header, SGF text, a profile) or
 * rendered with `kifucam render` (small footage of samples/games/demo.sgf) into a
 * temporary folder, never the repository.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmp[64];
static const char *bin;

static int setup(void **state)
{
    (void)state;
    bin = getenv("KIFUCAM_BIN");
    snprintf(tmp, sizeof tmp, "/tmp/kc_attack_XXXXXX");
    if (!bin || !mkdtemp(tmp))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", tmp, tmp);
    return kc_run(cmd) == 0 ? 0 : -1;
}

/* tmp/NAME into buf (static storage, one at a time per call site). */
static const char *at(char *buf, size_t n, const char *name)
{
    int k = snprintf(buf, n, "%s/%s", tmp, name);
    assert_true(k > 0 && (size_t)k < n);
    return buf;
}

/* Run `kifucam ARGS` (printf-style); stdout in tmp/out, stderr in tmp/err; exit code. */
static int kc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kc(const char *fmt, ...)
{
    char args[8192], cmd[9000];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof args);
    n = snprintf(cmd, sizeof cmd, "'%s' %s >'%s/out' 2>'%s/err'", bin, args, tmp, tmp);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    return kc_run(cmd);
}

static char *text_of(const char *name, size_t *len)
{
    char p[256];
    return kc_slurp(at(p, sizeof p, name), len);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* stderr holds exactly one line, starting "kifucam ", naming `what`. */
static void assert_one_error_line(const char *what)
{
    char *err = text_of("err", NULL);
    assert_non_null(err);
    int ok = count_lines(err) == 1 && !strncmp(err, "kifucam", 7) && (!what || strstr(err, what));
    if (!ok)
        print_message("stderr: %s\n", err);
    free(err);
    if (!ok)
        fail_msg("stderr is not one kifucam line naming '%s'", what ? what : "");
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A w x h grey PPM at path: an image with no board in it. */
static void write_grey(const char *path, int w, int h)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    for (int i = 0; i < w * h * 3; i++)
        fputc(128, f);
    assert_int_equal(fclose(f), 0);
}

static char *source_text(const char *rel, size_t *len)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", kc_source_dir(), rel);
    char *t = kc_slurp(p, len);
    assert_non_null(t);
    return t;
}

/* The file at path holds exactly len bytes equal to text. */
static void assert_file_is(const char *path, const char *text, size_t len)
{
    size_t n = 0;
    char *now = kc_slurp(path, &n);
    assert_non_null(now);
    int same = n == len && !memcmp(now, text, len);
    free(now);
    if (!same)
        fail_msg("%s changed (%zu bytes, was %zu)", path, n, len);
}

/* ---- 1: --resume ---- */

/* Resume `text` (written to tmp/g.sgf) on a grey image; the record must stay byte for
 * byte and the exit code be `want`. */
static void resume_case(const char *text, size_t len, int want, const char *what)
{
    char g[256], img[256];
    at(g, sizeof g, "g.sgf");
    at(img, sizeof img, "grey.ppm");
    write_grey(img, 64, 48);
    write_file(g, text, len);
    int rc = kc("record --input '%s' --resume '%s'", img, g);
    if (rc != want) {
        char *err = text_of("err", NULL);
        print_message("stderr: %s\n", err ? err : "");
        free(err);
        fail_msg("record --resume (%s) exited %d, not %d", what, rc, want);
    }
    assert_file_is(g, text, len);
    if (want == 2)
        assert_one_error_line("cannot resume");
}

static void test_resume_collection_refused(void **state)
{
    (void)state;
    size_t a, b;
    char *one = source_text("samples/games/demo.sgf", &a);
    char *two = source_text("samples/games/counted-w0.5.sgf", &b);
    char *both = malloc(a + b);
    assert_non_null(both);
    memcpy(both, one, a);
    memcpy(both + a, two, b);
    resume_case(both, a + b, 2, "two games");
    free(both);
    free(one);
    free(two);
}

static void test_resume_variation_refused(void **state)
{
    (void)state;
    static const char v[] = "(;GM[1]FF[4]SZ[9]PB[Lee]PC[Seoul];B[ee];W[cc](;B[gg])(;B[gc]))\n";
    resume_case(v, sizeof v - 1, 2, "a variation");
    static const char lb[] = "(;GM[1]FF[4]SZ[9];B[ee]LB[ee:A];W[cc])\n";
    resume_case(lb, sizeof lb - 1, 2, "a label");
}

static void test_resume_illegal_refused(void **state)
{
    (void)state;
    static const char suicide[] = "(;SZ[19]AB[ba][ab];W[aa])\n";
    resume_case(suicide, sizeof suicide - 1, 2, "suicide");
    static const char occupied[] = "(;SZ[9];B[ee];W[ee])\n";
    resume_case(occupied, sizeof occupied - 1, 2, "occupied");
}

/* A record it understands (one game, root properties PC, WR, BR, EV, GN): a run that
 * finds no board leaves it as it was, byte for byte. */
static void test_resume_failed_run_keeps_record(void **state)
{
    (void)state;
    size_t n;
    char *demo = source_text("samples/games/demo.sgf", &n);
    resume_case(demo, n, 1, "no board found");
    free(demo);
}

/* ---- 2: a symlink at PATH.tmp ---- */

static void test_symlink_at_tmp_not_followed(void **state)
{
    (void)state;
    char victim[256], g[256], gt[256], img[256];
    at(victim, sizeof victim, "victim.txt");
    at(g, sizeof g, "game.sgf");
    at(gt, sizeof gt, "game.sgf.tmp");
    at(img, sizeof img, "grey.ppm");
    static const char precious[] = "precious\n";
    write_file(victim, precious, sizeof precious - 1);
    assert_int_equal(symlink(victim, gt), 0);
    write_grey(img, 64, 48);
    /* --size: the station starts at once and writes its first record */
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s'", img, g), 1);
    assert_file_is(victim, precious, sizeof precious - 1);
    struct stat st;
    assert_int_equal(lstat(g, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(lstat(gt, &st), 0);   /* the planted link is left alone */
    assert_true(S_ISLNK(st.st_mode));
    /* a symlink AT the record is replaced by the record, its target untouched */
    unlink(g);
    assert_int_equal(symlink(victim, g), 0);
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s'", img, g), 1);
    assert_file_is(victim, precious, sizeof precious - 1);
    assert_int_equal(lstat(g, &st), 0);
    assert_true(S_ISREG(st.st_mode));
}

/* The pictures the commands write (devices --save, calibrate's PROFILE.png, detect's and
 * calibrate's --debug) go the same safe way: a symlink at the path is replaced by the
 * picture, its target untouched. */
static void test_picture_through_symlink_not_followed(void **state)
{
    (void)state;
    char victim[256], pic[256], img[256];
    at(victim, sizeof victim, "victim2.txt");
    at(pic, sizeof pic, "last.png");
    at(img, sizeof img, "grey.ppm");
    static const char precious[] = "precious\n";
    write_file(victim, precious, sizeof precious - 1);
    assert_int_equal(symlink(victim, pic), 0);
    write_grey(img, 64, 48);
    assert_int_equal(kc("devices --probe '%s' --frames 1 --save '%s'", img, pic), 0);
    assert_file_is(victim, precious, sizeof precious - 1);
    struct stat st;
    assert_int_equal(lstat(pic, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    size_t n;
    char *png = kc_slurp(pic, &n);
    assert_non_null(png);
    assert_true(n > 8 && !memcmp(png, "\x89PNG", 4));
    free(png);
}

/* ---- 3: long --sgf paths ---- */

static void test_long_sgf_path_whole(void **state)
{
    (void)state;
    char path[2048], img[256];
    int n = snprintf(path, sizeof path, "%s", tmp);
    /* folders of 60 characters until the path passes 530 characters */
    while (n < 480) {
        n += snprintf(path + n, sizeof path - (size_t)n, "/%060d", n);
        assert_int_equal(mkdir(path, 0755), 0);
    }
    n += snprintf(path + n, sizeof path - (size_t)n, "/a-record-with-a-long-name-%040d.sgf", 7);
    assert_true(n > 539);
    at(img, sizeof img, "grey.ppm");
    write_grey(img, 64, 48);
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s'", img, path), 1);
    struct stat st;
    if (stat(path, &st) != 0)
        fail_msg("the %d-character --sgf path was not written", n);
    /* nothing written under the path cut at 511 characters */
    char cut[512];
    memcpy(cut, path, 511);
    cut[511] = '\0';
    assert_int_not_equal(access(cut, F_OK), 0);
}

/* ---- footage ---- */

/* The first `moves` moves of demo.sgf rendered once into tmp/NAME (640x360, 15 fps):
 * its folder in dir. */
static void footage(const char *name, int moves, char *dir, size_t n)
{
    int k = snprintf(dir, n, "%s/%s", tmp, name);
    assert_true(k > 0 && (size_t)k < n);
    struct stat st;
    if (stat(dir, &st) == 0)
        return;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s' --size 640x360 --seed 2 "
             "--fps 15 --pace 0.3 --moves %d --end none >/dev/null 2>&1", bin,
             kc_source_dir(), dir, moves);
    assert_int_equal(kc_run(cmd), 0);
}

/* B[..] and W[..] nodes in the SGF file at path. */
static int sgf_moves_in(const char *path)
{
    char *t = kc_slurp(path, NULL);
    assert_non_null(t);
    int n = 0;
    for (const char *p = t; *p; p++)
        n += p[0] == ';' && (p[1] == 'B' || p[1] == 'W') && p[2] == '[';
    free(t);
    return n;
}

/* ---- 4: a reader that closes stdout ---- */

static void test_closed_stdout_keeps_recording(void **state)
{
    (void)state;
    enum { N = 6 };
    char dir[256], sgf[256], rcf[256];
    footage("six", N, dir, sizeof dir);
    at(sgf, sizeof sgf, "piped.sgf");
    at(rcf, sizeof rcf, "rc");
    static const char *const formats[] = { "text", "json" };
    for (int i = 0; i < 2; i++) {
        char cmd[2048];
        unlink(sgf);
        snprintf(cmd, sizeof cmd,
                 "('%s' record --input '%s' --fps 15 --sgf '%s' --format %s 2>'%s/err'; "
                 "echo $? >'%s') | head -1 >/dev/null", bin, dir, sgf, formats[i], tmp, rcf);
        assert_int_equal(kc_run(cmd), 0);
        char *rc = text_of("rc", NULL);
        assert_non_null(rc);
        int code = atoi(rc);
        free(rc);
        if (code != 0)
            fail_msg("record --format %s | head -1 exited %d (141: killed by SIGPIPE)",
                     formats[i], code);
        int got = sgf_moves_in(sgf);
        if (got != N)
            fail_msg("--format %s: %d of %d moves on disk", formats[i], got, N);
        assert_one_error_line("stdout");
    }
}

/* ---- 8: the input folder deleted in the middle of a run ---- */

static void test_input_folder_deleted(void **state)
{
    (void)state;
    char dir[256], copy[256], sgf[256], cmd[2048];
    footage("six", 6, dir, sizeof dir);
    at(copy, sizeof copy, "doomed");
    at(sgf, sizeof sgf, "doomed.sgf");
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", dir, copy);
    assert_int_equal(kc_run(cmd), 0);
    /* real time, so that the folder goes while the run is reading it */
    snprintf(cmd, sizeof cmd,
             "'%s' record --input '%s' --fps 15 --realtime --sgf '%s' >'%s/out' 2>'%s/err' & "
             "sleep 2; rm -rf '%s'; wait $!", bin, copy, sgf, tmp, tmp, copy);
    int rc = kc_run(cmd);
    if (rc != 2) {
        char *err = text_of("err", NULL);
        print_message("stderr: %s\n", err ? err : "");
        free(err);
        fail_msg("record on a folder deleted mid-run exited %d, not 2", rc);
    }
    assert_one_error_line("gone");
    char *err = text_of("err", NULL);
    assert_non_null(err);
    assert_null(strstr(err, "WARN"));
    free(err);
    assert_true(sgf_moves_in(sgf) >= 0);   /* a whole record, as far as it went */
}

/* ---- 9: score and resume on illegal records ---- */

static void test_score_illegal_exit_1(void **state)
{
    (void)state;
    static const char *const recs[] = {
        "(;SZ[19]AB[ba][ab];W[aa])\n",          /* suicide */
        "(;SZ[9];B[ee];W[ee])\n",               /* onto a stone */
        "(;SZ[9];B[ee];B[cc])\n",               /* a wrong turn */
    };
    char g[256];
    at(g, sizeof g, "illegal.sgf");
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        write_file(g, recs[i], strlen(recs[i]));
        assert_int_equal(kc("check '%s'", g), 1);
        int rc = kc("score '%s'", g);
        if (rc != 1)
            fail_msg("score on %s exited %d, not 1", recs[i], rc);
        assert_one_error_line("illegal");
        char *out = text_of("out", NULL);
        assert_non_null(out);
        assert_string_equal(out, "");   /* no result printed */
        free(out);
    }
}

/* ---- 10: the SGF size policy ---- */

/* Run `kifucam ARGS` as run by kc(), watching its resident memory: killed (and -1
 * returned) when it passes max_kb; its peak in *peak_kb. */
static int kc_capped(long max_kb, long *peak_kb, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int kc_capped(long max_kb, long *peak_kb, const char *fmt, ...)
{
    char args[4096], cmd[5000];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof args);
    /* under AddressSanitizer: a small quarantine, so that freed buffers do not count */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=\"$ASAN_OPTIONS:quarantine_size_mb=8\" exec '%s' %s "
             ">'%s/out' 2>'%s/err'", bin, args, tmp, tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    long peak = 0;
    int st = 0, killed = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        char p[64], line[256];
        snprintf(p, sizeof p, "/proc/%d/status", (int)pid);
        FILE *f = fopen(p, "r");
        while (f && fgets(line, sizeof line, f)) {
            long kb;
            if (sscanf(line, "VmRSS: %ld", &kb) == 1 && kb > peak)
                peak = kb;
        }
        if (f)
            fclose(f);
        if (peak > max_kb && !killed) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    *peak_kb = peak;
    if (killed)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* stderr is one line "FILE:...: ..." naming the size limit. */
static void assert_limit_line(const char *file)
{
    char *err = text_of("err", NULL);
    assert_non_null(err);
    int ok = count_lines(err) == 1 && !strncmp(err, file, strlen(file)) && strstr(err, "limit");
    if (!ok)
        print_message("stderr: %s\n", err);
    free(err);
    assert_true(ok);
}

static void test_sgf_size_cap(void **state)
{
    (void)state;
    long peak = 0;
    /* /dev/zero: read up to the 256 MiB policy, then refused (it reached 8.4 GB) */
    int rc = kc_capped(3L << 19, &peak, "check /dev/zero");
    print_message("check /dev/zero: exit %d, peak %ld MB\n", rc, peak >> 10);
    assert_int_equal(rc, 2);
    assert_limit_line("/dev/zero");
    /* a sparse file of 300 MiB (no disk used): refused from its size, nothing read */
    char big[256];
    at(big, sizeof big, "big.sgf");
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)300 << 20), 0);
    assert_int_equal(close(fd), 0);
    static const char *const cmds[] = { "check", "score" };
    for (size_t i = 0; i < 2; i++) {
        rc = kc_capped(200L << 10, &peak, "%s '%s'", cmds[i], big);
        print_message("%s on 300 MiB: exit %d, peak %ld MB\n", cmds[i], rc, peak >> 10);
        assert_int_equal(rc, 2);
        assert_limit_line(big);
    }
    /* score on a 20 MB collection parses its first game only (it took 30 times the file) */
    char coll[256];
    at(coll, sizeof coll, "coll.sgf");
    size_t n;
    char *demo = source_text("samples/games/demo.sgf", &n);
    FILE *f = fopen(coll, "wb");
    assert_non_null(f);
    for (size_t sz = 0; sz < (size_t)20 << 20; sz += n)
        assert_int_equal(fwrite(demo, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    free(demo);
    rc = kc_capped(250L << 10, &peak, "score '%s'", coll);
    print_message("score on 20 MB: exit %d, peak %ld MB\n", rc, peak >> 10);
    assert_int_equal(rc, 0);
}

/* ---- 5: a decompression bomb ---- */

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* A PNG whose header says w x h (8-bit RGB); its image data is one empty stored block:
 * the guard must refuse it from the header, before any decoder allocates w x h. */
static void write_png_header(const char *path, uint32_t w, uint32_t h)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    unsigned char ihdr[25] = { 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    put32(ihdr + 8, w);
    put32(ihdr + 12, h);
    ihdr[16] = 8;    /* bit depth */
    ihdr[17] = 2;    /* RGB */
    /* CRC over type and data: zlib's crc32, computed here (no zlib needed) */
    uint32_t crc = 0xffffffffu;
    for (int i = 4; i < 21; i++) {
        crc ^= ihdr[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    put32(ihdr + 21, crc ^ 0xffffffffu);
    static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(sig, 1, sizeof sig, f);
    fwrite(ihdr, 1, sizeof ihdr, f);
    fwrite(iend, 1, sizeof iend, f);
    assert_int_equal(fclose(f), 0);
}

static void test_png_bomb_refused(void **state)
{
    (void)state;
    char png[256], d[256], pd[300];
    at(png, sizeof png, "bomb.png");
    write_png_header(png, 30000, 30000);
    assert_int_equal(kc("detect '%s'", png), 2);
    assert_one_error_line("30000x30000");
    assert_int_equal(kc("record --input '%s' --sgf '%s/b.sgf'", png, tmp), 2);
    assert_one_error_line("30000x30000");
    assert_int_equal(kc("devices --probe '%s'", png), 2);
    assert_one_error_line("30000x30000");
    /* in a folder: the frame is refused, the run goes on (and finds no board) */
    at(d, sizeof d, "bombs");
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(pd, sizeof pd, "%s/f0.png", d);
    write_png_header(pd, 30000, 30000);
    snprintf(pd, sizeof pd, "%s/f1.ppm", d);
    write_grey(pd, 64, 48);
    int rc = kc("record --input '%s' --sgf '%s/b.sgf'", d, tmp);
    assert_int_equal(rc, 1);
    char *err = text_of("err", NULL);
    assert_non_null(err);
    assert_non_null(strstr(err, "30000x30000"));
    assert_null(strstr(err, "WARN"));
    free(err);
}

/* ---- 11: impossible lens values ---- */

static void test_impossible_lens_refused(void **state)
{
    (void)state;
    char prof[256], img[256];
    at(prof, sizeof prof, "lens.json");
    at(img, sizeof img, "grey.ppm");
    write_grey(img, 640, 480);
    static const char *const lenses[] = {
        "\"fx\":1e-300,\"fy\":500,\"cx\":320,\"cy\":240",
        "\"fx\":500,\"fy\":500,\"cx\":1e9,\"cy\":240",
        "\"fx\":500,\"fy\":-500,\"cx\":320,\"cy\":240",
    };
    for (size_t i = 0; i < sizeof lenses / sizeof lenses[0]; i++) {
        char text[1024];
        int n = snprintf(text, sizeof text,
                         "{\"kifucam_profile\":1,\"image\":[640,480],\"size\":9,"
                         "\"corners\":[[100,100],[540,100],[540,380],[100,380]],"
                         "\"rotate\":0,\"black_side\":\"bottom\",\"lens\":{%s,"
                         "\"dist\":[0,0,0,0,0],\"rms\":0.3}}\n", lenses[i]);
        write_file(prof, text, (size_t)n);
        int rc = kc("detect '%s' --calib '%s'", img, prof);
        if (rc != 2)
            fail_msg("detect --calib with lens {%s} exited %d, not 2", lenses[i], rc);
        assert_one_error_line("lens");
    }
}

/* ---- design gap: names in invalid UTF-8 ---- */

static void test_invalid_utf8_name_refused(void **state)
{
    (void)state;
    char img[256];
    at(img, sizeof img, "grey.ppm");
    write_grey(img, 64, 48);
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s/u.sgf' --black \"$(printf 'Lee\\377')\"",
                        img, tmp), 2);
    assert_one_error_line("--black");
    char p[256];
    assert_int_not_equal(access(at(p, sizeof p, "u.sgf"), F_OK), 0);
    /* nor cut: a name longer than the record holds */
    char longname[200];
    memset(longname, 'n', 150);
    longname[150] = '\0';
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s/u.sgf' --white '%s'", img,
                        tmp, longname), 2);
    assert_one_error_line("--white");
    /* a good one, in Korean, goes into the record whole */
    assert_int_equal(kc("record --input '%s' --size 9 --sgf '%s/u.sgf' --black '이창호'", img,
                        tmp), 1);
    char *rec = text_of("u.sgf", NULL);
    assert_non_null(rec);
    assert_non_null(strstr(rec, "PB[이창호]"));
    free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_collection_refused),
        cmocka_unit_test(test_resume_variation_refused),
        cmocka_unit_test(test_resume_illegal_refused),
        cmocka_unit_test(test_resume_failed_run_keeps_record),
        cmocka_unit_test(test_symlink_at_tmp_not_followed),
        cmocka_unit_test(test_picture_through_symlink_not_followed),
        cmocka_unit_test(test_long_sgf_path_whole),
        cmocka_unit_test(test_closed_stdout_keeps_recording),
        cmocka_unit_test(test_input_folder_deleted),
        cmocka_unit_test(test_score_illegal_exit_1),
        cmocka_unit_test(test_sgf_size_cap),
        cmocka_unit_test(test_png_bomb_refused),
        cmocka_unit_test(test_impossible_lens_refused),
        cmocka_unit_test(test_invalid_utf8_name_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
