/* Tests of lsp/document.c: positions in UTF-16 and UTF-8, line endings,
 * and full and incremental sync of open documents. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ==== many changes in one didChange ======================================== */

/* The reference: each change applied to a fresh copy, its positions found
 * from the text's start with lsp_offset_at, as lsp_docs_change did before
 * it kept a cursor. Returns the new text (malloc'd), *len its length. */
static char *ref_apply(const char *text, int64_t len, const lsp_change *ch,
                       int n, lsp_encoding enc, int64_t *out_len) {
    char *t = malloc((size_t)len + 1);
    memcpy(t, text, (size_t)len);
    for (int i = 0; i < n; i++) {
        int64_t s = 0, e = len;
        if (ch[i].has_range) {
            s = lsp_offset_at(t, len, ch[i].start, enc);
            e = lsp_offset_at(t, len, ch[i].end, enc);
            if (e < s) e = s;
        }
        int64_t m = len - (e - s) + ch[i].len;
        char *u = malloc((size_t)m + 1);
        memcpy(u, t, (size_t)s);
        memcpy(u + s, ch[i].text, (size_t)ch[i].len);
        memcpy(u + s + ch[i].len, t + e, (size_t)(len - e));
        free(t);
        t = u;
        len = m;
    }
    t[len] = '\0';
    *out_len = len;
    return t;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* Random bytes that stress positions: line ends of all three kinds, multi-
 * byte characters, a UTF-16 pair, a NUL, and broken UTF-8 (a lone lead
 * byte, a stray continuation byte) that could join with a neighbour. */
static int64_t random_text(char *out, int64_t max) {
    static const char *const atoms[] = {"a", "b", "\n", "\r", "\r\n", EACUTE,
                                        GRIN, "\xE2\x82\xAC", "\xE2", "\x82",
                                        "\xF0\x9F", "\0", "xyz"};
    static const int lens[] = {1, 1, 1, 1, 2, 2, 4, 3, 1, 1, 2, 1, 3};
    int64_t n = 0;
    int64_t want = rnd((uint32_t)max / 4 + 1);
    while (n < want) {
        int a = (int)rnd(13);
        if (n + lens[a] > max) break;
        memcpy(out + n, atoms[a], (size_t)lens[a]);
        n += lens[a];
    }
    return n;
}

static lsp_pos random_pos(void) {
    return (lsp_pos){rnd(12), rnd(10)};
}

/* Random batches of changes (in random, rising and falling order, with the
 * odd whole-text change) give exactly the reference's text, in both
 * encodings. */
static void test_changes_match_reference(void **state) {
    (void)state;
    char base[256], texts[64][16];
    for (int iter = 0; iter < 3000; iter++) {
        lsp_encoding enc = iter % 2 ? LSP_UTF8 : LSP_UTF16;
        int64_t len = random_text(base, sizeof base);
        lsp_docs *d = lsp_docs_create();
        sb_err err = {0};
        assert_int_equal(lsp_docs_open(d, "u", "", base, len, 1, &err), 0);
        lsp_change ch[64];
        int n = (int)rnd(64) + 1, order = (int)rnd(3);
        for (int i = 0; i < n; i++) {
            lsp_pos a = random_pos(), b = random_pos();
            if (a.line > b.line || (a.line == b.line && a.character > b.character)) {
                lsp_pos t = a;
                a = b;
                b = t;
            }
            if (order == 1 && i > 0) { /* after the last change */
                a.line = ch[i - 1].end.line + rnd(2);
                b.line = a.line + rnd(2);
            } else if (order == 2 && i > 0) { /* before the last change */
                b.line = ch[i - 1].start.line - rnd(2);
                a.line = b.line - rnd(2);
                if (a.line < 0 || b.line < 0) a.line = b.line = 0;
            }
            if (a.line == b.line && a.character > b.character) b.character = a.character;
            ch[i] = (lsp_change){.has_range = rnd(40) != 0, .start = a, .end = b,
                                 .text = texts[i],
                                 .len = random_text(texts[i], sizeof texts[i])};
        }
        int64_t want_len;
        char *want = ref_apply(base, len, ch, n, enc, &want_len);
        assert_int_equal(lsp_docs_change(d, "u", ch, n, 2, enc, &err), 0);
        const lsp_doc *doc = lsp_docs_find(d, "u");
        assert_int_equal(doc->len, want_len);
        assert_memory_equal(doc->text, want, (size_t)want_len + (want_len == 0));
        free(want);
        lsp_docs_destroy(d);
    }
}

/* 40,000 one-character changes to a 32 MB document, as a
 * replace-all sends them, first to last and last to first. The result is
 * checked byte for byte, and the work is bounded by counting it: the old
 * code copied the document once per change (over a terabyte here). */
static void test_many_changes_to_a_large_document(void **state) {
    (void)state;
    const int64_t lines = 40000, width = 800; /* 32 MB */
    int64_t len = lines * width;
    char *text = malloc((size_t)len);
    for (int64_t l = 0; l < lines; l++) {
        memset(text + l * width, 'x', (size_t)width - 1);
        text[l * width + width - 1] = '\n';
    }
    lsp_change *ch = calloc((size_t)lines, sizeof *ch);
    for (int dir = 0; dir < 2; dir++) {
        lsp_docs *d = lsp_docs_create();
        sb_err err = {0};
        assert_int_equal(lsp_docs_open(d, "big", "", text, len, 1, &err), 0);
        /* line l's column l % 700 becomes "YZ" */
        for (int64_t i = 0; i < lines; i++) {
            int64_t l = dir ? lines - 1 - i : i;
            ch[i] = (lsp_change){.has_range = true, .start = {l, l % 700},
                                 .end = {l, l % 700 + 1}, .text = "YZ", .len = 2};
        }
        assert_int_equal(lsp_docs_change(d, "big", ch, (int)lines, 2, LSP_UTF16,
                                         &err), 0);
        const lsp_doc *doc = lsp_docs_find(d, "big");
        assert_int_equal(doc->len, len + lines);
        for (int64_t l = 0; l < lines; l++) {
            const char *p = doc->text + l * (width + 1);
            assert_int_equal(p[l % 700], 'Y');
            assert_int_equal(p[l % 700 + 1], 'Z');
            assert_int_equal(p[width], '\n');
            assert_int_equal(p[0], l % 700 ? 'x' : 'Y');
        }
        /* a few passes over the text: copy in, walk to each change (going
         * back over each line once, last to first), close the gap; the old
         * code's cost was `lines` passes */
        printf("# %s: %lld bytes of work for %lld bytes\n", dir ? "last to first"
               : "first to last", (long long)lsp_docs_last_work(d), (long long)len);
        assert_true(lsp_docs_last_work(d) <= 8 * (len + 2 * lines));
        lsp_docs_destroy(d);
    }
    free(ch);
    free(text);
}

/* The limits: too many changes, a document grown too large, and changes
 * that jump about a large document each fail with a reason, and leave the
 * document as it was. */
static void test_change_limits(void **state) {
    (void)state;
    lsp_docs *d = lsp_docs_create();
    sb_err err = {0};
    assert_int_equal(lsp_docs_open(d, "u", "", "abc\n", 4, 1, &err), 0);
    lsp_change one = {.has_range = true, .text = "x", .len = 1};
    assert_int_equal(lsp_docs_change(d, "u", &one, LSP_MAX_CHANGES + 1, 2,
                                     LSP_UTF8, &err), -1);
    assert_non_null(strstr(err.msg, "at most"));
    char *big = calloc((size_t)LSP_MAX_DOCUMENT, 1);
    lsp_change grow = {.has_range = false, .text = big, .len = LSP_MAX_DOCUMENT};
    lsp_change more[2] = {grow, {.has_range = true, .text = "y", .len = 1}};
    memset(&err, 0, sizeof err);
    assert_int_equal(lsp_docs_change(d, "u", more, 2, 2, LSP_UTF8, &err), -1);
    assert_non_null(strstr(err.msg, "change 1 would make the document"));
    memset(&err, 0, sizeof err);
    assert_int_equal(lsp_docs_open(d, "v", "", big, LSP_MAX_DOCUMENT + 1, 1,
                                   &err), -1);
    /* a 8 MB document, changes alternating between its two ends */
    const int64_t n = 8 << 20;
    memset(big, 'a', (size_t)n);
    for (int64_t i = 1023; i < n; i += 1024) big[i] = '\n';
    assert_int_equal(lsp_docs_open(d, "w", "", big, n, 1, &err), 0);
    lsp_change zig[64];
    for (int i = 0; i < 64; i++)
        zig[i] = (lsp_change){.has_range = true, .start = {i % 2 ? 8000 : 0, 0},
                              .end = {i % 2 ? 8000 : 0, 1}, .text = "b", .len = 1};
    memset(&err, 0, sizeof err);
    assert_int_equal(lsp_docs_change(d, "w", zig, 64, 2, LSP_UTF8, &err), -1);
    assert_non_null(strstr(err.msg, "document order"));
    const lsp_doc *doc = lsp_docs_find(d, "w");
    assert_int_equal(doc->version, 1);
    assert_int_equal(doc->text[0], 'a');
    assert_string_equal(lsp_docs_find(d, "u")->text, "abc\n");
    free(big);
    lsp_docs_destroy(d);
}

/* Versions must increase (the LSP specification); a refused change leaves
 * the text as it was but marks the document out of sync, and only a whole
 * text brings it back. */
static void test_versions_and_sync(void **state) {
    (void)state;
    lsp_docs *d = lsp_docs_create();
    sb_err err = {0};
    assert_int_equal(lsp_docs_open(d, "u", "", "abc\n", 4, 5, &err), 0);
    lsp_change x = {.has_range = true, .start = {0, 0}, .end = {0, 1},
                    .text = "x", .len = 1};
    for (int64_t v = 4; v <= 5; v++) { /* below, then equal */
        memset(&err, 0, sizeof err);
        assert_int_equal(lsp_docs_change(d, "u", &x, 1, v, LSP_UTF8, &err), -1);
        assert_non_null(strstr(err.msg, "versions must increase"));
    }
    const lsp_doc *doc = lsp_docs_find(d, "u");
    assert_string_equal(doc->text, "abc\n");
    assert_int_equal(doc->version, 5);
    assert_non_null(strstr(doc->desync, "versions must increase"));
    /* a ranged change on a text that is not the editor's: refused */
    memset(&err, 0, sizeof err);
    assert_int_equal(lsp_docs_change(d, "u", &x, 1, 6, LSP_UTF8, &err), -1);
    assert_non_null(strstr(err.msg, "out of sync"));
    assert_string_equal(doc->text, "abc\n");
    /* the whole text, then a ranged change on it: in sync again */
    lsp_change both[2] = {{.has_range = false, .text = "hello\n", .len = 6}, x};
    memset(&err, 0, sizeof err);
    assert_int_equal(lsp_docs_change(d, "u", both, 2, 7, LSP_UTF8, &err), 0);
    assert_string_equal(doc->text, "xello\n");
    assert_int_equal(doc->version, 7);
    assert_string_equal(doc->desync, "");
    /* a bad change marks it too; reopening clears it */
    lsp_change rev = {.has_range = true, .start = {0, 3}, .end = {0, 1},
                      .text = "", .len = 0};
    assert_int_equal(lsp_docs_change(d, "u", &rev, 1, 8, LSP_UTF8, &err), -1);
    assert_true(doc->desync[0] != '\0');
    assert_int_equal(lsp_docs_open(d, "u", "", "new\n", 4, 1, &err), 0);
    assert_string_equal(lsp_docs_find(d, "u")->desync, "");
    lsp_docs_destroy(d);
}

/* At most LSP_MAX_DOCUMENTS open; reopening one does not count; closing
 * one makes room. */
static void test_open_limit(void **state) {
    (void)state;
    lsp_docs *d = lsp_docs_create();
    sb_err err = {0};
    char uri[32];
    for (int i = 0; i < LSP_MAX_DOCUMENTS; i++) {
        snprintf(uri, sizeof uri, "file:///%d", i);
        assert_int_equal(lsp_docs_open(d, uri, "", "x", 1, 1, &err), 0);
    }
    assert_int_equal(lsp_docs_open(d, "file:///one-more", "", "x", 1, 1, &err), -1);
    assert_non_null(strstr(err.msg, "at most 1024 open"));
    assert_null(lsp_docs_find(d, "file:///one-more"));
    assert_int_equal(lsp_docs_open(d, "file:///7", "", "y", 1, 2, &err), 0);
    assert_int_equal(lsp_docs_close(d, "file:///7", &err), 0);
    assert_int_equal(lsp_docs_open(d, "file:///one-more", "", "x", 1, 1, &err), 0);
    lsp_docs_destroy(d);
}

/* At most LSP_MAX_OPEN_BYTES in all open documents (before, 1,024 of
 * 64 MiB could be held): a didOpen past it is refused, a change that would
 * pass it is refused and leaves the text as it was, reopening a document
 * counts its new text only. */
static void test_open_bytes_limit(void **state) {
    (void)state;
    lsp_docs *d = lsp_docs_create();
    sb_err err = {0};
    int64_t part = LSP_MAX_OPEN_BYTES / 2 - 8; /* two, and 16 bytes: the cap */
    char *big = malloc((size_t)part);
    assert_non_null(big);
    memset(big, 'a', (size_t)part);
    assert_int_equal(lsp_docs_open(d, "file:///a", "", big, part, 1, &err), 0);
    assert_int_equal(lsp_docs_open(d, "file:///b", "", big, part, 1, &err), 0);
    assert_int_equal(lsp_docs_open(d, "file:///c", "", big, 16, 1, &err), 0);
    assert_int_equal(lsp_docs_open(d, "file:///d", "", "x", 1, 1, &err), -1);
    assert_non_null(strstr(err.msg, "at most 134217728 together"));
    assert_null(lsp_docs_find(d, "file:///d"));
    lsp_change grow = {.has_range = true, .text = "x", .len = 1};
    err = (sb_err){0};
    assert_int_equal(lsp_docs_change(d, "file:///a", &grow, 1, 2, LSP_UTF16, &err), -1);
    if (!strstr(err.msg, "at most 134217728 together")) fail_msg("%s", err.msg);
    assert_int_equal(lsp_docs_find(d, "file:///a")->len, part);
    /* reopening counts the new text only */
    assert_int_equal(lsp_docs_open(d, "file:///b", "", big, part, 2, &err), 0);
    assert_int_equal(lsp_docs_close(d, "file:///b", &err), 0);
    assert_int_equal(lsp_docs_open(d, "file:///d", "", "x", 1, 1, &err), 0);
    free(big);
    lsp_docs_destroy(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_surrogate_pairs),
        cmocka_unit_test(test_line_endings),
        cmocka_unit_test(test_sync),
        cmocka_unit_test(test_changes_match_reference),
        cmocka_unit_test(test_many_changes_to_a_large_document),
        cmocka_unit_test(test_change_limits),
        cmocka_unit_test(test_versions_and_sync),
        cmocka_unit_test(test_open_limit),
        cmocka_unit_test(test_open_bytes_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
