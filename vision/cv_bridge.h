/* cv_bridge.h: the ONLY door to OpenCV (C++). Plain C types; every entry point catches
 * C++ exceptions and returns a status code (0 success, negative CVB_E*); out-parameters
 * are written only on success. Decisions live in C; this file only wraps OpenCV calls.
 *
 * Images are 8-bit, 1 (gray) or 3 (BGR) channels, row-major with a stride in bytes.
 * An image made by cvb_image_alloc or returned by a cvb_* function owns its pixels and is
 * released with cvb_image_free; a cvb_image_t built by the caller around its own buffer
 * is only borrowed by the bridge (wrapped without copies, never freed by it).
 *
 * The implementation (cv_bridge.cpp) is organised in sections, one per user module
 * (common, vision, capture, render, calib): add new wrappers to your own section.
 */
#ifndef KIFUCAM_CV_BRIDGE_H
#define KIFUCAM_CV_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CVB_OK = 0,
    CVB_EINVAL = -1,    /* bad argument (NULL, empty, wrong channels) */
    CVB_ENOMEM = -2,    /* allocation failed */
    CVB_EREAD = -3,     /* file missing, unreadable or not an image/video */
    CVB_EWRITE = -4,    /* could not write or encode */
    CVB_ECV = -5,       /* OpenCV raised an exception */
    CVB_EEOF = -6       /* end of a video */
};
/* A short description of a status code; never NULL. */
const char *cvb_strerror(int code);

typedef struct cvb_image {
    int w, h;           /* pixels */
    int channels;       /* 1 gray or 3 BGR */
    size_t stride;      /* bytes per row, >= w * channels */
    uint8_t *data;      /* w*h pixels; owned when made by the bridge */
} cvb_image_t;

/* ---- common ---- */
/* Allocate a zeroed w x h image (stride = w*channels). Caller frees with cvb_image_free. */
int cvb_image_alloc(cvb_image_t *img, int w, int h, int channels);
/* Release the pixels of an image the bridge allocated; sets data to NULL. NULL-safe. */
void cvb_image_free(cvb_image_t *img);
/* A copy of src's pixels in a new image *dst (caller frees). */
int cvb_image_copy(const cvb_image_t *src, cvb_image_t *dst);
/* Read an image file (JPEG, PNG, ...) as BGR with its EXIF orientation applied when
 * apply_exif is nonzero. Caller frees. CVB_EREAD for a missing or undecodable file. */
int cvb_imread(const char *path, int apply_exif, cvb_image_t *out);
/* Decode an encoded image (JPEG, PNG...) from memory as BGR. Caller frees. */
int cvb_imdecode(const uint8_t *buf, size_t len, cvb_image_t *out);
/* Write an image; the format follows the extension (.png, .jpg with quality 1..100). */
int cvb_imwrite(const char *path, const cvb_image_t *img, int jpeg_quality);
/* cvb_imencode(".jpg", img, quality, buf, len): JPEG in memory at quality 1..100 (0:
 * OpenCV's default, 95). */
int cvb_imencode_jpeg(const cvb_image_t *img, int quality, uint8_t **buf, size_t *len);
/* Encode in memory in the format of the extension ext (".png", ".jpg" with quality
 * 1..100, ...; as cvb_imwrite chooses it): *buf (malloc'd, caller frees) and *len. The
 * caller writes the bytes (safeio/sio.h: no file written in place, no symlink followed). */
int cvb_imencode(const char *ext, const cvb_image_t *img, int jpeg_quality, uint8_t **buf,
                 size_t *len);

/* ---- video files (OpenCV videoio, FFmpeg backend) ---- */
typedef struct cvb_video cvb_video_t;
/* Open a video file for reading. *fps gets its frame rate (0 when unknown). */
int cvb_video_open(const char *path, cvb_video_t **out, double *fps, int *w, int *h);
/* Read the next frame as BGR into *out (reallocated as needed; caller frees it at the
 * end with cvb_image_free). CVB_EEOF at the end. */
int cvb_video_read(cvb_video_t *v, cvb_image_t *out);
/* Close a reader. NULL-safe. */
void cvb_video_close(cvb_video_t *v);
typedef struct cvb_writer cvb_writer_t;
/* Open a video file for writing (codec from the extension: .avi MJPG, .mp4 mp4v). */
int cvb_writer_open(const char *path, double fps, int w, int h, cvb_writer_t **out);
int cvb_writer_write(cvb_writer_t *wr, const cvb_image_t *img);
/* Finish and close a writer. NULL-safe. */
void cvb_writer_close(cvb_writer_t *wr);

/* ---- vision ---- */
/* Resize (area interpolation when shrinking, linear when growing). Caller frees *out. */
int cvb_resize(const cvb_image_t *img, int w, int h, cvb_image_t *out);
/* BGR (or gray) -> gray. Caller frees *out. */
int cvb_to_gray(const cvb_image_t *img, cvb_image_t *out);
/* Morphological black-hat (closing minus image) of a gray image with a ksize x ksize
 * square: thin dark structures (grid lines) become bright. Caller frees *out. */
int cvb_blackhat(const cvb_image_t *gray, int ksize, cvb_image_t *out);
/* Standard Hough transform of a binary image (nonzero = on), angles theta in
 * [min_theta, max_theta] (radians, within 0..pi): at most max_lines lines, strongest
 * first, as rho (pixels), theta and votes. *n gets the count. */
int cvb_hough_lines(const cvb_image_t *bin, double rho_res, double theta_res, int threshold,
                    double min_theta, double max_theta, int max_lines, float *rho,
                    float *theta, int *votes, int *n);
/* Warp by the 3x3 row-major homography H (destination pixel -> source pixel when
 * inverse is nonzero, else source -> destination) into a w x h image. Caller frees. */
int cvb_warp_perspective(const cvb_image_t *img, const double H[9], int inverse, int w,
                         int h, cvb_image_t *out);
/* Draw in place (BGR or gray; gray uses b): a line, a circle (thickness < 0 fills). */
int cvb_draw_line(cvb_image_t *img, double x0, double y0, double x1, double y1, int b,
                  int g, int r, int thickness);
int cvb_draw_circle(cvb_image_t *img, double x, double y, double radius, int b, int g,
                    int r, int thickness);
/* Text in OpenCV's Hershey sans-serif font (putText), its baseline's left end at (x, y),
 * height about 22 * scale pixels; thickness >= 1. */
int cvb_draw_text(cvb_image_t *img, const char *text, double x, double y, double scale, int b,
                  int g, int r, int thickness);
/* Gaussian blur with an odd ksize (0: from sigma). Caller frees *out. */
int cvb_gaussian_blur(const cvb_image_t *img, int ksize, double sigma, cvb_image_t *out);
/* Limit OpenCV's worker threads (1: one core, for benchmarks). */
void cvb_set_num_threads(int n);
/* Silence OpenCV's own log lines on stderr (errors come back as status codes). */
void cvb_quiet(void);

/* Warp the board region into a w x h image as cvb_warp_perspective (inverse map, linear
 * interpolation) into the caller's out when it already has that size and img's channels
 * (else (re)allocated: caller frees); pixels mapping outside img are black. */
int cvb_warp_perspective_into(const cvb_image_t *img, const double H[9], int w, int h,
                              cvb_image_t *out);

/* A neural network run for inference on the CPU through OpenCV's dnn module. Not safe
 * for concurrent calls on one net (the caller serialises). */
typedef struct cvb_net cvb_net_t;
/* Load an ONNX model from len bytes at buf (copied; buf may be freed after the call).
 * CVB_EREAD when the bytes are no model OpenCV can run. Caller frees with cvb_net_free. */
int cvb_net_load_onnx(const uint8_t *buf, size_t len, cvb_net_t **out);
/* Run the net on one BGR image, fed as a 1 x 3 x h x w float blob of the pixels / 255
 * (channel order B, G, R). The first output, of shape 1 x C x H x W, is copied into out
 * (cap floats, row-major C, H, W); *c, *oh, *ow get its shape. CVB_EINVAL when it does not
 * fit in cap. */
int cvb_net_forward(cvb_net_t *net, const cvb_image_t *img, float *out, size_t cap, int *c,
                    int *oh, int *ow);
/* Free a net. NULL-safe. */
void cvb_net_free(cvb_net_t *net);

/* ---- capture ---- */
/* Convert packed YUYV (YUY2, BT.601) w x h (w even), src_stride bytes per row, to BGR in
 * *dst, reusing its pixels when it is already w x h x 3 (else they are (re)allocated;
 * the caller frees them with cvb_image_free). */
int cvb_yuyv_to_bgr(const uint8_t *src, size_t src_stride, int w, int h, cvb_image_t *dst);
/* Decode an encoded image (JPEG / an MJPEG frame) as BGR into *dst, reusing its pixels
 * when the decoded size matches (else (re)allocated; caller frees). CVB_EREAD if corrupt. */
int cvb_imdecode_into(const uint8_t *buf, size_t len, cvb_image_t *dst);
/* Read an image file as BGR (EXIF orientation applied) at 1/reduce of its size (reduce 1,
 * 2, 4 or 8; a JPEG is scaled inside the decoder, far faster than a full decode) into
 * *dst, reusing its pixels when the size matches (else (re)allocated; caller frees).
 * CVB_EREAD for a missing or undecodable file. */
int cvb_imread_into(const char *path, int reduce, cvb_image_t *dst);
/* cvb_imdecode_into at 1/reduce of the size (reduce 1, 2, 4 or 8; a JPEG is scaled inside
 * the decoder): an MJPEG camera's frame decoded smaller and faster. */
int cvb_imdecode_reduced_into(const uint8_t *buf, size_t len, int reduce, cvb_image_t *dst);
/* Pass over the next frame of a video without converting it (VideoCapture::grab).
 * CVB_EEOF at the end. */
int cvb_video_skip(cvb_video_t *v);
/* Go from frame `from` (where the video is now, 0-based) to frame `to` (>= from) by the
 * container's index (VideoCapture::set of CAP_PROP_POS_FRAMES), without decoding what
 * lies between: CVB_OK when the position read back is `to` (the next cvb_video_read is
 * frame `to`). Otherwise (no index, an inexact seek, `to` past the end) the video is put
 * back at `from` and CVB_EEOF is returned, so that the caller grabs its way on
 * (cvb_video_skip); CVB_ECV when it cannot be put back (the position is lost). */
int cvb_video_seek(cvb_video_t *v, uint64_t from, uint64_t to);

/* ---- render ---- */
/* Gaussian blur (sigma in pixels) of the box (x, y, w, h) of src into the same box of dst
 * (same size and channels; may not be the same buffer), reading src's pixels around the
 * box as a real blur would. Pixels of dst outside the box are untouched. */
int cvb_render_blur(const cvb_image_t *src, cvb_image_t *dst, int x, int y, int w, int h,
                    double sigma);

/* ---- calib ---- */
/* Find the cols x rows inner corners of a printed chessboard in img (gray or BGR), refined
 * to sub-pixel: pts (caller's, 2*cols*rows floats) gets (x, y) pairs row by row. *found
 * is 1 when the whole pattern was seen (pts written only then), else 0. */
int cvb_find_chessboard(const cvb_image_t *img, int cols, int rows, float *pts, int *found);
/* Calibrate a camera (cv::calibrateCamera) from nviews views of one planar pattern: obj
 * holds its npts (x, y) points on the plane (any unit), img_pts nviews*npts (x, y) pixel
 * pairs in the same order, w x h the image size. K (3x3 row-major) and dist (k1, k2, p1,
 * p2, k3) are written on success, *rms the reprojection error in pixels. */
int cvb_calibrate_camera(const float *obj, const float *img_pts, int npts, int nviews, int w,
                         int h, double K[9], double dist[5], double *rms);
/* A perspective warp made once and applied to many frames of one size (a still camera
 * under one geometry): out(x, y) = img(M (x, y, 1)), bilinear, black outside: the same
 * pixels as cvb_warp_perspective_into (the maps computed as cv::warpPerspective computes
 * them, in its fixed point, then the same remap). make: for images of iw x ih into w x h;
 * apply: img must be that size (CVB_EINVAL otherwise), out reused when already w x h with
 * img's channels. free: NULL is fine. */
typedef struct cvb_warp_map cvb_warp_map_t;
int cvb_warp_map_make(const double M[9], int iw, int ih, int w, int h, cvb_warp_map_t **out);
int cvb_warp_map_apply(const cvb_image_t *img, const cvb_warp_map_t *m, cvb_image_t *out);
void cvb_warp_map_free(cvb_warp_map_t *m);

/* Undistort n pixel points (x, y pairs; out may equal in): the pixels where a distortion-
 * free camera with the same K would have seen them. */
int cvb_undistort_points(const double *in, double *out, int n, const double K[9],
                         const double dist[5]);
/* Fill the caller's w*h maps (row-major floats) for cvb_remap: undistorted pixel ->
 * distorted source pixel, keeping the camera matrix K. */
int cvb_undistort_map(int w, int h, const double K[9], const double dist[5], float *mapx,
                      float *mapy);
/* dst(x, y) = img(mapx(x, y), mapy(x, y)), bilinear, black outside. The maps are img's
 * size. dst's pixels are reused when it already has img's size and channels, else
 * (re)allocated (caller frees with cvb_image_free); dst may not be img. */
int cvb_remap(const cvb_image_t *img, const float *mapx, const float *mapy, cvb_image_t *dst);

#ifdef __cplusplus
}
#endif
#endif
