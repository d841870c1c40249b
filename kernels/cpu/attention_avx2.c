/*
 * attention_avx2.c — private to kernels/cpu/: attention.c's contract (one
 * query head against the fp16 KV cache, in chunks of 64 positions) with
 * AVX2 and F16C, for head dims that are a multiple of 32; the same bits.
 *
 * How each step keeps attention.c's float sequence:
 * - Scores: the lane sum's 32 lanes are four 8-float vectors; segment s of
 *   32 products (each q_d · k_d rounded) is added lane by lane from 0.0f,
 *   segment after segment, then the butterfly folds 16, 8 (vector adds),
 *   4, 2, 1 (within one vector), each lane[l] + lane[l + off] as written.
 *   Keys are widened by vcvtph2ps, exact as krn_fp16_to_fp32.
 * - Chunk maximum and the sum l: attention.c's scalar code, in position
 *   order; krn_exp 8 positions at a time (exp_avx2.h, the same bits).
 * - acc[d] += p_t · v_t[d] over positions in order: 8 dimensions per
 *   vector, each lane its own sequential sum; the merge and the final
 *   division likewise lane by lane.
 * Only these functions use the instructions (a target attribute); cpu.h's
 * krn_cpu_attn_head_for picks them where the CPU has them.
 */
#include <math.h>
#include <string.h>

#include "qdot.h"

#if KRN_CPU_HAVE_X86

#include <immintrin.h>

#define KRN__T __attribute__((target("avx2,f16c")))
#include "exp_avx2.h"

KRN__T static inline __m256 krn__h8(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}

/* krn_lane_sum(q·k over hd) * scale, hd a multiple of 32. */
KRN__T static float krn__score(const float *q, const uint16_t *k, int32_t hd,
                               float scale) {
    __m256 l[4];
    for (int v = 0; v < 4; v++) l[v] = _mm256_setzero_ps();
    for (int32_t s = 0; s < hd; s += 32)
        for (int v = 0; v < 4; v++)
            l[v] = _mm256_add_ps(l[v], _mm256_mul_ps(_mm256_loadu_ps(q + s + 8 * v),
                                                     krn__h8(k + s + 8 * v)));
    l[0] = _mm256_add_ps(l[0], l[2]); /* off 16 */
    l[1] = _mm256_add_ps(l[1], l[3]);
    l[0] = _mm256_add_ps(l[0], l[1]); /* off 8 */
    __m128 a = _mm_add_ps(_mm256_castps256_ps128(l[0]),
                          _mm256_extractf128_ps(l[0], 1)); /* off 4 */
    a = _mm_add_ps(a, _mm_movehl_ps(a, a));                   /* off 2 */
    a = _mm_add_ss(a, _mm_shuffle_ps(a, a, 1));               /* off 1 */
    return _mm_cvtss_f32(a) * scale;
}

typedef struct krn__chunk {
    float m, l;
    float *acc; /* head_dim floats */
} krn__chunk;

/* The chunk of positions t0..t1-1: scores, maximum, p_t, l and acc. */
KRN__T static void krn__chunk_run(const krn_cpu_attn *a, int32_t t0, int32_t t1,
                                  float scale, float *score, krn__chunk *out) {
    const int32_t n = t1 - t0, hd = a->head_dim;
    for (int32_t j = 0; j < n; j++) {
        const uint16_t *k = a->k + (int64_t)((t0 + j) % a->n_slots) * a->kv_stride;
        score[j] = krn__score(a->q, k, hd, scale);
    }
    float m = score[0];
    for (int32_t j = 1; j < n; j++)
        if (score[j] > m) m = score[j];
    int32_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm256_storeu_ps(score + j, krn__exp8(_mm256_sub_ps(_mm256_loadu_ps(score + j),
                                                             _mm256_set1_ps(m))));
    for (; j < n; j++) score[j] = krn_exp(score[j] - m);
    float l = 0.0f;
    for (j = 0; j < n; j++) l = l + score[j];
    for (int32_t d = 0; d < hd; d += 8)
        _mm256_storeu_ps(out->acc + d, _mm256_setzero_ps());
    for (int32_t j = 0; j < n; j++) {
        const uint16_t *v = a->v + (int64_t)((t0 + j) % a->n_slots) * a->kv_stride;
        const __m256 p = _mm256_set1_ps(score[j]);
        for (int32_t d = 0; d < hd; d += 8) {
            const __m256 acc = _mm256_loadu_ps(out->acc + d);
            _mm256_storeu_ps(out->acc + d,
                             _mm256_add_ps(acc, _mm256_mul_ps(p, krn__h8(v + d))));
        }
    }
    out->m = m;
    out->l = l;
}

/* Folds chunk b into the running state: L·a + l_b·b, ACC·a + acc_b·b. */
KRN__T static void krn__merge(krn__chunk *run, const krn__chunk *b, int32_t hd) {
    const float m = run->m > b->m ? run->m : b->m;
    const float ea = krn_exp(run->m - m), eb = krn_exp(b->m - m);
    run->l = run->l * ea + b->l * eb;
    const __m256 va = _mm256_set1_ps(ea), vb = _mm256_set1_ps(eb);
    for (int32_t d = 0; d < hd; d += 8)
        _mm256_storeu_ps(run->acc + d,
                         _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(run->acc + d), va),
                                       _mm256_mul_ps(_mm256_loadu_ps(b->acc + d), vb)));
    run->m = m;
}

KRN__T static void krn__attn_head_avx2(const krn_cpu_attn *a) {
    const int32_t hd = a->head_dim;
    const float scale = 1.0f / sqrtf((float)hd);
    float *score = a->scratch;                 /* KRN_ATTN_CHUNK */
    krn__chunk run = {.acc = score + KRN_ATTN_CHUNK + hd};
    krn__chunk cur = {.acc = run.acc + hd};
    const int32_t c_first = a->first / KRN_ATTN_CHUNK;
    for (int32_t c = c_first; c <= a->last / KRN_ATTN_CHUNK; c++) {
        const int32_t t0 = c * KRN_ATTN_CHUNK > a->first ? c * KRN_ATTN_CHUNK : a->first;
        const int32_t t1 = a->last + 1 < (c + 1) * KRN_ATTN_CHUNK ? a->last + 1
                                                                  : (c + 1) * KRN_ATTN_CHUNK;
        krn__chunk_run(a, t0, t1, scale, score, c == c_first ? &run : &cur);
        if (c > c_first) krn__merge(&run, &cur, hd);
    }
    const __m256 l = _mm256_set1_ps(run.l);
    for (int32_t d = 0; d < hd; d += 8)
        _mm256_storeu_ps(a->out + d, _mm256_div_ps(_mm256_loadu_ps(run.acc + d), l));
}

krn_cpu_attn_fn krn_cpu_attn_head_for(int isa, int32_t head_dim) {
    if (isa >= KRN_CPU_ISA_AVX2 && head_dim % 32 == 0)
        return krn__attn_head_avx2;
    return krn_cpu_attn_head;
}

#else

krn_cpu_attn_fn krn_cpu_attn_head_for(int isa, int32_t head_dim) {
    (void)isa;
    (void)head_dim;
    return krn_cpu_attn_head;
}

#endif
