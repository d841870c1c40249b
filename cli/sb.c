/*
 * sb — the SonicBoom command line: a table of subcommands and a dispatcher.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cli_command;

static const cli_command cli__commands[] = {
    {"generate", cli_generate, "generate text from a prompt"},
    {"edit", cli_edit, "apply an instruction to a file"},
    {"draftsim", cli_draftsim, "project a drafter's speedup on a known edit"},
    {"bench", cli_bench, "the code-edit benchmark: speed off/on, ceilings, engine"},
    {"replay", cli_replay, "re-run a session log's edits, compare the tokens"},
    {"mkmodel", cli_mkmodel, "write a synthetic qwen2 GGUF model"},
    {"info", cli_info, "describe a GGUF model"},
    {"tokenize", cli_tokenize, "text on stdin to token ids"},
    {"detokenize", cli_detokenize, "token ids on stdin to text"},
    {"prompt", cli_prompt, "edit prompts as token ids (training data)"},
    {"quantize", cli_quantize, "quantize a GGUF model to q8_0 or q4_k_m"},
    {"logits", cli_logits, "dump full logit vectors for comparisons"},
    {"compare", cli_compare, "compare two logit dumps, or one with a reference"},
    {"warmup", cli_warmup, "export or import the warm-up table (configuration, fingerprint)"},
    {"verify", cli_verify, "check this machine's bits against a table's fingerprint"},
};

static void cli__help(FILE *out) {
    fprintf(out, "usage: sb COMMAND [options]   (sb COMMAND --help for its options)\n"
            "       sb --version\n\n");
    for (size_t i = 0; i < sizeof cli__commands / sizeof cli__commands[0]; i++)
        fprintf(out, "  %-11s %s\n", cli__commands[i].name, cli__commands[i].summary);
}

int main(int argc, char **argv) {
    /* A file size limit (ulimit -f) must fail the write with EFBIG, which
     * the writer reports in one line after removing its temporary, rather
     * than kill the process mid-file (docs/limits.md, "Files"). */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        cli__help(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        cli__help(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("sb %s (CUDA backend %s)\n", eng_version(),
               krn_cuda_built() ? "built" : "not built");
        return CLI_OK;
    }
    sb_err err = {0};
    if (krn_tuning_from_env(&cli_tuning, getenv, &err)) {
        fprintf(stderr, "sb: %s\n", err.msg);
        return CLI_USAGE;
    }
    opterr = 0; /* cli_bad_option says it, in one line */
    cli_argv = argv + 1;
    for (size_t i = 0; i < sizeof cli__commands / sizeof cli__commands[0]; i++)
        if (!strcmp(argv[1], cli__commands[i].name))
            return cli__commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "sb: unknown command '%s' (try sb --help)\n", argv[1]);
    return CLI_USAGE;
}
