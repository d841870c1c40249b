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
    eng_edit_request er;       /* borrows the request's strings */
    const char *language;      /* edit_language's answer; may be NULL */
    int64_t fence_len;
    bool added_newline;        /* edit_adds_newline of the file */
    int32_t *prompt_ids;       /* owned (malloc) */
    int32_t n_prompt;
    int32_t *file_ids;         /* the file alone, special matching off;
                                  owned */
    int32_t n_file;
} edit__job;

/* Checks the request, resolves the language and tokenizes the prompt and
 * the file. On failure everything is freed. */
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

/* The table as the copy drafter takes it (edit/cost.c): a cost for every
 * row count 1..64 (index 0 unused); a row count beyond the largest listed
 * gets a cost no draft length can be worth. */
void edit__dense_costs(const edit_cost_table *t,
                       double dense[KRN_MAX_ROWS + 1]);

/* Makes the drafter `kind` for job: the copy drafter indexes the file
 * (its tokens and, where a grammar knows its language, its syntax), the
 * n-gram baseline the prompt's tokens. step_cost: the copy drafter's
 * step-cost table (drf_copy_opts), NULL for its default. */
int edit__drafter_make(edit_drafter_kind kind, const eng_model *m,
                       const edit__job *job, const double *step_cost,
                       edit__drafter *d, sb_err *err);
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
