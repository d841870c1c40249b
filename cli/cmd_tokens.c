/* sb tokenize / sb detokenize: text <-> token ids, through stdin/stdout. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "cli.h"

static const char cli__tok_help[] =
    "usage: sb tokenize [-m MODEL] [--ids | --pieces] [--no-special] [--stats]"
    " < text\n"
    "  -m MODEL      GGUF model whose tokenizer to use (default: $SB_MODEL,\n"
    "                else the demo model beside sb)\n"
    "  --ids         the ids on one line, separated by spaces (default)\n"
    "  --pieces      one token per line: its id, a tab, and its bytes escaped\n"
    "                for the terminal (\\n \\t \\r \\\\, \\xHH for bytes that are\n"
    "                not whole UTF-8, \\u{H} for control and format characters)\n"
    "  --no-special  encode special-token text (<|im_end|>) as plain text\n"
    "  --stats       bytes, tokens and encode speed on stderr\n";

typedef struct cli__tok_opts {
    const char *model;
    bool pieces, no_special, stats;
} cli__tok_opts;

/* Returns -1 to go on, else the exit code. */
static int cli__tok_parse(int argc, char **argv, cli__tok_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"ids", 0, 0, 'i'}, {"pieces", 0, 0, 'p'},
        {"no-special", 0, 0, 'n'}, {"stats", 0, 0, 's'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'i': o->pieces = false; break;
        case 'p': o->pieces = true; break;
        case 'n': o->no_special = true; break;
        case 's': o->stats = true; break;
        case 'h': fputs(cli__tok_help, stdout); return CLI_OK;
        default: return cli_bad_option("tokenize");
        }
    }
    if (optind < argc)
        return cli_usage("tokenize", "unexpected argument '%s' (the text comes "
                         "on stdin)", argv[optind]);
    return -1;
}

/* Writes one token's bytes so a terminal shows them unambiguously: whole
 * printable UTF-8 characters as they are, everything else escaped. */
static void cli__put_escaped(const char *s, int64_t n, FILE *out) {
    const unsigned char *p = (const unsigned char *)s;
    for (int64_t i = 0; i < n;) {
        utf8proc_int32_t cp = -1;
        utf8proc_ssize_t k = utf8proc_iterate(p + i, n - i, &cp);
        if (k <= 0) {
            fprintf(out, "\\x%02x", p[i]);
            i++;
            continue;
        }
        utf8proc_category_t cat = utf8proc_category(cp);
        if (cp == '\n') fputs("\\n", out);
        else if (cp == '\t') fputs("\\t", out);
        else if (cp == '\r') fputs("\\r", out);
        else if (cp == '\\') fputs("\\\\", out);
        else if (cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF ||
                 cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP ||
                 cat == UTF8PROC_CATEGORY_CN || cat == UTF8PROC_CATEGORY_CO)
            fprintf(out, "\\u{%x}", (unsigned)cp);
        else fwrite(p + i, 1, (size_t)k, out);
        i += k;
    }
}

static void cli__print_ids(const eng_model *m, const int32_t *ids, int64_t n,
                           bool pieces) {
    for (int64_t i = 0; i < n; i++) {
        if (!pieces) {
            printf("%s%d", i ? " " : "", (int)ids[i]);
            continue;
        }
        int64_t len = 0;
        const char *b = eng_token_bytes(m, ids[i], &len);
        printf("%d\t", (int)ids[i]);
        cli__put_escaped(b, len, stdout);
        putchar('\n');
    }
    if (!pieces) putchar('\n');
}

int cli_tokenize(int argc, char **argv) {
    cli__tok_opts o = {0};
    int rc = cli__tok_parse(argc, argv, &o);
    if (rc >= 0) return rc;
    char default_model[4096];
    eng_model *m = cli_model_open("tokenize", &o.model, default_model,
                                  sizeof default_model);
    if (!m) return CLI_FAIL;
    char *text = NULL;
    int32_t *ids = NULL, n = 0;
    int64_t len = 0;
    rc = CLI_FAIL;
    if (cli_read_file("-", CLI_INPUT_MAX, &text, &len)) {
        cli_read_fail("tokenize", "the text", "-", CLI_INPUT_MAX, false);
        goto done;
    }
    double t0 = sb_now();
    if (cli_tokens(m, "tokenize", "text", text, len,
                   o.no_special ? 0 : ENG_TOK_SPECIAL, &ids, &n))
        goto done;
    double dt = sb_now() - t0;
    cli__print_ids(m, ids, n, o.pieces);
    if (o.stats)
        fprintf(stderr, "sb tokenize: bytes=%lld tokens=%lld encode_s=%.4f "
                "mb_s=%.2f\n", (long long)len, (long long)n, dt,
                dt > 0 ? (double)len / dt / 1e6 : 0.0);
    rc = CLI_OK;
done:
    free(ids);
    free(text);
    eng_model_free(m);
    return rc;
}

/* Writes the bytes of each id in the whitespace-separated list. */
static int cli__detok_text(const eng_model *m, const char *text) {
    const char *p = text;
    while (*p) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || (*end && !isspace((unsigned char)*end)))
            return cli_fail("detokenize", "'%.20s' is not a token id", p);
        if (id < 0 || id >= eng_n_vocab(m))
            return cli_fail("detokenize", "token id %ld is out of range (0..%d)",
                            id, (int)eng_n_vocab(m) - 1);
        int64_t len = 0;
        const char *bytes = eng_token_bytes(m, (int32_t)id, &len);
        fwrite(bytes, 1, (size_t)len, stdout);
        p = end;
    }
    return CLI_OK;
}

static const char cli__detok_help[] =
    "usage: sb detokenize [-m MODEL] < ids\n"
    "  writes the bytes of the whitespace-separated ids\n"
    "  -m MODEL      GGUF model whose vocabulary to use (default: $SB_MODEL,\n"
    "                else the demo model beside sb)\n";

int cli_detokenize(int argc, char **argv) {
    const char *path = NULL;
    int rc = cli_parse_model_opt("detokenize", argc, argv, cli__detok_help, &path);
    if (rc >= 0) return rc;
    if (optind < argc)
        return cli_usage("detokenize", "unexpected argument '%s' (the ids come "
                         "on stdin)", argv[optind]);
    char default_model[4096];
    eng_model *m = cli_model_open("detokenize", &path, default_model,
                                  sizeof default_model);
    if (!m) return CLI_FAIL;
    char *text = NULL;
    int64_t len = 0;
    if (cli_read_file("-", CLI_INPUT_MAX, &text, &len)) {
        rc = cli_read_fail("detokenize", "the ids", "-", CLI_INPUT_MAX, false);
    } else {
        char *z = realloc(text, (size_t)len + 1);
        if (!z) {
            rc = cli_fail("detokenize", "out of memory");
        } else {
            text = z;
            text[len] = '\0';
            rc = cli__detok_text(m, text);
        }
    }
    free(text);
    eng_model_free(m);
    return rc;
}
