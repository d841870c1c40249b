/* Tests of base/: error records, checked arithmetic, hashing, SHA-256. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../base/base.h"

static void test_err_first_wins(void **state) {
    (void)state;
    sb_err e = {0};
    assert_int_equal(sb_err_set(&e, "f", "field %s is %d", "x", 3), -1);
    assert_string_equal(e.msg, "f: field x is 3");
    sb_err_set(&e, "g", "second");
    assert_string_equal(e.msg, "f: field x is 3");
    assert_int_equal(sb_err_set(NULL, "f", "no record"), -1);
}

static void test_err_truncates_long_message(void **state) {
    (void)state;
    sb_err e = {0};
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sb_err_set(&e, "f", "%s", big);
    assert_int_equal(strlen(e.msg), sizeof e.msg - 1);
}

static void test_checked_arithmetic(void **state) {
    (void)state;
    uint64_t r;
    assert_true(sb_mul_u64(1ull << 31, 1ull << 32, &r));
    assert_true(r == 1ull << 63);
    assert_false(sb_mul_u64(1ull << 32, 1ull << 32, &r));
    assert_true(sb_add_u64(UINT64_MAX - 1, 1, &r));
    assert_false(sb_add_u64(UINT64_MAX, 1, &r));
}

static void test_hash_is_pure_and_spread(void **state) {
    (void)state;
    assert_true(sb_hash3(1, 2, 3) == sb_hash3(1, 2, 3));
    assert_true(sb_hash3(1, 2, 3) != sb_hash3(1, 3, 2));
    assert_true(sb_hash3(1, 2, 3) != sb_hash3(2, 2, 3));
    /* The open unit interval really is open at both ends. */
    assert_true(sb_unit_open(0) > 0.0f);
    assert_true(sb_unit_open(UINT64_MAX) < 1.0f);
}

static void test_sha256_known_vectors(void **state) {
    (void)state;
    char hex[65];
    sb_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sb_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* Streaming in pieces gives the same digest as one shot. */
    sb_sha256 *s = sb_sha256_begin();
    assert_non_null(s);
    sb_sha256_update(s, "a", 1);
    sb_sha256_update(s, "bc", 2);
    sb_sha256_final(s, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_err_first_wins),
        cmocka_unit_test(test_err_truncates_long_message),
        cmocka_unit_test(test_checked_arithmetic),
        cmocka_unit_test(test_hash_is_pure_and_spread),
        cmocka_unit_test(test_sha256_known_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
