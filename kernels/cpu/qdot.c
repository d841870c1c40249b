/*
 * qdot.c — which quantized dot kernel a CPU backend runs: the instruction
 * set is detected once per backend (qdot.h), and every kernel gives the
 * reference's bits, so the choice changes speed only.
 */
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

#if KRN_CPU_HAVE_X86
/* CPUID leaf 7, sub-leaf 1, EAX bit 4: AVX-VNNI (the VEX vpdpbusd). */
static bool krn__cpu_has_avxvnni(void) {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4));
}
#endif

bool krn_cpu_isa_has(krn_cpu_isa isa) {
    if (isa == KRN_CPU_ISA_SCALAR) return true;
#if KRN_CPU_HAVE_X86
    /* libgcc's check includes the OS's saving of the YMM and ZMM
     * registers. F16C and AVX-VNNI are read from CPUID itself: clang 14
     * knows neither name. */
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && krn__cpu_has_f16c();
    switch (isa) {
    case KRN_CPU_ISA_AVX2: return avx2;
    case KRN_CPU_ISA_AVXVNNI: return avx2 && krn__cpu_has_avxvnni();
    case KRN_CPU_ISA_AVX512:
        return avx2 && __builtin_cpu_supports("avx512vnni") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
    case KRN_CPU_ISA_SCALAR: return true;
    }
#endif
    return false;
}

krn_cpu_isa krn_cpu_isa_best(void) {
    for (int i = KRN_CPU_ISA_AVX512; i > KRN_CPU_ISA_SCALAR; i--)
        if (krn_cpu_isa_has((krn_cpu_isa)i)) return (krn_cpu_isa)i;
    return KRN_CPU_ISA_SCALAR;
}

const char *krn_cpu_isa_name(krn_cpu_isa isa) {
    switch (isa) {
    case KRN_CPU_ISA_AVX512: return "avx512vnni";
    case KRN_CPU_ISA_AVXVNNI: return "avxvnni";
    case KRN_CPU_ISA_AVX2: return "avx2";
    case KRN_CPU_ISA_SCALAR: return "scalar";
    }
    return "?";
}

krn_cpu_isa krn_cpu_isa_pick(krn_isa_cap cap) {
    /* krn_isa_cap counts from KRN_ISA_CAP_BEST = 0, then the instruction
     * sets in krn_cpu_isa's order from 1 */
    int i = cap == KRN_ISA_CAP_BEST ? (int)KRN_CPU_ISA_AVX512 : (int)cap - 1;
    if (i > (int)KRN_CPU_ISA_AVX512) i = (int)KRN_CPU_ISA_AVX512;
    while (i > (int)KRN_CPU_ISA_SCALAR && !krn_cpu_isa_has((krn_cpu_isa)i)) i--;
    return i < 0 ? KRN_CPU_ISA_SCALAR : (krn_cpu_isa)i;
}

int krn_cpu_qdot_width(krn_cpu_isa isa) {
    return isa == KRN_CPU_ISA_AVX512 ? 16 : 8;
}

krn_cpu_qdot_fn krn_cpu_qdot(krn_type type, krn_cpu_isa isa) {
    switch (isa) {
    case KRN_CPU_ISA_AVX512: return krn_cpu_qdot_avx512(type);
    case KRN_CPU_ISA_AVXVNNI: return krn_cpu_qdot_avxvnni(type);
    case KRN_CPU_ISA_AVX2: return krn_cpu_qdot_avx2(type);
    case KRN_CPU_ISA_SCALAR: return NULL;
    }
    return NULL;
}
