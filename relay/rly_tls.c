/* rly_tls.c: the CA file's check and the handshake's diagnosis (rly_tls.h), with OpenSSL
 * (libssl: the same library libmosquitto uses on Debian).
 *
 * Invariants: nothing here keeps state of its own; a diag is its caller's (one client's,
 * one thread's). OpenSSL's error queue of the calling thread is left empty by
 * rly_tls_check_ca, so that libmosquitto never reports an error of ours as its own.
 */
#include "relay/rly_tls.h"
#include "relay/rly.h"

#include <errno.h>
#include <mosquitto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rly_tls_check_ca(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (!path || !*path) {
        snprintf(err, errlen, "no CA file given");
        return RLY_ETLS;
    }
    if (stat(path, &sb) != 0 || access(path, R_OK) != 0) {
        snprintf(err, errlen, "%s: cannot read the CA file (%s)", path, strerror(errno));
        return RLY_ETLS;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a CA file: not a regular file", path);
        return RLY_ETLS;
    }
    int certs = 0, loaded = 0;
    X509_STORE *st = X509_STORE_new();
    X509_LOOKUP *lk = st ? X509_STORE_add_lookup(st, X509_LOOKUP_file()) : NULL;
    if (lk)
        loaded = X509_load_cert_crl_file(lk, path, X509_FILETYPE_PEM);
    if (loaded > 0) {
        STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(st);
        for (int i = 0; i < sk_X509_OBJECT_num(objs); i++)
            if (X509_OBJECT_get_type(sk_X509_OBJECT_value(objs, i)) == X509_LU_X509)
                certs++;
    }
    X509_STORE_free(st);
    ERR_clear_error();
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return RLY_ENOMEM;
    }
    if (loaded <= 0 || certs == 0) {
        snprintf(err, errlen, "%s: not a CA file: no readable PEM certificate in it", path);
        return RLY_ETLS;
    }
    return RLY_OK;
}

int rly_tls_setup(struct mosquitto *m, const char *ca_file)
{
    if (mosquitto_tls_set(m, ca_file, ca_file ? NULL : "/etc/ssl/certs", NULL, NULL, NULL) !=
        MOSQ_ERR_SUCCESS)
        return RLY_ETLS;
    return RLY_OK;
}

void rly_tls_diag_reset(rly_tls_diag_t *d)
{
    memset(d, 0, sizeof *d);
}

void rly_tls_log(rly_tls_diag_t *d, struct mosquitto *m, int level, const char *line)
{
    if (!d || !line || level != MOSQ_LOG_ERR)
        return;
    if (strstr(line, "host name verification failed")) {
        d->hostname = 1;
        return;
    }
    if (strstr(line, "Unable to load CA certificates")) {
        snprintf(d->ssl, sizeof d->ssl, "the CA file cannot be loaded");
        return;
    }
    if (strncmp(line, "OpenSSL Error", 13) != 0)
        return;
    const char *r = strrchr(line, ':');
    snprintf(d->ssl, sizeof d->ssl, "%s", r && r[1] ? r + 1 : line);
    if (strstr(line, "certificate verify failed")) {
        d->verify = 1;
        SSL *ssl = mosquitto_ssl_get(m);   /* still the handshake's: the check's result */
        if (ssl && d->x509 == 0)
            d->x509 = SSL_get_verify_result(ssl);
    }
}

/* the check's results that mean the issuer is not the CA given */
static int not_our_ca(long x)
{
    return x == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT ||
           x == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
           x == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN || x == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT ||
           x == X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE || x == X509_V_ERR_CERT_SIGNATURE_FAILURE;
}

int rly_tls_reason(const rly_tls_diag_t *d, const char *host, int port, const char *ca_file,
                   char *out, size_t len)
{
    char cas[300];
    if (ca_file)
        snprintf(cas, sizeof cas, "the CA in %.200s", ca_file);
    else
        snprintf(cas, sizeof cas, "the system's CAs");
    if (d->hostname) {
        snprintf(out, len, "TLS: the broker's certificate is refused: it is not for %.80s (its "
                 "names do not match the URL's host)", host);
        return 1;
    }
    if (d->verify) {
        const char *x = d->x509 != X509_V_OK ? X509_verify_cert_error_string(d->x509)
                                             : "certificate verify failed";
        if (d->x509 == X509_V_OK || not_our_ca(d->x509))
            snprintf(out, len, "TLS: the broker's certificate is refused: it is not signed by %s "
                     "(%s)", cas, x);
        else
            snprintf(out, len, "TLS: the broker's certificate is refused: %s (with %s)", x, cas);
        return 1;
    }
    /* a plain MQTT listener answers a TLS hello with MQTT bytes or a close */
    int plain = strstr(d->ssl, "eof") || strstr(d->ssl, "wrong version") ||
                strstr(d->ssl, "packet length");
    if (d->ssl[0] && plain)
        snprintf(out, len, "TLS: the handshake failed (%s): is port %d a TLS listener?", d->ssl,
                 port);
    else if (d->ssl[0])
        snprintf(out, len, "TLS: the handshake failed (%s)", d->ssl);
    else
        snprintf(out, len, "TLS: the handshake failed");
    return 0;
}

int rly_fail_reason(const rly_tls_diag_t *d, int rc, int e, int was_up, int refused,
                    const char *host, int port, const char *ca_file, char *out, size_t len)
{
    char tls[200];
    if (!was_up && !refused && (rc == MOSQ_ERR_TLS || d->verify || d->hostname)) {
        if (rly_tls_reason(d, host, port, ca_file, tls, sizeof tls)) {
            snprintf(out, len, "%s", tls);
            return 1;
        }
        snprintf(out, len, "%.80s:%d: %.160s", host, port, tls);
    } else if (rc == MOSQ_ERR_TIMEOUT) {
        snprintf(out, len, "%.80s:%d: no answer from the broker", host, port);
    } else if (rc == MOSQ_ERR_CONN_REFUSED) {
        snprintf(out, len, "%.80s:%d: the connection was refused or reset", host, port);
    } else if (rc == MOSQ_ERR_CONN_LOST || rc == MOSQ_ERR_NO_CONN || rc == MOSQ_ERR_TLS ||
               rc == MOSQ_ERR_KEEPALIVE || (rc == MOSQ_ERR_ERRNO && e == EPROTO && was_up)) {
        snprintf(out, len, "%.80s:%d: the connection was lost", host, port);
    } else {
        snprintf(out, len, "%.80s:%d: %s", host, port,
                 rc == MOSQ_ERR_ERRNO ? strerror(e) : mosquitto_strerror(rc));
    }
    return 0;
}
