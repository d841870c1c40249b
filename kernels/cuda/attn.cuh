// attn.cuh — private to kernels/cuda/: what attention's kernel files share
// with each other and with the dispatch (attention.cu): each kernel's
// parameters, block size and shared memory, the staging of fp16 keys and
// values that the split-KV and rows kernels both use, and each file's
// launcher. The contract the kernels perform is attention.cu's header (CPU
// reference: kernels/cpu/attention.c).
#ifndef SB_KERNELS_CUDA_ATTN_CUH
#define SB_KERNELS_CUDA_ATTN_CUH

#include "canon_math.cuh"
#include "cuda_backend.h"

// ---- split-KV: chunk states, then the merge (attn_split.cu) ------------------

enum { KRN_CUDA__CHUNK_THREADS = 128 };

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
static inline size_t krn_cuda__chunk_smem(int32_t hd, int32_t hpc) {
    return ((size_t)KRN_ATTN_CHUNK * (size_t)(hd + 4) + (size_t)hpc * (size_t)hd +
            (size_t)hpc * KRN_ATTN_CHUNK + 2 * (size_t)hpc) * sizeof(float);
}

struct krn_cuda__merge_p {
    const int32_t *pos;
    const float *part;
    float *run, *out;
    int32_t n_head, hd, c0, nbatch;
    int32_t window, cbase;      // as krn_cuda__chunk_p's
};

// Lets the chunk kernel take smem bytes of shared memory (at most the GPU's
// opt-in limit): raises the kernel's limit, never lowers it.
int krn_cuda__attn_chunk_setup(size_t smem, sb_err *err);
// One launch of the chunk kernel (grid: chunks of the batch, KV heads x
// hsplit, rows) and one of the merge (grid: heads, rows); -1 fills err.
int krn_cuda__attn_chunk_launch(const krn_cuda__chunk_p *p, dim3 grid, unsigned threads,
                                size_t smem, krn_cuda_exec ex, sb_err *err);
int krn_cuda__attn_merge_launch(const krn_cuda__merge_p *p, dim3 grid, unsigned threads,
                                size_t smem, krn_cuda_exec ex, sb_err *err);

// ---- rows: split-KV's chunk states, a tile of rows a block (attn_rows.cu) --

enum {
    KRN_CUDA__ROWS_PAIRS = 4,        // (row, head) pairs per warp
    KRN_CUDA__ROWS_WARPS = 8,        // per block at most: 32 pairs
    KRN_CUDA__ROWS_SMEM = 48 * 1024, // bytes a block may take: no opt-in, and
                                     // two blocks fit an SM of every arch built
};

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
static inline int32_t krn_cuda__rows_pairs(int32_t tile, int32_t group) {
    return (tile * group + KRN_CUDA__ROWS_PAIRS - 1) / KRN_CUDA__ROWS_PAIRS *
           KRN_CUDA__ROWS_PAIRS;
}

// Bytes of shared memory of a rows block: the chunk's keys, later its
// values (64 rows of hd + 4 floats); per pair hd floats (its q, later its
// scores and p, later its outputs) and (m, l); per row its slot range.
static inline size_t krn_cuda__rows_smem(int32_t hd, int32_t tile, int32_t group) {
    const size_t pairs = (size_t)krn_cuda__rows_pairs(tile, group);
    return ((size_t)KRN_ATTN_CHUNK * (size_t)(hd + 4) + pairs * (size_t)hd + 2 * pairs) *
               sizeof(float) + 2 * (size_t)tile * sizeof(int);
}

// One launch of the rows kernel for head_dim hd (64 or 128); -1 fills err.
int krn_cuda__attn_rows_launch(const krn_cuda__rows_p *p, int32_t hd, dim3 grid,
                               unsigned threads, size_t smem, krn_cuda_exec ex, sb_err *err);

// ---- ref: the first kernel, one block a (row, head) (attn_ref.cu) -----------

enum {
    KRN_CUDA__ATTN_THREADS = 128,
    KRN_CUDA__REF_SMEM_MAX = 48 * 1024, // the first kernel's shared memory: no opt-in
};

// The first kernel's shared memory for head_dim hd.
static inline size_t krn_cuda__ref_smem(int32_t hd) {
    return (2 * (size_t)hd + KRN_ATTN_CHUNK) * sizeof(float);
}

// The whole step with the first kernel (no merge); -1 fills err.
int krn_cuda__attention_ref(const krn_cuda_attn *a, krn_cuda_exec ex, sb_err *err);

// ---- staging keys and values (the split-KV and rows kernels) ----------------

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

#endif // SB_KERNELS_CUDA_ATTN_CUH
