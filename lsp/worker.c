/*
 * worker.c — the thread that loads the model and runs edits, so that the
 * message loop keeps answering (didChange, cancel, shutdown) meanwhile.
 *
 * One edit, start to finish:
 *   1. the model is loaded if it is not yet (a failure is shown to the user
 *      and answers the request; the next edit tries again);
 *   2. edit_run generates, calling back after each step: the callback sends
 *      $/progress (begin, then reports at most 10 a second, each with the
 *      edit's text since the last one when the client asked for
 *      previewStreaming) and returns "stop" once the job is cancelled or
 *      its document changed;
 *   3. the answer: -32800 when cancelled, -32801 when the document changed
 *      (checked again against its version at the end), an error when the
 *      model gave no usable answer, else workspace/applyEdit with the hunks
 *      of lsp_diff, versioned, and a result for executeCommand;
 *   4. the session log gets one line per edit that ran to its end.
 *
 * For tests: with `sb-lsp --test-hold-edits` (lsp_config's test_hold), an
 * edit waits after its first progress report until it is cancelled, so a
 * test can cancel it (or change its document) at a known point without
 * timing; with `--test-report-steps`, every step is reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../warmup/warmup.h"
#include "server_internal.h"

void lsp__job_free(lsp_job *job) {
    if (!job) return;
    json_decref(job->id);
    json_decref(job->token);
    free(job->uri);
    free(job->language);
    free(job->instruction);
    free(job->text);
    free(job->range_json);
    free(job);
}

/* ==== the model ============================================================= */

/* Lets go of the loaded model and its sessions (the next edit loads again). */
static void lsp__model_drop(lsp_server *s) {
    lsp__cache_clear(s->cache);
    eng_session_destroy(s->session);
    eng_model_free(s->model);
    free(s->model_loaded);
    free(s->warmup_loaded);
    s->session = NULL;
    s->model = NULL;
    s->model_loaded = NULL;
    s->warmup_loaded = NULL;
    s->warmup_sha256[0] = '\0';
}

/* This machine's step costs for s->session (just made): the warm-up
 * table's when it has them for this device (imp, may be NULL), else
 * measured now (warmup.h: wu_step_costs, about WU_COST_BUDGET_S at most).
 * Not when costTable named a table: the user's choice stands. A failed
 * measurement leaves the default and says so; it never fails the load. */
static void lsp__costs_here(lsp_server *s, const wu_import *imp) {
    stepcost_table_empty(&s->costs_here, NULL);
    if (!stepcost_table_is_default(&s->cfg.costs)) return;
    sb_err why = {0};
    if (imp && stepcost_table_valid(&imp->costs))
        s->costs_here = imp->costs;
    else if (wu_step_costs(s->session, WU_COST_BUDGET_S, &s->costs_here, &why)) {
        stepcost_table_empty(&s->costs_here, NULL);
        lsp__log(s, LSP_MSG_WARNING, "sb-lsp: step costs not measured (%s); drafts "
                 "are sized by the default table", why.msg);
        return;
    }
    char listed[512];
    lsp__log(s, LSP_MSG_INFO, "sb-lsp: step costs (%s), ms by rows: %s",
             s->costs_here.source, stepcost_table_format(&s->costs_here, listed,
                                                         sizeof listed));
}

/* The session on the loaded model: with a warm-up table, its configuration
 * after its fingerprint is checked (a refusal names what differs); the
 * user is told of the table's warnings. Then this machine's step costs
 * (lsp__costs_here). */
static void lsp__session_make(lsp_server *s, sb_err *err) {
    eng_options opt = {.device = s->cfg.device, .n_threads = s->cfg.threads,
                       .tuning = s->cfg.tuning};
    if (!s->cfg.warmup) {
        s->session = eng_session_create(s->model, &opt, err);
        if (s->session) lsp__costs_here(s, NULL);
        return;
    }
    wu_import imp;
    s->session = wu_session_import(s->model, &opt, s->cfg.warmup, &imp, err);
    if (!s->session) return;
    lsp__costs_here(s, &imp);
    if (!(s->warmup_loaded = strdup(s->cfg.warmup))) {
        eng_session_destroy(s->session);
        s->session = NULL;
        return;
    }
    memcpy(s->warmup_sha256, imp.table_sha256, sizeof s->warmup_sha256);
    lsp__log(s, LSP_MSG_INFO, "sb-lsp: warm-up table '%s': %d choices taken, "
             "%d measurements; fingerprint %.16s... identical", s->cfg.warmup,
             imp.n_choices, imp.measurements, imp.fingerprint);
    for (int i = 0; i < imp.n_warnings; i++)
        lsp__show(s, LSP_MSG_WARNING, "SonicBoom: warm-up table: %s", imp.warnings[i]);
}

/* Loads the configured model (else the project's default model,
 * eng_default_model_path) and a session on it, unless already loaded. On
 * failure the user is told why (window/showMessage) and err is set. */
static int lsp__ensure_model(lsp_server *s, sb_err *err) {
    char fallback[4096];
    const char *path = s->cfg.model;
    if (!path) {
        sb_err inner = {0};
        if (eng_default_model_path(fallback, sizeof fallback, &inner)) {
            sb_err_set(err, "sb-lsp", "no model: set \"model\" in "
                       "initializationOptions, --model or SB_MODEL (%s)", inner.msg);
            lsp__show(s, LSP_MSG_ERROR, "%s", err->msg);
            return -1;
        }
        path = fallback;
    }
    const char *table = s->cfg.warmup;
    if (lsp__cache_count(s->cache) > 0 && s->model_loaded &&
        !strcmp(s->model_loaded, path) &&
        !table == !s->warmup_loaded && (!table || !strcmp(table, s->warmup_loaded))) {
        /* The loaded weights are a private copy; a file replaced since
         * (a re-download, a re-quantize to the same path) is loaded again
         * rather than refused on every edit (docs/limits.md). */
        sb_err changed = {0};
        if (!eng_model_check_file(s->model, &changed)) return 0;
        lsp__log(s, LSP_MSG_INFO, "sb-lsp: %s; loading it again", changed.msg);
    }
    lsp__model_drop(s);
    sb_err inner = {0};
    s->model = eng_model_load(path, &inner);
    if (s->model) lsp__session_make(s, &inner);
    if (!s->session || !(s->model_loaded = strdup(path))) {
        lsp__model_drop(s);
        sb_err_set(err, "sb-lsp", "cannot use model '%.200s': %s", path,
                   inner.msg[0] ? inner.msg : "out of memory");
        lsp__show(s, LSP_MSG_ERROR, "%s", err->msg);
        return -1;
    }
    lsp__log(s, LSP_MSG_INFO, "sb-lsp: model '%s' loaded (%s: %s; engine %s)",
             path, s->cfg.device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
             eng_session_device_name(s->session), eng_version());
    if (lsp__cache_adopt(s->cache, s->session)) {
        lsp__model_drop(s);
        sb_err_set(err, "sb-lsp", "out of memory");
        return -1;
    }
    s->session = NULL; /* the cache's now */
    return 0;
}

/* ==== progress ============================================================== */

typedef struct lsp__run {
    lsp_server *s;
    lsp_job *job;
} lsp__run;

static void lsp__progress(lsp_server *s, lsp_job *job, json_t *value) {
    lsp__notify(s, "$/progress", json_pack("{s:O,s:o}", "token", job->token,
                                            "value", value));
}

static bool lsp__token_ready(lsp_server *s, lsp_job *job) {
    pthread_mutex_lock(&s->lock);
    bool ready = job->token && job->token_ready;
    pthread_mutex_unlock(&s->lock);
    return ready;
}

/* previewStreaming: the edit's text (the region's new text) since the
 * last report, at most LSP_MAX_PARTIAL_REPORT bytes ending on a character
 * boundary, as {"offset": bytes sent before, "text": ...}; NULL when there
 * is nothing new. Text that is not UTF-8 is not sent (the edit itself will
 * fail on it), nor anything after it. */
static json_t *lsp__partial(lsp_job *job, const edit_progress *p) {
    if (!p->text || p->text_len <= job->partial_sent) return NULL;
    int64_t n = p->text_len - job->partial_sent;
    if (n > LSP_MAX_PARTIAL_REPORT) {
        n = LSP_MAX_PARTIAL_REPORT;
        while (n > 0 && ((unsigned char)p->text[job->partial_sent + n] & 0xC0) == 0x80)
            n--;
    }
    json_t *text = json_stringn(p->text + job->partial_sent, (size_t)n);
    if (!text) return NULL;
    json_t *v = json_pack("{s:I,s:o}", "offset", (json_int_t)job->partial_sent,
                          "text", text);
    if (v) job->partial_sent += n;
    return v;
}

static void lsp__report(lsp_server *s, lsp_job *job, const edit_progress *p) {
    char msg[160];
    snprintf(msg, sizeof msg, "%d tokens, %.1f tok/s, %.0f%% of drafts accepted",
             (int)p->tokens, p->tok_s, 100.0 * p->accept_rate);
    json_t *value = json_pack("{s:s,s:s,s:b}", "kind", "report", "message",
                              msg, "cancellable", 1);
    json_t *partial = s->cfg.preview_streaming ? lsp__partial(job, p) : NULL;
    if (value && partial) json_object_set_new(value, "sonicboom", partial);
    else json_decref(partial);
    lsp__progress(s, job, value);
    job->reports++;
    job->last_report = p->elapsed_s;
}

static void lsp__begin(lsp_server *s, lsp_job *job) {
    char title[200];
    snprintf(title, sizeof title, "SonicBoom: %.180s", job->instruction);
    lsp__progress(s, job, json_pack("{s:s,s:s,s:b,s:s}", "kind", "begin", "title",
                                    title, "cancellable", 1, "message",
                                    "generating"));
    job->begun = true;
}

/* For tests (--test-hold-edits): waits until the job is cancelled. */
static void lsp__hold(lsp_server *s, lsp_job *job) {
    pthread_mutex_lock(&s->lock);
    while (!job->cancel && !s->quit) pthread_cond_wait(&s->handled_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static int lsp__on_step(void *ctx, const edit_progress *p) {
    lsp__run *run = ctx;
    lsp_server *s = run->s;
    lsp_job *job = run->job;
    if (job->cancel) return 1;
    if (lsp__token_ready(s, job)) {
        if (!job->begun) lsp__begin(s, job);
        if (job->reports == 0 || p->elapsed_s - job->last_report >= 0.1 ||
            s->cfg.test_report_steps)
            lsp__report(s, job, p);
        if (s->cfg.test_hold && job->reports == 1) lsp__hold(s, job);
    }
    return job->cancel;
}

/* Whether the job's progress token may be used. A token we asked the
 * client to create is only used once the client said yes, so wait (a few
 * seconds at most) for that answer: then even an edit of one step shows
 * begin, a report and end. */
static bool lsp__token_settled(lsp_server *s, lsp_job *job) {
    if (!job->token) return false;
    pthread_mutex_lock(&s->lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    while (!job->token_ready && job->create_id >= 0 && !s->quit)
        if (pthread_cond_timedwait(&s->handled_cv, &s->lock, &until)) break;
    bool ready = job->token_ready;
    pthread_mutex_unlock(&s->lock);
    return ready;
}

/* Ends the progress (the token is settled and ready). */
static void lsp__end(lsp_server *s, lsp_job *job, const edit_result *r,
                     const char *outcome) {
    if (!job->begun) lsp__begin(s, job);
    if (job->reports == 0) {
        double t = r->gen.prefill_s + r->gen.decode_s;
        double rate = r->gen.drafted ? (double)r->gen.accepted / (double)r->gen.drafted
                                     : 0.0;
        lsp__report(s, job, &(edit_progress){.tokens = r->gen.n_tokens,
                                             .steps = r->gen.steps,
                                             .elapsed_s = t,
                                             .tok_s = t > 0 ? r->gen.n_tokens / t : 0,
                                             .accept_rate = rate});
    }
    lsp__progress(s, job, json_pack("{s:s,s:s}", "kind", "end", "message", outcome));
}

/* ==== the answer ============================================================ */

/* The answer when the document changed while the model wrote. */
static void lsp__reply_stale(lsp_server *s, const lsp_job *job) {
    lsp__show(s, LSP_MSG_WARNING, "SonicBoom: the document changed during the "
              "edit; nothing was applied");
    lsp__reply_error(s, job->id, LSP_CONTENT_MODIFIED, "the document changed "
                     "during the edit; nothing was applied");
}

/* Builds the WorkspaceEdit turning the job's snapshot into `full`
 * (full_len bytes). NULL with err filled. */
static json_t *lsp__workspace_edit(lsp_server *s, const lsp_job *job,
                                   const char *full, int64_t full_len,
                                   int *n_hunks, sb_err *err) {
    lsp_hunk *h = NULL;
    int n = 0;
    if (lsp_diff(job->text, job->len, full, full_len, &h, &n, err)) return NULL;
    json_t *edits = json_array();
    for (int i = 0; i < n && edits; i++) {
        json_t *text = json_stringn(full + h[i].new_start,
                                    (size_t)(h[i].new_end - h[i].new_start));
        if (!text) {
            sb_err_set(err, "sonicboom.edit", "the model's answer is not valid "
                       "UTF-8");
            json_decref(edits);
            edits = NULL;
            break;
        }
        lsp_pos a = lsp_pos_at(job->text, job->len, h[i].old_start, s->enc);
        lsp_pos b = lsp_pos_at(job->text, job->len, h[i].old_end, s->enc);
        json_array_append_new(edits, json_pack("{s:{s:o,s:o},s:o}", "range",
                                               "start", lsp__pos_json(a), "end",
                                               lsp__pos_json(b), "newText", text));
    }
    free(h);
    *n_hunks = n;
    if (!edits) return NULL;
    if (s->client_doc_changes)
        return json_pack("{s:[{s:{s:s,s:I},s:o}]}", "documentChanges",
                         "textDocument", "uri", job->uri, "version",
                         (json_int_t)job->version, "edits", edits);
    return json_pack("{s:{s:o}}", "changes", job->uri, edits);
}

/* The document as the edit leaves it: the region replaced by the answer. */
static char *lsp__splice_answer(const lsp_job *job, const edit_result *r,
                                int64_t *len) {
    *len = job->start + r->text_len + (job->len - job->end);
    char *p = malloc((size_t)*len + 1);
    if (!p) return NULL;
    memcpy(p, job->text, (size_t)job->start);
    memcpy(p + job->start, r->text, (size_t)r->text_len);
    memcpy(p + job->start + r->text_len, job->text + job->end,
           (size_t)(job->len - job->end));
    p[*len] = '\0';
    return p;
}

/* Whether the document is still the text the job was made from. The job
 * has been released, so a change now no longer marks it stale: this check
 * is what catches one. The same open (generation: a didClose and didOpen
 * restart versions), the same version, in step with the editor, and the
 * same bytes (what guards a client without documentChanges, whose edit
 * carries no version for it to check). Caller holds the lock. */
static bool lsp__job_current(lsp_server *s, const lsp_job *job) {
    lsp_doc *doc = lsp_docs_find(s->docs, job->uri);
    return doc && !job->stale && doc->generation == job->generation &&
           doc->version == job->version && !doc->desync[0] &&
           doc->len == job->len && !memcmp(doc->text, job->text, (size_t)job->len);
}

/* Sends the edit, checked against the document last, just before it goes
 * out (the diff takes time, and the message loop reads on meanwhile). */
static void lsp__apply(lsp_server *s, lsp_job *job, const edit_result *r) {
    sb_err err = {0};
    int64_t len = 0;
    int n = 0;
    char *full = lsp__splice_answer(job, r, &len);
    json_t *edit = full ? lsp__workspace_edit(s, job, full, len, &n, &err) : NULL;
    free(full);
    pthread_mutex_lock(&s->lock);
    bool current = lsp__job_current(s, job);
    pthread_mutex_unlock(&s->lock);
    if (!current) {
        json_decref(edit);
        lsp__reply_stale(s, job);
        return;
    }
    if (!edit) {
        lsp__reply_error(s, job->id, LSP_REQUEST_FAILED, "%s",
                         err.msg[0] ? err.msg : "out of memory");
        return;
    }
    if (n > 0) {
        char label[200];
        snprintf(label, sizeof label, "SonicBoom: %.180s", job->instruction);
        int64_t id = lsp__request(s, "workspace/applyEdit",
                                  json_pack("{s:s,s:o}", "label", label, "edit", edit));
        pthread_mutex_lock(&s->lock);
        s->apply_id = id;
        pthread_mutex_unlock(&s->lock);
    } else {
        json_decref(edit);
        lsp__show(s, LSP_MSG_INFO, "SonicBoom: the model changed nothing");
    }
    lsp__reply(s, job->id, json_pack("{s:i,s:i,s:i,s:s,s:I,s:i,s:f,s:s}", "hunks", n,
                                      "tokens", (int)r->gen.n_tokens, "steps",
                                      (int)r->gen.steps, "sha256", r->gen.sha256,
                                      "prompt_tokens", (json_int_t)r->n_prompt,
                                      "cached_tokens", (int)r->gen.cached_tokens,
                                      "first_token_s", r->gen.first_token_s,
                                      "prompt_version", r->prompt_version));
}

/* ==== the session log ======================================================= */

static void lsp__log_edit(lsp_server *s, const lsp_job *job, eng_session *session,
                          const edit_request *rq, const edit_opts *o,
                          const edit_result *r, double wall) {
    if (!s->cfg.log) return;
    sb_err err = {0};
    if (!s->log || !s->log_path || strcmp(s->log_path, s->cfg.log)) {
        if (slog_close(s->log, &err)) /* the old log's session summary */
            lsp__show(s, LSP_MSG_WARNING, "SonicBoom: session log: %s", err.msg);
        err = (sb_err){0};
        free(s->log_path);
        s->log_path = strdup(s->cfg.log);
        s->log = s->log_path ? slog_open(s->cfg.log, &err) : NULL;
        if (!s->log) {
            lsp__show(s, LSP_MSG_WARNING, "SonicBoom: no session log: %s", err.msg);
            return;
        }
    }
    slog_entry e = {
        .engine_version = eng_version(),
        .backend = s->cfg.device == ENG_DEVICE_CUDA ? "cuda" : "cpu",
        .device_name = eng_session_device_name(session),
        .model_path = s->model_loaded,
        .model_sha256 = eng_model_sha256(s->model),
        .warmup_sha256 = s->warmup_sha256[0] ? s->warmup_sha256 : NULL,
        .uri = job->uri, .language = job->language,
        .document = job->text, .document_len = job->len,
        .region_start = job->start, .region_end = job->end,
        .has_context = rq->context != NULL,
        .context_start = rq->context ? rq->context - job->text : 0,
        .context_end = rq->context ? rq->context - job->text + rq->context_len : 0,
        .range_json = job->range_json,
        .instruction = job->instruction,
        .instruction_len = (int64_t)strlen(job->instruction),
        .temperature = o->sampling.temperature, .seed = o->sampling.seed,
        .top_k = o->sampling.top_k, .max_tokens = o->max_tokens,
        .speculation = o->drafter != EDIT_DRAFTER_NONE,
        .prompt_version = r->prompt_version,
        .n_prompt = r->n_prompt, .prompt_sha256 = r->prompt_sha256,
        .output = r->gen.tokens, .n_output = r->gen.n_tokens,
        .output_sha256 = r->gen.sha256,
        .status = r->status == EDIT_DONE ? "done" : "bad-answer",
        .wall_s = wall, .steps = r->gen.steps,
        .drafted = r->gen.drafted, .accepted = r->gen.accepted,
        .cached_tokens = r->gen.cached_tokens, .first_token_s = r->gen.first_token_s};
    if (slog_append(s->log, &e, &err))
        lsp__show(s, LSP_MSG_WARNING, "SonicBoom: session log: %s", err.msg);
}

/* ==== one edit ============================================================== */

/* The server is free for the next edit from here on: called before the
 * progress ends and the answer goes out, so a client that sends its next
 * edit on reading either never finds this one still running. Changes to
 * the document after this point are caught by lsp__job_current's check
 * in lsp__apply. */
static void lsp__release(lsp_server *s, lsp_job *job) {
    pthread_mutex_lock(&s->lock);
    if (s->job == job) s->job = NULL;
    pthread_mutex_unlock(&s->lock);
}

/* The prompt's version (configured, else the model's) and, for v2 unless
 * the configuration says "region", the document as context within the
 * budget (edit_request_set_context). */
static int lsp__request_context(lsp_server *s, const lsp_job *job,
                                eng_session *session, edit_request *rq,
                                sb_err *err) {
    rq->prompt_version = s->cfg.prompt_version ? s->cfg.prompt_version
                                               : edit_prompt_version_for(s->model);
    if (rq->prompt_version < 2 || s->cfg.context_region) return 0;
    const int32_t budget = s->cfg.context_budget
                               ? s->cfg.context_budget
                               : edit_context_budget_default(eng_session_capacity(session));
    return edit_request_set_context(rq, s->model, job->text, job->len, job->start,
                                    job->end, budget, err);
}

static void lsp__run_edit(lsp_server *s, lsp_job *job) {
    sb_err err = {0};
    if (lsp__ensure_model(s, &err)) {
        lsp__release(s, job);
        lsp__reply_error(s, job->id, LSP_REQUEST_FAILED, "%s", err.msg);
        return;
    }
    eng_session *session = lsp__cache_session(s, job->uri, &err);
    const char *path = strncmp(job->uri, "file://", 7) ? NULL : job->uri + 7;
    edit_request rq = {.file = job->text + job->start,
                       .file_len = job->end - job->start,
                       .instruction = job->instruction,
                       .instruction_len = (int64_t)strlen(job->instruction),
                       .language = job->language[0] ? job->language : NULL,
                       .path = path};
    if (!session || lsp__request_context(s, job, session, &rq, &err)) {
        lsp__release(s, job);
        lsp__reply_error(s, job->id, LSP_REQUEST_FAILED, "%s", err.msg);
        return;
    }
    lsp__run run = {s, job};
    edit_opts o = edit_defaults();
    o.drafter = s->cfg.speculation ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
    o.max_tokens = s->cfg.max_tokens;
    o.costs = stepcost_table_valid(&s->costs_here) ? &s->costs_here : &s->cfg.costs;
    o.sampling = (eng_sampling){.temperature = s->cfg.temperature,
                                .seed = s->cfg.seed};
    o.progress = lsp__on_step;
    o.progress_ctx = &run;
    o.prefix_cache = s->cfg.prefix_cache;
    o.partial_text = s->cfg.preview_streaming;
    edit_result r = {0};
    double t0 = sb_now();
    edit_run(session, &rq, &o, &r, &err);
    double wall = sb_now() - t0;
    bool natural = r.status == EDIT_DONE || r.status == EDIT_BAD_ANSWER;
    bool progress = lsp__token_settled(s, job);
    lsp__release(s, job);
    if (progress)
        lsp__end(s, job, &r, job->cancel ? "cancelled" : r.status == EDIT_DONE
                                                             ? "done" : "failed");
    if (natural && !job->cancel) lsp__log_edit(s, job, session, &rq, &o, &r, wall);
    if (job->stale) {
        lsp__reply_stale(s, job);
    } else if (job->cancel) {
        lsp__reply_error(s, job->id, LSP_REQUEST_CANCELLED, "the edit was "
                         "cancelled; nothing was applied");
    } else if (r.status == EDIT_DONE) {
        lsp__apply(s, job, &r);
    } else {
        lsp__show(s, LSP_MSG_ERROR, "SonicBoom: %s", err.msg);
        lsp__reply_error(s, job->id, LSP_REQUEST_FAILED, "%s", err.msg);
    }
    edit_result_free(&r);
}

/* ==== the thread ============================================================ */

static void *lsp__worker_main(void *arg) {
    lsp_server *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->quit && !s->load_wanted && !s->job)
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->quit) break;
        bool load = s->load_wanted;
        lsp_job *job = s->job;
        s->load_wanted = false;
        pthread_mutex_unlock(&s->lock);
        sb_err err = {0};
        if (job) lsp__run_edit(s, job);
        else if (load) lsp__ensure_model(s, &err);
        pthread_mutex_lock(&s->lock);
        if (job && s->job == job) s->job = NULL;
        lsp__job_free(job);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int lsp__worker_start(lsp_server *s, sb_err *err) {
    if (pthread_create(&s->worker, NULL, lsp__worker_main, s))
        return sb_err_set(err, "lsp_server_create", "cannot start the worker "
                          "thread");
    s->worker_started = true;
    return 0;
}

void lsp__worker_stop(lsp_server *s) {
    if (s->worker_started) {
        pthread_mutex_lock(&s->lock);
        s->quit = true;
        if (s->job) s->job->cancel = true;
        pthread_cond_broadcast(&s->wake);
        pthread_cond_broadcast(&s->handled_cv);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->worker, NULL);
        s->worker_started = false;
    }
    lsp__job_free(s->job);
    s->job = NULL;
    lsp__model_drop(s);
    sb_err err = {0};
    if (slog_close(s->log, &err)) /* the session's summary: the client may be gone */
        fprintf(stderr, "sb-lsp: session log: %s\n", err.msg);
    free(s->log_path);
    s->log = NULL;
    s->log_path = NULL;
}

void lsp__worker_load(lsp_server *s) {
    pthread_mutex_lock(&s->lock);
    s->load_wanted = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

bool lsp__worker_submit(lsp_server *s, lsp_job *job) {
    pthread_mutex_lock(&s->lock);
    bool ok = s->job == NULL;
    if (ok) {
        s->job = job;
        pthread_cond_broadcast(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void lsp__worker_response(lsp_server *s, int64_t id, json_t *result,
                          json_t *error) {
    pthread_mutex_lock(&s->lock);
    if (s->job && s->job->create_id == id) {
        s->job->token_ready = error == NULL;
        s->job->create_id = -1; /* answered either way */
    }
    bool apply = id == s->apply_id;
    pthread_mutex_unlock(&s->lock);
    if (!apply) return;
    json_t *applied = json_object_get(result, "applied");
    if (error || (applied && !json_is_true(applied))) {
        json_t *why = json_object_get(result, "failureReason");
        lsp__show(s, LSP_MSG_WARNING, "SonicBoom: the editor did not apply the "
                  "edit%s%s", json_is_string(why) ? ": " : "",
                  json_is_string(why) ? json_string_value(why) : "");
    }
}
