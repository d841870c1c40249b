/*
 * qdot_avx512.c — private to kernels/cpu/: the fused quantized dot kernels
 * (qdot_tile.h) for x86-64 CPUs with AVX-512 VNNI (and VL, BW): the legacy
 * types' products by vpdpbusd (one instruction for vpmaddubsw + vpmaddwd,
 * without saturation, so Q8_0 needs no sign moved), Q5_0's fifth bits by a
 * byte mask. Still on 256-bit vectors: the tile's 8 lanes are 8 outputs.
 * Only these functions use the instructions (a target attribute), so the
 * program still runs on CPUs without them.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T \
    __attribute__((target("avx2,f16c,avx512f,avx512vl,avx512bw,avx512vnni")))
#define KRN__VNNI 1
#include "qdot_tile.h"

krn_cpu_qdot_fn krn_cpu_qdot_avx512(krn_type type) { return krn__tile_for(type); }

#else

krn_cpu_qdot_fn krn_cpu_qdot_avx512(krn_type type) {
    (void)type;
    return NULL;
}

#endif
