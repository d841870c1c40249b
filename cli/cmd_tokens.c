/* sb tokenize / sb detokenize: text <-> token ids, through stdin/stdout. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Parses "-m MODEL" (the only option) and loads the model. */
static eng_model *cli__load_for(const char *cmd, int argc, char **argv, int *rc) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *path = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        if (c == 'm') {
            path = optarg;
        } else if (c == 'h') {
            printf("usage: sb %s -m MODEL < input\n", cmd);
            *rc = CLI_OK;
            return NULL;
        } else {
            *rc = cli_usage(cmd, "bad option");
            return NULL;
        }
    }
    if (!path || optind < argc) {
        *rc = cli_usage(cmd, "expected -m MODEL and input on stdin");
        return NULL;
    }
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) *rc = cli_fail(cmd, "%s", err.msg);
    return m;
}

int cli_tokenize(int argc, char **argv) {
    int rc = CLI_FAIL;
    eng_model *m = cli__load_for("tokenize", argc, argv, &rc);
    if (!m) return rc;
    char *text = NULL;
    int64_t len = 0;
    int32_t *ids = NULL;
    if (cli_read_file("-", &text, &len)) {
        rc = cli_fail("tokenize", "cannot read stdin: %m");
        goto done;
    }
    ids = malloc(((size_t)len + 1) * sizeof *ids);
    int64_t n = ids ? eng_tokenize(m, text, len, ids, len + 1) : -1;
    if (n < 0 || n > len + 1) {
        rc = cli_fail("tokenize", "could not tokenize the input");
        goto done;
    }
    for (int64_t i = 0; i < n; i++) printf("%s%d", i ? " " : "", (int)ids[i]);
    putchar('\n');
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
        int64_t len = 0;
        const char *bytes = eng_token_bytes(m, (int32_t)id, &len);
        if (!bytes || id < 0 || id >= eng_n_vocab(m))
            return cli_fail("detokenize", "token id %ld is out of range (0..%d)",
                            id, (int)eng_n_vocab(m) - 1);
        fwrite(bytes, 1, (size_t)len, stdout);
        p = end;
    }
    return CLI_OK;
}

int cli_detokenize(int argc, char **argv) {
    int rc = CLI_FAIL;
    eng_model *m = cli__load_for("detokenize", argc, argv, &rc);
    if (!m) return rc;
    char *text = NULL;
    int64_t len = 0;
    if (cli_read_file("-", &text, &len)) {
        rc = cli_fail("detokenize", "cannot read stdin: %m");
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
