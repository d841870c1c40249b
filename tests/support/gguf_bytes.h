/*
 * gguf_bytes.h — test support: assemble raw GGUF bytes in memory, good or
 * deliberately bad, field by field.
 *
 * Nothing here checks anything: a test says exactly which bytes the file
 * holds, so it can declare a string longer than the bytes that follow, a
 * count larger than the file, an unknown type, and so on. All multi-byte
 * values are written little-endian. Out of memory aborts (tests only).
 *
 *     gb_buf b = {0};
 *     gb_header(&b, 3, 1, 1);                 // 1 tensor, 1 KV
 *     gb_kv_u32(&b, "general.alignment", 32);
 *     size_t at = b.len;                      // remember a field to patch
 *     gb_tensor_info(&b, "w", 2, (uint64_t[]){32, 2}, 0, 0); // f32, offset 0
 *     gb_pad(&b, 32);
 *     gb_zeros(&b, 32 * 2 * 4);
 *     gguf_file *f = gguf_open_buffer(b.data, b.len, &err);
 *     gb_free(&b);                            // after gguf_close(f)
 *
 * Ownership: b.data is owned by the gb_buf and freed by gb_free; it moves
 * when the buffer grows, so take pointers into it only after the last append.
 */
#ifndef SB_TESTS_GGUF_BYTES_H
#define SB_TESTS_GGUF_BYTES_H

#include <stddef.h>
#include <stdint.h>

typedef struct gb_buf {
    unsigned char *data; /* len bytes; owned */
    size_t len;
    size_t cap;
} gb_buf;

void gb_free(gb_buf *b);

/* ---- raw values ---- */
void gb_bytes(gb_buf *b, const void *p, size_t n);
void gb_zeros(gb_buf *b, size_t n);
void gb_u8(gb_buf *b, uint8_t v);
void gb_u16(gb_buf *b, uint16_t v);
void gb_u32(gb_buf *b, uint32_t v);
void gb_u64(gb_buf *b, uint64_t v);
void gb_f32(gb_buf *b, float v);
void gb_f64(gb_buf *b, double v);
/* A GGUF string: u64 length, then the bytes of s (no NUL). */
void gb_str(gb_buf *b, const char *s);
/* A GGUF string whose declared length may differ from the n bytes that
 * follow (for lies about lengths). */
void gb_str_n(gb_buf *b, uint64_t declared, const void *s, size_t n);
/* Zero bytes up to the next multiple of align. */
void gb_pad(gb_buf *b, size_t align);

/* Overwrites a value already in the buffer at byte offset at (which must
 * lie inside it; aborts otherwise). */
void gb_patch_u32(gb_buf *b, size_t at, uint32_t v);
void gb_patch_u64(gb_buf *b, size_t at, uint64_t v);

/* ---- GGUF structures ---- */
/* "GGUF", version, tensor count, KV count. */
void gb_header(gb_buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv);
/* A KV's key and value type; the caller then writes the value itself. */
void gb_kv(gb_buf *b, const char *key, uint32_t type);
void gb_kv_u32(gb_buf *b, const char *key, uint32_t v);
void gb_kv_i32(gb_buf *b, const char *key, int32_t v);
void gb_kv_f32(gb_buf *b, const char *key, float v);
void gb_kv_str(gb_buf *b, const char *key, const char *v);
/* An array KV's key and header (type 9, element type, count); the caller
 * then writes the elements. */
void gb_kv_arr(gb_buf *b, const char *key, uint32_t elem_type, uint64_t n);
/* A tensor info: name, n_dims, the n_dims dimensions as given (raw u64, so
 * "negative" ones can be written), ggml type, offset. ne must hold n_dims
 * values; to write an n_dims a reader must refuse, write a good info and
 * gb_patch_u32 its n_dims field (at the info's start + 8 + strlen(name)). */
void gb_tensor_info(gb_buf *b, const char *name, uint32_t n_dims,
                    const uint64_t *ne, uint32_t type, uint64_t offset);

#endif /* SB_TESTS_GGUF_BYTES_H */
