// mm_float.cu — y = W·x for float weights (F32, F16, BF16, widened exactly):
// no activation quantization.
//
// CPU reference: kernels/cpu/matmul.c with canon.c's krn_dot_f. THE ORDER,
// per output o and row r: block j (32 weights) has the value
// Σ_{i=0..31} w_i * x_i added in order from 0.0f (dot.cuh's block_value_f),
// lane l = j mod 32 adds its blocks l, l+32, ... in order from 0.0f, and the
// 32 lanes fold by the butterfly of kernels.h §2 (common.cuh's warp_fold);
// then the epilogue.
#include "cuda_backend.h"
#include "dot.cuh"
#include "mmq.cuh"

enum {
    KRN_CUDA__GV_WARPS = 4, // outputs (warps) per block
    KRN_CUDA__F_TILE = 8,   // rows per pass
};

// ==== float weights ================================================================
//
// Float weights (F32/F16/BF16, widened exactly): block j's value is
// dot.cuh's block_value_f (krn_dot_f's block sum, i = 0..31 in order);
// lane l owns blocks l, l+32, ..., one warp per output, rows in tiles of 8.
template <int T>
__global__ void krn_cuda_mm_f_kernel(const uint8_t *w, uint64_t row_bytes,
                                     int64_t ne1, int64_t n, const float *x,
                                     const float *bias, bool accumulate,
                                     float *y, int64_t ldy, int n_rows) {
    grid_dep_sync(); // common.cuh: before any global access
    const int lane = threadIdx.x & 31;
    const int64_t o = (int64_t)blockIdx.x * KRN_CUDA__GV_WARPS + (threadIdx.x >> 5);
    if (o >= ne1) return; // warp-uniform
    const uint8_t *row = w + (uint64_t)o * row_bytes;
    const int64_t nb = n / KRN_QBLOCK;
    for (int r0 = 0; r0 < n_rows; r0 += KRN_CUDA__F_TILE) {
        float acc[KRN_CUDA__F_TILE];
#pragma unroll
        for (int t = 0; t < KRN_CUDA__F_TILE; t++) acc[t] = 0.0f;
        for (int64_t j = lane; j < nb; j += 32) {
            float wv[KRN_QBLOCK];
#pragma unroll
            for (int i = 0; i < KRN_QBLOCK; i++)
                wv[i] = dequant_elem(T, row, j * KRN_QBLOCK + i);
#pragma unroll
            for (int t = 0; t < KRN_CUDA__F_TILE; t++) {
                if (r0 + t >= n_rows) break;
                const float *xr = x + (int64_t)(r0 + t) * n + j * KRN_QBLOCK;
                acc[t] = fadd(acc[t], block_value_f(wv, xr));
            }
        }
#pragma unroll
        for (int t = 0; t < KRN_CUDA__F_TILE; t++) {
            const int r = r0 + t;
            if (r >= n_rows) break; // warp-uniform
            const float dot = warp_fold(acc[t]);
            if (lane == 0) krn_cuda_mm_store(dot, bias, accumulate, y + (int64_t)r * ldy + o, o);
        }
    }
}

#define KRN_CUDA__MM_F(T)                                                     \
    krn_cuda_launch(krn_cuda_mm_f_kernel<T>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex,      \
                    w->data, w->row_bytes, w->ne1, w->ne0, mm->x, mm->bias,           \
                    mm->accumulate, mm->y, mm->ldy, mm->n_rows)

// One float-weight matrix: grid ceil(ne1 / 4) blocks of 4 warps.
int krn_cuda_matmul_f(const krn_cuda_mm *mm, krn_cuda_exec ex, sb_err *err) {
    const krn_cuda_mat *w = mm->w;
    const dim3 grid((unsigned)((w->ne1 + KRN_CUDA__GV_WARPS - 1) / KRN_CUDA__GV_WARPS));
    const dim3 block(32 * KRN_CUDA__GV_WARPS);
    switch (w->type) {
    case KRN_F32: KRN_CUDA__MM_F(KRN_F32); break;
    case KRN_F16: KRN_CUDA__MM_F(KRN_F16); break;
    case KRN_BF16: KRN_CUDA__MM_F(KRN_BF16); break;
    default:
        return sb_err_set(err, __func__, "weight type %s (%d) has no CUDA "
                          "matmul", krn_type_name((uint32_t)w->type), (int)w->type);
    }
    return KRN_CUDA_LAUNCHED("krn_cuda_mm_f_kernel", err);
}

