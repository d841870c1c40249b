/*
 * job.c — what every edit needs before generating: the checked request,
 * its prompt and file as tokens, and its drafter.
 */
#include <stdlib.h>
#include <string.h>

#include "edit_internal.h"

static int job__check(const edit_request *req, sb_err *err) {
    if (!req)
        return sb_err_set(err, "edit request", "no request");
    if (!req->instruction || req->instruction_len <= 0)
        return sb_err_set(err, "edit request", "the instruction is empty");
    if (req->file_len < 0 || (req->file_len > 0 && !req->file))
        return sb_err_set(err, "edit request", "bad file: %lld bytes",
                          (long long)req->file_len);
    return 0;
}

/* Refuses, before tokenizing it, a file that cannot fit the model's
 * context whatever its tokens: a token holds at most `longest` bytes, so
 * the file is at least file_len / longest tokens. Exact, never a false
 * refusal; it spares tokenizing a huge file (60 MB: ~4.6 s, which no
 * cancel interrupts) only to fail on its length. */
static int job__fits(const eng_model *m, const edit_request *req, sb_err *err) {
    int64_t n_ctx = eng_model_n_ctx(m);
    if (req->file_len <= n_ctx) return 0; /* at least a byte per token */
    int64_t longest = 1, len;
    for (int32_t id = 0, n = eng_n_vocab(m); id < n; id++)
        if (eng_token_bytes(m, id, &len) && len > longest) longest = len;
    int64_t at_least = (req->file_len + longest - 1) / longest;
    if (at_least <= n_ctx) return 0;
    return sb_err_set(err, "edit request", "the file is %lld bytes, at least "
                      "%lld tokens (no token is longer than %lld bytes): more "
                      "than the model's context of %lld tokens", (long long)
                      req->file_len, (long long)at_least, (long long)longest,
                      (long long)n_ctx);
}

/* The ids of text[0..len), as the drafter copies them: encoded alone,
 * special matching off (as the prompt encodes it). from[0..n) when the
 * prompt's ids hold them; otherwise the text is encoded again. 3 ids per
 * byte at most, plus one. */
static int job__ids(const eng_model *m, const char *text, int64_t len,
                    const int32_t *from, int64_t n, int32_t **out,
                    int32_t *n_out, sb_err *err) {
    uint64_t cap = from ? (uint64_t)n + 1 : 3 * (uint64_t)len + 1;
    if (cap > INT32_MAX)
        return sb_err_set(err, "edit request", "the file is too long (%lld "
                          "bytes)", (long long)len);
    *out = malloc((size_t)cap * sizeof **out);
    if (!*out)
        return sb_err_set(err, "edit request", "out of memory for the "
                          "file's tokens");
    if (from) {
        memcpy(*out, from, (size_t)n * sizeof *from);
    } else {
        n = eng_tokenize_ex(m, text, len, *out, (int64_t)cap, 0);
        if (n < 0 || n > (int64_t)cap)
            return sb_err_set(err, "edit request", "could not tokenize the "
                              "file");
    }
    *n_out = (int32_t)n;
    return 0;
}

int edit__job_make(const eng_model *m, const edit_request *req,
                   edit__job *job, sb_err *err) {
    memset(job, 0, sizeof *job);
    if (job__check(req, err) || job__fits(m, req, err)) return -1;
    job->rq = *req;
    job->language = edit_language(req->language, req->path);
    job->fence_len = edit_fence_len(req->file, req->file_len);
    job->added_newline = edit_adds_newline(req->file, req->file_len);
    int64_t n = 0;
    edit__spans at;
    if (edit__prompt_tokens(m, req, &job->prompt_ids, &n, &at, err))
        goto fail;
    if (n > INT32_MAX) {
        sb_err_set(err, "edit request", "the prompt is too long (%lld tokens)",
                   (long long)n);
        goto fail;
    }
    job->n_prompt = (int32_t)n;
    const int32_t *from = at.file_first >= 0 ? job->prompt_ids + at.file_first : NULL;
    job->file_ids_from_prompt = from != NULL;
    if (job__ids(m, req->file, req->file_len, from, at.file_count,
                 &job->file_ids, &job->n_file, err))
        goto fail;
    if (req->context) {
        from = at.context_first >= 0 ? job->prompt_ids + at.context_first : NULL;
        if (job__ids(m, req->context, req->context_len, from, at.context_count,
                     &job->context_ids, &job->n_context, err))
            goto fail;
    }
    return 0;
fail:
    edit__job_free(job);
    return -1;
}

void edit__job_free(edit__job *job) {
    free(job->prompt_ids);
    free(job->file_ids);
    free(job->context_ids);
    memset(job, 0, sizeof *job);
}

/* The copy drafter's source: the file (the region to rewrite) first, as
 * the answer starts like it, then the context (v2), so that text from
 * elsewhere in the document can be copied too. */
static int job__copy_make(const edit__job *job, const drf_copy_opts *o,
                          edit__drafter *d, sb_err *err) {
    const int32_t *src = job->file_ids;
    int32_t *both = NULL;
    int64_t n = job->n_file;
    if (job->n_context > 0) {
        n += job->n_context;
        both = malloc((size_t)n * sizeof *both);
        if (!both)
            return sb_err_set(err, "edit request", "out of memory for the "
                              "drafter's %lld tokens", (long long)n);
        memcpy(both, job->file_ids, (size_t)job->n_file * sizeof *both);
        memcpy(both + job->n_file, job->context_ids,
               (size_t)job->n_context * sizeof *both);
        src = both;
    }
    d->copy = drf_copy_create(src, (int32_t)n, o, err);
    free(both);
    if (!d->copy) return -1;
    d->table = drf_copy_drafter(d->copy);
    return 0;
}

int edit__drafter_make(edit_drafter_kind kind, const edit__job *job,
                       const stepcost_table *step_costs, edit__drafter *d,
                       sb_err *err) {
    memset(d, 0, sizeof *d);
    /* The answer is the file, edited: it starts where the file starts. */
    drf_copy_opts copy_opts = {.step_costs = step_costs,
                               .starts_like_source = true};
    switch (kind) {
    case EDIT_DRAFTER_NONE:
        return 0;
    case EDIT_DRAFTER_NGRAM:
        d->ngram = drf_ngram_create(job->prompt_ids, job->n_prompt, 0, err);
        if (!d->ngram) return -1;
        d->table = drf_ngram_drafter(d->ngram);
        return 0;
    case EDIT_DRAFTER_COPY:
    case EDIT_DRAFTER_COPY_PLAIN:
        copy_opts.lookup_only = kind == EDIT_DRAFTER_COPY_PLAIN;
        return job__copy_make(job, &copy_opts, d, err);
    }
    return sb_err_set(err, "edit request", "unknown drafter kind %d",
                      (int)kind);
}

void edit__drafter_free(edit__drafter *d) {
    drf_copy_destroy(d->copy);
    drf_ngram_destroy(d->ngram);
    memset(d, 0, sizeof *d);
}

int32_t edit__end_id(const eng_model *m) {
    int32_t id = eng_special_id(m, "<|im_end|>");
    return id >= 0 ? id : eng_model_eos(m);
}

int edit_drafter_parse(const char *s, edit_drafter_kind *out, sb_err *err) {
    static const struct { const char *name; edit_drafter_kind kind; }
        names[] = {{"copy", EDIT_DRAFTER_COPY}, {"ngram", EDIT_DRAFTER_NGRAM},
                   {"none", EDIT_DRAFTER_NONE},
                   {"copy-plain", EDIT_DRAFTER_COPY_PLAIN}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (s && !strcmp(s, names[i].name)) {
            *out = names[i].kind;
            return 0;
        }
    return sb_err_set(err, "edit_drafter_parse", "drafter '%s': expected "
                      "copy, copy-plain, ngram or none", s ? s : "(null)");
}
