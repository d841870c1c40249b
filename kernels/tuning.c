/*
 * tuning.c — the kernel switches (kernels.h, krn_tuning): their ranges,
 * checked by every backend's create, and the one reader of their
 * environment variables, which only a program's main calls.
 *
 * One table lists the variables: each with the values it accepts, as the
 * error message shows them, and the parser that stores one into its field.
 * docs/environment.md ("Kernel switches") documents the same list.
 */
#include <string.h>

#include "backend_impl.h"

/* ---- the ranges --------------------------------------------------------- */

static int krn__tune_range(const char *field, int32_t v, int32_t lo, int32_t hi,
                           const char *what, sb_err *err) {
    if (v >= lo && v <= hi) return 0;
    return sb_err_set(err, "krn_create", "tuning.%s is %d; expected %d..%d (%s)", field,
                      (int)v, (int)lo, (int)hi, what);
}

int krn_tuning_check(const krn_tuning *t, sb_err *err) {
    if (!t) return 0;
    if (krn__tune_range("attention", (int32_t)t->attention, KRN_ATTN_AUTO, KRN_ATTN_SPLIT,
                        "krn_attn_kernel", err) ||
        krn__tune_range("mmvq_rows", t->mmvq_rows, KRN_TUNE_NONE, KRN_MMVQ_MAX_ROWS,
                        "0: the default, -1: none", err) ||
        krn__tune_range("mmvq_warps", t->mmvq_warps, 0, KRN_MMVQ_MAX_WARPS,
                        "0: a warp a chunk", err) ||
        krn__tune_range("launch_overlap", t->launch_overlap, KRN_TUNE_NONE,
                        KRN_LAUNCH_OVERLAP_ALL, "0: the default, -1: none", err) ||
        krn__tune_range("cpu_isa", (int32_t)t->cpu_isa, KRN_ISA_CAP_BEST,
                        KRN_ISA_CAP_AVX512VNNI, "krn_isa_cap", err))
        return -1;
    return 0;
}

/* ---- the environment's text forms ----------------------------------------- */

/* A decimal number of at most 4 digits, nothing else (no sign, no space):
 * the switches' numbers are small, and "8 " or "0x8" is a typo to report. */
static int krn__tune_int(const char *v, int32_t lo, int32_t hi, int32_t *out) {
    const size_t n = strlen(v);
    if (n < 1 || n > 4 || strspn(v, "0123456789") != n) return -1;
    int32_t x = 0;
    for (size_t i = 0; i < n; i++) x = x * 10 + (v[i] - '0');
    if (x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* The index of v in names[0..n), or -1. */
static int krn__tune_name(const char *v, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i])) return i;
    return -1;
}

static int krn__tune_attn(krn_tuning *t, const char *v) {
    static const char *const names[] = {"auto", "ref", "rows", "split"};
    const int i = krn__tune_name(v, names, 4);
    if (i < 0) return -1;
    t->attention = (krn_attn_kernel)i; /* names[] is in krn_attn_kernel's order */
    return 0;
}

static int krn__tune_cpu_isa(krn_tuning *t, const char *v) {
    static const char *const names[] = {"best", "scalar", "avx2", "avxvnni", "avx512vnni"};
    const int i = krn__tune_name(v, names, 5);
    if (i < 0) return -1;
    t->cpu_isa = (krn_isa_cap)i; /* names[] is in krn_isa_cap's order */
    return 0;
}

/* "0" or "1" into *on. */
static int krn__tune_bool(const char *v, bool *on) {
    if (strcmp(v, "0") && strcmp(v, "1")) return -1;
    *on = v[0] == '1';
    return 0;
}

static int krn__tune_split(krn_tuning *t, const char *v) {
    bool on;
    if (krn__tune_bool(v, &on)) return -1;
    t->no_matmul_split = !on;
    return 0;
}

static int krn__tune_graphs(krn_tuning *t, const char *v) {
    bool on;
    if (krn__tune_bool(v, &on)) return -1;
    t->no_graphs = !on;
    return 0;
}

static int krn__tune_profile(krn_tuning *t, const char *v) {
    return krn__tune_bool(v, &t->profile);
}

/* The variables' 0 is "none", which the field spells KRN_TUNE_NONE: its 0
 * is the default. */
static int krn__tune_mmvq(krn_tuning *t, const char *v) {
    if (krn__tune_int(v, 0, KRN_MMVQ_MAX_ROWS, &t->mmvq_rows)) return -1;
    if (t->mmvq_rows == 0) t->mmvq_rows = KRN_TUNE_NONE;
    return 0;
}

static int krn__tune_overlap(krn_tuning *t, const char *v) {
    if (krn__tune_int(v, 0, KRN_LAUNCH_OVERLAP_ALL, &t->launch_overlap)) return -1;
    if (t->launch_overlap == 0) t->launch_overlap = KRN_TUNE_NONE;
    return 0;
}

static int krn__tune_warps(krn_tuning *t, const char *v) {
    return krn__tune_int(v, 0, KRN_MMVQ_MAX_WARPS, &t->mmvq_warps);
}

typedef struct krn__tune_var {
    const char *name;    /* the environment variable */
    const char *accepts; /* its values, as an error states them */
    int (*parse)(krn_tuning *t, const char *v); /* -1: malformed, t untouched */
} krn__tune_var;

static const krn__tune_var krn__tune_vars[] = {
    {"SB_CUDA_ATTN", "auto, ref, rows or split", krn__tune_attn},
    {"SB_CUDA_SPLIT", "0 or 1", krn__tune_split},
    {"SB_CUDA_MMVQ", "a number of rows, 0..16 (0: none)", krn__tune_mmvq},
    {"SB_CUDA_MMVQ_WARPS", "warps per SM, 0..64 (0: a warp a chunk)", krn__tune_warps},
    {"SB_CUDA_GRAPHS", "0 or 1", krn__tune_graphs},
    {"SB_CUDA_PDL", "a mask, 0..15", krn__tune_overlap},
    {"SB_CUDA_PROFILE", "0 or 1", krn__tune_profile},
    {"SB_CPU_ISA", "best, scalar, avx2, avxvnni or avx512vnni", krn__tune_cpu_isa},
};

int krn_tuning_from_env(krn_tuning *t, char *(*lookup)(const char *name), sb_err *err) {
    *t = (krn_tuning){0};
    for (size_t i = 0; i < sizeof krn__tune_vars / sizeof krn__tune_vars[0]; i++) {
        const krn__tune_var *var = &krn__tune_vars[i];
        const char *v = lookup(var->name);
        if (!v || !*v) continue;
        if (var->parse(t, v))
            return sb_err_set(err, "environment", "%s is '%.40s'; expected %s", var->name,
                              v, var->accepts);
    }
    return 0;
}
