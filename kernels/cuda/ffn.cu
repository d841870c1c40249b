// ffn.cu — the SwiGLU activation between the gate/up and down matmuls, and
// the quantization of its result for the down matmul.
//
// CPU reference: kernels/cpu/ffn.c: a_i = (g_i / (1.0f + krn_exp(-g_i))) * u_i,
// each operation rounded as written; krn_exp is canon_math.cuh's port. Then
// krn_quantize_act of each row (act.cuh's quantize_unit), as act_quantize.cu
// would do it in a launch of its own.
#include "act.cuh"
#include "canon_math.cuh"
#include "cuda_backend.h"

enum { KRN_CUDA__SWIGLU_WARPS = 8 };

// Grid (n_rows, ceil(units / 8)), 8 warps: warp w takes unit
// 8 * blockIdx.y + w (256 elements) of row blockIdx.x, lane l its elements
// 8l .. 8l + 7; no float reduction.
__global__ void krn_cuda_swiglu_kernel(float *g, const float *u, int64_t n, krn_cuda_acts xq) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x, lane = threadIdx.x & 31;
    const int64_t un = (int64_t)blockIdx.y * KRN_CUDA__SWIGLU_WARPS + (threadIdx.x >> 5);
    if (256 * un >= n) return; // warp-uniform
    const int64_t e0 = 256 * un + 8 * lane;
    const bool live = e0 < n;
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        v[i] = 0.0f;
        if (!live) continue;
        const int64_t k = (int64_t)r * n + e0 + i;
        const float gi = g[k];
        const float silu = fdiv(gi, fadd(1.0f, krn_cuda_exp(-gi)));
        v[i] = fmul(silu, u[k]);
        g[k] = v[i];
    }
    quantize_unit_both(v, live, n, r, un, xq, lane);
}

int krn_cuda_swiglu_quant(float *g, const float *u, int64_t n, int n_rows,
                          const krn_cuda_acts *xq, krn_cuda_exec ex, sb_err *err) {
    if (krn_cuda_check_act_rows(__func__, n, n_rows, xq, err)) return -1;
    const int64_t units = (n + 255) / 256;
    const dim3 grid((unsigned)n_rows,
                    (unsigned)((units + KRN_CUDA__SWIGLU_WARPS - 1) / KRN_CUDA__SWIGLU_WARPS));
    krn_cuda_launch(krn_cuda_swiglu_kernel, KRN_CUDA_PDL_OTHER, grid, 32 * KRN_CUDA__SWIGLU_WARPS,
                    0, ex, g, u, n, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_swiglu_kernel", err);
}
