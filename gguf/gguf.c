/*
 * gguf.c — the GGUF v3 reader (gguf.h).
 *
 * The whole file is validated once, in gguf__parse, by a bounded reader
 * (gguf__rd) that never moves past the end of the bytes it was given: every
 * fixed field goes through gguf__need, every length and count is compared
 * with the bytes that remain before anything is allocated from it, and every
 * size sum or product goes through sb_add_u64/sb_mul_u64. After a successful
 * parse the tables below describe only bytes inside the buffer, so the
 * accessors are plain lookups.
 *
 * Choices a file may run into:
 *   - versions 2 and 3 are accepted (same 64-bit layout); 1 is refused;
 *   - nested arrays are refused (no tool we know of writes them);
 *   - keys and tensor names must be 1..GGUF_MAX_NAME bytes without a NUL
 *     byte, so the NUL-terminated copies in gguf_tensor are unambiguous;
 *   - a bool must be 0 or 1; dimensions must be >= 1;
 *   - general.alignment, when present, must be a u32 power of two;
 *   - tensor data ranges may appear in any order but must not overlap.
 * Duplicate keys and names are found by sorting, not hashing, so a hostile
 * file cannot make the check quadratic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gguf.h"

/* Smallest encodings, bytes: what a count must be able to pay for before
 * it may size an allocation. A KV is a key length, a 1-byte key, a type and
 * a 1-byte value; a tensor info is a name length, a 1-byte name, n_dims, one
 * dimension, a type and an offset. */
enum {
    GGUF__HEADER_BYTES = GGUF_HEADER_BYTES, /* 4 + 4 + 8 + 8 */
    GGUF__MIN_KV = 8 + 1 + 4 + 1,
    GGUF__MIN_TENSOR = 8 + 1 + 4 + 8 + 4 + 8,
};

typedef struct gguf__kv {
    gguf_str key;          /* inside the buffer */
    gguf_vtype type;
    const unsigned char *val; /* scalars: the value; arrays: element 0 */
    gguf_str str;          /* GGUF_STRING: the value */
    gguf_vtype elem;       /* GGUF_ARRAY: element type (never ARRAY) */
    uint64_t n;            /* GGUF_ARRAY: element count */
    gguf_str *strs;        /* string arrays: n entries; owned */
} gguf__kv;

/* A name and its index, sorted by name for lookup and duplicate checks. */
typedef struct gguf__entry {
    const char *name;
    uint64_t len;
    int64_t index;
} gguf__entry;

struct gguf_file {
    const unsigned char *bytes; /* the whole file */
    uint64_t size;
    void *own;                  /* set when gguf_open read the file: the
                                   bytes, freed with gguf_file_release */
    char *path;                 /* gguf_open's path made absolute; owned */
    gguf_identity id;           /* the file as read (gguf_open only) */
    uint32_t version;
    uint64_t alignment;         /* a power of two */
    uint64_t data_start;        /* a multiple of alignment */
    int64_t n_kv;
    gguf__kv *kv;               /* n_kv, owned */
    gguf__entry *kv_index;      /* n_kv, sorted by key, owned */
    int64_t n_tensors;
    gguf_tensor *tensors;       /* n_tensors in file order, owned */
    gguf__entry *t_index;       /* n_tensors, sorted by name, owned */
};

/* ---- bounded reader ------------------------------------------------------ */

typedef struct gguf__rd {
    const unsigned char *p;
    uint64_t size;
    uint64_t pos;            /* invariant: pos <= size */
    const char *where;       /* "gguf_open: PATH" or "gguf_open_buffer" */
    int64_t elem;            /* array element being read, or -1 */
    char ctx[GGUF_MAX_NAME + 64]; /* the item being read, "" for the header */
    sb_err *err;
} gguf__rd;

__attribute__((format(printf, 2, 3)))
static int gguf__fail(gguf__rd *r, const char *fmt, ...) {
    char msg[sizeof r->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->ctx[0]) return sb_err_set(r->err, r->where, "%s: %s", r->ctx, msg);
    return sb_err_set(r->err, r->where, "%s", msg);
}

static uint64_t gguf__left(const gguf__rd *r) { return r->size - r->pos; }

/* what, numbered when an array element is being read. Formatted only on
 * failure, so a 150k-entry vocabulary costs no formatting. */
static const char *gguf__what(const gguf__rd *r, const char *what,
                              char buf[64]) {
    if (r->elem < 0) return what;
    snprintf(buf, 64, "%s %lld", what, (long long)r->elem);
    return buf;
}

static int gguf__need(gguf__rd *r, uint64_t n, const char *what) {
    char buf[64];
    if (n <= gguf__left(r)) return 0;
    return gguf__fail(r, "%s needs %llu bytes at offset %llu, but the file "
                      "ends at %llu (truncated?)", gguf__what(r, what, buf),
                      (unsigned long long)n,
                      (unsigned long long)r->pos, (unsigned long long)r->size);
}

static uint16_t gguf__le16(const unsigned char *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t gguf__le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t gguf__le64(const unsigned char *p) {
    return (uint64_t)gguf__le32(p) | (uint64_t)gguf__le32(p + 4) << 32;
}

static int gguf__u32(gguf__rd *r, const char *what, uint32_t *out) {
    if (gguf__need(r, 4, what)) return -1;
    *out = gguf__le32(r->p + r->pos);
    r->pos += 4;
    return 0;
}

static int gguf__u64(gguf__rd *r, const char *what, uint64_t *out) {
    if (gguf__need(r, 8, what)) return -1;
    *out = gguf__le64(r->p + r->pos);
    r->pos += 8;
    return 0;
}

/* A length-prefixed string of at most cap bytes, left inside the buffer. */
static int gguf__string(gguf__rd *r, const char *what, uint64_t cap,
                        gguf_str *out) {
    uint64_t len;
    char buf[64];
    if (gguf__u64(r, what, &len)) return -1;
    if (len > cap)
        return gguf__fail(r, "%s length %llu exceeds the cap of %llu bytes",
                          gguf__what(r, what, buf), (unsigned long long)len,
                          (unsigned long long)cap);
    if (gguf__need(r, len, what)) return -1;
    out->ptr = (const char *)r->p + r->pos;
    out->len = len;
    r->pos += len;
    return 0;
}

/* A key or tensor name: 1..GGUF_MAX_NAME bytes, no NUL. */
static int gguf__name(gguf__rd *r, const char *what, gguf_str *out) {
    if (gguf__string(r, what, GGUF_MAX_NAME, out)) return -1;
    if (out->len == 0) return gguf__fail(r, "%s is empty", what);
    if (memchr(out->ptr, '\0', out->len))
        return gguf__fail(r, "%s contains a NUL byte", what);
    return 0;
}

/* ---- value types --------------------------------------------------------- */

static const char *const gguf__vtype_names[] = {
    "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array",
    "u64", "i64", "f64",
};

const char *gguf_vtype_name(uint32_t type) {
    return type <= GGUF_F64 ? gguf__vtype_names[type] : "?";
}

/* Bytes of a scalar of this type; 0 for string and array. */
static uint64_t gguf__scalar_size(gguf_vtype t) {
    switch (t) {
    case GGUF_U8: case GGUF_I8: case GGUF_BOOL: return 1;
    case GGUF_U16: case GGUF_I16: return 2;
    case GGUF_U32: case GGUF_I32: case GGUF_F32: return 4;
    case GGUF_U64: case GGUF_I64: case GGUF_F64: return 8;
    case GGUF_STRING: case GGUF_ARRAY: break;
    }
    return 0;
}

static int gguf__check_bools(gguf__rd *r, const unsigned char *v, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        if (v[i] > 1)
            return gguf__fail(r, "bool %llu is %u, expected 0 or 1",
                              (unsigned long long)i, (unsigned)v[i]);
    return 0;
}

/* The elements of an array of strings. The count was checked against the
 * bytes left (each element needs at least its 8-byte length) before the
 * table of n entries is allocated. */
static int gguf__string_elems(gguf__rd *r, gguf__kv *kv) {
    if (kv->n > gguf__left(r) / 8)
        return gguf__fail(r, "array count %llu of strings (at least 8 bytes "
                          "each) runs past the end of the file: %llu bytes "
                          "remain", (unsigned long long)kv->n,
                          (unsigned long long)gguf__left(r));
    if (kv->n == 0) return 0;
    kv->strs = malloc((size_t)kv->n * sizeof *kv->strs);
    if (!kv->strs)
        return gguf__fail(r, "out of memory for %llu array strings",
                          (unsigned long long)kv->n);
    for (uint64_t i = 0; i < kv->n; i++) {
        r->elem = (int64_t)i; /* n <= file size / 8, so it fits */
        if (gguf__string(r, "string element", GGUF_MAX_STR, &kv->strs[i]))
            return -1;
    }
    r->elem = -1;
    return 0;
}

static int gguf__array(gguf__rd *r, gguf__kv *kv) {
    uint32_t elem;
    if (gguf__u32(r, "array element type", &elem) ||
        gguf__u64(r, "array count", &kv->n))
        return -1;
    if (elem > GGUF_F64)
        return gguf__fail(r, "array element type %u unknown, expected 0..12",
                          (unsigned)elem);
    if (elem == GGUF_ARRAY)
        return gguf__fail(r, "nested arrays are not supported");
    kv->elem = (gguf_vtype)elem;
    kv->val = r->p + r->pos;
    if (kv->elem == GGUF_STRING) return gguf__string_elems(r, kv);
    uint64_t esize = gguf__scalar_size(kv->elem);
    if (kv->n > gguf__left(r) / esize)
        return gguf__fail(r, "array count %llu of %s (%llu bytes each) runs "
                          "past the end of the file: %llu bytes remain",
                          (unsigned long long)kv->n, gguf_vtype_name(elem),
                          (unsigned long long)esize,
                          (unsigned long long)gguf__left(r));
    if (kv->elem == GGUF_BOOL && gguf__check_bools(r, kv->val, kv->n)) return -1;
    r->pos += kv->n * esize; /* <= left, by the check above */
    return 0;
}

static int gguf__value(gguf__rd *r, gguf__kv *kv, uint32_t type) {
    if (type > GGUF_F64)
        return gguf__fail(r, "value type %u unknown, expected 0..12",
                          (unsigned)type);
    kv->type = (gguf_vtype)type;
    if (kv->type == GGUF_STRING)
        return gguf__string(r, "string value", GGUF_MAX_STR, &kv->str);
    if (kv->type == GGUF_ARRAY) return gguf__array(r, kv);
    uint64_t size = gguf__scalar_size(kv->type);
    if (gguf__need(r, size, gguf_vtype_name(type))) return -1;
    kv->val = r->p + r->pos;
    if (kv->type == GGUF_BOOL && gguf__check_bools(r, kv->val, 1)) return -1;
    r->pos += size;
    return 0;
}

/* ---- header and metadata --------------------------------------------------- */

static int gguf__header(gguf__rd *r, gguf_file *f, uint64_t *n_tensors,
                        uint64_t *n_kv) {
    if (gguf__need(r, 4, "magic")) return -1;
    const unsigned char *m = r->p;
    if (memcmp(m, "GGUF", 4) != 0)
        return gguf__fail(r, "bad magic %02x %02x %02x %02x, expected 'GGUF' "
                          "(47 47 55 46)", m[0], m[1], m[2], m[3]);
    r->pos = 4;
    if (gguf__u32(r, "version", &f->version)) return -1;
    if (f->version != 2 && f->version != 3) {
        uint32_t v = f->version;
        uint32_t swapped = v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) |
                           v << 24;
        return gguf__fail(r, "unsupported version %u, expected 3 (or 2)%s",
                          (unsigned)v, swapped == 2 || swapped == 3 ?
                          " (a big-endian file?)" : "");
    }
    if (gguf__u64(r, "tensor count", n_tensors) ||
        gguf__u64(r, "kv count", n_kv))
        return -1;
    if (*n_tensors > GGUF_MAX_TENSORS)
        return gguf__fail(r, "tensor count %llu exceeds the limit of %d",
                          (unsigned long long)*n_tensors, GGUF_MAX_TENSORS);
    if (*n_kv > GGUF_MAX_KVS)
        return gguf__fail(r, "kv count %llu exceeds the limit of %d",
                          (unsigned long long)*n_kv, GGUF_MAX_KVS);
    /* Both counts are <= 65536 here, so these products cannot overflow. */
    if (*n_kv * GGUF__MIN_KV > gguf__left(r))
        return gguf__fail(r, "kv count %llu needs at least %llu bytes, but "
                          "only %llu remain", (unsigned long long)*n_kv,
                          (unsigned long long)*n_kv * GGUF__MIN_KV,
                          (unsigned long long)gguf__left(r));
    if (*n_tensors * GGUF__MIN_TENSOR > gguf__left(r))
        return gguf__fail(r, "tensor count %llu needs at least %llu bytes, but "
                          "only %llu remain", (unsigned long long)*n_tensors,
                          (unsigned long long)*n_tensors * GGUF__MIN_TENSOR,
                          (unsigned long long)gguf__left(r));
    return 0;
}

static int gguf__read_kvs(gguf__rd *r, gguf_file *f, uint64_t n) {
    if (n == 0) return 0;
    f->kv = calloc((size_t)n, sizeof *f->kv);
    if (!f->kv)
        return gguf__fail(r, "out of memory for %llu kvs", (unsigned long long)n);
    f->n_kv = (int64_t)n;
    for (uint64_t i = 0; i < n; i++) {
        gguf__kv *kv = &f->kv[i];
        uint32_t type;
        snprintf(r->ctx, sizeof r->ctx, "kv %llu", (unsigned long long)i);
        if (gguf__name(r, "key", &kv->key)) return -1;
        snprintf(r->ctx, sizeof r->ctx, "kv %llu '%.*s'", (unsigned long long)i,
                 (int)kv->key.len, kv->key.ptr);
        if (gguf__u32(r, "value type", &type) || gguf__value(r, kv, type))
            return -1;
    }
    r->ctx[0] = '\0';
    return 0;
}

/* ---- name index ------------------------------------------------------------ */

static int gguf__entry_cmp(const void *a, const void *b) {
    const gguf__entry *x = a, *y = b;
    uint64_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, (size_t)n);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts e (n entries) and returns the first of two equal names, or -1. */
static int64_t gguf__sort_find_dup(gguf__entry *e, int64_t n) {
    if (n > 1) qsort(e, (size_t)n, sizeof *e, gguf__entry_cmp);
    for (int64_t i = 1; i < n; i++)
        if (e[i].len == e[i - 1].len &&
            memcmp(e[i].name, e[i - 1].name, (size_t)e[i].len) == 0)
            return i - 1;
    return -1;
}

static int64_t gguf__lookup(const gguf__entry *e, int64_t n, const char *name) {
    gguf__entry key = {name, strlen(name), -1};
    int64_t lo = 0, hi = n; /* the answer, if any, is in [lo, hi) */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        /* index -1 sorts before every real entry of the same name */
        if (gguf__entry_cmp(&e[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < n && e[lo].len == key.len &&
        memcmp(e[lo].name, name, (size_t)key.len) == 0)
        return e[lo].index;
    return -1;
}

static int gguf__index_kvs(gguf__rd *r, gguf_file *f) {
    if (f->n_kv == 0) return 0;
    f->kv_index = malloc((size_t)f->n_kv * sizeof *f->kv_index);
    if (!f->kv_index) return gguf__fail(r, "out of memory for the key index");
    for (int64_t i = 0; i < f->n_kv; i++)
        f->kv_index[i] = (gguf__entry){f->kv[i].key.ptr, f->kv[i].key.len, i};
    int64_t d = gguf__sort_find_dup(f->kv_index, f->n_kv);
    if (d < 0) return 0;
    const gguf__entry *a = &f->kv_index[d], *b = &f->kv_index[d + 1];
    return gguf__fail(r, "duplicate key '%.*s' (kv %lld and kv %lld)",
                      (int)a->len, a->name, (long long)a->index,
                      (long long)b->index);
}

static int gguf__alignment(gguf__rd *r, gguf_file *f) {
    static const char key[] = "general.alignment";
    f->alignment = GGUF_DEFAULT_ALIGN;
    int64_t i = gguf__lookup(f->kv_index, f->n_kv, key);
    if (i < 0) return 0;
    const gguf__kv *kv = &f->kv[i];
    if (kv->type != GGUF_U32)
        return gguf__fail(r, "key '%s' has type %s, expected u32", key,
                          gguf_vtype_name(kv->type));
    uint32_t a = gguf__le32(kv->val);
    if (a == 0 || (a & (a - 1)) != 0)
        return gguf__fail(r, "key '%s' is %u, expected a power of two", key,
                          (unsigned)a);
    f->alignment = a;
    return 0;
}

/* ---- tensors ----------------------------------------------------------------- */

/* Dimensions: each >= 1 and, with their product, within int64. */
static int gguf__dims(gguf__rd *r, gguf_tensor *t, uint64_t *n_elems) {
    if (gguf__u32(r, "n_dims", &t->n_dims)) return -1;
    if (t->n_dims < 1 || t->n_dims > GGUF_MAX_DIMS)
        return gguf__fail(r, "n_dims is %u, expected 1..%d", (unsigned)t->n_dims,
                          GGUF_MAX_DIMS);
    uint64_t prod = 1;
    for (uint32_t d = 0; d < GGUF_MAX_DIMS; d++) {
        uint64_t ne = 1;
        if (d < t->n_dims && gguf__u64(r, "dimension", &ne)) return -1;
        if (ne == 0 || ne > INT64_MAX)
            return gguf__fail(r, "dimension %u is %lld, expected >= 1",
                              (unsigned)d, (long long)ne);
        if (!sb_mul_u64(prod, ne, &prod) || prod > INT64_MAX)
            return gguf__fail(r, "dimension product overflows: more than "
                              "2^63-1 elements by dimension %u", (unsigned)d);
        t->ne[d] = (int64_t)ne;
    }
    *n_elems = prod;
    return 0;
}

static int gguf__tensor_info(gguf__rd *r, gguf_tensor *t, uint64_t i) {
    gguf_str name;
    uint32_t type;
    uint64_t n_elems = 0, row = 0;
    snprintf(r->ctx, sizeof r->ctx, "tensor info %llu", (unsigned long long)i);
    if (gguf__name(r, "tensor name", &name)) return -1;
    memcpy(t->name, name.ptr, (size_t)name.len);
    t->name[name.len] = '\0';
    snprintf(r->ctx, sizeof r->ctx, "tensor '%s'", t->name);
    if (gguf__dims(r, t, &n_elems) || gguf__u32(r, "type", &type)) return -1;
    if (!krn_type_known(type))
        return gguf__fail(r, "type %u is not a supported ggml type",
                          (unsigned)type);
    t->type = (krn_type)type;
    if (!krn_row_bytes(t->type, t->ne[0], &row))
        return gguf__fail(r, "row length ne[0] = %lld is not a multiple of the "
                          "%s block size %lld", (long long)t->ne[0],
                          krn_type_name(type),
                          (long long)krn_type_block_elems(t->type));
    if (!sb_mul_u64(row, n_elems / (uint64_t)t->ne[0], &t->nbytes))
        return gguf__fail(r, "size of %llu %s elements overflows",
                          (unsigned long long)n_elems, krn_type_name(type));
    return gguf__u64(r, "offset", &t->offset);
}

/* Places tensor t's data: aligned, and inside the file. */
static int gguf__place(gguf__rd *r, gguf_file *f, gguf_tensor *t) {
    uint64_t start, end;
    snprintf(r->ctx, sizeof r->ctx, "tensor '%s'", t->name);
    if (t->offset % f->alignment != 0)
        return gguf__fail(r, "offset %llu is not a multiple of the alignment %llu",
                          (unsigned long long)t->offset,
                          (unsigned long long)f->alignment);
    if (!sb_add_u64(f->data_start, t->offset, &start) ||
        !sb_add_u64(start, t->nbytes, &end))
        return gguf__fail(r, "data [offset %llu, +%llu bytes] overflows a "
                          "64-bit file position", (unsigned long long)t->offset,
                          (unsigned long long)t->nbytes);
    if (end > f->size)
        return gguf__fail(r, "data [offset %llu, +%llu bytes] runs past the end "
                          "of the file (%llu bytes; data section at %llu)",
                          (unsigned long long)t->offset,
                          (unsigned long long)t->nbytes,
                          (unsigned long long)f->size,
                          (unsigned long long)f->data_start);
    t->data = f->bytes + start;
    return 0;
}

static int gguf__offset_cmp(const void *a, const void *b) {
    const gguf_tensor *x = *(const gguf_tensor *const *)a;
    const gguf_tensor *y = *(const gguf_tensor *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Two tensors may not share bytes: sorted by offset, each must end before
 * the next begins. */
static int gguf__check_overlap(gguf__rd *r, gguf_file *f) {
    int rc = 0;
    if (f->n_tensors < 2) return 0;
    const gguf_tensor **by = malloc((size_t)f->n_tensors * sizeof *by);
    if (!by) return gguf__fail(r, "out of memory for the overlap check");
    for (int64_t i = 0; i < f->n_tensors; i++) by[i] = &f->tensors[i];
    qsort(by, (size_t)f->n_tensors, sizeof *by, gguf__offset_cmp);
    r->ctx[0] = '\0';
    for (int64_t i = 1; i < f->n_tensors && rc == 0; i++) {
        const gguf_tensor *a = by[i - 1], *b = by[i];
        if (a->offset + a->nbytes > b->offset) /* no overflow: both placed */
            rc = gguf__fail(r, "tensors '%s' [offset %llu, +%llu bytes] and "
                            "'%s' [offset %llu] overlap", a->name,
                            (unsigned long long)a->offset,
                            (unsigned long long)a->nbytes, b->name,
                            (unsigned long long)b->offset);
    }
    free(by);
    return rc;
}

static int gguf__index_tensors(gguf__rd *r, gguf_file *f) {
    if (f->n_tensors == 0) return 0;
    f->t_index = malloc((size_t)f->n_tensors * sizeof *f->t_index);
    if (!f->t_index) return gguf__fail(r, "out of memory for the tensor index");
    for (int64_t i = 0; i < f->n_tensors; i++)
        f->t_index[i] = (gguf__entry){f->tensors[i].name,
                                      strlen(f->tensors[i].name), i};
    int64_t d = gguf__sort_find_dup(f->t_index, f->n_tensors);
    r->ctx[0] = '\0';
    if (d < 0) return 0;
    return gguf__fail(r, "duplicate tensor name '%s' (tensor info %lld and %lld)",
                      f->t_index[d].name, (long long)f->t_index[d].index,
                      (long long)f->t_index[d + 1].index);
}

static int gguf__read_tensors(gguf__rd *r, gguf_file *f, uint64_t n) {
    /* The header check was against the bytes after it; the KVs used some. */
    if (n * GGUF__MIN_TENSOR > gguf__left(r))
        return gguf__fail(r, "tensor count %llu needs at least %llu bytes of "
                          "tensor infos, but only %llu remain",
                          (unsigned long long)n,
                          (unsigned long long)n * GGUF__MIN_TENSOR,
                          (unsigned long long)gguf__left(r));
    if (n == 0) return 0;
    f->tensors = calloc((size_t)n, sizeof *f->tensors);
    if (!f->tensors)
        return gguf__fail(r, "out of memory for %llu tensors",
                          (unsigned long long)n);
    f->n_tensors = (int64_t)n;
    for (uint64_t i = 0; i < n; i++)
        if (gguf__tensor_info(r, &f->tensors[i], i)) return -1;
    r->ctx[0] = '\0';
    return gguf__index_tensors(r, f);
}

static int gguf__place_all(gguf__rd *r, gguf_file *f) {
    uint64_t pad = (f->alignment - r->pos % f->alignment) % f->alignment;
    if (!sb_add_u64(r->pos, pad, &f->data_start))
        return gguf__fail(r, "data section start overflows");
    for (int64_t i = 0; i < f->n_tensors; i++)
        if (gguf__place(r, f, &f->tensors[i])) return -1;
    return gguf__check_overlap(r, f);
}

/* ---- open and close ----------------------------------------------------------- */

static gguf_file *gguf__parse(const void *data, uint64_t size, const char *where,
                              sb_err *err) {
    gguf__rd r = {.p = data, .size = size, .where = where, .elem = -1,
                  .err = err};
    uint64_t n_tensors = 0, n_kv = 0;
    gguf_file *f = calloc(1, sizeof *f);
    if (!f) {
        sb_err_set(err, where, "out of memory");
        return NULL;
    }
    f->bytes = data;
    f->size = size;
    if (gguf__header(&r, f, &n_tensors, &n_kv) ||
        gguf__read_kvs(&r, f, n_kv) || gguf__index_kvs(&r, f) ||
        gguf__alignment(&r, f) || gguf__read_tensors(&r, f, n_tensors) ||
        gguf__place_all(&r, f))
        goto fail;
    return f;
fail:
    gguf_close(f);
    return NULL;
}

/* path made absolute, so that a later check finds the same file after a
 * chdir; path itself when it cannot be resolved. NULL when out of memory. */
static char *gguf__abs_path(const char *path) {
    char *abs = realpath(path, NULL);
    return abs ? abs : strdup(path);
}

gguf_file *gguf_open(const char *path, sb_err *err) {
    char where[320];
    uint64_t size = 0;
    gguf_identity id;
    snprintf(where, sizeof where, "%s: %.280s", __func__, path ? path : "(null)");
    if (!path) {
        sb_err_set(err, where, "no path given");
        return NULL;
    }
    void *bytes = gguf_file_read(path, where, &size, &id, err);
    if (!bytes) return NULL;
    gguf_file *f = gguf__parse(bytes, size, where, err);
    if (!f) {
        gguf_file_release(bytes, size);
        return NULL;
    }
    f->own = bytes;
    f->id = id;
    if (!(f->path = gguf__abs_path(path))) {
        sb_err_set(err, where, "out of memory");
        gguf_close(f);
        return NULL;
    }
    return f;
}

int gguf_check_unchanged(const gguf_file *f, sb_err *err) {
    if (!f->path) return 0;
    return gguf_identity_check(f->path, &f->id, __func__, err);
}

gguf_file *gguf_open_buffer(const void *data, uint64_t size, sb_err *err) {
    if (!data || size == 0) {
        sb_err_set(err, __func__, "empty buffer (%llu bytes), expected a GGUF "
                   "header of at least %d bytes", (unsigned long long)size,
                   GGUF__HEADER_BYTES);
        return NULL;
    }
    return gguf__parse(data, size, __func__, err);
}

void gguf_close(gguf_file *f) {
    if (!f) return;
    for (int64_t i = 0; i < f->n_kv; i++) free(f->kv[i].strs);
    free(f->kv);
    free(f->kv_index);
    free(f->tensors);
    free(f->t_index);
    gguf_file_release(f->own, f->size);
    free(f->path);
    free(f);
}

uint32_t gguf_version(const gguf_file *f) { return f->version; }
uint64_t gguf_file_size(const gguf_file *f) { return f->size; }
const void *gguf_file_bytes(const gguf_file *f) { return f->bytes; }

/* ---- metadata accessors -------------------------------------------------------- */

int64_t gguf_kv_count(const gguf_file *f) { return f->n_kv; }

int64_t gguf_find_key(const gguf_file *f, const char *key) {
    return key ? gguf__lookup(f->kv_index, f->n_kv, key) : -1;
}

/* Out-of-range indices are caller bugs; they get an empty key (and type
 * u8), not a crash. */
gguf_str gguf_kv_key(const gguf_file *f, int64_t i) {
    if (i < 0 || i >= f->n_kv) return (gguf_str){"", 0};
    return f->kv[i].key;
}

gguf_vtype gguf_kv_type(const gguf_file *f, int64_t i) {
    if (i < 0 || i >= f->n_kv) return GGUF_U8;
    return f->kv[i].type;
}

/* The KV for key, or NULL with a "missing required key" error. */
static const gguf__kv *gguf__get(const gguf_file *f, const char *key,
                                 const char *where, sb_err *err) {
    int64_t i = gguf_find_key(f, key);
    if (i >= 0) return &f->kv[i];
    sb_err_set(err, where, "missing required key '%s'", key ? key : "(null)");
    return NULL;
}

/* An integer scalar as (negative?, value): *s when *neg, else *u. */
static bool gguf__int_value(const gguf__kv *kv, bool *neg, int64_t *s,
                            uint64_t *u) {
    const unsigned char *p = kv->val;
    *neg = false;
    *s = 0;
    switch (kv->type) {
    case GGUF_U8: *u = p[0]; return true;
    case GGUF_U16: *u = gguf__le16(p); return true;
    case GGUF_U32: *u = gguf__le32(p); return true;
    case GGUF_U64: *u = gguf__le64(p); return true;
    case GGUF_I8: *s = (int8_t)p[0]; break;
    case GGUF_I16: *s = (int16_t)gguf__le16(p); break;
    case GGUF_I32: *s = (int32_t)gguf__le32(p); break;
    case GGUF_I64: *s = (int64_t)gguf__le64(p); break;
    default: return false;
    }
    *neg = *s < 0;
    *u = (uint64_t)*s;
    return true;
}

int gguf_get_u32(const gguf_file *f, const char *key, uint32_t *out,
                 sb_err *err) {
    const gguf__kv *kv = gguf__get(f, key, __func__, err);
    bool neg;
    int64_t s;
    uint64_t u;
    if (!kv) return -1;
    if (!gguf__int_value(kv, &neg, &s, &u))
        return sb_err_set(err, __func__, "key '%s' has type %s, expected an "
                          "integer", key, gguf_vtype_name(kv->type));
    if (neg)
        return sb_err_set(err, __func__, "key '%s' is %lld, expected 0..%u", key,
                          (long long)s, (unsigned)UINT32_MAX);
    if (u > UINT32_MAX)
        return sb_err_set(err, __func__, "key '%s' is %llu, expected 0..%u", key,
                          (unsigned long long)u, (unsigned)UINT32_MAX);
    *out = (uint32_t)u;
    return 0;
}

int gguf_get_f32(const gguf_file *f, const char *key, float *out, sb_err *err) {
    const gguf__kv *kv = gguf__get(f, key, __func__, err);
    if (!kv) return -1;
    if (kv->type == GGUF_F32) {
        uint32_t b = gguf__le32(kv->val);
        memcpy(out, &b, sizeof *out);
        return 0;
    }
    if (kv->type == GGUF_F64) {
        uint64_t b = gguf__le64(kv->val);
        double d;
        memcpy(&d, &b, sizeof d);
        *out = (float)d;
        return 0;
    }
    return sb_err_set(err, __func__, "key '%s' has type %s, expected a float "
                      "(f32 or f64)", key, gguf_vtype_name(kv->type));
}

int gguf_get_str(const gguf_file *f, const char *key, gguf_str *out,
                 sb_err *err) {
    const gguf__kv *kv = gguf__get(f, key, __func__, err);
    if (!kv) return -1;
    if (kv->type != GGUF_STRING)
        return sb_err_set(err, __func__, "key '%s' has type %s, expected string",
                          key, gguf_vtype_name(kv->type));
    *out = kv->str;
    return 0;
}

int gguf_get_bool(const gguf_file *f, const char *key, bool *out, sb_err *err) {
    const gguf__kv *kv = gguf__get(f, key, __func__, err);
    if (!kv) return -1;
    if (kv->type != GGUF_BOOL)
        return sb_err_set(err, __func__, "key '%s' has type %s, expected bool",
                          key, gguf_vtype_name(kv->type));
    *out = kv->val[0] != 0; /* checked to be 0 or 1 at open */
    return 0;
}

int gguf_get_arr(const gguf_file *f, const char *key, gguf_vtype *elem_type,
                 uint64_t *n, sb_err *err) {
    const gguf__kv *kv = gguf__get(f, key, __func__, err);
    if (!kv) return -1;
    if (kv->type != GGUF_ARRAY)
        return sb_err_set(err, __func__, "key '%s' has type %s, expected an "
                          "array", key, gguf_vtype_name(kv->type));
    *elem_type = kv->elem;
    *n = kv->n;
    return 0;
}

/* Misuse (not a string array, i out of range) gives an empty string. */
gguf_str gguf_arr_str(const gguf_file *f, int64_t kv, uint64_t i) {
    if (kv < 0 || kv >= f->n_kv) return (gguf_str){"", 0};
    const gguf__kv *e = &f->kv[kv];
    if (e->type != GGUF_ARRAY || e->elem != GGUF_STRING || i >= e->n)
        return (gguf_str){"", 0};
    return e->strs[i];
}

const void *gguf_arr_data(const gguf_file *f, int64_t kv) {
    if (kv < 0 || kv >= f->n_kv) return NULL;
    const gguf__kv *e = &f->kv[kv];
    if (e->type != GGUF_ARRAY || e->elem == GGUF_STRING) return NULL;
    return e->val;
}

/* ---- tensor accessors ------------------------------------------------------------ */

int64_t gguf_tensor_count(const gguf_file *f) { return f->n_tensors; }

const gguf_tensor *gguf_tensor_at(const gguf_file *f, int64_t i) {
    if (i < 0 || i >= f->n_tensors) return NULL;
    return &f->tensors[i];
}

const gguf_tensor *gguf_find_tensor(const gguf_file *f, const char *name) {
    if (!name) return NULL;
    int64_t i = gguf__lookup(f->t_index, f->n_tensors, name);
    return i < 0 ? NULL : &f->tensors[i];
}
