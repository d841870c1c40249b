/* drafter_run.c — see drafter_run.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "drafter_run.h"

void drafter_run_start(drafter_run *r, eng_drafter d, const int32_t *prompt,
                       int32_t n_prompt) {
    r->d = d;
    r->n_out = 0;
    if (r->d.begin) r->d.begin(r->d.ctx, prompt, n_prompt);
}

void drafter_run_commit(drafter_run *r, const int32_t *ids, int32_t n) {
    assert_true(n >= 0 && r->n_out + n <= DRAFTER_RUN_MAX_OUT);
    memcpy(r->out + r->n_out, ids, (size_t)n * sizeof *ids);
    r->n_out += n;
    if (r->d.accept) r->d.accept(r->d.ctx, ids, n);
}

int32_t drafter_run_propose(drafter_run *r, int32_t max, int32_t *draft) {
    int32_t d = r->d.propose(r->d.ctx, r->out, r->n_out, max, draft);
    assert_true(d >= 0 && d <= max);
    return d;
}
