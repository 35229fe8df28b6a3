/* test_score_cli.c: `kifucam score` as INTERFACE.md says: the RE[] result on the first line
 * of text output, the JSON fields, --rules/--komi/--dead, bent four in the corner dead
 * under --rules japanese only, and exit code 2 (one line on
 * stderr naming the file) for bad usage and unreadable or malformed input. Runs the
 * binary ctest names in KIFUCAM_BIN on small SGF files written to a temporary folder. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char dir[256];

/* A 9x9 finished position: a white stone dead in Black's area (cb), a black one dead in
 * White's (he), three dame points (fa, fb, fc), no captures. */
static const char *game9 =
    "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]"
    "AB[ea][eb][ec][ed][ee][ef][eg][eh][ei][he]"
    "AW[ga][gb][gc][fd][fe][ff][fg][fh][fi][cb])";

/* Bent four in the corner (see test_score_life.c): the white corner group (ca, bb...) is
 * dead under the Japanese rules, a seki under the Chinese ones. */
static const char *bent_four9 =
    "(;GM[1]FF[4]SZ[9]KM[6.5]"
    "AB[aa][da][fa][ab][db][eb][fb][ac][dc][cd][dd][ce][af][bf][cf][bg][ah]"
    "AW[ca][bb][cb][bc][cc][bd][ae][be])";

/* An unfinished border: Black's wall on column b, White's on column h, five open columns
 * between: unsettled, the open points nobody's, column e the points to fill, and said so. */
static const char *open9 =
    "(;GM[1]FF[4]SZ[9]KM[0]RU[Korean]"
    "AB[ba][bb][bc][bd][be][bf][bg][bh][bi]"
    "AW[ha][hb][hc][hd][he][hf][hg][hh][hi])";

/* A seki in the top-left corner (Black B9 B8 A8 C8 with its eye A9, White D9 D8 E8 F8 F9
 * with its eye E9, C9 shared), each outer wall living: as OGS wrote it (CP[], PC[]). OGS
 * counts the two eyes (Black 37, White 13); the Japanese rules count them for nobody
 * (36, 13 - 1); the margin is the same, B+17.5. The same record without CP and PC is
 * counted by the preset. */
#define SEKI9_STONES \
    "AB[ba][ab][bb][cb][ga][gb][gc][fc][ec][dc][dd][de][df][dg][dh][di]" \
    "AW[da][db][eb][fb][fa][ac][bc][cc][cd][ce][cf][cg][ch][ci])"
static const char *seki_ogs9 =
    "(;GM[1]FF[4]SZ[9]KM[6.5]RU[japanese]CP[online-go.com]"
    "PC[OGS: http://online-go.com/game/1]" SEKI9_STONES;
static const char *seki9 = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[japanese]" SEKI9_STONES;

static void write_file(const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Run kifucam with args (a shell-quoted string); stdout into out, stderr into err. */
static int run(const char *args, char *out, size_t olen, char *err, size_t elen)
{
    char cmd[2048], path[512];
    const char *bin = getenv("KIFUCAM_BIN");
    int st;
    assert_non_null(bin);
    snprintf(cmd, sizeof cmd, "cd %s && '%s' %s >out.txt 2>err.txt", dir, bin, args);
    st = system(cmd);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    kc_read_into(path, out, olen);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    kc_read_into(path, err, elen);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kc_score_cli.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    write_file("g9.sgf", game9);
    write_file("bf.sgf", bent_four9);
    write_file("open.sgf", open9);
    write_file("sekiogs.sgf", seki_ogs9);
    write_file("seki.sgf", seki9);
    write_file("bad.sgf", "(;GM[1]SZ[9];B[ee");
    write_file("one.sgf", "(;GM[1]FF[4]SZ[9]AB[ee]AW[aa][ab])");
    write_file("hc.sgf", "(;GM[1]FF[4]SZ[9]HA[2]RU[Chinese]AB[cg][gc]AW[ee])");
    write_file("sz.sgf", "(;GM[1]SZ[40];B[aa])");
    return 0;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_text_and_rules(void **state)
{
    (void)state;
    char out[8192], err[2048];
    /* Japanese (RU[]): black 36 + 1 dead, white 24 + 1 dead + 6.5 -> B+5.5 */
    assert_int_equal(run("score g9.sgf", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+5.5\n", 6);
    /* the same dead stones given by hand */
    assert_int_equal(run("score g9.sgf --dead cb,he", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+5.5\n", 6);
    /* no dead stones: each area touches the other colour, nobody has territory */
    assert_int_equal(run("score g9.sgf --dead none", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "W+6.5\n", 6);
    /* chinese: 9 + 36 + 1.5 against 9 + 24 + 1.5, komi 7.5: 4.5 points, 2 1/4 stones */
    assert_int_equal(run("score g9.sgf --rules chinese --komi 7.5", out, sizeof out, err,
                         sizeof err), 0);
    assert_memory_equal(out, "B+4.5\n", 6);
    assert_non_null(strstr(out, "Black wins by 2 1/4 stones"));
    assert_non_null(strstr(out, "黑胜2又1/4子"));
    /* a draw under a whole-number komi */
    assert_int_equal(run("score g9.sgf --rules chinese --komi 12", out, sizeof out, err,
                         sizeof err), 0);
    assert_memory_equal(out, "0\n", 2);
}

static void test_json(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score g9.sgf --format json", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"result\":\"B+5.5\""));
    assert_non_null(strstr(out, "\"rules\":\"japanese\""));
    assert_non_null(strstr(out, "\"komi\":6.5"));
    assert_non_null(strstr(out, "\"black\":{\"stones\":9,\"territory\":36,\"prisoners\":1"));
    assert_non_null(strstr(out, "\"dead\":[\"cb\",\"he\"]"));
    assert_non_null(strstr(out, "\"dame\":[\"fa\",\"fb\",\"fc\"]"));
    assert_non_null(strstr(out, "\"seki\":[]"));
}

/* A record from OGS is counted as OGS counts its rules: eyes in seki are territory,
 * and the text and JSON say so; --rules or a record from elsewhere: the preset's rule. */
static void test_server_rules(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score sekiogs.sgf", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+17.5\n", 7);
    assert_non_null(strstr(out, "seki: 2 chains"));
    assert_non_null(strstr(out, "counted as OGS counts japanese"));
    assert_non_null(strstr(out, "Black: 37 territory"));
    assert_non_null(strstr(out, "White: 13 territory"));
    assert_int_equal(run("score sekiogs.sgf --format json", out, sizeof out, err, sizeof err),
                     0);
    assert_non_null(strstr(out, "\"rules_server\":\"OGS\""));
    assert_non_null(strstr(out, "\"black\":{\"stones\":16,\"territory\":37,"));
    assert_int_equal(run("score sekiogs.sgf --rules japanese", out, sizeof out, err, sizeof err),
                     0);
    assert_null(strstr(out, "OGS"));
    assert_non_null(strstr(out, "Black: 36 territory"));
    assert_non_null(strstr(out, "White: 12 territory"));
    assert_int_equal(run("score seki.sgf --format json", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"rules_server\":null"));
    assert_non_null(strstr(out, "\"black\":{\"stones\":16,\"territory\":36,"));
}

static void test_bent_four(void **state)
{
    char out[4096], err[1024];
    (void)state;
    assert_int_equal(run("score bf.sgf --rules japanese --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"ca\""));
    assert_null(strstr(out, "\"aa\""));
    assert_int_equal(run("score bf.sgf --rules chinese --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_null(strstr(out, "\"ca\""));
}

/* J89's ko rule binds both sides: a ko taken is retaken only after a pass. OGS game 60948
 * (../shared/data/games/ogs-9x9, RU[japanese]) ends with Black's lower-left corner alive
 * by a ko Black takes first; a reading where only the owner was barred from kos called
 * five of its stones dead (W+15.5). The players counted W+4.5. */
static void test_ko_both_sides(void **state)
{
    char out[4096], err[1024], a[4200];
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    snprintf(a, sizeof a, "score '%s/games/ogs-9x9/60948.sgf' --dead auto --format json", data);
    assert_int_equal(run(a, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"result\":\"W+4.5\""));
    assert_non_null(strstr(out, "\"rules\":\"japanese\""));
    assert_non_null(strstr(out, "\"dead\":[]"));
}

static void test_open_border(void **state)
{
    (void)state;
    char out[8192], err[2048];
    /* nothing guessed: the open columns are nobody's, column e (E1-E9, as far from both
     * walls) is the border to fill */
    assert_int_equal(run("score open.sgf --format json", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"black\":{\"stones\":9,\"territory\":9"));
    assert_non_null(strstr(out, "\"exact\":false"));
    assert_non_null(strstr(out, "\"unsettled\":{\"borders\":1,\"points\":[\"ca\""));
    assert_non_null(strstr(out, "\"fill\":[\"ea\",\"eb\",\"ec\",\"ed\",\"ee\",\"ef\","
                                "\"eg\",\"eh\",\"ei\"]"));
    assert_null(strstr(out, "estimated"));
    assert_int_equal(run("score open.sgf", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "0\n", 2);
    assert_non_null(strstr(out, "unsettled: 1 border left open, 45 points counted for nobody; "
                                "fill E9 E8 E7 E6 E5 E4 E3 E2 E1 to settle it\n"));
    /* the same with a dead list given by hand (here none): the count is one */
    assert_int_equal(run("score open.sgf --dead none --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"black\":{\"stones\":9,\"territory\":9"));
    assert_non_null(strstr(out, "\"unsettled\":{\"borders\":1,"));
    /* area rules: the open points are neutral, not shared as dame */
    assert_int_equal(run("score open.sgf --rules chinese --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"black\":{\"stones\":9,\"territory\":9,"));
    assert_null(strstr(out, "shared"));
    /* a finished position is exact */
    assert_int_equal(run("score g9.sgf --format json", out, sizeof out, err, sizeof err), 0);
    assert_null(strstr(out, "unsettled"));
    assert_non_null(strstr(out, "\"exact\":true"));
}

/* --dead in the human form (C8 is "cb", H5 is "he" on 9x9) and as calls on the proposal:
 * -C8 brings the white stone back to life (its area is then nobody's), +/- errors name the
 * call and say why, exit 2. */
static void test_dead_points_and_calls(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score g9.sgf --dead C8,h5", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+5.5\n", 6);
    assert_int_equal(run("score g9.sgf --dead cb,H5 --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"dead\":[\"cb\",\"he\"]"));
    /* the proposal (cb, he) less C8: black's area now touches a live white stone */
    assert_int_equal(run("score g9.sgf --dead -C8 --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"dead\":[\"he\"]"));
    assert_int_equal(run("score g9.sgf --dead -C8,-he,+C8", out, sizeof out, err, sizeof err),
                     0);
    assert_non_null(strstr(out, "1 dead stone removed"));
    assert_int_equal(run("score g9.sgf --dead +C8", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "'+C8': the stones at C8 are already proposed dead"));
    assert_int_equal(run("score g9.sgf --dead -A1", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "no stone at A1"));
    assert_int_equal(run("score g9.sgf --dead -E9", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "not proposed dead"));
    assert_int_equal(run("score g9.sgf --dead cb,+H5", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "not both"));
    assert_int_equal(run("score g9.sgf --dead D16", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "'D16' is not a point of this 9x9 board"));
    assert_int_equal(run("score g9.sgf --dead I5", out, sizeof out, err, sizeof err), 2);
    assert_null(strchr(strchr(err, '\n') + 1, '\n'));   /* one line */
}

/* What people read: reduced fractions (a 9x9 par is 40 1/2, never "40 2/4"), singular
 * at 1 ("1 prisoner", "1 stone"), the dead chains named in the Q16 form; the JSON carries
 * what the text says (the result in stones, the par, exact, the dead chains); a handicap
 * game without KM[]: komi 0 under the Chinese rules, 0.5 under the Japanese. */
static void test_text_people_read(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score g9.sgf", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "36 territory + 1 prisoner (0 captured, 1 dead)"));
    assert_non_null(strstr(out, "dead: C8 (1 white stone), H5 (1 black stone)\n"));
    assert_int_equal(run("score g9.sgf --rules chinese", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "in stones: Black 46 1/2 against 43 3/4 (par 40 1/2 "));
    assert_null(strstr(out, "2/4"));
    assert_int_equal(run("score g9.sgf --rules chinese --format json", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"in_stones\":{\"black\":46.5,\"par\":43.75,\"margin\":2.75,"
                                "\"text\":\"Black wins by 2 3/4 stones\",\"zh\":\"黑胜2又3/4子\"}"));
    assert_non_null(strstr(out, "\"exact\":true"));
    assert_non_null(strstr(out, "\"dead_chains\":[{\"point\":\"cb\",\"name\":\"C8\","
                                "\"color\":\"W\",\"stones\":1}"));
    assert_int_equal(run("score open.sgf --format json", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"exact\":false"));
    assert_int_equal(run("score one.sgf --rules chinese --dead none", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "Black: 1 stone + "));
    assert_int_equal(run("score hc.sgf --dead none", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "rules chinese, komi 0, handicap 2,"));
    assert_non_null(strstr(out, "+ 2 handicap compensation"));
    assert_non_null(strstr(out, "against 41 1/2 "));
    assert_int_equal(run("score hc.sgf --rules japanese --dead none", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "rules japanese, komi 0.5, handicap 2,"));
}

/* `score -`: the record on standard input, errors named "stdin". */
static void test_stdin(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score - < g9.sgf", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+5.5\n", 6);
    assert_int_equal(run("score - --rules chinese --format json < g9.sgf", out, sizeof out, err,
                         sizeof err), 0);
    assert_non_null(strstr(out, "\"rules\":\"chinese\""));
    assert_int_equal(run("score - < bad.sgf", out, sizeof out, err, sizeof err), 2);
    assert_memory_equal(err, "stdin:", 6);
    assert_int_equal(run("score - < /dev/null", out, sizeof out, err, sizeof err), 2);
    assert_memory_equal(err, "stdin:", 6);
}

/* --picture on a record: a PNG of the diagram alone (9x9: 8 lines of 32 px and two
 * margins of 48 px, a header of 32 px); an unwritable path is exit 2. */
static void test_picture(void **state)
{
    (void)state;
    char out[8192], err[2048], path[512];
    assert_int_equal(run("score g9.sgf --picture g9.png", out, sizeof out, err, sizeof err), 0);
    assert_memory_equal(out, "B+5.5\n", 6);
    snprintf(path, sizeof path, "%s/g9.png", dir);
    size_t n = 0;
    unsigned char *png = (unsigned char *)kc_slurp(path, &n);
    assert_non_null(png);
    assert_true(n > 24);
    assert_memory_equal(png, "\x89PNG", 4);
    unsigned w = (unsigned)png[16] << 24 | (unsigned)png[17] << 16 | (unsigned)png[18] << 8 | png[19];
    unsigned h = (unsigned)png[20] << 24 | (unsigned)png[21] << 16 | (unsigned)png[22] << 8 | png[23];
    free(png);
    assert_int_equal(w, 352);
    assert_int_equal(h, 384);
    assert_int_equal(run("score g9.sgf --picture /nonexistent/x.png", out, sizeof out, err,
                         sizeof err), 2);
    assert_non_null(strstr(err, "/nonexistent/x.png"));
}

static void test_errors(void **state)
{
    (void)state;
    char out[8192], err[2048];
    assert_int_equal(run("score", out, sizeof out, err, sizeof err), 2);
    assert_int_equal(run("score g9.sgf --rules nonsense", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "nonsense"));
    assert_int_equal(run("score g9.sgf --komi x", out, sizeof out, err, sizeof err), 2);
    assert_int_equal(run("score g9.sgf --dead zz", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "g9.sgf"));
    assert_int_equal(run("score g9.sgf --dead aa", out, sizeof out, err, sizeof err), 2);
    assert_int_equal(run("score g9.sgf --format xml", out, sizeof out, err, sizeof err), 2);
    assert_int_equal(run("score missing.sgf", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "missing.sgf"));
    assert_int_equal(run("score bad.sgf", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "bad.sgf:"));
    assert_int_equal(run("score sz.sgf", out, sizeof out, err, sizeof err), 2);
    assert_int_equal(run("score --help", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "--dead"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_and_rules),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_server_rules),
        cmocka_unit_test(test_bent_four),
        cmocka_unit_test(test_ko_both_sides),
        cmocka_unit_test(test_open_border),
        cmocka_unit_test(test_dead_points_and_calls),
        cmocka_unit_test(test_text_people_read),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_picture),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
