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
#define KRN__MASK 0
#include "qdot_tile.h"

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) { return krn__tile_for(type); }

#else

krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type) {
    (void)type;
    return NULL;
}

#endif
