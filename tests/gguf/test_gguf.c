/*
 * GGUF reader and writer: a good file reads back field for field, a written
 * file reads back byte for byte, and every kind of bad file named in the
 * reader's contract (truncation anywhere, bad counts, lengths, types, shapes
 * and offsets) is refused with a one-line message naming the field. Bad
 * files are built here, one per failure mode, from a small valid baseline
 * (tests/support/gguf_bytes.h) with one field patched or one thing changed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../gguf/gguf.h"
#include "../../mkmodel/gguf_write.h"
#include "../support/gguf_bytes.h"

/* ---- the baseline file ------------------------------------------------------ */

/* Names a test may change (NULL keeps the default). */
typedef struct base_opts {
    const char *key[5];
    const char *name[2];
} base_opts;

/* Byte offsets of the fields tests patch. */
typedef struct base_offs {
    size_t n_tensors, n_kv, version;
    size_t kv_type[5];     /* each KV's value-type field */
    size_t str_len;        /* kv 0's string length */
    size_t align_val;      /* kv 1's u32 value */
    size_t arr_elem, arr_count;   /* kv 2 (array of strings) */
    size_t i32_count;      /* kv 3 (array of i32) */
    size_t ti_ndims[2], ti_ne[2], ti_type[2], ti_offset[2];
    size_t data_start;
} base_offs;

static const char *const def_keys[5] = {
    "general.architecture", "general.alignment", "tokenizer.ggml.tokens",
    "tokenizer.ggml.token_type", "qwen2.attention.layer_norm_rms_epsilon",
};
static const char *const def_names[2] = {"tok.a", "tok.b"};
static const char *const tokens[3] = {"a", "bc", "def"};
static const int32_t types[3] = {1, -2, 3};

/* Tensor 0: f32 [8, 2] at offset 0 (64 bytes); tensor 1: q8_0 [32, 1] at
 * offset 64 (34 bytes). The file ends with tensor 1's last byte, so every
 * shorter prefix is missing something. Data byte k of the section is k*7+1. */
enum { BASE_DATA = 64 + 34 };

static const char *pick(const char *over, const char *def) {
    return over ? over : def;
}

static void base_tensor(gb_buf *b, base_offs *o, int i, const char *name,
                        uint64_t ne0, uint64_t ne1, uint32_t type, uint64_t off) {
    size_t at = b->len + 8 + strlen(name);
    o->ti_ndims[i] = at;
    o->ti_ne[i] = at + 4;
    o->ti_type[i] = at + 4 + 16;
    o->ti_offset[i] = at + 4 + 16 + 4;
    gb_tensor_info(b, name, 2, (const uint64_t[]){ne0, ne1}, type, off);
}

static void base_build(gb_buf *b, base_offs *o, const base_opts *opt) {
    static const base_opts none;
    if (!opt) opt = &none;
    const char *k[5], *n[2];
    for (int i = 0; i < 5; i++) k[i] = pick(opt->key[i], def_keys[i]);
    for (int i = 0; i < 2; i++) n[i] = pick(opt->name[i], def_names[i]);
    *o = (base_offs){.version = 4, .n_tensors = 8, .n_kv = 16};
    gb_header(b, 3, 2, 5);
    o->kv_type[0] = b->len + 8 + strlen(k[0]);
    o->str_len = o->kv_type[0] + 4;
    gb_kv_str(b, k[0], "qwen2");
    o->kv_type[1] = b->len + 8 + strlen(k[1]);
    o->align_val = o->kv_type[1] + 4;
    gb_kv_u32(b, k[1], 32);
    o->kv_type[2] = b->len + 8 + strlen(k[2]);
    o->arr_elem = o->kv_type[2] + 4;
    o->arr_count = o->arr_elem + 4;
    gb_kv_arr(b, k[2], GGUF_STRING, 3);
    for (int i = 0; i < 3; i++) gb_str(b, tokens[i]);
    o->kv_type[3] = b->len + 8 + strlen(k[3]);
    o->i32_count = o->kv_type[3] + 8;
    gb_kv_arr(b, k[3], GGUF_I32, 3);
    for (int i = 0; i < 3; i++) gb_u32(b, (uint32_t)types[i]);
    o->kv_type[4] = b->len + 8 + strlen(k[4]);
    gb_kv_f32(b, k[4], 1e-6f);
    base_tensor(b, o, 0, n[0], 8, 2, KRN_F32, 0);
    base_tensor(b, o, 1, n[1], 32, 1, KRN_Q8_0, 64);
    gb_pad(b, 32);
    o->data_start = b->len;
    for (int i = 0; i < BASE_DATA; i++) gb_u8(b, (uint8_t)(i * 7 + 1));
}

/* Opens a private heap copy of exactly b->len bytes, so ASan sees any read
 * past the end. The caller frees *copy after gguf_close. */
static gguf_file *open_copy(const gb_buf *b, unsigned char **copy, sb_err *err) {
    *copy = malloc(b->len ? b->len : 1);
    assert_non_null(*copy);
    if (b->len) memcpy(*copy, b->data, b->len);
    return gguf_open_buffer(*copy, b->len, err);
}

static void expect_fail(const gb_buf *b, const char *want) {
    sb_err err = {0};
    unsigned char *copy;
    gguf_file *f = open_copy(b, &copy, &err);
    if (f) {
        gguf_close(f);
        fail_msg("opened; expected an error containing '%s'", want);
    }
    free(copy);
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not contain '%s'", err.msg, want);
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(strncmp(err.msg, "gguf_open_buffer: ", 18), 0);
}

/* Builds the baseline, overwrites the field whose offset is stored at
 * base_offs member `field` (offsetof) with a u32 (width 4) or u64 (width 8),
 * and expects an error containing want. */
static void expect_patch(size_t field, int width, uint64_t v, const char *want) {
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    size_t at;
    memcpy(&at, (const char *)&o + field, sizeof at);
    if (width == 4) gb_patch_u32(&b, at, (uint32_t)v);
    else gb_patch_u64(&b, at, v);
    expect_fail(&b, want);
    gb_free(&b);
}

#define PATCH32(member, v, want) \
    expect_patch(offsetof(base_offs, member), 4, (v), (want))
#define PATCH64(member, v, want) \
    expect_patch(offsetof(base_offs, member), 8, (v), (want))

/* Builds the baseline with other names and expects an error. */
static void expect_names(const base_opts *opt, const char *want) {
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, opt);
    expect_fail(&b, want);
    gb_free(&b);
}

static gguf_file *open_ok(const gb_buf *b, unsigned char **copy) {
    sb_err err = {0};
    gguf_file *f = open_copy(b, copy, &err);
    if (!f) fail_msg("gguf_open_buffer: %s", err.msg);
    assert_string_equal(err.msg, "");
    return f;
}

/* ---- a good file ------------------------------------------------------------ */

static void test_baseline_reads_back(void **state) {
    (void)state;
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    assert_int_equal(gguf_version(f), 3);
    assert_int_equal(gguf_file_size(f), b.len);
    assert_ptr_equal(gguf_file_bytes(f), copy);
    assert_int_equal(gguf_kv_count(f), 5);
    for (int i = 0; i < 5; i++) {
        gguf_str k = gguf_kv_key(f, i);
        assert_int_equal(k.len, strlen(def_keys[i]));
        assert_memory_equal(k.ptr, def_keys[i], k.len);
        assert_int_equal(gguf_find_key(f, def_keys[i]), i);
    }
    assert_int_equal(gguf_kv_type(f, 0), GGUF_STRING);
    assert_int_equal(gguf_kv_type(f, 2), GGUF_ARRAY);
    assert_int_equal(gguf_find_key(f, "general"), -1);
    assert_int_equal(gguf_find_key(f, "general.architecturex"), -1);

    sb_err err = {0};
    gguf_str s;
    assert_int_equal(gguf_get_str(f, def_keys[0], &s, &err), 0);
    assert_int_equal(s.len, 5);
    assert_memory_equal(s.ptr, "qwen2", 5);
    float eps;
    assert_int_equal(gguf_get_f32(f, def_keys[4], &eps, &err), 0);
    assert_true(eps == 1e-6f);

    gguf_vtype et;
    uint64_t n;
    assert_int_equal(gguf_get_arr(f, def_keys[2], &et, &n, &err), 0);
    assert_int_equal(et, GGUF_STRING);
    assert_int_equal(n, 3);
    for (uint64_t i = 0; i < 3; i++) {
        gguf_str e = gguf_arr_str(f, 2, i);
        assert_int_equal(e.len, strlen(tokens[i]));
        assert_memory_equal(e.ptr, tokens[i], e.len);
    }
    assert_int_equal(gguf_arr_str(f, 2, 3).len, 0);   /* out of range */
    assert_int_equal(gguf_arr_str(f, 3, 0).len, 0);   /* not strings */
    assert_null(gguf_arr_data(f, 2));
    assert_int_equal(gguf_get_arr(f, def_keys[3], &et, &n, &err), 0);
    assert_int_equal(et, GGUF_I32);
    assert_int_equal(n, 3);
    const unsigned char *raw = gguf_arr_data(f, 3);
    assert_non_null(raw);
    for (int i = 0; i < 3; i++) {
        uint32_t u = (uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 |
                     (uint32_t)raw[4 * i + 2] << 16 | (uint32_t)raw[4 * i + 3] << 24;
        assert_int_equal((int32_t)u, types[i]);
    }
    assert_string_equal(err.msg, "");

    assert_int_equal(gguf_tensor_count(f), 2);
    const gguf_tensor *a = gguf_find_tensor(f, "tok.a");
    const gguf_tensor *t1 = gguf_find_tensor(f, "tok.b");
    assert_ptr_equal(a, gguf_tensor_at(f, 0));
    assert_ptr_equal(t1, gguf_tensor_at(f, 1));
    assert_null(gguf_tensor_at(f, 2));
    assert_null(gguf_find_tensor(f, "tok"));
    assert_int_equal(a->n_dims, 2);
    assert_int_equal(a->ne[0], 8);
    assert_int_equal(a->ne[1], 2);
    assert_int_equal(a->ne[2], 1);
    assert_int_equal(a->ne[3], 1);
    assert_int_equal(a->type, KRN_F32);
    assert_int_equal(a->nbytes, 64);
    assert_ptr_equal(a->data, copy + o.data_start);
    assert_int_equal(t1->type, KRN_Q8_0);
    assert_int_equal(t1->offset, 64);
    assert_int_equal(t1->nbytes, 34);
    assert_ptr_equal(t1->data, copy + o.data_start + 64);
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

static void test_version_2_accepted(void **state) {
    (void)state;
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    gb_patch_u32(&b, o.version, 2);
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    assert_int_equal(gguf_version(f), 2);
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

/* Names and keys of exactly GGUF_MAX_NAME bytes are fine. */
static void test_longest_names_accepted(void **state) {
    (void)state;
    char key[GGUF_MAX_NAME + 1], name[GGUF_MAX_NAME + 1];
    memset(key, 'k', GGUF_MAX_NAME);
    memset(name, 'n', GGUF_MAX_NAME);
    key[GGUF_MAX_NAME] = name[GGUF_MAX_NAME] = '\0';
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, &(base_opts){.key = {[3] = key}, .name = {[1] = name}});
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    assert_int_equal(gguf_find_key(f, key), 3);
    assert_ptr_equal(gguf_find_tensor(f, name), gguf_tensor_at(f, 1));
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

/* Infos in one order, data in the reverse order: lookup is by name. */
static void test_shuffled_tensors_found_by_name(void **state) {
    (void)state;
    enum { N = 6 };
    const char *names[N] = {"blk.1.x", "a", "output.weight", "blk.0.x",
                            "token_embd.weight", "z"};
    gb_buf b = {0};
    gb_header(&b, 3, N, 0);
    for (int i = 0; i < N; i++) /* tensor i: f32 [4 * (i + 1)] */
        gb_tensor_info(&b, names[i], 1, (const uint64_t[]){4u * (i + 1)},
                       KRN_F32, 32u * (N - 1 - i) * 4);
    gb_pad(&b, 32);
    size_t data = b.len;
    gb_zeros(&b, 32u * N * 4);
    for (int i = 0; i < N; i++)
        b.data[data + 32u * (N - 1 - i) * 4] = (unsigned char)(100 + i);
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    for (int i = 0; i < N; i++) {
        const gguf_tensor *t = gguf_find_tensor(f, names[i]);
        assert_non_null(t);
        assert_ptr_equal(t, gguf_tensor_at(f, i));
        assert_string_equal(t->name, names[i]);
        assert_int_equal(t->ne[0], 4 * (i + 1));
        assert_int_equal(t->nbytes, 16 * (i + 1));
        assert_int_equal(((const unsigned char *)t->data)[0], 100 + i);
    }
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

static void test_getters(void **state) {
    (void)state;
    gb_buf b = {0};
    gb_header(&b, 3, 0, 11);
    gb_kv(&b, "u8", GGUF_U8); gb_u8(&b, 200);
    gb_kv(&b, "i8", GGUF_I8); gb_u8(&b, 0xff);
    gb_kv(&b, "u16", GGUF_U16); gb_u16(&b, 65535);
    gb_kv(&b, "i16", GGUF_I16); gb_u16(&b, 300);
    gb_kv_i32(&b, "i32", -5);
    gb_kv(&b, "u64", GGUF_U64); gb_u64(&b, 5000000000ull);
    gb_kv(&b, "i64", GGUF_I64); gb_u64(&b, 4000000000ull);
    gb_kv(&b, "bool", GGUF_BOOL); gb_u8(&b, 1);
    gb_kv(&b, "f64", GGUF_F64); gb_f64(&b, 0.25);
    gb_kv_str(&b, "x", "text");
    gb_kv_f32(&b, "f32", -1.5f);
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    uint32_t u;
    float v;
    sb_err err = {0};
    assert_int_equal(gguf_get_u32(f, "u8", &u, &err), 0);
    assert_int_equal(u, 200);
    assert_int_equal(gguf_get_u32(f, "u16", &u, &err), 0);
    assert_int_equal(u, 65535);
    assert_int_equal(gguf_get_u32(f, "i16", &u, &err), 0);
    assert_int_equal(u, 300);
    assert_int_equal(gguf_get_u32(f, "i64", &u, &err), 0);
    assert_int_equal(u, 4000000000u);
    assert_int_equal(gguf_get_f32(f, "f64", &v, &err), 0);
    assert_true(v == 0.25f);
    assert_int_equal(gguf_get_f32(f, "f32", &v, &err), 0);
    assert_true(v == -1.5f);
    assert_string_equal(err.msg, "");

    struct { const char *key, *want; } bad[] = {
        {"i8", "gguf_get_u32: key 'i8' is -1, expected 0..4294967295"},
        {"i32", "key 'i32' is -5, expected 0..4294967295"},
        {"u64", "key 'u64' is 5000000000, expected 0..4294967295"},
        {"bool", "key 'bool' has type bool, expected an integer"},
        {"x", "gguf_get_u32: key 'x' has type string, expected an integer"},
        {"qwen2.block_count",
         "gguf_get_u32: missing required key 'qwen2.block_count'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_err e = {0};
        assert_int_equal(gguf_get_u32(f, bad[i].key, &u, &e), -1);
        if (!strstr(e.msg, bad[i].want))
            fail_msg("'%s' does not contain '%s'", e.msg, bad[i].want);
    }
    sb_err e1 = {0}, e2 = {0}, e3 = {0}, e4 = {0};
    gguf_str s;
    gguf_vtype et;
    uint64_t n;
    assert_int_equal(gguf_get_f32(f, "u8", &v, &e1), -1);
    assert_string_equal(e1.msg, "gguf_get_f32: key 'u8' has type u8, expected a "
                        "float (f32 or f64)");
    assert_int_equal(gguf_get_str(f, "f32", &s, &e2), -1);
    assert_string_equal(e2.msg, "gguf_get_str: key 'f32' has type f32, expected "
                        "string");
    assert_int_equal(gguf_get_arr(f, "x", &et, &n, &e3), -1);
    assert_string_equal(e3.msg, "gguf_get_arr: key 'x' has type string, "
                        "expected an array");
    assert_int_equal(gguf_get_str(f, "nope", &s, &e4), -1);
    assert_string_equal(e4.msg, "gguf_get_str: missing required key 'nope'");
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

/* ---- bad files ------------------------------------------------------------------ */

/* Every prefix of a valid file is refused cleanly (run under ASan: each
 * prefix is its own exact-size heap block). */
static void test_truncated_everywhere(void **state) {
    (void)state;
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    for (size_t len = 0; len < b.len; len++) {
        gb_buf prefix = {.data = b.data, .len = len, .cap = len};
        sb_err err = {0};
        unsigned char *copy;
        gguf_file *f = open_copy(&prefix, &copy, &err);
        if (f) fail_msg("a prefix of %zu of %zu bytes opened", len, b.len);
        free(copy);
        assert_true(err.msg[0] != '\0');
        assert_null(strchr(err.msg, '\n'));
    }
    /* the messages name what was cut */
    gb_buf cut = {.data = b.data, .len = 2, .cap = 2};
    expect_fail(&cut, "magic needs 4 bytes at offset 0, but the file ends at 2");
    cut.len = o.arr_count + 8 + (8 + 1) + (8 + 2) + 8 + 1; /* inside "def" */
    expect_fail(&cut, "kv 2 'tokenizer.ggml.tokens': string element 2 needs "
                "3 bytes");
    cut.len = o.ti_type[1] + 2;
    expect_fail(&cut, "tensor 'tok.b': type needs 4 bytes");
    cut.len = b.len - 1;
    expect_fail(&cut, "tensor 'tok.b': data [offset 64, +34 bytes] runs past "
                "the end of the file");
    gb_free(&b);
}

static void test_bad_magic(void **state) {
    (void)state;
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    b.data[3] = 'G';
    expect_fail(&b, "bad magic 47 47 55 47, expected 'GGUF'");
    gb_free(&b);
}

static void test_bad_version(void **state) {
    (void)state;
    PATCH32(version, 1, "unsupported version 1, expected 3");
    PATCH32(version, 4, "unsupported version 4, expected 3");
    PATCH32(version, 0x03000000u, "(a big-endian file?)");
}

static void test_absurd_counts(void **state) {
    (void)state;
    PATCH64(n_tensors, GGUF_MAX_TENSORS + 1,
            "tensor count 65537 exceeds the limit of 65536");
    PATCH64(n_tensors, UINT64_MAX, "tensor count 18446744073709551615 exceeds");
    PATCH64(n_tensors, 1000, "tensor count 1000 needs at least");
    /* one more than the file has: the third info is read from the padding
     * and data bytes */
    PATCH64(n_tensors, 3, "tensor info 2: tensor name");
    PATCH64(n_kv, GGUF_MAX_KVS + 1, "kv count 65537 exceeds the limit of 65536");
    PATCH64(n_kv, 60000, "kv count 60000 needs at least");
    /* one KV more than the file has: whatever breaks, it is refused */
    PATCH64(n_kv, 6, "gguf_open_buffer: ");
}

static void test_bad_string_lengths(void **state) {
    (void)state;
    PATCH64(str_len, 1000, "kv 0 'general.architecture': string value needs "
            "1000 bytes");
    PATCH64(str_len, (uint64_t)1 << 40, "string value length 1099511627776 "
            "exceeds the cap of 67108864 bytes");
    PATCH64(str_len, UINT64_MAX, "exceeds the cap");
}

static void test_bad_array_counts(void **state) {
    (void)state;
    PATCH64(arr_count, (uint64_t)1 << 40, "kv 2 'tokenizer.ggml.tokens': array "
            "count 1099511627776 of strings");
    /* few enough to pass the count check: element 3 onwards is garbage */
    PATCH64(arr_count, 40, "kv 2 'tokenizer.ggml.tokens': string element");
    PATCH64(i32_count, (uint64_t)1 << 62, "kv 3 'tokenizer.ggml.token_type': "
            "array count 4611686018427387904 of i32 (4 bytes each) runs past");
    PATCH64(i32_count, UINT64_MAX, "runs past the end of the file");
}

static void test_unknown_value_types(void **state) {
    (void)state;
    PATCH32(kv_type[0], 13, "kv 0 'general.architecture': value type 13 "
            "unknown, expected 0..12");
    PATCH32(kv_type[4], 0xffffffffu, "value type 4294967295 unknown");
    PATCH32(arr_elem, 13, "array element type 13 unknown");
    PATCH32(arr_elem, GGUF_ARRAY, "nested arrays are not supported");
    PATCH32(kv_type[1], GGUF_I32, "key 'general.alignment' has type i32, "
            "expected u32");
}

static void test_bad_alignment(void **state) {
    (void)state;
    PATCH32(align_val, 48, "key 'general.alignment' is 48, expected a power of two");
    PATCH32(align_val, 0, "key 'general.alignment' is 0, expected a power of two");
    /* 16 is fine for this file's offsets (0 and 64) */
    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    gb_patch_u32(&b, o.align_val, 16);
    unsigned char *copy;
    gguf_file *f = open_ok(&b, &copy);
    gguf_close(f);
    free(copy);
    gb_free(&b);
}

static void test_bad_bool(void **state) {
    (void)state;
    gb_buf b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv(&b, "flag", GGUF_BOOL);
    gb_u8(&b, 2);
    expect_fail(&b, "kv 0 'flag': bool 0 is 2, expected 0 or 1");
    gb_free(&b);
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "flags", GGUF_BOOL, 3);
    gb_u8(&b, 1); gb_u8(&b, 0); gb_u8(&b, 9);
    expect_fail(&b, "kv 0 'flags': bool 2 is 9");
    gb_free(&b);
}

static void test_bad_names(void **state) {
    (void)state;
    char long_name[GGUF_MAX_NAME + 2];
    memset(long_name, 'x', GGUF_MAX_NAME + 1);
    long_name[GGUF_MAX_NAME + 1] = '\0';
    expect_names(&(base_opts){.key = {[2] = long_name}},
                 "kv 2: key length 257 exceeds the cap of 256 bytes");
    expect_names(&(base_opts){.name = {[0] = long_name}},
                 "tensor info 0: tensor name length 257 exceeds the cap of 256");
    expect_names(&(base_opts){.key = {[1] = ""}}, "kv 1: key is empty");
    expect_names(&(base_opts){.name = {[1] = ""}},
                 "tensor info 1: tensor name is empty");
    gb_buf b = {0};
    gb_header(&b, 3, 0, 1);
    gb_str_n(&b, 3, "a\0b", 3);
    gb_u32(&b, GGUF_U8);
    gb_u8(&b, 1);
    expect_fail(&b, "kv 0: key contains a NUL byte");
    gb_free(&b);
}

static void test_duplicates(void **state) {
    (void)state;
    expect_names(&(base_opts){.key = {[3] = "general.architecture"}},
                 "duplicate key 'general.architecture' (kv 0 and kv 3)");
    expect_names(&(base_opts){.name = {[1] = "tok.a"}},
                 "duplicate tensor name 'tok.a' (tensor info 0 and 1)");
}

static void test_bad_dims(void **state) {
    (void)state;
    PATCH32(ti_ndims[0], 0, "tensor 'tok.a': n_dims is 0, expected 1..4");
    PATCH32(ti_ndims[1], 5, "tensor 'tok.b': n_dims is 5, expected 1..4");
    PATCH64(ti_ne[0], 0, "tensor 'tok.a': dimension 0 is 0, expected >= 1");
    PATCH64(ti_ne[1], UINT64_MAX, "tensor 'tok.b': dimension 0 is -1");
    PATCH64(ti_ne[1], (uint64_t)1 << 63, "dimension 0 is -9223372036854775808");
}

/* ne1 is 8 bytes after ne0: 8 * 2^61 = 2^64 wraps uint64; 8 * 2^60 = 2^63
 * fits uint64 but not int64. Both are refused. */
static void test_dim_product_overflow(void **state) {
    (void)state;
    for (int shift = 60; shift <= 62; shift++) {
        gb_buf b = {0};
        base_offs o;
        base_build(&b, &o, NULL);
        gb_patch_u64(&b, o.ti_ne[0] + 8, (uint64_t)1 << shift);
        expect_fail(&b, "tensor 'tok.a': dimension product overflows");
        gb_free(&b);
    }
}

static void test_bad_tensor_type(void **state) {
    (void)state;
    PATCH32(ti_type[0], 4, "tensor 'tok.a': type 4 is not a supported ggml type");
    PATCH32(ti_type[1], 99, "tensor 'tok.b': type 99 is not a supported");
    PATCH32(ti_type[1], 0x80000000u, "type 2147483648 is not a supported");
    /* q8_0 blocks are 32 wide: a row of 16 is not whole blocks */
    PATCH64(ti_ne[1], 16, "tensor 'tok.b': row length ne[0] = 16 is not a "
            "multiple of the q8_0 block size 32");
    /* f32 [8, 2] read as q4_K: 8 is not a multiple of 256 */
    PATCH32(ti_type[0], KRN_Q4_K, "q4_K block size 256");
}

static void test_bad_offsets(void **state) {
    (void)state;
    PATCH64(ti_offset[1], 4096, "gguf_open_buffer: tensor 'tok.b': data "
            "[offset 4096, +34 bytes] runs past the end of the file");
    PATCH64(ti_offset[1], 65, "tensor 'tok.b': offset 65 is not a multiple of "
            "the alignment 32");
    PATCH64(ti_offset[1], UINT64_MAX - 31, "overflows a 64-bit file position");
    PATCH64(ti_offset[0], UINT64_MAX - 31 - 64, "tensor 'tok.a': data [offset");
    PATCH64(ti_offset[1], 32, "tensors 'tok.a' [offset 0, +64 bytes] and "
            "'tok.b' [offset 32] overlap");
    PATCH64(ti_offset[1], 0, "overlap");
}

static void test_empty_buffer(void **state) {
    (void)state;
    sb_err err = {0};
    assert_null(gguf_open_buffer(NULL, 0, &err));
    assert_non_null(strstr(err.msg, "gguf_open_buffer: empty buffer"));
}

/* ---- files on disk -------------------------------------------------------------- */

static char dir[64];

static void path_in_dir(char *out, size_t n, const char *name) {
    snprintf(out, n, "%s/%s", dir, name);
}

static int setup_dir(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-gguf-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static const char *const dir_files[] = {
    "empty.gguf", "sub", "rt.gguf", "rt.gguf.tmp", "fail.gguf",
    "fail.gguf.tmp", "base.gguf", "dup.gguf", "a64.gguf",
};

static int remove_dir(void **state) {
    (void)state;
    char p[128];
    for (size_t i = 0; i < sizeof dir_files / sizeof dir_files[0]; i++) {
        path_in_dir(p, sizeof p, dir_files[i]);
        if (unlink(p) != 0 && errno == EISDIR) rmdir(p);
        rmdir(p);
    }
    return rmdir(dir);
}

static void write_file(const char *path, const void *p, size_t n) {
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

static void expect_open_fail(const char *path, const char *want) {
    sb_err err = {0};
    gguf_file *f = gguf_open(path, &err);
    if (f) {
        gguf_close(f);
        fail_msg("%s opened; expected '%s'", path, want);
    }
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not contain '%s'", err.msg, want);
    /* the message names the file */
    assert_non_null(strstr(err.msg, path));
}

static void test_open_files(void **state) {
    (void)state;
    char p[128];
    path_in_dir(p, sizeof p, "empty.gguf");
    write_file(p, "", 0);
    expect_open_fail(p, "empty file (0 bytes)");
    unlink(p);
    path_in_dir(p, sizeof p, "sub");
    assert_int_equal(mkdir(p, 0700), 0);
    expect_open_fail(p, "is a directory");
    rmdir(p);
    path_in_dir(p, sizeof p, "missing.gguf");
    expect_open_fail(p, "cannot open: No such file or directory");

    gb_buf b = {0};
    base_offs o;
    base_build(&b, &o, NULL);
    path_in_dir(p, sizeof p, "base.gguf");
    write_file(p, b.data, b.len);
    sb_err err = {0};
    gguf_file *f = gguf_open(p, &err);
    if (!f) fail_msg("%s", err.msg);
    assert_int_equal(gguf_file_size(f), b.len);
    assert_memory_equal(gguf_file_bytes(f), b.data, b.len);
    assert_memory_equal(gguf_find_tensor(f, "tok.b")->data,
                        b.data + o.data_start + 64, 34);
    gguf_close(f);
    gb_patch_u64(&b, o.ti_offset[1], 4096);
    write_file(p, b.data, b.len);
    expect_open_fail(p, "tensor 'tok.b': data [offset 4096, +34 bytes] runs past");
    unlink(p);
    gb_free(&b);
}

/* ---- the writer ---------------------------------------------------------------- */

/* Tensor i's byte k: a pure function, so the reader's bytes can be checked
 * without keeping the written ones. */
static unsigned char fill_byte(int64_t i, uint64_t k) {
    return (unsigned char)sb_hash3(7, (uint64_t)i, k);
}

typedef struct fill_ctx {
    int64_t fail_at;   /* tensor index whose fill fails; -1 for none */
    int64_t calls;
    uint64_t last_nbytes;
} fill_ctx;

static int fill(void *ctx, int64_t i, void *buf, uint64_t nbytes, sb_err *err) {
    fill_ctx *c = ctx;
    c->calls++;
    c->last_nbytes = nbytes;
    if (i == c->fail_at)
        return sb_err_set(err, __func__, "refusing tensor %lld", (long long)i);
    unsigned char *p = buf;
    for (uint64_t k = 0; k < nbytes; k++) p[k] = fill_byte(i, k);
    return 0;
}

typedef struct rt_tensor {
    const char *name;
    krn_type type;
    uint32_t n_dims;
    int64_t ne[4];
    uint64_t nbytes;
} rt_tensor;

static const rt_tensor rt_tensors[] = {
    {"token_embd.weight", KRN_Q4_K, 2, {256, 3, 1, 1}, 3 * 144},
    {"blk.0.attn_q.bias", KRN_F32, 1, {7, 1, 1, 1}, 28},
    {"blk.0.ffn_down.weight", KRN_Q6_K, 2, {512, 2, 1, 1}, 2 * 2 * 210},
    {"h16", KRN_F16, 3, {3, 5, 2, 1}, 60},
    {"b16", KRN_BF16, 4, {2, 1, 3, 2}, 24},
    {"q8", KRN_Q8_0, 2, {64, 3, 1, 1}, 3 * 2 * 34},
    {"q5k", KRN_Q5_K, 1, {256, 1, 1, 1}, 176},
};
enum { RT_N = sizeof rt_tensors / sizeof rt_tensors[0] };

static const char *const rt_strs[] = {"<|im_start|>", "", "\xc4\xa0the", "x"};
static const int32_t rt_i32[] = {INT32_MIN, -1, 0, 1, INT32_MAX};
static const float rt_f32[] = {0.0f, -0.0f, 1e-30f, 3.5f, -2.25e20f};

static gguf_writer *rt_writer(void) {
    gguf_writer *w = gguf_writer_create();
    assert_non_null(w);
    gguf_writer_set_str(w, "general.architecture", "qwen2");
    gguf_writer_set_u32(w, "qwen2.block_count", 28);
    gguf_writer_set_f32(w, "qwen2.rope.freq_base", 1e6f);
    gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens", rt_strs, 4);
    gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", rt_i32, 5);
    gguf_writer_set_arr_f32(w, "scores", rt_f32, 5);
    gguf_writer_set_arr_str(w, "empty", NULL, 0);
    for (int i = 0; i < RT_N; i++)
        gguf_writer_add_tensor(w, rt_tensors[i].name, rt_tensors[i].type,
                               rt_tensors[i].n_dims, rt_tensors[i].ne);
    return w;
}

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void rt_check_kvs(const gguf_file *f) {
    sb_err err = {0};
    gguf_str s;
    uint32_t u;
    float v;
    gguf_vtype et;
    uint64_t n;
    assert_int_equal(gguf_kv_count(f), 7);
    assert_int_equal(gguf_get_str(f, "general.architecture", &s, &err), 0);
    assert_int_equal(s.len, 5);
    assert_memory_equal(s.ptr, "qwen2", 5);
    assert_int_equal(gguf_get_u32(f, "qwen2.block_count", &u, &err), 0);
    assert_int_equal(u, 28);
    assert_int_equal(gguf_get_f32(f, "qwen2.rope.freq_base", &v, &err), 0);
    assert_true(v == 1e6f);
    int64_t k = gguf_find_key(f, "tokenizer.ggml.tokens");
    assert_int_equal(k, 3);
    assert_int_equal(gguf_get_arr(f, "tokenizer.ggml.tokens", &et, &n, &err), 0);
    assert_int_equal(et, GGUF_STRING);
    assert_int_equal(n, 4);
    for (uint64_t i = 0; i < 4; i++) {
        gguf_str e = gguf_arr_str(f, k, i);
        assert_int_equal(e.len, strlen(rt_strs[i]));
        assert_memory_equal(e.ptr, rt_strs[i], e.len);
    }
    assert_int_equal(gguf_get_arr(f, "tokenizer.ggml.token_type", &et, &n, &err), 0);
    assert_int_equal(et, GGUF_I32);
    assert_int_equal(n, 5);
    const unsigned char *raw = gguf_arr_data(f, 4);
    for (int i = 0; i < 5; i++) assert_int_equal((int32_t)le32(raw + 4 * i), rt_i32[i]);
    assert_int_equal(gguf_get_arr(f, "scores", &et, &n, &err), 0);
    assert_int_equal(et, GGUF_F32);
    raw = gguf_arr_data(f, 5);
    for (int i = 0; i < 5; i++) {
        uint32_t want;
        memcpy(&want, &rt_f32[i], 4);
        assert_int_equal(le32(raw + 4 * i), want); /* bit for bit */
    }
    assert_int_equal(gguf_get_arr(f, "empty", &et, &n, &err), 0);
    assert_int_equal(et, GGUF_STRING);
    assert_int_equal(n, 0);
    assert_string_equal(err.msg, "");
}

static void rt_check_tensors(const gguf_file *f, uint64_t align) {
    assert_int_equal(gguf_tensor_count(f), RT_N);
    const unsigned char *base = gguf_file_bytes(f);
    uint64_t end = 0;
    for (int i = 0; i < RT_N; i++) {
        const rt_tensor *want = &rt_tensors[i];
        const gguf_tensor *t = gguf_tensor_at(f, i);
        assert_ptr_equal(gguf_find_tensor(f, want->name), t);
        assert_string_equal(t->name, want->name);
        assert_int_equal(t->type, want->type);
        assert_int_equal(t->n_dims, want->n_dims);
        for (int d = 0; d < 4; d++) assert_int_equal(t->ne[d], want->ne[d]);
        assert_int_equal(t->nbytes, want->nbytes);
        assert_int_equal(t->offset % align, 0);
        assert_int_equal((uint64_t)((const unsigned char *)t->data - base) % align, 0);
        assert_true(t->offset >= end); /* declaration order, no overlap */
        end = t->offset + t->nbytes;
        const unsigned char *p = t->data;
        for (uint64_t k = 0; k < t->nbytes; k++)
            if (p[k] != fill_byte(i, k))
                fail_msg("tensor '%s' byte %llu differs", t->name,
                         (unsigned long long)k);
    }
    assert_int_equal(gguf_file_size(f) % align, 0);
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static void test_writer_round_trip(void **state) {
    (void)state;
    char p[128], tmp[140];
    path_in_dir(p, sizeof p, "rt.gguf");
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    gguf_writer *w = rt_writer();
    fill_ctx c = {.fail_at = -1};
    sb_err err = {0};
    if (gguf_writer_write(w, p, fill, &c, &err)) fail_msg("%s", err.msg);
    gguf_writer_free(w);
    assert_int_equal(c.calls, RT_N);
    assert_false(exists(tmp));
    gguf_file *f = gguf_open(p, &err);
    if (!f) fail_msg("%s", err.msg);
    assert_int_equal(gguf_version(f), 3);
    rt_check_kvs(f);
    rt_check_tensors(f, 32);
    gguf_close(f);
    unlink(p);
}

/* A caller's general.alignment is honoured (and the reader checks it). */
static void test_writer_alignment_key(void **state) {
    (void)state;
    char p[128];
    path_in_dir(p, sizeof p, "a64.gguf");
    gguf_writer *w = gguf_writer_create();
    gguf_writer_set_u32(w, "general.alignment", 64);
    for (int i = 0; i < RT_N; i++)
        gguf_writer_add_tensor(w, rt_tensors[i].name, rt_tensors[i].type,
                               rt_tensors[i].n_dims, rt_tensors[i].ne);
    fill_ctx c = {.fail_at = -1};
    sb_err err = {0};
    if (gguf_writer_write(w, p, fill, &c, &err)) fail_msg("%s", err.msg);
    gguf_writer_free(w);
    gguf_file *f = gguf_open(p, &err);
    if (!f) fail_msg("%s", err.msg);
    rt_check_tensors(f, 64);
    gguf_close(f);
    unlink(p);
}

/* A failing callback: no PATH.tmp is left, and an existing PATH keeps its
 * bytes. */
static void test_writer_fill_failure(void **state) {
    (void)state;
    char p[128], tmp[140];
    path_in_dir(p, sizeof p, "fail.gguf");
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    for (int round = 0; round < 2; round++) {
        if (round == 1) write_file(p, "old bytes", 9);
        gguf_writer *w = rt_writer();
        fill_ctx c = {.fail_at = 2};
        sb_err err = {0};
        assert_int_equal(gguf_writer_write(w, p, fill, &c, &err), -1);
        gguf_writer_free(w);
        assert_int_equal(c.calls, 3);
        assert_non_null(strstr(err.msg, "gguf_writer_write: "));
        assert_non_null(strstr(err.msg, p));
        assert_non_null(strstr(err.msg, "tensor 'blk.0.ffn_down.weight': "
                               "fill: refusing tensor 2"));
        assert_false(exists(tmp));
        if (round == 0) {
            assert_false(exists(p));
            continue;
        }
        FILE *fp = fopen(p, "rb");
        assert_non_null(fp);
        char got[16] = {0};
        assert_int_equal(fread(got, 1, sizeof got, fp), 9);
        fclose(fp);
        assert_string_equal(got, "old bytes");
        unlink(p);
    }
}

static void expect_write_fail(gguf_writer *w, const char *want) {
    char p[128];
    path_in_dir(p, sizeof p, "dup.gguf");
    fill_ctx c = {.fail_at = -1};
    sb_err err = {0};
    assert_int_equal(gguf_writer_write(w, p, fill, &c, &err), -1);
    gguf_writer_free(w);
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not contain '%s'", err.msg, want);
    assert_int_equal(c.calls, 0);
    assert_false(exists(p));
}

static void test_writer_declaration_errors(void **state) {
    (void)state;
    gguf_writer *w = rt_writer();
    gguf_writer_set_u32(w, "qwen2.block_count", 3);
    expect_write_fail(w, "gguf_writer_set_u32: duplicate key 'qwen2.block_count'");
    w = rt_writer();
    gguf_writer_add_tensor(w, "q8", KRN_F32, 1, (const int64_t[]){4});
    expect_write_fail(w, "duplicate tensor name 'q8'");
    w = rt_writer();
    gguf_writer_add_tensor(w, "bad", KRN_Q4_K, 2, (const int64_t[]){100, 2});
    expect_write_fail(w, "tensor 'bad': type q4_K (12) cannot hold rows of 100");
    w = rt_writer();
    gguf_writer_add_tensor(w, "bad", KRN_F32, 5, (const int64_t[]){1, 1, 1, 1, 1});
    expect_write_fail(w, "tensor 'bad': n_dims 5");
    w = rt_writer();
    gguf_writer_add_tensor(w, "bad", KRN_F32, 2, (const int64_t[]){4, 0});
    expect_write_fail(w, "tensor 'bad': dimension 1 is 0");
    w = rt_writer();
    gguf_writer_set_str(w, "", "v");
    expect_write_fail(w, "key is empty");
    w = gguf_writer_create();
    gguf_writer_set_u32(w, "general.alignment", 24);
    expect_write_fail(w, "general.alignment must be a u32 power of two");
}

static void test_writer_bad_path(void **state) {
    (void)state;
    char p[160];
    snprintf(p, sizeof p, "%s/no/such/dir/x.gguf", dir);
    gguf_writer *w = rt_writer();
    fill_ctx c = {.fail_at = -1};
    sb_err err = {0};
    assert_int_equal(gguf_writer_write(w, p, fill, &c, &err), -1);
    gguf_writer_free(w);
    assert_non_null(strstr(err.msg, "cannot create"));
    assert_non_null(strstr(err.msg, p));
    assert_non_null(strstr(err.msg, "No such file or directory"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_baseline_reads_back),
        cmocka_unit_test(test_version_2_accepted),
        cmocka_unit_test(test_longest_names_accepted),
        cmocka_unit_test(test_shuffled_tensors_found_by_name),
        cmocka_unit_test(test_getters),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_bad_version),
        cmocka_unit_test(test_absurd_counts),
        cmocka_unit_test(test_bad_string_lengths),
        cmocka_unit_test(test_bad_array_counts),
        cmocka_unit_test(test_unknown_value_types),
        cmocka_unit_test(test_bad_alignment),
        cmocka_unit_test(test_bad_bool),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_bad_dims),
        cmocka_unit_test(test_dim_product_overflow),
        cmocka_unit_test(test_bad_tensor_type),
        cmocka_unit_test(test_bad_offsets),
        cmocka_unit_test(test_empty_buffer),
        cmocka_unit_test(test_open_files),
        cmocka_unit_test(test_writer_round_trip),
        cmocka_unit_test(test_writer_alignment_key),
        cmocka_unit_test(test_writer_fill_failure),
        cmocka_unit_test(test_writer_declaration_errors),
        cmocka_unit_test(test_writer_bad_path),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
