/*
 * ref_logits.h — test support for checking the engine's logits against a
 * reference made elsewhere (transformers, tools/): the weights hash the
 * references are keyed by, the engine's logits at every position, and the
 * error measures the tests bound.
 */
#ifndef SB_TESTS_REF_LOGITS_H
#define SB_TESTS_REF_LOGITS_H

#include <stdint.h>

#include "../../engine/engine.h"

/* An SBREF002 file (layout: tools/reference_logits.py): the SHA-256 of the
 * weights it was made from (test_weights_sha256), then per prompt its ids
 * and the reference's logits at every position. */
typedef struct test_ref_prompt {
    uint32_t n_tokens, n_vocab;
    int32_t *ids;     /* n_tokens */
    float *logits;    /* n_tokens * n_vocab */
} test_ref_prompt;

typedef struct test_ref_file {
    char sha[65];
    uint32_t n_prompts;
    test_ref_prompt *prompts;
} test_ref_file;

/* Reads the whole file (relative paths: from the repository root); fails
 * the test when it cannot be read or is malformed. Free with test_ref_free. */
test_ref_file *test_ref_load(const char *path);
void test_ref_free(test_ref_file *r);

/* SHA-256 of a model file's tensor data section, from its start to the end
 * of the file: the weights, which is all the logits depend on besides the
 * ids (tools/reference_logits.py and tools/train/trained_ref.py hash the
 * same bytes). Fails the test when the file cannot be opened. */
void test_weights_sha256(const char *path, char hex[65]);

/* The logits at every position of ids[0..n-1] from an empty cache, run as
 * verify steps of 64 rows: n * n_vocab floats, malloc'd (caller frees).
 * Fails the test on an engine error. */
float *test_all_logits(eng_session *s, const int32_t *ids, int64_t n);

/* The index of the largest of v[0..n-1], the lowest on a tie (greedy). */
int32_t test_argmax(const float *v, int64_t n);

/* Largest |got - want| over the largest |want| of one position. */
double test_scaled_error(const float *got, const float *want, int64_t n);

/* Sorts v[0..n-1] (n >= 1) ascending; its median v[n/2] and its largest
 * into *median and *worst. */
void test_median_worst(double *v, int n, double *median, double *worst);

#endif
