/*
 * qdot_avxvnni.c — private to kernels/cpu/: the fused quantized dot kernels
 * (qdot_tile.h) for x86-64 CPUs with AVX-VNNI but no AVX-512 (Intel's
 * client cores since Alder Lake, among others): the 256-bit, VEX-encoded
 * vpdpbusd, so a step of 2+ rows transposes each block of a tile's 8
 * weight rows and adds 4 products of all 8 outputs with one instruction.
 * Only these functions use the instructions (a target attribute), so the
 * program still runs on CPUs without them; qdot.c calls in here only where
 * the CPU has them.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T __attribute__((target("avx2,f16c,avxvnni")))
#define KRN__VNNI 1
#define KRN__DPBUSD _mm256_dpbusd_avx_epi32
#define KRN__MASK 0
#include "qdot_tile.h"

krn_cpu_qdot_fn krn_cpu_qdot_avxvnni(krn_type type) { return krn__tile_for(type); }

#else

krn_cpu_qdot_fn krn_cpu_qdot_avxvnni(krn_type type) {
    (void)type;
    return NULL;
}

#endif
