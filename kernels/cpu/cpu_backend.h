/*
 * cpu_backend.h — private to kernels/cpu/: the CPU backend's state, shared
 * by create.c (allocation) and forward.c (the step).
 *
 * Every buffer is sized for base.max_batch_rows rows (KRN_MAX_ROWS unless
 * krn_options asked for more) at create time; a step never allocates. Row r
 * of a (rows, n) buffer starts at r * n.
 */
#ifndef SB_KERNELS_CPU_BACKEND_H
#define SB_KERNELS_CPU_BACKEND_H

#include "cpu.h"

typedef struct krn_cpu {
    krn_backend base;          /* first: a krn_cpu * is a krn_backend * */
    krn_cpu_pool *pool;        /* owned */
    krn_rope_table rope;         /* owned, kv_capacity positions */
    const float *f16;          /* krn_cpu_f16_table(), not owned */
    int n_threads;
    int isa;                   /* krn_cpu_isa of the matmuls (qdot.h),
                                  picked at create */
    int64_t n_embd, n_ff, q_dim, kv_dim, max_in;
    uint64_t embd_row_bytes;   /* bytes of one tok_embd row */
    uint16_t *k_cache;         /* (n_layer, kv_slots, kv_dim) fp16, owned */
    uint16_t *v_cache;         /* same shape, owned */
    float *vecs;               /* aligned copies of norms and biases, owned:
                                  per layer attn_norm, ffn_norm, bq, bk, bv;
                                  then output_norm */
    float *x;                  /* (rows, n_embd) residual stream, owned */
    float *h;                  /* (rows, n_embd) normed input of a matmul */
    float *q;                  /* (rows, q_dim) */
    float *k, *v;              /* (rows, kv_dim) each */
    float *att;                /* (rows, q_dim) attention output */
    float *g, *u;              /* (rows, n_ff) each; g then holds silu(g)*u */
    krn_act_block *xq;         /* (rows, max_in/32) a matmul's quantized input,
                                  in groups of 256 (K-quant weights) */
    krn_act_block *xq32;       /* the same in groups of 32 (the other types) */
    krn_wblock *wbuf;          /* (n_threads, wbuf_stride) */
    float *fbuf;               /* (n_threads, fbuf_stride) */
    float *ascratch;           /* (n_threads, ascratch_stride) */
    int64_t wbuf_stride, fbuf_stride, ascratch_stride;
} krn_cpu;

/* One layer's vectors inside krn_cpu.vecs (borrowed from it). */
typedef struct krn_cpu_lvec {
    float *attn_norm, *ffn_norm, *bq, *bk, *bv;
} krn_cpu_lvec;

static inline krn_cpu_lvec krn_cpu_layer_vecs(const krn_cpu *c, int32_t il) {
    const int64_t per = 2 * c->n_embd + c->q_dim + 2 * c->kv_dim;
    krn_cpu_lvec v;
    v.attn_norm = c->vecs + il * per;
    v.ffn_norm = v.attn_norm + c->n_embd;
    v.bq = v.ffn_norm + c->n_embd;
    v.bk = v.bq + c->q_dim;
    v.bv = v.bk + c->kv_dim;
    return v;
}

/* output_norm, after the last layer's vectors. */
static inline float *krn_cpu_out_norm(const krn_cpu *c) {
    return krn_cpu_layer_vecs(c, c->base.model->n_layer).attn_norm;
}

/* The backend's forward (forward.c), called with a checked batch. */
int krn_cpu_forward(krn_backend *b, const krn_batch *batch, sb_err *err);

#endif /* SB_KERNELS_CPU_BACKEND_H */
