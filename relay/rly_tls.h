/* rly_tls.h: TLS for the station's and the hub's MQTT clients (internal to relay/): the CA
 * file checked before anything starts, and why a handshake failed.
 *
 * libmosquitto does the TLS itself (mosquitto_tls_set: the CA file, the broker's certificate
 * checked against it and against the URL's host). It only says MOSQ_ERR_TLS when that
 * fails; its log callback says more (OpenSSL's error, "host name verification failed"),
 * and while it logs, the client's SSL still holds the certificate check's result. So each
 * client's log callback hands its lines to rly_tls_log, which keeps what it learns in the
 * client's rly_tls_diag_t, and rly_tls_reason turns that into one line.
 *
 * libmosquitto 2.0's non-blocking TLS connect also misses a refused TCP connect (its
 * SSL_connect eats the error and the client spins, "connected" to nothing, until the
 * keepalive): both clients' own poll loops take a socket that hangs up (POLLHUP) before
 * the CONNACK as refused.
 *
 * Invariants: a diag belongs to one client and is written and read only by the thread that
 * runs that client (libmosquitto calls the log callback inside the caller's connect and
 * loop calls); rly_tls_diag_reset before each connection attempt. A CA file that passes
 * rly_tls_check_ca is one libmosquitto loads (the same OpenSSL loader: PEM certificates
 * and CRLs) and holds at least one certificate.
 */
#ifndef KIFUCAM_RLY_TLS_H
#define KIFUCAM_RLY_TLS_H

#include <stddef.h>

struct mosquitto;

typedef struct rly_tls_diag {
    int verify;                 /* 1: the broker's certificate failed the check */
    int hostname;               /* 1: the certificate does not name the URL's host */
    long x509;                  /* the check's X509_V_ERR_* (0: none seen) */
    char ssl[128];              /* OpenSSL's last error text, "" when none */
} rly_tls_diag_t;

/* Check that path is a PEM file that holds at least one certificate. RLY_OK, or RLY_ETLS
 * with one line in err ("PATH: cannot read the CA file (No such file or directory)",
 * "PATH: not a CA file: no readable PEM certificate in it", "PATH: not a CA file: not a
 * regular file"). */
int rly_tls_check_ca(const char *path, char *err, size_t errlen);

/* TLS on client m: ca_file (PEM), or NULL for the system's CAs (/etc/ssl/certs).
 * RLY_OK or RLY_ETLS (libmosquitto refused the settings). */
int rly_tls_setup(struct mosquitto *m, const char *ca_file);

/* Forget what an earlier attempt logged. */
void rly_tls_diag_reset(rly_tls_diag_t *d);

/* One line of m's log (call it from the client's log callback, every level). */
void rly_tls_log(rly_tls_diag_t *d, struct mosquitto *m, int level, const char *line);

/* Why the handshake failed, into out (len bytes): "TLS: the broker's certificate is
 * refused: it is not signed by the CA in FILE (self-signed certificate in certificate
 * chain)", "TLS: the broker's certificate is refused: it is not for HOST (...)", "TLS: the
 * handshake failed (unexpected eof while reading): is port PORT a TLS listener?". ca_file
 * NULL: the system's CAs. Returns 1 when the
 * broker's certificate was not accepted (a refusal: retrying will not help until the
 * configuration changes), 0 otherwise (out says what OpenSSL said, or "TLS error"). */
int rly_tls_reason(const rly_tls_diag_t *d, const char *host, int port, const char *ca_file,
                   char *out, size_t len);

/* Why a client's connection failed, into out (len bytes, "HOST:PORT: ..." or a TLS
 * refusal's line), for the station's and the hub's clients alike: rc from libmosquitto, or
 * MOSQ_ERR_TIMEOUT / MOSQ_ERR_CONN_REFUSED for no CONNACK in time / a socket that hung up
 * before it; e the errno then; was_up 1 when the connection had been up (a link lost after
 * it was up is "lost" whatever the layer that noticed); refused 1 when the broker has
 * already refused the client (its CONNACK: no TLS to look into). Returns 1 when the broker's TLS
 * certificate was not accepted (a refusal, rly_tls_reason), 0 otherwise. */
int rly_fail_reason(const rly_tls_diag_t *d, int rc, int e, int was_up, int refused,
                    const char *host, int port, const char *ca_file, char *out, size_t len);

#endif
