/*
 * tokenizer/pretok.c: WHATWG UTF-8 repair, NFC, character classes and the
 * qwen2 pre-token split. Every expected split below was derived by hand
 * from the pattern (pretok.c's header) and checked once against node's
 * RegExp running the reference's rewritten pattern; every repair against
 * node's TextDecoder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tokenizer/tokenizer_internal.h"

/* ---- the split ---- */

/* Splits text (well-formed UTF-8, not normalised here) and checks the
 * pieces against want (NULL-terminated). */
static void check_split(const char *text, const char *const *want) {
    int64_t n = (int64_t)strlen(text), at = 0;
    int k = 0;
    while (at < n) {
        int64_t end = tok__pretok_next(text, n, at);
        if (end <= at || end > n) fail_msg("'%s': piece end %lld at %lld", text,
                                           (long long)end, (long long)at);
        if (!want[k])
            fail_msg("'%s': extra piece '%.*s'", text, (int)(end - at), text + at);
        if ((int64_t)strlen(want[k]) != end - at ||
            memcmp(want[k], text + at, (size_t)(end - at)))
            fail_msg("'%s': piece %d is '%.*s', expected '%s'", text, k,
                     (int)(end - at), text + at, want[k]);
        k++;
        at = end;
    }
    if (want[k]) fail_msg("'%s': missing piece '%s'", text, want[k]);
}

#define SPLIT(text, ...) check_split(text, (const char *const[]){__VA_ARGS__, NULL})

/* (?i:'s|'t|'re|'ve|'m|'ll|'d), as the reference runs it: ASCII letters of
 * either case; U+017F (long s) is a letter, not a contraction. */
static void test_contractions(void **state) {
    (void)state;
    SPLIT("it's", "it", "'s");
    SPLIT("IT'S", "IT", "'S");
    SPLIT("we'LL go", "we", "'LL", " go");
    SPLIT("'Re'vE'm'D't", "'Re", "'vE", "'m", "'D", "'t");
    SPLIT("don't", "don", "'t");
    SPLIT("x'\xc5\xbft", "x", "'\xc5\xbft");
    SPLIT("''s", "''", "s");
    SPLIT("'hello", "'hello");
    SPLIT("' s", "'", " s");
    SPLIT("'l", "'l");   /* 'll needs both */
    SPLIT("'", "'");
}

/* [^\r\n\p{L}\p{N}]?\p{L}+ : one leading code point that is not CR, LF, a
 * letter or a digit joins the letters after it. */
static void test_letters(void **state) {
    (void)state;
    SPLIT(" hello", " hello");
    SPLIT("(foo", "(foo");
    SPLIT("\tint x", "\tint", " x");
    SPLIT("\nfoo", "\n", "foo");
    SPLIT("1abc", "1", "abc");
    SPLIT("$var.field", "$var", ".field");
    SPLIT("a_b", "a", "_b");
    SPLIT("__init__", "__", "init", "__");
    SPLIT("x\xc2\xa0y", "x", "\xc2\xa0y");       /* NBSP leads a word */
    SPLIT("a\xe2\x80\xa8" "b", "a", "\xe2\x80\xa8" "b"); /* U+2028 too */
    SPLIT("\xc2\x85(", "\xc2\x85(");             /* U+0085 is not \s */
}

/* \p{N}: one digit per piece, any script. */
static void test_digits(void **state) {
    (void)state;
    SPLIT("12345", "1", "2", "3", "4", "5");
    SPLIT("x\xc2\xb2\xc2\xb3", "x", "\xc2\xb2", "\xc2\xb3");   /* x²³ */
    SPLIT(" 42", " ", "4", "2");
    SPLIT("\xd9\xa1\xd9\xa2", "\xd9\xa1", "\xd9\xa2");         /* Arabic-Indic */
}

/*  ?[^\s\p{L}\p{N}]+[\r\n]* : punctuation runs, one optional leading
 * U+0020, and the newlines right after them. */
static void test_punctuation(void **state) {
    (void)state;
    SPLIT("foo();\n", "foo", "();\n");
    SPLIT(" {\n\n", " {\n\n");
    SPLIT("};\r\n", "};\r\n");
    SPLIT("  {", " ", " {");
    SPLIT("!!\r\r\n\n", "!!\r\r\n\n");
    SPLIT(" !\n ", " !\n", " ");
    SPLIT("\t{", "\t", "{");                    /* only U+0020 may lead */
    SPLIT("\xef\xbb\xbf(", "\xef\xbb\xbf", "("); /* U+FEFF is \s */
}

/* \s*[\r\n]+ | \s+(?!\S) | \s+ */
static void test_whitespace(void **state) {
    (void)state;
    SPLIT("a\r\nb", "a", "\r\n", "b");
    SPLIT("\r\n\r\n  x", "\r\n\r\n", " ", " x");
    SPLIT("a   b", "a", "  ", " b");
    SPLIT("trailing   ", "trailing", "   ");
    SPLIT("x  ", "x", "  ");
    SPLIT("x \n", "x", " \n");
    SPLIT("x \n y", "x", " \n", " y");
    SPLIT("   ", "   ");
    SPLIT("\t\tfoo", "\t", "\tfoo");
    SPLIT("\v\fz", "\v", "\fz");
    SPLIT("\xc2\xa0\xc2\xa0(", "\xc2\xa0", "\xc2\xa0", "(");
    SPLIT("a \xe3\x80\x80" "b", "a", " ", "\xe3\x80\x80" "b"); /* U+3000 */
    SPLIT("\xe2\x80\xa8\n", "\xe2\x80\xa8\n");
}

static void test_scripts_and_emoji(void **state) {
    (void)state;
    SPLIT("\xe6\xbc\xa2\xe5\xad\x97\xe3\x81\x8b\xe3\x81\xaa",  /* 漢字かな */
          "\xe6\xbc\xa2\xe5\xad\x97\xe3\x81\x8b\xe3\x81\xaa");
    SPLIT("\xd0\x9f\xd1\x80\xd0\xb8 \xd0\xbc\xd0\xb8\xd1\x80",  /* При мир */
          "\xd0\x9f\xd1\x80\xd0\xb8", " \xd0\xbc\xd0\xb8\xd1\x80");
    SPLIT("\xd9\x85\xd8\xb1 \xd8\xa8\xd9\x83",                  /* Arabic */
          "\xd9\x85\xd8\xb1", " \xd8\xa8\xd9\x83");
    SPLIT("hi \xf0\x9f\x99\x82!", "hi", " \xf0\x9f\x99\x82!");  /* 🙂 */
    SPLIT("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",        /* ZWJ seq */
          "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9");
    /* marks that do not compose stay a run of their own after the letter */
    SPLIT("x\xcc\x81\xcc\x82", "x", "\xcc\x81\xcc\x82");
}

/* Combining marks are split after NFC: e + U+0301 is one letter. */
static void test_split_after_nfc(void **state) {
    (void)state;
    const char *text = "caf" "e\xcc\x81" "s";
    char *norm = NULL;
    int64_t n = 0;
    assert_int_equal(tok__nfc(text, (int64_t)strlen(text), &norm, &n), 0);
    assert_non_null(norm);
    SPLIT(norm, "caf\xc3\xa9s");
    free(norm);
}

/* ---- classes ---- */

static void test_classes(void **state) {
    (void)state;
    for (uint32_t c = 0; c < 128; c++) {
        unsigned want = 0;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) want = TOK_PT_L;
        if (c >= '0' && c <= '9') want = TOK_PT_N;
        if (c == ' ' || (c >= 9 && c <= 13)) want = TOK_PT_S;
        if (c == '\n' || c == '\r') want |= TOK_PT_NL;
        assert_int_equal(tok__pretok_class(c), want);
    }
    static const uint32_t spaces[] = {0xA0, 0x1680, 0x2000, 0x2005, 0x200A,
                                      0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
                                      0xFEFF};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        assert_int_equal(tok__pretok_class(spaces[i]), TOK_PT_S);
    assert_int_equal(tok__pretok_class(0x85), 0);     /* NEL: Cc, not \s */
    assert_int_equal(tok__pretok_class(0x180E), 0);   /* Cf since Unicode 6.3 */
    assert_int_equal(tok__pretok_class(0x200B), 0);   /* ZWSP: Cf */
    assert_int_equal(tok__pretok_class(0xE9), TOK_PT_L);
    assert_int_equal(tok__pretok_class(0x17F), TOK_PT_L);
    assert_int_equal(tok__pretok_class(0x6F22), TOK_PT_L);
    assert_int_equal(tok__pretok_class(0x2B0), TOK_PT_L);  /* Lm */
    assert_int_equal(tok__pretok_class(0xB2), TOK_PT_N);   /* No */
    assert_int_equal(tok__pretok_class(0x216B), TOK_PT_N); /* Nl */
    assert_int_equal(tok__pretok_class(0x661), TOK_PT_N);  /* Nd */
    assert_int_equal(tok__pretok_class(0x301), 0);         /* Mn */
    assert_int_equal(tok__pretok_class(0x1F642), 0);       /* So */
    assert_int_equal(tok__pretok_class(0xFFFD), 0);
}

/* ---- repair ---- */

static void check_repair(const char *in, size_t n, const char *want,
                         size_t want_n) {
    char *out = NULL;
    int64_t len = -1;
    assert_int_equal(tok__utf8_repair(in, (int64_t)n, &out, &len), 0);
    if (!want) {
        assert_null(out);
        assert_int_equal(len, n);
        return;
    }
    assert_non_null(out);
    assert_int_equal(len, want_n);
    assert_memory_equal(out, want, want_n);
    free(out);
}

#define R "\xef\xbf\xbd" /* U+FFFD */
#define REPAIR(in, want) \
    check_repair(in, sizeof in - 1, want, sizeof want - 1)
#define VALID(in) check_repair(in, sizeof in - 1, NULL, 0)

/* Each maximal subpart of an ill-formed sequence is one U+FFFD (WHATWG);
 * the byte that breaks a sequence starts the next one. */
static void test_repair(void **state) {
    (void)state;
    VALID("");
    VALID("plain ascii\n");
    VALID("\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x99\x82\xf4\x8f\xbf\xbf");
    VALID("\xef\xbb\xbf" "bom kept");
    REPAIR("\xff", R);
    REPAIR("\xe2\x82", R);                     /* truncated at the end */
    REPAIR("\xe2\x82" "A", R "A");
    REPAIR("\xed\xa0\x80", R R R);             /* a surrogate */
    REPAIR("\xc0\x80", R R);                   /* overlong lead */
    REPAIR("\xe0\x80\x80", R R R);             /* overlong 3-byte */
    REPAIR("\xf0\x9f\x98", R);
    REPAIR("\xf0\x90\x80" "A", R "A");
    REPAIR("\xf4\x90\x80\x80", R R R R);       /* above U+10FFFF */
    REPAIR("\xf5\x80", R R);
    REPAIR("a\xc3(b", "a" R "(b");
    REPAIR("\x80\x80" "abc", R R "abc");
    REPAIR("\xe2\x82<|im_end|>", R "<|im_end|>");
}

/* ---- NFC ---- */

static void check_nfc(const char *in, const char *want) {
    char *out = NULL;
    int64_t len = -1;
    assert_int_equal(tok__nfc(in, (int64_t)strlen(in), &out, &len), 0);
    if (!want) {
        assert_null(out);
        assert_int_equal(len, strlen(in));
        return;
    }
    assert_non_null(out);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(out, want, len);
    assert_int_equal(out[len], '\0');
    free(out);
}

static void test_nfc(void **state) {
    (void)state;
    check_nfc("ascii only", NULL);
    check_nfc("caf\xc3\xa9 \xe6\xbc\xa2", NULL);            /* NFC already */
    check_nfc("e\xcc\x81", "\xc3\xa9");                      /* e + acute */
    check_nfc("x e\xcc\x81 y e\xcc\x81", "x \xc3\xa9 y \xc3\xa9");
    check_nfc("\xe2\x84\xab", "\xc3\x85");                   /* U+212B Å */
    check_nfc("\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8", "\xea\xb0\x81"); /* 각 */
    /* canonical order: U+0316 (ccc 220) before U+0301 (ccc 230) */
    check_nfc("x\xcc\x81\xcc\x96", "x\xcc\x96\xcc\x81");
    check_nfc("\xcc\x81" "a", NULL);                         /* lone mark */
    check_nfc("\xef\xa4\x80", "\xe8\xb1\x88");               /* U+F900 */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contractions),
        cmocka_unit_test(test_letters),
        cmocka_unit_test(test_digits),
        cmocka_unit_test(test_punctuation),
        cmocka_unit_test(test_whitespace),
        cmocka_unit_test(test_scripts_and_emoji),
        cmocka_unit_test(test_split_after_nfc),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_repair),
        cmocka_unit_test(test_nfc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
