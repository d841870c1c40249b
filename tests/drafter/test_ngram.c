/* Tests of drafter/ngram.c, the prompt-lookup baseline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../drafter/drafter.h"
#include "../support/drafter_run.h"

enum { MAXD = ENG_MAX_DRAFT };

static const int32_t SRC[] = {1, 2, 3, 4, 5, 6, 2, 3, 9, 10, 11, 3, 12};
enum { N_SRC = sizeof SRC / sizeof *SRC };

/* A prompt-lookup drafter over SRC with n-grams up to max_n, started on
 * prompt; destroy it with drf_ngram_destroy. */
static drf_ngram *start(drafter_run *r, int32_t max_n, const int32_t *prompt, int32_t n) {
    sb_err err = {0};
    drf_ngram *g = drf_ngram_create(SRC, N_SRC, max_n, &err);
    if (!g) fail_msg("drf_ngram_create: %s", err.msg);
    drafter_run_start(r, drf_ngram_drafter(g), prompt, n);
    return g;
}

/* The last 3 tokens (prompt tail included) found: what follows them. */
static void test_matches_last_ngram(void **state) {
    (void)state;
    drafter_run r;
    int32_t draft[MAXD];
    drf_ngram *g = start(&r, 3, (int32_t[]){1, 2}, 2);
    drafter_run_commit(&r, (int32_t[]){3}, 1);
    int32_t d = drafter_run_propose(&r, MAXD, draft);
    assert_int_equal(d, N_SRC - 3);
    assert_memory_equal(draft, SRC + 3, (size_t)d * sizeof *draft);
    assert_int_equal(drafter_run_propose(&r, 2, draft), 2); /* max_draft bounds it */
    drf_ngram_destroy(g);
}

/* "2 3" occurs twice: the first occurrence wins (no notion of order or
 * agreement beyond the n-gram). "7 2 3" does not occur: falls back to
 * n = 2. */
static void test_first_occurrence_and_fallback(void **state) {
    (void)state;
    drafter_run r;
    int32_t draft[MAXD];
    drf_ngram *g = start(&r, 3, (int32_t[]){7}, 1);
    drafter_run_commit(&r, (int32_t[]){2, 3}, 2);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 4);
    /* n = 1 as the last resort: "3" first occurs at 2 */
    drafter_run_commit(&r, (int32_t[]){8, 3}, 2);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 4);
    drf_ngram_destroy(g);
}

static void test_no_match(void **state) {
    (void)state;
    drafter_run r;
    int32_t draft[MAXD];
    drf_ngram *g = start(&r, 3, (int32_t[]){40}, 1);
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drafter_run_commit(&r, (int32_t[]){12}, 1); /* found, but at the very end */
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drf_ngram_destroy(g);
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
