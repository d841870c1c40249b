/*
 * fuzz_gguf.c — libFuzzer target over model loading, end to end: the input
 * is a GGUF file's bytes, read as eng_model_load reads a file (the GGUF
 * container, then the qwen2 model, its weights' finite checks, then the
 * vocabulary and the encoder tables). A model that loads is then used the
 * way sb uses one without a forward pass: described (sb info), a text
 * tokenized with and without special tokens, every id of it decoded. A
 * crash, leak, hang, sanitizer report or a refusal without a message is a
 * bug. Built and run by `make fuzz`; seeds in tests/engine/corpus_gguf/
 * (models of the "micro" shape, written by tests/engine/fuzz_gguf_seeds.c:
 * `make fuzz-seeds`).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../engine/engine.h"

/* The input goes through a memfd, so the loader takes the same path a
 * real file does (open, fstat, read) without touching the disk. */
static int fuzz__fd = -1;
static char fuzz__path[64];

static void fuzz__use(eng_model *m) {
    static const char text[] = "def f(x):\n    return x + 1  # <|im_end|> é\xff";
    int32_t ids[3 * sizeof text + 1];
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        eng_model_describe(m, devnull);
        fclose(devnull);
    }
    for (unsigned flags = 0; flags <= ENG_TOK_SPECIAL; flags++) {
        int64_t n = eng_tokenize_ex(m, text, sizeof text - 1, ids,
                                    3 * sizeof text + 1, flags);
        if (n < 0 || n > (int64_t)(3 * sizeof text + 1)) abort();
        for (int64_t i = 0; i < n; i++) {
            int64_t len = -1;
            if (!eng_token_bytes(m, ids[i], &len) || len < 0) abort();
        }
    }
    (void)eng_model_sha256(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (fuzz__fd < 0) {
        fuzz__fd = memfd_create("fuzz_gguf", MFD_CLOEXEC);
        if (fuzz__fd < 0) abort();
        snprintf(fuzz__path, sizeof fuzz__path, "/proc/self/fd/%d", fuzz__fd);
    }
    if (ftruncate(fuzz__fd, 0) || (size && pwrite(fuzz__fd, data, size, 0) !=
                                               (ssize_t)size))
        abort();
    sb_err err = {0};
    eng_model *m = eng_model_load(fuzz__path, &err);
    if (!m) {
        if (!err.msg[0]) abort(); /* every refusal says why */
        return 0;
    }
    fuzz__use(m);
    eng_model_free(m);
    return 0;
}
