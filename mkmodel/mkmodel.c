/*
 * mkmodel.c — synthetic qwen2 models: real Qwen2.5 shapes, seeded random
 * weights, llama.cpp's tensor-type placement for Q4_K_M.
 *
 * Determinism: each row of each tensor is drawn from its own stream, seeded
 * with sb_hash3(seed, tensor index, row), and quantized on its own, so the
 * file is a pure function of the options whatever the thread count. The
 * writer streams one tensor at a time: memory holds at most one tensor plus
 * one row of floats per thread.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gguf_write.h"
#include "mkmodel_internal.h"

/* ==== shapes and recipes ================================================== */

static const mk_hparams mk__shapes[] = {
    [MK_SHAPE_TINY] = {"tiny", 2, 256, 512, 4, 2, 512, 4096, true, 1e6f, 1e-6f,
                        .vocab_fits = true},
    [MK_SHAPE_0_5B] = {"0.5b", 24, 896, 4864, 14, 2, 151936, 32768, true, 1e6f,
                        1e-6f},
    [MK_SHAPE_1_5B] = {"1.5b", 28, 1536, 8960, 12, 2, 151936, 32768, true, 1e6f,
                        1e-6f},
    [MK_SHAPE_7B] = {"7b", 28, 3584, 18944, 28, 4, 152064, 32768, false, 1e6f,
                      1e-6f},
};
enum { MK_N_SHAPES = sizeof mk__shapes / sizeof mk__shapes[0] };

static const char *const mk__recipes[] = {
    [MK_RECIPE_F32] = "f32", [MK_RECIPE_Q8_0] = "q8_0",
    [MK_RECIPE_Q4_K_M] = "q4_k_m"};
/* llama.cpp's general.file_type for each recipe (ALL_F32, MOSTLY_Q8_0,
 * MOSTLY_Q4_K_M). */
static const uint32_t mk__ftypes[] = {0, 7, 15};
enum { MK_N_RECIPES = sizeof mk__recipes / sizeof mk__recipes[0] };

const mk_hparams *mk_shape_hparams(mk_shape s) {
    return (unsigned)s < MK_N_SHAPES ? &mk__shapes[s] : NULL;
}

const char *mk_recipe_name(mk_recipe r) {
    return (unsigned)r < MK_N_RECIPES ? mk__recipes[r] : "?";
}

int mk_shape_parse(const char *s, mk_shape *out, sb_err *err) {
    for (int i = 0; i < MK_N_SHAPES; i++)
        if (s && !strcasecmp(s, mk__shapes[i].name)) {
            *out = (mk_shape)i;
            return 0;
        }
    return sb_err_set(err, __func__, "shape '%s' is unknown, expected tiny, "
                      "0.5b, 1.5b or 7b", s ? s : "(null)");
}

int mk_recipe_parse(const char *s, mk_recipe *out, sb_err *err) {
    for (int i = 0; i < MK_N_RECIPES; i++)
        if (s && !strcasecmp(s, mk__recipes[i])) {
            *out = (mk_recipe)i;
            return 0;
        }
    return sb_err_set(err, __func__, "quant recipe '%s' is unknown, expected "
                      "f32, q8_0 or q4_k_m", s ? s : "(null)");
}

/* ==== the plan ============================================================== */

/* llama.cpp's use_more_bits: the first and last eighth of the layers, and
 * every third layer in between, get more bits (integer division as there). */
static bool mk__more_bits(int i, int n) {
    return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

/* The layer of "blk.N.<suffix>", or -1 when name is not that tensor. */
static int mk__layer_of(const char *name, const char *suffix) {
    int layer = -1, end = 0;
    if (sscanf(name, "blk.%d.%n", &layer, &end) != 1 || end == 0) return -1;
    return strcmp(name + end, suffix) ? -1 : layer;
}

/* Q4_K_M: Q4_K by default; the LM head (token_embd when tied) Q6_K; attn_v
 * and ffn_down Q6_K in the more-bits layers; then, for rows that are not a
 * whole number of 256-weight super-blocks, Q4_K -> Q5_0 and Q6_K -> Q8_0. */
static krn_type mk__q4km_type(const char *name, int64_t ne0, int n_layer,
                              bool tied) {
    krn_type t = KRN_Q4_K;
    int lv = mk__layer_of(name, "attn_v.weight");
    int ld = mk__layer_of(name, "ffn_down.weight");
    if (!strcmp(name, "output.weight") ||
        (tied && !strcmp(name, "token_embd.weight")))
        t = KRN_Q6_K;
    else if ((lv >= 0 && mk__more_bits(lv, n_layer)) ||
             (ld >= 0 && mk__more_bits(ld, n_layer)))
        t = KRN_Q6_K;
    if (ne0 % 256 != 0) t = t == KRN_Q4_K ? KRN_Q5_0 : KRN_Q8_0;
    return t;
}

krn_type mk_matrix_type(mk_recipe r, const char *name, int64_t ne0,
                            int n_layer, bool tied) {
    switch (r) {
    case MK_RECIPE_Q8_0: return KRN_Q8_0;
    case MK_RECIPE_Q4_K_M: return mk__q4km_type(name, ne0, n_layer, tied);
    case MK_RECIPE_F32: break;
    }
    return KRN_F32;
}

uint32_t mk_recipe_ftype(mk_recipe r) {
    return (unsigned)r < MK_N_RECIPES ? mk__ftypes[r] : 0;
}

static void mk__add(mk_plan *p, const char *name, mk_init init,
                    krn_type type, int64_t ne0, int64_t ne1) {
    mk_tensor *t = &p->t[p->n++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->type = type;
    t->init = init;
    t->n_dims = ne1 == 1 ? 1 : 2;
    t->ne[0] = ne0;
    t->ne[1] = ne1;
}

static void mk__add_matrix(mk_plan *p, const mk_hparams *sh, mk_recipe r,
                           const char *name, int64_t ne0, int64_t ne1) {
    mk__add(p, name,
            strcmp(name, "token_embd.weight") ? MK_INIT_MATRIX : MK_INIT_EMBD,
            mk_matrix_type(r, name, ne0, sh->n_layer, sh->tied), ne0, ne1);
}

static void mk__add_layer(mk_plan *p, const mk_hparams *sh, mk_recipe r,
                          int il) {
    int64_t e = sh->n_embd, hd = sh->n_embd / sh->n_head;
    int64_t nq = hd * sh->n_head, nkv = hd * sh->n_head_kv, ff = sh->n_ff;
    char nm[64];
#define MK_NAME(s) (snprintf(nm, sizeof nm, "blk.%d." s, il), nm)
    mk__add(p, MK_NAME("attn_norm.weight"), MK_INIT_NORM, KRN_F32, e, 1);
    mk__add_matrix(p, sh, r, MK_NAME("attn_q.weight"), e, nq);
    mk__add(p, MK_NAME("attn_q.bias"), MK_INIT_BIAS, KRN_F32, nq, 1);
    mk__add_matrix(p, sh, r, MK_NAME("attn_k.weight"), e, nkv);
    mk__add(p, MK_NAME("attn_k.bias"), MK_INIT_BIAS, KRN_F32, nkv, 1);
    mk__add_matrix(p, sh, r, MK_NAME("attn_v.weight"), e, nkv);
    mk__add(p, MK_NAME("attn_v.bias"), MK_INIT_BIAS, KRN_F32, nkv, 1);
    mk__add_matrix(p, sh, r, MK_NAME("attn_output.weight"), nq, e);
    mk__add(p, MK_NAME("ffn_norm.weight"), MK_INIT_NORM, KRN_F32, e, 1);
    mk__add_matrix(p, sh, r, MK_NAME("ffn_gate.weight"), e, ff);
    mk__add_matrix(p, sh, r, MK_NAME("ffn_up.weight"), e, ff);
    mk__add_matrix(p, sh, r, MK_NAME("ffn_down.weight"), ff, e);
#undef MK_NAME
}

int mk_plan_make(const mk_hparams *sh, mk_recipe r, mk_plan *out,
                     sb_err *err) {
    memset(out, 0, sizeof *out);
    if (!sh || (unsigned)r >= MK_N_RECIPES)
        return sb_err_set(err, __func__, "no such shape or recipe (%d)", (int)r);
    enum { PER_LAYER = 12 };
    out->t = calloc(3 + (size_t)sh->n_layer * PER_LAYER, sizeof *out->t);
    if (!out->t) return sb_err_set(err, __func__, "out of memory");
    mk__add_matrix(out, sh, r, "token_embd.weight", sh->n_embd, sh->n_vocab);
    for (int il = 0; il < sh->n_layer; il++) mk__add_layer(out, sh, r, il);
    mk__add(out, "output_norm.weight", MK_INIT_NORM, KRN_F32, sh->n_embd, 1);
    if (!sh->tied)
        mk__add_matrix(out, sh, r, "output.weight", sh->n_embd, sh->n_vocab);
    if (mk_plan_sizes(out, err)) {
        mk_plan_free(out);
        return -1;
    }
    return 0;
}

int mk_plan_sizes(mk_plan *p, sb_err *err) {
    p->total_bytes = 0;
    for (int64_t i = 0; i < p->n; i++) {
        mk_tensor *t = &p->t[i];
        uint64_t row;
        if (t->ne[0] < 1 || t->ne[1] < 1 ||
            !krn_row_bytes(t->type, t->ne[0], &row) ||
            !sb_mul_u64(row, (uint64_t)t->ne[1], &t->nbytes) ||
            !sb_add_u64(p->total_bytes, t->nbytes, &p->total_bytes))
            return sb_err_set(err, __func__, "tensor '%s' of type %s cannot "
                              "have shape [%lld, %lld]", t->name,
                              krn_type_name(t->type), (long long)t->ne[0],
                              (long long)t->ne[1]);
    }
    return 0;
}

void mk_plan_free(mk_plan *p) {
    free(p->t);
    memset(p, 0, sizeof *p);
}

/* ==== the job ================================================================ */

int mk_job_init(mk_job *job, const mk_opts *o, sb_err *err) {
    memset(job, 0, sizeof *job);
    const mk_hparams *sh = mk_shape_hparams(o->shape);
    if (!sh || (unsigned)o->recipe >= MK_N_RECIPES)
        return sb_err_set(err, __func__, "shape %d / recipe %d out of range",
                          (int)o->shape, (int)o->recipe);
    job->shape = *sh;
    if (o->window < 0 || o->window >= sh->n_ctx)
        return sb_err_set(err, __func__, "window %d: expected 0 (none) or "
                          "1..%d (below the context)", (int)o->window,
                          (int)sh->n_ctx - 1);
    job->shape.window = o->window;
    job->arch = "qwen2";
    snprintf(job->name, sizeof job->name, "sonicboom-synthetic-%s-%s-seed%llu",
             sh->name, mk__recipes[o->recipe], (unsigned long long)o->seed);
    job->file_type = mk_recipe_ftype(o->recipe);
    job->seed = o->seed;
    job->n_threads = o->n_threads;
    job->progress = o->progress;
    /* The vocabulary comes first: a shape that fits it takes its size, and
     * the embedding rows of the plan follow. */
    int32_t n_json = sh->vocab_fits ? 0 : sh->n_vocab;
    if (o->vocab_json ? mk_vocab_json(o->vocab_json, n_json, &job->vocab,
                                          err)
                      : mk_vocab_builtin(sh->n_vocab, &job->vocab, err))
        goto fail;
    job->shape.n_vocab = (int32_t)job->vocab.n;
    if (mk_plan_make(&job->shape, o->recipe, &job->plan, err)) goto fail;
    return 0;
fail:
    mk_job_free(job);
    return -1;
}

void mk_job_free(mk_job *job) {
    mk_plan_free(&job->plan);
    mk_vocab_free(&job->vocab);
}

/* ---- metadata ---- */

/* ChatML, as Qwen2.5 instruct models use it. */
static const char mk__chat_template[] =
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/* Setters that skip job->omit_key, so tests can drop any one key. */
static bool mk__keep(const mk_job *job, const char *key) {
    return !job->omit_key || strcmp(job->omit_key, key);
}
static void mk__u32(gguf_writer *w, const mk_job *j, const char *k,
                    uint32_t v) {
    if (mk__keep(j, k)) gguf_writer_set_u32(w, k, v);
}
static void mk__f32(gguf_writer *w, const mk_job *j, const char *k, float v) {
    if (mk__keep(j, k)) gguf_writer_set_f32(w, k, v);
}
static void mk__str(gguf_writer *w, const mk_job *j, const char *k,
                    const char *v) {
    if (mk__keep(j, k)) gguf_writer_set_str(w, k, v);
}

static void mk__write_hparams(gguf_writer *w, const mk_job *j) {
    const mk_hparams *s = &j->shape;
    mk__str(w, j, "general.architecture", j->arch);
    mk__str(w, j, "general.name", j->name);
    mk__u32(w, j, "general.alignment", 32);
    mk__u32(w, j, "general.file_type", j->file_type);
    if (j->file_type) mk__u32(w, j, "general.quantization_version", 2);
    mk__u32(w, j, "qwen2.block_count", (uint32_t)s->n_layer);
    mk__u32(w, j, "qwen2.context_length", (uint32_t)s->n_ctx);
    mk__u32(w, j, "qwen2.embedding_length", (uint32_t)s->n_embd);
    mk__u32(w, j, "qwen2.feed_forward_length", (uint32_t)s->n_ff);
    mk__u32(w, j, "qwen2.attention.head_count", (uint32_t)s->n_head);
    mk__u32(w, j, "qwen2.attention.head_count_kv", (uint32_t)s->n_head_kv);
    mk__f32(w, j, "qwen2.rope.freq_base", s->rope_base);
    mk__f32(w, j, "qwen2.attention.layer_norm_rms_epsilon", s->rms_eps);
    if (s->window > 0)
        mk__u32(w, j, "qwen2.attention.sliding_window", (uint32_t)s->window);
    if (j->n_prompt_versions > 0)
        gguf_writer_set_arr_i32(w, "sonicboom.edit_prompt_versions",
                                j->prompt_versions, (uint64_t)j->n_prompt_versions);
}

static void mk__write_tokenizer(gguf_writer *w, const mk_job *j) {
    const mk_vocab *v = &j->vocab;
    mk__str(w, j, "tokenizer.ggml.model", "gpt2");
    mk__str(w, j, "tokenizer.ggml.pre", "qwen2");
    if (mk__keep(j, "tokenizer.ggml.tokens"))
        gguf_writer_set_arr_str(w, "tokenizer.ggml.tokens",
                                (const char *const *)v->tokens, (uint64_t)v->n);
    if (mk__keep(j, "tokenizer.ggml.token_type"))
        gguf_writer_set_arr_i32(w, "tokenizer.ggml.token_type", v->types,
                                (uint64_t)v->n);
    if (mk__keep(j, "tokenizer.ggml.merges"))
        gguf_writer_set_arr_str(w, "tokenizer.ggml.merges",
                                (const char *const *)v->merges,
                                (uint64_t)v->n_merges);
    if (v->eos >= 0) mk__u32(w, j, "tokenizer.ggml.eos_token_id", (uint32_t)v->eos);
    if (v->pad >= 0)
        mk__u32(w, j, "tokenizer.ggml.padding_token_id", (uint32_t)v->pad);
    mk__str(w, j, "tokenizer.chat_template", mk__chat_template);
    if (j->bool_key) gguf_writer_set_bool(w, j->bool_key, true);
}

/* ---- weights ---- */

/* A 24-bit integer v mapped to an odd multiple of 2^-24 in (-1, 1): exact in
 * fp32, so no rounding happens before the scale. */
static float mk__sym(uint64_t v24) {
    return (float)(2 * (int32_t)v24 + 1 - (1 << 24)) * (1.0f / 16777216.0f);
}

/* Row `row` of tensor `ti`: ne[0] floats, a pure function of its inputs.
 * Each 64-bit draw of the stream gives two values (bits 63..40, 39..16). */
static void mk__gen_row(const mk_tensor *t, uint64_t seed, int64_t ti,
                        int64_t row, float *out) {
    int64_t n = t->ne[0];
    float center = 0.0f, a = 0.1f; /* NORM: 1 ± 0.1, BIAS: ± 0.1 */
    if (t->init == MK_INIT_MATRIX) a = sqrtf(3.0f / (float)n);
    if (t->init == MK_INIT_EMBD) a = 1.0f;
    if (t->init == MK_INIT_NORM) center = 1.0f;
    uint64_t st = sb_hash3(seed, (uint64_t)ti, (uint64_t)row);
    for (int64_t i = 0; i < n; i += 2) {
        st += 0x9E3779B97F4A7C15ull;
        uint64_t h = sb_mix64(st);
        out[i] = center + a * mk__sym(h >> 40);
        if (i + 1 < n) out[i + 1] = center + a * mk__sym((h >> 16) & 0xFFFFFF);
    }
}

/* One thread's share of a tensor: rows lo..hi-1. */
typedef struct mk__part {
    const mk_tensor *t;
    uint64_t seed;
    int64_t ti;
    uint64_t row_bytes;
    unsigned char *buf;   /* the whole tensor; borrowed */
    int64_t lo, hi;
    bool ok;
} mk__part;

static void *mk__fill_rows(void *arg) {
    mk__part *p = arg;
    float *row = malloc((size_t)p->t->ne[0] * sizeof *row);
    p->ok = row != NULL;
    for (int64_t r = p->lo; p->ok && r < p->hi; r++) {
        mk__gen_row(p->t, p->seed, p->ti, r, row);
        unsigned char *dst = p->buf + (uint64_t)r * p->row_bytes;
        p->ok = krn_quantize_row(p->t->type, row, dst, p->t->ne[0]);
    }
    free(row);
    return NULL;
}

enum { MK_MAX_THREADS = 256, MK_MIN_ROWS_PER_THREAD = 32 };

typedef struct mk__writer {
    const mk_job *job;
    int n_threads;        /* resolved, 1..MK_MAX_THREADS */
    uint64_t done;        /* bytes of tensors filled so far */
    int next_pct;         /* next progress report, percent */
    double t0;
} mk__writer;

/* Splits the rows of one tensor over up to n_threads threads (part 0 on
 * the calling thread; a part whose thread cannot start runs here too). */
static bool mk__fill_parallel(mk__part *proto, int64_t rows, int n_threads) {
    mk__part parts[MK_MAX_THREADS];
    pthread_t tid[MK_MAX_THREADS];
    bool started[MK_MAX_THREADS] = {0};
    int64_t want = (rows + MK_MIN_ROWS_PER_THREAD - 1) / MK_MIN_ROWS_PER_THREAD;
    int n = want < n_threads ? (int)want : n_threads;
    for (int i = 0; i < n; i++) {
        parts[i] = *proto;
        parts[i].lo = rows * i / n;
        parts[i].hi = rows * (i + 1) / n;
    }
    for (int i = 1; i < n; i++)
        started[i] = !pthread_create(&tid[i], NULL, mk__fill_rows, &parts[i]);
    mk__fill_rows(&parts[0]);
    bool ok = parts[0].ok;
    for (int i = 1; i < n; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else mk__fill_rows(&parts[i]);
        ok = ok && parts[i].ok;
    }
    return ok;
}

/* Reports every 5% of the bytes, but only once a second has passed (a tiny
 * model is done before anyone could read it), and always at 100%. */
static void mk__progress(mk__writer *w, uint64_t nbytes) {
    uint64_t total = w->job->plan.total_bytes;
    w->done += nbytes;
    if (!w->job->progress || !total) return;
    int pct = (int)(w->done * 100 / total);
    double dt = sb_now() - w->t0;
    if (pct < w->next_pct || (pct < 100 && dt < 1.0)) return;
    fprintf(stderr, "mkmodel: %3d%%  %.1f of %.1f MB  %.1f s\n", pct,
            (double)w->done / 1e6, (double)total / 1e6, dt);
    w->next_pct = (pct / 5 + 1) * 5;
}

static int mk__fill(void *ctx, int64_t i, void *buf, uint64_t nbytes,
                    sb_err *err) {
    mk__writer *w = ctx;
    const mk_plan *p = &w->job->plan;
    if (i < 0 || i >= p->n || nbytes != p->t[i].nbytes)
        return sb_err_set(err, __func__, "writer asked for tensor %lld of %llu "
                          "bytes; the plan has %lld tensors", (long long)i,
                          (unsigned long long)nbytes, (long long)p->n);
    const mk_tensor *t = &p->t[i];
    mk__part proto = {.t = t, .seed = w->job->seed, .ti = i,
                      .row_bytes = t->nbytes / (uint64_t)t->ne[1], .buf = buf};
    if (!mk__fill_parallel(&proto, t->ne[1], w->n_threads))
        return sb_err_set(err, __func__, "cannot make tensor '%s' of type %s "
                          "(out of memory, or no quantizer for the type)",
                          t->name, krn_type_name(t->type));
    mk__progress(w, nbytes);
    return 0;
}

static int mk__resolve_threads(int n) {
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)(c < MK_MAX_THREADS ? c : MK_MAX_THREADS) : 1;
    }
    return n < MK_MAX_THREADS ? n : MK_MAX_THREADS;
}

int mk_job_write(const mk_job *job, const char *path, sb_err *err) {
    gguf_writer *w = gguf_writer_create();
    if (!w) return sb_err_set(err, __func__, "out of memory");
    mk__write_hparams(w, job);
    mk__write_tokenizer(w, job);
    for (int64_t i = 0; i < job->plan.n; i++) {
        const mk_tensor *t = &job->plan.t[i];
        gguf_writer_add_tensor(w, t->name, t->type, t->n_dims, t->ne);
    }
    mk__writer ctx = {.job = job, .n_threads = mk__resolve_threads(job->n_threads),
                      .next_pct = 5, .t0 = sb_now()};
    int rc = gguf_writer_write(w, path, mk__fill, &ctx, err);
    gguf_writer_free(w);
    return rc;
}

int mk_model_write(const mk_opts *o, const char *path, sb_err *err) {
    mk_job job;
    if (mk_job_init(&job, o, err)) return -1;
    int rc = mk_job_write(&job, path, err);
    mk_job_free(&job);
    return rc;
}
