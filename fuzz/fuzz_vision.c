/* fuzz_vision.c: libFuzzer target for the vision entry points (vision/vis.h).
 *
 * The first byte chooses the mode:
 *   even: the rest is an encoded image (JPEG, PNG, BMP, ... whatever OpenCV decodes),
 *         decoded with cvb_imdecode (at most 2^22 pixels: OPENCV_IO_MAX_IMAGE_PIXELS is
 *         set at start-up) and, when at most 1024x1024, handed to vis_detect;
 *   odd:  a small raw image: width, height (8..135), channels (1 or 3), a size hint and
 *         four corners come from the next bytes, the pixels from the rest (repeated);
 *         then vis_detect, vis_classify and vis_track with the given corners, and the
 *         board's own line contrast (vis_line_contrast) and tracking by it, and the
 *         star points' responses (vis_star_responses, gray images) and a window's count.
 * Checks (a violation traps): a status code is 0 or a VIS_E* code; on success the
 * snapshot's size is 2..25 (the hint when one was given), every colour is 0..2 and every
 * confidence in 0..1; the geometry's corners are finite; a line contrast is in (0, 1]; a
 * star response is NAN or finite, and refused for a colour image.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vision/cv_bridge.h"
#include "vision/vis.h"
#include "vision/vis_track.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("OPENCV_IO_MAX_IMAGE_PIXELS", "4194304", 1);
    setenv("OPENCV_LOG_LEVEL", "SILENT", 1);
    cvb_quiet();
    cvb_set_num_threads(1);
    return 0;
}

static void check_status(int rc)
{
    if (rc > 0 || rc < VIS_ECV)
        __builtin_trap();
}

static void check_snap(const vis_snapshot_t *s, int hint)
{
    if (s->size < 2 || s->size > VIS_MAX_SIZE || (hint && s->size != hint))
        __builtin_trap();
    for (int i = 0; i < s->size * s->size; i++) {
        if (s->color[i] > 2 || !(s->conf[i] >= 0.0f && s->conf[i] <= 1.0f))
            __builtin_trap();
    }
}

static void check_geom(const vis_geom_t *g)
{
    for (int i = 0; i < 4; i++)
        if (!isfinite(g->corners[i][0]) || !isfinite(g->corners[i][1]))
            __builtin_trap();
}

static void detect(const cvb_image_t *img, int hint)
{
    vis_geom_t g;
    vis_snapshot_t s;
    vis_timing_t tm;
    int rc = vis_detect(img, NULL, hint, &g, &s, &tm);
    check_status(rc);
    if (rc == VIS_OK) {
        check_geom(&g);
        check_snap(&s, hint);
        vis_snapshot_t t;
        rc = vis_track(img, &g, NULL, &t);
        check_status(rc);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    int mode = data[0];
    data++;
    size--;
    if ((mode & 1) == 0) {
        cvb_image_t img;
        if (cvb_imdecode(data, size, &img) != CVB_OK)
            return 0;
        if (img.w <= 1024 && img.h <= 1024)
            detect(&img, 0);
        cvb_image_free(&img);
        return 0;
    }
    if (size < 16)
        return 0;
    static const int hints[4] = { 0, 9, 13, 19 };
    int w = 8 + data[0] % 128, h = 8 + data[1] % 128;
    int ch = (data[2] & 1) ? 3 : 1;
    int hint = hints[(data[2] >> 1) & 3];
    int csize = 2 + data[3] % 24;              /* for vis_classify: any size 2..25 */
    double corners[4][2];
    for (int i = 0; i < 4; i++) {              /* anywhere in and around the image */
        corners[i][0] = (data[4 + 2 * i] - 32) * (w / 192.0);
        corners[i][1] = (data[5 + 2 * i] - 32) * (h / 192.0);
    }
    data += 12;
    size -= 12;
    cvb_image_t img;
    if (cvb_image_alloc(&img, w, h, ch) != CVB_OK)
        return 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w * ch; x++)
            img.data[(size_t)y * img.stride + (size_t)x] =
                data[((size_t)y * (size_t)(w * ch) + (size_t)x) % size];
    detect(&img, hint);
    vis_geom_t g;
    int rc = vis_geom_from_corners(corners, csize, w, h, &g);
    check_status(rc);
    if (rc == VIS_OK) {
        vis_snapshot_t s;
        rc = vis_classify(&img, &g, NULL, &s);
        check_status(rc);
        if (rc == VIS_OK)
            check_snap(&s, csize);
        rc = vis_track(&img, &g, NULL, &s);
        check_status(rc);
        if (rc == VIS_OK)
            check_snap(&s, csize);
        float resp[VIS_MAX_POINTS];     /* star points: gray only, NAN or finite */
        rc = vis_star_responses(&img, &g, 8, resp);
        check_status(rc);
        if ((rc == VIS_OK) != (ch == 1))
            __builtin_trap();
        if (rc == VIS_OK) {
            uint8_t found[VIS_MAX_POINTS];
            for (int i = 0; i < csize * csize; i++) {
                if (!isnan(resp[i]) && !isfinite(resp[i]))
                    __builtin_trap();
                found[i] = resp[i] >= 0.75f;
            }
            int hits, misses;
            vis_star_window(found, csize, csize < 9 ? csize : 9, csize / 3, csize / 4, &hits, &misses);
            if (hits < 0 || misses < 0 || hits + misses > csize * csize)
                __builtin_trap();
        }
        double fit, k = 0;
        check_status(vis_grid_fit(&img, &g, &fit));
        rc = vis_line_contrast(&img, &g, NULL, &k);
        check_status(rc);
        if (rc == VIS_OK) {
            if (!(k > 0 && k <= 1))
                __builtin_trap();
            check_status(vis_grid_fit_k(&img, &g, k, &fit));
            rc = vis_track_k(&img, &g, NULL, k, &s);
            check_status(rc);
            if (rc == VIS_OK)
                check_snap(&s, csize);
        }
    }
    cvb_image_free(&img);
    return 0;
}
