/* Tests of drafter/length.c: step costs from stepcost/, the
 * tokens-per-second rule and running acceptance. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../drafter/length.h"

/* Survival of a draft whose every token holds with probability a. */
static int32_t best_uniform(const drf__cost *c, double a, int32_t max_d) {
    double p[ENG_MAX_DRAFT], s = 1;
    for (int32_t k = 0; k < max_d; k++) p[k] = s *= a;
    return drf__cost_best_len(c, p, max_d);
}

/* With no table the drafter prices every row count as the default table
 * of stepcost/ does (its one home); a table that stops short leaves the
 * rows past it unpriced. */
static void test_default_table(void **state) {
    (void)state;
    drf__cost c;
    stepcost_table t;
    stepcost_table_default(&t);
    assert_int_equal(drf__cost_init(&c, NULL, NULL), 0);
    for (int r = 1; r <= KRN_MAX_ROWS; r++)
        assert_true(c.t[r] == stepcost_table_cost(&t, r));
    sb_err err = {0};
    assert_int_equal(stepcost_table_parse("1 1\n8 2\n", 8, &t, &err), 0);
    assert_int_equal(drf__cost_init(&c, &t, NULL), 0);
    assert_true(c.t[8] == 2 && c.t[9] == DRF__UNPRICED);
    assert_int_equal(best_uniform(&c, 1.0, ENG_MAX_DRAFT), 7);
}

/* More acceptance never shortens the draft; certain acceptance fills the
 * largest bucket, none drafts nothing. */
static void test_monotone_in_acceptance(void **state) {
    (void)state;
    drf__cost c;
    drf__cost_init(&c, NULL, NULL);
    int32_t last = 0;
    for (int i = 0; i <= 1000; i++) {
        int32_t d = best_uniform(&c, i / 1000.0, ENG_MAX_DRAFT);
        assert_true(d >= last);
        last = d;
    }
    assert_int_equal(best_uniform(&c, 1.0, ENG_MAX_DRAFT), ENG_MAX_DRAFT);
    assert_int_equal(best_uniform(&c, 0.0, ENG_MAX_DRAFT), 0);
    assert_int_equal(best_uniform(&c, 1.0, 5), 5); /* max_d bounds it */
}

/* Rows past a graph bucket cost the whole next bucket: a draft never
 * stops part-way into one (17..23, 25..31, 33..47, 49..63 rows). */
static void test_respects_bucket_jumps(void **state) {
    (void)state;
    drf__cost c;
    drf__cost_init(&c, NULL, NULL);
    for (int i = 1; i < 1000; i++) {
        int32_t rows = best_uniform(&c, i / 1000.0, ENG_MAX_DRAFT) + 1;
        assert_true(rows <= 16 || rows == 24 || rows == 32 || rows == 48 ||
                    rows == 64);
    }
}

/* Tables of every row count, as a caller gives them. */
static void table_of(stepcost_table *t, const double cost[65]) {
    stepcost_table_empty(t, "test");
    for (int r = 1; r <= 64; r++) t->listed[r] = cost[r];
}

/* A caller's table replaces the default: flat cost drafts everything that
 * may hold; cost that doubles with each row, none. */
static void test_custom_table(void **state) {
    (void)state;
    double flat[65], steep[65];
    for (int r = 0; r <= 64; r++) flat[r] = 1, steep[r] = ldexp(1.0, r);
    drf__cost c;
    stepcost_table t;
    table_of(&t, flat);
    assert_int_equal(drf__cost_init(&c, &t, NULL), 0);
    assert_int_equal(best_uniform(&c, 0.9, ENG_MAX_DRAFT), ENG_MAX_DRAFT);
    table_of(&t, steep);
    assert_int_equal(drf__cost_init(&c, &t, NULL), 0);
    assert_int_equal(best_uniform(&c, 0.99, ENG_MAX_DRAFT), 0);
    /* a table where 8 rows cost as little as 1 and 9 jump: exactly 7 */
    double jump[65];
    for (int r = 0; r <= 64; r++) jump[r] = r <= 8 ? 1 : 100;
    table_of(&t, jump);
    assert_int_equal(drf__cost_init(&c, &t, NULL), 0);
    assert_int_equal(best_uniform(&c, 0.9, ENG_MAX_DRAFT), 7);
    /* a table filled by hand with a bad cost is refused by its source */
    sb_err err = {0};
    flat[12] = -1;
    table_of(&t, flat);
    assert_int_equal(drf__cost_init(&c, &t, &err), -1);
    assert_non_null(strstr(err.msg, "'test'"));
    flat[12] = NAN;
    table_of(&t, flat);
    memset(&err, 0, sizeof err);
    assert_int_equal(drf__cost_init(&c, &t, &err), -1);
}

/* Rates follow what is observed; a token of a kind that lately failed
 * makes a draft stop before it instead of running past it. */
static void test_acceptance_cuts_drafts(void **state) {
    (void)state;
    drf__accept a;
    drf__accept_init(&a, false);
    double before = drf__accept_rate(&a, DRF__KIND_INSIDE);
    for (int i = 0; i < 200; i++) drf__accept_observe(&a, DRF__KIND_INSIDE, true);
    assert_true(drf__accept_rate(&a, DRF__KIND_INSIDE) > before);
    assert_true(drf__accept_rate(&a, DRF__KIND_INSIDE) > 0.99);
    for (int i = 0; i < 200; i++)
        drf__accept_observe(&a, DRF__KIND_YOUNG, false);
    assert_true(drf__accept_rate(&a, DRF__KIND_YOUNG) < 0.2);
    drf__cost c;
    drf__cost_init(&c, NULL, NULL);
    uint8_t kind[ENG_MAX_DRAFT];
    memset(kind, DRF__KIND_INSIDE, sizeof kind);
    int32_t free_run = drf__draft_len(&c, &a, kind, ENG_MAX_DRAFT);
    kind[10] = DRF__KIND_YOUNG; /* a token that lately always failed */
    int32_t cut = drf__draft_len(&c, &a, kind, ENG_MAX_DRAFT);
    assert_true(free_run > 10);
    assert_int_equal(cut, 10);
}

/* Every kind starts at a rate strictly inside (0, 1); the baseline's
 * priors (lookup_only) are its own. */
static void test_priors(void **state) {
    (void)state;
    drf__accept a, plain;
    drf__accept_init(&a, false);
    drf__accept_init(&plain, true);
    for (int k = 0; k < DRF__N_KINDS; k++) {
        double r = drf__accept_rate(&a, (drf__kind)k);
        assert_true(r > 0 && r < 1);
    }
    assert_true(drf__accept_rate(&plain, DRF__KIND_INSIDE) <
                drf__accept_rate(&a, DRF__KIND_INSIDE));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_table),
        cmocka_unit_test(test_monotone_in_acceptance),
        cmocka_unit_test(test_respects_bucket_jumps),
        cmocka_unit_test(test_custom_table),
        cmocka_unit_test(test_acceptance_cuts_drafts),
        cmocka_unit_test(test_priors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
