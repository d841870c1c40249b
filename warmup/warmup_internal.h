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
/* wu_table_make without the step costs (an import checks bits, and
 * measures nothing it does not need). */
int wu__table_describe(eng_session *s, eng_model *m, wu_table *t, sb_err *err);

#endif /* SB_WARMUP_INTERNAL_H */
