/*
 * edit.c — edit_run: prompt, draft, generate, extract (edit.h).
 *
 * Progress is reported once per step. With speculation on, a step is one
 * accept() of the drafter, so the drafter is wrapped (edit__propose,
 * edit__accept) to count drafts and call the progress callback there; with
 * speculation off every token is a step, and on_token reports it. Either
 * way cancelling only sets a flag that on_token answers at the next token:
 * stopping goes through the engine's one stop path, so a cancelled edit
 * leaves the session as any stopped generation does.
 */
#include <stdlib.h>
#include <string.h>

#include "edit_internal.h"

edit_opts edit_defaults(void) {
    return (edit_opts){
        .drafter = EDIT_DRAFTER_COPY,
        .prefix_cache = true,
        .sampling = {.temperature = 0.0f, .seed = 0, .top_k = 0}};
}

int32_t edit_default_max_tokens(int64_t n_file_tokens) {
    int64_t n = 2 * (n_file_tokens > 0 ? n_file_tokens : 0) + 256;
    return n > (1 << 24) ? (1 << 24) : (int32_t)n;
}

static int32_t edit__max_tokens(const edit_opts *o, const edit__job *job) {
    return o->max_tokens > 0 ? o->max_tokens
                             : edit_default_max_tokens(job->n_file);
}

int edit_plan(const eng_model *m, const edit_request *req, const edit_opts *o,
              int32_t *n_prompt, int32_t *max_tokens, sb_err *err) {
    edit_opts defaults = edit_defaults();
    edit__job job;
    if (edit__job_make(m, req, &job, err)) return -1;
    *n_prompt = job.n_prompt;
    *max_tokens = edit__max_tokens(o ? o : &defaults, &job);
    edit__job_free(&job);
    return 0;
}

/* The state of one run, shared by the callbacks. */
typedef struct edit__run {
    const edit_opts *o;
    const eng_drafter *inner;   /* the real drafter; NULL: speculation off */
    int32_t end_id;             /* <|im_end|>, or -1 */
    double t0;
    edit_progress prog;
    int64_t drafted, accepted;
    int32_t last_draft;         /* guesses of the step in flight */
    bool cancel;                /* the callback asked to stop */
    bool cancelled;             /* generation stopped because of it */
    /* edit_opts.partial_text: the reply's bytes so far and what of the
     * file they show (tracking stops, text NULL, if memory runs out) */
    const eng_model *m;
    bool track;
    char *reply;
    int64_t reply_len, reply_cap;
    edit_partial partial;
} edit__run;

/* Appends a committed token's bytes to the reply kept for the progress
 * text; the end-of-turn and EOS tokens end the reply and are not in it
 * (run__answer). */
static void run__keep(edit__run *run, int32_t id) {
    if (!run->track || id == run->end_id || id == eng_model_eos(run->m)) return;
    int64_t len = 0;
    const char *b = eng_token_bytes(run->m, id, &len);
    if (!b || len <= 0) return;
    if (run->reply_len + len > run->reply_cap) {
        int64_t cap = run->reply_cap ? 2 * run->reply_cap : 4096;
        while (cap < run->reply_len + len) cap *= 2;
        char *p = realloc(run->reply, (size_t)cap);
        if (!p) {
            run->track = false;
            run->prog.text = NULL;
            run->prog.text_len = 0;
            return;
        }
        run->reply = p;
        run->reply_cap = cap;
    }
    memcpy(run->reply + run->reply_len, b, (size_t)len);
    run->reply_len += len;
}

/* Tells the callback about the step just done; sets cancel on request. */
static void edit__report(edit__run *run) {
    edit_progress *p = &run->prog;
    p->elapsed_s = sb_now() - run->t0;
    p->tok_s = p->elapsed_s > 0 ? p->tokens / p->elapsed_s : 0.0;
    p->accept_rate = run->drafted > 0 ? (double)run->accepted / run->drafted
                                      : 0.0;
    if (run->track) {
        edit_partial_update(&run->partial, run->reply, run->reply_len);
        p->text = run->reply ? run->reply : "";
        p->text_len = run->partial.known_len;
    }
    if (run->o->progress && run->o->progress(run->o->progress_ctx, p))
        run->cancel = true;
}

static int edit__on_token(void *ctx, int32_t id) {
    edit__run *run = ctx;
    if (run->cancel) {
        run->cancelled = true;
        return 1;
    }
    run__keep(run, id);
    if (!run->inner) {
        run->prog.tokens++;
        run->prog.steps++;
        edit__report(run);
        if (run->cancel) {
            run->cancelled = true;
            return 1;
        }
    }
    return id == run->end_id;
}

static void edit__begin(void *ctx, const int32_t *prompt, int32_t n_prompt) {
    edit__run *run = ctx;
    if (run->inner->begin) run->inner->begin(run->inner->ctx, prompt, n_prompt);
}

static int32_t edit__propose(void *ctx, const int32_t *out, int32_t n_out,
                             int32_t max_draft, int32_t *draft) {
    edit__run *run = ctx;
    int32_t d = run->inner->propose(run->inner->ctx, out, n_out, max_draft,
                                    draft);
    run->last_draft = d < 0 ? 0 : d > max_draft ? max_draft : d;
    return d;
}

/* A step committed n tokens: its accepted guesses and one sample, unless
 * the step stopped on a guess (then n - 1 counts one guess too few; this
 * is for progress only, the result's statistics are the engine's). */
static void edit__accept(void *ctx, const int32_t *tokens, int32_t n) {
    edit__run *run = ctx;
    if (run->inner->accept) run->inner->accept(run->inner->ctx, tokens, n);
    if (run->prog.steps > 0) {
        run->drafted += run->last_draft;
        run->accepted += n - 1;
    }
    run->last_draft = 0;
    run->prog.tokens += n;
    run->prog.steps++;
    if (!run->cancel) edit__report(run); /* never again once cancelled */
}

/* The raw reply: every token's bytes but a final end-of-turn token's. */
static int edit__answer(const eng_model *m, edit_result *res, int32_t end_id,
                        sb_err *err) {
    const eng_gen_result *g = &res->gen;
    int32_t n = g->n_tokens;
    int32_t eos = eng_model_eos(m);
    if (n > 0 && (g->tokens[n - 1] == end_id || g->tokens[n - 1] == eos))
        n--;
    int64_t total = 0, len = 0;
    for (int32_t i = 0; i < n; i++) {
        eng_token_bytes(m, g->tokens[i], &len);
        total += len;
    }
    res->answer = malloc((size_t)total + 1);
    if (!res->answer)
        return sb_err_set(err, "edit_run", "out of memory for an answer of "
                          "%lld bytes", (long long)total);
    res->answer_len = 0;
    for (int32_t i = 0; i < n; i++) {
        const char *b = eng_token_bytes(m, g->tokens[i], &len);
        if (b) memcpy(res->answer + res->answer_len, b, (size_t)len);
        res->answer_len += b ? len : 0;
    }
    res->answer[res->answer_len] = '\0';
    return 0;
}

/* Why a reply without a closing fence ended, for the error line. */
static const char *edit__why(const eng_gen_result *g) {
    switch (g->stop) {
    case ENG_STOP_LENGTH: return "reached the token cap";
    case ENG_STOP_CONTEXT: return "filled the context";
    default: return "ended its turn";
    }
}

/* Takes the edited file out of the reply, or says why it cannot. */
static int edit__extract(const edit__job *job, edit_result *res, sb_err *err) {
    int64_t n = 0;
    sb_err why = {0};
    if (edit_extract(res->answer, res->answer_len, job->fence_len,
                     job->added_newline, &n, NULL, &why)) {
        res->status = EDIT_BAD_ANSWER;
        return sb_err_set(err, "edit_run", "the model's answer has no closing "
                          "fence (%lld backticks on a line of their own): it "
                          "%s after %d tokens", (long long)job->fence_len,
                          edit__why(&res->gen), (int)res->gen.n_tokens);
    }
    res->text = malloc((size_t)n + 1);
    if (!res->text)
        return sb_err_set(err, "edit_run", "out of memory for the edited file");
    memcpy(res->text, res->answer, (size_t)n);
    res->text[n] = '\0';
    res->text_len = n;
    res->status = EDIT_DONE;
    return 0;
}

/* Generates the reply into res->gen. */
static int edit__generate(eng_session *s, const edit__job *job,
                          const edit_opts *o, edit__run *run, edit_result *res,
                          sb_err *err) {
    edit__drafter drafter;
    if (edit__drafter_make(o->drafter, job, o->costs,
                           &drafter, err))
        return -1;
    eng_drafter wrapped = {.ctx = run, .begin = edit__begin,
                           .propose = edit__propose, .accept = edit__accept};
    eng_gen_params p = eng_gen_defaults();
    p.n_max = edit__max_tokens(o, job);
    p.sampling = o->sampling;
    p.max_draft = o->max_draft;
    p.reuse_prefix = o->prefix_cache;
    if (o->drafter != EDIT_DRAFTER_NONE) {
        run->inner = &drafter.table;
        p.drafter = &wrapped;
    }
    int rc = eng_generate(s, job->prompt_ids, job->n_prompt, &p, edit__on_token,
                          run, &res->gen, err);
    edit__drafter_free(&drafter);
    return rc;
}

int edit__finish(const eng_model *m, const edit__job *job, bool cancelled,
                 edit_result *res, sb_err *err) {
    if (edit__answer(m, res, edit__end_id(m), err)) return -1;
    if (cancelled) {
        res->status = EDIT_CANCELLED;
        return sb_err_set(err, "edit_run", "cancelled after %d tokens",
                          (int)res->gen.n_tokens);
    }
    return edit__extract(job, res, err);
}

int edit_run(eng_session *s, const edit_request *req, const edit_opts *o,
             edit_result *res, sb_err *err) {
    memset(res, 0, sizeof *res);
    res->status = EDIT_FAILED;
    res->prompt_version = edit_prompt_version_name(req ? req->prompt_version : 0);
    if (!res->prompt_version) res->prompt_version = edit_prompt_version();
    edit_opts defaults = edit_defaults();
    if (!o) o = &defaults;
    if (!s) return sb_err_set(err, "edit_run", "no session");
    const eng_model *m = eng_session_model(s);
    edit__run run = {.o = o, .end_id = edit__end_id(m), .t0 = sb_now(),
                     .m = m, .track = o->partial_text};
    edit__job job;
    if (edit__job_make(m, req, &job, err)) return -1;
    run.partial = edit_partial_start(job.fence_len, job.added_newline);
    res->language = job.language;
    res->fence_len = job.fence_len;
    res->n_prompt = job.n_prompt;
    eng_tokens_sha256(job.prompt_ids, job.n_prompt, res->prompt_sha256);
    int rc = edit__generate(s, &job, o, &run, res, err) ||
             edit__finish(m, &job, run.cancelled, res, err) ? -1 : 0;
    res->prompt_ids = job.prompt_ids;
    job.prompt_ids = NULL;
    edit__job_free(&job);
    free(run.reply);
    return rc;
}

void edit_result_free(edit_result *res) {
    if (!res) return;
    free(res->text);
    free(res->answer);
    free(res->prompt_ids);
    free(res->gen.tokens);
    memset(res, 0, sizeof *res);
}

const char *edit_stop_name(const edit_result *res) {
    if (res->status == EDIT_CANCELLED) return "cancelled";
    switch (res->gen.stop) {
    /* edit__on_token stops there */
    case ENG_STOP_CALLBACK: return "end-of-turn";
    case ENG_STOP_EOS: return "eos";
    case ENG_STOP_CONTEXT: return "context-full";
    case ENG_STOP_STRING: return "stop-string";
    case ENG_STOP_LENGTH: break;
    }
    return "length";
}
