/* test_capture_footage.c: the file sources on the footage generator's output.
 *
 * Renders a short game with `kifucam render` (a folder of JPEG frames, its truth file and
 * an MJPG video of the same frames), then reads both through cap_source and checks what
 * a recorder relies on: every frame of the truth is delivered once, in order, with the
 * truth's time, the size the generator wrote, and the same picture from the folder and the
 * video; frames passed over by analyse_fps keep their index and time. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "capture/cap_source.h"
#include "render/rnd_truth.h"
#include "testutil.h"

#define W 320
#define H 240
#define FPS 15

static char dir[256];

static int setup(void **state)
{
    (void)state;
    const char *bin = getenv("KIFUCAM_BIN");
    if (!bin || !*bin)
        return -1;
    snprintf(dir, sizeof dir, "/tmp/kc_capfoot_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s/samples/games/demo.sgf' --out '%s/frames' --video '%s/game.avi' "
             "--size %dx%d --fps %d --moves 4 --pace 0.1 --seed 5 2>/dev/null",
             bin, kc_source_dir(), dir, dir, W, H, FPS);
    return kc_run(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return kc_run(cmd) == 0 ? 0 : -1;
}

/* Mean of all channels of a frame, to compare pictures across sources. */
static double mean_of(const cvb_image_t *img)
{
    double sum = 0;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w * img->channels; x++)
            sum += img->data[(size_t)y * img->stride + x];
    return sum / ((double)img->w * img->h * img->channels);
}

static void test_folder_matches_truth(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/frames/truth.txt", dir);
    rnd_truth_t *truth = NULL;
    assert_int_equal(rnd_truth_open(path, &truth), 0);
    int nframes = rnd_truth_frames(truth);
    assert_true(nframes > 20);

    cap_options_t opt;
    cap_options_defaults(&opt);
    opt.fps = FPS;
    cap_source_t *src = NULL;
    snprintf(path, sizeof path, "%s/frames", dir);
    assert_int_equal(cap_source_open(path, &opt, &src), CAP_OK);
    cap_info_t info;
    assert_int_equal(cap_source_info(src, &info), CAP_OK);
    assert_int_equal(info.kind, CAP_KIND_FOLDER);

    rnd_truth_frame_t tf;
    cap_frame_t f;
    int n = 0, line = 0;
    while (rnd_truth_next(truth, &tf, &line) == 0) {
        assert_int_equal(cap_source_next(src, &f), CAP_OK);
        assert_int_equal(f.img.w, W);
        assert_int_equal(f.img.h, H);
        assert_int_equal(f.img.channels, 3);
        assert_int_equal((int)f.seq, n);
        assert_int_equal((int)f.index, tf.frame);
        assert_true(fabs(f.t - tf.t) < 1.1e-3); /* the truth writes milliseconds */
        n++;
    }
    assert_int_equal(n, nframes);
    assert_int_equal(cap_source_next(src, &f), CAP_EEOF);
    cap_source_close(src);
    rnd_truth_close(truth);
}

static void test_video_matches_folder(void **state)
{
    (void)state;
    cap_options_t opt;
    cap_options_defaults(&opt);
    opt.fps = FPS;
    char path[512];
    cap_source_t *folder = NULL, *video = NULL;
    snprintf(path, sizeof path, "%s/frames", dir);
    assert_int_equal(cap_source_open(path, &opt, &folder), CAP_OK);
    snprintf(path, sizeof path, "%s/game.avi", dir);
    assert_int_equal(cap_source_open(path, &opt, &video), CAP_OK);
    cap_info_t info;
    assert_int_equal(cap_source_info(video, &info), CAP_OK);
    assert_int_equal(info.kind, CAP_KIND_VIDEO);
    assert_true(fabs(info.fps - FPS) < 0.01);

    int n = 0;
    for (;;) {
        cap_frame_t a, b;
        int ra = cap_source_next(folder, &a);
        double ma = ra == CAP_OK ? mean_of(&a.img) : 0;
        int rb = cap_source_next(video, &b);
        assert_int_equal(ra, rb); /* both end together */
        if (ra != CAP_OK)
            break;
        assert_int_equal(b.img.w, W);
        assert_int_equal(b.img.h, H);
        assert_true(fabs(a.t - b.t) < 1e-6);
        /* the same picture, through two lossy codecs */
        assert_true(fabs(ma - mean_of(&b.img)) < 4.0);
        n++;
    }
    assert_true(n > 20);
    cap_source_close(folder);
    cap_source_close(video);
}

static void test_folder_analyse_rate(void **state)
{
    (void)state;
    cap_options_t opt;
    cap_options_defaults(&opt);
    opt.fps = FPS;
    opt.analyse_fps = 5; /* every 3rd frame at 15 fps */
    char path[512];
    snprintf(path, sizeof path, "%s/frames", dir);
    cap_source_t *src = NULL;
    assert_int_equal(cap_source_open(path, &opt, &src), CAP_OK);
    cap_frame_t f;
    int n = 0;
    while (cap_source_next(src, &f) == CAP_OK) {
        assert_int_equal((int)f.index, 3 * n);
        assert_true(fabs(f.t - (double)f.index / FPS) < 1e-6);
        n++;
    }
    cap_info_t info;
    assert_int_equal(cap_source_info(src, &info), CAP_OK);
    assert_true(n > 5);
    assert_true(info.skipped >= (uint64_t)(2 * (n - 1)));
    cap_source_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folder_matches_truth),
        cmocka_unit_test(test_video_matches_folder),
        cmocka_unit_test(test_folder_analyse_rate),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
