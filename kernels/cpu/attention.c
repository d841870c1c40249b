/*
 * attention.c — one query head against the fp16 KV cache, in fixed chunks.
 *
 * THE CONTRACT (a CUDA kernel must perform exactly this float sequence; fp32,
 * each operation rounded as written, no FMA contraction):
 *
 * Inputs: q (hd floats, after RoPE), keys/values of positions t = F..P
 * (P = pos; F = 0, or pos - window + 1 for a sliding window), stored as
 * fp16 (position t in slot t % slots) and widened exactly to fp32.
 *
 * 1. Scores. For each position t:
 *        prod_d  = q_d * k_t[d]                      d = 0..hd-1
 *        score_t = krn_lane_sum(prod, hd) * scale,   scale = 1.0f / sqrtf((float)hd)
 *
 * 2. Chunks. Positions are split by absolute index into chunks of
 *    KRN_ATTN_CHUNK = 64: chunk c holds positions max(64c, F) ..
 *    min(64c+63, P), for c = F/64 .. P/64. The split depends on F and P
 *    only, never on how many rows or threads there are, nor on the slots.
 *    Per chunk, in position order:
 *        m      = score of the chunk's first slot, replaced by each later
 *                 score that is strictly greater (the maximum)
 *        p_t    = krn_exp(score_t − m)
 *        l      = 0.0f;  l = l + p_t            for each slot in order
 *        acc[d] = 0.0f;  acc[d] = acc[d] + p_t * v_t[d]   for each slot in order
 *
 * 3. Merge, left to right, starting from chunk F/64's (m, l, acc) as the
 *    running (M, L, ACC); for each later chunk c with (m_b, l_b, acc_b):
 *        M'     = M > m_b ? M : m_b
 *        a      = krn_exp(M − M'),  b = krn_exp(m_b − M')
 *        L      = L * a + l_b * b
 *        ACC[d] = ACC[d] * a + acc_b[d] * b
 *        M      = M'
 *    (A split-KV kernel may compute chunks anywhere, in any order, as long as
 *    it merges them in this order.)
 *
 * 4. out[d] = ACC[d] / L.
 */
#include <math.h>
#include <pthread.h>

#include "cpu.h"

static float krn_cpu__f16[65536];
static pthread_once_t krn_cpu__f16_once = PTHREAD_ONCE_INIT;

static void krn_cpu__f16_build(void) {
    for (uint32_t h = 0; h < 65536; h++)
        krn_cpu__f16[h] = krn_fp16_to_fp32((uint16_t)h);
}

const float *krn_cpu_f16_table(void) {
    pthread_once(&krn_cpu__f16_once, krn_cpu__f16_build);
    return krn_cpu__f16;
}

int64_t krn_cpu_attn_scratch(int32_t head_dim) {
    return KRN_ATTN_CHUNK + 3 * (int64_t)head_dim;
}

/* The running or per-chunk state of step 2/3. */
typedef struct krn_cpu__chunk {
    float m, l;
    float *acc; /* head_dim floats */
} krn_cpu__chunk;

/* Step 1 for positions t0..t1-1 into score[0..t1-t0). */
static void krn_cpu__scores(const krn_cpu_attn *a, int32_t t0, int32_t t1,
                            float scale, float *prod, float *score) {
    const int32_t hd = a->head_dim;
    for (int32_t t = t0; t < t1; t++) {
        const uint16_t *k = a->k + (int64_t)(t % a->n_slots) * a->kv_stride;
        for (int32_t d = 0; d < hd; d++) prod[d] = a->q[d] * a->f16[k[d]];
        score[t - t0] = krn_lane_sum(prod, hd) * scale;
    }
}

/* Step 2 for the chunk of positions t0..t1-1 (t1 > t0); score is
 * overwritten with the p_t. */
static void krn_cpu__chunk_stats(const krn_cpu_attn *a, int32_t t0,
                                 int32_t t1, float *score, krn_cpu__chunk *out) {
    const int32_t n = t1 - t0, hd = a->head_dim;
    float m = score[0];
    for (int32_t j = 1; j < n; j++)
        if (score[j] > m) m = score[j];
    float l = 0.0f;
    for (int32_t j = 0; j < n; j++) {
        score[j] = krn_exp(score[j] - m);
        l = l + score[j];
    }
    for (int32_t d = 0; d < hd; d++) out->acc[d] = 0.0f;
    for (int32_t j = 0; j < n; j++) {
        const uint16_t *v = a->v + (int64_t)((t0 + j) % a->n_slots) * a->kv_stride;
        const float p = score[j];
        for (int32_t d = 0; d < hd; d++)
            out->acc[d] = out->acc[d] + p * a->f16[v[d]];
    }
    out->m = m;
    out->l = l;
}

/* Step 3: folds chunk b into the running state. */
static void krn_cpu__merge(krn_cpu__chunk *run, const krn_cpu__chunk *b,
                           int32_t hd) {
    float m = run->m > b->m ? run->m : b->m;
    float ea = krn_exp(run->m - m), eb = krn_exp(b->m - m);
    run->l = run->l * ea + b->l * eb;
    for (int32_t d = 0; d < hd; d++)
        run->acc[d] = run->acc[d] * ea + b->acc[d] * eb;
    run->m = m;
}

void krn_cpu_attn_head(const krn_cpu_attn *a) {
    const int32_t hd = a->head_dim;
    const float scale = 1.0f / sqrtf((float)hd);
    float *score = a->scratch;                 /* KRN_ATTN_CHUNK */
    float *prod = score + KRN_ATTN_CHUNK;      /* hd */
    krn_cpu__chunk run = {.acc = prod + hd};   /* hd */
    krn_cpu__chunk cur = {.acc = run.acc + hd};/* hd */
    const int32_t c_first = a->first / KRN_ATTN_CHUNK;
    for (int32_t c = c_first; c <= a->last / KRN_ATTN_CHUNK; c++) {
        const int32_t t0 = c * KRN_ATTN_CHUNK > a->first ? c * KRN_ATTN_CHUNK : a->first;
        const int32_t t1 = a->last + 1 < (c + 1) * KRN_ATTN_CHUNK ? a->last + 1
                                                                  : (c + 1) * KRN_ATTN_CHUNK;
        krn_cpu__scores(a, t0, t1, scale, prod, score);
        krn_cpu__chunk_stats(a, t0, t1, score, c == c_first ? &run : &cur);
        if (c > c_first) krn_cpu__merge(&run, &cur, hd);
    }
    for (int32_t d = 0; d < hd; d++) a->out[d] = run.acc[d] / run.l;
}

int64_t krn_cpu_attn_group_scratch(int32_t head_dim, int32_t n_heads) {
    /* attention_simd.h's group layout: each head's scores, M, L, the
     * chunk's m and l, ACC and the chunk's acc. A group of one runs as one
     * head. */
    const int64_t hd = head_dim, nh = n_heads,
                  group = nh * KRN_ATTN_CHUNK + 4 * nh + 2 * nh * hd;
    const int64_t one = krn_cpu_attn_scratch(head_dim);
    return group > one ? group : one;
}

void krn_cpu_attn_group(const krn_cpu_attn *a, int32_t n_heads) {
    krn_cpu_attn h = *a;
    for (int32_t i = 0; i < n_heads; i++) {
        h.q = a->q + (int64_t)i * a->head_dim;
        h.out = a->out + (int64_t)i * a->head_dim;
        krn_cpu_attn_head(&h);
    }
}
