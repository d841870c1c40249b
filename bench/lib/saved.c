/*
 * saved.c — a run read back from the JSON report.c wrote (bench.h), so the
 * table, plots and RESULTS.md section can be made again where the run was
 * not: the GPU machine has no gnuplot. The file is input like any other:
 * every field is checked for presence, type and range, and an error names
 * the field by its path ("tasks[2].on.accept_hist").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { SAVED__MAX_TASKS = 4096 };

/* Says what key under `where` should have been. */
static int saved__bad(const char *where, const char *key, const char *want,
                      sb_err *err) {
    return sb_err_set(err, "bench JSON", "%s%s%s: missing or not %s", where,
                      *where ? "." : "", key, want);
}

static const json_t *saved__get(const json_t *o, const char *key) {
    return json_is_object(o) ? json_object_get(o, key) : NULL;
}

static int saved__obj(const json_t *o, const char *where, const char *key,
                      const json_t **out, sb_err *err) {
    *out = saved__get(o, key);
    return json_is_object(*out) ? 0 : saved__bad(where, key, "an object", err);
}

static int saved__int(const json_t *o, const char *where, const char *key,
                      int64_t hi, int64_t *out, sb_err *err) {
    const json_t *v = saved__get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > hi) {
        char want[64];
        snprintf(want, sizeof want, "an integer in 0..%lld", (long long)hi);
        return saved__bad(where, key, want, err);
    }
    *out = json_integer_value(v);
    return 0;
}

static int saved__i32(const json_t *o, const char *where, const char *key,
                      int32_t *out, sb_err *err) {
    int64_t v;
    if (saved__int(o, where, key, INT32_MAX, &v, err)) return -1;
    *out = (int32_t)v;
    return 0;
}

static int saved__num(const json_t *o, const char *where, const char *key,
                      double *out, sb_err *err) {
    const json_t *v = saved__get(o, key);
    if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
        json_number_value(v) < 0)
        return saved__bad(where, key, "a number >= 0", err);
    *out = json_number_value(v);
    return 0;
}

static int saved__bool(const json_t *o, const char *where, const char *key,
                       bool *out, sb_err *err) {
    const json_t *v = saved__get(o, key);
    if (!json_is_boolean(v)) return saved__bad(where, key, "true or false", err);
    *out = json_is_true(v);
    return 0;
}

/* A string borrowed from the document. */
static int saved__str(const json_t *o, const char *where, const char *key,
                      const char **out, sb_err *err) {
    const json_t *v = saved__get(o, key);
    if (!json_is_string(v)) return saved__bad(where, key, "a string", err);
    *out = json_string_value(v);
    return 0;
}

/* A string copied into dst[cap] (NUL included). */
static int saved__strcpy(const json_t *o, const char *where, const char *key,
                         char *dst, size_t cap, sb_err *err) {
    const char *s;
    if (saved__str(o, where, key, &s, err)) return -1;
    if (strlen(s) >= cap) {
        char want[64];
        snprintf(want, sizeof want, "a string of at most %zu bytes", cap - 1);
        return saved__bad(where, key, want, err);
    }
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

/* A malloc'd copy, for the bench_task fields bench_tasks_free frees. */
static int saved__strdup(const json_t *o, const char *where, const char *key,
                         char **out, sb_err *err) {
    const char *s;
    if (saved__str(o, where, key, &s, err)) return -1;
    if (!(*out = strdup(s)))
        return sb_err_set(err, "bench JSON", "out of memory");
    return 0;
}

/* An array of exactly n counts. */
static int saved__counts(const json_t *o, const char *where, const char *key,
                         int32_t *h, int n, sb_err *err) {
    const json_t *a = saved__get(o, key);
    char want[64];
    snprintf(want, sizeof want, "an array of %d integers in 0..%d", n,
             INT32_MAX);
    if (!json_is_array(a) || json_array_size(a) != (size_t)n)
        return saved__bad(where, key, want, err);
    for (int i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, (size_t)i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > INT32_MAX)
            return saved__bad(where, key, want, err);
        h[i] = (int32_t)json_integer_value(v);
    }
    return 0;
}

/* ---- the parts --------------------------------------------------------------- */

static int saved__meta(const json_t *root, bench_meta *m, sb_err *err) {
    const char *schema;
    const json_t *model;
    int64_t threads;
    if (saved__str(root, "", "schema", &schema, err)) return -1;
    if (strcmp(schema, "sb-bench-1"))
        return saved__bad("", "schema", "\"sb-bench-1\"", err);
    if (saved__str(root, "", "date", &m->date, err) ||
        saved__str(root, "", "device", &m->device, err) ||
        saved__obj(root, "", "model", &model, err) ||
        saved__str(model, "model", "path", &m->model_path, err) ||
        saved__bool(model, "model", "synthetic", &m->synthetic, err) ||
        saved__str(root, "", "command", &m->command, err) ||
        saved__int(root, "", "threads", 1 << 20, &threads, err) ||
        saved__i32(root, "", "max_tokens", &m->max_tokens, err))
        return -1;
    if (strcmp(m->device, "cpu") && strcmp(m->device, "cuda"))
        return saved__bad("", "device", "\"cpu\" or \"cuda\"", err);
    const json_t *sha = saved__get(model, "sha256"); /* null: not hashed */
    if (!json_is_null(sha) && saved__str(model, "model", "sha256",
                                         &m->model_sha256, err))
        return -1;
    m->threads = (int)threads;
    return 0;
}

/* One KV depth's step times: a step per row bucket, in bucket order. */
static int saved__depth(const json_t *d, const char *where, bench_engine *e,
                        int i, sb_err *err) {
    char at[96];
    if (saved__i32(d, where, "kv_depth", &e->depths[i], err)) return -1;
    const json_t *steps = saved__get(d, "steps");
    if (!json_is_array(steps) || json_array_size(steps) != BENCH_N_BUCKETS)
        return saved__bad(where, "steps", "an array of one step per row "
                          "bucket (9)", err);
    for (int j = 0; j < BENCH_N_BUCKETS; j++) {
        const json_t *s = json_array_get(steps, (size_t)j);
        int32_t rows;
        snprintf(at, sizeof at, "%s.steps[%d]", where, j);
        if (saved__i32(s, at, "rows", &rows, err) ||
            saved__num(s, at, "ms", &e->step_ms[i][j], err))
            return -1;
        if (rows != bench_bucket_rows[j]) {
            char want[32];
            snprintf(want, sizeof want, "%d", bench_bucket_rows[j]);
            return saved__bad(at, "rows", want, err);
        }
    }
    return 0;
}

static int saved__engine(const json_t *root, bench_engine *e, sb_err *err) {
    const json_t *j, *depths;
    int32_t cost_depth;
    int64_t reps, bytes;
    if (saved__obj(root, "", "engine", &j, err) ||
        saved__strcpy(j, "engine", "device_name", e->device_name,
                      sizeof e->device_name, err) ||
        saved__i32(j, "engine", "cost_depth", &cost_depth, err) ||
        saved__int(j, "engine", "reps", 256, &reps, err) ||
        saved__int(j, "engine", "streamed_bytes", INT64_MAX, &bytes, err) ||
        saved__num(j, "engine", "bandwidth_gbs", &e->bandwidth_gbs, err) ||
        saved__strcpy(j, "engine", "bandwidth_kind", e->bandwidth_kind,
                      sizeof e->bandwidth_kind, err) ||
        saved__num(j, "engine", "floor_ms", &e->floor_ms, err))
        return -1;
    if (saved__get(j, "bandwidth_note") &&
        saved__strcpy(j, "engine", "bandwidth_note", e->bandwidth_note,
                      sizeof e->bandwidth_note, err))
        return -1;
    e->reps = (int)reps;
    e->streamed_bytes = (uint64_t)bytes;
    depths = saved__get(j, "depths");
    size_t nd = json_array_size(depths);
    if (!json_is_array(depths) || nd < 1 || nd > BENCH_MAX_DEPTHS)
        return saved__bad("engine", "depths", "an array of 1..4 KV depths",
                          err);
    e->n_depths = (int)nd;
    e->cost_depth = -1;
    for (int i = 0; i < e->n_depths; i++) {
        char at[64];
        snprintf(at, sizeof at, "engine.depths[%d]", i);
        if (saved__depth(json_array_get(depths, (size_t)i), at, e, i, err))
            return -1;
        if (e->cost_depth < 0 && e->depths[i] == cost_depth) e->cost_depth = i;
    }
    if (e->cost_depth < 0)
        return saved__bad("engine", "cost_depth", "one of the depths' "
                          "kv_depth", err);
    return bench_engine_price(e, err); /* as bench_engine_measure */
}

static int saved__run(const json_t *o, const char *where, const char *key,
                      bench_run *r, sb_err *err) {
    const json_t *j;
    char at[96];
    snprintf(at, sizeof at, "%s.%s", where, key);
    return saved__obj(o, where, key, &j, err) ||
           saved__num(j, at, "ttft_s", &r->ttft_s, err) ||
           saved__num(j, at, "decode_s", &r->decode_s, err) ||
           saved__num(j, at, "tok_s", &r->tok_s, err) ||
           saved__i32(j, at, "tokens", &r->tokens, err) ||
           saved__i32(j, at, "steps", &r->steps, err) ||
           saved__num(j, at, "tokens_per_step", &r->tokens_per_step, err) ||
           saved__int(j, at, "drafted", INT64_MAX, &r->drafted, err) ||
           saved__int(j, at, "accepted", INT64_MAX, &r->accepted, err) ||
           saved__counts(j, at, "accept_hist", r->accept_hist,
                         ENG_MAX_DRAFT + 1, err) ||
           saved__strcpy(j, at, "sha256", r->sha256, sizeof r->sha256, err) ||
           saved__str(j, at, "stop", &r->stop, err) ||
           saved__bool(j, at, "closed_fence", &r->closed_fence, err) ||
           saved__bool(j, at, "matches_expected", &r->matches_expected, err)
               ? -1 : 0;
}

static int saved__sim(const json_t *o, const char *where, const char *key,
                      edit_sim_result *s, sb_err *err) {
    const json_t *j;
    char at[96];
    snprintf(at, sizeof at, "%s.%s", where, key);
    return saved__obj(o, where, key, &j, err) ||
           saved__i32(j, at, "output_tokens", &s->output_tokens, err) ||
           saved__i32(j, at, "steps", &s->steps, err) ||
           saved__num(j, at, "tokens_per_step", &s->tokens_per_step, err) ||
           saved__int(j, at, "drafted", INT64_MAX, &s->drafted, err) ||
           saved__int(j, at, "accepted", INT64_MAX, &s->accepted, err) ||
           saved__num(j, at, "projected_speedup", &s->projected_speedup, err) ||
           saved__counts(j, at, "accept_hist", s->accept_hist,
                         ENG_MAX_DRAFT + 1, err) ||
           saved__counts(j, at, "rows_hist", s->rows_hist, KRN_MAX_ROWS + 1,
                         err)
               ? -1 : 0;
}

/* What a task ran: both runs and both ceilings. */
static int saved__ran(const json_t *j, const char *at, bench_task_result *r,
                      sb_err *err) {
    const json_t *ceiling;
    char c_at[80];
    snprintf(c_at, sizeof c_at, "%s.ceiling", at);
    return saved__run(j, at, "off", &r->off, err) ||
           saved__run(j, at, "on", &r->on, err) ||
           saved__bool(j, at, "identical", &r->identical, err) ||
           saved__num(j, at, "speedup", &r->speedup, err) ||
           saved__obj(j, at, "ceiling", &ceiling, err) ||
           saved__sim(ceiling, c_at, "copy", &r->ceiling_copy, err) ||
           saved__sim(ceiling, c_at, "ngram", &r->ceiling_ngram, err) ||
           saved__num(j, at, "projected_tok_s", &r->projected_tok_s, err)
               ? -1 : 0;
}

static int saved__task(const json_t *j, int i, bench_task *t,
                       bench_task_result *r, sb_err *err) {
    char at[64];
    snprintf(at, sizeof at, "tasks[%d]", i);
    r->task = t;
    if (saved__strdup(j, at, "name", &t->name, err) ||
        saved__strdup(j, at, "language", &t->language, err) ||
        saved__strdup(j, at, "kind", &t->kind, err) ||
        saved__i32(j, at, "lines_in", &t->lines_in, err) ||
        saved__i32(j, at, "lines_out", &t->lines_out, err) ||
        saved__i32(j, at, "changed_lines", &t->changed_lines, err) ||
        saved__num(j, at, "changed_share", &t->changed_share, err) ||
        saved__i32(j, at, "prompt_tokens", &r->n_prompt, err) ||
        saved__i32(j, at, "reply_tokens", &r->reply_tokens, err) ||
        saved__i32(j, at, "cap", &r->cap, err) ||
        saved__bool(j, at, "skipped", &r->skipped, err))
        return -1;
    if (!*t->name) return saved__bad(at, "name", "a non-empty string", err);
    if (r->skipped)
        return saved__strcpy(j, at, "skip_reason", r->skip_reason,
                             sizeof r->skip_reason, err);
    return saved__ran(j, at, r, err);
}

static int saved__tasks(const json_t *root, bench_saved *s, sb_err *err) {
    const json_t *a = saved__get(root, "tasks");
    size_t n = json_array_size(a);
    if (!json_is_array(a) || n > SAVED__MAX_TASKS)
        return saved__bad("", "tasks", "an array of at most 4096 tasks", err);
    if (n == 0) return 0;
    s->tasks = calloc(n, sizeof *s->tasks);
    s->res = calloc(n, sizeof *s->res);
    if (!s->tasks || !s->res)
        return sb_err_set(err, "bench JSON", "out of memory for %zu tasks", n);
    s->n = (int)n;
    for (int i = 0; i < s->n; i++)
        if (saved__task(json_array_get(a, (size_t)i), i, &s->tasks[i],
                        &s->res[i], err))
            return -1;
    return 0;
}

int bench_saved_load(const char *text, size_t len, bench_saved *s,
                     sb_err *err) {
    memset(s, 0, sizeof *s);
    json_error_t je;
    s->root = json_loadb(text, len, 0, &je);
    if (!s->root)
        return sb_err_set(err, "bench JSON", "line %d, column %d: %s",
                          je.line, je.column, je.text);
    int rc = json_is_object(s->root)
                 ? 0 : sb_err_set(err, "bench JSON", "not a JSON object");
    if (rc || saved__meta(s->root, &s->meta, err) ||
        saved__engine(s->root, &s->engine, err) ||
        saved__tasks(s->root, s, err)) {
        bench_saved_free(s);
        return -1;
    }
    bench_totals_sum(s->res, s->n, &s->totals);
    return 0;
}

void bench_saved_free(bench_saved *s) {
    if (!s) return;
    bench_tasks_free(s->tasks, s->n);
    free(s->res);
    json_decref(s->root);
    memset(s, 0, sizeof *s);
}
