/*
 * facts.h — private to warmup/: the CUDA facts a warm-up table records,
 * in plain C types so that nvcc compiles its one user (device.cu).
 */
#ifndef SB_WARMUP_CUDA_FACTS_H
#define SB_WARMUP_CUDA_FACTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The compute capability of device 0, the one the CUDA backend runs on
 * ("9.0"), into cc[cap], the CUDA version its driver supports and the
 * runtime's; "" and 0 where unknown (device.cu, or absent.c in a build
 * without CUDA). */
void wu__cuda_facts(char *cc, size_t cap, int32_t *driver, int32_t *runtime);

#ifdef __cplusplus
}
#endif

#endif /* SB_WARMUP_CUDA_FACTS_H */
