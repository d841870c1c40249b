/*
 * create.c — krn_cpu_create and destroy: the model check, the KV cache, the
 * scratch for the backend's largest batch (krn_options.max_batch_rows: 64
 * rows unless asked), the RoPE table and the thread pool, all
 * had up front so that a step never allocates and never fails.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cpu_backend.h"
#include "qdot.h"

static void krn_cpu__destroy(krn_backend *b) {
    krn_cpu *c = (krn_cpu *)b;
    if (!c) return;
    krn_cpu_pool_destroy(c->pool);
    krn_rope_table_free(&c->rope);
    free(c->k_cache);
    free(c->v_cache);
    free(c->vecs);
    free(c->x);
    free(c->h);
    free(c->q);
    free(c->k);
    free(c->v);
    free(c->att);
    free(c->g);
    free(c->u);
    free(c->xq);
    free(c->xq32);
    free(c->wbuf);
    free(c->fbuf);
    free(c->ascratch);
    free(c);
}

/* The logits buffer (krn_host_alloc) on 2 MB pages where the kernel has
 * them: a 64-row step writes each tile's outputs to 64 rows n_vocab floats
 * apart (607 KB for Qwen2.5's vocabulary), 64 different 4 KB pages at once,
 * which 2 MB pages hold in a few TLB entries. */
enum { KRN_CPU__HUGE = 2 << 20 };

static void *krn_cpu__host_alloc(krn_backend *b, size_t bytes) {
    (void)b;
    if (bytes < KRN_CPU__HUGE) return malloc(bytes);
    void *p = NULL;
    const size_t whole = (bytes + KRN_CPU__HUGE - 1) / KRN_CPU__HUGE * KRN_CPU__HUGE;
    if (posix_memalign(&p, KRN_CPU__HUGE, whole) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, whole, MADV_HUGEPAGE); /* advice only */
#endif
    return p;
}

static void krn_cpu__host_free(krn_backend *b, void *p) {
    (void)b;
    free(p);
}

static const krn_backend_ops krn_cpu__ops = {
    .name = "cpu",
    .forward = krn_cpu_forward,
    .destroy = krn_cpu__destroy,
    .host_alloc = krn_cpu__host_alloc,
    .host_free = krn_cpu__host_free,
};

/* One buffer the backend allocates: count elements of elem bytes. */
typedef struct krn_cpu__buf {
    void **ptr;
    uint64_t count, elem;
    const char *what;
} krn_cpu__buf;

enum { KRN_CPU__N_BUFS = 16 };

/* Every count and element size is a product of int32 model dimensions and
 * small constants, so each fits in uint64; their products are checked by
 * krn_cpu__alloc. */
static void krn_cpu__plan(krn_cpu *c, const krn_model *m, int32_t cap,
                          krn_cpu__buf b[KRN_CPU__N_BUFS]) {
    const uint64_t rows = (uint64_t)c->base.max_batch_rows, nt = (uint64_t)c->n_threads;
    const uint64_t slots = (uint64_t)m->n_layer * (uint64_t)cap;
    const uint64_t kv_slot = (uint64_t)c->kv_dim * sizeof(uint16_t);
    const uint64_t n_vecs = (uint64_t)(m->n_layer + 1) *
        (uint64_t)(2 * c->n_embd + c->q_dim + 2 * c->kv_dim);
    const uint64_t f = sizeof(float);
    int i = 0;
    b[i++] = (krn_cpu__buf){(void **)&c->k_cache, slots, kv_slot, "K cache"};
    b[i++] = (krn_cpu__buf){(void **)&c->v_cache, slots, kv_slot, "V cache"};
    b[i++] = (krn_cpu__buf){(void **)&c->vecs, n_vecs, f, "norms and biases"};
    b[i++] = (krn_cpu__buf){(void **)&c->x, rows, (uint64_t)c->n_embd * f, "x rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->h, rows, (uint64_t)c->n_embd * f, "h rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->q, rows, (uint64_t)c->q_dim * f, "q rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->k, rows, (uint64_t)c->kv_dim * f, "k rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->v, rows, (uint64_t)c->kv_dim * f, "v rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->att, rows, (uint64_t)c->q_dim * f,
                            "attention rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->g, rows, (uint64_t)c->n_ff * f, "gate rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->u, rows, (uint64_t)c->n_ff * f, "up rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->xq, rows * (uint64_t)(c->max_in / KRN_QBLOCK),
                            sizeof(krn_act_block), "quantized rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->xq32, rows * (uint64_t)(c->max_in / KRN_QBLOCK),
                            sizeof(krn_act_block), "quantized rows (groups of 32)"};
    b[i++] = (krn_cpu__buf){(void **)&c->wbuf, nt * (uint64_t)c->wbuf_stride,
                            sizeof(krn_wblock), "unpacked weight rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->fbuf, nt * (uint64_t)c->fbuf_stride, f,
                            "float weight rows"};
    b[i++] = (krn_cpu__buf){(void **)&c->ascratch, nt * (uint64_t)c->ascratch_stride,
                            f, "attention scratch"};
}

/* Allocates every planned buffer, zeroed: even a caller that attends to
 * slots it never wrote reads zeros, not stale memory. */
static int krn_cpu__alloc(krn_cpu *c, const krn_model *m, int32_t cap,
                          sb_err *err) {
    krn_cpu__buf b[KRN_CPU__N_BUFS];
    uint64_t bytes[KRN_CPU__N_BUFS], total = 0;
    krn_cpu__plan(c, m, cap, b);
    for (int i = 0; i < KRN_CPU__N_BUFS; i++)
        if (!sb_mul_u64(b[i].count, b[i].elem, &bytes[i]) ||
            !sb_add_u64(total, bytes[i], &total) || total > SIZE_MAX)
            return sb_err_set(err, "krn_cpu_create", "the size of the %s for "
                              "%d KV slots overflows", b[i].what, (int)cap);
    for (int i = 0; i < KRN_CPU__N_BUFS; i++) {
        *b[i].ptr = calloc((size_t)b[i].count, (size_t)b[i].elem);
        if (!*b[i].ptr)
            return sb_err_set(err, "krn_cpu_create", "out of memory for the "
                              "%s: %llu bytes (this backend needs %llu bytes "
                              "in all for %d KV slots)", b[i].what,
                              (unsigned long long)bytes[i],
                              (unsigned long long)total, (int)cap);
    }
    return 0;
}

/* Dimensions, and per-thread strides rounded so that two threads' buffers
 * never share a 64-byte cache line (krn_wblock is 44 bytes: 16 of them are
 * 704 = 11 lines; 16 floats are one line). */
static void krn_cpu__dims(krn_cpu *c, const krn_model *m) {
    const krn_dims d = krn_model_dims(m);
    c->n_embd = d.n_embd, c->n_ff = d.n_ff, c->q_dim = d.q_dim, c->kv_dim = d.kv_dim;
    c->max_in = d.max_in;
    c->wbuf_stride = (c->max_in / KRN_QBLOCK + 15) & ~(int64_t)15;
    c->fbuf_stride = (c->max_in + 15) & ~(int64_t)15;
    c->ascratch_stride = (krn_cpu_attn_group_scratch(m->head_dim, m->n_head / m->n_head_kv) +
                          15) & ~(int64_t)15;
    /* Checked by krn_model_check; cannot fail here. */
    (void)krn_row_bytes(m->tok_embd.type, m->n_embd, &c->embd_row_bytes);
}

/* Copies the f32 norms and biases: the model's pointers into a file mapping
 * need not be aligned for float loads. */
static void krn_cpu__copy_vecs(krn_cpu *c, const krn_model *m) {
    const size_t e = (size_t)c->n_embd * sizeof(float);
    const size_t qd = (size_t)c->q_dim * sizeof(float);
    const size_t kvd = (size_t)c->kv_dim * sizeof(float);
    for (int32_t il = 0; il < m->n_layer; il++) {
        const krn_layer *l = &m->layers[il];
        krn_cpu_lvec v = krn_cpu_layer_vecs(c, il);
        memcpy(v.attn_norm, l->attn_norm.data, e);
        memcpy(v.ffn_norm, l->ffn_norm.data, e);
        memcpy(v.bq, l->bq.data, qd);
        memcpy(v.bk, l->bk.data, kvd);
        memcpy(v.bv, l->bv.data, kvd);
    }
    memcpy(krn_cpu_out_norm(c), m->output_norm.data, e);
}

static int krn_cpu__check_options(const krn_options *opt, sb_err *err) {
    if (!opt) return sb_err_set(err, "krn_cpu_create", "options are NULL");
    if (opt->kv_capacity < 1)
        return sb_err_set(err, "krn_cpu_create", "kv_capacity is %d; expected "
                          ">= 1", (int)opt->kv_capacity);
    return krn_tuning_check(&opt->tuning, err);
}

krn_backend *krn_cpu_create(const krn_model *model, const krn_options *opt,
                            sb_err *err) {
    krn_cpu *c = NULL;
    /* The CPU backend makes no launch choices: any imported one is refused. */
    if (krn_model_check(model, err) || krn_cpu__check_options(opt, err) ||
        krn_choices_import(NULL, NULL, NULL, 0, opt, err))
        goto fail;
    c = calloc(1, sizeof *c);
    if (!c) {
        sb_err_set(err, __func__, "out of memory for the backend");
        goto fail;
    }
    c->base = (krn_backend){.ops = &krn_cpu__ops, .model = model,
                            .kv_capacity = opt->kv_capacity};
    c->base.max_batch_rows = krn_options_batch_rows(opt, err);
    if (c->base.max_batch_rows < 0) goto fail;
    c->base.kv_slots = krn_options_slots(model, opt, err);
    if (c->base.kv_slots < 0) goto fail;
    c->n_threads = opt->n_threads < 1 ? 1
                 : opt->n_threads > KRN_CPU_MAX_THREADS ? KRN_CPU_MAX_THREADS
                 : opt->n_threads;
    c->isa = (int)krn_cpu_isa_pick(opt->tuning.cpu_isa);
    c->f16 = krn_cpu_f16_table();
    krn_cpu__dims(c, model);
    if (krn_cpu__alloc(c, model, c->base.kv_slots, err)) goto fail;
    krn_cpu__copy_vecs(c, model);
    if (krn_rope_table_init(&c->rope, opt->kv_capacity, model->head_dim,
                          model->rope_base, err))
        goto fail;
    c->pool = krn_cpu_pool_create(c->n_threads, err);
    if (!c->pool) goto fail;
    return &c->base;
fail:
    krn_cpu__destroy(c ? &c->base : NULL);
    return NULL;
}
