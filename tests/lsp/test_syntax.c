/* Tests of lsp/syntax.c: every grammar loading, and the enclosing region
 * of a cursor or a range (lsp_enclosing_region) with its fallbacks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../lsp/lsp.h"

/* Every grammar loads in this runtime (ABI) and finds a multi-line node:
 * the region around a cursor on the second line of a two-line node. */
static void test_every_grammar_parses(void **state) {
    (void)state;
    static const struct { const char *lang, *text; } cases[] = {
        {"c", "int f(void) {\n  return 1;\n}\n"},
        {"cpp", "namespace n {\n  int x;\n}\n"},
        {"python", "def f():\n    return 1\n"},
        {"javascript", "function f() {\n  return 1;\n}\n"},
        {"typescript", "function f(): number {\n  return 1;\n}\n"},
        {"tsx", "const a = (\n  <div/>\n);\n"},
        {"rust", "fn main() {\n    let x = 1;\n}\n"},
        {"go", "package main\nfunc main() {\n\tx := 1\n}\n"},
        {"java", "class A {\n    int x;\n}\n"},
        {"json", "{\n  \"a\": 1\n}\n"},
        {"bash", "f() {\n  echo hi\n}\n"},
        {"lua", "function f()\n  return 1\nend\n"},
        {"yaml", "a:\n  b: 1\n"},
        {"markdown", "# Title\n\nSome text\nmore text.\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *t = cases[i].text;
        int64_t len = (int64_t)strlen(t), a, b;
        int64_t cursor = (int64_t)(strchr(t, '\n') - t) + 3;
        if (!lsp_enclosing_region(t, len, cases[i].lang, cursor, cursor, &a, &b))
            fail_msg("no region for %s", cases[i].lang);
        assert_true(a <= cursor && cursor < b);
    }
}

/* ==== lsp_enclosing_region ================================================= */

static const char *REGION_C =
    "int f(int x) {\n"          /* line 0 */
    "    int y = x + 1;\n"
    "    if (y > 2) {\n"        /* line 2 */
    "        y = 0;\n"
    "    }\n"                   /* line 4 */
    "    return y;\n"
    "}\n"                       /* line 6 */
    "int g(void) { return 1; }\n";

/* Byte offset of the first occurrence of s in REGION_C. */
static int64_t at(const char *s) {
    const char *p = strstr(REGION_C, s);
    assert_non_null(p);
    return p - REGION_C;
}

/* The region of [from, to) must be the text `want` exactly. */
static void assert_region(int64_t from, int64_t to, const char *want) {
    int64_t len = (int64_t)strlen(REGION_C), a = -1, b = -1;
    assert_true(lsp_enclosing_region(REGION_C, len, "c", from, to, &a, &b));
    assert_int_equal(b - a, (int64_t)strlen(want));
    assert_memory_equal(REGION_C + a, want, strlen(want));
}

/* Inside the if's body: the if statement, whole lines (its block starts
 * mid-line, so it is not a region of its own). On a one-line statement
 * of the function: the function. A range is widened the same way. */
static void test_region_smallest_multiline_node(void **state) {
    (void)state;
    const char *if_stmt = "    if (y > 2) {\n        y = 0;\n    }\n";
    const char *fn_f = "int f(int x) {\n    int y = x + 1;\n    if (y > 2) {\n"
                       "        y = 0;\n    }\n    return y;\n}\n";
    int64_t c = at("y = 0");
    assert_region(c, c, if_stmt);
    c = at("return y");
    assert_region(c, c, fn_f);
    assert_region(at("int y"), at("return y"), fn_f);
    /* reversed offsets are put in order */
    assert_region(at("return y"), at("int y"), fn_f);
}

/* No qualifying node (a one-line function, a range over two functions),
 * no grammar, or no text: false, and the whole text. */
static void test_region_fallbacks(void **state) {
    (void)state;
    int64_t len = (int64_t)strlen(REGION_C), a = -1, b = -1;
    int64_t g = at("return 1");
    assert_false(lsp_enclosing_region(REGION_C, len, "c", g, g, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(lsp_enclosing_region(REGION_C, len, "c", at("int y"), g, &a,
                                      &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(lsp_enclosing_region(REGION_C, len, "no-such-language", 20,
                                      20, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(lsp_enclosing_region(REGION_C, len, NULL, 20, 20, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(lsp_enclosing_region("", 0, "c", 0, 0, &a, &b));
    assert_true(a == 0 && b == 0);
    /* offsets past either end are clamped, not read */
    a = b = -1;
    lsp_enclosing_region(REGION_C, len, "c", -5, len + 100, &a, &b);
    assert_true(a >= 0 && b <= len && a <= b);
}

/* Python: the method around a cursor in its body (the body's block also
 * covers whole lines, and it is smaller: it is the answer). */
static void test_region_python(void **state) {
    (void)state;
    const char *src =
        "class A:\n"
        "    def m(self):\n"
        "        x = 1\n"
        "        return x\n"
        "\n"
        "    def n(self):\n"
        "        return 2\n";
    int64_t len = (int64_t)strlen(src), a, b;
    int64_t c = strstr(src, "x = 1") - src;
    assert_true(lsp_enclosing_region(src, len, "python", c, c, &a, &b));
    const char *want = "        x = 1\n        return x\n";
    assert_int_equal(b - a, (int64_t)strlen(want));
    assert_memory_equal(src + a, want, strlen(want));
    /* on the def line: the method */
    c = strstr(src, "def m") - src;
    assert_true(lsp_enclosing_region(src, len, "python", c, c, &a, &b));
    want = "    def m(self):\n        x = 1\n        return x\n";
    assert_int_equal(b - a, (int64_t)strlen(want));
    assert_memory_equal(src + a, want, strlen(want));
}

/* A text of any size is parsed only around the range (before, an empty
 * codeAction parsed a 60 MB document whole on the message thread, 31 s and
 * 3.4 GB). Past 64 MiB, the old limit, no region was found at all; now the
 * one around the cursor is, at the right offsets. A single line too long
 * for a window is not parsed. */
static void test_region_in_a_huge_text(void **state) {
    (void)state;
    size_t one = strlen(REGION_C), copies = ((size_t)65 << 20) / one + 1;
    int64_t len = (int64_t)(one * copies);
    char *big = malloc((size_t)len);
    assert_non_null(big);
    for (size_t i = 0; i < copies; i++) memcpy(big + i * one, REGION_C, one);
    const char *if_stmt = "    if (y > 2) {\n        y = 0;\n    }\n";
    int64_t base = (int64_t)(one * (copies / 2)), c = base + at("y = 0"), a, b;
    assert_true(lsp_enclosing_region(big, len, "c", c, c, &a, &b));
    assert_int_equal(a, base + at("    if (y"));
    assert_int_equal(b - a, (int64_t)strlen(if_stmt));
    assert_memory_equal(big + a, if_stmt, strlen(if_stmt));
    /* one line of 65 MiB: no window of whole lines fits; the whole text */
    memset(big, 'x', (size_t)len);
    assert_false(lsp_enclosing_region(big, len, "c", len / 2, len / 2, &a, &b));
    assert_true(a == 0 && b == len);
    free(big);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_region_in_a_huge_text),
        cmocka_unit_test(test_every_grammar_parses),
        cmocka_unit_test(test_region_smallest_multiline_node),
        cmocka_unit_test(test_region_fallbacks),
        cmocka_unit_test(test_region_python),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
