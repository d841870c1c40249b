/*
 * qdot.c — which quantized dot kernel a CPU backend runs: the instruction
 * set is detected once per backend (qdot.h), and every kernel gives the
 * reference's bits, so the choice changes speed only.
 */
#include <stdlib.h>
#include <string.h>

#include "qdot.h"

#if KRN_CPU_HAVE_X86
#include <cpuid.h>
#endif

#if KRN_CPU_HAVE_X86
/* CPUID leaf 1, ECX bit 29: the half-precision conversions (vcvtph2ps). */
static bool krn__cpu_has_f16c(void) {
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}
#endif

krn_cpu_isa krn_cpu_isa_best(void) {
#if KRN_CPU_HAVE_X86
    /* libgcc's check includes the OS's saving of the YMM registers. F16C
     * is read from CPUID itself: clang 14 does not know the name "f16c". */
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && krn__cpu_has_f16c();
    if (avx2 && __builtin_cpu_supports("avx512vnni") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
        return KRN_CPU_ISA_AVX512;
    if (avx2)
        return KRN_CPU_ISA_AVX2;
#endif
    return KRN_CPU_ISA_SCALAR;
}

const char *krn_cpu_isa_name(krn_cpu_isa isa) {
    switch (isa) {
    case KRN_CPU_ISA_AVX512: return "avx512vnni";
    case KRN_CPU_ISA_AVX2: return "avx2";
    case KRN_CPU_ISA_SCALAR: return "scalar";
    }
    return "?";
}

krn_cpu_isa krn_cpu_isa_pick(void) {
    const krn_cpu_isa best = krn_cpu_isa_best();
    const char *want = getenv("SB_CPU_ISA");
    if (!want) return best;
    for (int i = KRN_CPU_ISA_SCALAR; i <= (int)best; i++)
        if (strcmp(want, krn_cpu_isa_name((krn_cpu_isa)i)) == 0)
            return (krn_cpu_isa)i;
    return best;
}

int krn_cpu_qdot_width(krn_cpu_isa isa) {
    return isa == KRN_CPU_ISA_AVX512 ? 16 : 8;
}

krn_cpu_qdot_fn krn_cpu_qdot(krn_type type, krn_cpu_isa isa) {
    switch (isa) {
    case KRN_CPU_ISA_AVX512: return krn_cpu_qdot_avx512(type);
    case KRN_CPU_ISA_AVX2: return krn_cpu_qdot_avx2(type);
    case KRN_CPU_ISA_SCALAR: return NULL;
    }
    return NULL;
}
