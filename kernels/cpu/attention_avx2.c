/*
 * attention_avx2.c — private to kernels/cpu/: attention.c's contract with
 * AVX2 and F16C (attention_simd.h on 256-bit vectors), for head dims that
 * are a multiple of 32; the same bits. Also the choice among the versions:
 * krn_cpu_attn_head_for and krn_cpu_attn_group_for (cpu.h).
 * Only these functions use the instructions (a target attribute), so the
 * program still runs on CPUs without them.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T __attribute__((target("avx2,f16c")))
#define KRN__ZMM 0
#include "exp_avx2.h"
#include "attention_simd.h"

krn_cpu_attn_fn krn_cpu_attn_head_for(int isa, int32_t head_dim) {
    if (head_dim % 32 != 0 || isa < KRN_CPU_ISA_AVX2) return krn_cpu_attn_head;
    if (isa >= KRN_CPU_ISA_AVX512) return krn_cpu__attn_head_avx512(head_dim);
    return krn__attn_head_pick(head_dim);
}

krn_cpu_attn_group_fn krn_cpu_attn_group_for(int isa, int32_t head_dim) {
    if (head_dim % 32 != 0 || isa < KRN_CPU_ISA_AVX2) return krn_cpu_attn_group;
    if (isa >= KRN_CPU_ISA_AVX512) return krn_cpu__attn_group_avx512(head_dim);
    return krn__attn_group_pick(head_dim);
}

#else

krn_cpu_attn_fn krn_cpu_attn_head_for(int isa, int32_t head_dim) {
    (void)isa;
    (void)head_dim;
    return krn_cpu_attn_head;
}

krn_cpu_attn_group_fn krn_cpu_attn_group_for(int isa, int32_t head_dim) {
    (void)isa;
    (void)head_dim;
    return krn_cpu_attn_group;
}

#endif
