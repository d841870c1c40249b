// dot.cuh — private to kernels/cuda/: the value of one 32-element block of
// the canonical dot (kernels.h §2, krn_dot_q and krn_dot_f in canon.c), for
// matmul.cu's lanes to accumulate.
#ifndef SB_KERNELS_CUDA_DOT_CUH
#define SB_KERNELS_CUDA_DOT_CUH

#include "unpack.cuh"

// Quantized block: the exact integers
//     I = mul_lo * Σ_{i<16} q_i qx_i + mul_hi * Σ_{i>=16} q_i qx_i
// (__dp4a on packed int8: exact, |I| < 2^26) and s = Σ qx, then
//     v = dx * (d_j * (float)I)                             (no min), or
//     v = dx * ((d_j * (float)I) - (m_j * (float)s))        (HAS_MIN),
// each operation rounded, as krn_dot_q.
// x: the activation block's 32 codes (16-byte aligned) and {dx, (float)s}.
template <bool HAS_MIN>
static __device__ __forceinline__ float block_value_q(const krn_cuda_wblock *w,
                                                      const int8_t *xq, float2 xc) {
    const int *xw = (const int *)xq;
    int lo = 0, hi = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        lo = __dp4a(w->q[k], xw[k], lo);
        hi = __dp4a(w->q[k + 4], xw[k + 4], hi);
    }
    const int I = w->mul_lo * lo + w->mul_hi * hi;
    float v = fmul(w->d, i2f(I));
    if (HAS_MIN) v = fsub(v, fmul(w->m, xc.y));
    return fmul(xc.x, v);
}

// Float block: Σ_{i=0..31} w_i * x_i, added in order i = 0..31 from 0.0f,
// each product and sum rounded, as krn_dot_f's inner loop.
static __device__ __forceinline__ float block_value_f(const float *w, const float *x) {
    float b = 0.0f;
#pragma unroll
    for (int i = 0; i < KRN_QBLOCK; i++) b = fadd(b, fmul(w[i], x[i]));
    return b;
}

#endif // SB_KERNELS_CUDA_DOT_CUH
