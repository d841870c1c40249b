/*
 * model_internal.h — private to engine/: what a loaded model holds.
 *
 * engine.h keeps eng_model opaque; the rest of engine/ (sessions, generation,
 * tokens) reads these fields directly. Everything here is filled once
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
#include "../tokenizer/tokenizer.h"

struct eng_model {
    gguf_file *file;         /* owned: the bytes all weights live in */
    krn_model desc;          /* weight pointers borrowed from file */
    krn_layer *layers;       /* owned, desc.n_layer entries (desc.layers) */
    int32_t n_ctx;           /* qwen2.context_length */
    int32_t eos;             /* end-of-generation token, or -1 */
    bool tied;               /* no output.weight: desc.output == tok_embd */
    uint32_t prompt_versions;/* sonicboom.edit_prompt_versions as bits; 0:
                                the key is absent */
    tok_vocab vocab;
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

#endif /* SB_ENGINE_MODEL_INTERNAL_H */
