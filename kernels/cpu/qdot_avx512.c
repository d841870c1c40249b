/*
 * qdot_avx512.c — private to kernels/cpu/: the fused quantized dot kernels
 * for x86-64 CPUs with AVX-512 VNNI (and VL, BW). A 1-row step runs
 * qdot_tile.h's 8-output kernels (built here with vpdpbusd: one
 * instruction for vpmaddubsw + vpmaddwd, without saturation, so Q8_0 needs
 * no sign moved; Q5_0's fifth bits by a byte mask) on each half of a
 * 16-output tile; steps of 2+ rows run the 16-output kernels below, on
 * 512-bit vectors. Only these functions use the instructions (a target
 * attribute), so the program still runs on CPUs without them.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T \
    __attribute__((target("avx2,f16c,avx512f,avx512vl,avx512bw,avx512vnni")))
#define KRN__VNNI 1
#define KRN__DPBUSD _mm256_dpbusd_epi32
#define KRN__MASK 1
#include "qdot_tile.h"

/* ---- 16-output tiles on 512-bit vectors, for steps of 2+ rows ----------
 *
 * A step of many rows (verify, prefill) is bound by the multiply rate, not
 * the weight stream: the 8-output tile above spends one 256-bit vpdpbusd
 * per 4 products of 8 outputs. Here the tile is 16 outputs and each
 * vpdpbusd a 512-bit one, so every broadcast activation word feeds twice
 * as many products. Lane i of every vector is output i; the canonical float
 * expression of each (output, row, group) and the chunk order are the 8-
 * output tile's, lane by lane, so the bits are the same (test_qdot). A
 * 1-row step stays on the 8-output kernel twice: it is bound by memory,
 * where wider vectors buy nothing. */

enum { KRN__WW = 16 }; /* outputs of a wide tile: the 512-bit float lanes */

/* Per activation row, the running chunk partials and dots of the tile's
 * 16 outputs. */
typedef struct krn__acc16 {
    __m512 part[KRN_MAX_ROWS];
    __m512 dot[KRN_MAX_ROWS];
} krn__acc16;

KRN__T static inline void krn__acc16_init(krn__acc16 *a, int nr) {
    for (int r = 0; r < nr; r++) a->part[r] = a->dot[r] = _mm512_setzero_ps();
}

/* part += v; at a chunk's end, dot += part and part restarts from 0. */
KRN__T static inline void krn__acc16_add(krn__acc16 *a, int r, __m512 v, bool end) {
    a->part[r] = _mm512_add_ps(a->part[r], v);
    if (end) {
        a->dot[r] = _mm512_add_ps(a->dot[r], a->part[r]);
        a->part[r] = _mm512_setzero_ps();
    }
}

KRN__T static inline void krn__acc16_store(const krn__acc16 *a, int nr, float *dots) {
    for (int r = 0; r < nr; r++) _mm512_storeu_ps(dots + r * KRN__WW, a->dot[r]);
}

/* tr[k] lane i = the 4 bytes 4k..4k+3 of output i's codes: lo holds
 * outputs 0..7, hi 8..15 (krn__transpose8 of each, side by side). */
KRN__T static inline void krn__transpose16(const __m256i lo[8], const __m256i hi[8],
                                           __m512i tr[8]) {
    __m256i a[8], b[8];
    krn__transpose8(lo, a);
    krn__transpose8(hi, b);
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++)
        tr[k] = _mm512_inserti64x4(_mm512_castsi256_si512(a[k]), b[k], 1);
}

/* The halves at row[i] + at, i < 16, as floats (exact). */
KRN__T static inline __m512 krn__halves16(const uint8_t *const row[16], int64_t at) {
    return _mm512_cvtph_ps(_mm256_set_m128i(krn__half_bits8(row + KRN__W, at),
                                            krn__half_bits8(row, at)));
}

/* Σ_k tr[k] · (x's word k broadcast): the 16 outputs' Σc·x over words
 * k0..k0+3 (lanes hold int32 sums, exact in any order). */
KRN__T static inline __m512i krn__dot16(const __m512i *tr, const int8_t *q) {
    __m512i v0 = _mm512_setzero_si512(), v1 = _mm512_setzero_si512();
    for (int k = 0; k < 4; k += 2) {
        int32_t a, b;
        memcpy(&a, q + 4 * k, sizeof a);
        memcpy(&b, q + 4 * k + 4, sizeof b);
        v0 = _mm512_dpbusd_epi32(v0, tr[k], _mm512_set1_epi32(a));
        v1 = _mm512_dpbusd_epi32(v1, tr[k + 1], _mm512_set1_epi32(b));
    }
    return _mm512_add_epi32(v0, v1);
}

/* Lines of the next wide tile each of n_steps steps prefetches. */
static inline uint64_t krn__prefetch16_per(uint64_t rb, int64_t n_steps) {
    return ((KRN__WW * rb + 63) / 64 + (uint64_t)n_steps - 1) / (uint64_t)n_steps;
}

/* krn__prefetch_next for a wide tile: the 16 rows after this tile's. */
KRN__T static inline __attribute__((always_inline)) void krn__prefetch16_next(
    const uint8_t *w, uint64_t rb, uint64_t k, uint64_t per) {
    krn__prefetch_next(w + (KRN__WW - KRN__W) * rb, rb, k, per);
}

/* Legacy types. lane i: v_i = dx · (0 + d_i · (float)I_i), as
 * krn__leg_finish. */
KRN__T static inline __m512 krn__leg_value16(const __m512i tr[8], __m512 d, int off,
                                             const krn_act_block *xb) {
    __m512i v = _mm512_add_epi32(krn__dot16(tr, xb->q), krn__dot16(tr + 4, xb->q + 16));
    /* off·s as s broadcast from memory and shifted (off is 8, 16 or
     * 128): a multiply in a general register and a move into a vector
     * cost more, once per row and block */
    if (off)
        v = _mm512_sub_epi32(v, _mm512_slli_epi32(_mm512_set1_epi32(xb->sum),
                                                  (unsigned)__builtin_ctz((unsigned)off)));
    const __m512 u = _mm512_mul_ps(d, _mm512_cvtepi32_ps(v));
    const __m512 s = _mm512_add_ps(_mm512_setzero_ps(), u);
    return _mm512_mul_ps(_mm512_set1_ps(xb->d), s);
}

/* The wide tile loop of a legacy type (unsigned codes: every legacy type
 * on VNNI). Outputs i >= n_out repeat the last one. */
KRN__T static inline __attribute__((always_inline)) void
krn__leg_wide(krn__leg_dec dec, krn__ltype ty, const uint8_t *w, uint64_t rb,
              int n_out, const krn_act_block *x, int64_t xs, int nr, int64_t nb,
              float *dots) {
    const int64_t len = krn_chunk_len(nb);
    const uint8_t *row[KRN__WW];
    for (int i = 0; i < KRN__WW; i++)
        row[i] = w + (uint64_t)(i < n_out ? i : n_out - 1) * rb;
    const uint64_t pf = krn__prefetch16_per(rb, nb);
    krn__acc16 a;
    krn__ltile lo, hi;
    krn__acc16_init(&a, nr);
    int64_t left = len; /* blocks left in this chunk */
    for (int64_t b = 0; b < nb; b++) {
        const int64_t at = b * ty.bytes;
        krn__prefetch16_next(w, rb, (uint64_t)b, pf);
        const bool end = --left == 0 || b + 1 == nb;
        if (left == 0) left = len;
        for (int i = 0; i < KRN__W; i++) {
            dec(row[i] + at, &lo, i);
            dec(row[KRN__W + i] + at, &hi, i);
        }
        __m512i tr[8];
        krn__transpose16(lo.c, hi.c, tr);
        const __m512 d = krn__halves16(row, at);
        int r = 0;
        for (; r + 4 <= nr; r += 4) { /* four rows' chains side by side */
            const __m512 v0 = krn__leg_value16(tr, d, ty.off, x + r * xs + b);
            const __m512 v1 = krn__leg_value16(tr, d, ty.off, x + (r + 1) * xs + b);
            const __m512 v2 = krn__leg_value16(tr, d, ty.off, x + (r + 2) * xs + b);
            const __m512 v3 = krn__leg_value16(tr, d, ty.off, x + (r + 3) * xs + b);
            krn__acc16_add(&a, r, v0, end);
            krn__acc16_add(&a, r + 1, v1, end);
            krn__acc16_add(&a, r + 2, v2, end);
            krn__acc16_add(&a, r + 3, v3, end);
        }
        for (; r < nr; r++)
            krn__acc16_add(&a, r, krn__leg_value16(tr, d, ty.off, x + r * xs + b), end);
    }
    krn__acc16_store(&a, nr, dots);
}

/* Super-block g of the wide tile's 16 rows, decoded: each row's codes,
 * and the per-row numbers gathered lane by lane (lane i: row i). The
 * gathering writes every lane array before any is read as a vector, so
 * the reads wait for the scalar stores at most once, not once each. */
typedef struct krn__kwide {
    krn__ksb row[KRN__WW];
    int32_t sc[8][KRN__WW];      /* Q4_K/Q5_K: sc_j */
    int32_t sc6[16][KRN__WW];    /* Q6_K: the scale of half h of block j at [2j + h] */
    int32_t mn[4][KRN__WW];      /* int16 pair (m_2k, m_2k+1) for B */
    uint16_t d[KRN__WW], dmin[KRN__WW];
} krn__kwide;

KRN__T static inline void krn__kwide_gather(krn__kwide *t, bool q6) {
    for (int i = 0; i < KRN__WW; i++) {
        const krn__ksb *s = &t->row[i];
        t->d[i] = s->d;
        t->dmin[i] = s->dmin;
        if (q6) {
            for (int j = 0; j < 16; j++) t->sc6[j][i] = s->sc6[j];
            continue;
        }
        for (int j = 0; j < 8; j++) t->sc[j][i] = s->scb[j];
        for (int k = 0; k < 4; k++) t->mn[k][i] = s->mn[2 * k] | (s->mn[2 * k + 1] << 16);
    }
}

KRN__T static inline __m512i krn__lanes(const int32_t v[KRN__WW]) {
    return _mm512_loadu_si512((const void *)v);
}

KRN__T static inline __m512 krn__half_lanes(const uint16_t v[KRN__WW]) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)v));
}

/* Codes of sub-block j of the 16 rows, transposed; Q6_K's as c = w + 32. */
KRN__T static inline void krn__kwide_tr(const krn__kwide *t, int j, bool q6, __m512i tr[8]) {
    __m256i lo[KRN__W], hi[KRN__W];
#pragma GCC unroll 8
    for (int i = 0; i < KRN__W; i++) {
        const krn__ksb *a = &t->row[i], *b = &t->row[KRN__W + i];
        lo[i] = q6 ? _mm256_add_epi8(a->w[j], _mm256_set1_epi8(32)) : a->q[j];
        hi[i] = q6 ? _mm256_add_epi8(b->w[j], _mm256_set1_epi8(32)) : b->q[j];
    }
    krn__transpose16(lo, hi, tr);
}

/* Adds p to A (or starts A with it, for sub-block 0). */
KRN__T static inline void krn__a_add(__m512i *a, int j, __m512i p) {
    *a = j ? _mm512_add_epi32(*a, p) : p;
}

/* A of the 16 rows against every activation row's group g (lane i: row
 * i), sub-block by sub-block, so that a sub-block's transposed codes stay
 * in registers while every row uses them. Q6_K: Σ (c − 32)·x of each
 * 16-element half is Σ c·x − 32·Σ x (krn__sum16 gives the first half's
 * Σ x, the block's s less it the second's). All exact integers. */
KRN__T static inline void krn__kwide_a(const krn__kwide *t, bool q6, const krn_act_block *x,
                                       int64_t xs, int nr, int64_t g, __m512i *a) {
    for (int j = 0; j < 8; j++) {
        __m512i tr[8];
        krn__kwide_tr(t, j, q6, tr);
        if (q6) {
            const __m512i lo = krn__lanes(t->sc6[2 * j]), hi = krn__lanes(t->sc6[2 * j + 1]);
            for (int r = 0; r < nr; r++) {
                const krn_act_block *xb = x + r * xs + g * 8 + j;
                const int32_t s_lo = krn__sum16(xb->q), s_hi = xb->sum - s_lo;
                const __m512i i_lo = _mm512_sub_epi32(krn__dot16(tr, xb->q),
                                                      _mm512_set1_epi32(32 * s_lo));
                const __m512i i_hi = _mm512_sub_epi32(krn__dot16(tr + 4, xb->q + 16),
                                                      _mm512_set1_epi32(32 * s_hi));
                krn__a_add(&a[r], j, _mm512_add_epi32(_mm512_mullo_epi32(i_lo, lo),
                                                      _mm512_mullo_epi32(i_hi, hi)));
            }
        } else {
            const __m512i sc = krn__lanes(t->sc[j]);
            for (int r = 0; r < nr; r++) {
                const int8_t *q = x[r * xs + g * 8 + j].q;
                const __m512i v = _mm512_add_epi32(krn__dot16(tr, q), krn__dot16(tr + 4, q + 16));
                krn__a_add(&a[r], j, _mm512_mullo_epi32(v, sc));
            }
        }
    }
}

/* Q4_K/Q5_K: v = dx · ((d · (float)A) − (dmin · (float)B)), as
 * krn__val_k45; B = Σ_j m_j·s_j from the code sums as int16 pairs. */
KRN__T static inline __m512 krn__kwide_val45(const krn__kwide *t, __m512i a,
                                             const krn_act_block *x) {
    __m512i b = _mm512_setzero_si512();
    for (int k = 0; k < 4; k++) {
        const int32_t pair = (int32_t)(uint16_t)(int16_t)x[2 * k].sum |
                             (int32_t)((uint32_t)(uint16_t)(int16_t)x[2 * k + 1].sum << 16);
        b = _mm512_add_epi32(b, _mm512_madd_epi16(krn__lanes(t->mn[k]),
                                                   _mm512_set1_epi32(pair)));
    }
    __m512 v = _mm512_mul_ps(krn__half_lanes(t->d), _mm512_cvtepi32_ps(a));
    v = _mm512_sub_ps(v, _mm512_mul_ps(krn__half_lanes(t->dmin), _mm512_cvtepi32_ps(b)));
    return _mm512_mul_ps(_mm512_set1_ps(x[0].d), v);
}

/* Q6_K: v = dx · (d · (float)A), as krn__val_q6_k. */
KRN__T static inline __m512 krn__kwide_val6(const krn__kwide *t, __m512i a,
                                            const krn_act_block *x) {
    const __m512 v = _mm512_mul_ps(krn__half_lanes(t->d), _mm512_cvtepi32_ps(a));
    return _mm512_mul_ps(_mm512_set1_ps(x[0].d), v);
}

/* The wide tile loop of a K-quant: super-block g of the 16 rows is decoded
 * once, then every activation row adds its group values to its chunk
 * partials. */
KRN__T static inline __attribute__((always_inline)) void
krn__k_wide(krn__k_dec dec, bool q6, int64_t bytes, const uint8_t *w, uint64_t rb,
            int n_out, const krn_act_block *x, int64_t xs, int nr, int64_t nb,
            float *dots) {
    const int64_t ng = nb / 8, len = krn_chunk_len(ng);
    const uint64_t pf = krn__prefetch16_per(rb, ng);
    krn__acc16 acc;
    krn__kwide t;
    __m512i a[KRN_MAX_ROWS];
    krn__acc16_init(&acc, nr);
    int64_t left = len; /* groups left in this chunk */
    for (int64_t g = 0; g < ng; g++) {
        krn__prefetch16_next(w, rb, (uint64_t)g, pf);
        for (int i = 0; i < KRN__WW; i++)
            dec(w + (uint64_t)(i < n_out ? i : n_out - 1) * rb + g * bytes, &t.row[i]);
        krn__kwide_gather(&t, q6);
        const bool end = --left == 0 || g + 1 == ng;
        if (left == 0) left = len;
        krn__kwide_a(&t, q6, x, xs, nr, g, a);
        for (int r = 0; r < nr; r++) {
            const krn_act_block *xg = x + r * xs + g * 8;
            krn__acc16_add(&acc, r, q6 ? krn__kwide_val6(&t, a[r], xg)
                                       : krn__kwide_val45(&t, a[r], xg), end);
        }
    }
    krn__acc16_store(&acc, nr, dots);
}

/* A 1-row step: the 8-output kernel for outputs 0..7, then 8..15. */
KRN__T static inline __attribute__((always_inline)) void
krn__narrow_pair(krn_cpu_qdot_fn narrow, const uint8_t *w, uint64_t rb, int n_out,
                 const krn_act_block *x, int64_t xs, int64_t nb, float *dots) {
    narrow(w, rb, n_out < KRN__W ? n_out : KRN__W, x, xs, 1, nb, dots);
    if (n_out > KRN__W)
        narrow(w + KRN__W * rb, rb, n_out - KRN__W, x, xs, 1, nb, dots + KRN__W);
}

#define KRN__WIDE_KERNEL(name, narrow, wide_loop)                               \
    KRN__T static void name(const uint8_t *w, uint64_t rb, int n_out,          \
                            const krn_act_block *x, int64_t xs, int nr,        \
                            int64_t nb, float *dots) {                         \
        if (nr == 1)                                                           \
            krn__narrow_pair(narrow, w, rb, n_out, x, xs, nb, dots);           \
        else                                                                   \
            wide_loop;                                                         \
    }

KRN__WIDE_KERNEL(krn__wide_q4_0, krn__tile_q4_0,
                 krn__leg_wide(krn__dec_q4_0, ((krn__ltype){18, 8, false}), w, rb, n_out,
                               x, xs, nr, nb, dots))
KRN__WIDE_KERNEL(krn__wide_q5_0, krn__tile_q5_0,
                 krn__leg_wide(krn__dec_q5_0, ((krn__ltype){22, 16, false}), w, rb, n_out,
                               x, xs, nr, nb, dots))
KRN__WIDE_KERNEL(krn__wide_q8_0, krn__tile_q8_0,
                 krn__leg_wide(krn__dec_q8_0, KRN__Q8_0_T, w, rb, n_out, x, xs, nr, nb, dots))
KRN__WIDE_KERNEL(krn__wide_q4_k, krn__tile_q4_k,
                 krn__k_wide(krn__dec_q4_k, false, 144, w, rb, n_out, x, xs, nr, nb, dots))
KRN__WIDE_KERNEL(krn__wide_q5_k, krn__tile_q5_k,
                 krn__k_wide(krn__dec_q5_k, false, 176, w, rb, n_out, x, xs, nr, nb, dots))
KRN__WIDE_KERNEL(krn__wide_q6_k, krn__tile_q6_k,
                 krn__k_wide(krn__dec_q6_k, true, 210, w, rb, n_out, x, xs, nr, nb, dots))

/* The kernel of type, or NULL. */
static krn_cpu_qdot_fn krn__wide_for(krn_type type) {
    switch (type) {
    case KRN_Q4_0: return krn__wide_q4_0;
    case KRN_Q5_0: return krn__wide_q5_0;
    case KRN_Q8_0: return krn__wide_q8_0;
    case KRN_Q4_K: return krn__wide_q4_k;
    case KRN_Q5_K: return krn__wide_q5_k;
    case KRN_Q6_K: return krn__wide_q6_k;
    default: return NULL;
    }
}

krn_cpu_qdot_fn krn_cpu_qdot_avx512(krn_type type) { return krn__wide_for(type); }

#else

krn_cpu_qdot_fn krn_cpu_qdot_avx512(krn_type type) {
    (void)type;
    return NULL;
}

#endif
