/*
 * bench_internal.h — private to bench/lib/: what the reports share.
 */
#ifndef SB_BENCH_INTERNAL_H
#define SB_BENCH_INTERNAL_H

#include "bench.h"

/* The accepted-length histogram h[0..ENG_MAX_DRAFT] in power-of-two bins:
 * 0, 1, 2-3, 4-7, 8-15, 16-31, 32-63 (names: bench__bin_names). */
enum { BENCH__N_BINS = 7 };
void bench__hist_bins(const int32_t *h, int64_t bins[BENCH__N_BINS]);
extern const char *const bench__bin_names[BENCH__N_BINS];

/* "4.68 GB" or "0.81 MB": bytes in decimal units, for reports. */
void bench__bytes(uint64_t bytes, char *out, size_t cap);

#endif /* SB_BENCH_INTERNAL_H */
