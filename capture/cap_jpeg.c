/* cap_jpeg.c: a JPEG frame in memory decoded straight to BGR by libjpeg-turbo, at
 * 1/reduce of its size (libjpeg's DCT scaling), into the pixels of dst.
 *
 * Why not cv::imdecode: OpenCV 4.6 (Debian's) asks libjpeg for RGB and then swaps every
 * pixel to BGR in a scalar loop, about a fifth of the CPU time of recording 1080p JPEG
 * footage (perf on bench/record.sh's footage); libjpeg-turbo writes BGR itself
 * (JCS_EXT_BGR) at the same cost as RGB. The pixels are the same: the same library does
 * the same decoding (tests/capture: test_cap_jpeg compares them with cvb_imdecode's).
 *
 * Invariants: reads only buf[0..len); dst keeps its pixels when its shape matches the
 * decoded size, else gets new ones (the old ones freed); a failure in the header leaves
 * dst as it was, one in the data leaves it at the frame's size holding what was decoded
 * (the caller drops the frame); libjpeg's errors come back here by longjmp and its
 * messages are never printed; frames whose EXIF may turn them, and CMYK or other colour
 * spaces, are not this decoder's: CAP_EFORMAT, so that the caller uses OpenCV's, which
 * honours them. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

#include "capture/cap_jpeg.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jb;
} jerr_t;

static void on_error(j_common_ptr c)
{
    longjmp(((jerr_t *)c->err)->jb, 1);
}

static void on_message(j_common_ptr c)
{
    (void)c; /* warnings (a corrupt but decodable stream) are not printed */
}

/* An APP1 marker holding EXIF: it may carry an orientation, which OpenCV applies. */
static int has_exif(j_decompress_ptr c)
{
    for (jpeg_saved_marker_ptr m = c->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && !memcmp(m->data, "Exif\0", 5))
            return 1;
    return 0;
}

int cap_jpeg_decode(const uint8_t *buf, size_t len, int reduce, cvb_image_t *dst)
{
    if (!buf || len < 4 || !dst || (reduce != 1 && reduce != 2 && reduce != 4 && reduce != 8) ||
        len > (size_t)0xffffffffu)
        return CAP_EINVAL;
    if (buf[0] != 0xff || buf[1] != 0xd8)
        return CAP_EFORMAT;
    struct jpeg_decompress_struct c;
    jerr_t err;
    /* volatile: read after a longjmp */
    volatile int rc = CAP_EDECODE;
    c.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    err.pub.output_message = on_message;
    if (setjmp(err.jb)) {
        jpeg_destroy_decompress(&c);
        return rc;
    }
    jpeg_create_decompress(&c);
    jpeg_mem_src(&c, buf, (unsigned long)len);
    jpeg_save_markers(&c, JPEG_APP0 + 1, 0xffff);
    jpeg_read_header(&c, TRUE);
    if (has_exif(&c) || (c.jpeg_color_space != JCS_YCbCr && c.jpeg_color_space != JCS_GRAYSCALE &&
                         c.jpeg_color_space != JCS_RGB)) {
        jpeg_destroy_decompress(&c);
        return CAP_EFORMAT;
    }
    if ((uint64_t)c.image_width * c.image_height > CAP_MAX_PIXELS) {
        jpeg_destroy_decompress(&c);
        return CAP_ETOOBIG;
    }
    c.out_color_space = JCS_EXT_BGR;
    c.scale_num = 1;
    c.scale_denom = (unsigned)reduce;
    /* as OpenCV decodes (its defaults are libjpeg's): the same pixels */
    c.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&c);
    int w = (int)c.output_width, h = (int)c.output_height;
    if (!dst->data || dst->w != w || dst->h != h || dst->channels != 3) {
        cvb_image_free(dst);
        if (cvb_image_alloc(dst, w, h, 3) != CVB_OK) {
            rc = CAP_ENOMEM;
            jpeg_destroy_decompress(&c);
            return rc;
        }
    }
    while (c.output_scanline < c.output_height) {
        JSAMPROW row = dst->data + (size_t)c.output_scanline * dst->stride;
        jpeg_read_scanlines(&c, &row, 1);
    }
    jpeg_finish_decompress(&c);
    jpeg_destroy_decompress(&c);
    return CAP_OK;
}
