/* bench/lib/report.c: totals are sums over the tasks that ran (skipped ones
 * count apart), rates are summed tokens over summed time, and the JSON
 * holds every task. Inputs are made up here; expected values are worked
 * out by hand from them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../bench/lib/bench.h"

static bench_task tasks[3] = {
    {.name = "a", .language = "C", .kind = "rename"},
    {.name = "b", .language = "Go", .kind = "fix-bug"},
    {.name = "c", .language = "SQL", .kind = "new"},
};

static void fill(bench_task_result r[3]) {
    memset(r, 0, 3 * sizeof *r);
    for (int i = 0; i < 3; i++) r[i].task = &tasks[i];
    /* a: 101 tokens each way, 2 s off, 1 s on */
    r[0].off = (bench_run){.tokens = 101, .decode_s = 2.0, .stop = "length"};
    r[0].on = (bench_run){.tokens = 101, .decode_s = 1.0, .stop = "length"};
    r[0].on.accept_hist[0] = 5;
    r[0].on.accept_hist[3] = 2;
    r[0].identical = true;
    r[0].ceiling_copy = (edit_sim_result){.output_tokens = 100, .steps = 10};
    r[0].ceiling_ngram = (edit_sim_result){.output_tokens = 100, .steps = 50};
    r[0].projected_tok_s = 99.0; /* 99 decode tokens in 1 s */
    /* b: 51 tokens, 1 s off, 1 s on, a mismatch */
    r[1].off = (bench_run){.tokens = 51, .decode_s = 1.0, .stop = "length"};
    r[1].on = (bench_run){.tokens = 51, .decode_s = 1.0, .stop = "length"};
    r[1].on.accept_hist[3] = 1;
    r[1].ceiling_copy = (edit_sim_result){.output_tokens = 100, .steps = 30};
    r[1].ceiling_ngram = (edit_sim_result){.output_tokens = 100, .steps = 50};
    r[1].projected_tok_s = 33.0; /* 99 decode tokens in 3 s */
    /* c: skipped */
    r[2].skipped = true;
    strcpy(r[2].skip_reason, "too long");
}

static void test_totals(void **state) {
    (void)state;
    bench_task_result r[3];
    fill(r);
    bench_totals t;
    bench_totals_sum(r, 3, &t);
    assert_int_equal(t.ran, 2);
    assert_int_equal(t.skipped, 1);
    assert_int_equal(t.mismatches, 1);
    assert_int_equal(t.tokens_off, 150); /* tokens after the first */
    assert_true(t.tok_s_off == 50.0);    /* 150 tokens / 3 s */
    assert_true(t.tok_s_on == 75.0);     /* 150 tokens / 2 s */
    assert_int_equal(t.accept_hist[0], 5);
    assert_int_equal(t.accept_hist[3], 3);
    assert_true(t.ceiling_tps_copy == 5.0);  /* 200 tokens / 40 steps */
    assert_true(t.ceiling_tps_ngram == 2.0); /* 200 tokens / 100 steps */
    assert_true(t.projected_tok_s == 49.5);  /* 198 tokens / 4 s */
}

static void test_json_has_every_task(void **state) {
    (void)state;
    bench_task_result r[3];
    fill(r);
    bench_totals t;
    bench_totals_sum(r, 3, &t);
    bench_engine e = {.n_depths = 1, .reps = 3};
    for (int j = 0; j < BENCH_N_BUCKETS; j++) e.step_ms[0][j] = 2.0 * (j + 1);
    bench_meta m = {.date = "d", .device = "cpu", .model_path = "m.gguf",
                    .command = "sb bench", .threads = 2};
    json_t *js = bench_json(&m, &e, r, 3, &t);
    assert_non_null(js);
    json_t *tasks_j = json_object_get(js, "tasks");
    assert_int_equal(json_array_size(tasks_j), 3);
    json_t *b = json_array_get(tasks_j, 1);
    assert_true(json_is_false(json_object_get(b, "identical")));
    json_t *c = json_array_get(tasks_j, 2);
    assert_string_equal(json_string_value(json_object_get(c, "skip_reason")),
                        "too long");
    assert_true(json_is_null(json_object_get(json_object_get(js, "model"),
                                             "sha256")));
    json_t *steps = json_object_get(
        json_array_get(json_object_get(json_object_get(js, "engine"), "depths"), 0),
        "steps");
    json_t *last = json_array_get(steps, BENCH_N_BUCKETS - 1);
    assert_int_equal(json_integer_value(json_object_get(last, "rows")), 64);
    assert_true(json_real_value(json_object_get(last, "relative_to_1_row")) ==
                (double)BENCH_N_BUCKETS);
    json_decref(js);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_json_has_every_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
