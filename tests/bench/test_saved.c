/* bench/lib/saved.c: a run's JSON (bench_json), written out as text and read
 * back (bench_saved_load), draws the same table and the same RESULTS.md
 * section as the run itself; a malformed document is refused with an
 * error naming the field, one fixture per failure mode, each made here by
 * breaking one field of a good document. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/lib/bench.h"

static bench_task tasks[3] = {
    {.name = "01-c-rename", .language = "C", .kind = "rename",
     .lines_in = 120, .lines_out = 120, .changed_lines = 9,
     .changed_share = 0.075},
    {.name = "02-go-fix", .language = "Go", .kind = "fix-bug",
     .lines_in = 200, .lines_out = 201, .changed_lines = 2,
     .changed_share = 0.01},
    {.name = "new-01-sql", .language = "SQL", .kind = "new"},
};

static bench_run run(int32_t tokens, double decode_s, double ttft_s,
                     int32_t steps, int seed) {
    bench_run r = {.tokens = tokens, .decode_s = decode_s, .ttft_s = ttft_s,
                   .steps = steps, .stop = "length", .drafted = 40 * seed,
                   .accepted = 17 * seed, .closed_fence = seed & 1};
    r.tok_s = (tokens - 1) / decode_s;
    r.tokens_per_step = (double)tokens / steps;
    for (int k = 0; k <= ENG_MAX_DRAFT; k += 1 + seed) r.accept_hist[k] = k * seed + 1;
    snprintf(r.sha256, sizeof r.sha256, "%064d", seed);
    return r;
}

static edit_sim_result sim(int32_t tokens, int32_t steps, int seed) {
    edit_sim_result s = {.output_tokens = tokens, .steps = steps,
                         .tokens_per_step = (double)tokens / steps,
                         .drafted = 900 + seed, .accepted = 800 + seed,
                         .projected_speedup = 1.0 + seed / 3.0};
    for (int k = 0; k <= ENG_MAX_DRAFT; k += 2 + seed) s.accept_hist[k] = seed + k;
    s.rows_hist[1] = seed;
    s.rows_hist[64] = 3 * seed;
    return s;
}

/* Three tasks (two ran, one a mismatch; one skipped), two KV depths, the
 * second pricing the ceilings: every field the reports draw is set. */
static void fill(bench_task_result r[3], bench_engine *e, bench_meta *m) {
    memset(r, 0, 3 * sizeof *r);
    for (int i = 0; i < 3; i++) r[i].task = &tasks[i];
    r[0].n_prompt = 1483;
    r[0].reply_tokens = r[0].cap = 1391;
    r[0].off = run(1391, 6.17, 0.5736, 1391, 1);
    r[0].on = run(1391, 4.96, 0.5741, 835, 2);
    r[0].identical = true;
    r[0].speedup = r[0].on.tok_s / r[0].off.tok_s;
    r[0].ceiling_copy = sim(1391, 47, 1);
    r[0].ceiling_ngram = sim(1391, 70, 2);
    r[0].projected_tok_s = 1819.1234567;
    r[1].n_prompt = 1423;
    r[1].reply_tokens = r[1].cap = 1382;
    r[1].off = run(1382, 6.1, 0.5459, 1382, 3);
    r[1].on = run(1381, 4.8, 0.5462, 717, 4);
    r[1].speedup = r[1].on.tok_s / r[1].off.tok_s;
    r[1].ceiling_copy = sim(1382, 115, 3);
    r[1].ceiling_ngram = sim(1382, 111, 4);
    r[1].projected_tok_s = 1040.2;
    r[2].skipped = true;
    r[2].n_prompt = 9000;
    strcpy(r[2].skip_reason, "the prompt needs 9000 tokens; the model's "
           "context holds 4096");
    *e = (bench_engine){.n_depths = 2, .cost_depth = 1, .reps = 10,
                        .depths = {0, 1984}, .streamed_bytes = 4370000000ull,
                        .bandwidth_gbs = 4250.6, .floor_ms = 1.028};
    snprintf(e->device_name, sizeof e->device_name, "NVIDIA H200");
    snprintf(e->bandwidth_kind, sizeof e->bandwidth_kind, "device copy");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) {
        e->step_ms[0][j] = 3.1242550000030178 * (1 + j * 0.37);
        e->step_ms[1][j] = 3.71 * (1 + j * 0.51);
    }
    *m = (bench_meta){.date = "2026-12-02 17:26 UTC", .device = "cuda",
                      .model_path = "/tmp/m.gguf", .model_sha256 = "eb63",
                      .synthetic = true, .command = "sb bench --device cuda",
                      .threads = 16, .max_tokens = 0};
}

/* fill's run with its totals: what a run's reports are drawn from. */
typedef struct made_run {
    bench_task_result r[3];
    bench_engine e;
    bench_meta m;
    bench_totals t;
} made_run;

static void make_run(made_run *x) {
    fill(x->r, &x->e, &x->m);
    bench_totals_sum(x->r, 3, &x->t);
}

/* The document bench_json makes for fill's run, as text (caller frees). */
static char *good_text(void) {
    made_run x;
    make_run(&x);
    json_t *j = bench_json(&x.m, &x.e, x.r, 3, &x.t);
    assert_non_null(j);
    char *s = json_dumps(j, JSON_INDENT(1));
    json_decref(j);
    assert_non_null(s);
    return s;
}

/* bench_print_table's text (caller frees). */
static char *table(const bench_meta *m, const bench_engine *e,
                   const bench_task_result *r, int n, const bench_totals *t) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    bench_print_table(f, m, e, r, n, t);
    fclose(f);
    return buf;
}

static void test_round_trip_draws_the_same(void **state) {
    (void)state;
    made_run x;
    make_run(&x);
    char *text = good_text();
    bench_saved s;
    sb_err err = {0};
    assert_int_equal(bench_saved_load(text, strlen(text), &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.engine.cost_depth, 1);
    assert_int_equal(s.totals.mismatches, 1);
    assert_int_equal(s.totals.skipped, 1);

    char *want = table(&x.m, &x.e, x.r, 3, &x.t), *got = table(&s.meta, &s.engine,
                                                       s.res, s.n, &s.totals);
    assert_string_equal(got, want);
    char *want_md = bench_results_section(&x.m, &x.e, x.r, 3, &x.t, "plots/x");
    char *got_md = bench_results_section(&s.meta, &s.engine, s.res, s.n,
                                         &s.totals, "plots/x");
    assert_non_null(want_md);
    assert_string_equal(got_md, want_md);
    /* and the same document again: nothing is lost on the way */
    json_t *again = bench_json(&s.meta, &s.engine, s.res, s.n, &s.totals);
    char *again_text = json_dumps(again, JSON_INDENT(1));
    assert_string_equal(again_text, text);

    free(again_text);
    json_decref(again);
    free(want);
    free(got);
    free(want_md);
    free(got_md);
    bench_saved_free(&s);
    free(text);
}

/* Loads the good document with one change made by `edit`; the error
 * message must name `field`. */
static void refused(void (*edit)(json_t *root), const char *field) {
    char *text = good_text();
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    assert_non_null(root);
    edit(root);
    char *bad = json_dumps(root, 0);
    bench_saved s;
    sb_err err = {0};
    assert_int_equal(bench_saved_load(bad, strlen(bad), &s, &err), -1);
    if (!strstr(err.msg, field))
        fail_msg("error '%s' does not name '%s'", err.msg, field);
    assert_null(s.root);
    assert_null(s.res);
    free(bad);
    json_decref(root);
    free(text);
}

static json_t *task_j(json_t *root, size_t i) {
    return json_array_get(json_object_get(root, "tasks"), i);
}

static void drop_on_hist(json_t *root) {
    json_object_del(json_object_get(task_j(root, 1), "on"), "accept_hist");
}
static void short_hist(json_t *root) {
    json_t *copy = json_object_get(json_object_get(task_j(root, 0), "ceiling"),
                                   "copy");
    json_array_remove(json_object_get(copy, "rows_hist"), 0);
}
static void wrong_bucket(json_t *root) {
    json_t *steps = json_object_get(json_array_get(json_object_get(
        json_object_get(root, "engine"), "depths"), 1), "steps");
    json_object_set_new(json_array_get(steps, 3), "rows", json_integer(5));
}
static void tokens_as_string(json_t *root) {
    json_object_set_new(json_object_get(task_j(root, 0), "off"), "tokens",
                        json_string("1391"));
}
static void negative_ms(json_t *root) {
    json_t *steps = json_object_get(json_array_get(json_object_get(
        json_object_get(root, "engine"), "depths"), 0), "steps");
    json_object_set_new(json_array_get(steps, 0), "ms", json_real(-1.0));
}
static void unknown_cost_depth(json_t *root) {
    json_object_set_new(json_object_get(root, "engine"), "cost_depth",
                        json_integer(7));
}
static void other_device(json_t *root) {
    json_object_set_new(root, "device", json_string("tpu"));
}
static void other_schema(json_t *root) {
    json_object_set_new(root, "schema", json_string("sb-bench-2"));
}
static void no_skip_reason(json_t *root) {
    json_object_del(task_j(root, 2), "skip_reason");
}
static void long_device_name(json_t *root) {
    char name[300];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    json_object_set_new(json_object_get(root, "engine"), "device_name",
                        json_string(name));
}

static void test_malformed_names_the_field(void **state) {
    (void)state;
    refused(drop_on_hist, "tasks[1].on.accept_hist");
    refused(short_hist, "tasks[0].ceiling.copy.rows_hist");
    refused(wrong_bucket, "engine.depths[1].steps[3].rows");
    refused(tokens_as_string, "tasks[0].off.tokens");
    refused(negative_ms, "engine.depths[0].steps[0].ms");
    refused(unknown_cost_depth, "engine.cost_depth");
    refused(other_device, "device");
    refused(other_schema, "schema");
    refused(no_skip_reason, "tasks[2].skip_reason");
    refused(long_device_name, "engine.device_name");
}

static void test_not_json(void **state) {
    (void)state;
    bench_saved s;
    sb_err err = {0};
    const char *text = "{\"schema\": \"sb-bench-1\",\n \"date\": ";
    assert_int_equal(bench_saved_load(text, strlen(text), &s, &err), -1);
    assert_non_null(strstr(err.msg, "line 2"));
    sb_err err2 = {0};
    assert_int_equal(bench_saved_load("[1, 2]", 6, &s, &err2), -1);
    assert_non_null(strstr(err2.msg, "not a JSON object"));
    bench_saved_free(&s); /* safe on an empty one */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_draws_the_same),
        cmocka_unit_test(test_malformed_names_the_field),
        cmocka_unit_test(test_not_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
