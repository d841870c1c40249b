/* devcopy_absent.c — bench__cuda_copy_gbs for builds without nvcc: the
 * device's bandwidth cannot be measured, and the report says why. */
#include <stdio.h>

#include "devcopy.h"

int bench__cuda_copy_gbs(size_t bytes, int passes, double *gbs, char *why,
                         size_t why_cap) {
    (void)bytes;
    (void)passes;
    (void)gbs;
    snprintf(why, why_cap, "this build has no CUDA (nvcc was not found)");
    return -1;
}
