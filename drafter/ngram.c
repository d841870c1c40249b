/*
 * ngram.c — the prompt-lookup baseline (drafter.h). Deliberately plain: a
 * linear scan of the source per step, the first occurrence wins, and no
 * memory of where the last draft came from. It is the yardstick the copy
 * drafter is measured against, not a drafter to improve.
 */
#include <stdlib.h>

#include "index.h"

struct drf_ngram {
    drf__seq src;   /* owned */
    drf__seq hist;  /* prompt + committed output; owned */
    bool hist_ok;   /* false after running out of memory */
    int32_t max_n;
};

/* Start of the first occurrence of key[0..n-1] in the source that has at
 * least one token after it, or -1. */
static int32_t ngram__find(const drf_ngram *g, const int32_t *key, int32_t n) {
    for (int32_t p = 0; p + n < g->src.n; p++)
        if (drf__gram_eq(g->src.v, p, key, 0, n)) return p;
    return -1;
}

static int32_t ngram__propose(void *ctx, const int32_t *out, int32_t n_out,
                              int32_t max_draft, int32_t *draft) {
    (void)out;
    (void)n_out; /* the history holds them, through accept */
    drf_ngram *g = ctx;
    if (!g->hist_ok) return 0;
    for (int32_t n = g->max_n; n >= 1; n--) {
        if (n > g->hist.n) continue;
        int32_t p = ngram__find(g, g->hist.v + g->hist.n - n, n);
        if (p < 0) continue;
        int32_t d = 0;
        for (int32_t at = p + n; d < max_draft && at < g->src.n; at++)
            draft[d++] = g->src.v[at];
        return d;
    }
    return 0;
}

static void ngram__accept(void *ctx, const int32_t *tokens, int32_t n) {
    drf_ngram *g = ctx;
    if (g->hist_ok) g->hist_ok = drf__seq_push(&g->hist, tokens, n);
}

static void ngram__begin(void *ctx, const int32_t *prompt, int32_t n_prompt) {
    drf_ngram *g = ctx;
    g->hist.n = 0;
    g->hist_ok = drf__seq_push(&g->hist, prompt, n_prompt);
}

drf_ngram *drf_ngram_create(const int32_t *source, int32_t n_source,
                            int32_t max_n, sb_err *err) {
    if (max_n == 0) max_n = 3;
    if (max_n < 1 || max_n > DRF__MAX_GRAM) {
        sb_err_set(err, __func__, "max_n %d; expected 1..%d", (int)max_n,
                   DRF__MAX_GRAM);
        return NULL;
    }
    if (n_source < 0 || n_source > DRF_MAX_SOURCE || (n_source && !source)) {
        sb_err_set(err, __func__, "source of %d tokens; expected 0..%d",
                   (int)n_source, DRF_MAX_SOURCE);
        return NULL;
    }
    drf_ngram *g = calloc(1, sizeof *g);
    if (!g || !drf__seq_push(&g->src, source, n_source)) {
        sb_err_set(err, __func__, "out of memory for a source of %d tokens",
                   (int)n_source);
        drf_ngram_destroy(g);
        return NULL;
    }
    g->max_n = max_n;
    return g;
}

void drf_ngram_destroy(drf_ngram *g) {
    if (!g) return;
    drf__seq_free(&g->src);
    drf__seq_free(&g->hist);
    free(g);
}

eng_drafter drf_ngram_drafter(drf_ngram *g) {
    return (eng_drafter){.ctx = g, .begin = ngram__begin,
                         .propose = ngram__propose, .accept = ngram__accept};
}
