/*
 * test_tuning.c — kernels/tuning.c: the kernel switches' environment
 * variables read into a krn_tuning (every accepted value, and each
 * malformed one an error naming the variable and the values it takes), and
 * every field's range checked at create (an error naming the field), on
 * the CPU backend, which refuses a bad CUDA switch too; and
 * docs/environment.md lists every variable. The environment here is a
 * table handed to krn_tuning_from_env, never the process's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../support/mem_model.h"

/* ---- a fake environment --------------------------------------------------- */

enum { MAX_VARS = 8 };
static const char *fake_names[MAX_VARS];
static char *fake_values[MAX_VARS];
static int fake_n;

static void fake_set(const char *name, const char *value) {
    fake_names[fake_n] = name;
    fake_values[fake_n++] = (char *)value;
}

static void fake_clear(void) { fake_n = 0; }

/* Every name krn_tuning_from_env asked for, in order: its table's. */
enum { MAX_ASKED = 32 };
static const char *asked[MAX_ASKED];
static int n_asked;

static char *fake_getenv(const char *name) {
    if (n_asked < MAX_ASKED) asked[n_asked++] = name;
    for (int i = 0; i < fake_n; i++)
        if (!strcmp(fake_names[i], name)) return fake_values[i];
    return NULL;
}

/* The tuning of the single variable name=value; it must parse. */
static krn_tuning parse_one(const char *name, const char *value) {
    fake_clear();
    fake_set(name, value);
    krn_tuning t;
    sb_err err = {0};
    if (krn_tuning_from_env(&t, fake_getenv, &err))
        fail_msg("%s=%s refused: %s", name, value, err.msg);
    return t;
}

static bool same_tuning(krn_tuning a, krn_tuning b) {
    return a.attention == b.attention && a.no_matmul_split == b.no_matmul_split &&
           a.mmvq_rows == b.mmvq_rows && a.mmvq_warps == b.mmvq_warps &&
           a.no_graphs == b.no_graphs && a.launch_overlap == b.launch_overlap &&
           a.profile == b.profile && a.cpu_isa == b.cpu_isa;
}

/* ---- the parser ------------------------------------------------------------- */

/* Nothing set, or every variable empty: every default (a zeroed tuning),
 * whatever *t held before. */
static void test_unset_is_default(void **state) {
    (void)state;
    krn_tuning t = {.attention = KRN_ATTN_REF, .mmvq_rows = 3, .profile = true};
    sb_err err = {0};
    fake_clear();
    assert_int_equal(krn_tuning_from_env(&t, fake_getenv, &err), 0);
    assert_true(same_tuning(t, (krn_tuning){0}));
    static const char *const names[] = {"SB_CUDA_ATTN", "SB_CUDA_SPLIT", "SB_CUDA_MMVQ",
                                        "SB_CUDA_MMVQ_WARPS", "SB_CUDA_GRAPHS",
                                        "SB_CUDA_PDL", "SB_CUDA_PROFILE", "SB_CPU_ISA"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) fake_set(names[i], "");
    assert_int_equal(krn_tuning_from_env(&t, fake_getenv, &err), 0);
    assert_true(same_tuning(t, (krn_tuning){0}));
}

/* Every accepted value lands in its field, as kernels.h documents it. */
static void test_each_value(void **state) {
    (void)state;
    static const struct {
        const char *name, *value;
        krn_tuning want;
    } cases[] = {
        {"SB_CUDA_ATTN", "auto", {.attention = KRN_ATTN_AUTO}},
        {"SB_CUDA_ATTN", "ref", {.attention = KRN_ATTN_REF}},
        {"SB_CUDA_ATTN", "rows", {.attention = KRN_ATTN_ROWS}},
        {"SB_CUDA_ATTN", "split", {.attention = KRN_ATTN_SPLIT}},
        {"SB_CUDA_SPLIT", "0", {.no_matmul_split = true}},
        {"SB_CUDA_SPLIT", "1", {0}},
        {"SB_CUDA_MMVQ", "0", {.mmvq_rows = KRN_TUNE_NONE}},
        {"SB_CUDA_MMVQ", "1", {.mmvq_rows = 1}},
        {"SB_CUDA_MMVQ", "8", {.mmvq_rows = 8}},
        {"SB_CUDA_MMVQ", "16", {.mmvq_rows = KRN_MMVQ_MAX_ROWS}},
        {"SB_CUDA_MMVQ_WARPS", "0", {0}},
        {"SB_CUDA_MMVQ_WARPS", "1", {.mmvq_warps = 1}},
        {"SB_CUDA_MMVQ_WARPS", "64", {.mmvq_warps = KRN_MMVQ_MAX_WARPS}},
        {"SB_CUDA_GRAPHS", "0", {.no_graphs = true}},
        {"SB_CUDA_GRAPHS", "1", {0}},
        {"SB_CUDA_PDL", "0", {.launch_overlap = KRN_TUNE_NONE}},
        {"SB_CUDA_PDL", "5", {.launch_overlap = 5}},
        {"SB_CUDA_PDL", "15", {.launch_overlap = KRN_LAUNCH_OVERLAP_ALL}},
        {"SB_CUDA_PROFILE", "1", {.profile = true}},
        {"SB_CUDA_PROFILE", "0", {0}},
        {"SB_CPU_ISA", "best", {.cpu_isa = KRN_ISA_CAP_BEST}},
        {"SB_CPU_ISA", "scalar", {.cpu_isa = KRN_ISA_CAP_SCALAR}},
        {"SB_CPU_ISA", "avx2", {.cpu_isa = KRN_ISA_CAP_AVX2}},
        {"SB_CPU_ISA", "avxvnni", {.cpu_isa = KRN_ISA_CAP_AVXVNNI}},
        {"SB_CPU_ISA", "avx512vnni", {.cpu_isa = KRN_ISA_CAP_AVX512VNNI}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const krn_tuning t = parse_one(cases[i].name, cases[i].value);
        if (!same_tuning(t, cases[i].want))
            fail_msg("%s=%s: not the documented field value", cases[i].name, cases[i].value);
        sb_err err = {0};
        assert_int_equal(krn_tuning_check(&t, &err), 0);
    }
}

/* All of them at once, as a device script sets several. */
static void test_several(void **state) {
    (void)state;
    fake_clear();
    fake_set("SB_CUDA_ATTN", "split");
    fake_set("SB_CUDA_GRAPHS", "0");
    fake_set("SB_CUDA_MMVQ", "16");
    fake_set("SB_CUDA_MMVQ_WARPS", "2");
    fake_set("SB_CUDA_PDL", "15");
    fake_set("SB_CPU_ISA", "avx2");
    krn_tuning t;
    sb_err err = {0};
    assert_int_equal(krn_tuning_from_env(&t, fake_getenv, &err), 0);
    assert_true(same_tuning(t, (krn_tuning){.attention = KRN_ATTN_SPLIT, .no_graphs = true,
                                            .mmvq_rows = 16, .mmvq_warps = 2,
                                            .launch_overlap = 15,
                                            .cpu_isa = KRN_ISA_CAP_AVX2}));
}

/* Each malformed value is an error naming the variable, the value and
 * what it accepts (so a typo in a device script stops the run instead of
 * timing the default kernels under the wrong name). */
static void test_malformed_named(void **state) {
    (void)state;
    static const struct {
        const char *name, *value, *accepts;
    } bad[] = {
        {"SB_CUDA_ATTN", "foo", "auto, ref, rows or split"},
        {"SB_CUDA_ATTN", "Rows", "auto, ref, rows or split"},
        {"SB_CUDA_SPLIT", "2", "0 or 1"},
        {"SB_CUDA_SPLIT", "off", "0 or 1"},
        {"SB_CUDA_MMVQ", "17", "0..16"},
        {"SB_CUDA_MMVQ", "-1", "0..16"},
        {"SB_CUDA_MMVQ", "8 ", "0..16"},
        {"SB_CUDA_MMVQ", "0x8", "0..16"},
        {"SB_CUDA_MMVQ", "99999", "0..16"},
        {"SB_CUDA_MMVQ_WARPS", "65", "0..64"},
        {"SB_CUDA_MMVQ_WARPS", "x", "0..64"},
        {"SB_CUDA_GRAPHS", "no", "0 or 1"},
        {"SB_CUDA_PDL", "16", "0..15"},
        {"SB_CUDA_PDL", "+5", "0..15"},
        {"SB_CUDA_PROFILE", "yes", "0 or 1"},
        {"SB_CPU_ISA", "avx512", "best, scalar, avx2, avxvnni or avx512vnni"},
        {"SB_CPU_ISA", "no-such-isa", "best, scalar, avx2, avxvnni or avx512vnni"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fake_clear();
        fake_set(bad[i].name, bad[i].value);
        krn_tuning t;
        sb_err err = {0};
        assert_int_equal(krn_tuning_from_env(&t, fake_getenv, &err), -1);
        if (!strstr(err.msg, bad[i].name) || !strstr(err.msg, bad[i].value) ||
            !strstr(err.msg, bad[i].accepts))
            fail_msg("%s=%s: '%s' lacks the variable, the value or '%s'", bad[i].name,
                     bad[i].value, err.msg, bad[i].accepts);
    }
}

/* docs/environment.md's "Kernel switches" table has a row for every
 * variable the reader asks for, and the reader asks for every row's. */
static void test_docs_list_every_variable(void **state) {
    (void)state;
    FILE *f = fopen("docs/environment.md", "rb");
    if (!f) fail_msg("cannot open docs/environment.md (run from the repository root)");
    static char doc[1 << 16];
    doc[fread(doc, 1, sizeof doc - 1, f)] = '\0';
    fclose(f);
    const char *table = strstr(doc, "## Kernel switches");
    assert_non_null(table);
    const char *end = strstr(table + 1, "\n## ");
    krn_tuning t;
    sb_err err = {0};
    fake_clear();
    n_asked = 0;
    assert_int_equal(krn_tuning_from_env(&t, fake_getenv, &err), 0);
    assert_int_equal(n_asked, 8);
    for (int i = 0; i < n_asked; i++) {
        char row[64];
        snprintf(row, sizeof row, "| `%s", asked[i]);
        const char *at = strstr(table, row);
        if (!at || (end && at > end))
            fail_msg("docs/environment.md, Kernel switches: no row for %s", asked[i]);
    }
    int rows = 0;
    for (const char *p = table; (p = strstr(p, "\n| `SB_")) && (!end || p < end); p++) rows++;
    assert_int_equal(rows, n_asked);
}

/* ---- the ranges, at create --------------------------------------------------- */

/* A field out of its range fails krn_tuning_check and krn_cpu_create
 * with an error naming it; the edges of each range are taken. */
static void test_ranges_at_create(void **state) {
    (void)state;
    tmodel *t = tm_create(&TM_SMALL, &(tm_types){.embd = KRN_Q8_0, .out = KRN_Q8_0,
                          .q = KRN_Q8_0, .k = KRN_Q8_0, .v = KRN_Q8_0, .o = KRN_Q8_0,
                          .gate = KRN_Q8_0, .up = KRN_Q8_0, .down = KRN_Q8_0}, 5);
    static const struct {
        krn_tuning tuning;
        const char *field;
    } bad[] = {
        {{.cpu_isa = (krn_isa_cap)5}, "tuning.cpu_isa"},
        {{.cpu_isa = (krn_isa_cap)-1}, "tuning.cpu_isa"},
        {{.attention = (krn_attn_kernel)4}, "tuning.attention"},
        {{.attention = (krn_attn_kernel)-1}, "tuning.attention"},
        {{.mmvq_rows = KRN_MMVQ_MAX_ROWS + 1}, "tuning.mmvq_rows"},
        {{.mmvq_rows = -2}, "tuning.mmvq_rows"},
        {{.mmvq_warps = KRN_MMVQ_MAX_WARPS + 1}, "tuning.mmvq_warps"},
        {{.mmvq_warps = -1}, "tuning.mmvq_warps"},
        {{.launch_overlap = KRN_LAUNCH_OVERLAP_ALL + 1}, "tuning.launch_overlap"},
        {{.launch_overlap = -2}, "tuning.launch_overlap"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_err err = {0};
        assert_int_equal(krn_tuning_check(&bad[i].tuning, &err), -1);
        if (!strstr(err.msg, bad[i].field)) fail_msg("'%s' lacks %s", err.msg, bad[i].field);
        err = (sb_err){0};
        const krn_options opt = {.n_threads = 1, .kv_capacity = 8, .tuning = bad[i].tuning};
        assert_null(krn_cpu_create(&t->m, &opt, &err));
        if (!strstr(err.msg, bad[i].field)) fail_msg("'%s' lacks %s", err.msg, bad[i].field);
    }
    static const krn_tuning good[] = {
        {.attention = KRN_ATTN_SPLIT, .mmvq_rows = KRN_MMVQ_MAX_ROWS,
         .mmvq_warps = KRN_MMVQ_MAX_WARPS, .launch_overlap = KRN_LAUNCH_OVERLAP_ALL,
         .cpu_isa = KRN_ISA_CAP_AVX512VNNI},
        {.mmvq_rows = KRN_TUNE_NONE, .launch_overlap = KRN_TUNE_NONE, .no_graphs = true,
         .no_matmul_split = true, .profile = true, .cpu_isa = KRN_ISA_CAP_SCALAR},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        sb_err err = {0};
        assert_int_equal(krn_tuning_check(&good[i], &err), 0);
        const krn_options opt = {.n_threads = 1, .kv_capacity = 8, .tuning = good[i]};
        krn_backend *b = krn_cpu_create(&t->m, &opt, &err);
        if (!b) fail_msg("krn_cpu_create: %s", err.msg);
        krn_destroy(b);
    }
    tm_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unset_is_default),
        cmocka_unit_test(test_each_value),
        cmocka_unit_test(test_several),
        cmocka_unit_test(test_malformed_named),
        cmocka_unit_test(test_docs_list_every_variable),
        cmocka_unit_test(test_ranges_at_create),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
