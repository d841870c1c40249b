/*
 * subst.h — private to drafter/ (and its tests): the edits an output has
 * made to its source (a rename, a changed type), replayed on later drafts.
 *
 * A substitution says "where the source has `from`, the output writes
 * `to`". The copy drafter records one when the output leaves a source span
 * and comes back a few tokens further on; copying then reads the source
 * through the table (drf__subst_next), so the next occurrence of `from`
 * is drafted as `to`. A substitution the output does not follow again is
 * dropped.
 */
#ifndef SB_DRAFTER_SUBST_H
#define SB_DRAFTER_SUBST_H

#include <stdbool.h>
#include <stdint.h>

/* Substitutions kept (the oldest goes first), and the longest replaced or
 * replacing run, in tokens, before the anchors (below). */
enum { DRF__MAX_SUBST = 8, DRF__SUBST_LEN = 16 };

typedef struct drf__subst {
    int32_t from[DRF__SUBST_LEN + 2], n_from; /* n_from >= 1 */
    int32_t to[DRF__SUBST_LEN + 2], n_to;
} drf__subst;

typedef struct drf__substs {
    drf__subst s[DRF__MAX_SUBST]; /* s[0..n-1], oldest first */
    int32_t n;
} drf__substs;

/* Records that the output wrote o[0..no-1] where the source has
 * s[0..ns-1], between the tokens `left` (just before, in both) and `right`
 * (just after, in both). A pure insertion (ns == 0) is anchored on both:
 * left s right becomes left o right; otherwise s alone becomes o. Ignored
 * when s equals o or either is longer than DRF__SUBST_LEN. Returns whether
 * it was recorded. */
bool drf__subst_add(drf__substs *t, const int32_t *s, int32_t ns,
                    const int32_t *o, int32_t no, int32_t left, int32_t right);
void drf__subst_drop(drf__substs *t, int32_t i);

/* A place in the source as the output renders it: source position `at`,
 * or, with sub >= 0, token k of substitution sub's `to`, which stands for
 * the source's from-run starting at `at`. */
typedef struct drf__spos {
    int32_t at, sub, k;
    int32_t applied; /* set by drf__subst_next: the substitution that wrote
                        the token returned or ended just before it, else
                        -1 (the one to blame when that token is wrong) */
} drf__spos;

/* The token at *p (advancing *p past it), or -1 at the end of the source.
 * *src_pos receives the source position it was copied from, or -1 for a
 * token a substitution wrote. The newest substitution whose from-run
 * starts at a position wins. */
int32_t drf__subst_next(const drf__substs *t, const int32_t *src, int32_t n,
                        drf__spos *p, int32_t *src_pos);

#endif /* SB_DRAFTER_SUBST_H */
