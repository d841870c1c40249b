/*
 * bench.h — the public face of bench/lib/, the benchmark library: what
 * `sb bench` (cli/cmd_bench.c) runs on the code-edit tasks of bench/edits/
 * and the engine measurements that the programs
 * bench/programs/engine_steps.c and membw.c print on their own.
 *
 *     sb_err err = {0};
 *     bench_task *tasks; int n;
 *     bench_tasks_load("bench/edits", NULL, &tasks, &n, &err);
 *     bench_engine e;                      // step costs and memory floor
 *     bench_engine_measure(session, &eopts, &e, &err);
 *     bench_task_result r;
 *     bench_task_plan(model, &tasks[0], max_tokens, &r, &err);
 *     bench_task_run(session, &tasks[0], &e, NULL, NULL, &r, &err);
 *     ... r.off, r.on, r.identical, r.ceiling_copy ...
 *     bench_tasks_free(tasks, n);
 *
 * A task's two runs use the same request and the same output cap, greedy:
 * the determinism contract (docs/determinism.md) says their tokens are
 * identical, and the harness checks it (bench_task_result.identical).
 * Every number the harness reports is measured in the same process, on the
 * same session: the drafter's ceiling is priced with the step costs measured
 * there, not with a stored table.
 *
 * A run's JSON (bench_json) can be read back (bench_saved_load) and drawn
 * again by the same table, section and plot code, where the run was not.
 *
 * The programs in bench/programs/ (engine_steps.c, membw.c,
 * tokenize_speed.c, kernel_lab.cu) link this library; they are not part of
 * it.
 */
#ifndef SB_BENCH_H
#define SB_BENCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../base/base.h"
#include "../../edit/edit.h"
#include "../../engine/engine.h"

/* ==== Tasks (tasks.c) ==================================================== */

/* One folder of bench/edits/ (format: bench/edits/README.md). Every string
 * is owned by the task and NUL-terminated; freed by bench_tasks_free. */
typedef struct bench_task {
    char *name;               /* the folder's name, e.g. "07-js-fix-bug" */
    char *input_path;         /* DIR/NAME/input.EXT (its extension picks the
                                 fence tag) */
    char *input;              /* the file the user pastes */
    int64_t input_len;
    char *expected;           /* the correct edit (new-code: a reference) */
    int64_t expected_len;
    char *instruction;        /* instruction.txt, its final newline removed */
    int64_t instruction_len;
    char *language;           /* meta.json "language", e.g. "C++" */
    char *kind;               /* meta.json "kind", e.g. "rename", "new" */
    int32_t lines_in, lines_out, changed_lines;
    double changed_share;     /* 0..1 */
} bench_task;

/* Loads every task folder under dir in name order, or only those named in
 * `only` (comma-separated folder names; NULL or "": all), in the order
 * given there. A folder that lacks a file, a meta.json that is not a JSON
 * object with the keys above, an empty instruction, or a name in `only`
 * that is not a folder of dir is an error naming it. Folders without a
 * meta.json (and files) are not tasks and are passed over. */
int bench_tasks_load(const char *dir, const char *only, bench_task **tasks,
                     int *n, sb_err *err);
void bench_tasks_free(bench_task *tasks, int n);

/* ==== Engine figures (engine_cost.c, devcopy*.{c,cu}) ===================== */

/* The row counts a step is timed at: the CUDA backend's row buckets that
 * the speculative loop reaches (a step of other sizes is padded up). */
enum { BENCH_N_BUCKETS = 9, BENCH_MAX_DEPTHS = 4 };
extern const int bench_bucket_rows[BENCH_N_BUCKETS]; /* 1 2 4 8 16 24 32 48 64 */

/* Fills s's KV cache with d positions (in 64-row steps), so the next step
 * runs at KV depth d. d + 64 must fit the session's capacity. */
int bench_kv_fill(eng_session *s, int32_t d, sb_err *err);

/* The median milliseconds of `reps` (1..256) steps of `rows` rows at KV
 * depth d (the cache is rolled back to d before each; two steps first, to
 * warm caches), every row's logits computed. The cache must hold d
 * positions (bench_kv_fill). */
int bench_step_ms(eng_session *s, int32_t d, int rows, int reps, double *ms,
                  sb_err *err);

/* The median milliseconds of `reps` (1..256) prefills of n prompt tokens
 * from an empty cache in chunks of `chunk` rows (eng_session_prefill, the
 * last row's logits computed: what a generation's prefill does), after one
 * untimed prefill. chunk may go up to the session's prefill chunk
 * (eng_options.prefill_chunk); n must fit its capacity. The ids are
 * arbitrary (the time does not depend on them). */
int bench_prefill_ms(eng_session *s, int32_t n, int chunk, int reps, double *ms,
                     sb_err *err);

/* Bytes a decode step reads from the weights: every tensor but the token
 * embedding, of which a step reads one row (unless it is also the tied LM
 * head, which a step reads whole). */
uint64_t bench_streamed_bytes(const krn_model *m);

/* Host memory-read bandwidth in GB/s (1e9 bytes/s): the best of `passes`
 * reads of a buffer of `bytes` by `threads` threads (0: one per online
 * CPU). -1 with err when the buffer cannot be had. */
int bench_host_read_gbs(int threads, size_t bytes, int passes, double *gbs,
                        sb_err *err);

/* Device memory bandwidth of the current CUDA device in GB/s: the best of
 * `passes` device-to-device copies of `bytes`, counting the bytes read and
 * the bytes written (2 * bytes per copy), as CUDA's bandwidthTest does.
 * -1 with err when this build has no CUDA or the device refuses. */
int bench_device_copy_gbs(size_t bytes, int passes, double *gbs, sb_err *err);

typedef struct bench_engine_opts {
    eng_device device;
    int threads;              /* for the host bandwidth; 0: all cores */
    int32_t depths[BENCH_MAX_DEPTHS]; /* KV depths to time steps at */
    int n_depths;             /* 1..BENCH_MAX_DEPTHS */
    int cost_depth;           /* which of depths prices the projections */
    int reps;                 /* steps per median, 1..256 */
} bench_engine_opts;

typedef struct bench_engine {
    int32_t depths[BENCH_MAX_DEPTHS];
    int n_depths, cost_depth, reps;
    double step_ms[BENCH_MAX_DEPTHS][BENCH_N_BUCKETS]; /* median ms */
    uint64_t streamed_bytes;  /* bench_streamed_bytes */
    double bandwidth_gbs;     /* 0: unavailable (bandwidth_note says why) */
    char bandwidth_kind[64];  /* "host read, 2 threads", "device-to-device
                                 copy" */
    char bandwidth_note[512]; /* why the floor is unavailable; "" if not */
    double floor_ms;          /* streamed_bytes / bandwidth; 0: unavailable */
    char device_name[128];    /* eng_session_device_name: GPU or CPU model */
    stepcost_table costs;     /* step_ms at depths[cost_depth], as a table
                                 (bench_engine_price) */
} bench_engine;

/* Fills e->costs from e->step_ms at depths[cost_depth]: what prices the
 * drafters' ceilings and sizes the copy drafter's drafts in this run. -1
 * with err for a time that is not a positive number. */
int bench_engine_price(bench_engine *e, sb_err *err);

/* Measures bandwidth, floor and step costs on s (its KV cache is left
 * reset). Progress: one line per depth on stderr when `progress`. */
int bench_engine_measure(eng_session *s, const bench_engine_opts *o,
                         bool progress, bench_engine *e, sb_err *err);

/* ==== One kernel's traffic (kernel_traffic.c) ============================= */

/* The least memory traffic of one launch of a backend operator, from the
 * shapes alone: what bench/programs/kernel_lab.cu holds each kernel's time
 * against. Every input is read once and every output written once, as a
 * kernel that keeps what it shares in cache would; scratch a kernel keeps
 * for itself (split partials, attention chunk states) is not counted. */
typedef struct bench_traffic {
    uint64_t weights;  /* weight bytes read: the file's bytes of the rows */
    uint64_t read;     /* everything else read: activations, norms, biases,
                          RoPE tables, positions, the KV cache */
    uint64_t written;  /* activations, quantized rows, the KV cache */
    double ops;        /* matmuls: 2 x inputs x outputs x rows (a multiply
                          and an add each); 0 for the others */
} bench_traffic;

/* weights + read + written. */
uint64_t bench_traffic_bytes(const bench_traffic *t);

/* What a launcher that quantizes `rows` rows of n floats for the matmuls
 * writes (kernels.h §2, cuda_backend.h's krn_cuda_acts): per way, the int8
 * codes, a float scale a group and an int16 sum a 32-element block; in
 * groups of 32 always, and of 256 too when n is whole super-blocks. */
uint64_t bench_act_quant_bytes(int64_t n, int rows);

/* n (1..3) matrices reading one input of `rows` rows, as one matmul call
 * (q/k/v, gate/up): the weights, the input once for each way it is read (as
 * floats for float weights, else quantized in each group size the types
 * read, the block sums only where a type has a min term), each bias, and
 * the outputs (read too when accumulating). -1 with err for a matrix
 * whose row is not whole blocks, inputs that differ, or rows outside
 * 1..KRN_MAX_ROWS. */
int bench_matmul_traffic(const krn_tensor *const *w, int n, int rows, bool bias,
                         bool accumulate, bench_traffic *t, sb_err *err);

/* rmsnorm of rows of n floats by an n-float weight, its output and its
 * quantization (krn_cuda_rmsnorm_quant). */
bench_traffic bench_rmsnorm_traffic(int64_t n, int rows);
/* The quantization of rows of n floats (krn_cuda_quantize). */
bench_traffic bench_quantize_traffic(int64_t n, int rows);
/* g = silu(g) * u over rows of n floats, and its quantization
 * (krn_cuda_swiglu_quant). */
bench_traffic bench_swiglu_traffic(int64_t n, int rows);
/* RoPE on the rows' q and k in place, and their K and V written to the
 * fp16 cache (krn_cuda_rope_kv_write). */
bench_traffic bench_rope_traffic(const krn_model *m, int rows);
/* One layer's attention for rows at positions depth .. depth + rows - 1:
 * q, every key and value the rows reach (fp16; with a sliding window only
 * the window's), the positions, the output (krn_cuda_attention). */
bench_traffic bench_attention_traffic(const krn_model *m, int32_t depth, int rows);

/* ==== One task, speculation off and on (run_task.c) ====================== */

/* One edit_run, as the harness reports it. */
typedef struct bench_run {
    double ttft_s;            /* edit_run's start to its first output token
                                 (tokenizing and the prefill included) */
    double decode_s;          /* eng_gen_result.decode_s */
    double tok_s;             /* tokens / decode_s */
    int32_t tokens, steps;
    double tokens_per_step;
    int64_t drafted, accepted;
    int32_t accept_hist[ENG_MAX_DRAFT + 1];
    char sha256[65];          /* of the output ids */
    const char *stop;         /* "end-of-turn", "length", ... (edit_stop_name;
                                 static, or borrowed from a bench_saved) */
    bool closed_fence;        /* the answer closed its fence (EDIT_DONE) */
    bool matches_expected;    /* ... and the file is the expected one */
} bench_run;

typedef struct bench_task_result {
    const bench_task *task;   /* borrowed */
    bool skipped;             /* did not fit the model's context */
    char skip_reason[256];
    int32_t n_prompt;         /* the edit prompt's tokens */
    int32_t reply_tokens;     /* the expected answer's tokens (edit_reply_ids:
                                 file, closing fence, <|im_end|>) */
    int32_t cap;              /* output cap of both runs: reply_tokens, or
                                 less by --max-tokens or the context */
    bench_run off, on;
    bool identical;           /* same output ids with speculation off and on */
    double speedup;           /* on.tok_s / off.tok_s */
    edit_sim_result ceiling_copy, ceiling_ngram; /* the drafters' ceilings */
    double projected_tok_s;   /* the copy ceiling priced by the measured step
                                 costs: decode tokens per second */
} bench_task_result;

/* Sizes the task for model m: the prompt, the expected reply and the
 * output cap (max_tokens 0: no limit but the reply's length). Marks the
 * result skipped when the prompt leaves no room for output in the model's
 * context. */
int bench_task_plan(const eng_model *m, const bench_task *t,
                    int32_t max_tokens, bench_task_result *r, sb_err *err);

/* Test seam: a callback that may change the options of one run before it
 * starts (`speculation` says which). The harness's self-test uses it to
 * perturb a run on purpose and prove that a mismatch is caught. */
typedef void (*bench_perturb_fn)(void *ctx, const bench_task *t,
                                 bool speculation, const bench_run *off,
                                 edit_opts *o);

/* Phases reported while a task runs: "ceiling", "speculation off",
 * "speculation on". May be NULL. */
typedef void (*bench_phase_fn)(void *ctx, const bench_task *t,
                               const char *phase);

/* Runs a planned, not skipped task: both drafters' ceilings
 * (edit_simulate, priced with e->costs), then edit_run with speculation
 * off, then on, and compares them. A model answer that never closes its
 * fence (random weights) is not an error: its timings count. -1 with err
 * on an engine failure. */
int bench_task_run(eng_session *s, const bench_task *t, const bench_engine *e,
                   bench_phase_fn phase, void *phase_ctx,
                   bench_perturb_fn perturb, void *perturb_ctx,
                   bench_task_result *r, sb_err *err);

/* ==== Reports (report.c, results_md.c, plots.c) =========================== */

/* What the run was, for every report. Strings are borrowed. */
typedef struct bench_meta {
    const char *date;         /* "2026-12-02 17:30 UTC" */
    const char *device;       /* "cpu" or "cuda" */
    const char *model_path;
    const char *model_sha256; /* may be NULL */
    bool synthetic;           /* random weights: outputs are meaningless */
    const char *command;      /* the command line, as typed */
    int threads;
    int32_t max_tokens;       /* --max-tokens; 0: none */
} bench_meta;

/* Sums over the tasks that ran. */
typedef struct bench_totals {
    int ran, skipped, mismatches;
    int64_t tokens_off, tokens_on;
    double decode_s_off, decode_s_on;
    double tok_s_off, tok_s_on;          /* sum tokens / sum decode_s */
    int32_t accept_hist[ENG_MAX_DRAFT + 1]; /* speculation on, all tasks */
    double ceiling_tps_copy, ceiling_tps_ngram; /* mean tokens per step */
    double projected_tok_s;              /* sum tokens / sum projected time */
} bench_totals;

void bench_totals_sum(const bench_task_result *r, int n, bench_totals *t);

/* Everything as one JSON object (caller decrefs); NULL when out of memory. */
json_t *bench_json(const bench_meta *meta, const bench_engine *e,
                   const bench_task_result *r, int n, const bench_totals *t);

/* The table on `out`: engine figures, one row per task, totals. */
void bench_print_table(FILE *out, const bench_meta *meta,
                       const bench_engine *e, const bench_task_result *r,
                       int n, const bench_totals *t);

/* The RESULTS.md section this harness owns for meta->device, markers
 * included (malloc'd, NUL-terminated; caller frees); NULL when out of
 * memory. plots_dir: where the PNGs went (NULL: none were made). */
char *bench_results_section(const bench_meta *meta, const bench_engine *e,
                            const bench_task_result *r, int n,
                            const bench_totals *t, const char *plots_dir);

/* The begin and end markers of the section for `device`, e.g.
 * "<!-- sb bench cuda: begin -->"; static strings. */
const char *bench_marker_begin(const char *device);
const char *bench_marker_end(const char *device);

/* Replaces the section of `device` in old[0..old_len) (a whole
 * RESULTS.md; may be empty) by `section`, or appends it after a blank line
 * when old has none; everything outside the markers is kept byte for byte.
 * *out is malloc'd (caller frees). -1 with err when the markers are
 * unbalanced: a begin without an end, an end first, or either twice. */
int bench_results_splice(const char *old, int64_t old_len,
                         const char *device, const char *section,
                         char **out, int64_t *out_len, sb_err *err);

/* The three plots as PNG in dir (step_cost.png, tok_s.png,
 * accept_hist.png), each written as NAME.tmp and renamed when gnuplot
 * succeeded. 1 (nothing written, *why filled) when gnuplot is not
 * installed; -1 with err when it fails. */
int bench_plots(const char *dir, const bench_engine *e,
                const bench_task_result *r, int n, const bench_totals *t,
                char *why, size_t why_cap, sb_err *err);

/* ==== A saved run (saved.c) ============================================== */

/* A run read back from the JSON bench_json made: what the reports above
 * take, so a run made on one machine can be drawn on another. */
typedef struct bench_saved {
    bench_meta meta;          /* strings borrowed from root */
    bench_engine engine;      /* costs rebuilt from the pricing depth */
    bench_task *tasks;        /* name, language, kind, lines, changed share;
                                 no files (NULL) */
    bench_task_result *res;   /* res[i].task is &tasks[i]; runs' stop is
                                 borrowed from root */
    int n;
    bench_totals totals;      /* bench_totals_sum of res */
    json_t *root;             /* the parsed document, owned */
} bench_saved;

/* Parses text[0..len) and fills s. -1 with err naming the first field
 * that is missing, of the wrong type or out of range (by its path, e.g.
 * "tasks[2].on.accept_hist"), or where the JSON does not parse; s is then
 * empty. Free a loaded s with bench_saved_free (safe on an empty one). */
int bench_saved_load(const char *text, size_t len, bench_saved *s,
                     sb_err *err);
void bench_saved_free(bench_saved *s);

#endif /* SB_BENCH_H */
