/* Tests of lsp/document.c: positions in UTF-16 and UTF-8, line endings,
 * and full and incremental sync of open documents. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../lsp/lsp.h"

#define GRIN "\xF0\x9F\x98\x80" /* U+1F600: 4 UTF-8 bytes, a UTF-16 pair */
#define EACUTE "\xC3\xA9"       /* U+00E9: 2 UTF-8 bytes, 1 UTF-16 unit */

static int64_t off(const char *t, int64_t line, int64_t ch, lsp_encoding e) {
    return lsp_offset_at(t, (int64_t)strlen(t), (lsp_pos){line, ch}, e);
}

static void test_surrogate_pairs(void **state) {
    (void)state;
    const char *t = "a" GRIN "b" EACUTE "c\n";
    /* UTF-16: a=0, the pair is units 1-2, b=3, e-acute=4, c=5 */
    assert_int_equal(off(t, 0, 1, LSP_UTF16), 1);
    assert_int_equal(off(t, 0, 2, LSP_UTF16), 1); /* inside the pair: its start */
    assert_int_equal(off(t, 0, 3, LSP_UTF16), 5);
    assert_int_equal(off(t, 0, 5, LSP_UTF16), 8);
    assert_int_equal(off(t, 0, 6, LSP_UTF16), 9);
    assert_int_equal(off(t, 0, 99, LSP_UTF16), 9); /* past the end of the line */
    /* UTF-8: columns are bytes */
    assert_int_equal(off(t, 0, 5, LSP_UTF8), 5);
    assert_int_equal(off(t, 0, 3, LSP_UTF8), 1); /* inside the character */
    assert_int_equal(off(t, 0, 7, LSP_UTF8), 6);
    /* and back */
    lsp_pos p = lsp_pos_at(t, (int64_t)strlen(t), 5, LSP_UTF16);
    assert_int_equal(p.line, 0);
    assert_int_equal(p.character, 3);
    p = lsp_pos_at(t, (int64_t)strlen(t), 8, LSP_UTF16);
    assert_int_equal(p.character, 5);
    p = lsp_pos_at(t, (int64_t)strlen(t), 8, LSP_UTF8);
    assert_int_equal(p.character, 8);
    p = lsp_pos_at(t, (int64_t)strlen(t), 3, LSP_UTF16); /* inside: rounds down */
    assert_int_equal(p.character, 1);
}

static void test_line_endings(void **state) {
    (void)state;
    const char *t = "ab\r\ncd\rx\ny";
    assert_int_equal(off(t, 1, 0, LSP_UTF16), 4);
    assert_int_equal(off(t, 2, 0, LSP_UTF16), 7); /* a lone CR ends a line */
    assert_int_equal(off(t, 3, 0, LSP_UTF16), 9);
    assert_int_equal(off(t, 0, 5, LSP_UTF16), 2); /* stops before the CR */
    assert_int_equal(off(t, 1, 9, LSP_UTF16), 6);
    assert_int_equal(off(t, 9, 0, LSP_UTF16), 10); /* past the last line */
    int64_t n = (int64_t)strlen(t);
    lsp_pos p = lsp_pos_at(t, n, 3, LSP_UTF16); /* between CR and LF */
    assert_int_equal(p.line, 0);
    assert_int_equal(p.character, 2);
    p = lsp_pos_at(t, n, 8, LSP_UTF16);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.character, 1);
    p = lsp_pos_at(t, n, 10, LSP_UTF16);
    assert_int_equal(p.line, 3);
    assert_int_equal(p.character, 1);
    /* every character boundary survives offset -> position -> offset */
    const char *u = "x" GRIN "\r\n" EACUTE "y\rz\n\n" GRIN;
    int64_t un = (int64_t)strlen(u);
    for (int e = 0; e < 2; e++)
        for (int64_t i = 0; i <= un; i++) {
            if (i < un && ((unsigned char)u[i] & 0xC0) == 0x80) continue;
            if (i > 0 && u[i - 1] == '\r' && u[i] == '\n') continue;
            lsp_pos q = lsp_pos_at(u, un, i, (lsp_encoding)e);
            assert_int_equal(lsp_offset_at(u, un, q, (lsp_encoding)e), i);
        }
}

static void test_sync(void **state) {
    (void)state;
    lsp_docs *d = lsp_docs_create();
    sb_err err = {0};
    const char *uri = "file:///a.c";
    const char *t0 = "int " GRIN " x;\r\nint y;\r\n";
    assert_int_equal(lsp_docs_open(d, uri, "c", t0, (int64_t)strlen(t0), 1, &err), 0);
    /* insert after the emoji (UTF-16 column 6), replace "y" on line 1 */
    lsp_change ch[] = {
        {true, {0, 6}, {0, 6}, "!", 1},
        {true, {1, 4}, {1, 5}, "zz", 2},
    };
    assert_int_equal(lsp_docs_change(d, uri, ch, 2, 2, LSP_UTF16, &err), 0);
    lsp_doc *doc = lsp_docs_find(d, uri);
    assert_string_equal(doc->text, "int " GRIN "! x;\r\nint zz;\r\n");
    assert_int_equal(doc->version, 2);
    /* a reversed range fails and changes nothing, even after a good change */
    lsp_change bad[] = {
        {false, {0, 0}, {0, 0}, "whole", 5},
        {true, {1, 0}, {0, 0}, "x", 1},
    };
    assert_int_equal(lsp_docs_change(d, uri, bad, 2, 3, LSP_UTF16, &err), -1);
    assert_non_null(strstr(err.msg, "after its end"));
    doc = lsp_docs_find(d, uri);
    assert_string_equal(doc->text, "int " GRIN "! x;\r\nint zz;\r\n");
    assert_int_equal(doc->version, 2);
    /* a full replacement, then UTF-8 columns */
    lsp_change full = {false, {0, 0}, {0, 0}, "h" EACUTE "llo\n", 7};
    assert_int_equal(lsp_docs_change(d, uri, &full, 1, 3, LSP_UTF8, &err), 0);
    lsp_change mid = {true, {0, 3}, {0, 4}, "L", 1}; /* bytes 3..4: "l" */
    assert_int_equal(lsp_docs_change(d, uri, &mid, 1, 4, LSP_UTF8, &err), 0);
    assert_string_equal(lsp_docs_find(d, uri)->text, "h" EACUTE "Llo\n");
    /* reopen replaces; close; changes to a closed document fail */
    assert_int_equal(lsp_docs_open(d, uri, NULL, "new", 3, 9, &err), 0);
    assert_string_equal(lsp_docs_find(d, uri)->text, "new");
    assert_string_equal(lsp_docs_find(d, uri)->language, "");
    assert_int_equal(lsp_docs_close(d, uri, &err), 0);
    assert_null(lsp_docs_find(d, uri));
    sb_err e2 = {0};
    assert_int_equal(lsp_docs_change(d, uri, &full, 1, 5, LSP_UTF8, &e2), -1);
    assert_non_null(strstr(e2.msg, "not open"));
    assert_int_equal(lsp_docs_close(d, uri, &e2), -1);
    lsp_docs_destroy(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_surrogate_pairs),
        cmocka_unit_test(test_line_endings),
        cmocka_unit_test(test_sync),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
