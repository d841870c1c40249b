// mmq.cu — y = W·x for K-quant weights (Q4_K, Q5_K, Q6_K) on the int8
// tensor cores, for any number of rows (a 1-row step runs it too).
//
// CPU reference: kernels/cpu/matmul.c with canon.c's krn_dot_q. THE ORDER,
// per output o and row r (kernels.h §2): for each super-block (group of 256)
// the exact integers
//     A = Σ_j sc_j · I_j  (I_j = Σ q·qx over sub-block j; Q6_K: Σ over the
//         16 half-blocks of sc_k · Σ (q - 32)·qx),   B = Σ_j m_j · s_j
// then v = dx · ((d · (float)A) − (dmin · (float)B))   (Q6_K: dx · (d · (float)A)),
// each operation rounded as written; the super-blocks go in chunks of
// p.len: part = 0.0f, part = part + v for each super-block of the chunk in
// order, then dot = 0.0f, dot = dot + part for each chunk in order; then
// y = dot (+ bias[o]) or y_old + dot. Integers are exact, so where and by
// which instruction they are formed cannot change a bit; every float
// operation above happens once per (o, r, super-block), in that order,
// whatever the row count, the tile or the split.
//
// Block: 8 warps, WO x WR of them (WO output tiles of 16 x WR row tiles of
// 8·NT rows). Warp (wo, wr) owns outputs 16 wo .. + 15 of the block's
// output group and rows 8 NT wr .. of its row tile, and walks the
// super-blocks of its K range in order; per super-block a pipeline stage
// (cp.async, STAGES deep) holds the group's WO weight records (kquant.cuh)
// and the tile's activation rows (act.cuh's codes, sums and scale).
// Per super-block the warp runs kq_math.cuh's stages on the record in
// shared memory: the header, the integers A (MMAs), and per (o, r) pair
// the float v above.
//
// Thread (g = lane / 4, t = lane % 4) holds the C fragment's outputs g and
// g + 8 x rows 2t, 2t + 1 of each n-tile: 4 NT (o, r) pairs, each with its
// A, its chunk partial and its dot.
//
// Split (p.split): block z of a launch takes chunk z only and stores its
// partial; the block of a tile that finishes last (an atomic count) adds
// the partials in chunk order and writes y — the same sequence as one
// block walking every chunk. Which block is last cannot change the sum.
#include "act.cuh"
#include "cuda_backend.h"
#include "kq_math.cuh"
#include "mmq.cuh"

enum {
    KRN_CUDA__MMQ_WARPS = 8,
    KRN_CUDA__MMQ_BROW = 320, // bytes of an activation row in a stage:
                              // 256 codes, 16 of sums, 4 of dx; 320 puts
                              // rows g and g + 1 in different banks
};

// Bytes of one pipeline stage: the group's WO weight records and the
// tile's activation rows; NST stages (3, or 2 where the GPU's shared memory
// holds no more: sm_86/89).
template <int T, int NT, int WR, int NST>
struct krn_cuda__mmq_geom {
    enum {
        WO = KRN_CUDA__MMQ_WARPS / WR,
        ROWS = 8 * NT * WR,
        A = WO * kq<T>::rec,
        STAGE = A + ROWS * KRN_CUDA__MMQ_BROW,
        SMEM = NST * STAGE,
    };
};

// 16 bytes at p (shared memory, 16-byte aligned) in one 128-bit load.
static __device__ __forceinline__ uint4 shared_u4(const uint8_t *p) { return *(const uint4 *)p; }

// ---- the kernel's stages -------------------------------------------------------
//
// Per super-block of the warp's K range, in order:
//   load     krn_cuda__mmq_load_w, krn_cuda__mmq_load_x: cp.async of the
//            group's weight records and the tile's activation rows into a
//            pipeline stage, NST - 1 super-blocks ahead of the compute
//   unpack   kq_head_read (kq_math.cuh): the record's header (scales, mins,
//            d, dmin) for the lane's two outputs
//   MMA      kq_integers (kq_math.cuh): the exact integers A of every
//            (output, row) pair on the int8 tensor cores
//   scale    krn_cuda__mmq_scale: each pair's float v from A, the header
//            and the row's sums and dx, added into its chunk partial
//   chunk    krn_cuda__mmq_chunk_end: at a chunk's end, the partials join
//            the dots (unsplit launches only)
// then once:
//   write    krn_cuda__mmq_write: y = dot (+ bias) or y + dot
//   or, split, krn_cuda__mmq_split_put stores the block's chunk partials
//   and the tile's last block to arrive runs krn_cuda__mmq_split_fold: the
//   partials added in chunk order, then y as above.

// load, weights: the record at src (global memory) into dst (its place in
// a stage); the WR warps of the record's tile copy 16 bytes a lane, chunks
// lane + 32 (wr + WR j).
template <int T, int WR>
static __device__ __forceinline__ void krn_cuda__mmq_load_w(uint8_t *dst, const uint8_t *src,
                                                            int lane, int wr) {
    constexpr int RC = kq<T>::rec / 16;
#pragma unroll
    for (int j = 0; j < (RC + 32 * WR - 1) / (32 * WR); j++) {
        const int off = lane + 32 * (wr + WR * j);
        if (off < RC) cp_async16(dst + 16 * off, src + 16 * off);
    }
}

// load, activations: super-block kb of one row into dst (its place in a
// stage): the TPR threads of the row copy its 16 code chunks, its sums
// (chunk 16) and its dx (chunk 17), this thread chunks bq0, bq0 + TPR, ...
// (kb comes first: with dst first the compiler schedules a few of the 24
// instances differently.)
template <int TPR>
static __device__ __forceinline__ void krn_cuda__mmq_load_x(int kb, uint8_t *dst,
                                                            const int8_t *xq_row,
                                                            const int16_t *xs_row,
                                                            const float *xd_row, int bq0) {
#pragma unroll
    for (int k = bq0; k < 18; k += TPR) {
        if (k < 16) cp_async16(dst + 16 * k, xq_row + 256 * kb + 16 * k);
        else if (k == 16) cp_async16(dst + 256, xs_row + 8 * kb);
        else cp_async4(dst + 272, xd_row + kb);
    }
}

// scale: the super-block's float value of each pair, from its integers
// acc (zeroed again for the next super-block), the header hd and its row's
// sums and dx in the stage (the warp's rows at Bs), into the pair's chunk
// partial. An n-tile or row half no lane of which holds a real row is
// skipped (warp-uniform: its lowest row, t = 0, is past the step's rows).
template <int T, int NT>
static __device__ __forceinline__ void krn_cuda__mmq_scale(const uint8_t *Bs, const kq_head &hd,
                                                           int t, int rows_left,
                                                           int (&acc)[NT][4],
                                                           float (&part)[NT][4]) {
    constexpr int BROW = KRN_CUDA__MMQ_BROW;
#pragma unroll
    for (int n = 0; n < NT; n++) {
#pragma unroll
        for (int cr = 0; cr < 2; cr++) { // rows 8n + 2t + cr
            if (8 * n + cr >= rows_left) {
                acc[n][cr] = acc[n][2 + cr] = 0;
                continue;
            }
            const uint8_t *row = Bs + (8 * n + 2 * t + cr) * BROW;
            const float dx = *(const float *)(row + 272);
            const uint4 sv = shared_u4(row + 256); // s_0..s_7 as int16 pairs
            part[n][cr] = fadd(part[n][cr], kq_value<T>(acc[n][cr], hd, false, sv, dx));
            part[n][2 + cr] = fadd(part[n][2 + cr], kq_value<T>(acc[n][2 + cr], hd, true, sv, dx));
            acc[n][cr] = 0;
            acc[n][2 + cr] = 0;
        }
    }
}

// chunk: a chunk ends; its partials join the dots (one walk over every
// chunk) and start again from 0.0f.
template <int NT>
static __device__ __forceinline__ void krn_cuda__mmq_chunk_end(float (&dot)[NT][4],
                                                               float (&part)[NT][4]) {
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            dot[n][e] = fadd(dot[n][e], part[n][e]);
            part[n][e] = 0.0f;
        }
}

// write: the pairs' dots into y. (o, r) of element e of n-tile n: outputs
// obase + g (+ 8), row rbase + 8 n + 2t (+ 1). (p.n_rows is read here, not
// passed by value, which changed the generated code.)
template <int NT>
static __device__ __forceinline__ void krn_cuda__mmq_write(const float (&dot)[NT][4],
                                                           const krn_cuda_mmq_params &p,
                                                           const krn_cuda_mmq_out &out,
                                                           int64_t obase, int rbase, int g, int t) {
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int64_t o = obase + g + (e >= 2 ? 8 : 0);
            const int r = rbase + 8 * n + 2 * t + (e & 1);
            if (o < out.ne1 && r < p.n_rows)
                krn_cuda_mm_store(dot[n][e], out.bias, out.accumulate,
                                  out.y + (int64_t)r * out.ldy + o, o);
        }
}

// Split: where the partial of chunk c, tile slot tslot (slot_tiles of the
// launch), row r (rows_pad of the launch) and output ol of its tile sits.
static __device__ __forceinline__ float *krn_cuda__mmq_part_at(const krn_cuda_mmq_params &p,
                                                               int64_t slot_tiles, int rows_pad,
                                                               int c, int64_t tslot, int r,
                                                               int ol) {
    return p.part + (((int64_t)c * slot_tiles + tslot) * rows_pad + r) * 16 + ol;
}

// split, put: the warp's chunk partials (chunk z, tile slot tslot), for
// the tile's last block to fold.
template <int NT>
static __device__ __forceinline__ void krn_cuda__mmq_split_put(const krn_cuda_mmq_params &p,
                                                               int64_t slot_tiles, int rows_pad,
                                                               int z, int64_t tslot, int rbase,
                                                               int g, int t,
                                                               const float (&part)[NT][4]) {
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            *krn_cuda__mmq_part_at(p, slot_tiles, rows_pad, z, tslot,
                                   rbase + 8 * n + 2 * t + (e & 1), g + (e >= 2 ? 8 : 0)) =
                part[n][e];
}

// split, fold (the tile's last block, all its threads): for every (output,
// row) of the block's tiles, d = 0.0f + the chunks' partials in chunk
// order, then y as krn_cuda__mmq_write's.
template <int WO, int ROWS, int NTHR>
static __device__ __forceinline__ void krn_cuda__mmq_split_fold(const krn_cuda_mmq_params &p,
                                                                const krn_cuda_mmq_out &out,
                                                                int64_t slot_tiles, int rows_pad,
                                                                int grp, int64_t tile0, int r0,
                                                                int tid) {
    for (int idx = tid; idx < WO * 16 * ROWS; idx += NTHR) {
        const int k = idx / (16 * ROWS), rem = idx % (16 * ROWS);
        const int rr = rem / 16, ol = rem % 16;
        const int64_t o = 16 * (tile0 + k) + ol;
        const int r = r0 + rr;
        if (tile0 + k >= out.tiles || o >= out.ne1 || r >= p.n_rows) continue;
        float d = 0.0f;
        for (int c = 0; c < p.nchunks; c++)
            d = fadd(d, __ldcg(krn_cuda__mmq_part_at(p, slot_tiles, rows_pad, c,
                                                     (int64_t)grp * WO + k, r, ol)));
        krn_cuda_mm_store(d, out.bias, out.accumulate, out.y + (int64_t)r * out.ldy + o, o);
    }
}

// ---- the kernel -------------------------------------------------------------------

// Three blocks an SM for the narrow tiles (85 registers a thread), two for
// the 32-row ones, whose partials need more.
template <int T, int NT, int WR, int NST>
__global__ void __launch_bounds__(32 * KRN_CUDA__MMQ_WARPS, NT <= 2 ? 3 : 2)
krn_cuda_mmq_kernel(const __grid_constant__ krn_cuda_mmq_params p) {
    using G_ = krn_cuda__mmq_geom<T, NT, WR, NST>;
    constexpr int WO = G_::WO, ROWS = G_::ROWS, REC = kq<T>::rec;
    constexpr int NTHR = 32 * KRN_CUDA__MMQ_WARPS, BROW = KRN_CUDA__MMQ_BROW;
    constexpr int TPR = NTHR / ROWS; // threads copying each activation row
    extern __shared__ __align__(16) uint8_t mmq_sm[];
    __shared__ int last_s;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wo = warp % WO, wr = warp / WO;
    const int rt = blockIdx.x, grp = blockIdx.y, z = blockIdx.z;
    const krn_cuda_mmq_out &out = p.out[krn_cuda_mmq_which(p, grp)];
    const int64_t tile0 = (int64_t)(grp - out.grp0) * WO; // the block's first tile
    const int r0 = rt * ROWS;
    const int kb0 = p.split ? z * p.len : 0;
    const int kb1 = p.split ? min(kb0 + p.len, p.nsb) : p.nsb;
    const int nk = kb1 - kb0;
    const bool live = tile0 + wo < out.tiles; // the same for the WR warps of a tile
    const int rbase = r0 + 8 * NT * wr;       // this warp's first row
    const int rows_left = p.n_rows - rbase;   // n-tiles at or past it have no real row

    // load: the record of super-block kb0 + i of tile wo into stage `slot`.
    const uint8_t *a_src = out.w + (uint64_t)(live ? tile0 + wo : 0) * p.nsb * REC;
    uint8_t *a_dst = mmq_sm + wo * REC;
    auto issue_a = [&](int i, int slot) {
        if (i < nk && live)
            krn_cuda__mmq_load_w<T, WR>(a_dst + slot * G_::STAGE,
                                        a_src + (uint64_t)(kb0 + i) * REC, lane, wr);
    };
    // load: the tile's activation rows of super-block kb0 + i into stage
    // `slot`, TPR threads a row; padding rows (past n_rows) repeat the last
    // row. Every call commits a copy group, empty or not.
    const int brr = tid / TPR, bq0 = tid % TPR;
    const int brow = min(r0 + brr, p.n_rows - 1);
    const int8_t *xq_row = p.xq + (int64_t)brow * p.q_stride;
    const int16_t *xs_row = p.xs + (int64_t)brow * p.s_stride;
    const float *xd_row = p.xd + (int64_t)brow * p.d_stride;
    auto issue_b = [&](int i, int slot) {
        if (i < nk)
            krn_cuda__mmq_load_x<TPR>(kb0 + i, mmq_sm + slot * G_::STAGE + G_::A + brr * BROW,
                                      xq_row, xs_row, xd_row, bq0);
        cp_async_commit();
    };

    // The first stages' weights are copied before grid_dep_sync (common.cuh),
    // while the kernel before this one (whose output is the input) may still
    // be finishing; their copy group completes with the first stage's rows.
    for (int i = 0; i < NST - 1; i++) issue_a(i, i);
    grid_dep_sync();
    for (int i = 0; i < NST - 1; i++) issue_b(i, i);

    int acc[NT][4];
    float part[NT][4], dot[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++) acc[n][e] = 0, part[n][e] = 0.0f, dot[n][e] = 0.0f;
    int slot = 0, fill = NST - 1, chunk_left = p.len;

    for (int i = 0; i < nk; i++) {
        cp_async_wait<NST - 2>();
        __syncthreads(); // stage i landed for every thread; stage i - 1 is computed
        issue_a(i + NST - 1, fill);
        issue_b(i + NST - 1, fill);
        fill = fill == NST - 1 ? 0 : fill + 1;
        const uint8_t *As = mmq_sm + slot * G_::STAGE + wo * REC;
        const uint8_t *Bs = mmq_sm + slot * G_::STAGE + G_::A + (8 * NT * wr) * BROW;
        slot = slot == NST - 1 ? 0 : slot + 1;
        if (!live) continue;
        // B fragments of n-tile n: row 8n + g of the warp, words t, t+4 of a
        // block pair (act.cuh's layout).
        auto bfrag = [&](int n, int pair) {
            return shared_u4(Bs + (8 * n + g) * BROW + 64 * pair + 16 * t);
        };
        const kq_head hd = kq_head_read<T>(kq_head_load<T>(As, g)); // unpack
        kq_integers<T, NT>([&](int k) { return shared_u4(As + 512 * k + 16 * lane); }, bfrag, hd,
                           rows_left, acc);                         // MMA
        krn_cuda__mmq_scale<T, NT>(Bs, hd, t, rows_left, acc, part); // scale
        if (!p.split && (--chunk_left == 0 || i == nk - 1)) {        // chunk
            chunk_left = p.len;
            krn_cuda__mmq_chunk_end<NT>(dot, part);
        }
    }
    cp_async_wait_all();

    const int64_t obase = 16 * (tile0 + wo);
    if (!p.split) {
        if (!live) return;
        krn_cuda__mmq_write<NT>(dot, p, out, obase, rbase, g, t);
        return;
    }
    // Split: this chunk's partials, then the tile's last block to arrive
    // (an atomic count) folds them.
    const int64_t slot_tiles = (int64_t)gridDim.y * WO; // tile slots of the launch
    const int rows_pad = gridDim.x * ROWS;
    if (live)
        krn_cuda__mmq_split_put<NT>(p, slot_tiles, rows_pad, z, (int64_t)grp * WO + wo, rbase, g,
                                    t, part);
    __threadfence();
    __syncthreads();
    int *count = p.count + (int64_t)grp * gridDim.x + rt;
    if (tid == 0) last_s = atomicAdd(count, 1) == p.nchunks - 1;
    __syncthreads();
    if (!last_s) return;
    __threadfence();
    krn_cuda__mmq_split_fold<WO, ROWS, NTHR>(p, out, slot_tiles, rows_pad, grp, tile0, r0, tid);
    if (tid == 0) *count = 0; // ready for the next launch (graphs replay it)
}

// ---- launcher ------------------------------------------------------------------

template <int T, int NT, int WR, int NST>
static int krn_cuda__mmq_go(krn_cuda_mmq_params &p, int n_groups_total, int sms, krn_cuda_exec ex,
                            sb_err *err) {
    using G_ = krn_cuda__mmq_geom<T, NT, WR, NST>;
    const int n_rt = (p.n_rows + G_::ROWS - 1) / G_::ROWS;
    const int64_t blocks = (int64_t)n_groups_total * n_rt;
    // Split the K range into its chunks when the grid would not fill the GPU
    // twice over and the partials fit the scratch (a choice of speed only;
    // splitting the large launches too measured slower: bench/RESULTS.md).
    const int64_t part_floats = (int64_t)p.nchunks * n_groups_total * G_::WO * n_rt * G_::ROWS * 16;
    p.split = p.allow_split && p.nchunks > 1 && blocks < 2 * sms && part_floats <= p.part_cap &&
              blocks <= p.count_cap;
    const dim3 grid((unsigned)n_rt, (unsigned)n_groups_total, p.split ? (unsigned)p.nchunks : 1u);
    // Steps of few rows are the GEMV-like launches that gain from starting
    // early (common.cuh's PDL kinds); larger ones measured slower so.
    const int kind = p.n_rows <= 16 ? KRN_CUDA_PDL_GEMV : KRN_CUDA_PDL_MMA;
    krn_cuda_launch(krn_cuda_mmq_kernel<T, NT, WR, NST>, kind, grid,
                    32 * KRN_CUDA__MMQ_WARPS, (size_t)G_::SMEM, ex, p);
    return KRN_CUDA_LAUNCHED("krn_cuda_mmq_kernel", err);
}

// Output groups of each matrix (WO tiles of 16 a group), then the launch
// of the kernel with `stages` stages (krn_cuda_mmq_setup's: 3 or 2).
template <int T, int NT, int WR>
static int krn_cuda__mmq_shape(krn_cuda_mmq_params &p, int sms, int stages, krn_cuda_exec ex,
                               sb_err *err) {
    constexpr int WO = KRN_CUDA__MMQ_WARPS / WR;
    int groups = 0;
    for (int i = 0; i < p.n_out; i++) {
        p.out[i].grp0 = groups;
        groups += (int)((p.out[i].tiles + WO - 1) / WO);
    }
    return stages == 3 ? krn_cuda__mmq_go<T, NT, WR, 3>(p, groups, sms, ex, err)
                       : krn_cuda__mmq_go<T, NT, WR, 2>(p, groups, sms, ex, err);
}

// Rows per warp (8 NT) and row warps (WR) by the row count.
template <int T>
static int krn_cuda__mmq_rows(krn_cuda_mmq_params &p, int sms, int stages, krn_cuda_exec ex,
                              sb_err *err) {
    if (p.n_rows <= 8) return krn_cuda__mmq_shape<T, 1, 1>(p, sms, stages, ex, err);
    if (p.n_rows <= 16) return krn_cuda__mmq_shape<T, 2, 1>(p, sms, stages, ex, err);
    if (p.n_rows <= 32) return krn_cuda__mmq_shape<T, 4, 1>(p, sms, stages, ex, err);
    return krn_cuda__mmq_shape<T, 4, 2>(p, sms, stages, ex, err);
}

int krn_cuda_mmq(krn_cuda_mmq_params *p, krn_type type, int sms, int stages, krn_cuda_exec ex,
                 sb_err *err) {
    switch (type) {
    case KRN_Q4_K: return krn_cuda__mmq_rows<KRN_Q4_K>(*p, sms, stages, ex, err);
    case KRN_Q5_K: return krn_cuda__mmq_rows<KRN_Q5_K>(*p, sms, stages, ex, err);
    case KRN_Q6_K: return krn_cuda__mmq_rows<KRN_Q6_K>(*p, sms, stages, ex, err);
    default:
        return sb_err_set(err, __func__, "type %s has no tensor-core matmul",
                          krn_type_name((uint32_t)type));
    }
}

// ---- setup -----------------------------------------------------------------------

template <int T, int NT, int WR, int NST> static int krn_cuda__mmq_attr1(sb_err *err) {
    return KRN_CUDA_CHECK(cudaFuncSetAttribute(krn_cuda_mmq_kernel<T, NT, WR, NST>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)krn_cuda__mmq_geom<T, NT, WR, NST>::SMEM),
                          err);
}

template <int T, int NST> static int krn_cuda__mmq_attr(sb_err *err) {
    return krn_cuda__mmq_attr1<T, 1, 1, NST>(err) || krn_cuda__mmq_attr1<T, 2, 1, NST>(err) ||
                   krn_cuda__mmq_attr1<T, 4, 1, NST>(err) || krn_cuda__mmq_attr1<T, 4, 2, NST>(err)
               ? -1
               : 0;
}

// The largest stage set of any configuration: Q6_K's records are the largest.
template <int NST> static size_t krn_cuda__mmq_smem_max() {
    size_t m = 0;
    const size_t v[] = {krn_cuda__mmq_geom<KRN_Q6_K, 1, 1, NST>::SMEM,
                        krn_cuda__mmq_geom<KRN_Q6_K, 2, 1, NST>::SMEM,
                        krn_cuda__mmq_geom<KRN_Q6_K, 4, 1, NST>::SMEM,
                        krn_cuda__mmq_geom<KRN_Q6_K, 4, 2, NST>::SMEM};
    for (size_t x : v) m = x > m ? x : m;
    return m;
}

int krn_cuda_mmq_setup(int device, int *stages, sb_err *err) {
    int optin = 0;
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              device), err))
        return -1;
    if ((size_t)optin >= krn_cuda__mmq_smem_max<3>()) *stages = 3;
    else if ((size_t)optin >= krn_cuda__mmq_smem_max<2>()) *stages = 2;
    else
        return sb_err_set(err, __func__, "the GPU allows %d bytes of shared memory a block; "
                          "the K-quant matmul needs %zu", optin, krn_cuda__mmq_smem_max<2>());
    if (*stages == 3)
        return krn_cuda__mmq_attr<KRN_Q4_K, 3>(err) || krn_cuda__mmq_attr<KRN_Q5_K, 3>(err) ||
                       krn_cuda__mmq_attr<KRN_Q6_K, 3>(err)
                   ? -1
                   : 0;
    return krn_cuda__mmq_attr<KRN_Q4_K, 2>(err) || krn_cuda__mmq_attr<KRN_Q5_K, 2>(err) ||
                   krn_cuda__mmq_attr<KRN_Q6_K, 2>(err)
               ? -1
               : 0;
}
