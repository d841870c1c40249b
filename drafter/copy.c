/*
 * copy.c — the copy-span drafter (drafter.h states what it does).
 *
 * State between steps is one cursor: where (source or history) and at
 * which position the token expected next sits — in the source, read
 * through the substitutions learnt so far (subst.h). accept() moves it
 * along while the committed tokens agree with what it points at and drops
 * it at the first disagreement; propose() copies from it, or, without
 * one, finds a new span (copy__find) and keeps it as the cursor.
 *
 * With opts.starts_like_source a generation starts with the cursor at the
 * source's first token: an edit's answer starts where the file starts.
 * (The edit prompt holds the file too: a lookup would find the prompt's
 * copy, and copying from the history the drafter would not know where the
 * output leaves the source, which the syntax rules and edit replay need.)
 *
 * With syntax (syntax.h: units, boundary tokens), finding prefers, among
 * equally good spans, one that does not go back into units already
 * copied; after the output leaves the source, a line end brings the
 * cursor back at the next boundary, and a short change inside a line
 * resumes right after what it replaced. How far to copy is the cost-table
 * rule of length.h, with the kind of each draft token (length.h) telling
 * how the span was found and whether it has settled.
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "length.h"
#include "subst.h"
#include "syntax.h"

/* Occurrences examined per lookup and side, and the longest agreement
 * measured: bounds on a lookup's cost, not on what can be copied. */
enum { COPY__MAX_CANDIDATES = 32, COPY__MAX_AGREE = 32 };
/* Tokens a source span must hold before the output counts as back in the
 * source (a shorter match may be a coincidence inside new text). */
enum { COPY__SETTLED = 4 };

typedef enum copy__where { COPY__NONE, COPY__SOURCE, COPY__HISTORY } copy__where;

struct drf_copy {
    drf_copy_opts o;
    drf__seq src;          /* the source ids; owned */
    drf__sindex sx;        /* over src */
    drf__seq hist;         /* prompt + committed output; owned */
    drf__hindex hx;        /* over hist */
    bool hist_ok;          /* false after running out of memory */
    drf__syntax *syn;      /* units of the source; NULL: plain copying;
                              owned */
    uint8_t *ends_line;    /* n_vocab flags (syntax.h); NULL without text;
                              owned */
    int32_t n_vocab;
    drf__cost cost;
    drf__accept acc;       /* running acceptance, per draft-token kind */
    drf__substs subs;      /* edits learnt in this generation */
    copy__where where;     /* the cursor: */
    drf__spos cur;         /* SOURCE: a place in the source through subs;
                              HISTORY: cur.at */
    bool fresh;            /* the cursor was just found */
    uint8_t fresh_kind;    /* how (drf__kind of its first token): FRESH for
                              a lookup, RESYNC or REPLACE for a guess */
    int32_t held;          /* tokens its span has held since (source or
                              history) */
    int32_t src_next;      /* the source position after the last token copied
                              from the source: where source order resumes */
    int32_t div, div_h;    /* where the output left the source: the source
                              position it did not follow and the history
                              index of the token it wrote instead; div -1:
                              the output is not known to be away */
    int32_t ret_p, ret_h;  /* where the cursor's span began: its source
                              position and the history index of the first
                              token it was to predict */
};

/* ==== finding a span ======================================================= */

/* A candidate span: continue copying at `at` in `where`. */
typedef struct copy__cand {
    copy__where where;
    int32_t at;
    int32_t agree;  /* tokens before `at` that equal the history's tail */
} copy__cand;

/* The best candidate overall, and the best source candidate at or after
 * the start of the unit holding the last copied token. */
typedef struct copy__pick {
    copy__cand any, ahead;
} copy__pick;

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

/* Where "ahead" starts: the boundary of the unit that holds the last
 * copied token, or -1 (no preference) without syntax or a copy. */
static int32_t copy__ahead_from(const drf_copy *c) {
    if (!c->syn || c->src_next <= 0 || c->src_next > c->src.n) return -1;
    return drf__syntax_unit_of(c->syn, c->src_next - 1);
}

/* Source occurrences of the history's last g tokens, in source order
 * starting at src_next and wrapping around: the next occurrence after what
 * was last copied comes first. */
static void copy__lookup_source(const drf_copy *c, copy__pick *pk) {
    const int32_t g = c->o.min_match, *key = c->hist.v + c->hist.n - g;
    const int32_t ahead = copy__ahead_from(c);
    int32_t n, first;
    const int32_t *pos = drf__sindex_bucket(&c->sx, key, c->src_next - g, &n,
                                            &first);
    for (int32_t k = 0; k < n && k < COPY__MAX_CANDIDATES; k++) {
        int32_t p = pos[(first + k) % n], at = p + g;
        if (at >= c->src.n || !drf__gram_eq(c->src.v, p, key, 0, g)) continue;
        copy__cand cand = {COPY__SOURCE, at,
                           copy__agree(c->src.v, at, c->hist.v, c->hist.n)};
        copy__offer(&pk->any, cand);
        if (ahead >= 0 && p >= ahead) copy__offer(&pk->ahead, cand);
    }
}

/* History occurrences, newest first; the last g tokens themselves (nothing
 * follows them yet) are skipped. */
static void copy__lookup_history(const drf_copy *c, copy__pick *pk) {
    const int32_t g = c->o.min_match, n_h = c->hist.n;
    const int32_t *h = c->hist.v, *key = h + n_h - g;
    int32_t seen = 0;
    for (int32_t p = drf__hindex_newest(&c->hx, key);
         p >= 0 && seen < COPY__MAX_CANDIDATES; p = c->hx.prev[p], seen++) {
        int32_t at = p + g;
        if (at >= n_h || !drf__gram_eq(h, p, key, 0, g)) continue;
        copy__offer(&pk->any, (copy__cand){COPY__HISTORY, at,
                                           copy__agree(h, at, h, n_h)});
    }
}

/* The best span for the history's tail (where NONE when there is none):
 * the longest agreement; among equals, one at or after the unit last
 * copied from (source order), so that a repeated line is taken from the
 * place being copied, not from one already done. A span behind with
 * longer agreement still wins: code moved from there. */
static copy__cand copy__lookup(const drf_copy *c) {
    copy__pick pk = {{COPY__NONE, 0, 0}, {COPY__NONE, 0, 0}};
    if (c->hist.n < c->o.min_match) return pk.any;
    copy__lookup_source(c, &pk);
    if (!c->o.source_only) copy__lookup_history(c, &pk);
    if (pk.ahead.where != COPY__NONE && pk.ahead.agree >= pk.any.agree)
        return pk.ahead;
    return pk.any;
}

static bool copy__ends_line(const drf_copy *c, int32_t id) {
    return c->ends_line && id >= 0 && id < c->n_vocab && c->ends_line[id];
}

/* After the output left the source, at the end of a line: the boundary to
 * come back at, or -1. Left at a unit's head (nothing of its own text
 * written), the line was inserted before it: back at that unit. Left
 * inside a unit, the line changed it: back at the next one. */
static int32_t copy__resync_at(const drf_copy *c) {
    if (!c->syn || c->div < 0 || c->div >= c->src.n || !c->hist_ok ||
        c->hist.n == 0 || !copy__ends_line(c, c->hist.v[c->hist.n - 1]))
        return -1;
    int32_t from = drf__syntax_at_unit_head(c->syn, c->div)
                       ? drf__syntax_unit_of(c->syn, c->div) : c->div + 1;
    int32_t q = drf__syntax_next_boundary(c->syn, from);
    return q < c->src.n ? q : -1;
}

/* The output left the source at div and came back at p, the history from
 * index o_end on following src[p..] (its first token held). What it wrote
 * in between, hist[div_h..o_end-1], replaced src[div..p-1]; trimmed of
 * the tokens both end with (a lookup or a guess may come back a little
 * late), that is the edit to replay: a rename, a changed type, an
 * argument added to each call. */
static void copy__learn(drf_copy *c, int32_t p, int32_t o_end) {
    const int32_t div = c->div;
    if (div < 1 || p < div || p >= c->src.n || c->div_h < 1 ||
        o_end < c->div_h || c->hist.v[c->div_h - 1] != c->src.v[div - 1])
        return;
    while (p > div && o_end > c->div_h &&
           c->src.v[p - 1] == c->hist.v[o_end - 1])
        p--, o_end--;
    drf__subst_add(&c->subs, c->src.v + div, p - div, c->hist.v + c->div_h,
                   o_end - c->div_h, c->src.v[div - 1], c->src.v[p]);
}

/* Most tokens a change inside a line may replace one for one (a name, a
 * literal, a type) and still be taken for a replacement: measured on the
 * edit tasks, a guess after 3 held about one time in fifteen. */
enum { COPY__REPLACE_MAX = 2 };

/* After the output left the source inside a unit and wrote k tokens (no
 * line end among them) in place of the k source tokens there: the place
 * right after them, the next node in source order, or -1. Not when it
 * left at a unit's head: a line that starts differently is far more often
 * a new line inserted before the unit (a comment, a check) than a unit
 * whose first word changed. */
static int32_t copy__replaced_at(const drf_copy *c) {
    if (!c->syn || c->div < 0 || !c->hist_ok) return -1;
    const int32_t k = c->hist.n - c->div_h, at = c->div + k;
    if (k < 1 || k > COPY__REPLACE_MAX || at >= c->src.n ||
        drf__syntax_at_unit_head(c->syn, c->div))
        return -1;
    for (int32_t i = 0; i < k; i++)
        if (copy__ends_line(c, c->hist.v[c->div_h + i]) ||
            copy__ends_line(c, c->src.v[c->div + i]))
            return -1;
    return at;
}

/* Puts the cursor at `at` in `where`, a span just found `kind`-wise. */
static void copy__set(drf_copy *c, copy__where where, int32_t at,
                      uint8_t kind) {
    c->where = where;
    c->cur = (drf__spos){.at = at, .sub = -1, .applied = -1};
    c->fresh = true;
    c->fresh_kind = kind;
    c->held = 0;
    c->ret_p = at;
    c->ret_h = c->hist.n;
}

/* Sets the cursor to the best span for the output so far, or to none. */
static void copy__find(drf_copy *c) {
    c->where = COPY__NONE;
    if (!c->hist_ok) return; /* no complete history: no key to look up */
    copy__cand best = copy__lookup(c);
    uint8_t kind = DRF__KIND_FRESH;
    /* Guesses, for the output away from the source (div >= 0): the new
     * tokens it wrote since it left. */
    const int32_t written = c->hist.n - c->div_h;
    /* A one-for-one change resumes right after itself, unless a lookup
     * found a span in the same unit, or one that agrees with min_match
     * tokens of what came before the change too: then the new text goes
     * on as a place elsewhere does (lines reordered, a name moved). */
    int32_t r = copy__replaced_at(c);
    if (r >= 0 && best.agree < written + c->o.min_match &&
        !(best.where == COPY__SOURCE &&
          drf__syntax_unit_of(c->syn, best.at - 1) ==
              drf__syntax_unit_of(c->syn, c->div))) {
        best = (copy__cand){COPY__SOURCE, r, 0};
        kind = DRF__KIND_REPLACE;
    }
    int32_t q = copy__resync_at(c);
    /* A lookup beats the boundary only with agreement that reaches back
     * past the new text, into the context both share. */
    if (q >= 0 && best.agree <= written) {
        best = (copy__cand){COPY__SOURCE, q, 0};
        kind = DRF__KIND_RESYNC;
    }
    copy__set(c, best.where, best.at, kind);
}

/* ==== drafting ============================================================== */

/* The kind of a draft token copied from source position sp (-1: written by
 * a substitution or copied from the history), `ahead` tokens after the
 * cursor: the first of a fresh span is of the kind it was found by; one
 * of a span that has not settled since the output came back from new
 * text is YOUNG (such spans break off far more often); a unit's boundary
 * token is BOUNDARY. */
static uint8_t copy__kind(const drf_copy *c, int32_t ahead, int32_t sp) {
    if (ahead == 0 && c->fresh) return c->fresh_kind;
    if (c->div >= 0 && c->held + ahead < COPY__SETTLED) return DRF__KIND_YOUNG;
    if (c->syn && sp >= 0 && drf__syntax_is_boundary(c->syn, sp))
        return DRF__KIND_BOUNDARY;
    return DRF__KIND_INSIDE;
}

static int32_t copy__propose(void *ctx, const int32_t *out, int32_t n_out,
                             int32_t max_draft, int32_t *draft) {
    (void)out;
    (void)n_out; /* the history already holds them, through accept */
    drf_copy *c = ctx;
    if (c->where == COPY__NONE) copy__find(c);
    if (c->where == COPY__NONE) return 0;
    uint8_t kind[ENG_MAX_DRAFT];
    int32_t n = 0;
    if (max_draft > ENG_MAX_DRAFT) max_draft = ENG_MAX_DRAFT;
    if (c->where == COPY__SOURCE) {
        drf__spos p = c->cur;
        for (int32_t sp; n < max_draft; n++) {
            int32_t id = drf__subst_next(&c->subs, c->src.v, c->src.n, &p, &sp);
            if (id < 0) break;
            draft[n] = id;
            kind[n] = copy__kind(c, n, sp);
        }
    } else {
        /* From the history, copying may run into the draft itself: past
         * the history's end, token k repeats token k - (n_h - at) of the
         * draft, so a loop of that period continues for as long as asked. */
        const int32_t period = c->hist.n - c->cur.at;
        for (; n < max_draft; n++) {
            draft[n] = n < period ? c->hist.v[c->cur.at + n] : draft[n - period];
            kind[n] = copy__kind(c, n, -1);
        }
    }
    return drf__draft_len(&c->cost, &c->acc, kind, n);
}

/* ==== following the output ================================================== */

/* The output wrote something other than what the cursor expected, as
 * history token h. A span that had not settled yet leaves the earlier
 * departure in place (it was likely a coincidence inside new text). */
static void copy__drop(drf_copy *c, int32_t h, int32_t blame) {
    if (c->where == COPY__SOURCE) {
        if (blame >= 0) drf__subst_drop(&c->subs, blame);
        if (c->div < 0 || c->held >= COPY__SETTLED) {
            c->div = c->cur.at;
            c->div_h = h;
        }
    }
    c->where = COPY__NONE;
}

static void copy__accept(void *ctx, const int32_t *tokens, int32_t n) {
    drf_copy *c = ctx;
    const int32_t h0 = c->hist.n; /* history index of tokens[0] */
    /* History first: a span copied from the history may run on into the
     * tokens just committed (a loop). */
    if (c->hist_ok)
        c->hist_ok = drf__seq_push(&c->hist, tokens, n) &&
                     drf__hindex_update(&c->hx, c->hist.v, c->hist.n);
    for (int32_t i = 0; i < n && c->where != COPY__NONE; i++) {
        drf__spos next = c->cur;
        int32_t sp = -1, want = -1;
        if (c->where == COPY__SOURCE)
            want = drf__subst_next(&c->subs, c->src.v, c->src.n, &next, &sp);
        else if (c->cur.at < c->hist.n)
            want = c->hist.v[next.at++];
        bool held = want == tokens[i];
        drf__accept_observe(&c->acc, (drf__kind)copy__kind(c, 0, sp), held);
        if (!held) {
            copy__drop(c, h0 + i, next.applied);
            break;
        }
        c->cur = next;
        c->fresh = false;
        if (sp >= 0) c->src_next = sp + 1;
        /* The first token of a span found while away holds: the output
         * came back there, and what it wrote since leaving is an edit. */
        if (++c->held == 1 && c->where == COPY__SOURCE)
            copy__learn(c, c->ret_p, c->ret_h);
        if (c->held == COPY__SETTLED && c->where == COPY__SOURCE) c->div = -1;
    }
}

static void copy__begin(void *ctx, const int32_t *prompt, int32_t n_prompt) {
    drf_copy *c = ctx;
    c->hist.n = 0;
    drf__hindex_free(&c->hx);
    drf__hindex_init(&c->hx, c->o.min_match);
    c->src_next = 0;
    c->div = -1;
    c->subs.n = 0;
    drf__accept_init(&c->acc);
    c->hist_ok = drf__seq_push(&c->hist, prompt, n_prompt) &&
                 drf__hindex_update(&c->hx, c->hist.v, c->hist.n);
    c->where = COPY__NONE;
    if (c->o.starts_like_source && c->src.n > 0)
        copy__set(c, COPY__SOURCE, 0, DRF__KIND_FRESH);
}

/* ==== drafter.h ============================================================= */

drf_copy *drf__copy_create_ex(const int32_t *source, int32_t n_source,
                              const drf__copy_text *t,
                              const drf_copy_opts *opts, sb_err *err) {
    drf_copy_opts o = opts ? *opts : (drf_copy_opts){0};
    if (o.min_match == 0) o.min_match = 2;
    if (o.min_match < 1 || o.min_match > 3) {
        sb_err_set(err, "drf_copy_create", "min_match %d; expected 1..3",
                   (int)o.min_match);
        return NULL;
    }
    if (n_source < 0 || n_source > DRF_MAX_SOURCE || (n_source && !source)) {
        sb_err_set(err, "drf_copy_create", "source of %d tokens; expected 0..%d",
                   (int)n_source, DRF_MAX_SOURCE);
        return NULL;
    }
    drf_copy *c = calloc(1, sizeof *c);
    if (!c) goto oom;
    c->o = o;
    c->o.step_costs = NULL; /* copied into c->cost: never read again */
    drf__hindex_init(&c->hx, o.min_match);
    drf__accept_init(&c->acc);
    if (drf__cost_init(&c->cost, o.step_costs, err)) goto fail;
    if (!drf__seq_push(&c->src, source, n_source)) goto oom;
    if (t && t->ends_line && t->n_vocab > 0) {
        c->ends_line = malloc((size_t)t->n_vocab);
        if (!c->ends_line) goto oom;
        memcpy(c->ends_line, t->ends_line, (size_t)t->n_vocab);
        c->n_vocab = t->n_vocab;
    }
    if (t && t->language)
        c->syn = drf__syntax_build(t->language, t->text, t->len, t->off, n_source);
    if (drf__sindex_build(&c->sx, c->src.v, c->src.n, o.min_match, err))
        goto fail;
    return c;
oom:
    sb_err_set(err, "drf_copy_create", "out of memory for a source of %d tokens",
               (int)n_source);
fail:
    drf_copy_destroy(c);
    return NULL;
}

drf_copy *drf_copy_create(const int32_t *source, int32_t n_source,
                          const drf_copy_opts *opts, sb_err *err) {
    return drf__copy_create_ex(source, n_source, NULL, opts, err);
}

const char *drf_copy_language(const drf_copy *c) {
    return c->syn ? drf__syntax_language(c->syn) : NULL;
}

void drf_copy_destroy(drf_copy *c) {
    if (!c) return;
    drf__seq_free(&c->src);
    drf__sindex_free(&c->sx);
    drf__seq_free(&c->hist);
    drf__hindex_free(&c->hx);
    drf__syntax_free(c->syn);
    free(c->ends_line);
    free(c);
}

eng_drafter drf_copy_drafter(drf_copy *c) {
    return (eng_drafter){.ctx = c, .begin = copy__begin,
                         .propose = copy__propose, .accept = copy__accept};
}
