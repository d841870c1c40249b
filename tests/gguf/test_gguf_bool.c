/*
 * Bool metadata: gguf_writer_set_bool (mkmodel/gguf_write.c) writes the
 * one-byte value the GGUF specification gives a bool, gguf_get_bool reads
 * it back, and the keys around it survive; sb quantize
 * (mkmodel/quantize_model.c) copies a file's bool keys, as llama.cpp's
 * files carry some (tokenizer.ggml.add_bos_token), instead of refusing them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../gguf/gguf.h"
#include "../../mkmodel/gguf_write.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/tiny_model.h"

static char tmpdir[64];

static void path_in_tmp(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", tmpdir, name);
}

static int zero_fill(void *ctx, int64_t i, void *buf, uint64_t nbytes,
                     sb_err *err) {
    (void)ctx;
    (void)i;
    (void)err;
    memset(buf, 0, (size_t)nbytes);
    return 0;
}

/* The value bytes of `key` in the file: what follows its name and its
 * type (a u32), checked to be type 7 (bool). */
static const unsigned char *bool_bytes(const gguf_file *f, const char *key) {
    const unsigned char *p = gguf_file_bytes(f);
    size_t size = (size_t)gguf_file_size(f), n = strlen(key);
    for (size_t i = 0; i + n + 5 <= size; i++) {
        if (memcmp(p + i, key, n)) continue;
        const unsigned char *t = p + i + n;
        assert_true(t[0] == 7 && t[1] == 0 && t[2] == 0 && t[3] == 0);
        return t + 4;
    }
    fail_msg("key '%s' is not in the file", key);
    return NULL;
}

static void test_bool_round_trip(void **state) {
    (void)state;
    char path[128];
    path_in_tmp(path, sizeof path, "bools.gguf");
    gguf_writer *w = gguf_writer_create();
    assert_non_null(w);
    gguf_writer_set_bool(w, "flag.on", true);
    gguf_writer_set_u32(w, "after.on", 7);
    gguf_writer_set_bool(w, "flag.off", false);
    gguf_writer_set_str(w, "after.off", "tail");
    const int64_t ne[1] = {32};
    gguf_writer_add_tensor(w, "t", KRN_F32, 1, ne);
    sb_err err = {0};
    if (gguf_writer_write(w, path, zero_fill, NULL, &err)) fail_msg("%s", err.msg);
    gguf_writer_free(w);

    gguf_file *f = gguf_open(path, &err);
    if (!f) fail_msg("%s", err.msg);
    bool on = false, off = true;
    assert_int_equal(gguf_get_bool(f, "flag.on", &on, &err), 0);
    assert_int_equal(gguf_get_bool(f, "flag.off", &off, &err), 0);
    assert_true(on);
    assert_false(off);
    assert_int_equal(gguf_kv_type(f, gguf_find_key(f, "flag.on")), GGUF_BOOL);
    /* one byte each: the keys after them are read from the right place */
    assert_int_equal(bool_bytes(f, "flag.on")[0], 1);
    assert_int_equal(bool_bytes(f, "flag.off")[0], 0);
    assert_memory_equal(bool_bytes(f, "flag.on") + 1, "\x08\0\0\0\0\0\0\0after.on", 16);
    uint32_t u = 0;
    gguf_str s;
    assert_int_equal(gguf_get_u32(f, "after.on", &u, &err), 0);
    assert_int_equal(u, 7);
    assert_int_equal(gguf_get_str(f, "after.off", &s, &err), 0);
    assert_int_equal(s.len, 4);
    assert_memory_equal(s.ptr, "tail", 4);
    assert_string_equal(err.msg, "");

    /* the wrong getter, or a missing key: an error naming the key */
    sb_err e1 = {0}, e2 = {0}, e3 = {0};
    assert_int_equal(gguf_get_u32(f, "flag.on", &u, &e1), -1);
    assert_non_null(strstr(e1.msg, "flag.on"));
    assert_int_equal(gguf_get_bool(f, "after.on", &on, &e2), -1);
    assert_non_null(strstr(e2.msg, "expected bool"));
    assert_int_equal(gguf_get_bool(f, "flag.none", &on, &e3), -1);
    assert_non_null(strstr(e3.msg, "flag.none"));
    gguf_close(f);
    unlink(path);
}

static void test_duplicate_bool_refused(void **state) {
    (void)state;
    char path[128];
    path_in_tmp(path, sizeof path, "dup.gguf");
    gguf_writer *w = gguf_writer_create();
    gguf_writer_set_bool(w, "flag", true);
    gguf_writer_set_bool(w, "flag", false);
    sb_err err = {0};
    assert_int_equal(gguf_writer_write(w, path, zero_fill, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "duplicate key 'flag'"));
    gguf_writer_free(w);
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
}

/* A tiny model carrying a bool key, quantized: the key arrives with its
 * value and its place among the copied keys, and the result loads. */
static void test_quantize_copies_bools(void **state) {
    (void)state;
    const char *key = "tokenizer.ggml.add_bos_token";
    char in[128], out[128];
    path_in_tmp(in, sizeof in, "with-bool.gguf");
    path_in_tmp(out, sizeof out, "with-bool-q8.gguf");
    mk_job job;
    test_job_init(&job);
    job.bool_key = key;
    sb_err err = {0};
    if (mk_job_write(&job, in, &err)) fail_msg("%s", err.msg);
    mk_job_free(&job);
    if (mk_model_quantize(in, out, MK_RECIPE_Q8_0, &err)) fail_msg("%s", err.msg);

    gguf_file *a = gguf_open(in, &err), *b = gguf_open(out, &err);
    if (!a || !b) fail_msg("%s", err.msg);
    bool v = false;
    assert_int_equal(gguf_get_bool(b, key, &v, &err), 0);
    assert_true(v);
    /* copied in order: the bool still follows the key it followed */
    int64_t ka = gguf_find_key(a, key), kb = gguf_find_key(b, key);
    gguf_str before_a = gguf_kv_key(a, ka - 1), before_b = gguf_kv_key(b, kb - 1);
    assert_int_equal(before_a.len, before_b.len);
    assert_memory_equal(before_a.ptr, before_b.ptr, before_a.len);
    gguf_close(a);
    gguf_close(b);
    eng_model *m = eng_model_load(out, &err);
    if (!m) fail_msg("%s", err.msg);
    eng_model_free(m);
    unlink(in);
    unlink(out);
}

static int setup(void **state) {
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sb-gguf-bool-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return rmdir(tmpdir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bool_round_trip),
        cmocka_unit_test(test_duplicate_bool_refused),
        cmocka_unit_test(test_quantize_copies_bools),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
