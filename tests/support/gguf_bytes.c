#include "gguf_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GGUF value types used by the KV helpers (numbered as in gguf/gguf.h). */
enum { GB_I32 = 5, GB_U32 = 4, GB_F32 = 6, GB_STRING = 8, GB_ARRAY = 9 };

void gb_free(gb_buf *b) {
    free(b->data);
    *b = (gb_buf){0};
}

/* Room for n more bytes; aborts when out of memory (test support only). */
static void gb__reserve(gb_buf *b, size_t n) {
    if (n <= b->cap - b->len) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) abort();
        cap *= 2;
    }
    unsigned char *p = realloc(b->data, cap);
    if (!p) {
        fprintf(stderr, "gb: out of memory for %zu bytes\n", cap);
        abort();
    }
    b->data = p;
    b->cap = cap;
}

void gb_bytes(gb_buf *b, const void *p, size_t n) {
    if (n == 0) return;
    gb__reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void gb_zeros(gb_buf *b, size_t n) {
    if (n == 0) return;
    gb__reserve(b, n);
    memset(b->data + b->len, 0, n);
    b->len += n;
}

/* n little-endian bytes of v. */
static void gb__le(gb_buf *b, uint64_t v, int n) {
    unsigned char t[8];
    for (int i = 0; i < n; i++) t[i] = (unsigned char)(v >> 8 * i);
    gb_bytes(b, t, (size_t)n);
}

void gb_u8(gb_buf *b, uint8_t v) { gb__le(b, v, 1); }
void gb_u16(gb_buf *b, uint16_t v) { gb__le(b, v, 2); }
void gb_u32(gb_buf *b, uint32_t v) { gb__le(b, v, 4); }
void gb_u64(gb_buf *b, uint64_t v) { gb__le(b, v, 8); }

void gb_f32(gb_buf *b, float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    gb_u32(b, u);
}

void gb_f64(gb_buf *b, double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    gb_u64(b, u);
}

void gb_str_n(gb_buf *b, uint64_t declared, const void *s, size_t n) {
    gb_u64(b, declared);
    gb_bytes(b, s, n);
}

void gb_str(gb_buf *b, const char *s) { gb_str_n(b, strlen(s), s, strlen(s)); }

void gb_pad(gb_buf *b, size_t align) {
    if (align == 0) abort();
    gb_zeros(b, (align - b->len % align) % align);
}

static void gb__patch(gb_buf *b, size_t at, uint64_t v, int n) {
    if (at > b->len || (size_t)n > b->len - at) {
        fprintf(stderr, "gb: patch at %zu outside %zu bytes\n", at, b->len);
        abort();
    }
    for (int i = 0; i < n; i++) b->data[at + (size_t)i] = (unsigned char)(v >> 8 * i);
}

void gb_patch_u32(gb_buf *b, size_t at, uint32_t v) { gb__patch(b, at, v, 4); }
void gb_patch_u64(gb_buf *b, size_t at, uint64_t v) { gb__patch(b, at, v, 8); }

void gb_header(gb_buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
    gb_bytes(b, "GGUF", 4);
    gb_u32(b, version);
    gb_u64(b, n_tensors);
    gb_u64(b, n_kv);
}

void gb_kv(gb_buf *b, const char *key, uint32_t type) {
    gb_str(b, key);
    gb_u32(b, type);
}

void gb_kv_u32(gb_buf *b, const char *key, uint32_t v) {
    gb_kv(b, key, GB_U32);
    gb_u32(b, v);
}

void gb_kv_i32(gb_buf *b, const char *key, int32_t v) {
    gb_kv(b, key, GB_I32);
    gb_u32(b, (uint32_t)v);
}

void gb_kv_f32(gb_buf *b, const char *key, float v) {
    gb_kv(b, key, GB_F32);
    gb_f32(b, v);
}

void gb_kv_str(gb_buf *b, const char *key, const char *v) {
    gb_kv(b, key, GB_STRING);
    gb_str(b, v);
}

void gb_kv_arr(gb_buf *b, const char *key, uint32_t elem_type, uint64_t n) {
    gb_kv(b, key, GB_ARRAY);
    gb_u32(b, elem_type);
    gb_u64(b, n);
}

void gb_tensor_info(gb_buf *b, const char *name, uint32_t n_dims,
                    const uint64_t *ne, uint32_t type, uint64_t offset) {
    gb_str(b, name);
    gb_u32(b, n_dims);
    for (uint32_t d = 0; d < n_dims; d++) gb_u64(b, ne[d]);
    gb_u32(b, type);
    gb_u64(b, offset);
}
