// cv_bridge.cpp: the only C++ in kifucam: thin wrappers over OpenCV for cv_bridge.h.
// Invariants: no exception crosses into C (every entry point has a catch-all); images
// handed out are allocated with malloc so C code frees them with cvb_image_free; caller
// buffers are wrapped in cv::Mat headers without copies.
#include "vision/cv_bridge.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
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

int cvb_image_copy(const cvb_image_t *src, cvb_image_t *dst)
{
    if (!src || !src->data || !dst)
        return CVB_EINVAL;
    int rc = cvb_image_alloc(dst, src->w, src->h, src->channels);
    if (rc)
        return rc;
    for (int y = 0; y < src->h; y++)
        std::memcpy(dst->data + (size_t)y * dst->stride, src->data + (size_t)y * src->stride,
                    (size_t)src->w * (size_t)src->channels);
    return CVB_OK;
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
    return cvb_imencode(".jpg", img, quality, buf, len);
}

int cvb_imencode(const char *ext, const cvb_image_t *img, int jpeg_quality, uint8_t **buf,
                 size_t *len)
{
    if (!ext || !*ext || !valid(img) || !buf || !len)
        return CVB_EINVAL;
    CVB_TRY
    std::vector<int> params;
    if (jpeg_quality > 0)
        params = { cv::IMWRITE_JPEG_QUALITY, jpeg_quality };
    std::vector<uchar> enc;
    if (!cv::imencode(ext, wrap(img), enc, params) || enc.empty())
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
int cvb_resize(const cvb_image_t *img, int w, int h, cvb_image_t *out)
{
    if (!valid(img) || !out || w <= 0 || h <= 0)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m;
    int interp = (w < img->w) ? cv::INTER_AREA : cv::INTER_LINEAR;
    cv::resize(wrap(img), m, cv::Size(w, h), 0, 0, interp);
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_to_gray(const cvb_image_t *img, cvb_image_t *out)
{
    if (!valid(img) || !out)
        return CVB_EINVAL;
    CVB_TRY
    if (img->channels == 1)
        return export_mat(wrap(img), out);
    cv::Mat m;
    cv::cvtColor(wrap(img), m, cv::COLOR_BGR2GRAY);
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_blackhat(const cvb_image_t *gray, int ksize, cvb_image_t *out)
{
    if (!valid(gray) || gray->channels != 1 || !out || ksize < 1)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m;
    cv::Mat k = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(ksize, ksize));
    cv::morphologyEx(wrap(gray), m, cv::MORPH_BLACKHAT, k);
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_hough_lines(const cvb_image_t *bin, double rho_res, double theta_res, int threshold,
                    double min_theta, double max_theta, int max_lines, float *rho,
                    float *theta, int *votes, int *n)
{
    if (!valid(bin) || bin->channels != 1 || !rho || !theta || !votes || !n ||
        max_lines < 0 || rho_res <= 0 || theta_res <= 0 || min_theta < 0 ||
        max_theta > CV_PI + 1e-9 || max_theta <= min_theta)
        return CVB_EINVAL;
    CVB_TRY
    std::vector<cv::Vec3f> lines;
    cv::HoughLines(wrap(bin), lines, rho_res, theta_res, threshold, 0, 0, min_theta,
                   max_theta < CV_PI ? max_theta : CV_PI);
    int k = 0;
    for (size_t i = 0; i < lines.size() && k < max_lines; i++, k++) {
        rho[k] = lines[i][0];
        theta[k] = lines[i][1];
        votes[k] = (int)lines[i][2];
    }
    *n = k;
    return CVB_OK;
    CVB_CATCH
}

int cvb_warp_perspective(const cvb_image_t *img, const double H[9], int inverse, int w,
                         int h, cvb_image_t *out)
{
    if (!valid(img) || !H || !out || w <= 0 || h <= 0)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat Hm(3, 3, CV_64F, const_cast<double *>(H));
    cv::Mat m;
    int flags = cv::INTER_LINEAR | (inverse ? cv::WARP_INVERSE_MAP : 0);
    cv::warpPerspective(wrap(img), m, Hm, cv::Size(w, h), flags);
    return export_mat(m, out);
    CVB_CATCH
}

int cvb_draw_line(cvb_image_t *img, double x0, double y0, double x1, double y1, int b,
                  int g, int r, int thickness)
{
    if (!valid(img) || thickness < 1)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m = wrap(img);
    cv::line(m, cv::Point(cvRound(x0), cvRound(y0)),
             cv::Point(cvRound(x1), cvRound(y1)), cv::Scalar(b, g, r), thickness,
             cv::LINE_AA);
    return CVB_OK;
    CVB_CATCH
}

int cvb_draw_text(cvb_image_t *img, const char *text, double x, double y, double scale, int b,
                  int g, int r, int thickness)
{
    if (!valid(img) || !text || scale <= 0 || thickness < 1)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m = wrap(img);
    cv::putText(m, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale,
                cv::Scalar(b, g, r), thickness, cv::LINE_AA);
    return CVB_OK;
    CVB_CATCH
}

int cvb_draw_circle(cvb_image_t *img, double x, double y, double radius, int b, int g,
                    int r, int thickness)
{
    if (!valid(img) || radius < 0)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m = wrap(img);
    cv::circle(m, cv::Point(cvRound(x), cvRound(y)), cvRound(radius),
               cv::Scalar(b, g, r), thickness < 0 ? cv::FILLED : thickness, cv::LINE_AA);
    return CVB_OK;
    CVB_CATCH
}

int cvb_gaussian_blur(const cvb_image_t *img, int ksize, double sigma, cvb_image_t *out)
{
    if (!valid(img) || !out || ksize < 0 || (ksize && !(ksize & 1)) || (!ksize && sigma <= 0))
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m;
    cv::GaussianBlur(wrap(img), m, cv::Size(ksize, ksize), sigma);
    return export_mat(m, out);
    CVB_CATCH
}

// *out made w x h with ch channels: its pixels kept when it has that size already (a
// caller's buffer reused frame after frame), else freed and allocated anew.
static int reuse_or_alloc(cvb_image_t *out, int w, int h, int ch)
{
    if (out->data && out->w == w && out->h == h && out->channels == ch)
        return CVB_OK;
    cvb_image_t fresh;
    int rc = cvb_image_alloc(&fresh, w, h, ch);
    if (rc)
        return rc;
    cvb_image_free(out);
    *out = fresh;
    return CVB_OK;
}

int cvb_warp_perspective_into(const cvb_image_t *img, const double H[9], int w, int h,
                              cvb_image_t *out)
{
    if (!valid(img) || !H || !out || w <= 0 || h <= 0)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat Hm(3, 3, CV_64F, const_cast<double *>(H));
    if (int rc = reuse_or_alloc(out, w, h, img->channels))
        return rc;
    cv::Mat dst = wrap(out);
    cv::warpPerspective(wrap(img), dst, Hm, cv::Size(w, h),
                        cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT);
    return CVB_OK;
    CVB_CATCH
}

struct cvb_warp_map {
    cv::Mat map1, map2; // CV_16SC2 and CV_16UC1 (cv::convertMaps)
    int iw, ih;
};

int cvb_warp_map_make(const double M[9], int iw, int ih, int w, int h, cvb_warp_map_t **out)
{
    if (!M || !out || iw <= 0 || ih <= 0 || w <= 0 || h <= 0)
        return CVB_EINVAL;
    *out = nullptr;
    CVB_TRY
    // the coordinates exactly as cv::warpPerspective computes them (imgwarp.cpp,
    // WarpPerspectiveInvoker, OpenCV 4.x): blocks of bw0 columns, each row's values from the
    // block's first column, in double, rounded to 1/INTER_TAB_SIZE of a pixel; the same
    // remap then gives the same pixels
    const int BLOCK_SZ = 32, TAB = cv::INTER_TAB_SIZE, BITS = cv::INTER_BITS;
    int bh0 = std::min(BLOCK_SZ / 2, h);
    int bw0 = std::min(BLOCK_SZ * BLOCK_SZ / bh0, w);
    auto *m = new cvb_warp_map;
    m->map1.create(h, w, CV_16SC2);
    m->map2.create(h, w, CV_16UC1);
    for (int y = 0; y < h; y++) {
        short *xy = m->map1.ptr<short>(y);
        ushort *alpha = m->map2.ptr<ushort>(y);
        for (int x = 0; x < w; x += bw0) {
            int bw = std::min(bw0, w - x);
            double X0 = M[0] * x + M[1] * y + M[2];
            double Y0 = M[3] * x + M[4] * y + M[5];
            double W0 = M[6] * x + M[7] * y + M[8];
            for (int x1 = 0; x1 < bw; x1++) {
                double W = W0 + M[6] * x1;
                W = W ? TAB / W : 0;
                double fX = std::max((double)INT_MIN, std::min((double)INT_MAX, (X0 + M[0] * x1) * W));
                double fY = std::max((double)INT_MIN, std::min((double)INT_MAX, (Y0 + M[3] * x1) * W));
                int X = cv::saturate_cast<int>(fX), Y = cv::saturate_cast<int>(fY);
                xy[(x + x1) * 2] = cv::saturate_cast<short>(X >> BITS);
                xy[(x + x1) * 2 + 1] = cv::saturate_cast<short>(Y >> BITS);
                alpha[x + x1] = (ushort)((Y & (TAB - 1)) * TAB + (X & (TAB - 1)));
            }
        }
    }
    m->iw = iw;
    m->ih = ih;
    *out = m;
    return CVB_OK;
    CVB_CATCH
}

int cvb_warp_map_apply(const cvb_image_t *img, const cvb_warp_map_t *m, cvb_image_t *out)
{
    if (!valid(img) || !m || !out || img->w != m->iw || img->h != m->ih || out == img)
        return CVB_EINVAL;
    CVB_TRY
    int w = m->map1.cols, h = m->map1.rows;
    if (int rc = reuse_or_alloc(out, w, h, img->channels))
        return rc;
    cv::Mat dst = wrap(out);
    cv::remap(wrap(img), dst, m->map1, m->map2, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
              cv::Scalar::all(0));
    return CVB_OK;
    CVB_CATCH
}

void cvb_warp_map_free(cvb_warp_map_t *m)
{
    delete m;
}

struct cvb_net {
    cv::dnn::Net net;
    cv::Mat blob, out;
    int s2d;   // the input laid out space-to-depth by 4 (48 channels, train/relayout.py)
};

// 1 when the network's first convolution reads 48 channels through a 1x1 kernel: the
// view space-to-depth by 4 (train/relayout.py); 0: the view's 3 planes as exported.
static int first_conv_s2d(cv::dnn::Net &net)
{
    std::vector<cv::String> names = net.getLayerNames();
    for (const cv::String &nm : names) {
        cv::Ptr<cv::dnn::Layer> l = net.getLayer(nm);
        if (l.empty() || l->type != "Convolution")
            continue;
        if (l->blobs.empty() || l->blobs[0].dims != 4)
            return 0;
        return l->blobs[0].size[1] == 48 && l->blobs[0].size[2] == 1 && l->blobs[0].size[3] == 1;
    }
    return 0;
}

int cvb_net_load_onnx(const uint8_t *buf, size_t len, cvb_net_t **out)
{
    if (!buf || !len || !out)
        return CVB_EINVAL;
    cvb_net_t *n = nullptr;
    try {
        n = new cvb_net_t;
        n->net = cv::dnn::readNetFromONNX(reinterpret_cast<const char *>(buf), len);
        if (n->net.empty()) {
            delete n;
            return CVB_EREAD;
        }
        n->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        n->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        n->s2d = first_conv_s2d(n->net);
        *out = n;
        return CVB_OK;
    } catch (const std::bad_alloc &) {
        delete n;
        return CVB_ENOMEM;
    } catch (...) {
        delete n;
        return CVB_EREAD;
    }
}

int cvb_net_forward(cvb_net_t *net, const cvb_image_t *img, float *out, size_t cap, int *c,
                    int *oh, int *ow)
{
    if (!net || !valid(img) || img->channels != 3 || !out || !c || !oh || !ow)
        return CVB_EINVAL;
    CVB_TRY
    // the blob of the pixels / 255 (what blobFromImage makes, without its general-purpose
    // resize and swap passes): 1 x 3 x h x w, planes B, G, R; or, for a network re-laid
    // by train/relayout.py, space-to-depth by 4: 1 x 48 x h/4 x w/4, channel c*16 + 4i + j
    // holding colour c at row 4Y+i, column 4X+j
    const float k = 1.0f / 255.0f;
    if (net->s2d) {
        if (img->w % 4 || img->h % 4)
            return CVB_EINVAL;
        int H4 = img->h / 4, W4 = img->w / 4, sz[4] = { 1, 48, H4, W4 };
        if (net->blob.dims != 4 || net->blob.size[1] != 48 || net->blob.size[2] != H4 ||
            net->blob.size[3] != W4)
            net->blob.create(4, sz, CV_32F);
        float *b = net->blob.ptr<float>();
        size_t plane = (size_t)H4 * W4;
        for (int y = 0; y < img->h; y++) {
            const uint8_t *p = img->data + (size_t)y * img->stride;
            size_t i = (size_t)(y & 3), row = (size_t)(y >> 2) * W4;
            for (int x = 0; x < img->w; x++) {
                size_t at = row + (size_t)(x >> 2), ch = i * 4 + (size_t)(x & 3);
                b[ch * plane + at] = p[3 * x] * k;
                b[(16 + ch) * plane + at] = p[3 * x + 1] * k;
                b[(32 + ch) * plane + at] = p[3 * x + 2] * k;
            }
        }
    } else {
        int sz[4] = { 1, 3, img->h, img->w };
        if (net->blob.dims != 4 || net->blob.size[1] != 3 || net->blob.size[2] != img->h ||
            net->blob.size[3] != img->w)
            net->blob.create(4, sz, CV_32F);
        float *pb = net->blob.ptr<float>(), *pg = pb + (size_t)img->w * img->h,
              *pr = pg + (size_t)img->w * img->h;
        for (int y = 0; y < img->h; y++) {
            const uint8_t *p = img->data + (size_t)y * img->stride;
            size_t o = (size_t)y * img->w;
            for (int x = 0; x < img->w; x++) {
                pb[o + x] = p[3 * x] * k;
                pg[o + x] = p[3 * x + 1] * k;
                pr[o + x] = p[3 * x + 2] * k;
            }
        }
    }
    net->net.setInput(net->blob);
    net->out = net->net.forward();
    if (net->out.dims != 4 || net->out.size[0] != 1 || !net->out.isContinuous())
        return CVB_ECV;
    size_t n = (size_t)net->out.size[1] * net->out.size[2] * net->out.size[3];
    if (n > cap)
        return CVB_EINVAL;
    std::memcpy(out, net->out.ptr<float>(), n * sizeof(float));
    *c = net->out.size[1];
    *oh = net->out.size[2];
    *ow = net->out.size[3];
    return CVB_OK;
    CVB_CATCH
}

void cvb_net_free(cvb_net_t *net)
{
    delete net;
}

void cvb_set_num_threads(int n)
{
    try {
        cv::setNumThreads(n);
    } catch (...) {
    }
}

void cvb_quiet(void)
{
    try {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    } catch (...) {
    }
}

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

// imread/imdecode flags for a decoding scale of 1, 2, 4 or 8 (libjpeg's DCT scaling);
// false for any other scale.
static bool reduced_flags(int reduce, int *flags)
{
    switch (reduce) {
    case 1: *flags = cv::IMREAD_COLOR; return true;
    case 2: *flags = cv::IMREAD_REDUCED_COLOR_2; return true;
    case 4: *flags = cv::IMREAD_REDUCED_COLOR_4; return true;
    case 8: *flags = cv::IMREAD_REDUCED_COLOR_8; return true;
    default: return false;
    }
}

// Put a decoded BGR frame into dst: in place when dst already has its size, else into a
// new image that replaces dst's pixels.
static int store_into(const cv::Mat &m, cvb_image_t *dst)
{
    if (m.empty() || m.type() != CV_8UC3)
        return CVB_EREAD;
    if (dst->data && m.data == dst->data)
        return CVB_OK; // decoded straight into dst's pixels
    if (dst->data && dst->w == m.cols && dst->h == m.rows && dst->channels == 3) {
        cv::Mat d = wrap(dst);
        m.copyTo(d);
        return CVB_OK;
    }
    cvb_image_t img;
    int rc = export_mat(m, &img);
    if (rc)
        return rc;
    cvb_image_free(dst);
    *dst = img;
    return CVB_OK;
}

int cvb_imdecode_into(const uint8_t *buf, size_t len, cvb_image_t *dst)
{
    return cvb_imdecode_reduced_into(buf, len, 1, dst);
}

int cvb_imdecode_reduced_into(const uint8_t *buf, size_t len, int reduce, cvb_image_t *dst)
{
    int flags;
    if (!buf || !len || !dst || len > (size_t)INT32_MAX || !reduced_flags(reduce, &flags))
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat raw(1, (int)len, CV_8UC1, const_cast<uint8_t *>(buf));
    cv::Mat m;
    if (dst->data && dst->channels == 3)
        m = wrap(dst); // imdecode reuses this header's pixels when the size matches
    cv::imdecode(raw, flags, &m);
    return store_into(m, dst);
    CVB_CATCH
}

int cvb_imread_into(const char *path, int reduce, cvb_image_t *dst)
{
    int flags;
    if (!path || !dst || !reduced_flags(reduce, &flags))
        return CVB_EINVAL;
    CVB_TRY
    return store_into(cv::imread(path, flags), dst);
    CVB_CATCH
}

int cvb_video_skip(cvb_video_t *v)
{
    if (!v)
        return CVB_EINVAL;
    CVB_TRY
    return v->cap.grab() ? CVB_OK : CVB_EEOF;
    CVB_CATCH
}

int cvb_video_seek(cvb_video_t *v, uint64_t from, uint64_t to)
{
    if (!v || to < from)
        return CVB_EINVAL;
    if (to == from)
        return CVB_OK;
    CVB_TRY
    if (v->cap.set(cv::CAP_PROP_POS_FRAMES, (double)to) &&
        (uint64_t)v->cap.get(cv::CAP_PROP_POS_FRAMES) == to)
        return CVB_OK;
    // back where it was, for the caller to grab on from there
    if (v->cap.set(cv::CAP_PROP_POS_FRAMES, (double)from) &&
        (uint64_t)v->cap.get(cv::CAP_PROP_POS_FRAMES) == from)
        return CVB_EEOF;
    return CVB_ECV;
    CVB_CATCH
}

// ---------------------------------------------------------------- render
int cvb_render_blur(const cvb_image_t *src, cvb_image_t *dst, int x, int y, int w, int h,
                    double sigma)
{
    if (!valid(src) || !valid(dst) || src->w != dst->w || src->h != dst->h ||
        src->channels != dst->channels || src->data == dst->data || sigma <= 0 || w <= 0 ||
        h <= 0 || x < 0 || y < 0 || x + w > src->w || y + h > src->h)
        return CVB_EINVAL;
    CVB_TRY
    int m = (int)(sigma * 3.0) + 2;
    int ex0 = x - m < 0 ? 0 : x - m, ey0 = y - m < 0 ? 0 : y - m;
    int ex1 = x + w + m > src->w ? src->w : x + w + m;
    int ey1 = y + h + m > src->h ? src->h : y + h + m;
    cv::Mat s = wrap(src)(cv::Rect(ex0, ey0, ex1 - ex0, ey1 - ey0));
    cv::Mat t;
    cv::GaussianBlur(s, t, cv::Size(0, 0), sigma, sigma, cv::BORDER_REPLICATE);
    cv::Mat d = wrap(dst);
    t(cv::Rect(x - ex0, y - ey0, w, h)).copyTo(d(cv::Rect(x, y, w, h)));
    return CVB_OK;
    CVB_CATCH
}

// ---------------------------------------------------------------- calib
int cvb_find_chessboard(const cvb_image_t *img, int cols, int rows, float *pts, int *found)
{
    if (!valid(img) || cols < 2 || rows < 2 || !pts || !found)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat m = wrap(img), gray;
    if (img->channels == 3)
        cv::cvtColor(m, gray, cv::COLOR_BGR2GRAY);
    else
        gray = m;
    std::vector<cv::Point2f> c;
    bool ok = cv::findChessboardCorners(gray, cv::Size(cols, rows), c,
                                        cv::CALIB_CB_ADAPTIVE_THRESH |
                                            cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK);
    if (!ok || c.size() != (size_t)cols * rows) {
        *found = 0;
        return CVB_OK;
    }
    cv::cornerSubPix(gray, c, cv::Size(5, 5), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.01));
    for (size_t i = 0; i < c.size(); i++) {
        pts[2 * i] = c[i].x;
        pts[2 * i + 1] = c[i].y;
    }
    *found = 1;
    return CVB_OK;
    CVB_CATCH
}

int cvb_calibrate_camera(const float *obj, const float *img_pts, int npts, int nviews, int w,
                         int h, double K[9], double dist[5], double *rms)
{
    if (!obj || !img_pts || npts < 4 || nviews < 1 || w <= 0 || h <= 0 || !K || !dist || !rms)
        return CVB_EINVAL;
    CVB_TRY
    std::vector<cv::Point3f> o((size_t)npts);
    for (int i = 0; i < npts; i++)
        o[(size_t)i] = cv::Point3f(obj[2 * i], obj[2 * i + 1], 0.f);
    std::vector<std::vector<cv::Point3f>> objs((size_t)nviews, o);
    std::vector<std::vector<cv::Point2f>> ims((size_t)nviews);
    for (int v = 0; v < nviews; v++) {
        ims[(size_t)v].resize((size_t)npts);
        for (int i = 0; i < npts; i++) {
            const float *q = img_pts + 2 * ((size_t)v * npts + i);
            ims[(size_t)v][(size_t)i] = cv::Point2f(q[0], q[1]);
        }
    }
    cv::Mat Km, Dm;
    std::vector<cv::Mat> rv, tv;
    double e = cv::calibrateCamera(objs, ims, cv::Size(w, h), Km, Dm, rv, tv);
    if (Km.rows != 3 || Km.cols != 3 || Dm.total() < 5 || !(e >= 0 && e < 1e12))
        return CVB_ECV;
    Km.convertTo(Km, CV_64F);
    Dm.convertTo(Dm, CV_64F);
    for (int i = 0; i < 9; i++)
        K[i] = Km.at<double>(i / 3, i % 3);
    for (int i = 0; i < 5; i++)
        dist[i] = Dm.at<double>(i);
    *rms = e;
    return CVB_OK;
    CVB_CATCH
}

int cvb_undistort_points(const double *in, double *out, int n, const double K[9],
                         const double dist[5])
{
    if (!in || !out || n < 0 || !K || !dist)
        return CVB_EINVAL;
    if (n == 0)
        return CVB_OK;
    CVB_TRY
    cv::Mat Km(3, 3, CV_64F, const_cast<double *>(K));
    cv::Mat Dm(1, 5, CV_64F, const_cast<double *>(dist));
    std::vector<cv::Point2d> src((size_t)n), dst;
    for (int i = 0; i < n; i++)
        src[(size_t)i] = cv::Point2d(in[2 * i], in[2 * i + 1]);
    cv::undistortPoints(src, dst, Km, Dm, cv::noArray(), Km);
    if (dst.size() != (size_t)n)
        return CVB_ECV;
    for (int i = 0; i < n; i++) {
        out[2 * i] = dst[(size_t)i].x;
        out[2 * i + 1] = dst[(size_t)i].y;
    }
    return CVB_OK;
    CVB_CATCH
}

int cvb_undistort_map(int w, int h, const double K[9], const double dist[5], float *mapx,
                      float *mapy)
{
    if (w <= 0 || h <= 0 || !K || !dist || !mapx || !mapy)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat Km(3, 3, CV_64F, const_cast<double *>(K));
    cv::Mat Dm(1, 5, CV_64F, const_cast<double *>(dist));
    cv::Mat mx(h, w, CV_32FC1, mapx), my(h, w, CV_32FC1, mapy);
    cv::Mat ox, oy;
    cv::initUndistortRectifyMap(Km, Dm, cv::Mat(), Km, cv::Size(w, h), CV_32FC1, ox, oy);
    ox.copyTo(mx);
    oy.copyTo(my);
    if (mx.data != (uchar *)mapx || my.data != (uchar *)mapy)
        return CVB_ECV;
    return CVB_OK;
    CVB_CATCH
}

int cvb_remap(const cvb_image_t *img, const float *mapx, const float *mapy, cvb_image_t *dst)
{
    if (!valid(img) || !mapx || !mapy || !dst || dst == img)
        return CVB_EINVAL;
    CVB_TRY
    cv::Mat mx(img->h, img->w, CV_32FC1, const_cast<float *>(mapx));
    cv::Mat my(img->h, img->w, CV_32FC1, const_cast<float *>(mapy));
    int reuse = dst->data && dst->w == img->w && dst->h == img->h &&
                dst->channels == img->channels && dst->data != img->data;
    cvb_image_t fresh = { 0, 0, 0, 0, NULL };
    if (!reuse) {
        int rc = cvb_image_alloc(&fresh, img->w, img->h, img->channels);
        if (rc)
            return rc;
    }
    cv::Mat d = wrap(reuse ? dst : &fresh);
    try {
        cv::remap(wrap(img), d, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
    } catch (...) {
        cvb_image_free(&fresh);
        throw;
    }
    if (!reuse) {
        cvb_image_free(dst);
        *dst = fresh;
    }
    return CVB_OK;
    CVB_CATCH
}

} // extern "C"
