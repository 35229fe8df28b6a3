/* http_client.h: a tiny HTTP/1.1 client over loopback sockets for the web tests and the
 * benchmark (header only). Requests are sent raw, with "Connection: close", and read to
 * the end; every read has a timeout so a broken server fails a test instead of hanging. */
#ifndef KIFUCAM_TESTS_HTTP_CLIENT_H
#define KIFUCAM_TESTS_HTTP_CLIENT_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

typedef struct hc_resp {
    int status;                 /* 0 when no status line came */
    char *head;                 /* the header block (NUL-terminated), malloc'd */
    char *body;                 /* the body (NUL-terminated), malloc'd */
    size_t body_len;
} hc_resp_t;

static inline void hc_resp_free(hc_resp_t *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* A connected socket to 127.0.0.1:port, or -1. */
static inline int hc_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    struct timeval tv = { 10, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    return fd;
}

static inline int hc_send_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Read until the peer closes (or an error/timeout); returns the bytes (NUL-terminated),
 * malloc'd, or NULL when nothing could be allocated. When growing the buffer fails, the
 * bytes read so far are returned. */
static inline char *hc_read_all(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    *len = 0;
    if (!buf)
        return NULL;
    for (;;) {
        if (n + 1024 > cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        ssize_t r = recv(fd, buf + n, cap - n - 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Split a raw response into status, head and body. A NULL raw (or an allocation that
 * fails) leaves status 0 and head/body NULL; hc_resp_free accepts that. */
static inline void hc_parse(const char *raw, size_t len, hc_resp_t *out)
{
    memset(out, 0, sizeof *out);
    if (!raw)
        return;
    if (sscanf(raw, "HTTP/1.%*d %d", &out->status) != 1)
        out->status = 0;
    const char *sep = strstr(raw, "\r\n\r\n");
    size_t hl = sep ? (size_t)(sep - raw) : len;
    size_t bl = sep ? len - hl - 4 : 0;
    out->head = malloc(hl + 1);
    out->body = malloc(bl + 1);
    if (!out->head || !out->body) {
        hc_resp_free(out);
        return;
    }
    memcpy(out->head, raw, hl);
    out->head[hl] = '\0';
    if (bl)
        memcpy(out->body, sep + 4, bl);
    out->body[bl] = '\0';
    out->body_len = bl;
}

/* Send raw request bytes and read the whole answer. Returns 0, or -1 on a socket or allocation error. */
static inline int hc_raw(int port, const char *req, size_t len, hc_resp_t *out)
{
    int fd = hc_connect(port);
    if (fd < 0)
        return -1;
    if (hc_send_all(fd, req, len) != 0) {
        /* the server may answer (413) and close before the whole body is sent */
    }
    size_t n;
    char *raw = hc_read_all(fd, &n);
    close(fd);
    int rc = raw ? 0 : -1;
    hc_parse(raw, n, out);
    free(raw);
    return rc;
}

/* METHOD PATH with optional extra header lines ("X: y\r\n...") and body. */
static inline int hc_request(int port, const char *method, const char *path,
                             const char *headers, const char *body, hc_resp_t *out)
{
    size_t bl = body ? strlen(body) : 0;
    size_t cap = strlen(path) + (headers ? strlen(headers) : 0) + bl + 256;
    char *req = malloc(cap);
    if (!req)
        return -1;
    int n = snprintf(req, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, headers ? headers : "", bl);
    if (n < 0 || (size_t)n + bl >= cap) {
        free(req);
        return -1;
    }
    if (bl)
        memcpy(req + n, body, bl + 1); /* with the body's NUL (cap has room): req stays a string */
    int rc = hc_raw(port, req, (size_t)n + bl, out);
    free(req);
    return rc;
}

static inline int hc_get(int port, const char *path, hc_resp_t *out)
{
    int fd = hc_connect(port);
    if (fd < 0)
        return -1;
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    hc_send_all(fd, req, (size_t)n);
    size_t len;
    char *raw = hc_read_all(fd, &len);
    close(fd);
    int rc = raw ? 0 : -1;
    hc_parse(raw, len, out);
    free(raw);
    return rc;
}

/* Open an /events stream: returns the socket (the response arrives as it is read), or -1. */
static inline int hc_events_open(int port)
{
    int fd = hc_connect(port);
    if (fd < 0)
        return -1;
    static const char req[] = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";
    if (hc_send_all(fd, req, sizeof req - 1) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Append to *buf (cap/len managed here) what fd has, waiting up to ms for something.
 * Returns bytes read, 0 on timeout, -1 on close or error. */
static inline ssize_t hc_read_some(int fd, char **buf, size_t *len, size_t *cap, int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    int pr = poll(&p, 1, ms);
    if (pr <= 0)
        return 0;
    if (*len + 4097 > *cap) {
        *cap = (*cap ? *cap * 2 : 8192) + 4097;
        *buf = realloc(*buf, *cap);
    }
    ssize_t r = recv(fd, *buf + *len, *cap - *len - 1, 0);
    if (r <= 0)
        return -1;
    *len += (size_t)r;
    (*buf)[*len] = '\0';
    return r;
}

/* Read from fd until needle appears in the accumulated text or ms pass. 1 found, 0 not. */
static inline int hc_wait_for(int fd, char **buf, size_t *len, size_t *cap, const char *needle,
                              int ms)
{
    for (int waited = 0; waited <= ms; waited += 50) {
        if (*buf && strstr(*buf, needle))
            return 1;
        if (hc_read_some(fd, buf, len, cap, 50) < 0)
            return *buf && strstr(*buf, needle) ? 1 : 0;
    }
    return *buf && strstr(*buf, needle) ? 1 : 0;
}

#endif
