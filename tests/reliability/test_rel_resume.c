/* test_rel_resume.c: SIGKILL in the middle of a recording, then `kifucam record --resume`:
 * no move lost.
 *
 * The footage generator renders the first moves of samples/games/demo.sgf into a temporary
 * folder; `kifucam record` (KIFUCAM_BIN) records it and is killed with SIGKILL once the
 * record on disk holds KILL_AT moves. Every time the record is read while the recorder
 * runs, and after the kill, it must be a valid SGF whose moves are the source's first
 * moves (up to one of the board's 8 symmetries: without a calibration the recorder cannot
 * tell which side is Black's) and hold every move announced on stdout. Then the game is
 * resumed (`--resume FILE --input REST --start-frame 0`) on the frames after the last
 * recorded move's frame (its KF[] property, whose first field is the frame number): a
 * folder of symlinks to the remaining frames, footage that goes on in another source.
 * The final record must be the source move for move. Then again from the killed record
 * on the whole footage with no --start-frame: it picks up after that KF[] by itself.
 *
 * 640x360: at 320x240 and 480x270 the recorder finds no board in the generated footage.
 */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"

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

#include "rules/sgf.h"
#include "rules/sgf_game.h"

#define MOVES 12       /* moves of demo.sgf rendered */
#define KILL_AT 8      /* SIGKILL once the record on disk has this many moves */
#define MAXM 64

typedef struct mv {
    int color;         /* 1 black, 2 white */
    int x, y;          /* -1,-1: a pass */
} mv_t;

typedef struct rec {
    int ok;            /* parsed and replayed with no illegal move */
    int n;
    mv_t m[MAXM];
    long last_frame;   /* KF[] frame of the last move, -1 when absent */
    long frame[MAXM];  /* KF[] frame of each move, -1 when absent */
} rec_t;

/* Read the main line of an SGF file into *r (r->ok = 0 when it does not parse). */
static void read_record(const char *path, rec_t *r)
{
    memset(r, 0, sizeof *r);
    r->last_frame = -1;
    sgf_collection_t *c = NULL;
    if (sgf_parse_file(path, NULL, &c, NULL) != 0)
        return;
    sgf_replay_t rp;
    int rc = sgf_replay(c->games[0], NULL, &rp, NULL);
    if (rc != 0) {
        sgf_collection_destroy(c);
        return;
    }
    r->ok = rp.nillegal == 0;
    sgf_replay_fini(&rp);
    for (const sgf_node_t *nd = c->games[0]; nd; nd = nd->child) {
        const char *b = sgf_node_value(nd, "B"), *w = sgf_node_value(nd, "W");
        const char *v = b ? b : w;
        if (!v || r->n >= MAXM)
            continue;
        mv_t *m = &r->m[r->n++];
        m->color = b ? 1 : 2;
        if (strlen(v) == 2 && strcmp(v, "tt")) {
            m->x = v[0] - 'a';
            m->y = v[1] - 'a';
        } else {
            m->x = m->y = -1;
        }
        const char *kf = sgf_node_value(nd, "KF");
        r->last_frame = kf ? strtol(kf, NULL, 10) : -1;
        r->frame[r->n - 1] = r->last_frame;
    }
    sgf_collection_destroy(c);
}

/* Symmetry k (0..7) of point (x, y) on a size-S board. */
static void sym(int k, int S, int x, int y, int *ox, int *oy)
{
    int a = x, b = y;
    if (k & 1)
        a = S - 1 - a;
    if (k & 2)
        b = S - 1 - b;
    if (k & 4) {
        int t = a;
        a = b;
        b = t;
    }
    *ox = a;
    *oy = b;
}

/* The symmetry under which got's moves are src's first got->n moves, or -1. */
static int match_prefix(const rec_t *src, const rec_t *got)
{
    if (got->n > src->n)
        return -1;
    for (int k = 0; k < 8; k++) {
        int ok = 1;
        for (int i = 0; i < got->n && ok; i++) {
            const mv_t *s = &src->m[i], *g = &got->m[i];
            int x = -1, y = -1;
            if (s->x >= 0)
                sym(k, 19, s->x, s->y, &x, &y);
            ok = s->color == g->color && x == g->x && y == g->y;
        }
        if (ok)
            return k;
    }
    return -1;
}

/* Copy file from to to. 0 or -1. */
static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
    char buf[4096];
    size_t n;
    int rc = a && b ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, a)) > 0)
        rc = fwrite(buf, 1, n, b) == n ? 0 : -1;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        rc = -1;
    return rc;
}

/* fork + exec argv with stdout/stderr to files; returns the pid. */
static pid_t spawn(char *const argv[], const char *out, const char *err)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        close(fo);
        close(fe);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_exit(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static void dump(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        print_message("  %s: %s", path, line);
    fclose(f);
}

/* Lines of a file that contain needle. */
static int count_lines(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[4096];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void test_kill_then_resume(void **state)
{
    (void)state;
    const char *bin = getenv("KIFUCAM_BIN");
    if (!bin || access(bin, X_OK)) {
        print_message("SKIP: KIFUCAM_BIN is not set\n");
        skip();
    }
    char src_path[4096];
    snprintf(src_path, sizeof src_path, "%s/samples/games/demo.sgf", kc_source_dir());
    rec_t *src = calloc(3, sizeof *src);
    assert_non_null(src);
    rec_t *got = src + 1, *fin = src + 2;
    read_record(src_path, src);
    assert_true(src->ok);
    assert_true(src->n >= MOVES);
    src->n = MOVES;

    char tmp[] = "/tmp/kc_resume_XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char frames[4200], rest[4200], sgf[4200], out1[4200], err1[4200], out2[4200], err2[4200];
    snprintf(frames, sizeof frames, "%s/frames", tmp);
    snprintf(rest, sizeof rest, "%s/rest", tmp);
    snprintf(sgf, sizeof sgf, "%s/game.sgf", tmp);
    snprintf(out1, sizeof out1, "%s/record1.out", tmp);
    snprintf(err1, sizeof err1, "%s/record1.err", tmp);
    snprintf(out2, sizeof out2, "%s/record2.out", tmp);
    snprintf(err2, sizeof err2, "%s/record2.err", tmp);

    /* 1. the footage */
    char moves[16];
    snprintf(moves, sizeof moves, "%d", MOVES);
    char *rargv[] = { (char *)bin, "render", src_path, "--out", frames, "--moves", moves,
                      "--size", "640x360", "--pace", "0.1", "--seed", "1", NULL };
    char rout[4200], rerr[4200];
    snprintf(rout, sizeof rout, "%s/render.out", tmp);
    snprintf(rerr, sizeof rerr, "%s/render.err", tmp);
    assert_int_equal(wait_exit(spawn(rargv, rout, rerr)), 0);

    /* 2. record, reading the record on disk as it grows; SIGKILL at KILL_AT moves */
    char *a1[] = { (char *)bin, "record", "--input", frames, "--sgf", sgf, "--format", "json",
                   NULL };
    pid_t pid = spawn(a1, out1, err1);
    int reads = 0, exited = 0, st = 0;
    for (;;) {
        struct stat sb;
        if (stat(sgf, &sb) == 0) {
            read_record(sgf, got);
            reads++;
            if (!got->ok || match_prefix(src, got) < 0) {
                kill(pid, SIGKILL);
                waitpid(pid, &st, 0);
                dump(sgf);
                fail_msg("the record on disk is not a valid prefix of the game (read %d)", reads);
            }
            if (got->n >= KILL_AT)
                break;
        }
        if (waitpid(pid, &st, WNOHANG) == pid) {
            exited = 1;
            break;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    if (exited) {
        dump(err1);
        fail_msg("the recorder ended (status %d) before %d moves were on disk", st, KILL_AT);
    }
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(wait_exit(pid), -SIGKILL);

    /* 3. after the kill: a valid record, every move announced on stdout is in it */
    read_record(sgf, got);
    int announced = count_lines(out1, "\"event\":\"move\"");
    print_message("killed after %d reads of the record: %d moves on disk, %d announced, "
                  "last move at frame %ld\n", reads, got->n, announced, got->last_frame);
    assert_true(got->ok);
    assert_true(got->n >= KILL_AT);
    assert_true(got->n < MOVES);
    assert_true(got->n >= announced);
    int k1 = match_prefix(src, got);
    assert_true(k1 >= 0);
    assert_true(got->last_frame > 0);

    char killed[4300];
    snprintf(killed, sizeof killed, "%s/killed.sgf", tmp);
    assert_int_equal(copy_file(sgf, killed), 0);

    /* 4. the rest of the footage: the frames after the last recorded move's frame */
    assert_int_equal(mkdir(rest, 0755), 0);
    DIR *d = opendir(frames);
    assert_non_null(d);
    struct dirent *e;
    int nrest = 0;
    while ((e = readdir(d))) {
        long fr;
        char ext[8];
        if (sscanf(e->d_name, "frame_%ld.%7s", &fr, ext) != 2 || fr <= got->last_frame)
            continue;
        char from[4600], to[4600];
        snprintf(from, sizeof from, "%s/%s", frames, e->d_name);
        snprintf(to, sizeof to, "%s/%s", rest, e->d_name);
        assert_int_equal(symlink(from, to), 0);
        nrest++;
    }
    closedir(d);
    assert_true(nrest > 0);

    /* 5. resume on the rest: another source, from its first frame */
    char *a2[] = { (char *)bin, "record", "--resume", sgf, "--input", rest, "--start-frame", "0",
                   "--format", "json", NULL };
    int rc = wait_exit(spawn(a2, out2, err2));
    if (rc != 0) {
        dump(err2);
        dump(out2);
    }
    assert_int_equal(rc, 0);
    read_record(sgf, fin);
    print_message("resumed on %d frames: %d moves in the final record\n", nrest, fin->n);
    if (fin->n != MOVES || match_prefix(src, fin) != k1)
        dump(sgf);
    assert_true(fin->ok);
    assert_int_equal(fin->n, MOVES);
    assert_int_equal(match_prefix(src, fin), k1);

    /* the resumed moves' frames are the rest folder's own (its frame i is the
     * footage's last + 1 + i), in order */
    for (int i = got->n; i < fin->n; i++) {
        print_message("move %d: frame %ld\n", i + 1, fin->frame[i]);
        assert_true(fin->frame[i] >= 0);
        assert_true(i == got->n || fin->frame[i] >= fin->frame[i - 1]);
    }

    /* 6. again from the killed record, on the whole footage with no --start-frame: it
     * picks up after the last KF[] by itself, the source's own frame numbers, the same
     * moves at the same frames */
    assert_int_equal(copy_file(killed, sgf), 0);
    char *a3[] = { (char *)bin, "record", "--resume", sgf, "--input", frames,
                   "--format", "json", NULL };
    rc = wait_exit(spawn(a3, out2, err2));
    if (rc != 0) {
        dump(err2);
        dump(out2);
    }
    assert_int_equal(rc, 0);
    rec_t *fin2 = calloc(1, sizeof *fin2);
    assert_non_null(fin2);
    read_record(sgf, fin2);
    print_message("resumed on the whole footage: %d moves\n", fin2->n);
    assert_true(fin2->ok);
    assert_int_equal(fin2->n, MOVES);
    assert_int_equal(match_prefix(src, fin2), k1);
    /* (within the 3 frames between two looked at: --analyse-fps 10 of 30 fps footage
     * counts its steps from the first frame handed on) */
    for (int i = got->n; i < fin2->n; i++) {
        assert_true(fin2->frame[i] > got->last_frame);
        assert_true(labs(fin2->frame[i] - (fin->frame[i] + got->last_frame + 1)) <= 3);
    }
    free(fin2);

    rm_tree(tmp);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill_then_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
