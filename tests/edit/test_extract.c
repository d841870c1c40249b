/* Tests of the model-free parts of edit/: reading the edited file out of a
 * fenced reply (extract.c), the reply a file makes and its round trip
 * through the edit prompt's own format and language names (language.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit.h"

/* ==== helpers ============================================================== */

/* Extracts from a NUL-terminated answer; returns the file length, or -1
 * (err filled) when there is no closing fence. */
static int64_t extract(const char *answer, int64_t fence, bool added,
                       sb_err *err) {
    int64_t n = -7;
    if (edit_extract(answer, (int64_t)strlen(answer), fence, added, &n, NULL,
                     err))
        return -1;
    assert_true(n >= 0 && n <= (int64_t)strlen(answer));
    return n;
}

/* The answer must give exactly `want` (a prefix of the answer). */
static void expect_file(const char *answer, int64_t fence, bool added,
                        const char *want) {
    sb_err err = {0};
    int64_t n = extract(answer, fence, added, &err);
    if (n < 0) fail_msg("no file in '%s': %s", answer, err.msg);
    if (n != (int64_t)strlen(want) || memcmp(answer, want, (size_t)n))
        fail_msg("answer '%s' gave '%.*s', expected '%s'", answer, (int)n,
                 answer, want);
}

static void expect_no_fence(const char *answer, int64_t fence) {
    sb_err err = {0};
    assert_int_equal(extract(answer, fence, false, &err), -1);
    assert_non_null(strstr(err.msg, "no closing fence"));
    assert_null(strchr(err.msg, '\n'));
}

/* ==== extraction =========================================================== */

static void test_plain_file(void **state) {
    (void)state;
    expect_file("int x;\nint y;\n```", 3, false, "int x;\nint y;\n");
    /* what a model writes after the fence is not part of the file */
    expect_file("int x;\n```\nThat renames x.", 3, false, "int x;\n");
    expect_file("int x;\n```\n<|im_end|>", 3, false, "int x;\n");
}

static void test_no_final_newline(void **state) {
    (void)state;
    /* the prompt showed the file with a "\n" added: it is taken off again */
    expect_file("a\nb\n```", 3, true, "a\nb");
    /* a reply that adds a blank line keeps it */
    expect_file("a\nb\n\n```", 3, true, "a\nb\n");
    assert_true(edit_adds_newline("a\nb", 3));
    assert_false(edit_adds_newline("a\nb\n", 4));
    assert_false(edit_adds_newline("", 0));
}

static void test_empty_file(void **state) {
    (void)state;
    expect_file("```", 3, false, "");
    expect_file("```", 3, true, "");
    expect_file("````", 4, false, "");
    expect_file("\n```", 3, false, "\n");
}

static void test_missing_fence(void **state) {
    (void)state;
    expect_no_fence("", 3);
    expect_no_fence("int x;\n", 3);
    expect_no_fence("int x;\n``", 3);
    /* a fence that does not start a line */
    expect_no_fence("int x; ```", 3);
    /* indented: code, not the closing fence */
    expect_no_fence("int x;\n   ```\n", 3);
    /* followed by an info string: an opening fence inside the file */
    expect_no_fence("text\n```python\nprint(1)\n", 3);
}

static void test_backtick_runs(void **state) {
    (void)state;
    /* fence of 4 (the file had a run of 3): shorter runs are file text */
    expect_file("x = \"```\"\n```\ny\n````", 4, false, "x = \"```\"\n```\ny\n");
    /* a longer run at column 0 closes, as in CommonMark */
    expect_file("x\n``````\ntrailing", 4, false, "x\n");
    /* a run with text after it does not close */
    expect_file("x\n````md\ny\n````", 4, false, "x\n````md\ny\n");
    /* inline backticks in code never close */
    expect_file("s = `a` + ``b``\n```", 3, false, "s = `a` + ``b``\n");
}

static void test_fence_line_whitespace(void **state) {
    (void)state;
    expect_file("x\n```   \n", 3, false, "x\n");
    expect_file("x\n```\t\n", 3, false, "x\n");
    expect_file("x\n``` .\n```", 3, false, "x\n``` .\n");
}

static void test_crlf(void **state) {
    (void)state;
    /* a CRLF file keeps its line ends; the fence line may end in CRLF */
    expect_file("a\r\nb\r\n```\r\n", 3, false, "a\r\nb\r\n");
    expect_file("a\r\nb\r\n```", 3, false, "a\r\nb\r\n");
    /* CRLF file without a final line end: the prompt added "\n" only */
    expect_file("a\r\nb\n```", 3, true, "a\r\nb");
}

static void test_closing_offset(void **state) {
    (void)state;
    const char *a = "ab\n```\nmore";
    int64_t n = 0, at = 0;
    sb_err err = {0};
    assert_int_equal(edit_extract(a, (int64_t)strlen(a), 3, false, &n, &at,
                                  &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(at, 3);
    assert_int_equal(edit_extract(a, -1, 3, false, &n, &at, &err), -1);
    assert_int_equal(edit_extract(a, 3, 2, false, &n, &at, &err), -1);
}

/* ==== the reply a file makes, and the prompt round trip =================== */

static const struct {
    const char *file;
    const char *why;
} FILES[] = {
    {"int x;\n", "ends in a newline"},
    {"int x;", "no final newline"},
    {"", "empty"},
    {"\n\n", "only newlines"},
    {"a\r\nb\r\n", "CRLF"},
    {"a\r\nb", "CRLF without a final line end"},
    {"s = \"```\"\n", "a run of three backticks"},
    {"x = 1\n````\n", "a run of four at column 0"},
    {"<|im_end|>\n", "special-token text"},
};
enum { N_FILES = sizeof FILES / sizeof *FILES };

/* The prompt shows a file exactly as a reply that leaves it unchanged
 * must write it: the user turn holds the fence line, then
 * edit_answer_text(file), then the end of the turn; and extracting that
 * reply gives the file back. */
static void test_prompt_round_trip(void **state) {
    (void)state;
    for (int i = 0; i < N_FILES; i++) {
        const char *f = FILES[i].file;
        int64_t len = (int64_t)strlen(f);
        edit_request rq = {.instruction = "keep it", .instruction_len = 7,
                           .file = f, .file_len = len, .language = "c"};
        char *prompt = NULL, *answer = NULL;
        int64_t plen = 0, alen = 0, fence = edit_fence_len(f, len);
        sb_err err = {0};
        assert_int_equal(edit_prompt_text(&rq, &prompt, &plen, &err), 0);
        bool added = edit_adds_newline(f, len);
        assert_int_equal(edit_answer_text(f, len, fence, added, &answer,
                                          &alen, &err), 0);
        assert_int_equal(alen, (int64_t)strlen(answer));
        char fence_line[80];
        snprintf(fence_line, sizeof fence_line, "%.*sc\n", (int)fence,
                 "````````````````````````````````");
        char *block = malloc(strlen(fence_line) + (size_t)alen + 16);
        sprintf(block, "%s%s<|im_end|>", fence_line, answer);
        if (!strstr(prompt, block))
            fail_msg("%s: the prompt does not show the reply's text",
                     FILES[i].why);
        /* the assistant turn opens with the same fence line */
        size_t fl = strlen(fence_line);
        assert_true((size_t)plen >= fl);
        assert_memory_equal(prompt + plen - (int64_t)fl, fence_line, fl);
        int64_t n = -1;
        assert_int_equal(edit_extract(answer, alen, fence, added, &n, NULL,
                                      &err), 0);
        if (n != len || memcmp(answer, f, (size_t)len))
            fail_msg("%s: the reply did not give the file back", FILES[i].why);
        free(block);
        free(answer);
        free(prompt);
    }
}

/* Edited files (not just the original) survive answer_text + extract, for
 * either newline convention of the original. */
static void test_answer_text_round_trip(void **state) {
    (void)state;
    const char *edited[] = {"int y;\n", "int y;", "", "a\r\nb\r\n", "x\n\n"};
    for (size_t i = 0; i < sizeof edited / sizeof *edited; i++) {
        for (int added = 0; added <= 1; added++) {
            const char *f = edited[i];
            int64_t len = (int64_t)strlen(f), n = -1, alen = 0;
            /* without added_newline a file lacking "\n" cannot be said */
            if (!added && len > 0 && f[len - 1] != '\n') continue;
            char *a = NULL;
            sb_err err = {0};
            assert_int_equal(edit_answer_text(f, len, 3, added, &a, &alen,
                                              &err), 0);
            assert_int_equal(edit_extract(a, alen, 3, added, &n, NULL, &err), 0);
            assert_int_equal(n, len);
            assert_memory_equal(a, f, (size_t)len);
            free(a);
        }
    }
}

/* ==== languages ============================================================ */

static void test_language(void **state) {
    (void)state;
    assert_string_equal(edit_language("python", NULL), "python");
    assert_string_equal(edit_language("typescriptreact", "a.c"), "tsx");
    assert_string_equal(edit_language("shellscript", NULL), "bash");
    assert_string_equal(edit_language("ruby", NULL), "ruby");
    assert_string_equal(edit_language(NULL, "src/ring.h"), "c");
    assert_string_equal(edit_language("", "lib/x.RS"), "rust");
    assert_string_equal(edit_language(NULL, "a/b.test.tsx"), "tsx");
    assert_null(edit_language(NULL, "Makefile"));
    assert_null(edit_language(NULL, "dir.d/noext"));
    assert_null(edit_language(NULL, ".bashrc"));
    assert_null(edit_language(NULL, NULL));
}

static void test_drafter_parse(void **state) {
    (void)state;
    edit_drafter_kind k;
    sb_err err = {0};
    assert_int_equal(edit_drafter_parse("ngram", &k, &err), 0);
    assert_int_equal(k, EDIT_DRAFTER_NGRAM);
    assert_int_equal(edit_drafter_parse("none", &k, &err), 0);
    assert_int_equal(k, EDIT_DRAFTER_NONE);
    assert_int_equal(edit_drafter_parse("tree", &k, &err), -1);
    assert_non_null(strstr(err.msg, "tree"));
}

/* ==== the sure part of a reply still coming (edit_partial) ================= */

/* Feeds every prefix of `answer` (the whole reply, with its closing line)
 * to an edit_partial: what it knows never shrinks and is never more than
 * the file edit_extract finds in the whole reply (the file is the reply's
 * own prefix); once the closing line is complete it is all of the file. */
static void expect_partial(const char *answer, int64_t fence, bool added) {
    sb_err err = {0};
    int64_t file = 0, at = 0;
    if (edit_extract(answer, (int64_t)strlen(answer), fence, added, &file, &at, &err))
        fail_msg("no file in '%s': %s", answer, err.msg);
    const char *nl = strchr(answer + at, '\n');
    const int64_t complete = nl ? nl - answer + 1 : -1; /* closing line ends */
    edit_partial p = edit_partial_start(fence, added);
    int64_t last = 0;
    for (int64_t len = 0; len <= (int64_t)strlen(answer); len++) {
        edit_partial_update(&p, answer, len);
        if (p.known_len < last || p.known_len > file)
            fail_msg("'%s' after %lld bytes: %lld known, file %lld, before %lld",
                     answer, (long long)len, (long long)p.known_len,
                     (long long)file, (long long)last);
        assert_true(p.closed == (complete >= 0 && len >= complete));
        if (p.closed) assert_int_equal(p.known_len, file);
        last = p.known_len;
    }
}

static void test_partial_is_a_prefix(void **state) {
    (void)state;
    expect_partial("int x;\nint y;\n```\n", 3, false);
    expect_partial("int x;\nint y;\n```", 3, false);     /* closing line unfinished */
    expect_partial("a\nb\n```\n<|im_end|>", 3, true);    /* the added "\n" held back */
    expect_partial("```\n", 3, false);                   /* an empty file */
    expect_partial("\n```\n", 3, true);
    /* backtick runs that are not the closing line are the file's */
    expect_partial("x\n``\n```c\n ```\n````  \r\nmore\n", 4, false);
    expect_partial("\xc3\xa9\n\xe2\x82\xac\n```\n", 3, false);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_file),
        cmocka_unit_test(test_no_final_newline),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_missing_fence),
        cmocka_unit_test(test_backtick_runs),
        cmocka_unit_test(test_fence_line_whitespace),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_closing_offset),
        cmocka_unit_test(test_prompt_round_trip),
        cmocka_unit_test(test_answer_text_round_trip),
        cmocka_unit_test(test_language),
        cmocka_unit_test(test_drafter_parse),
        cmocka_unit_test(test_partial_is_a_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
