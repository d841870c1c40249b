// attention.cu — each query head against the fp16 KV cache, in fixed chunks.
//
// CPU reference: kernels/cpu/attention.c, whose header states the contract
// this kernel performs step by step (fp32, each operation rounded as
// written; fp16 keys and values widened exactly; krn_exp is the port in
// canon_math.cuh):
//   1. score_t = lane_sum_d(q_d * k_t[d]) * (1 / sqrt(hd))
//   2. chunks of KRN_ATTN_CHUNK = 64 slots by absolute index; per chunk
//      m = running strict maximum from the first slot, p_t = exp(score_t - m),
//      l = Σ p_t and acc[d] = Σ p_t * v_t[d], each added in slot order from 0
//   3. merge left to right: M' = max, a = exp(M - M'), b = exp(m_b - M'),
//      L = L*a + l_b*b, ACC[d] = ACC[d]*a + acc_b[d]*b
//   4. out[d] = ACC[d] / L
#include "canon_math.cuh"
#include "cuda_backend.h"

extern "C" {
#include "../cpu/cpu.h" /* KRN_ATTN_CHUNK, the contract's constant */
}

enum { KRN_CUDA__ATTN_THREADS = 128 };

// Grid (n_rows, n_head), 128 threads; dynamic shared memory q[hd], acc[hd],
// p[64]. Scores: warp w takes slots w, w+4, ... of the chunk; lane l adds
// q_d * k[d] for d = l, l+32, ... from 0.0f and warp_fold folds them (the
// canonical lane sum). The chunk's max and l are sequential scans over the
// 64 slots, done redundantly by every thread (the same bits everywhere);
// thread d computes acc[d] as a sequential sum over the chunk's slots and
// keeps the running ACC[d] across chunks.
__global__ void krn_cuda_attn_kernel(krn_cuda_attn a) {
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
    const float scale = fdiv(1.0f, __fsqrt_rn(i2f(hd)));
    const int32_t n_keys = a.pos[r] + 1;
    float M = 0.0f, L = 0.0f;
    __syncthreads();
    for (int32_t t0 = 0; t0 < n_keys; t0 += KRN_ATTN_CHUNK) {
        const int n = n_keys - t0 < KRN_ATTN_CHUNK ? n_keys - t0 : KRN_ATTN_CHUNK;
        for (int j = warp; j < n; j += n_warps) { // warp-uniform
            const uint16_t *k = kb + (int64_t)(t0 + j) * kv_dim;
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
        if (t0 == 0) {
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
                s = fadd(s, fmul(p[j], half_to_float(vb[(int64_t)(t0 + j) * kv_dim + d])));
            acc[d] = t0 == 0 ? s : fadd(fmul(acc[d], ea), fmul(s, eb));
        }
        __syncthreads(); // p is rewritten by the next chunk
    }
    for (int d = tid; d < hd; d += blockDim.x)
        a.out[r * q_dim + (int64_t)h * hd + d] = fdiv(acc[d], L);
}

int krn_cuda_attention(const krn_cuda_attn *a, cudaStream_t s, sb_err *err) {
    if (a->n_rows < 1 || a->n_rows > KRN_MAX_ROWS || a->head_dim < 2 ||
        a->n_head < 1 || a->n_head_kv < 1 || a->n_head % a->n_head_kv)
        return sb_err_set(err, __func__, "n_rows %d, head_dim %d, heads %d/%d: "
                          "expected 1..%d rows, head_dim >= 2, n_head_kv "
                          "dividing n_head", a->n_rows, (int)a->head_dim,
                          (int)a->n_head, (int)a->n_head_kv, KRN_MAX_ROWS);
    const size_t smem = (2 * (size_t)a->head_dim + KRN_ATTN_CHUNK) * sizeof(float);
    if (smem > 48 * 1024)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; this kernel takes at most 49152",
                          (int)a->head_dim, smem);
    const dim3 grid((unsigned)a->n_rows, (unsigned)a->n_head);
    krn_cuda_attn_kernel<<<grid, KRN_CUDA__ATTN_THREADS, smem, s>>>(*a);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_kernel", err);
}
