// dot.cuh — private to kernels/cuda/: the value of one 32-element block of
// the canonical float dot (kernels.h §2, krn_dot_f in canon.c), for
// mm_float.cu's lanes to accumulate.
#ifndef SB_KERNELS_CUDA_DOT_CUH
#define SB_KERNELS_CUDA_DOT_CUH

#include "unpack.cuh"

// Float block: Σ_{i=0..31} w_i * x_i, added in order i = 0..31 from 0.0f,
// each product and sum rounded, as krn_dot_f's inner loop.
static __device__ __forceinline__ float block_value_f(const float *w, const float *x) {
    float b = 0.0f;
#pragma unroll
    for (int i = 0; i < KRN_QBLOCK; i++) b = fadd(b, fmul(w[i], x[i]));
    return b;
}

#endif // SB_KERNELS_CUDA_DOT_CUH
