/*
 * gguf_file.c — a model file read into the process's own memory, and the
 * check that the file on disk is still the one read (gguf.h).
 *
 * Why not mmap: weights that point into a mapping of the file die with it.
 * Truncating the file (a re-download, a re-quantize to the same path) makes
 * the next touch of a vanished page SIGBUS — the editor loses its server
 * mid-edit — and a rewrite of the same size silently swaps the weights
 * under a session log that records the old hash. A private copy is
 * immune to both; the copy costs one read of the file, the memory is the
 * mapping's once every page was touched (any forward pass touches all),
 * and nothing else holds a second copy. docs/limits.md states the policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gguf.h"

/* Largest single read: Linux returns at most 0x7ffff000 bytes per call. */
#define GGUF__READ_CHUNK ((size_t)1 << 30)

static void gguf__identity_of(const struct stat *st, gguf_identity *id) {
    *id = (gguf_identity){
        .known = true,
        .dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino,
        .size = (uint64_t)st->st_size,
        .mtime_s = (int64_t)st->st_mtim.tv_sec,
        .mtime_ns = (int64_t)st->st_mtim.tv_nsec,
        .ctime_s = (int64_t)st->st_ctim.tv_sec,
        .ctime_ns = (int64_t)st->st_ctim.tv_nsec,
    };
}

/* What differs between the identity read and the one now, in words; NULL
 * when nothing does. ctime also moves on chmod or a new hard link: both
 * rare on a model file, and a false alarm costs a reload, not a wrong hash. */
static const char *gguf__identity_diff(const gguf_identity *was,
                                       const gguf_identity *now) {
    if (was->dev != now->dev || was->ino != now->ino)
        return "it was replaced by another file";
    if (was->size != now->size) return "its size changed";
    if (was->mtime_s != now->mtime_s || was->mtime_ns != now->mtime_ns)
        return "it was modified";
    if (was->ctime_s != now->ctime_s || was->ctime_ns != now->ctime_ns)
        return "its status changed (ctime)";
    return NULL;
}

/* Checks st is a regular, non-empty file that fits in memory. */
static int gguf__check_stat(const struct stat *st, const char *where,
                            sb_err *err) {
    if (S_ISDIR(st->st_mode))
        return sb_err_set(err, where, "is a directory, expected a GGUF file");
    if (!S_ISREG(st->st_mode) || st->st_size < 0)
        return sb_err_set(err, where, "is not a regular file");
    if (st->st_size == 0)
        return sb_err_set(err, where, "empty file (0 bytes), expected a GGUF "
                          "header of at least %d bytes", GGUF_HEADER_BYTES);
    if ((uint64_t)st->st_size > SIZE_MAX / 2)
        return sb_err_set(err, where, "file of %llu bytes does not fit in "
                          "memory", (unsigned long long)st->st_size);
    return 0;
}

/* Reads size bytes of fd into buf. A file that ends early is being
 * written (or was truncated) while it is read. */
static int gguf__read_all(int fd, unsigned char *buf, uint64_t size,
                          const char *where, sb_err *err) {
    uint64_t done = 0;
    while (done < size) {
        size_t want = size - done > GGUF__READ_CHUNK ? GGUF__READ_CHUNK
                                                     : (size_t)(size - done);
        ssize_t n = pread(fd, buf + done, want, (off_t)done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return sb_err_set(err, where, "cannot read at byte %llu: %s",
                              (unsigned long long)done, strerror(errno));
        if (n == 0)
            return sb_err_set(err, where, "the file shrank while it was read "
                              "(%llu of %llu bytes): is it still being "
                              "written? Load it again when it is complete",
                              (unsigned long long)done,
                              (unsigned long long)size);
        done += (uint64_t)n;
    }
    return 0;
}

void *gguf_file_read(const char *path, const char *where, uint64_t *size,
                     gguf_identity *id, sb_err *err) {
    struct stat st, after;
    gguf_identity was, now;
    const char *diff;
    unsigned char *buf = MAP_FAILED;
    /* O_NONBLOCK: a FIFO must not hang the open; it is refused below. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        sb_err_set(err, where, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        sb_err_set(err, where, "cannot stat: %s", strerror(errno));
        goto fail;
    }
    if (gguf__check_stat(&st, where, err)) goto fail;
    /* The magic first: a large file that is not a GGUF (2 GB took 8 s and
     * 2.1 GB before "bad magic") is refused before it is read. */
    unsigned char magic[4];
    if (st.st_size >= 4 && pread(fd, magic, 4, 0) == 4 && memcmp(magic, "GGUF", 4)) {
        sb_err_set(err, where, "bad magic %02x %02x %02x %02x, expected 'GGUF' "
                   "(47 47 55 46)", magic[0], magic[1], magic[2], magic[3]);
        goto fail;
    }
    *size = (uint64_t)st.st_size;
    /* Anonymous pages, not malloc: whole pages, read-only once filled
     * (mprotect below), and given back to the system at gguf_close. */
    buf = mmap(NULL, (size_t)*size, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) {
        sb_err_set(err, where, "cannot allocate %llu bytes for the file: %s",
                   (unsigned long long)*size, strerror(errno));
        goto fail;
    }
#ifdef MADV_HUGEPAGE
    /* 2 MB pages where the kernel has them: reading into 4 KB pages spends
     * most of its time faulting them in (1.1-1.3 s against 0.07-0.65 s for
     * a 395 MB file on the 2-core build machine). Advice only. */
    madvise(buf, (size_t)*size, MADV_HUGEPAGE);
#endif
    if (gguf__read_all(fd, buf, *size, where, err)) goto fail;
    gguf__identity_of(&st, &was);
    diff = "it could not be stat'd again";
    if (fstat(fd, &after) == 0) {
        gguf__identity_of(&after, &now);
        diff = gguf__identity_diff(&was, &now);
    }
    if (diff) {
        sb_err_set(err, where, "the file changed while it was read (%s): is "
                   "it still being written? Load it again when it is complete",
                   diff);
        goto fail;
    }
    mprotect(buf, (size_t)*size, PROT_READ); /* a stray write faults */
    *id = was;
    close(fd);
    return buf;
fail:
    if (buf != MAP_FAILED) munmap(buf, (size_t)*size);
    close(fd);
    return NULL;
}

void gguf_file_release(void *bytes, uint64_t size) {
    if (bytes) munmap(bytes, (size_t)size);
}

int gguf_identity_check(const char *path, const gguf_identity *id,
                        const char *where, sb_err *err) {
    if (!id->known) return 0; /* read from a buffer: no file to compare */
    struct stat st;
    /* A file deleted (or made unreadable) since: no other bytes claim the
     * path, so the hash of the loaded ones misleads nobody. Loading a
     * temporary file and removing it is a pattern, not an accident. */
    if (stat(path, &st) != 0) return 0;
    gguf_identity now;
    gguf__identity_of(&st, &now);
    const char *diff = gguf__identity_diff(id, &now);
    if (!diff) return 0;
    return sb_err_set(err, where, "the model file '%s' changed since it was "
                      "loaded (%s; %llu bytes then, %llu now); the weights in "
                      "memory are still the ones loaded, not the file's: load "
                      "the model again", path, diff,
                      (unsigned long long)id->size,
                      (unsigned long long)now.size);
}
