/*
 * qdot_tile.h — private to kernels/cpu/: the fused quantized dot kernels,
 * written once and compiled once per instruction set by qdot_avx2.c,
 * qdot_avxvnni.c and qdot_avx512.c (each defines KRN__T, the target
 * attribute; KRN__VNNI, 1 where vpdpbusd exists, with KRN__DPBUSD its
 * 256-bit intrinsic, VEX or EVEX; and KRN__MASK, 1 where AVX-512's byte
 * masks exist, before including this file; nothing else includes it).
 * On AVX-512 only the 1-row case runs here (qdot_avx512.c has its own
 * 16-output tiles for more rows); on AVX-VNNI steps of 2+ rows transpose
 * a tile's block so that 8 outputs' integers come out in 8 lanes.
 *
 * A kernel computes a tile: up to 8 weight rows (output features) against
 * 1..64 activation rows. Weight block b of the 8 rows is decoded once
 * (codes as bytes, integer multipliers, d and dmin), then every activation
 * row runs against it; so a verify or prefill step of 64 rows streams the
 * weights once, like a 1-row step. The 8 weight rows are the 8 lanes of
 * the float vectors: lane i holds output i's group value, chunk partial
 * and dot, and those are added lane by lane in exactly the canonical
 * order of kernels.h §2 (each chunk's partial from 0 in group order, then
 * the dot from 0 in chunk order).
 *
 * Exactness (docs/determinism.md, "Canonical arithmetic"):
 * - The integers I, A, B are exact whatever the instruction order.
 *   vpmaddubsw (unsigned byte × signed byte, pairs summed into int16)
 *   saturates, so every pair sum it forms is bounded below 2^15: signed
 *   codes (Q8_0 and Q6_K on AVX2) go in as |w| with the sign moved onto x
 *   (vpsignb), so a pair is at most 2·128·127 = 32512; unsigned codes
 *   (Q4_0 and Q5_0 before their offset, Q4_K, Q5_K) at most 2·31·127.
 *   vpdpbusd (VNNI) sums four products into int32 without saturating, so
 *   there Q8_0 goes in as w + 128 (0..255) less 128·s. Σ(c − off)·x =
 *   Σc·x − off·s exactly, s being the activation block's code sum. All
 *   int32 sums stay below 2^29 (canon.c's bound).
 * - The float work is the canonical expression, one IEEE operation each:
 *   (float)I is vcvtdq2ps (round to nearest, as C's conversion), halves
 *   are widened exactly by vcvtph2ps (as krn__half_to_float), products
 *   and sums are single vmulps/vaddps. The build has -ffp-contract=off and
 *   the targets do not enable FMA, so nothing is fused.
 * tests/kernels/test_qdot.c checks every kernel against krn_unpack_row +
 * krn_dot_q bit for bit on random blocks, every tile width and row count.
 */

#include <immintrin.h>

#include "../quant_layout.h"

enum { KRN__W = 8 }; /* weight rows of a tile: the float lanes */

/* ---- shared pieces --------------------------------------------------------- */

KRN__T static inline __m256i krn__ld(const void *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}

/* Lane k of the result is the sum of the 8 int32 lanes of a[k]: two rounds
 * of pairwise adds within 128-bit halves, then the halves added. */
KRN__T static inline __m256i krn__sum8(const __m256i a[8]) {
    const __m256i s0 = _mm256_hadd_epi32(_mm256_hadd_epi32(a[0], a[1]),
                                         _mm256_hadd_epi32(a[2], a[3]));
    const __m256i s1 = _mm256_hadd_epi32(_mm256_hadd_epi32(a[4], a[5]),
                                         _mm256_hadd_epi32(a[6], a[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(s0, s1, 0x20),
                            _mm256_permute2x128_si256(s0, s1, 0x31));
}

/* 8 int32 partial sums of Σ u·s over 32 bytes, u unsigned, s signed. */
KRN__T static inline __m256i krn__dot_us(__m256i u, __m256i s) {
#if KRN__VNNI
    return KRN__DPBUSD(_mm256_setzero_si256(), u, s);
#else
    return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
#endif
}

/* 32 bytes of 4-bit codes: the low nibbles of 16 bytes, then the high. */
KRN__T static inline __m256i krn__nibbles16(const uint8_t *qs) {
    /* the 16 bytes in both halves, the upper half shifted right by 4 (bits
     * that cross into a byte's top nibble are masked off) */
    const __m256i b = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)qs));
    const __m256i both = _mm256_srlv_epi32(b, _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4));
    return _mm256_and_si256(both, _mm256_set1_epi8(0x0F));
}

/* c | 0x10 in the bytes i whose bit i of the little-endian u32 at qh is
 * set (Q5_0's fifth bit). */
KRN__T static inline __m256i krn__or_bits32(__m256i c, const uint8_t *qh) {
#if KRN__MASK
    const __mmask32 k = (__mmask32)krn__rd32(qh);
    return _mm256_mask_add_epi8(c, k, c, _mm256_set1_epi8(0x10));
#else
    /* byte i picks byte i/8 of the word, keeps bit i%8; a compare turns a
     * kept bit into 0xFF */
    const __m256i v = _mm256_set1_epi32((int32_t)krn__rd32(qh));
    const __m256i pick = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((int64_t)0x8040201008040201ull);
    const __m256i b = _mm256_and_si256(_mm256_shuffle_epi8(v, pick), bit);
    const __m256i set = _mm256_cmpeq_epi8(b, bit);
    return _mm256_or_si256(c, _mm256_and_si256(set, _mm256_set1_epi8(0x10)));
#endif
}

/* The halves at row[i] + at, i < 8, as 8 16-bit lanes. Built in
 * registers: 8 scalar stores read back as one vector would wait for the
 * stores to reach the cache (no store forwarding across them). */
KRN__T static inline __m128i krn__half_bits8(const uint8_t *const row[8], int64_t at) {
    return _mm_setr_epi16(
        (short)krn__rd16(row[0] + at), (short)krn__rd16(row[1] + at),
        (short)krn__rd16(row[2] + at), (short)krn__rd16(row[3] + at),
        (short)krn__rd16(row[4] + at), (short)krn__rd16(row[5] + at),
        (short)krn__rd16(row[6] + at), (short)krn__rd16(row[7] + at));
}

/* The halves at row[i] + at, i < 8, as floats (exact). */
KRN__T static inline __m256 krn__halves8(const uint8_t *const row[8], int64_t at) {
    return _mm256_cvtph_ps(krn__half_bits8(row, at));
}

/* Software prefetch of the next tile (the 8 rows after this tile's, one
 * contiguous run of 8 * row_bytes) spread over this tile's n_steps block
 * steps: step k asks for its share of the lines. A 1-row step is bound by
 * the weights' memory stream, and the hardware prefetchers, seeing 8
 * short strided streams per tile, fetch too little ahead; a prefetch past
 * the matrix's end is harmless (it never faults). always_inline: as a
 * function of its own, gcc finds it free of side effects and drops the
 * calls. */
KRN__T static inline __attribute__((always_inline)) void krn__prefetch_next(
    const uint8_t *w, uint64_t rb, uint64_t k, uint64_t per) {
    /* the last step's share may run past the next tile: harmless */
    const uint8_t *at = w + KRN__W * rb + 64 * k * per;
    for (uint64_t l = 0; l < per; l++)
        _mm_prefetch((const char *)(at + 64 * l), _MM_HINT_T0);
}

/* Lines of the next tile each of n_steps steps prefetches. */
static inline uint64_t krn__prefetch_per(uint64_t rb, int64_t n_steps) {
    return ((KRN__W * rb + 63) / 64 + (uint64_t)n_steps - 1) / (uint64_t)n_steps;
}

/* Per activation row, the running chunk partials and dots of the tile's 8
 * outputs (lane i: output i). */
typedef struct krn__acc {
    __m256 part[KRN_MAX_ROWS];
    __m256 dot[KRN_MAX_ROWS];
} krn__acc;

KRN__T static inline void krn__acc_init(krn__acc *a, int nr) {
    for (int r = 0; r < nr; r++) a->part[r] = a->dot[r] = _mm256_setzero_ps();
}

/* part += v; at a chunk's end, dot += part and part restarts from 0. */
KRN__T static inline void krn__acc_add(krn__acc *a, int r, __m256 v, bool end) {
    a->part[r] = _mm256_add_ps(a->part[r], v);
    if (end) {
        a->dot[r] = _mm256_add_ps(a->dot[r], a->part[r]);
        a->part[r] = _mm256_setzero_ps();
    }
}

KRN__T static inline void krn__acc_store(const krn__acc *a, int nr, float *dots) {
    for (int r = 0; r < nr; r++) _mm256_storeu_ps(dots + r * KRN__W, a->dot[r]);
}

/* ---- legacy types (G = 32: one block is one group) ------------------------ */

/* Block b of the tile's 8 weight rows. */
typedef struct krn__ltile {
    __m256i c[KRN__W];  /* unsigned codes (or |w| for AVX2's Q8_0) */
    __m256i w[KRN__W];  /* AVX2's Q8_0: the signed codes, whose sign moves onto x */
    __m256 d;           /* the rows' d */
} krn__ltile;

typedef struct krn__ltype {
    int64_t bytes;      /* of a block */
    int off;            /* subtracted from the unsigned codes */
    bool sign;          /* w holds signs to move onto x */
} krn__ltype;

KRN__T static inline void krn__dec_q4_0(const uint8_t *b, krn__ltile *t, int i) {
    t->c[i] = krn__nibbles16(b + KRN__Q4_0_QS);
}

KRN__T static inline void krn__dec_q5_0(const uint8_t *b, krn__ltile *t, int i) {
    t->c[i] = krn__or_bits32(krn__nibbles16(b + KRN__Q5_0_QS), b + KRN__Q5_0_QH);
}

KRN__T static inline void krn__dec_q8_0(const uint8_t *b, krn__ltile *t, int i) {
    const __m256i w = krn__ld(b + KRN__Q8_0_QS);
#if KRN__VNNI
    t->c[i] = _mm256_xor_si256(w, _mm256_set1_epi8((char)0x80)); /* w + 128 */
#else
    t->w[i] = w;
    t->c[i] = _mm256_abs_epi8(w);
#endif
}

/* Q8_0's description on this instruction set. */
static const krn__ltype KRN__Q8_0_T = {34, KRN__VNNI ? 128 : 0, !KRN__VNNI};

/* From the 8 rows' Σc·x against activation block xb: lane i gets
 * v_i = dx · (0 + d_i · (float)I_i), the canonical group value, with
 * I = Σc·x − off·s. */
KRN__T static inline __m256 krn__leg_finish(__m256i v, __m256 d, int off,
                                            const krn_act_block *xb) {
    if (off) v = _mm256_sub_epi32(v, _mm256_set1_epi32(off * xb->sum));
    const __m256 u = _mm256_mul_ps(d, _mm256_cvtepi32_ps(v));
    const __m256 w = _mm256_add_ps(_mm256_setzero_ps(), u);
    return _mm256_mul_ps(_mm256_set1_ps(xb->d), w);
}

/* Activation block xb against the tile's decoded block. */
KRN__T static inline __m256 krn__leg_value(const krn__ltile *t, krn__ltype ty,
                                           const krn_act_block *xb) {
    const __m256i xq = krn__ld(xb->q);
    __m256i acc[KRN__W];
    for (int i = 0; i < KRN__W; i++)
        acc[i] = krn__dot_us(t->c[i], ty.sign ? _mm256_sign_epi8(xq, t->w[i]) : xq);
    return krn__leg_finish(krn__sum8(acc), t->d, ty.off, xb);
}

typedef void (*krn__leg_dec)(const uint8_t *b, krn__ltile *t, int i);

#if KRN__VNNI
/* Rows of a step from which the tile's codes are transposed (AVX-VNNI):
 * 24 shuffles a block (a K-quant super-block: 8 blocks) once, repaid from
 * 4 rows; at 3 rows the two ways were within 6% of each other (kernel
 * harness, SB_CPU_ISA=avxvnni, 2026-12-05), at 2 the transpose lost. */
enum { KRN__TRANSPOSE_ROWS = 4 };

/* tr[k] lane i = the 4 bytes 4k..4k+3 of c[i]: an 8×8 transpose of
 * 32-bit words, so that one vpdpbusd with x's word k broadcast adds
 * those 4 products of all 8 rows at once, and the 8 rows' I come out in
 * their lanes with no horizontal sum. */
KRN__T static inline void krn__transpose8(const __m256i c[8], __m256i tr[8]) {
    /* unrolled: as loops, gcc 12 keeps t, u and tr in memory, which
     * made short steps of the 16-output tiles ~1.4x slower */
    __m256i t[8], u[8];
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++) {
        t[2 * p] = _mm256_unpacklo_epi32(c[2 * p], c[2 * p + 1]);
        t[2 * p + 1] = _mm256_unpackhi_epi32(c[2 * p], c[2 * p + 1]);
    }
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) {
        u[4 * h + 0] = _mm256_unpacklo_epi64(t[4 * h + 0], t[4 * h + 2]);
        u[4 * h + 1] = _mm256_unpackhi_epi64(t[4 * h + 0], t[4 * h + 2]);
        u[4 * h + 2] = _mm256_unpacklo_epi64(t[4 * h + 1], t[4 * h + 3]);
        u[4 * h + 3] = _mm256_unpackhi_epi64(t[4 * h + 1], t[4 * h + 3]);
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        tr[k] = _mm256_permute2x128_si256(u[k], u[4 + k], 0x20);
        tr[4 + k] = _mm256_permute2x128_si256(u[k], u[4 + k], 0x31);
    }
}

/* krn__leg_value from the transposed codes (unsigned codes only). */
KRN__T static inline __m256 krn__leg_value_tr(const __m256i tr[8], __m256 d,
                                              int off, const krn_act_block *xb) {
    /* two chains of 4, so a row waits for 4 vpdpbusd latencies, not 8 */
    __m256i v0 = _mm256_setzero_si256(), v1 = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int k = 0; k < 8; k += 2) {
        int32_t a, b;
        memcpy(&a, xb->q + 4 * k, sizeof a);
        memcpy(&b, xb->q + 4 * k + 4, sizeof b);
        v0 = KRN__DPBUSD(v0, tr[k], _mm256_set1_epi32(a));
        v1 = KRN__DPBUSD(v1, tr[k + 1], _mm256_set1_epi32(b));
    }
    return krn__leg_finish(_mm256_add_epi32(v0, v1), d, off, xb);
}
#endif

/* The tile loop of a legacy type. Rows i >= n_out repeat the last row (their
 * lanes are computed and dropped). always_inline so that each type's copy
 * calls its decoder directly. */
KRN__T static inline __attribute__((always_inline)) void
krn__leg_tile(krn__leg_dec dec, krn__ltype ty, const uint8_t *w, uint64_t rb,
              int n_out, const krn_act_block *x, int64_t xs, int nr, int64_t nb,
              float *dots) {
    const int64_t len = krn_chunk_len(nb);
    const uint8_t *row[KRN__W];
    for (int i = 0; i < KRN__W; i++)
        row[i] = w + (uint64_t)(i < n_out ? i : n_out - 1) * rb;
    const uint64_t pf = krn__prefetch_per(rb, nb);
    krn__acc a;
    krn__ltile t;
    krn__acc_init(&a, nr);
    int64_t left = len; /* blocks left in this chunk */
    for (int64_t b = 0; b < nb; b++) {
        const int64_t at = b * ty.bytes;
        krn__prefetch_next(w, rb, (uint64_t)b, pf);
        const bool end = --left == 0 || b + 1 == nb;
        if (left == 0) left = len;
        if (nr == 1) { /* each row's codes straight into its dot */
            const __m256i xq = krn__ld(x[b].q);
            __m256i acc[KRN__W];
#pragma GCC unroll 8
            for (int i = 0; i < KRN__W; i++) {
                dec(row[i] + at, &t, i);
                acc[i] = krn__dot_us(t.c[i], ty.sign ? _mm256_sign_epi8(xq, t.w[i]) : xq);
            }
            krn__acc_add(&a, 0, krn__leg_finish(krn__sum8(acc), krn__halves8(row, at),
                                                ty.off, &x[b]), end);
            continue;
        }
        for (int i = 0; i < KRN__W; i++) dec(row[i] + at, &t, i);
        t.d = krn__halves8(row, at);
#if KRN__VNNI
        if (nr >= KRN__TRANSPOSE_ROWS && !ty.sign) {
            __m256i tr[KRN__W];
            krn__transpose8(t.c, tr);
            for (int r = 0; r < nr; r++)
                krn__acc_add(&a, r, krn__leg_value_tr(tr, t.d, ty.off, x + r * xs + b), end);
            continue;
        }
#endif
        for (int r = 0; r < nr; r++)
            krn__acc_add(&a, r, krn__leg_value(&t, ty, x + r * xs + b), end);
    }
    krn__acc_store(&a, nr, dots);
}

#define KRN__LEG_KERNEL(name, dec, ty)                                          \
    KRN__T static void name(const uint8_t *w, uint64_t rb, int n_out,          \
                            const krn_act_block *x, int64_t xs, int nr,        \
                            int64_t nb, float *dots) {                         \
        krn__leg_tile(dec, ty, w, rb, n_out, x, xs, nr, nb, dots);             \
    }

KRN__LEG_KERNEL(krn__tile_q4_0, krn__dec_q4_0, ((krn__ltype){18, 8, false}))
KRN__LEG_KERNEL(krn__tile_q5_0, krn__dec_q5_0, ((krn__ltype){22, 16, false}))
KRN__LEG_KERNEL(krn__tile_q8_0, krn__dec_q8_0, KRN__Q8_0_T)

/* ---- K-quants (G = 256: one super-block is one group) --------------------- */

/* One weight row's super-block. */
typedef struct krn__ksb {
    __m256i q[8];     /* per 32-block: unsigned codes (Q4_K, Q5_K) or |w| (Q6_K) */
    __m256i w[8];     /* Q6_K: the signed codes w = c - 32 */
    __m256i sc[8];    /* int16 multiplier of each element pair */
    uint8_t mn[8];    /* Q4_K/Q5_K: the 6-bit mins m_j */
    uint8_t scb[8];   /* Q4_K/Q5_K: the 6-bit scales sc_j */
    int8_t sc6[16];   /* Q6_K: the int8 scales of the 16-element halves */
    uint16_t d, dmin; /* halves */
} krn__ksb;

/* Q4_K/Q5_K scales and mins: sub-block j's sc_j multiplies all its pairs.
 * The 12 packed bytes (quant_layout.h's krn__k_scale_min) as three
 * little-endian words: bytes j and j+4 of sub-blocks 0..3 are the low 6
 * bits of words 0 and 1; sub-blocks 4..7 take the nibbles of word 2 and
 * the top 2 bits of words 0 (scales) and 1 (mins), four bytes at once. */
KRN__T static inline void krn__dec_k_scales(const uint8_t *b, krn__ksb *s) {
    s->d = krn__rd16(b);
    s->dmin = krn__rd16(b + KRN__QK_DMIN);
    const uint8_t *p = b + KRN__QK_SCALES;
    const uint32_t w0 = krn__rd32(p), w1 = krn__rd32(p + 4), w2 = krn__rd32(p + 8);
    const uint32_t lo6 = 0x3F3F3F3Fu, lo4 = 0x0F0F0F0Fu, lo2 = 0x03030303u;
    const uint32_t sc[2] = {w0 & lo6, (w2 & lo4) | (((w0 >> 6) & lo2) << 4)};
    const uint32_t mn[2] = {w1 & lo6, ((w2 >> 4) & lo4) | (((w1 >> 6) & lo2) << 4)};
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        s->scb[j] = (uint8_t)(sc[j / 4] >> (8 * (j % 4)));
        s->sc[j] = _mm256_set1_epi16(s->scb[j]);
        s->mn[j] = (uint8_t)(mn[j / 4] >> (8 * (j % 4)));
    }
}

/* Blocks 2p and 2p+1 are the low and high nibbles of qs[32p .. 32p+31]. */
KRN__T static inline void krn__k4_codes(const uint8_t *qs, krn__ksb *s) {
    const __m256i m = _mm256_set1_epi8(0x0F);
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++) {
        const __m256i q = krn__ld(qs + 32 * p);
        s->q[2 * p] = _mm256_and_si256(q, m);
        s->q[2 * p + 1] = _mm256_and_si256(_mm256_srli_epi16(q, 4), m);
    }
}

KRN__T static inline void krn__dec_q4_k(const uint8_t *b, krn__ksb *s) {
    krn__dec_k_scales(b, s);
    krn__k4_codes(b + KRN__Q4_K_QS, s);
}

/* As Q4_K, plus 16 where bit j of qh[l] is set (element l of block j). */
KRN__T static inline void krn__dec_q5_k(const uint8_t *b, krn__ksb *s) {
    krn__dec_k_scales(b, s);
    krn__k4_codes(b + KRN__Q5_K_QS, s);
    const __m256i qh = krn__ld(b + KRN__Q5_K_QH), h16 = _mm256_set1_epi8(0x10);
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        const __m256i bit = _mm256_set1_epi8((char)(1 << j));
        const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(qh, bit), bit);
        s->q[j] = _mm256_or_si256(s->q[j], _mm256_and_si256(set, h16));
    }
}

/* Q6_K (layout in quant_layout.h): in half h, block 4h+k takes its low 4
 * bits from ql[64h + 32(k&1) + l] (low nibble for k < 2) and bits 2k..2k+1
 * of qh[32h + l] as bits 4..5, moved with 16-bit shifts and a mask that
 * drops whatever crossed a byte. Multipliers: sc[2j] for the pairs of
 * elements 0..15 (the low 128 bits), sc[2j+1] for 16..31. */
KRN__T static inline void krn__dec_q6_k(const uint8_t *b, krn__ksb *s) {
    const int8_t *sc = (const int8_t *)(b + KRN__Q6_K_SCALES);
    s->d = krn__rd16(b + KRN__Q6_K_D);
    s->dmin = 0;
    memset(s->mn, 0, sizeof s->mn); /* no mins; read by krn__ktile_finish */
    memcpy(s->sc6, sc, sizeof s->sc6);
    const __m256i m4 = _mm256_set1_epi8(0x0F), m2 = _mm256_set1_epi8(0x30);
#pragma GCC unroll 2
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
#pragma GCC unroll 4
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

/* Super-block g of the tile's 8 weight rows. */
typedef struct krn__ktile {
    krn__ksb row[KRN__W];
    __m256i mn[4];    /* lane i: int16 pair (m_i,2k, m_i,2k+1) for B */
    __m256 d, dmin;   /* lane i: row i's */
} krn__ktile;

/* The float lanes and B's multiplier pairs from the decoded rows, every
 * lane array written before any is read back as a vector. */
KRN__T static inline void krn__ktile_finish(krn__ktile *t) {
    uint16_t d[KRN__W], dm[KRN__W];
    int32_t p[4][KRN__W];
    for (int i = 0; i < KRN__W; i++) {
        const krn__ksb *s = &t->row[i];
        d[i] = s->d;
        dm[i] = s->dmin;
        for (int k = 0; k < 4; k++) p[k][i] = s->mn[2 * k] | (s->mn[2 * k + 1] << 16);
    }
    t->d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)d));
    t->dmin = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)dm));
    for (int k = 0; k < 4; k++)
        t->mn[k] = _mm256_loadu_si256((const __m256i *)(const void *)p[k]);
}

/* A of the 8 rows against the 8 activation blocks x (lane i: row i):
 * Σ_j Σ_pairs sc·(products), Q6_K's signs moved onto x. */
KRN__T static inline __m256i krn__ktile_scaled_dot(const krn__ktile *t, bool sign,
                                                  const krn_act_block *x) {
    __m256i acc[KRN__W];
    for (int i = 0; i < KRN__W; i++) acc[i] = _mm256_setzero_si256();
    for (int j = 0; j < 8; j++) {
        const __m256i xq = krn__ld(x[j].q);
        for (int i = 0; i < KRN__W; i++) {
            const krn__ksb *s = &t->row[i];
            const __m256i xs = sign ? _mm256_sign_epi8(xq, s->w[j]) : xq;
            const __m256i p = _mm256_maddubs_epi16(s->q[j], xs);
            acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(p, s->sc[j]));
        }
    }
    return krn__sum8(acc);
}

/* B = Σ_j m_j·s_j per lane: the code sums of x as int16 pairs (|s| <=
 * 32·127 fits), times the rows' min pairs. */
KRN__T static inline __m256i krn__ktile_min_dot(const krn__ktile *t,
                                               const krn_act_block *x) {
    __m256i b = _mm256_setzero_si256();
    for (int k = 0; k < 4; k++) {
        const int32_t pair = (int32_t)(uint16_t)(int16_t)x[2 * k].sum |
                             (int32_t)((uint32_t)(uint16_t)(int16_t)x[2 * k + 1].sum << 16);
        b = _mm256_add_epi32(b, _mm256_madd_epi16(t->mn[k], _mm256_set1_epi32(pair)));
    }
    return b;
}

/* Q4_K/Q5_K: v = dx · ((d · (float)A) − (dmin · (float)B)). */
KRN__T static inline __m256 krn__val_k45(const krn__ktile *t, const krn_act_block *x) {
    const __m256i a = krn__ktile_scaled_dot(t, false, x), b = krn__ktile_min_dot(t, x);
    __m256 v = _mm256_mul_ps(t->d, _mm256_cvtepi32_ps(a));
    v = _mm256_sub_ps(v, _mm256_mul_ps(t->dmin, _mm256_cvtepi32_ps(b)));
    return _mm256_mul_ps(_mm256_set1_ps(x[0].d), v);
}

/* Q6_K: v = dx · (d · (float)A). */
KRN__T static inline __m256 krn__val_q6_k(const krn__ktile *t, const krn_act_block *x) {
    const __m256i a = krn__ktile_scaled_dot(t, true, x);
    const __m256 v = _mm256_mul_ps(t->d, _mm256_cvtepi32_ps(a));
    return _mm256_mul_ps(_mm256_set1_ps(x[0].d), v);
}

typedef void (*krn__k_dec)(const uint8_t *b, krn__ksb *s);
typedef __m256 (*krn__k_val)(const krn__ktile *t, const krn_act_block *x);

/* A 1-row step needs no tile: each weight row's super-block is decoded
 * into registers and dotted at once, its value computed and added to its
 * own partial in scalar floats (the same operations, in the same order, as
 * a lane of the tile). Writing 8 decoded rows to memory, as the tile does
 * to share them among rows, costs a 1-row step more than it saves. */
KRN__T static inline __attribute__((always_inline)) float
krn__k_value1(krn__k_dec dec, bool min, bool sign, const uint8_t *b,
              const krn_act_block *x) {
    krn__ksb s;
    dec(b, &s);
    __m256i acc = _mm256_setzero_si256();
    int32_t bm = 0;
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        __m256i xq = krn__ld(x[j].q);
        if (sign) xq = _mm256_sign_epi8(xq, s.w[j]);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(s.q[j], xq),
                                                      s.sc[j]));
        if (min) bm += (int32_t)s.mn[j] * x[j].sum;
    }
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4E));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xB1));
    float t = _cvtsh_ss(s.d) * (float)_mm_cvtsi128_si32(h);
    if (min) t = t - _cvtsh_ss(s.dmin) * (float)bm;
    return x[0].d * t;
}

KRN__T static inline __attribute__((always_inline)) void
krn__k_tile1(krn__k_dec dec, bool min, bool sign, int64_t bytes, const uint8_t *w,
             uint64_t rb, int n_out, const krn_act_block *x, int64_t nb,
             float *dots) {
    const int64_t ng = nb / 8, len = krn_chunk_len(ng);
    const uint64_t pf = krn__prefetch_per(rb, ng);
    float part[KRN__W] = {0}, dot[KRN__W] = {0};
    int64_t left = len;
    for (int64_t g = 0; g < ng; g++) {
        krn__prefetch_next(w, rb, (uint64_t)g, pf);
        for (int i = 0; i < n_out; i++)
            part[i] = part[i] + krn__k_value1(dec, min, sign,
                                              w + (uint64_t)i * rb + g * bytes, x + g * 8);
        if (--left == 0 || g + 1 == ng) {
            for (int i = 0; i < n_out; i++) {
                dot[i] = dot[i] + part[i];
                part[i] = 0.0f;
            }
            left = len;
        }
    }
    for (int i = 0; i < KRN__W; i++) dots[i] = dot[i];
}

#if KRN__VNNI
/* Q4_K/Q5_K on VNNI for 2+ rows: each sub-block's codes of the 8 rows are
 * transposed (krn__transpose8), so the 8 rows' I_j come from 8 vpdpbusd
 * with x's words broadcast, then A = Σ_j sc_j·I_j lane by lane. */
typedef struct krn__ktr {
    __m256i tr[8][8]; /* [j][k]: words k of sub-block j of the 8 rows */
    __m256i sc[8];    /* [j] lane i: row i's sc_j */
} krn__ktr;

KRN__T static inline void krn__ktr_make(const krn__ktile *t, krn__ktr *o) {
    /* every scale lane written before any is read as a vector (a read
     * over fresh scalar stores waits for them to reach the cache) */
    int32_t sc[8][KRN__W];
    for (int i = 0; i < KRN__W; i++)
        for (int j = 0; j < 8; j++) sc[j][i] = t->row[i].scb[j];
    for (int j = 0; j < 8; j++) {
        __m256i c[KRN__W];
        for (int i = 0; i < KRN__W; i++) c[i] = t->row[i].q[j];
        krn__transpose8(c, o->tr[j]);
    }
    for (int j = 0; j < 8; j++)
        o->sc[j] = _mm256_loadu_si256((const __m256i *)(const void *)sc[j]);
}

/* krn__val_k45 from the transposed codes. */
KRN__T static inline __m256 krn__val_k45_tr(const krn__ktile *t, const krn__ktr *o,
                                            const krn_act_block *x) {
    __m256i a = _mm256_setzero_si256();
    for (int j = 0; j < 8; j++) {
        __m256i v0 = _mm256_setzero_si256(), v1 = _mm256_setzero_si256();
#pragma GCC unroll 4
        for (int k = 0; k < 8; k += 2) {
            int32_t p, q;
            memcpy(&p, x[j].q + 4 * k, sizeof p);
            memcpy(&q, x[j].q + 4 * k + 4, sizeof q);
            v0 = KRN__DPBUSD(v0, o->tr[j][k], _mm256_set1_epi32(p));
            v1 = KRN__DPBUSD(v1, o->tr[j][k + 1], _mm256_set1_epi32(q));
        }
        a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_add_epi32(v0, v1), o->sc[j]));
    }
    __m256 v = _mm256_mul_ps(t->d, _mm256_cvtepi32_ps(a));
    const __m256i b = krn__ktile_min_dot(t, x);
    v = _mm256_sub_ps(v, _mm256_mul_ps(t->dmin, _mm256_cvtepi32_ps(b)));
    return _mm256_mul_ps(_mm256_set1_ps(x[0].d), v);
}
#endif

#if KRN__VNNI
/* Q6_K on VNNI for 2+ rows: the unsigned codes c = w + 32 transposed, so
 * Σ c·x of each 16-element half of the 8 rows comes from vpdpbusd; then
 * Σ (c − 32)·x = Σ c·x − 32·Σ x, with Σ x of the first half by vpsadbw
 * (bytes offset by 128) and of the second as the block's s less that. */
typedef struct krn__k6tr {
    __m256i tr[8][8]; /* [j][k]: words k of sub-block j's c of the 8 rows */
    __m256i lo[8];    /* [j] lane i: row i's scale of elements 0..15 */
    __m256i hi[8];    /* [j] lane i: ... of elements 16..31 */
} krn__k6tr;

KRN__T static inline void krn__k6tr_make(const krn__ktile *t, krn__k6tr *o) {
    int32_t sc[16][KRN__W]; /* [2j + h]: as in krn__ktr_make */
    for (int i = 0; i < KRN__W; i++)
        for (int j = 0; j < 16; j++) sc[j][i] = t->row[i].sc6[j];
    for (int j = 0; j < 8; j++) {
        __m256i c[KRN__W];
        for (int i = 0; i < KRN__W; i++)
            c[i] = _mm256_add_epi8(t->row[i].w[j], _mm256_set1_epi8(32));
        krn__transpose8(c, o->tr[j]);
    }
    for (int j = 0; j < 8; j++) {
        o->lo[j] = _mm256_loadu_si256((const __m256i *)(const void *)sc[2 * j]);
        o->hi[j] = _mm256_loadu_si256((const __m256i *)(const void *)sc[2 * j + 1]);
    }
}

/* Σ over the first 16 codes of x (signed), exact. */
KRN__T static inline int32_t krn__sum16(const int8_t *q) {
    const __m128i u = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)q),
                                    _mm_set1_epi8((char)0x80));
    const __m128i s = _mm_sad_epu8(u, _mm_setzero_si128());
    return _mm_cvtsi128_si32(s) + _mm_extract_epi32(s, 2) - 16 * 128;
}

/* krn__val_q6_k from the transposed codes. */
KRN__T static inline __m256 krn__val_q6_k_tr(const krn__ktile *t, const krn__k6tr *o,
                                             const krn_act_block *x) {
    __m256i a = _mm256_setzero_si256();
    for (int j = 0; j < 8; j++) {
        __m256i v[4];
        for (int u = 0; u < 4; u++) v[u] = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++) {
            int32_t w;
            memcpy(&w, x[j].q + 4 * k, sizeof w);
            v[(k >> 2) * 2 + (k & 1)] =
                KRN__DPBUSD(v[(k >> 2) * 2 + (k & 1)], o->tr[j][k], _mm256_set1_epi32(w));
        }
        const int32_t s_lo = krn__sum16(x[j].q), s_hi = x[j].sum - s_lo;
        const __m256i i_lo = _mm256_sub_epi32(_mm256_add_epi32(v[0], v[1]),
                                              _mm256_set1_epi32(32 * s_lo));
        const __m256i i_hi = _mm256_sub_epi32(_mm256_add_epi32(v[2], v[3]),
                                              _mm256_set1_epi32(32 * s_hi));
        a = _mm256_add_epi32(a, _mm256_add_epi32(_mm256_mullo_epi32(i_lo, o->lo[j]),
                                                 _mm256_mullo_epi32(i_hi, o->hi[j])));
    }
    const __m256 v = _mm256_mul_ps(t->d, _mm256_cvtepi32_ps(a));
    return _mm256_mul_ps(_mm256_set1_ps(x[0].d), v);
}
#endif

/* The tile loop of a K-quant: super-block g of the 8 rows is decoded once,
 * then each activation row adds its group values to its chunk partials. */
KRN__T static inline __attribute__((always_inline)) void
krn__k_tile(krn__k_dec dec, krn__k_val val, bool transpose, int64_t bytes,
            const uint8_t *w, uint64_t rb, int n_out, const krn_act_block *x,
            int64_t xs, int nr, int64_t nb, float *dots) {
    const int64_t ng = nb / 8, len = krn_chunk_len(ng);
    const uint64_t pf = krn__prefetch_per(rb, ng);
    krn__acc a;
    krn__ktile t;
    krn__acc_init(&a, nr);
    int64_t left = len; /* groups left in this chunk */
    for (int64_t g = 0; g < ng; g++) {
        krn__prefetch_next(w, rb, (uint64_t)g, pf);
        for (int i = 0; i < KRN__W; i++)
            dec(w + (uint64_t)(i < n_out ? i : n_out - 1) * rb + g * bytes, &t.row[i]);
        krn__ktile_finish(&t);
        const bool end = --left == 0 || g + 1 == ng;
        if (left == 0) left = len;
#if KRN__VNNI
        if (transpose && nr >= KRN__TRANSPOSE_ROWS) {
            krn__ktr o;
            krn__ktr_make(&t, &o);
            for (int r = 0; r < nr; r++)
                krn__acc_add(&a, r, krn__val_k45_tr(&t, &o, x + r * xs + g * 8), end);
            continue;
        }
        if (val == krn__val_q6_k && nr >= KRN__TRANSPOSE_ROWS) {
            krn__k6tr o;
            krn__k6tr_make(&t, &o);
            for (int r = 0; r < nr; r++)
                krn__acc_add(&a, r, krn__val_q6_k_tr(&t, &o, x + r * xs + g * 8), end);
            continue;
        }
#else
        (void)transpose;
#endif
        for (int r = 0; r < nr; r++)
            krn__acc_add(&a, r, val(&t, x + r * xs + g * 8), end);
    }
    krn__acc_store(&a, nr, dots);
}

#define KRN__K_KERNEL(name, dec, val, min, sign, bytes)                         \
    KRN__T static void name(const uint8_t *w, uint64_t rb, int n_out,          \
                            const krn_act_block *x, int64_t xs, int nr,        \
                            int64_t nb, float *dots) {                         \
        if (nr == 1)                                                           \
            krn__k_tile1(dec, min, sign, bytes, w, rb, n_out, x, nb, dots);    \
        else                                                                   \
            krn__k_tile(dec, val, !(sign), bytes, w, rb, n_out, x, xs, nr, nb, \
                        dots);                                                 \
    }

KRN__K_KERNEL(krn__tile_q4_k, krn__dec_q4_k, krn__val_k45, true, false, 144)
KRN__K_KERNEL(krn__tile_q5_k, krn__dec_q5_k, krn__val_k45, true, false, 176)
KRN__K_KERNEL(krn__tile_q6_k, krn__dec_q6_k, krn__val_q6_k, false, true, 210)

/* The kernel of type, or NULL (inline: qdot_avx512.c has its own table). */
static inline krn_cpu_qdot_fn krn__tile_for(krn_type type) {
    switch (type) {
    case KRN_Q4_0: return krn__tile_q4_0;
    case KRN_Q5_0: return krn__tile_q5_0;
    case KRN_Q8_0: return krn__tile_q8_0;
    case KRN_Q4_K: return krn__tile_q4_k;
    case KRN_Q5_K: return krn__tile_q5_k;
    case KRN_Q6_K: return krn__tile_q6_k;
    default: return NULL;
    }
}
