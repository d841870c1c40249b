// mmq.cuh — private to kernels/cuda/: what the quantized matmul kernels
// (mmq.cu for the K-quants, mm_block32.cu for the 32-element types) share:
// their launch parameters and the epilogue. matmul.cu fills the
// parameters and picks the kernel.
#ifndef SB_KERNELS_CUDA_MMQ_CUH
#define SB_KERNELS_CUDA_MMQ_CUH

#include "common.cuh"

// One weight matrix of a launch (a launch runs up to 3 that read the same
// input: q/k/v, gate/up).
typedef struct krn_cuda_mmq_out {
    const uint8_t *w;       // K-quants: kquant.cuh's records; else the file's rows
    uint64_t row_bytes;     // bytes of a file row (legacy types)
    int64_t ne1;            // outputs
    int64_t tiles;          // K-quants: tiles of 16 outputs
    int grp0;               // the launch's first output group of this matrix
    const float *bias;      // ne1 floats or NULL
    float *y;               // row r, output o at y[r * ldy + o]
    int64_t ldy;
    int accumulate;         // y = y_old + dot (never with bias)
} krn_cuda_mmq_out;

enum { KRN_CUDA_MMQ_MAX_OUT = 3 };

typedef struct krn_cuda_mmq_params {
    krn_cuda_mmq_out out[KRN_CUDA_MMQ_MAX_OUT];
    int n_out;
    int nsb;                // groups of a row (K-quants: super-blocks)
    int group_blocks;       // 32-element blocks a group (8 or 1)
    int len, nchunks;       // the chunking of kernels.h §2 (krn_chunk_len)
    int allow_split;        // the launcher may split K into its chunks
    int split;              // set by the launcher
    const int8_t *xq;       // the input's quantization (act.cuh's layout)
    const float *xd;
    const int16_t *xs;
    int64_t q_stride, d_stride, s_stride;
    int n_rows;
    float *part;            // split partials, part_cap floats
    int64_t part_cap;
    int *count;             // split arrival counts, count_cap ints, all 0
    int64_t count_cap;
} krn_cuda_mmq_params;

// The matrix an output group belongs to (block-uniform).
static __device__ __forceinline__ int krn_cuda_mmq_which(const krn_cuda_mmq_params &p, int grp) {
    int i = 0;
    if (p.n_out > 1 && grp >= p.out[1].grp0) i = 1;
    if (p.n_out > 2 && grp >= p.out[2].grp0) i = 2;
    return i;
}

// The epilogue of kernels/cpu/matmul.c: one rounded add at most.
static __device__ __forceinline__ void krn_cuda_mm_store(float dot, const float *bias,
                                                         bool accumulate, float *y, int64_t o) {
    float v = dot;
    if (bias) v = __fadd_rn(v, bias[o]);
    if (accumulate) v = __fadd_rn(*y, v);
    *y = v;
}

// mmq.cu: the K-quant launch (the kernel's rows per warp by p->n_rows;
// splits K when the grid is small and p allows it) with `stages` pipeline
// stages; and the kernels' shared-memory limits, set once per device, with
// *stages = the most that fit it (3 or 2).
int krn_cuda_mmq(krn_cuda_mmq_params *p, krn_type type, int sms, int stages, krn_cuda_exec ex,
                 sb_err *err);
int krn_cuda_mmq_setup(int device, int *stages, sb_err *err);
// mmvq.cu: the K-quant launch for steps of 1 .. KRN_CUDA_MMVQ_MAX_ROWS rows
// (a block a tile of 16 outputs, a warp a chunk, or several chunks when
// warps_per_sm > 0 asks for fewer warps: see krn_cuda__mmvq_warps).
enum { KRN_CUDA_MMVQ_MAX_ROWS = 16 };
int krn_cuda_mmvq(krn_cuda_mmq_params *p, krn_type type, int sms, int warps_per_sm,
                  krn_cuda_exec ex, sb_err *err);
// mm_block32.cu: the 32-element types' launch.
int krn_cuda_mm_block32(krn_cuda_mmq_params *p, krn_type type, krn_cuda_exec ex, sb_err *err);

#endif // SB_KERNELS_CUDA_MMQ_CUH
