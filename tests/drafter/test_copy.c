/* Tests of drafter/copy.c, driven through its eng_drafter table the way
 * the engine drives it (begin, then propose/accept per step), on scripted
 * token sequences: no model needed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../drafter/drafter.h"
#include "../support/drafter_run.h"

enum { A = 50, B = 51, MAXD = ENG_MAX_DRAFT };

/* A copy drafter over src with a flat step cost: every draft token is
 * free, so a proposal shows all the drafter would copy, whatever the
 * length rule (test_length.c tests that) would cut it to. */
static drf_copy *make(const int32_t *src, int32_t n, bool source_only) {
    sb_err err = {0};
    stepcost_table flat;
    stepcost_table_empty(&flat, "flat");
    for (int r = 1; r <= KRN_MAX_ROWS; r++) flat.listed[r] = 1;
    drf_copy *c = drf_copy_create(src, n,
                                  &(drf_copy_opts){.source_only = source_only,
                                                   .step_costs = &flat},
                                  &err);
    if (!c) fail_msg("drf_copy_create: %s", err.msg);
    return c;
}

/* A span of the source is found from the output's last tokens, and drafts
 * continue it. */
static void test_finds_continuation(void **state) {
    (void)state;
    int32_t src[100], prompt[2] = {900, 901}, draft[MAXD];
    for (int i = 0; i < 100; i++) src[i] = 100 + i;
    drf_copy *c = make(src, 100, true);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 2);
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0); /* prompt not in source */
    drafter_run_commit(&r, (int32_t[]){120, 121}, 2);
    int32_t d = drafter_run_propose(&r, MAXD, draft);
    assert_true(d >= 1);
    for (int32_t i = 0; i < d; i++) assert_int_equal(draft[i], 122 + i);
    /* max_draft bounds it; the end of the source too */
    assert_int_equal(drafter_run_propose(&r, 1, draft), 1);
    assert_int_equal(draft[0], 122);
    drafter_run_commit(&r, (int32_t[]){196, 197}, 2); /* a jump: the cursor is lost */
    d = drafter_run_propose(&r, MAXD, draft);
    assert_int_equal(d, 2);
    assert_int_equal(draft[0], 198);
    assert_int_equal(draft[1], 199);
    drf_copy_destroy(c);
}

/* Two occurrences of A B with the same agreement: the one at or after the
 * last copied position wins; with nothing copied, the first; past both,
 * the search wraps around to the first. */
static void test_prefers_next_in_source_order(void **state) {
    (void)state;
    const int32_t src[] = {1, 2, A, B, 3, 4, 5, 6, 7, A, B, 8, 9, 10, 11, 12};
    const int32_t n = (int32_t)(sizeof src / sizeof *src);
    int32_t prompt[1] = {900}, draft[MAXD];
    for (int so = 0; so < 2; so++) {
        drf_copy *c = make(src, n, so);
        drafter_run r;
        /* nothing copied yet: the first occurrence */
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, (int32_t[]){99, A, B}, 3);
        assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
        assert_int_equal(draft[0], 3);
        /* copied up to 7 (position 9), then diverged: the second */
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, src, 2);
        assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
        assert_int_equal(draft[0], A);
        drafter_run_commit(&r, src + 2, 7); /* follows the source through 7 */
        drafter_run_commit(&r, (int32_t[]){99, A, B}, 3);
        assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
        assert_int_equal(draft[0], 8);
        /* copied to the end, then A B again: wraps to the first */
        drafter_run_commit(&r, src + 11, 5);
        drafter_run_commit(&r, (int32_t[]){98, A, B}, 3);
        assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
        assert_int_equal(draft[0], 3);
        drf_copy_destroy(c);
    }
}

/* The occurrence whose preceding tokens agree with the output for longest
 * wins over source order. */
static void test_longest_agreement_wins(void **state) {
    (void)state;
    const int32_t src[] = {10, 11, A, B, 3, 4, 20, 21, A, B, 5, 6};
    int32_t prompt[1] = {900}, draft[MAXD];
    drf_copy *c = make(src, 12, true);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, (int32_t[]){77, 21, A, B}, 4);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 5);
    drf_copy_destroy(c);
}

static void test_no_match(void **state) {
    (void)state;
    const int32_t src[] = {1, 2, 3, 4};
    int32_t prompt[1] = {5}, draft[MAXD];
    drf_copy *c = make(src, 4, false);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1); /* history shorter than a gram */
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drafter_run_commit(&r, (int32_t[]){6, 7}, 2);
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drafter_run_commit(&r, (int32_t[]){3, 4}, 2); /* found, but nothing follows */
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drf_copy_destroy(c);
    /* an empty source copies from the history only */
    c = make(NULL, 0, false);
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, (int32_t[]){6, 7, 8, 6, 7}, 5);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 8);
    drf_copy_destroy(c);
}

/* A loop in the output is drafted from the output itself, to any length:
 * past the history's end the draft repeats itself. */
static void test_self_copy_extends_loops(void **state) {
    (void)state;
    int32_t prompt[1] = {7}, draft[MAXD];
    drf_copy *c = make(NULL, 0, false);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, (int32_t[]){1, 2, 3, 1, 2, 3, 1, 2}, 8);
    int32_t d = drafter_run_propose(&r, MAXD, draft);
    assert_true(d >= 4);
    for (int32_t i = 0; i < d; i++) assert_int_equal(draft[i], 1 + (i + 2) % 3);
    drf_copy_destroy(c);
}

/* While the output follows the span, the running acceptance rises and
 * with it the draft length (the cost-table rule of drafter/length.h),
 * never falling, up to max_draft; a divergence drops the span and a
 * lookup finds the new one. */
static void test_length_grows_while_span_holds(void **state) {
    (void)state;
    int32_t src[1000], prompt[1] = {9000}, draft[MAXD];
    for (int i = 0; i < 1000; i++) src[i] = 1000 + i;
    drf_copy *c = make(src, 1000, true);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, src, 2);
    int32_t last = 0, at = 2;
    for (int step = 0; step < 12 && last < MAXD; step++) {
        int32_t d = drafter_run_propose(&r, MAXD, draft);
        assert_true(d >= last);
        assert_memory_equal(draft, src + at, (size_t)d * sizeof *draft);
        drafter_run_commit(&r, src + at, d + 1); /* all accepted, and the bonus */
        at += d + 1;
        last = d;
    }
    assert_int_equal(last, MAXD);
    drafter_run_commit(&r, (int32_t[]){5}, 1); /* diverged */
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drafter_run_commit(&r, src + 900, 2);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], src[902]);
    drf_copy_destroy(c);
}

/* begin forgets the previous generation's history and cursor. */
static void test_begin_resets(void **state) {
    (void)state;
    int32_t prompt[1] = {7}, draft[MAXD];
    drf_copy *c = make(NULL, 0, false);
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, (int32_t[]){1, 2, 3, 1, 2}, 5);
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, (int32_t[]){1, 2}, 2);
    assert_int_equal(drafter_run_propose(&r, MAXD, draft), 0);
    drf_copy_destroy(c);
}

static void test_bad_options(void **state) {
    (void)state;
    sb_err err = {0};
    int32_t src[1] = {1};
    assert_null(drf_copy_create(src, 1, &(drf_copy_opts){.min_match = 4}, &err));
    assert_non_null(strstr(err.msg, "min_match"));
    memset(&err, 0, sizeof err);
    assert_null(drf_copy_create(src, -1, NULL, &err));
    assert_non_null(strstr(err.msg, "source"));
    memset(&err, 0, sizeof err);
    assert_null(drf_copy_create(NULL, 5, NULL, &err));
    assert_non_null(strstr(err.msg, "source"));
    drf_copy_destroy(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finds_continuation),
        cmocka_unit_test(test_prefers_next_in_source_order),
        cmocka_unit_test(test_longest_agreement_wins),
        cmocka_unit_test(test_no_match),
        cmocka_unit_test(test_self_copy_extends_loops),
        cmocka_unit_test(test_length_grows_while_span_holds),
        cmocka_unit_test(test_begin_resets),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
