/*
 * exp_avx2.h — private to kernels/cpu/'s AVX2 files: krn_exp (canon_math.c)
 * on 8 floats at once, the same bits lane by lane.
 *
 * The includer defines KRN__T (a target attribute with at least
 * "avx2,f16c"). In the normal range, -87 <= x <= 88, every lane runs
 * krn_exp's own sequence: kf = rint(x·log2e) (vroundps to nearest, as rintf
 * in the default mode), r = (x − kf·ln2_hi) − kf·ln2_lo, the degree-7
 * polynomial in the same Horner order (a multiply, then an add: no FMA),
 * then y·2^k with 2^k built in the exponent field (k within −126..127).
 * Lanes outside that range (NaN, overflow, underflow, the two-step
 * scaling) are recomputed with krn_exp itself.
 */
#ifndef SB_KERNELS_CPU_EXP_AVX2_H
#define SB_KERNELS_CPU_EXP_AVX2_H

#include <immintrin.h>

#include "../kernels.h"

KRN__T static inline __m256 krn__exp8(__m256 x) {
    const __m256 kf = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504f)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 r = _mm256_sub_ps(
        _mm256_sub_ps(x, _mm256_mul_ps(kf, _mm256_set1_ps(0.693359375f))),
        _mm256_mul_ps(kf, _mm256_set1_ps(-2.12194440e-4f)));
    __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.0f / 720.0f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.0f / 120.0f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.0f / 24.0f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.0f / 6.0f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(0.5f));
    const __m256 y = _mm256_add_ps(_mm256_set1_ps(1.0f),
                                   _mm256_add_ps(r, _mm256_mul_ps(_mm256_mul_ps(r, r), p)));
    const __m256i k = _mm256_cvttps_epi32(kf); /* kf is a whole number */
    const __m256 pow2 = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
    __m256 out = _mm256_mul_ps(y, pow2);
    /* lanes outside -87 <= x <= 88 (NaN included): krn_exp itself */
    const __m256 in = _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(-87.0f), _CMP_GE_OQ),
                                    _mm256_cmp_ps(x, _mm256_set1_ps(88.0f), _CMP_LE_OQ));
    const int ok = _mm256_movemask_ps(in);
    if (ok != 0xFF) {
        float xs[8], os[8];
        _mm256_storeu_ps(xs, x);
        _mm256_storeu_ps(os, out);
        for (int i = 0; i < 8; i++)
            if (!(ok >> i & 1)) os[i] = krn_exp(xs[i]);
        out = _mm256_loadu_ps(os);
    }
    return out;
}

#endif /* SB_KERNELS_CPU_EXP_AVX2_H */
