/*
 * tiny_model.h — test support: synthetic tiny models made on demand.
 */
#ifndef SB_TESTS_TINY_MODEL_H
#define SB_TESTS_TINY_MODEL_H

#include "../../engine/engine.h"
#include "../../mkmodel/mkmodel.h"

/* Writes (once per process and recipe) `sb mkmodel --shape tiny --quant R
 * --seed 1` into a temporary directory and returns its path, owned by this
 * module; the files are removed at exit. Fails the test (abort) if the model
 * cannot be made. */
const char *test_tiny_model_path(mk_recipe recipe);

/* Loads that model; the caller frees it with eng_model_free. */
eng_model *test_tiny_model_load(mk_recipe recipe);

/* The build's tokenizer reference files: "$SB_BUILD/tokref/<name>" (SB_BUILD
 * as `make test` exports it; "build" when unset), written into buf. */
void test_tokref_path(char *buf, size_t cap, const char *name);

/* The tiny q8_0 model with a real vocabulary: `sb mkmodel --shape tiny
 * --quant q8_0 --seed 1 --vocab JSON` (the vocabulary fits the tokenizer:
 * Qwen's 151,669 tokens give 151,680 rows of 256). Made once per process in
 * the same temporary directory (about 48 MB, a second to make), removed at
 * exit; every call must pass the same json_path. Aborts if it cannot be
 * made. */
const char *test_vocab_model_path(const char *json_path);

/* Loads that model; the caller frees it with eng_model_free. */
eng_model *test_vocab_model_load(const char *json_path);

/* Writes a model job (mkmodel/mkmodel_internal.h) to path, frees the job, loads the
 * file and removes it. With want == NULL the load must succeed (the model is
 * returned; free with eng_model_free); otherwise it must fail with an error
 * containing `want` (NULL is returned). Fails the cmocka test otherwise. */
struct mk_job;
/* Starts a job for the tiny f32 model with seed 1 (fails the test if it
 * cannot); the caller edits it, then writes it with the function below. */
void test_job_init(struct mk_job *job);
/* Replaces token id's text and type in the job's vocabulary. */
void test_job_set_token(struct mk_job *job, int id, const char *text,
                        int32_t type);
eng_model *test_job_write_and_load(struct mk_job *job, const char *path,
                                   const char *want);

#endif
