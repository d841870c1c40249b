/* sb mkmodel and sb info: make a synthetic model, describe any model. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *cli__mk_help =
    "usage: sb mkmodel --shape tiny|0.5b|1.5b|7b --quant f32|q8_0|q4_k_m\n"
    "                  [--seed N] [--vocab tokenizer.json] [--threads N]\n"
    "                  [--window N] -o FILE\n"
    "Writes a qwen2 GGUF with seeded random weights at a real Qwen2.5 shape:\n"
    "the same bytes for the same options on every machine. q4_k_m places\n"
    "Q4_K/Q6_K (with llama.cpp's Q5_0/Q8_0 fallbacks) as llama.cpp's Q4_K_M\n"
    "does. Without --vocab the vocabulary is a built-in byte-level one;\n"
    "with it, the tiny shape grows its vocabulary to the tokenizer's size\n"
    "(rounded up to a multiple of 64), the real shapes keep theirs.\n"
    "--window N declares sliding-window attention over the last N positions\n"
    "(qwen2.attention.sliding_window), as some Qwen2 models do.\n";

int cli_mkmodel(int argc, char **argv) {
    static const struct option longs[] = {
        {"shape", 1, 0, 's'}, {"quant", 1, 0, 'q'}, {"seed", 1, 0, 'S'},
        {"vocab", 1, 0, 'v'}, {"threads", 1, 0, 't'}, {"output", 1, 0, 'o'},
        {"quiet", 0, 0, 'Q'}, {"window", 1, 0, 'w'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_Q8_0,
                          .progress = true};
    const char *out = NULL;
    sb_err err = {0};
    long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longs, NULL)) != -1) {
        switch (c) {
        case 's':
            if (mk_shape_parse(optarg, &o.shape, &err)) return cli_usage("mkmodel", "%s", err.msg);
            break;
        case 'q':
            if (mk_recipe_parse(optarg, &o.recipe, &err)) return cli_usage("mkmodel", "%s", err.msg);
            break;
        case 'S':
            if (cli_parse_u64(optarg, &o.seed))
                return cli_usage("mkmodel", "--seed '%s': expected an unsigned integer", optarg);
            break;
        case 'v': o.vocab_json = optarg; break;
        case 't':
            if (cli_parse_int(optarg, 1, 1024, &v))
                return cli_usage("mkmodel", "--threads '%s': expected 1..1024", optarg);
            o.n_threads = (int)v;
            break;
        case 'o': out = optarg; break;
        case 'Q': o.progress = false; break;
        case 'w':
            if (cli_parse_int(optarg, 0, 1 << 30, &v))
                return cli_usage("mkmodel", "--window '%s': expected a position count", optarg);
            o.window = (int32_t)v;
            break;
        case 'h': fputs(cli__mk_help, stdout); return CLI_OK;
        default: return cli_bad_option("mkmodel");
        }
    }
    if (optind < argc) return cli_usage("mkmodel", "unexpected argument '%s'", argv[optind]);
    if (!out) return cli_usage("mkmodel", "no output file given (-o FILE)");
    if (mk_model_write(&o, out, &err)) return cli_fail("mkmodel", "%s", err.msg);
    return CLI_OK;
}

static const char cli__info_help[] =
    "usage: sb info [MODEL | -m MODEL]\n"
    "Prints the architecture, shapes, tensor types and bytes of a GGUF model,\n"
    "after validating it. Without MODEL: $SB_MODEL, else the demo model\n"
    "beside sb.\n";

int cli_info(int argc, char **argv) {
    const char *path = NULL;
    int rc = cli_parse_model_opt("info", argc, argv, cli__info_help, &path);
    if (rc >= 0) return rc;
    if (optind < argc && !path) path = argv[optind++];
    if (optind < argc) return cli_usage("info", "expected at most one MODEL");
    char default_model[4096];
    eng_model *m = cli_model_open("info", &path, default_model,
                                  sizeof default_model);
    if (!m) return CLI_FAIL;
    printf("file:          %s\n", path); /* the default's, when none given */
    eng_model_describe(m, stdout);
    eng_model_free(m);
    return CLI_OK;
}
