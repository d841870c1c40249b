/* sb quantize: a qwen2 GGUF with its weight matrices quantized. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char cli__quant_help[] =
    "usage: sb quantize IN OUT --type q8_0|q4_k_m|f32\n"
    "Rewrites the model IN as OUT (written to a temporary, then renamed) with its\n"
    "weight matrices quantized the way sb mkmodel places types: q8_0 for\n"
    "every matrix, or llama.cpp's Q4_K_M mix. Norms and biases stay f32;\n"
    "metadata (architecture, tokenizer) is copied.\n";

int cli_quantize(int argc, char **argv) {
    static const struct option longs[] = {
        {"type", 1, 0, 't'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    mk_recipe recipe = MK_RECIPE_Q8_0;
    const char *type = NULL;
    sb_err err = {0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(cli__quant_help, stdout);
            return CLI_OK;
        }
        if (c != 't') return cli_bad_option("quantize");
        if (mk_recipe_parse(optarg, &recipe, &err))
            return cli_usage("quantize", "--type: %s", err.msg);
        type = optarg;
    }
    if (argc - optind != 2)
        return cli_usage("quantize", "expected IN and OUT model paths");
    if (!type) return cli_usage("quantize", "no --type given");
    double t0 = sb_now();
    if (mk_model_quantize(argv[optind], argv[optind + 1], recipe, &err))
        return cli_fail("quantize", "%s", err.msg);
    fprintf(stderr, "sb quantize: %s -> %s (%s) in %.1f s\n", argv[optind],
            argv[optind + 1], type, sb_now() - t0);
    return CLI_OK;
}
