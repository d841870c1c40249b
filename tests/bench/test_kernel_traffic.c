/* bench/lib/kernel_traffic.c: the bytes kernel_lab holds a kernel against,
 * worked out by hand for the 7b shape (3584 wide, FFN 18944, 28 heads of
 * 128, 4 KV heads) from the formats' block sizes: Q4_K 144 bytes, Q6_K
 * 210 and Q8_0 34 a block. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../bench/lib/bench.h"

static const krn_model shape7b = {.n_layer = 28, .n_embd = 3584, .n_ff = 18944,
                                  .n_head = 28, .n_head_kv = 4, .head_dim = 128};

static krn_tensor mat(krn_type type, int64_t ne0, int64_t ne1) {
    return (krn_tensor){.type = type, .ne0 = ne0, .ne1 = ne1};
}

/* A row of 3584 quantized in groups of 32 (codes, 112 scales, 112 sums) and
 * of 256 (codes, 14 scales, 112 sums); 18944 = 74 super-blocks does both,
 * 96 only the first. */
static void test_act_quant_bytes(void **state) {
    (void)state;
    assert_int_equal(bench_act_quant_bytes(3584, 1),
                     (3584 + 112 * 4 + 112 * 2) + (3584 + 14 * 4 + 112 * 2));
    assert_int_equal(bench_act_quant_bytes(3584, 3), 3 * 8120);
    assert_int_equal(bench_act_quant_bytes(18944, 1),
                     (18944 + 592 * 4 + 592 * 2) + (18944 + 74 * 4 + 592 * 2));
    assert_int_equal(bench_act_quant_bytes(96, 2), 2 * (96 + 3 * 4 + 3 * 2));
}

/* q of the 7b shape: Q4_K, 3584 x 3584 with a bias, one row. */
static void test_matmul_one(void **state) {
    (void)state;
    const krn_tensor q = mat(KRN_Q4_K, 3584, 3584);
    const krn_tensor *w[] = {&q};
    bench_traffic t;
    sb_err err = {0};
    assert_int_equal(bench_matmul_traffic(w, 1, 1, true, false, &t, &err), 0);
    assert_int_equal(t.weights, 14ull * 144 * 3584);
    /* the input in groups of 256 with sums, and the bias */
    assert_int_equal(t.read, (3584 + 14 * 4 + 112 * 2) + 3584 * 4);
    assert_int_equal(t.written, 3584 * 4);
    assert_true(t.ops == 2.0 * 3584 * 3584);
    assert_int_equal(bench_traffic_bytes(&t), t.weights + t.read + t.written);
}

/* q, k (Q4_K) and v (Q6_K) of a more-bits layer at 4 rows: the input is
 * read once (one group size), each bias, each output. */
static void test_matmul_qkv(void **state) {
    (void)state;
    const krn_tensor q = mat(KRN_Q4_K, 3584, 3584), k = mat(KRN_Q4_K, 3584, 512),
                     v = mat(KRN_Q6_K, 3584, 512);
    const krn_tensor *w[] = {&q, &k, &v};
    bench_traffic t;
    sb_err err = {0};
    assert_int_equal(bench_matmul_traffic(w, 3, 4, true, false, &t, &err), 0);
    assert_int_equal(t.weights, 14ull * 144 * (3584 + 512) + 14ull * 210 * 512);
    assert_int_equal(t.read, 4 * (3584 + 14 * 4 + 112 * 2) + (3584 + 512 + 512) * 4);
    assert_int_equal(t.written, 4 * (3584 + 512 + 512) * 4);
    assert_true(t.ops == 2.0 * 3584 * 4608 * 4);
}

/* down, accumulating into x: its outputs are read and written; a Q6_K
 * matrix has no min term, so the input's sums are not read. */
static void test_matmul_accumulate(void **state) {
    (void)state;
    const krn_tensor down = mat(KRN_Q6_K, 18944, 3584);
    const krn_tensor *w[] = {&down};
    bench_traffic t;
    sb_err err = {0};
    assert_int_equal(bench_matmul_traffic(w, 1, 2, false, true, &t, &err), 0);
    assert_int_equal(t.weights, 74ull * 210 * 3584);
    assert_int_equal(t.read, 2 * (18944 + 74 * 4) + 2 * 3584 * 4);
    assert_int_equal(t.written, 2 * 3584 * 4);
}

/* A Q8_0 matrix reads the groups of 32 (no sums), a float one the floats:
 * one call with both reads the input both ways. */
static void test_matmul_other_types(void **state) {
    (void)state;
    const krn_tensor a = mat(KRN_Q8_0, 896, 128), b = mat(KRN_F32, 896, 64);
    const krn_tensor *w[] = {&a, &b};
    bench_traffic t;
    sb_err err = {0};
    assert_int_equal(bench_matmul_traffic(w, 2, 1, false, false, &t, &err), 0);
    assert_int_equal(t.weights, 28ull * 34 * 128 + 896ull * 4 * 64);
    assert_int_equal(t.read, (896 + 28 * 4) + 896 * 4);
    assert_int_equal(t.written, (128 + 64) * 4);
}

static void test_matmul_refused(void **state) {
    (void)state;
    const krn_tensor a = mat(KRN_Q4_K, 3584, 512), b = mat(KRN_Q4_K, 18944, 512),
                     odd = mat(KRN_Q4_K, 100, 16);
    const krn_tensor *two[] = {&a, &b}, *one[] = {&odd}, *ok[] = {&a};
    bench_traffic t;
    sb_err err = {0};
    assert_int_equal(bench_matmul_traffic(two, 2, 1, false, false, &t, &err), -1);
    assert_non_null(strstr(err.msg, "matrix 1 has 18944 inputs"));
    err = (sb_err){0};
    assert_int_equal(bench_matmul_traffic(one, 1, 1, false, false, &t, &err), -1);
    assert_non_null(strstr(err.msg, "not whole rows"));
    err = (sb_err){0};
    assert_int_equal(bench_matmul_traffic(ok, 1, 0, false, false, &t, &err), -1);
    assert_int_equal(bench_matmul_traffic(ok, 1, KRN_MAX_ROWS + 1, false, false, &t, &err), -1);
    assert_int_equal(bench_matmul_traffic(ok, 4, 1, false, false, &t, &err), -1);
}

static void test_row_ops(void **state) {
    (void)state;
    bench_traffic t = bench_rmsnorm_traffic(3584, 1);
    assert_int_equal(t.read, 3584 * 4 + 3584 * 4);
    assert_int_equal(t.written, 3584 * 4 + 8120);
    t = bench_quantize_traffic(3584, 2);
    assert_int_equal(t.read, 2 * 3584 * 4);
    assert_int_equal(t.written, 2 * 8120);
    t = bench_swiglu_traffic(18944, 1);
    assert_int_equal(t.read, 2 * 18944 * 4);
    assert_int_equal(t.written, 18944 * 4 + bench_act_quant_bytes(18944, 1));
    assert_true(t.ops == 0.0);
}

/* RoPE of one row: q (3584) and k (512) read and written, v read, a
 * 64-float cos and sin row, the position; K and V written as fp16. */
static void test_rope(void **state) {
    (void)state;
    const bench_traffic t = bench_rope_traffic(&shape7b, 1);
    assert_int_equal(t.read, 3584 * 4 + 512 * 4 + 512 * 4 + 2 * 64 * 4 + 4);
    assert_int_equal(t.written, 3584 * 4 + 512 * 4 + 2 * 512 * 2);
}

/* Attention at depth 4096: one row reaches 4097 keys of 512 fp16 K and V;
 * with a window of 1000, rows at 4096..4099 reach 3097..4099 together. */
static void test_attention(void **state) {
    (void)state;
    bench_traffic t = bench_attention_traffic(&shape7b, 4096, 1);
    assert_int_equal(t.read, 4097ull * 512 * 2 * 2 + 3584 * 4 + 4);
    assert_int_equal(t.written, 3584 * 4);
    t = bench_attention_traffic(&shape7b, 0, 1);
    assert_int_equal(t.read, 1ull * 512 * 2 * 2 + 3584 * 4 + 4);
    krn_model windowed = shape7b;
    windowed.window = 1000;
    t = bench_attention_traffic(&windowed, 4096, 4);
    assert_int_equal(t.read, 1003ull * 512 * 2 * 2 + 4 * 3584 * 4 + 4 * 4);
    t = bench_attention_traffic(&windowed, 500, 4); /* inside the window: all */
    assert_int_equal(t.read, 504ull * 512 * 2 * 2 + 4 * 3584 * 4 + 4 * 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_act_quant_bytes), cmocka_unit_test(test_matmul_one),
        cmocka_unit_test(test_matmul_qkv),      cmocka_unit_test(test_matmul_accumulate),
        cmocka_unit_test(test_matmul_other_types), cmocka_unit_test(test_matmul_refused),
        cmocka_unit_test(test_row_ops),         cmocka_unit_test(test_rope),
        cmocka_unit_test(test_attention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
