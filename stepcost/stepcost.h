/*
 * stepcost.h — the public face of stepcost/: what one forward step costs
 * by the rows it scores. The one table that the copy drafter sizes its
 * drafts by and that sb draftsim and sb bench price simulated steps with.
 *
 * A speculative step scores 1 + d rows (the last committed token and d
 * draft tokens). Whether a longer draft pays depends on how the step's
 * cost grows with its rows, so every place that weighs or prices drafts
 * reads this table, and nothing else restates its numbers.
 *
 *     sb_err err = {0};
 *     stepcost_table t;
 *     stepcost_table_default(&t);               // the documented default
 *     if (path && stepcost_table_load(path, &t, &err))   // --cost-table
 *         fprintf(stderr, "sb: %s\n", err.msg);
 *     double c = stepcost_table_cost(&t, 17);  // 17 rows run as 24
 *
 * Where a table comes from:
 *  - the default (stepcost_table_default): one H100's step times for a
 *    7B Q4_K_M model at KV depth 0, listed in stepcost.c with the date
 *    and command they were measured with;
 *  - a file (stepcost_table_load, `--cost-table FILE` of sb edit, sb
 *    draftsim and sb bench, `costTable` of sb-lsp): lines "ROWS COST";
 *  - measurements (stepcost_table_set): sb bench fills a table from the
 *    step times it measures in the same run; warmup/'s wu_step_costs
 *    measures this machine's at warm-up (sb-lsp does, unless costTable
 *    names a table), and a warm-up table carries them to the same device.
 *
 * Rows not listed. The CUDA backend runs a step of r rows on the graph of
 * the smallest row bucket >= r; there is a bucket for every row count up
 * to STEPCOST_EACH_ROW_UP_TO and then 24, 32, 48, 64. So a row count that
 * is not listed costs:
 *  - up to STEPCOST_EACH_ROW_UP_TO, when the next listed row count is
 *    within that range too: the straight line between its listed
 *    neighbours (3 rows: halfway between 2 and 4);
 *  - otherwise what the next listed row count costs (17..23 rows: the
 *    24-row cost), as a padded step does;
 *  - past the largest listed row count: nothing (no price; a drafter never
 *    drafts that far, a simulation that needs it is an error).
 * Costs are in any one unit (the default's are ms): only ratios matter.
 */
#ifndef SB_STEPCOST_H
#define SB_STEPCOST_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"

enum {
    STEPCOST_MAX_ROWS = 64,      /* rows one step scores at most (the
                                    engine's KRN_MAX_ROWS) */
    STEPCOST_EACH_ROW_UP_TO = 16 /* row counts that each have their own
                                    CUDA graph: 1..16 */
};

typedef struct stepcost_table {
    /* listed[r] > 0: the cost of a step of r rows, r = 1..STEPCOST_MAX_ROWS;
     * 0: not listed. listed[1] is always > 0 in a valid table: plain
     * decoding's step, the baseline of every speedup. */
    double listed[STEPCOST_MAX_ROWS + 1];
    /* Where the numbers came from, for reports: "default: ...", a file's
     * path, "measured: ..."; NUL-terminated, truncated to fit. */
    char source[160];
} stepcost_table;

/* The default table (stepcost.c documents the measurement). */
void stepcost_table_default(stepcost_table *t);

/* An empty table (nothing listed; not valid until row 1 is set) whose
 * source reads `source` (may be NULL). */
void stepcost_table_empty(stepcost_table *t, const char *source);

/* Lists the cost of a step of `rows` rows (1..STEPCOST_MAX_ROWS), a
 * positive finite number, replacing a cost listed before. -1 with err
 * naming the value for anything else. */
int stepcost_table_set(stepcost_table *t, int rows, double cost, sb_err *err);

/* Parses a table's text: one "ROWS COST" line per row count (ROWS
 * 1..STEPCOST_MAX_ROWS, each at most once; COST a positive number),
 * blank lines and lines starting with '#' ignored; ROWS 1 must be listed.
 * -1 with err naming the line for anything else. The source is left "". */
int stepcost_table_parse(const char *text, int64_t len, stepcost_table *t,
                         sb_err *err);

/* Reads and parses the file at path (at most 64 KiB); the source is the
 * path. -1 with err naming the path (and the line) on failure; *t is then
 * unspecified. */
int stepcost_table_load(const char *path, stepcost_table *t, sb_err *err);

/* True when t is stepcost_table_default's table, untouched (its source
 * says so): the user named no table, so a measured one may replace it. */
bool stepcost_table_is_default(const stepcost_table *t);

/* True when row 1 is listed and every listed cost is positive and finite
 * (what set, parse and load guarantee; for tables filled by hand). */
bool stepcost_table_valid(const stepcost_table *t);

/* The cost of a step of `rows` rows (1..STEPCOST_MAX_ROWS) by the rules
 * above; -1 when rows is out of range or past the largest listed row
 * count. */
double stepcost_table_cost(const stepcost_table *t, int rows);

/* The largest listed row count (0 when nothing is listed). */
int stepcost_table_max_rows(const stepcost_table *t);

/* Writes the listed rows as "ROWS:COST" pairs separated by spaces
 * ("1:3.22 2:3.59 ..."), NUL-terminated, into buf of cap bytes (truncated
 * to fit). Returns buf. */
char *stepcost_table_format(const stepcost_table *t, char *buf, size_t cap);

#endif /* SB_STEPCOST_H */
