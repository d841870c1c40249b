/* sb draftsim: how well a drafter would do on an edit whose answer is
 * known, and what that is worth in time, without running the model. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../edit/edit.h"
#include "cli.h"

static const char *cli__sim_help =
    "usage: sb draftsim -m MODEL --input FILE --expected FILE [options]\n"
    "  -m, --model FILE       GGUF model (read for its tokenizer only)\n"
    "      --input FILE       the file before the edit\n"
    "      --expected FILE    the file the model is taken to write\n"
    "      --instruction TEXT the edit's instruction (default: \"Edit the\n"
    "                         file.\"); it is part of the prompt the drafter\n"
    "                         may copy from\n"
    "      --language L       fence tag or LSP languageId (default: from\n"
    "                         --input's extension)\n"
    "      --drafter D        copy (default: syntax-aware where the language\n"
    "                         has a grammar, else plain), copy-plain (token\n"
    "                         copying without syntax), ngram (prompt lookup)\n"
    "                         or none\n"
    "      --max-draft N      draft tokens per step, 1..63 (default 63)\n"
    "      --cost-table FILE  step cost by rows: lines 'ROWS COST', ROWS\n"
    "                         1..64 (a row count not listed costs what the\n"
    "                         next listed one costs); default: the H200\n"
    "                         (synthetic Qwen2.5-7B Q4_K_M, KV depth 0,\n"
    "                         2026-12-02), in ms: 1:3.14 2:3.85 4:5.05\n"
    "                         8:7.12 16:8.67 24:10.07 32:12.19 48:20.29\n"
    "                         64:23.14\n"
    "      --json             one JSON object on stdout\n"
    "CPU only, no forward pass. The answer is the expected file, its closing\n"
    "fence and <|im_end|>, tokenized as one text (the canonical encoding a\n"
    "model emits); the drafter is driven step by step as the speculative\n"
    "loop drives it. Reports output tokens, steps, tokens per step, drafted\n"
    "and accepted tokens, the histogram of accepted draft lengths per step,\n"
    "and the projected speedup over plain decoding (cost of output_tokens-1\n"
    "one-row steps over the cost of the steps taken).\n";

typedef struct cli_sim_opts {
    const char *model, *input, *expected, *instruction, *language, *costs;
    const char *drafter_name;
    edit_sim_opts sim;
    bool json;
} cli_sim_opts;

static int cli__sim_parse(int argc, char **argv, cli_sim_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"input", 1, 0, 'I'}, {"expected", 1, 0, 'E'},
        {"instruction", 1, 0, 'i'}, {"language", 1, 0, 'L'},
        {"drafter", 1, 0, 'R'}, {"max-draft", 1, 0, 'X'},
        {"cost-table", 1, 0, 'C'}, {"json", 0, 0, 'j'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    o->instruction = "Edit the file.";
    o->drafter_name = "copy";
    sb_err err = {0};
    long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'I': o->input = optarg; break;
        case 'E': o->expected = optarg; break;
        case 'i': o->instruction = optarg; break;
        case 'L': o->language = optarg; break;
        case 'C': o->costs = optarg; break;
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
        case 'h': fputs(cli__sim_help, stdout); return -1;
        default: return cli_usage("draftsim", "bad option");
        }
    }
    if (optind < argc) return cli_usage("draftsim", "unexpected argument '%s'", argv[optind]);
    if (!o->model) return cli_usage("draftsim", "no model given (-m MODEL)");
    if (!o->input || !o->expected)
        return cli_usage("draftsim", "give both --input FILE and --expected FILE");
    if (!*o->instruction) return cli_usage("draftsim", "--instruction is empty");
    return CLI_OK;
}

static int cli__sim_costs(const char *path, edit_cost_table *t) {
    if (!path) {
        edit_cost_default(t);
        return CLI_OK;
    }
    char *text = NULL;
    int64_t len = 0;
    if (cli_read_file(path, &text, &len))
        return cli_fail("draftsim", "cannot read cost table '%s': %m", path);
    sb_err err = {0};
    int rc = edit_cost_parse(text, len, t, &err);
    free(text);
    return rc ? cli_fail("draftsim", "%s: %s", path, err.msg) : CLI_OK;
}

static void cli__sim_text(const cli_sim_opts *o, const edit_sim_result *r) {
    printf("drafter=%s max_draft=%d output_tokens=%d steps=%d "
           "tokens_per_step=%.3f drafted=%lld accepted=%lld "
           "projected_speedup=%.3f\naccept_hist:", o->drafter_name,
           o->sim.max_draft ? (int)o->sim.max_draft : ENG_MAX_DRAFT,
           (int)r->output_tokens, (int)r->steps, r->tokens_per_step,
           (long long)r->drafted, (long long)r->accepted, r->projected_speedup);
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

static int cli__sim_json(const cli_sim_opts *o, const edit_sim_result *r) {
    json_t *j = json_pack(
        "{s:s, s:i, s:i, s:i, s:f, s:I, s:I, s:f, s:o, s:o, s:s}",
        "drafter", o->drafter_name,
        "max_draft", o->sim.max_draft ? (int)o->sim.max_draft : ENG_MAX_DRAFT,
        "output_tokens", (int)r->output_tokens, "steps", (int)r->steps,
        "tokens_per_step", r->tokens_per_step,
        "drafted", (json_int_t)r->drafted, "accepted", (json_int_t)r->accepted,
        "projected_speedup", r->projected_speedup,
        "accept_hist", cli__sim_hist(r->accept_hist, ENG_MAX_DRAFT + 1),
        "rows_hist", cli__sim_hist(r->rows_hist, KRN_MAX_ROWS + 1),
        "cost_table", o->costs ? o->costs : "default (H200, 2026-12-02)");
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) return cli_fail("draftsim", "out of memory for the JSON report");
    puts(s);
    free(s);
    return CLI_OK;
}

static int cli__sim_run(const cli_sim_opts *o, const eng_model *m,
                        const char *input, int64_t n_in, const char *expected,
                        int64_t n_exp) {
    edit_cost_table costs;
    if (cli__sim_costs(o->costs, &costs)) return CLI_FAIL;
    edit_sim_opts so = o->sim;
    so.costs = &costs;
    edit_request rq = {.file = input, .file_len = n_in,
                       .instruction = o->instruction,
                       .instruction_len = (int64_t)strlen(o->instruction),
                       .language = o->language, .path = o->input};
    edit_sim_result r;
    sb_err err = {0};
    if (edit_simulate(m, &rq, expected, n_exp, &so, &r, &err))
        return cli_fail("draftsim", "%s", err.msg);
    if (o->json) return cli__sim_json(o, &r);
    cli__sim_text(o, &r);
    return CLI_OK;
}

int cli_draftsim(int argc, char **argv) {
    cli_sim_opts o = {0};
    int rc = cli__sim_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    char *input = NULL, *expected = NULL;
    int64_t n_in = 0, n_exp = 0;
    eng_model *m = NULL;
    char model_path[4096];
    rc = CLI_FAIL;
    if (cli_read_file(o.input, &input, &n_in)) {
        cli_fail("draftsim", "cannot read '%s': %m", o.input);
        goto done;
    }
    if (cli_read_file(o.expected, &expected, &n_exp)) {
        cli_fail("draftsim", "cannot read '%s': %m", o.expected);
        goto done;
    }
    if (!(m = cli_model_open("draftsim", &o.model, model_path,
                             sizeof model_path)))
        goto done;
    rc = cli__sim_run(&o, m, input, n_in, expected, n_exp);
done:
    eng_model_free(m);
    free(input);
    free(expected);
    return rc;
}
