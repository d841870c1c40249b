// rmsnorm.cu — RMS normalisation of each row, then its quantization for the
// matmuls that read it.
//
// CPU reference: kernels/cpu/rmsnorm.c then krn_quantize_act (canon.c).
#include "cuda_backend.h"

enum { KRN_CUDA__RMS_WARPS = 8 };

// Grid (n_rows), 8 warps per row. Reduction order: lane l adds x_i * x_i
// for i = l, l+32, ... in order from 0.0f, then warp_fold (the canonical
// lane sum). Then mean = ss / (float)n, scale = 1 / sqrt(mean + eps), and
// y_i = (x_i * scale) * w_i. Every warp computes the sum of squares itself,
// in that same order (the same bits in every warp, and no barrier); warp w
// then normalises and quantizes blocks w, w + 8, ... (elements 32b..32b+31
// with lane l holding element 32b + l), which are independent.
__global__ void krn_cuda_rmsnorm_quant_kernel(const float *x, const float *w,
                                              float eps, int64_t n, float *y,
                                              krn_cuda_act xq) {
    const int r = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float *xr = x + (int64_t)r * n;
    float part = 0.0f;
    for (int64_t i = lane; i < n; i += 32) part = fadd(part, fmul(xr[i], xr[i]));
    const float ss = warp_fold(part);
    const float mean = fdiv(ss, __ll2float_rn(n));
    const float scale = fdiv(1.0f, __fsqrt_rn(fadd(mean, eps)));
    float *yr = y + (int64_t)r * n;
    int8_t *qr = xq.q + (int64_t)r * xq.q_stride;
    float2 *cr = xq.c + (int64_t)r * xq.c_stride;
    for (int64_t b = warp; b < n / KRN_QBLOCK; b += KRN_CUDA__RMS_WARPS) {
        const int64_t i = b * KRN_QBLOCK + lane;
        const float v = fmul(fmul(xr[i], scale), w[i]);
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
    krn_cuda_rmsnorm_quant_kernel<<<n_rows, 32 * KRN_CUDA__RMS_WARPS, 0, s>>>(
        x, w, eps, n, y, *xq);
    return KRN_CUDA_LAUNCHED("krn_cuda_rmsnorm_quant_kernel", err);
}
