#include "base.h"

#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <utf8proc.h>

int sb_err_set(sb_err *err, const char *where, const char *fmt, ...) {
    if (!err || err->msg[0] != '\0') return -1;
    int n = snprintf(err->msg, sizeof err->msg, "%s: ", where);
    if (n < 0 || (size_t)n >= sizeof err->msg) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* sb_sha256 is never defined: a handle is an EVP_MD_CTX pointer in disguise,
 * which keeps OpenSSL out of base.h without a second allocation. */

sb_sha256 *sb_sha256_begin(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return NULL;
    }
    return (sb_sha256 *)ctx;
}

void sb_sha256_update(sb_sha256 *s, const void *data, size_t n) {
    EVP_DigestUpdate((EVP_MD_CTX *)s, data, n);
}

void sb_sha256_final(sb_sha256 *s, char hex[65]) {
    unsigned char md[32];
    unsigned int len = 0;
    EVP_DigestFinal_ex((EVP_MD_CTX *)s, md, &len);
    EVP_MD_CTX_free((EVP_MD_CTX *)s);
    for (unsigned i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
}

void sb_sha256_hex(const void *data, size_t n, char hex[65]) {
    sb_sha256 *s = sb_sha256_begin();
    if (!s) {
        hex[0] = '\0';
        return;
    }
    sb_sha256_update(s, data, n);
    sb_sha256_final(s, hex);
}

double sb_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- text for a terminal ---------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at s (of n bytes), 0 when it is
 * not one, with its code point in *cp. utf8proc's reading: no overlong
 * forms, surrogates, code points past U+10FFFF or cut sequences. */
static size_t sb__utf8_seq(const unsigned char *s, size_t n, uint32_t *cp) {
    utf8proc_int32_t c;
    utf8proc_ssize_t len = utf8proc_iterate(s, n < 4 ? (utf8proc_ssize_t)n : 4, &c);
    if (len <= 0) return 0;
    *cp = (uint32_t)c;
    return (size_t)len;
}

/* Code points a terminal acts on or that reorder what it shows. */
static bool sb__cp_unsafe(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f;
}

size_t sb_escape_text(const char *s, size_t n, char *out, size_t cap) {
    const unsigned char *u = (const unsigned char *)s;
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        char tmp[16];
        size_t len = 1, k;
        uint32_t cp = 0;
        if (u[i] >= 0x20 && u[i] < 0x7f && u[i] != '\\')
            k = (size_t)snprintf(tmp, sizeof tmp, "%c", u[i]);
        else if (u[i] == '\\')
            k = (size_t)snprintf(tmp, sizeof tmp, "\\\\");
        else if (u[i] >= 0x80 && (len = sb__utf8_seq(u + i, n - i, &cp)) &&
                 !sb__cp_unsafe(cp))
            memcpy(tmp, u + i, k = len);
        else if (len > 1)
            k = (size_t)snprintf(tmp, sizeof tmp, "\\u{%04X}", (unsigned)cp);
        else
            k = (size_t)snprintf(tmp, sizeof tmp, "\\x%02X", u[i]), len = 1;
        if (w + k + 1 > cap) break;
        memcpy(out + w, tmp, k);
        w += k;
        i += len;
    }
    if (cap) out[w] = '\0';
    return w;
}
