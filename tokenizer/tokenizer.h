/*
 * tokenizer.h — the public face of tokenizer/: Qwen2's byte-level BPE
 * tokenizer over a vocabulary read from a GGUF file. engine/ keeps one
 * tok_vocab per model and answers engine.h's token calls (eng_tokenize,
 * eng_tokenize_cuts, eng_special_id, eng_token_bytes) with it; what the
 * encoding promises is said there, once.
 *
 *     tok_vocab v;
 *     if (tok_vocab_load(&v, file, n_vocab, &err)) ...;   // err names the fault
 *     int64_t n = tok_encode(&v, "def f():", 8, ids, cap, true, NULL, 0, NULL);
 *     tok_vocab_free(&v);
 *
 * The stages (specials.c, pretok.c, bpe.c) and their private header
 * tokenizer_internal.h; vocab.c loads, encode.c drives the stages.
 */
#ifndef SB_TOKENIZER_H
#define SB_TOKENIZER_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"
#include "../gguf/gguf.h"

/* The vocabulary as raw bytes. Token strings in a gpt2-style GGUF are stored
 * in GPT-2's byte-to-unicode form; they are decoded once at load, so token
 * i's bytes are bytes[off[i] .. off[i+1]) — what the model "means" by it.
 * Control and user-defined tokens keep their literal text. Read-only after
 * tok_vocab_load, so any number of threads may encode with it at once. */
typedef struct tok_vocab {
    int32_t n;               /* number of tokens (== the model's n_vocab) */
    char *bytes;             /* all tokens' bytes back to back; owned */
    uint64_t *off;           /* n + 1 offsets into bytes; owned */
    uint8_t *type;           /* n token types (GGUF_TOKEN_*); owned */
    int32_t byte_id[256];    /* the token whose bytes are exactly {b} */
    /* Encoder tables (tokenizer_internal.h), built by tok_vocab_load from
     * the fields above and tokenizer.ggml.merges; owned, read-only after. */
    struct tok__bpe *bpe;           /* bytes -> id map and merge ranks */
    struct tok__specials *specials; /* control and user-defined tokens */
} tok_vocab;

/* [vocab.c] Reads tokenizer.ggml.tokens (and token_type when present) from
 * f, which must hold exactly n_vocab entries, checks tokenizer.ggml.model/
 * pre, loads tokenizer.ggml.merges, and builds v with its encoder tables.
 * Returns -1 naming the key, token, merge or byte at fault. On failure v
 * holds nothing to free. v borrows nothing from f. */
int tok_vocab_load(tok_vocab *v, const gguf_file *f, int32_t n_vocab,
                   sb_err *err);
/* [vocab.c] Frees what v owns and zeroes it. */
void tok_vocab_free(tok_vocab *v);
/* [vocab.c] The lowest id whose bytes equal text[0..len), or -1. Linear;
 * for load-time lookups of special tokens only. */
int32_t tok_vocab_find(const tok_vocab *v, const char *text, uint64_t len);

/* [encode.c] Encodes n bytes of text into at most cap ids, matching special
 * tokens when `specials`; with n_cuts > 0, also where the encoding splits
 * at the byte offsets cuts[0..n_cuts) (cut_at). Returns the number of ids
 * the text needs, or -1 for bad arguments or when out of memory: exactly
 * eng_tokenize_cuts (engine.h), which says what each answer means. */
int64_t tok_encode(const tok_vocab *v, const char *text, int64_t n,
                   int32_t *ids, int64_t cap, bool specials,
                   const int64_t *cuts, int n_cuts, int64_t *cut_at);
/* [encode.c] The id of the special token whose text is exactly `text`
 * (NUL-terminated), or -1 when there is none. */
int32_t tok_special_id(const tok_vocab *v, const char *text);
/* [encode.c] Token id's bytes (borrowed from v); len receives the length.
 * NULL (and *len 0) for an id out of range. */
const char *tok_token_bytes(const tok_vocab *v, int32_t id, int64_t *len);

#endif /* SB_TOKENIZER_H */
