/*
 * rope_table.c — the RoPE table every backend rotates by (backend_impl.h):
 * built once, on the host, in double precision with libm, so that the CPU
 * and a GPU rotate by the same floats:
 *   θ_i = pow((double)base, -(2.0 * i) / (double)hd)     i = 0..hd/2-1
 *   cos[p][i] = (float)cos((double)p * θ_i), sin[p][i] likewise.
 * A GPU backend uploads it rather than computing its own.
 */
#include <math.h>
#include <stdlib.h>

#include "backend_impl.h"

int krn_rope_table_init(krn_rope_table *t, int32_t n_pos, int32_t head_dim,
                      float base, sb_err *err) {
    t->n_pos = n_pos;
    t->half = head_dim / 2;
    size_t n = (size_t)n_pos * (size_t)t->half; /* both < 2^31: fits */
    t->cos = malloc(n * sizeof(float));
    t->sin = malloc(n * sizeof(float));
    if (!t->cos || !t->sin) {
        krn_rope_table_free(t);
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

void krn_rope_table_free(krn_rope_table *t) {
    free(t->cos);
    free(t->sin);
    t->cos = t->sin = NULL;
}
