/*
 * pool_rtt — the CPU backend's thread pool overhead: the time of one
 * krn_cpu_pool_run round trip (publish a task, every thread runs it, the
 * caller waits for all) with a task of almost no work, the price each
 * stage of a forward step pays for being parallel. A 1-row step of the
 * 0.5b shape runs about 121 of them (5 per layer and the LM head), of the
 * demo model 41; row stages of 1-row steps run on the caller, no trip.
 *
 * usage: pool_rtt [THREADS] [RUNS]   (defaults 2 and 20000); prints the
 * median and best of 7 batches, in microseconds per round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../kernels/cpu/cpu.h"

static double krn__now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void krn__task(void *ctx, int tid, int n_threads) {
    (void)n_threads;
    volatile int *sink = ctx;
    for (int i = 0; i < 100; i++) sink[tid * 16] += i; /* own cache line */
}

static int krn__cmp(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const int threads = argc > 1 ? atoi(argv[1]) : 2;
    const int runs = argc > 2 ? atoi(argv[2]) : 20000;
    if (threads < 1 || threads > KRN_CPU_MAX_THREADS || runs < 1) {
        fprintf(stderr, "usage: pool_rtt [THREADS] [RUNS]\n");
        return 2;
    }
    sb_err err = {0};
    krn_cpu_pool *p = krn_cpu_pool_create(threads, &err);
    if (!p) {
        fprintf(stderr, "pool_rtt: %s\n", err.msg);
        return 1;
    }
    static int sink[KRN_CPU_MAX_THREADS * 16];
    double us[7];
    for (int b = 0; b < 7; b++) {
        const double t0 = krn__now();
        for (int i = 0; i < runs; i++) krn_cpu_pool_run(p, krn__task, sink);
        us[b] = (krn__now() - t0) / runs * 1e6;
    }
    krn_cpu_pool_destroy(p);
    qsort(us, 7, sizeof *us, krn__cmp);
    printf("pool_rtt: threads=%d runs=%d median_us=%.2f best_us=%.2f\n", threads,
           runs, us[3], us[0]);
    return 0;
}
