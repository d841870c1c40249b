/* Tests of edit/language.c: languages by extension and languageId (the
 * names lsp/syntax.c parses with), and the fence tag an edit gets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../edit/edit.h"

static void test_language_for_path(void **state) {
    (void)state;
    assert_string_equal(edit_language_for_path("src/main.c"), "c");
    assert_string_equal(edit_language_for_path("a/b.h"), "c");
    assert_string_equal(edit_language_for_path("x.CPP"), "cpp");
    assert_string_equal(edit_language_for_path("lib.hpp"), "cpp");
    assert_string_equal(edit_language_for_path("t.py"), "python");
    assert_string_equal(edit_language_for_path("app.jsx"), "javascript");
    assert_string_equal(edit_language_for_path("app.ts"), "typescript");
    assert_string_equal(edit_language_for_path("app.tsx"), "tsx");
    assert_string_equal(edit_language_for_path("lib.rs"), "rust");
    assert_string_equal(edit_language_for_path("main.go"), "go");
    assert_string_equal(edit_language_for_path("A.java"), "java");
    assert_string_equal(edit_language_for_path("package.json"), "json");
    assert_string_equal(edit_language_for_path("run.sh"), "bash");
    assert_string_equal(edit_language_for_path("ci.yml"), "yaml");
    assert_null(edit_language_for_path("Makefile"));
    assert_null(edit_language_for_path(".bashrc"));
    assert_null(edit_language_for_path("dir.c/README"));
    assert_null(edit_language_for_path("notes.txt"));
    assert_null(edit_language_for_path(NULL));
}

static void test_language_for_id(void **state) {
    (void)state;
    assert_string_equal(edit_language_for_id("c"), "c");
    assert_string_equal(edit_language_for_id("cpp"), "cpp");
    assert_string_equal(edit_language_for_id("python"), "python");
    assert_string_equal(edit_language_for_id("typescriptreact"), "tsx");
    assert_string_equal(edit_language_for_id("javascriptreact"), "javascript");
    assert_string_equal(edit_language_for_id("shellscript"), "bash");
    assert_string_equal(edit_language_for_id("jsonc"), "json");
    assert_string_equal(edit_language_for_id("Rust"), "rust");
    assert_null(edit_language_for_id("cobol"));
    assert_null(edit_language_for_id(""));
    assert_null(edit_language_for_id(NULL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_language_for_path),
        cmocka_unit_test(test_language_for_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
