/*
 * edit_internal.h — private to edit/: what edit_run (edit.c) and
 * edit_simulate (sim.c) share, so that a simulated edit prompts, tokenizes
 * and drafts exactly as a real one does.
 */
#ifndef SB_EDIT_INTERNAL_H
#define SB_EDIT_INTERNAL_H

#include "../drafter/drafter.h"
#include "edit.h"

/* An edit's inputs in the engine's terms. */
typedef struct edit__job {
    edit_request rq;           /* the request; borrows its strings */
    const char *language;      /* edit_language's answer; may be NULL */
    int64_t fence_len;
    bool added_newline;        /* edit_adds_newline of the file */
    int32_t *prompt_ids;       /* owned (malloc) */
    int32_t n_prompt;
    int32_t *file_ids;         /* the file's ids as encoding it alone gives
                                  them (special matching off); owned */
    int32_t n_file;
    bool file_ids_from_prompt; /* taken from the prompt's ids (the file was
                                  tokenized once), else encoded again */
    int32_t *context_ids;      /* the same for the request's context (v2;
                                  NULL without one); owned */
    int32_t n_context;
} edit__job;

/* Where the file's and the context's own ids lie among the prompt's:
 * ids[file_first .. file_first + file_count) are exactly the ids of the
 * file encoded alone (special matching off), or file_first is -1 when the
 * prompt's encoding does not split cleanly at the file's first and last
 * byte (eng_tokenize_cuts: a file that starts with a blank line, or lacks
 * a final newline after punctuation, or needs UTF-8 repair or
 * normalisation); the same for the context (-1 also when there is none). */
typedef struct edit__spans {
    int64_t file_first, file_count;
    int64_t context_first, context_count;
} edit__spans;

/* [prompt.c] edit_prompt_tokens, and where the file and the context lie in
 * the prompt's ids (where may be NULL). */
int edit__prompt_tokens(const eng_model *m, const edit_request *r,
                        int32_t **ids, int64_t *n, edit__spans *where,
                        sb_err *err);

/* Checks the request, resolves the language, tokenizes the prompt and
 * takes the file's ids from it (encoding the file alone only when the
 * prompt's ids do not split cleanly around it). On failure everything is
 * freed. */
int edit__job_make(const eng_model *m, const edit_request *req,
                   edit__job *job, sb_err *err);
void edit__job_free(edit__job *job);

/* The drafter of one edit; at most one of copy/ngram is set (neither for
 * EDIT_DRAFTER_NONE, when table is unused). */
typedef struct edit__drafter {
    drf_copy *copy;
    drf_ngram *ngram;
    eng_drafter table;
} edit__drafter;

/* Makes the drafter `kind` for job: the copy drafter indexes the file's
 * tokens (copy-plain: lookup_only), the n-gram baseline the prompt's. step_costs: the copy drafter's
 * step-cost table (drf_copy_opts), NULL for the default. */
int edit__drafter_make(edit_drafter_kind kind, const edit__job *job,
                       const stepcost_table *step_costs, edit__drafter *d,
                       sb_err *err);
void edit__drafter_free(edit__drafter *d);

/* The last part of edit_run, after generation: the raw reply from
 * res->gen's tokens, then EDIT_CANCELLED when cancelled, else the edited
 * file taken out of the reply (EDIT_DONE, 0) or EDIT_BAD_ANSWER. A seam
 * for tests, which inject a reply here that a random-weight model could
 * never write. */
int edit__finish(const eng_model *m, const edit__job *job, bool cancelled,
                 edit_result *res, sb_err *err);

/* The id that ends the assistant's turn (<|im_end|>), else the model's
 * EOS; -1 when the model has neither. */
int32_t edit__end_id(const eng_model *m);

#endif /* SB_EDIT_INTERNAL_H */
