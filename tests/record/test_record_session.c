/* test_record_session.c: a recording session as players meet it (issue 21), end to end
 * on footage rendered from samples/games/demo.sgf (kifucam render) into a temporary
 * folder, driving the kifucam binary ($KIFUCAM_BIN):
 *  - Ctrl-C (SIGINT) in the middle of a folder prints the one command that resumes; that
 *    command, run as printed, picks up at the frame after the record's last KF[] and ends
 *    with the game the whole run records, the same moves at the same frames;
 *  - a resume whose first board is not the record's position (--start-frame 0: an empty
 *    board against 8 moves) is refused, exit 2, one line, the file byte for byte the same;
 *  - a 4-stone handicap game recorded without --handicap: the stones on the board before
 *    move 1 are taken as the handicap (HA[4], AB[] on the star points, White first) and
 *    the moves are the source's (up to the board's symmetry: no calibration); with
 *    --handicap 0 they are not taken, and the line says which option takes them;
 *  - the end of a file with --serve: the pages stay up on the result (GET /state.json:
 *    phase over, the result) until SIGINT, which ends it with exit 0; with --linger 1 it
 *    stops by itself about a second after the footage's end;
 *  - --start-frame N seeks: with --realtime, 3 s of an 18 s footage take about 3 s, and
 *    the board is found on frame N itself;
 *  - footage that ends after Black's end signal, before White's (a played-out game cut
 *    there, its last frame held 2 s): Black's pass is written, exit 1, one line saying the
 *    game's end was not recorded and how to finish it (it said nothing, exit 0); served,
 *    the overlay's messages (for viewers) say that Black signalled the end and whose
 *    signal is awaited.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "web/http_client.h"

#define MOVES 12       /* moves of demo.sgf rendered */
#define STOP_AT 8      /* SIGINT once the record on disk has this many moves */
#define MAXM 64

static char tmp[64];
static char out[1 << 16], err[1 << 14];

static int setup(void **state)
{
    (void)state;
    strcpy(tmp, "/tmp/kc_sess_XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* A shell command's exit code; out and err hold its streams (tmp/out, tmp/err). */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192], body[7000], p[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s >'%s/out' 2>'%s/err'", body, tmp, tmp);
    int rc = kc_run(cmd);
    snprintf(p, sizeof p, "%s/out", tmp);
    kc_read_into(p, out, sizeof out);
    snprintf(p, sizeof p, "%s/err", tmp);
    kc_read_into(p, err, sizeof err);
    return rc;
}

/* The footage: the first MOVES moves of demo.sgf at 640x360 into tmp/NAME (once). */
static void render(const char *b, const char *name)
{
    char d[128];
    snprintf(d, sizeof d, "%s/%s/truth.txt", tmp, name);
    if (access(d, F_OK) == 0)
        return;
    assert_int_equal(sh("'%s' render '%s/samples/games/demo.sgf' --out '%s/%s' --moves %d "
                        "--size 640x360 --pace 0.1 --seed 1", b, kc_source_dir(), tmp, name, MOVES),
                     0);
}

typedef struct moves {
    int n;
    char pt[MAXM][3];
    long frame[MAXM];   /* KF[] first field, -1 when absent */
} moves_t;

/* The moves of an SGF record (B[..] / W[..] and their KF[]), read as text. */
static void read_moves(const char *path, moves_t *m)
{
    memset(m, 0, sizeof *m);
    char *t = kc_slurp(path, NULL);
    if (!t)
        return;
    for (const char *p = t; (p = strchr(p, ';')) && m->n < MAXM; p++) {
        const char *b = p + 1;
        if ((b[0] != 'B' && b[0] != 'W') || b[1] != '[')
            continue;
        snprintf(m->pt[m->n], 3, "%.2s", b + 2);
        const char *kf = strstr(b, "KF[");
        const char *next = strchr(b, ';');
        m->frame[m->n] = kf && (!next || kf < next) ? strtol(kf + 3, NULL, 10) : -1;
        m->n++;
    }
    free(t);
}

static int wait_exit(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

/* Record tmp/foot into SGF, SIGINT once the record holds STOP_AT moves; its exit code,
 * stdout in out. */
static int record_until(const char *b, const char *sgf)
{
    char o[128], e[128];
    snprintf(o, sizeof o, "%s/out", tmp);
    snprintf(e, sizeof e, "%s/err", tmp);
    char in[128];
    snprintf(in, sizeof in, "%s/foot", tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        execl(b, b, "record", "--input", in, "--sgf", sgf, (char *)NULL);
        _exit(127);
    }
    moves_t *m = malloc(sizeof *m);
    assert_non_null(m);
    int st, done = 0;
    for (;;) {
        read_moves(sgf, m);
        if (m->n >= STOP_AT)
            break;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            done = 1;
            break;
        }
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    free(m);
    if (done)
        fail_msg("the recorder ended before %d moves were on disk", STOP_AT);
    assert_int_equal(kill(pid, SIGINT), 0);
    int rc = wait_exit(pid);
    kc_read_into(o, out, sizeof out);
    kc_read_into(e, err, sizeof err);
    return rc;
}

static void test_interrupt_then_resume_as_printed(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    render(b, "foot");
    char whole[128], sgf[128];
    snprintf(whole, sizeof whole, "%s/whole.sgf", tmp);
    snprintf(sgf, sizeof sgf, "%s/game.sgf", tmp);
    /* the whole footage in one run: the reference */
    assert_int_equal(sh("'%s' record --input '%s/foot' --sgf '%s'", b, tmp, whole), 0);
    moves_t *ref = calloc(3, sizeof *ref), *got = ref + 1, *fin = ref + 2;
    assert_non_null(ref);
    read_moves(whole, ref);
    assert_int_equal(ref->n, MOVES);

    /* Ctrl-C at STOP_AT moves: one line says the command that resumes */
    int rc = record_until(b, sgf);
    print_message("interrupted: exit %d\n%s", rc, out);
    assert_int_equal(rc, 0);
    read_moves(sgf, got);
    assert_true(got->n >= STOP_AT && got->n < MOVES);
    const char *hint = strstr(out, "resume with: ");
    assert_non_null(hint);
    hint += strlen("resume with: ");
    char cmd[1024];
    size_t len = strcspn(hint, "\n");
    assert_true(len < sizeof cmd);
    memcpy(cmd, hint, len);
    cmd[len] = '\0';
    char want[512];
    snprintf(want, sizeof want, "kifucam record --input %s/foot --resume %s", tmp, sgf);
    assert_string_equal(cmd, want);

    /* run as printed (kifucam is $KIFUCAM_BIN): it starts after the last KF[] */
    rc = sh("'%s'%s", b, cmd + strlen("kifucam"));
    print_message("resumed: exit %d\n%s%s", rc, out, err);
    assert_int_equal(rc, 0);
    char from[64];
    snprintf(from, sizeof from, "the footage from frame %ld,", got->frame[got->n - 1] + 1);
    assert_non_null(strstr(out, from));
    read_moves(sgf, fin);
    assert_int_equal(fin->n, MOVES);
    for (int i = 0; i < MOVES; i++) {
        assert_string_equal(fin->pt[i], ref->pt[i]);
        /* the source's own frame numbers (within the 3 frames between two looked at) */
        if (labs(fin->frame[i] - ref->frame[i]) > 3)
            fail_msg("move %d at frame %ld, %ld in the whole run", i + 1, fin->frame[i],
                     ref->frame[i]);
    }
    free(ref);
}

static void test_resume_elsewhere_refused(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    render(b, "foot");
    char sgf[128], cut[128];
    snprintf(sgf, sizeof sgf, "%s/eight.sgf", tmp);
    snprintf(cut, sizeof cut, "%s/cut", tmp);
    /* a record of the first 8 moves: the footage cut after move 8's frame */
    moves_t *m = calloc(1, sizeof *m);
    assert_non_null(m);
    char whole[128];
    snprintf(whole, sizeof whole, "%s/whole8.sgf", tmp);
    assert_int_equal(sh("'%s' record --input '%s/foot' --sgf '%s'", b, tmp, whole), 0);
    read_moves(whole, m);
    assert_int_equal(m->n, MOVES);
    long last = m->frame[STOP_AT - 1], next = m->frame[STOP_AT];
    assert_true(last > 0 && next > last);
    assert_int_equal(mkdir(cut, 0755), 0);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/foot", tmp);
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        long fr;
        char ext[8], from[512], to[512];
        if (sscanf(e->d_name, "frame_%ld.%7s", &fr, ext) != 2 || fr >= (last + next) / 2)
            continue;
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        snprintf(to, sizeof to, "%s/%s", cut, e->d_name);
        assert_int_equal(symlink(from, to), 0);
    }
    closedir(d);
    assert_int_equal(sh("'%s' record --input '%s' --sgf '%s'", b, cut, sgf), 0);
    read_moves(sgf, m);
    assert_int_equal(m->n, STOP_AT);
    size_t n0 = 0, n1 = 0;
    char *before = kc_slurp(sgf, &n0);
    assert_non_null(before);

    /* from frame 0: an empty board against 8 moves */
    int rc = sh("'%s' record --input '%s/foot' --resume '%s' --start-frame 0", b, tmp, sgf);
    print_message("resumed at frame 0: exit %d\n%s%s", rc, out, err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "cannot resume"));
    assert_non_null(strstr(err, "--start-frame"));
    assert_true(strlen(err) > 0 && strchr(err, '\n') == err + strlen(err) - 1);   /* one line */
    char *after = kc_slurp(sgf, &n1);
    assert_non_null(after);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
    free(m);
}

/* Symmetry k (0..7) of SGF point "xy" on a 19x19 board, into out (3 bytes). */
static void sym_pt(int k, const char *p, char out[3])
{
    int x = p[0] - 'a', y = p[1] - 'a';
    if (k & 1)
        x = 18 - x;
    if (k & 2)
        y = 18 - y;
    if (k & 4) {
        int t = x;
        x = y;
        y = t;
    }
    out[0] = (char)('a' + x);
    out[1] = (char)('a' + y);
    out[2] = '\0';
}

static void test_handicap_stones_taken(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    static const char *const src[] = { "qf", "nc", "fc", "cf", "jj", "jd" };
    char game[128], sgf[128];
    snprintf(game, sizeof game, "%s/hc4.sgf", tmp);
    snprintf(sgf, sizeof sgf, "%s/hc4-rec.sgf", tmp);
    FILE *f = fopen(game, "w");
    assert_non_null(f);
    fprintf(f, "(;GM[1]FF[4]SZ[19]KM[7.5]HA[4]AB[dd][pd][dp][pp]");
    for (int i = 0; i < 6; i++)
        fprintf(f, ";%c[%s]", i % 2 ? 'B' : 'W', src[i]);
    fprintf(f, ")\n");
    fclose(f);
    assert_int_equal(sh("'%s' render '%s' --out '%s/hc4' --size 640x360 --pace 0.1 --seed 1", b,
                        game, tmp), 0);
    int rc = sh("'%s' record --input '%s/hc4' --sgf '%s'", b, tmp, sgf);
    print_message("exit %d\n%s%s", rc, out, err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "4 black stones on the star points before move 1 (D16 Q16 D4 "
                                "Q4): taken as a 4-stone handicap; White plays first"));
    assert_null(strstr(out, "unexplained"));
    char *rec = kc_slurp(sgf, NULL);
    assert_non_null(rec);
    assert_non_null(strstr(rec, "HA[4]"));
    assert_non_null(strstr(rec, "AB[dd][pd][dp][pp]"));
    free(rec);
    moves_t *m = calloc(1, sizeof *m);
    assert_non_null(m);
    read_moves(sgf, m);
    assert_int_equal(m->n, 6);
    int k = 0, ok = 0;
    for (; k < 8 && !ok; k++) {
        ok = 1;
        for (int i = 0; i < 6 && ok; i++) {
            char q[3];
            sym_pt(k, src[i], q);
            ok = !strcmp(q, m->pt[i]);
        }
    }
    assert_true(ok);
    char *t = kc_slurp(sgf, NULL);
    assert_non_null(strstr(t, ";W[") && strstr(t, ";W[") < strstr(t, ";B[") ? t : NULL);
    free(t);
    /* --handicap 0: none taken, said plainly with the option */
    rc = sh("'%s' record --input '%s/hc4' --sgf '%s' --handicap 0", b, tmp, sgf);
    print_message("--handicap 0: exit %d\n%s", rc, out);
    assert_null(strstr(out, "taken as"));
    assert_non_null(strstr(out, "a 4-stone handicap, not taken"));
    assert_non_null(strstr(out, "give --handicap 4"));
    free(m);
}

static void nap_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* kifucam record --serve on tmp/INPUT with extra options, in the background; stdout to
 * tmp/serve.out. */
static pid_t serve_run(const char *b, const char *input, const char *extra)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "exec '%s' record --input '%s/%s' --sgf '%s/%s.sgf' --serve "
             "127.0.0.1:0 %s >'%s/serve.out' 2>'%s/serve.err'", b, tmp, input, tmp, input, extra,
             tmp, tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Wait (at most 120 s) until tmp/serve.out holds needle; its port (0 when not printed). */
static int serve_wait(pid_t pid, const char *needle)
{
    char p[128];
    snprintf(p, sizeof p, "%s/serve.out", tmp);
    for (int i = 0; i < 2400; i++) {
        kc_read_into(p, out, sizeof out);
        const char *h = strstr(out, "http://127.0.0.1:");
        if (strstr(out, needle))
            return h ? atoi(h + 17) : 0;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("the recorder ended (status %d) before printing '%s':\n%s", st, needle, out);
        nap_ms(50);
    }
    kill(pid, SIGKILL);
    fail_msg("no '%s' in 120 s:\n%s", needle, out);
    return 0;
}

static void test_serve_stays_on_result(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(sh("'%s' render '%s/samples/games/demo.sgf' --out '%s/rsg' --size 640x360 "
                        "--seed 2 --fps 15 --pace 0.3 --moves 6 --end resign", b, kc_source_dir(),
                        tmp), 0);
    pid_t pid = serve_run(b, "rsg", "");
    int port = serve_wait(pid, "record: ");   /* the footage's end: the record is done */
    assert_true(port > 0);
    print_message("%s", out);
    assert_non_null(strstr(out, "result"));
    nap_ms(1500);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, WNOHANG), 0);   /* still serving */
    hc_resp_t r;
    memset(&r, 0, sizeof r);
    int rc = hc_request(port, "GET", "/state.json", NULL, NULL, &r);
    int status = r.status;
    char *body = r.body ? strdup(r.body) : NULL;
    hc_resp_free(&r);
    assert_int_equal(rc, 0);
    assert_int_equal(status, 200);
    assert_non_null(body);
    assert_non_null(strstr(body, "\"phase\":\"over\""));
    assert_true(strstr(body, "\"result\":\"B+R\"") || strstr(body, "\"result\":\"W+R\""));
    free(body);
    assert_non_null(strstr(out, "the pages stay up on the result until Ctrl-C"));
    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(wait_exit(pid), 0);

    /* --linger 1: it stops by itself */
    pid = serve_run(b, "rsg", "--linger 1");
    serve_wait(pid, "record: ");
    double t0 = mono_s();
    assert_int_equal(wait_exit(pid), 0);
    double dt = mono_s() - t0;
    print_message("--linger 1: exited %.2f s after the footage's end\n", dt);
    assert_true(dt > 0.5 && dt < 10);
    /* --linger 0: at once, as before */
    pid = serve_run(b, "rsg", "--linger 0");
    serve_wait(pid, "record: ");
    assert_int_equal(wait_exit(pid), 0);
}

static void test_start_frame_seeks(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    render(b, "foot");
    double t0 = mono_s();
    int rc = sh("'%s' record --input '%s/foot' --sgf '%s/late.sgf' --realtime --start-frame 450",
                b, tmp, tmp);
    double dt = mono_s() - t0;
    print_message("exit %d in %.2f s\n%s%s", rc, dt, out, err);
    assert_int_equal(rc, 0);
    /* 96 frames after 450 at 30 fps: 3.2 s paced; reading past 450 frames paced: 15 s more */
    assert_true(dt < 9.0);
    assert_non_null(strstr(out, "15.00s  board: 19x19 found"));
    assert_null(strstr(err, "frame skipped"));
}

static void test_end_not_lost_silently(void **state)
{
    (void)state;
    KC_REQUIRE_BIN(b);
    assert_int_equal(sh("'%s' render '%s/samples/games/demo.sgf' --out '%s/endp' --size 640x360 "
                        "--seed 2 --fps 15 --pace 0.3 --moves 6 --end pass", b, kc_source_dir(),
                        tmp), 0);
    /* the frame White's hand comes in after Black's signal: the cut */
    char p[256];
    snprintf(p, sizeof p, "%s/endp/truth.txt", tmp);
    char *truth = kc_slurp(p, NULL);
    assert_non_null(truth);
    const char *sig = strstr(truth, " signal color=W");   /* Black's end signal: a white stone */
    assert_non_null(sig);
    const char *in = strstr(sig, " hand_in color=W");
    assert_non_null(in);
    while (in > truth && in[-1] != '\n')
        in--;
    long cut = -1;
    assert_int_equal(sscanf(in, "event %ld", &cut), 1);
    free(truth);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/endcut", tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    for (long i = 0; i < cut + 30; i++) {   /* the last frame held 2 s at 15 fps */
        char from[256], to[256];
        snprintf(from, sizeof from, "%s/endp/frame_%06ld.jpg", tmp, i < cut ? i : cut - 1);
        snprintf(to, sizeof to, "%s/frame_%06ld.jpg", dir, i);
        assert_int_equal(symlink(from, to), 0);
    }
    char sgf[128];
    snprintf(sgf, sizeof sgf, "%s/endcut.sgf", tmp);
    int rc = sh("'%s' record --input '%s' --fps 15 --sgf '%s'", b, dir, sgf);
    print_message("cut at frame %ld: exit %d\n%s%s", cut, rc, out, err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "the game's end was not recorded: Black's end signal was seen"));
    char want[256];
    snprintf(want, sizeof want, "`kifucam score %s`", sgf);
    assert_non_null(strstr(err, want));
    assert_true(strchr(err, '\n') == err + strlen(err) - 1);   /* one line */
    moves_t *m = calloc(1, sizeof *m);
    assert_non_null(m);
    read_moves(sgf, m);
    assert_int_equal(m->n, 7);
    char *t = kc_slurp(sgf, NULL);
    assert_non_null(t);
    assert_non_null(strstr(t, ";B[])"));   /* Black's pass, the last node */
    free(t);
    free(m);

    /* served: the overlay's messages (viewers') said it while waiting, and still do */
    assert_int_equal(unlink(sgf), 0);
    pid_t pid = serve_run(b, "endcut", "--fps 15 --linger 60");
    int port = serve_wait(pid, "the pages stay up");
    assert_true(port > 0);
    hc_resp_t r;
    memset(&r, 0, sizeof r);
    assert_int_equal(hc_request(port, "GET", "/state.json", NULL, NULL, &r), 0);
    char *body = r.body ? strdup(r.body) : NULL;
    hc_resp_free(&r);
    assert_non_null(body);
    print_message("state: %.400s\n", body);
    assert_non_null(strstr(body, "{\"level\":\"info\",\"audience\":\"viewer\",\"text\":\"Black "
                                 "signals the end: waiting for White's end signal"));
    free(body);
    assert_int_equal(kill(pid, SIGINT), 0);
    wait_exit(pid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupt_then_resume_as_printed),
        cmocka_unit_test(test_resume_elsewhere_refused),
        cmocka_unit_test(test_handicap_stones_taken),
        cmocka_unit_test(test_serve_stays_on_result),
        cmocka_unit_test(test_start_frame_seeks),
        cmocka_unit_test(test_end_not_lost_silently),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
