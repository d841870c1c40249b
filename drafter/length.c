/*
 * length.c — draft length from the step-cost table and running acceptance
 * (drafter/length.h says what is maximised).
 */
#include <math.h>

#include "length.h"

_Static_assert((int)STEPCOST_MAX_ROWS == (int)KRN_MAX_ROWS,
               "the step-cost table covers every row count a step can score");

int drf__cost_init(drf__cost *c, const stepcost_table *table, sb_err *err) {
    stepcost_table fallback;
    if (!table) {
        stepcost_table_default(&fallback);
        table = &fallback;
    }
    if (!stepcost_table_valid(table))
        return sb_err_set(err, "drf_copy_create", "step-cost table '%s' is "
                          "not valid (it needs a positive cost for 1 row and "
                          "positive finite costs elsewhere)", table->source);
    c->t[0] = 0;
    for (int32_t r = 1; r <= KRN_MAX_ROWS; r++) {
        double t = stepcost_table_cost(table, r);
        c->t[r] = t > 0 ? t : DRF__UNPRICED;
    }
    return 0;
}

int32_t drf__cost_best_len(const drf__cost *c, const double *p, int32_t max_d) {
    int32_t best = 0;
    double tokens = 1, best_rate = 1 / c->t[1];
    for (int32_t d = 1; d <= max_d; d++) {
        tokens += p[d - 1];
        double rate = tokens / c->t[d + 1];
        if (rate > best_rate) {
            best = d;
            best_rate = rate;
        }
    }
    return best;
}

/* ==== running acceptance =================================================== */

/* Priors, as (rate, weight in observations), near what each kind scored
 * on the tuning part of the real edits (bench/realedits/tune, sb draftsim
 * with the default step costs, 2026-12-04): a settled span nearly always
 * goes on (0.997; 0.99 here, so that a generation's first drafts are not
 * all 63 tokens long); a span the output comes back to near where it left
 * the source holds its first token 7 times in 10 and then about 9 in 10
 * until it settles; one found elsewhere in the source 4.6 in 10 and then
 * 7; a span of the history 7 in 10; a resume after one token seen again
 * just past the departure 5 in 10; a span found by one token alone 3. */
static const struct { double rate, weight; } length__prior[DRF__N_KINDS] = {
    [DRF__KIND_FRESH] = {0.45, 8},  [DRF__KIND_INSIDE] = {0.99, 8},
    [DRF__KIND_YOUNG] = {0.7, 8},   [DRF__KIND_NEAR] = {0.7, 8},
    [DRF__KIND_HISTORY] = {0.7, 8}, [DRF__KIND_RESUME] = {0.5, 8},
    [DRF__KIND_ONE] = {0.3, 8},     [DRF__KIND_YOUNG_NEAR] = {0.9, 8},
};
/* The baseline's priors (drf_copy_opts.lookup_only), as they were set on
 * the written edit tasks of tests/data/edits and bench/edits before the
 * real edits existed; kept so that copy-plain stays the yardstick it was. */
static const struct { double rate, weight; } length__prior_plain[] = {
    [DRF__KIND_FRESH] = {0.4, 8},
    [DRF__KIND_INSIDE] = {0.9, 8},
    [DRF__KIND_YOUNG] = {0.7, 8},
};
/* Each observation scales the older ones by this: about the last ten of a
 * kind count. An edit changes character as it goes (a stretch of new
 * lines, then long copies), and the changes of a file come in clusters (on
 * the tuning edits a third of the hunks start within 5 lines of the one
 * before), so a rate that follows the last few drafts closely gives more
 * tokens per unit of time than a slow one: 0.9 projected 7.10x there, 0.99
 * for settled spans 6.91x, 0.8 7.09x. */
#define LENGTH__DECAY 0.9

void drf__accept_init(drf__accept *a, bool lookup_only) {
    for (int k = 0; k < DRF__N_KINDS; k++) {
        double rate = length__prior[k].rate, weight = length__prior[k].weight;
        if (lookup_only && k <= DRF__KIND_YOUNG) {
            rate = length__prior_plain[k].rate;
            weight = length__prior_plain[k].weight;
        }
        a->hit[k] = rate * weight;
        a->seen[k] = weight;
    }
}

void drf__accept_observe(drf__accept *a, drf__kind k, bool held) {
    a->hit[k] = a->hit[k] * LENGTH__DECAY + (held ? 1 : 0);
    a->seen[k] = a->seen[k] * LENGTH__DECAY + 1;
}

double drf__accept_rate(const drf__accept *a, drf__kind k) {
    return a->hit[k] / a->seen[k];
}

int32_t drf__draft_len(const drf__cost *c, const drf__accept *a,
                       const uint8_t *kind, int32_t n) {
    double p[ENG_MAX_DRAFT], survive = 1;
    if (n > ENG_MAX_DRAFT) n = ENG_MAX_DRAFT;
    for (int32_t k = 0; k < n; k++) {
        survive *= drf__accept_rate(a, (drf__kind)kind[k]);
        p[k] = survive;
    }
    return drf__cost_best_len(c, p, n);
}
