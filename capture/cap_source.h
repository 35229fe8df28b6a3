/* cap_source.h: the station's input: frames from a V4L2 camera (libv4l2), a video file,
 * a folder of images (name order, a given frame rate) or a single image, behind one
 * interface.
 *
 * A frame is a borrowed BGR view owned by the source: valid until the next
 * cap_source_next() or cap_source_close() on that source. Each frame has a sequence number
 * (0, 1, 2... over the whole life of the source, across camera reopens), a time in
 * seconds (cameras: monotonic clock since the source was opened; files and folders: frame
 * index / fps) and the count of frames dropped just before it.
 *
 * Cameras: the newest frame is always the one handed on; frames that piled up while the
 * caller was busy are requeued unprocessed and counted in `dropped`. A camera that
 * vanishes (unplugged: ENODEV, poll error, EIO repeated) makes cap_source_next() return
 * CAP_EGONE; the caller keeps calling it, the source reopens the device with a back-off,
 * and CAP_OK frames flow again once it is back.
 *
 * Not thread-safe: one thread drives a source; cap_source_stop() alone may be called from
 * a signal handler or another thread.
 */
#ifndef KIFUCAM_CAP_SOURCE_H
#define KIFUCAM_CAP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "vision/cv_bridge.h"

enum {
    CAP_OK = 0,
    CAP_EINVAL = -1,    /* bad argument or option */
    CAP_ENOMEM = -2,    /* allocation failed */
    CAP_EOPEN = -3,     /* the source does not exist or cannot be opened */
    CAP_ENOTCAP = -4,   /* the device cannot capture video by streaming I/O */
    CAP_EFORMAT = -5,   /* no usable pixel format / size */
    CAP_EBUFFERS = -6,  /* the driver granted fewer than 2 buffers */
    CAP_EMMAP = -7,     /* a capture buffer could not be mapped */
    CAP_EIO = -8,       /* an I/O error on one frame (reported; call again) */
    CAP_ETIMEOUT = -9,  /* no frame within the timeout (reported; call again) */
    CAP_EGONE = -10,    /* the camera is gone; reopening with a back-off: call again */
    CAP_EEOF = -11,     /* end of the file, folder or image */
    CAP_EDECODE = -12,  /* one frame could not be decoded / converted (call again) */
    CAP_ESTOPPED = -13, /* cap_source_stop() was called */
    CAP_EDEVICE = -14,  /* the driver refused a setup request (ioctl failed) */
    CAP_ETOOBIG = -15,  /* an image whose header claims more pixels than CAP_MAX_PIXELS
                           (refused before decoding; a folder's frame: call again) */
    CAP_ELOST = -16     /* the folder (or file) went away during the run: final */
};
/* A short description of a status code; never NULL. */
const char *cap_strerror(int code);

/* The image-size guard: no image is handed to a decoder before its header says its size
 * and that size is at most CAP_MAX_PIXELS (128 Mpx: a 108 MP phone photo passes) and
 * CAP_MAX_SIDE a side. A 2.6 MB PNG claiming 30000x30000 cost 5.3 GB to decode. */
#define CAP_MAX_PIXELS (1 << 27)
#define CAP_MAX_SIDE 32768
/* The width and height of the image file at path from its header alone (cap_image.c
 * lists the formats). Returns CAP_OK (*w, *h written; either may be NULL), CAP_ETOOBIG,
 * CAP_EDECODE (not a format whose header tells its size), CAP_EOPEN (cannot be opened,
 * not a regular file: errno says why) or CAP_EINVAL; why (whylen bytes, may be NULL) gets
 * a one-line reason ("30000x30000 pixels: more than ..."). */
int cap_image_size(const char *path, int *w, int *h, char *why, size_t whylen);
/* The same for an encoded image in memory (an MJPEG camera's frame). */
int cap_image_size_mem(const uint8_t *buf, size_t len, int *w, int *h, char *why,
                       size_t whylen);

typedef enum {
    CAP_KIND_CAMERA = 1, /* a V4L2 device (/dev/videoN) */
    CAP_KIND_VIDEO,      /* a video file (OpenCV videoio) */
    CAP_KIND_FOLDER,     /* a folder of images in name order */
    CAP_KIND_IMAGE       /* a single image file: one frame */
} cap_kind_t;

/* Bits of cap_info_t.locked: the camera controls fixed after the settling frames. */
enum { CAP_LOCK_EXPOSURE = 1, CAP_LOCK_WHITE_BALANCE = 2, CAP_LOCK_FOCUS = 4 };

typedef struct cap_options {
    int width, height;  /* camera size requested; default 1920x1080 (the driver may give
                           another: see cap_source_info) */
    double fps;         /* camera frame rate requested, and the rate of a folder of images
                           (and of a video whose file gives none); default 30 */
    uint32_t pixfmt;    /* V4L2 fourcc to force (MJPG, YUYV, BGR3); 0: choose (default) */
    int nbuffers;       /* capture buffers requested; default 4 (the driver decides) */
    int timeout_ms;     /* longest wait for a frame in one cap_source_next(); default 2000 */
    int settle_frames;  /* camera: fix exposure, white balance and focus after this many
                           frames, once the automatic controls have settled; 0: never;
                           default 60 (2 s at 30 fps) */
    int reopen_min_ms;  /* back-off between attempts to reopen a vanished camera: starts
                           here, doubles each failure, up to reopen_max_ms; default 250 */
    int reopen_max_ms;  /* default 4000 */
    int eio_gone;       /* this many EIO in a row means the camera is gone; default 5 */
    int timeout_gone;   /* this many timeouts in a row: the camera has stalled, reopen it
                           (reported as CAP_EGONE); 0: never; default 5 */
    int realtime;       /* files and folders: 1 = pace frames at their rate; default 0
                           (as fast as the caller takes them) */
    double analyse_fps; /* files and folders: hand on at most this many frames per second
                           of footage, passing over the others without decoding them (a
                           folder's file is not even read): every k-th frame is taken, k =
                           floor(fps / analyse_fps), so at least this rate, evenly spaced
                           (30 fps at 10: frames 0, 3, 6...; 15 fps at 10: every frame);
                           0: every frame (default); cameras ignore it (they hand on the
                           newest frame) */
    int min_w, min_h;   /* JPEG folders and images, MJPEG cameras: decode at 1/2, 1/4 or
                           1/8 of the size (libjpeg's DCT scaling: much faster) as long as
                           the frame keeps at least min_w x min_h (compared as longer x
                           shorter side); the factor is chosen once (a folder: from its
                           first image; a camera: from the size the driver chose) so every
                           frame has one size; 0: full size (default) */
} cap_options_t;

/* Fill *o with the defaults above. */
void cap_options_defaults(cap_options_t *o);

/* A folder of frames' own frame rate, from its metadata: the `fps N` line in the header
 * of DIR/truth.txt, the file `kifucam render` writes beside its frames (a file whose
 * first line is "kifucam-render truth VERSION"; samples/README.md). Only a regular file
 * is read, and only its header (the lines before the first `event` or `frame` line).
 * Returns CAP_OK (*fps written: 0 < N <= 1000), CAP_EOPEN (no such file, or not a render
 * truth file: the folder gives no rate), CAP_EFORMAT (a truth file without an fps line,
 * or whose fps line is not a rate) or CAP_EINVAL. */
int cap_folder_rate(const char *dir, double *fps);

typedef struct cap_frame {
    cvb_image_t img;  /* BGR, borrowed: valid until the next call on the source */
    uint64_t seq;     /* sequence number of delivered frames, from 0 */
    uint64_t index;   /* files and folders: the frame's index in the source (gaps where
                         frames were passed over or unreadable); cameras: seq */
    double t;         /* seconds (see the file comment) */
    uint32_t dropped; /* frames lost just before this one (backlog, driver drops) */
} cap_frame_t;

typedef struct cap_info {
    cap_kind_t kind;
    int width, height;   /* frame size (cameras: what the driver chose; 0 until known) */
    double fps;          /* nominal frame rate (0 when unknown) */
    uint32_t pixfmt;     /* cameras: the V4L2 fourcc in use; 0 otherwise */
    int nbuffers;        /* cameras: buffers granted */
    int locked;          /* cameras: CAP_LOCK_* bits fixed so far */
    int gone;            /* cameras: 1 while the camera is lost (being reopened) */
    int reopens;         /* cameras: successful reopens after a loss */
    uint64_t dropped;    /* total frames dropped */
    uint64_t skipped;    /* files: frames passed over by analyse_fps (never decoded) */
    int reduce;          /* the decoding scale divisor in use (1, 2, 4 or 8); files: the
                            width and height above are the reduced frame's; cameras: they
                            stay the driver's, frames are width/reduce x height/reduce */
    char name[64];       /* cameras: the card name; files: the base name */
} cap_info_t;

typedef struct cap_source cap_source_t;

/* Open `spec`: /dev/videoN (or any character device) -> camera; a folder -> its images
 * (.png .jpg .jpeg .bmp .tif .tiff .ppm .pgm .webp) in name order; a file with an image
 * extension -> one frame; any other file -> a video. `opt` may be NULL (defaults).
 * *out is the new source (close with cap_source_close), written only on success. */
int cap_source_open(const char *spec, const cap_options_t *opt, cap_source_t **out);

/* Wait for the next frame (at most opt.timeout_ms) and hand it on in *f (written only on
 * CAP_OK). Errors CAP_ETIMEOUT, CAP_EIO, CAP_EDECODE and CAP_EGONE are transient: call
 * again. CAP_EEOF and CAP_ESTOPPED are final. */
int cap_source_next(cap_source_t *s, cap_frame_t *f);

/* Files, folders, images: go on at frame `index` of the source (forward only: at least
 * the next frame's index), passing over the frames before it unread: a folder moves its
 * index (no file is opened), a video grabs them without converting (cv_bridge has no
 * seek), neither paced (opt.realtime paces from the frame sought on) nor counted as
 * dropped (info.skipped counts them). analyse_fps then counts its steps from `index`, so
 * the frame sought is the next one handed on. Returns CAP_OK, CAP_EEOF (the source ends
 * before `index`: the next call is CAP_EEOF), CAP_ESTOPPED, or CAP_EINVAL (a camera,
 * backwards, NULL). */
int cap_source_seek(cap_source_t *s, uint64_t index);
/* Ask the source to stop: the pending or next cap_source_next() returns CAP_ESTOPPED.
 * Async-signal-safe (only sets a flag): a SIGINT/SIGTERM handler calls it so that a wait
 * in cap_source_next() ends at once (poll's EINTR) rather than at its timeout. NULL-safe. */
void cap_source_stop(cap_source_t *s);

/* Describe the source as it is now. */
int cap_source_info(const cap_source_t *s, cap_info_t *info);
/* The one-line reason of the last CAP_ETOOBIG, CAP_EDECODE, CAP_EIO or CAP_ELOST from a
 * file source's cap_source_next (naming the frame's file), or "" (never NULL; valid until
 * the next call on the source). */
const char *cap_source_why(const cap_source_t *s);

/* Stop streaming, unmap and close everything, free the source; safe in any state.
 * NULL-safe. Frames handed out become invalid. */
void cap_source_close(cap_source_t *s);

/* The fourcc as 4 printable characters plus NUL into buf (at least 5 bytes); returns buf. */
char *cap_fourcc_str(uint32_t fourcc, char *buf);
/* Parse "WxH" (e.g. "1280x720", for --camera-size) into *w, *h (written only on
 * success); CAP_EINVAL unless both are in 1..16384. */
int cap_parse_size(const char *str, int *w, int *h);
/* Parse a pixel format name (--camera-format): "auto" (0), "mjpg"/"mjpeg", "yuyv",
 * "bgr24", or any other 4 characters taken as a fourcc; CAP_EINVAL otherwise. */
int cap_parse_pixfmt(const char *str, uint32_t *fourcc);

#endif
