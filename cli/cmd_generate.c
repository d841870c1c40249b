/* sb generate: stream a model's continuation of a prompt. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../drafter/drafter.h"
#include "cli.h"

static const char *cli__gen_help =
    "usage: sb generate [-m MODEL] (-p TEXT | -f FILE) [options]\n"
    "  -m, --model FILE     GGUF model (qwen2; default: $SB_MODEL, else the\n"
    "                       demo model beside sb)\n"
    "  -p, --prompt TEXT    prompt text\n"
    "  -f, --file FILE      read the prompt from FILE (- for stdin)\n"
    "  -n, --n-predict N    tokens to generate at most (default 128)\n"
    "      --temp T         temperature; 0 = greedy (default 0)\n"
    "      --seed S         sampling seed (default 0)\n"
    "      --top-k K        sample among the K most likely tokens (default: all)\n"
    "      --threads N      CPU threads (default: all cores); never changes output\n"
    "      --device D       cpu or cuda (default cpu)\n"
    "      --ctx N          KV-cache size in tokens (default min(model, 4096))\n"
    "      --chunk N        prompt rows per forward step, 1..1024 (default 64;\n"
    "                       above 64 the backend's scratch grows to N rows);\n"
    "                       never changes output\n"
    "      --ignore-eos     keep going after the end-of-text token\n"
    "      --stop TEXT      stop after the token that completes TEXT\n"
    "      --speculation on|off  speculative decoding (default on); never\n"
    "                       changes output, only tokens per step\n"
    "      --draft-source FILE  text the drafter copies spans from\n"
    "                       (default: the prompt itself)\n"
    "      --drafter copy|ngram  copy spans (default) or the plain\n"
    "                       prompt-lookup baseline\n"
    "      --max-draft N    draft tokens per step, 1..63 (default 63)\n"
    "      --quiet          do not print the generated text\n"
    "      --ids            also print the prompt's and the generated token\n"
    "                       ids on stderr, one JSON line each:\n"
    "                       {\"prompt_ids\":[...]} then {\"generated_ids\":[...]}\n"
    "      --ids-out FILE   write those two lines to FILE instead\n"
    "      --warmup FILE    take a warm-up table's launch configuration (no\n"
    "                       measuring) after checking its fingerprint (sb\n"
    "                       warmup); never changes output\n"
    "      --max-input BYTES  refuse a prompt file or draft source larger\n"
    "                       than this (default 16777216, 16 MiB)\n"
    "At the end, one line on stderr: token counts, speeds, steps (forward\n"
    "passes that produced tokens) and the SHA-256 of the generated token ids\n"
    "(little-endian int32), identical on every run and with speculation on\n"
    "or off.\n";

typedef struct cli_gen_opts {
    const char *model, *prompt, *file;
    eng_gen_params gen;
    eng_options eng;
    bool quiet;
    bool ids;                 /* --ids: the id lines on stderr */
    const char *ids_out;      /* --ids-out: the id lines to this file */
    bool speculation;
    bool ngram;               /* --drafter ngram */
    const char *draft_source; /* NULL: the prompt */
    const char *warmup;       /* --warmup: a warm-up table, or NULL */
    int64_t max_input;        /* --max-input: cap of -f and --draft-source */
} cli_gen_opts;

/* The drafter of one run; exactly one of copy/ngram is set when on. */
typedef struct cli_drafter {
    drf_copy *copy;
    drf_ngram *ngram;
    eng_drafter table;
} cli_drafter;

typedef struct cli_stream {
    const eng_model *model;
    eng_utf8_stream utf8;
    bool quiet;
} cli_stream;

static int cli__print_token(void *ctx, int32_t id) {
    cli_stream *st = ctx;
    if (st->quiet) return 0;
    int64_t len = 0;
    const char *bytes = eng_token_bytes(st->model, id, &len);
    if (!bytes) return 0;
    char *out = malloc((size_t)len + 4);
    if (!out) return 1;
    int64_t n = eng_utf8_stream_push(&st->utf8, bytes, len, out);
    fwrite(out, 1, (size_t)n, stdout);
    fflush(stdout);
    free(out);
    return 0;
}

/* Fills o from argv; returns CLI_OK, or an exit code to return at once
 * (-1 for --help, which exits 0). */
static int cli__gen_parse(int argc, char **argv, cli_gen_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"prompt", 1, 0, 'p'}, {"file", 1, 0, 'f'},
        {"n-predict", 1, 0, 'n'}, {"temp", 1, 0, 'T'}, {"seed", 1, 0, 'S'},
        {"top-k", 1, 0, 'K'}, {"threads", 1, 0, 't'}, {"device", 1, 0, 'D'},
        {"ctx", 1, 0, 'c'}, {"chunk", 1, 0, 'C'}, {"ignore-eos", 0, 0, 'E'},
        {"quiet", 0, 0, 'q'}, {"help", 0, 0, 'h'}, {"stop", 1, 0, 's'},
        {"speculation", 1, 0, 'P'}, {"draft-source", 1, 0, 'G'},
        {"drafter", 1, 0, 'R'}, {"max-draft", 1, 0, 'X'}, {"ids", 0, 0, 'I'},
        {"ids-out", 1, 0, 'O'}, {"warmup", 1, 0, 'W'},
        {"max-input", 1, 0, 'M'}, {0, 0, 0, 0}};
    o->max_input = CLI_INPUT_MAX;
    o->gen = eng_gen_defaults();
    o->gen.n_max = 128;
    o->speculation = true;
    long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:p:f:n:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'p': o->prompt = optarg; break;
        case 'f': o->file = optarg; break;
        case 'n':
            if (cli_parse_int(optarg, 0, 1 << 24, &v))
                return cli_usage("generate", "-n '%s': expected 0..16777216", optarg);
            o->gen.n_max = (int32_t)v;
            break;
        case 'T':
            if (cli_parse_float(optarg, 0.0, 100.0, &o->gen.sampling.temperature))
                return cli_usage("generate", "--temp '%s': expected 0..100", optarg);
            break;
        case 'S':
            if (cli_parse_u64(optarg, &o->gen.sampling.seed))
                return cli_usage("generate", "--seed '%s': expected an unsigned integer", optarg);
            break;
        case 'K':
            if (cli_parse_int(optarg, 0, 1 << 30, &v))
                return cli_usage("generate", "--top-k '%s': expected >= 0", optarg);
            o->gen.sampling.top_k = (int32_t)v;
            break;
        case 't':
            if (cli_opt_threads("generate", optarg, &o->eng.n_threads)) return CLI_USAGE;
            break;
        case 'D':
            if (cli_opt_device("generate", optarg, &o->eng.device)) return CLI_USAGE;
            break;
        case 'c':
            if (cli_parse_int(optarg, 1, 1 << 24, &v))
                return cli_usage("generate", "--ctx '%s': expected a positive count", optarg);
            o->eng.n_ctx = (int32_t)v;
            break;
        case 'C':
            if (cli_parse_int(optarg, 1, KRN_MAX_BATCH_ROWS, &v))
                return cli_usage("generate", "--chunk '%s': expected 1..%d", optarg,
                                 KRN_MAX_BATCH_ROWS);
            o->gen.prefill_chunk = (int)v;
            o->eng.prefill_chunk = (int32_t)v; /* the backend's scratch above 64 */
            break;
        case 'E': o->gen.stop_at_eos = false; break;
        case 's':
            if (strlen(optarg) < 1 || strlen(optarg) > ENG_STOP_MAX)
                return cli_usage("generate", "--stop: expected 1..%d bytes", ENG_STOP_MAX);
            o->gen.stop = optarg;
            o->gen.stop_len = (int32_t)strlen(optarg);
            break;
        case 'P':
            if (cli_opt_on_off("generate", "--speculation", optarg, &o->speculation))
                return CLI_USAGE;
            break;
        case 'G': o->draft_source = optarg; break;
        case 'R':
            if (!strcmp(optarg, "copy")) o->ngram = false;
            else if (!strcmp(optarg, "ngram")) o->ngram = true;
            else return cli_usage("generate", "--drafter '%s': expected copy or ngram", optarg);
            break;
        case 'X':
            if (cli_parse_int(optarg, 1, ENG_MAX_DRAFT, &v))
                return cli_usage("generate", "--max-draft '%s': expected 1..%d", optarg, ENG_MAX_DRAFT);
            o->gen.max_draft = (int32_t)v;
            break;
        case 'q': o->quiet = true; break;
        case 'I': o->ids = true; break;
        case 'O': o->ids_out = optarg; break;
        case 'W': o->warmup = optarg; break;
        case 'M':
            if (cli_opt_max_input("generate", optarg, &o->max_input)) return CLI_USAGE;
            break;
        case 'h': fputs(cli__gen_help, stdout); return -1;
        default: return cli_bad_option("generate");
        }
    }
    if (optind < argc) return cli_usage("generate", "unexpected argument '%s'", argv[optind]);
    if (!o->prompt == !o->file) return cli_usage("generate", "give exactly one of -p TEXT or -f FILE");
    return CLI_OK;
}

static const char *cli__stop_name(eng_stop s) {
    switch (s) {
    case ENG_STOP_EOS: return "eos";
    case ENG_STOP_CALLBACK: return "interrupted";
    case ENG_STOP_CONTEXT: return "context-full";
    case ENG_STOP_STRING: return "stop-string";
    default: return "length";
    }
}

static void cli__gen_report(const eng_gen_result *r, int32_t n_prompt) {
    double dec = r->decode_s > 0 ? (double)r->n_tokens / r->decode_s : 0.0;
    double pre = r->prefill_s > 0 ? (double)n_prompt / r->prefill_s : 0.0;
    double per = r->steps > 0 ? (double)r->n_tokens / r->steps : 0.0;
    fprintf(stderr, "sb generate: prompt_tokens=%d tokens=%d stop=%s "
            "prefill_tok_s=%.1f decode_tok_s=%.2f steps=%d tokens_per_step=%.2f "
            "drafted=%lld accepted=%lld sha256=%s\n", (int)n_prompt,
            (int)r->n_tokens, cli__stop_name(r->stop), pre, dec, (int)r->steps,
            per, (long long)r->drafted, (long long)r->accepted, r->sha256);
}

/* One line of JSON, {"<key>":[ids]}, malloc'd; NULL when out of memory. */
static char *cli__ids_line(const char *key, const int32_t *ids, int64_t n) {
    json_t *o = json_pack("{s:o}", key, cli_ids_json(ids, n));
    char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return line;
}

/* --ids / --ids-out: the prompt's and the generated ids, one JSON line each,
 * on stderr or in the file (whole or not at all). CLI_OK or a failure
 * already reported. */
static int cli__ids_write(const cli_gen_opts *o, const int32_t *prompt,
                          int32_t n_prompt, const eng_gen_result *r) {
    char *lp = cli__ids_line("prompt_ids", prompt, n_prompt);
    char *lg = cli__ids_line("generated_ids", r->tokens, r->n_tokens);
    size_t len = lp && lg ? strlen(lp) + strlen(lg) + 2 : 0;
    char *text = len ? malloc(len + 1) : NULL;
    int rc = CLI_OK;
    sb_err err = {0};
    if (!text) {
        rc = cli_fail("generate", "out of memory for the token id lines");
    } else {
        snprintf(text, len + 1, "%s\n%s\n", lp, lg);
        if (!o->ids_out) fputs(text, stderr);
        else if (sb_write_file(o->ids_out, text, len, &err))
            rc = cli_fail("generate", "--ids-out: %s", err.msg);
    }
    free(text);
    free(lg);
    free(lp);
    return rc;
}

/* Makes the drafter for the run: its source is --draft-source's text
 * (encoded as plain text, the way an edit prompt encodes a file) or the
 * prompt's ids. CLI_OK or a failure already reported. */
static int cli__drafter_make(const cli_gen_opts *o, const eng_model *m,
                             const int32_t *prompt, int32_t n_prompt,
                             cli_drafter *d) {
    int32_t *src = NULL, n_src = n_prompt;
    if (o->draft_source) {
        char *text = NULL;
        int64_t len = 0;
        if (cli_read_file(o->draft_source, o->max_input, &text, &len))
            return cli_read_fail("generate", "draft source", o->draft_source,
                                 o->max_input, true);
        int rc = cli_tokens(m, "generate", "draft source", text, len, 0,
                            &src, &n_src);
        free(text);
        if (rc) return rc;
    }
    const int32_t *ids = src ? src : prompt;
    sb_err err = {0};
    if (o->ngram) {
        d->ngram = drf_ngram_create(ids, n_src, 0, &err);
        if (d->ngram) d->table = drf_ngram_drafter(d->ngram);
    } else {
        d->copy = drf_copy_create(ids, n_src, NULL, &err);
        if (d->copy) d->table = drf_copy_drafter(d->copy);
    }
    free(src);
    if (!d->ngram && !d->copy) return cli_fail("generate", "%s", err.msg);
    return CLI_OK;
}

static void cli__drafter_free(cli_drafter *d) {
    drf_copy_destroy(d->copy);
    drf_ngram_destroy(d->ngram);
}

static int cli__gen_run(const cli_gen_opts *o, eng_model *m, const char *text,
                        int64_t len) {
    int32_t *ids = NULL, n = 0;
    if (cli_tokens(m, "generate", "prompt", text, len, ENG_TOK_SPECIAL, &ids,
                   &n))
        return CLI_FAIL;
    sb_err err = {0};
    cli_drafter drafter = {0};
    eng_gen_params gen = o->gen;
    eng_session *s = NULL;
    int rc = CLI_FAIL;
    if (o->speculation) {
        if (cli__drafter_make(o, m, ids, n, &drafter)) goto done;
        gen.drafter = &drafter.table;
    }
    eng_options eo = o->eng;
    eo.tuning = cli_tuning;
    s = cli_session_open("generate", m, &eo, o->warmup, NULL);
    if (!s) goto done;
    cli_stream st = {.model = m, .quiet = o->quiet};
    eng_gen_result r;
    if (eng_generate(s, ids, n, &gen, cli__print_token, &st, &r, &err)) {
        cli_fail("generate", "%s", err.msg);
        goto done;
    }
    char tail[4];
    int64_t nt = eng_utf8_stream_flush(&st.utf8, tail);
    if (!o->quiet) {
        fwrite(tail, 1, (size_t)nt, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    rc = o->ids || o->ids_out ? cli__ids_write(o, ids, n, &r) : CLI_OK;
    cli__gen_report(&r, n);
    free(r.tokens);
done:
    eng_session_destroy(s);
    cli__drafter_free(&drafter);
    free(ids);
    return rc;
}

int cli_generate(int argc, char **argv) {
    cli_gen_opts o = {0};
    int rc = cli__gen_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    char *text = NULL;
    int64_t len = 0;
    if (o.file) {
        if (cli_read_file(o.file, o.max_input, &text, &len))
            return cli_read_fail("generate", "prompt file", o.file, o.max_input,
                                 true);
    } else {
        len = (int64_t)strlen(o.prompt);
        text = strdup(o.prompt);
        if (!text) return cli_fail("generate", "out of memory");
    }
    char default_model[4096];
    eng_model *m = cli_model_open("generate", &o.model, default_model,
                                  sizeof default_model);
    if (!m) {
        free(text);
        return CLI_FAIL;
    }
    rc = cli__gen_run(&o, m, text, len);
    eng_model_free(m);
    free(text);
    return rc;
}
