/*
 * The CPU engine on the committed demo model (models/sonicboom-demo.gguf,
 * Q8_0, trained by tools/train/) against transformers' logits for three
 * edit prompts with their gold answers (tests/data/ref_trained.bin, written
 * on the GPU machine by tools/train/trained_ref.py; format in its
 * docstring). Every position of each prompt + answer is run, as the engine
 * runs a verify step: 64 rows at a time.
 *
 * Skipped, saying so, only while the model file is absent (before it is
 * committed); once it is there, the reference must be too, and must have
 * been made from these very weights (SHA-256 of the tensor data).
 *
 * Bounds (relative to the position's largest |reference logit|), measured
 * 2026-12-02 on the first trained model and with the reasoning behind each:
 *   emulated — the reference applies the engine's roundings (fp16 K/V, int8
 *     activation blocks), so fp32-vs-fp64 arithmetic is what remains, plus
 *     its effect on the int8 roundings: a value within an fp32 ulp of a
 *     rounding boundary rounds the other way and moves one activation by a
 *     quantum. test_reference.c's 2-layer model sees that at ~15% of
 *     positions; here 8 layers quantize ~15,000 activations per position
 *     and the fp32/fp64 gap grows layer by layer, so nearly every position
 *     has several such flips. Measured median 5.8e-3, worst 1.3e-2: bounds
 *     1e-2 and 3e-2.
 *   exact — plain float64: the engine's designed quantization error on top;
 *     measured median 8.9e-3, worst 2.5e-2: bounds 2e-2 and 6e-2.
 * Top-1 must agree at every position, except where the reference's own
 * top-2 margin is inside that variant's worst-case bound (a near-tie the
 * tolerance cannot decide; counted and printed: measured 5 and 13 of 893,
 * and at most 3% of positions may be excused that way). Full vectors are
 * compared at the four stored positions per prompt; top-1 everywhere.
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
#include "../support/ref_logits.h"

#define MODEL_PATH "models/" ENG_DEFAULT_MODEL_NAME
#define REF_PATH "tests/data/ref_trained.bin"

typedef struct tolerance {
    double median, worst;
} tolerance;

static const tolerance TOL_EMULATED = {1e-2, 3e-2};
static const tolerance TOL_EXACT = {2e-2, 6e-2};

typedef struct run_summary { /* one variant, per position */
    int32_t *top1;
    float *first, *second, *scale;
} run_summary;

typedef struct ref_task {
    uint32_t n_tokens, n_prompt, n_full;
    int32_t *ids;
    run_summary run[2];       /* 0: exact, 1: emulated */
    uint32_t *full_pos;
    float *full[2];           /* n_full * n_vocab each */
} ref_task;

typedef struct ref_file {
    char sha[65];
    uint32_t n_tasks, n_vocab;
    ref_task *tasks;
} ref_file;

static void *read_alloc(FILE *f, size_t n) {
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, n, f), n);
    return p;
}

static uint32_t read_u32(FILE *f) {
    uint32_t v;
    assert_int_equal(fread(&v, 1, 4, f), 4);
    return v;
}

static ref_file *ref_load(void) {
    FILE *f = fopen(REF_PATH, "rb");
    if (!f) fail_msg("%s is missing: the demo model is committed, so its "
                     "reference must be too (tools/train/README.md)", REF_PATH);
    ref_file *r = calloc(1, sizeof *r);
    char magic[8];
    assert_int_equal(fread(magic, 1, 8, f), 8);
    assert_memory_equal(magic, "SBTRF001", 8);
    assert_int_equal(fread(r->sha, 1, 64, f), 64);
    r->n_tasks = read_u32(f);
    r->n_vocab = read_u32(f);
    assert_true(r->n_tasks > 0 && r->n_tasks < 64);
    assert_true(r->n_vocab > 0 && r->n_vocab <= 1u << 20);
    r->tasks = calloc(r->n_tasks, sizeof *r->tasks);
    for (uint32_t i = 0; i < r->n_tasks; i++) {
        ref_task *t = &r->tasks[i];
        t->n_tokens = read_u32(f);
        t->n_prompt = read_u32(f);
        assert_true(t->n_tokens > 1 && t->n_tokens <= 4096 && t->n_prompt < t->n_tokens);
        size_t n = t->n_tokens;
        t->ids = read_alloc(f, n * 4);
        for (int v = 0; v < 2; v++) {
            t->run[v].top1 = read_alloc(f, n * 4);
            t->run[v].first = read_alloc(f, n * 4);
            t->run[v].second = read_alloc(f, n * 4);
            t->run[v].scale = read_alloc(f, n * 4);
        }
        t->n_full = read_u32(f);
        assert_true(t->n_full <= 16);
        t->full_pos = calloc(t->n_full + 1, sizeof *t->full_pos);
        t->full[0] = malloc(((size_t)t->n_full * r->n_vocab + 1) * sizeof(float));
        t->full[1] = malloc(((size_t)t->n_full * r->n_vocab + 1) * sizeof(float));
        for (uint32_t k = 0; k < t->n_full; k++) {
            t->full_pos[k] = read_u32(f);
            assert_true(t->full_pos[k] < t->n_tokens);
            for (int v = 0; v < 2; v++)
                assert_int_equal(fread(t->full[v] + (size_t)k * r->n_vocab, 4,
                                       r->n_vocab, f), r->n_vocab);
        }
    }
    assert_int_equal(fgetc(f), EOF);
    fclose(f);
    return r;
}

static void ref_free(ref_file *r) {
    for (uint32_t i = 0; i < r->n_tasks; i++) {
        ref_task *t = &r->tasks[i];
        free(t->ids);
        for (int v = 0; v < 2; v++) {
            free(t->run[v].top1);
            free(t->run[v].first);
            free(t->run[v].second);
            free(t->run[v].scale);
            free(t->full[v]);
        }
        free(t->full_pos);
    }
    free(r->tasks);
    free(r);
}

typedef struct tally {
    double errors[256];
    int n_err, positions, mismatches, near_ties;
} tally;

static void compare_task(const ref_task *t, const float *got, uint32_t n_vocab,
                         int v, tolerance tol, tally *out) {
    const run_summary *rs = &t->run[v];
    for (uint32_t p = 0; p < t->n_tokens; p++) {
        const float *g = got + (size_t)p * n_vocab;
        out->positions++;
        if (test_argmax(g, n_vocab) == rs->top1[p]) continue;
        double margin = (double)rs->first[p] - rs->second[p];
        if (margin <= tol.worst * rs->scale[p]) out->near_ties++;
        else out->mismatches++;
    }
    for (uint32_t k = 0; k < t->n_full; k++) {
        const float *g = got + (size_t)t->full_pos[k] * n_vocab;
        const float *w = t->full[v] + (size_t)k * n_vocab;
        assert_true(out->n_err < 256);
        out->errors[out->n_err++] = test_scaled_error(g, w, n_vocab);
    }
}

static void check_variant(eng_model *m, const ref_file *r, int v, tolerance tol,
                          const char *name) {
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    tally tl = {0};
    for (uint32_t i = 0; i < r->n_tasks; i++) {
        float *got = test_all_logits(s, r->tasks[i].ids, r->tasks[i].n_tokens);
        compare_task(&r->tasks[i], got, r->n_vocab, v, tol, &tl);
        free(got);
    }
    double median, worst;
    test_median_worst(tl.errors, tl.n_err, &median, &worst);
    printf("  %s: %d positions, top-1 mismatches %d (+%d near-ties); %d full "
           "vectors, relative error median %.3g (bound %.3g), worst %.3g "
           "(bound %.3g)\n", name, tl.positions, tl.mismatches, tl.near_ties,
           tl.n_err, median, tol.median, worst, tol.worst);
    assert_int_equal(tl.mismatches, 0);
    assert_true(tl.near_ties * 100 <= 3 * tl.positions); /* rare, or not a tie */
    assert_true(median <= tol.median);
    assert_true(worst <= tol.worst);
    eng_session_destroy(s);
}

static void test_trained_model_against_transformers(void **state) {
    (void)state;
    if (access(MODEL_PATH, F_OK) != 0) {
        printf("  SKIPPED: %s is not there yet (tools/train/README.md makes "
               "it); nothing to compare\n", MODEL_PATH);
        skip();
    }
    ref_file *r = ref_load();
    char sha[65];
    test_weights_sha256(MODEL_PATH, sha);
    if (strcmp(sha, r->sha))
        fail_msg("%s was made from weights with SHA-256 %s, but %s holds %s: "
                 "rerun tools/train/device_run.sh refs", REF_PATH, r->sha,
                 MODEL_PATH, sha);
    sb_err err = {0};
    eng_model *m = eng_model_load(MODEL_PATH, &err);
    if (!m) fail_msg("%s", err.msg);
    assert_int_equal(eng_n_vocab(m), (int32_t)r->n_vocab);
    check_variant(m, r, 1, TOL_EMULATED, "emulated");
    check_variant(m, r, 0, TOL_EXACT, "exact");
    eng_model_free(m);
    ref_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trained_model_against_transformers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
