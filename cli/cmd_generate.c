/* sb generate: stream a model's continuation of a prompt. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *cli__gen_help =
    "usage: sb generate -m MODEL (-p TEXT | -f FILE) [options]\n"
    "  -m, --model FILE     GGUF model (qwen2)\n"
    "  -p, --prompt TEXT    prompt text\n"
    "  -f, --file FILE      read the prompt from FILE (- for stdin)\n"
    "  -n, --n-predict N    tokens to generate at most (default 128)\n"
    "      --temp T         temperature; 0 = greedy (default 0)\n"
    "      --seed S         sampling seed (default 0)\n"
    "      --top-k K        sample among the K most likely tokens (default: all)\n"
    "      --threads N      CPU threads (default: all cores); never changes output\n"
    "      --device D       cpu or cuda (default cpu)\n"
    "      --ctx N          KV-cache size in tokens (default min(model, 4096))\n"
    "      --chunk N        prompt rows per forward step, 1..64 (default 64)\n"
    "      --ignore-eos     keep going after the end-of-text token\n"
    "      --quiet          do not print the generated text\n"
    "At the end, one line on stderr: token counts, speeds and the SHA-256 of\n"
    "the generated token ids (little-endian int32), identical on every run.\n";

typedef struct cli_gen_opts {
    const char *model, *prompt, *file;
    eng_gen_params gen;
    eng_options eng;
    bool quiet;
} cli_gen_opts;

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
        {"quiet", 0, 0, 'q'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    o->gen = eng_gen_defaults();
    o->gen.n_max = 128;
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
            if (cli_parse_int(optarg, 1, 1024, &v))
                return cli_usage("generate", "--threads '%s': expected 1..1024", optarg);
            o->eng.n_threads = (int)v;
            break;
        case 'D':
            if (!strcmp(optarg, "cpu")) o->eng.device = ENG_DEVICE_CPU;
            else if (!strcmp(optarg, "cuda")) o->eng.device = ENG_DEVICE_CUDA;
            else return cli_usage("generate", "--device '%s': expected cpu or cuda", optarg);
            break;
        case 'c':
            if (cli_parse_int(optarg, 1, 1 << 24, &v))
                return cli_usage("generate", "--ctx '%s': expected a positive count", optarg);
            o->eng.n_ctx = (int32_t)v;
            break;
        case 'C':
            if (cli_parse_int(optarg, 1, KRN_MAX_ROWS, &v))
                return cli_usage("generate", "--chunk '%s': expected 1..%d", optarg, KRN_MAX_ROWS);
            o->gen.prefill_chunk = (int)v;
            break;
        case 'E': o->gen.stop_at_eos = false; break;
        case 'q': o->quiet = true; break;
        case 'h': fputs(cli__gen_help, stdout); return -1;
        default: return cli_usage("generate", "bad option");
        }
    }
    if (optind < argc) return cli_usage("generate", "unexpected argument '%s'", argv[optind]);
    if (!o->model) return cli_usage("generate", "no model given (-m MODEL)");
    if (!o->prompt == !o->file) return cli_usage("generate", "give exactly one of -p TEXT or -f FILE");
    return CLI_OK;
}

static const char *cli__stop_name(eng_stop s) {
    switch (s) {
    case ENG_STOP_EOS: return "eos";
    case ENG_STOP_CALLBACK: return "interrupted";
    case ENG_STOP_CONTEXT: return "context-full";
    default: return "length";
    }
}

static void cli__gen_report(const eng_gen_result *r, int32_t n_prompt) {
    double dec = r->decode_s > 0 ? (double)r->n_tokens / r->decode_s : 0.0;
    double pre = r->prefill_s > 0 ? (double)n_prompt / r->prefill_s : 0.0;
    fprintf(stderr, "sb generate: prompt_tokens=%d tokens=%d stop=%s "
            "prefill_tok_s=%.1f decode_tok_s=%.2f sha256=%s\n", (int)n_prompt,
            (int)r->n_tokens, cli__stop_name(r->stop), pre, dec, r->sha256);
}

static int cli__gen_run(const cli_gen_opts *o, eng_model *m, const char *text,
                        int64_t len) {
    /* At most 3 ids per input byte (an invalid byte becomes U+FFFD, three
     * bytes that may not merge), plus one. */
    int64_t cap = 3 * len + 1;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    if (!ids) return cli_fail("generate", "out of memory for the prompt");
    int64_t n = eng_tokenize(m, text, len, ids, cap);
    if (n < 0 || n > cap) {
        free(ids);
        return cli_fail("generate", "could not tokenize the prompt");
    }
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &o->eng, &err);
    int rc = CLI_FAIL;
    if (!s) {
        cli_fail("generate", "%s", err.msg);
        goto done;
    }
    cli_stream st = {.model = m, .quiet = o->quiet};
    eng_gen_result r;
    if (eng_generate(s, ids, (int32_t)n, &o->gen, cli__print_token, &st, &r, &err)) {
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
    cli__gen_report(&r, (int32_t)n);
    free(r.tokens);
    rc = CLI_OK;
done:
    eng_session_destroy(s);
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
        if (cli_read_file(o.file, &text, &len))
            return cli_fail("generate", "cannot read prompt file '%s': %m", o.file);
    } else {
        len = (int64_t)strlen(o.prompt);
        text = strdup(o.prompt);
        if (!text) return cli_fail("generate", "out of memory");
    }
    sb_err err = {0};
    eng_model *m = eng_model_load(o.model, &err);
    if (!m) {
        free(text);
        return cli_fail("generate", "%s", err.msg);
    }
    rc = cli__gen_run(&o, m, text, len);
    eng_model_free(m);
    free(text);
    return rc;
}
