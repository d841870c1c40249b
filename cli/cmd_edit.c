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
    "      --lines A:B        edit lines A..B only (1-based, inclusive); the\n"
    "                         whole file, that region rewritten, is printed\n"
    "      --context file|region  prompt v2 shows the file (or a window of its\n"
    "                         lines, --context-budget) before the region\n"
    "                         (default file); region: the region alone\n"
    "      --context-budget N tokens of context at most (default: half the\n"
    "                         session's context)\n"
    "      --prompt v1|v2     the edit prompt's wording (default: what the\n"
    "                         model's file lists, else v2; the demo model: v1)\n"
    "      --prefix-cache on|off  keep the KV the prompt shares with the last\n"
    "                         one (default on); never changes output\n"
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
    int64_t line_a, line_b;/* --lines A:B; 0: the whole file */
    int context;           /* --context: 0 default, 1 file, 2 region */
    int32_t budget;        /* --context-budget; 0: default */
    int prompt;            /* --prompt; 0: the model's */
} cli_edit_opts;

/* --lines, --context, --context-budget, --prompt, --prefix-cache. */
static int cli__edit_region_opt(int c, cli_edit_opts *o) {
    long long a = 0, b = 0;
    long v;
    bool on;
    char end;
    switch (c) {
    case 'A':
        if (sscanf(optarg, "%lld:%lld%c", &a, &b, &end) != 2 || a < 1 || b < a)
            return cli_usage("edit", "--lines '%s': expected A:B with 1 <= A <= B",
                             optarg);
        o->line_a = a, o->line_b = b;
        return CLI_OK;
    case 'K':
        if (strcmp(optarg, "file") && strcmp(optarg, "region"))
            return cli_usage("edit", "--context '%s': expected file or region", optarg);
        o->context = strcmp(optarg, "file") ? 2 : 1;
        return CLI_OK;
    case 'B':
        if (cli_parse_int(optarg, 1, 1 << 24, &v))
            return cli_usage("edit", "--context-budget '%s': expected 1..16777216",
                             optarg);
        o->budget = (int32_t)v;
        return CLI_OK;
    case 'V':
        if (edit_prompt_version_parse(optarg, &o->prompt))
            return cli_usage("edit", "--prompt '%s': expected v1 or v2", optarg);
        return CLI_OK;
    case 'R':
        if (cli_opt_on_off("edit", "--prefix-cache", optarg, &on)) return CLI_USAGE;
        o->edit.prefix_cache = on;
        return CLI_OK;
    }
    return cli_bad_option("edit");
}

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
    return cli__edit_region_opt(c, o);
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
        {"max-input", 1, 0, 'M'}, {"lines", 1, 0, 'A'}, {"context", 1, 0, 'K'},
        {"context-budget", 1, 0, 'B'}, {"prompt", 1, 0, 'V'},
        {"prefix-cache", 1, 0, 'R'}, {0, 0, 0, 0}};
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
    eo.tuning = cli_tuning;
    eo.n_ctx = (int32_t)(want < ctx ? want : ctx);
    return cli_session_open("edit", m, &eo, o->warmup, NULL);
}

/* Runs the edit and prints what it gave; the exit code. */
/* The edit's region in the document: bytes [from, to) around rq->file. */
typedef struct cli_edit_doc {
    const char *text;
    int64_t len, from, to;
} cli_edit_doc;

static int cli__edit_run(const cli_edit_opts *o, eng_model *m,
                         const edit_request *rq, const cli_edit_doc *doc) {
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
        fwrite(doc->text, 1, (size_t)doc->from, stdout);
        fwrite(r.text, 1, (size_t)r.text_len, stdout);
        fwrite(doc->text + doc->to, 1, (size_t)(doc->len - doc->to), stdout);
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

/* Fills the request's region (--lines), prompt version and context. */
static int cli__edit_region(const cli_edit_opts *o, const eng_model *m,
                            edit_request *rq, cli_edit_doc *doc) {
    if (o->line_a) {
        bool past = false;
        doc->from = cli_line_start(doc->text, doc->len, o->line_a, &past);
        doc->to = cli_line_start(doc->text, doc->len, o->line_b + 1, &(bool){false});
        if (past)
            return cli_usage("edit", "--lines %lld:%lld: the file has fewer "
                             "than %lld lines", (long long)o->line_a,
                             (long long)o->line_b, (long long)o->line_a);
    }
    const int version = o->prompt ? o->prompt : edit_prompt_version_for(m);
    if (version < 2 && o->context == 1)
        return cli_usage("edit", "--context file needs prompt v2 (this model "
                         "is prompted with v1; add --prompt v2)");
    rq->prompt_version = version;
    rq->file = doc->text + doc->from;
    rq->file_len = doc->to - doc->from;
    if (version < 2 || o->context == 2) return CLI_OK;
    const int32_t ctx = eng_model_n_ctx(m) < 4096 ? eng_model_n_ctx(m) : 4096;
    const int32_t budget = o->budget ? o->budget : edit_context_budget_default(ctx);
    sb_err err = {0};
    if (edit_request_set_context(rq, m, doc->text, doc->len, doc->from, doc->to,
                                 budget, &err))
        return cli_fail("edit", "%s", err.msg);
    return CLI_OK;
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
    cli_edit_doc doc = {.text = text, .len = len, .from = 0, .to = len};
    rc = cli__edit_region(&o, m, &rq, &doc);
    if (rc == CLI_OK) rc = cli__edit_run(&o, m, &rq, &doc);
    eng_model_free(m);
    free(text);
    return rc;
}
