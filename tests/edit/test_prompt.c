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

static const char SYSTEM2[] =
    "You are a precise code editor. You may be given a file for reference; "
    "you are given some of its lines and an instruction. Apply the "
    "instruction to those lines and reply with them, complete and edited, in "
    "a single fenced code block. The rest of the file is context only: do not "
    "repeat it. Change nothing that the instruction does not ask for, and "
    "write nothing outside the code block.";

/* v2's exact text: the document first (unmarked), then the region by its
 * line numbers, then the instruction; and without a context, the region
 * alone. v1 stays the default and refuses a context. */
static void test_edit_prompt_v2_exact(void **state) {
    (void)state;
    assert_string_equal(edit_prompt_version_name(0), "sb-edit-prompt-v1");
    assert_string_equal(edit_prompt_version_name(2), "sb-edit-prompt-v2");
    assert_null(edit_prompt_version_name(3));
    int v = 0;
    assert_int_equal(edit_prompt_version_parse("v2", &v), 0);
    assert_int_equal(v, 2);
    assert_int_equal(edit_prompt_version_parse("sb-edit-prompt-v1", &v), 0);
    assert_int_equal(v, 1);
    assert_int_equal(edit_prompt_version_parse("v3", &v), -1);
    const char *doc = "int f(int a);\nint x = f(1);\nint y;";
    edit_request r = {.file = doc + 14, .file_len = 14,
        .instruction = "Pass 2.", .instruction_len = 7, .language = "c",
        .prompt_version = 2, .context = doc, .context_len = (int64_t)strlen(doc),
        .context_line = 1, .region_line = 2, .context_whole = true};
    int64_t len;
    char *text = edit_text(&r, &len);
    char want[4096];
    snprintf(want, sizeof want,
             "<|im_start|>system\n%s<|im_end|>\n"
             "<|im_start|>user\nThe file, for reference:\n\n"
             "```c\nint f(int a);\nint x = f(1);\nint y;\n```\n\n"
             "Lines 2-2 of the file, to edit:\n\n```c\nint x = f(1);\n```\n\n"
             "Instruction: Pass 2.<|im_end|>\n"
             "<|im_start|>assistant\n```c\n", SYSTEM2);
    expect_text(text, len, want);
    free(text);
    r.context_whole = false;
    r.context_line = 2;
    r.context = doc + 14;
    r.context_len = 20;
    text = edit_text(&r, &len);
    assert_non_null(strstr(text, "user\nLines 2-3 of the file, for reference:\n\n"
                                 "```c\nint x = f(1);\nint y;\n```\n\n"));
    free(text);
    r.context = NULL;
    text = edit_text(&r, &len);
    snprintf(want, sizeof want,
             "<|im_start|>system\n%s<|im_end|>\n"
             "<|im_start|>user\nThe code, to edit:\n\n```c\nint x = f(1);\n```\n\n"
             "Instruction: Pass 2.<|im_end|>\n"
             "<|im_start|>assistant\n```c\n", SYSTEM2);
    expect_text(text, len, want);
    free(text);
    sb_err err = {0};
    char *none = NULL;
    r.context = doc;
    r.prompt_version = 1;
    assert_int_equal(edit_prompt_text(&r, &none, &len, &err), -1);
    assert_non_null(strstr(err.msg, "prompt v1 shows no file context"));
    r.prompt_version = 7;
    err = (sb_err){{0}};
    assert_int_equal(edit_prompt_text(&r, &none, &len, &err), -1);
    assert_non_null(strstr(err.msg, "prompt version 7"));
}

/* Two edits of one document in different regions share the prompt up to
 * the region's line numbers: the system turn and the whole document. */
static void test_edit_prompt_v2_shared_prefix(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    char doc[4096] = "";
    for (int i = 0; i < 60; i++) {
        char line[64];
        snprintf(line, sizeof line, "int v%d = %d;\n", i, i * 7);
        strcat(doc, line);
    }
    const int64_t n = (int64_t)strlen(doc);
    sb_err err = {0};
    edit_request a = {.instruction = "Rename.", .instruction_len = 7, .language = "c"};
    edit_request b = {.instruction = "Double it.", .instruction_len = 10, .language = "c"};
    const char *l10 = strstr(doc, "int v10 "), *l12 = strstr(doc, "int v12 ");
    const char *l40 = strstr(doc, "int v40 "), *l41 = strstr(doc, "int v41 ");
    assert_int_equal(edit_request_set_context(&a, m, doc, n, l10 - doc, l12 - doc,
                                              100000, &err), 0);
    assert_int_equal(edit_request_set_context(&b, m, doc, n, l40 - doc, l41 - doc,
                                              100000, &err), 0);
    assert_true(a.context_whole && a.region_line == 11 && a.file_len == l12 - l10);
    assert_int_equal(b.region_line, 41);
    int32_t *ia = NULL, *ib = NULL;
    int64_t na = 0, nb = 0;
    assert_int_equal(edit_prompt_tokens(m, &a, &ia, &na, &err), 0);
    assert_int_equal(edit_prompt_tokens(m, &b, &ib, &nb, &err), 0);
    int64_t same = 0;
    while (same < na && same < nb && ia[same] == ib[same]) same++;
    /* the byte vocabulary: one id per byte but for the three specials
     * before (12 + 10 + 12 bytes, one id each), so the shared ids are the
     * bytes up to "Lines " and the region's line number */
    char *text = edit_text(&a, &(int64_t){0});
    const char *at = strstr(text, "Lines 11-12 of the file, to edit");
    assert_non_null(at);
    assert_int_equal(same, (at - text) - 31 + 6);
    assert_true(same > n);
    free(text);
    free(ia);
    free(ib);
    /* a region that is not whole lines is refused */
    assert_int_equal(edit_request_set_context(&a, m, doc, n, 3, l12 - doc, 1000, &err), -1);
    assert_non_null(strstr(err.msg, "line starts"));
    eng_model_free(m);
}

/* A budget smaller than the document: a window of whole lines holding the
 * region, starting on a grid of half a budget's lines (50 here), the
 * earliest grid line whose window reaches past the region, so nearby
 * regions get the same window; a region larger than the budget is shown
 * alone. */
static void test_context_window(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    enum { LINES = 400 };
    char *doc = malloc(LINES * 16), *starts[LINES + 1];
    assert_non_null(doc);
    int64_t n = 0;
    for (int i = 0; i < LINES; i++) {
        starts[i] = doc + n;
        n += snprintf(doc + n, 16, "x%07d = 1;\n", i); /* 14 bytes, 14 ids */
    }
    starts[LINES] = doc + n;
    sb_err err = {0};
    edit_request a = {.instruction = "Go.", .instruction_len = 3};
    /* budget 1400 ids: 100 lines; the grid: 400 * 700 / 5600 = 50 lines */
    assert_int_equal(edit_request_set_context(&a, m, doc, n, starts[200] - doc,
                                              starts[203] - doc, 1400, &err), 0);
    assert_false(a.context_whole);
    assert_int_equal(a.context_line, 151); /* 150..249 holds 200..202; 100.. not */
    assert_int_equal(a.context_len, 100 * 14);
    assert_int_equal(a.region_line, 201);
    edit_request b = {.instruction = "Go.", .instruction_len = 3};
    assert_int_equal(edit_request_set_context(&b, m, doc, n, starts[205] - doc,
                                              starts[206] - doc, 1400, &err), 0);
    assert_int_equal(b.context_line, a.context_line); /* the same window */
    assert_ptr_equal(b.context, a.context);
    assert_int_equal(edit_request_set_context(&b, m, doc, n, starts[100] - doc,
                                              starts[300] - doc, 1400, &err), 0);
    assert_int_equal(b.context_line, 101); /* the region alone */
    assert_int_equal(b.context_len, 200 * 14);
    /* near the top: the window starts at line 1 */
    assert_int_equal(edit_request_set_context(&b, m, doc, n, starts[3] - doc,
                                              starts[4] - doc, 1400, &err), 0);
    assert_int_equal(b.context_line, 1);
    assert_int_equal(b.context_len, 100 * 14);
    free(doc);
    eng_model_free(m);
}

/* The prompt version a model gets: its file's sonicboom.edit_prompt_versions
 * (the highest known), else v2, except the demo model by name; a bad key is
 * refused at load, by name. */
static eng_model *versions_model(const int32_t *v, int n, const char *name,
                                 const char *want_err) {
    mk_job job;
    test_job_init(&job);
    job.prompt_versions = v;
    job.n_prompt_versions = n;
    if (name) snprintf(job.name, sizeof job.name, "%s", name);
    char path[64];
    snprintf(path, sizeof path, "/tmp/sb-pv-%d.gguf", (int)getpid());
    return test_job_write_and_load(&job, path, want_err);
}

static void test_prompt_version_for(void **state) {
    (void)state;
    eng_model *m = versions_model(NULL, 0, NULL, NULL);
    assert_int_equal(eng_model_prompt_versions(m), 0);
    assert_int_equal(edit_prompt_version_for(m), 2);
    eng_model_free(m);
    m = versions_model(NULL, 0, "sonicboom-demo", NULL);
    assert_int_equal(edit_prompt_version_for(m), 1);
    eng_model_free(m);
    const int32_t one[] = {1}, both[] = {2, 1}, future[] = {1, 9};
    m = versions_model(one, 1, NULL, NULL);
    assert_int_equal(eng_model_prompt_versions(m), 1u << 1);
    assert_int_equal(edit_prompt_version_for(m), 1);
    eng_model_free(m);
    m = versions_model(both, 2, "sonicboom-demo", NULL); /* the key wins */
    assert_int_equal(edit_prompt_version_for(m), 2);
    eng_model_free(m);
    m = versions_model(future, 2, NULL, NULL); /* 9 unknown here: 1 */
    assert_int_equal(edit_prompt_version_for(m), 1);
    eng_model_free(m);
    const int32_t zero[] = {0}, neg[] = {2, -1};
    assert_null(versions_model(zero, 1, NULL, "edit_prompt_versions'[0] is 0"));
    assert_null(versions_model(neg, 2, NULL, "edit_prompt_versions'[1] is 4294967295"));
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
        cmocka_unit_test(test_edit_prompt_v2_exact),
        cmocka_unit_test(test_edit_prompt_v2_shared_prefix),
        cmocka_unit_test(test_context_window),
        cmocka_unit_test(test_prompt_version_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
