/*
 * stepcost.c — the step-cost table (stepcost.h): the default, files,
 * measurements and the cost of any row count.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcost.h"

/* The default: ms per forward step of a synthetic Qwen2.5-7B Q4_K_M model
 * (`sb mkmodel --shape 7b --quant q4_k_m --seed 1`) at KV depth 0 on one
 * NVIDIA H100 80GB HBM3, measured 2026-12-05 at commit 74def10 with
 * `engine_steps ... --depth 0 --reps 10` (bench/RESULTS.md, ninth CUDA
 * pass). A fallback only: sb-lsp measures the machine at hand
 * (warmup/costs.c); --cost-table or sb bench's costs replace it elsewhere. */
static const struct { int rows; double ms; } stepcost__h100[] = {
    {1, 3.22},  {2, 3.59},  {4, 3.65},  {8, 4.00},   {16, 5.21},
    {24, 8.00}, {32, 8.36}, {48, 14.31}, {64, 12.95},
};
static const char stepcost__h100_source[] =
    "default: H100, 7B Q4_K_M, KV depth 0, 2026-12-05";

/* Longest table file read (a full table is ~64 short lines). */
enum { STEPCOST__MAX_FILE = 64 << 10, STEPCOST__MAX_LINE = 127 };

void stepcost_table_empty(stepcost_table *t, const char *source) {
    memset(t, 0, sizeof *t);
    if (source) snprintf(t->source, sizeof t->source, "%s", source);
}

void stepcost_table_default(stepcost_table *t) {
    stepcost_table_empty(t, stepcost__h100_source);
    for (size_t i = 0; i < sizeof stepcost__h100 / sizeof *stepcost__h100; i++)
        t->listed[stepcost__h100[i].rows] = stepcost__h100[i].ms;
}

bool stepcost_table_is_default(const stepcost_table *t) {
    return !strcmp(t->source, stepcost__h100_source);
}

int stepcost_table_set(stepcost_table *t, int rows, double cost, sb_err *err) {
    if (rows < 1 || rows > STEPCOST_MAX_ROWS)
        return sb_err_set(err, "stepcost_table_set", "rows %d; expected 1..%d",
                          rows, STEPCOST_MAX_ROWS);
    if (!isfinite(cost) || cost <= 0)
        return sb_err_set(err, "stepcost_table_set", "cost %g for %d rows; "
                          "expected a positive finite number", cost, rows);
    t->listed[rows] = cost;
    return 0;
}

bool stepcost_table_valid(const stepcost_table *t) {
    if (!t || !(t->listed[1] > 0)) return false;
    for (int r = 1; r <= STEPCOST_MAX_ROWS; r++)
        if (!isfinite(t->listed[r]) || t->listed[r] < 0) return false;
    return true;
}

/* Parses one line "ROWS COST" (NUL-terminated, not blank, not a comment);
 * errors are reported as `where` (the table's name). */
static int stepcost__line(const char *s, int line, stepcost_table *t,
                          const char *where, sb_err *err) {
    char *end;
    errno = 0;
    long rows = strtol(s, &end, 10);
    if (errno || end == s || rows < 1 || rows > STEPCOST_MAX_ROWS ||
        (*end != ' ' && *end != '\t'))
        return sb_err_set(err, where, "line %d: '%s': expected 'ROWS COST' "
                          "with ROWS 1..%d", line, s, STEPCOST_MAX_ROWS);
    const char *c = end;
    double cost = strtod(c, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r') end++;
    if (end == c || *end || !isfinite(cost) || cost <= 0)
        return sb_err_set(err, where, "line %d: '%s': expected 'ROWS COST' "
                          "with a positive COST", line, s);
    if (t->listed[rows] > 0)
        return sb_err_set(err, where, "line %d: %ld rows listed twice", line,
                          rows);
    t->listed[rows] = cost;
    return 0;
}

static int stepcost__parse(const char *text, int64_t len, stepcost_table *t,
                           const char *where, sb_err *err) {
    stepcost_table_empty(t, NULL);
    if (len < 0 || (len > 0 && !text)) return sb_err_set(err, where, "no text");
    int line = 0;
    for (int64_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', (size_t)(len - at));
        int64_t n = nl ? nl - (text + at) : len - at;
        line++;
        char buf[STEPCOST__MAX_LINE + 1];
        if (n > STEPCOST__MAX_LINE)
            return sb_err_set(err, where, "line %d is longer than %d "
                              "bytes", line, STEPCOST__MAX_LINE);
        memcpy(buf, text + at, (size_t)n);
        buf[n] = '\0';
        at += n + 1;
        if (memchr(buf, '\0', (size_t)n))
            return sb_err_set(err, where, "line %d holds a NUL byte",
                              line);
        const char *s = buf + strspn(buf, " \t\r");
        if (!*s || *s == '#') continue;
        if (stepcost__line(s, line, t, where, err)) return -1;
    }
    if (!(t->listed[1] > 0))
        return sb_err_set(err, where, "no line for 1 row (plain "
                          "decoding's step, which every speedup is "
                          "measured against)");
    return 0;
}

int stepcost_table_parse(const char *text, int64_t len, stepcost_table *t,
                         sb_err *err) {
    return stepcost__parse(text, len, t, "cost table", err);
}

/* The file's bytes, at most STEPCOST__MAX_FILE, into a malloc'd buffer. */
int stepcost_table_load(const char *path, stepcost_table *t, sb_err *err) {
    if (!path || !*path) return sb_err_set(err, "cost table", "no path");
    char *text = NULL;
    int64_t len = 0;
    if (sb_read_file(path, "cost table", STEPCOST__MAX_FILE, &text, &len, err)) return -1;
    char where[300];
    snprintf(where, sizeof where, "cost table '%.250s'", path);
    int rc = stepcost__parse(text, len, t, where, err);
    free(text);
    if (rc) return -1;
    snprintf(t->source, sizeof t->source, "%s", path);
    return 0;
}

double stepcost_table_cost(const stepcost_table *t, int rows) {
    if (rows < 1 || rows > STEPCOST_MAX_ROWS) return -1;
    if (t->listed[rows] > 0) return t->listed[rows];
    int lo = rows - 1, hi = rows + 1;
    while (lo >= 1 && !(t->listed[lo] > 0)) lo--;
    while (hi <= STEPCOST_MAX_ROWS && !(t->listed[hi] > 0)) hi++;
    if (hi > STEPCOST_MAX_ROWS) return -1;
    if (lo < 1 || hi > STEPCOST_EACH_ROW_UP_TO) return t->listed[hi];
    double a = t->listed[lo], b = t->listed[hi];
    return a + (b - a) * (double)(rows - lo) / (double)(hi - lo);
}

int stepcost_table_max_rows(const stepcost_table *t) {
    for (int r = STEPCOST_MAX_ROWS; r >= 1; r--)
        if (t->listed[r] > 0) return r;
    return 0;
}

char *stepcost_table_format(const stepcost_table *t, char *buf, size_t cap) {
    if (!cap) return buf;
    size_t at = 0;
    buf[0] = '\0';
    for (int r = 1; r <= STEPCOST_MAX_ROWS && at < cap; r++) {
        if (!(t->listed[r] > 0)) continue;
        int n = snprintf(buf + at, cap - at, "%s%d:%.10g", at ? " " : "", r,
                         t->listed[r]);
        if (n < 0) break;
        at += (size_t)n;
    }
    return buf;
}
