/* sb bench: the code-edit benchmark — every task of bench/edits
 * with speculation off and on, the drafters' ceilings, the engine's step
 * costs and memory floor, reported as a table, JSON, plots and a section
 * of bench/RESULTS.md. The work is bench/'s library (bench/lib/bench.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../bench/lib/bench.h"
#include "cli.h"

static const char *cli__bench_help =
    "usage: sb bench [-m MODEL] [options]\n"
    "       sb bench --from-json FILE [--plots DIR] [--results FILE]\n"
    "  -m, --model FILE     a qwen2 GGUF (e.g. Qwen2.5-Coder-7B-Instruct\n"
    "                       Q4_K_M); default: a synthetic model with random\n"
    "                       weights, made once into $XDG_CACHE_HOME/sonicboom\n"
    "                       (7b shape Q4_K_M; tiny with --device cpu)\n"
    "      --vocab JSON     give that default model this tokenizer.json's\n"
    "                       vocabulary (the real Qwen one: make bench passes\n"
    "                       build/tokref/tokenizer.json); without it the\n"
    "                       model tokenizes byte by byte, ~3x the tokens\n"
    "      --device D       cuda (default when built with CUDA) or cpu\n"
    "      --tasks DIR      the tasks (default bench/edits)\n"
    "      --only A,B,...   run only these task folders\n"
    "      --max-tokens N   cap each run's output below the expected\n"
    "                       answer's length\n"
    "      --threads N      CPU threads (default: all cores)\n"
    "      --warmup FILE    take a warm-up table's launch configuration (no\n"
    "                       measuring) after checking its fingerprint\n"
    "      --reps N         steps per step-cost median, 1..256 (default 10)\n"
    "      --json FILE      every number (default bench/out/bench.json)\n"
    "      --plots DIR      PNG plots via gnuplot (default bench/out)\n"
    "      --results FILE   the Markdown file whose 'sb bench DEVICE' section\n"
    "                       is replaced (default bench/RESULTS.md)\n"
    "                       (--json, --plots, --results: 'none' skips it)\n"
    "      --from-json FILE no run: the table, the plots (default bench/out)\n"
    "                       and, with --results, the section again from the\n"
    "                       numbers of a run's --json (e.g. one made on a GPU\n"
    "                       machine without gnuplot)\n"
    "Per task: time to first token, decode tok/s with speculation off and on,\n"
    "steps, tokens per step, accepted drafts per step, the output SHA-256 of\n"
    "both runs (they must be identical: a mismatch fails the run, exit 1,\n"
    "after the table), and the copy and n-gram drafters' ceilings on the\n"
    "expected answer (sb draftsim) priced by step costs measured in the same\n"
    "run. Generation length: the expected answer's tokens. Progress goes to\n"
    "stderr. --perturb TASK shortens that task's speculative run by one\n"
    "token, to prove that a mismatch is caught (the harness's self-test).\n";

typedef struct cli_bench_opts {
    const char *model, *vocab, *tasks, *only, *json, *plots, *results;
    const char *from_json;   /* a saved run to draw instead of a run */
    const char *warmup;      /* --warmup: a warm-up table, or NULL */
    const char *perturb;     /* --perturb: a task to break on purpose, or NULL */
    const char *run_option;  /* the first option given that only a run takes */
    bool results_given;
    eng_device device;
    bool device_given;
    int threads, reps;
    int32_t max_tokens;
} cli_bench_opts;

/* "none" turns an output off. */
static const char *cli__bench_out(const char *v) {
    return strcmp(v, "none") ? v : NULL;
}

/* The numbers and the device: options only a run takes. */
static int cli__bench_run_opt(int c, const char *v, cli_bench_opts *o) {
    long n;
    switch (c) {
    case 'n':
        if (cli_parse_int(v, 1, 1 << 24, &n))
            return cli_usage("bench", "--max-tokens '%s': expected 1..16777216", v);
        o->max_tokens = (int32_t)n;
        return CLI_OK;
    case 't': return cli_opt_threads("bench", v, &o->threads);
    case 'r':
        if (cli_parse_int(v, 1, 256, &n))
            return cli_usage("bench", "--reps '%s': expected 1..256", v);
        o->reps = (int)n;
        return CLI_OK;
    case 'D':
        o->device_given = true;
        return cli_opt_device("bench", v, &o->device);
    }
    return cli_bad_option("bench");
}

/* What --from-json allows beside it, and the defaults that change. */
static int cli__bench_check(cli_bench_opts *o) {
    if (o->vocab && o->model)
        return cli_usage("bench", "--vocab is for the default model; -m names "
                         "a model with its own vocabulary");
    if (o->from_json && o->run_option)
        return cli_usage("bench", "--%s: --from-json draws a saved run; only "
                         "--plots and --results go with it", o->run_option);
    if (o->from_json && !o->results_given) o->results = NULL;
    if (!o->device_given)
        o->device = krn_cuda_built() ? ENG_DEVICE_CUDA : ENG_DEVICE_CPU;
    return CLI_OK;
}

/* Fills o from argv; CLI_OK, or an exit code (-1 for --help). */
static int cli__bench_parse(int argc, char **argv, cli_bench_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"device", 1, 0, 'D'}, {"tasks", 1, 0, 'T'},
        {"only", 1, 0, 'O'}, {"max-tokens", 1, 0, 'n'}, {"threads", 1, 0, 't'},
        {"reps", 1, 0, 'r'}, {"json", 1, 0, 'J'}, {"plots", 1, 0, 'P'},
        {"results", 1, 0, 'R'}, {"vocab", 1, 0, 'V'}, {"help", 0, 0, 'h'},
        {"from-json", 1, 0, 'F'}, {"warmup", 1, 0, 'W'}, {"perturb", 1, 0, 'X'},
        {0, 0, 0, 0}};
    *o = (cli_bench_opts){.tasks = "bench/edits", .json = "bench/out/bench.json",
                          .plots = "bench/out", .results = "bench/RESULTS.md",
                          .reps = 10};
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(cli__bench_help, stdout);
            return -1;
        }
        for (int i = 0; !o->run_option && longs[i].name; i++)
            if (longs[i].val == c && !strchr("PRF", c))
                o->run_option = longs[i].name;
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'T': o->tasks = optarg; break;
        case 'V': o->vocab = optarg; break;
        case 'O': o->only = optarg; break;
        case 'J': o->json = cli__bench_out(optarg); break;
        case 'P': o->plots = cli__bench_out(optarg); break;
        case 'R':
            o->results = cli__bench_out(optarg);
            o->results_given = true;
            break;
        case 'F': o->from_json = optarg; break;
        case 'W': o->warmup = optarg; break;
        case 'X': o->perturb = *optarg ? optarg : NULL; break;
        default:
            if ((rc = cli__bench_run_opt(c, optarg, o))) return rc;
        }
    }
    if (optind < argc) return cli_usage("bench", "unexpected argument '%s'", argv[optind]);
    return cli__bench_check(o);
}

/* ---- the default model ------------------------------------------------------- */

/* mkdir -p of path's folders (all of path when `whole`). */
static int cli__bench_mkdirs(const char *path, bool whole) {
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        bool end = *p == '\0';
        if (*p != '/' && !end) continue;
        if (end && !whole) break;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        if (end) break;
        *p = '/';
    }
    return 0;
}

/* Where the synthetic model lives: $XDG_CACHE_HOME/sonicboom, else
 * ~/.cache/sonicboom, else /tmp/sonicboom-cache. */
static void cli__bench_cache(char *dir, size_t cap) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) snprintf(dir, cap, "%s/sonicboom", xdg);
    else if (home && *home) snprintf(dir, cap, "%s/.cache/sonicboom", home);
    else snprintf(dir, cap, "/tmp/sonicboom-cache");
}

/* The cache file's name: shape, and the vocabulary's SHA-256 prefix when
 * one is given (a different tokenizer.json is a different model). */
static int cli__bench_model_name(const cli_bench_opts *o, const char *shape,
                                 char *name, size_t cap) {
    if (!o->vocab) {
        snprintf(name, cap, "synthetic-%s-q4_k_m-seed1.gguf", shape);
        return CLI_OK;
    }
    char *json = NULL, hex[65];
    int64_t len = 0;
    if (cli_read_file(o->vocab, CLI_DATA_MAX, &json, &len))
        return cli_read_fail("bench", "--vocab", o->vocab, CLI_DATA_MAX, false);
    sb_sha256_hex(json, (size_t)len, hex);
    free(json);
    snprintf(name, cap, "synthetic-%s-q4_k_m-seed1-vocab-%.12s.gguf", shape, hex);
    return CLI_OK;
}

/* The synthetic model for the device, made unless cached; its path into
 * buf. Prints the warning that its outputs mean nothing. */
static const char *cli__bench_default_model(const cli_bench_opts *o, char *buf,
                                            size_t cap) {
    bool cpu = o->device == ENG_DEVICE_CPU;
    const char *shape = cpu ? "tiny" : "7b";
    char dir[3000], name[256];
    cli__bench_cache(dir, sizeof dir);
    if (cli__bench_model_name(o, shape, name, sizeof name)) return NULL;
    snprintf(buf, cap, "%s/%s", dir, name);
    fprintf(stderr, "sb bench: no -m given: a synthetic %s-shaped Q4_K_M model "
            "with random weights (%s)%s, %s. Its outputs are meaningless; "
            "only the engine timings count.\n", shape, buf,
            cpu ? "; the tiny shape because a 7B on the CPU takes far too long"
                : "",
            o->vocab ? "with the real vocabulary of --vocab"
                     : "with a byte-level vocabulary (one token per byte, "
                       "about 3x a real model's; see --vocab)");
    if (access(buf, R_OK) == 0) return buf;
    if (cli__bench_mkdirs(dir, true)) {
        cli_fail("bench", "cannot make the model cache '%s': %m", dir);
        return NULL;
    }
    mk_opts mk = {.shape = cpu ? MK_SHAPE_TINY : MK_SHAPE_7B,
                           .recipe = MK_RECIPE_Q4_K_M, .seed = 1,
                           .vocab_json = o->vocab, .n_threads = o->threads,
                           .progress = true};
    sb_err err = {0};
    fprintf(stderr, "sb bench: making it (once; sb mkmodel --shape %s --quant "
            "q4_k_m --seed 1%s%s)\n", shape, o->vocab ? " --vocab " : "",
            o->vocab ? o->vocab : "");
    if (mk_model_write(&mk, buf, &err)) {
        cli_fail("bench", "%s", err.msg);
        return NULL;
    }
    return buf;
}

/* ---- the run ------------------------------------------------------------------ */

typedef struct cli_bench_run {
    const cli_bench_opts *o;
    bench_task *tasks;
    int n;
    bench_task_result *res;
    eng_model *model;
    eng_session *session;
    bench_engine engine;
    bench_meta meta;
    char date[64], command[2048];
    const char *perturb;     /* --perturb: a task to break on purpose */
    int at;                  /* the task running, for progress */
} cli_bench_run;

static void cli__bench_phase(void *ctx, const bench_task *t, const char *phase) {
    cli_bench_run *run = ctx;
    fprintf(stderr, "sb bench: [%d/%d] %s: %s\n", run->at + 1, run->n, t->name,
            phase);
}

/* --perturb's task: its speculative run stops one token early, so
 * its output must differ from the plain run's. */
static void cli__bench_perturb(void *ctx, const bench_task *t, bool spec,
                               const bench_run *off, edit_opts *o) {
    const char *name = ctx;
    if (!spec || strcmp(name, t->name)) return;
    if (off->tokens > 1) {
        o->max_tokens = off->tokens - 1;
    } else { /* one token: sample another instead */
        o->sampling.temperature = 1.0f;
        o->sampling.seed = 7;
    }
    fprintf(stderr, "sb bench: --perturb: %s's speculative run is "
            "perturbed on purpose\n", t->name);
}

/* Sizes every task; the context the session needs and the KV depth where
 * the tasks decode on average (it prices the ceilings). */
static int cli__bench_plan(cli_bench_run *run, int32_t *ctx, int32_t *depth) {
    int64_t need = 0, depth_sum = 0;
    int ran = 0;
    for (int i = 0; i < run->n; i++) {
        sb_err err = {0};
        if (bench_task_plan(run->model, &run->tasks[i], run->o->max_tokens,
                            &run->res[i], &err))
            return cli_fail("bench", "%s", err.msg);
        const bench_task_result *r = &run->res[i];
        if (r->skipped) {
            fprintf(stderr, "sb bench: %s is skipped: %s\n", r->task->name,
                    r->skip_reason);
            continue;
        }
        ran++;
        if ((int64_t)r->n_prompt + r->cap > need) need = (int64_t)r->n_prompt + r->cap;
        depth_sum += r->n_prompt + r->cap / 2;
    }
    if (!ran) return cli_fail("bench", "no task fits the model's context");
    int32_t model_ctx = eng_model_n_ctx(run->model);
    *depth = (int32_t)(depth_sum / ran / 64 * 64);
    if (need < *depth + KRN_MAX_ROWS) need = *depth + KRN_MAX_ROWS;
    *ctx = (int32_t)(need < model_ctx ? need : model_ctx);
    if (*depth + KRN_MAX_ROWS > *ctx) *depth = (*ctx - KRN_MAX_ROWS) / 64 * 64;
    return CLI_OK;
}

static int cli__bench_engine(cli_bench_run *run, int32_t ctx, int32_t depth) {
    sb_err err = {0};
    eng_options eo = {.device = run->o->device, .n_threads = run->o->threads,
                      .n_ctx = ctx, .tuning = cli_tuning};
    fprintf(stderr, "sb bench: starting the %s session (context %d)\n",
            run->meta.device, (int)ctx);
    if (!(run->session = cli_session_open("bench", run->model, &eo, run->o->warmup,
                                          NULL)))
        return CLI_FAIL;
    bench_engine_opts o = {.device = run->o->device, .threads = run->o->threads,
                           .depths = {0, depth}, .n_depths = depth > 0 ? 2 : 1,
                           .cost_depth = depth > 0 ? 1 : 0, .reps = run->o->reps};
    if (bench_engine_measure(run->session, &o, true, &run->engine, &err))
        return cli_fail("bench", "%s", err.msg);
    if (run->engine.bandwidth_note[0])
        fprintf(stderr, "sb bench: memory floor unavailable: %s\n",
                run->engine.bandwidth_note);
    return CLI_OK;
}

static int cli__bench_tasks(cli_bench_run *run) {
    for (run->at = 0; run->at < run->n; run->at++) {
        bench_task_result *r = &run->res[run->at];
        if (r->skipped) continue;
        sb_err err = {0};
        if (bench_task_run(run->session, &run->tasks[run->at], &run->engine,
                           cli__bench_phase, run,
                           run->perturb ? cli__bench_perturb : NULL,
                           (void *)run->perturb, r, &err))
            return cli_fail("bench", "%s", err.msg);
        if (!r->identical)
            fprintf(stderr, "sb bench: MISMATCH: %s gave sha256 %s with "
                    "speculation off and %s with it on\n", r->task->name,
                    r->off.sha256, r->on.sha256);
    }
    return CLI_OK;
}

/* ---- outputs -------------------------------------------------------------- */

/* What the reports draw: a run just made, or one read back from its JSON
 * (--from-json); both go through the same code below. */
typedef struct cli_bench_view {
    const bench_meta *meta;
    const bench_engine *engine;
    const bench_task_result *res;
    int n;
    bench_totals totals;
} cli_bench_view;

static int cli__bench_json(const char *path, const cli_bench_view *v) {
    json_t *j = bench_json(v->meta, v->engine, v->res, v->n, &v->totals);
    char *s = j ? json_dumps(j, JSON_INDENT(1)) : NULL;
    json_decref(j);
    int rc = CLI_OK;
    sb_err err = {0};
    if (!s) rc = cli_fail("bench", "out of memory for the JSON report");
    else if (cli__bench_mkdirs(path, false))
        rc = cli_fail("bench", "cannot write '%s': %m", path);
    else if (sb_write_file(path, s, strlen(s), &err))
        rc = cli_fail("bench", "%s", err.msg);
    else fprintf(stderr, "sb bench: wrote %s\n", path);
    free(s);
    return rc;
}

static int cli__bench_results(const char *path, const cli_bench_view *v,
                              const char *plots) {
    char *old = NULL, *text = NULL, *section = NULL;
    int64_t old_len = 0, len = 0;
    sb_err err = {0};
    int rc = CLI_FAIL;
    const char *device = v->meta->device;
    if (cli_read_file(path, CLI_DATA_MAX, &old, &old_len) && errno != ENOENT)
        cli_read_fail("bench", "the results file", path, CLI_DATA_MAX, false);
    else if (!(section = bench_results_section(v->meta, v->engine, v->res,
                                               v->n, &v->totals, plots)))
        cli_fail("bench", "out of memory for the results section");
    else if (bench_results_splice(old ? old : "", old_len, device, section,
                                  &text, &len, &err))
        cli_fail("bench", "%s: %s; not updated", path, err.msg);
    else if (sb_write_file(path, text, (size_t)len, &err))
        cli_fail("bench", "%s", err.msg);
    else {
        fprintf(stderr, "sb bench: updated the '%s' section of %s\n", device,
                path);
        rc = CLI_OK;
    }
    free(old);
    free(text);
    free(section);
    return rc;
}

/* The plots into dir; its path when they were made, else NULL (with *rc
 * set on a failure; no gnuplot is only a note). */
static const char *cli__bench_plots(const char *dir, const cli_bench_view *v,
                                    int *rc) {
    char why[256];
    sb_err err = {0};
    int p = cli__bench_mkdirs(dir, true) ? -1
          : bench_plots(dir, v->engine, v->res, v->n, &v->totals, why,
                        sizeof why, &err);
    if (p > 0) {
        fprintf(stderr, "sb bench: %s\n", why);
        return NULL;
    }
    if (p < 0) {
        *rc = cli_fail("bench", "%s", err.msg[0] ? err.msg
                       : "cannot make the plots folder");
        return NULL;
    }
    fprintf(stderr, "sb bench: plots in %s\n", dir);
    return dir;
}

/* Table, JSON (json_path; NULL: none), plots, results; the exit code (a
 * mismatch fails, and leaves the results alone). */
static int cli__bench_report(const cli_bench_opts *o, const cli_bench_view *v,
                             const char *json_path) {
    bench_print_table(stdout, v->meta, v->engine, v->res, v->n, &v->totals);
    fflush(stdout);
    int rc = json_path ? cli__bench_json(json_path, v) : CLI_OK;
    const char *plots = o->plots ? cli__bench_plots(o->plots, v, &rc) : NULL;
    if (v->totals.mismatches) {
        fprintf(stderr, "sb bench: FAILED: %d task(s) gave different tokens "
                "with speculation on and off; %s not updated\n",
                v->totals.mismatches, o->results ? o->results
                                                 : "the results file");
        return CLI_FAIL;
    }
    if (o->results && cli__bench_results(o->results, v, plots)) rc = CLI_FAIL;
    return rc;
}

/* A run's report. */
static int cli__bench_report_run(const cli_bench_run *run) {
    cli_bench_view v = {.meta = &run->meta, .engine = &run->engine,
                        .res = run->res, .n = run->n};
    bench_totals_sum(run->res, run->n, &v.totals);
    return cli__bench_report(run->o, &v, run->o->json);
}

/* --from-json: the report of a saved run, no model and no runs. */
static int cli__bench_from_json(const cli_bench_opts *o) {
    char *text = NULL;
    int64_t len = 0;
    if (cli_read_file(o->from_json, CLI_DATA_MAX, &text, &len))
        return cli_read_fail("bench", "--from-json", o->from_json,
                             CLI_DATA_MAX, false);
    bench_saved saved;
    sb_err err = {0};
    int rc = bench_saved_load(text, (size_t)len, &saved, &err);
    free(text);
    if (rc) return cli_fail("bench", "%s: %s", o->from_json, err.msg);
    cli_bench_view v = {.meta = &saved.meta, .engine = &saved.engine,
                        .res = saved.res, .n = saved.n,
                        .totals = saved.totals};
    rc = cli__bench_report(o, &v, NULL);
    bench_saved_free(&saved);
    return rc;
}

/* ---- the command ---------------------------------------------------------------- */

static void cli__bench_meta(cli_bench_run *run, int argc, char **argv,
                            const char *model_path, bool synthetic) {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(run->date, sizeof run->date, "%Y-%m-%d %H:%M UTC", &tm);
    size_t at = (size_t)snprintf(run->command, sizeof run->command, "sb");
    for (int i = 0; i < argc && at < sizeof run->command; i++)
        at += (size_t)snprintf(run->command + at, sizeof run->command - at,
                               strpbrk(argv[i], " \t'\"") ? " '%s'" : " %s",
                               argv[i]);
    run->meta = (bench_meta){
        .date = run->date,
        .device = run->o->device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
        .model_path = model_path, .synthetic = synthetic,
        .command = run->command,
        .threads = run->o->threads > 0 ? run->o->threads
                                       : (int)sysconf(_SC_NPROCESSORS_ONLN),
        .max_tokens = run->o->max_tokens};
}

static int cli__bench_main(cli_bench_run *run) {
    int32_t ctx = 0, depth = 0;
    fprintf(stderr, "sb bench: hashing the model\n");
    run->meta.model_sha256 = eng_model_sha256(run->model);
    int rc = cli__bench_plan(run, &ctx, &depth);
    if (!rc) rc = cli__bench_engine(run, ctx, depth);
    if (!rc) rc = cli__bench_tasks(run);
    if (!rc) rc = cli__bench_report_run(run);
    return rc;
}

int cli_bench(int argc, char **argv) {
    cli_bench_opts o;
    int rc = cli__bench_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    if (o.from_json) return cli__bench_from_json(&o);
    if (o.device == ENG_DEVICE_CPU && !krn_cuda_built() && !o.device_given)
        fprintf(stderr, "sb bench: this build has no CUDA: running on the CPU\n");
    cli_bench_run run = {.o = &o, .perturb = o.perturb};
    sb_err err = {0};
    if (bench_tasks_load(o.tasks, o.only, &run.tasks, &run.n, &err))
        return cli_fail("bench", "%s", err.msg);
    char model_buf[4096];
    const char *model = o.model ? o.model
                                : cli__bench_default_model(&o, model_buf,
                                                           sizeof model_buf);
    rc = CLI_FAIL;
    /* model is always named here (the synthetic default is ours, not
     * eng_default_model_path's): cli_model_open only loads and reports. */
    if (!model ||
        !(run.model = cli_model_open("bench", &model, model_buf,
                                     sizeof model_buf)))
        goto done;
    if (!(run.res = calloc((size_t)run.n, sizeof *run.res))) {
        cli_fail("bench", "out of memory");
        goto done;
    }
    cli__bench_meta(&run, argc, argv, model, !o.model);
    rc = cli__bench_main(&run);
done:
    free(run.res);
    eng_session_destroy(run.session);
    eng_model_free(run.model);
    bench_tasks_free(run.tasks, run.n);
    return rc;
}
