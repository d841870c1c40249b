/*
 * gguf_private.h — private to engine/gguf.c and mkmodel/gguf_write.c: the
 * limits the reader enforces, which the writer also enforces so that it
 * never produces a file the reader would refuse.
 */
#ifndef SB_ENGINE_GGUF_PRIVATE_H
#define SB_ENGINE_GGUF_PRIVATE_H

#include <stdint.h>

#include "gguf.h"

/* One metadata string (a value or an array element), bytes. Real files hold
 * chat templates of a few KB and, at most, an embedded tokenizer.json of a
 * few MB; anything near this cap is hostile. */
#define GGUF__MAX_STR ((uint64_t)64 << 20)

/* general.alignment when the key is absent, bytes. */
#define GGUF__DEFAULT_ALIGN 32u

/* Type names for messages ("u32", "string", ...); "?" outside 0..12. */
const char *gguf__vtype_name(uint32_t type);

#endif /* SB_ENGINE_GGUF_PRIVATE_H */
