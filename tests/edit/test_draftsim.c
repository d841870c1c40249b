/* Tests of drafting simulation: eng_spec_simulate (engine/spec_sim.c)
 * reports what eng_generate reports for the same drafter and reply; and
 * edit_simulate (edit/sim.c) on the ten edit tasks of tests/data/edits
 * with the real Qwen vocabulary. `sb draftsim` is tests/edit/test_cli.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drafter/drafter.h"
#include "../../edit/edit.h"
#include "../support/tiny_model.h"

static const char *EDITS = "tests/data/edits";

static char *read_all(const char *path, int64_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) buf = realloc(buf, (cap *= 2) + 1);
    fclose(f);
    buf[n] = '\0';
    if (len) *len = (int64_t)n;
    return buf;
}

/* ==== eng_spec_simulate against eng_generate =============================== */

/* One drafter of either kind over the same source. */
typedef struct any_drafter {
    drf_copy *copy;
    drf_ngram *ngram;
    eng_drafter table;
} any_drafter;

static any_drafter make_drafter(bool ngram, const int32_t *src, int32_t n) {
    any_drafter d = {0};
    sb_err err = {0};
    if (ngram) {
        d.ngram = drf_ngram_create(src, n, 0, &err);
        assert_non_null(d.ngram);
        d.table = drf_ngram_drafter(d.ngram);
    } else {
        d.copy = drf_copy_create(src, n, NULL, &err);
        assert_non_null(d.copy);
        d.table = drf_copy_drafter(d.copy);
    }
    return d;
}

static void free_drafter(any_drafter *d) {
    drf_copy_destroy(d->copy);
    drf_ngram_destroy(d->ngram);
}

/* Generates with a drafter on a real model, then simulates the same
 * drafter (made afresh) on the tokens the model produced: every count the
 * engine reports must come out the same, so the simulation drives the
 * drafter exactly as the speculative loop does. */
static void check_sim_matches(const eng_model *m, eng_session *s,
                              const char *prompt_text, bool ngram,
                              int32_t max_draft, int32_t n_max) {
    int32_t prompt[512];
    int64_t n = eng_tokenize(m, prompt_text, (int64_t)strlen(prompt_text),
                             prompt, 512);
    assert_true(n > 0 && n <= 512);
    any_drafter d = make_drafter(ngram, prompt, (int32_t)n);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = n_max;
    p.stop_at_eos = false;
    p.drafter = &d.table;
    p.max_draft = max_draft;
    eng_gen_result real, sim;
    sb_err err = {0};
    if (eng_generate(s, prompt, (int32_t)n, &p, NULL, NULL, &real, &err))
        fail_msg("eng_generate: %s", err.msg);
    free_drafter(&d);
    d = make_drafter(ngram, prompt, (int32_t)n);
    p.drafter = &d.table;
    int32_t rows[KRN_MAX_ROWS + 1];
    if (eng_spec_simulate(m, prompt, (int32_t)n, real.tokens, real.n_tokens,
                          &p, &sim, rows, &err))
        fail_msg("eng_spec_simulate: %s", err.msg);
    assert_int_equal(sim.n_tokens, real.n_tokens);
    assert_string_equal(sim.sha256, real.sha256);
    assert_int_equal(sim.steps, real.steps);
    assert_int_equal(sim.drafted, real.drafted);
    assert_int_equal(sim.accepted, real.accepted);
    assert_memory_equal(sim.accept_hist, real.accept_hist,
                        sizeof real.accept_hist);
    /* the rows histogram accounts for every decode step and draft */
    int64_t steps = 0, drafted = 0;
    for (int r = 1; r <= KRN_MAX_ROWS; r++) {
        steps += rows[r];
        drafted += (int64_t)rows[r] * (r - 1);
    }
    assert_int_equal(steps, real.steps - 1);
    assert_int_equal(drafted, real.drafted);
    free(real.tokens);
    free(sim.tokens);
    free_drafter(&d);
}

static void test_sim_matches_engine(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    sb_err err = {0};
    eng_session *s = eng_session_create(
        m, &(eng_options){.n_threads = 2, .n_ctx = 512}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    const char *prompts[] = {"int parse(s) { return parse(s); }",
                             "def f(n):\n    return f(n - 1)\n"};
    for (int i = 0; i < 2; i++)
        for (int ngram = 0; ngram <= 1; ngram++) {
            check_sim_matches(m, s, prompts[i], ngram, 0, 160);
            check_sim_matches(m, s, prompts[i], ngram, 3, 97);
        }
    eng_session_destroy(s);
    eng_model_free(m);
}

static void test_sim_bad_input(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    int32_t prompt[2] = {1, 2}, reply[2] = {3, 1 << 30};
    eng_gen_params p = eng_gen_defaults();
    eng_gen_result r;
    sb_err err = {0};
    assert_int_equal(eng_spec_simulate(m, prompt, 2, reply, 2, &p, &r, NULL,
                                       &err), -1);
    assert_non_null(strstr(err.msg, "reply token 1"));
    p.max_draft = 64;
    sb_err err2 = {0};
    assert_int_equal(eng_spec_simulate(m, prompt, 2, reply, 1, &p, &r, NULL,
                                       &err2), -1);
    assert_non_null(strstr(err2.msg, "max_draft"));
    eng_model_free(m);
}

/* ==== the ten edit tasks =================================================== */

typedef struct task {
    char name[64];
    char *input, *expected, *instruction;
    int64_t n_input, n_expected;
    char input_path[256];
} task;

/* The file in tests/data/edits/NAME whose name starts with `stem`. */
static void task_file(const char *name, const char *stem, char *out,
                      size_t cap) {
    char d[128];
    snprintf(d, sizeof d, "%s/%.64s", EDITS, name);
    DIR *dir = opendir(d);
    if (!dir) fail_msg("cannot open %s", d);
    struct dirent *e;
    out[0] = '\0';
    while ((e = readdir(dir)))
        if (!strncmp(e->d_name, stem, strlen(stem)))
            snprintf(out, cap, "%.127s/%.64s", d, e->d_name);
    closedir(dir);
    if (!out[0]) fail_msg("no %s* in %s", stem, d);
}

static int load_tasks(task *t, int cap) {
    DIR *dir = opendir(EDITS);
    if (!dir) fail_msg("cannot open %s", EDITS);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && n < cap) {
        if (e->d_name[0] == '.') continue;
        task *k = &t[n++];
        snprintf(k->name, sizeof k->name, "%.63s", e->d_name);
        char path[256];
        task_file(k->name, "input.", k->input_path, sizeof k->input_path);
        k->input = read_all(k->input_path, &k->n_input);
        task_file(k->name, "expected.", path, sizeof path);
        k->expected = read_all(path, &k->n_expected);
        task_file(k->name, "instruction.txt", path, sizeof path);
        k->instruction = read_all(path, NULL);
        k->instruction[strcspn(k->instruction, "\n")] = '\0';
    }
    closedir(dir);
    return n;
}

static edit_sim_result simulate(const eng_model *m, const task *k,
                                edit_drafter_kind kind) {
    edit_request rq = {.file = k->input, .file_len = k->n_input,
                       .instruction = k->instruction,
                       .instruction_len = (int64_t)strlen(k->instruction),
                       .path = k->input_path};
    edit_sim_opts o = {.drafter = kind};
    edit_sim_result r;
    sb_err err = {0};
    if (edit_simulate(m, &rq, k->expected, k->n_expected, &o, &r, &err))
        fail_msg("%s: %s", k->name, err.msg);
    return r;
}

/* Plain decoding's cost and the simulated run's, by the default table. */
static void add_costs(const edit_sim_result *r, double *plain, double *spec) {
    stepcost_table t;
    stepcost_table_default(&t);
    *plain += (r->output_tokens - 1) * stepcost_table_cost(&t, 1);
    for (int rows = 1; rows <= KRN_MAX_ROWS; rows++)
        *spec += r->rows_hist[rows] * stepcost_table_cost(&t, rows);
}

/* With the real vocabulary, on every task: no drafter gives one token per
 * step; the copy drafter and the n-gram baseline see the same reply; and
 * over the set the copy drafter yields more tokens per step than the
 * baseline and costs less time (the projected speedup, which is what its
 * draft lengths aim at). Prints the per-task numbers. */
static void test_edit_tasks(void **state) {
    (void)state;
    char json[512];
    test_tokref_path(json, sizeof json, "tokenizer.json");
    eng_model *m = test_vocab_model_load(json);
    task t[16];
    int n = load_tasks(t, 16);
    assert_int_equal(n, 10);
    double copy_plain = 0, copy_spec = 0, ngram_plain = 0, ngram_spec = 0;
    int64_t copy_tokens = 0, copy_steps = 0, ngram_steps = 0;
    printf("task            tokens  copy tok/step (speedup)  ngram tok/step "
           "(speedup)\n");
    for (int i = 0; i < n; i++) {
        edit_sim_result c = simulate(m, &t[i], EDIT_DRAFTER_COPY);
        edit_sim_result g = simulate(m, &t[i], EDIT_DRAFTER_NGRAM);
        edit_sim_result none = simulate(m, &t[i], EDIT_DRAFTER_NONE);
        assert_true(none.tokens_per_step == 1.0);
        assert_int_equal(none.steps, none.output_tokens);
        assert_int_equal(none.drafted, 0);
        assert_true(none.projected_speedup == 1.0);
        assert_int_equal(c.output_tokens, none.output_tokens);
        assert_int_equal(g.output_tokens, none.output_tokens);
        printf("%-14s  %6d  %13.2f (%5.2fx)  %14.2f (%5.2fx)\n", t[i].name,
               (int)c.output_tokens, c.tokens_per_step, c.projected_speedup,
               g.tokens_per_step, g.projected_speedup);
        add_costs(&c, &copy_plain, &copy_spec);
        add_costs(&g, &ngram_plain, &ngram_spec);
        copy_tokens += c.output_tokens;
        copy_steps += c.steps;
        ngram_steps += g.steps;
        free(t[i].input);
        free(t[i].expected);
        free(t[i].instruction);
    }
    printf("all             %6lld  %13.2f (%5.2fx)  %14.2f (%5.2fx)\n",
           (long long)copy_tokens, (double)copy_tokens / copy_steps,
           copy_plain / copy_spec, (double)copy_tokens / ngram_steps,
           ngram_plain / ngram_spec);
    /* over the set: more tokens per step (fewer steps for the same
     * tokens), and less time by the cost table */
    assert_true(copy_steps < ngram_steps);
    assert_true(copy_plain == ngram_plain);
    assert_true(copy_spec < ngram_spec);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_matches_engine),
        cmocka_unit_test(test_sim_bad_input),
        cmocka_unit_test(test_edit_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
