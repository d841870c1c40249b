// attention.cu — each query head against the fp16 KV cache, in fixed chunks.
//
// CPU reference: kernels/cpu/attention.c, whose header states the contract
// these kernels perform step by step (fp32, each operation rounded as
// written; fp16 keys and values widened exactly; krn_exp is the port in
// canon_math.cuh):
//   1. score_t = lane_sum_d(q_d * k_t[d]) * (1 / sqrt(hd))
//   2. chunks of KRN_ATTN_CHUNK = 64 slots by absolute index; per chunk
//      m = running strict maximum from the first slot, p_t = exp(score_t - m),
//      l = Σ p_t and acc[d] = Σ p_t * v_t[d], each added in slot order from 0
//   3. merge left to right: M' = max, a = exp(M - M'), b = exp(m_b - M'),
//      L = L*a + l_b*b, ACC[d] = ACC[d]*a + acc_b[d]*b
//   4. out[d] = ACC[d] / L
//
// Two kernels compute steps 1 and 2, with the same bits; one merge kernel
// performs steps 3 and 4 after either.
//
// Split-KV: krn_cuda_attn_chunk_kernel computes step 1 and 2 for every
// (row, chunk, head) in parallel, one block per (chunk, heads of a KV head,
// row), and stores each chunk's (m, l, acc[hd]) — or, when the row has a
// single chunk, step 4 directly; krn_cuda_attn_merge_kernel then performs
// steps 3 and 4 per (row, head), chunk 0, 1, 2, ... strictly in order.
// Which block computed a chunk, and when, cannot change its bits: a chunk's
// sequence reads only its own slots. When the chunk states of all rows do
// not fit the scratch at once, the chunks go in batches, the merge carrying
// (M, L, ACC) from one batch to the next in memory — the same sequence,
// only paused.
//
// Rows (head_dim 64 or 128): krn_cuda_attn_rows_kernel writes the same
// chunk states (or outputs) as krn_cuda_attn_chunk_kernel, one block per
// (chunk, KV head, tile of rows) instead of per (chunk, heads, row), so a
// chunk's keys and values are staged once for many rows; the merge is the
// same. It has fewer blocks: tiles x KV heads x chunks of the launch.
//
// Which one runs (krn_cuda_attention, a->mode = krn_cuda_cfg.attn):
//   SB_CUDA_ATTN unset (or auto): the first kernel (below) for a step of at
//     most 16 rows whose keys all lie in one chunk (no merge to do; its
//     one launch per (row, head) beats split-KV's phases there); else rows
//     when it applies (head_dim 64 or 128, the group fits a block), the
//     step has at least 4 rows and the launch's grid (chunks of the first
//     launch, i.e. of a merge batch, x KV heads x row tiles) has at least
//     one block per multiprocessor of the GPU; else split-KV;
//   SB_CUDA_ATTN=rows: rows wherever it applies, else split-KV;
//   SB_CUDA_ATTN=split: split-KV; SB_CUDA_ATTN=ref: the first kernel, one
//     block per (row, head) walking every chunk (no merge).
// The choice depends only on the row bucket, the chunk span and the GPU —
// all fixed when a step's graph is captured (forward.cu re-captures when
// the span changes) — and can change no bit: both kernels perform the
// contract's sequence.
// Why (7B shape, 28 layers, 4 KV heads of 7 query heads, head_dim 128;
// H200, 132 SMs, 2026-12-02; ms per step, split / rows):
//   rows            1     2     4     8    16    24    32    48    64
//   depth 0      3.13  3.75  4.86  6.52  7.63  8.88 10.19 17.39 19.09
//                3.86  4.36  5.51  7.17  8.19  9.45 10.69 17.79 19.28
//   depth 4096   3.92  4.64  6.63  9.86 14.21 18.56 23.00 36.54 44.26
//                4.02  4.48  5.63  8.13 11.54 14.52 17.62 28.45 33.51
// Deep, rows wins by 1.18-1.32x from 4 rows on; at depth 0 (one chunk:
// the rows kernel has 4 blocks for a row, 64 for 64 rows, on 132 SMs) the
// GPU is mostly idle and split-KV's many small blocks win by 0.2-0.7 ms.
// On this table the rule picks split-KV at depth 0 and for 1 and 2 rows,
// rows for every other entry (at 2 rows deep rows is 0.16 ms faster: the
// floor of 4 rows gives that up). Then (2026-12-03, same card, ms per step
// at depth 0, split / the first kernel): 1 row 2.80 / 2.67, 2 rows 3.51 /
// 3.39, 4 rows 4.74 / 4.61, 8 rows 6.06 / 5.97, 16 rows 7.16 / 7.19, 24
// rows 8.41 / 8.54 — so the first kernel takes single-chunk steps of up to
// 16 rows. (Deep, it walks every chunk alone: 108 ms at 4096.)
#include "canon_math.cuh"
#include "cuda_backend.h"


enum {
    KRN_CUDA__ATTN_THREADS = 128,
    KRN_CUDA__CHUNK_THREADS = 128,
    KRN_CUDA__REF_MAX_ROWS = 16, // auto: single-chunk steps up to this many rows
    KRN_CUDA__REF_SMEM_MAX = 48 * 1024, // the first kernel's shared memory: no opt-in
};

// ==== split-KV ==================================================================

struct krn_cuda__chunk_p {
    const float *q;
    const uint16_t *k, *v;      // the layer's slabs
    const int32_t *pos;
    float *out;                 // used when final
    float *part;                // chunk states
    int32_t n_head, n_head_kv, hd;
    int32_t group;              // query heads per KV head
    int32_t hpc, hsplit;        // heads per block, blocks per KV head
    int32_t window, kv_slots;   // the model's window (0: none); the ring
    int32_t cbase;              // absolute chunk of relative chunk 0
    int32_t c0, nbatch;         // this launch: relative chunks c0 .. c0 + nbatch - 1
    int final_;                 // every row has one chunk: write out[]
};

// Bytes of shared memory of a chunk block with hpc heads.
static size_t krn_cuda__chunk_smem(int32_t hd, int32_t hpc) {
    return ((size_t)KRN_ATTN_CHUNK * (size_t)(hd + 4) + (size_t)hpc * (size_t)hd +
            (size_t)hpc * KRN_ATTN_CHUNK + 2 * (size_t)hpc) * sizeof(float);
}

// The ring slot of position t0 + s, for 0 <= s < KRN_ATTN_CHUNK, given
// b = t0 % slots: one compare instead of a division per element, except on
// rings shorter than a chunk (tiny test windows).
static __device__ __forceinline__ int64_t krn_cuda__ring_slot(int32_t b, int s, int32_t slots) {
    const int32_t t = b + s;
    return t < slots ? t : slots >= KRN_ATTN_CHUNK ? t - slots : t % slots;
}

// dst[s][d] (row stride ks) = the key (or value) of position t0 + s, in
// slot (t0 + s) % slots of src (row stride src_stride halves), widened
// exactly, for s < n and d < hd. With hd % 8 == 0 (src rows then 16-byte
// aligned) each thread loads up to 8 aligned 8-half vectors before
// converting any, so their latencies overlap; otherwise one half at a time.
static __device__ __forceinline__ void krn_cuda__stage_f16(float *dst, int ks,
                                                           const uint16_t *src,
                                                           int64_t src_stride, int32_t t0,
                                                           int32_t slots, int n, int hd) {
    const int32_t b = t0 % slots; // n <= KRN_ATTN_CHUNK
    if (hd % 8 == 0) {
        const int hd8 = hd / 8, total = n * hd8;
        for (int base = 0; base < total; base += 8 * (int)blockDim.x) {
            uint4 v[8];
            int off[8];
#pragma unroll
            for (int k = 0; k < 8; k++) {
                const int u = base + k * (int)blockDim.x + (int)threadIdx.x;
                off[k] = -1;
                if (u < total) {
                    const int s = u / hd8, d8 = u - s * hd8;
                    v[k] = *(const uint4 *)(src + krn_cuda__ring_slot(b, s, slots) * src_stride +
                                            8 * d8);
                    off[k] = s * ks + 8 * d8;
                }
            }
#pragma unroll
            for (int k = 0; k < 8; k++) {
                if (off[k] < 0) continue;
                const uint32_t wv[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    dst[off[k] + 2 * i] = half_to_float_fast(wv[i] & 0xFFFFu);
                    dst[off[k] + 2 * i + 1] = half_to_float_fast(wv[i] >> 16);
                }
            }
        }
        return;
    }
    int s = (int)threadIdx.x / hd, d = (int)threadIdx.x % hd;
    while (s < n) {
        dst[s * ks + d] = half_to_float_fast(src[krn_cuda__ring_slot(b, s, slots) * src_stride + d]);
        d += (int)blockDim.x;
        while (d >= hd) {
            d -= hd;
            s++;
        }
    }
}

// Grid (nbatch, n_head_kv * hsplit, n_rows), 128 threads: block (x, y, r)
// takes chunk c = cbase + c0 + x of row r (positions max(64c, first) ..
// min(64c + 63, pos[r]), first = pos[r] - window + 1 or 0) for query heads
// hs*hpc .. of KV head y / hsplit. Shared memory: the chunk's
// keys, then its values, widened to fp32 (kv[slot][ks]; with hd % 4 == 0,
// ks = hd + 4 keeps rows 16-byte aligned for float4 reads and puts the
// rows a warp reads at one d in different banks; otherwise ks = hd + 1),
// the heads' q (later their outputs), their scores/p and (m, l).
//   Scores: one thread per (head, slot) computes the 32 lane partials
//   itself (lane l: d = l, l+32, ... in order from 0.0f) and folds them
//   (off = 16 .. 1, partial[l] + partial[l + off]) — the lane sum — then
//   multiplies by scale. (float4 reads only change how q and k arrive.)
//   m: one thread per head scans the chunk's scores in slot order, keeping
//   the first and replacing it by each strictly greater one.
//   p_t = exp(score_t - m): one thread per (head, slot).
//   l: one thread per head, slot order from 0.0f.
//   acc[d]: slot order from 0.0f, one chain per (head, d); a thread runs
//   the chains of 4 consecutive d (one float4 of each value row) of up to
//   two heads' tasks at once.
__global__ void krn_cuda_attn_chunk_kernel(const krn_cuda__chunk_p a) {
    grid_dep_sync(); // common.cuh: before any global access
    extern __shared__ __align__(16) float sm[];
    const int r = blockIdx.z, tid = threadIdx.x;
    const int kvh = blockIdx.y / a.hsplit, hs = blockIdx.y % a.hsplit;
    const int32_t c = a.cbase + a.c0 + (int32_t)blockIdx.x;
    const int32_t last = a.pos[r];
    const int32_t first = a.window > 0 && last >= a.window ? last - a.window + 1 : 0;
    const int32_t t0 = c * KRN_ATTN_CHUNK > first ? c * KRN_ATTN_CHUNK : first;
    const int32_t t1 = c * KRN_ATTN_CHUNK + KRN_ATTN_CHUNK - 1 < last
                           ? c * KRN_ATTN_CHUNK + KRN_ATTN_CHUNK - 1 : last;
    if (t1 < t0) return; // not this row's chunk; block-uniform: before any barrier
    const int n = t1 - t0 + 1;
    const int hd = a.hd;
    const bool vec = hd % 4 == 0;
    const int ks = vec ? hd + 4 : hd + 1;
    const int h0 = kvh * a.group + hs * a.hpc;
    const int nh = a.group - hs * a.hpc < a.hpc ? a.group - hs * a.hpc : a.hpc;
    if (nh <= 0) return;
    const int64_t q_dim = (int64_t)a.n_head * hd, kv_dim = (int64_t)a.n_head_kv * hd;
    float *kv = sm, *qs = sm + KRN_ATTN_CHUNK * (hd + 4), *p = qs + a.hpc * hd,
          *st = p + a.hpc * KRN_ATTN_CHUNK;
    for (int e = tid; e < nh * hd; e += blockDim.x)
        qs[e] = a.q[r * q_dim + (int64_t)h0 * hd + e];
    krn_cuda__stage_f16(kv, ks, a.k + (int64_t)kvh * hd, kv_dim, t0, a.kv_slots, n, hd);
    const float scale = fdiv(1.0f, __fsqrt_rn(int_to_float(hd)));
    __syncthreads();
    for (int task = tid; task < nh * KRN_ATTN_CHUNK; task += blockDim.x) {
        const int i = task / KRN_ATTN_CHUNK, s = task % KRN_ATTN_CHUNK;
        if (s >= n) continue;
        const float *qi = qs + i * hd, *ki = kv + s * ks;
        float lane[32];
#pragma unroll
        for (int l = 0; l < 32; l++) lane[l] = 0.0f;
        if (vec) {
            for (int d0 = 0; d0 < hd; d0 += 32) {
#pragma unroll
                for (int c4 = 0; c4 < 8; c4++) {
                    if (d0 + 4 * c4 >= hd) break; // hd % 4 == 0: whole float4s
                    const float4 qv = *(const float4 *)(qi + d0 + 4 * c4);
                    const float4 kv4 = *(const float4 *)(ki + d0 + 4 * c4);
                    lane[4 * c4] = fadd(lane[4 * c4], fmul(qv.x, kv4.x));
                    lane[4 * c4 + 1] = fadd(lane[4 * c4 + 1], fmul(qv.y, kv4.y));
                    lane[4 * c4 + 2] = fadd(lane[4 * c4 + 2], fmul(qv.z, kv4.z));
                    lane[4 * c4 + 3] = fadd(lane[4 * c4 + 3], fmul(qv.w, kv4.w));
                }
            }
        } else {
            for (int d0 = 0; d0 < hd; d0 += 32) {
#pragma unroll
                for (int l = 0; l < 32; l++)
                    if (d0 + l < hd) lane[l] = fadd(lane[l], fmul(qi[d0 + l], ki[d0 + l]));
            }
        }
        // off = 16, 8, 4, 2, 1: lane[l] = lane[l] + lane[l + off], l < off
#pragma unroll
        for (int l = 0; l < 16; l++) lane[l] = fadd(lane[l], lane[l + 16]);
#pragma unroll
        for (int l = 0; l < 8; l++) lane[l] = fadd(lane[l], lane[l + 8]);
#pragma unroll
        for (int l = 0; l < 4; l++) lane[l] = fadd(lane[l], lane[l + 4]);
#pragma unroll
        for (int l = 0; l < 2; l++) lane[l] = fadd(lane[l], lane[l + 2]);
        lane[0] = fadd(lane[0], lane[1]);
        p[i * KRN_ATTN_CHUNK + s] = fmul(lane[0], scale);
    }
    __syncthreads(); // scores done: kv may take the values, qs the outputs
    krn_cuda__stage_f16(kv, ks, a.v + (int64_t)kvh * hd, kv_dim, t0, a.kv_slots, n, hd);
    if (tid < nh) {
        const float *pi = p + tid * KRN_ATTN_CHUNK;
        float m = pi[0];
        for (int s = 1; s < n; s++)
            if (pi[s] > m) m = pi[s];
        st[2 * tid] = m;
    }
    __syncthreads();
    for (int task = tid; task < nh * KRN_ATTN_CHUNK; task += blockDim.x) {
        const int i = task / KRN_ATTN_CHUNK, s = task % KRN_ATTN_CHUNK;
        if (s < n) p[task] = krn_cuda_exp(fsub(p[task], st[2 * i]));
    }
    __syncthreads();
    if (tid < nh) {
        const float *pi = p + tid * KRN_ATTN_CHUNK;
        float l = 0.0f;
        for (int s = 0; s < n; s++) l = fadd(l, pi[s]);
        st[2 * tid + 1] = l;
    }
    __syncthreads();
    // acc[i][d] for every task; the result goes to ob (q's space: q is no
    // longer read) when final_, else to the chunk state.
    float *ob = qs;
    auto put = [&](int i, int d, float acc) {
        if (a.final_) {
            ob[i * hd + d] = fdiv(acc, st[2 * i + 1]);
        } else {
            float *ps = a.part +
                        ((int64_t)(r * a.n_head + h0 + i) * a.nbatch + blockIdx.x) * (hd + 2);
            ps[2 + d] = acc;
            if (d == 0) {
                ps[0] = st[2 * i];
                ps[1] = st[2 * i + 1];
            }
        }
    };
    if (vec) {
        const int hd4 = hd / 4, ntask = nh * hd4;
        for (int base = 0; base < ntask; base += 2 * (int)blockDim.x) {
            float acc[2][4];
            int ti[2], td[2];
#pragma unroll
            for (int k = 0; k < 2; k++) {
                const int task = base + tid + k * (int)blockDim.x;
                ti[k] = task < ntask ? task / hd4 : -1;
                td[k] = task < ntask ? 4 * (task - ti[k] * hd4) : 0;
#pragma unroll
                for (int e = 0; e < 4; e++) acc[k][e] = 0.0f;
            }
            for (int s = 0; s < n; s++) {
                const float *vs = kv + s * ks;
#pragma unroll
                for (int k = 0; k < 2; k++) {
                    if (ti[k] < 0) continue;
                    const float ps = p[ti[k] * KRN_ATTN_CHUNK + s];
                    const float4 v4 = *(const float4 *)(vs + td[k]);
                    acc[k][0] = fadd(acc[k][0], fmul(ps, v4.x));
                    acc[k][1] = fadd(acc[k][1], fmul(ps, v4.y));
                    acc[k][2] = fadd(acc[k][2], fmul(ps, v4.z));
                    acc[k][3] = fadd(acc[k][3], fmul(ps, v4.w));
                }
            }
#pragma unroll
            for (int k = 0; k < 2; k++) {
                if (ti[k] < 0) continue;
#pragma unroll
                for (int e = 0; e < 4; e++) put(ti[k], td[k] + e, acc[k][e]);
            }
        }
    } else {
        // up to 8 (head, d) tasks per thread at once (tid, tid + blockDim, ...)
        constexpr int ACC_ILP = 8;
        for (int base = 0; base < nh * hd; base += ACC_ILP * (int)blockDim.x) {
            float acc[ACC_ILP];
            int ti[ACC_ILP], td[ACC_ILP];
#pragma unroll
            for (int k = 0; k < ACC_ILP; k++) {
                const int task = base + tid + k * (int)blockDim.x;
                ti[k] = task < nh * hd ? task / hd : -1;
                td[k] = task < nh * hd ? task - ti[k] * hd : 0;
                acc[k] = 0.0f;
            }
            for (int s = 0; s < n; s++) {
                const float *vs = kv + s * ks;
#pragma unroll
                for (int k = 0; k < ACC_ILP; k++)
                    if (ti[k] >= 0)
                        acc[k] = fadd(acc[k], fmul(p[ti[k] * KRN_ATTN_CHUNK + s], vs[td[k]]));
            }
#pragma unroll
            for (int k = 0; k < ACC_ILP; k++)
                if (ti[k] >= 0) put(ti[k], td[k], acc[k]);
        }
    }
    if (a.final_) {
        __syncthreads(); // ob is complete
        // Element e of the block's heads.
        for (int e = tid; e < nh * hd; e += blockDim.x) {
            const float o = ob[e];
            const int64_t col = (int64_t)h0 * hd + e;
            a.out[r * q_dim + col] = o;
        }
    }
}

struct krn_cuda__merge_p {
    const int32_t *pos;
    const float *part;
    float *run, *out;
    int32_t n_head, hd, c0, nbatch;
    int32_t window, cbase;      // as krn_cuda__chunk_p's
};

// Grid (n_head, n_rows), threads >= hd, dynamic shared memory 4 floats per
// chunk of the batch. Relative chunks c0 .. c0 + nbatch - 1 of the row (its
// own run from its first chunk to its last), merged in order; the running
// state starts at the row's first chunk's (m, l, acc) or is carried in
// `run` from the previous batch, and the row's last batch writes
// out[d] = ACC[d] / L. The merge's operations are exactly step 3's, grouped
// by what depends on what:
//   M_c = M_{c-1} > m_c ? M_{c-1} : m_c    one thread, in order (cheap)
//   a_c = exp(M_{c-1} - M_c), b_c = exp(m_c - M_c)    one thread per chunk
//   L_c = L_{c-1} * a_c + l_c * b_c        every thread, in order (the same
//                                          bits in each)
//   ACC_c[d] = ACC_{c-1}[d] * a_c + acc_c[d] * b_c    thread d, in order
__global__ void krn_cuda_attn_merge_kernel(const krn_cuda__merge_p a) {
    grid_dep_sync(); // common.cuh: before any global access
    extern __shared__ float msm[];
    const int h = blockIdx.x, r = blockIdx.y, d = threadIdx.x;
    const int32_t last = a.pos[r];
    const int32_t first = a.window > 0 && last >= a.window ? last - a.window + 1 : 0;
    const int32_t nc = last / KRN_ATTN_CHUNK - a.cbase + 1; // relative end of the row
    const int32_t rf = first / KRN_ATTN_CHUNK - a.cbase;   // its first chunk
    if (a.c0 >= nc) return; // finished in an earlier batch (block-uniform)
    if (rf >= a.c0 + a.nbatch) return; // starts in a later batch
    const int hd = a.hd;
    const int64_t rh = (int64_t)r * a.n_head + h;
    const float *base = a.part + rh * a.nbatch * (hd + 2);
    float *run = a.run + rh * (hd + 2);
    const int32_t c1 = a.c0 + a.nbatch < nc ? a.c0 + a.nbatch : nc;
    const int nk = c1 - a.c0; // chunk states of this row in this batch
    float *mb = msm, *lb = msm + a.nbatch, *ea = msm + 2 * a.nbatch, *eb = msm + 3 * a.nbatch;
    for (int k = d; k < nk; k += blockDim.x) {
        mb[k] = base[(int64_t)k * (hd + 2)];
        lb[k] = base[(int64_t)k * (hd + 2) + 1];
    }
    float M0, L, ACC = 0.0f;
    int k0; // first chunk state to merge into the running state
    if (rf >= a.c0) { // the row starts in this batch, at its state i0
        const int i0 = rf - a.c0;
        M0 = base[(int64_t)i0 * (hd + 2)];
        L = base[(int64_t)i0 * (hd + 2) + 1];
        if (d < hd) ACC = base[(int64_t)i0 * (hd + 2) + 2 + d];
        k0 = i0 + 1;
    } else {
        M0 = run[0];
        L = run[1];
        if (d < hd) ACC = run[2 + d];
        k0 = 0;
    }
    __syncthreads(); // mb, lb staged; every thread has read run[0], run[1]
    if (d == 0) { // M_c in order; ea[k] = M_{c-1} for now, eb[k] = M_c
        float M = M0;
        for (int k = k0; k < nk; k++) {
            const float mm = M > mb[k] ? M : mb[k];
            ea[k] = M;
            eb[k] = mm;
            M = mm;
        }
    }
    __syncthreads();
    for (int k = k0 + d; k < nk; k += blockDim.x) {
        const float mprev = ea[k], mm = eb[k];
        ea[k] = krn_cuda_exp(fsub(mprev, mm));
        eb[k] = krn_cuda_exp(fsub(mb[k], mm));
    }
    __syncthreads();
    // acc_c[d] loads run 8 chunks ahead of the chain that consumes them.
    auto acc_at = [&](int k) {
        return k < nk && d < hd ? base[(int64_t)k * (hd + 2) + 2 + d] : 0.0f;
    };
    float next[8];
#pragma unroll
    for (int i = 0; i < 8; i++) next[i] = acc_at(k0 + i);
    for (int k = k0; k < nk; k += 8) {
        float cur[8];
#pragma unroll
        for (int i = 0; i < 8; i++) {
            cur[i] = next[i];
            next[i] = acc_at(k + 8 + i);
        }
#pragma unroll
        for (int i = 0; i < 8; i++) {
            if (k + i >= nk) break;
            L = fadd(fmul(L, ea[k + i]), fmul(lb[k + i], eb[k + i]));
            ACC = fadd(fmul(ACC, ea[k + i]), fmul(cur[i], eb[k + i]));
        }
    }
    if (c1 == nc) {
        const float o = fdiv(ACC, L);
        if (d < hd) a.out[r * (int64_t)a.n_head * hd + (int64_t)h * hd + d] = o;
    } else {
        if (d < hd) run[2 + d] = ACC;
        if (d == 0) {
            // the running maximum after the batch's last chunk
            float M = M0;
            for (int k = k0; k < nk; k++) M = M > mb[k] ? M : mb[k];
            run[0] = M;
            run[1] = L;
        }
    }
}

// ==== rows: a tile of rows per block ===============================================

// krn_cuda_attn_rows_kernel (chosen as the file header says) computes exactly the chunk
// states (or, for one-chunk steps, the outputs) of krn_cuda_attn_chunk_kernel,
// and the same merge kernel folds them; but one block takes a chunk of one KV
// head for a tile of rows and every query head of the group, so the chunk's
// keys and values are staged once for tile * group (row, head) pairs instead
// of once per row, and each warp keeps scores and sums of 4 pairs in
// registers so that one key or value load feeds several pairs.

enum {
    KRN_CUDA__ROWS_PAIRS = 4,        // (row, head) pairs per warp
    KRN_CUDA__ROWS_WARPS = 8,        // per block at most: 32 pairs
    KRN_CUDA__ROWS_SMEM = 48 * 1024, // bytes a block may take: no opt-in, and
                                     // two blocks fit an SM of every arch built
    KRN_CUDA__ROWS_MIN_ROWS = 4,     // auto: fewer rows go to split-KV
};

// The scores (or p) of a warp's pairs at its lane's two slots.
typedef float krn_cuda__tile[KRN_CUDA__ROWS_PAIRS][2];

struct krn_cuda__rows_p {
    const float *q;
    const uint16_t *k, *v;      // the layer's slabs
    const int32_t *pos;
    float *out;                 // used when final_
    float *part;                // chunk states, laid out as the split-KV kernel's
    int32_t n_head, n_head_kv;
    int32_t group;              // query heads per KV head
    int32_t tile, n_rows;       // rows per block; rows of the step
    int32_t window, kv_slots;   // the model's window (0: none); the ring
    int32_t cbase, c0, nbatch;  // as krn_cuda__chunk_p's
    int final_;                 // as krn_cuda__chunk_p's
};

// Pairs of a block of `tile` rows: whole warps of KRN_CUDA__ROWS_PAIRS.
static int32_t krn_cuda__rows_pairs(int32_t tile, int32_t group) {
    return (tile * group + KRN_CUDA__ROWS_PAIRS - 1) / KRN_CUDA__ROWS_PAIRS *
           KRN_CUDA__ROWS_PAIRS;
}

// Bytes of shared memory of a rows block: the chunk's keys, later its
// values (64 rows of hd + 4 floats); per pair hd floats (its q, later its
// scores and p, later its outputs) and (m, l); per row its slot range.
static size_t krn_cuda__rows_smem(int32_t hd, int32_t tile, int32_t group) {
    const size_t pairs = (size_t)krn_cuda__rows_pairs(tile, group);
    return ((size_t)KRN_ATTN_CHUNK * (size_t)(hd + 4) + pairs * (size_t)hd + 2 * pairs) *
               sizeof(float) + 2 * (size_t)tile * sizeof(int);
}

// Keys and q sit in shared memory lane-major: the J = hd / 32 elements
// d = l, l + 32, ..., l + 32 (J - 1) of lane l (one lane partial of the lane
// sum) are J consecutive floats at J * krn_cuda__rows_lane(l), so one J-wide
// load feeds a whole lane partial. The xor, a bijection of 0..31, only
// spreads the staging stores over more banks: it moves values, never
// changes one.
static __device__ __forceinline__ int krn_cuda__rows_lane(int l) {
    return l ^ ((l >> 3) & 3);
}

// Where element d of a lane-major row sits.
template <int J>
static __device__ __forceinline__ int krn_cuda__rows_at(int d) {
    return J * krn_cuda__rows_lane(d & 31) + (d >> 5);
}

// x = the J floats at p (aligned to J floats).
template <int J>
static __device__ __forceinline__ void krn_cuda__rows_ld(const float *p, float (&x)[J]) {
    if constexpr (J == 4) {
        const float4 v = *(const float4 *)p;
        x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
    } else {
        static_assert(J == 2, "the rows kernel takes head_dim 64 or 128");
        const float2 v = *(const float2 *)p;
        x[0] = v.x, x[1] = v.y;
    }
}

// The slot range lo..hi (x..y, relative to the chunk's first position; x > y:
// none) of block pair i: its row's, none for the pairs past the tile's.
static __device__ __forceinline__ int2 krn_cuda__rows_range(const int *rr, int i,
                                                            int npairs, int group) {
    if (i >= npairs) return make_int2(0, -1);
    const int t = i / group;
    return make_int2(rr[2 * t], rr[2 * t + 1]);
}

// rg[k] without indexing a register array by a run-time value.
static __device__ __forceinline__ int2 krn_cuda__rows_pick(const int2 (&rg)[KRN_CUDA__ROWS_PAIRS],
                                                           int k) {
    int2 r = rg[0];
#pragma unroll
    for (int i = 1; i < KRN_CUDA__ROWS_PAIRS; i++)
        if (k == i) r = rg[i];
    return r;
}

// q of the block's pairs, lane-major, hd floats each; zeros for the pairs
// past the tile or past the step's rows. A warp takes whole pairs (its row
// and head found once a pair, not once an element) and reads each pair's
// hd floats with coalesced loads, all J of a lane in flight together.
template <int J>
static __device__ __forceinline__ void krn_cuda__rows_stage_q(float *qp, const krn_cuda__rows_p &a,
                                                              int npp, int r0, int kvh) {
    constexpr int HD = 32 * J;
    const int npairs = a.tile * a.group, lane = (int)threadIdx.x & 31;
    const int64_t q_dim = (int64_t)a.n_head * HD;
    for (int i = (int)threadIdx.x >> 5; i < npp; i += (int)blockDim.x >> 5) { // warp-uniform
        const int r = r0 + i / a.group, h = kvh * a.group + i % a.group;
        const bool live = i < npairs && r < a.n_rows;
        const float *src = a.q + (live ? r * q_dim + (int64_t)h * HD : 0);
        float x[J];
#pragma unroll
        for (int k = 0; k < J; k++) x[k] = live ? src[lane + 32 * k] : 0.0f;
#pragma unroll
        for (int k = 0; k < J; k++) qp[i * HD + krn_cuda__rows_at<J>(lane + 32 * k)] = x[k];
    }
}

// dst[s] (lane-major, hd + J floats a row) = the key of position cs + s, in
// ring slot (cs + s) % slots of src (row stride `stride` halves), widened
// exactly, for s in lo..hi; zeros for the chunk's other slots (their scores
// are computed and never used). Each thread loads up to 4 aligned 8-half
// vectors before converting any, so their latencies overlap.
template <int J>
static __device__ __forceinline__ void krn_cuda__rows_stage_k(float *dst, const uint16_t *src,
                                                              int64_t stride, int32_t cs,
                                                              int32_t slots, int lo, int hi) {
    constexpr int HD8 = 4 * J, KS = 33 * J, TOTAL = KRN_ATTN_CHUNK * HD8;
    const int32_t b = cs % slots;
    for (int base = 0; base < TOTAL; base += 4 * (int)blockDim.x) {
        uint4 v[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int u = base + k * (int)blockDim.x + (int)threadIdx.x, s = u / HD8;
            v[k] = make_uint4(0u, 0u, 0u, 0u);
            if (u < TOTAL && s >= lo && s <= hi)
                v[k] = *(const uint4 *)(src + krn_cuda__ring_slot(b, s, slots) * stride +
                                        8 * (u % HD8));
        }
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int u = base + k * (int)blockDim.x + (int)threadIdx.x;
            if (u >= TOTAL) continue;
            float *row = dst + (u / HD8) * KS;
            const int d0 = 8 * (u % HD8);
            const uint32_t wv[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
            for (int i = 0; i < 8; i++)
                row[krn_cuda__rows_at<J>(d0 + i)] =
                    half_to_float_fast((wv[i / 2] >> (16 * (i & 1))) & 0xFFFFu);
        }
    }
}

// x = x + y for every score of the tile: one add of the fold, the lower
// lanes' subtree on the left, as the fold's lane[l] + lane[l + off].
static __device__ __forceinline__ void krn_cuda__rows_add(krn_cuda__tile &x,
                                                          const krn_cuda__tile &y) {
#pragma unroll
    for (int i = 0; i < KRN_CUDA__ROWS_PAIRS; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) x[i][j] = fadd(x[i][j], y[i][j]);
}

// x = lane l's partials of the warp's pairs (q areas qb + i * hd) against
// its two slots (key rows k0, k1): 0.0f, then + q_d * k_d for d = l, l + 32,
// ... in order — the lane sum's lane[l].
template <int J>
static __device__ __forceinline__ void krn_cuda__rows_leaf(const float *qb, const float *k0,
                                                           const float *k1, int l,
                                                           krn_cuda__tile &x) {
    const int o = J * krn_cuda__rows_lane(l);
    float kv[2][J], qv[J];
    krn_cuda__rows_ld<J>(k0 + o, kv[0]);
    krn_cuda__rows_ld<J>(k1 + o, kv[1]);
#pragma unroll
    for (int i = 0; i < KRN_CUDA__ROWS_PAIRS; i++) {
        krn_cuda__rows_ld<J>(qb + i * 32 * J + o, qv);
#pragma unroll
        for (int j = 0; j < 2; j++) {
            float s = 0.0f;
#pragma unroll
            for (int e = 0; e < J; e++) s = fadd(s, fmul(qv[e], kv[j][e]));
            x[i][j] = s;
        }
    }
}

// c = the fold's value of lane `base` (base < 4) after its off = 16, 8, 4
// stages, evaluated depth first over the 8 lanes it gathers: with lane[i]
// written p_i,
//   a[b] = p_b + p_{b+16}, a[b+8], b[b] = a[b] + a[b+8],
//   a[b+4], a[b+12], b[b+4] = a[b+4] + a[b+12], c[b] = b[b] + b[b+4]
// — the same additions of the same operands as the breadth-first fold, so
// the same bits, with 3 partial tiles live instead of 32 lanes.
template <int J>
static __device__ __forceinline__ void krn_cuda__rows_group(const float *qb, const float *k0,
                                                            const float *k1, int base,
                                                            krn_cuda__tile &c) {
    krn_cuda__tile x, y, t;
    krn_cuda__rows_leaf<J>(qb, k0, k1, base, c);
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 16, y);
    krn_cuda__rows_add(c, y);                          // a[base]
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 8, t);
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 24, y);
    krn_cuda__rows_add(t, y);                          // a[base + 8]
    krn_cuda__rows_add(c, t);                          // b[base]
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 4, t);
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 20, y);
    krn_cuda__rows_add(t, y);                          // a[base + 4]
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 12, x);
    krn_cuda__rows_leaf<J>(qb, k0, k1, base + 28, y);
    krn_cuda__rows_add(x, y);                          // a[base + 12]
    krn_cuda__rows_add(t, x);                          // b[base + 4]
    krn_cuda__rows_add(c, t);                          // c[base]
}

// sc = the scores of the warp's pairs (q areas qb) at slots lane and
// lane + 32 (keys kv): lane sum times scale. The groups run c[0], c[2],
// c[1], c[3], and the fold's last stages are d[0] = c[0] + c[2],
// d[1] = c[1] + c[3], sum = d[0] + d[1].
template <int J>
static __device__ void krn_cuda__rows_scores(const float *qb, const float *kv, int lane,
                                             float scale, krn_cuda__tile &sc) {
    constexpr int KS = 33 * J;
    const float *k0 = kv + lane * KS, *k1 = k0 + 32 * KS;
    krn_cuda__tile cp, d0;
#pragma unroll 1
    for (int g = 0; g < 4; g++) {
        krn_cuda__tile cg;
        krn_cuda__rows_group<J>(qb, k0, k1, ((g & 1) << 1) | (g >> 1), cg);
#pragma unroll
        for (int i = 0; i < KRN_CUDA__ROWS_PAIRS; i++)
#pragma unroll
            for (int j = 0; j < 2; j++) {
                if (!(g & 1)) {
                    cp[i][j] = cg[i][j];                         // c[0], then c[1]
                } else if (g == 1) {
                    d0[i][j] = fadd(cp[i][j], cg[i][j]);         // d[0]
                } else {
                    const float d1 = fadd(cp[i][j], cg[i][j]);   // d[1]
                    sc[i][j] = fmul(fadd(d0[i][j], d1), scale);
                }
            }
    }
}

// m, p and l of the warp's pairs (slot ranges rg) from their scores sc
// (slots lane and lane + 32). The scores go to the pairs' areas pb (q is no
// longer read); lane i scans pair i's range in slot order for m (the first
// score, replaced by each strictly greater one); each lane turns its
// in-range scores into p = exp(score - m); lane i adds pair i's p in slot
// order from 0.0f for l and stores (m, l) at st[2i], st[2i + 1].
template <int J>
static __device__ void krn_cuda__rows_softmax(float *pb, float *st,
                                              const int2 (&rg)[KRN_CUDA__ROWS_PAIRS], int lane,
                                              const krn_cuda__tile &sc) {
    constexpr int HD = 32 * J;
    __syncwarp(); // every lane has read the pairs' q
#pragma unroll
    for (int i = 0; i < KRN_CUDA__ROWS_PAIRS; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) pb[i * HD + lane + 32 * j] = sc[i][j];
    __syncwarp();
    const int2 my = lane < KRN_CUDA__ROWS_PAIRS ? krn_cuda__rows_pick(rg, lane)
                                                : make_int2(0, -1);
    const float *pi = pb + (lane % KRN_CUDA__ROWS_PAIRS) * HD;
    float m = 0.0f;
    if (my.x <= my.y) {
        m = pi[my.x];
#pragma unroll 8 // the loads of 8 slots in flight at once; the scan as written
        for (int s = my.x + 1; s <= my.y; s++)
            if (pi[s] > m) m = pi[s];
    }
    __syncwarp(); // the scans are done before p replaces the scores
#pragma unroll
    for (int i = 0; i < KRN_CUDA__ROWS_PAIRS; i++) {
        const float mi = __shfl_sync(0xffffffffu, m, i);
#pragma unroll
        for (int j = 0; j < 2; j++) {
            const int s = lane + 32 * j;
            if (s >= rg[i].x && s <= rg[i].y) pb[i * HD + s] = krn_cuda_exp(fsub(sc[i][j], mi));
        }
    }
    __syncwarp();
    if (my.x <= my.y) {
        float l = 0.0f;
#pragma unroll 8
        for (int s = my.x; s <= my.y; s++) l = fadd(l, pi[s]);
        st[2 * lane] = m;
        st[2 * lane + 1] = l;
    }
}

// acc[e][0..3] = Σ p_s * v_s[d] for d = 4 col .. 4 col + 3, in slot order
// from 0.0f, of the J pairs whose p areas start at pb (hd floats apart) and
// whose ranges are rg (values kv, rows of hd + 4 floats). When every pair
// with a range spans the whole chunk, p comes 4 slots at a time (a float4
// per pair); otherwise slot by slot, each pair adding only within its range.
// (A pair without a range computes nothing that is kept.)
template <int J>
static __device__ void krn_cuda__rows_acc(const float *pb, const float *kv, const int2 (&rg)[J],
                                          int col, float (&acc)[J][4]) {
    constexpr int HD = 32 * J, KS = HD + 4;
    int lo = KRN_ATTN_CHUNK, hi = -1;
    bool full = true;
#pragma unroll
    for (int e = 0; e < J; e++) {
#pragma unroll
        for (int u = 0; u < 4; u++) acc[e][u] = 0.0f;
        if (rg[e].x > rg[e].y) continue;
        lo = rg[e].x < lo ? rg[e].x : lo;
        hi = rg[e].y > hi ? rg[e].y : hi;
        full = full && rg[e].x == 0 && rg[e].y == KRN_ATTN_CHUNK - 1;
    }
    if (hi < lo) return;
    const float *vc = kv + 4 * col;
    if (full) {
#pragma unroll 2
        for (int s = 0; s < KRN_ATTN_CHUNK; s += 4) {
            float p[J][4];
#pragma unroll
            for (int e = 0; e < J; e++) {
                const float4 p4 = *(const float4 *)(pb + e * HD + s);
                p[e][0] = p4.x, p[e][1] = p4.y, p[e][2] = p4.z, p[e][3] = p4.w;
            }
#pragma unroll
            for (int u = 0; u < 4; u++) {
                const float4 v = *(const float4 *)(vc + (s + u) * KS);
#pragma unroll
                for (int e = 0; e < J; e++) {
                    acc[e][0] = fadd(acc[e][0], fmul(p[e][u], v.x));
                    acc[e][1] = fadd(acc[e][1], fmul(p[e][u], v.y));
                    acc[e][2] = fadd(acc[e][2], fmul(p[e][u], v.z));
                    acc[e][3] = fadd(acc[e][3], fmul(p[e][u], v.w));
                }
            }
        }
        return;
    }
    for (int s = lo; s <= hi; s++) {
        const float4 v = *(const float4 *)(vc + s * KS);
#pragma unroll
        for (int e = 0; e < J; e++) {
            if (s < rg[e].x || s > rg[e].y) continue;
            const float p = pb[e * HD + s];
            acc[e][0] = fadd(acc[e][0], fmul(p, v.x));
            acc[e][1] = fadd(acc[e][1], fmul(p, v.y));
            acc[e][2] = fadd(acc[e][2], fmul(p, v.z));
            acc[e][3] = fadd(acc[e][3], fmul(p, v.w));
        }
    }
}

// The warp's acc phase and results. Lane = (k0 / J) * 8J + col takes the
// pairs k0 .. k0 + J - 1 of the warp at d = 4 col .. 4 col + 3 (hd 128: all
// 4 pairs, 32 columns; hd 64: 2 pairs, 16 columns). The chunk state
// (m, l, acc) goes to part, or when final_ out = acc / l (through the pair
// areas, then 32 consecutive elements per warp store).
template <int J>
static __device__ void krn_cuda__rows_finish(const krn_cuda__rows_p &a, float *pb, const float *kv,
                                             const float *st,
                                             const int2 (&rg)[KRN_CUDA__ROWS_PAIRS], int lane,
                                             int r0, int i0, int kvh) {
    constexpr int HD = 32 * J, COLS = 8 * J;
    const int col = lane % COLS, k0 = lane / COLS * J;
    int2 my[J];
#pragma unroll
    for (int e = 0; e < J; e++) my[e] = krn_cuda__rows_pick(rg, k0 + e);
    float acc[J][4];
    krn_cuda__rows_acc<J>(pb + k0 * HD, kv, my, col, acc);
    if (!a.final_) {
#pragma unroll
        for (int e = 0; e < J; e++) {
            if (my[e].x > my[e].y) continue;
            const int i = i0 + k0 + e;
            const int r = r0 + i / a.group, h = kvh * a.group + i % a.group;
            float *ps = a.part +
                        (((int64_t)r * a.n_head + h) * a.nbatch + blockIdx.x) * (HD + 2);
#pragma unroll
            for (int u = 0; u < 4; u++) ps[2 + 4 * col + u] = acc[e][u];
            if (col == 0) {
                ps[0] = st[2 * (k0 + e)];
                ps[1] = st[2 * (k0 + e) + 1];
            }
        }
        return;
    }
    __syncwarp(); // every lane has read p: the areas take the outputs
#pragma unroll
    for (int e = 0; e < J; e++) {
        if (my[e].x > my[e].y) continue;
#pragma unroll
        for (int u = 0; u < 4; u++)
            pb[(k0 + e) * HD + 4 * col + u] = fdiv(acc[e][u], st[2 * (k0 + e) + 1]);
    }
    __syncwarp();
    const int64_t q_dim = (int64_t)a.n_head * HD;
#pragma unroll
    for (int k = 0; k < KRN_CUDA__ROWS_PAIRS; k++) {
        if (rg[k].x > rg[k].y) continue; // warp-uniform: the shuffles below see 32 lanes
        const int i = i0 + k;
        const int r = r0 + i / a.group, h = kvh * a.group + i % a.group;
#pragma unroll
        for (int b = 0; b < J; b++) {
            const float o = pb[k * HD + 32 * b + lane];
            const int64_t c = (int64_t)h * HD + 32 * b + lane;
            a.out[r * q_dim + c] = o;
        }
    }
}

// Grid (nbatch, n_head_kv, row tiles), 32 threads per 4 pairs (at most 8
// warps); hd = 32 J (64 or 128). Block (x, y, z) takes chunk
// c = cbase + c0 + x of KV head y for rows z*tile .. z*tile + tile - 1 and
// the group's query heads: pair i = (row i / group, head i % group), warp w
// pairs 4w .. 4w + 3. Row t sees the chunk's positions max(64c, first_t) ..
// min(64c + 63, pos[t]) (first_t = pos[t] - window + 1 or 0), slots lo_t ..
// hi_t relative to 64c; a row without any does nothing, a block without any
// returns at once. Shared memory (krn_cuda__rows_smem): the chunk's keys
// widened, lane-major, over the union of the rows' slots (zeros elsewhere),
// later its values (rows of hd + 4 floats); per pair its q, later its scores
// and p, later its outputs; (m, l); the rows' ranges. Per pair, the
// contract's sequence, each operation rounded as written:
//   Scores: every lane computes 4 pairs x 2 slots (lane, lane + 32): for
//   each score the lane partials (lane l: q_d * k_d added in order d = l,
//   l + 32, ... from 0.0f) folded by exactly the fold's additions
//   (krn_cuda__rows_group, evaluated depth first), times scale.
//   m: lane i scans pair i's slots in order, keeping the first score and
//   replacing it by each strictly greater one.
//   p_t = exp(score_t - m) for the pair's slots, l: lane i, slot order from
//   0.0f.
//   acc[d]: slot order from 0.0f, one chain per (pair, d); a thread runs
//   the chains of 4 consecutive d for J pairs, loading each value float4
//   once for the J of them.
// The warp needs no other warp's results: only the staging is block-wide.
// Blocks an SM should hold at once: three where its shared memory takes
// three blocks of KRN_CUDA__ROWS_SMEM (sm_80, sm_87, sm_90: 164 KB or more),
// which caps the registers at 80 a thread; two on sm_86 and sm_89 (100 KB),
// where a third block would not fit anyway.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
#define KRN_CUDA__ROWS_MIN_BLOCKS 2
#else
#define KRN_CUDA__ROWS_MIN_BLOCKS 3
#endif
template <int J>
__global__ void __launch_bounds__(32 * KRN_CUDA__ROWS_WARPS, KRN_CUDA__ROWS_MIN_BLOCKS)
krn_cuda_attn_rows_kernel(const krn_cuda__rows_p a) {
    grid_dep_sync(); // common.cuh: before any global access
    constexpr int HD = 32 * J;
    extern __shared__ __align__(16) float sm[];
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int npp = (int)blockDim.x / 32 * KRN_CUDA__ROWS_PAIRS;
    const int npairs = a.tile * a.group;
    float *kv = sm, *qp = kv + KRN_ATTN_CHUNK * (HD + 4), *st = qp + npp * HD;
    int *rr = (int *)(st + 2 * npp);
    const int kvh = blockIdx.y, r0 = blockIdx.z * a.tile;
    const int32_t cs = (a.cbase + a.c0 + (int32_t)blockIdx.x) * KRN_ATTN_CHUNK;
    for (int t = tid; t < a.tile; t += blockDim.x) {
        int lo = 0, hi = -1;
        if (r0 + t < a.n_rows) {
            const int32_t last = a.pos[r0 + t];
            const int32_t first = a.window > 0 && last >= a.window ? last - a.window + 1 : 0;
            const int32_t t0 = cs > first ? cs : first;
            const int32_t t1 = cs + KRN_ATTN_CHUNK - 1 < last ? cs + KRN_ATTN_CHUNK - 1 : last;
            if (t1 >= t0) lo = t0 - cs, hi = t1 - cs;
        }
        rr[2 * t] = lo;
        rr[2 * t + 1] = hi;
    }
    __syncthreads();
    int lo = KRN_ATTN_CHUNK, hi = -1; // the union of the rows' slots
    for (int t = 0; t < a.tile; t++) {
        if (rr[2 * t] > rr[2 * t + 1]) continue;
        lo = rr[2 * t] < lo ? rr[2 * t] : lo;
        hi = rr[2 * t + 1] > hi ? rr[2 * t + 1] : hi;
    }
    if (hi < lo) return; // no row has this chunk; block-uniform: before any barrier
    const int64_t kv_dim = (int64_t)a.n_head_kv * HD;
    krn_cuda__rows_stage_q<J>(qp, a, npp, r0, kvh);
    krn_cuda__rows_stage_k<J>(kv, a.k + (int64_t)kvh * HD, kv_dim, cs, a.kv_slots, lo, hi);
    const float scale = fdiv(1.0f, __fsqrt_rn(int_to_float(HD)));
    const int i0 = w * KRN_CUDA__ROWS_PAIRS;
    int2 rg[KRN_CUDA__ROWS_PAIRS];
    bool any = false; // warp-uniform
#pragma unroll
    for (int k = 0; k < KRN_CUDA__ROWS_PAIRS; k++) {
        rg[k] = krn_cuda__rows_range(rr, i0 + k, npairs, a.group);
        any = any || rg[k].x <= rg[k].y;
    }
    float *pb = qp + i0 * HD, *sw = st + 2 * i0;
    __syncthreads();
    if (any) {
        krn_cuda__tile sc;
        krn_cuda__rows_scores<J>(pb, kv, lane, scale, sc);
        krn_cuda__rows_softmax<J>(pb, sw, rg, lane, sc);
    }
    __syncthreads(); // every key read: kv takes the values
    krn_cuda__stage_f16(kv + lo * (HD + 4), HD + 4, a.v + (int64_t)kvh * HD, kv_dim, cs + lo,
                        a.kv_slots, hi - lo + 1, HD);
    __syncthreads();
    if (any) krn_cuda__rows_finish<J>(a, pb, kv, sw, rg, lane, r0, i0, kvh);
}

// ==== ref: the first kernel =======================================================

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

// ==== launchers ==================================================================

// Set by krn_cuda_attention_setup (for the backend's one device).
static int krn_cuda__attn_optin = 48 * 1024; // shared memory a block may opt in to
static int krn_cuda__attn_sms = 0;           // multiprocessors (auto's block count)

int krn_cuda_attention_setup(int32_t head_dim, int32_t group, sb_err *err) {
    int dev = 0, optin = 0, sms = 0;
    if (KRN_CUDA_CHECK(cudaGetDevice(&dev), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              dev), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), err))
        return -1;
    krn_cuda__attn_optin = optin;
    krn_cuda__attn_sms = sms;
    size_t need = krn_cuda__chunk_smem(head_dim, group);
    if (need > (size_t)optin) need = (size_t)optin;
    return KRN_CUDA_CHECK(cudaFuncSetAttribute(krn_cuda_attn_chunk_kernel,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)need), err);
}

// The first kernel's shared memory for head_dim hd.
static size_t krn_cuda__ref_smem(int32_t hd) {
    return (2 * (size_t)hd + KRN_ATTN_CHUNK) * sizeof(float);
}

static int krn_cuda__attention_ref(const krn_cuda_attn *a, cudaStream_t s, sb_err *err) {
    const size_t smem = krn_cuda__ref_smem(a->head_dim);
    if (smem > (size_t)KRN_CUDA__REF_SMEM_MAX)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; this kernel takes at most 49152",
                          (int)a->head_dim, smem);
    const dim3 grid((unsigned)a->n_rows, (unsigned)a->n_head);
    krn_cuda_launch(krn_cuda_attn_kernel, KRN_CUDA_PDL_ATTN, grid, KRN_CUDA__ATTN_THREADS, smem,
                    s, *a);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_kernel", err);
}

// Rows a block of the rows kernel takes for a step of n_rows rows: at most
// 32 pairs (32 / group rows) and KRN_CUDA__ROWS_SMEM bytes, evened out over
// the step's tiles (5 rows of at most 4 a tile: 3 + 2, not 4 + 1). The tile
// changes no bits: every pair runs its own sequence. 0 where the kernel does
// not apply: head_dim other than 64 or 128, or a group too wide for a block.
static int krn_cuda__rows_tile(int32_t hd, int32_t group, int n_rows) {
    if ((hd != 64 && hd != 128) || group > KRN_CUDA__ROWS_PAIRS * KRN_CUDA__ROWS_WARPS)
        return 0;
    int tile = KRN_CUDA__ROWS_PAIRS * KRN_CUDA__ROWS_WARPS / group;
    while (tile > 0 && krn_cuda__rows_smem(hd, tile, group) > KRN_CUDA__ROWS_SMEM) tile--;
    if (tile < 1) return 0;
    const int tiles = (n_rows + tile - 1) / tile;
    return (n_rows + tiles - 1) / tiles;
}

// A step's chunk kernel with everything but the batch: the rows kernel
// (tile > 0) or the split-KV chunk kernel.
struct krn_cuda__chunker {
    int tile;                 // rows a block of the rows kernel; 0: split-KV
    int32_t hd;
    krn_cuda__chunk_p cp;     // split-KV
    krn_cuda__rows_p rp;      // rows
    unsigned gy, gz, threads; // grid y and z, block size
    size_t smem;
};

// The fields the split-KV and rows kernels' parameters share, from a.
template <class P> static void krn_cuda__shared_params(P *p, const krn_cuda_attn *a) {
    p->q = a->q;
    p->k = a->k_cache;
    p->v = a->v_cache;
    p->pos = a->pos;
    p->out = a->out;
    p->part = a->part;
    p->n_head = a->n_head;
    p->n_head_kv = a->n_head_kv;
    p->window = a->window;
    p->kv_slots = a->kv_slots;
    p->cbase = a->span.c_lo;
}

// The split-KV kernel's plan. Heads per block: all of a KV head's group when
// that already makes enough blocks; fewer (more blocks) for a few short
// rows. Never more than the shared memory allows.
static int krn_cuda__plan_split(const krn_cuda_attn *a, krn_cuda__chunker *k, sb_err *err) {
    const int32_t hd = a->head_dim, group = a->n_head / a->n_head_kv;
    int32_t hpc = group;
    const int64_t blocks = (int64_t)a->n_rows * a->n_head_kv * a->span.nc;
    while (hpc > 1 && blocks * ((group + hpc - 1) / hpc) < 256) hpc = (hpc + 1) / 2;
    while (hpc > 1 && krn_cuda__chunk_smem(hd, hpc) > (size_t)krn_cuda__attn_optin)
        hpc = (hpc + 1) / 2;
    const size_t smem = krn_cuda__chunk_smem(hd, hpc);
    if (smem > (size_t)krn_cuda__attn_optin || hd > 1024)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; the GPU allows %d", (int)hd, smem, krn_cuda__attn_optin);
    const int32_t hsplit = (group + hpc - 1) / hpc;
    krn_cuda__chunk_p *cp = &k->cp;
    krn_cuda__shared_params(cp, a);
    cp->hd = hd;
    cp->group = group;
    cp->hpc = hpc;
    cp->hsplit = hsplit;
    k->tile = 0;
    k->gy = (unsigned)(a->n_head_kv * hsplit);
    k->gz = (unsigned)a->n_rows;
    k->threads = KRN_CUDA__CHUNK_THREADS;
    k->smem = smem;
    return 0;
}

// The rows kernel's plan, when it applies and a->mode picks it (the file
// header's rule): forced (2), or auto (0) for a step of at least
// KRN_CUDA__ROWS_MIN_ROWS rows whose launches of gx chunks have at least a
// block per multiprocessor. The split-KV kernel (3) never takes it.
static bool krn_cuda__plan_rows(const krn_cuda_attn *a, int32_t gx, krn_cuda__chunker *k) {
    const int32_t hd = a->head_dim, group = a->n_head / a->n_head_kv;
    if (a->mode != 0 && a->mode != 2) return false;
    const int tile = krn_cuda__rows_tile(hd, group, a->n_rows);
    if (tile < 1) return false;
    const int64_t blocks = (int64_t)gx * a->n_head_kv * ((a->n_rows + tile - 1) / tile);
    if (a->mode == 0 && (a->n_rows < KRN_CUDA__ROWS_MIN_ROWS || blocks < krn_cuda__attn_sms))
        return false;
    krn_cuda__rows_p *rp = &k->rp;
    krn_cuda__shared_params(rp, a);
    rp->group = group;
    rp->tile = tile;
    rp->n_rows = a->n_rows;
    k->tile = tile;
    k->gy = (unsigned)a->n_head_kv;
    k->gz = (unsigned)((a->n_rows + tile - 1) / tile);
    k->threads = (unsigned)(32 * krn_cuda__rows_pairs(tile, group) / KRN_CUDA__ROWS_PAIRS);
    k->smem = krn_cuda__rows_smem(hd, tile, group);
    return true;
}

// Relative chunks c0 .. c0 + nb - 1 (chunk states nbatch apart; final_: the
// outputs instead).
static int krn_cuda__chunks(krn_cuda__chunker *k, int32_t c0, int32_t nb, int32_t nbatch,
                            int final_, cudaStream_t s, sb_err *err) {
    const dim3 grid((unsigned)nb, k->gy, k->gz);
    auto batch = [&](auto *p) { // this launch's part of either kernel's parameters
        p->c0 = c0;
        p->nbatch = nbatch;
        p->final_ = final_;
    };
    if (k->tile > 0) {
        krn_cuda__rows_p *rp = &k->rp;
        batch(rp);
        if (k->hd == 128)
            krn_cuda_launch(krn_cuda_attn_rows_kernel<4>, KRN_CUDA_PDL_ATTN, grid, k->threads,
                            k->smem, s, *rp);
        else
            krn_cuda_launch(krn_cuda_attn_rows_kernel<2>, KRN_CUDA_PDL_ATTN, grid, k->threads,
                            k->smem, s, *rp);
        return KRN_CUDA_LAUNCHED("krn_cuda_attn_rows_kernel", err);
    }
    krn_cuda__chunk_p *cp = &k->cp;
    batch(cp);
    krn_cuda_launch(krn_cuda_attn_chunk_kernel, KRN_CUDA_PDL_ATTN, grid, k->threads, k->smem, s,
                    *cp);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_chunk_kernel", err);
}

int krn_cuda_attention(const krn_cuda_attn *a, cudaStream_t s, sb_err *err) {
    if (a->n_rows < 1 || a->n_rows > KRN_MAX_ROWS || a->head_dim < 2 ||
        a->n_head < 1 || a->n_head_kv < 1 || a->n_head % a->n_head_kv ||
        a->span.nc < 1 || a->span.c_lo < 0 || a->kv_slots < 1)
        return sb_err_set(err, __func__, "n_rows %d, head_dim %d, heads %d/%d: "
                          "expected 1..%d rows, head_dim >= 2, n_head_kv "
                          "dividing n_head", a->n_rows, (int)a->head_dim,
                          (int)a->n_head, (int)a->n_head_kv, KRN_MAX_ROWS);
    const int32_t hd = a->head_dim, nc = a->span.nc;
    if (a->mode == 1 || (a->mode == 0 && nc == 1 && a->n_rows <= KRN_CUDA__REF_MAX_ROWS &&
                         krn_cuda__ref_smem(hd) <= (size_t)KRN_CUDA__REF_SMEM_MAX))
        return krn_cuda__attention_ref(a, s, err);
    // Chunks a launch takes: every row's keys in one chunk (nc == 1) need
    // no merge; else batches of nbatch chunk states a (row, head), as many
    // as the scratch holds (at most 2048: the merge stages 4 floats per
    // chunk).
    int32_t nbatch = 1;
    if (nc > 1) {
        const int64_t per_batch = a->slots / ((int64_t)a->n_rows * a->n_head);
        if (per_batch < 1)
            return sb_err_set(err, __func__, "attention scratch of %lld chunk states "
                              "is too small", (long long)a->slots);
        nbatch = per_batch < nc ? (int32_t)per_batch : nc;
        if (nbatch > 2048) nbatch = 2048;
    }
    krn_cuda__chunker ck = {};
    ck.hd = hd;
    if (!krn_cuda__plan_rows(a, nbatch, &ck) && krn_cuda__plan_split(a, &ck, err)) return -1;
    if (nc == 1) // every row's keys are one chunk: no merge
        return krn_cuda__chunks(&ck, 0, 1, 1, 1, s, err);
    krn_cuda__merge_p mp;
    mp.pos = a->pos;
    mp.part = a->part;
    mp.run = a->run;
    mp.out = a->out;
    mp.n_head = a->n_head;
    mp.hd = hd;
    mp.nbatch = nbatch;
    mp.window = a->window;
    mp.cbase = a->span.c_lo;
    const unsigned mthreads = (unsigned)((hd + 31) / 32 * 32);
    for (int32_t c0 = 0; c0 < nc; c0 += nbatch) {
        mp.c0 = c0;
        const int32_t nb_here = nc - c0 < nbatch ? nc - c0 : nbatch;
        if (krn_cuda__chunks(&ck, c0, nb_here, nbatch, 0, s, err)) return -1;
        krn_cuda_launch(krn_cuda_attn_merge_kernel, KRN_CUDA_PDL_ATTN,
                        dim3((unsigned)a->n_head, (unsigned)a->n_rows), mthreads,
                        4 * sizeof(float) * (size_t)nbatch, s, mp);
        if (KRN_CUDA_LAUNCHED("krn_cuda_attn_merge_kernel", err)) return -1;
    }
    return 0;
}
