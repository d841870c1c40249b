/*
 * gguf_write.c — the GGUF v3 writer (gguf_write.h).
 *
 * Declarations (gguf_writer_set_*, gguf_writer_add_tensor) copy what they
 * are given and check it against the reader's limits (gguf/gguf.h), so
 * the writer never produces a file gguf_open refuses. The first bad
 * declaration is kept in the writer and reported by gguf_writer_write, which
 * then writes nothing.
 *
 * Layout: header, KVs in declaration order, tensor infos in declaration
 * order, zero padding to the alignment, then each tensor's data at its
 * offset, each followed by zero padding to the alignment (so the file size
 * is a multiple of it). The alignment is 32, or general.alignment when the
 * caller set that key (it must then be a power of two).
 *
 * Crash safety: everything goes to a temporary beside PATH (base's sb_out:
 * created exclusively, never through a link), fsync'ed and renamed over
 * PATH only when complete and only when PATH is absent or a regular file;
 * on any failure the temporary is removed and an existing PATH is left
 * untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguf_write.h"

/* Header bytes are staged in a buffer this big; tensor data (already one
 * big buffer) is written straight through. */
#define GGUF__OUT_BUF ((size_t)4 << 20)

typedef struct gguf__wkv {
    char *key;           /* owned */
    gguf_vtype type;     /* U32, F32, BOOL, STRING or ARRAY */
    uint32_t bits;       /* U32: the value; F32: its bit pattern; BOOL: 0/1 */
    char *str;           /* STRING: owned */
    gguf_vtype elem;     /* ARRAY: I32, F32 or STRING */
    uint64_t n;          /* ARRAY: element count */
    unsigned char *data; /* numeric arrays: n * 4 little-endian bytes, owned */
    char **strs;         /* string arrays: n owned strings, owned */
} gguf__wkv;

typedef struct gguf__wtensor {
    char *name;          /* owned */
    krn_type type;
    uint32_t n_dims;
    int64_t ne[GGUF_MAX_DIMS];
    uint64_t nbytes;
    uint64_t offset;     /* from the data section; set by gguf__layout */
} gguf__wtensor;

struct gguf_writer {
    gguf__wkv *kv;
    int64_t n_kv, cap_kv;
    gguf__wtensor *t;
    int64_t n_t, cap_t;
    sb_err err; /* the first bad declaration; "" when none */
};

/* ---- declarations -------------------------------------------------------- */

gguf_writer *gguf_writer_create(void) { return calloc(1, sizeof(gguf_writer)); }

static void gguf__wkv_free(gguf__wkv *kv) {
    free(kv->key);
    free(kv->str);
    free(kv->data);
    for (uint64_t i = 0; kv->strs && i < kv->n; i++) free(kv->strs[i]);
    free(kv->strs);
}

void gguf_writer_free(gguf_writer *w) {
    if (!w) return;
    for (int64_t i = 0; i < w->n_kv; i++) gguf__wkv_free(&w->kv[i]);
    free(w->kv);
    for (int64_t i = 0; i < w->n_t; i++) free(w->t[i].name);
    free(w->t);
    free(w);
}

/* Grows an array of elem-byte items to hold one more; false when full. */
static bool gguf__grow(void **items, int64_t n, int64_t *cap, size_t elem,
                       int64_t limit) {
    if (n < *cap) return true;
    if (n >= limit) return false;
    int64_t c = *cap ? *cap * 2 : 16;
    if (c > limit) c = limit;
    void *p = realloc(*items, (size_t)c * elem);
    if (!p) return false;
    *items = p;
    *cap = c;
    return true;
}

/* A key or tensor name the reader will accept: 1..GGUF_MAX_NAME bytes. */
static int gguf__check_name(gguf_writer *w, const char *where, const char *what,
                            const char *name) {
    if (!name || !name[0])
        return sb_err_set(&w->err, where, "%s is empty", what);
    size_t len = strlen(name);
    if (len > GGUF_MAX_NAME)
        return sb_err_set(&w->err, where, "%s '%.40s...' is %zu bytes, expected "
                          "at most %d", what, name, len, GGUF_MAX_NAME);
    return 0;
}

/* Appends a KV for key (a copy), or returns NULL with w->err set. Keys are
 * few (tens), so the duplicate check is a scan. */
static gguf__wkv *gguf__push_kv(gguf_writer *w, const char *where,
                                const char *key, gguf_vtype type) {
    if (!w || gguf__check_name(w, where, "key", key)) return NULL;
    for (int64_t i = 0; i < w->n_kv; i++)
        if (strcmp(w->kv[i].key, key) == 0) {
            sb_err_set(&w->err, where, "duplicate key '%s'", key);
            return NULL;
        }
    if (!gguf__grow((void **)&w->kv, w->n_kv, &w->cap_kv, sizeof *w->kv,
                    GGUF_MAX_KVS)) {
        sb_err_set(&w->err, where, "out of memory or more than %d keys at '%s'",
                   GGUF_MAX_KVS, key);
        return NULL;
    }
    gguf__wkv *kv = &w->kv[w->n_kv];
    *kv = (gguf__wkv){.key = strdup(key), .type = type};
    if (!kv->key) {
        sb_err_set(&w->err, where, "out of memory for key '%s'", key);
        return NULL;
    }
    w->n_kv++;
    return kv;
}

/* A string value the reader will accept, copied; NULL with w->err set. */
static char *gguf__copy_str(gguf_writer *w, const char *where, const char *key,
                            const char *s) {
    if (!s) {
        sb_err_set(&w->err, where, "key '%s': string is NULL", key);
        return NULL;
    }
    if (strlen(s) > GGUF_MAX_STR) {
        sb_err_set(&w->err, where, "key '%s': string of %zu bytes exceeds the "
                   "cap of %llu", key, strlen(s),
                   (unsigned long long)GGUF_MAX_STR);
        return NULL;
    }
    char *c = strdup(s);
    if (!c) sb_err_set(&w->err, where, "key '%s': out of memory", key);
    return c;
}

void gguf_writer_set_u32(gguf_writer *w, const char *key, uint32_t v) {
    gguf__wkv *kv = gguf__push_kv(w, __func__, key, GGUF_U32);
    if (kv) kv->bits = v;
}

void gguf_writer_set_f32(gguf_writer *w, const char *key, float v) {
    gguf__wkv *kv = gguf__push_kv(w, __func__, key, GGUF_F32);
    if (kv) memcpy(&kv->bits, &v, sizeof v);
}

void gguf_writer_set_bool(gguf_writer *w, const char *key, bool v) {
    gguf__wkv *kv = gguf__push_kv(w, __func__, key, GGUF_BOOL);
    if (kv) kv->bits = v ? 1 : 0;
}

void gguf_writer_set_str(gguf_writer *w, const char *key, const char *v) {
    gguf__wkv *kv = gguf__push_kv(w, __func__, key, GGUF_STRING);
    if (kv) kv->str = gguf__copy_str(w, __func__, key, v);
}

void gguf_writer_set_arr_str(gguf_writer *w, const char *key,
                             const char *const *v, uint64_t n) {
    gguf__wkv *kv = gguf__push_kv(w, __func__, key, GGUF_ARRAY);
    if (!kv) return;
    kv->elem = GGUF_STRING;
    if (n == 0) return;
    if (!v || n > SIZE_MAX / sizeof *kv->strs) {
        sb_err_set(&w->err, __func__, "key '%s': %llu strings from %s", key,
                   (unsigned long long)n, v ? "too many" : "a NULL array");
        return;
    }
    kv->strs = calloc((size_t)n, sizeof *kv->strs);
    if (!kv->strs) {
        sb_err_set(&w->err, __func__, "key '%s': out of memory", key);
        return;
    }
    kv->n = n; /* set before the copies so gguf__wkv_free frees them all */
    for (uint64_t i = 0; i < n; i++)
        if (!(kv->strs[i] = gguf__copy_str(w, __func__, key, v[i]))) return;
}

/* A numeric array of n 4-byte words, stored little-endian. */
static void gguf__set_arr32(gguf_writer *w, const char *where, const char *key,
                            gguf_vtype elem, const void *v, uint64_t n) {
    gguf__wkv *kv = gguf__push_kv(w, where, key, GGUF_ARRAY);
    if (!kv) return;
    kv->elem = elem;
    if (n == 0) return;
    if (!v || n > SIZE_MAX / 4) {
        sb_err_set(&w->err, where, "key '%s': %llu elements from %s", key,
                   (unsigned long long)n, v ? "too many" : "a NULL array");
        return;
    }
    kv->data = malloc((size_t)n * 4);
    if (!kv->data) {
        sb_err_set(&w->err, where, "key '%s': out of memory", key);
        return;
    }
    kv->n = n;
    const unsigned char *src = v;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, src + 4 * i, 4);
        for (int b = 0; b < 4; b++) kv->data[4 * i + b] = (unsigned char)(u >> 8 * b);
    }
}

void gguf_writer_set_arr_i32(gguf_writer *w, const char *key, const int32_t *v,
                             uint64_t n) {
    gguf__set_arr32(w, __func__, key, GGUF_I32, v, n);
}

void gguf_writer_set_arr_u32(gguf_writer *w, const char *key, const uint32_t *v,
                             uint64_t n) {
    gguf__set_arr32(w, __func__, key, GGUF_U32, v, n);
}

void gguf_writer_set_arr_f32(gguf_writer *w, const char *key, const float *v,
                             uint64_t n) {
    gguf__set_arr32(w, __func__, key, GGUF_F32, v, n);
}

/* Shape and type checks the reader makes, done at declaration time. */
static int gguf__check_tensor(gguf_writer *w, const char *where,
                              const char *name, gguf__wtensor *t,
                              const int64_t *ne) {
    uint64_t prod = 1, row;
    if (t->n_dims < 1 || t->n_dims > GGUF_MAX_DIMS || !ne)
        return sb_err_set(&w->err, where, "tensor '%s': n_dims %u, expected "
                          "1..%d", name, (unsigned)t->n_dims, GGUF_MAX_DIMS);
    for (uint32_t d = 0; d < GGUF_MAX_DIMS; d++) {
        t->ne[d] = d < t->n_dims ? ne[d] : 1;
        if (t->ne[d] < 1)
            return sb_err_set(&w->err, where, "tensor '%s': dimension %u is "
                              "%lld, expected >= 1", name, (unsigned)d,
                              (long long)t->ne[d]);
        if (!sb_mul_u64(prod, (uint64_t)t->ne[d], &prod) || prod > INT64_MAX)
            return sb_err_set(&w->err, where, "tensor '%s': element count "
                              "overflows", name);
    }
    if (!krn_type_known((uint32_t)t->type) ||
        !krn_row_bytes(t->type, t->ne[0], &row) ||
        !sb_mul_u64(row, prod / (uint64_t)t->ne[0], &t->nbytes))
        return sb_err_set(&w->err, where, "tensor '%s': type %s (%u) cannot "
                          "hold rows of %lld", name,
                          krn_type_name((uint32_t)t->type), (unsigned)t->type,
                          (long long)t->ne[0]);
    return 0;
}

/* Tensors number a few hundred in a real model; the duplicate check is a
 * scan, quadratic but only over the writer's own trusted declarations. */
void gguf_writer_add_tensor(gguf_writer *w, const char *name, krn_type type,
                            uint32_t n_dims, const int64_t *ne) {
    if (!w || gguf__check_name(w, __func__, "tensor name", name)) return;
    for (int64_t i = 0; i < w->n_t; i++)
        if (strcmp(w->t[i].name, name) == 0) {
            sb_err_set(&w->err, __func__, "duplicate tensor name '%s'", name);
            return;
        }
    gguf__wtensor t = {.type = type, .n_dims = n_dims};
    if (gguf__check_tensor(w, __func__, name, &t, ne)) return;
    if (!gguf__grow((void **)&w->t, w->n_t, &w->cap_t, sizeof *w->t,
                    GGUF_MAX_TENSORS) ||
        !(t.name = strdup(name))) {
        sb_err_set(&w->err, __func__, "out of memory or more than %d tensors "
                   "at '%s'", GGUF_MAX_TENSORS, name);
        return;
    }
    w->t[w->n_t++] = t;
}

/* ---- buffered output ------------------------------------------------------- */

typedef struct gguf__out {
    int fd;
    unsigned char *buf; /* GGUF__OUT_BUF bytes, owned */
    size_t len;         /* bytes staged in buf */
    uint64_t pos;       /* bytes accepted so far: the file offset once flushed */
    int error;          /* first errno from write(); 0 when none */
} gguf__out;

static void gguf__write_all(gguf__out *o, const unsigned char *p, size_t n) {
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

static void gguf__flush(gguf__out *o) {
    gguf__write_all(o, o->buf, o->len);
    o->len = 0;
}

/* Small pieces are staged; a piece as big as the buffer goes straight out. */
static void gguf__put(gguf__out *o, const void *p, size_t n) {
    o->pos += n;
    if (n >= GGUF__OUT_BUF) {
        gguf__flush(o);
        gguf__write_all(o, p, n);
        return;
    }
    if (o->len + n > GGUF__OUT_BUF) gguf__flush(o);
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void gguf__put_u32(gguf__out *o, uint32_t v) {
    unsigned char b[4];
    for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> 8 * i);
    gguf__put(o, b, 4);
}

static void gguf__put_u64(gguf__out *o, uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> 8 * i);
    gguf__put(o, b, 8);
}

static void gguf__put_str(gguf__out *o, const char *s) {
    size_t n = strlen(s);
    gguf__put_u64(o, n);
    gguf__put(o, s, n);
}

/* Zeros up to the next multiple of align (a power of two). */
static void gguf__pad(gguf__out *o, uint64_t align) {
    static const unsigned char zeros[4096];
    uint64_t n = (align - o->pos % align) % align;
    while (n > 0) {
        size_t k = n < sizeof zeros ? (size_t)n : sizeof zeros;
        gguf__put(o, zeros, k);
        n -= k;
    }
}

/* ---- the file ------------------------------------------------------------------ */

/* general.alignment when set (checked to be a power of two), else 32. */
static int gguf__alignment(const gguf_writer *w, uint64_t *align, sb_err *err) {
    *align = GGUF_DEFAULT_ALIGN;
    for (int64_t i = 0; i < w->n_kv; i++) {
        const gguf__wkv *kv = &w->kv[i];
        if (strcmp(kv->key, "general.alignment") != 0) continue;
        if (kv->type != GGUF_U32 || kv->bits == 0 ||
            (kv->bits & (kv->bits - 1)) != 0)
            return sb_err_set(err, "gguf_writer_write", "general.alignment must "
                              "be a u32 power of two");
        *align = kv->bits;
    }
    return 0;
}

/* Assigns each tensor its offset: in declaration order, each aligned. */
static int gguf__layout(gguf_writer *w, uint64_t align, sb_err *err) {
    uint64_t at = 0;
    for (int64_t i = 0; i < w->n_t; i++) {
        uint64_t pad = (align - at % align) % align;
        if (!sb_add_u64(at, pad, &w->t[i].offset) ||
            !sb_add_u64(w->t[i].offset, w->t[i].nbytes, &at))
            return sb_err_set(err, "gguf_writer_write", "tensor '%s': data "
                              "section exceeds 2^64 bytes", w->t[i].name);
    }
    return 0;
}

static void gguf__put_kv(gguf__out *o, const gguf__wkv *kv) {
    gguf__put_str(o, kv->key);
    gguf__put_u32(o, (uint32_t)kv->type);
    switch (kv->type) {
    case GGUF_STRING: gguf__put_str(o, kv->str); return;
    case GGUF_BOOL: {
        const unsigned char b = (unsigned char)kv->bits; /* one byte, 0 or 1 */
        gguf__put(o, &b, 1);
        return;
    }
    case GGUF_ARRAY:
        gguf__put_u32(o, (uint32_t)kv->elem);
        gguf__put_u64(o, kv->n);
        if (kv->elem == GGUF_STRING)
            for (uint64_t i = 0; i < kv->n; i++) gguf__put_str(o, kv->strs[i]);
        else if (kv->n > 0)
            gguf__put(o, kv->data, (size_t)kv->n * 4);
        return;
    default: gguf__put_u32(o, kv->bits); return;
    }
}

static void gguf__put_header(gguf__out *o, const gguf_writer *w, uint64_t align) {
    gguf__put(o, "GGUF", 4);
    gguf__put_u32(o, 3);
    gguf__put_u64(o, (uint64_t)w->n_t);
    gguf__put_u64(o, (uint64_t)w->n_kv);
    for (int64_t i = 0; i < w->n_kv; i++) gguf__put_kv(o, &w->kv[i]);
    for (int64_t i = 0; i < w->n_t; i++) {
        const gguf__wtensor *t = &w->t[i];
        gguf__put_str(o, t->name);
        gguf__put_u32(o, t->n_dims);
        for (uint32_t d = 0; d < t->n_dims; d++) gguf__put_u64(o, (uint64_t)t->ne[d]);
        gguf__put_u32(o, (uint32_t)t->type);
        gguf__put_u64(o, t->offset);
    }
    gguf__pad(o, align);
}

/* Asks fill for each tensor in turn, one buffer at a time, and writes it. */
static int gguf__put_tensors(gguf__out *o, const gguf_writer *w, uint64_t align,
                             gguf_fill_fn fill, void *ctx, const char *path,
                             sb_err *err) {
    const uint64_t data_start = o->pos;
    for (int64_t i = 0; i < w->n_t && o->error == 0; i++) {
        const gguf__wtensor *t = &w->t[i];
        sb_err cb = {0};
        if (t->nbytes > SIZE_MAX)
            return sb_err_set(err, "gguf_writer_write", "%s: tensor '%s' of %llu "
                              "bytes does not fit in memory", path, t->name,
                              (unsigned long long)t->nbytes);
        /* zeroed, so a callback that leaves bytes unset writes no garbage */
        void *buf = calloc(1, (size_t)t->nbytes);
        if (!buf)
            return sb_err_set(err, "gguf_writer_write", "%s: out of memory for "
                              "tensor '%s' (%llu bytes)", path, t->name,
                              (unsigned long long)t->nbytes);
        int rc = fill(ctx, i, buf, t->nbytes, &cb);
        if (rc == 0) {
            /* invariant from gguf__layout: this tensor starts here */
            if (o->pos != data_start + t->offset) abort();
            gguf__put(o, buf, (size_t)t->nbytes);
            gguf__pad(o, align);
        }
        free(buf);
        if (rc != 0)
            return sb_err_set(err, "gguf_writer_write", "%s: tensor '%s': %s",
                              path, t->name, cb.msg[0] ? cb.msg :
                              "the fill callback failed");
    }
    return 0;
}

/* Flushes what is staged into the file's temporary and commits it
 * (sb_out_commit: renamed over the path when whole). */
static int gguf__finish(gguf__out *o, sb_out *file, sb_err *err) {
    gguf__flush(o);
    file->error = o->error;
    return sb_out_commit(file, err);
}

int gguf_writer_write(gguf_writer *w, const char *path, gguf_fill_fn fill,
                      void *ctx, sb_err *err) {
    int rc = -1;
    uint64_t align;
    sb_out file = {.fd = -1};
    gguf__out o = {.fd = -1};
    if (!w || !path)
        return sb_err_set(err, __func__, "no writer or no path given");
    if (w->err.msg[0])
        return sb_err_set(err, __func__, "%s: not written: %s", path, w->err.msg);
    if (w->n_t > 0 && !fill)
        return sb_err_set(err, __func__, "%s: %lld tensors but no fill callback",
                          path, (long long)w->n_t);
    if (gguf__alignment(w, &align, err) || gguf__layout(w, align, err))
        return -1;
    if (!(o.buf = malloc(GGUF__OUT_BUF))) {
        sb_err_set(err, __func__, "%s: out of memory", path);
        goto done;
    }
    if (sb_out_create(&file, path, err)) goto done;
    o.fd = file.fd;
    gguf__put_header(&o, w, align);
    if (gguf__put_tensors(&o, w, align, fill, ctx, path, err) ||
        gguf__finish(&o, &file, err))
        goto done;
    rc = 0;
done:
    sb_out_abort(&file); /* removes the temporary unless committed */
    free(o.buf);
    return rc;
}
