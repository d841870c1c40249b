/*
 * qdot_avx2.c — private to kernels/cpu/: fused AVX2 kernels of the
 * canonical quantized dot (kernels.h §2) for Q4_0, Q5_0, Q8_0, Q4_K, Q5_K
 * and Q6_K, reading the file's blocks directly (no krn_unpack_row pass).
 *
 * Each kernel takes one weight row and n_rows activation rows and reads
 * every weight block once for all of them: it decodes the block into
 * registers (codes as bytes, integer multipliers, d and dmin), then runs
 * each activation row against it. A verify or prefill step of 64 rows
 * thus streams the weights once, like a 1-row step.
 *
 * Exactness (docs/determinism.md, "Canonical arithmetic"):
 * - The integers I, A, B are exact whatever the instruction order. Products
 *   are formed with vpmaddubsw (unsigned byte × signed byte, pairs summed
 *   into int16) and vpmaddwd (int16 pairs × int16 multiplier into int32).
 *   vpmaddubsw saturates, so every pair sum is bounded below 2^15: codes
 *   with a sign (Q4_0, Q5_0, Q8_0, Q6_K) go in as |w| with the sign moved
 *   onto x (vpsignb), so a pair is at most 2·128·127 = 32512; the unsigned
 *   K-quant codes (0..31) give at most 2·31·127 = 7874. The int32 sums stay
 *   below 2^29 (canon.c's bound).
 * - The float work is the canonical expression, one IEEE operation each,
 *   in the canonical order: (float)I converts exactly as cvtsi2ss /
 *   vcvtdq2ps do (round to nearest), the products and sums are single
 *   vmulps/vaddps or their scalar forms (the build has -ffp-contract=off and
 *   these functions do not enable FMA), and every chunk partial adds its
 *   group values in group order, then the dot adds the partials in chunk
 *   order, per activation row.
 * tests/kernels/test_qdot.c checks every kernel against krn_unpack_row +
 * krn_dot_q bit for bit on random blocks.
 */
#include "qdot.h"

#include "../quant_layout.h"

#if KRN_CPU_HAVE_X86

#include <immintrin.h>

#define KRN__AVX2 __attribute__((target("avx2")))

/* ---- shared pieces --------------------------------------------------------- */

KRN__AVX2 static inline __m256i krn__ld(const void *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}

/* The 32 codes of x as bytes. */
KRN__AVX2 static inline __m256i krn__xq(const krn_act_block *x) {
    return krn__ld(x->q);
}

KRN__AVX2 static inline int32_t krn__hsum(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v),
                              _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* Lane k of the result is the sum of the 8 int32 lanes of a[k]: two rounds
 * of pairwise adds within 128-bit halves, then the halves added. */
KRN__AVX2 static inline __m256i krn__sum8(const __m256i a[8]) {
    const __m256i s0 = _mm256_hadd_epi32(_mm256_hadd_epi32(a[0], a[1]),
                                         _mm256_hadd_epi32(a[2], a[3]));
    const __m256i s1 = _mm256_hadd_epi32(_mm256_hadd_epi32(a[4], a[5]),
                                         _mm256_hadd_epi32(a[6], a[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(s0, s1, 0x20),
                            _mm256_permute2x128_si256(s0, s1, 0x31));
}

/* 8 int32 partial sums of Σ w·x over 32 bytes, for codes given as |w| and
 * w (the sign moves onto x; vpsignb gives 0 where w is 0). */
KRN__AVX2 static inline __m256i krn__dot_signed(__m256i aw, __m256i w, __m256i x) {
    const __m256i p = _mm256_maddubs_epi16(aw, _mm256_sign_epi8(x, w));
    return _mm256_madd_epi16(p, _mm256_set1_epi16(1));
}

/* 32 bytes of 4-bit codes: the low nibbles of 16 bytes, then the high. */
KRN__AVX2 static inline __m256i krn__nibbles16(const uint8_t *qs) {
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)qs);
    const __m128i m = _mm_set1_epi8(0x0F);
    const __m128i lo = _mm_and_si128(b, m);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), m);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Byte i = 0x10 when bit i of the little-endian u32 at qh is set, else 0
 * (Q5_0's fifth bit): byte i picks byte i/8 of the word, keeps bit i%8,
 * and a compare turns a kept bit into 0xFF. */
KRN__AVX2 static inline __m256i krn__bits32(const uint8_t *qh) {
    const __m256i v = _mm256_set1_epi32((int32_t)krn__rd32(qh));
    const __m256i pick = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((int64_t)0x8040201008040201ull);
    const __m256i b = _mm256_and_si256(_mm256_shuffle_epi8(v, pick), bit);
    return _mm256_and_si256(_mm256_cmpeq_epi8(b, bit), _mm256_set1_epi8(0x10));
}

/* ---- legacy types: 8 blocks at a time -------------------------------------- */

/* Up to 8 decoded 32-element blocks (one group each, G = 32). */
typedef struct krn__leg8 {
    __m256i aw[8];    /* |w| */
    __m256i w[8];     /* signed codes w = c - off */
    float d[8];       /* the blocks' d */
} krn__leg8;

KRN__AVX2 static inline void krn__leg_set(krn__leg8 *s, int k, __m256i w) {
    s->w[k] = w;
    s->aw[k] = _mm256_abs_epi8(w);
}

KRN__AVX2 static void krn__dec_q4_0(const uint8_t *b, krn__leg8 *s, int k) {
    s->d[k] = krn__half_to_float(krn__rd16(b));
    const __m256i c = krn__nibbles16(b + KRN__Q4_0_QS);
    krn__leg_set(s, k, _mm256_sub_epi8(c, _mm256_set1_epi8(8)));
}

KRN__AVX2 static void krn__dec_q5_0(const uint8_t *b, krn__leg8 *s, int k) {
    s->d[k] = krn__half_to_float(krn__rd16(b));
    const __m256i c = _mm256_or_si256(krn__nibbles16(b + KRN__Q5_0_QS),
                                      krn__bits32(b + KRN__Q5_0_QH));
    krn__leg_set(s, k, _mm256_sub_epi8(c, _mm256_set1_epi8(16)));
}

KRN__AVX2 static void krn__dec_q8_0(const uint8_t *b, krn__leg8 *s, int k) {
    s->d[k] = krn__half_to_float(krn__rd16(b));
    krn__leg_set(s, k, krn__ld(b + KRN__Q8_0_QS));
}

/* The group values v_k = dx_k · (0 + d_k · (float)I_k) of blocks 0..n-1
 * of s against x[0..n-1], in v[0..n-1]. */
KRN__AVX2 static inline void krn__leg_values(const krn__leg8 *s, int n,
                                             const krn_act_block *x, float v[8]) {
    __m256i acc[8];
    float dx[8] = {0};
    for (int k = 0; k < 8; k++) {
        if (k < n) {
            acc[k] = krn__dot_signed(s->aw[k], s->w[k], krn__xq(&x[k]));
            dx[k] = x[k].d;
        } else {
            acc[k] = _mm256_setzero_si256();
        }
    }
    const __m256 fi = _mm256_cvtepi32_ps(krn__sum8(acc));
    const __m256 u = _mm256_mul_ps(_mm256_loadu_ps(s->d), fi);
    const __m256 w = _mm256_add_ps(_mm256_setzero_ps(), u);
    _mm256_storeu_ps(v, _mm256_mul_ps(_mm256_loadu_ps(dx), w));
}

typedef void (*krn__leg_dec)(const uint8_t *b, krn__leg8 *s, int k);

/* The row loop of a legacy type: blocks in batches of 8; per activation
 * row the group values are added in block order into the chunk partial,
 * which is added to the dot where its chunk ends. always_inline so that
 * each type's copy calls its decoder directly. */
KRN__AVX2 static inline __attribute__((always_inline)) void
krn__leg_rows(krn__leg_dec dec, int64_t bytes, const uint8_t *w,
              const krn_act_block *x, int64_t xs, int nr, int64_t nb,
              float *dots) {
    const int64_t len = krn_chunk_len(nb);
    float part[KRN_MAX_ROWS];
    krn__leg8 s;
    for (int k = 0; k < 8; k++) s.d[k] = 0.0f; /* lanes past a short batch */
    for (int r = 0; r < nr; r++) dots[r] = part[r] = 0.0f;
    for (int64_t b0 = 0; b0 < nb; b0 += 8) {
        const int n = nb - b0 < 8 ? (int)(nb - b0) : 8;
        unsigned ends = 0; /* bit k: block b0+k is the last of its chunk */
        for (int k = 0; k < n; k++) {
            dec(w + (b0 + k) * bytes, &s, k);
            const int64_t b = b0 + k + 1;
            if (b % len == 0 || b == nb) ends |= 1u << k;
        }
        for (int r = 0; r < nr; r++) {
            float v[8];
            krn__leg_values(&s, n, x + r * xs + b0, v);
            float p = part[r], dot = dots[r];
            for (int k = 0; k < n; k++) {
                p = p + v[k];
                if (ends & (1u << k)) {
                    dot = dot + p;
                    p = 0.0f;
                }
            }
            part[r] = p;
            dots[r] = dot;
        }
    }
}

KRN__AVX2 static void krn__rows_q4_0(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__leg_rows(krn__dec_q4_0, 18, w, x, xs, nr, nb, dots);
}

KRN__AVX2 static void krn__rows_q5_0(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__leg_rows(krn__dec_q5_0, 22, w, x, xs, nr, nb, dots);
}

KRN__AVX2 static void krn__rows_q8_0(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__leg_rows(krn__dec_q8_0, 34, w, x, xs, nr, nb, dots);
}

/* ---- K-quants: one super-block (one group, G = 256) at a time ------------- */

typedef struct krn__ksb {
    __m256i q[8];     /* per 32-block: unsigned codes (Q4_K, Q5_K) or |w| (Q6_K) */
    __m256i w[8];     /* Q6_K: the signed codes w = c - 32 */
    __m256i sc[8];    /* int16 multiplier of each element pair */
    int32_t mn[8];    /* Q4_K/Q5_K: the 6-bit mins m_j */
    float d, dmin;
} krn__ksb;

/* Q4_K/Q5_K scales and mins: sub-block j's sc_j multiplies all its pairs. */
KRN__AVX2 static void krn__dec_k_scales(const uint8_t *b, krn__ksb *s) {
    s->d = krn__half_to_float(krn__rd16(b));
    s->dmin = krn__half_to_float(krn__rd16(b + KRN__QK_DMIN));
    for (int j = 0; j < 8; j++) {
        uint8_t sc, mn;
        krn__k_scale_min(b + KRN__QK_SCALES, j, &sc, &mn);
        s->sc[j] = _mm256_set1_epi16(sc);
        s->mn[j] = mn;
    }
}

/* Blocks 2p and 2p+1 are the low and high nibbles of qs[32p .. 32p+31]. */
KRN__AVX2 static void krn__dec_q4_k(const uint8_t *b, krn__ksb *s) {
    krn__dec_k_scales(b, s);
    const __m256i m = _mm256_set1_epi8(0x0F);
    for (int p = 0; p < 4; p++) {
        const __m256i q = krn__ld(b + KRN__Q4_K_QS + 32 * p);
        s->q[2 * p] = _mm256_and_si256(q, m);
        s->q[2 * p + 1] = _mm256_and_si256(_mm256_srli_epi16(q, 4), m);
    }
}

/* As Q4_K, plus 16 where bit j of qh[l] is set (element l of block j). */
KRN__AVX2 static void krn__dec_q5_k(const uint8_t *b, krn__ksb *s) {
    krn__dec_k_scales(b, s);
    const __m256i m = _mm256_set1_epi8(0x0F), h16 = _mm256_set1_epi8(0x10);
    const __m256i qh = krn__ld(b + KRN__Q5_K_QH);
    for (int p = 0; p < 4; p++) {
        const __m256i q = krn__ld(b + KRN__Q5_K_QS + 32 * p);
        s->q[2 * p] = _mm256_and_si256(q, m);
        s->q[2 * p + 1] = _mm256_and_si256(_mm256_srli_epi16(q, 4), m);
    }
    for (int j = 0; j < 8; j++) {
        const __m256i bit = _mm256_set1_epi8((char)(1 << j));
        const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(qh, bit), bit);
        s->q[j] = _mm256_or_si256(s->q[j], _mm256_and_si256(set, h16));
    }
}

/* Q6_K (layout in quant_layout.h): in half h, block 4h+k takes its low 4
 * bits from ql[64h + 32(k&1) + l] (low nibble for k < 2) and bits 2k..2k+1
 * of qh[32h + l] as bits 4..5. The top bits are moved into place with
 * 16-bit shifts and a mask that drops whatever crossed a byte. Multipliers:
 * sc[2j] for the pairs of elements 0..15 (the low 128 bits), sc[2j+1] for
 * 16..31. */
KRN__AVX2 static void krn__dec_q6_k(const uint8_t *b, krn__ksb *s) {
    const int8_t *sc = (const int8_t *)(b + KRN__Q6_K_SCALES);
    s->d = krn__half_to_float(krn__rd16(b + KRN__Q6_K_D));
    s->dmin = 0.0f;
    const __m256i m4 = _mm256_set1_epi8(0x0F), m2 = _mm256_set1_epi8(0x30);
    for (int h = 0; h < 2; h++) {
        const __m256i a = krn__ld(b + 64 * h), c = krn__ld(b + 64 * h + 32);
        const __m256i qh = krn__ld(b + KRN__Q6_K_QH + 32 * h);
        __m256i q[4];
        q[0] = _mm256_or_si256(_mm256_and_si256(a, m4),
                               _mm256_and_si256(_mm256_slli_epi16(qh, 4), m2));
        q[1] = _mm256_or_si256(_mm256_and_si256(c, m4),
                               _mm256_and_si256(_mm256_slli_epi16(qh, 2), m2));
        q[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(a, 4), m4),
                               _mm256_and_si256(qh, m2));
        q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(c, 4), m4),
                               _mm256_and_si256(_mm256_srli_epi16(qh, 2), m2));
        for (int k = 0; k < 4; k++) {
            const int j = 4 * h + k;
            s->w[j] = _mm256_sub_epi8(q[k], _mm256_set1_epi8(32));
            s->q[j] = _mm256_abs_epi8(s->w[j]);
            s->sc[j] = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_set1_epi16(sc[2 * j])),
                _mm_set1_epi16(sc[2 * j + 1]), 1);
        }
    }
}

/* v = dx · ((d · (float)A) − (dmin · (float)B)) for Q4_K/Q5_K. */
KRN__AVX2 static inline float krn__val_k45(const krn__ksb *s,
                                           const krn_act_block *x) {
    __m256i acc = _mm256_setzero_si256();
    int32_t bm = 0;
    for (int j = 0; j < 8; j++) {
        const __m256i p = _mm256_maddubs_epi16(s->q[j], krn__xq(&x[j]));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(p, s->sc[j]));
        bm += s->mn[j] * x[j].sum;
    }
    float t = s->d * (float)krn__hsum(acc);
    t = t - s->dmin * (float)bm;
    return x[0].d * t;
}

/* v = dx · (d · (float)A) for Q6_K. */
KRN__AVX2 static inline float krn__val_q6_k(const krn__ksb *s,
                                            const krn_act_block *x) {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < 8; j++) {
        const __m256i xs = _mm256_sign_epi8(krn__xq(&x[j]), s->w[j]);
        const __m256i p = _mm256_maddubs_epi16(s->q[j], xs);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(p, s->sc[j]));
    }
    return x[0].d * (s->d * (float)krn__hsum(acc));
}

typedef void (*krn__k_dec)(const uint8_t *b, krn__ksb *s);
typedef float (*krn__k_val)(const krn__ksb *s, const krn_act_block *x);

/* The row loop of a K-quant: super-block g is decoded once, then each
 * activation row adds its group value to its chunk partial. */
KRN__AVX2 static inline __attribute__((always_inline)) void
krn__k_rows(krn__k_dec dec, krn__k_val val, int64_t bytes, const uint8_t *w,
            const krn_act_block *x, int64_t xs, int nr, int64_t nb,
            float *dots) {
    const int64_t ng = nb / 8, len = krn_chunk_len(ng);
    float part[KRN_MAX_ROWS];
    krn__ksb s;
    for (int r = 0; r < nr; r++) dots[r] = 0.0f;
    for (int64_t c0 = 0; c0 < ng; c0 += len) {
        const int64_t c1 = c0 + len < ng ? c0 + len : ng;
        for (int r = 0; r < nr; r++) part[r] = 0.0f;
        for (int64_t g = c0; g < c1; g++) {
            dec(w + g * bytes, &s);
            for (int r = 0; r < nr; r++)
                part[r] = part[r] + val(&s, x + r * xs + g * 8);
        }
        for (int r = 0; r < nr; r++) dots[r] = dots[r] + part[r];
    }
}

KRN__AVX2 static void krn__rows_q4_k(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__k_rows(krn__dec_q4_k, krn__val_k45, 144, w, x, xs, nr, nb, dots);
}

KRN__AVX2 static void krn__rows_q5_k(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__k_rows(krn__dec_q5_k, krn__val_k45, 176, w, x, xs, nr, nb, dots);
}

KRN__AVX2 static void krn__rows_q6_k(const uint8_t *w, const krn_act_block *x,
                                     int64_t xs, int nr, int64_t nb, float *dots) {
    krn__k_rows(krn__dec_q6_k, krn__val_q6_k, 210, w, x, xs, nr, nb, dots);
}

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) {
    switch (type) {
    case KRN_Q4_0: return krn__rows_q4_0;
    case KRN_Q5_0: return krn__rows_q5_0;
    case KRN_Q8_0: return krn__rows_q8_0;
    case KRN_Q4_K: return krn__rows_q4_k;
    case KRN_Q5_K: return krn__rows_q5_k;
    case KRN_Q6_K: return krn__rows_q6_k;
    default: return NULL;
    }
}

#else /* not x86-64: no AVX2 kernels */

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) {
    (void)type;
    return NULL;
}

#endif
