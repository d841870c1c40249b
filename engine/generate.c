/*
 * generate.c — plain decoding: prefill the prompt, then one token per step.
 *
 * This is the reference the speculative loop must reproduce bit for bit, so
 * it stays as simple as it can be: the token at position p is
 * eng_sample(logits of the row at p - 1, p).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

eng_gen_params eng_gen_defaults(void) {
    return (eng_gen_params){
        .n_max = 256,
        .sampling = {.temperature = 0.0f, .seed = 0, .top_k = 0},
        .prefill_chunk = KRN_MAX_ROWS,
        .stop_at_eos = true,
    };
}

void eng_tokens_sha256(const int32_t *ids, int64_t n, char hex[65]) {
    sb_sha256 *h = sb_sha256_begin();
    if (!h) {
        hex[0] = '\0';
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)ids[i];
        unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                               (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
        sb_sha256_update(h, le, 4);
    }
    sb_sha256_final(h, hex);
}

/* Decodes after the prompt is in the cache and `logits` holds its last row.
 * Appends to r->tokens (room for n_max) and sets r->stop. */
static int eng__decode(eng_session *s, const eng_gen_params *p, int32_t n_max,
                       float *logits, eng_token_fn on_token, void *ctx,
                       eng_gen_result *r, sb_err *err) {
    const eng_model *m = eng_session_model(s);
    int32_t n_vocab = eng_n_vocab(m), eos = eng_model_eos(m);
    r->stop = ENG_STOP_LENGTH;
    while (r->n_tokens < n_max) {
        int64_t pos = eng_session_length(s);
        int32_t id = eng_sample(logits, n_vocab, &p->sampling, pos);
        r->tokens[r->n_tokens++] = id;
        if (on_token && on_token(ctx, id)) {
            r->stop = ENG_STOP_CALLBACK;
            return 0;
        }
        if (p->stop_at_eos && id == eos) {
            r->stop = ENG_STOP_EOS;
            return 0;
        }
        if (r->n_tokens == n_max) return 0;
        if (eng_session_length(s) == eng_session_capacity(s)) {
            r->stop = ENG_STOP_CONTEXT;
            return 0;
        }
        if (eng_session_step(s, &id, 1, logits, err)) return -1;
    }
    return 0;
}

int eng_generate(eng_session *s, const int32_t *prompt, int32_t n_prompt,
                 const eng_gen_params *p, eng_token_fn on_token, void *ctx,
                 eng_gen_result *r, sb_err *err) {
    memset(r, 0, sizeof *r);
    if (n_prompt < 1)
        return sb_err_set(err, __func__, "empty prompt: at least one token is "
                          "needed to predict the next");
    int32_t n_max = p->n_max < 0 ? 0 : p->n_max;
    int32_t n_vocab = eng_n_vocab(eng_session_model(s));
    float *logits = malloc((size_t)n_vocab * sizeof *logits);
    r->tokens = malloc(((size_t)n_max + 1) * sizeof *r->tokens);
    if (!logits || !r->tokens) {
        sb_err_set(err, __func__, "out of memory for %d tokens", (int)n_max);
        goto fail;
    }
    eng_session_truncate(s, 0);
    double t0 = sb_now();
    int chunk = p->prefill_chunk > 0 ? p->prefill_chunk : KRN_MAX_ROWS;
    if (eng_session_prefill(s, prompt, n_prompt, chunk, logits, err)) goto fail;
    double t1 = sb_now();
    if (eng__decode(s, p, n_max, logits, on_token, ctx, r, err)) goto fail;
    r->prefill_s = t1 - t0;
    r->decode_s = sb_now() - t1;
    eng_tokens_sha256(r->tokens, r->n_tokens, r->sha256);
    free(logits);
    return 0;
fail:
    free(logits);
    free(r->tokens);
    r->tokens = NULL;
    r->n_tokens = 0;
    return -1;
}
