/* test_station_record.c: the safe record: SGF text with the game's settings, comments
 * and frames, read back the same; the atomic rewrite always leaves a valid SGF and no
 * temporary file; a folder that cannot be written is reported, the last good record
 * stays and the game goes on in memory; a game resumes from its record. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rules/sgf.h"
#include "station/station.h"
#include "stn_testutil.h"
#include "testutil.h"

static char g_dir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/kc-station-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' 2>/dev/null; rm -rf '%s' '%s.moved'", g_dir,
             g_dir, g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A short game with a pass and comments, through a tracker. */
static go_game_t *sample_game(stn_track_t **k)
{
    go_rules_t r;
    go_rules_preset("japanese", &r);
    r.komi2 = 13;
    go_game_t *g = go_game_create(9, &r);
    assert_non_null(g);
    assert_int_equal(go_game_handicap(g, 2), GO_OK);
    *k = stn_track_create(g, NULL);
    assert_non_null(*k);
    const char *mv[] = { "ee", "dd", "ef" };
    for (int i = 0; i < 3; i++) {
        go_color_t c = go_game_turn(g);
        assert_int_equal(go_game_play(g, c, st_pt(9, mv[i])), GO_OK);
    }
    assert_int_equal(go_game_pass(g, go_game_turn(g), false), GO_OK);
    assert_int_equal(stn_track_sync(*k), GO_OK);
    assert_int_equal(stn_track_set_info(*k, 1, 1234, 41.5, 41.25), GO_OK);
    assert_int_equal(stn_track_note(*k, 1, "a comment with ] and \\ in it"), GO_OK);
    assert_int_equal(stn_track_note(*k, 1, "second line"), GO_OK);
    return g;
}

static void test_sgf_round_trip(void **state)
{
    (void)state;
    stn_track_t *k;
    go_game_t *g = sample_game(&k);
    stn_meta_t m;
    stn_meta_init(&m);
    stn_meta_setup_from(&m, g);   /* after the moves: wrong on purpose, fixed below */
    m.nab = m.naw = 0;
    snprintf(m.black, sizeof m.black, "Kuroda");
    snprintf(m.white, sizeof m.white, "Shiraishi");
    snprintf(m.date, sizeof m.date, "2026-11-30");
    m.komi2 = 13;
    m.handicap = 2;
    char *text;
    assert_int_equal(stn_record_sgf(g, &m, k, &text), GO_OK);
    assert_non_null(strstr(text, "SZ[9]"));
    assert_non_null(strstr(text, "KM[6.5]"));
    assert_non_null(strstr(text, "HA[2]"));
    assert_non_null(strstr(text, "PB[Kuroda]"));
    assert_non_null(strstr(text, "DT[2026-11-30]"));
    assert_non_null(strstr(text, "RU[Japanese]"));
    assert_non_null(strstr(text, "KF[1234:41.500:41.250]"));
    stn_loaded_t l;
    assert_int_equal(stn_record_parse(text, strlen(text), NULL, &l, NULL, 0), GO_OK);
    assert_int_equal(l.nmoves, 4);
    assert_int_equal(go_game_move_count(l.game), 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(go_game_move(l.game, i)->kind, go_game_move(g, i)->kind);
        assert_int_equal(go_game_move(l.game, i)->point, go_game_move(g, i)->point);
        assert_int_equal(go_game_move(l.game, i)->color, go_game_move(g, i)->color);
    }
    assert_int_equal(go_game_move(l.game, 0)->color, GO_WHITE);
    assert_int_equal(l.meta.nab, 2);   /* the handicap stones */
    assert_int_equal(l.meta.komi2, 13);
    assert_int_equal(l.meta.handicap, 2);
    assert_string_equal(l.meta.white, "Shiraishi");
    assert_string_equal(l.comments[1], "a comment with ] and \\ in it\nsecond line");
    assert_null(l.comments[0]);
    assert_int_equal(l.frames[1], 1234);
    assert_true(l.times[1] == 41.5 && l.hand_times[1] == 41.25);
    assert_string_equal(go_game_rules(l.game)->name, "japanese");
    stn_loaded_fini(&l);
    free(text);
    /* malformed text is an error, not a crash */
    assert_int_equal(stn_record_parse("(;SZ[9];B[zz", 12, NULL, &l, NULL, 0), GO_EPARSE);
    assert_true(stn_record_parse("(;SZ[9];B[zz])", 14, NULL, &l, NULL, 0) < 0);
    stn_track_destroy(k);
    go_game_destroy(g);
}

static void test_atomic_rewrite(void **state)
{
    (void)state;
    char path[1024], tmp[1100];
    snprintf(path, sizeof path, "%s/game.sgf", g_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    go_rules_t r;
    go_rules_preset("chinese", &r);
    go_game_t *g = go_game_create(9, &r);
    stn_meta_t m;
    stn_meta_init(&m);
    m.komi2 = 15;
    for (int i = 0; i < 20; i++) {
        char *text;
        assert_int_equal(stn_record_sgf(g, &m, NULL, &text), GO_OK);
        int e = 0;
        assert_int_equal(stn_record_write_atomic(path, text, strlen(text), &e), GO_OK);
        /* the file on disk is always a whole, valid record with every move so far */
        stn_loaded_t l;
        assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
        assert_int_equal(l.nmoves, i);
        stn_loaded_fini(&l);
        assert_int_equal(access(tmp, F_OK), -1);
        free(text);
        assert_int_equal(go_game_play(g, go_game_turn(g), GO_PT(i % 9, i / 9)), GO_OK);
    }
    /* a path in a folder that does not exist: an error, nothing written */
    int e = 0;
    char bad[1200];
    snprintf(bad, sizeof bad, "%s/nope/game.sgf", g_dir);
    assert_int_equal(stn_record_write_atomic(bad, "(;)", 3, &e), GO_EIO);
    assert_int_equal(e, ENOENT);
    go_game_destroy(g);
}

/* Make dir unwritable; as root (permissions do not bind) move it away instead.
 * Returns the path the old record can be read at. */
static void block_dir(const char *dir, char *old_record, size_t n)
{
    chmod(dir, 0555);
    char probe[1200];
    snprintf(probe, sizeof probe, "%s/probe", dir);
    FILE *f = fopen(probe, "w");
    if (!f) {
        snprintf(old_record, n, "%s/game.sgf", dir);
        return;
    }
    fclose(f);
    unlink(probe);
    chmod(dir, 0755);
    char moved[1200];
    snprintf(moved, sizeof moved, "%s.moved", dir);
    assert_int_equal(rename(dir, moved), 0);
    snprintf(old_record, n, "%s/game.sgf", moved);
}

static void unblock_dir(const char *dir)
{
    char moved[1200];
    snprintf(moved, sizeof moved, "%s.moved", dir);
    if (access(moved, F_OK) == 0)
        assert_int_equal(rename(moved, dir), 0);
    chmod(dir, 0755);
}

static stn_t *station_in(const char *path, const char *resume)
{
    stn_config_t c;
    stn_config_defaults(&c);
    c.size = 9;
    c.black = "B. Lack";
    c.white = "W. Hite";
    c.date = "2026-11-30";
    c.sgf_path = path;
    c.resume_path = resume;
    int err = 0;
    stn_t *s = stn_create(&c, &err);
    assert_non_null(s);
    return s;
}

static void play_view(stn_t *s, const char *stones, uint64_t frame)
{
    stn_view_t v;
    st_view(&v, stones, frame, frame / 30.0, frame / 30.0 - 0.25);
    assert_true(stn_feed_view(s, &v) >= 0);
}

#define V(r2, r6) ". . . . . . . . .\n. . . . . . . . .\n" r2 "\n" \
                  ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n" r6 "\n" \
                  ". . . . . . . . .\n. . . . . . . . .\n"

static void test_write_failure_keeps_game(void **state)
{
    (void)state;
    char dir[1024], path[1100], old[1300];
    snprintf(dir, sizeof dir, "%s/rec", g_dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/game.sgf", dir);
    stn_t *s = station_in(path, NULL);
    play_view(s, V(". . X . . . . . .", ". . . . . . . . ."), 10);
    assert_int_equal(stn_record_status(s), 0);
    block_dir(dir, old, sizeof old);
    play_view(s, V(". . X . . . . . .", ". . . . . . O . ."), 20);
    int n;
    const stn_event_t *ev = stn_events(s, &n);
    int err_events = 0;
    for (int i = 0; i < n; i++)
        err_events += ev[i].kind == STN_EV_RECORD_ERROR;
    assert_int_equal(err_events, 1);
    assert_int_equal(stn_record_status(s), GO_EIO);
    assert_int_equal(go_game_move_count(stn_game(s)), 2);   /* kept in memory */
    /* the last good record is intact */
    stn_loaded_t l;
    assert_int_equal(stn_record_load(old, NULL, &l, NULL, 0), GO_OK);
    assert_int_equal(l.nmoves, 1);
    stn_loaded_fini(&l);
    /* still failing: reported once only */
    play_view(s, V(". . X . . . X . .", ". . . . . . O . ."), 30);
    ev = stn_events(s, &n);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(ev[i].kind, STN_EV_RECORD_ERROR);
    /* writable again: the next move writes everything */
    unblock_dir(dir);
    play_view(s, V(". . X . . . X . .", ". . O . . . O . ."), 40);
    ev = stn_events(s, &n);
    int ok_events = 0;
    for (int i = 0; i < n; i++)
        ok_events += ev[i].kind == STN_EV_RECORD_OK;
    assert_int_equal(ok_events, 1);
    assert_int_equal(stn_record_status(s), 0);
    assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
    assert_int_equal(l.nmoves, 4);
    stn_loaded_fini(&l);
    stn_destroy(s);
}

static void test_resume(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/resume.sgf", g_dir);
    stn_t *s = station_in(path, NULL);
    play_view(s, V(". . X . . . . . .", ". . . . . . . . ."), 10);
    play_view(s, V(". . X . . . . . .", ". . . . . . O . ."), 20);
    /* a white stone onto Black's cc on Black's turn: Black's move onto an occupied
     * point, void, a pass, a comment in the record */
    play_view(s, V(". . O . . . . . .", ". . . . . . O . ."), 30);
    assert_int_equal(go_game_move_count(stn_game(s)), 3);
    stn_destroy(s);

    char *text = kc_slurp(path, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "PB[B. Lack]"));
    assert_non_null(strstr(text, "void"));
    free(text);

    s = station_in(path, path);
    const go_game_t *g = stn_game(s);
    assert_int_equal(go_game_move_count(g), 3);
    assert_int_equal(go_game_move(g, 2)->kind, GO_MOVE_PASS);
    assert_int_equal(go_game_turn(g), GO_WHITE);
    assert_string_equal(stn_meta(s)->black, "B. Lack");
    const stn_move_info_t *in = stn_track_info(stn_tracker(s), 2);
    assert_non_null(in);
    assert_non_null(in->comment);
    assert_int_equal(stn_track_info(stn_tracker(s), 1)->frame, 20);
    /* the game goes on and the record grows */
    play_view(s, V(". . X . . . . . .", ". . . . . . O . ."), 40);
    play_view(s, V(". . X . . . . . .", ". . . . O . O . ."), 50);
    assert_int_equal(go_game_move_count(g), 4);
    stn_loaded_t l;
    assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
    assert_int_equal(l.nmoves, 4);
    stn_loaded_fini(&l);
    stn_destroy(s);

    /* a broken record cannot be resumed: an error, no station */
    char bad[1100];
    snprintf(bad, sizeof bad, "%s/bad.sgf", g_dir);
    FILE *f = fopen(bad, "w");
    fputs("(;SZ[9];B[ee", f);
    fclose(f);
    stn_config_t c;
    stn_config_defaults(&c);
    c.resume_path = bad;
    int err = 0;
    assert_null(stn_create(&c, &err));
    assert_int_equal(err, GO_EPARSE);
}

/* A resumed record keeps what it does not make itself (issue 22, defect 1): resuming
 * into the file writes nothing until the game changes; then the root's PC, EV, WR, BR, GN
 * and its comment are written back as read, beside the new move. */
static void test_resume_keeps_root_properties(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/keep.sgf", g_dir);
    static const char rec[] =
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Japanese]PB[Lee]PW[Cho]DT[2026-11-30]"
        "PC[Seoul]EV[Cup]WR[9p]BR[8p]GN[Final]C[the root's own comment]"
        ";B[cc]KF[10:0.333:0.250];W[gc]C[a move's comment])\n";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(rec, f);
    fclose(f);
    stn_t *s = station_in(path, path);
    assert_int_equal(go_game_move_count(stn_game(s)), 2);
    char *text = kc_slurp(path, NULL);
    assert_non_null(text);
    assert_string_equal(text, rec);   /* untouched: nothing changed yet */
    free(text);
    play_view(s, V(". . X . . . O . .", ". . X . . . . . ."), 40);
    assert_int_equal(go_game_move_count(stn_game(s)), 3);
    stn_destroy(s);
    text = kc_slurp(path, NULL);
    assert_non_null(text);
    static const char *const kept[] = { "PC[Seoul]", "EV[Cup]", "WR[9p]", "BR[8p]", "GN[Final]",
                                        "C[the root's own comment]", "PB[Lee]", "KM[7]",
                                        "RU[Japanese]", "KF[10:0.333:0.250]",
                                        "C[a move's comment]", "B[cg]" };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (!strstr(text, kept[i]))
            fail_msg("%s lost: %s", kept[i], text);
    free(text);
}

/* What a resume would not keep whole is refused with its reason, and a move out of turn
 * (the station's own "two in a row") is not. */
static void test_resume_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
        const char *why;
    } cases[] = {
        { "(;SZ[9];B[ee])(;SZ[9];B[cc])", STN_EKEEP, "2 games" },
        { "(;SZ[9];B[ee](;W[cc])(;W[gg]))", STN_EKEEP, "variation" },
        { "(;SZ[9];B[ee]LB[ee:A])", STN_EKEEP, "LB[]" },
        { "(;SZ[9];B[ee];AB[cc];W[gg])", STN_EKEEP, "AB[]" },
        { "(;SZ[9];B[ee];C[no move];W[gg])", STN_EKEEP, "without a move" },
        { "(;SZ[9];B[ee]W[gg])", STN_EKEEP, "two moves" },
        { "(;SZ[9]B[ee])", STN_EKEEP, "root" },
        { "(;SZ[9]KM[6.25];B[ee])", STN_EKEEP, "KM[6.25]" },
        { "(;SZ[9]RU[Martian];B[ee])", STN_EKEEP, "RU[Martian]" },
        { "(;SZ[9];B[ee]KF[junk])", STN_EKEEP, "KF[junk]" },
        { "(;SZ[9];B[ee]WL[30])", STN_EKEEP, "other side" },
        { "(;SZ[9];B[ee]OB[3])", STN_EKEEP, "OB" },
        { "(;SZ[19]AB[ba][ab];W[aa])", STN_EILLEGAL, "suicide" },
        { "(;SZ[9];B[ee];W[ee])", STN_EILLEGAL, "move 2 (W E5)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stn_loaded_t l;
        char why[200] = "";
        int rc = stn_record_parse(cases[i].text, strlen(cases[i].text), NULL, &l, why, sizeof why);
        if (rc != cases[i].code || !strstr(why, cases[i].why))
            fail_msg("%s: %d '%s' (want %d '%s')", cases[i].text, rc, why, cases[i].code,
                     cases[i].why);
    }
    char big[400];
    snprintf(big, sizeof big, "(;SZ[9]PB[%0200d];B[ee])", 1);
    stn_loaded_t l;
    char why[200] = "";
    assert_int_equal(stn_record_parse(big, strlen(big), NULL, &l, why, sizeof why), STN_EKEEP);
    assert_non_null(strstr(why, "PB[]"));
    /* two moves in a row by one colour, as the station records them: resumed */
    static const char two[] = "(;SZ[9]KM[6.5]HA[0];B[ee];B[cc]C[two in a row];W[gg]WL[10]"
                              ";B[gc]BL[5.5]OB[2])";
    assert_int_equal(stn_record_parse(two, strlen(two), NULL, &l, why, sizeof why), GO_OK);
    assert_int_equal(l.nmoves, 4);
    stn_loaded_fini(&l);
}

/* A crash at any moment (the writer killed with SIGKILL while it rewrites the record in a
 * loop) leaves a whole, valid record: the last one written, never a torn one. */
static void test_crash_leaves_valid_record(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/crash.sgf", g_dir);
    int checked = 0;
    for (int round = 0; round < 4; round++) {
        unlink(path);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            go_rules_t r;
            go_rules_preset("chinese", &r);
            go_game_t *g = go_game_create(19, &r);
            stn_meta_t m;
            stn_meta_init(&m);
            for (int i = 0; i < 361; i++) {
                if (go_game_play(g, go_game_turn(g), GO_PT(i % 19, i / 19)) != GO_OK)
                    go_game_pass(g, go_game_turn(g), true);
                char *text;
                if (stn_record_sgf(g, &m, NULL, &text) == GO_OK) {
                    stn_record_write_atomic(path, text, strlen(text), NULL);
                    free(text);
                }
            }
            _exit(0);
        }
        struct timespec ts = { 0, (20 + 15 * round) * 1000000L };
        nanosleep(&ts, NULL);   /* kill it somewhere mid-game */
        for (int w = 0; round == 3 && w < 200 && access(path, F_OK) != 0; w++) {
            struct timespec tw = { 0, 10000000L };   /* the last round: after a write */
            nanosleep(&tw, NULL);
        }
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        if (access(path, F_OK) != 0)
            continue;   /* killed before the first write */
        stn_loaded_t l;
        assert_int_equal(stn_record_load(path, NULL, &l, NULL, 0), GO_OK);
        assert_true(l.nmoves >= 1);
        stn_loaded_fini(&l);
        checked++;
    }
    assert_true(checked >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgf_round_trip),
        cmocka_unit_test(test_atomic_rewrite),
        cmocka_unit_test(test_write_failure_keeps_game),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_resume_keeps_root_properties),
        cmocka_unit_test(test_resume_refusals),
        cmocka_unit_test(test_crash_leaves_valid_record),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
