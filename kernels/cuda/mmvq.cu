// mmvq.cu — y = W·x for K-quant weights (Q4_K, Q5_K, Q6_K) and steps of
// few rows (1 .. 8 NT): the decode and small-verify matmul, bound by
// streaming the weights once.
//
// CPU reference: kernels/cpu/matmul.c with canon.c's krn_dot_q; the order
// is mmq.cu's (kernels.h §2): per (output, row) and super-block the exact
// integers and one float value v (kq_math.cuh, the same code mmq.cu runs);
// part = 0.0f, part = part + v over each chunk's super-blocks in order;
// dot = 0.0f, dot = dot + part over the chunks in order; the epilogue.
//
// Block: one tile of 16 outputs (kquant.cuh's records), one warp a chunk
// (p.nchunks <= 8 warps; krn_tuning.mmvq_warps may ask for fewer, each then
// walking consecutive chunks). Warp c walks the super-blocks of chunk c in
// order, reading each record straight from global memory into registers
// (the next record's loads are issued before the current one is
// computed), and the activation fragments of the step's rows through the
// cache (every block reads the same rows). No barrier inside the walk: a
// warp never waits for another until its chunk's partials are done; then
// warp 0 adds the chunks' partials in chunk order from shared memory and
// writes y. Rows past the step's are zero fragments and never stored.
#include "act.cuh"
#include "cuda_backend.h"
#include "kq_math.cuh"
#include "mmq.cuh"

// One record as a lane holds it: its 16 bytes of each plane and its
// header words (kq_math.cuh).
template <int T> struct mmvq_rec {
    uint4 pl[kq_planes<T>::n];
    kq_head_raw head;
};

template <int T>
static __device__ __forceinline__ void mmvq_load(mmvq_rec<T> &r, const uint8_t *rec, int lane) {
#pragma unroll
    for (int k = 0; k < kq_planes<T>::n; k++)
        r.pl[k] = __ldcs((const uint4 *)(rec + 512 * k + 16 * lane)); // streamed once
    r.head = kq_head_load<T>(rec, lane >> 2);
}

// Block: one tile of 16 outputs, W = blockDim.x / 32 warps; warp w walks
// the super-blocks of chunks w·cpw .. w·cpw + cpw - 1 (cpw = ceil(nchunks
// / W)) in order, its weights one super-block ahead, and leaves each
// chunk's partials in red[chunk].
template <int T, int NT>
__global__ void __launch_bounds__(32 * KRN_MAX_CHUNKS)
krn_cuda_mmvq_kernel(const __grid_constant__ krn_cuda_mmq_params p) {
    constexpr int REC = kq<T>::rec;
    __shared__ float red[KRN_MAX_CHUNKS][NT][4][32]; // chunk partials by lane
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
    const int nw = blockDim.x >> 5, cpw = (p.nchunks + nw - 1) / nw;
    const krn_cuda_mmq_out &out = p.out[krn_cuda_mmq_which(p, blockIdx.x)];
    const int64_t tile = blockIdx.x - out.grp0;
    const int kb0 = min(w * cpw * p.len, p.nsb), kb1 = min((w + 1) * cpw * p.len, p.nsb);
    const uint8_t *rec = out.w + ((uint64_t)tile * p.nsb + kb0) * REC;

    // The weights are written by no kernel: the first record's loads may
    // start before the kernel that writes the input has finished.
    mmvq_rec<T> cur, next;
    if (kb0 < kb1) mmvq_load<T>(cur, rec, lane);
    grid_dep_sync();

    int acc[NT][4];
    float part[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++) acc[n][e] = 0, part[n][e] = 0.0f;
    for (int kb = kb0; kb < kb1; kb++) {
        const bool more = kb + 1 < kb1;
        if (more) mmvq_load<T>(next, rec + (uint64_t)(kb + 1 - kb0) * REC, lane);
        const kq_head hd = kq_head_read<T>(cur.head);
        auto bfrag = [&](int n, int pair) {
            const int r = 8 * n + g;
            return r < p.n_rows ? *(const uint4 *)(p.xq + (int64_t)r * p.q_stride + 256 * kb +
                                                   64 * pair + 16 * t)
                                : make_uint4(0, 0, 0, 0);
        };
        kq_integers<T, NT>([&](int k) { return cur.pl[k]; }, bfrag, hd, p.n_rows, acc);
#pragma unroll
        for (int n = 0; n < NT; n++) {
#pragma unroll
            for (int cr = 0; cr < 2; cr++) { // rows 8n + 2t + cr
                const int r = 8 * n + 2 * t + cr;
                if (r < p.n_rows) {
                    const float dx = p.xd[(int64_t)r * p.d_stride + kb];
                    const uint4 sv = *(const uint4 *)(p.xs + (int64_t)r * p.s_stride + 8 * kb);
                    part[n][cr] = fadd(part[n][cr], kq_value<T>(acc[n][cr], hd, false, sv, dx));
                    part[n][2 + cr] =
                        fadd(part[n][2 + cr], kq_value<T>(acc[n][2 + cr], hd, true, sv, dx));
                }
                acc[n][cr] = acc[n][2 + cr] = 0;
            }
        }
        if ((kb + 1) % p.len == 0 || !more) { // the chunk's last super-block
            const int c = kb / p.len;
#pragma unroll
            for (int n = 0; n < NT; n++)
#pragma unroll
                for (int e = 0; e < 4; e++) red[c][n][e][lane] = part[n][e], part[n][e] = 0.0f;
        }
        if (more) cur = next;
    }
    __syncthreads();
    if (w != 0) return;
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int64_t o = 16 * tile + g + (e >= 2 ? 8 : 0);
            const int r = 8 * n + 2 * t + (e & 1);
            if (o >= out.ne1 || r >= p.n_rows) continue;
            float dot = 0.0f;
            for (int cc = 0; cc < p.nchunks; cc++) dot = fadd(dot, red[cc][n][e][lane]);
            krn_cuda_mm_store(dot, out.bias, out.accumulate, out.y + (int64_t)r * out.ldy + o, o);
        }
}

// Warps a tile: one a chunk, or fewer (each then walking several chunks)
// so that the grid holds about warps_per_sm warps on each multiprocessor
// (0: one a chunk).
static int krn_cuda__mmvq_warps(const krn_cuda_mmq_params &p, int tiles, int sms,
                                int warps_per_sm) {
    if (warps_per_sm <= 0) return p.nchunks;
    const int64_t want = (int64_t)sms * warps_per_sm;
    const int64_t wpt = (want + tiles - 1) / tiles;
    return (int)(wpt < 1 ? 1 : wpt > p.nchunks ? p.nchunks : wpt);
}

template <int T, int NT>
static int krn_cuda__mmvq_go(krn_cuda_mmq_params &p, int sms, int warps_per_sm, krn_cuda_exec ex,
                             sb_err *err) {
    int tiles = 0;
    for (int i = 0; i < p.n_out; i++) {
        p.out[i].grp0 = tiles;
        tiles += (int)p.out[i].tiles;
    }
    p.split = 0;
    const int nw = krn_cuda__mmvq_warps(p, tiles, sms, warps_per_sm);
    krn_cuda_launch(krn_cuda_mmvq_kernel<T, NT>, KRN_CUDA_PDL_GEMV, dim3((unsigned)tiles),
                    dim3(32u * (unsigned)nw), 0, ex, p);
    return KRN_CUDA_LAUNCHED("krn_cuda_mmvq_kernel", err);
}

template <int T>
static int krn_cuda__mmvq_rows(krn_cuda_mmq_params &p, int sms, int warps_per_sm, krn_cuda_exec ex,
                               sb_err *err) {
    if (p.n_rows <= 8) return krn_cuda__mmvq_go<T, 1>(p, sms, warps_per_sm, ex, err);
    return krn_cuda__mmvq_go<T, 2>(p, sms, warps_per_sm, ex, err);
}

int krn_cuda_mmvq(krn_cuda_mmq_params *p, krn_type type, int sms, int warps_per_sm,
                  krn_cuda_exec ex, sb_err *err) {
    if (p->n_rows < 1 || p->n_rows > KRN_CUDA_MMVQ_MAX_ROWS || p->nchunks < 1 ||
        p->nchunks > KRN_MAX_CHUNKS)
        return sb_err_set(err, __func__, "%d rows in %d chunks; expected 1..%d rows, 1..%d "
                          "chunks", p->n_rows, p->nchunks, KRN_CUDA_MMVQ_MAX_ROWS,
                          KRN_MAX_CHUNKS);
    switch (type) {
    case KRN_Q4_K: return krn_cuda__mmvq_rows<KRN_Q4_K>(*p, sms, warps_per_sm, ex, err);
    case KRN_Q5_K: return krn_cuda__mmvq_rows<KRN_Q5_K>(*p, sms, warps_per_sm, ex, err);
    case KRN_Q6_K: return krn_cuda__mmvq_rows<KRN_Q6_K>(*p, sms, warps_per_sm, ex, err);
    default:
        return sb_err_set(err, __func__, "type %s has no matrix-vector kernel",
                          krn_type_name((uint32_t)type));
    }
}
