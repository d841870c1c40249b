// rmsnorm.cu — RMS normalisation of each row, then its quantization for the
// matmuls that read it.
//
// CPU reference: kernels/cpu/rmsnorm.c then krn_quantize_act (canon.c).
#include "act.cuh"
#include "cuda_backend.h"

enum {
    KRN_CUDA__RMS_WARPS = 8,
    KRN_CUDA__RMS_STAGE_MAX = 11 * 1024, // floats of x staged in shared memory
};

// Grid (n_rows, ceil(units / 8)), 8 warps: block (r, b) normalises and
// quantizes the 256-element units 8b .. 8b + 7 of row r (act.cuh), warp w
// unit 8b + w, lane l its elements 8l .. 8l + 7. Reduction order: lane l
// of warp 0 adds x_i * x_i for i = l, l+32, ... in order from 0.0f, then
// warp_fold (the canonical lane sum); mean = ss / (float)n, scale = 1 /
// sqrt(mean + eps), and y_i = (x_i * scale) * w_i. Every block of a row
// runs that same sequence over the whole row, so all get the same scale.
// When the row fits (STAGED), the block first loads x — all in flight
// together — into shared memory, so warp 0's chain reads at shared-memory
// latency.
template <bool STAGED>
__global__ void __launch_bounds__(32 * KRN_CUDA__RMS_WARPS)
krn_cuda_rmsnorm_quant_kernel(const float *x, const float *w, float eps, int64_t n,
                              float *y, krn_cuda_acts xq) {
    grid_dep_sync(); // common.cuh: before any global access
    constexpr int PER_THREAD = KRN_CUDA__RMS_STAGE_MAX / (32 * KRN_CUDA__RMS_WARPS) + 1;
    __shared__ float xs[STAGED ? KRN_CUDA__RMS_STAGE_MAX : 1];
    __shared__ float scale_s;
    const int r = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int64_t u = (int64_t)blockIdx.y * KRN_CUDA__RMS_WARPS + warp; // warp-uniform
    const int64_t e0 = 256 * u + 8 * lane;
    const bool live = e0 < n; // n % 32 == 0: a lane's 8 elements are all in or all out
    const float *xr = x + (int64_t)r * n;
    const float *src = xr;
    float wv[8];
#pragma unroll
    for (int i = 0; i < 8; i++) wv[i] = live ? w[e0 + i] : 0.0f;
    if (STAGED) {
        float xv[PER_THREAD];
#pragma unroll
        for (int k = 0; k < PER_THREAD; k++) {
            const int64_t e = threadIdx.x + (int64_t)k * blockDim.x;
            if (e < n) xv[k] = xr[e];
        }
#pragma unroll
        for (int k = 0; k < PER_THREAD; k++) {
            const int64_t e = threadIdx.x + (int64_t)k * blockDim.x;
            if (e < n) xs[e] = xv[k];
        }
        __syncthreads();
        src = xs;
    }
    if (warp == 0) {
        // lane l's chain, 8 loads at a time ahead of their adds
        constexpr int AHEAD = 8;
        float part = 0.0f;
        for (int64_t e = lane; e < n; e += 32 * AHEAD) {
            float v[AHEAD];
#pragma unroll
            for (int k = 0; k < AHEAD; k++) v[k] = e + 32 * k < n ? src[e + 32 * k] : 0.0f;
#pragma unroll
            for (int k = 0; k < AHEAD; k++)
                if (e + 32 * k < n) part = fadd(part, fmul(v[k], v[k]));
        }
        const float ss = warp_fold(part);
        const float mean = fdiv(ss, __ll2float_rn(n));
        const float scale = fdiv(1.0f, __fsqrt_rn(fadd(mean, eps)));
        if (lane == 0) scale_s = scale;
    }
    __syncthreads();
    if (256 * u >= n) return; // warp-uniform, after the block's last barrier
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        v[i] = live ? fmul(fmul(src[e0 + i], scale_s), wv[i]) : 0.0f;
        if (live) y[(int64_t)r * n + e0 + i] = v[i];
    }
    quantize_unit_both(v, live, n, r, u, xq, lane);
}

int krn_cuda_rmsnorm_quant(const float *x, const float *w, float eps,
                           int64_t n, int n_rows, float *y, const krn_cuda_acts *xq,
                           krn_cuda_exec ex, sb_err *err) {
    if (krn_cuda_check_act_rows(__func__, n, n_rows, xq, err)) return -1;
    const int64_t units = (n + 255) / 256;
    const dim3 grid((unsigned)n_rows,
                    (unsigned)((units + KRN_CUDA__RMS_WARPS - 1) / KRN_CUDA__RMS_WARPS));
    if (n <= KRN_CUDA__RMS_STAGE_MAX)
        krn_cuda_launch(krn_cuda_rmsnorm_quant_kernel<true>, KRN_CUDA_PDL_OTHER, grid,
                        32 * KRN_CUDA__RMS_WARPS, 0, ex, x, w, eps, n, y, *xq);
    else
        krn_cuda_launch(krn_cuda_rmsnorm_quant_kernel<false>, KRN_CUDA_PDL_OTHER, grid,
                        32 * KRN_CUDA__RMS_WARPS, 0, ex, x, w, eps, n, y, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_rmsnorm_quant_kernel", err);
}
