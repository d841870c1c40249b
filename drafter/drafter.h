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
 * Made from text (drf_copy_create_text) in a language with a grammar, the
 * drafter also knows the source's syntax units — the largest node that
 * begins each line (statement, declaration, field, comment) — and
 *  (a) prefers, among occurrences that agree equally, one at or after the
 *      start of the unit it last copied from over one in units already
 *      copied; and after a change of 1..2 tokens inside a unit (a name, a
 *      literal, a type; not at the unit's head, where a new line is far
 *      likelier), resumes right after the tokens they replaced, in source
 *      order — unless a lookup finds a span in that same unit, or one
 *      that agrees with min_match tokens before the change as well (lines
 *      reordered: the new text goes on as that place does);
 *  (b) after the output leaves the source, guesses at the end of each new
 *      line that it comes back at the next unit: the unit it left, if it
 *      left before any of that unit's own text (a line inserted before
 *      it), else the one after (a line changed) — unless a lookup agrees
 *      further back than the new text;
 *  (c) counts the first token of a unit as its own kind in the running
 *      acceptance below, so drafts stop at a unit's end or run past it as
 *      the output has lately done.
 * On the edit tasks of tests/data/edits and bench/edits (sb draftsim
 * --drafter copy vs copy-plain) this drafts more tokens per step and
 * projects a higher speedup than plain token copying.
 *
 * Draft length: per step, the d (0..max_draft) that maximises expected
 * tokens per unit of time, (1 + p1 + ... + pd) / cost(d + 1 rows), where
 * pk, the chance that the first k tokens hold, comes from running
 * acceptance rates per kind of draft token (drafter/length.h: the first
 * token of a span by how it was found — a lookup, a boundary guess, a
 * replacement guess —, a token of a span that has not settled since the
 * output came back from new text, one inside a unit, the first of a
 * unit). Tokens per second, not per step. */
typedef struct drf_copy_opts {
    int32_t min_match; /* tokens a lookup needs, 1..3; 0: 2 */
    bool source_only;  /* never copy from the prompt or the output */
    /* The output is expected to begin with the source's first tokens (an
     * edit's answer: the file, edited): the first draft copies the source
     * from its start, before any lookup. */
    bool starts_like_source;
    /* What a step costs by the rows it scores (stepcost.h); NULL:
     * stepcost_table_default. Borrowed for the create call only. */
    const stepcost_table *step_costs;
} drf_copy_opts;

typedef struct drf_copy drf_copy;

/* Indexes n_source ids of source (copied; the caller keeps its array).
 * n_source may be 0 (then only the history is copied from). opts may be
 * NULL for the defaults. No syntax: plain token copying. NULL with err
 * filled for bad options or sizes, or when out of memory. */
drf_copy *drf_copy_create(const int32_t *source, int32_t n_source,
                          const drf_copy_opts *opts, sb_err *err);

/* A copy drafter over a file's text and its n_ids token ids `ids` (the
 * text encoded with m as ordinary text, special-token text not matched —
 * the way the edit prompt encodes a file; the edit job takes them from the
 * prompt's ids, so the file is tokenized once) and, when `language` names
 * a grammar (a name from drf_language_for_path, an LSP languageId, or a
 * grammar name), the text parsed for the syntax above. Unknown or NULL
 * language, a parse that fails or ids that do not spell the text back byte
 * for byte: plain token copying, never an error. m, text and ids are
 * borrowed for the call only.
 *
 *     const char *lang = drf_language_for_path("src/main.c");   // "c"
 *     int64_t n = eng_tokenize_ex(m, text, len, ids, cap, 0);
 *     drf_copy *c = drf_copy_create_text(m, text, len, ids, (int32_t)n,
 *                                        lang, NULL, &err);
 *     eng_drafter d = drf_copy_drafter(c);
 *
 * NULL with err filled for bad arguments or options, or no memory. */
drf_copy *drf_copy_create_text(const eng_model *m, const char *text,
                               int64_t len, const int32_t *ids, int32_t n_ids,
                               const char *language,
                               const drf_copy_opts *opts, sb_err *err);

/* The grammar the drafter parsed its source with ("c", "python", ...;
 * static), or NULL when it copies plain tokens. */
const char *drf_copy_language(const drf_copy *c);

void drf_copy_destroy(drf_copy *c);

/* The callback table for eng_gen_params.drafter: ctx is c, borrowed; the
 * table is valid until drf_copy_destroy(c). Out of memory while recording
 * the history only stops history lookups (drafts get shorter, never
 * wrong). */
eng_drafter drf_copy_drafter(drf_copy *c);

/* ==== Languages (drafter/syntax.c) ========================================= */

/* Grammars: c, cpp, python, javascript, typescript, tsx, rust, go, java,
 * json, bash, lua, yaml, markdown. */

/* The grammar for a file path, by its extension (case-insensitive: .c .h,
 * .cc .cpp .hpp ..., .py, .js .jsx, .ts, .tsx, .rs, .go, .java, .json,
 * .sh, .lua, .yaml .yml, .md), or NULL. Static string. */
const char *drf_language_for_path(const char *path);
/* The grammar for an LSP languageId or a grammar name ("typescriptreact"
 * gives "tsx", "javascriptreact" "javascript", "shellscript" "bash",
 * "jsonc" "json"), or NULL. Static string. */
const char *drf_language_for_id(const char *language_id);

/* ==== Enclosing syntax node (drafter/syntax.c) ============================= */

/* The region an edit "of the code here" rewrites, for bytes [from, to) of
 * len bytes of text (from == to: a cursor): the smallest named syntax
 * node, not the whole file, that contains [from, to), spans at least two
 * lines and covers whole lines (only blanks before it on its first line
 * and after it on its last) — a function, a class, a block, a multi-line
 * statement — widened to those whole lines: *start at its first line's
 * start, *end past its last line's "\n" (or at len). Returns true with
 * that; false, with the whole text [0, len), when `language` (as
 * drf_copy_create_text takes it) has no grammar, the text does not parse,
 * is over the parse limit, or no node qualifies. from and to are clamped
 * to 0..len and put in order. text is borrowed for the call.
 *
 *     int64_t a, b;
 *     if (drf_enclosing_region(text, len, "c", cursor, cursor, &a, &b))
 *         ...;   // text[a..b) is the function (or block) around the cursor
 */
bool drf_enclosing_region(const char *text, int64_t len, const char *language,
                          int64_t from, int64_t to, int64_t *start,
                          int64_t *end);

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
