/*
 * copy.c — the copy-span drafter (drafter.h states what it does).
 *
 * State between steps is one cursor: where (source or history) and at
 * which position the token expected next sits. accept() moves it along
 * while the committed tokens agree with what it points at and drops it at
 * the first disagreement; propose() copies from it, or, without one, looks
 * a new span up (copy__lookup) and keeps it as the cursor.
 *
 * Seams for the tree-sitter milestone: copy__lookup is where syntax enters
 * the choice among occurrences (prefer the one after the last copied node;
 * resynchronise at the next node boundary after a divergence), and
 * copy__draft_len is where the cost-table rule decides how far to copy.
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"

/* Occurrences examined per lookup and side, and the longest agreement
 * measured: bounds on a lookup's cost, not on what can be copied. */
enum { COPY__MAX_CANDIDATES = 32, COPY__MAX_AGREE = 32 };
/* Draft tokens the first step after a lookup may propose (the budget then
 * doubles with each step the span survives). */
enum { COPY__FIRST_BUDGET = 4 };

typedef enum copy__where { COPY__NONE, COPY__SOURCE, COPY__HISTORY } copy__where;

struct drf_copy {
    drf_copy_opts o;
    drf__seq src;          /* the source ids; owned */
    drf__sindex sx;        /* over src */
    drf__seq hist;         /* prompt + committed output; owned */
    drf__hindex hx;        /* over hist */
    bool hist_ok;          /* false after running out of memory */
    copy__where where;     /* the cursor */
    int32_t at;            /* position of the next expected token */
    int32_t src_next;      /* the source position after the last token copied
                              from the source: where source order resumes */
    int32_t budget;        /* most tokens the cursor's span may draft next */
};

/* ==== lookup ================================================================ */

/* A candidate span: continue copying at `at` in `where`. */
typedef struct copy__cand {
    copy__where where;
    int32_t at;
    int32_t agree;  /* tokens before `at` that equal the history's tail */
} copy__cand;

/* How many tokens before t[at] equal the tokens before h[n_h], up to
 * COPY__MAX_AGREE. */
static int32_t copy__agree(const int32_t *t, int32_t at, const int32_t *h,
                           int32_t n_h) {
    int32_t k = 0;
    while (k < COPY__MAX_AGREE && k < at && k < n_h &&
           t[at - 1 - k] == h[n_h - 1 - k])
        k++;
    return k;
}

/* Replaces *best when c agrees for longer; the first of equals stays, so
 * callers offer candidates in order of preference. */
static void copy__offer(copy__cand *best, copy__cand c) {
    if (c.agree > best->agree) *best = c;
}

/* Source occurrences of the history's last g tokens, in source order
 * starting at src_next and wrapping around: the next occurrence after what
 * was last copied comes first. */
static void copy__lookup_source(const drf_copy *c, copy__cand *best) {
    const int32_t g = c->o.min_match, *key = c->hist.v + c->hist.n - g;
    int32_t n, first;
    const int32_t *pos = drf__sindex_bucket(&c->sx, key, c->src_next - g, &n,
                                            &first);
    for (int32_t k = 0; k < n && k < COPY__MAX_CANDIDATES; k++) {
        int32_t p = pos[(first + k) % n], at = p + g;
        if (at >= c->src.n || !drf__gram_eq(c->src.v, p, key, 0, g)) continue;
        copy__offer(best, (copy__cand){COPY__SOURCE, at,
                                       copy__agree(c->src.v, at, c->hist.v,
                                                   c->hist.n)});
    }
}

/* History occurrences, newest first; the last g tokens themselves (nothing
 * follows them yet) are skipped. */
static void copy__lookup_history(const drf_copy *c, copy__cand *best) {
    const int32_t g = c->o.min_match, n_h = c->hist.n;
    const int32_t *h = c->hist.v, *key = h + n_h - g;
    int32_t seen = 0;
    for (int32_t p = drf__hindex_newest(&c->hx, key);
         p >= 0 && seen < COPY__MAX_CANDIDATES; p = c->hx.prev[p], seen++) {
        int32_t at = p + g;
        if (at >= n_h || !drf__gram_eq(h, p, key, 0, g)) continue;
        copy__offer(best, (copy__cand){COPY__HISTORY, at,
                                       copy__agree(h, at, h, n_h)});
    }
}

/* Sets the cursor to the best span for the history's tail, or to none. */
static void copy__lookup(drf_copy *c) {
    c->where = COPY__NONE;
    /* Without a complete history there is no key to look up. */
    if (!c->hist_ok || c->hist.n < c->o.min_match) return;
    copy__cand best = {COPY__NONE, 0, 0};
    copy__lookup_source(c, &best);
    if (!c->o.source_only) copy__lookup_history(c, &best);
    c->where = best.where;
    c->at = best.at;
    c->budget = COPY__FIRST_BUDGET;
}

/* ==== drafting ============================================================== */

/* Tokens to copy from the cursor: the span's budget, which starts small
 * after a lookup and doubles with each step the output keeps following the
 * span (copy__accept), so a wrong guess costs a few rows and a span that
 * holds soon drafts max_draft. A stand-in: the cost-table rule (expected
 * tokens per second from the measured step cost per row bucket and the
 * running acceptance) replaces it. */
static int32_t copy__draft_len(const drf_copy *c, int32_t max_draft) {
    int32_t d = c->budget < max_draft ? c->budget : max_draft;
    if (c->where == COPY__SOURCE && c->src.n - c->at < d) d = c->src.n - c->at;
    return d; /* history spans extend themselves (see below) */
}

static int32_t copy__propose(void *ctx, const int32_t *out, int32_t n_out,
                             int32_t max_draft, int32_t *draft) {
    (void)out;
    (void)n_out; /* the history already holds them, through accept */
    drf_copy *c = ctx;
    if (c->where == COPY__NONE) copy__lookup(c);
    if (c->where == COPY__NONE) return 0;
    int32_t d = copy__draft_len(c, max_draft);
    if (c->where == COPY__SOURCE) {
        memcpy(draft, c->src.v + c->at, (size_t)d * sizeof *draft);
        return d;
    }
    /* From the history, copying may run into the draft itself: past the
     * history's end, token k repeats token k - (n - at) of the draft, so a
     * loop of period n - at continues for as long as asked. */
    const int32_t n_h = c->hist.n, period = n_h - c->at;
    for (int32_t k = 0; k < d; k++)
        draft[k] = k < period ? c->hist.v[c->at + k] : draft[k - period];
    return d;
}

/* ==== following the output ================================================== */

/* The token the cursor expects, or -1 when it points past its span. */
static int32_t copy__expected(const drf_copy *c) {
    if (c->where == COPY__SOURCE && c->at < c->src.n) return c->src.v[c->at];
    if (c->where == COPY__HISTORY && c->at < c->hist.n) return c->hist.v[c->at];
    return -1;
}

static void copy__accept(void *ctx, const int32_t *tokens, int32_t n) {
    drf_copy *c = ctx;
    /* History first: a span copied from the history may run on into the
     * tokens just committed (a loop). */
    if (c->hist_ok)
        c->hist_ok = drf__seq_push(&c->hist, tokens, n) &&
                     drf__hindex_update(&c->hx, c->hist.v, c->hist.n);
    for (int32_t i = 0; i < n && c->where != COPY__NONE; i++) {
        if (copy__expected(c) != tokens[i]) {
            c->where = COPY__NONE;
            break;
        }
        c->at++;
        if (c->where == COPY__SOURCE) c->src_next = c->at;
    }
    /* Every token of the step followed the span: trust it further. */
    if (c->where != COPY__NONE)
        c->budget = c->budget < ENG_MAX_DRAFT / 2 ? 2 * c->budget : ENG_MAX_DRAFT;
}

static void copy__begin(void *ctx, const int32_t *prompt, int32_t n_prompt) {
    drf_copy *c = ctx;
    c->hist.n = 0;
    drf__hindex_free(&c->hx);
    drf__hindex_init(&c->hx, c->o.min_match);
    c->where = COPY__NONE;
    c->src_next = 0;
    c->hist_ok = drf__seq_push(&c->hist, prompt, n_prompt) &&
                 drf__hindex_update(&c->hx, c->hist.v, c->hist.n);
}

/* ==== drafter.h ============================================================= */

drf_copy *drf_copy_create(const int32_t *source, int32_t n_source,
                          const drf_copy_opts *opts, sb_err *err) {
    drf_copy_opts o = opts ? *opts : (drf_copy_opts){0};
    if (o.min_match == 0) o.min_match = 2;
    if (o.min_match < 1 || o.min_match > 3) {
        sb_err_set(err, __func__, "min_match %d; expected 1..3", (int)o.min_match);
        return NULL;
    }
    if (n_source < 0 || n_source > DRF_MAX_SOURCE || (n_source && !source)) {
        sb_err_set(err, __func__, "source of %d tokens; expected 0..%d",
                   (int)n_source, DRF_MAX_SOURCE);
        return NULL;
    }
    drf_copy *c = calloc(1, sizeof *c);
    if (!c || !drf__seq_push(&c->src, source, n_source)) {
        sb_err_set(err, __func__, "out of memory for a source of %d tokens",
                   (int)n_source);
        drf_copy_destroy(c);
        return NULL;
    }
    c->o = o;
    drf__hindex_init(&c->hx, o.min_match);
    if (drf__sindex_build(&c->sx, c->src.v, c->src.n, o.min_match, err)) {
        drf_copy_destroy(c);
        return NULL;
    }
    return c;
}

void drf_copy_destroy(drf_copy *c) {
    if (!c) return;
    drf__seq_free(&c->src);
    drf__sindex_free(&c->sx);
    drf__seq_free(&c->hist);
    drf__hindex_free(&c->hx);
    free(c);
}

eng_drafter drf_copy_drafter(drf_copy *c) {
    return (eng_drafter){.ctx = c, .begin = copy__begin,
                         .propose = copy__propose, .accept = copy__accept};
}
