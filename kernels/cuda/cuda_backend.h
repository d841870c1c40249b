// cuda_backend.h — private to kernels/cuda/: the CUDA backend's state and
// the launchers of its operators (one per kernels/cuda/<op>.cu), included
// by .cu files only.
//
// Every operator matches the float order stated in kernels/cpu/<op>.c (the
// same name); each kernel's comment states how it does. Every buffer is
// sized at create time for base.max_batch_rows rows (KRN_MAX_ROWS unless
// krn_options asked for more; the logits for KRN_MAX_ROWS always); a step
// never allocates. Row r of a (rows, n) buffer starts at r * n. Device
// pointers are owned by the backend and freed by krn_destroy. Batches above
// 64 rows (forward.cu) are written but not yet run on a GPU.
#ifndef SB_KERNELS_CUDA_BACKEND_H
#define SB_KERNELS_CUDA_BACKEND_H

#include <cuda_runtime.h>

#include "common.cuh"

extern "C" {
#include "../backend_impl.h"
}

// A weight matrix on the device: the file's bytes, unchanged, where the
// embedding or a 32-element-type or float matmul reads them; for a K-quant
// matrix a matmul reads, its records rearranged for the tensor cores
// (kquant.cuh, written by repack.cu).
typedef struct krn_cuda_mat {
    krn_type type;
    int64_t ne0, ne1;       // ne1 rows of ne0 inputs
    uint64_t row_bytes;
    const uint8_t *data;    // device, ne1 * row_bytes, or NULL where unused
    const uint8_t *packed;  // device, krn_cuda_kq_bytes(), or NULL
} krn_cuda_mat;

typedef struct krn_cuda_layer {
    krn_cuda_mat wq, wk, wv, wo, w_gate, w_up, w_down;
    const float *attn_norm, *ffn_norm;  // (n_embd) device
    const float *bq, *bk, *bv;          // (q_dim), (kv_dim), (kv_dim) device
} krn_cuda_layer;

// A batch of quantized activation rows (krn_quantize_act of each row), in
// act.cuh's layout: row r's int8 codes at q + r * q_stride, its group
// scales dx at d + r * d_stride, its block sums at s + r * s_stride.
typedef struct krn_cuda_act {
    int8_t *q;
    float *d;
    int16_t *s;
    int64_t q_stride, d_stride, s_stride; // q_stride % 64 == 0, s_stride % 8 == 0
} krn_cuda_act;

// A matmul input quantized both ways a matmul may read it (kernels.h §2):
// in groups of 256 for K-quant weights (written only for rows that are
// whole super-blocks) and in groups of 32 for the other types.
typedef struct krn_cuda_acts {
    krn_cuda_act g256, g32;
} krn_cuda_acts;

// Kernel choices, fixed at create time from krn_options.tuning (kernels.h's
// krn_tuning, which names each field's environment variable; programs read
// those once at start, docs/environment.md) and then the imported choices
// (krn_options.choices). Every choice gives the same bits:
//   tuning.no_matmul_split  never split a quantized matmul's K range into
//                           its chunks across blocks (matmul.cu; by default
//                           mmq.cu splits launches too small to fill the GPU)
//   tuning.mmvq_rows        K-quant matmuls of steps of up to N rows (0..16;
//                           default 8) run mmvq.cu, more run mmq.cu
//                           (matmul.cu)
//   tuning.mmvq_warps       mmvq.cu gives a tile fewer warps than chunks
//                           (each walking several) to aim at about N warps
//                           per SM; 0: a warp a chunk (faster on the H100 at
//                           every N tried)
//   tuning.attention        attention: split-KV (chunks in parallel, then a
//                           merge); rows = split-KV whose chunk blocks each
//                           take a tile of rows (head_dim 64 or 128; else
//                           split-KV); or ref, the first one-block-per-head
//                           kernel. Auto (the default): that kernel for
//                           single-chunk steps of up to 16 rows, rows for
//                           steps of 4+ rows whose grid has a block per SM,
//                           else split-KV (attention.cu)
//   tuning.no_graphs        launch every kernel of a step directly instead
//                           of replaying a CUDA graph per row count
//   tuning.launch_overlap   which kernels may start during the tail of the
//                           one before (sm_90+; bits of common.cuh's
//                           KRN_CUDA_PDL_*; none, 15: all; default 5)
//   tuning.profile          time each stage (events; graphs off); the table
//                           is printed to stderr by krn_destroy
typedef struct krn_cuda_cfg {
    int mm_split;      // quantized matmuls may split K (!tuning.no_matmul_split)
    int mmvq_rows;     // K-quant steps of up to this many rows run mmvq.cu
                       // (0..16; tuning.mmvq_rows, default 8)
    int mmvq_warps;    // mmvq.cu's warps per SM to aim for (tuning.mmvq_warps; 0: a warp a chunk)
    int sms;           // the GPU's multiprocessors
    float *mm_part;    // split partials (device, mm_part_cap floats)
    int64_t mm_part_cap;
    int *mm_count;     // split arrival counts (device, mm_count_cap, zeroed)
    int64_t mm_count_cap;
    int attn;          // 0 auto (rows or split), 1 ref, 2 rows, 3 split
    int graphs;        // 1: CUDA graphs (forward.cu)
    // What the launchers need of the device and of the choices above, set
    // at create; each backend has its own (none is a file-scope variable,
    // so backends of one process with different settings never mix them):
    int pdl_mask;      // kinds of kernel that may start early (common.cuh's
                       // KRN_CUDA_PDL_*: krn_tuning.launch_overlap's or the
                       // default, then the choices: krn_cuda__apply_choices)
    int attn_optin;    // shared memory a block may opt in to (krn_cuda_attention_setup)
    int mmq_stages;    // mmq.cu's pipeline stages: 3, or 2 where the GPU's
                       // shared memory holds no more (krn_cuda_mmq_setup)
} krn_cuda_cfg;

// The choices above as krn_choices lists them (kernels.h), in this order.
enum { KRN_CUDA__N_CHOICES = 4 };

// tuning.profile: events between the stages of a step (forward.cu).
enum {
    KRN_CUDA__ST_START, KRN_CUDA__ST_EMBED, KRN_CUDA__ST_NORM, KRN_CUDA__ST_QKV,
    KRN_CUDA__ST_ROPE, KRN_CUDA__ST_ATTN, KRN_CUDA__ST_ATTQ, KRN_CUDA__ST_O,
    KRN_CUDA__ST_GATEUP, KRN_CUDA__ST_SWIGLU, KRN_CUDA__ST_DOWN, KRN_CUDA__ST_HEAD,
    KRN_CUDA__ST_COPY, KRN_CUDA__N_STAGES,
    KRN_CUDA__PROF_EVENTS = 2048,
    KRN_CUDA__PROF_BIG = KRN_MAX_ROWS + 1, // the row of every step above 64 rows
};

typedef struct krn_cuda_prof {
    cudaEvent_t ev[KRN_CUDA__PROF_EVENTS];
    int stage[KRN_CUDA__PROF_EVENTS];
    int n_ev;
    double ms[KRN_CUDA__PROF_BIG + 1][KRN_CUDA__N_STAGES]; // [rows bucket][stage]
    long steps[KRN_CUDA__PROF_BIG + 1];
} krn_cuda_prof;

// The attention chunks a step's rows span (host-known: the launches' shape
// follows it): absolute chunks c_lo .. c_lo + nc - 1.
typedef struct krn_cuda_span {
    int32_t c_lo, nc;
} krn_cuda_span;

// A captured step for one row count (forward.cu).
typedef struct krn_cuda_graph {
    cudaGraphExec_t exec;      // NULL until captured
    krn_cuda_span span;        // the attention chunks it was captured for
} krn_cuda_graph;

typedef struct krn_cuda {
    krn_backend base;          // first: a krn_cuda * is a krn_backend *
    cudaStream_t stream;       // owned
    int device;
    krn_cuda_cfg cfg;
    int64_t n_embd, n_ff, q_dim, kv_dim, max_in;
    krn_cuda_layer *layers;    // n_layer entries, host, owned
    krn_cuda_mat tok_embd, output;
    const float *output_norm;  // (n_embd) device
    void **allocs;             // every device allocation, owned; n_allocs
    int n_allocs, cap_allocs;
    uint16_t *k_cache;         // (n_layer, kv_slots, kv_dim) fp16
    uint16_t *v_cache;         // same shape
    float *rope_cos, *rope_sin;// (kv_capacity, head_dim/2), the host's table
    int32_t *tokens, *pos;     // (rows) this step's rows
    float *x;                  // (rows, n_embd) residual stream
    float *h;                  // (rows, n_embd) normed input of a matmul
    float *q;                  // (rows, q_dim)
    float *k, *v;              // (rows, kv_dim) each
    float *att;                // (rows, q_dim) attention output
    float *g, *u;              // (rows, n_ff) each; g then holds silu(g)*u
    float *logits;             // (64, n_vocab): a batch's last 64 rows at most
    krn_cuda_acts xq;          // (rows, max_in) a matmul's quantized input
    krn_cuda_graph graphs[2][KRN_MAX_ROWS + 1]; // [with the LM head][row bucket] (cfg.graphs)
    krn_cuda_prof *prof;       // tuning.profile, else NULL; owned
    float *attn_part;          // split-KV chunk states, attn_slots of them,
    float *attn_run;           // and (rows, n_head) running states, each
    int64_t attn_slots;        // (head_dim + 2) floats: m, l, acc[head_dim]
    int64_t mem_taken, mem_used; // krn_device_memory's figures
    krn_choice choices[KRN_CUDA__N_CHOICES]; // krn_choices: cfg's choices
} krn_cuda;

// ---- launchers (each checks its shapes and the launch; -1 fills err) ------
// Each launches on ex: the backend's stream and PDL mask (common.cuh's
// krn_cuda_exec, from the backend's cfg: forward.cu's krn_cuda__exec).

// embed.cu: x[r] = dequantized row tokens[r] of tok.
int krn_cuda_embed(const krn_cuda_mat *tok, const int32_t *tokens, int n_rows,
                   float *x, krn_cuda_exec ex, sb_err *err);

// rmsnorm.cu: y[r] = rmsnorm(x[r]) * w, and its quantization into xq.
int krn_cuda_rmsnorm_quant(const float *x, const float *w, float eps,
                           int64_t n, int n_rows, float *y, const krn_cuda_acts *xq,
                           krn_cuda_exec ex, sb_err *err);

// act_quantize.cu: xq[r] = krn_quantize_act(x[r]) for rows of n floats.
int krn_cuda_quantize(const float *x, int64_t n, int n_rows, const krn_cuda_acts *xq,
                      krn_cuda_exec ex, sb_err *err);
// The shape check of every launch that quantizes rows into xq:
// 1..KRN_MAX_BATCH_ROWS rows of n floats, n a positive multiple of 32 that xq's rows hold; else
// an error in fn's name.
int krn_cuda_check_act_rows(const char *fn, int64_t n, int n_rows, const krn_cuda_acts *xq,
                            sb_err *err);

// matmul.cu: y[r*ldy + o] = W[o,:]·x_r (+ bias[o]) or y + W[o,:]·x_r
// (accumulate), for every output o of w and batch row r < n_rows. x is the
// float input (float weights), xq its quantization (quantized weights).
typedef struct krn_cuda_mm {
    const krn_cuda_mat *w;
    const float *x;             // (n_rows, w->ne0)
    const krn_cuda_act *xq;     // (n_rows, w->ne0) quantized
    const float *bias;          // (w->ne1) or NULL
    bool accumulate;
    float *y;
    int64_t ldy;
    int n_rows;
} krn_cuda_mm;

// Runs mm[0..n-1] (n <= 3), which read the same input: consecutive entries
// of one quantized type and input width share a launch. Each output is the
// same bits as its own krn_cuda_matmul would give.
int krn_cuda_matmul(const krn_cuda_mm *mm, int n, const krn_cuda_cfg *cfg,
                    krn_cuda_exec ex, sb_err *err);
// mm_float.cu: one float-weight matrix (matmul.cu dispatches to it).
int krn_cuda_matmul_f(const krn_cuda_mm *mm, krn_cuda_exec ex, sb_err *err);

// matmul.cu: cfg's matmul fields from the tuning t (checked) and the
// device, and the shared-memory limits the tensor-core kernels need, set
// once.
int krn_cuda_matmul_setup(krn_cuda_cfg *cfg, const krn_tuning *t, int device, sb_err *err);

// repack.cu: bytes of a K-quant matrix's records (kquant.cuh), and the
// records of m written to dst from `staged`, the file's bytes of rows
// row0 .. row0 + n_rows - 1 (row0 and n_rows multiples of 16, or n_rows the
// rest of the matrix) already on the device.
uint64_t krn_cuda_kq_bytes(krn_type type, int64_t ne0, int64_t ne1);
int krn_cuda_repack(const krn_cuda_mat *m, const uint8_t *staged, int64_t row0, int64_t n_rows,
                    uint8_t *dst, cudaStream_t s, sb_err *err);

// rope.cu: RoPE on q and k at pos[r], then K and V as fp16 into slot
// pos[r] % kv_slots of layer il's cache.
typedef struct krn_cuda_rope_kv {
    float *q, *k;               // (n_rows, q_dim), (n_rows, kv_dim), in place
    const float *v;             // (n_rows, kv_dim)
    const float *cos, *sin;     // (kv_capacity, half)
    const int32_t *pos;         // (n_rows) device
    uint16_t *k_cache, *v_cache;// the layer's (kv_slots, kv_dim) slabs
    int32_t n_head, n_head_kv, head_dim;
    int n_rows;
    int32_t kv_slots;
} krn_cuda_rope_kv;

int krn_cuda_rope_kv_write(const krn_cuda_rope_kv *a, krn_cuda_exec ex, sb_err *err);

// attention.cu: att[r, head] = attention of q[r, head] over positions
// max(0, pos[r] - window + 1) .. pos[r] of the layer's cache (position t in
// slot t % kv_slots).
typedef struct krn_cuda_attn {
    const float *q;             // (n_rows, n_head*head_dim), after RoPE
    const uint16_t *k_cache, *v_cache; // the layer's slabs
    const int32_t *pos;         // (n_rows) device
    float *out;                 // (n_rows, n_head*head_dim)
    int32_t n_head, n_head_kv, head_dim;
    int n_rows;
    krn_cuda_span span;         // covers every row's chunks
    int32_t window, kv_slots;   // the model's window (0: none); the ring
    float *part, *run;          // split-KV scratch (krn_cuda fields)
    int64_t slots;
    int mode;                   // krn_cuda_cfg.attn
} krn_cuda_attn;

// cfg gives the GPU's limits (sms, attn_optin); a->mode picks the kernel.
int krn_cuda_attention(const krn_cuda_attn *a, const krn_cuda_cfg *cfg, krn_cuda_exec ex,
                       sb_err *err);
// attention.cu: cfg->attn_optin, and the shared-memory limit of the
// split-KV kernel for head_dim, set once at create time.
int krn_cuda_attention_setup(krn_cuda_cfg *cfg, int32_t head_dim, int32_t group, sb_err *err);

// ffn.cu: g = silu(g) * u over n_rows rows of n elements, and
// xq[r] = krn_quantize_act(g[r]).
int krn_cuda_swiglu_quant(float *g, const float *u, int64_t n, int n_rows,
                          const krn_cuda_acts *xq, krn_cuda_exec ex, sb_err *err);

// forward.cu: the step (called with a batch krn_forward checked).
int krn_cuda_forward(krn_backend *b, const krn_batch *batch, sb_err *err);
// forward.cu: captures every row bucket's graph and replays each once (at
// create, so the first real steps pay no capture or module loading). Uses
// KV slot 0, which holds nothing yet. Nothing to do with graphs off.
int krn_cuda_warm_up(krn_cuda *c, sb_err *err);
// forward.cu: the tuning.profile table, to stderr (nothing when off).
void krn_cuda_prof_print(const krn_cuda *c);

#endif // SB_KERNELS_CUDA_BACKEND_H
