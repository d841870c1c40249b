// The CUDA backend. Until the CUDA issue lands it only probes for a GPU and
// refuses with a clear message, so the build path (nvcc, one fat binary for
// sm_86/87/89/90, static cudart) exists and is exercised by every build.
#include <cuda_runtime.h>

extern "C" {
#include "../kernels.h"
}

extern "C" bool krn_cuda_built(void) { return true; }

extern "C" krn_backend *krn_cuda_create(const krn_model *model,
                                        const krn_options *opt, sb_err *err) {
    (void)model;
    (void)opt;
    int n = 0;
    cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess || n == 0) {
        sb_err_set(err, __func__, "no CUDA GPU is available (%s); use --device cpu",
                   rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
        return NULL;
    }
    sb_err_set(err, __func__,
               "the CUDA forward pass is not implemented yet (%d GPU(s) found); "
               "use --device cpu", n);
    return NULL;
}
