/*
 * chain_model.h — test support for tests/lsp: a tiny model whose greedy
 * answer to ANY edit prompt is a fixed, well-formed fenced reply, so that
 * the whole real path (prompt, tokenizer, drafter, forward passes, sampler,
 * extraction) can produce a real edit. Included by one test file each.
 *
 * How: the tiny f32 shape, untied, with every attention output and FFN
 * down-projection zeroed, so the final hidden state at a position is the
 * embedding of the token there. Embedding row i is the unit vector
 * e[i mod 256]; output row j is zero except at the dimension of the token
 * that j follows in the chain
 *
 *     "\n" (the prompt's last token)  ->  REPLY  ->  FENCE  ->  <|im_end|>
 *
 * where REPLY (id 300) is one token whose bytes are the edited file and
 * FENCE (id 301) is "```". After RMS norm the chain's successor scores 16
 * and every other token 0, so greedy decoding emits REPLY FENCE <|im_end|>:
 * the reply "<edited file>```", which edit_extract accepts.
 * Everything else (weights of the zeroed paths' inputs, the norms inside
 * the layers) stays the seeded random values mkmodel writes.
 */
#ifndef SB_TESTS_CHAIN_MODEL_H
#define SB_TESTS_CHAIN_MODEL_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../gguf/gguf.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../../engine/model_internal.h"

enum { CHAIN_REPLY = 300, CHAIN_FENCE = 301, CHAIN_NL = 10, CHAIN_IM_END = 258 };

/* bytes in GPT-2's byte-to-unicode form, as GGUF vocabularies store them */
static char *chain__gpt2(const char *bytes) {
    size_t n = strlen(bytes);
    char *out = malloc(2 * n + 1), *p = out;
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = gguf_gpt2_byte_to_cp((uint8_t)bytes[i]);
        if (cp < 0x80) {
            *p++ = (char)cp;
        } else {
            *p++ = (char)(0xC0 | (cp >> 6));
            *p++ = (char)(0x80 | (cp & 0x3F));
        }
    }
    *p = '\0';
    return out;
}

static int chain__set_token(mk_job *job, int id, const char *bytes) {
    char *t = chain__gpt2(bytes);
    if (!t) return -1;
    free(job->vocab.tokens[id]);
    job->vocab.tokens[id] = t;
    job->vocab.types[id] = GGUF_TOKEN_NORMAL;
    return 0;
}

/* The values one tensor gets, or false to keep mkmodel's. row has ne0
 * floats. */
static bool chain__row(const char *name, int64_t row, int64_t ne0, float *v) {
    memset(v, 0, (size_t)ne0 * sizeof *v);
    if (!strcmp(name, "token_embd.weight")) {
        v[row % ne0] = 1.0f;
        return true;
    }
    if (!strcmp(name, "output.weight")) {
        /* row j fires on the dimension of the token before it */
        if (row == CHAIN_REPLY) v[CHAIN_NL % ne0] = 1.0f;
        if (row == CHAIN_FENCE) v[CHAIN_REPLY % ne0] = 1.0f;
        if (row == CHAIN_IM_END) v[CHAIN_FENCE % ne0] = 1.0f;
        return true;
    }
    if (!strcmp(name, "output_norm.weight")) {
        for (int64_t i = 0; i < ne0; i++) v[i] = 1.0f;
        return true;
    }
    const char *dot = strrchr(name, '.');
    if (!strncmp(name, "blk.", 4) && dot &&
        (!strncmp(dot - 11, "attn_output", 11) || !strncmp(dot - 8, "ffn_down", 8)))
        return true; /* zeros */
    return false;
}

/* Writes the chain model answering `reply` (the edited file; it must end
 * in "\n" so that the fence starts a line) to path. 0, or -1 with err. */
static int chain_model_write(const char *path, const char *reply, sb_err *err) {
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_F32,
                          .seed = 7, .n_threads = 1};
    mk_job job;
    if (mk_job_init(&job, &o, err)) return -1;
    job.shape.tied = false;
    mk_plan_free(&job.plan);
    int rc = mk_plan_make(&job.shape, MK_RECIPE_F32, &job.plan, err);
    if (!rc && (chain__set_token(&job, CHAIN_REPLY, reply) ||
                chain__set_token(&job, CHAIN_FENCE, "```")))
        rc = sb_err_set(err, "chain_model_write", "out of memory");
    if (!rc) rc = mk_job_write(&job, path, err);
    mk_job_free(&job);
    if (rc) return -1;
    gguf_file *f = gguf_open(path, err);
    if (!f) return -1;
    int fd = open(path, O_RDWR);
    float *row = malloc(4096 * sizeof *row);
    rc = fd >= 0 && row ? 0 : sb_err_set(err, "chain_model_write", "cannot patch");
    for (int64_t t = 0; !rc && t < gguf_tensor_count(f); t++) {
        const gguf_tensor *g = gguf_tensor_at(f, t);
        if (g->type != KRN_F32 || g->ne[0] > 4096) continue;
        off_t at = (off_t)((const char *)g->data - (const char *)gguf_file_bytes(f));
        for (int64_t r = 0; !rc && r < g->ne[1]; r++) {
            if (!chain__row(g->name, r, g->ne[0], row)) break;
            size_t n = (size_t)g->ne[0] * sizeof *row;
            if (pwrite(fd, row, n, at + (off_t)(r * (int64_t)n)) != (ssize_t)n)
                rc = sb_err_set(err, "chain_model_write", "pwrite failed");
        }
    }
    free(row);
    if (fd >= 0) close(fd);
    gguf_close(f);
    return rc;
}

#endif
