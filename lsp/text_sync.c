/*
 * text_sync.c — didOpen / didChange / didClose / didSave.
 *
 * These are notifications: nothing can be answered, so a malformed one is
 * reported with window/logMessage and leaves every document as it was. A
 * change to the document an edit is working on marks that edit stale: it
 * stops at its next step and answers ContentModified.
 */
#include <stdio.h>
#include <string.h>

#include "server_internal.h"

/* Marks the running edit stale when it works on uri. Caller holds lock. */
static void lsp__touch(lsp_server *s, const char *uri) {
    if (s->job && !strcmp(s->job->uri, uri)) {
        s->job->stale = true;
        s->job->cancel = true;
    }
}

void lsp__did_open(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    json_t *td;
    const char *uri, *lang, *text;
    int64_t version = 0, len = 0;
    sb_err err = {0};
    if (lsp__get_obj(params, "textDocument", true, &td, &err) ||
        lsp__get_str(td, "uri", true, &uri, &err) ||
        lsp__get_str(td, "languageId", false, &lang, &err) ||
        lsp__get_text(td, "text", &text, &len, &err) ||
        lsp__get_int(td, "version", false, INT32_MIN, INT32_MAX, &version, &err)) {
        lsp__log(s, LSP_MSG_ERROR, "didOpen ignored: %s", err.msg);
        return;
    }
    pthread_mutex_lock(&s->lock);
    lsp__touch(s, uri);
    int rc = lsp_docs_open(s->docs, uri, lang, text, len, version, &err);
    pthread_mutex_unlock(&s->lock);
    if (rc) lsp__log(s, LSP_MSG_ERROR, "didOpen: %s", err.msg);
}

/* A didChange for uri (when it could be read) was refused before it
 * reached the document: the document no longer follows the editor. */
static void lsp__desync_uri(lsp_server *s, const char *uri, const char *why) {
    if (!uri) return;
    pthread_mutex_lock(&s->lock);
    lsp_doc *doc = lsp_docs_find(s->docs, uri);
    if (doc && !doc->desync[0])
        snprintf(doc->desync, sizeof doc->desync, "%.199s", why);
    lsp__touch(s, uri);
    pthread_mutex_unlock(&s->lock);
}

/* Reads contentChanges into changes[0..n). */
static int lsp__changes(json_t *arr, lsp_change **out, int *n, sb_err *err) {
    if (!json_is_array(arr))
        return sb_err_set(err, "contentChanges", "expected an array");
    size_t count = json_array_size(arr);
    if (count > LSP_MAX_CHANGES)
        return sb_err_set(err, "contentChanges", "%zu changes: at most %d in "
                          "one didChange (docs/lsp.md, \"Limits\")", count,
                          LSP_MAX_CHANGES);
    lsp_change *v = calloc(count ? count : 1, sizeof *v);
    if (!v) return sb_err_set(err, "contentChanges", "out of memory");
    for (size_t i = 0; i < count; i++) {
        json_t *c = json_array_get(arr, i);
        sb_err inner = {0};
        if (!json_is_object(c) ||
            lsp__get_text(c, "text", &v[i].text, &v[i].len, &inner) ||
            (json_object_get(c, "range") &&
             lsp__get_range(c, "range", &v[i].start, &v[i].end, &inner))) {
            free(v);
            return sb_err_set(err, "contentChanges", "[%zu]: %s", i,
                              inner.msg[0] ? inner.msg : "expected an object");
        }
        v[i].has_range = json_object_get(c, "range") != NULL;
    }
    *out = v;
    *n = (int)count;
    return 0;
}

void lsp__did_change(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    json_t *td;
    const char *uri = NULL;
    int64_t version = 0;
    lsp_change *changes = NULL;
    int n = 0;
    sb_err err = {0};
    if (lsp__get_obj(params, "textDocument", true, &td, &err) ||
        lsp__get_str(td, "uri", true, &uri, &err) ||
        lsp__get_int(td, "version", true, INT32_MIN, INT32_MAX, &version, &err) ||
        lsp__changes(json_object_get(params, "contentChanges"), &changes, &n, &err)) {
        lsp__log(s, LSP_MSG_ERROR, "didChange ignored: %s", err.msg);
        lsp__desync_uri(s, uri, err.msg);
        return;
    }
    pthread_mutex_lock(&s->lock);
    int rc = lsp_docs_change(s->docs, uri, changes, n, version, s->enc, &err);
    /* refused or not, the editor's text moved on: an edit on it is stale */
    lsp__touch(s, uri);
    pthread_mutex_unlock(&s->lock);
    free(changes);
    if (rc) lsp__log(s, LSP_MSG_ERROR, "didChange ignored: %s", err.msg);
}

void lsp__did_close(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    const char *uri;
    sb_err err = {0};
    if (lsp__get_uri(params, &uri, &err)) {
        lsp__log(s, LSP_MSG_ERROR, "didClose ignored: %s", err.msg);
        return;
    }
    pthread_mutex_lock(&s->lock);
    int rc = lsp_docs_close(s->docs, uri, &err);
    if (!rc) lsp__touch(s, uri);
    pthread_mutex_unlock(&s->lock);
    if (rc) lsp__log(s, LSP_MSG_ERROR, "didClose: %s", err.msg);
}

void lsp__did_save(lsp_server *s, json_t *id, json_t *params) {
    (void)id;
    const char *uri;
    sb_err err = {0};
    /* Nothing to do on save (we asked for no text); only check the shape. */
    if (lsp__get_uri(params, &uri, &err))
        lsp__log(s, LSP_MSG_ERROR, "didSave ignored: %s", err.msg);
}
