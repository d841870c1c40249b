/* Tests of engine/session.c and generate.c on the tiny synthetic models:
 * determinism across runs, threads and prefill chunking; rollback; limits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../drafter/drafter.h"
#include "../../engine/engine.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/tiny_model.h"

static const char *PROMPT = "static int parse(const char *s) {\n    return";

static int32_t tokenize(const eng_model *m, int32_t *ids, int64_t cap) {
    int64_t n = eng_tokenize(m, PROMPT, (int64_t)strlen(PROMPT), ids, cap);
    assert_true(n > 0 && n <= cap);
    return (int32_t)n;
}

/* Generates on a session made with opt, with the given chunk/sampling;
 * returns the hash. */
static void generate_opt(const eng_model *m, const eng_options *opt, int chunk, float temp,
                         int32_t n_max, char hash[65], int32_t *n_out) {
    sb_err err = {0};
    eng_session *s = eng_session_create(m, opt, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    int32_t ids[256];
    int32_t n = tokenize(m, ids, 256);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = n_max;
    p.prefill_chunk = chunk;
    p.stop_at_eos = false;
    p.sampling = (eng_sampling){.temperature = temp, .seed = 99};
    eng_gen_result r;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.n_tokens, n_max);
    memcpy(hash, r.sha256, 65);
    if (n_out) *n_out = r.n_tokens;
    free(r.tokens);
    eng_session_destroy(s);
}

/* Generates with the given threads/chunk/sampling; returns the hash. */
static void generate(const eng_model *m, int threads, int chunk, float temp,
                     int32_t n_max, char hash[65], int32_t *n_out) {
    generate_opt(m, &(eng_options){.n_threads = threads}, chunk, temp, n_max, hash, n_out);
}

/* eng_options.tuning reaches the backend: the scalar kernels alone (a cap
 * of krn_tuning.cpu_isa) give the default's tokens, as every kernel gives
 * the same bits; a value out of range fails the create, naming the field. */
static void test_kernel_tuning(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    char want[65], got[65];
    generate(m, 2, 64, 0.0f, 24, want, NULL);
    const eng_options scalar = {.n_threads = 2, .tuning.cpu_isa = KRN_ISA_CAP_SCALAR};
    generate_opt(m, &scalar, 64, 0.0f, 24, got, NULL);
    assert_string_equal(want, got);
    sb_err err = {0};
    const eng_options bad = {.n_threads = 1, .tuning.cpu_isa = (krn_isa_cap)9};
    assert_null(eng_session_create(m, &bad, &err));
    if (!strstr(err.msg, "tuning.cpu_isa")) fail_msg("unexpected error: %s", err.msg);
    eng_model_free(m);
}

static void test_same_hash_across_runs_threads_chunks(void **state) {
    (void)state;
    for (mk_recipe rc = MK_RECIPE_F32; rc <= MK_RECIPE_Q4_K_M; rc++) {
        eng_model *m = test_tiny_model_load(rc);
        char ref[65], h[65];
        generate(m, 1, 64, 0.0f, 24, ref, NULL);
        generate(m, 1, 64, 0.0f, 24, h, NULL);
        assert_string_equal(ref, h);
        generate(m, 2, 64, 0.0f, 24, h, NULL);
        assert_string_equal(ref, h);
        generate(m, 3, 7, 0.0f, 24, h, NULL);
        assert_string_equal(ref, h);
        generate(m, 2, 1, 0.0f, 24, h, NULL);
        assert_string_equal(ref, h);
        /* Sampling with a seed is just as reproducible. */
        generate(m, 1, 64, 0.9f, 24, ref, NULL);
        generate(m, 2, 5, 0.9f, 24, h, NULL);
        assert_string_equal(ref, h);
        eng_model_free(m);
    }
}

/* Roll back and recompute: the logits of a re-run step are the same bits. */
static void test_rollback_recompute(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    int32_t ids[256];
    int32_t n = tokenize(m, ids, 256);
    size_t nv = (size_t)eng_n_vocab(m);
    float *a = malloc(nv * 16 * sizeof(float)), *b = malloc(nv * 16 * sizeof(float));
    assert_int_equal(eng_session_prefill(s, ids, n - 8, 64, NULL, &err), 0);
    assert_int_equal(eng_session_step(s, ids + n - 8, 8, a, &err), 0);
    assert_int_equal(eng_session_length(s), n);
    /* Overwrite the last 8 slots with other tokens, roll back, redo. */
    eng_session_truncate(s, n - 8);
    int32_t other[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(eng_session_step(s, other, 8, b, &err), 0);
    eng_session_truncate(s, n - 8);
    assert_int_equal(eng_session_step(s, ids + n - 8, 8, b, &err), 0);
    assert_memory_equal(a, b, nv * 8 * sizeof(float));
    free(a);
    free(b);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* ---- prefill's last logits -------------------------------------------------- */

enum { LONG_PROMPT = 130 };

/* The last row's logits of ids[0..n) stepped plainly by eng_session_step,
 * every row's logits computed, in steps of 64 rows: the reference a
 * prefill must equal bit for bit. */
static void plain_last_logits(eng_session *s, const int32_t *ids, int32_t n,
                              float *out) {
    sb_err err = {0};
    const size_t nv = (size_t)eng_n_vocab(eng_session_model(s));
    float *rows = malloc(KRN_MAX_ROWS * nv * sizeof *rows);
    assert_non_null(rows);
    eng_session_truncate(s, 0);
    int k = 0;
    for (int32_t done = 0; done < n; done += k) {
        k = n - done < KRN_MAX_ROWS ? (int)(n - done) : KRN_MAX_ROWS;
        assert_int_equal(eng_session_step(s, ids + done, k, rows, &err), 0);
    }
    memcpy(out, rows + (size_t)(k - 1) * nv, nv * sizeof *out);
    free(rows);
}

/* Prefills ids[0..n) from an empty cache in chunks of `chunk` and checks
 * the last logits against want, into a buffer of its own and into the
 * session's (which the prefill also uses as scratch). */
static void check_prefill(eng_session *s, const int32_t *ids, int32_t n,
                          int chunk, const float *want, float *got) {
    sb_err err = {0};
    const size_t bytes = (size_t)eng_n_vocab(eng_session_model(s)) * sizeof *got;
    float *own[2] = {got, eng_session_logits(s)};
    for (int i = 0; i < 2; i++) {
        memset(own[i], 0xff, bytes);
        eng_session_truncate(s, 0);
        if (eng_session_prefill(s, ids, n, chunk, own[i], &err))
            fail_msg("eng_session_prefill: %s", err.msg);
        assert_int_equal(eng_session_length(s), n);
        if (memcmp(own[i], want, bytes))
            fail_msg("prefill of %d tokens in chunks of %d (into the %s "
                     "buffer): last logits differ from plain steps' ", (int)n,
                     chunk, i ? "session's" : "caller's");
    }
}

/* eng_session_prefill computes the LM head for the prompt's last row only
 * (krn_batch.logits_from); its logits are those of plain steps computing
 * every row, for each recipe (the LM head of each type), 1 and 2 threads,
 * prompts of 1, 129 and 130 tokens, in chunks of 64, 7, 1 and 43 (the last
 * chunk of 1 to 64 rows). */
static void test_prefill_last_logits_equal_steps(void **state) {
    (void)state;
    for (mk_recipe rc = MK_RECIPE_F32; rc <= MK_RECIPE_Q4_K_M; rc++) {
        eng_model *m = test_tiny_model_load(rc);
        const size_t nv = (size_t)eng_n_vocab(m);
        int32_t ids[LONG_PROMPT];
        for (int32_t i = 0; i < LONG_PROMPT; i++)
            ids[i] = (int32_t)(sb_hash3(7, (uint64_t)i, 2) % nv);
        float *want = malloc(nv * sizeof *want), *got = malloc(nv * sizeof *got);
        assert_non_null(want);
        assert_non_null(got);
        for (int threads = 1; threads <= 2; threads++) {
            sb_err err = {0};
            eng_session *s = eng_session_create(m, &(eng_options){.n_threads = threads}, &err);
            assert_non_null(s);
            const int32_t lens[] = {1, 129, LONG_PROMPT};
            const int chunks[] = {64, 7, 1, 43};
            for (int li = 0; li < 3; li++) {
                plain_last_logits(s, ids, lens[li], want);
                for (int ci = 0; ci < 4; ci++)
                    check_prefill(s, ids, lens[li], chunks[ci], want, got);
            }
            eng_session_destroy(s);
        }
        free(want), free(got);
        eng_model_free(m);
    }
}

/* A session made for long prefill chunks (eng_options.prefill_chunk 300):
 * its prompt of 700 tokens prefilled in chunks of 300, 256, 64 and 1 gives
 * plain steps' last logits, and a generation with the session's own chunk
 * (eng_gen_params.prefill_chunk 0) the default session's tokens. A chunk
 * above the session's, or an eng_options.prefill_chunk out of range, is
 * refused by name; a default session's chunk stays 64. */
static void test_long_prefill_chunks(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    const size_t nv = (size_t)eng_n_vocab(m);
    enum { N = 700 };
    int32_t ids[N];
    for (int32_t i = 0; i < N; i++) ids[i] = (int32_t)(sb_hash3(9, (uint64_t)i, 2) % nv);
    float *want = malloc(nv * sizeof *want), *got = malloc(nv * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2, .n_ctx = 1024,
                                        .prefill_chunk = 300}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    assert_int_equal(eng_session_prefill_chunk(s), 300);
    plain_last_logits(s, ids, N, want);
    const int chunks[] = {300, 256, 64, 1};
    for (int ci = 0; ci < 4; ci++) check_prefill(s, ids, N, chunks[ci], want, got);
    eng_session_truncate(s, 0);
    assert_int_equal(eng_session_prefill(s, ids, N, 301, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "prefill chunk of 301 rows; expected 1..300"));
    /* a verify step stays at 64 rows */
    err = (sb_err){0};
    assert_int_equal(eng_session_step(s, ids, 65, eng_session_logits(s), &err), -1);
    assert_non_null(strstr(err.msg, "step of 65 rows; expected 1..64"));
    eng_session_destroy(s);
    char ref[65], h[65];
    generate(m, 2, 0, 0.0f, 16, ref, NULL);
    generate_opt(m, &(eng_options){.n_threads = 2, .prefill_chunk = 300}, 0, 0.0f, 16, h, NULL);
    assert_string_equal(ref, h);
    s = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(s);
    assert_int_equal(eng_session_prefill_chunk(s), KRN_MAX_ROWS);
    eng_session_destroy(s);
    /* a smaller chunk is a generation's default; 64 rows still fit */
    s = eng_session_create(m, &(eng_options){.n_threads = 1, .prefill_chunk = 16}, &err);
    assert_non_null(s);
    assert_int_equal(eng_session_prefill_chunk(s), 16);
    assert_int_equal(eng_session_prefill(s, ids, KRN_MAX_ROWS, KRN_MAX_ROWS, NULL, &err), 0);
    eng_session_destroy(s);
    const int32_t bad[] = {-1, KRN_MAX_BATCH_ROWS + 1};
    for (int i = 0; i < 2; i++) {
        err = (sb_err){0};
        assert_null(eng_session_create(m, &(eng_options){.prefill_chunk = bad[i]}, &err));
        assert_non_null(strstr(err.msg, "prefill_chunk"));
    }
    free(want), free(got);
    eng_model_free(m);
}

/* A prefill that wants no logits (NULL) computes none, yet fills the
 * cache: the step after it gives plain decoding's bits. */
static void test_prefill_without_logits(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    const size_t nv = (size_t)eng_n_vocab(m);
    int32_t ids[LONG_PROMPT];
    for (int32_t i = 0; i < LONG_PROMPT; i++)
        ids[i] = (int32_t)(sb_hash3(8, (uint64_t)i, 2) % nv);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    float *want = malloc(nv * sizeof *want), *got = malloc(nv * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    plain_last_logits(s, ids, LONG_PROMPT, want);
    eng_session_truncate(s, 0);
    assert_int_equal(eng_session_prefill(s, ids, LONG_PROMPT - 1, 64, NULL, &err), 0);
    assert_int_equal(eng_session_step(s, ids + LONG_PROMPT - 1, 1, got, &err), 0);
    assert_memory_equal(got, want, nv * sizeof *got);
    free(want), free(got);
    eng_session_destroy(s);
    eng_model_free(m);
}

static void test_context_limits(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 1, .n_ctx = 48}, &err);
    assert_non_null(s);
    int32_t ids[256];
    int32_t n = tokenize(m, ids, 256);
    assert_true(n < 48);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = 100;
    p.stop_at_eos = false;
    eng_gen_result r;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.stop, ENG_STOP_CONTEXT);
    /* Every slot used, plus the final sampled token that needs no slot. */
    assert_int_equal(r.n_tokens, 48 - n + 1);
    free(r.tokens);
    /* A prompt longer than the cache is refused with a message. */
    int32_t big[64] = {0};
    assert_int_equal(eng_generate(s, big, 64, &p, NULL, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "does not fit"));
    eng_session_destroy(s);
    /* A context larger than the model's is refused at creation. */
    memset(&err, 0, sizeof err);
    assert_null(eng_session_create(m, &(eng_options){.n_ctx = 1 << 20}, &err));
    assert_non_null(strstr(err.msg, "context"));
    eng_model_free(m);
}

static int stop_after_three(void *ctx, int32_t id) {
    (void)id;
    return ++*(int *)ctx == 3;
}

static void test_callback_stops(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, NULL, &err);
    assert_non_null(s);
    int32_t ids[256];
    int32_t n = tokenize(m, ids, 256);
    eng_gen_params p = eng_gen_defaults();
    int calls = 0;
    eng_gen_result r;
    assert_int_equal(eng_generate(s, ids, n, &p, stop_after_three, &calls, &r, &err), 0);
    assert_int_equal(r.stop, ENG_STOP_CALLBACK);
    assert_int_equal(r.n_tokens, 3);
    free(r.tokens);
    assert_int_equal(eng_generate(s, ids, 0, &p, NULL, NULL, &r, &err), -1);
    assert_non_null(strstr(err.msg, "empty prompt"));
    eng_session_destroy(s);
    eng_model_free(m);
}

/* ---- the exact prefix cache (eng_session_reuse) -------------------------- */

static const char *PREFIX_A =
    "static int parse(const char *s) {\n    int n = 0;\n    while (*s) n++;\n"
    "    return n;\n}\n";
static const char *PREFIX_TAIL = "/* another ending */ int main(void) { return 1; }";

/* The prompt that shares exactly k tokens with a: a[0..k) then the tail's ids
 * (whose first id differs from a[k]). Returns its length. */
static int32_t split_prompt(const int32_t *a, int32_t na, const int32_t *tail,
                            int32_t nt, int32_t k, int32_t *out) {
    memcpy(out, a, (size_t)k * sizeof *a);
    int32_t t = 0;
    while (t < nt && k < na && tail[t] == a[k]) t++; /* keep the split at k */
    memcpy(out + k, tail + t, (size_t)(nt - t) * sizeof *tail);
    return k + nt - t;
}

/* After a session held prompt a (and a generation after it), a prompt that
 * shares its first k tokens is prefilled from k only, for every k from 0 to
 * all of a, and its last row's logits are the bits a cold prefill gives. */
static void test_prefix_cache_every_split(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    sb_err err = {0};
    eng_session *warm = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    eng_session *cold = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(warm);
    assert_non_null(cold);
    int32_t a[256], tail[128], b[384];
    const int32_t na = (int32_t)eng_tokenize(m, PREFIX_A, (int64_t)strlen(PREFIX_A), a, 256);
    const int32_t nt = (int32_t)eng_tokenize(m, PREFIX_TAIL, (int64_t)strlen(PREFIX_TAIL),
                                             tail, 128);
    assert_true(na > 20 && na < 256 && nt > 5);
    const size_t nv = (size_t)eng_n_vocab(m);
    float *want = malloc(nv * sizeof(float)), *got = malloc(nv * sizeof(float));
    assert_non_null(want);
    for (int32_t k = 0; k <= na; k++) {
        /* k == na: the same prompt again, all but its last row kept. */
        const int32_t nb = k == na ? na : split_prompt(a, na, tail, nt, k, b);
        const int32_t *pb = k == na ? a : b;
        eng_session_truncate(warm, 0);
        assert_int_equal(eng_session_prefill(warm, a, na, 7, NULL, &err), 0);
        const int32_t kept = eng_session_reuse(warm, pb, nb);
        assert_int_equal(kept, k < nb ? k : nb - 1);
        assert_int_equal(eng_session_length(warm), kept);
        assert_int_equal(eng_session_prefill(warm, pb + kept, nb - kept, 64, got, &err), 0);
        eng_session_truncate(cold, 0);
        assert_int_equal(eng_session_prefill(cold, pb, nb, 64, want, &err), 0);
        if (memcmp(want, got, nv * sizeof(float)))
            fail_msg("split %d: cached logits differ from the cold run", (int)k);
    }
    free(want);
    free(got);
    eng_session_destroy(warm);
    eng_session_destroy(cold);
    eng_model_free(m);
}

/* Whole generations: with reuse_prefix a prompt sharing k tokens with the
 * previous generation's prompt reports cached_tokens k and gives the tokens
 * of a cold generation, speculation on and off, at several splits. */
static void test_prefix_cache_generate(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(s);
    int32_t a[256], tail[128], b[384];
    const int32_t na = (int32_t)eng_tokenize(m, PREFIX_A, (int64_t)strlen(PREFIX_A), a, 256);
    const int32_t nt = (int32_t)eng_tokenize(m, PREFIX_TAIL, (int64_t)strlen(PREFIX_TAIL),
                                             tail, 128);
    drf_copy *c = drf_copy_create(NULL, 0, NULL, &err);
    assert_non_null(c);
    eng_drafter d = drf_copy_drafter(c);
    const int32_t splits[] = {0, 1, 9, na / 2, na - 1};
    for (size_t i = 0; i < sizeof splits / sizeof *splits; i++) {
        const int32_t k = splits[i];
        const int32_t nb = split_prompt(a, na, tail, nt, k, b);
        for (int spec = 0; spec < 2; spec++) {
            eng_gen_params p = eng_gen_defaults();
            p.n_max = 40;
            p.stop_at_eos = false;
            p.drafter = spec ? &d : NULL;
            eng_gen_result first, cached, fresh;
            assert_int_equal(eng_generate(s, a, na, &p, NULL, NULL, &first, &err), 0);
            assert_int_equal(eng_generate(s, b, nb, &p, NULL, NULL, &cached, &err), 0);
            assert_int_equal(cached.cached_tokens, k);
            assert_true(cached.first_token_s > 0.0);
            p.reuse_prefix = false;
            assert_int_equal(eng_generate(s, b, nb, &p, NULL, NULL, &fresh, &err), 0);
            assert_int_equal(fresh.cached_tokens, 0);
            assert_int_equal(cached.n_tokens, fresh.n_tokens);
            assert_string_equal(cached.sha256, fresh.sha256);
            free(first.tokens);
            free(cached.tokens);
            free(fresh.tokens);
        }
    }
    drf_copy_destroy(c);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* A model that declares a 40-position window: its ring of 103 slots wraps
 * during a 300-token generation, and speculation (verify steps of up to 64
 * rows, rolled back) still gives the plain tokens. Cutting the session back
 * further than the ring remembers is refused at the next step, by name. */
static void test_sliding_window(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    job.shape.window = 40;
    char path[64];
    snprintf(path, sizeof path, "/tmp/sb-window-%d.gguf", (int)getpid());
    eng_model *m = test_job_write_and_load(&job, path, NULL);
    assert_int_equal(eng_model_desc(m)->window, 40);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2, .n_ctx = 512}, &err);
    assert_non_null(s);
    int32_t ids[256];
    const int32_t n = tokenize(m, ids, 256);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = 300;
    p.stop_at_eos = false;
    eng_gen_result plain, spec;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &plain, &err), 0);
    drf_copy *c = drf_copy_create(NULL, 0, NULL, &err);
    assert_non_null(c);
    eng_drafter d = drf_copy_drafter(c);
    p.drafter = &d;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &spec, &err), 0);
    assert_int_equal(spec.n_tokens, 300);
    assert_string_equal(spec.sha256, plain.sha256);
    assert_true(spec.steps < plain.steps); /* drafts were really accepted */
    /* the ring holds positions from about n + 300 - 103: 100 is long gone */
    eng_session_truncate(s, 100);
    assert_int_equal(eng_session_step(s, ids, 1, eng_session_logits(s), &err), -1);
    assert_non_null(strstr(err.msg, "sliding-window"));
    eng_session_truncate(s, 0); /* a fresh start is always possible */
    assert_int_equal(eng_session_step(s, ids, 1, eng_session_logits(s), &err), 0);
    /* The prefix cache keeps a prefix only while the ring holds the window
     * behind it. After a plain generation of 300 the session holds the
     * prompt and 299 tokens; the ring, their last 103 positions. */
    p.drafter = NULL;
    eng_gen_result again;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &again, &err), 0);
    free(again.tokens);
    int32_t longer[512];
    memcpy(longer, ids, (size_t)n * sizeof *ids);
    memcpy(longer + n, plain.tokens, 299 * sizeof *longer);
    /* All of it again: the window behind its last row is in the ring. */
    assert_int_equal(eng_session_reuse(s, longer, n + 299), n + 298);
    /* Sharing only 100 generated tokens: the ring has long overwritten the
     * window behind position n + 100, so it starts again from 0 ... */
    longer[n + 100] = (plain.tokens[100] + 1) % eng_n_vocab(m);
    assert_int_equal(eng_session_reuse(s, longer, n + 101), 0);
    assert_int_equal(eng_session_length(s), 0);
    /* ... and a prompt inside the window is kept after a fresh start. */
    assert_int_equal(eng_session_prefill(s, ids, n, 64, NULL, &err), 0);
    assert_int_equal(eng_session_reuse(s, ids, n), n - 1);
    drf_copy_destroy(c);
    free(plain.tokens);
    free(spec.tokens);
    eng_session_destroy(s);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_hash_across_runs_threads_chunks),
        cmocka_unit_test(test_long_prefill_chunks),
        cmocka_unit_test(test_rollback_recompute),
        cmocka_unit_test(test_prefill_last_logits_equal_steps),
        cmocka_unit_test(test_prefill_without_logits),
        cmocka_unit_test(test_context_limits),
        cmocka_unit_test(test_kernel_tuning),
        cmocka_unit_test(test_callback_stops),
        cmocka_unit_test(test_sliding_window),
        cmocka_unit_test(test_prefix_cache_every_split),
        cmocka_unit_test(test_prefix_cache_generate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
