/* Tests of the copy drafter with syntax and edits (drafter/copy.c over
 * drafter/syntax.c and drafter/subst.c): sources and outputs are written
 * as text, cut into word-like tokens by a small tokenizer here (a run of
 * indentation, "\n", or an optional space and a word or one punctuation
 * character), so each test reads as the edit it stands for. Each scenario
 * is driven as the engine drives a drafter, and the proposals are checked
 * against the output the "model" writes next. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../../drafter/syntax.h"
#include "../support/tiny_model.h"

enum { MAXD = ENG_MAX_DRAFT, MAX_TOK = 512, MAX_WORDS = 256 };

/* ==== a word tokenizer ===================================================== */

static char words[MAX_WORDS][32];
static int32_t n_words;

static int32_t word_id(const char *s, int64_t n) {
    for (int32_t i = 0; i < n_words; i++)
        if ((int64_t)strlen(words[i]) == n && !memcmp(words[i], s, (size_t)n))
            return i;
    assert_true(n_words < MAX_WORDS && n < 32);
    memcpy(words[n_words], s, (size_t)n);
    words[n_words][n] = 0;
    return n_words++;
}

/* Token ids of text into ids, byte offsets into off (n + 1 of them). */
static int32_t tokenize(const char *text, int32_t *ids, int64_t *off) {
    int64_t i = 0, len = (int64_t)strlen(text);
    int32_t n = 0;
    while (i < len) {
        int64_t j = i;
        if ((i == 0 || text[i - 1] == '\n') && text[i] == ' ') {
            while (j < len && text[j] == ' ') j++;        /* indentation */
        } else if (text[i] == '\n') {
            j++;
        } else {
            if (text[j] == ' ') j++;
            if (j < len && (isalnum((unsigned char)text[j]) || text[j] == '_'))
                while (j < len && (isalnum((unsigned char)text[j]) || text[j] == '_'))
                    j++;
            else if (j < len && text[j] != '\n')
                j++;
        }
        assert_true(n < MAX_TOK);
        off[n] = i;
        ids[n++] = word_id(text + i, j - i);
        i = j;
    }
    off[n] = len;
    return n;
}

/* A drafter over `source` in `language` (NULL: plain copying). */
static drf_copy *make(const char *source, const char *language) {
    static int32_t ids[MAX_TOK];
    static int64_t off[MAX_TOK + 1];
    int32_t n = tokenize(source, ids, off);
    uint8_t ends[MAX_WORDS] = {0};
    for (int32_t i = 0; i < n_words; i++)
        ends[i] = words[i][strlen(words[i]) - 1] == '\n';
    drf__copy_text t = {source, (int64_t)strlen(source), off, language, ends,
                        MAX_WORDS};
    /* A flat step cost: every draft token is free, so each proposal
     * shows all the drafter would copy, whatever length rule applies. */
    stepcost_table flat;
    stepcost_table_empty(&flat, "flat");
    for (int r = 1; r <= KRN_MAX_ROWS; r++) flat.listed[r] = 1;
    sb_err err = {0};
    drf_copy *c = drf__copy_create_ex(
        ids, n, &t,
        &(drf_copy_opts){.source_only = true, .starts_like_source = true,
                         .step_costs = &flat},
        &err);
    if (!c) fail_msg("drf__copy_create_ex: %s", err.msg);
    return c;
}

/* ==== driving it =========================================================== */

typedef struct run {
    eng_drafter d;
    const char *text;      /* what the model writes, whole */
    int32_t out[MAX_TOK];  /* its tokens */
    int64_t off[MAX_TOK + 1];
    int32_t n_out, done;   /* of which done are committed */
} run;

static void start(run *r, drf_copy *c, const char *output) {
    r->d = drf_copy_drafter(c);
    r->text = output;
    r->n_out = tokenize(output, r->out, r->off);
    r->done = 0;
    int32_t prompt = word_id("<prompt>", 8);
    r->d.begin(r->d.ctx, &prompt, 1);
}

/* One engine step: propose, then commit the accepted run plus the model's
 * next token, but no further than token `until` (a stop there). Returns
 * the accepted draft length; *d the proposed one. */
static int32_t step_until(run *r, int32_t *d, int32_t until) {
    int32_t draft[MAXD];
    *d = r->d.propose(r->d.ctx, r->out, r->done, MAXD, draft);
    assert_true(*d >= 0 && *d <= MAXD);
    int32_t ok = 0;
    while (ok < *d && r->done + ok < r->n_out && draft[ok] == r->out[r->done + ok])
        ok++;
    int32_t n = ok + 1 < until - r->done ? ok + 1 : until - r->done;
    r->d.accept(r->d.ctx, r->out + r->done, n);
    r->done += n;
    return ok;
}

static int32_t step(run *r, int32_t *d) { return step_until(r, d, r->n_out); }

/* Steps until the output has been committed up to the end of the first
 * occurrence of `text` in it (which must end on a token boundary). */
static void run_through(run *r, const char *text) {
    const char *hit = strstr(r->text, text);
    if (!hit) fail_msg("\"%s\" is not in the output", text);
    int64_t end = hit - r->text + (int64_t)strlen(text);
    int32_t until = 0, d;
    while (until < r->n_out && r->off[until] < end) until++;
    assert_true(r->off[until] == end);
    assert_true(r->done <= until);
    while (r->done < until) step_until(r, &d, until);
}

/* The next proposal, as text (into buf). */
static const char *proposal(run *r, char *buf, size_t cap) {
    int32_t draft[MAXD];
    int32_t d = r->d.propose(r->d.ctx, r->out, r->done, MAXD, draft);
    buf[0] = 0;
    for (int32_t i = 0; i < d; i++) strncat(buf, words[draft[i]], cap - strlen(buf) - 1);
    return buf;
}

/* ==== (b) resynchronisation ================================================ */

static const char *SRC_PY =
    "def area(w, h):\n"
    "    check(w)\n"
    "    check(h)\n"
    "    s = w * h\n"
    "    log(s)\n"
    "    return s\n";

/* A line inserted before a unit: at the end of the new line the drafter
 * comes back at that unit (before seeing any of it); plain copying has
 * nothing to go on there. */
static void test_resync_after_inserted_line(void **state) {
    (void)state;
    const char *out =
        "def area(w, h):\n"
        "    check(w)\n"
        "    assert w > 0\n"
        "    check(h)\n"
        "    s = w * h\n"
        "    log(s)\n"
        "    return s\n";
    char buf[1024];
    int32_t accepted[2];
    for (int syntax = 0; syntax < 2; syntax++) {
        drf_copy *c = make(SRC_PY, syntax ? "python" : NULL);
        assert_true((drf_copy_language(c) != NULL) == syntax);
        run r;
        start(&r, c, out);
        run_through(&r, "assert w > 0\n");
        const char *p = proposal(&r, buf, sizeof buf);
        if (syntax)
            assert_true(!strncmp(p, "    check(h)\n", 13));
        else
            assert_false(!strncmp(p, "    check(h)", 12));
        int32_t d;
        accepted[syntax] = step(&r, &d);
        drf_copy_destroy(c);
    }
    assert_true(accepted[1] >= 5 && accepted[0] == 0);

}

/* A changed line (left inside its unit): back at the next unit. */
static void test_resync_after_changed_line(void **state) {
    (void)state;
    const char *out =
        "def area(w, h):\n"
        "    check(w)\n"
        "    check(h)\n"
        "    s = abs(w * h) + 0\n"
        "    log(s)\n"
        "    return s\n";
    char buf[1024];
    drf_copy *c = make(SRC_PY, "python");
    run r;
    start(&r, c, out);
    run_through(&r, "abs(w * h) + 0\n");
    assert_true(!strncmp(proposal(&r, buf, sizeof buf), "    log(s)\n", 11));
    drf_copy_destroy(c);
}

/* ==== (a) where to resume after a change inside a line =================== */

/* The output changes g's "y = 2;" to "y = 7;": nothing in the source
 * follows "= 7", so plain copying has no span, while with syntax the
 * drafter resumes in source order right after the replaced literal, in
 * the unit it was copying, and drafts g's own next lines. */
static void test_replacement_resumes_in_unit(void **state) {
    (void)state;
    const char *src =
        "int f(void) {\n"
        "    y = 1;\n"
        "    return 0;\n"
        "}\n"
        "int g(void) {\n"
        "    y = 2;\n"
        "    k = 1;\n"
        "    return 1;\n"
        "}\n";
    const char *out =
        "int f(void) {\n"
        "    y = 1;\n"
        "    return 0;\n"
        "}\n"
        "int g(void) {\n"
        "    y = 7;\n"
        "    k = 1;\n"
        "    return 1;\n"
        "}\n";
    char buf[1024];
    for (int syntax = 0; syntax < 2; syntax++) {
        drf_copy *c = make(src, syntax ? "c" : NULL);
        run r;
        start(&r, c, out);
        run_through(&r, "g(void) {\n    y = 7");
        const char *p = proposal(&r, buf, sizeof buf);
        if (syntax)
            assert_true(!strncmp(p, ";\n    k = 1;\n    return 1;", 24));
        else
            assert_string_equal(p, "");
        drf_copy_destroy(c);
    }
}

/* Lines reordered (entries sorted): the output writes a name at a line's
 * start that the source has on another line. A lookup that agrees with
 * the output back into the line before ("\n", indentation, the name) is
 * where it goes on, not right after the name it replaced. */
static void test_reordered_line_follows_lookup(void **state) {
    (void)state;
    const char *src =
        "x = {\n"
        "    pear: 3,\n"
        "    apple: 1,\n"
        "    fig: 2,\n"
        "}\n";
    const char *out =
        "x = {\n"
        "    apple: 1,\n"
        "    fig: 2,\n"
        "    pear: 3,\n"
        "}\n";
    char buf[1024];
    drf_copy *c = make(src, "javascript");
    run r;
    start(&r, c, out);
    run_through(&r, "x = {\n    apple");
    assert_true(!strncmp(proposal(&r, buf, sizeof buf), ": 1,\n    fig: 2,\n", 13));
    drf_copy_destroy(c);
}

/* ==== edits replayed ======================================================= */

/* A rename: once the output has written parse_line for parse, the next
 * call of parse is drafted as parse_line. */
static void test_substitution_replays_rename(void **state) {
    (void)state;
    const char *src =
        "import re\n"
        "def parse(s):\n"
        "    return s\n"
        "a = parse(x)\n"
        "b = parse(y)\n";
    const char *out =
        "import re\n"
        "def parse_line(s):\n"
        "    return s\n"
        "a = parse_line(x)\n"
        "b = parse_line(y)\n";
    char buf[1024];
    for (int syntax = 0; syntax < 2; syntax++) {
        drf_copy *c = make(src, syntax ? "python" : NULL);
        run r;
        start(&r, c, out);
        run_through(&r, "    return s\n");
        const char *p = proposal(&r, buf, sizeof buf);
        assert_true(!strncmp(p, "a = parse_line(x)\nb = parse_line(y)\n", 36));
        drf_copy_destroy(c);
    }
}

/* A changed type, a one-for-one replacement of a token, replayed; and an
 * edit the output does not repeat is dropped: drafts copy the source
 * again. */
static void test_substitution_dropped_when_not_followed(void **state) {
    (void)state;
    const char *src =
        "int z = 0;\n"
        "int a = 1;\n"
        "int b = 2;\n"
        "int c = 3;\n"
        "int d = 4;\n";
    const char *out =
        "int z = 0;\n"
        "long a = 1;\n"
        "long b = 2;\n"
        "int c = 3;\n"
        "int d = 4;\n";
    char buf[1024];
    drf_copy *c = make(src, "c");
    run r;
    start(&r, c, out);
    run_through(&r, "long a = 1;\n");
    assert_true(!strncmp(proposal(&r, buf, sizeof buf), "long b = 2;\nlong c", 18));
    run_through(&r, "long b = 2;\nint c");
    assert_true(!strncmp(proposal(&r, buf, sizeof buf), " = 3;\nint d = 4;\n", 17));
    drf_copy_destroy(c);
}

/* ==== fallback ============================================================= */

/* Text that is not the language (or an unknown one): no syntax, and the
 * proposals are step for step those of plain copying. */
static void test_fallback_is_plain_copying(void **state) {
    (void)state;
    const char *src = "}}} ((( x = ; ; ; ]] [[ y +\n}}} ((( z = ; ; ;\n";
    const char *out = "}}} ((( x = ; ; ; ]] [[ q +\n}}} ((( z = ; ; ;\n";
    const char *langs[] = {"c", "no-such-language"};
    for (int l = 0; l < 2; l++) {
        drf_copy *a = make(src, langs[l]), *b = make(src, NULL);
        assert_null(drf_copy_language(a));
        run ra, rb;
        start(&ra, a, out);
        start(&rb, b, out);
        while (ra.done < ra.n_out) {
            int32_t da, db;
            assert_int_equal(step(&ra, &da), step(&rb, &db));
            assert_int_equal(da, db);
            assert_int_equal(ra.done, rb.done);
        }
        drf_copy_destroy(a);
        drf_copy_destroy(b);
    }
}

/* ==== from text, through the model's tokenizer; output unchanged ========== */

/* drf_copy_create_text parses what the model's tokens spell; generation
 * with the syntax drafter gives exactly the tokens of plain decoding. */
static void test_create_text_and_exactness(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    const char *file = "int add(int a, int b) {\n    return a + b;\n}\n"
                       "int sub(int a, int b) {\n    return a - b;\n}\n";
    sb_err err = {0};
    int64_t len = (int64_t)strlen(file);
    int32_t ids[256];
    int64_t n_ids = eng_tokenize_ex(m, file, len, ids, 256, 0);
    assert_true(n_ids > 0 && n_ids <= 256);
    drf_copy *c = drf_copy_create_text(m, file, len, ids, (int32_t)n_ids,
                                       drf_language_for_path("x.c"), NULL, &err);
    if (!c) fail_msg("drf_copy_create_text: %s", err.msg);
    assert_string_equal(drf_copy_language(c), "c");
    drf_copy *plain = drf_copy_create_text(m, file, len, ids, (int32_t)n_ids,
                                           "cobol", NULL, &err);
    assert_non_null(plain);
    assert_null(drf_copy_language(plain));
    assert_null(drf_copy_create_text(NULL, file, 3, ids, 1, "c", NULL, &err));
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(s);
    int32_t prompt[256];
    int64_t n_prompt = eng_tokenize(m, file, (int64_t)strlen(file), prompt, 256);
    assert_true(n_prompt > 0 && n_prompt <= 256);
    eng_gen_result want = {0}, got = {0};
    eng_gen_params p = eng_gen_defaults();
    p.n_max = 48;
    p.stop_at_eos = false;
    assert_int_equal(eng_generate(s, prompt, (int32_t)n_prompt, &p, NULL, NULL,
                                  &want, &err), 0);
    eng_drafter d = drf_copy_drafter(c);
    p.drafter = &d;
    for (int seed = 0; seed < 2; seed++) {
        p.sampling = (eng_sampling){.temperature = seed ? 0.8f : 0, .seed = 7};
        eng_gen_params q = p;
        q.drafter = NULL;
        eng_gen_result ref = {0};
        assert_int_equal(eng_generate(s, prompt, (int32_t)n_prompt, &q, NULL,
                                      NULL, &ref, &err), 0);
        assert_int_equal(eng_generate(s, prompt, (int32_t)n_prompt, &p, NULL,
                                      NULL, &got, &err), 0);
        assert_int_equal(got.n_tokens, ref.n_tokens);
        assert_memory_equal(got.tokens, ref.tokens,
                            (size_t)ref.n_tokens * sizeof *ref.tokens);
        free(ref.tokens);
        free(got.tokens);
    }
    free(want.tokens);
    eng_session_destroy(s);
    drf_copy_destroy(c);
    drf_copy_destroy(plain);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resync_after_inserted_line),
        cmocka_unit_test(test_resync_after_changed_line),
        cmocka_unit_test(test_replacement_resumes_in_unit),
        cmocka_unit_test(test_reordered_line_follows_lookup),
        cmocka_unit_test(test_substitution_replays_rename),
        cmocka_unit_test(test_substitution_dropped_when_not_followed),
        cmocka_unit_test(test_fallback_is_plain_copying),
        cmocka_unit_test(test_create_text_and_exactness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
