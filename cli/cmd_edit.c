/* sb edit: apply an instruction to a file and print the edited file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../edit/edit.h"
#include "cli.h"

static const char *cli__edit_help =
    "usage: sb edit [-m MODEL] --file FILE --instruction TEXT [options]\n"
    "  -m, --model FILE       GGUF model (qwen2 instruct; default: $SB_MODEL,\n"
    "                         else the demo model beside sb)\n"
    "      --file FILE        the file to edit (- for stdin)\n"
    "      --instruction TEXT what to change\n"
    "      --language L       fence tag or LSP languageId (default: from the\n"
    "                         file's extension)\n"
    "      --speculation on|off  copy-span drafts verified per step (default\n"
    "                         on); never changes output, only speed\n"
    "      --device D         cpu or cuda (default cpu)\n"
    "      --threads N        CPU threads (default: all cores)\n"
    "      --max-draft N      draft tokens per step, 1..63 (default 63)\n"
    "      --cost-table FILE  step cost by rows ('ROWS COST' lines, as sb\n"
    "                         draftsim takes them) that drafts are sized by;\n"
    "                         default: the H200 table sb draftsim --help shows\n"
    "      --max-tokens N     output cap (default: twice the file's tokens\n"
    "                         plus 256)\n"
    "      --temp T           temperature; 0 = greedy (default 0)\n"
    "      --seed S           sampling seed (default 0)\n"
    "      --warmup FILE      take a warm-up table's launch configuration (no\n"
    "                         measuring) after checking its fingerprint (sb\n"
    "                         warmup); never changes output\n"
    "      --max-input BYTES  refuse a file larger than this (default\n"
    "                         16777216, 16 MiB)\n"
    "Prints the edited file on stdout and one line on stderr: prompt and\n"
    "output tokens, stop reason, tok/s, steps, tokens per step, drafts and\n"
    "the SHA-256 of the output token ids (little-endian int32; the same with\n"
    "speculation on or off). An answer that never closes its code fence is\n"
    "an error: the raw answer goes to stderr, nothing to stdout, exit 1.\n";

typedef struct cli_edit_opts {
    const char *model, *file, *instruction, *language;
    const char *warmup;       /* --warmup: a warm-up table, or NULL */
    edit_opts edit;
    eng_options eng;
    stepcost_table costs;  /* --cost-table's; edit.costs points here */
    int64_t max_input;     /* --max-input: the file's cap, bytes */
} cli_edit_opts;

/* Parses --speculation, --device, --cost-table and the numbers; CLI_OK, a
 * usage exit, or a failure for a cost table that cannot be read. */
static int cli__edit_opt(int c, cli_edit_opts *o) {
    long v;
    bool on;
    sb_err err = {0};
    switch (c) {
    case 'C':
        if (stepcost_table_load(optarg, &o->costs, &err))
            return cli_fail("edit", "%s", err.msg);
        o->edit.costs = &o->costs;
        return CLI_OK;
    case 'P':
        if (cli_opt_on_off("edit", "--speculation", optarg, &on)) return CLI_USAGE;
        o->edit.drafter = on ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
        return CLI_OK;
    case 'D': return cli_opt_device("edit", optarg, &o->eng.device);
    case 'M': return cli_opt_max_input("edit", optarg, &o->max_input);
    case 't': return cli_opt_threads("edit", optarg, &o->eng.n_threads);
    case 'X':
        if (cli_parse_int(optarg, 1, ENG_MAX_DRAFT, &v))
            return cli_usage("edit", "--max-draft '%s': expected 1..%d", optarg, ENG_MAX_DRAFT);
        o->edit.max_draft = (int32_t)v;
        return CLI_OK;
    case 'n':
        if (cli_parse_int(optarg, 1, 1 << 24, &v))
            return cli_usage("edit", "--max-tokens '%s': expected 1..16777216", optarg);
        o->edit.max_tokens = (int32_t)v;
        return CLI_OK;
    case 'T':
        if (cli_parse_float(optarg, 0.0, 100.0, &o->edit.sampling.temperature))
            return cli_usage("edit", "--temp '%s': expected 0..100", optarg);
        return CLI_OK;
    case 'S':
        if (cli_parse_u64(optarg, &o->edit.sampling.seed))
            return cli_usage("edit", "--seed '%s': expected an unsigned integer", optarg);
        return CLI_OK;
    }
    return cli_usage("edit", "bad option");
}

/* Fills o from argv; CLI_OK, or an exit code (-1 for --help). */
static int cli__edit_parse(int argc, char **argv, cli_edit_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"file", 1, 0, 'f'}, {"instruction", 1, 0, 'i'},
        {"language", 1, 0, 'L'}, {"speculation", 1, 0, 'P'},
        {"device", 1, 0, 'D'}, {"threads", 1, 0, 't'},
        {"max-draft", 1, 0, 'X'}, {"max-tokens", 1, 0, 'n'},
        {"temp", 1, 0, 'T'}, {"seed", 1, 0, 'S'}, {"help", 0, 0, 'h'},
        {"warmup", 1, 0, 'W'}, {"cost-table", 1, 0, 'C'},
        {"max-input", 1, 0, 'M'}, {0, 0, 0, 0}};
    o->edit = edit_defaults();
    o->max_input = CLI_INPUT_MAX;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'f': o->file = optarg; break;
        case 'i': o->instruction = optarg; break;
        case 'L': o->language = optarg; break;
        case 'W': o->warmup = optarg; break;
        case 'h': fputs(cli__edit_help, stdout); return -1;
        default:
            if ((rc = cli__edit_opt(c, o))) return rc;
        }
    }
    if (optind < argc) return cli_usage("edit", "unexpected argument '%s'", argv[optind]);
    if (!o->file) return cli_usage("edit", "no file given (--file FILE)");
    if (!o->instruction || !*o->instruction)
        return cli_usage("edit", "no instruction given (--instruction TEXT)");
    return CLI_OK;
}

/* Progress on a terminal: one line rewritten in place, a few times a
 * second at most. */
typedef struct cli_edit_progress {
    double last;
    bool shown;
} cli_edit_progress;

static int cli__edit_progress(void *ctx, const edit_progress *p) {
    cli_edit_progress *st = ctx;
    if (p->elapsed_s - st->last < 0.25) return 0;
    st->last = p->elapsed_s;
    st->shown = true;
    fprintf(stderr, "\r\033[Ksb edit: %d tokens, %.1f tok/s, %.0f%% of drafts "
            "accepted", (int)p->tokens, p->tok_s, 100.0 * p->accept_rate);
    fflush(stderr);
    return 0;
}

static void cli__edit_report(const edit_result *r) {
    const eng_gen_result *g = &r->gen;
    double tok_s = g->decode_s > 0 ? g->n_tokens / g->decode_s : 0.0;
    double per = g->steps > 0 ? (double)g->n_tokens / g->steps : 0.0;
    fprintf(stderr, "sb edit: prompt_tokens=%lld tokens=%d stop=%s tok_s=%.2f "
            "steps=%d tokens_per_step=%.2f drafted=%lld accepted=%lld "
            "sha256=%s\n", (long long)r->n_prompt, (int)g->n_tokens,
            edit_stop_name(r), tok_s, (int)g->steps, per,
            (long long)g->drafted, (long long)g->accepted, g->sha256);
}

/* A session with room for the prompt and the output cap, within the
 * model's context. */
static eng_session *cli__edit_session(const cli_edit_opts *o, eng_model *m,
                                      const edit_request *rq) {
    sb_err err = {0};
    int32_t n_prompt = 0, max_tokens = 0;
    if (edit_plan(m, rq, &o->edit, &n_prompt, &max_tokens, &err)) {
        cli_fail("edit", "%s", err.msg);
        return NULL;
    }
    int64_t want = (int64_t)n_prompt + max_tokens, ctx = eng_model_n_ctx(m);
    if (n_prompt >= ctx) {
        cli_fail("edit", "the prompt needs %d tokens; the model's context "
                 "holds %lld", (int)n_prompt, (long long)ctx);
        return NULL;
    }
    eng_options eo = o->eng;
    eo.n_ctx = (int32_t)(want < ctx ? want : ctx);
    return cli_session_open("edit", m, &eo, o->warmup, NULL);
}

/* Runs the edit and prints what it gave; the exit code. */
static int cli__edit_run(const cli_edit_opts *o, eng_model *m,
                         const edit_request *rq) {
    eng_session *s = cli__edit_session(o, m, rq);
    if (!s) return CLI_FAIL;
    cli_edit_progress prog = {0};
    edit_opts eo = o->edit;
    if (isatty(STDERR_FILENO)) {
        eo.progress = cli__edit_progress;
        eo.progress_ctx = &prog;
    }
    sb_err err = {0};
    edit_result r;
    int rc = edit_run(s, rq, &eo, &r, &err);
    if (prog.shown) fputs("\r\033[K", stderr);
    if (rc == 0) {
        fwrite(r.text, 1, (size_t)r.text_len, stdout);
        rc = fflush(stdout) || ferror(stdout)
                 ? cli_fail("edit", "cannot write the edited file: %m")
                 : CLI_OK;
    } else {
        rc = cli_fail("edit", "%s", err.msg);
        if (r.answer)
            fprintf(stderr, "---- raw answer (%lld bytes) ----\n%s\n---- end "
                    "of raw answer ----\n", (long long)r.answer_len, r.answer);
    }
    if (r.status != EDIT_FAILED) cli__edit_report(&r);
    edit_result_free(&r);
    eng_session_destroy(s);
    return rc;
}

int cli_edit(int argc, char **argv) {
    cli_edit_opts o = {0};
    int rc = cli__edit_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    char *text = NULL;
    int64_t len = 0;
    if (cli_read_file(o.file, o.max_input, &text, &len))
        return cli_read_fail("edit", "the file", o.file, o.max_input, true);
    char default_model[4096];
    eng_model *m = cli_model_open("edit", &o.model, default_model,
                                  sizeof default_model);
    if (!m) {
        free(text);
        return CLI_FAIL;
    }
    edit_request rq = {.file = text, .file_len = len,
                       .instruction = o.instruction,
                       .instruction_len = (int64_t)strlen(o.instruction),
                       .language = o.language,
                       .path = strcmp(o.file, "-") ? o.file : NULL};
    rc = cli__edit_run(&o, m, &rq);
    eng_model_free(m);
    free(text);
    return rc;
}
