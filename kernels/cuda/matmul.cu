// matmul.cu — y = W·x for a batch of rows, W of any krn_type.
//
// CPU reference: kernels/cpu/matmul.c — one output is the canonical dot of
// kernels.h §2 (krn_dot_q for quantized weights, krn_dot_f for F32/F16/BF16)
// followed by one rounded add: y = dot + bias[o], or y = y_old + dot.
//
// Both kernels give one warp to one output feature o, and that warp loops
// over the batch rows in tiles of KRN_CUDA__MM_TILE (the weight row is
// re-read per tile, from cache). Lane l owns the 32-element blocks l, l+32,
// l+64, ... of the row: it adds their values in that order into its own
// partial sum (one per row of the tile) starting from 0.0f, and warp_fold
// then folds the 32 partials exactly as the CPU's lane fold does. A row's
// sequence of float operations is thus fixed by the shapes alone: the
// number of rows, a row's place in the batch and the tile it falls in
// change nothing.
#include "cuda_backend.h"
#include "dot.cuh"

enum { KRN_CUDA__MM_WARPS = 4, KRN_CUDA__MM_TILE = 8 };

// The epilogue of matmul.c, by lane 0: one rounded add at most.
static __device__ __forceinline__ void mm_store(float dot, const float *bias,
                                                bool accumulate, float *y,
                                                int64_t o) {
    float v = dot;
    if (bias) v = fadd(v, bias[o]);
    if (accumulate) v = fadd(*y, v);
    *y = v;
}

// Quantized weights: block j's value is dot.cuh's block_value_q (krn_dot_q's
// block value), the weight block unpacked once per row tile.
template <int T>
__global__ void krn_cuda_mm_q_kernel(const uint8_t *w, uint64_t row_bytes,
                                     int64_t ne1, int nb,
                                     const krn_act_block *xq, const float *bias,
                                     bool accumulate, float *y, int64_t ldy,
                                     int n_rows) {
    constexpr bool has_min = T == KRN_Q4_1 || T == KRN_Q5_1 || T == KRN_Q4_K ||
                             T == KRN_Q5_K;
    const int lane = threadIdx.x & 31;
    const int64_t o = (int64_t)blockIdx.x * KRN_CUDA__MM_WARPS + (threadIdx.x >> 5);
    if (o >= ne1) return; // warp-uniform
    const uint8_t *row = w + (uint64_t)o * row_bytes;
    for (int r0 = 0; r0 < n_rows; r0 += KRN_CUDA__MM_TILE) {
        float acc[KRN_CUDA__MM_TILE];
#pragma unroll
        for (int t = 0; t < KRN_CUDA__MM_TILE; t++) acc[t] = 0.0f;
        for (int j = lane; j < nb; j += 32) {
            krn_cuda_wblock wb;
            unpack_block<T>(row, j, &wb);
#pragma unroll
            for (int t = 0; t < KRN_CUDA__MM_TILE; t++) {
                if (r0 + t >= n_rows) break;
                const krn_act_block *xb = xq + (int64_t)(r0 + t) * nb + j;
                acc[t] = fadd(acc[t], block_value_q<has_min>(&wb, xb));
            }
        }
#pragma unroll
        for (int t = 0; t < KRN_CUDA__MM_TILE; t++) {
            const int r = r0 + t;
            if (r >= n_rows) break; // warp-uniform
            const float dot = warp_fold(acc[t]);
            if (lane == 0) mm_store(dot, bias, accumulate, y + (int64_t)r * ldy + o, o);
        }
    }
}

// Float weights (F32/F16/BF16, widened exactly): block j's value is
// dot.cuh's block_value_f (krn_dot_f's block sum, i = 0..31 in order);
// the blocks then go through the lanes as above.
template <int T>
__global__ void krn_cuda_mm_f_kernel(const uint8_t *w, uint64_t row_bytes,
                                     int64_t ne1, int64_t n, const float *x,
                                     const float *bias, bool accumulate,
                                     float *y, int64_t ldy, int n_rows) {
    const int lane = threadIdx.x & 31;
    const int64_t o = (int64_t)blockIdx.x * KRN_CUDA__MM_WARPS + (threadIdx.x >> 5);
    if (o >= ne1) return; // warp-uniform
    const uint8_t *row = w + (uint64_t)o * row_bytes;
    const int64_t nb = n / KRN_QBLOCK;
    for (int r0 = 0; r0 < n_rows; r0 += KRN_CUDA__MM_TILE) {
        float acc[KRN_CUDA__MM_TILE];
#pragma unroll
        for (int t = 0; t < KRN_CUDA__MM_TILE; t++) acc[t] = 0.0f;
        for (int64_t j = lane; j < nb; j += 32) {
            float wv[KRN_QBLOCK];
#pragma unroll
            for (int i = 0; i < KRN_QBLOCK; i++)
                wv[i] = dequant_elem(T, row, j * KRN_QBLOCK + i);
#pragma unroll
            for (int t = 0; t < KRN_CUDA__MM_TILE; t++) {
                if (r0 + t >= n_rows) break;
                const float *xr = x + (int64_t)(r0 + t) * n + j * KRN_QBLOCK;
                acc[t] = fadd(acc[t], block_value_f(wv, xr));
            }
        }
#pragma unroll
        for (int t = 0; t < KRN_CUDA__MM_TILE; t++) {
            const int r = r0 + t;
            if (r >= n_rows) break; // warp-uniform
            const float dot = warp_fold(acc[t]);
            if (lane == 0) mm_store(dot, bias, accumulate, y + (int64_t)r * ldy + o, o);
        }
    }
}

static int krn_cuda__mm_check(const krn_cuda_mm *mm, sb_err *err) {
    const krn_cuda_mat *w = mm->w;
    const bool quantized = krn_type_is_quantized(w->type);
    if (mm->n_rows < 1 || mm->n_rows > KRN_MAX_ROWS)
        return sb_err_set(err, "krn_cuda_matmul", "n_rows is %d; expected 1..%d",
                          mm->n_rows, KRN_MAX_ROWS);
    if (w->ne0 < KRN_QBLOCK || w->ne0 % KRN_QBLOCK || w->ne1 < 1 ||
        w->ne0 / KRN_QBLOCK > INT32_MAX || mm->ldy < w->ne1)
        return sb_err_set(err, "krn_cuda_matmul", "shape [%lld, %lld], ldy "
                          "%lld: expected a positive multiple of %d inputs and "
                          "ldy >= outputs", (long long)w->ne0,
                          (long long)w->ne1, (long long)mm->ldy, KRN_QBLOCK);
    if ((quantized && !mm->xq) || (!quantized && !mm->x) || !mm->y || !w->data)
        return sb_err_set(err, "krn_cuda_matmul", "a %s input, the output or "
                          "the weights are NULL", quantized ? "quantized" : "float");
    if (mm->bias && mm->accumulate)
        return sb_err_set(err, "krn_cuda_matmul", "bias and accumulate are "
                          "both set; expected at most one");
    return 0;
}

#define KRN_CUDA__MM_Q(T)                                                     \
    krn_cuda_mm_q_kernel<T><<<grid, block, 0, s>>>(w->data, w->row_bytes,     \
        w->ne1, (int)(w->ne0 / KRN_QBLOCK), mm->xq, mm->bias, mm->accumulate, \
        mm->y, mm->ldy, mm->n_rows)
#define KRN_CUDA__MM_F(T)                                                     \
    krn_cuda_mm_f_kernel<T><<<grid, block, 0, s>>>(w->data, w->row_bytes,     \
        w->ne1, w->ne0, mm->x, mm->bias, mm->accumulate, mm->y, mm->ldy,      \
        mm->n_rows)

// Grid ceil(ne1 / 4) blocks of 4 warps, one warp per output feature.
int krn_cuda_matmul(const krn_cuda_mm *mm, cudaStream_t s, sb_err *err) {
    if (krn_cuda__mm_check(mm, err)) return -1;
    const krn_cuda_mat *w = mm->w;
    const dim3 grid((unsigned)((w->ne1 + KRN_CUDA__MM_WARPS - 1) / KRN_CUDA__MM_WARPS));
    const dim3 block(32 * KRN_CUDA__MM_WARPS);
    switch (w->type) {
    case KRN_Q4_0: KRN_CUDA__MM_Q(KRN_Q4_0); break;
    case KRN_Q4_1: KRN_CUDA__MM_Q(KRN_Q4_1); break;
    case KRN_Q5_0: KRN_CUDA__MM_Q(KRN_Q5_0); break;
    case KRN_Q5_1: KRN_CUDA__MM_Q(KRN_Q5_1); break;
    case KRN_Q8_0: KRN_CUDA__MM_Q(KRN_Q8_0); break;
    case KRN_Q4_K: KRN_CUDA__MM_Q(KRN_Q4_K); break;
    case KRN_Q5_K: KRN_CUDA__MM_Q(KRN_Q5_K); break;
    case KRN_Q6_K: KRN_CUDA__MM_Q(KRN_Q6_K); break;
    case KRN_F32: KRN_CUDA__MM_F(KRN_F32); break;
    case KRN_F16: KRN_CUDA__MM_F(KRN_F16); break;
    case KRN_BF16: KRN_CUDA__MM_F(KRN_BF16); break;
    default:
        return sb_err_set(err, __func__, "weight type %s (%d) has no CUDA "
                          "matmul", krn_type_name((uint32_t)w->type), (int)w->type);
    }
    return KRN_CUDA_LAUNCHED("krn_cuda_mm kernel", err);
}
