// act_quantize.cu — krn_quantize_act of whole rows (the attention output, before
// the matmul that reads it), into act.cuh's layout.
//
// CPU reference: canon.c's krn_quantize_act; the per-unit sequence is
// act.cuh's quantize_unit.
#include "act.cuh"
#include "cuda_backend.h"

enum { KRN_CUDA__QWARPS = 8 };

// Grid (n_rows, ceil(units / 8)), 8 warps: warp w quantizes unit
// 8 * blockIdx.y + w (256 elements) of row blockIdx.x, lane l holding its
// elements 8l .. 8l + 7. No float reduction: amax is a maximum, the sums
// integers.
__global__ void krn_cuda_quantize_kernel(const float *x, int64_t n, krn_cuda_acts xq) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x, lane = threadIdx.x & 31;
    const int64_t u = (int64_t)blockIdx.y * KRN_CUDA__QWARPS + (threadIdx.x >> 5);
    if (256 * u >= n) return; // warp-uniform: the whole warp leaves together
    const int64_t e0 = 256 * u + 8 * lane;
    const bool live = e0 < n;
    float v[8];
    if (live) {
        const float4 a = *(const float4 *)(x + (int64_t)r * n + e0);
        const float4 b = *(const float4 *)(x + (int64_t)r * n + e0 + 4);
        v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
        v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
    } else {
#pragma unroll
        for (int i = 0; i < 8; i++) v[i] = 0.0f;
    }
    quantize_unit_both(v, live, n, r, u, xq, lane);
}

int krn_cuda_check_act_rows(const char *fn, int64_t n, int n_rows, const krn_cuda_acts *xq,
                            sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_BATCH_ROWS || n < KRN_QBLOCK || n % KRN_QBLOCK ||
        n > xq->g32.q_stride)
        return sb_err_set(err, fn, "n_rows %d, n %lld: expected 1..%d rows of a "
                          "positive multiple of %d", n_rows, (long long)n, KRN_MAX_BATCH_ROWS,
                          KRN_QBLOCK);
    return 0;
}

int krn_cuda_quantize(const float *x, int64_t n, int n_rows, const krn_cuda_acts *xq,
                      krn_cuda_exec ex, sb_err *err) {
    if (krn_cuda_check_act_rows(__func__, n, n_rows, xq, err)) return -1;
    const int64_t units = (n + 255) / 256;
    const dim3 grid((unsigned)n_rows, (unsigned)((units + KRN_CUDA__QWARPS - 1) / KRN_CUDA__QWARPS));
    krn_cuda_launch(krn_cuda_quantize_kernel, KRN_CUDA_PDL_OTHER, grid, 32 * KRN_CUDA__QWARPS, 0,
                    ex, x, n, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_quantize_kernel", err);
}
