/*
 * server_internal.h — private to lsp/: the server's state and the helpers
 * its handlers share.
 *
 * Threads: the message loop (lsp_server_run) reads, dispatches and answers;
 * one worker thread (worker.c) loads the model and runs edits. They share
 * the documents and the job under `lock`. Messages go out through the
 * writer, which serialises whole messages itself.
 */
#ifndef SB_LSP_SERVER_INTERNAL_H
#define SB_LSP_SERVER_INTERNAL_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>

#include "../edit/edit.h"
#include "../sessionlog/sessionlog.h"
#include "lsp.h"

/* JSON-RPC and LSP error codes. */
enum {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
    LSP_REQUEST_FAILED = -32803,
    LSP_SERVER_CANCELLED = -32802,
    LSP_CONTENT_MODIFIED = -32801,
    LSP_REQUEST_CANCELLED = -32800,
};

/* window/showMessage and window/logMessage types. */
enum { LSP_MSG_ERROR = 1, LSP_MSG_WARNING = 2, LSP_MSG_INFO = 3, LSP_MSG_LOG = 4 };

/* One edit, from executeCommand to its answer. Fields above `cancel` are
 * set by the message loop before the job is handed over and then only read. */
typedef struct lsp_job {
    json_t *id;              /* the executeCommand request's id; owned ref */
    char *uri, *language;    /* owned */
    char *instruction;       /* owned, NUL-terminated */
    char *text;              /* owned: the document when the edit began */
    int64_t len;
    int64_t version;         /* its version then */
    int64_t generation;      /* and its open generation (lsp_doc) */
    int64_t start, end;      /* the bytes rewritten (whole lines) */
    char *range_json;        /* owned: the client's range, or NULL */
    json_t *token;           /* owned: the work done progress token, or NULL */
    int64_t create_id;       /* our window/workDoneProgress/create, or -1 */
    /* shared, under the server's lock or atomic */
    bool token_ready;        /* the token may be used (client said yes) */
    atomic_bool cancel;      /* stop at the next step */
    atomic_bool stale;       /* the document changed or closed meanwhile */
    /* worker only */
    bool begun;              /* $/progress begin was sent */
    int reports;
    double last_report;
    int64_t partial_sent; /* bytes of the edit's text reported so far */
} lsp_job;

typedef struct lsp_cache lsp_cache; /* cache.c */

typedef enum lsp_state { LSP_NEW, LSP_READY, LSP_SHUT_DOWN } lsp_state;

struct lsp_server {
    lsp_config cfg;            /* owned */
    lsp_writer *out;           /* owned */
    /* message loop only */
    lsp_state state;
    bool exit_seen;
    lsp_encoding enc;          /* negotiated at initialize */
    bool client_progress;      /* window.workDoneProgress */
    bool client_doc_changes;   /* workspace.workspaceEdit.documentChanges */
    bool client_llm_tag;       /* codeAction tagSupport lists LLMGenerated */
    bool client_prompt;        /* runs sonicboom.editWithInstruction itself
                                  (actions.c: the free-text code action) */
    /* shared under lock */
    pthread_mutex_t lock;
    pthread_cond_t wake;       /* the worker's: a job, a load, or quit */
    pthread_cond_t handled_cv; /* a message was handled (test hold) */
    lsp_docs *docs;
    lsp_job *job;              /* pending or running edit; NULL when idle */
    bool load_wanted, quit;
    uint64_t handled;          /* messages handled so far */
    int64_t next_id;           /* our next request id */
    int64_t apply_id;          /* our last workspace/applyEdit's id */
    /* worker only (and destroy) */
    pthread_t worker;
    bool worker_started;
    eng_model *model;
    eng_session *session;      /* the session being made at a load, until
                                  the cache takes it (then NULL) */
    lsp_cache *cache;          /* owned: the sessions, one per document */
    char *model_loaded;        /* owned: the path model was loaded from */
    char *warmup_loaded;       /* owned: the warm-up table session took, or NULL */
    char warmup_sha256[65];    /* that table file's SHA-256; "" without one */
    stepcost_table costs_here; /* this machine's step costs, from the warm-up
                                  table or measured when the session was made
                                  (lsp__costs_here); drafts are sized by them
                                  unless costTable names a table */
    slog_writer *log;
    char *log_path;            /* owned: the path log was opened at */
};

/* ---- the sessions (cache.c; worker thread only) ---- */

lsp_cache *lsp__cache_create(void);
void lsp__cache_destroy(lsp_cache *c);
/* Destroys every session (the model is dropped). */
void lsp__cache_clear(lsp_cache *c);
/* Takes a session no document holds yet; -1 when out of memory (the
 * caller still owns it then). */
int lsp__cache_adopt(lsp_cache *c, eng_session *session);
int lsp__cache_count(const lsp_cache *c);
/* The session for document uri (owned by the cache), made or handed over
 * within cfg.cache_mb as cache.c says; NULL with err when there is none. */
eng_session *lsp__cache_session(lsp_server *s, const char *uri, sb_err *err);

/* ---- sending (send.c: the bottom layer, which calls no other file here) ---- */

void lsp__reply(lsp_server *s, json_t *id, json_t *result);
void lsp__reply_error(lsp_server *s, json_t *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void lsp__notify(lsp_server *s, const char *method, json_t *params);
/* A request from the server; returns its id. */
int64_t lsp__request(lsp_server *s, const char *method, json_t *params);
void lsp__show(lsp_server *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void lsp__log(lsp_server *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- reading params (params.c): each returns 0, or -1 with err naming the
 * field ("textDocument.uri: expected a string") ---- */

int lsp__get_obj(json_t *o, const char *key, bool required, json_t **out,
                 sb_err *err);
/* A string without NUL characters (names, URIs, instructions). */
int lsp__get_str(json_t *o, const char *key, bool required, const char **out,
                 sb_err *err);
/* A required string that may hold NULs (a document's text): *out borrowed
 * from o, *len bytes. */
int lsp__get_text(json_t *o, const char *key, const char **out, int64_t *len,
                  sb_err *err);
int lsp__get_int(json_t *o, const char *key, bool required, int64_t lo,
                 int64_t hi, int64_t *out, sb_err *err);
/* {start, end} positions; rejects a start after its end. */
int lsp__get_range(json_t *o, const char *key, lsp_pos *start, lsp_pos *end,
                   sb_err *err);
/* params.textDocument.uri */
int lsp__get_uri(json_t *params, const char **uri, sb_err *err);
json_t *lsp__pos_json(lsp_pos p);

/* ---- handlers ---- */

typedef void (*lsp_handler)(lsp_server *s, json_t *id, json_t *params);

/* text_sync.c */
void lsp__did_open(lsp_server *s, json_t *id, json_t *params);
void lsp__did_change(lsp_server *s, json_t *id, json_t *params);
void lsp__did_close(lsp_server *s, json_t *id, json_t *params);
void lsp__did_save(lsp_server *s, json_t *id, json_t *params);
/* actions.c */
void lsp__code_action(lsp_server *s, json_t *id, json_t *params);
void lsp__execute_command(lsp_server *s, json_t *id, json_t *params);
void lsp__cancel_request(lsp_server *s, json_t *id, json_t *params);
void lsp__progress_cancel(lsp_server *s, json_t *id, json_t *params);
/* config.c: applies initializationOptions, telling the user what it
 * ignored. */
void lsp__apply_init_options(lsp_server *s, json_t *opts);

/* ---- the worker (worker.c) ---- */

int lsp__worker_start(lsp_server *s, sb_err *err);
void lsp__worker_stop(lsp_server *s);
/* Asks the worker to load the model now (after `initialized`). */
void lsp__worker_load(lsp_server *s);
/* Hands a job to the worker; false when one is already pending or running
 * (the caller keeps the job). */
bool lsp__worker_submit(lsp_server *s, lsp_job *job);
/* A response to one of our requests arrived. */
void lsp__worker_response(lsp_server *s, int64_t id, json_t *result,
                          json_t *error);
void lsp__job_free(lsp_job *job);

#endif /* SB_LSP_SERVER_INTERNAL_H */
