/*
 * dequant.c — dequantization of ggml's block formats (kernels.h section
 * 1): canon.c's krn_unpack_row reads each block's bit layout (the one
 * place that does), and the floats are formed here.
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

/* ---- dequantization, one block at a time ---------------------------------- */

/* The bit layout of every block type is read in one place, canon.c's
 * krn_unpack_row; here each unpacked 32-element block becomes floats in
 * ggml's order of operations:
 *   legacy without a min (Q4_0, Q5_0, Q8_0): y = q*d (q already c-8, c-16)
 *   legacy with a min (Q4_1, Q5_1):          y = q*d + m
 *   Q4_K/Q5_K: d1 = d*sc_j, m1 = dmin*m_j,    y = d1*q - m1
 *   Q6_K:      y = (d*sc)*q, sc that of q's 16-element half (q = c-32). */
static void krn__deq_wblock(krn_type type, const krn_wblock *w, float *y) {
    if (type == KRN_Q4_K || type == KRN_Q5_K) {
        const float d1 = w->d * (float)w->mul_lo;
        const float m1 = w->m * (float)w->mn;
        for (int l = 0; l < KRN_QBLOCK; l++)
            y[l] = d1 * (float)w->q[l] - m1;
    } else if (type == KRN_Q6_K) {
        for (int l = 0; l < KRN_QBLOCK; l++)
            y[l] = w->d * (float)(l < 16 ? w->mul_lo : w->mul_hi) *
                   (float)w->q[l];
    } else if (krn_type_has_min(type)) {
        for (int l = 0; l < KRN_QBLOCK; l++)
            y[l] = (float)w->q[l] * w->d + w->m;
    } else {
        for (int l = 0; l < KRN_QBLOCK; l++)
            y[l] = (float)w->q[l] * w->d;
    }
}

/* One ggml block (be elements, at most 256) of a quantized type. */
static void krn__deq_block(krn_type type, const uint8_t *b, int64_t be,
                           float *y) {
    krn_wblock w[256 / KRN_QBLOCK];
    krn_unpack_row(type, b, w, be);
    for (int64_t j = 0; j < be / KRN_QBLOCK; j++)
        krn__deq_wblock(type, &w[j], y + KRN_QBLOCK * j);
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
        krn__deq_block(type, s + i * bb, be, dst + i * be);
}
