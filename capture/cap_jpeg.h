/* cap_jpeg.h: a JPEG frame in memory decoded to BGR by libjpeg-turbo (cap_jpeg.c says
 * why not OpenCV's decoder). Internal to capture/; the file and camera sources use it and
 * fall back to cvb_imdecode where it returns CAP_EFORMAT. */
#ifndef KIFUCAM_CAP_JPEG_H
#define KIFUCAM_CAP_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include "capture/cap_source.h"
#include "vision/cv_bridge.h"

/* Decode buf[0..len) at 1/reduce (1, 2, 4, 8) into dst (BGR, reusing its pixels when the
 * size matches). Returns CAP_OK; CAP_EFORMAT not a baseline/progressive JPEG of YCbCr,
 * grey or RGB, or one with EXIF (its orientation is OpenCV's to apply): use cvb_imdecode;
 * CAP_EDECODE a corrupt stream; CAP_ETOOBIG more than CAP_MAX_PIXELS; CAP_ENOMEM;
 * CAP_EINVAL bad arguments. */
int cap_jpeg_decode(const uint8_t *buf, size_t len, int reduce, cvb_image_t *dst);

#endif
