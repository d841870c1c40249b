/* Tests of edit_run (edit/edit.c) on the tiny synthetic models. A
 * random-weight model never closes the fence, so the success path is
 * driven by injecting a reply into edit__finish (the part of edit_run
 * after generation); the model runs show the failure path, the exactness
 * of speculation through the edit job, progress and cancel. `sb edit` is
 * tests/edit/test_cli.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit.h"
#include "../../edit/edit_internal.h"
#include "../support/tiny_model.h"

static const char *FILE_C = "int add(int a, int b) {\n    return a + b;\n}\n";
static const char *INSTR = "Rename add to sum.";

static edit_request request(const char *file, const char *path) {
    return (edit_request){.file = file, .file_len = (int64_t)strlen(file),
                          .instruction = INSTR,
                          .instruction_len = (int64_t)strlen(INSTR),
                          .path = path};
}

static eng_model *vocab_model(void) {
    char json[512];
    test_tokref_path(json, sizeof json, "tokenizer.json");
    return test_vocab_model_load(json);
}

static eng_session *session(const eng_model *m) {
    sb_err err = {0};
    eng_session *s = eng_session_create(
        m, &(eng_options){.n_threads = 2, .n_ctx = 1024}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    return s;
}

/* ==== the success path, with the reply injected =========================== */

/* Puts the ids of `reply` (plain text) and then `end` into res->gen, as
 * generation would have left them. */
static void inject(const eng_model *m, const char *reply, int64_t len,
                   int32_t end, edit_result *res) {
    memset(res, 0, sizeof *res);
    int64_t cap = 3 * len + 2;
    res->gen.tokens = malloc((size_t)cap * sizeof(int32_t));
    int64_t n = eng_tokenize_ex(m, reply, len, res->gen.tokens, cap, 0);
    assert_true(n >= 0 && n < cap);
    if (end >= 0) res->gen.tokens[n++] = end;
    res->gen.n_tokens = (int32_t)n;
}

/* A reply for `edited` after the prompt for `original` gives `edited`. */
static void check_injected(const eng_model *m, const char *original,
                           const char *path, const char *edited) {
    edit_request rq = request(original, path);
    edit__job job;
    sb_err err = {0};
    if (edit__job_make(m, &rq, &job, &err)) fail_msg("job: %s", err.msg);
    char *reply = NULL;
    int64_t rlen = 0;
    assert_int_equal(edit_answer_text(edited, (int64_t)strlen(edited),
                                      job.fence_len, job.added_newline, &reply,
                                      &rlen, &err), 0);
    edit_result res = {0};
    if (edit_reply_ids(m, original, (int64_t)strlen(original), edited,
                       (int64_t)strlen(edited), &res.gen.tokens,
                       &res.gen.n_tokens, &err))
        fail_msg("edit_reply_ids: %s", err.msg);
    assert_int_equal(res.gen.tokens[res.gen.n_tokens - 1],
                     eng_special_id(m, "<|im_end|>"));
    if (edit__finish(m, &job, false, &res, &err))
        fail_msg("edit__finish: %s", err.msg);
    assert_int_equal(res.status, EDIT_DONE);
    assert_int_equal(res.text_len, (int64_t)strlen(edited));
    assert_memory_equal(res.text, edited, strlen(edited));
    /* the raw answer is the reply's text, without <|im_end|> */
    assert_int_equal(res.answer_len, rlen);
    assert_memory_equal(res.answer, reply, (size_t)rlen);
    free(reply);
    edit_result_free(&res);
    edit__job_free(&job);
}

static void test_injected_replies(void **state) {
    (void)state;
    eng_model *m = vocab_model();
    check_injected(m, FILE_C, "add.c",
                   "int sum(int a, int b) {\n    return a + b;\n}\n");
    /* the original lacks a final newline: so does the result */
    check_injected(m, "x = 1\ny = 2", "a.py", "x = 1\ny = 3");
    /* CRLF, and backticks that make the fence longer */
    check_injected(m, "s = \"```\"\r\nt = 1\r\n", "a.py",
                   "s = \"```\"\r\nt = 2\r\n");
    check_injected(m, "# doc\n", "README.md", "");
    /* an edited file that would close the fence early has no reply */
    int32_t *ids = NULL, n = 0;
    sb_err err = {0};
    const char *early = "a\n```\nb\n";
    assert_int_equal(edit_reply_ids(m, FILE_C, (int64_t)strlen(FILE_C), early,
                                    (int64_t)strlen(early), &ids, &n, &err),
                     -1);
    assert_non_null(strstr(err.msg, "close the answer's fence"));
    assert_null(ids);
    eng_model_free(m);
}

/* A reply without a closing fence: EDIT_BAD_ANSWER, no text, the raw reply
 * kept; a cancelled one: EDIT_CANCELLED. */
static void test_injected_failures(void **state) {
    (void)state;
    eng_model *m = vocab_model();
    edit_request rq = request(FILE_C, "add.c");
    edit__job job;
    sb_err err = {0};
    if (edit__job_make(m, &rq, &job, &err)) fail_msg("job: %s", err.msg);
    const char *bad = "int sum(int a, int b) {\n    return a + b;\n}\n";
    edit_result res;
    inject(m, bad, (int64_t)strlen(bad), eng_special_id(m, "<|im_end|>"), &res);
    assert_int_equal(edit__finish(m, &job, false, &res, &err), -1);
    assert_int_equal(res.status, EDIT_BAD_ANSWER);
    assert_null(res.text);
    assert_string_equal(res.answer, bad);
    assert_non_null(strstr(err.msg, "no closing fence"));
    edit_result_free(&res);

    const char *good = "int sum(int a, int b) {\n}\n```";
    inject(m, good, (int64_t)strlen(good), -1, &res);
    sb_err err2 = {0};
    assert_int_equal(edit__finish(m, &job, true, &res, &err2), -1);
    assert_int_equal(res.status, EDIT_CANCELLED);
    assert_null(res.text);
    assert_non_null(strstr(err2.msg, "cancelled"));
    edit_result_free(&res);
    edit__job_free(&job);
    eng_model_free(m);
}

/* ==== model runs =========================================================== */

typedef struct progress_log {
    int calls, cancel_at;
    int32_t last_tokens;
    bool ok;
} progress_log;

static int on_progress(void *ctx, const edit_progress *p) {
    progress_log *log = ctx;
    log->calls++;
    if (p->tokens <= log->last_tokens || p->steps < 1 || p->elapsed_s < 0 ||
        p->accept_rate < 0 || p->accept_rate > 1)
        log->ok = false;
    log->last_tokens = p->tokens;
    return log->cancel_at && log->calls >= log->cancel_at;
}

static void run(eng_session *s, edit_drafter_kind kind, int32_t max_draft,
                progress_log *log, edit_result *res, sb_err *err) {
    edit_request rq = request(FILE_C, "add.c");
    edit_opts o = edit_defaults();
    o.drafter = kind;
    o.max_draft = max_draft;
    o.max_tokens = 48;
    o.progress = on_progress;
    o.progress_ctx = log;
    edit_run(s, &rq, &o, res, err);
}

/* The random model answers, but never closes the fence: the run reports a
 * bad answer with the reply, and speculation on or off gives the same ids
 * (and so the same reply). Progress is reported once per step. */
static void test_model_bad_answer_exact(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    eng_session *s = session(m);
    edit_result off, on[3];
    progress_log log_off = {.ok = true};
    sb_err err = {0};
    run(s, EDIT_DRAFTER_NONE, 0, &log_off, &off, &err);
    assert_int_equal(off.status, EDIT_BAD_ANSWER);
    assert_non_null(strstr(err.msg, "no closing fence"));
    assert_null(off.text);
    assert_non_null(off.answer);
    assert_true(log_off.ok);
    assert_int_equal(log_off.calls, off.gen.steps);
    assert_int_equal(log_off.last_tokens, off.gen.n_tokens);
    int32_t n_prompt = 0, max_tokens = 0;
    edit_request rq = request(FILE_C, "add.c");
    edit_opts o = edit_defaults();
    o.max_tokens = 48;
    assert_int_equal(edit_plan(m, &rq, &o, &n_prompt, &max_tokens, &err), 0);
    assert_int_equal(n_prompt, off.n_prompt);
    assert_int_equal(max_tokens, 48);
    static const struct { edit_drafter_kind kind; int32_t max_draft; } SPEC[] = {
        {EDIT_DRAFTER_COPY, 0}, {EDIT_DRAFTER_COPY, 5}, {EDIT_DRAFTER_NGRAM, 0}};
    for (int i = 0; i < 3; i++) {
        progress_log log = {.ok = true};
        sb_err e = {0};
        run(s, SPEC[i].kind, SPEC[i].max_draft, &log, &on[i], &e);
        assert_int_equal(on[i].status, EDIT_BAD_ANSWER);
        assert_string_equal(on[i].gen.sha256, off.gen.sha256);
        assert_int_equal(on[i].gen.n_tokens, off.gen.n_tokens);
        assert_int_equal(on[i].answer_len, off.answer_len);
        assert_memory_equal(on[i].answer, off.answer, (size_t)off.answer_len);
        assert_string_equal(on[i].prompt_sha256, off.prompt_sha256);
        assert_true(log.ok);
        assert_int_equal(log.calls, on[i].gen.steps);
        assert_int_equal(log.last_tokens, on[i].gen.n_tokens);
        edit_result_free(&on[i]);
    }
    edit_result_free(&off);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Cancelling from the progress callback stops the run early, distinctly. */
static void test_model_cancel(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    eng_session *s = session(m);
    for (int kind = EDIT_DRAFTER_COPY; kind <= EDIT_DRAFTER_NONE; kind++) {
        progress_log log = {.ok = true, .cancel_at = 3};
        edit_result res;
        sb_err err = {0};
        run(s, (edit_drafter_kind)kind, 0, &log, &res, &err);
        assert_int_equal(res.status, EDIT_CANCELLED);
        assert_non_null(strstr(err.msg, "cancelled"));
        assert_null(res.text);
        assert_int_equal(log.calls, 3);
        assert_true(res.gen.n_tokens < 48);
        /* no step after the one that saw the cancel */
        assert_true(res.gen.steps <= 4);
        edit_result_free(&res);
    }
    eng_session_destroy(s);
    eng_model_free(m);
}

static void test_bad_requests(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    eng_session *s = session(m);
    edit_result res;
    sb_err err = {0};
    edit_request rq = request(FILE_C, NULL);
    rq.instruction_len = 0;
    assert_int_equal(edit_run(s, &rq, NULL, &res, &err), -1);
    assert_int_equal(res.status, EDIT_FAILED);
    assert_non_null(strstr(err.msg, "instruction"));
    edit_result_free(&res);
    edit_result_free(NULL);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* An edit applied further down the document (line 30 of 40) keeps the KV
 * of everything before it: the next edit of lines 5-7, prompt v2 with the
 * document as context, prefills from the first token the two prompts do
 * not share, which lies in line 30; its output is the output the same edit
 * gives from an empty cache. */
static void test_applied_edit_keeps_prefix(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    eng_session *s = eng_session_create(
        m, &(eng_options){.n_threads = 2, .n_ctx = 2048}, &err);
    assert_non_null(s);
    char before[2048] = "", after[2048] = "";
    for (int i = 1; i <= 40; i++) {
        char line[64];
        snprintf(line, sizeof line, "int value_%02d = %d;\n", i, i * 3);
        strcat(before, line);
        if (i == 30) snprintf(line, sizeof line, "long value_%02d = %d;\n", i, i * 3);
        strcat(after, line);
    }
    const int64_t n = (int64_t)strlen(before), na = (int64_t)strlen(after);
    const char *r5 = strstr(before, "int value_05"), *r8 = strstr(before, "int value_08");
    const char *a5 = strstr(after, "int value_05"), *a8 = strstr(after, "int value_08");
    edit_request first = request("", "x.c"), second = request("", "x.c");
    assert_int_equal(edit_request_set_context(&first, m, before, n, r5 - before,
                                              r8 - before, 100000, &err), 0);
    assert_int_equal(edit_request_set_context(&second, m, after, na, a5 - after,
                                              a8 - after, 100000, &err), 0);
    edit_opts o = edit_defaults();
    o.max_tokens = 8;
    edit_result r1, r2, cold;
    edit_run(s, &first, &o, &r1, &err);
    edit_run(s, &second, &o, &r2, &err);
    assert_int_equal(r2.gen.n_tokens, 8); /* ran (a random model: no fence) */
    int64_t same = 0;
    while (same < r1.n_prompt && same < r2.n_prompt &&
           r1.prompt_ids[same] == r2.prompt_ids[same])
        same++;
    /* the byte vocabulary: lines 1-29 are 29 * 16 ids of the prompt */
    assert_true(same > 29 * 16);
    assert_int_equal(r2.gen.cached_tokens, same);
    o.prefix_cache = false;
    edit_run(s, &second, &o, &cold, &err);
    assert_int_equal(cold.gen.cached_tokens, 0);
    assert_string_equal(cold.gen.sha256, r2.gen.sha256);
    edit_result_free(&r1);
    edit_result_free(&r2);
    edit_result_free(&cold);
    eng_session_destroy(s);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injected_replies),
        cmocka_unit_test(test_injected_failures),
        cmocka_unit_test(test_model_bad_answer_exact),
        cmocka_unit_test(test_model_cancel),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_applied_edit_keeps_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
