/*
 * attention_simd.h — private to kernels/cpu/: attention.c's contract (one
 * query head against the fp16 KV cache, in chunks of 64 positions) on x86
 * vectors, written once and compiled once per instruction set by
 * attention_avx2.c and attention_avx512.c. Each defines KRN__T (the target
 * attribute) and KRN__ZMM (1: the products and the weighted values on
 * 512-bit vectors; 0: 256-bit only), includes exp_avx2.h, then this file;
 * nothing else includes it. Head dims must be a multiple of 32.
 *
 * How each step keeps attention.c's float sequence (the same bits):
 * - Scores. The lane sum's 32 lanes are four 8-float vectors (two 16-float
 *   ones on 512 bits): segment s of 32 products (each q_d · k_d rounded) is
 *   added lane by lane from 0.0f, segment after segment. The folds 16 and 8
 *   are vector adds of the halves that the scalar fold pairs (lane l with
 *   l + 16, then l with l + 8), leaving 8 lanes per position. The folds 4,
 *   2 and 1 are done for 8 positions together (krn__fold_last3): shuffles
 *   move lane l and lane l + off of the same position into the same slot of
 *   two vectors, one add then makes that sum for several positions at once,
 *   so every position's pairs are exactly the scalar fold's (a + b == b + a
 *   bitwise, only which lanes meet matters), ending with 8 scores in one
 *   vector, multiplied by scale. Keys are widened by vcvtph2ps, exact as
 *   krn_fp16_to_fp32. Positions go 8 at a time; a chunk's last group is
 *   padded with copies of its last position, whose scores are dropped.
 * - Chunk maximum. attention.c keeps the first of the largest scores (an
 *   equal later one does not replace it; a NaN is skipped, or kept when
 *   first). Without NaNs that is the largest value, and a non-zero value
 *   has one bit pattern, so the vector maximum gives the same bits; when a
 *   NaN is present or the maximum is zero (+0 and −0 compare equal, the
 *   first one wins), the scalar loop runs instead.
 * - p_t = krn_exp(score_t − m) 8 at a time (exp_avx2.h, the same bits);
 *   l = l + p_t one position after another, in order.
 * - acc[d] = acc[d] + p_t · v_t[d]: each dimension's sum runs over the
 *   positions in order, one vector lane per dimension; the accumulators of
 *   a block of dimensions stay in registers across the chunk (8 vectors:
 *   64 dims on 256 bits, 128 on 512; then what is left in 64 and 32), the
 *   values widened by vcvtph2ps. l's chain of adds runs in the same loop.
 * - The merge (L·a + l_b·b, ACC·a + acc_b·b, exp of the same differences)
 *   and out[d] = ACC[d] / L, lane by lane.
 * - A group of query heads sharing one KV head (krn__attn_group, for
 *   grouped-query attention) runs each chunk's scores, maxima and p_t head
 *   by head as above, then the weighted values of up to 4 heads (2 on 256
 *   bits) at once: each value row's block of dimensions is widened once
 *   and multiplied into every head's own accumulators, each head's sums
 *   in position order; then each head's merge. Every head gets the bits
 *   it would alone.
 * The build has -ffp-contract=off and the targets do not enable FMA, so no
 * multiply and add are fused. tests/kernels/test_qdot.c compares every
 * version with attention.c bit for bit.
 */

#include <immintrin.h>
#include <math.h>
#include <stdbool.h>

#include "cpu.h"

/* attention_avx512.c's copies for head_dim (a multiple of 32), for
 * krn_cpu_attn_head_for and krn_cpu_attn_group_for in attention_avx2.c. */
krn_cpu_attn_fn krn_cpu__attn_head_avx512(int32_t head_dim);
krn_cpu_attn_group_fn krn_cpu__attn_group_avx512(int32_t head_dim);

/* Positions whose scores are folded together: the lanes of one vector. */
enum { KRN__GROUP = 8 };

KRN__T static inline __m256 krn__load_half8(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}

#if KRN__ZMM
KRN__T static inline __m512 krn__load_half16(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
#endif

/* Half-offsets (slot · kv_stride) of the chunk's positions t0..t1-1, in
 * order, then copies of the last up to a whole number of groups; returns
 * that padded count. Slots run on contiguously until the ring wraps to 0:
 * one division per chunk. */
static inline int32_t krn__offsets(const krn_cpu_attn *a, int32_t t0, int32_t t1,
                                   int64_t *off) {
    const int32_t n = t1 - t0, padded = (n + KRN__GROUP - 1) / KRN__GROUP * KRN__GROUP;
    int32_t slot = t0 % a->n_slots;
    for (int32_t j = 0; j < n; slot = 0) {
        const int32_t run = n - j < a->n_slots - slot ? n - j : a->n_slots - slot;
        for (int32_t i = 0; i < run; i++) off[j + i] = (int64_t)(slot + i) * a->kv_stride;
        j += run;
    }
    for (int32_t j = n; j < padded; j++) off[j] = off[n - 1];
    return padded;
}

/* ---- scores ------------------------------------------------------------------ */

/* One position's 32 lanes of q·k, after the folds 16 and 8: lane i of the
 * result is (L[i] + L[i+16]) + (L[i+8] + L[i+24]). */
KRN__T static inline __attribute__((always_inline)) __m256
krn__lanes8(const float *q, const uint16_t *k, int32_t hd) {
#if KRN__ZMM
    __m512 lo = _mm512_setzero_ps(), hi = _mm512_setzero_ps(); /* L[0..16), L[16..32) */
    for (int32_t s = 0; s < hd; s += 32) {
        lo = _mm512_add_ps(lo, _mm512_mul_ps(_mm512_loadu_ps(q + s), krn__load_half16(k + s)));
        hi = _mm512_add_ps(hi, _mm512_mul_ps(_mm512_loadu_ps(q + s + 16),
                                             krn__load_half16(k + s + 16)));
    }
    const __m512 f = _mm512_add_ps(lo, hi); /* off 16 */
    return _mm256_add_ps(_mm512_castps512_ps256(f), /* off 8 */
                         _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1)));
#else
    __m256 l[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                   _mm256_setzero_ps()};
    for (int32_t s = 0; s < hd; s += 32)
#pragma GCC unroll 4
        for (int v = 0; v < 4; v++)
            l[v] = _mm256_add_ps(l[v], _mm256_mul_ps(_mm256_loadu_ps(q + s + 8 * v),
                                                     krn__load_half8(k + s + 8 * v)));
    return _mm256_add_ps(_mm256_add_ps(l[0], l[2]),  /* off 16 */
                         _mm256_add_ps(l[1], l[3])); /* off 8 */
#endif
}

/* The folds 4, 2 and 1 of 8 positions: x[j] holds position j's lanes 0..7;
 * lane j of the result is ((x0+x4) + (x2+x6)) + ((x1+x5) + (x3+x7)) of
 * x[j], the scalar fold's pairs. */
KRN__T static inline __m256 krn__fold_last3(const __m256 x[8]) {
    /* off 4: lanes 0..3 meet lanes 4..7. yj holds positions j (low half)
     * and j + 4 (high half), lanes b0..b3 each. */
#define KRN__OFF4(j)                                                  \
    _mm256_add_ps(_mm256_permute2f128_ps(x[j], x[j + 4], 0x20),       \
                  _mm256_permute2f128_ps(x[j], x[j + 4], 0x31))
    const __m256 y0 = KRN__OFF4(0), y1 = KRN__OFF4(1), y2 = KRN__OFF4(2),
                 y3 = KRN__OFF4(3);
#undef KRN__OFF4
    /* off 2: b0, b1 meet b2, b3. z0 = [c(0), c(1) | c(4), c(5)], z1 likewise
     * for positions 2, 3 | 6, 7; c(j) being the two lanes c0, c1. */
    const __m256 z0 = _mm256_add_ps(_mm256_shuffle_ps(y0, y1, 0x44),  /* b0 b1 */
                                    _mm256_shuffle_ps(y0, y1, 0xEE)); /* b2 b3 */
    const __m256 z1 = _mm256_add_ps(_mm256_shuffle_ps(y2, y3, 0x44),
                                    _mm256_shuffle_ps(y2, y3, 0xEE));
    /* off 1: c0 meets c1, giving positions 0, 1, 2, 3 | 4, 5, 6, 7. */
    return _mm256_add_ps(_mm256_shuffle_ps(z0, z1, 0x88),  /* c0 */
                         _mm256_shuffle_ps(z0, z1, 0xDD)); /* c1 */
}

/* score[0..padded) for the positions at k + off[j]: lane sum · scale. */
KRN__T static inline __attribute__((always_inline)) void
krn__scores(const float *q, const uint16_t *k, const int64_t *off, int32_t padded,
            int32_t hd, float scale, float *score) {
    const __m256 vs = _mm256_set1_ps(scale);
    for (int32_t g = 0; g < padded; g += KRN__GROUP) {
        __m256 x[KRN__GROUP];
#pragma GCC unroll 8
        for (int j = 0; j < KRN__GROUP; j++) x[j] = krn__lanes8(q, k + off[g + j], hd);
        _mm256_storeu_ps(score + g, _mm256_mul_ps(krn__fold_last3(x), vs));
    }
}

/* ---- maximum, p_t and l -------------------------------------------------------- */

/* attention.c's chunk maximum of score[0..n): score[0], replaced by each
 * later score strictly greater. score[n..padded) repeat score[n-1]. */
KRN__T static float krn__chunk_max(const float *score, int32_t n, int32_t padded) {
    __m256 mx = _mm256_loadu_ps(score), nan = _mm256_setzero_ps();
    for (int32_t g = 0; g < padded; g += KRN__GROUP) {
        const __m256 s = _mm256_loadu_ps(score + g);
        mx = _mm256_max_ps(mx, s);
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(s, s, _CMP_UNORD_Q));
    }
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(mx), _mm256_extractf128_ps(mx, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    h = _mm_max_ss(h, _mm_shuffle_ps(h, h, 1));
    const float m = _mm_cvtss_f32(h);
    if (!_mm256_movemask_ps(nan) && m != 0.0f) return m;
    float first = score[0]; /* the rule itself: which NaN or which zero */
    for (int32_t j = 1; j < n; j++)
        if (score[j] > first) first = score[j];
    return first;
}

/* score[j] = krn_exp(score[j] − m) for the padded groups. */
KRN__T static void krn__exp_all(float *score, int32_t padded, float m) {
    const __m256 vm = _mm256_set1_ps(m);
    for (int32_t g = 0; g < padded; g += KRN__GROUP)
        _mm256_storeu_ps(score + g, krn__exp8(_mm256_sub_ps(_mm256_loadu_ps(score + g), vm)));
}

/* ---- weighted values ------------------------------------------------------------ */

#if KRN__ZMM
enum { KRN__VW = 16 }; /* floats per accumulator vector */
typedef __m512 krn__vec;
#define krn__vzero _mm512_setzero_ps
#define krn__vadd _mm512_add_ps
#define krn__vmul _mm512_mul_ps
#define krn__vset1 _mm512_set1_ps
#define krn__vstore _mm512_storeu_ps
#define krn__vhalf krn__load_half16
#else
enum { KRN__VW = 8 };
typedef __m256 krn__vec;
#define krn__vzero _mm256_setzero_ps
#define krn__vadd _mm256_add_ps
#define krn__vmul _mm256_mul_ps
#define krn__vset1 _mm256_set1_ps
#define krn__vstore _mm256_storeu_ps
#define krn__vhalf krn__load_half8
#endif

/* The most dimensions whose accumulators stay in registers at once: 8
 * vectors, leaving the other registers to the value, p and temporaries. */
enum { KRN__BLOCK = 8 * KRN__VW };

/* acc[0..w) for the dimensions of v + off[j] (w a multiple of KRN__VW, at
 * most KRN__BLOCK): acc = 0.0f, then acc + p[j] · v_j for j = 0..n-1.
 * With l (a constant NULL or not, after inlining) also *l = the sum of the
 * p[j] from 0.0f in order: its chain of adds then runs beside the
 * accumulators' instead of after them. */
KRN__T static inline __attribute__((always_inline)) void
krn__weighted(const uint16_t *v, const int64_t *off, const float *p, int32_t n,
              int32_t w, float *acc, float *l) {
    float sum = 0.0f;
    krn__vec r[KRN__BLOCK / KRN__VW];
#pragma GCC unroll 8
    for (int32_t i = 0; i < w / KRN__VW; i++) r[i] = krn__vzero();
    for (int32_t j = 0; j < n; j++) {
        const uint16_t *row = v + off[j];
        const krn__vec pj = krn__vset1(p[j]);
        if (l) sum = sum + p[j];
#pragma GCC unroll 8
        for (int32_t i = 0; i < w / KRN__VW; i++)
            r[i] = krn__vadd(r[i], krn__vmul(pj, krn__vhalf(row + i * KRN__VW)));
    }
#pragma GCC unroll 8
    for (int32_t i = 0; i < w / KRN__VW; i++) krn__vstore(acc + i * KRN__VW, r[i]);
    if (l) *l = sum;
}

/* acc over all hd dimensions, a register block at a time (each dimension
 * is its own sum, so the blocks may run one after another), and l with the
 * first block. */
KRN__T static inline __attribute__((always_inline)) void
krn__weighted_all(const uint16_t *v, const int64_t *off, const float *p, int32_t n,
                  int32_t hd, float *acc, float *l) {
    int32_t d = 0;
    if (hd >= KRN__BLOCK) {
        krn__weighted(v, off, p, n, KRN__BLOCK, acc, l);
        for (d = KRN__BLOCK; d + KRN__BLOCK <= hd; d += KRN__BLOCK)
            krn__weighted(v + d, off, p, n, KRN__BLOCK, acc + d, NULL);
    }
#if KRN__ZMM
    if (d + 64 <= hd) {
        krn__weighted(v + d, off, p, n, 64, acc + d, d == 0 ? l : NULL);
        d += 64;
    }
#endif
    if (d < hd) krn__weighted(v + d, off, p, n, 32, acc + d, d == 0 ? l : NULL);
}

/* ---- chunks and merge -------------------------------------------------------- */

typedef struct krn__chunk {
    float m, l;
    float *acc; /* head_dim floats */
} krn__chunk;

/* The chunk of positions t0..t1-1: scores, maximum, p_t, l and acc. */
KRN__T static inline __attribute__((always_inline)) void
krn__chunk_run(const krn_cpu_attn *a, int32_t hd, int32_t t0, int32_t t1, float scale,
               float *score, krn__chunk *out) {
    int64_t off[KRN_ATTN_CHUNK];
    const int32_t n = t1 - t0, padded = krn__offsets(a, t0, t1, off);
    krn__scores(a->q, a->k, off, padded, hd, scale, score);
    out->m = krn__chunk_max(score, n, padded);
    krn__exp_all(score, padded, out->m);
    krn__weighted_all(a->v, off, score, n, hd, out->acc, &out->l);
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

/* Chunk c's positions t0..t1-1 (attention.c step 2). */
static inline void krn__chunk_span(const krn_cpu_attn *a, int32_t c, int32_t *t0,
                                   int32_t *t1) {
    *t0 = c * KRN_ATTN_CHUNK > a->first ? c * KRN_ATTN_CHUNK : a->first;
    *t1 = a->last + 1 < (c + 1) * KRN_ATTN_CHUNK ? a->last + 1 : (c + 1) * KRN_ATTN_CHUNK;
}

/* out[d] = acc[d] / l (step 4). */
KRN__T static inline void krn__finish(const float *acc, float l, float *out, int32_t hd) {
    const __m256 vl = _mm256_set1_ps(l);
    for (int32_t d = 0; d < hd; d += 8)
        _mm256_storeu_ps(out + d, _mm256_div_ps(_mm256_loadu_ps(acc + d), vl));
}

/* The whole head; hd is a->head_dim, a constant where the caller makes it
 * one so that the loops over it unroll. */
KRN__T static inline __attribute__((always_inline)) void
krn__attn_head(const krn_cpu_attn *a, int32_t hd) {
    const float scale = 1.0f / sqrtf((float)hd);
    float *score = a->scratch;                          /* KRN_ATTN_CHUNK */
    krn__chunk run = {.acc = score + KRN_ATTN_CHUNK};   /* hd */
    krn__chunk cur = {.acc = run.acc + hd};             /* hd */
    const int32_t c_first = a->first / KRN_ATTN_CHUNK;
    for (int32_t c = c_first; c <= a->last / KRN_ATTN_CHUNK; c++) {
        int32_t t0, t1;
        krn__chunk_span(a, c, &t0, &t1);
        krn__chunk_run(a, hd, t0, t1, scale, score, c == c_first ? &run : &cur);
        if (c > c_first) krn__merge(&run, &cur, hd);
    }
    krn__finish(run.acc, run.l, a->out, hd);
}

/* ---- a group of heads sharing one KV head ------------------------------------- */

/* The weighted values of several heads at once: a block of KRN__GW
 * dimensions of each value row is widened once (vcvtph2ps, the single
 * head's main cost) and used by up to KRN__GH heads, whose accumulators
 * stay in registers together (GH·GW/VW of them, plus GW/VW widened values
 * and the broadcast p's: 24 of 32 zmm, 14 of 16 ymm). Widening to a float
 * buffer instead costs as much in stores as it saves. */
enum { KRN__GW = KRN__ZMM ? 64 : 32, KRN__GH = KRN__ZMM ? 4 : 2 };

/* For heads 0..nb-1 (nb <= KRN__GH, a constant after inlining), head h's
 * p at p[h·KRN_ATTN_CHUNK + j]: acc[h][d0..d0+GW) = 0.0f, then acc + p_j ·
 * v_j for j = 0..n-1, each dimension's sum in position order as
 * krn__weighted's; with l, also l[h] = the p_j summed from 0.0f in order. */
KRN__T static inline __attribute__((always_inline)) void
krn__weighted_heads(const uint16_t *v, int32_t d0, const int64_t *off, const float *p,
                    int32_t n, int nb, float *const *acc, float *l) {
    enum { NV = KRN__GW / KRN__VW };
    krn__vec r[KRN__GH][NV];
    float sum[KRN__GH];
#pragma GCC unroll 4
    for (int h = 0; h < nb; h++) {
        sum[h] = 0.0f;
#pragma GCC unroll 4
        for (int i = 0; i < NV; i++) r[h][i] = krn__vzero();
    }
    for (int32_t j = 0; j < n; j++) {
        const uint16_t *row = v + off[j] + d0;
        krn__vec x[NV];
#pragma GCC unroll 4
        for (int i = 0; i < NV; i++) x[i] = krn__vhalf(row + i * KRN__VW);
#pragma GCC unroll 4
        for (int h = 0; h < nb; h++) {
            const float ph = p[h * KRN_ATTN_CHUNK + j];
            const krn__vec pj = krn__vset1(ph);
            if (l) sum[h] = sum[h] + ph;
#pragma GCC unroll 4
            for (int i = 0; i < NV; i++) r[h][i] = krn__vadd(r[h][i], krn__vmul(pj, x[i]));
        }
    }
#pragma GCC unroll 4
    for (int h = 0; h < nb; h++) {
#pragma GCC unroll 4
        for (int i = 0; i < NV; i++) krn__vstore(acc[h] + d0 + i * KRN__VW, r[h][i]);
        if (l) l[h] = sum[h];
    }
}

/* krn__weighted_heads over all hd dimensions (a multiple of KRN__GW, which
 * the caller checks), l with the first block; nb a constant per case. */
KRN__T static inline __attribute__((always_inline)) void
krn__weighted_heads_all(const uint16_t *v, const int64_t *off, const float *p, int32_t n,
                        int nb, int32_t hd, float *const *acc, float *l) {
    for (int32_t d = 0; d < hd; d += KRN__GW) {
        float *ld = d == 0 ? l : NULL;
        switch (nb) {
        case 1: krn__weighted_heads(v, d, off, p, n, 1, acc, ld); break;
        case 2: krn__weighted_heads(v, d, off, p, n, 2, acc, ld); break;
#if KRN__ZMM
        case 3: krn__weighted_heads(v, d, off, p, n, 3, acc, ld); break;
        case 4: krn__weighted_heads(v, d, off, p, n, 4, acc, ld); break;
#endif
        default: break;
        }
    }
}

/* nh heads (q and out: head i at i·hd) against one KV head, chunk by
 * chunk: every head's scores, maximum and p_t as krn__chunk_run makes
 * them, then the weighted values of up to KRN__GH heads at a time
 * (krn__weighted_heads), then each head's merge in its own order: every
 * head's floats exactly as krn__attn_head's alone. */
KRN__T static inline __attribute__((always_inline)) void
krn__attn_group(const krn_cpu_attn *a, int32_t nh, int32_t hd) {
    if (nh == 1 || hd % KRN__GW != 0) { /* nothing to share, or no block fits */
        krn_cpu_attn one = *a;
        for (int32_t h = 0; h < nh; h++) {
            one.q = a->q + (int64_t)h * hd;
            one.out = a->out + (int64_t)h * hd;
            krn__attn_head(&one, hd);
        }
        return;
    }
    const float scale = 1.0f / sqrtf((float)hd);
    float *score = a->scratch;                       /* nh · KRN_ATTN_CHUNK */
    float *m = score + (int64_t)nh * KRN_ATTN_CHUNK; /* nh: each head's M */
    float *l = m + nh;                               /* nh: each head's L */
    float *mc = l + nh;                              /* nh: the chunk's m */
    float *lc = mc + nh;                             /* nh: the chunk's l */
    float *run_acc = lc + nh;                        /* nh · hd: each head's ACC */
    float *cur_acc = run_acc + (int64_t)nh * hd;     /* nh · hd: the chunk's acc */
    const int32_t c_first = a->first / KRN_ATTN_CHUNK;
    for (int32_t c = c_first; c <= a->last / KRN_ATTN_CHUNK; c++) {
        int32_t t0, t1;
        int64_t off[KRN_ATTN_CHUNK];
        krn__chunk_span(a, c, &t0, &t1);
        const int32_t n = t1 - t0, padded = krn__offsets(a, t0, t1, off);
        const bool first = c == c_first;
        for (int32_t h = 0; h < nh; h++) {
            float *sh = score + (int64_t)h * KRN_ATTN_CHUNK;
            krn__scores(a->q + (int64_t)h * hd, a->k, off, padded, hd, scale, sh);
            mc[h] = krn__chunk_max(sh, n, padded);
            krn__exp_all(sh, padded, mc[h]);
        }
        for (int32_t hb = 0; hb < nh; hb += KRN__GH) {
            const int nb = nh - hb < KRN__GH ? nh - hb : KRN__GH;
            float *acc[KRN__GH];
            for (int h = 0; h < nb; h++)
                acc[h] = (first ? run_acc : cur_acc) + (int64_t)(hb + h) * hd;
            krn__weighted_heads_all(a->v, off, score + (int64_t)hb * KRN_ATTN_CHUNK, n, nb,
                                    hd, acc, (first ? l : lc) + hb);
        }
        for (int32_t h = 0; h < nh; h++) {
            if (first) {
                m[h] = mc[h];
                continue;
            }
            krn__chunk run = {.m = m[h], .l = l[h], .acc = run_acc + (int64_t)h * hd};
            const krn__chunk cur = {.m = mc[h], .l = lc[h], .acc = cur_acc + (int64_t)h * hd};
            krn__merge(&run, &cur, hd);
            m[h] = run.m;
            l[h] = run.l;
        }
    }
    for (int32_t h = 0; h < nh; h++)
        krn__finish(run_acc + (int64_t)h * hd, l[h], a->out + (int64_t)h * hd, hd);
}

/* Copies for the head dims worth a constant, and one for any other
 * multiple of 32. */
KRN__T static void krn__attn_head_64(const krn_cpu_attn *a) { krn__attn_head(a, 64); }
KRN__T static void krn__attn_head_128(const krn_cpu_attn *a) { krn__attn_head(a, 128); }
KRN__T static void krn__attn_head_any(const krn_cpu_attn *a) {
    krn__attn_head(a, a->head_dim);
}
KRN__T static void krn__attn_group_64(const krn_cpu_attn *a, int32_t nh) {
    krn__attn_group(a, nh, 64);
}
KRN__T static void krn__attn_group_128(const krn_cpu_attn *a, int32_t nh) {
    krn__attn_group(a, nh, 128);
}
KRN__T static void krn__attn_group_any(const krn_cpu_attn *a, int32_t nh) {
    krn__attn_group(a, nh, a->head_dim);
}

/* The copies for head_dim (a multiple of 32). */
static inline krn_cpu_attn_fn krn__attn_head_pick(int32_t head_dim) {
    return head_dim == 64    ? krn__attn_head_64
           : head_dim == 128 ? krn__attn_head_128
                             : krn__attn_head_any;
}
static inline krn_cpu_attn_group_fn krn__attn_group_pick(int32_t head_dim) {
    return head_dim == 64    ? krn__attn_group_64
           : head_dim == 128 ? krn__attn_group_128
                             : krn__attn_group_any;
}
