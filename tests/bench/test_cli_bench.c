/* `sb bench` through the built binary ("$SB_BUILD/sb") on the CPU with the
 * tiny model: the smoke test of the harness that CI runs. Two small tasks
 * of bench/edits, a few tokens each; nothing about timing is asserted.
 * Checked: the JSON report parses and holds every task with identical
 * outputs off and on, RESULTS.md gets its section and keeps the rest, and
 * a run perturbed on purpose (--perturb) is reported as a mismatch
 * with exit 1 and leaves RESULTS.md alone. --from-json on the run's JSON
 * prints the run's table and writes its section again, byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/lib/bench.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const char *TASKS = "new-01-py-expense-report,new-03-ts-lru-cache";
static const char *PROSE = "# Benchmark results\n\nKept byte for byte.\n";

/* Runs "$SB_BUILD/sb bench --device cpu ... ARGS" with the JSON and
 * RESULTS.md in the scratch directory and no plots; its exit status. */
static int sb_bench(const char *args) {
    return test_sb("bench --device cpu --tasks bench/edits --reps 1 --plots "
                   "none --json '%s' --results '%s' %s",
                   test_sb_path(0, "bench.json"), test_sb_path(1, "RESULTS.md"),
                   args);
}

static void write_prose(void) {
    test_write_file(test_sb_path(0, "RESULTS.md"), PROSE, strlen(PROSE));
}

static json_t *load_report(void) {
    json_error_t je;
    json_t *j = json_load_file(test_sb_path(0, "bench.json"), 0, &je);
    if (!j) fail_msg("bench.json: %s", je.text);
    return j;
}

/* The task object named `name` in the report. */
static json_t *task(json_t *report, const char *name) {
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(report, "tasks"), i, t)
        if (!strcmp(json_string_value(json_object_get(t, "name")), name))
            return t;
    fail_msg("no task %s in the report", name);
    return NULL;
}

static void test_smoke_identical(void **state) {
    (void)state;
    write_prose();
    char args[512];
    snprintf(args, sizeof args, "-m '%s' --only %s --max-tokens 16",
             test_tiny_model_path(MK_RECIPE_Q4_K_M), TASKS);
    int rc = sb_bench(args);
    if (rc) fail_msg("sb bench exited %d: %s", rc, test_sb_read("err", NULL));
    json_t *j = load_report();
    assert_int_equal(json_array_size(json_object_get(j, "tasks")), 2);
    const char *names[] = {"new-01-py-expense-report", "new-03-ts-lru-cache"};
    for (int i = 0; i < 2; i++) {
        json_t *t = task(j, names[i]);
        json_t *off = json_object_get(t, "off"), *on = json_object_get(t, "on");
        assert_true(json_is_true(json_object_get(t, "identical")));
        assert_string_equal(json_string_value(json_object_get(off, "sha256")),
                            json_string_value(json_object_get(on, "sha256")));
        /* random weights run to the cap */
        assert_int_equal(json_integer_value(json_object_get(on, "tokens")), 16);
        assert_int_equal(json_integer_value(json_object_get(off, "steps")), 16);
        json_t *ceil = json_object_get(json_object_get(t, "ceiling"), "copy");
        assert_true(json_real_value(json_object_get(ceil, "tokens_per_step")) >= 1.0);
    }
    json_t *tot = json_object_get(j, "totals");
    assert_int_equal(json_integer_value(json_object_get(tot, "ran")), 2);
    assert_int_equal(json_integer_value(json_object_get(tot, "mismatches")), 0);
    json_t *steps = json_object_get(
        json_array_get(json_object_get(json_object_get(j, "engine"), "depths"), 0),
        "steps");
    assert_int_equal(json_array_size(steps), BENCH_N_BUCKETS);
    json_decref(j);
    char *md = test_sb_read("RESULTS.md", NULL);
    assert_memory_equal(md, PROSE, strlen(PROSE)); /* the prose kept first */
    assert_non_null(strstr(md, bench_marker_begin("cpu")));
    assert_non_null(strstr(md, bench_marker_end("cpu")));
    assert_non_null(strstr(md, "| new-03-ts-lru-cache |"));
    char *out = test_sb_read("out", NULL);
    assert_non_null(strstr(out, "new-01-py-expense-report"));
    /* drawn again from the JSON alone: the same table and section */
    const char *again = test_sb_path(2, "again.md");
    test_write_file(again, PROSE, strlen(PROSE));
    rc = test_sb("bench --from-json '%s' --plots none --results '%s'",
                 test_sb_path(0, "bench.json"), again);
    if (rc) fail_msg("sb bench --from-json exited %d: %s", rc,
                     test_sb_read("err", NULL));
    char *out2 = test_sb_read("out", NULL), *md2 = test_read_file(again, NULL);
    assert_string_equal(out2, out);
    assert_string_equal(md2, md);
    free(out2);
    free(md2);
    free(md);
    free(out);
}

/* The default model (made into $XDG_CACHE_HOME) and a perturbed run. */
static void test_perturbed_run_fails(void **state) {
    (void)state;
    write_prose();
    char cache[160];
    snprintf(cache, sizeof cache, "%s/cache", test_sb_dir());
    setenv("XDG_CACHE_HOME", cache, 1);
    int rc = sb_bench("--only new-03-ts-lru-cache --max-tokens 8 "
                      "--perturb new-03-ts-lru-cache");
    unsetenv("XDG_CACHE_HOME");
    char *err = test_sb_read("err", NULL);
    if (rc != 1) fail_msg("sb bench exited %d, expected 1: %s", rc, err);
    assert_non_null(strstr(err, "meaningless"));        /* the warning */
    assert_non_null(strstr(err, "MISMATCH: new-03-ts-lru-cache"));
    free(err);
    char model[300];
    snprintf(model, sizeof model, "%s/sonicboom/"
             "synthetic-tiny-q4_k_m-seed1.gguf", cache);
    assert_int_equal(access(model, R_OK), 0);
    json_t *j = load_report(); /* the JSON is written even so */
    assert_true(json_is_false(json_object_get(task(j, "new-03-ts-lru-cache"),
                                              "identical")));
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(j, "totals"), "mismatches")), 1);
    json_decref(j);
    char *md = test_sb_read("RESULTS.md", NULL);
    assert_string_equal(md, PROSE); /* a failed run records nothing */
    free(md);
    char *out = test_sb_read("out", NULL);
    assert_non_null(strstr(out, "MISMATCH"));
    free(out);
}

static void test_bad_usage(void **state) {
    (void)state;
    assert_int_equal(sb_bench("--only no-such-task"), 1);
    char *err = test_sb_read("err", NULL);
    assert_non_null(strstr(err, "no task 'no-such-task'"));
    free(err);
    assert_int_equal(sb_bench("--max-tokens 0"), 2);
    assert_int_equal(sb_bench("--device tpu"), 2);
    /* --from-json draws a saved run: run options do not go with it */
    assert_int_equal(test_sb("bench --from-json x.json --reps 3"), 2);
    assert_true(test_sb_output_has("err", "--reps: --from-json"));
    const char *bad = test_sb_path(0, "bad.json");
    const char *doc = "{\"schema\": \"sb-bench-1\"}";
    test_write_file(bad, doc, strlen(doc));
    assert_int_equal(test_sb("bench --from-json '%s' --plots none", bad), 1);
    assert_true(test_sb_output_has("err", "date: missing or not a string"));
}

static int setup(void **state) {
    (void)state;
    return test_sb_setup("bench");
}

static int teardown(void **state) {
    (void)state;
    return test_sb_teardown();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smoke_identical),
        cmocka_unit_test(test_perturbed_run_fails),
        cmocka_unit_test(test_bad_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
