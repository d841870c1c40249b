/*
 * model_internal.h — private to engine/: what a loaded model holds.
 *
 * engine.h keeps eng_model opaque; the rest of engine/ (sessions, generation,
 * the tokenizer) reads these fields directly. Everything here is filled once
 * by eng_model_load and never changes afterwards, except the SHA-256 cache.
 *
 * Invariants after a successful load:
 *   - desc.n_vocab == vocab.n, and every weight pointer in desc (and in
 *     layers) points into file's bytes (a private copy of the file);
 *   - vocab.byte_id[b] is a valid id for every byte b;
 *   - vocab.bpe and vocab.specials are built (never NULL);
 *   - eos is -1 or in 0..vocab.n-1.
 */
#ifndef SB_ENGINE_MODEL_INTERNAL_H
#define SB_ENGINE_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "../gguf/gguf.h"

/* The vocabulary as raw bytes. Token strings in a gpt2-style GGUF are stored
 * in GPT-2's byte-to-unicode form; they are decoded once at load, so token
 * i's bytes are bytes[off[i] .. off[i+1]) — what the model "means" by it.
 * Control and user-defined tokens keep their literal text. */
typedef struct eng_vocab {
    int32_t n;               /* number of tokens (== desc.n_vocab) */
    char *bytes;             /* all tokens' bytes back to back; owned */
    uint64_t *off;           /* n + 1 offsets into bytes; owned */
    uint8_t *type;           /* n token types (GGUF_TOKEN_*); owned */
    int32_t byte_id[256];    /* the token whose bytes are exactly {b} */
    /* Encoder tables (tokenizer_internal.h), built by eng__vocab_load from
     * the fields above and tokenizer.ggml.merges; owned, read-only after. */
    struct eng_bpe *bpe;           /* bytes -> id map and merge ranks */
    struct eng_specials *specials; /* control and user-defined tokens */
} eng_vocab;

struct eng_model {
    gguf_file *file;         /* owned: the bytes all weights live in */
    krn_model desc;          /* weight pointers borrowed from file */
    krn_layer *layers;       /* owned, desc.n_layer entries (desc.layers) */
    int32_t n_ctx;           /* qwen2.context_length */
    int32_t eos;             /* end-of-generation token, or -1 */
    bool tied;               /* no output.weight: desc.output == tok_embd */
    uint32_t prompt_versions;/* sonicboom.edit_prompt_versions as bits; 0:
                                the key is absent */
    eng_vocab vocab;
    bool sha_done;           /* sha256 below is filled */
    char sha256[65];         /* of the whole file, lowercase hex */
};

/* ---- finite.c ---- */

/* 0 when tensor t (named name, for the message) can give only finite
 * products: every scale of a quantized tensor, every value of a float
 * one, is finite. -1 naming the tensor, the block or element and what it
 * holds (NaN, Inf). */
int eng__tensor_check_finite(const char *name, const krn_tensor *t,
                             sb_err *err);

/* 0 when every one of the n_vocab logits of the row about to be sampled is
 * finite; -1 naming the step (1-based, as eng_gen_result.steps counts),
 * the position and how many are not. */
int eng__logits_check_finite(const float *row, int32_t n_vocab, int32_t step,
                             int64_t pos, sb_err *err);

/* ---- tokenizer.c ---- */

/* Reads tokenizer.ggml.tokens (and token_type when present) from f, which
 * must hold exactly n_vocab entries, checks tokenizer.ggml.model/pre, loads
 * tokenizer.ggml.merges, and builds v with its encoder tables. Returns -1
 * naming the key, token, merge or byte at fault. On failure v holds nothing
 * to free. */
int eng__vocab_load(eng_vocab *v, const gguf_file *f, int32_t n_vocab,
                    sb_err *err);
void eng__vocab_free(eng_vocab *v);
/* The lowest id whose bytes equal text[0..len), or -1. Linear; for load-time
 * lookups of special tokens only. */
int32_t eng__vocab_find(const eng_vocab *v, const char *text, uint64_t len);

#endif /* SB_ENGINE_MODEL_INTERNAL_H */
