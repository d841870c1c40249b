/*
 * drafter.h — the public face of drafter/: drafters for the speculative
 * loop (engine.h's eng_drafter). A drafter only guesses; the engine checks
 * every guess against the model, so nothing here can change an output
 * token, only how many tokens each forward pass yields.
 *
 *     sb_err err = {0};
 *     drf_copy *c = drf_copy_create(file_ids, n_file, NULL, &err);
 *     eng_drafter d = drf_copy_drafter(c);
 *     eng_gen_params p = eng_gen_defaults();
 *     p.drafter = &d;                      // borrowed for the call
 *     eng_generate(s, prompt, n_prompt, &p, on_token, ctx, &result, &err);
 *     drf_copy_destroy(c);                 // after the last generation
 *
 * A drafter may serve many generations, one at a time (the engine calls
 * begin at the start of each); it is not safe to share between threads.
 */
#ifndef SB_DRAFTER_H
#define SB_DRAFTER_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"
#include "../engine/engine.h"
#include "../stepcost/stepcost.h"

/* Longest source a drafter indexes, in tokens (1 GiB of ids). */
enum { DRF_MAX_SOURCE = 1 << 28 };

/* ==== Copy drafter (drafter/copy.c) ======================================== */

/* Copies spans of token ids: from the source (the file being edited), and
 * unless told otherwise from the prompt and the output so far (a model
 * that repeats itself — random-weight test models do, code often does — is
 * then drafted from its own history).
 *
 * Each step, while the output keeps following the span it last copied, the
 * drafter goes on copying from there. Once the output departs from it, it
 * looks up the last min_match tokens of prompt + output and picks, among
 * their occurrences, the one whose preceding tokens agree with the output
 * for longest (up to 32); on a tie, in the source the first occurrence at
 * or after the last copied position (source order, wrapping around), else
 * the most recent in the history. Source wins a tie with history. A span
 * copied from the history may overlap what it drafts, so a loop of period
 * p is drafted to any length.
 *
 * Edits are replayed: when the output leaves the source and comes back
 * (a span found there holds its first token), what it wrote in between,
 * less the tokens both sides end with (a new name, a changed type, an
 * argument added; up to 16 tokens), replaces the same source tokens in
 * later drafts of this generation, until the output does not follow it
 * once.
 *
 * The place where the output left the source (the departure) informs the
 * rest, unless lookup_only:
 *  - a span found in the source near the departure (from 8 tokens before
 *    it to 256 after) is far likelier to be the output coming back after
 *    its change than one found elsewhere, and its drafts are weighed by a
 *    rate of their own (below);
 *  - when no lookup matches while the output is away, the token it just
 *    wrote, seen again within 24 source tokens of the departure, resumes
 *    copying right after it (a name, a literal, a few tokens changed);
 *  - failing that, the token's latest occurrence (history, else source) is
 *    a guess of one token's evidence, which the length rule drafts only
 *    where extra rows cost little.
 * Measured on the real edits of bench/realedits (`make bench-drafter`,
 * bench/RESULTS.md), these beat plain lookups (`sb draftsim --drafter
 * copy-plain`, which is lookup_only) by a little at today's H200 step costs
 * and by more under a flatter cost curve. Syntax (tree-sitter units:
 * resynchronising at the next statement, resuming inside a unit, drafts
 * that stop at unit boundaries) was measured there too and did not pay:
 * the drafter does not parse.
 *
 * Draft length: per step, the d (0..max_draft) that maximises expected
 * tokens per unit of time, (1 + p1 + ... + pd) / cost(d + 1 rows), where
 * pk, the chance that the first k tokens hold, comes from running
 * acceptance rates per kind of draft token (drafter/length.h: the first
 * token of a span by how and where it was found, a token of a span that
 * has not settled since the output came back from new text, one of a
 * settled span). Tokens per second, not per step. */
typedef struct drf_copy_opts {
    int32_t min_match; /* tokens a lookup needs, 1..3; 0: 2 */
    bool source_only;  /* never copy from the prompt or the output */
    /* The output is expected to begin with the source's first tokens (an
     * edit's answer: the file, edited): the first draft copies the source
     * from its start, before any lookup. */
    bool starts_like_source;
    /* Lookups only, one rate for every span they find, and the priors of
     * 2026-12: plain token copying as it was before the departure rules,
     * kept as the yardstick they are measured against (copy-plain). */
    bool lookup_only;
    /* What a step costs by the rows it scores (stepcost.h); NULL:
     * stepcost_table_default. Borrowed for the create call only. */
    const stepcost_table *step_costs;
} drf_copy_opts;

typedef struct drf_copy drf_copy;

/* Indexes n_source ids of source (copied; the caller keeps its array).
 * n_source may be 0 (then only the history is copied from). opts may be
 * NULL for the defaults. NULL with err filled for bad options or sizes, or
 * when out of memory. */
drf_copy *drf_copy_create(const int32_t *source, int32_t n_source,
                          const drf_copy_opts *opts, sb_err *err);

void drf_copy_destroy(drf_copy *c);

/* The callback table for eng_gen_params.drafter: ctx is c, borrowed; the
 * table is valid until drf_copy_destroy(c). Out of memory while recording
 * the history only stops history lookups (drafts get shorter, never
 * wrong). */
eng_drafter drf_copy_drafter(drf_copy *c);

/* ==== Prompt-lookup baseline (drafter/ngram.c) ============================= */

/* The plain prompt-lookup drafter, for comparison: take the last n tokens
 * of prompt + output, find their first occurrence in the source (for n =
 * max_n down to 1, the first n that occurs with a continuation), and copy
 * what follows, up to max_draft tokens or the end of the source. No state
 * beyond the history, no alignment, no preference among matches. */
typedef struct drf_ngram drf_ngram;

/* Copies n_source ids of source (typically the prompt itself). max_n: the
 * longest n-gram tried, 1..8; 0: 3. NULL with err filled on bad arguments
 * or when out of memory. */
drf_ngram *drf_ngram_create(const int32_t *source, int32_t n_source,
                            int32_t max_n, sb_err *err);
void drf_ngram_destroy(drf_ngram *g);
/* As drf_copy_drafter. */
eng_drafter drf_ngram_drafter(drf_ngram *g);

#endif /* SB_DRAFTER_H */
