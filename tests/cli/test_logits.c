/*
 * Inspectable outputs, through the built binary ("$SB_BUILD/sb"):
 * sb logits dumps, sb compare, and sb generate --ids, each checked against
 * the engine API called in-process on the tiny synthetic models, and
 * sb compare against the committed transformers reference within the
 * tolerances tests/engine/test_reference.c states.
 */
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
#include <unistd.h>

#include "../../engine/engine.h"
#include "../support/ref_logits.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const char *PROMPT = "def add(a, b): return a";

/* ==== reading sb's outputs ================================================= */

static bool exists(const char *path) { return access(path, F_OK) == 0; }

static json_t *load_json(const char *path) {
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    if (!j) fail_msg("%s: %s", path, jerr.text);
    return j;
}

/* The ids of a JSON array, malloc'd. */
static int32_t *ids_of(const json_t *a, int32_t *n) {
    assert_true(json_is_array(a));
    *n = (int32_t)json_array_size(a);
    int32_t *ids = malloc(((size_t)*n + 1) * sizeof *ids);
    for (int32_t i = 0; i < *n; i++) {
        assert_true(json_is_integer(json_array_get(a, (size_t)i)));
        ids[i] = (int32_t)json_integer_value(json_array_get(a, (size_t)i));
    }
    return ids;
}

/* Value of "key=" in sb compare's summary line (the last line of out). */
static double summary(const char *key) {
    char *out = test_sb_read("out", NULL);
    char *line = strstr(out, "sb compare: ");
    assert_non_null(line);
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    char *v = strstr(line, pat);
    if (!v) fail_msg("no %s in: %s", key, line);
    double d = strtod(v + strlen(pat), NULL);
    free(out);
    return d;
}

/* ==== the engine in-process ================================================ */

static int32_t tokenize(const eng_model *m, const char *text, int32_t *ids, int32_t cap) {
    int64_t n = eng_tokenize(m, text, (int64_t)strlen(text), ids, cap);
    assert_true(n > 0 && n <= cap);
    return (int32_t)n;
}

/* ==== sb logits ============================================================ */

/* The dump's rows are the engine's, bit for bit: row 0 from a prefill, then
 * one per greedy step (and, with prompt_logits, every prompt position, here
 * computed with another chunking than sb's). */
static void check_round_trip(bool prompt_logits) {
    eng_model *m = test_tiny_model_load(MK_RECIPE_F32);
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    const int32_t steps = 5;
    assert_int_equal(test_sb("logits -m %s -p '%s' -n %d --threads 2 %s --out %s", model,
                             PROMPT, steps, prompt_logits ? "--prompt-logits --chunk 5" : "",
                             test_sb_path(0, "rt")), 0);
    int32_t ids[256], n = tokenize(m, PROMPT, ids, 256), n_vocab = eng_n_vocab(m);
    json_t *j = load_json(test_sb_path(0, "rt.json"));
    assert_string_equal(json_string_value(json_object_get(j, "format")), "sb-logits-1");
    assert_string_equal(json_string_value(json_object_get(j, "model_sha256")),
                        eng_model_sha256(m));
    assert_int_equal(json_integer_value(json_object_get(j, "n_vocab")), n_vocab);
    assert_int_equal(json_integer_value(json_object_get(j, "steps")), steps);
    int32_t first = prompt_logits ? 0 : n - 1, rows = n - first + steps;
    assert_int_equal(json_integer_value(json_object_get(j, "first_position")), first);
    assert_int_equal(json_integer_value(json_object_get(j, "rows")), rows);
    assert_string_equal(json_string_value(json_object_get(j, "logits_file")), "rt.bin");
    int32_t n_prompt, n_greedy;
    int32_t *prompt = ids_of(json_object_get(j, "prompt_ids"), &n_prompt);
    int32_t *greedy = ids_of(json_object_get(j, "greedy_ids"), &n_greedy);
    assert_int_equal(n_prompt, n);
    assert_memory_equal(prompt, ids, (size_t)n * sizeof *ids);
    assert_int_equal(n_greedy, steps);

    size_t len;
    float *dump = (float *)test_read_file(test_sb_path(0, "rt.bin"), &len);
    size_t row = (size_t)n_vocab;
    assert_int_equal(len, (size_t)rows * row * sizeof(float));
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(s);
    /* where the rows came from: this engine, this device */
    assert_string_equal(json_string_value(json_object_get(j, "engine_version")),
                        eng_version());
    assert_string_equal(json_string_value(json_object_get(j, "device_name")),
                        eng_session_device_name(s));
    float *want = malloc((size_t)n * row * sizeof *want);
    if (prompt_logits) {
        assert_int_equal(eng_session_step(s, ids, n, want, &err), 0);
        assert_memory_equal(dump, want, (size_t)n * row * sizeof *want);
        memmove(want, want + (size_t)(n - 1) * row, row * sizeof *want);
    } else {
        assert_int_equal(eng_session_prefill(s, ids, n, 64, want, &err), 0);
        assert_memory_equal(dump, want, row * sizeof *want);
    }
    for (int32_t k = 0; k < steps; k++) {
        int32_t next = test_argmax(want, n_vocab);
        assert_int_equal(greedy[k], next);
        assert_int_equal(eng_session_step(s, &next, 1, want, &err), 0);
        assert_memory_equal(dump + (size_t)(n - first + k) * row, want,
                            row * sizeof *want);
    }
    eng_session_destroy(s);
    free(want);
    free(dump);
    free(prompt);
    free(greedy);
    json_decref(j);
    eng_model_free(m);
}

static void test_dump_round_trips(void **state) {
    (void)state;
    check_round_trip(false);
    check_round_trip(true);
}

/* The same command twice gives the same bytes, whatever the thread count. */
static void test_two_runs_identical(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    size_t bin_len, json_len, len;
    assert_int_equal(test_sb("logits -m %s -p '%s' -n 4 --threads 1 --out %s", model,
                             PROMPT, test_sb_path(0, "twice")), 0);
    char *bin = test_read_file(test_sb_path(0, "twice.bin"), &bin_len);
    char *json = test_read_file(test_sb_path(1, "twice.json"), &json_len);
    assert_int_equal(test_sb("logits -m %s -p '%s' -n 4 --threads 2 --out %s", model,
                             PROMPT, test_sb_path(0, "twice")), 0);
    char *again = test_read_file(test_sb_path(0, "twice.bin"), &len);
    assert_int_equal(len, bin_len);
    assert_memory_equal(again, bin, len);
    free(again);
    again = test_read_file(test_sb_path(1, "twice.json"), &len);
    assert_int_equal(len, json_len);
    assert_memory_equal(again, json, len);
    assert_false(exists(test_sb_path(2, "twice.bin.tmp")));
    assert_false(exists(test_sb_path(2, "twice.json.tmp")));
    free(again);
    free(bin);
    free(json);
}

/* --ids-in with the ids -p produced gives the same rows and ids. */
static void test_ids_in_matches_prompt(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    assert_int_equal(test_sb("logits -m %s -p '%s' -n 3 --out %s", model, PROMPT,
                             test_sb_path(0, "by_text")), 0);
    json_t *a = load_json(test_sb_path(0, "by_text.json"));
    assert_int_equal(json_dump_file(json_object_get(a, "prompt_ids"),
                                    test_sb_path(1, "ids.json"), 0), 0);
    assert_int_equal(test_sb("logits -m %s --ids-in %s -n 3 --out %s", model,
                             test_sb_path(1, "ids.json"), test_sb_path(0, "by_ids")), 0);
    json_t *b = load_json(test_sb_path(0, "by_ids.json"));
    assert_true(json_equal(json_object_get(a, "prompt_ids"), json_object_get(b, "prompt_ids")));
    assert_true(json_equal(json_object_get(a, "greedy_ids"), json_object_get(b, "greedy_ids")));
    size_t la, lb;
    char *ra = test_read_file(test_sb_path(0, "by_text.bin"), &la);
    char *rb = test_read_file(test_sb_path(1, "by_ids.bin"), &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(ra, rb, la);
    free(ra);
    free(rb);
    json_decref(a);
    json_decref(b);
}

/* Bad input: one clear line, exit 1 (2 for usage), and no output files. */
static void test_bad_input_leaves_nothing(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    static const struct {
        const char *ids, *want;
    } cases[] = {
        {"[1, 2, 512]", "element 2 is token id 512, outside 0..511"},
        {"[1, \"a\"]", "element 1 is not an integer"},
        {"{\"ids\": [1]}", "expected a JSON array"},
        {"[1, 2", "--ids-in"},
        {"[]", "the prompt has no tokens"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file(test_sb_path(1, "bad_ids.json"), cases[i].ids, strlen(cases[i].ids));
        assert_int_equal(test_sb("logits -m %s --ids-in %s --out %s", model,
                                 test_sb_path(1, "bad_ids.json"), test_sb_path(0, "bad")), 1);
        assert_true(test_sb_output_has("err", cases[i].want));
        assert_false(exists(test_sb_path(0, "bad.bin")) || exists(test_sb_path(0, "bad.json")) ||
                     exists(test_sb_path(0, "bad.bin.tmp")));
    }
    assert_int_equal(test_sb("logits -m %s -p x --ids-in %s --out %s", model,
                             test_sb_path(1, "bad_ids.json"), test_sb_path(0, "bad")), 2);
    assert_int_equal(test_sb("logits -m %s -p x", model), 2);
    /* 4096 positions is the tiny model's context. */
    assert_int_equal(test_sb("logits -m %s -p x -n 4096 --out %s",
                             model, test_sb_path(0, "bad")), 1);
    assert_true(test_sb_output_has("err", "context_length is 4096"));
    assert_false(exists(test_sb_path(0, "bad.bin")));
}

/* ==== sb compare against the committed transformers reference ============= */

/* Writes prompt k's ids as JSON and dumps the model's logits at every one of
 * its positions to <prefix>.{bin,json} in the scratch directory. */
static void dump_ref_prompt(const char *model, const test_ref_file *r, int k,
                            const char *prefix) {
    json_t *a = json_array();
    for (uint32_t i = 0; i < r->prompts[k].n_tokens; i++)
        json_array_append_new(a, json_integer(r->prompts[k].ids[i]));
    assert_int_equal(json_dump_file(a, test_sb_path(1, "ref_ids.json"), 0), 0);
    json_decref(a);
    assert_int_equal(test_sb("logits -m %s --ids-in %s --prompt-logits --threads 2 --out %s",
                             model, test_sb_path(1, "ref_ids.json"), test_sb_path(0, prefix)), 0);
}

/* The per-row "scaled" column of sb compare's table, appended to v. */
static void collect_scaled(double *v, int *n, int cap) {
    char *out = test_sb_read("out", NULL);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        long long pos;
        double abs_, rel, scaled;
        int t1, t2;
        if (sscanf(line, "%lld %lf %lf %lf %d %d", &pos, &abs_, &rel, &scaled,
                   &t1, &t2) == 6) {
            assert_true(*n < cap);
            v[(*n)++] = scaled;
        }
    }
    free(out);
}

/* Bounds from tests/engine/test_reference.c: the median and the worst of
 * largest |engine - reference| / largest |reference| per position. */
static void check_reference(mk_recipe recipe, const char *ref, double median,
                            double worst) {
    const char *model = test_tiny_model_path(recipe);
    test_ref_file *r = test_ref_load(ref);
    double scaled[1024], got_median, got_worst;
    int n_scaled = 0;
    for (int k = 0; k < (int)r->n_prompts; k++) {
        dump_ref_prompt(model, r, k, "ref");
        assert_int_equal(test_sb("compare %s %s --ref-prompt %d --max-scaled %g",
                                 test_sb_path(0, "ref.json"), ref, k, worst), 0);
        assert_int_equal((int)summary("rows"), r->prompts[k].n_tokens);
        /* test_reference.c: top-1 agrees at every position. */
        assert_int_equal((int)summary("top1_agree"), r->prompts[k].n_tokens);
        collect_scaled(scaled, &n_scaled, 1024);
    }
    test_median_worst(scaled, n_scaled, &got_median, &got_worst);
    printf("  %s: %d positions, scaled error median %.3g (bound %.3g), worst "
           "%.3g (bound %.3g)\n", ref, n_scaled, got_median, median, got_worst,
           worst);
    assert_true(got_median <= median);
    assert_true(got_worst <= worst);
    test_ref_free(r);
}

static void test_compare_matches_reference(void **state) {
    (void)state;
    check_reference(MK_RECIPE_F32, "tests/data/ref_tiny_f32.emulated.bin", 1e-5, 1e-4);
    check_reference(MK_RECIPE_F32, "tests/data/ref_tiny_f32.exact.bin", 2e-3, 2e-3);
    check_reference(MK_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.emulated.bin", 1e-5, 2e-2);
    check_reference(MK_RECIPE_Q8_0, "tests/data/ref_tiny_q8_0.exact.bin", 3e-2, 3e-2);
}

typedef enum tamper_kind {
    TAMPER_NUDGE,    /* add amount x scale to a logit that is not the top-1 */
    TAMPER_OVERTAKE, /* set it to the top-1 plus amount x scale */
    TAMPER_NAN,      /* set it to NaN */
} tamper_kind;

/* Changes one logit of row `pos` of a dump written with --prompt-logits
 * (row r = position r): the first id that is not the row's top-1. The
 * scale is the row's largest |logit|. */
static void tamper(const char *bin, int32_t n_vocab, int32_t pos,
                   tamper_kind kind, float amount) {
    size_t len;
    float *v = (float *)test_read_file(bin, &len);
    assert_true(((size_t)pos + 1) * (size_t)n_vocab * sizeof *v <= len);
    float *row = v + (size_t)pos * (size_t)n_vocab;
    int32_t top = test_argmax(row, n_vocab), victim = top == 0 ? 1 : 0;
    float scale = 0;
    for (int32_t i = 0; i < n_vocab; i++) scale = fmaxf(scale, fabsf(row[i]));
    if (kind == TAMPER_NUDGE) row[victim] += amount * scale;
    else if (kind == TAMPER_OVERTAKE) row[victim] = row[top] + amount * scale;
    else row[victim] = NAN;
    test_write_file(bin, v, len);
    free(v);
}

/* A tampered dump fails the comparison: beyond the tolerance (exceeded),
 * a new top-1 at a clear margin (BUG), a NaN (BUG). */
static void test_compare_fails_on_tampered(void **state) {
    (void)state;
    const char *ref = "tests/data/ref_tiny_f32.exact.bin";
    test_ref_file *r = test_ref_load(ref);
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    int32_t n_vocab = 512;
    dump_ref_prompt(model, r, 1, "tamper");
    const char *cmp = "compare %s %s --ref-prompt 1 --max-scaled 2e-3";
    assert_int_equal(test_sb(cmp, test_sb_path(0, "tamper.json"), ref), 0);
    assert_true(test_sb_output_has("out", "verdict=ok"));

    /* +1% of the scale at one logit: top-1 unchanged, tolerance exceeded. */
    tamper(test_sb_path(0, "tamper.bin"), n_vocab, 3, TAMPER_NUDGE, 0.01f);
    assert_int_equal(test_sb(cmp, test_sb_path(0, "tamper.json"), ref), 1);
    assert_true(test_sb_output_has("out", "verdict=exceeded"));
    assert_true(test_sb_output_has("out", "exceeds --max-scaled"));
    /* Without a limit the same rows pass: no divergence. */
    assert_int_equal(test_sb("compare %s %s --ref-prompt 1",
                             test_sb_path(0, "tamper.json"), ref), 0);

    /* A logit half the scale above the top-1: a clear-margin divergence. */
    dump_ref_prompt(model, r, 1, "tamper");
    tamper(test_sb_path(0, "tamper.bin"), n_vocab, 5, TAMPER_OVERTAKE, 0.5f);
    assert_int_equal(test_sb("compare %s %s --ref-prompt 1",
                             test_sb_path(0, "tamper.json"), ref), 1);
    assert_true(test_sb_output_has("out", "BUG, a clear margin"));
    assert_true(test_sb_output_has("out", "verdict=BUG"));

    dump_ref_prompt(model, r, 1, "tamper");
    tamper(test_sb_path(0, "tamper.bin"), n_vocab, 2, TAMPER_NAN, 0);
    assert_int_equal(test_sb("compare %s %s --ref-prompt 1",
                             test_sb_path(0, "tamper.json"), ref), 1);
    assert_true(test_sb_output_has("out", "non-finite"));
    test_ref_free(r);
}

/* ==== sb compare between dumps ============================================ */

/* A hand-made dump: prompt {1}, one greedy step to `next`, two rows of 8
 * logits, row 0 = rows[0..7]. */
static void write_dump(const char *prefix, const float rows[16], int32_t next,
                       int32_t n_vocab, const char *bin_name) {
    char path[300];
    snprintf(path, sizeof path, "%s.bin", prefix);
    test_write_file(path, rows, 2 * (size_t)n_vocab * sizeof *rows);
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:s, s:[i], s:[i], s:i, s:i, s:i, s:s}",
                          "format", "sb-logits-1", "model", "hand-made",
                          "model_sha256", "0", "n_vocab", n_vocab, "device", "cpu",
                          "prompt_ids", 1, "greedy_ids", next, "steps", 1,
                          "first_position", 0, "rows", 2, "logits_file", bin_name);
    snprintf(path, sizeof path, "%s.json", prefix);
    assert_int_equal(json_dump_file(j, path, 0), 0);
    json_decref(j);
}

/* Greedy paths that part at a near-tie are benign, at a clear margin a BUG;
 * the rows after the parting are not compared. */
static void test_compare_divergence_verdicts(void **state) {
    (void)state;
    float a[16] = {0, 1, 2, 3, 9.99f, 10, 1, 1, /* top-1 5 */ 0, 1, 2, 3, 4, 5, 6, 7};
    float b[16] = {0, 1, 2, 3, 10, 9.99f, 1, 1, /* top-1 4 */ 7, 6, 5, 4, 3, 2, 1, 0};
    write_dump(test_sb_path(0, "da"), a, 5, 8, "da.bin");
    write_dump(test_sb_path(0, "db"), b, 4, 8, "db.bin");
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "da.json"), test_sb_path(1, "db.json")), 0);
    assert_true(test_sb_output_has("out", "benign, a near-tie"));
    assert_true(test_sb_output_has("out", "rows=1 "));
    assert_true(test_sb_output_has("out", "later rows are not compared"));
    assert_true(test_sb_output_has("out", "verdict=benign"));
    b[4] = 12; /* a margin of 2 in a scale of 12 */
    write_dump(test_sb_path(0, "db"), b, 4, 8, "db.bin");
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "da.json"), test_sb_path(1, "db.json")), 1);
    assert_true(test_sb_output_has("out", "verdict=BUG"));
    /* The same file against itself: nothing differs. */
    assert_int_equal(test_sb("compare %s %s --max-abs 0 --max-rel 0", test_sb_path(0, "da.json"),
                             test_sb_path(1, "da.json")), 0);
    assert_int_equal((int)summary("rows"), 2);
    assert_true(summary("max_abs") == 0.0);
    assert_true(test_sb_output_has("out", "verdict=ok"));
}

/* Corrupt or mismatched inputs: a clear error, exit 1 (2 for usage). */
static void test_compare_refuses_bad_input(void **state) {
    (void)state;
    float rows[16] = {0};
    rows[3] = 1;
    rows[11] = 1;
    write_dump(test_sb_path(0, "v8"), rows, 3, 8, "v8.bin");
    const char *model = test_tiny_model_path(MK_RECIPE_F32);
    /* no ids file yet */
    assert_int_equal(test_sb("logits -m %s --ids-in %s --out %s", model,
                             test_sb_path(1, "ids1.json"), test_sb_path(0, "v512")), 1);
                             test_write_file(test_sb_path(1, "ids1.json"), "[1]", 3);
    assert_int_equal(test_sb("logits -m %s --ids-in %s -n 1 --out %s", model,
                             test_sb_path(1, "ids1.json"), test_sb_path(0, "v512")), 0);
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "v8.json"), test_sb_path(1, "v512.json")), 1);
    assert_true(test_sb_output_has("err", "A has n_vocab 8 but B has 512"));

    /* The rows file must hold exactly the rows described. */
    write_dump(test_sb_path(0, "short"), rows, 3, 8, "short.bin");
    test_write_file(test_sb_path(0, "short.bin"), rows, 15 * sizeof *rows);
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "short.json"), test_sb_path(1, "v8.json")), 1);
    assert_true(test_sb_output_has("err", "holds 60 bytes"));
    write_dump(test_sb_path(0, "escape"), rows, 3, 8, "../v8.bin");
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "escape.json"), test_sb_path(1, "v8.json")), 1);
    assert_true(test_sb_output_has("err", "\"logits_file\" must name a file beside it"));
    test_write_file(test_sb_path(0, "junk.json"), "{\"format\": \"other\"}", 19);
    assert_int_equal(test_sb("compare %s %s",
                             test_sb_path(0, "junk.json"), test_sb_path(1, "v8.json")), 1);
    assert_true(test_sb_output_has("err", "neither an sb logits description"));
    /* A reference needs a prompt index, and a valid one. */
    const char *ref = "tests/data/ref_tiny_f32.exact.bin";
    assert_int_equal(test_sb("compare %s %s", test_sb_path(0, "v512.json"), ref), 2);
    assert_true(test_sb_output_has("err", "--ref-prompt 0..3"));
    assert_int_equal(test_sb("compare %s %s --ref-prompt 4", test_sb_path(0, "v512.json"), ref), 1);
    size_t len;
    char *buf = test_read_file(ref, &len);
    test_write_file(test_sb_path(0, "cut.bin"), buf, len / 2);
    free(buf);
    assert_int_equal(test_sb("compare %s %s --ref-prompt 3", test_sb_path(0, "v512.json"),
                             test_sb_path(1, "cut.bin")), 1);
    assert_true(test_sb_output_has("err", "run past the end of the file"));
}

/* ==== sb generate --ids ===================================================== */

/* Splits the two id lines of text into JSON arrays. */
static void parse_id_lines(const char *text, json_t **prompt, json_t **generated) {
    const char *nl = strchr(text, '\n');
    assert_non_null(nl);
    json_error_t jerr;
    json_t *a = json_loadb(text, (size_t)(nl - text), 0, &jerr);
    json_t *b = json_loads(nl + 1, JSON_DISABLE_EOF_CHECK, &jerr);
    assert_non_null(a);
    assert_non_null(b);
    *prompt = json_incref(json_object_get(a, "prompt_ids"));
    *generated = json_incref(json_object_get(b, "generated_ids"));
    json_decref(a);
    json_decref(b);
}

/* The ids generate prints are the engine's, and hash to the sha256 it reports. */
static void test_generate_ids(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    int32_t ids[256], n = tokenize(m, PROMPT, ids, 256);
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(s);
    eng_gen_params p = eng_gen_defaults();
    p.n_max = 12;
    eng_gen_result want;
    assert_int_equal(eng_generate(s, ids, n, &p, NULL, NULL, &want, &err), 0);

    for (int to_file = 0; to_file < 2; to_file++) {
        assert_int_equal(test_sb("generate -m %s -p '%s' -n 12 --quiet %s %s", model,
                                 PROMPT, to_file ? "--ids-out" : "--ids",
                                 to_file ? test_sb_path(0, "ids.jsonl") : ""), 0);
        char *err_text = test_read_file(test_sb_path(1, "err"), NULL);
        char *text = to_file ? test_read_file(test_sb_path(0, "ids.jsonl"), NULL)
                             : strdup(err_text);
        json_t *prompt, *gen;
        parse_id_lines(text, &prompt, &gen);
        int32_t np, ng;
        int32_t *pi = ids_of(prompt, &np), *gi = ids_of(gen, &ng);
        assert_int_equal(np, n);
        assert_memory_equal(pi, ids, (size_t)n * sizeof *ids);
        assert_int_equal(ng, want.n_tokens);
        assert_memory_equal(gi, want.tokens, (size_t)ng * sizeof *gi);
        char hex[65], field[80];
        eng_tokens_sha256(gi, ng, hex);
        snprintf(field, sizeof field, "sha256=%s", hex);
        assert_non_null(strstr(err_text, field));
        /* With --ids-out, stderr holds the summary line only. */
        assert_true(!to_file || !strstr(err_text, "prompt_ids"));
        free(pi);
        free(gi);
        json_decref(prompt);
        json_decref(gen);
        free(text);
        free(err_text);
    }
    assert_false(exists(test_sb_path(0, "ids.jsonl.tmp")));
    free(want.tokens);
    eng_session_destroy(s);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dump_round_trips),
        cmocka_unit_test(test_two_runs_identical),
        cmocka_unit_test(test_ids_in_matches_prompt),
        cmocka_unit_test(test_bad_input_leaves_nothing),
        cmocka_unit_test(test_compare_matches_reference),
        cmocka_unit_test(test_compare_fails_on_tampered),
        cmocka_unit_test(test_compare_divergence_verdicts),
        cmocka_unit_test(test_compare_refuses_bad_input),
        cmocka_unit_test(test_generate_ids),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
