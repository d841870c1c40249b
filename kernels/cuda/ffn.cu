// ffn.cu — the SwiGLU activation between the gate/up and down matmuls.
//
// CPU reference: kernels/cpu/ffn.c: a_i = (g_i / (1.0f + krn_exp(-g_i))) * u_i,
// each operation rounded as written; krn_exp is canon_math.cuh's port.
#include "canon_math.cuh"
#include "cuda_backend.h"

// Grid (n_rows, ceil(n / 256)), one element per thread; no reduction.
__global__ void krn_cuda_swiglu_kernel(float *g, const float *u, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * n +
                      (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
    if ((int64_t)blockIdx.y * blockDim.x + threadIdx.x >= n) return;
    const float gi = g[i];
    const float silu = fdiv(gi, fadd(1.0f, krn_cuda_exp(-gi)));
    g[i] = fmul(silu, u[i]);
}

int krn_cuda_swiglu(float *g, const float *u, int64_t n, int n_rows,
                    cudaStream_t s, sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_ROWS || n < 1)
        return sb_err_set(err, __func__, "n_rows %d, n %lld: expected 1..%d "
                          "rows of >= 1", n_rows, (long long)n, KRN_MAX_ROWS);
    const dim3 grid((unsigned)n_rows, (unsigned)((n + 255) / 256));
    krn_cuda_swiglu_kernel<<<grid, 256, 0, s>>>(g, u, n);
    return KRN_CUDA_LAUNCHED("krn_cuda_swiglu_kernel", err);
}
