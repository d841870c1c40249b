/* Tests of engine/utf8_stream.c: never half a character, never a lost byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../engine/engine.h"

/* Pushes `in` in pieces of `piece` bytes, checks (for valid input) that each
 * release ends on a character boundary, and returns the output length. */
static int64_t push_pieces(const char *in, int64_t n, int piece, char *out,
                           bool check_boundaries) {
    eng_utf8_stream st = {0};
    int64_t total = 0;
    for (int64_t i = 0; i < n; i += piece) {
        int64_t len = n - i < piece ? n - i : piece;
        int64_t got = eng_utf8_stream_push(&st, in + i, len, out + total);
        /* What was released ends on a character boundary: the next input
         * byte, if any, is not a continuation byte. */
        if (check_boundaries && total + got < n)
            assert_true(((unsigned char)in[total + got] & 0xC0) != 0x80);
        total += got;
    }
    total += eng_utf8_stream_flush(&st, out + total);
    return total;
}

static void test_valid_text_every_split(void **state) {
    (void)state;
    const char *text = "a\xC3\xA9" "b\xE2\x82\xAC" "c\xF0\x9F\x98\x80" "d";
    int64_t n = (int64_t)strlen(text);
    for (int piece = 1; piece <= 5; piece++) {
        char out[64];
        int64_t got = push_pieces(text, n, piece, out, true);
        assert_int_equal(got, n);
        assert_memory_equal(out, text, (size_t)n);
    }
}

static void test_invalid_bytes_pass_through(void **state) {
    (void)state;
    /* stray continuation, truncated 3-byte lead then ASCII, 0xFF, lone lead
     * at the end: every byte comes out, in order. */
    const char text[] = "\x80x\xE2\x82y\xFFz\xF0";
    int64_t n = (int64_t)sizeof text - 1;
    for (int piece = 1; piece <= 3; piece++) {
        char out[64];
        int64_t got = push_pieces(text, n, piece, out, false);
        assert_int_equal(got, n);
        assert_memory_equal(out, text, (size_t)n);
    }
}

static void test_holds_incomplete_char(void **state) {
    (void)state;
    eng_utf8_stream st = {0};
    char out[16];
    assert_int_equal(eng_utf8_stream_push(&st, "\xE2\x82", 2, out), 0);
    assert_int_equal(eng_utf8_stream_push(&st, "\xAC", 1, out), 3);
    assert_memory_equal(out, "\xE2\x82\xAC", 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_text_every_split),
        cmocka_unit_test(test_invalid_bytes_pass_through),
        cmocka_unit_test(test_holds_incomplete_char),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
