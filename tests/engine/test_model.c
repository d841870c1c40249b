/*
 * eng_model_load: a good model loads (in any tensor order, tied or not),
 * and each kind of unusable model is refused with a message naming the key
 * or tensor. Every bad model is a variant of the tiny synthetic one, built
 * through the mkmodel job with one thing dropped or changed.
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
#include "../../engine/model_internal.h"

static char dir[64];
static char path[128];

static int setup_dir(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-model-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/m.gguf", dir);
    return 0;
}

static int remove_dir(void **state) {
    (void)state;
    unlink(path);
    return rmdir(dir);
}

/* The tiny f32 job (f32: every value exact, no quantizer involved). */
static void job_init(mk_job *job) {
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_F32,
                          .seed = 1, .n_threads = 2};
    sb_err err = {0};
    if (mk_job_init(job, &o, &err)) fail_msg("mk_job_init: %s", err.msg);
}

static void job_write(mk_job *job) {
    sb_err err = {0};
    if (mk_plan_sizes(&job->plan, &err) || mk_job_write(job, path, &err))
        fail_msg("writing the variant: %s", err.msg);
}

static eng_model *load_ok(void) {
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) fail_msg("eng_model_load: %s", err.msg);
    assert_string_equal(err.msg, "");
    return m;
}

/* Writes the job, expects the load to fail with `want` in the message, and
 * frees the job. */
static void expect_error(mk_job *job, const char *want) {
    job_write(job);
    mk_job_free(job);
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (m) {
        eng_model_free(m);
        fail_msg("loaded, expected an error containing '%s'", want);
    }
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not contain '%s'", err.msg, want);
    unlink(path);
}

static mk_tensor *plan_get(mk_plan *p, const char *name) {
    for (int64_t i = 0; i < p->n; i++)
        if (!strcmp(p->t[i].name, name)) return &p->t[i];
    fail_msg("no tensor '%s' in the plan", name);
    return NULL;
}

static void plan_drop(mk_plan *p, const char *name) {
    mk_tensor *t = plan_get(p, name);
    int64_t i = t - p->t;
    memmove(t, t + 1, (size_t)(p->n - i - 1) * sizeof *t);
    p->n--;
}

/* ---- good models ---- */

static void test_loads_and_describes(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    job_write(&job);
    mk_job_free(&job);
    eng_model *m = load_ok();
    const krn_model *d = eng_model_desc(m);
    assert_int_equal(d->n_vocab, 512);
    assert_ptr_equal(d->output.data, d->tok_embd.data);
    assert_int_equal(eng_model_eos(m), 258);

    /* the hash is of the file, and cached */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *bytes = malloc((size_t)size);
    assert_int_equal(fread(bytes, 1, (size_t)size, f), size);
    fclose(f);
    char want[65];
    sb_sha256_hex(bytes, (size_t)size, want);
    free(bytes);
    const char *h1 = eng_model_sha256(m);
    assert_string_equal(h1, want);
    assert_ptr_equal(eng_model_sha256(m), h1);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    eng_model_describe(m, out);
    fclose(out);
    static const char *const lines[] = {
        "qwen2", "sonicboom-synthetic-tiny-f32-seed1", "layers:        2",
        "embedding:     256", "feed_forward:  512",
        "heads:         4 (kv 2, head_dim 64)", "context:       4096",
        "rope_base:     1e+06", "rms_eps:       1e-06", "vocab:         512",
        "'<|im_end|>'", "tied to token_embd", "tensors:       26",
        "f32            26"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (!strstr(text, lines[i]))
            fail_msg("describe lacks '%s':\n%s", lines[i], text);
    free(text);
    eng_model_free(m);
    unlink(path);
}

/* Tensors are found by name: reversing the file order changes nothing. */
static void test_any_tensor_order(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    for (int64_t i = 0, j = job.plan.n - 1; i < j; i++, j--) {
        mk_tensor t = job.plan.t[i];
        job.plan.t[i] = job.plan.t[j];
        job.plan.t[j] = t;
    }
    job_write(&job);
    mk_job_free(&job);
    eng_model *m = load_ok();
    assert_int_equal(eng_model_desc(m)->layers[1].w_up.ne1, 512);
    eng_model_free(m);
    unlink(path);
}

static void make_untied(mk_job *job) {
    sb_err err = {0};
    mk_plan_free(&job->plan);
    job->shape.tied = false;
    if (mk_plan_make(&job->shape, MK_RECIPE_F32, &job->plan, &err))
        fail_msg("mk_plan_make: %s", err.msg);
}

static void test_untied(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    make_untied(&job);
    job_write(&job);
    mk_job_free(&job);
    eng_model *m = load_ok();
    const krn_model *d = eng_model_desc(m);
    assert_ptr_not_equal(d->output.data, d->tok_embd.data);
    assert_int_equal(d->output.ne0, 256);
    assert_int_equal(d->output.ne1, 512);
    eng_model_free(m);
    unlink(path);

    job_init(&job);
    make_untied(&job);
    plan_get(&job.plan, "output.weight")->ne[1] = 500;
    expect_error(&job, "tensor 'output.weight' has shape [256, 500], expected "
                       "[256, 512]");
}

/* ---- bad models ---- */

static void test_not_a_model(void **state) {
    (void)state;
    sb_err err = {0};
    assert_null(eng_model_load("/nonexistent/model.gguf", &err));
    assert_string_not_equal(err.msg, "");
}

static void test_missing_required_keys(void **state) {
    (void)state;
    static const char *const keys[] = {
        "general.architecture", "qwen2.block_count", "qwen2.embedding_length",
        "qwen2.feed_forward_length", "qwen2.attention.head_count",
        "qwen2.attention.head_count_kv", "qwen2.context_length",
        "qwen2.attention.layer_norm_rms_epsilon", "tokenizer.ggml.tokens"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        mk_job job;
        job_init(&job);
        job.omit_key = keys[i];
        char want[128];
        snprintf(want, sizeof want, "missing required key '%s'", keys[i]);
        expect_error(&job, want);
    }
}

/* Optional keys: rope base defaults, token types default to normal, eos
 * falls back to <|endoftext|>. */
static void test_optional_keys(void **state) {
    (void)state;
    static const char *const keys[] = {
        "qwen2.rope.freq_base", "tokenizer.ggml.token_type",
        "tokenizer.ggml.eos_token_id"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        mk_job job;
        job_init(&job);
        job.omit_key = keys[i];
        job_write(&job);
        mk_job_free(&job);
        eng_model *m = load_ok();
        float want_base = i == 0 ? 10000.0f : 1e6f;
        assert_true(eng_model_desc(m)->rope_base == want_base);
        assert_int_equal(eng_model_eos(m), i == 2 ? 256 : 258);
        eng_model_free(m);
        unlink(path);
    }
}

static void test_wrong_architecture(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    job.arch = "llama";
    expect_error(&job, "'general.architecture' is 'llama', expected 'qwen2'");
}

static void test_bad_hyperparameters(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    job.shape.n_layer = 0;
    expect_error(&job, "'qwen2.block_count' is 0, expected 1..512");
    job_init(&job);
    job.shape.n_head = 3;
    expect_error(&job, "embedding_length 256 is not a multiple of "
                       "qwen2.attention.head_count 3");
    job_init(&job);
    job.shape.n_head_kv = 3;
    expect_error(&job, "head_count 4 is not a multiple of "
                       "qwen2.attention.head_count_kv 3");
    job_init(&job);
    job.shape.n_head_kv = 8;
    expect_error(&job, "'qwen2.attention.head_count_kv' is 8, expected 1..4");
    job_init(&job);
    job.shape.rms_eps = -1.0f;
    expect_error(&job, "'qwen2.attention.layer_norm_rms_epsilon' is -1");
    job_init(&job);
    job.shape.n_ctx = 0;
    expect_error(&job, "'qwen2.context_length' is 0");
    /* the file says 3 layers, but holds tensors for 2 */
    job_init(&job);
    job.shape.n_layer = 3;
    expect_error(&job, "missing tensor 'blk.2.attn_norm.weight'");
    /* a feed-forward length the tensors do not have */
    job_init(&job);
    job.shape.n_ff = 640;
    expect_error(&job, "tensor 'blk.0.ffn_gate.weight' has shape [256, 512], "
                       "expected [256, 640]");
}

static void test_missing_tensor(void **state) {
    (void)state;
    static const char *const names[] = {
        "blk.1.ffn_up.weight", "token_embd.weight", "output_norm.weight",
        "blk.0.attn_k.bias", "blk.1.attn_output.weight"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        mk_job job;
        job_init(&job);
        plan_drop(&job.plan, names[i]);
        char want[96];
        snprintf(want, sizeof want, "missing tensor '%s'", names[i]);
        expect_error(&job, want);
    }
}

static void test_wrong_shape(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    plan_get(&job.plan, "blk.0.attn_q.weight")->ne[1] = 100;
    expect_error(&job, "tensor 'blk.0.attn_q.weight' has shape [256, 100], "
                       "expected [256, 256]");
    job_init(&job);
    mk_tensor *t = plan_get(&job.plan, "blk.1.attn_v.bias");
    t->ne[0] = 64;
    expect_error(&job, "tensor 'blk.1.attn_v.bias' has shape [64], expected "
                       "[128]");
    /* a vector stored as a matrix of the wrong height */
    job_init(&job);
    t = plan_get(&job.plan, "blk.0.ffn_norm.weight");
    t->n_dims = 2;
    t->ne[1] = 2;
    expect_error(&job, "tensor 'blk.0.ffn_norm.weight' has shape [256, 2], "
                       "expected [256]");
    /* n_embd disagrees between token_embd and the rest */
    job_init(&job);
    t = plan_get(&job.plan, "token_embd.weight");
    t->ne[0] = 128;
    expect_error(&job, "tensor 'token_embd.weight' has shape [128, 512], "
                       "expected [256, 512]");
}

static void test_non_f32_norm_or_bias(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    plan_get(&job.plan, "blk.0.ffn_norm.weight")->type = KRN_F16;
    expect_error(&job, "tensor 'blk.0.ffn_norm.weight' has type f16, expected "
                       "f32");
    job_init(&job);
    plan_get(&job.plan, "blk.1.attn_q.bias")->type = KRN_Q8_0;
    expect_error(&job, "tensor 'blk.1.attn_q.bias' has type q8_0, expected f32");
}

static void test_tokenizer_length_mismatch(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    free(job.vocab.tokens[511]);
    job.vocab.n = 511;
    expect_error(&job, "'tokenizer.ggml.tokens' has 511 entries, expected 512");
}

static void test_bad_eos(void **state) {
    (void)state;
    mk_job job;
    job_init(&job);
    job.vocab.eos = 512;
    expect_error(&job, "'tokenizer.ggml.eos_token_id' is 512, expected 0..511");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_and_describes),
        cmocka_unit_test(test_any_tensor_order),
        cmocka_unit_test(test_untied),
        cmocka_unit_test(test_not_a_model),
        cmocka_unit_test(test_missing_required_keys),
        cmocka_unit_test(test_optional_keys),
        cmocka_unit_test(test_wrong_architecture),
        cmocka_unit_test(test_bad_hyperparameters),
        cmocka_unit_test(test_missing_tensor),
        cmocka_unit_test(test_wrong_shape),
        cmocka_unit_test(test_non_f32_norm_or_bias),
        cmocka_unit_test(test_tokenizer_length_mismatch),
        cmocka_unit_test(test_bad_eos),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
