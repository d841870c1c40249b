#include "mem_model.h"

#include <math.h>
#include <stdlib.h>

const tm_shape TM_SMALL = {2, 256, 512, 4, 2, 64, 300};

tm_types tm_uniform_types(krn_type ty, bool tied) {
    return (tm_types){ty, ty, ty, ty, ty, ty, ty, ty, ty, tied};
}

static float uni(uint64_t seed, uint64_t a, uint64_t b) {
    return 2.0f * sb_unit_open(sb_hash3(seed, a, b)) - 1.0f;
}

static void *tm_alloc(tmodel *t, size_t n) {
    if (t->n_bufs >= TM_MAX_BUFS) abort();
    void *p = malloc(n);
    if (!p) abort();
    return t->bufs[t->n_bufs++] = p;
}

/* Q4_1 / Q5_1, which krn_quantize_row does not make: per 32 weights
 * d = (max - min) / (2^bits - 1), m = min (as halves), codes rounded. */
static void quantize_min_row(bool five, const float *x, uint8_t *dst, int64_t n) {
    const int top = five ? 31 : 15, bb = five ? 24 : 20;
    for (int64_t b = 0; b < n / 32; b++) {
        const float *xb = x + b * 32;
        uint8_t *o = dst + b * bb;
        float lo = xb[0], hi = xb[0];
        for (int i = 1; i < 32; i++) lo = fminf(lo, xb[i]), hi = fmaxf(hi, xb[i]);
        const uint16_t dh = krn_fp32_to_fp16((hi - lo) / (float)top);
        const uint16_t mh = krn_fp32_to_fp16(lo);
        const float d = krn_fp16_to_fp32(dh), m = krn_fp16_to_fp32(mh);
        int c[32];
        for (int i = 0; i < 32; i++) {
            float v = d > 0.0f ? rintf((xb[i] - m) / d) : 0.0f;
            c[i] = v < 0.0f ? 0 : v > (float)top ? top : (int)v;
        }
        o[0] = (uint8_t)(dh & 0xFF), o[1] = (uint8_t)(dh >> 8);
        o[2] = (uint8_t)(mh & 0xFF), o[3] = (uint8_t)(mh >> 8);
        uint8_t *qs = o + (five ? 8 : 4);
        uint32_t qh = 0;
        for (int i = 0; i < 16; i++) {
            qs[i] = (uint8_t)((c[i] & 0x0F) | ((c[i + 16] & 0x0F) << 4));
            qh |= (uint32_t)((c[i] >> 4) & 1) << i;
            qh |= (uint32_t)((c[i + 16] >> 4) & 1) << (i + 16);
        }
        if (five)
            for (int k = 0; k < 4; k++) o[4 + k] = (uint8_t)(qh >> (8 * k));
    }
}

/* A (ne1, ne0) matrix of uniform(-scale, scale) weights stored as `type`. */
static krn_tensor tm_matrix(tmodel *t, krn_type type, int64_t ne0, int64_t ne1,
                            float scale, uint64_t seed) {
    uint64_t row_bytes;
    if (!krn_row_bytes(type, ne0, &row_bytes)) abort();
    uint8_t *data = tm_alloc(t, row_bytes * (size_t)ne1);
    float *row = malloc((size_t)ne0 * sizeof *row);
    if (!row) abort();
    for (int64_t o = 0; o < ne1; o++) {
        for (int64_t i = 0; i < ne0; i++) row[i] = scale * uni(seed, (uint64_t)o, (uint64_t)i);
        uint8_t *dst = data + (size_t)o * row_bytes;
        if (type == KRN_Q4_1 || type == KRN_Q5_1)
            quantize_min_row(type == KRN_Q5_1, row, dst, ne0);
        else
            if (!krn_quantize_row(type, row, dst, ne0)) abort();
    }
    free(row);
    return (krn_tensor){.type = type, .ne0 = ne0, .ne1 = ne1, .data = data};
}

/* An f32 vector: center + spread * uniform(-1, 1). */
static krn_tensor tm_vector(tmodel *t, int64_t n, float center, float spread,
                            uint64_t seed) {
    float *v = tm_alloc(t, (size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = center + spread * uni(seed, 0, (uint64_t)i);
    return (krn_tensor){.type = KRN_F32, .ne0 = n, .ne1 = 1, .data = v};
}

tmodel *tm_create(const tm_shape *sh, const tm_types *ty, uint64_t seed) {
    tmodel *t = calloc(1, sizeof *t);
    if (!t || sh->n_layer > TM_MAX_LAYER) abort();
    t->s = *sh;
    const int64_t e = sh->n_embd, f = sh->n_ff;
    const int64_t qd = (int64_t)sh->n_head * sh->hd, kvd = (int64_t)sh->n_head_kv * sh->hd;
    /* uniform(-s, s) has variance s^2/3: s = sqrt(3/n_in) keeps unit scale. */
    const float se = sqrtf(3.0f / (float)e), sq = sqrtf(3.0f / (float)qd);
    const float sf = sqrtf(3.0f / (float)f);
    t->m = (krn_model){.n_layer = sh->n_layer, .n_embd = sh->n_embd, .n_ff = sh->n_ff,
                       .n_head = sh->n_head, .n_head_kv = sh->n_head_kv,
                       .head_dim = sh->hd, .n_vocab = sh->n_vocab,
                       .rope_base = 10000.0f, .rms_eps = 1e-6f, .layers = t->layers};
    t->m.tok_embd = tm_matrix(t, ty->embd, e, sh->n_vocab, 1.0f, seed + 1);
    t->m.output = ty->tied ? t->m.tok_embd
                           : tm_matrix(t, ty->out, e, sh->n_vocab, se, seed + 2);
    t->m.output_norm = tm_vector(t, e, 1.0f, 0.2f, seed + 3);
    for (int il = 0; il < sh->n_layer; il++) {
        krn_layer *l = &t->layers[il];
        const uint64_t s = seed + 100 * (uint64_t)(il + 1);
        l->attn_norm = tm_vector(t, e, 1.0f, 0.2f, s + 1);
        l->ffn_norm = tm_vector(t, e, 1.0f, 0.2f, s + 2);
        l->wq = tm_matrix(t, ty->q, e, qd, se, s + 3);
        l->wk = tm_matrix(t, ty->k, e, kvd, se, s + 4);
        l->wv = tm_matrix(t, ty->v, e, kvd, se, s + 5);
        l->wo = tm_matrix(t, ty->o, qd, e, sq, s + 6);
        l->bq = tm_vector(t, qd, 0.0f, 0.3f, s + 7);
        l->bk = tm_vector(t, kvd, 0.0f, 0.3f, s + 8);
        l->bv = tm_vector(t, kvd, 0.0f, 0.3f, s + 9);
        l->w_gate = tm_matrix(t, ty->gate, e, f, se, s + 10);
        l->w_up = tm_matrix(t, ty->up, e, f, se, s + 11);
        l->w_down = tm_matrix(t, ty->down, f, e, sf, s + 12);
    }
    return t;
}

void tm_free(tmodel *t) {
    for (int i = 0; i < t->n_bufs; i++) free(t->bufs[i]);
    free(t);
}
