/*
 * base.h — the few things every SonicBoom module needs: an error record,
 * checked size arithmetic, a counter-based hash, SHA-256 and a clock.
 *
 * Errors. A fallible function returns 0 on success and -1 on failure, and
 * on failure fills the caller's sb_err with one line naming the function,
 * the field, the value seen and the value expected:
 *
 *     sb_err err = {0};
 *     gguf_file *f = gguf_open(path, &err);
 *     if (!f) { fprintf(stderr, "sb: %s\n", err.msg); return 1; }
 *
 * Only main() and tests print or exit.
 */
#ifndef SB_BASE_H
#define SB_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- errors ------------------------------------------------------------ */

typedef struct sb_err {
    char msg[512]; /* one line, no trailing newline; "" when no error */
} sb_err;

/* Formats "where: message" into err (when err is not NULL). Returns -1 so a
 * caller can write `return sb_err_set(err, __func__, "...", ...);`. The
 * first error wins: a second call on a filled record keeps the first. */
int sb_err_set(sb_err *err, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- text for a terminal ------------------------------------------------ */

/* Writes s[0..n) into out[cap] (always NUL-terminated, cap >= 1) so that it
 * can be printed to a terminal without acting on it: control bytes (C0,
 * DEL), C1 controls, bidirectional overrides, and bytes that are not UTF-8
 * become \xHH (bidi: \u{HHHH}) and a backslash becomes \\; other UTF-8
 * is kept. Stops at a character boundary when out is full. Returns the
 * bytes written (without the NUL). For strings from untrusted files (a
 * model's name) before they reach stdout. */
size_t sb_escape_text(const char *s, size_t n, char *out, size_t cap);

/* ---- checked arithmetic ------------------------------------------------ */

/* Each returns false (and leaves *out unspecified) when the result would
 * not fit; sizes from untrusted files go through these before any use. */
static inline bool sb_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool sb_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}

/* ---- counter-based hash (for seeded, order-free randomness) ------------- */

/* splitmix64 finaliser: a bijective mix of a 64-bit counter. */
static inline uint64_t sb_mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* A pure function of (seed, a, b): the same inputs give the same value on
 * every machine and thread. Used for sampling noise and synthetic weights. */
static inline uint64_t sb_hash3(uint64_t seed, uint64_t a, uint64_t b) {
    return sb_mix64(sb_mix64(sb_mix64(seed) ^ a) ^ b);
}

/* Uniform float in the open interval (0, 1) from the top 23 bits of h: with
 * 23 bits, k + 0.5 is exact in fp32, so the largest value is 1 - 2^-24. */
static inline float sb_unit_open(uint64_t h) {
    return ((float)(h >> 41) + 0.5f) * (1.0f / 8388608.0f);
}

/* ---- SHA-256 (OpenSSL libcrypto underneath) ----------------------------- */

typedef struct sb_sha256 sb_sha256; /* opaque streaming state */

/* Returns NULL only when out of memory. Freed by sb_sha256_final. */
sb_sha256 *sb_sha256_begin(void);
void sb_sha256_update(sb_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex[65]; frees s. */
void sb_sha256_final(sb_sha256 *s, char hex[65]);
/* One-shot convenience over a buffer. */
void sb_sha256_hex(const void *data, size_t n, char hex[65]);

/* ---- clock --------------------------------------------------------------- */

/* Monotonic seconds, for progress and speed reports (never for results). */
double sb_now(void);

#endif /* SB_BASE_H */
