/*
 * subst.c — substitutions learnt from the output (drafter/subst.h).
 */
#include <string.h>

#include "subst.h"

static bool subst__eq(const int32_t *a, int32_t na, const int32_t *b,
                      int32_t nb) {
    return na == nb && (na == 0 || !memcmp(a, b, (size_t)na * sizeof *a));
}

bool drf__subst_add(drf__substs *t, const int32_t *s, int32_t ns,
                    const int32_t *o, int32_t no, int32_t left, int32_t right) {
    if (ns > DRF__SUBST_LEN || no > DRF__SUBST_LEN || subst__eq(s, ns, o, no))
        return false;
    drf__subst u = {0};
    const bool anchored = ns == 0;
    if (anchored) u.from[u.n_from++] = left, u.to[u.n_to++] = left;
    for (int32_t i = 0; i < ns; i++) u.from[u.n_from++] = s[i];
    for (int32_t i = 0; i < no; i++) u.to[u.n_to++] = o[i];
    if (anchored) u.from[u.n_from++] = right, u.to[u.n_to++] = right;
    /* The same run rewritten again: the newer rewrite replaces the older. */
    for (int32_t i = 0; i < t->n; i++)
        if (subst__eq(t->s[i].from, t->s[i].n_from, u.from, u.n_from)) {
            drf__subst_drop(t, i);
            break;
        }
    if (t->n == DRF__MAX_SUBST) drf__subst_drop(t, 0);
    t->s[t->n++] = u;
    return true;
}

void drf__subst_drop(drf__substs *t, int32_t i) {
    memmove(t->s + i, t->s + i + 1, (size_t)(t->n - i - 1) * sizeof *t->s);
    t->n--;
}

/* The newest substitution whose from-run starts at src[at], or -1. */
static int32_t subst__starting(const drf__substs *t, const int32_t *src,
                               int32_t n, int32_t at) {
    for (int32_t i = t->n - 1; i >= 0; i--) {
        const drf__subst *u = &t->s[i];
        if (u->n_from <= n - at && src[at] == u->from[0] &&
            !memcmp(src + at, u->from, (size_t)u->n_from * sizeof *src))
            return i;
    }
    return -1;
}

int32_t drf__subst_next(const drf__substs *t, const int32_t *src, int32_t n,
                        drf__spos *p, int32_t *src_pos) {
    p->applied = -1;
    for (;;) {
        if (p->sub >= 0) {
            const drf__subst *u = &t->s[p->sub];
            if (p->k < u->n_to) {
                /* an anchor token is still the source's own */
                bool own = p->k == 0 && u->to[0] == u->from[0];
                *src_pos = own ? p->at : -1;
                p->applied = p->sub;
                return u->to[p->k++];
            }
            p->at += u->n_from; /* the whole from-run is written */
            p->applied = p->sub;
            p->sub = -1;
        }
        if (p->at >= n) {
            *src_pos = -1;
            return -1;
        }
        int32_t i = subst__starting(t, src, n, p->at);
        if (i < 0) {
            *src_pos = p->at;
            return src[p->at++];
        }
        /* A deletion's to-run is empty: the loop skips the from-run. */
        p->sub = i;
        p->k = 0;
    }
}
