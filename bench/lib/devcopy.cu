/*
 * devcopy.cu — the device's memory bandwidth, for the memory floor of a
 * decode step (bench.h). A device-to-device cudaMemcpy reads and writes
 * every byte once; its rate counted as (read + written) / time is what
 * CUDA's bandwidthTest reports and close to what a kernel streaming
 * weights can read. Timed with events on the default stream, best of N.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "devcopy.h"

/* Fills why and returns -1 when call failed. */
static int devcopy__fail(cudaError_t e, const char *what, char *why,
                         size_t why_cap) {
    snprintf(why, why_cap, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

extern "C" int bench__cuda_copy_gbs(size_t bytes, int passes, double *gbs,
                                    char *why, size_t why_cap) {
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess)
        return devcopy__fail(e, "no CUDA device", why, why_cap);
    void *src = NULL, *dst = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    float best_ms = 0;
    int rc = 0;
    if ((e = cudaMalloc(&src, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&dst, bytes)) != cudaSuccess)
        rc = devcopy__fail(e, "cudaMalloc of the copy buffers", why, why_cap);
    else if ((e = cudaEventCreate(&start)) != cudaSuccess ||
             (e = cudaEventCreate(&stop)) != cudaSuccess ||
             (e = cudaMemset(src, 1, bytes)) != cudaSuccess ||
             (e = cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice)) !=
                 cudaSuccess) /* the first copy warms up; untimed */
        rc = devcopy__fail(e, "warming up the copy", why, why_cap);
    for (int i = 0; rc == 0 && i < (passes > 0 ? passes : 1); i++) {
        float ms = 0;
        if ((e = cudaEventRecord(start)) != cudaSuccess ||
            (e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)) !=
                cudaSuccess ||
            (e = cudaEventRecord(stop)) != cudaSuccess ||
            (e = cudaEventSynchronize(stop)) != cudaSuccess ||
            (e = cudaEventElapsedTime(&ms, start, stop)) != cudaSuccess)
            rc = devcopy__fail(e, "timing a copy", why, why_cap);
        else if (ms > 0 && (best_ms == 0 || ms < best_ms))
            best_ms = ms;
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(src);
    cudaFree(dst);
    if (rc == 0 && best_ms <= 0) {
        snprintf(why, why_cap, "the copies took no measurable time");
        rc = -1;
    }
    if (rc == 0) *gbs = 2.0 * (double)bytes / (best_ms * 1e-3) / 1e9;
    return rc;
}
