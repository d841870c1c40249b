/*
 * The CPU backend's operators one by one (kernels/cpu/cpu.h): each against a
 * float64 reference within a stated tolerance, and each against the float
 * sequence its file's header comment promises, bit for bit (an independent
 * implementation written here from that comment).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cpu/cpu.h"

/* Uniform in (-1, 1), a pure function of (seed, i). */
static float uni(uint64_t seed, uint64_t i) {
    return 2.0f * sb_unit_open(sb_hash3(seed, i, 7)) - 1.0f;
}

static void fill(float *v, int64_t n, uint64_t seed, float scale) {
    for (int64_t i = 0; i < n; i++) v[i] = scale * uni(seed, (uint64_t)i);
}

/* ---- pool ------------------------------------------------------------------ */

typedef struct pool_ctx {
    int run;
    int64_t n_items;
    int64_t next;      /* krn_cpu_claim's counter */
    int *item_run;     /* n_items: which run last wrote the item */
    int *item_count;   /* n_items: how many times, over all runs */
    int *calls;        /* per tid */
    int bad;           /* a task saw an unexpected n_threads or tid */
    int expect_nt;
} pool_ctx;

static void pool_task(void *vctx, int tid, int nt) {
    pool_ctx *c = vctx;
    if (nt != c->expect_nt || tid < 0 || tid >= nt) c->bad = 1;
    c->calls[tid]++;
    int64_t lo, hi;
    while (krn_cpu_claim(&c->next, c->n_items, 2, &lo, &hi))
        for (int64_t i = lo; i < hi; i++) {
            c->item_run[i] = c->run;
            c->item_count[i]++;
        }
}

/* Every run calls the caller's task (tid 0) and workers' at most once,
 * every item is claimed exactly once, and the caller sees all writes when
 * run returns; 300 runs per size to shake out a lost wake-up. */
static void test_pool_runs_every_thread(void **state) {
    (void)state;
    const int sizes[] = {0, 1, 2, 3, 5};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        sb_err err = {0};
        krn_cpu_pool *p = krn_cpu_pool_create(sizes[s], &err);
        assert_non_null(p);
        const int nt = krn_cpu_pool_threads(p);
        assert_int_equal(nt, sizes[s] < 1 ? 1 : sizes[s]);
        int calls[8] = {0}, items[37], counts[37] = {0};
        pool_ctx c = {.n_items = 37, .item_run = items, .item_count = counts,
                      .calls = calls, .expect_nt = nt};
        for (int run = 1; run <= 300; run++) {
            c.run = run;
            c.next = 0;
            krn_cpu_pool_run(p, pool_task, &c);
            for (int i = 0; i < 37; i++) {
                assert_int_equal(items[i], run);
                assert_int_equal(counts[i], run);
            }
        }
        assert_int_equal(calls[0], 300);
        for (int t = 1; t < nt; t++) assert_true(calls[t] <= 300);
        assert_int_equal(c.bad, 0);
        krn_cpu_pool_destroy(p);
    }
}

/* ---- rmsnorm --------------------------------------------------------------- */

/* Tolerance: squares and the lane sum of n <= 4864 positive terms carry at
 * most ~(n/32 + 6) roundings of 2^-24 relative (< 1e-5), then a divide, a
 * root, a divide and two products: 2e-5 relative covers it with margin. */
#define TOL_RMSNORM 2e-5

static void test_rmsnorm(void **state) {
    (void)state;
    const int64_t sizes[] = {32, 256, 896, 4864};
    for (size_t s = 0; s < 4; s++) {
        const int64_t n = sizes[s];
        float *x = malloc((size_t)n * 4), *w = malloc((size_t)n * 4);
        float *y = malloc((size_t)n * 4), *sq = malloc((size_t)n * 4);
        fill(x, n, 10 + s, 3.0f);
        for (int64_t i = 0; i < n; i++) w[i] = 1.0f + 0.5f * uni(20 + s, (uint64_t)i);
        const float eps = 1e-6f;
        krn_cpu_rmsnorm(x, w, eps, n, y);
        double ss = 0;
        for (int64_t i = 0; i < n; i++) ss += (double)x[i] * x[i];
        double scale = 1.0 / sqrt(ss / (double)n + eps);
        for (int64_t i = 0; i < n; i++) {
            double ref = (double)x[i] * scale * w[i];
            assert_true(fabs(y[i] - ref) <= TOL_RMSNORM * fabs(ref) + 1e-30);
        }
        /* The documented sequence, bit for bit. */
        for (int64_t i = 0; i < n; i++) sq[i] = x[i] * x[i];
        float fscale = 1.0f / sqrtf(krn_lane_sum(sq, n) / (float)n + eps);
        for (int64_t i = 0; i < n; i++) {
            float want = (x[i] * fscale) * w[i];
            assert_memory_equal(&y[i], &want, sizeof want);
        }
        free(x), free(w), free(y), free(sq);
    }
}

static void test_rmsnorm_zero_row(void **state) {
    (void)state;
    float x[64] = {0}, w[64], y[64];
    for (int i = 0; i < 64; i++) w[i] = 1.0f;
    krn_cpu_rmsnorm(x, w, 1e-6f, 64, y);
    for (int i = 0; i < 64; i++) assert_true(y[i] == 0.0f);
}

/* ---- RoPE ------------------------------------------------------------------ */

/* Tolerance: the table entries are rounded from double (2^-24 relative),
 * then two rounded products and a rounded sum: 4 * 2^-24 * (|a| + |b|). */
#define TOL_ROPE (4.0 * 0x1p-24)

static void check_rope(int32_t hd, float base, int32_t n_pos) {
    sb_err err = {0};
    krn_rope_table t;
    assert_int_equal(krn_rope_table_init(&t, n_pos, hd, base, &err), 0);
    const int32_t heads = 3, half = hd / 2;
    float *x = malloc((size_t)heads * hd * 4), *y = malloc((size_t)heads * hd * 4);
    const int32_t positions[] = {0, 1, 7, 100, n_pos - 1};
    for (int pi = 0; pi < 5; pi++) {
        const int32_t p = positions[pi];
        fill(x, heads * hd, 30 + (uint64_t)p, 2.0f);
        memcpy(y, x, (size_t)heads * hd * 4);
        krn_cpu_rope_apply(&t, p, y, heads);
        for (int32_t h = 0; h < heads; h++)
            for (int32_t i = 0; i < half; i++) {
                const double a = x[h * hd + i], b = x[h * hd + i + half];
                const double th = pow((double)base, -2.0 * i / (double)hd);
                const double c = cos(p * th), s = sin(p * th);
                const double tol = TOL_ROPE * (fabs(a) + fabs(b)) + 1e-30;
                assert_true(fabs(y[h * hd + i] - (a * c - b * s)) <= tol);
                assert_true(fabs(y[h * hd + i + half] - (a * s + b * c)) <= tol);
            }
        if (p == 0) assert_memory_equal(x, y, (size_t)heads * hd * 4);
    }
    free(x), free(y);
    krn_rope_table_free(&t);
}

static void test_rope(void **state) {
    (void)state;
    check_rope(64, 10000.0f, 4096);
    check_rope(128, 1e6f, 300);
    check_rope(2, 10000.0f, 200);
}

/* ---- SiLU ------------------------------------------------------------------ */

/* Tolerance: krn_exp within 2 ulp, then a rounded add and divide (and a
 * product for swiglu): 8 * 2^-24 relative; 1e-30 absolute below where
 * krn_exp overflows to +inf and the result underflows. */
static void test_silu(void **state) {
    (void)state;
    for (int i = -4000; i <= 4000; i++) {
        const float g = (float)i * 0.0075f;
        const double ref = (double)g / (1.0 + exp(-(double)g));
        assert_true(fabs(krn_cpu_silu(g) - ref) <= 8 * 0x1p-24 * fabs(ref) + 1e-30);
    }
    const float extremes[] = {-200.0f, -100.0f, -88.0f, -1e-20f, 0.0f, 1e-20f,
                              50.0f, 100.0f, 1e30f};
    for (size_t i = 0; i < sizeof extremes / sizeof extremes[0]; i++) {
        const float g = extremes[i];
        const double ref = (double)g / (1.0 + exp(-(double)g));
        const float got = krn_cpu_silu(g);
        assert_false(isnan(got));
        assert_true(fabs(got - ref) <= 8 * 0x1p-24 * fabs(ref) + 1e-30);
    }
}

static void test_swiglu_aliasing(void **state) {
    (void)state;
    float g[96], u[96], a[96], g2[96];
    fill(g, 96, 40, 6.0f);
    fill(u, 96, 41, 2.0f);
    krn_cpu_swiglu(g, u, 96, a);
    for (int i = 0; i < 96; i++) {
        float want = krn_cpu_silu(g[i]) * u[i];
        assert_memory_equal(&a[i], &want, 4);
    }
    memcpy(g2, g, sizeof g);
    krn_cpu_swiglu(g2, u, 96, g2); /* in place, as forward.c uses it */
    assert_memory_equal(g2, a, sizeof a);
}

/* ---- attention ------------------------------------------------------------- */

enum { MAX_KEYS = 260, HEADS_KV = 3 };

typedef struct attn_case {
    int32_t hd;
    float *q;           /* hd */
    uint16_t *k, *v;    /* MAX_KEYS * HEADS_KV * hd: head 1 is the one used */
} attn_case;

static attn_case attn_make(int32_t hd, uint64_t seed, float q_scale) {
    attn_case c = {.hd = hd};
    const int64_t n = (int64_t)MAX_KEYS * HEADS_KV * hd;
    c.q = malloc((size_t)hd * 4);
    c.k = malloc((size_t)n * 2);
    c.v = malloc((size_t)n * 2);
    fill(c.q, hd, seed, q_scale);
    for (int64_t i = 0; i < n; i++) {
        c.k[i] = krn_fp32_to_fp16(uni(seed + 1, (uint64_t)i));
        c.v[i] = krn_fp32_to_fp16(uni(seed + 2, (uint64_t)i));
    }
    return c;
}

static void attn_free(attn_case *c) { free(c->q), free(c->k), free(c->v); }

static void attn_run(const attn_case *c, int32_t n_keys, float *out) {
    float *scratch = malloc((size_t)krn_cpu_attn_scratch(c->hd) * 4);
    krn_cpu_attn a = {.q = c->q, .k = c->k + c->hd, .v = c->v + c->hd,
                      .kv_stride = (int64_t)HEADS_KV * c->hd, .head_dim = c->hd,
                      .first = 0, .last = n_keys - 1, .n_slots = n_keys,
                      .f16 = krn_cpu_f16_table(),
                      .scratch = scratch, .out = out};
    krn_cpu_attn_head(&a);
    free(scratch);
}

static float key(const attn_case *c, const uint16_t *kv, int32_t t, int32_t d) {
    return krn_fp16_to_fp32(kv[((int64_t)t * HEADS_KV + 1) * c->hd + d]);
}

/* Softmax attention in float64 over the same fp16 keys and values. */
static void attn_ref(const attn_case *c, int32_t n_keys, double *out) {
    double *s = malloc((size_t)n_keys * sizeof *s), mx = -INFINITY, l = 0;
    for (int32_t t = 0; t < n_keys; t++) {
        double dot = 0;
        for (int32_t d = 0; d < c->hd; d++) dot += (double)c->q[d] * key(c, c->k, t, d);
        s[t] = dot / sqrt((double)c->hd);
        mx = fmax(mx, s[t]);
    }
    for (int32_t t = 0; t < n_keys; t++) l += s[t] = exp(s[t] - mx);
    for (int32_t d = 0; d < c->hd; d++) {
        double acc = 0;
        for (int32_t t = 0; t < n_keys; t++) acc += s[t] * key(c, c->v, t, d);
        out[d] = acc / l;
    }
    free(s);
}

/* The documented order, written independently: every score first, then
 * each chunk's (m, l, acc) into arrays, then one left-to-right fold. */
static void attn_spec(const attn_case *c, int32_t n_keys, float *out) {
    const int32_t hd = c->hd, n_chunks = (n_keys + 63) / 64;
    float *score = malloc((size_t)n_keys * 4), *prod = malloc((size_t)hd * 4);
    float *m = malloc((size_t)n_chunks * 4), *l = malloc((size_t)n_chunks * 4);
    float *acc = malloc((size_t)n_chunks * hd * 4);
    const float scale = 1.0f / sqrtf((float)hd);
    for (int32_t t = 0; t < n_keys; t++) {
        for (int32_t d = 0; d < hd; d++) prod[d] = c->q[d] * key(c, c->k, t, d);
        score[t] = krn_lane_sum(prod, hd) * scale;
    }
    for (int32_t ch = 0; ch < n_chunks; ch++) {
        const int32_t t0 = ch * 64, t1 = t0 + 64 < n_keys ? t0 + 64 : n_keys;
        m[ch] = score[t0];
        for (int32_t t = t0 + 1; t < t1; t++) m[ch] = score[t] > m[ch] ? score[t] : m[ch];
        l[ch] = 0.0f;
        for (int32_t d = 0; d < hd; d++) acc[ch * hd + d] = 0.0f;
        for (int32_t t = t0; t < t1; t++) {
            const float p = krn_exp(score[t] - m[ch]);
            l[ch] = l[ch] + p;
            for (int32_t d = 0; d < hd; d++)
                acc[ch * hd + d] = acc[ch * hd + d] + p * key(c, c->v, t, d);
        }
    }
    for (int32_t ch = 1; ch < n_chunks; ch++) {
        const float mm = m[0] > m[ch] ? m[0] : m[ch];
        const float a = krn_exp(m[0] - mm), b = krn_exp(m[ch] - mm);
        l[0] = l[0] * a + l[ch] * b;
        for (int32_t d = 0; d < hd; d++)
            acc[d] = acc[d] * a + acc[ch * hd + d] * b;
        m[0] = mm;
    }
    for (int32_t d = 0; d < hd; d++) out[d] = acc[d] / l[0];
    free(score), free(prod), free(m), free(l), free(acc);
}

static const int32_t KEY_COUNTS[] = {1, 2, 31, 63, 64, 65, 127, 128, 129, 200, 257};
#define N_KEY_COUNTS (sizeof KEY_COUNTS / sizeof KEY_COUNTS[0])

/* Tolerance: with |v| <= 1 the output is a convex combination, O(1). Scores
 * carry ~1e-6 absolute error (64..128 products, |q·k| <= ~hd), the exps 2 ulp,
 * the sums of <= 260 positive terms < 2e-5 relative: 5e-5 absolute. */
#define TOL_ATTN 5e-5

static void test_attention_vs_double(void **state) {
    (void)state;
    const int32_t hds[] = {64, 128};
    for (int h = 0; h < 2; h++) {
        attn_case c = attn_make(hds[h], 50 + (uint64_t)h, 1.5f);
        float out[128];
        double ref[128];
        for (size_t i = 0; i < N_KEY_COUNTS; i++) {
            attn_run(&c, KEY_COUNTS[i], out);
            attn_ref(&c, KEY_COUNTS[i], ref);
            for (int32_t d = 0; d < c.hd; d++)
                assert_true(fabs(out[d] - ref[d]) <= TOL_ATTN);
        }
        attn_free(&c);
    }
}

/* Bit for bit against attn_spec, also with sharp scores (large q), where the
 * later chunks' maxima exceed the first's and the rescaling matters. */
static void test_attention_chunk_order(void **state) {
    (void)state;
    const float q_scales[] = {0.5f, 4.0f, 40.0f};
    for (int h = 0; h < 2; h++)
        for (int qs = 0; qs < 3; qs++) {
            attn_case c = attn_make(h ? 128 : 64, 60 + (uint64_t)(h * 3 + qs), q_scales[qs]);
            float out[128], want[128];
            for (size_t i = 0; i < N_KEY_COUNTS; i++) {
                attn_run(&c, KEY_COUNTS[i], out);
                attn_spec(&c, KEY_COUNTS[i], want);
                assert_memory_equal(out, want, (size_t)c.hd * 4);
            }
            attn_free(&c);
        }
}

/* Slots at or beyond n_keys are never read: garbage there changes nothing. */
static void test_attention_ignores_later_slots(void **state) {
    (void)state;
    attn_case c = attn_make(64, 70, 2.0f);
    float before[64], after[64];
    attn_run(&c, 65, before);
    for (int64_t i = 65 * HEADS_KV * 64; i < (int64_t)MAX_KEYS * HEADS_KV * 64; i++)
        c.k[i] = c.v[i] = 0x7C00; /* +inf */
    attn_run(&c, 65, after);
    assert_memory_equal(before, after, sizeof before);
    attn_free(&c);
}

static void test_f16_table(void **state) {
    (void)state;
    const float *t = krn_cpu_f16_table();
    for (uint32_t h = 0; h < 65536; h += 1) {
        float want = krn_fp16_to_fp32((uint16_t)h);
        if (isnan(want)) assert_true(isnan(t[h]));
        else assert_memory_equal(&t[h], &want, 4);
    }
}

/* ---- matmul ---------------------------------------------------------------- */

enum { MM_IN = 256, MM_OUT = 40, MM_ROWS = 5 };

typedef struct mm_fixture {
    krn_tensor w;
    void *wdata;
    float x[MM_ROWS * MM_IN];
    krn_act_block xq[MM_ROWS * MM_IN / 32];   /* groups of 256 */
    krn_act_block xq32[MM_ROWS * MM_IN / 32]; /* groups of 32 */
    float bias[MM_OUT];
} mm_fixture;

static void mm_make(mm_fixture *f, krn_type type, uint64_t seed) {
    uint64_t row_bytes;
    assert_true(krn_row_bytes(type, MM_IN, &row_bytes));
    f->wdata = malloc(row_bytes * MM_OUT);
    float row[MM_IN];
    for (int o = 0; o < MM_OUT; o++) {
        fill(row, MM_IN, seed * 1000 + (uint64_t)o, 0.1f);
        assert_true(krn_quantize_row(type, row, (char *)f->wdata + o * row_bytes, MM_IN));
    }
    f->w = (krn_tensor){.type = type, .ne0 = MM_IN, .ne1 = MM_OUT, .data = f->wdata};
    fill(f->x, MM_ROWS * MM_IN, seed + 1, 1.0f);
    for (int r = 0; r < MM_ROWS; r++) {
        krn_quantize_act(f->x + r * MM_IN, f->xq + r * (MM_IN / 32), MM_IN, KRN_SUPER);
        krn_quantize_act(f->x + r * MM_IN, f->xq32 + r * (MM_IN / 32), MM_IN, KRN_QBLOCK);
    }
    fill(f->bias, MM_OUT, seed + 2, 0.5f);
}

/* The canonical dot of one output, computed directly. */
static float mm_dot(const mm_fixture *f, int o, int r) {
    uint64_t row_bytes;
    krn_row_bytes(f->w.type, MM_IN, &row_bytes);
    const char *row = (const char *)f->wdata + o * row_bytes;
    if (krn_type_is_quantized(f->w.type)) {
        krn_wblock wb[MM_IN / 32];
        krn_unpack_row(f->w.type, row, wb, MM_IN);
        const krn_act_block *xq = krn_type_is_kquant(f->w.type) ? f->xq : f->xq32;
        return krn_dot_q(wb, xq + r * (MM_IN / 32), MM_IN / 32, f->w.type);
    }
    float wf[MM_IN];
    krn_dequantize_row(f->w.type, row, wf, MM_IN);
    return krn_dot_f(wf, f->x + r * MM_IN, MM_IN);
}

static void mm_run(krn_cpu_pool *p, mm_fixture *f, int n_rows, const float *bias,
                   bool accumulate, float *y) {
    const int nt = krn_cpu_pool_threads(p);
    krn_wblock *wbuf = malloc((size_t)nt * (MM_IN / 32) * sizeof *wbuf);
    float *fbuf = malloc((size_t)nt * MM_IN * 4);
    krn_cpu_mm mm = {.n_out = 1, .n_rows = n_rows, .n_in = MM_IN, .x = f->x,
                     .ldx = MM_IN, .xq = f->xq, .xq32 = f->xq32, .wbuf = wbuf,
                     .wbuf_stride = MM_IN / 32, .fbuf = fbuf, .fbuf_stride = MM_IN};
    mm.out[0] = (krn_cpu_mm_out){.w = &f->w, .bias = bias, .accumulate = accumulate,
                                 .y = y, .ldy = MM_OUT + 3};
    krn_cpu_pool_run(p, krn_cpu_matmul_task, &mm);
    free(wbuf), free(fbuf);
}

static void test_matmul_canonical(void **state) {
    (void)state;
    const krn_type types[] = {KRN_F32, KRN_F16, KRN_BF16, KRN_Q8_0, KRN_Q5_0,
                              KRN_Q4_K, KRN_Q6_K};
    sb_err err = {0};
    krn_cpu_pool *p1 = krn_cpu_pool_create(1, &err), *p3 = krn_cpu_pool_create(3, &err);
    assert_non_null(p1);
    assert_non_null(p3);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        mm_fixture *f = calloc(1, sizeof *f);
        mm_make(f, types[ti], 100 + ti);
        const int64_t ny = MM_ROWS * (MM_OUT + 3);
        float y1[MM_ROWS * (MM_OUT + 3)], y3[MM_ROWS * (MM_OUT + 3)];
        for (int n_rows = 1; n_rows <= MM_ROWS; n_rows += 2) {
            for (int64_t i = 0; i < ny; i++) y1[i] = y3[i] = (float)i;
            mm_run(p1, f, n_rows, f->bias, false, y1);
            mm_run(p3, f, n_rows, f->bias, false, y3);
            assert_memory_equal(y1, y3, sizeof y1);
            for (int r = 0; r < MM_ROWS; r++)
                for (int o = 0; o < MM_OUT + 3; o++) {
                    float want = (float)(r * (MM_OUT + 3) + o); /* untouched */
                    if (r < n_rows && o < MM_OUT) want = mm_dot(f, o, r) + f->bias[o];
                    assert_memory_equal(&y1[r * (MM_OUT + 3) + o], &want, 4);
                }
            /* accumulate: y = y_old + dot */
            for (int64_t i = 0; i < ny; i++) y3[i] = 0.25f * (float)i;
            mm_run(p3, f, n_rows, NULL, true, y3);
            for (int r = 0; r < n_rows; r++)
                for (int o = 0; o < MM_OUT; o++) {
                    float want = 0.25f * (float)(r * (MM_OUT + 3) + o) + mm_dot(f, o, r);
                    assert_memory_equal(&y3[r * (MM_OUT + 3) + o], &want, 4);
                }
        }
        free(f->wdata);
        free(f);
    }
    krn_cpu_pool_destroy(p1);
    krn_cpu_pool_destroy(p3);
}

/* Loose sanity against float64 with the weights as stored: F32 weights
 * leave only fp32 rounding (1e-5 of Σ|w·x|); quantized types add int8
 * activation error (1/254 of a block's max per element): 2e-2 of Σ|w·x|. */
static void test_matmul_vs_double(void **state) {
    (void)state;
    const krn_type types[] = {KRN_F32, KRN_Q8_0, KRN_Q4_K};
    const double tols[] = {1e-5, 2e-2, 2e-2};
    sb_err err = {0};
    krn_cpu_pool *p = krn_cpu_pool_create(2, &err);
    assert_non_null(p);
    for (size_t ti = 0; ti < 3; ti++) {
        mm_fixture *f = calloc(1, sizeof *f);
        mm_make(f, types[ti], 200 + ti);
        float y[MM_ROWS * (MM_OUT + 3)];
        mm_run(p, f, MM_ROWS, NULL, false, y);
        uint64_t row_bytes;
        krn_row_bytes(f->w.type, MM_IN, &row_bytes);
        for (int o = 0; o < MM_OUT; o++) {
            float wf[MM_IN];
            krn_dequantize_row(f->w.type, (char *)f->wdata + o * row_bytes, wf, MM_IN);
            for (int r = 0; r < MM_ROWS; r++) {
                double dot = 0, mag = 0;
                for (int i = 0; i < MM_IN; i++) {
                    dot += (double)wf[i] * f->x[r * MM_IN + i];
                    mag += fabs((double)wf[i] * f->x[r * MM_IN + i]);
                }
                assert_true(fabs(y[r * (MM_OUT + 3) + o] - dot) <= tols[ti] * mag);
            }
        }
        free(f->wdata);
        free(f);
    }
    krn_cpu_pool_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_runs_every_thread),
        cmocka_unit_test(test_rmsnorm),
        cmocka_unit_test(test_rmsnorm_zero_row),
        cmocka_unit_test(test_rope),
        cmocka_unit_test(test_silu),
        cmocka_unit_test(test_swiglu_aliasing),
        cmocka_unit_test(test_f16_table),
        cmocka_unit_test(test_attention_vs_double),
        cmocka_unit_test(test_attention_chunk_order),
        cmocka_unit_test(test_attention_ignores_later_slots),
        cmocka_unit_test(test_matmul_canonical),
        cmocka_unit_test(test_matmul_vs_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
