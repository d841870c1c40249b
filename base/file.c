/*
 * file.c — the one way SonicBoom opens a file it writes or reads by name
 * (docs/limits.md, "Writing and reading files").
 *
 * A file written whole goes to a temporary created beside it, exclusively
 * and without following a link, and is renamed over the path only when
 * complete and only when the path is absent or a regular file. A file
 * appended to (the session log) is opened without following a link and
 * must be a regular file. A file read by name must be a regular file; the
 * open never blocks (a FIFO is refused, not waited on).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base.h"

/* What st is, in words, for a refusal. */
static const char *sb__kind(const struct stat *st) {
    if (S_ISDIR(st->st_mode)) return "a directory";
    if (S_ISLNK(st->st_mode)) return "a symbolic link";
    if (S_ISFIFO(st->st_mode)) return "a FIFO";
    if (S_ISCHR(st->st_mode)) return "a character device";
    if (S_ISBLK(st->st_mode)) return "a block device";
    if (S_ISSOCK(st->st_mode)) return "a socket";
    return "not a regular file";
}

/* errno in words; EFBIG says which limit, since a size cap (ulimit -f)
 * is its usual cause here. */
static const char *sb__why(int e) {
    if (e == EFBIG) return "file too large (the file size limit, ulimit -f)";
    return strerror(e);
}

/* 0 when path is absent or a regular file (not a link to one); else err
 * names what it is. */
static int sb__target_ok(const char *path, const char *where, sb_err *err) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return 0;
        return sb_err_set(err, where, "cannot check '%s': %s", path,
                          strerror(errno));
    }
    if (S_ISREG(st.st_mode)) return 0;
    return sb_err_set(err, where, "'%s' is %s: refusing to replace it (only "
                      "a regular file or a new path is written)", path,
                      sb__kind(&st));
}

/* ==== writing a file whole ================================================== */

int sb_out_create(sb_out *o, const char *path, sb_err *err) {
    *o = (sb_out){.fd = -1};
    if (sb__target_ok(path, "output", err)) return -1;
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 32);
    if (!o->path || !o->tmp) {
        sb_out_abort(o);
        return sb_err_set(err, "output", "'%s': out of memory", path);
    }
    /* O_EXCL with O_CREAT never opens an existing file or follows a link
     * planted at the name; a name taken is tried again with the next. */
    static unsigned counter;
    uint64_t seed = sb_mix64((uint64_t)getpid() ^ (uint64_t)time(NULL) << 20);
    for (int attempt = 0; attempt < 64; attempt++) {
        unsigned k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(o->tmp, n + 32, "%s.tmp-%08x", path,
                 (unsigned)sb_hash3(seed, k, (uint64_t)attempt));
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     0644);
        if (o->fd >= 0) return 0;
        if (errno != EEXIST) break;
    }
    int e = errno;
    sb_err_set(err, "output", "cannot create a temporary beside '%s': %s", path,
               strerror(e));
    free(o->tmp);
    o->tmp = NULL;
    sb_out_abort(o);
    return -1;
}

void sb_out_write(sb_out *o, const void *data, size_t n) {
    const char *p = data;
    while (n > 0 && o->error == 0) {
        ssize_t k = write(o->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            o->error = k < 0 ? errno : EIO;
            return;
        }
        p += k;
        n -= (size_t)k;
    }
}

FILE *sb_out_stream(sb_out *o) {
    if (!o->stream && o->fd >= 0) o->stream = fdopen(o->fd, "wb");
    return o->stream;
}

/* Closes the stream or descriptor; the first error of the file's writes,
 * its flush, fsync and close, or 0. */
static int sb__out_close(sb_out *o) {
    int e = o->error;
    if (o->stream) {
        if (fflush(o->stream) != 0 && !e) e = errno ? errno : EIO;
        if (ferror(o->stream) && !e) e = errno ? errno : EIO;
        if (!e && fsync(o->fd) != 0) e = errno;
        if (fclose(o->stream) != 0 && !e) e = errno ? errno : EIO;
    } else if (o->fd >= 0) {
        if (!e && fsync(o->fd) != 0) e = errno;
        if (close(o->fd) != 0 && !e) e = errno;
    }
    o->stream = NULL;
    o->fd = -1;
    return e;
}

/* Best effort: makes the rename durable. A failure leaves a complete file
 * in place, so it is not reported. */
static void sb__sync_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                      : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int sb_out_commit(sb_out *o, sb_err *err) {
    int e = sb__out_close(o);
    int rc = -1;
    if (e)
        sb_err_set(err, "output", "cannot write '%s': %s", o->path, sb__why(e));
    /* Checked again just before the rename: the path may have become a
     * link or a device since the temporary was made. */
    else if (sb__target_ok(o->path, "output", err)) {
    } else if (rename(o->tmp, o->path) != 0)
        sb_err_set(err, "output", "cannot rename '%s' to '%s': %s", o->tmp,
                   o->path, strerror(errno));
    else {
        free(o->tmp);
        o->tmp = NULL;
        sb__sync_dir(o->path);
        rc = 0;
    }
    sb_out_abort(o);
    return rc;
}

void sb_out_abort(sb_out *o) {
    sb__out_close(o);
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    *o = (sb_out){.fd = -1};
}

int sb_write_file(const char *path, const void *data, size_t n, sb_err *err) {
    sb_out o;
    if (sb_out_create(&o, path, err)) return -1;
    sb_out_write(&o, data, n);
    return sb_out_commit(&o, err);
}

/* ==== appending and reading ================================================= */

/* Keeps fd when it is a regular file, in blocking mode again; else closes
 * it and fills err naming what it is. fd or -1. */
static int sb__keep_regular(int fd, const char *path, const char *what,
                            sb_err *err) {
    struct stat st;
    const char *why = NULL;
    int e = 0;
    if (fstat(fd, &st) != 0) e = errno;
    else if (!S_ISREG(st.st_mode)) why = sb__kind(&st);
    else {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) e = errno;
    }
    if (!e && !why) return fd;
    close(fd);
    if (why)
        return sb_err_set(err, what, "'%s' is %s, expected a regular file",
                          path, why);
    return sb_err_set(err, what, "'%s': %s", path, strerror(e));
}

int sb_open_append(const char *path, const char *what, sb_err *err) {
    /* O_NOFOLLOW: a link at the path is refused, never written through;
     * O_NONBLOCK: a FIFO never blocks the open (it is refused after). */
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
                  O_CLOEXEC, 0644);
    if (fd >= 0) return sb__keep_regular(fd, path, what, err);
    struct stat st;
    if (errno == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return sb_err_set(err, what, "'%s' is a symbolic link: refused (give "
                          "the file's own path)", path);
    return sb_err_set(err, what, "cannot open '%s': %s", path, strerror(errno));
}

int sb_open_read(const char *path, const char *what, sb_err *err) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) return sb__keep_regular(fd, path, what, err);
    return sb_err_set(err, what, "cannot open '%s': %s", path, strerror(errno));
}

FILE *sb_fopen_read(const char *path, const char *what, sb_err *err) {
    int fd = sb_open_read(path, what, err);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        sb_err_set(err, what, "'%s': out of memory", path);
    }
    return f;
}

/* ==== reading a file whole ================================================== */

/* buf[cap + 1] grown to hold up to max + 1 bytes (one past max tells a
 * stream too long); 0, or an errno: EFBIG when already at max + 1. */
static int sb__grow(char **buf, size_t *cap, size_t max) {
    size_t want = *cap * 2 > max + 1 ? max + 1 : *cap * 2;
    if (want <= *cap) return EFBIG;
    char *grown = realloc(*buf, want + 1);
    if (!grown) return ENOMEM;
    *buf = grown;
    *cap = want;
    return 0;
}

int sb_read_stream(FILE *f, int64_t max, char **data, int64_t *len) {
    /* a directory opens fine with fopen and then fails every read with
     * EISDIR, which stdio reports as a mere error flag */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    size_t cap = 1 << 16, n = 0, limit = (size_t)max;
    char *buf = malloc(cap + 1);
    int e = buf ? 0 : ENOMEM;
    while (!e) {
        if (n == cap && (e = sb__grow(&buf, &cap, limit))) break;
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > limit) e = EFBIG;
        else if (got == 0) e = ferror(f) ? (errno ? errno : EIO) : -1;
    }
    if (e > 0) {
        free(buf);
        errno = e;
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    *len = (int64_t)n;
    return 0;
}

int sb_read_file(const char *path, const char *what, int64_t max, char **data,
                 int64_t *len, sb_err *err) {
    FILE *f = sb_fopen_read(path, what, err);
    if (!f) return -1;
    int rc = sb_read_stream(f, max, data, len);
    int e = errno;
    fclose(f);
    if (rc == 0) return 0;
    if (e == EFBIG)
        return sb_err_set(err, what, "'%s' is larger than %lld bytes", path,
                          (long long)max);
    return sb_err_set(err, what, "cannot read '%s': %s", path, strerror(e));
}
