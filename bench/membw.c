/*
 * membw — the memory-read bandwidth of this machine, the floor that CPU
 * decode speed is measured against (every decode step streams all weights).
 *
 * usage: membw [THREADS] [MiB]   (defaults: all cores, 1024 MiB)
 * Prints the best of 7 passes in GB/s (1e9 bytes/s).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"

typedef struct part {
    const uint64_t *p;
    size_t n;
    uint64_t sum;
} part;

static void *read_part(void *arg) {
    part *w = arg;
    /* Four independent sums let the loads overlap; XOR keeps it cheap. */
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i + 4 <= w->n; i += 4) {
        a ^= w->p[i];
        b ^= w->p[i + 1];
        c ^= w->p[i + 2];
        d ^= w->p[i + 3];
    }
    w->sum = a ^ b ^ c ^ d;
    return NULL;
}

int main(int argc, char **argv) {
    long nt = argc > 1 ? atol(argv[1]) : sysconf(_SC_NPROCESSORS_ONLN);
    size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 1024;
    if (nt < 1 || nt > 256 || mib < 64) {
        fprintf(stderr, "usage: membw [THREADS 1..256] [MiB >= 64]\n");
        return 2;
    }
    size_t bytes = mib << 20, words = bytes / 8;
    uint64_t *buf = malloc(bytes);
    if (!buf) {
        fprintf(stderr, "membw: cannot allocate %zu MiB\n", mib);
        return 1;
    }
    memset(buf, 1, bytes);
    pthread_t th[256];
    part parts[256];
    double best = 0;
    uint64_t sink = 0;
    for (int pass = 0; pass < 7; pass++) {
        double t0 = sb_now();
        for (long i = 0; i < nt; i++) {
            size_t lo = words * (size_t)i / (size_t)nt, hi = words * (size_t)(i + 1) / (size_t)nt;
            parts[i] = (part){buf + lo, hi - lo, 0};
            pthread_create(&th[i], NULL, read_part, &parts[i]);
        }
        for (long i = 0; i < nt; i++) {
            pthread_join(th[i], NULL);
            sink ^= parts[i].sum;
        }
        double gbs = (double)bytes / (sb_now() - t0) / 1e9;
        if (gbs > best) best = gbs;
    }
    printf("membw: threads=%ld buffer=%zuMiB read_GB_s=%.2f (checksum %llx)\n",
           nt, mib, best, (unsigned long long)sink);
    free(buf);
    return 0;
}
