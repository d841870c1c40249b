/* `sb edit` and `sb draftsim` through the built binary ("$SB_BUILD/sb"):
 * exit codes, what goes to stdout and stderr, the summary line and the
 * JSON report. What the commands compute is tested in-process by
 * test_edit.c and test_draftsim.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const char *FILE_C = "int add(int a, int b) {\n    return a + b;\n}\n";

/* ==== sb edit ============================================================== */

/* The value of "key=" in the summary line sb printed on stderr, into out. */
static void summary_value(const char *key, char *out, size_t cap) {
    char *err = test_sb_read("err", NULL);
    char *line = strstr(err, "sb edit: prompt_tokens=");
    if (!line) fail_msg("no summary line in: %s", err);
    test_text_field(line, key, out, cap);
    free(err);
}

static void test_cli_edit(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    const char *file = test_sb_path(0, "add.c");
    test_write_file(file, FILE_C, strlen(FILE_C));
    char sha_on[80], sha_off[80];
    for (int spec = 0; spec <= 1; spec++) {
        int rc = test_sb("edit -m '%s' --file '%s' --instruction 'rename add' "
                         "--max-tokens 40 --threads 2 --speculation %s", model, file,
                         spec ? "on" : "off");
        assert_int_equal(rc, 1);
        char *out = test_sb_read("out", NULL), *err = test_sb_read("err", NULL);
        assert_string_equal(out, ""); /* nothing on stdout */
        assert_non_null(strstr(err, "no closing fence"));
        assert_non_null(strstr(err, "raw answer"));
        summary_value("sha256=", spec ? sha_on : sha_off, sizeof sha_on);
        free(out);
        free(err);
    }
    assert_int_equal(strlen(sha_on), 64);
    assert_string_equal(sha_on, sha_off);

    /* without -m: the default model, here through SB_MODEL */
    setenv("SB_MODEL", model, 1);
    assert_int_equal(test_sb("edit --file '%s' --instruction x --max-tokens 4",
                             file), 1);
    char *no_m = test_sb_read("err", NULL);
    assert_non_null(strstr(no_m, "no closing fence"));
    free(no_m);
    setenv("SB_MODEL", "/nonexistent/model.gguf", 1);
    assert_int_equal(test_sb("edit --file '%s' --instruction x", file), 1);
    no_m = test_sb_read("err", NULL);
    assert_non_null(strstr(no_m, "SB_MODEL"));
    free(no_m);
    unsetenv("SB_MODEL");
    assert_int_equal(test_sb("edit -m '%s' --file '%s'", model, file), 2);
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction x "
                             "--speculation maybe", model, file), 2);
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction x",
                             model, test_sb_path(1, "none.c")), 1);
    char *err = test_sb_read("err", NULL);
    assert_non_null(strstr(err, "none.c"));
    free(err);
}

/* ==== sb draftsim ========================================================== */

static json_t *out_json(void) {
    json_error_t jerr;
    json_t *j = json_load_file(test_sb_path(3, "out"), 0, &jerr);
    if (!j) fail_msg("draftsim --json: %s", jerr.text);
    return j;
}

/* Writes text to name in the scratch directory. */
static void spit(const char *name, const char *text) {
    test_write_file(test_sb_path(3, name), text, strlen(text));
}

/* The JSON report has the documented keys; its speedup is the one its
 * rows histogram gives under the table passed; --drafter none is one token
 * per step; a bad table is refused naming the line. */
static void test_cli_draftsim(void **state) {
    (void)state;
    char json_path[512];
    test_tokref_path(json_path, sizeof json_path, "tokenizer.json");
    const char *model = test_vocab_model_path(json_path);
    const char *in = "tests/data/edits/c_rename/input.c";
    const char *ex = "tests/data/edits/c_rename/expected.c";
    spit("costs", "# made-up costs\n1 1\n2 1.5\n8 2\n64 4\n");
    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s "
                             "--instruction 'rename rb_push' --json "
                             "--cost-table %s", model, in, ex,
                             test_sb_path(0, "costs")), 0);
    json_t *j = out_json();
    const char *keys[] = {"output_tokens", "steps", "tokens_per_step",
                          "projected_speedup", "accept_hist", "rows_hist"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!json_object_get(j, keys[i])) fail_msg("no key %s", keys[i]);
    json_t *rows = json_object_get(j, "rows_hist");
    assert_int_equal(json_array_size(rows), KRN_MAX_ROWS + 1);
    double spec = 0;
    for (int r = 1; r <= KRN_MAX_ROWS; r++) {
        double c = r == 1 ? 1 : r == 2 ? 1.5 : r <= 8 ? 2 : 4;
        spec += (double)json_integer_value(json_array_get(rows, r)) * c;
    }
    double plain = (double)(json_integer_value(json_object_get(j, "output_tokens")) - 1);
    double got = json_real_value(json_object_get(j, "projected_speedup"));
    assert_true(got > plain / spec - 1e-9 && got < plain / spec + 1e-9);
    json_decref(j);

    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s --json "
                             "--drafter none", model, in, ex), 0);
    j = out_json();
    assert_true(json_real_value(json_object_get(j, "tokens_per_step")) == 1.0);
    json_decref(j);

    spit("bad", "1 1\n2 -1\n");
    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s "
                             "--cost-table %s", model, in, ex,
                             test_sb_path(0, "bad")), 1);
    char *err = test_sb_read("err", NULL);
    assert_non_null(strstr(err, "line 2"));
    free(err);
    assert_int_equal(test_sb("draftsim -m '%s' --input %s", model, in), 2);
    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s "
                             "--drafter tree", model, in, ex), 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_edit),
        cmocka_unit_test(test_cli_draftsim),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
