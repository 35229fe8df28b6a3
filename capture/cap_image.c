/* cap_image.c: the one image-size guard (cap_source.h, cap_image_size): the width and
 * height of an image read from its header, before any decoder is given the file, so
 * that a few megabytes claiming 30000x30000 pixels (a decompression bomb) are refused
 * for the cost of reading a few hundred bytes.
 *
 * Formats: those OpenCV's imread takes in this build whose header says the size: PNG,
 * JPEG (SOFn after any APPn), BMP (and OS/2 BMP), PBM/PGM/PPM/PAM/PFM, TIFF and BigTIFF
 * (first image), WebP (VP8, VP8L, VP8X), Sun raster, Radiance HDR, JPEG 2000 (JP2 ihdr,
 * J2K SIZ) and OpenEXR (dataWindow). Anything else is not decoded (CAP_EDECODE): nothing
 * unsized ever reaches a decoder.
 *
 * Invariants: never reads more than CAP_HEAD_MAX bytes past what a format's own offsets
 * point at; every offset from the file is bounds-checked against the bytes read; no
 * allocation.
 */
#include "capture/cap_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the header's bytes come from: a file (pread) or memory. */
typedef struct img_src {
    int fd;                 /* -1 for memory */
    const uint8_t *mem;
    uint64_t len;           /* bytes available (the file's size, or the buffer's) */
} img_src_t;

/* Read n bytes at off into buf: 1 when all were there, else 0. */
static int src_get(const img_src_t *s, uint64_t off, void *buf, size_t n)
{
    if (off > s->len || n > s->len - off)
        return 0;
    if (s->fd < 0) {
        memcpy(buf, s->mem + off, n);
        return 1;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(s->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    return 1;
}

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p + 4) << 32 | le32(p); }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* JPEG: the first SOFn frame header, stepping over the other marker segments. */
static int size_jpeg(const img_src_t *s, uint64_t *w, uint64_t *h)
{
    uint64_t off = 2;
    for (int segs = 0; segs < 100000; segs++) {
        uint8_t m[4];
        if (!src_get(s, off, m, 2))
            return 0;
        if (m[0] != 0xff)
            return 0;
        if (m[1] == 0xff) {       /* fill byte */
            off++;
            continue;
        }
        uint8_t t = m[1];
        if (t == 0xd8 || t == 0x01 || (t >= 0xd0 && t <= 0xd7)) {   /* no length */
            off += 2;
            continue;
        }
        if (t == 0xd9 || t == 0xda)   /* end of image, or scan data before any frame */
            return 0;
        if (!src_get(s, off + 2, m + 2, 2))
            return 0;
        uint32_t seglen = be16(m + 2);
        if (seglen < 2)
            return 0;
        if (t >= 0xc0 && t <= 0xcf && t != 0xc4 && t != 0xc8 && t != 0xcc) {
            uint8_t f[5];
            if (seglen < 7 || !src_get(s, off + 4, f, 5))
                return 0;
            *h = be16(f + 1);
            *w = be16(f + 3);
            return 1;
        }
        off += 2 + seglen;
    }
    return 0;
}

/* Skip whitespace and '#' comments of a PNM header; the next unsigned number. */
static int pnm_num(const uint8_t *b, size_t n, size_t *i, uint64_t *out)
{
    while (*i < n) {
        if (b[*i] == '#') {
            while (*i < n && b[*i] != '\n' && b[*i] != '\r')
                (*i)++;
        } else if (b[*i] == ' ' || b[*i] == '\t' || b[*i] == '\n' || b[*i] == '\r' ||
                   b[*i] == '\v' || b[*i] == '\f') {
            (*i)++;
        } else {
            break;
        }
    }
    if (*i >= n || b[*i] < '0' || b[*i] > '9')
        return 0;
    uint64_t v = 0;
    while (*i < n && b[*i] >= '0' && b[*i] <= '9') {
        if (v > UINT32_MAX)
            return 0;
        v = v * 10 + (uint64_t)(b[*i] - '0');
        (*i)++;
    }
    *out = v;
    return 1;
}

/* PAM (P7): WIDTH and HEIGHT lines before ENDHDR. */
static int size_pam(const uint8_t *b, size_t n, uint64_t *w, uint64_t *h)
{
    int have = 0;
    size_t i = 2;
    while (i < n) {
        size_t e = i;
        while (e < n && b[e] != '\n')
            e++;
        if (e - i >= 6 && !memcmp(b + i, "ENDHDR", 6))
            return have == 3;
        size_t j;
        if (e - i > 6 && !memcmp(b + i, "WIDTH", 5)) {
            j = i + 5;
            if (pnm_num(b, e, &j, w))
                have |= 1;
        } else if (e - i > 7 && !memcmp(b + i, "HEIGHT", 6)) {
            j = i + 6;
            if (pnm_num(b, e, &j, h))
                have |= 2;
        }
        i = e + 1;
    }
    return 0;
}

/* TIFF / BigTIFF: ImageWidth (256) and ImageLength (257) of the first directory. */
static int size_tiff(const img_src_t *s, const uint8_t *hd, uint64_t *w, uint64_t *h)
{
    int le = hd[0] == 'I';
    uint32_t (*r16)(const uint8_t *) = le ? le16 : be16;
    uint32_t (*r32)(const uint8_t *) = le ? le32 : be32;
    uint64_t (*r64)(const uint8_t *) = le ? le64 : be64;
    int big = r16(hd + 2) == 43;
    uint64_t ifd = big ? r64(hd + 8) : r32(hd + 4);
    uint8_t cnt[8];
    if (!src_get(s, ifd, cnt, big ? 8 : 2))
        return 0;
    uint64_t n = big ? r64(cnt) : r16(cnt);
    size_t esz = big ? 20 : 12;
    int have = 0;
    for (uint64_t k = 0; k < n && k < 4096 && have != 3; k++) {
        uint8_t e[20];
        if (!src_get(s, ifd + (big ? 8 : 2) + k * esz, e, esz))
            return 0;
        uint32_t tag = r16(e), type = r16(e + 2);
        const uint8_t *v = e + (big ? 12 : 8);
        uint64_t val;
        if (type == 3)
            val = r16(v);
        else if (type == 4)
            val = r32(v);
        else if (type == 16 && big)
            val = r64(v);
        else
            continue;
        if (tag == 256) {
            *w = val;
            have |= 1;
        } else if (tag == 257) {
            *h = val;
            have |= 2;
        }
    }
    return have == 3;
}

/* OpenEXR: the dataWindow attribute (box2i: xMin yMin xMax yMax) of the header. */
static int size_exr(const img_src_t *s, uint64_t *w, uint64_t *h)
{
    uint64_t off = 8;
    for (int a = 0; a < 1000; a++) {
        uint8_t b[64 + 64 + 4];
        size_t got = 0;
        /* name\0type\0size: names and types are at most 31 (255 in long-name files)
         * characters; read them a byte at a time into b */
        int zeros = 0;
        while (zeros < 2 && got < sizeof b - 4) {
            if (!src_get(s, off + got, b + got, 1))
                return 0;
            if (b[got] == 0) {
                zeros++;
                if (got == 0)
                    return 0;   /* the header's end before a dataWindow */
            }
            got++;
        }
        if (zeros < 2 || !src_get(s, off + got, b + got, 4))
            return 0;
        uint32_t size = le32(b + got);
        if (!strcmp((const char *)b, "dataWindow") &&
            !strcmp((const char *)b + strlen((const char *)b) + 1, "box2i") && size == 16) {
            uint8_t v[16];
            if (!src_get(s, off + got + 4, v, 16))
                return 0;
            int64_t x0 = (int32_t)le32(v), y0 = (int32_t)le32(v + 4);
            int64_t x1 = (int32_t)le32(v + 8), y1 = (int32_t)le32(v + 12);
            if (x1 < x0 || y1 < y0)
                return 0;
            *w = (uint64_t)(x1 - x0 + 1);
            *h = (uint64_t)(y1 - y0 + 1);
            return 1;
        }
        off += got + 4 + size;
    }
    return 0;
}

/* JPEG 2000 in a JP2 file: the ihdr box inside jp2h (height, then width). */
static int size_jp2(const img_src_t *s, uint64_t *w, uint64_t *h)
{
    uint64_t off = 0, end = s->len;
    for (int boxes = 0; boxes < 10000 && off + 8 <= end; boxes++) {
        uint8_t b[16];
        if (!src_get(s, off, b, 8))
            return 0;
        uint64_t len = be32(b), hdr = 8;
        if (len == 1) {
            if (!src_get(s, off + 8, b + 8, 8))
                return 0;
            len = be64(b + 8);
            hdr = 16;
        } else if (len == 0) {
            len = end - off;
        }
        if (len < hdr || len > end - off)
            return 0;
        if (!memcmp(b + 4, "jp2h", 4)) {   /* a superbox: look inside */
            off += hdr;
            end = off + len - hdr;
            continue;
        }
        if (!memcmp(b + 4, "ihdr", 4)) {
            uint8_t v[8];
            if (len < hdr + 8 || !src_get(s, off + hdr, v, 8))
                return 0;
            *h = be32(v);
            *w = be32(v + 4);
            return 1;
        }
        off += len;
    }
    return 0;
}

/* Radiance HDR: header lines, an empty line, then "-Y rows +X cols" (or another order). */
static int size_hdr(const uint8_t *b, size_t n, uint64_t *w, uint64_t *h)
{
    size_t i = 0;
    while (i < n) {   /* to the empty line */
        size_t e = i;
        while (e < n && b[e] != '\n')
            e++;
        if (e == i) {
            i = e + 1;
            break;
        }
        i = e + 1;
    }
    int have = 0;
    for (int k = 0; k < 2; k++) {
        while (i < n && b[i] == ' ')
            i++;
        if (i + 2 > n || (b[i] != '-' && b[i] != '+') || (b[i + 1] != 'X' && b[i + 1] != 'Y'))
            return 0;
        char axis = (char)b[i + 1];
        i += 2;
        uint64_t v;
        if (!pnm_num(b, n, &i, &v))
            return 0;
        if (axis == 'X') {
            *w = v;
            have |= 1;
        } else {
            *h = v;
            have |= 2;
        }
    }
    return have == 3;
}

/* The size from the header at s; CAP_OK, or CAP_EDECODE (not a format named above, or a
 * header that does not say). */
static int size_of(const img_src_t *s, uint64_t *w, uint64_t *h)
{
    uint8_t b[4096];
    size_t n = s->len < sizeof b ? (size_t)s->len : sizeof b;
    if (n < 8 || !src_get(s, 0, b, n))
        return CAP_EDECODE;
    int ok = 0;
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const uint8_t jp2[12] = { 0, 0, 0, 12, 'j', 'P', ' ', ' ', '\r', '\n', 0x87, '\n' };
    static const uint8_t sun[4] = { 0x59, 0xa6, 0x6a, 0x95 };
    static const uint8_t exr[4] = { 0x76, 0x2f, 0x31, 0x01 };
    if (!memcmp(b, png, 8)) {
        ok = n >= 24 && !memcmp(b + 12, "IHDR", 4);
        if (ok) {
            *w = be32(b + 16);
            *h = be32(b + 20);
        }
    } else if (b[0] == 0xff && b[1] == 0xd8) {
        ok = size_jpeg(s, w, h);
    } else if (b[0] == 'B' && b[1] == 'M') {
        if (n >= 26) {
            uint32_t dib = le32(b + 14);
            if (dib == 12) {
                *w = le16(b + 18);
                *h = le16(b + 20);
                ok = 1;
            } else if (dib >= 16) {
                int32_t ww = (int32_t)le32(b + 18), hh = (int32_t)le32(b + 22);
                *w = ww < 0 ? (uint64_t)(-(int64_t)ww) : (uint64_t)ww;
                *h = hh < 0 ? (uint64_t)(-(int64_t)hh) : (uint64_t)hh;   /* top-down */
                ok = 1;
            }
        }
    } else if (b[0] == 'P' && b[1] >= '1' && b[1] <= '6') {
        size_t i = 2;
        ok = pnm_num(b, n, &i, w) && pnm_num(b, n, &i, h);
    } else if (b[0] == 'P' && b[1] == '7') {
        ok = size_pam(b, n, w, h);
    } else if (b[0] == 'P' && (b[1] == 'F' || b[1] == 'f')) {
        size_t i = 2;
        ok = pnm_num(b, n, &i, w) && pnm_num(b, n, &i, h);
    } else if ((b[0] == 'I' && b[1] == 'I' && le16(b + 2) == 42) ||
               (b[0] == 'M' && b[1] == 'M' && be16(b + 2) == 42) ||
               (n >= 16 && b[0] == 'I' && b[1] == 'I' && le16(b + 2) == 43) ||
               (n >= 16 && b[0] == 'M' && b[1] == 'M' && be16(b + 2) == 43)) {
        ok = size_tiff(s, b, w, h);
    } else if (n >= 30 && !memcmp(b, "RIFF", 4) && !memcmp(b + 8, "WEBP", 4)) {
        if (!memcmp(b + 12, "VP8 ", 4) && b[23] == 0x9d && b[24] == 0x01 && b[25] == 0x2a) {
            *w = le16(b + 26) & 0x3fff;
            *h = le16(b + 28) & 0x3fff;
            ok = 1;
        } else if (!memcmp(b + 12, "VP8L", 4) && b[20] == 0x2f) {
            uint32_t v = le32(b + 21);
            *w = (v & 0x3fff) + 1;
            *h = ((v >> 14) & 0x3fff) + 1;
            ok = 1;
        } else if (!memcmp(b + 12, "VP8X", 4)) {
            *w = ((uint32_t)b[24] | (uint32_t)b[25] << 8 | (uint32_t)b[26] << 16) + 1;
            *h = ((uint32_t)b[27] | (uint32_t)b[28] << 8 | (uint32_t)b[29] << 16) + 1;
            ok = 1;
        }
    } else if (!memcmp(b, sun, 4)) {
        ok = n >= 12;
        if (ok) {
            *w = be32(b + 4);
            *h = be32(b + 8);
        }
    } else if (!memcmp(b, "#?RADIANCE", 10) || !memcmp(b, "#?RGBE", 6)) {
        ok = size_hdr(b, n, w, h);
    } else if (n >= 12 && !memcmp(b, jp2, 12)) {
        ok = size_jp2(s, w, h);
    } else if (b[0] == 0xff && b[1] == 0x4f && b[2] == 0xff && b[3] == 0x51 && n >= 24) {
        uint64_t x = be32(b + 8), y = be32(b + 12), x0 = be32(b + 16), y0 = be32(b + 20);
        ok = x > x0 && y > y0;
        if (ok) {
            *w = x - x0;
            *h = y - y0;
        }
    } else if (!memcmp(b, exr, 4)) {
        ok = size_exr(s, w, h);
    }
    return ok && *w > 0 && *h > 0 ? CAP_OK : CAP_EDECODE;
}

/* The verdict on a size, with the reason in why. */
static int judge(uint64_t w, uint64_t h, char *why, size_t n)
{
    if (w > CAP_MAX_SIDE || h > CAP_MAX_SIDE || w * h > CAP_MAX_PIXELS) {
        if (why && n)
            snprintf(why, n, "%llux%llu pixels: more than kifucam decodes (%d Mpx, %d a "
                     "side); refused before decoding", (unsigned long long)w,
                     (unsigned long long)h, CAP_MAX_PIXELS >> 20, CAP_MAX_SIDE);
        return CAP_ETOOBIG;
    }
    return CAP_OK;
}

int cap_image_size(const char *path, int *w, int *h, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (!path) {
        if (why && whylen)
            snprintf(why, whylen, "no image path");
        return CAP_EINVAL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        if (fd >= 0)
            close(fd);
        if (why && whylen)
            snprintf(why, whylen, "cannot open: %s", strerror(e));
        errno = e;
        return CAP_EOPEN;
    }
    img_src_t s = { fd, NULL, (uint64_t)st.st_size };
    uint64_t ww = 0, hh = 0;
    int rc = size_of(&s, &ww, &hh);
    close(fd);
    if (rc != CAP_OK) {
        if (why && whylen)
            snprintf(why, whylen, "not an image whose size its header tells (PNG, JPEG, BMP, "
                     "TIFF, WebP, PNM, JPEG 2000, EXR, HDR, Sun raster)");
        return rc;
    }
    rc = judge(ww, hh, why, whylen);
    if (rc == CAP_OK) {
        if (w)
            *w = (int)ww;
        if (h)
            *h = (int)hh;
    }
    return rc;
}

int cap_image_size_mem(const uint8_t *buf, size_t len, int *w, int *h, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (!buf || !len)
        return CAP_EINVAL;
    img_src_t s = { -1, buf, len };
    uint64_t ww = 0, hh = 0;
    int rc = size_of(&s, &ww, &hh);
    if (rc != CAP_OK) {
        if (why && whylen)
            snprintf(why, whylen, "not an image whose size its header tells");
        return rc;
    }
    rc = judge(ww, hh, why, whylen);
    if (rc == CAP_OK) {
        if (w)
            *w = (int)ww;
        if (h)
            *h = (int)hh;
    }
    return rc;
}
