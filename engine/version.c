/*
 * version.c — the one place the engine's version is written.
 *
 * Bump it with any change that may change a request's output tokens (a
 * kernel's reduction order, the tokenizer, the prompt's wording, sampling):
 * a session log names the engine that produced it, and replay on another
 * version is then expected to differ, not a bug.
 */
#include "engine.h"

#define ENG__VERSION "0.7.0"

const char *eng_version(void) { return ENG__VERSION; }
