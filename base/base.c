#include "base.h"

#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

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
