// matmul.cu — y = W·x for a batch of rows, W of any krn_type.
//
// CPU reference: kernels/cpu/matmul.c — one output is the canonical dot of
// kernels.h §2 (krn_dot_q for quantized weights, krn_dot_f for F32/F16/BF16)
// followed by one rounded add: y = dot + bias[o], or y = y_old + dot.
//
// THE ORDER every kernel below keeps, per output o and batch row r: block j
// (32 weights) has the exact integer I_j (any instruction may form it: dp4a,
// int8 tensor-core MMA, in any association) and the float value
//     v_j = dx_j * (d_j * (float)I_j)                       (no min), or
//     v_j = dx_j * ((d_j * (float)I_j) - (m_j * (float)s_j))  (with a min),
// each operation rounded as written. "Lane" l = j mod 32 adds v_l, v_{l+32},
// v_{l+64}, ... in that order into its partial sum, starting from 0.0f;
// then the 32 partials are folded: for off = 16, 8, 4, 2, 1, partial[l] =
// partial[l] + partial[l + off] for l < off; y = partial[0]. The kernels
// differ only in who computes which v_j and where a partial lives; no
// kernel's float sequence depends on the number of rows, a row's place in
// the batch, the tile a row or an output falls in, or which kernel ran.
//
// Three kernels for quantized weights (the tests compare each against the
// CPU; krn_cuda_cfg picks one, every choice the same bits):
//   gemv  1..7 rows: a warp per output; lane l owns blocks l, l+32, ... The
//         warp stages the raw bytes of 64 consecutive blocks into shared
//         memory with coalesced 16-byte cp.async, two such stages ahead,
//         while lane l unpacks its two blocks and runs the dp4a dot for
//         each row (the partial lives in lane l).
//   mma   8..64 rows: a block of 16 (or 32) warps per 32 outputs x 32 rows; the
//         integers come from int8 tensor-core MMA (m16n8k32; Q6_K, whose
//         halves have their own multipliers, uses two m16n8k16). Warp w
//         handles the blocks of lanes w and w + 16 of every output and row
//         of the tile, and keeps those two partials in registers; the fold
//         runs at the end through shared memory.
//   ref   the first kernel (a warp per output, byte loads), kept for
//         bisecting on the device.
// Float weights (F32/F16/BF16): krn_dot_f's order — block value = the
// sequential sum of w_i * x_i, i = 0..31, from 0.0f — then the same lanes
// and fold, by a warp per output.
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"
#include "dot.cuh"
#include "ptx.cuh"
#include "qblock.cuh"

enum {
    KRN_CUDA__MM_MAX_OUT = 3,
    KRN_CUDA__GV_WARPS = 4,     // gemv and ref: outputs (warps) per block
    KRN_CUDA__GV_TILE = 8,      // gemv: rows per pass over the weights
    KRN_CUDA__MMA_O = 32,       // mma: outputs per block
    KRN_CUDA__MMA_R = 32,       // mma: rows per block
    KRN_CUDA__F_TILE = 8,       // float weights: rows per pass
};

// One weight matrix of a launch; its outputs are the launch's tiles
// tile0 .. tile0 + (its tile count) - 1 (a tile is one output for gemv and
// ref, KRN_CUDA__MMA_O outputs for mma).
struct krn_cuda__mm_out {
    const uint8_t *w;
    uint64_t row_bytes;
    const float *bias;
    float *y;
    int64_t ne1, ldy;
    int64_t tile0;
    int accumulate;
};

struct krn_cuda__mm_params {
    krn_cuda__mm_out out[KRN_CUDA__MM_MAX_OUT];
    int n_out;
    int nb;                 // 32-element blocks per input row
    const int8_t *xq;       // krn_cuda_act
    const float2 *xc;
    int64_t q_stride, c_stride;
    int n_rows;
    int n_rt;               // mma: row tiles per output tile
};

// The matrix a tile belongs to (block- or warp-uniform).
static __device__ __forceinline__ int mm_which(const krn_cuda__mm_params &p, int64_t tile) {
    int i = 0;
    if (p.n_out > 1 && tile >= p.out[1].tile0) i = 1;
    if (p.n_out > 2 && tile >= p.out[2].tile0) i = 2;
    return i;
}

// The epilogue of matmul.c: one rounded add at most.
static __device__ __forceinline__ void mm_store(float dot, const float *bias,
                                                bool accumulate, float *y,
                                                int64_t o) {
    float v = dot;
    if (bias) v = fadd(v, bias[o]);
    if (accumulate) v = fadd(*y, v);
    *y = v;
}

// ==== gemv =====================================================================
//
// Grid ceil(outputs / 4), 4 warps, warp -> one output o. The row's bytes
// are read a "stage" at a time: blocks 64s .. 64s+63 (two groups of 32; for
// the K-quants 8 super-blocks), a contiguous byte range. The warp copies
// the 16-byte aligned window around it (at most 15 bytes each side; the
// matrix allocation is padded, so the window never leaves it) into one of
// its three shared slabs with 16-byte cp.async, coalesced, every address
// keeping its residue modulo 16 — two stages are in flight while the third
// is computed. Lane l unpacks block 64s + l, then block 64s + 32 + l (its
// blocks, in order: qblock.cuh), and for each row of the tile forms
// I = mul_lo * lo + mul_hi * hi with dp4a and adds v into its partial —
// the canonical lane's sequence. (float)I is formed exactly without a
// conversion instruction: i2f_small for |I| < 2^22 (every type's I but
// Q6_K's), and for Q6_K (mul_lo * (float)lo) + (mul_hi * (float)hi), whose
// terms and sum are integers below 2^24 — every operation exact.

template <int T> struct krn_cuda__gv_geom {
    enum {
        SB = 2 * qgroup<T>::bytes,            // a stage's bytes: 64 blocks
        SLAB = (SB + 30 + 15) / 16 * 16 + 16, // window + rdw's over-read
        STAGES = 3,
    };
};

// (float)(mul_lo * lo + mul_hi * hi), exactly (see above).
template <int T>
static __device__ __forceinline__ float gv_int_value(int lo, int hi, int mul_lo, int mul_hi) {
    if constexpr (qt<T>::dual)
        return fadd(fmul(i2f_small(mul_lo), i2f_small(lo)), fmul(i2f_small(mul_hi), i2f_small(hi)));
    else
        return i2f_small(lo + hi); // mul_lo = mul_hi = 1, |I| < 2^22
}

// (at most 48 registers: 10 blocks, 40 warps per multiprocessor)
template <int T, int RT>
__global__ void __launch_bounds__(32 * KRN_CUDA__GV_WARPS, 10)
krn_cuda_gemv_kernel(const __grid_constant__ krn_cuda__mm_params p) {
    using G_ = krn_cuda__gv_geom<T>;
    constexpr int BB = qt<T>::bb, BPG = qt<T>::bpg, GPB = 32 / BPG, NST = G_::STAGES;
    constexpr int SPB = 2 * GPB; // ggml blocks per stage
    __shared__ __align__(16) uint8_t slabs[KRN_CUDA__GV_WARPS][NST][G_::SLAB];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int64_t tile = (int64_t)blockIdx.x * KRN_CUDA__GV_WARPS + warp;
    const krn_cuda__mm_out &out = p.out[mm_which(p, tile)];
    const int64_t o = tile - out.tile0;
    const bool live = o < out.ne1; // warp-uniform; the kernel has no block barrier
    const uint8_t *row = out.w + (uint64_t)(live ? o : 0) * out.row_bytes;
    const int64_t nblk = p.nb / BPG;
    const int nstages = (p.nb + 63) / 64;

    // Stage s's bytes: [row + s * SPB * BB, min(that + SPB * BB, row_end));
    // its window from the 16-byte boundary below (mis bytes before it) to
    // the one above.
    const uintptr_t row_end = (uintptr_t)(row + nblk * BB);
    auto stage_at = [&](int s) { return (uintptr_t)row + (uintptr_t)s * (SPB * BB); };
    // cp.async of stage s's window into slab `slab` (nothing past the last
    // stage); always commits, so every iteration has one group to wait for.
    auto issue = [&](int s, int slab) {
        if (s < nstages) {
            const uintptr_t a0 = stage_at(s);
            const uintptr_t a1 = a0 + SPB * BB < row_end ? a0 + SPB * BB : row_end;
            const uintptr_t w0 = a0 & ~(uintptr_t)15;
            uint8_t *dst = slabs[warp][slab];
            for (uintptr_t c = lane; w0 + 16 * c < a1; c += 32)
                cp_async16(dst + 16 * c, (const void *)(w0 + 16 * c));
        }
        cp_async_commit();
    };

    // The first two stages are weights only, which no kernel writes: they
    // are copied before grid_dep_sync, while the kernel before this one (whose
    // output is the input x) may still be finishing.
    if (live) {
        issue(0, 0);
        issue(1, 1);
    }
    grid_dep_sync();
    if (!live) return;
    for (int r0 = 0; r0 < p.n_rows; r0 += RT) {
        float acc[RT];
#pragma unroll
        for (int t = 0; t < RT; t++) acc[t] = 0.0f;
        if (r0 > 0) {
            issue(0, 0);
            issue(1, 1);
        }
        int cur = 0; // s % NST
        for (int s = 0; s < nstages; s++) {
            cp_async_wait<1>(); // this lane's copies of stage s have landed
            __syncwarp();       // ... and every lane's; stage s-1 is computed
            issue(s + 2, cur == 0 ? NST - 1 : cur - 1); // into stage s-1's slab
            const uint8_t *base = slabs[warp][cur] + (stage_at(s) & 15);
            cur = cur == NST - 1 ? 0 : cur + 1;
#pragma unroll
            for (int h = 0; h < 2; h++) { // block 64s + 32h + lane, in order
                const int64_t j = (int64_t)s * 64 + 32 * h + lane;
                if (j >= p.nb) break;
                const uint8_t *bp = base + ((32 * h + lane) / BPG) * BB;
                const int sub = lane % BPG;
                uint32_t q[8];
                unpack8<T>(bp, sub, q);
                float d, m;
                int mul_lo, mul_hi;
                block_coef<T>(bp, sub, &d, &m, &mul_lo, &mul_hi);
#pragma unroll
                for (int t = 0; t < RT; t++) {
                    const int r = r0 + t;
                    if (r >= p.n_rows) break;
                    const int4 *xw = (const int4 *)(p.xq + (int64_t)r * p.q_stride + 32 * j);
                    const int4 x0 = xw[0], x1 = xw[1];
                    const float2 xc = p.xc[(int64_t)r * p.c_stride + j];
                    int lo = __dp4a((int)q[0], x0.x, 0);
                    lo = __dp4a((int)q[1], x0.y, lo);
                    lo = __dp4a((int)q[2], x0.z, lo);
                    lo = __dp4a((int)q[3], x0.w, lo);
                    int hi = __dp4a((int)q[4], x1.x, 0);
                    hi = __dp4a((int)q[5], x1.y, hi);
                    hi = __dp4a((int)q[6], x1.z, hi);
                    hi = __dp4a((int)q[7], x1.w, hi);
                    float v = fmul(d, gv_int_value<T>(lo, hi, mul_lo, mul_hi));
                    if (qt<T>::has_min) v = fsub(v, fmul(m, xc.y));
                    v = fmul(xc.x, v);
                    acc[t] = fadd(acc[t], v);
                }
            }
        }
        cp_async_wait_all(); // only empty groups remain; keep the count clean
        __syncwarp();        // every lane is done with the slabs
#pragma unroll
        for (int t = 0; t < RT; t++) {
            const int r = r0 + t;
            if (r >= p.n_rows) break; // warp-uniform
            const float dot = warp_fold(acc[t]);
            if (lane == 0)
                mm_store(dot, out.bias, out.accumulate, out.y + (int64_t)r * out.ldy + o, o);
        }
    }
}

// ==== mma ======================================================================
//
// Grid (output tiles x row tiles), 512 threads = 16 warps (LC = 2; 1024
// threads = 32 warps with LC = 1, see below); block (ot, rt)
// computes outputs 32 ot .. 32 ot + 31 (M: two m16 tiles) for rows
// 32 rt .. 32 rt + 31 (N: four n8 tiles). The K loop runs over chunks of 32
// blocks (groups), in order. Per chunk, cp.async stages (STAGES deep:
// chunks c+1 .. c+STAGES-1 are copied while chunk c is computed):
//   raw[32][RAWS]   the 32 output rows' raw group windows (as gemv's slab),
//   xq[32][XQS]     the 32 rows' int8 codes of the chunk's blocks,
//   xc[32 j][32 r]  their {dx, (float)s};
// then each warp computes the coefficients of its two blocks (below) for
// the 32 outputs, lane l for output l, into its own part of
// wc[warp][2][32 o] = {d_j, m_j, (float)mul_lo, (float)mul_hi} — one block
// barrier per chunk (after the copies land), a warp barrier for the rest.
//
// Warp w takes block jl = w and jl = w + 16 of the chunk (lane classes w and
// w + 16: block 32c + jl belongs to lane jl; with LC = 1, block w only). For each, thread (g = lane/4,
// t = lane%4) builds the A fragments (weights: code words t and t + 4 of
// outputs 16mt + g and 16mt + g + 8, straight from the raw window) and B
// fragments (codes of rows 8nt + g, bytes 4t.. and 16 + 4t..), runs the MMA
// with every accumulator started at the bit pattern of 1.5 * 2^23, so
// that the int32 result read as a float is exactly 1.5 * 2^23 + dot
// (|dot| < 2^22 for every 32- or 16-element dot of every type), and
//     (float)dot = (1.5 * 2^23 + dot) - 1.5 * 2^23     exactly (Sterbenz).
// Q6_K: (float)I = (mul_lo * (float)lo) + (mul_hi * (float)hi) — every
// term and the sum are integers below 2^24, so each operation is exact and
// the result is (float)I, as one conversion would give it.
// Thread (g, t) then owns, for its lane class, the partials of outputs
// {16mt + g, 16mt + g + 8} x rows {8nt + 2t, 8nt + 2t + 1}: the C fragment's
// elements. It adds v for this block to them — the block's only update of
// those partials in this chunk, and chunks go in order, so each partial sees
// blocks l, l + 32, ... in order.
//
// End: warp w's two partials of each (o, r) are lanes w and w + 16; their
// sum is the fold's first level (off = 16) for l = w. The 16 results go to
// shared memory and one thread per (o, r) finishes off = 8, 4, 2, 1 in the
// fold's order, then the epilogue.

template <int T> struct krn_cuda__mma_geom {
    enum {
        GB = qgroup<T>::bytes,
        RAWS0 = (GB + 46 + 15) / 16 * 16,          // window + rdw slack
        RAWS = RAWS0 + (16 - RAWS0 % 128 + 128) % 128, // = 16 mod 128: rows g
        RAW = 32 * RAWS,                           //   of a fragment hit
                                                   //   different banks
        XQS = 32 * 32 + 16,
        XQ = 32 * XQS,
        XC = 32 * 32 * 8,
        WC = 32 * 32 * 16,
        STAGE = RAW + XQ + XC,
        FOLD = 16 * 32 * 33 * 4,                   // [warp][row][33]
    };
    static constexpr size_t smem(int stages) {
        return (size_t)stages * STAGE + WC > (size_t)FOLD ? (size_t)stages * STAGE + WC
                                                            : (size_t)FOLD;
    }
};

// (float)dot from an MMA accumulator started at 0x4B400000.
static __device__ __forceinline__ float mma_unbias(int v) {
    return fsub(__int_as_float(v), 12582912.0f);
}

// LC lane classes per warp: LC = 2 is 16 warps (512 threads, warp w has
// lane classes w and w + 16), LC = 1 is 32 warps (1024 threads, warp w has
// lane class w, half the registers of partials per thread). The float
// sequence of every output is the same for both.
template <int T, int STAGES, int LC>
__global__ void __launch_bounds__(32 * 32 / LC, 1)
krn_cuda_mma_kernel(const __grid_constant__ krn_cuda__mm_params p) {
    grid_dep_sync(); // common.cuh: before any global access
    using G_ = krn_cuda__mma_geom<T>;
    constexpr int BB = qt<T>::bb, BPG = qt<T>::bpg, GPB = 32 / BPG;
    constexpr int RAWS = G_::RAWS, XQS = G_::XQS;
    constexpr int NW = 32 / LC, NT = 32 * NW; // warps, threads
    extern __shared__ __align__(16) uint8_t mma_sm[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int64_t ot = blockIdx.x / p.n_rt;
    const int rt = (int)(blockIdx.x % p.n_rt);
    const krn_cuda__mm_out &out = p.out[mm_which(p, ot)];
    const int64_t o0 = (ot - out.tile0) * KRN_CUDA__MMA_O;
    const int r0 = rt * KRN_CUDA__MMA_R;
    const int rows_here = p.n_rows - r0 < KRN_CUDA__MMA_R ? p.n_rows - r0 : KRN_CUDA__MMA_R;
    const int nt_act = (rows_here + 7) >> 3;
    const int64_t nblk = p.nb / BPG;
    const int nchunks = (p.nb + 31) / 32;
    float4 *wc = (float4 *)(mma_sm + STAGES * G_::STAGE);

    auto raw_of = [&](int s) { return mma_sm + s * G_::STAGE; };
    auto xq_of = [&](int s) { return mma_sm + s * G_::STAGE + G_::RAW; };
    auto xc_of = [&](int s) { return (float2 *)(mma_sm + s * G_::STAGE + G_::RAW + G_::XQ); };
    // Start address of output o0 + ol's chunk-c bytes, and its residue mod 16.
    auto row_at = [&](int ol, int c) {
        return (uintptr_t)out.w + (uint64_t)(o0 + ol) * out.row_bytes +
               (uint64_t)c * GPB * BB;
    };
    auto mis_of = [&](int ol, int c) {
        return qt<T>::align >= 16 ? 0 : (int)(row_at(ol, c) & 15);
    };

    // cp.async copies of chunk c into stage s (the caller commits). Warp w
    // copies output rows LC w .. LC w + LC - 1's windows and activation rows
    // LC w .. LC w + LC - 1. Offsets are 32-bit (krn_cuda__mm_check bounds
    // them) and loop counts computed once: a copy costs few instructions.
    const uint32_t row_len = (uint32_t)(nblk * BB); // bytes of a weight row
    const uint32_t qs = (uint32_t)p.q_stride, cs = (uint32_t)p.c_stride;
    auto issue = [&](int c, int s) {
        uint8_t *raw = raw_of(s), *xq = xq_of(s);
        float2 *xc = xc_of(s);
        const int nbc = p.nb - 32 * c < 32 ? p.nb - 32 * c : 32;
#pragma unroll
        for (int rr = 0; rr < LC; rr++) {
            const int ol = LC * warp + rr;
            if (o0 + ol < out.ne1) {
                const uint32_t off0 = (uint32_t)c * (GPB * BB);
                const uint32_t off1 = off0 + GPB * BB < row_len ? off0 + GPB * BB : row_len;
                const uint8_t *a0 = (const uint8_t *)row_at(ol, c);
                const uint32_t mis = (uint32_t)((uintptr_t)a0 & 15);
                const uint8_t *w0 = a0 - mis;
                const int n16 = (int)((off1 - off0 + mis + 15) >> 4); // the window's copies
                uint8_t *dst = raw + ol * RAWS;
                for (int ch = lane; ch < n16; ch += 32) cp_async16(dst + 16 * ch, w0 + 16 * ch);
            }
            const int rl = LC * warp + rr;
            if (rl < rows_here) {
                const uint32_t xr = (uint32_t)(r0 + rl);
                const int8_t *src = p.xq + (xr * qs + 1024u * (uint32_t)c);
                for (int ch = lane; ch < 2 * nbc; ch += 32)
                    cp_async16(xq + rl * XQS + 16 * ch, src + 16 * ch);
                if (lane < nbc)
                    cp_async8(xc + lane * 32 + rl, p.xc + (xr * cs + 32u * (uint32_t)c + lane));
            }
        }
    };

    float acc[LC][2][4][4];
#pragma unroll
    for (int a = 0; a < LC; a++)
#pragma unroll
        for (int b = 0; b < 2; b++)
#pragma unroll
            for (int n = 0; n < 4; n++)
#pragma unroll
                for (int e = 0; e < 4; e++) acc[a][b][n][e] = 0.0f;
    const int bias[4] = {0x4B400000, 0x4B400000, 0x4B400000, 0x4B400000};

    // The pipeline: chunks c + 1 .. c + STAGES - 1 are in flight while chunk
    // c is computed. Every iteration commits one group (empty past the last
    // chunk), so "all but the newest STAGES - 2 groups landed" is chunk c.
    if (STAGES >= 2) {
#pragma unroll
        for (int k = 0; k < STAGES - 1; k++) {
            if (k < nchunks) issue(k, k);
            cp_async_commit();
        }
    }
    for (int c = 0; c < nchunks; c++) {
        const int s = c % STAGES;
        if (STAGES == 1) {
            if (c > 0) __syncthreads(); // chunk c-1 computed: its stage is free
            issue(c, 0);
            cp_async_commit();
        }
        if (STAGES == 3) cp_async_wait<1>();
        else cp_async_wait_all();
        __syncthreads(); // chunk c is in shared memory; chunk c-1 is computed
        if (STAGES >= 2) {
            // into chunk c-1's stage, which no thread reads any more
            if (c + STAGES - 1 < nchunks) issue(c + STAGES - 1, (c + STAGES - 1) % STAGES);
            cp_async_commit();
        }
        const uint8_t *raw = raw_of(s);
        // The coefficients of the warp's blocks for all 32 outputs, lane l
        // computing output l's: wc[lc][ol] of this warp.
        {
            float4 *wcw = wc + warp * (LC * 32);
            const int mis_l = mis_of(lane, c);
#pragma unroll
            for (int lc = 0; lc < LC; lc++) {
                const int jl = warp + NW * lc;
                float4 cf = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                if (32 * c + jl < p.nb && o0 + lane < out.ne1) {
                    const uint8_t *bp = raw + lane * RAWS + mis_l + (jl / BPG) * BB;
                    float d, m;
                    int ml, mh;
                    block_coef<T>(bp, jl % BPG, &d, &m, &ml, &mh);
                    cf = make_float4(d, m, i2f_small(ml), i2f_small(mh));
                }
                wcw[lc * 32 + lane] = cf;
            }
            __syncwarp(); // the warp reads its lanes' coefficients below
        }
        const uint8_t *xq = xq_of(s);
        const float2 *xc = xc_of(s);
        int mis[2][2];
#pragma unroll
        for (int mt = 0; mt < 2; mt++) {
            mis[mt][0] = mis_of(16 * mt + g, c);
            mis[mt][1] = mis_of(16 * mt + g + 8, c);
        }
#pragma unroll
        for (int lc = 0; lc < LC; lc++) {
            const int jl = warp + NW * lc;
            if (32 * c + jl >= p.nb) continue; // warp-uniform
            const uint8_t *rawb = raw + (jl / BPG) * BB;
            const int sub = jl % BPG;
            uint32_t b[4][2];
#pragma unroll
            for (int nt = 0; nt < 4; nt++) {
                if (nt >= nt_act) break;
                const uint8_t *xp = xq + (8 * nt + g) * XQS + jl * 32 + 4 * t;
                b[nt][0] = *(const uint32_t *)xp;
                b[nt][1] = *(const uint32_t *)(xp + 16);
            }
#pragma unroll
            for (int mt = 0; mt < 2; mt++) {
                const uint8_t *pa = rawb + (16 * mt + g) * RAWS + mis[mt][0];
                const uint8_t *pb = rawb + (16 * mt + g + 8) * RAWS + mis[mt][1];
                const uint32_t a[4] = {code_word<T>(pa, sub, t), code_word<T>(pb, sub, t),
                                       code_word<T>(pa, sub, t + 4),
                                       code_word<T>(pb, sub, t + 4)};
                const float4 wa = wc[warp * (LC * 32) + lc * 32 + 16 * mt + g];
                const float4 wb = wc[warp * (LC * 32) + lc * 32 + 16 * mt + g + 8];
#pragma unroll
                for (int nt = 0; nt < 4; nt++) {
                    if (nt >= nt_act) break;
                    float fI[4];
                    if (qt<T>::dual) {
                        int lo[4], hi[4];
                        mma_s8_k16(lo, bias, a[0], a[1], b[nt][0]);
                        mma_s8_k16(hi, bias, a[2], a[3], b[nt][1]);
#pragma unroll
                        for (int e = 0; e < 4; e++) {
                            const float4 w = e < 2 ? wa : wb;
                            fI[e] = fadd(fmul(w.z, mma_unbias(lo[e])),
                                         fmul(w.w, mma_unbias(hi[e])));
                        }
                    } else {
                        int dd[4];
                        mma_s8_k32(dd, bias, a, b[nt]);
#pragma unroll
                        for (int e = 0; e < 4; e++) fI[e] = mma_unbias(dd[e]);
                    }
                    // {dx, sf} of rows 8nt + 2t and 8nt + 2t + 1
                    const float4 xcv = *(const float4 *)(xc + jl * 32 + 8 * nt + 2 * t);
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        const float4 w = e < 2 ? wa : wb;
                        const float dx = (e & 1) ? xcv.z : xcv.x;
                        const float sf = (e & 1) ? xcv.w : xcv.y;
                        float v = fmul(w.x, fI[e]);
                        if (qt<T>::has_min) v = fsub(v, fmul(w.y, sf));
                        v = fmul(dx, v);
                        acc[lc][mt][nt][e] = fadd(acc[lc][mt][nt][e], v);
                    }
                }
            }
        }
    }

    // The fold. Only empty copy groups can be pending; drain them anyway.
    cp_async_wait_all();
    // First level (off = 16): partial[l] = partial[l] + partial[l + 16] for
    // l < 16, into F[l][row][output]: within a thread for LC = 2 (lanes w
    // and w + 16), through F for LC = 1 (warp w + 16 stores, then warp w
    // adds its own partial on the left).
    __syncthreads();
    float *F = (float *)mma_sm; // [16][row 32][33]
    auto fidx = [&](int l, int mt, int nt, int e) {
        const int ol = 16 * mt + g + (e >= 2 ? 8 : 0);
        const int rl = 8 * nt + 2 * t + (e & 1);
        return (l * 32 + rl) * 33 + ol;
    };
    if (LC == 1 && warp >= 16) {
#pragma unroll
        for (int mt = 0; mt < 2; mt++)
#pragma unroll
            for (int nt = 0; nt < 4; nt++) {
                if (nt >= nt_act) break;
#pragma unroll
                for (int e = 0; e < 4; e++) F[fidx(warp - 16, mt, nt, e)] = acc[0][mt][nt][e];
            }
    }
    if (LC == 1) __syncthreads();
    if (warp < 16) {
#pragma unroll
        for (int mt = 0; mt < 2; mt++)
#pragma unroll
            for (int nt = 0; nt < 4; nt++) {
                if (nt >= nt_act) break;
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int f = fidx(warp, mt, nt, e);
                    F[f] = fadd(acc[0][mt][nt][e], LC == 2 ? acc[LC - 1][mt][nt][e] : F[f]);
                }
            }
    }
    __syncthreads();
    for (int idx = tid; idx < 32 * 32; idx += NT) {
        const int ol = idx & 31, rl = idx >> 5;
        if (rl >= rows_here || o0 + ol >= out.ne1) continue;
        float part[16];
#pragma unroll
        for (int l = 0; l < 16; l++) part[l] = F[(l * 32 + rl) * 33 + ol];
        // off = 8, 4, 2, 1: partial[l] = partial[l] + partial[l + off], l < off
#pragma unroll
        for (int l = 0; l < 8; l++) part[l] = fadd(part[l], part[l + 8]);
#pragma unroll
        for (int l = 0; l < 4; l++) part[l] = fadd(part[l], part[l + 4]);
#pragma unroll
        for (int l = 0; l < 2; l++) part[l] = fadd(part[l], part[l + 2]);
        part[0] = fadd(part[0], part[1]);
        const int64_t o = o0 + ol;
        mm_store(part[0], out.bias, out.accumulate, out.y + (int64_t)(r0 + rl) * out.ldy + o, o);
    }
}

// ==== ref: the first kernel ========================================================
//
// A warp per output (grid as gemv); lane l owns blocks l, l+32, ...,
// unpacked byte by byte (unpack.cuh), rows in tiles of 8.

template <int T>
__global__ void krn_cuda_mm_ref_kernel(const __grid_constant__ krn_cuda__mm_params p) {
    grid_dep_sync(); // common.cuh: before any global access
    constexpr bool has_min = T == KRN_Q4_1 || T == KRN_Q5_1 || T == KRN_Q4_K ||
                             T == KRN_Q5_K;
    const int lane = threadIdx.x & 31;
    const int64_t tile = (int64_t)blockIdx.x * KRN_CUDA__GV_WARPS + (threadIdx.x >> 5);
    const krn_cuda__mm_out &out = p.out[mm_which(p, tile)];
    const int64_t o = tile - out.tile0;
    if (o >= out.ne1) return; // warp-uniform
    const uint8_t *row = out.w + (uint64_t)o * out.row_bytes;
    const int nb = p.nb;
    for (int r0 = 0; r0 < p.n_rows; r0 += KRN_CUDA__GV_TILE) {
        float acc[KRN_CUDA__GV_TILE];
#pragma unroll
        for (int t = 0; t < KRN_CUDA__GV_TILE; t++) acc[t] = 0.0f;
        for (int j = lane; j < nb; j += 32) {
            krn_cuda_wblock wb;
            unpack_block<T>(row, j, &wb);
#pragma unroll
            for (int t = 0; t < KRN_CUDA__GV_TILE; t++) {
                const int r = r0 + t;
                if (r >= p.n_rows) break;
                acc[t] = fadd(acc[t], block_value_q<has_min>(
                                          &wb, p.xq + (int64_t)r * p.q_stride + 32LL * j,
                                          p.xc[(int64_t)r * p.c_stride + j]));
            }
        }
#pragma unroll
        for (int t = 0; t < KRN_CUDA__GV_TILE; t++) {
            const int r = r0 + t;
            if (r >= p.n_rows) break; // warp-uniform
            const float dot = warp_fold(acc[t]);
            if (lane == 0)
                mm_store(dot, out.bias, out.accumulate, out.y + (int64_t)r * out.ldy + o, o);
        }
    }
}

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
            if (lane == 0) mm_store(dot, bias, accumulate, y + (int64_t)r * ldy + o, o);
        }
    }
}

// ==== launchers ====================================================================

static int krn_cuda__mm_check(const krn_cuda_mm *mm, sb_err *err) {
    const krn_cuda_mat *w = mm->w;
    const bool quantized = krn_type_is_quantized(w->type);
    if (mm->n_rows < 1 || mm->n_rows > KRN_MAX_ROWS)
        return sb_err_set(err, "krn_cuda_matmul", "n_rows is %d; expected 1..%d",
                          mm->n_rows, KRN_MAX_ROWS);
    if (w->ne0 < KRN_QBLOCK || w->ne0 % KRN_QBLOCK || w->ne1 < 1 ||
        w->ne0 / KRN_QBLOCK > INT32_MAX / 64 || mm->ldy < w->ne1)
        return sb_err_set(err, "krn_cuda_matmul", "shape [%lld, %lld], ldy "
                          "%lld: expected a positive multiple of %d inputs and "
                          "ldy >= outputs", (long long)w->ne0,
                          (long long)w->ne1, (long long)mm->ldy, KRN_QBLOCK);
    if ((quantized && (!mm->xq || mm->xq->q_stride < w->ne0)) || (!quantized && !mm->x) ||
        !mm->y || !w->data)
        return sb_err_set(err, "krn_cuda_matmul", "a %s input, the output or "
                          "the weights are NULL", quantized ? "quantized" : "float");
    if (quantized && (int64_t)mm->n_rows * mm->xq->q_stride > INT32_MAX)
        return sb_err_set(err, "krn_cuda_matmul", "%d rows of %lld quantized "
                          "inputs exceed the kernels' 32-bit offsets", mm->n_rows,
                          (long long)mm->xq->q_stride);
    if (mm->bias && mm->accumulate)
        return sb_err_set(err, "krn_cuda_matmul", "bias and accumulate are "
                          "both set; expected at most one");
    return 0;
}

#define KRN_CUDA__MM_F(T)                                                     \
    krn_cuda_launch(krn_cuda_mm_f_kernel<T>, KRN_CUDA_PDL_GEMV, grid, block, 0, s,      \
                    w->data, w->row_bytes, w->ne1, w->ne0, mm->x, mm->bias,           \
                    mm->accumulate, mm->y, mm->ldy, mm->n_rows)

// One float-weight matrix: grid ceil(ne1 / 4) blocks of 4 warps.
static int krn_cuda__matmul_f(const krn_cuda_mm *mm, cudaStream_t s, sb_err *err) {
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

// Launches kernel K<T> (gemv<T, RT>, mma<T, STAGES, LC> or ref<T>) for the
// type T of the group.
template <int T, int RT>
static void krn_cuda__launch_gemv(const krn_cuda__mm_params &p, int64_t tiles, cudaStream_t s) {
    const unsigned grid = (unsigned)((tiles + KRN_CUDA__GV_WARPS - 1) / KRN_CUDA__GV_WARPS);
    krn_cuda_launch(krn_cuda_gemv_kernel<T, RT>, KRN_CUDA_PDL_GEMV, grid, 32 * KRN_CUDA__GV_WARPS,
                    0, s, p);
}

// The tensor-core kernel's pipeline depth for type T: the depth asked for
// (cfg.mma_stages, 3 by default), less while T's staging would exceed the
// device's opt-in shared memory.
static size_t krn_cuda__mma_optin = 0; // set by krn_cuda_matmul_setup

template <int T> static int krn_cuda__mma_stages(int stages) {
    int st = stages;
    while (st > 1 && krn_cuda__mma_geom<T>::smem(st) > krn_cuda__mma_optin) st--;
    return st;
}

template <int T>
static void krn_cuda__launch_q(int kind, int stages, int warps32,
                               const krn_cuda__mm_params &p, int64_t tiles, cudaStream_t s) {
    if (kind == 2) {
        const unsigned grid = (unsigned)((tiles + KRN_CUDA__GV_WARPS - 1) / KRN_CUDA__GV_WARPS);
        krn_cuda_launch(krn_cuda_mm_ref_kernel<T>, KRN_CUDA_PDL_GEMV, grid,
                        32 * KRN_CUDA__GV_WARPS, 0, s, p);
    } else if (kind == 1) {
        const int n = p.n_rows;
        if (n == 1) krn_cuda__launch_gemv<T, 1>(p, tiles, s);
        else if (n == 2) krn_cuda__launch_gemv<T, 2>(p, tiles, s);
        else if (n <= 4) krn_cuda__launch_gemv<T, 4>(p, tiles, s);
        else krn_cuda__launch_gemv<T, KRN_CUDA__GV_TILE>(p, tiles, s);
    } else {
        const unsigned grid = (unsigned)(tiles * p.n_rt);
        const int st = krn_cuda__mma_stages<T>(stages);
        const size_t sm = krn_cuda__mma_geom<T>::smem(st);
        void (*kernel)(const krn_cuda__mm_params) =
            st == 3   ? (warps32 ? krn_cuda_mma_kernel<T, 3, 1> : krn_cuda_mma_kernel<T, 3, 2>)
            : st == 2 ? (warps32 ? krn_cuda_mma_kernel<T, 2, 1> : krn_cuda_mma_kernel<T, 2, 2>)
                      : (warps32 ? krn_cuda_mma_kernel<T, 1, 1> : krn_cuda_mma_kernel<T, 1, 2>);
        krn_cuda_launch(kernel, KRN_CUDA_PDL_MMA, grid, warps32 ? 1024 : 512, sm, s, p);
    }
}

// mm[0..n-1]: one quantized type and input width. kind: 0 mma, 1 gemv, 2 ref.
static int krn_cuda__matmul_q(const krn_cuda_mm *mm, int n, int kind, int stages,
                              int warps32, cudaStream_t s, sb_err *err) {
    krn_cuda__mm_params p;
    memset(&p, 0, sizeof p);
    const int64_t per_tile = kind == 0 ? KRN_CUDA__MMA_O : 1;
    int64_t tiles = 0;
    for (int i = 0; i < n; i++) {
        krn_cuda__mm_out *o = &p.out[i];
        o->w = mm[i].w->data;
        o->row_bytes = mm[i].w->row_bytes;
        o->bias = mm[i].bias;
        o->y = mm[i].y;
        o->ne1 = mm[i].w->ne1;
        o->ldy = mm[i].ldy;
        o->tile0 = tiles;
        o->accumulate = mm[i].accumulate;
        tiles += (o->ne1 + per_tile - 1) / per_tile;
    }
    p.n_out = n;
    p.nb = (int)(mm[0].w->ne0 / KRN_QBLOCK);
    p.xq = mm[0].xq->q;
    p.xc = mm[0].xq->c;
    p.q_stride = mm[0].xq->q_stride;
    p.c_stride = mm[0].xq->c_stride;
    p.n_rows = mm[0].n_rows;
    p.n_rt = (p.n_rows + KRN_CUDA__MMA_R - 1) / KRN_CUDA__MMA_R;
    switch (mm[0].w->type) {
    case KRN_Q4_0: krn_cuda__launch_q<KRN_Q4_0>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q4_1: krn_cuda__launch_q<KRN_Q4_1>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q5_0: krn_cuda__launch_q<KRN_Q5_0>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q5_1: krn_cuda__launch_q<KRN_Q5_1>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q8_0: krn_cuda__launch_q<KRN_Q8_0>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q4_K: krn_cuda__launch_q<KRN_Q4_K>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q5_K: krn_cuda__launch_q<KRN_Q5_K>(kind, stages, warps32, p, tiles, s); break;
    case KRN_Q6_K: krn_cuda__launch_q<KRN_Q6_K>(kind, stages, warps32, p, tiles, s); break;
    default:
        return sb_err_set(err, __func__, "weight type %s (%d) has no CUDA matmul",
                          krn_type_name((uint32_t)mm[0].w->type), (int)mm[0].w->type);
    }
    return KRN_CUDA_LAUNCHED("a quantized matmul kernel", err);
}

int krn_cuda_matmul(const krn_cuda_mm *mm, int n, const krn_cuda_cfg *cfg,
                    cudaStream_t s, sb_err *err) {
    if (n < 1 || n > KRN_CUDA__MM_MAX_OUT)
        return sb_err_set(err, __func__, "%d matrices; expected 1..%d", n,
                          KRN_CUDA__MM_MAX_OUT);
    for (int i = 0; i < n; i++)
        if (krn_cuda__mm_check(&mm[i], err)) return -1;
    for (int i = 0; i < n;) {
        const krn_cuda_mat *w = mm[i].w;
        if (!krn_type_is_quantized(w->type)) {
            if (krn_cuda__matmul_f(&mm[i], s, err)) return -1;
            i++;
            continue;
        }
        int k = i + 1; // the run of matrices that share a launch
        while (k < n && mm[k].w->type == w->type && mm[k].w->ne0 == w->ne0 &&
               mm[k].xq == mm[i].xq && mm[k].n_rows == mm[i].n_rows)
            k++;
        int kind = cfg->mm == 2 ? 2 : 1;
        if (cfg->mm == 0 && cfg->mma_stages > 0 && mm[i].n_rows >= cfg->mma_min_rows)
            kind = 0;
        if (krn_cuda__matmul_q(&mm[i], k - i, kind, cfg->mma_stages, cfg->mma_warps32, s, err))
            return -1;
        i = k;
    }
    return 0;
}

// ---- setup ---------------------------------------------------------------------

// The shared-memory limit of T's tensor-core kernels at the depth they
// will run with (both warp layouts).
template <int T>
static int krn_cuda__mma_attr(int stages, sb_err *err) {
    const int st = krn_cuda__mma_stages<T>(stages);
    const int bytes = (int)krn_cuda__mma_geom<T>::smem(st);
    const cudaFuncAttribute a = cudaFuncAttributeMaxDynamicSharedMemorySize;
    cudaError_t rc;
    if (st == 3) {
        rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 3, 2>, a, bytes);
        if (rc == cudaSuccess) rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 3, 1>, a, bytes);
    } else if (st == 2) {
        rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 2, 2>, a, bytes);
        if (rc == cudaSuccess) rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 2, 1>, a, bytes);
    } else {
        rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 1, 2>, a, bytes);
        if (rc == cudaSuccess) rc = cudaFuncSetAttribute(krn_cuda_mma_kernel<T, 1, 1>, a, bytes);
    }
    return KRN_CUDA_CHECK(rc, err);
}

template <int T> static size_t krn_cuda__mma_need(int stages) {
    return krn_cuda__mma_geom<T>::smem(stages);
}

// The largest tensor-core configuration every type fits (Q8_0's 34-byte
// blocks make the largest staging), chosen from the device's opt-in limit
// and compute capability; the environment picks the kernels.
int krn_cuda_matmul_setup(krn_cuda_cfg *cfg, int device, sb_err *err) {
    const char *e = getenv("SB_CUDA_MM");
    cfg->mm = e && !strcmp(e, "gemv") ? 1 : e && !strcmp(e, "ref") ? 2 : 0;
    e = getenv("SB_CUDA_MMA_MIN_ROWS");
    cfg->mma_min_rows = e && atoi(e) >= 1 ? atoi(e) : 8;
    e = getenv("SB_CUDA_MMA_WARPS");
    cfg->mma_warps32 = e && !strcmp(e, "32");
    int major = 0, optin = 0;
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                              device), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              device), err))
        return -1;
    cfg->mma_stages = 0;
    krn_cuda__mma_optin = (size_t)optin;
    if (major >= 8) {
        // every type fits 1 stage when Q8_0 (the largest staging) does; each
        // type then runs as deep as it fits, up to 3 (SB_CUDA_MMA_STAGES)
        const size_t need1 = krn_cuda__mma_need<KRN_Q8_0>(1);
        e = getenv("SB_CUDA_MMA_STAGES");
        const int want = e && atoi(e) >= 1 && atoi(e) <= 3 ? atoi(e) : 3;
        cfg->mma_stages = (size_t)optin >= need1 ? want : 0;
    }
    const int st = cfg->mma_stages;
    if (st == 0) return 0;
    return krn_cuda__mma_attr<KRN_Q4_0>(st, err) || krn_cuda__mma_attr<KRN_Q4_1>(st, err) ||
                   krn_cuda__mma_attr<KRN_Q5_0>(st, err) ||
                   krn_cuda__mma_attr<KRN_Q5_1>(st, err) ||
                   krn_cuda__mma_attr<KRN_Q8_0>(st, err) ||
                   krn_cuda__mma_attr<KRN_Q4_K>(st, err) ||
                   krn_cuda__mma_attr<KRN_Q5_K>(st, err) || krn_cuda__mma_attr<KRN_Q6_K>(st, err)
               ? -1
               : 0;
}
