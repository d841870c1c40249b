/*
 * The CUDA backend against the CPU reference (kernels.h §4), bit for bit:
 * the canonical arithmetic (kernels.h §2) promises that both backends give
 * the same logits, so every comparison here is a memcmp. Tiny models are
 * built in memory with seeded random weights, as tests/kernels/
 * test_cpu_forward.c builds them, in every weight type the engine reads.
 *
 * Covered: each type (embedding dequantization and matmul) alone and mixed,
 * tied and untied; single rows; every row bucket 1..16, 24, 32, 48, 64 with
 * the rows in shifted and reversed orders; prefill in one step, in chunks and
 * token by token, and with logits from one row on or none
 * (krn_batch.logits_from); rollback (slots overwritten by a rejected draft,
 * then recomputed); 300 positions (five attention chunks); a sliding window
 * across its ring's wrap; the quantized matmuls with and without K split
 * across blocks over every bucket, and the K-quants' decode kernel off,
 * on up to 16 rows, and with fewer warps than chunks; activation groups of
 * 32 and 256; the attention kernels forced (krn_options.tuning.attention
 * rows, split) and chosen per step (auto, the default every other test runs) over
 * verify runs of 1..64 rows up to 1100 positions, with and without a
 * window; prefill chunks of 256 and 300 rows (a backend made for them,
 * krn_options.max_batch_rows) with every attention kernel, with and
 * without a window, and one step of 1,024 rows; a clean error for a KV
 * cache the GPU cannot hold.
 * And whole generations through the engine: the GPU gives the CPU's tokens,
 * with speculation off, with random drafts of every length 1..63, and with
 * the copy drafter, greedy and seeded. The prefix cache: a CUDA session
 * that keeps k tokens of its previous prompt (every k) gives the logits of a
 * cold CPU prefill.
 *
 * Built and run only by `make test-gpu`. Without a usable GPU it prints
 * "SKIPPED: no CUDA GPU (<reason>)" and exits 0.
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

#include "../../drafter/drafter.h"
#include "../../engine/engine.h"
#include "../../kernels/kernels.h"
#include "../support/mem_model.h"
#include "../support/tiny_model.h"

enum { MAX_SEQ = 320 };

/* ---- tiny models (tests/support/mem_model.h) ------------------------------ */

/* SMALL is test_cpu_forward.c's shape. WIDE has rows of 40 to 72 blocks, so
 * lanes own several blocks each (a lane-order bug shows only there), head
 * dim 128 with 4 query heads per KV head, and a vocabulary that leaves the
 * last block of output warps partly empty. */
static const tm_shape WIDE = {2, 1280, 2304, 4, 1, 128, 517};
#define SMALL TM_SMALL


/* Every type in one model, untied. */
static const tm_types MIXED = {.embd = KRN_BF16, .out = KRN_F16, .q = KRN_Q4_K,
                             .k = KRN_Q6_K, .v = KRN_Q8_0, .o = KRN_Q5_0,
                             .gate = KRN_F32, .up = KRN_Q4_1, .down = KRN_Q5_K};
/* The rest of the types, and Q4_K_M's pairing (Q6_K beside Q4_K). */
static const tm_types MIXED2 = {.embd = KRN_Q5_1, .out = KRN_Q6_K, .q = KRN_Q4_0,
                              .k = KRN_Q5_1, .v = KRN_Q6_K, .o = KRN_Q4_K,
                              .gate = KRN_F16, .up = KRN_BF16, .down = KRN_Q6_K};


/* ---- the two backends --------------------------------------------------------- */

typedef struct duo {
    tmodel *t;
    krn_backend *cpu, *gpu;
    size_t row_bytes; /* bytes of one row of logits */
} duo;

/* The kernel switches (krn_options.tuning) every duo's GPU backend is made
 * with: zeroed (the defaults) but in the tests that set them, whose
 * teardown (duo_tuning_reset) zeroes them again even when the test fails
 * part-way, so that a failure cannot change the kernels of the tests after
 * it. */
static krn_tuning duo_tuning;

static int duo_tuning_reset(void **state) {
    (void)state;
    duo_tuning = (krn_tuning){0};
    return 0;
}

/* window: the model's sliding window (0: none). */
static duo duo_create_window(const tm_shape *sh, const tm_types *ty, uint64_t seed,
                             int32_t cap, int32_t window) {
    duo d = {.t = tm_create(sh, ty, seed)};
    d.t->m.window = window;
    sb_err err = {0};
    const krn_options opt = {.n_threads = 2, .kv_capacity = cap};
    d.cpu = krn_cpu_create(&d.t->m, &opt, &err);
    if (!d.cpu) fail_msg("krn_cpu_create: %s", err.msg);
    const krn_options gpu_opt = {.kv_capacity = cap, .tuning = duo_tuning};
    d.gpu = krn_cuda_create(&d.t->m, &gpu_opt, &err);
    if (!d.gpu) fail_msg("krn_cuda_create: %s", err.msg);
    assert_string_equal(krn_backend_name(d.gpu), "cuda");
    d.row_bytes = (size_t)sh->n_vocab * sizeof(float);
    return d;
}

static duo duo_create(const tm_shape *sh, const tm_types *ty, uint64_t seed, int32_t cap) {
    return duo_create_window(sh, ty, seed, cap, 0);
}

static void duo_free(duo *d) {
    krn_destroy(d->cpu);
    krn_destroy(d->gpu);
    tm_free(d->t);
}

/* A step whose rows from `from` on want logits (krn_batch.logits_from). */
static void step_from(krn_backend *b, int n, const int32_t *tok, const int32_t *pos,
                      float *logits, int from) {
    sb_err err = {0};
    const krn_batch batch = {.n_rows = n, .tokens = tok, .pos = pos, .logits = logits,
                             .logits_from = from};
    if (krn_forward(b, &batch, &err))
        fail_msg("krn_forward (%s, %d rows): %s", krn_backend_name(b), n, err.msg);
}

static void step(krn_backend *b, int n, const int32_t *tok, const int32_t *pos,
                 float *logits) {
    step_from(b, n, tok, pos, logits, 0);
}

/* Rows [p0, p0+n) of seq as one step; logits row r -> out + r*V. */
static void step_seq(krn_backend *b, const int32_t *seq, int p0, int n, float *out) {
    int32_t pos[KRN_MAX_ROWS];
    for (int r = 0; r < n; r++) pos[r] = p0 + r;
    step(b, n, seq + p0, pos, out);
}

/* All logits of seq[0..n) in steps of `chunk` rows. */
static void run_chunked(const duo *d, krn_backend *b, const int32_t *seq, int n,
                        int chunk, float *out) {
    for (int p = 0; p < n; p += chunk) {
        const int rows = n - p < chunk ? n - p : chunk;
        step_seq(b, seq, p, rows, (float *)((char *)out + (size_t)p * d->row_bytes));
    }
}

static void make_seq(int32_t *seq, int n, int n_vocab, uint64_t seed) {
    for (int i = 0; i < n; i++)
        seq[i] = (int32_t)(sb_hash3(seed, (uint64_t)i, 1) % (uint64_t)n_vocab);
}

static float *logits_alloc(const duo *d, int rows) {
    float *p = malloc((size_t)rows * d->row_bytes);
    assert_non_null(p);
    return p;
}

static const float *row_at(const duo *d, const float *l, int r) {
    return (const float *)((const char *)l + (size_t)r * d->row_bytes);
}

/* Fails unless GPU row `got` equals CPU row `want` bit for bit; the message
 * names the case, the first differing logit and the largest difference. */
static void expect_same_row(const duo *d, const float *want, const float *got,
                            const char *what, int r, int pos) {
    if (!memcmp(want, got, d->row_bytes)) return;
    const int V = d->t->s.n_vocab;
    int first = -1;
    double worst = 0;
    for (int i = 0; i < V; i++) {
        if (memcmp(&want[i], &got[i], sizeof(float)) && first < 0) first = i;
        worst = fmax(worst, fabs((double)want[i] - (double)got[i]));
    }
    fail_msg("%s: row %d (pos %d): logit %d is %a on the GPU, %a on the CPU "
             "(largest difference %g)", what, r, pos, first, (double)got[first],
             (double)want[first], worst);
}

/* Logits are finite and not constant: the model actually computed. */
static void assert_sane(const duo *d, const float *l, int rows) {
    const int V = d->t->s.n_vocab;
    for (int r = 0; r < rows; r++) {
        const float *x = row_at(d, l, r);
        float lo = x[0], hi = x[0];
        for (int i = 0; i < V; i++) {
            assert_true(isfinite(x[i]));
            lo = fminf(lo, x[i]), hi = fmaxf(hi, x[i]);
        }
        assert_true(hi - lo > 0.1f);
    }
}

/* ---- weight types ---------------------------------------------------------------- */

/* N_SINGLE single-row steps, then a 16-row batch, then a 5-row batch in
 * reverse order, on both backends: every row the same bits. */
static void check_types(const tm_shape *sh, const tm_types *ty, uint64_t seed,
                        const char *name) {
    enum { N_SINGLE = 12, N = N_SINGLE + 16 + 5 };
    duo d = duo_create(sh, ty, seed, 64);
    int32_t seq[N], pos[5], tok[5];
    make_seq(seq, N, sh->n_vocab, seed);
    float *want = logits_alloc(&d, 16), *got = logits_alloc(&d, 16);
    char what[96];
    for (int p = 0; p < N_SINGLE; p++) {
        step_seq(d.cpu, seq, p, 1, want);
        step_seq(d.gpu, seq, p, 1, got);
        snprintf(what, sizeof what, "%s, single row", name);
        expect_same_row(&d, want, got, what, 0, p);
    }
    step_seq(d.cpu, seq, N_SINGLE, 16, want);
    step_seq(d.gpu, seq, N_SINGLE, 16, got);
    assert_sane(&d, want, 16);
    snprintf(what, sizeof what, "%s, 16-row batch", name);
    for (int r = 0; r < 16; r++)
        expect_same_row(&d, row_at(&d, want, r), row_at(&d, got, r), what, r, N_SINGLE + r);
    for (int r = 0; r < 5; r++) pos[r] = N - 1 - r, tok[r] = seq[pos[r]];
    step(d.cpu, 5, tok, pos, want);
    step(d.gpu, 5, tok, pos, got);
    snprintf(what, sizeof what, "%s, reversed 5-row batch", name);
    for (int r = 0; r < 5; r++)
        expect_same_row(&d, row_at(&d, want, r), row_at(&d, got, r), what, r, pos[r]);
    free(want), free(got);
    duo_free(&d);
}

/* Each type as every tensor of a model (so also as the embedding), the
 * first, fourth, ... tied. */
static void test_each_type(void **state) {
    (void)state;
    const krn_type types[] = {KRN_F32, KRN_F16, KRN_BF16, KRN_Q4_0, KRN_Q4_1,
                              KRN_Q5_0, KRN_Q5_1, KRN_Q8_0, KRN_Q4_K, KRN_Q5_K,
                              KRN_Q6_K};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        const tm_types ty = tm_uniform_types(types[i], i % 3 == 0);
        char name[48];
        snprintf(name, sizeof name, "all %s%s", krn_type_name(types[i]),
                 i % 3 == 0 ? " (tied)" : "");
        check_types(&SMALL, &ty, 40 + i, name);
    }
}

static void test_mixed_types(void **state) {
    (void)state;
    check_types(&SMALL, &MIXED, 60, "mixed");
    check_types(&SMALL, &MIXED2, 61, "mixed2");
    check_types(&WIDE, &MIXED, 62, "wide mixed");
    check_types(&WIDE, &MIXED2, 63, "wide mixed2");
}

/* ---- buckets --------------------------------------------------------------------- */

enum { SEQ_LEN = 100 };

/* The CPU computes each position alone (one row per step), and so does the
 * GPU at first (filling its KV cache); then the GPU runs the same rows
 * inside batches of every bucket size, starting at varying
 * positions, with the rows rotated by a varying amount (odd sizes also
 * reversed), so the row of interest lands at many places. Before each
 * batch the GPU fills the slots it will write with other tokens (a
 * rejected draft), so rows that failed to see each other's fresh keys
 * would read those and differ. */
static void check_buckets(const tm_shape *sh, const tm_types *ty, uint64_t seed,
                          const char *name) {
    const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                         24, 32, 48, 64};
    duo d = duo_create(sh, ty, seed, SEQ_LEN);
    int32_t seq[SEQ_LEN], junk[SEQ_LEN], pos[KRN_MAX_ROWS], tok[KRN_MAX_ROWS];
    make_seq(seq, SEQ_LEN, sh->n_vocab, seed);
    for (int i = 0; i < SEQ_LEN; i++) junk[i] = (seq[i] + 17) % sh->n_vocab;
    float *ref = logits_alloc(&d, SEQ_LEN), *got = logits_alloc(&d, KRN_MAX_ROWS);
    run_chunked(&d, d.cpu, seq, SEQ_LEN, 1, ref);
    assert_sane(&d, ref, SEQ_LEN);
    char what[96];
    snprintf(what, sizeof what, "%s, single rows", name);
    for (int p = 0; p < SEQ_LEN; p++) { /* also the GPU's KV cache for seq */
        step_seq(d.gpu, seq, p, 1, got);
        expect_same_row(&d, row_at(&d, ref, p), got, what, 0, p);
    }
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const int n = sizes[si], p0 = (n * 13 + 5) % (SEQ_LEN - n + 1);
        const int rot = (int)(si * 7) % n;
        step_seq(d.gpu, junk, p0, n, got);
        for (int r = 0; r < n; r++) {
            const int k = (r + rot) % n;
            pos[r] = n % 2 ? p0 + n - 1 - k : p0 + k;
            tok[r] = seq[pos[r]];
        }
        step(d.gpu, n, tok, pos, got);
        snprintf(what, sizeof what, "%s, batch of %d rows from %d", name, n, p0);
        for (int r = 0; r < n; r++)
            expect_same_row(&d, row_at(&d, ref, pos[r]), row_at(&d, got, r), what, r, pos[r]);
    }
    free(ref), free(got);
    duo_free(&d);
}

static void test_buckets_mixed(void **state) {
    (void)state;
    check_buckets(&SMALL, &MIXED, 11, "mixed");
}

/* The tensor types of a Q4_K_M file: Q4_K, with Q6_K for V, down and the
 * output. */
static tm_types q4_k_m_types(void) {
    tm_types ty = tm_uniform_types(KRN_Q4_K, false);
    ty.v = ty.down = ty.out = KRN_Q6_K;
    return ty;
}

static void test_buckets_wide_q4_k_m(void **state) {
    (void)state;
    const tm_types ty = q4_k_m_types();
    check_buckets(&WIDE, &ty, 12, "wide q4_K_M");
}

/* A row read by both kinds of weights is quantized both ways (kernels.h
 * §2: groups of 256 for the K-quants, 32 for the rest): the 32-element
 * types over a 384-wide model (as the demo model's, whose rows are no whole
 * super-blocks) beside a K-quant down matrix (rows of 1536), and mixed
 * kinds on one input (q Q4_K beside k Q8_0, gate Q5_K beside up Q4_0). */
static void test_buckets_activation_groups(void **state) {
    (void)state;
    static const tm_shape ODD = {2, 384, 1536, 6, 2, 64, 300};
    const tm_types legacy = {.embd = KRN_Q8_0, .out = KRN_Q8_0, .q = KRN_Q4_0,
                             .k = KRN_Q4_1, .v = KRN_Q5_0, .o = KRN_Q5_1,
                             .gate = KRN_Q8_0, .up = KRN_Q5_1, .down = KRN_Q6_K};
    check_buckets(&ODD, &legacy, 14, "groups of 32");
    const tm_types q8 = tm_uniform_types(KRN_Q8_0, true);
    check_buckets(&ODD, &q8, 15, "groups of 32, q8_0 tied");
    const tm_types both = {.embd = KRN_Q6_K, .out = KRN_Q4_1, .q = KRN_Q4_K,
                           .k = KRN_Q8_0, .v = KRN_Q6_K, .o = KRN_Q5_0,
                           .gate = KRN_Q5_K, .up = KRN_Q4_0, .down = KRN_Q4_K};
    check_buckets(&SMALL, &both, 16, "both groups on one input");
}

/* The buckets again with the quantized matmuls' K never split across
 * blocks (krn_tuning.no_matmul_split; kernels/cuda/cuda_backend.h). These
 * tiny models' grids are small, so every other test runs the split
 * launches (each block one chunk, the last block folding): both the CPU's
 * bits. */
static void test_buckets_matmul_kernels(void **state) {
    (void)state;
    const tm_types ty = q4_k_m_types(), q5 = tm_uniform_types(KRN_Q5_K, false);
    duo_tuning = (krn_tuning){.no_matmul_split = true};
    check_buckets(&WIDE, &ty, 12, "wide q4_K_M, matmul split off");
    check_buckets(&SMALL, &MIXED, 11, "mixed, matmul split off");
    check_buckets(&WIDE, &q5, 13, "wide q5_K, matmul split off");
}

/* The buckets with the K-quants' decode kernel (mmvq.cu) off, taking
 * every step of up to 16 rows, and so with its tiles given a warp or two
 * each walking several chunks (krn_tuning.mmvq_rows, by default steps of up
 * to 8 rows; mmvq_warps 1): the CPU's bits each way. */
static void test_buckets_decode_kernel(void **state) {
    (void)state;
    static const krn_tuning cases[] = {{.mmvq_rows = KRN_TUNE_NONE},
                                       {.mmvq_rows = 16},
                                       {.mmvq_rows = 16, .mmvq_warps = 1}};
    const tm_types ty = q4_k_m_types(), q6 = tm_uniform_types(KRN_Q6_K, false);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[96];
        duo_tuning = cases[i];
        snprintf(name, sizeof name, "mmvq_rows %d, mmvq_warps %d", (int)cases[i].mmvq_rows,
                 (int)cases[i].mmvq_warps);
        check_buckets(&WIDE, &ty, 12, name);
        check_buckets(&SMALL, &MIXED, 11, name);
        check_buckets(&WIDE, &q6, 17, name);
    }
}

/* ---- chunking, rollback, long context ------------------------------------------- */

enum { PREFILL_N = 64 };

/* Prefill as the engine runs it (krn_batch.logits_from), on d's GPU: chunks
 * that want no logits (the GPU skips the output norm and LM head) still
 * write their K/V, and a chunk whose rows from k on want logits gives
 * those rows want's bits (the CPU's), the rows before it left as they
 * were. */
static void check_logits_from(const duo *d, const int32_t *seq, const float *want, float *got,
                              const char *name) {
    enum { N = PREFILL_N };
    const int chunks[] = {16, 24, 64, 1};
    for (int ci = 0; ci < 4; ci++) {
        const int chunk = chunks[ci];
        for (int p = 0; p < N; p += chunk) {
            const int rows = N - p < chunk ? N - p : chunk;
            const bool last = p + rows == N;
            const int from = last ? rows / 2 : rows; // none before the last chunk
            int32_t pos[KRN_MAX_ROWS];
            for (int r = 0; r < rows; r++) pos[r] = p + r;
            memset(got, 0xA5, (size_t)rows * d->row_bytes);
            step_from(d->gpu, rows, seq + p, pos, got, from);
            char what[96];
            snprintf(what, sizeof what, "%s, chunks of %d, logits from row %d", name, chunk, from);
            for (int r = 0; r < rows; r++) {
                if (r >= from) {
                    expect_same_row(d, row_at(d, want, p + r), row_at(d, got, r), what, r, p + r);
                    continue;
                }
                const unsigned char *bytes = (const unsigned char *)row_at(d, got, r);
                for (size_t i = 0; i < d->row_bytes; i++)
                    if (bytes[i] != 0xA5) fail_msg("%s: row %d before it was written", what, r);
            }
        }
    }
}

/* A 64-token prompt in one step, in chunks of 7 and token by token on the
 * GPU: every position the same bits as the CPU's one-step prefill; then
 * with logits from one row on or none (check_logits_from). */
static void check_chunking(const tm_shape *sh, const tm_types *ty, uint64_t seed,
                           const char *name) {
    enum { N = PREFILL_N };
    duo d = duo_create(sh, ty, seed, N);
    int32_t seq[N];
    make_seq(seq, N, sh->n_vocab, seed);
    float *want = logits_alloc(&d, N), *got = logits_alloc(&d, N);
    run_chunked(&d, d.cpu, seq, N, N, want);
    assert_sane(&d, want, N);
    const int chunks[] = {N, 7, 1};
    char what[96];
    for (int ci = 0; ci < 3; ci++) {
        run_chunked(&d, d.gpu, seq, N, chunks[ci], got);
        snprintf(what, sizeof what, "%s, prefill in steps of %d", name, chunks[ci]);
        for (int p = 0; p < N; p++)
            expect_same_row(&d, row_at(&d, want, p), row_at(&d, got, p), what, p, p);
    }
    check_logits_from(&d, seq, want, got, name);
    free(want), free(got);
    duo_free(&d);
}

static void test_prefill_chunking(void **state) {
    (void)state;
    check_chunking(&SMALL, &MIXED, 13, "mixed");
    check_chunking(&WIDE, &MIXED2, 14, "wide mixed2");
}

/* Slots 40..50 overwritten by a rejected draft, then recomputed, and the
 * sequence continued: the GPU gives what the undisturbed CPU run gave. */
static void test_rollback(void **state) {
    (void)state;
    enum { N = 90 };
    duo d = duo_create(&SMALL, &MIXED2, 14, N);
    int32_t seq[N], draft[N];
    make_seq(seq, N, SMALL.n_vocab, 3);
    make_seq(draft, N, SMALL.n_vocab, 4);
    float *ref = logits_alloc(&d, N), *got = logits_alloc(&d, N);
    run_chunked(&d, d.cpu, seq, N, 30, ref);
    run_chunked(&d, d.gpu, seq, 40, 40, got);
    step_seq(d.gpu, draft, 40, 11, (float *)row_at(&d, got, 40)); /* rejected */
    step_seq(d.gpu, seq, 40, 11, (float *)row_at(&d, got, 40));
    for (int p = 51; p < N; p += 13) {
        const int n = N - p < 13 ? N - p : 13;
        step_seq(d.gpu, seq, p, n, (float *)row_at(&d, got, p));
    }
    for (int p = 0; p < N; p++)
        expect_same_row(&d, row_at(&d, ref, p), row_at(&d, got, p), "rollback", p, p);
    free(ref), free(got);
    duo_free(&d);
}

/* 300 positions: five attention chunks of 64, the last partial. The CPU
 * prefills in steps of 50, the GPU in steps of 64 (so chunk and step
 * boundaries differ), then the GPU recomputes the last 12 positions one by
 * one (rewriting their slots with the same keys). */
static void check_long_context(const char *name) {
    enum { N = 300 };
    duo d = duo_create(&SMALL, &MIXED, 15, MAX_SEQ);
    int32_t seq[N];
    make_seq(seq, N, SMALL.n_vocab, 5);
    float *want = logits_alloc(&d, N), *got = logits_alloc(&d, N);
    run_chunked(&d, d.cpu, seq, N, 50, want);
    assert_sane(&d, want, N);
    run_chunked(&d, d.gpu, seq, N, 64, got);
    for (int p = 0; p < N; p++)
        expect_same_row(&d, row_at(&d, want, p), row_at(&d, got, p), name, p, p);
    char what[96];
    snprintf(what, sizeof what, "%s, single rows", name);
    for (int p = N - 12; p < N; p++) {
        step_seq(d.gpu, seq, p, 1, got);
        expect_same_row(&d, row_at(&d, want, p), got, what, 0, p);
    }
    free(want), free(got);
    duo_free(&d);
}

static void test_long_context(void **state) {
    (void)state;
    check_long_context("300 positions");
}

/* Kernels starting during the tail of the one before
 * (krn_tuning.launch_overlap, common.cuh) for none of the kernels and for
 * all of them (the default, a subset, is what the other tests run): the
 * buckets and the long context give the CPU's bits either way, so no
 * kernel reads what the kernel before it has not finished writing. */
static void test_launch_overlap(void **state) {
    (void)state;
    static const int32_t masks[] = {KRN_TUNE_NONE, KRN_LAUNCH_OVERLAP_ALL};
    const tm_types ty = q4_k_m_types();
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        char name[96];
        const int mask = masks[i] == KRN_TUNE_NONE ? 0 : (int)masks[i];
        duo_tuning = (krn_tuning){.launch_overlap = masks[i]};
        snprintf(name, sizeof name, "wide q4_K_M, launch overlap mask %d", mask);
        check_buckets(&WIDE, &ty, 12, name);
        snprintf(name, sizeof name, "mixed, launch overlap mask %d", mask);
        check_buckets(&SMALL, &MIXED, 11, name);
        snprintf(name, sizeof name, "300 positions, launch overlap mask %d", mask);
        check_long_context(name);
    }
}

/* The attention kernels by name, for messages. */
static const char *attn_name(krn_attn_kernel k) {
    static const char *const names[] = {"auto", "ref", "rows", "split"};
    return names[k];
}

/* A CUDA backend for d's model made with the attention kernel attn
 * (krn_tuning.attention). Free with krn_destroy. */
static krn_backend *gpu_with_attn(const duo *d, krn_attn_kernel attn, int32_t cap) {
    sb_err err = {0};
    const krn_options opt = {.kv_capacity = cap, .tuning.attention = attn};
    krn_backend *b = krn_cuda_create(&d->t->m, &opt, &err);
    if (!b) fail_msg("krn_cuda_create (attention %s): %s", attn_name(attn), err.msg);
    return b;
}

/* ---- prefill chunks above 64 rows (krn_options.max_batch_rows) ----------------- */

enum { LONG_N = 700, LONG_DECODE = 4, LONG_CAP = LONG_N + LONG_DECODE };

/* A GPU backend made for batches of up to max_rows rows, with attention
 * kernel attn. */
static krn_backend *gpu_big(const duo *d, int32_t max_rows, krn_attn_kernel attn) {
    sb_err err = {0};
    const krn_options opt = {.kv_capacity = LONG_CAP, .max_batch_rows = max_rows,
                             .tuning.attention = attn};
    krn_backend *b = krn_cuda_create(&d->t->m, &opt, &err);
    if (!b) fail_msg("krn_cuda_create (max_batch_rows %d, attention %s): %s",
                     (int)max_rows, attn_name(attn), err.msg);
    return b;
}

/* seq[0..LONG_N) prefilled on gpu in chunks of `chunk` rows, each asking
 * for its last min(rows, 64) rows' logits (the most a batch above 64 rows
 * may: kernels.h), then LONG_DECODE rows decoded one a step: every row
 * computed equals the CPU's (`want`, every position) bit for bit. */
static void check_big_chunks(const duo *d, krn_backend *gpu, const int32_t *seq, int chunk,
                             const float *want, const char *name) {
    float *got = logits_alloc(d, KRN_MAX_ROWS);
    static int32_t pos[KRN_MAX_BATCH_ROWS];
    char what[256];
    snprintf(what, sizeof what, "%.128s, prefill in chunks of %d", name, chunk);
    for (int p = 0; p < LONG_N; p += chunk) {
        const int rows = LONG_N - p < chunk ? LONG_N - p : chunk;
        const int row0 = krn_logits_row0(rows);
        for (int r = 0; r < rows; r++) pos[r] = p + r;
        step_from(gpu, rows, seq + p, pos, got, row0);
        for (int r = row0; r < rows; r++)
            expect_same_row(d, row_at(d, want, p + r), row_at(d, got, r - row0), what, r, p + r);
    }
    snprintf(what, sizeof what, "%.128s, decode after chunks of %d", name, chunk);
    for (int p = LONG_N; p < LONG_CAP; p++) {
        step_seq(gpu, seq, p, 1, got);
        expect_same_row(d, row_at(d, want, p), got, what, 0, p);
    }
    free(got);
}

/* Chunks of 256 and 300 rows (and 64, on the same backend) on a GPU
 * backend made for 300, for each attention kernel: 700 positions span 11
 * attention chunks, whose states a 300-row step takes in several passes
 * (attention.cu); the matmuls run 300 rows in 64-row tiles (mmq.cu) or a
 * warp an output (mm_block32.cu, mm_float.cu); the LM head runs over the
 * last 64 rows (forward.cu). With a sliding window of 100 the ring is
 * 100 + 299 slots and wraps. */
static void check_big(const tm_shape *sh, const tm_types *ty, uint64_t seed, int32_t window,
                      const char *name) {
    duo d = duo_create_window(sh, ty, seed, LONG_CAP, window);
    int32_t seq[LONG_CAP];
    make_seq(seq, LONG_CAP, sh->n_vocab, seed + 1);
    float *want = logits_alloc(&d, LONG_CAP);
    run_chunked(&d, d.cpu, seq, LONG_CAP, 64, want);
    assert_sane(&d, want, LONG_CAP);
    const krn_attn_kernel attns[] = {KRN_ATTN_AUTO, KRN_ATTN_SPLIT, KRN_ATTN_ROWS, KRN_ATTN_REF};
    char what[128];
    for (int a = 0; a < 4; a++) {
        krn_backend *gpu = gpu_big(&d, 300, attns[a]);
        const int chunks[] = {300, 256, 64};
        for (int c = 0; c < 3; c++) {
            snprintf(what, sizeof what, "%.64s, attention %.16s", name, attn_name(attns[a]));
            check_big_chunks(&d, gpu, seq, chunks[c], want, what);
        }
        krn_destroy(gpu);
    }
    free(want);
    duo_free(&d);
}

static void test_big_prefill_chunks(void **state) {
    (void)state;
    check_big(&SMALL, &MIXED, 60, 0, "mixed");
    check_big(&WIDE, &MIXED2, 61, 0, "wide mixed2");
    check_big(&SMALL, &MIXED2, 62, 100, "mixed2, window 100");
}

/* The largest batch: 1,024 rows in one step, its last 64 rows' logits,
 * on the GPU as on the CPU; and the limits refused by name. */
static void test_biggest_batch(void **state) {
    (void)state;
    enum { N = KRN_MAX_BATCH_ROWS };
    duo d = duo_create(&SMALL, &MIXED2, 63, N);
    static int32_t seq[N], pos[N];
    make_seq(seq, N, SMALL.n_vocab, 64);
    for (int r = 0; r < N; r++) pos[r] = r;
    float *want = logits_alloc(&d, N), *got = logits_alloc(&d, KRN_MAX_ROWS);
    run_chunked(&d, d.cpu, seq, N, 64, want);
    sb_err err = {0};
    krn_backend *gpu = krn_cuda_create(&d.t->m, &(krn_options){.kv_capacity = N,
                                       .max_batch_rows = N}, &err);
    if (!gpu) fail_msg("krn_cuda_create (max_batch_rows %d): %s", N, err.msg);
    step_from(gpu, N, seq, pos, got, N - KRN_MAX_ROWS);
    for (int r = 0; r < KRN_MAX_ROWS; r++)
        expect_same_row(&d, row_at(&d, want, N - KRN_MAX_ROWS + r), row_at(&d, got, r),
                        "1,024 rows in one step", r, N - KRN_MAX_ROWS + r);
    krn_batch bad = {.n_rows = N, .tokens = seq, .pos = pos, .logits = got,
                     .logits_from = N - KRN_MAX_ROWS - 1};
    assert_int_equal(krn_forward(gpu, &bad, &err), -1);
    assert_non_null(strstr(err.msg, "logits_from"));
    krn_destroy(gpu);
    err = (sb_err){0};
    assert_null(krn_cuda_create(&d.t->m, &(krn_options){.kv_capacity = N,
                                .max_batch_rows = N + 1}, &err));
    assert_non_null(strstr(err.msg, "max_batch_rows"));
    free(want), free(got);
    duo_free(&d);
}

/* A sliding window of 100 positions (a ring of 163 slots) over 300
 * positions: the GPU's rows equal the CPU's bit for bit across the wrap,
 * whatever the step sizes and with rejected verify rows rolled back in
 * between, for the default kernels (attention auto: attention.cu picks the
 * kernel per step) and the one-block reference kernel forced. */
static void test_sliding_window(void **state) {
    (void)state;
    enum { N = 300, WINDOW = 100 };
    duo d = duo_create_window(&SMALL, &MIXED, 16, MAX_SEQ, WINDOW);
    assert_int_equal(krn_kv_slots(&d.t->m, MAX_SEQ, 0), WINDOW + 63);
    int32_t seq[N], junk[N + KRN_MAX_ROWS];
    make_seq(seq, N, SMALL.n_vocab, 6);
    make_seq(junk, N + KRN_MAX_ROWS, SMALL.n_vocab, 7);
    float *want = logits_alloc(&d, N), *got = logits_alloc(&d, N);
    float *scratch = logits_alloc(&d, KRN_MAX_ROWS);
    run_chunked(&d, d.cpu, seq, N, 64, want);
    assert_sane(&d, want, N);
    krn_backend *ref = gpu_with_attn(&d, KRN_ATTN_REF, MAX_SEQ);
    krn_backend *gpus[2] = {d.gpu, ref};
    const int steps[] = {1, 17, 64, 5, 64, 24, 64, 33, 28}; /* 300 in all */
    for (int k = 0; k < 2; k++) {
        for (int p = 0, i = 0; p < N; p += steps[i++]) {
            const int n = steps[i], draft = n + 1 < KRN_MAX_ROWS ? n + 1 : KRN_MAX_ROWS;
            if (p > 0) step_seq(gpus[k], junk, p, draft, scratch); /* rejected.. */
            step_seq(gpus[k], seq, p, n, (float *)row_at(&d, got, p)); /* ..redone */
        }
        for (int p = 0; p < N; p++)
            expect_same_row(&d, row_at(&d, want, p), row_at(&d, got, p),
                            k ? "window, reference kernel" : "window, default kernels", p, p);
    }
    krn_destroy(ref);
    free(want), free(got), free(scratch);
    duo_free(&d);
}

/* ---- the attention kernels: rows, split-KV, auto (tuning.attention) --------------- */

/* 14 query heads over 2 KV heads of 128: a group of 7, as the 7B's 28 / 4,
 * so the rows kernel's blocks are tiles of 4 rows x 7 heads (28 pairs, 7
 * warps). */
static const tm_shape SEVEN = {2, 512, 768, 14, 2, 128, 300};

/* Step sizes of a verify run, cycled (595 positions a cycle): 1, every
 * bucket class of 2..64 rows, and odd sizes between. */
static const int VERIFY_STEPS[] = {1, 17, 64, 5, 64, 24, 64, 33, 28, 2,
                                   63, 7, 48, 16, 3, 32, 64, 11, 40, 9};

/* Positions p0 .. p0 + n - 1 of seq as one step with the rows in reverse
 * order; the logits of position p go to row p - p0 of out (scratch: n rows). */
static void step_seq_reversed(const duo *d, krn_backend *b, const int32_t *seq, int p0,
                              int n, float *scratch, float *out) {
    int32_t pos[KRN_MAX_ROWS], tok[KRN_MAX_ROWS];
    for (int r = 0; r < n; r++) pos[r] = p0 + n - 1 - r, tok[r] = seq[pos[r]];
    step(b, n, tok, pos, scratch);
    for (int r = 0; r < n; r++)
        memcpy((float *)row_at(d, out, pos[r] - p0), row_at(d, scratch, r), d->row_bytes);
}

/* seq[0..n) on b in steps of VERIFY_STEPS (the last cut at n), each but the
 * first after a rejected draft one row longer over the same slots (junk,
 * n + 64 tokens), every third with its rows reversed; the logits of
 * position p go to row p of got. No draft reaches past position n - 1:
 * with a window, position n takes the ring slot of n - kv_slots
 * (kv_slots = window + 63), the first position that redoing the last 64
 * (check_rows_kernel) reads, and a rollback behind what the ring holds is
 * outside the contract (the engine refuses it: eng__window_check). */
static void run_verify_steps(const duo *d, krn_backend *b, const int32_t *seq,
                             const int32_t *junk, int n, float *got, float *scratch) {
    const int n_steps = (int)(sizeof VERIFY_STEPS / sizeof VERIFY_STEPS[0]);
    for (int p = 0, i = 0; p < n; i++) {
        const int rows = VERIFY_STEPS[i % n_steps] < n - p ? VERIFY_STEPS[i % n_steps] : n - p;
        const int draft = rows < KRN_MAX_ROWS && rows < n - p ? rows + 1 : rows;
        if (p > 0) step_seq(b, junk, p, draft, scratch);
        float *out = (float *)row_at(d, got, p);
        if (i % 3 == 2) step_seq_reversed(d, b, seq, p, rows, scratch, out);
        else step_seq(b, seq, p, rows, out);
        p += rows;
    }
}

/* n positions (n >= 64) of a model with the given window on the CPU in
 * steps of 64, and on the GPU in verify runs (run_verify_steps) with the
 * rows kernel forced, the split-KV kernel forced, and the automatic choice
 * (attention auto: the first kernel for single-chunk steps of up to 16
 * rows, rows for steps of 4+ rows whose grid has a block per SM, else
 * split-KV — on a 132-SM GPU the group of 7 without a window
 * takes rows for its 64-row steps from 6 chunks on (positions 302..399,
 * after split-KV for all before), the other cases split-KV throughout):
 * every row the same bits. Then on each GPU the last 64 positions
 * again as one step after a rejected draft over their slots: past 1024
 * positions its more than 16 chunks exceed the chunk states a pass holds
 * for 64 rows (krn_cuda's scratch: 16 a row), so the merge carries its
 * running state from pass to pass. */
static void check_rows_kernel(const tm_shape *sh, const tm_types *ty, uint64_t seed,
                              int n, int32_t window, const char *name) {
    const int32_t cap = n + KRN_MAX_ROWS;
    duo d = duo_create_window(sh, ty, seed, cap, window);
    int32_t *seq = malloc((size_t)n * sizeof *seq);
    int32_t *junk = malloc((size_t)(n + KRN_MAX_ROWS) * sizeof *junk);
    assert_non_null(seq);
    assert_non_null(junk);
    make_seq(seq, n, sh->n_vocab, seed + 1);
    make_seq(junk, n + KRN_MAX_ROWS, sh->n_vocab, seed + 2);
    float *want = logits_alloc(&d, n), *got = logits_alloc(&d, n);
    float *scratch = logits_alloc(&d, KRN_MAX_ROWS);
    run_chunked(&d, d.cpu, seq, n, KRN_MAX_ROWS, want);
    assert_sane(&d, want, n);
    const krn_attn_kernel kernels[3] = {KRN_ATTN_ROWS, KRN_ATTN_SPLIT, KRN_ATTN_AUTO};
    char what[128];
    for (int k = 0; k < 3; k++) {
        krn_backend *b = gpu_with_attn(&d, kernels[k], cap);
        run_verify_steps(&d, b, seq, junk, n, got, scratch);
        snprintf(what, sizeof what, "%s, %s kernel, verify steps", name, attn_name(kernels[k]));
        for (int p = 0; p < n; p++)
            expect_same_row(&d, row_at(&d, want, p), row_at(&d, got, p), what, p, p);
        const int p0 = n - KRN_MAX_ROWS;
        step_seq(b, junk, p0, KRN_MAX_ROWS, scratch);
        step_seq(b, seq, p0, KRN_MAX_ROWS, scratch);
        snprintf(what, sizeof what, "%s, %s kernel, last 64 as one step", name,
                 attn_name(kernels[k]));
        for (int r = 0; r < KRN_MAX_ROWS; r++)
            expect_same_row(&d, row_at(&d, want, p0 + r), row_at(&d, scratch, r), what, r,
                            p0 + r);
        krn_destroy(b);
    }
    free(want), free(got), free(scratch), free(seq), free(junk);
    duo_free(&d);
}

/* The rows kernel (and split-KV, and auto) without a window: head_dim 64 (tiles of 16 rows x 2
 * heads) over 1100 positions (18 chunks: two merge passes for 64 rows), and
 * head_dim 128 with a group of 7 over 400. */
static void test_rows_kernel(void **state) {
    (void)state;
    check_rows_kernel(&SMALL, &MIXED, 18, 1100, 0, "rows, head_dim 64");
    check_rows_kernel(&SEVEN, &MIXED, 19, 400, 0, "rows, group of 7");
}

/* The rows kernel (and split-KV, and auto) with sliding windows across
 * their rings' wraps, where the rows of a tile see different slots of a
 * chunk: a group of 7 with a window of 100, and WIDE (a group of 4, tiles
 * of 7 rows) with a window of 70. */
static void test_rows_kernel_window(void **state) {
    (void)state;
    check_rows_kernel(&SEVEN, &MIXED, 20, 400, 100, "rows, group of 7, window 100");
    check_rows_kernel(&WIDE, &MIXED2, 21, 300, 70, "rows, wide, window 70");
}

/* ---- errors --------------------------------------------------------------------- */

/* The launch choices (kernels.h: krn_choices) are listed, an imported set
 * is taken as it is (0 measurements), and with every choice flipped from
 * its default the GPU still gives the CPU's bits; a choice of another name
 * or out of range is refused, naming it. */
static void test_choices(void **state) {
    (void)state;
    tmodel *t = tm_create(&SMALL, &MIXED, 19);
    sb_err err = {0};
    krn_options opt = {.n_threads = 2, .kv_capacity = 80};
    krn_backend *cpu = krn_cpu_create(&t->m, &opt, &err);
    assert_non_null(cpu);
    krn_backend *def = krn_cuda_create(&t->m, &opt, &err);
    if (!def) fail_msg("krn_cuda_create: %s", err.msg);
    const krn_choice *c = NULL;
    const int n = krn_choices(def, &c);
    assert_int_equal(n, 4);
    krn_choice flip[4];
    for (int i = 0; i < n; i++) {
        flip[i] = c[i];
        if (!strcmp(c[i].name, "attention_kernel")) flip[i].value = c[i].value == 3 ? 2 : 3;
        else if (!strcmp(c[i].name, "launch_overlap")) flip[i].value = c[i].value ? 0 : 15;
        else flip[i].value = !c[i].value;
    }
    krn_destroy(def);
    opt.choices = flip, opt.n_choices = n;
    krn_backend *gpu = krn_cuda_create(&t->m, &opt, &err);
    if (!gpu) fail_msg("krn_cuda_create with imported choices: %s", err.msg);
    assert_int_equal(krn_measurements(gpu), 0);
    assert_int_equal(krn_choices(gpu, &c), n);
    for (int i = 0; i < n; i++) {
        assert_string_equal(c[i].name, flip[i].name);
        if (strcmp(c[i].name, "launch_overlap")) // 0 where launches cannot overlap
            assert_int_equal(c[i].value, flip[i].value);
    }
    duo d = {.t = t, .cpu = cpu, .gpu = gpu, .row_bytes = (size_t)SMALL.n_vocab * sizeof(float)};
    enum { N = 70 };
    int32_t seq[N];
    make_seq(seq, N, SMALL.n_vocab, 19);
    float *want = logits_alloc(&d, N), *got = logits_alloc(&d, N);
    run_chunked(&d, cpu, seq, N, 1, want);
    run_chunked(&d, gpu, seq, N, 9, got);
    for (int p = 0; p < N; p++)
        expect_same_row(&d, row_at(&d, want, p), row_at(&d, got, p), "imported choices", 0, p);
    free(want), free(got);
    krn_destroy(gpu);
    const krn_choice bad[2] = {{.name = "no_such_choice", .value = 1},
                               {.name = "attention_kernel", .value = 9}};
    for (int i = 0; i < 2; i++) {
        opt.choices = &bad[i], opt.n_choices = 1;
        err = (sb_err){0}; /* sb_err keeps the first message it is given */
        assert_null(krn_cuda_create(&t->m, &opt, &err));
        assert_non_null(strstr(err.msg, bad[i].name));
    }
    krn_destroy(cpu);
    tm_free(t);
}

/* The value of b's launch choice `name` (krn_choices); fails when b has none. */
static int32_t choice_value(const krn_backend *b, const char *name) {
    const krn_choice *c = NULL;
    const int n = krn_choices(b, &c);
    for (int i = 0; i < n; i++)
        if (!strcmp(c[i].name, name)) return c[i].value;
    fail_msg("no launch choice '%s'", name);
    return -1;
}

/* krn_options.tuning's switches show in krn_choices (the defaults changed,
 * before any import), an imported choice of the same switch wins over
 * them, and a switch out of its range is refused, naming the field. */
static void test_tuning_choices(void **state) {
    (void)state;
    tmodel *t = tm_create(&SMALL, &MIXED, 19);
    sb_err err = {0};
    krn_options opt = {.kv_capacity = 80,
                       .tuning = {.no_matmul_split = true, .attention = KRN_ATTN_SPLIT,
                                  .no_graphs = true, .launch_overlap = KRN_TUNE_NONE}};
    krn_backend *b = krn_cuda_create(&t->m, &opt, &err);
    if (!b) fail_msg("krn_cuda_create with tuning: %s", err.msg);
    assert_int_equal(choice_value(b, "matmul_split"), 0);
    assert_int_equal(choice_value(b, "attention_kernel"), KRN_ATTN_SPLIT);
    assert_int_equal(choice_value(b, "graphs"), 0);
    assert_int_equal(choice_value(b, "launch_overlap"), 0);
    krn_destroy(b);
    const krn_choice imported[2] = {{.name = "attention_kernel", .value = KRN_ATTN_ROWS},
                                    {.name = "graphs", .value = 1}};
    opt.choices = imported, opt.n_choices = 2;
    b = krn_cuda_create(&t->m, &opt, &err);
    if (!b) fail_msg("krn_cuda_create with tuning and choices: %s", err.msg);
    assert_int_equal(choice_value(b, "attention_kernel"), KRN_ATTN_ROWS);
    assert_int_equal(choice_value(b, "graphs"), 1);
    assert_int_equal(choice_value(b, "matmul_split"), 0);
    krn_destroy(b);
    const krn_options bad = {.kv_capacity = 80, .tuning.attention = (krn_attn_kernel)7};
    assert_null(krn_cuda_create(&t->m, &bad, &err));
    if (!strstr(err.msg, "tuning.attention")) fail_msg("unexpected error: %s", err.msg);
    tm_free(t);
}

/* A KV cache the GPU cannot hold is a clear error naming the buffer and
 * the bytes needed and free, and the GPU stays usable afterwards. 2 layers
 * x 2^30 slots x 128 halves x 2 bytes = 512 GiB for each of K and V. */
static void test_out_of_memory(void **state) {
    (void)state;
    tmodel *t = tm_create(&SMALL, &MIXED, 17);
    sb_err err = {0};
    krn_backend *b = krn_cuda_create(&t->m, &(krn_options){.kv_capacity = 1 << 30}, &err);
    assert_null(b);
    print_message("  %s\n", err.msg);
    if (!strstr(err.msg, "out of GPU memory for the K cache") ||
        !strstr(err.msg, "549755813888 bytes") || !strstr(err.msg, "bytes free"))
        fail_msg("unexpected error: %s", err.msg);
    sb_err ok = {0};
    b = krn_cuda_create(&t->m, &(krn_options){.kv_capacity = 8}, &ok);
    if (!b) fail_msg("krn_cuda_create after an out-of-memory error: %s", ok.msg);
    int32_t tok = 1, pos = 0;
    float *l = malloc((size_t)SMALL.n_vocab * sizeof *l);
    step(b, 1, &tok, &pos, l);
    free(l);
    krn_destroy(b);
    tm_free(t);
}

/* ---- main -------------------------------------------------------------------------- */

/* 0 when a CUDA backend can be made; else prints why and returns 1 (no GPU,
 * so skip) or 2 (a GPU that failed: an error). */
/* ---- whole generations ------------------------------------------------------------ */

/* Guesses random ids, 1, 2, ..., 63, 1, ... of them per step (cut to what
 * the step allows): nearly every guess is wrong, so every verify length is
 * scored and rolled back. */
typedef struct random_drafter {
    uint64_t calls;
    int32_t n_vocab;
} random_drafter;

static int32_t random_propose(void *ctx, const int32_t *out, int32_t n_out,
                              int32_t max_draft, int32_t *draft) {
    (void)out;
    random_drafter *r = ctx;
    int32_t d = (int32_t)(r->calls % 63) + 1;
    if (d > max_draft) d = max_draft;
    for (int32_t i = 0; i < d; i++)
        draft[i] = (int32_t)(sb_hash3(r->calls, (uint64_t)n_out, (uint64_t)i) % (uint64_t)r->n_vocab);
    r->calls++;
    return d;
}

/* 200 tokens of the tiny model's continuation: the SHA-256 of the ids. */
static void generate_sha(const eng_model *m, eng_device dev, float temp,
                         const eng_drafter *d, char sha[65], int32_t *steps) {
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.device = dev, .n_threads = 2,
                                        .n_ctx = 512}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    const char *text = "int parse_line(const char *s) {\n    return";
    int32_t ids[64];
    const int64_t n = eng_tokenize(m, text, (int64_t)strlen(text), ids, 64);
    assert_true(n > 0 && n <= 64);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = 200;
    p.stop_at_eos = false;
    p.sampling = (eng_sampling){.temperature = temp, .seed = 7};
    p.drafter = d;
    eng_gen_result r;
    if (eng_generate(s, ids, (int32_t)n, &p, NULL, NULL, &r, &err))
        fail_msg("eng_generate: %s", err.msg);
    assert_int_equal(r.n_tokens, 200);
    memcpy(sha, r.sha256, 65);
    *steps = r.steps;
    free(r.tokens);
    eng_session_destroy(s);
}

static void test_generate_cpu_gpu_speculation(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    const float temps[2] = {0.0f, 0.8f};
    for (int t = 0; t < 2; t++) {
        char want[65], got[65];
        int32_t steps;
        generate_sha(m, ENG_DEVICE_CPU, temps[t], NULL, want, &steps);
        generate_sha(m, ENG_DEVICE_CUDA, temps[t], NULL, got, &steps);
        assert_string_equal(got, want); /* the GPU is the CPU, bit for bit */
        random_drafter rd = {.n_vocab = eng_n_vocab(m)};
        eng_drafter d = {.ctx = &rd, .propose = random_propose};
        generate_sha(m, ENG_DEVICE_CUDA, temps[t], &d, got, &steps);
        assert_string_equal(got, want);
        assert_true(rd.calls >= 63); /* every draft length was scored */
        sb_err err = {0};
        drf_copy *c = drf_copy_create(NULL, 0, NULL, &err);
        assert_non_null(c);
        eng_drafter cd = drf_copy_drafter(c);
        generate_sha(m, ENG_DEVICE_CUDA, temps[t], &cd, got, &steps);
        assert_string_equal(got, want);
        print_message("  temperature %.1f: copy drafter, 200 tokens in %d steps\n",
                      (double)temps[t], (int)steps);
        drf_copy_destroy(c);
    }
    eng_model_free(m);
}

/* The exact prefix cache on the GPU: after a CUDA session held prompt a, a
 * prompt sharing its first k tokens (every k) is prefilled from k only, and
 * its last row's logits are the bits of a cold CPU prefill. */
static void test_prefix_cache_every_split(void **state) {
    (void)state;
    enum { NA = 70, NT = 9 };
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    sb_err err = {0};
    eng_session *gpu = eng_session_create(m, &(eng_options){.device = ENG_DEVICE_CUDA,
                                                            .n_ctx = 256}, &err);
    if (!gpu) fail_msg("eng_session_create: %s", err.msg);
    eng_session *cpu = eng_session_create(m, &(eng_options){.n_threads = 2,
                                                            .n_ctx = 256}, &err);
    assert_non_null(cpu);
    const int32_t nv = eng_n_vocab(m);
    int32_t a[NA], b[NA + NT];
    make_seq(a, NA, nv, 21);
    float *want = malloc((size_t)nv * sizeof(float)), *got = malloc((size_t)nv * sizeof(float));
    assert_non_null(want);
    assert_non_null(got);
    for (int32_t k = 0; k <= NA; k++) {
        int32_t nb = NA;
        memcpy(b, a, sizeof a);
        if (k < NA) { /* a's first k tokens, then NT others */
            nb = k + NT;
            for (int32_t i = 0; i < NT; i++) b[k + i] = (a[k] + 1 + 7 * i) % nv;
        }
        eng_session_truncate(gpu, 0);
        if (eng_session_prefill(gpu, a, NA, 13, NULL, &err)) fail_msg("%s", err.msg);
        const int32_t kept = eng_session_reuse(gpu, b, nb);
        assert_int_equal(kept, k < nb ? k : nb - 1);
        if (eng_session_prefill(gpu, b + kept, nb - kept, 64, got, &err))
            fail_msg("%s", err.msg);
        eng_session_truncate(cpu, 0);
        if (eng_session_prefill(cpu, b, nb, 64, want, &err)) fail_msg("%s", err.msg);
        if (memcmp(want, got, (size_t)nv * sizeof(float)))
            fail_msg("split %d: the GPU's cached prefill differs from the CPU's cold one",
                     (int)k);
    }
    free(want);
    free(got);
    eng_session_destroy(gpu);
    eng_session_destroy(cpu);
    eng_model_free(m);
}

static int probe_gpu(void) {
    if (!krn_cuda_built()) {
        printf("SKIPPED: no CUDA GPU (this build has no CUDA backend: nvcc "
               "was not found)\n");
        return 1;
    }
    const tm_types ty = tm_uniform_types(KRN_F32, true);
    const tm_shape sh = {1, 32, 32, 1, 1, 32, 8};
    /* tm_create asserts through cmocka, harmless outside a test while
     * nothing fails; this shape always builds. */
    tmodel *tp = tm_create(&sh, &ty, 1);
    sb_err err = {0};
    krn_backend *b = krn_cuda_create(&tp->m, &(krn_options){.kv_capacity = 4}, &err);
    tm_free(tp);
    if (b) {
        krn_destroy(b);
        return 0;
    }
    if (strstr(err.msg, "no CUDA GPU")) {
        printf("SKIPPED: no CUDA GPU (%s)\n", err.msg);
        return 1;
    }
    fprintf(stderr, "FAILED: a CUDA GPU is present but the backend cannot "
            "start: %s\n", err.msg);
    return 2;
}

int main(void) {
    const int probe = probe_gpu();
    if (probe) return probe == 1 ? 0 : 1;
    /* SB_TEST_FILTER=test_rollback (a glob) runs only the matching tests. */
    const char *filter = getenv("SB_TEST_FILTER");
    if (filter && *filter) cmocka_set_test_filter(filter);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_type),
        cmocka_unit_test(test_mixed_types),
        cmocka_unit_test(test_buckets_mixed),
        cmocka_unit_test(test_buckets_wide_q4_k_m),
        cmocka_unit_test(test_buckets_activation_groups),
        cmocka_unit_test_teardown(test_buckets_matmul_kernels, duo_tuning_reset),
        cmocka_unit_test_teardown(test_buckets_decode_kernel, duo_tuning_reset),
        cmocka_unit_test_teardown(test_launch_overlap, duo_tuning_reset),
        cmocka_unit_test(test_prefill_chunking),
        cmocka_unit_test(test_rollback),
        cmocka_unit_test(test_long_context),
        cmocka_unit_test(test_sliding_window),
        cmocka_unit_test(test_big_prefill_chunks),
        cmocka_unit_test(test_biggest_batch),
        cmocka_unit_test(test_rows_kernel),
        cmocka_unit_test(test_rows_kernel_window),
        cmocka_unit_test(test_generate_cpu_gpu_speculation),
        cmocka_unit_test(test_prefix_cache_every_split),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_tuning_choices),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
