/*
 * mem_model.h — test support: tiny qwen2 models built in memory (no file),
 * with seeded random weights in any krn_type, for the backend tests.
 *
 *     tmodel *t = tm_create(&TM_SMALL, &(tm_types){...}, 11);
 *     krn_backend *b = krn_cpu_create(&t->m, &opt, &err);
 *     ...
 *     tm_free(t);
 */
#ifndef SB_TESTS_MEM_MODEL_H
#define SB_TESTS_MEM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../kernels/kernels.h"

typedef struct tm_shape {
    int n_layer, n_embd, n_ff, n_head, n_head_kv, hd, n_vocab;
} tm_shape;

/* 2 layers, 256 embd, 512 ff, 4 heads / 2 KV heads of 64, vocab 300. */
extern const tm_shape TM_SMALL;

typedef struct tm_types {
    krn_type embd, out, q, k, v, o, gate, up, down;
    bool tied; /* output = tok_embd (out ignored) */
} tm_types;

/* Every tensor of one type. */
tm_types tm_uniform_types(krn_type type, bool tied);

enum { TM_MAX_LAYER = 4, TM_MAX_BUFS = 64 };

typedef struct tmodel {
    tm_shape s;
    krn_model m;                       /* points into layers and bufs */
    krn_layer layers[TM_MAX_LAYER];
    void *bufs[TM_MAX_BUFS];           /* owned */
    int n_bufs;
} tmodel;

/* Matrices uniform in ±sqrt(3/n_in) (unit-scale outputs), the embedding
 * uniform in ±1, norms 1 ± 0.2, biases ±0.3; a pure function of the seed.
 * Q4_1/Q5_1, which krn_quantize_row does not make, get a min/max
 * quantizer here. Aborts on allocation failure. Free with tm_free. */
tmodel *tm_create(const tm_shape *shape, const tm_types *types, uint64_t seed);
void tm_free(tmodel *t);

#endif
