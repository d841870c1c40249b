/*
 * sampler.c — greedy and Gumbel-max sampling.
 *
 * Why Gumbel-max: argmax_i(logit_i / T + g_i) with g_i = −log(−log(u_i))
 * draws from softmax(logit / T), and because u_i is a counter-based hash of
 * (seed, position, id), the draw is a pure function of the logits. A verify
 * row of a speculative step therefore samples exactly what a plain step at
 * the same position would: no RNG state to advance or roll back.
 *
 * Order of operations (part of the contract): z_i = logit_i / T, then
 * z_i + g_i, each rounded as written; g_i uses the engine's own krn_log so
 * every backend and machine reproduces it. Ties go to the lowest id.
 */
#include <math.h>
#include <stdlib.h>

#include "engine.h"

/* Gumbel noise for one (seed, pos, id). u is in (0, 1) exclusive, so both
 * logs are finite. */
static float eng__gumbel(uint64_t seed, int64_t pos, int32_t id) {
    float u = sb_unit_open(sb_hash3(seed, (uint64_t)pos, (uint64_t)id));
    return -krn_log(-krn_log(u));
}

static int32_t eng__argmax(const float *v, int32_t n) {
    int32_t best = 0;
    for (int32_t i = 1; i < n; i++)
        if (v[i] > v[best]) best = i;
    return best;
}

/* The k-th largest logit (k >= 1): ids whose logit is below it are not
 * eligible. Ties at the threshold stay eligible, so the rule depends on
 * values only, never on how a sort breaks ties. */
static float eng__top_k_threshold(const float *logits, int32_t n, int32_t k) {
    float *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp) return -INFINITY; /* no limit rather than a wrong sample */
    for (int32_t i = 0; i < n; i++) tmp[i] = logits[i];
    /* Partial selection: k rounds of picking the max are O(n·k), fine for
     * the small k users set; a k near n degenerates to no limit anyway. */
    float thr = -INFINITY;
    for (int32_t r = 0; r < k; r++) {
        int32_t b = eng__argmax(tmp, n);
        thr = tmp[b];
        tmp[b] = -INFINITY;
    }
    free(tmp);
    return thr;
}

int32_t eng_sample(const float *logits, int32_t n_vocab, const eng_sampling *p,
                   int64_t pos) {
    if (!p || p->temperature <= 0.0f) return eng__argmax(logits, n_vocab);
    float thr = -INFINITY;
    if (p->top_k > 0 && p->top_k < n_vocab)
        thr = eng__top_k_threshold(logits, n_vocab, p->top_k);
    int32_t best = -1;
    float best_z = -INFINITY;
    for (int32_t i = 0; i < n_vocab; i++) {
        if (logits[i] < thr) continue;
        float z = logits[i] / p->temperature + eng__gumbel(p->seed, pos, i);
        if (best < 0 || z > best_z) {
            best = i;
            best_z = z;
        }
    }
    return best < 0 ? eng__argmax(logits, n_vocab) : best;
}
