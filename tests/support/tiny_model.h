/*
 * tiny_model.h — test support: synthetic tiny models made on demand.
 */
#ifndef SB_TESTS_TINY_MODEL_H
#define SB_TESTS_TINY_MODEL_H

#include "../../engine/engine.h"

/* Writes (once per process and recipe) `sb mkmodel --shape tiny --quant R
 * --seed 1` into a temporary directory and returns its path, owned by this
 * module; the files are removed at exit. Fails the test (abort) if the model
 * cannot be made. */
const char *test_tiny_model_path(eng_recipe recipe);

/* Loads that model; the caller frees it with eng_model_free. */
eng_model *test_tiny_model_load(eng_recipe recipe);

#endif
