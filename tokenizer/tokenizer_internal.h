/*
 * tokenizer_internal.h — private to tokenizer/ (and its tests): the stages of
 * Qwen2's byte-level BPE encoder, each in its own file.
 *
 *   text ──specials.c──▶ segments between special tokens (and their ids)
 *        ──pretok.c───▶ WHATWG UTF-8 repair, NFC, qwen2 pre-token pieces
 *        ──bpe.c──────▶ merges by rank inside each piece → token ids
 *
 * vocab.c loads the vocabulary and builds the tables below once per model;
 * encode.c drives the stages for tok_encode. Every table is read-only after
 * load, so any number of threads may encode with one model at once; per-call
 * scratch lives in a tok__bpe_work owned by the caller.
 */
#ifndef SB_TOKENIZER_INTERNAL_H
#define SB_TOKENIZER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tokenizer.h"

/* ==== specials.c: special and added tokens ================================ */

/* A trie over the literal text of every CONTROL and USER_DEFINED token
 * (empty ones are ignored; for duplicate texts the lowest id wins). */
struct tok__specials;

/* Builds the trie for v. NULL with err filled when out of memory. */
struct tok__specials *tok__specials_build(const tok_vocab *v, sb_err *err);
void tok__specials_free(struct tok__specials *s);

/* The leftmost position p >= from in text[0..n) where a special token
 * starts, taking the longest token there: *len receives its length (> 0)
 * and *id its id. Returns n (and leaves *len, *id alone) when no special
 * token occurs. O((n - from) * longest special). */
int64_t tok__specials_next(const struct tok__specials *s, const char *text,
                           int64_t n, int64_t from, int64_t *len, int32_t *id);

/* The id of the special token whose text is exactly text[0..len), or -1. */
int32_t tok__specials_find(const struct tok__specials *s, const char *text,
                           int64_t len);

/* ==== pretok.c: text repair, normalisation, pre-token split =============== */

/* UTF-8 decoding as the WHATWG Encoding Standard does it (and so as
 * JavaScript's TextDecoder and the reference harness do): each maximal
 * subpart of an ill-formed sequence becomes one U+FFFD; a leading BOM is
 * kept. Returns 0 with *out = NULL when text is already well-formed (the
 * common case: no copy), 0 with *out a malloc'd repaired copy (*out_n
 * bytes, at most 3n; caller frees), or -1 when out of memory. */
int tok__utf8_repair(const char *text, int64_t n, char **out, int64_t *out_n);

/* Unicode NFC of well-formed UTF-8 (utf8proc, applied only to the windows
 * around code points >= U+0300). Returns 0 with *out = NULL when the text is
 * NFC already, 0 with *out a malloc'd, NUL-terminated normalised copy of
 * *out_n bytes (caller frees), or -1 when out of memory. */
int tok__nfc(const char *text, int64_t n, char **out, int64_t *out_n);

/* Character classes as the qwen2 pre-tokenizer regex sees them. */
enum {
    TOK_PT_L = 1,  /* \p{L}: Lu Ll Lt Lm Lo */
    TOK_PT_N = 2,  /* \p{N}: Nd Nl No */
    TOK_PT_S = 4,  /* JavaScript's \s (ECMAScript WhiteSpace+LineTerminator) */
    TOK_PT_NL = 8, /* \r or \n (always together with TOK_PT_S) */
};
unsigned tok__pretok_class(uint32_t cp);

/* The end (byte offset) of the pre-token piece that starts at byte `at` of
 * the well-formed UTF-8 text[0..n), at < n. The pieces are exactly the
 * matches of the qwen2 pattern as the reference (JavaScript, flags "gu")
 * runs it; see pretok.c. Always returns a value in at+1..n. */
int64_t tok__pretok_next(const char *text, int64_t n, int64_t at);

/* Whether the pieces of text[0..at) alone are the pieces the whole
 * text[0..n) has before byte `at`, given that a piece of the whole starts
 * at `at` (0 <= at <= n). The pattern never looks behind, and its one
 * lookahead, the (?!\S) of \s+(?!\S), can look past `at` only from a
 * whitespace run that reaches `at`: true when no such run exists (the code
 * point before `at` is not whitespace), when the run holds a CR or LF
 * (\s*[\r\n]+ takes it first), or when text[at] is whitespace (the
 * lookahead then sees what it sees at the end of the text). Conservative:
 * false may be said of a split that would in fact hold. */
bool tok__pretok_ends_alike(const char *text, int64_t n, int64_t at);

/* ==== bpe.c: merges and the encoder ======================================= */

/* Token bytes -> id for every non-special token, and merge ranks. */
struct tok__bpe;

/* Reads tokenizer.ggml.merges (optional: absent or empty means byte-level
 * tokenization) against the decoded vocabulary v. Every merge must be "A B"
 * with A, B and AB normal tokens and no pair repeated; anything else is a
 * load error naming the merge. */
struct tok__bpe *tok__bpe_load(const tok_vocab *v, const gguf_file *f,
                               sb_err *err);
void tok__bpe_free(struct tok__bpe *b);
int64_t tok__bpe_n_merges(const struct tok__bpe *b);

/* The lowest non-special id whose bytes are bytes[0..len), or -1. */
int32_t tok__bpe_token(const struct tok__bpe *b, const tok_vocab *v,
                       const char *bytes, int64_t len);

/* Scratch for one encoding call; start zeroed, grow on demand, free once. */
typedef struct tok__bpe_work {
    int32_t *id;       /* per symbol: token id */
    int32_t *next;     /* per symbol: start of the next live symbol, n at the
                          end, -1 once merged into its left neighbour */
    int32_t *prev;     /* per symbol: start of the previous live symbol, -1 */
    struct tok__bpe_cand *heap;
    int64_t heap_n;
    int64_t cap;       /* symbols the arrays hold (heap holds 2*cap) */
    /* A memo of this call's short pieces (source code repeats the same
     * identifiers and indentation): piece bytes -> ids. The ids of a piece
     * are a pure function of its bytes, so the memo cannot change a result;
     * it is keyed and checked by the full bytes, and dies with the call. */
    struct tok__bpe_memo *memo; /* NULL until worth it, or if no memory */
    int64_t n_fresh;           /* short pieces seen before the memo */
} tok__bpe_work;

void tok__bpe_work_free(tok__bpe_work *w);

/* Encodes one piece of n bytes (1 <= n < 2^31) into at most n ids written
 * to out (which must have room for n). Applies merges lowest rank first,
 * the leftmost pair on a tie, with a binary heap of candidate pairs over a
 * linked list of symbols: O(n log n). Returns the id count, or -1 when out
 * of memory. */
int64_t tok__bpe_encode(const struct tok__bpe *b, const tok_vocab *v,
                        tok__bpe_work *w, const char *piece, int64_t n,
                        int32_t *out);

#endif /* SB_TOKENIZER_INTERNAL_H */
