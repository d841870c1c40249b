/*
 * report.c — the harness's numbers as totals, as JSON (every number) and
 * as the table `sb bench` prints (bench.h).
 */
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* Decode time a simulated run's tokens take at its projected rate. */
static double report__projected_s(const bench_task_result *r) {
    return r->projected_tok_s > 0
               ? (r->ceiling_copy.output_tokens - 1) / r->projected_tok_s : 0;
}

void bench_totals_sum(const bench_task_result *r, int n, bench_totals *t) {
    memset(t, 0, sizeof *t);
    int64_t copy_tokens = 0, copy_steps = 0, ngram_tokens = 0, ngram_steps = 0;
    int64_t proj_tokens = 0;
    double proj_s = 0;
    for (int i = 0; i < n; i++) {
        if (r[i].skipped) {
            t->skipped++;
            continue;
        }
        t->ran++;
        t->mismatches += !r[i].identical;
        t->tokens_off += r[i].off.tokens > 1 ? r[i].off.tokens - 1 : 0;
        t->tokens_on += r[i].on.tokens > 1 ? r[i].on.tokens - 1 : 0;
        t->decode_s_off += r[i].off.decode_s;
        t->decode_s_on += r[i].on.decode_s;
        for (int k = 0; k <= ENG_MAX_DRAFT; k++)
            t->accept_hist[k] += r[i].on.accept_hist[k];
        copy_tokens += r[i].ceiling_copy.output_tokens;
        copy_steps += r[i].ceiling_copy.steps;
        ngram_tokens += r[i].ceiling_ngram.output_tokens;
        ngram_steps += r[i].ceiling_ngram.steps;
        proj_tokens += r[i].ceiling_copy.output_tokens - 1;
        proj_s += report__projected_s(&r[i]);
    }
    t->tok_s_off = t->decode_s_off > 0 ? t->tokens_off / t->decode_s_off : 0;
    t->tok_s_on = t->decode_s_on > 0 ? t->tokens_on / t->decode_s_on : 0;
    t->ceiling_tps_copy = copy_steps ? (double)copy_tokens / copy_steps : 0;
    t->ceiling_tps_ngram = ngram_steps ? (double)ngram_tokens / ngram_steps : 0;
    t->projected_tok_s = proj_s > 0 ? proj_tokens / proj_s : 0;
}

/* ---- JSON ------------------------------------------------------------------- */

static json_t *report__ints(const int32_t *v, int n) {
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *report__run(const bench_run *r) {
    return json_pack(
        "{s:f, s:f, s:f, s:i, s:i, s:f, s:I, s:I, s:o, s:s, s:s, s:b, s:b}",
        "ttft_s", r->ttft_s, "decode_s", r->decode_s, "tok_s", r->tok_s,
        "tokens", (int)r->tokens, "steps", (int)r->steps,
        "tokens_per_step", r->tokens_per_step,
        "drafted", (json_int_t)r->drafted, "accepted", (json_int_t)r->accepted,
        "accept_hist", report__ints(r->accept_hist, ENG_MAX_DRAFT + 1),
        "sha256", r->sha256, "stop", r->stop ? r->stop : "",
        "closed_fence", r->closed_fence, "matches_expected",
        r->matches_expected);
}

static json_t *report__sim(const edit_sim_result *s) {
    return json_pack("{s:i, s:i, s:f, s:I, s:I, s:f, s:o, s:o}",
                     "output_tokens", (int)s->output_tokens,
                     "steps", (int)s->steps,
                     "tokens_per_step", s->tokens_per_step,
                     "drafted", (json_int_t)s->drafted,
                     "accepted", (json_int_t)s->accepted,
                     "projected_speedup", s->projected_speedup,
                     "accept_hist", report__ints(s->accept_hist, ENG_MAX_DRAFT + 1),
                     "rows_hist", report__ints(s->rows_hist, KRN_MAX_ROWS + 1));
}

static json_t *report__task(const bench_task_result *r) {
    const bench_task *t = r->task;
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:i, s:i, s:i, s:b}",
        "name", t->name, "language", t->language, "kind", t->kind,
        "lines_in", (int)t->lines_in, "lines_out", (int)t->lines_out,
        "changed_lines", (int)t->changed_lines,
        "changed_share", t->changed_share, "prompt_tokens", (int)r->n_prompt,
        "reply_tokens", (int)r->reply_tokens, "cap", (int)r->cap,
        "skipped", r->skipped);
    if (!j) return NULL;
    if (r->skipped) {
        json_object_set_new(j, "skip_reason", json_string(r->skip_reason));
        return j;
    }
    json_object_set_new(j, "off", report__run(&r->off));
    json_object_set_new(j, "on", report__run(&r->on));
    json_object_set_new(j, "identical", json_boolean(r->identical));
    json_object_set_new(j, "speedup", json_real(r->speedup));
    json_object_set_new(j, "ceiling",
                        json_pack("{s:o, s:o}", "copy",
                                  report__sim(&r->ceiling_copy), "ngram",
                                  report__sim(&r->ceiling_ngram)));
    json_object_set_new(j, "projected_tok_s", json_real(r->projected_tok_s));
    return j;
}

static json_t *report__engine(const bench_engine *e) {
    json_t *depths = json_array();
    for (int i = 0; depths && i < e->n_depths; i++) {
        json_t *steps = json_array();
        for (int j = 0; steps && j < BENCH_N_BUCKETS; j++)
            json_array_append_new(
                steps, json_pack("{s:i, s:f, s:f}", "rows", bench_bucket_rows[j],
                                 "ms", e->step_ms[i][j], "relative_to_1_row",
                                 e->step_ms[i][0] > 0
                                     ? e->step_ms[i][j] / e->step_ms[i][0] : 0));
        json_array_append_new(depths, json_pack("{s:i, s:o}", "kv_depth",
                                                (int)e->depths[i], "steps", steps));
    }
    json_t *j = json_pack(
        "{s:s, s:o, s:i, s:i, s:I, s:f, s:s, s:f}",
        "device_name", e->device_name, "depths", depths,
        "cost_depth", (int)e->depths[e->cost_depth], "reps", e->reps,
        "streamed_bytes", (json_int_t)e->streamed_bytes,
        "bandwidth_gbs", e->bandwidth_gbs, "bandwidth_kind", e->bandwidth_kind,
        "floor_ms", e->floor_ms);
    if (j && e->bandwidth_note[0])
        json_object_set_new(j, "bandwidth_note", json_string(e->bandwidth_note));
    if (j && e->floor_ms > 0) /* at depth 0, as the floor counts no KV */
        json_object_set_new(j, "one_row_over_floor",
                            json_real(e->step_ms[0][0] / e->floor_ms));
    return j;
}

static json_t *report__totals(const bench_totals *t) {
    return json_pack(
        "{s:i, s:i, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
        "ran", t->ran, "skipped", t->skipped, "mismatches", t->mismatches,
        "decode_tokens_off", (json_int_t)t->tokens_off,
        "decode_tokens_on", (json_int_t)t->tokens_on,
        "decode_s_off", t->decode_s_off, "decode_s_on", t->decode_s_on,
        "tok_s_off", t->tok_s_off, "tok_s_on", t->tok_s_on,
        "ceiling_tokens_per_step_copy", t->ceiling_tps_copy,
        "ceiling_tokens_per_step_ngram", t->ceiling_tps_ngram,
        "projected_tok_s", t->projected_tok_s,
        "accept_hist", report__ints(t->accept_hist, ENG_MAX_DRAFT + 1));
}

json_t *bench_json(const bench_meta *meta, const bench_engine *e,
                   const bench_task_result *r, int n, const bench_totals *t) {
    json_t *tasks = json_array();
    for (int i = 0; tasks && i < n; i++)
        if (json_array_append_new(tasks, report__task(&r[i]))) {
            json_decref(tasks);
            return NULL;
        }
    return json_pack(
        "{s:s, s:s, s:s, s:{s:s, s:s?, s:b}, s:s, s:i, s:i, s:s, s:o, s:o, "
        "s:o}",
        "schema", "sb-bench-1", "date", meta->date, "device", meta->device,
        "model", "path", meta->model_path, "sha256", meta->model_sha256,
        "synthetic", meta->synthetic, "command", meta->command,
        "threads", meta->threads, "max_tokens", (int)meta->max_tokens,
        "generation_length", "the expected answer's tokens (file, closing "
        "fence, <|im_end|>), capped by max_tokens and the context; a run "
        "may end earlier at <|im_end|>",
        "engine", report__engine(e), "tasks", tasks, "totals",
        report__totals(t));
}

/* ---- the table ------------------------------------------------------------- */

void bench__hist_bins(const int32_t *h, int64_t bins[BENCH__N_BINS]) {
    memset(bins, 0, BENCH__N_BINS * sizeof *bins);
    for (int k = 0; k <= ENG_MAX_DRAFT; k++) {
        int b = 0; /* bin b > 0 holds 2^(b-1) .. 2^b - 1 */
        while (b < BENCH__N_BINS - 1 && k >= (1 << b)) b++;
        bins[b] += h[k];
    }
}

void bench__bytes(uint64_t bytes, char *out, size_t cap) {
    if (bytes >= 1000000000ull) snprintf(out, cap, "%.2f GB", bytes / 1e9);
    else snprintf(out, cap, "%.2f MB", bytes / 1e6);
}

const char *const bench__bin_names[BENCH__N_BINS] = {
    "0", "1", "2-3", "4-7", "8-15", "16-31", "32-63"};

static void report__engine_lines(FILE *out, const bench_engine *e) {
    char bytes[32];
    bench__bytes(e->streamed_bytes, bytes, sizeof bytes);
    if (e->floor_ms > 0)
        fprintf(out, "engine: 1-row step %.2f ms at KV depth %d; memory floor "
                "%.3f ms (%s of weights per step / %.1f GB/s, %s): %.1fx "
                "the floor\n", e->step_ms[0][0], (int)e->depths[0], e->floor_ms,
                bytes, e->bandwidth_gbs, e->bandwidth_kind,
                e->step_ms[0][0] / e->floor_ms);
    else
        fprintf(out, "engine: 1-row step %.2f ms at KV depth %d; memory floor "
                "unavailable: %s\n", e->step_ms[0][0], (int)e->depths[0],
                e->bandwidth_note);
    for (int i = 0; i < e->n_depths; i++) {
        fprintf(out, "step ms (x 1 row) at KV depth %d%s:", (int)e->depths[i],
                i == e->cost_depth ? " [prices the ceilings]" : "");
        for (int j = 0; j < BENCH_N_BUCKETS; j++)
            fprintf(out, "  %d: %.2f (%.2fx)", bench_bucket_rows[j],
                    e->step_ms[i][j], e->step_ms[i][j] / e->step_ms[i][0]);
        fputc('\n', out);
    }
}

static void report__task_line(FILE *out, const bench_task_result *r) {
    if (r->skipped) {
        fprintf(out, "%-26s skipped: %s\n", r->task->name, r->skip_reason);
        return;
    }
    fprintf(out, "%-26s %6d %5d %5d %8.1f %8.1f %8.1f %6.2fx %5d %6.2f "
            "%-8s %6.2f %6.2f %6.2fx %8.1f\n", r->task->name, (int)r->n_prompt,
            (int)r->cap, (int)r->on.tokens, r->on.ttft_s * 1e3, r->off.tok_s,
            r->on.tok_s, r->speedup, (int)r->on.steps, r->on.tokens_per_step,
            r->identical ? "yes" : "MISMATCH",
            r->ceiling_copy.tokens_per_step, r->ceiling_ngram.tokens_per_step,
            r->ceiling_copy.projected_speedup, r->projected_tok_s);
}

void bench_print_table(FILE *out, const bench_meta *meta,
                       const bench_engine *e, const bench_task_result *r,
                       int n, const bench_totals *t) {
    fprintf(out, "sb bench: %s (%s), %s, model %s%s\n", meta->device,
            e->device_name, meta->date, meta->model_path,
            meta->synthetic ? " (synthetic, random weights: outputs are "
                              "meaningless, only engine timings count)" : "");
    report__engine_lines(out, e);
    fprintf(out, "\n%-26s %6s %5s %5s %8s %8s %8s %7s %5s %6s %-8s %6s %6s "
            "%7s %8s\n", "task", "prompt", "cap", "out", "ttft_ms", "off_t/s",
            "on_t/s", "speedup", "steps", "tok/st", "same", "c_copy",
            "c_ngram", "c_speed", "c_tok/s");
    for (int i = 0; i < n; i++) report__task_line(out, &r[i]);
    fprintf(out, "%-26s %d ran, %d skipped: %.1f tok/s off, %.1f tok/s on "
            "(%.2fx); ceiling %.2f tokens/step copy, %.2f ngram, %.1f tok/s "
            "projected\n", "total", t->ran, t->skipped, t->tok_s_off,
            t->tok_s_on, t->tok_s_off > 0 ? t->tok_s_on / t->tok_s_off : 0,
            t->ceiling_tps_copy, t->ceiling_tps_ngram, t->projected_tok_s);
    int64_t bins[BENCH__N_BINS];
    bench__hist_bins(t->accept_hist, bins);
    fprintf(out, "accepted drafts per step (speculation on, all tasks):");
    for (int b = 0; b < BENCH__N_BINS; b++)
        fprintf(out, "  %s: %lld", bench__bin_names[b], (long long)bins[b]);
    fprintf(out, "\ncolumns: out = tokens generated (both runs); tok/s = "
            "decode tokens per second after the first token; tok/st = tokens "
            "per step, speculation on; same = identical ids off/on; c_* = the "
            "drafter's ceiling on the expected answer (sb draftsim): tokens "
            "per step with the copy drafter and the n-gram baseline, the "
            "projected speedup and tok/s priced by the step costs above\n");
    if (t->mismatches)
        fprintf(out, "MISMATCH: %d task(s) gave different tokens with "
                "speculation on and off\n", t->mismatches);
}
