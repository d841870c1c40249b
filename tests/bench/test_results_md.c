/* bench/lib/results_md.c: the sb bench section of RESULTS.md replaces only what
 * lies between its own markers, per device, and refuses unbalanced ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/lib/bench.h"

/* A section for device as bench_results_section's callers pass it. */
static char *section(const char *device, const char *body) {
    char *s = NULL;
    size_t n = strlen(body) + 256;
    s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s\n%s\n%s\n", bench_marker_begin(device), body,
             bench_marker_end(device));
    return s;
}

static char *splice_ok(const char *old, const char *device, const char *sec) {
    char *out = NULL;
    int64_t len = -1;
    sb_err err = {0};
    assert_int_equal(bench_results_splice(old, (int64_t)strlen(old), device,
                                          sec, &out, &len, &err), 0);
    assert_int_equal(len, (int64_t)strlen(out));
    return out;
}

static void test_appends_when_absent(void **state) {
    (void)state;
    char *sec = section("cpu", "first");
    char *out = splice_ok("# Results\n\nprose", "cpu", sec);
    /* the prose is kept, then a blank line, then the section */
    char want[1024];
    snprintf(want, sizeof want, "# Results\n\nprose\n\n%s", sec);
    assert_string_equal(out, want);
    char *empty = splice_ok("", "cpu", sec);
    assert_string_equal(empty, sec);
    free(out);
    free(empty);
    free(sec);
}

static void test_replaces_only_its_section(void **state) {
    (void)state;
    char *cpu1 = section("cpu", "old cpu numbers");
    char *cuda = section("cuda", "gpu numbers");
    char *cpu2 = section("cpu", "new cpu numbers");
    char old[2048];
    snprintf(old, sizeof old, "head\n%stween\n%stail\n", cpu1, cuda);
    char *out = splice_ok(old, "cpu", cpu2);
    char want[2048];
    snprintf(want, sizeof want, "head\n%stween\n%stail\n", cpu2, cuda);
    assert_string_equal(out, want);
    /* running twice changes nothing more */
    char *again = splice_ok(out, "cpu", cpu2);
    assert_string_equal(again, out);
    free(out);
    free(again);
    free(cpu1);
    free(cpu2);
    free(cuda);
}

static void splice_fails(const char *old, const char *want) {
    char *out = NULL, *sec = section("cuda", "x");
    int64_t len = 0;
    sb_err err = {0};
    assert_int_equal(bench_results_splice(old, (int64_t)strlen(old), "cuda",
                                          sec, &out, &len, &err), -1);
    assert_null(out);
    if (!strstr(err.msg, want)) fail_msg("'%s' lacks '%s'", err.msg, want);
    free(sec);
}

static void test_refuses_unbalanced_markers(void **state) {
    (void)state;
    char buf[1024];
    snprintf(buf, sizeof buf, "a\n%s\nb\n", bench_marker_begin("cuda"));
    splice_fails(buf, "line 2: the sb bench cuda begin marker has no end");
    snprintf(buf, sizeof buf, "a\n%s\n", bench_marker_end("cuda"));
    splice_fails(buf, "line 2: an sb bench cuda end marker with no begin");
    snprintf(buf, sizeof buf, "%s\n%s\n", bench_marker_end("cuda"),
             bench_marker_begin("cuda"));
    splice_fails(buf, "line 1: an sb bench cuda end marker");
    snprintf(buf, sizeof buf, "%s\n%s\n%s\n", bench_marker_begin("cuda"),
             bench_marker_end("cuda"), bench_marker_end("cuda"));
    splice_fails(buf, "appears twice");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appends_when_absent),
        cmocka_unit_test(test_replaces_only_its_section),
        cmocka_unit_test(test_refuses_unbalanced_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
