/*
 * formats.c — the type table, half/bfloat16 conversions and dequantization
 * of ggml's block formats (kernels.h section 1).
 *
 * Dequantization must give ggml's values bit for bit, so every expression
 * below is written with ggml's operand order and types: an integer code is
 * converted to float, then multiplied (and offset) in the order ggml's
 * dequantize_row_* functions use. The build has -ffp-contract=off, so no
 * FMA changes a rounding.
 */
#include <assert.h>
#include <string.h>

#include "kernels.h"
#include "quant_layout.h"

/* ---- type table ---------------------------------------------------------- */

typedef struct krn__type_info {
    krn_type type;
    const char *name;
    int64_t block_elems;
    int64_t block_bytes;
} krn__type_info;

static const krn__type_info krn__types[] = {
    {KRN_F32, "f32", 1, 4},       {KRN_F16, "f16", 1, 2},
    {KRN_Q4_0, "q4_0", 32, 18},   {KRN_Q4_1, "q4_1", 32, 20},
    {KRN_Q5_0, "q5_0", 32, 22},   {KRN_Q5_1, "q5_1", 32, 24},
    {KRN_Q8_0, "q8_0", 32, 34},   {KRN_Q4_K, "q4_K", 256, 144},
    {KRN_Q5_K, "q5_K", 256, 176}, {KRN_Q6_K, "q6_K", 256, 210},
    {KRN_BF16, "bf16", 1, 2},
};

static const krn__type_info *krn__info(uint32_t type) {
    for (size_t i = 0; i < sizeof krn__types / sizeof krn__types[0]; i++)
        if ((uint32_t)krn__types[i].type == type)
            return &krn__types[i];
    return NULL;
}

bool krn_type_known(uint32_t type) { return krn__info(type) != NULL; }

const char *krn_type_name(uint32_t type) {
    const krn__type_info *t = krn__info(type);
    return t ? t->name : "?";
}

/* 0 for an unknown type, so a caller that forgot krn_type_known divides
 * nothing by it silently: krn_row_bytes refuses such types. */
int64_t krn_type_block_elems(krn_type type) {
    const krn__type_info *t = krn__info((uint32_t)type);
    return t ? t->block_elems : 0;
}

int64_t krn_type_block_bytes(krn_type type) {
    const krn__type_info *t = krn__info((uint32_t)type);
    return t ? t->block_bytes : 0;
}

bool krn_row_bytes(krn_type type, int64_t n, uint64_t *bytes) {
    const krn__type_info *t = krn__info((uint32_t)type);
    if (!t || n < 0 || n % t->block_elems != 0)
        return false;
    return sb_mul_u64((uint64_t)(n / t->block_elems),
                      (uint64_t)t->block_bytes, bytes);
}

bool krn_type_has_min(krn_type type) {
    return type == KRN_Q4_1 || type == KRN_Q5_1 || type == KRN_Q4_K ||
           type == KRN_Q5_K;
}

bool krn_type_is_kquant(krn_type type) {
    return type == KRN_Q4_K || type == KRN_Q5_K || type == KRN_Q6_K;
}

bool krn_type_is_quantized(krn_type type) {
    return krn_type_known((uint32_t)type) && type != KRN_F32 &&
           type != KRN_F16 && type != KRN_BF16;
}

/* ---- half and bfloat16 ---------------------------------------------------- */

static uint32_t krn__f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

float krn_fp16_to_fp32(uint16_t h) { return krn__half_to_float(h); }

/* Round-to-nearest-even of `man >> shift`, shift in 1..31. */
static uint32_t krn__shift_rne(uint32_t man, int shift) {
    uint32_t q = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return q;
}

uint16_t krn_fp32_to_fp16(float f) {
    uint32_t x = krn__f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    x &= 0x7FFFFFFF;
    if (x > 0x7F800000) /* NaN: keep the top payload bits, force quiet */
        return (uint16_t)(sign | 0x7E00 | ((x >> 13) & 0x3FF));
    /* 65520 (0x477FF000) is the tie between 65504 and 2^16; it rounds to
     * the even side, which is infinity. */
    if (x >= 0x477FF000)
        return (uint16_t)(sign | 0x7C00);
    if (x >= 0x38800000) { /* normal half: rebias 127 -> 15, keep 10 bits */
        /* A carry out of the mantissa correctly bumps the exponent. */
        return (uint16_t)(sign | krn__shift_rne(x - 0x38000000, 13));
    }
    if (x < 0x33000000) /* below 2^-25: rounds to zero */
        return sign;
    /* Subnormal half: the value in units of 2^-24 is man * 2^(e - 126),
     * with e <= 112 so the shift is 14..24. Rounding 0x3FF up gives 0x400,
     * the smallest normal, which is right. */
    uint32_t e = x >> 23;
    uint32_t man = (x & 0x7FFFFF) | 0x800000;
    return (uint16_t)(sign | krn__shift_rne(man, (int)(126 - e)));
}

float krn_bf16_to_fp32(uint16_t h) {
    return krn__f32_from_bits((uint32_t)h << 16);
}

uint16_t krn_fp32_to_bf16(float f) {
    uint32_t x = krn__f32_bits(f);
    if ((x & 0x7FFFFFFF) > 0x7F800000) /* NaN stays NaN, made quiet */
        return (uint16_t)((x >> 16) | 0x40);
    /* Round to nearest even on the low 16 bits; a carry into the exponent
     * (up to infinity) is the right result. Subnormals round like any
     * other value. */
    return (uint16_t)((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}

/* ---- dequantization, one block at a time ---------------------------------- */

static float krn__half_at(const uint8_t *p) {
    return krn__half_to_float(krn__rd16(p));
}

/* Q4_0 / Q4_1: code c of element i<16 in the low nibble of qs[i], of
 * element i+16 in the high nibble. y = (c - 8)*d, or c*d + m with a min. */
static void krn__deq_q4(const uint8_t *b, float *y, bool has_min) {
    const float d = krn__half_at(b);
    const uint8_t *qs = b + (has_min ? KRN__Q4_1_QS : KRN__Q4_0_QS);
    if (!has_min) {
        for (int i = 0; i < 16; i++) {
            y[i] = (float)((qs[i] & 0x0F) - 8) * d;
            y[i + 16] = (float)((qs[i] >> 4) - 8) * d;
        }
        return;
    }
    const float m = krn__half_at(b + KRN__Q4_1_M);
    for (int i = 0; i < 16; i++) {
        y[i] = (float)(qs[i] & 0x0F) * d + m;
        y[i + 16] = (float)(qs[i] >> 4) * d + m;
    }
}

/* Q5_0 / Q5_1: as Q4 with a 5th bit per element from the 32-bit qh. */
static void krn__deq_q5(const uint8_t *b, float *y, bool has_min) {
    const float d = krn__half_at(b);
    const uint32_t qh = krn__rd32(b + (has_min ? KRN__Q5_1_QH : KRN__Q5_0_QH));
    const uint8_t *qs = b + (has_min ? KRN__Q5_1_QS : KRN__Q5_0_QS);
    const float m = has_min ? krn__half_at(b + KRN__Q5_1_M) : 0.0f;
    for (int i = 0; i < 16; i++) {
        int c0 = (qs[i] & 0x0F) | (int)(((qh >> i) & 1) << 4);
        int c1 = (qs[i] >> 4) | (int)(((qh >> (i + 16)) & 1) << 4);
        if (has_min) {
            y[i] = (float)c0 * d + m;
            y[i + 16] = (float)c1 * d + m;
        } else {
            y[i] = (float)(c0 - 16) * d;
            y[i + 16] = (float)(c1 - 16) * d;
        }
    }
}

static void krn__deq_q8_0(const uint8_t *b, float *y) {
    const float d = krn__half_at(b);
    const int8_t *qs = (const int8_t *)(b + KRN__Q8_0_QS);
    for (int i = 0; i < 32; i++)
        y[i] = (float)qs[i] * d;
}

/* Q4_K / Q5_K: sub-block j (32 elements) uses d1 = d*sc_j and m1 = dmin*m_j,
 * y = d1*c - m1. Sub-blocks 2p and 2p+1 share qs[32p .. 32p+31]: low
 * nibbles for 2p, high nibbles for 2p+1; Q5_K's 5th bit of element l of
 * sub-block j is bit j of qh[l]. */
static void krn__deq_k45(const uint8_t *b, float *y, bool five) {
    const float d = krn__half_at(b);
    const float dmin = krn__half_at(b + KRN__QK_DMIN);
    const uint8_t *qs = b + (five ? KRN__Q5_K_QS : KRN__Q4_K_QS);
    const uint8_t *qh = b + KRN__Q5_K_QH;
    for (int j = 0; j < 8; j++) {
        uint8_t sc, mn;
        krn__k_scale_min(b + KRN__QK_SCALES, j, &sc, &mn);
        const float d1 = d * (float)sc;
        const float m1 = dmin * (float)mn;
        const uint8_t *q = qs + 32 * (j / 2);
        for (int l = 0; l < 32; l++) {
            int c = (j & 1) ? (q[l] >> 4) : (q[l] & 0x0F);
            if (five)
                c += ((qh[l] >> j) & 1) ? 16 : 0;
            y[32 * j + l] = d1 * (float)c - m1;
        }
    }
}

/* Q6_K: element e has code krn__q6_value - 32 and scale scales[e/16];
 * y = (d*scale)*code, ggml's order. */
static void krn__deq_q6_k(const uint8_t *b, float *y) {
    const float d = krn__half_at(b + KRN__Q6_K_D);
    const int8_t *sc = (const int8_t *)(b + KRN__Q6_K_SCALES);
    for (int e = 0; e < 256; e++)
        y[e] = d * (float)sc[e / 16] * (float)(krn__q6_value(b, e) - 32);
}

static void krn__deq_block(krn_type type, const uint8_t *b, float *y) {
    switch (type) {
    case KRN_Q4_0: krn__deq_q4(b, y, false); break;
    case KRN_Q4_1: krn__deq_q4(b, y, true); break;
    case KRN_Q5_0: krn__deq_q5(b, y, false); break;
    case KRN_Q5_1: krn__deq_q5(b, y, true); break;
    case KRN_Q8_0: krn__deq_q8_0(b, y); break;
    case KRN_Q4_K: krn__deq_k45(b, y, false); break;
    case KRN_Q5_K: krn__deq_k45(b, y, true); break;
    case KRN_Q6_K: krn__deq_q6_k(b, y); break;
    default: assert(!"krn__deq_block: not a block type");
    }
}

void krn_dequantize_row(krn_type type, const void *src, float *dst,
                        int64_t n) {
    const uint8_t *s = src;
    switch (type) {
    case KRN_F32:
        memcpy(dst, src, (size_t)n * sizeof(float));
        return;
    case KRN_F16:
        for (int64_t i = 0; i < n; i++)
            dst[i] = krn_fp16_to_fp32(krn__rd16(s + 2 * i));
        return;
    case KRN_BF16:
        for (int64_t i = 0; i < n; i++)
            dst[i] = krn_bf16_to_fp32(krn__rd16(s + 2 * i));
        return;
    default:
        break;
    }
    const int64_t be = krn_type_block_elems(type);
    const int64_t bb = krn_type_block_bytes(type);
    assert(be > 1 && n % be == 0);
    if (be <= 1)
        return;
    for (int64_t i = 0; i < n / be; i++)
        krn__deq_block(type, s + i * bb, dst + i * be);
}
