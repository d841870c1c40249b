/*
 * drafter_run.h — test support: drives an eng_drafter the way the engine's
 * speculative loop does (begin, then propose and accept per step) over a
 * scripted output, for the drafter tests.
 *
 *     drafter_run r;
 *     drafter_run_start(&r, drf_copy_drafter(c), prompt, n_prompt);
 *     drafter_run_commit(&r, ids, n);            // the "model" produced ids
 *     int32_t d = drafter_run_propose(&r, 8, draft);
 */
#ifndef SB_TESTS_DRAFTER_RUN_H
#define SB_TESTS_DRAFTER_RUN_H

#include <stdint.h>

#include "../../engine/engine.h"

enum { DRAFTER_RUN_MAX_OUT = 512 };

typedef struct drafter_run {
    eng_drafter d;                       /* borrowed table */
    int32_t out[DRAFTER_RUN_MAX_OUT];    /* the output so far */
    int32_t n_out;
} drafter_run;

/* Starts a generation after the prompt: an empty output, then begin. */
void drafter_run_start(drafter_run *r, eng_drafter d, const int32_t *prompt,
                       int32_t n_prompt);
/* Appends n committed ids to the output and reports them through accept. */
void drafter_run_commit(drafter_run *r, const int32_t *ids, int32_t n);
/* The drafter's guesses after the output, at most max; fails the test if
 * it returns a count outside 0..max. */
int32_t drafter_run_propose(drafter_run *r, int32_t max, int32_t *draft);

#endif
