/*
 * engine.h — the public face of engine/: models (loaded, never made: that
 * is mkmodel/), tokens, sessions, sampling, generation and speculation.
 *
 *     sb_err err = {0};
 *     eng_model *m = eng_model_load("model.gguf", &err);
 *     eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2},
 *                                         &err);
 *     int32_t ids[4096];
 *     int64_t n = eng_tokenize(m, "def f():", 8, ids, 4096);
 *     eng_generate(s, ids, (int32_t)n, &(eng_gen_params){.n_max = 64},
 *                  on_token, ctx, &result, &err);
 *     eng_session_destroy(s);
 *     eng_model_free(m);
 *
 * Determinism (docs/determinism.md): the tokens generate produces are a pure
 * function of (model file, prompt tokens, sampling parameters, seed). They do
 * not depend on thread count, prefill chunking, KV rollback, or speculation
 * (whether a drafter is set, what it guesses, max_draft).
 */
#ifndef SB_ENGINE_H
#define SB_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/base.h"
#include "../kernels/kernels.h"

/* ==== Models ================================================================ */

typedef struct eng_model eng_model;

/* Reads a GGUF file whole into the process's memory and checks it is a
 * usable qwen2 model: required keys, every tensor present with the shape
 * the hyperparameters imply, supported types. Returns NULL and fills err
 * (one line naming the key or tensor). The model never reads the file
 * again: truncating, rewriting or deleting it afterwards cannot change or
 * crash a loaded model (docs/limits.md, "The model file"). */
eng_model *eng_model_load(const char *path, sb_err *err);
/* 0 when the file the model was loaded from is still the file that was
 * read (same device, inode, size, modification and change times), or was
 * deleted (no other bytes claim its path); -1 with err saying it was
 * replaced, resized or modified, and that the model must be loaded
 * again. eng_generate calls it first, so no generation runs — and no
 * session log records the file's path with a hash — after the file moved
 * on. A server can call it to reload instead. One stat(). */
int eng_model_check_file(const eng_model *m, sb_err *err);
void eng_model_free(eng_model *m);

/* Shapes and weights in the form backends take; owned by the model. */
const krn_model *eng_model_desc(const eng_model *m);
/* The model's declared context length (qwen2.context_length). */
int32_t eng_model_n_ctx(const eng_model *m);
/* Token id that ends generation (<|endoftext|> or <|im_end|>), or -1. */
int32_t eng_model_eos(const eng_model *m);
/* SHA-256 of the whole file as loaded (the bytes the weights are), 64 hex
 * digits; computed on first call. */
const char *eng_model_sha256(eng_model *m);
/* The edit prompt versions (edit/edit.h) the file says the model was
 * trained for, key "sonicboom.edit_prompt_versions" (docs/gguf.md): bit v
 * set for version v; 0 when the file has no such key. */
uint32_t eng_model_prompt_versions(const eng_model *m);
/* Whether the file's general.name is exactly `name`. */
bool eng_model_name_is(const eng_model *m, const char *name);
/* Prints architecture, shapes, per-type tensor counts and bytes (sb info). */
void eng_model_describe(const eng_model *m, FILE *out);

/* [model_default.c] The model to use when none is named: $SB_MODEL when
 * set, else the demo model trained by tools/train/ found beside the running
 * program (EXEDIR/../models/ in a build tree, EXEDIR/../share/sonicboom/
 * when installed). Writes its path into path[cap]; -1 with err naming the
 * expected path when there is none. */
#define ENG_DEFAULT_MODEL_NAME "sonicboom-demo.gguf"
int eng_default_model_path(char *path, size_t cap, sb_err *err);

/* [version.c] This engine's version, e.g. "0.7.0"; static storage. The
 * determinism contract holds for a fixed version (docs/determinism.md), so
 * session logs and logit dumps record it, and `sb --version` prints it. */
const char *eng_version(void);

/* ==== Tokens ================================================================ */

/* Encodes n bytes of text into at most cap ids; returns the number of ids the
 * text needs (which may exceed cap: then only the first cap were written),
 * or -1 for bad arguments or when out of memory (a single pre-token piece
 * of 2 GiB counts as that). The encoding is Qwen2's
 * byte-level BPE, id for id what the reference (transformers.js with Qwen's
 * tokenizer.json, tests/tokenizer/) produces for the same text:
 *
 *  1. Invalid UTF-8 is never rejected: the text is decoded as the WHATWG
 *     Encoding Standard does (node's and browsers' decoder), each maximal
 *     subpart of an ill-formed sequence becoming U+FFFD. A leading BOM is
 *     kept (decoders that strip it see different text).
 *  2. Special tokens (the model's control and user-defined tokens:
 *     <|im_start|>, <|endoftext|>, <|fim_prefix|>, <think>, ...) are found
 *     first, leftmost then longest, and become their ids; they never split
 *     or merge.
 *  3. Each stretch between them is NFC-normalised, split by the qwen2
 *     pre-tokenizer (tokenizer/pretok.c states the exact pattern) and each
 *     piece's bytes are merged by rank (tokenizer/bpe.c). A model without
 *     merges (the built-in byte vocabulary) gives one id per byte.
 *
 * Every id covers at least one byte of the repaired, normalised text, which
 * is at most 3n bytes long, so cap = 3n + 1 always suffices. Safe to call
 * from several threads with one model. Nothing is cached between calls. */
int64_t eng_tokenize(const eng_model *m, const char *text, int64_t n,
                     int32_t *ids, int64_t cap);

/* [tokens.c] eng_tokenize with flags: eng_tokenize(...) is
 * eng_tokenize_ex(..., ENG_TOK_SPECIAL). Without ENG_TOK_SPECIAL, special
 * token text is encoded as ordinary text ("<|im_end|>" becomes "<", "|",
 * "im", ...): use it for text a user supplied, so that it can never forge a
 * turn boundary. Unknown flag bits are an error (-1). */
enum { ENG_TOK_SPECIAL = 1u << 0 };
int64_t eng_tokenize_ex(const eng_model *m, const char *text, int64_t n,
                        int32_t *ids, int64_t cap, unsigned flags);
/* [tokens.c] eng_tokenize_ex that also tells where the encoding of the
 * text splits at given byte offsets, so that the ids of a part of a text
 * can be taken from the text's own ids instead of encoding the part again
 * (the edit prompt finds the file's ids inside the prompt's this way).
 *
 * For each of the n_cuts offsets cuts[k], cut_at[k] receives the index i of
 * the first id that encodes text from cuts[k] on when the encoding splits
 * cleanly there: ids[0..i) are then exactly the ids of text[0..cuts[k])
 * encoded alone and ids[i..) those of text[cuts[k]..n) encoded alone, so
 * the ids between two clean cuts are those of the text between them. It
 * receives -1 when a pre-token piece or special token spans the offset,
 * when the text needed UTF-8 repair or Unicode normalisation around it
 * (which move bytes), when the split is not provably clean
 * (tok__pretok_ends_alike, tokenizer/tokenizer_internal.h), or for an offset
 * outside 0..n. Returns what eng_tokenize_ex returns; cut_at is filled
 * whenever the call succeeds. */
int64_t eng_tokenize_cuts(const eng_model *m, const char *text, int64_t n,
                          int32_t *ids, int64_t cap, unsigned flags,
                          const int64_t *cuts, int n_cuts, int64_t *cut_at);
/* [tokens.c] The id of the special token whose text is exactly `text`
 * (NUL-terminated), or -1 when the model has none. */
int32_t eng_special_id(const eng_model *m, const char *text);

/* The bytes of one token (borrowed from the model); len receives the length.
 * NULL for an id out of range. Byte-level tokens may hold part of a UTF-8
 * character: stream text through eng_utf8_stream below. */
const char *eng_token_bytes(const eng_model *m, int32_t id, int64_t *len);
int32_t eng_n_vocab(const eng_model *m);

/* ==== Sessions: one sequence, its KV cache, and a backend ================== */

typedef enum eng_device { ENG_DEVICE_CPU = 0, ENG_DEVICE_CUDA = 1 } eng_device;

typedef struct eng_options {
    eng_device device;
    int n_threads;     /* 0: one per online CPU */
    int32_t n_ctx;     /* KV capacity; 0: min(model context, 4096) */
    /* A launch configuration to take instead of measuring one (a warm-up
     * table's, warmup/warmup.h): n_choices entries, borrowed for
     * eng_session_create. NULL: the backend chooses, and may time its
     * options to. Either way the bits are the same. */
    const krn_choice *choices;
    int n_choices;
    /* Kernel switches (kernels.h, krn_tuning; zeroed: the defaults), for
     * bisecting and timing: a program's main reads them once from the
     * environment (krn_tuning_from_env) and passes them here. The bits are
     * the same whatever they say; a value out of range fails the create. */
    krn_tuning tuning;
    /* The session's prefill chunk: a generation's rows per prefill step
     * when its parameters name none (eng_gen_params.prefill_chunk 0), and,
     * above 64, the longest prefill step the session runs. 0 is
     * KRN_MAX_ROWS (64, the default); up to KRN_MAX_BATCH_ROWS. Above 64
     * the backend's scratch (and a sliding window's KV ring) is made for
     * that many rows (krn_options.max_batch_rows), so memory grows: ask
     * only to prefill in longer chunks. The bits never depend on it. Out
     * of range: eng_session_create fails naming it. */
    int32_t prefill_chunk;
} eng_options;

typedef struct eng_session eng_session;

/* The model is borrowed until eng_session_destroy. */
eng_session *eng_session_create(const eng_model *m, const eng_options *opt,
                                sb_err *err);
void eng_session_destroy(eng_session *s);

/* Tokens currently in the KV cache. */
int32_t eng_session_length(const eng_session *s);
/* Rolls the KV cache back to its first n tokens (n <= length). */
void eng_session_truncate(eng_session *s, int32_t n);
/* The exact prefix cache: keeps the longest prefix of the held sequence
 * that ids[0..n) starts with, at most n - 1 tokens (the prompt's last row is
 * always computed, for its logits), truncates the session to it and returns
 * its length; the caller prefills ids[kept..n). With a sliding window the
 * prefix is kept only while the ring still holds the positions its next
 * row reads; else 0. The result is the same bits as prefilling from 0:
 * position p's K/V depends on the tokens at 0..p alone and not on the
 * steps that computed it (docs/determinism.md, "The prefix cache"). */
int32_t eng_session_reuse(eng_session *s, const int32_t *ids, int32_t n);
int32_t eng_session_capacity(const eng_session *s);
/* The model the session runs (borrowed). */
const eng_model *eng_session_model(const eng_session *s);

/* The session's prefill chunk (eng_options.prefill_chunk, 64 unless asked):
 * a generation's chunk when its parameters name none. eng_session_prefill
 * takes chunks of up to 64 rows, or up to this one when it is larger. */
int eng_session_prefill_chunk(const eng_session *s);

/* Appends n tokens at positions length..length+n-1 in steps of at most
 * `chunk` rows (1..64, or 1..eng_session_prefill_chunk when larger) and
 * writes the last row's logits to last_logits (n_vocab floats) when it is
 * not NULL. Only that row's logits are
 * computed (on the CPU; kernels.h, krn_batch.logits_from): a caller that
 * needs every prompt row's logits steps with eng_session_step instead. */
int eng_session_prefill(eng_session *s, const int32_t *ids, int32_t n,
                        int chunk, float *last_logits, sb_err *err);
/* One raw step: n_rows (1..KRN_MAX_ROWS) tokens appended at length..length+n_rows-1, all rows'
 * logits written (n_rows * n_vocab floats): a verify step samples every
 * row. */
int eng_session_step(eng_session *s, const int32_t *ids, int n_rows,
                     float *logits, sb_err *err);

/* The session's own logits buffer: KRN_MAX_ROWS rows of n_vocab floats, in
 * memory the backend fills fastest (page-locked for CUDA, where a 64-row
 * step's 39 MB then crosses the link at full speed). Pass it to the two
 * calls above; a prefill with another buffer still uses it as scratch. */
float *eng_session_logits(eng_session *s);

/* The GPU memory the session's backend took (weights, KV cache, scratch,
 * graphs) and all GPU memory in use right after it was made (the process's
 * CUDA context included). 0 and 0 on the CPU. */
void eng_session_device_memory(const eng_session *s, int64_t *session_bytes,
                               int64_t *device_used_bytes);

/* What the session holds, in bytes, for a cache's budget: on a GPU the
 * backend's device memory (eng_session_device_memory), on the CPU its KV
 * cache (fp16 keys and values of every layer and slot); plus its logits
 * buffer and token record. The model's weights are not counted on the CPU,
 * where sessions share them. */
int64_t eng_session_bytes(const eng_session *s);

/* The name of the device the session runs on, for logs: the GPU's as its
 * driver gives it ("NVIDIA H200"), or the CPU's model (krn_device_name).
 * Static storage; never NULL. */
const char *eng_session_device_name(const eng_session *s);
/* Its backend's short name: "cpu" or "cuda". Static storage. */
const char *eng_session_backend(const eng_session *s);

/* The launch choices the session's backend made at create, measured or
 * taken from eng_options.choices (none on the CPU): the count, and *out
 * owned by the session. They never change a bit. */
int eng_session_choices(const eng_session *s, const krn_choice **out);
/* How many timings the backend ran at create: 0 when its configuration
 * was given (eng_options.choices) or when it chooses without timing. */
int eng_session_measurements(const eng_session *s);

/* ==== Sampling ============================================================= */

typedef struct eng_sampling {
    float temperature; /* 0: greedy */
    uint64_t seed;
    int32_t top_k;     /* 0: no limit */
} eng_sampling;

/* Picks the token at absolute position pos (the position the token will
 * occupy) from n_vocab logits. Greedy: the largest logit, lowest id on a tie.
 * Otherwise Gumbel-max: argmax of logit/T + g(seed, pos, id), with
 * g = −log(−log(u)) and u a counter-based uniform; a pure function of its
 * inputs, so a verify row samples exactly what a plain step would. */
int32_t eng_sample(const float *logits, int32_t n_vocab,
                   const eng_sampling *p, int64_t pos);

/* ==== Drafters (engine/spec.c) ============================================ */

/* Most draft tokens one speculative step scores: with the last committed
 * token they fill the largest row bucket (KRN_MAX_ROWS). */
enum { ENG_MAX_DRAFT = KRN_MAX_ROWS - 1 };

/* A drafter guesses the tokens the model is about to produce; the engine
 * checks every guess against the model, so a drafter can only change speed,
 * never output: a drafter that always guesses wrong, returns nothing, or
 * returns ids outside the vocabulary gives the same tokens as plain decoding
 * (ids outside 0..n_vocab-1 cut the draft where they start).
 *
 * The table and ctx are borrowed by eng_generate for the call; whoever made
 * the drafter owns both (drafter/drafter.h makes them). Every callback is
 * called from the generating thread only, in this order per generation:
 * begin once, then per step propose and accept. Pointers passed to a
 * callback are borrowed for that call only. */
typedef struct eng_drafter {
    void *ctx;
    /* Optional (NULL: nothing to do). A new generation starts after the
     * n_prompt tokens of `prompt`: reset per-generation state. */
    void (*begin)(void *ctx, const int32_t *prompt, int32_t n_prompt);
    /* Writes at most max_draft (1..ENG_MAX_DRAFT) guesses for the tokens
     * that follow out[0..n_out-1] (every token generated so far) into draft
     * and returns how many it wrote (0: no guess; the step scores one row). */
    int32_t (*propose)(void *ctx, const int32_t *out, int32_t n_out,
                       int32_t max_draft, int32_t *draft);
    /* Optional. The n >= 1 tokens a step committed, in order. Over one
     * generation the accepted runs, concatenated, are exactly the result's
     * tokens (nothing after a stop is ever reported). */
    void (*accept)(void *ctx, const int32_t *tokens, int32_t n);
} eng_drafter;

/* ==== Generation =========================================================== */

/* Longest stop string, in bytes. */
enum { ENG_STOP_MAX = 1024 };

typedef struct eng_gen_params {
    int32_t n_max;        /* tokens to generate at most */
    eng_sampling sampling;
    int prefill_chunk;    /* rows per prefill step, 1..the session's
                             eng_session_prefill_chunk; 0 (the default):
                             that chunk (64 unless the session asked) */
    bool stop_at_eos;     /* stop after the model's EOS token (true: default
                             when built with eng_gen_defaults) */
    /* Stop after the token that completes this byte sequence in the
     * generated text (the prompt is not searched); the sequence may span
     * several tokens and the completing token is kept. NULL or stop_len 0:
     * none. Borrowed for the call; at most ENG_STOP_MAX bytes. */
    const char *stop;
    int32_t stop_len;
    /* Speculative decoding: NULL decodes one token per step; otherwise each
     * step scores the last token plus up to max_draft (1..ENG_MAX_DRAFT; 0:
     * ENG_MAX_DRAFT) of the drafter's guesses in one forward pass. Neither
     * changes the tokens produced (docs/determinism.md). Borrowed for the
     * call. */
    const eng_drafter *drafter;
    int32_t max_draft;
    /* Keep the K/V of the longest prefix the prompt shares with what the
     * session holds (eng_session_reuse) instead of prefilling from 0
     * (true in eng_gen_defaults). Changes no bit, only the time. */
    bool reuse_prefix;
} eng_gen_params;

eng_gen_params eng_gen_defaults(void);

typedef enum eng_stop {
    ENG_STOP_LENGTH,   /* n_max tokens generated */
    ENG_STOP_EOS,      /* the model's EOS token (included in tokens) */
    ENG_STOP_CALLBACK, /* on_token asked to stop */
    ENG_STOP_CONTEXT,  /* the KV cache is full */
    ENG_STOP_STRING,   /* the stop string completed (its last token included) */
} eng_stop;

typedef struct eng_gen_result {
    int32_t *tokens;      /* generated ids; caller frees with free() */
    int32_t n_tokens;
    eng_stop stop;
    double prefill_s;     /* seconds spent in prefill */
    double first_token_s; /* seconds from the call to the first token
                             sampled (0 when none was) */
    int32_t cached_tokens;/* prompt tokens whose K/V the session already
                             held (reuse_prefix); the rest were prefilled */
    double decode_s;      /* seconds spent generating */
    char sha256[65];      /* of the generated ids as little-endian int32 */
    /* Steps that produced tokens: the prefill's last row, then one per
     * decode forward pass. Plain decoding has steps == n_tokens; the mean
     * tokens per step is n_tokens / steps. */
    int32_t steps;
    int64_t drafted;      /* draft tokens scored by the model */
    int64_t accepted;     /* of those, committed (every token committed is
                             either an accepted draft or a model sample) */
    /* accept_hist[k]: decode forward passes (steps after the first) that
     * committed exactly k draft tokens, k = 0..ENG_MAX_DRAFT; they sum to
     * steps - 1 (plain decoding: all in accept_hist[0]). */
    int32_t accept_hist[ENG_MAX_DRAFT + 1];
} eng_gen_result;

/* Called once per generated token, in order; return non-zero to stop early
 * (the token is kept). Never called for a token after a stop. */
typedef int (*eng_token_fn)(void *ctx, int32_t id);

/* Resets the session (or, with p->reuse_prefix, keeps the prefix it shares
 * with the prompt), prefills the prompt, then decodes until n_max, EOS
 * (when asked), the stop string, a full context or the callback stops it:
 * one token per step, or with p->drafter set, up to 1 + max_draft per step.
 * Either way the tokens, stop reason and callback calls are the same, and
 * afterwards the session holds the K/V of the prompt and of every generated
 * token but the last (length n_prompt + max(n_tokens - 1, 0)), as plain
 * decoding leaves it: nothing a rejected or cut-off draft wrote is kept. */
int eng_generate(eng_session *s, const int32_t *prompt, int32_t n_prompt,
                 const eng_gen_params *p, eng_token_fn on_token, void *ctx,
                 eng_gen_result *result, sb_err *err);

/* [edit] Simulated speculation (engine/spec_sim.c), for sb draftsim: what
 * eng_generate(…, p, …) would report if the model were known to produce
 * exactly reply[0..n_reply-1] (its end counted as an EOS stop), without a
 * forward pass. p->drafter (NULL: plain decoding) is driven as the
 * speculative loop drives it — begin, then per step propose with the same
 * limits (n_max, max_draft; the KV capacity is taken to be unbounded) and
 * accept with the same committed runs — and r gets the same tokens, steps,
 * drafted, accepted, accept_hist and sha256 (times are 0). rows_hist (may
 * be NULL; KRN_MAX_ROWS + 1 entries, zeroed here) counts decode steps by
 * the rows they score (1 + drafts). p's sampling and stop fields are not
 * used. The model is read for its vocabulary size only. */
int eng_spec_simulate(const eng_model *m, const int32_t *prompt,
                      int32_t n_prompt, const int32_t *reply, int32_t n_reply,
                      const eng_gen_params *p, eng_gen_result *r,
                      int32_t *rows_hist, sb_err *err);

/* SHA-256 of n ids as little-endian int32 (the hash generate reports). */
void eng_tokens_sha256(const int32_t *ids, int64_t n, char hex[65]);

/* ==== Streaming text ======================================================= */

/* Turns token bytes into text that never ends in half a UTF-8 character:
 * bytes of an incomplete sequence are held until it completes (or proves
 * invalid, when they are released as they are). */
typedef struct eng_utf8_stream {
    unsigned char pending[4];
    int n_pending;
} eng_utf8_stream;

/* Appends the token's bytes; writes what is complete to out (capacity at
 * least len + 4) and returns the number of bytes written. */
int64_t eng_utf8_stream_push(eng_utf8_stream *st, const char *bytes,
                             int64_t len, char *out);
/* Releases whatever is pending (at end of generation). */
int64_t eng_utf8_stream_flush(eng_utf8_stream *st, char *out);

#endif /* SB_ENGINE_H */
