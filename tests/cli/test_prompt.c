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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prompt_lines_are_the_libraries),
        cmocka_unit_test(test_prompt_refuses_early_fence),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
