/*
 * warmup_internal.h — private to warmup/: what its files share.
 */
#ifndef SB_WARMUP_INTERNAL_H
#define SB_WARMUP_INTERNAL_H

#include <stddef.h>

#include "cuda/facts.h"
#include "warmup.h"

/* The model's shape as a table states it. */
void wu__shape_of(const eng_model *m, wu_shape *out);

#endif /* SB_WARMUP_INTERNAL_H */
