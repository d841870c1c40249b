/*
 * The CPU backend's forward pass (kernels.h §4) on tiny models built here in
 * memory with seeded random weights. The determinism contract is checked bit
 * for bit (memcmp on logits): a row's logits do not depend on the batch it
 * ran in, its place there, the thread count, prefill chunking, or KV slots
 * overwritten and recomputed. Correctness is checked against a float64
 * forward pass written here, within stated tolerances.
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../kernels/backend_impl.h" /* krn_model_check */
#include "../support/mem_model.h"

enum {
    N_LAYER = 2, N_EMBD = 256, N_FF = 512, N_HEAD = 4, N_HEAD_KV = 2, HD = 64,
    N_VOCAB = 300, CAP = 160,
};

/* ---- tiny models (tests/support/mem_model.h, shape TM_SMALL) ------------- */

/* The constants above are TM_SMALL's, spelled out for the float64 reference
 * below; test_shape_constants checks they agree. */
static tmodel *tm_small(const tm_types *ty, uint64_t seed) {
    return tm_create(&TM_SMALL, ty, seed);
}

static const tm_types MIXED = {.embd = KRN_BF16, .out = KRN_F16, .q = KRN_Q4_K,
                             .k = KRN_Q6_K, .v = KRN_Q8_0, .o = KRN_Q5_0,
                             .gate = KRN_F32, .up = KRN_Q4_K, .down = KRN_Q6_K};


/* ---- running ----------------------------------------------------------------- */

static krn_backend *backend(const tmodel *t, int n_threads) {
    sb_err err = {0};
    krn_backend *b = krn_cpu_create(&t->m, &(krn_options){.n_threads = n_threads,
                                    .kv_capacity = CAP}, &err);
    if (!b) fail_msg("krn_cpu_create: %s", err.msg);
    assert_string_equal(krn_backend_name(b), "cpu");
    return b;
}

/* A step whose rows from `from` on need logits (krn_batch.logits_from). */
static void step_from(krn_backend *b, int n, const int32_t *tok,
                      const int32_t *pos, float *logits, int from) {
    sb_err err = {0};
    krn_batch batch = {.n_rows = n, .tokens = tok, .pos = pos, .logits = logits,
                       .logits_from = from};
    if (krn_forward(b, &batch, &err)) fail_msg("krn_forward: %s", err.msg);
}

static void step(krn_backend *b, int n, const int32_t *tok, const int32_t *pos,
                 float *logits) {
    step_from(b, n, tok, pos, logits, 0);
}

/* Rows [p0, p0+n) of sequence seq as one step; logits row r -> out + r*V. */
static void step_seq(krn_backend *b, const int32_t *seq, int p0, int n,
                     float *out) {
    int32_t pos[KRN_MAX_ROWS];
    for (int r = 0; r < n; r++) pos[r] = p0 + r;
    step(b, n, seq + p0, pos, out);
}

/* All logits of seq[0..n) in steps of `chunk` rows. */
static void run_chunked(krn_backend *b, const int32_t *seq, int n, int chunk,
                        float *out) {
    for (int p = 0; p < n; p += chunk) {
        int rows = n - p < chunk ? n - p : chunk;
        step_seq(b, seq, p, rows, out + (size_t)p * N_VOCAB);
    }
}

static void make_seq(int32_t *seq, int n, uint64_t seed) {
    for (int i = 0; i < n; i++) seq[i] = (int32_t)(sb_hash3(seed, (uint64_t)i, 1) % N_VOCAB);
}

static const size_t ROW_BYTES = N_VOCAB * sizeof(float);

static float *logits_alloc(int rows) {
    return malloc((size_t)rows * ROW_BYTES);
}

/* Logits are finite and not constant: the model actually computed. */
static void assert_sane(const float *l, int rows) {
    for (int r = 0; r < rows; r++) {
        float lo = l[r * N_VOCAB], hi = lo;
        for (int i = 0; i < N_VOCAB; i++) {
            assert_true(isfinite(l[r * N_VOCAB + i]));
            lo = fminf(lo, l[r * N_VOCAB + i]);
            hi = fmaxf(hi, l[r * N_VOCAB + i]);
        }
        assert_true(hi - lo > 0.1f);
    }
}

/* ---- batch composition --------------------------------------------------------- */

enum { SEQ_LEN = 100 };

/* Every bucket size: the same rows computed alone (one token per step) and
 * inside batches of 2..16, 24, 32, 48, 64 rows starting at varying
 * positions, so each row lands at many places of many batch sizes. Before
 * each batch the slots it will write are filled by a step of other tokens
 * (a rejected draft), so a batch that failed to make its rows see each
 * other's fresh keys would read those and differ. Every other batch runs
 * its rows in reverse order. */
static void check_buckets(const tm_types *ty, int n_threads, const int *sizes,
                          int n_sizes) {
    tmodel *t = tm_small(ty, 11);
    krn_backend *b = backend(t, n_threads);
    int32_t seq[SEQ_LEN], junk[SEQ_LEN], pos[KRN_MAX_ROWS], tok[KRN_MAX_ROWS];
    make_seq(seq, SEQ_LEN, 1);
    for (int i = 0; i < SEQ_LEN; i++) junk[i] = (seq[i] + 17) % N_VOCAB;
    float *ref = logits_alloc(SEQ_LEN), *got = logits_alloc(KRN_MAX_ROWS);
    run_chunked(b, seq, SEQ_LEN, 1, ref);
    assert_sane(ref, SEQ_LEN);
    for (int si = 0; si < n_sizes; si++) {
        const int n = sizes[si], p0 = (n * 13 + 5) % (SEQ_LEN - n + 1);
        step_seq(b, junk, p0, n, got);
        const bool reverse = si % 2 == 1;
        for (int r = 0; r < n; r++) {
            pos[r] = reverse ? p0 + n - 1 - r : p0 + r;
            tok[r] = seq[pos[r]];
        }
        step(b, n, tok, pos, got);
        for (int r = 0; r < n; r++)
            if (memcmp(got + (size_t)r * N_VOCAB, ref + (size_t)pos[r] * N_VOCAB, ROW_BYTES))
                fail_msg("batch of %d rows from %d: row %d (pos %d) differs from "
                         "the row computed alone", n, p0, r, pos[r]);
    }
    free(ref), free(got);
    krn_destroy(b);
    tm_free(t);
}

static void test_buckets_mixed(void **state) {
    (void)state;
    const int sizes[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                         24, 32, 48, 64};
    check_buckets(&MIXED, 2, sizes, sizeof sizes / sizeof sizes[0]);
}

/* A second model (tied Q6_K embedding, Q4_K elsewhere) on 3 threads, a few
 * sizes (the sanitizer run's time budget). */
static void test_buckets_q4_k_tied(void **state) {
    (void)state;
    tm_types ty = tm_uniform_types(KRN_Q4_K, true);
    ty.embd = ty.out = KRN_Q6_K; /* Q4_K_M's choice for the tied embedding */
    const int sizes[] = {3, 16, 24, 64};
    check_buckets(&ty, 3, sizes, 4);
}

/* ---- threads, chunking, rollback ------------------------------------------- */

/* The same steps (a 64-row prefill, a 7-row verify, single tokens) on 1, 2,
 * 3 and 8 threads (and 0, meaning 1) give the same bits. */
static void test_thread_counts(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 12);
    int32_t seq[80];
    make_seq(seq, 80, 2);
    const int threads[] = {1, 2, 3, 8, 0};
    float *want = logits_alloc(80), *got = logits_alloc(80);
    for (int ti = 0; ti < 5; ti++) {
        krn_backend *b = backend(t, threads[ti]);
        float *out = ti == 0 ? want : got;
        step_seq(b, seq, 0, 64, out);
        step_seq(b, seq, 64, 7, out + 64 * N_VOCAB);
        for (int p = 71; p < 80; p++) step_seq(b, seq, p, 1, out + (size_t)p * N_VOCAB);
        if (ti > 0 && memcmp(want, got, 80 * ROW_BYTES))
            fail_msg("%d threads differ from 1 thread", threads[ti]);
        krn_destroy(b);
    }
    assert_sane(want, 80);
    free(want), free(got);
    tm_free(t);
}

/* An n-token prompt in one step, in chunks of 7 (when n > 7), and token by
 * token: the same logits for every position. */
static void check_chunking(const tm_types *ty, int n, uint64_t seed) {
    tmodel *t = tm_small(ty, seed);
    krn_backend *b = backend(t, 2);
    int32_t seq[64];
    make_seq(seq, n, seed);
    float *one = logits_alloc(n), *seven = logits_alloc(n), *each = logits_alloc(n);
    run_chunked(b, seq, n, n, one);
    if (n > 7) run_chunked(b, seq, n, 7, seven);
    run_chunked(b, seq, n, 1, each);
    assert_sane(one, n);
    if (n > 7) assert_memory_equal(one, seven, (size_t)n * ROW_BYTES);
    assert_memory_equal(one, each, (size_t)n * ROW_BYTES);
    free(one), free(seven), free(each);
    krn_destroy(b);
    tm_free(t);
}

/* 64 tokens on the mixed model; 16 on a model of each single type (the
 * first one tied). */
static void test_prefill_chunking(void **state) {
    (void)state;
    check_chunking(&MIXED, 64, 13);
    const krn_type types[] = {KRN_Q8_0, KRN_Q4_K, KRN_Q6_K, KRN_Q5_0, KRN_F32};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        tm_types ty = tm_uniform_types(types[i], i == 0);
        check_chunking(&ty, 16, 20 + i);
    }
}

/* Overwriting slots 40..50 with a rejected draft, then recomputing them and
 * continuing, gives what an undisturbed run gave. */
static void test_rollback(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 14);
    krn_backend *b = backend(t, 2);
    int32_t seq[90], draft[90];
    make_seq(seq, 90, 3);
    make_seq(draft, 90, 4);
    float *ref = logits_alloc(90), *got = logits_alloc(90);
    run_chunked(b, seq, 90, 30, ref);
    step_seq(b, draft, 40, 11, got);   /* the rejected draft */
    step_seq(b, seq, 40, 11, got + 40 * N_VOCAB);
    for (int p = 51; p < 90; p += 13) {
        int n = 90 - p < 13 ? 90 - p : 13;
        step_seq(b, seq, p, n, got + (size_t)p * N_VOCAB);
    }
    assert_memory_equal(got + 40 * N_VOCAB, ref + 40 * N_VOCAB, 50 * ROW_BYTES);
    free(ref), free(got);
    krn_destroy(b);
    tm_free(t);
}

/* ---- rows that need no logits ----------------------------------------------- */

/* A bit pattern no computation writes: a NaN with a payload. */
static const uint32_t SENTINEL = 0x7fc0beefu;

static void fill_sentinel(float *l, int rows) {
    for (size_t i = 0; i < (size_t)rows * N_VOCAB; i++) memcpy(&l[i], &SENTINEL, 4);
}

static bool is_sentinel(const float *l, int rows) {
    for (size_t i = 0; i < (size_t)rows * N_VOCAB; i++)
        if (memcmp(&l[i], &SENTINEL, 4)) return false;
    return true;
}

/* A step of n rows at positions 0..n-1 with logits_from = k, on a buffer
 * of sentinels: rows >= k are the bits of the same step with
 * logits_from = 0 (ref), rows < k are left as they were. */
static void check_logits_from_step(krn_backend *b, const int32_t *seq, int n,
                                   int k, const float *ref, float *got) {
    int32_t pos[KRN_MAX_ROWS];
    for (int r = 0; r < n; r++) pos[r] = r;
    fill_sentinel(got, n);
    step_from(b, n, seq, pos, got, k);
    if (!is_sentinel(got, k))
        fail_msg("%d rows, logits_from %d: a row before it was written", n, k);
    for (int r = k; r < n; r++)
        if (memcmp(got + (size_t)r * N_VOCAB, ref + (size_t)r * N_VOCAB, ROW_BYTES))
            fail_msg("%d rows, logits_from %d: row %d differs from the step "
                     "with every row's logits", n, k, r);
}

/* Every k of interest for n rows: none skipped, one, half, all but one,
 * all. */
static void check_logits_from(const tm_types *ty, int n_threads) {
    tmodel *t = tm_small(ty, 40);
    krn_backend *b = backend(t, n_threads);
    int32_t seq[KRN_MAX_ROWS];
    make_seq(seq, KRN_MAX_ROWS, 8);
    float *ref = logits_alloc(KRN_MAX_ROWS), *got = logits_alloc(KRN_MAX_ROWS);
    const int sizes[] = {1, 2, 9, KRN_MAX_ROWS};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const int n = sizes[si];
        step_seq(b, seq, 0, n, ref);
        assert_sane(ref, n);
        const int ks[] = {0, 1, n / 2, n - 1, n};
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
            check_logits_from_step(b, seq, n, ks[ki], ref, got);
    }
    free(ref), free(got);
    krn_destroy(b);
    tm_free(t);
}

/* The LM head's input is read three ways by output type (cpu.h's
 * krn_cpu_mm): floats (x, the mixed model's F16 output), 256-groups (xq,
 * Q6_K) and 32-groups (xq32, Q8_0); each is checked on 1 and 3 threads. */
static void test_logits_from_rows(void **state) {
    (void)state;
    tm_types q6k = tm_uniform_types(KRN_Q4_K, false), q8 = tm_uniform_types(KRN_Q8_0, false);
    q6k.out = KRN_Q6_K;
    const tm_types *types[] = {&MIXED, &q6k, &q8};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        check_logits_from(types[i], 1);
        check_logits_from(types[i], 3);
    }
}

/* Rows without logits still write their keys and values: a prompt stepped
 * with no logits but the last row's gives the next steps the same bits.
 * Other tokens fill every slot first, so a key or value not written
 * would be read as theirs. */
static void test_logits_from_keeps_cache(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 41);
    krn_backend *b = backend(t, 2);
    enum { N = 90, PROMPT = 70 };
    int32_t seq[N], junk[N], pos[KRN_MAX_ROWS];
    make_seq(seq, N, 9);
    make_seq(junk, N, 10);
    float *ref = logits_alloc(N), *got = logits_alloc(N);
    run_chunked(b, seq, N, 30, ref);
    run_chunked(b, junk, N, 30, got);
    fill_sentinel(got, N);
    for (int p = 0; p < PROMPT; p += 30) {
        const int n = PROMPT - p < 30 ? PROMPT - p : 30;
        for (int r = 0; r < n; r++) pos[r] = p + r;
        step_from(b, n, seq + p, pos, got + (size_t)p * N_VOCAB,
                  p + n == PROMPT ? n - 1 : n);
    }
    assert_true(is_sentinel(got, PROMPT - 1));
    for (int p = PROMPT; p < N; p += 7) {
        const int n = N - p < 7 ? N - p : 7;
        step_seq(b, seq, p, n, got + (size_t)p * N_VOCAB);
    }
    assert_memory_equal(got + (size_t)(PROMPT - 1) * N_VOCAB,
                        ref + (size_t)(PROMPT - 1) * N_VOCAB, (N - PROMPT + 1) * ROW_BYTES);
    free(ref), free(got);
    krn_destroy(b);
    tm_free(t);
}

/* ---- refused batches ------------------------------------------------------------ */

static void expect_refused(krn_backend *b, const krn_batch *batch, const char *what) {
    sb_err err = {0};
    assert_int_equal(krn_forward(b, batch, &err), -1);
    if (!strstr(err.msg, what)) fail_msg("error '%s' does not mention '%s'", err.msg, what);
}

/* Each bad batch is refused with a message naming the field and touches
 * neither the logits nor the KV cache: its valid leading rows (junk tokens
 * at slots 5..7) must not have been written, so later steps reading those
 * slots still match the undisturbed run. */
static void test_bad_batches(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 15);
    krn_backend *b = backend(t, 2);
    int32_t seq[20];
    make_seq(seq, 20, 5);
    float *ref = logits_alloc(20), *got = logits_alloc(KRN_MAX_ROWS + 1);
    run_chunked(b, seq, 20, 20, ref);

    int32_t tok[KRN_MAX_ROWS + 1], pos[KRN_MAX_ROWS + 1];
    for (int r = 0; r <= KRN_MAX_ROWS; r++) tok[r] = (seq[r % 20] + 1) % N_VOCAB, pos[r] = 5 + r;
    const size_t n_got = (size_t)(KRN_MAX_ROWS + 1) * N_VOCAB;
    for (size_t i = 0; i < n_got; i++) got[i] = 42.0f;
    const krn_batch ok = {.n_rows = 4, .tokens = tok, .pos = pos, .logits = got};
    krn_batch bad = ok;
    bad.n_rows = 0;
    expect_refused(b, &bad, "n_rows is 0");
    bad.n_rows = KRN_MAX_ROWS + 1;
    expect_refused(b, &bad, "n_rows is 65");
    bad = ok, bad.tokens = NULL;
    expect_refused(b, &bad, "tokens is NULL");
    bad = ok, bad.pos = NULL;
    expect_refused(b, &bad, "pos is NULL");
    bad = ok, bad.logits = NULL;
    expect_refused(b, &bad, "logits is NULL");
    expect_refused(b, NULL, "batch is NULL");
    tok[3] = N_VOCAB;
    expect_refused(b, &ok, "tokens[3] is 300");
    tok[3] = -1;
    expect_refused(b, &ok, "tokens[3] is -1");
    tok[3] = 0;
    pos[3] = CAP;
    expect_refused(b, &ok, "pos[3] is 160");
    pos[3] = -1;
    expect_refused(b, &ok, "pos[3] is -1");
    pos[3] = 6;
    expect_refused(b, &ok, "pos[1] and pos[3] are both 6");
    pos[3] = 8;
    bad = ok, bad.logits_from = -1;
    expect_refused(b, &bad, "logits_from is -1; expected 0..4 (n_rows)");
    bad = ok, bad.logits_from = 5;
    expect_refused(b, &bad, "logits_from is 5; expected 0..4 (n_rows)");
    sb_err err = {0};
    assert_int_equal(krn_forward(NULL, &ok, &err), -1);
    assert_non_null(strstr(err.msg, "backend is NULL"));
    for (size_t i = 0; i < n_got; i++) assert_true(got[i] == 42.0f);

    step_seq(b, seq, 8, 12, got + 8 * N_VOCAB);
    assert_memory_equal(got + 8 * N_VOCAB, ref + 8 * N_VOCAB, 12 * ROW_BYTES);
    free(ref), free(got);
    krn_destroy(b);
    tm_free(t);
}

/* ---- create errors ------------------------------------------------------------ */

static void expect_create_fails(const krn_model *m, int32_t cap, const char *what) {
    sb_err err = {0};
    krn_backend *b = krn_cpu_create(m, &(krn_options){.n_threads = 2, .kv_capacity = cap}, &err);
    assert_null(b);
    if (!strstr(err.msg, what)) fail_msg("error '%s' does not mention '%s'", err.msg, what);
}

/* One bad field at a time; each refusal names it. */
static void test_create_refuses_bad_models(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 16);
    krn_layer saved = t->layers[1];
    krn_model m = t->m;
    sb_err err = {0};
    assert_int_equal(krn_model_check(&m, &err), 0);
    assert_null(krn_cpu_create(&m, NULL, &err));
    expect_create_fails(NULL, CAP, "model is NULL");
    expect_create_fails(&m, 0, "kv_capacity is 0");
    expect_create_fails(&m, -5, "kv_capacity is -5");
    m.n_head_kv = 3;
    expect_create_fails(&m, CAP, "n_head_kv 3");
    m = t->m, m.head_dim = 63;
    expect_create_fails(&m, CAP, "head_dim is 63");
    m = t->m, m.n_embd = 250;
    expect_create_fails(&m, CAP, "n_embd is 250");
    m = t->m, m.n_layer = 0;
    expect_create_fails(&m, CAP, "n_layer is 0");
    m = t->m, m.rope_base = 0.0f;
    expect_create_fails(&m, CAP, "rope_base");
    m = t->m, m.output.ne1 = N_VOCAB - 1;
    expect_create_fails(&m, CAP, "output: shape [256, 299]; expected [256, 300]");
    m = t->m, m.output_norm.type = KRN_F16;
    expect_create_fails(&m, CAP, "output_norm: type f16; expected f32");
    m = t->m;
    t->layers[1].wk.ne1 = 64;
    expect_create_fails(&m, CAP, "layer 1 wk: shape [256, 64]; expected [256, 128]");
    t->layers[1] = saved, t->layers[1].bv.ne0 = 64;
    expect_create_fails(&m, CAP, "layer 1 bv: shape [64, 1]; expected [128, 1]");
    t->layers[1] = saved, t->layers[1].w_down.data = NULL;
    expect_create_fails(&m, CAP, "layer 1 w_down: data is NULL");
    t->layers[1] = saved, t->layers[1].wo.type = (krn_type)99;
    expect_create_fails(&m, CAP, "layer 1 wo: unknown type 99");
    t->layers[1] = saved;
    /* A K-quant row must be whole 256-element super-blocks. */
    m = t->m, m.n_ff = 480;
    for (int il = 0; il < N_LAYER; il++) {
        t->layers[il].w_gate.ne1 = t->layers[il].w_up.ne1 = 480;
        t->layers[il].w_down.ne0 = 480;
    }
    expect_create_fails(&m, CAP, "layer 0 w_down: row of 480 is not a whole "
                        "number of q6_K blocks (256 each)");
    t->layers[0].w_down.type = t->layers[1].w_down.type = KRN_Q8_0;
    sb_err ok = {0};
    assert_int_equal(krn_model_check(&m, &ok), 0);
    tm_free(t);
}

/* The CPU backend makes no launch choices (kernels.h: krn_choices), so a
 * warm-up table's choice is refused with its name, never silently
 * ignored. */
static void test_choices(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 18);
    sb_err err = {0};
    krn_backend *b = krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = 8},
                                    &err);
    assert_non_null(b);
    const krn_choice *c = (const krn_choice *)1;
    assert_int_equal(krn_choices(b, &c), 0);
    assert_null(c);
    assert_int_equal(krn_measurements(b), 0);
    krn_destroy(b);
    const krn_choice one = {.name = "matmul_split", .value = 1};
    b = krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = 8,
                                             .choices = &one, .n_choices = 1}, &err);
    assert_null(b);
    assert_non_null(strstr(err.msg, "matmul_split"));
    tm_free(t);
}

/* A KV cache that cannot be had is a clear error naming the bytes needed,
 * not a crash. Run in a child under an address-space limit (sanitizers
 * reserve huge shadow mappings and cannot run under one, so skip there). */
static void test_create_out_of_memory(void **state) {
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    skip();
#else
    tmodel *t = tm_small(&MIXED, 17);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit lim = {.rlim_cur = 1ull << 30, .rlim_max = 1ull << 30};
        if (setrlimit(RLIMIT_AS, &lim)) _exit(2);
        sb_err err = {0};
        /* 2 layers x 2^24 slots x 128 x 2 bytes = 8 GiB for each of K and V. */
        krn_backend *b = krn_cpu_create(&t->m, &(krn_options){.n_threads = 1,
                                        .kv_capacity = 1 << 24}, &err);
        _exit(!b && strstr(err.msg, "out of memory") &&
              strstr(err.msg, "8589934592 bytes") ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    tm_free(t);
#endif
}

/* ---- against float64 -------------------------------------------------------------- */

/* A float64 forward pass over the weights as stored (dequantized), with K
 * and V rounded to fp16 as the engine's cache stores them. Activations are
 * not rounded to int8: for quantized weights that rounding is the engine's
 * designed error, measured by the tolerance below. (Emulating it does not
 * make a sharp reference: an fp32/fp64 difference of 1e-6 moves some int8
 * code across a rounding boundary at most positions, a discrete jump.) */
typedef struct dref {
    const tmodel *t;
    double x[N_EMBD], h[N_EMBD], q[N_HEAD * HD], att[N_HEAD * HD];
    double g[N_FF], u[N_FF];
    double k[N_LAYER][CAP][N_HEAD_KV * HD], v[N_LAYER][CAP][N_HEAD_KV * HD];
} dref;

static void dref_rmsnorm(const double *x, const krn_tensor *w, double eps, double *y) {
    double ss = 0;
    for (int i = 0; i < N_EMBD; i++) ss += x[i] * x[i];
    const double scale = 1.0 / sqrt(ss / N_EMBD + eps);
    for (int i = 0; i < N_EMBD; i++) y[i] = x[i] * scale * ((const float *)w->data)[i];
}

/* y[o] (+)= W[o,:]·x (+ bias[o]). */
static void dref_matmul(const krn_tensor *w, const double *x, const krn_tensor *bias,
                        bool accumulate, double *y) {
    const int64_t n = w->ne0;
    float *row = malloc((size_t)n * 4);
    uint64_t rb;
    krn_row_bytes(w->type, n, &rb);
    for (int64_t o = 0; o < w->ne1; o++) {
        krn_dequantize_row(w->type, (const char *)w->data + o * rb, row, n);
        double dot = 0;
        for (int64_t i = 0; i < n; i++) dot += row[i] * x[i];
        if (bias) dot += ((const float *)bias->data)[o];
        y[o] = accumulate ? y[o] + dot : dot;
    }
    free(row);
}

static void dref_rope(double *x, int n_heads, int p) {
    for (int h = 0; h < n_heads; h++)
        for (int i = 0; i < HD / 2; i++) {
            const double th = pow(10000.0, -2.0 * i / HD), c = cos(p * th), s = sin(p * th);
            double *a = &x[h * HD + i], *b = &x[h * HD + i + HD / 2];
            const double a0 = *a, b0 = *b;
            *a = a0 * c - b0 * s;
            *b = a0 * s + b0 * c;
        }
}

static double fp16_round(double v) { return krn_fp16_to_fp32(krn_fp32_to_fp16((float)v)); }

/* Positions t0..p: all of them, or the model's sliding window. */
static void dref_attention(dref *d, int il, int p) {
    double s[CAP];
    const int w = d->t->m.window, t0 = w > 0 && p >= w ? p - w + 1 : 0;
    for (int h = 0; h < N_HEAD; h++) {
        const int kvh = h / (N_HEAD / N_HEAD_KV);
        double mx = -INFINITY, l = 0;
        for (int t = t0; t <= p; t++) {
            double dot = 0;
            for (int i = 0; i < HD; i++) dot += d->q[h * HD + i] * d->k[il][t][kvh * HD + i];
            s[t] = dot / sqrt((double)HD);
            mx = fmax(mx, s[t]);
        }
        for (int t = t0; t <= p; t++) l += s[t] = exp(s[t] - mx);
        for (int i = 0; i < HD; i++) {
            double acc = 0;
            for (int t = t0; t <= p; t++) acc += s[t] * d->v[il][t][kvh * HD + i];
            d->att[h * HD + i] = acc / l;
        }
    }
}

static void dref_layer(dref *d, int il, int p) {
    const krn_layer *l = &d->t->layers[il];
    const double eps = d->t->m.rms_eps;
    double kk[N_HEAD_KV * HD], vv[N_HEAD_KV * HD];
    dref_rmsnorm(d->x, &l->attn_norm, eps, d->h);
    dref_matmul(&l->wq, d->h, &l->bq, false, d->q);
    dref_matmul(&l->wk, d->h, &l->bk, false, kk);
    dref_matmul(&l->wv, d->h, &l->bv, false, vv);
    dref_rope(d->q, N_HEAD, p);
    dref_rope(kk, N_HEAD_KV, p);
    for (int i = 0; i < N_HEAD_KV * HD; i++) {
        d->k[il][p][i] = fp16_round(kk[i]);
        d->v[il][p][i] = fp16_round(vv[i]);
    }
    dref_attention(d, il, p);
    dref_matmul(&l->wo, d->att, NULL, true, d->x);
    dref_rmsnorm(d->x, &l->ffn_norm, eps, d->h);
    dref_matmul(&l->w_gate, d->h, NULL, false, d->g);
    dref_matmul(&l->w_up, d->h, NULL, false, d->u);
    for (int i = 0; i < N_FF; i++) d->g[i] = d->g[i] / (1.0 + exp(-d->g[i])) * d->u[i];
    dref_matmul(&l->w_down, d->g, NULL, true, d->x);
}

/* Logits of seq[0..n) (n <= CAP), one position at a time. */
static void dref_run(const tmodel *t, const int32_t *seq, int n, double *logits) {
    dref *d = calloc(1, sizeof *d);
    d->t = t;
    float row[N_EMBD];
    uint64_t rb;
    krn_row_bytes(t->m.tok_embd.type, N_EMBD, &rb);
    for (int p = 0; p < n; p++) {
        krn_dequantize_row(t->m.tok_embd.type, (const char *)t->m.tok_embd.data + seq[p] * rb,
                           row, N_EMBD);
        for (int i = 0; i < N_EMBD; i++) d->x[i] = row[i];
        for (int il = 0; il < N_LAYER; il++) dref_layer(d, il, p);
        dref_rmsnorm(d->x, &t->m.output_norm, t->m.rms_eps, d->h);
        dref_matmul(&t->m.output, d->h, NULL, false, logits + (size_t)p * N_VOCAB);
    }
    free(d);
}

/* Largest |got - want| over a position, relative to its largest |want|. */
static double worst_rel(const float *got, const double *want, int rows) {
    double worst = 0;
    for (int r = 0; r < rows; r++) {
        double scale = 0, err = 0;
        for (int i = 0; i < N_VOCAB; i++) {
            scale = fmax(scale, fabs(want[r * N_VOCAB + i]));
            err = fmax(err, fabs(got[r * N_VOCAB + i] - want[r * N_VOCAB + i]));
        }
        worst = fmax(worst, err / scale);
    }
    return worst;
}

/* 80 positions (past the first attention chunk). Tolerances, relative to
 * the largest |logit| of the position:
 *   F32 weights: fp32 vs fp64 arithmetic (a few 1e-6 over ~10 chained
 *     roundings and sums of <= 512 terms), plus an fp16 K/V rounding that
 *     lands the other way when fp32 and fp64 differ in the last bits (one
 *     fp16 ulp, 2^-11 relative, in one element); measured 5e-5: allow 2e-4.
 *   quantized weights: int8 activations carry up to 1/254 of their block's
 *     largest value per element, through 2 layers; measured 2e-2 at most
 *     over these seeds and types: allow 5e-2. A structural bug (a wrong
 *     head, position or slot) costs O(1). */
static void check_vs_double(const tm_types *ty, double tol, uint64_t seed,
                            int32_t window, int n) {
    enum { N = CAP };
    assert_true(n <= N);
    tmodel *t = tm_small(ty, seed);
    t->m.window = window;
    krn_backend *b = backend(t, 2);
    int32_t seq[N];
    make_seq(seq, N, seed);
    float *got = logits_alloc(N);
    double *want = malloc((size_t)N * N_VOCAB * sizeof *want);
    run_chunked(b, seq, n, 32, got);
    dref_run(t, seq, n, want);
    const double worst = worst_rel(got, want, n);
    print_message("  worst relative logit error %.3g (tolerance %.3g)\n", worst, tol);
    assert_true(worst <= tol);
    free(got), free(want);
    krn_destroy(b);
    tm_free(t);
}

static void test_vs_double_f32(void **state) {
    (void)state;
    tm_types ty = tm_uniform_types(KRN_F32, false);
    check_vs_double(&ty, 2e-4, 30, 0, 80);
}

static void test_vs_double_mixed(void **state) {
    (void)state;
    check_vs_double(&MIXED, 5e-2, 31, 0, 80);
    tm_types ty = tm_uniform_types(KRN_Q8_0, true);
    check_vs_double(&ty, 5e-2, 32, 0, 80);
}

/* ---- sliding window ------------------------------------------------------------ */

enum { WINDOW = 40 }; /* ring of 40 + 63 = 103 slots: 150 positions wrap it */

/* The window's meaning: 150 positions against the float64 pass that only
 * looks back WINDOW positions (same tolerance as without a window). */
static void test_window_vs_double(void **state) {
    (void)state;
    tm_types ty = tm_uniform_types(KRN_F32, false);
    assert_int_equal(krn_kv_slots(&(krn_model){.window = WINDOW}, CAP, 0), WINDOW + 63);
    check_vs_double(&ty, 2e-4, 33, WINDOW, 150);
}

/* The ring: the same bits as a cache with a slot for every position, across
 * the wrap, in steps of 1..64 rows, with rejected verify rows rolled back. */
static void test_window_ring_bits(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 34);
    t->m.window = WINDOW;
    sb_err err = {0};
    krn_backend *full = krn_cpu_create(&t->m, &(krn_options){.n_threads = 2,
                                       .kv_capacity = CAP, .kv_slots = CAP}, &err);
    krn_backend *ring = krn_cpu_create(&t->m, &(krn_options){.n_threads = 2,
                                       .kv_capacity = CAP}, &err);
    assert_non_null(full);
    assert_non_null(ring);
    enum { N = 155 };
    int32_t seq[N], junk[N + KRN_MAX_ROWS];
    make_seq(seq, N, 5);
    make_seq(junk, N + KRN_MAX_ROWS, 6);
    float *ref = logits_alloc(N), *got = logits_alloc(N), *scratch = logits_alloc(64);
    run_chunked(full, seq, N, 64, ref);
    const int steps[] = {1, 7, 64, 3, 64, 16}; /* 155 positions in all */
    for (int p = 0, i = 0; p < N; p += steps[i++]) {
        const int n = N - p < steps[i] ? N - p : steps[i];
        const int draft = n + 1 < 64 ? n + 1 : 64;
        if (p > 0) step_seq(ring, junk, p, draft, scratch); /* rejected at p.. */
        step_seq(ring, seq, p, n, got + (size_t)p * N_VOCAB); /* ..and redone */
    }
    assert_memory_equal(got, ref, N * ROW_BYTES);
    assert_sane(got, N);
    free(ref), free(got), free(scratch);
    krn_destroy(full);
    krn_destroy(ring);
    tm_free(t);
}

/* A window changes what a late row sees: its logits differ from the
 * windowless model's once the position is past the window. */
static void test_window_masks(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 35);
    int32_t seq[100];
    make_seq(seq, 100, 7);
    float *plain = logits_alloc(100), *windowed = logits_alloc(100);
    krn_backend *b = backend(t, 2);
    run_chunked(b, seq, 100, 50, plain);
    krn_destroy(b);
    t->m.window = WINDOW;
    b = backend(t, 2);
    run_chunked(b, seq, 100, 50, windowed);
    assert_memory_equal(plain, windowed, WINDOW * ROW_BYTES);
    assert_memory_not_equal(plain + 99 * N_VOCAB, windowed + 99 * N_VOCAB, ROW_BYTES);
    krn_destroy(b);
    free(plain), free(windowed);
    tm_free(t);
}

/* kv_slots below what the window needs, or beyond the context, is refused. */
static void test_window_bad_slots(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 36);
    t->m.window = WINDOW;
    sb_err err = {0};
    assert_null(krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = CAP,
                               .kv_slots = WINDOW + 62}, &err));
    assert_non_null(strstr(err.msg, "kv_slots"));
    assert_null(krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = CAP,
                               .kv_slots = CAP + 1}, &err));
    t->m.window = -1;
    assert_null(krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = CAP},
                               &err));
    assert_non_null(strstr(err.msg, "window"));
    tm_free(t);
}

/* ---- batches above 64 rows (long prefill chunks) ------------------------------ */

enum { LONG_N = 700, LONG_DECODE = 4, LONG_CAP = LONG_N + LONG_DECODE };

static krn_backend *backend_rows(const tmodel *t, int32_t cap, int32_t max_rows,
                                 int32_t kv_slots) {
    sb_err err = {0};
    krn_backend *b = krn_cpu_create(&t->m, &(krn_options){.n_threads = 2,
                                    .kv_capacity = cap, .kv_slots = kv_slots,
                                    .max_batch_rows = max_rows}, &err);
    if (!b) fail_msg("krn_cpu_create (max_batch_rows %d): %s", (int)max_rows, err.msg);
    return b;
}

/* Prefills seq[0..LONG_N) on b in chunks of `chunk` rows, each asking for
 * the logits of its last min(rows, 64) rows (the most a batch above 64
 * rows may: kernels.h, krn_logits_row0), then decodes LONG_DECODE more
 * positions a row at a time; every row computed must equal `ref` (every
 * position's logits, computed a row a step on a cache of its own) bit for
 * bit: the chunk's K/V and logits, and the later rows that read the cache. */
static void check_long_chunks(krn_backend *b, const int32_t *seq, int chunk,
                              const float *ref) {
    float *got = logits_alloc(KRN_MAX_ROWS);
    static int32_t pos[KRN_MAX_BATCH_ROWS];
    for (int p = 0; p < LONG_N; p += chunk) {
        const int rows = LONG_N - p < chunk ? LONG_N - p : chunk;
        const int row0 = krn_logits_row0(rows);
        for (int r = 0; r < rows; r++) pos[r] = p + r;
        step_from(b, rows, seq + p, pos, got, row0);
        if (memcmp(got, ref + (size_t)(p + row0) * N_VOCAB, (size_t)(rows - row0) * ROW_BYTES))
            fail_msg("chunk of %d rows at %d (chunks of %d): logits differ", rows, p, chunk);
    }
    for (int p = LONG_N; p < LONG_CAP; p++) {
        step_seq(b, seq, p, 1, got);
        if (memcmp(got, ref + (size_t)p * N_VOCAB, ROW_BYTES))
            fail_msg("decode at %d after chunks of %d: logits differ", p, chunk);
    }
    free(got);
}

/* Chunk invariance holds for any batch size: 700 positions prefilled in
 * chunks of 64, 256, 300 and 1,024 rows (backends made for 256, 300 and
 * 1,024) give the bits of one row a step, for the chunks' rows with logits
 * and for the rows decoded after them. The fused matmul kernels take 64
 * rows at a time (qdot.h), so chunks of 256 and 300 run them over several
 * slabs, 300 over a partial last one. */
static void test_long_chunks(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 40);
    int32_t seq[LONG_CAP];
    make_seq(seq, LONG_CAP, 41);
    float *ref = logits_alloc(LONG_CAP);
    krn_backend *b = backend_rows(t, LONG_CAP, 0, 0);
    run_chunked(b, seq, LONG_CAP, 1, ref);
    assert_sane(ref, LONG_CAP);
    check_long_chunks(b, seq, 64, ref);
    krn_destroy(b);
    const int chunks[] = {256, 300, 1024};
    for (int i = 0; i < 3; i++) {
        b = backend_rows(t, LONG_CAP, chunks[i], 0);
        check_long_chunks(b, seq, chunks[i], ref);
        if (chunks[i] == 300) check_long_chunks(b, seq, 7, ref); /* small ones too */
        krn_destroy(b);
    }
    free(ref);
    tm_free(t);
}

/* The limits of a large batch, each refused by name: more rows than the
 * backend was made for; logits asked of a row before the last 64; a
 * max_batch_rows out of range at create. */
static void test_long_batch_limits(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 42);
    static int32_t tok[KRN_MAX_BATCH_ROWS + 1], pos[KRN_MAX_BATCH_ROWS + 1];
    for (int r = 0; r <= KRN_MAX_BATCH_ROWS; r++) tok[r] = r % N_VOCAB, pos[r] = r;
    float *got = logits_alloc(KRN_MAX_ROWS);
    krn_backend *b = backend_rows(t, 200, 100, 0);
    krn_batch batch = {.n_rows = 101, .tokens = tok, .pos = pos, .logits = got,
                       .logits_from = 37};
    expect_refused(b, &batch, "n_rows is 101; expected 1..100 (the backend's max_batch_rows)");
    batch.n_rows = 100, batch.logits_from = 35;
    expect_refused(b, &batch, "logits_from is 35 for a batch of 100 rows; expected >= 36");
    batch.logits_from = 0;
    expect_refused(b, &batch, "expected >= 36");
    batch.logits_from = 36; /* exactly the last 64 rows */
    sb_err err = {0};
    assert_int_equal(krn_forward(b, &batch, &err), 0);
    assert_sane(got, KRN_MAX_ROWS);
    krn_destroy(b);
    const int32_t bad[] = {-1, KRN_MAX_BATCH_ROWS + 1};
    for (int i = 0; i < 2; i++) {
        err = (sb_err){0};
        assert_null(krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = CAP,
                                   .max_batch_rows = bad[i]}, &err));
        assert_non_null(strstr(err.msg, "max_batch_rows"));
    }
    /* Below 64, max_batch_rows is 64: a verify step's rows always fit. */
    b = backend_rows(t, CAP, 16, 0);
    batch = (krn_batch){.n_rows = KRN_MAX_ROWS, .tokens = tok, .pos = pos, .logits = got};
    assert_int_equal(krn_forward(b, &batch, &err), 0);
    krn_destroy(b);
    /* The largest batch: 1,024 rows, logits of the last 64. */
    b = backend_rows(t, KRN_MAX_BATCH_ROWS, KRN_MAX_BATCH_ROWS, 0);
    batch = (krn_batch){.n_rows = KRN_MAX_BATCH_ROWS, .tokens = tok, .pos = pos,
                        .logits = got, .logits_from = KRN_MAX_BATCH_ROWS - KRN_MAX_ROWS};
    assert_int_equal(krn_forward(b, &batch, &err), 0);
    assert_sane(got, KRN_MAX_ROWS);
    krn_destroy(b);
    free(got);
    tm_free(t);
}

/* A sliding window with batches above 64 rows: the ring is window + B - 1
 * slots for a backend made for B rows, so a chunk of B rows overwrites
 * nothing its own first row reads; 700 positions in chunks of 200 wrap
 * the ring of 239 slots and give the bits of a cache with a slot for every
 * position stepped a row at a time. A ring sized for 64-row steps is
 * refused for such a backend. */
static void test_window_long_chunks(void **state) {
    (void)state;
    tmodel *t = tm_small(&MIXED, 43);
    t->m.window = WINDOW;
    assert_int_equal(krn_kv_slots(&t->m, LONG_CAP, 200), WINDOW + 199);
    assert_int_equal(krn_kv_slots(&t->m, LONG_CAP, 0), WINDOW + 63);
    int32_t seq[LONG_CAP];
    make_seq(seq, LONG_CAP, 44);
    float *ref = logits_alloc(LONG_CAP);
    krn_backend *full = backend_rows(t, LONG_CAP, 0, LONG_CAP);
    run_chunked(full, seq, LONG_CAP, 1, ref);
    assert_sane(ref, LONG_CAP);
    krn_destroy(full);
    krn_backend *ring = backend_rows(t, LONG_CAP, 200, 0);
    check_long_chunks(ring, seq, 200, ref);
    krn_destroy(ring);
    sb_err err = {0};
    assert_null(krn_cpu_create(&t->m, &(krn_options){.n_threads = 1, .kv_capacity = LONG_CAP,
                               .kv_slots = WINDOW + 63, .max_batch_rows = 200}, &err));
    assert_non_null(strstr(err.msg, "kv_slots"));
    free(ref);
    tm_free(t);
}

static void test_shape_constants(void **state) {
    (void)state;
    const tm_shape want = {N_LAYER, N_EMBD, N_FF, N_HEAD, N_HEAD_KV, HD, N_VOCAB};
    assert_memory_equal(&TM_SMALL, &want, sizeof want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_constants),
        cmocka_unit_test(test_buckets_mixed),
        cmocka_unit_test(test_buckets_q4_k_tied),
        cmocka_unit_test(test_thread_counts),
        cmocka_unit_test(test_prefill_chunking),
        cmocka_unit_test(test_rollback),
        cmocka_unit_test(test_logits_from_rows),
        cmocka_unit_test(test_logits_from_keeps_cache),
        cmocka_unit_test(test_bad_batches),
        cmocka_unit_test(test_long_chunks),
        cmocka_unit_test(test_long_batch_limits),
        cmocka_unit_test(test_window_long_chunks),
        cmocka_unit_test(test_create_refuses_bad_models),
        cmocka_unit_test(test_create_out_of_memory),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_vs_double_f32),
        cmocka_unit_test(test_vs_double_mixed),
        cmocka_unit_test(test_window_vs_double),
        cmocka_unit_test(test_window_ring_bits),
        cmocka_unit_test(test_window_masks),
        cmocka_unit_test(test_window_bad_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
