/*
 * engine_steps — the cost of one forward step per row count, the table the
 * speculative loop's draft-length choice is made from (DESIGN.md §4).
 *
 * usage: engine_steps MODEL [--device cpu|cuda] [--depth D]... [--reps N]
 *        [--threads N] [--ctx N]
 * For each KV depth D (default 0 and 4096) and each row count n in
 * 1 2 4 8 16 24 32 48 64, runs `reps` steps of n rows at positions
 * D..D+n-1 (rolling the cache back to D after each) and prints the median
 * milliseconds per step, every row's logits computed. Also prints the
 * weight bytes a decode step reads (bench_streamed_bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { MAX_DEPTHS = 8 };

typedef struct bench_opts {
    const char *model;
    eng_options eng;
    int32_t depths[MAX_DEPTHS];
    int n_depths;
    int reps;
} bench_opts;

static int parse(int argc, char **argv, bench_opts *o) {
    o->reps = 20;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return -1;
        if (!strcmp(a, "--device")) o->eng.device = strcmp(v, "cuda") ? ENG_DEVICE_CPU : ENG_DEVICE_CUDA;
        else if (!strcmp(a, "--depth") && o->n_depths < MAX_DEPTHS) o->depths[o->n_depths++] = atoi(v);
        else if (!strcmp(a, "--reps")) o->reps = atoi(v);
        else if (!strcmp(a, "--threads")) o->eng.n_threads = atoi(v);
        else if (!strcmp(a, "--ctx")) o->eng.n_ctx = atoi(v);
        else return -1;
        i++;
    }
    if (o->n_depths == 0) {
        o->depths[0] = 0;
        o->depths[1] = 4096;
        o->n_depths = 2;
    }
    o->model = argv[1];
    return o->reps >= 1 ? 0 : -1;
}

static int run(const bench_opts *o, eng_model *m, sb_err *err) {
    int32_t max_depth = 0;
    for (int i = 0; i < o->n_depths; i++)
        if (o->depths[i] > max_depth) max_depth = o->depths[i];
    eng_options eo = o->eng;
    if (eo.n_ctx < max_depth + 64) eo.n_ctx = max_depth + 64;
    const double t0 = sb_now();
    eng_session *s = eng_session_create(m, &eo, err);
    if (!s) return -1;
    int64_t mine = 0, used = 0;
    eng_session_device_memory(s, &mine, &used);
    printf("session: context %d, created in %.2f s (upload, warm-up, graph capture); "
           "GPU memory taken %.2f GB, in use on the GPU %.2f GB\n", (int)eo.n_ctx,
           sb_now() - t0, (double)mine / 1e9, (double)used / 1e9);
    printf("weights read per step: %llu bytes\n", (unsigned long long)
           bench_streamed_bytes(eng_model_desc(m)));
    int rc = 0;
    printf("| rows |");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) printf(" %d |", bench_bucket_rows[j]);
    printf("\n|---|");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) printf("---|");
    printf("\n");
    for (int i = 0; rc == 0 && i < o->n_depths; i++) {
        rc = bench_kv_fill(s, o->depths[i], err);
        printf("| ms, KV depth %d |", (int)o->depths[i]);
        for (int j = 0; rc == 0 && j < BENCH_N_BUCKETS; j++) {
            double ms = 0;
            rc = bench_step_ms(s, o->depths[i], bench_bucket_rows[j], o->reps, &ms, err);
            if (rc == 0) printf(" %.2f |", ms);
            fflush(stdout);
        }
        printf("\n");
    }
    eng_session_destroy(s);
    return rc;
}

int main(int argc, char **argv) {
    bench_opts o = {0};
    if (argc < 2 || parse(argc, argv, &o)) {
        fprintf(stderr, "usage: engine_steps MODEL [--device cpu|cuda] [--depth D]... "
                        "[--reps N] [--threads N] [--ctx N]\n");
        return 2;
    }
    sb_err err = {0};
    eng_model *m = eng_model_load(o.model, &err);
    if (!m) {
        fprintf(stderr, "engine_steps: %s\n", err.msg);
        return 1;
    }
    printf("model %s, device %s, median of %d steps, all rows' logits\n", o.model,
           o.eng.device == ENG_DEVICE_CUDA ? "cuda" : "cpu", o.reps);
    int rc = run(&o, m, &err);
    if (rc) fprintf(stderr, "engine_steps: %s\n", err.msg);
    eng_model_free(m);
    return rc ? 1 : 0;
}
