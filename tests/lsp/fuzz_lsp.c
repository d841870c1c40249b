/*
 * fuzz_lsp.c — libFuzzer target over sb-lsp's framing and dispatch: the
 * input is a byte stream as a client would send it; every framed message
 * is handled by a fresh server (no model, replies to /dev/null). Built and
 * run by `make fuzz` (clang -fsanitize=fuzzer,address,undefined); seeds in
 * tests/lsp/corpus/. A crash, leak or sanitizer report is a bug.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../../lsp/lsp.h"

typedef struct fuzz_src {
    const uint8_t *p;
    size_t n, at;
} fuzz_src;

/* Hands out the input in pieces of up to 7 bytes, so that messages split
 * across reads as they do on a pipe. */
static ssize_t fuzz_read(void *ctx, void *buf, size_t n) {
    fuzz_src *s = ctx;
    size_t k = s->n - s->at;
    if (k > n) k = n;
    if (k > 7) k = 7;
    memcpy(buf, s->p + s->at, k);
    s->at += k;
    return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int null_fd = -1;
    if (null_fd < 0) null_fd = open("/dev/null", O_WRONLY);
    lsp_config cfg;
    lsp_config_defaults(&cfg);
    sb_err err = {0};
    /* a model that cannot load: edits fail fast, the paths around them run */
    lsp_config_set(&cfg, "model", "/nonexistent/fuzz.gguf", &err);
    lsp_server *s = lsp_server_create(&cfg, null_fd, &err);
    lsp_config_free(&cfg);
    if (!s) return 0;
    fuzz_src src = {data, size, 0};
    /* a small cap, so that the oversize path is reachable */
    lsp_reader *r = lsp_reader_create(fuzz_read, &src, 4096);
    for (int i = 0; r && i < 64; i++) {
        const char *body;
        size_t len;
        sb_err rerr = {0};
        lsp_read_status st = lsp_reader_next(r, &body, &len, &rerr);
        if (st == LSP_READ_OK) {
            if (lsp_server_handle(s, body, len)) break;
        } else if (st != LSP_READ_BAD && st != LSP_READ_TOO_LARGE) {
            break;
        }
    }
    lsp_reader_destroy(r);
    lsp_server_destroy(s);
    return 0;
}
