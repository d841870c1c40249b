/*
 * finite_cost — what the finite-value checks (engine/finite.c)
 * cost against what they guard, on one model:
 *   - load: eng_model_load's wall time, and the weight check alone (every
 *     tensor the model reads, run again here on the loaded model);
 *   - per step: one plain decoding step (1 row) at depth 0, the logits
 *     check of one row, and for scale the greedy sampling of that row,
 *     each the median of `reps` runs.
 * A measuring tool, so it reaches the engine's private checks through
 * model_internal.h; nothing else does.
 *
 * usage: finite_cost MODEL [THREADS] [REPS]      (make bench-finite)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../engine/model_internal.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* The weight check over every tensor the forward pass reads. */
static double weights_check_s(const krn_model *d) {
    sb_err err = {0};
    double t0 = sb_now();
    int bad = eng__tensor_check_finite("token_embd", &d->tok_embd, &err) |
              eng__tensor_check_finite("output_norm", &d->output_norm, &err);
    if (d->output.data != d->tok_embd.data)
        bad |= eng__tensor_check_finite("output", &d->output, &err);
    for (int32_t l = 0; l < d->n_layer; l++) {
        const krn_tensor *t = &d->layers[l].attn_norm;
        /* krn_layer is 12 krn_tensor fields in a row */
        for (int i = 0; i < (int)(sizeof(krn_layer) / sizeof(krn_tensor)); i++)
            bad |= eng__tensor_check_finite("layer tensor", t + i, &err);
    }
    double s = sb_now() - t0;
    if (bad) fprintf(stderr, "finite_cost: %s\n", err.msg);
    return s;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: finite_cost MODEL [THREADS] [REPS]\n");
        return 2;
    }
    int threads = argc > 2 ? atoi(argv[2]) : 2, reps = argc > 3 ? atoi(argv[3]) : 20;
    if (reps < 1) reps = 1;
    sb_err err = {0};
    eng_options eo = {.n_threads = threads};
    /* the SB_CUDA_* and SB_CPU_ISA switches (docs/environment.md) */
    if (krn_tuning_from_env(&eo.tuning, getenv, &err)) {
        fprintf(stderr, "finite_cost: %s\n", err.msg);
        return 2;
    }
    double t0 = sb_now();
    eng_model *m = eng_model_load(argv[1], &err);
    double load_s = sb_now() - t0;
    if (!m) {
        fprintf(stderr, "finite_cost: %s\n", err.msg);
        return 1;
    }
    const krn_model *d = eng_model_desc(m);
    double check_s = weights_check_s(d);
    eng_session *s = eng_session_create(m, &eo, &err);
    double *step = malloc((size_t)reps * sizeof *step);
    double *row = malloc((size_t)reps * sizeof *row);
    double *sample = malloc((size_t)reps * sizeof *sample);
    if (!s || !step || !row || !sample) {
        fprintf(stderr, "finite_cost: %s\n", s ? "out of memory" : err.msg);
        return 1;
    }
    float *logits = eng_session_logits(s);
    int32_t id = 100;
    for (int r = 0; r < reps; r++) {
        eng_session_truncate(s, 0);
        double a = sb_now();
        if (eng_session_step(s, &id, 1, logits, &err)) {
            fprintf(stderr, "finite_cost: %s\n", err.msg);
            return 1;
        }
        double b = sb_now();
        int bad = eng__logits_check_finite(logits, d->n_vocab, 1, 0, &err);
        double c = sb_now();
        id = eng_sample(logits, d->n_vocab, &(eng_sampling){0}, 1);
        double e = sb_now();
        if (bad) fprintf(stderr, "finite_cost: %s\n", err.msg);
        step[r] = b - a;
        row[r] = c - b;
        sample[r] = e - c;
    }
    double step_ms = 1e3 * median(step, reps), row_us = 1e6 * median(row, reps);
    double sample_us = 1e6 * median(sample, reps);
    printf("model %s: %llu bytes, %d layers, vocab %d; threads %d, reps %d\n",
           argv[1], (unsigned long long)gguf_file_size(m->file), (int)d->n_layer,
           (int)d->n_vocab, threads, reps);
    printf("load: eng_model_load %.1f ms, of which the weight check %.1f ms "
           "(%.1f%%)\n", 1e3 * load_s, 1e3 * check_s, 100.0 * check_s / load_s);
    printf("step: 1-row decode step %.2f ms, logits check of one row %.1f us "
           "(%.3f%% of the step; greedy sampling of the row %.1f us)\n",
           step_ms, row_us, 0.1 * row_us / step_ms, sample_us);
    eng_session_destroy(s);
    eng_model_free(m);
    free(step);
    free(row);
    free(sample);
    return 0;
}
