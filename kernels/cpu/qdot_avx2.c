/*
 * qdot_avx2.c — private to kernels/cpu/: the fused quantized dot kernels
 * (qdot_tile.h) for x86-64 CPUs with AVX2 and F16C: products by vpmaddubsw
 * and vpmaddwd. Only these functions use the instructions (a target
 * attribute, not a build flag), so the program still runs on CPUs without
 * them; qdot.c calls in here only where the CPU has them.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T __attribute__((target("avx2,f16c")))
#define KRN__VNNI 0
#include "qdot_tile.h"

/* The kernel of type, or NULL. */
static krn_cpu_qdot_fn krn__tile_for(krn_type type) {
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

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) { return krn__tile_for(type); }

#else

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) {
    (void)type;
    return NULL;
}

#endif
