/*
 * The default model lookup (engine/model_default.c): SB_MODEL wins when it
 * names a file and is an error when it does not; otherwise the file beside
 * the program, and when there is none, an error naming where it was
 * expected (this test binary lives in BUILD/tests/engine/, whose ../models/
 * never holds a model).
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

#include "../../engine/engine.h"

static void test_sb_model_names_a_file(void **state) {
    (void)state;
    char file[] = "/tmp/sb-default-XXXXXX";
    int fd = mkstemp(file);
    assert_true(fd >= 0);
    close(fd);
    setenv("SB_MODEL", file, 1);
    char path[4096];
    sb_err err = {0};
    assert_int_equal(eng_default_model_path(path, sizeof path, &err), 0);
    assert_string_equal(path, file);
    /* a buffer too small for the path is an error, not a cut path */
    char tiny[8];
    assert_int_equal(eng_default_model_path(tiny, sizeof tiny, &err), -1);
    unlink(file);
    err = (sb_err){0};
    assert_int_equal(eng_default_model_path(path, sizeof path, &err), -1);
    assert_non_null(strstr(err.msg, file));
    unsetenv("SB_MODEL");
}

static void test_missing_default_names_the_path(void **state) {
    (void)state;
    unsetenv("SB_MODEL");
    char path[4096];
    sb_err err = {0};
    assert_int_equal(eng_default_model_path(path, sizeof path, &err), -1);
    assert_non_null(strstr(err.msg, "/models/" ENG_DEFAULT_MODEL_NAME));
    assert_non_null(strstr(err.msg, "tools/train/README.md"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_model_names_a_file),
        cmocka_unit_test(test_missing_default_names_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
