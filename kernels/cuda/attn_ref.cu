// attn_ref.cu — the first attention kernel: one block per (row, head)
// walks the row's chunks in order, performing the whole contract
// (attention.cu's header; CPU reference: kernels/cpu/attention.c) with no
// merge kernel; and its launcher. attention.cu runs it for short
// single-chunk steps (auto) or when krn_tuning.attention asks (KRN_ATTN_REF).
#include "attn.cuh"

// Grid (n_rows, n_head), 128 threads; dynamic shared memory q[hd], acc[hd],
// p[64]. Scores: warp w takes slots w, w+4, ... of the chunk; lane l adds
// q_d * k[d] for d = l, l+32, ... from 0.0f and warp_fold folds them (the
// canonical lane sum). The chunk's max and l are sequential scans over the
// 64 slots, done redundantly by every thread (the same bits everywhere);
// thread d computes acc[d] as a sequential sum over the chunk's slots and
// keeps the running ACC[d] across chunks.
__global__ void krn_cuda_attn_kernel(krn_cuda_attn a) {
    grid_dep_sync(); // common.cuh: before any global access
    extern __shared__ float sm[];
    const int r = blockIdx.x, h = blockIdx.y, hd = a.head_dim;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int n_warps = blockDim.x >> 5;
    const int64_t q_dim = (int64_t)a.n_head * hd, kv_dim = (int64_t)a.n_head_kv * hd;
    const int kvh = h / (a.n_head / a.n_head_kv);
    float *qs = sm, *acc = sm + hd, *p = sm + 2 * hd;
    const uint16_t *kb = a.k_cache + (int64_t)kvh * hd;
    const uint16_t *vb = a.v_cache + (int64_t)kvh * hd;
    for (int d = tid; d < hd; d += blockDim.x) qs[d] = a.q[r * q_dim + (int64_t)h * hd + d];
    const float scale = fdiv(1.0f, __fsqrt_rn(int_to_float(hd)));
    const int32_t last = a.pos[r];
    const int32_t first = a.window > 0 && last >= a.window ? last - a.window + 1 : 0;
    float M = 0.0f, L = 0.0f;
    __syncthreads();
    for (int32_t c = first / KRN_ATTN_CHUNK; c <= last / KRN_ATTN_CHUNK; c++) {
        const int32_t t0 = c * KRN_ATTN_CHUNK > first ? c * KRN_ATTN_CHUNK : first;
        const int32_t t1 = last < (c + 1) * KRN_ATTN_CHUNK - 1 ? last : (c + 1) * KRN_ATTN_CHUNK - 1;
        const int n = t1 - t0 + 1;
        const bool head = c == first / KRN_ATTN_CHUNK; // the run starts here
        for (int j = warp; j < n; j += n_warps) { // warp-uniform
            const uint16_t *k = kb + (int64_t)((t0 + j) % a.kv_slots) * kv_dim;
            float part = 0.0f;
            for (int d = lane; d < hd; d += 32) part = fadd(part, fmul(qs[d], half_to_float(k[d])));
            const float sc = warp_fold(part);
            if (lane == 0) p[j] = fmul(sc, scale);
        }
        __syncthreads();
        float m = p[0];
        for (int j = 1; j < n; j++)
            if (p[j] > m) m = p[j];
        __syncthreads(); // every thread has read the scores
        for (int j = tid; j < n; j += blockDim.x) p[j] = krn_cuda_exp(fsub(p[j], m));
        __syncthreads();
        float l = 0.0f;
        for (int j = 0; j < n; j++) l = fadd(l, p[j]);
        float ea = 1.0f, eb = 1.0f;
        if (head) {
            M = m;
            L = l;
        } else {
            const float mm = M > m ? M : m;
            ea = krn_cuda_exp(fsub(M, mm));
            eb = krn_cuda_exp(fsub(m, mm));
            L = fadd(fmul(L, ea), fmul(l, eb));
            M = mm;
        }
        for (int d = tid; d < hd; d += blockDim.x) {
            float s = 0.0f;
            for (int j = 0; j < n; j++)
                s = fadd(s, fmul(p[j], half_to_float(vb[(int64_t)((t0 + j) % a.kv_slots) *
                                                            kv_dim + d])));
            acc[d] = head ? s : fadd(fmul(acc[d], ea), fmul(s, eb));
        }
        __syncthreads(); // p is rewritten by the next chunk
    }
    for (int d = tid; d < hd; d += blockDim.x)
        a.out[r * q_dim + (int64_t)h * hd + d] = fdiv(acc[d], L);
}

int krn_cuda__attention_ref(const krn_cuda_attn *a, krn_cuda_exec ex, sb_err *err) {
    const size_t smem = krn_cuda__ref_smem(a->head_dim);
    if (smem > (size_t)KRN_CUDA__REF_SMEM_MAX)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; this kernel takes at most 49152",
                          (int)a->head_dim, smem);
    const dim3 grid((unsigned)a->n_rows, (unsigned)a->n_head);
    krn_cuda_launch(krn_cuda_attn_kernel, KRN_CUDA_PDL_ATTN, grid, KRN_CUDA__ATTN_THREADS, smem,
                    ex, *a);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_kernel", err);
}
