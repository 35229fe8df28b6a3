/* rly_url.c: the broker URL (mqtt://[USER[:PASS]@]HOST[:PORT][/PREFIX], mqtts://) and
 * the board names that become topic levels. Pure text: no network, no allocation.
 * Invariant: a prefix or a name that passes here is a valid MQTT topic part with no
 * wildcard ('+', '#'), no empty level and nothing a URL path would have to escape. */
#include "relay/rly.h"

#include <stdio.h>
#include <string.h>

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
}

int rly_name_ok(const char *name)
{
    if (!name)
        return 0;
    size_t n = strlen(name);
    if (n == 0 || n > RLY_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!name_char(name[i]))
            return 0;
    return 1;
}

static int fail(char *err, size_t errlen, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return RLY_EINVAL;
}

static int hexv(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* %XX in the user name and password (a '@' or ':' in a password); %00 is refused */
static int unescape(const char *s, size_t n, char *out, size_t outlen)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            int hi = i + 2 < n ? hexv(s[i + 1]) : -1, lo = i + 2 < n ? hexv(s[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi | lo) == 0)
                return -1;
            c = hi * 16 + lo;
            i += 2;
        }
        if (w + 1 >= outlen)
            return -1;
        out[w++] = (char)c;
    }
    out[w] = '\0';
    return 0;
}

int rly_url_parse(const char *text, rly_url_t *out, char *err, size_t errlen)
{
    if (!text || !out)
        return fail(err, errlen, "no URL");
    rly_url_t u;
    memset(&u, 0, sizeof u);
    const char *p;
    if (!strncmp(text, "mqtt://", 7)) {
        p = text + 7;
        u.port = 1883;
    } else if (!strncmp(text, "mqtts://", 8)) {
        p = text + 8;
        u.tls = 1;
        u.port = 8883;
    } else {
        return fail(err, errlen, "the URL must begin with mqtt:// or mqtts://");
    }
    const char *slash = strchr(p, '/');
    const char *end = slash ? slash : p + strlen(p);
    /* user info: up to the last '@' before the path */
    const char *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@')
            at = q;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t ulen = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (ulen == 0 || unescape(p, ulen, u.user, sizeof u.user))
            return fail(err, errlen, "the user name in the URL is empty or malformed");
        if (colon && unescape(colon + 1, (size_t)(at - colon - 1), u.pass, sizeof u.pass))
            return fail(err, errlen, "the password in the URL is malformed");
        p = at + 1;
    }
    /* host[:port] */
    const char *portp = NULL;
    if (*p == '[') {
        const char *cb = memchr(p, ']', (size_t)(end - p));
        if (!cb)
            return fail(err, errlen, "an IPv6 host needs its closing ']'");
        if (cb + 1 < end && cb[1] != ':')
            return fail(err, errlen, "after [IPv6] only :PORT may follow");
        if (cb + 1 < end)
            portp = cb + 2;
        if ((size_t)(cb - p - 1) >= sizeof u.host || cb == p + 1)
            return fail(err, errlen, "the host is empty or too long");
        memcpy(u.host, p + 1, (size_t)(cb - p - 1));
    } else {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *hend = colon ? colon : end;
        if (colon)
            portp = colon + 1;
        if (hend == p || (size_t)(hend - p) >= sizeof u.host)
            return fail(err, errlen, "the host is empty or too long");
        for (const char *q = p; q < hend; q++)
            if (!name_char(*q))
                return fail(err, errlen, "the host has a character a host name cannot have");
        memcpy(u.host, p, (size_t)(hend - p));
    }
    if (portp) {
        long v = 0;
        if (portp >= end)
            return fail(err, errlen, "the port is empty");
        for (const char *q = portp; q < end; q++) {
            if (*q < '0' || *q > '9' || v > 65535)
                return fail(err, errlen, "the port is not a number 1..65535");
            v = v * 10 + (*q - '0');
        }
        if (v < 1 || v > 65535)
            return fail(err, errlen, "the port is not a number 1..65535");
        u.port = (int)v;
    }
    /* the prefix: topic levels */
    const char *pre = slash ? slash + 1 : "";
    size_t plen = strlen(pre);
    while (plen > 0 && pre[plen - 1] == '/')
        plen--;   /* mqtt://host/prefix/ is mqtt://host/prefix */
    if (plen == 0) {
        snprintf(u.prefix, sizeof u.prefix, "kifucam");
    } else {
        if (plen >= sizeof u.prefix)
            return fail(err, errlen, "the topic prefix is too long (127 characters at most)");
        int level = 0;
        for (size_t i = 0; i < plen; i++) {
            char c = pre[i];
            if (c == '/') {
                if (level == 0)
                    return fail(err, errlen, "the topic prefix has an empty level ('//')");
                level = 0;
                continue;
            }
            if (c == '+' || c == '#')
                return fail(err, errlen, "the topic prefix cannot hold the wildcards + or #");
            if (!name_char(c))
                return fail(err, errlen, "the topic prefix may hold only A-Z a-z 0-9 . _ - and /");
            level++;
        }
        memcpy(u.prefix, pre, plen);
    }
    *out = u;
    return RLY_OK;
}
