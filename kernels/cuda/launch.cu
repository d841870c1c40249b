// launch.cu — the helpers every kernel file uses to check a CUDA call and
// to launch (cuda_backend.h's KRN_CUDA_CHECK, common.cuh's krn_cuda_launch
// and its PDL mask). It calls nothing of the backend's, so the kernel files
// depend on it and on nothing above them (backend.cu calls them all).
#include "cuda_backend.h"

int krn_cuda_check(cudaError_t rc, const char *what, const char *where,
                   sb_err *err) {
    if (rc == cudaSuccess) return 0;
    return sb_err_set(err, "krn_cuda", "%s failed (%s): %s (%s)", what, where,
                      cudaGetErrorString(rc), cudaGetErrorName(rc));
}

int krn_cuda_launch_setup(int device, int *pdl_mask, sb_err *err) {
    int major = 0;
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                              device), err))
        return -1;
    // the default; krn_cuda_create applies krn_options.tuning and the
    // imported choices after this (backend.cu, krn_cuda__apply_choices)
    *pdl_mask = major < 9 ? 0 : KRN_CUDA_PDL_DEFAULT;
    return 0;
}
