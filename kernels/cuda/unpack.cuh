// unpack.cuh — private to kernels/cuda/: ggml's block formats read on the
// device for dequantization (the embedding, float-weight matmuls): the same
// values as kernels/formats.c, bit for bit.
//
// Byte offsets are quant_layout.h's; blocks are read byte by byte, since
// ggml's 18-, 20-, 22-, 24- and 34-byte blocks leave fields unaligned.
#ifndef SB_KERNELS_CUDA_UNPACK_CUH
#define SB_KERNELS_CUDA_UNPACK_CUH

#include "common.cuh"

// The coefficients of one 32-element block as ggml's dequantization forms
// them (for Q4_K/Q5_K d_j = d*sc_j and m_j = dmin*min_j, one fp32 product
// each): weight = d_j * code (* mul) - m_j.
struct krn_cuda_wblock {
    int q[8];
    float d, m;
    int mul_lo, mul_hi;  // multipliers of elements 0..15 and 16..31
};

// Scale and min of sub-block j of a Q4_K/Q5_K block (krn__k_scale_min).
static __device__ __forceinline__ void k_scale_min(const uint8_t *s, int j,
                                                   int *sc, int *mn) {
    if (j < 4) {
        *sc = s[j] & 63;
        *mn = s[j + 4] & 63;
    } else {
        *sc = (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4);
        *mn = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    }
}

// The code of element i (0..31) of 32-element block j of a row, as
// krn_unpack_row stores it (signed for types without a min: c-8, c-16,
// c-32; unsigned with one). `row` is the row's first byte.
template <int T>
static __device__ __forceinline__ int block_code(const uint8_t *row, int j, int i) {
    if constexpr (T == KRN_Q4_0 || T == KRN_Q4_1) {
        const uint8_t *qs = row + (int64_t)j * (T == KRN_Q4_0 ? 18 : 20) +
                            (T == KRN_Q4_0 ? 2 : 4);
        const int c = i < 16 ? (qs[i] & 0x0F) : (qs[i - 16] >> 4);
        return T == KRN_Q4_0 ? c - 8 : c;
    } else if constexpr (T == KRN_Q5_0 || T == KRN_Q5_1) {
        const uint8_t *b = row + (int64_t)j * (T == KRN_Q5_0 ? 22 : 24);
        const uint32_t qh = rd32(b + (T == KRN_Q5_0 ? 2 : 4));
        const uint8_t *qs = b + (T == KRN_Q5_0 ? 6 : 8);
        const int c = (i < 16 ? (qs[i] & 0x0F) : (qs[i - 16] >> 4)) |
                      (int)(((qh >> i) & 1u) << 4);
        return T == KRN_Q5_0 ? c - 16 : c;
    } else if constexpr (T == KRN_Q8_0) {
        return (int)(int8_t)row[(int64_t)j * 34 + 2 + i];
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        const int sub = j & 7;
        const uint8_t *b = row + (int64_t)(j >> 3) * (T == KRN_Q4_K ? 144 : 176);
        const uint8_t *qs = b + (T == KRN_Q4_K ? 16 : 48) + 32 * (sub >> 1);
        int c = (qs[i] >> (4 * (sub & 1))) & 0x0F;
        if constexpr (T == KRN_Q5_K) c |= ((b[16 + i] >> sub) & 1) << 4;
        return c;
    } else { // KRN_Q6_K
        const int sub = j & 7, h = sub >> 2, k = sub & 3;
        const uint8_t *b = row + (int64_t)(j >> 3) * 210;
        const int lo = b[64 * h + i + 32 * (k & 1)];
        const int hi = b[128 + 32 * h + i];
        const int nib = k < 2 ? (lo & 0x0F) : (lo >> 4);
        return (nib | (((hi >> (2 * k)) & 3) << 4)) - 32;
    }
}

// The block's coefficients, formed with the dequantization's float products:
// Q8_0/Q4_0/Q5_0 d; Q4_1/Q5_1 d and m = -min; Q4_K/Q5_K d*sc_j and
// dmin*min_j; Q6_K d with the int8 scales of its two halves as multipliers.
template <int T>
static __device__ __forceinline__ void block_coefs(const uint8_t *row, int j,
                                                   krn_cuda_wblock *o) {
    o->mul_lo = o->mul_hi = 1;
    o->m = 0.0f;
    if constexpr (T == KRN_Q4_0 || T == KRN_Q5_0 || T == KRN_Q8_0) {
        const int bb = T == KRN_Q4_0 ? 18 : T == KRN_Q5_0 ? 22 : 34;
        o->d = half_at(row + (int64_t)j * bb);
    } else if constexpr (T == KRN_Q4_1 || T == KRN_Q5_1) {
        const uint8_t *b = row + (int64_t)j * (T == KRN_Q4_1 ? 20 : 24);
        o->d = half_at(b);
        o->m = -half_at(b + 2);
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        const uint8_t *b = row + (int64_t)(j >> 3) * (T == KRN_Q4_K ? 144 : 176);
        int sc, mn;
        k_scale_min(b + 4, j & 7, &sc, &mn);
        o->d = fmul(half_at(b), int_to_float(sc));
        o->m = fmul(half_at(b + 2), int_to_float(mn));
    } else { // KRN_Q6_K
        const uint8_t *b = row + (int64_t)(j >> 3) * 210;
        const int sub = j & 7;
        o->d = half_at(b + 208);
        o->mul_lo = (int)(int8_t)b[192 + 2 * sub];
        o->mul_hi = (int)(int8_t)b[192 + 2 * sub + 1];
    }
}

// ---- dequantization of one element (kernels/formats.c's expressions) ---------

// Weight e of a row of type t, exactly krn_dequantize_row's value. A
// runtime switch: used for the embedding row (once per step) and for float
// weights, where t is warp-uniform.
static __device__ __forceinline__ float dequant_elem(int t, const uint8_t *row,
                                                     int64_t e) {
    const int j = (int)(e >> 5), i = (int)(e & 31);
    switch (t) {
    case KRN_F32: return __uint_as_float(rd32(row + 4 * e));
    case KRN_F16: return half_to_float(rd16(row + 2 * e));
    case KRN_BF16: return bf16_to_float(rd16(row + 2 * e));
    case KRN_Q4_0: // (float)(c - 8) * d
        return fmul(int_to_float(block_code<KRN_Q4_0>(row, j, i)), half_at(row + (int64_t)j * 18));
    case KRN_Q5_0: // (float)(c - 16) * d
        return fmul(int_to_float(block_code<KRN_Q5_0>(row, j, i)), half_at(row + (int64_t)j * 22));
    case KRN_Q8_0: // (float)q * d
        return fmul(int_to_float(block_code<KRN_Q8_0>(row, j, i)), half_at(row + (int64_t)j * 34));
    case KRN_Q4_1: { // (float)c * d + m
        const uint8_t *b = row + (int64_t)j * 20;
        return fadd(fmul(int_to_float(block_code<KRN_Q4_1>(row, j, i)), half_at(b)), half_at(b + 2));
    }
    case KRN_Q5_1: {
        const uint8_t *b = row + (int64_t)j * 24;
        return fadd(fmul(int_to_float(block_code<KRN_Q5_1>(row, j, i)), half_at(b)), half_at(b + 2));
    }
    case KRN_Q4_K: case KRN_Q5_K: { // d1 * (float)c - m1, d1 = d*sc, m1 = dmin*min
        krn_cuda_wblock w;
        int c;
        if (t == KRN_Q4_K) {
            block_coefs<KRN_Q4_K>(row, j, &w);
            c = block_code<KRN_Q4_K>(row, j, i);
        } else {
            block_coefs<KRN_Q5_K>(row, j, &w);
            c = block_code<KRN_Q5_K>(row, j, i);
        }
        return fsub(fmul(w.d, int_to_float(c)), w.m);
    }
    case KRN_Q6_K: { // (d * (float)scale) * (float)(code - 32)
        const uint8_t *b = row + (e >> 8) * 210;
        const int sc = (int)(int8_t)b[192 + ((e & 255) >> 4)];
        return fmul(fmul(half_at(b + 208), int_to_float(sc)), int_to_float(block_code<KRN_Q6_K>(row, j, i)));
    }
    default: return __uint_as_float(0x7FC00000u); // refused by krn_model_check
    }
}

#endif // SB_KERNELS_CUDA_UNPACK_CUH
