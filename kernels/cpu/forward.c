/*
 * forward.c — the CPU reference backend's step: the Qwen2 forward pass over
 * 1..64 rows, or up to the backend's max_batch_rows for a prefill chunk
 * (create.c allocates what it uses).
 *
 * Per row r (all fp32; each operator's float order is in its own file):
 *   x = dequantized row tokens[r] of tok_embd
 *   per layer:
 *     h = rmsnorm(x, attn_norm)                      rmsnorm.c
 *     q = Wq·h + bq; k = Wk·h + bk; v = Wv·h + bv     matmul.c (q, k, v share
 *                                                    h's quantization)
 *     RoPE on q and k                                rope.c
 *     K, V rounded to fp16 into KV slot pos[r]
 *     att = attention over slots 0..pos[r]           attention.c
 *     x = x + Wo·att
 *     h = rmsnorm(x, ffn_norm)
 *     x = x + Wdown·(silu(Wgate·h) * (Wup·h))        ffn.c
 *   logits = Woutput·rmsnorm(x, output_norm)     only rows >= logits_from
 *
 * Each stage is one parallel run of the pool, whose threads claim the
 * stage's items: rows for row-wise stages (a 1-row step runs them on the
 * calling thread), runs of 8- or 16-output tiles for matmuls, (row, KV head)
 * pairs for attention, each running the query heads that share the KV head
 * together (split further only where that would leave a thread idle). Every
 * row's K/V of a layer is written before any row attends, so rows of one
 * batch see each other (row r reads slots <= pos[r] only). Nothing a thread
 * computes depends on which thread it is or how many there are.
 *
 * Rows before batch->logits_from (kernels.h) skip the output norm and the
 * LM head: those stages run over rows logits_from..n_rows-1 only. A matmul
 * computes each output of each row by itself (docs/determinism.md, "One
 * row at a time"), so the rows it still computes keep their bits.
 */
#include "cpu_backend.h"

/* ---- one step ------------------------------------------------------------ */

typedef struct krn_cpu__step krn_cpu__step;
typedef void (*krn_cpu__row_fn)(const krn_cpu__step *s, int r);

struct krn_cpu__step {
    krn_cpu *c;
    const krn_batch *batch;
    int32_t il;             /* current layer */
    krn_cpu_lvec lv;        /* its vectors */
    krn_cpu__row_fn row_fn; /* for krn_cpu__rows_task */
    int first_row;          /* krn_cpu__rows_task runs first_row..n_rows-1 */
    int64_t next;           /* krn_cpu_claim's counter for a run: 0 */
};

static void krn_cpu__rows_task(void *ctx, int tid, int nt) {
    (void)tid;
    (void)nt;
    krn_cpu__step *s = ctx;
    int64_t lo, hi;
    while (krn_cpu_claim(&s->next, s->batch->n_rows - s->first_row, 1, &lo, &hi))
        s->row_fn(s, s->first_row + (int)lo);
}

/* fn on rows first..n_rows-1 (first < n_rows). A single row runs on the
 * calling thread: the other threads would have nothing to do, and waking
 * them and waiting for them (a pool round trip) costs more than the row's
 * norm, RoPE or SwiGLU. Which thread computes a row never changes its
 * bits. */
static void krn_cpu__run_rows_from(krn_cpu__step *s, krn_cpu__row_fn fn,
                                   int first) {
    s->row_fn = fn;
    s->first_row = first;
    s->next = 0;
    if (s->batch->n_rows - first == 1)
        fn(s, first);
    else
        krn_cpu_pool_run(s->c->pool, krn_cpu__rows_task, s);
}

static void krn_cpu__run_rows(krn_cpu__step *s, krn_cpu__row_fn fn) {
    krn_cpu__run_rows_from(s, fn, 0);
}

static void krn_cpu__embed_row(const krn_cpu__step *s, int r) {
    const krn_cpu *c = s->c;
    const krn_tensor *t = &c->base.model->tok_embd;
    const unsigned char *row = (const unsigned char *)t->data +
                               (uint64_t)s->batch->tokens[r] * c->embd_row_bytes;
    krn_dequantize_row(t->type, row, c->x + r * c->n_embd, c->n_embd);
}

/* Row r of n floats quantized both ways a matmul may read it
 * (kernels.h §2): in groups of 32 into xq32, and, when n is whole
 * super-blocks (a K-quant matmul can read it), in groups of 256 into xq. */
static void krn_cpu__quantize_row(const krn_cpu *c, const float *x, int r, int64_t n) {
    const krn_cpu_quantize_fn quantize = krn_cpu_quantize_act_for(c->isa);
    quantize(x, c->xq32 + r * (n / KRN_QBLOCK), n, KRN_QBLOCK);
    if (n % KRN_SUPER == 0)
        quantize(x, c->xq + r * (n / KRN_QBLOCK), n, KRN_SUPER);
}

/* h = rmsnorm(x, w) and its quantization, for the matmuls that read h. */
static void krn_cpu__norm_row(const krn_cpu__step *s, int r, const float *w) {
    const krn_cpu *c = s->c;
    const int64_t n = c->n_embd;
    krn_cpu_rmsnorm(c->x + r * n, w, c->base.model->rms_eps, n, c->h + r * n);
    krn_cpu__quantize_row(c, c->h + r * n, r, n);
}

static void krn_cpu__attn_norm_row(const krn_cpu__step *s, int r) {
    krn_cpu__norm_row(s, r, s->lv.attn_norm);
}

static void krn_cpu__ffn_norm_row(const krn_cpu__step *s, int r) {
    krn_cpu__norm_row(s, r, s->lv.ffn_norm);
}

static void krn_cpu__out_norm_row(const krn_cpu__step *s, int r) {
    krn_cpu__norm_row(s, r, krn_cpu_out_norm(s->c));
}

/* RoPE on q and k, then K and V into the layer's cache at slot
 * pos[r] % kv_slots. */
static void krn_cpu__rope_kv_row(const krn_cpu__step *s, int r) {
    const krn_cpu *c = s->c;
    const krn_model *m = c->base.model;
    const int32_t pos = s->batch->pos[r];
    float *k = c->k + r * c->kv_dim;
    const float *v = c->v + r * c->kv_dim;
    krn_cpu_rope_apply(&c->rope, pos, c->q + r * c->q_dim, m->n_head);
    krn_cpu_rope_apply(&c->rope, pos, k, m->n_head_kv);
    const int64_t slot =
        ((int64_t)s->il * c->base.kv_slots + pos % c->base.kv_slots) * c->kv_dim;
    uint16_t *kc = c->k_cache + slot, *vc = c->v_cache + slot;
    for (int64_t i = 0; i < c->kv_dim; i++) {
        kc[i] = krn_fp32_to_fp16(k[i]);
        vc[i] = krn_fp32_to_fp16(v[i]);
    }
}

static void krn_cpu__att_quant_row(const krn_cpu__step *s, int r) {
    const krn_cpu *c = s->c;
    krn_cpu__quantize_row(c, c->att + r * c->q_dim, r, c->q_dim);
}

static void krn_cpu__swiglu_row(const krn_cpu__step *s, int r) {
    const krn_cpu *c = s->c;
    float *g = c->g + r * c->n_ff;
    krn_cpu_swiglu_for(c->isa)(g, c->u + r * c->n_ff, c->n_ff, g);
    krn_cpu__quantize_row(c, g, r, c->n_ff);
}

/* How many parts each KV head's group of query heads is split into: 1
 * (the group's keys and values widened once) unless rows × KV heads would
 * leave some of the nt threads without an item; then just enough parts,
 * at most one head each. A head's bits do not depend on its part. */
static int32_t krn_cpu__attn_parts(int n_rows, int32_t n_kv, int32_t group, int nt) {
    int32_t parts = 1;
    while ((int64_t)n_rows * n_kv * parts < nt && parts < group) parts++;
    return parts;
}

/* Attention over (row, KV head, part) items, claimed one at a time: each
 * runs its part's query heads together (krn_cpu_attn_group). */
static void krn_cpu__attn_task(void *ctx, int tid, int nt) {
    krn_cpu__step *s = ctx;
    const krn_cpu *c = s->c;
    const krn_model *m = c->base.model;
    const int32_t hd = m->head_dim, n_kv = m->n_head_kv, group = m->n_head / n_kv;
    const int32_t parts = krn_cpu__attn_parts(s->batch->n_rows, n_kv, group, nt);
    const int64_t per_row = (int64_t)n_kv * parts;
    const int64_t layer = (int64_t)s->il * c->base.kv_slots * c->kv_dim;
    const krn_cpu_attn_group_fn group_fn = krn_cpu_attn_group_for(c->isa, hd);
    int64_t i, end;
    while (krn_cpu_claim(&s->next, (int64_t)s->batch->n_rows * per_row, 1, &i, &end)) {
        const int r = (int)(i / per_row);
        const int32_t g = (int32_t)(i % per_row / parts), p = (int32_t)(i % parts);
        const int32_t h = g * group + p * group / parts;
        const int32_t nh = g * group + (p + 1) * group / parts - h;
        const int64_t kv_off = layer + (int64_t)g * hd;
        krn_cpu_attn a = {
            .q = c->q + r * c->q_dim + (int64_t)h * hd,
            .k = c->k_cache + kv_off,
            .v = c->v_cache + kv_off,
            .kv_stride = c->kv_dim,
            .head_dim = hd,
            .first = m->window > 0 && s->batch->pos[r] >= m->window
                         ? s->batch->pos[r] - m->window + 1 : 0,
            .last = s->batch->pos[r],
            .n_slots = c->base.kv_slots,
            .f16 = c->f16,
            .scratch = c->ascratch + tid * c->ascratch_stride,
            .out = c->att + r * c->q_dim + (int64_t)h * hd,
        };
        group_fn(&a, nh);
    }
}

/* An empty matmul group reading input x (rows of n_in elements) whose
 * quantization the previous stage left in c->xq. */
static krn_cpu_mm krn_cpu__mm(const krn_cpu__step *s, const float *x,
                              int64_t n_in) {
    const krn_cpu *c = s->c;
    return (krn_cpu_mm){
        .n_rows = s->batch->n_rows, .n_in = n_in, .x = x, .ldx = n_in,
        .xq = c->xq, .xq32 = c->xq32, .isa = c->isa,
        .wbuf = c->wbuf, .wbuf_stride = c->wbuf_stride,
        .fbuf = c->fbuf, .fbuf_stride = c->fbuf_stride,
    };
}

/* Adds a matrix to the group: y = W·x + bias (bias may be NULL). */
static void krn_cpu__mm_add(krn_cpu_mm *mm, const krn_tensor *w,
                            const float *bias, float *y, int64_t ldy) {
    mm->out[mm->n_out++] = (krn_cpu_mm_out){.w = w, .bias = bias, .y = y,
                                            .ldy = ldy};
}

/* Adds a matrix to the group whose product accumulates: y = y + W·x. */
static void krn_cpu__mm_acc(krn_cpu_mm *mm, const krn_tensor *w, float *y,
                            int64_t ldy) {
    mm->out[mm->n_out++] = (krn_cpu_mm_out){.w = w, .accumulate = true,
                                            .y = y, .ldy = ldy};
}

static void krn_cpu__run_mm(const krn_cpu__step *s, krn_cpu_mm *mm) {
    krn_cpu_pool_run(s->c->pool, krn_cpu_matmul_task, mm);
}

static void krn_cpu__attention_block(krn_cpu__step *s, const krn_layer *l) {
    krn_cpu *c = s->c;
    krn_cpu__run_rows(s, krn_cpu__attn_norm_row);
    krn_cpu_mm mm = krn_cpu__mm(s, c->h, c->n_embd);
    krn_cpu__mm_add(&mm, &l->wq, s->lv.bq, c->q, c->q_dim);
    krn_cpu__mm_add(&mm, &l->wk, s->lv.bk, c->k, c->kv_dim);
    krn_cpu__mm_add(&mm, &l->wv, s->lv.bv, c->v, c->kv_dim);
    krn_cpu__run_mm(s, &mm);
    krn_cpu__run_rows(s, krn_cpu__rope_kv_row);
    s->next = 0;
    krn_cpu_pool_run(c->pool, krn_cpu__attn_task, s);
    krn_cpu__run_rows(s, krn_cpu__att_quant_row);
    mm = krn_cpu__mm(s, c->att, c->q_dim);
    krn_cpu__mm_acc(&mm, &l->wo, c->x, c->n_embd);
    krn_cpu__run_mm(s, &mm);
}

static void krn_cpu__ffn_block(krn_cpu__step *s, const krn_layer *l) {
    krn_cpu *c = s->c;
    krn_cpu__run_rows(s, krn_cpu__ffn_norm_row);
    krn_cpu_mm mm = krn_cpu__mm(s, c->h, c->n_embd);
    krn_cpu__mm_add(&mm, &l->w_gate, NULL, c->g, c->n_ff);
    krn_cpu__mm_add(&mm, &l->w_up, NULL, c->u, c->n_ff);
    krn_cpu__run_mm(s, &mm);
    krn_cpu__run_rows(s, krn_cpu__swiglu_row);
    mm = krn_cpu__mm(s, c->g, c->n_ff);
    krn_cpu__mm_acc(&mm, &l->w_down, c->x, c->n_embd);
    krn_cpu__run_mm(s, &mm);
}

/* logits = Woutput·rmsnorm(x, output_norm) for rows first..n_rows-1: the
 * norm writes h and its quantization at those rows' own places, and the
 * matmul group reads and writes from row `first` on, as a step of
 * n_rows - first rows would (cpu.h: row r's input at x + r*ldx and at
 * xq/xq32 + r*(n_in/32) blocks, its outputs at y + r*ldy). */
static void krn_cpu__lm_head(krn_cpu__step *s, int first) {
    krn_cpu *c = s->c;
    const krn_model *m = c->base.model;
    const int64_t n = c->n_embd, blocks = n / KRN_QBLOCK;
    krn_cpu__run_rows_from(s, krn_cpu__out_norm_row, first);
    krn_cpu_mm mm = krn_cpu__mm(s, c->h + first * n, n);
    mm.n_rows -= first;
    mm.xq += first * blocks;
    mm.xq32 += first * blocks;
    /* Batch row r's logits at logits row r - krn_logits_row0 (kernels.h). */
    const int64_t out_row = first - krn_logits_row0(s->batch->n_rows);
    krn_cpu__mm_add(&mm, &m->output, NULL,
                    s->batch->logits + out_row * m->n_vocab, m->n_vocab);
    krn_cpu__run_mm(s, &mm);
}

int krn_cpu_forward(krn_backend *b, const krn_batch *batch, sb_err *err) {
    (void)err; /* the batch was checked by krn_forward; nothing else fails */
    krn_cpu *c = (krn_cpu *)b;
    const krn_model *m = b->model;
    krn_cpu__step s = {.c = c, .batch = batch};
    krn_cpu__run_rows(&s, krn_cpu__embed_row);
    for (int32_t il = 0; il < m->n_layer; il++) {
        s.il = il;
        s.lv = krn_cpu_layer_vecs(c, il);
        krn_cpu__attention_block(&s, &m->layers[il]);
        krn_cpu__ffn_block(&s, &m->layers[il]);
    }
    if (batch->logits_from < batch->n_rows) /* n_rows: no row wants logits */
        krn_cpu__lm_head(&s, batch->logits_from);
    return 0;
}
