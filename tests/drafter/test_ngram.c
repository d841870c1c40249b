/* Tests of drafter/ngram.c, the prompt-lookup baseline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../drafter/drafter.h"

enum { MAXD = ENG_MAX_DRAFT };

static const int32_t SRC[] = {1, 2, 3, 4, 5, 6, 2, 3, 9, 10, 11, 3, 12};
enum { N_SRC = sizeof SRC / sizeof *SRC };

typedef struct run {
    drf_ngram *g;
    eng_drafter d;
    int32_t out[64];
    int32_t n_out;
} run;

static void start(run *r, int32_t max_n, const int32_t *prompt, int32_t n) {
    sb_err err = {0};
    r->g = drf_ngram_create(SRC, N_SRC, max_n, &err);
    if (!r->g) fail_msg("drf_ngram_create: %s", err.msg);
    r->d = drf_ngram_drafter(r->g);
    r->n_out = 0;
    r->d.begin(r->d.ctx, prompt, n);
}

static void commit(run *r, const int32_t *ids, int32_t n) {
    memcpy(r->out + r->n_out, ids, (size_t)n * sizeof *ids);
    r->n_out += n;
    r->d.accept(r->d.ctx, ids, n);
}

static int32_t propose(run *r, int32_t max, int32_t *draft) {
    return r->d.propose(r->d.ctx, r->out, r->n_out, max, draft);
}

/* The last 3 tokens (prompt tail included) found: what follows them. */
static void test_matches_last_ngram(void **state) {
    (void)state;
    run r;
    int32_t draft[MAXD];
    start(&r, 3, (int32_t[]){1, 2}, 2);
    commit(&r, (int32_t[]){3}, 1);
    int32_t d = propose(&r, MAXD, draft);
    assert_int_equal(d, N_SRC - 3);
    assert_memory_equal(draft, SRC + 3, (size_t)d * sizeof *draft);
    assert_int_equal(propose(&r, 2, draft), 2); /* max_draft bounds it */
    drf_ngram_destroy(r.g);
}

/* "2 3" occurs twice: the first occurrence wins (no notion of order or
 * agreement beyond the n-gram). "7 2 3" does not occur: falls back to
 * n = 2. */
static void test_first_occurrence_and_fallback(void **state) {
    (void)state;
    run r;
    int32_t draft[MAXD];
    start(&r, 3, (int32_t[]){7}, 1);
    commit(&r, (int32_t[]){2, 3}, 2);
    assert_true(propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 4);
    /* n = 1 as the last resort: "3" first occurs at 2 */
    commit(&r, (int32_t[]){8, 3}, 2);
    assert_true(propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 4);
    drf_ngram_destroy(r.g);
}

static void test_no_match(void **state) {
    (void)state;
    run r;
    int32_t draft[MAXD];
    start(&r, 3, (int32_t[]){40}, 1);
    assert_int_equal(propose(&r, MAXD, draft), 0);
    commit(&r, (int32_t[]){12}, 1); /* found, but at the very end */
    assert_int_equal(propose(&r, MAXD, draft), 0);
    drf_ngram_destroy(r.g);
    sb_err err = {0};
    assert_null(drf_ngram_create(SRC, N_SRC, 9, &err));
    assert_non_null(strstr(err.msg, "max_n"));
    memset(&err, 0, sizeof err);
    assert_null(drf_ngram_create(NULL, 3, 3, &err));
    assert_non_null(strstr(err.msg, "source"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_last_ngram),
        cmocka_unit_test(test_first_occurrence_and_fallback),
        cmocka_unit_test(test_no_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
