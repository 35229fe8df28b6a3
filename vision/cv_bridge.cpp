// cv_bridge.cpp: the only C++ in kifucam: thin wrappers over OpenCV for cv_bridge.h.
// Invariants: no exception crosses into C (every entry point has a catch-all); images
// handed out are allocated with malloc so C code frees them with cvb_image_free; caller
// buffers are wrapped in cv::Mat headers without copies.
#include "vision/cv_bridge.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#define CVB_TRY try {
#define CVB_CATCH                                                                  \
    }                                                                              \
    catch (const std::bad_alloc &) { return CVB_ENOMEM; }                          \
    catch (...) { return CVB_ECV; }

namespace {

// A cv::Mat header over a C image (no copy).
cv::Mat wrap(const cvb_image_t *img)
{
    int type = img->channels == 1 ? CV_8UC1 : CV_8UC3;
    return cv::Mat(img->h, img->w, type, img->data, img->stride);
}

bool valid(const cvb_image_t *img)
{
    return img && img->data && img->w > 0 && img->h > 0 &&
           (img->channels == 1 || img->channels == 3) &&
           img->stride >= (size_t)img->w * (size_t)img->channels;
}

// Copy a Mat (8UC1 or 8UC3) into a freshly malloc'd C image.
int export_mat(const cv::Mat &m, cvb_image_t *out)
{
    if (m.empty() || m.depth() != CV_8U || (m.channels() != 1 && m.channels() != 3))
        return CVB_EINVAL;
    cvb_image_t img;
    int rc = cvb_image_alloc(&img, m.cols, m.rows, m.channels());
    if (rc)
        return rc;
    cv::Mat dst = wrap(&img);
    m.copyTo(dst);
    *out = img;
    return CVB_OK;
}

} // namespace

extern "C" {

// ---------------------------------------------------------------- common
const char *cvb_strerror(int code)
{
    switch (code) {
    case CVB_OK: return "success";
    case CVB_EINVAL: return "invalid argument";
    case CVB_ENOMEM: return "out of memory";
    case CVB_EREAD: return "cannot read or decode";
    case CVB_EWRITE: return "cannot write or encode";
    case CVB_ECV: return "OpenCV error";
    case CVB_EEOF: return "end of video";
    default: return "unknown error";
    }
}

int cvb_image_alloc(cvb_image_t *img, int w, int h, int channels)
{
    if (!img || w <= 0 || h <= 0 || (channels != 1 && channels != 3) || w > 1 << 15 ||
        h > 1 << 15)
        return CVB_EINVAL;
    size_t stride = (size_t)w * (size_t)channels;
    uint8_t *p = (uint8_t *)calloc((size_t)h, stride);
    if (!p)
        return CVB_ENOMEM;
    img->w = w;
    img->h = h;
    img->channels = channels;
    img->stride = stride;
    img->data = p;
    return CVB_OK;
}

void cvb_image_free(cvb_image_t *img)
{
    if (!img)
        return;
    free(img->data);
    img->data = NULL;
}

int cvb_imread(const char *path, int apply_exif, cvb_image_t *out)
{
    if (!path || !out)
        return CVB_EINVAL;
    CVB_TRY
    int flags = cv::IMREAD_COLOR;
    if (!apply_exif)
        flags |= cv::IMREAD_IGNORE_ORIENTATION;
    cv::Mat m = cv::imread(path, flags);
    if (m.empty())
        return CVB_EREAD;
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_imdecode(const uint8_t *buf, size_t len, cvb_image_t *out)
{
    if (!buf || !len || !out)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat raw(1, (int)len, CV_8UC1, const_cast<uint8_t *>(buf));
    cv::Mat m = cv::imdecode(raw, cv::IMREAD_COLOR);
    if (m.empty())
        return CVB_EREAD;
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_imwrite(const char *path, const cvb_image_t *img, int jpeg_quality)
{
    if (!path || !valid(img))
        return CVB_EINVAL;
    CVB_TRY
    std::vector<int> params;
    if (jpeg_quality > 0)
        params = { cv::IMWRITE_JPEG_QUALITY, jpeg_quality };
    return cv::imwrite(path, wrap(img), params) ? CVB_OK : CVB_EWRITE;
    CVB_CATCH
}

int cvb_imencode_jpeg(const cvb_image_t *img, int quality, uint8_t **buf, size_t *len)
{
    if (!valid(img) || !buf || !len)
        return CVB_EINVAL;
    CVB_TRY
    std::vector<uchar> enc;
    if (!cv::imencode(".jpg", wrap(img), enc, { cv::IMWRITE_JPEG_QUALITY, quality }))
        return CVB_EWRITE;
    uint8_t *p = (uint8_t *)malloc(enc.size());
    if (!p)
        return CVB_ENOMEM;
    memcpy(p, enc.data(), enc.size());
    *buf = p;
    *len = enc.size();
    return CVB_OK;
    CVB_CATCH
}

// ---------------------------------------------------------------- video files
struct cvb_video {
    cv::VideoCapture cap;
};

int cvb_video_open(const char *path, cvb_video_t **out, double *fps, int *w, int *h)
{
    if (!path || !out)
        return CVB_EINVAL;
    CVB_TRY
    cvb_video_t *v = new cvb_video_t;
    if (!v->cap.open(path, cv::CAP_FFMPEG) || !v->cap.isOpened()) {
        delete v;
        return CVB_EREAD;
    }
    if (fps)
        *fps = v->cap.get(cv::CAP_PROP_FPS);
    if (w)
        *w = (int)v->cap.get(cv::CAP_PROP_FRAME_WIDTH);
    if (h)
        *h = (int)v->cap.get(cv::CAP_PROP_FRAME_HEIGHT);
    *out = v;
    return CVB_OK;
    CVB_CATCH
}

int cvb_video_read(cvb_video_t *v, cvb_image_t *out)
{
    if (!v || !out)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m;
    if (!v->cap.read(m) || m.empty())
        return CVB_EEOF;
    if (out->data && (out->w != m.cols || out->h != m.rows || out->channels != m.channels()))
        cvb_image_free(out);
    if (!out->data)
        return export_mat(m, out);
    cv::Mat dst = wrap(out);
    m.copyTo(dst);
    return CVB_OK;
    CVB_CATCH
}

void cvb_video_close(cvb_video_t *v)
{
    try {
        delete v;
    } catch (...) {
    }
}

struct cvb_writer {
    cv::VideoWriter wr;
};

int cvb_writer_open(const char *path, double fps, int w, int h, cvb_writer_t **out)
{
    if (!path || !out || fps <= 0 || w <= 0 || h <= 0)
        return CVB_EINVAL;
    CVB_TRY
    std::string p(path);
    int fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
    if (p.size() > 4 && p.substr(p.size() - 4) == ".mp4")
        fourcc = cv::VideoWriter::fourcc('m', 'p', '4', 'v');
    cvb_writer_t *wr = new cvb_writer_t;
    if (!wr->wr.open(p, cv::CAP_FFMPEG, fourcc, fps, cv::Size(w, h), true)) {
        delete wr;
        return CVB_EWRITE;
    }
    *out = wr;
    return CVB_OK;
    CVB_CATCH
}

int cvb_writer_write(cvb_writer_t *wr, const cvb_image_t *img)
{
    if (!wr || !valid(img) || img->channels != 3)
        return CVB_EINVAL;
    CVB_TRY
    wr->wr.write(wrap(img));
    return CVB_OK;
    CVB_CATCH
}

void cvb_writer_close(cvb_writer_t *wr)
{
    try {
        delete wr;
    } catch (...) {
    }
}

// ---------------------------------------------------------------- vision

// ---------------------------------------------------------------- capture
// Make *dst a w x h BGR image, keeping its pixels when the shape already matches.
static int cap_ensure_bgr(cvb_image_t *dst, int w, int h)
{
    if (dst->data && dst->w == w && dst->h == h && dst->channels == 3)
        return CVB_OK;
    cvb_image_free(dst);
    return cvb_image_alloc(dst, w, h, 3);
}

int cvb_yuyv_to_bgr(const uint8_t *src, size_t src_stride, int w, int h, cvb_image_t *dst)
{
    if (!src || !dst || w <= 0 || h <= 0 || (w & 1) || src_stride < (size_t)w * 2)
        return CVB_EINVAL;
    CVB_TRY
    int rc = cap_ensure_bgr(dst, w, h);
    if (rc)
        return rc;
    cv::Mat in(h, w, CV_8UC2, const_cast<uint8_t *>(src), src_stride);
    cv::Mat out = wrap(dst);
    cv::cvtColor(in, out, cv::COLOR_YUV2BGR_YUYV);
    return CVB_OK;
    CVB_CATCH
}

int cvb_imdecode_into(const uint8_t *buf, size_t len, cvb_image_t *dst)
{
    if (!buf || !len || !dst || len > (size_t)INT32_MAX)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat raw(1, (int)len, CV_8UC1, const_cast<uint8_t *>(buf));
    cv::Mat m;
    if (dst->data && dst->channels == 3)
        m = wrap(dst); // imdecode reuses this header's pixels when the size matches
    cv::imdecode(raw, cv::IMREAD_COLOR, &m);
    if (m.empty() || m.type() != CV_8UC3)
        return CVB_EREAD;
    if (dst->data && m.data == dst->data)
        return CVB_OK;
    cvb_image_t img;
    int rc = export_mat(m, &img);
    if (rc)
        return rc;
    cvb_image_free(dst);
    *dst = img;
    return CVB_OK;
    CVB_CATCH
}

// ---------------------------------------------------------------- render

// ---------------------------------------------------------------- calib

} // extern "C"
