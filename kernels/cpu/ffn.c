/*
 * ffn.c — the SwiGLU activation between the gate/up and down matmuls.
 *
 * Float order (fp32, each operation rounded as written):
 *   silu(g) = g / (1.0f + krn_exp(-g))
 *   a_i     = silu(g_i) * u_i
 * krn_exp is the engine's own exp (kernels.h §2), never libm's, so every
 * backend reproduces it bit for bit.
 */
#include "cpu.h"

float krn_cpu_silu(float g) { return g / (1.0f + krn_exp(-g)); }

void krn_cpu_swiglu(const float *g, const float *u, int64_t n, float *a) {
    for (int64_t i = 0; i < n; i++) a[i] = krn_cpu_silu(g[i]) * u[i];
}
