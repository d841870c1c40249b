// quantize.cu — krn_quantize_act of whole rows (the attention output and the
// SwiGLU product, before the matmul that reads them).
//
// CPU reference: canon.c's krn_quantize_act; the per-block sequence is
// common.cuh's quantize_act_lane.
#include "cuda_backend.h"

enum { KRN_CUDA__QWARPS = 8 };

// Grid (n_rows, ceil(nb / 8)), 8 warps: warp w quantizes block
// 8 * blockIdx.y + w of row blockIdx.x, lane l holding its element l.
// No float reduction: amax is a maximum, the sum an integer.
__global__ void krn_cuda_quantize_kernel(const float *x, int64_t n,
                                         krn_cuda_act xq) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x, lane = threadIdx.x & 31;
    const int64_t b = (int64_t)blockIdx.y * KRN_CUDA__QWARPS + (threadIdx.x >> 5);
    const int64_t nb = n / KRN_QBLOCK;
    if (b >= nb) return; // warp-uniform: the whole warp leaves together
    const float v = x[(int64_t)r * n + b * KRN_QBLOCK + lane];
    quantize_act_lane(v, xq.q + (int64_t)r * xq.q_stride + b * KRN_QBLOCK,
                      xq.c + (int64_t)r * xq.c_stride + b, lane);
}

int krn_cuda_check_act_rows(const char *fn, int64_t n, int n_rows, const krn_cuda_act *xq,
                            sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_ROWS || n < KRN_QBLOCK || n % KRN_QBLOCK ||
        n > xq->q_stride)
        return sb_err_set(err, fn, "n_rows %d, n %lld: expected 1..%d rows of a "
                          "positive multiple of %d", n_rows, (long long)n, KRN_MAX_ROWS,
                          KRN_QBLOCK);
    return 0;
}

int krn_cuda_quantize(const float *x, int64_t n, int n_rows, const krn_cuda_act *xq,
                      cudaStream_t s, sb_err *err) {
    if (krn_cuda_check_act_rows(__func__, n, n_rows, xq, err)) return -1;
    const int64_t nb = n / KRN_QBLOCK;
    const dim3 grid((unsigned)n_rows,
                    (unsigned)((nb + KRN_CUDA__QWARPS - 1) / KRN_CUDA__QWARPS));
    krn_cuda_launch(krn_cuda_quantize_kernel, KRN_CUDA_PDL_OTHER, grid, 32 * KRN_CUDA__QWARPS, 0,
                    s, x, n, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_quantize_kernel", err);
}
