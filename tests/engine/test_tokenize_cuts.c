/*
 * eng_tokenize_cuts: where it reports a clean cut, the ids before and after
 * it are exactly those of the two parts encoded alone; where it cannot
 * promise that, it says -1. Checked with the real Qwen vocabulary (the
 * tokenizer reference's tokenizer.json, as test_tokenizer_ref uses it) on
 * the tokenizer corpus, at many offsets of every file, special matching on
 * and off, and on the cases that must be refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../support/tiny_model.h"

#define CORPUS_DIR "tests/tokenizer/corpus"

enum { OFFSETS_PER_FILE = 400 };

static int setup(void **state) {
    char json[512];
    test_tokref_path(json, sizeof json, "tokenizer.json");
    *state = test_vocab_model_load(json);
    return *state ? 0 : -1;
}

static int teardown(void **state) {
    eng_model_free(*state);
    return 0;
}

/* The ids of text[0..n) (malloc'd; the caller frees); fails the test when
 * the tokenizer does. */
static int32_t *encode(const eng_model *m, const char *text, int64_t n,
                       unsigned flags, int64_t *n_ids) {
    int64_t cap = 3 * n + 1;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    assert_non_null(ids);
    *n_ids = eng_tokenize_ex(m, text, n, ids, cap, flags);
    assert_true(*n_ids >= 0 && *n_ids <= cap);
    return ids;
}

/* Encodes text with one cut at `at` and, when the cut is reported clean,
 * checks both sides against the parts encoded alone. Returns whether it was
 * clean. */
static bool check_cut(const eng_model *m, const char *text, int64_t n,
                      int64_t at, unsigned flags) {
    int64_t cap = 3 * n + 1, cut_at = -7;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    assert_non_null(ids);
    int64_t n_ids = eng_tokenize_cuts(m, text, n, ids, cap, flags, &at, 1,
                                      &cut_at);
    int64_t n_whole = 0;
    int32_t *whole = encode(m, text, n, flags, &n_whole);
    /* The cuts never change the ids themselves. */
    assert_int_equal(n_ids, n_whole);
    assert_memory_equal(ids, whole, (size_t)n_ids * sizeof *ids);
    free(whole);
    assert_true(cut_at == -1 || (cut_at >= 0 && cut_at <= n_ids));
    if (cut_at >= 0) {
        int64_t n_a = 0, n_b = 0;
        int32_t *a = encode(m, text, at, flags, &n_a);
        int32_t *b = encode(m, text + at, n - at, flags, &n_b);
        if (n_a != cut_at || n_b != n_ids - cut_at ||
            memcmp(a, ids, (size_t)n_a * sizeof *a) ||
            memcmp(b, ids + cut_at, (size_t)n_b * sizeof *b))
            fail_msg("cut at byte %lld of %lld reported clean (id %lld) but "
                     "the parts encode to %lld + %lld ids that differ",
                     (long long)at, (long long)n, (long long)cut_at,
                     (long long)n_a, (long long)n_b);
        free(a);
        free(b);
    }
    free(ids);
    return cut_at >= 0;
}

static char *read_all(const char *path, int64_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 > cap) {
            cap = 2 * cap + 4096;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = (int64_t)len;
    return buf;
}

/* Every corpus file: offsets spread over the file (each a code point start
 * or not), with specials matched and not. Most offsets in code fall inside
 * a piece (-1 is right there); the test fails if fewer than one in ten of
 * them is found clean, which would mean the cuts were useless. */
static void test_corpus_cuts(void **state) {
    const eng_model *m = *state;
    DIR *d = opendir(CORPUS_DIR);
    if (!d) fail_msg("cannot open %s (run from the repository root)",
                     CORPUS_DIR);
    int files = 0;
    long tried = 0, clean = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".txt")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        int64_t n = 0;
        char *text = read_all(path, &n);
        int64_t step = n / OFFSETS_PER_FILE + 1;
        for (int64_t at = 0; at <= n; at += step) {
            for (unsigned flags = 0; flags <= ENG_TOK_SPECIAL; flags++) {
                clean += check_cut(m, text, n, at, flags);
                tried++;
            }
        }
        free(text);
        files++;
    }
    closedir(d);
    assert_true(files >= 20);
    if (clean * 10 < tried)
        fail_msg("only %ld of %ld cuts were clean", clean, tried);
}

/* A whitespace run before a non-space splits differently when the text
 * ends there ("a  " keeps its two spaces together; in "a  1" the last
 * space stands alone before the digit): the cut is refused, and it must
 * be, because the parts encode differently. */
static void test_lookahead_refused(void **state) {
    const eng_model *m = *state;
    const char *text = "a  1";
    int64_t at = 3, cut_at = 0;
    int32_t ids[16];
    assert_int_equal(eng_tokenize_cuts(m, text, 4, ids, 16, 0, &at, 1,
                                       &cut_at) >= 0, 1);
    assert_int_equal(cut_at, -1);
    int64_t n_whole = 0, n_a = 0;
    int32_t *whole = encode(m, text, 4, 0, &n_whole);
    int32_t *a = encode(m, text, 3, 0, &n_a);
    bool same = n_a <= n_whole && !memcmp(a, whole, (size_t)n_a * sizeof *a);
    assert_false(same && n_whole - n_a == 1);
    free(whole);
    free(a);
    /* A newline ending the run, or whitespace after the cut, is clean. */
    assert_true(check_cut(m, "a \n1", 4, 3, 0));
    assert_true(check_cut(m, "x  y", 4, 2, 0));
}

/* Offsets that cannot be promised: inside a piece, inside a special
 * token, inside a code point, outside the text, in text that needed UTF-8
 * repair or NFC. The ends and the edges of a special token are clean. */
static void test_refusals(void **state) {
    const eng_model *m = *state;
    int32_t ids[64];
    const char *t = "hello<|im_end|>world";
    int64_t cuts[] = {0, 2, 5, 7, 15, 20, 21, -1};
    int64_t at[8];
    int64_t n = eng_tokenize_cuts(m, t, 20, ids, 64, ENG_TOK_SPECIAL, cuts, 8,
                                  at);
    assert_true(n > 2);
    assert_int_equal(at[0], 0);
    assert_int_equal(at[1], -1);      /* inside "hello" */
    assert_true(at[2] >= 1);          /* before the special token */
    assert_int_equal(ids[at[2]], eng_special_id(m, "<|im_end|>"));
    assert_int_equal(at[3], -1);      /* inside it */
    assert_int_equal(at[4], at[2] + 1); /* after it */
    assert_int_equal(at[5], n);       /* the end */
    assert_int_equal(at[6], -1);      /* past the end */
    assert_int_equal(at[7], -1);
    int64_t mid = 1, one = 0;
    assert_true(eng_tokenize_cuts(m, "\xc3\xa9", 2, ids, 64, 0, &mid, 1,
                                  &one) >= 0);
    assert_int_equal(one, -1);        /* inside "é" */
    int64_t c = 2;
    assert_true(eng_tokenize_cuts(m, "a \xff b", 5, ids, 64, 0, &c, 1,
                                  &one) >= 0);
    assert_int_equal(one, -1);        /* repaired text */
    assert_true(eng_tokenize_cuts(m, "x e\xcc\x81 y", 7, ids, 64, 0, &c, 1,
                                  &one) >= 0);
    assert_int_equal(one, -1);        /* "e" + U+0301 becomes "é" */
    int64_t empty = 0;
    assert_int_equal(eng_tokenize_cuts(m, "", 0, ids, 64, 0, &empty, 1, &one),
                     0);
    assert_int_equal(one, 0);
    assert_int_equal(eng_tokenize_cuts(m, "x", 1, ids, 64, 0, NULL, 1, &one),
                     -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_cuts),
        cmocka_unit_test(test_lookahead_refused),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
