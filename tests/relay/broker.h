/* broker.h: a real mosquitto for the relay tests (header only): started on a loopback port
 * of its own (found free), with or without a password file, killed and started again on
 * the same port, with TLS on its listener (tb_broker_tls, certificates made by openssl at
 * test time: tb_make_ca, tb_make_cert); and a TCP proxy between a client and it whose link
 * can be cut (every connection closed, new ones refused) and restored: a network cut on
 * loopback.
 * Everything lives in a temporary folder the caller gives; every wait is bounded. */
#ifndef KIFUCAM_TESTS_BROKER_H
#define KIFUCAM_TESTS_BROKER_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline void tb_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* A loopback TCP port free right now. */
static inline int tb_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &l) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* 1 when something accepts on 127.0.0.1:port. */
static inline int tb_port_open(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

/* The mosquitto binary, or NULL when it is not installed. */
static inline const char *tb_mosquitto(void)
{
    static const char *const cands[] = { "/usr/sbin/mosquitto", "/usr/bin/mosquitto", NULL };
    for (int i = 0; cands[i]; i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return NULL;
}

typedef struct tb_broker {
    char dir[512];
    int port;
    pid_t pid;
    int auth;                   /* 1: password file, no anonymous clients */
} tb_broker_t;

/* Write the configuration (and with user, the password file) into dir. 0 or -1. */
static inline int tb_broker_init(tb_broker_t *b, const char *dir, const char *user,
                                 const char *pass)
{
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    b->port = tb_free_port();
    b->auth = user != NULL;
    char path[700], cmd[2048];
    if (user) {
        snprintf(cmd, sizeof cmd, "mosquitto_passwd -b -c '%s/passwd' '%s' '%s' >/dev/null 2>&1",
                 dir, user, pass);
        int st = system(cmd);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return -1;
        snprintf(cmd, sizeof cmd, "chmod 0600 '%s/passwd'", dir);
        if (system(cmd) != 0)
            return -1;
    }
    snprintf(path, sizeof path, "%s/mosquitto.conf", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "listener %d 127.0.0.1\npersistence false\nlog_dest stderr\n", b->port);
    if (geteuid() == 0)
        fprintf(f, "user root\n");   /* as root it would become "mosquitto" and lose our files */
    if (user)
        fprintf(f, "allow_anonymous false\npassword_file %s/passwd\n", dir);
    else
        fprintf(f, "allow_anonymous true\n");
    fclose(f);
    return b->port > 0 ? 0 : -1;
}

/* Start mosquitto and wait (up to 5 s) until it accepts. 0 or -1. */
static inline int tb_broker_start(tb_broker_t *b)
{
    const char *bin = tb_mosquitto();
    if (!bin)
        return -1;
    char conf[700], log[700];
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", b->dir);
    snprintf(log, sizeof log, "%s/mosquitto.log", b->dir);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(bin, "mosquitto", "-c", conf, (char *)NULL);
        _exit(127);
    }
    b->pid = pid;
    for (int i = 0; i < 250; i++) {
        if (tb_port_open(b->port))
            return 0;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            b->pid = 0;
            return -1;
        }
        tb_sleep_ms(20);
    }
    return -1;
}

/* Kill it (SIGKILL: no goodbye to anyone) and reap it. */
static inline void tb_broker_kill(tb_broker_t *b)
{
    if (b->pid > 0) {
        kill(b->pid, SIGKILL);
        waitpid(b->pid, NULL, 0);
    }
    b->pid = 0;
}

/* The openssl binary, or NULL when it is not installed. */
static inline const char *tb_openssl(void)
{
    static const char *const cands[] = { "/usr/bin/openssl", "/usr/local/bin/openssl", NULL };
    for (int i = 0; cands[i]; i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return NULL;
}

/* A throwaway CA in dir: NAME.key and NAME.pem (self-signed, EC P-256, 2 days). 0 or -1. */
static inline int tb_make_ca(const char *dir, const char *name)
{
    const char *ossl = tb_openssl();
    char cmd[2048];
    if (!ossl)
        return -1;
    snprintf(cmd, sizeof cmd, "'%s' req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
             "-nodes -days 2 -subj '/CN=kifucam test CA %s' -keyout '%s/%s.key' -out '%s/%s.pem' "
             ">/dev/null 2>&1", ossl, name, dir, name, dir, name);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* A server certificate in dir, NAME.key and NAME.pem, signed by the CA dir/CA.{key,pem},
 * for the subjectAltName san ("IP:127.0.0.1,DNS:localhost"). 0 or -1. */
static inline int tb_make_cert(const char *dir, const char *name, const char *ca, const char *san)
{
    const char *ossl = tb_openssl();
    char cmd[3072], ext[600];
    if (!ossl)
        return -1;
    snprintf(ext, sizeof ext, "%s/%s.ext", dir, name);
    FILE *f = fopen(ext, "w");
    if (!f)
        return -1;
    fprintf(f, "subjectAltName=%s\nbasicConstraints=CA:FALSE\n"
            "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n", san);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
             "-nodes -subj '/CN=%s' -keyout '%s/%s.key' -out '%s/%s.csr' >/dev/null 2>&1 && "
             "'%s' x509 -req -in '%s/%s.csr' -CA '%s/%s.pem' -CAkey '%s/%s.key' -set_serial %ld "
             "-days 2 -extfile '%s' -out '%s/%s.pem' >/dev/null 2>&1", ossl, name, dir, name,
             dir, name, ossl, dir, name, dir, ca, dir, ca, (long)time(NULL), ext, dir, name);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* TLS on the broker's listener (after tb_broker_init): the CA, certificate and key files
 * (PEM) appended to its configuration. 0 or -1. */
static inline int tb_broker_tls(tb_broker_t *b, const char *ca, const char *cert, const char *key)
{
    char path[700];
    snprintf(path, sizeof path, "%s/mosquitto.conf", b->dir);
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    fprintf(f, "cafile %s\ncertfile %s\nkeyfile %s\n", ca, cert, key);
    return fclose(f) == 0 ? 0 : -1;
}

/* "mqtt://127.0.0.1:PORT/prefix" into buf. */
static inline const char *tb_url(int port, const char *prefix, char *buf, size_t len)
{
    snprintf(buf, len, "mqtt://127.0.0.1:%d/%s", port, prefix);
    return buf;
}

/* ---- the proxy ---- */

#define TB_PAIRS 16

typedef struct tb_proxy {
    int port;                   /* where clients connect */
    int target;                 /* the broker's port */
    int lfd;
    int cut;                    /* 1: no link (under mu) */
    int stop;
    int a[TB_PAIRS], z[TB_PAIRS];   /* client side, broker side; -1 free */
    pthread_mutex_t mu;
    pthread_t th;
} tb_proxy_t;

static inline void tb_proxy_close_all(tb_proxy_t *p)
{
    for (int i = 0; i < TB_PAIRS; i++) {
        if (p->a[i] >= 0)
            close(p->a[i]);
        if (p->z[i] >= 0)
            close(p->z[i]);
        p->a[i] = p->z[i] = -1;
    }
}

static inline void *tb_proxy_main(void *arg)
{
    tb_proxy_t *p = arg;
    char buf[16384];
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int stop = p->stop, cut = p->cut;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            break;
        if (cut)
            tb_proxy_close_all(p);
        struct pollfd pf[1 + 2 * TB_PAIRS];
        int map[1 + 2 * TB_PAIRS], n = 0;
        pf[n].fd = p->lfd;
        pf[n].events = POLLIN;
        map[n++] = -1;
        for (int i = 0; i < TB_PAIRS; i++)
            if (p->a[i] >= 0) {
                pf[n].fd = p->a[i];
                pf[n].events = POLLIN;
                map[n++] = i;
                pf[n].fd = p->z[i];
                pf[n].events = POLLIN;
                map[n++] = i + TB_PAIRS;
            }
        if (poll(pf, (nfds_t)n, 20) <= 0)
            continue;
        if (pf[0].revents & POLLIN) {
            int c = accept(p->lfd, NULL, NULL);
            int slot = -1;
            for (int i = 0; i < TB_PAIRS && slot < 0; i++)
                if (p->a[i] < 0)
                    slot = i;
            int z = -1;
            if (c >= 0 && !cut && slot >= 0) {
                z = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
                struct sockaddr_in sa;
                memset(&sa, 0, sizeof sa);
                sa.sin_family = AF_INET;
                sa.sin_port = htons((uint16_t)p->target);
                sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
                if (z >= 0 && connect(z, (struct sockaddr *)&sa, sizeof sa) != 0) {
                    close(z);
                    z = -1;
                }
            }
            if (c >= 0 && z >= 0) {
                p->a[slot] = c;
                p->z[slot] = z;
            } else if (c >= 0) {
                close(c);   /* cut, full or no broker: refused */
            }
        }
        for (int k = 1; k < n; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int i = map[k] % TB_PAIRS, from = map[k] < TB_PAIRS ? p->a[i] : p->z[i];
            int to = map[k] < TB_PAIRS ? p->z[i] : p->a[i];
            if (from < 0)
                continue;
            ssize_t r = read(from, buf, sizeof buf);
            ssize_t w = r > 0 ? send(to, buf, (size_t)r, MSG_NOSIGNAL) : -1;
            if (r <= 0 || w != r) {
                close(p->a[i]);
                close(p->z[i]);
                p->a[i] = p->z[i] = -1;
            }
        }
    }
    tb_proxy_close_all(p);
    return NULL;
}

/* Start a proxy to 127.0.0.1:target on a free port. 0 or -1. */
static inline int tb_proxy_start(tb_proxy_t *p, int target)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < TB_PAIRS; i++)
        p->a[i] = p->z[i] = -1;
    p->target = target;
    p->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(p->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    if (p->lfd < 0 || bind(p->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(p->lfd, 16) != 0 ||
        getsockname(p->lfd, (struct sockaddr *)&a, &l) != 0)
        return -1;
    p->port = ntohs(a.sin_port);
    pthread_mutex_init(&p->mu, NULL);
    return pthread_create(&p->th, NULL, tb_proxy_main, p) == 0 ? 0 : -1;
}

/* Cut (1) or restore (0) the link. */
static inline void tb_proxy_cut(tb_proxy_t *p, int cut)
{
    pthread_mutex_lock(&p->mu);
    p->cut = cut;
    pthread_mutex_unlock(&p->mu);
}

static inline void tb_proxy_stop(tb_proxy_t *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->th, NULL);
    close(p->lfd);
    pthread_mutex_destroy(&p->mu);
}

#endif
