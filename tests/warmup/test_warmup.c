/*
 * Tests of warmup/: the table made on the CPU backend, written, read back
 * and imported; refusals on another model, other bits and malformed tables
 * (each corrupt input built here); a table from "another GPU" accepted
 * with a warning; and the commands a user runs (sb warmup, sb verify,
 * --warmup). Expected fingerprints are never written down: they are
 * computed by the engine in the same run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../warmup/warmup.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static eng_model *g_model;

static int setup(void **state) {
    (void)state;
    if (test_sb_setup("warmup")) return -1;
    g_model = test_tiny_model_load(MK_RECIPE_Q4_K_M);
    return g_model ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    eng_model_free(g_model);
    return test_sb_teardown();
}

static eng_session *session(int threads) {
    sb_err err = {0};
    eng_session *s = eng_session_create(g_model, &(eng_options){.n_threads = threads},
                                        &err);
    if (!s) fail_msg("%s", err.msg);
    return s;
}

/* This machine's table for the tiny model. */
static wu_table table_here(void) {
    eng_session *s = session(1);
    wu_table t;
    sb_err err = {0};
    if (wu_table_make(s, g_model, &t, &err)) fail_msg("%s", err.msg);
    eng_session_destroy(s);
    return t;
}

static const char *table_path(void) { return test_sb_path(0, "table.json"); }

/* The saved table as JSON, for editing. */
static json_t *saved_json(void) {
    wu_table t = table_here();
    sb_err err = {0};
    if (wu_table_save(table_path(), &t, &err)) fail_msg("%s", err.msg);
    wu_table_free(&t);
    json_error_t je;
    json_t *o = json_load_file(table_path(), 0, &je);
    assert_non_null(o);
    return o;
}

static void save_json(json_t *o, const char *path) {
    assert_int_equal(json_dump_file(o, path, JSON_COMPACT), 0);
}

/* ---- the fingerprint ---- */

/* The same bits on any thread count and after any earlier use of the
 * session; other weights, other bits. */
static void test_fingerprint(void **state) {
    (void)state;
    sb_err err = {0};
    eng_session *a = session(1), *b = session(2);
    wu_fingerprint fa, fb, fa2;
    assert_int_equal(wu_fingerprint_compute(a, &fa, &err), 0);
    int32_t ids[3] = {1, 2, 3};
    assert_int_equal(eng_session_step(b, ids, 3, eng_session_logits(b), &err), 0);
    assert_int_equal(wu_fingerprint_compute(b, &fb, &err), 0);
    assert_int_equal(wu_fingerprint_compute(a, &fa2, &err), 0);
    assert_string_equal(fa.sha256, fb.sha256);
    assert_string_equal(fa.sha256, fa2.sha256);
    int positions = 0;
    for (int k = 0; k < WU_FP_STEPS; k++) {
        assert_string_equal(fa.step_sha256[k], fb.step_sha256[k]);
        positions += fa.rows[k];
    }
    assert_int_equal(positions, WU_CANARY_LEN);
    assert_int_equal(fa.rows[0], KRN_MAX_ROWS);
    assert_int_equal(fa.rows[WU_FP_STEPS - 1], 1);
    eng_session_destroy(a);
    eng_session_destroy(b);

    eng_model *other = test_tiny_model_load(MK_RECIPE_Q8_0);
    eng_session *c = eng_session_create(other, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(c);
    wu_fingerprint fc;
    assert_int_equal(wu_fingerprint_compute(c, &fc, &err), 0);
    assert_string_not_equal(fc.sha256, fa.sha256);
    eng_session_destroy(c);
    eng_model_free(other);
}

/* ---- tables ---- */

static void assert_same_table(const wu_table *a, const wu_table *b) {
    assert_string_equal(a->engine_version, b->engine_version);
    assert_memory_equal(&a->device, &b->device, sizeof a->device);
    assert_string_equal(a->model_sha256, b->model_sha256);
    assert_memory_equal(&a->shape, &b->shape, sizeof a->shape);
    assert_int_equal(a->n_choices, b->n_choices);
    for (int i = 0; i < a->n_choices; i++) {
        assert_string_equal(a->choices[i].name, b->choices[i].name);
        assert_int_equal(a->choices[i].value, b->choices[i].value);
        assert_true(a->choices[i].ms == b->choices[i].ms);
    }
    assert_int_equal(a->measurements, b->measurements);
    assert_memory_equal(&a->fp, &b->fp, sizeof a->fp);
    assert_memory_equal(a->costs.listed, b->costs.listed, sizeof a->costs.listed);
}

/* Written and read back field for field, with a configuration too (the
 * CPU backend chooses none; a GPU's table has them). */
static void test_round_trip(void **state) {
    (void)state;
    wu_table t = table_here();
    assert_string_equal(t.device.backend, "cpu");
    assert_string_equal(t.model_sha256, eng_model_sha256(g_model));
    assert_int_equal(t.n_choices, 0);
    assert_int_equal(t.measurements, 0);
    assert_true(stepcost_table_valid(&t.costs)); /* measured, read back exactly */
    t.choices = calloc(2, sizeof *t.choices);
    t.n_choices = 2;
    t.choices[0] = (krn_choice){"matmul.q4_K.mma_warps", 4, 0.125};
    t.choices[1] = (krn_choice){"attention.rows_per_block", -1, 3.5};
    t.measurements = 17;
    sb_err err = {0};
    assert_int_equal(wu_table_save(table_path(), &t, &err), 0);
    wu_table back;
    char sha[65];
    if (wu_table_load(table_path(), &back, sha, &err)) fail_msg("%s", err.msg);
    assert_same_table(&back, &t);
    size_t len;
    char *text = test_read_file(table_path(), &len);
    char want[65];
    sb_sha256_hex(text, len, want);
    assert_string_equal(sha, want);
    free(text);
    wu_table_free(&back);
    wu_table_free(&t);
}

/* Imported on the machine that made it: no measurement, no warning. */
static void test_import(void **state) {
    (void)state;
    json_decref(saved_json());
    sb_err err = {0};
    wu_import imp;
    eng_session *s = wu_session_import(g_model, &(eng_options){.n_threads = 1},
                                       table_path(), &imp, &err);
    if (!s) fail_msg("%s", err.msg);
    assert_int_equal(imp.measurements, 0);
    assert_int_equal(imp.n_warnings, 0);
    wu_table t = table_here();
    assert_string_equal(imp.fingerprint, t.fp.sha256);
    wu_table_free(&t);
    wu_table saved;
    if (wu_table_load(table_path(), &saved, NULL, &err)) fail_msg("%s", err.msg);
    assert_memory_equal(imp.costs.listed, saved.costs.listed, sizeof saved.costs.listed);
    assert_non_null(strstr(imp.costs.source, "warm-up table"));
    wu_table_free(&saved);
    /* a context too small for the canary is raised to hold it */
    eng_session_destroy(s);
    s = wu_session_import(g_model, &(eng_options){.n_threads = 1, .n_ctx = 8},
                          table_path(), &imp, &err);
    if (!s) fail_msg("%s", err.msg);
    eng_session_destroy(s);
}

/* Imports path; it must be refused with an error containing want. */
static void expect_refused(const char *path, const char *want) {
    sb_err err = {0};
    wu_import imp;
    eng_session *s = wu_session_import(g_model, &(eng_options){.n_threads = 1}, path,
                                       &imp, &err);
    if (s) fail_msg("imported; expected a refusal saying '%s'", want);
    if (!strstr(err.msg, want)) fail_msg("'%s' does not say '%s'", err.msg, want);
}

static void test_refusals(void **state) {
    (void)state;
    const char *edited = test_sb_path(1, "edited.json");
    /* another model: its file's hash */
    json_t *o = saved_json();
    json_object_set_new(json_object_get(o, "model"), "sha256",
                        json_string("0000000000000000000000000000000000000000000000000000000000000000"));
    save_json(o, edited);
    expect_refused(edited, "another model");
    json_decref(o);

    /* other bits: one step's hash, named with its rows */
    o = saved_json();
    json_t *step = json_array_get(json_object_get(json_object_get(o, "fingerprint"),
                                                  "steps"), 2);
    json_object_set_new(step, "sha256", json_string("1111111111111111111111111111111111111111111111111111111111111111"));
    save_json(o, edited);
    expect_refused(edited, "at step 3 (8 rows");
    expect_refused(edited, "bits differ");
    /* ... and what else differs is named as the likely cause */
    json_object_set_new(json_object_get(o, "device"), "driver", json_string("570.86.15"));
    save_json(o, edited);
    expect_refused(edited, "driver none here, 570.86.15 in the table");
    json_decref(o);

    /* the overall hash alone */
    o = saved_json();
    json_object_set_new(json_object_get(o, "fingerprint"), "sha256",
                        json_string("2222222222222222222222222222222222222222222222222222222222222222"));
    save_json(o, edited);
    expect_refused(edited, "bits differ");
    json_decref(o);
}

/* A table from another GPU (or backend) with the same bits: accepted, its
 * configuration taken where it applies, and a warning. */
static void test_another_gpu(void **state) {
    (void)state;
    const char *edited = test_sb_path(1, "gpu.json");
    json_t *o = saved_json();
    json_t *dev = json_object_get(o, "device");
    json_object_set_new(dev, "name", json_string("NVIDIA H100 80GB HBM3"));
    save_json(o, edited);
    sb_err err = {0};
    wu_import imp;
    eng_session *s = wu_session_import(g_model, &(eng_options){.n_threads = 1},
                                       edited, &imp, &err);
    if (!s) fail_msg("%s", err.msg);
    assert_int_equal(imp.n_warnings, 1);
    assert_non_null(strstr(imp.warnings[0], "another device"));
    assert_non_null(strstr(imp.warnings[0], "NVIDIA H100"));
    assert_false(stepcost_table_valid(&imp.costs)); /* another device's costs */
    eng_session_destroy(s);

    json_object_set_new(dev, "backend", json_string("cuda"));
    json_object_set_new(dev, "compute_capability", json_string("9.0"));
    json_object_set(o, "configuration", json_pack("[{s:s,s:i,s:f}]", "name",
                                                  "matmul.split", "value", 2, "ms", 0.5));
    json_decref(json_object_get(o, "configuration"));
    save_json(o, edited);
    s = wu_session_import(g_model, &(eng_options){.n_threads = 1}, edited, &imp, &err);
    if (!s) fail_msg("%s", err.msg);
    assert_int_equal(imp.n_choices, 0); /* a cuda configuration: not for the cpu */
    assert_non_null(strstr(imp.warnings[0], "does not apply to the cpu backend"));
    eng_session_destroy(s);
    json_decref(o);
}

/* ---- this machine's step costs ---- */

/* The curve at the row buckets the session's context holds, every cost
 * positive, the session left empty; a budget of 0 stops after the 1-row
 * step; a table written before step costs were recorded still loads and
 * gives an import none. */
static void test_step_costs(void **state) {
    (void)state;
    eng_session *s = session(1);
    stepcost_table t;
    sb_err err = {0};
    if (wu_step_costs(s, 60.0, &t, &err)) fail_msg("%s", err.msg);
    static const int rows[] = {1, 2, 4, 8, 16, 24, 32, 48, 64};
    int listed = 0;
    for (int r = 1; r <= STEPCOST_MAX_ROWS; r++) listed += t.listed[r] > 0;
    assert_int_equal(listed, 9);
    for (int i = 0; i < 9; i++) assert_true(t.listed[rows[i]] > 0);
    assert_true(stepcost_table_valid(&t));
    assert_non_null(strstr(t.source, "measured: "));
    assert_non_null(strstr(t.source, "(cpu)"));
    assert_false(stepcost_table_is_default(&t));
    assert_int_equal(eng_session_length(s), 0);
    if (wu_step_costs(s, 0.0, &t, &err)) fail_msg("%s", err.msg);
    assert_int_equal(stepcost_table_max_rows(&t), 1);
    eng_session_destroy(s);

    json_t *o = saved_json();
    json_object_del(o, "step_costs");
    const char *old = test_sb_path(1, "old.json");
    save_json(o, old);
    json_decref(o);
    wu_table back;
    if (wu_table_load(old, &back, NULL, &err)) fail_msg("%s", err.msg);
    assert_false(stepcost_table_valid(&back.costs));
    wu_table_free(&back);
    wu_import imp;
    s = wu_session_import(g_model, &(eng_options){.n_threads = 1}, old, &imp, &err);
    if (!s) fail_msg("%s", err.msg);
    assert_false(stepcost_table_valid(&imp.costs));
    eng_session_destroy(s);
}

/* ---- malformed tables ---- */

typedef struct corrupt {
    const char *what;   /* the edit, for messages */
    const char *key;    /* a top-level key... */
    const char *sub;    /* ...and within it (NULL: the key itself) */
    json_t *value;      /* the value put there (NULL: the field removed) */
    const char *want;   /* the error names this */
} corrupt;

static void test_malformed(void **state) {
    (void)state;
    corrupt cases[] = {
        {"format", "format", NULL, json_string("sonicboom-warmup-v9"), "format"},
        {"no format", "format", NULL, NULL, "format"},
        {"backend", "device", "backend", json_string("tpu"), "device.backend"},
        {"name with ESC", "device", "name", json_string("GPU\x1b[2J"), "device.name"},
        {"long name", "device", "name", NULL, "device.name"}, /* set below */
        {"driver type", "device", "cuda_driver", json_string("13"), "device.cuda_driver"},
        {"short sha", "model", "sha256", json_string("abc"), "model.sha256"},
        {"shape", "model", "shape", json_integer(3), "model.shape"},
        {"configuration", "configuration", NULL, json_object(), "configuration"},
        {"bad choice name", "configuration", NULL,
         json_pack("[{s:s,s:i,s:f}]", "name", "a b", "value", 1, "ms", 1.0),
         "configuration[0].name"},
        {"twice", "configuration", NULL,
         json_pack("[{s:s,s:i,s:f},{s:s,s:i,s:f}]", "name", "x", "value", 1, "ms", 1.0,
                   "name", "x", "value", 2, "ms", 1.0),
         "chosen twice"},
        {"negative ms", "configuration", NULL,
         json_pack("[{s:s,s:i,s:f}]", "name", "x", "value", 1, "ms", -1.0),
         "configuration[0].ms"},
        {"value range", "configuration", NULL,
         json_pack("[{s:s,s:I,s:f}]", "name", "x", "value", (json_int_t)1 << 40, "ms", 1.0),
         "configuration[0].value"},
        {"measurements", "measurements", NULL, json_integer(-1), "measurements"},
        {"steps", "fingerprint", "steps", json_array(), "fingerprint.steps"},
        {"fp sha", "fingerprint", "sha256", json_string("XYZ"), "fingerprint.sha256"},
        {"costs type", "step_costs", NULL, json_object(), "step_costs"},
        {"costs rows 0", "step_costs", NULL, json_pack("[{s:i,s:f}]", "rows", 0, "ms", 1.0),
         "step_costs[0].rows"},
        {"costs rows 65", "step_costs", NULL, json_pack("[{s:i,s:f}]", "rows", 65, "ms", 1.0),
         "step_costs[0].rows"},
        {"costs ms", "step_costs", NULL, json_pack("[{s:i,s:f}]", "rows", 1, "ms", -2.0),
         "step_costs[0].ms"},
        {"costs twice", "step_costs", NULL,
         json_pack("[{s:i,s:f},{s:i,s:f}]", "rows", 1, "ms", 1.0, "rows", 1, "ms", 2.0),
         "listed twice"},
        {"costs no 1-row", "step_costs", NULL, json_pack("[{s:i,s:f}]", "rows", 2, "ms", 1.0),
         "1-row step"},
    };
    char long_name[301];
    memset(long_name, 'x', 300);
    long_name[300] = '\0';
    cases[4].value = json_string(long_name);
    const char *edited = test_sb_path(1, "bad.json");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *o = saved_json();
        json_t *at = cases[i].sub ? json_object_get(o, cases[i].key) : o;
        const char *k = cases[i].sub ? cases[i].sub : cases[i].key;
        if (cases[i].value) json_object_set_new(at, k, cases[i].value);
        else json_object_del(at, k);
        save_json(o, edited);
        json_decref(o);
        wu_table t;
        sb_err err = {0};
        if (!wu_table_load(edited, &t, NULL, &err))
            fail_msg("%s: loaded", cases[i].what);
        if (!strstr(err.msg, cases[i].want))
            fail_msg("%s: '%s' does not name '%s'", cases[i].what, err.msg,
                     cases[i].want);
        assert_non_null(strstr(err.msg, edited));
    }
    /* every prefix of a good table: an error, never a crash */
    json_decref(saved_json());
    size_t len;
    char *text = test_read_file(table_path(), &len);
    for (size_t n = 0; n < len - 1; n++) {
        wu_table t;
        sb_err err = {0};
        if (!wu_table_parse(text, n, &t, &err)) fail_msg("a %zu-byte prefix parsed", n);
        assert_true(err.msg[0] != '\0');
    }
    free(text);
    /* more than a table may hold; not a regular file */
    char *big = malloc(WU_MAX_FILE + 2);
    memset(big, ' ', WU_MAX_FILE + 1);
    big[WU_MAX_FILE + 1] = '\0';
    test_write_file(edited, big, WU_MAX_FILE + 1);
    free(big);
    wu_table t;
    sb_err err = {0};
    assert_int_equal(wu_table_load(edited, &t, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "larger"));
    err = (sb_err){0};
    assert_int_equal(wu_table_load(test_sb_dir(), &t, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "is a directory, expected a regular file"));
    /* a FIFO with no writer blocked the open (sb warmup --import, sb
     * verify, sb-lsp's initialize) for good; it is refused at once */
    unlink(edited);
    assert_int_equal(mkfifo(edited, 0600), 0);
    err = (sb_err){0};
    assert_int_equal(wu_table_load(edited, &t, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "is a FIFO, expected a regular file"));
    unlink(edited);
}

/* ---- the commands ---- */

static void test_commands(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q4_K_M);
    const char *t = test_sb_path(2, "cli.json");
    assert_int_equal(test_sb("warmup -m '%s' --export '%s'", model, t), 0);
    assert_true(test_sb_output_has("out", "0 measurements"));
    assert_true(test_sb_output_has("out", "step costs, ms by rows: 1:"));
    assert_int_equal(test_sb("warmup -m '%s' --import '%s'", model, t), 0);
    assert_true(test_sb_output_has("out", "0 choices taken, 0 measurements"));
    assert_true(test_sb_output_has("out", "identical to the table's"));
    assert_int_equal(test_sb("verify -m '%s' --fingerprint '%s' --threads 2", model, t), 0);

    /* the fingerprint printed is the one in the table */
    wu_table tab;
    sb_err err = {0};
    assert_int_equal(wu_table_load(t, &tab, NULL, &err), 0);
    assert_true(test_sb_output_has("out", tab.fp.sha256));
    wu_table_free(&tab);

    /* generate with the table: same hash as without it */
    char with[80], without[80];
    assert_int_equal(test_sb("generate -m '%s' -p 'def f(x):' -n 24 --quiet "
                             "--warmup '%s'", model, t), 0);
    assert_true(test_sb_output_has("err", "warm-up table"));
    char *e = test_sb_read("err", NULL);
    test_text_field(e, "sha256=", with, sizeof with);
    free(e);
    assert_int_equal(test_sb("generate -m '%s' -p 'def f(x):' -n 24 --quiet", model), 0);
    e = test_sb_read("err", NULL);
    test_text_field(e, "sha256=", without, sizeof without);
    free(e);
    assert_string_equal(with, without);

    /* another model: refused by each command, naming it */
    const char *other = test_tiny_model_path(MK_RECIPE_Q8_0);
    assert_int_equal(test_sb("verify -m '%s' --fingerprint '%s'", other, t), 1);
    assert_true(test_sb_output_has("err", "another model"));
    assert_int_equal(test_sb("generate -m '%s' -p x -n 2 --warmup '%s'", other, t), 1);
    assert_true(test_sb_output_has("err", "another model"));
    assert_int_equal(test_sb("warmup -m '%s' --import /nonexistent.json", model), 1);
    assert_true(test_sb_output_has("err", "/nonexistent.json"));
    assert_int_equal(test_sb("warmup -m '%s'", model), 2);
    assert_int_equal(test_sb("verify -m '%s'", model), 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fingerprint),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_import),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_another_gpu),
        cmocka_unit_test(test_step_costs),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_commands),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
