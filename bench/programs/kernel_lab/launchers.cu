// launchers.cu — kernel_lab's only calls into kernels/cuda's internals (its
// state, krn_cuda, and its launchers): a change of their signatures is a
// change of this file alone. Each call is made as forward.cu makes it.
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "../../../kernels/cuda/mmq.cuh"

cudaStream_t lab_stream(const krn_cuda *c) { return c->stream; }

// The launchers' stream and launch-overlap mask, as forward.cu passes them.
static krn_cuda_exec lab_exec(const krn_cuda *c) {
    const krn_cuda_exec ex = {c->stream, c->cfg.pdl_mask};
    return ex;
}

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

void lab_group_fill(const krn_cuda *c, const krn_model *m, int il, lab_matrix matrix,
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
const uint8_t *lab_mat_bytes(const krn_cuda_mat *w, uint64_t *bytes) {
    if (w->packed) {
        *bytes = krn_cuda_kq_bytes(w->type, w->ne0, w->ne1);
        return w->packed;
    }
    *bytes = (uint64_t)w->ne1 * w->row_bytes;
    return w->data;
}

// w with its bytes at p instead (a copy of the same bytes).
krn_cuda_mat lab_mat_at(const krn_cuda_mat *w, const uint8_t *p) {
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
const char *lab_matmul_path(const krn_cuda *c, lab_kind kind, krn_type type, int rows) {
    const krn_cuda_cfg cfg = lab_cfg(c, kind);
    if (!krn_type_is_quantized(type)) return "float";
    if (!krn_type_is_kquant(type)) return "block32";
    return rows <= cfg.mmvq_rows ? "mmvq" : "mmq";
}

int lab_mmvq_max_rows(void) { return KRN_CUDA_MMVQ_MAX_ROWS; }

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
int lab_launch(const lab_rig *r, const lab_case *k, int i, sb_err *err) {
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
int lab_quantize_input(const lab_rig *r, const lab_group *g, int rows, sb_err *err) {
    return krn_cuda_quantize(g->x, g->mat[0]->ne0, rows, &r->c->xq, lab_exec(r->c), err);
}

lab_scratch lab_scratch_of(const krn_cuda *c, const krn_model *m) {
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

int32_t *lab_positions_buffer(const krn_cuda *c) { return c->pos; }

int lab_l2_and_sms(const krn_cuda *c, lab_rig *r, sb_err *err) {
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
void lab_print_choices(const krn_cuda *c, FILE *out) {
    fprintf(out, "backend choices: mmvq up to %d rows, matmul split %s, attention %s, "
            "launch overlap mask %d, mmvq warps %d\n", c->cfg.mmvq_rows,
            c->cfg.mm_split ? "on" : "off",
            c->cfg.attn == 1 ? "ref" : c->cfg.attn == 2 ? "rows" : c->cfg.attn == 3 ? "split"
                                                                                   : "auto",
            c->cfg.pdl_mask, c->cfg.mmvq_warps);
}
