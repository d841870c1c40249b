/*
 * model.c — loading a qwen2 GGUF into the description a backend runs.
 *
 * The file is validated twice: gguf_open checks the container (every count,
 * offset and size), then eng_model_load checks the model: the hyperparameters
 * are in range and consistent, and every tensor the forward pass reads is
 * present with exactly the shape they imply. Tensor order in the file does
 * not matter (tensors are found by name). krn_model points into the file's
 * bytes, read whole into the process's memory by gguf_open (never a mapping
 * of the file, which a truncate would turn into SIGBUS), and they live as
 * long as the model.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* Sanity caps: far beyond any real Qwen2 model, small enough that products
 * of them cannot overflow int64 and sizes stay int32 where the kernels say. */
enum {
    ENG_MAX_LAYERS = 512,
    ENG_MAX_DIM = 1 << 20,     /* embedding, FFN, heads */
    ENG_MAX_VOCAB = 1 << 24,
    ENG_MAX_CTX = 1 << 24,
};

/* ---- hyperparameters ---- */

/* Reads a required integer key and checks it is in lo..hi. */
static int eng__key_u32(const gguf_file *f, const char *key, uint32_t lo,
                        uint32_t hi, uint32_t *out, sb_err *err) {
    if (gguf_find_key(f, key) < 0)
        return sb_err_set(err, __func__, "missing required key '%s'", key);
    if (gguf_get_u32(f, key, out, err)) return -1;
    if (*out < lo || *out > hi)
        return sb_err_set(err, __func__, "'%s' is %u, expected %u..%u", key,
                          (unsigned)*out, (unsigned)lo, (unsigned)hi);
    return 0;
}

/* Reads a float key (required unless def is given) and checks it is finite
 * and in (0, hi). */
static int eng__key_f32(const gguf_file *f, const char *key, const float *def,
                        float hi, float *out, sb_err *err) {
    if (gguf_find_key(f, key) < 0) {
        if (def) {
            *out = *def;
            return 0;
        }
        return sb_err_set(err, __func__, "missing required key '%s'", key);
    }
    if (gguf_get_f32(f, key, out, err)) return -1;
    if (!isfinite(*out) || !(*out > 0.0f) || !(*out < hi))
        return sb_err_set(err, __func__, "'%s' is %g, expected a finite value "
                          "in (0, %g)", key, (double)*out, (double)hi);
    return 0;
}

static int eng__check_arch(const gguf_file *f, sb_err *err) {
    static const char key[] = "general.architecture";
    gguf_str a;
    if (gguf_find_key(f, key) < 0)
        return sb_err_set(err, __func__, "missing required key '%s'", key);
    if (gguf_get_str(f, key, &a, err)) return -1;
    if (a.len != 5 || memcmp(a.ptr, "qwen2", 5))
        return sb_err_set(err, __func__, "'%s' is '%.*s', expected 'qwen2'",
                          key, (int)(a.len < 64 ? a.len : 64), a.ptr);
    return 0;
}

/* An optional per-head length key must agree with n_embd / n_head. */
static int eng__check_head_len(const gguf_file *f, const char *key,
                               uint32_t head_dim, sb_err *err) {
    uint32_t v;
    if (gguf_find_key(f, key) < 0) return 0;
    if (gguf_get_u32(f, key, &v, err)) return -1;
    if (v != head_dim)
        return sb_err_set(err, __func__, "'%s' is %u, expected %u (embedding_"
                          "length / head_count)", key, (unsigned)v,
                          (unsigned)head_dim);
    return 0;
}

/* The optional sliding window (llama.cpp's key name): absent, or 0, or at
 * least the context length means none. */
static int eng__load_window(const gguf_file *f, uint32_t n_ctx, int32_t *window,
                            sb_err *err) {
    static const char key[] = "qwen2.attention.sliding_window";
    uint32_t w = 0;
    *window = 0;
    if (gguf_find_key(f, key) < 0) return 0;
    if (gguf_get_u32(f, key, &w, err)) return -1;
    if (w > 0 && w < n_ctx) *window = (int32_t)w;
    return 0;
}

/* The optional "sonicboom.edit_prompt_versions": an array of uint32 (or
 * int32, as Python's gguf writer stores integers), each an edit prompt
 * version 1..31 the model was trained for (edit/edit.h). */
static int eng__load_prompt_versions(eng_model *m, sb_err *err) {
    static const char key[] = "sonicboom.edit_prompt_versions";
    const int64_t kv = gguf_find_key(m->file, key);
    if (kv < 0) return 0;
    gguf_vtype type;
    uint64_t n = 0;
    if (gguf_get_arr(m->file, key, &type, &n, err)) return -1;
    if ((type != GGUF_U32 && type != GGUF_I32) || n < 1 || n > 31)
        return sb_err_set(err, "eng_model_load", "'%s' must be an array of "
                          "1..31 integers (got type %s, %llu entries)", key,
                          gguf_vtype_name(type), (unsigned long long)n);
    const unsigned char *p = gguf_arr_data(m->file, kv);
    for (uint64_t i = 0; i < n; i++, p += 4) {
        const uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                           (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if (v < 1 || v > 31)
            return sb_err_set(err, "eng_model_load", "'%s'[%llu] is %u; "
                              "expected a prompt version 1..31", key,
                              (unsigned long long)i, (unsigned)v);
        m->prompt_versions |= 1u << v;
    }
    return 0;
}

static int eng__load_hparams(eng_model *m, sb_err *err) {
    const gguf_file *f = m->file;
    krn_model *d = &m->desc;
    /* zeroed: each is read only after the keys before it were */
    uint32_t n_layer = 0, n_embd = 0, n_ff = 0, n_head = 0, n_kv = 0;
    uint32_t n_ctx = 0;
    const float rope_default = 10000.0f; /* llama.cpp's default for qwen2 */
    if (eng__key_u32(f, "qwen2.block_count", 1, ENG_MAX_LAYERS, &n_layer, err) ||
        eng__key_u32(f, "qwen2.embedding_length", 1, ENG_MAX_DIM, &n_embd, err) ||
        eng__key_u32(f, "qwen2.feed_forward_length", 1, ENG_MAX_DIM, &n_ff, err) ||
        eng__key_u32(f, "qwen2.attention.head_count", 1, n_embd, &n_head, err) ||
        eng__key_u32(f, "qwen2.attention.head_count_kv", 1, n_head, &n_kv, err) ||
        eng__key_u32(f, "qwen2.context_length", 1, ENG_MAX_CTX, &n_ctx, err) ||
        eng__key_f32(f, "qwen2.attention.layer_norm_rms_epsilon", NULL, 1.0f,
                     &d->rms_eps, err) ||
        eng__key_f32(f, "qwen2.rope.freq_base", &rope_default, INFINITY,
                     &d->rope_base, err))
        return -1;
    if (n_embd % n_head)
        return sb_err_set(err, __func__, "qwen2.embedding_length %u is not a "
                          "multiple of qwen2.attention.head_count %u",
                          (unsigned)n_embd, (unsigned)n_head);
    if (n_head % n_kv)
        return sb_err_set(err, __func__, "qwen2.attention.head_count %u is not "
                          "a multiple of qwen2.attention.head_count_kv %u",
                          (unsigned)n_head, (unsigned)n_kv);
    uint32_t hd = n_embd / n_head;
    if (eng__check_head_len(f, "qwen2.attention.key_length", hd, err) ||
        eng__check_head_len(f, "qwen2.attention.value_length", hd, err) ||
        eng__load_window(f, n_ctx, &d->window, err))
        return -1;
    d->n_layer = (int32_t)n_layer;
    d->n_embd = (int32_t)n_embd;
    d->n_ff = (int32_t)n_ff;
    d->n_head = (int32_t)n_head;
    d->n_head_kv = (int32_t)n_kv;
    d->head_dim = (int32_t)hd;
    m->n_ctx = (int32_t)n_ctx;
    return 0;
}

/* ---- tensors ---- */

/* What a tensor must look like: shape and whether it must be F32 (norms and
 * biases). A vector has ne1 == 1. */
typedef struct eng__want {
    int64_t ne0, ne1;
    bool f32;
} eng__want;

static void eng__shape_str(char *buf, size_t cap, const int64_t *ne, int nd) {
    int n = snprintf(buf, cap, "[");
    for (int i = 0; i < nd && n >= 0 && (size_t)n < cap; i++)
        n += snprintf(buf + n, cap - (size_t)n, "%s%lld", i ? ", " : "",
                      (long long)ne[i]);
    if (n >= 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, "]");
}

/* Finds a tensor by name and checks it against w, and that its values (or
 * its quantized blocks' scales) are finite. Trailing dimensions of 1 are
 * not significant: [896] and [896, 1] are the same vector. */
static int eng__tensor(const gguf_file *f, const char *name, eng__want w,
                       krn_tensor *out, sb_err *err) {
    const gguf_tensor *t = gguf_find_tensor(f, name);
    if (!t) return sb_err_set(err, __func__, "missing tensor '%s'", name);
    bool ok = t->ne[0] == w.ne0 && t->ne[1] == w.ne1;
    for (int i = 2; i < GGUF_MAX_DIMS; i++) ok = ok && t->ne[i] == 1;
    if (!ok) {
        char got[96], want[64];
        int64_t wne[2] = {w.ne0, w.ne1};
        eng__shape_str(got, sizeof got, t->ne,
                       t->n_dims < 1 ? 1 : (int)t->n_dims);
        eng__shape_str(want, sizeof want, wne, w.ne1 == 1 ? 1 : 2);
        return sb_err_set(err, __func__, "tensor '%s' has shape %s, expected %s",
                          name, got, want);
    }
    if (w.f32 && t->type != KRN_F32)
        return sb_err_set(err, __func__, "tensor '%s' has type %s, expected f32",
                          name, krn_type_name(t->type));
    *out = (krn_tensor){.type = t->type, .ne0 = t->ne[0], .ne1 = t->ne[1],
                        .data = t->data};
    return eng__tensor_check_finite(name, out, err);
}

/* One row of the per-layer table: which krn_layer field, and its shape in
 * terms of the model's dimensions. */
typedef enum eng__dim { D_1, D_EMBD, D_Q, D_KV, D_FF } eng__dim;

typedef struct eng__layer_tensor {
    const char *name;  /* after "blk.N." */
    size_t field;      /* offsetof(krn_layer, ...) */
    eng__dim ne0, ne1;
    bool f32;
} eng__layer_tensor;

static const eng__layer_tensor eng__layer_tensors[] = {
    {"attn_norm.weight", offsetof(krn_layer, attn_norm), D_EMBD, D_1, true},
    {"attn_q.weight", offsetof(krn_layer, wq), D_EMBD, D_Q, false},
    {"attn_k.weight", offsetof(krn_layer, wk), D_EMBD, D_KV, false},
    {"attn_v.weight", offsetof(krn_layer, wv), D_EMBD, D_KV, false},
    {"attn_q.bias", offsetof(krn_layer, bq), D_Q, D_1, true},
    {"attn_k.bias", offsetof(krn_layer, bk), D_KV, D_1, true},
    {"attn_v.bias", offsetof(krn_layer, bv), D_KV, D_1, true},
    {"attn_output.weight", offsetof(krn_layer, wo), D_Q, D_EMBD, false},
    {"ffn_norm.weight", offsetof(krn_layer, ffn_norm), D_EMBD, D_1, true},
    {"ffn_gate.weight", offsetof(krn_layer, w_gate), D_EMBD, D_FF, false},
    {"ffn_up.weight", offsetof(krn_layer, w_up), D_EMBD, D_FF, false},
    {"ffn_down.weight", offsetof(krn_layer, w_down), D_FF, D_EMBD, false},
};

static int64_t eng__dim_value(const krn_model *d, eng__dim x) {
    switch (x) {
    case D_EMBD: return d->n_embd;
    case D_Q: return (int64_t)d->n_head * d->head_dim;
    case D_KV: return (int64_t)d->n_head_kv * d->head_dim;
    case D_FF: return d->n_ff;
    case D_1: break;
    }
    return 1;
}

static int eng__load_layer(eng_model *m, int32_t il, sb_err *err) {
    krn_layer *l = &m->layers[il];
    size_t n = sizeof eng__layer_tensors / sizeof eng__layer_tensors[0];
    for (size_t i = 0; i < n; i++) {
        const eng__layer_tensor *lt = &eng__layer_tensors[i];
        char name[GGUF_MAX_NAME + 1];
        snprintf(name, sizeof name, "blk.%d.%s", (int)il, lt->name);
        eng__want w = {eng__dim_value(&m->desc, lt->ne0),
                       eng__dim_value(&m->desc, lt->ne1), lt->f32};
        if (eng__tensor(m->file, name, w, (krn_tensor *)((char *)l + lt->field),
                        err))
            return -1;
    }
    return 0;
}

/* token_embd fixes n_vocab; output.weight, when present, must agree. */
static int eng__load_tensors(eng_model *m, sb_err *err) {
    krn_model *d = &m->desc;
    const gguf_tensor *te = gguf_find_tensor(m->file, "token_embd.weight");
    if (!te) return sb_err_set(err, __func__, "missing tensor 'token_embd.weight'");
    if (te->ne[1] < 1 || te->ne[1] > ENG_MAX_VOCAB)
        return sb_err_set(err, __func__, "tensor 'token_embd.weight' has %lld "
                          "rows (the vocabulary size), expected 1..%d",
                          (long long)te->ne[1], ENG_MAX_VOCAB);
    d->n_vocab = (int32_t)te->ne[1];
    if (eng__tensor(m->file, "token_embd.weight",
                    (eng__want){d->n_embd, d->n_vocab, false}, &d->tok_embd, err) ||
        eng__tensor(m->file, "output_norm.weight",
                    (eng__want){d->n_embd, 1, true}, &d->output_norm, err))
        return -1;
    m->tied = !gguf_find_tensor(m->file, "output.weight");
    if (m->tied)
        d->output = d->tok_embd;
    else if (eng__tensor(m->file, "output.weight",
                         (eng__want){d->n_embd, d->n_vocab, false}, &d->output,
                         err))
        return -1;
    m->layers = calloc((size_t)d->n_layer, sizeof *m->layers);
    if (!m->layers)
        return sb_err_set(err, __func__, "out of memory for %d layers",
                          (int)d->n_layer);
    d->layers = m->layers;
    for (int32_t il = 0; il < d->n_layer; il++)
        if (eng__load_layer(m, il, err)) return -1;
    return 0;
}

/* tokenizer.ggml.eos_token_id when present, else "<|endoftext|>", else -1. */
static int eng__load_eos(eng_model *m, sb_err *err) {
    static const char key[] = "tokenizer.ggml.eos_token_id";
    static const char eot[] = "<|endoftext|>";
    if (gguf_find_key(m->file, key) < 0) {
        m->eos = tok_vocab_find(&m->vocab, eot, sizeof eot - 1);
        return 0;
    }
    uint32_t id;
    if (gguf_get_u32(m->file, key, &id, err)) return -1;
    if (id >= (uint32_t)m->vocab.n)
        return sb_err_set(err, __func__, "'%s' is %u, expected 0..%d", key,
                          (unsigned)id, (int)m->vocab.n - 1);
    m->eos = (int32_t)id;
    return 0;
}

/* ---- engine.h: Models ---- */

eng_model *eng_model_load(const char *path, sb_err *err) {
    eng_model *m = calloc(1, sizeof *m);
    if (!m) {
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    m->file = gguf_open(path, err);
    if (!m->file || eng__check_arch(m->file, err) ||
        eng__load_hparams(m, err) || eng__load_tensors(m, err) ||
        tok_vocab_load(&m->vocab, m->file, m->desc.n_vocab, err) ||
        eng__load_eos(m, err) || eng__load_prompt_versions(m, err))
        goto fail;
    return m;
fail:
    eng_model_free(m);
    return NULL;
}

void eng_model_free(eng_model *m) {
    if (!m) return;
    tok_vocab_free(&m->vocab);
    free(m->layers);
    if (m->file) gguf_close(m->file);
    free(m);
}

int eng_model_check_file(const eng_model *m, sb_err *err) {
    return gguf_check_unchanged(m->file, err);
}

const krn_model *eng_model_desc(const eng_model *m) { return &m->desc; }
int32_t eng_model_n_ctx(const eng_model *m) { return m->n_ctx; }
int32_t eng_model_eos(const eng_model *m) { return m->eos; }

const char *eng_model_sha256(eng_model *m) {
    if (!m->sha_done) {
        sb_sha256_hex(gguf_file_bytes(m->file), (size_t)gguf_file_size(m->file),
                      m->sha256);
        m->sha_done = m->sha256[0] != '\0'; /* "" when out of memory: retry */
    }
    return m->sha256;
}

/* ---- description (sb info) ---- */

enum { ENG_TYPE_SLOTS = 64 }; /* krn_type values are below this */

static void eng__describe_types(const eng_model *m, FILE *out) {
    int64_t count[ENG_TYPE_SLOTS] = {0};
    uint64_t bytes[ENG_TYPE_SLOTS] = {0}, total = 0;
    int64_t n = gguf_tensor_count(m->file);
    for (int64_t i = 0; i < n; i++) {
        const gguf_tensor *t = gguf_tensor_at(m->file, i);
        unsigned ty = (unsigned)t->type < ENG_TYPE_SLOTS ? (unsigned)t->type : 0;
        count[ty]++;
        bytes[ty] += t->nbytes;
        total += t->nbytes;
    }
    fprintf(out, "tensors:       %lld\n", (long long)n);
    fprintf(out, "  %-8s %8s %16s\n", "type", "count", "bytes");
    for (unsigned ty = 0; ty < ENG_TYPE_SLOTS; ty++)
        if (count[ty])
            fprintf(out, "  %-8s %8lld %16llu\n", krn_type_name(ty),
                    (long long)count[ty], (unsigned long long)bytes[ty]);
    fprintf(out, "  %-8s %8lld %16llu\n", "total", (long long)n,
            (unsigned long long)total);
}

uint32_t eng_model_prompt_versions(const eng_model *m) {
    return m->prompt_versions;
}

bool eng_model_name_is(const eng_model *m, const char *name) {
    gguf_str got = {"", 0};
    sb_err ignored = {0};
    if (gguf_find_key(m->file, "general.name") < 0 ||
        gguf_get_str(m->file, "general.name", &got, &ignored))
        return false;
    return (uint64_t)strlen(name) == got.len && !memcmp(got.ptr, name, got.len);
}

void eng_model_describe(const eng_model *m, FILE *out) {
    const krn_model *d = &m->desc;
    gguf_str name = {"", 0};
    sb_err ignored = {0};
    if (gguf_find_key(m->file, "general.name") >= 0)
        gguf_get_str(m->file, "general.name", &name, &ignored);
    int64_t eos_len = 0;
    const char *eos = m->eos >= 0 ? eng_token_bytes(m, m->eos, &eos_len) : "";
    /* Both come from the file: escaped, so that a name holding terminal
     * control sequences is shown, not obeyed. The caps keep the
     * shown text as short as before (200 and 40 bytes of the file's). */
    char shown_name[4 * 200 + 1], shown_eos[4 * 40 + 1];
    sb_escape_text(name.ptr, name.len < 200 ? (size_t)name.len : 200, shown_name,
                   sizeof shown_name);
    sb_escape_text(eos, eos_len < 40 ? (size_t)eos_len : 40, shown_eos,
                   sizeof shown_eos);
    fprintf(out, "architecture:  qwen2 (GGUF v%u, %llu bytes)\n",
            (unsigned)gguf_version(m->file),
            (unsigned long long)gguf_file_size(m->file));
    fprintf(out, "name:          %s\n", shown_name);
    fprintf(out, "layers:        %d\n", (int)d->n_layer);
    fprintf(out, "embedding:     %d\n", (int)d->n_embd);
    fprintf(out, "feed_forward:  %d\n", (int)d->n_ff);
    fprintf(out, "heads:         %d (kv %d, head_dim %d)\n", (int)d->n_head,
            (int)d->n_head_kv, (int)d->head_dim);
    fprintf(out, "context:       %d\n", (int)m->n_ctx);
    fprintf(out, "rope_base:     %g\n", (double)d->rope_base);
    fprintf(out, "rms_eps:       %g\n", (double)d->rms_eps);
    if (d->window > 0) fprintf(out, "window:        %d (sliding-window attention)\n",
                               (int)d->window);
    fprintf(out, "vocab:         %d\n", (int)d->n_vocab);
    fprintf(out, "eos:           %d '%s'\n", (int)m->eos, shown_eos);
    fprintf(out, "output:        %s\n",
            m->tied ? "tied to token_embd" : "output.weight (untied)");
    eng__describe_types(m, out);
}
