// act.cuh — private to kernels/cuda/: a quantized activation row on the
// device (kernels.h §2, krn_quantize_act) — its layout, and the warp routine
// that quantizes 256 elements into it.
//
// Layout of row r of a krn_cuda_act (cuda_backend.h):
//   q + r * q_stride   the int8 codes, rearranged for the tensor cores: the
//                      64 bytes of blocks 2p and 2p + 1 (32 elements each)
//                      are four 16-byte chunks, chunk t holding words t and
//                      t + 4 of block 2p, then words t and t + 4 of block
//                      2p + 1 (word w = elements 4w .. 4w + 3). Thread t of
//                      an MMA fragment then reads the B operands of both
//                      blocks in one 16-byte load (mmq.cu).
//   d + r * d_stride   one float per group: dx = amax / 127
//   s + r * s_stride   one int16 per 32-element block: Σ of its codes
// Only the layout differs from the CPU's krn_act_block array; every value
// is the same.
#ifndef SB_KERNELS_CUDA_ACT_CUH
#define SB_KERNELS_CUDA_ACT_CUH

#include "common.cuh"

// Byte offset of word w (0..7) of block b in a row's codes.
static __device__ __forceinline__ int act_word_offset(int64_t b, int w) {
    return (int)(64 * (b >> 1)) + 16 * (w & 3) + 8 * (int)(b & 1) + 4 * (w >> 2);
}

// rint(v) clamped to [-127, 127] in float, NaN to 0 (canon.c's krn__round_q8).
static __device__ __forceinline__ int round_q8(float v) {
    const float r = rintf(v);
    return r > 127.0f ? 127 : r < -127.0f ? -127 : !(r == r) ? 0 : (int)r;
}

// Quantizes one "unit" of 256 consecutive elements of a row (blocks
// 8u .. 8u + 7) held by a warp, lane l holding elements 8l .. 8l + 7 in v
// (block l / 4, words 2(l % 4) and 2(l % 4) + 1), live when that block
// exists (a row of n % 256 != 0 ends in a short unit; dead lanes hold
// nothing and write nothing). group is 256 (the unit is one group) or 32
// (each 4 lanes are one). All 32 lanes call it.
//   amax = max |v| over the group (exact in any order; a NaN never wins,
//   as in the CPU's `a > amax` scan from 0), id = 127 / amax (0 when amax is
//   0), q = round_q8(v * id), dx = amax / 127, s = Σ q per block (exact).
// q_unit, d_unit, s_unit: the row's codes, scales and sums at unit u
// (q + 256 u, d + u for group 256 or d + 8 u for 32, s + 8 u).
static __device__ __forceinline__ void quantize_unit(const float v[8], bool live, int group,
                                                     int8_t *q_unit, float *d_unit,
                                                     int16_t *s_unit, int lane) {
    float a = 0.0f;
    bool nan = false; // a NaN never wins the maximum; it makes the scale NaN (canon.c)
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const float x = live ? fabsf(v[i]) : 0.0f;
        a = x > a ? x : a;
        nan |= live && v[i] != v[i];
    }
    const int top = group == KRN_SUPER ? 16 : 2;
    for (int off = top; off >= 1; off >>= 1) {
        const float o = __shfl_xor_sync(0xffffffffu, a, off);
        a = o > a ? o : a;
        nan |= __shfl_xor_sync(0xffffffffu, (int)nan, off) != 0;
    }
    const float d = nan ? __int_as_float(0x7fc00000) : fdiv(a, 127.0f);
    const float id = a != 0.0f ? fdiv(127.0f, a) : 0.0f;
    uint32_t w[2];
    int sum = 0;
#pragma unroll
    for (int k = 0; k < 2; k++) {
        uint32_t word = 0;
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int qi = round_q8(fmul(v[4 * k + e], id));
            sum += qi;
            word |= (uint32_t)(qi & 0xFF) << (8 * e);
        }
        w[k] = word;
    }
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    if (!live) return;
    const int b = lane >> 2, w0 = 2 * (lane & 3);
    *(uint32_t *)(q_unit + act_word_offset(b, w0)) = w[0];
    *(uint32_t *)(q_unit + act_word_offset(b, w0 + 1)) = w[1];
    if ((lane & 3) == 0) {
        s_unit[b] = (int16_t)sum;
        if (group == KRN_QBLOCK) d_unit[b] = d;
    }
    if (group == KRN_SUPER && lane == 0) d_unit[0] = d;
}

// Unit u of row r (n elements) quantized both ways (cuda_backend.h's
// krn_cuda_acts): groups of 32 always, groups of 256 when the row is whole
// super-blocks (only K-quant matmuls read those).
template <typename ACTS>
static __device__ __forceinline__ void quantize_unit_both(const float v[8], bool live, int64_t n,
                                                          int64_t r, int64_t u, const ACTS &a,
                                                          int lane) {
    quantize_unit(v, live, KRN_QBLOCK, a.g32.q + r * a.g32.q_stride + 256 * u,
                  a.g32.d + r * a.g32.d_stride + 8 * u, a.g32.s + r * a.g32.s_stride + 8 * u, lane);
    if (n % KRN_SUPER == 0)
        quantize_unit(v, live, KRN_SUPER, a.g256.q + r * a.g256.q_stride + 256 * u,
                      a.g256.d + r * a.g256.d_stride + u, a.g256.s + r * a.g256.s_stride + 8 * u,
                      lane);
}

#endif // SB_KERNELS_CUDA_ACT_CUH
