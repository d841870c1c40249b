/*
 * generate.c — plain decoding: prefill the prompt, then one token per step.
 *
 * This is the reference the speculative loop must reproduce bit for bit, so
 * it stays as simple as it can be: the token at position p is
 * eng_sample(logits of the row at p - 1, p). Every token goes through
 * eng__gen_commit (gen_commit.c), as every token spec.c commits does.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

eng_gen_params eng_gen_defaults(void) {
    return (eng_gen_params){
        .n_max = 256,
        .sampling = {.temperature = 0.0f, .seed = 0, .top_k = 0},
        .prefill_chunk = 0, /* the session's (eng_options.prefill_chunk) */
        .stop_at_eos = true,
        .stop = NULL,
        .stop_len = 0,
        .drafter = NULL,
        .max_draft = 0,
        .reuse_prefix = true,
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

/* ==== plain decoding ========================================================= */

/* One token per step, after the prompt is in the cache and `logits` holds
 * its last row. */
static int eng__decode_plain(eng__gen *g, float *logits, sb_err *err) {
    eng_session *s = g->s;
    for (;;) {
        int64_t pos = eng_session_length(s);
        int32_t id;
        if (eng__gen_sample(g, logits, pos, &id, err)) return -1;
        g->r->steps++;
        if (eng__gen_commit(g, id)) return 0;
        if (eng_session_step(s, &id, 1, logits, err)) return -1;
        g->r->accept_hist[0]++;
    }
}

/* Checks the parameters that can be wrong and builds the stop matcher. */
static int eng__gen_init(eng__gen *g, const eng_gen_params *p, sb_err *err) {
    if (p->stop_len < 0 || p->stop_len > ENG_STOP_MAX || (p->stop_len && !p->stop))
        return sb_err_set(err, "eng_generate", "stop string of %d bytes; expected "
                          "0..%d bytes", (int)p->stop_len, ENG_STOP_MAX);
    if (p->max_draft < 0 || p->max_draft > ENG_MAX_DRAFT)
        return sb_err_set(err, "eng_generate", "max_draft %d; expected 0..%d",
                          (int)p->max_draft, ENG_MAX_DRAFT);
    if (p->drafter && !p->drafter->propose)
        return sb_err_set(err, "eng_generate", "drafter without a propose "
                          "function");
    return eng__gen_stop_init(g, err);
}

int eng_generate(eng_session *s, const int32_t *prompt, int32_t n_prompt,
                 const eng_gen_params *p, eng_token_fn on_token, void *ctx,
                 eng_gen_result *r, sb_err *err) {
    memset(r, 0, sizeof *r);
    if (n_prompt < 1)
        return sb_err_set(err, __func__, "empty prompt: at least one token is "
                          "needed to predict the next");
    const eng_model *m = eng_session_model(s);
    /* The weights are the file's bytes as loaded (a private copy); refuse
     * to run once the file on disk says otherwise, so that nobody runs a
     * model they believe they replaced, or logs it under the file's name
     * (docs/limits.md). */
    if (eng_model_check_file(m, err)) return -1;
    eng__gen g = {.s = s, .p = p, .on_token = on_token, .ctx = ctx, .r = r,
                  .prompt = prompt, .n_prompt = n_prompt, .n_max = p->n_max < 0 ? 0 : p->n_max,
                  .n_vocab = eng_n_vocab(m), .eos = eng_model_eos(m)};
    float *logits = NULL;
    if (eng__gen_init(&g, p, err)) goto fail;
    logits = eng_session_logits(s); /* generation steps write there */
    r->tokens = malloc(((size_t)g.n_max + 1) * sizeof *r->tokens);
    if (!logits || !r->tokens) {
        sb_err_set(err, __func__, "out of memory for %d tokens", (int)g.n_max);
        goto fail;
    }
    double t0 = sb_now();
    g.t0 = t0;
    int32_t kept = 0;
    if (p->reuse_prefix)
        kept = eng_session_reuse(s, prompt, n_prompt);
    else
        eng_session_truncate(s, 0);
    r->cached_tokens = kept;
    int chunk = p->prefill_chunk > 0 ? p->prefill_chunk : eng_session_prefill_chunk(s);
    if (eng_session_prefill(s, prompt + kept, n_prompt - kept, chunk, logits,
                            err))
        goto fail;
    double t1 = sb_now();
    r->stop = ENG_STOP_LENGTH;
    if (g.n_max > 0 && (p->drafter ? eng__decode_spec(&g, logits, err)
                                   : eng__decode_plain(&g, logits, err)))
        goto fail;
    r->prefill_s = t1 - t0;
    r->decode_s = sb_now() - t1;
    eng_tokens_sha256(r->tokens, r->n_tokens, r->sha256);
    free(g.stop_fail);
    return 0;
fail:
    free(g.stop_fail);
    free(r->tokens);
    r->tokens = NULL;
    r->n_tokens = 0;
    return -1;
}
