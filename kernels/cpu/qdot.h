/*
 * qdot.h — private to kernels/cpu/ (and its tests): the quantized dot
 * kernels a CPU matmul runs, one per weight type and instruction set,
 * chosen once per backend by what the CPU supports.
 *
 * Every kernel computes, for one weight row and n_rows activation rows,
 * exactly the canonical krn_dot_q of kernels.h §2 (krn_unpack_row then
 * krn_dot_q, the scalar reference in kernels/canon.c): the same bits on
 * every instruction set (docs/determinism.md, "Canonical arithmetic").
 *
 *     krn_cpu_qdot_fn f = krn_cpu_qdot(KRN_Q4_K, krn_cpu_isa_pick(KRN_ISA_CAP_BEST));
 *     if (f) f(rows, row_bytes, 8, xq, n_in / 32, n_rows, n_in / 32, dots);
 *     else   ... krn_unpack_row + krn_dot_q, the reference
 */
#ifndef SB_KERNELS_CPU_QDOT_H
#define SB_KERNELS_CPU_QDOT_H

#include "cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KRN_CPU_HAVE_X86 1
#else
#define KRN_CPU_HAVE_X86 0
#endif

/* Instruction sets, in order of preference. Each includes AVX2 and what
 * the ones below it need for the other kernels (attention, activations:
 * AVX2 and F16C); AVX-VNNI and AVX-512 VNNI are separate CPUID bits, so a
 * CPU may have the higher without the middle one (krn_cpu_isa_has). */
typedef enum krn_cpu_isa {
    KRN_CPU_ISA_SCALAR = 0,  /* the reference: unpack, then krn_dot_q */
    KRN_CPU_ISA_AVX2 = 1,    /* qdot_avx2.c (x86-64 with AVX2 and F16C) */
    KRN_CPU_ISA_AVXVNNI = 2, /* qdot_avxvnni.c (and the VEX vpdpbusd) */
    KRN_CPU_ISA_AVX512 = 3,  /* qdot_avx512.c (and AVX-512 VNNI, VL, BW) */
} krn_cpu_isa;

/* Whether this CPU (and OS) runs isa's kernels. */
bool krn_cpu_isa_has(krn_cpu_isa isa);
/* The best instruction set this CPU (and OS) runs. */
krn_cpu_isa krn_cpu_isa_best(void);
/* The one a backend uses: the best this CPU runs at or below cap
 * (krn_options.tuning.cpu_isa, kernels.h; KRN_ISA_CAP_BEST: the best). A
 * cap the CPU lacks gives the next one down it has, so a cap never raises
 * the choice (create has refused a cap out of range: krn_tuning_check). */
krn_cpu_isa krn_cpu_isa_pick(krn_isa_cap cap);
/* "scalar", "avx2", "avxvnni", "avx512vnni". */
const char *krn_cpu_isa_name(krn_cpu_isa isa);

/* Weight rows of a kernel's tile: 8 (256-bit float lanes), 16 on AVX-512
 * (512-bit); KRN_CPU_TILE_MAX bounds both. */
enum { KRN_CPU_TILE_MAX = 16 };
int krn_cpu_qdot_width(krn_cpu_isa isa);

/* A tile: dots[r * W + i] = krn_dot_q(weight row i, activation row r) for
 * i < n_out (1..W, W = krn_cpu_qdot_width of the kernel's isa) and r <
 * n_rows (1..KRN_MAX_ROWS: the kernels keep a row's sums in fixed arrays of
 * that many; matmul.c gives a larger batch to them 64 rows at a time).
 * Weight row i is nb ggml blocks (nb * 32 weights) at w + i * row_bytes;
 * activation row r's nb quantized blocks start at x + r * x_stride (in
 * blocks). Entries i >= n_out are written with unspecified values. */
typedef void (*krn_cpu_qdot_fn)(const uint8_t *w, uint64_t row_bytes, int n_out,
                                const krn_act_block *x, int64_t x_stride,
                                int n_rows, int64_t nb, float *dots);

/* The fused kernel for type on isa, or NULL when there is none (the
 * scalar isa, a float type, or a type without a fused kernel: Q4_1 and
 * Q5_1 run the reference). */
krn_cpu_qdot_fn krn_cpu_qdot(krn_type type, krn_cpu_isa isa);
/* qdot_avx2.c's, qdot_avxvnni.c's and qdot_avx512.c's tables (NULL off
 * x86-64). */
krn_cpu_qdot_fn krn_cpu_qdot_avx2(krn_type type);
krn_cpu_qdot_fn krn_cpu_qdot_avxvnni(krn_type type);
krn_cpu_qdot_fn krn_cpu_qdot_avx512(krn_type type);

#endif /* SB_KERNELS_CPU_QDOT_H */
