/*
 * The CPU engine against an independent reference: transformers'
 * Qwen2ForCausalLM in float64 (tools/reference_logits.py, run once on the GPU
 * machine), on the tiny synthetic models, every position of four prompts.
 *
 * Two references per model (see the tool's docstring):
 *   emulated — float64 with the engine's deliberate roundings (fp16 KV cache,
 *              int8 activation blocks for quantized weights), so what is
 *              left is fp32 vs fp64 arithmetic and the rare int8 rounding
 *              decision it flips.
 *   exact    — plain float64. The difference is the engine's designed
 *              quantization error; it must stay within a looser bound.
 * Errors are relative to the largest |logit| of the position; the bounds
 * and their reasoning are below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../support/ref_logits.h"
#include "../support/tiny_model.h"

/* Bounds on the per-position error (largest |engine - reference| over the
 * vocabulary, divided by the largest |reference logit|), as measured
 * 2026-12-02 and with the margin each comes from:
 *
 * emulated, any model: where no int8 rounding decision differs, only fp32 vs
 *   fp64 arithmetic separates the two: ~10 roundings of 2^-24 on each path,
 *   sums of at most 512 terms; measured 1e-7 typical, 1.2e-5 worst. The
 *   median must stay below 1e-5.
 * emulated, f32 weights: no quantized activations, so every position is of
 *   that kind: worst below 1e-4.
 * emulated, Q8_0 weights: an fp32 value within 1e-7 of a rounding boundary
 *   of x*127/amax rounds the other way, moving one activation by one quantum
 *   (amax/127); about 15% of positions see one, moving the logits by up to
 *   ~1%. Worst below 2e-2.
 * exact, f32 weights: the fp16 KV cache (2^-11 relative per key and value):
 *   measured 2.3e-4; worst below 2e-3.
 * exact, Q8_0 weights: int8 activations (up to half a quantum per element)
 *   on top: measured 1.1e-2; worst below 3e-2.
 * Top-1 must agree at every position in all four comparisons. */
typedef struct tolerance {
    double median, worst;
} tolerance;

static const tolerance TOL_EMULATED_F32 = {1e-5, 1e-4};
static const tolerance TOL_EMULATED_Q8_0 = {1e-5, 2e-2};
static const tolerance TOL_EXACT_F32 = {2e-3, 2e-3};
static const tolerance TOL_EXACT_Q8_0 = {3e-2, 3e-2};

/* Runs every prompt through the engine (all positions' logits), checks
 * them against the reference and prints the errors seen. */
static void check_against(mk_recipe recipe, const char *ref_path, tolerance tol) {
    test_ref_file *ref = test_ref_load(ref_path);
    char weights[65];
    test_weights_sha256(test_tiny_model_path(recipe), weights);
    if (strcmp(ref->sha, weights))
        fail_msg("%s was made from weights with SHA-256 %s, but sb mkmodel now "
                 "makes %s: rerun tools/reference_logits.py", ref_path, ref->sha,
                 weights);
    eng_model *m = test_tiny_model_load(recipe);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    double errors[1024];
    int n_err = 0, top1_mismatch = 0;
    for (uint32_t i = 0; i < ref->n_prompts; i++) {
        test_ref_prompt *p = &ref->prompts[i];
        assert_int_equal(p->n_vocab, eng_n_vocab(m));
        float *got = test_all_logits(s, p->ids, p->n_tokens);
        for (uint32_t t = 0; t < p->n_tokens; t++) {
            const float *g = got + (size_t)t * p->n_vocab, *w = p->logits + (size_t)t * p->n_vocab;
            assert_true(n_err < 1024);
            errors[n_err++] = test_scaled_error(g, w, p->n_vocab);
            top1_mismatch += test_argmax(g, p->n_vocab) != test_argmax(w, p->n_vocab);
        }
        free(got);
    }
    double median, worst;
    test_median_worst(errors, n_err, &median, &worst);
    printf("  %s: %d positions, relative error median %.3g (bound %.3g), "
           "worst %.3g (bound %.3g), top-1 mismatches %d\n", ref_path, n_err,
           median, tol.median, worst, tol.worst, top1_mismatch);
    assert_true(median <= tol.median);
    assert_true(worst <= tol.worst);
    assert_int_equal(top1_mismatch, 0);
    eng_session_destroy(s);
    eng_model_free(m);
    test_ref_free(ref);
}

static void test_f32_model(void **state) {
    (void)state;
    check_against(MK_RECIPE_F32, "tests/data/ref_tiny_f32.emulated.bin", TOL_EMULATED_F32);
    check_against(MK_RECIPE_F32, "tests/data/ref_tiny_f32.exact.bin", TOL_EXACT_F32);
}

static void test_q8_0_model(void **state) {
    (void)state;
    check_against(MK_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.emulated.bin", TOL_EMULATED_Q8_0);
    check_against(MK_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.exact.bin", TOL_EXACT_Q8_0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_model),
        cmocka_unit_test(test_q8_0_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
