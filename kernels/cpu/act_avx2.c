/*
 * act_avx2.c — private to kernels/cpu/: krn_quantize_act (kernels/canon.c,
 * kernels.h §2) with AVX2, the same bytes.
 *
 * Per group: amax = max |x_i| by vmaxps, which, like canon.c's
 * `a > amax ? a : amax`, keeps amax when x_i is a NaN (a maximum of the
 * rest is exact in any order; |x| has no −0); id = 127 / amax (0 when
 * amax is 0) and dx = amax / 127 as canon.c computes them; per element
 * rint(x·id) by vroundps to nearest, a NaN made 0, then clamped to ±127 —
 * canon.c's order of the same three cases — and the block sums in int32.
 * A group holding a NaN gets dx = NaN, as in canon.c (an unordered
 * compare of each element with itself finds it).
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#include <immintrin.h>
#include <math.h>

#define KRN__T __attribute__((target("avx2,f16c")))

/* The 32 codes of x[0..31] scaled by id into q, their sum returned. */
KRN__T static int32_t krn__codes32(const float *x, __m256 id, int8_t *q) {
    __m256i v[4];
    for (int k = 0; k < 4; k++) {
        __m256 r = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(x + 8 * k), id),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        r = _mm256_and_ps(r, _mm256_cmp_ps(r, r, _CMP_ORD_Q)); /* NaN -> 0 */
        r = _mm256_min_ps(_mm256_max_ps(r, _mm256_set1_ps(-127.0f)),
                          _mm256_set1_ps(127.0f));
        v[k] = _mm256_cvtps_epi32(r);
    }
    /* int32 -> int8 (in range, so the saturating packs are exact); the
     * packs work within 128-bit halves, the permute restores the order */
    const __m256i w01 = _mm256_packs_epi32(v[0], v[1]), w23 = _mm256_packs_epi32(v[2], v[3]);
    const __m256i b = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(w01, w23),
                                                  _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256((__m256i *)(void *)q, b);
    __m256i s = _mm256_add_epi32(_mm256_add_epi32(v[0], v[1]), _mm256_add_epi32(v[2], v[3]));
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4E));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xB1));
    return _mm_cvtsi128_si32(h);
}

KRN__T static void krn__quantize_act_avx2(const float *x, krn_act_block *out,
                                          int64_t n, int64_t g) {
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    for (int64_t g0 = 0; g0 < n; g0 += g) {
        __m256 m = _mm256_setzero_ps(), nan = _mm256_setzero_ps();
        for (int64_t i = g0; i < g0 + g; i += 8) {
            const __m256 v = _mm256_loadu_ps(x + i);
            m = _mm256_max_ps(_mm256_and_ps(v, abs_mask), m);
            nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        }
        float lanes[8];
        _mm256_storeu_ps(lanes, m);
        float amax = 0.0f;
        for (int k = 0; k < 8; k++) amax = lanes[k] > amax ? lanes[k] : amax;
        const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
        const float d = _mm256_movemask_ps(nan) ? NAN : amax / 127.0f;
        for (int64_t b = g0; b < g0 + g; b += KRN_QBLOCK) {
            krn_act_block *o = &out[b / KRN_QBLOCK];
            o->sum = krn__codes32(x + b, _mm256_set1_ps(id), o->q);
            o->d = d;
        }
    }
}

krn_cpu_quantize_fn krn_cpu_quantize_act_for(int isa) {
    return isa >= KRN_CPU_ISA_AVX2 ? krn__quantize_act_avx2 : krn_quantize_act;
}

#else

krn_cpu_quantize_fn krn_cpu_quantize_act_for(int isa) {
    (void)isa;
    return krn_quantize_act;
}

#endif
