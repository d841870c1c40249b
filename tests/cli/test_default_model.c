/*
 * The model is optional wherever sb uses one (cli_model_open): without -m,
 * $SB_MODEL, else the demo model beside sb. Through the built binary
 * ("$SB_BUILD/sb"): each command prints the same without -m as with it, a
 * bad SB_MODEL is one line naming it and exit 1, and with neither the demo
 * model is found beside the program. Also `sb --version`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/engine.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const char *FILE_C = "int add(int a, int b) {\n    return a + b;\n}\n";

/* Runs "sb CMD -m MODEL REST" and "sb CMD REST" with SB_MODEL naming the
 * same file: both must exit 0 and print the same stdout, which is returned
 * (caller frees), and, when err_key is not NULL, the same value of
 * err_key in their stderr. */
static char *same_without_m(const char *model, const char *cmd,
                            const char *rest, const char *err_key) {
    char value[2][128];
    char *out[2];
    for (int k = 0; k < 2; k++) {
        if (k) setenv("SB_MODEL", model, 1);
        int rc = k ? test_sb("%s %s", cmd, rest)
                   : test_sb("%s -m '%s' %s", cmd, model, rest);
        unsetenv("SB_MODEL");
        if (rc) fail_msg("sb %s %s (%s -m): exit %d", cmd, rest,
                         k ? "without" : "with", rc);
        out[k] = test_sb_read("out", NULL);
        if (!err_key) continue;
        char *err = test_sb_read("err", NULL);
        test_text_field(err, err_key, value[k], sizeof value[k]);
        free(err);
    }
    assert_string_equal(out[1], out[0]);
    if (err_key) assert_string_equal(value[1], value[0]);
    free(out[1]);
    return out[0];
}

static void test_commands_without_m(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    char rest[512];
    test_write_file(test_sb_path(0, "text"), FILE_C, strlen(FILE_C));
    test_write_file(test_sb_path(1, "ids"), "100 101 102\n", 12);

    char *out = same_without_m(model, "info", "", NULL);
    char line[600];
    snprintf(line, sizeof line, "file:          %s\n", model);
    assert_non_null(strstr(out, line));
    free(out);
    /* the model as an argument, as before */
    assert_int_equal(test_sb("info '%s'", model), 0);
    assert_true(test_sb_output_has("out", line));

    snprintf(rest, sizeof rest, "< '%s'", test_sb_path(0, "text"));
    out = same_without_m(model, "tokenize", rest, NULL);
    assert_true(strlen(out) > 1);
    free(out);
    snprintf(rest, sizeof rest, "< '%s'", test_sb_path(1, "ids"));
    free(same_without_m(model, "detokenize", rest, NULL));
    snprintf(rest, sizeof rest, "-i 'rename add' -f '%s'", test_sb_path(0, "text"));
    free(same_without_m(model, "prompt", rest, NULL));
    /* generate: the same text and the same tokens (the summary's hash) */
    free(same_without_m(model, "generate", "-p 'int add' -n 6 --threads 2",
                        "sha256="));
}

/* sb logits without -m: the same rows, and the JSON names the file used. */
static void test_logits_without_m(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    assert_int_equal(test_sb("logits -m '%s' -p 'int' -n 2 --out '%s'", model,
                             test_sb_path(0, "with")), 0);
    setenv("SB_MODEL", model, 1);
    int rc = test_sb("logits -p 'int' -n 2 --out '%s'", test_sb_path(0, "without"));
    unsetenv("SB_MODEL");
    assert_int_equal(rc, 0);
    size_t la, lb;
    char *a = test_read_file(test_sb_path(0, "with.bin"), &la);
    char *b = test_read_file(test_sb_path(1, "without.bin"), &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    json_error_t jerr;
    json_t *j = json_load_file(test_sb_path(0, "without.json"), 0, &jerr);
    if (!j) fail_msg("%s", jerr.text);
    assert_string_equal(json_string_value(json_object_get(j, "model")), model);
    json_decref(j);
    free(a);
    free(b);
}

/* A bad SB_MODEL: one line naming it, exit 1, no output file. */
static void test_bad_sb_model(void **state) {
    (void)state;
    test_write_file(test_sb_path(0, "text"), FILE_C, strlen(FILE_C));
    char cmds[6][300];
    snprintf(cmds[0], sizeof cmds[0], "info");
    snprintf(cmds[1], sizeof cmds[1], "tokenize < '%s'", test_sb_path(0, "text"));
    snprintf(cmds[2], sizeof cmds[2], "detokenize < '%s'", test_sb_path(0, "text"));
    snprintf(cmds[3], sizeof cmds[3], "generate -p x -n 2");
    snprintf(cmds[4], sizeof cmds[4], "logits -p x --out '%s'",
             test_sb_path(0, "bad"));
    snprintf(cmds[5], sizeof cmds[5], "prompt -i x -f '%s'", test_sb_path(0, "text"));
    setenv("SB_MODEL", "/nonexistent/model.gguf", 1);
    for (int i = 0; i < 6; i++) {
        if (test_sb("%s", cmds[i]) != 1) fail_msg("sb %s: expected exit 1", cmds[i]);
        char *err = test_sb_read("err", NULL);
        if (!strstr(err, "SB_MODEL names '/nonexistent/model.gguf'"))
            fail_msg("sb %s: %s", cmds[i], err);
        assert_true(strchr(err, '\n') == err + strlen(err) - 1); /* one line */
        free(err);
    }
    unsetenv("SB_MODEL");
    assert_int_equal(access(test_sb_path(0, "bad.bin"), F_OK), -1);
    assert_int_equal(access(test_sb_path(0, "bad.json"), F_OK), -1);
}

/* Neither -m nor SB_MODEL: the demo model beside sb ($SB_BUILD/../models/),
 * named by its real path, or, where it is not there, a clear error. */
static void test_demo_model_beside_sb(void **state) {
    (void)state;
    unsetenv("SB_MODEL");
    const char *build = getenv("SB_BUILD");
    char beside[PATH_MAX], real[PATH_MAX];
    snprintf(beside, sizeof beside, "%s/../models/" ENG_DEFAULT_MODEL_NAME,
             build && *build ? build : "build");
    int rc = test_sb("info");
    if (!realpath(beside, real)) {
        assert_int_equal(rc, 1);
        assert_true(test_sb_output_has("err", "no model given"));
        return;
    }
    assert_int_equal(rc, 0);
    char line[PATH_MAX + 32];
    snprintf(line, sizeof line, "file:          %s\n", real);
    assert_true(test_sb_output_has("out", line));
}

static void test_version(void **state) {
    (void)state;
    assert_int_equal(test_sb("--version"), 0);
    char want[64];
    snprintf(want, sizeof want, "sb %s ", eng_version());
    char *out = test_sb_read("out", NULL);
    assert_memory_equal(out, want, strlen(want));
    free(out);
    assert_int_equal(test_sb("--help"), 0);
    assert_true(test_sb_output_has("out", "sb --version"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_without_m),
        cmocka_unit_test(test_logits_without_m),
        cmocka_unit_test(test_bad_sb_model),
        cmocka_unit_test(test_demo_model_beside_sb),
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
