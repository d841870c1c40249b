/*
 * base.h — the few things every SonicBoom module needs: an error record,
 * checked size arithmetic, a counter-based hash, SHA-256, a clock, and
 * the one way to open a file by name for writing or reading.
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
#include <stdio.h>

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

/* ---- files: the write-path rule (docs/limits.md, "Files") -------------- */

/* A file written whole (file.c). Writes go to a temporary PATH.tmp-XXXXXXXX
 * created beside PATH with O_CREAT|O_EXCL|O_NOFOLLOW (never an existing
 * file, never through a link planted at the name), which sb_out_commit
 * fsyncs and renames over PATH only when PATH is absent or a regular file:
 * a link, a directory, a device, a FIFO or a socket at PATH is refused,
 * before anything is written and again just before the rename. PATH is
 * then either its old bytes or all the new ones; on any failure the
 * temporary is removed.
 *
 *     sb_out o;
 *     if (sb_out_create(&o, path, &err)) return -1;
 *     sb_out_write(&o, bytes, n);              // or fwrite to sb_out_stream
 *     if (sb_out_commit(&o, &err)) return -1;  // err: "cannot write 'p': ..."
 */
typedef struct sb_out {
    int fd;        /* the temporary; -1 once closed */
    FILE *stream;  /* over fd, once sb_out_stream was asked for; NULL before */
    char *path;    /* owned */
    char *tmp;     /* owned; NULL once renamed */
    int error;     /* the first errno of sb_out_write; 0 when none */
} sb_out;

int sb_out_create(sb_out *o, const char *path, sb_err *err);
/* Writes all n bytes to the temporary; a failure is kept for commit. */
void sb_out_write(sb_out *o, const void *data, size_t n);
/* A stdio stream over the temporary (owned by o; NULL when out of memory):
 * for writers built on fwrite. Use it or sb_out_write, not both. */
FILE *sb_out_stream(sb_out *o);
/* Flushes, fsyncs and closes the temporary, checks PATH again, renames and
 * fsyncs the directory. Releases o either way; on failure removes the
 * temporary and err names PATH and the reason (EFBIG: the file size
 * limit). */
int sb_out_commit(sb_out *o, sb_err *err);
/* Closes and removes the temporary; releases o. Safe on a released o. */
void sb_out_abort(sb_out *o);
/* sb_out_create, one write, sb_out_commit. */
int sb_write_file(const char *path, const void *data, size_t n, sb_err *err);

/* A file appended to (the session log): opened read-write with O_APPEND,
 * created 0644 when absent, never through a symbolic link (O_NOFOLLOW),
 * and refused unless a regular file (a FIFO never blocks the open). `what`
 * names the file in errors ("session log"). A descriptor, or -1 with err
 * filled. What the file must already hold is the caller's check. */
int sb_open_append(const char *path, const char *what, sb_err *err);
/* A file read by name (a table, a log, JSON input): refused unless a
 * regular file, the open never blocks (a FIFO, a device), a directory is
 * named as one. A descriptor, or -1 with err filled: "WHAT: 'PATH' is a
 * directory, expected a regular file". */
int sb_open_read(const char *path, const char *what, sb_err *err);
/* sb_open_read as a stdio stream ("rb"; caller fcloses), or NULL. */
FILE *sb_fopen_read(const char *path, const char *what, sb_err *err);

/* Reads what is left of stream f (left open), at most max bytes (max >= 0),
 * into a malloc'd buffer NUL-terminated past *len (caller frees *data).
 * One byte past max is read to know the stream is too long. -1 with errno
 * set: EISDIR for a directory, EFBIG past max, ENOMEM, else the read's
 * error. For inputs that may be stdin or a device (cli/util.c). */
int sb_read_stream(FILE *f, int64_t max, char **data, int64_t *len);
/* A regular file read whole by name: sb_fopen_read, then sb_read_stream.
 * 0, or -1 with err "WHAT: cannot read 'PATH': REASON" or "WHAT: 'PATH' is
 * larger than MAX bytes". */
int sb_read_file(const char *path, const char *what, int64_t max, char **data,
                 int64_t *len, sb_err *err);

#endif /* SB_BASE_H */
