/*
 * test_qdot.c — kernels/cpu/qdot.h: every fused quantized dot kernel gives
 * the bits of the scalar reference (krn_unpack_row + krn_dot_q) on random
 * blocks of every type, at row lengths that cut the chunks unevenly, for
 * 1..64 activation rows at once, and at the integer extremes; attention's
 * SIMD versions (AVX2, AVX-512), one head or a group of query heads
 * sharing a KV head, give attention.c's bits on random and extreme heads,
 * windows and rings; a cap (krn_tuning.cpu_isa) picks the best
 * instruction set the CPU runs at or below it, and the backend runs it;
 * and a whole forward pass gives the same logits on every instruction set
 * the CPU has.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cpu/cpu_backend.h"
#include "../../kernels/cpu/qdot.h"

#if KRN_CPU_HAVE_X86
#define KRN__T __attribute__((target("avx2,f16c")))
#include "../../kernels/cpu/exp_avx2.h"
#endif
#include "../support/float_bits.h"
#include "../support/mem_model.h"

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    assert_non_null(p);
    return p;
}

static uint64_t rnd(uint64_t seed, uint64_t i) { return sb_hash3(seed, i, 7); }

static const krn_type QTYPES[] = {KRN_Q4_0, KRN_Q4_1, KRN_Q5_0, KRN_Q5_1,
                                  KRN_Q8_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
enum { NQTYPES = sizeof QTYPES / sizeof QTYPES[0] };

/* The types with a fused kernel on every instruction set above scalar. */
static bool fused_type(krn_type t) {
    return t != KRN_Q4_1 && t != KRN_Q5_1;
}

/* Byte offsets of a block's half-precision fields (d, and dmin or m). */
static int half_offsets(krn_type t, int off[2]) {
    switch (t) {
    case KRN_Q6_K: off[0] = 208; return 1;
    case KRN_Q4_1: case KRN_Q5_1: case KRN_Q4_K: case KRN_Q5_K:
        off[0] = 0; off[1] = 2; return 2;
    default: off[0] = 0; return 1;
    }
}

/* How a test row's bytes are chosen. */
typedef enum fill { FILL_RANDOM, FILL_ZERO, FILL_ONES } fill;

/* A weight row of nb 32-element blocks: every byte random (all codes and
 * scale bits), 0x00 or 0xFF, then finite halves of random sign and
 * magnitude in [2^-8, 2) as the scales (a random NaN scale would make the
 * comparison meaningless). Caller frees. */
static uint8_t *weight_row(krn_type t, int64_t nb, uint64_t seed, fill f) {
    uint64_t bytes = 0;
    assert_true(krn_row_bytes(t, nb * 32, &bytes));
    uint8_t *row = xmalloc((size_t)bytes);
    for (uint64_t i = 0; i < bytes; i++)
        row[i] = f == FILL_RANDOM ? (uint8_t)rnd(seed, i) : f == FILL_ZERO ? 0 : 0xFF;
    const int64_t bb = krn_type_block_bytes(t);
    int off[2];
    const int nh = half_offsets(t, off);
    for (int64_t b = 0; b < (int64_t)bytes / bb; b++)
        for (int k = 0; k < nh; k++) {
            const uint64_t h = rnd(seed ^ 0x5EEDu, (uint64_t)(2 * b + k));
            const uint16_t v = (uint16_t)(((7 + h % 8) << 10) | ((h >> 8) & 0x3FF) |
                                          (((h >> 20) & 1) << 15));
            row[b * bb + off[k]] = (uint8_t)v;
            row[b * bb + off[k] + 1] = (uint8_t)(v >> 8);
        }
    return row;
}

/* Activation row r of n floats: rows of different scales, a zero row
 * (dx = 0), rows of one spike (most codes 0), and rows at full scale
 * everywhere (codes ±127: the products' extremes). */
static void act_floats(float *x, int64_t n, int r, uint64_t seed) {
    for (int64_t i = 0; i < n; i++) {
        const uint64_t h = rnd(seed + (uint64_t)r, (uint64_t)i);
        const float u = (float)(h >> 40) / (float)(1ull << 24) * 2.0f - 1.0f;
        switch (r % 5) {
        case 0: x[i] = u * (float)(1 + r); break;
        case 1: x[i] = r == 1 ? 0.0f : u * 1e-3f; break;
        case 2: x[i] = i % 97 == 3 ? 50.0f : u * 1e-6f; break;
        case 3: x[i] = (h & 1) ? 8.0f : -8.0f; break;
        default: x[i] = u * 1e4f; break;
        }
    }
}

/* n_rows activation rows of nb blocks each at a stride of xs blocks,
 * quantized in the groups type t's matmul uses. Caller frees. */
static krn_act_block *act_rows(krn_type t, int64_t nb, int64_t xs, int n_rows,
                               uint64_t seed) {
    krn_act_block *x = xmalloc(sizeof *x * (size_t)(xs * n_rows));
    memset(x, 0, sizeof *x * (size_t)(xs * n_rows));
    float *f = xmalloc(sizeof *f * (size_t)(nb * 32));
    for (int r = 0; r < n_rows; r++) {
        act_floats(f, nb * 32, r, seed);
        krn_quantize_act(f, x + r * xs, nb * 32, krn_act_group(t));
    }
    free(f);
    return x;
}

/* The fused kernel of t on isa against the reference, for a tile of the
 * first n_out weight rows (row_bytes apart) and every activation row. */
static void check_tile(krn_type t, krn_cpu_isa isa, const uint8_t *w,
                       uint64_t row_bytes, int n_out, const krn_act_block *x,
                       int64_t xs, int n_rows, int64_t nb) {
    const krn_cpu_qdot_fn f = krn_cpu_qdot(t, isa);
    assert_non_null(f);
    krn_wblock *wb = xmalloc(sizeof *wb * (size_t)nb);
    const int tw = krn_cpu_qdot_width(isa);
    static float dots[KRN_MAX_ROWS * KRN_CPU_TILE_MAX];
    memset(dots, 0xA5, sizeof dots);
    f(w, row_bytes, n_out, x, xs, n_rows, nb, dots);
    for (int i = 0; i < n_out; i++) {
        krn_unpack_row(t, w + (uint64_t)i * row_bytes, wb, nb * 32);
        for (int r = 0; r < n_rows; r++) {
            const float got = dots[r * tw + i];
            const float want = krn_dot_q(wb, x + r * xs, nb, t);
            if (f32_bits(got) != f32_bits(want))
                fail_msg("%s on %s, %lld blocks, weight row %d of %d, "
                         "activation row %d of %d: got %a (0x%08x), reference "
                         "%a (0x%08x)", krn_type_name(t), krn_cpu_isa_name(isa),
                         (long long)nb, i, n_out, r, n_rows, (double)got,
                         (unsigned)f32_bits(got), (double)want,
                         (unsigned)f32_bits(want));
        }
    }
    free(wb);
}

/* Block counts: one block, short rows, rows that leave a short last chunk
 * or a short last batch of 8, and the 0.5b shape's 896 and 4864. */
static const int64_t NB_LEGACY[] = {1, 2, 7, 8, 9, 17, 28, 33, 152};
static const int64_t NB_KQUANT[] = {8, 16, 24, 72, 152, 200};

static void check_type(krn_type t, krn_cpu_isa isa, fill f) {
    const bool kq = krn_type_is_kquant(t);
    const int64_t *nbs = kq ? NB_KQUANT : NB_LEGACY;
    const int n_nb = kq ? (int)(sizeof NB_KQUANT / sizeof *NB_KQUANT)
                        : (int)(sizeof NB_LEGACY / sizeof *NB_LEGACY);
    for (int i = 0; i < n_nb; i++) {
        const int64_t nb = nbs[i], xs = nb + 3; /* a stride wider than a row */
        for (uint64_t seed = 1; seed <= 2; seed++) {
            /* a tile's weight rows, each random (or all 0x00 / 0xFF) */
            const int tw = krn_cpu_qdot_width(isa);
            uint64_t rb = 0;
            assert_true(krn_row_bytes(t, nb * 32, &rb));
            uint8_t *w = weight_row(t, nb * tw, seed * 131 + (uint64_t)t, f);
            krn_act_block *x = act_rows(t, nb, xs, KRN_MAX_ROWS, seed);
            /* full and partial tiles; on 16-wide ones, partial in each half */
            static const int ROWS[] = {1, 1, 2, 5, 64, 1, 3, 64, 2},
                             OUTS[] = {99, 3, 1, 3, 7, 11, 99, 12, 8};
            for (int k = 0; k < 9; k++)
                check_tile(t, isa, w, rb, OUTS[k] < tw ? OUTS[k] : tw, x, xs,
                           ROWS[k], nb);
            free(w);
            free(x);
        }
    }
}

static void check_isa(krn_cpu_isa isa) {
    for (int i = 0; i < NQTYPES; i++) {
        const krn_type t = QTYPES[i];
        if (!krn_cpu_qdot(t, isa)) {
            /* Only the types the reference runs everywhere may lack one. */
            assert_false(fused_type(t));
            continue;
        }
        check_type(t, isa, FILL_RANDOM);
        check_type(t, isa, FILL_ZERO);
        check_type(t, isa, FILL_ONES);
    }
}

static void test_isa_choice(void **state) {
    (void)state;
    const krn_cpu_isa best = krn_cpu_isa_best();
    printf("# this CPU runs: %s\n", krn_cpu_isa_name(best));
#if KRN_CPU_HAVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw"))
        assert_int_equal(best, KRN_CPU_ISA_AVX512);
    else if (__builtin_cpu_supports("avx2"))
        assert_true(best == KRN_CPU_ISA_AVX2 || best == KRN_CPU_ISA_AVXVNNI);
#endif
    assert_true(krn_cpu_isa_has(best));
    assert_int_equal(krn_cpu_isa_pick(KRN_ISA_CAP_BEST), best);
    assert_int_equal(krn_cpu_isa_pick(KRN_ISA_CAP_AVX512VNNI), best);
    assert_int_equal(krn_cpu_isa_pick(KRN_ISA_CAP_SCALAR), KRN_CPU_ISA_SCALAR);
    if (best >= KRN_CPU_ISA_AVX2)
        assert_int_equal(krn_cpu_isa_pick(KRN_ISA_CAP_AVX2), KRN_CPU_ISA_AVX2);
    /* every cap: the best this CPU runs at or below it (cap - 1 in
     * krn_cpu_isa's numbering), never above; AVX-VNNI only where the CPU
     * has it, else AVX2 below it */
    for (int cap = KRN_ISA_CAP_SCALAR; cap <= KRN_ISA_CAP_AVX512VNNI; cap++) {
        const krn_cpu_isa got = krn_cpu_isa_pick((krn_isa_cap)cap);
        assert_true((int)got <= cap - 1);
        assert_true(krn_cpu_isa_has(got));
        for (int i = (int)got + 1; i <= cap - 1; i++)
            assert_false(krn_cpu_isa_has((krn_cpu_isa)i));
    }
    for (int i = 0; i < NQTYPES; i++)
        assert_null(krn_cpu_qdot(QTYPES[i], KRN_CPU_ISA_SCALAR));
    assert_null(krn_cpu_qdot(KRN_F32, best));
}

static void test_fused_equals_reference(void **state) {
    (void)state;
    int tested = 0;
    for (int isa = KRN_CPU_ISA_SCALAR + 1; isa <= (int)krn_cpu_isa_best(); isa++) {
        if (!krn_cpu_isa_has((krn_cpu_isa)isa)) { /* AVX-512 without AVX-VNNI */
            printf("# this CPU lacks %s\n", krn_cpu_isa_name((krn_cpu_isa)isa));
            continue;
        }
        printf("# fused kernels on %s\n", krn_cpu_isa_name((krn_cpu_isa)isa));
        check_isa((krn_cpu_isa)isa);
        tested++;
    }
    if (!tested)
        printf("# this CPU has no fused kernels: the scalar path only\n");
}

/* ---- attention ------------------------------------------------------------- */

/* How a test head's query and keys are chosen (values are random in ±1). */
typedef enum akind {
    AK_RANDOM,   /* keys in ±4, q in ±2 */
    AK_SHARP,    /* q in ±60: most p_t underflow (exp8's scalar lanes) */
    AK_ZERO_MAX, /* q > 0, keys <= 0, every 5th key ±0: chunk maxima of
                    exactly 0 (the scalar maximum's zero rule) */
    AK_TIES,     /* keys repeating every 3 slots: the maximum tied */
    AK_ZERO_Q,   /* q = ±0: every score 0 */
    AK_NAN,      /* a NaN half in every 37th key: NaN scores (NaN out) */
    AK_EXTREME,  /* halves of every exponent: ±65504, subnormals, ±0 */
    AK_COUNT
} akind;

static const char *const AK_NAMES[AK_COUNT] = {"random", "sharp", "zero max", "ties",
                                               "zero q", "NaN", "extreme"};

/* A half in [-1, 1) · scale from hash h. */
static uint16_t half_of(uint64_t h, float scale) {
    return krn_fp32_to_fp16(((float)(h & 0xFFFF) / 32768.0f - 1.0f) * scale);
}

/* Half i of the keys (slot i / stride) for kind ak. */
static uint16_t key_half(akind ak, int64_t i, int64_t stride) {
    const uint64_t h = rnd(77, (uint64_t)i);
    const int64_t slot = i / stride;
    switch (ak) {
    case AK_ZERO_MAX:
        if (slot % 5 == 2) return (h >> 20 & 1) ? 0x8000 : 0x0000;
        return half_of(h, 4.0f) | 0x8000;
    case AK_TIES: return half_of(rnd(77, (uint64_t)(slot % 3 * stride + i % stride)), 4.0f);
    case AK_NAN:
        return slot % 37 == 11 && i % stride == 5 ? 0x7E00 : half_of(h, 4.0f);
    case AK_EXTREME: {
        const uint16_t x = (uint16_t)(h >> 16);
        return (x & 0x7C00) == 0x7C00 ? (uint16_t)(x & 0xFBFF) : x; /* finite */
    }
    default: return half_of(h, 4.0f);
    }
}

/* Element d of the query for kind ak and window c. */
static float query_elem(akind ak, int c, int32_t d) {
    const float u = (float)(rnd(91 + (uint64_t)c, (uint64_t)d) & 0xFFFF) / 32768.0f - 1.0f;
    switch (ak) {
    case AK_SHARP: return u * 60.0f;
    case AK_ZERO_MAX: return (u + 1.0f) * 2.0f + 0x1p-10f;
    case AK_ZERO_Q: return d % 3 == 0 ? -0.0f : 0.0f;
    case AK_EXTREME: return u * 1e-3f;
    default: return u * 2.0f;
    }
}

/* One window: positions first..last in a ring of n_slots slots. */
typedef struct awin {
    int32_t first, last, n_slots;
} awin;

enum { A_SLOTS = 600, A_MAXHD = 256 };

/* Windows that end in every position of a group of 8 and of a chunk, start
 * mid-group, mid-chunk and on a chunk's edge, and rings that wrap
 * mid-group and mid-chunk (75 and 70 slots, full windows) or every few
 * positions (5 slots). */
static const awin AWINS[] = {
    {0, 0, A_SLOTS},    {0, 6, A_SLOTS},     {0, 7, A_SLOTS},     {0, 8, A_SLOTS},
    {0, 62, A_SLOTS},   {0, 63, A_SLOTS},    {0, 64, A_SLOTS},    {0, 65, A_SLOTS},
    {0, 127, A_SLOTS},  {0, 130, A_SLOTS},   {5, 200, A_SLOTS},   {63, 64, A_SLOTS},
    {64, 129, A_SLOTS}, {100, 299, A_SLOTS}, {37, 450, A_SLOTS},  {0, 520, A_SLOTS},
    {200, 274, 75},     {431, 500, 70},      {126, 130, 5},       {3, 3, 1},
};
enum { NAWINS = sizeof AWINS / sizeof AWINS[0] };

/* fn against krn_cpu_attn_head, bit for bit (a NaN only as a NaN), for
 * every window and kind at head dim hd. */
static void check_attention(krn_cpu_attn_fn fn, const char *name, int32_t hd) {
    const int64_t stride = hd + 16; /* other heads' values between */
    uint16_t *k = xmalloc(sizeof *k * (size_t)(A_SLOTS * stride));
    uint16_t *v = xmalloc(sizeof *v * (size_t)(A_SLOTS * stride));
    float q[A_MAXHD], want[A_MAXHD], got[A_MAXHD];
    float *scratch = xmalloc(sizeof(float) * (size_t)krn_cpu_attn_scratch(hd));
    for (int64_t i = 0; i < A_SLOTS * stride; i++)
        v[i] = half_of(rnd(78, (uint64_t)i), 1.0f);
    for (int ak = 0; ak < AK_COUNT; ak++) {
        for (int64_t i = 0; i < A_SLOTS * stride; i++) k[i] = key_half(ak, i, stride);
        for (int c = 0; c < NAWINS; c++) {
            const awin w = AWINS[c];
            for (int32_t d = 0; d < hd; d++) q[d] = query_elem(ak, c, d);
            krn_cpu_attn a = {.q = q, .k = k, .v = v, .kv_stride = stride,
                              .head_dim = hd, .first = w.first, .last = w.last,
                              .n_slots = w.n_slots, .f16 = krn_cpu_f16_table(),
                              .scratch = scratch, .out = want};
            krn_cpu_attn_head(&a);
            a.out = got;
            fn(&a);
            for (int32_t d = 0; d < hd; d++) {
                if (want[d] != want[d] && got[d] != got[d]) continue;
                if (f32_bits(got[d]) != f32_bits(want[d]))
                    fail_msg("attention on %s, head_dim %d, %s keys, positions "
                             "%d..%d in %d slots: out[%d] = %a, reference %a", name,
                             (int)hd, AK_NAMES[ak], (int)w.first, (int)w.last,
                             (int)w.n_slots, (int)d, (double)got[d], (double)want[d]);
            }
        }
    }
    free(k);
    free(v);
    free(scratch);
}

/* Every version this CPU has (AVX2 and, where present, the 512-bit one)
 * against attention.c, at head dims that use each register block: 64 and
 * 128 (their own copies), and 32, 96, 160, 192, 256 (the generic copy). */
static void test_attention_equals_reference(void **state) {
    (void)state;
    static const int32_t HDS[] = {32, 64, 96, 128, 160, 192, 256};
    for (int isa = KRN_CPU_ISA_AVX2; isa <= (int)krn_cpu_isa_best(); isa++) {
        printf("# attention on %s\n", krn_cpu_isa_name((krn_cpu_isa)isa));
        for (size_t i = 0; i < sizeof HDS / sizeof *HDS; i++)
            check_attention(krn_cpu_attn_head_for(isa, HDS[i]),
                            krn_cpu_isa_name((krn_cpu_isa)isa), HDS[i]);
    }
}

enum { A_MAXGROUP = 7 };

/* A group of nh query heads sharing one KV head through fn against
 * krn_cpu_attn_head run on each head alone, bit for bit (a NaN only as a
 * NaN), for every window and kind at head dim hd; nothing written past
 * the group's nh·hd outputs. */
static void check_attention_group(krn_cpu_attn_group_fn fn, const char *name, int32_t hd,
                                  int32_t nh) {
    const int64_t stride = 2 * hd + 16; /* another KV head's values between */
    const int64_t n_out = (int64_t)nh * hd;
    uint16_t *k = xmalloc(sizeof *k * (size_t)(A_SLOTS * stride));
    uint16_t *v = xmalloc(sizeof *v * (size_t)(A_SLOTS * stride));
    float *q = xmalloc(sizeof *q * (size_t)n_out);
    float *want = xmalloc(sizeof *want * (size_t)n_out);
    float *got = xmalloc(sizeof *got * (size_t)(n_out + 1));
    float *one = xmalloc(sizeof(float) * (size_t)krn_cpu_attn_scratch(hd));
    float *scratch = xmalloc(sizeof(float) * (size_t)krn_cpu_attn_group_scratch(hd, nh));
    for (int64_t i = 0; i < A_SLOTS * stride; i++)
        v[i] = half_of(rnd(78, (uint64_t)i), 1.0f);
    for (int ak = 0; ak < AK_COUNT; ak++) {
        for (int64_t i = 0; i < A_SLOTS * stride; i++) k[i] = key_half(ak, i, stride);
        for (int c = 0; c < NAWINS; c++) {
            const awin w = AWINS[c];
            for (int64_t d = 0; d < n_out; d++) q[d] = query_elem(ak, c, (int32_t)d);
            krn_cpu_attn a = {.k = k + hd, .v = v + hd, .kv_stride = stride,
                              .head_dim = hd, .first = w.first, .last = w.last,
                              .n_slots = w.n_slots, .f16 = krn_cpu_f16_table()};
            for (int32_t h = 0; h < nh; h++) {
                a.q = q + (int64_t)h * hd;
                a.out = want + (int64_t)h * hd;
                a.scratch = one;
                krn_cpu_attn_head(&a);
            }
            got[n_out] = 12345.0f;
            a.q = q;
            a.out = got;
            a.scratch = scratch;
            fn(&a, nh);
            assert_true(got[n_out] == 12345.0f);
            for (int64_t d = 0; d < n_out; d++) {
                if (want[d] != want[d] && got[d] != got[d]) continue;
                if (f32_bits(got[d]) != f32_bits(want[d]))
                    fail_msg("grouped attention on %s, head_dim %d, %d heads, %s keys, "
                             "positions %d..%d in %d slots: head %d out[%d] = %a, "
                             "reference %a", name, (int)hd, (int)nh, AK_NAMES[ak],
                             (int)w.first, (int)w.last, (int)w.n_slots, (int)(d / hd),
                             (int)(d % hd), (double)got[d], (double)want[d]);
            }
        }
    }
    free(k);
    free(v);
    free(q);
    free(want);
    free(got);
    free(one);
    free(scratch);
}

/* Every isa's grouped attention (the scalar loop, AVX2, AVX-512 where
 * present) against attention.c head by head: groups of 1 (one head's own
 * path), 2, 3 (the demo model) and 7 (Qwen2.5-0.5B), at head dims 64 and
 * 128 (their own copies) and 96 (the generic copy). */
static void test_attention_group_equals_reference(void **state) {
    (void)state;
    static const int32_t HDS[] = {64, 96, 128};
    static const int32_t GROUPS[] = {1, 2, 3, A_MAXGROUP};
    for (int isa = KRN_CPU_ISA_SCALAR; isa <= (int)krn_cpu_isa_best(); isa++) {
        printf("# grouped attention on %s\n", krn_cpu_isa_name((krn_cpu_isa)isa));
        for (size_t i = 0; i < sizeof HDS / sizeof *HDS; i++)
            for (size_t g = 0; g < sizeof GROUPS / sizeof *GROUPS; g++)
                check_attention_group(krn_cpu_attn_group_for(isa, HDS[i]),
                                      krn_cpu_isa_name((krn_cpu_isa)isa), HDS[i],
                                      GROUPS[g]);
    }
}

/* Which version runs: the reference for the scalar isa and for head dims
 * that are not a multiple of 32; AVX2's own; and on a CPU with AVX-512 a
 * 512-bit one other than AVX2's, which a cap of AVX2 turns off. */
static void test_attention_choice(void **state) {
    (void)state;
    const krn_cpu_isa best = krn_cpu_isa_best();
    for (int isa = KRN_CPU_ISA_SCALAR; isa <= (int)best; isa++) {
        assert_ptr_equal(krn_cpu_attn_head_for(isa, 48), krn_cpu_attn_head);
        assert_ptr_equal(krn_cpu_attn_group_for(isa, 48), krn_cpu_attn_group);
    }
    assert_ptr_equal(krn_cpu_attn_group_for(KRN_CPU_ISA_SCALAR, 64), krn_cpu_attn_group);
    assert_ptr_equal(krn_cpu_attn_head_for(KRN_CPU_ISA_SCALAR, 64), krn_cpu_attn_head);
    if (best < KRN_CPU_ISA_AVX2) return;
    const krn_cpu_attn_fn avx2 = krn_cpu_attn_head_for(KRN_CPU_ISA_AVX2, 64);
    assert_ptr_not_equal(avx2, krn_cpu_attn_head);
    assert_ptr_not_equal(krn_cpu_attn_group_for(KRN_CPU_ISA_AVX2, 64), krn_cpu_attn_group);
    assert_ptr_equal(krn_cpu_attn_head_for(krn_cpu_isa_pick(KRN_ISA_CAP_AVX2), 64), avx2);
    if (best < KRN_CPU_ISA_AVX512) return;
    const krn_cpu_attn_fn wide = krn_cpu_attn_head_for(KRN_CPU_ISA_AVX512, 64);
    assert_ptr_not_equal(wide, avx2);
    assert_ptr_not_equal(wide, krn_cpu_attn_head);
    assert_ptr_equal(krn_cpu_attn_head_for(krn_cpu_isa_pick(KRN_ISA_CAP_BEST), 64), wide);
    assert_ptr_not_equal(krn_cpu_attn_group_for(KRN_CPU_ISA_AVX512, 64),
                         krn_cpu_attn_group_for(KRN_CPU_ISA_AVX2, 64));
}

/* The SIMD path widens halves with vcvtph2ps: every half (subnormals,
 * infinities) must come out as krn_fp16_to_fp32 gives it. A head over one
 * position returns its value row exactly (p = exp(0) = 1, acc = 0 + 1·v,
 * out = acc / 1), so 1,024 one-position heads of 64 dims show every half;
 * a NaN must stay a NaN. */
static void test_attention_every_half(void **state) {
    (void)state;
    enum { HD = 64, N = 65536 / HD };
    uint16_t *kv = xmalloc(sizeof *kv * 65536);
    for (uint32_t i = 0; i < 65536; i++) kv[i] = (uint16_t)i;
    uint16_t zero_k[HD] = {0};
    float q[HD] = {0}, out[HD];
    float *scratch = xmalloc(sizeof(float) * (size_t)krn_cpu_attn_scratch(HD));
    const float *f16 = krn_cpu_f16_table();
    for (int isa = KRN_CPU_ISA_SCALAR; isa <= (int)krn_cpu_isa_best(); isa++) {
        const krn_cpu_attn_fn f = krn_cpu_attn_head_for(isa, HD);
        for (int t = 0; t < N; t++) {
            krn_cpu_attn a = {.q = q, .k = zero_k, .v = kv + t * HD, .kv_stride = HD,
                              .head_dim = HD, .first = 0, .last = 0, .n_slots = 1,
                              .f16 = f16, .scratch = scratch, .out = out};
            f(&a);
            for (int d = 0; d < HD; d++) {
                const float want = krn_fp16_to_fp32(kv[t * HD + d]);
                if (want != want) {
                    assert_true(out[d] != out[d]);
                    continue;
                }
                /* 0 + 1·(−0) is +0 */
                const float w0 = want == 0.0f ? 0.0f : want;
                if (f32_bits(out[d]) != f32_bits(w0))
                    fail_msg("%s: half 0x%04x came out %a, expected %a",
                             krn_cpu_isa_name((krn_cpu_isa)isa), kv[t * HD + d],
                             (double)out[d], (double)w0);
            }
        }
    }
    free(kv);
    free(scratch);
}

/* ---- activation quantization -------------------------------------------------- */

/* Every isa's krn_quantize_act against canon.c's, byte for byte, in groups
 * of 32 and 256: rows of every act_floats kind, plus rows holding NaNs,
 * infinities, −0 and values at the rounding ties (±0.5·k/id). */
static void test_quantize_act_equals_reference(void **state) {
    (void)state;
    enum { N = 1024, NB = N / 32 };
    static float x[N];
    static krn_act_block want[NB], got[NB];
    for (int kind = 0; kind < 9; kind++) {
        if (kind < 5) {
            act_floats(x, N, kind, 3);
        } else {
            /* amax 127, so id = 1 and every x·id is a tie k + 0.5 */
            for (int i = 0; i < N; i++) x[i] = ((float)(i % 254) - 127.0f) + 0.5f;
            for (int i = 0; i < N; i += 32) x[i] = 127.0f;
            if (kind >= 6) x[17] = bits_f32(0x7FC00000);          /* NaN */
            if (kind >= 7) { x[300] = 1.0f / 0.0f; x[301] = -x[300]; }
            if (kind == 8) for (int i = 512; i < N; i++) x[i] = -0.0f;
        }
        for (int isa = KRN_CPU_ISA_SCALAR; isa <= (int)krn_cpu_isa_best(); isa++)
            for (int64_t g = 32; g <= 256; g *= 8) {
                memset(want, 0x5A, sizeof want);
                memset(got, 0xA5, sizeof got);
                krn_quantize_act(x, want, N, g);
                krn_cpu_quantize_act_for(isa)(x, got, N, g);
                for (int b = 0; b < NB; b++)
                    if (f32_bits(got[b].d) != f32_bits(want[b].d) ||
                        got[b].sum != want[b].sum ||
                        memcmp(got[b].q, want[b].q, sizeof got[b].q) != 0)
                        fail_msg("quantize_act on %s, rows of kind %d, groups of "
                                 "%lld: block %d differs (d %a / %a, sum %d / %d)",
                                 krn_cpu_isa_name((krn_cpu_isa)isa), kind,
                                 (long long)g, b, (double)got[b].d,
                                 (double)want[b].d, (int)got[b].sum,
                                 (int)want[b].sum);
            }
    }
}

/* ---- exp and SwiGLU ---------------------------------------------------------- */

#if KRN_CPU_HAVE_X86
/* krn__exp8 on 8 values against krn_exp, bit for bit (NaN: a NaN). */
KRN__T static void check_exp8(const float v[8]) {
    float got[8];
    _mm256_storeu_ps(got, krn__exp8(_mm256_loadu_ps(v)));
    for (int i = 0; i < 8; i++) {
        const float want = krn_exp(v[i]);
        if (want != want) {
            assert_true(got[i] != got[i]);
            continue;
        }
        if (f32_bits(got[i]) != f32_bits(want))
            fail_msg("exp8(%a) = %a, krn_exp %a", (double)v[i], (double)got[i],
                     (double)want);
    }
}
#endif

/* Every float from -110 to 95 in steps of 2^-12, a random sample of all
 * bit patterns, and the edges (±0, ±inf, NaN, ±87, ±88 and their
 * neighbours), mixed into the same vectors as normal lanes. */
static void test_exp8_equals_krn_exp(void **state) {
    (void)state;
#if KRN_CPU_HAVE_X86
    if (krn_cpu_isa_best() < KRN_CPU_ISA_AVX2) {
        printf("# no AVX2: exp8 not run here\n");
        return;
    }
    float v[8];
    int n = 0;
    for (float x = -110.0f; x <= 95.0f; x += 0x1p-12f) {
        v[n++] = x;
        if (n == 8) { check_exp8(v); n = 0; }
    }
    for (uint64_t i = 0; i < 200000; i++) {
        v[n++] = bits_f32((uint32_t)rnd(5, i));
        if (n == 8) { check_exp8(v); n = 0; }
    }
    const float edge[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, bits_f32(0x7FC00001),
                          -87.0f, 88.0f, nextafterf(-87.0f, -100.0f),
                          nextafterf(88.0f, 100.0f), -104.0f, 89.0f, -1e-30f, 1e-30f,
                          -103.97f, 88.72f, -126.0f * 0.6931472f};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        for (int k = 0; k < 8; k++) v[k] = k == (int)(i % 8) ? edge[i] : -1.5f * (float)k;
        check_exp8(v);
    }
#endif
}

/* SwiGLU on every isa against ffn.c, at lengths with and without a tail. */
static void test_swiglu_equals_reference(void **state) {
    (void)state;
    enum { N = 203 };
    float g[N], u[N], want[N], got[N];
    for (int i = 0; i < N; i++) {
        const uint64_t h = rnd(41, (uint64_t)i);
        g[i] = ((float)(h & 0xFFFFF) / 524288.0f - 1.0f) * (i % 7 == 0 ? 120.0f : 12.0f);
        u[i] = ((float)(h >> 32 & 0xFFFFF) / 524288.0f - 1.0f) * 3.0f;
    }
    for (int isa = KRN_CPU_ISA_SCALAR; isa <= (int)krn_cpu_isa_best(); isa++)
        for (int n = 1; n <= N; n += 101) {
            krn_cpu_swiglu(g, u, n, want);
            krn_cpu_swiglu_for(isa)(g, u, n, got);
            for (int i = 0; i < n; i++)
                if (f32_bits(got[i]) != f32_bits(want[i]))
                    fail_msg("swiglu on %s, n %d, element %d: %a, reference %a",
                             krn_cpu_isa_name((krn_cpu_isa)isa), n, i,
                             (double)got[i], (double)want[i]);
        }
}

/* ---- whole forward passes --------------------------------------------------- */

/* Logits of a sequence run as steps of 1, 7 and 64 rows (prefill, verify
 * and decode shapes), on a backend made with the instruction set isa
 * (krn_options.tuning.cpu_isa: isa + 1 caps it there, and this CPU has it). */
static float *forward_logits(const tmodel *t, krn_cpu_isa isa, int n_threads,
                             int n, const int32_t *seq) {
    sb_err err = {0};
    krn_backend *b = krn_cpu_create(&t->m, &(krn_options){.n_threads = n_threads,
                                    .kv_capacity = 128,
                                    .tuning.cpu_isa = (krn_isa_cap)(isa + 1)}, &err);
    if (!b) fail_msg("krn_cpu_create: %s", err.msg);
    assert_int_equal(((const krn_cpu *)b)->isa, isa);
    const int64_t V = t->s.n_vocab;
    float *out = xmalloc(sizeof(float) * (size_t)(n * V));
    static const int STEPS[] = {64, 7, 1};
    int p = 0;
    for (int k = 0; p < n; k = (k + 1) % 3) {
        const int rows = n - p < STEPS[k] ? n - p : STEPS[k];
        int32_t pos[KRN_MAX_ROWS];
        for (int r = 0; r < rows; r++) pos[r] = p + r;
        krn_batch batch = {.n_rows = rows, .tokens = seq + p, .pos = pos,
                           .logits = out + (size_t)p * V};
        if (krn_forward(b, &batch, &err)) fail_msg("krn_forward: %s", err.msg);
        p += rows;
    }
    krn_destroy(b);
    return out;
}

/* want_sha: the SHA-256 of the scalar logits (little-endian floats) as the
 * canonical arithmetic v2 gave them before the fused kernels existed, so
 * that a change to the reference itself is caught too. */
static void check_forward(const tm_shape *shape, const tm_types *types,
                          const char *want_sha) {
    tmodel *t = tm_create(shape, types, 29);
    enum { N = 100 };
    int32_t seq[N];
    for (int i = 0; i < N; i++)
        seq[i] = (int32_t)(sb_hash3(3, (uint64_t)i, 1) % (uint64_t)shape->n_vocab);
    float *want = forward_logits(t, KRN_CPU_ISA_SCALAR, 1, N, seq);
    const size_t n = (size_t)N * (size_t)shape->n_vocab;
    char hex[65];
    sb_sha256_hex(want, n * sizeof(float), hex);
    printf("# scalar logits sha256=%s\n", hex);
    assert_string_equal(hex, want_sha);
    for (int isa = KRN_CPU_ISA_SCALAR + 1; isa <= (int)krn_cpu_isa_best(); isa++)
        for (int nt = 1; nt <= 3 && krn_cpu_isa_has((krn_cpu_isa)isa); nt += 2) {
            float *got = forward_logits(t, (krn_cpu_isa)isa, nt, N, seq);
            for (size_t i = 0; i < n; i++)
                if (f32_bits(got[i]) != f32_bits(want[i]))
                    fail_msg("%s, %d threads: logit %zu is %a, scalar %a",
                             krn_cpu_isa_name((krn_cpu_isa)isa), nt, i,
                             (double)got[i], (double)want[i]);
            free(got);
        }
    free(want);
    tm_free(t);
}

/* Every fused type in one model (K-quants need rows of whole 256s). */
static void test_forward_kquants(void **state) {
    (void)state;
    const tm_types ty = {.embd = KRN_Q8_0, .out = KRN_Q6_K, .q = KRN_Q4_K,
                         .k = KRN_Q5_K, .v = KRN_Q6_K, .o = KRN_Q4_0,
                         .gate = KRN_Q5_0, .up = KRN_Q4_K, .down = KRN_Q6_K};
    check_forward(&TM_SMALL, &ty,
                  "36e851124162ee6499012cdb12e3a822e2f370ef6160bdd39b24467857db5d16");
}

/* The 0.5b Q4_K_M placement on rows that are not whole super-blocks:
 * Q5_0 and Q8_0 with 10-block rows (chunks of 2), Q4_K/Q6_K where the
 * input is n_ff = 512. */
static void test_forward_legacy(void **state) {
    (void)state;
    const tm_shape shape = {.n_layer = 2, .n_embd = 320, .n_ff = 512, .n_head = 5,
                            .n_head_kv = 1, .hd = 64, .n_vocab = 300};
    const tm_types ty = {.embd = KRN_Q8_0, .out = KRN_Q8_0, .q = KRN_Q5_0,
                         .k = KRN_Q5_0, .v = KRN_Q8_0, .o = KRN_Q5_0,
                         .gate = KRN_Q5_0, .up = KRN_Q5_0, .down = KRN_Q6_K,
                         .tied = true};
    check_forward(&shape, &ty,
                  "aa055d57148b1185054e4a3142cf3c72172cafc0bccd4a34abe8ac33f239a509");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_choice),
        cmocka_unit_test(test_fused_equals_reference),
        cmocka_unit_test(test_attention_equals_reference),
        cmocka_unit_test(test_attention_group_equals_reference),
        cmocka_unit_test(test_attention_choice),
        cmocka_unit_test(test_attention_every_half),
        cmocka_unit_test(test_quantize_act_equals_reference),
        cmocka_unit_test(test_exp8_equals_krn_exp),
        cmocka_unit_test(test_swiglu_equals_reference),
        cmocka_unit_test(test_forward_kquants),
        cmocka_unit_test(test_forward_legacy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
