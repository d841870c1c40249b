/* sb draftsim: how well a drafter would do on an edit whose answer is
 * known, and what that is worth in time, without running the model; on
 * one edit (--input, --expected) or on a folder of tasks (--tasks). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/lib/bench.h"
#include "../edit/edit.h"
#include "cli.h"

static const char *cli__sim_help =
    "usage: sb draftsim [-m MODEL] --input FILE --expected FILE [options]\n"
    "       sb draftsim [-m MODEL] --tasks DIR [--only A,B,...] [options]\n"
    "  -m, --model FILE       GGUF model, read for its tokenizer only\n"
    "                         (default: $SB_MODEL, else the demo model)\n"
    "      --input FILE       the file before the edit\n"
    "      --expected FILE    the file the model is taken to write\n"
    "      --instruction TEXT the edit's instruction (default: \"Edit the\n"
    "                         file.\"); it is part of the prompt the drafter\n"
    "                         may copy from\n"
    "      --language L       fence tag or LSP languageId (default: from\n"
    "                         --input's extension)\n"
    "      --tasks DIR        every task folder of DIR instead (the format of\n"
    "                         bench/edits: input.EXT, expected.EXT,\n"
    "                         instruction.txt, meta.json): one line per task\n"
    "                         and a total line\n"
    "      --only A,B,...     with --tasks: only these task folders\n"
    "      --drafter D        copy (the default, as sb edit drafts),\n"
    "                         copy-plain (lookups only: the yardstick copy is\n"
    "                         measured against), ngram (prompt lookup) or none\n"
    "      --max-draft N      draft tokens per step, 1..63 (default 63)\n"
    "      --cost-table FILE  step cost by rows: lines 'ROWS COST', ROWS\n"
    "                         1..64 (3 rows unlisted: between 2 and 4 up to\n"
    "                         16 rows; 17..23 unlisted: the next listed);\n"
    "                         default: below\n"
    "      --json             JSON on stdout: one object (--tasks: one per\n"
    "                         task, then the total)\n"
    "CPU only, no forward pass. The answer is the expected file, its closing\n"
    "fence and <|im_end|>, tokenized as one text (the canonical encoding a\n"
    "model emits); the drafter is driven step by step as the speculative\n"
    "loop drives it. Reports output tokens, steps, tokens per step, drafted\n"
    "and accepted tokens, the histogram of accepted draft lengths per step,\n"
    "the projected speedup over plain decoding (cost of output_tokens-1\n"
    "one-row steps over the cost of the steps taken) and the perfect\n"
    "drafter's cap under the same table (every guess right, the cheapest\n"
    "steps). A total is total plain cost over total speculative cost.\n";

typedef struct cli_sim_opts {
    const char *model, *input, *expected, *instruction, *language, *costs;
    const char *tasks, *only;
    const char *drafter_name;
    edit_sim_opts sim;
    bool json;
} cli_sim_opts;

static int cli__sim_opt(int c, cli_sim_opts *o) {
    sb_err err = {0};
    long v;
    switch (c) {
    case 'm': o->model = optarg; break;
    case 'I': o->input = optarg; break;
    case 'E': o->expected = optarg; break;
    case 'i': o->instruction = optarg; break;
    case 'L': o->language = optarg; break;
    case 'C': o->costs = optarg; break;
    case 'T': o->tasks = optarg; break;
    case 'O': o->only = optarg; break;
    case 'j': o->json = true; break;
    case 'R':
        if (edit_drafter_parse(optarg, &o->sim.drafter, &err))
            return cli_usage("draftsim", "--drafter '%s': expected copy, "
                             "copy-plain, ngram or none", optarg);
        o->drafter_name = optarg;
        break;
    case 'X':
        if (cli_parse_int(optarg, 1, ENG_MAX_DRAFT, &v))
            return cli_usage("draftsim", "--max-draft '%s': expected 1..%d",
                             optarg, ENG_MAX_DRAFT);
        o->sim.max_draft = (int32_t)v;
        break;
    default: return cli_bad_option("draftsim");
    }
    return CLI_OK;
}

static void cli__sim_print_help(void) {
    stepcost_table t;
    char listed[512];
    stepcost_table_default(&t);
    fputs(cli__sim_help, stdout);
    printf("Default step costs (%s), ms by rows:\n  %s\n", t.source,
           stepcost_table_format(&t, listed, sizeof listed));
}

static int cli__sim_parse(int argc, char **argv, cli_sim_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"input", 1, 0, 'I'}, {"expected", 1, 0, 'E'},
        {"instruction", 1, 0, 'i'}, {"language", 1, 0, 'L'},
        {"drafter", 1, 0, 'R'}, {"max-draft", 1, 0, 'X'},
        {"cost-table", 1, 0, 'C'}, {"tasks", 1, 0, 'T'}, {"only", 1, 0, 'O'},
        {"json", 0, 0, 'j'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    o->instruction = NULL;
    o->drafter_name = "copy";
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        if (c == 'h') {
            cli__sim_print_help();
            return -1;
        }
        if ((rc = cli__sim_opt(c, o))) return rc;
    }
    if (optind < argc) return cli_usage("draftsim", "unexpected argument '%s'", argv[optind]);
    if (o->tasks && (o->input || o->expected || o->instruction || o->language))
        return cli_usage("draftsim", "--tasks takes each task's files, "
                         "instruction and language from its folder: leave out "
                         "--input, --expected, --instruction and --language");
    if (o->only && !o->tasks)
        return cli_usage("draftsim", "--only needs --tasks DIR");
    if (!o->tasks && (!o->input || !o->expected))
        return cli_usage("draftsim", "give --input FILE and --expected FILE, "
                         "or --tasks DIR");
    if (!o->instruction) o->instruction = "Edit the file.";
    if (!*o->instruction) return cli_usage("draftsim", "--instruction is empty");
    return CLI_OK;
}

static void cli__sim_text(const cli_sim_opts *o, const char *name,
                          const edit_sim_result *r) {
    if (name) printf("task=%s ", name);
    printf("drafter=%s max_draft=%d output_tokens=%d steps=%d "
           "tokens_per_step=%.3f drafted=%lld accepted=%lld "
           "projected_speedup=%.3f perfect_speedup=%.3f\n", o->drafter_name,
           o->sim.max_draft ? (int)o->sim.max_draft : ENG_MAX_DRAFT,
           (int)r->output_tokens, (int)r->steps, r->tokens_per_step,
           (long long)r->drafted, (long long)r->accepted, r->projected_speedup,
           r->perfect_speedup);
    if (name) return;
    fputs("accept_hist:", stdout);
    for (int k = 0; k <= ENG_MAX_DRAFT; k++)
        if (r->accept_hist[k]) printf(" %d:%d", k, (int)r->accept_hist[k]);
    putchar('\n');
}

static json_t *cli__sim_hist(const int32_t *h, int n) {
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_integer(h[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static int cli__sim_json(const cli_sim_opts *o, const stepcost_table *costs,
                         const char *name, const edit_sim_result *r) {
    json_t *j = json_pack(
        "{s:s?, s:s, s:i, s:i, s:i, s:f, s:I, s:I, s:f, s:f, s:i, s:o, s:o, "
        "s:s}",
        "task", name, "drafter", o->drafter_name,
        "max_draft", o->sim.max_draft ? (int)o->sim.max_draft : ENG_MAX_DRAFT,
        "output_tokens", (int)r->output_tokens, "steps", (int)r->steps,
        "tokens_per_step", r->tokens_per_step,
        "drafted", (json_int_t)r->drafted, "accepted", (json_int_t)r->accepted,
        "projected_speedup", r->projected_speedup,
        "perfect_speedup", r->perfect_speedup,
        "perfect_steps", (int)r->perfect_steps,
        "accept_hist", cli__sim_hist(r->accept_hist, ENG_MAX_DRAFT + 1),
        "rows_hist", cli__sim_hist(r->rows_hist, KRN_MAX_ROWS + 1),
        "cost_table", costs->source);
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) return cli_fail("draftsim", "out of memory for the JSON report");
    puts(s);
    free(s);
    return CLI_OK;
}

/* ---- totals over tasks ---------------------------------------------------- */

/* Costs summed over tasks, in the table's unit: a total speedup is the
 * plain total over the speculative one (long edits weigh more). */
typedef struct cli_sim_total {
    int tasks;
    int64_t tokens, steps, drafted, accepted;
    double plain, spec, perfect;
} cli_sim_total;

static void cli__sim_add(cli_sim_total *t, const stepcost_table *costs,
                         const edit_sim_result *r) {
    double plain = (r->output_tokens - 1) * stepcost_table_cost(costs, 1);
    t->tasks++;
    t->tokens += r->output_tokens;
    t->steps += r->steps;
    t->drafted += r->drafted;
    t->accepted += r->accepted;
    t->plain += plain;
    t->spec += r->projected_speedup > 0 ? plain / r->projected_speedup : 0;
    t->perfect += r->perfect_speedup > 0 ? plain / r->perfect_speedup : 0;
}

static int cli__sim_total(const cli_sim_opts *o, const stepcost_table *costs,
                          const cli_sim_total *t) {
    double speedup = t->spec > 0 ? t->plain / t->spec : 1;
    double perfect = t->perfect > 0 ? t->plain / t->perfect : 1;
    double per_step = t->steps > 0 ? (double)t->tokens / (double)t->steps : 0;
    int max_draft = o->sim.max_draft ? (int)o->sim.max_draft : ENG_MAX_DRAFT;
    if (!o->json) {
        printf("total tasks=%d drafter=%s max_draft=%d output_tokens=%lld "
               "steps=%lld tokens_per_step=%.3f drafted=%lld accepted=%lld "
               "projected_speedup=%.3f perfect_speedup=%.3f cost_table=%s\n",
               t->tasks, o->drafter_name, max_draft, (long long)t->tokens,
               (long long)t->steps, per_step, (long long)t->drafted,
               (long long)t->accepted, speedup, perfect, costs->source);
        return CLI_OK;
    }
    json_t *j = json_pack(
        "{s:s, s:i, s:s, s:i, s:I, s:I, s:f, s:I, s:I, s:f, s:f, s:s}",
        "task", "total", "tasks", t->tasks, "drafter", o->drafter_name,
        "max_draft", max_draft, "output_tokens", (json_int_t)t->tokens,
        "steps", (json_int_t)t->steps, "tokens_per_step", per_step,
        "drafted", (json_int_t)t->drafted, "accepted", (json_int_t)t->accepted,
        "projected_speedup", speedup, "perfect_speedup", perfect,
        "cost_table", costs->source);
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) return cli_fail("draftsim", "out of memory for the JSON report");
    puts(s);
    free(s);
    return CLI_OK;
}

/* ---- running -------------------------------------------------------------- */

static int cli__sim_one(const cli_sim_opts *o, const eng_model *m,
                        const stepcost_table *costs, const edit_request *rq,
                        const char *expected, int64_t n_exp, const char *name,
                        cli_sim_total *total) {
    edit_sim_opts so = o->sim;
    so.costs = costs;
    edit_sim_result r;
    sb_err err = {0};
    if (edit_simulate(m, rq, expected, n_exp, &so, &r, &err))
        return name ? cli_fail("draftsim", "%s: %s", name, err.msg)
                    : cli_fail("draftsim", "%s", err.msg);
    if (total) cli__sim_add(total, costs, &r);
    if (o->json) return cli__sim_json(o, costs, name, &r);
    cli__sim_text(o, name, &r);
    return CLI_OK;
}

static int cli__sim_file(const cli_sim_opts *o, const eng_model *m,
                         const stepcost_table *costs) {
    char *input = NULL, *expected = NULL;
    int64_t n_in = 0, n_exp = 0;
    int rc = CLI_FAIL;
    if (cli_read_file(o->input, CLI_INPUT_MAX, &input, &n_in))
        cli_read_fail("draftsim", "the input", o->input, CLI_INPUT_MAX, false);
    else if (cli_read_file(o->expected, CLI_INPUT_MAX, &expected, &n_exp))
        cli_read_fail("draftsim", "the expected file", o->expected,
                      CLI_INPUT_MAX, false);
    else {
        edit_request rq = {.file = input, .file_len = n_in,
                           .instruction = o->instruction,
                           .instruction_len = (int64_t)strlen(o->instruction),
                           .language = o->language, .path = o->input};
        rc = cli__sim_one(o, m, costs, &rq, expected, n_exp, NULL, NULL);
    }
    free(input);
    free(expected);
    return rc;
}

static int cli__sim_tasks(const cli_sim_opts *o, const eng_model *m,
                          const stepcost_table *costs) {
    bench_task *tasks = NULL;
    int n = 0, rc = CLI_OK;
    sb_err err = {0};
    if (bench_tasks_load(o->tasks, o->only, &tasks, &n, &err))
        return cli_fail("draftsim", "%s", err.msg);
    cli_sim_total total = {0};
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        const bench_task *t = &tasks[i];
        edit_request rq = {.file = t->input, .file_len = t->input_len,
                           .instruction = t->instruction,
                           .instruction_len = t->instruction_len,
                           .path = t->input_path};
        rc = cli__sim_one(o, m, costs, &rq, t->expected, t->expected_len,
                          t->name, &total);
    }
    if (rc == CLI_OK) rc = cli__sim_total(o, costs, &total);
    bench_tasks_free(tasks, n);
    return rc;
}

int cli_draftsim(int argc, char **argv) {
    cli_sim_opts o = {0};
    int rc = cli__sim_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    stepcost_table costs;
    sb_err err = {0};
    stepcost_table_default(&costs);
    if (o.costs && stepcost_table_load(o.costs, &costs, &err))
        return cli_fail("draftsim", "%s", err.msg);
    char model_path[4096];
    eng_model *m = cli_model_open("draftsim", &o.model, model_path,
                                  sizeof model_path);
    if (!m) return CLI_FAIL;
    rc = o.tasks ? cli__sim_tasks(&o, m, &costs) : cli__sim_file(&o, m, &costs);
    eng_model_free(m);
    return rc;
}
