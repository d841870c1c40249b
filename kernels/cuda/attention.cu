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
// Split-KV (the default): krn_cuda_attn_chunk_kernel computes step 1 and 2
// for every (row, chunk, head) in parallel and stores each chunk's
// (m, l, acc[hd]) — or, when the row has a single chunk, step 4 directly;
// krn_cuda_attn_merge_kernel then performs steps 3 and 4 per (row, head),
// chunk 0, 1, 2, ... strictly in order. Which block computed a chunk, and
// when, cannot change its bits: a chunk's sequence reads only its own slots.
// When the chunk states of all rows do not fit the scratch at once, the
// chunks go in batches, the merge carrying (M, L, ACC) from one batch to the
// next in memory — the same sequence, only paused.
#include "canon_math.cuh"
#include "cuda_backend.h"

extern "C" {
#include "../cpu/cpu.h" /* KRN_ATTN_CHUNK, the contract's constant */
}

enum { KRN_CUDA__ATTN_THREADS = 128, KRN_CUDA__CHUNK_THREADS = 128 };

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
    int quant;                  // final_ and hd % 32 == 0: also write xq
    krn_cuda_act xq;
};

// Bytes of shared memory of a chunk block with hpc heads.
static size_t krn_cuda__chunk_smem(int32_t hd, int32_t hpc) {
    return ((size_t)KRN_ATTN_CHUNK * (size_t)(hd + 4) + (size_t)hpc * (size_t)hd +
            (size_t)hpc * KRN_ATTN_CHUNK + 2 * (size_t)hpc) * sizeof(float);
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
                    v[k] = *(const uint4 *)(src + (int64_t)((t0 + s) % slots) * src_stride +
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
                    dst[off[k] + 2 * i] = half_to_float(wv[i] & 0xFFFFu);
                    dst[off[k] + 2 * i + 1] = half_to_float(wv[i] >> 16);
                }
            }
        }
        return;
    }
    int s = (int)threadIdx.x / hd, d = (int)threadIdx.x % hd;
    while (s < n) {
        dst[s * ks + d] = half_to_float(src[(int64_t)((t0 + s) % slots) * src_stride + d]);
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
    const float scale = fdiv(1.0f, __fsqrt_rn(i2f(hd)));
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
        // Element e of the block's heads; with quant (hd % 32 == 0) the
        // warp's 32 consecutive e are one quantization block of the row
        // (all in range or all out), lane l holding element 32m + l.
        for (int e = tid; e < nh * hd; e += blockDim.x) {
            const float o = ob[e];
            const int64_t col = (int64_t)h0 * hd + e;
            a.out[r * q_dim + col] = o;
            if (a.quant) {
                const int64_t b = col / KRN_QBLOCK;
                quantize_act_lane(o, a.xq.q + (int64_t)r * a.xq.q_stride + b * KRN_QBLOCK,
                                  a.xq.c + (int64_t)r * a.xq.c_stride + b, tid & 31);
            }
        }
    }
}

struct krn_cuda__merge_p {
    const int32_t *pos;
    const float *part;
    float *run, *out;
    int32_t n_head, hd, c0, nbatch;
    int32_t window, cbase;      // as krn_cuda__chunk_p's
    int quant;                  // hd % 32 == 0: also write xq
    krn_cuda_act xq;
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
        // hd % 32 == 0 (and blockDim == hd): warp w holds d = 32w .. 32w + 31,
        // one quantization block of the row.
        if (a.quant) {
            const int64_t b = ((int64_t)h * hd + d) / KRN_QBLOCK;
            quantize_act_lane(o, a.xq.q + (int64_t)r * a.xq.q_stride + b * KRN_QBLOCK,
                              a.xq.c + (int64_t)r * a.xq.c_stride + b, d & 31);
        }
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

// ==== ref: the first kernel =======================================================

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

static int krn_cuda__attn_optin = 48 * 1024; // set by krn_cuda_attention_setup

int krn_cuda_attention_setup(int32_t head_dim, int32_t group, sb_err *err) {
    int dev = 0, optin = 0;
    if (KRN_CUDA_CHECK(cudaGetDevice(&dev), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              dev), err))
        return -1;
    krn_cuda__attn_optin = optin;
    size_t need = krn_cuda__chunk_smem(head_dim, group);
    if (need > (size_t)optin) need = (size_t)optin;
    return KRN_CUDA_CHECK(cudaFuncSetAttribute(krn_cuda_attn_chunk_kernel,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)need), err);
}

static int krn_cuda__attention_ref(const krn_cuda_attn *a, cudaStream_t s, sb_err *err) {
    const size_t smem = (2 * (size_t)a->head_dim + KRN_ATTN_CHUNK) * sizeof(float);
    if (smem > 48 * 1024)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; this kernel takes at most 49152",
                          (int)a->head_dim, smem);
    const dim3 grid((unsigned)a->n_rows, (unsigned)a->n_head);
    krn_cuda_attn_kernel<<<grid, KRN_CUDA__ATTN_THREADS, smem, s>>>(*a);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_kernel", err);
}

int krn_cuda_attention(const krn_cuda_attn *a, cudaStream_t s, sb_err *err) {
    if (a->n_rows < 1 || a->n_rows > KRN_MAX_ROWS || a->head_dim < 2 ||
        a->n_head < 1 || a->n_head_kv < 1 || a->n_head % a->n_head_kv ||
        a->span.nc < 1 || a->span.c_lo < 0 || a->kv_slots < 1)
        return sb_err_set(err, __func__, "n_rows %d, head_dim %d, heads %d/%d: "
                          "expected 1..%d rows, head_dim >= 2, n_head_kv "
                          "dividing n_head", a->n_rows, (int)a->head_dim,
                          (int)a->n_head, (int)a->n_head_kv, KRN_MAX_ROWS);
    if (a->mode == 1) return krn_cuda__attention_ref(a, s, err);
    const int32_t hd = a->head_dim, group = a->n_head / a->n_head_kv;
    const int32_t nc = a->span.nc;
    // Heads per block: all of a KV head's group when that already makes
    // enough blocks; fewer (more blocks) for a few short rows. Never more
    // than the shared memory allows.
    int32_t hpc = group;
    const int64_t blocks = (int64_t)a->n_rows * a->n_head_kv * nc;
    while (hpc > 1 && blocks * ((group + hpc - 1) / hpc) < 256) hpc = (hpc + 1) / 2;
    while (hpc > 1 && krn_cuda__chunk_smem(hd, hpc) > (size_t)krn_cuda__attn_optin)
        hpc = (hpc + 1) / 2;
    const size_t smem = krn_cuda__chunk_smem(hd, hpc);
    if (smem > (size_t)krn_cuda__attn_optin || hd > 1024)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; the GPU allows %d", (int)hd, smem, krn_cuda__attn_optin);
    const int32_t hsplit = (group + hpc - 1) / hpc;
    krn_cuda__chunk_p cp;
    cp.q = a->q;
    cp.k = a->k_cache;
    cp.v = a->v_cache;
    cp.pos = a->pos;
    cp.out = a->out;
    cp.part = a->part;
    cp.n_head = a->n_head;
    cp.n_head_kv = a->n_head_kv;
    cp.hd = hd;
    cp.group = group;
    cp.hpc = hpc;
    cp.hsplit = hsplit;
    cp.window = a->window;
    cp.kv_slots = a->kv_slots;
    cp.cbase = a->span.c_lo;
    // The kernels can quantize out when every head is whole blocks.
    const int quant = a->xq && hd % KRN_QBLOCK == 0 &&
                      (int64_t)a->n_head * hd <= a->xq->q_stride;
    cp.quant = 0;
    if (quant) cp.xq = *a->xq;
    const dim3 block(KRN_CUDA__CHUNK_THREADS);
    if (nc == 1) { // every row's keys are one chunk: no merge
        cp.c0 = 0;
        cp.nbatch = 1;
        cp.final_ = 1;
        cp.quant = quant;
        const dim3 grid(1u, (unsigned)(a->n_head_kv * hsplit), (unsigned)a->n_rows);
        krn_cuda_attn_chunk_kernel<<<grid, block, smem, s>>>(cp);
        return KRN_CUDA_LAUNCHED("krn_cuda_attn_chunk_kernel", err) ? -1 : quant;
    }
    const int64_t per_batch = a->slots / ((int64_t)a->n_rows * a->n_head);
    if (per_batch < 1)
        return sb_err_set(err, __func__, "attention scratch of %lld chunk states "
                          "is too small", (long long)a->slots);
    // (at most 2048 chunks a batch: the merge stages 4 floats per chunk)
    int32_t nbatch = per_batch < nc ? (int32_t)per_batch : nc;
    if (nbatch > 2048) nbatch = 2048;
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
    mp.quant = quant;
    if (quant) mp.xq = *a->xq;
    const unsigned mthreads = (unsigned)((hd + 31) / 32 * 32);
    cp.final_ = 0;
    cp.nbatch = nbatch;
    for (int32_t c0 = 0; c0 < nc; c0 += nbatch) {
        cp.c0 = c0;
        mp.c0 = c0;
        const int32_t nb_here = nc - c0 < nbatch ? nc - c0 : nbatch;
        const dim3 grid((unsigned)nb_here, (unsigned)(a->n_head_kv * hsplit),
                        (unsigned)a->n_rows);
        krn_cuda_attn_chunk_kernel<<<grid, block, smem, s>>>(cp);
        if (KRN_CUDA_LAUNCHED("krn_cuda_attn_chunk_kernel", err)) return -1;
        krn_cuda_attn_merge_kernel<<<dim3((unsigned)a->n_head, (unsigned)a->n_rows),
                                     mthreads, 4 * sizeof(float) * (size_t)nbatch, s>>>(mp);
        if (KRN_CUDA_LAUNCHED("krn_cuda_attn_merge_kernel", err)) return -1;
    }
    return quant;
}
