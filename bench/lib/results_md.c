/*
 * results_md.c — the section of bench/RESULTS.md that `sb bench` owns
 * (bench.h): one per device, between marker comments, rewritten whole by
 * each run; the rest of the file is the project's prose and is never
 * touched.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

const char *bench_marker_begin(const char *device) {
    return strcmp(device, "cuda")
               ? "<!-- sb bench cpu: begin (written by sb bench; edits "
                 "between these markers are replaced) -->"
               : "<!-- sb bench cuda: begin (written by sb bench; edits "
                 "between these markers are replaced) -->";
}

const char *bench_marker_end(const char *device) {
    return strcmp(device, "cuda") ? "<!-- sb bench cpu: end -->"
                                  : "<!-- sb bench cuda: end -->";
}

/* ---- a growing string ----------------------------------------------------- */

typedef struct results_md__buf {
    char *p;
    size_t len, cap;
    bool oom;
} results_md__buf;

static void results_md__printf(results_md__buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void results_md__printf(results_md__buf *b, const char *fmt, ...) {
    for (int tries = 0; !b->oom && tries < 2; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL,
                          b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap : 4096);
        while (cap <= b->len + (size_t)n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

/* ---- the section ------------------------------------------------------------ */

static void results_md__head(results_md__buf *b, const bench_meta *m,
                             const bench_engine *e) {
    results_md__printf(b, "%s\n## Edit benchmark, %s (`sb bench`)\n\n",
                       bench_marker_begin(m->device), m->device);
    results_md__printf(b, "- Date: %s. Machine: %s (%s", m->date,
                       e->device_name, m->device);
    if (!strcmp(m->device, "cpu"))
        results_md__printf(b, ", %d threads", m->threads);
    results_md__printf(b, ").\n- Command: `%s`\n- Model: `%s`", m->command,
                       m->model_path);
    if (m->model_sha256)
        results_md__printf(b, " (SHA-256 %.16s…)", m->model_sha256);
    results_md__printf(b, "%s\n",
                       m->synthetic
                           ? ": synthetic, random weights. Its outputs "
                             "are meaningless (no answer closes its "
                             "fence, every run goes to the cap); only "
                             "the engine timings count."
                           : ".");
    results_md__printf(
        b,
        "- Generation length: the expected answer's tokens (the "
        "file, its closing fence, `<|im_end|>`)%s; greedy. A run may "
        "end earlier at `<|im_end|>`.\n",
        m->max_tokens ? ", capped by --max-tokens" : "");
}

static void results_md__engine(results_md__buf *b, const bench_engine *e) {
    char bytes[32];
    bench__bytes(e->streamed_bytes, bytes, sizeof bytes);
    if (e->floor_ms > 0)
        results_md__printf(
            b,
            "- Engine: 1-row step %.2f ms at KV depth %d against a "
            "memory floor of %.3f ms (%s of weights read per "
            "step / %.1f GB/s, %s): %.1fx the floor.\n",
            e->step_ms[0][0], (int)e->depths[0], e->floor_ms, bytes,
            e->bandwidth_gbs, e->bandwidth_kind,
            e->step_ms[0][0] / e->floor_ms);
    else
        results_md__printf(
            b,
            "- Engine: 1-row step %.2f ms at KV depth %d; memory "
            "floor unavailable (%s).\n",
            e->step_ms[0][0], (int)e->depths[0], e->bandwidth_note);
    results_md__printf(b, "\n| rows per step |");
    for (int j = 0; j < BENCH_N_BUCKETS; j++)
        results_md__printf(b, " %d |", bench_bucket_rows[j]);
    results_md__printf(b, "\n|---|");
    for (int j = 0; j < BENCH_N_BUCKETS; j++) results_md__printf(b, "---|");
    for (int i = 0; i < e->n_depths; i++) {
        results_md__printf(b, "\n| ms, KV depth %d%s |", (int)e->depths[i],
                           i == e->cost_depth ? " (prices the ceilings)" : "");
        for (int j = 0; j < BENCH_N_BUCKETS; j++)
            results_md__printf(b, " %.2f |", e->step_ms[i][j]);
        results_md__printf(b, "\n| x 1 row, KV depth %d |", (int)e->depths[i]);
        for (int j = 0; j < BENCH_N_BUCKETS; j++)
            results_md__printf(b, " %.2f |",
                               e->step_ms[i][j] / e->step_ms[i][0]);
    }
    results_md__printf(b,
                       "\n\nMedian of %d steps each, every row's logits "
                       "computed.\n",
                       e->reps);
}

static void results_md__tasks(results_md__buf *b, const bench_task_result *r,
                              int n) {
    results_md__printf(
        b, "\n| task | prompt | out | TTFT ms | tok/s off | tok/s on "
           "| speedup | tokens/step | identical | ceiling copy | ceiling "
           "ngram | projected | projected tok/s |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        if (r[i].skipped) {
            results_md__printf(b, "| %s | skipped: %s |||||||||||\n",
                               r[i].task->name, r[i].skip_reason);
            continue;
        }
        results_md__printf(
            b,
            "| %s | %d | %d | %.0f | %.1f | %.1f | %.2fx | %.2f "
            "| %s | %.2f | %.2f | %.2fx | %.0f |\n",
            r[i].task->name, (int)r[i].n_prompt, (int)r[i].on.tokens,
            r[i].on.ttft_s * 1e3, r[i].off.tok_s, r[i].on.tok_s, r[i].speedup,
            r[i].on.tokens_per_step, r[i].identical ? "yes" : "**NO**",
            r[i].ceiling_copy.tokens_per_step,
            r[i].ceiling_ngram.tokens_per_step,
            r[i].ceiling_copy.projected_speedup, r[i].projected_tok_s);
    }
}

static void results_md__totals(results_md__buf *b, const bench_totals *t,
                               const char *plots) {
    results_md__printf(b,
                       "\n- All %d tasks that ran: %.1f tok/s with speculation "
                       "off, %.1f on (%.2fx); %s.\n",
                       t->ran, t->tok_s_off, t->tok_s_on,
                       t->tok_s_off > 0 ? t->tok_s_on / t->tok_s_off : 0,
                       t->mismatches
                           ? "**outputs differed with speculation on and "
                             "off**"
                           : "every output identical off and on");
    if (t->skipped)
        results_md__printf(b,
                           "- %d task(s) skipped: the prompt did not fit the "
                           "model's context.\n",
                           t->skipped);
    results_md__printf(
        b,
        "- Drafter ceiling on the expected answers (`sb draftsim`): "
        "%.2f tokens/step with the copy drafter, %.2f with the n-gram "
        "baseline; priced by the step costs above, %.1f tok/s.\n",
        t->ceiling_tps_copy, t->ceiling_tps_ngram, t->projected_tok_s);
    int64_t bins[BENCH__N_BINS];
    bench__hist_bins(t->accept_hist, bins);
    results_md__printf(b, "- Accepted drafts per step, speculation on:");
    for (int i = 0; i < BENCH__N_BINS; i++)
        results_md__printf(b, "%s %s: %lld", i ? "," : "", bench__bin_names[i],
                           (long long)bins[i]);
    results_md__printf(b, ".\n");
    if (plots)
        results_md__printf(b,
                           "- Plots: `%s/step_cost.png`, `%s/tok_s.png`, "
                           "`%s/accept_hist.png`.\n",
                           plots, plots, plots);
}

char *bench_results_section(const bench_meta *meta, const bench_engine *e,
                            const bench_task_result *r, int n,
                            const bench_totals *t, const char *plots_dir) {
    results_md__buf b = {0};
    results_md__head(&b, meta, e);
    results_md__engine(&b, e);
    results_md__tasks(&b, r, n);
    results_md__totals(&b, t, plots_dir);
    results_md__printf(&b, "\n%s\n", bench_marker_end(meta->device));
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- replacing the section ---------------------------------------------------- */

/* Offset of the first line of text[0..len) that starts with `marker`'s
 * first `cmp` bytes, from `from`; -1 when none. */
static int64_t results_md__find_line(const char *text, int64_t len,
                                     int64_t from, const char *marker,
                                     size_t cmp) {
    for (int64_t at = from; at < len;) {
        if ((size_t)(len - at) >= cmp && !memcmp(text + at, marker, cmp))
            return at;
        const char *nl = memchr(text + at, '\n', (size_t)(len - at));
        if (!nl) break;
        at = nl - text + 1;
    }
    return -1;
}

/* The 1-based line number of offset at. */
static int results_md__line_of(const char *text, int64_t at) {
    int line = 1;
    for (int64_t i = 0; i < at; i++) line += text[i] == '\n';
    return line;
}

int bench_results_splice(const char *old, int64_t old_len,
                         const char *device, const char *section,
                         char **out, int64_t *out_len, sb_err *err) {
    const char *begin = bench_marker_begin(device), *end = bench_marker_end(device);
    /* Match the begin marker by its stable part, "<!-- sb bench D: begin". */
    size_t begin_cmp = strstr(begin, ": begin") - begin + strlen(": begin");
    int64_t b0 = results_md__find_line(old, old_len, 0, begin, begin_cmp);
    int64_t e0 = results_md__find_line(old, old_len, 0, end, strlen(end));
    if (b0 >= 0 &&
        results_md__find_line(old, old_len, b0 + 1, begin, begin_cmp) >= 0)
        return sb_err_set(err, "results", "the '%.*s' marker appears twice",
                          (int)begin_cmp, begin);
    if (e0 >= 0 &&
        results_md__find_line(old, old_len, e0 + 1, end, strlen(end)) >= 0)
        return sb_err_set(err, "results", "the '%s' marker appears twice", end);
    if (b0 >= 0 && e0 < 0)
        return sb_err_set(err, "results",
                          "line %d: the sb bench %s begin "
                          "marker has no end marker ('%s') after it",
                          results_md__line_of(old, b0), device, end);
    if (e0 >= 0 && (b0 < 0 || e0 < b0))
        return sb_err_set(err, "results",
                          "line %d: an sb bench %s end "
                          "marker with no begin marker before it",
                          results_md__line_of(old, e0), device);
    int64_t head = b0 >= 0 ? b0 : old_len, tail = head;
    if (e0 >= 0) {
        const char *nl = memchr(old + e0, '\n', (size_t)(old_len - e0));
        tail = nl ? nl - old + 1 : old_len;
    }
    /* Appended: after a blank line, the file's last line ended first. */
    const char *sep = b0 >= 0 || old_len == 0 ? ""
                      : old[old_len - 1] == '\n' ? "\n" : "\n\n";
    size_t sl = strlen(section), pl = strlen(sep);
    int64_t n = head + (int64_t)pl + (int64_t)sl + (old_len - tail);
    char *p = malloc((size_t)n + 1);
    if (!p) return sb_err_set(err, "results", "out of memory");
    memcpy(p, old, (size_t)head);
    memcpy(p + head, sep, pl);
    memcpy(p + head + pl, section, sl);
    memcpy(p + head + pl + sl, old + tail, (size_t)(old_len - tail));
    p[n] = '\0';
    *out = p;
    *out_len = n;
    return 0;
}
