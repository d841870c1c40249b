/*
 * mkmodel.h — the public face of mkmodel/: making model files. The engine
 * loads models; this folder writes them: synthetic qwen2 models with seeded
 * random weights at real Qwen2.5 shapes (sb mkmodel, every test model), and
 * a model rewritten with its weight matrices quantized (sb quantize).
 *
 *     sb_err err = {0};
 *     mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_Q8_0,
 *                  .seed = 1};
 *     if (mk_model_write(&o, "tiny.gguf", &err)) ...
 *     eng_model *m = eng_model_load("tiny.gguf", &err);   // engine.h
 *
 * Files are written to a temporary beside PATH and renamed into place when
 * complete (base.h, sb_out), so a failed write never leaves a half file
 * under the name asked for, and a link or a device at PATH is refused.
 */
#ifndef SB_MKMODEL_H
#define SB_MKMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"

typedef enum mk_shape { MK_SHAPE_TINY, MK_SHAPE_0_5B, MK_SHAPE_1_5B,
                        MK_SHAPE_7B } mk_shape;
typedef enum mk_recipe { MK_RECIPE_F32, MK_RECIPE_Q8_0,
                         MK_RECIPE_Q4_K_M } mk_recipe;

typedef struct mk_opts {
    mk_shape shape;
    mk_recipe recipe;
    uint64_t seed;
    const char *vocab_json;  /* path of a tokenizer.json, or NULL */
    int n_threads;           /* 0: one per online CPU */
    bool progress;           /* report progress on stderr */
    int32_t window;          /* > 0: declare sliding-window attention of this
                                many positions (below the shape's context) */
} mk_opts;

/* Parses "tiny", "0.5b", "1.5b", "7b" / "f32", "q8_0", "q4_k_m". */
int mk_shape_parse(const char *s, mk_shape *out, sb_err *err);
int mk_recipe_parse(const char *s, mk_recipe *out, sb_err *err);

/* [mkmodel.c] Writes a synthetic qwen2 GGUF with seeded random weights:
 * the same bytes for the same options, every time. */
int mk_model_write(const mk_opts *o, const char *path, sb_err *err);

/* [quantize_model.c] Rewrites the qwen2 model at in_path to out_path (via
 * a temporary, base.h sb_out) with its weight matrices quantized as `recipe` places them
 * for sb mkmodel (q8_0: every matrix; q4_k_m: llama.cpp's Q4_K_M mix);
 * vectors stay F32, metadata is copied. An F32 input gives the bytes mkmodel
 * writes for the same floats. -1 with err naming the key or tensor. */
int mk_model_quantize(const char *in_path, const char *out_path,
                      mk_recipe recipe, sb_err *err);

#endif /* SB_MKMODEL_H */
