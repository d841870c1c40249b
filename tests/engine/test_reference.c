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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../../engine/gguf.h"
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

typedef struct ref_prompt {
    uint32_t n_tokens, n_vocab;
    int32_t *ids;
    float *logits; /* n_tokens * n_vocab */
} ref_prompt;

typedef struct ref_file {
    char sha[65];
    uint32_t n_prompts;
    ref_prompt *prompts;
} ref_file;

static void read_exact(FILE *f, void *p, size_t n) {
    assert_int_equal(fread(p, 1, n, f), n);
}

static ref_file *ref_load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (run from the repository root)", path);
    ref_file *r = calloc(1, sizeof *r);
    char magic[8];
    read_exact(f, magic, 8);
    assert_memory_equal(magic, "SBREF002", 8);
    read_exact(f, r->sha, 64);
    read_exact(f, &r->n_prompts, 4);
    assert_true(r->n_prompts > 0 && r->n_prompts < 100);
    r->prompts = calloc(r->n_prompts, sizeof *r->prompts);
    for (uint32_t i = 0; i < r->n_prompts; i++) {
        ref_prompt *p = &r->prompts[i];
        read_exact(f, &p->n_tokens, 4);
        assert_true(p->n_tokens > 0 && p->n_tokens <= 256);
        p->ids = malloc(p->n_tokens * sizeof *p->ids);
        read_exact(f, p->ids, p->n_tokens * sizeof *p->ids);
        read_exact(f, &p->n_vocab, 4);
        assert_true(p->n_vocab > 0 && p->n_vocab <= 1u << 20);
        p->logits = malloc((size_t)p->n_tokens * p->n_vocab * sizeof(float));
        read_exact(f, p->logits, (size_t)p->n_tokens * p->n_vocab * sizeof(float));
    }
    fclose(f);
    return r;
}

static void ref_free(ref_file *r) {
    for (uint32_t i = 0; i < r->n_prompts; i++) {
        free(r->prompts[i].ids);
        free(r->prompts[i].logits);
    }
    free(r->prompts);
    free(r);
}

/* SHA-256 of the model file from the start of its tensor data to the end:
 * the weights, which are all the logits depend on besides the token ids
 * (tools/reference_logits.py hashes the same bytes). */
static void weights_sha256(const char *path, char hex[65]) {
    sb_err err = {0};
    gguf_file *f = gguf_open(path, &err);
    if (!f) fail_msg("%s", err.msg);
    assert_true(gguf_tensor_count(f) > 0);
    /* Every tensor's data pointer minus its offset is the data section. */
    const gguf_tensor *t = gguf_tensor_at(f, 0);
    const unsigned char *start = (const unsigned char *)t->data - t->offset;
    const unsigned char *end = (const unsigned char *)gguf_file_bytes(f) + gguf_file_size(f);
    sb_sha256_hex(start, (size_t)(end - start), hex);
    gguf_close(f);
}

static int32_t argmax(const float *v, uint32_t n) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < n; i++)
        if (v[i] > v[best]) best = i;
    return (int32_t)best;
}

/* Largest |engine - reference| / max|reference| over one position. */
static double rel_error(const float *got, const float *want, uint32_t n) {
    double scale = 0, err = 0;
    for (uint32_t i = 0; i < n; i++) {
        scale = fmax(scale, fabs(want[i]));
        err = fmax(err, fabs((double)got[i] - want[i]));
    }
    return err / scale;
}

/* Runs every prompt through the engine (all positions' logits) and checks
 * them against the reference. Prints the worst error seen. */
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void check_against(eng_recipe recipe, const char *ref_path, tolerance tol) {
    ref_file *ref = ref_load(ref_path);
    char weights[65];
    weights_sha256(test_tiny_model_path(recipe), weights);
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
        ref_prompt *p = &ref->prompts[i];
        assert_int_equal(p->n_vocab, eng_n_vocab(m));
        float *got = malloc((size_t)p->n_tokens * p->n_vocab * sizeof(float));
        eng_session_truncate(s, 0);
        for (uint32_t done = 0; done < p->n_tokens; done += 64) {
            int rows = p->n_tokens - done < 64 ? (int)(p->n_tokens - done) : 64;
            assert_int_equal(eng_session_step(s, p->ids + done, rows,
                                              got + (size_t)done * p->n_vocab, &err), 0);
        }
        for (uint32_t t = 0; t < p->n_tokens; t++) {
            const float *g = got + (size_t)t * p->n_vocab, *w = p->logits + (size_t)t * p->n_vocab;
            assert_true(n_err < 1024);
            errors[n_err++] = rel_error(g, w, p->n_vocab);
            top1_mismatch += argmax(g, p->n_vocab) != argmax(w, p->n_vocab);
        }
        free(got);
    }
    qsort(errors, (size_t)n_err, sizeof *errors, cmp_double);
    double median = errors[n_err / 2], worst = errors[n_err - 1];
    printf("  %s: %d positions, relative error median %.3g (bound %.3g), "
           "worst %.3g (bound %.3g), top-1 mismatches %d\n", ref_path, n_err,
           median, tol.median, worst, tol.worst, top1_mismatch);
    assert_true(median <= tol.median);
    assert_true(worst <= tol.worst);
    assert_int_equal(top1_mismatch, 0);
    eng_session_destroy(s);
    eng_model_free(m);
    ref_free(ref);
}

static void test_f32_model(void **state) {
    (void)state;
    check_against(ENG_RECIPE_F32, "tests/data/ref_tiny_f32.emulated.bin", TOL_EMULATED_F32);
    check_against(ENG_RECIPE_F32, "tests/data/ref_tiny_f32.exact.bin", TOL_EXACT_F32);
}

static void test_q8_0_model(void **state) {
    (void)state;
    check_against(ENG_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.emulated.bin", TOL_EMULATED_Q8_0);
    check_against(ENG_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.exact.bin", TOL_EXACT_Q8_0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_model),
        cmocka_unit_test(test_q8_0_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
