/*
 * finite.c — finite-value checks where they are cheap (docs/limits.md): a
 * model's weight scales at load, and each sampled row of logits.
 *
 * Why these two. A non-finite weight never errs on its own: NaN flows
 * through the forward pass into every logit, the greedy sampler then
 * returns token 0 forever (no logit compares greater than NaN), and sb
 * printed a normal hash line and exited 0. At load, only the floats can be
 * non-finite: a quantized block's codes are integers, its scales (d, and
 * dmin for the types with a min) are halves. So a quantized tensor is
 * checked by reading two bytes (four with dmin) per block, a float tensor
 * every element. Logits are checked row by row as they are sampled, so
 * the error names the step; rows never sampled (the prefill's, the rows
 * after a rejected guess) cost nothing. bench/RESULTS.md ("Finite-value
 * checks") has the cost of both.
 */
#include <stdio.h>
#include <string.h>

#include "model_internal.h"

/* ---- scalars ---------------------------------------------------------- */

/* All exponent bits set: Inf or NaN. */
static bool finite__half_bad(uint16_t h) { return (h & 0x7c00u) == 0x7c00u; }
static bool finite__bf16_bad(uint16_t h) { return (h & 0x7f80u) == 0x7f80u; }

static uint16_t finite__le16(const unsigned char *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t finite__le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* "NaN" or "Inf" for a float's bits whose exponent is all ones. */
static const char *finite__kind32(uint32_t u) {
    return (u & 0x007fffffu) ? "NaN" : (u >> 31 ? "-Inf" : "Inf");
}
static const char *finite__kind16(uint16_t h, uint16_t mant) {
    return (h & mant) ? "NaN" : (h >> 15 ? "-Inf" : "Inf");
}

/* ---- weights ---------------------------------------------------------- */

/* Where a quantized type keeps its half scales in a block (ggml's
 * layouts: d first, then dmin where there is one; Q6_K keeps d last). */
typedef struct finite__scales {
    krn_type type;
    int n;          /* 1 or 2 halves */
    int off;        /* byte offset of the first */
} finite__scales;

static const finite__scales finite__table[] = {
    {KRN_Q4_0, 1, 0}, {KRN_Q4_1, 2, 0}, {KRN_Q5_0, 1, 0}, {KRN_Q5_1, 2, 0},
    {KRN_Q8_0, 1, 0}, {KRN_Q4_K, 2, 0}, {KRN_Q5_K, 2, 0}, {KRN_Q6_K, 1, 208},
};

static const finite__scales *finite__scales_of(krn_type type) {
    for (size_t i = 0; i < sizeof finite__table / sizeof finite__table[0]; i++)
        if (finite__table[i].type == type) return &finite__table[i];
    return NULL;
}

/* Index of the first block with a non-finite scale, or -1. The common case
 * (none) is one pass that only ORs the test. */
static int64_t finite__scan_scales(const unsigned char *p, int64_t n_blocks,
                                   int64_t block_bytes, const finite__scales *s) {
    bool any = false;
    for (int64_t b = 0; b < n_blocks; b++) {
        const unsigned char *q = p + b * block_bytes + s->off;
        any |= finite__half_bad(finite__le16(q)) |
               (s->n > 1 && finite__half_bad(finite__le16(q + 2)));
    }
    if (!any) return -1;
    for (int64_t b = 0;; b++) {
        const unsigned char *q = p + b * block_bytes + s->off;
        if (finite__half_bad(finite__le16(q)) ||
            (s->n > 1 && finite__half_bad(finite__le16(q + 2))))
            return b;
    }
}

static int finite__quantized(const char *name, const krn_tensor *t, int64_t n,
                             const finite__scales *s, sb_err *err) {
    const int64_t be = krn_type_block_elems(t->type);
    const int64_t bb = krn_type_block_bytes(t->type);
    const unsigned char *p = t->data;
    int64_t b = finite__scan_scales(p, n / be, bb, s);
    if (b < 0) return 0;
    const unsigned char *q = p + b * bb + s->off;
    bool first = finite__half_bad(finite__le16(q));
    uint16_t h = finite__le16(first ? q : q + 2);
    return sb_err_set(err, "eng_model_load", "tensor '%s' (%s) has a "
                      "non-finite %s (%s) in block %lld (weights %lld..%lld): "
                      "the file is damaged", name, krn_type_name(t->type),
                      first ? "scale d" : "min scale dmin",
                      finite__kind16(h, 0x03ff), (long long)b,
                      (long long)(b * be), (long long)(b * be + be - 1));
}

/* True when some of the n elements (of 4 or 2 bytes) has all the bits of
 * `exp` set. Branch-free so that it vectorizes: an f16 7B file is 15 GB of
 * such elements, against a few KB of norms in a quantized one. */
static bool finite__any_exp(const unsigned char *p, int64_t n, int bytes,
                            uint32_t exp) {
    uint32_t acc = 0;
    if (bytes == 4) {
        for (int64_t i = 0; i < n; i++)
            acc |= (uint32_t)((finite__le32(p + 4 * i) & exp) == exp);
    } else {
        for (int64_t i = 0; i < n; i++)
            acc |= (uint32_t)((finite__le16(p + 2 * i) & exp) == exp);
    }
    return acc != 0;
}

/* Float tensors: every element; the slow pass only finds the first bad. */
static int finite__floats(const char *name, const krn_tensor *t, int64_t n,
                          sb_err *err) {
    const unsigned char *p = t->data;
    bool f32 = t->type == KRN_F32;
    if (!finite__any_exp(p, n, f32 ? 4 : 2,
                         f32 ? 0x7f800000u : t->type == KRN_F16 ? 0x7c00u : 0x7f80u))
        return 0;
    for (int64_t i = 0; i < n; i++) {
        const char *kind = NULL;
        if (t->type == KRN_F32) {
            uint32_t u = finite__le32(p + 4 * i);
            if ((u & 0x7f800000u) == 0x7f800000u) kind = finite__kind32(u);
        } else {
            uint16_t h = finite__le16(p + 2 * i);
            if (t->type == KRN_F16 ? finite__half_bad(h) : finite__bf16_bad(h))
                kind = finite__kind16(h, t->type == KRN_F16 ? 0x03ff : 0x007f);
        }
        if (kind)
            return sb_err_set(err, "eng_model_load", "tensor '%s' (%s) holds "
                              "%s at element %lld (row %lld, column %lld): the "
                              "file is damaged", name, krn_type_name(t->type),
                              kind, (long long)i, (long long)(i / t->ne0),
                              (long long)(i % t->ne0));
    }
    return 0;
}

int eng__tensor_check_finite(const char *name, const krn_tensor *t,
                             sb_err *err) {
    const int64_t n = t->ne0 * t->ne1;
    const finite__scales *s = finite__scales_of(t->type);
    if (s) return finite__quantized(name, t, n, s, err);
    return finite__floats(name, t, n, err);
}

/* ---- logits ----------------------------------------------------------- */

/* True when some element's exponent bits are all ones (Inf or NaN). A
 * branch-free OR of compares, which gcc -O2 turns into SSE2 code (an
 * unsigned max would need SSE4.1); the row is about to be sampled. */
static bool finite__any_bad(const float *x, int64_t n) {
    enum { W = 8 };
    uint32_t acc[W] = {0}, u[W];
    int64_t i = 0;
    for (; i + W <= n; i += W) {
        memcpy(u, x + i, sizeof u);
        for (int k = 0; k < W; k++)
            acc[k] |= (uint32_t)((u[k] & 0x7f800000u) == 0x7f800000u);
    }
    for (; i < n; i++) {
        memcpy(u, x + i, sizeof u[0]);
        acc[0] |= (uint32_t)((u[0] & 0x7f800000u) == 0x7f800000u);
    }
    uint32_t any = 0;
    for (int k = 0; k < W; k++) any |= acc[k];
    return any != 0;
}

int eng__logits_check_finite(const float *row, int32_t n_vocab, int32_t step,
                             int64_t pos, sb_err *err) {
    if (!finite__any_bad(row, n_vocab)) return 0;
    int32_t bad = 0, first = -1;
    uint32_t u = 0;
    for (int32_t i = 0; i < n_vocab; i++) {
        uint32_t v;
        memcpy(&v, &row[i], sizeof v);
        if ((v & 0x7f800000u) != 0x7f800000u) continue;
        if (first < 0) first = i, u = v;
        bad++;
    }
    return sb_err_set(err, "eng_generate", "step %d (the token at position "
                      "%lld): %d of %d logits are not finite (the first, "
                      "token %d, is %s): the model's weights or the backend "
                      "gave garbage; nothing was sampled from them",
                      (int)step, (long long)pos, (int)bad, (int)n_vocab,
                      (int)first, finite__kind32(u));
}
