/* test_profile.c: the calibration profile reader and writer, with broken files. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/cal_profile.h"
#include "testutil.h"

static const char *good =
    "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,"
    "\"corners\":[[300,100],[980,110],[1000,650],[280,640]],"
    "\"rotate\":1,\"black_side\":\"top\","
    "\"lens\":{\"fx\":1000,\"fy\":1001,\"cx\":640,\"cy\":360,\"dist\":[-0.1,0.01,0,0,0]},"
    "\"colors\":{\"empty\":[80,160,200],\"black\":[20,20,20],\"white\":[230,230,230]}}";

static int parse(const char *text, cal_profile_t *p, char *err)
{
    return cal_profile_parse(text, strlen(text), p, err, 200);
}

static void test_good_profile(void **state)
{
    (void)state;
    cal_profile_t p;
    char err[200] = "";
    assert_int_equal(parse(good, &p, err), CAL_OK);
    assert_int_equal(p.size, 19);
    assert_int_equal(p.image_w, 1280);
    assert_int_equal(p.rotate, 1);
    assert_int_equal(p.black_side, VIS_SIDE_TOP);
    assert_true(p.has_lens);
    assert_true(p.has_colors);
    assert_true(p.corners[2][0] == 1000 && p.corners[2][1] == 650);
    assert_true(p.dist[0] == -0.1);
    assert_true(p.white_bgr[1] == 230);
}

static void test_round_trip(void **state)
{
    (void)state;
    cal_profile_t p, q;
    char err[200] = "", path[] = "/tmp/kc_profile_XXXXXX";
    assert_int_equal(parse(good, &p, err), CAL_OK);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(cal_profile_save(path, &p, err, sizeof err), CAL_OK);
    assert_int_equal(cal_profile_load(path, &q, err, sizeof err), CAL_OK);
    assert_memory_equal(&p.corners, &q.corners, sizeof p.corners);
    assert_int_equal(q.black_side, p.black_side);
    assert_true(q.fx == p.fx && q.dist[0] == p.dist[0]);
    assert_true(q.empty_bgr[2] == p.empty_bgr[2]);
    unlink(path);
}

static void test_defaults_valid(void **state)
{
    (void)state;
    cal_profile_t p;
    char err[200];
    cal_profile_defaults(&p, 9, 640, 480);
    assert_int_equal(cal_profile_validate(&p, err, sizeof err), CAL_OK);
}

/* Each broken document, the error it must give, and a word the message must contain. */
static const struct {
    const char *text;
    int code;
    const char *word;
} broken[] = {
    { "", CAL_EPARSE, "line" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corn", CAL_EPARSE, "line" },
    { "[1,2,3]", CAL_EPARSE, "object" },
    { "{\"image\":[1280,720],\"size\":19}", CAL_EVERSION, "kifucam_profile" },
    { "{\"kifucam_profile\":2,\"image\":[1280,720],\"size\":19}", CAL_EVERSION, "version 2" },
    { "{\"kifucam_profile\":\"1\"}", CAL_EVERSION, "kifucam_profile" },
    { "{\"kifucam_profile\":1,\"size\":19,\"corners\":[[1,1],[100,1],[100,100],[1,100]]}", CAL_EFIELD, "image" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"corners\":[[1,1],[100,1],[100,100],[1,100]]}", CAL_EFIELD, "size" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19}", CAL_EFIELD, "corners" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[100,1],[100,100]]}", CAL_EFIELD, "corners" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[2000,1],[100,100],[1,100]]}", CAL_EFIELD, "outside" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[-5,1],[100,1],[100,100],[1,100]]}", CAL_EFIELD, "outside" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[100,100],[100,1],[1,100]]}", CAL_EFIELD, "convex" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[5,1],[5,5],[1,5]]}", CAL_EFIELD, "too close" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":99,\"corners\":[[1,1],[900,1],[900,600],[1,600]]}", CAL_EFIELD, "size" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"rotate\":7}", CAL_EFIELD, "rotate" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"black_side\":\"north\"}", CAL_EFIELD, "black_side" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":-1,\"fy\":1,\"cx\":0,\"cy\":0,\"dist\":[0,0,0,0,0]}}", CAL_EFIELD, "lens" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1}}", CAL_EFIELD, "lens" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[0,0,300],\"black\":[0,0,0],\"white\":[0,0,0]}}", CAL_EFIELD, "colour" },
    /* impossible lenses (issue 22): an all-empty reading, exit 0, before */
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1e-300,\"fy\":1000,\"cx\":640,\"cy\":360,\"dist\":[0,0,0,0,0]}}", CAL_EFIELD, "focal" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1000,\"fy\":1000,\"cx\":1e9,\"cy\":360,\"dist\":[0,0,0,0,0]}}", CAL_EFIELD, "principal" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1000,\"fy\":5000,\"cx\":640,\"cy\":360,\"dist\":[0,0,0,0,0]}}", CAL_EFIELD, "focal" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1e9,\"fy\":1e9,\"cx\":640,\"cy\":360,\"dist\":[0,0,0,0,0]}}", CAL_EFIELD, "focal" },
    { "{\"kifucam_profile\":1,\"kifucam_profile\":1}", CAL_EPARSE, "duplicate" },
    { "{\"kifucam_profile\":1,\"image\":[1e300,720],\"size\":19}", CAL_EFIELD, "image" },
    /* the fields calibrate adds: fit, lens rms, colour counts, null colours, thresholds */
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"fit\":1.5}", CAL_EFIELD, "fit" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"fit\":\"good\"}", CAL_EFIELD, "fit" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1,\"fy\":1,\"cx\":0,\"cy\":0,\"dist\":[0,0,0,0,0],\"rms\":-1}}", CAL_EFIELD, "rms" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"lens\":{\"fx\":1,\"fy\":1,\"cx\":0,\"cy\":0,\"dist\":[0,0,0,0,1e9]}}", CAL_EFIELD, "distortion" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":[0,0,0]}}", CAL_EFIELD, "colors" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":[9,9,9],\"counts\":[5,0,0]}}", CAL_EFIELD, "counts" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":null,\"counts\":[5,0.5,0]}}", CAL_EFIELD, "counts" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":null,\"counts\":[0,0,0]}}", CAL_EFIELD, "counts" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":null,\"model\":{\"n\":[5,0,0],\"mean\":[[0,0,0],[0,0,0],[0,0,0]],\"cov\":[[0,0,0,1,0,1],[1,0,0,1,0,1],[1,0,0,1,0,1]]}}}", CAL_EFIELD, "colour model" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":null,\"model\":{\"n\":[5,0,0],\"mean\":[[0,0,0]],\"cov\":[]}}}", CAL_EFIELD, "colors.model" },
    { "{\"kifucam_profile\":1,\"image\":[1280,720],\"size\":19,\"corners\":[[1,1],[900,1],[900,600],[1,600]],\"colors\":{\"empty\":[1,2,3],\"black\":null,\"white\":null,\"black_rel\":[1]}}", CAL_EFIELD, "black_rel" },
};

static void test_broken_profiles(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        cal_profile_t p;
        memset(&p, 0x5a, sizeof p);
        cal_profile_t before = p;
        char err[200] = "";
        int rc = parse(broken[i].text, &p, err);
        if (rc != broken[i].code || !strstr(err, broken[i].word))
            fail_msg("case %zu: rc %d (want %d), message '%s' (want '%s')", i, rc,
                     broken[i].code, err, broken[i].word);
        assert_memory_equal(&p, &before, sizeof p); /* untouched on error */
        assert_null(strchr(err, '\n'));             /* one line */
    }
}

static void test_files(void **state)
{
    (void)state;
    cal_profile_t p;
    char err[200] = "", path[] = "/tmp/kc_profile_XXXXXX";
    assert_int_equal(cal_profile_load("/nonexistent/dir/profile.json", &p, err, sizeof err), CAL_EIO);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd); /* empty file */
    assert_int_equal(cal_profile_load(path, &p, err, sizeof err), CAL_EPARSE);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 4096; i++)
        fputc((i * 7919) & 0xff, f); /* binary junk */
    fclose(f);
    assert_int_equal(cal_profile_load(path, &p, err, sizeof err), CAL_EPARSE);
    /* saving an invalid profile is refused and leaves no file behind */
    cal_profile_defaults(&p, 19, 640, 480);
    p.corners[0][0] = 5000;
    assert_int_equal(cal_profile_save(path, &p, err, sizeof err), CAL_EFIELD);
    unlink(path);
    assert_int_equal(cal_profile_save("/nonexistent/dir/p.json", &(cal_profile_t){ 0 }, err, sizeof err),
                     CAL_EVERSION);
}

/* A symlink planted at PATH.tmp (issue 22) is never followed: the save makes a new file
 * of its own, the link's target keeps its bytes, the link stays. */
static void test_save_ignores_planted_symlink(void **state)
{
    (void)state;
    char dir[] = "/tmp/kc_profile_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char victim[128], path[128], tmp[140];
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    snprintf(path, sizeof path, "%s/profile.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("precious\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, tmp), 0);
    cal_profile_t p, q;
    char err[200] = "";
    cal_profile_defaults(&p, 19, 640, 480);
    assert_int_equal(cal_profile_save(path, &p, err, sizeof err), CAL_OK);
    char *v = kc_slurp(victim, NULL);
    assert_non_null(v);
    assert_string_equal(v, "precious\n");
    free(v);
    assert_int_equal(cal_profile_load(path, &q, err, sizeof err), CAL_OK);
    assert_int_equal(q.size, 19);
    unlink(tmp);
    unlink(path);
    unlink(victim);
    rmdir(dir);
}

/* What calibrate writes: no stones of one colour seen, the board's colour model, fit, lens
 * rms; saved and read back the same; a version 1 file without the new fields still loads,
 * and one with the old classifier's thresholds (black_rel, white_rel) too. */
static void test_new_fields(void **state)
{
    (void)state;
    const char *text =
        "{\"kifucam_profile\":1,\"image\":[640,480],\"size\":9,"
        "\"corners\":[[100,50],[540,60],[560,430],[90,420]],"
        "\"lens\":{\"fx\":500,\"fy\":501,\"cx\":320,\"cy\":240,\"dist\":[-0.3,0.1,0,0,0],\"rms\":0.21},"
        "\"colors\":{\"empty\":[80,160,200],\"black\":[20,20,20],\"white\":null,"
        "\"counts\":[70,11,0],\"black_rel\":0.55,"
        "\"model\":{\"n\":[70,11,0],\"mean\":[[-0.4,0.2,-0.5],[-2.5,0.01,0.02],[0,0,0]],"
        "\"cov\":[[0.01,0,0,0.002,0,0.003],[0.05,0.001,0,0.004,0,0.004],[0,0,0,0,0,0]]}},"
        "\"fit\":0.87}";
    cal_profile_t p, q;
    char err[200] = "", path[] = "/tmp/kc_profile_XXXXXX";
    assert_int_equal(parse(text, &p, err), CAL_OK);
    assert_true(p.has_colors && p.color_n[0] == 70 && p.color_n[1] == 11 && p.color_n[2] == 0);
    assert_true(p.model_n[0] == 70 && p.model_n[1] == 11 && p.model_n[2] == 0);
    assert_true(p.model_mean[1][0] == -2.5 && p.model_cov[0][3] == 0.002);
    assert_true(p.fit == 0.87 && p.lens_rms == 0.21);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(cal_profile_save(path, &p, err, sizeof err), CAL_OK);
    assert_int_equal(cal_profile_load(path, &q, err, sizeof err), CAL_OK);
    unlink(path);
    assert_memory_equal(q.color_n, p.color_n, sizeof p.color_n);
    assert_memory_equal(q.model_n, p.model_n, sizeof p.model_n);
    assert_true(q.model_mean[1][0] == p.model_mean[1][0] && q.model_cov[1][0] == p.model_cov[1][0]);
    assert_true(q.fit == p.fit);
    assert_true(q.lens_rms == p.lens_rms && q.dist[1] == p.dist[1]);
    /* the lead's version 1 document (no counts, fit, rms or thresholds) */
    assert_int_equal(parse(good, &p, err), CAL_OK);
    assert_true(p.color_n[0] == 1 && p.color_n[1] == 1 && p.color_n[2] == 1);
    assert_true(p.fit == 0 && p.model_n[0] == 0 && p.lens_rms == 0);
}

/* Thousands of mangled profiles (bytes changed, cut, doubled): each one either loads as a
 * valid profile or gives a one-line error, and never touches the output on error. */
static void test_mangled(void **state)
{
    (void)state;
    static const char *const bases[2] = {
        NULL, "{\"kifucam_profile\":1,\"image\":[640,480],\"size\":9,"
              "\"corners\":[[100,50],[540,60],[560,430],[90,420]],\"rotate\":3,"
              "\"colors\":{\"empty\":[80,160,200],\"black\":null,\"white\":[9,9,9],"
              "\"counts\":[70,0,4],\"white_rel\":1.1},\"fit\":0.5}" };
    static const char junk[] = "{}[],:\"0123456789.-+eE nul";
    uint64_t x = 88172645463325252ull;
    int ok = 0;
    for (int i = 0; i < 4000; i++) {
        const char *base = bases[i & 1] ? bases[i & 1] : good;
        char buf[1024];
        size_t n = strlen(base);
        memcpy(buf, base, n + 1);
        int edits = 1 + i % 4;
        for (int e = 0; e < edits; e++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = (size_t)(x % n);
            switch ((x >> 20) % 3) {
            case 0: buf[at] = junk[(x >> 32) % (sizeof junk - 1)]; break;
            case 1: n = at; buf[n] = 0; break;                      /* cut */
            default:                                                /* repeat a piece */
                if (n + 16 < sizeof buf) {
                    memmove(buf + at + 8, buf + at, n - at + 1);
                    n += 8;
                }
            }
            if (!n)
                break;
        }
        cal_profile_t p;
        memset(&p, 0x33, sizeof p);
        cal_profile_t before = p;
        char err[200] = "";
        int rc = cal_profile_parse(buf, n, &p, err, sizeof err);
        if (rc == CAL_OK) {
            ok++;
            assert_int_equal(cal_profile_validate(&p, NULL, 0), CAL_OK);
        } else {
            assert_true(rc < 0);
            assert_memory_equal(&p, &before, sizeof p);
            assert_true(err[0] && !strchr(err, '\n'));
        }
    }
    print_message("4000 mangled profiles: %d still valid, the rest refused with one line\n", ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_profile),   cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_defaults_valid), cmocka_unit_test(test_broken_profiles),
        cmocka_unit_test(test_files),          cmocka_unit_test(test_new_fields),
        cmocka_unit_test(test_mangled),
        cmocka_unit_test(test_save_ignores_planted_symlink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
