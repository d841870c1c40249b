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
    char *line;      /* owned (getline) */
    size_t cap;
    int64_t lineno;
    char sha[65];    /* of the current line's bytes */
    bool torn;       /* the current line is the last and lacks its "\n" */
    json_t *cur;     /* the current entry's JSON; owned */
    int32_t *ids;    /* the current entry's output ids; owned */
    bool done;       /* a read error ended the file */
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

/* The next non-empty line into r->line: its length, 0 at the end, -1 on a
 * read error (err filled). */
static ssize_t slog__read_line(slog_reader *r, sb_err *err) {
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->line, &r->cap, r->f);
        if (n < 0 || r->done) {
            if (!r->done && errno && errno != EINVAL && ferror(r->f)) {
                r->done = true;
                return sb_err_set(err, "slog_next", "read failed after line "
                                  "%lld: %s", (long long)r->lineno, strerror(errno));
            }
            return 0;
        }
        r->lineno++;
        r->torn = r->line[n - 1] != '\n';
        if (!r->torn) n--;
        if (n > 0) {
            sb_sha256_hex(r->line, (size_t)n, r->sha);
            return n;
        }
    }
}

int slog_next(slog_reader *r, slog_entry *e, sb_err *err) {
    json_decref(r->cur);
    r->cur = NULL;
    free(r->ids);
    r->ids = NULL;
    r->sha[0] = '\0';
    r->torn = false;
    ssize_t n = slog__read_line(r, err);
    if (n <= 0) return (int)n;
    if (r->torn)
        return sb_err_set(err, __func__, "line %lld: torn last line of %zd "
                          "bytes (the writer stopped mid-entry)",
                          (long long)r->lineno, n);
    if (n > SLOG_MAX_LINE)
        return sb_err_set(err, __func__, "line %lld: %zd bytes, more than "
                          "the %d a log line may hold", (long long)r->lineno,
                          n, SLOG_MAX_LINE);
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
