/*
 * index.c — token sequences and n-gram indexes for the copy drafter
 * (drafter/index.h says what each is for).
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"

/* ==== sequences ============================================================ */

bool drf__seq_push(drf__seq *s, const int32_t *ids, int32_t n) {
    if (n <= 0) return true;
    if (n > DRF_MAX_SOURCE - s->n) return false;
    if (s->n + n > s->cap) {
        int64_t cap = s->cap ? s->cap : 256;
        while (cap < s->n + n) cap *= 2;
        int32_t *v = realloc(s->v, (size_t)cap * sizeof *v);
        if (!v) return false;
        s->v = v;
        s->cap = (int32_t)(cap < DRF_MAX_SOURCE ? cap : DRF_MAX_SOURCE);
    }
    memcpy(s->v + s->n, ids, (size_t)n * sizeof *ids);
    s->n += n;
    return true;
}

void drf__seq_free(drf__seq *s) {
    free(s->v);
    *s = (drf__seq){0};
}

/* Hash of g ids (the same function for both indexes). */
static uint64_t drf__gram_hash(const int32_t *ids, int32_t g) {
    uint64_t h = 0x5b5eed5u;
    for (int32_t k = 0; k < g; k++) h = sb_mix64(h ^ (uint32_t)ids[k]);
    return h;
}

/* ==== static index ========================================================= */

/* Buckets: a power of two, at least twice the grams, so chains stay short
 * (about one colliding gram in two lookups at worst). */
static uint32_t drf__buckets(int32_t n_grams) {
    uint32_t b = 16;
    while (b < 2u * (uint32_t)n_grams) b *= 2;
    return b;
}

int drf__sindex_build(drf__sindex *x, const int32_t *t, int32_t n, int32_t g,
                      sb_err *err) {
    *x = (drf__sindex){.g = g};
    int32_t n_grams = n >= g ? n - g + 1 : 0;
    uint32_t nb = drf__buckets(n_grams);
    x->mask = nb - 1;
    x->start = calloc((size_t)nb + 1, sizeof *x->start);
    x->pos = malloc(((size_t)n_grams + 1) * sizeof *x->pos);
    uint32_t *bucket = malloc(((size_t)n_grams + 1) * sizeof *bucket);
    if (!x->start || !x->pos || !bucket) {
        free(bucket);
        drf__sindex_free(x);
        return sb_err_set(err, __func__, "out of memory indexing %d tokens",
                          (int)n);
    }
    /* Counting sort by bucket; visiting i in order keeps each bucket's
     * positions ascending. start[b + 1] counts first, then becomes an end. */
    for (int32_t i = 0; i < n_grams; i++) {
        bucket[i] = (uint32_t)drf__gram_hash(t + i, g) & x->mask;
        x->start[bucket[i] + 1]++;
    }
    for (uint32_t b = 0; b < nb; b++) x->start[b + 1] += x->start[b];
    for (int32_t i = 0; i < n_grams; i++) x->pos[x->start[bucket[i]]++] = i;
    /* Filling advanced every start[b] to its bucket's end: shift back. */
    for (uint32_t b = nb; b > 0; b--) x->start[b] = x->start[b - 1];
    x->start[0] = 0;
    free(bucket);
    return 0;
}

void drf__sindex_free(drf__sindex *x) {
    free(x->start);
    free(x->pos);
    *x = (drf__sindex){0};
}

const int32_t *drf__sindex_bucket(const drf__sindex *x, const int32_t *key,
                                  int32_t from, int32_t *n, int32_t *first) {
    uint32_t b = (uint32_t)drf__gram_hash(key, x->g) & x->mask;
    const int32_t *p = x->pos + x->start[b];
    int32_t lo = 0, hi = x->start[b + 1] - x->start[b];
    *n = hi;
    while (lo < hi) { /* first index with p[index] >= from */
        int32_t mid = lo + (hi - lo) / 2;
        if (p[mid] < from) lo = mid + 1;
        else hi = mid;
    }
    *first = lo;
    return p;
}

/* ==== chained index ======================================================== */

void drf__hindex_init(drf__hindex *x, int32_t g) {
    x->g = g;
    memset(x->head, 0xff, sizeof x->head); /* every head -1 */
    x->prev = NULL;
    x->n = x->cap = 0;
}

bool drf__hindex_update(drf__hindex *x, const int32_t *t, int32_t n_t) {
    int32_t want = n_t >= x->g ? n_t - x->g + 1 : 0;
    if (want > x->cap) {
        int64_t cap = x->cap ? 2 * (int64_t)x->cap : 1024;
        while (cap < want) cap *= 2;
        int32_t *p = realloc(x->prev, (size_t)cap * sizeof *p);
        if (!p) return false;
        x->prev = p;
        x->cap = (int32_t)(cap < DRF_MAX_SOURCE ? cap : DRF_MAX_SOURCE);
    }
    const uint32_t mask = (1u << DRF__HBITS) - 1;
    for (; x->n < want; x->n++) {
        uint32_t b = (uint32_t)drf__gram_hash(t + x->n, x->g) & mask;
        x->prev[x->n] = x->head[b];
        x->head[b] = x->n;
    }
    return true;
}

int32_t drf__hindex_newest(const drf__hindex *x, const int32_t *key) {
    const uint32_t mask = (1u << DRF__HBITS) - 1;
    return x->head[(uint32_t)drf__gram_hash(key, x->g) & mask];
}

void drf__hindex_free(drf__hindex *x) {
    free(x->prev);
    x->prev = NULL;
    x->n = x->cap = 0;
}
