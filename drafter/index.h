/*
 * index.h — private to drafter/ (and its tests): token sequences and the
 * two n-gram indexes the copy drafter looks spans up in.
 *
 * Both file every position i of a sequence t under the hash of the gram
 * t[i..i+g-1] (g tokens, 1..DRF__MAX_GRAM). Buckets can hold colliding
 * grams: a caller verifies each position it gets back (drf__gram_eq).
 *
 *  - drf__sindex, for the source: built once; a bucket's positions are
 *    sorted, so "the first occurrence at or after position p" is a binary
 *    search.
 *  - drf__hindex, for the history (prompt + output), which grows a token at
 *    a time: chained buckets, newest first, so "the most recent
 *    occurrence" is the head of a chain.
 */
#ifndef SB_DRAFTER_INDEX_H
#define SB_DRAFTER_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "drafter.h"

enum { DRF__MAX_GRAM = 8 };

/* ==== growable token sequence ============================================= */

typedef struct drf__seq {
    int32_t *v;  /* n ids; owned */
    int32_t n, cap;
} drf__seq;

/* Appends n ids; false (nothing appended) when out of memory or past
 * DRF_MAX_SOURCE. */
bool drf__seq_push(drf__seq *s, const int32_t *ids, int32_t n);
void drf__seq_free(drf__seq *s);

/* t[a..a+g-1] == u[b..b+g-1]; the caller keeps both in range. */
static inline bool drf__gram_eq(const int32_t *t, int32_t a, const int32_t *u,
                                int32_t b, int32_t g) {
    for (int32_t k = 0; k < g; k++)
        if (t[a + k] != u[b + k]) return false;
    return true;
}


/* ==== static index (the source) =========================================== */

typedef struct drf__sindex {
    int32_t g;
    uint32_t mask;   /* buckets - 1 (a power of two minus one) */
    int32_t *start;  /* mask + 2 entries: bucket b's positions are
                        pos[start[b] .. start[b+1]-1]; owned */
    int32_t *pos;    /* gram start positions, ascending within a bucket;
                        owned */
} drf__sindex;

/* Indexes the n - g + 1 grams of t[0..n-1] (none when n < g). -1 with err
 * filled when out of memory. */
int drf__sindex_build(drf__sindex *x, const int32_t *t, int32_t n, int32_t g,
                      sb_err *err);
void drf__sindex_free(drf__sindex *x);

/* The positions filed with gram key[0..g-1]'s bucket: *n of them from the
 * returned pointer (borrowed from x), ascending; *first is the index of the
 * first position >= from. Colliding grams included: verify. */
const int32_t *drf__sindex_bucket(const drf__sindex *x, const int32_t *key,
                                  int32_t from, int32_t *n, int32_t *first);

/* ==== chained index (the history) ========================================= */

enum { DRF__HBITS = 16 };

typedef struct drf__hindex {
    int32_t g;
    int32_t head[1 << DRF__HBITS]; /* newest gram start per bucket, or -1 */
    int32_t *prev;                 /* prev[i]: the next older gram start in
                                      i's bucket, or -1; owned */
    int32_t n;                     /* grams filed: starts 0..n-1 */
    int32_t cap;
} drf__hindex;

void drf__hindex_init(drf__hindex *x, int32_t g);
/* Files every gram of t[0..n_t-1] not filed yet; false when out of memory
 * (the index then stays as it was, still correct for what it holds). */
bool drf__hindex_update(drf__hindex *x, const int32_t *t, int32_t n_t);
/* Newest gram start in key's bucket, or -1; then follow x->prev. */
int32_t drf__hindex_newest(const drf__hindex *x, const int32_t *key);
void drf__hindex_free(drf__hindex *x);

#endif /* SB_DRAFTER_INDEX_H */
