/*
 * read.c — the reader: one line at a time, each hashed as the chain names
 * it and parsed as untrusted JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slog_internal.h"

struct slog_reader {
    FILE *f;
    char *line;      /* owned: the current line, at most SLOG_MAX_LINE bytes */
    size_t cap;
    char spill[65536]; /* bytes past SLOG_MAX_LINE, hashed a chunk at a time */
    size_t n_spill;
    int64_t lineno;
    char sha[65];    /* of the current line's bytes */
    bool torn;       /* the current line is the last and lacks its "\n" */
    json_t *cur;     /* the current entry's JSON; owned */
    int32_t *ids;    /* the current entry's output ids; owned */
    bool done;       /* no more lines: the end, a torn last line, or a
                        failed read */
};

slog_reader *slog_reader_open(const char *path, sb_err *err) {
    slog_reader *r = calloc(1, sizeof *r);
    if (!r) {
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    /* a regular file only: a directory is named as one, a FIFO never
     * blocks the open */
    r->f = sb_fopen_read(path, "session log", err);
    if (!r->f) {
        free(r);
        return NULL;
    }
    return r;
}

void slog_reader_close(slog_reader *r) {
    if (!r) return;
    fclose(r->f);
    free(r->line);
    json_decref(r->cur);
    free(r->ids);
    free(r);
}

int64_t slog_line(const slog_reader *r) { return r->lineno; }
const char *slog_line_sha256(const slog_reader *r) { return r->sha; }
bool slog_line_torn(const slog_reader *r) { return r->torn; }

/* Appends byte c to r->line (growing it), hashing into *h whatever no
 * longer fits under the cap instead: a line is never held past
 * SLOG_MAX_LINE bytes, however long it is. -1 when out of memory. */
static int slog__put(slog_reader *r, sb_sha256 *h, size_t n, char c) {
    if (n >= SLOG_MAX_LINE) {
        if (n == SLOG_MAX_LINE) sb_sha256_update(h, r->line, n); /* held so far */
        if (r->n_spill == sizeof r->spill) {
            sb_sha256_update(h, r->spill, r->n_spill);
            r->n_spill = 0;
        }
        r->spill[r->n_spill++] = c;
        return 0;
    }
    if (n + 1 >= r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        if (cap > (size_t)SLOG_MAX_LINE + 1) cap = (size_t)SLOG_MAX_LINE + 1;
        char *p = realloc(r->line, cap);
        if (!p) return -1;
        r->line = p;
        r->cap = cap;
    }
    r->line[n] = c;
    return 0;
}

/* The next non-empty line: its length in bytes (the whole line's, which
 * may exceed what r->line holds: SLOG_MAX_LINE), 0 at the end of the
 * file, -1 when the read failed (err filled; never taken for the end: a
 * log whose read fails is not a shorter log). The line's hash covers all
 * of its bytes. */
static int64_t slog__read_line(slog_reader *r, sb_err *err) {
    for (;;) {
        if (r->done) return 0;
        sb_sha256 *h = sb_sha256_begin();
        if (!h) return sb_err_set(err, "slog_next", "out of memory");
        size_t n = 0;
        bool any = false;
        int c;
        r->n_spill = 0;
        errno = 0;
        while ((c = getc_unlocked(r->f)) != EOF) {
            any = true;
            if (c == '\n') break;
            if (slog__put(r, h, n, (char)c)) {
                sb_sha256_final(h, r->sha);
                r->sha[0] = '\0';
                r->done = true;
                return sb_err_set(err, "slog_next", "line %lld: out of memory "
                                  "after %zu bytes", (long long)r->lineno + 1, n);
            }
            n++;
        }
        if (ferror(r->f)) {
            sb_sha256_final(h, r->sha);
            r->sha[0] = '\0';
            r->done = true;
            return sb_err_set(err, "slog_next", "read failed after line %lld: "
                              "%s", (long long)r->lineno,
                              strerror(errno ? errno : EIO));
        }
        if (!any) { /* the end */
            sb_sha256_final(h, r->sha);
            r->sha[0] = '\0';
            r->done = true;
            return 0;
        }
        r->lineno++;
        r->torn = c == EOF;
        if (n == 0) {
            sb_sha256_final(h, r->sha);
            r->sha[0] = '\0';
            if (r->torn) r->done = true;
            continue;
        }
        if (n <= SLOG_MAX_LINE) sb_sha256_update(h, r->line, n);
        else sb_sha256_update(h, r->spill, r->n_spill);
        sb_sha256_final(h, r->sha);
        if (n < r->cap) r->line[n] = '\0';
        if (r->torn) r->done = true;
        return (int64_t)n;
    }
}

/* Values an entry may hold: its output ids and a margin for its fields. */
enum { SLOG__MAX_VALUES = SLOG_MAX_OUTPUT + 256 };

/* Commas outside strings, plus one: at least the number of JSON values in
 * an array or object of the line. Counted before the parse, because
 * jansson holds every value of a line at once (~48 bytes an integer: a
 * line of 2^26 ids cost 3 GB). */
static int64_t slog__count_values(const char *p, size_t n) {
    int64_t count = 1;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        if (in_string) {
            if (p[i] == '\\') i++;
            else if (p[i] == '"') in_string = false;
        } else if (p[i] == '"') {
            in_string = true;
        } else if (p[i] == ',') {
            count++;
        }
    }
    return count;
}

int slog_next(slog_reader *r, slog_entry *e, sb_err *err) {
    json_decref(r->cur);
    r->cur = NULL;
    free(r->ids);
    r->ids = NULL;
    r->sha[0] = '\0';
    r->torn = false;
    int64_t n = slog__read_line(r, err);
    if (n <= 0) return (int)n;
    if (r->torn)
        return sb_err_set(err, __func__, "line %lld: torn last line of %lld "
                          "bytes (the writer stopped mid-entry)",
                          (long long)r->lineno, (long long)n);
    if (n > SLOG_MAX_LINE)
        return sb_err_set(err, __func__, "line %lld: %lld bytes, more than "
                          "the %d a log line may hold", (long long)r->lineno,
                          (long long)n, SLOG_MAX_LINE);
    int64_t values = slog__count_values(r->line, (size_t)n);
    if (values > SLOG__MAX_VALUES)
        return sb_err_set(err, __func__, "line %lld: %lld JSON values, more than "
                          "an entry holds (%d output ids and its fields)",
                          (long long)r->lineno, (long long)values, SLOG_MAX_OUTPUT);
    json_error_t je;
    r->cur = json_loadb(r->line, (size_t)n, JSON_ALLOW_NUL, &je);
    if (!r->cur || !json_is_object(r->cur))
        return sb_err_set(err, __func__, "line %lld: not a JSON object%s%s",
                          (long long)r->lineno, r->cur ? "" : ": ",
                          r->cur ? "" : je.text);
    sb_err inner = {0};
    if (slog__from_json(r->cur, e, &r->ids, &inner))
        return sb_err_set(err, __func__, "line %lld: %s", (long long)r->lineno,
                          inner.msg);
    return 1;
}
