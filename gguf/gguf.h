/*
 * gguf.h — the public face of gguf/: reading GGUF v3, and the format's
 * facts (value types, limits, how a vocabulary is stored). engine/ loads
 * models through it; mkmodel/ writes the format (mkmodel/gguf_write.h)
 * within the limits it states. docs/gguf.md describes the subset of GGUF
 * this code accepts.
 *
 * Reading treats every file as hostile. gguf_open reads the whole file into
 * the process's own memory (never a mapping of the file: a truncated or
 * rewritten file cannot touch a model already loaded; gguf/gguf_file.c
 * says why), then checks every count, string length, array length,
 * dimension product, type and offset against the file size and against
 * overflow before it allocates or dereferences anything. After a successful
 * open, every accessor is a plain lookup that cannot read outside the
 * file's bytes.
 *
 *     sb_err err = {0};
 *     gguf_file *f = gguf_open("model.gguf", &err);
 *     uint32_t n_layer;
 *     if (!f || gguf_get_u32(f, "qwen2.block_count", &n_layer, &err)) ...
 *     const gguf_tensor *t = gguf_find_tensor(f, "token_embd.weight");
 *     gguf_close(f);
 *
 * The limits below are the reader's; the writer enforces them too, so that
 * it never produces a file the reader would refuse.
 */
#ifndef SB_GGUF_H
#define SB_GGUF_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"
#include "../kernels/kernels.h"

/* Metadata value types, numbered as in the GGUF specification. */
typedef enum gguf_vtype {
    GGUF_U8 = 0, GGUF_I8 = 1, GGUF_U16 = 2, GGUF_I16 = 3, GGUF_U32 = 4,
    GGUF_I32 = 5, GGUF_F32 = 6, GGUF_BOOL = 7, GGUF_STRING = 8,
    GGUF_ARRAY = 9, GGUF_U64 = 10, GGUF_I64 = 11, GGUF_F64 = 12,
} gguf_vtype;

/* Caps on what a file may declare; a file beyond them is refused before any
 * allocation. Real Qwen2.5 files are far inside these. */
enum {
    GGUF_MAX_TENSORS = 65536,
    GGUF_MAX_KVS = 65536,
    GGUF_MAX_DIMS = 4,
    GGUF_MAX_NAME = 256, /* tensor names and metadata keys, bytes */
};

/* One metadata string (a value or an array element), bytes. Real files hold
 * chat templates of a few KB and, at most, an embedded tokenizer.json of a
 * few MB; anything near this cap is hostile. */
#define GGUF_MAX_STR ((uint64_t)64 << 20)

/* general.alignment when the key is absent, bytes. */
#define GGUF_DEFAULT_ALIGN 32u

/* Type names for messages ("u32", "string", ...); "?" outside 0..12. */
const char *gguf_vtype_name(uint32_t type);

/* A string inside the file's bytes: NOT NUL-terminated. */
typedef struct gguf_str {
    const char *ptr;
    uint64_t len;
} gguf_str;

typedef struct gguf_tensor {
    char name[GGUF_MAX_NAME + 1]; /* NUL-terminated copy */
    uint32_t n_dims;
    int64_t ne[GGUF_MAX_DIMS];    /* unused dims are 1 */
    krn_type type;
    uint64_t offset;              /* from the start of the data section */
    uint64_t nbytes;
    const void *data;             /* inside the file's bytes; owned by the file */
} gguf_tensor;

typedef struct gguf_file gguf_file;

/* Bytes of the fixed header (magic, version, two counts). */
#define GGUF_HEADER_BYTES 24

/* What identifies a file's contents without reading them: it changes when
 * the file is rewritten in place, truncated, or replaced by another file
 * (a rename over the path). known is false for a buffer. */
typedef struct gguf_identity {
    bool known;
    uint64_t dev, ino, size;
    int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
} gguf_identity;

/* [gguf_file.c] Reads a regular file whole into fresh private memory,
 * read-only once filled; *size and *id are the file's as read. A file that
 * shrinks or changes while it is read is refused (it is being written).
 * NULL with err (prefixed by `where`) for any failure. Free with
 * gguf_file_release(bytes, *size). */
void *gguf_file_read(const char *path, const char *where, uint64_t *size,
                     gguf_identity *id, sb_err *err);
void gguf_file_release(void *bytes, uint64_t size);
/* [gguf_file.c] 0 when path still names the file read as id, or names
 * nothing (deleted since: no other bytes claim the path); -1 with err
 * saying what changed (replaced, resized, modified). Always 0 for an
 * unknown identity. One stat(): cheap enough before every generation. */
int gguf_identity_check(const char *path, const gguf_identity *id,
                        const char *where, sb_err *err);

/* Reads and validates a file. Returns NULL and fills err (naming the field,
 * the value seen and the limit) for any defect. Free with gguf_close. */
gguf_file *gguf_open(const char *path, sb_err *err);
/* Validates a buffer already in memory (borrowed until gguf_close). */
gguf_file *gguf_open_buffer(const void *data, uint64_t size, sb_err *err);
void gguf_close(gguf_file *f);

/* 0 when the file f was read from is unchanged on disk (gguf_identity_check
 * on its path as opened, made absolute); always 0 for a buffer. */
int gguf_check_unchanged(const gguf_file *f, sb_err *err);

uint32_t gguf_version(const gguf_file *f);
uint64_t gguf_file_size(const gguf_file *f);
/* The bytes of the whole file (for hashing); owned by the file. */
const void *gguf_file_bytes(const gguf_file *f);

/* ---- metadata ---- */
int64_t gguf_kv_count(const gguf_file *f);
/* Index of key, or -1. */
int64_t gguf_find_key(const gguf_file *f, const char *key);
gguf_str gguf_kv_key(const gguf_file *f, int64_t i);
gguf_vtype gguf_kv_type(const gguf_file *f, int64_t i);

/* Typed getters by key. Integer getters accept any integer type whose value
 * fits; float getters accept F32 and F64. A missing key or a wrong type is
 * an error naming the key. */
int gguf_get_u32(const gguf_file *f, const char *key, uint32_t *out, sb_err *err);
int gguf_get_f32(const gguf_file *f, const char *key, float *out, sb_err *err);
int gguf_get_str(const gguf_file *f, const char *key, gguf_str *out, sb_err *err);
/* A bool (stored as one byte, 0 or 1; the reader refuses any other). */
int gguf_get_bool(const gguf_file *f, const char *key, bool *out, sb_err *err);
/* An array's element type and length; elements are read with the two below. */
int gguf_get_arr(const gguf_file *f, const char *key, gguf_vtype *elem_type,
                 uint64_t *n, sb_err *err);
/* Element i of a string array (by key index from gguf_find_key). */
gguf_str gguf_arr_str(const gguf_file *f, int64_t kv, uint64_t i);
/* Pointer to the packed elements of a numeric array (little-endian), or NULL
 * when the array holds strings. */
const void *gguf_arr_data(const gguf_file *f, int64_t kv);

/* ---- tensors ---- */
int64_t gguf_tensor_count(const gguf_file *f);
const gguf_tensor *gguf_tensor_at(const gguf_file *f, int64_t i);
/* NULL when absent. */
const gguf_tensor *gguf_find_tensor(const gguf_file *f, const char *name);

/* ---- the vocabulary as GGUF stores it (gguf_vocab.c) ---- */

/* Token types of tokenizer.ggml.token_type (llama.cpp's numbering). */
enum {
    GGUF_TOKEN_NORMAL = 1,
    GGUF_TOKEN_UNKNOWN = 2,
    GGUF_TOKEN_CONTROL = 3,
    GGUF_TOKEN_USER_DEFINED = 4,
    GGUF_TOKEN_UNUSED = 5,
    GGUF_TOKEN_BYTE = 6,
};

/* GPT-2's byte-to-unicode form, in which a gpt2-model vocabulary stores its
 * token strings (tokenizer.ggml.tokens): the code point (0..323) that stands
 * for byte b, and its inverse (-1 for a code point outside the map). */
uint32_t gguf_gpt2_byte_to_cp(uint8_t b);
int gguf_gpt2_cp_to_byte(uint32_t cp);
/* Decodes one token string from that form into out (room for s.len bytes:
 * decoding never lengthens). Returns the byte count, or -1 when the string
 * is not UTF-8 of mapped code points. */
int64_t gguf_gpt2_decode(gguf_str s, char *out);

#endif /* SB_GGUF_H */
