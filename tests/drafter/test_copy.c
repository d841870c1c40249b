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

/* A flat step cost: every draft token is free, so a proposal shows all
 * the drafter would copy, whatever the length rule (test_length.c tests
 * that) would cut it to. */
static const stepcost_table *flat_costs(void) {
    static stepcost_table flat;
    stepcost_table_empty(&flat, "flat");
    for (int r = 1; r <= KRN_MAX_ROWS; r++) flat.listed[r] = 1;
    return &flat;
}

static drf_copy *make_with(const int32_t *src, int32_t n, drf_copy_opts o) {
    sb_err err = {0};
    if (!o.step_costs) o.step_costs = flat_costs();
    drf_copy *c = drf_copy_create(src, n, &o, &err);
    if (!c) fail_msg("drf_copy_create: %s", err.msg);
    return c;
}

/* The lookup tests: lookups only (the departure rules add guesses where a
 * lookup finds nothing; their own tests are below). */
static drf_copy *make(const int32_t *src, int32_t n, bool source_only) {
    return make_with(src, n, (drf_copy_opts){.source_only = source_only,
                                             .lookup_only = true});
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

/* ==== departures =========================================================== */

/* src[i] = 1000 + i: every token once. */
static void distinct(int32_t *src, int32_t n) {
    for (int32_t i = 0; i < n; i++) src[i] = 1000 + i;
}

/* The output follows src[0..k), writes `other` instead of src[k], then
 * src[k + 1] (a token replaced): the token after it is drafted at once, by
 * a resume just past the departure; lookups alone find nothing (the two
 * last tokens never occur together in the source). */
static void test_resume_after_replaced_token(void **state) {
    (void)state;
    int32_t src[200], prompt[1] = {7}, draft[MAXD];
    distinct(src, 200);
    for (int lookup_only = 0; lookup_only < 2; lookup_only++) {
        drf_copy *c = make_with(src, 200, (drf_copy_opts){
                                              .source_only = true,
                                              .starts_like_source = true,
                                              .lookup_only = lookup_only});
        drafter_run r;
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, src, 50);
        drafter_run_commit(&r, (int32_t[]){99}, 1); /* instead of src[50] */
        drafter_run_commit(&r, src + 51, 1);
        int32_t d = drafter_run_propose(&r, MAXD, draft);
        if (lookup_only) {
            assert_int_equal(d, 0);
        } else {
            assert_true(d >= 1);
            assert_memory_equal(draft, src + 52, (size_t)d * sizeof *draft);
        }
        drf_copy_destroy(c);
    }
}

/* No resume beyond the departure's neighbourhood: a token seen again far
 * after it is not taken for the output coming back. */
static void test_no_resume_far_away(void **state) {
    (void)state;
    int32_t src[200], prompt[1] = {7}, draft[MAXD];
    distinct(src, 200);
    drf_copy *c = make_with(src, 200, (drf_copy_opts){.source_only = true,
                                                      .starts_like_source = true});
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, src, 50);
    drafter_run_commit(&r, (int32_t[]){99, src[150]}, 2);
    int32_t d = drafter_run_propose(&r, MAXD, draft);
    /* one token's evidence anywhere is still a guess: its latest place */
    assert_true(d >= 1);
    assert_int_equal(draft[0], src[151]);
    drf_copy_destroy(c);
}

/* With nothing to look up, the token just written is looked for alone:
 * its latest occurrence in the history, then the source; lookups alone
 * draft nothing. */
static void test_one_token_guess(void **state) {
    (void)state;
    int32_t prompt[1] = {7}, draft[MAXD];
    for (int lookup_only = 0; lookup_only < 2; lookup_only++) {
        drf_copy *c = make_with(NULL, 0, (drf_copy_opts){.lookup_only =
                                                             lookup_only});
        drafter_run r;
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, (int32_t[]){1, 2, 3, 4, 5, 9, 3}, 7);
        int32_t d = drafter_run_propose(&r, MAXD, draft);
        if (lookup_only) {
            assert_int_equal(d, 0);
        } else {
            assert_true(d >= 2);
            assert_int_equal(draft[0], 4);
            assert_int_equal(draft[1], 5);
        }
        drf_copy_destroy(c);
    }
}

/* A span the output comes back to near where it left the source is
 * trusted further than the same span found far from it: under a step cost
 * that grows with the rows, its first draft is longer. */
static void test_near_spans_draft_longer(void **state) {
    (void)state;
    stepcost_table linear;
    stepcost_table_empty(&linear, "linear");
    for (int r = 1; r <= KRN_MAX_ROWS; r++) linear.listed[r] = 10 + r;
    int32_t len[2];
    for (int far = 0; far < 2; far++) {
        int32_t src[1000], prompt[1] = {7}, draft[MAXD];
        distinct(src, 1000);
        /* A B, the output's way back, at 60 (near its departure at 50) or
         * at 600 (far) */
        const int32_t at = far ? 600 : 60;
        src[at] = A;
        src[at + 1] = B;
        drf_copy *c = make_with(src, 1000, (drf_copy_opts){
                                               .source_only = true,
                                               .starts_like_source = true,
                                               .step_costs = &linear});
        drafter_run r;
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, src, 50);
        drafter_run_commit(&r, (int32_t[]){99, 98, A, B}, 4);
        len[far] = drafter_run_propose(&r, MAXD, draft);
        assert_true(len[far] >= 1);
        assert_int_equal(draft[0], src[at + 2]);
        drf_copy_destroy(c);
    }
    assert_true(len[0] > len[1]);
}

/* ==== edits replayed ======================================================= */

enum { X = 60, Y = 61 };

/* A rename: once the output has written Y for X and come back (a span
 * found after it held its first token), the next X of the source is
 * drafted as Y; in both modes. */
static void test_substitution_replays_rename(void **state) {
    (void)state;
    const int32_t src[] = {10, 11, 12, X, 13, 14, 15, 16, X, 17, 18, 19};
    const int32_t out[] = {10, 11, 12, Y, 13, 14, 15, 16, Y, 17, 18, 19};
    int32_t prompt[1] = {7}, draft[MAXD];
    for (int lookup_only = 0; lookup_only < 2; lookup_only++) {
        drf_copy *c = make_with(src, 12, (drf_copy_opts){
                                             .source_only = true,
                                             .starts_like_source = true,
                                             .lookup_only = lookup_only});
        drafter_run r;
        drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
        drafter_run_commit(&r, out, 6); /* 10 11 12 Y 13 14 */
        assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
        assert_int_equal(draft[0], 15); /* back in the source */
        drafter_run_commit(&r, out + 6, 1);
        int32_t d = drafter_run_propose(&r, MAXD, draft);
        assert_true(d >= 4);
        assert_memory_equal(draft, out + 7, 4 * sizeof *draft); /* 16 Y 17 18 */
        drf_copy_destroy(c);
    }
}

/* A replacement the output does not repeat is dropped: drafts copy the
 * source again. */
static void test_substitution_dropped_when_not_followed(void **state) {
    (void)state;
    const int32_t src[] = {10, X, 11, 12, 13, X, 14, 15, 16, X, 17, 18};
    const int32_t out[] = {10, Y, 11, 12, 13, X, 14, 15, 16, X, 17, 18};
    int32_t prompt[1] = {7}, draft[MAXD];
    drf_copy *c = make_with(src, 12, (drf_copy_opts){.source_only = true,
                                                     .starts_like_source = true});
    drafter_run r;
    drafter_run_start(&r, drf_copy_drafter(c), prompt, 1);
    drafter_run_commit(&r, out, 3);                  /* 10 Y 11 */
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 1);
    assert_int_equal(draft[0], 12);                  /* resumed after 11 */
    drafter_run_commit(&r, out + 3, 1);              /* 12: back */
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 2);
    assert_int_equal(draft[0], 13);
    assert_int_equal(draft[1], Y);                   /* replayed */
    drafter_run_commit(&r, out + 4, 2);              /* 13 X: not followed */
    assert_true(drafter_run_propose(&r, MAXD, draft) >= 4);
    assert_memory_equal(draft, out + 6, 4 * sizeof *draft); /* 14 15 16 X */
    drf_copy_destroy(c);
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
        cmocka_unit_test(test_resume_after_replaced_token),
        cmocka_unit_test(test_no_resume_far_away),
        cmocka_unit_test(test_one_token_guess),
        cmocka_unit_test(test_near_spans_draft_longer),
        cmocka_unit_test(test_substitution_replays_rename),
        cmocka_unit_test(test_substitution_dropped_when_not_followed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
