/*
 * attention_avx512.c — private to kernels/cpu/: attention.c's contract
 * with the products and the weighted values on 512-bit vectors
 * (attention_simd.h), for CPUs of krn_cpu_isa AVX512; the same bits.
 * Only these functions use the instructions (a target attribute), so the
 * program still runs on CPUs without them. FMA stays off.
 */
#include "qdot.h"

#if KRN_CPU_HAVE_X86

#define KRN__T __attribute__((target("avx2,f16c,avx512f,avx512vl")))
#define KRN__ZMM 1
#include "exp_avx2.h"
#include "attention_simd.h"

krn_cpu_attn_fn krn_cpu__attn_head_avx512(int32_t head_dim) {
    return krn__attn_head_pick(head_dim);
}

krn_cpu_attn_group_fn krn_cpu__attn_group_avx512(int32_t head_dim) {
    return krn__attn_group_pick(head_dim);
}

#endif
