/*
 * costs.c — this machine's step-cost curve (stepcost.h): what a verify
 * step of r rows takes on a session, the figure the copy drafter sizes its
 * drafts by. Measured at warm-up, so the drafter weighs drafts by the
 * machine and model at hand instead of a table measured elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "warmup_internal.h"

/* The row counts measured: the step's row buckets that stepcost.h prices
 * by straight lines and steps (1..16 each have a graph; these are the
 * points the default table lists too). */
static const int wu__cost_rows[] = {1, 2, 4, 8, 16, 24, 32, 48, 64};

static int wu__cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of WU_COST_REPS timed steps of `rows` rows at positions
 * 0..rows-1, after one untimed step (a first step may build what later
 * ones reuse: a graph, pages of the KV cache). In ms; < 0 on an error. */
static double wu__step_ms(eng_session *s, const int32_t *ids, int rows, sb_err *err) {
    double ms[WU_COST_REPS];
    for (int rep = -1; rep < WU_COST_REPS; rep++) {
        eng_session_truncate(s, 0);
        const double t0 = sb_now();
        if (eng_session_step(s, ids, rows, eng_session_logits(s), err)) return -1.0;
        if (rep >= 0) ms[rep] = (sb_now() - t0) * 1e3;
    }
    qsort(ms, WU_COST_REPS, sizeof ms[0], wu__cmp_double);
    return ms[WU_COST_REPS / 2];
}

/* "measured: DEVICE (BACKEND), KV depth 0, YYYY-MM-DD" */
static void wu__cost_source(const eng_session *s, stepcost_table *t) {
    char day[16] = "";
    const time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(day, sizeof day, "%Y-%m-%d", &tm);
    snprintf(t->source, sizeof t->source, "measured: %.100s (%s), KV depth 0, %s",
             eng_session_device_name(s), eng_session_backend(s), day);
}

int wu_step_costs(eng_session *s, double budget_s, stepcost_table *out, sb_err *err) {
    stepcost_table_empty(out, NULL);
    int32_t ids[WU_CANARY_LEN];
    if (wu_canary_ids(eng_session_model(s), ids, err)) return -1;
    const double t0 = sb_now();
    for (size_t i = 0; i < sizeof wu__cost_rows / sizeof wu__cost_rows[0]; i++) {
        const int rows = wu__cost_rows[i];
        if (rows > eng_session_capacity(s) || rows > WU_CANARY_LEN) break;
        const double ms = wu__step_ms(s, ids, rows, err);
        if (ms < 0 || stepcost_table_set(out, rows, ms > 1e-6 ? ms : 1e-6, err)) {
            eng_session_truncate(s, 0);
            return -1;
        }
        if (sb_now() - t0 > budget_s) break; /* the rows after go unlisted */
    }
    eng_session_truncate(s, 0);
    wu__cost_source(s, out);
    return 0;
}
