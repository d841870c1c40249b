/*
 * framing.c — JSON-RPC messages framed by a Content-Length header, as the
 * LSP base protocol sends them:
 *
 *     Content-Length: 52\r\n
 *     \r\n
 *     {"jsonrpc":"2.0","id":1,"method":"shutdown"}
 *
 * The reader trusts nothing: header lines and their count are capped, the
 * length must be plain decimal digits that fit the cap, and a bad header
 * block or an oversized body is consumed and reported so that the stream
 * carries on with the next message.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lsp.h"

enum { LSP__CHUNK = 64 * 1024 };

struct lsp_reader {
    lsp_read_fn read;
    void *ctx;
    size_t max_body;
    unsigned char buf[LSP__CHUNK]; /* bytes read but not yet consumed */
    size_t pos, end;
    bool eof;
    uint64_t skip;                 /* bytes of an oversized body still to
                                      be dropped before the next message */
    char *body;                    /* owned; the last message, NUL-ended */
    size_t body_cap;
};

typedef struct lsp__fd_source {
    int fd;
} lsp__fd_source;

static ssize_t lsp__read_fd(void *ctx, void *buf, size_t n) {
    ssize_t got;
    do got = read(((lsp__fd_source *)ctx)->fd, buf, n);
    while (got < 0 && errno == EINTR);
    return got;
}

lsp_reader *lsp_reader_create(lsp_read_fn read, void *ctx, size_t max_body) {
    lsp_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->read = read;
    r->ctx = ctx;
    r->max_body = max_body && max_body <= LSP_MAX_MESSAGE ? max_body
                                                          : LSP_MAX_MESSAGE;
    return r;
}

/* The fd source lives in the same allocation's tail, so destroy frees both. */
typedef struct lsp__fd_reader {
    lsp_reader r;
    lsp__fd_source src;
} lsp__fd_reader;

lsp_reader *lsp_reader_from_fd(int fd, size_t max_body) {
    lsp__fd_reader *fr = calloc(1, sizeof *fr);
    if (!fr) return NULL;
    fr->src.fd = fd;
    fr->r.read = lsp__read_fd;
    fr->r.ctx = &fr->src;
    fr->r.max_body = max_body && max_body <= LSP_MAX_MESSAGE ? max_body
                                                             : LSP_MAX_MESSAGE;
    return &fr->r;
}

void lsp_reader_destroy(lsp_reader *r) {
    if (!r) return;
    free(r->body);
    free(r); /* r is the first member of an lsp__fd_reader too */
}

/* Refills the buffer when it is empty. 1: bytes available; 0: end of
 * stream; -1: read error (err filled). */
static int lsp__fill(lsp_reader *r, sb_err *err) {
    if (r->pos < r->end) return 1;
    if (r->eof) return 0;
    ssize_t got = r->read(r->ctx, r->buf, sizeof r->buf);
    if (got < 0) return sb_err_set(err, "lsp_reader_next", "read failed: %s",
                                   strerror(errno));
    r->pos = 0;
    r->end = (size_t)got;
    if (got == 0) r->eof = true;
    return got > 0;
}

/* RFC 7230's token characters: what a header name is made of. */
static bool lsp__tchar(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Finds "Content-Length:" (any case) in a header line as its bytes pass.
 * It is how the reader resynchronises (docs/lsp.md, "Framing"): when a
 * message announced a wrong length, or none, its body's bytes are glued in
 * front of the next message's header ("...}Content-Length: 52"). Such a
 * header line is read from its "Content-Length:" on; what came before it
 * is dropped, however long it is. Junk is told from a header whose name
 * merely ends so ("X-Content-Length") by the byte before: a token
 * character continues a name, anything else (a JSON body ends in '}')
 * cannot. */
typedef struct lsp__resync {
    int matched;      /* bytes of the pattern matched so far */
    bool after_junk;  /* the match began after a non-token byte */
    unsigned char prev;
    bool any;         /* a byte of this line was seen */
} lsp__resync;

static const char lsp__cl[] = "content-length:";

/* Feeds one byte; true when it completes "Content-Length:" after junk. */
static bool lsp__resync_byte(lsp__resync *m, unsigned char c) {
    unsigned char lc = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    bool hit = false;
    if (lc == (unsigned char)lsp__cl[m->matched]) {
        /* 'c' occurs only first in the pattern, so a restart is at 'c' */
        if (m->matched == 0) m->after_junk = m->any && !lsp__tchar(m->prev);
        if (++m->matched == (int)sizeof lsp__cl - 1) {
            hit = m->after_junk;
            m->matched = 0;
        }
    } else if (lc == 'c') {
        m->after_junk = m->any && !lsp__tchar(m->prev);
        m->matched = 1;
    } else {
        m->matched = 0;
    }
    m->prev = c;
    m->any = true;
    return hit;
}

/* Reads one header line (terminator stripped) into line[LSP_MAX_HEADER_LINE
 * + 1]. A longer line is consumed to its end and *too_long set; junk in
 * front of a "Content-Length:" is dropped (lsp__resync). Returns as
 * lsp__fill; 0 means the stream ended before the line did (or before it
 * began, when *n is 0 and *started is false). */
static int lsp__line(lsp_reader *r, char *line, size_t *n, bool *started,
                     bool *too_long, bool *resynced, sb_err *err) {
    lsp__resync m = {0};
    *n = 0;
    *started = *too_long = *resynced = false;
    for (;;) {
        int rc = lsp__fill(r, err);
        if (rc <= 0) return rc;
        *started = true;
        unsigned char c = r->buf[r->pos++];
        if (c == '\n') break;
        if (lsp__resync_byte(&m, c)) {
            /* restart the line as the header the junk hid */
            memcpy(line, "Content-Length:", sizeof lsp__cl - 1);
            *n = sizeof lsp__cl - 1;
            *too_long = false;
            *resynced = true;
            continue;
        }
        if (*n < LSP_MAX_HEADER_LINE) line[(*n)++] = (char)c;
        else *too_long = true;
    }
    if (*n > 0 && line[*n - 1] == '\r') (*n)--;
    line[*n] = '\0';
    return 1;
}

/* Parses "Content-Length: 123" into *len; other headers are ignored.
 * Returns false (err filled) for a malformed line. */
static bool lsp__header(const char *line, bool *have_len, uint64_t *len,
                        sb_err *err) {
    const char *colon = strchr(line, ':');
    if (!colon || colon == line)
        return sb_err_set(err, "lsp_reader_next", "malformed header line "
                          "'%.64s': expected 'Name: value'", line), false;
    size_t name_len = (size_t)(colon - line);
    if (name_len != 14 || strncasecmp(line, "Content-Length", 14)) return true;
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    uint64_t x = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return sb_err_set(err, "lsp_reader_next", "Content-Length '%.32s' "
                              "is too large", v), false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    while (*p == ' ' || *p == '\t') p++;
    if (p == v || *p)
        return sb_err_set(err, "lsp_reader_next", "Content-Length '%.32s': "
                          "expected a decimal byte count", v), false;
    if (*have_len)
        return sb_err_set(err, "lsp_reader_next", "Content-Length given "
                          "twice"), false;
    *have_len = true;
    *len = x;
    return true;
}

/* Consumes n bytes into dst (or discards them when dst is NULL). Returns
 * 1, or as lsp__fill when the stream ends or fails first. */
static int lsp__take(lsp_reader *r, char *dst, uint64_t n, sb_err *err) {
    while (n > 0) {
        int rc = lsp__fill(r, err);
        if (rc <= 0) return rc;
        size_t k = r->end - r->pos;
        if (k > n) k = (size_t)n;
        if (dst) {
            memcpy(dst, r->buf + r->pos, k);
            dst += k;
        }
        r->pos += k;
        n -= k;
    }
    return 1;
}

/* Reads the header block. Returns LSP_READ_OK with *len set, or another
 * status; a malformed block is read to its empty line first. */
static lsp_read_status lsp__headers(lsp_reader *r, uint64_t *len, sb_err *err) {
    char line[LSP_MAX_HEADER_LINE + 1];
    bool have_len = false, bad = false, any = false;
    for (int count = 0;; count++) {
        size_t n;
        bool started, too_long, resynced;
        int rc = lsp__line(r, line, &n, &started, &too_long, &resynced, err);
        if (rc < 0) return LSP_READ_IO;
        if (rc == 0) return any || started ? LSP_READ_TRUNCATED : LSP_READ_EOF;
        any = true;
        if (n == 0 && !too_long) break;
        if (resynced) {
            /* the lines before were a broken message's body, answered
             * already: a new header block begins here */
            have_len = bad = false;
            count = 0;
        }
        if (bad) continue;
        if (too_long) {
            bad = true;
            sb_err_set(err, "lsp_reader_next", "header line longer than %d "
                       "bytes", LSP_MAX_HEADER_LINE);
        } else if (count >= LSP_MAX_HEADERS) {
            bad = true;
            sb_err_set(err, "lsp_reader_next", "more than %d header lines",
                       LSP_MAX_HEADERS);
        } else if (memchr(line, '\0', n)) {
            /* the line is parsed as a C string: "Content-Length: 2\0junk"
             * would pass as "Content-Length: 2" */
            bad = true;
            sb_err_set(err, "lsp_reader_next", "header line holds a NUL byte "
                       "(at byte %zu)", (size_t)((const char *)memchr(line, '\0',
                                                                   n) - line));
        } else if (!lsp__header(line, &have_len, len, err)) {
            bad = true;
        }
    }
    if (bad) return LSP_READ_BAD;
    if (!have_len) {
        sb_err_set(err, "lsp_reader_next", "message without a Content-Length "
                   "header");
        return LSP_READ_BAD;
    }
    return LSP_READ_OK;
}

static lsp_read_status lsp__next(lsp_reader *r, const char **body, size_t *len,
                                 sb_err *err) {
    if (r->skip) {
        int rc = lsp__take(r, NULL, r->skip, err);
        r->skip = 0;
        if (rc < 0) return LSP_READ_IO;
        if (rc == 0) return LSP_READ_TRUNCATED;
    }
    uint64_t n = 0;
    lsp_read_status st = lsp__headers(r, &n, err);
    if (st != LSP_READ_OK) return st;
    if (n > r->max_body) {
        /* Answered at once; its body is dropped by the next call, so the
         * client hears why without first sending gigabytes. */
        r->skip = n;
        sb_err_set(err, "lsp_reader_next", "message of %llu bytes exceeds the "
                   "cap of %zu bytes", (unsigned long long)n, r->max_body);
        return LSP_READ_TOO_LARGE;
    }
    if (n + 1 > r->body_cap) {
        char *grown = realloc(r->body, (size_t)n + 1);
        if (!grown) {
            int rc = lsp__take(r, NULL, n, err);
            if (rc <= 0) return rc < 0 ? LSP_READ_IO : LSP_READ_TRUNCATED;
            sb_err_set(err, "lsp_reader_next", "out of memory for a message "
                       "of %llu bytes", (unsigned long long)n);
            return LSP_READ_BAD;
        }
        r->body = grown;
        r->body_cap = (size_t)n + 1;
    }
    int rc = lsp__take(r, r->body, n, err);
    if (rc < 0) return LSP_READ_IO;
    if (rc == 0) return LSP_READ_TRUNCATED;
    r->body[n] = '\0';
    *body = r->body;
    *len = (size_t)n;
    return LSP_READ_OK;
}

lsp_read_status lsp_reader_next(lsp_reader *r, const char **body, size_t *len,
                                sb_err *err) {
    lsp_read_status st = lsp__next(r, body, len, err);
    if (st == LSP_READ_TRUNCATED)
        sb_err_set(err, __func__, "the input ended inside a message");
    return st;
}

/* ==== writer ================================================================ */

struct lsp_writer {
    int fd;
    bool broken;          /* a write failed: the peer is gone */
    pthread_mutex_t lock; /* one message at a time */
};

lsp_writer *lsp_writer_create(int fd) {
    lsp_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->fd = fd;
    pthread_mutex_init(&w->lock, NULL);
    return w;
}

void lsp_writer_destroy(lsp_writer *w) {
    if (!w) return;
    pthread_mutex_destroy(&w->lock);
    free(w);
}

static int lsp__write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int lsp_writer_send(lsp_writer *w, const char *body, size_t len, sb_err *err) {
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    pthread_mutex_lock(&w->lock);
    int rc = 0;
    if (w->broken || lsp__write_all(w->fd, head, (size_t)hn) ||
        lsp__write_all(w->fd, body, len)) {
        if (!w->broken) sb_err_set(err, __func__, "write failed: %s",
                                   strerror(errno));
        else sb_err_set(err, __func__, "the client is gone");
        w->broken = true;
        rc = -1;
    }
    pthread_mutex_unlock(&w->lock);
    return rc;
}
