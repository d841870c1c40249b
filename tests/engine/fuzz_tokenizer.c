/*
 * fuzz_tokenizer.c — libFuzzer target over the tokenizer with the real
 * Qwen vocabulary: the input is any bytes, encoded with and without
 * special tokens and decoded back. Checked, beyond no crash, leak or
 * sanitizer report: every id is in the vocabulary, the count is within the
 * documented 3n + 1, encoding is a pure function (twice, same ids), the
 * split points eng_tokenize_cuts calls clean really are (the ids before a
 * clean cut are those of the prefix encoded alone), and streaming the ids'
 * bytes through eng_utf8_stream gives back exactly their concatenation.
 *
 * The model: $SB_FUZZ_VOCAB_MODEL (make fuzz passes the tiny model with
 * the real vocabulary, build/tokref/tiny-vocab.gguf), loaded once. Seeds:
 * the tokenizer reference corpus (tests/tokenizer/corpus/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"

static eng_model *fuzz__model;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *path = getenv("SB_FUZZ_VOCAB_MODEL");
    sb_err err = {0};
    if (!path || !(fuzz__model = eng_model_load(path, &err))) {
        fprintf(stderr, "fuzz_tokenizer: set SB_FUZZ_VOCAB_MODEL to a model "
                "with the real vocabulary (%s)\n", path ? err.msg : "unset");
        exit(1);
    }
    return 0;
}

static int32_t *fuzz__encode(const char *text, int64_t n, unsigned flags,
                             int64_t *count) {
    int64_t cap = 3 * n + 1;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    if (!ids) abort();
    *count = eng_tokenize_ex(fuzz__model, text, n, ids, cap, flags);
    if (*count < 0 || *count > cap) abort();
    int32_t n_vocab = eng_n_vocab(fuzz__model);
    for (int64_t i = 0; i < *count; i++)
        if (ids[i] < 0 || ids[i] >= n_vocab) abort();
    return ids;
}

/* Decoding: the stream's output is the ids' bytes, back to back. */
static void fuzz__decode(const int32_t *ids, int64_t n) {
    eng_utf8_stream st = {0};
    size_t total = 0, cap = 64, got = 0;
    char *want = malloc(cap), *out = malloc(cap + 8);
    if (!want || !out) abort();
    for (int64_t i = 0; i < n; i++) {
        int64_t len;
        const char *b = eng_token_bytes(fuzz__model, ids[i], &len);
        if (!b || len < 0) abort();
        while (total + (size_t)len + 8 > cap) {
            cap *= 2;
            if (!(want = realloc(want, cap)) || !(out = realloc(out, cap + 8)))
                abort();
        }
        memcpy(want + total, b, (size_t)len);
        total += (size_t)len;
        got += (size_t)eng_utf8_stream_push(&st, b, len, out + got);
    }
    got += (size_t)eng_utf8_stream_flush(&st, out + got);
    if (got != total || memcmp(out, want, total)) abort();
    free(want);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    int64_t n = (int64_t)size;
    for (unsigned flags = 0; flags <= ENG_TOK_SPECIAL; flags++) {
        int64_t count, again_n;
        int32_t *ids = fuzz__encode(text, n, flags, &count);
        int32_t *again = fuzz__encode(text, n, flags, &again_n);
        if (again_n != count || memcmp(ids, again, (size_t)count * sizeof *ids))
            abort();
        free(again);
        fuzz__decode(ids, count);
        /* a cut in the middle: when it is clean, the prefix alone encodes
         * to exactly the ids before it */
        int64_t cut = n / 2, at = -2;
        int32_t *cut_ids = malloc((size_t)(3 * n + 1) * sizeof *cut_ids);
        if (!cut_ids) abort();
        int64_t k = eng_tokenize_cuts(fuzz__model, text, n, cut_ids, 3 * n + 1,
                                      flags, &cut, 1, &at);
        if (k != count || memcmp(cut_ids, ids, (size_t)count * sizeof *ids))
            abort();
        if (at >= 0) {
            int64_t pre_n;
            int32_t *pre = fuzz__encode(text, cut, flags, &pre_n);
            if (pre_n != at || memcmp(pre, ids, (size_t)at * sizeof *ids))
                abort();
            free(pre);
        }
        free(cut_ids);
        free(ids);
    }
    return 0;
}
