/*
 * server.c — JSON-RPC dispatch and the LSP lifecycle.
 *
 * Every message is checked in this order, and the first failure answers:
 * JSON (-32700), a JSON object with "jsonrpc": "2.0" and an integer or
 * string id (-32600), a string method (-32600), params an object or absent
 * (-32602), a known method (-32601 for a request; an unknown notification
 * is ignored, as the specification asks), the method's kind (a notification
 * carrying an id is refused with -32600 and not acted on; a request without
 * one is ignored: there is no id to answer), then the lifecycle (-32002
 * before initialize, -32600 after shutdown). Only then does a handler run,
 * and handlers check their params field by field (-32602).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

/* ==== lifecycle ============================================================= */

/* The client's capability at a dotted path is true. */
static bool lsp__cap(json_t *caps, const char *path) {
    char key[64];
    json_t *v = caps;
    for (const char *p = path; v && *p;) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof key) return false;
        memcpy(key, p, n);
        key[n] = '\0';
        v = json_is_object(v) ? json_object_get(v, key) : NULL;
        p += n + (p[n] == '.');
    }
    return json_is_true(v);
}

/* Reads what the client supports: position encodings (utf-8 preferred,
 * since it is what we store), progress, versioned edits, the 3.18 code
 * action tag LLMGenerated (value 1), and SonicBoom's own editor plugins
 * (editors/), which say experimental.sonicboom.instructionPrompt: they
 * ask the user for an instruction when sonicboom.editWithInstruction runs. */
static void lsp__client_caps(lsp_server *s, json_t *caps) {
    json_t *general = json_is_object(caps) ? json_object_get(caps, "general") : NULL;
    json_t *encs = json_is_object(general) ? json_object_get(general, "positionEncodings")
                                           : NULL;
    s->enc = LSP_UTF16;
    size_t i;
    json_t *v;
    if (json_is_array(encs))
        json_array_foreach(encs, i, v)
            if (json_is_string(v) && !strcmp(json_string_value(v), "utf-8"))
                s->enc = LSP_UTF8;
    s->client_progress = lsp__cap(caps, "window.workDoneProgress");
    s->client_doc_changes = lsp__cap(caps, "workspace.workspaceEdit.documentChanges");
    s->client_prompt = lsp__cap(caps, "experimental.sonicboom.instructionPrompt");
    json_t *set = caps;
    const char *path[] = {"textDocument", "codeAction", "tagSupport", "valueSet"};
    for (int k = 0; k < 4 && set; k++)
        set = json_is_object(set) ? json_object_get(set, path[k]) : NULL;
    s->client_llm_tag = false;
    if (json_is_array(set))
        json_array_foreach(set, i, v)
            if (json_is_integer(v) && json_integer_value(v) == 1)
                s->client_llm_tag = true;
}

static void lsp__initialize(lsp_server *s, json_t *id, json_t *params) {
    if (s->state != LSP_NEW) {
        lsp__reply_error(s, id, LSP_INVALID_REQUEST, "initialize was already "
                         "received");
        return;
    }
    json_t *caps = json_object_get(params, "capabilities");
    lsp__client_caps(s, caps);
    lsp__apply_init_options(s, json_object_get(params, "initializationOptions"));
    s->state = LSP_READY;
    json_t *result = json_pack(
        "{s:{s:s,s:{s:b,s:i,s:{s:b}},s:{s:[s],s:b},s:{s:[s]}},s:{s:s,s:s}}",
        "capabilities",
        "positionEncoding", s->enc == LSP_UTF8 ? "utf-8" : "utf-16",
        "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
        "codeActionProvider", "codeActionKinds", "refactor.rewrite",
        "resolveProvider", 0,
        "executeCommandProvider", "commands", "sonicboom.edit",
        "serverInfo", "name", "sb-lsp", "version", eng_version());
    lsp__reply(s, id, result);
}

static void lsp__initialized(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    (void)params;
    lsp__worker_load(s);
}

static void lsp__shutdown(lsp_server *s, json_t *id, json_t *params) {
    (void)params;
    s->state = LSP_SHUT_DOWN;
    /* an edit still running is cancelled: its answer could not be applied */
    pthread_mutex_lock(&s->lock);
    if (s->job) s->job->cancel = true;
    pthread_mutex_unlock(&s->lock);
    lsp__reply(s, id, NULL);
}

static void lsp__exit(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    (void)params;
    s->exit_seen = true;
}

/* ==== dispatch ============================================================== */

typedef enum lsp_kind { LSP_REQUEST, LSP_NOTIFICATION } lsp_kind;

typedef struct lsp_method {
    const char *name;
    lsp_kind kind;
    lsp_handler run;
} lsp_method;

static const lsp_method lsp__methods[] = {
    {"initialize", LSP_REQUEST, lsp__initialize},
    {"initialized", LSP_NOTIFICATION, lsp__initialized},
    {"shutdown", LSP_REQUEST, lsp__shutdown},
    {"exit", LSP_NOTIFICATION, lsp__exit},
    {"textDocument/didOpen", LSP_NOTIFICATION, lsp__did_open},
    {"textDocument/didChange", LSP_NOTIFICATION, lsp__did_change},
    {"textDocument/didClose", LSP_NOTIFICATION, lsp__did_close},
    {"textDocument/didSave", LSP_NOTIFICATION, lsp__did_save},
    {"textDocument/codeAction", LSP_REQUEST, lsp__code_action},
    {"workspace/executeCommand", LSP_REQUEST, lsp__execute_command},
    {"$/cancelRequest", LSP_NOTIFICATION, lsp__cancel_request},
    {"window/workDoneProgress/cancel", LSP_NOTIFICATION, lsp__progress_cancel},
};

static const lsp_method *lsp__find_method(const char *name) {
    for (size_t i = 0; i < sizeof lsp__methods / sizeof lsp__methods[0]; i++)
        if (!strcmp(lsp__methods[i].name, name)) return &lsp__methods[i];
    return NULL;
}

/* A message without a method: a response to one of our requests. */
static void lsp__response(lsp_server *s, json_t *msg, json_t *id) {
    if (!json_is_integer(id)) return; /* our ids are integers */
    lsp__worker_response(s, json_integer_value(id), json_object_get(msg, "result"),
                         json_object_get(msg, "error"));
}

/* The lifecycle's verdict on a method in the current state: true to run. */
static bool lsp__allowed(lsp_server *s, const lsp_method *m, json_t *id) {
    bool lifecycle = !strcmp(m->name, "initialize") || !strcmp(m->name, "exit");
    if (s->state == LSP_NEW && !lifecycle) {
        if (id) lsp__reply_error(s, id, LSP_SERVER_NOT_INITIALIZED, "'%s' before "
                                 "initialize", m->name);
        return false;
    }
    if (s->state == LSP_SHUT_DOWN && strcmp(m->name, "exit")) {
        if (id) lsp__reply_error(s, id, LSP_INVALID_REQUEST, "'%s' after "
                                 "shutdown", m->name);
        return false;
    }
    return true;
}

static void lsp__dispatch(lsp_server *s, json_t *msg) {
    if (!json_is_object(msg)) {
        lsp__reply_error(s, NULL, LSP_INVALID_REQUEST, json_is_array(msg)
                         ? "batches are not part of LSP: send one message at a time"
                         : "a message must be a JSON object");
        return;
    }
    json_t *id = json_object_get(msg, "id");
    if (id && !json_is_integer(id) && !json_is_string(id)) {
        lsp__reply_error(s, NULL, LSP_INVALID_REQUEST, "id: expected an integer "
                         "or a string");
        return;
    }
    json_t *ver = json_object_get(msg, "jsonrpc");
    if (!json_is_string(ver) || strcmp(json_string_value(ver), "2.0")) {
        lsp__reply_error(s, id, LSP_INVALID_REQUEST, "jsonrpc: expected \"2.0\"");
        return;
    }
    json_t *method = json_object_get(msg, "method");
    if (!method) {
        if (id && (json_object_get(msg, "result") || json_object_get(msg, "error")))
            lsp__response(s, msg, id);
        else
            lsp__reply_error(s, id, LSP_INVALID_REQUEST, "a message needs a "
                             "method, or an id and a result");
        return;
    }
    if (!json_is_string(method)) {
        lsp__reply_error(s, id, LSP_INVALID_REQUEST, "method: expected a string");
        return;
    }
    const char *name = json_string_value(method);
    if (strlen(name) != json_string_length(method)) {
        /* "shutdown\u0000x" must not run shutdown (docs/lsp.md, "Strings") */
        lsp__reply_error(s, id, LSP_INVALID_REQUEST, "method: contains a NUL "
                         "character (\\u0000)");
        return;
    }
    json_t *params = json_object_get(msg, "params");
    if (params && !json_is_object(params) && !json_is_null(params)) {
        if (id) lsp__reply_error(s, id, LSP_INVALID_PARAMS, "%s: params: expected "
                                 "an object", name);
        else lsp__log(s, LSP_MSG_ERROR, "%s: params: expected an object; ignored",
                      name);
        return;
    }
    const lsp_method *m = lsp__find_method(name);
    if (!m) {
        if (id) lsp__reply_error(s, id, LSP_METHOD_NOT_FOUND, "unknown method "
                                 "'%s'", name);
        return; /* unknown notifications are ignored */
    }
    if (m->kind == LSP_NOTIFICATION && id) {
        lsp__reply_error(s, id, LSP_INVALID_REQUEST, "'%s' is a notification and "
                         "must not carry an id; ignored", name);
        return;
    }
    if (m->kind == LSP_REQUEST && !id) {
        lsp__log(s, LSP_MSG_ERROR, "'%s' is a request and needs an id; ignored",
                 name);
        return;
    }
    if (lsp__allowed(s, m, id)) m->run(s, id, json_is_object(params) ? params : NULL);
}

bool lsp_server_handle(lsp_server *s, const char *body, size_t len) {
    json_error_t je;
    json_t *msg = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
    if (!msg)
        lsp__reply_error(s, NULL, LSP_PARSE_ERROR, "invalid JSON at line %d, "
                         "column %d: %s", je.line, je.column, je.text);
    else
        lsp__dispatch(s, msg);
    json_decref(msg);
    pthread_mutex_lock(&s->lock);
    s->handled++;
    pthread_cond_broadcast(&s->handled_cv);
    pthread_mutex_unlock(&s->lock);
    return s->exit_seen;
}

int lsp_server_run(lsp_server *s, int in_fd) {
    lsp_reader *r = lsp_reader_from_fd(in_fd, 0);
    if (!r) return 1;
    for (;;) {
        const char *body;
        size_t len;
        sb_err err = {0};
        lsp_read_status st = lsp_reader_next(r, &body, &len, &err);
        if (st == LSP_READ_OK) {
            if (lsp_server_handle(s, body, len)) break;
        } else if (st == LSP_READ_BAD || st == LSP_READ_TOO_LARGE) {
            lsp__reply_error(s, NULL, st == LSP_READ_BAD ? LSP_PARSE_ERROR
                             : LSP_INVALID_REQUEST, "%s", err.msg);
        } else {
            if (st != LSP_READ_EOF) fprintf(stderr, "sb-lsp: %s\n", err.msg);
            break;
        }
    }
    lsp_reader_destroy(r);
    return s->exit_seen && s->state == LSP_SHUT_DOWN ? 0 : 1;
}

/* ==== create / destroy ====================================================== */

static char *lsp__strdup_opt(const char *p) {
    return p ? strdup(p) : NULL;
}

lsp_server *lsp_server_create(const lsp_config *cfg, int out_fd, sb_err *err) {
    lsp_server *s = calloc(1, sizeof *s);
    if (!s) {
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->cfg.model = lsp__strdup_opt(cfg->model);
    s->cfg.log = lsp__strdup_opt(cfg->log);
    s->cfg.warmup = lsp__strdup_opt(cfg->warmup);
    s->out = lsp_writer_create(out_fd);
    s->docs = lsp_docs_create();
    s->cache = lsp__cache_create();
    s->next_id = 1;
    s->apply_id = -1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->handled_cv, NULL);
    if (!s->out || !s->docs || !s->cache || (cfg->model && !s->cfg.model) ||
        (cfg->log && !s->cfg.log) || (cfg->warmup && !s->cfg.warmup)) {
        sb_err_set(err, __func__, "out of memory");
        goto fail;
    }
    if (lsp__worker_start(s, err)) goto fail;
    return s;
fail:
    lsp_server_destroy(s);
    return NULL;
}

void lsp_server_finish(lsp_server *s) {
    lsp__worker_stop(s);
}

void lsp_server_destroy(lsp_server *s) {
    if (!s) return;
    lsp__worker_stop(s);
    lsp__cache_destroy(s->cache);
    lsp_docs_destroy(s->docs);
    lsp_writer_destroy(s->out);
    lsp_config_free(&s->cfg);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->handled_cv);
    free(s);
}
