// ffn.cu — the SwiGLU activation between the gate/up and down matmuls, and
// the quantization of its result for the down matmul.
//
// CPU reference: kernels/cpu/ffn.c: a_i = (g_i / (1.0f + krn_exp(-g_i))) * u_i,
// each operation rounded as written; krn_exp is canon_math.cuh's port. Then
// krn_quantize_act of each row (common.cuh's quantize_act_lane), as
// quantize.cu would do it in a launch of its own.
#include "canon_math.cuh"
#include "cuda_backend.h"

// Grid (n_rows, ceil(n / 256)), one element per thread; no float reduction.
// n is a multiple of 32, so each warp holds exactly the 32 elements of one
// quantization block (lane l element 32b + l), all in range or all out.
__global__ void krn_cuda_swiglu_kernel(float *g, const float *u, int64_t n,
                                       krn_cuda_act xq) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x;
    const int64_t e = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
    if (e >= n) return; // warp-uniform
    const int64_t i = (int64_t)r * n + e;
    const float gi = g[i];
    const float silu = fdiv(gi, fadd(1.0f, krn_cuda_exp(-gi)));
    const float a = fmul(silu, u[i]);
    g[i] = a;
    const int64_t b = e / KRN_QBLOCK;
    quantize_act_lane(a, xq.q + (int64_t)r * xq.q_stride + b * KRN_QBLOCK,
                      xq.c + (int64_t)r * xq.c_stride + b, (int)(threadIdx.x & 31));
}

int krn_cuda_swiglu_quant(float *g, const float *u, int64_t n, int n_rows,
                          const krn_cuda_act *xq, cudaStream_t s, sb_err *err) {
    if (krn_cuda_check_act_rows(__func__, n, n_rows, xq, err)) return -1;
    const dim3 grid((unsigned)n_rows, (unsigned)((n + 255) / 256));
    krn_cuda_launch(krn_cuda_swiglu_kernel, KRN_CUDA_PDL_OTHER, grid, 256, 0, s, g, u, n, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_swiglu_kernel", err);
}
