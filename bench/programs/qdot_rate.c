/*
 * qdot_rate — one fused quantized dot kernel (kernels/cpu/qdot.h) alone,
 * on one thread, its weights in cache: the time of 1,024 outputs against
 * ROWS activation rows, and the multiply-adds a second and a cycle at the
 * clock given. It isolates the kernels from the rest of a step (norms,
 * attention, stores, threads), which engine_steps measures whole. Weights
 * are quantized from random floats and activations quantized as a
 * matmul's input would be (srand(1): the same inputs every run).
 * SB_CPU_ISA caps the instruction set, as in every program
 * (docs/environment.md).
 *
 * usage: qdot_rate TYPE ROWS [GHZ]   TYPE: q4_0 q5_0 q8_0 q4_k q5_k q6_k;
 *        ROWS 1..64; GHZ (3.6) only scales the per-cycle figure. Prints
 *        the best of 7 passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../../kernels/cpu/qdot.h"

enum { QR_OUTPUTS = 1024, QR_PASSES = 7 };

static double qdot_rate__now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool qdot_rate__type(const char *name, krn_type *t) {
    static const krn_type TYPES[] = {KRN_Q4_0, KRN_Q5_0, KRN_Q8_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
    for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
        if (strcasecmp(name, krn_type_name(TYPES[i])) == 0) {
            *t = TYPES[i];
            return true;
        }
    return false;
}

/* QR_OUTPUTS weight rows quantized from random floats in [-1, 1], so
 * every scale is a finite half, as in a real file. */
static uint8_t *qdot_rate__weights(krn_type t, int64_t n_in, uint64_t *row_bytes) {
    if (!krn_row_bytes(t, n_in, row_bytes)) return NULL;
    uint8_t *w = malloc(*row_bytes * QR_OUTPUTS);
    float *f = malloc(sizeof *f * (size_t)n_in);
    if (!w || !f) return free(w), free(f), NULL;
    for (int64_t o = 0; o < QR_OUTPUTS; o++) {
        for (int64_t i = 0; i < n_in; i++) f[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
        if (!krn_quantize_row(t, f, w + (uint64_t)o * *row_bytes, n_in))
            return free(w), free(f), NULL;
    }
    free(f);
    return w;
}

int main(int argc, char **argv) {
    krn_type t;
    const int rows = argc > 2 ? atoi(argv[2]) : 0;
    if (argc < 3 || !qdot_rate__type(argv[1], &t) || rows < 1 || rows > KRN_MAX_ROWS) {
        fprintf(stderr, "usage: qdot_rate q4_0|q5_0|q8_0|q4_k|q5_k|q6_k ROWS(1..64) [GHZ]\n");
        return 2;
    }
    const double ghz = argc > 3 ? atof(argv[3]) : 3.6;
    krn_tuning tuning;
    sb_err err = {0};
    if (krn_tuning_from_env(&tuning, getenv, &err)) {
        fprintf(stderr, "qdot_rate: %s\n", err.msg);
        return 2;
    }
    const krn_cpu_isa isa = krn_cpu_isa_pick(tuning.cpu_isa);
    const krn_cpu_qdot_fn fn = krn_cpu_qdot(t, isa);
    if (!fn) {
        fprintf(stderr, "qdot_rate: no fused %s kernel on %s\n", argv[1], krn_cpu_isa_name(isa));
        return 1;
    }
    /* the 0.5b shape's inputs: 896 for the 32-element types, 4864 (19
     * super-blocks) for the K-quants */
    const int64_t n_in = krn_type_is_kquant(t) ? 4864 : 896, nb = n_in / KRN_QBLOCK;
    uint64_t rb = 0;
    srand(1);
    uint8_t *w = qdot_rate__weights(t, n_in, &rb);
    krn_act_block *x = malloc(sizeof *x * (size_t)(nb * rows));
    float *f = malloc(sizeof *f * (size_t)n_in);
    static float dots[KRN_MAX_ROWS * KRN_CPU_TILE_MAX];
    if (!w || !x || !f) {
        fprintf(stderr, "qdot_rate: out of memory\n");
        return 1;
    }
    for (int r = 0; r < rows; r++) {
        for (int64_t i = 0; i < n_in; i++) f[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
        krn_quantize_act(f, x + r * nb, n_in, krn_act_group(t));
    }
    const int tw = krn_cpu_qdot_width(isa);
    double best = 1e30;
    for (int pass = 0; pass < QR_PASSES; pass++) {
        const double a = qdot_rate__now();
        for (int64_t o = 0; o < QR_OUTPUTS; o += tw) fn(w + o * rb, rb, tw, x, nb, rows, nb, dots);
        const double s = qdot_rate__now() - a;
        if (s < best) best = s;
    }
    const double macs = (double)n_in * QR_OUTPUTS * rows;
    printf("%s on %s, %d outputs x %lld inputs x %d rows: %.3f ms, %.1f G multiply-adds/s, "
           "%.1f a cycle at %.2f GHz\n", argv[1], krn_cpu_isa_name(isa), QR_OUTPUTS,
           (long long)n_in, rows, best * 1e3, macs / best / 1e9, macs / best / (ghz * 1e9), ghz);
    free(w), free(x), free(f);
    return 0;
}
