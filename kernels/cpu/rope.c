/*
 * rope.c — rotary position embedding, NEOX style (transformers' Qwen2
 * rotate_half): head dimension hd pairs element i with element i + hd/2.
 *
 * Table (built once, on the host, in double precision with libm):
 *   θ_i = pow((double)base, -(2.0 * i) / (double)hd)     i = 0..hd/2-1
 *   cos[p][i] = (float)cos((double)p * θ_i), sin[p][i] likewise.
 * A GPU backend uploads the same table rather than computing its own.
 *
 * Rotation at position p (fp32, each product rounded, then the add):
 *   out_i        = x_i * c − x_{i+hd/2} * s
 *   out_{i+hd/2} = x_i * s + x_{i+hd/2} * c
 * with c = cos[p][i], s = sin[p][i].
 */
#include <math.h>
#include <stdlib.h>

#include "cpu.h"

int krn_cpu_rope_init(krn_cpu_rope *t, int32_t n_pos, int32_t head_dim,
                      float base, sb_err *err) {
    t->n_pos = n_pos;
    t->half = head_dim / 2;
    size_t n = (size_t)n_pos * (size_t)t->half; /* both < 2^31: fits */
    t->cos = malloc(n * sizeof(float));
    t->sin = malloc(n * sizeof(float));
    if (!t->cos || !t->sin) {
        krn_cpu_rope_free(t);
        return sb_err_set(err, __func__, "out of memory for the RoPE table: "
                          "%zu bytes (%d positions x %d pairs x 2 floats)",
                          2 * n * sizeof(float), (int)n_pos, (int)head_dim / 2);
    }
    for (int32_t i = 0; i < t->half; i++) {
        double theta = pow((double)base, -(2.0 * i) / (double)head_dim);
        for (int32_t p = 0; p < n_pos; p++) {
            double angle = (double)p * theta;
            t->cos[(size_t)p * (size_t)t->half + (size_t)i] = (float)cos(angle);
            t->sin[(size_t)p * (size_t)t->half + (size_t)i] = (float)sin(angle);
        }
    }
    return 0;
}

void krn_cpu_rope_free(krn_cpu_rope *t) {
    free(t->cos);
    free(t->sin);
    t->cos = t->sin = NULL;
}

void krn_cpu_rope_apply(const krn_cpu_rope *t, int32_t pos, float *x,
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
