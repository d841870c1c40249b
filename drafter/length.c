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
 * on the edit tasks of tests/data/edits and bench/edits (sb draftsim): a
 * span a lookup finds holds its first token a little under half the time
 * and one guessed at the next unit about two times in three, a one-for-
 * one replacement guess one in three to five; a span that just came back
 * from new text breaks off far more often (about 0.7 a token) than one
 * that has settled, which usually goes on holding. The start of a unit
 * is where edits insert or change lines: its own rate, a little below a
 * settled span's to begin with, learns whether they do in this edit. */
static const struct { double rate, weight; } length__prior[DRF__N_KINDS] = {
    [DRF__KIND_FRESH] = {0.4, 8},
    [DRF__KIND_INSIDE] = {0.9, 8},
    [DRF__KIND_BOUNDARY] = {0.8, 4},
    [DRF__KIND_YOUNG] = {0.7, 8},
    [DRF__KIND_RESYNC] = {0.6, 4},
    [DRF__KIND_REPLACE] = {0.2, 4},
};
/* Each observation scales the older ones by this: about the last ten of a
 * kind count. An edit changes character as it goes (a stretch of new
 * lines, then long copies), and a rate that follows it closely gave more
 * tokens per unit of time than a slow one (0.99: 3.0x projected on
 * tests/data/edits, 0.9: 3.2x). */
#define LENGTH__DECAY 0.9

void drf__accept_init(drf__accept *a) {
    for (int k = 0; k < DRF__N_KINDS; k++) {
        a->hit[k] = length__prior[k].rate * length__prior[k].weight;
        a->seen[k] = length__prior[k].weight;
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
