/*
 * sb quantize (mkmodel/quantize_model.c): an F32 model quantized must hold
 * exactly the tensors sb mkmodel writes for the same floats (mkmodel draws
 * floats, then quantizes them with the same kernels), in the same types, so
 * the placement rules and the row loop are both checked byte for byte. Plus
 * array metadata of int32 and uint32 elements copied, and the refusals:
 * output = input, a missing input, and no output left behind.
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

#include "../../engine/engine.h"
#include "../../gguf/gguf.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/tiny_model.h"

static char tmpdir[64];

static void path_in_tmp(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", tmpdir, name);
}

/* Every tensor of a equals b's: name, type, shape and bytes. */
static void assert_same_tensors(const char *pa, const char *pb) {
    sb_err err = {0};
    gguf_file *a = gguf_open(pa, &err), *b = gguf_open(pb, &err);
    if (!a || !b) fail_msg("%s", err.msg);
    assert_int_equal(gguf_tensor_count(a), gguf_tensor_count(b));
    for (int64_t i = 0; i < gguf_tensor_count(a); i++) {
        const gguf_tensor *ta = gguf_tensor_at(a, i);
        const gguf_tensor *tb = gguf_find_tensor(b, ta->name);
        assert_non_null(tb);
        assert_int_equal(ta->type, tb->type);
        assert_memory_equal(ta->ne, tb->ne, sizeof ta->ne);
        assert_int_equal(ta->nbytes, tb->nbytes);
        if (memcmp(ta->data, tb->data, ta->nbytes))
            fail_msg("tensor '%s' differs", ta->name);
    }
    gguf_close(a);
    gguf_close(b);
}

static void check_recipe(mk_recipe r, const char *name) {
    char made[256], quant[256];
    sb_err err = {0};
    path_in_tmp(made, sizeof made, name);
    path_in_tmp(quant, sizeof quant, "quantized.gguf");
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = r, .seed = 1,
                          .n_threads = 2};
    assert_int_equal(mk_model_write(&o, made, &err), 0);
    assert_int_equal(mk_model_quantize(test_tiny_model_path(MK_RECIPE_F32),
                                        quant, r, &err), 0);
    assert_same_tensors(made, quant);
    /* the copied metadata makes a loadable model that names its new type */
    eng_model *m = eng_model_load(quant, &err);
    assert_non_null(m);
    assert_int_equal(eng_n_vocab(m), 512);
    eng_model_free(m);
    unlink(made);
    unlink(quant);
}

static void test_q8_0_matches_mkmodel(void **state) {
    (void)state;
    check_recipe(MK_RECIPE_Q8_0, "mk_q8_0.gguf");
}

static void test_q4_k_m_matches_mkmodel(void **state) {
    (void)state;
    check_recipe(MK_RECIPE_Q4_K_M, "mk_q4_k_m.gguf");
}

/* Array metadata of every element type the engine reads survives a
 * quantize: sonicboom.edit_prompt_versions as int32 (as mkmodel writes it)
 * and as uint32 (as docs/gguf.md states it; sb quantize refused it). */
static void test_array_metadata_copied(void **state) {
    (void)state;
    static const char key[] = "sonicboom.edit_prompt_versions";
    const int32_t both[] = {1, 2};
    for (int as_u32 = 0; as_u32 < 2; as_u32++) {
        char in[256], out[256];
        path_in_tmp(in, sizeof in, "versions_f32.gguf");
        path_in_tmp(out, sizeof out, "versions_q8.gguf");
        mk_job job;
        test_job_init(&job);
        job.prompt_versions = both;
        job.n_prompt_versions = 2;
        sb_err err = {0};
        if (mk_job_write(&job, in, &err)) fail_msg("%s", err.msg);
        mk_job_free(&job);
        if (as_u32) { /* the array's element type, right after the key and GGUF_ARRAY */
            FILE *f = fopen(in, "r+b");
            assert_non_null(f);
            char buf[1 << 16];
            size_t n = fread(buf, 1, sizeof buf, f);
            char *at = NULL;
            for (size_t k = 0; !at && k + sizeof key - 1 <= n; k++)
                if (!memcmp(buf + k, key, sizeof key - 1)) at = buf + k;
            assert_non_null(at);
            const uint32_t arr = GGUF_ARRAY, i32 = GGUF_I32, u32 = GGUF_U32;
            char *elem = at + sizeof key - 1 + 4;
            assert_memory_equal(at + sizeof key - 1, &arr, 4);
            assert_memory_equal(elem, &i32, 4);
            assert_int_equal(fseek(f, (long)(elem - buf), SEEK_SET), 0);
            assert_int_equal(fwrite(&u32, 4, 1, f), 1);
            fclose(f);
        }
        if (mk_model_quantize(in, out, MK_RECIPE_Q8_0, &err)) fail_msg("%s", err.msg);
        eng_model *m = eng_model_load(out, &err);
        if (!m) fail_msg("%s", err.msg);
        assert_int_equal(eng_model_prompt_versions(m), (1u << 1) | (1u << 2));
        eng_model_free(m);
        unlink(in);
        unlink(out);
    }
}

static void test_refusals(void **state) {
    (void)state;
    char out[256], missing[256];
    path_in_tmp(out, sizeof out, "never.gguf");
    path_in_tmp(missing, sizeof missing, "missing.gguf");
    const char *f32 = test_tiny_model_path(MK_RECIPE_F32);
    sb_err err = {0};
    assert_int_equal(mk_model_quantize(f32, f32, MK_RECIPE_Q8_0, &err), -1);
    assert_non_null(strstr(err.msg, "is the input"));
    err = (sb_err){0};
    assert_int_equal(mk_model_quantize(missing, out, MK_RECIPE_Q8_0, &err), -1);
    assert_non_null(strstr(err.msg, "missing.gguf"));
    err = (sb_err){0};
    assert_int_equal(mk_model_quantize(f32, out, (mk_recipe)7, &err), -1);
    assert_non_null(strstr(err.msg, "out of range"));
    assert_int_equal(access(out, F_OK), -1);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sb-quant-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q8_0_matches_mkmodel),
        cmocka_unit_test(test_q4_k_m_matches_mkmodel),
        cmocka_unit_test(test_array_metadata_copied),
        cmocka_unit_test(test_refusals),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(tmpdir);
    return rc;
}
