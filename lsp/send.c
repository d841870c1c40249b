/*
 * send.c — messages out: responses, errors, notifications, our requests,
 * and the messages shown or logged to the user.
 *
 * The bottom of lsp/'s server: the message loop (server.c), the handlers
 * (text_sync.c, actions.c), the options (config.c) and the worker
 * (worker.c) all send through here, and this file calls none of them, so
 * no file calls back into one above it (docs/architecture.md, "Folders").
 * It touches only the writer, which serialises whole messages, and the
 * request counter, under the server's lock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

/* Sends msg (takes the reference). Failures mean the client is gone; the
 * loop notices at its next read. */
static void lsp__send(lsp_server *s, json_t *msg) {
    if (!msg) return;
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text) return;
    sb_err err = {0};
    lsp_writer_send(s->out, text, strlen(text), &err);
    free(text);
}

void lsp__reply(lsp_server *s, json_t *id, json_t *result) {
    lsp__send(s, json_pack("{s:O,s:o}", "id", id ? id : json_null(), "result",
                           result ? result : json_null()));
}

static void lsp__vreply_error(lsp_server *s, json_t *id, int code,
                              const char *fmt, va_list ap) {
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    lsp__send(s, json_pack("{s:O,s:{s:i,s:s}}", "id", id ? id : json_null(),
                           "error", "code", code, "message", msg));
}

void lsp__reply_error(lsp_server *s, json_t *id, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lsp__vreply_error(s, id, code, fmt, ap);
    va_end(ap);
}

void lsp__notify(lsp_server *s, const char *method, json_t *params) {
    lsp__send(s, json_pack("{s:s,s:o}", "method", method,
                           "params", params ? params : json_object()));
}

int64_t lsp__request(lsp_server *s, const char *method, json_t *params) {
    pthread_mutex_lock(&s->lock);
    int64_t id = s->next_id++;
    pthread_mutex_unlock(&s->lock);
    lsp__send(s, json_pack("{s:I,s:s,s:o}", "id", (json_int_t)id, "method",
                           method, "params", params ? params : json_object()));
    return id;
}

static void lsp__message(lsp_server *s, const char *method, int type,
                         const char *fmt, va_list ap) {
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    lsp__notify(s, method, json_pack("{s:i,s:s}", "type", type, "message", msg));
}

void lsp__show(lsp_server *s, int type, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lsp__message(s, "window/showMessage", type, fmt, ap);
    va_end(ap);
}

void lsp__log(lsp_server *s, int type, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lsp__message(s, "window/logMessage", type, fmt, ap);
    va_end(ap);
}
