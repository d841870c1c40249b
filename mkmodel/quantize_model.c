/*
 * quantize_model.c — sb quantize: rewrite a qwen2 GGUF (typically the F32
 * export of a trained model) with its weight matrices quantized.
 *
 * Placement is sb mkmodel's (mk_matrix_type, mkmodel/mkmodel_internal.h): Q8_0
 * quantizes every matrix; Q4_K_M places types as llama.cpp does. Vectors
 * (norms, biases) stay F32, and so does a matrix whose rows do not fit the
 * type's blocks. A row is dequantized to floats and quantized again with
 * the kernels' quantizers, so an F32 input gives exactly the bytes mkmodel
 * writes for the same floats.
 *
 * Metadata is copied key for key, in order, except general.file_type and
 * general.quantization_version, which describe the new tensors. Integer
 * scalars are written as u32 and f64 as f32 (the loader reads any integer or
 * float type that holds the value), bools as bools; numeric arrays other
 * than i32 / f32 have no writer yet and are refused, naming the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "gguf_write.h"
#include "mkmodel_internal.h"

/* ---- placement ---- */

/* The new type of tensor t: vectors F32; matrices per the recipe, or F32
 * when their rows do not fit the recipe's blocks. */
static krn_type quantize_model__target(const gguf_tensor *t, mk_recipe r, int n_layer,
                           bool tied) {
    bool matrix = t->n_dims >= 2 && t->ne[1] > 1;
    krn_type want = KRN_F32;
    if (matrix) want = mk_matrix_type(r, t->name, t->ne[0], n_layer, tied);
    uint64_t row;
    return krn_row_bytes(want, t->ne[0], &row) ? want : KRN_F32;
}

/* ---- metadata ---- */

static char *quantize_model__dup(gguf_str s) {
    char *p = malloc(s.len + 1);
    if (p) {
        memcpy(p, s.ptr, s.len);
        p[s.len] = '\0';
    }
    return p;
}

static int quantize_model__copy_array(const gguf_file *f, int64_t i, const char *key,
                          gguf_writer *w, sb_err *err) {
    gguf_vtype elem;
    uint64_t n;
    if (gguf_get_arr(f, key, &elem, &n, err)) return -1;
    if (elem == GGUF_I32 || elem == GGUF_U32 || elem == GGUF_F32) {
        const void *data = gguf_arr_data(f, i);
        if (elem == GGUF_I32) gguf_writer_set_arr_i32(w, key, data, n);
        else if (elem == GGUF_U32) gguf_writer_set_arr_u32(w, key, data, n);
        else gguf_writer_set_arr_f32(w, key, data, n);
        return 0;
    }
    if (elem != GGUF_STRING)
        return sb_err_set(err, __func__, "metadata key '%s' is an array of "
                          "type %d, which cannot be copied yet", key, (int)elem);
    char **v = calloc(n ? n : 1, sizeof *v);
    int rc = v ? 0 : sb_err_set(err, __func__, "out of memory for '%s'", key);
    for (uint64_t k = 0; !rc && k < n; k++)
        if (!(v[k] = quantize_model__dup(gguf_arr_str(f, i, k))))
            rc = sb_err_set(err, __func__, "out of memory for '%s'", key);
    if (!rc) gguf_writer_set_arr_str(w, key, (const char *const *)v, n);
    for (uint64_t k = 0; v && k < n; k++) free(v[k]);
    free(v);
    return rc;
}

static int quantize_model__copy_kv(const gguf_file *f, int64_t i, gguf_writer *w,
                       sb_err *err) {
    gguf_str k = gguf_kv_key(f, i);
    char key[GGUF_MAX_NAME + 1];
    snprintf(key, sizeof key, "%.*s", (int)k.len, k.ptr);
    if (!strcmp(key, "general.file_type") ||
        !strcmp(key, "general.quantization_version"))
        return 0;
    uint32_t u;
    float x;
    gguf_str s;
    switch (gguf_kv_type(f, i)) {
    case GGUF_U8: case GGUF_I8: case GGUF_U16: case GGUF_I16: case GGUF_U32:
    case GGUF_I32: case GGUF_U64: case GGUF_I64:
        if (gguf_get_u32(f, key, &u, err)) return -1;
        gguf_writer_set_u32(w, key, u);
        return 0;
    case GGUF_F32: case GGUF_F64:
        if (gguf_get_f32(f, key, &x, err)) return -1;
        gguf_writer_set_f32(w, key, x);
        return 0;
    case GGUF_STRING: {
        if (gguf_get_str(f, key, &s, err)) return -1;
        char *v = quantize_model__dup(s);
        if (!v) return sb_err_set(err, __func__, "out of memory for '%s'", key);
        gguf_writer_set_str(w, key, v);
        free(v);
        return 0;
    }
    case GGUF_BOOL: {
        bool b;
        if (gguf_get_bool(f, key, &b, err)) return -1;
        gguf_writer_set_bool(w, key, b);
        return 0;
    }
    case GGUF_ARRAY: return quantize_model__copy_array(f, i, key, w, err);
    }
    return sb_err_set(err, __func__, "metadata key '%s' has a type (%d) that "
                      "cannot be copied yet", key, (int)gguf_kv_type(f, i));
}

/* ---- tensors ---- */

typedef struct quantize_model__job {
    const gguf_file *in;
    krn_type *types;   /* new type per tensor, in file order */
    float *row;        /* one row of floats, the longest row */
} quantize_model__job;

/* Tensor i, row by row: the input row to floats, then to the new type. */
static int quantize_model__fill(void *ctx, int64_t i, void *buf, uint64_t nbytes,
                    sb_err *err) {
    quantize_model__job *j = ctx;
    const gguf_tensor *t = gguf_tensor_at(j->in, i);
    uint64_t rows = (uint64_t)t->ne[1];
    uint64_t src_row = t->nbytes / rows, dst_row = nbytes / rows;
    const unsigned char *src = t->data;
    for (uint64_t r = 0; r < rows; r++) {
        krn_dequantize_row(t->type, src + r * src_row, j->row, t->ne[0]);
        if (!krn_quantize_row(j->types[i], j->row,
                              (unsigned char *)buf + r * dst_row, t->ne[0]))
            return sb_err_set(err, __func__, "cannot quantize tensor '%s' to %s",
                              t->name, krn_type_name(j->types[i]));
    }
    return 0;
}

/* Plans the new tensors: their types, and one row buffer for the widest. */
static int quantize_model__plan(const gguf_file *in, mk_recipe r, gguf_writer *w,
                    quantize_model__job *j, sb_err *err) {
    uint32_t n_layer = 0;
    if (gguf_get_u32(in, "qwen2.block_count", &n_layer, err)) return -1;
    bool tied = !gguf_find_tensor(in, "output.weight");
    int64_t n = gguf_tensor_count(in), widest = 1;
    j->types = calloc((size_t)(n ? n : 1), sizeof *j->types);
    if (!j->types) return sb_err_set(err, __func__, "out of memory");
    for (int64_t i = 0; i < n; i++) {
        const gguf_tensor *t = gguf_tensor_at(in, i);
        if (t->n_dims > 2)
            return sb_err_set(err, __func__, "tensor '%s' has %u dimensions, "
                              "expected 1 or 2", t->name, (unsigned)t->n_dims);
        j->types[i] = quantize_model__target(t, r, (int)n_layer, tied);
        if (t->ne[0] > widest) widest = t->ne[0];
        gguf_writer_add_tensor(w, t->name, j->types[i], t->n_dims, t->ne);
    }
    j->row = malloc((size_t)widest * sizeof *j->row);
    if (!j->row) return sb_err_set(err, __func__, "out of memory");
    return 0;
}

int mk_model_quantize(const char *in_path, const char *out_path,
                       mk_recipe recipe, sb_err *err) {
    if ((unsigned)recipe > MK_RECIPE_Q4_K_M)
        return sb_err_set(err, __func__, "recipe %d is out of range",
                          (int)recipe);
    if (!strcmp(in_path, out_path))
        return sb_err_set(err, __func__, "the output '%s' is the input; write "
                          "to another file", out_path);
    /* The input must be a model the engine can run, not merely a GGUF. */
    eng_model *check = eng_model_load(in_path, err);
    if (!check) return -1;
    eng_model_free(check);
    gguf_file *in = gguf_open(in_path, err);
    gguf_writer *w = gguf_writer_create();
    quantize_model__job j = {.in = in};
    int rc = -1;
    if (!in || !w) {
        if (!w) sb_err_set(err, __func__, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < gguf_kv_count(in); i++)
        if (quantize_model__copy_kv(in, i, w, err)) goto done;
    gguf_writer_set_u32(w, "general.file_type", mk_recipe_ftype(recipe));
    if (recipe != MK_RECIPE_F32)
        gguf_writer_set_u32(w, "general.quantization_version", 2);
    if (quantize_model__plan(in, recipe, w, &j, err)) goto done;
    rc = gguf_writer_write(w, out_path, quantize_model__fill, &j, err);
done:
    free(j.types);
    free(j.row);
    gguf_writer_free(w);
    if (in) gguf_close(in);
    return rc;
}
