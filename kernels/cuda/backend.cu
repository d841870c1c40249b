// backend.cu — krn_cuda_create and destroy: the model check, device 0, the
// weights uploaded as the file stores them, the norms and biases, the fp16
// KV cache, the host's RoPE table and the scratch for the backend's largest
// batch (krn_options.max_batch_rows: 64 rows unless asked; the logits stay
// 64 rows, kernels.h), all had up front so that a step never allocates.
//
// Out of memory is a clear error naming the buffer, its bytes, the total
// this backend needs and the GPU's free bytes; nothing crashes. The KV
// cache is allocated first: at a long context it is the likely failure,
// and the host RoPE table (as long as the cache) is built only once the
// device memory is had.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"

extern "C" bool krn_cuda_built(void) { return true; }

static void krn_cuda__destroy(krn_backend *b) {
    krn_cuda *c = (krn_cuda *)b;
    if (!c) return;
    cudaSetDevice(c->device);
    if (c->stream) cudaStreamSynchronize(c->stream);
    if (c->prof) {
        krn_cuda_prof_print(c);
        for (int i = 0; i < KRN_CUDA__PROF_EVENTS; i++)
            if (c->prof->ev[i]) cudaEventDestroy(c->prof->ev[i]);
        free(c->prof);
    }
    for (int h = 0; h < 2; h++)
        for (int i = 0; i <= KRN_MAX_ROWS; i++)
            if (c->graphs[h][i].exec) cudaGraphExecDestroy(c->graphs[h][i].exec);
    for (int i = 0; i < c->n_allocs; i++) cudaFree(c->allocs[i]);
    if (c->stream) cudaStreamDestroy(c->stream);
    free(c->allocs);
    free(c->layers);
    free(c);
}

static void *krn_cuda__host_alloc(krn_backend *b, size_t bytes) {
    void *p = NULL;
    if (cudaSetDevice(((krn_cuda *)b)->device) != cudaSuccess ||
        cudaMallocHost(&p, bytes) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return p;
}

static void krn_cuda__host_free(krn_backend *b, void *p) {
    (void)b;
    cudaFreeHost(p);
}

static void krn_cuda__device_memory(const krn_backend *b, int64_t *mine, int64_t *used) {
    const krn_cuda *c = (const krn_cuda *)b;
    *mine = c->mem_taken;
    *used = c->mem_used;
}

// krn_device_name: the GPU's name as the driver gives it ("NVIDIA H200"),
// read once per device and kept for the process, as names never change.
static const char *krn_cuda__device_name(const krn_backend *b) {
    enum { MAX_DEVICES = 64 };
    static char names[MAX_DEVICES][256];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    const int dev = ((const krn_cuda *)b)->device;
    if (dev < 0 || dev >= MAX_DEVICES) return "cuda";
    pthread_mutex_lock(&lock);
    if (!names[dev][0]) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess && prop.name[0]) {
            snprintf(names[dev], sizeof names[dev], "%s", prop.name);
        } else {
            cudaGetLastError();
            snprintf(names[dev], sizeof names[dev], "cuda device %d", dev);
        }
    }
    pthread_mutex_unlock(&lock);
    return names[dev];
}

static int krn_cuda__choices(const krn_backend *b, const krn_choice **out) {
    *out = ((const krn_cuda *)b)->choices;
    return KRN_CUDA__N_CHOICES;
}

static const krn_backend_ops krn_cuda__ops = {
    "cuda",
    krn_cuda_forward,
    krn_cuda__destroy,
    krn_cuda__host_alloc,
    krn_cuda__host_free,
    krn_cuda__device_memory,
    krn_cuda__device_name,
    krn_cuda__choices,
};

// The launch-overlap mask tuning.launch_overlap asks for (kernels.h): 0
// below sm_90, where launches cannot overlap; else the mask, none, or the
// default (common.cuh's KRN_CUDA_PDL_DEFAULT).
static int32_t krn_cuda__overlap_mask(int major, int32_t want) {
    static_assert((int)KRN_LAUNCH_OVERLAP_ALL == (int)KRN_CUDA_PDL_ALL, "kernels.h's mask is common.cuh's");
    if (major < 9 || want == KRN_TUNE_NONE) return 0;
    return want ? want : KRN_CUDA_PDL_DEFAULT;
}

// The launch choices (kernels.h's krn_choice): the defaults as
// krn_options.tuning changes them, then opt's imported values, written back
// into the configuration. None of them changes a bit.
static int krn_cuda__apply_choices(krn_cuda *c, const krn_options *opt, sb_err *err) {
    static const char *const names[KRN_CUDA__N_CHOICES] = {
        "matmul_split", "attention_kernel", "graphs", "launch_overlap"};
    static const int32_t lo[KRN_CUDA__N_CHOICES] = {0, 0, 0, 0};
    static const int32_t hi[KRN_CUDA__N_CHOICES] = {1, 3, 1, KRN_CUDA_PDL_ALL};
    int major = 0; // launches overlap on sm_90 and later only
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                              c->device), err))
        return -1;
    const int32_t value[KRN_CUDA__N_CHOICES] = {
        c->cfg.mm_split, c->cfg.attn, c->cfg.graphs,
        krn_cuda__overlap_mask(major, opt->tuning.launch_overlap)};
    for (int i = 0; i < KRN_CUDA__N_CHOICES; i++) {
        snprintf(c->choices[i].name, sizeof c->choices[i].name, "%s", names[i]);
        c->choices[i].value = value[i];
        c->choices[i].ms = 0.0;
    }
    if (krn_choices_import(c->choices, lo, hi, KRN_CUDA__N_CHOICES, opt, err)) return -1;
    c->cfg.mm_split = c->choices[0].value;
    c->cfg.attn = c->choices[1].value;
    c->cfg.graphs = c->choices[2].value && !c->prof; // profiling needs direct launches
    c->cfg.pdl_mask = major >= 9 ? c->choices[3].value : 0;
    return 0;
}

// ---- sizes ----------------------------------------------------------------

// Bytes of one device buffer of the plan.
typedef struct krn_cuda__buf {
    void **ptr;
    uint64_t bytes;
    const char *what;
    const void *upload;     // host bytes to copy in (the first upload_bytes;
    uint64_t upload_bytes;  // the rest is zeroed), or NULL
    const krn_cuda_mat *repack; // a K-quant matrix whose records this buffer
    const void *file_rows;      // receives, from these host bytes (repack.cu)
} krn_cuda__buf;

// Bytes after every weight matrix: the matmul kernels read 16-byte aligned
// windows around a row's bytes, up to 15 bytes past the last row.
enum { KRN_CUDA__WEIGHT_PAD = 64 };

static bool krn_cuda__mat_bytes(const krn_tensor *t, uint64_t *row, uint64_t *all) {
    return krn_row_bytes(t->type, t->ne0, row) &&
           sb_mul_u64(*row, (uint64_t)t->ne1, all);
}

static void krn_cuda__dims(krn_cuda *c, const krn_model *m) {
    const krn_dims d = krn_model_dims(m);
    c->n_embd = d.n_embd, c->n_ff = d.n_ff, c->q_dim = d.q_dim, c->kv_dim = d.kv_dim;
    c->max_in = d.max_in;
    krn_cuda_act *acts[2] = {&c->xq.g256, &c->xq.g32};
    for (int i = 0; i < 2; i++) {
        acts[i]->q_stride = (c->max_in + 63) & ~(int64_t)63;
        acts[i]->d_stride = c->max_in / KRN_QBLOCK;
        acts[i]->s_stride = (c->max_in / KRN_QBLOCK + 7) & ~(int64_t)7;
    }
}

// Split partials and arrival counts of the quantized matmuls (mmq.cu):
// enough for every launch that small grids split (q/k/v, o, down of the
// largest models at 64 rows); a launch whose partials would not fit runs
// unsplit.
enum { KRN_CUDA__MM_PART_FLOATS = 4 << 20, KRN_CUDA__MM_COUNTS = 1 << 16 };

// Chunk states of split-KV attention: a one-row step over up to 1024
// chunks (65536 keys) in one pass, and at least 16 chunks (1024 keys) per
// pass for 64 rows. Not grown for batches above 64 rows (memory stays as
// it is): attention.cu runs their chunks in more passes (16 * 64 / rows
// chunks a pass, at least 1), each followed by its merge.
static void krn_cuda__attn_slots(krn_cuda *c, const krn_model *m, int32_t cap) {
    int64_t chunks = ((int64_t)cap + KRN_ATTN_CHUNK - 1) / KRN_ATTN_CHUNK;
    if (chunks > 1024) chunks = 1024;
    int64_t slots = (int64_t)m->n_head * chunks;
    const int64_t wide = (int64_t)KRN_MAX_ROWS * m->n_head * 16;
    if (slots < wide) slots = wide;
    c->attn_slots = slots;
}

// ---- allocation -------------------------------------------------------------

static int krn_cuda__track(krn_cuda *c, void *p, sb_err *err) {
    if (c->n_allocs == c->cap_allocs) {
        const int cap = c->cap_allocs ? 2 * c->cap_allocs : 64;
        void **a = (void **)realloc(c->allocs, (size_t)cap * sizeof *a);
        if (!a) {
            cudaFree(p);
            return sb_err_set(err, "krn_cuda_create", "out of host memory for "
                              "the list of device buffers");
        }
        c->allocs = a;
        c->cap_allocs = cap;
    }
    c->allocs[c->n_allocs++] = p;
    return 0;
}

// cudaMalloc of one buffer, zeroed (a slot never written reads zeros, not
// stale memory, as on the CPU), or the out-of-memory message with numbers.
static int krn_cuda__alloc(krn_cuda *c, const krn_cuda__buf *b, uint64_t total,
                           sb_err *err) {
    void *p = NULL;
    const cudaError_t rc = cudaMalloc(&p, (size_t)b->bytes);
    if (rc != cudaSuccess) {
        cudaGetLastError(); // an allocation failure is not sticky: clear it
        size_t free_b = 0, all_b = 0;
        cudaMemGetInfo(&free_b, &all_b);
        if (rc == cudaErrorMemoryAllocation)
            return sb_err_set(err, "krn_cuda_create", "out of GPU memory for "
                              "the %s: %llu bytes (this backend needs %llu "
                              "bytes in all for kv_capacity %d; the GPU has "
                              "%zu bytes free of %zu)", b->what,
                              (unsigned long long)b->bytes,
                              (unsigned long long)total,
                              (int)c->base.kv_capacity, free_b, all_b);
        return sb_err_set(err, "krn_cuda_create", "cudaMalloc of %llu bytes "
                          "for the %s failed: %s", (unsigned long long)b->bytes,
                          b->what, cudaGetErrorString(rc));
    }
    if (krn_cuda__track(c, p, err)) return -1;
    *b->ptr = p;
    const uint64_t up = b->upload ? b->upload_bytes : 0;
    if (up && KRN_CUDA_CHECK(cudaMemcpy(p, b->upload, (size_t)up,
                                        cudaMemcpyHostToDevice), err))
        return -1;
    return up == b->bytes ? 0
                          : KRN_CUDA_CHECK(cudaMemset((uint8_t *)p + up, 0,
                                                      (size_t)(b->bytes - up)), err);
}

// ---- the plan: every buffer, in allocation order ------------------------------

typedef struct krn_cuda__plan {
    krn_cuda__buf *bufs;    // owned by the plan
    int n, cap;
    uint64_t total;
    bool overflow;
} krn_cuda__plan;

static void krn_cuda__add(krn_cuda__plan *p, void **ptr, uint64_t bytes,
                          const char *what, const void *upload, uint64_t upload_bytes) {
    if (p->overflow) return;
    if (p->n == p->cap) {
        const int cap = p->cap ? 2 * p->cap : 64;
        krn_cuda__buf *b = (krn_cuda__buf *)realloc(p->bufs, (size_t)cap * sizeof *b);
        if (!b) { p->overflow = true; return; }
        p->bufs = b;
        p->cap = cap;
    }
    if (!sb_add_u64(p->total, bytes, &p->total) || p->total > SIZE_MAX) p->overflow = true;
    const krn_cuda__buf b = {ptr, bytes ? bytes : 1, what, upload, upload_bytes, NULL, NULL};
    p->bufs[p->n++] = b;
}

// A weight matrix's file bytes, uploaded unchanged, then
// KRN_CUDA__WEIGHT_PAD zero bytes (the embedding and the 32-element and
// float types' matmuls read them).
static void krn_cuda__add_mat(krn_cuda__plan *p, krn_cuda_mat *d, const krn_tensor *t,
                              const char *what) {
    uint64_t all = 0;
    d->type = t->type;
    d->ne0 = t->ne0;
    d->ne1 = t->ne1;
    if (!krn_cuda__mat_bytes(t, &d->row_bytes, &all) || all > UINT64_MAX - 64) {
        p->overflow = true;
        return;
    }
    krn_cuda__add(p, (void **)&d->data, all + KRN_CUDA__WEIGHT_PAD, what, t->data, all);
}

// A matrix a matmul reads: a K-quant one as tensor-core records (repacked
// from the file's bytes after allocation), any other as its file bytes.
static void krn_cuda__add_mm(krn_cuda__plan *p, krn_cuda_mat *d, const krn_tensor *t,
                             const char *what) {
    if (!krn_type_is_kquant(t->type)) {
        krn_cuda__add_mat(p, d, t, what);
        return;
    }
    uint64_t all = 0;
    d->type = t->type;
    d->ne0 = t->ne0;
    d->ne1 = t->ne1;
    d->data = NULL;
    if (!krn_cuda__mat_bytes(t, &d->row_bytes, &all) || t->ne0 % KRN_SUPER) {
        p->overflow = true;
        return;
    }
    krn_cuda__add(p, (void **)&d->packed, krn_cuda_kq_bytes(t->type, t->ne0, t->ne1), what,
                  NULL, 0);
    if (!p->overflow) {
        p->bufs[p->n - 1].repack = d;
        p->bufs[p->n - 1].file_rows = t->data;
    }
}

static void krn_cuda__add_vec(krn_cuda__plan *p, const float **d, const krn_tensor *t,
                              const char *what) {
    const uint64_t bytes = (uint64_t)t->ne0 * sizeof(float);
    krn_cuda__add(p, (void **)d, bytes, what, t->data, bytes);
}

// Scratch of `per_row` elements of `elem` bytes for `rows` rows.
static void krn_cuda__add_rows(krn_cuda__plan *p, void **d, uint64_t per_row,
                               uint64_t elem, uint64_t rows, const char *what) {
    uint64_t b = 0;
    if (!sb_mul_u64(per_row, elem * rows, &b)) { p->overflow = true; return; }
    krn_cuda__add(p, d, b, what, NULL, 0);
}

static void krn_cuda__plan_state(krn_cuda__plan *p, krn_cuda *c, const krn_model *m,
                                 int32_t cap) {
    uint64_t kv = 0, rope = 0;
    // the cache has kv_slots slots (a ring with a sliding window); RoPE
    // needs a row per position
    if (!sb_mul_u64((uint64_t)m->n_layer * (uint64_t)c->base.kv_slots,
                    (uint64_t)c->kv_dim * 2, &kv) ||
        !sb_mul_u64((uint64_t)cap, (uint64_t)(m->head_dim / 2) * sizeof(float), &rope)) {
        p->overflow = true;
        return;
    }
    krn_cuda__add(p, (void **)&c->k_cache, kv, "K cache", NULL, 0);
    krn_cuda__add(p, (void **)&c->v_cache, kv, "V cache", NULL, 0);
    krn_cuda__add(p, (void **)&c->rope_cos, rope, "RoPE cos table", NULL, 0);
    krn_cuda__add(p, (void **)&c->rope_sin, rope, "RoPE sin table", NULL, 0);
    const uint64_t f = sizeof(float);
    // every row of the largest batch; the logits, of its last 64 at most
    const uint64_t rows = (uint64_t)c->base.max_batch_rows, lrows = KRN_MAX_ROWS;
    krn_cuda__add_rows(p, (void **)&c->tokens, 1, sizeof(int32_t), rows, "token ids");
    krn_cuda__add_rows(p, (void **)&c->pos, 1, sizeof(int32_t), rows, "positions");
    krn_cuda__add_rows(p, (void **)&c->x, (uint64_t)c->n_embd, f, rows, "x rows");
    krn_cuda__add_rows(p, (void **)&c->h, (uint64_t)c->n_embd, f, rows, "h rows");
    krn_cuda__add_rows(p, (void **)&c->q, (uint64_t)c->q_dim, f, rows, "q rows");
    krn_cuda__add_rows(p, (void **)&c->k, (uint64_t)c->kv_dim, f, rows, "k rows");
    krn_cuda__add_rows(p, (void **)&c->v, (uint64_t)c->kv_dim, f, rows, "v rows");
    krn_cuda__add_rows(p, (void **)&c->att, (uint64_t)c->q_dim, f, rows, "attention rows");
    krn_cuda__add_rows(p, (void **)&c->g, (uint64_t)c->n_ff, f, rows, "gate rows");
    krn_cuda__add_rows(p, (void **)&c->u, (uint64_t)c->n_ff, f, rows, "up rows");
    krn_cuda__add_rows(p, (void **)&c->logits, (uint64_t)m->n_vocab, f, lrows, "logit rows");
    krn_cuda_act *acts[2] = {&c->xq.g256, &c->xq.g32};
    for (int i = 0; i < 2; i++) {
        krn_cuda__add_rows(p, (void **)&acts[i]->q, (uint64_t)acts[i]->q_stride, 1, rows,
                           "quantized rows");
        krn_cuda__add_rows(p, (void **)&acts[i]->d, (uint64_t)acts[i]->d_stride, f, rows,
                           "quantized row scales");
        krn_cuda__add_rows(p, (void **)&acts[i]->s, (uint64_t)acts[i]->s_stride,
                           sizeof(int16_t), rows, "quantized row sums");
    }
    c->cfg.mm_part_cap = KRN_CUDA__MM_PART_FLOATS;
    c->cfg.mm_count_cap = KRN_CUDA__MM_COUNTS;
    krn_cuda__add(p, (void **)&c->cfg.mm_part, (uint64_t)KRN_CUDA__MM_PART_FLOATS * f,
                  "matmul split partials", NULL, 0);
    krn_cuda__add(p, (void **)&c->cfg.mm_count, (uint64_t)KRN_CUDA__MM_COUNTS * sizeof(int),
                  "matmul split counts", NULL, 0);
    // Split-KV attention: chunk states, and a running state per (row, head),
    // each (head_dim + 2) floats.
    const uint64_t st = (uint64_t)m->head_dim + 2;
    krn_cuda__add(p, (void **)&c->attn_part, (uint64_t)c->attn_slots * st * f,
                  "attention chunk states", NULL, 0);
    krn_cuda__add_rows(p, (void **)&c->attn_run, (uint64_t)m->n_head * st, f, rows,
                       "attention running states");
}

static void krn_cuda__plan_weights(krn_cuda__plan *p, krn_cuda *c, const krn_model *m) {
    krn_cuda__add_mat(p, &c->tok_embd, &m->tok_embd, "token embedding");
    // Tied embeddings (output == tok_embd) share the file's bytes; a K-quant
    // head gets its records besides.
    const bool tied = m->output.data == m->tok_embd.data && m->output.type == m->tok_embd.type;
    if (tied && !krn_type_is_kquant(m->output.type))
        c->output = c->tok_embd; // its data pointer is set after allocation
    else
        krn_cuda__add_mm(p, &c->output, &m->output, "output (LM head)");
    krn_cuda__add_vec(p, &c->output_norm, &m->output_norm, "output_norm");
    for (int32_t il = 0; il < m->n_layer; il++) {
        const krn_layer *l = &m->layers[il];
        krn_cuda_layer *d = &c->layers[il];
        krn_cuda__add_mm(p, &d->wq, &l->wq, "attn_q weights");
        krn_cuda__add_mm(p, &d->wk, &l->wk, "attn_k weights");
        krn_cuda__add_mm(p, &d->wv, &l->wv, "attn_v weights");
        krn_cuda__add_mm(p, &d->wo, &l->wo, "attn_output weights");
        krn_cuda__add_mm(p, &d->w_gate, &l->w_gate, "ffn_gate weights");
        krn_cuda__add_mm(p, &d->w_up, &l->w_up, "ffn_up weights");
        krn_cuda__add_mm(p, &d->w_down, &l->w_down, "ffn_down weights");
        krn_cuda__add_vec(p, &d->attn_norm, &l->attn_norm, "attn_norm");
        krn_cuda__add_vec(p, &d->ffn_norm, &l->ffn_norm, "ffn_norm");
        krn_cuda__add_vec(p, &d->bq, &l->bq, "attn_q bias");
        krn_cuda__add_vec(p, &d->bk, &l->bk, "attn_k bias");
        krn_cuda__add_vec(p, &d->bv, &l->bv, "attn_v bias");
    }
}

// Rows of a matrix staged at a time for repacking: whole tiles, about
// KRN_CUDA__STAGE_BYTES, so the staging buffer stays small beside the
// weights.
enum { KRN_CUDA__STAGE_BYTES = 64 << 20 };

static int64_t krn_cuda__stage_rows(const krn_cuda_mat *m) {
    int64_t rows = (int64_t)(KRN_CUDA__STAGE_BYTES / m->row_bytes) / 16 * 16;
    return rows < 16 ? 16 : rows;
}

// Every K-quant matrix's records (repack.cu), through one staging buffer
// on the device that is freed again.
static int krn_cuda__repack_all(const krn_cuda__plan *p, sb_err *err) {
    uint64_t stage = 0;
    for (int i = 0; i < p->n; i++)
        if (p->bufs[i].repack) {
            const krn_cuda_mat *m = p->bufs[i].repack;
            const int64_t rows = krn_cuda__stage_rows(m) < m->ne1 ? krn_cuda__stage_rows(m) : m->ne1;
            if ((uint64_t)rows * m->row_bytes > stage) stage = (uint64_t)rows * m->row_bytes;
        }
    if (stage == 0) return 0;
    uint8_t *buf = NULL;
    if (cudaMalloc(&buf, (size_t)stage) != cudaSuccess) {
        cudaGetLastError();
        return sb_err_set(err, "krn_cuda_create", "out of GPU memory for the %llu-byte "
                          "staging buffer that rearranges the weights",
                          (unsigned long long)stage);
    }
    int rc = 0;
    for (int i = 0; rc == 0 && i < p->n; i++) {
        const krn_cuda_mat *m = p->bufs[i].repack;
        if (!m) continue;
        const int64_t step = krn_cuda__stage_rows(m);
        for (int64_t r0 = 0; rc == 0 && r0 < m->ne1; r0 += step) {
            const int64_t n = m->ne1 - r0 < step ? m->ne1 - r0 : step;
            rc = KRN_CUDA_CHECK(cudaMemcpy(buf, (const uint8_t *)p->bufs[i].file_rows +
                                                    (uint64_t)r0 * m->row_bytes,
                                           (size_t)((uint64_t)n * m->row_bytes),
                                           cudaMemcpyHostToDevice), err);
            if (rc == 0) rc = krn_cuda_repack(m, buf, r0, n, (uint8_t *)m->packed, 0, err);
            if (rc == 0) rc = KRN_CUDA_CHECK(cudaDeviceSynchronize(), err);
        }
    }
    cudaFree(buf);
    return rc;
}

static int krn_cuda__alloc_all(krn_cuda *c, const krn_model *m, int32_t cap,
                               sb_err *err) {
    krn_cuda__plan p = {NULL, 0, 0, 0, false};
    int rc = 0;
    krn_cuda__plan_state(&p, c, m, cap);
    krn_cuda__plan_weights(&p, c, m);
    if (p.overflow) {
        rc = sb_err_set(err, "krn_cuda_create", "the device memory needed for "
                        "kv_capacity %d overflows (or the host is out of "
                        "memory for the plan)", (int)cap);
    }
    for (int i = 0; rc == 0 && i < p.n; i++) rc = krn_cuda__alloc(c, &p.bufs[i], p.total, err);
    if (rc == 0) rc = krn_cuda__repack_all(&p, err);
    free(p.bufs);
    if (rc == 0 && m->output.data == m->tok_embd.data && m->output.type == m->tok_embd.type &&
        !krn_type_is_kquant(m->output.type))
        c->output.data = c->tok_embd.data;
    return rc;
}

// The host's table (kernels/rope_table.c), uploaded unchanged.
static int krn_cuda__upload_rope(krn_cuda *c, const krn_model *m, int32_t cap,
                                 sb_err *err) {
    krn_rope_table t;
    if (krn_rope_table_init(&t, cap, m->head_dim, m->rope_base, err)) return -1;
    const size_t bytes = (size_t)cap * (size_t)t.half * sizeof(float);
    int rc = KRN_CUDA_CHECK(cudaMemcpy(c->rope_cos, t.cos, bytes, cudaMemcpyHostToDevice), err);
    if (rc == 0)
        rc = KRN_CUDA_CHECK(cudaMemcpy(c->rope_sin, t.sin, bytes, cudaMemcpyHostToDevice), err);
    krn_rope_table_free(&t);
    return rc;
}

// ---- create -----------------------------------------------------------------

static int krn_cuda__pick_device(int *device, sb_err *err) {
    int n = 0;
    const cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess || n == 0) {
        cudaGetLastError();
        return sb_err_set(err, "krn_cuda_create", "no CUDA GPU is available "
                          "(%s); use --device cpu",
                          rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
    }
    *device = 0;
    return KRN_CUDA_CHECK(cudaSetDevice(0), err);
}

extern "C" krn_backend *krn_cuda_create(const krn_model *model,
                                        const krn_options *opt, sb_err *err) {
    krn_cuda *c = NULL;
    int device = 0;
    if (krn_model_check(model, err)) return NULL;
    if (!opt) {
        sb_err_set(err, "krn_cuda_create", "options are NULL");
        return NULL;
    }
    if (opt->kv_capacity < 1) {
        sb_err_set(err, "krn_cuda_create", "kv_capacity is %d; expected >= 1",
                   (int)opt->kv_capacity);
        return NULL;
    }
    if (krn_tuning_check(&opt->tuning, err)) return NULL;
    if (krn_options_batch_rows(opt, err) < 0) return NULL;
    if (krn_cuda__pick_device(&device, err)) return NULL;
    size_t free0 = 0, free1 = 0, all = 0;
    cudaFree(0); // the context exists before the first reading
    cudaMemGetInfo(&free0, &all);
    c = (krn_cuda *)calloc(1, sizeof *c);
    if (c) c->layers = (krn_cuda_layer *)calloc((size_t)model->n_layer, sizeof *c->layers);
    if (!c || !c->layers) {
        sb_err_set(err, "krn_cuda_create", "out of host memory for the backend");
        goto fail;
    }
    c->base.ops = &krn_cuda__ops;
    c->base.model = model;
    c->base.kv_capacity = opt->kv_capacity;
    c->base.max_batch_rows = krn_options_batch_rows(opt, err); // checked above
    c->base.kv_slots = krn_options_slots(model, opt, err);
    if (c->base.kv_slots < 0) goto fail;
    c->device = device;
    krn_cuda__dims(c, model);
    krn_cuda__attn_slots(c, model, opt->kv_capacity);
    c->cfg.attn = (int)opt->tuning.attention; // krn_attn_kernel's values are cfg.attn's
    c->cfg.graphs = !opt->tuning.no_graphs;
    if (opt->tuning.profile) {
        c->prof = (krn_cuda_prof *)calloc(1, sizeof *c->prof);
        c->cfg.graphs = 0; // events between stages; no capture
        for (int i = 0; c->prof && i < KRN_CUDA__PROF_EVENTS; i++)
            if (cudaEventCreate(&c->prof->ev[i]) != cudaSuccess) {
                cudaGetLastError();
                break;
            }
    }
    if (krn_cuda_matmul_setup(&c->cfg, &opt->tuning, device, err) ||
        krn_cuda__apply_choices(c, opt, err) ||
        krn_cuda_attention_setup(&c->cfg, model->head_dim, model->n_head / model->n_head_kv,
                                 err) ||
        KRN_CUDA_CHECK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking), err) ||
        krn_cuda__alloc_all(c, model, opt->kv_capacity, err) ||
        krn_cuda__upload_rope(c, model, opt->kv_capacity, err) ||
        // The uploads and memsets ran on the legacy default stream, which
        // the backend's non-blocking stream does not wait for: finish them.
        KRN_CUDA_CHECK(cudaDeviceSynchronize(), err) ||
        krn_cuda_warm_up(c, err))
        goto fail;
    cudaMemGetInfo(&free1, &all);
    c->mem_taken = (int64_t)free0 - (int64_t)free1;
    c->mem_used = (int64_t)all - (int64_t)free1;
    return &c->base;
fail:
    krn_cuda__destroy(c ? &c->base : NULL);
    return NULL;
}
