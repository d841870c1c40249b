/*
 * sim.c — edit_simulate: an edit's drafting replayed against a known
 * reply (edit.h), for sb draftsim and drafter tuning. The prompt, the
 * file's tokens and the drafter are made by the same code as edit_run's
 * (job.c); the loop is the engine's (eng_spec_simulate).
 */
#include <stdlib.h>
#include <string.h>

#include "edit_internal.h"

/* The answer text as one piece of plain text, then the end-of-turn token
 * (edit.h). The edited file must fit the fence: a line of its own that
 * closes the fence early could never be written. */
int edit_reply_ids(const eng_model *m, const char *file, int64_t file_len,
                   const char *edited, int64_t edited_len, int32_t **ids,
                   int32_t *n, sb_err *err) {
    int32_t end_id = edit__end_id(m);
    if (end_id < 0)
        return sb_err_set(err, __func__, "the model has neither <|im_end|> "
                          "nor an EOS token to end the reply with");
    int64_t fence = edit_fence_len(file, file_len);
    bool added = edit_adds_newline(file, file_len);
    char *text = NULL;
    int64_t len = 0, closing = 0, kept = 0;
    if (edit_answer_text(edited, edited_len, fence, added, &text, &len, err))
        return -1;
    if (edit_extract(text, len, fence, added, &kept, &closing, err) ||
        closing != len - fence) {
        free(text);
        return sb_err_set(err, __func__, "the edited file has a line of "
                          "%lld or more backticks, which would close the "
                          "answer's fence early", (long long)fence);
    }
    uint64_t cap = 3 * (uint64_t)len + 2;
    *ids = cap <= INT32_MAX ? malloc((size_t)cap * sizeof **ids) : NULL;
    int64_t got = *ids ? eng_tokenize_ex(m, text, len, *ids, (int64_t)cap, 0)
                       : -1;
    free(text);
    if (got < 0 || got + 1 > (int64_t)cap) {
        free(*ids);
        *ids = NULL;
        return sb_err_set(err, __func__, "could not tokenize an answer of "
                          "%lld bytes", (long long)len);
    }
    (*ids)[got] = end_id;
    *n = (int32_t)got + 1;
    return 0;
}

/* Plain decoding's decode steps over the simulated ones, both priced by
 * the table; -1 with err when a step used more rows than it prices. */
static int sim__speedup(const stepcost_table *t, edit_sim_result *out,
                        sb_err *err) {
    double plain = (out->output_tokens - 1) * stepcost_table_cost(t, 1);
    double spec = 0;
    for (int rows = 1; rows <= KRN_MAX_ROWS; rows++) {
        if (!out->rows_hist[rows]) continue;
        double c = stepcost_table_cost(t, rows);
        if (c < 0)
            return sb_err_set(err, "edit_simulate", "the cost table lists "
                              "no row count >= %d, which a step scored (add "
                              "one or lower --max-draft)", rows);
        spec += out->rows_hist[rows] * c;
    }
    out->projected_speedup = spec > 0 ? plain / spec : 1.0;
    return 0;
}

/* The perfect drafter's cap: the least cost of producing the reply's
 * tokens after the first (which the prompt's last row yields) when every
 * guess holds, so that a step of r rows commits r tokens. cost[m], the
 * least for m tokens, is min over r of cost[m - r] + step(r): a shortest
 * path, since the steps' order does not matter. */
static int sim__perfect(const stepcost_table *t, int32_t max_draft,
                        edit_sim_result *out, sb_err *err) {
    const int32_t n = out->output_tokens - 1;
    int32_t max_rows = (max_draft > 0 ? max_draft : ENG_MAX_DRAFT) + 1;
    if (max_rows > stepcost_table_max_rows(t))
        max_rows = stepcost_table_max_rows(t);
    if (n < 1) {
        out->perfect_speedup = 1.0;
        return 0;
    }
    double *cost = malloc(((size_t)n + 1) * sizeof *cost);
    int32_t *steps = malloc(((size_t)n + 1) * sizeof *steps);
    if (!cost || !steps) {
        free(cost);
        free(steps);
        return sb_err_set(err, "edit_simulate", "out of memory for %d tokens",
                          (int)n);
    }
    cost[0] = 0;
    steps[0] = 0;
    for (int32_t m = 1; m <= n; m++) {
        cost[m] = -1;
        for (int32_t r = 1; r <= max_rows && r <= m; r++) {
            double c = cost[m - r] + stepcost_table_cost(t, r);
            if (cost[m] < 0 || c < cost[m]) {
                cost[m] = c;
                steps[m] = steps[m - r] + 1;
            }
        }
    }
    out->perfect_speedup = n * stepcost_table_cost(t, 1) / cost[n];
    out->perfect_steps = steps[n] + 1; /* and the prefill's step */
    free(cost);
    free(steps);
    return 0;
}

static void sim__fill(const eng_gen_result *g, edit_sim_result *out) {
    out->output_tokens = g->n_tokens;
    out->steps = g->steps;
    out->tokens_per_step = g->steps > 0 ? (double)g->n_tokens / g->steps : 0;
    out->drafted = g->drafted;
    out->accepted = g->accepted;
    memcpy(out->accept_hist, g->accept_hist, sizeof out->accept_hist);
}

int edit_simulate(const eng_model *m, const edit_request *req,
                  const char *expected, int64_t expected_len,
                  const edit_sim_opts *o, edit_sim_result *out, sb_err *err) {
    memset(out, 0, sizeof *out);
    stepcost_table defaults;
    stepcost_table_default(&defaults);
    const stepcost_table *costs = o && o->costs ? o->costs : &defaults;
    if (!stepcost_table_valid(costs))
        return sb_err_set(err, "edit_simulate", "step-cost table '%s' is not "
                          "valid", costs->source);
    if (expected_len < 0 || (expected_len > 0 && !expected))
        return sb_err_set(err, "edit_simulate", "bad expected file (%lld "
                          "bytes)", (long long)expected_len);
    edit__job job;
    if (edit__job_make(m, req, &job, err)) return -1;
    int32_t *reply = NULL, n_reply = 0;
    edit__drafter d = {0};
    eng_gen_result g = {0};
    int rc = -1;
    if (edit_reply_ids(m, req->file, req->file_len, expected, expected_len,
                       &reply, &n_reply, err) ||
        edit__drafter_make(o ? o->drafter : EDIT_DRAFTER_COPY, &job, costs,
                           &d, err))
        goto done;
    eng_gen_params p = eng_gen_defaults();
    /* edit_run's cap, unless the reply is longer: then all of it counts */
    p.n_max = edit_default_max_tokens(job.n_file);
    if (p.n_max < n_reply) p.n_max = n_reply;
    p.max_draft = o ? o->max_draft : 0;
    p.drafter = d.copy || d.ngram ? &d.table : NULL;
    if (eng_spec_simulate(m, job.prompt_ids, job.n_prompt, reply, n_reply, &p,
                          &g, out->rows_hist, err))
        goto done;
    sim__fill(&g, out);
    rc = sim__speedup(costs, out, err) ||
                 sim__perfect(costs, p.max_draft, out, err) ? -1 : 0;
done:
    free(g.tokens);
    edit__drafter_free(&d);
    free(reply);
    edit__job_free(&job);
    return rc;
}
