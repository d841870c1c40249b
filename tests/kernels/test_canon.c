/*
 * test_canon.c — kernels.h section 2, the canonical arithmetic: activation
 * quantization, unpacking against dequantization, the block dots and their
 * lane order, and the engine's exp/log.
 *
 * Where kernels.h pins an order the test re-implements it in its own plain
 * loops and demands the same bits; where it only promises accuracy the
 * tolerance and its reason are stated next to the assertion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/kernels.h"
#include "../support/float_bits.h"


static uint64_t rnd(uint64_t seed, uint64_t i) { return sb_hash3(seed, i, 5); }

static float rnd_sym(uint64_t seed, uint64_t i) {
    return 2.0f * sb_unit_open(rnd(seed, i)) - 1.0f;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    assert_non_null(p);
    return p;
}

static const krn_type QTYPES[] = {KRN_Q4_0, KRN_Q4_1, KRN_Q5_0, KRN_Q5_1,
                                  KRN_Q8_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
enum { NQTYPES = sizeof QTYPES / sizeof QTYPES[0] };

/* Offsets of the half-precision scale fields of each block, so random
 * blocks can be given finite scales (random bytes there could be NaN). */
static void half_fields(krn_type t, int off[2], int *count) {
    *count = 1;
    off[0] = 0;
    if (t == KRN_Q4_1 || t == KRN_Q5_1 || t == KRN_Q4_K || t == KRN_Q5_K) {
        *count = 2;
        off[1] = 2;
    }
    if (t == KRN_Q6_K)
        off[0] = 208;
}

/* A row of n weights of type t: random bytes everywhere (all codes, all
 * scale bits), then finite random halves in roughly [2^-8, 2) as the
 * block scales, with random signs. Caller frees. */
static uint8_t *random_row(krn_type t, int64_t n, uint64_t seed) {
    uint64_t bytes = 0;
    assert_true(krn_row_bytes(t, n, &bytes));
    uint8_t *row = xmalloc((size_t)bytes);
    for (uint64_t i = 0; i < bytes; i++)
        row[i] = (uint8_t)rnd(seed, i);
    const int64_t bb = krn_type_block_bytes(t);
    int off[2], count;
    half_fields(t, off, &count);
    for (int64_t b = 0; b < (int64_t)bytes / bb; b++) {
        for (int k = 0; k < count; k++) {
            uint64_t h = rnd(seed ^ 0xABCDu, (uint64_t)(b * 2 + k));
            uint16_t v = (uint16_t)(((7 + h % 8) << 10) | ((h >> 8) & 0x3FF) |
                                    ((h >> 20) & 1) << 15);
            row[b * bb + off[k]] = (uint8_t)v;
            row[b * bb + off[k] + 1] = (uint8_t)(v >> 8);
        }
    }
    return row;
}

static void random_floats(float *x, int64_t n, uint64_t seed, float scale) {
    for (int64_t i = 0; i < n; i++)
        x[i] = scale * rnd_sym(seed, (uint64_t)i);
}

/* ---- activation quantization ---------------------------------------------------- */

/* One group of g elements (g/32 blocks) against kernels.h's formula. */
static void check_act_group(const float *x, const krn_act_block *b, int g) {
    float amax = 0.0f;
    for (int i = 0; i < g; i++)
        amax = fmaxf(amax, fabsf(x[i]));
    for (int k = 0; k < g / 32; k++) {
        assert_same_float(b[k].d, amax / 127.0f);
        int32_t sum = 0;
        for (int i = 0; i < 32; i++) {
            const float xi = x[32 * k + i];
            const int qi = b[k].q[i];
            assert_true(qi >= -127 && qi <= 127);
            sum += qi;
            if (amax == 0.0f) {
                assert_int_equal(qi, 0);
                continue;
            }
            /* The pinned formula, bit for bit. */
            const float id = 127.0f / amax;
            float r = rintf(xi * id);
            r = r > 127.0f ? 127.0f : r < -127.0f ? -127.0f : r;
            assert_int_equal(qi, (int)r);
            /* And what it means: q*d is within half a step of x (plus the
             * rounding of id and d, a few ulps of amax). */
            assert_true(fabs((double)xi - (double)qi * b[k].d) <=
                        0.5 * b[k].d + 4.0 * FLT_EPSILON * amax);
            if (fabsf(xi) == amax)
                assert_int_equal(abs(qi), 127);
        }
        assert_int_equal(b[k].sum, sum);
    }
}

/* Structured blocks: zero, constant, one spike, tiny, huge, ties. */
static void structured_floats(float *x) {
    memset(x, 0, 32 * sizeof(float));
    for (int i = 0; i < 32; i++) {
        x[32 + i] = -0.75f;
        x[64 + i] = i == 7 ? 1000.0f : 0.001f * (float)i;
        x[96 + i] = 1e-30f * (float)(i - 16);
        x[128 + i] = 1e30f * (float)(i - 16);
        x[160 + i] = (float)(i - 16) + 0.5f; /* amax 16: x*id lands near .5 */
    }
}

/* K-quant matmuls read their input in groups of 256, the others in groups
 * of 32 (kernels.h: krn_act_group). */
static void test_quantize_act(void **state) {
    (void)state;
    enum { N = 32 * 64, N32 = 32 * 63 };
    float x[N];
    krn_act_block b[N / 32];
    for (int t = 0; t < NQTYPES; t++)
        assert_int_equal(krn_act_group(QTYPES[t]), krn_type_is_kquant(QTYPES[t]) ? 256 : 32);
    random_floats(x, N, 1, 3.0f);
    structured_floats(x);
    krn_quantize_act(x, b, N32, 32);
    for (int k = 0; k < N32 / 32; k++)
        check_act_group(x + 32 * k, &b[k], 32);
    assert_same_float(b[0].d, 0.0f);
    assert_int_equal(b[0].sum, 0);
    assert_int_equal(b[1].q[0], -127);
    assert_int_equal(b[1].sum, -127 * 32);

    /* In groups of 256 the spike of 1e30 sets the scale of the whole first
     * group: its other blocks quantize to 0, or near it. */
    krn_quantize_act(x, b, N, 256);
    for (int k = 0; k < N / 256; k++)
        check_act_group(x + 256 * k, &b[8 * k], 256);
    assert_int_equal(b[1].sum, 0);
    assert_same_float(b[1].d, b[4].d);
    random_floats(x, N, 2, 1.0f);
    x[300] = 50.0f;
    krn_quantize_act(x, b, N, 256);
    assert_same_float(b[8].d, 50.0f / 127.0f);
    assert_same_float(b[15].d, 50.0f / 127.0f);
    assert_true(b[16].d < b[8].d);

    /* A NaN makes its group's scale NaN (it was quantized to a
     * code of 0 under the others' scale, and the logits came out finite
     * and wrong); every other group keeps its bits. */
    krn_act_block clean[N / 32];
    for (int64_t g = 32; g <= 256; g *= 8) {
        krn_quantize_act(x, clean, N, g);
        float keep = x[700];
        x[700] = NAN;
        krn_quantize_act(x, b, N, g);
        x[700] = keep;
        for (int k = 0; k < N / 32; k++) {
            bool hit = k * 32 / g == 700 / g;
            if (hit) {
                assert_true(isnan(b[k].d));
            } else {
                assert_memory_equal(&b[k], &clean[k], sizeof b[k]);
            }
        }
    }
}

/* kernels.h pins id = 127/amax, not 1/d: the two can differ in the last
 * bit and move an element across a rounding boundary. Find such a case
 * and check the pinned one wins (a port that computes 1/d fails here). */
static void test_quantize_act_pins_id(void **state) {
    (void)state;
    float amax = 1.0f;
    while (127.0f / amax == 1.0f / (amax / 127.0f))
        amax = nextafterf(amax, 2.0f);
    const float id1 = 127.0f / amax, id2 = 1.0f / (amax / 127.0f);
    for (int k = 0; k < 127; k++) {
        float x = ((float)k + 0.5f) / id1;
        for (int s = -4; s <= 4; s++) {
            float xs = x;
            for (int i = 0; i < abs(s); i++)
                xs = nextafterf(xs, s < 0 ? 0.0f : 200.0f);
            if (rintf(xs * id1) == rintf(xs * id2))
                continue;
            float blk[32] = {amax, xs};
            krn_act_block b;
            krn_quantize_act(blk, &b, 32, 32);
            assert_int_equal(b.q[1], (int)rintf(xs * id1));
            return;
        }
    }
    fail_msg("no x found where 127/amax and 1/(amax/127) round apart");
}

/* ---- unpack against dequantize ----------------------------------------------------- */

/* Every weight, rebuilt from the unpacked block as the dequantization
 * forms it, equals the dequantized value bit for bit: Q4_K/Q5_K
 * (d*sc)*q - dmin*m, Q6_K (d*sc)*q, legacy d*q (+ m with a min). */
static void test_unpack_matches_dequant(void **state) {
    (void)state;
    enum { N = 512 };
    float y[N];
    krn_wblock w[N / 32];
    for (int t = 0; t < NQTYPES; t++) {
        const krn_type type = QTYPES[t];
        const bool has_min = krn_type_has_min(type);
        const bool kquant = krn_type_is_kquant(type);
        for (uint64_t s = 0; s < 8; s++) {
            uint8_t *row = random_row(type, N, 40 * (uint64_t)t + s);
            krn_dequantize_row(type, row, y, N);
            krn_unpack_row(type, row, w, N);
            for (int i = 0; i < N; i++) {
                const krn_wblock *b = &w[i / 32];
                const int mul = (i % 32) < 16 ? b->mul_lo : b->mul_hi;
                float v = (b->d * (float)mul) * (float)b->q[i % 32];
                if (has_min && kquant)
                    v = v - b->m * (float)b->mn;
                else if (has_min)
                    v = v + b->m;
                if (f32_bits(v) != f32_bits(y[i]))
                    fail_msg("%s seed %d elem %d: unpacked %.9g dequant %.9g",
                             krn_type_name(type), (int)s, i, v, y[i]);
            }
            for (int j = 0; j < N / 32; j++) {
                /* Legacy blocks never scale; Q4_K/Q5_K scale both halves
                 * alike; only Q4_K/Q5_K have a min multiplier. */
                if (!kquant)
                    assert_true(w[j].mul_lo == 1 && w[j].mul_hi == 1);
                if (type == KRN_Q4_K || type == KRN_Q5_K)
                    assert_int_equal(w[j].mul_lo, w[j].mul_hi);
                else
                    assert_int_equal(w[j].mn, 0);
            }
            free(row);
        }
    }
}

/* ---- the dots ---------------------------------------------------------------------------- */

/* kernels.h's lane sum, written independently: each lane walks its own
 * stride, then the butterfly pairs l with l + off for off = 16 .. 1. */
static float ref_lane_sum(const float *v, int64_t n) {
    float lane[32];
    for (int l = 0; l < 32; l++) {
        float acc = 0.0f;
        for (int64_t i = l; i < n; i += 32)
            acc += v[i];
        lane[l] = acc;
    }
    for (int off = 16; off > 0; off >>= 1)
        for (int l = 0; l < off; l++)
            lane[l] += lane[l + off];
    return lane[0];
}

/* kernels.h's quantized dot, written independently from its text: the
 * group value in 64-bit integers, then chunks of ceil(groups / 8). */
static float ref_group_value(const krn_wblock *w, const krn_act_block *x,
                             int blocks, krn_type type) {
    const bool has_min = krn_type_has_min(type);
    int64_t I[8], A = 0, B = 0;
    for (int b = 0; b < blocks; b++) {
        int64_t lo = 0, hi = 0;
        for (int i = 0; i < 16; i++) {
            lo += (int64_t)w[b].q[i] * x[b].q[i];
            hi += (int64_t)w[b].q[16 + i] * x[b].q[16 + i];
        }
        I[b] = (int64_t)w[b].mul_lo * lo + (int64_t)w[b].mul_hi * hi;
        A += I[b];
        B += (int64_t)w[b].mn * x[b].sum;
    }
    if (krn_type_is_kquant(type)) {
        assert_int_equal(blocks, 8);
        float t = w[0].d * (float)A;
        if (has_min)
            t = t - w[0].m * (float)B;
        return x[0].d * t;
    }
    float sum = 0.0f;
    for (int b = 0; b < blocks; b++) {
        float u = w[b].d * (float)I[b];
        if (has_min)
            u = u + w[b].m * (float)x[b].sum;
        sum = sum + u;
    }
    return x[0].d * sum;
}

static float ref_dot_q(const krn_wblock *w, const krn_act_block *x,
                       int64_t nb, krn_type type) {
    const int per = krn_type_is_kquant(type) ? 8 : 1;
    const int64_t groups = nb / per;
    const int64_t len = (groups + 7) / 8;
    float dot = 0.0f;
    for (int64_t c = 0; c * len < groups; c++) {
        float part = 0.0f;
        for (int64_t g = c * len; g < (c + 1) * len && g < groups; g++)
            part = part + ref_group_value(w + g * per, x + g * per, per, type);
        dot = dot + part;
    }
    return dot;
}

/* Block counts that leave lanes empty, full, and wrapped unevenly. */
/* Block counts: one group, fewer groups than chunks, chunks that divide
 * evenly and unevenly, for both group sizes. */
static const int64_t NBS[] = {1, 5, 8, 31, 32, 33, 64, 100, 112, 257, 592};

static void test_dot_q_pinned_order(void **state) {
    (void)state;
    for (int t = 0; t < NQTYPES; t++) {
        const krn_type type = QTYPES[t];
        for (size_t k = 0; k < sizeof NBS / sizeof NBS[0]; k++) {
            /* K-quants need whole super-blocks: round nb up to them. */
            const int64_t be = krn_type_block_elems(type);
            const int64_t n = (NBS[k] * 32 + be - 1) / be * be;
            const int64_t nb = n / 32;
            uint8_t *row = random_row(type, n, 7000 + 16 * (uint64_t)t + k);
            krn_wblock *w = xmalloc((size_t)nb * sizeof *w);
            krn_act_block *xb = xmalloc((size_t)nb * sizeof *xb);
            float *x = xmalloc((size_t)n * sizeof(float));
            random_floats(x, n, 8000 + k, 2.0f);
            krn_unpack_row(type, row, w, n);
            krn_quantize_act(x, xb, n, krn_act_group(type));
            assert_same_float(krn_dot_q(w, xb, nb, type), ref_dot_q(w, xb, nb, type));
            free(row), free(w), free(xb), free(x);
        }
    }
}

/* The chunks are summed separately, then in order. 16 groups of 256 make
 * 8 chunks of 2; group values 2^24, 1 | 1, -2^24 give chunk 0 = 2^24 (the
 * 1 is a tie that rounds to even) and chunk 1 = 1 - 2^24, so the dot is 1;
 * one running sum over the groups would give 0. */
static void test_dot_q_chunks(void **state) {
    (void)state;
    enum { NB = 16 * 8 };
    static krn_wblock w[NB];
    static krn_act_block x[NB];
    for (int b = 0; b < NB; b++) {
        w[b] = (krn_wblock){.d = 1.0f, .mul_lo = 1, .mul_hi = 1};
        x[b] = (krn_act_block){.d = 1.0f};
    }
    /* With d = dx = 1 a Q6_K group's value is its integer A. */
    w[0].q[0] = 64, x[0].q[0] = 64, w[0].mul_lo = 4096;    /* 2^24 */
    w[8].q[0] = 1, x[8].q[0] = 1;                          /* 1 */
    w[16].q[0] = 1, x[16].q[0] = 1;                        /* 1 */
    w[24].q[0] = -64, x[24].q[0] = 64, w[24].mul_lo = 4096; /* -2^24 */
    assert_same_float(krn_dot_q(w, x, NB, KRN_Q6_K), 1.0f);
    assert_same_float(ref_dot_q(w, x, NB, KRN_Q6_K), 1.0f);
}

static void test_dot_q_extreme_integers(void **state) {
    (void)state;
    krn_wblock w[8];
    krn_act_block x[8];
    for (int j = 0; j < 8; j++) {
        w[j] = (krn_wblock){.d = 1.0f, .m = 0.5f, .mul_lo = -128, .mul_hi = 127, .mn = 63};
        x[j] = (krn_act_block){.d = 1.0f, .sum = -127 * 32};
        memset(w[j].q, 0x80, 32);
        memset(x[j].q, 0x81, 32);
    }
    /* 16 * 128 * 127 = 260096 per half: I = -128*260096 + 127*260096. */
    assert_same_float(krn_dot_q(w, x, 1, KRN_Q8_0), -260096.0f);
    assert_same_float(krn_dot_q(w, x, 8, KRN_Q4_1), ref_dot_q(w, x, 8, KRN_Q4_1));
    /* A super-block of them: A = 8 * -260096, B = 8 * 63 * -4064. */
    assert_same_float(krn_dot_q(w, x, 8, KRN_Q6_K), -2080768.0f);
    assert_same_float(krn_dot_q(w, x, 8, KRN_Q4_K),
                      (float)-2080768 - 0.5f * (float)(8 * 63 * -4064));
}

/* The canonical dot against the real-number dot of the dequantized
 * weights and the dequantized activations, in double. Tolerance: a group
 * value carries <= 6 roundings (the conversions of A and B, the two
 * products, the difference, dx*...; legacy: 3 per block and the group's
 * adds) and enters a chunk chain of L adds and the dot's chain of P adds,
 * so the error is within (L + P + 14) * 2^-24 * S, S = Σ over groups of
 * |dx| (|d| Σ|mul q qx| + |m| Σ|qx| (with mn for K-quants)), the
 * magnitudes before cancellation. The double reference differs from the
 * block formula by the dequantization's own roundings (<= 2 per weight),
 * covered by the same S; we assert twice that. */
static void test_dot_q_accuracy(void **state) {
    (void)state;
    enum { N = 4096, NB = N / 32 };
    static float x[N], wd[N];
    static krn_wblock w[NB];
    static krn_act_block xb[NB];
    for (int t = 0; t < NQTYPES; t++) {
        const krn_type type = QTYPES[t];
        const bool has_min = krn_type_has_min(type);
        const bool kquant = krn_type_is_kquant(type);
        for (uint64_t s = 0; s < 4; s++) {
            uint8_t *row = random_row(type, N, 300 + 10 * (uint64_t)t + s);
            random_floats(x, N, 400 + s, s == 3 ? 1e-3f : 5.0f);
            krn_dequantize_row(type, row, wd, N);
            krn_unpack_row(type, row, w, N);
            krn_quantize_act(x, xb, N, krn_act_group(type));
            double ref = 0.0, S = 0.0;
            for (int j = 0; j < NB; j++) {
                double mag = 0.0, qabs = 0.0;
                for (int i = 0; i < 32; i++) {
                    const int mul = i < 16 ? w[j].mul_lo : w[j].mul_hi;
                    ref += (double)wd[32 * j + i] *
                           ((double)xb[j].d * xb[j].q[i]);
                    mag += fabs((double)mul * w[j].q[i] * xb[j].q[i]);
                    qabs += abs(xb[j].q[i]);
                }
                const double mw = kquant ? fabs((double)w[j].m * w[j].mn)
                                         : fabs((double)w[j].m);
                S += fabs((double)xb[j].d) *
                     (fabs((double)w[j].d) * mag + (has_min ? mw * qabs : 0.0));
            }
            const int64_t groups = N / krn_act_group(type), L = (groups + 7) / 8;
            const double tol = 2.0 * (double)(L + 8 + 14) * 0x1p-24 * S;
            const float got = krn_dot_q(w, xb, NB, type);
            if (fabs(got - ref) > tol)
                fail_msg("%s: dot %.9g ref %.9g tol %.3g", krn_type_name(type),
                         got, ref, tol);
            free(row);
        }
    }
}

static float ref_dot_f(const float *w, const float *x, int64_t n) {
    float *v = xmalloc((size_t)(n / 32) * sizeof(float) + 1);
    for (int64_t j = 0; j < n / 32; j++) {
        float acc = 0.0f;
        for (int i = 0; i < 32; i++)
            acc += w[32 * j + i] * x[32 * j + i];
        v[j] = acc;
    }
    float r = ref_lane_sum(v, n / 32);
    free(v);
    return r;
}

static void test_dot_f_pinned_order(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof NBS / sizeof NBS[0]; k++) {
        const int64_t n = NBS[k] * 32;
        float *w = xmalloc((size_t)n * sizeof(float));
        float *x = xmalloc((size_t)n * sizeof(float));
        random_floats(w, n, 50 + k, 1.0f);
        random_floats(x, n, 60 + k, 100.0f);
        assert_same_float(krn_dot_f(w, x, n), ref_dot_f(w, x, n));
        free(w), free(x);
    }
    /* Order inside a block is sequential from 0.0f: 1e8 + 1 + ... loses
     * the ones, a pairwise sum would not. */
    float w[32], x[32];
    for (int i = 0; i < 32; i++)
        w[i] = 1.0f, x[i] = 1.0f;
    x[0] = 1e8f;
    x[31] = -1e8f;
    assert_same_float(krn_dot_f(w, x, 32), 0.0f);
}

static void test_lane_sum(void **state) {
    (void)state;
    static const int64_t ns[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 1000, 4099};
    static float v[4099];
    random_floats(v, 4099, 77, 1e3f);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        assert_same_float(krn_lane_sum(v, ns[k]), ref_lane_sum(v, ns[k]));
    assert_same_float(krn_lane_sum(v, 0), 0.0f);
    assert_same_float(krn_lane_sum(v, 1), v[0]);

    /* Lanes, not a left-to-right sum: lane 0 holds 1e8 + 1 = 1e8 (the 1 is
     * below half an ulp of 1e8), lane 1 holds -1e8, so the answer is 0; a
     * sequential sum would give 1. */
    float a[64] = {0};
    a[0] = 1e8f, a[1] = -1e8f, a[32] = 1.0f;
    assert_same_float(krn_lane_sum(a, 64), 0.0f);
    /* The fold pairs lane l with l + 16 first: lanes 0 and 16 cancel
     * before lane 1 is added, giving 1; folding neighbours first would
     * give (1e8 + 1) - 1e8 = 0. */
    float b[32] = {0};
    b[0] = 1e8f, b[16] = -1e8f, b[1] = 1.0f;
    assert_same_float(krn_lane_sum(b, 32), 1.0f);
    /* The last two levels add lane 2, then lane 1, to lane 0 one at a
     * time: 2^24 + 1 is a tie that rounds back to 2^24 (even), twice.
     * Adding lanes 1 and 2 first would keep both ones: 2^24 + 2. */
    float c[32] = {0};
    c[0] = 16777216.0f, c[1] = 1.0f, c[2] = 1.0f;
    assert_same_float(krn_lane_sum(c, 32), 16777216.0f);
}

/* ---- exp and log ------------------------------------------------------------------------ */

/* |got - want| in units of the float ulp at want (normal range), or of
 * 2^-149 when want is below the normal range. */
static double ulp_err(float got, double want) {
    double a = fabs(want);
    double ulp = a < 0x1p-126 ? 0x1p-149 : ldexp(1.0, ilogb(a) - 23);
    return fabs((double)got - want) / ulp;
}

/* Evenly spaced float bit patterns between two floats of the same sign. */
static void sweep_exp(uint32_t from, uint32_t to, uint32_t count,
                      double *worst) {
    for (uint32_t i = 0; i <= count; i++) {
        uint32_t u = (uint32_t)(from + ((uint64_t)(to - from) * i) / count);
        float x = bits_f32(u);
        double want = exp((double)x);
        double e = ulp_err(krn_exp(x), want);
        if (e > *worst)
            *worst = e;
        if (e > 2.0)
            fail_msg("krn_exp(%.9g) = %.9g, want %.17g (%.2f ulp)", x,
                     krn_exp(x), want, e);
    }
}

/* Error <= 2 ulp where the result is normal, <= 1 unit of 2^-149 where it
 * is subnormal (a single rounding at the last step); zero and infinity
 * exactly at the ends. */
static void test_exp(void **state) {
    (void)state;
    double worst = 0.0;
    /* Normal results: x in [ln 2^-126, ln FLT_MAX). */
    sweep_exp(f32_bits(-0.0f), f32_bits(-87.33654f), 1500000, &worst);
    sweep_exp(f32_bits(0.0f), f32_bits(88.72283f), 1500000, &worst);
    /* Dense in value where softmax and SiLU live. */
    for (int i = -400000; i <= 400000; i++) {
        float x = (float)i * (20.0f / 400000.0f);
        double e = ulp_err(krn_exp(x), exp((double)x));
        assert_true(e <= 2.0);
    }
    /* Subnormal results. */
    for (uint32_t i = 0; i <= 200000; i++) {
        float x = -87.34f - (float)i * (16.63f / 200000.0f);
        double want = exp((double)x);
        assert_true(fabs((double)krn_exp(x) - want) <= 0x1p-149);
    }
    assert_same_float(krn_exp(0.0f), 1.0f);
    assert_same_float(krn_exp(-0.0f), 1.0f);
    assert_same_float(krn_exp(-INFINITY), 0.0f);
    assert_true(isinf(krn_exp(INFINITY)) && krn_exp(INFINITY) > 0);
    assert_true(isnan(krn_exp(NAN)));
    assert_same_float(krn_exp(-104.0f), 0.0f);
    assert_same_float(krn_exp(-103.98f), 0.0f);  /* below ln 2^-150 */
    assert_same_float(krn_exp(-103.9f), 0x1p-149f);
    assert_same_float(krn_exp(-1000.0f), 0.0f);
    assert_true(isfinite(krn_exp(88.72283f)));
    assert_true(isinf(krn_exp(88.7229f)));
    assert_true(isinf(krn_exp(100.0f)));
    print_message("krn_exp worst %.3f ulp\n", worst);
}

static void test_log(void **state) {
    (void)state;
    double worst = 0.0;
    /* All normal positive floats, evenly spaced bit patterns. */
    const uint32_t lo = 0x00800000, hi = 0x7F7FFFFF, count = 2000000;
    for (uint32_t i = 0; i <= count; i++) {
        float x = bits_f32((uint32_t)(lo + ((uint64_t)(hi - lo) * i) / count));
        double e = ulp_err(krn_log(x), log((double)x));
        if (e > worst)
            worst = e;
        if (e > 2.0)
            fail_msg("krn_log(%.9g) = %.9g (%.2f ulp)", x, krn_log(x), e);
    }
    /* Every 16th float in [0.5, 2], where log is small and cancellation
     * would show. */
    for (uint32_t u = f32_bits(0.5f); u <= f32_bits(2.0f); u += 16) {
        float x = bits_f32(u);
        double e = ulp_err(krn_log(x), log((double)x));
        if (e > worst)
            worst = e;
        assert_true(e <= 2.0);
    }
    /* Subnormal inputs still give normal results. */
    for (uint32_t u = 1; u < 0x00800000; u += 4099)
        assert_true(ulp_err(krn_log(bits_f32(u)), log((double)bits_f32(u))) <= 2.0);
    assert_same_float(krn_log(1.0f), 0.0f);
    assert_true(isinf(krn_log(0.0f)) && krn_log(0.0f) < 0);
    assert_true(isinf(krn_log(-0.0f)) && krn_log(-0.0f) < 0);
    assert_true(isnan(krn_log(-1.0f)));
    assert_true(isnan(krn_log(NAN)));
    assert_true(isinf(krn_log(INFINITY)) && krn_log(INFINITY) > 0);
    assert_true(ulp_err(krn_log(FLT_MAX), log((double)FLT_MAX)) <= 2.0);
    print_message("krn_log worst %.3f ulp\n", worst);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantize_act),
        cmocka_unit_test(test_quantize_act_pins_id),
        cmocka_unit_test(test_unpack_matches_dequant),
        cmocka_unit_test(test_dot_q_pinned_order),
        cmocka_unit_test(test_dot_q_chunks),
        cmocka_unit_test(test_dot_q_extreme_integers),
        cmocka_unit_test(test_dot_q_accuracy),
        cmocka_unit_test(test_dot_f_pinned_order),
        cmocka_unit_test(test_lane_sum),
        cmocka_unit_test(test_exp),
        cmocka_unit_test(test_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
