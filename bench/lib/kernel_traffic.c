/*
 * kernel_traffic.c — the least bytes one launch of a backend operator moves
 * (bench.h, "One kernel's traffic"): the floor bench/programs/kernel_lab.cu
 * holds a kernel's time against. Sizes follow the CUDA backend's buffers
 * (kernels/cuda/cuda_backend.h): float activations, quantized rows in
 * act.cuh's layout, an fp16 KV cache.
 */
#include "bench.h"

uint64_t bench_traffic_bytes(const bench_traffic *t) {
    return t->weights + t->read + t->written;
}

/* One way of quantizing rows of n floats: codes, a scale a group, and (when
 * asked) a sum a 32-element block. */
static uint64_t kernel_traffic__act_way(int64_t n, int rows, int64_t group, bool sums) {
    const uint64_t per_row = (uint64_t)n + (uint64_t)(n / group) * sizeof(float) +
                             (sums ? (uint64_t)(n / KRN_QBLOCK) * sizeof(int16_t) : 0);
    return per_row * (uint64_t)rows;
}

uint64_t bench_act_quant_bytes(int64_t n, int rows) {
    uint64_t b = kernel_traffic__act_way(n, rows, KRN_QBLOCK, true);
    if (n % KRN_SUPER == 0) b += kernel_traffic__act_way(n, rows, KRN_SUPER, true);
    return b;
}

/* The ways a group of matrices reads its input, each counted once. */
typedef struct kernel_traffic__input {
    bool floats, g32, g256;      /* read as floats, in groups of 32, of 256 */
    bool g32_sums, g256_sums;    /* ... with the block sums (a min term) */
} kernel_traffic__input;

static void kernel_traffic__note_input(krn_type type, kernel_traffic__input *in) {
    if (!krn_type_is_quantized(type)) {
        in->floats = true;
    } else if (krn_act_group(type) == KRN_SUPER) {
        in->g256 = true;
        in->g256_sums |= krn_type_has_min(type);
    } else {
        in->g32 = true;
        in->g32_sums |= krn_type_has_min(type);
    }
}

static uint64_t kernel_traffic__input_bytes(const kernel_traffic__input *in, int64_t n,
                                            int rows) {
    uint64_t b = 0;
    if (in->floats) b += (uint64_t)n * (uint64_t)rows * sizeof(float);
    if (in->g32) b += kernel_traffic__act_way(n, rows, KRN_QBLOCK, in->g32_sums);
    if (in->g256) b += kernel_traffic__act_way(n, rows, KRN_SUPER, in->g256_sums);
    return b;
}

int bench_matmul_traffic(const krn_tensor *const *w, int n, int rows, bool bias,
                         bool accumulate, bench_traffic *t, sb_err *err) {
    *t = (bench_traffic){0};
    if (n < 1 || n > 3 || rows < 1 || rows > KRN_MAX_ROWS)
        return sb_err_set(err, __func__, "%d matrices of %d rows; expected 1..3 "
                          "matrices of 1..%d rows", n, rows, KRN_MAX_ROWS);
    kernel_traffic__input in = {0};
    for (int i = 0; i < n; i++) {
        uint64_t row = 0, all = 0;
        if (w[i]->ne0 != w[0]->ne0)
            return sb_err_set(err, __func__, "matrix %d has %lld inputs, matrix 0 "
                              "%lld; expected one input for all", i,
                              (long long)w[i]->ne0, (long long)w[0]->ne0);
        if (w[i]->ne1 < 1 || !krn_row_bytes(w[i]->type, w[i]->ne0, &row) ||
            !sb_mul_u64(row, (uint64_t)w[i]->ne1, &all))
            return sb_err_set(err, __func__, "matrix %d: [%lld, %lld] of %s is not "
                              "whole rows of whole blocks", i, (long long)w[i]->ne0,
                              (long long)w[i]->ne1, krn_type_name(w[i]->type));
        const uint64_t outs = (uint64_t)w[i]->ne1 * (uint64_t)rows * sizeof(float);
        t->weights += all;
        if (bias) t->read += (uint64_t)w[i]->ne1 * sizeof(float);
        if (accumulate) t->read += outs;
        t->written += outs;
        t->ops += 2.0 * (double)w[i]->ne0 * (double)w[i]->ne1 * rows;
        kernel_traffic__note_input(w[i]->type, &in);
    }
    t->read += kernel_traffic__input_bytes(&in, w[0]->ne0, rows);
    return 0;
}

bench_traffic bench_rmsnorm_traffic(int64_t n, int rows) {
    const uint64_t rowsf = (uint64_t)n * (uint64_t)rows * sizeof(float);
    return (bench_traffic){.read = rowsf + (uint64_t)n * sizeof(float),
                           .written = rowsf + bench_act_quant_bytes(n, rows)};
}

bench_traffic bench_quantize_traffic(int64_t n, int rows) {
    return (bench_traffic){.read = (uint64_t)n * (uint64_t)rows * sizeof(float),
                           .written = bench_act_quant_bytes(n, rows)};
}

bench_traffic bench_swiglu_traffic(int64_t n, int rows) {
    const uint64_t rowsf = (uint64_t)n * (uint64_t)rows * sizeof(float);
    return (bench_traffic){.read = 2 * rowsf,
                           .written = rowsf + bench_act_quant_bytes(n, rows)};
}

bench_traffic bench_rope_traffic(const krn_model *m, int rows) {
    const uint64_t r = (uint64_t)rows, f = sizeof(float);
    const uint64_t q = r * (uint64_t)m->n_head * (uint64_t)m->head_dim * f;
    const uint64_t kv = r * (uint64_t)m->n_head_kv * (uint64_t)m->head_dim * f;
    const uint64_t table = r * (uint64_t)(m->head_dim / 2) * f; /* cos or sin */
    return (bench_traffic){
        .read = q + kv + kv + 2 * table + r * sizeof(int32_t), /* q, k, v, cos, sin, pos */
        .written = q + kv + 2 * (kv / 2),                      /* q, k, fp16 K and V */
    };
}

bench_traffic bench_attention_traffic(const krn_model *m, int32_t depth, int rows) {
    /* Rows at depth .. depth + rows - 1 reach, together, positions
     * first .. depth + rows - 1. */
    const int64_t last = (int64_t)depth + rows - 1;
    const int64_t first = m->window > 0 && (int64_t)depth - m->window + 1 > 0
                              ? (int64_t)depth - m->window + 1
                              : 0;
    const uint64_t keys = (uint64_t)(last - first + 1);
    const uint64_t kv_dim = (uint64_t)m->n_head_kv * (uint64_t)m->head_dim;
    const uint64_t q = (uint64_t)rows * (uint64_t)m->n_head * (uint64_t)m->head_dim *
                       sizeof(float);
    return (bench_traffic){
        .read = 2 * keys * kv_dim * sizeof(uint16_t) + q + (uint64_t)rows * sizeof(int32_t),
        .written = q,
    };
}
