// rope.cu — rotary position embedding (NEOX pairs i, i + hd/2) on q and k,
// then K and V rounded to fp16 into the KV cache at slot pos[r] % kv_slots.
//
// CPU reference: kernels/cpu/rope.c and forward.c's krn_cpu__rope_kv_row.
// The cos/sin table is the host's (kernels/rope_table.c), uploaded unchanged.
// Per pair, with c = cos[pos][i], s = sin[pos][i] (each product rounded,
// then the add or subtract):
//     out_i        = a * c - b * s
//     out_{i+hd/2} = a * s + b * c
// K and V go through common.cuh's float_to_half, krn_fp32_to_fp16's exact
// rounding. No reduction.
#include "cuda_backend.h"

// Grid (n_rows, ceil(items / 256)), 256 threads, one item per thread: the
// row's q pairs, then its k pairs, then its v elements (no loop, so every
// thread's loads are in flight at once). Each k pair is rotated and written
// to the cache by one thread.
__global__ void krn_cuda_rope_kv_kernel(krn_cuda_rope_kv a) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x;
    const int32_t half = a.head_dim / 2, pos = a.pos[r];
    const int64_t q_dim = (int64_t)a.n_head * a.head_dim;
    const int64_t kv_dim = (int64_t)a.n_head_kv * a.head_dim;
    const int64_t n_qp = (int64_t)a.n_head * half, n_kp = (int64_t)a.n_head_kv * half;
    const int64_t p = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
    if (p < n_qp + n_kp) {
        const float *cs = a.cos + (int64_t)pos * half, *sn = a.sin + (int64_t)pos * half;
        const bool is_q = p < n_qp;
        const int64_t pp = is_q ? p : p - n_qp;
        const int64_t h = pp / half, i = pp % half;
        float *lo = (is_q ? a.q + (int64_t)r * q_dim : a.k + (int64_t)r * kv_dim) +
                    h * a.head_dim + i;
        float *hi = lo + half;
        const float x0 = *lo, x1 = *hi, c = cs[i], s = sn[i];
        const float o0 = fsub(fmul(x0, c), fmul(x1, s));
        const float o1 = fadd(fmul(x0, s), fmul(x1, c));
        *lo = o0;
        *hi = o1;
        if (!is_q) {
            uint16_t *kc = a.k_cache + (int64_t)(pos % a.kv_slots) * kv_dim + h * a.head_dim + i;
            kc[0] = float_to_half(o0);
            kc[half] = float_to_half(o1);
        }
    } else if (p < n_qp + n_kp + kv_dim) {
        const int64_t e = p - n_qp - n_kp;
        a.v_cache[(int64_t)(pos % a.kv_slots) * kv_dim + e] =
            float_to_half(a.v[(int64_t)r * kv_dim + e]);
    }
}

int krn_cuda_rope_kv_write(const krn_cuda_rope_kv *a, krn_cuda_exec ex, sb_err *err) {
    if (a->n_rows < 1 || a->n_rows > KRN_MAX_BATCH_ROWS || a->head_dim < 2 ||
        a->head_dim % 2 || a->n_head < 1 || a->n_head_kv < 1)
        return sb_err_set(err, __func__, "n_rows %d, head_dim %d, heads %d/%d: "
                          "expected 1..%d rows, an even head_dim and heads >= 1",
                          a->n_rows, (int)a->head_dim, (int)a->n_head,
                          (int)a->n_head_kv, KRN_MAX_BATCH_ROWS);
    const int64_t items = (int64_t)(a->n_head + a->n_head_kv) * (a->head_dim / 2) +
                          (int64_t)a->n_head_kv * a->head_dim;
    const dim3 grid((unsigned)a->n_rows, (unsigned)((items + 255) / 256));
    krn_cuda_launch(krn_cuda_rope_kv_kernel, KRN_CUDA_PDL_OTHER, grid, 256, 0, ex, *a);
    return KRN_CUDA_LAUNCHED("krn_cuda_rope_kv_kernel", err);
}
