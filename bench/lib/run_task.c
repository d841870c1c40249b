/*
 * run_task.c — one benchmark task (bench.h): its size, the drafters'
 * ceilings (edit_simulate on the expected answer), and the edit itself
 * with speculation off and on (edit_run), compared token for token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static edit_request run_task__request(const bench_task *t) {
    return (edit_request){.file = t->input, .file_len = t->input_len,
                          .instruction = t->instruction,
                          .instruction_len = t->instruction_len,
                          .path = t->input_path};
}

int bench_task_plan(const eng_model *m, const bench_task *t,
                    int32_t max_tokens, bench_task_result *r, sb_err *err) {
    memset(r, 0, sizeof *r);
    r->task = t;
    edit_request rq = run_task__request(t);
    int32_t default_cap = 0, *reply = NULL;
    sb_err why = {0};
    if (edit_plan(m, &rq, NULL, &r->n_prompt, &default_cap, &why) ||
        edit_reply_ids(m, t->input, t->input_len, t->expected,
                       t->expected_len, &reply, &r->reply_tokens, &why))
        return sb_err_set(err, "bench task", "%s: %s", t->name, why.msg);
    free(reply);
    /* Generation length = the expected answer's length, so a
     * model that writes the right edit ends its turn just at the cap. */
    int64_t cap = r->reply_tokens;
    if (max_tokens > 0 && max_tokens < cap) cap = max_tokens;
    int64_t room = (int64_t)eng_model_n_ctx(m) - r->n_prompt;
    if (cap > room) cap = room;
    if (cap < 1) {
        r->skipped = true;
        snprintf(r->skip_reason, sizeof r->skip_reason, "the prompt needs %d "
                 "tokens; the model's context holds %d", (int)r->n_prompt,
                 (int)eng_model_n_ctx(m));
    }
    r->cap = cap < 1 ? 0 : (int32_t)cap;
    return 0;
}

/* ---- the drafters' ceilings --------------------------------------------- */

/* Decode tokens per second of a simulated run priced by the step costs
 * (ms): its tokens after the first over the time its decode steps take. */
static double run_task__projected_tok_s(const edit_sim_result *s,
                                        const stepcost_table *costs) {
    double ms = 0;
    for (int rows = 1; rows <= KRN_MAX_ROWS; rows++)
        if (s->rows_hist[rows])
            ms += s->rows_hist[rows] * stepcost_table_cost(costs, rows);
    return ms > 0 ? (s->output_tokens - 1) / (ms * 1e-3) : 0;
}

static int run_task__ceilings(const eng_model *m, const bench_task *t,
                         const bench_engine *e, bench_task_result *r,
                         sb_err *err) {
    edit_request rq = run_task__request(t);
    edit_sim_opts copy = {.drafter = EDIT_DRAFTER_COPY, .costs = &e->costs};
    edit_sim_opts ngram = {.drafter = EDIT_DRAFTER_NGRAM, .costs = &e->costs};
    if (edit_simulate(m, &rq, t->expected, t->expected_len, &copy,
                      &r->ceiling_copy, err) ||
        edit_simulate(m, &rq, t->expected, t->expected_len, &ngram,
                      &r->ceiling_ngram, err))
        return -1;
    r->projected_tok_s = run_task__projected_tok_s(&r->ceiling_copy, &e->costs);
    return 0;
}

/* ---- one run -------------------------------------------------------------- */

/* The first progress report comes after the first output token. */
static int run_task__first_token(void *ctx, const edit_progress *p) {
    double *ttft = ctx;
    if (*ttft < 0) *ttft = p->elapsed_s;
    return 0;
}

static void run_task__fill(const bench_task *t, const edit_result *res, double ttft,
                      bench_run *out) {
    const eng_gen_result *g = &res->gen;
    out->ttft_s = ttft > 0 ? ttft : 0;
    out->decode_s = g->decode_s;
    out->tokens = g->n_tokens;
    /* tokens after the first (the prefill's) per second of decoding */
    out->tok_s = g->decode_s > 0 && g->n_tokens > 1
                     ? (g->n_tokens - 1) / g->decode_s : 0;
    out->steps = g->steps;
    out->tokens_per_step = g->steps > 0 ? (double)g->n_tokens / g->steps : 0;
    out->drafted = g->drafted;
    out->accepted = g->accepted;
    memcpy(out->accept_hist, g->accept_hist, sizeof out->accept_hist);
    memcpy(out->sha256, g->sha256, sizeof out->sha256);
    out->stop = edit_stop_name(res);
    out->closed_fence = res->status == EDIT_DONE;
    out->matches_expected = out->closed_fence &&
                            res->text_len == t->expected_len &&
                            (t->expected_len == 0 ||
                             !memcmp(res->text, t->expected,
                                     (size_t)t->expected_len));
}

/* Runs the task once, the copy drafter sizing its drafts by the step
 * costs measured in this run; the output ids stay in res (caller frees). */
static int run_task__once(eng_session *s, const bench_task *t,
                          const bench_task_result *r, const bench_engine *e,
                          bool speculation, bench_perturb_fn perturb,
                          void *perturb_ctx, edit_result *res, bench_run *out,
                          sb_err *err) {
    double ttft = -1;
    edit_opts o = edit_defaults();
    o.drafter = speculation ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
    o.costs = &e->costs;
    o.max_tokens = r->cap;
    if (perturb) perturb(perturb_ctx, t, speculation, &r->off, &o);
    o.progress = run_task__first_token;
    o.progress_ctx = &ttft;
    edit_request rq = run_task__request(t);
    sb_err why = {0};
    /* No closing fence is what random weights give: not a failure here. */
    if (edit_run(s, &rq, &o, res, &why) && res->status != EDIT_BAD_ANSWER)
        return sb_err_set(err, "bench task", "%s, speculation %s: %s",
                          t->name, speculation ? "on" : "off", why.msg);
    run_task__fill(t, res, ttft, out);
    return 0;
}

int bench_task_run(eng_session *s, const bench_task *t, const bench_engine *e,
                   bench_phase_fn phase, void *phase_ctx,
                   bench_perturb_fn perturb, void *perturb_ctx,
                   bench_task_result *r, sb_err *err) {
    if (r->skipped || r->cap < 1)
        return sb_err_set(err, "bench task", "%s was not planned to run",
                          t->name);
    if (phase) phase(phase_ctx, t, "drafter ceilings (draftsim)");
    if (run_task__ceilings(eng_session_model(s), t, e, r, err)) return -1;
    edit_result off, on;
    memset(&on, 0, sizeof on);
    if (phase) phase(phase_ctx, t, "speculation off");
    int rc = run_task__once(s, t, r, e, false, perturb, perturb_ctx, &off,
                            &r->off, err);
    if (rc == 0) {
        if (phase) phase(phase_ctx, t, "speculation on");
        rc = run_task__once(s, t, r, e, true, perturb, perturb_ctx, &on,
                            &r->on, err);
    }
    if (rc == 0) {
        const eng_gen_result *a = &off.gen, *b = &on.gen;
        r->identical = a->n_tokens == b->n_tokens &&
                       (a->n_tokens == 0 ||
                        !memcmp(a->tokens, b->tokens,
                                (size_t)a->n_tokens * sizeof *a->tokens));
        r->speedup = r->off.tok_s > 0 ? r->on.tok_s / r->off.tok_s : 0;
    }
    edit_result_free(&off);
    edit_result_free(&on);
    return rc;
}
