/*
 * context.c — which lines of a document an edit prompt shows as context
 * (prompt v2), within a budget of tokens.
 *
 * The rule (docs/architecture.md, "The edit prompt's versions and
 * context"): the whole document when it fits; else a window of whole lines
 * that holds the region, as many as the budget allows from its first line,
 * which lies on a grid of half a budget's worth of lines (at the
 * document's mean tokens per line): the earliest grid line whose window
 * still reaches past the region. Edits whose regions end in the same
 * stretch of the grid thus show the same window and share the prompt's
 * prefix (the prefix cache keeps it); a region the budget cannot hold from
 * any grid line is shown from its own first line.
 */
#include <stdlib.h>
#include <string.h>

#include "edit_internal.h"

int32_t edit_context_budget_default(int32_t capacity) {
    return capacity > 1 ? capacity / 2 : 1;
}

/* Line starts of text[0..n): starts[0] = 0, ..., starts[lines] = n. */
static int64_t *context__line_starts(const char *text, int64_t n,
                                     int64_t *lines) {
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) k += text[i] == '\n';
    if (n > 0 && text[n - 1] != '\n') k++;
    int64_t *starts = malloc((size_t)(k + 1) * sizeof *starts);
    if (!starts) return NULL;
    int64_t j = 0;
    starts[j++] = 0;
    for (int64_t i = 0; i < n && j < k + 1; i++)
        if (text[i] == '\n') starts[j++] = i + 1;
    starts[k] = n;
    *lines = k;
    return starts;
}

/* Tokens of each line encoded alone (special matching off). */
static int context__line_tokens(const eng_model *m, const char *text,
                                const int64_t *starts, int64_t lines,
                                int64_t *tokens) {
    int64_t longest = 0;
    for (int64_t i = 0; i < lines; i++)
        if (starts[i + 1] - starts[i] > longest) longest = starts[i + 1] - starts[i];
    int32_t *ids = malloc((size_t)(3 * longest + 1) * sizeof *ids);
    if (!ids) return -1;
    for (int64_t i = 0; i < lines; i++) {
        const int64_t len = starts[i + 1] - starts[i];
        tokens[i] = len ? eng_tokenize_ex(m, text + starts[i], len, ids,
                                          3 * longest + 1, 0)
                        : 0;
        if (tokens[i] < 0) {
            free(ids);
            return -1;
        }
    }
    free(ids);
    return 0;
}

/* Finds the line index of byte offset `at`, which must be a line start (or
 * the end); -1 otherwise. */
static int64_t context__line_of(const int64_t *starts, int64_t lines, int64_t at) {
    int64_t lo = 0, hi = lines;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return starts[lo] == at ? lo : -1;
}

/* One past the last line of the window that starts at line s: as many
 * whole lines as the budget holds. */
static int64_t context__fit(const int64_t *tokens, int64_t lines, int64_t s,
                            int64_t budget) {
    int64_t e = s, used = 0;
    while (e < lines && used + tokens[e] <= budget) used += tokens[e++];
    return e;
}

/* The window [*first, *last) of lines for the region [a, b), by the rule
 * above; total (> budget) is the document's tokens, tokens[i] line i's. */
static void context__window(const int64_t *tokens, int64_t lines, int64_t total,
                            int64_t a, int64_t b, int64_t budget, int64_t *first,
                            int64_t *last) {
    /* half a budget's worth of lines at the document's mean density */
    int64_t grid = lines * (budget / 2) / total;
    if (grid < 1) grid = 1;
    int64_t s = a / grid * grid;
    if (context__fit(tokens, lines, s, budget) < b) { /* the region alone */
        int64_t e = context__fit(tokens, lines, a, budget);
        *first = a;
        *last = e > b ? e : b;
        return;
    }
    while (s >= grid && context__fit(tokens, lines, s - grid, budget) >= b) s -= grid;
    *first = s;
    *last = context__fit(tokens, lines, s, budget);
}

static int64_t context__line_number(const char *text, int64_t at) {
    int64_t line = 1;
    for (int64_t i = 0; i < at; i++) line += text[i] == '\n';
    return line;
}

int edit_request_context_at(edit_request *r, const char *document,
                            int64_t doc_len, int64_t from, int64_t to,
                            int64_t context_from, int64_t context_to,
                            sb_err *err) {
    if (!document || from < 0 || to < from || to > doc_len || context_from < 0 ||
        context_to < context_from || context_to > doc_len || context_from > from ||
        context_to < to)
        return sb_err_set(err, "edit context", "the context %lld..%lld does not "
                          "hold the region %lld..%lld of the document (%lld "
                          "bytes)", (long long)context_from, (long long)context_to,
                          (long long)from, (long long)to, (long long)doc_len);
    r->file = document + from;
    r->file_len = to - from;
    r->prompt_version = 2;
    r->context = document + context_from;
    r->context_len = context_to - context_from;
    r->context_line = context__line_number(document, context_from);
    r->region_line = r->context_line +
                     context__line_number(document + context_from, from - context_from) - 1;
    r->context_whole = context_from == 0 && context_to == doc_len;
    return 0;
}

int edit_request_set_context(edit_request *r, const eng_model *m,
                             const char *document, int64_t doc_len,
                             int64_t from, int64_t to, int32_t budget_tokens,
                             sb_err *err) {
    if (!document || doc_len < 0 || from < 0 || to < from || to > doc_len)
        return sb_err_set(err, "edit context", "region %lld..%lld is outside "
                          "the document (%lld bytes)", (long long)from,
                          (long long)to, (long long)doc_len);
    int64_t lines = 0;
    int64_t *starts = context__line_starts(document, doc_len, &lines);
    int64_t *tokens = starts ? malloc((size_t)(lines + 1) * sizeof *tokens) : NULL;
    int rc = -1;
    if (!tokens || context__line_tokens(m, document, starts, lines, tokens)) {
        sb_err_set(err, "edit context", "out of memory for the document's "
                   "%lld lines", (long long)lines);
        goto done;
    }
    const int64_t a = context__line_of(starts, lines, from);
    const int64_t b = context__line_of(starts, lines, to);
    if (a < 0 || b < 0) {
        sb_err_set(err, "edit context", "the region %lld..%lld does not start "
                   "and end at line starts", (long long)from, (long long)to);
        goto done;
    }
    int64_t total = 0;
    for (int64_t i = 0; i < lines; i++) total += tokens[i];
    int64_t first = 0, last = lines;
    if (total > budget_tokens)
        context__window(tokens, lines, total, a, b, budget_tokens, &first, &last);
    rc = edit_request_context_at(r, document, doc_len, from, to, starts[first],
                                 starts[last], err);
done:
    free(starts);
    free(tokens);
    return rc;
}
