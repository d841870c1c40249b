/* Tests of drafter/syntax.c: languages by extension and languageId, units
 * mapped onto tokens (including tokens that straddle a line start), the
 * fallbacks: unknown language, text that is not the language; and the
 * enclosing region of a cursor or a range (drf_enclosing_region). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../drafter/syntax.h"

static void test_language_for_path(void **state) {
    (void)state;
    assert_string_equal(drf_language_for_path("src/main.c"), "c");
    assert_string_equal(drf_language_for_path("a/b.h"), "c");
    assert_string_equal(drf_language_for_path("x.CPP"), "cpp");
    assert_string_equal(drf_language_for_path("lib.hpp"), "cpp");
    assert_string_equal(drf_language_for_path("t.py"), "python");
    assert_string_equal(drf_language_for_path("app.jsx"), "javascript");
    assert_string_equal(drf_language_for_path("app.ts"), "typescript");
    assert_string_equal(drf_language_for_path("app.tsx"), "tsx");
    assert_string_equal(drf_language_for_path("lib.rs"), "rust");
    assert_string_equal(drf_language_for_path("main.go"), "go");
    assert_string_equal(drf_language_for_path("A.java"), "java");
    assert_string_equal(drf_language_for_path("package.json"), "json");
    assert_string_equal(drf_language_for_path("run.sh"), "bash");
    assert_string_equal(drf_language_for_path("ci.yml"), "yaml");
    assert_null(drf_language_for_path("Makefile"));
    assert_null(drf_language_for_path(".bashrc"));
    assert_null(drf_language_for_path("dir.c/README"));
    assert_null(drf_language_for_path("notes.txt"));
    assert_null(drf_language_for_path(NULL));
}

static void test_language_for_id(void **state) {
    (void)state;
    assert_string_equal(drf_language_for_id("c"), "c");
    assert_string_equal(drf_language_for_id("cpp"), "cpp");
    assert_string_equal(drf_language_for_id("python"), "python");
    assert_string_equal(drf_language_for_id("typescriptreact"), "tsx");
    assert_string_equal(drf_language_for_id("javascriptreact"), "javascript");
    assert_string_equal(drf_language_for_id("shellscript"), "bash");
    assert_string_equal(drf_language_for_id("jsonc"), "json");
    assert_string_equal(drf_language_for_id("Rust"), "rust");
    assert_null(drf_language_for_id("cobol"));
    assert_null(drf_language_for_id(""));
    assert_null(drf_language_for_id(NULL));
}

/* Offsets of tokens cut at the given byte positions (cuts ascending, the
 * last equal to len). */
static int32_t cut(const int64_t *cuts, int32_t n, int64_t *off) {
    off[0] = 0;
    for (int32_t i = 0; i < n; i++) off[i + 1] = cuts[i];
    return n;
}

/* Python: each statement line is a unit whose boundary is the token that
 * starts its line (the indentation); the body's statements are units
 * inside the function's. */
static void test_units_python(void **state) {
    (void)state;
    /*                  0         1          2          3
     *                  0123456789 0123456789 0123456789 012345 */
    const char *text = "def f(a):\n    b = a\n    return b\nx = 1\n";
    const int64_t len = (int64_t)strlen(text);
    /* tokens: "def", " f(a):\n", "    ", "b = a\n", "    ", "return b\n",
     *         "x = 1\n" */
    const int64_t cuts[] = {3, 10, 14, 20, 24, 33, len};
    int64_t off[8];
    int32_t n = cut(cuts, 7, off);
    drf__syntax *s = drf__syntax_build("python", text, len, off, n);
    assert_non_null(s);
    assert_string_equal(drf__syntax_language(s), "python");
    const bool want[7] = {1, 0, 1, 0, 1, 0, 1};
    for (int32_t i = 0; i < n; i++)
        assert_int_equal(drf__syntax_is_boundary(s, i), want[i]);
    assert_int_equal(drf__syntax_next_boundary(s, 1), 2);
    assert_int_equal(drf__syntax_next_boundary(s, 5), 6);
    assert_int_equal(drf__syntax_next_boundary(s, 7), 7);
    assert_int_equal(drf__syntax_unit_of(s, 1), 0); /* the def's line */
    assert_int_equal(drf__syntax_unit_of(s, 3), 2); /* b = a, inside f */
    assert_int_equal(drf__syntax_unit_of(s, 5), 4);
    assert_int_equal(drf__syntax_unit_of(s, 6), 6);
    drf__syntax_free(s);
}

/* A token that straddles a line start (here "\n    return") gives that
 * line no boundary; the other lines keep theirs. */
static void test_straddling_token(void **state) {
    (void)state;
    const char *text = "int f(void) {\n    g();\n    return 0;\n}\n";
    const int64_t len = (int64_t)strlen(text);
    /* "int f(void) {", "\n", "    g();", "\n    return 0;", "\n}\n" */
    const int64_t cuts[] = {13, 14, 22, 36, len};
    int64_t off[6];
    int32_t n = cut(cuts, 5, off);
    drf__syntax *s = drf__syntax_build("c", text, len, off, n);
    assert_non_null(s);
    assert_true(drf__syntax_is_boundary(s, 0));
    assert_false(drf__syntax_is_boundary(s, 1));
    assert_true(drf__syntax_is_boundary(s, 2));
    assert_false(drf__syntax_is_boundary(s, 3));
    assert_false(drf__syntax_is_boundary(s, 4));
    drf__syntax_free(s);
}

/* Unknown language, empty text, or text that is mostly not the language:
 * no syntax (the drafter then copies plain tokens). */
static void test_fallbacks(void **state) {
    (void)state;
    const char *py = "x = 1\n";
    int64_t off[2] = {0, 6};
    assert_null(drf__syntax_build("cobol", py, 6, off, 1));
    assert_null(drf__syntax_build(NULL, py, 6, off, 1));
    assert_null(drf__syntax_build("python", py, 0, off, 0));
    off[1] = 5; /* offsets that do not cover the text */
    assert_null(drf__syntax_build("python", py, 6, off, 1));
    const char *junk = "}}}} ))) ]] {{ @@@ ### $$$ \x01\x02 ;;;; ((((\n"
                       "))}} %% ^^ ~~ :: ,, ..\n";
    int64_t jl = (int64_t)strlen(junk), joff[2] = {0, jl};
    assert_null(drf__syntax_build("c", junk, jl, joff, 1));
    assert_null(drf__syntax_build("json", junk, jl, joff, 1));
}

/* Every grammar loads in this runtime (ABI) and finds units. */
static void test_every_grammar_parses(void **state) {
    (void)state;
    static const struct { const char *lang, *text; } cases[] = {
        {"c", "int x;\nint y;\n"},
        {"cpp", "int x;\nclass A {};\n"},
        {"python", "x = 1\ny = 2\n"},
        {"javascript", "let x = 1;\nf(x);\n"},
        {"typescript", "let x: number = 1;\nf(x);\n"},
        {"tsx", "const a = <div/>;\nf(a);\n"},
        {"rust", "fn main() {\n    let x = 1;\n}\n"},
        {"go", "package main\nfunc main() {}\n"},
        {"java", "class A {\n    int x;\n}\n"},
        {"json", "{\n  \"a\": 1\n}\n"},
        {"bash", "echo hi\nls -l\n"},
        {"lua", "local x = 1\nprint(x)\n"},
        {"yaml", "a: 1\nb: 2\n"},
        {"markdown", "# Title\n\nSome text.\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t len = (int64_t)strlen(cases[i].text), off[2] = {0, len};
        drf__syntax *s = drf__syntax_build(cases[i].lang, cases[i].text, len,
                                           off, 1);
        if (!s) fail_msg("no units for %s", cases[i].lang);
        assert_true(drf__syntax_is_boundary(s, 0));
        drf__syntax_free(s);
    }
}

/* ==== drf_enclosing_region ================================================= */

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
    assert_true(drf_enclosing_region(REGION_C, len, "c", from, to, &a, &b));
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
    assert_false(drf_enclosing_region(REGION_C, len, "c", g, g, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(drf_enclosing_region(REGION_C, len, "c", at("int y"), g, &a,
                                      &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(drf_enclosing_region(REGION_C, len, "no-such-language", 20,
                                      20, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(drf_enclosing_region(REGION_C, len, NULL, 20, 20, &a, &b));
    assert_true(a == 0 && b == len);
    a = b = -1;
    assert_false(drf_enclosing_region("", 0, "c", 0, 0, &a, &b));
    assert_true(a == 0 && b == 0);
    /* offsets past either end are clamped, not read */
    a = b = -1;
    drf_enclosing_region(REGION_C, len, "c", -5, len + 100, &a, &b);
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
    assert_true(drf_enclosing_region(src, len, "python", c, c, &a, &b));
    const char *want = "        x = 1\n        return x\n";
    assert_int_equal(b - a, (int64_t)strlen(want));
    assert_memory_equal(src + a, want, strlen(want));
    /* on the def line: the method */
    c = strstr(src, "def m") - src;
    assert_true(drf_enclosing_region(src, len, "python", c, c, &a, &b));
    want = "    def m(self):\n        x = 1\n        return x\n";
    assert_int_equal(b - a, (int64_t)strlen(want));
    assert_memory_equal(src + a, want, strlen(want));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_language_for_path),
        cmocka_unit_test(test_language_for_id),
        cmocka_unit_test(test_units_python),
        cmocka_unit_test(test_straddling_token),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_every_grammar_parses),
        cmocka_unit_test(test_region_smallest_multiline_node),
        cmocka_unit_test(test_region_fallbacks),
        cmocka_unit_test(test_region_python),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
