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
 * output leaves the source, which the departure rules and edit replay
 * need.)
 *
 * Finding a span: a lookup of the output's last min_match tokens (both
 * indexes, the longest agreement wins); unless opts.lookup_only, the
 * place where the output left the source then tells how far to trust it
 * (a span near that place is far likelier to be the output coming back
 * than one elsewhere), and where no lookup matches, one token decides: a
 * resume near the departure, else the token's latest occurrence. How far
 * to copy is the cost-table rule of length.h, with the kind of each draft
 * token (length.h) telling how its span was found and whether it has
 * settled.
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "length.h"
#include "subst.h"

/* Occurrences examined per lookup and side, and the longest agreement
 * measured: bounds on a lookup's cost, not on what can be copied. */
enum { COPY__MAX_CANDIDATES = 32, COPY__MAX_AGREE = 32 };
/* Tokens a source span must hold before the output counts as back in the
 * source (a shorter match may be a coincidence inside new text). */
enum { COPY__SETTLED = 4 };
/* "Near the departure": source positions from COPY__NEAR_BEFORE tokens
 * before the place the output left the source (or, not away, the place
 * copying last reached) to COPY__NEAR_AFTER after it. An edit replaces,
 * inserts or deletes a few lines, so the output comes back within a
 * screenful; on the tuning edits a span found there held its first token
 * about 7 times in 10, one found farther away about 4 in 10. */
enum { COPY__NEAR_BEFORE = 8, COPY__NEAR_AFTER = 256 };
/* One-token guesses: a resume is looked for in the COPY__RESUME_SPAN source
 * tokens from the departure on (a change of a token or a few inside a
 * line: the token just written is the first the source and the output
 * share again); the latest occurrence of the token in the last
 * COPY__ONE_SPAN tokens of the history, else the next one in as many
 * source tokens. Bounds on the scans, not tuned. */
enum { COPY__RESUME_SPAN = 24, COPY__ONE_SPAN = 4096 };

typedef enum copy__where { COPY__NONE, COPY__SOURCE, COPY__HISTORY } copy__where;

struct drf_copy {
    drf_copy_opts o;
    drf__seq src;          /* the source ids; owned */
    drf__sindex sx;        /* over src */
    drf__seq hist;         /* prompt + committed output; owned */
    drf__hindex hx;        /* over hist */
    bool hist_ok;          /* false after running out of memory */
    drf__cost cost;
    drf__accept acc;       /* running acceptance, per draft-token kind */
    drf__substs subs;      /* edits learnt in this generation */
    copy__where where;     /* the cursor: */
    drf__spos cur;         /* SOURCE: a place in the source through subs;
                              HISTORY: cur.at */
    bool fresh;            /* the cursor was just found */
    uint8_t fresh_kind;    /* how (drf__kind of its first token) */
    bool near;             /* its span was found near the departure */
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

/* The best span for the history's tail (where NONE when there is none):
 * the longest agreement; on a tie, source before history, and in the
 * source the first occurrence from src_next on. */
static copy__cand copy__lookup(const drf_copy *c) {
    copy__cand best = {COPY__NONE, 0, 0};
    if (c->hist.n < c->o.min_match) return best;
    copy__lookup_source(c, &best);
    if (!c->o.source_only) copy__lookup_history(c, &best);
    return best;
}

/* The source position departures are measured from: where the output left
 * the source, else where copying last reached. */
static int32_t copy__anchor(const drf_copy *c) {
    return c->div >= 0 ? c->div : c->src_next;
}

static bool copy__is_near(const drf_copy *c, int32_t at) {
    const int32_t a = copy__anchor(c);
    return at >= a - COPY__NEAR_BEFORE && at <= a + COPY__NEAR_AFTER;
}

/* Away from the source, the token just written seen again within
 * COPY__RESUME_SPAN source tokens of the departure: the output has come
 * back right after it (a name, a literal, a few tokens changed). */
static copy__cand copy__resume_one(const drf_copy *c) {
    const int32_t last = c->hist.v[c->hist.n - 1];
    for (int32_t p = c->div; p >= 0 && p + 1 < c->src.n &&
                             p < c->div + COPY__RESUME_SPAN; p++)
        if (c->src.v[p] == last) return (copy__cand){COPY__SOURCE, p + 1, 1};
    return (copy__cand){COPY__NONE, 0, 0};
}

/* The token just written, seen last in the history (within COPY__ONE_SPAN
 * tokens), else next in the source from src_next on (as many, wrapping):
 * a guess that pays where extra rows cost little. */
static copy__cand copy__latest_one(const drf_copy *c) {
    const int32_t n_h = c->hist.n, last = c->hist.v[n_h - 1];
    for (int32_t p = n_h - 2; p >= 0 && p >= n_h - 1 - COPY__ONE_SPAN; p--)
        if (c->hist.v[p] == last) return (copy__cand){COPY__HISTORY, p + 1, 1};
    for (int32_t k = 0; k < c->src.n && k < COPY__ONE_SPAN; k++) {
        int32_t p = (c->src_next + k) % c->src.n;
        if (c->src.v[p] == last && p + 1 < c->src.n)
            return (copy__cand){COPY__SOURCE, p + 1, 1};
    }
    return (copy__cand){COPY__NONE, 0, 0};
}

/* Puts the cursor at `at` in `where`, a span just found `kind`-wise. */
static void copy__set(drf_copy *c, copy__where where, int32_t at,
                      uint8_t kind) {
    c->where = where;
    c->cur = (drf__spos){.at = at, .sub = -1, .applied = -1};
    c->fresh = true;
    c->fresh_kind = kind;
    c->near = kind == DRF__KIND_NEAR;
    c->held = 0;
    c->ret_p = at;
    c->ret_h = c->hist.n;
}

/* The kind of a span found by a lookup: by where it was found. */
static uint8_t copy__lookup_kind(const drf_copy *c, copy__cand best) {
    if (c->o.lookup_only) return DRF__KIND_FRESH;
    if (best.where == COPY__HISTORY) return DRF__KIND_HISTORY;
    return copy__is_near(c, best.at) ? DRF__KIND_NEAR : DRF__KIND_FRESH;
}

/* Sets the cursor to the best span for the output so far, or to none. */
static void copy__find(drf_copy *c) {
    c->where = COPY__NONE;
    if (!c->hist_ok || c->hist.n == 0) return; /* no key to look up */
    copy__cand best = copy__lookup(c);
    if (best.where != COPY__NONE) {
        copy__set(c, best.where, best.at, copy__lookup_kind(c, best));
        return;
    }
    if (c->o.lookup_only) return;
    if (c->div >= 0 && (best = copy__resume_one(c)).where != COPY__NONE) {
        copy__set(c, best.where, best.at, DRF__KIND_RESUME);
        return;
    }
    if ((best = copy__latest_one(c)).where != COPY__NONE)
        copy__set(c, best.where, best.at, DRF__KIND_ONE);
}

/* ==== drafting ============================================================== */

/* The kind of a draft token `ahead` tokens after the cursor: the first of
 * a fresh span is of the kind it was found by; one of a span that has not
 * settled since the output came back from new text is YOUNG (such spans
 * break off far more often), YOUNG_NEAR when it was found near the
 * departure. */
static uint8_t copy__kind(const drf_copy *c, int32_t ahead) {
    if (ahead == 0 && c->fresh) return c->fresh_kind;
    if (c->div >= 0 && c->held + ahead < COPY__SETTLED)
        return c->near && !c->o.lookup_only ? DRF__KIND_YOUNG_NEAR
                                            : DRF__KIND_YOUNG;
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
            kind[n] = copy__kind(c, n);
        }
    } else {
        /* From the history, copying may run into the draft itself: past
         * the history's end, token k repeats token k - (n_h - at) of the
         * draft, so a loop of that period continues for as long as asked. */
        const int32_t period = c->hist.n - c->cur.at;
        for (; n < max_draft; n++) {
            draft[n] = n < period ? c->hist.v[c->cur.at + n] : draft[n - period];
            kind[n] = copy__kind(c, n);
        }
    }
    return drf__draft_len(&c->cost, &c->acc, kind, n);
}

/* ==== following the output ================================================== */

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
        drf__accept_observe(&c->acc, (drf__kind)copy__kind(c, 0), held);
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
    drf__accept_init(&c->acc, c->o.lookup_only);
    c->hist_ok = drf__seq_push(&c->hist, prompt, n_prompt) &&
                 drf__hindex_update(&c->hx, c->hist.v, c->hist.n);
    c->where = COPY__NONE;
    /* The answer starts with the source: as sure a start as a settled span
     * (lookup_only keeps the 2026-12 baseline's fresh start). */
    if (c->o.starts_like_source && c->src.n > 0)
        copy__set(c, COPY__SOURCE, 0, c->o.lookup_only ? DRF__KIND_FRESH
                                                       : DRF__KIND_INSIDE);
}

/* ==== drafter.h ============================================================= */

drf_copy *drf_copy_create(const int32_t *source, int32_t n_source,
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
    drf__accept_init(&c->acc, o.lookup_only);
    if (drf__cost_init(&c->cost, o.step_costs, err)) goto fail;
    if (!drf__seq_push(&c->src, source, n_source)) goto oom;
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
