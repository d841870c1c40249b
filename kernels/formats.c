/*
 * formats.c — the type table and the half/bfloat16 conversions of ggml's
 * formats (kernels.h section 1); dequant.c turns blocks into floats.
 */
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
