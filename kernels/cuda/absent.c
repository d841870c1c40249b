/* The CUDA backend's entry points in a build made without nvcc. */
#include "../kernels.h"

bool krn_cuda_built(void) { return false; }

krn_backend *krn_cuda_create(const krn_model *model, const krn_options *opt,
                             sb_err *err) {
    (void)model;
    (void)opt;
    sb_err_set(err, __func__,
               "this build of SonicBoom has no CUDA backend (nvcc was not "
               "found at build time); use --device cpu");
    return NULL;
}
