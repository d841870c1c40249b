/*
 * mkmodel_internal.h — private to mkmodel/ (and the tests): the pieces behind
 * mk_model_write, exposed so tests can check a plan without writing gigabytes
 * and can build deliberately broken variants of a model.
 *
 * A job is everything one file is made from: hyperparameters, metadata,
 * the tensor plan (names, types, shapes, in file order) and the vocabulary.
 * mk_model_write is mk_job_init + mk_job_write + mk_job_free:
 *
 *     mk_job job;
 *     if (mk_job_init(&job, &opts, &err)) ...
 *     job.plan.t[5].ne[1] = 100;            // a test's wrong-shaped tensor
 *     mk_plan_sizes(&job.plan, &err);
 *     mk_job_write(&job, path, &err);
 *     mk_job_free(&job);
 *
 * Weights are a pure function of (seed, tensor index in the plan, row), so
 * the bytes never depend on the thread count.
 */
#ifndef SB_MKMODEL_INTERNAL_H
#define SB_MKMODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../kernels/kernels.h"
#include "mkmodel.h"

/* Hyperparameters of one shape (real Qwen2.5 values). */
typedef struct mk_hparams {
    const char *name;   /* "tiny", "0.5b", ...; static */
    int32_t n_layer, n_embd, n_ff, n_head, n_head_kv, n_vocab, n_ctx;
    bool tied;          /* no output.weight: token_embd is the LM head */
    float rope_base, rms_eps;
    int32_t window;     /* 0: none (the table's shapes); set from the options */
    bool vocab_fits;    /* with a tokenizer.json, n_vocab becomes the
                           tokenizer's size rounded up to 64 (tiny: a small
                           model with the real vocabulary); otherwise fixed */
} mk_hparams;

/* NULL for a value outside the enum. Static storage. */
const mk_hparams *mk_shape_hparams(mk_shape s);
/* "f32", "q8_0", "q4_k_m"; "?" outside the enum. */
const char *mk_recipe_name(mk_recipe r);
/* llama.cpp's general.file_type for recipe r: 0 (all F32), 7 (mostly
 * Q8_0), 15 (mostly Q4_K_M); 0 outside the enum. */
uint32_t mk_recipe_ftype(mk_recipe r);

/* The type recipe r gives the weight matrix `name` (a qwen2 tensor name:
 * "token_embd.weight", "blk.3.attn_v.weight", ...) whose rows hold ne0
 * weights, in a model of n_layer layers (tied: token_embd is also the LM
 * head). F32 keeps F32; Q8_0 quantizes every matrix; Q4_K_M places types
 * as llama.cpp does: Q4_K, with Q6_K for the LM head and for attn_v and
 * ffn_down in llama.cpp's "more bits" layers (the first and last eighth,
 * every third between), and Q5_0 / Q8_0 in place of Q4_K / Q6_K for rows
 * that are not whole 256-weight super-blocks. The one placement rule of
 * sb mkmodel and sb quantize. */
krn_type mk_matrix_type(mk_recipe r, const char *name, int64_t ne0,
                            int n_layer, bool tied);

/* How a tensor's values are drawn (all uniform, per row):
 * MATRIX ±sqrt(3/ne0) (unit-variance outputs), EMBD ±1, NORM 1±0.1,
 * BIAS ±0.1. */
typedef enum mk_init {
    MK_INIT_MATRIX, MK_INIT_EMBD, MK_INIT_NORM, MK_INIT_BIAS
} mk_init;

typedef struct mk_tensor {
    char name[64];
    krn_type type;
    uint32_t n_dims;    /* 1 for vectors, 2 for matrices */
    int64_t ne[2];      /* ggml order: ne[0] is the row length; ne[1] = 1 for
                           vectors */
    mk_init init;
    uint64_t nbytes;    /* ne[1] rows of krn_row_bytes(type, ne[0]) */
} mk_tensor;

typedef struct mk_plan {
    mk_tensor *t;   /* n entries in file order; owned */
    int64_t n;
    uint64_t total_bytes; /* sum of nbytes (no alignment padding) */
} mk_plan;

/* The tensors of a shape under a recipe, in file order: token_embd, then
 * each layer's, then output_norm and (untied) output. Writes nothing. */
int mk_plan_make(const mk_hparams *sh, mk_recipe r, mk_plan *out,
                     sb_err *err);
/* Recomputes every nbytes and total_bytes (after a test edited the plan);
 * -1 when a row is not a whole number of blocks of its type. */
int mk_plan_sizes(mk_plan *p, sb_err *err);
void mk_plan_free(mk_plan *p);

/* A vocabulary to write: tokens as stored in GGUF (byte tokens in GPT-2
 * byte-to-unicode form, special tokens literal). */
typedef struct mk_vocab {
    char **tokens;      /* n NUL-terminated strings; owned */
    int32_t *types;     /* n token types: 1 normal, 3 control, 4 user */
    int64_t n;
    char **merges;      /* n_merges "a b" strings; owned */
    int64_t n_merges;
    int32_t eos, pad;   /* ids, or -1 (key not written) */
} mk_vocab;

/* The built-in byte-level vocabulary: bytes 0..255 as ids 0..255, then
 * <|endoftext|>, <|im_start|>, <|im_end|> (eos), then [PAD<i>] up to
 * n_vocab (>= 259) entries. No merges. */
int mk_vocab_builtin(int32_t n_vocab, mk_vocab *out, sb_err *err);
/* Largest vocabulary mk_vocab_json builds: far above any real one
 * (Qwen's is 151,936), and a bound (48 MB of slots) on what a stray id in
 * the file can make it allocate. */
enum { MK_VOCAB_MAX = 1 << 22 };

/* A Hugging Face tokenizer.json (model.vocab, model.merges, added_tokens),
 * padded with [PAD<i>] to n_vocab entries; ids must be dense from 0 and
 * fewer than n_vocab. n_vocab 0 fits the file: the last id + 1 rounded up to
 * a multiple of 64 (Qwen's 151,669 tokens give 151,680). */
int mk_vocab_json(const char *path, int32_t n_vocab, mk_vocab *out,
                      sb_err *err);
void mk_vocab_free(mk_vocab *v);

typedef struct mk_job {
    mk_hparams shape;   /* hyperparameters written to the metadata */
    const char *arch;     /* general.architecture ("qwen2"); static */
    char name[128];       /* general.name */
    uint32_t file_type;   /* general.file_type (llama.cpp's ftype) */
    mk_plan plan;     /* owned */
    mk_vocab vocab;   /* owned */
    uint64_t seed;
    int n_threads;        /* 0: one per online CPU */
    bool progress;        /* percent of bytes on stderr */
    const char *omit_key; /* a metadata key to leave out (tests), or NULL */
    const char *bool_key; /* a bool metadata key to add, set true (tests:
                             llama.cpp's files carry some), or NULL */
    const int32_t *prompt_versions; /* sonicboom.edit_prompt_versions, */
    int n_prompt_versions;          /* written when n > 0 (borrowed) */
} mk_job;

/* Builds the job for o (plan and vocabulary; reads o->vocab_json). On
 * failure nothing is left to free. */
int mk_job_init(mk_job *job, const mk_opts *o, sb_err *err);
/* Writes the job's file to path (via a temporary, base.h sb_out). */
int mk_job_write(const mk_job *job, const char *path, sb_err *err);
void mk_job_free(mk_job *job);

#endif /* SB_MKMODEL_INTERNAL_H */
