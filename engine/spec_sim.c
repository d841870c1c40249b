/*
 * spec_sim.c — the speculative loop of engine/spec.c with the model's
 * samples known in advance (engine.h: eng_spec_simulate). It exists for
 * measuring drafters on recorded or expected replies (sb draftsim) without
 * a forward pass.
 *
 * What it shares with spec.c rather than restates: the propose call with
 * its clamping (eng__spec_propose) and the per-step counters
 * (eng__spec_count). What it restates, because here it needs no logits:
 * a step commits the guesses that equal the reply's next tokens and then
 * the reply's token after them — spec__accept's walk, in which the sample
 * of row i is simply reply[n_out + i] — and it stops after the reply's
 * last token or at n_max, where eng__gen_commit would stop.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

static int32_t spec_sim__min(int32_t a, int32_t b) { return a < b ? a : b; }

static int spec_sim__check(const eng_model *m, const int32_t *prompt,
                      int32_t n_prompt, const int32_t *reply, int32_t n_reply,
                      const eng_gen_params *p, sb_err *err) {
    if (!m || !p || n_prompt < 1 || !prompt || n_reply < 1 || !reply)
        return sb_err_set(err, "eng_spec_simulate", "needs a model, a prompt "
                          "and a reply of at least one token each (prompt %d, "
                          "reply %d)", (int)n_prompt, (int)n_reply);
    if (p->max_draft < 0 || p->max_draft > ENG_MAX_DRAFT)
        return sb_err_set(err, "eng_spec_simulate", "max_draft %d; expected "
                          "0..%d", (int)p->max_draft, ENG_MAX_DRAFT);
    if (p->drafter && !p->drafter->propose)
        return sb_err_set(err, "eng_spec_simulate", "drafter without a "
                          "propose function");
    int32_t n_vocab = eng_n_vocab(m);
    for (int32_t i = 0; i < n_reply; i++)
        if (reply[i] < 0 || reply[i] >= n_vocab)
            return sb_err_set(err, "eng_spec_simulate", "reply token %d is id "
                              "%d; expected 0..%d", (int)i, (int)reply[i],
                              (int)n_vocab - 1);
    return 0;
}

/* One decode step after r->n_tokens committed tokens of reply (n of which
 * will be produced in all). Returns the rows it scored. */
static int32_t spec_sim__step(const eng_drafter *d, int32_t max_draft,
                         int32_t n_max, int32_t n_vocab, const int32_t *reply,
                         int32_t n, eng_gen_result *r) {
    int32_t draft[ENG_MAX_DRAFT];
    int32_t done = r->n_tokens;
    int32_t limit = spec_sim__min(max_draft, n_max - done - 1);
    int32_t k = d && limit > 0
                    ? eng__spec_propose(d, reply, done, limit, n_vocab, draft)
                    : 0;
    int32_t match = 0;
    while (match < k && done + match < n && draft[match] == reply[done + match])
        match++;
    /* The confirmed guesses, then the sample after them; a stop (the
     * reply's end) inside the confirmed run cuts the step there. */
    int32_t committed = spec_sim__min(match + 1, n - done);
    eng__spec_count(r, k, spec_sim__min(match, committed));
    r->n_tokens += committed;
    if (d && d->accept) d->accept(d->ctx, reply + done, committed);
    return 1 + k;
}

int eng_spec_simulate(const eng_model *m, const int32_t *prompt,
                      int32_t n_prompt, const int32_t *reply, int32_t n_reply,
                      const eng_gen_params *p, eng_gen_result *r,
                      int32_t *rows_hist, sb_err *err) {
    memset(r, 0, sizeof *r);
    if (rows_hist) memset(rows_hist, 0, (KRN_MAX_ROWS + 1) * sizeof *rows_hist);
    if (spec_sim__check(m, prompt, n_prompt, reply, n_reply, p, err)) return -1;
    if (p->n_max < 1) {
        eng_tokens_sha256(NULL, 0, r->sha256);
        r->stop = ENG_STOP_LENGTH;
        return 0;
    }
    int32_t n = spec_sim__min(n_reply, p->n_max);
    r->tokens = malloc((size_t)n * sizeof *r->tokens);
    if (!r->tokens)
        return sb_err_set(err, "eng_spec_simulate", "out of memory for %d "
                          "tokens", (int)n);
    memcpy(r->tokens, reply, (size_t)n * sizeof *r->tokens);
    const eng_drafter *d = p->drafter;
    int32_t max_draft = p->max_draft > 0 ? p->max_draft : ENG_MAX_DRAFT;
    int32_t n_vocab = eng_n_vocab(m);
    /* The first token comes from the prompt's last row, as in spec.c. */
    if (d && d->begin) d->begin(d->ctx, prompt, n_prompt);
    r->steps = 1;
    r->n_tokens = 1;
    if (d && d->accept) d->accept(d->ctx, reply, 1);
    while (r->n_tokens < n) {
        int32_t rows = spec_sim__step(d, max_draft, p->n_max, n_vocab, reply, n, r);
        if (rows_hist) rows_hist[rows]++;
    }
    r->stop = n < n_reply ? ENG_STOP_LENGTH : ENG_STOP_EOS;
    eng_tokens_sha256(r->tokens, r->n_tokens, r->sha256);
    return 0;
}
