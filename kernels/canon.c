/*
 * canon.c — the canonical arithmetic of kernels.h section 2 (v2): activation
 * quantization in groups, weight unpacking, the chunked quantized dot, the
 * float dot and the lane sum.
 *
 * Every backend must reproduce these functions bit for bit, so each float
 * operation below is one IEEE fp32 operation rounded as written (the build
 * has -ffp-contract=off). Integer sums are exact and may be computed in any
 * order; float sums follow the lane order exactly.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "kernels.h"
#include "quant_layout.h"

#if defined(__SSE2__) && !defined(KRN_NO_SIMD)
#define KRN__SSE2 1
#include <emmintrin.h>
#else
#define KRN__SSE2 0
#endif

/* ---- activations ---------------------------------------------------------- */

/* rint(v) clamped to [-127, 127] as an int8. The clamp is done in float so
 * that a NaN (from a non-finite activation) gives 0 instead of an undefined
 * float-to-int conversion; for every other v it equals clamping the int. */
static int8_t krn__round_q8(float v) {
    float r = rintf(v);
    if (r > 127.0f)
        return 127;
    if (r < -127.0f)
        return -127;
    if (!(r == r))
        return 0;
    return (int8_t)r;
}

/* One group of g elements (32 or 256) into g/32 blocks: one scale for the
 * group (stored in each of its blocks), a code sum per block. A group
 * holding a NaN gets the scale NaN, so every dot product it enters is NaN
 * and the step's check of the logits refuses them: a NaN made code 0 (and
 * the group's codes scaled by the rest) would quietly give finite logits.
 * An Inf needs no such rule: amax = Inf makes every product Inf·0 = NaN.
 * Finite groups are untouched, bit for bit. */
static void krn__quantize_act_group(const float *x, krn_act_block *o, int64_t g) {
    float amax = 0.0f;
    bool nan = false;
    for (int64_t i = 0; i < g; i++) {
        float a = fabsf(x[i]);
        amax = a > amax ? a : amax;
        nan |= a != a;
    }
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    const float d = nan ? NAN : amax / 127.0f;
    for (int64_t b = 0; b < g / KRN_QBLOCK; b++) {
        int32_t sum = 0;
        for (int i = 0; i < KRN_QBLOCK; i++) {
            o[b].q[i] = krn__round_q8(x[b * KRN_QBLOCK + i] * id);
            sum += o[b].q[i];
        }
        o[b].d = d;
        o[b].sum = sum;
    }
}

void krn_quantize_act(const float *x, krn_act_block *out, int64_t n, int64_t g) {
    assert((g == KRN_QBLOCK || g == KRN_SUPER) && n % g == 0);
    for (int64_t i = 0; i < n / g; i++)
        krn__quantize_act_group(x + i * g, out + i * (g / KRN_QBLOCK), g);
}

/* ---- weight unpacking ----------------------------------------------------- */

/* The unpackers run once per weight row per matmul (the CPU matmul's
 * other hot loop), so each inner loop is a fixed-length, branch-free loop
 * over bytes that gcc vectorizes. */

static float krn__half_at(const uint8_t *p) {
    return krn__half_to_float(krn__rd16(p));
}

static void krn__wblock_init(krn_wblock *o, float d, float m) {
    o->d = d;
    o->m = m;
    o->mul_lo = 1;
    o->mul_hi = 1;
    o->mn = 0;
}

/* Little-endian 8-byte load and store (one move on a little-endian host,
 * byte by byte elsewhere). */
static inline uint64_t krn__ld64(const uint8_t *p) {
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, sizeof v);
#else
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
#endif
    return v;
}

static inline void krn__st64(int8_t *p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, sizeof v);
#else
    for (int k = 0; k < 8; k++)
        p[k] = (int8_t)(uint8_t)(v >> (8 * k));
#endif
}

static const uint64_t KRN__L1 = 0x0101010101010101ull; /* 1 in every byte */
static const uint64_t KRN__H = 0x8080808080808080ull;  /* bit 7 of every byte */

/* Byte k = 16 if bit k of `byte` is set, else 0: replicate the byte into
 * all 8 lanes, keep bit k in lane k, turn any nonzero lane into 0x80
 * (adding 0x7F cannot carry out of a lane holding at most 0x80), and shift
 * 0x80 down to 0x10. */
static inline uint64_t krn__spread_bits16(uint8_t byte) {
    uint64_t x = (uint64_t)byte * KRN__L1;
    x &= 0x8040201008040201ull;
    return ((x + 0x7F * KRN__L1) & KRN__H) >> 3;
}

/* Codes of a legacy block, 8 per 64-bit word: element i < 16 from the low
 * nibble of qs[i], element i + 16 from its high nibble, plus 16 when bit i
 * of the u32 qh is set (five), minus off. The per-byte subtraction
 * ((c | 0x80) - off) ^ 0x80 never borrows across bytes, because every
 * c | 0x80 >= 128 > off, and equals (c - off) mod 256. */
static void krn__legacy_codes(const uint8_t *qs, const uint8_t *qh, bool five,
                              int off, int8_t *q) {
    const uint64_t lo = krn__ld64(qs), hi = krn__ld64(qs + 8);
    const uint64_t nib[4] = {lo & 0x0F * KRN__L1, hi & 0x0F * KRN__L1,
                             (lo >> 4) & 0x0F * KRN__L1,
                             (hi >> 4) & 0x0F * KRN__L1};
    for (int g = 0; g < 4; g++) {
        uint64_t c = nib[g] | (five ? krn__spread_bits16(qh[g]) : 0);
        krn__st64(q + 8 * g, ((c | KRN__H) - (uint64_t)off * KRN__L1) ^ KRN__H);
    }
}

/* Q4_0/Q4_1/Q5_0/Q5_1: one 32-element block. Codes are signed (c-8, c-16)
 * without a min, unsigned (0..15, 0..31) with one (whose weight is
 * d*c + m: the block value adds m_b*s_b). */
static void krn__unpack_legacy(const uint8_t *b, krn_wblock *o, bool has_min,
                               bool five) {
    const int qs = five ? (has_min ? KRN__Q5_1_QS : KRN__Q5_0_QS)
                        : (has_min ? KRN__Q4_1_QS : KRN__Q4_0_QS);
    const int qh = has_min ? KRN__Q5_1_QH : KRN__Q5_0_QH;
    const int off = has_min ? 0 : (five ? 16 : 8);
    /* The min sits at the same offset in Q4_1 and Q5_1. */
    krn__wblock_init(o, krn__half_at(b),
                     has_min ? krn__half_at(b + KRN__Q4_1_M) : 0.0f);
    krn__legacy_codes(b + qs, b + qh, five, off, o->q);
}

static void krn__unpack_q8_0(const uint8_t *b, krn_wblock *o) {
    krn__wblock_init(o, krn__half_at(b), 0.0f);
    memcpy(o->q, b + KRN__Q8_0_QS, KRN_QBLOCK);
}

/* lo[l] = low nibble of q[l], hi[l] = high nibble, l < 32. */
static void krn__nibbles(const uint8_t *restrict q, int8_t *restrict lo,
                         int8_t *restrict hi) {
    for (int l = 0; l < 32; l++) {
        lo[l] = (int8_t)(q[l] & 0x0F);
        hi[l] = (int8_t)(q[l] >> 4);
    }
}

/* Q5_K: bit j of qh[l] is the 5th bit (16) of element l of block j. Each
 * shift is a constant so the loop vectorizes. */
static void krn__k5_high_bits(const uint8_t *restrict qh,
                              krn_wblock *restrict o) {
    for (int l = 0; l < 32; l++) {
        const int h = qh[l];
        o[0].q[l] = (int8_t)(o[0].q[l] | ((h & 0x01) << 4));
        o[1].q[l] = (int8_t)(o[1].q[l] | ((h & 0x02) << 3));
        o[2].q[l] = (int8_t)(o[2].q[l] | ((h & 0x04) << 2));
        o[3].q[l] = (int8_t)(o[3].q[l] | ((h & 0x08) << 1));
        o[4].q[l] = (int8_t)(o[4].q[l] | (h & 0x10));
        o[5].q[l] = (int8_t)(o[5].q[l] | ((h & 0x20) >> 1));
        o[6].q[l] = (int8_t)(o[6].q[l] | ((h & 0x40) >> 2));
        o[7].q[l] = (int8_t)(o[7].q[l] | ((h & 0x80) >> 3));
    }
}

/* Q4_K/Q5_K super-block into 8 blocks: each holds the super-block's d and
 * dmin, its 6-bit scale sc_j as both multipliers and its 6-bit min m_j as
 * mn (the weight is d*sc_j*c - dmin*m_j). Codes are unsigned (0..15 or 0..31).
 * Blocks 2p and 2p+1 take the low and high nibbles of qs[32p .. 32p+31];
 * Q5_K's 5th bit of element l of block j is bit j of qh[l]. */
static void krn__unpack_k45(const uint8_t *b, krn_wblock *o, bool five) {
    const float d = krn__half_at(b);
    const float dmin = krn__half_at(b + KRN__QK_DMIN);
    const uint8_t *qs = b + (five ? KRN__Q5_K_QS : KRN__Q4_K_QS);
    const uint8_t *qh = b + KRN__Q5_K_QH;
    for (int j = 0; j < 8; j++) {
        uint8_t sc, mn;
        krn__k_scale_min(b + KRN__QK_SCALES, j, &sc, &mn);
        krn__wblock_init(&o[j], d, dmin);
        o[j].mul_lo = o[j].mul_hi = sc;
        o[j].mn = mn;
    }
    for (int p = 0; p < 4; p++)
        krn__nibbles(qs + 32 * p, o[2 * p].q, o[2 * p + 1].q);
    if (five)
        krn__k5_high_bits(qh, o);
}

/* The 4 blocks of one 128-element half of a Q6_K block, codes - 32. */
static void krn__q6_half(const uint8_t *restrict ql, const uint8_t *restrict qh,
                         krn_wblock *restrict o) {
    for (int l = 0; l < 32; l++) {
        const int a = ql[l], b = ql[l + 32], h = qh[l];
        o[0].q[l] = (int8_t)(((a & 0x0F) | ((h & 0x03) << 4)) - 32);
        o[1].q[l] = (int8_t)(((b & 0x0F) | ((h & 0x0C) << 2)) - 32);
        o[2].q[l] = (int8_t)(((a >> 4) | (h & 0x30)) - 32);
        o[3].q[l] = (int8_t)(((b >> 4) | ((h & 0xC0) >> 2)) - 32);
    }
}

/* Q6_K super-block into 8 blocks: the super-block's d, codes c-32
 * (-32..31), and the int8 scales of the two 16-element sub-blocks 2j, 2j+1
 * as multipliers.
 * In each 128-element half h, element l of quarter k (block 4h+k) has its
 * low 4 bits in ql[64h + l + 32(k&1)] (low nibble for k < 2) and its top 2
 * bits at bits 2k..2k+1 of qh[32h + l]. */
static void krn__unpack_q6_k(const uint8_t *b, krn_wblock *o) {
    const float d = krn__half_at(b + KRN__Q6_K_D);
    const int8_t *sc = (const int8_t *)(b + KRN__Q6_K_SCALES);
    for (int j = 0; j < 8; j++) {
        krn__wblock_init(&o[j], d, 0.0f);
        o[j].mul_lo = sc[2 * j];
        o[j].mul_hi = sc[2 * j + 1];
    }
    for (int h = 0; h < 2; h++)
        krn__q6_half(b + 64 * h, b + KRN__Q6_K_QH + 32 * h, &o[4 * h]);
}

/* One row of nblk ggml blocks of bb bytes, each into `per` wblocks, with
 * the type known at compile time after inlining, so the per-block work has
 * no dispatch. */
#define KRN__UNPACK_LOOP(call, bb, per)                                     \
    for (int64_t i = 0; i < nblk; i++) {                                     \
        const uint8_t *b = src + i * (bb);                                   \
        krn_wblock *o = out + i * (per);                                     \
        call;                                                                \
    }

void krn_unpack_row(krn_type type, const void *row, krn_wblock *out,
                    int64_t n) {
    const int64_t be = krn_type_block_elems(type);
    assert(krn_type_is_quantized(type) && n % be == 0);
    if (!krn_type_is_quantized(type))
        return;
    const uint8_t *src = row;
    const int64_t nblk = n / be;
    switch (type) {
    case KRN_Q4_0: KRN__UNPACK_LOOP(krn__unpack_legacy(b, o, false, false), 18, 1) break;
    case KRN_Q4_1: KRN__UNPACK_LOOP(krn__unpack_legacy(b, o, true, false), 20, 1) break;
    case KRN_Q5_0: KRN__UNPACK_LOOP(krn__unpack_legacy(b, o, false, true), 22, 1) break;
    case KRN_Q5_1: KRN__UNPACK_LOOP(krn__unpack_legacy(b, o, true, true), 24, 1) break;
    case KRN_Q8_0: KRN__UNPACK_LOOP(krn__unpack_q8_0(b, o), 34, 1) break;
    case KRN_Q4_K: KRN__UNPACK_LOOP(krn__unpack_k45(b, o, false), 144, 8) break;
    case KRN_Q5_K: KRN__UNPACK_LOOP(krn__unpack_k45(b, o, true), 176, 8) break;
    case KRN_Q6_K: KRN__UNPACK_LOOP(krn__unpack_q6_k(b, o), 210, 8) break;
    default: break;
    }
}
#undef KRN__UNPACK_LOOP

/* ---- lane sums and dots ----------------------------------------------------- */

/* The butterfly fold of kernels.h: for off = 16..1, lane[l] += lane[l+off]
 * for l < off (the other lanes never reach lane 0). */
static float krn__fold(float lane[KRN_LANES]) {
    for (int off = KRN_LANES / 2; off >= 1; off /= 2)
        for (int l = 0; l < off; l++)
            lane[l] = lane[l] + lane[l + off];
    return lane[0];
}

float krn_lane_sum(const float *v, int64_t n) {
    float lane[KRN_LANES] = {0};
    for (int64_t i = 0; i < n; i++)
        lane[i % KRN_LANES] = lane[i % KRN_LANES] + v[i];
    return krn__fold(lane);
}

/* The exact block integer I_j = mul_lo*Σlo + mul_hi*Σhi. It fits in int32
 * for blocks from krn_unpack_row (|mul| <= 128): |Σ half| <= 16*128*127 =
 * 260096, so |I_j| < 2^26, and a super-block's A (8 blocks) < 2^29. Being an exact integer, it may be computed by
 * any instruction sequence: SSE2 where available, else portable C
 * (-DKRN_NO_SIMD forces the portable path, e.g. to test it on x86). */

#if KRN__SSE2
/* Sign-extends the low (hi = 0) or high 8 bytes of v to int16. */
static inline __m128i krn__widen(__m128i v, int hi) {
    __m128i d = hi ? _mm_unpackhi_epi8(v, v) : _mm_unpacklo_epi8(v, v);
    return _mm_srai_epi16(d, 8);
}

/* Four int32 partial sums of a 16-element int8 dot (pmaddwd pairs). */
static inline __m128i krn__dot16_sse2(const int8_t *a, const int8_t *b) {
    const __m128i va = _mm_loadu_si128((const __m128i *)(const void *)a);
    const __m128i vb = _mm_loadu_si128((const __m128i *)(const void *)b);
    return _mm_add_epi32(_mm_madd_epi16(krn__widen(va, 0), krn__widen(vb, 0)),
                         _mm_madd_epi16(krn__widen(va, 1), krn__widen(vb, 1)));
}

static inline int32_t krn__hsum_sse2(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4E));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xB1));
    return _mm_cvtsi128_si32(v);
}

/* About 1.5x the auto-vectorized loop (pmaddwd instead of pmullw and
 * widening adds); when both multipliers are 1 the halves are summed
 * together, the same integer by distributivity. */
static inline int32_t krn__block_int(const krn_wblock *w,
                                     const krn_act_block *x) {
    const __m128i lo = krn__dot16_sse2(w->q, x->q);
    const __m128i hi = krn__dot16_sse2(w->q + 16, x->q + 16);
    if (w->mul_lo == 1 && w->mul_hi == 1)
        return krn__hsum_sse2(_mm_add_epi32(lo, hi));
    return (int32_t)w->mul_lo * krn__hsum_sse2(lo) +
           (int32_t)w->mul_hi * krn__hsum_sse2(hi);
}
#else
/* Σ_{i<16} a_i*b_i: a fixed-length loop of widening products that gcc -O2
 * vectorizes. The portable path. */
static inline int32_t krn__dot16(const int8_t *a, const int8_t *b) {
    int32_t s = 0;
    for (int i = 0; i < 16; i++)
        s += (int32_t)a[i] * (int32_t)b[i];
    return s;
}

static inline int32_t krn__block_int(const krn_wblock *w,
                                     const krn_act_block *x) {
    return (int32_t)w->mul_lo * krn__dot16(w->q, x->q) +
           (int32_t)w->mul_hi * krn__dot16(w->q + 16, x->q + 16);
}
#endif

/* The float value v of one group (kernels.h §2): K-quants fold the whole
 * super-block into the integers A and B, legacy types add a float per block. */
static float krn__group_value(const krn_wblock *w, const krn_act_block *x,
                              int64_t blocks, bool kquant, bool has_min) {
    if (kquant) {
        int32_t a = 0, bm = 0;
        for (int64_t b = 0; b < blocks; b++) {
            a += krn__block_int(&w[b], &x[b]);
            bm += (int32_t)w[b].mn * x[b].sum;
        }
        float t = w[0].d * (float)a;
        if (has_min)
            t = t - w[0].m * (float)bm;
        return x[0].d * t;
    }
    float sum = 0.0f;
    for (int64_t b = 0; b < blocks; b++) {
        float u = w[b].d * (float)krn__block_int(&w[b], &x[b]);
        if (has_min)
            u = u + w[b].m * (float)x[b].sum;
        sum = sum + u;
    }
    return x[0].d * sum;
}

float krn_dot_q(const krn_wblock *w, const krn_act_block *x, int64_t nb,
                krn_type type) {
    const int64_t per = krn_act_group(type) / KRN_QBLOCK;
    const int64_t n_groups = nb / per, len = krn_chunk_len(n_groups);
    const bool kquant = krn_type_is_kquant(type), has_min = krn_type_has_min(type);
    float dot = 0.0f;
    for (int64_t c0 = 0; c0 < n_groups; c0 += len) {
        float part = 0.0f;
        for (int64_t g = c0; g < c0 + len && g < n_groups; g++)
            part = part + krn__group_value(w + g * per, x + g * per, per, kquant,
                                           has_min);
        dot = dot + part;
    }
    return dot;
}

/* Each block is one chain of 32 dependent adds, but consecutive blocks'
 * chains are independent, so an out-of-order core overlaps them; gcc
 * vectorizes the products. (Interleaving 8 blocks by hand measured 3x
 * slower.) */
float krn_dot_f(const float *w, const float *x, int64_t n) {
    assert(n % KRN_QBLOCK == 0);
    float lane[KRN_LANES] = {0};
    for (int64_t j = 0; j < n / KRN_QBLOCK; j++) {
        const float *wj = w + j * KRN_QBLOCK, *xj = x + j * KRN_QBLOCK;
        float b = 0.0f;
        for (int i = 0; i < KRN_QBLOCK; i++)
            b = b + wj[i] * xj[i];
        lane[j % KRN_LANES] = lane[j % KRN_LANES] + b;
    }
    return krn__fold(lane);
}
