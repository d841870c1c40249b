/*
 * write.c — the writer: whole lines appended atomically, each chained to
 * the line before it, a session id and numbering per writer, a summary at
 * the end.
 *
 * The hash of the file's last line is what the next line names. The writer
 * remembers the one it wrote and where the file ended after it; when the
 * file has changed since (another writer, or its own short write), it reads
 * the last line again. Both happen under an exclusive flock, so two writers
 * of one file chain it in file order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slog_internal.h"

struct slog_writer {
    int fd;
    char *path;          /* owned, for messages */
    char session[33];
    int64_t seq;         /* entries this session wrote (torn ones included) */
    int lock_wait_ms;    /* slog_set_lock_wait */
    /* the file's last line, as far as this writer knows */
    bool tail_known;
    off_t tail_end;      /* the file's size when it was last read or written */
    bool has_tail;       /* false: the file was empty */
    char tail_sha[65];
};

/* ==== the last line ========================================================= */

/* The offset just after the last "\n" before `end` (0 when none): where
 * the line ending at `end` begins. -1 on a read error. */
static off_t slog__line_start(int fd, off_t end) {
    char buf[65536];
    while (end > 0) {
        off_t from = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(end - from), from);
        if (n != end - from) return -1;
        for (ssize_t i = n; i-- > 0;)
            if (buf[i] == '\n') return from + i + 1;
        end = from;
    }
    return 0;
}

/* SHA-256 of the bytes [from, to) of the file. */
static int slog__hash_range(int fd, off_t from, off_t to, char hex[65]) {
    sb_sha256 *h = sb_sha256_begin();
    if (!h) return -1;
    char buf[65536];
    while (from < to) {
        size_t want = to - from > (off_t)sizeof buf ? sizeof buf : (size_t)(to - from);
        ssize_t n = pread(fd, buf, want, from);
        if (n <= 0) {
            sb_sha256_final(h, hex);
            return -1;
        }
        sb_sha256_update(h, buf, (size_t)n);
        from += n;
    }
    sb_sha256_final(h, hex);
    return 0;
}

/* Reads the file's last non-empty line into w's tail, first ending it with
 * "\n" when it is torn (a crash or a short write mid-append), so that the
 * next line starts a line of its own and the torn one stays readable as
 * torn. Called under the lock. */
static int slog__read_tail(slog_writer *w, sb_err *err) {
    struct stat st;
    if (fstat(w->fd, &st))
        return sb_err_set(err, "slog", "%s: %s", w->path, strerror(errno));
    off_t end = st.st_size;
    char last = '\n';
    if (end > 0 && pread(w->fd, &last, 1, end - 1) != 1)
        return sb_err_set(err, "slog", "%s: cannot read: %s", w->path,
                          strerror(errno));
    if (last != '\n') {
        if (write(w->fd, "\n", 1) != 1)
            return sb_err_set(err, "slog", "%s: cannot end its torn last line: "
                              "%s", w->path, errno ? strerror(errno) : "disk full?");
        w->tail_end = end + 1;
    } else {
        w->tail_end = end;
        while (end > 0) { /* skip empty lines: the reader skips them too */
            if (pread(w->fd, &last, 1, end - 1) != 1) goto read_error;
            if (last != '\n') break;
            end--;
        }
    }
    w->has_tail = end > 0;
    w->tail_known = true;
    if (!w->has_tail) return 0;
    off_t start = slog__line_start(w->fd, end);
    if (start >= 0 && !slog__hash_range(w->fd, start, end, w->tail_sha)) return 0;
read_error:
    w->tail_known = false;
    return sb_err_set(err, "slog", "%s: cannot read its last line: %s", w->path,
                      strerror(errno));
}

/* ==== appending ============================================================= */

/* Appends one line (kind and entries from l, e for an edit) chained to the
 * file's last line. A line cut short still counts in the session's
 * numbering: its bytes are in the file, and the next line chains to them. */
static int slog__append_line(slog_writer *w, slog__link *l, const slog_entry *e,
                             sb_err *err) {
    struct stat st;
    if (fstat(w->fd, &st))
        return sb_err_set(err, "slog_append", "%s: %s", w->path, strerror(errno));
    if ((!w->tail_known || st.st_size != w->tail_end) && slog__read_tail(w, err))
        return -1;
    l->session = w->session;
    l->seq = w->seq + 1;
    l->prev = w->has_tail ? w->tail_sha : NULL;
    json_t *o = slog__to_json(l, e);
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    json_decref(o);
    if (!text) return sb_err_set(err, "slog_append", "out of memory for a log line");
    size_t n = strlen(text);
    char sha[65];
    sb_sha256_hex(text, n, sha);
    text[n] = '\n'; /* replaces the NUL: the line is written by length */
    /* One write() with O_APPEND: the line lands whole at the end. */
    ssize_t k = write(w->fd, text, n + 1);
    int saved = errno;
    free(text);
    if (k > 0) w->seq++;
    if (k != (ssize_t)(n + 1)) {
        w->tail_known = k <= 0; /* nothing written: the tail is unchanged */
        return sb_err_set(err, "slog_append", "%s: short write (%zd of %zu "
                          "bytes): %s", w->path, k, n + 1,
                          k < 0 ? strerror(saved) : "disk full?");
    }
    w->tail_end += (off_t)(n + 1); /* tail_end was the size before it */
    memcpy(w->tail_sha, sha, sizeof sha);
    w->has_tail = true;
    if (fsync(w->fd))
        return sb_err_set(err, "slog_append", "%s: fsync failed: %s", w->path,
                          strerror(errno));
    return 0;
}

/* Takes the file's exclusive lock, waiting at most w->lock_wait_ms for
 * another holder: a lock held for good (another process stopped, or
 * hostile) must not hold up every edit's answer. */
static int slog__lock(slog_writer *w, sb_err *err) {
    const struct timespec tick = {0, 5 * 1000 * 1000};
    for (int waited = 0;; waited += 5) {
        if (flock(w->fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno == EINTR) continue;
        if (errno != EWOULDBLOCK)
            return sb_err_set(err, "slog_append", "%s: cannot lock: %s", w->path,
                              strerror(errno));
        if (waited >= w->lock_wait_ms)
            return sb_err_set(err, "slog_append", "%s: another process has held "
                              "its lock for %.1f s; this line was not written",
                              w->path, w->lock_wait_ms / 1000.0);
        nanosleep(&tick, NULL);
    }
}

/* slog__append_line under the file's exclusive lock. */
static int slog__append_locked(slog_writer *w, slog__link *l, const slog_entry *e,
                               sb_err *err) {
    if (slog__lock(w, err)) return -1;
    int rc = slog__append_line(w, l, e, err);
    flock(w->fd, LOCK_UN);
    return rc;
}

int slog_append(slog_writer *w, const slog_entry *e, sb_err *err) {
    slog__link l = {.kind = SLOG_KIND_EDIT};
    return slog__append_locked(w, &l, e, err);
}

/* ==== open and close ======================================================== */

/* 16 random bytes as 32 hex digits. */
static int slog__new_session(char hex[33], sb_err *err) {
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0 && errno != EINTR)
            return sb_err_set(err, "slog_open", "no random session id: %s",
                              strerror(errno));
        if (n > 0) got += (size_t)n;
    }
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", b[i]);
    return 0;
}

/* Refuses a file that is not a session log: anything but an empty file or
 * one whose first line begins as every line of a log does, this format's
 * or v1's (an old log goes on in v2: session-log.md), a line cut short
 * there included. So a log path pointed at another file (a shell's rc
 * file) is never appended to. */
static int slog__check_head(slog_writer *w, sb_err *err) {
    static const char v2[] = "{\"format\":\"" SLOG_FORMAT "\",";
    static const char v1[] = "{\"format\":\"" SLOG_FORMAT_V1 "\",";
    char got[sizeof v2 - 1];
    ssize_t n = pread(w->fd, got, sizeof got, 0);
    if (n < 0)
        return sb_err_set(err, "slog_open", "cannot read session log '%s': %s",
                          w->path, strerror(errno));
    if (!memcmp(got, v2, (size_t)n) || !memcmp(got, v1, (size_t)n)) return 0;
    return sb_err_set(err, "slog_open", "'%s' is not a session log (its first "
                      "line does not begin '%s'): refusing to append to it; "
                      "give a new path or an existing log", w->path, v2);
}

slog_writer *slog_open(const char *path, sb_err *err) {
    slog_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    w->lock_wait_ms = SLOG_LOCK_WAIT_MS;
    w->fd = sb_open_append(path, "session log", err);
    if (w->fd < 0 || slog__check_head(w, err) || slog__new_session(w->session, err))
        goto fail;
    return w;
fail:
    slog_close(w, NULL);
    return NULL;
}

const char *slog_session(const slog_writer *w) { return w->session; }

void slog_set_lock_wait(slog_writer *w, int ms) { w->lock_wait_ms = ms < 1 ? 1 : ms; }

int slog_close(slog_writer *w, sb_err *err) {
    if (!w) return 0;
    int rc = 0;
    if (w->fd >= 0 && w->seq > 0) {
        slog__link l = {.kind = SLOG_KIND_SUMMARY, .entries = w->seq};
        rc = slog__append_locked(w, &l, NULL, err);
    }
    if (w->fd >= 0) close(w->fd);
    free(w->path);
    free(w);
    return rc;
}
