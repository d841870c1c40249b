// rmsnorm.cu — RMS normalisation of each row, then its quantization for the
// matmuls that read it.
//
// CPU reference: kernels/cpu/rmsnorm.c then krn_quantize_act (canon.c).
#include "cuda_backend.h"

enum {
    KRN_CUDA__RMS_WARPS = 32,
    KRN_CUDA__RMS_STAGE_MAX = 11 * 1024, // floats of x staged in shared memory
};

// Grid (n_rows), 32 warps per row. Reduction order: lane l of warp 0 adds
// x_i * x_i for i = l, l+32, ... in order from 0.0f, then warp_fold (the
// canonical lane sum). Then mean = ss / (float)n, scale = 1 / sqrt(mean +
// eps), and y_i = (x_i * scale) * w_i. The block first copies the row into
// shared memory (when it fits: STAGED), so warp 0's sequential sum reads
// it at shared-memory latency; every warp then normalises and quantizes
// blocks w, w + 32, ... (elements 32b..32b+31, lane l holding element
// 32b + l), which are independent.
template <bool STAGED>
__global__ void __launch_bounds__(32 * KRN_CUDA__RMS_WARPS)
krn_cuda_rmsnorm_quant_kernel(const float *x, const float *w, float eps, int64_t n,
                              float *y, krn_cuda_act xq) {
    __shared__ float xs[STAGED ? KRN_CUDA__RMS_STAGE_MAX : 1];
    __shared__ float scale_s;
    const int r = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float *xr = x + (int64_t)r * n;
    const float *src = xr;
    if (STAGED) {
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x) xs[i] = xr[i];
        __syncthreads();
        src = xs;
    }
    if (warp == 0) {
        float part = 0.0f;
        for (int64_t i = lane; i < n; i += 32) part = fadd(part, fmul(src[i], src[i]));
        const float ss = warp_fold(part);
        const float mean = fdiv(ss, __ll2float_rn(n));
        const float scale = fdiv(1.0f, __fsqrt_rn(fadd(mean, eps)));
        if (lane == 0) scale_s = scale;
    }
    __syncthreads();
    const float scale = scale_s;
    float *yr = y + (int64_t)r * n;
    int8_t *qr = xq.q + (int64_t)r * xq.q_stride;
    float2 *cr = xq.c + (int64_t)r * xq.c_stride;
    for (int64_t b = warp; b < n / KRN_QBLOCK; b += KRN_CUDA__RMS_WARPS) {
        const int64_t i = b * KRN_QBLOCK + lane;
        const float v = fmul(fmul(src[i], scale), w[i]);
        yr[i] = v;
        quantize_act_lane(v, qr + b * KRN_QBLOCK, cr + b, lane);
    }
}

int krn_cuda_rmsnorm_quant(const float *x, const float *w, float eps,
                           int64_t n, int n_rows, float *y, const krn_cuda_act *xq,
                           cudaStream_t s, sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_ROWS || n < KRN_QBLOCK || n % KRN_QBLOCK ||
        n > xq->q_stride)
        return sb_err_set(err, __func__, "n_rows %d, n %lld: expected 1..%d "
                          "rows of a positive multiple of %d", n_rows,
                          (long long)n, KRN_MAX_ROWS, KRN_QBLOCK);
    if (n <= KRN_CUDA__RMS_STAGE_MAX)
        krn_cuda_rmsnorm_quant_kernel<true><<<n_rows, 32 * KRN_CUDA__RMS_WARPS, 0, s>>>(
            x, w, eps, n, y, *xq);
    else
        krn_cuda_rmsnorm_quant_kernel<false><<<n_rows, 32 * KRN_CUDA__RMS_WARPS, 0, s>>>(
            x, w, eps, n, y, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_rmsnorm_quant_kernel", err);
}
