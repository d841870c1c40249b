/* Tests of lsp/diff.c: minimal hunks that rebuild the new text exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../lsp/lsp.h"

/* Diffs a and b, checks the hunks' invariants and that applying them to a
 * gives b; returns the count and leaves the hunks in *out (caller frees). */
static int diff_checked(const char *a, int64_t na, const char *b, int64_t nb,
                        lsp_hunk **out) {
    lsp_hunk *h = NULL;
    int n = -1;
    sb_err err = {0};
    assert_int_equal(lsp_diff(a, na, b, nb, &h, &n, &err), 0);
    char *r = malloc((size_t)(na + nb) + 1);
    int64_t rn = 0, at = 0;
    for (int i = 0; i < n; i++) {
        assert_true(h[i].old_start <= h[i].old_end);
        assert_true(h[i].new_start <= h[i].new_end);
        assert_true(h[i].old_start < h[i].old_end || h[i].new_start < h[i].new_end);
        assert_true(h[i].old_start > at || (i == 0 && h[i].old_start >= at));
        /* never inside a CRLF or a UTF-8 character of the old text */
        int64_t cuts[2] = {h[i].old_start, h[i].old_end};
        for (int k = 0; k < 2; k++) {
            int64_t c = cuts[k];
            if (c > 0 && c < na) {
                assert_false(a[c - 1] == '\r' && a[c] == '\n');
                assert_false(((unsigned char)a[c] & 0xC0) == 0x80);
            }
        }
        memcpy(r + rn, a + at, (size_t)(h[i].old_start - at));
        rn += h[i].old_start - at;
        memcpy(r + rn, b + h[i].new_start, (size_t)(h[i].new_end - h[i].new_start));
        rn += h[i].new_end - h[i].new_start;
        at = h[i].old_end;
    }
    memcpy(r + rn, a + at, (size_t)(na - at));
    rn += na - at;
    assert_int_equal(rn, nb);
    assert_memory_equal(r, b, (size_t)nb);
    free(r);
    if (out) *out = h;
    else free(h);
    return n;
}

static int diff_s(const char *a, const char *b, lsp_hunk **out) {
    return diff_checked(a, (int64_t)strlen(a), b, (int64_t)strlen(b), out);
}

static void test_small_cases(void **state) {
    (void)state;
    lsp_hunk *h;
    assert_int_equal(diff_s("same\ntext\n", "same\ntext\n", NULL), 0);
    assert_int_equal(diff_s("", "", NULL), 0);
    assert_int_equal(diff_s("", "new\n", NULL), 1);
    assert_int_equal(diff_s("old\n", "", NULL), 1);
    /* one word in one line: the hunk is that word */
    assert_int_equal(diff_s("int parse(void);\nint x;\n", "int parse_line(void);\nint x;\n",
                            &h), 1);
    assert_int_equal(h[0].old_start, 9);
    assert_int_equal(h[0].old_end, 9);
    assert_int_equal(h[0].new_end - h[0].new_start, 5); /* "_line" */
    free(h);
    /* two separate lines: two hunks; an unchanged line keeps them apart */
    assert_int_equal(diff_s("a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n", NULL), 2);
    /* inserted and deleted lines */
    assert_int_equal(diff_s("a\nb\nc\n", "a\nx\nb\nc\n", &h), 1);
    assert_int_equal(h[0].old_start, h[0].old_end);
    free(h);
    assert_int_equal(diff_s("a\nb\nc\n", "a\nc\n", NULL), 1);
    /* the last line gains or loses its newline */
    assert_int_equal(diff_s("a\nb", "a\nb\n", &h), 1);
    assert_int_equal(h[0].old_start, 3);
    free(h);
    assert_int_equal(diff_s("a\nb\n", "a\nb", NULL), 1);
}

static void test_never_splits(void **state) {
    (void)state;
    lsp_hunk *h;
    /* CRLF -> LF: the cut backs off to the whole pair */
    assert_int_equal(diff_s("a\r\nb\r\n", "a\nb\r\n", &h), 1);
    assert_int_equal(h[0].old_start, 1);
    assert_int_equal(h[0].old_end, 3);
    free(h);
    /* e-acute -> e-grave share their first byte: the hunk takes both */
    assert_int_equal(diff_s("caf\xC3\xA9\n", "caf\xC3\xA8\n", &h), 1);
    assert_int_equal(h[0].old_start, 3);
    assert_int_equal(h[0].old_end, 5);
    free(h);
}

/* Texts from a small alphabet of lines, so that lines repeat and the line
 * diff has real choices to make; seeded, the same every run. */
static char *random_text(uint64_t seed, int lines, int64_t *n) {
    static const char *const pieces[] = {"x", "y", "\xC3\xA9", "\xF0\x9F\x98\x80",
                                         "zz", " "};
    static const char *const ends[] = {"\n", "\r\n", "\n", "\r", ""};
    char *t = malloc((size_t)lines * 40 + 1);
    int64_t k = 0;
    for (int l = 0; l < lines; l++) {
        int len = (int)(sb_hash3(seed, (uint64_t)l, 0) % 4);
        for (int i = 0; i < len; i++) {
            const char *p = pieces[sb_hash3(seed, (uint64_t)l, (uint64_t)i + 1) % 6];
            memcpy(t + k, p, strlen(p));
            k += (int64_t)strlen(p);
        }
        const char *e = ends[sb_hash3(seed, (uint64_t)l, 99) % (l + 1 < lines ? 4 : 5)];
        memcpy(t + k, e, strlen(e));
        k += (int64_t)strlen(e);
    }
    t[k] = '\0';
    *n = k;
    return t;
}

static void test_random_pairs(void **state) {
    (void)state;
    for (uint64_t s = 0; s < 300; s++) {
        int64_t na, nb;
        char *a = random_text(s, (int)(s % 23), &na);
        char *b = random_text(s * 7 + 1, (int)((s * 5) % 19), &nb);
        diff_checked(a, na, b, nb, NULL);
        diff_checked(b, nb, a, na, NULL);
        free(a);
        free(b);
    }
}

static void test_large_files(void **state) {
    (void)state;
    /* 5000 lines, one changed: one hunk of that line's bytes */
    enum { N = 5000 };
    char *a = malloc(N * 12), *b = malloc(N * 12);
    int64_t na = 0, nb = 0;
    for (int i = 0; i < N; i++) {
        na += sprintf(a + na, "line %d\n", i);
        nb += sprintf(b + nb, i == 2500 ? "LINE %d\n" : "line %d\n", i);
    }
    lsp_hunk *h;
    assert_int_equal(diff_checked(a, na, b, nb, &h), 1);
    assert_int_equal(h[0].old_end - h[0].old_start, 4);
    free(h);
    /* every line changed, past the cost bound: still exact */
    nb = 0;
    for (int i = 0; i < N; i++) nb += sprintf(b + nb, "other %d\n", i);
    diff_checked(a, na, b, nb, NULL);
    free(a);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_cases),
        cmocka_unit_test(test_never_splits),
        cmocka_unit_test(test_random_pairs),
        cmocka_unit_test(test_large_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
