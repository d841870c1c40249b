// attn_split.cu — split-KV attention: the chunk kernel performs steps 1
// and 2 of the contract (attention.cu's header; CPU reference:
// kernels/cpu/attention.c) for every (row, chunk, head) in parallel, the
// merge kernel steps 3 and 4 after it or after the rows kernel
// (attn_rows.cu), and their launchers. attention.cu picks the kernel and
// plans the launches.
//
// krn_cuda_attn_chunk_kernel takes one block per (chunk, heads of a KV
// head, row) and stores each chunk's (m, l, acc[hd]) — or, when the row has
// a single chunk, step 4 directly; krn_cuda_attn_merge_kernel then performs
// steps 3 and 4 per (row, head), chunk 0, 1, 2, ... strictly in order.
// Which block computed a chunk, and when, cannot change its bits: a chunk's
// sequence reads only its own slots. When the chunk states of all rows do
// not fit the scratch at once, the chunks go in batches, the merge carrying
// (M, L, ACC) from one batch to the next in memory — the same sequence,
// only paused.
#include "attn.cuh"

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

// ---- launchers ------------------------------------------------------------------

// The limit is the kernel's, for every backend of the process: it is only
// ever raised, so a backend created later for a smaller model cannot lower
// it under an earlier one's launches.
int krn_cuda__attn_chunk_setup(size_t smem, sb_err *err) {
    cudaFuncAttributes fa;
    if (KRN_CUDA_CHECK(cudaFuncGetAttributes(&fa, krn_cuda_attn_chunk_kernel), err)) return -1;
    if ((size_t)fa.maxDynamicSharedSizeBytes >= smem) return 0;
    return KRN_CUDA_CHECK(cudaFuncSetAttribute(krn_cuda_attn_chunk_kernel,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)smem), err);
}

int krn_cuda__attn_chunk_launch(const krn_cuda__chunk_p *p, dim3 grid, unsigned threads,
                                size_t smem, krn_cuda_exec ex, sb_err *err) {
    krn_cuda_launch(krn_cuda_attn_chunk_kernel, KRN_CUDA_PDL_ATTN, grid, threads, smem, ex, *p);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_chunk_kernel", err);
}

int krn_cuda__attn_merge_launch(const krn_cuda__merge_p *p, dim3 grid, unsigned threads,
                                size_t smem, krn_cuda_exec ex, sb_err *err) {
    krn_cuda_launch(krn_cuda_attn_merge_kernel, KRN_CUDA_PDL_ATTN, grid, threads, smem, ex, *p);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_merge_kernel", err);
}
