/*
 * rope.c — rotary position embedding, NEOX style (transformers' Qwen2
 * rotate_half): head dimension hd pairs element i with element i + hd/2.
 *
 * The table is kernels/rope_table.c's (krn_rope_table, shared with the GPU
 * backend, which uploads it).
 *
 * Rotation at position p (fp32, each product rounded, then the add):
 *   out_i        = x_i * c − x_{i+hd/2} * s
 *   out_{i+hd/2} = x_i * s + x_{i+hd/2} * c
 * with c = cos[p][i], s = sin[p][i].
 */
#include "cpu.h"

void krn_cpu_rope_apply(const krn_rope_table *t, int32_t pos, float *x,
                        int32_t n_heads) {
    const int32_t half = t->half;
    const float *c = t->cos + (size_t)pos * (size_t)half;
    const float *s = t->sin + (size_t)pos * (size_t)half;
    for (int32_t h = 0; h < n_heads; h++) {
        float *lo = x + (size_t)h * 2 * (size_t)half, *hi = lo + half;
        for (int32_t i = 0; i < half; i++) {
            float a = lo[i], b = hi[i];
            lo[i] = a * c[i] - b * s[i];
            hi[i] = a * s[i] + b * c[i];
        }
    }
}
