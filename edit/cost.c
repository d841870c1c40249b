/*
 * cost.c — step-cost tables: what a decode step costs by the rows it
 * scores, for projecting a drafter's speedup (edit.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "edit_internal.h"

/* bench/RESULTS.md, "after the third speed pass": ours, ms, KV depth 0,
 * synthetic Qwen2.5-7B Q4_K_M on one H200, 2026-12-02. */
static const struct { int rows; double ms; } cost__h200[] = {
    {1, 3.14},   {2, 3.85},   {4, 5.05},   {8, 7.12},   {16, 8.67},
    {24, 10.07}, {32, 12.19}, {48, 20.29}, {64, 23.14},
};

void edit_cost_default(edit_cost_table *t) {
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < sizeof cost__h200 / sizeof *cost__h200; i++)
        t->cost[cost__h200[i].rows] = cost__h200[i].ms;
}

double edit_cost_of(const edit_cost_table *t, int rows) {
    for (int r = rows < 1 ? 1 : rows; r <= KRN_MAX_ROWS; r++)
        if (t->cost[r] > 0) return t->cost[r];
    return -1.0;
}

void edit__dense_costs(const edit_cost_table *t,
                       double dense[KRN_MAX_ROWS + 1]) {
    dense[0] = 0;
    for (int rows = 1; rows <= KRN_MAX_ROWS; rows++) {
        double c = edit_cost_of(t, rows);
        dense[rows] = c > 0 ? c : 1e30;
    }
}

/* Parses one non-blank, non-comment line "ROWS COST" (NUL-terminated). */
static int cost__line(const char *s, int line, edit_cost_table *t,
                      sb_err *err) {
    char *end;
    errno = 0;
    long rows = strtol(s, &end, 10);
    if (errno || end == s || rows < 1 || rows > KRN_MAX_ROWS)
        return sb_err_set(err, "cost table", "line %d: rows '%s': expected "
                          "1..%d", line, s, KRN_MAX_ROWS);
    const char *c = end;
    double cost = strtod(c, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r') end++;
    if (end == c || *end || !isfinite(cost) || cost <= 0)
        return sb_err_set(err, "cost table", "line %d: expected 'ROWS COST' "
                          "with a positive COST, got '%s'", line, s);
    if (t->cost[rows] > 0)
        return sb_err_set(err, "cost table", "line %d: rows %ld listed twice",
                          line, rows);
    t->cost[rows] = cost;
    return 0;
}

int edit_cost_parse(const char *text, int64_t len, edit_cost_table *t,
                    sb_err *err) {
    memset(t, 0, sizeof *t);
    int line = 0;
    for (int64_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', (size_t)(len - at));
        int64_t n = nl ? nl - (text + at) : len - at;
        line++;
        char buf[128];
        if (n >= (int64_t)sizeof buf)
            return sb_err_set(err, "cost table", "line %d is longer than %d "
                              "bytes", line, (int)sizeof buf - 1);
        memcpy(buf, text + at, (size_t)n);
        buf[n] = '\0';
        at += n + 1;
        const char *s = buf + strspn(buf, " \t\r");
        if (!*s || *s == '#') continue;
        if (cost__line(s, line, t, err)) return -1;
    }
    if (t->cost[1] <= 0)
        return sb_err_set(err, "cost table", "no line for 1 row (the plain "
                          "decoding step every speedup is measured against)");
    return 0;
}
