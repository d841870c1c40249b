/*
 * rmsnorm.c — RMS normalisation of one row.
 *
 * Float order (the contract; fp32, each operation rounded as written):
 *   sq_i  = x_i * x_i                      for i = 0..n-1
 *   ss    = krn_lane_sum(sq, n)            (kernels.h §2)
 *   mean  = ss / (float)n
 *   scale = 1.0f / sqrtf(mean + eps)       (sqrtf and / correctly rounded)
 *   y_i   = (x_i * scale) * w_i
 */
#include <math.h>

#include "cpu.h"

void krn_cpu_rmsnorm(const float *x, const float *w, float eps, int64_t n,
                     float *y) {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] * x[i];
    float ss = krn_lane_sum(y, n);
    float mean = ss / (float)n;
    float scale = 1.0f / sqrtf(mean + eps);
    for (int64_t i = 0; i < n; i++) y[i] = (x[i] * scale) * w[i];
}
