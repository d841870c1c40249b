/*
 * spec.c — exact speculative decoding.
 *
 * Each step scores the last committed token (row 0, at position L = the
 * session length) and a draft of d guesses (rows 1..d, positions L+1..L+d)
 * in one forward pass. Row i's logits predict position L+1+i, so the token
 * there is eng_sample(row i, L+1+i): the very call plain decoding makes
 * after stepping the same prefix, which the batch-invariant kernels
 * (docs/determinism.md) compute to the same bits. Walking the rows in
 * order, a sample equal to the guess after it confirms that guess (row i+1
 * was then computed on the true prefix) and the walk goes on; the first
 * sample that differs, or the sample of the last row, is committed and ends
 * the step.
 *
 * Afterwards the cache is cut back to the prompt plus every committed token
 * but the last (whose K/V row 0 of the next step writes), exactly what plain
 * decoding leaves: K/V written for rejected guesses, or for confirmed ones
 * after a stop, lie beyond the length and are overwritten before any row
 * can attend to them (engine/session.c).
 */
#include <stdlib.h>

#include "gen_internal.h"

typedef struct spec__state {
    eng__gen *g;
    const eng_drafter *drf;          /* borrowed */
    int32_t max_draft;               /* 1..ENG_MAX_DRAFT */
    float *logits;                   /* the session's scratch (borrowed):
                                        a step's 1 + d rows */
    int32_t rows[KRN_MAX_ROWS];      /* the last committed token, then the
                                        draft */
} spec__state;

static int32_t spec__min(int32_t a, int32_t b) { return a < b ? a : b; }

/* Asks the drafter for rows 1..d and returns d. The bound keeps every
 * scored row useful: a step commits at most d + 1 tokens, so d stays below
 * the tokens still allowed, and rows L..L+d must fit in the cache. The
 * drafter's answer is trusted for nothing: a count out of range is clamped,
 * and an id outside the vocabulary ends the draft where it appears. */
static int32_t spec__draft(spec__state *st) {
    eng__gen *g = st->g;
    int32_t length = eng_session_length(g->s);
    int32_t limit = spec__min(st->max_draft, g->n_max - g->r->n_tokens - 1);
    limit = spec__min(limit, eng_session_capacity(g->s) - length - 1);
    if (limit <= 0) return 0;
    return eng__spec_propose(st->drf, g->r->tokens, g->r->n_tokens, limit,
                             g->n_vocab, st->rows + 1);
}

int32_t eng__spec_propose(const eng_drafter *drf, const int32_t *out,
                          int32_t n_out, int32_t limit, int32_t n_vocab,
                          int32_t *draft) {
    int32_t d = drf->propose(drf->ctx, out, n_out, limit, draft);
    d = d < 0 ? 0 : spec__min(d, limit);
    for (int32_t i = 0; i < d; i++)
        if (draft[i] < 0 || draft[i] >= n_vocab) return i;
    return d;
}

void eng__spec_count(eng_gen_result *r, int32_t drafted, int32_t accepted) {
    r->steps++;
    r->drafted += drafted;
    r->accepted += accepted;
    r->accept_hist[accepted]++;
}

/* Commits the tokens of a step whose 1 + d rows of logits are in
 * st->logits: samples row by row while the guesses hold. Returns the
 * number of guesses accepted, or -1 (err filled) for a row of non-finite
 * logits; *stopped when a commit ended generation. */
static int32_t spec__accept(spec__state *st, int32_t d, int32_t length,
                            bool *stopped, sb_err *err) {
    eng__gen *g = st->g;
    int32_t accepted = 0;
    for (int32_t i = 0; i <= d; i++) {
        const float *row = st->logits + (size_t)i * (size_t)g->n_vocab;
        int32_t id;
        if (eng__gen_sample(g, row, (int64_t)length + 1 + i, &id, err))
            return -1;
        bool confirmed = i < d && id == st->rows[1 + i];
        accepted += confirmed;
        *stopped = eng__gen_commit(g, id);
        if (*stopped || !confirmed) break;
    }
    return accepted;
}

/* One step: draft, score, commit, roll back. Returns 1 when generation has
 * ended, 0 to go on, -1 on error. */
static int spec__step(spec__state *st, sb_err *err) {
    eng__gen *g = st->g;
    eng_gen_result *r = g->r;
    int32_t d = spec__draft(st);
    int32_t length = eng_session_length(g->s), first = r->n_tokens;
    if (eng_session_step(g->s, st->rows, 1 + d, st->logits, err)) return -1;
    bool stopped = false;
    int32_t accepted = spec__accept(st, d, length, &stopped, err);
    if (accepted < 0) return -1;
    eng__spec_count(r, d, accepted);
    eng_session_truncate(g->s, g->n_prompt + r->n_tokens - 1);
    st->rows[0] = r->tokens[r->n_tokens - 1];
    if (st->drf->accept)
        st->drf->accept(st->drf->ctx, r->tokens + first, r->n_tokens - first);
    return stopped;
}

int eng__decode_spec(eng__gen *g, const float *logits, sb_err *err) {
    spec__state st = {.g = g, .drf = g->p->drafter,
                      .max_draft = g->p->max_draft > 0 ? g->p->max_draft
                                                       : ENG_MAX_DRAFT};
    /* The session's scratch: KRN_MAX_ROWS >= 1 + max_draft rows. logits
     * (the prompt's last row) is its row 0: sampled before any step. */
    st.logits = eng_session_logits(g->s);
    if (st.drf->begin) st.drf->begin(st.drf->ctx, g->prompt, g->n_prompt);
    /* The first token comes from the prompt's last row, as in plain
     * decoding; every later one from a speculative step. */
    int32_t id;
    if (eng__gen_sample(g, logits, g->n_prompt, &id, err)) return -1;
    g->r->steps++;
    int rc = eng__gen_commit(g, id) ? 1 : 0;
    if (st.drf->accept) st.drf->accept(st.drf->ctx, &id, 1);
    st.rows[0] = id;
    while (rc == 0) rc = spec__step(&st, err);
    return rc < 0 ? -1 : 0;
}
