// attn_rows.cu — the rows kernel: the chunk states (or, for one-chunk
// steps, the outputs) of the split-KV chunk kernel (attn_split.cu), bit for
// bit, which the same merge kernel then folds; and its launcher. The
// contract is attention.cu's header (CPU reference: kernels/cpu/attention.c);
// attention.cu picks this kernel (head_dim 64 or 128) and plans its tiles.
//
// One block takes a chunk of one KV head for a tile of rows and every query
// head of the group, so the chunk's keys and values are staged once for
// tile * group (row, head) pairs instead of once per row, and each warp
// keeps scores and sums of 4 pairs in registers so that one key or value
// load feeds several pairs. It has fewer blocks than split-KV: tiles x KV
// heads x chunks of the launch.
#include "attn.cuh"

// The scores (or p) of a warp's pairs at its lane's two slots.
typedef float krn_cuda__tile[KRN_CUDA__ROWS_PAIRS][2];

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

int krn_cuda__attn_rows_launch(const krn_cuda__rows_p *p, int32_t hd, dim3 grid,
                               unsigned threads, size_t smem, krn_cuda_exec ex, sb_err *err) {
    if (hd == 128)
        krn_cuda_launch(krn_cuda_attn_rows_kernel<4>, KRN_CUDA_PDL_ATTN, grid, threads, smem, ex,
                        *p);
    else
        krn_cuda_launch(krn_cuda_attn_rows_kernel<2>, KRN_CUDA_PDL_ATTN, grid, threads, smem, ex,
                        *p);
    return KRN_CUDA_LAUNCHED("krn_cuda_attn_rows_kernel", err);
}
