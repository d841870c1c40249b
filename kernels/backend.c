/*
 * backend.c — what every backend shares: the checks of a model's shapes and
 * of a batch, and dispatch through the backend's table.
 *
 * A backend's forward is only ever called with a batch that passed
 * krn__check_batch, so a refused batch touches nothing (not the KV cache,
 * not the logits).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_impl.h"

/* ---- KV slots ------------------------------------------------------------ */

int32_t krn_kv_slots(const krn_model *m, int32_t kv_capacity, int32_t max_batch_rows) {
    const int32_t rows = max_batch_rows > KRN_MAX_ROWS ? max_batch_rows : KRN_MAX_ROWS;
    if (m->window <= 0 || m->window > kv_capacity - (rows - 1))
        return kv_capacity;
    return m->window + rows - 1;
}

/* Below 64 rows is 64: every backend takes the steps of up to 64 rows that
 * verify and the CUDA backend's row buckets need (its graphs, captured at
 * create, run up to 64 rows). */
int32_t krn_options_batch_rows(const krn_options *opt, sb_err *err) {
    if (opt->max_batch_rows < 0 || opt->max_batch_rows > KRN_MAX_BATCH_ROWS) {
        sb_err_set(err, "krn_create", "max_batch_rows is %d; expected 0..%d "
                   "(up to %d: %d)", (int)opt->max_batch_rows, KRN_MAX_BATCH_ROWS,
                   KRN_MAX_ROWS, KRN_MAX_ROWS);
        return -1;
    }
    return opt->max_batch_rows > KRN_MAX_ROWS ? opt->max_batch_rows : KRN_MAX_ROWS;
}

int32_t krn_options_slots(const krn_model *m, const krn_options *opt, sb_err *err) {
    const int32_t need = krn_kv_slots(m, opt->kv_capacity, opt->max_batch_rows);
    if (opt->kv_slots == 0) return need;
    if (opt->kv_slots < need || opt->kv_slots > opt->kv_capacity) {
        sb_err_set(err, "krn_create", "kv_slots is %d; expected %d..%d for a "
                   "context of %d (window %d)", (int)opt->kv_slots, (int)need,
                   (int)opt->kv_capacity, (int)opt->kv_capacity, (int)m->window);
        return -1;
    }
    return opt->kv_slots;
}

/* ---- model shapes ------------------------------------------------------- */

/* A weight matrix of ne1 rows of ne0 inputs, of a known type whose blocks
 * tile a row. */
static int krn__check_matrix(const krn_tensor *t, const char *name, int layer,
                             int64_t ne0, int64_t ne1, sb_err *err) {
    uint64_t bytes;
    if (!krn_type_known((uint32_t)t->type))
        return sb_err_set(err, "krn_model_check", "layer %d %s: unknown type "
                          "%u", layer, name, (unsigned)t->type);
    if (t->ne0 != ne0 || t->ne1 != ne1)
        return sb_err_set(err, "krn_model_check", "layer %d %s: shape "
                          "[%lld, %lld]; expected [%lld, %lld]", layer, name,
                          (long long)t->ne0, (long long)t->ne1,
                          (long long)ne0, (long long)ne1);
    if (!krn_row_bytes(t->type, ne0, &bytes))
        return sb_err_set(err, "krn_model_check", "layer %d %s: row of %lld "
                          "is not a whole number of %s blocks (%lld each)",
                          layer, name, (long long)ne0, krn_type_name(t->type),
                          (long long)krn_type_block_elems(t->type));
    if (!t->data)
        return sb_err_set(err, "krn_model_check", "layer %d %s: data is NULL",
                          layer, name);
    return 0;
}

/* An f32 vector of n elements (norm weights, biases). */
static int krn__check_vector(const krn_tensor *t, const char *name, int layer,
                             int64_t n, sb_err *err) {
    if (t->type != KRN_F32)
        return sb_err_set(err, "krn_model_check", "layer %d %s: type %s; "
                          "expected f32", layer, name, krn_type_name(t->type));
    if (t->ne0 != n || t->ne1 != 1)
        return sb_err_set(err, "krn_model_check", "layer %d %s: shape "
                          "[%lld, %lld]; expected [%lld, 1]", layer, name,
                          (long long)t->ne0, (long long)t->ne1, (long long)n);
    if (!t->data)
        return sb_err_set(err, "krn_model_check", "layer %d %s: data is NULL",
                          layer, name);
    return 0;
}

/* A dimension that must be a positive multiple of 32 (activation blocks). */
static int krn__check_dim(const char *name, int64_t v, sb_err *err) {
    if (v <= 0 || v % KRN_QBLOCK != 0)
        return sb_err_set(err, "krn_model_check", "%s is %lld; expected a "
                          "positive multiple of %d", name, (long long)v,
                          KRN_QBLOCK);
    return 0;
}

static int krn__check_hparams(const krn_model *m, sb_err *err) {
    if (m->n_layer < 1 || !m->layers)
        return sb_err_set(err, "krn_model_check", "n_layer is %d (layers %s); "
                          "expected >= 1 with a layer array", (int)m->n_layer,
                          m->layers ? "set" : "NULL");
    if (m->n_head < 1 || m->n_head_kv < 1 || m->n_head % m->n_head_kv != 0)
        return sb_err_set(err, "krn_model_check", "n_head %d, n_head_kv %d: "
                          "expected n_head_kv >= 1 dividing n_head",
                          (int)m->n_head, (int)m->n_head_kv);
    if (m->head_dim < 2 || m->head_dim % 2 != 0)
        return sb_err_set(err, "krn_model_check", "head_dim is %d; expected "
                          "an even number >= 2 (RoPE rotates pairs)",
                          (int)m->head_dim);
    if (m->n_vocab < 1)
        return sb_err_set(err, "krn_model_check", "n_vocab is %d; expected "
                          ">= 1", (int)m->n_vocab);
    if (!(m->rope_base > 0.0f) || !(m->rope_base <= 3.4e38f))
        return sb_err_set(err, "krn_model_check", "rope_base is %g; expected "
                          "a finite value > 0", (double)m->rope_base);
    if (!(m->rms_eps >= 0.0f) || !(m->rms_eps <= 3.4e38f))
        return sb_err_set(err, "krn_model_check", "rms_eps is %g; expected a "
                          "finite value >= 0", (double)m->rms_eps);
    if (m->window < 0)
        return sb_err_set(err, "krn_model_check", "sliding window is %d; "
                          "expected >= 0 (0: none)", (int)m->window);
    if (krn__check_dim("n_embd", m->n_embd, err) ||
        krn__check_dim("n_ff", m->n_ff, err) ||
        krn__check_dim("n_head * head_dim", (int64_t)m->n_head * m->head_dim, err))
        return -1;
    return 0;
}

static int krn__check_layer(const krn_model *m, int il, sb_err *err) {
    const krn_layer *l = &m->layers[il];
    const int64_t e = m->n_embd, f = m->n_ff;
    const int64_t qd = (int64_t)m->n_head * m->head_dim;
    const int64_t kvd = (int64_t)m->n_head_kv * m->head_dim;
    if (krn__check_vector(&l->attn_norm, "attn_norm", il, e, err) ||
        krn__check_vector(&l->ffn_norm, "ffn_norm", il, e, err) ||
        krn__check_vector(&l->bq, "bq", il, qd, err) ||
        krn__check_vector(&l->bk, "bk", il, kvd, err) ||
        krn__check_vector(&l->bv, "bv", il, kvd, err) ||
        krn__check_matrix(&l->wq, "wq", il, e, qd, err) ||
        krn__check_matrix(&l->wk, "wk", il, e, kvd, err) ||
        krn__check_matrix(&l->wv, "wv", il, e, kvd, err) ||
        krn__check_matrix(&l->wo, "wo", il, qd, e, err) ||
        krn__check_matrix(&l->w_gate, "w_gate", il, e, f, err) ||
        krn__check_matrix(&l->w_up, "w_up", il, e, f, err) ||
        krn__check_matrix(&l->w_down, "w_down", il, f, e, err))
        return -1;
    return 0;
}

int krn_model_check(const krn_model *m, sb_err *err) {
    if (!m) return sb_err_set(err, __func__, "model is NULL");
    if (krn__check_hparams(m, err)) return -1;
    /* Layer -1 names the tensors outside the blocks. */
    if (krn__check_matrix(&m->tok_embd, "tok_embd", -1, m->n_embd, m->n_vocab, err) ||
        krn__check_matrix(&m->output, "output", -1, m->n_embd, m->n_vocab, err) ||
        krn__check_vector(&m->output_norm, "output_norm", -1, m->n_embd, err))
        return -1;
    for (int il = 0; il < m->n_layer; il++)
        if (krn__check_layer(m, il, err)) return -1;
    return 0;
}

/* ---- batches and dispatch ----------------------------------------------- */

static int krn__check_batch(const krn_backend *b, const krn_batch *batch,
                            sb_err *err) {
    if (!batch) return sb_err_set(err, "krn_forward", "batch is NULL");
    if (batch->n_rows < 1 || batch->n_rows > b->max_batch_rows)
        return sb_err_set(err, "krn_forward", "n_rows is %d; expected 1..%d "
                          "(the backend's max_batch_rows)", batch->n_rows,
                          (int)b->max_batch_rows);
    if (!batch->tokens || !batch->pos || !batch->logits)
        return sb_err_set(err, "krn_forward", "batch %s is NULL",
                          !batch->tokens ? "tokens" : !batch->pos ? "pos"
                                                                  : "logits");
    if (batch->logits_from < 0 || batch->logits_from > batch->n_rows)
        return sb_err_set(err, "krn_forward", "logits_from is %d; expected "
                          "0..%d (n_rows)", batch->logits_from, batch->n_rows);
    /* The logits buffer holds a batch's last 64 rows at most (kernels.h). */
    if (batch->logits_from < krn_logits_row0(batch->n_rows))
        return sb_err_set(err, "krn_forward", "logits_from is %d for a batch "
                          "of %d rows; expected >= %d (n_rows - %d: only a "
                          "batch's last %d rows may want logits)",
                          batch->logits_from, batch->n_rows,
                          krn_logits_row0(batch->n_rows), KRN_MAX_ROWS,
                          KRN_MAX_ROWS);
    const int32_t n_vocab = b->model->n_vocab;
    for (int r = 0; r < batch->n_rows; r++) {
        if (batch->tokens[r] < 0 || batch->tokens[r] >= n_vocab)
            return sb_err_set(err, "krn_forward", "tokens[%d] is %d; expected "
                              "0..%d", r, (int)batch->tokens[r], (int)n_vocab - 1);
        if (batch->pos[r] < 0 || batch->pos[r] >= b->kv_capacity)
            return sb_err_set(err, "krn_forward", "pos[%d] is %d; expected "
                              "0..%d (the KV capacity)", r, (int)batch->pos[r],
                              (int)b->kv_capacity - 1);
        /* Two rows writing one slot would make a row's keys depend on which
         * row came last: the batch composition would leak into results. */
        for (int s = 0; s < r; s++)
            if (batch->pos[s] == batch->pos[r])
                return sb_err_set(err, "krn_forward", "pos[%d] and pos[%d] are "
                                  "both %d; expected distinct positions", s, r,
                                  (int)batch->pos[r]);
    }
    return 0;
}

int krn_forward(krn_backend *b, const krn_batch *batch, sb_err *err) {
    if (!b) return sb_err_set(err, __func__, "backend is NULL");
    if (krn__check_batch(b, batch, err)) return -1;
    return b->ops->forward(b, batch, err);
}

const char *krn_backend_name(const krn_backend *b) {
    return b ? b->ops->name : "none";
}

void krn_destroy(krn_backend *b) {
    if (b) b->ops->destroy(b);
}

void *krn_host_alloc(krn_backend *b, size_t bytes) {
    return b->ops->host_alloc ? b->ops->host_alloc(b, bytes) : malloc(bytes);
}

void krn_device_memory(const krn_backend *b, int64_t *backend_bytes,
                       int64_t *device_used_bytes) {
    *backend_bytes = *device_used_bytes = 0;
    if (b->ops->device_memory) b->ops->device_memory(b, backend_bytes, device_used_bytes);
}

/* The host CPU's model: the first "model name" line of /proc/cpuinfo (x86;
 * other machines may have none), read once for the process. */
static char krn__cpu_name[128] = "cpu";
static pthread_once_t krn__cpu_name_once = PTHREAD_ONCE_INIT;

static void krn__read_cpu_name(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        const char *v = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !v) continue;
        v += 1 + strspn(v + 1, " \t");
        int n = (int)strcspn(v, "\n");
        if (n > 0) snprintf(krn__cpu_name, sizeof krn__cpu_name, "%.*s", n, v);
        break;
    }
    if (f) fclose(f);
}

int krn_choices(const krn_backend *b, const krn_choice **out) {
    *out = NULL;
    return b && b->ops->choices ? b->ops->choices(b, out) : 0;
}

int krn_measurements(const krn_backend *b) { return b ? b->measurements : 0; }

int krn_choices_import(krn_choice *have, const int32_t *lo, const int32_t *hi, int n,
                       const krn_options *opt, sb_err *err) {
    for (int k = 0; k < opt->n_choices; k++) {
        const krn_choice *c = &opt->choices[k];
        int i = 0;
        while (i < n && strncmp(have[i].name, c->name, sizeof c->name) != 0) i++;
        if (i == n)
            return sb_err_set(err, "krn_create", "choice '%.*s' is not one of this "
                              "backend's", (int)sizeof c->name, c->name);
        if (c->value < lo[i] || c->value > hi[i])
            return sb_err_set(err, "krn_create", "choice '%s' is %d; expected %d..%d",
                              have[i].name, (int)c->value, (int)lo[i], (int)hi[i]);
        have[i].value = c->value;
        have[i].ms = c->ms;
    }
    return 0;
}

const char *krn_device_name(const krn_backend *b) {
    if (b && b->ops->device_name) return b->ops->device_name(b);
    pthread_once(&krn__cpu_name_once, krn__read_cpu_name);
    return krn__cpu_name;
}

void krn_host_free(krn_backend *b, void *p) {
    if (!p) return;
    if (b->ops->host_free) b->ops->host_free(b, p);
    else free(p);
}

krn_dims krn_model_dims(const krn_model *m) {
    krn_dims d = {m->n_embd, m->n_ff, (int64_t)m->n_head * m->head_dim,
                  (int64_t)m->n_head_kv * m->head_dim, m->n_embd};
    if (d.q_dim > d.max_in) d.max_in = d.q_dim;
    if (d.n_ff > d.max_in) d.max_in = d.n_ff;
    return d;
}
