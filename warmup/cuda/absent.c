/* absent.c — wu__cuda_facts where this build has no CUDA: nothing known. */
#include "facts.h"

void wu__cuda_facts(char *cc, size_t cap, int32_t *driver, int32_t *runtime) {
    if (cap) cc[0] = '\0';
    *driver = 0;
    *runtime = 0;
}
