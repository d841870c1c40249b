/*
 * test_quant.c — kernels.h section 1: the type table, row sizes, half and
 * bfloat16 conversions, dequantization of every ggml block type, and the
 * quantizers' round trip.
 *
 * Dequantization is checked on blocks the test builds itself: a writer
 * below puts each element's code where ggml's layout says it lives, and the
 * expected value is ggml's formula evaluated here in ggml's operand order,
 * so the comparison is exact. A few hand-written byte patterns anchor the
 * writer to the layout independently of either.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../kernels/kernels.h"
#include "../support/float_bits.h"

/* ---- helpers ----------------------------------------------------------------- */


static uint64_t rnd(uint64_t seed, uint64_t i) { return sb_hash3(seed, i, 77); }

/* Uniform in (-1, 1). */
static float rnd_sym(uint64_t seed, uint64_t i) {
    return 2.0f * sb_unit_open(rnd(seed, i)) - 1.0f;
}

static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* A positive half in roughly [2^-8, 2) with random mantissa. */
static uint16_t rnd_half(uint64_t seed, uint64_t i) {
    uint64_t h = rnd(seed, i);
    return (uint16_t)(((7 + h % 8) << 10) | ((h >> 8) & 0x3FF));
}

/* ---- type table and row sizes --------------------------------------------------- */

static void test_type_table(void **state) {
    (void)state;
    static const struct {
        krn_type t;
        const char *name;
        int64_t elems, bytes;
        bool min, quant;
    } want[] = {
        {KRN_F32, "f32", 1, 4, false, false},
        {KRN_F16, "f16", 1, 2, false, false},
        {KRN_Q4_0, "q4_0", 32, 18, false, true},
        {KRN_Q4_1, "q4_1", 32, 20, true, true},
        {KRN_Q5_0, "q5_0", 32, 22, false, true},
        {KRN_Q5_1, "q5_1", 32, 24, true, true},
        {KRN_Q8_0, "q8_0", 32, 34, false, true},
        {KRN_Q4_K, "q4_K", 256, 144, true, true},
        {KRN_Q5_K, "q5_K", 256, 176, true, true},
        {KRN_Q6_K, "q6_K", 256, 210, false, true},
        {KRN_BF16, "bf16", 1, 2, false, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_true(krn_type_known(want[i].t));
        assert_string_equal(krn_type_name(want[i].t), want[i].name);
        assert_int_equal(krn_type_block_elems(want[i].t), want[i].elems);
        assert_int_equal(krn_type_block_bytes(want[i].t), want[i].bytes);
        assert_int_equal(krn_type_has_min(want[i].t), want[i].min);
        assert_int_equal(krn_type_is_quantized(want[i].t), want[i].quant);
    }
    /* ggml numbers we do not support (q8_1, q2_K, q3_K, iq*) and junk. */
    static const uint32_t unknown[] = {4, 5, 9, 10, 11, 15, 16, 29, 31, 1000,
                                       0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        assert_false(krn_type_known(unknown[i]));
        assert_string_equal(krn_type_name(unknown[i]), "?");
    }
}

static void test_row_bytes(void **state) {
    (void)state;
    uint64_t b = 0;
    assert_true(krn_row_bytes(KRN_Q4_K, 3584, &b));
    assert_int_equal(b, 14 * 144);
    assert_true(krn_row_bytes(KRN_Q8_0, 64, &b));
    assert_int_equal(b, 68);
    assert_true(krn_row_bytes(KRN_F16, 7, &b));
    assert_int_equal(b, 14);
    assert_true(krn_row_bytes(KRN_F32, 0, &b));
    assert_int_equal(b, 0);
    /* Not a whole number of blocks. */
    assert_false(krn_row_bytes(KRN_Q4_K, 3584 + 32, &b));
    assert_false(krn_row_bytes(KRN_Q5_0, 33, &b));
    assert_false(krn_row_bytes(KRN_Q6_K, -256, &b));
    /* Unknown type. */
    assert_false(krn_row_bytes((krn_type)4, 32, &b));
    /* 4 * (2^63 - 1) does not fit in 64 bits; 2 * (2^63 - 1) does. */
    assert_false(krn_row_bytes(KRN_F32, INT64_MAX, &b));
    assert_true(krn_row_bytes(KRN_F16, INT64_MAX, &b));
    assert_int_equal(b, UINT64_MAX - 1);
}

/* ---- half and bfloat16 -------------------------------------------------------------- */

static void test_fp16_to_fp32(void **state) {
    (void)state;
    assert_same_float(krn_fp16_to_fp32(0x0000), 0.0f);
    assert_same_float(krn_fp16_to_fp32(0x8000), -0.0f);
    assert_same_float(krn_fp16_to_fp32(0x3C00), 1.0f);
    assert_same_float(krn_fp16_to_fp32(0xC000), -2.0f);
    assert_same_float(krn_fp16_to_fp32(0x7BFF), 65504.0f);
    assert_same_float(krn_fp16_to_fp32(0x0400), ldexpf(1.0f, -14));
    assert_same_float(krn_fp16_to_fp32(0x0001), ldexpf(1.0f, -24));
    assert_same_float(krn_fp16_to_fp32(0x03FF), ldexpf(1023.0f, -24));
    assert_same_float(krn_fp16_to_fp32(0x83FF), -ldexpf(1023.0f, -24));
    assert_same_float(krn_fp16_to_fp32(0x3555), 0x1.554p-2f);
    assert_true(isinf(krn_fp16_to_fp32(0x7C00)) && krn_fp16_to_fp32(0x7C00) > 0);
    assert_true(isinf(krn_fp16_to_fp32(0xFC00)) && krn_fp16_to_fp32(0xFC00) < 0);
    assert_true(isnan(krn_fp16_to_fp32(0x7E00)));
    assert_true(isnan(krn_fp16_to_fp32(0x7C01))); /* signalling payload */
    assert_true(isnan(krn_fp16_to_fp32(0xFFFF)));
    /* Every finite half: value = (-1)^s * 2^(e-15) * (1 + m/1024), or the
     * subnormal m * 2^-24, computed here in double. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
        if (e == 0x1F)
            continue;
        double v = e ? ldexp(1.0 + m / 1024.0, (int)e - 15) : ldexp(m, -24);
        if (h & 0x8000)
            v = -v;
        assert_true(krn_fp16_to_fp32((uint16_t)h) == (float)v);
    }
}

static void test_fp32_to_fp16_edges(void **state) {
    (void)state;
    assert_int_equal(krn_fp32_to_fp16(0.0f), 0x0000);
    assert_int_equal(krn_fp32_to_fp16(-0.0f), 0x8000);
    assert_int_equal(krn_fp32_to_fp16(1.0f), 0x3C00);
    assert_int_equal(krn_fp32_to_fp16(65504.0f), 0x7BFF);
    /* Overflow: 65520 is the tie between 65504 (odd mantissa) and 2^16,
     * so it goes to infinity; just below it stays finite. */
    assert_int_equal(krn_fp32_to_fp16(65519.996f), 0x7BFF);
    assert_int_equal(krn_fp32_to_fp16(65520.0f), 0x7C00);
    assert_int_equal(krn_fp32_to_fp16(-1e9f), 0xFC00);
    assert_int_equal(krn_fp32_to_fp16(INFINITY), 0x7C00);
    assert_int_equal(krn_fp32_to_fp16(-INFINITY), 0xFC00);
    /* Ties to even in the normal range: 1 + 2^-11 is halfway between 1
     * and 1 + 2^-10. */
    assert_int_equal(krn_fp32_to_fp16(1.0f + 0x1p-11f), 0x3C00);
    assert_int_equal(krn_fp32_to_fp16(1.0f + 0x3p-11f), 0x3C02);
    assert_int_equal(krn_fp32_to_fp16(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
    /* Carry from the mantissa into the exponent. */
    assert_int_equal(krn_fp32_to_fp16(2.0f - 0x1p-12f), 0x4000);
    /* Subnormals: units of 2^-24. */
    assert_int_equal(krn_fp32_to_fp16(0x1p-24f), 0x0001);
    assert_int_equal(krn_fp32_to_fp16(0x1p-25f), 0x0000);           /* tie, even */
    assert_int_equal(krn_fp32_to_fp16(0x1.000002p-25f), 0x0001);    /* above tie */
    assert_int_equal(krn_fp32_to_fp16(0x3p-25f), 0x0002);           /* tie, even */
    assert_int_equal(krn_fp32_to_fp16(0x5p-25f), 0x0002);           /* tie, even */
    assert_int_equal(krn_fp32_to_fp16(-0x1p-30f), 0x8000);
    assert_int_equal(krn_fp32_to_fp16(0x1p-149f), 0x0000);
    /* 1023.5 * 2^-24 is a tie whose even side is 0x400, the smallest
     * normal. */
    assert_int_equal(krn_fp32_to_fp16(0x1.ffcp-15f), 0x0400);
    assert_int_equal(krn_fp32_to_fp16(0x1.ff8p-15f), 0x03FF);
    /* NaN stays NaN (any sign, any payload). */
    for (uint32_t u = 0x7F800001; u <= 0x7FFFFFFFu; u += 0x10001) {
        uint16_t h = krn_fp32_to_fp16(bits_f32(u));
        assert_int_equal(h & 0x7C00, 0x7C00);
        assert_true((h & 0x3FF) != 0);
        h = krn_fp32_to_fp16(bits_f32(u | 0x80000000u));
        assert_int_equal(h & 0xFC00, 0xFC00);
        assert_true((h & 0x3FF) != 0);
    }
}

/* Round to nearest even by the definition: among the two neighbouring
 * halves (found via the exact decoder) pick the closer, the even one on a
 * tie. Independent of the bit tricks in kernels/formats.c. */
static uint16_t ref_fp16(float f) {
    if (isnan(f))
        return 0x7E00;
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (a >= 65520.0)
        return sign | 0x7C00;
    uint16_t lo = 0, hi = 0x7C00; /* lo <= a < value(hi) */
    while (hi - lo > 1) {
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if ((double)krn_fp16_to_fp32(mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    double dl = a - krn_fp16_to_fp32(lo), dh = krn_fp16_to_fp32(hi) - a;
    uint16_t r = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo);
    return sign | r;
}

static void test_fp32_to_fp16_sweep(void **state) {
    (void)state;
    /* Every half round-trips. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF))
            continue;
        assert_int_equal(krn_fp32_to_fp16(krn_fp16_to_fp32((uint16_t)h)), h);
    }
    /* Floats across the whole half range, including exact midpoints
     * (low 13 bits 0x1000) and their neighbours. */
    for (uint32_t i = 0; i < 200000; i++) {
        uint32_t u = (uint32_t)(0x33000000u + (uint64_t)i * 0x14800000u / 200000u);
        if (i % 3 == 0)
            u = (u & ~0x1FFFu) | 0x1000u;
        for (int s = 0; s < 2; s++) {
            float f = bits_f32(u | (s ? 0x80000000u : 0));
            assert_int_equal(krn_fp32_to_fp16(f), ref_fp16(f));
        }
    }
}

static void test_bf16(void **state) {
    (void)state;
    assert_same_float(krn_bf16_to_fp32(0x3F80), 1.0f);
    assert_same_float(krn_bf16_to_fp32(0xC049), bits_f32(0xC0490000));
    assert_same_float(krn_bf16_to_fp32(0x0001), bits_f32(0x00010000));
    assert_true(isinf(krn_bf16_to_fp32(0x7F80)));
    assert_true(isnan(krn_bf16_to_fp32(0x7FC0)));
    assert_int_equal(krn_fp32_to_bf16(1.0f), 0x3F80);
    assert_int_equal(krn_fp32_to_bf16(-0.0f), 0x8000);
    /* Ties to even, away from a tie, carries. */
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x3F808000)), 0x3F80);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x3F818000)), 0x3F82);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x3F808001)), 0x3F81);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x3F807FFF)), 0x3F80);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x3FFFFFFF)), 0x4000);
    /* Overflow to infinity, infinities kept. */
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x7F7FFFFF)), 0x7F80);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0xFF7F8000)), 0xFF80);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0xFF7F7FFF)), 0xFF7F);
    assert_int_equal(krn_fp32_to_bf16(INFINITY), 0x7F80);
    assert_int_equal(krn_fp32_to_bf16(-INFINITY), 0xFF80);
    /* Subnormals round, they are not flushed. */
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x00008000)), 0x0000);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x00018000)), 0x0002);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x00008001)), 0x0001);
    assert_int_equal(krn_fp32_to_bf16(bits_f32(0x007FFFFF)), 0x0080);
    /* NaN stays NaN, even when only low payload bits are set (a plain
     * round would carry it into infinity). */
    static const uint32_t nans[] = {0x7F800001, 0x7FFFFFFF, 0xFF800001,
                                    0x7FC00000};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
        assert_true(isnan(krn_bf16_to_fp32(krn_fp32_to_bf16(bits_f32(nans[i])))));
    /* Every non-NaN bf16 round-trips. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7F80) == 0x7F80 && (h & 0x7F))
            continue;
        assert_int_equal(krn_fp32_to_bf16(krn_bf16_to_fp32((uint16_t)h)), h);
    }
}

/* ---- a test-side writer of ggml's layouts --------------------------------------------- */

/* Writes code c of element e into a zeroed block of `type`, where ggml's
 * layout puts it (documented per type). */
static void put_code(krn_type type, uint8_t *b, int e, int c) {
    int nib_hi = 0, qs = 0, j = e / 32, l = e % 32;
    switch (type) {
    case KRN_Q4_0: case KRN_Q4_1: case KRN_Q5_0: case KRN_Q5_1: {
        /* Elements 0..15 in the low nibbles of qs[0..15], 16..31 in the
         * high nibbles; the 5th bit of element e is bit e of u32 qh. */
        qs = type == KRN_Q4_0 ? 2 : type == KRN_Q4_1 ? 4 : type == KRN_Q5_0 ? 6 : 8;
        b[qs + e % 16] |= (uint8_t)((c & 0xF) << (e >= 16 ? 4 : 0));
        if (type == KRN_Q5_0 || type == KRN_Q5_1)
            b[qs - 4 + e / 8] |= (uint8_t)(((c >> 4) & 1) << (e % 8));
        return;
    }
    case KRN_Q8_0:
        b[2 + e] = (uint8_t)(int8_t)c;
        return;
    case KRN_Q4_K: case KRN_Q5_K:
        /* Sub-blocks 2p, 2p+1 share 32 bytes: low nibbles, high nibbles. */
        qs = type == KRN_Q4_K ? 16 : 48;
        nib_hi = j % 2;
        b[qs + 32 * (j / 2) + l] |= (uint8_t)((c & 0xF) << (4 * nib_hi));
        if (type == KRN_Q5_K)
            b[16 + l] |= (uint8_t)(((c >> 4) & 1) << j);
        return;
    case KRN_Q6_K: {
        /* Two halves of 128; in each, quarters 0,1 use low nibbles of
         * ql[0..31], ql[32..63], quarters 2,3 their high nibbles; the top
         * 2 bits of quarter k go to bits 2k,2k+1 of qh[l] (32 per half). */
        int half = e / 128, k = (e % 128) / 32;
        b[64 * half + 32 * (k % 2) + l] |= (uint8_t)((c & 0xF) << (k >= 2 ? 4 : 0));
        b[128 + 32 * half + l] |= (uint8_t)(((c >> 4) & 3) << (2 * k));
        return;
    }
    default:
        fail_msg("put_code: type %d", (int)type);
    }
}

/* The 12 scale bytes of Q4_K/Q5_K from 6-bit (scale, min) pairs: pairs
 * 0..3 in the low 6 bits of bytes 0..3 (scale) and 4..7 (min); pairs 4..7
 * as nibbles of bytes 8..11 (scale low, min high) with their top 2 bits in
 * bits 6..7 of bytes 0..3 (scale) and 4..7 (min). */
static void put_k_scales(uint8_t *s, const int sc[8], const int mn[8]) {
    memset(s, 0, 12);
    for (int j = 0; j < 4; j++) {
        s[j] = (uint8_t)(sc[j] | ((sc[j + 4] >> 4) << 6));
        s[j + 4] = (uint8_t)(mn[j] | ((mn[j + 4] >> 4) << 6));
        s[j + 8] = (uint8_t)((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
    }
}

static int code_bits(krn_type t) {
    switch (t) {
    case KRN_Q4_0: case KRN_Q4_1: case KRN_Q4_K: return 4;
    case KRN_Q5_0: case KRN_Q5_1: case KRN_Q5_K: return 5;
    case KRN_Q6_K: return 6;
    default: return 8;
    }
}

typedef struct block_case {
    uint8_t b[256];
    int code[256];
    float d, m;               /* d and min (dmin for K) as floats */
    int sc[16], mn[8];        /* K scales; Q6_K uses sc[0..15] as int8 */
} block_case;

/* A random block of `type` with its codes and scales remembered. */
static void make_block(krn_type type, uint64_t seed, block_case *c) {
    const int n = (int)krn_type_block_elems(type);
    memset(c, 0, sizeof *c);
    for (int e = 0; e < n; e++) {
        uint64_t h = rnd(seed, (uint64_t)e);
        c->code[e] = (int)(h % (1u << code_bits(type)));
        if (type == KRN_Q8_0)
            c->code[e] -= 128;
        put_code(type, c->b, e, c->code[e]);
    }
    uint16_t dh = rnd_half(seed, 1000), mh = rnd_half(seed, 1001);
    c->d = krn_fp16_to_fp32(dh);
    c->m = krn_fp16_to_fp32(mh);
    switch (type) {
    case KRN_Q4_1: case KRN_Q5_1:
        put16(c->b + 2, mh);
        /* fall through */
    case KRN_Q4_0: case KRN_Q5_0: case KRN_Q8_0:
        put16(c->b, dh);
        return;
    case KRN_Q4_K: case KRN_Q5_K:
        for (int j = 0; j < 8; j++) {
            c->sc[j] = (int)(rnd(seed, 2000 + (uint64_t)j) % 64);
            c->mn[j] = (int)(rnd(seed, 3000 + (uint64_t)j) % 64);
        }
        put16(c->b, dh);
        put16(c->b + 2, mh);
        put_k_scales(c->b + 4, c->sc, c->mn);
        return;
    case KRN_Q6_K:
        for (int j = 0; j < 16; j++) {
            c->sc[j] = (int)(rnd(seed, 2000 + (uint64_t)j) % 256) - 128;
            c->b[192 + j] = (uint8_t)(int8_t)c->sc[j];
        }
        put16(c->b + 208, dh);
        return;
    default:
        fail();
    }
}

/* ggml's value of element e, in ggml's operand order. */
static float expected_value(krn_type type, const block_case *c, int e) {
    const int q = c->code[e];
    switch (type) {
    case KRN_Q4_0: return (float)(q - 8) * c->d;
    case KRN_Q5_0: return (float)(q - 16) * c->d;
    case KRN_Q4_1: case KRN_Q5_1: return (float)q * c->d + c->m;
    case KRN_Q8_0: return (float)q * c->d;
    case KRN_Q4_K: case KRN_Q5_K: {
        const float d1 = c->d * (float)c->sc[e / 32];
        const float m1 = c->m * (float)c->mn[e / 32];
        return d1 * (float)q - m1;
    }
    case KRN_Q6_K: return c->d * (float)c->sc[e / 16] * (float)(q - 32);
    default: fail(); return 0.0f;
    }
}

static const krn_type QTYPES[] = {KRN_Q4_0, KRN_Q4_1, KRN_Q5_0, KRN_Q5_1,
                                  KRN_Q8_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};

/* Every element of 64 random blocks per type, bit for bit. */
static void test_dequant_random_blocks(void **state) {
    (void)state;
    for (size_t t = 0; t < sizeof QTYPES / sizeof QTYPES[0]; t++) {
        const krn_type type = QTYPES[t];
        const int n = (int)krn_type_block_elems(type);
        for (uint64_t s = 0; s < 64; s++) {
            block_case c;
            float y[256];
            make_block(type, 100 * t + s, &c);
            krn_dequantize_row(type, c.b, y, n);
            for (int e = 0; e < n; e++)
                assert_same_float(y[e], expected_value(type, &c, e));
        }
    }
}

/* Hand-written bytes, values worked out from ggml's layout on paper. */
static void test_dequant_anchors(void **state) {
    (void)state;
    uint8_t b[256];
    float y[256];
    /* Q4_0, d = 1: qs[0] = 0x1F -> element 0 = 15-8, element 16 = 1-8. */
    memset(b, 0x88, sizeof b);
    put16(b, 0x3C00);
    b[2] = 0x1F;
    krn_dequantize_row(KRN_Q4_0, b, y, 32);
    assert_same_float(y[0], 7.0f);
    assert_same_float(y[16], -7.0f);
    assert_same_float(y[1], 0.0f);
    /* Q5_0, d = 0.5: qh bytes 01 00 01 80 set the 5th bit of elements 0,
     * 16 and 31; qs all zero. */
    memset(b, 0, sizeof b);
    put16(b, 0x3800);
    b[2] = 0x01, b[4] = 0x01, b[5] = 0x80;
    krn_dequantize_row(KRN_Q5_0, b, y, 32);
    assert_same_float(y[0], 0.0f);
    assert_same_float(y[1], -8.0f);
    assert_same_float(y[16], 0.0f);
    assert_same_float(y[31], 0.0f);
    assert_same_float(y[30], -8.0f);
    /* Q5_1, d = 1, m = -16: same as Q5_0 through the min. */
    memset(b, 0, sizeof b);
    put16(b, 0x3C00);
    put16(b + 2, 0xCC00);
    b[4] = 0x01;
    b[8] = 0xF0; /* element 16 = 15 - 16 */
    krn_dequantize_row(KRN_Q5_1, b, y, 32);
    assert_same_float(y[0], 0.0f);
    assert_same_float(y[16], -1.0f);
    /* Q4_K, d = dmin = 1, all codes 1: each sub-block j gets sc_j - m_j.
     * Setting one 6-bit value to 63 at a time shows where its bits live. */
    for (int j = 0; j < 8; j++) {
        for (int which = 0; which < 2; which++) {
            memset(b, 0, sizeof b);
            put16(b, 0x3C00);
            put16(b + 2, 0x3C00);
            memset(b + 16, 0x11, 128);
            uint8_t *s = b + 4;
            if (j < 4) {
                s[j + 4 * which] = 0x3F;
            } else {
                s[j + 4] = which ? 0xF0 : 0x0F;
                s[which ? j : j - 4] = 0xC0;
            }
            krn_dequantize_row(KRN_Q4_K, b, y, 256);
            for (int k = 0; k < 8; k++)
                assert_same_float(y[32 * k + 5],
                                  k != j ? 0.0f : which ? -63.0f : 63.0f);
        }
    }
    /* Q6_K, d = 1, all scales 1: ql[0] = 0x21, qh[0] = 0xE4 (bit pairs
     * 0,1,2,3 from the bottom), ql[32] = 0x43 give elements 0, 32, 64, 96
     * the 6-bit codes 0x01, 0x13, 0x22, 0x34. */
    memset(b, 0, sizeof b);
    memset(b + 192, 1, 16);
    put16(b + 208, 0x3C00);
    b[0] = 0x21, b[32] = 0x43, b[128] = 0xE4;
    krn_dequantize_row(KRN_Q6_K, b, y, 256);
    assert_same_float(y[0], (float)(0x01 - 32));
    assert_same_float(y[32], (float)(0x13 - 32));
    assert_same_float(y[64], (float)(0x22 - 32));
    assert_same_float(y[96], (float)(0x34 - 32));
    assert_same_float(y[128], -32.0f);
}

static void test_dequant_float_types(void **state) {
    (void)state;
    uint8_t b[64];
    float y[16], x[16];
    for (int i = 0; i < 16; i++) {
        x[i] = rnd_sym(7, (uint64_t)i) * 100.0f;
        put16(b + 2 * i, (uint16_t)(0x3C00 + 37 * i));
    }
    krn_dequantize_row(KRN_F16, b, y, 16);
    for (int i = 0; i < 16; i++)
        assert_same_float(y[i], krn_fp16_to_fp32((uint16_t)(0x3C00 + 37 * i)));
    krn_dequantize_row(KRN_BF16, b, y, 16);
    for (int i = 0; i < 16; i++)
        assert_int_equal(f32_bits(y[i]), (uint32_t)(0x3C00 + 37 * i) << 16);
    krn_dequantize_row(KRN_F32, x, y, 16);
    assert_memory_equal(x, y, sizeof x);
}

/* Rows of several blocks: block i is read from byte i*block_bytes. */
static void test_dequant_multi_block_row(void **state) {
    (void)state;
    for (size_t t = 0; t < sizeof QTYPES / sizeof QTYPES[0]; t++) {
        const krn_type type = QTYPES[t];
        const int be = (int)krn_type_block_elems(type);
        const int bb = (int)krn_type_block_bytes(type);
        block_case c[3];
        uint8_t row[3 * 256];
        float y[3 * 256];
        for (int i = 0; i < 3; i++) {
            make_block(type, 900 + 10 * t + (uint64_t)i, &c[i]);
            memcpy(row + i * bb, c[i].b, (size_t)bb);
        }
        krn_dequantize_row(type, row, y, 3 * be);
        for (int i = 0; i < 3; i++)
            for (int e = 0; e < be; e++)
                assert_same_float(y[i * be + e], expected_value(type, &c[i], e));
    }
}

/* ---- quantize round trip -------------------------------------------------------------- */

/* Worst error allowed per element, as a fraction of the amax of the
 * element's block (256 for K-quants, 32 otherwise). Derivations:
 *  Q8_0: round to the step d = amax/127 (<= d/2), plus the half rounding
 *        of d (<= 2^-11 relative) times |q| <= 127: 0.562 d = 0.00443.
 *  Q4_0/Q5_0: step amax/8 (amax/16) anchored on the signed max; the
 *        opposite extreme rounds to code 16 (32) and is capped one step
 *        lower, so a full step, plus the half rounding of d: 1.008 step.
 *  Q4_K/Q5_K: mins and steps rounded up (never clipped): step <= (range
 *        + one dmin quantum)/L * (1 + 1/63) with range <= 2 amax and
 *        quanta <= amax/63 * (1 + 2^-10): error <= 1.024 amax / L,
 *        L = 15 (31).
 *  Q6_K: step = amax16/31 rounded up by at most d <= amax/(31*127)*1.001:
 *        error <= 0.5 * (1 + 1.001/127) amax / 31 = 0.01626.
 * Each gets 1e-6 of slack for fp32 rounding in the arithmetic. */
static double rt_bound(krn_type t) {
    switch (t) {
    case KRN_Q8_0: return 0.00443;
    case KRN_Q4_0: return 1.008 / 8;
    case KRN_Q5_0: return 1.008 / 16;
    case KRN_Q4_K: return 1.024 / 15;
    case KRN_Q5_K: return 1.024 / 31;
    case KRN_Q6_K: return 0.01626;
    default: return 0;
    }
}

static void fill_pattern(float *x, int n, int pattern, uint64_t seed) {
    for (int i = 0; i < n; i++) {
        float r = rnd_sym(seed, (uint64_t)i);
        switch (pattern) {
        case 0: x[i] = r; break;                            /* symmetric */
        case 1: x[i] = 0.5f * r + 0.6f; break;              /* all positive */
        case 2: x[i] = 0.5f * r - 0.6f; break;              /* all negative */
        case 3: x[i] = (i % 37 == 5) ? 8.0f * r : 0.01f * r; break; /* outliers */
        case 4: x[i] = 0.0f; break;
        default: x[i] = 0.25f; break;                       /* constant */
        }
    }
}

static void check_round_trip(krn_type type, int pattern) {
    enum { N = 1024 };
    static float x[N], y[N];
    static uint8_t q[N * 2];
    const int be = (int)krn_type_block_elems(type);
    const int ab = be == 256 ? 256 : 32;
    fill_pattern(x, N, pattern, 31 + (uint64_t)pattern);
    assert_true(krn_quantize_row(type, x, q, N));
    krn_dequantize_row(type, q, y, N);
    for (int b0 = 0; b0 < N; b0 += ab) {
        float amax = 0.0f;
        for (int i = b0; i < b0 + ab; i++)
            amax = fmaxf(amax, fabsf(x[i]));
        const double tol = (rt_bound(type) + 1e-6) * amax;
        for (int i = b0; i < b0 + ab; i++) {
            if (fabs((double)x[i] - y[i]) > tol)
                fail_msg("%s pattern %d: x[%d]=%.9g y=%.9g tol %.3g",
                         krn_type_name(type), pattern, i, x[i], y[i], tol);
        }
    }
}

static void test_quantize_round_trip(void **state) {
    (void)state;
    static const krn_type types[] = {KRN_Q8_0, KRN_Q4_0, KRN_Q5_0,
                                     KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int p = 0; p < 6; p++)
            check_round_trip(types[t], p);
}

static void test_quantize_zero_block_exact(void **state) {
    (void)state;
    static const krn_type types[] = {KRN_Q8_0, KRN_Q4_0, KRN_Q5_0,
                                     KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
    float x[256] = {0}, y[256];
    uint8_t q[512];
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        assert_true(krn_quantize_row(types[t], x, q, 256));
        krn_dequantize_row(types[t], q, y, 256);
        for (int i = 0; i < 256; i++)
            assert_true(y[i] == 0.0f);
    }
}

static void test_quantize_float_types(void **state) {
    (void)state;
    enum { N = 512 };
    float x[N], y[N];
    uint8_t q[N * 4];
    for (int i = 0; i < N; i++)
        x[i] = rnd_sym(5, (uint64_t)i) * 1000.0f;
    assert_true(krn_quantize_row(KRN_F32, x, q, N));
    krn_dequantize_row(KRN_F32, q, y, N);
    assert_memory_equal(x, y, sizeof x);
    /* Each value is the conversion of its own element. */
    assert_true(krn_quantize_row(KRN_F16, x, q, N));
    for (int i = 0; i < N; i++)
        assert_int_equal(q[2 * i] | (q[2 * i + 1] << 8), krn_fp32_to_fp16(x[i]));
    assert_true(krn_quantize_row(KRN_BF16, x, q, N));
    krn_dequantize_row(KRN_BF16, q, y, N);
    for (int i = 0; i < N; i++) {
        assert_int_equal(q[2 * i] | (q[2 * i + 1] << 8), krn_fp32_to_bf16(x[i]));
        /* Round to nearest: within half a bf16 ulp, 2^-8 relative. */
        assert_true(fabs((double)x[i] - y[i]) <= fabs((double)x[i]) * 0x1p-8);
    }
}

static void test_quantize_refusals(void **state) {
    (void)state;
    float x[512] = {0};
    uint8_t q[2048];
    assert_false(krn_quantize_row(KRN_Q4_1, x, q, 32));
    assert_false(krn_quantize_row(KRN_Q5_1, x, q, 32));
    assert_false(krn_quantize_row((krn_type)4, x, q, 32));
    assert_false(krn_quantize_row(KRN_Q4_K, x, q, 288));
    assert_false(krn_quantize_row(KRN_Q8_0, x, q, 33));
}

/* Same input values -> same bytes, wherever the input lives and however
 * often it is run (a model file is a pure function of its seed). */
static void test_quantize_deterministic(void **state) {
    (void)state;
    enum { N = 768 };
    static const krn_type types[] = {KRN_F16, KRN_BF16, KRN_Q8_0, KRN_Q4_0,
                                     KRN_Q5_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
    static float x[N], x2[N + 1];
    static uint8_t a[N * 2 + 64], b[N * 2 + 64];
    fill_pattern(x, N, 3, 99);
    memcpy(x2 + 1, x, sizeof x);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        uint64_t bytes = 0;
        assert_true(krn_row_bytes(types[t], N, &bytes));
        memset(a, 0xAA, sizeof a);
        memset(b, 0x55, sizeof b);
        assert_true(krn_quantize_row(types[t], x, a, N));
        assert_true(krn_quantize_row(types[t], x2 + 1, b, N));
        assert_memory_equal(a, b, (size_t)bytes);
        /* Nothing written past the row. */
        assert_int_equal(a[bytes], 0xAA);
        assert_int_equal(b[bytes], 0x55);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_table),
        cmocka_unit_test(test_row_bytes),
        cmocka_unit_test(test_fp16_to_fp32),
        cmocka_unit_test(test_fp32_to_fp16_edges),
        cmocka_unit_test(test_fp32_to_fp16_sweep),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_dequant_random_blocks),
        cmocka_unit_test(test_dequant_anchors),
        cmocka_unit_test(test_dequant_float_types),
        cmocka_unit_test(test_dequant_multi_block_row),
        cmocka_unit_test(test_quantize_round_trip),
        cmocka_unit_test(test_quantize_zero_block_exact),
        cmocka_unit_test(test_quantize_float_types),
        cmocka_unit_test(test_quantize_refusals),
        cmocka_unit_test(test_quantize_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
