/*
 * ffn_avx2.c — private to kernels/cpu/: ffn.c's SwiGLU with AVX2, 8
 * elements at a time, the same bits: silu(g) = g / (1.0f + krn_exp(-g))
 * (krn_exp through exp_avx2.h), then · u, each lane as ffn.c writes it.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T __attribute__((target("avx2,f16c")))
#include "exp_avx2.h"

KRN__T static void krn__swiglu_avx2(const float *g, const float *u, int64_t n,
                                    float *a) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 gv = _mm256_loadu_ps(g + i);
        const __m256 neg = _mm256_xor_ps(gv, _mm256_set1_ps(-0.0f));
        const __m256 den = _mm256_add_ps(_mm256_set1_ps(1.0f), krn__exp8(neg));
        _mm256_storeu_ps(a + i, _mm256_mul_ps(_mm256_div_ps(gv, den),
                                              _mm256_loadu_ps(u + i)));
    }
    for (; i < n; i++) a[i] = krn_cpu_silu(g[i]) * u[i];
}

krn_cpu_swiglu_fn krn_cpu_swiglu_for(int isa) {
    return isa >= KRN_CPU_ISA_AVX2 ? krn__swiglu_avx2 : krn_cpu_swiglu;
}

#else

krn_cpu_swiglu_fn krn_cpu_swiglu_for(int isa) {
    (void)isa;
    return krn_cpu_swiglu;
}

#endif
