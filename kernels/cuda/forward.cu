// forward.cu — the CUDA backend's step: the Qwen2 forward pass over 1..64
// rows (a captured graph per row bucket), or up to the backend's
// max_batch_rows for a prefill chunk (direct launches), the same stages in
// the same order as kernels/cpu/forward.c, each one launch (or a few) on
// the backend's stream:
//
//   x = embedding rows                                   embed.cu
//   per layer:
//     h = rmsnorm(x, attn_norm), quantized               rmsnorm.cu
//     q = Wq·h + bq; k = Wk·h + bk; v = Wv·h + bv         matmul.cu (one launch)
//     RoPE on q, k; K, V as fp16 into slot pos[r]         rope.cu
//     att = attention over slots 0..pos[r]                attention.cu
//     x = x + Wo·quant(att)                               act_quantize.cu
//     h = rmsnorm(x, ffn_norm), quantized
//     g = Wgate·h, u = Wup·h (one launch)
//     g = silu(g)*u, and quant(g)                         ffn.cu
//     x = x + Wdown·quant(g)
//   logits = Woutput·rmsnorm(x, output_norm)             the last 64 rows at most
//
// Launches on one stream run in order, so every row's K/V of a layer is in
// the cache before any row attends (rows of one batch see each other, as on
// the CPU). Token ids and positions are read from device memory; only the
// attention launches' shape follows the host-known chunks the rows reach
// (krn_cuda_span), and a step's graph is re-captured when that changes.
#include <stdint.h>
#include <stdio.h>

#include "cuda_backend.h"


// ---- krn_tuning.profile (SB_CUDA_PROFILE=1): time per stage --------------------
//
// An event after every stage of the step; after the step's synchronisation
// the time between consecutive events is added to that stage's total for
// the step's row count, and krn_destroy prints the table (stderr). Events
// only: no launch changes, no bit changes; graphs are off while profiling.

static const char *const krn_cuda__stage_names[KRN_CUDA__N_STAGES] = {
    "start", "embed", "norm", "qkv", "rope_kv", "attn", "att_quant", "o_proj",
    "gate_up", "swiglu_q", "down", "head", "logits_d2h"};

static void krn_cuda__mark(const krn_cuda *c, int stage) {
    krn_cuda_prof *p = c->prof;
    if (!p || p->n_ev >= KRN_CUDA__PROF_EVENTS) return;
    if (cudaEventRecord(p->ev[p->n_ev], c->stream) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    p->stage[p->n_ev++] = stage;
}

static void krn_cuda__prof_collect(krn_cuda *c, int n) {
    krn_cuda_prof *p = c->prof;
    if (!p || p->n_ev < 2) return;
    for (int i = 1; i < p->n_ev; i++) {
        float ms = 0.0f;
        if (cudaEventElapsedTime(&ms, p->ev[i - 1], p->ev[i]) != cudaSuccess) {
            cudaGetLastError();
            return;
        }
        p->ms[n][p->stage[i]] += ms;
    }
    p->steps[n]++;
}

void krn_cuda_prof_print(const krn_cuda *c) {
    const krn_cuda_prof *p = c->prof;
    if (!p) return;
    fprintf(stderr, "krn_cuda profile (us per step; matmul split %s, attn=%s):\n"
            "rows steps", c->cfg.mm_split ? "allowed" : "off",
            c->cfg.attn == 1 ? "ref" : c->cfg.attn == 2 ? "rows" : c->cfg.attn == 3 ? "split"
                                                                                   : "auto");
    for (int s = 1; s < KRN_CUDA__N_STAGES; s++) fprintf(stderr, " %9s", krn_cuda__stage_names[s]);
    fprintf(stderr, "     total\n");
    for (int n = 1; n <= KRN_CUDA__PROF_BIG; n++) {
        if (!p->steps[n]) continue;
        double total = 0.0;
        if (n == KRN_CUDA__PROF_BIG) fprintf(stderr, " >%2d %5ld", KRN_MAX_ROWS, p->steps[n]);
        else fprintf(stderr, "%4d %5ld", n, p->steps[n]);
        for (int s = 1; s < KRN_CUDA__N_STAGES; s++) {
            const double us = 1e3 * p->ms[n][s] / (double)p->steps[n];
            total += us;
            fprintf(stderr, " %9.1f", us);
        }
        fprintf(stderr, " %9.1f\n", total);
    }
}

// Where this backend's launches go: its stream, and the kernels its
// configuration lets start early (common.cuh).
static krn_cuda_exec krn_cuda__exec(const krn_cuda *c) {
    const krn_cuda_exec ex = {c->stream, c->cfg.pdl_mask};
    return ex;
}

// One matmul reading x (float rows) / c->xq (their quantization in the
// groups w's type reads: kernels.h §2).
static krn_cuda_mm krn_cuda__mm(const krn_cuda *c, int n, const krn_cuda_mat *w,
                                const float *x, const float *bias, bool accumulate,
                                float *y, int64_t ldy) {
    const krn_cuda_act *xq = krn_type_is_kquant(w->type) ? &c->xq.g256 : &c->xq.g32;
    const krn_cuda_mm mm = {w, x, xq, bias, accumulate, y, ldy, n};
    return mm;
}

// q, k and v read the same h (and share a launch when their types agree).
static int krn_cuda__attention_block(const krn_cuda *c, int n, int32_t il,
                                     krn_cuda_span span, sb_err *err) {
    const krn_model *m = c->base.model;
    const krn_cuda_exec ex = krn_cuda__exec(c);
    const krn_cuda_layer *l = &c->layers[il];
    const int64_t slab = (int64_t)il * c->base.kv_slots * c->kv_dim;
    const krn_cuda_rope_kv rk = {c->q, c->k, c->v, c->rope_cos, c->rope_sin,
                                 c->pos, c->k_cache + slab, c->v_cache + slab,
                                 m->n_head, m->n_head_kv, m->head_dim, n,
                                 c->base.kv_slots};
    const krn_cuda_attn at = {c->q, c->k_cache + slab, c->v_cache + slab,
                              c->pos, c->att, m->n_head, m->n_head_kv,
                              m->head_dim, n, span, m->window, c->base.kv_slots,
                              c->attn_part, c->attn_run,
                              c->attn_slots, c->cfg.attn};
    const krn_cuda_mm qkv[3] = {
        krn_cuda__mm(c, n, &l->wq, c->h, l->bq, false, c->q, c->q_dim),
        krn_cuda__mm(c, n, &l->wk, c->h, l->bk, false, c->k, c->kv_dim),
        krn_cuda__mm(c, n, &l->wv, c->h, l->bv, false, c->v, c->kv_dim)};
    const krn_cuda_mm o = krn_cuda__mm(c, n, &l->wo, c->att, NULL, true, c->x, c->n_embd);
    if (krn_cuda_rmsnorm_quant(c->x, l->attn_norm, m->rms_eps, c->n_embd, n,
                               c->h, &c->xq, ex, err))
        return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_NORM);
    if (krn_cuda_matmul(qkv, 3, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_QKV);
    if (krn_cuda_rope_kv_write(&rk, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_ROPE);
    if (krn_cuda_attention(&at, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_ATTN);
    if (krn_cuda_quantize(c->att, c->q_dim, n, &c->xq, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_ATTQ);
    if (krn_cuda_matmul(&o, 1, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_O);
    return 0;
}

static int krn_cuda__ffn_block(const krn_cuda *c, int n, int32_t il, sb_err *err) {
    const krn_model *m = c->base.model;
    const krn_cuda_exec ex = krn_cuda__exec(c);
    const krn_cuda_layer *l = &c->layers[il];
    const krn_cuda_mm gu[2] = {
        krn_cuda__mm(c, n, &l->w_gate, c->h, NULL, false, c->g, c->n_ff),
        krn_cuda__mm(c, n, &l->w_up, c->h, NULL, false, c->u, c->n_ff)};
    const krn_cuda_mm down = krn_cuda__mm(c, n, &l->w_down, c->g, NULL, true, c->x, c->n_embd);
    if (krn_cuda_rmsnorm_quant(c->x, l->ffn_norm, m->rms_eps, c->n_embd, n,
                               c->h, &c->xq, ex, err))
        return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_NORM);
    if (krn_cuda_matmul(gu, 2, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_GATEUP);
    if (krn_cuda_swiglu_quant(c->g, c->u, c->n_ff, n, &c->xq, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_SWIGLU);
    if (krn_cuda_matmul(&down, 1, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_DOWN);
    return 0;
}

// Rows r0.. of a quantized batch a: the same layout from row r0 on.
static krn_cuda_act krn_cuda__act_from(const krn_cuda_act *a, int r0) {
    krn_cuda_act o = *a;
    o.q += (int64_t)r0 * a->q_stride;
    o.d += (int64_t)r0 * a->d_stride;
    o.s += (int64_t)r0 * a->s_stride;
    return o;
}

// logits = Woutput·rmsnorm(x, output_norm) for the last rows of a step of n:
// rows r0 = krn_logits_row0(n) .. n-1 (every row up to 64; a larger batch's
// last 64, the most it may want: kernels.h), into rows 0.. of c->logits,
// which holds 64. Each row is computed by itself, so starting at r0 changes
// no bit of it; for n <= 64 these are the launches, pointers and all, of the
// whole step (r0 = 0), as captured in the graphs.
static int krn_cuda__head(const krn_cuda *c, int n, sb_err *err) {
    const krn_model *m = c->base.model;
    const krn_cuda_exec ex = krn_cuda__exec(c);
    const int r0 = krn_logits_row0(n), rows = n - r0;
    const krn_cuda_acts xq = {krn_cuda__act_from(&c->xq.g256, r0),
                              krn_cuda__act_from(&c->xq.g32, r0)};
    float *h = c->h + (int64_t)r0 * c->n_embd;
    if (krn_cuda_rmsnorm_quant(c->x + (int64_t)r0 * c->n_embd, c->output_norm, m->rms_eps,
                               c->n_embd, rows, h, &xq, ex, err))
        return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_NORM);
    const krn_cuda_act *in = krn_type_is_kquant(c->output.type) ? &xq.g256 : &xq.g32;
    const krn_cuda_mm out = {&c->output, h, in, NULL, false, c->logits, m->n_vocab, rows};
    if (krn_cuda_matmul(&out, 1, &c->cfg, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_HEAD);
    return 0;
}

// Every launch of a step for n rows, reading c->tokens and c->pos; span
// (the attention chunks the rows reach) sizes the attention launches. The
// output norm and LM head run only when head is set (some row wants logits).
static int krn_cuda__enqueue(const krn_cuda *c, int n, krn_cuda_span span, bool head,
                             sb_err *err) {
    const krn_model *m = c->base.model;
    const krn_cuda_exec ex = krn_cuda__exec(c);
    if (krn_cuda_embed(&c->tok_embd, c->tokens, n, c->x, ex, err)) return -1;
    krn_cuda__mark(c, KRN_CUDA__ST_EMBED);
    for (int32_t il = 0; il < m->n_layer; il++)
        if (krn_cuda__attention_block(c, n, il, span, err) ||
            krn_cuda__ffn_block(c, n, il, err))
            return -1;
    return head ? krn_cuda__head(c, n, err) : 0;
}

// CUDA graphs (on unless krn_tuning.no_graphs, SB_CUDA_GRAPHS=0): the step's launches are
// captured once per row bucket (all of them at create, krn_cuda_warm_up)
// and replayed; re-captured (and the executable graph updated in place)
// when the number of attention chunks changes, once per 64 positions — the
// launch sequence depends on (rows, chunks) only, tokens and positions are
// read from device memory, and every pointer is fixed at create. The same kernels with the same arguments run: the same bits.
// A bucket has two graphs, with and without the LM head (prefill's chunks
// before its last want no logits); the second is captured when first used.
// Returns 1 when the graph ran, 0 when the caller must enqueue directly
// (graphs unavailable: they are then switched off for this backend), -1 on
// an error.
static int krn_cuda__graph_step(krn_cuda *c, int n, krn_cuda_span span, bool head,
                                sb_err *err) {
    krn_cuda_graph *gr = &c->graphs[head][n];
    if (!gr->exec || gr->span.c_lo != span.c_lo || gr->span.nc != span.nc) {
        cudaGraph_t g = NULL;
        if (cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
            cudaGetLastError();
            c->cfg.graphs = 0;
            return 0;
        }
        const int rc = krn_cuda__enqueue(c, n, span, head, err);
        const cudaError_t end = cudaStreamEndCapture(c->stream, &g);
        if (rc || end != cudaSuccess) { // direct launches will tell
            if (g) cudaGraphDestroy(g);
            cudaGetLastError();
            c->cfg.graphs = 0;
            return 0;
        }
        if (gr->exec) {
            cudaGraphExecUpdateResultInfo info;
            if (cudaGraphExecUpdate(gr->exec, g, &info) != cudaSuccess) {
                cudaGetLastError(); // a different topology: instantiate anew
                cudaGraphExecDestroy(gr->exec);
                gr->exec = NULL;
            }
        }
        const cudaError_t inst = gr->exec ? cudaSuccess : cudaGraphInstantiate(&gr->exec, g, 0);
        cudaGraphDestroy(g);
        if (inst != cudaSuccess) {
            cudaGetLastError();
            gr->exec = NULL;
            c->cfg.graphs = 0;
            return 0;
        }
        gr->span = span;
    }
    return KRN_CUDA_CHECK(cudaGraphLaunch(gr->exec, c->stream), err) ? -1 : 1;
}

// The row buckets: a step of n rows runs as bucket(n) rows, so there are 20
// graphs (1..16, 24, 32, 48, 64) rather than 64.
static int krn_cuda__bucket(int n) {
    return n <= 16 ? n : n <= 24 ? 24 : n <= 32 ? 32 : n <= 48 ? 48 : KRN_MAX_ROWS;
}

int krn_cuda_warm_up(krn_cuda *c, sb_err *err) {
    if (!c->cfg.graphs) return 0;
    int32_t zeros[KRN_MAX_ROWS] = {0};
    if (KRN_CUDA_CHECK(cudaMemcpyAsync(c->tokens, zeros, sizeof zeros,
                                       cudaMemcpyHostToDevice, c->stream), err) ||
        KRN_CUDA_CHECK(cudaMemcpyAsync(c->pos, zeros, sizeof zeros,
                                       cudaMemcpyHostToDevice, c->stream), err))
        return -1;
    for (int n = 1; n <= KRN_MAX_ROWS; n++) {
        if (krn_cuda__bucket(n) != n) continue;
        if (krn_cuda__graph_step(c, n, krn_cuda_span{0, 1}, true, err) < 0) return -1;
        if (!c->cfg.graphs) return 0; // graphs unavailable: direct launches
    }
    return KRN_CUDA_CHECK(cudaStreamSynchronize(c->stream), err);
}

// A batch of more than KRN_MAX_ROWS rows (a prefill chunk, up to the
// backend's max_batch_rows) has no bucket and no graph: it runs as itself
// with direct launches, whose overhead is small beside its work; its LM
// head runs over its last 64 rows at most (krn_cuda__head). NOT YET RUN ON
// A GPU (written without one): tests/gpu/test_cuda_backend.c's chunks of
// 256 and 300 rows check it against the CPU.
int krn_cuda_forward(krn_backend *b, const krn_batch *batch, sb_err *err) {
    krn_cuda *c = (krn_cuda *)b;
    const int n = batch->n_rows;
    const bool big = n > KRN_MAX_ROWS;
    const int nb = big ? n : krn_cuda__bucket(n);
    // Rows n .. nb-1 are padding: copies of the last live row. Every row is
    // computed as if alone (docs/determinism.md), so a copy gets that row's bits
    // exactly: it writes the same K/V bits to the same slot, reads no slot
    // the live rows do not, and its logits are not copied back.
    // batch->logits_from: a step where no row wants logits skips the output
    // norm and LM head; otherwise the head runs over the whole bucket (one
    // graph per bucket, not per logits_from), or a large batch's last 64
    // rows, and rows logits_from.. are copied back (batch row r from logits
    // row r - krn_logits_row0(n), kernels.h).
    int32_t tokens[KRN_MAX_BATCH_ROWS], pos[KRN_MAX_BATCH_ROWS];
    const int32_t window = b->model->window;
    int32_t c_lo = INT32_MAX, c_hi = 0;
    for (int r = 0; r < nb; r++) {
        tokens[r] = batch->tokens[r < n ? r : n - 1];
        pos[r] = batch->pos[r < n ? r : n - 1];
        const int32_t first = window > 0 && pos[r] >= window ? pos[r] - window + 1 : 0;
        if (first / KRN_ATTN_CHUNK < c_lo) c_lo = first / KRN_ATTN_CHUNK;
        if (pos[r] / KRN_ATTN_CHUNK > c_hi) c_hi = pos[r] / KRN_ATTN_CHUNK;
    }
    const krn_cuda_span span = {c_lo, c_hi - c_lo + 1};
    const size_t ids = (size_t)nb * sizeof(int32_t);
    const bool head = batch->logits_from < n;
    const size_t skip = head ? (size_t)(batch->logits_from - krn_logits_row0(n)) *
                                   (size_t)b->model->n_vocab
                             : 0;
    const size_t out = head ? (size_t)(n - batch->logits_from) * (size_t)b->model->n_vocab : 0;
    int graphed = 0;
    if (c->prof) c->prof->n_ev = 0;
    // tokens and pos are copied from this stack frame: the copies must be
    // done (they are: the step synchronises) before the function returns.
    if (KRN_CUDA_CHECK(cudaSetDevice(c->device), err) ||
        KRN_CUDA_CHECK(cudaMemcpyAsync(c->tokens, tokens, ids,
                                       cudaMemcpyHostToDevice, c->stream), err) ||
        KRN_CUDA_CHECK(cudaMemcpyAsync(c->pos, pos, ids,
                                       cudaMemcpyHostToDevice, c->stream), err) ||
        (c->prof && (krn_cuda__mark(c, KRN_CUDA__ST_START), 0)) ||
        (c->cfg.graphs && !big &&
         (graphed = krn_cuda__graph_step(c, nb, span, head, err)) < 0) ||
        (!graphed && krn_cuda__enqueue(c, nb, span, head, err)) ||
        (out && KRN_CUDA_CHECK(cudaMemcpyAsync(batch->logits + skip, c->logits + skip,
                                               out * sizeof(float), cudaMemcpyDeviceToHost,
                                               c->stream), err))) {
        cudaStreamSynchronize(c->stream); // nothing may still read the batch
        return -1;
    }
    if (c->prof) krn_cuda__mark(c, KRN_CUDA__ST_COPY);
    if (KRN_CUDA_CHECK(cudaStreamSynchronize(c->stream), err)) return -1;
    krn_cuda__prof_collect(c, big ? KRN_CUDA__PROF_BIG : nb);
    return 0;
}
