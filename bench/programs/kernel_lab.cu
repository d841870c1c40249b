/*
 * kernel_lab — one kernel of the CUDA backend alone, against the memory
 * floor: how fast is kernel X at shape Y, and how far from a copy of the
 * same bytes. A device call changes one kernel and reads its line again.
 *
 * usage: kernel_lab MODEL.gguf --kernel KERNEL [--matrix M] [--rows R]
 *            [--depth D] [--layer L] [--reps N] [--launches N] [--direct]
 *            [--json FILE] [--plan]
 *        kernel_lab MODEL.gguf --all [--rows R] [--depth D] [--reps N]
 *            [--launches N] [--direct] [--json FILE] [--plan]
 *   KERNEL   matmul (the kernel the backend picks for R rows: mmvq, mmq,
 *            block32 or float), mmvq or mmq (forced; K-quant matrices,
 *            mmvq up to 16 rows), rmsnorm (krn_cuda_rmsnorm_quant),
 *            quantize, swiglu (swiglu_quant), rope (rope_kv_write),
 *            attention
 *   M        q k v o gate up down head (one matrix; required by the three
 *            matmul kernels), or qkv / gateup: the one call the step makes
 *            for those matrices together
 *   R        rows of the step, 1..64 (default 1); D the KV depth (default
 *            0): the rows sit at positions D .. D+R-1
 *   L        the layer whose weights are read first (default 0)
 *   --reps N     graph replays, the median kept (default 20)
 *   --launches N launches per replay (default 64; more when the rotation
 *                below needs more)
 *   --direct     launch without a CUDA graph (what Nsight Compute times)
 *   --all    a decode step's kernels in the step's order, one line each
 *            (the backend's own matmul choice), then q, k, v, gate and up
 *            alone; a matrix group whose types differ between layers
 *            (Q4_K_M's attn_v and ffn_down) gets a line per set of types;
 *            "step" is how many launches of the line a step makes, and the
 *            last lines sum them: bytes, kernel time, the floors
 *   --json FILE  the same figures as JSON
 *   --plan   the lines' shapes, types and bytes only, without a GPU (check
 *            a table before spending device time)
 * SB_CUDA_* (docs/environment.md) pass through to the backend as in sb.
 *
 * The model is loaded as the engine loads it and the backend made by
 * krn_cuda_create, so every layout (the K-quants' repacked records, the
 * quantized rows, the fp16 KV cache) is the backend's own; its per-layer
 * matrices and scratch are reached through cuda_backend.h's krn_cuda.
 *
 * A line: the kernel and the matmul path it took (mixed: a group whose
 * types take two), the matrix and shape (inputs x outputs), types, rows,
 * depth; us, the median time of one launch (a replay of N launches / N);
 * bytes, the least the launch must move (bench.h, bench_*_traffic:
 * weights, activations, KV cache); GB/s = bytes / time; floor_us, the
 * lab's copy kernel moving as many bytes (half read, half written) timed
 * the same way, launch costs and all; %floor = floor_us / us (above 100%
 * where a kernel starts its weight loads before the launch ahead of it ends,
 * as mmvq does and the copy does not); TOP/s for
 * matmuls (2 ops a weight a row); set_MB, what the rotation below reads.
 * Above the table, the device's copy bandwidth (bench_device_copy_gbs, 1
 * GiB): bytes / that is the floor of a large launch, floor_us also pays a
 * small one's launch.
 *
 * Cold weights: a step reads each weight once, from DRAM; N launches of one
 * matrix would read it from the L2 cache (50 MB on an H100) after the
 * first. Each launch therefore reads the next of a rotation of copies of
 * the matrix (byte copies of the backend's buffers), at least 4 x L2 in
 * all; attention and rope rotate over the layers' KV slabs, rmsnorm over
 * the layers' norm weights. Activations are not rotated: in a step the
 * kernel before writes them, so they sit in L2 there too. The copy floor
 * rotates over as many bytes as the launches move. The scratch is filled
 * with fresh values before each line.
 *
 * One device call (build here, where nvcc is; the device machine has no
 * build tools). Here:
 *   nice make BUILD=build-gpu CUDA_ARCHS=90 -j2 build-gpu/sb \
 *       build-gpu/engine_steps build-gpu/kernel_lab
 *   bench/programs/gpu_pack.sh build-gpu build-gpu/pack/lab.tar.xz
 * then the device tool's run, carry ["build-gpu/pack"], command:
 *   LAB="--all" LAB_ONLY=1 OUT=$OUT bash bench/programs/gpu_session.sh \
 *       new=build-gpu/pack/lab.tar.xz
 * (it unpacks, makes the 7b Q4_K_M model with sb mkmodel, ~10 s on 16
 * cores, and prints $OUT/lab-new.txt; name a second archive, old=..., to
 * get the same lines from another build). By hand, one kernel, and one
 * launch of it under Nsight Compute:
 *   mkdir -p /tmp/sb && tar -xJf build-gpu/pack/lab.tar.xz -C /tmp/sb &&
 *   /tmp/sb/sb mkmodel --shape 7b --quant q4_k_m --seed 1 --threads 16
 *       --quiet -o /tmp/m.gguf &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --all --json $OUT/lab.json &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --all --rows 8 --depth 4096 &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --kernel mmvq --matrix q --rows 1 &&
 *   ncu --clock-control none -k regex:mmvq --launch-skip 70 --launch-count 1
 *       --section SpeedOfLight --section MemoryWorkloadAnalysis
 *       /tmp/sb/kernel_lab /tmp/m.gguf --kernel mmvq --matrix q --direct
 *       --reps 1 > $OUT/ncu-mmvq-q.txt
 * (the backend's load takes ~15 s a run; --launch-skip 70 passes the
 * untimed first 64 launches). Changing a kernel: rebuild kernel_lab here
 * (it links libsb.a), pack, run its line again.
 *
 * Calls into the backend's internals are in one section below ("the
 * backend's launchers"), so a change of their signatures is one place.
 * The copy kernel (the floor) lives only here: the product never builds
 * this file (Makefile: `make BUILD=build-gpu kernel-lab`).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "../lib/bench.h"
}
#include "../../kernels/cuda/cuda_backend.h"
#include "../../kernels/cuda/mmq.cuh"

// The commit the build was made at (Makefile: a one-line object made with
// every link of kernel_lab).
extern "C" const char kernel_lab_commit[];

enum {
    LAB_MIN_LAUNCHES = 64,
    LAB_MAX_LAUNCHES = 4096,
    LAB_MAX_COPIES = 1024,
    LAB_MAX_REPS = 1000,
    LAB_ROTATE_L2 = 4,        // a rotation reads at least 4 x the L2 cache
    LAB_MAX_CASES = 128,
    LAB_MAX_DEPTH = 1 << 20,
};
static const uint64_t LAB_ROTATE_MIN = 128ull << 20; // ... and 128 MiB

typedef enum lab_kind {
    LAB_MATMUL, LAB_MMVQ, LAB_MMQ, LAB_RMSNORM, LAB_QUANTIZE, LAB_SWIGLU, LAB_ROPE,
    LAB_ATTENTION, LAB_N_KINDS
} lab_kind;
static const char *const lab_kind_names[LAB_N_KINDS] = {
    "matmul", "mmvq", "mmq", "rmsnorm", "quantize", "swiglu", "rope", "attention"};

typedef enum lab_matrix {
    LAB_Q, LAB_K, LAB_V, LAB_O, LAB_GATE, LAB_UP, LAB_DOWN, LAB_HEAD, LAB_QKV, LAB_GATEUP,
    LAB_N_MATRICES, LAB_NO_MATRIX = -1
} lab_matrix;
static const char *const lab_matrix_names[LAB_N_MATRICES] = {
    "q", "k", "v", "o", "gate", "up", "down", "head", "qkv", "gateup"};

static bool lab_is_matmul(lab_kind k) { return k == LAB_MATMUL || k == LAB_MMVQ || k == LAB_MMQ; }

typedef struct lab_opts {
    const char *model, *json;
    int kind;       // lab_kind, or -1 with --all
    int matrix;     // lab_matrix, or LAB_NO_MATRIX
    int rows, layer, reps, launches;
    int32_t depth;
    bool all, direct, plan;
    krn_tuning tuning; // the kernel switches, read once in main (SB_CUDA_*)
} lab_opts;

// One timed launch kind: what it runs, what it must move, what it rotates
// over, and what it measured.
typedef struct lab_case {
    lab_kind kind;
    lab_matrix matrix;
    int layer;              // copy 0's weights are this layer's
    int per_step;           // launches like it in a decode step; 0: none (--all's "alone")
    int rows;
    int32_t depth;
    bench_traffic traffic;
    char types[40];         // "q4_K", "q4_K,q4_K,q6_K"; "f32" for activations
    char shape[48];         // "3584x4608" (inputs x outputs), "rows of 3584"
    char path[16];          // the matmul kernel the call takes
    int copies;             // the rotation's sets of inputs
    uint64_t set_bytes;     // what the rotation reads in all
    krn_cuda_mat *mats;     // matmuls: copies x n matrices, copy 0 the backend's (owned)
    void **allocs;          // the copies' device buffers (owned)
    int n_allocs;
    int launches;
    double us, floor_us;
} lab_case;

// The machine and the backend every case runs on.
typedef struct lab_rig {
    krn_backend *b;
    krn_cuda *c;            // b, as the CUDA backend
    const krn_model *m;
    int sms, cc_major;
    uint64_t l2_bytes, rotate_bytes;
    double copy_gbs;        // 0: unmeasured
    uint8_t *floor_src, *floor_dst; // the copy floor's buffers, floor_cap bytes each
    uint64_t floor_cap;
    cudaEvent_t ev0, ev1;
} lab_rig;

static void lab_case_free(lab_case *k) {
    for (int i = 0; i < k->n_allocs; i++) cudaFree(k->allocs[i]);
    free(k->allocs);
    free(k->mats);
    k->allocs = NULL, k->mats = NULL, k->n_allocs = 0;
}

// The model's matrices of `matrix` in layer il, in the order of the call
// (kernels.h's krn_model: types and shapes).
static int lab_host_tensors(const krn_model *m, int il, lab_matrix matrix,
                            const krn_tensor *t[3]) {
    const krn_layer *h = &m->layers[il];
    int n = 0;
    if (matrix == LAB_Q || matrix == LAB_QKV) t[n++] = &h->wq;
    if (matrix == LAB_K || matrix == LAB_QKV) t[n++] = &h->wk;
    if (matrix == LAB_V || matrix == LAB_QKV) t[n++] = &h->wv;
    if (matrix == LAB_O) t[n++] = &h->wo;
    if (matrix == LAB_GATE || matrix == LAB_GATEUP) t[n++] = &h->w_gate;
    if (matrix == LAB_UP || matrix == LAB_GATEUP) t[n++] = &h->w_up;
    if (matrix == LAB_DOWN) t[n++] = &h->w_down;
    if (matrix == LAB_HEAD) t[n++] = &m->output;
    return n;
}

// ---- the backend's launchers (the only calls into kernels/cuda's internals) --

static cudaStream_t lab_stream(const krn_cuda *c) { return c->stream; }

// The launchers' stream and launch-overlap mask, as forward.cu passes them.
static krn_cuda_exec lab_exec(const krn_cuda *c) {
    const krn_cuda_exec ex = {c->stream, c->cfg.pdl_mask};
    return ex;
}

// A matmul call as forward.cu makes it: the matrices of `matrix` in layer
// il, their input rows, biases and outputs.
typedef struct lab_group {
    int n;
    const krn_cuda_mat *mat[3];  // the backend's
    const krn_tensor *host[3];   // the model's: types and shapes
    krn_cuda_mm mm[3];
    const float *x;              // the input rows (floats), width mat[0]->ne0
} lab_group;

static void lab_group_add(lab_group *g, const krn_cuda *c, const krn_cuda_mat *w,
                          const krn_tensor *t, const float *bias, bool accumulate, float *y,
                          int64_t ldy, int rows) {
    krn_cuda_mm *mm = &g->mm[g->n];
    memset(mm, 0, sizeof *mm);
    mm->w = w;
    mm->x = g->x;
    mm->xq = krn_type_is_kquant(w->type) ? &c->xq.g256 : &c->xq.g32;
    mm->bias = bias;
    mm->accumulate = accumulate;
    mm->y = y;
    mm->ldy = ldy;
    mm->n_rows = rows;
    g->mat[g->n] = w;
    g->host[g->n] = t;
    g->n++;
}

static void lab_group_fill(const krn_cuda *c, const krn_model *m, int il, lab_matrix matrix,
                           int rows, lab_group *g) {
    const krn_cuda_layer *l = &c->layers[il];
    const krn_layer *h = &m->layers[il];
    memset(g, 0, sizeof *g);
    g->x = matrix == LAB_O ? c->att : matrix == LAB_DOWN ? c->g : c->h;
    if (matrix == LAB_Q || matrix == LAB_QKV)
        lab_group_add(g, c, &l->wq, &h->wq, l->bq, false, c->q, c->q_dim, rows);
    if (matrix == LAB_K || matrix == LAB_QKV)
        lab_group_add(g, c, &l->wk, &h->wk, l->bk, false, c->k, c->kv_dim, rows);
    if (matrix == LAB_V || matrix == LAB_QKV)
        lab_group_add(g, c, &l->wv, &h->wv, l->bv, false, c->v, c->kv_dim, rows);
    if (matrix == LAB_O) lab_group_add(g, c, &l->wo, &h->wo, NULL, true, c->x, c->n_embd, rows);
    if (matrix == LAB_GATE || matrix == LAB_GATEUP)
        lab_group_add(g, c, &l->w_gate, &h->w_gate, NULL, false, c->g, c->n_ff, rows);
    if (matrix == LAB_UP || matrix == LAB_GATEUP)
        lab_group_add(g, c, &l->w_up, &h->w_up, NULL, false, c->u, c->n_ff, rows);
    if (matrix == LAB_DOWN)
        lab_group_add(g, c, &l->w_down, &h->w_down, NULL, true, c->x, c->n_embd, rows);
    if (matrix == LAB_HEAD)
        lab_group_add(g, c, &c->output, &m->output, NULL, false, c->logits, m->n_vocab, rows);
}

// The bytes of a matrix's device buffer that a matmul reads, and where.
static const uint8_t *lab_mat_bytes(const krn_cuda_mat *w, uint64_t *bytes) {
    if (w->packed) {
        *bytes = krn_cuda_kq_bytes(w->type, w->ne0, w->ne1);
        return w->packed;
    }
    *bytes = (uint64_t)w->ne1 * w->row_bytes;
    return w->data;
}

// w with its bytes at p instead (a copy of the same bytes).
static krn_cuda_mat lab_mat_at(const krn_cuda_mat *w, const uint8_t *p) {
    krn_cuda_mat copy = *w;
    if (w->packed) copy.packed = p;
    else copy.data = p;
    return copy;
}

// The backend's configuration, with --kernel mmvq / mmq forcing the
// K-quant path: mmvq_rows picks mmvq for steps of up to that many rows.
static krn_cuda_cfg lab_cfg(const krn_cuda *c, lab_kind kind) {
    krn_cuda_cfg cfg = c->cfg;
    if (kind == LAB_MMVQ) cfg.mmvq_rows = KRN_CUDA_MMVQ_MAX_ROWS;
    if (kind == LAB_MMQ) cfg.mmvq_rows = 0;
    return cfg;
}

// The matmul kernel a call of this type and rows takes (matmul.cu).
static const char *lab_matmul_path(const krn_cuda *c, lab_kind kind, krn_type type, int rows) {
    const krn_cuda_cfg cfg = lab_cfg(c, kind);
    if (!krn_type_is_quantized(type)) return "float";
    if (!krn_type_is_kquant(type)) return "block32";
    return rows <= cfg.mmvq_rows ? "mmvq" : "mmq";
}

static int lab_mmvq_max_rows(void) { return KRN_CUDA_MMVQ_MAX_ROWS; }

// The layer of launch i of a case that rotates over the layers.
static int lab_layer_of(const lab_rig *r, const lab_case *k, int i) {
    return (k->layer + i) % r->m->n_layer;
}

// The attention chunks rows at depth .. depth + rows - 1 reach (forward.cu).
static krn_cuda_span lab_span(const krn_model *m, int32_t depth, int rows) {
    int32_t c_lo = INT32_MAX, c_hi = 0;
    for (int i = 0; i < rows; i++) {
        const int32_t p = depth + i;
        const int32_t first = m->window > 0 && p >= m->window ? p - m->window + 1 : 0;
        if (first / KRN_ATTN_CHUNK < c_lo) c_lo = first / KRN_ATTN_CHUNK;
        if (p / KRN_ATTN_CHUNK > c_hi) c_hi = p / KRN_ATTN_CHUNK;
    }
    krn_cuda_span s;
    s.c_lo = c_lo;
    s.nc = c_hi - c_lo + 1;
    return s;
}

// Launch i of case k: one call of the backend's launcher, on the rotation's
// (i mod copies)th set of inputs.
static int lab_launch(const lab_rig *r, const lab_case *k, int i, sb_err *err) {
    const krn_cuda *c = r->c;
    const krn_model *m = r->m;
    const int n = k->rows, il = lab_layer_of(r, k, i);
    const krn_cuda_exec s = lab_exec(c);
    const int64_t slab = (int64_t)il * c->base.kv_slots * c->kv_dim;
    switch (k->kind) {
    case LAB_MATMUL:
    case LAB_MMVQ:
    case LAB_MMQ: {
        lab_group g;
        lab_group_fill(c, m, k->layer, k->matrix, n, &g);
        for (int j = 0; j < g.n; j++) g.mm[j].w = &k->mats[(i % k->copies) * g.n + j];
        const krn_cuda_cfg cfg = lab_cfg(c, k->kind);
        return krn_cuda_matmul(g.mm, g.n, &cfg, s, err);
    }
    case LAB_RMSNORM:
        return krn_cuda_rmsnorm_quant(c->x, c->layers[il].attn_norm, m->rms_eps, c->n_embd, n,
                                      c->h, &c->xq, s, err);
    case LAB_QUANTIZE:
        return krn_cuda_quantize(c->att, c->q_dim, n, &c->xq, s, err);
    case LAB_SWIGLU:
        return krn_cuda_swiglu_quant(c->g, c->u, c->n_ff, n, &c->xq, s, err);
    case LAB_ROPE: {
        krn_cuda_rope_kv a;
        memset(&a, 0, sizeof a);
        a.q = c->q, a.k = c->k, a.v = c->v, a.cos = c->rope_cos, a.sin = c->rope_sin;
        a.pos = c->pos, a.k_cache = c->k_cache + slab, a.v_cache = c->v_cache + slab;
        a.n_head = m->n_head, a.n_head_kv = m->n_head_kv, a.head_dim = m->head_dim;
        a.n_rows = n, a.kv_slots = c->base.kv_slots;
        return krn_cuda_rope_kv_write(&a, s, err);
    }
    case LAB_ATTENTION: {
        krn_cuda_attn a;
        memset(&a, 0, sizeof a);
        a.q = c->q, a.k_cache = c->k_cache + slab, a.v_cache = c->v_cache + slab;
        a.pos = c->pos, a.out = c->att;
        a.n_head = m->n_head, a.n_head_kv = m->n_head_kv, a.head_dim = m->head_dim;
        a.n_rows = n, a.span = lab_span(m, k->depth, n);
        a.window = m->window, a.kv_slots = c->base.kv_slots;
        a.part = c->attn_part, a.run = c->attn_run, a.slots = c->attn_slots;
        a.mode = c->cfg.attn;
        return krn_cuda_attention(&a, &c->cfg, s, err);
    }
    default:
        return sb_err_set(err, __func__, "no launcher for kernel %d", (int)k->kind);
    }
}

// A matmul's input as the step leaves it: the rows quantized both ways.
static int lab_quantize_input(const lab_rig *r, const lab_group *g, int rows, sb_err *err) {
    return krn_cuda_quantize(g->x, g->mat[0]->ne0, rows, &r->c->xq, lab_exec(r->c), err);
}

// The backend's scratch rows (floats) and KV cache (fp16), to be filled
// with values before timing; positions are written by lab_positions.
typedef struct lab_scratch {
    float *f[8];
    uint64_t nf[8];
    int n;
    uint16_t *kv[2];
    uint64_t nkv;
} lab_scratch;

static lab_scratch lab_scratch_of(const krn_cuda *c, const krn_model *m) {
    lab_scratch s;
    memset(&s, 0, sizeof s);
    float *f[8] = {c->x, c->h, c->q, c->k, c->v, c->att, c->g, c->u};
    const int64_t w[8] = {c->n_embd, c->n_embd, c->q_dim, c->kv_dim, c->kv_dim, c->q_dim,
                          c->n_ff, c->n_ff};
    for (int i = 0; i < 8; i++) s.f[i] = f[i], s.nf[i] = (uint64_t)w[i] * KRN_MAX_ROWS;
    s.n = 8;
    s.kv[0] = c->k_cache, s.kv[1] = c->v_cache;
    s.nkv = (uint64_t)m->n_layer * (uint64_t)c->base.kv_slots * (uint64_t)c->kv_dim;
    return s;
}

static int32_t *lab_positions_buffer(const krn_cuda *c) { return c->pos; }

static int lab_l2_and_sms(const krn_cuda *c, lab_rig *r, sb_err *err) {
    int l2 = 0;
    r->sms = c->cfg.sms;
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, c->device), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&r->cc_major, cudaDevAttrComputeCapabilityMajor,
                                              c->device), err))
        return -1;
    r->l2_bytes = (uint64_t)l2;
    return 0;
}

// The choices the backend made, one line.
static void lab_print_choices(const krn_cuda *c, FILE *out) {
    fprintf(out, "backend choices: mmvq up to %d rows, matmul split %s, attention %s, "
            "launch overlap mask %d, mmvq warps %d\n", c->cfg.mmvq_rows,
            c->cfg.mm_split ? "on" : "off",
            c->cfg.attn == 1 ? "ref" : c->cfg.attn == 2 ? "rows" : c->cfg.attn == 3 ? "split"
                                                                                   : "auto",
            c->cfg.pdl_mask, c->cfg.mmvq_warps);
}

// ---- the floor: the lab's copy kernel -----------------------------------------

// dst[i] = src[i] for n 16-byte words, a grid-stride loop. Starts as early
// as the backend's kernels may (the programmatic launch of common.cuh, when
// the device has it): the floor gets every advantage a kernel could.
__global__ void lab_copy_kernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
                                uint64_t n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = __ldcs(src + i);
}

// Values for the scratch: a hash of the index, floats in (-1, 1), halves in
// (-1, 1) (any values do; these keep every kernel off its NaN paths).
__global__ void lab_fill_f32(float *p, uint64_t n, uint32_t seed) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u ^ seed;
        h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
        p[i] = (float)(int32_t)h * 0x1p-31f;
    }
}

__global__ void lab_fill_f16(uint16_t *p, uint64_t n, uint32_t seed) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u ^ seed;
        h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
        p[i] = (uint16_t)((h & 0x8000u) | 0x3800u | (h & 0x3FFu)); // ±[0.5, 1)
    }
}

// The floor of a case: copy_bytes (16-byte words) per launch, launch i at
// its own place in floor_src/floor_dst so the launches together read as
// many bytes as the case's launches do.
typedef struct lab_floor {
    const lab_rig *r;
    uint64_t words;         // 16-byte words a launch copies
    uint64_t places;        // distinct offsets the launches cycle through
} lab_floor;

static int lab_floor_launch(const lab_floor *f, int i, sb_err *err) {
    const lab_rig *r = f->r;
    const uint64_t off = (uint64_t)(i % (int64_t)f->places) * f->words;
    const unsigned threads = 256;
    uint64_t blocks = (f->words + threads - 1) / threads;
    if (blocks > (uint64_t)r->sms * 16) blocks = (uint64_t)r->sms * 16;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(threads);
    cfg.stream = lab_stream(r->c);
    cfg.attrs = &attr;
    cfg.numAttrs = r->cc_major >= 9 ? 1 : 0;
    const uint4 *src = (const uint4 *)r->floor_src + off;
    uint4 *dst = (uint4 *)r->floor_dst + off;
    return KRN_CUDA_CHECK(cudaLaunchKernelEx(&cfg, lab_copy_kernel, src, dst, f->words), err);
}

// Grows the floor's buffers to bytes each (freed by lab_rig_free).
static int lab_floor_reserve(lab_rig *r, uint64_t bytes, sb_err *err) {
    if (bytes <= r->floor_cap) return 0;
    cudaFree(r->floor_src);
    cudaFree(r->floor_dst);
    r->floor_src = r->floor_dst = NULL;
    r->floor_cap = 0;
    if (KRN_CUDA_CHECK(cudaMalloc(&r->floor_src, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaMalloc(&r->floor_dst, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaMemset(r->floor_src, 0x3c, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaDeviceSynchronize(), err)) // legacy stream: see lab_matmul_copies
        return -1;
    r->floor_cap = bytes;
    return 0;
}

// ---- timing ----------------------------------------------------------------------

typedef int (*lab_launch_fn)(const void *ctx, int i, sb_err *err);

typedef struct lab_kernel_ctx {
    const lab_rig *r;
    const lab_case *k;
} lab_kernel_ctx;

static int lab_kernel_launch(const void *ctx, int i, sb_err *err) {
    const lab_kernel_ctx *x = (const lab_kernel_ctx *)ctx;
    return lab_launch(x->r, x->k, i, err);
}

static int lab_floor_launch_fn(const void *ctx, int i, sb_err *err) {
    return lab_floor_launch((const lab_floor *)ctx, i, err);
}

static int lab_cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// `launches` launches back to back, as one CUDA graph replayed `reps`
// times (or enqueued directly each time), after one untimed pass; the
// median microseconds of a launch into *us.
static int lab_time(const lab_rig *r, lab_launch_fn fn, const void *ctx, int launches, int reps,
                    bool direct, double *us, sb_err *err) {
    const cudaStream_t s = lab_stream(r->c);
    cudaGraphExec_t exec = NULL;
    double *ms = (double *)calloc((size_t)reps, sizeof *ms);
    int rc = ms ? 0 : sb_err_set(err, __func__, "out of memory for %d timings", reps);
    if (rc == 0 && !direct) {
        cudaGraph_t g = NULL;
        rc = KRN_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), err);
        for (int i = 0; rc == 0 && i < launches; i++) rc = fn(ctx, i, err);
        const cudaError_t end = cudaStreamEndCapture(s, &g);
        if (rc == 0) rc = KRN_CUDA_CHECK(end, err);
        if (rc == 0) rc = KRN_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0), err);
        if (g) cudaGraphDestroy(g);
    }
    for (int rep = -1; rc == 0 && rep < reps; rep++) { // rep -1: the untimed pass
        float t = 0.0f;
        rc = KRN_CUDA_CHECK(cudaEventRecord(r->ev0, s), err);
        if (rc == 0 && direct)
            for (int i = 0; rc == 0 && i < launches; i++) rc = fn(ctx, i, err);
        else if (rc == 0)
            rc = KRN_CUDA_CHECK(cudaGraphLaunch(exec, s), err);
        if (rc == 0)
            rc = KRN_CUDA_CHECK(cudaEventRecord(r->ev1, s), err) ||
                 KRN_CUDA_CHECK(cudaEventSynchronize(r->ev1), err) ||
                 KRN_CUDA_CHECK(cudaEventElapsedTime(&t, r->ev0, r->ev1), err);
        if (rc == 0 && rep >= 0) ms[rep] = t;
    }
    if (rc == 0) {
        qsort(ms, (size_t)reps, sizeof *ms, lab_cmp_double);
        *us = ms[reps / 2] * 1e3 / launches;
    }
    if (exec) cudaGraphExecDestroy(exec);
    cudaGetLastError(); // a failed capture leaves its error behind
    free(ms);
    return rc;
}

// ---- cases -----------------------------------------------------------------------

static void lab_types(char *out, size_t cap, const krn_tensor *const *t, int n) {
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i ? "," : "", krn_type_name(t[i]->type));
    }
}

// Copies of the group's matrices until the rotation reads rotate_bytes
// (at most LAB_MAX_COPIES; fewer when the GPU's memory runs out: the
// line then says how many).
static int lab_matmul_copies(const lab_rig *r, const lab_group *g, lab_case *k, sb_err *err) {
    uint64_t one = 0;
    for (int j = 0; j < g->n; j++) {
        uint64_t b = 0;
        lab_mat_bytes(g->mat[j], &b);
        one += b;
    }
    uint64_t want = (r->rotate_bytes + one - 1) / one;
    if (want > LAB_MAX_COPIES) want = LAB_MAX_COPIES;
    k->mats = (krn_cuda_mat *)calloc((size_t)want * (size_t)g->n, sizeof *k->mats);
    k->allocs = (void **)calloc((size_t)want * (size_t)g->n, sizeof *k->allocs);
    if (!k->mats || !k->allocs)
        return sb_err_set(err, __func__, "out of host memory for %llu copies",
                          (unsigned long long)want);
    for (int j = 0; j < g->n; j++) k->mats[j] = *g->mat[j];
    k->copies = 1;
    for (uint64_t cp = 1; cp < want; cp++) {
        bool ok = true;
        for (int j = 0; ok && j < g->n; j++) {
            uint64_t b = 0;
            const uint8_t *src = lab_mat_bytes(g->mat[j], &b);
            void *p = NULL;
            if (cudaMalloc(&p, (size_t)b) != cudaSuccess) {
                cudaGetLastError(); // out of memory: rotate over the copies made
                ok = false;
                break;
            }
            k->allocs[k->n_allocs++] = p;
            if (KRN_CUDA_CHECK(cudaMemcpy(p, src, (size_t)b, cudaMemcpyDeviceToDevice), err))
                return -1;
            k->mats[cp * g->n + j] = lab_mat_at(g->mat[j], (const uint8_t *)p);
        }
        if (!ok) break;
        k->copies++;
    }
    k->set_bytes = one * (uint64_t)k->copies;
    // the copies ran on the legacy stream, which the backend's
    // non-blocking stream does not wait for
    return KRN_CUDA_CHECK(cudaDeviceSynchronize(), err);
}

// A case's shape, types and least traffic, from the model alone (what
// --plan prints before any GPU is asked for), and what the rotation of
// the kernels that are not matmuls reads.
static int lab_case_describe(const krn_model *m, lab_case *k, sb_err *err) {
    const int64_t q_dim = (int64_t)m->n_head * m->head_dim;
    const uint64_t kv_row = (uint64_t)m->n_head_kv * (uint64_t)m->head_dim * sizeof(uint16_t);
    const lab_matrix x = k->matrix;
    snprintf(k->types, sizeof k->types, "f32");
    snprintf(k->path, sizeof k->path, "-");
    k->copies = 1;
    switch (k->kind) {
    case LAB_MATMUL:
    case LAB_MMVQ:
    case LAB_MMQ: { // biases and accumulation as forward.cu's calls have them
        const krn_tensor *t[3];
        const int n = lab_host_tensors(m, k->layer, x, t);
        const bool bias = x == LAB_Q || x == LAB_K || x == LAB_V || x == LAB_QKV;
        if (bench_matmul_traffic(t, n, k->rows, bias, x == LAB_O || x == LAB_DOWN,
                                 &k->traffic, err))
            return -1;
        lab_types(k->types, sizeof k->types, t, n);
        int64_t outs = 0;
        for (int j = 0; j < n; j++) outs += t[j]->ne1;
        snprintf(k->shape, sizeof k->shape, "%lldx%lld", (long long)t[0]->ne0, (long long)outs);
        break;
    }
    case LAB_RMSNORM:
        k->traffic = bench_rmsnorm_traffic(m->n_embd, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %d", (int)m->n_embd);
        k->copies = m->n_layer; // each layer's norm weights
        k->set_bytes = (uint64_t)m->n_layer * (uint64_t)m->n_embd * sizeof(float);
        break;
    case LAB_QUANTIZE:
        k->traffic = bench_quantize_traffic(q_dim, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %lld", (long long)q_dim);
        break;
    case LAB_SWIGLU:
        k->traffic = bench_swiglu_traffic(m->n_ff, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %d", (int)m->n_ff);
        break;
    case LAB_ROPE:
        k->traffic = bench_rope_traffic(m, k->rows);
        snprintf(k->shape, sizeof k->shape, "%d+%d heads of %d", (int)m->n_head,
                 (int)m->n_head_kv, (int)m->head_dim);
        snprintf(k->types, sizeof k->types, "f32>f16");
        k->copies = m->n_layer; // each layer's KV slab
        k->set_bytes = (uint64_t)m->n_layer * (uint64_t)k->rows * 2 * kv_row;
        break;
    case LAB_ATTENTION: {
        k->traffic = bench_attention_traffic(m, k->depth, k->rows);
        snprintf(k->shape, sizeof k->shape, "%d/%d heads of %d", (int)m->n_head,
                 (int)m->n_head_kv, (int)m->head_dim);
        snprintf(k->types, sizeof k->types, "f16 kv");
        k->copies = m->n_layer; // each layer's KV slab
        const uint64_t kv_read = k->traffic.read - (uint64_t)k->rows *
                                 ((uint64_t)q_dim * sizeof(float) + sizeof(int32_t));
        k->set_bytes = (uint64_t)m->n_layer * kv_read;
        break;
    }
    default:
        return sb_err_set(err, __func__, "no kernel %d", (int)k->kind);
    }
    return 0;
}

// The device side of a matmul case: the kernel its types take, the
// rotation's copies, its input rows quantized as the step leaves them.
static int lab_case_matmul(const lab_rig *r, lab_case *k, sb_err *err) {
    lab_group g;
    lab_group_fill(r->c, r->m, k->layer, k->matrix, k->rows, &g);
    snprintf(k->path, sizeof k->path, "%s",
             lab_matmul_path(r->c, k->kind, g.host[0]->type, k->rows));
    for (int j = 1; j < g.n; j++) // a group of types takes a launch a type
        if (strcmp(lab_matmul_path(r->c, k->kind, g.host[j]->type, k->rows), k->path))
            snprintf(k->path, sizeof k->path, "mixed");
    if (lab_matmul_copies(r, &g, k, err)) return -1;
    return lab_quantize_input(r, &g, k->rows, err);
}

// Fresh values in the scratch rows and the KV cache before each case: the
// kernels before it changed them in place (swiglu's g shrinks towards 0
// launch after launch; o and down add into x).
static int lab_fill(const lab_rig *r, sb_err *err) {
    const lab_scratch s = lab_scratch_of(r->c, r->m);
    const cudaStream_t st = lab_stream(r->c);
    const unsigned blocks = (unsigned)r->sms * 4, threads = 256;
    for (int i = 0; i < s.n; i++) lab_fill_f32<<<blocks, threads, 0, st>>>(s.f[i], s.nf[i], 7u * i + 1);
    lab_fill_f16<<<blocks, threads, 0, st>>>(s.kv[0], s.nkv, 101u);
    lab_fill_f16<<<blocks, threads, 0, st>>>(s.kv[1], s.nkv, 103u);
    return KRN_CUDA_CHECK(cudaGetLastError(), err) ||
                   KRN_CUDA_CHECK(cudaStreamSynchronize(st), err)
               ? -1
               : 0;
}

// The launches a replay needs: at least --launches, and one per copy of
// the rotation.
static int lab_launches(const lab_opts *o, const lab_case *k) {
    int n = o->launches > 0 ? o->launches : LAB_MIN_LAUNCHES;
    if (o->launches == 0 && k->copies > n) n = k->copies;
    return n;
}

static int lab_run_case(lab_rig *r, const lab_opts *o, lab_case *k, sb_err *err) {
    if (lab_fill(r, err) || lab_case_describe(r->m, k, err) ||
        (lab_is_matmul(k->kind) && lab_case_matmul(r, k, err)))
        return -1;
    k->launches = lab_launches(o, k);
    lab_kernel_ctx kx = {r, k};
    if (lab_time(r, lab_kernel_launch, &kx, k->launches, o->reps, o->direct, &k->us, err))
        return -1;
    // the floor: as many bytes, half read and half written, over as many
    // distinct bytes as the case's launches read (at most the rotation's)
    const uint64_t bytes = bench_traffic_bytes(&k->traffic);
    lab_floor f;
    f.r = r;
    f.words = (bytes / 2 + 15) / 16;
    if (f.words == 0) f.words = 1;
    const uint64_t per = f.words * 16;
    uint64_t span = per * (uint64_t)k->launches, cap = r->rotate_bytes;
    if (cap < 2 * per) cap = 2 * per;
    if (span > cap) span = cap;
    f.places = span / per;
    if (lab_floor_reserve(r, f.places * per, err)) return -1;
    return lab_time(r, lab_floor_launch_fn, &f, k->launches, o->reps, o->direct, &k->floor_us,
                    err);
}

// ---- the rig ---------------------------------------------------------------------

static uint64_t lab_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

// The rows' positions: depth .. depth + 63 (a step of R rows reads the first R).
static int lab_positions(const lab_rig *r, int32_t depth, sb_err *err) {
    int32_t pos[KRN_MAX_ROWS];
    for (int i = 0; i < KRN_MAX_ROWS; i++) pos[i] = depth + i;
    // a copy from pageable memory may return before it lands; the legacy
    // stream it ran on is not one the backend's stream waits for
    return KRN_CUDA_CHECK(cudaMemcpy(lab_positions_buffer(r->c), pos, sizeof pos,
                                     cudaMemcpyHostToDevice), err) ||
                   KRN_CUDA_CHECK(cudaDeviceSynchronize(), err)
               ? -1
               : 0;
}

static int lab_rig_create(lab_rig *r, const eng_model *em, const lab_opts *o, sb_err *err) {
    memset(r, 0, sizeof *r);
    r->m = eng_model_desc(em);
    // graphs off: the backend then captures no step at create (the lab
    // captures its own); every other choice as sb makes it
    krn_choice no_graphs;
    memset(&no_graphs, 0, sizeof no_graphs);
    snprintf(no_graphs.name, sizeof no_graphs.name, "graphs");
    krn_options ko;
    memset(&ko, 0, sizeof ko);
    ko.n_threads = 1;
    ko.kv_capacity = o->depth + KRN_MAX_ROWS;
    ko.choices = &no_graphs;
    ko.n_choices = 1;
    ko.tuning = o->tuning;
    sb_err made = {0};
    r->b = krn_cuda_create(r->m, &ko, &made);
    if (!r->b)
        return sb_err_set(err, __func__, "%s (kernel_lab times the CUDA backend: run it "
                          "on a GPU machine)", made.msg);
    r->c = (krn_cuda *)r->b;
    if (lab_l2_and_sms(r->c, r, err) ||
        KRN_CUDA_CHECK(cudaEventCreate(&r->ev0), err) ||
        KRN_CUDA_CHECK(cudaEventCreate(&r->ev1), err))
        return -1;
    r->rotate_bytes = lab_max_u64(LAB_ROTATE_L2 * r->l2_bytes, LAB_ROTATE_MIN);
    sb_err bw = {0};
    if (bench_device_copy_gbs((size_t)1 << 30, 10, &r->copy_gbs, &bw)) r->copy_gbs = 0;
    return lab_positions(r, o->depth, err);
}

static void lab_rig_free(lab_rig *r) {
    if (r->ev0) cudaEventDestroy(r->ev0);
    if (r->ev1) cudaEventDestroy(r->ev1);
    cudaFree(r->floor_src);
    cudaFree(r->floor_dst);
    if (r->b) krn_destroy(r->b);
}

// ---- --all: a decode step's launches ----------------------------------------------

// The layers whose `matrix` group has the types of layer il, and whether
// il is the first of them.
static int lab_same_types(const krn_model *m, lab_matrix matrix, int il, bool *first) {
    const krn_tensor *a[3], *b[3];
    int n = 0;
    *first = true;
    const int na = lab_host_tensors(m, il, matrix, a);
    for (int l = 0; l < m->n_layer; l++) {
        lab_host_tensors(m, l, matrix, b);
        bool same = true;
        for (int j = 0; j < na; j++) same = same && a[j]->type == b[j]->type;
        if (!same) continue;
        n++;
        if (l < il) *first = false;
    }
    return n;
}

static lab_case lab_case_make(lab_kind kind, lab_matrix matrix, int layer, int per_step,
                              const lab_opts *o) {
    lab_case k;
    memset(&k, 0, sizeof k);
    k.kind = kind, k.matrix = matrix, k.layer = layer, k.per_step = per_step;
    k.rows = o->rows, k.depth = o->depth;
    return k;
}

// Appends a case while the list has room (a model whose every layer had
// its own types would fill it; the lines past it are left out).
static void lab_push(lab_case *cases, int *n, lab_case k) {
    if (*n < LAB_MAX_CASES) cases[(*n)++] = k;
}

// A matmul group's lines: one per set of types among the layers.
static void lab_add_groups(const krn_model *m, const lab_opts *o, lab_matrix matrix, bool alone,
                           lab_case *cases, int *n) {
    for (int il = 0; il < m->n_layer; il++) {
        bool first = false;
        const int layers = lab_same_types(m, matrix, il, &first);
        if (first) lab_push(cases, n, lab_case_make(LAB_MATMUL, matrix, il, alone ? 0 : layers, o));
    }
}

// The launches of a decode step in its order (forward.cu), then the
// matrices of the grouped calls alone.
static int lab_step_cases(const krn_model *m, const lab_opts *o, lab_case *cases) {
    const int L = m->n_layer;
    int n = 0;
    lab_push(cases, &n, lab_case_make(LAB_RMSNORM, LAB_NO_MATRIX, 0, 2 * L + 1, o));
    lab_add_groups(m, o, LAB_QKV, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_ROPE, LAB_NO_MATRIX, 0, L, o));
    lab_push(cases, &n, lab_case_make(LAB_ATTENTION, LAB_NO_MATRIX, 0, L, o));
    lab_push(cases, &n, lab_case_make(LAB_QUANTIZE, LAB_NO_MATRIX, 0, L, o));
    lab_add_groups(m, o, LAB_O, false, cases, &n);
    lab_add_groups(m, o, LAB_GATEUP, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_SWIGLU, LAB_NO_MATRIX, 0, L, o));
    lab_add_groups(m, o, LAB_DOWN, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_MATMUL, LAB_HEAD, 0, 1, o));
    const lab_matrix alone[] = {LAB_Q, LAB_K, LAB_V, LAB_GATE, LAB_UP};
    for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
        lab_add_groups(m, o, alone[i], true, cases, &n);
    return n;
}

// ---- report ---------------------------------------------------------------------

static void lab_print_header(void) {
    printf("%-9s %-6s %-6s %-5s %-17s %-15s %4s %5s %4s %6s %9s %9s %7s %11s %6s %6s %6s\n",
           "kernel", "path", "matrix", "layer", "shape", "types", "rows", "depth", "step",
           "launch", "us", "floor_us", "%floor", "bytes", "GB/s", "TOP/s", "set_MB");
}

// One line; the timing columns are "-" for a case not run (--plan).
static void lab_print_case(const lab_case *k) {
    const uint64_t bytes = bench_traffic_bytes(&k->traffic);
    const bool ran = k->us > 0;
    char us[16] = "-", floor_us[16] = "-", pct[16] = "-", gbs[16] = "-", tops[16] = "-";
    if (ran) {
        snprintf(us, sizeof us, "%.2f", k->us);
        snprintf(floor_us, sizeof floor_us, "%.2f", k->floor_us);
        snprintf(pct, sizeof pct, "%.1f%%", 100.0 * k->floor_us / k->us);
        snprintf(gbs, sizeof gbs, "%.0f", (double)bytes / (k->us * 1e3));
        if (k->traffic.ops > 0) snprintf(tops, sizeof tops, "%.2f", k->traffic.ops / (k->us * 1e6));
    }
    printf("%-9s %-6s %-6s %-5d %-17s %-15s %4d %5d %4d %6d %9s %9s %7s %11llu %6s %6s %6.0f\n",
           lab_kind_names[k->kind], k->path,
           k->matrix == LAB_NO_MATRIX ? "-" : lab_matrix_names[k->matrix], k->layer, k->shape,
           k->types, k->rows, (int)k->depth, k->per_step, k->launches, us, floor_us, pct,
           (unsigned long long)bytes, gbs, tops, (double)k->set_bytes / 1e6);
    fflush(stdout);
}

// --all's sums over the step's launches: their bytes, and the weights
// among them beside bench_streamed_bytes (the two agree when the lines
// cover every matrix of the step: the norms and biases are the difference);
// once timed, the kernels' time, their copy floors, and the floor of their
// bytes at the copy bandwidth (copy_gbs; 0: unmeasured).
static void lab_print_step(const krn_model *m, const lab_case *cases, int n, double copy_gbs) {
    double us = 0, floor_us = 0, bytes = 0, weights = 0;
    int launches = 0;
    for (int i = 0; i < n; i++) {
        const lab_case *k = &cases[i];
        us += k->per_step * k->us;
        floor_us += k->per_step * k->floor_us;
        bytes += (double)k->per_step * (double)bench_traffic_bytes(&k->traffic);
        weights += (double)k->per_step * (double)k->traffic.weights;
        launches += k->per_step;
    }
    printf("step (rows %d, depth %d): %d launches (the embedding's not counted), %.1f MB, "
           "weights %.1f MB (bench_streamed_bytes: %.1f MB)\n", cases[0].rows,
           (int)cases[0].depth, launches, bytes / 1e6, weights / 1e6,
           (double)bench_streamed_bytes(m) / 1e6);
    if (us <= 0) return;
    printf("step's kernels alone: %.1f us; their copy floors %.1f us (%.0f%%)", us, floor_us,
           100.0 * floor_us / us);
    if (copy_gbs > 0)
        printf("; its bytes at %.0f GB/s: %.1f us (%.0f%%)", copy_gbs, bytes / (copy_gbs * 1e3),
               100.0 * bytes / (copy_gbs * 1e3) / us);
    printf("\n");
}

static json_t *lab_case_json(const lab_case *k) {
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(lab_kind_names[k->kind]));
    json_object_set_new(o, "path", json_string(k->path));
    json_object_set_new(o, "matrix", k->matrix == LAB_NO_MATRIX
                                          ? json_null()
                                          : json_string(lab_matrix_names[k->matrix]));
    json_object_set_new(o, "layer", json_integer(k->layer));
    json_object_set_new(o, "per_step", json_integer(k->per_step));
    json_object_set_new(o, "shape", json_string(k->shape));
    json_object_set_new(o, "types", json_string(k->types));
    json_object_set_new(o, "rows", json_integer(k->rows));
    json_object_set_new(o, "depth", json_integer(k->depth));
    json_object_set_new(o, "launches", json_integer(k->launches));
    json_object_set_new(o, "copies", json_integer(k->copies));
    json_object_set_new(o, "set_bytes", json_integer((json_int_t)k->set_bytes));
    json_object_set_new(o, "us", json_real(k->us));
    json_object_set_new(o, "floor_us", json_real(k->floor_us));
    json_object_set_new(o, "weight_bytes", json_integer((json_int_t)k->traffic.weights));
    json_object_set_new(o, "read_bytes", json_integer((json_int_t)k->traffic.read));
    json_object_set_new(o, "written_bytes", json_integer((json_int_t)k->traffic.written));
    const double bytes = (double)bench_traffic_bytes(&k->traffic);
    json_object_set_new(o, "gb_s", json_real(bytes / (k->us * 1e3)));
    json_object_set_new(o, "ops", json_real(k->traffic.ops));
    json_object_set_new(o, "tops", json_real(k->traffic.ops / (k->us * 1e6)));
    return o;
}

static int lab_write_json(const char *path, const lab_rig *r, const lab_opts *o,
                          const lab_case *cases, int n, sb_err *err) {
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "device", json_string(krn_device_name(r->b)));
    json_object_set_new(root, "commit", json_string(kernel_lab_commit));
    json_object_set_new(root, "model", json_string(o->model));
    json_object_set_new(root, "copy_gb_s", json_real(r->copy_gbs));
    json_object_set_new(root, "l2_bytes", json_integer((json_int_t)r->l2_bytes));
    json_object_set_new(root, "sms", json_integer(r->sms));
    json_object_set_new(root, "graph", json_boolean(!o->direct));
    json_object_set_new(root, "reps", json_integer(o->reps));
    for (int i = 0; i < n; i++) json_array_append_new(arr, lab_case_json(&cases[i]));
    json_object_set_new(root, "cases", arr);
    char *text = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    if (!text) return sb_err_set(err, __func__, "out of memory for the JSON");
    const int rc = sb_write_file(path, text, strlen(text), err);
    free(text);
    return rc;
}

// ---- options ---------------------------------------------------------------------

static int lab_name(const char *v, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i])) return i;
    return -1;
}

// A whole decimal integer in lo..hi, else -1 with err naming the option.
static int lab_int(const char *opt, const char *v, long lo, long hi, int *out, sb_err *err) {
    char *end = NULL;
    const long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi)
        return sb_err_set(err, __func__, "%s '%s': expected a whole number in %ld..%ld",
                          opt, v, lo, hi);
    *out = (int)x;
    return 0;
}

static int lab_parse(int argc, char **argv, lab_opts *o, sb_err *err) {
    memset(o, 0, sizeof *o);
    o->kind = -1, o->matrix = LAB_NO_MATRIX, o->rows = 1, o->reps = 20;
    if (argc < 2 || argv[1][0] == '-')
        return sb_err_set(err, __func__, "the first argument is the model file");
    o->model = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--all")) { o->all = true; continue; }
        if (!strcmp(a, "--direct")) { o->direct = true; continue; }
        if (!strcmp(a, "--plan")) { o->plan = true; continue; }
        if (i + 1 >= argc) return sb_err_set(err, __func__, "%s needs a value", a);
        const char *v = argv[++i];
        int d = 0, rc = 0;
        if (!strcmp(a, "--kernel")) {
            if ((o->kind = lab_name(v, lab_kind_names, LAB_N_KINDS)) < 0)
                return sb_err_set(err, __func__, "--kernel '%s': expected matmul, mmvq, "
                                  "mmq, rmsnorm, quantize, swiglu, rope or attention", v);
        } else if (!strcmp(a, "--matrix")) {
            if ((o->matrix = lab_name(v, lab_matrix_names, LAB_N_MATRICES)) < 0)
                return sb_err_set(err, __func__, "--matrix '%s': expected q, k, v, o, "
                                  "gate, up, down, head, qkv or gateup", v);
        } else if (!strcmp(a, "--rows")) rc = lab_int(a, v, 1, KRN_MAX_ROWS, &o->rows, err);
        else if (!strcmp(a, "--depth")) rc = lab_int(a, v, 0, LAB_MAX_DEPTH, &d, err), o->depth = d;
        else if (!strcmp(a, "--layer")) rc = lab_int(a, v, 0, 1 << 20, &o->layer, err);
        else if (!strcmp(a, "--reps")) rc = lab_int(a, v, 1, LAB_MAX_REPS, &o->reps, err);
        else if (!strcmp(a, "--launches"))
            rc = lab_int(a, v, 1, LAB_MAX_LAUNCHES, &o->launches, err);
        else if (!strcmp(a, "--json")) o->json = v;
        else return sb_err_set(err, __func__, "unknown option '%s'", a);
        if (rc) return -1;
    }
    if (o->all == (o->kind >= 0))
        return sb_err_set(err, __func__, "give either --kernel KERNEL or --all");
    if (o->all && (o->matrix != LAB_NO_MATRIX || o->layer))
        return sb_err_set(err, __func__, "--all takes no --matrix or --layer");
    if (o->kind >= 0 && lab_is_matmul((lab_kind)o->kind) && o->matrix == LAB_NO_MATRIX)
        return sb_err_set(err, __func__, "--kernel %s needs --matrix M",
                          lab_kind_names[o->kind]);
    if (o->kind >= 0 && !lab_is_matmul((lab_kind)o->kind) && o->matrix != LAB_NO_MATRIX)
        return sb_err_set(err, __func__, "--matrix goes with --kernel matmul, mmvq or mmq "
                          "only");
    if (o->kind == LAB_MMVQ && o->rows > lab_mmvq_max_rows())
        return sb_err_set(err, __func__, "--kernel mmvq takes 1..%d rows; got %d",
                          lab_mmvq_max_rows(), o->rows);
    return 0;
}

// What the options ask of the model, checked before the backend is made:
// the layer exists, and mmvq / mmq get K-quant matrices.
static int lab_check_model(const lab_opts *o, const krn_model *m, sb_err *err) {
    if (o->all) return 0;
    if (o->layer >= m->n_layer)
        return sb_err_set(err, __func__, "--layer %d: the model has layers 0..%d",
                          o->layer, (int)m->n_layer - 1);
    if (o->kind != LAB_MMVQ && o->kind != LAB_MMQ) return 0;
    const krn_tensor *t[3];
    const int n = lab_host_tensors(m, o->layer, (lab_matrix)o->matrix, t);
    for (int j = 0; j < n; j++)
        if (!krn_type_is_kquant(t[j]->type))
            return sb_err_set(err, __func__, "--kernel %s reads K-quant matrices; %s of "
                              "layer %d is %s (--kernel matmul takes any type)",
                              lab_kind_names[o->kind], lab_matrix_names[o->matrix], o->layer,
                              krn_type_name(t[j]->type));
    return 0;
}

static const char *const lab_usage =
    "usage: kernel_lab MODEL.gguf --kernel KERNEL [--matrix M] [--rows R] [--depth D]\n"
    "           [--layer L] [--reps N] [--launches N] [--direct] [--json FILE]\n"
    "       kernel_lab MODEL.gguf --all [--rows R] [--depth D] [--reps N] [--launches N]\n"
    "           [--direct] [--json FILE]\n"
    "  --plan (either form) prints the lines' shapes and bytes without a GPU\n"
    "  KERNEL: matmul mmvq mmq rmsnorm quantize swiglu rope attention\n"
    "  M: q k v o gate up down head qkv gateup (matmul kernels only)\n"
    "  (bench/programs/kernel_lab.cu's header says what each line means)\n";

// ---- main ------------------------------------------------------------------------

// --all: the rule between the step's lines and the matrices alone.
static void lab_print_alone_rule(const lab_opts *o, const lab_case *cases, int n, int i) {
    if (o->all && i + 1 < n && cases[i].per_step && !cases[i + 1].per_step)
        printf("-- alone (not launches of the step):\n");
}

// --plan: the cases, their shapes and bytes, with no GPU.
static int lab_plan(const krn_model *m, const lab_opts *o, lab_case *cases, int n,
                    sb_err *err) {
    lab_print_header();
    for (int i = 0; i < n; i++) {
        if (lab_case_describe(m, &cases[i], err)) return -1;
        lab_print_case(&cases[i]);
        lab_print_alone_rule(o, cases, n, i);
    }
    if (o->all) lab_print_step(m, cases, n, 0);
    return 0;
}

static int lab_main(const lab_opts *o, const eng_model *em, sb_err *err) {
    static lab_case cases[LAB_MAX_CASES];
    const krn_model *m = eng_model_desc(em);
    int n = 0, rc = 0;
    if (lab_check_model(o, m, err)) return -1;
    if (o->all) n = lab_step_cases(m, o, cases);
    else cases[n++] = lab_case_make((lab_kind)o->kind, (lab_matrix)o->matrix, o->layer, 0, o);
    if (o->plan) return lab_plan(m, o, cases, n, err);
    lab_rig r;
    if (lab_rig_create(&r, em, o, err)) {
        lab_rig_free(&r);
        return -1;
    }
    printf("kernel_lab %s: device %s (%d SMs, L2 %.0f MB), model %s (%d layers of %d, "
           "FFN %d, vocabulary %d)\n", kernel_lab_commit, krn_device_name(r.b), r.sms,
           (double)r.l2_bytes / 1e6, o->model, (int)m->n_layer, (int)m->n_embd,
           (int)m->n_ff, (int)m->n_vocab);
    lab_print_choices(r.c, stdout);
    if (r.copy_gbs > 0) printf("device copy bandwidth (read + write, 1 GiB): %.1f GB/s\n", r.copy_gbs);
    printf("each launch: median of %d %s of N launches; weights rotate over %.0f MB\n", o->reps,
           o->direct ? "direct runs" : "graph replays", (double)r.rotate_bytes / 1e6);
    lab_print_header();
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = lab_run_case(&r, o, &cases[i], err);
        lab_case_free(&cases[i]);
        if (rc == 0) lab_print_case(&cases[i]);
        if (rc == 0) lab_print_alone_rule(o, cases, n, i);
    }
    if (rc == 0 && o->all) lab_print_step(m, cases, n, r.copy_gbs);
    if (rc == 0 && o->json) rc = lab_write_json(o->json, &r, o, cases, n, err);
    lab_rig_free(&r);
    return rc;
}

int main(int argc, char **argv) {
    lab_opts o;
    sb_err err;
    memset(&err, 0, sizeof err);
    if (lab_parse(argc, argv, &o, &err)) {
        fprintf(stderr, "kernel_lab: %s\n%s", err.msg, lab_usage);
        return 2;
    }
    if (krn_tuning_from_env(&o.tuning, getenv, &err)) {
        fprintf(stderr, "kernel_lab: %s\n", err.msg);
        return 2;
    }
    eng_model *m = eng_model_load(o.model, &err);
    if (!m) {
        fprintf(stderr, "kernel_lab: %s\n", err.msg);
        return 1;
    }
    const int rc = lab_main(&o, m, &err);
    if (rc) fprintf(stderr, "kernel_lab: %s\n", err.msg);
    eng_model_free(m);
    return rc ? 1 : 0;
}
