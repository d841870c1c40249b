/*
 * length.c — draft length from the step-cost table and running acceptance
 * (drafter/length.h says what is maximised).
 */
#include <math.h>

#include "length.h"

/* The default step cost: the H200 step times of a synthetic Qwen2.5-7B
 * Q4_K_M model, KV depth 0, measured 2026-12-02 (bench/RESULTS.md, third
 * CUDA speed pass), in ms. The engine has a CUDA graph for each of 1..16
 * rows and for 24, 32, 48 and 64, so r rows cost the next bucket's time;
 * 3, 5..7 and 9..15 rows, not measured, are interpolated linearly between
 * their measured neighbours. A caller with its own measurements (another
 * GPU, the CPU) replaces the table through drf_copy_opts.step_cost. */
static const struct { int32_t rows; double ms; } length__measured[] = {
    {1, 3.14}, {2, 3.85}, {4, 5.05}, {8, 7.12}, {16, 8.67},
    {24, 10.07}, {32, 12.19}, {48, 20.29}, {64, 23.14},
};
enum { LENGTH__N_MEASURED = sizeof length__measured / sizeof *length__measured,
       LENGTH__LAST_GRAPH_EACH = 16 /* graphs for every row count up to */ };

static void length__default(drf__cost *c) {
    for (int32_t i = 0; i + 1 < LENGTH__N_MEASURED; i++) {
        int32_t r0 = length__measured[i].rows, r1 = length__measured[i + 1].rows;
        double t0 = length__measured[i].ms, t1 = length__measured[i + 1].ms;
        if (i == 0) c->t[r0] = t0;
        for (int32_t r = r0 + 1; r <= r1; r++)
            c->t[r] = r1 <= LENGTH__LAST_GRAPH_EACH
                          ? t0 + (t1 - t0) * (double)(r - r0) / (double)(r1 - r0)
                          : t1; /* padded up to the bucket */
    }
}

int drf__cost_init(drf__cost *c, const double *step_cost, sb_err *err) {
    c->t[0] = 0;
    if (!step_cost) {
        length__default(c);
        return 0;
    }
    for (int32_t r = 1; r <= KRN_MAX_ROWS; r++) {
        if (!isfinite(step_cost[r]) || step_cost[r] <= 0)
            return sb_err_set(err, "drf_copy_create", "step_cost[%d] = %g; "
                              "expected a positive finite cost", (int)r,
                              step_cost[r]);
        c->t[r] = step_cost[r];
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
