/*
 * mk_matrix_type (mkmodel/mkmodel.c), the one tensor-type placement of
 * sb mkmodel and sb quantize, by tensor name: llama.cpp's Q4_K_M rules for
 * names as they come from any file (test_mkmodel.c checks whole plans of
 * the real shapes), and llama.cpp's general.file_type numbers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../mkmodel/mkmodel_internal.h"

static krn_type q4km(const char *name, int64_t ne0, int n_layer, bool tied) {
    return mk_matrix_type(MK_RECIPE_Q4_K_M, name, ne0, n_layer, tied);
}

static void test_q4_k_m_by_name(void **state) {
    (void)state;
    /* the LM head: output.weight, or token_embd when tied */
    assert_int_equal(q4km("output.weight", 512, 28, false), KRN_Q6_K);
    assert_int_equal(q4km("token_embd.weight", 512, 28, true), KRN_Q6_K);
    assert_int_equal(q4km("token_embd.weight", 512, 28, false), KRN_Q4_K);
    /* use_more_bits(i, 28): i < 3, i >= 24, or (i - 3) % 3 == 2 */
    assert_int_equal(q4km("blk.2.attn_v.weight", 512, 28, false), KRN_Q6_K);
    assert_int_equal(q4km("blk.3.attn_v.weight", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("blk.5.ffn_down.weight", 512, 28, false), KRN_Q6_K);
    assert_int_equal(q4km("blk.6.ffn_down.weight", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("blk.24.attn_v.weight", 512, 28, false), KRN_Q6_K);
    /* other matrices of a more-bits layer stay Q4_K */
    assert_int_equal(q4km("blk.0.attn_k.weight", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("blk.0.ffn_up.weight", 512, 28, false), KRN_Q4_K);
    /* names that only look like a layer's attn_v are other matrices */
    assert_int_equal(q4km("blk.0.attn_v.weight.x", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("blk.x.attn_v.weight", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("blk.0attn_v.weight", 512, 28, false), KRN_Q4_K);
    assert_int_equal(q4km("xblk.0.attn_v.weight", 512, 28, false), KRN_Q4_K);
    /* rows that are not whole 256-weight super-blocks */
    assert_int_equal(q4km("blk.3.attn_q.weight", 896, 24, true), KRN_Q5_0);
    assert_int_equal(q4km("token_embd.weight", 896, 24, true), KRN_Q8_0);
    assert_int_equal(q4km("blk.0.attn_v.weight", 896, 24, true), KRN_Q8_0);
}

static void test_other_recipes(void **state) {
    (void)state;
    const char *names[] = {"token_embd.weight", "output.weight",
                           "blk.0.attn_v.weight", "blk.7.ffn_gate.weight"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(mk_matrix_type(MK_RECIPE_Q8_0, names[i], 896, 24,
                                            true), KRN_Q8_0);
        assert_int_equal(mk_matrix_type(MK_RECIPE_F32, names[i], 896, 24,
                                            true), KRN_F32);
    }
}

/* llama.cpp's LLAMA_FTYPE_ALL_F32, _MOSTLY_Q8_0, _MOSTLY_Q4_K_M. */
static void test_file_types(void **state) {
    (void)state;
    assert_int_equal(mk_recipe_ftype(MK_RECIPE_F32), 0);
    assert_int_equal(mk_recipe_ftype(MK_RECIPE_Q8_0), 7);
    assert_int_equal(mk_recipe_ftype(MK_RECIPE_Q4_K_M), 15);
    assert_int_equal(mk_recipe_ftype((mk_recipe)99), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q4_k_m_by_name),
        cmocka_unit_test(test_other_recipes),
        cmocka_unit_test(test_file_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
