/*
 * gguf_write.h — private to mkmodel/ (and the tests, which build files for
 * the reader with it): the GGUF v3 writer.
 *
 * Writing streams: declare metadata and tensor infos, then gguf_writer_write
 * asks a callback for each tensor's bytes in order, so a 5 GB model never
 * sits in memory. The file is written to a temporary beside PATH and
 * renamed into place (base.h, sb_out).
 * Declarations are checked against the reader's limits (gguf/gguf.h), so
 * the writer never produces a file the reader refuses.
 *
 *     gguf_writer *w = gguf_writer_create();
 *     gguf_writer_set_str(w, "general.architecture", "qwen2");
 *     gguf_writer_add_tensor(w, "token_embd.weight", KRN_F32, 2, ne);
 *     if (gguf_writer_write(w, "model.gguf", fill, ctx, &err)) ...
 *     gguf_writer_free(w);
 */
#ifndef SB_MKMODEL_GGUF_WRITE_H
#define SB_MKMODEL_GGUF_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "../gguf/gguf.h"

typedef struct gguf_writer gguf_writer;

/* Returns NULL when out of memory. */
gguf_writer *gguf_writer_create(void);
void gguf_writer_free(gguf_writer *w);

/* Keys and strings are copied. Errors (duplicate key, out of memory) are
 * reported by gguf_writer_write. */
void gguf_writer_set_u32(gguf_writer *w, const char *key, uint32_t v);
void gguf_writer_set_f32(gguf_writer *w, const char *key, float v);
void gguf_writer_set_str(gguf_writer *w, const char *key, const char *v);
void gguf_writer_set_bool(gguf_writer *w, const char *key, bool v);
void gguf_writer_set_arr_str(gguf_writer *w, const char *key,
                             const char *const *v, uint64_t n);
void gguf_writer_set_arr_i32(gguf_writer *w, const char *key,
                             const int32_t *v, uint64_t n);
void gguf_writer_set_arr_u32(gguf_writer *w, const char *key,
                             const uint32_t *v, uint64_t n);
void gguf_writer_set_arr_f32(gguf_writer *w, const char *key,
                             const float *v, uint64_t n);
/* Declares a tensor; data is produced at write time, in declaration order. */
void gguf_writer_add_tensor(gguf_writer *w, const char *name, krn_type type,
                            uint32_t n_dims, const int64_t *ne);

/* Fills buf (nbytes, the tensor's size) with tensor i's data. Returns 0, or
 * -1 with err filled to abort the write. */
typedef int (*gguf_fill_fn)(void *ctx, int64_t i, void *buf, uint64_t nbytes,
                            sb_err *err);

/* Writes the whole file to path (via sb_out, renamed when complete; the
 * temporary file is removed on failure). */
int gguf_writer_write(gguf_writer *w, const char *path, gguf_fill_fn fill,
                      void *ctx, sb_err *err);

#endif /* SB_MKMODEL_GGUF_WRITE_H */
