/*
 * cpu.h — private to kernels/cpu/ (and its tests): the CPU reference
 * backend's thread pool and operators.
 *
 * Each operator's exact float order is stated in its .c file's header
 * comment; that comment is the contract the CUDA kernels must match. Every
 * operator computes one row (or one row and head) at a time from that row's
 * data only, so its bits never depend on the batch or on the thread count.
 *
 *     krn_cpu_pool *p = krn_cpu_pool_create(3, &err);
 *     krn_cpu_pool_run(p, task, &ctx);   // task(&ctx, tid, 3), tid 0..2
 *     krn_cpu_pool_destroy(p);
 */
#ifndef SB_KERNELS_CPU_H
#define SB_KERNELS_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "../backend_impl.h"

/* The most worker threads a backend runs; more are clamped to this. */
enum { KRN_CPU_MAX_THREADS = 256 };

/* ==== pool.c: a persistent pool with a barrier-style parallel-for ======== */

typedef struct krn_cpu_pool krn_cpu_pool;

/* One parallel task: called once per thread with tid in 0..n_threads-1. */
typedef void (*krn_cpu_task)(void *ctx, int tid, int n_threads);

/* n_threads workers including the caller (n_threads <= 0 means 1; more than
 * KRN_CPU_MAX_THREADS is clamped). Returns NULL and fills err when a thread
 * or memory cannot be had. Destroy with krn_cpu_pool_destroy. */
krn_cpu_pool *krn_cpu_pool_create(int n_threads, sb_err *err);
int krn_cpu_pool_threads(const krn_cpu_pool *p);
/* Runs fn(ctx, tid, n) on the calling thread (tid 0) and on each worker
 * that joins before the caller's call returns (a worker the OS is not
 * running skips the run), and returns when every call has returned; every
 * write a task made is visible afterwards. So a task must not divide its
 * work by tid: it claims items with krn_cpu_claim until none are left,
 * and the caller alone would finish them all. */
void krn_cpu_pool_run(krn_cpu_pool *p, krn_cpu_task fn, void *ctx);
void krn_cpu_pool_destroy(krn_cpu_pool *p);

/* Claims the next chunk of a run's n items from the shared counter *next
 * (0 before the run): [*lo, *hi), or false when all are claimed. Relaxed
 * is enough: the pool's own synchronisation publishes the inputs before
 * the run and the outputs after it. */
static inline bool krn_cpu_claim(int64_t *next, int64_t n, int64_t chunk,
                                 int64_t *lo, int64_t *hi) {
    const int64_t i = __atomic_fetch_add(next, chunk, __ATOMIC_RELAXED);
    if (i >= n) return false;
    *lo = i;
    *hi = n - i < chunk ? n : i + chunk;
    return true;
}

/* ==== rmsnorm.c ========================================================== */

/* y = rmsnorm(x) * w over n elements (n >= 1). y must not alias x: it is
 * used as scratch for the squares before it receives the result. */
void krn_cpu_rmsnorm(const float *x, const float *w, float eps, int64_t n,
                     float *y);

/* ==== rope.c ============================================================= */

/* Rotates n_heads heads of 2·t->half floats each, in place, at pos
 * (0 <= pos < t->n_pos). */
void krn_cpu_rope_apply(const krn_rope_table *t, int32_t pos, float *x,
                        int32_t n_heads);

/* ==== attention.c ======================================================== */

/* fp16 -> fp32 for all 65536 halves, built once (thread-safe) from
 * krn_fp16_to_fp32; owned by the module, never freed. */
const float *krn_cpu_f16_table(void);

/* Floats of scratch one krn_cpu_attn_head call needs. */
int64_t krn_cpu_attn_scratch(int32_t head_dim);

/* One query head against the keys/values of positions first..last
 * (0 <= first <= last): position t's key is in slot t % n_slots,
 * k[slot*kv_stride .. +head_dim) (fp16), its value likewise in v. Writes
 * head_dim floats to out. scratch holds krn_cpu_attn_scratch(head_dim)
 * floats. */
typedef struct krn_cpu_attn {
    const float *q;        /* head_dim floats (after RoPE) */
    const uint16_t *k;     /* borrowed; slot stride kv_stride halves */
    const uint16_t *v;
    int64_t kv_stride;
    int32_t head_dim;
    int32_t first, last;   /* the positions attended to */
    int32_t n_slots;       /* slots of the (ring) cache */
    const float *f16;      /* krn_cpu_f16_table() */
    float *scratch;
    float *out;            /* head_dim floats, written */
} krn_cpu_attn;

void krn_cpu_attn_head(const krn_cpu_attn *a);

/* krn_cpu_attn_head or a version of it for instruction set isa (a
 * krn_cpu_isa, qdot.h) that gives the same bits (attention_avx2.c and
 * attention_avx512.c, for head dims that are a multiple of 32). */
typedef void (*krn_cpu_attn_fn)(const krn_cpu_attn *a);
krn_cpu_attn_fn krn_cpu_attn_head_for(int isa, int32_t head_dim);

/* Grouped-query attention: n_heads >= 1 query heads sharing one KV head,
 * each exactly krn_cpu_attn_head's computation (the same bits). a->q and
 * a->out hold the heads one after another (head i at i·head_dim); the
 * other fields are as for one head, scratch holding
 * krn_cpu_attn_group_scratch(head_dim, n_heads) floats. The SIMD versions
 * widen each value row once for several heads (attention_simd.h). */
int64_t krn_cpu_attn_group_scratch(int32_t head_dim, int32_t n_heads);
void krn_cpu_attn_group(const krn_cpu_attn *a, int32_t n_heads); /* head by head */
typedef void (*krn_cpu_attn_group_fn)(const krn_cpu_attn *a, int32_t n_heads);
krn_cpu_attn_group_fn krn_cpu_attn_group_for(int isa, int32_t head_dim);

/* ==== ffn.c ============================================================== */

/* silu(g) = g / (1.0f + krn_exp(-g)). */
float krn_cpu_silu(float g);
/* a_i = silu(g_i) * u_i for n elements; a may alias g or u. */
void krn_cpu_swiglu(const float *g, const float *u, int64_t n, float *a);
/* krn_cpu_swiglu or a version of it for instruction set isa (a
 * krn_cpu_isa, qdot.h) that gives the same bits (ffn_avx2.c). */
typedef void (*krn_cpu_swiglu_fn)(const float *g, const float *u, int64_t n,
                                  float *a);
krn_cpu_swiglu_fn krn_cpu_swiglu_for(int isa);

/* ==== act_avx2.c ========================================================= */

/* krn_quantize_act (kernels.h §2) or a version of it for instruction set
 * isa (a krn_cpu_isa, qdot.h) that writes the same bytes. */
typedef void (*krn_cpu_quantize_fn)(const float *x, krn_act_block *out,
                                    int64_t n, int64_t group);
krn_cpu_quantize_fn krn_cpu_quantize_act_for(int isa);

/* ==== matmul.c =========================================================== */

/* One weight matrix of a matmul group and where its outputs go: for batch
 * row r and output o, y[r*ldy + o] = W[o,:]·x_r, then + bias[o] when bias
 * is set, or y_old + that when accumulate is set (never both). */
typedef struct krn_cpu_mm_out {
    const krn_tensor *w;   /* (ne1 outputs, ne0 = n_in inputs), borrowed */
    const float *bias;     /* ne1 floats or NULL */
    bool accumulate;
    float *y;
    int64_t ldy;
} krn_cpu_mm_out;

enum { KRN_CPU_MM_MAX_OUT = 3 };

/* Up to three matmuls sharing one input (q/k/v, gate/up), run as one
 * parallel task over their concatenated outputs. */
typedef struct krn_cpu_mm {
    int n_out;                          /* 1..KRN_CPU_MM_MAX_OUT */
    krn_cpu_mm_out out[KRN_CPU_MM_MAX_OUT];
    int64_t next;                       /* krn_cpu_claim's counter: 0 */
    int n_rows;                         /* 1..the backend's max_batch_rows */
    int64_t n_in;                       /* multiple of 32 */
    const float *x;                     /* row r at x + r*ldx (float weights) */
    int64_t ldx;
    const krn_act_block *xq;            /* row r at xq + r*(n_in/32): x
                                           quantized in groups of 256 (for
                                           K-quant weights) */
    const krn_act_block *xq32;          /* the same in groups of 32 (for
                                           the other quantized types) */
    int isa;                            /* krn_cpu_isa (qdot.h) of the
                                           fused kernels; 0: the scalar
                                           reference */
    krn_wblock *wbuf;                   /* n_threads * wbuf_stride blocks */
    int64_t wbuf_stride;                /* >= n_in/32 */
    float *fbuf;                        /* n_threads * fbuf_stride floats */
    int64_t fbuf_stride;                /* >= n_in */
} krn_cpu_mm;

/* The pool task: ctx is a krn_cpu_mm. */
void krn_cpu_matmul_task(void *ctx, int tid, int n_threads);

#endif /* SB_KERNELS_CPU_H */
