/* posed.h: a real photo laid at an angle on a table, for the tests of a grid in doubt
 * (header only; test_vision_cli.c, test_count_serve.c).
 *
 * roboflow-stones 2fc610e5 (../shared/data: a 13x13 board, cropped square to 640x640) is
 * warped into a 1024x768 picture of a grey table with its corners where bench/pose.py
 * put them with seed 19. Board finding takes a 9x9 window of the board there, and the
 * reader, shown more of the picture around it, does not believe the window's edge
 * (vis_grid_doubted). POSED_13X13 gives the 13x13's own corner points in that picture (the
 * photo's grid carried by the same warp), for --corners.
 *
 * Invariants: nothing is written unless the shared photo is there (the caller skips
 * visibly then); the picture is the same on every run (no noise, no randomness).
 */
#ifndef KIFUCAM_TESTS_POSED_H
#define KIFUCAM_TESTS_POSED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/cv_bridge.h"
#include "vision/vis_homog.h"

#define POSED_13X13 "508.8,53.4;884.4,72.1;932.2,470.2;426.8,444.3"

/* Write the posed picture of 2fc610e5 to out (PNG). 0 written; 1 the shared photo is
 * absent ($KIFUCAM_SHARED, else $KIFUCAM_SHARED_DEFAULT, else ../shared); -1 an error. */
static inline int posed_write(const char *out)
{
    const char *sh = getenv("KIFUCAM_SHARED");
    if (!sh || !*sh)
        sh = getenv("KIFUCAM_SHARED_DEFAULT");
    char cmd[700], src[600] = "";
    snprintf(cmd, sizeof cmd, "ls '%s'/data/photos/roboflow-stones/*/images/2fc610e5*.jpg 2>/dev/null",
             sh && *sh ? sh : "../shared");
    FILE *ls = popen(cmd, "r");
    if (!ls)
        return -1;
    if (!fgets(src, sizeof src, ls))
        src[0] = 0;
    pclose(ls);
    src[strcspn(src, "\n")] = 0;
    cvb_image_t img = { 0 }, canvas = { 0 };
    if (!src[0] || cvb_imread(src, 0, &img))
        return 1;
    /* the photo's corners (0,0) (640,0) (640,640) (0,640) to these of the canvas */
    const double from[8] = { 0, 0, 640, 0, 640, 640, 0, 640 };
    const double to[8] = { 496.04, 33.39, 897.96, 51.24, 944.53, 514.94, 408.55, 491.13 };
    double H[9]; /* canvas pixel -> photo pixel */
    int rc = img.w == 640 && img.h == 640 && !vis_homog_fit(4, to, from, H) &&
                     !cvb_warp_perspective(&img, H, 1, 1024, 768, &canvas)
                 ? 0 : -1;
    for (int y = 0; !rc && y < canvas.h; y++) /* the table: grey where the photo is not */
        for (int x = 0; x < canvas.w; x++) {
            double u, v;
            if (vis_homog_apply(H, x, y, &u, &v) || u < 0 || v < 0 || u > img.w - 1 || v > img.h - 1)
                memset(canvas.data + (size_t)y * canvas.stride + 3 * (size_t)x, 128, 3);
        }
    if (!rc && cvb_imwrite(out, &canvas, 0))
        rc = -1;
    cvb_image_free(&img);
    cvb_image_free(&canvas);
    return rc;
}

#endif
