/*
 * sb prompt through the built binary ("$SB_BUILD/sb"): its lines are the
 * engine's and the edit library's ids, called in-process, so a model
 * trained on them sees exactly what sb edit shows it and is asked to write
 * (edit_prompt_tokens, edit_reply_ids); an edited file that would close
 * the fence early is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const char *FILE_C = "int add(int a, int b) {\n    return a + b;\n}";
static const char *EDITED = "int sum(int a, int b) {\n    return a + b;\n}\n";

/* ids as sb prompt prints them: one line, separated by spaces. */
static char *ids_line(const int32_t *ids, int64_t n) {
    char *s = malloc((size_t)n * 12 + 2), *p = s;
    assert_non_null(s);
    for (int64_t i = 0; i < n; i++) p += sprintf(p, "%s%d", i ? " " : "", (int)ids[i]);
    strcpy(p, "\n");
    return s;
}

static void test_prompt_lines_are_the_libraries(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    test_write_file(test_sb_path(0, "add.c"), FILE_C, strlen(FILE_C));
    test_write_file(test_sb_path(1, "sum.c"), EDITED, strlen(EDITED));
    assert_int_equal(test_sb("prompt -m '%s' -i 'rename add to sum' -f '%s' "
                             "--edited '%s'", model, test_sb_path(0, "add.c"),
                             test_sb_path(1, "sum.c")), 0);
    char *out = test_sb_read("out", NULL);

    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    edit_request r = {.file = FILE_C, .file_len = (int64_t)strlen(FILE_C),
                      .instruction = "rename add to sum", .instruction_len = 17,
                      .path = "add.c"};
    int32_t *prompt = NULL, *reply = NULL, n_reply = 0;
    int64_t n_prompt = 0;
    if (edit_prompt_tokens(m, &r, &prompt, &n_prompt, &err) ||
        edit_reply_ids(m, FILE_C, (int64_t)strlen(FILE_C), EDITED,
                       (int64_t)strlen(EDITED), &reply, &n_reply, &err))
        fail_msg("%s", err.msg);
    char *a = ids_line(prompt, n_prompt), *b = ids_line(reply, n_reply);
    size_t la = strlen(a);
    assert_true(strlen(out) == la + strlen(b));
    assert_memory_equal(out, a, la);
    assert_string_equal(out + la, b);
    free(a);
    free(b);
    free(prompt);
    free(reply);
    free(out);
    eng_model_free(m);
}

/* An edited file with a line of backticks as long as the fence: the answer
 * could never be written, so there is no answer to train on. */
static void test_prompt_refuses_early_fence(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    const char *bad = "int x;\n```\n";
    test_write_file(test_sb_path(0, "add.c"), FILE_C, strlen(FILE_C));
    test_write_file(test_sb_path(1, "bad.c"), bad, strlen(bad));
    assert_int_equal(test_sb("prompt -m '%s' -i x -f '%s' --edited '%s'", model,
                             test_sb_path(0, "add.c"), test_sb_path(1, "bad.c")), 1);
    assert_true(test_sb_output_has("err", "close the answer's fence early"));
}

/* Little-endian u32 at p. */
static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* A v2 task in --tasks ("prompt": "v2", "lines": [2, 3]): its record is
 * the library's v2 prompt with the file as the document and lines 2..3 as
 * the region (sb edit's default budget), and the answer is the rewritten
 * region; the v1 task after it keeps the v1 prompt. tools/train/ makes
 * its v2 training data this way. */
static void test_prompt_tasks_v2(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    const char *doc = "int add(int a, int b);\nint main(void) {\n    return add(1, 2);\n}\n";
    const char *region_new = "int main(void) {\n    return sum(1, 2);\n";
    const char *tasks =
        "{\"instruction\": \"call sum\", \"lang\": \"c\", \"prompt\": \"v2\", "
        "\"lines\": [2, 3], \"file\": \"int add(int a, int b);\\nint main(void) "
        "{\\n    return add(1, 2);\\n}\\n\", \"edited\": \"int main(void) {\\n"
        "    return sum(1, 2);\\n\"}\n"
        "{\"instruction\": \"rename add to sum\", \"lang\": \"c\", \"file\": "
        "\"int add(int a, int b) {\\n    return a + b;\\n}\", \"edited\": "
        "\"int sum(int a, int b) {\\n    return a + b;\\n}\\n\"}\n";
    test_write_file(test_sb_path(0, "tasks.jsonl"), tasks, strlen(tasks));
    assert_int_equal(test_sb("prompt -m '%s' --tasks '%s' --out '%s'", model,
                             test_sb_path(0, "tasks.jsonl"), test_sb_path(1, "ids.bin")), 0);
    size_t len = 0;
    unsigned char *bin = (unsigned char *)test_read_file(test_sb_path(1, "ids.bin"), &len);

    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    sb_err err = {0};
    edit_request v2 = {.instruction = "call sum", .instruction_len = 8, .language = "c"};
    const char *from = strstr(doc, "int main"), *to = strstr(doc, "}\n");
    if (edit_request_set_context(&v2, m, doc, (int64_t)strlen(doc), from - doc, to - doc,
                                 edit_context_budget_default(eng_model_n_ctx(m) < 4096 ?
                                                             eng_model_n_ctx(m) : 4096),
                                 &err))
        fail_msg("%s", err.msg);
    edit_request v1 = {.file = FILE_C, .file_len = (int64_t)strlen(FILE_C),
                       .instruction = "rename add to sum", .instruction_len = 17,
                       .language = "c"};
    const struct { const edit_request *r; const char *edited; } want[] = {
        {&v2, region_new}, {&v1, EDITED}};
    size_t at = 8;
    assert_true(len > 8 && !memcmp(bin, "SBTOK001", 8));
    for (int t = 0; t < 2; t++) {
        int32_t *prompt = NULL, *reply = NULL, n_reply = 0;
        int64_t n_prompt = 0;
        if (edit_prompt_tokens(m, want[t].r, &prompt, &n_prompt, &err) ||
            edit_reply_ids(m, want[t].r->file, want[t].r->file_len, want[t].edited,
                           (int64_t)strlen(want[t].edited), &reply, &n_reply, &err))
            fail_msg("%s", err.msg);
        assert_true(at + 8 <= len);
        assert_int_equal(le32(bin + at), (uint32_t)n_prompt);
        assert_int_equal(le32(bin + at + 4), (uint32_t)n_reply);
        at += 8;
        assert_true(at + 4 * (size_t)(n_prompt + n_reply) <= len);
        for (int64_t i = 0; i < n_prompt; i++, at += 4)
            assert_int_equal((int32_t)le32(bin + at), prompt[i]);
        for (int32_t i = 0; i < n_reply; i++, at += 4)
            assert_int_equal((int32_t)le32(bin + at), reply[i]);
        free(prompt);
        free(reply);
    }
    assert_int_equal(at, len);
    assert_true(v2.prompt_version == 2 && v2.context_whole);
    free(bin);
    eng_model_free(m);
}

/* Bad "prompt" and "lines" members: one clear error line each. */
static void test_prompt_tasks_bad_region(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    static const struct { const char *task, *error; } cases[] = {
        {"{\"instruction\": \"x\", \"file\": \"a\\n\", \"edited\": \"b\\n\", "
         "\"prompt\": \"v2\", \"lines\": [3, 4]}\n", "the file has fewer than 3 lines"},
        {"{\"instruction\": \"x\", \"file\": \"a\\n\", \"edited\": \"b\\n\", "
         "\"lines\": [1, 1]}\n", "\"lines\" needs \"prompt\": \"v2\""},
        {"{\"instruction\": \"x\", \"file\": \"a\\n\", \"edited\": \"b\\n\", "
         "\"prompt\": \"v9\"}\n", "\"prompt\" must be \"v1\" or \"v2\""},
        {"{\"instruction\": \"x\", \"file\": \"a\\n\", \"edited\": \"b\\n\", "
         "\"prompt\": \"v2\", \"lines\": [2, 1]}\n", "must be [A, B] with 1 <= A <= B"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file(test_sb_path(0, "bad.jsonl"), cases[i].task, strlen(cases[i].task));
        assert_int_equal(test_sb("prompt -m '%s' --tasks '%s' --out '%s'", model,
                                 test_sb_path(0, "bad.jsonl"),
                                 test_sb_path(1, "bad.bin")), 1);
        assert_true(test_sb_output_has("err", cases[i].error));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prompt_lines_are_the_libraries),
        cmocka_unit_test(test_prompt_refuses_early_fence),
        cmocka_unit_test(test_prompt_tasks_v2),
        cmocka_unit_test(test_prompt_tasks_bad_region),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
