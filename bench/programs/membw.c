/*
 * membw — the memory-read bandwidth of this machine, the floor that CPU
 * decode speed is measured against (every decode step streams all weights).
 *
 * usage: membw [THREADS] [MiB]   (defaults: all cores, 1024 MiB)
 * Prints the best of 7 passes in GB/s (1e9 bytes/s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/bench.h"

int main(int argc, char **argv) {
    long nt = argc > 1 ? atol(argv[1]) : sysconf(_SC_NPROCESSORS_ONLN);
    size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 1024;
    if (nt < 1 || nt > 256 || mib < 64) {
        fprintf(stderr, "usage: membw [THREADS 1..256] [MiB >= 64]\n");
        return 2;
    }
    sb_err err = {0};
    double gbs = 0;
    if (bench_host_read_gbs((int)nt, mib << 20, 7, &gbs, &err)) {
        fprintf(stderr, "membw: %s\n", err.msg);
        return 1;
    }
    printf("membw: threads=%ld buffer=%zuMiB read_GB_s=%.2f\n", nt, mib, gbs);
    return 0;
}
