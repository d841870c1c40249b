/*
 * devcopy.h — private to bench/lib/: the one CUDA call the harness makes
 * itself, the device's copy bandwidth (bench_device_copy_gbs in bench.h).
 * devcopy.cu implements it; devcopy_absent.c stands in for builds without
 * nvcc. C linkage, so that nvcc's C++ and the C library meet.
 */
#ifndef SB_BENCH_DEVCOPY_H
#define SB_BENCH_DEVCOPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The best of `passes` timed device-to-device copies of `bytes` on the
 * current device, as (bytes read + bytes written) / seconds / 1e9 into
 * *gbs. -1 with a one-line reason in why[why_cap]; device memory is freed
 * either way. */
int bench__cuda_copy_gbs(size_t bytes, int passes, double *gbs, char *why,
                         size_t why_cap);

#ifdef __cplusplus
}
#endif

#endif /* SB_BENCH_DEVCOPY_H */
