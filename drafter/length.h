/*
 * length.h — private to drafter/ (and its tests): how many tokens to draft.
 *
 * A step that scores r rows costs t[r] (relative units: only ratios
 * matter). A draft of d tokens whose first k+1 tokens all survive with
 * probability p[k] yields 1 + p[0] + ... + p[d-1] tokens on average (the
 * 1: the model's own token after the last accepted guess). The length
 * chosen is the d that maximises expected tokens per unit of time,
 * (1 + sum p) / t[d + 1] — tokens per second, not tokens per step.
 *
 * p comes from running acceptance rates, one per kind of draft token (the
 * first of a span, by how and where it was found; one of a span not
 * settled yet; one of a settled span): a draft is as likely to hold as
 * drafts like it held lately.
 */
#ifndef SB_DRAFTER_LENGTH_H
#define SB_DRAFTER_LENGTH_H

#include <stdbool.h>
#include <stdint.h>

#include "../stepcost/stepcost.h"
#include "drafter.h"

/* ==== step cost ============================================================ */

typedef struct drf__cost {
    double t[KRN_MAX_ROWS + 1]; /* t[r]: cost of a step scoring r rows,
                                   r = 1..KRN_MAX_ROWS (a row count the
                                   table cannot price: DRF__UNPRICED); t[0]
                                   unused */
} drf__cost;

/* The cost of a step no draft is long enough to be worth. */
#define DRF__UNPRICED 1e30

/* Every row count's cost from table (drf_copy_opts.step_costs), or from
 * stepcost_table_default when it is NULL. -1 with err filled for a table
 * that is not valid (stepcost_table_valid). */
int drf__cost_init(drf__cost *c, const stepcost_table *table, sb_err *err);

/* The d in 0..max_d (max_d <= ENG_MAX_DRAFT) that maximises
 * (1 + p[0] + ... + p[d-1]) / t[d + 1]; the shortest on a tie. p[k] is the
 * probability that draft tokens 0..k all hold (non-increasing, in 0..1). */
int32_t drf__cost_best_len(const drf__cost *c, const double *p, int32_t max_d);

/* ==== running acceptance =================================================== */

typedef enum drf__kind {
    DRF__KIND_FRESH,      /* first token of a span a lookup found in the
                             source, away from the departure (lookup_only:
                             found anywhere) */
    DRF__KIND_INSIDE,     /* a token that continues a settled span */
    DRF__KIND_YOUNG,      /* a token of a span that has not settled yet (held
                             a few tokens) since the output came back from
                             text of its own */
    DRF__KIND_NEAR,       /* first token of a span a lookup found in the
                             source near where the output left it */
    DRF__KIND_HISTORY,    /* first token of a span a lookup found in the
                             prompt or the output */
    DRF__KIND_RESUME,     /* first token of a span resumed after one token
                             seen again just past the departure */
    DRF__KIND_ONE,        /* first token of a span found by one token alone */
    DRF__KIND_YOUNG_NEAR, /* YOUNG, in a span found near the departure */
    DRF__N_KINDS
} drf__kind;

/* Per kind, the decayed counts of draft tokens the model checked and of
 * those it accepted: a rate that follows the recent drafts. */
typedef struct drf__accept {
    double hit[DRF__N_KINDS], seen[DRF__N_KINDS];
} drf__accept;

/* Starts every rate at its prior: lookup_only, the 2026-12 baseline's
 * (drf_copy_opts.lookup_only). */
void drf__accept_init(drf__accept *a, bool lookup_only);
/* One checked draft token of kind k: held or not. */
void drf__accept_observe(drf__accept *a, drf__kind k, bool held);
/* P(a token of kind k holds | the tokens before it held), in (0, 1). */
double drf__accept_rate(const drf__accept *a, drf__kind k);

/* The draft length for a span whose next n (<= ENG_MAX_DRAFT) tokens have
 * kinds kind[0..n-1]: drf__cost_best_len over the survival the rates give. */
int32_t drf__draft_len(const drf__cost *c, const drf__accept *a,
                       const uint8_t *kind, int32_t n);

#endif /* SB_DRAFTER_LENGTH_H */
