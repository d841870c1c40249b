// device.cu — the CUDA facts a warm-up table records: compute capability of
// device 0 (the one the CUDA backend runs on) and the driver's and
// runtime's CUDA versions. Compiled where nvcc is (warmup/cuda/absent.c
// otherwise).
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "facts.h"

extern "C" void wu__cuda_facts(char *cc, size_t cap, int32_t *driver,
                               int32_t *runtime) {
    int major = 0, minor = 0, v = 0;
    cc[0] = '\0';
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) ==
            cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) ==
            cudaSuccess)
        snprintf(cc, cap, "%d.%d", major, minor);
    *driver = cudaDriverGetVersion(&v) == cudaSuccess ? v : 0;
    v = 0;
    *runtime = cudaRuntimeGetVersion(&v) == cudaSuccess ? v : 0;
    cudaGetLastError(); // leave no error behind for the backend's next check
}
