/* test_photos.c: calibration on the shared real photos (../shared/data/photos/gomrade;
 * skips visibly without them): a profile made from the first frame of a fixed camera's
 * recording still fits every later frame of it, and the colour model learned on a photo never
 * read it worse than the classifier's defaults (scored under the 8 symmetries, as the
 * truth files do not say which side is up). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/cal_calibrate.h"
#include "testutil.h"

typedef struct {
    char image[512], truth[512];
} entry_t;

/* The gomrade index: image and truth paths, at most max entries. */
static int read_index(const char *dir, entry_t *e, int max)
{
    char path[600], line[2048];
    if (snprintf(path, sizeof path, "%s/index.tsv", dir) >= (int)sizeof path)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0;
    if (!fgets(line, sizeof line, f)) { /* header */
        fclose(f);
        return -1;
    }
    while (n < max && fgets(line, sizeof line, f)) {
        char *id = strtok(line, "\t\r\n"), *im = strtok(NULL, "\t\r\n"), *tr = strtok(NULL, "\t\r\n");
        if (!id || !im || !tr)
            continue;
        if (snprintf(e[n].image, sizeof e[n].image, "%s/%s", dir, im) >= (int)sizeof e[n].image ||
            snprintf(e[n].truth, sizeof e[n].truth, "%s/%s", dir, tr) >= (int)sizeof e[n].truth)
            continue; /* a path too long for the entry */
        n++;
    }
    fclose(f);
    return n;
}

/* N lines of N tokens . B W -> colours; returns N or -1. */
static int read_truth(const char *path, unsigned char *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF && n < VIS_MAX_POINTS)
        if (c == '.' || c == 'B' || c == 'W')
            t[n++] = c == 'B' ? 1 : c == 'W' ? 2 : 0;
    fclose(f);
    for (int s = 2; s <= VIS_MAX_SIZE; s++)
        if (s * s == n)
            return s;
    return -1;
}

static int mistakes8(const vis_snapshot_t *s, const unsigned char *t)
{
    int S = s->size, best = S * S;
    for (int sym = 0; sym < 8; sym++) {
        int bad = 0;
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) {
                int a = sym & 1 ? S - 1 - x : x, b = sym & 2 ? S - 1 - y : y;
                if (sym & 4) {
                    int tmp = a;
                    a = b;
                    b = tmp;
                }
                bad += s->color[y * S + x] != t[b * S + a];
            }
        best = bad < best ? bad : best;
    }
    return best;
}

static void test_gomrade(void **state)
{
    (void)state;
    KC_REQUIRE_SHARED_DATA(data);
    char dir[600];
    assert_true(snprintf(dir, sizeof dir, "%s/photos/gomrade", data) < (int)sizeof dir);
    entry_t *e = calloc(64, sizeof *e);
    assert_non_null(e);
    int n = read_index(dir, e, 64);
    if (n <= 0) {
        free(e);
        print_message("SKIP: %s/index.tsv is missing\n", dir);
        skip();
        return; /* skip() longjmps out, but cmocka 1.1.5 does not declare it noreturn */
    }
    cal_calib_report_t *rep = calloc(1, sizeof *rep);
    assert_non_null(rep);
    int tot_def = 0, tot_learned = 0, photos = 0, seq_fit = 0, seq_n = 0;
    cal_profile_t seq;
    int have_seq = 0;
    for (int i = 0; i < n; i++) {
        cvb_image_t img;
        unsigned char t[VIS_MAX_POINTS];
        int S = read_truth(e[i].truth, t);
        if (S < 0 || cvb_imread(e[i].image, 1, &img))
            continue;
        cal_calib_opts_t o;
        cal_calib_opts_defaults(&o);
        cal_profile_t p;
        memset(&p, 0, sizeof p);
        int rc = cal_calibrate_frame(&img, &o, &p, rep);
        if (rc == CAL_OK && p.size == S) {
            vis_config_t d, l;
            vis_config_defaults(&d);
            l = d;
            vis_board_model_t bm;
            if (cal_profile_board_model(&p, &bm))
                l.board = &bm;
            vis_snapshot_t s1, s2;
            memset(&s1, 0, sizeof s1);
            memset(&s2, 0, sizeof s2);
            assert_int_equal(vis_classify(&img, &rep->geom, &d, &s1), VIS_OK);
            assert_int_equal(vis_classify(&img, &rep->geom, &l, &s2), VIS_OK);
            int m1 = mistakes8(&s1, t), m2 = mistakes8(&s2, t);
            if (m2 > m1)
                print_message("%s: %d mistakes with the learned colour model, %d without\n",
                              e[i].image, m2, m1);
            assert_true(m2 <= m1);
            tot_def += m1;
            tot_learned += m2;
            photos++;
        }
        /* the fixed camera's recording: calibrate on its first frame, check the others */
        if (strstr(e[i].image, "testing_sequence_")) {
            if (!have_seq && rc == CAL_OK) {
                seq = p;
                have_seq = 1;
            } else if (have_seq) {
                double fit;
                int fits = 0;
                assert_int_equal(cal_check(&img, &seq, NULL, &fit, &fits), CAL_OK);
                if (!fits)
                    print_message("%s: grid fit %.3f, below %.3f\n", e[i].image, fit,
                                  cal_fit_threshold(&seq, NULL));
                seq_fit += fits;
                seq_n++;
            }
        }
        cvb_image_free(&img);
    }
    print_message("%d gomrade photos calibrated: %d mistakes with the learned colour model, %d "
                  "with the defaults; a profile from the recording's first frame fits %d of "
                  "its %d later frames\n", photos, tot_learned, tot_def, seq_fit, seq_n);
    assert_true(photos >= n - 2);
    assert_true(tot_learned <= tot_def);
    assert_true(have_seq && seq_n >= 5);
    assert_int_equal(seq_fit, seq_n);
    free(rep);
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gomrade),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
