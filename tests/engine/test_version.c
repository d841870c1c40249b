/*
 * What a log records about where an edit ran: the engine's version
 * (engine/version.c) and the device's name through the session
 * (eng_session_device_name -> krn_device_name; on the CPU backend the CPU's
 * model from /proc/cpuinfo).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../support/tiny_model.h"

/* MAJOR.MINOR.PATCH, digits only: the form logs and `sb --version` show. */
static void test_version_form(void **state) {
    (void)state;
    const char *v = eng_version();
    assert_non_null(v);
    int dots = 0;
    for (const char *p = v; *p; p++) {
        if (*p == '.') {
            assert_true(p > v && isdigit((unsigned char)p[-1]));
            dots++;
        } else {
            assert_true(isdigit((unsigned char)*p));
        }
    }
    assert_int_equal(dots, 2);
    assert_true(isdigit((unsigned char)v[strlen(v) - 1]));
    assert_ptr_equal(eng_version(), v); /* static, one place */
}

/* The first "model name" of /proc/cpuinfo, read here on its own. */
static void cpuinfo_name(char *out, size_t cap) {
    snprintf(out, cap, "cpu");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *v = strchr(line, ':');
        if (!v) continue;
        v++;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\n")] = '\0';
        if (*v) snprintf(out, cap, "%s", v);
        break;
    }
    if (f) fclose(f);
}

static void test_cpu_device_name(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    sb_err err = {0};
    eng_session *a = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    eng_session *b = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    assert_non_null(a);
    assert_non_null(b);
    const char *name = eng_session_device_name(a);
    char want[512];
    cpuinfo_name(want, sizeof want);
    assert_non_null(name);
    assert_null(strchr(name, '\n'));
    assert_string_equal(name, want);
    assert_string_equal(eng_session_device_name(b), name);
    eng_session_destroy(a);
    eng_session_destroy(b);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_form),
        cmocka_unit_test(test_cpu_device_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
