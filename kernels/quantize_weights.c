/*
 * quantize_weights.c — krn_quantize_row: floats into ggml blocks, for making test
 * and benchmark models (kernels.h section 1).
 *
 * Simple and O(n): one pass per block, no search for the best scale. Q8_0,
 * Q4_0 and Q5_0 follow ggml's reference quantizers; the K-quants pick each
 * sub-block's range directly, then round the 6- or 8-bit sub-block scales
 * *up*, so no weight is ever clipped and every weight's error is at most
 * half its sub-block's effective step. The output is a pure function of the
 * input bytes (no state, no threads; libm only for the exactly
 * specified roundf and ceilf).
 */
#include <math.h>
#include <string.h>

#include "kernels.h"
#include "quant_layout.h"

/* Converts v to an int in [lo, hi]; the clamp is done in float so a NaN
 * (only from a non-finite input) gives lo instead of undefined behaviour. */
static int krn__clamp_int(float v, int lo, int hi) {
    if (v >= (float)hi)
        return hi;
    if (v >= (float)lo)
        return (int)v;
    return lo;
}

/* v clamped to [lo, hi] (NaN goes to hi), then rounded to nearest even
 * by the 1.5*2^23 trick: exact for |v| < 2^22, which the clamp ensures.
 * Branch-free on purpose: the rounding direction of random weights is
 * unpredictable, and a branch per weight costs more than the arithmetic. */
static int krn__rint_clamp(float v, int lo, int hi) {
    v = v < (float)hi ? v : (float)hi;
    v = v > (float)lo ? v : (float)lo;
    return (int)((v + 12582912.0f) - 12582912.0f);
}

/* The smallest half >= v (v >= 0), so a scale stored as a half never
 * shrinks below what the block needs. Caps at the largest finite half. */
static uint16_t krn__half_ceil(float v) {
    uint16_t h = krn_fp32_to_fp16(v);
    if (h >= 0x7BFF)
        return 0x7BFF;
    if (krn_fp16_to_fp32(h) < v)
        h++;
    return h;
}

/* The element of largest magnitude, with its sign (the first on ties). */
static float krn__signed_absmax(const float *x, int n) {
    float amax = 0.0f, max = 0.0f;
    for (int i = 0; i < n; i++) {
        if (fabsf(x[i]) > amax) {
            amax = fabsf(x[i]);
            max = x[i];
        }
    }
    return max;
}

/* ---- legacy 32-element blocks (ggml's reference quantizers) --------------- */

/* d = amax/127 stored as a half, q = round(x/d) as roundf does (half away
 * from zero), using the unrounded 1/d as ggml does. */
static void krn__q8_0_block(const float *x, uint8_t *b) {
    float amax = fabsf(krn__signed_absmax(x, 32));
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    krn__wr16(b, krn_fp32_to_fp16(d));
    for (int i = 0; i < 32; i++)
        b[KRN__Q8_0_QS + i] =
            (uint8_t)(int8_t)krn__clamp_int(roundf(x[i] * id), -128, 127);
}

/* d = max / -(2^(bits-1)) with max the signed largest value, so that value
 * lands exactly on code 0; code = trunc(x/d + 2^(bits-1) + 0.5), capped at
 * 2^bits - 1 (ggml's Q4_0/Q5_0 reference). Codes go to out[32]. */
static float krn__legacy_codes(const float *x, int bits, uint8_t *out) {
    const float half = (float)(1 << (bits - 1));
    const float d = krn__signed_absmax(x, 32) / -half;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)krn__clamp_int(x[i] * id + (half + 0.5f), 0,
                                         (1 << bits) - 1);
    return d;
}

static void krn__q4_0_block(const float *x, uint8_t *b) {
    uint8_t c[32];
    krn__wr16(b, krn_fp32_to_fp16(krn__legacy_codes(x, 4, c)));
    for (int i = 0; i < 16; i++)
        b[KRN__Q4_0_QS + i] = (uint8_t)(c[i] | (c[i + 16] << 4));
}

static void krn__q5_0_block(const float *x, uint8_t *b) {
    uint8_t c[32];
    uint32_t qh = 0;
    krn__wr16(b, krn_fp32_to_fp16(krn__legacy_codes(x, 5, c)));
    for (int i = 0; i < 16; i++) {
        b[KRN__Q5_0_QS + i] = (uint8_t)((c[i] & 0x0F) | ((c[i + 16] & 0x0F) << 4));
        qh |= (uint32_t)(c[i] >> 4) << i;
        qh |= (uint32_t)(c[i + 16] >> 4) << (i + 16);
    }
    krn__wr32(b + KRN__Q5_0_QH, qh);
}

/* ---- K-quants -------------------------------------------------------------- */

/* Packs 6-bit scale sc and min mn of sub-block j into the 12 scale bytes,
 * the inverse of krn__k_scale_min. s must start zeroed. */
static void krn__k_pack(uint8_t *s, int j, int sc, int mn) {
    if (j < 4) {
        s[j] |= (uint8_t)sc;
        s[j + 4] |= (uint8_t)mn;
    } else {
        s[j + 4] = (uint8_t)((sc & 0x0F) | ((mn & 0x0F) << 4));
        s[j - 4] |= (uint8_t)((sc >> 4) << 6);
        s[j] |= (uint8_t)((mn >> 4) << 6);
    }
}

/* Per sub-block j of 32: the weights must lie in [-dm_j, -dm_j + L*step_j]
 * (L = 15 or 31 levels above zero). mins: dm_j >= -min(0, min x), with
 * dm_j = dmin*lm_j, lm_j = ceil(...). steps: step_j = d*ls_j >= the range
 * over L, ls_j = ceil(...). Both 6-bit multipliers are rounded up after
 * the half scale is itself rounded up, so nothing is clipped. */
static void krn__k45_block(const float *x, uint8_t *b, bool five) {
    const int levels = five ? 31 : 15;
    float neg_min[8], maxv[8], need[8], dm[8];
    float top_min = 0.0f, top_need = 0.0f;
    memset(b, 0, (size_t)krn_type_block_bytes(five ? KRN_Q5_K : KRN_Q4_K));
    for (int j = 0; j < 8; j++) {
        float lo = 0.0f, hi = x[32 * j];
        for (int l = 0; l < 32; l++) {
            lo = x[32 * j + l] < lo ? x[32 * j + l] : lo;
            hi = x[32 * j + l] > hi ? x[32 * j + l] : hi;
        }
        neg_min[j] = -lo;
        maxv[j] = hi;
        top_min = neg_min[j] > top_min ? neg_min[j] : top_min;
    }
    const uint16_t dmin_h = krn__half_ceil(top_min / 63.0f);
    const float dmin = krn_fp16_to_fp32(dmin_h);
    int lm[8], ls[8];
    for (int j = 0; j < 8; j++) {
        lm[j] = dmin > 0.0f
                    ? krn__clamp_int(ceilf(neg_min[j] / dmin), 0, 63) : 0;
        dm[j] = dmin * (float)lm[j];
        need[j] = (maxv[j] + dm[j]) / (float)levels;
        top_need = need[j] > top_need ? need[j] : top_need;
    }
    const uint16_t d_h = krn__half_ceil(top_need / 63.0f);
    const float d = krn_fp16_to_fp32(d_h);
    krn__wr16(b, d_h);
    krn__wr16(b + KRN__QK_DMIN, dmin_h);
    uint8_t *qs = b + (five ? KRN__Q5_K_QS : KRN__Q4_K_QS);
    uint8_t *qh = b + KRN__Q5_K_QH;
    for (int j = 0; j < 8; j++) {
        ls[j] = d > 0.0f ? krn__clamp_int(ceilf(need[j] / d), 0, 63) : 0;
        krn__k_pack(b + KRN__QK_SCALES, j, ls[j], lm[j]);
        const float step = d * (float)ls[j]; /* dequantization's d1 */
        const float istep = step > 0.0f ? 1.0f / step : 0.0f;
        for (int l = 0; l < 32; l++) {
            const int c =
                krn__rint_clamp((x[32 * j + l] + dm[j]) * istep, 0, levels);
            const int nib = c & 0x0F;
            qs[32 * (j / 2) + l] |= (uint8_t)((j & 1) ? nib << 4 : nib);
            if (five)
                qh[l] |= (uint8_t)((c >> 4) << j);
        }
    }
}

/* Q6_K: each 16-element sub-block gets step amax/31 (codes -31..31, the
 * symmetric range inside -32..31); the 16 steps are stored as int8
 * multiples ls (rounded up, <= 127) of one half d >= max step / 127. */
static void krn__q6_k_block(const float *x, uint8_t *b) {
    float need[16], top = 0.0f;
    memset(b, 0, 210);
    for (int s = 0; s < 16; s++) {
        need[s] = fabsf(krn__signed_absmax(x + 16 * s, 16)) / 31.0f;
        top = need[s] > top ? need[s] : top;
    }
    const uint16_t d_h = krn__half_ceil(top / 127.0f);
    const float d = krn_fp16_to_fp32(d_h);
    krn__wr16(b + KRN__Q6_K_D, d_h);
    for (int s = 0; s < 16; s++) {
        const int ls =
            d > 0.0f ? krn__clamp_int(ceilf(need[s] / d), 0, 127) : 0;
        b[KRN__Q6_K_SCALES + s] = (uint8_t)(int8_t)ls;
        const float istep = ls > 0 ? 1.0f / (d * (float)ls) : 0.0f;
        for (int i = 0; i < 16; i++) {
            const int e = 16 * s + i;
            const int q = krn__rint_clamp(x[e] * istep, -31, 31);
            const int v = q + 32; /* stored code, 1..63 */
            const int c = e / 128, k = (e % 128) / 32, l = e % 32;
            const int nib = v & 0x0F;
            b[64 * c + l + 32 * (k & 1)] |= (uint8_t)(k < 2 ? nib : nib << 4);
            b[KRN__Q6_K_QH + 32 * c + l] |= (uint8_t)((v >> 4) << (2 * k));
        }
    }
}

/* ---- rows ------------------------------------------------------------------- */

typedef void (*krn__block_fn)(const float *x, uint8_t *b);

static void krn__k4_block(const float *x, uint8_t *b) { krn__k45_block(x, b, false); }
static void krn__k5_block(const float *x, uint8_t *b) { krn__k45_block(x, b, true); }

static krn__block_fn krn__block_quantizer(krn_type type) {
    switch (type) {
    case KRN_Q4_0: return krn__q4_0_block;
    case KRN_Q5_0: return krn__q5_0_block;
    case KRN_Q8_0: return krn__q8_0_block;
    case KRN_Q4_K: return krn__k4_block;
    case KRN_Q5_K: return krn__k5_block;
    case KRN_Q6_K: return krn__q6_k_block;
    default: return NULL;
    }
}

bool krn_quantize_row(krn_type type, const float *src, void *dst, int64_t n) {
    uint8_t *out = dst;
    uint64_t bytes;
    if (!krn_row_bytes(type, n, &bytes))
        return false;
    switch (type) {
    case KRN_F32:
        memcpy(dst, src, (size_t)bytes);
        return true;
    case KRN_F16:
        for (int64_t i = 0; i < n; i++)
            krn__wr16(out + 2 * i, krn_fp32_to_fp16(src[i]));
        return true;
    case KRN_BF16:
        for (int64_t i = 0; i < n; i++)
            krn__wr16(out + 2 * i, krn_fp32_to_bf16(src[i]));
        return true;
    default:
        break;
    }
    const krn__block_fn fn = krn__block_quantizer(type);
    if (!fn)
        return false;
    const int64_t be = krn_type_block_elems(type);
    const int64_t bb = krn_type_block_bytes(type);
    for (int64_t i = 0; i < n / be; i++)
        fn(src + i * be, out + i * bb);
    return true;
}
