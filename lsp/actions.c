/*
 * actions.c — textDocument/codeAction, workspace/executeCommand
 * (sonicboom.edit) and the two ways to cancel an edit.
 *
 * What a range means. An edit rewrites whole lines: the lines the range
 * touches (a range ending at column 0 of a later line stops before that
 * line). Only those lines are sent to the model, as the "file" of the edit
 * prompt; everything outside them is kept byte for byte, by construction.
 * Without a range the whole document is edited; an empty one in a code
 * action edits the syntax node around the cursor (lsp__enclosing_region).
 *
 * One edit at a time: a second sonicboom.edit while one runs is refused
 * (RequestFailed, saying so) rather than queued, because a queued edit
 * would start from a document the first one is about to change.
 *
 * A free-text instruction as a code action: a client that says
 * experimental.sonicboom.instructionPrompt (the plugins in editors/) is
 * offered "Edit with an instruction…" first. Its command,
 * sonicboom.editWithInstruction, carries {uri, range, version} and no
 * instruction; the client runs it itself: it asks the user, adds
 * "instruction" and sends sonicboom.edit. The server never lists it in
 * executeCommandProvider (a generic client would then send it here, where
 * there is no one to ask) and answers it with an error saying so.
 */
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

/* The command a plugin completes with the user's instruction (above). */
static const char LSP__PROMPT_COMMAND[] = "sonicboom.editWithInstruction";

/* The instructions offered as code actions; any other goes through
 * workspace/executeCommand (editors/README.md). */
static const char *const lsp__presets[] = {
    "Add documentation comments",
    "Fix the bugs",
    "Simplify this code without changing what it does",
};

/* Bytes [*start, *end) of the whole lines that [a, b] touches. */
static void lsp__line_region(const char *text, int64_t len, lsp_pos a, lsp_pos b,
                             lsp_encoding enc, int64_t *start, int64_t *end) {
    *start = lsp_offset_at(text, len, (lsp_pos){a.line, 0}, enc);
    if (b.character == 0 && b.line > a.line)
        *end = lsp_offset_at(text, len, (lsp_pos){b.line, 0}, enc);
    else
        *end = lsp_offset_at(text, len, (lsp_pos){b.line + 1, 0}, enc);
    if (*end < *start) *end = *start;
}

/* The region an empty selection edits: the whole lines of the smallest
 * function, class, block or other multi-line node around the cursor
 * (lsp_enclosing_region; the language from the languageId, else the
 * URI's extension), or the whole document where there is no grammar or
 * no such node. */
static void lsp__enclosing_region(const lsp_doc *doc, lsp_pos at,
                                  lsp_encoding enc, int64_t *start,
                                  int64_t *end) {
    const char *lang = edit_language(doc->language[0] ? doc->language : NULL,
                                     doc->uri);
    int64_t off = lsp_offset_at(doc->text, doc->len, at, enc);
    lsp_enclosing_region(doc->text, doc->len, lang, off, off, start, end);
}

/* Whether `only` (the client's filter) admits refactor.rewrite: a listed
 * kind equal to it or a prefix of it at a dot. Unknown kinds (Neovim 0.7
 * sends some) simply do not match. */
static bool lsp__kind_wanted(json_t *only) {
    if (!json_is_array(only)) return true;
    static const char want[] = "refactor.rewrite";
    size_t i;
    json_t *v;
    json_array_foreach(only, i, v) {
        if (!json_is_string(v)) continue;
        const char *k = json_string_value(v);
        size_t n = json_string_length(v); /* a NUL inside never matches */
        if (n <= sizeof want - 1 && !strncmp(want, k, n) &&
            (want[n] == '\0' || want[n] == '.'))
            return true;
    }
    return false;
}

static json_t *lsp__range_json(lsp_pos a, lsp_pos b) {
    return json_pack("{s:o,s:o}", "start", lsp__pos_json(a), "end", lsp__pos_json(b));
}

/* One code action running `command` on uri's region [ps, pe) at version;
 * instruction NULL leaves it out (the prompt action). */
static json_t *lsp__action(lsp_server *s, const char *title, const char *command,
                           const char *uri, lsp_pos ps, lsp_pos pe,
                           int64_t version, const char *instruction) {
    json_t *arg = json_pack("{s:s,s:o,s:I}", "uri", uri, "range",
                            lsp__range_json(ps, pe), "version", (json_int_t)version);
    if (arg && instruction)
        json_object_set_new(arg, "instruction", json_string(instruction));
    json_t *act = json_pack("{s:s,s:s,s:{s:s,s:s,s:[o]}}", "title", title, "kind",
                            "refactor.rewrite", "command", "title", title,
                            "command", command, "arguments", arg);
    if (act && s->client_llm_tag)
        json_object_set_new(act, "tags", json_pack("[i]", 1));
    return act;
}

void lsp__code_action(lsp_server *s, json_t *id, json_t *params) {
    const char *uri;
    lsp_pos a, b;
    json_t *ctx = NULL;
    sb_err err = {0};
    if (lsp__get_uri(params, &uri, &err) ||
        lsp__get_range(params, "range", &a, &b, &err) ||
        lsp__get_obj(params, "context", false, &ctx, &err)) {
        lsp__reply_error(s, id, LSP_INVALID_PARAMS, "codeAction: %s", err.msg);
        return;
    }
    json_t *actions = json_array();
    pthread_mutex_lock(&s->lock);
    lsp_doc *doc = lsp_docs_find(s->docs, uri);
    if (doc && lsp__kind_wanted(ctx ? json_object_get(ctx, "only") : NULL)) {
        int64_t rs, re;
        if (a.line == b.line && a.character == b.character)
            lsp__enclosing_region(doc, a, s->enc, &rs, &re);
        else
            lsp__line_region(doc->text, doc->len, a, b, s->enc, &rs, &re);
        lsp_pos ps = lsp_pos_at(doc->text, doc->len, rs, s->enc);
        lsp_pos pe = lsp_pos_at(doc->text, doc->len, re, s->enc);
        if (s->client_prompt)
            json_array_append_new(actions, lsp__action(
                s, "SonicBoom: Edit with an instruction\u2026", LSP__PROMPT_COMMAND,
                uri, ps, pe, doc->version, NULL));
        for (size_t i = 0; i < sizeof lsp__presets / sizeof lsp__presets[0]; i++) {
            char title[160];
            snprintf(title, sizeof title, "SonicBoom: %s", lsp__presets[i]);
            json_array_append_new(actions, lsp__action(s, title, "sonicboom.edit",
                                                       uri, ps, pe, doc->version,
                                                       lsp__presets[i]));
        }
    }
    pthread_mutex_unlock(&s->lock);
    lsp__reply(s, id, actions);
}

/* Reads sonicboom.edit's one argument into a job over a snapshot of the
 * document. Caller holds the lock. Returns 0, or an error code with err. */
static int lsp__job_from_arg(lsp_server *s, json_t *arg, lsp_job *job,
                             sb_err *err) {
    const char *uri, *instr;
    int64_t version = -1;
    lsp_pos a = {0, 0}, b = {0, 0};
    bool has_range = json_is_object(arg) && json_object_get(arg, "range") &&
                     !json_is_null(json_object_get(arg, "range"));
    if (!json_is_object(arg))
        return sb_err_set(err, "sonicboom.edit", "arguments[0]: expected an "
                          "object {uri, range?, instruction, version?}"),
               LSP_INVALID_PARAMS;
    if (lsp__get_str(arg, "uri", true, &uri, err) ||
        lsp__get_str(arg, "instruction", true, &instr, err) ||
        lsp__get_int(arg, "version", false, INT32_MIN, INT32_MAX, &version, err) ||
        (has_range && lsp__get_range(arg, "range", &a, &b, err)))
        return LSP_INVALID_PARAMS;
    size_t ilen = json_string_length(json_object_get(arg, "instruction"));
    if (ilen == 0 || ilen > LSP_MAX_INSTRUCTION)
        return sb_err_set(err, "instruction", "expected 1..%d bytes, got %zu",
                          LSP_MAX_INSTRUCTION, ilen), LSP_INVALID_PARAMS;
    lsp_doc *doc = lsp_docs_find(s->docs, uri);
    if (!doc)
        return sb_err_set(err, "uri", "'%.200s' is not open", uri),
               LSP_INVALID_PARAMS;
    if (doc->desync[0])
        return sb_err_set(err, "uri", "'%.200s' is out of sync with the editor "
                          "(%s): reopen it or send its whole text",
                          uri, doc->desync), LSP_CONTENT_MODIFIED;
    if (json_object_get(arg, "version") && version != doc->version)
        return sb_err_set(err, "version", "%lld, but the document is at %lld",
                          (long long)version, (long long)doc->version),
               LSP_CONTENT_MODIFIED;
    job->uri = strdup(uri);
    job->language = strdup(doc->language);
    job->instruction = strdup(instr);
    job->text = malloc((size_t)doc->len + 1);
    job->range_json = has_range ? json_dumps(json_object_get(arg, "range"),
                                             JSON_COMPACT) : NULL;
    if (!job->uri || !job->language || !job->instruction || !job->text ||
        (has_range && !job->range_json))
        return sb_err_set(err, "sonicboom.edit", "out of memory"),
               LSP_INTERNAL_ERROR;
    memcpy(job->text, doc->text, (size_t)doc->len + 1);
    job->len = doc->len;
    job->version = doc->version;
    job->generation = doc->generation;
    job->start = 0;
    job->end = doc->len;
    if (has_range)
        lsp__line_region(doc->text, doc->len, a, b, s->enc, &job->start, &job->end);
    return 0;
}

/* Chooses the progress token: the client's workDoneToken, else one we ask
 * the client to create (used once it says yes), else none. */
static void lsp__job_token(lsp_server *s, json_t *params, lsp_job *job) {
    json_t *t = json_object_get(params, "workDoneToken");
    if (json_is_string(t) || json_is_integer(t)) {
        job->token = json_incref(t);
        job->token_ready = true;
        return;
    }
    if (!s->client_progress) return;
    static uint64_t counter;
    char name[48];
    snprintf(name, sizeof name, "sonicboom/edit/%llu", (unsigned long long)++counter);
    job->token = json_string(name);
    job->create_id = lsp__request(s, "window/workDoneProgress/create",
                                  json_pack("{s:O}", "token", job->token));
}

void lsp__execute_command(lsp_server *s, json_t *id, json_t *params) {
    const char *cmd;
    sb_err err = {0};
    if (lsp__get_str(params, "command", true, &cmd, &err)) {
        lsp__reply_error(s, id, LSP_INVALID_PARAMS, "executeCommand: %s", err.msg);
        return;
    }
    if (!strcmp(cmd, LSP__PROMPT_COMMAND)) {
        lsp__reply_error(s, id, LSP_INVALID_PARAMS, "%s is run by the editor: "
                         "its SonicBoom plugin asks for the instruction and "
                         "sends sonicboom.edit (editors/README.md)",
                         LSP__PROMPT_COMMAND);
        return;
    }
    if (strcmp(cmd, "sonicboom.edit")) {
        lsp__reply_error(s, id, LSP_INVALID_PARAMS, "unknown command '%.100s' "
                         "(this server has sonicboom.edit)", cmd);
        return;
    }
    json_t *args = json_object_get(params, "arguments");
    if (!json_is_array(args) || json_array_size(args) != 1) {
        lsp__reply_error(s, id, LSP_INVALID_PARAMS, "sonicboom.edit: arguments: "
                         "expected one object {uri, range?, instruction, version?}");
        return;
    }
    lsp_job *job = calloc(1, sizeof *job);
    if (!job) {
        lsp__reply_error(s, id, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    job->create_id = -1;
    job->id = json_incref(id);
    pthread_mutex_lock(&s->lock);
    bool busy = s->job != NULL;
    int code = busy ? 0 : lsp__job_from_arg(s, json_array_get(args, 0), job, &err);
    pthread_mutex_unlock(&s->lock);
    if (busy || code) {
        if (busy)
            lsp__reply_error(s, id, LSP_REQUEST_FAILED, "an edit is already "
                             "running: cancel it or wait for it to finish");
        else
            lsp__reply_error(s, id, code, "sonicboom.edit: %s", err.msg);
        lsp__job_free(job);
        return;
    }
    lsp__job_token(s, params, job);
    if (!lsp__worker_submit(s, job)) { /* raced with nothing: loop is single */
        lsp__reply_error(s, id, LSP_REQUEST_FAILED, "an edit is already running");
        lsp__job_free(job);
    }
}

void lsp__cancel_request(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    json_t *target = json_object_get(params, "id");
    if (!json_is_integer(target) && !json_is_string(target)) {
        lsp__log(s, LSP_MSG_ERROR, "$/cancelRequest ignored: id: expected an "
                 "integer or a string");
        return;
    }
    pthread_mutex_lock(&s->lock);
    if (s->job && json_equal(s->job->id, target)) s->job->cancel = true;
    pthread_mutex_unlock(&s->lock);
}

void lsp__progress_cancel(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    json_t *token = json_object_get(params, "token");
    if (!json_is_integer(token) && !json_is_string(token)) {
        lsp__log(s, LSP_MSG_ERROR, "workDoneProgress/cancel ignored: token: "
                 "expected an integer or a string");
        return;
    }
    pthread_mutex_lock(&s->lock);
    if (s->job && s->job->token && json_equal(s->job->token, token))
        s->job->cancel = true;
    pthread_mutex_unlock(&s->lock);
}
