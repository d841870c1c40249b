/*
 * kernels.h — quantized formats, the canonical arithmetic, and the compute
 * backends (cpu, cuda) behind one table of functions.
 *
 * kernels/ knows nothing of tokens, prompts or drafts: it is handed a model
 * description (shapes and weight pointers) and runs the Qwen2 forward pass
 * over 1..64 rows (a verify step), or up to 1,024 for a prefill when the
 * backend was made for it (krn_options.max_batch_rows). The engine (engine/)
 * loads files and decides what to run.
 *
 *     krn_backend *b = krn_cpu_create(&desc, &(krn_options){.n_threads = 2,
 *                                     .kv_capacity = 4096}, &err);
 *     int32_t tok[2] = {17, 42}, pos[2] = {0, 1};
 *     krn_forward(b, &(krn_batch){.n_rows = 2, .tokens = tok, .pos = pos,
 *                                 .logits = out}, &err);
 *     krn_destroy(b);
 *
 * The determinism contract (docs/determinism.md) lives in this folder: every output
 * row is computed by the canonical arithmetic below, whose reduction order
 * depends only on the model's shapes, never on the number of rows in the
 * batch, a row's place in it, or the thread count.
 */
#ifndef SB_KERNELS_H
#define SB_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/base.h"

/* ==== 1. Quantized formats =================================================
 * Numbering and block layouts are ggml's, so files from llama.cpp's tools
 * load as they are. A "block" is the unit of quantization: `block_elems`
 * weights stored in `block_bytes` bytes. */

typedef enum krn_type {
    KRN_F32 = 0,
    KRN_F16 = 1,
    KRN_Q4_0 = 2,
    KRN_Q4_1 = 3,
    KRN_Q5_0 = 6,
    KRN_Q5_1 = 7,
    KRN_Q8_0 = 8,
    KRN_Q4_K = 12,
    KRN_Q5_K = 13,
    KRN_Q6_K = 14,
    KRN_BF16 = 30,
} krn_type;

/* True for the values above; anything else read from a file is refused. */
bool krn_type_known(uint32_t type);
/* "f32", "q4_K", ... (ggml's spelling); "?" for an unknown type. */
const char *krn_type_name(uint32_t type);
/* Weights per block: 1 for float types, 32 for legacy, 256 for K-quants. */
int64_t krn_type_block_elems(krn_type type);
/* Bytes per block. */
int64_t krn_type_block_bytes(krn_type type);
/* Bytes of a row of n weights; false when n is not a whole number of blocks
 * or the size overflows. */
bool krn_row_bytes(krn_type type, int64_t n, uint64_t *bytes);

/* IEEE half and bfloat16 conversions, round to nearest even. */
float krn_fp16_to_fp32(uint16_t h);
uint16_t krn_fp32_to_fp16(float f);
float krn_bf16_to_fp32(uint16_t h);
uint16_t krn_fp32_to_bf16(float f);

/* Dequantize a row of n weights (n a multiple of the block size) exactly as
 * ggml does: same values, bit for bit. */
void krn_dequantize_row(krn_type type, const void *src, float *dst, int64_t n);

/* Quantize a row of n floats into `type`'s blocks. Supported: F32, F16,
 * BF16, Q4_0, Q5_0, Q8_0, Q4_K, Q6_K (and Q5_K). Good enough to make test
 * models; not tuned for quality. Returns false for an unsupported type. */
bool krn_quantize_row(krn_type type, const float *src, void *dst, int64_t n);

/* ==== 2. The canonical arithmetic (v2) =====================================
 * All float operations are IEEE fp32, each rounded as written, in the order
 * written (the build uses -ffp-contract=off, so no FMA is invented). Integer
 * sums are exact, so they may be formed in any order by any instruction
 * (dp4a, int8 tensor-core MMA, SIMD): only the float work below is pinned.
 * docs/determinism.md explains the design; this is the definition.
 *
 * Lane sum (norms and attention scores). A sum of n floats is computed with
 * KRN_LANES = 32 partial sums: lane l adds elements l, l+32, l+64, ... in
 * order starting from 0.0f, then the lanes are folded by a butterfly: for
 * off = 16, 8, 4, 2, 1: lane[l] = lane[l] + lane[l + off]. The answer is
 * lane[0]. A GPU warp gets the same bits with a shuffle-xor reduction.
 *
 * Activation quantization (krn_quantize_act). The input row of a matmul is
 * cut into groups of G = krn_act_group(weight type) elements: 256 for the
 * K-quants (whose super-blocks are 256), else 32, the weight block (a row
 * read by weights of both kinds is quantized both ways). Per group: amax = max |x_i| (a NaN never wins), id = 127 / amax (0 when
 * amax is 0), qx_i = rint(x_i * id) clamped to [-127, 127] (NaN: 0), and
 * dx = amax / 127, or NaN when any x_i of the group is a NaN (so that a
 * NaN activation makes the outputs it enters NaN, never a quiet 0). Per 32-element block b: s_b = Σ qx_i over the block.
 *
 * Quantized matmul, one output y = W[o,:]·x. The weight row is read as
 * int8 codes q (krn_unpack_row) in 32-element blocks, with each block's
 * integer multipliers and its float coefficients. For every group g of the
 * activation row the exact integers and one float value v_g are:
 *   K-quants (Q4_K, Q5_K; G = 256, one super-block): with the 6-bit scale
 *     sc_j and min m_j of sub-block j and the super-block's d and dmin,
 *       A = Σ_j sc_j · Σ_i q_i·qx_i,   B = Σ_j m_j · s_j
 *       v = dx · ((d · (float)A) − (dmin · (float)B))
 *   Q6_K (G = 256): codes q − 32, an int8 scale sc_k per 16 elements,
 *       A = Σ_k sc_k · Σ_i (q_i − 32)·qx_i,   v = dx · (d · (float)A)
 *   legacy types (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0; G = 32, one block b): with
 *     the block's d_b (and min m_b),
 *       u = d_b · (float)I_b          (I_b = Σ_i q_i·qx_i), or
 *       u = (d_b · (float)I_b) + (m_b · (float)s_b)      (Q4_1, Q5_1)
 *     w = 0.0f + u, and v = dx · w.
 *   (float)A is a correctly rounded int32 -> fp32 conversion; d, dmin, d_b
 *   and m_b are the file's halves widened exactly.
 * The groups are summed in P chunks of L = krn_chunk_len(n / G) consecutive
 * groups (P = ceil((n / G) / L) <= KRN_MAX_CHUNKS): each chunk's partial
 * starts at 0.0f and adds its v_g in order; the dot starts at 0.0f and adds
 * the partials in chunk order. The chunking depends only on the shape and
 * the type, so a GEMV
 * whose lanes each take a chunk, a tensor-core tile that walks every group
 * in order, and a split-K launch whose blocks each take one chunk all give
 * the same bits, for 1 row or 1,000.
 * Float weights (F32/F16/BF16) skip quantization: block j's value is the
 * sequential sum over i = 0..31 of w_i · x_i starting from 0.0f, and y is
 * the lane sum of those block values.
 *
 * Everything else (norms, RoPE, attention, SiLU, sampling) is specified
 * where it is implemented, in kernels/cpu/<op>.c. */

enum {
    KRN_QBLOCK = 32,     /* elements of a weight block / activation block */
    KRN_SUPER = 256,     /* elements of a K-quant super-block */
    KRN_LANES = 32,      /* partials of the lane sum */
    KRN_MAX_CHUNKS = 8,  /* most chunks of a quantized dot */
};


/* Groups per chunk of a quantized dot over n_groups groups: at most
 * KRN_MAX_CHUNKS chunks, all but the last of this length. */
static inline int64_t krn_chunk_len(int64_t n_groups) {
    return (n_groups + KRN_MAX_CHUNKS - 1) / KRN_MAX_CHUNKS;
}

/* One 32-element block of a quantized activation row. With G = 256 the 8
 * blocks of a group hold the same d (the group's dx). */
typedef struct krn_act_block {
    float d;          /* dx of the block's group: amax / 127 */
    int32_t sum;      /* s: Σ qx over this block */
    int8_t q[KRN_QBLOCK];
} krn_act_block;

/* One 32-element block of an unpacked weight row (see above). */
typedef struct krn_wblock {
    float d;          /* legacy: d_b; K-quants: the super-block's d */
    float m;          /* legacy with a min: m_b; Q4_K/Q5_K: dmin; else 0 */
    int16_t mul_lo;   /* integer multiplier of Σ over elements 0..15: */
    int16_t mul_hi;   /*   and 16..31 (Q4_K/Q5_K: sc_j twice; Q6_K: its two
                         int8 scales; legacy: 1) */
    int16_t mn;       /* Q4_K/Q5_K: m_j; else 0 */
    int8_t q[KRN_QBLOCK];
} krn_wblock;

/* True for the types whose block value has a min term (Q4_1, Q5_1, Q4_K,
 * Q5_K). */
bool krn_type_has_min(krn_type type);
/* True for the types that go through the integer path (all but F32, F16,
 * BF16). */
bool krn_type_is_quantized(krn_type type);
/* True for the K-quants (Q4_K, Q5_K, Q6_K): 256-element super-blocks. */
bool krn_type_is_kquant(krn_type type);

/* Elements per activation quantization group for a matmul of weight type
 * `type`: KRN_SUPER for the K-quants, else KRN_QBLOCK. */
static inline int64_t krn_act_group(krn_type type) {
    return krn_type_is_kquant(type) ? KRN_SUPER : KRN_QBLOCK;
}

/* Quantize n activations (n a multiple of group) into n/32 blocks, in
 * groups of `group` (32 or 256) elements. */
void krn_quantize_act(const float *x, krn_act_block *out, int64_t n, int64_t group);
/* Unpack a quantized weight row of n weights into n/32 blocks. */
void krn_unpack_row(krn_type type, const void *row, krn_wblock *out, int64_t n);
/* The canonical dot of an unpacked weight row of `type` and a quantized
 * activation row, both of nb = n/32 blocks. */
float krn_dot_q(const krn_wblock *w, const krn_act_block *x, int64_t nb,
                krn_type type);
/* The canonical dot of two float rows of n elements (n % 32 == 0). */
float krn_dot_f(const float *w, const float *x, int64_t n);
/* The canonical lane sum of n floats (any n >= 0). */
float krn_lane_sum(const float *v, int64_t n);

/* The engine's own exp and log: fp32 +, −, ×, ÷ and rint only, so every
 * backend can reproduce them bit for bit. Error within 2 ulp over the
 * normal range. krn_exp(x) is 0 below about −103.9 and +inf above 88.7;
 * krn_log(x) requires x > 0. */
float krn_exp(float x);
float krn_log(float x);

/* ==== 3. The model a backend runs ========================================== */

/* A weight matrix of ne1 rows of ne0 elements (ggml order: ne0 is the
 * input dimension), or a vector when ne1 == 1. `data` is borrowed: it points
 * into the engine's copy of the model file and must outlive the backend. */
typedef struct krn_tensor {
    krn_type type;
    int64_t ne0;
    int64_t ne1;
    const void *data;
} krn_tensor;

typedef struct krn_layer {
    krn_tensor attn_norm;           /* (n_embd) f32 */
    krn_tensor wq, wk, wv, wo;      /* (n_embd -> n_head*hd / n_head_kv*hd) */
    krn_tensor bq, bk, bv;          /* f32 biases */
    krn_tensor ffn_norm;            /* (n_embd) f32 */
    krn_tensor w_gate, w_up, w_down;
} krn_layer;

typedef struct krn_model {
    int32_t n_layer, n_embd, n_ff, n_head, n_head_kv, head_dim, n_vocab;
    float rope_base;   /* θ of RoPE, e.g. 1e6 */
    float rms_eps;     /* added to the mean square before the root */
    /* Sliding-window attention, when the model declares one: a row at
     * position p attends to positions p-window+1 .. p only (as transformers'
     * Qwen2 with use_sliding_window); 0: to every earlier position. */
    int32_t window;
    krn_tensor tok_embd;    /* (n_vocab rows of n_embd) */
    krn_tensor output_norm; /* (n_embd) f32 */
    krn_tensor output;      /* the LM head; equals tok_embd when tied */
    const krn_layer *layers; /* n_layer entries, borrowed */
} krn_model;

/* ==== 4. Backends ============================================================ */

/* KRN_MAX_ROWS: the rows of a step everything but prefill plans for — a
 * verify step (the last token and up to 63 drafted ones), the CUDA
 * backend's row buckets and graphs, the rows of logits a batch may ask for
 * (so a session's logits buffer is 64 rows). KRN_MAX_BATCH_ROWS: the
 * largest batch a backend can be made for (krn_options.max_batch_rows), for
 * prefill chunks of up to 1,024 rows; only its last 64 rows may want logits
 * (krn_batch). */
enum { KRN_MAX_ROWS = 64, KRN_MAX_BATCH_ROWS = 1024 };

/* One launch choice of a backend — a kernel variant, a split rule, an
 * overlap mask — by name. Every choice gives the same bits
 * (docs/determinism.md); choices only change speed. `ms` is the time a
 * measurement at create found for the value, or 0 when none was made. */
typedef struct krn_choice {
    char name[48];
    int32_t value;
    double ms;
} krn_choice;

/* ---- Kernel switches ----------------------------------------------------
 * Which kernels a backend runs where several give the same bits
 * (docs/determinism.md): they change speed only, and are for bisecting and
 * timing. A zeroed krn_tuning is every default. Nothing in kernels/ reads
 * the environment: a program's main fills one once (krn_tuning_from_env)
 * and passes it down as options (docs/environment.md, "Kernel switches"). */

/* The CUDA backend's attention kernel (kernels/cuda/attention.cu's header
 * describes each and the automatic rule). Values as the warm-up table's
 * "attention_kernel" choice. */
typedef enum krn_attn_kernel {
    KRN_ATTN_AUTO = 0,  /* by the step's shape (the default) */
    KRN_ATTN_REF = 1,   /* one block per (row, head) walking every chunk */
    KRN_ATTN_ROWS = 2,  /* split-KV with a tile of rows a block where it
                           applies (head_dim 64 or 128), else split-KV */
    KRN_ATTN_SPLIT = 3, /* split-KV: the chunks in parallel, then a merge */
} krn_attn_kernel;

/* The highest instruction set the CPU backend's kernels may use: the best
 * one this CPU runs at or below it runs. */
typedef enum krn_isa_cap {
    KRN_ISA_CAP_BEST = 0,       /* the best this CPU runs (the default) */
    KRN_ISA_CAP_SCALAR = 1,     /* the reference kernels, no SIMD */
    KRN_ISA_CAP_AVX2 = 2,       /* AVX2 and F16C */
    KRN_ISA_CAP_AVXVNNI = 3,    /* and AVX-VNNI */
    KRN_ISA_CAP_AVX512VNNI = 4, /* and AVX-512 VNNI, VL, BW */
} krn_isa_cap;

enum {
    KRN_TUNE_NONE = -1,         /* mmvq_rows, launch_overlap: explicitly none */
    KRN_MMVQ_MAX_ROWS = 16,     /* the largest step mmvq.cu takes */
    KRN_MMVQ_MAX_WARPS = 64,    /* the most warps an SM holds (sm_80, sm_90) */
    KRN_LAUNCH_OVERLAP_ALL = 15, /* every bit of kernels/cuda/common.cuh's
                                   KRN_CUDA_PDL_* */
};

typedef struct krn_tuning {
    /* CUDA backend (the CPU backend ignores these) */
    krn_attn_kernel attention;  /* SB_CUDA_ATTN */
    bool no_matmul_split;       /* never split a quantized matmul's K range
                                   across blocks (SB_CUDA_SPLIT=0) */
    int32_t mmvq_rows;          /* K-quant matmuls of steps of up to this
                                   many rows run mmvq.cu, more mmq.cu:
                                   1..KRN_MMVQ_MAX_ROWS; KRN_TUNE_NONE: no
                                   step; 0: the default, 8 (SB_CUDA_MMVQ) */
    int32_t mmvq_warps;         /* mmvq.cu aims at about this many warps
                                   per SM, giving a tile fewer warps than
                                   chunks: 1..KRN_MMVQ_MAX_WARPS; 0: a warp a
                                   chunk, the default (SB_CUDA_MMVQ_WARPS) */
    bool no_graphs;             /* launch every kernel directly, no CUDA
                                   graphs (SB_CUDA_GRAPHS=0) */
    int32_t launch_overlap;     /* the kinds of kernel that may start during
                                   the tail of the one before (sm_90 on; a
                                   mask of common.cuh's KRN_CUDA_PDL_*):
                                   1..KRN_LAUNCH_OVERLAP_ALL; KRN_TUNE_NONE:
                                   none; 0: the default, 5 (SB_CUDA_PDL) */
    bool profile;               /* time each stage (graphs off) and print
                                   the table to stderr at krn_destroy
                                   (SB_CUDA_PROFILE=1) */
    /* CPU backend (the CUDA backend ignores it) */
    krn_isa_cap cpu_isa;        /* SB_CPU_ISA */
} krn_tuning;

/* 0 when every field of t is in its range; else -1 with err naming the
 * first field out of range ("tuning.mmvq_rows"), its value and the range.
 * Both backends' create run it. */
int krn_tuning_check(const krn_tuning *t, sb_err *err);

/* For a program's main only, once at start: fills *t (every default first)
 * from the variables SB_CUDA_ATTN, SB_CUDA_SPLIT, SB_CUDA_MMVQ,
 * SB_CUDA_MMVQ_WARPS, SB_CUDA_GRAPHS, SB_CUDA_PDL, SB_CUDA_PROFILE and
 * SB_CPU_ISA as lookup returns them (the program passes getenv; a test, a
 * table of its own). An unset or empty variable keeps its default. -1 with
 * err naming the variable, the value seen and the values accepted, for the
 * first malformed one. docs/environment.md lists the values. */
int krn_tuning_from_env(krn_tuning *t, char *(*lookup)(const char *name), sb_err *err);

typedef struct krn_options {
    int n_threads;       /* CPU worker threads; results never depend on it */
    int32_t kv_capacity; /* positions 0..kv_capacity-1 (the longest context) */
    int32_t kv_slots;    /* KV-cache slots; 0: krn_kv_slots's. More (up to
                            kv_capacity) gives the same bits: tests use it */
    /* The most rows of any batch this backend will be given: 0 (a zeroed
     * options') or anything up to 64 is KRN_MAX_ROWS, today's scratch (every
     * backend takes the 64-row steps verify needs); up to
     * KRN_MAX_BATCH_ROWS for long prefill chunks. The scratch (activations of every row), and
     * with a sliding window the KV ring (krn_kv_slots), grow with it, so a
     * program asks only when it prefills in chunks above 64 rows. Out of
     * range: an error at create naming it. The bits never depend on it. */
    int32_t max_batch_rows;
    /* Choices to take as they are (a warm-up table's): each names one of
     * the backend's choices (krn_choices) and replaces what create would
     * pick; an unknown name or a value out of range is an error. Borrowed
     * during create only; NULL and 0: none. */
    const krn_choice *choices;
    int n_choices;
    /* Kernel switches (above); zeroed: the defaults. Checked at create
     * (krn_tuning_check): a value out of range is an error naming it. The
     * choices above, where they name the same switch, win. */
    krn_tuning tuning;
} krn_options;

/* The KV-cache slots a context of kv_capacity positions needs when no batch
 * has more than max_batch_rows rows (64 or less: KRN_MAX_ROWS, as
 * krn_options): all
 * of them, or with a sliding window a ring of window + max_batch_rows - 1
 * slots (position p lives in slot p % slots). The ring is that large so that
 * a step of up to B rows writing positions L..L+B-1 overwrites only
 * positions at or before L - window, which no row at L or later reads — not
 * the step's own first row, which reads back to L - window + 1 after every
 * row of the step has written its K/V, nor a later step after a verify
 * step whose rows were rolled back. */
int32_t krn_kv_slots(const krn_model *m, int32_t kv_capacity, int32_t max_batch_rows);

/* The batch row whose logits are a batch's logits row 0: 0 for a batch of
 * up to KRN_MAX_ROWS rows, else n_rows - KRN_MAX_ROWS (krn_batch: the
 * logits buffer holds a batch's last 64 rows at most). */
static inline int krn_logits_row0(int n_rows) {
    return n_rows > KRN_MAX_ROWS ? n_rows - KRN_MAX_ROWS : 0;
}

/* One forward step. Row r embeds tokens[r] at position pos[r], writes its
 * key and value into KV slot pos[r] % slots, attends to positions
 * max(0, pos[r] - window + 1) .. pos[r] (whose keys the cache must hold:
 * earlier steps' or this batch's), and, from row logits_from on, writes
 * n_vocab logits to logits + (r - krn_logits_row0(n_rows)) * n_vocab: for a
 * batch of up to 64 rows, logits + r * n_vocab; a larger one (a prefill
 * chunk, up to the backend's max_batch_rows) keeps the logits of its last
 * 64 rows at most, so it must have logits_from >= n_rows - KRN_MAX_ROWS
 * (an error otherwise) and its logits buffer holds 64 rows, the last at
 * logits + 63 * n_vocab. Rows are independent: row r's logits are the
 * same bits whatever the other rows are, how many there are, and whether
 * the rows before it had theirs computed.
 *
 * logits_from exists for prefill, where only the prompt's last row is
 * sampled: the LM head (n_vocab x n_embd, the largest matmul) would
 * otherwise run for every row. Rows before it still write their K/V; their
 * logits rows may be left unwritten, and a backend may still write them:
 * the CPU backend skips their output norm and LM head; the CUDA backend
 * skips them only when no row wants logits (logits_from = n_rows: its
 * graphs are captured per row bucket, with the LM head over all rows or
 * none; a batch above 64 rows, run without a graph, has it over its last
 * 64) and copies back rows logits_from.. only. Read only rows from
 * logits_from on. Batches above 64 rows on the CUDA backend are written
 * but not yet run on a GPU (tests/gpu/test_cuda_backend.c checks them). */
typedef struct krn_batch {
    int n_rows;             /* 1..KRN_MAX_ROWS, or up to the backend's
                               krn_options.max_batch_rows */
    const int32_t *tokens;  /* n_rows ids, each < n_vocab */
    const int32_t *pos;     /* n_rows positions, each < kv_capacity */
    float *logits;          /* min(n_rows, KRN_MAX_ROWS) * n_vocab; rows
                               logits_from.. written (above) */
    int logits_from;        /* 0..n_rows: the first row whose logits are
                               needed; 0 (a zeroed batch's): every row,
                               n_rows: none. Above 64 rows: at least
                               n_rows - KRN_MAX_ROWS */
} krn_batch;

typedef struct krn_backend krn_backend;

/* The CPU reference backend. `model` (and the weights it points to) is
 * borrowed until krn_destroy. Returns NULL and fills err on a bad shape or
 * when memory for the KV cache cannot be had. */
krn_backend *krn_cpu_create(const krn_model *model, const krn_options *opt,
                            sb_err *err);
/* The CUDA backend; NULL with a clear error when no GPU is present or when
 * this build has no CUDA. */
krn_backend *krn_cuda_create(const krn_model *model, const krn_options *opt,
                             sb_err *err);
/* True when this build compiled the CUDA backend. */
bool krn_cuda_built(void);

/* Runs one step; fails (without touching the KV cache) on a bad batch. */
int krn_forward(krn_backend *b, const krn_batch *batch, sb_err *err);
/* Short backend name for reports: "cpu", "cuda". */
const char *krn_backend_name(const krn_backend *b);
void krn_destroy(krn_backend *b);

/* Host memory for batches' logits that b fills fastest: page-locked for
 * CUDA (the copy off the GPU then runs at the link's speed instead of
 * through the driver's staging buffer), plain malloc for the CPU. Free it
 * with krn_host_free on the same backend, before krn_destroy. NULL when out
 * of memory. */
void *krn_host_alloc(krn_backend *b, size_t bytes);
void krn_host_free(krn_backend *b, void *p);

/* Device memory the backend took at create (weights, KV cache, scratch,
 * warmed-up graphs: the free memory it used up, read from the driver);
 * and the device's memory in use by everything (this process's context
 * included) right after. 0 and 0 for the CPU backend. */
void krn_device_memory(const krn_backend *b, int64_t *backend_bytes,
                       int64_t *device_used_bytes);

/* The device's name, for logs and reports: the GPU's as its driver gives it
 * ("NVIDIA H200"); for the CPU backend, the CPU's model from /proc/cpuinfo,
 * or "cpu" where that says none. Static storage, read once; never NULL. */
const char *krn_device_name(const krn_backend *b);

/* The launch choices b made at create (defaults, krn_options.tuning's
 * switches, then krn_options.choices), in a fixed order; *out points into
 * b, valid until krn_destroy. The CPU backend has none (0). */
int krn_choices(const krn_backend *b, const krn_choice **out);
/* How many timings create ran to choose (0 when every choice came from a
 * default or from krn_options.choices; today no backend times). */
int krn_measurements(const krn_backend *b);

#endif /* SB_KERNELS_H */
