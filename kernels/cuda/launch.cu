// launch.cu — the helper every kernel file uses to check a CUDA call
// (cuda_backend.h's KRN_CUDA_CHECK). It calls nothing of the backend's, so
// the kernel files depend on it and on nothing above them (backend.cu calls
// them all).
#include "cuda_backend.h"

int krn_cuda_check(cudaError_t rc, const char *what, const char *where,
                   sb_err *err) {
    if (rc == cudaSuccess) return 0;
    return sb_err_set(err, "krn_cuda", "%s failed (%s): %s (%s)", what, where,
                      cudaGetErrorString(rc), cudaGetErrorName(rc));
}
