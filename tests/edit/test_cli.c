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
#include <math.h>
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

    /* --cost-table sizes the drafts: the default drafts (the answer starts
     * like the file), a table that prices two rows at a thousand times one
     * drafts nothing; the output is the same */
    char drafted[32];
    summary_value("drafted=", drafted, sizeof drafted);
    assert_true(atoi(drafted) > 0);
    const char *costs = test_sb_path(1, "costs.txt");
    test_write_file(costs, "1 1\n2 1000\n", 11);
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction 'rename "
                             "add' --max-tokens 40 --threads 2 --cost-table "
                             "'%s'", model, file, costs), 1);
    char sha_table[80];
    summary_value("sha256=", sha_table, sizeof sha_table);
    summary_value("drafted=", drafted, sizeof drafted);
    assert_string_equal(drafted, "0");
    assert_string_equal(sha_table, sha_on);
    test_write_file(costs, "1 1\n2 x\n", 8);
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction x "
                             "--cost-table '%s'", model, file, costs), 1);
    char *bad = test_sb_read("err", NULL);
    assert_non_null(strstr(bad, "line 2"));
    free(bad);

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
/* --lines, --context, --prompt and --prefix-cache: v2 with the file as
 * context holds more prompt tokens than the region alone; the output hash
 * is the same with the prefix cache on and off; bad combinations are
 * usage errors naming the option. */
static void test_cli_edit_region(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    const char *file = test_sb_path(0, "add.c");
    test_write_file(file, FILE_C, strlen(FILE_C));
    char with[32], without[32], sha_on[80], sha_off[80];
    const char *base = "edit -m '%s' --file '%s' --instruction 'rename add' "
                       "--max-tokens 20 --threads 2 --lines 2:2 --prompt v2 %s";
    assert_int_equal(test_sb(base, model, file, "--context file"), 1);
    summary_value("prompt_tokens=", with, sizeof with);
    summary_value("sha256=", sha_on, sizeof sha_on);
    assert_int_equal(test_sb(base, model, file, "--context file --prefix-cache off"), 1);
    summary_value("sha256=", sha_off, sizeof sha_off);
    assert_string_equal(sha_on, sha_off);
    assert_int_equal(test_sb(base, model, file, "--context region"), 1);
    summary_value("prompt_tokens=", without, sizeof without);
    assert_true(atoi(with) > atoi(without) + 20);
    assert_int_equal(test_sb(base, model, file, "--lines 9:9"), 2);
    char *err = test_sb_read("err", NULL);
    assert_non_null(strstr(err, "the file has fewer than 9 lines"));
    free(err);
    assert_int_equal(test_sb(base, model, file, "--prompt v1 --context file"), 2);
    err = test_sb_read("err", NULL);
    assert_non_null(strstr(err, "--context file needs prompt v2"));
    free(err);
    assert_int_equal(test_sb(base, model, file, "--lines 3:1"), 2);
}

static void test_cli_draftsim(void **state) {
    (void)state;
    char json_path[512];
    test_tokref_path(json_path, sizeof json_path, "tokenizer.json");
    const char *model = test_vocab_model_path(json_path);
    const char *in = "tests/data/edits/c_rename/input.c";
    const char *ex = "tests/data/edits/c_rename/expected.c";
    const char *costs_text = "# made-up costs\n1 1\n2 1.5\n8 2\n64 4\n";
    spit("costs", costs_text);
    stepcost_table costs;
    assert_int_equal(stepcost_table_parse(costs_text, (int64_t)strlen(costs_text),
                                          &costs, NULL), 0);
    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s "
                             "--instruction 'rename rb_push' --json "
                             "--cost-table %s", model, in, ex,
                             test_sb_path(0, "costs")), 0);
    json_t *j = out_json();
    const char *keys[] = {"output_tokens", "steps", "tokens_per_step",
                          "projected_speedup", "perfect_speedup",
                          "perfect_steps", "accept_hist", "rows_hist"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!json_object_get(j, keys[i])) fail_msg("no key %s", keys[i]);
    json_t *rows = json_object_get(j, "rows_hist");
    assert_int_equal(json_array_size(rows), KRN_MAX_ROWS + 1);
    double spec = 0;
    for (int r = 1; r <= KRN_MAX_ROWS; r++)
        spec += (double)json_integer_value(json_array_get(rows, r)) *
                stepcost_table_cost(&costs, r);
    double plain = (double)(json_integer_value(json_object_get(j, "output_tokens")) - 1);
    double got = json_real_value(json_object_get(j, "projected_speedup"));
    assert_true(got > plain / spec - 1e-9 && got < plain / spec + 1e-9);
    /* no drafter beats one that is always right, and that one is capped
     * by the cheapest rows per token of the table (64 rows for 4) */
    double cap = json_real_value(json_object_get(j, "perfect_speedup"));
    assert_true(cap >= got && cap <= 64.0 / 4 + 1e-9);
    assert_true(json_integer_value(json_object_get(j, "perfect_steps")) <
                json_integer_value(json_object_get(j, "steps")));
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

/* Copies tests/data/edits/NAME into the scratch folder "tasks" as a task
 * of the bench's format (meta.json: only the shape tasks.c reads). */
static void make_task(const char *name) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s' && cp tests/data/edits/%s/* "
             "'%s/%s/' && printf '{\"language\": \"x\", \"kind\": \"x\", "
             "\"lines_in\": 1, \"lines_out\": 1, \"changed_lines\": 1, "
             "\"changed_share\": 0.5}\n' > '%s/%s/meta.json'",
             test_sb_path(0, "tasks"), name, name, test_sb_path(1, "tasks"),
             name, test_sb_path(2, "tasks"), name);
    if (system(cmd) != 0) fail_msg("cannot make task %s", name);
}

/* --tasks: a line per task as --input/--expected would give it, then a
 * total that is total plain cost over total speculative cost. */
static void test_cli_draftsim_tasks(void **state) {
    (void)state;
    char json_path[512];
    test_tokref_path(json_path, sizeof json_path, "tokenizer.json");
    const char *model = test_vocab_model_path(json_path);
    make_task("c_rename");
    make_task("py_add_param");
    assert_int_equal(test_sb("draftsim -m '%s' --tasks '%s' --json", model,
                             test_sb_path(0, "tasks")), 0);
    char *out = test_sb_read("out", NULL);
    double plain = 0, spec = 0, perfect = 0;
    int lines = 0;
    json_t *total = NULL;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *j = json_loads(line, 0, NULL);
        assert_non_null(j);
        lines++;
        if (!strcmp(json_string_value(json_object_get(j, "task")), "total")) {
            total = j;
            continue;
        }
        double p = (double)json_integer_value(json_object_get(j, "output_tokens")) - 1;
        plain += p;
        spec += p / json_real_value(json_object_get(j, "projected_speedup"));
        perfect += p / json_real_value(json_object_get(j, "perfect_speedup"));
        json_decref(j);
    }
    free(out);
    assert_int_equal(lines, 3);
    assert_non_null(total);
    assert_int_equal(json_integer_value(json_object_get(total, "tasks")), 2);
    double got = json_real_value(json_object_get(total, "projected_speedup"));
    double cap = json_real_value(json_object_get(total, "perfect_speedup"));
    assert_true(fabs(got - plain / spec) < 1e-9 * got);
    assert_true(fabs(cap - plain / perfect) < 1e-9 * cap);
    json_decref(total);
    /* the same task alone, through --input/--expected, says the same */
    assert_int_equal(test_sb("draftsim -m '%s' --tasks '%s' --only c_rename",
                             model, test_sb_path(0, "tasks")), 0);
    char *one = test_sb_read("out", NULL);
    assert_int_equal(test_sb("draftsim -m '%s' --input %s --expected %s "
                             "--instruction \"$(cat %s)\"", model,
                             "tests/data/edits/c_rename/input.c",
                             "tests/data/edits/c_rename/expected.c",
                             "tests/data/edits/c_rename/instruction.txt"), 0);
    char *alone = test_sb_read("out", NULL);
    const char *a = strstr(alone, "drafter="), *b = strstr(one, "drafter=");
    assert_non_null(a);
    assert_non_null(b);
    assert_memory_equal(a, b, (size_t)(strchr(a, '\n') - a));
    free(one);
    free(alone);
    /* --tasks with the one-file options, --only alone: usage errors */
    assert_int_equal(test_sb("draftsim -m '%s' --tasks '%s' --input x", model,
                             test_sb_path(0, "tasks")), 2);
    assert_int_equal(test_sb("draftsim -m '%s' --only c_rename", model), 2);
    assert_int_equal(test_sb("draftsim -m '%s' --tasks '%s' --only nope", model,
                             test_sb_path(0, "tasks")), 1);
    assert_int_equal(test_sb("draftsim -m '%s' --tasks '%s'", model,
                             test_sb_path(0, "no-such-folder")), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_edit),
        cmocka_unit_test(test_cli_edit_region),
        cmocka_unit_test(test_cli_draftsim),
        cmocka_unit_test(test_cli_draftsim_tasks),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
