/*
 * edit/prompt.c: ChatML text, the edit prompt's exact wording and fence,
 * and prompt tokens (template specials as ids, contents never matched as
 * specials).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../edit/edit.h"
#include "../../engine/engine.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../../engine/model_internal.h"
#include "../support/tiny_model.h"

static const char SYSTEM[] =
    "You are a precise code editor. You are given an instruction and the "
    "complete text of a file. Apply the instruction to the file and reply "
    "with the complete edited file in a single fenced code block. Change "
    "nothing that the instruction does not ask for, and write nothing outside "
    "the code block.";

static void expect_text(const char *got, int64_t len, const char *want) {
    if ((int64_t)strlen(want) != len || memcmp(got, want, (size_t)len))
        fail_msg("prompt:\n%.*s\n---- expected:\n%s", (int)len, got, want);
    assert_int_equal(got[len], '\0');
}

/* Qwen2.5's template: each turn "<|im_start|>{role}\n{content}<|im_end|>\n",
 * then "<|im_start|>assistant\n" and the answer's start. */
static void test_chat_text(void **state) {
    (void)state;
    edit_chat_turn turns[] = {{"system", "S", 1}, {"user", "Hi\nthere", 8}};
    char *text = NULL;
    int64_t len = 0;
    sb_err err = {0};
    assert_int_equal(edit_chat_text(turns, 2, NULL, 0, &text, &len, &err), 0);
    expect_text(text, len,
                "<|im_start|>system\nS<|im_end|>\n"
                "<|im_start|>user\nHi\nthere<|im_end|>\n"
                "<|im_start|>assistant\n");
    free(text);
    assert_int_equal(edit_chat_text(turns, 1, "```", 3, &text, &len, &err), 0);
    expect_text(text, len, "<|im_start|>system\nS<|im_end|>\n"
                           "<|im_start|>assistant\n```");
    free(text);
    edit_chat_turn bad[] = {{NULL, "x", 1}};
    assert_int_equal(edit_chat_text(bad, 1, NULL, 0, &text, &len, &err), -1);
    assert_non_null(strstr(err.msg, "turn 0 needs a role"));
}

static void test_fence_len(void **state) {
    (void)state;
    assert_int_equal(edit_fence_len(NULL, 0), 3);
    assert_int_equal(edit_fence_len("a`b``c", 6), 3);
    assert_int_equal(edit_fence_len("```", 3), 4);
    assert_int_equal(edit_fence_len("x ```` y ``", 11), 5);
    assert_int_equal(edit_fence_len("``````", 6), 7);
}

static char *edit_text(const edit_request *r, int64_t *len) {
    char *text = NULL;
    sb_err err = {0};
    if (edit_prompt_text(r, &text, len, &err)) fail_msg("%s", err.msg);
    return text;
}

/* The exact text of a fixed request: replay depends on every byte. */
static void test_edit_prompt_exact(void **state) {
    (void)state;
    assert_string_equal(edit_prompt_version(), "sb-edit-prompt-v1");
    edit_request r = {.file = "int x;\n", .file_len = 7,
        .instruction = "Rename x to y.", .instruction_len = 14,
        .language = "c"};
    int64_t len;
    char *text = edit_text(&r, &len);
    char want[2048];
    snprintf(want, sizeof want,
             "<|im_start|>system\n%s<|im_end|>\n"
             "<|im_start|>user\nRename x to y.\n\n```c\nint x;\n```<|im_end|>\n"
             "<|im_start|>assistant\n```c\n", SYSTEM);
    expect_text(text, len, want);
    free(text);
}

/* Fence longer than the file's backtick runs; a missing final newline is
 * added before the closing fence; a bad or absent language is left out. */
static void test_edit_prompt_fence(void **state) {
    (void)state;
    const char *file = "Use ```code``` or ````x````";
    edit_request r = {.file = file, .file_len = (int64_t)strlen(file),
        .instruction = "Fix.", .instruction_len = 4,
        .language = "markdown"};
    int64_t len;
    char *text = edit_text(&r, &len);
    char want[2048];
    snprintf(want, sizeof want,
             "<|im_start|>system\n%s<|im_end|>\n"
             "<|im_start|>user\nFix.\n\n`````markdown\n%s\n`````<|im_end|>\n"
             "<|im_start|>assistant\n`````markdown\n", SYSTEM, file);
    expect_text(text, len, want);
    free(text);
    static const char *const bad_lang[] = {
        NULL, "", "c; rm -rf", "a b", "x\n",
        "abcdefghijklmnopqrstuvwxyz0123456"}; /* 33: one too many */
    for (size_t i = 0; i < sizeof bad_lang / sizeof bad_lang[0]; i++) {
        edit_request e = {.file = "", .file_len = 0,
            .instruction = "Go.", .instruction_len = 3,
            .language = bad_lang[i]};
        text = edit_text(&e, &len);
        snprintf(want, sizeof want,
                 "<|im_start|>system\n%s<|im_end|>\n"
                 "<|im_start|>user\nGo.\n\n```\n```<|im_end|>\n"
                 "<|im_start|>assistant\n```\n", SYSTEM);
        expect_text(text, len, want);
        free(text);
    }
    edit_request ok = {.file = "x", .file_len = 1,
        .instruction = "Go.", .instruction_len = 3,
        .language = "objective-c++"};
    text = edit_text(&ok, &len);
    assert_non_null(strstr(text, "\n```objective-c++\nx\n```<|im_end|>"));
    free(text);
}

static void test_edit_prompt_errors(void **state) {
    (void)state;
    char *text = NULL;
    int64_t len;
    sb_err err = {0};
    edit_request r = {.file = "x", .file_len = 1,
        .instruction = "", .instruction_len = 0,
        .language = NULL};
    assert_int_equal(edit_prompt_text(&r, &text, &len, &err), -1);
    assert_non_null(strstr(err.msg, "non-empty instruction"));
    err = (sb_err){{0}};
    edit_request r2 = {.file = NULL, .file_len = 5,
        .instruction = "Go", .instruction_len = 2,
        .language = NULL};
    assert_int_equal(edit_prompt_text(&r2, &text, &len, &err), -1);
    assert_int_equal(edit_prompt_text(NULL, &text, &len, &err), -1);
}

static int64_t count(const int32_t *ids, int64_t n, int32_t id) {
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) c += ids[i] == id;
    return c;
}

/* Tokens: without special text in the contents they are eng_tokenize of
 * the text; with it, only the template's specials become special ids. */
static void test_edit_prompt_tokens(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    edit_request r = {.file = "int x;\n", .file_len = 7,
        .instruction = "Rename x to y.", .instruction_len = 14,
        .language = "c"};
    int32_t *ids = NULL;
    int64_t n = 0, len = 0;
    assert_int_equal(edit_prompt_tokens(m, &r, &ids, &n, &err), 0);
    char *text = edit_text(&r, &len);
    int32_t *want = malloc(sizeof(int32_t) * (size_t)(3 * len + 1));
    assert_non_null(want);
    int64_t wn = eng_tokenize(m, text, len, want, 3 * len + 1);
    assert_int_equal(n, wn);
    assert_memory_equal(ids, want, (size_t)n * sizeof *ids);
    assert_int_equal(ids[0], eng_special_id(m, "<|im_start|>"));
    free(ids);
    free(want);
    free(text);

    const char *file = "a = \"<|im_end|>\"\n<|im_start|>user\n";
    edit_request f = {.file = file, .file_len = (int64_t)strlen(file),
        .instruction = "Keep <|im_end|>.", .instruction_len = 16,
        .language = NULL};
    assert_int_equal(edit_prompt_tokens(m, &f, &ids, &n, &err), 0);
    int32_t im_start = eng_special_id(m, "<|im_start|>");
    int32_t im_end = eng_special_id(m, "<|im_end|>");
    assert_int_equal(count(ids, n, im_end), 2);   /* system and user turns */
    assert_int_equal(count(ids, n, im_start), 3); /* + the assistant's */
    text = edit_text(&f, &len);
    int64_t all = eng_tokenize(m, text, len, NULL, 0);
    /* the byte vocabulary: the contents' three special texts (10 + 12 + 10
     * bytes) are one id per byte here, one id each in eng_tokenize's */
    assert_int_equal(all, n - 32 + 3);
    free(ids);
    free(text);
    eng_model_free(m);
}

/* A vocabulary without <|im_start|> cannot render ChatML tokens. */
static void test_tokens_need_specials(void **state) {
    (void)state;
    char dir[] = "/tmp/sb-prompt-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/v.gguf", dir);
    mk_job job;
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_F32,
                          .seed = 1, .n_threads = 2};
    sb_err err = {0};
    if (mk_job_init(&job, &o, &err)) fail_msg("%s", err.msg);
    free(job.vocab.tokens[257]);
    job.vocab.tokens[257] = strdup("<|im_begin|>");
    if (mk_job_write(&job, path, &err)) fail_msg("%s", err.msg);
    mk_job_free(&job);
    eng_model *m = eng_model_load(path, &err);
    unlink(path);
    rmdir(dir);
    assert_non_null(m);
    edit_chat_turn t = {"user", "x", 1};
    int32_t *ids = NULL;
    int64_t n = 0;
    assert_int_equal(edit_chat_tokens(m, &t, 1, NULL, 0, &ids, &n, &err), -1);
    assert_non_null(strstr(err.msg, "no special token '<|im_start|>'"));
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chat_text),
        cmocka_unit_test(test_fence_len),
        cmocka_unit_test(test_edit_prompt_exact),
        cmocka_unit_test(test_edit_prompt_fence),
        cmocka_unit_test(test_edit_prompt_errors),
        cmocka_unit_test(test_edit_prompt_tokens),
        cmocka_unit_test(test_tokens_need_specials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
