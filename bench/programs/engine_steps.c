/*
 * engine_steps — the cost of one forward step per row count, the table the
 * speculative loop's draft-length choice is made from (drafter/length.h).
 *
 * usage: engine_steps MODEL [--device cpu|cuda] [--depth D]... [--reps N]
 *        [--threads N] [--ctx N] [--rows N] [--prefill N [--chunk C]...]
 * For each KV depth D (default 0 and 4096) and each row count n in
 * 1 2 4 8 16 24 32 48 64, runs `reps` steps of n rows at positions
 * D..D+n-1 (rolling the cache back to D after each) and prints the median
 * milliseconds per step, every row's logits computed; each relative to the
 * 1-row step; the weight bytes a decode step reads (bench_streamed_bytes)
 * over that time, and on CUDA as a share of the device's copy bandwidth
 * measured in the same run (whose ratio to the bytes is the memory floor);
 * and for the 7b shape on an H200, llama.cpp's figures of 2026-12-02 beside.
 * --rows N times only steps of N rows (one line per depth, no table): a
 * profiler's launch counts then start at the first such step.
 * --prefill N times only prefills of N prompt tokens from an empty cache
 * (no table): one line per --chunk C (1..1024; default 64; repeat it to
 * time several in one run), the median of --reps prefills (each after one
 * untimed) in ms and prompt tokens per second. The session is made for the
 * largest chunk (eng_options.prefill_chunk: above 64 the backend's scratch
 * grows), and every chunk runs on it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bench.h"

enum { MAX_DEPTHS = 8, MAX_CHUNKS = 8 };

typedef struct bench_opts {
    const char *model;
    eng_options eng;
    int32_t depths[MAX_DEPTHS];
    int n_depths;
    int reps;
    int only_rows; // 0: every bucket
    int32_t prefill; // --prefill: prompt tokens to time; 0: the step table
    int chunks[MAX_CHUNKS]; // --chunk: prefill chunk sizes
    int n_chunks;
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
        else if (!strcmp(a, "--rows")) o->only_rows = atoi(v);
        else if (!strcmp(a, "--prefill")) o->prefill = atoi(v);
        else if (!strcmp(a, "--chunk") && o->n_chunks < MAX_CHUNKS) o->chunks[o->n_chunks++] = atoi(v);
        else return -1;
        i++;
    }
    if (o->n_depths == 0) {
        o->depths[0] = 0;
        o->depths[1] = 4096;
        o->n_depths = 2;
    }
    if (o->n_chunks == 0) o->chunks[o->n_chunks++] = KRN_MAX_ROWS;
    for (int i = 0; i < o->n_chunks; i++)
        if (o->chunks[i] < 1 || o->chunks[i] > KRN_MAX_BATCH_ROWS) return -1;
    o->model = argv[1];
    return o->reps >= 1 && o->only_rows >= 0 && o->only_rows <= KRN_MAX_ROWS &&
                   o->prefill >= 0 ? 0 : -1;
}

/* llama.cpp on one H200 (measured 2026-12-02: upstream commit
 * 3f545bec, sm_90 build, `llama-bench -ngl 99 -fa 1`, F16 KV cache, CUDA
 * graphs; a synthetic Qwen2.5-7B-shaped Q4_K_M of 4,683,070,752 bytes;
 * steady-state medians). Its passes of 2+ tokens computed logits for the
 * last row only. Shown beside ours for the 7b shape on an H200 only. */
static const double LLAMA_MS[2][BENCH_N_BUCKETS] = {
    {3.81, 4.40, 6.08, 10.30, 6.95, 7.64, 8.37, 10.02, 11.49},  /* KV depth 0 */
    {4.16, 4.74, 6.40, 10.65, 7.37, 8.16, 8.93, 10.73, 12.28}}; /* KV depth 4096 */

/* The llama.cpp row for depth d, or NULL where it has none to compare. */
static const double *llama_row(int32_t d, bool comparable) {
    if (!comparable) return NULL;
    return d == 0 ? LLAMA_MS[0] : d == 4096 ? LLAMA_MS[1] : NULL;
}

static void print_row(const char *label, const double *v, const char *fmt) {
    printf("| %s |", label);
    for (int j = 0; j < BENCH_N_BUCKETS; j++) {
        printf(" ");
        printf(fmt, v[j]);
        printf(" |");
    }
    printf("\n");
}

/* One depth's table rows: ms, x the 1-row step, weights streamed per
 * second, that as a share of the measured copy bandwidth, and llama.cpp's
 * figures beside ours where they apply. */
static void print_depth(int32_t d, const double *ms, uint64_t bytes, double gbs,
                        const double *llama) {
    double v[BENCH_N_BUCKETS];
    char label[96];
    snprintf(label, sizeof label, "ms, KV depth %d", (int)d);
    print_row(label, ms, "%.2f");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) v[j] = ms[j] / ms[0];
    snprintf(label, sizeof label, "x 1-row step, depth %d", (int)d);
    print_row(label, v, "%.2f");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) v[j] = (double)bytes / (ms[j] * 1e6);
    snprintf(label, sizeof label, "weights GB/s, depth %d", (int)d);
    print_row(label, v, "%.0f");
    if (gbs > 0) {
        for (int j = 0; j < BENCH_N_BUCKETS; j++)
            v[j] = 100.0 * (double)bytes / (ms[j] * 1e6) / gbs;
        snprintf(label, sizeof label, "%% of copy bandwidth, depth %d", (int)d);
        print_row(label, v, "%.0f%%");
    }
    if (llama) {
        snprintf(label, sizeof label, "llama.cpp ms, depth %d", (int)d);
        print_row(label, llama, "%.2f");
        for (int j = 0; j < BENCH_N_BUCKETS; j++) v[j] = ms[j] / llama[j];
        snprintf(label, sizeof label, "ours / llama.cpp, depth %d", (int)d);
        print_row(label, v, "%.2f");
    }
}

/* Whether the llama.cpp figures describe this run: the 7b shape (28
 * layers of 3584, vocabulary 152064) on an H200. */
static bool llama_comparable(const krn_model *d, const char *device_name) {
    return d->n_layer == 28 && d->n_embd == 3584 && d->n_vocab == 152064 &&
           strstr(device_name, "H200") != NULL;
}

/* The session's figures before the table: creation time and GPU memory,
 * weight bytes a step reads, and (CUDA) the copy bandwidth and the floor
 * they give, into *gbs (0: unmeasured). */
static void print_facts(eng_session *s, const eng_model *m, const bench_opts *o, int32_t n_ctx,
                        double created_s, uint64_t *bytes, double *gbs) {
    int64_t mine = 0, used = 0;
    eng_session_device_memory(s, &mine, &used);
    printf("session: context %d, created in %.2f s (upload, warm-up, graph capture); "
           "GPU memory taken %.2f GB, in use on the GPU %.2f GB\n", (int)n_ctx,
           created_s, (double)mine / 1e9, (double)used / 1e9);
    *bytes = bench_streamed_bytes(eng_model_desc(m));
    printf("weights read per step: %llu bytes\n", (unsigned long long)*bytes);
    *gbs = 0;
    sb_err bw_err = {0};
    if (o->eng.device == ENG_DEVICE_CUDA &&
        bench_device_copy_gbs((size_t)1 << 30, 10, gbs, &bw_err) == 0)
        printf("device copy bandwidth (read + write): %.1f GB/s; memory floor of a step: "
               "%.3f ms\n", *gbs, (double)*bytes / (*gbs * 1e6));
    else if (o->eng.device == ENG_DEVICE_CUDA)
        printf("device copy bandwidth: unavailable (%s)\n", bw_err.msg);
    printf("device: %s\n", eng_session_device_name(s));
}

/* --prefill: one line per chunk size. */
static int run_prefill(const bench_opts *o, eng_session *s, sb_err *err) {
    const int reps = o->reps < 5 ? o->reps : 5; /* a prefill is long: 5 are enough */
    for (int i = 0; i < o->n_chunks; i++) {
        double ms = 0;
        if (bench_prefill_ms(s, o->prefill, o->chunks[i], reps, &ms, err)) return -1;
        printf("prefill %d tokens, chunk %d: %.2f ms, %.0f tokens/s (median of %d)\n",
               (int)o->prefill, o->chunks[i], ms, 1e3 * o->prefill / ms, reps);
        fflush(stdout);
    }
    return 0;
}

static int run(const bench_opts *o, eng_model *m, sb_err *err) {
    int32_t max_depth = 0;
    for (int i = 0; i < o->n_depths; i++)
        if (o->depths[i] > max_depth) max_depth = o->depths[i];
    eng_options eo = o->eng;
    if (o->prefill == 0 && eo.n_ctx < max_depth + 64) eo.n_ctx = max_depth + 64;
    if (eo.n_ctx < o->prefill) eo.n_ctx = o->prefill; /* --prefill: no depths */
    for (int i = 0; o->prefill && i < o->n_chunks; i++)
        if (o->chunks[i] > eo.prefill_chunk) eo.prefill_chunk = o->chunks[i];
    const double t0 = sb_now();
    eng_session *s = eng_session_create(m, &eo, err);
    if (!s) return -1;
    uint64_t bytes = 0;
    double gbs = 0;
    print_facts(s, m, o, eo.n_ctx, sb_now() - t0, &bytes, &gbs);
    const bool comparable = llama_comparable(eng_model_desc(m), eng_session_device_name(s));
    int rc = 0;
    if (o->prefill) {
        rc = run_prefill(o, s, err);
        eng_session_destroy(s);
        return rc;
    }
    if (o->only_rows) {
        for (int i = 0; rc == 0 && i < o->n_depths; i++) {
            double ms = 0;
            rc = bench_kv_fill(s, o->depths[i], err);
            if (rc == 0) rc = bench_step_ms(s, o->depths[i], o->only_rows, o->reps, &ms, err);
            if (rc == 0) printf("depth %d, %d rows: %.3f ms\n", (int)o->depths[i], o->only_rows, ms);
        }
        eng_session_destroy(s);
        return rc;
    }
    printf("| rows |");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) printf(" %d |", bench_bucket_rows[j]);
    printf("\n|---|");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) printf("---|");
    printf("\n");
    for (int i = 0; rc == 0 && i < o->n_depths; i++) {
        double ms[BENCH_N_BUCKETS];
        rc = bench_kv_fill(s, o->depths[i], err);
        for (int j = 0; rc == 0 && j < BENCH_N_BUCKETS; j++)
            rc = bench_step_ms(s, o->depths[i], bench_bucket_rows[j], o->reps, &ms[j], err);
        if (rc == 0) print_depth(o->depths[i], ms, bytes, gbs, llama_row(o->depths[i], comparable));
        fflush(stdout);
    }
    if (rc == 0 && gbs > 0)
        printf("floor = weight bytes / copy bandwidth; llama.cpp: its H200 figures of 2026-12-02 "
               "(its 2+ token passes computed the last row's logits only; ours compute "
               "every row's)\n");
    eng_session_destroy(s);
    return rc;
}

int main(int argc, char **argv) {
    bench_opts o = {0};
    if (argc < 2 || parse(argc, argv, &o)) {
        fprintf(stderr, "usage: engine_steps MODEL [--device cpu|cuda] [--depth D]... "
                        "[--reps N] [--threads N] [--ctx N] [--rows N] "
                        "[--prefill N [--chunk C]...]\n");
        return 2;
    }
    sb_err err = {0};
    /* the SB_CUDA_* and SB_CPU_ISA switches (docs/environment.md) */
    if (krn_tuning_from_env(&o.eng.tuning, getenv, &err)) {
        fprintf(stderr, "engine_steps: %s\n", err.msg);
        return 2;
    }
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
