/*
 * fuzz_gguf_seeds.c — writes the seeds of fuzz_gguf.c into a folder
 * (`make fuzz-seeds` writes tests/engine/corpus_gguf/): qwen2 models of a
 * "micro" shape, small enough for a fuzzer to mutate quickly (the tiny
 * shape is over a megabyte). One per recipe, f32 tied, q8_0 untied, and a
 * q4_k_m one whose rows are whole K-quant super-blocks (Q4_K, Q6_K).
 *
 *     fuzz_gguf_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../mkmodel/mkmodel_internal.h"

typedef struct seed {
    const char *file;
    mk_recipe recipe;
    int32_t n_embd, n_ff;
    bool tied;
} seed;

static const seed seeds[] = {
    {"micro_f32.gguf", MK_RECIPE_F32, 32, 64, true},
    {"micro_q8_0.gguf", MK_RECIPE_Q8_0, 32, 64, false},
    {"micro_q4_k_m.gguf", MK_RECIPE_Q4_K_M, 256, 256, true},
};

/* The tiny job cut down to one layer of s's width and 260 tokens. */
static int seed_write(const seed *s, const char *dir, sb_err *err) {
    mk_job job;
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = s->recipe, .seed = 1,
                 .n_threads = 1};
    if (mk_job_init(&job, &o, err)) return -1;
    job.shape.n_layer = 1;
    job.shape.n_embd = s->n_embd;
    job.shape.n_ff = s->n_ff;
    job.shape.n_head = 2;
    job.shape.n_head_kv = 1;
    job.shape.n_ctx = 64;
    job.shape.tied = s->tied;
    mk_vocab_free(&job.vocab);
    mk_plan_free(&job.plan);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, s->file);
    int rc = mk_vocab_builtin(260, &job.vocab, err) ? -1 : 0;
    job.shape.n_vocab = 260;
    if (!rc) rc = mk_plan_make(&job.shape, s->recipe, &job.plan, err);
    if (!rc) rc = mk_job_write(&job, path, err);
    mk_job_free(&job);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_gguf_seeds DIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        sb_err err = {0};
        if (seed_write(&seeds[i], argv[1], &err)) {
            fprintf(stderr, "fuzz_gguf_seeds: %s: %s\n", seeds[i].file, err.msg);
            return 1;
        }
    }
    return 0;
}
