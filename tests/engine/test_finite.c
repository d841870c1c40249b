/*
 * Non-finite values (docs/limits.md): a weight scale or a float weight
 * that is NaN or Inf is refused at load, naming the tensor and the block
 * or element; logits that come out non-finite from finite weights stop
 * generation with an error naming the step, plain and speculative alike,
 * and sb generate exits 1. Before: all-NaN logits gave token 0 forever, a
 * normal hash line and exit 0. Each bad model is the tiny one with bytes
 * of one tensor overwritten in a copy of the file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../drafter/drafter.h"
#include "../../engine/engine.h"
#include "../../gguf/gguf.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const uint16_t HALF_NAN = 0x7e00, HALF_INF = 0x7c00;

/* A copy of recipe r's tiny model with n bytes at byte `at` of tensor
 * `name` replaced by bytes (repeated every `stride` bytes `times` times);
 * its path (scratch slot 0). */
static const char *patched(mk_recipe r, const char *name, uint64_t at,
                           const void *bytes, size_t n, uint64_t stride,
                           int times) {
    const char *src = test_tiny_model_path(r);
    sb_err err = {0};
    gguf_file *f = gguf_open(src, &err);
    if (!f) fail_msg("gguf_open: %s", err.msg);
    const gguf_tensor *t = gguf_find_tensor(f, name);
    if (!t) fail_msg("no tensor %s", name);
    uint64_t off = (uint64_t)((const char *)t->data -
                              (const char *)gguf_file_bytes(f)) + at;
    size_t len = (size_t)gguf_file_size(f);
    char *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, gguf_file_bytes(f), len);
    for (int i = 0; i < times; i++) {
        assert_true(at + (uint64_t)i * stride + n <= t->nbytes);
        memcpy(copy + off + (uint64_t)i * stride, bytes, n);
    }
    gguf_close(f);
    const char *dst = test_sb_path(0, "bad.gguf");
    test_write_file(dst, copy, len);
    free(copy);
    return dst;
}

static void expect_refused(const char *path, const char *want1,
                           const char *want2) {
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (m) {
        eng_model_free(m);
        fail_msg("loaded a model that should be refused (%s)", want1);
    }
    if (!strstr(err.msg, want1) || !strstr(err.msg, want2))
        fail_msg("error '%s' lacks '%s' or '%s'", err.msg, want1, want2);
}

/* Float tensors: an Inf in output_norm (the case of all-NaN logits), a
 * NaN in a layer's norm, which was absorbed silently. */
static void test_float_weights(void **state) {
    (void)state;
    const float inf = (float)HUGE_VAL, nan = NAN;
    expect_refused(patched(MK_RECIPE_Q8_0, "output_norm.weight", 4 * 7, &inf,
                           4, 0, 1),
                   "tensor 'output_norm.weight' (f32) holds Inf at element 7",
                   "the file is damaged");
    expect_refused(patched(MK_RECIPE_F32, "blk.1.ffn_norm.weight", 4 * 100, &nan,
                           4, 0, 1),
                   "tensor 'blk.1.ffn_norm.weight' (f32) holds NaN at element 100",
                   "row 0, column 100");
    expect_refused(patched(MK_RECIPE_F32, "blk.0.attn_q.weight", 4 * 300, &nan,
                           4, 0, 1),
                   "'blk.0.attn_q.weight' (f32) holds NaN at element 300",
                   "row 1, column 44");
}

/* Quantized tensors: the scales. Q8_0's d (the case of NaN scales in a
 * token_embd), Q4_K's dmin, Q6_K's d at the end of its block. */
static void test_quantized_scales(void **state) {
    (void)state;
    /* every block of token_embd: q8_0 blocks are 34 bytes */
    expect_refused(patched(MK_RECIPE_Q8_0, "token_embd.weight", 0, &HALF_NAN, 2,
                           34, 8),
                   "tensor 'token_embd.weight' (q8_0) has a non-finite scale "
                   "d (NaN) in block 0 (weights 0..31)", "damaged");
    /* q4_k_m: attn_q is Q4_K (144-byte blocks, dmin at byte 2) */
    expect_refused(patched(MK_RECIPE_Q4_K_M, "blk.0.attn_q.weight", 144 * 3 + 2,
                           &HALF_INF, 2, 0, 1),
                   "'blk.0.attn_q.weight' (q4_K) has a non-finite min scale "
                   "dmin (Inf) in block 3 (weights 768..1023)", "damaged");
    /* q4_k_m ties the LM head to token_embd, Q6_K (210 bytes, d at 208) */
    expect_refused(patched(MK_RECIPE_Q4_K_M, "token_embd.weight", 210 * 5 + 208,
                           &HALF_NAN, 2, 0, 1),
                   "'token_embd.weight' (q6_K) has a non-finite scale d (NaN) "
                   "in block 5", "damaged");
}

/* Finite weights whose products overflow: output_norm scaled to 3e38
 * makes the LM head's sums Inf and NaN. Generation stops at step 1 (the
 * prompt's last row), plain and speculative. */
static const char *overflowing_model(void) {
    float big[256];
    for (int i = 0; i < 256; i++) big[i] = 3e38f;
    return patched(MK_RECIPE_F32, "output_norm.weight", 0, big, sizeof big, 0, 1);
}

/* Before: a norm weight of 3e38 in the first layer makes activations
 * Inf and then NaN; the quantizer made the NaNs codes of 0, and generation
 * exited 0 with other tokens. Now a group holding a NaN has a NaN scale,
 * its products are NaN, and the step's check stops generation. */
static void test_first_layer_overflow(void **state) {
    (void)state;
    float big[256];
    for (int i = 0; i < 256; i++) big[i] = 3e38f;
    const char *path = patched(MK_RECIPE_Q8_0, "blk.0.attn_norm.weight", 0, big,
                               sizeof big, 0, 1);
    assert_int_equal(test_sb("generate -m '%s' -p 'abc' -n 8", path), 1);
    assert_true(test_sb_output_has("err", "logits are not finite"));
}

static void test_logits_not_finite(void **state) {
    (void)state;
    const char *path = overflowing_model();
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) fail_msg("load: %s", err.msg);
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    const int32_t prompt[] = {40, 41, 42, 43};
    drf_copy *c = drf_copy_create(prompt, 4, NULL, &err);
    assert_non_null(c);
    eng_drafter d = drf_copy_drafter(c);
    for (int spec = 0; spec <= 1; spec++) {
        eng_gen_params p = eng_gen_defaults();
        p.n_max = 8;
        p.drafter = spec ? &d : NULL;
        eng_gen_result r;
        err = (sb_err){0};
        assert_int_equal(eng_generate(s, prompt, 4, &p, NULL, NULL, &r, &err), -1);
        if (!strstr(err.msg, "step 1 (the token at position 4)") ||
            !strstr(err.msg, "logits are not finite"))
            fail_msg("unexpected error: %s", err.msg);
        assert_null(r.tokens);
    }
    drf_copy_destroy(c);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Through sb: one line, exit 1, and no hash line that looks like a run. */
static void test_sb_generate_fails(void **state) {
    (void)state;
    const char *path = overflowing_model();
    assert_int_equal(test_sb("generate -m '%s' -p 'abc' -n 8", path), 1);
    assert_true(test_sb_output_has("err", "logits are not finite"));
    char *err = test_sb_read("err", NULL);
    assert_null(strstr(err, "sha256="));
    free(err);
}

/* The good models still load and generate (the checks refuse nothing
 * finite). */
static void test_good_models(void **state) {
    (void)state;
    for (int r = MK_RECIPE_F32; r <= MK_RECIPE_Q4_K_M; r++) {
        sb_err err = {0};
        eng_model *m = eng_model_load(test_tiny_model_path((mk_recipe)r), &err);
        if (!m) fail_msg("%s: %s", mk_recipe_name((mk_recipe)r), err.msg);
        eng_model_free(m);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_weights),
        cmocka_unit_test(test_quantized_scales),
        cmocka_unit_test(test_logits_not_finite),
        cmocka_unit_test(test_first_layer_overflow),
        cmocka_unit_test(test_sb_generate_fails),
        cmocka_unit_test(test_good_models),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
