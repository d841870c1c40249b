/*
 * sb logits: the full logit vectors at a prompt's last position and after
 * each of the next STEPS greedy tokens, for comparing this engine with
 * another implementation id by id and logit by logit (sb compare reads the
 * files back).
 *
 * PREFIX.bin is the rows alone: float32 little-endian, n_vocab per row, no
 * header, so numpy.fromfile or torch can read it. PREFIX.json
 * (format "sb-logits-1") says what they are.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The rows are written as the host holds its floats. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sb logits writes float32 little-endian: a big-endian host needs a byte swap"
#endif

static const char cli__logits_help[] =
    "usage: sb logits [-m MODEL] (-p TEXT | -f FILE | --ids-in FILE) [options]\n"
    "                 --out PREFIX\n"
    "  -m, --model FILE     GGUF model (qwen2; default: $SB_MODEL, else the\n"
    "                       demo model beside sb)\n"
    "  -p, --prompt TEXT    prompt text (special-token text is matched, as in\n"
    "                       sb generate)\n"
    "  -f, --file FILE      read the prompt from FILE (- for stdin)\n"
    "      --ids-in FILE    the prompt as a JSON array of token ids, so a\n"
    "                       comparison does not depend on the tokenizer\n"
    "  -n, --steps N        greedy tokens fed after the prompt (default 0);\n"
    "                       the end-of-text token does not stop them\n"
    "  -o, --out PREFIX     write PREFIX.bin and PREFIX.json\n"
    "      --prompt-logits  also write a row for every earlier prompt\n"
    "                       position, as a transformers forward returns them\n"
    "      --device D       cpu or cuda (default cpu)\n"
    "      --threads N      CPU threads (default: all cores); never changes output\n"
    "      --chunk N        prompt rows per forward step, 1..1024 (default 64;\n"
    "                       above 64 the backend's scratch grows to N rows;\n"
    "                       --prompt-logits steps at most 64 rows);\n"
    "                       never changes output\n"
    "PREFIX.bin: float32 little-endian, one row of n_vocab logits per position:\n"
    "the last prompt position, then one after each greedy token (STEPS+1 rows;\n"
    "with --prompt-logits n_prompt+STEPS rows from position 0). Greedy is the\n"
    "largest logit, the lowest id on a tie. PREFIX.json: format, model path\n"
    "and SHA-256, n_vocab, device and device_name, engine_version,\n"
    "prompt_ids, greedy_ids, steps, first_position (of row 0), rows, layout\n"
    "and logits_file (the .bin's name, beside the .json). Each file is\n"
    "written whole or not at all.\n";

typedef struct cli_logits_opts {
    const char *model, *prompt, *file, *ids_in, *out;
    int32_t steps;
    int chunk;
    bool prompt_logits;
    eng_options eng;
} cli_logits_opts;

/* The files of one dump; each is written through sb_out (a temporary
 * renamed into place when whole). */
typedef struct cli_dump {
    char *bin, *json;
    sb_out out; /* the .bin's, open while the rows are written */
    FILE *f;    /* its stream */
} cli_dump;

/* Fills o from argv; returns CLI_OK, or an exit code to return at once
 * (-1 for --help, which exits 0). */
static int cli__logits_parse(int argc, char **argv, cli_logits_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"prompt", 1, 0, 'p'}, {"file", 1, 0, 'f'},
        {"ids-in", 1, 0, 'I'}, {"steps", 1, 0, 'n'}, {"out", 1, 0, 'o'},
        {"prompt-logits", 0, 0, 'P'}, {"device", 1, 0, 'D'},
        {"threads", 1, 0, 't'}, {"chunk", 1, 0, 'C'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    o->chunk = KRN_MAX_ROWS;
    long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:p:f:n:o:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'p': o->prompt = optarg; break;
        case 'f': o->file = optarg; break;
        case 'I': o->ids_in = optarg; break;
        case 'o': o->out = optarg; break;
        case 'P': o->prompt_logits = true; break;
        case 'n':
            if (cli_parse_int(optarg, 0, 1 << 24, &v))
                return cli_usage("logits", "-n '%s': expected 0..16777216", optarg);
            o->steps = (int32_t)v;
            break;
        case 'D':
            if (cli_opt_device("logits", optarg, &o->eng.device)) return CLI_USAGE;
            break;
        case 't':
            if (cli_opt_threads("logits", optarg, &o->eng.n_threads)) return CLI_USAGE;
            break;
        case 'C':
            if (cli_parse_int(optarg, 1, KRN_MAX_BATCH_ROWS, &v))
                return cli_usage("logits", "--chunk '%s': expected 1..%d", optarg,
                                 KRN_MAX_BATCH_ROWS);
            o->chunk = (int)v;
            o->eng.prefill_chunk = (int32_t)v; /* the backend's scratch above 64 */
            break;
        case 'h': fputs(cli__logits_help, stdout); return -1;
        default: return cli_bad_option("logits");
        }
    }
    if (optind < argc) return cli_usage("logits", "unexpected argument '%s'", argv[optind]);
    if (!!o->prompt + !!o->file + !!o->ids_in != 1)
        return cli_usage("logits", "give exactly one of -p TEXT, -f FILE or --ids-in FILE");
    if (!o->out || !*o->out) return cli_usage("logits", "no output given (--out PREFIX)");
    return CLI_OK;
}

/* The prompt's ids from -p, -f or --ids-in, malloc'd; CLI_OK or a failure
 * already reported. */
static int cli__logits_prompt(const cli_logits_opts *o, const eng_model *m,
                              int32_t **ids, int32_t *n) {
    if (o->ids_in) {
        json_error_t jerr;
        sb_err err = {0};
        FILE *in = strcmp(o->ids_in, "-") ? sb_fopen_read(o->ids_in, "--ids-in",
                                                          &err) : stdin;
        if (!in) return cli_fail("logits", "%s", err.msg);
        json_t *a = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
        if (in != stdin) fclose(in);
        if (!a && jerr.line > 0)
            return cli_fail("logits", "--ids-in '%s': %s (line %d)", o->ids_in,
                            jerr.text, jerr.line);
        if (!a) return cli_fail("logits", "--ids-in '%s': %s", o->ids_in, jerr.text);
        int rc = cli_ids_from_json("logits", "--ids-in", a, eng_n_vocab(m), ids, n);
        json_decref(a);
        return rc;
    }
    char *text = NULL;
    int64_t len = 0;
    if (o->file && cli_read_file(o->file, CLI_INPUT_MAX, &text, &len))
        return cli_read_fail("logits", "prompt file", o->file, CLI_INPUT_MAX,
                             false);
    int rc = cli_tokens(m, "logits", "prompt", o->file ? text : o->prompt,
                        o->file ? len : (int64_t)strlen(o->prompt),
                        ENG_TOK_SPECIAL, ids, n);
    free(text);
    return rc;
}

static int cli__rows_put(cli_dump *d, const float *rows, size_t n_floats) {
    if (fwrite(rows, sizeof *rows, n_floats, d->f) == n_floats) return CLI_OK;
    return cli_fail("logits", "cannot write '%s': %m", d->bin);
}

/* Feeds the prompt, then o->steps greedy tokens, writing the rows of logits
 * the layout asks for to d->f; greedy[0..steps-1] receives the tokens fed.
 * CLI_OK or a failure already reported. */
static int cli__logits_compute(const cli_logits_opts *o, eng_session *s,
                               const int32_t *ids, int32_t n, cli_dump *d,
                               int32_t *greedy) {
    size_t n_vocab = (size_t)eng_n_vocab(eng_session_model(s));
    float *rows = malloc((size_t)KRN_MAX_ROWS * n_vocab * sizeof *rows);
    if (!rows) return cli_fail("logits", "out of memory for %d rows of logits", KRN_MAX_ROWS);
    sb_err err = {0};
    int rc = CLI_FAIL;
    if (!o->prompt_logits) {
        if (eng_session_prefill(s, ids, n, o->chunk, rows, &err)) goto engine_err;
        if (cli__rows_put(d, rows, n_vocab)) goto done;
    }
    /* Every prompt row's logits: steps of at most 64 rows (kernels.h: a
     * batch's logits are its last 64 rows at most). */
    const int step = o->chunk < KRN_MAX_ROWS ? o->chunk : KRN_MAX_ROWS;
    for (int32_t done = 0, k = 0; o->prompt_logits && done < n; done += k) {
        k = n - done < step ? n - done : step;
        if (eng_session_step(s, ids + done, k, rows, &err)) goto engine_err;
        if (cli__rows_put(d, rows, (size_t)k * n_vocab)) goto done;
        /* Greedy decoding below starts from the last prompt row: row 0. */
        if (done + k == n)
            memmove(rows, rows + (size_t)(k - 1) * n_vocab, n_vocab * sizeof *rows);
    }
    const eng_sampling pick = {0}; /* temperature 0: greedy */
    for (int32_t i = 0; i < o->steps; i++) {
        greedy[i] = eng_sample(rows, (int32_t)n_vocab, &pick, eng_session_length(s));
        if (eng_session_step(s, &greedy[i], 1, rows, &err)) goto engine_err;
        if (cli__rows_put(d, rows, n_vocab)) goto done;
    }
    rc = CLI_OK;
    goto done;
engine_err:
    cli_fail("logits", "%s", err.msg);
done:
    free(rows);
    return rc;
}

/* PREFIX.json's text (caller frees), NULL when out of memory or when the
 * model path is not UTF-8 (JSON strings must be). */
static char *cli__logits_meta(const cli_logits_opts *o, eng_model *m,
                              const eng_session *s, const int32_t *ids,
                              int32_t n, const int32_t *greedy,
                              const char *bin_name) {
    int32_t first = o->prompt_logits ? 0 : n - 1;
    char layout[160];
    snprintf(layout, sizeof layout, "float32-le, (%s+steps) x n_vocab, row 0 = %s",
             o->prompt_logits ? "n_prompt" : "1",
             o->prompt_logits ? "prompt position 0" : "last prompt position");
    json_t *meta = json_pack(
        "{s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:i, s:i, s:i, s:s, s:s}",
        "format", "sb-logits-1", "model", o->model,
        "model_sha256", eng_model_sha256(m), "n_vocab", (json_int_t)eng_n_vocab(m),
        "device", o->eng.device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
        "device_name", eng_session_device_name(s),
        "engine_version", eng_version(),
        "prompt_ids", cli_ids_json(ids, n),
        "greedy_ids", cli_ids_json(greedy, o->steps),
        "steps", (json_int_t)o->steps, "first_position", (json_int_t)first,
        "rows", (json_int_t)(n - first + o->steps), "layout", layout,
        "logits_file", bin_name);
    char *text = meta ? json_dumps(meta, 0) : NULL;
    json_decref(meta);
    char *line = text ? cli_path_with(text, "\n") : NULL;
    free(text);
    return line;
}

/* Makes both files: the rows into PREFIX.bin's temporary, then the description;
 * PREFIX.bin and PREFIX.json appear only once both are whole (a failure
 * after the .bin's rename removes it, so no .json is left describing a
 * .bin it did not come with). */
static int cli__logits_write(const cli_logits_opts *o, eng_model *m,
                             eng_session *s, const int32_t *ids, int32_t n,
                             cli_dump *d) {
    int32_t *greedy = malloc(((size_t)o->steps + 1) * sizeof *greedy);
    if (!greedy) return cli_fail("logits", "out of memory for %d ids", (int)o->steps);
    char *meta = NULL;
    int rc = cli__logits_compute(o, s, ids, n, d, greedy);
    if (!rc) {
        const char *slash = strrchr(d->bin, '/');
        meta = cli__logits_meta(o, m, s, ids, n, greedy,
                                slash ? slash + 1 : d->bin);
        if (!meta) rc = cli_fail("logits", "cannot describe the dump in JSON "
                                 "(out of memory, or a model path that is not UTF-8)");
    }
    d->f = NULL;
    sb_err err = {0};
    if (rc) {
        sb_out_abort(&d->out);
    } else if (sb_out_commit(&d->out, &err)) {
        rc = cli_fail("logits", "%s", err.msg);
    } else if (sb_write_file(d->json, meta, strlen(meta), &err)) {
        rc = cli_fail("logits", "%s", err.msg);
        unlink(d->bin);
    }
    free(meta);
    free(greedy);
    return rc;
}

static int cli__logits_run(const cli_logits_opts *o, eng_model *m,
                           const int32_t *ids, int32_t n) {
    int64_t need = (int64_t)n + o->steps;
    if (need > eng_model_n_ctx(m))
        return cli_fail("logits", "%d prompt tokens and %d steps need %lld "
                        "positions; the model's context_length is %d", (int)n,
                        (int)o->steps, (long long)need, (int)eng_model_n_ctx(m));
    sb_err err = {0};
    eng_options eng = o->eng;
    eng.tuning = cli_tuning;
    eng.n_ctx = (int32_t)need;
    eng_session *s = eng_session_create(m, &eng, &err);
    if (!s) return cli_fail("logits", "%s", err.msg);
    cli_dump d = {.bin = cli_path_with(o->out, ".bin"),
                  .json = cli_path_with(o->out, ".json")};
    int rc;
    if (!d.bin || !d.json) {
        rc = cli_fail("logits", "out of memory");
    } else if (sb_out_create(&d.out, d.bin, &err) || !(d.f = sb_out_stream(&d.out))) {
        sb_out_abort(&d.out);
        rc = cli_fail("logits", "%s", err.msg[0] ? err.msg : "out of memory");
    } else {
        rc = cli__logits_write(o, m, s, ids, n, &d);
    }
    if (!rc)
        fprintf(stderr, "sb logits: prompt_tokens=%d steps=%d rows=%lld "
                "n_vocab=%d device=%s wrote %s and %s\n", (int)n, (int)o->steps,
                (long long)(o->prompt_logits ? need : o->steps + 1),
                (int)eng_n_vocab(m), o->eng.device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
                d.bin, d.json);
    free(d.bin);
    free(d.json);
    eng_session_destroy(s);
    return rc;
}

int cli_logits(int argc, char **argv) {
    cli_logits_opts o = {0};
    int rc = cli__logits_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    char default_model[4096];
    eng_model *m = cli_model_open("logits", &o.model, default_model,
                                  sizeof default_model);
    if (!m) return CLI_FAIL;
    int32_t *ids = NULL, n = 0;
    rc = cli__logits_prompt(&o, m, &ids, &n);
    if (!rc && n == 0) rc = cli_fail("logits", "the prompt has no tokens");
    if (!rc) rc = cli__logits_run(&o, m, ids, n);
    free(ids);
    eng_model_free(m);
    return rc;
}
