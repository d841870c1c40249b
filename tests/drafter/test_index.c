/* Tests of drafter/index.c: both n-gram indexes against a naive scan, on
 * sequences over a small alphabet (many repeats, many collisions). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../drafter/index.h"

enum { N = 3000 };

static void fill(int32_t *t, int32_t n, uint64_t seed, int32_t alphabet) {
    for (int32_t i = 0; i < n; i++)
        t[i] = (int32_t)(sb_hash3(seed, (uint64_t)i, 0) % (uint64_t)alphabet);
}

/* For every gram and a few `from` positions: the bucket holds every
 * occurrence, ascending, and `first` is the first one >= from. */
static void test_static_index_finds_every_occurrence(void **state) {
    (void)state;
    static int32_t t[N];
    for (int32_t g = 1; g <= 3; g++) {
        fill(t, N, (uint64_t)g, 5);
        drf__sindex x;
        sb_err err = {0};
        assert_int_equal(drf__sindex_build(&x, t, N, g, &err), 0);
        for (int32_t q = 0; q + g <= N; q += 7) {
            int32_t from = (q * 13) % N;
            int32_t n, first;
            const int32_t *pos = drf__sindex_bucket(&x, t + q, from, &n, &first);
            /* the occurrences, in order, among the bucket's positions */
            int32_t k = 0, want_first = -1;
            for (int32_t p = 0; p + g <= N; p++) {
                if (!drf__gram_eq(t, p, t, q, g)) continue;
                while (k < n && pos[k] != p) {
                    assert_false(drf__gram_eq(t, pos[k], t, q, g));
                    k++;
                }
                assert_true(k < n); /* p is in the bucket */
                if (want_first < 0 && p >= from) want_first = k;
                k++;
            }
            for (int32_t i = 1; i < n; i++) assert_true(pos[i - 1] < pos[i]);
            /* first: the first bucket entry >= from (occurrence or not) */
            int32_t f = 0;
            while (f < n && pos[f] < from) f++;
            assert_int_equal(first, f);
            if (want_first >= 0) assert_true(first <= want_first);
        }
        drf__sindex_free(&x);
    }
}

/* Too short for a single gram: every lookup is empty. */
static void test_static_index_empty(void **state) {
    (void)state;
    int32_t t[2] = {4, 5};
    drf__sindex x;
    sb_err err = {0};
    assert_int_equal(drf__sindex_build(&x, t, 2, 3, &err), 0);
    int32_t key[3] = {4, 5, 6}, n = -1, first = -1;
    drf__sindex_bucket(&x, key, 0, &n, &first);
    assert_int_equal(n, 0);
    assert_int_equal(first, 0);
    drf__sindex_free(&x);
    assert_int_equal(drf__sindex_build(&x, NULL, 0, 1, &err), 0);
    drf__sindex_bucket(&x, key, 0, &n, &first);
    assert_int_equal(n, 0);
    drf__sindex_free(&x);
}

/* Grown a few tokens at a time, the chained index lists every occurrence
 * of a gram newest first. */
static void test_history_index_newest_first(void **state) {
    (void)state;
    static int32_t t[N];
    fill(t, N, 9, 4);
    drf__hindex *x = malloc(sizeof *x);
    assert_non_null(x);
    drf__hindex_init(x, 2);
    for (int32_t n = 0; n <= N; n += 1 + n % 5) {
        assert_true(drf__hindex_update(x, t, n));
        if (n < 2) continue;
        const int32_t *key = t + n - 2;
        int32_t want = n - 2; /* walk the naive occurrences downwards */
        for (int32_t p = drf__hindex_newest(x, key); p >= 0; p = x->prev[p]) {
            if (!drf__gram_eq(t, p, key, 0, 2)) continue;
            while (!drf__gram_eq(t, want, key, 0, 2)) want--;
            assert_int_equal(p, want);
            want--;
        }
        while (want >= 0) assert_false(drf__gram_eq(t, want--, key, 0, 2));
    }
    drf__hindex_free(x);
    free(x);
}

static void test_seq_push(void **state) {
    (void)state;
    drf__seq s = {0};
    int32_t ids[300];
    for (int i = 0; i < 300; i++) ids[i] = i;
    for (int r = 0; r < 10; r++) assert_true(drf__seq_push(&s, ids, 300));
    assert_int_equal(s.n, 3000);
    assert_int_equal(s.v[2999], 299);
    assert_true(drf__seq_push(&s, ids, 0));
    assert_int_equal(s.n, 3000);
    drf__seq_free(&s);
    assert_null(s.v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_index_finds_every_occurrence),
        cmocka_unit_test(test_static_index_empty),
        cmocka_unit_test(test_history_index_newest_first),
        cmocka_unit_test(test_seq_push),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
